# Source: https://github.com/fchollet/deep-learning-with-python-notebooks/blob/master/chapter07_deep-dive-keras.ipynb
#   (fchollet/deep-learning-with-python-notebooks, chapter07_deep-dive-keras.ipynb, the 3rd edition), "Low-level usage of
#   metrics"
# Changed: `import tensorflow as tf` -> `import minitape as tf`, `import keras`/`from keras import ...` -> `from minitape import
#   keras`/`from minitape.keras import ...`; `import keras` (the chapter's first cell) and `import minitape as tf` added
import minitape as tf
from minitape import keras
# %%
from minitape.keras import ops

metric = keras.metrics.SparseCategoricalAccuracy()
targets = ops.array([0, 1, 2])
predictions = ops.array([[1, 0, 0], [0, 1, 0], [0, 0, 1]])
metric.update_state(targets, predictions)
current_result = metric.result()
print(f"result: {current_result:.2f}")
# %%
values = ops.array([0, 1, 2, 3, 4])
mean_tracker = keras.metrics.Mean()
for value in values:
    mean_tracker.update_state(value)
print(f"Mean of values: {mean_tracker.result():.2f}")
# %%
metric = keras.metrics.SparseCategoricalAccuracy()
targets = ops.array([0, 1, 2])
predictions = ops.array([[1, 0, 0], [0, 1, 0], [0, 0, 1]])

metric_variables = metric.variables
metric_variables = metric.stateless_update_state(
    metric_variables, targets, predictions
)
current_result = metric.stateless_result(metric_variables)
print(f"result: {current_result:.2f}")

metric_variables = metric.stateless_reset_state()
