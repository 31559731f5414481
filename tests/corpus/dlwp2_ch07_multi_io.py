# Source: https://github.com/fchollet/deep-learning-with-python-notebooks/blob/master/second_edition/chapter07_working-with-keras.ipynb
#   (fchollet/deep-learning-with-python-notebooks, second_edition/chapter07_working-with-keras.ipynb), "Multi-input,
#   multi-output models" and "Access to layer connectivity"
# Changed: `import tensorflow as tf` -> `import minitape as tf`, `from tensorflow(.keras) import ...` -> `from minitape(.keras)
#   import ...`; imports of the chapter's first cell added; `num_samples = 1280` -> `num_samples = 128`; the `np.random`
#   data draws -> `np.random.default_rng(0)` draws; `verbose=0` added to fit/evaluate/predict (progress-bar timings); the
#   `plot_model` cells left out (they write PNG files through pydot); `model.evaluate(...)` shown by the notebook as the
#   cell's value is not (assigned to `_`, its values depend on unseeded initial weights)
import numpy as np
import minitape as tf
from minitape import keras
from minitape.keras import layers
# %%
vocabulary_size = 10000
num_tags = 100
num_departments = 4

title = keras.Input(shape=(vocabulary_size,), name="title")
text_body = keras.Input(shape=(vocabulary_size,), name="text_body")
tags = keras.Input(shape=(num_tags,), name="tags")

features = layers.Concatenate()([title, text_body, tags])
features = layers.Dense(64, activation="relu")(features)

priority = layers.Dense(1, activation="sigmoid", name="priority")(features)
department = layers.Dense(
    num_departments, activation="softmax", name="department")(features)

model = keras.Model(inputs=[title, text_body, tags], outputs=[priority, department])
# %%
import numpy as np

num_samples = 128
rng = np.random.default_rng(0)

title_data = rng.integers(0, 2, size=(num_samples, vocabulary_size))
text_body_data = rng.integers(0, 2, size=(num_samples, vocabulary_size))
tags_data = rng.integers(0, 2, size=(num_samples, num_tags))

priority_data = rng.random(size=(num_samples, 1))
department_data = rng.integers(0, 2, size=(num_samples, num_departments))

model.compile(optimizer="rmsprop",
              loss=["mean_squared_error", "categorical_crossentropy"],
              metrics=[["mean_absolute_error"], ["accuracy"]])
model.fit([title_data, text_body_data, tags_data],
          [priority_data, department_data],
          epochs=1, verbose=0)
_ = model.evaluate([title_data, text_body_data, tags_data],
               [priority_data, department_data], verbose=0)
priority_preds, department_preds = model.predict([title_data, text_body_data, tags_data], verbose=0)
# %%
model.compile(optimizer="rmsprop",
              loss={"priority": "mean_squared_error", "department": "categorical_crossentropy"},
              metrics={"priority": ["mean_absolute_error"], "department": ["accuracy"]})
model.fit({"title": title_data, "text_body": text_body_data, "tags": tags_data},
          {"priority": priority_data, "department": department_data},
          epochs=1, verbose=0)
_ = model.evaluate({"title": title_data, "text_body": text_body_data, "tags": tags_data},
               {"priority": priority_data, "department": department_data}, verbose=0)
priority_preds, department_preds = model.predict(
    {"title": title_data, "text_body": text_body_data, "tags": tags_data}, verbose=0)
# %%
model.layers
# %%
model.layers[3].input
# %%
model.layers[3].output
# %%
features = model.layers[4].output
difficulty = layers.Dense(3, activation="softmax", name="difficulty")(features)

new_model = keras.Model(
    inputs=[title, text_body, tags],
    outputs=[priority, department, difficulty])
