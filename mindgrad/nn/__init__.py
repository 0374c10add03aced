"""``mindspore.nn``: Cell and the layers, losses and optimizers built on it."""
from .cell import Cell  # noqa: F401
from .grad_cells import Jvp, Vjp  # noqa: F401
from .dynamic_lr import (cosine_decay_lr, exponential_decay_lr, inverse_decay_lr,  # noqa: F401
                         natural_exp_decay_lr, piecewise_constant_lr, polynomial_decay_lr,
                         warmup_lr)
from .layers import *  # noqa: F401,F403
from .learning_rate_schedule import (CosineDecayLR, ExponentialDecayLR,  # noqa: F401
                                     InverseDecayLR, LearningRateSchedule, NaturalExpDecayLR,
                                     PolynomialDecayLR, WarmUpLR)
from .loss import (BCELoss, BCEWithLogitsLoss, CrossEntropyLoss, L1Loss, LossBase,  # noqa: F401
                   MSELoss, NLLLoss, SmoothL1Loss, SoftmaxCrossEntropyWithLogits)
from .optim import SGD, Adam, AdamWeightDecay, Momentum, Optimizer, RMSProp  # noqa: F401
from .optim import (ASGD, FTRL, AdaFactor, Adadelta, Adagrad, AdaMax,  # noqa: F401
                    LazyAdam, ProximalAdagrad, Rprop)
from .wrap import (ForwardValueAndGrad, TrainOneStepCell, WithEvalCell,  # noqa: F401
                   WithLossCell)
from .grad_reducer import DistributedGradReducer  # noqa: F401
from .loss_more import (CosineEmbeddingLoss, CTCLoss, DiceLoss, FocalLoss,  # noqa: F401
                        GaussianNLLLoss, HingeEmbeddingLoss, HuberLoss, KLDivLoss, MAELoss,
                        MarginRankingLoss, MultiClassDiceLoss, MultiLabelSoftMarginLoss,
                        MultiMarginLoss, PoissonNLLLoss, RMSELoss,
                        TripletMarginWithDistanceLoss)
from .wrap_cells import ParameterUpdate, WithGradCell  # noqa: F401
from .loss_scale import (DynamicLossScaleUpdateCell, FixedLossScaleUpdateCell,  # noqa: F401
                         TrainOneStepWithLossScaleCell)
from . import metrics  # noqa: E402,F401  (MindSpore keeps the metrics under nn too)
from .metrics import *  # noqa: E402,F401,F403
# nncells family: micro-batch wrappers, sampled softmax, AdamOffload
from .micro_batch import (GradAccumulationCell, MicroBatchInterleaved,  # noqa: E402,F401
                          PipelineCell, VirtualDatasetCellTriple)
from .loss_sampled import SampledSoftmaxLoss  # noqa: E402,F401
from .optim import AdamOffload  # noqa: E402,F401
from .parameter_init import no_init_parameters  # noqa: E402,F401
# lamblars family: LAMB and the LARS wrapper
from .optim import LARS, Lamb  # noqa: E402,F401
