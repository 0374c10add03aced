"""The special-function, linear-algebra and FFT cases of ``mindspore.ops``, recorded with the
real MindSpore by ``tools/record_catalogue.py --suite special`` into
``tests/fixtures/special.json`` and compared with mindgrad by ``tests/test_special.py``. Each
case is a ``Case`` of ``tests/catalogue_cases.py``.

Complex results are compared through real views (``view_as_real``, ``real``, ``imag``,
``abs``) and complex inputs are made inside the call (``polar``, ``ops.Complex``), so the
fixture holds real numbers only and every gradient is that of a real function of real
inputs."""
from __future__ import annotations

import numpy as np

from catalogue_cases import Case, _r

POS = _r(301, (2, 3), lo=0.2, hi=4.0)
POS2 = _r(302, (2, 3), lo=0.3, hi=3.0)
SMALLPOS = _r(303, (2, 3), lo=0.1, hi=3.0)
UNIT = _r(304, (2, 3), lo=-0.95, hi=0.95)
X = _r(305, (2, 3))
XB = _r(306, (2, 3), lo=-6, hi=6)
BIGPOS = _r(307, (2, 3), lo=2.5, hi=6.0)
I1 = np.array([[4, 6, 9], [12, -15, 0]], np.int32)
I2 = np.array([[6, 4, 3], [8, 10, 7]], np.int32)
SH = np.array([1, 2, 3], np.int32)
I16 = np.array([3, 7, -1, 0, 255], np.int16)
ONE = np.array(1, np.int64)


def _o(name, *pre, **kw):
    """A call of ``ops.<name>(*inputs, **kw)``, static leading arguments ``pre`` first."""
    return lambda ms, ops, *xs: getattr(ops, name)(*pre, *xs, **kw)


_BESSEL = ("bessel_i0", "bessel_i0e", "bessel_i1", "bessel_i1e", "bessel_j0", "bessel_j1",
           "bessel_k0", "bessel_k0e", "bessel_k1", "bessel_k1e", "bessel_y0", "bessel_y1")

SPECIAL = [
    Case("lgamma", _o("lgamma"), [POS], (0,)),
    Case("lgamma_negative", _o("lgamma"), [np.array([-0.5, -1.5, -2.3, 0.7], np.float32)],
         (0,)),
    Case("lgamma_f64", _o("lgamma"), [POS.astype(np.float64)], (0,)),
    Case("lgamma_int", _o("lgamma"), [I2]),
    Case("digamma", _o("digamma"), [POS], (0,)),
    Case("digamma_negative", _o("digamma"), [np.array([-0.5, -1.5, 0.3], np.float32)], (0,)),
    Case("polygamma_1", lambda ms, ops, x: ops.polygamma(ms.Tensor(1), x), [POS], (0,)),
    Case("polygamma_0", lambda ms, ops, x: ops.polygamma(ms.Tensor(0), x), [POS], (0,)),
    Case("polygamma_3", lambda ms, ops, x: ops.polygamma(ms.Tensor(3), x), [POS2], (0,),
         rtol=1e-4),
    Case("polygamma_int_n", lambda ms, ops, x: ops.polygamma(2, x), [POS]),
    Case("mvlgamma", _o("mvlgamma", p=3), [BIGPOS], (0,)),
    Case("mvlgamma_p1", lambda ms, ops, x: ops.mvlgamma(x, 1), [POS], (0,)),
    Case("mvlgamma_bad_domain", lambda ms, ops, x: ops.mvlgamma(x, 4), [POS]),
    Case("igamma", _o("igamma"), [POS, POS2], (0, 1)),
    Case("igamma_bcast", _o("igamma"), [POS, np.array([0.5, 2.0, 5.0], np.float32)], (0, 1)),
    Case("igammac", _o("igammac"), [POS, POS2], (0, 1)),
    Case("igamma_f64", _o("igamma"), [POS.astype(np.float64), POS2.astype(np.float64)],
         (0, 1)),
    Case("zeta", lambda ms, ops, s, q: ops.zeta(s + 1.0, q), [POS, POS2], (0, 1)),
    Case("erfinv", _o("erfinv"), [UNIT], (0,)),
    Case("erfinv_edges", _o("erfinv"), [np.array([-1.0, 1.0, 0.0, 1.5], np.float32)]),
    Case("erfinv_f64", _o("erfinv"), [UNIT.astype(np.float64)], (0,)),
    Case("i0", _o("i0"), [XB], (0,)),
    *[Case(n, _o(n), [SMALLPOS], (0,)) for n in _BESSEL],
    *[Case(n + "_neg", _o(n), [X], (0,)) for n in ("bessel_i0", "bessel_i0e", "bessel_i1",
                                                    "bessel_i1e", "bessel_j0", "bessel_j1")],
    Case("bessel_j0_f64", _o("bessel_j0"), [XB.astype(np.float64)], (0,)),
    Case("method_lgamma_digamma", lambda ms, ops, x: x.lgamma() + x.digamma(), [POS], (0,)),
    Case("method_erfinv_i0", lambda ms, ops, x: x.erfinv() + x.i0(), [UNIT], (0,)),
    Case("method_igamma_igammac", lambda ms, ops, a, x: a.igamma(x) * a.igammac(x),
         [POS, POS2], (0, 1)),
    Case("method_mvlgamma", lambda ms, ops, x: x.mvlgamma(2), [BIGPOS], (0,)),
]

