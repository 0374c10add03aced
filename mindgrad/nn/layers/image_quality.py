"""Image-quality cells of ``mindspore.nn``: ``PSNR``, ``SSIM`` and ``MSSSIM`` for batches of
``(N, C, H, W)`` images, with MindSpore's Gaussian window (a fixed, untrained ``Conv2d``
weight) and its conversion of images to float32: integer images (and ``max_val`` with
them) are divided by their dtype's maximum."""
from __future__ import annotations

from typing import Any

import numpy as np

from ...core import dtype as mstype
from ...core.tensor import Tensor
from ...ops import functional as F
from ..cell import Cell
from .activation import ReLU
from .container import CellList
from .conv import Conv2d
from .pooling import AvgPool2d


def _gaussian_window(size: int, sigma: float) -> np.ndarray:
    """The normalized ``size x size`` Gaussian as a ``(1, 1, size, size)`` float32 kernel."""
    r = np.arange(-size // 2 + 1, size // 2 + 1, dtype=np.float32) ** 2
    g = np.exp(-(r[:, None] + r[None, :]) / np.float32(2 * sigma ** 2)).astype(np.float32)
    return (g / g.sum())[None, None]


def _window_conv(size: int, sigma: float) -> Conv2d:
    conv = Conv2d(1, 1, size, weight_init=Tensor(_gaussian_window(size, sigma)),
                  pad_mode="valid")
    conv.weight.requires_grad = False
    return conv


def _check_max_val(max_val: Any, who: str) -> Any:
    if isinstance(max_val, bool) or not isinstance(max_val, (int, float)):
        raise TypeError(f"For '{who}', the type of 'max_val' must be int or float, but got "
                        f"{type(max_val).__name__}.")
    if max_val <= 0:
        raise ValueError(f"For '{who}', 'max_val' must be greater than 0, but got {max_val}.")
    return max_val


def _check_pair(img1: Any, img2: Any, dtypes: tuple | None, who: str) -> None:
    for name, img in (("img1", img1), ("img2", img2)):
        if not isinstance(img, Tensor) or img.ndim != 4:
            raise ValueError(f"For '{who}', the dimension of '{name}' must be 4d, but got "
                             f"shape {list(getattr(img, 'shape', ()))}.")
    if dtypes is not None and img1.dtype not in dtypes:
        raise TypeError(f"For '{who}', the type of 'img1' must be in "
                        f"{[str(d) for d in dtypes]}, but got {img1.dtype}.")
    if img1.dtype != img2.dtype:
        raise TypeError(f"For '{who}', 'img1' and 'img2' must have the same dtype, but got "
                        f"{img1.dtype} and {img2.dtype}.")
    if img1.shape != img2.shape:
        raise ValueError(f"For '{who}', 'img1' and 'img2' must have the same shape, but got "
                         f"{list(img1.shape)} and {list(img2.shape)}.")


def _to_float32(img1: Tensor, img2: Tensor, max_val: Any) -> tuple:
    """Both images as float32 in the scale of ``max_val`` (returned as a float)."""
    np_type = mstype.dtype_to_nptype(img1.dtype)
    top = float(np.iinfo(np_type).max) if np.issubdtype(np_type, np.integer) else 1.0
    a, b = F.cast(img1, mstype.float32), F.cast(img2, mstype.float32)
    peak = float(np.float32(max_val))
    if top > 1.0:
        a, b = F.mul(a, 1.0 / top), F.mul(b, 1.0 / top)
        peak = float(np.float32(peak * np.float32(1.0 / top)))
    return a, b, peak


def _ssim_and_cs(c1: float, c2: float, img1: Tensor, img2: Tensor, conv: Conv2d) -> tuple:
    """Per image and channel, the mean SSIM and contrast-structure terms ``(N, C)``."""
    ssims, css = [], []
    for k in range(img1.shape[1]):
        x, y = img1[:, k:k + 1], img2[:, k:k + 1]
        mu1, mu2 = conv(x), conv(y)
        mu1_sq, mu2_sq, mu12 = F.mul(mu1, mu1), F.mul(mu2, mu2), F.mul(mu1, mu2)
        s1 = F.sub(conv(F.mul(x, x)), mu1_sq)
        s2 = F.sub(conv(F.mul(y, y)), mu2_sq)
        s12 = F.sub(conv(F.mul(x, y)), mu12)
        a = F.add(F.mul(mu12, 2.0), c1)
        b = F.add(F.add(mu1_sq, mu2_sq), c1)
        v1 = F.add(F.mul(s12, 2.0), c2)
        v2 = F.add(F.add(s1, s2), c2)
        ssims.append(F.div(F.mul(a, v1), F.mul(b, v2)))
        css.append(F.div(v1, v2))
    ssim = F.mean(F.concat(ssims, 1), (2, 3))
    cs = F.mean(F.concat(css, 1), (2, 3))
    return ssim, cs


class _WindowChecks(Cell):
    def _check_window(self, max_val: Any, filter_size: Any, filter_sigma: Any, k1: Any,
                      k2: Any) -> None:
        who = type(self).__name__
        self.max_val = _check_max_val(max_val, who)
        if isinstance(filter_size, bool) or not isinstance(filter_size, int) or filter_size < 1:
            raise ValueError(f"For '{who}', 'filter_size' must be an int >= 1, but got "
                             f"{filter_size!r}.")
        if isinstance(filter_sigma, bool) or not isinstance(filter_sigma, float) \
                or filter_sigma <= 0:
            raise ValueError(f"For '{who}', 'filter_sigma' must be a positive float, but got "
                             f"{filter_sigma!r}.")
        for name, k in (("k1", k1), ("k2", k2)):
            if isinstance(k, bool) or not isinstance(k, float):
                raise TypeError(f"For '{who}', the type of '{name}' must be float, but got "
                                f"{type(k).__name__}.")
        self.filter_size, self.filter_sigma, self.k1, self.k2 = filter_size, filter_sigma, k1, k2

    def _constants(self, peak: float) -> tuple:
        return (self.k1 * peak) ** 2, (self.k2 * peak) ** 2


class SSIM(_WindowChecks):
    """The structural similarity of two float16 / float32 image batches ``(N, C, H, W)``
    (``H, W >= filter_size``): the Gaussian-weighted SSIM map averaged over the pixels and
    channels, one value per image."""

    def __init__(self, max_val: Any = 1.0, filter_size: int = 11, filter_sigma: float = 1.5,
                 k1: float = 0.01, k2: float = 0.03) -> None:
        super().__init__()
        self._check_window(max_val, filter_size, filter_sigma, k1, k2)
        self.conv = _window_conv(filter_size, filter_sigma)

    def construct(self, img1: Tensor, img2: Tensor) -> Tensor:
        _check_pair(img1, img2, (mstype.float32, mstype.float16), "SSIM")
        if img1.shape[2] < self.filter_size or img1.shape[3] < self.filter_size:
            raise ValueError(f"For 'SSIM', the height and width of 'img1' must be at least "
                             f"filter_size={self.filter_size}, but got shape "
                             f"{list(img1.shape)}.")
        a, b, peak = _to_float32(img1, img2, self.max_val)
        ssim, _ = _ssim_and_cs(*self._constants(peak), a, b, self.conv)
        return F.mean(ssim, -1)


class MSSSIM(_WindowChecks):
    """The multi-scale SSIM of two image batches ``(N, C, H, W)``: at each of
    ``len(power_factors)`` scales (halved by 2x2 average pooling) the contrast-structure term,
    the SSIM at the last scale, each clipped at 0, raised to its power factor and
    multiplied; averaged over the channels, one value per image."""

    def __init__(self, max_val: Any = 1.0,
                 power_factors: Any = (0.0448, 0.2856, 0.3001, 0.2363, 0.1333),
                 filter_size: int = 11, filter_sigma: float = 1.5, k1: float = 0.01,
                 k2: float = 0.03) -> None:
        super().__init__()
        if not isinstance(power_factors, (tuple, list)):
            raise TypeError(f"For 'MSSSIM', the type of 'power_factors' must be tuple or list, "
                            f"but got {type(power_factors).__name__}.")
        self._check_window(max_val, filter_size, filter_sigma, k1, k2)
        self.level = len(power_factors)
        self.multi_convs_list = CellList([_window_conv(filter_size, filter_sigma)
                                          for _ in range(self.level)])
        self.weight_tensor = Tensor(np.asarray(power_factors, np.float32))
        self.avg_pool = AvgPool2d(kernel_size=2, stride=2, pad_mode="valid")
        self.relu = ReLU()

    def construct(self, img1: Tensor, img2: Tensor) -> Tensor:
        _check_pair(img1, img2, (mstype.float64, mstype.float32, mstype.float16, mstype.uint8),
                    "MSSSIM")
        a, b, peak = _to_float32(img1, img2, self.max_val)
        c1, c2 = self._constants(peak)
        terms = []
        for i in range(self.level):
            ssim, cs = _ssim_and_cs(c1, c2, a, b, self.multi_convs_list[i])
            terms.append(self.relu(cs))
            a, b = self.avg_pool(a), self.avg_pool(b)
        terms[-1] = self.relu(ssim)  # the last scale contributes its full SSIM
        weighted = F.pow(F.stack(terms, -1), self.weight_tensor)
        return F.mean(F.prod(weighted, -1), -1)


class PSNR(Cell):
    """The peak signal-to-noise ratio ``10 log10(max_val^2 / mse)`` of two image batches
    ``(N, C, H, W)``, one value per image."""

    def __init__(self, max_val: Any = 1.0) -> None:
        super().__init__()
        self.max_val = _check_max_val(max_val, "PSNR")

    def construct(self, img1: Tensor, img2: Tensor) -> Tensor:
        _check_pair(img1, img2, None, "PSNR")
        a, b, peak = _to_float32(img1, img2, self.max_val)
        mse = F.mean(F.square(F.sub(a, b)), (-3, -2, -1))
        return F.div(F.mul(F.log(F.div(float(np.float32(peak) ** 2), mse)), 10.0),
                     float(np.log(10.0)))


__all__ = ["PSNR", "SSIM", "MSSSIM"]
