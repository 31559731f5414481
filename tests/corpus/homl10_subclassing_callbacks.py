# Source: https://github.com/ageron/handson-ml3/blob/main/10_neural_nets_with_keras.ipynb (ageron/handson-ml3,
#   10_neural_nets_with_keras.ipynb), "Using the Subclassing API to Build Dynamic Models" and "Using Callbacks"
# Changed: `import tensorflow as tf` -> `import minitape as tf`; the California housing download and split -> seeded NumPy
#   float64 arrays with its 8 features (300 train, 100 valid, 100 test) and targets in [0.5, 5) and the wide/deep splits;
#   `seeded_trainable_weights(model)` (defined at the top: seeded NumPy weights) called once the model has weights, as
#   TF's and minitape's random streams differ even under `tf.random.set_seed(42)`; `verbose=0` added to
#   fit/evaluate/predict (progress-bar timings) and `shuffle=False` to fit (after the adapt calls and a first call that
#   builds the model; only the trainable weights, as the Normalization layers keep their adapted statistics); `import
#   shutil` and the SavedModel cells left out; added last lines show the epochs run
import numpy as np

def seeded_trainable_weights(model):  # added: seeded NumPy initial weights in place of Keras' random ones
    rng = np.random.default_rng(0)
    for w in model.trainable_weights:
        w.assign(rng.uniform(-0.05, 0.05, w.shape).astype("float32"))
import minitape as tf
# %%
rng = np.random.default_rng(42)
X_train, X_valid, X_test = rng.normal(size=(300, 8)), rng.normal(size=(100, 8)), rng.normal(size=(100, 8))
y_train, y_valid, y_test = rng.uniform(0.5, 5, 300), rng.uniform(0.5, 5, 100), rng.uniform(0.5, 5, 100)
X_train_wide, X_train_deep = X_train[:, :5], X_train[:, 2:]
X_valid_wide, X_valid_deep = X_valid[:, :5], X_valid[:, 2:]
X_test_wide, X_test_deep = X_test[:, :5], X_test[:, 2:]
X_new_wide, X_new_deep = X_test_wide[:3], X_test_deep[:3]
# %%
class WideAndDeepModel(tf.keras.Model):
    def __init__(self, units=30, activation="relu", **kwargs):
        super().__init__(**kwargs)  # needed to support naming the model
        self.norm_layer_wide = tf.keras.layers.Normalization()
        self.norm_layer_deep = tf.keras.layers.Normalization()
        self.hidden1 = tf.keras.layers.Dense(units, activation=activation)
        self.hidden2 = tf.keras.layers.Dense(units, activation=activation)
        self.main_output = tf.keras.layers.Dense(1)
        self.aux_output = tf.keras.layers.Dense(1)
        
    def call(self, inputs):
        input_wide, input_deep = inputs
        norm_wide = self.norm_layer_wide(input_wide)
        norm_deep = self.norm_layer_deep(input_deep)
        hidden1 = self.hidden1(norm_deep)
        hidden2 = self.hidden2(hidden1)
        concat = tf.keras.layers.concatenate([norm_wide, hidden2])
        output = self.main_output(concat)
        aux_output = self.aux_output(hidden2)
        return output, aux_output

tf.random.set_seed(42)  # extra code – just for reproducibility
model = WideAndDeepModel(30, activation="relu", name="my_cool_model")
# %%
optimizer = tf.keras.optimizers.Adam(learning_rate=1e-3)
model.compile(loss=["mse", "mse"], loss_weights=[0.9, 0.1], optimizer=optimizer,
              metrics=["RootMeanSquaredError", "RootMeanSquaredError"])
model.norm_layer_wide.adapt(X_train_wide)
model.norm_layer_deep.adapt(X_train_deep)
model((X_new_wide, X_new_deep))
seeded_trainable_weights(model)
history = model.fit(
    (X_train_wide, X_train_deep), (y_train, y_train), epochs=10,
    validation_data=((X_valid_wide, X_valid_deep), (y_valid, y_valid)), verbose=0, shuffle=False)
eval_results = model.evaluate((X_test_wide, X_test_deep), (y_test, y_test), verbose=0)
y_pred_main, y_pred_aux = model.predict((X_new_wide, X_new_deep), verbose=0)
# %%
checkpoint_cb = tf.keras.callbacks.ModelCheckpoint("my_checkpoints.weights.h5",
                                                   save_weights_only=True)
history = model.fit(
    (X_train_wide, X_train_deep), (y_train, y_train), epochs=10,
    validation_data=((X_valid_wide, X_valid_deep), (y_valid, y_valid)),
    callbacks=[checkpoint_cb], verbose=0, shuffle=False)
history.epoch
# %%
early_stopping_cb = tf.keras.callbacks.EarlyStopping(patience=10,
                                                     restore_best_weights=True)
history = model.fit(
    (X_train_wide, X_train_deep), (y_train, y_train), epochs=100,
    validation_data=((X_valid_wide, X_valid_deep), (y_valid, y_valid)),
    callbacks=[checkpoint_cb, early_stopping_cb], verbose=0, shuffle=False)
len(history.epoch)
# %%
class PrintValTrainRatioCallback(tf.keras.callbacks.Callback):
    def on_epoch_end(self, epoch, logs):
        ratio = logs["val_loss"] / logs["loss"]
        print(f"Epoch={epoch}, val/train={ratio:.2f}")
# %%
val_train_ratio_cb = PrintValTrainRatioCallback()
history = model.fit(
    (X_train_wide, X_train_deep), (y_train, y_train), epochs=10,
    validation_data=((X_valid_wide, X_valid_deep), (y_valid, y_valid)),
    callbacks=[val_train_ratio_cb], verbose=0, shuffle=False)
