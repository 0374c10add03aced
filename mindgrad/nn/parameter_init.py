"""``nn.no_init_parameters``: MindSpore's context manager that delays drawing the initial
values of the Parameters made inside it until they are first used (to skip work that a
checkpoint load then overwrites)."""
from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

from ..common.parameter import Parameter


@contextmanager
def no_init_parameters() -> Iterator[None]:
    """Within the block ``Parameter.init_param`` is False (restored after it, also on an
    error), the flag MindSpore's Parameters read to postpone their initialization.
    mindgrad's Parameters hold their values from creation on (``Parameter.init_data`` has
    nothing left to do), so the Parameters made inside are complete and usable at once;
    ``load_checkpoint`` / ``load_param_into_net`` then replace them as usual."""
    before = getattr(Parameter, "init_param", True)
    Parameter.init_param = False
    try:
        yield
    finally:
        Parameter.init_param = before


__all__ = ["no_init_parameters"]
