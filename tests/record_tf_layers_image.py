"""Record TensorFlow 2.21's Keras (3) layers and ``tf.image`` for tests/test_layers_image_tf.py (run by hand,
never by CI).

    /tmp/tfvenv/bin/python tests/record_tf_layers_image.py      # writes tests/data/tf_layers_image.json

Each case is a function of the Keras module and of a tensor module (``tensorflow`` / ``minitape``)
returning a tensor; its outcome is the value, shape and dtype, or the error's type and text:

* ``LAYERS``: merging, reshaping and preprocessing layers (also their weights' count);
* ``IMAGE``: ``tf.image`` ops, on one image and on batches, integer and float;
* ``GRADIENTS``: the gradient of ``sum(weights * op(image))`` for the differentiable image ops.
"""
from __future__ import annotations

import json
import pathlib
from collections.abc import Callable
from typing import Any

import numpy as np

OUT = pathlib.Path(__file__).parent / "data" / "tf_layers_image.json"

A = np.arange(24, dtype="float32").reshape(2, 3, 4) / 10            # a batch of two (3, 4) examples
B = np.linspace(-1, 1, 24, dtype="float32").reshape(2, 3, 4)
V = np.array([[1.0, 2.0, 3.0], [-1.0, 0.5, 2.0]], "float32")
W = np.array([[0.5, -1.0, 2.0], [3.0, 1.0, -2.0]], "float32")
IMAGE = (np.arange(2 * 5 * 6 * 3, dtype="float32").reshape(2, 5, 6, 3) % 17) / 16   # a batch of 5x6 RGB images
PIXELS = (np.arange(5 * 6 * 3).reshape(5, 6, 3) * 7 % 256).astype("uint8")          # one uint8 image
GRAY = IMAGE[..., :1]
VOLUME = np.sin(np.arange(2 * 5 * 4 * 6 * 2)).reshape(2, 5, 4, 6, 2).astype("float32")          # 5 frames of 4x6

