"""Special functions, linear algebra and FFTs against MindSpore 2.10
(``tests/fixtures/special.json``, recorded by ``tools/record_catalogue.py --suite special``
from ``tests/special_cases.py``): the same calls on mindgrad give MindSpore's shapes,
dtypes, values (rtol 1e-5 in float32) and gradients, and refuse what it refuses with the
same exception type. Calls MindSpore's CPU build has no kernel for are checked against
NumPy / SciPy instead. Then derivatives numerically (reverse and forward, to second order
in float64), vmap against a loop, GRAPH mode against PYNATIVE, and argument errors."""
from __future__ import annotations

import json
import math
import os

import numpy as np
import pytest
import scipy.special as sps

import mindgrad as ms
from mindgrad import Tensor, ops

import special_cases as SC
from gradcheck import check_grads, check_graph_matches
from test_catalogue import _same, weights

FIXTURE = os.path.join(os.path.dirname(__file__), "fixtures", "special.json")
RECORDS = {r["name"]: r for r in json.load(open(FIXTURE))["cases"]}
CASES = {c.name: c for c in SC.CASES}

# MindSpore's CPU build has no kernel for these calls (or crashes in it); mindgrad computes
# them, checked here against NumPy / SciPy.
CPU_REFUSALS = ("Kernel select failed", "unregistered", "not support", "Not support")


def decode(rec: dict) -> np.ndarray:
    """A recorded array; complex values are stored as [real, imag] pairs."""
    vals = rec["values"]
    if np.dtype(rec["dtype"]).kind == "c":
        flat = np.array([complex(float(r), float(i)) for r, i in vals], dtype=rec["dtype"])
    else:
        flat = np.asarray([float(v) if isinstance(v, str) else v for v in vals],
                          dtype=rec["dtype"])
    return flat.reshape(rec["shape"])


def _pinv_ref(a, rtol=None):
    return np.linalg.pinv(a.astype(np.float64), rcond=rtol if rtol is not None else
                          np.finfo(a.dtype).eps * max(a.shape[-2:]))


def _matrix_exp_ref(a):
    w, v = np.linalg.eig(a.astype(np.float64))
    return (v @ np.diag(np.exp(w)) @ np.linalg.inv(v)).real


def _ormqr_ref(a, tau, c):
    q = np.eye(a.shape[0])
    for i in range(len(tau)):
        v = np.zeros(a.shape[0])
        v[i] = 1.0
        v[i + 1:] = a[i + 1:, i]
        q = q @ (np.eye(a.shape[0]) - tau[i] * np.outer(v, v))
    return q @ c


# References for the calls MindSpore's CPU build refuses or gets wrong (by case name):
# inputs -> output
NUMPY = {
    "matrix_exp": _matrix_exp_ref,
    "matrix_exp_f64": _matrix_exp_ref,
    "ormqr_f64": _ormqr_ref,
    "Ormqr_class_f64": lambda a, tau, c: c @ _ormqr_ref(a, tau, np.eye(3)).T,
    # MindSpore 2.10's Tensor.eigvals takes no argument and then fails calling ops.eigvals
    "method_eigvals": lambda a: _cview(np.linalg.eigvals(a.astype(np.float64))),
    # MindSpore 2.10's float32 nextafter returns its input unchanged (its float64 one is right)
    "nextafter": lambda a, b: (np.nextafter(a, b) - a) * np.float32(1e7),
    "method_nextafter_isreal": lambda a, b: (np.nextafter(a, b) > a).astype(np.int32) + 1,
}
# of these, MindSpore computes a wrong value rather than refusing
WRONG_VALUES = {"nextafter", "method_nextafter_isreal"}

# MindSpore accepts these calls and mindgrad refuses them: case -> (exception, why)
MINDGRAD_REFUSES = {
    "fft_bad_norm": (ValueError, "MindSpore 2.10 takes any other 'norm' string as 'backward'"),
}

# Where MindSpore 2.10 refuses a call with one exception type and mindgrad with another:
# case -> (MindSpore's, mindgrad's, why)
ERROR_TYPE_DIFFERS: dict = {}

# abs of a complex tensor: MindSpore 2.10 gives complex64 (the modulus, imaginary part 0);
# mindgrad gives float32, as NumPy does. The values agree.
REAL_ABS = {"abs_complex", "eig_vectors_abs", "Eig_vectors"}
# MindSpore 2.10 orders a general matrix's eigenvalues (and eigenvectors) differently from
# LAPACK's order, which mindgrad keeps: compared as sorted lists.
EIG_ORDER = {"eig_values", "eigvals_real", "eig_vectors_abs", "method_eigvals", "Eig_values",
             "Eig_vectors"}

