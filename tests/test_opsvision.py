"""Convolution, pooling and vision functions against MindSpore 2.10
(``tests/fixtures/opsvision.json``, recorded by ``tools/record_catalogue.py --suite opsvision``
from ``tests/opsvision_cases.py``): the same calls on mindgrad give MindSpore's shapes,
dtypes, values and gradients.

MindSpore's CPU build refuses most of the mint calls (Ascend kernels) and grid_sample's
bicubic mode: those records hold the refusal, and mindgrad's result is checked against a
NumPy reference of PyTorch's semantics (``NUMPY``) and its gradient numerically in float64.
Where MindSpore has no gradient (the box encoders, fractional pooling's CPU kernel) or a zero
one (IOU), mindgrad's exact gradient is checked numerically. Then the layers, signatures,
GRAPH mode, vmap and the errors."""
from __future__ import annotations

import inspect
import itertools
import json
import math
import os
import re

import numpy as np
import pytest

import mindgrad as ms
import mindgrad.mint as mint
from mindgrad import Tensor, nn, ops

import opsvision_cases as VC
from gradcheck import check_grads
from test_catalogue import _same, decode, weights
from test_mint import _numerical_grad, _outs, _refused

HERE = os.path.dirname(__file__)
RECORDS = {r["name"]: r for r in json.load(open(os.path.join(HERE, "fixtures",
                                                             "opsvision.json")))["cases"]}
CASES = {c.name: c for c in VC.CASES}
DATA = os.path.join(HERE, "..", "tools", "data")

# MindSpore's IOU gradient is zero by definition; mindgrad keeps the exact one
ZERO_GRADIENT_IN_MINDSPORE = {"iou", "iou_iof"}
# calls MindSpore refuses for bad input, as mindgrad does: case -> the op the error names
BAD_INPUT = {"max_unpool2d_bad_index": "max_unpool2d",
             "max_unpool2d_size_out_of_range": "max_unpool2d",
             "grid_sample_bad_grid": "grid_sample", "affine_grid_bad_size": "affine_grid",
             "iou_bad_mode": "iou", "crop_and_resize_bad_method": "crop_and_resize",
             "fractional_max_pool2d_too_big": "fractional_max_pool2d",
             "deformable_conv2d_bad_offsets": "deformable_conv2d"}
# layers whose float32 Parameters cannot join a float64 numerical gradient check
NO_NUMERIC = {"m_Conv3d", "m_ConvTranspose2d"}


