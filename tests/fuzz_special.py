"""The fuzzer's table rows (``fuzz_ops.spec``) for the special functions, integer bits,
complex parts, decompositions, matrix builders and Fourier transforms; imported by
``fuzz_ops`` before it adds the operator classes that forward to these functions."""
from __future__ import annotations

import numpy as np
import scipy.special as sp

import fuzz_ops as FZ
from fuzz_ops import _arr, _pos, _shape, _unit, spec


def _t(dom=_arr, shape=None):
    return lambda rng: [("tensor", None, dom(rng, shape or _shape(rng)))]


def _ints(rng, shape, lo=-20, hi=20, dtype=np.int32):
    return rng.integers(lo, hi, size=shape).astype(dtype)


def _mat(rng, m=3, n=3, dtype=None):
    return _arr(rng, (m, n), dtype)


def _well(rng, n=3, dtype=None):
    x = _arr(rng, (n, n), dtype)
    return np.asarray(x + 3 * np.eye(n), x.dtype)


def _lower(rng, n=3):
    return np.tril(_arr(rng, (n, n), np.float64)) + 3 * np.eye(n)


# --- special functions -----------------------------------------------------------------------
for _name, _dom, _ref in [
        ("lgamma", _pos, sp.gammaln), ("digamma", _pos, sp.digamma),
        ("erfinv", _unit, sp.erfinv), ("i0", _arr, sp.i0), ("bessel_i0", _arr, sp.i0),
        ("bessel_i0e", _arr, sp.i0e), ("bessel_i1", _arr, sp.i1), ("bessel_i1e", _arr, sp.i1e),
        ("bessel_j0", _arr, sp.j0), ("bessel_j1", _arr, sp.j1), ("bessel_y0", _pos, sp.y0),
        ("bessel_y1", _pos, sp.y1), ("bessel_k0", _pos, sp.k0), ("bessel_k0e", _pos, sp.k0e),
        ("bessel_k1", _pos, sp.k1), ("bessel_k1e", _pos, sp.k1e)]:
    spec(_name, _t(_dom), _ref, float_only=True, int_ok=False)

_SAME = lambda rng: (lambda s: [("tensor", None, _pos(rng, s, np.float32)),  # noqa: E731
                                ("tensor", None, _pos(rng, s, np.float32))])(_shape(rng))
spec("igamma", _SAME, sp.gammainc, int_ok=False)
spec("igammac", _SAME, sp.gammaincc, int_ok=False)
spec("zeta", lambda rng: (lambda s: [("tensor", None, np.asarray(_pos(rng, s, np.float64) + 1)),
                                     ("tensor", None, _pos(rng, s, np.float64))])(_shape(rng)),
     sp.zeta, int_ok=False)
spec("polygamma", lambda rng: [("tensor", None, np.array(1, np.int64)),
                               ("tensor", None, _pos(rng, _shape(rng)))],
     lambda n, x: sp.polygamma(int(n), x).astype(x.dtype), int_ok=False)
spec("mvlgamma", lambda rng: [("tensor", None, np.asarray(_pos(rng, _shape(rng)) + 2)),
                              ("int", "p", 2)],
     int_ok=False)

# --- integers and bits -----------------------------------------------------------------------
_IPAIR = lambda rng: (lambda s: [("tensor", None, _ints(rng, s)),  # noqa: E731
                                 ("tensor", None, _ints(rng, s))])(_shape(rng))
spec("gcd", _IPAIR, np.gcd, out="")
spec("lcm", _IPAIR, np.lcm, out="")
_SHIFT = lambda rng: (lambda s: [("tensor", None, _ints(rng, s, 0, 50)),  # noqa: E731
                                 ("tensor", None, _ints(rng, s, 0, 5))])(_shape(rng))
spec("bitwise_left_shift", _SHIFT, np.left_shift, out="")
spec("bitwise_right_shift", _SHIFT, np.right_shift, out="")
spec("invert", lambda rng: [("tensor", None, _ints(rng, _shape(rng)))], np.invert, out="")
spec("population_count", lambda rng: [("tensor", None, _ints(rng, _shape(rng), 0, 200))],
     lambda x: np.bitwise_count(x.view(np.uint32) if x.dtype == np.int32 else x
                                ).astype(np.uint8), out="")
_FPAIR = lambda rng: (lambda s: [("tensor", None, _arr(rng, s, np.float32)),  # noqa: E731
                                 ("tensor", None, _pos(rng, s, np.float32))])(_shape(rng))