# Gradients where MindSpore 2.10 is wrong and mindgrad keeps the exact derivative (checked
# numerically in test_derivatives): case -> {gradient index: why}
_CHOLINV = "MindSpore's CholeskyInverse gradient is not d(L L^T)^-1/dL"
_IHFFT = "MindSpore's ihfft gradient is that of the transform without the conjugate"
MINDSPORE_WRONG: dict = {
    "cholesky_inverse": {0: _CHOLINV},
    "method_cholesky_inverse_solve": {0: _CHOLINV},
    "ihfft": {0: _IHFFT}, "ihfft2": {0: _IHFFT}, "ihfftn": {0: _IHFFT},
}


def _cview(z):
    return np.stack([z.real, z.imag], -1).astype(np.float32)


def _sorted(a: np.ndarray, name: str) -> np.ndarray:
    """Eigen-results in a canonical order: rows of (real, imag) pairs sorted, or the
    columns of |eigenvectors| sorted by their first entry."""
    a = np.asarray(a)
    if a.ndim == 2 and a.shape[-1] == 2 and name not in ("eig_vectors_abs", "Eig_vectors"):
        return a[np.lexsort((a[:, 1], a[:, 0]))]
    return a[:, np.argsort(a[0])]


def test_fixture_covers_every_case() -> None:
    assert set(RECORDS) == set(CASES)
    assert len(CASES) >= 230


def _run(case, inputs):
    ms.set_seed(0)
    return case.fn(ms, ops, *[Tensor(x) for x in inputs])


@pytest.mark.parametrize("name", sorted(CASES))
def test_against_mindspore(name: str) -> None:
    case, rec = CASES[name], RECORDS[name]
    inputs = [decode(r) for r in rec["inputs"]]
    for mine, stored in zip(case.inputs, inputs):  # the case file and the fixture agree
        np.testing.assert_array_equal(mine, stored)
    if name in MINDGRAD_REFUSES:
        assert "error" not in rec, name  # (else the note is stale)
        with pytest.raises(MINDGRAD_REFUSES[name][0]):
            _run(case, inputs)
        return
    if name in NUMPY:
        assert ("error" in rec) != (name in WRONG_VALUES), name  # the note is not stale
        got = _run(case, inputs).asnumpy()
        want = NUMPY[name](*inputs)
        if name in EIG_ORDER:
            got, want = _sorted(got, name), _sorted(want, name)
        np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-6)
        return
    if "error" in rec:
        kind, msg = rec["error"]
        want_type = {"TypeError": TypeError, "ValueError": ValueError,
                     "IndexError": IndexError}.get(kind, (RuntimeError, ValueError))
        if name in ERROR_TYPE_DIFFERS:
            want_type = ERROR_TYPE_DIFFERS[name][1]
        with pytest.raises(want_type):
            _run(case, inputs)
        return
    out = _run(case, inputs)
    outs = out if isinstance(out, (tuple, list)) else (out,)
    assert len(outs) == len(rec["outputs"]), name
    for k, (o, r) in enumerate(zip(outs, rec["outputs"])):
        got, want = o.asnumpy(), decode(r)
        if name in REAL_ABS:
            assert want.dtype.kind == "c" and np.all(want.imag == 0), name  # (not stale)
            want = want.real
        if name in EIG_ORDER:
            got, want = _sorted(got, name), _sorted(want, name)
        _same(got, want, f"{name} output {k}", case.rtol, case.values)
    if "grads" not in rec:
        assert not case.grad or "grad_error" in rec
        return
    w = Tensor(weights(tuple(rec["outputs"][0]["shape"])))

    def loss(*xs):
        o = case.fn(ms, ops, *xs)
        return ((o[0] if isinstance(o, (tuple, list)) else o) * w).sum()

    g = ms.grad(loss, grad_position=tuple(case.grad))(*[Tensor(x) for x in inputs])
    g = g if isinstance(g, (tuple, list)) else (g,)
    wrong = MINDSPORE_WRONG.get(name, {})
    for k, (t, r) in enumerate(zip(g, rec["grads"])):
        if k in wrong:  # the difference is still there (else this note is stale)
            assert not np.allclose(t.asnumpy(), decode(r), rtol=1e-3), (name, k)
            continue
        _same(t.asnumpy(), decode(r), f"{name} gradient {k}", max(case.rtol, 1e-5), True)


