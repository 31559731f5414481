"""Record what TensorFlow 2.21 (Keras 3) answers on the blockers of a second set of corpus snippets (issue #24):
``tf.string`` tensors (tfex_helloworld), ``Metric.stateless_*`` (dlwp3_ch07_metrics_ops), the batch size in
``summary()``'s output shapes (kerasio_sequential_input_shape, dlwp2_ch07_mixing_models), EarlyStopping's mode
"auto" (dlwp2_ch07_callbacks) and a layer's repr (homl10_sequential_classifier), for
tests/test_corpus_fixes.py (run by hand, never by CI).

    TF_ENABLE_ONEDNN_OPTS=0 /tmp/tfvenv/bin/python tests/record_tf_corpus_fixes.py   # writes tests/data/tf_corpus_fixes.json

Each case is a few lines run with ``tf`` (and ``np``) bound, leaving its answer in ``result``, recorded as
``record_tf_refusals.run`` does.  Text is compared with ``tf.`` spelled ``minitape.`` (the declared difference).
"""
from __future__ import annotations

import pathlib

from record_tf_refusals import record

OUT = pathlib.Path(__file__).parent / "data" / "tf_corpus_fixes.json"


def _shown(expression: str) -> str:
    """A case showing ``expression``'s str, repr, dtype and ``numpy()``, with TF's ``tf.`` spelled as minitape's."""
    return (f"t = {expression}\n"
            "result = [s.replace('tf.', 'minitape.') for s in (str(t), repr(t), repr(t.numpy()), repr(t.dtype),\n"
            "                                                   str(t.shape), f'{t}')]")


#: String tensors as far as printing and passing them on: made, shown, read back, compared; math refuses them.
STRINGS = {
    "scalar": _shown("tf.constant('hello world')"),
    "vector": _shown("tf.constant(['ab', 'c'])"),
    "matrix": _shown("tf.constant([['a'], ['b']])"),
    "bytes": _shown("tf.constant(b'bytes')"),
    "utf8": _shown("tf.constant('h\\u00e9llo')"),
    "numpy_text": _shown("tf.constant(np.array(['a', 'bb']))"),
    "string_dtype_given": _shown("tf.constant('x', dtype=tf.string)"),
    "identity": _shown("tf.identity(tf.constant('hi'))"),
    "of_a_string_tensor": _shown("tf.constant(tf.constant(['hi']))"),
    "variable": "result = repr(tf.Variable('abc')).replace('tf.', 'minitape.')",
    "dtype_facts": "result = [str(tf.string), repr(tf.as_dtype('string')), str(tf.string.is_numeric),\n"
                   "          str(tf.string.is_floating), str(tf.string.size), str(tf.string.as_numpy_dtype),\n"
                   "          str(tf.string.as_datatype_enum), repr(tf.as_dtype(np.object_))]",
    "equal": "result = [tf.constant('a') == tf.constant('a'), tf.equal(tf.constant(['a', 'b']), 'b'),\n"
             "          tf.not_equal(tf.constant(['a', 'b']), 'b')]",
    "mixed_list": "result = tf.constant(['a', 1])",
    "float_dtype_given": "result = tf.constant('a', tf.float32)",
    "number_as_string": "result = tf.constant(2, tf.string)",
    "ragged": "result = tf.constant([['a'], ['b', 'c']])",
    "exp": "result = tf.exp(tf.constant('a'))",
    "add_int": "result = tf.add(tf.constant('a'), 1)",
    "add_to_float": "result = tf.constant(1.0) + tf.constant('a')",
    "multiply_float": "result = tf.constant('a') * 2.0",
    "cast_to_float": "result = tf.cast(tf.constant('a'), tf.float32)",
    "cast_from_int": "result = tf.cast(tf.constant(1), tf.string)",
    "reduce_sum": "result = tf.reduce_sum(tf.constant(['a']))",
    "min": "result = tf.string.min",
    "argmax": "result = tf.argmax(tf.constant(['a', 'b']))",
    "reshape_gather_concat": "t = tf.constant(['a', 'b'])\n"
                             "result = [repr(x.numpy()) for x in (tf.reshape(t, [2, 1]), tf.gather(t, [1]),\n"
                             "                                    tf.concat([t, t], 0), t[1:], tf.stack([t, t]))]",
}

_MEAN = "m = tf.keras.metrics.Mean()\nm.update_state([10.0])\n"
#: Keras 3's functional metric API: new state as tensors, the metric's own variables untouched.
METRICS = {
    "update": _MEAN + "new = m.stateless_update_state(m.variables, [1.0, 2.0])\nresult = [*new, *map(tf.convert_to_tensor, m.variables)]",
    "result": _MEAN + "new = m.stateless_update_state(m.variables, [1.0, 2.0])\n"
                      "result = [m.stateless_result(new), m.result()]",
    "reset": _MEAN + "result = [*m.stateless_reset_state(), *map(tf.convert_to_tensor, m.variables)]",
    "accuracy": "m = tf.keras.metrics.SparseCategoricalAccuracy()\n"
                "new = m.stateless_update_state(m.variables, np.array([0, 1, 2]), np.eye(3))\n"
                "result = [m.stateless_result(new), m.result()]",
    "too_few": _MEAN + "result = m.stateless_update_state(m.variables[:1], [1.0])",
    "result_too_few": _MEAN + "result = m.stateless_result(m.variables[:1])",
}

