"""``mindspore.ops``: operator classes, functional operators and the differentiation API."""
from . import composite, functional, operations  # noqa: F401
from .composite import (GradOperation, get_grad, grad, jacfwd, jacrev, jvp,  # noqa: F401
                        value_and_grad, vjp)
from .functional import *  # noqa: F401,F403
from .functional import stop_gradient  # noqa: F401
from .operations import *  # noqa: F401,F403
from .operations import Primitive, PrimitiveOp  # noqa: F401
