"""``mindspore.common``: Tensor, Parameter, dtypes, initializers, seeding, checkpoints and
printing."""
from . import dtype, initializer  # noqa: F401
from .dtype import (bool_, complex64, complex128, double, float16, float32,  # noqa: F401
                    float64, float_, half, int8, int16, int32, int64, int_, single, uint8,
                    uint16, uint32, uint64, dtype_to_nptype, pytype_to_dtype)
from .parameter import Parameter, ParameterTuple  # noqa: F401
from .random import set_seed  # noqa: F401
from .serialization import load_checkpoint, load_param_into_net, save_checkpoint  # noqa: F401
from .tensor import Tensor  # noqa: F401


def mutable(input_data, dynamic_len: bool = False):
    """Mark a tuple, list or dict input as variable across compiled calls. mindgrad's
    compiled functions already treat every Tensor inside such inputs as an input, so the
    data comes back as it is."""
    return input_data
