# %% [markdown]
# # 9. A transformer, checkpointed block by block
#
# **You will learn:** to build a tiny character-level transformer from Keras layers (`Embedding`,
# `LayerNormalization`, causal `MultiHeadAttention`, `Dense`), to train it with a loop of your own
# (`GradientTape` and Adam), and to checkpoint its blocks with `tf.recompute_grad` — which is how
# every large language model is trained today. You will predict, to the byte, what each way of
# checkpointing keeps, then measure it.

# %%
import math
from pathlib import Path

import numpy as np

import minitape as tf
import minitape.keras.layers as layers
from minitape.course import budgets

# %% [markdown]
# ## The text
# Eight of Shakespeare's sonnets (public domain; see `data/README.md`), about 5,000 characters.
# Each character is a token: the model reads 32 of them and predicts, at every position, the next.

# %%
text = Path("data/sonnets.txt").read_text()
chars = sorted(set(text))
ids = np.array([chars.index(c) for c in text])
VOCAB, CONTEXT, WIDTH, HEADS, DEPTH, BATCH = len(chars), 32, 32, 2, 4, 8
rng = np.random.default_rng(0)

def batch(size=BATCH):
    """`size` windows of the text, and the same windows one character on: the targets."""
    starts = rng.integers(0, len(ids) - CONTEXT - 1, size)
    return (tf.constant(np.stack([ids[s:s + CONTEXT] for s in starts])),
            tf.constant(np.stack([ids[s + 1:s + CONTEXT + 1] for s in starts])))

print(f"{len(text):,} characters, {VOCAB} different; {text[:43]!r}")

# %% [markdown]
# ## A block, and the model
# A block reads a sequence of `WIDTH`-long vectors and returns one of the same shape:
# LayerNormalization → causal self-attention → add back the input (the *residual*), then
# LayerNormalization → a two-layer MLP → add back again. The causal mask lets position *t* attend
# to positions ≤ *t* only: the model must not see the character it is asked to predict.
#
# The model adds a learned embedding of each character and of each position, runs the blocks,
# normalizes, and a last `Dense` gives a score (a *logit*) per character of the vocabulary.
# `checkpoint` chooses how the blocks run: `"none"`, `"block"` (each block under `recompute_grad`)
# or `"sqrt"` (√L segments of √L blocks each, `tf.checkpoint_sequential`).

