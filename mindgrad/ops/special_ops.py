"""MindSpore's operator classes for the special-function, decomposition and FFT families
whose constructor arguments differ from their functions' (``ops.Qr(full_matrices)``,
``ops.Renorm(p, dim, maxnorm)``, ``ops.STFT(...)``, ...): each configures, then calls the
function of ``special_functions``, ``decompositions``, ``matrix_functions`` or
``fft_functions``."""
from __future__ import annotations

from typing import Any

from ..core import dtype as mstype
from ..core.tensor import Tensor
from . import decompositions as D
from . import fft_functions as FF
from . import functional as F
from . import matrix_functions as M
from . import special_functions as SF
from .primitive import Primitive as PrimitiveOp
from .special_functions import Complex


def _flag(v: Any, op: str, arg: str) -> bool:
    return F._flag(v, op, arg)


class Qr(PrimitiveOp):
    """``Qr(full_matrices=False)(x)``: ``(Q, R)``, complete when ``full_matrices``."""

    def __init__(self, full_matrices: bool = False) -> None:
        super().__init__()
        self.full_matrices = _flag(full_matrices, "Qr", "full_matrices")

    def __call__(self, x: Any) -> tuple:
        return D.qr(x, "complete" if self.full_matrices else "reduced")


class Eig(PrimitiveOp):
    """``Eig(compute_v=False)(x)``: ``(eigenvalues, eigenvectors)``; without ``compute_v``
    the second is a complex 0-d zero, as MindSpore's placeholder. Values only: no
    gradient."""

    def __init__(self, compute_v: bool = False) -> None:
        super().__init__()
        self.compute_v = _flag(compute_v, "Eig", "compute_v")

    def __call__(self, x: Any) -> Any:
        if self.compute_v:
            return D.eig(x)
        w = D.eigvals(x)
        return w, F.zeros((), w.dtype)


class Lstsq(PrimitiveOp):
    """``Lstsq(fast=True, l2_regularizer=0.0)(a, b)``: the least-squares solution of
    ``a x = b`` (MindSpore takes only ``l2_regularizer=0.0``)."""

    def __init__(self, fast: bool = True, l2_regularizer: float = 0.0) -> None:
        super().__init__()
        self.fast = _flag(fast, "Lstsq", "fast")
        if F._float_param(l2_regularizer, "Lstsq", "l2_regularizer") != 0.0:
            raise TypeError(f"For 'Lstsq', 'l2_regularizer' must be 0.0, but got "
                            f"{l2_regularizer!r}.")
        self.l2_regularizer = 0.0

    def __call__(self, a: Any, b: Any) -> Tensor:
        return D.lstsq(a, b)


class LuUnpack(PrimitiveOp):
    """``LuUnpack(unpack_data=True, unpack_pivots=True)(LU_data, LU_pivots)``."""

    def __init__(self, unpack_data: bool = True, unpack_pivots: bool = True) -> None:
        super().__init__()
        self.unpack_data = _flag(unpack_data, "LuUnpack", "unpack_data")
        self.unpack_pivots = _flag(unpack_pivots, "LuUnpack", "unpack_pivots")

    def __call__(self, LU_data: Any, LU_pivots: Any) -> tuple:  # noqa: N803
        return D.lu_unpack(LU_data, LU_pivots, self.unpack_data, self.unpack_pivots)


class Ormqr(PrimitiveOp):
    """``Ormqr(left=True, transpose=False)(x, tau, other)``."""

    def __init__(self, left: bool = True, transpose: bool = False) -> None:
        super().__init__()
        self.left = _flag(left, "Ormqr", "left")
        self.transpose = _flag(transpose, "Ormqr", "transpose")

    def __call__(self, x: Any, tau: Any, other: Any) -> Tensor:
        return D.ormqr(x, tau, other, self.left, self.transpose)


class Renorm(PrimitiveOp):
    """``Renorm(p, dim, maxnorm)(x)``: ``renorm(x, p, dim, maxnorm)``."""

    def __init__(self, p: int, dim: int, maxnorm: float) -> None:
        super().__init__()
        self.p, self.dim, self.maxnorm = p, dim, maxnorm

    def __call__(self, x: Any) -> Tensor:
        return M.renorm(x, self.p, self.dim, self.maxnorm)


class MatrixDiagV3(PrimitiveOp):
    """``MatrixDiagV3(align)(x, k, num_rows, num_cols, padding_value)``."""

    def __init__(self, align: str = "RIGHT_LEFT") -> None:
        super().__init__()
        self.align = align

    def __call__(self, x: Any, k: Any, num_rows: Any, num_cols: Any,
                 padding_value: Any) -> Tensor:
        return M.matrix_diag(x, k, num_rows, num_cols, padding_value, self.align)


