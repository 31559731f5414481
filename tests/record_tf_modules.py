"""Record what TensorFlow 2.21 reports for tf.Module, name scopes, initializers and Keras 3 tracking and naming
(run by hand, never by CI).

    /tmp/tfvenv/bin/python tests/record_tf_modules.py      # writes tests/data/tf_modules.json

Each scenario below is a function of the ``tf`` module (TensorFlow here, minitape in
tests/test_module_tf.py) that returns plain data: names, paths, counts, printed text.
The test runs the same functions with minitape and compares with what TF returned.
"""
from __future__ import annotations

import json
import pathlib
from typing import Any

OUT = pathlib.Path(__file__).parent / "data" / "tf_modules.json"


def module_classes(tf: Any) -> dict[str, type]:
    """The guide's modules (TF's "Introduction to modules"), and one that nests them in a list, a dict, a tuple."""

    class Dense(tf.Module):
        def __init__(self, in_features: int, out_features: int, name: str | None = None) -> None:
            super().__init__(name=name)
            self.w = tf.Variable(tf.random.normal([in_features, out_features]), name="w")
            self.b = tf.Variable(tf.zeros([out_features]), name="b")

        def __call__(self, x: Any) -> Any:
            return tf.nn.relu(tf.matmul(x, self.w) + self.b)

    class SequentialModule(tf.Module):
        def __init__(self, name: str | None = None) -> None:
            super().__init__(name=name)
            self.dense_1 = Dense(in_features=3, out_features=3)
            self.dense_2 = Dense(in_features=3, out_features=2)

        def __call__(self, x: Any) -> Any:
            return self.dense_2(self.dense_1(x))

    class MLP(tf.Module):
        def __init__(self, name: str | None = None) -> None:
            super().__init__(name=name)
            self.layers = []
            with self.name_scope:
                self.layers.append(Dense(2, 2))
                self.layers.append(Dense(2, 1))
                self.steps = tf.Variable(1.0, trainable=False)
            self.d = {"z": Dense(1, 1, name="zz"), "a": (Dense(1, 1, name="aa"),)}

    class Deep(tf.Module):
        def __init__(self) -> None:
            super().__init__()
            self.b_inner = MLP(name="inner")
            self.a = tf.Variable(0.0, name="top")
            self.shared = self.b_inner.layers[0]

    class Lazy(tf.Module):
        @tf.Module.with_name_scope
        def __call__(self, x: Any) -> Any:
            if not hasattr(self, "w"):
                self.w = tf.Variable(tf.ones([x.shape[1], 3]), name="w")
            return tf.matmul(x, self.w)

    class MyHTTPModule2D(tf.Module):
        pass

    return {c.__name__: c for c in (Dense, SequentialModule, MLP, Deep, Lazy, MyHTTPModule2D)}


def modules(tf: Any) -> dict[str, Any]:
    classes = module_classes(tf)
    model = classes["SequentialModule"](name="the_model")
    out = model(tf.constant([[2.0, 2.0, 2.0]]))
    mlp, deep, lazy = classes["MLP"](), classes["Deep"](), classes["Lazy"]()
    lazy(tf.ones([1, 2]))
    with tf.name_scope("outer"):
        scoped = tf.Module(name="m2")
        in_scope = tf.Variable(1.0, name="q").name
    try:
        tf.Module(name="bad name")
        bad = None
    except ValueError as error:
        bad = str(error)
    return {
        "guide_output_shape": list(out.shape), "guide_names": [v.name for v in model.variables],
        "guide_shapes": [list(v.shape) for v in model.variables],
        "guide_submodules": [type(m).__name__ for m in model.submodules],
        "guide_trainable": len(model.trainable_variables), "types": [type(model.variables).__name__,
                                                                     type(model.submodules).__name__],
        "mlp": [mlp.name, mlp.name_scope.name, [v.name for v in mlp.variables],
                [v.name for v in mlp.trainable_variables], [v.name for v in mlp.non_trainable_variables],
                [m.name for m in mlp.submodules], [m.name_scope.name for m in mlp.submodules]],
        "deep": [[v.name for v in deep.variables], [m.name for m in deep.submodules]],
        "lazy": [lazy.w.name, type(lazy).__call__.__name__],
        "scoped": [scoped.name, scoped.name_scope.name, in_scope], "bad_name": bad,
        "default_names": [tf.Module().name, classes["MyHTTPModule2D"]().name],
    }


