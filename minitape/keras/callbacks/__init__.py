"""Keras 3's callbacks: ``callback`` (the base, ``History``, ``CallbackList`` and the small ones), ``monitoring``
(``EarlyStopping``, ``ReduceLROnPlateau``, ``LearningRateScheduler``) and ``files`` (``CSVLogger``,
``ModelCheckpoint``).

>>> import minitape as tf
>>> stop = tf.keras.callbacks.EarlyStopping(monitor="loss", patience=1)
>>> model = tf.keras.Sequential([tf.keras.layers.Dense(1, kernel_initializer="zeros")])
>>> model.compile(optimizer=tf.keras.optimizers.SGD(0.1), loss="mse")
>>> len(model.fit(np.ones((4, 1)), np.ones((4, 1)), epochs=3, verbose=0, callbacks=[stop]).epoch)
3
"""
from minitape.keras.callbacks.callback import (Callback, CallbackList, History, LambdaCallback, ProgbarLogger,
                                               TerminateOnNaN)
from minitape.keras.callbacks.files import CSVLogger, ModelCheckpoint
from minitape.keras.callbacks.monitoring import EarlyStopping, LearningRateScheduler, ReduceLROnPlateau

__all__ = ["Callback", "CallbackList", "CSVLogger", "EarlyStopping", "History", "LambdaCallback",
           "LearningRateScheduler", "ModelCheckpoint", "ProgbarLogger", "ReduceLROnPlateau", "TerminateOnNaN"]
