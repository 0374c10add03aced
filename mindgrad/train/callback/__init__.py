"""``mindspore.train.callback``: the hooks ``Model.train`` / ``eval`` / ``fit`` call, and
MindSpore's ready-made callbacks (plus ``ProgressBar``)."""
from ._callback import Callback, CallbackManager, InternalCallbackParam, RunContext  # noqa: F401
from ._checkpoint import CheckpointConfig, ModelCheckpoint  # noqa: F401
from ._monitors import History, LambdaCallback, LossMonitor, ProgressBar, TimeMonitor  # noqa: F401
from ._schedules import EarlyStopping, LearningRateScheduler, ReduceLROnPlateau  # noqa: F401

# the callbacks MindSpore ships (Model.fit keeps only TimeMonitor of these while evaluating)
__all__ = ["Callback", "LossMonitor", "TimeMonitor", "ModelCheckpoint", "CheckpointConfig",
           "RunContext", "LearningRateScheduler", "History", "LambdaCallback",
           "ReduceLROnPlateau", "EarlyStopping", "ProgressBar"]

# the private names MindSpore's own code (and some user code) imports from here
_CallbackManager = CallbackManager
_InternalCallbackParam = InternalCallbackParam
