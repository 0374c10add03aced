"""mindgrad: MindSpore's automatic differentiation programming model on NumPy and CuPy.

``import mindgrad as ms`` gives the names MindSpore scripts use (``Tensor``, ``Parameter``,
``nn``, ``ops``, ``context``, ``grad``, ...); ``mindgrad run script.py`` runs a MindSpore
script unmodified."""
from __future__ import annotations

__version__ = "0.1.0"

import numpy as _np

from .core import fp_warnings as _fp_warnings

# NumPy's floating-point RuntimeWarnings (log of 0, overflow, ...) stay silent inside
# mindgrad, as MindSpore computes inf and NaN silently; see common/fp_warnings.py.
_fp_warnings.install()

from . import context, runtime  # noqa: F401,E402
from .core import dtype  # noqa: F401
from .core.dtype import (bool_, complex64, complex128, double, float16, float32,  # noqa: F401
                           float64, float_, half, int8, int16, int32, int64, int_, single,
                           uint8, uint16, uint32, uint64, dtype_to_nptype, dtype_to_pytype,
                           pytype_to_dtype)
from .ad.reverse import no_grad as _no_grad  # noqa: F401
from .common import mutable  # noqa: F401
from .common.parameter import Parameter, ParameterTuple  # noqa: F401
from .common.random import set_seed  # noqa: F401
from .train.serialization import (load_checkpoint, load_param_into_net,  # noqa: F401
                                   save_checkpoint)
from .core.tensor import Tensor  # noqa: F401
from .context import (COMPATIBLE, GRAPH_MODE, LAX, PYNATIVE_MODE, STRICT,  # noqa: F401
                      get_context, set_context)
from .common.auto_parallel import (ParallelMode, get_auto_parallel_context,  # noqa: F401
                                   reset_auto_parallel_context, set_auto_parallel_context)
from . import ops  # noqa: F401  (binds the Tensor operators)
from . import nn  # noqa: F401
from .jit import jit, ms_function  # noqa: F401
from .ops.custom_function import _Function  # noqa: F401
from .ops.sparse_tensor import COOTensor, CSRTensor  # noqa: F401
from .ops.taylor import derivative, jet, laplacian, linearize  # noqa: F401
from .ops.composite import (get_grad, grad, hessian, jacfwd, jacrev, jvp,  # noqa: F401
                            value_and_grad, vjp, vmap)
from . import train  # noqa: F401,E402
from .train import *  # noqa: F401,F403,E402  (MindSpore exports Model, the callbacks, ...)
from . import amp  # noqa: F401,E402






def is_tensor(obj) -> bool:
    return isinstance(obj, Tensor)


def from_numpy(array: _np.ndarray) -> Tensor:
    return Tensor(array)


tensor = Tensor


_LAZY_SUBMODULES = ("dataset", "numpy", "mint")


def __getattr__(name: str):
    """``ms.dataset`` after a plain ``import mindspore as ms``: the data pipeline package is
    imported on first use (it is not needed by most programs)."""
    if name in _LAZY_SUBMODULES:
        import importlib

        return importlib.import_module(f"{__name__}.{name}")
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
