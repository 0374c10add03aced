"""``mindspore.train``: metrics and checkpoint functions (``mindspore.train.serialization``)."""
from ..common.serialization import load_checkpoint, load_param_into_net, save_checkpoint  # noqa: F401
from ..common import serialization  # noqa: F401
from . import metrics  # noqa: F401
from .metrics import *  # noqa: F401,F403
