# Source: https://github.com/ageron/handson-ml3/blob/main/10_neural_nets_with_keras.ipynb (ageron/handson-ml3,
#   10_neural_nets_with_keras.ipynb), "Implementing MLPs with Keras" to "Using the model to make predictions"
# Changed: `import tensorflow as tf` -> `import minitape as tf`; `tf.keras.datasets.fashion_mnist.load_data()` (a download) ->
#   seeded NumPy uint8 images (1000 train, 100 test) and uint8 labels, the validation split's 5000 -> 200; `import numpy
#   as np` (an earlier cell) added; plotting cells, `plot_model` left out; the random initial `weights` shown as their
#   dtype; `seeded_weights(model)` (defined at the top: seeded NumPy weights) called once the model has weights, as TF's
#   and minitape's random streams differ even under `tf.random.set_seed(42)`; `verbose=0` added to fit/evaluate/predict
#   (progress-bar timings) and `shuffle=False` to fit
# Tolerance: 1e-5 (float32 drift: after 30 epochs of SGD, sums added in another order than Eigen's leave
#   evaluate's loss 2.296180 where TF gives 2.2961812)
import numpy as np

def seeded_weights(model):  # added: seeded NumPy initial weights in place of Keras' random ones
    rng = np.random.default_rng(0)
    model.set_weights([rng.uniform(-0.05, 0.05, w.shape).astype("float32") for w in model.get_weights()])
# %%
import minitape as tf

fashion_mnist = ((np.random.default_rng(0).integers(0, 256, (1000, 28, 28), dtype=np.uint8), np.random.default_rng(1).integers(0, 10, 1000, dtype=np.uint8)),
                 (np.random.default_rng(2).integers(0, 256, (100, 28, 28), dtype=np.uint8), np.random.default_rng(3).integers(0, 10, 100, dtype=np.uint8)))
(X_train_full, y_train_full), (X_test, y_test) = fashion_mnist
X_train, y_train = X_train_full[:-200], y_train_full[:-200]
X_valid, y_valid = X_train_full[-200:], y_train_full[-200:]
# %%
X_train.shape
# %%
X_train.dtype
# %%
X_train, X_valid, X_test = X_train / 255., X_valid / 255., X_test / 255.
# %%
y_train
# %%
class_names = ["T-shirt/top", "Trouser", "Pullover", "Dress", "Coat",
               "Sandal", "Shirt", "Sneaker", "Bag", "Ankle boot"]
# %%
class_names[y_train[0]]
# %%
tf.random.set_seed(42)
model = tf.keras.Sequential()
model.add(tf.keras.layers.InputLayer(input_shape=[28, 28]))
model.add(tf.keras.layers.Flatten())
model.add(tf.keras.layers.Dense(300, activation="relu"))
model.add(tf.keras.layers.Dense(100, activation="relu"))
model.add(tf.keras.layers.Dense(10, activation="softmax"))
# %%
# extra code – clear the session to reset the name counters
tf.keras.backend.clear_session()
tf.random.set_seed(42)

model = tf.keras.Sequential([
    tf.keras.layers.Flatten(input_shape=[28, 28]),
    tf.keras.layers.Dense(300, activation="relu"),
    tf.keras.layers.Dense(100, activation="relu"),
    tf.keras.layers.Dense(10, activation="softmax")
])
seeded_weights(model)
# %%
model.summary()
# %%
model.layers
# %%
hidden1 = model.layers[1]
hidden1.name
# %%
model.get_layer('dense') is hidden1
# %%
weights, biases = hidden1.get_weights()
weights.dtype
# %%
weights.shape
# %%
biases
# %%
biases.shape
# %%
model.compile(loss="sparse_categorical_crossentropy",
              optimizer="sgd",
              metrics=["accuracy"])
# %%
# extra code – shows how to convert class ids to one-hot vectors
tf.keras.utils.to_categorical([0, 5, 1, 0], num_classes=10)
# %%
# extra code – shows how to convert one-hot vectors to class ids
np.argmax(
    [[1., 0., 0., 0., 0., 0., 0., 0., 0., 0.],
     [0., 0., 0., 0., 0., 1., 0., 0., 0., 0.],
     [0., 1., 0., 0., 0., 0., 0., 0., 0., 0.],
     [1., 0., 0., 0., 0., 0., 0., 0., 0., 0.]],
    axis=1
)
# %%
history = model.fit(X_train, y_train, epochs=30,
                    validation_data=(X_valid, y_valid), verbose=0, shuffle=False)
# %%
history.params
# %%
print(history.epoch)
# %%
model.evaluate(X_test, y_test, verbose=0)
# %%
X_new = X_test[:3]
y_proba = model.predict(X_new, verbose=0)
y_proba.round(2)
# %%
y_pred = y_proba.argmax(axis=-1)
y_pred
# %%
np.array(class_names)[y_pred]
# %%
y_new = y_test[:3]
y_new
