"""``mindspore.dataset.vision``: image operations on HWC NumPy arrays (and PIL images).

Geometry follows MindSpore: images are (height, width, channels) or (height, width);
``size`` arguments are an int or (height, width). Decoding, rotation and the resampling
filters other than nearest and bilinear use Pillow; nearest and bilinear resizing of arrays
are computed here with OpenCV's pixel-centre conventions (MindSpore resizes arrays with
OpenCV), so the values match MindSpore's. Random operations draw from
``mindspore.dataset.config``'s seed."""
from __future__ import annotations

import io
import math
import numbers
from typing import Any, Sequence

import numpy as np

from .. import config
from ..transforms.transforms import TensorOperation, _np_dtype
from .utils import Border, Inter


def _pil():
    try:
        from PIL import Image
    except ImportError:  # pragma: no cover - Pillow is the `image` extra
        raise ImportError("mindspore.dataset.vision needs Pillow for this operation: "
                          "pip install 'mindgrad[image]'") from None
    return Image


def _is_pil(x: Any) -> bool:
    return hasattr(x, "getbands") and hasattr(x, "mode")


def _image(x: Any, op: str, min_dim: int = 2) -> np.ndarray:
    """``x`` as an (h, w) or (h, w, c) array; PIL images are converted."""
    if _is_pil(x):
        return np.asarray(x)
    if hasattr(x, "asnumpy"):
        x = x.asnumpy()
    if not isinstance(x, np.ndarray):
        raise TypeError(f"For '{op}', the input must be a NumPy array or a PIL image, but got "
                        f"{type(x).__name__}.")
    if x.ndim not in (2, 3) or x.ndim < min_dim:
        raise ValueError(f"For '{op}', the input must be an image of shape (H, W) or "
                         f"(H, W, C), but got shape {list(x.shape)}.")
    return x


def _back(result: np.ndarray, like: Any) -> Any:
    """A PIL input gets a PIL image back (as MindSpore's operations do)."""
    if _is_pil(like):
        return _pil().fromarray(result)
    return result


def _size2(size: Any, op: str, name: str = "size") -> tuple[int, int]:
    if isinstance(size, numbers.Integral) and not isinstance(size, bool):
        size = (int(size), int(size))
    elif isinstance(size, (tuple, list)) and len(size) == 2 and \
            all(isinstance(s, numbers.Integral) for s in size):
        size = (int(size[0]), int(size[1]))
    else:
        raise TypeError(f"For '{op}', {name} must be an int or a sequence of two ints "
                        f"(height, width), but got {size!r}.")
    if min(size) < 1:
        raise ValueError(f"For '{op}', {name} must be positive, but got {size}.")
    return size


def _prob(prob: Any, op: str) -> float:
    if not isinstance(prob, numbers.Real) or not 0 <= prob <= 1:
        raise ValueError(f"For '{op}', prob must be a number in [0, 1], but got {prob!r}.")
    return float(prob)


# --- decoding ----------------------------------------------------------------------------


def decode_image(data: Any, to_pil: bool = False) -> Any:
    """Decode JPEG/PNG/BMP/GIF/TIFF bytes (a 1-D uint8 array or bytes) to an RGB image."""
    if isinstance(data, np.ndarray):
        if data.dtype != np.uint8 or data.ndim != 1:
            raise TypeError(f"For 'Decode', the input must be the encoded bytes as a 1-D uint8 "
                            f"array, but got {data.dtype} of shape {list(data.shape)}.")
        data = data.tobytes()
    Image = _pil()
    img = Image.open(io.BytesIO(bytes(data)))
    img = img.convert("RGB")
    return img if to_pil else np.asarray(img)


class Decode(TensorOperation):
    """Decode an encoded image to RGB: (h, w, 3) uint8, or a PIL image with ``to_pil``."""

    def __init__(self, to_pil: bool = False) -> None:
        self.to_pil = bool(to_pil)

    def _apply(self, x):
        try:
            return decode_image(x, self.to_pil)
        except TypeError:
            raise
        except Exception as exc:
            raise RuntimeError(f"For 'Decode', the data is not a decodable image ({exc}).") \
                from None


