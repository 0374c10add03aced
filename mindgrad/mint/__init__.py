"""``mindspore.mint``: MindSpore 2.x's PyTorch-style functions (``input``, ``dim``,
``keepdim``, ``other`` ...), with ``mint.nn``, ``mint.nn.functional`` and ``mint.optim``.

Every function is a composition of mindgrad's operators, so results are differentiable.
The families live in ``math`` (elementwise), ``reductions``, ``shape`` (joining, indexing,
sorting) and ``creation`` (including random sampling)."""
from __future__ import annotations

from . import creation, math, nn, optim, reductions, shape  # noqa: F401
from .creation import *  # noqa: F401,F403
from .math import *  # noqa: F401,F403
from .nn.functional import conv2d  # noqa: F401
from .optim import SGD, Adam, AdamW, FusedAdamW  # noqa: F401
from .reductions import *  # noqa: F401,F403
from .shape import *  # noqa: F401,F403
from . import special  # noqa: F401  (opsfns family: erfinv, polar, real, imag)
from .special import *  # noqa: F401,F403

__all__ = sorted(set(["conv2d"] + creation.__all__ + math.__all__ + reductions.__all__
                     + shape.__all__ + special.__all__))