class MatrixDiagPartV3(PrimitiveOp):
    """``MatrixDiagPartV3(align)(x, k, padding_value)``."""

    def __init__(self, align: str = "RIGHT_LEFT") -> None:
        super().__init__()
        self.align = align

    def __call__(self, x: Any, k: Any, padding_value: Any) -> Tensor:
        return M.matrix_diag_part(x, k, padding_value, self.align)


class MatrixSetDiagV3(PrimitiveOp):
    """``MatrixSetDiagV3(align)(x, diagonal, k)``."""

    def __init__(self, align: str = "RIGHT_LEFT") -> None:
        super().__init__()
        self.align = align

    def __call__(self, x: Any, diagonal: Any, k: Any) -> Tensor:
        return M.matrix_set_diag(x, diagonal, k, self.align)


class _Window(PrimitiveOp):
    _fn: Any = None

    def __init__(self, periodic: bool = True, dtype: Any = mstype.float32) -> None:
        super().__init__()
        self.periodic = _flag(periodic, type(self).__name__, "periodic")
        self.dtype = dtype

    def __call__(self, window_length: Any) -> Tensor:
        return type(self)._fn(window_length, self.periodic, dtype=self.dtype)


class BartlettWindow(_Window):
    """``BartlettWindow(periodic=True, dtype=float32)(window_length)``."""
    _fn = staticmethod(FF.bartlett_window)


class BlackmanWindow(_Window):
    """``BlackmanWindow(periodic=True, dtype=float32)(window_length)``."""
    _fn = staticmethod(FF.blackman_window)


class HammingWindow(PrimitiveOp):
    """``HammingWindow(periodic=True, alpha=0.54, beta=0.46, dtype=float32)(length)``, the
    length a one-element 1-D integer Tensor."""

    def __init__(self, periodic: bool = True, alpha: float = 0.54, beta: float = 0.46,
                 dtype: Any = mstype.float32) -> None:
        super().__init__()
        self.periodic = _flag(periodic, "HammingWindow", "periodic")
        self.alpha, self.beta, self.dtype = alpha, beta, dtype

    def __call__(self, length: Any) -> Tensor:
        if not isinstance(length, Tensor) or length.ndim != 1 or length.size != 1:
            raise ValueError(f"For 'HammingWindow', 'length' must be a 1-D Tensor of one "
                             f"element, but got {getattr(length, 'shape', type(length))}.")
        return FF.hamming_window(length[0], self.periodic, self.alpha, self.beta,
                                 dtype=self.dtype)


class ComplexAbs(PrimitiveOp):
    """``ComplexAbs()(x)``: the moduli of a complex tensor (real)."""

    def __call__(self, x: Any) -> Tensor:
        if not isinstance(x, Tensor) or x._data.dtype.kind != "c":
            raise TypeError(f"For 'ComplexAbs', 'x' must be a complex Tensor, but got "
                            f"{getattr(x, 'dtype', type(x).__name__)}.")
        return F.abs(x)


class ConjugateTranspose(PrimitiveOp):
    """``ConjugateTranspose()(x, perm)``: ``conj(transpose(x, perm))``."""

    def __call__(self, x: Any, perm: Any) -> Tensor:
        return SF.conj(F.transpose(x, perm))


class STFT(PrimitiveOp):
    """``STFT(n_fft, hop_length, win_length, normalized, onesided, return_complex)(x,
    window)``: ``stft`` without centre padding."""

    def __init__(self, n_fft: int, hop_length: int, win_length: int, normalized: bool,
                 onesided: bool, return_complex: bool) -> None:
        super().__init__()
        self.n_fft, self.hop_length, self.win_length = n_fft, hop_length, win_length
        self.normalized, self.onesided = normalized, onesided
        self.return_complex = return_complex

    def __call__(self, x: Any, window: Any) -> Tensor:
        return FF.stft(x, self.n_fft, self.hop_length, self.win_length, window, False,
                       "REFLECT", self.normalized, self.onesided, self.return_complex)


__all__ = ["Complex", "Qr", "Eig", "Lstsq", "LuUnpack", "Ormqr", "Renorm", "MatrixDiagV3",
           "MatrixDiagPartV3", "MatrixSetDiagV3", "BartlettWindow", "BlackmanWindow",
           "HammingWindow", "ComplexAbs", "ConjugateTranspose", "STFT"]