class ToPIL(TensorOperation):
    """An (h, w[, c]) uint8 array as a PIL image."""

    def _apply(self, x):
        return x if _is_pil(x) else _pil().fromarray(_image(x, "ToPIL"))


# --- resizing ----------------------------------------------------------------------------


def _linear_coords(n_in: int, n_out: int, clamp: bool) -> tuple:
    """OpenCV's INTER_LINEAR source positions: left index, right index and the right weight
    for each output pixel (pixel centres aligned). Indices past an edge read the edge pixel;
    with ``clamp`` (OpenCV's horizontal pass) such a position also gets weight 0, while the
    vertical pass keeps both weights on the edge row (which changes the rounding)."""
    scale = n_in / n_out
    f = ((np.arange(n_out, dtype=np.float64) + 0.5) * scale - 0.5).astype(np.float32)
    i0 = np.floor(f).astype(np.int64)
    w = f.astype(np.float64) - i0
    if clamp:
        low = i0 < 0
        i0[low], w[low] = 0, 0.0
        high = i0 >= n_in - 1
        i0[high], w[high] = n_in - 1, 0.0
    return np.clip(i0, 0, n_in - 1), np.clip(i0 + 1, 0, n_in - 1), w


def _resize_linear(img: np.ndarray, oh: int, ow: int) -> np.ndarray:
    h, w = img.shape[:2]
    if (h, w) == (oh, ow):
        return img.copy()
    y0, y1, wy = _linear_coords(h, oh, clamp=False)
    x0, x1, wx = _linear_coords(w, ow, clamp=True)
    if img.dtype == np.uint8:
        # OpenCV's fixed-point path for 8-bit images: 11-bit weights, integer rows, then
        # the vertical pass with its shifts and rounding.
        ax1 = np.round(wx * 2048).astype(np.int64)
        ax0 = np.round((1 - wx) * 2048).astype(np.int64)
        by1 = np.round(wy * 2048).astype(np.int64)
        by0 = np.round((1 - wy) * 2048).astype(np.int64)
        src = img.astype(np.int64)
        shape = (1, ow) + (1,) * (img.ndim - 2)
        rows = src[:, x0] * ax0.reshape(shape) + src[:, x1] * ax1.reshape(shape)
        shape_y = (oh,) + (1,) * (img.ndim - 1)
        top = ((rows[y0] >> 4) * by0.reshape(shape_y)) >> 16
        bottom = ((rows[y1] >> 4) * by1.reshape(shape_y)) >> 16
        return np.clip((top + bottom + 2) >> 2, 0, 255).astype(np.uint8)
    work = img.astype(np.float32) if img.dtype != np.float64 else img
    shape = (1, ow) + (1,) * (img.ndim - 2)
    wxa = wx.astype(work.dtype).reshape(shape)
    rows = work[:, x0] * (1 - wxa) + work[:, x1] * wxa
    shape_y = (oh,) + (1,) * (img.ndim - 1)
    wya = wy.astype(work.dtype).reshape(shape_y)
    out = rows[y0] * (1 - wya) + rows[y1] * wya
    return out.astype(img.dtype) if img.dtype.kind == "f" else \
        np.clip(np.rint(out), np.iinfo(img.dtype).min, np.iinfo(img.dtype).max).astype(img.dtype)


def _resize_nearest(img: np.ndarray, oh: int, ow: int) -> np.ndarray:
    h, w = img.shape[:2]
    ys = np.minimum(np.floor(np.arange(oh) * (h / oh)).astype(np.int64), h - 1)
    xs = np.minimum(np.floor(np.arange(ow) * (w / ow)).astype(np.int64), w - 1)
    return img[ys][:, xs]


