"""``tf.train.Checkpoint`` and ``CheckpointManager``: file names, counters, restore semantics, errors, as TF 2.21's
(each expectation below was read off TF 2.21 running the same calls)."""
from __future__ import annotations

import os

import numpy as np
import pytest

import minitape as tf


def test_save_names_files_as_tf_and_counts(tmp_path):
    checkpoint = tf.train.Checkpoint(v=tf.Variable([1.0, 2.0]), step=tf.Variable(0))
    first = checkpoint.save(tmp_path / "ck")
    assert first == str(tmp_path / "ck-1") and int(checkpoint.save_counter.numpy()) == 1
    assert sorted(os.listdir(tmp_path)) == ["checkpoint", "ck-1.data-00000-of-00001", "ck-1.index"]
    assert (tmp_path / "checkpoint").read_text().startswith('model_checkpoint_path: "ck-1"\n'
                                                             'all_model_checkpoint_paths: "ck-1"\n')
    assert checkpoint.write(tmp_path / "w") == str(tmp_path / "w")      # write: no count, not the latest
    assert int(checkpoint.save_counter.numpy()) == 1
    assert tf.train.latest_checkpoint(tmp_path) == first
    assert checkpoint.save(tmp_path / "ck").endswith("ck-2")
    assert tf.train.list_variables(first) == [("save_counter", []), ("step", []), ("v", [2])]


def test_restore_brings_back_variables_modules_and_the_counter(tmp_path):
    class Affine(tf.Module):
        def __init__(self):
            super().__init__()
            self.w, self.b = tf.Variable([[1.0, 2.0]]), tf.Variable([3.0])

    module, step = Affine(), tf.Variable(7)
    path = tf.train.Checkpoint(module=module, step=step).save(tmp_path / "ck")
    other, other_step = Affine(), tf.Variable(0)
    for v in other.variables:
        v.assign(tf.zeros_like(v))
    again = tf.train.Checkpoint(module=other, step=other_step)
    status = again.restore(path)
    status.assert_consumed()
    assert [v.numpy().tolist() for v in other.variables] == [v.numpy().tolist() for v in module.variables]
    assert int(other_step.numpy()) == 7 and int(again.save_counter.numpy()) == 1
    assert again.save(tmp_path / "ck").endswith("ck-2")                 # counting goes on from the restored counter
    assert again.read(path) is not None


def _train(model, optimizer, steps, x, y):
    for _ in range(steps):
        with tf.GradientTape() as tape:
            loss = tf.reduce_mean((model(x) - y) ** 2)
        grads = tape.gradient(loss, model.trainable_variables)
        optimizer.apply_gradients(zip(grads, model.trainable_variables))


@pytest.mark.parametrize("built_first", [True, False])
def test_keras_model_and_optimizer_resume_as_if_never_stopped(tmp_path, built_first):
    x = np.linspace(-1, 1, 12, dtype="float32").reshape(6, 2)
    y = x @ np.array([[1.0], [-2.0]], dtype="float32")

    def fresh():
        tf.keras.utils.set_random_seed(1)
        model = tf.keras.Sequential([tf.keras.Input((2,)), tf.keras.layers.Dense(3, activation="tanh"),
                                     tf.keras.layers.Dense(1)])
        return model, tf.keras.optimizers.Adam(0.1)

    whole, whole_opt = fresh()
    _train(whole, whole_opt, 6, x, y)
    model, optimizer = fresh()
    _train(model, optimizer, 3, x, y)
    path = tf.train.Checkpoint(model=model, optimizer=optimizer).save(tmp_path / "ck")
    resumed, resumed_opt = fresh()
    if built_first:
        resumed_opt.build(resumed.trainable_variables)
        tf.train.Checkpoint(model=resumed, optimizer=resumed_opt).restore(path).assert_consumed()
    else:                           # the slots come later, at the first step: restored then, as TF defers them
        status = tf.train.Checkpoint(model=resumed, optimizer=resumed_opt).restore(path)
        status.assert_existing_objects_matched()
        with pytest.raises(AssertionError, match=r"Unresolved object in checkpoint \(root\).optimizer"):
            status.assert_consumed()
    assert int(resumed_opt.iterations.numpy()) == 3
    _train(resumed, resumed_opt, 3, x, y)
    for u, v in zip(resumed.get_weights(), whole.get_weights()):
        np.testing.assert_allclose(u, v, rtol=1e-6, atol=1e-7)


