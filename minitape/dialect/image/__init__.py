"""``tf.image``: resizing, cropping, flipping and colour operations on NHWC images, one image
``(height, width, channels)`` or a batch ``(n, height, width, channels)``.

* ``resizing``: ``resize`` (bilinear, nearest, bicubic, area) as products with interpolation matrices,
  ``resize_with_pad``, ``ResizeMethod``;
* ``geometry``: crops, pads, flips, ``rot90``, ``transpose``, ``random_crop`` and the random flips;
* ``color``: ``convert_image_dtype``, brightness, contrast (and their random forms), grey levels,
  ``per_image_standardization``, ``total_variation``;
* ``stateless``: the ``stateless_random_*`` ops (deterministic in their seed) and ``sobel_edges``.

Built from minitape's ops, so what TF differentiates, minitape does too:

>>> import minitape as tf
>>> image = tf.ones((4, 4, 3))
>>> with tf.GradientTape() as tape:
...     tape.watch(image)
...     total = tf.reduce_sum(tf.image.resize(image, (2, 2)))
>>> float(tf.reduce_sum(tape.gradient(total, image)))
12.0
"""
from minitape.dialect.image.color import (adjust_brightness, adjust_contrast, convert_image_dtype, grayscale_to_rgb,
                                          per_image_standardization, random_brightness, random_contrast,
                                          rgb_to_grayscale, total_variation)
from minitape.dialect.image.geometry import (central_crop, crop_to_bounding_box, flip_left_right, flip_up_down,
                                             pad_to_bounding_box, random_crop, random_flip_left_right,
                                             random_flip_up_down, resize_with_crop_or_pad, rot90, transpose)
from minitape.dialect.image.resizing import ResizeMethod, resize, resize_with_pad
from minitape.dialect.image.stateless import (sobel_edges, stateless_random_brightness, stateless_random_contrast,
                                              stateless_random_crop, stateless_random_flip_left_right,
                                              stateless_random_flip_up_down)

__all__ = ["ResizeMethod", "adjust_brightness", "adjust_contrast", "central_crop", "convert_image_dtype",
           "crop_to_bounding_box", "flip_left_right", "flip_up_down", "grayscale_to_rgb", "pad_to_bounding_box",
           "per_image_standardization", "random_brightness", "random_contrast", "random_crop", "random_flip_left_right", "random_flip_up_down", "resize",
           "resize_with_crop_or_pad", "resize_with_pad", "rgb_to_grayscale", "rot90", "sobel_edges", "stateless_random_brightness",
           "stateless_random_contrast", "stateless_random_crop", "stateless_random_flip_left_right",
           "stateless_random_flip_up_down", "total_variation", "transpose"]