# --- derivatives, numerically, in float64 ---------------------------------------------------
def _f64(seed: int, *shape: int, lo: float = -1.0, hi: float = 1.0) -> np.ndarray:
    return np.random.default_rng(seed).uniform(lo, hi, size=shape)


def _cx(a, b):
    return ops.Complex()(a, b)


GRAD_CASES = {
    "lgamma_digamma": (lambda x: ops.lgamma(x) * ops.digamma(x), [_f64(1, 2, 3, lo=0.3, hi=3)]),
    "polygamma": (lambda x: ops.polygamma(Tensor(1), x), [_f64(2, 4, lo=0.5, hi=3)]),
    "mvlgamma": (lambda x: ops.mvlgamma(x, 3), [_f64(3, 4, lo=1.5, hi=4)]),
    "erfinv": (lambda x: ops.erfinv(x), [_f64(4, 5, lo=-0.9, hi=0.9)]),
    "igamma_both": (lambda a, x: ops.igamma(a, x), [_f64(5, 4, lo=0.5, hi=3),
                                                    _f64(6, 4, lo=0.2, hi=4)]),
    "igammac_both": (lambda a, x: ops.igammac(a, x), [_f64(7, 4, lo=0.5, hi=3),
                                                      _f64(8, 4, lo=0.2, hi=4)]),
    "zeta_q": (lambda q: ops.zeta(ops.full_like(q, 3.0), q), [_f64(9, 4, lo=0.5, hi=3)]),
    "bessel_first_kind": (lambda x: ops.bessel_i0(x) + ops.bessel_i1e(x) * ops.bessel_j1(x)
                          + ops.bessel_i0e(x) - ops.bessel_i1(x) + ops.bessel_j0(x),
                          [_f64(10, 5, lo=-3, hi=3)]),
    "bessel_second_kind": (lambda x: ops.bessel_k0(x) + ops.bessel_k1e(x) * ops.bessel_y1(x)
                           + ops.bessel_k0e(x) - ops.bessel_k1(x) + ops.bessel_y0(x),
                           [_f64(11, 5, lo=0.4, hi=3)]),
    "xdivy_ldexp": (lambda x, y: ops.xdivy(x, y) + ops.ldexp(x, y), [_f64(12, 4),
                                                                     _f64(13, 4, lo=0.5)]),
    "polar_angle_real_imag": (lambda r, t: ops.angle(ops.polar(r, t)) * ops.real(ops.polar(r, t))
                              + ops.imag(ops.conj(ops.polar(r, t))),
                              [_f64(14, 4, lo=0.5, hi=2), _f64(15, 4, lo=-1, hi=1)]),
    "fft_ifft": (lambda a, b: ops.view_as_real(ops.ifft(ops.fft(_cx(a, b), 6), norm="ortho")),
                 [_f64(16, 5), _f64(17, 5)]),
    "fftn_s": (lambda x: ops.view_as_real(ops.fftn(x, (3, 2))), [_f64(18, 2, 4)]),
    "rfft_irfft": (lambda x: ops.irfft(ops.rfft(x) * 1, 7), [_f64(19, 2, 7)]),
    "rfft2_hfft": (lambda x: ops.hfft(ops.rfft2(x), dim=0), [_f64(20, 3, 4)]),
    "ihfftn": (lambda x: ops.view_as_real(ops.ihfftn(x, norm="forward")), [_f64(21, 2, 5)]),
    "fftshift": (lambda x: ops.fftshift(x) * ops.ifftshift(x, 1), [_f64(22, 3, 4)]),
    "ihfft_hfft2": (lambda x: ops.view_as_real(ops.ihfft(x)) * 2
                    + ops.hfft2(ops.ihfft2(x), (3, 6)).sum(), [_f64(49, 3, 6)]),
    "stft": (lambda x, w: ops.stft(x, 4, 2, window=w, normalized=True, return_complex=False),
             [_f64(50, 2, 12), _f64(51, 4)]),
    "qr": (lambda x: ops.qr(x)[0] * 2 + ops.qr(x)[1].sum(), [_f64(23, 4, 3)]),
    "pinv": (lambda x: ops.pinv(x), [_f64(24, 3, 4)]),
    "lstsq": (lambda a, b: ops.lstsq(a, b), [_f64(25, 4, 3), _f64(26, 4, 2)]),
    "matrix_exp": (lambda x: ops.matrix_exp(x), [_f64(27, 3, 3)]),
    "matrix_exp_scaled": (lambda x: ops.matrix_exp(x * 8), [_f64(28, 2, 2)]),
    "matrix_solve": (lambda a, b: ops.matrix_solve(a, b, True),
                     [_f64(29, 3, 3) + 3 * np.eye(3), _f64(30, 3, 2)]),
    "cholesky": (lambda l, b: ops.cholesky_inverse(l) + ops.cholesky_solve(b, l, False).sum(),
                 [np.tril(_f64(31, 3, 3)) + 3 * np.eye(3), _f64(32, 3, 3)]),
    "orgqr_ormqr": (lambda a, t, c: ops.orgqr(a, t) + ops.ormqr(a, t, c, True, True),
                    [_f64(33, 4, 3), _f64(34, 3), _f64(35, 4, 3)]),
    "lu_solve": (lambda b, a: ops.lu_solve(b, a, Tensor(np.array([2, 3, 3], np.int32))),
                 [_f64(36, 3, 2), _f64(37, 3, 3) + 3 * np.eye(3)]),
    "matrix_diag_set_band": (lambda x, d: ops.matrix_set_diag(ops.matrix_band_part(x, 1, 0), d,
                                                              1)
                             + ops.matrix_diag(d, -1, 4, 3, 0.0).sum()
                             + ops.matrix_diag_part(x, 0, 0.0).sum(),
                             [_f64(38, 3, 4), _f64(39, 3)]),
    "block_diag_cov": (lambda a, b: ops.block_diag(a, b).sum() + ops.cov(a), [_f64(40, 2, 3),
                                                                              _f64(41, 3)]),
    "cov_weights": (lambda x, aw: ops.cov(x, fweights=Tensor(np.array([1, 2, 3])),
                                          aweights=aw), [_f64(42, 2, 3), _f64(43, 3, lo=0.5)]),
    "bmm_family": (lambda i, a, b: ops.addbmm(i, a, b, beta=0.5) + ops.baddbmm(i, a, b).sum(0)
                   + ops.batch_dot(a, b, (2, 1)).sum(0),
                   [_f64(44, 2, 4), _f64(45, 3, 2, 3), _f64(46, 3, 3, 4)]),
    "pdist_renorm_vander": (lambda x: ops.pdist(x).sum() + ops.pdist(x, 1.5).sum()
                            + ops.renorm(x, 2, 0, 0.8) + ops.vander(x[0], 3).sum(),
                            [_f64(47, 3, 3)]),
    "matrix_norm": (lambda x: ops.matrix_norm(x) + ops.matrix_norm(x, "nuc")
                    + ops.matrix_norm(x, 1), [_f64(48, 3, 4)]),
}


