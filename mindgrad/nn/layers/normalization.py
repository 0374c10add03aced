"""Normalization layers: BatchNorm1d, BatchNorm2d, BatchNorm3d, SyncBatchNorm, LayerNorm,
GroupNorm and LRN."""
from __future__ import annotations

from typing import Any, Sequence

from ...core import dtype as mstype
from ...common.initializer import initializer
from ...common.parameter import Parameter
from ...core.tensor import Tensor
from ...ops import functional as F
from ...ops import layer_functions as LF
from ..cell import Cell
from .basic import check_positive_int
from .sync_batch_norm import global_batch_statistics, sync_group


def _normalize(x: Tensor, mean: Tensor, var: Tensor, eps: float) -> Tensor:
    return F.mul(F.sub(x, mean), F.rsqrt(F.add(var, eps)))


class _BatchNorm(Cell):
    """Batch normalization over every axis but the channel axis.

    In training (or with ``use_batch_statistics=True``) the batch mean and (biased) variance
    normalize the input and the moving statistics are updated as
    ``moving = momentum * moving + (1 - momentum) * batch`` (MindSpore's convention; the
    moving variance takes the unbiased batch variance, as MindSpore 2.10's CPU kernel
    does). In eval (or with ``use_batch_statistics=False``) the moving statistics are
    used."""

    _ranks: tuple = ()

    def __init__(self, num_features: int, eps: float = 1e-5, momentum: float = 0.9,
                 affine: bool = True, gamma_init: Any = "ones", beta_init: Any = "zeros",
                 moving_mean_init: Any = "zeros", moving_var_init: Any = "ones",
                 use_batch_statistics: bool | None = None, data_format: str = "NCHW",
                 dtype: Any = mstype.float32) -> None:
        super().__init__()
        name = type(self).__name__
        self.num_features = check_positive_int(num_features, "num_features", name)
        if isinstance(momentum, bool) or not isinstance(momentum, (int, float)) \
                or not 0.0 <= momentum <= 1.0:
            raise ValueError(f"For '{name}', 'momentum' must be in range [0, 1], but got "
                             f"{momentum!r}.")
        if not isinstance(eps, (int, float)) or eps <= 0:
            raise ValueError(f"For '{name}', 'eps' must be a positive number, but got {eps!r}.")
        if data_format not in ("NCHW", "NHWC"):
            raise ValueError(f"For '{name}', 'data_format' must be 'NCHW' or 'NHWC', but got "
                             f"{data_format!r}.")
        if use_batch_statistics not in (None, True, False):
            raise TypeError(f"For '{name}', 'use_batch_statistics' must be a bool or None.")
        self.eps, self.momentum = float(eps), float(momentum)
        self.affine, self.use_batch_statistics = bool(affine), use_batch_statistics
        self.format = data_format
        c = [num_features]
        self.gamma = Parameter(initializer(gamma_init, c, dtype), requires_grad=self.affine)
        self.beta = Parameter(initializer(beta_init, c, dtype), requires_grad=self.affine)
        self.moving_mean = Parameter(initializer(moving_mean_init, c, dtype), requires_grad=False)
        self.moving_variance = Parameter(initializer(moving_var_init, c, dtype),
                                         requires_grad=False)

    def _channel_axis(self, ndim: int) -> int:
        return ndim - 1 if self.format == "NHWC" else 1

    def construct(self, x: Tensor) -> Tensor:
        name = type(self).__name__
        if x.ndim not in self._ranks:
            raise ValueError(f"For '{name}', the input must have rank in {list(self._ranks)}, "
                             f"but got shape {list(x.shape)}.")
        ch = self._channel_axis(x.ndim)
        if x.shape[ch] != self.num_features:
            raise ValueError(f"For '{name}', the input has {x.shape[ch]} channels on axis "
                             f"{ch} but num_features is {self.num_features}.")
        axes = tuple(a for a in range(x.ndim) if a != ch)
        shape = tuple(self.num_features if a == ch else 1 for a in range(x.ndim))
        use_batch = self.training if self.use_batch_statistics is None \
            else self.use_batch_statistics
        if use_batch:
            mean, var, unbiased = self._batch_statistics(x, axes)
            self._update_moving(mean, var, unbiased)
        else:
            mean = F.reshape(self.moving_mean, shape)
            var = F.reshape(self.moving_variance, shape)
        y = _normalize(x, mean, var, self.eps)
        return F.add(F.mul(y, F.reshape(self.gamma, shape)), F.reshape(self.beta, shape))

    def _batch_statistics(self, x: Tensor, axes: tuple) -> tuple:
        """``(mean, var, unbiased)``: the batch mean and biased variance over ``axes``
        (kept), and the factor ``n / (n - 1)`` making the variance unbiased."""
        mean = F.reduce_mean(x, axes, True)
        var = F.reduce_mean(F.square(F.sub(x, mean)), axes, True)
        count = x.size // self.num_features
        return mean, var, count / max(count - 1, 1)

    def _update_moving(self, mean: Tensor, var: Tensor, unbiased: Any) -> None:
        m = self.momentum
        c = (self.num_features,)
        batch_mean = F.reshape(F.stop_gradient(mean), c)
        if isinstance(unbiased, Tensor):
            unbiased = F.reshape(unbiased, c)
        # the moving variance takes the unbiased batch variance
        batch_var = F.mul(F.reshape(F.stop_gradient(var), c), unbiased)
        self.moving_mean.set_data(F.add(F.mul(self.moving_mean, m), F.mul(batch_mean, 1 - m)))
        self.moving_variance.set_data(F.add(F.mul(self.moving_variance, m),
                                            F.mul(batch_var, 1 - m)))

    def extend_repr(self) -> str:
        return (f"num_features={self.num_features}, eps={self.eps}, momentum={self.momentum}, "
                f"gamma={self.gamma}, beta={self.beta}, moving_mean={self.moving_mean}, "
                f"moving_variance={self.moving_variance}")


