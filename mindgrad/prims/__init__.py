"""The primitives, grouped by kind; each module holds every rule of its primitives."""
from . import shape, reduce, compare, arith, unary, linalg  # noqa: F401  (order: no cycles at import)