# %%
class Block(tf.keras.Model):
    def __init__(self, width=WIDTH, heads=HEADS):
        super().__init__()
        self.norm1 = layers.LayerNormalization()
        self.attention = layers.MultiHeadAttention(num_heads=heads, key_dim=width // heads)
        self.norm2 = layers.LayerNormalization()
        self.expand = layers.Dense(4 * width, activation="relu")
        self.project = layers.Dense(width)

    def call(self, x):
        h = self.norm1(x)
        x = x + self.attention(h, h, use_causal_mask=True)
        return x + self.project(self.expand(self.norm2(x)))


def run_blocks(blocks, h, checkpoint="none"):
    if checkpoint == "sqrt":
        return tf.checkpoint_sequential(blocks, math.isqrt(len(blocks)), h)
    for block in blocks:
        h = (tf.recompute_grad(block) if checkpoint == "block" else block)(h)
    return h


class CharTransformer(tf.keras.Model):
    def __init__(self):
        super().__init__()
        self.tokens = layers.Embedding(VOCAB, WIDTH)
        self.positions = layers.Embedding(CONTEXT, WIDTH)
        self.blocks = [Block() for _ in range(DEPTH)]
        self.norm = layers.LayerNormalization()
        self.logits = layers.Dense(VOCAB)

    def embed(self, x):
        return self.tokens(x) + self.positions(tf.range(x.shape[1]))

    def call(self, x, checkpoint="none"):
        return self.logits(self.norm(run_blocks(self.blocks, self.embed(x), checkpoint)))


tf.keras.utils.set_random_seed(0)
model = CharTransformer()
model(batch()[0])
print(f"{model.count_params():,} parameters")

# %% [markdown]
# ## A sample before training
# To write, the model reads the last `CONTEXT` characters and draws the next from its softmax;
# the same seed draws every sample here. Untrained, every character is about as likely as any other.

# %%
def sample(prompt="Shall I ", length=100, seed=0):
    draw = np.random.default_rng(seed)
    out = [chars.index(c) for c in prompt]
    for _ in range(length):
        logits = model(tf.constant([out[-CONTEXT:]]))[0, -1].numpy().astype("float64")
        p = np.exp(logits - logits.max())
        out.append(int(draw.choice(VOCAB, p=p / p.sum())))
    return "".join(chars[i] for i in out)

def familiar(passage):
    """The share of the passage's pairs of neighbouring characters that the sonnets contain too."""
    pairs = {text[i:i + 2] for i in range(len(text) - 1)}
    return np.mean([passage[i:i + 2] in pairs for i in range(len(passage) - 1)])

before = sample()
print(before)

# %% [markdown]
# ## Training: a loop of our own
# Each step draws a batch, runs the model under a tape, takes the mean cross-entropy of the next
# character, and lets Adam update every weight. A few hundred steps on the CPU.

# %%
optimizer = tf.keras.optimizers.Adam(0.005)

def train_step(x, y, checkpoint="none"):
    with tf.GradientTape() as tape:
        loss = tf.reduce_mean(tf.nn.sparse_softmax_cross_entropy_with_logits(y, model(x, checkpoint=checkpoint)))
    gradients = tape.gradient(loss, model.trainable_variables)
    optimizer.apply_gradients(zip(gradients, model.trainable_variables))
    return float(loss)

losses = [train_step(*batch()) for _ in range(150)]
print(f"loss: {np.mean(losses[:10]):.2f} over the first 10 steps, {np.mean(losses[-10:]):.2f} over the last 10")

# %% [markdown]
# ## A sample after training
# The same seed, the same prompt. Not Shakespeare yet, but lines, spaces between words, and
# pairs of letters that English uses: most of its neighbouring characters also stand side by side
# somewhere in the sonnets, against a few of the untrained model's.

# %%
after = sample()
print(after)
print(f"pairs of characters found in the sonnets: {familiar(before):.0%} before training, {familiar(after):.0%} after")
assert np.mean(losses[-10:]) < np.mean(losses[:10]) - 1.0 and familiar(after) > familiar(before) + 0.3

# %% [markdown]
# ## What a block keeps, and what checkpointing keeps
# Predict first. Write `N` for the tokens of a batch (`BATCH × CONTEXT`), `A` for the bytes of one
# activation (`N × WIDTH` floats), `R` for one float per token (`N` floats) and `S` for the attention
# weights (`BATCH × HEADS × CONTEXT × CONTEXT` floats). `tape.print_saved()` below lists what one block keeps:
#
# | inside the block | keeps |
# | --- | --- |
# | each `LayerNormalization` | its input (A) and one factor per token, `r = 1/√(variance + ε)` (R): it is one fused op, `layer_normalization`, whose derivative works the normalized input `(x − mean)·r` out again from those two rather than keep it |
# | `MultiHeadAttention` | its input (shared by the three projections), the queries, the keys, the values, the weighted values (5·A — a head's width is `WIDTH / HEADS`, so each is one A); the attention weights `S`: the attention itself is one fused op, `dot_product_attention`, which keeps its three inputs and its weights. The causal mask is made once per length and shared, like the weights: made before the tape, it is not counted |
# | the MLP | the first `Dense`'s input (A) and its ReLU's output, 4 wide (4·A), which the second `Dense` reads |
# | the two residual `+` | nothing: the derivative of a sum needs no values |
#
# So a block keeps `P = 12·A + 2·R + S` bytes. What each mode keeps after the forward pass,
# for `L` blocks whose first input is ours (made before the tape, and watched):
#
# * **none**: every block's `P`, less the first block's input (ours, alive anyway): `L·P − A`.
# * **block**: `recompute_grad` records one entry per block, and that entry keeps what it needs to
#   run the block again — its input, nothing else (the weights are variables, alive anyway). The
#   block's inside is recomputed during `tape.gradient`. So `(L − 1)·A`: every block's input but ours.
# * **sqrt**: √L segments of √L blocks, each segment one entry keeping its input: `(√L − 1)·A`.
#
# The price is time: each checkpointed block runs twice. And while `tape.gradient` works back
# through a checkpointed block, that block's `P` is held again, one block (or segment) at a time.

# %%
x, y = batch()
h = model.embed(x)                      # the blocks' input, made before the tapes
N = BATCH * CONTEXT
A, R, S = 4 * N * WIDTH, 4 * N, 4 * BATCH * HEADS * CONTEXT**2
P, L = 12 * A + 2 * R + S, DEPTH

with tf.GradientTape() as tape:
    tape.watch(h)
    model.blocks[0](model.blocks[0](h))   # a block whose input is not ours: the second
tape.print_saved()

def held(checkpoint):
    with tf.GradientTape() as tape:
        tape.watch(h)
        out = run_blocks(model.blocks, h, checkpoint)
    return tape.memory_info()["current"]

theory = {"none": L * P - A, "block": (L - 1) * A, "sqrt": (math.isqrt(L) - 1) * A}
for mode in theory:
    measured = held(mode)
    print(f"{mode:>5}: holds {measured:9,} bytes = {measured / A:5.2f} activations; theory {theory[mode]:9,}")
    assert measured == theory[mode]

# %% [markdown]
# Same gradients in every mode: checkpointing changes what is kept, never what is computed.

# %%
def gradients(checkpoint):
    with tf.GradientTape() as tape:
        loss = tf.reduce_mean(tf.nn.sparse_softmax_cross_entropy_with_logits(y, model(x, checkpoint=checkpoint)))
    return [g.numpy() for g in tape.gradient(loss, model.trainable_variables)]

plain = gradients("none")
for mode in ("block", "sqrt"):
    assert all(np.allclose(a, b, rtol=1e-5, atol=1e-7) for a, b in zip(plain, gradients(mode)))
print("the same gradients, to float32's rounding, in all three modes")

# %% [markdown]
# ## Memory over time: none, per block, √L
# The numbers above are what the tape holds when the forward pass ends. Here is every step of one
# gradient of `reduce_sum` of the blocks' output: the bytes all the tapes hold after each event
# (`tf.viz.compare_memory`; each is a tape's `memory_info()["current"]` at that step), forward then backward.
#
# * **none** climbs block by block to `L·P − A` and holds it all until `tape.gradient` is done with it.
# * **per block** climbs only by one activation per block. In the backward pass it saw-tooths: each block,
#   last first, is recorded again under a local tape, differentiated, and let go before the next. A tooth
#   is one block's `P` less its input (the entry's, already held): the peak is `(L − 1)·A + P − A`.
# * **√L** holds one activation, and its teeth are twice as tall, since each segment recorded again is
#   √L = 2 blocks: the peak is `(√L − 1)·A + √L·P − A`. Per block peaks lowest here, not √L: with 4 blocks,
#   the blocks' inputs weigh little beside a block's `P`.
#
# The forward passes of the checkpointed modes are short: a checkpointed call's forward is one step, its
# ops run with the tapes paused. The lines that reach further did more work: the ops recorded again, in
# the legend.

# %%
def memory_of(checkpoint):
    with tf.events.timeline() as events:
        with tf.GradientTape() as tape:
            tape.watch(h)
            loss = tf.reduce_sum(run_blocks(model.blocks, h, checkpoint))
        tape.gradient(loss, [h] + model.trainable_variables)
    return events

root = math.isqrt(L)
names = {"none": "none", "block": "per block", "sqrt": f"√L: {root} segments of {root} blocks"}
peaks = {"none": L * P - A, "block": (L - 1) * A + P - A, "sqrt": (root - 1) * A + root * P - A}
over_time = tf.viz.compare_memory({names[mode]: memory_of(mode) for mode in theory})
for mode, memory in zip(theory, over_time.timelines.values()):
    end_of_blocks = memory[memory.backward_starts[0] - 2]        # before the loss's reduce_sum
    assert end_of_blocks.tapes["tape"] == theory[mode]           # the user's tape holds what memory_info said
    assert memory.peak.total == peaks[mode]
    print(f"{names[mode]:>26}: peak {memory.peak.total:9,} bytes (theory {peaks[mode]:9,}), {len(memory)} steps")
over_time

# %% [markdown]
# ## Watching one block recompute
# One block, tiny (one sequence of 4 characters, 8 wide, 2 heads), under `recompute_grad`. The
# forward pass records one entry, keeping the block's input. `tape.gradient` runs the block again
# under a tape of its own: the layer norm, the three projections, the scores `q·kᵀ`, the causal
# mask (`where`: a masked score becomes a large negative number, so its softmax weight is 0), the
# softmax, the weighted sum of values, the MLP — then goes back through it. Press ▶.

# %%
tiny = Block(width=8, heads=2)
seq = tf.random.normal((1, 4, 8), seed=1)
tiny(seq)
checkpointed = tf.recompute_grad(tiny)
with tf.events.timeline() as events:
    with tf.GradientTape() as tape:
        tape.watch(seq)
        out = checkpointed(seq)
        loss = tf.reduce_sum(out)
    grads = tape.gradient(loss, [seq] + tiny.trainable_variables)
events.names = locals()
events.player()

# %% [markdown]
# ## Exercise: checkpoint under a memory budget
# Six blocks (same width, batch and context), and a budget: their tape may hold at most two
# blocks' `P` plus half an activation. You may put any run of consecutive blocks under one
# `recompute_grad` (a *segment*). Which segments would you choose so that it fits, recomputing as
# few blocks as possible? Write them in `my_choice` as a list of lists of block indices (0 to 5):
# `[[1], [3, 4]]` recomputes block 1 on its own, and blocks 3 and 4 together.
# Hint: what does a segment keep, and what does a plain block keep of its input?

# %%
six = [Block() for _ in range(6)]
for block in six:
    block(h)

my_choice = None          # e.g. [[1], [3, 4]]
budgets.check_segments(my_choice, six, h, budget=2 * P + A // 2)

# %% [markdown]
# ## More to try
# 1. Train with `checkpoint="block"`: are the losses the same as without? How much slower is a step?
# 2. Double `CONTEXT`. Which term of `P` grows fastest? (That is why long contexts are where
#    checkpointing — and attention that never stores `S` — matter most.)
# 3. Checkpoint only the attention of each block (wrap `self.attention` in `recompute_grad`). What
#    does a block keep now?
