# %% [markdown]
# # 7. Exercises: write a VJP, a checkpointed block, a schedule, a memory budget
#
# **You will practise:** the ideas of this course, by writing them yourself. Each answer cell ends
# with a checker from `minitape.course.exercises`: it tests your answer by its properties (finite
# differences, what the tape holds, a simulation of your schedule) and says what is wrong.
# Replace each `raise NotImplementedError()` with your answer, then run the cell.
#
# **Graded assignment.** The cell after each answer is worth points. When your notebook is graded, its
# hidden tests check your function again in a fresh Python process, from the function's source alone:
# write each answer as one plain function using `tf` and `np` (no imports, no helpers from other cells).

# %%
import minitape as tf
import numpy as np
from minitape.course import exercises

# %% [markdown]
# ## 1. The VJP of a matrix product
# For `y = a @ b` and an upstream gradient `g` (the shape of `y`), return the gradient with respect
# to `a`. Hint: its shape must be the shape of `a`.

# %%
def matmul_vjp_a(g, a, b):
    # YOUR CODE HERE
    raise NotImplementedError()

exercises.check_matmul_vjp(matmul_vjp_a)


# %%
# Graded afresh (hidden tests): a new Python process imports minitape, defines `matmul_vjp_a` from its
# source alone and runs the checker on more cases; nothing this notebook changed reaches it.
# (A ✘ from the checker in this kernel fails at once, without starting that process.)

# %% [markdown]
# ## 2. The VJP of a bias
# For `y = x + b` where `x` is `(batch, features)` and `b` is `(features,)`, return the gradient with
# respect to `b`. Broadcasting copied `b` into every row…

# %%
def bias_vjp(g, x, b):
    # YOUR CODE HERE
    raise NotImplementedError()

exercises.check_bias_vjp(bias_vjp)


# %%
# Graded afresh (hidden tests): a new Python process imports minitape, defines `bias_vjp` from its
# source alone and runs the checker on more cases; nothing this notebook changed reaches it.
# (A ✘ from the checker in this kernel fails at once, without starting that process.)

# %% [markdown]
# ## 3. A checkpointed block
# Make `checkpointed_block` compute what `block` computes, with a tape that records only its calls.

# %%
def block(x):
    return tf.tanh(x * 1.5 + 0.1)

def checkpointed_block(x):
    # YOUR CODE HERE
    raise NotImplementedError()

exercises.check_checkpoint(checkpointed_block, block)


# %%
# Graded afresh (hidden tests): a new Python process imports minitape, defines `checkpointed_block` from its
# source alone and runs the checker on more cases; nothing this notebook changed reaches it.
# (A ✘ from the checker in this kernel fails at once, without starting that process.)

# %% [markdown]
# ## 4. A schedule
# Reverse a chain of 4 steps holding at most 2 states (the input is one of them). Actions:
# `("advance", i, j)`, `("store", i)`, `("free", i)`, `("record", i)`, `("backward", i)` — the table in
# notebook 4 ("The schedule, drawn") says what each does. `my_schedule` returns them, in order, as a
# list. Can you reach the optimum?

# %%
def my_schedule():
    # YOUR CODE HERE
    raise NotImplementedError()

exercises.check_schedule(my_schedule, n=4, snapshots=2)


# %%
# Graded afresh (hidden tests): a new Python process imports minitape, defines `my_schedule` from its
# source alone and runs the checker on more cases; nothing this notebook changed reaches it.
# (A ✘ from the checker in this kernel fails at once, without starting that process.)

# %% [markdown]
# ## 5. Checkpoint under a memory budget
# `exercises.residual_chain()` builds six residual blocks, `relu(x + bn(conv(relu(bn(conv(x))))))`
# (notebook 8 trains a network of them). The tape may hold at most half of what the plain chain holds,
# plus two and a half activations. Which blocks (0 to 5) would you recompute so that it fits,
# recomputing as few as possible? `my_choice` returns their indices, as a set.
# Hint: a checkpointed block keeps its input; who keeps its *output*?

# %%
def my_choice():
    # YOUR CODE HERE
    raise NotImplementedError()

exercises.check_checkpoint_choice(my_choice)

# %%
# Graded afresh (hidden tests): a new Python process imports minitape, defines `my_choice` from its
# source alone and runs the checker on more cases; nothing this notebook changed reaches it.
# (A ✘ from the checker in this kernel fails at once, without starting that process.)
