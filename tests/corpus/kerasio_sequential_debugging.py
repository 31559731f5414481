# Source: https://keras.io/guides/sequential_model/ (keras-team/keras-io, guides/sequential_model.py, in its 2022 TensorFlow-era
#   copy Md557/keras-io at 98dedbd; the Keras 3 text was not at hand), "A common debugging workflow: add() + summary()"
# Changed: `import tensorflow as tf` -> `import minitape as tf`, `from tensorflow(.keras) import ...` -> `from minitape(.keras)
#   import ...`; cells split where the guide's text blocks split them
# %%
import minitape as tf
from minitape import keras
from minitape.keras import layers
# %%
model = keras.Sequential()
model.add(keras.Input(shape=(250, 250, 3)))  # 250x250 RGB images
model.add(layers.Conv2D(32, 5, strides=2, activation="relu"))
model.add(layers.Conv2D(32, 3, activation="relu"))
model.add(layers.MaxPooling2D(3))

# Can you guess what the current output shape is at this point? Probably not.
# Let's just print it:
model.summary()

# The answer was: (40, 40, 32), so we can keep downsampling...

model.add(layers.Conv2D(32, 3, activation="relu"))
model.add(layers.Conv2D(32, 3, activation="relu"))
model.add(layers.MaxPooling2D(3))
model.add(layers.Conv2D(32, 3, activation="relu"))
model.add(layers.Conv2D(32, 3, activation="relu"))
model.add(layers.MaxPooling2D(2))

# And now?
model.summary()

# Now that we have 4x4 feature maps, time to apply global max pooling.
model.add(layers.GlobalMaxPooling2D())

# Finally, we add a classification layer.
model.add(layers.Dense(10))
