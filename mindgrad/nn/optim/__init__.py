"""Optimizers (``nn.SGD``, ``nn.Momentum``, ``nn.Adam``, ``nn.AdamWeightDecay``,
``nn.RMSProp``) on the ``nn.Optimizer`` base."""
from .adam import Adam, AdamOffload, AdamWeightDecay  # noqa: F401
from .optimizer import Optimizer  # noqa: F401
from .rmsprop import RMSProp  # noqa: F401
from .sgd import SGD, Momentum  # noqa: F401
from .adagrad import FTRL, Adadelta, Adagrad, AdaMax, ProximalAdagrad  # noqa: F401
from .asgd_rprop import ASGD, LazyAdam, Rprop  # noqa: F401
from .adafactor import AdaFactor  # noqa: F401
# lamblars family: layer-wise trust-ratio optimizers
from .lamb import Lamb  # noqa: F401
from .lars import LARS  # noqa: F401
