"""Comparisons and logical operations (no gradient) and ``select`` (where)."""
from __future__ import annotations

import numpy as np

from ..core.primitive import Primitive
from ._util import checked_binary
from . import shape as S


def _nondiff_binary(name: str, fn) -> Primitive:
    return Primitive(name, checked_binary(name, fn), nondiff=True)


equal = _nondiff_binary("Equal", np.equal)
not_equal = _nondiff_binary("NotEqual", np.not_equal)
less = _nondiff_binary("Less", np.less)
less_equal = _nondiff_binary("LessEqual", np.less_equal)
greater = _nondiff_binary("Greater", np.greater)
greater_equal = _nondiff_binary("GreaterEqual", np.greater_equal)
logical_and = _nondiff_binary("LogicalAnd", np.logical_and)
logical_or = _nondiff_binary("LogicalOr", np.logical_or)
logical_xor = _nondiff_binary("LogicalXor", np.logical_xor)
logical_not = Primitive("LogicalNot", np.logical_not, nondiff=True)
isnan = Primitive("IsNan", np.isnan, nondiff=True)
isinf = Primitive("IsInf", np.isinf, nondiff=True)
isfinite = Primitive("IsFinite", np.isfinite, nondiff=True)


def _select_impl(cond, x, y):
    try:
        return np.where(cond, x, y)
    except ValueError:
        raise ValueError(f"For 'Select', the shapes of condition {list(np.shape(cond))}, x "
                         f"{list(np.shape(x))} and y {list(np.shape(y))} can not broadcast."
                         ) from None


select = Primitive("Select", _select_impl)


def _zeros_where(cond, g, keep_when):
    z = S.zeros_like(g)
    return select(cond, g, z) if keep_when else select(cond, z, g)


select.vjp = (None,
              lambda g, ans, c, x, y: S.unbroadcast(_zeros_where(c, g, True), x),
              lambda g, ans, c, x, y: S.unbroadcast(_zeros_where(c, g, False), y))
select.jvp = (None,
              lambda t, ans, c, x, y: S.broadcast_like(_zeros_where(c, S.broadcast_like(t, ans), True), ans),
              lambda t, ans, c, x, y: S.broadcast_like(_zeros_where(c, S.broadcast_like(t, ans), False), ans))

from . import batch_rules as B  # noqa: E402

B.defelementwise(equal, not_equal, less, less_equal, greater, greater_equal, logical_and,
                 logical_or, logical_xor, logical_not, isnan, isinf, isfinite, select)

from . import taylor_rules as T  # noqa: E402

select.taylor = T.select_rule
