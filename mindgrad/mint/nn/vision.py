"""``mint.nn.functional``'s 3-D convolution and pooling, the transposed 2-D convolution,
``fold`` / ``unfold``, ``grid_sample`` and ``max_unpool2d``, with PyTorch's arguments and
unbatched inputs. Each calls the operator of ``mindgrad.ops`` that computes it (the 3-D
convolution and pools of ``ops.volume_functions``, the transposed convolution of the
``conv2d`` primitive family, ``ops.fold`` / ``unfold``, ``ops.grid_sample``,
``ops.max_unpool2d``), so everything is differentiable."""
from __future__ import annotations

from typing import Any

from ... import ops
from ...ops.functional.conv import _conv2d_transpose_to
from .._utils import tensor_arg

__all__ = ["adaptive_avg_pool3d", "avg_pool3d", "conv3d", "conv_transpose2d", "fold",
           "unfold", "grid_sample", "max_unpool2d"]


def _tuple(v: Any, n: int, name: str, fn: str) -> tuple:
    """An int (for every axis) or ``n`` ints."""
    vals = tuple(v) if isinstance(v, (tuple, list)) else (v,) * n
    if len(vals) == 1:
        vals = vals * n
    if len(vals) != n or not all(isinstance(i, int) and not isinstance(i, bool) for i in vals):
        raise ValueError(f"mint.nn.functional.{fn}: '{name}' must be an int or {n} ints, got "
                         f"{v!r}")
    return vals


def _batched(x: Any, rank: int, fn: str) -> tuple:
    """``x`` with a batch axis (``rank`` dimensions), and whether one was added."""
    tensor_arg(x, f"nn.functional.{fn}")
    if x.ndim == rank - 1:
        return ops.expand_dims(x, 0), True
    if x.ndim != rank:
        raise ValueError(f"mint.nn.functional.{fn}: 'input' must be {rank - 1}-D or {rank}-D, "
                         f"got shape {tuple(x.shape)}")
    return x, False


def _unbatch(y: Any, added: bool) -> Any:
    return ops.squeeze(y, 0) if added else y


def adaptive_avg_pool3d(input: Any, output_size: Any) -> Any:  # noqa: A002
    """Average pooling of the last three dimensions into ``output_size`` windows (an int,
    or three ints or Nones, None keeping that size)."""
    tensor_arg(input, "nn.functional.adaptive_avg_pool3d")
    return ops.adaptive_avg_pool3d(input, output_size)


def avg_pool3d(input: Any, kernel_size: Any, stride: Any = None, padding: Any = 0,  # noqa: A002
               ceil_mode: bool = False, count_include_pad: bool = True,
               divisor_override: int | None = None) -> Any:
    """3-D average pooling of ``(N, C, D, H, W)`` or ``(C, D, H, W)`` ``input`` (``stride``
    defaults to the kernel size)."""
    x, added = _batched(input, 5, "avg_pool3d")
    y = ops.avg_pool3d(x, kernel_size, kernel_size if stride is None else stride, padding,
                       ceil_mode, count_include_pad, divisor_override or 0)
    return _unbatch(y, added)


def conv3d(input: Any, weight: Any, bias: Any = None, stride: Any = 1,  # noqa: A002
           padding: Any = 0, dilation: Any = 1, groups: int = 1) -> Any:
    """The 3-D convolution of ``(N, C, D, H, W)`` or ``(C, D, H, W)`` ``input`` with
    ``weight`` ``(O, C / groups, kd, kh, kw)``; ``padding`` an int, three ints, ``"valid"``
    or ``"same"``."""
    x, added = _batched(input, 5, "conv3d")
    if isinstance(padding, str):
        if padding not in ("valid", "same"):
            raise ValueError(f"mint.nn.functional.conv3d: 'padding' must be 'valid', 'same', "
                             f"an int or three ints, got {padding!r}")
        y = ops.conv3d(x, weight, bias, stride, padding, 0, dilation, groups)
    else:
        y = ops.conv3d(x, weight, bias, stride, "pad", _tuple(padding, 3, "padding", "conv3d"),
                       dilation, groups)
    return _unbatch(y, added)