def test_partial_restores_and_the_assertions(tmp_path):
    v = tf.Variable([1.0, 2.0])
    path = tf.train.Checkpoint(v=v, step=tf.Variable(0)).save(tmp_path / "ck")
    with pytest.raises(AssertionError, match=r"Unresolved object in checkpoint \(root\).step"):
        tf.train.Checkpoint(v=v).restore(path).assert_consumed()
    tf.train.Checkpoint(v=v).restore(path).expect_partial().assert_existing_objects_matched()
    extra = tf.train.Checkpoint(v=v, other=tf.Variable(1.0)).restore(path)
    with pytest.raises(AssertionError, match="Found 1 Python objects that were not bound to checkpointed values"):
        extra.assert_existing_objects_matched()
    with pytest.raises(AssertionError, match=r"No checkpoint specified \(save_path=None\)"):
        tf.train.Checkpoint(v=v).restore(None).assert_consumed()


def test_errors_have_tf_types(tmp_path):
    path = tf.train.Checkpoint(v=tf.Variable([1.0, 2.0])).save(tmp_path / "ck")
    with pytest.raises(tf.errors.NotFoundError, match="Failed to find any matching files for .*nope-3"):
        tf.train.Checkpoint(v=tf.Variable([1.0, 2.0])).restore(tmp_path / "nope-3")
    with pytest.raises(ValueError, match=r"Received incompatible tensor with shape \(2,\) when attempting to restore "
                                         r"variable with shape \(3,\)"):
        tf.train.Checkpoint(v=tf.Variable([1.0, 2.0, 3.0])).restore(path)
    with pytest.raises(ValueError, match="`Checkpoint` was expecting m to be a trackable object"):
        tf.train.Checkpoint(m=3)
    for suffix in (".index", ".data-00000-of-00001"):            # TF's own binary format: not read, and said so
        (tmp_path / f"tf-1{suffix}").write_bytes(b"\x00\x01binary")
    with pytest.raises(tf.errors.DataLossError, match="its .index file is not minitape's"):
        tf.train.Checkpoint(v=tf.Variable([1.0, 2.0])).restore(tmp_path / "tf-1")


def test_manager_keeps_the_last_few_and_finds_them_again(tmp_path):
    checkpoint = tf.train.Checkpoint(v=tf.Variable(1.0))
    manager = tf.train.CheckpointManager(checkpoint, tmp_path / "mgr", max_to_keep=2)
    assert (manager.latest_checkpoint, manager.checkpoints) == (None, [])
    assert manager.restore_or_initialize() is None
    paths = [manager.save() for _ in range(3)]
    assert [os.path.basename(p) for p in paths] == ["ckpt-1", "ckpt-2", "ckpt-3"]
    assert manager.checkpoints == paths[1:]
    assert sorted(os.listdir(tmp_path / "mgr")) == ["checkpoint", "ckpt-2.data-00000-of-00001", "ckpt-2.index",
                                                    "ckpt-3.data-00000-of-00001", "ckpt-3.index"]
    assert manager.save(checkpoint_number=10).endswith("ckpt-10")
    assert [os.path.basename(p) for p in manager.checkpoints] == ["ckpt-3", "ckpt-10"]
    assert int(checkpoint.save_counter.numpy()) == 4
    assert tf.train.latest_checkpoint(tmp_path / "mgr") == manager.latest_checkpoint
    again = tf.train.CheckpointManager(checkpoint, tmp_path / "mgr", max_to_keep=2)
    assert again.checkpoints == manager.checkpoints
    checkpoint.v.assign(5.0)
    assert again.restore_or_initialize() == manager.latest_checkpoint and float(checkpoint.v.numpy()) == 1.0
    with pytest.raises(ValueError, match="max_to_keep"):
        tf.train.CheckpointManager(checkpoint, tmp_path, max_to_keep=0)
