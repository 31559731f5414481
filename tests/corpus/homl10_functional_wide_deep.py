# Source: https://github.com/ageron/handson-ml3/blob/main/10_neural_nets_with_keras.ipynb (ageron/handson-ml3,
#   10_neural_nets_with_keras.ipynb), "Building Complex Models Using the Functional API"
# Changed: `import tensorflow as tf` -> `import minitape as tf`; the California housing download and split -> seeded NumPy
#   float64 arrays with its 8 features (300 train, 100 valid, 100 test) and targets in [0.5, 5); `seeded_weights(model)`
#   (defined at the top: seeded NumPy weights) called once the model has weights, as TF's and minitape's random streams
#   differ even under `tf.random.set_seed(42)`; `verbose=0` added to fit/evaluate/predict (progress-bar timings) and
#   `shuffle=False` to fit; `X_new = X_test[:3]` (from the previous section) added; each model's fit results shown by an
#   added `mse_test` line
# xfail: `model.summary()` draws its table wider than Keras 3 does, without the "Connected to" column of a functional
#   model that is not a chain
import numpy as np

def seeded_weights(model):  # added: seeded NumPy initial weights in place of Keras' random ones
    rng = np.random.default_rng(0)
    model.set_weights([rng.uniform(-0.05, 0.05, w.shape).astype("float32") for w in model.get_weights()])
import minitape as tf
# %%
rng = np.random.default_rng(42)
X_train, X_valid, X_test = rng.normal(size=(300, 8)), rng.normal(size=(100, 8)), rng.normal(size=(100, 8))
y_train, y_valid, y_test = rng.uniform(0.5, 5, 300), rng.uniform(0.5, 5, 100), rng.uniform(0.5, 5, 100)
X_new = X_test[:3]
# %%
# extra code – reset the name counters and make the code reproducible
tf.keras.backend.clear_session()
tf.random.set_seed(42)
# %%
normalization_layer = tf.keras.layers.Normalization()
hidden_layer1 = tf.keras.layers.Dense(30, activation="relu")
hidden_layer2 = tf.keras.layers.Dense(30, activation="relu")
concat_layer = tf.keras.layers.Concatenate()
output_layer = tf.keras.layers.Dense(1)

input_ = tf.keras.layers.Input(shape=X_train.shape[1:])
normalized = normalization_layer(input_)
hidden1 = hidden_layer1(normalized)
hidden2 = hidden_layer2(hidden1)
concat = concat_layer([normalized, hidden2])
output = output_layer(concat)

model = tf.keras.Model(inputs=[input_], outputs=[output])
seeded_weights(model)
# %%
model.summary()
# %%
optimizer = tf.keras.optimizers.Adam(learning_rate=1e-3)
model.compile(loss="mse", optimizer=optimizer, metrics=["RootMeanSquaredError"])
normalization_layer.adapt(X_train)
history = model.fit(X_train, y_train, epochs=20,
                    validation_data=(X_valid, y_valid), verbose=0, shuffle=False)
mse_test = model.evaluate(X_test, y_test, verbose=0)
print(mse_test)
y_pred = model.predict(X_new, verbose=0)
# %%
tf.random.set_seed(42)  # extra code
# %%
input_wide = tf.keras.layers.Input(shape=[5])  # features 0 to 4
input_deep = tf.keras.layers.Input(shape=[6])  # features 2 to 7
norm_layer_wide = tf.keras.layers.Normalization()
norm_layer_deep = tf.keras.layers.Normalization()
norm_wide = norm_layer_wide(input_wide)
norm_deep = norm_layer_deep(input_deep)
hidden1 = tf.keras.layers.Dense(30, activation="relu")(norm_deep)
hidden2 = tf.keras.layers.Dense(30, activation="relu")(hidden1)
concat = tf.keras.layers.concatenate([norm_wide, hidden2])
output = tf.keras.layers.Dense(1)(concat)
model = tf.keras.Model(inputs=[input_wide, input_deep], outputs=[output])
seeded_weights(model)
# %%
optimizer = tf.keras.optimizers.Adam(learning_rate=1e-3)
model.compile(loss="mse", optimizer=optimizer, metrics=["RootMeanSquaredError"])

X_train_wide, X_train_deep = X_train[:, :5], X_train[:, 2:]
X_valid_wide, X_valid_deep = X_valid[:, :5], X_valid[:, 2:]
X_test_wide, X_test_deep = X_test[:, :5], X_test[:, 2:]
X_new_wide, X_new_deep = X_test_wide[:3], X_test_deep[:3]

norm_layer_wide.adapt(X_train_wide)
norm_layer_deep.adapt(X_train_deep)
history = model.fit((X_train_wide, X_train_deep), y_train, epochs=20,
                    validation_data=((X_valid_wide, X_valid_deep), y_valid), verbose=0, shuffle=False)
mse_test = model.evaluate((X_test_wide, X_test_deep), y_test, verbose=0)
print(mse_test)
y_pred = model.predict((X_new_wide, X_new_deep), verbose=0)