def conv_transpose2d(input: Any, weight: Any, bias: Any = None, stride: Any = 1,  # noqa: A002
                     padding: Any = 0, output_padding: Any = 0, groups: int = 1,
                     dilation: Any = 1) -> Any:
    """The transposed 2-D convolution (the adjoint of ``conv2d``) of ``(N, C_in, H, W)`` or
    ``(C_in, H, W)`` ``input`` with ``weight`` ``(C_in, C_out / groups, kh, kw)``: output
    size ``(H - 1) * stride - 2 * padding + dilation * (k - 1) + output_padding + 1``."""
    fn = "conv_transpose2d"
    x, added = _batched(input, 4, fn)
    tensor_arg(weight, f"nn.functional.{fn}", "weight")
    if weight.ndim != 4:
        raise ValueError(f"mint.nn.functional.{fn}: 'weight' must be 4-D (C_in, C_out / "
                         f"groups, kh, kw), got shape {tuple(weight.shape)}")
    s = _tuple(stride, 2, "stride", fn)
    p = _tuple(padding, 2, "padding", fn)
    op_ = _tuple(output_padding, 2, "output_padding", fn)
    d = _tuple(dilation, 2, "dilation", fn)
    if min(s) < 1 or min(d) < 1 or min(p) < 0 or min(op_) < 0:
        raise ValueError(f"mint.nn.functional.{fn}: stride and dilation must be positive, "
                         f"padding and output_padding non-negative, got {s}, {d}, {p}, {op_}")
    if any(o >= si and o >= di for o, si, di in zip(op_, s, d)):
        raise ValueError(f"mint.nn.functional.{fn}: 'output_padding' {op_} must be smaller "
                         f"than 'stride' {s} or 'dilation' {d}")
    if not isinstance(groups, int) or groups < 1 or x.shape[1] % groups:
        raise ValueError(f"mint.nn.functional.{fn}: the {x.shape[1]} input channels must be "
                         f"divisible by 'groups', got {groups!r}")
    out_hw = tuple((n - 1) * si - 2 * pi + di * (k - 1) + o + 1
                   for n, si, pi, di, k, o in zip(x.shape[2:], s, p, d, weight.shape[2:], op_))
    y = _conv2d_transpose_to(x, weight, out_hw, s, "pad", (p[0], p[0], p[1], p[1]), d, groups)
    if bias is not None:
        tensor_arg(bias, f"nn.functional.{fn}", "bias")
        y = ops.add(y, ops.reshape(bias, (1, -1, 1, 1)))
    return _unbatch(y, added)


def unfold(input: Any, kernel_size: Any, dilation: Any = 1, padding: Any = 0,  # noqa: A002
           stride: Any = 1) -> Any:
    """The sliding windows of ``(N, C, H, W)`` or ``(C, H, W)`` ``input`` as columns
    ``(N, C * kh * kw, L)``."""
    x, added = _batched(input, 4, "unfold")
    return _unbatch(ops.unfold(x, kernel_size, dilation, padding, stride), added)


def fold(input: Any, output_size: Any, kernel_size: Any, dilation: Any = 1,  # noqa: A002
         padding: Any = 0, stride: Any = 1) -> Any:
    """Columns ``(N, C * kh * kw, L)`` or ``(C * kh * kw, L)`` summed back into images of
    ``output_size`` (the adjoint of ``unfold``)."""
    x, added = _batched(input, 3, "fold")
    return _unbatch(ops.fold(x, output_size, kernel_size, dilation, padding, stride), added)


def grid_sample(input: Any, grid: Any, mode: str = "bilinear",  # noqa: A002
                padding_mode: str = "zeros", align_corners: bool | None = None) -> Any:
    """``input`` read at the normalised positions ``grid`` (``ops.grid_sample``)."""
    tensor_arg(input, "nn.functional.grid_sample")
    return ops.grid_sample(input, grid, mode, padding_mode, align_corners)


def max_unpool2d(input: Any, indices: Any, kernel_size: Any, stride: Any = None,  # noqa: A002
                 padding: Any = 0, output_size: Any = None) -> Any:
    """The values of a 2-D max pooling written back at their ``indices`` in zero planes
    (``ops.max_unpool2d``)."""
    tensor_arg(input, "nn.functional.max_unpool2d")
    return ops.max_unpool2d(input, indices, kernel_size, stride, padding, output_size)
