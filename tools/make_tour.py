"""Write notebooks/00_tour.ipynb (outputs are never committed; the test suite runs it)."""
import nbformat
from nbformat.v4 import new_code_cell, new_markdown_cell, new_notebook

cells = [
    new_markdown_cell("""# A tour of minitape: gradient checkpointing you can see

**You will learn:** what a gradient tape records, what `tf.recompute_grad` records instead,
and why a checkpointed function runs again during `tape.gradient`.

minitape speaks TensorFlow's eager dialect, so we import it under TensorFlow's usual name.
Every example in this notebook is TensorFlow's own documentation of `tf.recompute_grad`,
running unchanged."""),
    new_code_cell("import minitape as tf"),
    new_markdown_cell("""## 1. A function that announces itself

`tf.print` shows each time `my_function` runs. `tf.recompute_grad` wraps it so that the tape
records only the call and its input, not what happens inside."""),
    new_code_cell("""y = tf.Variable(1.0)

def my_function(x):
  tf.print('running')
  z = x*y
  return z

my_function_recompute = tf.recompute_grad(my_function)"""),
    new_markdown_cell("The forward pass runs the function four times:"),
    new_code_cell("""with tf.GradientTape() as tape:
  r = tf.constant(1.0)
  for i in range(4):
    r = my_function_recompute(r)"""),
    new_markdown_cell("""…and `tape.gradient` runs it four more times: each checkpointed call is recomputed,
under a local tape, when the backward pass reaches it."""),
    new_code_cell("""grad = tape.gradient(r, [y])
grad"""),
    new_markdown_cell("Without `recompute_grad` the tape keeps what it needs, and the backward pass prints nothing:"),
    new_code_cell("""with tf.GradientTape() as tape:
  r = tf.constant(1.0)
  for i in range(4):
    r = my_function(r)
grad = tape.gradient(r, [y])
grad"""),
    new_markdown_cell("""## 2. Watching it happen

`tf.events.timeline()` collects everything the tape does. With checkpointing, the forward pass
records one entry per call; the backward pass recomputes each one. Press ▶ and watch: the `running`
lines appear at the moment they are printed, and each recomputation is drawn inside its checkpoint."""),
    new_code_cell("""with tf.events.timeline() as events:
    with tf.GradientTape() as tape:
        r = tf.constant(1.0)
        for i in range(4):
            r = my_function_recompute(r)
    grad = tape.gradient(r, [y])

events.names = locals()      # label values with these variable names
events.player()"""),
    new_markdown_cell("The tape itself draws as a picture: one entry per checkpointed call, holding only its input."),
    new_code_cell("""with tf.GradientTape() as tape:
  r = tf.constant(1.0)
  for i in range(4):
    r = my_function_recompute(r)
tape.picture(names=locals())"""),
    new_markdown_cell("""## 3. Keras models

`recompute_grad` also takes a Keras model. Keep a reference to the model (or use
`__wrapped__`) to reach its variables."""),
    new_code_cell("""def print_running_and_return(x):
  tf.print("running")
  return x

model = tf.keras.Sequential([
  tf.keras.layers.Lambda(print_running_and_return),
  tf.keras.layers.Dense(2)
])
model_recompute = tf.recompute_grad(model)

with tf.GradientTape(persistent=True) as tape:
  r = tf.constant([[1,2]])
  for i in range(4):
    r = model_recompute(r)

grad = tape.gradient(r, model.variables)
grad = tape.gradient(r, model_recompute.__wrapped__.variables)
[g.shape for g in grad]"""),
    new_markdown_cell("""## Exercises

1. Change the loop to 6 steps. How many `running` lines does the forward pass print, and how many
   does `gradient` print? Predict first, then run.
2. Make the tape persistent and call `tape.gradient` twice. What happens to the trace, and why?
3. Read a second variable inside `my_function`. Does `tape.gradient(r, [y, w])` give both gradients?"""),
]
notebook = new_notebook(cells=cells, metadata={"kernelspec": {"name": "python3", "display_name": "Python 3", "language": "python"}})
nbformat.write(notebook, "notebooks/00_tour.ipynb")
