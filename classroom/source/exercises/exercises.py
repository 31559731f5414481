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

# %% nbgrader={"grade": false, "grade_id": "matmul_vjp_answer", "locked": false, "schema_version": 3, "solution": true, "task": false}
def matmul_vjp_a(g, a, b):
    ### BEGIN SOLUTION
    return tf.matmul(g, b, transpose_b=True)
    ### END SOLUTION

exercises.check_matmul_vjp(matmul_vjp_a)

# %% nbgrader={"grade": true, "grade_id": "matmul_vjp_test", "locked": true, "points": 2, "schema_version": 3, "solution": false, "task": false}
# Graded afresh (hidden tests): a new Python process imports minitape, defines `matmul_vjp_a` from its
# source alone and runs the checker on more cases; nothing this notebook changed reaches it.
# (A ✘ from the checker in this kernel fails at once, without starting that process.)
### BEGIN HIDDEN TESTS
assert (verdict := exercises.check_matmul_vjp(matmul_vjp_a)), verdict
import inspect, subprocess, sys, tempfile
fresh = subprocess.run([sys.executable, "-m", "minitape.course", "matmul_vjp"], input=inspect.getsource(matmul_vjp_a),
                       text=True, capture_output=True, cwd=tempfile.mkdtemp())
assert fresh.returncode == 0, fresh.stdout + fresh.stderr
### END HIDDEN TESTS

# %% [markdown]
# ## 2. The VJP of a bias
# For `y = x + b` where `x` is `(batch, features)` and `b` is `(features,)`, return the gradient with
# respect to `b`. Broadcasting copied `b` into every row…

# %% nbgrader={"grade": false, "grade_id": "bias_vjp_answer", "locked": false, "schema_version": 3, "solution": true, "task": false}
def bias_vjp(g, x, b):
    ### BEGIN SOLUTION
    return tf.reduce_sum(g, axis=0)
    ### END SOLUTION

exercises.check_bias_vjp(bias_vjp)

# %% nbgrader={"grade": true, "grade_id": "bias_vjp_test", "locked": true, "points": 2, "schema_version": 3, "solution": false, "task": false}
# Graded afresh (hidden tests): a new Python process imports minitape, defines `bias_vjp` from its
# source alone and runs the checker on more cases; nothing this notebook changed reaches it.
# (A ✘ from the checker in this kernel fails at once, without starting that process.)
### BEGIN HIDDEN TESTS
assert (verdict := exercises.check_bias_vjp(bias_vjp)), verdict
import inspect, subprocess, sys, tempfile
fresh = subprocess.run([sys.executable, "-m", "minitape.course", "bias_vjp"], input=inspect.getsource(bias_vjp),
                       text=True, capture_output=True, cwd=tempfile.mkdtemp())
assert fresh.returncode == 0, fresh.stdout + fresh.stderr
### END HIDDEN TESTS

# %% [markdown]
# ## 3. A checkpointed block
# Make `checkpointed_block` compute what `block` computes, with a tape that records only its calls.

# %% nbgrader={"grade": false, "grade_id": "checkpoint_answer", "locked": false, "schema_version": 3, "solution": true, "task": false}
def block(x):
    return tf.tanh(x * 1.5 + 0.1)

def checkpointed_block(x):
    ### BEGIN SOLUTION
    return tf.recompute_grad(block)(x)
    ### END SOLUTION

exercises.check_checkpoint(checkpointed_block, block)

# %% nbgrader={"grade": true, "grade_id": "checkpoint_test", "locked": true, "points": 2, "schema_version": 3, "solution": false, "task": false}
# Graded afresh (hidden tests): a new Python process imports minitape, defines `checkpointed_block` from its
# source alone and runs the checker on more cases; nothing this notebook changed reaches it.
# (A ✘ from the checker in this kernel fails at once, without starting that process.)
### BEGIN HIDDEN TESTS
assert (verdict := exercises.check_checkpoint(checkpointed_block, block)), verdict
import inspect, subprocess, sys, tempfile
fresh = subprocess.run([sys.executable, "-m", "minitape.course", "checkpoint"], input=inspect.getsource(checkpointed_block),
                       text=True, capture_output=True, cwd=tempfile.mkdtemp())