_PIL_FILTERS = {Inter.NEAREST: "NEAREST", Inter.BILINEAR: "BILINEAR", Inter.BICUBIC: "BICUBIC",
                Inter.AREA: "BOX", Inter.PILCUBIC: "BICUBIC", Inter.ANTIALIAS: "LANCZOS"}


def _pil_resize(img: np.ndarray, oh: int, ow: int, interpolation: Inter) -> np.ndarray:
    Image = _pil()
    flt = getattr(Image.Resampling, _PIL_FILTERS[interpolation])
    if img.dtype == np.uint8 and (img.ndim == 2 or img.shape[2] in (1, 3, 4)):
        if img.ndim == 3 and img.shape[2] == 1:
            return np.asarray(Image.fromarray(img[..., 0]).resize((ow, oh), flt))[..., None]
        return np.asarray(Image.fromarray(img).resize((ow, oh), flt))
    # other dtypes and channel counts: one float32 ("F") band at a time
    planes = img[..., None] if img.ndim == 2 else img
    out = np.stack([np.asarray(Image.fromarray(planes[..., c].astype(np.float32), "F")
                               .resize((ow, oh), flt)) for c in range(planes.shape[2])], -1)
    out = out[..., 0] if img.ndim == 2 else out
    if img.dtype.kind == "f":
        return out.astype(img.dtype)
    info = np.iinfo(img.dtype)
    return np.clip(np.rint(out), info.min, info.max).astype(img.dtype)


def resize(img: np.ndarray, size: tuple[int, int], interpolation: Inter) -> np.ndarray:
    """Resize an (h, w[, c]) array to ``size`` (height, width)."""
    oh, ow = size
    if interpolation == Inter.BILINEAR:
        return _resize_linear(img, oh, ow)
    if interpolation == Inter.NEAREST:
        return _resize_nearest(img, oh, ow)
    return _pil_resize(img, oh, ow, interpolation)


def _target_size(h: int, w: int, size: Any) -> tuple[int, int]:
    """An int size scales the shorter side to it, keeping the aspect ratio."""
    if isinstance(size, tuple):
        return size
    if h <= w:
        return size, int(w * size / h)
    return int(h * size / w), size


class Resize(TensorOperation):
    """Resize to ``size``: (height, width), or an int for the shorter side (the other side
    keeps the aspect ratio)."""

    def __init__(self, size: Any, interpolation: Inter = Inter.LINEAR) -> None:
        if isinstance(size, numbers.Integral) and not isinstance(size, bool):
            if size < 1:
                raise ValueError(f"For 'Resize', size must be positive, but got {size}.")
            self.size = int(size)
        else:
            self.size = _size2(size, "Resize")
        self.interpolation = Inter(interpolation)

    def _apply(self, x):
        img = _image(x, "Resize")
        size = _target_size(img.shape[0], img.shape[1], self.size)
        if _is_pil(x):
            flt = getattr(_pil().Resampling, _PIL_FILTERS[self.interpolation])
            return x.resize((size[1], size[0]), flt)
        return resize(img, size, self.interpolation)


# --- cropping, flipping, padding, rotation ----------------------------------------------


def _pad_array(img: np.ndarray, top: int, bottom: int, left: int, right: int,
               fill: Any, mode: Border) -> np.ndarray:
    pads = [(top, bottom), (left, right)] + [(0, 0)] * (img.ndim - 2)
    mode = Border(mode)
    if mode == Border.CONSTANT:
        if img.ndim == 3 and isinstance(fill, tuple):
            out = np.empty((img.shape[0] + top + bottom, img.shape[1] + left + right,
                            img.shape[2]), img.dtype)
            out[...] = np.asarray(fill, img.dtype)
            out[top:top + img.shape[0], left:left + img.shape[1]] = img
            return out
        fill = fill[0] if isinstance(fill, tuple) else fill
        return np.pad(img, pads, mode="constant", constant_values=fill)
    return np.pad(img, pads, mode=mode.value)


