"""``nn.LARS``: layer-wise adaptive rate scaling (You et al., "Large Batch Training of
Convolutional Networks") as a wrapper that rescales the gradients of another optimizer."""
from __future__ import annotations

from typing import Any, Callable

from ...common.parameter import Parameter
from ...core import dtype as mstype
from ...core.tensor import Tensor
from ...ops import functional as F
from .lamb import cast_to, l2_norm, widened
from .optimizer import Optimizer


def _default_lars_filter(p: Parameter) -> bool:
    """MindSpore's default: every parameter but LayerNorm's and the biases."""
    return "LayerNorm" not in p.name and "bias" not in p.name


class LARS(Optimizer):
    """Wraps ``optimizer`` (usually ``nn.Momentum``): each step replaces the gradient ``g`` of
    every parameter ``w`` that passes ``lars_filter`` by

    ``coeff * (g + wd * w)``, ``coeff = coefficient * ||w|| / (||g|| + wd * ||w|| + epsilon)``

    where ``wd`` is the wrapped optimizer's weight decay of ``w`` (0 for a parameter that
    does not decay); with ``use_clip`` the coefficient becomes
    ``clip(coeff / lr, 0, 1)``, ``lr`` the wrapped optimizer's rate of this step. Then the
    wrapped optimizer steps with these gradients.

    As in MindSpore, the wrapper takes over the wrapped optimizer's weight decay and loss
    scale: the wrapped optimizer no longer decays any parameter (so a parameter that
    ``lars_filter`` leaves out gets no weight decay at all) and the wrapper divides the
    gradients by the loss scale before rescaling them. The wrapper shares the wrapped
    optimizer's ``global_step`` and holds MindSpore's own two Parameters (``fake_param`` and
    ``fake_lr``) so that checkpoints have the same entries."""

    def __init__(self, optimizer: Optimizer, epsilon: float = 1e-05, coefficient: float = 0.001,
                 use_clip: bool = False,
                 lars_filter: Callable[[Parameter], bool] = _default_lars_filter) -> None:
        fake = Parameter(Tensor(0.0, mstype.float32), name="fake_param", requires_grad=False)
        super().__init__(0.0, [fake])
        if not isinstance(optimizer, Optimizer):
            raise TypeError(f"For 'LARS', the type of 'optimizer' must be Optimizer, but got "
                            f"{type(optimizer).__name__}.")
        for name, value in (("epsilon", epsilon), ("coefficient", coefficient)):
            if isinstance(value, bool) or not isinstance(value, float):
                raise TypeError(f"For 'LARS', the type of '{name}' must be float, but got "
                                f"{type(value).__name__}.")
        if not isinstance(use_clip, bool):
            raise TypeError(f"For 'LARS', the type of 'use_clip' must be bool, but got "
                            f"{type(use_clip).__name__}.")
        if not callable(lars_filter):
            raise TypeError(f"For 'LARS', 'lars_filter' must be a function of a Parameter, "
                            f"but got {type(lars_filter).__name__}.")
        if use_clip and optimizer.is_group_lr and optimizer.dynamic_lr:
            raise ValueError("For 'LARS', if the argument 'use_clip' is set to True, then the "
                             "dynamic learning rate and group learning rate cannot both be "
                             "true.")
        self.fake_param = fake  # MindSpore's base takes this stand-in parameter list
        self.opt = optimizer
        self.epsilon, self.coefficient, self.use_clip = epsilon, coefficient, use_clip
        self.global_step = optimizer.global_step
        self.parameters = optimizer.parameters
        self.is_group = optimizer.is_group
        self.weight_decay = optimizer.weight_decay
        self.decay_flags = optimizer.decay_flags
        self.loss_scale = optimizer.loss_scale
        self.reciprocal_scale = optimizer.reciprocal_scale
        self.lars_flag = tuple(bool(lars_filter(p)) for p in self.parameters)
        self._lars_decays = list(optimizer._decays)
        # MindSpore's wrapper keeps a Parameter 'fake_lr' as its learning rate
        self.learning_rate = Parameter(Tensor(0.0, mstype.float32), name="fake_lr",
                                       requires_grad=False)
        # the wrapped optimizer no longer decays or unscales: this wrapper does both
        optimizer._drop_weight_decay()
        optimizer.reciprocal_scale = 1.0

    def get_lr(self) -> Any:
        """MindSpore's wrapper answers its own stand-in rate ``fake_lr`` (0.0); the step
        count it shares with the wrapped optimizer is left alone."""
        return self.learning_rate

    def construct(self, gradients: Any) -> Any:
        grads = self.scale_grad(self._check_grads(gradients))
        lrs = self.opt._current_lrs() if self.use_clip else None
        out = []
        for i, (p, g) in enumerate(zip(self.parameters, grads)):
            if not self.lars_flag[i]:
                out.append(g)
                continue
            wd = self._lars_decays[i]
            w_norm = l2_norm(p)
            denom = F.add(l2_norm(g), self.epsilon)
            dtype = g.dtype
            if wd:
                denom = F.add(denom, F.mul(w_norm, wd))
                g = F.add(g, F.mul(p, wd))
            coeff = F.div(F.mul(w_norm, self.coefficient), denom)
            if self.use_clip:
                coeff = F.clamp(F.div(coeff, lrs[i]), 0.0, 1.0)
            # (a float16 gradient stays float16: the norms are float32)
            out.append(cast_to(F.mul(widened(g), coeff), dtype))
        return self.opt(tuple(out))


__all__ = ["LARS"]
