"""``mindspore.train``: ``Model``, the callbacks, the metrics, mixed precision
(``amp``, ``build_train_network``, loss scale managers) and the checkpoint functions
(``mindspore.train.serialization``)."""
from .serialization import load_checkpoint, load_param_into_net, save_checkpoint  # noqa: F401
from . import serialization  # noqa: F401
from . import metrics  # noqa: F401
from .metrics import *  # noqa: F401,F403
from . import amp, callback  # noqa: F401
from .amp import build_train_network  # noqa: F401
from .callback import (Callback, CheckpointConfig, EarlyStopping, History,  # noqa: F401
                       LambdaCallback, LearningRateScheduler, LossMonitor, ModelCheckpoint,
                       ProgressBar, ReduceLROnPlateau, RunContext, TimeMonitor)
from .loss_scale_manager import (DynamicLossScaleManager, FixedLossScaleManager,  # noqa: F401
                                 LossScaleManager)
from .model import Model  # noqa: F401

__all__ = ["Model", "build_train_network", "LossScaleManager", "FixedLossScaleManager",
           "DynamicLossScaleManager", "save_checkpoint", "load_checkpoint",
           "load_param_into_net"]
__all__.extend(callback.__all__)
__all__.extend(metrics.__all__)