def _fill_value(fill: Any, op: str) -> Any:
    if isinstance(fill, numbers.Integral) and not isinstance(fill, bool):
        if not 0 <= fill <= 255:
            raise ValueError(f"For '{op}', fill_value must be in [0, 255], but got {fill}.")
        return int(fill)
    if isinstance(fill, (tuple, list)) and len(fill) == 3:
        return tuple(int(f) for f in fill)
    raise TypeError(f"For '{op}', fill_value must be an int or a 3-tuple, but got {fill!r}.")


def _padding4(padding: Any, op: str) -> tuple[int, int, int, int]:
    """MindSpore's padding forms as (left, top, right, bottom): an int for all sides,
    (left/right, top/bottom), or (left, top, right, bottom)."""
    if isinstance(padding, numbers.Integral) and not isinstance(padding, bool):
        p = (int(padding),) * 4
    elif isinstance(padding, (tuple, list)) and len(padding) == 2:
        p = (int(padding[0]), int(padding[1]), int(padding[0]), int(padding[1]))
    elif isinstance(padding, (tuple, list)) and len(padding) == 4:
        p = tuple(int(v) for v in padding)
    else:
        raise TypeError(f"For '{op}', padding must be an int or a sequence of 2 or 4 ints, but "
                        f"got {padding!r}.")
    if min(p) < 0:
        raise ValueError(f"For '{op}', padding must not be negative, but got {padding!r}.")
    return p


class Pad(TensorOperation):
    """Pad the borders: ``padding`` as an int, (left/right, top/bottom) or (left, top, right,
    bottom); ``padding_mode`` a ``Border``."""

    def __init__(self, padding: Any, fill_value: Any = 0,
                 padding_mode: Border = Border.CONSTANT) -> None:
        self.padding = _padding4(padding, "Pad")
        self.fill_value = _fill_value(fill_value, "Pad")
        self.padding_mode = Border(padding_mode)

    def _apply(self, x):
        img = _image(x, "Pad")
        left, top, right, bottom = self.padding
        return _back(_pad_array(img, top, bottom, left, right, self.fill_value,
                                self.padding_mode), x)


def _crop(img: np.ndarray, top: int, left: int, h: int, w: int) -> np.ndarray:
    return img[top:top + h, left:left + w].copy()


class CenterCrop(TensorOperation):
    """Crop the centre ``size`` (int or (height, width)); an image smaller than that is
    padded with zeros first."""

    def __init__(self, size: Any) -> None:
        self.size = _size2(size, "CenterCrop")

    def _apply(self, x):
        img = _image(x, "CenterCrop")
        th, tw = self.size
        h, w = img.shape[:2]
        if th > h or tw > w:
            ph, pw = max(0, th - h), max(0, tw - w)
            # the odd pixel of padding goes above / to the left, as in MindSpore
            img = _pad_array(img, ph - ph // 2, ph // 2, pw - pw // 2, pw // 2, 0,
                             Border.CONSTANT)
            h, w = img.shape[:2]
        top, left = (h - th) // 2, (w - tw) // 2
        return _back(_crop(img, top, left, th, tw), x)


class RandomCrop(TensorOperation):
    """Crop ``size`` at a random position, after optional ``padding`` (and padding to the
    size when ``pad_if_needed``)."""

    def __init__(self, size: Any, padding: Any = None, pad_if_needed: bool = False,
                 fill_value: Any = 0, padding_mode: Border = Border.CONSTANT) -> None:
        self.size = _size2(size, "RandomCrop")
        self.padding = None if padding is None else _padding4(padding, "RandomCrop")
        self.pad_if_needed = bool(pad_if_needed)
        self.fill_value = _fill_value(fill_value, "RandomCrop")
        self.padding_mode = Border(padding_mode)

    def _apply(self, x):
        img = _image(x, "RandomCrop")
        if self.padding is not None:
            left, top, right, bottom = self.padding
            img = _pad_array(img, top, bottom, left, right, self.fill_value, self.padding_mode)
        th, tw = self.size
        h, w = img.shape[:2]
        if self.pad_if_needed and (h < th or w < tw):
            ph, pw = max(0, th - h), max(0, tw - w)
            img = _pad_array(img, ph, ph, pw, pw, self.fill_value, self.padding_mode)
            h, w = img.shape[:2]
        if h < th or w < tw:
            raise ValueError(f"For 'RandomCrop', the crop size {list(self.size)} is larger than "
                             f"the (padded) image {[h, w]}; use pad_if_needed=True.")
        rng = config.transform_rng()
        top = int(rng.integers(0, h - th + 1))
        left = int(rng.integers(0, w - tw + 1))
        return _back(_crop(img, top, left, th, tw), x)


