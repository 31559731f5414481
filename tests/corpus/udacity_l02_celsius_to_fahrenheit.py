# Source: https://github.com/tensorflow/examples/blob/master/courses/udacity_intro_to_tensorflow_for_deep_learning/l02c01_celsius_to_fahrenheit.ipynb
#   (tensorflow/examples, courses/udacity_intro_to_tensorflow_for_deep_learning/l02c01_celsius_to_fahrenheit.ipynb),
#   "The Basics: Training Your First Model"
# Changed: `import tensorflow as tf` -> `import minitape as tf`; `seeded_weights(model)` (defined at the top: seeded
#   NumPy weights) after each model is built, as TF's and minitape's random initial weights differ; the matplotlib
#   cell (a plot of `history.history['loss']`) prints the number of losses recorded instead; the last cell's
#   `model.fit(...)` -> `_ = model.fit(...)` (its History repr prints an address); `model.predict([100.0])` ->
#   `model.predict(np.array([100.0]), verbose=0)`, as Keras 3 rejects a list ("Unrecognized data type") and prints a
#   progress bar; the last three prints show the weights `.round(3)` (after 500 Adam steps through three layers,
#   float32 rounding moves their 7th digit)
import numpy as np

def seeded_weights(model):  # added: seeded NumPy initial weights in place of Keras' unseeded random ones
    rng = np.random.default_rng(0)
    model.set_weights([rng.uniform(-0.5, 0.5, w.shape).astype("float32") for w in model.get_weights()])
# %%
import minitape as tf
# %%
import numpy as np
import logging
logger = tf.get_logger()
logger.setLevel(logging.ERROR)
# %%
celsius_q    = np.array([-40, -10,  0,  8, 15, 22,  38],  dtype=float)
fahrenheit_a = np.array([-40,  14, 32, 46, 59, 72, 100],  dtype=float)

for i,c in enumerate(celsius_q):
  print("{} degrees Celsius = {} degrees Fahrenheit".format(c, fahrenheit_a[i]))
# %%
l0 = tf.keras.layers.Dense(units=1, input_shape=[1])
# %%
model = tf.keras.Sequential([l0])
seeded_weights(model)
# %%
model.compile(loss='mean_squared_error',
              optimizer=tf.keras.optimizers.Adam(0.1))
# %%
history = model.fit(celsius_q, fahrenheit_a, epochs=500, verbose=False)
print("Finished training the model")
# %%
print(len(history.history['loss']))
# %%
print(model.predict(np.array([100.0]), verbose=0))
# %%
print("These are the layer variables: {}".format(l0.get_weights()))
# %%
l0 = tf.keras.layers.Dense(units=4, input_shape=[1])
l1 = tf.keras.layers.Dense(units=4)
l2 = tf.keras.layers.Dense(units=1)
model = tf.keras.Sequential([l0, l1, l2])
seeded_weights(model)
model.compile(loss='mean_squared_error', optimizer=tf.keras.optimizers.Adam(0.1))
_ = model.fit(celsius_q, fahrenheit_a, epochs=500, verbose=False)
print("Finished training the model")
print(model.predict(np.array([100.0]), verbose=0))
print("Model predicts that 100 degrees Celsius is: {} degrees Fahrenheit".format(model.predict(np.array([100.0]), verbose=0)))
print("These are the l0 variables: {}".format([w.round(3) for w in l0.get_weights()]))
print("These are the l1 variables: {}".format([w.round(3) for w in l1.get_weights()]))
print("These are the l2 variables: {}".format([w.round(3) for w in l2.get_weights()]))