assert fresh.returncode == 0, fresh.stdout + fresh.stderr
### END HIDDEN TESTS

# %% [markdown]
# ## 4. A schedule
# Reverse a chain of 4 steps holding at most 2 states (the input is one of them). Actions:
# `("advance", i, j)`, `("store", i)`, `("free", i)`, `("record", i)`, `("backward", i)` — the table in
# notebook 4 ("The schedule, drawn") says what each does. `my_schedule` returns them, in order, as a
# list. Can you reach the optimum?

# %% nbgrader={"grade": false, "grade_id": "schedule_answer", "locked": false, "schema_version": 3, "solution": true, "task": false}
def my_schedule():
    ### BEGIN SOLUTION
    # Store state 1 on the way; reverse 3 and 2 from it; free it; reverse 1 and 0 from the input.
    return [("advance", 0, 1), ("store", 1), ("advance", 1, 3), ("record", 3), ("backward", 3),
            ("advance", 1, 2), ("record", 2), ("backward", 2), ("record", 1), ("backward", 1),
            ("free", 1), ("record", 0), ("backward", 0)]
    ### END SOLUTION

exercises.check_schedule(my_schedule, n=4, snapshots=2)

# %% nbgrader={"grade": true, "grade_id": "schedule_test", "locked": true, "points": 2, "schema_version": 3, "solution": false, "task": false}
# Graded afresh (hidden tests): a new Python process imports minitape, defines `my_schedule` from its
# source alone and runs the checker on more cases; nothing this notebook changed reaches it.
# (A ✘ from the checker in this kernel fails at once, without starting that process.)
### BEGIN HIDDEN TESTS
assert (verdict := exercises.check_schedule(my_schedule, n=4, snapshots=2)), verdict
import inspect, subprocess, sys, tempfile
fresh = subprocess.run([sys.executable, "-m", "minitape.course", "schedule"], input=inspect.getsource(my_schedule),
                       text=True, capture_output=True, cwd=tempfile.mkdtemp())
assert fresh.returncode == 0, fresh.stdout + fresh.stderr
### END HIDDEN TESTS

# %% [markdown]
# ## 5. Checkpoint under a memory budget
# `exercises.residual_chain()` builds six residual blocks, `relu(x + bn(conv(relu(bn(conv(x))))))`
# (notebook 8 trains a network of them). The tape may hold at most half of what the plain chain holds,
# plus two and a half activations. Which blocks (0 to 5) would you recompute so that it fits,
# recomputing as few as possible? `my_choice` returns their indices, as a set.
# Hint: a checkpointed block keeps its input; who keeps its *output*?

# %% nbgrader={"grade": false, "grade_id": "checkpoint_choice_answer", "locked": false, "schema_version": 3, "solution": true, "task": false}
def my_choice():
    ### BEGIN SOLUTION
    # A checkpointed block saves five activations, the last six (nobody keeps its output): three
    # blocks fit only if the last is one of them.
    return {1, 3, 5}
    ### END SOLUTION

exercises.check_checkpoint_choice(my_choice)

# %% nbgrader={"grade": true, "grade_id": "checkpoint_choice_test", "locked": true, "points": 2, "schema_version": 3, "solution": false, "task": false}
# Graded afresh (hidden tests): a new Python process imports minitape, defines `my_choice` from its
# source alone and runs the checker on more cases; nothing this notebook changed reaches it.
# (A ✘ from the checker in this kernel fails at once, without starting that process.)
### BEGIN HIDDEN TESTS
assert (verdict := exercises.check_checkpoint_choice(my_choice)), verdict
import inspect, subprocess, sys, tempfile
fresh = subprocess.run([sys.executable, "-m", "minitape.course", "checkpoint_choice"], input=inspect.getsource(my_choice),
                       text=True, capture_output=True, cwd=tempfile.mkdtemp())
assert fresh.returncode == 0, fresh.stdout + fresh.stderr
### END HIDDEN TESTS
