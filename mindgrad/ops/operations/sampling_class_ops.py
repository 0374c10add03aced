"""MindSpore's operator classes over the sampling, cropping, decoding and fractional pooling
functions: ``AffineGrid``, ``GridSampler2D``, ``GridSampler3D``, ``CropAndResize``,
``CTCGreedyDecoder``, ``FractionalMaxPoolWithFixedKsize`` and
``FractionalMaxPool3DWithFixedKsize``. Each keeps its constructor's arguments as attributes
and calls the function of ``mindgrad.ops`` of the same meaning."""
from __future__ import annotations

from typing import Any

from ...core.tensor import Tensor
from .. import box_functions as BX
from .. import functional as F
from .. import sampling_functions as SF
from .. import unpool_functions as UP
from ..primitive import Primitive


def _bool(op: str, name: str, v: Any) -> bool:
    if not isinstance(v, bool):
        raise TypeError(f"For '{op}', '{name}' must be a bool, but got {type(v).__name__}.")
    return v


def _choice(op: str, name: str, v: Any, allowed: tuple) -> str:
    if not isinstance(v, str) or v not in allowed:
        raise ValueError(f"For '{op}', '{name}' must be one of {list(allowed)}, but got {v!r}.")
    return v


def _rank(op: str, name: str, v: Any, rank: int) -> Tensor:
    t = F._tensor(v, op, name)
    if t.ndim != rank:
        raise ValueError(f"For '{op}', '{name}' must be {rank}-D, but got shape "
                         f"{list(t.shape)}.")
    return t


class AffineGrid(Primitive):
    """``AffineGrid(align_corners=False)(theta, output_size)``: the sampling grid of the
    affine maps ``theta`` (N, 2, 3) or (N, 3, 4) over an output of ``output_size``
    (N, C, H, W) or (N, C, D, H, W), as ``ops.affine_grid``."""

    def __init__(self, align_corners: bool = False) -> None:
        super().__init__()
        self.align_corners = _bool("AffineGrid", "align_corners", align_corners)

    def __call__(self, theta: Any, output_size: Any) -> Tensor:
        return SF.affine_grid(theta, output_size, self.align_corners)


class GridSampler2D(Primitive):
    """``GridSampler2D(interpolation_mode='bilinear', padding_mode='zeros',
    align_corners=False)(input_x, grid)``: the 4-D ``input_x`` (N, C, H, W) read at the
    normalised positions ``grid`` (N, H', W', 2), as ``ops.grid_sample``."""
    _rank = 4
    _modes: tuple = ("bilinear", "nearest")

    def __init__(self, interpolation_mode: str = "bilinear", padding_mode: str = "zeros",
                 align_corners: bool = False) -> None:
        super().__init__()
        op = type(self).__name__
        self.interpolation_mode = _choice(op, "interpolation_mode", interpolation_mode,
                                          self._modes)
        self.padding_mode = _choice(op, "padding_mode", padding_mode,
                                    ("zeros", "border", "reflection"))
        self.align_corners = _bool(op, "align_corners", align_corners)

    def __call__(self, input_x: Any, grid: Any) -> Tensor:
        op = type(self).__name__
        x = _rank(op, "input_x", input_x, self._rank)
        g = _rank(op, "grid", grid, self._rank)
        return SF.grid_sample(x, g, self.interpolation_mode, self.padding_mode,
                              self.align_corners)


class GridSampler3D(GridSampler2D):
    """``GridSampler3D(interpolation_mode='bilinear', padding_mode='zeros',
    align_corners=False)(input_x, grid)``: the 5-D ``input_x`` (N, C, D, H, W) read at the
    normalised positions ``grid`` (N, D', H', W', 3), as ``ops.grid_sample``."""
    _rank = 5


