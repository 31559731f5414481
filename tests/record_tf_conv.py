"""Record TensorFlow 2.21's figures for tests/test_conv.py (run by hand, never by CI).

    /tmp/tfvenv/bin/python tests/record_tf_conv.py      # writes tests/data/tf_conv.npz

Each case is an op with its arguments and small seeded inputs.  The file keeps, per case,
the arguments (as JSON), the inputs, an upstream gradient ``u``, TF's output, the gradients
of ``sum(output * u)`` with respect to every input, and for a few cases the second
derivative: the gradient of ``sum(dL/dx * v)`` with respect to every input, where ``L`` is
``sum(tanh(output) * u)``.
"""
import json
import pathlib

import numpy as np

OUT = pathlib.Path(__file__).parent / "data" / "tf_conv.npz"

# name: (op, keyword arguments, input shapes, dtype, second derivative?, integer-valued inputs (ties)?)
CASES = {
    "conv_same": ("conv2d", {"strides": 1, "padding": "SAME"}, [(2, 5, 5, 3), (3, 3, 3, 4)], "float32", True, False),
    "conv_same_stride2": ("conv2d", {"strides": 2, "padding": "SAME"}, [(2, 5, 6, 3), (3, 3, 3, 2)], "float32", False, False),
    "conv_valid_strides": ("conv2d", {"strides": [1, 2, 1, 1], "padding": "VALID"}, [(1, 6, 5, 2), (2, 3, 2, 3)],
                           "float32", False, False),
    "conv_dilated": ("conv2d", {"strides": 1, "padding": "SAME", "dilations": 2}, [(2, 6, 6, 2), (3, 3, 2, 2)],
                     "float32", True, False),
    "conv_dilated_strided": ("conv2d", {"strides": [2, 3], "padding": "VALID", "dilations": [1, 2]},
                             [(1, 7, 9, 2), (3, 2, 2, 3)], "float32", False, False),
    "conv_even_kernel": ("conv2d", {"strides": 1, "padding": "SAME"}, [(1, 4, 5, 2), (2, 2, 2, 1)], "float32", False, False),
    "conv_explicit": ("conv2d", {"strides": [1, 2, 2, 1], "padding": [[0, 0], [1, 2], [0, 1], [0, 0]]},
                      [(2, 5, 5, 2), (3, 3, 2, 2)], "float32", False, False),
    "conv_float64": ("conv2d", {"strides": 2, "padding": "SAME"}, [(2, 5, 5, 3), (3, 3, 3, 4)], "float64", True, False),
    "conv_float16": ("conv2d", {"strides": 1, "padding": "VALID"}, [(1, 4, 4, 2), (3, 3, 2, 2)], "float16", False, False),
    "max_same": ("max_pool2d", {"ksize": 2, "strides": 2, "padding": "SAME"}, [(2, 5, 5, 3)], "float32", True, False),
    "max_valid_overlap": ("max_pool2d", {"ksize": 3, "strides": 1, "padding": "VALID"}, [(2, 5, 6, 2)], "float32", True,
                          False),
    "max_ties": ("max_pool2d", {"ksize": [2, 3], "strides": [1, 2], "padding": "SAME"}, [(2, 5, 6, 2)], "float32", False,
                 True),
    "max_explicit": ("max_pool2d", {"ksize": 3, "strides": 2, "padding": [[0, 0], [1, 1], [2, 0], [0, 0]]},
                     [(1, 6, 5, 2)], "float32", False, False),
    "max_float64": ("max_pool2d", {"ksize": 2, "strides": 1, "padding": "SAME"}, [(1, 4, 4, 2)], "float64", False, False),
    "avg_same": ("avg_pool2d", {"ksize": 3, "strides": 2, "padding": "SAME"}, [(2, 5, 6, 3)], "float32", True, False),
    "avg_valid": ("avg_pool2d", {"ksize": [2, 3], "strides": [2, 1], "padding": "VALID"}, [(1, 6, 5, 2)], "float32",
                  False, False),
    "avg_float16": ("avg_pool2d", {"ksize": 2, "strides": 2, "padding": "SAME"}, [(1, 5, 5, 2)], "float16", False, False),
    "moments_channels": ("moments", {"axes": [0, 1, 2]}, [(2, 4, 4, 3)], "float32", True, False),
    "moments_keepdims": ("moments", {"axes": [0], "keepdims": True}, [(5, 3)], "float64", False, False),
    "moments_float16": ("moments", {"axes": [0, 1, 2]}, [(2, 3, 3, 2)], "float16", False, False),
    "batch_norm": ("batch_normalization", {"variance_epsilon": 1e-3}, [(2, 3, 3, 4), (4,), (4,), (4,), (4,)], "float32",
                   False, False),
    "batch_norm_plain": ("batch_normalization", {"variance_epsilon": 1e-2, "offset": None, "scale": None},
                         [(3, 4), (4,), (4,)], "float64", False, False),
}


def inputs(name: str) -> list[np.ndarray]:
    """The seeded inputs of a case (variances are made positive)."""
    op, _, shapes, dtype, _, ties = CASES[name]
    rng = np.random.default_rng(sorted(CASES).index(name))
    values = [rng.normal(size=shape) for shape in shapes]
    if ties:
        values = [np.round(v) for v in values]
    if op == "batch_normalization":
        values[2] = np.abs(values[2]) + 0.5
    return [v.astype(dtype) for v in values]


def main() -> None:
    import tensorflow as tf

    def run(op, kwargs, *xs):
        out = getattr(tf.nn, op)(*xs, **kwargs)
        return tf.stack(out) if isinstance(out, tuple) else out

    record = {}
    for name, (op, kwargs, shapes, dtype, second, _) in sorted(CASES.items()):
        xs = [tf.constant(v) for v in inputs(name)]
        rng = np.random.default_rng(100 + sorted(CASES).index(name))
        out = run(op, kwargs, *xs)
        u = tf.constant(rng.uniform(0.5, 1.5, out.shape).astype(dtype))
        with tf.GradientTape() as tape:
            tape.watch(xs)
            out = run(op, kwargs, *xs)
            loss = tf.reduce_sum(out * u)
        grads = tape.gradient(loss, xs)
        record[f"{name}/params"] = np.array(json.dumps({"op": op, "kwargs": kwargs}))
        record[f"{name}/u"] = u.numpy()
        record[f"{name}/output"] = out.numpy()
        for k, (x, g) in enumerate(zip(xs, grads)):
            record[f"{name}/input{k}"] = x.numpy()
            record[f"{name}/grad{k}"] = g.numpy()
        if second:
            v = tf.constant(rng.uniform(-1, 1, xs[0].shape).astype(dtype))
            with tf.GradientTape() as outer:
                outer.watch(xs)
                with tf.GradientTape() as inner:
                    inner.watch(xs)
                    loss = tf.reduce_sum(tf.tanh(run(op, kwargs, *xs)) * u)
                first = inner.gradient(loss, xs[0])
                along = tf.reduce_sum(first * v)
            record[f"{name}/v"] = v.numpy()
            for k, g in enumerate(outer.gradient(along, xs)):
                record[f"{name}/second{k}"] = g.numpy()
    OUT.parent.mkdir(exist_ok=True)
    np.savez_compressed(OUT, tf_version=np.array(tf.__version__), **record)
    print(f"wrote {len(CASES)} cases, {OUT.stat().st_size} bytes, TF {tf.__version__}, to {OUT}")


if __name__ == "__main__":
    main()
