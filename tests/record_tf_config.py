"""Record TensorFlow 2.21's ``tf.config`` device answers for tests/test_config_devices.py (run by hand, never by CI).

    /tmp/tfvenv/bin/python tests/record_tf_config.py      # writes tests/data/tf_config.json

One scenario, in a fresh process (TensorFlow's context starts uninitialised), as a notebook would
run it: list the devices, set what may be set before initialisation, list the logical devices
(which initialises TF's context), then try to change settings.  Each step's answer is its repr,
or the exception's type and text.  Recorded on a machine without GPUs; the test runs where
minitape finds none.
"""
from __future__ import annotations

import json
import pathlib
from collections.abc import Callable
from typing import Any

OUT = pathlib.Path(__file__).parent / "data" / "tf_config.json"


def scenario(tf: Any) -> list[tuple[str, Callable[[], Any]]]:
    """The steps, each a label and a thunk."""
    config = tf.config
    cpu = lambda: config.list_physical_devices("CPU")[0]      # noqa: E731
    two = lambda: [config.LogicalDeviceConfiguration(), config.LogicalDeviceConfiguration()]  # noqa: E731
    return [
        ("physical", lambda: config.list_physical_devices()),
        ("physical_gpu", lambda: config.list_physical_devices("GPU")),
        ("experimental_physical", lambda: config.experimental.list_physical_devices("CPU")),
        ("physical_equal", lambda: cpu() == config.PhysicalDevice(name="/physical_device:CPU:0", device_type="CPU")),
        ("fields", lambda: (cpu().name, cpu().device_type)),
        ("configuration_repr", lambda: config.LogicalDeviceConfiguration(memory_limit=1024)),
        ("virtual_is_logical", lambda: config.experimental.VirtualDeviceConfiguration
         is config.LogicalDeviceConfiguration),
        ("memory_growth_cpu", lambda: config.experimental.set_memory_growth(cpu(), True)),
        ("get_memory_growth_unset", lambda: config.experimental.get_memory_growth(cpu())),
        ("memory_growth_unknown", lambda: config.experimental.set_memory_growth(
            config.PhysicalDevice("/physical_device:GPU:0", "GPU"), True)),
        ("logical_configuration_none", lambda: config.get_logical_device_configuration(cpu())),
        ("split_cpu", lambda: config.set_logical_device_configuration(cpu(), two())),
        ("logical_configuration", lambda: config.get_logical_device_configuration(cpu())),
        ("hide_gpus", lambda: config.set_visible_devices([], "GPU")),
        ("visible", lambda: config.get_visible_devices()),
        ("visible_wrong_type", lambda: config.set_visible_devices([cpu()], "GPU")),
        ("intra_threads", lambda: config.threading.get_intra_op_parallelism_threads()),
        ("details_cpu", lambda: config.experimental.get_device_details(cpu())),
        ("logical", lambda: config.list_logical_devices()),
        ("logical_cpu", lambda: config.list_logical_devices("CPU")),
        ("split_after_init", lambda: config.set_logical_device_configuration(
            cpu(), [config.LogicalDeviceConfiguration()])),
        ("hide_cpu_after_init", lambda: config.set_visible_devices([])),
        ("same_visible_after_init", lambda: config.set_visible_devices([cpu()])),
        ("threads_after_init", lambda: config.threading.set_intra_op_parallelism_threads(2)),
        ("soft_placement", lambda: (config.set_soft_device_placement(True), config.get_soft_device_placement())),
        ("optimizer_options", lambda: (config.optimizer.set_experimental_options({"constant_folding": True}),
                                       config.optimizer.get_experimental_options())),
    ]


def answers(tf: Any) -> dict[str, str]:
    """Each step's repr, or ``"TypeName: text"`` of what it raised."""
    found = {}
    for label, step in scenario(tf):
        try:
            found[label] = repr(step())
        except Exception as error:  # noqa: BLE001  (recording what is raised is the point)
            found[label] = f"{type(error).__name__}: {error}"
    return found


if __name__ == "__main__":
    import tensorflow as tf
    OUT.write_text(json.dumps(answers(tf), indent=1) + "\n")
    print(OUT)
