"""``tf.config``'s devices: which there are, which are visible, and the settings TensorFlow lets you make.

minitape answers truthfully: one CPU (NumPy), and a GPU for each CUDA device CuPy finds
([`minitape.backends`][minitape.backends]).  Settings TensorFlow would act on (memory growth,
logical devices, thread counts) are accepted where TensorFlow accepts them and kept, so reading
them back answers as TensorFlow does; where TensorFlow refuses, the same error.

>>> import minitape as tf
>>> tf.config.list_physical_devices("CPU")
[PhysicalDevice(name='/physical_device:CPU:0', device_type='CPU')]
>>> tf.config.list_logical_devices("CPU")[0].name
'/device:CPU:0'
"""
from __future__ import annotations

import functools
from typing import Any, NamedTuple

from minitape.core import backends
from minitape.core.errors import DeviceNotFoundError


class PhysicalDevice(NamedTuple):
    """A device of the machine, as TensorFlow names it.

    >>> import minitape as tf
    >>> tf.config.PhysicalDevice(name="/physical_device:CPU:0", device_type="CPU")
    PhysicalDevice(name='/physical_device:CPU:0', device_type='CPU')
    """
    name: str
    device_type: str


class LogicalDevice(NamedTuple):
    """A device ops are placed on (a physical one, or a share of it).

    >>> import minitape as tf
    >>> tf.config.LogicalDevice(name="/device:CPU:0", device_type="CPU").device_type
    'CPU'
    """
    name: str
    device_type: str


class LogicalDeviceConfiguration(NamedTuple):
    """How to split a physical device into logical ones (``memory_limit`` in MB, for GPUs).

    >>> import minitape as tf
    >>> tf.config.LogicalDeviceConfiguration(memory_limit=1024)
    LogicalDeviceConfiguration(memory_limit=1024, experimental_priority=None, experimental_device_ordinal=None)
    """
    memory_limit: int | None = None
    experimental_priority: int | None = None
    experimental_device_ordinal: int | None = None


class _Settings:
    """What has been set, per physical device; ``initialized`` once logical devices were listed, as TF's context."""

    def __init__(self) -> None:
        self.memory_growth: dict[PhysicalDevice, bool] = {}
        self.logical: dict[PhysicalDevice, list[LogicalDeviceConfiguration]] = {}
        self.visible: list[PhysicalDevice] | None = None
        self.initialized = False


_settings = _Settings()


@functools.cache
def _gpu_count() -> int:
    """How many CUDA devices CuPy finds (0 without CuPy or CUDA)."""
    count = 0
    while count < 64:
        try:
            backends.gpu(count)
        except DeviceNotFoundError:
            break
        count += 1
    return count


def _physical() -> list[PhysicalDevice]:
    return [PhysicalDevice("/physical_device:CPU:0", "CPU")] + [
        PhysicalDevice(f"/physical_device:GPU:{i}", "GPU") for i in range(_gpu_count())]


def list_physical_devices(device_type: str | None = None) -> list[PhysicalDevice]:
    """The machine's devices (of ``device_type``, ``"CPU"`` or ``"GPU"``, if given).

    >>> import minitape as tf
    >>> tf.config.list_physical_devices()[0]
    PhysicalDevice(name='/physical_device:CPU:0', device_type='CPU')
    >>> len(tf.config.list_physical_devices("TPU"))
    0
    """
    return [d for d in _physical() if device_type is None or d.device_type == device_type]


def get_visible_devices(device_type: str | None = None) -> list[PhysicalDevice]:
    """The physical devices ops may use: all of them unless ``set_visible_devices`` said otherwise.

    >>> import minitape as tf
    >>> tf.config.get_visible_devices("CPU")
    [PhysicalDevice(name='/physical_device:CPU:0', device_type='CPU')]
    """
    visible = _physical() if _settings.visible is None else _settings.visible
    return [d for d in visible if device_type is None or d.device_type == device_type]


