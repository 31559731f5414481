# Source: https://tf.wiki/zh_hans/basic/tools.html (snowkylin/tensorflow-handbook,
#   https://github.com/snowkylin/tensorflow-handbook/blob/master/source/_static/code/zh/tools/tfdata/tutorial.py),
#   "tf.data：数据集的构建与预处理" (tf.data: building and preprocessing datasets)
# Changed: `import tensorflow as tf` -> `import minitape as tf`; `tf.keras.datasets.mnist.load_data()` (a download) ->
#   seeded NumPy uint8 images (8 of 28 x 28) and uint8 labels; each loop's matplotlib drawing (`plt.title`, `plt.imshow`,
#   `plt.show`, `plt.subplots`) -> a print of the label(s) and the image's shape and sum; the listing split into cells;
#   the last loop (`.shuffle(buffer_size=10000)`: TF's and minitape's shuffles differ) left out
import minitape as tf
import numpy as np

X = tf.constant([2013, 2014, 2015, 2016, 2017])
Y = tf.constant([12000, 14000, 15000, 16500, 17500])

# 也可以使用NumPy数组，效果相同
# X = np.array([2013, 2014, 2015, 2016, 2017])
# Y = np.array([12000, 14000, 15000, 16500, 17500])

dataset = tf.data.Dataset.from_tensor_slices((X, Y))

for x, y in dataset:
    print(x.numpy(), y.numpy()) 
# %%
(train_data, train_label) = (np.random.default_rng(0).integers(0, 256, (8, 28, 28), dtype=np.uint8), np.random.default_rng(1).integers(0, 10, 8, dtype=np.uint8))
train_data = np.expand_dims(train_data.astype(np.float32) / 255.0, axis=-1)      # [60000, 28, 28, 1]
mnist_dataset = tf.data.Dataset.from_tensor_slices((train_data, train_label))

for image, label in mnist_dataset:
    print(label.numpy(), image.shape, f"{image.numpy().sum():.3f}", f"{image.numpy()[0, :, 0].sum():.3f}")
# %%
def rot90(image, label):
    image = tf.image.rot90(image)
    return image, label

mnist_dataset = mnist_dataset.map(rot90)

for image, label in mnist_dataset:
    print(label.numpy(), image.shape, f"{image.numpy().sum():.3f}", f"{image.numpy()[0, :, 0].sum():.3f}")
# %%
mnist_dataset = mnist_dataset.batch(4)

for images, labels in mnist_dataset:    # image: [4, 28, 28, 1], labels: [4]
    print(labels.numpy(), images.shape, images.dtype)
