"""MindSpore's discrete Fourier transforms and window functions: ``fft``, ``ifft``,
``fft2``, ``ifft2``, ``fftn``, ``ifftn``, ``rfft``, ``irfft`` (and their 2-D and n-D
forms), ``hfft``, ``ihfft`` (likewise), ``fftfreq``, ``rfftfreq``, ``fftshift``,
``ifftshift``, ``stft`` and the windows ``bartlett_window``, ``blackman_window``,
``hamming_window``, ``hann_window``, ``kaiser_window``.

The transforms are the primitives of ``prims/fft.py`` (differentiable, with MindSpore's
convention for complex cotangents); the lengths ``n`` / ``s`` crop or zero-pad the input
first, with differentiable slices and pads. ``norm`` is "backward" (default: the inverse
scaled by 1/n), "forward" (the forward transform scaled) or "ortho" (both by 1/sqrt(n))."""
from __future__ import annotations

import math
from typing import Any

import numpy as np

from ..core import dtype as mstype
from ..core.tensor import Tensor
from ..prims import fft as FT
from ..prims import indexing as IX
from . import functional as F
from .array_functions import roll

_NORMS = ("backward", "forward", "ortho")


def _input(x: Any, op: str) -> Tensor:
    if not isinstance(x, Tensor):
        raise TypeError(f"For '{op}', 'input' must be a Tensor, but got {type(x).__name__}.")
    if x._data.dtype.kind not in "biufc":
        raise TypeError(f"For '{op}', 'input' must be a real or complex Tensor, but got "
                        f"{x.dtype}.")
    if x.ndim == 0:
        raise ValueError(f"For '{op}', 'input' must have at least one dimension, but got a "
                         f"0-d Tensor.")
    return x


def _norm(norm: Any, op: str) -> str:
    if norm is None:
        return "backward"
    if norm not in _NORMS:
        raise ValueError(f"For '{op}', 'norm' must be one of {list(_NORMS)} or None, but got "
                         f"{norm!r}.")
    return norm


def _as_complex(x: Tensor) -> Tensor:
    """A complex tensor, or a float32 / float64 one (the transforms take real input as the
    complex numbers with imaginary part 0)."""
    if x._data.dtype.kind == "c":
        return x
    if x._data.dtype.kind != "f" or x._data.dtype == np.float16:
        x = F.cast(x, mstype.float32)
    return x


def _as_real(x: Tensor, op: str) -> Tensor:
    if x._data.dtype.kind == "c":
        raise TypeError(f"For '{op}', 'input' must be a real Tensor, but got {x.dtype}.")
    if x._data.dtype.kind != "f" or x._data.dtype == np.float16:
        return F.cast(x, mstype.float32)
    return x


def _dims(dim: Any, s: Any, shape: tuple, op: str, default: Any) -> tuple:
    """The transformed axes (normalized, in order) and their lengths (``None``: as is)."""
    ndim = len(shape)
    if s is not None:
        s = (s,) if isinstance(s, (int, np.integer)) else tuple(s)
        for v in s:
            if not F._is_int(v) or v < 1:
                raise ValueError(f"For '{op}', 's' must hold positive ints, but got {s}.")
    if dim is None:
        dim = default if default is not None else (
            tuple(range(ndim)) if s is None else tuple(range(ndim - len(s), ndim)))
    dims = (dim,) if F._is_int(dim) else tuple(dim)
    out = tuple(F._axis(d, ndim, op, "dim") for d in dims)
    if s is None and any(shape[d] == 0 for d in out):
        raise ValueError(f"For '{op}', the transformed dims of 'input' must not be empty, but "
                         f"got shape {list(shape)}.")
    if len(set(out)) != len(out):
        raise ValueError(f"For '{op}', 'dim' must not repeat an axis, but got {dim}.")
    if s is not None and len(s) != len(out):
        raise ValueError(f"For '{op}', 's' and 'dim' must have the same length, but got "
                         f"{len(s)} and {len(out)}.")
    return out, (None,) * len(out) if s is None else s


def _n(n: Any, op: str) -> Any:
    if n is not None and (not F._is_int(n) or n < 1):
        raise ValueError(f"For '{op}', 'n' must be a positive int or None, but got {n!r}.")
    return n


def _fit(x: Tensor, axis: int, n: int) -> Tensor:
    """``x`` cropped or zero-padded to length ``n`` along ``axis``."""
    have = x.shape[axis]
    if n == have:
        return x
    if n < have:
        index = (slice(None),) * axis + (slice(0, n),)
        return F.getitem(x, index)
    pads = tuple((0, n - have) if i == axis else (0, 0) for i in range(x.ndim))
    return IX.pad(x, paddings=pads, value=0)