def set_visible_devices(devices: Any, device_type: str | None = None) -> None:
    """Let ops use only ``devices`` (those of ``device_type``, if given, replacing the visible ones of that type).

    minitape computes on the CPU whatever is hidden; hiding GPUs keeps new tensors off them.

    >>> import minitape as tf
    >>> tf.config.set_visible_devices([], "GPU")          # hide every GPU
    >>> tf.config.get_visible_devices("GPU")
    []
    """
    devices = list(devices) if isinstance(devices, list) else [devices]
    for device in devices:
        if device not in _physical() or (device_type is not None and device.device_type != device_type):
            raise ValueError(f"Unrecognized device: {device!r}")
    chosen = [d for d in get_visible_devices() if device_type is not None and d.device_type != device_type] + devices
    if chosen == get_visible_devices():
        return
    if _settings.initialized:
        raise RuntimeError("Visible devices cannot be modified after being initialized")
    _settings.visible = chosen


def list_logical_devices(device_type: str | None = None) -> list[LogicalDevice]:
    """The devices ops are placed on: each visible physical device, or the logical devices it was split into.

    >>> import minitape as tf
    >>> tf.config.list_logical_devices("CPU")
    [LogicalDevice(name='/device:CPU:0', device_type='CPU')]
    """
    _settings.initialized = True
    found = []
    for device in get_visible_devices(device_type):
        start = sum(1 for d in found if d.device_type == device.device_type)
        parts = len(_settings.logical.get(device) or [None])
        found += [LogicalDevice(f"/device:{device.device_type}:{start + i}", device.device_type) for i in range(parts)]
    return found


def _known(device: Any) -> PhysicalDevice:
    if device not in _physical():
        raise ValueError(f"Unrecognized device: {device!r}")
    return device


def set_logical_device_configuration(device: PhysicalDevice,
                                     logical_devices: list[LogicalDeviceConfiguration] | None) -> None:
    """Split ``device`` into logical devices (before any are listed, as in TensorFlow).

    >>> import minitape as tf
    >>> cpu = tf.config.list_physical_devices("CPU")[0]
    >>> tf.config.get_logical_device_configuration(cpu) is None
    True
    """
    _known(device)
    if _settings.initialized and _settings.logical.get(_known(device)) != logical_devices:
        raise RuntimeError("Virtual devices cannot be modified after being initialized")
    _settings.logical[device] = list(logical_devices) if logical_devices is not None else None


def get_logical_device_configuration(device: PhysicalDevice) -> list[LogicalDeviceConfiguration] | None:
    """The logical devices ``device`` was split into, or None.

    >>> import minitape as tf
    >>> tf.config.get_logical_device_configuration(tf.config.list_physical_devices()[0]) is None
    True
    """
    return _settings.logical.get(_known(device))


def set_memory_growth(device: PhysicalDevice, enable: bool) -> None:
    """Let a GPU's memory grow as needed (CuPy's pool does); refused for a CPU, as TensorFlow refuses.

    >>> import minitape as tf
    >>> tf.config.experimental.set_memory_growth(tf.config.list_physical_devices("CPU")[0], True)
    Traceback (most recent call last):
    ValueError: Cannot set memory growth on non-GPU and non-Pluggable devices
    """
    if _known(device).device_type != "GPU":
        raise ValueError("Cannot set memory growth on non-GPU and non-Pluggable devices")
    _settings.memory_growth[device] = bool(enable)


def get_memory_growth(device: PhysicalDevice) -> bool:
    """Whether memory growth was set for ``device`` (a KeyError if never, as TensorFlow).

    >>> import minitape as tf
    >>> for gpu in tf.config.list_physical_devices("GPU"):
    ...     tf.config.experimental.set_memory_growth(gpu, True)
    """
    return _settings.memory_growth[device]


def get_device_details(device: PhysicalDevice) -> dict[str, Any]:
    """What is known of a device: ``{}`` for the CPU, as TensorFlow answers; a GPU's name from CUDA.

    >>> import minitape as tf
    >>> tf.config.experimental.get_device_details(tf.config.list_physical_devices("CPU")[0])
    {}
    """
    if _known(device).device_type == "CPU":
        return {}
    import cupy
    index = int(device.name.rsplit(":", 1)[1])
    properties = cupy.cuda.runtime.getDeviceProperties(index)
    name = properties["name"]
    return {"device_name": name.decode() if isinstance(name, bytes) else name,
            "compute_capability": (properties["major"], properties["minor"])}
