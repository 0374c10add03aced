"""Text formatting of tensor values, mimicking MindSpore 2.x ``str``/``repr``.

``format_str`` reproduces ``print(t)`` / ``str(t)`` (NumPy's ``str`` style) and
``format_repr`` reproduces ``repr(t)``, e.g.
``Tensor(shape=[2], dtype=Float32, value= [ 1.00000000e+00,  2.00000000e+00])``.

Both functions format under NumPy's *default* print options, so a user's global
``np.set_printoptions(...)`` never changes their output.
"""
from typing import Any, Dict

import numpy as np

__all__ = ["format_str", "format_repr", "format_uninitialized"]

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



def format_str(arr: np.ndarray) -> str:
    """Return the ``str(tensor)`` text of ``arr``: NumPy's default ``str`` style.

    Examples: ``[1. 2.]``, ``[[0. 1.]\\n [2. 3.]]``, ``[ True False]``, and a 0-d
    array gives its scalar, e.g. ``3.5``. Float32 values use the shortest repr
    that round-trips in float32 (e.g. ``4.5099998``).
    """
    arr = np.asarray(arr)
    if arr.ndim == 0 and arr.dtype.kind == "f":
        return _float_str(arr[()])
    with np.printoptions(**_DEFAULT_OPTIONS):
        return str(arr)


def _float_str(value: np.floating) -> str:
    """``str`` of a 0-d float tensor as MindSpore prints it (NumPy 1.x's scalar style, which
    NumPy 2 changed for float32): positional from 1e-4 to 1e16 (``10000000000.0``), else
    scientific (``1e-08``), with the fewest digits that read back as the same value."""
    magnitude = abs(float(value))
    if not np.isfinite(value) or magnitude == 0 or 1e-4 <= magnitude < 1e16:
        return np.format_float_positional(value, unique=True, trim="0")
    return np.format_float_scientific(value, unique=True, trim="-", exp_digits=2)


def _shape_text(shape: tuple) -> str:
    """Render a shape tuple as MindSpore does: ``(2, 3)`` -> ``[2, 3]``, ``()`` -> ``[]``."""
    return "[" + ", ".join(str(int(d)) for d in shape) + "]"


# MindSpore's repr layout (checked against MindSpore 2.10): an axis of a tensor of rank 2 or
# more longer than _AXIS_LIMIT, and a 1-D tensor longer than _LENGTH_LIMIT, show _EDGE items
# at each end around "..."; an unsummarised 1-D tensor breaks its line after every
# _PER_LINE[kind] items; floats are "%.{p}e" right-aligned to p + 7 characters, p = 4 for
# Float16 and 8 otherwise; integers are right-aligned to the widest one shown.
_EDGE = 3
_AXIS_LIMIT = 6
_LENGTH_LIMIT = 1000
_PER_LINE = {"f": 12, "c": 12, "b": 12, "i": 24, "u": 24}


def _scalar_text(value: Any) -> str:
    """A 0-d tensor's value in ``repr``: ``%g`` for floats (``28``, ``0.333333``, ``1e-08``),
    ``1+2j`` for complex numbers."""
    if isinstance(value, (np.floating, float)):
        return "%g" % float(value)
    if isinstance(value, (np.complexfloating, complex)):
        return "%g%+gj" % (value.real, value.imag)
    return str(value)


def _shown(arr: np.ndarray) -> np.ndarray:
    """The elements ``repr`` shows: the ends of every summarised axis."""
    for axis, n in enumerate(arr.shape):
        limit = _LENGTH_LIMIT if arr.ndim == 1 else _AXIS_LIMIT
        if n > limit:
            keep = list(range(_EDGE)) + list(range(n - _EDGE, n))
            arr = np.take(arr, keep, axis=axis)
    return arr


def _item_texts(arr: np.ndarray) -> np.ndarray:
    """Each element's text, aligned as MindSpore aligns it (an array of str)."""
    kind = arr.dtype.kind
    if kind == "f":
        digits = 4 if arr.dtype == np.float16 else 8
        texts = ["%.*e" % (digits, v) for v in arr.astype(np.float64).ravel()]
        width = digits + 7
    elif kind == "b":
        texts, width = [str(bool(v)) for v in arr.ravel()], 5
    elif kind == "c":
        texts, width = [_scalar_text(v) for v in arr.ravel()], 0
    else:
        texts = [str(v) for v in arr.ravel()]
        width = max(map(len, texts))
    return np.array([t.rjust(width) for t in texts], dtype=object).reshape(arr.shape)


def _join(parts: list, summarised: bool, sep: str, gap: str) -> str:
    """``parts`` joined by ``sep``, with ``gap`` between the two ends of a summarised axis."""
    if not summarised:
        return sep.join(parts)
    return sep.join(parts[:_EDGE]) + gap + sep.join(parts[_EDGE:])


def _rows_text(texts: np.ndarray, summarised: tuple, depth: int) -> str:
    """The bracketed text of ``texts`` (already cut to the shown elements)."""
    if texts.ndim == 1:
        return "[" + _join(list(texts), summarised[0], ", ", " ... ") + "]"
    indent = " " * (depth + 1)
    rows = [_rows_text(t, summarised[1:], depth + 1) for t in texts]
    return "[" + _join(rows, summarised[0], ",\n" + indent,
                       ",\n" + indent + "...\n" + indent) + "]"


def _value_text(arr: np.ndarray) -> str:
    """Render the ``value=`` part of ``repr`` (without the leading separator)."""
    if arr.ndim == 0:
        return _scalar_text(arr[()])
    if arr.size == 0:
        return ""
    limit = _LENGTH_LIMIT if arr.ndim == 1 else _AXIS_LIMIT
    summarised = tuple(n > limit for n in arr.shape)
    texts = _item_texts(_shown(arr))
    if arr.ndim > 1 or summarised[0]:
        return _rows_text(texts, summarised, 0)
    per_line = _PER_LINE[arr.dtype.kind]
    lines = [", ".join(texts[k:k + per_line]) for k in range(0, len(texts), per_line)]
    return "[" + ", \n ".join(lines) + "]"


def format_repr(arr: np.ndarray, dtype_name: str) -> str:
    """Return the ``repr(tensor)`` text of ``arr`` as MindSpore 2.x prints it.

    ``dtype_name`` is the MindSpore dtype name to show (e.g. ``"Float32"``).
    Floating values are widened to float64 and shown as ``%.8e`` (``%.4e`` for Float16),
    right-aligned (so float32 ``4.51`` appears as `` 4.50999975e+00``); items are joined by
    ``", "``; long axes are summarised (see ``_EDGE`` above). Arrays with two or more
    dimensions start their value on a new line; 0-d arrays show ``%g`` of the scalar,
    e.g. ``value= 28``.
    """
    arr = np.asarray(arr)
    head = "Tensor(shape=%s, dtype=%s, value=" % (_shape_text(arr.shape), dtype_name)
    sep = "\n" if arr.ndim >= 2 else " "
    return head + sep + _value_text(arr) + ")"


def format_uninitialized(shape: tuple, dtype_name: str) -> str:
    """``str`` and ``repr`` of a tensor made with an initializer whose value has not been read
    yet, as MindSpore prints it."""
    return "Tensor(shape=%s, dtype=%s, value=\n<uninitialized>)" % (_shape_text(shape),
                                                                    dtype_name)
