# Source: https://github.com/ageron/handson-ml3/blob/main/11_training_deep_neural_networks.ipynb (ageron/handson-ml3,
#   11_training_deep_neural_networks.ipynb), "Glorot and He Initialization", "Leaky ReLU", "ELU and SELU"
# Changed: `import tensorflow as tf` -> `import minitape as tf`; the plotting cells left out
import minitape as tf
# %%
dense = tf.keras.layers.Dense(50, activation="relu",
                              kernel_initializer="he_normal")
# %%
he_avg_init = tf.keras.initializers.VarianceScaling(scale=2., mode="fan_avg",
                                                    distribution="uniform")
dense = tf.keras.layers.Dense(50, activation="sigmoid",
                              kernel_initializer=he_avg_init)
# %%
leaky_relu = tf.keras.layers.LeakyReLU(alpha=0.2)  # defaults to alpha=0.3
dense = tf.keras.layers.Dense(50, activation=leaky_relu,
                              kernel_initializer="he_normal")
# %%
model = tf.keras.models.Sequential([
    # [...]  # more layers
    tf.keras.layers.Dense(50, kernel_initializer="he_normal"),  # no activation
    tf.keras.layers.LeakyReLU(alpha=0.2),  # activation as a separate layer
    # [...]  # more layers
])
# %%
dense = tf.keras.layers.Dense(50, activation="elu",
                              kernel_initializer="he_normal")
# %%
dense = tf.keras.layers.Dense(50, activation="selu",
                              kernel_initializer="lecun_normal")