C8 = _r(310, (8,))
PH8 = _r(311, (8,), lo=-3, hi=3)
R234 = _r(312, (2, 3, 4))
P234 = _r(313, (2, 3, 4), lo=-3, hi=3)


def _cplx(ms, ops, r, th):
    """A complex tensor r e^(i th) from two real ones."""
    return ops.polar(r, th)


ELEMENTWISE = [
    Case("xdivy", _o("xdivy"), [np.array([[0.0, 1.5, -2.0], [3.0, 0.0, 4.0]], np.float32),
                                _r(320, (2, 3), lo=0.5)], (0, 1)),
    Case("xdivy_zero_den", _o("xdivy"), [np.array([0.0, 1.0, -1.0], np.float32),
                                         np.array([0.0, 0.0, 0.0], np.float32)]),
    Case("xdivy_int", _o("xdivy"), [I1, I2]),
    Case("ldexp", _o("ldexp"), [X, I2], (0,)),
    Case("ldexp_float_exp", _o("ldexp"), [X, np.array([1.0, -2.0, 0.5], np.float32)], (0, 1)),
    Case("nextafter", lambda ms, ops, a, b: (ops.nextafter(a, b) - a) * 1e7, [X, XB]),
    Case("nextafter_f64", lambda ms, ops, a, b: ops.nextafter(a, b) - a,
         [X.astype(np.float64), XB.astype(np.float64)]),
    Case("gcd", _o("gcd"), [I1, I2]),
    Case("gcd_bcast_i64", _o("gcd"), [I1.astype(np.int64), SH.astype(np.int64)]),
    Case("lcm", _o("lcm"), [I1, I2]),
    Case("gcd_float", _o("gcd"), [X, X]),
    Case("float_power_ext", _o("float_power_ext"), [POS, X], (0, 1)),
    Case("float_power_ext_scalar", lambda ms, ops, x: ops.float_power_ext(x, 2.0), [X], (0,)),
    Case("population_count", _o("population_count"), [I16]),
    Case("population_count_u8", _o("population_count"), [np.array([0, 1, 255, 128], np.uint8)]),
    Case("invert", _o("invert"), [I16]),
    Case("invert_bool", _o("invert"), [np.array([True, False])]),
    Case("bitwise_left_shift", _o("bitwise_left_shift"), [I1, SH]),
    Case("bitwise_right_shift", _o("bitwise_right_shift"), [I1, SH]),
    Case("bitwise_left_shift_scalar", lambda ms, ops, x: ops.bitwise_left_shift(x, 2), [I1]),
    Case("truncate_div", _o("truncate_div"), [XB, X], (0, 1)),
    Case("truncate_div_int", _o("truncate_div"), [I1, np.array([[4, -4, 2], [5, 4, 3]],
                                                               np.int32)]),
    Case("truncate_mod", _o("truncate_mod"), [XB, X], (0, 1)),
    Case("truncate_mod_int", _o("truncate_mod"), [I1, np.array([[4, -4, 2], [5, 4, 3]],
                                                               np.int32)]),
    Case("approximate_equal", _o("approximate_equal"), [X, X + np.float32(2e-5)]),
    Case("approximate_equal_tol", _o("approximate_equal", tolerance=1e-3),
         [X, X + np.float32(2e-4)]),
    Case("isreal", _o("isreal"), [X]),
    Case("isreal_complex", lambda ms, ops, r, t: ops.isreal(_cplx(ms, ops, r, t)),
         [np.array([1.0, 2.0, 0.0], np.float32), np.array([0.0, 0.5, 1.0], np.float32)]),
    Case("is_nonzero", lambda ms, ops, x: ms.Tensor(ops.is_nonzero(x)),
         [np.array([2.0], np.float32)]),
    Case("is_nonzero_zero", lambda ms, ops, x: ms.Tensor(ops.is_nonzero(x)),
         [np.array([[0]], np.int32)]),
    Case("is_nonzero_many", lambda ms, ops, x: ms.Tensor(ops.is_nonzero(x)), [X]),
    Case("polar", lambda ms, ops, r, t: ops.view_as_real(ops.polar(r, t)), [POS, X], (0, 1)),
    Case("angle_real_imag", lambda ms, ops, r, t: ops.angle(_cplx(ms, ops, r, t))
         + ops.real(_cplx(ms, ops, r, t)) * 2 + ops.imag(_cplx(ms, ops, r, t)) * 3,
         [POS, X], (0, 1)),
    Case("conj", lambda ms, ops, r, t: ops.view_as_real(ops.conj(_cplx(ms, ops, r, t))),
         [POS, X], (0, 1)),
    Case("real_of_real", _o("real"), [X]),
    Case("imag_of_real", _o("imag"), [X]),
    Case("conj_of_real", _o("conj"), [X]),
    Case("angle_of_real", _o("angle"), [X]),
    Case("complex_op", lambda ms, ops, a, b: ops.view_as_real(ops.Complex()(a, b)), [X, XB],
         (0, 1)),
    Case("abs_complex", lambda ms, ops, r, t: ops.abs(_cplx(ms, ops, r, t)), [POS, X], (0, 1)),
    Case("method_gcd_lcm", lambda ms, ops, a, b: a.gcd(b) + a.lcm(b), [I1, I2]),
    Case("method_xdivy_ldexp", lambda ms, ops, a, b: a.xdivy(b) + a.ldexp(b), [X, POS], (0,)),
    Case("method_invert_shifts",
         lambda ms, ops, a, b: a.invert() + a.bitwise_left_shift(b) + a.bitwise_right_shift(b),
         [I1, SH]),
    Case("method_nextafter_isreal",
         lambda ms, ops, a, b: ms.ops.cast(a.nextafter(b) > a, ms.int32) + a.isreal(), [X, XB]),
    Case("method_real_imag", lambda ms, ops, x: x.real() + x.imag(), [X]),
]


