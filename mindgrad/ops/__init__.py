"""``mindspore.ops``: operator classes, functional operators and the differentiation API."""
from . import (composite, differential, functional, hooks, multitype, operations,  # noqa: F401
               primitive, taylor)
from .composite import (GradOperation, get_grad, grad, hessian, jacfwd, jacrev,  # noqa: F401
                        jvp, value_and_grad, vjp, vmap)
from .functional import *  # noqa: F401,F403
from .operations import *  # noqa: F401,F403
from .taylor import derivative, jet, laplacian, linearize  # noqa: F401
from .differential import divergence, hutchinson_laplacian, hvp  # noqa: F401
from .multitype import HyperMap, Map, MultitypeFuncGraph, partial  # noqa: F401
from .primitive import prim_attr_register, constexpr  # noqa: F401
from .hooks import HookBackward, InsertGradientOf  # noqa: F401
from . import (array_functions, indexing_functions, linalg_functions,  # noqa: F401
               math_functions, nn_functions, random_ops, sorting)
from .indexing_functions import *  # noqa: F401,F403
from .math_functions import *  # noqa: F401,F403
from .array_functions import *  # noqa: F401,F403
from .linalg_functions import *  # noqa: F401,F403
from .nn_functions import *  # noqa: F401,F403
from .random_ops import *  # noqa: F401,F403
from .sorting import *  # noqa: F401,F403
from . import tensor_methods  # noqa: F401,E402  (installs the catalogue's Tensor methods)

# ``from mindgrad.ops import *`` gives the operators and transforms, not the modules and
# helpers the submodules import (np, math, the primitive modules A, C, S, ...)
__all__ = sorted({*functional.__all__, *operations.__all__, "GradOperation", "get_grad",
                  "grad", "hessian", "jacfwd", "jacrev", "jvp", "value_and_grad", "vjp",
                  "vmap", "derivative", "jet", "laplacian", "linearize", "hvp", "divergence",
                  "hutchinson_laplacian", *multitype.__all__,
                  *primitive.__all__, *hooks.__all__, *random_ops.__all__,
                  *nn_functions.__all__, *sorting.__all__, *linalg_functions.__all__,
                  *array_functions.__all__, *math_functions.__all__,
                  *indexing_functions.__all__})