spec("truncate_div", _FPAIR, lambda x, y: np.trunc(x / y), int_ok=False)
spec("truncate_mod", _FPAIR, np.fmod, int_ok=False)
spec("nextafter", _FPAIR, np.nextafter, int_ok=False)
spec("xdivy", _FPAIR, lambda x, y: np.where(x == 0, 0, x / y), int_ok=False)
spec("ldexp", lambda rng: (lambda s: [("tensor", None, _arr(rng, s, np.float32)),
                                      ("tensor", None, _ints(rng, s, -3, 3))])(_shape(rng)),
     lambda x, e: x * np.exp2(e).astype(x.dtype), int_ok=False)
spec("float_power_ext", _FPAIR, lambda x, y: np.float_power(x, y), out="", int_ok=False)
spec("approximate_equal", lambda rng: (lambda a: [("tensor", None, a), ("tensor", None, a)])(
    _arr(rng, _shape(rng), np.float32)), lambda x, y: np.abs(x - y) < 1e-5, out="bool",
     int_ok=False)
spec("is_nonzero", lambda rng: [("tensor", None, _arr(rng, (1,)))], out="")
spec("isreal", _t(), lambda x: np.isreal(x), out="bool")

# --- complex parts -----------------------------------------------------------------------------
spec("real", _t(), lambda x: x)
spec("imag", _t(), np.zeros_like)
spec("conj", _t(), lambda x: x)
spec("polar", _FPAIR, lambda r, t: r * np.exp(1j * t).astype(np.complex64), out="")
for _name in ("angle", "view_as_real"):
    spec(_name, lambda rng: [("tensor", None, (_arr(rng, _shape(rng), np.float32)
                                               + 1j * _arr(rng, (1,), np.float32)
                                               ).astype(np.complex64))], out="")
def _complex_ref(a, b):
    out = np.empty(np.broadcast_shapes(a.shape, b.shape), np.complex64)
    out.real, out.imag = a, b
    return out


def Complex(real, imag):  # noqa: N802  (the operator class's call, under its name)
    return FZ.ops.Complex()(real, imag)


FZ.SPECS.append(FZ.Spec("Complex", Complex, _FPAIR, _complex_ref, out="", int_ok=False))

# --- decompositions and solves -------------------------------------------------------------------
spec("qr", lambda rng: [("tensor", None, _mat(rng, 4, 3)), ("str", "mode", "reduced")],
     lambda x, mode="reduced": np.linalg.qr(x, mode), int_ok=False)
spec("geqrf", lambda rng: [("tensor", None, _mat(rng, 4, 3))], out="")
spec("orgqr", lambda rng: (lambda a: [("tensor", None, a), ("tensor", None, _arr(rng, (3,),
                                                                                 a.dtype))])(
    _mat(rng, 4, 3)), out="")
spec("ormqr", lambda rng: (lambda a: [("tensor", None, a), ("tensor", None, _arr(rng, (3,),
                                                                                 a.dtype)),
                                      ("tensor", None, _arr(rng, (3, 2), a.dtype))])(
    _mat(rng, 3, 3)), out="")
spec("eig", lambda rng: [("tensor", None, _well(rng))], out="")
spec("eigvals", lambda rng: [("tensor", None, _well(rng))], out="")
spec("pinv", lambda rng: [("tensor", None, _mat(rng, 3, 4))], np.linalg.pinv, int_ok=False)
spec("lstsq", lambda rng: (lambda a: [("tensor", None, a), ("tensor", None, _arr(rng, (4, 2),
                                                                                 a.dtype))])(
    _mat(rng, 4, 3)), lambda a, b: np.linalg.lstsq(a, b, rcond=None)[0], int_ok=False)
spec("matrix_solve", lambda rng: (lambda a: [("tensor", None, a), ("tensor", None, _arr(
    rng, (3, 2), a.dtype)), ("bool", "adjoint", False)])(_well(rng)),
     lambda a, b, adj=False: np.linalg.solve(a, b), int_ok=False)
spec("cholesky_inverse", lambda rng: [("tensor", None, _lower(rng)), ("bool", "upper", False)],
     lambda l, up=False: np.linalg.inv(l @ l.T), int_ok=False)
spec("cholesky_solve", lambda rng: [("tensor", None, _arr(rng, (3, 2), np.float64)),
                                    ("tensor", None, _lower(rng)), ("bool", "upper", False)],
     lambda b, l, up=False: np.linalg.solve(l @ l.T, b), int_ok=False)
spec("log_matrix_determinant", lambda rng: [("tensor", None, _well(rng))],
     lambda x: np.linalg.slogdet(x), int_ok=False)
