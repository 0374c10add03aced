"""Benchmark cases for the special functions and Fourier transforms: forward and backward
against the same hand-written with NumPy and SciPy."""
from __future__ import annotations

import numpy as np
import scipy.special as sp

from opbench import F32, Case, normal, ones_cot, uniform
from mindgrad import ops


def ref_lgamma(x, cot=ones_cot):
    y = sp.gammaln(x)
    g = cot(y)
    return (y * g).sum(), [(g * sp.digamma(x)).astype(F32)]


def ref_erfinv(x, cot=ones_cot):
    y = sp.erfinv(x)
    g = cot(y)
    return (y * g).sum(), [(g * (np.sqrt(np.pi) / 2) * np.exp(y * y)).astype(F32)]


def ref_bessel_j0(x, cot=ones_cot):
    y = sp.j0(x)
    g = cot(y)
    return (y * g).sum(), [(-g * sp.j1(x)).astype(F32)]


def ref_fft_real(x, cot=ones_cot):
    """view_as_real(fft(x, dim=-1)): the adjoint takes the real part of n ifft(g)."""
    z = np.fft.fft(x, axis=-1).astype(np.complex64)
    y = np.stack([z.real, z.imag], -1)
    g = cot(y)
    gz = g[..., 0] + 1j * g[..., 1]
    dx = (np.fft.ifft(gz, axis=-1) * x.shape[-1]).real.astype(F32)
    return (y * g).sum(), [dx]


def ref_rfft_irfft(x, cot=ones_cot):
    """irfft(rfft(x) * 2), its backward through both adjoints: irfft's (the half-spectrum
    transform of g, the inner frequencies counted twice) and rfft's (zero-padded to the full
    length, transformed back, real part)."""
    n = x.shape[-1]
    y = np.fft.irfft(np.fft.rfft(x, axis=-1) * 2, n, axis=-1).astype(F32)
    g = cot(y)
    w = np.full(n // 2 + 1, 2.0)
    w[0] = w[-1] = 1.0
    gz = np.fft.rfft(g, axis=-1, norm="forward") * w * 2
    full = np.zeros(g.shape[:-1] + (n,), np.complex64)
    full[..., :n // 2 + 1] = gz
    dx = np.fft.ifft(full, axis=-1, norm="forward").real.astype(F32)
    return (y * g).sum(), [dx]


CASES = [
    Case("lgamma", "512x512", uniform(0.2, 5.0, 512, 512), ops.lgamma, ref_lgamma),
    Case("erfinv", "512x512", uniform(-0.9, 0.9, 512, 512), ops.erfinv, ref_erfinv),
    Case("bessel_j0", "512x512", normal(512, 512), ops.bessel_j0, ref_bessel_j0),
    Case("fft (view_as_real)", "512x512", normal(512, 512),
         lambda x: ops.view_as_real(ops.fft(x)), ref_fft_real),
    Case("irfft(rfft(x) * 2)", "512x512", normal(512, 512),
         lambda x: ops.irfft(ops.rfft(x) * 2, 512), ref_rfft_irfft),
]
