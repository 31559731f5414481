# %% [markdown]
# # 7. Exercises — the teacher's copy, with solutions
#
# Keep this notebook apart from the students' `07_exercises.ipynb`.

# %%
import minitape as tf
from minitape.course import exercises

# %% [markdown]
# ## 1. The VJP of a matrix product: `g @ bᵀ`

# %%
def matmul_vjp_a(g, a, b):
    return tf.matmul(g, b, transpose_b=True)

exercises.check_matmul_vjp(matmul_vjp_a)

# %% [markdown]
# ## 2. The VJP of a bias: sum over the rows it was copied into

# %%
def bias_vjp(g, x, b):
    return tf.reduce_sum(g, axis=0)

exercises.check_bias_vjp(bias_vjp)

# %% [markdown]
# ## 3. A checkpointed block: wrap all of it

# %%
def block(x):
    return tf.tanh(x * 1.5 + 0.1)

checkpointed_block = tf.recompute_grad(block)

exercises.check_checkpoint(checkpointed_block, block)

# %% [markdown]
# ## 4. The optimal schedule for 4 steps and 2 states
# Store state 1 on the way; reverse 3 and 2 from it; free it; reverse 1 and 0 from the input.

# %%
my_schedule = [
    ("advance", 0, 1), ("store", 1), ("advance", 1, 3), ("record", 3), ("backward", 3),
    ("advance", 1, 2), ("record", 2), ("backward", 2), ("record", 1), ("backward", 1),
    ("free", 1), ("record", 0), ("backward", 0),
]
exercises.check_schedule(my_schedule, n=4, snapshots=2)
