"""``mindspore.common.initializer``: initial values for Parameters.

``initializer(init, shape, dtype)`` builds a Tensor from an ``Initializer`` object, its alias
string (``'normal'``, ``'zeros'``, ``'xavier_uniform'``, ``'he_uniform'``, ...), a number
(a constant) or a Tensor (returned after its shape is checked). Random initializers draw
from the seeded generator (``mindspore.set_seed``), in float64, and the result is cast to
``dtype``. Formulas follow MindSpore's documentation; fans are computed as MindSpore does:
``fan_in = shape[1] * prod(shape[2:])`` and ``fan_out = shape[0] * prod(shape[2:])``."""
from __future__ import annotations

import math
import numbers
from typing import Any, Sequence

import numpy as np

from ..core import dtype as mstype
from .random import generator
from ..core.tensor import Tensor

_ALIASES: dict[str, type] = {}


def _register(*aliases: str):
    def deco(cls: type) -> type:
        _ALIASES.setdefault(cls.__name__.lower(), cls)
        for a in aliases:
            _ALIASES.setdefault(a, cls)
        return cls

    return deco


class Initializer:
    """Base class: subclasses define ``_sample(shape) -> np.ndarray`` (float64).

    Calling an initializer on a NumPy array fills it in place, as in MindSpore."""

    def __init__(self, **kwargs: Any) -> None:
        self._kwargs = kwargs

    def _sample(self, shape: tuple) -> np.ndarray:
        raise NotImplementedError(f"{type(self).__name__} must define _sample().")

    def _fill(self, shape: Sequence[int], np_dtype: Any) -> np.ndarray:
        """A new array of ``shape`` holding this initializer's values (used by ``Tensor``)."""
        return np.asarray(self._sample(tuple(shape))).astype(np_dtype, copy=False)

    def __call__(self, arr: np.ndarray) -> np.ndarray:
        arr[...] = self._sample(tuple(arr.shape))
        return arr

    def __repr__(self) -> str:
        args = ", ".join(f"{k}={v!r}" for k, v in self._kwargs.items())
        return f"{type(self).__name__}({args})"


def _fans(shape: tuple) -> tuple[int, int]:
    if len(shape) < 2:
        raise ValueError(f"'fan_in' and 'fan_out' can not be computed for tensor with fewer "
                         f"than 2 dimensions, but got dimensions {len(shape)}.")
    receptive = math.prod(shape[2:])
    return shape[1] * receptive, shape[0] * receptive


def _fan(shape: tuple, mode: str) -> int:
    mode = mode.lower()
    if mode not in ("fan_in", "fan_out"):
        raise ValueError(f"'mode' {mode} not supported, please use one of ['fan_in', 'fan_out']")
    fan_in, fan_out = _fans(shape)
    return fan_in if mode == "fan_in" else fan_out


def calculate_gain(nonlinearity: str, param: Any = None) -> float:
    """The recommended gain for a nonlinearity (as ``HeUniform``/``HeNormal`` use it)."""
    if nonlinearity in ("linear", "conv1d", "conv2d", "conv3d", "conv_transpose1d",
                        "conv_transpose2d", "conv_transpose3d", "sigmoid"):
        return 1.0
    if nonlinearity == "tanh":
        return 5.0 / 3
    if nonlinearity == "relu":
        return math.sqrt(2.0)
    if nonlinearity == "leaky_relu":
        slope = 0.01 if param is None else param
        if isinstance(slope, bool) or not isinstance(slope, (int, float)):
            raise ValueError(f"'negative_slope' {slope!r} is not a valid number.")
        return math.sqrt(2.0 / (1 + slope ** 2))
    if nonlinearity == "selu":
        return 3.0 / 4
    raise ValueError(f"The argument 'nonlinearity' should be one of ['linear', 'sigmoid', "
                     f"'tanh', 'relu', 'leaky_relu', 'selu'], but got {nonlinearity!r}.")


def _uniform(bound: float, shape: tuple) -> np.ndarray:
    return generator().uniform(-bound, bound, shape)


def _normal(mean: float, sigma: float, shape: tuple) -> np.ndarray:
    if sigma < 0:
        raise ValueError(f"The standard deviation must be non-negative, but got {sigma}.")
    return generator().normal(mean, sigma, shape)


def _truncated(mean: float, sigma: float, a: float, b: float, shape: tuple) -> np.ndarray:
    """Normal(mean, sigma) restricted to [a, b] (absolute bounds), by resampling."""
    if a >= b:
        raise ValueError(f"TruncatedNormal needs a < b, but got a={a}, b={b}.")
    out = _normal(mean, sigma, shape)
    bad = (out < a) | (out > b)
    for _ in range(1000):
        if not bad.any():
            return out
        out[bad] = _normal(mean, sigma, (int(bad.sum()),))
        bad = (out < a) | (out > b)
    return np.clip(out, a, b)


@_register("zeros")
class Zero(Initializer):
    """All zeros."""

    def _sample(self, shape: tuple) -> np.ndarray:
        return np.zeros(shape)