def _spd(seed: int, n: int, batch: tuple = ()) -> np.ndarray:
    a = _r(seed, batch + (n, n)).astype(np.float64)
    return (a @ np.swapaxes(a, -1, -2) + n * np.eye(n)).astype(np.float32)


A33 = _r(330, (3, 3)) + 2 * np.eye(3, dtype=np.float32)
A43 = _r(331, (4, 3))
A34 = _r(332, (3, 4))
B32 = _r(333, (3, 2))
B42 = _r(334, (4, 2))
SPD = _spd(335, 3)
LOW = np.linalg.cholesky(SPD.astype(np.float64)).astype(np.float32)
SYM = (A33 + A33.T) / 2
BX = _r(336, (2, 3, 4))
BY = _r(337, (2, 4, 5))
# a matrix with real, well separated eigenvalues (its eigenvectors are fixed up to scale)
EIG = np.array([[2.0, 1.0, 0.0], [0.5, -1.0, 0.3], [0.0, 0.2, 0.5]], np.float32)
PIV = np.array([2, 2, 3], np.int32)

LINALG = [
    Case("qr", _o("qr"), [A43], (0,)),
    Case("qr_wide", _o("qr"), [A34], (0,)),
    Case("qr_complete", _o("qr", mode="complete"), [A43]),
    Case("qr_batch", _o("qr"), [_r(338, (2, 3, 3))], (0,)),
    Case("qr_r_second", lambda ms, ops, x: ops.qr(x)[1], [A43], (0,)),
    Case("qr_bad_mode", _o("qr", mode="r"), [A43]),
    Case("pinv", _o("pinv"), [A43], (0,)),
    Case("pinv_wide_batch", _o("pinv"), [_r(339, (2, 2, 3))], (0,)),
    Case("pinv_hermitian", _o("pinv", hermitian=True), [SYM], (0,)),
    Case("pinv_rank_deficient", _o("pinv"), [np.array([[1., 2.], [2., 4.], [0., 0.]],
                                                      np.float32)]),
    Case("pinv_rtol", _o("pinv", rtol=0.5), [A43]),
    Case("lstsq", _o("lstsq"), [A43, B42], (0, 1)),
    Case("lstsq_vec", _o("lstsq"), [A43, _r(340, (4,))]),
    Case("eigvals_real", lambda ms, ops, a: ops.view_as_real(ops.eigvals(a)), [EIG]),
    Case("eig_values", lambda ms, ops, a: ops.view_as_real(ops.eig(a)[0]), [EIG]),
    Case("eig_vectors_abs", lambda ms, ops, a: ops.abs(ops.eig(a)[1]), [EIG]),
    Case("matrix_solve", _o("matrix_solve"), [A33, B32], (0, 1)),
    Case("matrix_solve_adjoint", _o("matrix_solve", adjoint=True), [A33, B32], (0, 1)),
    Case("matrix_solve_batch", _o("matrix_solve"), [np.stack([A33, SPD]),
                                                   _r(341, (2, 3, 1))], (0, 1)),
    Case("cholesky_inverse", _o("cholesky_inverse"), [LOW], (0,)),
    Case("cholesky_inverse_upper", _o("cholesky_inverse", upper=True),
         [np.ascontiguousarray(LOW.T)], (0,)),
    Case("cholesky_solve", _o("cholesky_solve"), [B32, LOW], (0, 1)),
    Case("cholesky_solve_upper", _o("cholesky_solve", upper=True),
         [B32, np.ascontiguousarray(LOW.T)], (0, 1)),
    Case("log_matrix_determinant", _o("log_matrix_determinant"),
         [A33 - 3 * np.eye(3, dtype=np.float32)], (0,)),
    Case("log_matrix_determinant_batch", _o("log_matrix_determinant"),
         [np.stack([SPD, -SPD])]),
    Case("geqrf", _o("geqrf"), [A43]),
    Case("geqrf_wide", _o("geqrf"), [A34]),
    Case("orgqr", lambda ms, ops, a, t: ops.orgqr(a, t),
         [np.linalg.qr(A43.astype(np.float64), mode="raw")[0].T.astype(np.float32),
          np.linalg.qr(A43.astype(np.float64), mode="raw")[1].astype(np.float32)], (0, 1)),
    Case("ormqr_f64", lambda ms, ops, a, t, c: ops.ormqr(a, t, c),
         [_r(342, (3, 3)).astype(np.float64), _r(343, (3,)).astype(np.float64),
          _r(344, (3, 2)).astype(np.float64)], (0, 1, 2)),
    Case("matrix_exp", _o("matrix_exp"), [A33 * 0.5], (0,)),
    Case("matrix_exp_f64", _o("matrix_exp"), [(A33 * 0.5).astype(np.float64)], (0,)),
    Case("matrix_norm", _o("matrix_norm"), [A43], (0,)),
    Case("matrix_norm_nuc", _o("matrix_norm", ord="nuc"), [A43], (0,)),
    Case("matrix_norm_2", _o("matrix_norm", ord=2), [A43], (0,)),
    Case("matrix_norm_m2", _o("matrix_norm", ord=-2), [A43], (0,)),
    Case("matrix_norm_1", _o("matrix_norm", ord=1), [A43], (0,)),
    Case("matrix_norm_inf_keep", _o("matrix_norm", ord=float("inf"), keepdims=True), [BX],
         (0,)),
    Case("matrix_norm_axis", _o("matrix_norm", axis=(0, 2)), [BX], (0,)),
    Case("matrix_band_part", _o("matrix_band_part", lower=1, upper=0), [_r(345, (3, 4))],
         (0,)),
    Case("matrix_band_part_all", _o("matrix_band_part", lower=-1, upper=1), [BX], (0,)),
    Case("matrix_diag", _o("matrix_diag"), [_r(346, (3,))], (0,)),
    Case("matrix_diag_k", lambda ms, ops, x: ops.matrix_diag(x, 1, 3, 4, 0.5), [_r(347, (2, 2))],
         (0,)),
    Case("matrix_diag_part", lambda ms, ops, x: ops.matrix_diag_part(
        x, ms.Tensor(0, ms.int32), ms.Tensor(0.0)), [A34], (0,)),
    Case("matrix_diag_part_k", lambda ms, ops, x: ops.matrix_diag_part(
        x, ms.Tensor(-1, ms.int32), ms.Tensor(9.0)), [BX], (0,)),
    Case("matrix_set_diag", _o("matrix_set_diag"), [A34, _r(348, (3,))], (0, 1)),
    Case("matrix_set_diag_k", lambda ms, ops, x, d: ops.matrix_set_diag(
        x, d, ms.Tensor(1, ms.int32)), [BX, _r(349, (2, 3))], (0, 1)),
    Case("block_diag", _o("block_diag"), [A33, B32, _r(350, (1, 4))], (0, 1, 2)),
    Case("cov", _o("cov"), [A34], (0,)),
    Case("cov_correction0", _o("cov", correction=0), [A34], (0,)),
    Case("cov_weights", lambda ms, ops, x, a: ops.cov(
        x, fweights=ms.Tensor(np.array([1, 2, 1, 3], np.int32)), aweights=a),
         [A34, _r(351, (4,), lo=0.5, hi=2.0)], (0, 1)),
    Case("cov_1d", _o("cov"), [_r(352, (5,))], (0,)),
    Case("addbmm", _o("addbmm"), [_r(353, (3, 5)), BX, BY], (0, 1, 2)),
    Case("addbmm_beta_alpha", _o("addbmm", beta=0.5, alpha=2), [_r(353, (3, 5)), BX, BY],
         (0, 1, 2)),
    Case("baddbmm", _o("baddbmm"), [_r(354, (2, 3, 5)), BX, BY], (0, 1, 2)),
    Case("baddbmm_beta_alpha", _o("baddbmm", beta=2, alpha=0.5), [_r(355, (3, 5)), BX, BY],
         (0, 1, 2)),
    Case("batch_dot", _o("batch_dot", axes=(2, 1)), [BX, BY], (0, 1)),
    Case("batch_dot_default", _o("batch_dot"), [_r(356, (2, 3)), _r(357, (2, 3))], (0, 1)),
    Case("batch_dot_int_axes", _o("batch_dot", axes=1), [_r(358, (3, 2, 4)), _r(359, (3, 2, 5))],
         (0, 1)),
    Case("pdist", _o("pdist"), [A43], (0,)),
    Case("pdist_p1", _o("pdist", p=1.0), [A43], (0,)),
    Case("pdist_batch", _o("pdist", p=3.0), [BX], (0,)),
    Case("renorm", _o("renorm", p=2, axis=0, maxnorm=1.0), [A43 * 2], (0,)),
    Case("renorm_p1_axis1", _o("renorm", p=1, axis=1, maxnorm=2.0), [BX], (0,)),
    Case("vander", _o("vander"), [_r(360, (4,))], (0,)),
    Case("vander_N", _o("vander", N=2), [_r(360, (4,))], (0,)),
    Case("lu_unpack", lambda ms, ops, a, p: ops.lu_unpack(a, p), [A33, PIV]),
    Case("lu_solve", lambda ms, ops, b, a, p: ops.lu_solve(b, a, p), [B32, A33, PIV], (0, 1)),
    Case("method_qr_cov", lambda ms, ops, x: x.qr()[1].sum() + x.cov().sum(), [A43], (0,)),
    Case("method_lstsq", lambda ms, ops, a, b: a.lstsq(b), [A43, B42], (0,)),
    Case("method_cholesky_inverse_solve",
         lambda ms, ops, l, b: l.cholesky_inverse() @ b + b.cholesky_solve(l), [LOW, B32],
         (0, 1)),
    Case("method_log_matrix_determinant_renorm",
         lambda ms, ops, a: a.log_matrix_determinant()[1] + a.renorm(2, 0, 1.0).sum(), [A33],
         (0,)),
    Case("method_addbmm_baddbmm",
         lambda ms, ops, x, a, b: x.addbmm(a, b) + x.baddbmm(a, b).sum(0),
         [_r(353, (3, 5)), BX, BY], (0, 1, 2)),
    Case("method_eigvals", lambda ms, ops, a: ops.view_as_real(a.eigvals()), [EIG]),
]

