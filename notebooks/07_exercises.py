# %% [markdown]
# # 7. Exercises: write a VJP, a checkpointed block, a schedule
#
# **You will practise:** the three ideas of this course, by writing them yourself. Each cell ends
# with a checker from `minitape.course.exercises`: it tests your answer by its properties (finite
# differences, what the tape holds, a simulation of your schedule) and says what is wrong.
# Replace each `raise NotImplementedError` with your answer, then run the cell.

# %%
import minitape as tf
from minitape.course import exercises

# %% [markdown]
# ## 1. The VJP of a matrix product
# For `y = a @ b` and an upstream gradient `g` (the shape of `y`), return the gradient with respect
# to `a`. Hint: its shape must be the shape of `a`.

# %%
def matmul_vjp_a(g, a, b):
    raise NotImplementedError

exercises.check_matmul_vjp(matmul_vjp_a)

# %% [markdown]
# ## 2. The VJP of a bias
# For `y = x + b` where `x` is `(batch, features)` and `b` is `(features,)`, return the gradient with
# respect to `b`. Broadcasting copied `b` into every row…

# %%
def bias_vjp(g, x, b):
    raise NotImplementedError

exercises.check_bias_vjp(bias_vjp)

# %% [markdown]
# ## 3. A checkpointed block
# Make `checkpointed_block` compute what `block` computes, with a tape that records only its calls.

# %%
def block(x):
    return tf.tanh(x * 1.5 + 0.1)

def checkpointed_block(x):
    raise NotImplementedError

exercises.check_checkpoint(checkpointed_block, block)

# %% [markdown]
# ## 4. A schedule
# Reverse a chain of 4 steps holding at most 2 states (the input is one of them). Actions:
# `("advance", i, j)`, `("store", i)`, `("free", i)`, `("record", i)`, `("backward", i)` — the table in
# notebook 4 ("The schedule, drawn") says what each does. Can you reach the optimum?

# %%
my_schedule = [
    # your actions here
]
exercises.check_schedule(my_schedule, n=4, snapshots=2)
