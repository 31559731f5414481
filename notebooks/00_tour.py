# %% [markdown]
# # A tour of minitape: gradient checkpointing you can see
#
# **You will learn:** what a gradient tape records, what `tf.recompute_grad` records instead,
# and why a checkpointed function runs again during `tape.gradient`.
#
# minitape speaks TensorFlow's eager dialect, so we import it under TensorFlow's usual name.
# The examples are TensorFlow's own documentation of `tf.recompute_grad`, running unchanged.

# %%
import minitape as tf

# %% [markdown]
# ## 1. A function that announces itself
#
# `tf.print` shows each time `my_function` runs. `tf.recompute_grad` wraps it so that the tape
# records only the call and its input, not what happens inside.

# %%
y = tf.Variable(1.0)

def my_function(x):
  tf.print('running')
  z = x*y
  return z

my_function_recompute = tf.recompute_grad(my_function)

# %% [markdown]
# The forward pass runs the function four times:

# %%
with tf.GradientTape() as tape:
  r = tf.constant(1.0)
  for i in range(4):
    r = my_function_recompute(r)

# %% [markdown]
# …and `tape.gradient` runs it four more times: each checkpointed call is recomputed, under a
# local tape, when the backward pass reaches it.

# %%
grad = tape.gradient(r, [y])
grad

# %% [markdown]
# Without `recompute_grad` the tape keeps what it needs, and the backward pass prints nothing:

# %%
with tf.GradientTape() as tape:
  r = tf.constant(1.0)
  for i in range(4):
    r = my_function(r)
grad = tape.gradient(r, [y])
grad

# %% [markdown]
# ## 2. Watching it happen
#
# `tf.events.timeline()` collects everything the tape does, the `running` lines included. This time
# the printed lines are caught (`contextlib.redirect_stdout`) instead of shown at once, so that the
# player can reveal them. Press ▶ and watch: each `running` line appears beside the picture at the
# moment it is printed, and each recomputation is drawn inside its checkpoint.

# %%
import contextlib
import io

printed = io.StringIO()            # the trace goes here; the player shows it frame by frame
with contextlib.redirect_stdout(printed):
    with tf.events.timeline() as events:
        with tf.GradientTape() as tape:
            r = tf.constant(1.0)
            for i in range(4):
                r = my_function_recompute(r)
        grad = tape.gradient(r, [y])

events.names = locals()      # label values with these variable names
events.player()

# %% [markdown]
# Once you have played it through, here is what the run printed, all at once: the eight lines of
# section 1, four going forward and four during `tape.gradient`.

# %%
print(printed.getvalue(), end="")

# %% [markdown]
# The tape itself draws as a picture: one entry per checkpointed call, holding only its input.

# %%
with tf.GradientTape() as tape:
  r = tf.constant(1.0)
  for i in range(4):
    r = my_function_recompute(r)
tape.picture(names=locals())

# %% [markdown]
# ## 3. Keras models
#
# `recompute_grad` also takes a Keras model. Keep a reference to the model (or use
# `__wrapped__`) to reach its variables.

# %%
def print_running_and_return(x):
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
[g.shape for g in grad]

# %% [markdown]
# ## Exercises
#
# 1. Change the loop to 6 steps. How many `running` lines does the forward pass print, and how many
#    does `gradient` print? Predict first, then run.
# 2. Make the tape persistent and call `tape.gradient` twice. What happens to the trace, and why?
# 3. Read a second variable inside `my_function`. Does `tape.gradient(r, [y, w])` give both gradients?
