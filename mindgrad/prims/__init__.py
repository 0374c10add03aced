"""The primitives, in family files named by content; each block holds a primitive's
implementation and every rule of it. ``structural`` (what the transformations emit) is
the bottom; each module imports only the ones listed before it."""
from . import structural, compare, unary, arith, reduce, getitem, matmul  # noqa: F401
from . import indexing, products, reduce_fused, linalg, conv, control  # noqa: F401
from . import sorting, random, bitwise, loss, optim  # noqa: F401