class RandomResizedCrop(TensorOperation):
    """Crop a random area (a fraction in ``scale`` of the image, aspect ratio in ``ratio``)
    and resize it to ``size``; after ``max_attempts`` failed draws, a centre crop."""

    def __init__(self, size: Any, scale: Sequence[float] = (0.08, 1.0),
                 ratio: Sequence[float] = (3.0 / 4.0, 4.0 / 3.0),
                 interpolation: Inter = Inter.BILINEAR, max_attempts: int = 10) -> None:
        self.size = _size2(size, "RandomResizedCrop")
        self.scale = tuple(float(s) for s in scale)
        self.ratio = tuple(float(r) for r in ratio)
        if len(self.scale) != 2 or not 0 <= self.scale[0] <= self.scale[1]:
            raise ValueError(f"For 'RandomResizedCrop', scale must be (min, max) with "
                             f"0 <= min <= max, but got {scale!r}.")
        if len(self.ratio) != 2 or not 0 < self.ratio[0] <= self.ratio[1]:
            raise ValueError(f"For 'RandomResizedCrop', ratio must be (min, max) with "
                             f"0 < min <= max, but got {ratio!r}.")
        self.interpolation = Inter(interpolation)
        self.max_attempts = int(max_attempts)

    def _box(self, h: int, w: int) -> tuple[int, int, int, int]:
        rng = config.transform_rng()
        area = h * w
        log_r = (math.log(self.ratio[0]), math.log(self.ratio[1]))
        for _ in range(self.max_attempts):
            target = area * rng.uniform(*self.scale)
            aspect = math.exp(rng.uniform(*log_r))
            cw = int(round(math.sqrt(target * aspect)))
            ch = int(round(math.sqrt(target / aspect)))
            if 0 < cw <= w and 0 < ch <= h:
                return int(rng.integers(0, h - ch + 1)), int(rng.integers(0, w - cw + 1)), ch, cw
        in_ratio = w / h
        if in_ratio < self.ratio[0]:
            cw, ch = w, int(round(w / self.ratio[0]))
        elif in_ratio > self.ratio[1]:
            ch, cw = h, int(round(h * self.ratio[1]))
        else:
            cw, ch = w, h
        return (h - ch) // 2, (w - cw) // 2, ch, cw

    def _apply(self, x):
        img = _image(x, "RandomResizedCrop")
        top, left, ch, cw = self._box(*img.shape[:2])
        crop = _crop(img, top, left, ch, cw)
        return _back(resize(crop, self.size, self.interpolation), x)


class RandomHorizontalFlip(TensorOperation):
    """Mirror left-right with probability ``prob``."""

    def __init__(self, prob: float = 0.5) -> None:
        self.prob = _prob(prob, "RandomHorizontalFlip")

    def _apply(self, x):
        img = _image(x, "RandomHorizontalFlip")
        if config.transform_rng().random() < self.prob:
            img = img[:, ::-1].copy()
        return _back(img, x)


class RandomVerticalFlip(TensorOperation):
    """Mirror top-bottom with probability ``prob``."""

    def __init__(self, prob: float = 0.5) -> None:
        self.prob = _prob(prob, "RandomVerticalFlip")

    def _apply(self, x):
        img = _image(x, "RandomVerticalFlip")
        if config.transform_rng().random() < self.prob:
            img = img[::-1].copy()
        return _back(img, x)


