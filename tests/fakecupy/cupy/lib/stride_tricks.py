"""``cupy.lib.stride_tricks``: ``as_strided`` and friends on device arrays."""
from .._functions import STRIDE_TRICKS

globals().update(STRIDE_TRICKS)
