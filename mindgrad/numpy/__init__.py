"""``mindspore.numpy``: MindSpore's NumPy-compatible functions on mindgrad Tensors.

Every function is a composition of mindgrad's operators, so results are differentiable
(``grad``, ``jvp``, ``vmap``) in their floating inputs. The families live in their own
modules: ``creation``, ``math``, ``reductions``, ``logic``, ``manipulation``, ``indexing``,
``linalg``, ``calculus``, ``statistics``, ``random`` and ``dtypes``."""
from __future__ import annotations

import math as _math

from ..core.dtype import (bool_, float16, float32, float64, float_, int8, int16,  # noqa: F401
                          int32, int64, int_, uint, uint8, uint16, uint32, uint64)
from . import (calculus, creation, dtypes, indexing, linalg, logic,  # noqa: F401
               manipulation, math, random, reductions, statistics)
from .calculus import *  # noqa: F401,F403
from .creation import *  # noqa: F401,F403
from .dtypes import *  # noqa: F401,F403
from .indexing import *  # noqa: F401,F403
from .linalg import *  # noqa: F401,F403
from .logic import *  # noqa: F401,F403
from .manipulation import *  # noqa: F401,F403
from .math import *  # noqa: F401,F403
from .random import *  # noqa: F401,F403
from .reductions import *  # noqa: F401,F403
from .statistics import *  # noqa: F401,F403

# the constants MindSpore's module has (it has no ``e``)
pi = _math.pi
inf = PINF = float("inf")
NINF = float("-inf")
nan = float("nan")

_DTYPES = ["bool_", "float16", "float32", "float64", "float_", "int8", "int16", "int32",
           "int64", "int_", "uint", "uint8", "uint16", "uint32", "uint64"]

__all__ = sorted(set(calculus.__all__ + creation.__all__
                     + dtypes.__all__ + indexing.__all__ + linalg.__all__ + logic.__all__
                     + manipulation.__all__ + math.__all__ + random.__all__
                     + reductions.__all__ + statistics.__all__ + _DTYPES)
                 - {"uint"})