spec("matrix_exp", lambda rng: [("tensor", None, np.asarray(_mat(rng) * 0.3))], out="")
spec("matrix_norm", lambda rng: [("tensor", None, _mat(rng, 2, 3)), ("str", "ord", "fro")],
     lambda x, o="fro": np.linalg.norm(x, o), int_ok=False)
spec("lu_unpack", lambda rng: [("tensor", None, _well(rng)),
                               ("tensor", None, np.array([2, 2, 3], np.int32))], out="")
spec("lu_solve", lambda rng: (lambda a: [("tensor", None, _arr(rng, (3, 1), a.dtype)),
                                         ("tensor", None, a),
                                         ("tensor", None, np.array([1, 2, 3], np.int32))])(
    _well(rng)), out="")

# --- matrix builders and batched products --------------------------------------------------------
spec("matrix_band_part", lambda rng: [("tensor", None, _mat(rng, 3, 4)), ("int", None, 1),
                                      ("int", None, 0)],
     lambda x, lo, hi: np.triu(np.tril(x, hi), -lo) if lo >= 0 and hi >= 0 else None)
spec("matrix_diag", lambda rng: [("tensor", None, _arr(rng, (3,)))],
     lambda x: np.diag(x) if x.ndim == 1 else None)
spec("matrix_diag_part", lambda rng: [("tensor", None, _mat(rng, 3, 4)), ("int", None, 0),
                                      ("float", None, 0.0)], lambda x, k, p: np.diagonal(x, k))
spec("matrix_set_diag", lambda rng: (lambda x: [("tensor", None, x), ("tensor", None, _arr(
    rng, (3,), x.dtype))])(_mat(rng, 3, 4)), out="")
spec("block_diag", lambda rng: [("tensor", None, _mat(rng, 2, 2)),
                                ("tensor", None, _mat(rng, 1, 3))], out="")
spec("cov", lambda rng: [("tensor", None, _mat(rng, 2, 5))], lambda x: np.cov(x),
     int_ok=False)
spec("addbmm", lambda rng: [("tensor", None, _arr(rng, (2, 4), np.float32)),
                            ("tensor", None, _arr(rng, (3, 2, 3), np.float32)),
                            ("tensor", None, _arr(rng, (3, 3, 4), np.float32))],
     lambda i, a, b: i + (a @ b).sum(0))
spec("baddbmm", lambda rng: [("tensor", None, _arr(rng, (3, 2, 4), np.float32)),
                             ("tensor", None, _arr(rng, (3, 2, 3), np.float32)),
                             ("tensor", None, _arr(rng, (3, 3, 4), np.float32))],
     lambda i, a, b: i + a @ b)
spec("batch_dot", lambda rng: [("tensor", None, _arr(rng, (2, 3), np.float32)),
                               ("tensor", None, _arr(rng, (2, 3), np.float32))],
     lambda a, b: (a * b).sum(1, keepdims=True))
spec("pdist", lambda rng: [("tensor", None, _mat(rng, 4, 3)), ("float", "p", 2.0)], out="")
spec("renorm", lambda rng: [("tensor", None, _mat(rng, 3, 4)), ("int", None, 2),
                            ("axis", None, 0), ("float", None, 1.0)], out="")
spec("vander", lambda rng: [("tensor", None, _arr(rng, (4,)))], np.vander)

# --- Fourier transforms and windows -----------------------------------------------------------
for _name, _ref in [("fft", np.fft.fft), ("ifft", np.fft.ifft), ("rfft", np.fft.rfft),
                    ("ihfft", np.fft.ihfft), ("fft2", np.fft.fft2), ("ifft2", np.fft.ifft2),
                    ("fftn", np.fft.fftn), ("ifftn", np.fft.ifftn), ("rfft2", np.fft.rfft2),
                    ("rfftn", np.fft.rfftn), ("ihfft2", None), ("ihfftn", None)]:
    spec(_name, lambda rng: [("tensor", None, _arr(rng, (2, 4), np.float64))], _ref, out="")
for _name, _ref in [("irfft", np.fft.irfft), ("hfft", np.fft.hfft), ("irfft2", np.fft.irfft2),
                    ("irfftn", np.fft.irfftn), ("hfft2", None), ("hfftn", None)]:
    spec(_name, lambda rng: [("tensor", None, (_arr(rng, (2, 4), np.float64)
                                               + 1j * _arr(rng, (2, 4), np.float64)))],
         _ref, out="")
spec("fftshift", lambda rng: [("tensor", None, _arr(rng, _shape(rng, 1)))], np.fft.fftshift)
spec("ifftshift", lambda rng: [("tensor", None, _arr(rng, _shape(rng, 1)))], np.fft.ifftshift)
spec("fftfreq", lambda rng: [("int", None, 5), ("float", None, 1.0)],
     lambda n, d: np.fft.fftfreq(n, d).astype(np.float32), out="")
