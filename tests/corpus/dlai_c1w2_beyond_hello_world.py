# Source: https://github.com/https-deeplearning-ai/tensorflow-1-public/blob/main/C1/W2/ungraded_labs/C1_W2_Lab_1_beyond_hello_world.ipynb
#   (https-deeplearning-ai/tensorflow-1-public, C1/W2/ungraded_labs/C1_W2_Lab_1_beyond_hello_world.ipynb), "Ungraded Lab:
#   Beyond Hello World, A Computer Vision Example"
# Changed: `import tensorflow as tf` -> `import minitape as tf`; `fmnist = tf.keras.datasets.fashion_mnist` and its `load_data()`
#   (a download) -> seeded NumPy uint8 images (1000 train, 200 test) and uint8 labels; `import matplotlib.pyplot as plt`
#   and the `plt` lines dropped (plotting); `verbose=0` and `shuffle=False` added to fit/evaluate/predict,
#   `model.fit(...)` -> `_ = model.fit(...)`; `seeded_weights(model)` after the model is built; the exercises after the
#   first model left out
import numpy as np

def seeded_weights(model):  # added: seeded NumPy initial weights in place of Keras' unseeded random ones
    rng = np.random.default_rng(0)
    model.set_weights([rng.uniform(-0.05, 0.05, w.shape).astype("float32") for w in model.get_weights()])
# %%
import minitape as tf
import numpy as np
# %%

# %%
# Load the training and test split of the Fashion MNIST dataset
(training_images, training_labels), (test_images, test_labels) = (np.random.default_rng(0).integers(0, 256, (1000, 28, 28), dtype=np.uint8), np.random.default_rng(1).integers(0, 10, 1000, dtype=np.uint8)), (np.random.default_rng(2).integers(0, 256, (200, 28, 28), dtype=np.uint8), np.random.default_rng(3).integers(0, 10, 200, dtype=np.uint8))
# %%
# You can put between 0 to 59999 here
index = 0

# Set number of characters per row when printing
np.set_printoptions(linewidth=320)

# Print the label and image
print(f'LABEL: {training_labels[index]}')
print(f'\nIMAGE PIXEL ARRAY:\n\n{training_images[index]}\n\n')

# Visualize the image using the default colormap (viridis)

# %%
# Normalize the pixel values of the train and test images
training_images  = training_images / 255.0
test_images = test_images / 255.0
# %%
# Build the classification model
model = tf.keras.models.Sequential([
    tf.keras.Input(shape=(28,28)),
    tf.keras.layers.Flatten(), 
    tf.keras.layers.Dense(128, activation=tf.nn.relu), 
    tf.keras.layers.Dense(10, activation=tf.nn.softmax)
])
seeded_weights(model)
# %%
# Declare sample inputs and convert to a tensor
inputs = np.array([[1.0, 3.0, 4.0, 2.0]])
inputs = tf.convert_to_tensor(inputs)
print(f'input to softmax function: {inputs.numpy()}')

# Feed the inputs to a softmax activation function
outputs = tf.keras.activations.softmax(inputs)
print(f'output of softmax function: {outputs.numpy()}')

# Get the sum of all values after the softmax
sum = tf.reduce_sum(outputs)
print(f'sum of outputs: {sum}')

# Get the index with highest value
prediction = np.argmax(outputs)
print(f'class with highest probability: {prediction}')
# %%
model.compile(optimizer = tf.optimizers.Adam(),
              loss = 'sparse_categorical_crossentropy',
              metrics=['accuracy'])

_ = model.fit(training_images, training_labels, epochs=5, verbose=0, shuffle=False)
# %%
# Evaluate the model on unseen data
model.evaluate(test_images, test_labels, verbose=0)
# %%
classifications = model.predict(test_images, verbose=0)

print(classifications[0])
# %%
print(test_labels[0])