class BatchNorm1d(_BatchNorm):
    """Batch normalization of ``(N, C)`` or ``(N, C, L)`` inputs."""

    _ranks = (2, 3)


class BatchNorm2d(_BatchNorm):
    """Batch normalization of ``(N, C, H, W)`` inputs (or ``(N, H, W, C)`` with
    ``data_format='NHWC'``)."""

    _ranks = (4,)


class LayerNorm(Cell):
    """Normalizes over the axes from ``begin_norm_axis`` to the last, then scales by ``gamma``
    and shifts by ``beta`` (both of shape ``normalized_shape``, which must equal the input's
    trailing dimensions from ``begin_params_axis``)."""

    def __init__(self, normalized_shape: Sequence[int], begin_norm_axis: int = -1,
                 begin_params_axis: int = -1, gamma_init: Any = "ones", beta_init: Any = "zeros",
                 epsilon: float = 1e-7, dtype: Any = mstype.float32) -> None:
        super().__init__()
        if not isinstance(normalized_shape, (tuple, list)):
            raise TypeError(f"For 'LayerNorm', 'normalized_shape' must be a tuple or list, "
                            f"but got {type(normalized_shape).__name__}.")
        self.normalized_shape = tuple(normalized_shape)
        self.begin_norm_axis, self.begin_params_axis = begin_norm_axis, begin_params_axis
        self.epsilon = float(epsilon)
        self.gamma = Parameter(initializer(gamma_init, list(normalized_shape), dtype))
        self.beta = Parameter(initializer(beta_init, list(normalized_shape), dtype))

    def construct(self, x: Tensor) -> Tensor:
        n = x.ndim
        if not -n <= self.begin_norm_axis < n or not -n <= self.begin_params_axis < n:
            raise ValueError(f"For 'LayerNorm', begin_norm_axis={self.begin_norm_axis} and "
                             f"begin_params_axis={self.begin_params_axis} must be in range "
                             f"[{-n}, {n}) for an input of shape {list(x.shape)}.")
        if x.shape[self.begin_params_axis % n:] != self.normalized_shape:
            raise ValueError(f"For 'LayerNorm', the input's trailing dimensions "
                             f"{list(x.shape[self.begin_params_axis % n:])} must equal "
                             f"normalized_shape {list(self.normalized_shape)}.")
        axes = tuple(range(self.begin_norm_axis % n, n))
        mean = F.reduce_mean(x, axes, True)
        var = F.reduce_mean(F.square(F.sub(x, mean)), axes, True)
        y = _normalize(x, mean, var, self.epsilon)
        return F.add(F.mul(y, self.gamma), self.beta)

    def extend_repr(self) -> str:
        return (f"normalized_shape={list(self.normalized_shape)}, "
                f"begin_norm_axis={self.begin_norm_axis}, "
                f"begin_params_axis={self.begin_params_axis}, gamma={self.gamma}, "
                f"beta={self.beta}")


