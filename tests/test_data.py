"""tf.data's behaviour beyond what a recording can show: streaming in bounded memory, shuffle's
properties (its random order is minitape's own, not TF's), seeds, cache, and the edges of a pipeline."""
import itertools
import tracemalloc

import numpy as np
import pytest

import minitape as tf

Dataset = tf.data.Dataset


def peak_bytes(run) -> int:
    tracemalloc.start()
    try:
        run()
        return tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()


def test_a_ten_million_element_pipeline_streams_in_bounded_memory():
    # Materialised, range(10**7) alone is 80 MB of int64 (and far more as a list of tensors).
    def build_and_iterate():
        pipeline = Dataset.range(10**7).map(lambda x: x * 2).batch(1024)
        return pipeline, list(itertools.islice(pipeline, 8))
    found = []
    peak = peak_bytes(lambda: found.extend(build_and_iterate()))
    assert peak < 4 * 2**20, peak
    pipeline, first = found
    assert first[-1].numpy()[-1] == 2 * (8 * 1024 - 1)
    assert len(pipeline) == -(-10**7 // 1024)


def test_repeat_without_count_is_never_materialised():
    rows = np.zeros((2000, 256))                 # one pass of mapped elements held would be 4 MB
    endless = Dataset.from_tensor_slices(rows).map(lambda row: row + 1).repeat().shuffle(100).batch(10)
    peak = peak_bytes(lambda: sum(1 for _ in itertools.islice(endless, 300)))   # one and a half passes
    assert peak < 2 * 2**20, peak
    assert int(endless.cardinality()) == tf.data.INFINITE_CARDINALITY
    with pytest.raises(TypeError, match="The dataset is infinite."):
        len(endless)


def test_shuffle_is_a_permutation_and_a_full_buffer_is_uniform():
    firsts = np.zeros(10)
    for seed in range(1000):
        order = list(Dataset.range(10).shuffle(10, seed=seed).as_numpy_iterator())
        assert sorted(order) == list(range(10))
        firsts[order[0]] += 1
    assert firsts.min() > 60 and firsts.max() < 140, firsts        # 100 expected each (binomial sd 9.5)


@pytest.mark.parametrize("buffer_size", [1, 2, 5])
def test_shuffle_draws_each_element_from_a_buffer_of_the_next_buffer_size(buffer_size):
    for seed in range(50):
        order = list(Dataset.range(40).shuffle(buffer_size, seed=seed).as_numpy_iterator())
        assert sorted(order) == list(range(40))
        for position, value in enumerate(order):
            assert value < position + buffer_size           # only the next buffer_size elements are in the buffer
    assert list(Dataset.range(5).shuffle(1).as_numpy_iterator()) == list(range(5))


def test_shuffle_seeds_and_reshuffling():
    def order(ds):
        return [int(v) for v in ds.as_numpy_iterator()]
    seeded = Dataset.range(50).shuffle(50, seed=3)
    assert order(seeded) != order(seeded)                                   # reshuffled each iteration
    assert order(Dataset.range(50).shuffle(50, seed=3)) == order(Dataset.range(50).shuffle(50, seed=3))
    fixed = Dataset.range(50).shuffle(50, seed=3, reshuffle_each_iteration=False)
    assert order(fixed) == order(fixed)
    tf.random.set_seed(7)
    first = order(Dataset.range(50).shuffle(50))
    tf.random.set_seed(7)
    assert order(Dataset.range(50).shuffle(50)) == first                    # tf.random.set_seed seeds it
    epochs = order(Dataset.range(20).shuffle(20, seed=1).repeat(2))
    assert sorted(epochs[:20]) == sorted(epochs[20:]) == list(range(20)) and epochs[:20] != epochs[20:]


def test_iteration_yields_minitape_tensors_strings_as_string_tensors():
    x, label = next(iter(Dataset.from_tensor_slices((np.ones((2, 3), np.float32), ["cat", "dog"]))))
    assert isinstance(x, tf.Tensor) and x.dtype == tf.float32
    assert isinstance(label, tf.Tensor) and label.dtype == tf.string and label.numpy() == b"cat"     # as TF


def test_string_tensors_pass_through_map_and_batch():
    words = Dataset.from_tensor_slices(["cat", "dog", "emu"]).map(lambda word: word).batch(2)
    assert [batch.numpy().tolist() for batch in words] == [[b"cat", b"dog"], [b"emu"]]
    assert list(Dataset.from_tensor_slices(["cat", "dog"]).filter(lambda w: w == "dog").as_numpy_iterator()) == [b"dog"]


def test_cache_replays_a_complete_pass_only():
    calls = []
    ds = Dataset.range(4).map(lambda x: (calls.append(1), x)[1]).cache()
    next(iter(ds))
    assert list(ds.as_numpy_iterator()) == [0, 1, 2, 3]
    made = len(calls)
    assert list(ds.as_numpy_iterator()) == [0, 1, 2, 3] and len(calls) == made


def test_a_generator_is_called_afresh_each_iteration():
    ds = Dataset.from_generator(lambda: iter(range(3)), output_types=tf.int64)
    assert list(ds.as_numpy_iterator()) == list(ds.as_numpy_iterator()) == [0, 1, 2]
    assert repr(ds.element_spec) == "TensorSpec(shape=<unknown>, dtype=tf.int64, name=None)"


def test_map_spec_leaves_open_what_depends_on_the_data():
    ds = Dataset.from_tensor_slices(np.ones((4, 3), np.float32)).batch(2).map(lambda b: tf.reduce_sum(b, axis=1))
    assert repr(ds.element_spec) == "TensorSpec(shape=(None,), dtype=tf.float32, name=None)"
    assert [b.shape for b in ds] == [(2,), (2,)]


def test_reduce_and_window_of_batches():
    assert int(Dataset.range(1, 5).reduce(np.int64(1), lambda p, x: p * x)) == 24
    windows = Dataset.range(6).window(4, shift=2).flat_map(lambda w: w.batch(4))
    assert [w.numpy().tolist() for w in windows] == [[0, 1, 2, 3], [2, 3, 4, 5], [4, 5]]


def test_wrong_uses_raise_tensorflows_errors():
    with pytest.raises(TypeError, match="must return a `Dataset`"):
        list(Dataset.range(3).flat_map(lambda x: x))
    with pytest.raises(tf.errors.InvalidArgumentError, match="Window size must be greater than zero"):
        Dataset.range(3).window(0)
    with pytest.raises(TypeError, match="The dataset length is unknown."):
        len(Dataset.range(3).filter(lambda x: x > 0))