def name_scopes(tf: Any) -> dict[str, Any]:
    found = {}
    for name in ["", "a b", "x/", "ok.1-_"]:
        with tf.name_scope(name) as scope:
            found[name] = [scope, tf.Variable(1.0, name="v").name]
    with tf.name_scope("a"):
        with tf.name_scope("b/") as absolute:
            found["absolute"] = [absolute, tf.Variable(1.0).name]
        with tf.name_scope("a") as again:
            found["again"] = again
    try:
        tf.name_scope(3)
    except ValueError as error:
        found["not_a_string"] = str(error)
    found["name"] = tf.name_scope("q").name
    return found


def initializers(tf: Any) -> dict[str, Any]:
    names = ["random_normal_initializer", "random_uniform_initializer", "zeros_initializer", "ones_initializer",
             "constant_initializer", "glorot_uniform_initializer", "glorot_normal_initializer",
             "truncated_normal_initializer", "variance_scaling_initializer"]

    def described(t: Any) -> list:
        return [t.dtype.name, list(t.shape), t.numpy().tolist()]

    normal = tf.random_normal_initializer(mean=1.0, stddev=0.0)
    return {
        "exist": {name: hasattr(tf, name) for name in names},
        "zeros": described(tf.zeros_initializer()((2, 3))),
        "ones_int": described(tf.ones_initializer()((2,), tf.int32)),
        "constant_scalar": described(tf.constant_initializer(3.0)((2,))),
        "constant_int": described(tf.constant_initializer(3)((2,))),
        "constant_list": described(tf.constant_initializer([1, 2, 3, 4])((2, 2), tf.float64)),
        "normal": described(normal(shape=(2,), dtype=tf.float32)), "normal_config": normal.get_config(),
        "uniform_config": tf.random_uniform_initializer().get_config(),
        "uniform_range": bool(abs(tf.random_uniform_initializer()((100,)).numpy()).max() <= 0.05),
        "keras_zeros_default": described(tf.keras.initializers.Zeros()((2,))),
        "keras_constant": described(tf.keras.initializers.Constant(3)((2,))),
    }


def keras_naming(tf: Any) -> dict[str, Any]:
    layers = tf.keras.layers
    dense = layers.Dense(3, kernel_initializer="ones", name="my_dense_layer")
    dense.build((None, 2))
    built = {}
    for layer, shape in [(layers.Conv2D(2, 3, name="cv"), (None, 5, 5, 1)), (layers.BatchNormalization(name="bn"),
                         (None, 3)), (layers.Embedding(5, 2, name="emb"), (None,)),
                         (layers.LayerNormalization(name="ln"), (None, 3))]:
        layer.build(shape)
        built[layer.name] = [[v.name, v.path, v.trainable] for v in layer.weights]
    seq = tf.keras.Sequential([layers.Dense(2, name="a"), layers.Dense(1, name="b")], name="seq")
    seq(tf.ones((1, 3)))

    class Scale(layers.Layer):
        def build(self, input_shape: Any) -> None:
            self.w = self.add_weight(shape=(2,), initializer="ones", name="w")
            self.u = self.add_weight(shape=(2,), initializer="zeros")
            self.count = self.add_weight((1,), "zeros", name="count", trainable=False)

    scale = Scale(name="scale")
    scale.build(None)
    try:
        scale.add_weight("w", (2,))
    except ValueError as error:
        positional = str(error)
    return {"dense": [dense.kernel.name, dense.kernel.path, repr(dense.kernel), str(dense.bias)], "built": built,
            "sequential": [v.path for v in seq.weights],
            "add_weight": [[v.name, v.path, v.trainable] for v in scale.weights], "printed": repr(scale.count),
            "positional_name": positional}


