"""``keras.utils``' images: files read and written through Pillow, and arrays of pixels as Keras 3 lays them out.

``load_img`` gives a Pillow image; ``img_to_array`` its pixels as a float32 array of shape
``(height, width, channels)``; ``array_to_img`` and ``save_img`` go back, scaling the values to
0-255 first unless ``scale=False``.  Files are local (a path or an ``io.BytesIO``): nothing is
downloaded.

>>> import io
>>> import minitape as tf
>>> pixels = np.zeros((2, 3, 3), dtype="float32"); pixels[0, 0] = 1.0
>>> file = io.BytesIO()
>>> tf.keras.utils.save_img(file, pixels, file_format="png")
>>> image = tf.keras.utils.load_img(io.BytesIO(file.getvalue()))
>>> image.size, tf.keras.utils.img_to_array(image)[0, 0]
((3, 2), array([255., 255., 255.], dtype=float32))
"""
from __future__ import annotations

import io
import pathlib
from typing import Any

import numpy as np

_MODES = {"grayscale": ("L", ("L", "I;16", "I")), "rgb": ("RGB", ("RGB",)), "rgba": ("RGBA", ("RGBA",))}


def _pillow() -> Any:
    try:
        from PIL import Image
    except ImportError:
        raise ImportError("Could not import PIL.Image. The use of `load_img` requires PIL (pip install pillow).") \
            from None
    return Image


def _resample(interpolation: str) -> Any:
    methods = {name: getattr(_pillow().Resampling, name.upper())
               for name in ("nearest", "bilinear", "bicubic", "hamming", "box", "lanczos")}
    if interpolation not in methods:
        raise ValueError(f"Invalid interpolation method {interpolation} specified. Supported methods are "
                         f"{', '.join(methods)}")
    return methods[interpolation]


def load_img(path: Any, color_mode: str = "rgb", target_size: tuple[int, int] | None = None,
             interpolation: str = "nearest", keep_aspect_ratio: bool = False) -> Any:
    """The image at ``path`` (a file path or ``io.BytesIO``) as a Pillow image, in ``color_mode``, resized to
    ``target_size`` (height, width) if given (cropped to its aspect ratio first if ``keep_aspect_ratio``).

    >>> import io
    >>> import minitape as tf
    >>> file = io.BytesIO(); tf.keras.utils.save_img(file, np.ones((4, 6, 3)), file_format="png")
    >>> tf.keras.utils.load_img(file, color_mode="grayscale", target_size=(2, 3)).size
    (3, 2)
    """
    image_module = _pillow()
    if isinstance(path, io.BytesIO):
        image = image_module.open(path)
    elif isinstance(path, (pathlib.Path, bytes, str)):
        with open(str(pathlib.Path(path).resolve()) if isinstance(path, pathlib.Path) else path, "rb") as file:
            image = image_module.open(io.BytesIO(file.read()))
    else:
        raise TypeError(f"path should be path-like or io.BytesIO, not {type(path)}")
    if color_mode not in _MODES:
        raise ValueError('color_mode must be "grayscale", "rgb", or "rgba"')
    target_mode, kept_modes = _MODES[color_mode]
    if image.mode not in kept_modes:
        image = image.convert(target_mode)
    if target_size is not None and image.size != (target_size[1], target_size[0]):
        image = _resized(image, (target_size[1], target_size[0]), _resample(interpolation), keep_aspect_ratio)
    return image


def _resized(image: Any, size: tuple[int, int], resample: Any, keep_aspect_ratio: bool) -> Any:
    if not keep_aspect_ratio:
        return image.resize(size, resample)
    width, height = image.size
    crop_height = min(height, (width * size[1]) // size[0])
    crop_width = min(width, (height * size[0]) // size[1])
    left, top = (width - crop_width) // 2, (height - crop_height) // 2
    return image.resize(size, resample, box=(left, top, left + crop_width, top + crop_height))


def img_to_array(img: Any, data_format: str | None = None, dtype: str | None = None) -> np.ndarray:
    """A Pillow image's pixels as an array ``(height, width, channels)`` (channels first if ``data_format``
    says so), float32 unless ``dtype`` says otherwise.

    >>> import minitape as tf
    >>> image = tf.keras.utils.array_to_img(np.zeros((2, 3, 1)), scale=False)
    >>> tf.keras.utils.img_to_array(image).shape
    (2, 3, 1)
    """
    x = np.asarray(img, dtype=dtype or "float32")
    if x.ndim == 2:
        x = x[:, :, None]
    elif x.ndim != 3:
        raise ValueError(f"Unsupported image shape: {x.shape}")
    return np.transpose(x, (2, 0, 1)) if data_format == "channels_first" else x


def array_to_img(x: Any, data_format: str | None = None, scale: bool = True, dtype: str | None = None) -> Any:
    """An array ``(height, width, channels)`` of 1, 3 or 4 channels as a Pillow image; with ``scale``, its
    values are stretched to 0-255 first.

    >>> import minitape as tf
    >>> image = tf.keras.utils.array_to_img(np.array([[[0.0], [0.5]]]))
    >>> image.mode, np.asarray(image).tolist()
    ('L', [[0, 255]])
    """
    image_module = _pillow()
    x = np.asarray(x, dtype=dtype or "float32")
    if x.ndim != 3:
        raise ValueError(f"Expected image array to have rank 3 (single image). Got array with shape: {x.shape}")
    if data_format == "channels_first":
        x = np.transpose(x, (1, 2, 0))
    if scale:
        x = x - np.min(x)
        top = np.max(x)
        if top != 0:
            x = x / top
        x = x * 255
    channels = x.shape[2]
    if channels in (3, 4):
        return image_module.fromarray(x.astype("uint8"), "RGB" if channels == 3 else "RGBA")
    if channels == 1:
        if np.max(x) > 255:
            return image_module.fromarray(x[:, :, 0].astype("int32"), "I")
        return image_module.fromarray(x[:, :, 0].astype("uint8"), "L")
    raise ValueError(f"Unsupported channel number: {channels}")


def save_img(path: Any, x: Any, data_format: str | None = None, file_format: str | None = None, scale: bool = True,
             **kwargs: Any) -> None:
    """Write the array ``x`` as an image file (its format from ``file_format`` or the path's extension).

    >>> import io
    >>> import minitape as tf
    >>> file = io.BytesIO()
    >>> tf.keras.utils.save_img(file, np.zeros((2, 2, 3)), file_format="png")
    >>> file.getvalue()[:4]
    b'\\x89PNG'
    """
    if data_format is None:
        data_format = "channels_last"
    image = array_to_img(x, data_format=data_format, scale=scale)
    if image.mode == "RGBA" and (file_format == "jpg" or file_format == "jpeg"):
        image = image.convert("RGB")
    image.save(path, format="jpeg" if file_format == "jpg" else file_format, **kwargs)
