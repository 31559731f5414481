"""``tf.config``: the one setting minitape has an answer for.

minitape has no graphs, so ``tf.function`` always runs eagerly: what TensorFlow does after
``tf.config.run_functions_eagerly(True)``.

>>> import minitape as tf
>>> tf.config.run_functions_eagerly(True)
>>> tf.config.functions_run_eagerly()
True
"""
from __future__ import annotations

import logging

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