S8 = _r(370, (8,))
S7 = _r(371, (7,))
IM = _r(372, (2, 3, 4))


def _c(ms, ops, re, im):
    return ops.Complex()(re, im)


def _rv(f):
    """``f`` of a complex tensor built from two real inputs, seen as its real view."""
    return lambda ms, ops, re, im: ops.view_as_real(f(ms, ops, _c(ms, ops, re, im)))


FFT = [
    Case("fft_real", lambda ms, ops, x: ops.view_as_real(ops.fft(x)), [S8], (0,)),
    Case("fft_complex", _rv(lambda ms, ops, z: ops.fft(z)), [S8, S7[:1].repeat(8) + S8[::-1]],
         (0, 1)),
    Case("fft_n_pad", lambda ms, ops, x: ops.view_as_real(ops.fft(x, 10)), [S7], (0,)),
    Case("fft_n_crop_dim0_ortho", lambda ms, ops, x: ops.view_as_real(
        ops.fft(x, 2, 0, "ortho")), [R234], (0,)),
    Case("ifft", _rv(lambda ms, ops, z: ops.ifft(z)), [S8, S8 * 0.5 + 1], (0, 1)),
    Case("ifft_forward", _rv(lambda ms, ops, z: ops.ifft(z, norm="forward")), [S8, S8[::-1]],
         (0, 1)),
    Case("fft2", lambda ms, ops, x: ops.view_as_real(ops.fft2(x)), [R234], (0,)),
    Case("ifft2_s", _rv(lambda ms, ops, z: ops.ifft2(z, (2, 5))), [R234, IM], (0, 1)),
    Case("fftn", lambda ms, ops, x: ops.view_as_real(ops.fftn(x)), [R234], (0,)),
    Case("fftn_dim", lambda ms, ops, x: ops.view_as_real(ops.fftn(x, dim=(0, 2),
                                                                 norm="ortho")), [R234], (0,)),
    Case("ifftn", _rv(lambda ms, ops, z: ops.ifftn(z)), [R234, IM], (0, 1)),
    Case("rfft", lambda ms, ops, x: ops.view_as_real(ops.rfft(x)), [S8], (0,)),
    Case("rfft_odd", lambda ms, ops, x: ops.view_as_real(ops.rfft(x)), [S7], (0,)),
    Case("rfft_n_dim0", lambda ms, ops, x: ops.view_as_real(ops.rfft(x, 4, 0, "ortho")),
         [R234], (0,)),
    Case("irfft", lambda ms, ops, re, im: ops.irfft(_c(ms, ops, re, im)), [S8[:5], S7[:5]],
         (0, 1)),
    Case("irfft_n_odd", lambda ms, ops, re, im: ops.irfft(_c(ms, ops, re, im), 7),
         [S8[:5], S7[:5]], (0, 1)),
    Case("irfft_forward", lambda ms, ops, re, im: ops.irfft(_c(ms, ops, re, im), norm="forward"),
         [S8[:5], S7[:5]], (0, 1)),
    Case("rfft2", lambda ms, ops, x: ops.view_as_real(ops.rfft2(x)), [R234], (0,)),
    Case("irfft2", lambda ms, ops, re, im: ops.irfft2(_c(ms, ops, re, im)), [R234, IM], (0, 1)),
    Case("rfftn", lambda ms, ops, x: ops.view_as_real(ops.rfftn(x)), [R234], (0,)),
    # (MindSpore 2.10 crashes taking this gradient: values only)
    Case("irfftn_s", lambda ms, ops, re, im: ops.irfftn(_c(ms, ops, re, im), (3, 6)),
         [R234, IM]),
    Case("hfft", lambda ms, ops, re, im: ops.hfft(_c(ms, ops, re, im)), [S8[:5], S7[:5]],
         (0, 1)),
    Case("ihfft", lambda ms, ops, x: ops.view_as_real(ops.ihfft(x)), [S8], (0,)),
    Case("hfft2", lambda ms, ops, re, im: ops.hfft2(_c(ms, ops, re, im)), [R234, IM], (0, 1)),
    Case("ihfft2", lambda ms, ops, x: ops.view_as_real(ops.ihfft2(x)), [R234], (0,)),
    Case("hfftn", lambda ms, ops, re, im: ops.hfftn(_c(ms, ops, re, im)), [R234, IM], (0, 1)),
    Case("ihfftn", lambda ms, ops, x: ops.view_as_real(ops.ihfftn(x)), [R234], (0,)),
    Case("fft_f64", lambda ms, ops, x: ops.view_as_real(ops.fft(x)), [S8.astype(np.float64)],
         (0,)),
    Case("fft_int", lambda ms, ops, x: ops.view_as_real(ops.fft(x)), [I2]),
    Case("fft_bad_dim", lambda ms, ops, x: ops.fft(x, dim=3), [R234]),
    Case("fft_bad_norm", lambda ms, ops, x: ops.fft(x, norm="none"), [S8]),
    Case("fftfreq", lambda ms, ops: ops.fftfreq(5), []),
    Case("fftfreq_d_f64", lambda ms, ops: ops.fftfreq(6, 0.5, dtype=ms.float64), []),
    Case("rfftfreq", lambda ms, ops: ops.rfftfreq(7, 2.0), []),
    Case("fftshift", _o("fftshift"), [R234], (0,)),
    Case("fftshift_dim", _o("fftshift", dim=1), [R234], (0,)),
    Case("ifftshift", _o("ifftshift", dim=(0, 2)), [R234], (0,)),
    Case("bartlett_window", lambda ms, ops: ops.bartlett_window(ms.Tensor(5)), []),
    Case("bartlett_window_sym", lambda ms, ops: ops.bartlett_window(
        ms.Tensor(6), False, dtype=ms.float64), []),
    Case("blackman_window", lambda ms, ops: ops.blackman_window(ms.Tensor(6)), []),
    Case("blackman_window_sym", lambda ms, ops: ops.blackman_window(ms.Tensor(5), False), []),
    Case("hamming_window", lambda ms, ops: ops.hamming_window(5), []),
    Case("hamming_window_args", lambda ms, ops: ops.hamming_window(
        6, False, 0.5, 0.4, dtype=ms.float64), []),
    Case("hann_window", lambda ms, ops: ops.hann_window(5), []),
    Case("hann_window_sym_f32", lambda ms, ops: ops.hann_window(6, False, dtype=ms.float32),
         []),
    Case("kaiser_window", lambda ms, ops: ops.kaiser_window(5), []),
    Case("kaiser_window_beta", lambda ms, ops: ops.kaiser_window(6, False, 5.0,
                                                                 dtype=ms.float32), []),
    Case("window_one", lambda ms, ops: ops.hann_window(1), []),
    Case("stft", lambda ms, ops, x: ops.view_as_real(ops.stft(x, 8, return_complex=True)),
         [_r(373, (2, 32))]),
    Case("stft_window_hop", lambda ms, ops, x, w: ops.view_as_real(ops.stft(
        x, 8, hop_length=2, window=w, center=False, return_complex=True)),
         [_r(374, (20,)), np.hanning(8).astype(np.float32)]),
    Case("stft_onesided_false", lambda ms, ops, x: ops.stft(x, 6, onesided=False, normalized=True,
                                                            return_complex=False),
         [_r(375, (16,))]),
]