spec("rfftfreq", lambda rng: [("int", None, 5), ("float", None, 1.0)],
     lambda n, d: np.fft.rfftfreq(n, d).astype(np.float32), out="")
for _name in ("bartlett_window", "blackman_window"):
    spec(_name, lambda rng: [("tensor", None, np.array(5, np.int32)), ("bool", None, True)],
         out="")
for _name in ("hamming_window", "hann_window", "kaiser_window"):
    spec(_name, lambda rng: [("int", None, 5), ("bool", None, True)], out="")
spec("stft", lambda rng: [("tensor", None, _arr(rng, (2, 16), np.float32)), ("int", None, 4),
                          ("bool", "return_complex", True)], out="")


# --- operator classes configured differently from their functions (ops/special_ops.py) -------
_CALLS = {"Qr": ("qr",), "Eig": ("eig", "eigvals"), "Lstsq": ("lstsq", "pinv"),
          "LuUnpack": ("lu_unpack",), "Ormqr": ("ormqr",), "Renorm": ("renorm",),
          "MatrixDiagV3": ("matrix_diag",), "MatrixDiagPartV3": ("matrix_diag_part",),
          "MatrixSetDiagV3": ("matrix_set_diag",), "BartlettWindow": ("bartlett_window",),
          "BlackmanWindow": ("blackman_window",), "HammingWindow": ("hamming_window",),
          "ComplexAbs": ("abs",), "ConjugateTranspose": ("transpose", "conj"),
          "STFT": ("stft",)}


def _class(cls_name: str, init: tuple, make, ref=None, out: str = "") -> None:
    """The operator class ``cls_name`` made with ``init``; its errors may name the function
    it calls."""
    cls = getattr(FZ.ops, cls_name)

    def call(*args, **kwargs):
        return cls(*init)(*args, **kwargs)

    call.__name__ = cls_name
    FZ.SPECS.append(FZ.Spec(cls_name, call, make, ref, out=out, int_ok=False,
                            names=_CALLS.get(cls_name, ())))


_class("Qr", (False,), lambda rng: [("tensor", None, _mat(rng, 4, 3))],
       lambda x: np.linalg.qr(x), out="float")
_class("Eig", (True,), lambda rng: [("tensor", None, _well(rng))])
_class("Lstsq", (), lambda rng: (lambda a: [("tensor", None, a), ("tensor", None, _arr(
    rng, (4, 2), a.dtype))])(_mat(rng, 4, 3)))
_class("LuUnpack", (), lambda rng: [("tensor", None, _well(rng)),
                                    ("tensor", None, np.array([2, 2, 3], np.int32))])
_class("Ormqr", (True, False), lambda rng: (lambda a: [
    ("tensor", None, a), ("tensor", None, _arr(rng, (3,), a.dtype)),
    ("tensor", None, _arr(rng, (3, 2), a.dtype))])(_mat(rng, 3, 3)))
_class("Renorm", (2, 0, 1.0), lambda rng: [("tensor", None, _mat(rng, 3, 4))])
_class("MatrixDiagV3", (), lambda rng: [("tensor", None, _arr(rng, (3,))), ("int", None, 0),
                                        ("int", None, 3), ("int", None, 3),
                                        ("float", None, 0.0)])
_class("MatrixDiagPartV3", (), lambda rng: [("tensor", None, _mat(rng, 3, 4)),
                                            ("int", None, 0), ("float", None, 0.0)])
_class("MatrixSetDiagV3", (), lambda rng: (lambda x: [
    ("tensor", None, x), ("tensor", None, _arr(rng, (3,), x.dtype)), ("int", None, 0)])(
    _mat(rng, 3, 4)))
_class("BartlettWindow", (), lambda rng: [("tensor", None, np.array(5, np.int32))])
_class("BlackmanWindow", (), lambda rng: [("tensor", None, np.array(5, np.int32))])
_class("HammingWindow", (), lambda rng: [("tensor", None, np.array([5], np.int32))])
_class("ComplexAbs", (), lambda rng: [("tensor", None, (_arr(rng, (2, 3), np.float32)
                                                        + 1j * _arr(rng, (2, 3), np.float32)
                                                        ).astype(np.complex64))])
_class("ConjugateTranspose", (), lambda rng: [("tensor", None, _mat(rng, 2, 3)),
                                              ("shape", None, (1, 0))])
_class("STFT", (8, 2, 8, False, True, True), lambda rng: [
    ("tensor", None, _arr(rng, (2, 20), np.float32)),
    ("tensor", None, _arr(rng, (8,), np.float32))])