class RandomRotation(TensorOperation):
    """Rotate counter-clockwise by an angle drawn from ``degrees`` (a number d for
    [-d, d], or (min, max)) about ``center`` (the image centre by default), with Pillow;
    ``expand`` grows the output to hold the whole rotated image."""

    _FILTERS = {Inter.NEAREST: "NEAREST", Inter.BILINEAR: "BILINEAR", Inter.BICUBIC: "BICUBIC"}

    def __init__(self, degrees: Any, resample: Inter = Inter.NEAREST, expand: bool = False,
                 center: Any = None, fill_value: Any = 0) -> None:
        if isinstance(degrees, numbers.Real):
            if degrees < 0:
                raise ValueError(f"For 'RandomRotation', a single degrees value must be "
                                 f"non-negative, but got {degrees}.")
            degrees = (-float(degrees), float(degrees))
        elif isinstance(degrees, (tuple, list)) and len(degrees) == 2:
            degrees = (float(degrees[0]), float(degrees[1]))
            if degrees[0] > degrees[1]:
                raise ValueError(f"For 'RandomRotation', degrees must be (min, max) with "
                                 f"min <= max, but got {degrees}.")
        else:
            raise TypeError(f"For 'RandomRotation', degrees must be a number or (min, max), "
                            f"but got {degrees!r}.")
        self.degrees = degrees
        self.resample = Inter(resample)
        if self.resample not in self._FILTERS:
            raise ValueError(f"For 'RandomRotation', resample must be NEAREST, BILINEAR or "
                             f"BICUBIC, but got {self.resample.name}.")
        self.expand = bool(expand)
        self.center = None if center is None else tuple(center)
        self.fill_value = _fill_value(fill_value, "RandomRotation")

    def _apply(self, x):
        Image = _pil()
        angle = float(config.transform_rng().uniform(*self.degrees))
        pil = x if _is_pil(x) else None
        if pil is None:
            img = _image(x, "RandomRotation")
            if img.dtype != np.uint8:
                raise TypeError(f"For 'RandomRotation', the image must be uint8, but got "
                                f"{img.dtype}.")
            squeeze = img.ndim == 3 and img.shape[2] == 1
            pil = Image.fromarray(img[..., 0] if squeeze else img)
        fill = self.fill_value
        if pil.mode == "L" and isinstance(fill, tuple):
            fill = fill[0]
        out = pil.rotate(angle, getattr(Image.Resampling, self._FILTERS[self.resample]),
                         expand=self.expand, center=self.center, fillcolor=fill)
        if _is_pil(x):
            return out
        arr = np.asarray(out)
        return arr[..., None] if squeeze else arr


# --- value operations --------------------------------------------------------------------


def _scale_shift(x: np.ndarray, scale: np.float32, shift: np.float32) -> np.ndarray:
    """``x * scale + shift`` as MindSpore computes it: in double precision with the factors
    held as float32, rounded to float32 at the end. uint8 input goes through a 256-entry
    table of those values (the same numbers, far faster)."""
    if x.dtype == np.uint8:
        table = np.arange(256, dtype=np.float64) * np.float64(scale) + np.float64(shift)
        return table.astype(np.float32)[x]
    out = x.astype(np.float64) * np.float64(scale)
    out += np.float64(shift)
    return out.astype(np.float32)


class Rescale(TensorOperation):
    """``x * rescale + shift``, a float32 result."""

    def __init__(self, rescale: float, shift: float) -> None:
        if not isinstance(rescale, numbers.Real) or not isinstance(shift, numbers.Real):
            raise TypeError(f"For 'Rescale', rescale and shift must be numbers, but got "
                            f"{rescale!r} and {shift!r}.")
        self.rescale = np.float32(rescale)
        self.shift = np.float32(shift)
        self._table = (np.arange(256, dtype=np.float64) * np.float64(self.rescale)
                       + np.float64(self.shift)).astype(np.float32)

    def _apply(self, x):
        return self._batched(_image(x, "Rescale", 0) if not isinstance(x, np.ndarray) else x)

    def _batched(self, x):
        if x.dtype == np.uint8:
            return self._table[x]
        return _scale_shift(x, self.rescale, self.shift)


