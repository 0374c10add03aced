"""``mindspore.ops``: operator classes, functional operators and the differentiation API."""
from . import (composite, differential, functional, hooks, multitype, operations,  # noqa: F401
               primitive, taylor)
from .composite import (GradOperation, get_grad, grad, hessian, jacfwd, jacrev,  # noqa: F401
                        jvp, value_and_grad, vjp, vmap)
from .functional import *  # noqa: F401,F403
from .operations import *  # noqa: F401,F403
from .taylor import derivative, jet, laplacian, linearize  # noqa: F401
from .differential import divergence, hutchinson_laplacian, hvp  # noqa: F401
from .fourth_order import biharmonic, biharmonic_estimate  # noqa: F401
from .multitype import HyperMap, Map, MultitypeFuncGraph, partial  # noqa: F401
from .primitive import prim_attr_register, constexpr  # noqa: F401
from .hooks import HookBackward, InsertGradientOf  # noqa: F401
from .debug_ops import tensordump  # noqa: F401
from . import (array_functions, indexing_functions, linalg_functions,  # noqa: F401
               math_functions, nn_functions, random_ops, sorting)
from .indexing_functions import *  # noqa: F401,F403
from .math_functions import *  # noqa: F401,F403
from .array_functions import *  # noqa: F401,F403
from .linalg_functions import *  # noqa: F401,F403
from .nn_functions import *  # noqa: F401,F403
from .random_ops import *  # noqa: F401,F403
from .sorting import *  # noqa: F401,F403
# array manipulation, segments and scatters, statistics and more random draws
from . import (reshaping_functions, scatter_functions, spatial_functions,  # noqa: F401
               statistics_functions)
from .reshaping_functions import *  # noqa: F401,F403
from .spatial_functions import *  # noqa: F401,F403
from .scatter_functions import *  # noqa: F401,F403
from .statistics_functions import *  # noqa: F401,F403
# nn layers' functions, losses, pooling, 3-D convolution
from . import (layer_functions, loss_functions, pooling_functions,  # noqa: F401
               volume_functions)
from .layer_functions import *  # noqa: F401,F403
from .loss_functions import *  # noqa: F401,F403
from .pooling_functions import *  # noqa: F401,F403
from .volume_functions import *  # noqa: F401,F403
# special functions, decompositions, matrix builders and Fourier transforms
from . import (decompositions, fft_functions, matrix_functions,  # noqa: F401,E402
               special_functions)
from .decompositions import *  # noqa: F401,F403,E402
from .fft_functions import *  # noqa: F401,F403,E402
from .matrix_functions import *  # noqa: F401,F403,E402
from .special_functions import *  # noqa: F401,F403,E402
from . import special_ops  # noqa: E402
from .special_ops import *  # noqa: F401,F403,E402
# resizing
from . import resize_functions  # noqa: E402
from .resize_functions import *  # noqa: F401,F403,E402
# opsfns family: MindSpore's other spellings of existing operators and general utilities
from . import primitive_aliases, utility_functions  # noqa: E402
from .primitive_aliases import *  # noqa: F401,F403,E402
from .utility_functions import *  # noqa: F401,F403,E402
# opsvision family: sampling, boxes, unpooling and fractional pooling
from . import box_functions, sampling_functions, unpool_functions  # noqa: E402
from .box_functions import *  # noqa: F401,F403,E402
from .sampling_functions import *  # noqa: F401,F403,E402
from .unpool_functions import *  # noqa: F401,F403,E402
for _name in special_ops.__all__:  # MindSpore's P.Qr, P.STFT, ...: in ops.operations too
    setattr(operations, _name, getattr(special_ops, _name))
    if _name not in operations.__all__:
        operations.__all__.append(_name)
from . import families, names, tensor_methods  # noqa: F401,E402
from ..core.tensor import Tensor as _Tensor  # noqa: E402

# the one step that links Tensor (which lives below ops) to the front end: its operators
# and the operator catalogue's methods
tensor_methods.install(_Tensor)

# MindSpore's ``ops.functional`` (``F``) also holds the transformations and structure helpers,
# which are built on it (in ``composite``, ``taylor`` and ``multitype``)
for _name in ("grad", "value_and_grad", "get_grad", "vjp", "jvp", "jacfwd", "jacrev", "hessian",
              "vmap", "jet", "derivative", "laplacian", "linearize", "GradOperation", "HyperMap",
              "Map", "MultitypeFuncGraph", "partial"):
    setattr(functional, _name, globals()[_name])
del _name


def _publish(row: names.Row) -> None:
    # a row added to the name table later (names.add): its function and operator classes
    # join this package
    for module, new in ((functional, (row.name, *row.alias)), (operations, row.op)):
        for name in new:
            if name in module.__all__ and name not in __all__:
                globals()[name] = getattr(module, name)
                __all__.append(name)


# ``from mindgrad.ops import *`` gives the operators and transforms, not the modules and
# helpers the submodules import (np, math, the primitive modules A, C, S, ...)
__all__ = sorted({*functional.__all__, *operations.__all__, "GradOperation", "get_grad",
                  "grad", "hessian", "jacfwd", "jacrev", "jvp", "value_and_grad", "vjp",
                  "vmap", "derivative", "jet", "laplacian", "linearize", "hvp", "divergence",
                  "hutchinson_laplacian", "biharmonic", "biharmonic_estimate", "tensordump",
                  *multitype.__all__,
                  *primitive.__all__, *hooks.__all__, *random_ops.__all__,
                  *nn_functions.__all__, *sorting.__all__, *linalg_functions.__all__,
                  *array_functions.__all__, *math_functions.__all__,
                  *indexing_functions.__all__,
                  *reshaping_functions.__all__, *scatter_functions.__all__,
                  *spatial_functions.__all__, *statistics_functions.__all__,
                  *layer_functions.__all__, *loss_functions.__all__,
                  *pooling_functions.__all__, *volume_functions.__all__,
                  *special_functions.__all__, *decompositions.__all__,
                  *matrix_functions.__all__, *fft_functions.__all__,
                  *special_ops.__all__, *resize_functions.__all__,
                  *primitive_aliases.__all__, *utility_functions.__all__,
                  *box_functions.__all__, *sampling_functions.__all__,
                  *unpool_functions.__all__})
names.each_row(_publish)