def _P(name, *init):
    """A call of the operator class ``ops.<name>(*init)``."""
    return lambda ms, ops, *xs: getattr(ops, name)(*init)(*xs)


OP_CLASSES = [
    Case("Qr_class", _P("Qr"), [A43], (0,)),
    Case("Qr_full", _P("Qr", True), [A43]),
    Case("Eig_values", lambda ms, ops, a: ops.view_as_real(ops.Eig()(a)[0]), [EIG]),
    Case("Eig_vectors", lambda ms, ops, a: ops.abs(ops.Eig(True)(a)[1]), [EIG]),
    Case("Lstsq_class", _P("Lstsq"), [A43, B42]),
    Case("Lstsq_l2", _P("Lstsq", True, 0.5), [A43, B42]),
    Case("LuUnpack_class", _P("LuUnpack"), [A33, PIV]),
    Case("Ormqr_class_f64", _P("Ormqr", False, True),
         [_r(342, (3, 3)).astype(np.float64), _r(343, (3,)).astype(np.float64),
          _r(380, (2, 3)).astype(np.float64)]),
    Case("Renorm_class", _P("Renorm", 2, 0, 1.0), [A43 * 2], (0,)),
    Case("MatrixDiagV3", lambda ms, ops, x: ops.MatrixDiagV3()(
        x, ms.Tensor(1, ms.int32), ms.Tensor(4, ms.int32), ms.Tensor(4, ms.int32),
        ms.Tensor(0.5, ms.float32)), [_r(381, (3,))], (0,)),
    Case("MatrixDiagPartV3", lambda ms, ops, x: ops.MatrixDiagPartV3()(
        x, ms.Tensor(1, ms.int32), ms.Tensor(0.0, ms.float32)), [A34], (0,)),
    Case("MatrixSetDiagV3", lambda ms, ops, x, d: ops.MatrixSetDiagV3()(
        x, d, ms.Tensor(0, ms.int32)), [A34, _r(382, (3,))], (0, 1)),
    Case("BartlettWindow", lambda ms, ops: ops.BartlettWindow()(ms.Tensor(6, ms.int32)), []),
    Case("BlackmanWindow_f64", lambda ms, ops: ops.BlackmanWindow(False, ms.float64)(
        ms.Tensor(5, ms.int32)), []),
    Case("HammingWindow", lambda ms, ops: ops.HammingWindow()(
        ms.Tensor(np.array([5], np.int32))), []),
    Case("ComplexAbs", lambda ms, ops, a, b: ops.ComplexAbs()(ops.Complex()(a, b)), [X, XB],
         (0, 1)),
    Case("ConjugateTranspose", lambda ms, ops, a, b: ops.view_as_real(
        ops.ConjugateTranspose()(ops.Complex()(a, b), (1, 0))), [X, XB], (0, 1)),
    Case("STFT_class", lambda ms, ops, x, w: ops.view_as_real(
        ops.STFT(8, 2, 8, False, True, True)(x, w)), [_r(383, (2, 20)), _r(384, (8,))]),
    Case("Polygamma_class", lambda ms, ops, x: ops.Polygamma()(ms.Tensor(1), x), [POS], (0,)),
    Case("MatrixSolve_adjoint", _P("MatrixSolve", True), [A33, B32], (0, 1)),
    Case("CholeskySolve_class", _P("CholeskySolve"), [B32, LOW], (0, 1)),
]

CASES = SPECIAL + ELEMENTWISE + LINALG + FFT + OP_CLASSES
