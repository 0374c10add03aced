"""``mindspore.nn.metrics``: the metrics of ``mindspore.train.metrics`` under their older
home (MindSpore keeps both)."""
from ..train.metrics import *  # noqa: F401,F403
from ..train.metrics import __all__  # noqa: F401
