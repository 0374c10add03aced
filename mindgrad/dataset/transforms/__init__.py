"""``mindspore.dataset.transforms``: operations on any column (see ``transforms.py``)."""
from .transforms import (Compose, Duplicate, Fill, OneHot, RandomApply,  # noqa: F401
                         RandomChoice, TensorOperation, TypeCast)
from . import transforms  # noqa: F401
