"""Image cells of ``mindspore.nn``: ``ImageGradients`` (forward differences along height
and width) and ``CentralCrop``."""
from __future__ import annotations

from ...core.tensor import Tensor
from ...ops import functional as F
from ..cell import Cell


class ImageGradients(Cell):
    """``(dy, dx)`` of ``(N, C, H, W)`` images: ``dy[..., i, :] = x[..., i + 1, :] -
    x[..., i, :]`` and likewise ``dx`` along the width, each 0 in its last row / column."""

    def construct(self, images: Tensor) -> tuple:
        if not isinstance(images, Tensor) or images.ndim != 4:
            raise ValueError(f"For 'ImageGradients', 'images' must be a 4-D Tensor "
                             f"(N, C, H, W), but got shape "
                             f"{list(getattr(images, 'shape', ()))}.")
        # a difference with the next row / column; the last one has none: zero
        dy = F.pad(F.sub(images[:, :, 1:, :], images[:, :, :-1, :]), (0, 0, 0, 1))
        dx = F.pad(F.sub(images[:, :, :, 1:], images[:, :, :, :-1]), (0, 1))
        return dy, dx


class CentralCrop(Cell):
    """The central ``central_fraction`` of the height and width of ``(C, H, W)`` or
    ``(N, C, H, W)`` images (as many rows / columns cut from each side)."""

    def __init__(self, central_fraction: float) -> None:
        super().__init__()
        if isinstance(central_fraction, bool) or not isinstance(central_fraction, float):
            raise TypeError(f"For 'CentralCrop', the type of 'central_fraction' must be float, "
                            f"but got {type(central_fraction).__name__}.")
        if not 0.0 < central_fraction <= 1.0:
            raise ValueError(f"For 'CentralCrop', 'central_fraction' must be in range (0.0, "
                             f"1.0], but got {central_fraction}.")
        self.central_fraction = central_fraction

    def construct(self, image: Tensor) -> Tensor:
        if image.ndim not in (3, 4):
            raise ValueError(f"For 'CentralCrop', 'image' must be 3-D or 4-D, but got shape "
                             f"{list(image.shape)}.")
        if self.central_fraction == 1.0:
            return image
        h, w = image.shape[-2:]
        top = int((float(h) - float(h * self.central_fraction)) / 2)
        left = int((float(w) - float(w * self.central_fraction)) / 2)
        return image[..., top:h - top, left:w - left]


__all__ = ["ImageGradients", "CentralCrop"]
