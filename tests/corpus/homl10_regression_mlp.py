# Source: https://github.com/ageron/handson-ml3/blob/main/10_neural_nets_with_keras.ipynb (ageron/handson-ml3,
#   10_neural_nets_with_keras.ipynb), "Building a Regression MLP Using the Sequential API"
# Changed: `import tensorflow as tf` -> `import minitape as tf`; the California housing download and split -> seeded NumPy
#   float64 arrays with its 8 features (300 train, 100 valid, 100 test) and targets in [0.5, 5); `seeded_weights(model)`
#   (defined at the top: seeded NumPy weights) called once the model has weights, as TF's and minitape's random streams
#   differ even under `tf.random.set_seed(42)`; `verbose=0` added to fit/evaluate/predict (progress-bar timings) and
#   `shuffle=False` to fit
import numpy as np

def seeded_weights(model):  # added: seeded NumPy initial weights in place of Keras' random ones
    rng = np.random.default_rng(0)
    model.set_weights([rng.uniform(-0.05, 0.05, w.shape).astype("float32") for w in model.get_weights()])
import minitape as tf
# %%
rng = np.random.default_rng(42)
X_train, X_valid, X_test = rng.normal(size=(300, 8)), rng.normal(size=(100, 8)), rng.normal(size=(100, 8))
y_train, y_valid, y_test = rng.uniform(0.5, 5, 300), rng.uniform(0.5, 5, 100), rng.uniform(0.5, 5, 100)
# %%
tf.random.set_seed(42)
norm_layer = tf.keras.layers.Normalization(input_shape=X_train.shape[1:])
model = tf.keras.Sequential([
    norm_layer,
    tf.keras.layers.Dense(50, activation="relu"),
    tf.keras.layers.Dense(50, activation="relu"),
    tf.keras.layers.Dense(50, activation="relu"),
    tf.keras.layers.Dense(1)
])
seeded_weights(model)
optimizer = tf.keras.optimizers.Adam(learning_rate=1e-3)
model.compile(loss="mse", optimizer=optimizer, metrics=["RootMeanSquaredError"])
norm_layer.adapt(X_train)
history = model.fit(X_train, y_train, epochs=20,
                    validation_data=(X_valid, y_valid), verbose=0, shuffle=False)
mse_test, rmse_test = model.evaluate(X_test, y_test, verbose=0)
X_new = X_test[:3]
y_pred = model.predict(X_new, verbose=0)
# %%
rmse_test
# %%
y_pred