# --- NumPy references (PyTorch's semantics) ---------------------------------------------------
def _conv(x, w, b=None, stride=1, pad=0, dil=1):
    """N-d cross-correlation of (N, C, *S) with (O, C, *K)."""
    nd = x.ndim - 2
    s, p, d = ((v,) * nd if isinstance(v, int) else v for v in (stride, pad, dil))
    xp = np.pad(x, ((0, 0), (0, 0)) + tuple((q, q) for q in p))
    out_sz = [(xp.shape[2 + a] - d[a] * (w.shape[2 + a] - 1) - 1) // s[a] + 1 for a in range(nd)]
    out = np.zeros((x.shape[0], w.shape[0], *out_sz))
    for tap in itertools.product(*(range(k) for k in w.shape[2:])):
        sl = tuple(slice(t * d[a], t * d[a] + s[a] * (out_sz[a] - 1) + 1, s[a])
                   for a, t in enumerate(tap))
        out += np.einsum("nc...,oc->no...", xp[(slice(None), slice(None)) + sl],
                         w[(slice(None), slice(None)) + tap])
    return out if b is None else out + b.reshape((1, -1) + (1,) * nd)


def _conv_t2d(x, w, b=None, stride=1, pad=0, out_pad=0, dil=1):
    s, p, op_, d = ((v, v) if isinstance(v, int) else v for v in (stride, pad, out_pad, dil))
    n, c, h, wd = x.shape
    kh, kw = w.shape[2:]
    full = np.zeros((n, w.shape[1], (h - 1) * s[0] + d[0] * (kh - 1) + 1 + op_[0],
                     (wd - 1) * s[1] + d[1] * (kw - 1) + 1 + op_[1]))
    for i, j in itertools.product(range(kh), range(kw)):
        full[:, :, i * d[0]:i * d[0] + (h - 1) * s[0] + 1:s[0],
             j * d[1]:j * d[1] + (wd - 1) * s[1] + 1:s[1]] += np.einsum(
            "nchw,co->nohw", x, w[:, :, i, j])
    out = full[:, :, p[0]:full.shape[2] - p[0], p[1]:full.shape[3] - p[1]]
    return out if b is None else out + b.reshape(1, -1, 1, 1)


def _unfold(x, k, dil=1, pad=0, stride=1):
    k, d, p, s = ((v, v) if isinstance(v, int) else v for v in (k, dil, pad, stride))
    xp = np.pad(x, ((0, 0), (0, 0), (p[0], p[0]), (p[1], p[1])))
    oh = (xp.shape[2] - d[0] * (k[0] - 1) - 1) // s[0] + 1
    ow = (xp.shape[3] - d[1] * (k[1] - 1) - 1) // s[1] + 1
    cols = [xp[:, :, i * d[0]:i * d[0] + s[0] * (oh - 1) + 1:s[0],
               j * d[1]:j * d[1] + s[1] * (ow - 1) + 1:s[1]].reshape(x.shape[0], x.shape[1], -1)
            for i in range(k[0]) for j in range(k[1])]
    return np.stack(cols, 2).reshape(x.shape[0], -1, oh * ow)


def _fold(cols, size, k, pad=(0, 0)):
    k, p = ((v, v) if isinstance(v, int) else v for v in (k, pad))
    n = cols.shape[0]
    c = cols.shape[1] // (k[0] * k[1])
    hp, wp = size[0] + 2 * p[0], size[1] + 2 * p[1]
    oh, ow = hp - k[0] + 1, wp - k[1] + 1
    out = np.zeros((n, c, hp, wp))
    blocks = cols.reshape(n, c, k[0], k[1], oh, ow)
    for i, j in itertools.product(range(k[0]), range(k[1])):
        out[:, :, i:i + oh, j:j + ow] += blocks[:, :, i, j]
    return out[:, :, p[0]:hp - p[0], p[1]:wp - p[1]]


def _windows(n, o):
    return [(math.floor(i * n / o), math.ceil((i + 1) * n / o)) for i in range(o)]


def _adaptive3d(x, size):
    out = np.zeros(x.shape[:2] + tuple(size))
    for pos in itertools.product(*(range(o) for o in size)):
        sl = tuple(slice(*_windows(n, o)[i]) for n, o, i in zip(x.shape[2:], size, pos))
        out[(Ellipsis,) + pos] = x[(Ellipsis,) + sl].mean((-3, -2, -1))
    return out


def _avg3d(x, k, s, p=0, include_pad=True):
    xp = np.pad(x, ((0, 0), (0, 0)) + ((p, p),) * 3)
    ones = np.pad(np.ones(x.shape[2:]), ((p, p),) * 3)
    outs = [(n + 2 * p - k) // s + 1 for n in x.shape[2:]]
    out = np.zeros(x.shape[:2] + tuple(outs))
    for pos in itertools.product(*(range(o) for o in outs)):
        sl = tuple(slice(i * s, i * s + k) for i in pos)
        cnt = k ** 3 if include_pad else ones[sl].sum()
        out[(Ellipsis,) + pos] = xp[(Ellipsis,) + sl].sum((-3, -2, -1)) / cnt
    return out


def _unpool(x, idx, size):
    out = np.zeros(x.shape[:-2] + (int(np.prod(size)),))
    np.put_along_axis(out, idx.reshape(x.shape[:-2] + (-1,)), x.reshape(x.shape[:-2] + (-1,)),
                      -1)
    return out.reshape(x.shape[:-2] + tuple(size))


def _linear_axis(x, axis, m, align, scale=None):
    n = x.shape[axis]
    i = np.arange(m)
    if align:
        src = i * ((n - 1) / (m - 1)) if m > 1 else np.zeros(m)
    else:
        src = np.maximum((i + 0.5) * (1 / scale if scale else n / m) - 0.5, 0)
    lo = np.minimum(np.floor(src).astype(int), n - 1)
    hi = np.minimum(lo + 1, n - 1)
    shape = [1] * x.ndim
    shape[axis] = m
    w = (src - lo).reshape(shape)
    return np.take(x, lo, axis) * (1 - w) + np.take(x, hi, axis) * w


def _bilinear(x, size, align):
    return _linear_axis(_linear_axis(x, 2, size[0], align), 3, size[1], align)


def _cubic_resize(x, size, align):
    """PyTorch's bicubic upsampling: separable, taps clamped to the edges."""
    for axis, m in zip((2, 3), size):
        n = x.shape[axis]
        i = np.arange(m)
        src = i * ((n - 1) / (m - 1)) if align else (i + 0.5) * n / m - 0.5
        lo = np.floor(src).astype(int)
        shape = [1] * x.ndim
        shape[axis] = m
        x = sum(np.take(x, np.clip(lo - 1 + k, 0, n - 1), axis) * w.reshape(shape)
                for k, w in enumerate(_cubic(src - lo)))
    return x


def _cubic(t):
    a = -0.75
    return [((a * (t + 1) - 5 * a) * (t + 1) + 8 * a) * (t + 1) - 4 * a,
            ((a + 2) * t - (a + 3)) * t * t + 1,
            ((a + 2) * (1 - t) - (a + 3)) * (1 - t) * (1 - t) + 1,
            ((a * (2 - t) - 5 * a) * (2 - t) + 8 * a) * (2 - t) - 4 * a]


def _reflect(v, lo2, hi2):
    lo, span = lo2 / 2, (hi2 - lo2) / 2
    d = abs(v - lo)
    flips = math.floor(d / span)
    extra = d - flips * span
    return extra + lo if flips % 2 == 0 else span - extra + lo


def _bicubic(x, grid, padding, align):
    """PyTorch's bicubic grid_sample, one output pixel at a time."""
    n, c, h, w = x.shape
    out = np.zeros((n, c) + grid.shape[1:3])

    def unnorm(g, size):
        return (g + 1) / 2 * (size - 1) if align else ((g + 1) * size - 1) / 2

    def pad(i, size):
        if padding == "border":
            return min(max(i, 0), size - 1)
        if padding == "reflection":
            r = _reflect(i, 0, 2 * (size - 1)) if align else _reflect(i, -1, 2 * size - 1)
            return min(max(r, 0), size - 1)
        return i

    for b, i, j in itertools.product(range(n), *(range(s) for s in grid.shape[1:3])):
        gx, gy = unnorm(grid[b, i, j, 0], w), unnorm(grid[b, i, j, 1], h)
        x0, y0 = math.floor(gx), math.floor(gy)
        wx, wy = _cubic(gx - x0), _cubic(gy - y0)
        for a, bb in itertools.product(range(4), range(4)):
            yy, xx = pad(y0 - 1 + a, h), pad(x0 - 1 + bb, w)
            if 0 <= yy <= h - 1 and 0 <= xx <= w - 1:
                out[b, :, i, j] += wy[a] * wx[bb] * x[b, :, int(yy), int(xx)]
    return out


def _seeded(*shapes):
    """The Parameters ``_layer`` loads: bias then weight, uniform in [-0.5, 0.5)."""
    rng = np.random.default_rng(0)
    return [rng.uniform(-0.5, 0.5, s).astype(np.float32) for s in shapes]


NUMPY = {
    "grid_sample_bicubic": lambda x, g: _bicubic(x, g, "zeros", False),
    "grid_sample_bicubic_border_align": lambda x, g: _bicubic(x, g, "border", True),
    "grid_sample_bicubic_reflection": lambda x, g: _bicubic(x, g, "reflection", False),
    "f_adaptive_avg_pool3d": lambda x: _adaptive3d(x, (3, 2, 1)),
    "f_avg_pool3d": lambda x: _avg3d(x, 2, 2),
    "f_avg_pool3d_stride_pad": lambda x: _avg3d(x, 3, 2, 1, False),
    "f_conv3d": lambda x, w, b: _conv(x, w, b, pad=1),
    "f_conv3d_stride": lambda x, w: _conv(x, w, stride=(1, 2, 2)),
    "f_conv_transpose2d": lambda x, w, b: _conv_t2d(x, w, b, 2, 1, 1),
    "f_conv_transpose2d_dilation": lambda x, w: _conv_t2d(x, w, dil=2),
    "f_unfold": lambda x: _unfold(x, 2, pad=1, stride=2),
    "f_unfold_dilation": lambda x: _unfold(x, (2, 3), dil=(2, 1)),
    "f_fold": lambda c: _fold(c, (4, 5), 2),
    "f_max_unpool2d": lambda x, i: _unpool(x, i, (6, 6)),
    "f_interpolate_bilinear": lambda x: _bilinear(x, (7, 4), False),
    "f_interpolate_bilinear_align": lambda x: _bilinear(x, (7, 9), True),
    "f_interpolate_bicubic": lambda x: _cubic_resize(x, (8, 4), False),
    "f_interpolate_bicubic_align": lambda x: _cubic_resize(x, (7, 3), True),
    "m_Conv3d": lambda x: _conv(x, _seeded((3,), (3, 2, 2, 2, 3))[1],
                                _seeded((3,), (3, 2, 2, 2, 3))[0], pad=1),
    "m_ConvTranspose2d": lambda x: _conv_t2d(x, _seeded((4,), (3, 4, 3, 3))[1],
                                             _seeded((4,), (3, 4, 3, 3))[0], 2),
    "m_AvgPool3d": lambda x: _avg3d(x, 2, 1),
    "m_AdaptiveAvgPool3d": lambda x: _adaptive3d(x, (2, 2, 2)),
    "m_Unfold": lambda x: _unfold(x, 3, pad=1),
    "m_Fold": lambda c: _fold(c, (3, 4), 2, (0, 1)),
    "m_MaxUnpool2d": lambda x, i: _unpool(x, i, (6, 6)),
    "m_ReflectionPad3d": lambda x: np.pad(x, ((0, 0), (0, 0), (2, 1), (0, 1), (1, 2)),
                                          "reflect"),
    "m_ReplicationPad3d": lambda x: np.pad(x, ((0, 0), (0, 0)) + ((2, 2),) * 3, "edge"),
    "m_UpsamplingBilinear2d": lambda x: _bilinear(x, (4, 9), True),
}


def test_fixture_covers_every_case() -> None:
    assert set(RECORDS) == set(CASES)
    assert len(CASES) >= 60


@pytest.mark.parametrize("name", sorted(CASES))
def test_against_mindspore(name: str) -> None:
    case, rec = CASES[name], RECORDS[name]
    inputs = [decode(r) for r in rec["inputs"]]
    for mine, stored in zip(case.inputs, inputs):
        np.testing.assert_array_equal(mine, stored)
    ms.set_seed(0)
    ts = [Tensor(x) for x in inputs]
    if name in BAD_INPUT:
        assert "error" in rec, f"{name}: MindSpore accepted it"
        with pytest.raises((ValueError, TypeError), match=f"'{BAD_INPUT[name]}'"):
            case.fn(ms, ops, *ts)
        return
    outs = _outs(case.fn(ms, ops, *ts))
    if "error" in rec:
        assert _refused(rec) or "bicubic" in rec["error"][1], rec["error"]
        want = _outs(NUMPY[name](*inputs))
        assert len(outs) == len(want)
        for o, w in zip(outs, want):
            got = o.asnumpy()
            assert got.shape == w.shape and got.dtype == np.float32, (name, got.shape, w.shape)
            np.testing.assert_allclose(got, w, rtol=1e-4, atol=1e-5, err_msg=name)
        if case.grad and name not in NO_NUMERIC:
            _numerical_grad(case, inputs)
        return
    assert len(outs) == len(rec["outputs"])
    for k, (o, r) in enumerate(zip(outs, rec["outputs"])):
        _same(o.asnumpy(), decode(r), f"{name} output {k}", case.rtol, case.values)
    if not case.grad:
        return
    if "grad_error" in rec or name in ZERO_GRADIENT_IN_MINDSPORE:
        if name in ZERO_GRADIENT_IN_MINDSPORE:
            assert all(not decode(g).any() for g in rec["grads"])
        _numerical_grad(case, inputs)
        return
    w = Tensor(weights(tuple(rec["outputs"][0]["shape"])))

    def loss(*xs):
        return (_outs(case.fn(ms, ops, *xs))[0] * w).sum()

    g = ms.grad(loss, grad_position=tuple(case.grad))(*ts)
    g = g if isinstance(g, (tuple, list)) else (g,)
    for k, (t, r) in enumerate(zip(g, rec["grads"])):
        _same(t.asnumpy(), decode(r), f"{name} gradient {k}", max(case.rtol, 1e-5), True)


# --- derivatives of second order, GRAPH mode and vmap ------------------------------------------
def _f64(seed: int, *shape: int, lo: float = -1.0, hi: float = 1.0) -> np.ndarray:
    return np.random.default_rng(seed).uniform(lo, hi, shape)


SECOND_ORDER = {
    "grid_sample": (lambda x, g: ops.grid_sample(x, g, align_corners=True),
                    [_f64(1, 1, 2, 3, 4), _f64(2, 1, 2, 2, 2, lo=-0.8, hi=0.8)]),
    "affine_grid": (lambda t: ops.affine_grid(t, (1, 1, 2, 3)) ** 2, [_f64(3, 1, 2, 3)]),
    "bounding_box_encode": (lambda a, g: ops.bounding_box_encode(a, g),
                            [VC.ANCHORS[:2].astype(np.float64), VC.GTS.astype(np.float64)]),
    "conv_transpose2d": (lambda x, w: mint.nn.functional.conv_transpose2d(x, w, stride=2),
                         [_f64(4, 1, 2, 3, 3), _f64(5, 2, 1, 2, 2)]),
}


@pytest.mark.parametrize("name", sorted(SECOND_ORDER))
def test_second_derivatives(name: str) -> None:
    f, args = SECOND_ORDER[name]
    check_grads(f, [Tensor(a) for a in args], order=2)


def test_graph_mode_and_vmap() -> None:
    x, g = Tensor(VC.IMG), Tensor(VC.GRID)
    eager = ops.grid_sample(x, g, "bilinear", "border")
    compiled = ms.jit(lambda a, b: ops.grid_sample(a, b, "bilinear", "border"))(x, g)
    np.testing.assert_allclose(compiled.asnumpy(), eager.asnumpy(), rtol=1e-6)
    t = Tensor(VC.THETA)
    batched = ops.vmap(lambda th: ops.affine_grid(th[None], (1, 1, 3, 4))[0])(t)
    np.testing.assert_allclose(batched.asnumpy(), ops.affine_grid(t, (2, 1, 3, 4)).asnumpy(),
                               rtol=1e-6)
    w = Tensor(VC.KERT)
    looped = np.stack([mint.nn.functional.conv_transpose2d(Tensor(VC.IMG[i]), w).asnumpy()
                       for i in range(2)])
    np.testing.assert_allclose(
        ops.vmap(lambda a: mint.nn.functional.conv_transpose2d(a, w))(x).asnumpy(), looped,
        rtol=1e-5, atol=1e-6)
    # the index checks are operations too, so unpooling and crops map over a batch
    two = [Tensor(np.stack([v, v[::-1]])) for v in (VC.U2, VC.U2_IDX)]
    mapped = ops.vmap(lambda a, i: ops.max_unpool2d(a, i, 2))(*two).asnumpy()
    np.testing.assert_array_equal(mapped[1], _unpool(VC.U2[::-1], VC.U2_IDX[::-1], (6, 6)))
    crops = ops.vmap(lambda b: ops.crop_and_resize(Tensor(VC.NHWC), b, Tensor(VC.BOX_IDX),
                                                   (2, 3)))(Tensor(np.stack([VC.BOXES] * 2)))
    np.testing.assert_allclose(crops.asnumpy()[1], ops.crop_and_resize(
        Tensor(VC.NHWC), Tensor(VC.BOXES), Tensor(VC.BOX_IDX), (2, 3)).asnumpy(), rtol=1e-6)
    deform = ms.jit(lambda a, b, o: ops.deformable_conv2d(a, b, o, (2, 3), (1, 1, 2, 2),
                                                          (0, 0, 1, 0)))
    np.testing.assert_allclose(
        deform(*(Tensor(v) for v in (VC.DX, VC.DW, VC.DOFF))).asnumpy(),
        ops.deformable_conv2d(Tensor(VC.DX), Tensor(VC.DW), Tensor(VC.DOFF), (2, 3),
                              (1, 1, 2, 2), (0, 0, 1, 0)).asnumpy(), rtol=1e-6)


# --- layers, unbatched inputs and randomness ------------------------------------------------
def test_layers_match_their_functions() -> None:
    F = mint.nn.functional
    vol = Tensor(VC.VOL)
    conv = mint.nn.Conv3d(2, 4, 2, stride=(1, 2, 1), padding=1, bias=True)
    assert conv.weight.shape == (4, 2, 2, 2, 2) and conv.bias.shape == (4,)
    np.testing.assert_allclose(conv(vol).asnumpy(), _conv(VC.VOL, conv.weight.asnumpy(),
                                                          conv.bias.asnumpy(), (1, 2, 1), 1),
                               rtol=1e-4, atol=1e-5)
    refl = mint.nn.Conv3d(2, 1, 3, padding=1, padding_mode="reflect", bias=False)
    np.testing.assert_allclose(
        refl(vol).asnumpy(),
        _conv(np.pad(VC.VOL, ((0, 0), (0, 0)) + ((1, 1),) * 3, "reflect"),
              refl.weight.asnumpy()), rtol=1e-4, atol=1e-5)
    ct = mint.nn.ConvTranspose2d(3, 2, 3, stride=2, padding=1)
    assert ct.weight.shape == (3, 2, 3, 3)
    x = Tensor(VC.IMG)
    assert ct(x).shape == (2, 2, 9, 11)
    assert ct(x, output_size=(10, 12)).shape == (2, 2, 10, 12)
    with pytest.raises(ValueError, match="ConvTranspose2d"):
        ct(x, output_size=(12, 12))
    unbatched = F.conv_transpose2d(Tensor(VC.IMG[0]), ct.weight, ct.bias, 2, 1)
    np.testing.assert_allclose(unbatched.asnumpy(), ct(x).asnumpy()[0], rtol=1e-5, atol=1e-6)
    cols = F.unfold(Tensor(VC.IMG[0]), 2)
    assert cols.shape == (12, 20)
    np.testing.assert_allclose(F.fold(cols, (5, 6), 2).asnumpy(),
                               _fold(_unfold(VC.IMG[:1], 2), (5, 6), 2)[0], rtol=1e-5)
    assert F.avg_pool3d(Tensor(VC.CUBE[0]), 2).shape == (2, 3, 2, 3)
    ups = mint.nn.UpsamplingBilinear2d(scale_factor=2.0)(x)
    np.testing.assert_allclose(ups.asnumpy(), _bilinear(VC.IMG, (10, 12), True), rtol=1e-4,
                               atol=1e-6)
    lin = F.interpolate(Tensor(VC.U1), scale_factor=2.5, mode="linear")
    np.testing.assert_allclose(lin.asnumpy(), _linear_axis(VC.U1, 2, 10, False, 2.5),
                               rtol=1e-5)
    tri = F.interpolate(vol, size=(2, 3, 7), mode="trilinear", align_corners=True)
    want = VC.VOL
    for a, m in zip((2, 3, 4), (2, 3, 7)):
        want = _linear_axis(want, a, m, True)
    np.testing.assert_allclose(tri.asnumpy(), want, rtol=1e-5)
    unpool = nn.MaxUnpool2d(2)
    np.testing.assert_array_equal(unpool(Tensor(VC.U2), Tensor(VC.U2_IDX)).asnumpy(),
                                  _unpool(VC.U2, VC.U2_IDX, (6, 6)))
    with pytest.raises(ValueError, match="MaxUnpool2d"):
        unpool(Tensor(VC.U2), Tensor(VC.U2_IDX), [6, 6])


def test_fractional_pooling_draws_from_the_seeded_generator() -> None:
    x = Tensor(VC.PLANE)
    ms.set_seed(4)
    a, ia = ops.fractional_max_pool2d(x, 2, (3, 3), return_indices=True)
    ms.set_seed(4)
    b = ops.fractional_max_pool2d(x, 2, (3, 3))
    np.testing.assert_array_equal(a.asnumpy(), b.asnumpy())
    # every value is its window's maximum, at the index returned
    flat = VC.PLANE.reshape(2, 3, -1)
    np.testing.assert_array_equal(np.take_along_axis(flat, ia.asnumpy().reshape(2, 3, -1), -1),
                                  a.asnumpy().reshape(2, 3, -1))
    pool = nn.FractionalMaxPool3d(2, output_ratio=0.5)
    assert pool(Tensor(VC.CUBE)).shape == (1, 2, 3, 2, 3)
    # the draw is an operation: a compiled call draws new windows each time
    ms.set_seed(5)
    windows = ms.jit(lambda t: ops.fractional_max_pool2d(t, 2, (3, 3), return_indices=True)[1])
    big = Tensor(VC._r(440, (1, 4, 9, 9)))
    assert not np.array_equal(windows(big).asnumpy(), windows(big).asnumpy())
    # and the windows map over a batch of images and samples
    s = Tensor(np.stack([VC.SAMPLES, VC.SAMPLES[::-1]]))
    mapped = ops.vmap(lambda t, u: ops.fractional_max_pool2d(t, 2, (3, 4), _random_samples=u))(
        Tensor(np.stack([VC.PLANE, VC.PLANE])), s).asnumpy()
    np.testing.assert_array_equal(mapped[1], ops.fractional_max_pool2d(
        x, 2, (3, 4), _random_samples=Tensor(VC.SAMPLES[::-1])).asnumpy())


def test_ctc_and_boxes_edge_cases() -> None:
    logits = np.full((3, 1, 3), -1.0, np.float32)
    logits[:, 0, 2] = 5.0  # the blank everywhere: nothing decoded
    idx, vals, shape, logp = ops.ctc_greedy_decoder(Tensor(logits), Tensor(np.array([3],
                                                                                  np.int32)))
    assert idx.shape == (0, 2) and vals.shape == (0,) and shape.asnumpy().tolist() == [1, 0]
    np.testing.assert_allclose(logp.asnumpy(), [[-15.0]])
    disjoint = ops.iou(Tensor(np.array([[0, 0, 1, 1]], np.float32)),
                       Tensor(np.array([[5, 5, 6, 6]], np.float32)))
    assert disjoint.asnumpy().tolist() == [[0.0]]
    enc = ops.bounding_box_encode(Tensor(VC.ANCHORS[:2]), Tensor(VC.GTS), (0.1, 0.0, -0.2, 0.1),
                                  (0.5, 1.0, 2.0, 1.5))
    dec = ops.bounding_box_decode(Tensor(VC.ANCHORS[:2]), enc, (100, 100),
                                  (0.1, 0.0, -0.2, 0.1), (0.5, 1.0, 2.0, 1.5))
    np.testing.assert_allclose(dec.asnumpy(), VC.GTS, rtol=1e-5, atol=1e-5)


# --- errors --------------------------------------------------------------------------------
@pytest.mark.parametrize("call,match", [
    (lambda: ops.grid_sample(Tensor(VC.IMG), Tensor(VC.GRID[..., :1])), "grid_sample.*grid"),
    (lambda: ops.grid_sample(Tensor(VC.IMG), Tensor(VC.GRID), "area"), "grid_sample.*mode"),
    (lambda: ops.grid_sample(Tensor(VC.VOL), Tensor(VC.GRID3), "bicubic"), "bicubic"),
    (lambda: ops.affine_grid(Tensor(VC.THETA), (2, 3, 4)), "affine_grid.*size"),
    (lambda: ops.affine_grid(Tensor(VC.THETA), (3, 1, 4, 4)), "affine_grid.*theta"),
    (lambda: ops.crop_and_resize(Tensor(VC.NHWC), Tensor(VC.BOXES), Tensor(VC.BOX_IDX + 1),
                                 (2, 2)), "crop_and_resize.*box_indices"),
    (lambda: ops.iou(Tensor(VC.ANCHORS), Tensor(VC.GTS), "giou"), "iou.*mode"),
    (lambda: ops.bounding_box_decode(Tensor(VC.ANCHORS), Tensor(VC.DELTAS), (0, 4)),
     "bounding_box_decode.*max_shape"),
    (lambda: ops.ctc_greedy_decoder(Tensor(VC.LOGITS), Tensor(VC.LENS + 3)),
     "ctc_greedy_decoder.*sequence_length"),
    (lambda: ops.max_unpool1d(Tensor(VC.U1), Tensor(VC.U1_IDX[..., :2]), 2),
     "max_unpool1d.*indices"),
    (lambda: ops.fractional_max_pool2d(Tensor(VC.PLANE), 4, (5, 5)), "fractional_max_pool2d"),
    (lambda: ops.fractional_max_pool3d(Tensor(VC.CUBE), 2), "output_size"),
    (lambda: mint.nn.functional.conv_transpose2d(Tensor(VC.IMG), Tensor(VC.KERT), stride=2,
                                                 output_padding=2), "output_padding"),
    (lambda: mint.nn.functional.interpolate(Tensor(VC.IMG), size=(3, 3), mode="trilinear"),
     "trilinear"),
    (lambda: mint.nn.functional.conv3d(Tensor(VC.VOL), Tensor(VC.KERT)), "conv3d"),
])
def test_bad_input_is_a_clear_error(call, match) -> None:
    with pytest.raises((ValueError, TypeError), match=match):
        call()


# --- names and signatures --------------------------------------------------------------------
OPS_NAMES = ["conv_transpose2d", "grid_sample", "affine_grid", "max_unpool1d", "max_unpool2d",
             "max_unpool3d", "iou", "bounding_box_encode", "bounding_box_decode", "check_valid",
             "crop_and_resize", "ctc_greedy_decoder", "fractional_max_pool2d",
             "fractional_max_pool3d", "deformable_conv2d"]
NN_NAMES = ["MaxUnpool1d", "MaxUnpool2d", "MaxUnpool3d", "FractionalMaxPool2d",
            "FractionalMaxPool3d"]


def _signature(f) -> str:
    parts = []
    for pname, p in inspect.signature(f).parameters.items():
        default = "" if p.default is p.empty else "=" + repr(p.default)
        parts.append(pname + default)
    return "(" + ", ".join(parts) + ")"


@pytest.mark.parametrize("namespace,module,names,init", [
    ("ops", ops, OPS_NAMES, False), ("nn", nn, NN_NAMES, True)])
def test_signatures_match_mindspore(namespace, module, names, init) -> None:
    want = {}
    for line in open(os.path.join(DATA, f"mindspore_{namespace}_signatures.txt")):
        name, sig = line.strip().split(" ", 1)
        want[name] = re.sub(r": [^,=)]+", "", sig.split(" -> ")[0])
    checked = 0
    for name in names:
        if not hasattr(module, name):  # left out: MindSpore's CPU build refuses it
            continue
        obj = getattr(module, name)
        got = _signature(obj.__init__ if init else obj)
        got = got.replace("(self, ", "(")
        assert got == want[name], f"{name}: {got} != {want[name]}"
        checked += 1
    assert checked == len(names) - (namespace == "ops")
