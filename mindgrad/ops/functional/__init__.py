"""MindSpore's functional operators (``ops.sin``, ``ops.matmul``, ...), the module
``mindspore.ops.functional``. Each validates and normalizes its arguments, then binds a
primitive; composite operators (mean, softmax, ...) are written in terms of primitives so
that they are differentiable to any order. MindSpore's ``ops.functional`` also holds the
transformations (``grad``, ``vmap``, ``jet``, ``HyperMap``, ...): they are built on this
module, so ``mindgrad.ops`` adds them to it once they are defined.

One module per family: ``elementwise`` (arithmetic, comparisons, math functions,
activations, clipping), ``creation`` (dtype, constants, ``arange``, ...), ``shape``,
``indexing``, ``reduction`` (with ``softmax`` and ``norm``), ``linalg``, ``conv``
(convolution and pooling); ``_args`` holds the argument checks they share."""
from __future__ import annotations

from .. import names as _names
from . import elementwise
from ._args import (_axes, _axis, _broadcast_shapes, _composite, _flag,  # noqa: F401
                    _float_param, _in_dtype, _int_tensor, _is_int, _operand, _public_names,
                    _shape_arg, _sizes, _strict_tensor, _tensor, promote_scalar)
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
