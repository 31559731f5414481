# Source: https://www.tensorflow.org/tutorials/keras/classification (tensorflow/docs,
#   site/en/tutorials/keras/classification.ipynb), "Basic classification: Classify images of clothing"
# Changed: `import tensorflow as tf` -> `import minitape as tf`; `fashion_mnist = tf.keras.datasets.fashion_mnist` and its
#   `load_data()` (a download) -> seeded NumPy uint8 images (1000 train, 200 test) and uint8 labels; `import
#   matplotlib.pyplot as plt`, `print(tf.__version__)` and the plotting cells left out; `verbose=0` and `shuffle=False`
#   added to fit (and `model.fit(...)` -> `_ = model.fit(...)`, its repr prints an address), evaluate's `verbose=2` ->
#   `verbose=0` and predict's progress bar off (`verbose=0`), as they print timings; `seeded_weights(model)` (defined at
#   the top: seeded NumPy weights) after the model is built
import numpy as np

def seeded_weights(model):  # added: seeded NumPy initial weights in place of Keras' unseeded random ones
    rng = np.random.default_rng(0)
    model.set_weights([rng.uniform(-0.05, 0.05, w.shape).astype("float32") for w in model.get_weights()])
# %%
# TensorFlow and tf.keras
import minitape as tf

# Helper libraries
import numpy as np

# %%
(train_images, train_labels), (test_images, test_labels) = (np.random.default_rng(0).integers(0, 256, (1000, 28, 28), dtype=np.uint8), np.random.default_rng(1).integers(0, 10, 1000, dtype=np.uint8)), (np.random.default_rng(2).integers(0, 256, (200, 28, 28), dtype=np.uint8), np.random.default_rng(3).integers(0, 10, 200, dtype=np.uint8))
# %%
class_names = ['T-shirt/top', 'Trouser', 'Pullover', 'Dress', 'Coat',
               'Sandal', 'Shirt', 'Sneaker', 'Bag', 'Ankle boot']
# %%
train_images.shape
# %%
len(train_labels)
# %%
train_labels
# %%
test_images.shape
# %%
len(test_labels)
# %%
train_images = train_images / 255.0

test_images = test_images / 255.0
# %%
model = tf.keras.Sequential([
    tf.keras.layers.Flatten(input_shape=(28, 28)),
    tf.keras.layers.Dense(128, activation='relu'),
    tf.keras.layers.Dense(10)
])
seeded_weights(model)
# %%
model.compile(optimizer='adam',
              loss=tf.keras.losses.SparseCategoricalCrossentropy(from_logits=True),
              metrics=['accuracy'])
# %%
_ = model.fit(train_images, train_labels, epochs=10, verbose=0, shuffle=False)
# %%
test_loss, test_acc = model.evaluate(test_images,  test_labels, verbose=0)

print('\nTest accuracy:', test_acc)
# %%
probability_model = tf.keras.Sequential([model, 
                                         tf.keras.layers.Softmax()])
# %%
predictions = probability_model.predict(test_images, verbose=0)
# %%
predictions[0]
# %%
np.argmax(predictions[0])
# %%
test_labels[0]
# %%
# Grab an image from the test dataset.
img = test_images[1]

print(img.shape)
# %%
# Add the image to a batch where it's the only member.
img = (np.expand_dims(img,0))

print(img.shape)
# %%
predictions_single = probability_model.predict(img, verbose=0)

print(predictions_single)
# %%
np.argmax(predictions_single[0])
