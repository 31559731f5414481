# %% [markdown]
# # 8. A residual CNN, checkpointed — the teacher's copy of the exercise
#
# Keep this notebook apart from the students' `08_cnn_checkpointing.ipynb`. The checker's own chain
# has the same shape as the notebook's: six residual blocks, a budget of half the plain chain's
# bytes plus two and a half activations.

# %%
from minitape.course import exercises

# %% [markdown]
# ## Checkpoint under a memory budget: the last block, and two others not side by side… or any two
#
# A plain block keeps six activations; a checkpointed one keeps only its input, which the block
# before keeps anyway (as its output) or which is ours. What a checkpointed block no longer keeps
# is its own output: the *next* block now keeps it, as its input — one activation. So recomputing a
# block saves five activations, and six for the last block, whose output nobody keeps.
# Half the chain is 18 activations: three blocks save 5 + 5 + 6 = 16 ≤ 18 − 2.5 only if one of them
# is the last. Any three blocks including block 5 are optimal; three without it hold half an
# activation too much.

# %%
exercises.check_checkpoint_choice({3, 4, 5})

# %%
exercises.check_checkpoint_choice({0, 2, 4})