class Normalize(TensorOperation):
    """``(x - mean) / std`` per channel, in float32; channels last unless ``is_hwc=False``.
    ``mean`` and ``std`` have one value per channel (or one for a 2-D image)."""

    def __init__(self, mean: Sequence[float], std: Sequence[float], is_hwc: bool = True) -> None:
        mean = [float(m) for m in (mean if isinstance(mean, (list, tuple)) else [mean])]
        std = [float(s) for s in (std if isinstance(std, (list, tuple)) else [std])]
        if len(mean) != len(std) or not mean:
            raise ValueError(f"For 'Normalize', mean and std must have the same non-zero "
                             f"length, but got {len(mean)} and {len(std)}.")
        if any(s <= 0 for s in std):
            raise ValueError(f"For 'Normalize', std values must be positive, but got {std}.")
        self.mean = np.asarray(mean, np.float32)
        self.std = np.asarray(std, np.float32)
        self.is_hwc = bool(is_hwc)

    def _channels(self, shape: tuple) -> int:
        if len(shape) == 2:
            return 1
        return shape[-1] if self.is_hwc else shape[0]

    def _apply(self, x):
        img = _image(x, "Normalize")
        c = self._channels(img.shape)
        if len(self.mean) not in (1, c):
            raise ValueError(f"For 'Normalize', the image has {c} channel(s) (shape "
                             f"{list(img.shape)}, is_hwc={self.is_hwc}) but mean and std have "
                             f"{len(self.mean)} values.")
        return self._run(img, img.ndim)

    def _run(self, img, row_ndim):
        mean, std = self.mean, self.std
        if not self.is_hwc and row_ndim == 3:
            mean, std = mean[:, None, None], std[:, None, None]
        elif row_ndim == 2:
            mean, std = mean[0], std[0]
        out = img.astype(np.float32)
        out -= mean
        out /= std
        return out

    def _batched(self, x):
        c = self._channels(x.shape[1:])
        if len(self.mean) not in (1, c) or x.ndim not in (3, 4):
            raise ValueError("Normalize: channel mismatch")
        return self._run(x, x.ndim - 1)


class HWC2CHW(TensorOperation):
    """(h, w, c) to (c, h, w); a 2-D image stays as it is."""

    def _apply(self, x):
        img = _image(x, "HWC2CHW")
        return img.transpose(2, 0, 1).copy() if img.ndim == 3 else img.copy()

    def _batched(self, x):
        if x.ndim not in (3, 4):  # rows that are not images: the per-row path names them
            raise ValueError("HWC2CHW: not a stack of images")
        return np.ascontiguousarray(x.transpose(0, 3, 1, 2)) if x.ndim == 4 else x


class ToTensor(TensorOperation):
    """An HWC image (array or PIL) to CHW ``output_type`` (float32) scaled by 1/255; a 2-D
    image gets a channel axis of 1."""

    def __init__(self, output_type: Any = np.float32) -> None:
        self.output_type = _np_dtype(output_type, "ToTensor")

    def _apply(self, x):
        img = _image(x, "ToTensor")
        img = img[None] if img.ndim == 2 else img.transpose(2, 0, 1)
        return _scale_shift(img, _BY_255, np.float32(0)).astype(self.output_type, copy=False)

    def _batched(self, x):
        x = x[:, None] if x.ndim == 3 else x.transpose(0, 3, 1, 2)
        return _scale_shift(x, _BY_255, np.float32(0)).astype(self.output_type, copy=False)


_BY_255 = np.float32(1 / 255)
