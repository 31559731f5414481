# Source: https://keras.io/guides/sequential_model/ (keras-team/keras-io, guides/sequential_model.py, in its 2022 TensorFlow-era
#   copy Md557/keras-io at 98dedbd; the Keras 3 text was not at hand), "Feature extraction with a Sequential model"
# Changed: `import tensorflow as tf` -> `import minitape as tf`, `from tensorflow(.keras) import ...` -> `from minitape(.keras)
#   import ...`; cells split where the guide's text blocks split them; an added last line shows each feature map's shape
# %%
import minitape as tf
from minitape import keras
from minitape.keras import layers
# %%
initial_model = keras.Sequential(
    [
        keras.Input(shape=(250, 250, 3)),
        layers.Conv2D(32, 5, strides=2, activation="relu"),
        layers.Conv2D(32, 3, activation="relu"),
        layers.Conv2D(32, 3, activation="relu"),
    ]
)
feature_extractor = keras.Model(
    inputs=initial_model.inputs,
    outputs=[layer.output for layer in initial_model.layers],
)

# Call feature extractor on test input.
x = tf.ones((1, 250, 250, 3))
features = feature_extractor(x)
print([f.shape for f in features])
# %%
initial_model = keras.Sequential(
    [
        keras.Input(shape=(250, 250, 3)),
        layers.Conv2D(32, 5, strides=2, activation="relu"),
        layers.Conv2D(32, 3, activation="relu", name="my_intermediate_layer"),
        layers.Conv2D(32, 3, activation="relu"),
    ]
)
feature_extractor = keras.Model(
    inputs=initial_model.inputs,
    outputs=initial_model.get_layer(name="my_intermediate_layer").output,
)
# Call feature extractor on test input.
x = tf.ones((1, 250, 250, 3))
features = feature_extractor(x)