_SHAPES = ("def shapes(model):\n"
           "    printed = []\n"
           "    model.summary(print_fn=lambda text, **kwargs: printed.append(text))\n"
           "    return [row.split('\u2502')[2].strip() for row in ''.join(printed).splitlines() if row.startswith('\u2502')]\n"
           "L = tf.keras.layers\n"
           "class Two(tf.keras.Model):\n"
           "    def __init__(self, inner=None):\n"
           "        super().__init__()\n"
           "        self.a, self.b = L.Dense(2), inner or L.Dense(3)\n"
           "    def call(self, x):\n"
           "        return self.b(self.a(x))\n"
           "def fitted(n, batch, how='fit'):\n"
           "    model = tf.keras.Sequential([L.Dense(2)])\n"
           "    model.compile('sgd', 'mse')\n"
           "    x, y = np.ones((n, 4), 'float32'), np.ones((n, 2), 'float32')\n"
           "    getattr(model, how)(x, y, batch_size=batch, verbose=0) if how != 'predict' else model.predict(x, batch_size=batch, verbose=0)\n"
           "    return model\n")
#: The Output Shape column: the batch axis of the data a Sequential or subclassed model was built by (Keras 3 keeps
#: the shapes it was built for), None where it was built from an input shape or a batch spec that varies.
SUMMARY = {
    "sequential_called": _SHAPES + "m = tf.keras.Sequential([L.Dense(2), L.Dense(3)])\nm(tf.ones((1, 4)))\n"
                                   "m(tf.ones((6, 4)))\nresult = shapes(m)",
    "sequential_input_shape": _SHAPES + "result = shapes(tf.keras.Sequential([L.Dense(2, input_shape=(4,))]))",
    "sequential_input": _SHAPES + "result = shapes(tf.keras.Sequential([tf.keras.Input(shape=(4,)), L.Dense(2)]))",
    "sequential_build_none": _SHAPES + "m = tf.keras.Sequential([L.Dense(2)])\nm.build((None, 4))\nresult = shapes(m)",
    "sequential_build_batch": _SHAPES + "m = tf.keras.Sequential([L.Dense(2)])\nm.build((3, 4))\nresult = shapes(m)",
    "subclassed_called": _SHAPES + "m = Two()\nm(np.zeros((5, 4)))\nm(np.zeros((7, 4)))\nresult = shapes(m)",
    "subclassed_with_functional": _SHAPES + "i = tf.keras.Input(shape=(2,))\nf = tf.keras.Model(i, L.Dense(1)(i))\n"
                                            "m = Two(f)\nm(np.zeros((2, 3)))\nresult = shapes(m)",
    "functional": _SHAPES + "i = tf.keras.Input(shape=(4,))\nm = tf.keras.Model(i, L.Dense(2)(i))\nm(np.ones((3, 4)))\n"
                            "result = shapes(m)",
    "fit_full_batches": _SHAPES + "result = shapes(fitted(8, 4))",
    "fit_last_batch_smaller": _SHAPES + "result = shapes(fitted(10, 4))",
    "fit_one_small_batch": _SHAPES + "result = shapes(fitted(4, 32))",
    "evaluate_full_batches": _SHAPES + "result = shapes(fitted(8, 4, 'evaluate'))",
    "evaluate_last_batch_smaller": _SHAPES + "result = shapes(fitted(10, 4, 'evaluate'))",
    "predict_last_batch_smaller": _SHAPES + "result = shapes(fitted(10, 4, 'predict'))",
    "called_then_fit": _SHAPES + "m = tf.keras.Sequential([L.Dense(2)])\nm(np.ones((3, 4)))\nm.compile('sgd', 'mse')\n"
                                 "m.fit(np.ones((10, 4)), np.ones((10, 2)), batch_size=4, verbose=0)\nresult = shapes(m)",
}

def _direction(monitor: str, metrics: str) -> str:
    """Whether an EarlyStopping in mode "auto" on ``monitor`` counts a rise as an improvement, after a fit."""
    return ("model = tf.keras.Sequential([tf.keras.layers.Dense(3, activation='softmax')])\n"
            f"model.compile(optimizer='sgd', loss='sparse_categorical_crossentropy', metrics={metrics})\n"
            f"stop = tf.keras.callbacks.EarlyStopping(monitor={monitor!r}, patience=5)\n"
            "x, y = np.ones((4, 2), 'float32'), np.zeros(4, 'int32')\n"
            "model.fit(x, y, validation_data=(x, y), epochs=2, verbose=0, callbacks=[stop])\n"
            "result = [str(bool(stop.monitor_op(1.0, 0.0))), str(float(stop.min_delta))]")


#: EarlyStopping's mode "auto" finds a compiled metric's direction (dlwp2_ch07_callbacks: monitor="val_accuracy").
CALLBACKS = {
    "val_accuracy": _direction("val_accuracy", "['accuracy']"),
    "accuracy": _direction("accuracy", "['accuracy']"),
    "val_loss": _direction("val_loss", "['accuracy']"),
    "val_accuracy_object": _direction("val_acc", "[tf.keras.metrics.SparseCategoricalAccuracy(name='acc')]"),
}

#: How a layer or model shows itself in a list (homl10_sequential_classifier's ``model.layers``).
REPR = {
    "layers": "m = tf.keras.Sequential([tf.keras.Input((3,)), tf.keras.layers.Dense(2, name='h'), tf.keras.layers.Dropout(0.1, name='o')], name='s')\n"
              "result = [repr(m), repr(m.layers), repr(tf.keras.layers.Dense(1, name='d'))]",
    "subclassed": "class Mine(tf.keras.Model):\n    def call(self, x):\n        return x\n"
                  "result = [repr(Mine(name='mine')), repr(tf.keras.layers.InputLayer(shape=(2,), name='i'))]",
}

GROUPS = {"strings": STRINGS, "metrics": METRICS, "summary": SUMMARY, "callbacks": CALLBACKS, "repr": REPR}


def main() -> None:
    record(GROUPS, OUT)


if __name__ == "__main__":
    main()
