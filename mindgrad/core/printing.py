"""Text formatting of tensor values, mimicking MindSpore 2.x ``str``/``repr``.

``format_str`` reproduces ``print(t)`` / ``str(t)`` (NumPy's ``str`` style) and
``format_repr`` reproduces ``repr(t)``, e.g.
``Tensor(shape=[2], dtype=Float32, value= [ 1.00000000e+00,  2.00000000e+00])``.

Both functions format under NumPy's *default* print options, so a user's global
``np.set_printoptions(...)`` never changes their output.
"""
from typing import Any, Dict

import numpy as np

__all__ = ["format_str", "format_repr"]

# NumPy's default print options, pinned explicitly.
_DEFAULT_OPTIONS: Dict[str, Any] = dict(
    precision=8,
    threshold=1000,
    edgeitems=3,
    linewidth=75,
    suppress=False,
    nanstr="nan",
    infstr="inf",
    sign="-",
    formatter=None,
    floatmode="maxprec",
    legacy=False,
)

# repr() rows are never wrapped for realistic row lengths.
_REPR_LINEWIDTH = 10**6


def _exp_float(value: Any) -> str:
    """Format one float as MindSpore's repr does: ``% .8e`` on the float64 value."""
    return "% .8e" % float(value)


def format_str(arr: np.ndarray) -> str:
    """Return the ``str(tensor)`` text of ``arr``: NumPy's default ``str`` style.

    Examples: ``[1. 2.]``, ``[[0. 1.]\\n [2. 3.]]``, ``[ True False]``, and a 0-d
    array gives its scalar, e.g. ``3.5``. Float32 values use the shortest repr
    that round-trips in float32 (e.g. ``4.5099998``).
    """
    arr = np.asarray(arr)
    with np.printoptions(**_DEFAULT_OPTIONS):
        return str(arr)


def _shape_text(shape: tuple) -> str:
    """Render a shape tuple as MindSpore does: ``(2, 3)`` -> ``[2, 3]``, ``()`` -> ``[]``."""
    return "[" + ", ".join(str(int(d)) for d in shape) + "]"


def _value_text(arr: np.ndarray) -> str:
    """Render the ``value=`` part of ``repr`` (without the leading separator)."""
    if arr.ndim == 0:
        return format_str(arr)
    formatter = None
    if np.issubdtype(arr.dtype, np.floating):
        arr = arr.astype(np.float64)
        formatter = {"float_kind": _exp_float}
    with np.printoptions(**_DEFAULT_OPTIONS):
        return np.array2string(
            arr, max_line_width=_REPR_LINEWIDTH, separator=", ", formatter=formatter
        )


def format_repr(arr: np.ndarray, dtype_name: str) -> str:
    """Return the ``repr(tensor)`` text of ``arr`` as MindSpore 2.x prints it.

    ``dtype_name`` is the MindSpore dtype name to show (e.g. ``"Float32"``).
    Floating values are widened to float64 and shown as ``% .8e`` (so float32
    ``4.51`` appears as ``4.50999975e+00``); items are joined by ``", "``.
    Arrays with two or more dimensions start their value on a new line; 0-d
    arrays show the scalar as ``str`` would, e.g. ``value= 3.5``.
    """
    arr = np.asarray(arr)
    head = "Tensor(shape=%s, dtype=%s, value=" % (_shape_text(arr.shape), dtype_name)
    sep = "\n" if arr.ndim >= 2 else " "
    return head + sep + _value_text(arr) + ")"
