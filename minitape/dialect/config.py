"""``tf.config``: devices, and the settings minitape has an answer for.

minitape has no graphs, so ``tf.function`` always runs eagerly: what TensorFlow does after
``tf.config.run_functions_eagerly(True)``.  The devices are in
``minitape.dialect.devices``; ``tf.config.experimental``,
``tf.config.threading`` and ``tf.config.optimizer`` are the namespaces TensorFlow has.

>>> import minitape as tf
>>> tf.config.run_functions_eagerly(True)
>>> tf.config.functions_run_eagerly()
True
>>> tf.config.experimental.list_physical_devices("CPU")[0].device_type
'CPU'
"""
from __future__ import annotations

import logging
import types
from typing import Any

from minitape.dialect.devices import (  # noqa: F401
    LogicalDevice, LogicalDeviceConfiguration, PhysicalDevice, get_device_details, get_logical_device_configuration,
    get_memory_growth, get_visible_devices, list_logical_devices, list_physical_devices,
    set_logical_device_configuration, set_memory_growth, set_visible_devices,
)
from minitape.dialect import devices as _devices

logger = logging.getLogger("minitape")


def run_functions_eagerly(run_eagerly: bool) -> None:
    """In TensorFlow, makes every ``tf.function`` run eagerly; in minitape they always do.

    Asking for graphs (``False``) logs a warning and changes nothing.

    >>> import minitape as tf
    >>> tf.config.run_functions_eagerly(False)
    >>> tf.config.functions_run_eagerly()          # still: minitape cannot build graphs
    True
    """
    if not run_eagerly:
        logger.warning("tf.config.run_functions_eagerly(False): minitape has no graphs; tf.function keeps running "
                       "eagerly.")


def functions_run_eagerly() -> bool:
    """Whether ``tf.function`` runs eagerly: always, in minitape.

    >>> import minitape as tf
    >>> tf.config.functions_run_eagerly()
    True
    """
    return True


_soft_placement = [True]


def set_soft_device_placement(enabled: bool) -> None:
    """Whether an op with no kernel on the device asked for may run elsewhere; kept (minitape's ops run anywhere).

    >>> import minitape as tf
    >>> tf.config.set_soft_device_placement(True)
    >>> tf.config.get_soft_device_placement()
    True
    """
    _soft_placement[0] = bool(enabled)


def get_soft_device_placement() -> bool:
    """What ``set_soft_device_placement`` set; True at first, as in TensorFlow.

    >>> import minitape as tf
    >>> tf.config.get_soft_device_placement()
    True
    """
    return _soft_placement[0]


_threads = {"intra": 0, "inter": 0}


def _thread_setter(kind: str) -> Any:
    def set_threads(num_threads: int) -> None:
        if _devices._settings.initialized and _threads[kind] != num_threads:
            word = "Intra" if kind == "intra" else "Inter"
            raise RuntimeError(f"{word} op parallelism cannot be modified after initialization.")
        _threads[kind] = int(num_threads)
    set_threads.__name__ = f"set_{kind}_op_parallelism_threads"
    where = "inside one op" if kind == "intra" else "across ops"
    set_threads.__doc__ = f"""How many threads TensorFlow would use {where} (0: the system picks); kept, since
    NumPy picks its own.

    >>> import minitape as tf
    >>> tf.config.threading.get_{kind}_op_parallelism_threads()
    0
    """
    return set_threads


def _thread_getter(kind: str) -> Any:
    def get_threads() -> int:
        return _threads[kind]
    get_threads.__name__ = f"get_{kind}_op_parallelism_threads"
    get_threads.__doc__ = f"""What ``set_{kind}_op_parallelism_threads`` set; 0 at first.

    >>> import minitape as tf
    >>> tf.config.threading.get_{kind}_op_parallelism_threads()
    0
    """
    return get_threads


_optimizer_options: dict[str, Any] = {}
_OPTIMIZER_DEFAULTS = {"disable_model_pruning": False, "disable_meta_optimizer": False}


def set_experimental_options(options: dict[str, Any]) -> None:
    """Grappler's graph-rewriting options: kept and read back, as minitape has no graphs to rewrite.

    >>> import minitape as tf
    >>> tf.config.optimizer.set_experimental_options({"constant_folding": True})
    >>> tf.config.optimizer.get_experimental_options()["constant_folding"]
    True
    """
    _optimizer_options.update(options)


def get_experimental_options() -> dict[str, Any]:
    """The graph-rewriting options set, with TensorFlow's two defaults.

    >>> import minitape as tf
    >>> tf.config.optimizer.get_experimental_options()["disable_meta_optimizer"]
    False
    """
    return {**_optimizer_options, **{k: v for k, v in _OPTIMIZER_DEFAULTS.items() if k not in _optimizer_options}}


threading = types.SimpleNamespace(
    set_intra_op_parallelism_threads=_thread_setter("intra"), get_intra_op_parallelism_threads=_thread_getter("intra"),
    set_inter_op_parallelism_threads=_thread_setter("inter"), get_inter_op_parallelism_threads=_thread_getter("inter"))
optimizer = types.SimpleNamespace(set_experimental_options=set_experimental_options,
                                  get_experimental_options=get_experimental_options)
experimental = types.SimpleNamespace(
    list_physical_devices=list_physical_devices, list_logical_devices=list_logical_devices,
    set_visible_devices=set_visible_devices, get_visible_devices=get_visible_devices,
    set_memory_growth=set_memory_growth, get_memory_growth=get_memory_growth, get_device_details=get_device_details,
    VirtualDeviceConfiguration=LogicalDeviceConfiguration,
    set_virtual_device_configuration=set_logical_device_configuration,
    get_virtual_device_configuration=get_logical_device_configuration)
