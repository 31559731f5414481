# Source: https://github.com/ageron/handson-ml3/blob/main/12_custom_models_and_training_with_tensorflow.ipynb (ageron/handson-ml3, 12_custom_models_and_training_with_tensorflow.ipynb), "Variables"
# Changed: `import tensorflow as tf` -> `import minitape as tf`
import minitape as tf
# %%
v = tf.Variable([[1., 2., 3.], [4., 5., 6.]])
v
# %%
v.assign(2 * v)
# %%
v[0, 1].assign(42)
# %%
v[:, 2].assign([0., 1.])
# %%
v.scatter_nd_update(
    indices=[[0, 0], [1, 2]], updates=[100., 200.])
# %%
# extra code – shows how to use scatter_update()
sparse_delta = tf.IndexedSlices(values=[[1., 2., 3.], [4., 5., 6.]],
                                indices=[1, 0])
v.scatter_update(sparse_delta)
# %%
try:
    v[1] = [7., 8., 9.]
except TypeError as ex:
    print(ex)
