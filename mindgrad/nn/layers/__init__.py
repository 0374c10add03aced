"""The layers of ``mindspore.nn``: basic, convolution, pooling, normalization, activation,
embedding and container Cells."""
from .activation import (ELU, GELU, HSigmoid, HSwish, LeakyReLU, LogSoftmax, Mish,  # noqa: F401
                         ReLU, ReLU6, SiLU, Sigmoid, Softmax, Softplus, Tanh, get_activation)
from .activation import (CELU, GLU, FastGelu, Hardtanh, HShrink, LogSigmoid,  # noqa: F401
                         PReLU, RReLU, SeLU, Softmax2d, Softmin, Softsign, SoftShrink,
                         Tanhshrink, Threshold)
from .basic import Dense, Dropout, Flatten, Identity, MatMul  # noqa: F401
from .container import CellDict, CellList, SequentialCell  # noqa: F401
from .conv import Conv2d  # noqa: F401
from .embedding import Embedding  # noqa: F401
from .normalization import BatchNorm1d, BatchNorm2d, LayerNorm  # noqa: F401
from .normalization import LRN, BatchNorm3d, GroupNorm, SyncBatchNorm  # noqa: F401
from .misc_cells import (BiDense, ClipByNorm, Dropout1d, Dropout2d, Dropout3d,  # noqa: F401
                         L1Regularizer, TimeDistributed)
from .activation import PReLUExt  # noqa: F401
from .image import CentralCrop, ImageGradients  # noqa: F401
from .pooling import AvgPool2d, MaxPool2d  # noqa: F401

__all__ = ["ELU", "GELU", "HSigmoid", "HSwish", "LeakyReLU", "LogSoftmax", "Mish", "ReLU", "ReLU6",
           "SiLU", "Sigmoid", "Softmax", "Softplus", "Tanh", "get_activation", "Dense", "Dropout",
           "Flatten", "Identity", "MatMul", "CellDict", "CellList", "SequentialCell", "Conv2d", "Embedding",
           "BatchNorm1d", "BatchNorm2d", "LayerNorm", "AvgPool2d", "MaxPool2d"]
__all__ += ["CELU", "GLU", "FastGelu", "Hardtanh", "HShrink", "LogSigmoid", "PReLU", "RReLU",
            "SeLU", "Softmax2d", "Softmin", "Softsign", "SoftShrink", "Tanhshrink", "Threshold",
            "LRN", "BatchNorm3d", "GroupNorm", "SyncBatchNorm", "BiDense", "ClipByNorm",
            "Dropout1d", "Dropout2d", "Dropout3d", "L1Regularizer", "TimeDistributed",
            "PReLUExt", "CentralCrop", "ImageGradients"]

# recurrent layers and cells
from . import rnns as _rnns  # noqa: E402
from .rnns import *  # noqa: E402,F401,F403
__all__ += _rnns.__all__
# attention and Transformer layers
from . import transformer as _transformer  # noqa: E402
from .transformer import *  # noqa: E402,F401,F403
__all__ += _transformer.__all__
# 1-D and transposed convolutions
from .conv import Conv1d, Conv1dTranspose, Conv2dTranspose  # noqa: E402,F401
__all__ += ["Conv1d", "Conv1dTranspose", "Conv2dTranspose"]
# 1-D, adaptive and power-average pooling
from . import pooling_1d_adaptive as _pooling_1d_adaptive  # noqa: E402
from .pooling_1d_adaptive import *  # noqa: E402,F401,F403
__all__ += _pooling_1d_adaptive.__all__
# padding, shuffling, reshaping and small math layers
from . import array_layers as _array_layers, padding as _padding  # noqa: E402
from .array_layers import *  # noqa: E402,F401,F403
from .padding import *  # noqa: E402,F401,F403
__all__ += _array_layers.__all__ + _padding.__all__
# 3-D convolution and pooling
from .volume import AvgPool3d, Conv3d, Conv3dTranspose, MaxPool3d  # noqa: E402,F401
__all__ += ["AvgPool3d", "Conv3d", "Conv3dTranspose", "MaxPool3d"]
# unpooling and fractional max pooling
from . import unpooling as _unpooling  # noqa: E402
from .unpooling import *  # noqa: E402,F401,F403
__all__ += _unpooling.__all__
# nncells family: special-function, PyTorch-style, lookup, combined, sparse and image-quality
from . import (combined as _combined, embedding_lookup as _embedding_lookup,  # noqa: E402
               ext_layers as _ext_layers, image_quality as _image_quality,
               sparse_cells as _sparse_cells, special_cells as _special_cells)
from .combined import *  # noqa: E402,F401,F403
from .embedding_lookup import *  # noqa: E402,F401,F403
from .ext_layers import *  # noqa: E402,F401,F403
from .image_quality import *  # noqa: E402,F401,F403
from .sparse_cells import *  # noqa: E402,F401,F403
from .special_cells import *  # noqa: E402,F401,F403
__all__ += (_combined.__all__ + _embedding_lookup.__all__ + _ext_layers.__all__
            + _image_quality.__all__ + _sparse_cells.__all__ + _special_cells.__all__)
# the layers of the THOR optimizer (Dense, Embedding, EmbeddingLookup keeping its statistics)
from .thor_layers import DenseThor, EmbeddingLookupThor, EmbeddingThor  # noqa: E402,F401
__all__ += ["DenseThor", "EmbeddingLookupThor", "EmbeddingThor"]
