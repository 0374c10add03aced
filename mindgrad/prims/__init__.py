"""The primitives, grouped by kind; each module holds every rule of its primitives."""
from . import shape, reduce, compare, arith, unary, linalg  # noqa: F401  (order: no cycles at import)
from . import indexing, products, reduce_fused, linalg_ext, conv  # noqa: F401,E402  (built on the above)