Case = Callable[[Any, Any], Any]
LAYERS: dict[str, Case] = {
    "Concatenate": lambda k, tf: k.layers.Concatenate()([A, B]),
    "Concatenate_axis1": lambda k, tf: k.layers.Concatenate(axis=1)([A, B[:, :2]]),
    "concatenate": lambda k, tf: k.layers.concatenate([V, W], axis=0),
    "Concatenate_mismatch": lambda k, tf: k.layers.Concatenate()([A, B[:, :2]]),
    "Concatenate_ranks": lambda k, tf: k.layers.Concatenate()([V, A]),
    "Concatenate_one_tensor": lambda k, tf: k.layers.Concatenate()(V),
    "Add": lambda k, tf: k.layers.Add()([A, B]),
    "add": lambda k, tf: k.layers.add([V, W, V]),
    "Add_broadcast": lambda k, tf: k.layers.Add()([A, B[:, :1]]),
    "Add_mismatch": lambda k, tf: k.layers.Add()([A, B[:, :, :3]]),
    "Add_ranks": lambda k, tf: k.layers.Add()([A, V[:, :1]]),
    "Multiply": lambda k, tf: k.layers.Multiply()([A, B]),
    "multiply": lambda k, tf: k.layers.multiply([V, W]),
    "Average": lambda k, tf: k.layers.Average()([A, B, A]),
    "average": lambda k, tf: k.layers.average([V, W]),
    "Maximum": lambda k, tf: k.layers.Maximum()([V, W]),
    "maximum": lambda k, tf: k.layers.maximum([A, B]),
    "Minimum": lambda k, tf: k.layers.Minimum()([V, W]),
    "minimum": lambda k, tf: k.layers.minimum([A, B]),
    "Subtract": lambda k, tf: k.layers.Subtract()([V, W]),
    "subtract": lambda k, tf: k.layers.subtract([A, B]),
    "Subtract_three": lambda k, tf: k.layers.Subtract()([V, W, V]),
    "Dot": lambda k, tf: k.layers.Dot(axes=1)([V, W]),
    "Dot_normalize": lambda k, tf: k.layers.Dot(axes=1, normalize=True)([V, W]),
    "Dot_axes": lambda k, tf: k.layers.Dot(axes=(1, 1))([A, B]),
    "Dot_axes_2_2": lambda k, tf: k.layers.Dot(axes=2)([A, B]),
    "dot": lambda k, tf: k.layers.dot([A, B], axes=(2, 2)),
    "Dot_mismatch": lambda k, tf: k.layers.Dot(axes=1)([V, A]),
    "Reshape": lambda k, tf: k.layers.Reshape((4, 3))(A),
    "Reshape_minus_one": lambda k, tf: k.layers.Reshape((-1, 2))(A),
    "Reshape_bad_size": lambda k, tf: k.layers.Reshape((5,))(A),
    "Permute": lambda k, tf: k.layers.Permute((2, 1))(A),
    "Permute_bad": lambda k, tf: k.layers.Permute((0, 1)),
    "RepeatVector": lambda k, tf: k.layers.RepeatVector(3)(V),
    "RepeatVector_zero": lambda k, tf: k.layers.RepeatVector(0),
    "RepeatVector_float": lambda k, tf: k.layers.RepeatVector(2.0),
    "Rescaling": lambda k, tf: k.layers.Rescaling(1 / 255)(PIXELS),
    "Rescaling_offset": lambda k, tf: k.layers.Rescaling(1 / 127.5, offset=-1)(IMAGE),
    "Normalization_given": lambda k, tf: k.layers.Normalization(mean=[1.0, 2.0, 3.0], variance=[1.0, 4.0, 0.25])(V),
    "Normalization_scalar": lambda k, tf: k.layers.Normalization(mean=2.0, variance=4.0)(A),
    "Normalization_invert": lambda k, tf: k.layers.Normalization(mean=2.0, variance=4.0, invert=True)(V),
    "Normalization_adapt": lambda k, tf: adapted(k, A, A + 1),
    "Normalization_adapt_axis": lambda k, tf: adapted(k, A, B, axis=(1, 2)),
    "Normalization_adapt_none": lambda k, tf: adapted(k, A, B, axis=None),
    "Normalization_adapt_batches": lambda k, tf: adapted(k, [A, B * 3, A[:1]], B),
    "Normalization_adapt_weights": lambda k, tf: np.array([str(tuple(w.shape)) for w in weights_of(k, A)]),
    "Normalization_weight_names": lambda k, tf: np.array([w.name for w in weights_of(k, A)]),
    "Normalization_weight_dtypes": lambda k, tf: np.array([getattr(w.dtype, "name", w.dtype)
                                                           for w in weights_of(k, A)]),
    "Normalization_half": lambda k, tf: k.layers.Normalization(mean=1.0),
    "Normalization_bad_axis": lambda k, tf: k.layers.Normalization(axis=3)(V),
    "CategoryEncoding_one_hot": lambda k, tf: k.layers.CategoryEncoding(4, output_mode="one_hot")(np.array([3, 2, 0, 1])),
    "CategoryEncoding_one_hot_column": lambda k, tf: k.layers.CategoryEncoding(4, output_mode="one_hot")(
        np.array([[3], [1]])),
    "CategoryEncoding_multi_hot": lambda k, tf: k.layers.CategoryEncoding(4)(np.array([[0, 1], [0, 0], [1, 2], [3, 1]])),
    "CategoryEncoding_multi_hot_vector": lambda k, tf: k.layers.CategoryEncoding(4)(np.array([0, 1, 1])),
    "CategoryEncoding_count": lambda k, tf: k.layers.CategoryEncoding(4, output_mode="count")(
        np.array([[0, 1], [0, 0], [1, 2], [3, 1]])),
    "CategoryEncoding_count_weights": lambda k, tf: k.layers.CategoryEncoding(4, output_mode="count")(
        np.array([[0, 1], [0, 0]]), count_weights=np.array([[0.1, 0.2], [0.1, 0.4]])),
    "CategoryEncoding_out_of_range": lambda k, tf: k.layers.CategoryEncoding(3)(np.array([[0, 3]])),
    "CategoryEncoding_one_hot_out_of_range": lambda k, tf: k.layers.CategoryEncoding(3, output_mode="one_hot")(
        np.array([0, 5])),
    "CategoryEncoding_negative": lambda k, tf: k.layers.CategoryEncoding(3, output_mode="count")(np.array([[0, -1]])),
    "Rescaling_float64": lambda k, tf: k.layers.Rescaling(0.5)(IMAGE.astype("float64")),
    "CategoryEncoding_no_tokens": lambda k, tf: k.layers.CategoryEncoding(),
    "CategoryEncoding_bad_mode": lambda k, tf: k.layers.CategoryEncoding(3, output_mode="int"),
    "Discretization": lambda k, tf: k.layers.Discretization(bin_boundaries=[0.0, 1.0, 2.0])(
        np.array([[-1.5, 1.0, 3.4, 0.5], [0.0, 3.0, 1.3, 0.0]])),
    "Resizing": lambda k, tf: k.layers.Resizing(3, 8)(IMAGE),
    "Resizing_nearest": lambda k, tf: k.layers.Resizing(3, 8, interpolation="nearest")(PIXELS),
    "Resizing_crop": lambda k, tf: k.layers.Resizing(4, 4, crop_to_aspect_ratio=True)(IMAGE),
    "Resizing_crop_wide": lambda k, tf: k.layers.Resizing(2, 5, crop_to_aspect_ratio=True)(IMAGE),
    "CenterCrop": lambda k, tf: k.layers.CenterCrop(3, 2)(IMAGE),
    "CenterCrop_single": lambda k, tf: k.layers.CenterCrop(4, 5)(PIXELS),
    "CenterCrop_larger": lambda k, tf: k.layers.CenterCrop(7, 4)(IMAGE),
    "RandomFlip_inference": lambda k, tf: k.layers.RandomFlip()(IMAGE, training=False),
    "RandomFlip_default_flips": lambda k, tf: np.array([not np.allclose(k.layers.RandomFlip(seed=s)(IMAGE), IMAGE)
                                                        for s in range(4)]).any(),
    "RandomBrightness_default_changes": lambda k, tf: np.array(not np.allclose(k.layers.RandomBrightness(0.5)(IMAGE),
                                                                               IMAGE)),
    "Resizing_uint8": lambda k, tf: k.layers.Resizing(3, 8)(PIXELS),
    "RandomFlip_training_shape": lambda k, tf: tf.shape(k.layers.RandomFlip()(IMAGE, training=True)),
    "RandomRotation_inference": lambda k, tf: k.layers.RandomRotation(0.2)(IMAGE, training=False),
    "RandomRotation_training_shape": lambda k, tf: tf.shape(k.layers.RandomRotation(0.2)(IMAGE, training=True)),
    "RandomRotation_zero": lambda k, tf: k.layers.RandomRotation(0.0)(IMAGE, training=True),
    "RandomRotation_bad_factor": lambda k, tf: k.layers.RandomRotation(1.5),
    "RandomRotation_bad_fill": lambda k, tf: k.layers.RandomRotation(0.1, fill_mode="mirror"),
    "RandomZoom_inference": lambda k, tf: k.layers.RandomZoom(0.2)(IMAGE, training=False),
    "RandomZoom_zero": lambda k, tf: k.layers.RandomZoom(0.0)(IMAGE, training=True),
    "RandomZoom_training_shape": lambda k, tf: tf.shape(k.layers.RandomZoom((-0.3, 0.2))(IMAGE, training=True)),
    "RandomTranslation_inference": lambda k, tf: k.layers.RandomTranslation(0.1, 0.1)(IMAGE, training=False),
    "RandomTranslation_zero": lambda k, tf: k.layers.RandomTranslation(0.0, 0.0)(IMAGE, training=True),
    "RandomContrast_inference": lambda k, tf: k.layers.RandomContrast(0.3)(IMAGE, training=False),
    "RandomContrast_bad_factor": lambda k, tf: k.layers.RandomContrast(1.5),
    "RandomBrightness_inference": lambda k, tf: k.layers.RandomBrightness(0.3)(IMAGE, training=False),
    "RandomCrop_inference": lambda k, tf: k.layers.RandomCrop(3, 4)(IMAGE, training=False),
    "RandomCrop_training_shape": lambda k, tf: tf.shape(k.layers.RandomCrop(3, 4)(IMAGE, training=True)),
    "GaussianNoise_inference": lambda k, tf: k.layers.GaussianNoise(0.3)(A),
    "GaussianNoise_bad": lambda k, tf: k.layers.GaussianNoise(1.5),
    "GaussianDropout_inference": lambda k, tf: k.layers.GaussianDropout(0.3)(A),
    "GaussianDropout_bad": lambda k, tf: k.layers.GaussianDropout(-0.1),
    "GaussianDropout_training_shape": lambda k, tf: tf.shape(k.layers.GaussianDropout(0.3)(A, training=True)),
    "AlphaDropout_inference": lambda k, tf: k.layers.AlphaDropout(0.3)(A),
    "AlphaDropout_bad": lambda k, tf: k.layers.AlphaDropout(1.5),
    "AlphaDropout_all_kept": lambda k, tf: k.layers.AlphaDropout(0.0)(A, training=True),
    "SpatialDropout1D_inference": lambda k, tf: k.layers.SpatialDropout1D(0.5)(A),
    "SpatialDropout2D_rank": lambda k, tf: k.layers.SpatialDropout2D(0.5)(A, training=True),
    "ActivityRegularization": lambda k, tf: activity_losses(k, V),
    "Identity": lambda k, tf: k.layers.Identity()(V),
    "Cropping1D": lambda k, tf: k.layers.Cropping1D((1, 0))(A),
    "Cropping1D_int": lambda k, tf: k.layers.Cropping1D(1)(A),
    "Cropping2D": lambda k, tf: k.layers.Cropping2D(((1, 2), (0, 3)))(IMAGE),
    "Cropping2D_int": lambda k, tf: k.layers.Cropping2D(1)(IMAGE),
    "ZeroPadding1D": lambda k, tf: k.layers.ZeroPadding1D((2, 1))(A),
    "UpSampling1D": lambda k, tf: k.layers.UpSampling1D(3)(A),
    "DepthwiseConv2D": lambda k, tf: with_weights(k.layers.DepthwiseConv2D(3, depth_multiplier=2, padding="same"),
                                                  IMAGE),
    "DepthwiseConv2D_strided": lambda k, tf: with_weights(k.layers.DepthwiseConv2D((2, 3), strides=2), IMAGE),
    "DepthwiseConv2D_weights": lambda k, tf: weight_shapes(k.layers.DepthwiseConv2D(3, depth_multiplier=2), IMAGE),
    "SeparableConv2D": lambda k, tf: with_weights(k.layers.SeparableConv2D(4, 3, depth_multiplier=2,
                                                                           activation="relu"), IMAGE),
    "SeparableConv2D_same": lambda k, tf: with_weights(k.layers.SeparableConv2D(2, 2, padding="same",
                                                                                dilation_rate=2), IMAGE),
    "SeparableConv2D_weights": lambda k, tf: weight_shapes(k.layers.SeparableConv2D(4, 3, depth_multiplier=2), IMAGE),
    "Conv3D": lambda k, tf: with_weights(k.layers.Conv3D(2, 3), VOLUME),
    "Conv3D_same_strided": lambda k, tf: with_weights(k.layers.Conv3D(2, (2, 3, 2), strides=(2, 1, 2), padding="same"),
                                                      VOLUME),
    "Conv3D_dilated": lambda k, tf: with_weights(k.layers.Conv3D(1, 2, dilation_rate=(2, 1, 2), padding="same"),
                                                 VOLUME),
    "Conv3D_weights": lambda k, tf: weight_shapes(k.layers.Conv3D(2, 3), VOLUME),
    "GlobalAveragePooling3D": lambda k, tf: k.layers.GlobalAveragePooling3D()(VOLUME),
    "GlobalMaxPooling3D": lambda k, tf: k.layers.GlobalMaxPooling3D(keepdims=True)(VOLUME),
    "SeparableConv2D_bad_filters": lambda k, tf: k.layers.SeparableConv2D(0, 3),
    "SeparableConv2D_rank": lambda k, tf: k.layers.SeparableConv2D(2, 3)(A),
}


