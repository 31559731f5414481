# Source: https://tf.wiki/en/basic/basic.html (snowkylin/tensorflow-handbook, https://github.com/snowkylin/tensorflow-handbook/blob/master/source/_static/code/en/basic/example/tensorflow_eager.py
#   and https://github.com/snowkylin/tensorflow-handbook/blob/master/source/_static/code/en/basic/example/tensorflow_eager_autograd.py), "A basic example: linear regression"
# Changed: `import tensorflow as tf` -> `import minitape as tf`; the two listings are two cells
import minitape as tf
import numpy as np

X_raw = np.array([2013, 2014, 2015, 2016, 2017], dtype=np.float32)
y_raw = np.array([12000, 14000, 15000, 16500, 17500], dtype=np.float32)

X = (X_raw - X_raw.min()) / (X_raw.max() - X_raw.min())
y = (y_raw - y_raw.min()) / (y_raw.max() - y_raw.min())

X = tf.constant(X)
y = tf.constant(y)

a = tf.Variable(initial_value=0.)
b = tf.Variable(initial_value=0.)

num_epoch = 10000
learning_rate = 1e-3
for e in range(num_epoch):
    # 前向传播
    y_pred = a * X + b
    loss = 0.5 * tf.reduce_sum(tf.square(y_pred - y)) # loss = 0.5 * np.sum(np.square(a * X + b - y))

    # 反向传播，手动计算变量（模型参数）的梯度
    grad_a = tf.reduce_sum((y_pred - y) * X)
    grad_b = tf.reduce_sum(y_pred - y)

    # 更新参数
    a, b = a - learning_rate * grad_a, b - learning_rate * grad_b

print(a, b)
# %%
import numpy as np
import minitape as tf

X_raw = np.array([2013, 2014, 2015, 2016, 2017], dtype=np.float32)
y_raw = np.array([12000, 14000, 15000, 16500, 17500], dtype=np.float32)

X = (X_raw - X_raw.min()) / (X_raw.max() - X_raw.min())
y = (y_raw - y_raw.min()) / (y_raw.max() - y_raw.min())

X = tf.constant(X)
y = tf.constant(y)

a = tf.Variable(initial_value=0.)
b = tf.Variable(initial_value=0.)
variables = [a, b]

num_epoch = 10000
optimizer = tf.keras.optimizers.SGD(learning_rate=1e-3)
for e in range(num_epoch):
    # Use tf.GradientTape() to record information about the gradient of the loss function.
    with tf.GradientTape() as tape:
        y_pred = a * X + b
        loss = 0.5 * tf.reduce_sum(tf.square(y_pred - y))
    # TensorFlow computes the gradients of the loss function with respect to independent variables (model parameters) automatically.
    grads = tape.gradient(loss, variables)
    # TensorFlow updates parameters according to the gradient automatically.
    optimizer.apply_gradients(grads_and_vars=zip(grads, variables))

print(a, b)
