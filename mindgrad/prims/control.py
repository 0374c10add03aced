"""Primitives of compiled graphs themselves, not of user programs.

``guard``: a GRAPH-mode trace that turned a traced value into a Python value (``if x > 0``,
``int(n)``) records what it found; the compiled function checks it on every call and falls
back to tracing again when it differs. It has no implementation to run eagerly: code
generation writes the check inline (hint "guard"), and passes never remove it (an effect)."""
from __future__ import annotations

from ..core.primitive import Primitive


def _no_eager(*args, **params):
    raise RuntimeError("The Guard primitive exists only inside compiled graphs.")


guard = Primitive("Guard", _no_eager, nondiff=True, effect=True, hints={"guard": True})