def with_weights(layer: Any, x: Any) -> Any:
    """``layer(x)`` with its weights set to fixed values (cosines), so the outputs can be compared."""
    layer.build(x.shape)
    layer.set_weights([np.cos(np.arange(np.prod(w.shape))).reshape(w.shape).astype("float32")
                       for w in layer.get_weights()])
    return layer(x)


def weight_shapes(layer: Any, x: Any) -> Any:
    layer(x)
    return np.array([f"{w.name}{tuple(w.shape)}" for w in layer.weights])


def activity_losses(keras: Any, x: Any) -> Any:
    layer = keras.layers.ActivityRegularization(l1=0.1, l2=0.5)
    layer(x)
    return np.array([float(loss) for loss in layer.losses])


def adapted(keras: Any, data: Any, x: Any, axis: Any = -1) -> Any:
    """A Normalization adapted on ``data``, applied to ``x``."""
    layer = keras.layers.Normalization(axis=axis)
    layer.adapt(data)
    return layer(x)


def weights_of(keras: Any, data: Any) -> list:
    layer = keras.layers.Normalization()
    layer.adapt(data)
    return layer.weights

IMAGE_OPS: dict[str, Case] = {
    "resize_bilinear_up": lambda k, tf: tf.image.resize(IMAGE, (7, 9)),
    "resize_bilinear_down": lambda k, tf: tf.image.resize(IMAGE, (3, 4)),
    "resize_single": lambda k, tf: tf.image.resize(IMAGE[0], [8, 4]),
    "resize_nearest_up": lambda k, tf: tf.image.resize(IMAGE, (7, 9), method="nearest"),
    "resize_nearest_down": lambda k, tf: tf.image.resize(IMAGE, (3, 4), method=tf.image.ResizeMethod.NEAREST_NEIGHBOR),
    "resize_nearest_uint8": lambda k, tf: tf.image.resize(PIXELS, (4, 9), method="nearest"),
    "resize_bilinear_uint8": lambda k, tf: tf.image.resize(PIXELS, (4, 9)),
    "resize_bilinear_float64": lambda k, tf: tf.image.resize(IMAGE.astype("float64"), (4, 9)),
    "resize_bicubic_up": lambda k, tf: tf.image.resize(IMAGE, (7, 9), method="bicubic"),
    "resize_bicubic_down": lambda k, tf: tf.image.resize(IMAGE, (3, 4), method=tf.image.ResizeMethod.BICUBIC),
    "resize_area_down": lambda k, tf: tf.image.resize(IMAGE, (3, 4), method="area"),
    "resize_area_up": lambda k, tf: tf.image.resize(IMAGE, (7, 9), method="area"),
    "resize_preserve": lambda k, tf: tf.image.resize(IMAGE, (10, 10), preserve_aspect_ratio=True),
    "resize_preserve_down": lambda k, tf: tf.image.resize(IMAGE, (3, 9), preserve_aspect_ratio=True),
    "resize_rank2": lambda k, tf: tf.image.resize(IMAGE[0, :, :, 0], (3, 3)),
    "resize_bad_size": lambda k, tf: tf.image.resize(IMAGE, (3, 3, 3)),
    "resize_with_pad": lambda k, tf: tf.image.resize_with_pad(IMAGE, 8, 8),
    "resize_with_pad_wide": lambda k, tf: tf.image.resize_with_pad(IMAGE[0], 4, 12),
    "resize_with_crop_or_pad": lambda k, tf: tf.image.resize_with_crop_or_pad(IMAGE, 3, 9),
    "resize_with_crop_or_pad_odd": lambda k, tf: tf.image.resize_with_crop_or_pad(PIXELS, 8, 3),
    "central_crop": lambda k, tf: tf.image.central_crop(IMAGE, 0.5),
    "central_crop_single": lambda k, tf: tf.image.central_crop(PIXELS, 0.7),
    "central_crop_bad": lambda k, tf: tf.image.central_crop(IMAGE, 1.5),
    "crop_to_bounding_box": lambda k, tf: tf.image.crop_to_bounding_box(IMAGE, 1, 2, 3, 3),
    "crop_to_bounding_box_too_big": lambda k, tf: tf.image.crop_to_bounding_box(IMAGE, 1, 2, 3, 5),
    "crop_to_bounding_box_negative": lambda k, tf: tf.image.crop_to_bounding_box(IMAGE, -1, 2, 3, 3),
    "pad_to_bounding_box": lambda k, tf: tf.image.pad_to_bounding_box(PIXELS, 1, 2, 7, 9),
    "pad_to_bounding_box_too_small": lambda k, tf: tf.image.pad_to_bounding_box(IMAGE, 1, 2, 5, 9),
    "flip_left_right": lambda k, tf: tf.image.flip_left_right(IMAGE),
    "flip_up_down": lambda k, tf: tf.image.flip_up_down(PIXELS),
    "rot90": lambda k, tf: tf.image.rot90(IMAGE),
    "rot90_k3": lambda k, tf: tf.image.rot90(PIXELS, k=3),
    "rot90_k2": lambda k, tf: tf.image.rot90(IMAGE, 2),
    "transpose": lambda k, tf: tf.image.transpose(IMAGE),
    "convert_uint8_to_float": lambda k, tf: tf.image.convert_image_dtype(PIXELS, tf.float32),
    "convert_float_to_uint8": lambda k, tf: tf.image.convert_image_dtype(IMAGE, tf.uint8),
    "convert_float_to_uint8_saturate": lambda k, tf: tf.image.convert_image_dtype(IMAGE * 2 - 0.5, tf.uint8,
                                                                                 saturate=True),
    "convert_uint8_to_int32": lambda k, tf: tf.image.convert_image_dtype(PIXELS, tf.int32),
    "convert_int32_to_uint8": lambda k, tf: tf.image.convert_image_dtype(PIXELS.astype("int32") * 2**23, tf.uint8),
    "convert_float_to_float64": lambda k, tf: tf.image.convert_image_dtype(IMAGE, tf.float64),
    "adjust_brightness": lambda k, tf: tf.image.adjust_brightness(IMAGE, 0.25),
    "adjust_brightness_uint8": lambda k, tf: tf.image.adjust_brightness(PIXELS, 0.25),
    "adjust_contrast": lambda k, tf: tf.image.adjust_contrast(IMAGE, 1.7),
    "adjust_contrast_uint8": lambda k, tf: tf.image.adjust_contrast(PIXELS, 1.7),
    "rgb_to_grayscale": lambda k, tf: tf.image.rgb_to_grayscale(IMAGE),
    "rgb_to_grayscale_uint8": lambda k, tf: tf.image.rgb_to_grayscale(PIXELS),
    "grayscale_to_rgb": lambda k, tf: tf.image.grayscale_to_rgb(tf.constant(GRAY)),
    "grayscale_to_rgb_bad": lambda k, tf: tf.image.grayscale_to_rgb(tf.constant(IMAGE)),
    "per_image_standardization": lambda k, tf: tf.image.per_image_standardization(IMAGE),
    "per_image_standardization_uint8": lambda k, tf: tf.image.per_image_standardization(PIXELS),
    "per_image_standardization_flat": lambda k, tf: tf.image.per_image_standardization(np.ones((2, 2, 1), "float32")),
    "total_variation": lambda k, tf: tf.image.total_variation(tf.constant(IMAGE)),
    "total_variation_single": lambda k, tf: tf.image.total_variation(tf.constant(PIXELS, tf.float32)),
    "random_brightness_shape": lambda k, tf: tf.shape(tf.image.random_brightness(IMAGE, 0.2)),
    "random_brightness_bad": lambda k, tf: tf.image.random_brightness(IMAGE, -0.2),
    "random_contrast_bad": lambda k, tf: tf.image.random_contrast(IMAGE, 1.5, 0.5),
    "sobel_edges": lambda k, tf: tf.image.sobel_edges(tf.constant(IMAGE)),
    "stateless_random_crop_shape": lambda k, tf: tf.shape(tf.image.stateless_random_crop(IMAGE, (2, 3, 3, 3),
                                                                                         seed=(1, 2))),
    "stateless_random_brightness_shape": lambda k, tf: tf.shape(tf.image.stateless_random_brightness(IMAGE, 0.2,
                                                                                                     seed=(1, 2))),
    "stateless_random_contrast_bad": lambda k, tf: tf.image.stateless_random_contrast(IMAGE, 1.5, 0.5, seed=(1, 2)),
    "random_crop_shape": lambda k, tf: tf.shape(tf.image.random_crop(IMAGE, (2, 3, 3, 3))),
    "random_flip_left_right_shape": lambda k, tf: tf.shape(tf.image.random_flip_left_right(IMAGE)),
    "ResizeMethod": lambda k, tf: np.array([str(m.value) if hasattr(m, "value") else str(m) for m in (
        tf.image.ResizeMethod.BILINEAR, tf.image.ResizeMethod.NEAREST_NEIGHBOR, tf.image.ResizeMethod.BICUBIC,
        tf.image.ResizeMethod.AREA)]),
}

