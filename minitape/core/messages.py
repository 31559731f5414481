"""TensorFlow's words for its errors, and minitape's advice beside them.

Where TF 2.21 raises, minitape raises the same type with the same ``str(error)``, so
that code which reads TF's messages reads minitape's.  What to do about the error
goes into an exception *note* (``add_note``): the traceback prints it under TF's text.

>>> import minitape as tf
>>> try:
...     tf.constant(1.0) + tf.constant(1.0, tf.float64)
... except tf.errors.InvalidArgumentError as error:
...     str(error)
'cannot compute AddV2 as input #1(zero-based) was expected to be a float tensor but is a double tensor [Op:AddV2] name: '
"""
from __future__ import annotations

from typing import Any


def with_hint(error: BaseException, hint: str) -> BaseException:
    """``error`` with ``hint`` (what to do) attached as a note: ``str(error)`` stays TensorFlow's text.

    The traceback prints the note under the message (Python 3.11 and later; Python 3.10 keeps it in
    ``__notes__`` but does not print it).

    >>> from minitape.core.messages import with_hint
    >>> error = with_hint(ValueError("Shape (2,) must have rank at least 2"), "Add an axis with tf.expand_dims.")
    >>> str(error), error.__notes__
    ('Shape (2,) must have rank at least 2', ['Add an axis with tf.expand_dims.'])
    """
    if hasattr(error, "add_note"):
        error.add_note(hint)
    else:
        error.__notes__ = [*getattr(error, "__notes__", ()), hint]
    return error


#: How TensorFlow's kernels spell the dtypes they name (``DataTypeString``); the others keep their names.
_KERNEL_SPELLING = {"float16": "half", "float32": "float", "float64": "double"}


def kernel_text(kernel: str, text: str, name: str = "", device: str | None = None) -> str:
    """A kernel's error as TF's eager runtime words it: ``text [Op:Kernel] name: ...``.

    A kernel run inside a function that TF wraps (a variable update) is led by the function
    and the ``device`` it ran on.

    >>> from minitape.core.messages import kernel_text
    >>> kernel_text("AddV2", "Incompatible shapes: [2] vs. [3]")
    'Incompatible shapes: [2] vs. [3] [Op:AddV2] name: '
    """
    wrapped = f"{{{{function_node __wrapped__{kernel}_device_{device}}}}} " if device else ""
    return f"{wrapped}{text} [Op:{kernel}] name: {name}"


def mixed_dtypes_text(kernel: str, k: int, expected: str, got: str, name: str | None = "") -> str:
    """TF's text for input ``k`` of ``kernel`` having dtype ``got`` where ``expected`` was inferred.

    ``name`` is what TF prints after ``name:`` (None: TF prints no name at all, as for ``where``).

    >>> from minitape.core.messages import mixed_dtypes_text
    >>> mixed_dtypes_text("AddV2", 1, "float32", "float64")
    'cannot compute AddV2 as input #1(zero-based) was expected to be a float tensor but is a double tensor [Op:AddV2] name: '
    """
    text = (f"cannot compute {kernel} as input #{k}(zero-based) was expected to be a "
            f"{_KERNEL_SPELLING.get(expected, expected)} tensor but is a {_KERNEL_SPELLING.get(got, got)} tensor")
    return f"{text} [Op:{kernel}]" if name is None else kernel_text(kernel, text, name)


def conversion_dtype_text(wanted: str, got: str, value: Any) -> str:
    """TF's text for a tensor of dtype ``got`` given where dtype ``wanted`` was asked for (TF never casts one).

    >>> import minitape as tf
    >>> from minitape.core.messages import conversion_dtype_text
    >>> conversion_dtype_text("float32", "int32", tf.constant([1, 2]))
    'Tensor conversion requested dtype float32 for Tensor with dtype int32: <minitape.Tensor: shape=(2,), dtype=int32, numpy=array([1, 2], dtype=int32)>'
    """
    return f"Tensor conversion requested dtype {wanted} for Tensor with dtype {got}: {value!r}"
