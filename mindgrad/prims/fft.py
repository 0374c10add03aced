"""Complex numbers and discrete Fourier transforms: ``Complex`` (from real and imaginary
parts), ``Real``, ``Imag``, ``Conj``, and the transforms ``FFT`` (complex to complex,
forward or inverse, over given axes), ``RFFT`` (real to half-spectrum) and ``IRFFT``
(half-spectrum to real).

Derivatives of complex values follow MindSpore's (and PyTorch's) convention: the cotangent
of a complex ``z = a + ib`` is ``dL/da + i dL/db`` for a real loss ``L``. Under it the
reverse rule of a linear map is its adjoint: the adjoint of an FFT with normalization
``norm`` is the opposite transform with the dual normalization ("backward" and "forward"
swap, "ortho" stays). The transforms take their inputs already cropped or zero-padded to
the lengths they transform (the front end does that with differentiable slices and pads)."""
from __future__ import annotations

from typing import Any

import numpy as np

from ..core.primitive import Primitive
from ..core.tensor import Tensor
from . import getitem as G
from . import indexing as IX
from . import structural as S
from . import unary as U
from ._util import xp_of

DUAL = {"backward": "forward", "forward": "backward", "ortho": "ortho"}
_COMPLEX = {np.dtype(np.float32): np.dtype(np.complex64),
            np.dtype(np.float64): np.dtype(np.complex128),
            np.dtype(np.float16): np.dtype(np.complex64)}


def complex_dtype(dt: Any) -> np.dtype:
    """The complex dtype holding a float dtype's values (complex64 for float32)."""
    dt = np.dtype(dt)
    return dt if dt.kind == "c" else _COMPLEX.get(dt, np.dtype(np.complex64))


def real_dtype(dt: Any) -> np.dtype:
    dt = np.dtype(dt)
    return np.dtype(np.float64) if dt == np.complex128 else np.dtype(np.float32)


# --- complex parts ---------------------------------------------------------------------------
def _complex_impl(re, im):
    xp = xp_of(re)
    out = xp.empty(np.broadcast_shapes(re.shape, np.shape(im)), complex_dtype(re.dtype))
    out.real, out.imag = re, im
    return out


complex_ = Primitive("Complex", _complex_impl)
# the parts as views of the complex array (no copy)
real = Primitive("Real", lambda z: z.real)
imag = Primitive("Imag", lambda z: z.imag)
conj = Primitive("Conj", lambda z: xp_of(z).conj(z))


def _zero(x):
    return S.zeros_like(x)


complex_.vjp = (lambda g, ans, re, im: S.unbroadcast(real(g), re),
                lambda g, ans, re, im: S.unbroadcast(imag(g), im))
complex_.jvp = (lambda t, ans, re, im: S.broadcast_like(complex_(t, _zero(t)), ans),
                lambda t, ans, re, im: S.broadcast_like(complex_(_zero(t), t), ans))
real.vjp = (lambda g, ans, z: complex_(g, _zero(g)),)
real.jvp = (lambda t, ans, z: real(t),)
imag.vjp = (lambda g, ans, z: complex_(_zero(g), g),)
imag.jvp = (lambda t, ans, z: imag(t),)
conj.vjp = (lambda g, ans, z: conj(g),)
conj.jvp = (lambda t, ans, z: conj(t),)


def _complex_taylor(primals, series, **params):
    re, im = primals
    out = complex_(re, im)
    coeffs = []
    for k in range(1, S.series_order(series) + 1):
        a, b = S.coeff_at(series[0], re, k), S.coeff_at(series[1], im, k)
        if a is None and b is None:
            coeffs.append(None)
            continue
        a = _zero(b) if a is None else a
        b = _zero(a) if b is None else b
        coeffs.append(S.broadcast_like(complex_(a, b), out))
    return out, coeffs


complex_.taylor = _complex_taylor
S.defelementwise(complex_, real, imag, conj)
for _p in (real, imag, conj):
    _p.taylor = S.linear(_p)


def _view_as_real_impl(z):
    # a fresh array (not a view: a result never shares memory with its operand)
    xp = xp_of(z)
    out = xp.empty(z.shape + (2,), real_dtype(z.dtype))
    out[..., 0], out[..., 1] = z.real, z.imag
    return out


# complex (...) -> real (..., 2): one pass each way (a stack of the parts would take three)
view_as_real = Primitive("ViewAsReal", _view_as_real_impl)
view_as_real.vjp = (lambda g, ans, z: complex_(G.getitem(g, index=(Ellipsis, 0)),
                                               G.getitem(g, index=(Ellipsis, 1))),)
view_as_real.jvp = (lambda t, ans, z: view_as_real(t),)
view_as_real.taylor = S.linear(view_as_real)
view_as_real.batch = lambda args, dims: (view_as_real(S.to_front(args[0], dims[0])), 0)