@pytest.mark.parametrize("name", sorted(GRAD_CASES))
def test_derivatives(name: str) -> None:
    f, args = GRAD_CASES[name]
    check_grads(f, [Tensor(a) for a in args], order=2)


def test_abs_of_complex_first_derivatives() -> None:
    """|z| of a complex z: reverse g z / |z| and forward Re(conj(z / |z|) dz)."""
    check_grads(lambda r, t: ops.abs(ops.polar(r, t)),
                [Tensor(_f64(16, 4, lo=0.5, hi=2)), Tensor(_f64(17, 4))], order=1)


@pytest.mark.parametrize("name", ["lgamma_digamma", "igamma_both", "fft_ifft", "rfft_irfft",
                                  "qr", "matrix_exp", "bmm_family"])
def test_graph_mode_gradients(name: str) -> None:
    f, args = GRAD_CASES[name]
    check_graph_matches(f, [Tensor(a) for a in args], order=1)


def test_vmap_equals_loop() -> None:
    x = Tensor(_f64(60, 3, 4, 3, lo=0.2, hi=2))
    for f in (lambda r: ops.lgamma(r) + ops.polygamma(Tensor(2), r) + ops.bessel_k1e(r),
              lambda r: ops.igamma(r, r * 2), lambda r: ops.view_as_real(ops.fft(r)),
              lambda r: ops.irfft(ops.rfft(r, dim=0), 4, dim=0),
              lambda r: ops.view_as_real(ops.fft2(_cx(r, r * 0.5))),
              lambda r: ops.qr(r)[0], lambda r: ops.qr(r)[1],
              lambda r: ops.view_as_real(ops.eigvals(ops.matmul(r, ops.swapaxes(r, 0, 1)))),
              lambda r: ops.geqrf(r)[0]):
        got = ops.vmap(f)(x).asnumpy()
        want = np.stack([f(Tensor(x.asnumpy()[i])).asnumpy() for i in range(3)])
        np.testing.assert_allclose(got, want, rtol=1e-10, atol=1e-12)
