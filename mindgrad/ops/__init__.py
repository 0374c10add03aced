"""``mindspore.ops``: operator classes, functional operators and the differentiation API."""
from . import composite, functional, operations  # noqa: F401
from .composite import (GradOperation, get_grad, grad, hessian, jacfwd, jacrev,  # noqa: F401
                        jvp, value_and_grad, vjp, vmap)
from .functional import *  # noqa: F401,F403
from .functional import stop_gradient  # noqa: F401
from .operations import *  # noqa: F401,F403
from .operations import Primitive, PrimitiveOp  # noqa: F401
from .taylor import derivative, jet, laplacian, linearize  # noqa: F401