# |z| of a complex z: its forward rule is Re(conj(z / |z|) dz), which needs Real and Conj
# (defined here); its reverse rule, g z / |z|, is the real one's already.
_abs_real_jvp = U.abs_.jvp[0]


def _abs_jvp(t, ans, x):
    if S.dtype_of(x).kind == "c":
        return real(S.mul(conj(U.sign(x)), t))
    return _abs_real_jvp(t, ans, x)


U.abs_.jvp = (_abs_jvp,)


# --- transforms -------------------------------------------------------------------------------
def _fft_impl(z, axes, inverse, norm):
    # z complex, or real (float32 / float64: its complex transform, without first making
    # a complex copy)
    xp = xp_of(z)
    if len(axes) == 1:
        f = xp.fft.ifft if inverse else xp.fft.fft
        out = f(z, axis=axes[0], norm=norm)
    else:
        f = xp.fft.ifftn if inverse else xp.fft.fftn
        out = f(z, axes=axes, norm=norm)
    return out.astype(complex_dtype(z.dtype), copy=False)


def _fft_vjp(g, ans, z, axes, inverse, norm):
    ct = fft(g, axes=axes, inverse=not inverse, norm=DUAL[norm])
    return real(ct) if S.dtype_of(z).kind != "c" else ct


def _rfft_impl(x, axes, norm):
    return xp_of(x).fft.rfftn(x, axes=axes, norm=norm).astype(complex_dtype(x.dtype),
                                                              copy=False)


def _irfft_impl(z, axes, n, norm):
    s = [z.shape[a] for a in axes[:-1]] + [n]
    return xp_of(z).fft.irfftn(z, s=s, axes=axes, norm=norm).astype(real_dtype(z.dtype),
                                                                     copy=False)


fft = Primitive("FFT", _fft_impl)
rfft = Primitive("RFFT", _rfft_impl)
irfft = Primitive("IRFFT", _irfft_impl)


def _half_weights(n: int, m: int, dtype: Any) -> np.ndarray:
    """How often each of the ``m = n // 2 + 1`` stored frequencies of a length-``n`` real
    signal appears in its full spectrum: 1 for 0 (and n/2 when n is even), 2 for the rest."""
    w = np.full(m, 2.0)
    w[0] = 1.0
    if n % 2 == 0:
        w[-1] = 1.0
    return w.astype(dtype)


def _along(w: np.ndarray, axis: int, ndim: int) -> np.ndarray:
    return w.reshape((-1,) + (1,) * (ndim - 1 - axis % ndim))


def _rfft_vjp(g, ans, x, axes, norm):
    # the adjoint of "take the first n//2+1 frequencies of the full transform": pad the
    # cotangent with zeros to the full length, transform back, keep the real part
    shape = S.shape_of(x)
    last = axes[-1] % len(shape)
    pads = tuple((0, shape[last] - S.shape_of(g)[last]) if i == last else (0, 0)
                 for i in range(len(shape)))
    full = IX.pad(g, paddings=pads, value=0)
    return real(fft(full, axes=axes, inverse=True, norm=DUAL[norm]))


def _irfft_vjp(g, ans, z, axes, n, norm):
    # irfft is Re(inverse transform of the Hermitian extension): its adjoint is the
    # half-spectrum transform with each stored frequency counted as often as it appears
    ndim = len(S.shape_of(z))
    last = axes[-1] % ndim
    m = S.shape_of(z)[last]
    half = rfft(g, axes=axes, norm=DUAL[norm])
    w = _along(_half_weights(n, m, real_dtype(S.dtype_of(z))), last, ndim)
    return S.mul(half, Tensor._wrap(xp_of(half._data).asarray(w)))


fft.vjp = (_fft_vjp,)
fft.jvp = (lambda t, ans, z, axes, inverse, norm: fft(t, axes=axes, inverse=inverse, norm=norm),)
rfft.vjp = (_rfft_vjp,)
rfft.jvp = (lambda t, ans, x, axes, norm: rfft(t, axes=axes, norm=norm),)
irfft.vjp = (_irfft_vjp,)
irfft.jvp = (lambda t, ans, z, axes, n, norm: irfft(t, axes=axes, n=n, norm=norm),)
for _p in (fft, rfft, irfft):
    _p.taylor = S.linear(_p)


def _batched(prim):
    """The batch axis in front; the transformed axes, counted from the end, stay put."""
    def rule(args, dims, axes, **params):
        x = S.to_front(args[0], dims[0])
        ndim = len(S.shape_of(x)) - 1
        shifted = tuple(a % ndim + 1 for a in axes)
        return prim(x, axes=shifted, **params), 0
    return rule


for _p in (fft, rfft, irfft):
    _p.batch = _batched(_p)
