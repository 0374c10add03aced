"""MindSpore's functional operators (``ops.sin``, ``ops.matmul``, ...), the module
``mindspore.ops.functional``. Each validates and normalizes its arguments, then binds a
primitive; composite operators (mean, softmax, ...) are written in terms of primitives so
that they are differentiable to any order.

One module per family: ``elementwise`` (arithmetic, comparisons, math functions,
activations, clipping), ``creation`` (dtype, constants, ``arange``, ...), ``shape``,
``indexing``, ``reduction`` (with ``softmax`` and ``norm``), ``linalg``, ``conv``
(convolution and pooling); ``_args`` holds the argument checks they share."""
from __future__ import annotations

import importlib
from typing import Any

from ...core import tensor as _tensor_module
from ...core.primitive import bind as _bind
from ...prims import arith as _arith
from .. import names as _names
from . import elementwise
from ._args import (_axes, _axis, _broadcast_shapes, _composite, _flag,  # noqa: F401
                    _float_param, _in_dtype, _int_tensor, _is_int, _operand, _public_names,
                    _shape_arg, _sizes, _tensor, promote_scalar)
from .conv import _int_pair, _pool2d_same  # noqa: F401
from .creation import _fill  # noqa: F401
from .indexing import _setitem  # noqa: F401
from .reduction import _cumprod_ext, _cumsum_ext  # noqa: F401
from .elementwise import *  # noqa: F401,F403
from .creation import *  # noqa: F401,F403
from .shape import *  # noqa: F401,F403
from .indexing import *  # noqa: F401,F403
from .reduction import *  # noqa: F401,F403
from .linalg import *  # noqa: F401,F403
from .conv import *  # noqa: F401,F403

__all__ = _public_names(globals())


def _publish(row: _names.Row) -> None:
    # a row added to the name table later (names.add): its function joins this module too
    for name in (row.name, *row.alias):
        if name in elementwise.__all__ and name not in __all__:
            globals()[name] = getattr(elementwise, name)
            __all__.append(name)


_names.each_row(_publish)

_tensor_module.F = __import__(__name__, fromlist=["_"])
_tensor_module._P = _arith
_tensor_module._bind = _bind

# MindSpore's ``ops.functional`` (``F``) also holds the transformations and structure helpers.
# They are built on this module (in ``composite``, ``taylor`` and ``multitype``), so they are
# looked up in the package on first use rather than imported here.
_FROM_PACKAGE = frozenset({"grad", "value_and_grad", "get_grad", "vjp", "jvp", "jacfwd", "jacrev",
                           "hessian", "vmap", "jet", "derivative", "laplacian", "linearize",
                           "GradOperation", "HyperMap", "Map", "MultitypeFuncGraph", "partial"})


def __getattr__(name: str) -> Any:
    if name in _FROM_PACKAGE:
        return getattr(importlib.import_module(__name__.rpartition(".")[0]), name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
