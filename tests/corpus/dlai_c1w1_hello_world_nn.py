# Source: https://github.com/https-deeplearning-ai/tensorflow-1-public/blob/main/C1/W1/ungraded_lab/C1_W1_Lab_1_hello_world_nn.ipynb
#   (https-deeplearning-ai/tensorflow-1-public, C1/W1/ungraded_lab/C1_W1_Lab_1_hello_world_nn.ipynb), "The Hello World of
#   Deep Learning with Neural Networks"
# Changed: `import tensorflow as tf` -> `import minitape as tf`; `verbose=0` added to fit (progress-bar timings) and
#   `model.fit(...)` -> `_ = model.fit(...)` (its History repr prints an address); `seeded_weights(model)` (defined at the
#   top: seeded NumPy weights) after the model is built, as TF's and minitape's random initial weights differ
import numpy as np

def seeded_weights(model):  # added: seeded NumPy initial weights in place of Keras' unseeded random ones
    rng = np.random.default_rng(0)
    model.set_weights([rng.uniform(-0.05, 0.05, w.shape).astype("float32") for w in model.get_weights()])
# %%
import minitape as tf
import numpy as np
# %%
# Declare model inputs and outputs for training
xs = np.array([-1.0,  0.0, 1.0, 2.0, 3.0, 4.0], dtype=float)
ys = np.array([-3.0, -1.0, 1.0, 3.0, 5.0, 7.0], dtype=float)
# %%
# Build a simple Sequential model
model = tf.keras.Sequential([

    # Define the input shape
    tf.keras.Input(shape=(1,)),

    # Add a Dense layer
    tf.keras.layers.Dense(units=1)
    ])
seeded_weights(model)
# %%
# Compile the model
model.compile(optimizer='sgd', loss='mean_squared_error')
# %%
# Train the model
_ = model.fit(xs, ys, epochs=500, verbose=0)
# %%
# Make a prediction
print(f"model predicted: {model.predict(np.array([10.0]), verbose=0).item():.5f}")