__all__ = ["BatchNorm1d", "BatchNorm2d", "LayerNorm"]


# --- more of MindSpore's normalisation Cells --------------------------------------------------
class BatchNorm3d(Cell):
    """Batch normalization of ``(N, C, D, H, W)`` inputs: a ``BatchNorm2d`` (``bn2d``, so
    the Parameters are ``bn2d.gamma``, ... as in MindSpore's checkpoints) of the input seen
    as ``(N, C, D * H, W)``."""

    def __init__(self, num_features: int, eps: float = 1e-5, momentum: float = 0.9,
                 affine: bool = True, gamma_init: Any = "ones", beta_init: Any = "zeros",
                 moving_mean_init: Any = "zeros", moving_var_init: Any = "ones",
                 use_batch_statistics: bool | None = None, dtype: Any = mstype.float32) -> None:
        super().__init__()
        self.bn2d = BatchNorm2d(num_features, eps, momentum, affine, gamma_init, beta_init,
                                moving_mean_init, moving_var_init, use_batch_statistics,
                                dtype=dtype)

    def construct(self, x: Tensor) -> Tensor:
        if x.ndim != 5:
            raise ValueError(f"For 'BatchNorm3d', the input must be 5-D (N, C, D, H, W), but "
                             f"got shape {list(x.shape)}.")
        n, c, d, h, w = x.shape
        y = self.bn2d(F.reshape(x, (n, c, d * h, w)))
        return F.reshape(y, (n, c, d, h, w))


class SyncBatchNorm(_BatchNorm):
    """Batch normalization of ``(N, C)``, ``(N, C, L)`` or ``(N, C, H, W)`` inputs whose
    batch statistics cover the examples of every rank of a group under MPI data
    parallelism.

    ``process_groups``: None synchronizes all ranks (once ``init()`` has run with more
    than one process); a list of lists of world ranks (``[[0, 1], [2, 3]]``, each rank in
    at most one list, all in ``[0, group size)``) synchronizes each list's ranks among
    themselves, a rank in no list or alone in its list normalizing on its own; 0 turns the
    synchronization off. The groups are made at construction, so every rank of a list
    constructs the layer at the same point of its program.

    Wherever batch statistics are used (training, or ``use_batch_statistics=True``), the
    mean and variance are those of the group's whole batch (one all-reduce of per-rank
    sums, sums of squares and counts, which the gradient all-reduces in turn) and every
    rank updates its moving statistics alike from them; the moving statistics normalize
    otherwise. Alone (one process, or no group to synchronize with) it is ``BatchNorm``
    exactly."""

    _ranks = (2, 3, 4)

    def __init__(self, num_features: int, eps: float = 1e-5, momentum: float = 0.9,
                 affine: bool = True, gamma_init: Any = "ones", beta_init: Any = "zeros",
                 moving_mean_init: Any = "zeros", moving_var_init: Any = "ones",
                 use_batch_statistics: bool | None = None, process_groups: Any = None,
                 dtype: Any = mstype.float32) -> None:
        super().__init__(num_features, eps, momentum, affine, gamma_init, beta_init,
                         moving_mean_init, moving_var_init, use_batch_statistics, dtype=dtype)
        self.group_name = sync_group(process_groups, "SyncBatchNorm")
        self.is_global = self.group_name is not None
        self.process_groups = process_groups

    def _batch_statistics(self, x: Tensor, axes: tuple) -> tuple:
        if self.group_name is None:
            return super()._batch_statistics(x, axes)
        return global_batch_statistics(x, axes, self.group_name)