# Image ops whose gradient TF defines, each as a function of one float image batch.
GRADIENTS: dict[str, Callable[[Any], Callable[[Any], Any]]] = {
    "resize_bilinear_up": lambda tf: lambda x: tf.image.resize(x, (7, 9)),
    "resize_bilinear_down": lambda tf: lambda x: tf.image.resize(x, (3, 4)),
    "resize_nearest": lambda tf: lambda x: tf.image.resize(x, (7, 4), method="nearest"),
    "resize_bicubic": lambda tf: lambda x: tf.image.resize(x, (7, 4), method="bicubic"),
    "resize_with_pad": lambda tf: lambda x: tf.image.resize_with_pad(x, 8, 8),
    "central_crop": lambda tf: lambda x: tf.image.central_crop(x, 0.5),
    "rot90": lambda tf: lambda x: tf.image.rot90(x, 3),
    "per_image_standardization": lambda tf: tf.image.per_image_standardization,
    "rgb_to_grayscale": lambda tf: tf.image.rgb_to_grayscale,
    "total_variation": lambda tf: tf.image.total_variation,
    "sobel_edges": lambda tf: tf.image.sobel_edges,
}


def outcome(compute: Callable[[], Any]) -> dict[str, Any]:
    """The value, shape and dtype ``compute`` gives, or the type and text of what it raises."""
    try:
        result = compute()
    except Exception as error:        # noqa: BLE001 -- the recorded outcome is the exception
        return {"error": type(error).__name__, "message": str(error)}
    if not hasattr(result, "shape") and not isinstance(result, list):
        return {"made": type(result).__name__}               # a constructor that accepted its arguments
    dtype = getattr(result, "dtype", None)
    value = np.asarray(result)
    if value.dtype.kind in "fiub":
        return {"value": value.astype(np.float64).tolist(), "shape": list(value.shape),
                "dtype": getattr(dtype, "name", str(value.dtype))}
    return {"value": value.tolist(), "shape": list(value.shape)}


def gradient(tf: Any, make: Callable[[Any], Callable[[Any], Any]]) -> dict[str, Any]:
    """d sum(weights * op(IMAGE)) / d IMAGE, with fixed weights of the output's shape."""
    def compute() -> Any:
        x = tf.constant(IMAGE)
        with tf.GradientTape() as tape:
            tape.watch(x)
            y = make(tf)(x)
            weights = np.cos(np.arange(np.prod(y.shape))).reshape(y.shape).astype("float32")
            total = tf.reduce_sum(y * weights)
        return tape.gradient(total, x)
    return outcome(compute)


def record(keras: Any, tf: Any) -> dict[str, Any]:
    return {"layers": {name: outcome(lambda: case(keras, tf)) for name, case in LAYERS.items()},
            "image": {name: outcome(lambda: case(keras, tf)) for name, case in IMAGE_OPS.items()},
            "gradients": {name: gradient(tf, make) for name, make in GRADIENTS.items()}}


if __name__ == "__main__":
    import os
    os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")
    import keras
    import tensorflow
    keras.utils.set_random_seed(0)
    OUT.write_text(json.dumps(record(keras, tensorflow), indent=1) + "\n")