@_register("ones")
class One(Initializer):
    """All ones."""

    def _sample(self, shape: tuple) -> np.ndarray:
        return np.ones(shape)


class Constant(Initializer):
    """Every element equals ``value``."""

    def __init__(self, value: Any) -> None:
        super().__init__(value=value)
        self.value = value

    def _sample(self, shape: tuple) -> np.ndarray:
        return np.full(shape, self.value, dtype=np.result_type(self.value, np.float64))


@_register()
class Normal(Initializer):
    """Samples from N(mean, sigma^2)."""

    def __init__(self, sigma: float = 0.01, mean: float = 0.0) -> None:
        super().__init__(sigma=sigma, mean=mean)
        self.sigma, self.mean = sigma, mean

    def _sample(self, shape: tuple) -> np.ndarray:
        return _normal(self.mean, self.sigma, shape)


@_register()
class Uniform(Initializer):
    """Samples from U(-scale, scale)."""

    def __init__(self, scale: float = 0.07) -> None:
        super().__init__(scale=scale)
        self.scale = scale

    def _sample(self, shape: tuple) -> np.ndarray:
        return _uniform(self.scale, shape)


@_register("truncated_normal")
class TruncatedNormal(Initializer):
    """Samples from N(mean, sigma^2) restricted to the interval [a, b]."""

    def __init__(self, sigma: float = 0.01, mean: float = 0.0, a: float = -2.0,
                 b: float = 2.0) -> None:
        super().__init__(sigma=sigma, mean=mean, a=a, b=b)
        self.sigma, self.mean, self.a, self.b = sigma, mean, a, b

    def _sample(self, shape: tuple) -> np.ndarray:
        return _truncated(self.mean, self.sigma, self.a, self.b, shape)


@_register("xavier_uniform")
class XavierUniform(Initializer):
    """Samples from U(-b, b) with ``b = gain * sqrt(6 / (fan_in + fan_out))``."""

    def __init__(self, gain: float = 1) -> None:
        super().__init__(gain=gain)
        self.gain = gain

    def _sample(self, shape: tuple) -> np.ndarray:
        fan_in, fan_out = _fans(shape)
        return _uniform(self.gain * math.sqrt(6.0 / (fan_in + fan_out)), shape)


@_register("xavier_normal")
class XavierNormal(Initializer):
    """Samples from N(0, s^2) with ``s = gain * sqrt(2 / (fan_in + fan_out))``."""

    def __init__(self, gain: float = 1) -> None:
        super().__init__(gain=gain)
        self.gain = gain

    def _sample(self, shape: tuple) -> np.ndarray:
        fan_in, fan_out = _fans(shape)
        return _normal(0.0, self.gain * math.sqrt(2.0 / (fan_in + fan_out)), shape)


@_register("he_uniform")
class HeUniform(Initializer):
    """Kaiming uniform: U(-b, b) with ``b = gain * sqrt(3 / fan_mode)`` and
    ``gain = calculate_gain(nonlinearity, negative_slope)``."""

    def __init__(self, negative_slope: float = 0, mode: str = "fan_in",
                 nonlinearity: str = "leaky_relu") -> None:
        super().__init__(negative_slope=negative_slope, mode=mode, nonlinearity=nonlinearity)
        self.negative_slope, self.mode, self.nonlinearity = negative_slope, mode, nonlinearity

    def _sample(self, shape: tuple) -> np.ndarray:
        gain = calculate_gain(self.nonlinearity, self.negative_slope)
        return _uniform(gain * math.sqrt(3.0 / _fan(shape, self.mode)), shape)


@_register("he_normal")
class HeNormal(Initializer):
    """Kaiming normal: N(0, s^2) with ``s = gain / sqrt(fan_mode)``."""

    def __init__(self, negative_slope: float = 0, mode: str = "fan_in",
                 nonlinearity: str = "leaky_relu") -> None:
        super().__init__(negative_slope=negative_slope, mode=mode, nonlinearity=nonlinearity)
        self.negative_slope, self.mode, self.nonlinearity = negative_slope, mode, nonlinearity

    def _sample(self, shape: tuple) -> np.ndarray:
        gain = calculate_gain(self.nonlinearity, self.negative_slope)
        return _normal(0.0, gain / math.sqrt(_fan(shape, self.mode)), shape)


@_register()
class Identity(Initializer):
    """A 2-D identity matrix (ones on the main diagonal)."""

    def _sample(self, shape: tuple) -> np.ndarray:
        if len(shape) != 2:
            raise ValueError(f"For Identity initializer, the dimension of the initialized "
                             f"tensor should be 2, but got {len(shape)}.")
        return np.eye(shape[0], shape[1])


