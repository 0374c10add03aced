"""The 1.x path ``mindspore.dataset.transforms.c_transforms``: the same operations."""
from .transforms import (Compose, Duplicate, Fill, OneHot, RandomApply,  # noqa: F401
                         RandomChoice, TypeCast)