def keras_tracking(tf: Any) -> dict[str, Any]:
    layers = tf.keras.layers

    class Holder(tf.keras.Model):
        def __init__(self) -> None:
            super().__init__()
            self.modules = []
            for _ in range(2):
                self.modules.append(layers.Dense(2))
            self.by_key = {"b": layers.Dense(1, name="bee"), "a": layers.Dense(1, name="ay")}
            self.pair = (layers.Dense(1, name="t0"),)
            self.nested = [[layers.Dense(1, name="n0")]]
            self.stats = layers.BatchNormalization(name="stats")

        def call(self, x: Any) -> Any:
            for module in self.modules:
                x = module(x)
            x = self.stats(x)
            return self.by_key["b"](x) + self.by_key["a"](x) + self.pair[0](x) + self.nested[0][0](x)

    model = Holder()
    model(tf.ones((1, 3)))
    counts = {key: len(getattr(model, key)) for key in ["layers", "weights", "trainable_weights",
                                                        "non_trainable_weights", "trainable_variables",
                                                        "non_trainable_variables", "variables"]}
    found = {"layers": [layer.name for layer in model.layers[2:]], "counts": counts,
             "containers": [type(model.modules).__name__, type(model.by_key).__name__],
             "leaf_names": [v.name for v in model.weights]}
    model.modules.pop()
    found["after_pop"] = len(model.layers)
    return found


def keras_containers(tf: Any) -> list[list[str]]:
    """Which container methods track and untrack, Keras 3's way (replacing an item does neither)."""
    layers, model, seen = tf.keras.layers, tf.keras.Model(), []

    def note() -> None:
        seen.append([layer.name for layer in model.layers])

    model.blocks = [[layers.Dense(1, name="a")]]
    model.blocks[0].append(layers.Dense(1, name="b")); note()
    model.blocks += [layers.Dense(1, name="c")]; note()
    model.blocks.insert(0, layers.Dense(1, name="d")); note()
    model.blocks[0] = layers.Dense(1, name="e"); note()
    model.blocks.remove(model.blocks[-1]); note()
    del model.blocks[0]; note()
    model.blocks[0].clear(); note()
    model.blocks[0] += [layers.Dense(1, name="inner")]; note()
    model.x = layers.Dense(1, name="x")
    model.x = layers.Dense(1, name="y"); note()
    given = {"k": layers.Dense(1, name="k")}
    model.given = given
    given["q"] = layers.Dense(1, name="q"); note()          # the attribute holds a tracked copy
    model.heads = {}
    model.heads.update({"b": layers.Dense(1, name="bb")}); note()
    model.heads.pop("b"); note()
    model.heads["r"] = layers.Dense(1, name="r")
    del model.heads["r"]; note()
    model.heads.setdefault("s", layers.Dense(1, name="s")); note()
    model.heads["s"] = layers.Dense(1, name="s2"); note()
    model.heads.popitem(); note()
    seen.append([type(model.blocks).__name__, type(model.heads).__name__, str(model.given is given)])
    return seen


SCENARIOS = {f.__name__: f for f in (modules, name_scopes, initializers, keras_naming, keras_tracking,
                                     keras_containers)}


def main() -> None:
    import tensorflow as tf

    tf.random.set_seed(0)
    record = {name: scenario(tf) for name, scenario in SCENARIOS.items()}
    record["versions"] = [tf.__version__, tf.keras.__version__]
    OUT.write_text(json.dumps(record, indent=1, sort_keys=True) + "\n")
    print(f"wrote {len(SCENARIOS)} scenarios to {OUT}, TF {tf.__version__}")


if __name__ == "__main__":
    main()
