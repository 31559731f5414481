"""Record what TensorFlow 2.21 (Keras 3) answers on the Keras blockers of corpus snippets (issue #24), for
tests/test_corpus_blockers.py (run by hand, never by CI).

    TF_ENABLE_ONEDNN_OPTS=0 /tmp/tfvenv/bin/python tests/record_tf_corpus_blockers.py   # writes tests/data/tf_corpus_blockers.json

Each case is a few lines run with ``tf`` (and ``np``) bound, leaving its answer in ``result``, recorded as
``record_tf_refusals.run`` does.
"""
from __future__ import annotations

import pathlib

from record_tf_refusals import record

OUT = pathlib.Path(__file__).parent / "data" / "tf_corpus_blockers.json"

ACTIVATION_NAMES = ("elu", "exponential", "gelu", "hard_sigmoid", "hard_silu", "hard_swish", "leaky_relu", "linear",
                    "log_sigmoid", "log_softmax", "mish", "relu", "relu6", "selu", "sigmoid", "silu", "softmax",
                    "softplus", "softsign", "swish", "tanh")
_X = "x = tf.constant([[-2.0, -0.5, 0.0, 0.5, 2.0]])\n"
#: Every activation Keras 3 finds by name, in an Activation layer and in a Dense layer whose kernel is all ones.
ACTIVATIONS = {name: _X + f"d = tf.keras.layers.Dense(1, activation={name!r}, kernel_initializer='ones')\n"
                          f"result = [tf.keras.layers.Activation({name!r})(x), d(x)]" for name in ACTIVATION_NAMES}
#: Keras 2's spellings Keras 3 still reads, Sequential.pop and Model.get_layer.
KERAS = {
    "input_layer_input_shape": "result = str(tf.keras.layers.InputLayer(input_shape=[28, 28]).output.shape)",
    "input_layer_batch_input_shape": "result = str(tf.keras.layers.InputLayer(batch_input_shape=(4, 2)).output.shape)",
    "dense_input_dim": "m = tf.keras.Sequential([tf.keras.layers.Dense(1, input_dim=784)])\n"
                       "result = [str(m.built), str([w.shape for w in m.weights])]",
    "dense_input_dim_and_input_shape": "result = tf.keras.layers.Dense(1, input_dim=784, input_shape=(3,))",
    "pop": "m = tf.keras.Sequential([tf.keras.layers.Dense(2, name='a'), tf.keras.layers.Dense(3, name='b')])\n"
           "m.build((None, 4))\nresult = [m.pop().name, str([l.name for l in m.layers]), str(len(m.weights))]",
    "pop_then_call": "m = tf.keras.Sequential([tf.keras.layers.Dense(2, name='a'), tf.keras.layers.Dense(3, name='b')])\n"
                     "m.build((None, 4))\nm.pop()\nresult = m(np.ones((1, 4), np.float32)).shape.as_list()\n"
                     "result = str(result)",
    "pop_empty": "result = tf.keras.Sequential().pop()",
    "get_layer_by_name": "m = tf.keras.Sequential([tf.keras.layers.Dense(2, name='a'), tf.keras.layers.ReLU(name='r')])\n"
                         "result = [m.get_layer('r').name, m.get_layer(index=0).name]",
    "get_layer_unknown": "m = tf.keras.Sequential([tf.keras.layers.Dense(2, name='a')])\nresult = m.get_layer('zz')",
    "get_layer_index_past": "m = tf.keras.Sequential([tf.keras.layers.Dense(2, name='a')])\nresult = m.get_layer(index=3)",
    "get_layer_both": "m = tf.keras.Sequential([tf.keras.layers.Dense(2, name='a')])\nresult = m.get_layer('a', 0)",
    "get_layer_neither": "m = tf.keras.Sequential([tf.keras.layers.Dense(2, name='a')])\nresult = m.get_layer()",
    "lecun_by_name": "result = [type(tf.keras.initializers.get(n)).__name__ for n in ('lecun_normal', 'lecun_uniform')]",
    "lecun_spread": "w = [tf.keras.initializers.get(n)((400, 3000)) for n in ('lecun_normal', 'lecun_uniform')]\n"
                    "result = [tf.constant([round(float(np.std(v.numpy())) * 20, 1) for v in w]),\n"
                    "          tf.constant(round(float(tf.reduce_max(tf.abs(w[1]))) ** 2 * 400, 1))]",
    "layer_alias": "result = str(tf.keras.Layer is tf.keras.layers.Layer)",
}

_LOG = ("class Log(tf.keras.callbacks.Callback):\n"
        "    pass\n"
        "events = []\n"
        "for hook in ('test_begin', 'test_end', 'predict_begin', 'predict_end'):\n"
        "    setattr(Log, 'on_' + hook, lambda self, logs=None, hook=hook: events.append(f'{hook} {sorted(logs)}'))\n"
        "for hook in ('test_batch_begin', 'test_batch_end', 'predict_batch_begin', 'predict_batch_end'):\n"
        "    setattr(Log, 'on_' + hook, lambda self, batch, logs=None, hook=hook: events.append(\n"
        "        f'{hook} {batch} {sorted(logs)} {[getattr(v, \"shape\", v) for k, v in sorted(logs.items()) if k == \"outputs\"]}'))\n"
        "model = tf.keras.Sequential([tf.keras.layers.Dense(1, kernel_initializer='ones')])\n"
        "model.compile(optimizer='sgd', loss='mse', metrics=['mae'])\n"
        "x, y = np.ones((5, 2), np.float32), np.ones((5, 1), np.float32)\n")
#: The hooks evaluate, predict and fit's validation call, in order, with the keys of their logs.
CALLBACKS = {
    "evaluate": _LOG + "model.evaluate(x, y, batch_size=2, verbose=0, callbacks=[Log()])\nresult = events",
    "predict": _LOG + "model.predict(x, batch_size=2, verbose=0, callbacks=[Log()])\nresult = events",
    "fit_validation": _LOG + "model.fit(x, y, batch_size=4, verbose=0, validation_data=(x, y), callbacks=[Log()])\n"
                             "result = events",
}

#: f-strings of tensors: NumPy formats the value (dlai_c1w2's f"sum of outputs: {sum}"); a Variable keeps its repr.
FORMAT = {
    "scalar": "result = [f'{tf.constant(np.float64(0.5))}', f'{tf.constant(1.5):>8}|', '{}'.format(tf.constant(3))]",
    "vector": "result = f'{tf.constant([1.0, 2.0])}'",
    "vector_with_spec": "result = f'{tf.constant([1.0, 2.0]):>4}'",
    "variable": "result = f'{tf.Variable(2.0)}'.replace('tf.', 'minitape.')",
}

GROUPS = {"activations": ACTIVATIONS, "keras": KERAS, "callbacks": CALLBACKS, "format": FORMAT}


def main() -> None:
    record(GROUPS, OUT)


if __name__ == "__main__":
    main()