class CropAndResize(Primitive):
    """``CropAndResize(method='bilinear', extrapolation_value=0.0)(x, boxes, box_index,
    crop_size)``: the crops of the (batch, H, W, depth) image ``x`` at ``boxes``
    (y1, x1, y2, x2) resized to ``crop_size``, as ``ops.crop_and_resize``."""

    def __init__(self, method: str = "bilinear", extrapolation_value: float = 0.0) -> None:
        super().__init__()
        self.method = _choice("CropAndResize", "method", method,
                              ("bilinear", "nearest", "bilinear_v2"))
        if isinstance(extrapolation_value, bool) or not isinstance(extrapolation_value,
                                                                   (int, float)):
            raise TypeError(f"For 'CropAndResize', 'extrapolation_value' must be a float, but "
                            f"got {type(extrapolation_value).__name__}.")
        self.extrapolation_value = float(extrapolation_value)

    def __call__(self, x: Any, boxes: Any, box_index: Any, crop_size: Any) -> Tensor:
        return SF.crop_and_resize(x, boxes, box_index, crop_size, self.method,
                                  self.extrapolation_value)


class CTCGreedyDecoder(Primitive):
    """``CTCGreedyDecoder(merge_repeated=True)(inputs, sequence_length)``: the greedy CTC
    decoding of ``inputs`` (max_time, batch, classes), as ``ops.ctc_greedy_decoder``:
    ``(decoded_indices, decoded_values, decoded_shape, log_probability)``."""

    def __init__(self, merge_repeated: bool = True) -> None:
        super().__init__()
        self.merge_repeated = _bool("CTCGreedyDecoder", "merge_repeated", merge_repeated)

    def __call__(self, inputs: Any, sequence_length: Any) -> tuple:
        return BX.ctc_greedy_decoder(inputs, sequence_length, self.merge_repeated)


class FractionalMaxPoolWithFixedKsize(Primitive):
    """``FractionalMaxPoolWithFixedKsize(ksize, output_shape, data_format='NCHW')
    (input_x, random_samples)``: fractional max pooling of the 4-D ``input_x`` with ``ksize``
    windows to ``output_shape``, the windows placed by ``random_samples`` (N, C, 2) in
    [0, 1). Returns ``(y, argmax)``, argmax the Int64 flat positions of the maxima in each
    plane, as ``ops.fractional_max_pool2d(..., return_indices=True)``."""
    _nd = 2
    _format = "NCHW"

    def __init__(self, ksize: Any, output_shape: Any, data_format: str = "NCHW") -> None:
        super().__init__()
        op = type(self).__name__
        self.ksize = self._ints(op, "ksize", ksize)
        self.output_shape = self._ints(op, "output_shape", output_shape)
        self.data_format = _choice(op, "data_format", data_format, (self._format,))

    def _ints(self, op: str, name: str, v: Any) -> tuple:
        vals = (v,) * self._nd if F._is_int(v) else v
        if not isinstance(vals, (tuple, list)) or len(vals) != self._nd or not all(
                F._is_int(i) and i > 0 for i in vals):
            raise ValueError(f"For '{op}', '{name}' must be a positive int or {self._nd} "
                             f"positive ints, but got {v!r}.")
        return tuple(int(i) for i in vals)

    def __call__(self, input_x: Any, random_samples: Any) -> tuple:
        op = type(self).__name__
        x = _rank(op, "input_x", input_x, self._nd + 2)
        pool = UP.fractional_max_pool2d if self._nd == 2 else UP.fractional_max_pool3d
        return pool(x, self.ksize, self.output_shape, return_indices=True,
                    _random_samples=random_samples)


class FractionalMaxPool3DWithFixedKsize(FractionalMaxPoolWithFixedKsize):
    """``FractionalMaxPool3DWithFixedKsize(ksize, output_shape, data_format='NCDHW')
    (x, random_samples)``: the same over the 5-D ``x``, ``random_samples`` (N, C, 3)."""
    _nd = 3
    _format = "NCDHW"

    def __init__(self, ksize: Any, output_shape: Any, data_format: str = "NCDHW") -> None:
        super().__init__(ksize, output_shape, data_format)


__all__ = ["AffineGrid", "GridSampler2D", "GridSampler3D", "CropAndResize", "CTCGreedyDecoder",
           "FractionalMaxPoolWithFixedKsize", "FractionalMaxPool3DWithFixedKsize"]