@_register()
class Orthogonal(Initializer):
    """A (semi-)orthogonal matrix times ``gain``; trailing dimensions are flattened."""

    def __init__(self, gain: float = 1.0) -> None:
        super().__init__(gain=gain)
        self.gain = gain

    def _sample(self, shape: tuple) -> np.ndarray:
        if len(shape) < 2:
            raise ValueError(f"For Orthogonal initializer, the dimension of the initialized "
                             f"tensor should be no less than 2, but got {len(shape)}.")
        rows = shape[0]
        cols = math.prod(shape) // rows
        data = _normal(0.0, 1.0, (rows, cols))
        if rows < cols:
            data = data.T
        q, r = np.linalg.qr(data)
        q = q * np.sign(np.diag(r))
        if rows < cols:
            q = q.T
        return (q * self.gain).reshape(shape)


@_register()
class VarianceScaling(Initializer):
    """Scaled distributions: with ``n`` the fan (``mode``), ``'untruncated_normal'`` draws
    N(0, scale/n), ``'truncated_normal'`` a normal truncated to two standard deviations
    rescaled to the same variance, ``'uniform'`` U(-sqrt(3 scale/n), sqrt(3 scale/n))."""

    def __init__(self, scale: float = 1.0, mode: str = "fan_in",
                 distribution: str = "truncated_normal") -> None:
        super().__init__(scale=scale, mode=mode, distribution=distribution)
        if scale <= 0:
            raise ValueError(f"For VarianceScaling initializer, the argument 'scale' must be "
                             f"greater than 0, but got {scale}.")
        if mode not in ("fan_in", "fan_out", "fan_avg"):
            raise ValueError(f"For VarianceScaling initializer, the argument 'mode' must be "
                             f"fan_in, fan_out or fan_avg, but got {mode}.")
        if distribution not in ("uniform", "truncated_normal", "untruncated_normal"):
            raise ValueError(f"For VarianceScaling initializer, the argument 'distribution' "
                             f"must be uniform, truncated_normal or untruncated_normal, but "
                             f"got {distribution}.")
        self.scale, self.mode, self.distribution = scale, mode, distribution

    def _sample(self, shape: tuple) -> np.ndarray:
        fan_in, fan_out = _fans(shape)
        n = {"fan_in": fan_in, "fan_out": fan_out, "fan_avg": (fan_in + fan_out) / 2}[self.mode]
        scale = self.scale / max(1.0, n)
        if self.distribution == "uniform":
            return _uniform(math.sqrt(3.0 * scale), shape)
        if self.distribution == "untruncated_normal":
            return _normal(0.0, math.sqrt(scale), shape)
        std = math.sqrt(scale) / 0.87962566103423978
        return _truncated(0.0, std, -2 * std, 2 * std, shape)


def _shape_tuple(shape: Any) -> tuple | None:
    if shape is None:
        return None
    if isinstance(shape, numbers.Integral) and not isinstance(shape, bool):
        shape = (int(shape),)
    if not isinstance(shape, (tuple, list)):
        raise TypeError(f"For 'initializer', the argument 'shape' must be an int, tuple or "
                        f"list, but got {type(shape).__name__}.")
    for v in shape:
        if isinstance(v, bool) or not isinstance(v, numbers.Integral) or v <= 0:
            raise ValueError(f"For 'initializer', the argument 'shape' is invalid, the value "
                             f"of 'shape' must be positive integer, but got {tuple(shape)}")
    return tuple(int(v) for v in shape)


def initializer(init: Any, shape: Any = None, dtype: Any = mstype.float32) -> Tensor:
    """A Tensor of ``shape`` and ``dtype`` initialized by ``init``: an ``Initializer``, its
    alias string (case-insensitive), a number (``Constant``) or a Tensor (its shape must
    equal ``shape`` when one is given; it is returned as is)."""
    if isinstance(init, Tensor):
        want = _shape_tuple(shape)
        if want is not None and tuple(init.shape) != want:
            raise ValueError(f"For 'initializer', the shape of the 'init' argument should be "
                             f"same as the argument 'shape', but got the 'init' shape "
                             f"{list(init.shape)} and the 'shape' {list(want)}.")
        return init
    if isinstance(init, str):
        cls = _ALIASES.get(init.lower())
        if cls is None:
            raise ValueError(f"For 'initializer', the class corresponding to '{init}' was not "
                             f"found; known names: {sorted(_ALIASES)}.")
        init = cls()
    elif isinstance(init, numbers.Number) and not isinstance(init, bool):
        init = Constant(init)
    elif not isinstance(init, Initializer):
        raise TypeError(f"For 'initializer', the type of the 'init' argument should be "
                        f"'Tensor', 'number', 'string' or 'initializer', but got "
                        f"{type(init).__name__}.")
    dims = _shape_tuple(shape)
    if dims is None:
        raise ValueError("For 'initializer', 'shape' must be given unless 'init' is a Tensor.")
    return Tensor(dtype=dtype, shape=dims, init=init)


__all__ = ["Initializer", "initializer", "calculate_gain", "Zero", "One", "Constant",
           "Normal", "Uniform", "TruncatedNormal", "XavierUniform", "XavierNormal",
           "HeUniform", "HeNormal", "Identity", "Orthogonal", "VarianceScaling"]