def _c2c(input: Any, s: Any, dim: Any, norm: Any, op: str, inverse: bool,
         default: Any = None) -> Tensor:
    x = _as_complex(_input(input, op))
    axes, sizes = _dims(dim, s, x.shape, op, default)
    nm = _norm(norm, op)
    for a, n in zip(axes, sizes):
        if n is not None:
            x = _fit(x, a, n)
    return FT.fft(x, axes=axes, inverse=inverse, norm=nm)


def _r2c(input: Any, s: Any, dim: Any, norm: Any, op: str, default: Any = None) -> Tensor:
    x = _as_real(_input(input, op), op)
    axes, sizes = _dims(dim, s, x.shape, op, default)
    nm = _norm(norm, op)
    for a, n in zip(axes, sizes):
        if n is not None:
            x = _fit(x, a, n)
    return FT.rfft(x, axes=axes, norm=nm)


def _c2r(input: Any, s: Any, dim: Any, norm: Any, op: str, default: Any = None) -> Tensor:
    x = _as_complex(_input(input, op))
    if x._data.dtype.kind != "c":  # (the half-spectrum's reverse rule gives complex)
        x = FT.complex_(x, 0.0)
    axes, sizes = _dims(dim, s, x.shape, op, default)
    nm = _norm(norm, op)
    last = sizes[-1] if sizes[-1] is not None else 2 * (x.shape[axes[-1]] - 1)
    if last < 1:
        raise ValueError(f"For '{op}', the output length along the last dim must be "
                         f"positive, but got {last} (input length {x.shape[axes[-1]]}).")
    for a, n in zip(axes[:-1], sizes[:-1]):
        if n is not None:
            x = _fit(x, a, n)
    x = _fit(x, axes[-1], last // 2 + 1)
    return FT.irfft(x, axes=axes, n=last, norm=nm)


# --- the transforms ---------------------------------------------------------------------------
def fft(input: Any, n: Any = None, dim: int = -1, norm: Any = None) -> Tensor:  # noqa: A002
    """The 1-D discrete Fourier transform along ``dim`` (length ``n``: cropped or padded)."""
    return _c2c(input, _n(n, "fft"), dim, norm, "fft", False)


def ifft(input: Any, n: Any = None, dim: int = -1, norm: Any = None) -> Tensor:  # noqa: A002
    """The inverse of ``fft``."""
    return _c2c(input, _n(n, "ifft"), dim, norm, "ifft", True)


def fft2(input: Any, s: Any = None, dim: tuple = (-2, -1),  # noqa: A002
         norm: Any = None) -> Tensor:
    """The 2-D discrete Fourier transform over ``dim``."""
    return _c2c(input, s, dim, norm, "fft2", False)


def ifft2(input: Any, s: Any = None, dim: tuple = (-2, -1),  # noqa: A002
         norm: Any = None) -> Tensor:
    """The inverse of ``fft2``."""
    return _c2c(input, s, dim, norm, "ifft2", True)


def fftn(input: Any, s: Any = None, dim: Any = None, norm: Any = None) -> Tensor:  # noqa: A002
    """The n-D discrete Fourier transform over ``dim`` (every axis by default, or the last
    ``len(s)``)."""
    return _c2c(input, s, dim, norm, "fftn", False)


def ifftn(input: Any, s: Any = None, dim: Any = None, norm: Any = None) -> Tensor:  # noqa: A002
    """The inverse of ``fftn``."""
    return _c2c(input, s, dim, norm, "ifftn", True)


def rfft(input: Any, n: Any = None, dim: int = -1, norm: Any = None) -> Tensor:  # noqa: A002
    """The transform of a real signal: its ``n // 2 + 1`` non-negative frequencies."""
    return _r2c(input, _n(n, "rfft"), dim, norm, "rfft")


def irfft(input: Any, n: Any = None, dim: int = -1, norm: Any = None) -> Tensor:  # noqa: A002
    """The real signal of length ``n`` (default ``2 (m - 1)``) whose ``rfft`` is ``input``."""
    return _c2r(input, _n(n, "irfft"), dim, norm, "irfft")


def rfft2(input: Any, s: Any = None, dim: tuple = (-2, -1),  # noqa: A002
         norm: Any = None) -> Tensor:
    """The 2-D transform of a real signal (half of the last axis)."""
    return _r2c(input, s, dim, norm, "rfft2")


def irfft2(input: Any, s: Any = None, dim: tuple = (-2, -1),  # noqa: A002
         norm: Any = None) -> Tensor:
    """The inverse of ``rfft2``."""
    return _c2r(input, s, dim, norm, "irfft2")


def rfftn(input: Any, s: Any = None, dim: Any = None, norm: Any = None) -> Tensor:  # noqa: A002
    """The n-D transform of a real signal (half of the last transformed axis)."""
    return _r2c(input, s, dim, norm, "rfftn")


def irfftn(input: Any, s: Any = None, dim: Any = None, norm: Any = None) -> Tensor:  # noqa: A002
    """The inverse of ``rfftn``."""
    return _c2r(input, s, dim, norm, "irfftn")


def _hermitian(input: Any, s: Any, dim: Any, norm: Any, op: str) -> Tensor:
    # the transform of a Hermitian-symmetric signal given by its first half: irfft of the
    # conjugate, with the opposite normalization
    x = _as_complex(_input(input, op))
    return _c2r(FT.conj(x), s, dim, FT.DUAL[_norm(norm, op)], op)


def _ihermitian(input: Any, s: Any, dim: Any, norm: Any, op: str) -> Tensor:
    return FT.conj(_r2c(input, s, dim, FT.DUAL[_norm(norm, op)], op))


def hfft(input: Any, n: Any = None, dim: int = -1, norm: Any = None) -> Tensor:  # noqa: A002
    """The real transform of a signal with Hermitian symmetry, given by its first half."""
    return _hermitian(input, _n(n, "hfft"), dim, norm, "hfft")


def ihfft(input: Any, n: Any = None, dim: int = -1, norm: Any = None) -> Tensor:  # noqa: A002
    """The inverse of ``hfft``: half of the inverse transform of a real signal."""
    return _ihermitian(input, _n(n, "ihfft"), dim, norm, "ihfft")


def hfft2(input: Any, s: Any = None, dim: tuple = (-2, -1),  # noqa: A002
         norm: Any = None) -> Tensor:
    """The 2-D ``hfft``."""
    return _hermitian(input, s, dim, norm, "hfft2")


def ihfft2(input: Any, s: Any = None, dim: tuple = (-2, -1),  # noqa: A002
         norm: Any = None) -> Tensor:
    """The 2-D ``ihfft``."""
    return _ihermitian(input, s, dim, norm, "ihfft2")


def hfftn(input: Any, s: Any = None, dim: Any = None, norm: Any = None) -> Tensor:  # noqa: A002
    """The n-D ``hfft``."""
    return _hermitian(input, s, dim, norm, "hfftn")


def ihfftn(input: Any, s: Any = None, dim: Any = None, norm: Any = None) -> Tensor:  # noqa: A002
    """The n-D ``ihfft``."""
    return _ihermitian(input, s, dim, norm, "ihfftn")


# --- frequencies and shifts -------------------------------------------------------------------
def _float_dtype(dtype: Any, op: str, default: Any = mstype.float32) -> Any:
    dt = default if dtype is None else dtype
    if not isinstance(dt, mstype.DType) or np.dtype(dt.np_dtype).kind != "f":
        raise TypeError(f"For '{op}', 'dtype' must be a float dtype, but got {dtype!r}.")
    return dt


def _count(n: Any, op: str, arg: str) -> int:
    if isinstance(n, Tensor) and n.size == 1 and n._data.dtype.kind in "iu":
        n = int(n.asnumpy().reshape(()))
    if not F._is_int(n) or n < 0:
        raise ValueError(f"For '{op}', '{arg}' must be a non-negative int, but got {n!r}.")
    return int(n)


def fftfreq(n: int, d: float = 1.0, dtype: Any = None) -> Tensor:
    """The sample frequencies of an ``n``-point transform with spacing ``d``:
    ``[0, 1, ..., n/2 - 1, -n/2, ..., -1] / (d n)``."""
    n = _count(n, "fftfreq", "n")
    d = F._float_param(d, "fftfreq", "d")
    dt = _float_dtype(dtype, "fftfreq")
    return Tensor(np.fft.fftfreq(n, d).astype(dt.np_dtype))


def rfftfreq(n: int, d: float = 1.0, dtype: Any = None) -> Tensor:
    """The non-negative sample frequencies of an ``n``-point ``rfft``."""
    n = _count(n, "rfftfreq", "n")
    d = F._float_param(d, "rfftfreq", "d")
    dt = _float_dtype(dtype, "rfftfreq")
    return Tensor(np.fft.rfftfreq(n, d).astype(dt.np_dtype))


def _shift(input: Any, dim: Any, op: str, sign: int) -> Tensor:
    x = _input(input, op)
    dims = tuple(range(x.ndim)) if dim is None else ((dim,) if F._is_int(dim) else tuple(dim))
    dims = tuple(F._axis(d, x.ndim, op, "dim") for d in dims)
    shifts = tuple(sign * (x.shape[d] // 2) for d in dims)
    return roll(x, shifts, dims)


def fftshift(input: Any, dim: Any = None) -> Tensor:  # noqa: A002
    """The zero frequency moved to the middle of ``dim`` (every axis by default)."""
    return _shift(input, dim, "fftshift", 1)


def ifftshift(input: Any, dim: Any = None) -> Tensor:  # noqa: A002
    """The inverse of ``fftshift``."""
    return _shift(input, dim, "ifftshift", -1)


# --- windows ------------------------------------------------------------------------------------
def _window(window_length: Any, periodic: Any, dtype: Any, op: str, default: Any,
            tensor_length: bool = False) -> tuple:
    if tensor_length and not isinstance(window_length, Tensor):
        raise TypeError(f"For '{op}', 'window_length' must be a Tensor, but got "
                        f"{type(window_length).__name__}.")
    n = _count(window_length, op, "window_length")
    periodic = F._flag(periodic, op, "periodic")
    dt = _float_dtype(dtype, op, default)
    return n, (n if periodic else n - 1), dt


def _cosine_sum(n: int, den: int, coeffs: tuple, dt: Any) -> Tensor:
    if n == 0:
        return Tensor(np.zeros(0, dt.np_dtype))
    if n == 1:
        return Tensor(np.ones(1, dt.np_dtype))
    k = np.arange(n, dtype=np.float64)
    w = sum(c * (-1) ** j * np.cos(2 * math.pi * j * k / den) for j, c in enumerate(coeffs))
    return Tensor(w.astype(dt.np_dtype))


def bartlett_window(window_length: Any, periodic: bool = True, *, dtype: Any = None) -> Tensor:
    """The triangular window ``1 - |2k / N - 1|`` (N = length, or length - 1 when not
    ``periodic``); ``window_length`` is a one-element integer Tensor."""
    n, den, dt = _window(window_length, periodic, dtype, "bartlett_window", mstype.float32,
                         True)
    if n <= 1:
        return Tensor(np.ones(n, dt.np_dtype))
    k = np.arange(n, dtype=np.float64)
    return Tensor((1 - np.abs(2 * k / den - 1)).astype(dt.np_dtype))


def blackman_window(window_length: Any, periodic: bool = True, *, dtype: Any = None) -> Tensor:
    """``0.42 - 0.5 cos(2 pi k / N) + 0.08 cos(4 pi k / N)``; ``window_length`` is a
    one-element integer Tensor."""
    n, den, dt = _window(window_length, periodic, dtype, "blackman_window", mstype.float32,
                         True)
    return _cosine_sum(n, den, (0.42, 0.5, 0.08), dt)


def hamming_window(window_length: int, periodic: bool = True, alpha: float = 0.54,
                   beta: float = 0.46, *, dtype: Any = None) -> Tensor:
    """``alpha - beta cos(2 pi k / N)``."""
    n, den, dt = _window(window_length, periodic, dtype, "hamming_window", mstype.float32)
    a = F._float_param(alpha, "hamming_window", "alpha")
    b = F._float_param(beta, "hamming_window", "beta")
    return _cosine_sum(n, den, (a, b), dt)


def hann_window(window_length: int, periodic: bool = True, *, dtype: Any = None) -> Tensor:
    """``0.5 - 0.5 cos(2 pi k / N)`` (float64 unless ``dtype`` says otherwise, as in
    MindSpore)."""
    n, den, dt = _window(window_length, periodic, dtype, "hann_window", mstype.float64)
    return _cosine_sum(n, den, (0.5, 0.5), dt)


def kaiser_window(window_length: int, periodic: bool = True, beta: float = 12.0, *,
                  dtype: Any = None) -> Tensor:
    """``I0(beta sqrt(1 - (2k / N - 1)^2)) / I0(beta)`` (float64 unless ``dtype`` says
    otherwise, as in MindSpore)."""
    n, den, dt = _window(window_length, periodic, dtype, "kaiser_window", mstype.float64)
    b = F._float_param(beta, "kaiser_window", "beta")
    if n <= 1:
        return Tensor(np.ones(n, dt.np_dtype))
    k = np.arange(n, dtype=np.float64)
    w = np.i0(b * np.sqrt(np.clip(1 - (2 * k / den - 1) ** 2, 0, None))) / np.i0(b)
    return Tensor(w.astype(dt.np_dtype))



# --- the short-time Fourier transform ------------------------------------------------------------
def stft(x: Any, n_fft: int, hop_length: Any = None, win_length: Any = None, window: Any = None,
         center: bool = True, pad_mode: str = "REFLECT", normalized: bool = False,
         onesided: Any = None, return_complex: Any = None) -> Tensor:
    """The short-time Fourier transform of the signals ``x`` (L,) or (B, L): frames of
    ``n_fft`` samples every ``hop_length`` (default ``n_fft // 4``), each multiplied by
    ``window`` (default ones of ``win_length``, centred in ``n_fft``) and transformed;
    (B, frequencies, frames), complex, or with a last axis of 2 (real, imaginary) when
    ``return_complex`` is False. ``center`` pads ``n_fft // 2`` on both sides first
    (``pad_mode`` 'REFLECT' or 'CONSTANT'); ``onesided`` (default for real input) keeps the
    ``n_fft // 2 + 1`` non-negative frequencies; ``normalized`` scales by ``n_fft ** -0.5``."""
    op = "stft"
    t = _input(x, op)
    if t.ndim not in (1, 2):
        raise ValueError(f"For 'stft', 'x' must be 1-D or 2-D, but got shape {list(t.shape)}.")
    if not F._is_int(n_fft) or n_fft < 1:
        raise ValueError(f"For 'stft', 'n_fft' must be a positive int, but got {n_fft!r}.")
    hop = n_fft // 4 if hop_length is None else hop_length
    win = n_fft if win_length is None else win_length
    if not F._is_int(hop) or hop < 1 or not F._is_int(win) or not 0 < win <= n_fft:
        raise ValueError(f"For 'stft', 'hop_length' must be positive and 'win_length' in "
                         f"(0, n_fft={n_fft}], but got {hop!r} and {win!r}.")
    complex_in = t._data.dtype.kind == "c"
    sig = t if complex_in else _as_real(t, op)
    if F._flag(center, op, "center"):
        if pad_mode not in ("REFLECT", "CONSTANT", "reflect", "constant"):
            raise ValueError(f"For 'stft', 'pad_mode' must be 'REFLECT' or 'CONSTANT', but "
                             f"got {pad_mode!r}.")
        half = n_fft // 2
        two = sig if sig.ndim == 2 else F.expand_dims(sig, 0)
        two = F.pad(two, (half, half), mode=pad_mode.lower())
        sig = two if sig.ndim == 2 else two[0]
    length = sig.shape[-1]
    if length < n_fft:
        raise ValueError(f"For 'stft', the (padded) signal of length {length} is shorter than "
                         f"'n_fft' {n_fft}.")
    frames = 1 + (length - n_fft) // hop
    idx = np.arange(frames)[:, None] * hop + np.arange(n_fft)[None, :]
    seg = F.getitem(sig, (Ellipsis, Tensor(idx.astype(np.int64))))  # (..., frames, n_fft)
    if window is not None:
        w = _input(window, op)
        if w.shape != (win,):
            raise ValueError(f"For 'stft', 'window' must have shape [{win}] (win_length), but "
                             f"got {list(w.shape)}.")
        left = (n_fft - win) // 2
        w = F.pad(F.cast(w, seg.dtype) if not complex_in else w, (left, n_fft - win - left))
        seg = F.mul(seg, w)
    elif win < n_fft:
        left = (n_fft - win) // 2
        mask = np.zeros(n_fft, seg._data.dtype)
        mask[left:left + win] = 1
        seg = F.mul(seg, Tensor(mask))
    one = (not complex_in) if onesided is None else F._flag(onesided, op, "onesided")
    nm = "ortho" if F._flag(normalized, op, "normalized") else "backward"
    spec = _r2c(seg, None, -1, nm, op) if one and not complex_in else \
        _c2c(seg, None, -1, nm, op, False)
    spec = F.swapaxes(spec, -1, -2)  # (..., frequencies, frames)
    if return_complex is False:
        return F.stack([FT.real(spec), FT.imag(spec)], -1)
    return spec


__all__ = ["fft", "ifft", "fft2", "ifft2", "fftn", "ifftn", "rfft", "irfft", "rfft2", "irfft2",
           "rfftn", "irfftn", "hfft", "ihfft", "hfft2", "ihfft2", "hfftn", "ihfftn", "fftfreq",
           "rfftfreq", "fftshift", "ifftshift", "bartlett_window", "blackman_window",
           "hamming_window", "hann_window", "kaiser_window", "stft"]
