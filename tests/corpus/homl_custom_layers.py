# Source: https://github.com/ageron/handson-ml3/blob/main/12_custom_models_and_training_with_tensorflow.ipynb (ageron/handson-ml3, 12_custom_models_and_training_with_tensorflow.ipynb), "Custom Layers"
# Changed: `import tensorflow as tf` -> `import minitape as tf`; of the section's cells, those that train on the
#   California housing data are left out (the two Lambda-layer cells and the MyMultiLayer cells kept);
#   `import numpy as np` (from the notebook's earlier "Tensors and NumPy" cell) added
import numpy as np

import minitape as tf
# %%
exponential_layer = tf.keras.layers.Lambda(lambda x: tf.exp(x))
# %%
# extra code – like all layers, it can be used as a function:
exponential_layer(tf.constant([-1., 0., 1.]))
# %%
class MyMultiLayer(tf.keras.layers.Layer):
    def call(self, X):
        X1, X2 = X
        print("X1.shape: ", X1.shape ," X2.shape: ", X2.shape)  # extra code
        return X1 + X2, X1 * X2, X1 / X2
# %%
# extra code – tests MyMultiLayer with symbolic inputs
inputs1 = tf.keras.layers.Input(shape=[2])
inputs2 = tf.keras.layers.Input(shape=[2])
MyMultiLayer()((inputs1, inputs2))
# %%
# extra code – tests MyMultiLayer with actual data 
X1, X2 = np.array([[3., 6.], [2., 7.]]), np.array([[6., 12.], [4., 3.]]) 
MyMultiLayer()((X1, X2))
