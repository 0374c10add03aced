"""``cupyx.scipy.special``: SciPy's special functions (the names CuPy has) on device arrays."""
from __future__ import annotations

import scipy.special as _sp
from cupy._functions import NAMES, namespace

globals().update(namespace(NAMES["special"], _sp))
