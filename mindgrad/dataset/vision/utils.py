"""Enums of ``mindspore.dataset.vision``: interpolation modes and border modes."""
from __future__ import annotations

import enum


class Inter(enum.IntEnum):
    """Interpolation modes (MindSpore's numbering; LINEAR is BILINEAR, CUBIC is BICUBIC)."""
    NEAREST = 0
    ANTIALIAS = 1
    BILINEAR = 2
    LINEAR = 2
    BICUBIC = 3
    CUBIC = 3
    AREA = 4
    PILCUBIC = 5


class Border(str, enum.Enum):
    """How padding fills new pixels: a constant, the edge pixel, a reflection without the edge
    (``REFLECT``) or with it (``SYMMETRIC``)."""
    CONSTANT = "constant"
    EDGE = "edge"
    REFLECT = "reflect"
    SYMMETRIC = "symmetric"


class ImageBatchFormat(enum.IntEnum):
    NHWC = 0
    NCHW = 1