class GroupNorm(Cell):
    """Normalizes ``(N, C, ...)`` inputs over each of ``num_groups`` groups of channels
    (with the other axes), then scales by ``gamma`` and shifts by ``beta`` (per channel)."""

    def __init__(self, num_groups: int, num_channels: int, eps: float = 1e-05,
                 affine: bool = True, gamma_init: Any = "ones", beta_init: Any = "zeros",
                 dtype: Any = mstype.float32) -> None:
        super().__init__()
        self.num_groups = check_positive_int(num_groups, "num_groups", "GroupNorm")
        self.num_channels = check_positive_int(num_channels, "num_channels", "GroupNorm")
        if num_channels % num_groups:
            raise ValueError(f"For 'GroupNorm', the 'num_channels' must be divided by "
                             f"'num_groups', but got 'num_channels': {num_channels}, "
                             f"'num_groups': {num_groups}.")
        if isinstance(eps, bool) or not isinstance(eps, (int, float)) or eps <= 0:
            raise ValueError(f"For 'GroupNorm', 'eps' must be a positive number, but got "
                             f"{eps!r}.")
        self.eps, self.affine = float(eps), bool(affine)
        c = [num_channels]
        self.gamma = Parameter(initializer(gamma_init, c, dtype), requires_grad=self.affine)
        self.beta = Parameter(initializer(beta_init, c, dtype), requires_grad=self.affine)

    def construct(self, x: Tensor) -> Tensor:
        if x.ndim < 2 or x.shape[1] != self.num_channels:
            raise ValueError(f"For 'GroupNorm', the input must be (N, {self.num_channels}, "
                             f"...), but got shape {list(x.shape)}.")
        return LF.group_norm(x, self.num_groups, self.gamma, self.beta, self.eps)

    def extend_repr(self) -> str:
        return f"num_groups={self.num_groups}, num_channels={self.num_channels}"


class LRN(Cell):
    """Local response normalization across channels (see ``ops.lrn``)."""

    def __init__(self, depth_radius: int = 5, bias: float = 1.0, alpha: float = 1.0,
                 beta: float = 0.5, norm_region: str = "ACROSS_CHANNELS") -> None:
        super().__init__()
        if isinstance(depth_radius, bool) or not isinstance(depth_radius, int):
            raise TypeError(f"For 'LRN', 'depth_radius' must be an int, but got "
                            f"{type(depth_radius).__name__}.")
        for name, v in (("bias", bias), ("alpha", alpha), ("beta", beta)):
            if isinstance(v, bool) or not isinstance(v, float):
                raise TypeError(f"For 'LRN', '{name}' must be a float, but got "
                                f"{type(v).__name__}.")
        if norm_region != "ACROSS_CHANNELS":
            raise ValueError(f"For 'LRN', 'norm_region' must be 'ACROSS_CHANNELS', but got "
                             f"{norm_region!r}.")
        self.depth_radius, self.bias, self.alpha, self.beta = depth_radius, bias, alpha, beta
        self.norm_region = norm_region

    def construct(self, x: Tensor) -> Tensor:
        return LF.lrn(x, self.depth_radius, self.bias, self.alpha, self.beta, self.norm_region)


__all__ += ["BatchNorm3d", "SyncBatchNorm", "GroupNorm", "LRN"]
