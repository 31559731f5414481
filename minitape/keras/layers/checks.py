"""The argument checks layers share, with Keras 3's messages.

>>> from minitape.keras.layers.checks import pair
>>> pair(3, "kernel_size"), pair((1, 2), "strides")
((3, 3), (1, 2))
"""
from __future__ import annotations

from typing import Any


def pair(value: Any, name: str) -> tuple[int, int]:
    """``value`` as two positive integers (one integer is used twice), as Keras' ``standardize_tuple``.

    >>> from minitape.keras.layers.checks import pair
    >>> pair(0, "pool_size")
    Traceback (most recent call last):
    ...
    ValueError: The `pool_size` argument must be a tuple of 2 integers. Received pool_size=0, including values {0} that do not satisfy `value > 0`
    """
    return integers(value, 2, name)


def integers(value: Any, count: int, name: str) -> tuple[int, ...]:
    """``value`` as ``count`` positive integers (one integer is used ``count`` times): a window's size in each of
    its ``count`` spatial axes (1 for ``Conv1D``, 2 for ``Conv2D``).

    >>> from minitape.keras.layers.checks import integers
    >>> integers(3, 1, "kernel_size"), integers((2,), 1, "strides")
    ((3,), (2,))
    """
    message = f"The `{name}` argument must be a tuple of {count} integers. Received {name}={value}"
    values = (value,) * count if isinstance(value, int) else value
    try:
        values = tuple(int(v) for v in values)
    except (TypeError, ValueError):
        raise ValueError(message) from None
    if len(values) != count:
        raise ValueError(message)
    if any(v <= 0 for v in values):
        raise ValueError(f"{message}, including values {set(v for v in values if v <= 0)} that do not satisfy "
                         f"`value > 0`")
    return values


def non_negative_pair(value: Any, name: str) -> tuple[int, int]:
    """``value`` (an int, or one per axis) as two integers >= 0: an amount of padding, where 0 is allowed.

    >>> from minitape.keras.layers.checks import non_negative_pair
    >>> non_negative_pair(0, "output_padding"), non_negative_pair((1, 2), "padding")
    ((0, 0), (1, 2))
    """
    values = (value, value) if isinstance(value, int) else tuple(value)
    if len(values) != 2 or not all(isinstance(v, int) and v >= 0 for v in values):
        raise ValueError(f"The `{name}` argument must be a tuple of 2 integers. Received {name}={value}")
    return values


def padding(value: Any, causal: bool = False) -> str:
    """``"valid"`` or ``"same"`` (or ``"causal"``, for a sequence), in any case: how a window meets the edges.

    >>> from minitape.keras.layers.checks import padding
    >>> padding("SAME"), padding("causal", causal=True)
    ('same', 'causal')
    """
    allowed = ("valid", "same", "causal") if causal else ("valid", "same")
    if not isinstance(value, str) or value.lower() not in allowed:
        raise ValueError(f"The `padding` argument must be one of {{{', '.join(map(repr, allowed))}}}. "
                         f"Received: {value}")
    return value.lower()


def channels_last(data_format: str | None) -> None:
    """Images are NHWC in minitape: ``data_format`` may only be ``"channels_last"`` (or None).

    >>> from minitape.keras.layers.checks import channels_last
    >>> channels_last("channels_first")
    Traceback (most recent call last):
    ...
    ValueError: data_format='channels_first' is not supported: minitape's images are channels_last (NHWC); ...
    """
    if data_format not in (None, "channels_last"):
        raise ValueError(f"data_format={data_format!r} is not supported: minitape's images are channels_last "
                         f"(NHWC); transpose the inputs with tf.transpose(x, (0, 2, 3, 1)) first.")


def ndim(layer: Any, inputs: Any, expected: int) -> None:
    """Raise Keras' error unless ``inputs`` has ``expected`` axes.

    >>> import minitape as tf
    >>> from minitape.keras.layers.checks import ndim
    >>> ndim(tf.keras.layers.Layer(name="pool"), tf.ones((2, 5, 5)), 4)
    Traceback (most recent call last):
    ...
    ValueError: Input 0 of layer 'pool' is incompatible with the layer: expected ndim=4, found ndim=3. Full shape received: (2, 5, 5)
    """
    if len(inputs.shape) != expected:
        raise ValueError(f"Input 0 of layer '{layer.name}' is incompatible with the layer: expected ndim={expected}, "
                         f"found ndim={len(inputs.shape)}. Full shape received: {tuple(inputs.shape)}")


def last_axis(layer: Any, inputs: Any, expected: int) -> None:
    """Raise Keras' error unless the last axis of ``inputs`` (the channels) has ``expected`` entries.

    >>> import minitape as tf
    >>> from minitape.keras.layers.checks import last_axis
    >>> last_axis(tf.keras.layers.Layer(name="conv"), tf.ones((1, 4, 4, 2)), 3)
    Traceback (most recent call last):
    ...
    ValueError: Input 0 of layer 'conv' is incompatible with the layer: expected axis -1 of input shape to have value 3, but received input with shape (1, 4, 4, 2)
    """
    if inputs.shape[-1] != expected:
        raise ValueError(f"Input 0 of layer '{layer.name}' is incompatible with the layer: expected axis -1 of input "
                         f"shape to have value {expected}, but received input with shape {tuple(inputs.shape)}")


def read_input_dim(input_shape: tuple | None, kwargs: dict[str, Any]) -> tuple | None:
    """The input shape a layer is given, reading Keras 2's ``input_dim=784`` (popped from ``kwargs``) as
    ``input_shape=(784,)`` first, as Keras 3 still does; an ``input_shape`` given beside it goes back into
    ``kwargs``, where Keras 3 refuses it as an unrecognized argument.

    >>> from minitape.keras.layers.checks import read_input_dim
    >>> kwargs = {"input_dim": 784}
    >>> read_input_dim(None, kwargs), kwargs
    ((784,), {})
    """
    input_dim = kwargs.pop("input_dim", None)
    if input_dim is None:
        return input_shape
    if input_shape is not None:
        kwargs["input_shape"] = input_shape
    return (input_dim,)


def weight_arguments(args: tuple, shape: Any, initializer: Any, dtype: Any) -> tuple[Any, Any, Any]:
    """Keras 3's positional ``add_weight(shape, initializer, dtype)``; a name given first is refused, as Keras does.

    >>> from minitape.keras.layers.checks import weight_arguments
    >>> weight_arguments(((2,), "ones"), None, None, "float64")
    ((2,), 'ones', 'float64')
    """
    if len(args) > 3:
        raise TypeError(f"add_weight() takes at most 3 positional arguments but {len(args)} were given.")
    if args and isinstance(args[0], str):
        raise ValueError(f"`name` must be passed as a keyword argument. Received: add_weight('{args[0]}', ...). "
                         f"Use: add_weight(shape=..., name='{args[0]}').")
    given = {"shape": shape, "initializer": initializer, "dtype": dtype}
    for key, value in zip(given, args):
        if given[key] is not None:
            raise ValueError(f"`{key}` was passed both positionally and as a keyword argument.")
        given[key] = value
    return given["shape"], given["initializer"], given["dtype"]
