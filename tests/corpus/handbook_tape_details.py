# Source: https://tf.wiki/zh_hans/appendix/tape.html (snowkylin/tensorflow-handbook, https://github.com/snowkylin/tensorflow-handbook/blob/master/source/_static/code/zh/appendix/tape/tape_watch.py,
#   tape_persistent.py and high_order_grad.py), "tf.GradientTape 详解" (tf.GradientTape in detail)
# Changed: `import tensorflow as tf` -> `import minitape as tf`; the three listings are three cells, the last one's results printed (its comments give them)
import minitape as tf

x = tf.constant(3.)                 # x 为常量类型张量，默认无法对其求导
with tf.GradientTape() as tape:
    y = tf.square(x)
y_grad_1 = tape.gradient(y, x)      # 求导结果为 None
with tf.GradientTape() as tape:
    tape.watch(x)                   # 使用 tape.watch 手动将 x 加入监视列表
    y = tf.square(x)
y_grad_2 = tape.gradient(y, x)      # 求导结果为 tf.Tensor(6.0, shape=(), dtype=float32)
print(y_grad_1, y_grad_2)
# %%
import minitape as tf

x_1 = tf.Variable(3.)
x_2 = tf.Variable(2.)
with tf.GradientTape(persistent=True) as tape:
    y_1 = tf.square(x_1)
    y_2 = tf.pow(x_2, 3)
y_grad_1 = tape.gradient(y_1, x_1)  # 6.0 = 2 * 3.0
y_grad_2 = tape.gradient(y_2, x_2)  # 12.0 = 3 * 2.0 ^ 2
del tape
print(y_grad_1, y_grad_2)
# %%
import minitape as tf

x = tf.Variable(3.)
with tf.GradientTape() as tape_1:
    with tf.GradientTape() as tape_2:
        y = tf.square(x)
    dy_dx = tape_2.gradient(y, x)   # 值为 6.0
d2y_dx2 = tape_1.gradient(dy_dx, x) # 值为 2.0
print(dy_dx, d2y_dx2)
