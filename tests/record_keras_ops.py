"""Record Keras 3.15's ``keras.ops`` (TensorFlow backend) for tests/test_keras_ops.py (run by hand, never by CI).

    /tmp/tfvenv/bin/python tests/record_keras_ops.py      # writes tests/data/keras_ops.json

Each case is a function of an ``ops`` namespace (``keras.ops`` here, ``minitape.keras.ops`` in the
test) on fixed NumPy inputs; ``describe`` turns what it returns into plain data: values, dtype and
shape of each tensor, Python values as they are.
"""
from __future__ import annotations

import json
import pathlib
from typing import Any

import numpy as np

OUT = pathlib.Path(__file__).parent / "data" / "keras_ops.json"

I = np.array([[1, -2, 3], [4, 0, -6]], dtype=np.int32)
F = np.array([[0.5, -1.5, 2.0], [3.0, 0.25, -0.75]], dtype=np.float32)
U = np.array([0.1, -0.4, 0.9], dtype=np.float32)
D = np.array([[1.0, 2.0], [3.0, 5.0]], dtype=np.float64)

CASES: dict[str, Any] = {
    # conversion, shapes, dtypes
    "convert_to_numpy": lambda ops: ops.convert_to_numpy(ops.convert_to_tensor(F)),
    "convert_to_tensor_dtype": lambda ops: ops.convert_to_tensor([1, 2], dtype="float32"),
    "array_ints": lambda ops: ops.array([1, 2, 3]),
    "array_floats": lambda ops: ops.array([1.0, 2.0]),
    "array_dtype": lambda ops: ops.array([1, 2], dtype="float32"),
    "shape": lambda ops: ops.shape(ops.zeros((2, 3))),
    "cast": lambda ops: ops.cast(F, "int32"),
    "expand_dims": lambda ops: ops.expand_dims(I, -1),
    "expand_dims_0": lambda ops: ops.expand_dims(U, 0),
    "squeeze": lambda ops: ops.squeeze(np.zeros((1, 3, 1), np.float32)),
    "reshape": lambda ops: ops.reshape(I, (3, -1)),
    "ravel": lambda ops: ops.ravel(F),
    "transpose": lambda ops: ops.transpose(np.arange(24, dtype=np.float32).reshape(2, 3, 4), axes=(1, 0, 2)),
    "transpose_default": lambda ops: ops.transpose(I),
    "concatenate": lambda ops: ops.concatenate([I, I], axis=1),
    "concatenate_mixed": lambda ops: ops.concatenate([I, F], axis=0),
    "stack": lambda ops: ops.stack([U, U], axis=1),
    "split_sections": lambda ops: ops.split(np.arange(6, dtype=np.float32), 3),
    "split_points": lambda ops: ops.split(np.arange(6, dtype=np.float32), [1, 4]),
    "tile": lambda ops: ops.tile(U, (2, 2)),
    "repeat": lambda ops: ops.repeat(I, 2, axis=1),
    "flip": lambda ops: ops.flip(I, axis=1),
    "broadcast_to": lambda ops: ops.broadcast_to(U, (2, 3)),
    "pad": lambda ops: ops.pad(I, [(1, 0), (0, 2)]),
    # creation
    "ones": lambda ops: ops.ones((2, 2)),
    "zeros": lambda ops: ops.zeros((3,)),
    "ones_like": lambda ops: ops.ones_like(I),
    "zeros_like": lambda ops: ops.zeros_like(F),
    "full": lambda ops: ops.full((2,), 7),
    "arange": lambda ops: ops.arange(5),
    "arange_float": lambda ops: ops.arange(0, 2, 0.5),
    "arange_start": lambda ops: ops.arange(2, 10, 3),
    "eye": lambda ops: ops.eye(3),
    "eye_rect": lambda ops: ops.eye(2, 3, k=1),
    "linspace": lambda ops: ops.linspace(0, 1, 5),
    # elementwise, reals
    "sqrt_int": lambda ops: ops.sqrt(np.array([4, 9], np.int32)),
    "sqrt": lambda ops: ops.sqrt(np.abs(F)),
    "exp": lambda ops: ops.exp(F),
    "exp_int": lambda ops: ops.exp(np.array([0, 1], np.int32)),
    "log": lambda ops: ops.log(np.abs(F)),
    "sin": lambda ops: ops.sin(F),
    "sin_int": lambda ops: ops.sin(I),
    "cos": lambda ops: ops.cos(F),
    "tanh": lambda ops: ops.tanh(F),
    "arccos": lambda ops: ops.arccos(U),
    "arcsin": lambda ops: ops.arcsin(U),
    "arctan": lambda ops: ops.arctan(F),
    "tan": lambda ops: ops.tan(U),
    "sinh": lambda ops: ops.sinh(U),
    "cosh": lambda ops: ops.cosh(U),
    "square": lambda ops: ops.square(I),
    "square_float": lambda ops: ops.square(F),
    "abs": lambda ops: ops.abs(I),
    "absolute": lambda ops: ops.absolute(F),
    "sign": lambda ops: ops.sign(F),
    "negative": lambda ops: ops.negative(I),
    "round": lambda ops: ops.round(np.array([0.5, 1.5, 2.5, -0.5, 2.567], np.float32)),
    "round_decimals": lambda ops: ops.round(np.array([2.567, -1.234], np.float32), decimals=2),
    "floor": lambda ops: ops.floor(F),
    "ceil": lambda ops: ops.ceil(F),
    # two inputs, promotion
    "add_int_float_scalar": lambda ops: ops.add(I, 1.5),
    "add_int_int_scalar": lambda ops: ops.add(I, 2),
    "add_int_float_arrays": lambda ops: ops.add(I, F),
    "add_float32_float64": lambda ops: ops.add(F[:, :2], D),
    "subtract": lambda ops: ops.subtract(F, 1),
    "multiply": lambda ops: ops.multiply(I, 3),
    "maximum": lambda ops: ops.maximum(I, 0),
    "maximum_float": lambda ops: ops.maximum(F, 0.0),
    "maximum_int_float": lambda ops: ops.maximum(I, 0.5),
    "minimum": lambda ops: ops.minimum(F, 1.0),
    "minimum_arrays": lambda ops: ops.minimum(I, F),
    "power": lambda ops: ops.power(I, 2),
    "divide_ints": lambda ops: ops.divide(I, 2),
    "divide": lambda ops: ops.divide(F, 2.0),
    "true_divide": lambda ops: ops.true_divide(I, I + 10),
    "divide_no_nan": lambda ops: ops.divide_no_nan(F, np.array([[1, 0, 2], [0, 4, 0]], np.float32)),
    "mod": lambda ops: ops.mod(I, 4),
    "floor_divide": lambda ops: ops.floor_divide(I, 4),
    "equal": lambda ops: ops.equal(I, 3),
    "not_equal": lambda ops: ops.not_equal(I, 3),
    "greater": lambda ops: ops.greater(F, 0.5),
    "less_equal": lambda ops: ops.less_equal(I, 0),
    "logical_and": lambda ops: ops.logical_and(I > 0, F > 0),
    "logical_or": lambda ops: ops.logical_or(I > 0, F > 0),
    "logical_not": lambda ops: ops.logical_not(I > 0),
    "isnan": lambda ops: ops.isnan(np.array([1.0, np.nan], np.float32)),
    "isfinite": lambda ops: ops.isfinite(np.array([1.0, np.inf], np.float32)),
    # reductions
    "sum": lambda ops: ops.sum(I),
    "sum_axis": lambda ops: ops.sum(F, axis=1),
    "sum_keepdims": lambda ops: ops.sum(F, axis=0, keepdims=True),
    "sum_bool": lambda ops: ops.sum(np.array([True, True, False])),
    "mean_int": lambda ops: ops.mean(I),
    "mean_axis": lambda ops: ops.mean(F, axis=1),
    "mean_keepdims": lambda ops: ops.mean(I, axis=0, keepdims=True),
    "mean_float64": lambda ops: ops.mean(D, axis=0),
    "max": lambda ops: ops.max(I, axis=1),
    "max_all": lambda ops: ops.max(F),
    "min": lambda ops: ops.min(F, axis=0, keepdims=True),
    "prod": lambda ops: ops.prod(I, axis=1),
    "std": lambda ops: ops.std(F, axis=1),
    "std_int": lambda ops: ops.std(I),
    "var": lambda ops: ops.var(F),
    "argmax": lambda ops: ops.argmax(F, axis=1),
    "argmax_flat": lambda ops: ops.argmax(F),
    "argmax_keepdims": lambda ops: ops.argmax(I, axis=0, keepdims=True),
    "argmin": lambda ops: ops.argmin(I, axis=-1),
    "any": lambda ops: ops.any(I > 3, axis=1),
    "all": lambda ops: ops.all(I != 0, axis=0),
    "count_nonzero": lambda ops: ops.count_nonzero(I),
    "cumsum_flat": lambda ops: ops.cumsum(I),
    "cumsum_axis": lambda ops: ops.cumsum(F, axis=1),
    "cumprod": lambda ops: ops.cumprod(F, axis=0),
    # indexing, sorting, products
    "take_flat": lambda ops: ops.take(I, [0, 5, -1]),
    "take_axis": lambda ops: ops.take(F, np.array([2, 0], np.int32), axis=1),
    "take_along_axis": lambda ops: ops.take_along_axis(F, np.array([[2], [0]], np.int32), axis=1),
    "take_along_axis_0": lambda ops: ops.take_along_axis(F, np.array([[1, 0, 1]], np.int32), axis=0),
    "where": lambda ops: ops.where(F > 0, F, 0.0),
    "where_mixed": lambda ops: ops.where(I > 0, I, 0.5),
    "clip": lambda ops: ops.clip(F, -1.0, 1.0),
    "clip_int": lambda ops: ops.clip(I, 0, 3),
    "sort": lambda ops: ops.sort(F),
    "sort_axis0": lambda ops: ops.sort(I, axis=0),
    "argsort": lambda ops: ops.argsort(F),
    "top_k": lambda ops: ops.top_k(F, 2),
    "matmul": lambda ops: ops.matmul(F, F.T),
    "matmul_int": lambda ops: ops.matmul(I, I.T),
    "matmul_vector": lambda ops: ops.matmul(F, U),
    "dot": lambda ops: ops.dot(U, U),
    "tensordot": lambda ops: ops.tensordot(F, F, axes=2),
    "outer": lambda ops: ops.outer(U, U[:2]),
    "einsum": lambda ops: ops.einsum("ij,kj->ik", F, F),
    "trace": lambda ops: ops.trace(D),
    "diag": lambda ops: ops.diag(U),
    # nn
    "relu": lambda ops: ops.relu(F),
    "relu6": lambda ops: ops.relu6(F * 4),
    "sigmoid": lambda ops: ops.sigmoid(F),
    "softplus": lambda ops: ops.softplus(F),
    "silu": lambda ops: ops.silu(F),
    "gelu": lambda ops: ops.gelu(F),
    "gelu_exact": lambda ops: ops.gelu(F, approximate=False),
    "elu": lambda ops: ops.elu(F),
    "selu": lambda ops: ops.selu(F),
    "leaky_relu": lambda ops: ops.leaky_relu(F),
    "softmax": lambda ops: ops.softmax(F),
    "softmax_axis0": lambda ops: ops.softmax(F, axis=0),
    "log_softmax": lambda ops: ops.log_softmax(F),
    "one_hot": lambda ops: ops.one_hot(np.array([0, 2, 1], np.int32), 3),
    "normalize": lambda ops: ops.normalize(F),
    "normalize_l1": lambda ops: ops.normalize(F, axis=0, order=1),
    "sparse_categorical_crossentropy": lambda ops: ops.sparse_categorical_crossentropy(
        np.array([2, 0], np.int32), np.abs(F) / np.abs(F).sum(1, keepdims=True)),
    "sparse_categorical_crossentropy_logits": lambda ops: ops.sparse_categorical_crossentropy(
        np.array([2, 0], np.int32), F, from_logits=True),
    "categorical_crossentropy_logits": lambda ops: ops.categorical_crossentropy(
        np.array([[0, 0, 1], [1, 0, 0]], np.float32), F, from_logits=True),
    "binary_crossentropy": lambda ops: ops.binary_crossentropy(np.array([1.0, 0.0, 1.0], np.float32),
                                                               np.array([0.9, 0.2, 0.4], np.float32)),
    "binary_crossentropy_logits": lambda ops: ops.binary_crossentropy(np.array([1.0, 0.0, 1.0], np.float32), U,
                                                                      from_logits=True),
    # linalg
    "linalg_norm": lambda ops: ops.linalg.norm(F),
    "linalg_norm_axis": lambda ops: ops.linalg.norm(F, axis=-1),
    "linalg_norm_keepdims": lambda ops: ops.linalg.norm(I, axis=0, keepdims=True),
    "linalg_norm_ord1": lambda ops: ops.linalg.norm(U, ord=1),
    "linalg_inv": lambda ops: ops.linalg.inv(D),
    "linalg_det": lambda ops: ops.linalg.det(D),
    "linalg_solve": lambda ops: ops.linalg.solve(D, D[:, :1]),
    # control flow
    "cond": lambda ops: ops.cond(ops.array(2) > 1, lambda: ops.ones(2), lambda: ops.zeros(2)),
    "scan": lambda ops: ops.scan(lambda c, x: (c + x, c * x), np.float32(1.0), U),
    "scan_reverse": lambda ops: ops.scan(lambda c, x: (c + x, c), np.float32(0.0), U, reverse=True),
    "fori_loop": lambda ops: ops.fori_loop(0, 4, lambda i, v: v * 2.0, ops.ones(2)),
    "while_loop": lambda ops: ops.while_loop(lambda i, s: i < 5, lambda i, s: (i + 1, s + i), (0, 0)),
    "while_loop_single": lambda ops: ops.while_loop(lambda x: ops.sum(x) < 10.0, lambda x: x * 2.0, ops.ones(2)),
    "vectorized_map": lambda ops: ops.vectorized_map(lambda row: ops.sum(row * row), F),
    "stop_gradient": lambda ops: ops.stop_gradient(F),
    "slice": lambda ops: ops.slice(F, [1, 1], [1, 2]),
    # layout
    "moveaxis": lambda ops: ops.moveaxis(np.arange(24, dtype=np.float32).reshape(2, 3, 4), 0, -1),
    "moveaxis_several": lambda ops: ops.moveaxis(np.arange(24, dtype=np.float32).reshape(2, 3, 4), [0, 1], [-1, -2]),
    "swapaxes": lambda ops: ops.swapaxes(np.arange(24, dtype=np.float32).reshape(2, 3, 4), 0, 2),
    "vstack": lambda ops: ops.vstack([U, U]),
    "hstack": lambda ops: ops.hstack([I, I]),
    "hstack_vectors": lambda ops: ops.hstack([U, U[:1]]),
    "append_flat": lambda ops: ops.append(I, F),
    "append_axis": lambda ops: ops.append(I, I, axis=0),
    "copy": lambda ops: ops.copy(F),
    "tril": lambda ops: ops.tril(D),
    "triu_k": lambda ops: ops.triu(np.ones((3, 4), np.float32), k=1),
    "tril_negative_k": lambda ops: ops.tril(np.ones((3, 3), np.int32), k=-1),
    "tri": lambda ops: ops.tri(3, 2),
    "diagonal": lambda ops: ops.diagonal(np.arange(12, dtype=np.float32).reshape(3, 4)),
    "diagonal_offset": lambda ops: ops.diagonal(np.arange(24, dtype=np.float32).reshape(2, 3, 4), offset=1, axis1=1,
                                                axis2=2),
    "meshgrid": lambda ops: ops.meshgrid(np.array([1, 2], np.int32), np.array([3, 4, 5], np.int32)),
    "meshgrid_ij": lambda ops: ops.meshgrid(np.array([1, 2], np.int32), np.array([3, 4, 5], np.int32), indexing="ij"),
    "logsumexp": lambda ops: ops.logsumexp(F, axis=1),
    "logsumexp_all": lambda ops: ops.logsumexp(F * 500),
    "logsumexp_keepdims": lambda ops: ops.logsumexp(F, axis=0, keepdims=True),
    "logaddexp": lambda ops: ops.logaddexp(F, U),
    "log2": lambda ops: ops.log2(np.abs(F)),
    "log10_int": lambda ops: ops.log10(np.array([1, 10, 1000], np.int32)),
    "expm1": lambda ops: ops.expm1(F),
    "reciprocal": lambda ops: ops.reciprocal(F),
    "average": lambda ops: ops.average(F, axis=1),
    "average_weights": lambda ops: ops.average(F, axis=1, weights=np.array([1.0, 2.0, 3.0], np.float32)),
    "average_weights_all": lambda ops: ops.average(F, weights=np.abs(F)),
}


def describe(result: Any, ops: Any) -> Any:
    """Plain data for a case's result: ``{"value", "dtype", "shape"}`` per tensor, lists and tuples as lists."""
    if isinstance(result, (tuple, list)):
        return {"sequence": type(result).__name__, "items": [describe(item, ops) for item in result]}
    if isinstance(result, (bool, int, float, str)) or result is None:
        return {"python": result, "type": type(result).__name__}
    array = ops.convert_to_numpy(result)
    dtype = result.dtype.name
    value = np.where(np.isnan(array), None, array).tolist() if array.dtype.kind == "f" else array.tolist()
    kind = "ndarray" if isinstance(result, np.ndarray) else "tensor"
    return {"value": value, "dtype": dtype, "shape": list(array.shape), "type": kind}


def main() -> None:
    import keras
    recorded = {}
    for name, case in CASES.items():
        recorded[name] = describe(case(keras.ops), keras.ops)
    OUT.write_text(json.dumps({"keras": keras.__version__, "cases": recorded}, indent=1) + "\n")
    print(f"{len(recorded)} cases -> {OUT}")


if __name__ == "__main__":
    main()
