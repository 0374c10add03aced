"""The primitive test table: every check of every primitive, driven by one list of rows.

Each row is ``Case(prim, name, fn, ref, gen, ...)``:
- ``prim``: the name of the primitive the row checks (a key of
  ``mindgrad.core.primitive.registered()``), or ``"composite"`` for a front-end function
  built of several primitives;
- ``fn``: a function of mindgrad Tensors (the primitive through its front end);
- ``ref``: the same computation in NumPy (the forward value, dtype and shape);
- ``gen(rng)``: NumPy inputs inside the operation's valid domain, float64 (the driver casts
  them to each float dtype it checks) or integer / boolean (kept as they are); the static
  parameters are bound in ``fn``;
- ``order``: up to which order derivatives are checked against central differences (CI runs
  orders <= 2; order 3 runs with ``-m slow``); ``graph_order`` (default: ``order``) the
  same for GRAPH == PYNATIVE;
- flags: ``diff`` (False: the outputs carry no gradient, as comparisons and indices),
  ``vmap`` / ``jet`` (False: that check does not apply, with the reason beside the row),
  ``f16`` (``REFUSED``: float16 inputs raise TypeError as in MindSpore; another string: the
  float16 check is skipped for that reason).

``tests/test_primitive_table.py`` runs the checks. ``EXEMPT`` names the primitives that have
no row, each with the reason and where they are tested instead; ``NOT_OPERATIONS`` those never
run as an operation (tape entries, graph guards); ``BATCH_LOOP`` and ``TAYLOR_FROM_JVP`` the
primitives allowed to use the per-example vmap loop and the generic Taylor rule derived from
the JVP rule. ``walk(registry)`` checks a registry against all of them.
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Callable, Mapping, NamedTuple

import numpy as np

import mindgrad as ms
import mindgrad.nn  # noqa: F401  (registers the primitives defined beside the layers)
from mindgrad import ops
from mindgrad.core.primitive import registered
from mindgrad.prims.getitem import ArraySlot

Tensor = ms.Tensor


class Case(NamedTuple):
    prim: str
    name: str
    fn: Callable
    ref: Callable
    gen: Callable
    order: int = 3
    graph_order: int | None = None
    diff: bool = True
    vmap: bool = True
    jet: bool = True
    f16: bool | str = True


# f16=REFUSED: float16 inputs raise TypeError, as in MindSpore (matrix_inverse, svd), or as
# NumPy's linear algebra does where MindSpore has no such operation (solve)
REFUSED = "refused"
# f16=<another reason>: the float16 check is skipped, for that reason (a known deviation)


def via_float32(f, keep_half: bool = True):
    """A NumPy linear-algebra reference for float16 inputs too (NumPy refuses them): computed
    in float32, and given back in float16 (det, cholesky) or left in float32 (the norms of
    singular values), as MindSpore 2.10's CPU kernels give them."""
    def ref(*arrays):
        if not any(getattr(a, "dtype", None) == np.float16 for a in arrays):
            return f(*arrays)
        out = f(*[a.astype(np.float32) if a.dtype == np.float16 else a for a in arrays])
        return np.asarray(out).astype(np.float16) if keep_half else out
    return ref


# --- input generators (float64, inside each op's domain) --------------------------------------
def U(lo, hi, *shapes):
    """Uniform inputs in [lo, hi), one array per shape."""
    return lambda rng: [rng.uniform(lo, hi, s) for s in shapes]


def N(*shapes):
    return lambda rng: [rng.standard_normal(s) for s in shapes]


def away0(*shapes, lo=0.3, hi=1.5):
    """Values with |x| in [lo, hi) and a random sign (abs, relu, ... away from their kink)."""
    return lambda rng: [rng.uniform(lo, hi, s) * rng.choice([-1.0, 1.0], s) for s in shapes]


def distinct_pair(shape_x, shape_y):
    """x and y (y broadcasting to x's shape) whose elements differ by at least 0.2
    (maximum/minimum: no ties)."""
    assert np.broadcast_shapes(shape_x, shape_y) == shape_x

    def gen(rng):
        y = rng.uniform(-1, 1, shape_y)
        gap = rng.uniform(0.2, 1.0, shape_x) * rng.choice([-1.0, 1.0], shape_x)
        return [y + gap, y]
    return gen


def away_from(kinks, lo, hi, *shapes, gap=0.3):
    """Uniform values in [lo, hi) at least ``gap`` from every kink (piecewise operators)."""
    def gen(rng):
        out = []
        for s in shapes:
            x = rng.uniform(lo, hi, s)
            for k in kinks:
                near = np.abs(x - k) < gap
                x[near] = k + np.where(x[near] < k, -gap, gap)
            out.append(x)
        return out
    return gen


def off_multiples(rng, shape_x, shape_y):
    """x and y (broadcasting to x) with x / y at least 0.2 from every integer (floor_mod and
    floor_div away from their jumps); a 0-d shape_y means y = 0.7 (a Python number)."""
    y = rng.uniform(0.5, 1.5, shape_y) * rng.choice([-1.0, 1.0], shape_y) if shape_y else 0.7
    q = rng.integers(-3, 3, shape_x) + rng.uniform(0.2, 0.8, shape_x)
    return [q * y, y]


def with_zero(*shapes):
    """Normal values with an exact zero first (pow at x = 0)."""
    def gen(rng):
        out = [rng.standard_normal(s) for s in shapes]
        out[0].flat[0] = 0.0
        return out
    return gen


def fmod_pair(shape):
    """x and y with x / y at least 0.2 from every integer (fmod's jumps), of either sign."""
    def gen(rng):
        y = rng.uniform(0.8, 1.6, shape) * rng.choice([-1.0, 1.0], shape)
        q = rng.integers(-3, 3, shape) + rng.uniform(0.2, 0.8, shape)
        return [q * y, y]
    return gen


def distinct(*shape):
    """Distinct values (reduce_max/min without ties)."""
    n = int(np.prod(shape))
    return lambda rng: [rng.permutation(np.linspace(-1.0, 1.0, n)).reshape(shape)
                        + rng.uniform(-0.01, 0.01, shape)]


# --- constants used inside some rows ---------------------------------------------------------
COND = np.array([[True, False, True], [False, False, True]])
MASK = np.array([True, False, True, True])
IDX = np.array([0, 2, 2, 1, 0])  # repeated indices: gradients accumulate
IDX_ROWS = np.array([2, 0, 2, 1, 2])  # setitem: repeated rows, the last write is kept


def _set(x, index, v):
    """``x[index] = v`` (rebinding the argument) then a nonlinear use of the result."""
    x[index] = v
    return x * x


def _set_ref(x, index, v):
    x = x.copy()
    x[index] = v
    return x * x


np_erf = np.vectorize(math.erf, otypes=[np.float64])
np_erfc = np.vectorize(math.erfc, otypes=[np.float64])


def _erf_ref(x):
    return np_erf(x).astype(x.dtype)


def _softplus_ref(x):
    return np.maximum(x, 0) + np.log1p(np.exp(-np.abs(x)))


def _lse_ref(x, axis=None, keepdims=False):
    m = np.max(x, axis=axis, keepdims=True)
    out = np.log(np.sum(np.exp(x - m), axis=axis, keepdims=True)) + m
    return out if keepdims else np.squeeze(out, axis=axis)


def _softmax_ref(x, axis=-1):
    e = np.exp(x - x.max(axis=axis, keepdims=True))
    return e / e.sum(axis=axis, keepdims=True)


def _np_svd(x):
    u, s, vh = np.linalg.svd(x, full_matrices=False)
    return s, u, np.swapaxes(vh, -1, -2)


def _svd_signless(svd):
    """s, and u and v squared elementwise: each pair of singular vectors is unique up to a
    common sign, which squaring removes."""
    s, u, v = svd
    return s, u * u, v * v


INF = float("inf")
MM = ops.MatMul
sel = ms.Tensor(COND)


# --- generators and references of the structured operations --------------------------------
def with_zeros(shape, positions):
    """Normal values with exact zeros at ``positions`` (products: the division-free rules)."""
    def gen(rng):
        x = rng.standard_normal(shape)
        for p in positions:
            x[p] = 0.0
        return [x]
    return gen


def spd(n, batch=()):
    def gen(rng):
        m = rng.standard_normal(batch + (n, n))
        return [m @ np.swapaxes(m, -1, -2) + n * np.eye(n)]
    return gen


def well_conditioned(*shapes):
    """Square matrices (first shape) shifted away from singularity, then plain normals."""
    def gen(rng):
        a = rng.standard_normal(shapes[0]) + 3 * np.eye(shapes[0][-1])
        return [a] + [rng.standard_normal(s) for s in shapes[1:]]
    return gen


def distinct_grid(*shape):
    """Distinct values (max pooling without ties)."""
    n = int(np.prod(shape))
    return lambda rng: [rng.permutation(np.linspace(-1.0, 1.0, n)).reshape(shape)]


# --- loop references for convolution and pooling (tiny shapes only) ---------------------------
def conv_ref(x, w, stride=(1, 1), pads=((0, 0), (0, 0)), dil=(1, 1), groups=1, bias=None):
    xp = np.pad(x, ((0, 0), (0, 0)) + tuple(pads))
    n, _, h, wd = xp.shape
    o, cg, kh, kw = w.shape
    ho = (h - dil[0] * (kh - 1) - 1) // stride[0] + 1
    wo = (wd - dil[1] * (kw - 1) - 1) // stride[1] + 1
    out = np.zeros((n, o, ho, wo), x.dtype)
    per = o // groups
    for b in range(n):
        for oc in range(o):
            g = oc // per
            for i in range(ho):
                for j in range(wo):
                    hs, ws = i * stride[0], j * stride[1]
                    patch = xp[b, g * cg:(g + 1) * cg,
                               hs:hs + dil[0] * (kh - 1) + 1:dil[0],
                               ws:ws + dil[1] * (kw - 1) + 1:dil[1]]
                    out[b, oc, i, j] = (patch * w[oc]).sum()
    if bias is not None:
        out += bias.reshape(1, -1, 1, 1)
    return out


def _pool_len(n, k, s, p, d, ceil):
    span = n + 2 * p - d * (k - 1) - 1
    o = (-(-span // s) if ceil else span // s) + 1
    if ceil and (o - 1) * s >= n + p:
        o -= 1
    return o


def maxpool_ref(x, k, s=None, p=(0, 0), d=(1, 1), ceil=False):
    s = s or k
    n, c, h, w = x.shape
    ho, wo = (_pool_len(h, k[0], s[0], p[0], d[0], ceil), _pool_len(w, k[1], s[1], p[1], d[1], ceil))
    out = np.zeros((n, c, ho, wo), x.dtype)
    for i in range(ho):
        for j in range(wo):
            best = np.full((n, c), -np.inf)
            for a in range(k[0]):
                for b in range(k[1]):
                    r, q = i * s[0] - p[0] + a * d[0], j * s[1] - p[1] + b * d[1]
                    if 0 <= r < h and 0 <= q < w:
                        best = np.maximum(best, x[:, :, r, q])
            out[:, :, i, j] = best
    return out


def avgpool_ref(x, k, s, p=(0, 0), ceil=False, include_pad=True, divisor=None):
    """PyTorch/MindSpore semantics: windows clipped to the padded input count its padding
    (include_pad) but not the ceil-mode overhang."""
    n, c, h, w = x.shape
    ho, wo = _pool_len(h, k[0], s[0], p[0], 1, ceil), _pool_len(w, k[1], s[1], p[1], 1, ceil)
    out = np.zeros((n, c, ho, wo), x.dtype)
    for i in range(ho):
        for j in range(wo):
            hs, ws = i * s[0] - p[0], j * s[1] - p[1]
            he, we = min(hs + k[0], h + p[0]), min(ws + k[1], w + p[1])
            size = (he - hs) * (we - ws)
            hs, ws, he, we = max(hs, 0), max(ws, 0), min(he, h), min(we, w)
            total = x[:, :, hs:he, ws:we].sum(axis=(2, 3))
            if divisor:
                size = divisor
            elif not include_pad:
                size = (he - hs) * (we - ws)
            out[:, :, i, j] = total / size
    return out


def same_pads(hw, k, s):
    out = []
    for n, ki, si in zip(hw, k, s):
        total = max((-(-n // si) - 1) * si + ki - n, 0)
        out.append((total // 2, total - total // 2))
    return tuple(out)


def pool_same_ref(x, k, s, kind):
    (pt, pb), (pl, pr) = same_pads(x.shape[2:], k, s)
    h, w = x.shape[2:]
    ho, wo = -(-h // s[0]), -(-w // s[1])
    out = np.zeros(x.shape[:2] + (ho, wo), x.dtype)
    for i in range(ho):
        for j in range(wo):
            hs, ws = i * s[0] - pt, j * s[1] - pl
            win = x[:, :, max(hs, 0):min(hs + k[0], h), max(ws, 0):min(ws + k[1], w)]
            out[:, :, i, j] = win.max(axis=(2, 3)) if kind == "max" else win.mean(axis=(2, 3))
    return out


# --- small NumPy references ------------------------------------------------------------------
def cumprod_ext_ref(x, axis, exclusive, reverse):
    y = np.flip(x, axis) if reverse else x
    c = np.cumprod(y, axis)
    if exclusive:
        c = np.concatenate([np.ones_like(np.take(c, [0], axis)),
                            np.take(c, range(c.shape[axis] - 1), axis)], axis)
    return np.flip(c, axis) if reverse else c


def softmax_ref(x, axis):
    e = np.exp(x - x.max(axis=axis, keepdims=True))
    return e / e.sum(axis=axis, keepdims=True)


def lse_ref(x, axis, keepdims=False):
    m = x.max(axis=axis, keepdims=True)
    out = np.log(np.exp(x - m).sum(axis=axis, keepdims=True)) + m
    return out if keepdims else np.squeeze(out, axis=axis)


def scatter_add_ref(x, idx, u):
    out = x.copy()
    np.add.at(out, tuple(np.moveaxis(idx, -1, 0)), u)
    return out


def scatter_update_ref(x, idx, u):
    out = x.copy()
    out[tuple(np.moveaxis(idx, -1, 0))] = u
    return out


ND_IDX = np.array([[0, 1], [2, 3], [0, 1], [1, 0]])  # repeated (0, 1): scatters accumulate
ROW_IDX = np.array([[0], [2]])
UPD_IDX = np.array([[0, 1], [2, 3], [0, 1]])         # repeated: the last update wins
MASK2 = np.array([[True, False, True, False], [False, False, True, True], [True, True, False, False]])
ROWS = np.array([2, 0, 2])
NDI, ROWI, UPDI = Tensor(ND_IDX), Tensor(ROW_IDX), Tensor(UPD_IDX)
MASKT, ROWST = Tensor(MASK2), Tensor(ROWS)
EMPTY_IDX = np.zeros((2, 1, 0), np.int64)  # index tuples of length 0: each is the whole input
EMPTYI = Tensor(EMPTY_IDX)


CASES = [
    # elementwise binary, same shapes and broadcasting
    Case("Add", "add", lambda x, y: x + y, np.add, N((2, 3), (2, 3))),
    Case("Add", "add_fn_bcast_row", ops.add, np.add, N((2, 3), (3,))),
    Case("Add", "add_bcast_outer", lambda x, y: x + y, np.add, N((2, 1), (1, 3))),
    Case("Add", "add_bcast_0d", lambda x, y: x + y, np.add, N((), (2, 3))),
    Case("Add", "add_python_scalar", lambda x: x + 2.5, lambda x: x + 2.5, N((2, 3))),
    Case("Add", "radd_python_int", lambda x: 3 + x, lambda x: 3 + x, N((3,))),
    Case("Sub", "sub", lambda x, y: x - y, np.subtract, N((2, 3), (2, 3))),
    Case("Sub", "sub_bcast_outer", ops.sub, np.subtract, N((2, 1), (1, 3))),
    Case("Sub", "rsub_python_scalar", lambda x: 3.0 - x, lambda x: 3.0 - x, N((2, 3))),
    Case("Mul", "mul", lambda x, y: x * y, np.multiply, N((2, 3), (2, 3))),
    Case("Mul", "mul_bcast_row", ops.mul, np.multiply, N((2, 3), (3,))),
    Case("Mul", "mul_bcast_outer", ops.Mul(), np.multiply, N((2, 1), (1, 3))),
    Case("Mul", "mul_python_scalar", lambda x: x * 1.5, lambda x: x * 1.5, N((2, 3))),
    Case("RealDiv", "div",
         lambda x, y: x / y, np.divide, lambda r: N((2, 3))(r) + away0((2, 3))(r)),
    Case("RealDiv", "div_bcast", ops.div, np.divide, lambda r: N((3,))(r) + away0((2, 1))(r)),
    Case("DivNoNan", "div_no_nan",
         ops.DivNoNan(), np.divide, lambda r: N((2, 3))(r) + away0((3,))(r)),
    Case("RealDiv", "rdiv_python_scalar", lambda x: 2.0 / x, lambda x: 2.0 / x, away0((2, 3))),
    Case("Neg", "neg", lambda x: -x, np.negative, N((2, 3))),
    Case("Neg", "neg_op", ops.Neg(), np.negative, N((2, 3))),
    Case("Square", "square", ops.square, np.square, N((2, 3))),
    Case("Pow", "pow_tensor", lambda x, y: x ** y, np.power,
         lambda r: U(0.5, 2.0, (2, 3))(r) + U(-1.5, 1.5, (2, 3))(r)),
    Case("Pow", "pow_tensor_bcast", ops.pow, np.power,
         lambda r: U(0.5, 2.0, (2, 3))(r) + U(-1.5, 1.5, (3,))(r)),
    Case("Pow", "pow_scalar_float", lambda x: x ** 3.0, lambda x: x ** 3.0, N((2, 3))),
    Case("Pow", "pow_scalar_int", lambda x: ops.pow(x, 2), lambda x: x ** 2, N((2, 3))),
    Case("Pow", "pow_scalar_frac", lambda x: x ** 0.5, lambda x: x ** 0.5, U(0.5, 2.0, (2, 3))),
    Case("Pow", "rpow_python_base", lambda x: 2.0 ** x, lambda x: 2.0 ** x, N((2, 3))),
    # x ** y with y - 1 outside NumPy's cheap powers: the derivative is ans / x (PowMinusOne)
    Case("Pow", "pow_scalar_2_5", lambda x: x ** 2.5, lambda x: x ** 2.5, U(0.5, 2.0, (2, 3))),
    Case("Pow", "pow_scalar_neg",
         lambda x: ops.pow(x, -1.5), lambda x: x ** -1.5, U(0.5, 2.0, (2, 3))),
    Case("Pow", "pow_scalar_4_at_zero", lambda x: x ** 4.0, lambda x: x ** 4.0, with_zero((2, 3))),
    Case("Pow", "pow_scalar_sqrt_fast", lambda x: x ** 0.5 + x ** 2 + x ** -1,
         lambda x: x ** 0.5 + x ** 2 + x ** -1, U(0.5, 2.0, (2, 3))),
    Case("Pow", "pow_tensor_exponent_neg_base",
         lambda x: x ** ms.Tensor(np.full((2, 3), 3.0), x.dtype),
         lambda x: x ** 3.0, N((2, 3))),
    Case("Maximum", "maximum", ops.maximum, np.maximum, distinct_pair((2, 3), (2, 3))),
    Case("Maximum", "maximum_bcast", ops.Maximum(), np.maximum, distinct_pair((2, 3), (3,))),
    Case("Minimum", "minimum", ops.minimum, np.minimum, distinct_pair((2, 3), (2, 3))),
    Case("Minimum", "minimum_bcast", ops.Minimum(), np.minimum, distinct_pair((2, 3), (3,))),
    Case("FloorMod", "floor_mod",
         ops.floor_mod, np.mod, lambda r: off_multiples(r, (2, 3), (2, 3))),
    Case("FloorMod", "floor_mod_bcast",
         lambda x, y: x % y, np.mod, lambda r: off_multiples(r, (2, 3), (3,))),
    Case("FloorMod", "floor_mod_python_y",
         lambda x: ops.floor_mod(x, 0.7), lambda x: np.mod(x, 0.7),
         lambda r: off_multiples(r, (2, 3), ())[:1]),
    Case("FloorDiv", "floor_div",
         ops.floor_div, np.floor_divide, lambda r: off_multiples(r, (2, 3), (3,))),
    Case("Mod", "fmod", ops.fmod, np.fmod, fmod_pair((2, 3))),
    Case("Mod", "mod_op_python_y", lambda x: ops.Mod()(x, 0.7), lambda x: np.fmod(x, 0.7),
         away_from([-2.1, -1.4, -0.7, 0.0, 0.7, 1.4, 2.1], -2.4, 2.4, (2, 3), gap=0.15)),
    Case("Atan2", "atan2", ops.atan2, np.arctan2, lambda r: N((2, 3))(r) + away0((2, 3))(r)),
    Case("Atan2", "atan2_bcast",
         ops.atan2, np.arctan2, lambda r: away0((2, 3))(r) + away0((3,))(r)),
    Case("Atan2", "atan2_python_y",
         lambda x: ops.atan2(x, 0.7), lambda x: np.arctan2(x, 0.7), N((2, 3))),
    Case("Atan2", "atan2_python_x", lambda y: ops.atan2(0.7, y), lambda y: np.arctan2(0.7, y),
         away0((2, 3))),
    Case("Maximum", "maximum_python_scalar",
         lambda x: ops.maximum(x, 0.1), lambda x: np.maximum(x, 0.1),
         away_from([0.1], -2, 2, (2, 3))),
    Case("Minimum", "minimum_python_scalar_left", lambda x: ops.minimum(0.1, x),
         lambda x: np.minimum(0.1, x), away_from([0.1], -2, 2, (2, 3))),
    Case("Minimum", "minimum_bcast_y_only",
         lambda y: ops.minimum(ms.Tensor(COND * 1.0 - 0.5, y.dtype), y),
         lambda y: np.minimum((COND * 1.0 - 0.5).astype(y.dtype), y),
         away_from([-0.5, 0.5], -2, 2, (3,))),
    Case("RealDiv", "div_python_numerator", lambda y: 1.5 / y, lambda y: 1.5 / y, away0((2, 3))),
    Case("RealDiv", "div_constant_denominator", lambda x: x / ms.Tensor(COND * 1.0 + 1.0),
         lambda x: x / (COND * 1.0 + 1.0), N((2, 3))),
    Case("Select", "select", lambda x, y: ops.select(sel, x, y), lambda x, y: np.where(COND, x, y),
         N((2, 3), (2, 3))),
    Case("Select", "where_bcast",
         lambda x, y: ops.where(sel, x, y), lambda x, y: np.where(COND, x, y),
         N((2, 3), (3,))),
    Case("Select", "select_bcast_cond", lambda x, y: ops.select(ms.Tensor(COND[:, :1]), x, y),
         lambda x, y: np.where(COND[:, :1], x, y), N((2, 3), (3,))),
    Case("Concat", "concat_with_constant", lambda x: ops.concat((x, ms.Tensor(COND * 1.0)), 1),
         lambda x: np.concatenate((x, COND * 1.0), 1), N((2, 2))),
    Case("Stack", "stack_with_constant", lambda x: ops.stack((ms.Tensor(COND * 1.0), x)),
         lambda x: np.stack((COND * 1.0, x)), N((2, 3))),
    # 64 x 64: large enough for select's bitwise blend
    Case("Select", "select_large", lambda x, y: ops.select(x > y, x * x, y),
         lambda x, y: np.where(x > y, x * x, y), distinct_pair((64, 64), (64, 64)), 2),
    Case("Select", "select_large_bcast", lambda x, y: ops.select(x > 0.3, x, y),
         lambda x, y: np.where(x > 0.3, x, y), lambda r: [r.uniform(0.5, 1, (64, 64))
                                                          * r.choice([-1, 1], (64, 64)),
                                                          r.standard_normal((64,))], 2),
    Case("Select", "select_op", lambda x, y: ops.Select()(x > y, x * x, y),
         lambda x, y: np.where(x > y, x * x, y), distinct_pair((2, 3), (2, 3))),
    # elementwise unary
    Case("Sqrt", "sqrt", ops.sqrt, np.sqrt, U(0.5, 2.0, (2, 3))),
    Case("Exp", "exp", ops.exp, np.exp, N((2, 3))),
    Case("Log", "log", ops.log, np.log, U(0.5, 2.0, (2, 3))),
    Case("Sin", "sin", ops.Sin(), np.sin, N((2, 3))),
    Case("Cos", "cos", ops.cos, np.cos, N((2, 3))),
    Case("Tan", "tan", ops.tan, np.tan, U(-1.0, 1.0, (2, 3))),
    Case("Sinh", "sinh", ops.sinh, np.sinh, N((2, 3))),
    Case("Cosh", "cosh", ops.cosh, np.cosh, N((2, 3))),
    Case("Tanh", "tanh", ops.tanh, np.tanh, N((2, 3))),
    Case("Atanh", "atanh", ops.atanh, np.arctanh, U(-0.7, 0.7, (2, 3))),
    Case("Asin", "asin", ops.asin, np.arcsin, U(-0.7, 0.7, (2, 3))),
    Case("ACos", "acos", ops.acos, np.arccos, U(-0.7, 0.7, (2, 3))),
    Case("Atan", "atan", ops.atan, np.arctan, N((2, 3))),
    Case("Asinh", "asinh", ops.asinh, np.arcsinh, N((2, 3))),
    Case("Acosh", "acosh", ops.acosh, np.arccosh, U(1.3, 3.0, (2, 3))),
    Case("Abs", "abs", ops.abs, np.abs, away0((2, 3))),
    Case("Abs", "abs_method", lambda x: abs(x), np.abs, away0((2, 3))),
    Case("Rsqrt", "rsqrt", ops.rsqrt, lambda x: 1 / np.sqrt(x), U(0.5, 2.0, (2, 3))),
    Case("Reciprocal", "reciprocal", ops.reciprocal, np.reciprocal, away0((2, 3))),
    Case("Expm1", "expm1", ops.expm1, np.expm1, N((2, 3))),
    Case("Log1p", "log1p", ops.log1p, np.log1p, U(-0.5, 2.0, (2, 3))),
    Case("Sigmoid", "sigmoid", ops.sigmoid, lambda x: 1 / (1 + np.exp(-x)), N((2, 3))),
    Case("ReLU", "relu", ops.relu, lambda x: np.maximum(x, 0), away0((2, 3))),
    Case("ReLU", "relu_op", ops.ReLU(), lambda x: np.maximum(x, 0), away0((2, 3))),
    Case("Softplus", "softplus", ops.softplus, _softplus_ref, N((2, 3))),
    Case("Erf", "erf", ops.erf, _erf_ref, N((2, 3))),
    Case("Erfc", "erfc", ops.erfc, lambda x: np_erfc(x).astype(x.dtype), N((2, 3))),
    Case("composite", "gelu",
         ops.gelu, lambda x: 0.5 * x * (1 + _erf_ref(x / math.sqrt(2.0))), N((2, 3))),
    Case("composite", "silu", ops.silu, lambda x: x / (1 + np.exp(-x)), N((2, 3))),
    Case("LeakyReLU", "leaky_relu", lambda x: ops.leaky_relu(x, 0.1),
         lambda x: np.where(x > 0, x, 0.1 * x), away0((2, 3))),
    Case("Exp2", "exp2", ops.exp2, np.exp2, N((2, 3))),
    Case("Log2", "log2", ops.log2, np.log2, U(0.5, 2.0, (2, 3))),
    Case("Log10", "log10", ops.log10, np.log10, U(0.5, 2.0, (2, 3))),
    Case("ReLU6", "relu6", ops.relu6, lambda x: np.clip(x, 0, 6), away_from([0, 6], -2, 8, (2, 3))),
    Case("LeakyReLU", "leaky_relu_default", ops.leaky_relu, lambda x: np.where(x > 0, x, 0.2 * x),
         away0((2, 3))),
    Case("LeakyReLU", "leaky_relu_alpha_above_1", lambda x: ops.leaky_relu(x, 1.5),
         lambda x: np.where(x > 0, x, 1.5 * x), away0((2, 3))),
    Case("LeakyReLU", "leaky_relu_alpha_negative", lambda x: ops.leaky_relu(x, -0.5),
         lambda x: np.where(x > 0, x, -0.5 * x), away0((2, 3))),
    Case("LeakyReLU", "leaky_relu_alpha_0", lambda x: ops.leaky_relu(x, 0.0),
         lambda x: np.maximum(x, 0), away0((2, 3))),
    Case("Elu", "elu", ops.elu, lambda x: np.where(x > 0, x, np.expm1(x)), away0((2, 3))),
    Case("Elu", "elu_alpha",
         lambda x: ops.elu(x, 0.5), lambda x: np.where(x > 0, x, 0.5 * np.expm1(x)),
         away0((2, 3))),
    Case("HSwish", "hardswish", ops.hardswish, lambda x: x * np.clip(x + 3, 0, 6) / 6,
         away_from([-3, 3], -5, 5, (2, 3))),
    Case("composite", "mish", ops.mish, lambda x: x * np.tanh(_softplus_ref(x)), N((2, 3))),
    Case("Clamp", "clamp_min_only", lambda x: ops.clamp(x, -0.5), lambda x: np.maximum(x, -0.5),
         away_from([-0.5], -2, 2, (2, 3))),
    Case("ClipByValue", "clamp_max_only",
         lambda x: ops.clip_by_value(x, max=1), lambda x: np.minimum(x, 1.0),
         away_from([1], -2, 2, (2, 3))),
    Case("Clamp", "clamp", lambda x: ops.clamp(x, -0.5, 0.5), lambda x: np.clip(x, -0.5, 0.5),
         lambda r: [np.array([[-1.2, -0.3, 0.1], [0.2, 0.9, 1.4]])]),
    # matrix products
    Case("MatMul", "matmul_2d", ops.matmul, np.matmul, N((2, 3), (3, 4))),
    Case("MatMul", "matmul_operator", lambda a, b: a @ b, np.matmul, N((2, 3), (3, 2))),
    Case("MatMul", "MatMul", MM(), np.matmul, N((2, 3), (3, 4))),
    Case("MatMul", "MatMul_transpose_a",
         MM(transpose_a=True), lambda a, b: a.T @ b, N((3, 2), (3, 4))),
    Case("MatMul", "MatMul_transpose_b",
         MM(transpose_b=True), lambda a, b: a @ b.T, N((2, 3), (4, 3))),
    Case("MatMul", "MatMul_transpose_ab", MM(transpose_a=True, transpose_b=True),
         lambda a, b: a.T @ b.T, N((3, 2), (4, 3))),
    Case("MatMul", "matmul_batched_bcast", ops.matmul, np.matmul, N((2, 1, 2, 3), (3, 3, 2))),
    Case("MatMul", "matmul_batched_2d", ops.matmul, np.matmul, N((2, 2, 3), (3, 4))),
    Case("MatMul", "matmul_1d_2d", ops.matmul, np.matmul, N((3,), (3, 4))),
    Case("MatMul", "matmul_2d_1d", ops.matmul, np.matmul, N((2, 3), (3,))),
    Case("MatMul", "matmul_1d_1d", ops.matmul, np.matmul, N((3,), (3,))),
    Case("MatMul", "matmul_batched_1d", ops.matmul, np.matmul, N((2, 2, 3), (3,))),
    Case("MatMul", "matmul_1d_batched", ops.matmul, np.matmul, N((3,), (2, 3, 2))),
    Case("MatMul", "BatchMatMul", ops.BatchMatMul(), np.matmul, N((2, 2, 3), (2, 3, 4))),
    Case("MatMul", "BatchMatMul_transpose_b", ops.BatchMatMul(transpose_b=True),
         lambda a, b: a @ np.swapaxes(b, -1, -2), N((2, 2, 3), (2, 4, 3))),
    Case("MatMul", "outer", ops.outer, np.outer, N((3,), (2,))),
    # reductions
    Case("ReduceSum", "reduce_sum_all", ops.reduce_sum, np.sum, N((2, 3))),
    Case("ReduceSum", "ReduceSum_default_axis", lambda x: ops.ReduceSum()(x), np.sum, N((2, 3))),
    Case("ReduceSum", "reduce_sum_axis",
         lambda x: ops.reduce_sum(x, 1), lambda x: x.sum(1), N((2, 3))),
    Case("ReduceSum", "reduce_sum_neg_axis", lambda x: ops.reduce_sum(x, -2), lambda x: x.sum(-2),
         N((2, 3, 2))),
    Case("ReduceSum", "reduce_sum_tuple",
         lambda x: ops.reduce_sum(x, (0, 2)), lambda x: x.sum((0, 2)),
         N((2, 3, 2))),
    Case("ReduceSum", "reduce_sum_keep", lambda x: ops.ReduceSum(keep_dims=True)(x, 1),
         lambda x: x.sum(1, keepdims=True), N((2, 3))),
    Case("ReduceSum", "reduce_sum_keep_all", lambda x: ops.reduce_sum(x, None, True),
         lambda x: x.sum(keepdims=True), N((2, 3))),
    Case("ReduceSum", "sum_method", lambda x: x.sum(axis=0), lambda x: x.sum(0), N((2, 3))),
    Case("ReduceMean", "reduce_mean_all", ops.reduce_mean, np.mean, N((2, 3))),
    Case("ReduceMean", "reduce_mean_axis",
         lambda x: ops.reduce_mean(x, 0), lambda x: x.mean(0), N((2, 3))),
    Case("ReduceMean", "reduce_mean_tuple_keep",
         lambda x: ops.ReduceMean(keep_dims=True)(x, (0, 1)),
         lambda x: x.mean((0, 1), keepdims=True), N((2, 3, 2))),
    Case("ReduceMean", "mean_method", lambda x: x.mean(), np.mean, N((2, 3))),
    Case("ReduceMax", "reduce_max_all", ops.reduce_max, np.max, distinct(2, 3)),
    Case("ReduceMax", "reduce_max_axis",
         lambda x: ops.ReduceMax()(x, 1), lambda x: x.max(1), distinct(2, 3)),
    Case("ReduceMax", "reduce_max_keep", lambda x: ops.reduce_max(x, 0, True),
         lambda x: x.max(0, keepdims=True), distinct(2, 3)),
    Case("ReduceMin", "reduce_min_all", ops.reduce_min, np.min, distinct(2, 3)),
    Case("ReduceMin", "reduce_min_axis",
         lambda x: ops.ReduceMin()(x, 0), lambda x: x.min(0), distinct(2, 3)),
    Case("ReduceProd", "reduce_prod",
         lambda x: ops.reduce_prod(x, 1), lambda x: x.prod(1), N((2, 3))),
    Case("CumSum", "cumsum_0", lambda x: ops.cumsum(x, 0), lambda x: np.cumsum(x, 0), N((3, 2))),
    Case("CumSum", "cumsum_1", lambda x: ops.cumsum(x, 1), lambda x: np.cumsum(x, 1), N((2, 3))),
    Case("CumSum", "cumsum_neg",
         lambda x: ops.cumsum(x, -1), lambda x: np.cumsum(x, -1), N((2, 3))),
    Case("Softmax", "softmax", ops.softmax, _softmax_ref, N((2, 3))),
    Case("Softmax", "softmax_axis0", ops.Softmax(axis=0), lambda x: _softmax_ref(x, 0), N((2, 3))),
    Case("composite", "log_softmax", ops.log_softmax, lambda x: np.log(_softmax_ref(x)), N((2, 3))),
    Case("composite", "logsumexp_all", ops.logsumexp, _lse_ref, N((2, 3))),
    Case("composite", "logsumexp_axis",
         lambda x: ops.logsumexp(x, 1), lambda x: _lse_ref(x, 1), N((2, 3))),
    Case("composite", "logsumexp_keep", lambda x: ops.logsumexp(x, 0, True),
         lambda x: _lse_ref(x, 0, True), N((2, 3))),
    Case("ReduceVar", "var_all", ops.var, np.var, N((2, 3))),
    Case("ReduceVar", "var_axis_ddof",
         lambda x: ops.var(x, 1, ddof=1), lambda x: np.var(x, 1, ddof=1),
         N((2, 3))),
    Case("ReduceVar", "std_axis", lambda x: ops.std(x, 0), lambda x: np.std(x, 0), N((3, 2))),
    Case("ReduceVar", "std_keep", lambda x: x.std(axis=1, keepdims=True),
         lambda x: np.std(x, 1, keepdims=True), N((2, 3))),
    Case("ReduceNorm", "norm_all", ops.norm, lambda x: np.sqrt((x * x).sum()), N((2, 3))),
    Case("ReduceNorm", "norm_dim",
         lambda x: ops.norm(x, dim=1), lambda x: np.sqrt((x * x).sum(1)), N((2, 3))),
    # a 2-D input with ord set: matrix norms (the largest column / row sum of |x|)
    Case("composite", "norm_l1",
         lambda x: ops.norm(x, 1), lambda x: np.linalg.norm(x, 1), away0((2, 3))),
    Case("composite", "norm_inf", lambda x: ops.norm(x, INF), lambda x: np.linalg.norm(x, INF),
         lambda r: [np.array([[0.3, -1.7, 0.9], [1.1, -0.2, 0.5]])]),
    Case("composite", "norm_neg_inf",
         lambda x: ops.norm(x, -INF), lambda x: np.linalg.norm(x, -INF),
         lambda r: [np.array([[0.3, -1.7, 0.9], [1.1, -0.2, 0.5]])]),
    Case("composite", "norm_neg1_dims_swapped", lambda x: ops.norm(x, -1, dim=(1, 0)),
         lambda x: np.linalg.norm(x, -1, axis=(1, 0)), away0((3, 4))),
    Case("composite", "norm_inf_batch_keep", lambda x: ops.norm(x, INF, dim=(1, 2), keepdim=True),
         lambda x: np.linalg.norm(x, INF, axis=(1, 2), keepdims=True), away0((2, 3, 4))),
    Case("ReduceNorm", "norm_fro",
         lambda x: ops.norm(x, "fro"), lambda x: np.linalg.norm(x, "fro"), N((2, 3))),
    Case("ReduceNorm", "norm_fro_dims_keep", lambda x: x.norm("fro", dim=(2, 0), keepdim=True),
         lambda x: np.linalg.norm(x, "fro", axis=(2, 0), keepdims=True), N((2, 3, 2))),
    Case("SvdVals", "norm_nuc", lambda x: ops.norm(x, "nuc"), via_float32(lambda x: np.linalg.norm(x, "nuc"), False), N((3, 2))),
    Case("SvdVals", "norm_nuc_batch", lambda x: ops.norm(x, "nuc", dim=(1, 2)),
         via_float32(lambda x: np.linalg.norm(x, "nuc", axis=(1, 2)), False), N((2, 3, 4)), 2),
    Case("SvdVals", "norm_spectral",
         lambda x: ops.norm(x, 2), via_float32(lambda x: np.linalg.norm(x, 2), False), N((3, 4))),
    Case("SvdVals", "norm_spectral_min_dims", lambda x: ops.norm(x, -2, dim=(0, 2)),
         via_float32(lambda x: np.linalg.norm(x, -2, axis=(0, 2)), False), N((3, 2, 4)), 2),
    # vector norms: an int dim or a 1-D input
    Case("composite", "norm_vec_l1_dim", lambda x: ops.norm(x, 1, dim=1),
         lambda x: np.linalg.norm(x, 1, axis=1), away0((2, 3))),
    Case("composite", "norm_vec_inf_dim", lambda x: ops.norm(x, INF, dim=0),
         lambda x: np.linalg.norm(x, INF, axis=0), lambda r: [np.array([[0.3, -1.7], [1.1, -0.2]])]),
    Case("composite", "norm_vec_neg_inf",
         lambda x: ops.norm(x, -INF), lambda x: np.linalg.norm(x, -INF),
         lambda r: [np.array([0.3, -1.7, -0.2, 1.1])]),
    Case("composite", "norm_vec_0",
         lambda x: ops.norm(x, 0, dim=-1), lambda x: np.linalg.norm(x, 0, axis=-1),
         away0((2, 3))),
    Case("composite", "norm_p3",
         lambda x: ops.norm(x, 3.0), lambda x: np.linalg.norm(x, 3.0), away0((6,)), 2),
    Case("composite", "norm_p_neg_dim_keep", lambda x: ops.norm(x, -1.5, dim=1, keepdim=True),
         lambda x: np.linalg.norm(x, -1.5, axis=1, keepdims=True), away0((2, 3, 2)), 2),
    Case("ReduceNorm", "norm_vec_2_tuple1", lambda x: ops.norm(x, 2, dim=(-1,)),
         lambda x: np.linalg.norm(x, 2, axis=-1), N((2, 3))),
    # singular values and vectors (functions of u and v that do not depend on their signs)
    Case("SvdVals", "svd_values", lambda x: ops.svd(x, compute_uv=False),
         lambda x: np.linalg.svd(x, compute_uv=False), N((4, 3)), f16=REFUSED),
    Case("Svd", "svd_tall", lambda x: _svd_signless(ops.svd(x)),
         lambda x: _svd_signless(_np_svd(x)), N((4, 3)), f16=REFUSED),
    Case("Svd", "svd_wide_batch", lambda x: _svd_signless(ops.svd(x)),
         lambda x: _svd_signless(_np_svd(x)), N((2, 2, 3)), 2, f16=REFUSED),
    Case("Svd", "svd_square_full", lambda x: _svd_signless(ops.svd(x, full_matrices=True)),
         lambda x: _svd_signless(_np_svd(x)), N((3, 3)), f16=REFUSED),
    # shapes
    Case("Reshape", "reshape",
         lambda x: ops.reshape(x, (3, 2)), lambda x: x.reshape(3, 2), N((2, 3))),
    Case("Reshape", "reshape_minus1", lambda x: ops.Reshape()(x, (-1,)), lambda x: x.reshape(-1),
         N((2, 3))),
    Case("Reshape", "reshape_method", lambda x: x.reshape(1, 6, 1), lambda x: x.reshape(1, 6, 1),
         N((2, 3))),
    Case("Transpose", "transpose_perm", lambda x: ops.transpose(x, (1, 2, 0)),
         lambda x: x.transpose(1, 2, 0), N((2, 3, 2))),
    Case("Transpose", "transpose_op",
         lambda x: ops.Transpose()(x, (1, 0)), lambda x: x.T, N((2, 3))),
    Case("Transpose", "transpose_T", lambda x: x.T, lambda x: x.T, N((2, 3))),
    Case("Reshape", "expand_dims", lambda x: ops.expand_dims(x, 1), lambda x: np.expand_dims(x, 1),
         N((2, 3))),
    Case("Reshape", "expand_dims_neg", lambda x: ops.ExpandDims()(x, -1), lambda x: x[..., None],
         N((2, 3))),
    Case("Reshape", "squeeze_all", ops.squeeze, np.squeeze, N((1, 3, 1))),
    Case("Reshape", "squeeze_axis",
         lambda x: ops.squeeze(x, 2), lambda x: np.squeeze(x, 2), N((1, 3, 1))),
    Case("Reshape", "Squeeze_op", ops.Squeeze(0), lambda x: np.squeeze(x, 0), N((1, 3, 1))),
    Case("Reshape", "Squeeze_op_tuple", ops.Squeeze((0, 2)), np.squeeze, N((1, 3, 1))),
    Case("BroadcastTo", "broadcast_to", lambda x: ops.broadcast_to(x, (2, 3)),
         lambda x: np.broadcast_to(x, (2, 3)), N((3,))),
    Case("BroadcastTo", "broadcast_to_op", lambda x: ops.BroadcastTo((2, 2, 3))(x),
         lambda x: np.broadcast_to(x, (2, 2, 3)), N((2, 1, 3))),
    Case("Cast", "cast_to_f64", lambda x: ops.cast(x, ms.float64) * ops.sin(x),
         lambda x: x.astype(np.float64) * np.sin(x), N((2, 3))),
    Case("Cast", "astype_f64", lambda x: x.astype(ms.float64) * x.astype(ms.float64),
         lambda x: x.astype(np.float64) ** 2, N((2, 3))),
    # indexing
    Case("StridedSlice", "getitem_int", lambda x: x[1], lambda x: x[1], N((3, 2))),
    Case("StridedSlice", "getitem_int_int", lambda x: x[0][1], lambda x: x[0][1], N((2, 3))),
    Case("StridedSlice", "getitem_neg", lambda x: x[-1, -2], lambda x: x[-1, -2], N((2, 3))),
    Case("StridedSlice", "getitem_slice_step",
         lambda x: x[::2, 1:], lambda x: x[::2, 1:], N((4, 3))),
    Case("StridedSlice", "getitem_neg_step",
         lambda x: x[::-2, -2:], lambda x: x[::-2, -2:], N((4, 3))),
    Case("StridedSlice", "getitem_none",
         lambda x: x[None, :, 1], lambda x: x[None, :, 1], N((2, 3))),
    Case("StridedSlice", "getitem_ellipsis",
         lambda x: x[..., 0], lambda x: x[..., 0], N((2, 2, 3))),
    Case("StridedSlice", "getitem_ellipsis_none",
         lambda x: x[0, ..., None], lambda x: x[0, ..., None],
         N((2, 2, 3))),
    Case("StridedSlice", "getitem_bool_mask", lambda x: x[MASK], lambda x: x[MASK], N((4, 2))),
    Case("StridedSlice", "getitem_bool_tensor",
         lambda x: x[ms.Tensor(MASK)], lambda x: x[MASK], N((4,))),
    Case("StridedSlice", "getitem_int_array", lambda x: x[IDX], lambda x: x[IDX], N((3, 2))),
    Case("StridedSlice", "getitem_int_tensor_axis1",
         lambda x: x[:, ms.Tensor(IDX)], lambda x: x[:, IDX],
         N((2, 3))),
    Case("StridedSlice", "getitem_list", lambda x: x[[1, 1, 0]], lambda x: x[[1, 1, 0]], N((3,))),
    Case("StridedSlice", "gather",
         lambda x: ops.gather(x, ms.Tensor(IDX), 1), lambda x: x[:, IDX], N((2, 3))),
    Case("StridedSlice", "Gather_op",
         lambda x: ops.Gather()(x, ms.Tensor(IDX), 0), lambda x: x[IDX],
         N((3, 2))),
    Case("StridedSlice", "StridedSlice", lambda x: ops.StridedSlice()(x, (0, 1), (2, 3), (1, 2)),
         lambda x: x[0:2:1, 1:3:2], N((3, 3))),
    Case("SetItem", "setitem_int", lambda x, v: _set(x, 1, v), lambda x, v: _set_ref(x, 1, v),
         N((3, 2), (2,))),
    Case("SetItem", "setitem_slice_broadcast", lambda x, v: _set(x, (slice(None), slice(1, 3)), v),
         lambda x, v: _set_ref(x, (slice(None), slice(1, 3)), v), N((2, 4), (2, 1))),
    Case("SetItem", "setitem_mask", lambda x, v: _set(x, ms.Tensor(MASK), v),
         lambda x, v: _set_ref(x, MASK, v), N((4, 2), (2,))),
    Case("SetItem", "setitem_int_array_repeats", lambda x, v: _set(x, ms.Tensor(IDX_ROWS), v),
         lambda x, v: _set_ref(x, IDX_ROWS, v), N((3, 2), (5, 2))),
    Case("SetItem", "setitem_ellipsis_scalar", lambda x, v: _set(x, (Ellipsis, 0), v),
         lambda x, v: _set_ref(x, (Ellipsis, 0), v), N((2, 2, 3), ())),
    # joining and splitting
    Case("Concat", "concat_0", lambda x, y: ops.concat((x, y)), lambda x, y: np.concatenate((x, y)),
         N((2, 3), (1, 3))),
    Case("Concat", "concat_1", lambda x, y: ops.Concat(1)([x, y]),
         lambda x, y: np.concatenate((x, y), 1), N((2, 3), (2, 2))),
    Case("Concat", "concat_3", lambda x, y, z: ops.concat((x, y, z), -1),
         lambda x, y, z: np.concatenate((x, y, z), -1), N((2, 1), (2, 2), (2, 1))),
    Case("Stack", "stack_0", lambda x, y: ops.stack((x, y)), lambda x, y: np.stack((x, y)),
         N((2, 3), (2, 3))),
    Case("Stack", "stack_neg",
         lambda x, y: ops.Stack(-1)((x, y)), lambda x, y: np.stack((x, y), -1),
         N((2, 3), (2, 3))),
    Case("Split", "split_equal", lambda x: ops.split(x, 1, 0), lambda x: tuple(np.split(x, 2, 0)),
         N((2, 3))),
    Case("Split", "split_sizes", lambda x: ops.split(x, [1, 2], 1),
         lambda x: tuple(np.split(x, [1], 1)), N((2, 3))),
    Case("Split", "split_used", lambda x: ops.Split(1, 3)(x)[2] * ops.Split(1, 3)(x)[0],
         lambda x: x[:, 2:3] * x[:, 0:1], N((2, 3))),
    Case("BroadcastTo", "tile",
         lambda x: ops.tile(x, (2, 3)), lambda x: np.tile(x, (2, 3)), N((2, 2))),
    Case("BroadcastTo", "tile_short_reps",
         lambda x: ops.tile(x, (3,)), lambda x: np.tile(x, (3,)), N((2, 2))),
    Case("BroadcastTo", "tile_rank_up",
         lambda x: ops.Tile()(x, (2, 1, 2)), lambda x: np.tile(x, (2, 1, 2)),
         N((2, 3))),
    Case("StridedSlice", "flip", lambda x: ops.flip(x, (0,)), lambda x: np.flip(x, 0), N((3, 2))),
    Case("StridedSlice", "flip_both",
         lambda x: ops.flip(x, (0, 1)), lambda x: np.flip(x, (0, 1)), N((2, 3))),
    # composites mixing several ops
    Case("composite", "composite_mlp", lambda x, w: ops.tanh(x @ w).sum(axis=1) * ops.exp(x[:, 0]),
         lambda x, w: np.tanh(x @ w).sum(1) * np.exp(x[:, 0]), N((2, 3), (3, 2))),
    # activation composites (verify values and derivatives)
    Case("Log10", "log10_method",
         lambda x: x.log10(), np.log10, lambda r: [r.uniform(0.5, 2.0, (2, 3))]),
    Case("HSwish", "hardswish_values", ops.hardswish, lambda x: x * np.clip(x + 3, 0, 6) / 6,
        lambda r: [np.array([[-4.0, -2.5, -0.7], [0.4, 2.0, 3.5]])]),
    Case("composite", "gelu_tanh", lambda x: ops.gelu(x, "tanh"),
        lambda x: 0.5 * x * (1 + np.tanh(math.sqrt(2 / math.pi) * (x + 0.044715 * x ** 3))),
        N((2, 3))),
    Case("Elu", "elu_alpha_0_7",
         lambda x: ops.elu(x, 0.7), lambda x: np.where(x > 0, x, 0.7 * np.expm1(x)),
        lambda r: [np.array([[-1.5, -0.4, 0.3], [0.8, -0.2, 1.1]])]),
    Case("LeakyReLU", "leaky_relu_0_2_values",
         lambda x: ops.leaky_relu(x, 0.2), lambda x: np.where(x > 0, x, 0.2 * x),
        lambda r: [np.array([[-1.5, -0.4, 0.3], [0.8, -0.2, 1.1]])]),
    # one primitive each: ReLU6, Elu, LeakyReLU, HSwish, Softplus, ClipByValue
    Case("ReLU6", "ReLU6_op", ops.ReLU6(), lambda x: np.clip(x, 0, 6),
        lambda r: [np.array([[-1.5, 0.4, 2.3], [5.5, 6.8, 3.1]])]),
    Case("Elu", "elu_default_alpha", ops.elu, lambda x: np.where(x > 0, x, np.expm1(x)),
        lambda r: [np.array([[-1.5, -0.4, 0.3], [0.8, -0.2, 1.1]])]),
    Case("LeakyReLU", "leaky_relu_slope_above_1", lambda x: ops.leaky_relu(x, 2.0),
        lambda x: np.where(x > 0, x, 2.0 * x),
        lambda r: [np.array([[-1.5, -0.4, 0.3], [0.8, -0.2, 1.1]])]),
    Case("HSwish", "hardswish_middle", ops.hardswish, lambda x: x * np.clip(x + 3, 0, 6) / 6,
        lambda r: [r.uniform(-2.8, 2.8, (3, 4))]),
    Case("Softplus", "softplus_wide",
         ops.softplus, _softplus_ref, lambda r: [r.uniform(-30, 30, (2, 3))]),
    Case("ClipByValue", "clip_by_value_scalars", lambda x: ops.clip_by_value(x, -0.5, 0.7),
        lambda x: np.clip(x, -0.5, 0.7),
        lambda r: [np.array([[-1.2, -0.3, 0.1], [0.2, 0.9, 1.4]])]),
    Case("Select", "clamp_tensor_bounds", lambda x, lo, hi: ops.clamp(x, lo, hi), np.clip,
        lambda r: [np.array([[-1.2, -0.3, 0.1], [0.2, 0.9, 1.4]]), np.array([-0.5, -0.1, 0.0]),
                   np.array([[0.6], [0.5]])]),
    # products
    Case("ReduceProd", "prod_axis", lambda x: ops.prod(x, 1), lambda x: x.prod(1), N((3, 4))),
    Case("ReduceProd", "prod_zeros", lambda x: ops.prod(x, 1), lambda x: x.prod(1),
        with_zeros((3, 4), [(0, 1), (2, 0), (2, 3)])),
    Case("ReduceProd", "prod_all_zero", ops.prod, np.prod, with_zeros((2, 3), [(1, 1)])),
    Case("ReduceProd", "prod_axes_keep", lambda x: ops.ReduceProd(True)(x, (0, 2)),
        lambda x: x.prod((0, 2), keepdims=True), with_zeros((2, 3, 2), [(0, 1, 1)])),
    Case("ReduceProd", "prod_method", lambda x: x.prod(0), lambda x: x.prod(0), N((3, 2))),
    Case("CumProd", "cumprod", lambda x: ops.cumprod(x, 1), lambda x: np.cumprod(x, 1),
        with_zeros((3, 5), [(0, 2), (1, 1), (1, 3), (2, 4)])),
    Case("CumProd", "cumprod_axis0", lambda x: x.cumprod(0), lambda x: np.cumprod(x, 0), N((4, 2))),
    Case("CumProd", "cumprod_excl_rev", lambda x: ops.CumProd(True, True)(x, -1),
        lambda x: cumprod_ext_ref(x, 1, True, True), with_zeros((2, 4), [(0, 2)])),
    Case("CumProd", "cumprod_excl", lambda x: ops.CumProd(exclusive=True)(x, 0),
        lambda x: cumprod_ext_ref(x, 0, True, False), N((3, 2))),
    # reductions: max / min (the by-position forward over many rows, the gradient primitive),
    # variance, 2-norm and softmax primitives, the logsumexp / log_softmax composites
    Case("ReduceMax", "amax_rows_last_axis",
         lambda x: ops.amax(x, -1), lambda x: x.max(-1), distinct_grid(40, 3)),
    Case("ReduceMin", "amin_keep_axis0",
         lambda x: ops.amin(x, 0, True), lambda x: x.min(0, keepdims=True),
        distinct_grid(3, 4)),
    Case("ReduceMax", "reduce_max_axes",
         lambda x: ops.reduce_max(x, (0, 2)), lambda x: x.max((0, 2)),
        distinct_grid(2, 3, 2)),
    Case("ReduceVar", "var_axes_keep_ddof", lambda x: ops.var(x, (0, 2), 1, True),
        lambda x: np.var(x, (0, 2), ddof=1, keepdims=True), N((2, 3, 2))),
    Case("ReduceVar", "var_rows", lambda x: ops.var(x, 1), lambda x: np.var(x, 1), N((40, 3))),
    Case("ReduceVar", "std_all", ops.std, np.std, N((2, 3))),
    Case("ReduceNorm", "norm_axes_keep", lambda x: ops.norm(x, dim=(0, 2), keepdim=True),
        lambda x: np.sqrt((x * x).sum((0, 2), keepdims=True)), N((2, 3, 2))),
    Case("Softmax", "softmax_rows",
         lambda x: ops.softmax(x, -1), lambda x: softmax_ref(x, -1), N((40, 3))),
    Case("Softmax", "softmax_axes",
         lambda x: ops.softmax(x, (0, 2)), lambda x: softmax_ref(x, (0, 2)),
        N((2, 3, 2))),
    Case("composite", "log_softmax_axis0", lambda x: ops.log_softmax(x, 0),
        lambda x: np.log(softmax_ref(x, 0)), N((3, 2))),
    Case("composite", "logsumexp_axes",
         lambda x: ops.logsumexp(x, (0, 2)), lambda x: lse_ref(x, (0, 2)),
        N((2, 3, 2))),
    Case("composite", "logsumexp_keep_rows", lambda x: ops.logsumexp(x, 1, True),
        lambda x: lse_ref(x, 1, True), N((40, 3))),
    # padding and indexing
    Case("Pad", "pad_constant", lambda x: ops.pad(x, (1, 2, 0, 1), value=0.5),
        lambda x: np.pad(x, ((0, 1), (1, 2)), constant_values=0.5), N((2, 3))),
    Case("Pad", "pad_crop",
         lambda x: ops.pad(x, (-1, 2)), lambda x: np.pad(x[:, 1:], ((0, 0), (0, 2))),
        N((2, 3))),
    Case("StridedSlice", "pad_reflect", lambda x: ops.pad(x, (2, 1), mode="reflect"),
        lambda x: np.pad(x, ((0, 0), (2, 1)), mode="reflect"), N((2, 4)), 2),
    Case("StridedSlice", "pad_replicate", lambda x: ops.pad(x, (1, 1, 2, 0), mode="replicate"),
        lambda x: np.pad(x, ((2, 0), (1, 1)), mode="edge"), N((2, 3)), 2),
    Case("StridedSlice", "pad_circular", lambda x: ops.pad(x, (1, 2), mode="circular"),
        lambda x: np.pad(x, ((0, 0), (1, 2)), mode="wrap"), N((2, 3)), 2),
    Case("Pad", "Pad_op",
         lambda x: ops.Pad(((1, 0), (0, 2)))(x), lambda x: np.pad(x, ((1, 0), (0, 2))),
        N((2, 3))),
    Case("GatherNd", "gather_nd_elements", lambda x: ops.gather_nd(x, NDI),
        lambda x: x[tuple(ND_IDX.T)], N((3, 4))),
    Case("GatherNd", "gather_nd_rows",
         lambda x: ops.GatherNd()(x, ROWI), lambda x: x[ROW_IDX[:, 0]],
        N((3, 2, 2))),
    Case("ScatterNd", "scatter_nd", lambda u: ops.scatter_nd(NDI, u, (3, 4)),
        lambda u: scatter_add_ref(np.zeros((3, 4), u.dtype), ND_IDX, u), N((4,))),
    Case("ScatterNd", "ScatterNd_rows", lambda u: ops.ScatterNd()(ROWI, u, (3, 2)),
        lambda u: scatter_add_ref(np.zeros((3, 2), u.dtype), ROW_IDX, u), N((2, 2))),
    Case("TensorScatterAdd", "tensor_scatter_add", lambda x, u: ops.tensor_scatter_add(x, NDI, u),
        lambda x, u: scatter_add_ref(x, ND_IDX, u), N((3, 4), (4,))),
    Case("TensorScatterAdd", "tensor_scatter_add_rows",
         lambda x, u: ops.TensorScatterAdd()(x, ROWI, u),
        lambda x, u: scatter_add_ref(x, ROW_IDX, u), N((3, 2), (2, 2))),
    Case("TensorScatterUpdate", "tensor_scatter_update",
         lambda x, u: ops.tensor_scatter_update(x, UPDI, u),
        lambda x, u: scatter_update_ref(x, UPD_IDX, u), N((3, 4), (3,))),
    Case("TensorScatterAdd", "scatter_add",
         lambda x, u: ops.scatter_add(x, Tensor(np.array([1, 1, 0])), u),
        lambda x, u: scatter_add_ref(x, np.array([[1], [1], [0]]), u), N((3, 2), (3, 2))),
    Case("TensorScatterAdd", "scatter_add_method", lambda x, u: x.scatter_add(NDI, u),
        lambda x, u: scatter_add_ref(x, ND_IDX, u), N((3, 4), (4,))),
    Case("GatherNd", "gather_nd_empty_tuples", lambda x: ops.gather_nd(x, EMPTYI),
        lambda x: np.broadcast_to(x, (2, 1) + x.shape).copy(), N((3, 2))),
    Case("ScatterNd", "scatter_nd_empty_tuples", lambda u: ops.scatter_nd(EMPTYI, u, (3, 2)),
        lambda u: u.sum((0, 1)), N((2, 1, 3, 2))),
    Case("TensorScatterAdd", "tensor_scatter_add_empty_tuples",
         lambda x, u: ops.tensor_scatter_add(x, EMPTYI, u),
        lambda x, u: x + u.sum((0, 1)), N((3, 2), (2, 1, 3, 2))),
    Case("TensorScatterUpdate", "tensor_scatter_update_empty_tuples", 
        lambda x, u: ops.tensor_scatter_update(x, EMPTYI, u), lambda x, u: u[-1, -1],
        N((3, 2), (2, 1, 3, 2))),
    Case("Select", "masked_fill_scalar", lambda x: ops.masked_fill(x, MASKT, 0.25),
        lambda x: np.where(MASK2, 0.25, x), N((3, 4))),
    Case("Select", "masked_fill_tensor", lambda x, v: x.masked_fill(Tensor(MASK2[0]), v),
        lambda x, v: np.where(MASK2[0], v, x), N((3, 4), ())),
    Case("StridedSlice", "index_select",
         lambda x: ops.index_select(x, 1, ROWST), lambda x: x[:, ROWS], N((2, 3))),
    Case("StridedSlice", "index_select_method",
         lambda x: x.index_select(0, ROWST), lambda x: x[ROWS], N((3, 2))),
    Case("StridedSlice", "getitem_mixed", lambda x: x[1:, None, ROWST - 1, ::-1],
        lambda x: x[1:, None, ROWS - 1, ::-1], N((3, 3, 2))),
    Case("StridedSlice", "getitem_bool_tensor_2d",
         lambda x: x[MASKT], lambda x: x[MASK2], N((3, 4))),
    Case("StridedSlice", "getitem_ellipsis_index_none",
         lambda x: x[..., 1, None], lambda x: x[..., 1, None], N((2, 3, 2))),
    # einsum and matrix functions
    Case("Einsum", "einsum_matmul", lambda a, b: ops.einsum("ij,jk->ik", a, b), lambda a, b: a @ b,
        N((2, 3), (3, 4))),
    Case("Einsum", "einsum_batch_ellipsis", lambda a, b: ops.einsum("...ij,...jk", a, b), np.matmul,
        N((2, 2, 3), (1, 3, 2))),
    Case("Einsum", "einsum_trace", lambda a: ops.einsum("ii", a), np.trace, N((3, 3))),
    Case("Einsum", "einsum_diag_outer", lambda a, b: ops.einsum("iij,k->ijk", a, b),
        lambda a, b: np.einsum("iij,k->ijk", a, b), N((2, 2, 3), (2,))),
    Case("Einsum", "einsum_sum_only", lambda a, b: ops.einsum("ij,kl->i", a, b),
        lambda a, b: np.einsum("ij,kl->i", a, b), N((2, 3), (2, 2))),
    Case("Einsum", "einsum_outer_batch", lambda a, b: ops.einsum("bi,bj->bij", a, b),
        lambda a, b: a[:, :, None] * b[:, None, :], N((2, 3), (2, 2))),
    Case("Einsum", "einsum_batched_dot", lambda a, b: ops.einsum("bi,bi->b", a, b),
        lambda a, b: (a * b).sum(1), N((3, 4), (3, 4))),
    Case("Einsum", "einsum_hadamard_transposed", lambda a, b: ops.einsum("ij,ji->ij", a, b),
        lambda a, b: a * b.T, N((2, 3), (3, 2))),
    Case("Einsum", "einsum_transpose_one", lambda a: ops.einsum("ijk->kji", a),
        lambda a: a.transpose(2, 1, 0), N((2, 3, 2))),
    Case("Einsum", "einsum_three", lambda a, b, c: ops.Einsum("ab,bc,cd->ad")((a, b, c)),
        lambda a, b, c: a @ b @ c, N((2, 3), (3, 2), (2, 2)), 2),
    Case("MatrixInverse", "inverse",
         ops.inverse, np.linalg.inv, well_conditioned((3, 3)), f16=REFUSED),
    Case("MatrixInverse", "inverse_batch_method",
         lambda a: a.inverse(), np.linalg.inv, well_conditioned((2, 3, 3)), f16=REFUSED),
    Case("MatrixInverse", "MatrixInverse_adjoint",
         ops.MatrixInverse(True), lambda a: np.linalg.inv(a).T,
        well_conditioned((3, 3)), f16=REFUSED),
    Case("MatrixDeterminant", "det",
         ops.det, via_float32(np.linalg.det), well_conditioned((3, 3))),
    Case("MatrixDeterminant", "det_batch",
         ops.MatrixDeterminant(), via_float32(np.linalg.det), well_conditioned((2, 3, 3))),
    Case("Solve", "solve_matrix",
         ops.solve, np.linalg.solve, well_conditioned((3, 3), (3, 2)), f16=REFUSED),
    Case("Solve", "solve_vector", ops.solve, lambda a, b: np.linalg.solve(a, b[:, None])[:, 0],
        well_conditioned((3, 3), (3,)), f16=REFUSED),
    Case("Solve", "solve_batch_bcast",
         ops.solve, np.linalg.solve, well_conditioned((2, 3, 3), (3, 2)), 2, f16=REFUSED),
    Case("Cholesky", "cholesky", ops.cholesky, via_float32(np.linalg.cholesky), spd(3)),
    Case("Cholesky", "cholesky_upper_batch", ops.Cholesky(upper=True),
        via_float32(lambda a: np.swapaxes(np.linalg.cholesky(a), -1, -2)), spd(3, (2,)), 2),
    Case("MatMul", "dot", ops.dot, np.dot, N((2, 3), (3,))),
    # convolution
    Case("Conv2D", "conv2d_valid",
         lambda x, w: ops.conv2d(x, w), conv_ref, N((2, 3, 5, 4), (4, 3, 3, 2))),
    Case("Conv2D", "conv2d_bias", lambda x, w, b: ops.conv2d(x, w, b),
        lambda x, w, b: conv_ref(x, w, bias=b), N((1, 2, 4, 4), (3, 2, 2, 2), (3,))),
    Case("Conv2D", "conv2d_stride_pad_dil_groups", 
        lambda x, w: ops.conv2d(x, w, stride=(2, 1), pad_mode="pad", padding=(1, 0, 1, 2),
                                dilation=(1, 2), groups=2),
        lambda x, w: conv_ref(x, w, (2, 1), ((1, 0), (1, 2)), (1, 2), 2),
        N((2, 4, 5, 6), (6, 2, 3, 2))),
    Case("Conv2D", "conv2d_same_stride2", lambda x, w: ops.conv2d(x, w, stride=2, pad_mode="same"),
        lambda x, w: conv_ref(x, w, (2, 2), same_pads((5, 6), (3, 3), (2, 2))),
        N((1, 2, 5, 6), (2, 2, 3, 3)), 2),
    Case("Conv2D", "conv2d_depthwise",
         lambda x, w: ops.conv2d(x, w, padding=1, pad_mode="pad", groups=3),
        lambda x, w: conv_ref(x, w, pads=((1, 1), (1, 1)), groups=3),
        N((1, 3, 4, 4), (3, 1, 3, 3)), 2),
    Case("Conv2D", "Conv2D_op", lambda x, w: ops.Conv2D(4, (2, 2), pad_mode="pad", pad=(0, 1, 1, 0),
                                             stride=(1, 1, 2, 2))(x, w),
        lambda x, w: conv_ref(x, w, (2, 2), ((0, 1), (1, 0))), N((1, 3, 5, 5), (4, 3, 2, 2)), 2),
    # pooling
    Case("PlaneGather", "max_pool2d",
         lambda x: ops.max_pool2d(x, 2), lambda x: maxpool_ref(x, (2, 2)),
        distinct_grid(2, 2, 4, 6)),
    Case("PlaneGather", "max_pool2d_overlap_pad", lambda x: ops.max_pool2d(x, 3, 2, 1),
        lambda x: maxpool_ref(x, (3, 3), (2, 2), (1, 1)), distinct_grid(1, 2, 5, 6)),
    Case("PlaneGather", "max_pool2d_dil_ceil",
         lambda x: ops.max_pool2d(x, (2, 3), (2, 1), (1, 1), (2, 1),
                                                        ceil_mode=True),
        lambda x: maxpool_ref(x, (2, 3), (2, 1), (1, 1), (2, 1), True), distinct_grid(1, 2, 6, 5)),
    Case("PlaneGather", "MaxPool_same",
         ops.MaxPool(3, 2, "same"), lambda x: pool_same_ref(x, (3, 3), (2, 2), "max"),
        distinct_grid(1, 2, 5, 6)),
    Case("SumPool", "avg_pool2d",
         lambda x: ops.avg_pool2d(x, 2, 2), lambda x: avgpool_ref(x, (2, 2), (2, 2)),
        N((2, 2, 4, 6))),
    Case("SumPool", "avg_pool2d_pad_exclude_ceil", 
        lambda x: ops.avg_pool2d(x, 3, 2, 1, ceil_mode=True, count_include_pad=False),
        lambda x: avgpool_ref(x, (3, 3), (2, 2), (1, 1), True, False), N((1, 2, 6, 5))),
    Case("SumPool", "avg_pool2d_pad_include_ceil",
         lambda x: ops.avg_pool2d(x, 3, 2, 1, ceil_mode=True),
        lambda x: avgpool_ref(x, (3, 3), (2, 2), (1, 1), True, True), N((1, 2, 6, 5))),
    Case("SumPool", "avg_pool2d_divisor",
         lambda x: ops.avg_pool2d(x, (2, 3), 1, divisor_override=4),
        lambda x: avgpool_ref(x, (2, 3), (1, 1), divisor=4), N((1, 1, 3, 4))),
    Case("SumPool", "AvgPool_same",
         ops.AvgPool(3, 2, "same"), lambda x: pool_same_ref(x, (3, 3), (2, 2), "avg"),
        N((1, 2, 5, 6))),
    # a small network: conv -> relu -> pool -> einsum head
    Case("composite", "lenet_block", lambda x, w, v: ops.einsum(
            "nchw,kc->nk", ops.max_pool2d(ops.relu(ops.conv2d(x, w, pad_mode="same")), 2), v),
        lambda x, w, v: np.einsum("nchw,kc->nk", maxpool_ref(np.maximum(
            conv_ref(x, w, pads=((1, 1), (1, 1))), 0), (2, 2)), v),
        N((1, 2, 4, 4), (3, 2, 3, 3), (2, 3)), 2, 1),
]

# --- the rows of the other primitives ---------------------------------------------------------
def prim(name: str) -> Callable:
    """The registered primitive ``name``, looked up when called (rows of primitives that have
    no front end of their own: the rules' helper primitives)."""
    return lambda *args, **params: registered()[name](*args, **params)


def keep(ref: Callable) -> Callable:
    """A reference computed in float64 whatever its inputs, rounded to the dtype of its first
    float input (the dtype the primitive keeps)."""
    def wrapped(*arrays):
        dt = next(a.dtype for a in arrays if a.dtype.kind == "f")
        return np.asarray(ref(*arrays)).astype(dt)
    return wrapped


def ints(lo, hi, *shapes):
    """Integer inputs (int64), kept integers by the driver (it casts float inputs only)."""
    return lambda rng: [rng.integers(lo, hi, s) for s in shapes]


def bools(*shapes):
    return lambda rng: [rng.random(s) < 0.5 for s in shapes]


def special(*shapes):
    """Normal values with an inf, a -inf and a NaN among them (isfinite, isinf, isnan)."""
    def gen(rng):
        out = [rng.standard_normal(s) for s in shapes]
        out[0].flat[:3] = [np.inf, -np.inf, np.nan]
        return out
    return gen


def ties(*shapes):
    """Values from a few levels, so that comparisons meet equal elements."""
    return lambda rng: [rng.integers(-2, 3, s) * 0.5 for s in shapes]


def sorted_rows(shape_seq, shape_v):
    return lambda rng: [np.sort(rng.standard_normal(shape_seq), -1), rng.standard_normal(shape_v)]


def _cummax_arg_ref(x, axis):
    """Where the running maximum along ``axis`` sits (the last of equal maxima)."""
    x = np.moveaxis(x, axis, -1)
    out = np.zeros(x.shape, np.int64)
    for idx in np.ndindex(x.shape[:-1]):
        best = 0
        for i in range(x.shape[-1]):
            if x[idx + (i,)] >= x[idx + (best,)]:
                best = i
            out[idx + (i,)] = best
    return np.moveaxis(out, -1, axis)


def _one_hot_ref(i, depth):
    return (i[..., None] == np.arange(depth)).astype(np.float32)


def _tie_weight_ref(x, y):
    return np.where(x > y, 1.0, np.where(x == y, 0.5, 0.0))


def _clip_slope_ref(x, lo, hi):
    a = np.where(x > lo, 1.0, np.where(x == lo, 0.5, 0.0))
    m = np.maximum(x, lo)
    return a * np.where(m < hi, 1.0, np.where(m == hi, 0.5, 0.0))


def _cumprod_grad_ref(g, x, axis):
    """J^T g of y = cumprod(x) along ``axis`` (rows of a 2-D input), from the Jacobian."""
    x, g = np.moveaxis(x, axis, -1), np.moveaxis(g, axis, -1)
    out = np.zeros(x.shape)
    n = x.shape[-1]
    for r in np.ndindex(x.shape[:-1]):
        for i in range(n):
            out[r + (i,)] = sum(g[r + (k,)] * np.prod(np.delete(x[r][:k + 1], i))
                                for k in range(i, n))
    return np.moveaxis(out, -1, axis)


def _linrec_ref(b, a, axis):
    """r_t = a_t r_{t-1} + b_t along ``axis``, from r_{-1} = 0."""
    b, a = np.moveaxis(b, axis, -1), np.moveaxis(a, axis, -1)
    r = np.zeros(b.shape)
    for t in range(b.shape[-1]):
        r[..., t] = (a[..., t] * r[..., t - 1] if t else 0) + b[..., t]
    return np.moveaxis(r, -1, axis)


def _extreme_grad_ref(g, x, axis):
    hit = x == x.max(axis, keepdims=True)
    return np.expand_dims(g, axis) * hit / hit.sum(axis, keepdims=True)


def conv_input_grad_ref(g, w, in_hw, stride=(1, 1), pads=((0, 0), (0, 0)), dil=(1, 1)):
    """The transpose of ``conv_ref`` in x (groups 1): every output cotangent spread over its
    window."""
    n, o, ho, wo = g.shape
    _, c, kh, kw = w.shape
    (pt, pb), (pl, pr) = pads
    dx = np.zeros((n, c, in_hw[0] + pt + pb, in_hw[1] + pl + pr))
    for i in range(ho):
        for j in range(wo):
            for a in range(kh):
                for b in range(kw):
                    r, q = i * stride[0] + a * dil[0], j * stride[1] + b * dil[1]
                    dx[:, :, r, q] += np.einsum("no,oc->nc", g[:, :, i, j], w[:, :, a, b])
    return dx[:, :, pt:pt + in_hw[0], pl:pl + in_hw[1]]


def conv_weight_grad_ref(x, g, kernel, stride=(1, 1), pads=((0, 0), (0, 0)), dil=(1, 1)):
    """The transpose of ``conv_ref`` in w (groups 1): input windows weighted by the output
    cotangent."""
    xp = np.pad(x, ((0, 0), (0, 0)) + tuple(pads))
    _, o, ho, wo = g.shape
    dw = np.zeros((o, x.shape[1]) + tuple(kernel))
    for i in range(ho):
        for j in range(wo):
            for a in range(kernel[0]):
                for b in range(kernel[1]):
                    r, q = i * stride[0] + a * dil[0], j * stride[1] + b * dil[1]
                    dw[:, :, a, b] += np.einsum("no,nc->oc", g[:, :, i, j], xp[:, :, r, q])
    return dw


def sum_pool_transpose_ref(g, in_hw, k, s):
    n, c, ho, wo = g.shape
    dx = np.zeros((n, c) + tuple(in_hw))
    for i in range(ho):
        for j in range(wo):
            hs, ws = i * s[0], j * s[1]
            dx[:, :, hs:hs + k[0], ws:ws + k[1]] += g[:, :, i, j, None, None]
    return dx


def pool_argmax_ref(x, k, s):
    """Flat (per-plane) index of the first maximum of every window (no padding)."""
    n, c, h, w = x.shape
    ho, wo = (h - k[0]) // s[0] + 1, (w - k[1]) // s[1] + 1
    out = np.zeros((n, c, ho, wo), np.int64)
    for i in range(ho):
        for j in range(wo):
            win = x[:, :, i * s[0]:i * s[0] + k[0], j * s[1]:j * s[1] + k[1]].reshape(n, c, -1)
            t = win.argmax(-1)
            out[:, :, i, j] = (i * s[0] + t // k[1]) * w + j * s[1] + t % k[1]
    return out


def plane_scatter_ref(g, idx, in_hw):
    n, c = g.shape[:2]
    out = np.zeros((n, c, in_hw[0] * in_hw[1]))
    for b in range(n):
        for ch in range(c):
            np.add.at(out[b, ch], idx[b, ch].reshape(-1), g[b, ch].reshape(-1))
    return out.reshape((n, c) + tuple(in_hw))


def _lstm_step_ref(gi, h, c, w):
    z = gi + h @ w.T
    hid = z.shape[-1] // 4
    a = 1 / (1 + np.exp(-z))
    a[..., 2 * hid:3 * hid] = np.tanh(z[..., 2 * hid:3 * hid])
    i, f, g, o = np.split(a, 4, axis=-1)
    c_new = f * c + i * g
    return o * np.tanh(c_new), c_new, a


def _lstm_step_grad_ref(gh, gc, h, c, w, c_new, a, ga):
    i, f, g, o = np.split(a, 4, axis=-1)
    tc = np.tanh(c_new)
    dc = gh * o * (1 - tc ** 2) + gc
    da = np.concatenate([dc * g, dc * c, dc * i, gh * tc], axis=-1) + ga
    dz = da * np.concatenate([i * (1 - i), f * (1 - f), 1 - g ** 2, o * (1 - o)], axis=-1)
    return dz, dz @ w, dc * f, dz.T @ h


def _gru_step_ref(gi, h, w, b=0.0):
    q = h @ w.T + b
    r, u, _ = np.split(1 / (1 + np.exp(-(gi + q))), 3, axis=-1)
    q_n = np.split(q, 3, axis=-1)[2]
    n = np.tanh(np.split(gi, 3, axis=-1)[2] + r * q_n)
    return n + u * (h - n), np.concatenate([r, u, n, q_n], axis=-1)


def _gru_step_grad_ref(gh, h, w, a, *extra, bias):
    ga = extra[1 if bias else 0] if len(extra) > bias else np.zeros_like(a)
    r, u, n, q_n = np.split(a, 4, axis=-1)
    g_r, g_u, g_n, g_q = np.split(ga, 4, axis=-1)
    dan = (gh * (1 - u) + g_n) * (1 - n * n)
    dar = (dan * q_n + g_r) * r * (1 - r)
    dau = (gh * (h - n) + g_u) * u * (1 - u)
    dq = np.concatenate([dar, dau, dan * r + g_q], axis=-1)
    out = (np.concatenate([dar, dau, dan], axis=-1), gh * u + dq @ w, dq.T @ h)
    return out + (dq.sum(0),) if bias else out


def _sce_ref(logits, labels):
    m = logits.max(-1, keepdims=True)
    lse = np.log(np.exp(logits - m).sum(-1)) + m[..., 0]
    return lse * labels.sum(-1) - (labels * logits).sum(-1)


POOL_IDX = np.array([[[[0, 3], [13, 10]], [[5, 2], [8, 15]]]])  # (1, 2, 2, 2) into 4x4 planes
POOL_IDXT = Tensor(POOL_IDX)
CONV_P = dict(stride=(1, 1), padding=((0, 0), (0, 0)), dilation=(1, 1), groups=1)
CONV_S = dict(stride=(2, 1), padding=((1, 0), (0, 1)), dilation=(1, 2), groups=1)
NO_F16_INT = "integer inputs: no float dtype to vary"

MORE_CASES = [
    # arg reductions, sorting and search (integer outputs: no gradient)
    Case("Argmax", "argmax_axis", lambda x: ops.argmax(x, 1), lambda x: np.argmax(x, 1),
         distinct(3, 4), diff=False),
    Case("Argmin", "argmin_axis", lambda x: ops.argmin(x, 0),
         lambda x: np.argmin(x, 0).astype(np.int32), distinct(3, 4), diff=False),
    Case("ArgSort", "argsort_last", ops.argsort, lambda x: np.argsort(x, -1).astype(np.int32),
         distinct(3, 4), diff=False),
    Case("SearchSorted", "searchsorted_rows", ops.searchsorted,
         lambda s, v: np.stack([np.searchsorted(a, b) for a, b in zip(s, v)]),
         sorted_rows((2, 5), (2, 3)), diff=False),
    Case("RunningArgExtreme", "cummax_indices", lambda x: ops.cummax(x, 0)[1],
         lambda x: _cummax_arg_ref(x, 0), ties((4, 3)), diff=False),
    # integer and boolean elementwise operations
    Case("BitwiseAnd", "bitwise_and", ops.bitwise_and, np.bitwise_and, ints(0, 64, (2, 3), (2, 3)),
         diff=False, f16=NO_F16_INT),
    Case("BitwiseOr", "bitwise_or", ops.bitwise_or, np.bitwise_or, ints(0, 64, (2, 3), (3,)),
         diff=False, f16=NO_F16_INT),
    Case("BitwiseXor", "bitwise_xor", ops.bitwise_xor, np.bitwise_xor,
         ints(-64, 64, (2, 3), (2, 3)), diff=False, f16=NO_F16_INT),
    Case("LogicalAnd", "logical_and", ops.logical_and, np.logical_and, bools((2, 3), (2, 3)),
         diff=False, f16=NO_F16_INT),
    Case("LogicalOr", "logical_or", ops.logical_or, np.logical_or, bools((2, 3), (3,)),
         diff=False, f16=NO_F16_INT),
    Case("LogicalXor", "logical_xor", ops.logical_xor, np.logical_xor, bools((2, 3), (2, 3)),
         diff=False, f16=NO_F16_INT),
    Case("LogicalNot", "logical_not", ops.logical_not, np.logical_not, bools((2, 3)),
         diff=False, f16=NO_F16_INT),
    Case("OneHot", "one_hot", lambda i: ops.one_hot(i, 4, Tensor(1.0), Tensor(0.0)),
         lambda i: _one_hot_ref(i, 4), ints(0, 4, (2, 3)), diff=False, f16=NO_F16_INT),
    Case("CheckRange", "check_range",
         lambda i: prim("CheckRange")(i, lo=0, hi=5, ignore=None, who="table", arg="i",
                                      what="x", error=IndexError),
         lambda i: i, ints(0, 5, (2, 3)), diff=False, f16=NO_F16_INT),
    # piecewise-constant float operations and predicates (no gradient)
    Case("Floor", "floor", ops.floor, np.floor, N((2, 3)), diff=False),
    Case("Ceil", "ceil", ops.ceil, np.ceil, N((2, 3)), diff=False),
    Case("Round", "round", ops.round, np.round, ties((2, 3)), diff=False),
    Case("Sign", "sign", ops.sign, np.sign, ties((2, 3)), diff=False),
    Case("Equal", "equal", ops.equal, np.equal, ties((2, 3), (2, 3)), diff=False),
    Case("NotEqual", "not_equal", ops.ne, np.not_equal, ties((2, 3), (3,)), diff=False),
    Case("Greater", "greater", ops.gt, np.greater, ties((2, 3), (2, 3)), diff=False),
    Case("GreaterEqual", "greater_equal", ops.ge, np.greater_equal, ties((2, 3), (3,)),
         diff=False),
    Case("Less", "less", ops.lt, np.less, ties((2, 3), (2, 3)), diff=False),
    Case("LessEqual", "less_equal", ops.le, np.less_equal, ties((2, 1), (1, 3)), diff=False),
    Case("IsFinite", "isfinite", ops.isfinite, np.isfinite, special((2, 3)), diff=False),
    Case("IsInf", "isinf", ops.isinf, np.isinf, special((2, 3)), diff=False),
    Case("IsNan", "isnan", ops.isnan, np.isnan, special((2, 3)), diff=False),
    Case("ZerosLike", "zeros_like", ops.zeros_like, np.zeros_like, N((2, 3)), diff=False),
    Case("OnesLike", "ones_like", ops.ones_like, np.ones_like, N((2, 3)), diff=False),
    Case("Fill", "fill_like_shape", lambda x: ops.full_like(x, 1.5), lambda x: np.full_like(x, 1.5),
         N((2, 3)), diff=False),
    Case("StopGradient", "stop_gradient", ops.stop_gradient, lambda x: x, N((2, 3)), diff=False),
    # the rules' helper primitives, called directly
    Case("TieWeight", "tie_weight",
         lambda x, y: prim("TieWeight")(x, y, greater=True, dtype=ms.dtype_to_nptype(x.dtype)),
         keep(_tie_weight_ref), ties((2, 3), (3,)), diff=False),
    Case("ClipByValueSlope", "clip_by_value_slope",
         lambda x: prim("ClipByValueSlope")(x, lo=-0.5, hi=0.5, dtype=ms.dtype_to_nptype(x.dtype)),
         keep(lambda x: _clip_slope_ref(x, -0.5, 0.5)), ties((2, 3)), diff=False),
    Case("LeakyReLUSlope", "leaky_relu_slope", lambda x: prim("LeakyReLUSlope")(x, alpha=0.2),
         lambda x: np.where(x > 0, 1.0, 0.2).astype(x.dtype), away0((2, 3)), diff=False),
    Case("HSwishGrad", "hswish_grad", prim("HSwishGrad"),
         lambda x: np.where(x <= -3, 0.0, np.where(x >= 3, 1.0, x / 3 + 0.5)).astype(x.dtype),
         away_from([-3, 3], -5, 5, (2, 3))),
    Case("LogOrZero", "log_or_zero", prim("LogOrZero"), np.log, U(0.5, 2.0, (2, 3))),
    Case("PowDx", "pow_dx", lambda x, y: prim("PowDx")(x, y, x ** y),
         lambda x, y: y * x ** (y - 1), lambda r: U(0.5, 2.0, (2, 3))(r) + N((2, 3))(r)),
    Case("Centered", "centered", lambda x: prim("Centered")(x, axis=(1,)),
         lambda x: x - x.mean(1, keepdims=True), N((2, 3))),
    Case("ProdOthers", "prod_others", lambda x: prim("ProdOthers")(x, None, None, axis=1),
         lambda x: np.stack([np.prod(np.delete(x, i, 1), 1) for i in range(x.shape[1])], 1),
         N((2, 4))),
    Case("ExtremeGrad", "extreme_grad",
         lambda g, x: prim("ExtremeGrad")(g, x, ops.amax(x, 1), axis=(1,), keepdims=False),
         keep(lambda g, x: _extreme_grad_ref(g, x, 1)),
         lambda r: N((3,))(r) + distinct(3, 4)(r)),
    Case("CumProdGrad", "cumprod_grad",
         lambda g, x: prim("CumProdGrad")(g, x, ops.cumprod(x, 1), axis=1, reverse=False),
         keep(lambda g, x: _cumprod_grad_ref(g, x, 1)), N((2, 4), (2, 4))),
    Case("LinearRecurrence", "linear_recurrence",
         lambda b, a: prim("LinearRecurrence")(b, a, axis=1, reverse=False),
         keep(lambda b, a: _linrec_ref(b, a, 1)), N((2, 4), (2, 4))),
    Case("Unstack", "unstack", lambda x: ops.unstack(x, 1), lambda x: tuple(np.moveaxis(x, 1, 0)),
         N((2, 3))),
    Case("LSTMStep", "lstm_step", prim("LSTMStep"), _lstm_step_ref,
         N((3, 8), (3, 2), (3, 2), (8, 2))),
    Case("LSTMStepGrad", "lstm_step_grad", prim("LSTMStepGrad"), _lstm_step_grad_ref,
         N((3, 2), (3, 2), (3, 2), (3, 2), (8, 2), (3, 2), (3, 8), (3, 8)), order=2),
    Case("GRUStep", "gru_step", prim("GRUStep"), _gru_step_ref, N((3, 6), (3, 2), (6, 2), (6,))),
    Case("GRUStep", "gru_step_no_bias", prim("GRUStep"), _gru_step_ref, N((3, 6), (3, 2), (6, 2))),
    Case("GRUStepGrad", "gru_step_grad",
         lambda gh, h, w, a, b, ga: prim("GRUStepGrad")(gh, h, w, a, b, ga, bias=True),
         lambda *xs: _gru_step_grad_ref(*xs, bias=True),
         N((3, 2), (3, 2), (6, 2), (3, 8), (6,), (3, 8)), order=2),
    Case("GRUStepGrad", "gru_step_grad_no_bias",
         lambda gh, h, w, a: prim("GRUStepGrad")(gh, h, w, a, bias=False),
         lambda *xs: _gru_step_grad_ref(*xs, bias=False), N((3, 2), (3, 2), (6, 2), (3, 8)),
         order=2),
    Case("SoftmaxCrossEntropy", "softmax_cross_entropy", prim("SoftmaxCrossEntropy"), _sce_ref,
         lambda r: [r.standard_normal((3, 4)), r.dirichlet(np.ones(4), 3)]),
    # (1e-12 inside the logarithms, as MindSpore: 0 in float16)
    Case("BinaryCrossEntropy", "binary_cross_entropy", prim("BinaryCrossEntropy"),
         lambda x, y: -(y * np.log(x + 1e-12) + (1 - y) * np.log(1 - x + 1e-12)),
         lambda r: [r.uniform(0.1, 0.9, (3, 4)), r.uniform(0.0, 1.0, (3, 4))]),
    # convolution's transposes and pooling's helpers
    Case("Conv2DBackpropInput", "conv2d_input_grad",
         lambda g, w: prim("Conv2DBackpropInput")(g, w, in_hw=(4, 5), **CONV_P),
         keep(lambda g, w: conv_input_grad_ref(g, w, (4, 5))), N((2, 3, 2, 4), (3, 2, 3, 2))),
    Case("Conv2DBackpropInput", "conv2d_input_grad_strided",
         lambda g, w: prim("Conv2DBackpropInput")(g, w, in_hw=(5, 5), **CONV_S),
         keep(lambda g, w: conv_input_grad_ref(g, w, (5, 5), (2, 1), ((1, 0), (0, 1)), (1, 2))),
         N((1, 3, 3, 4), (3, 2, 2, 2)), 2),
    Case("Conv2DBackpropFilter", "conv2d_weight_grad",
         lambda x, g: prim("Conv2DBackpropFilter")(x, g, kernel=(3, 2), **CONV_P),
         keep(lambda x, g: conv_weight_grad_ref(x, g, (3, 2))), N((2, 2, 4, 5), (2, 3, 2, 4))),
    Case("Conv2DBackpropFilter", "conv2d_weight_grad_strided",
         lambda x, g: prim("Conv2DBackpropFilter")(x, g, kernel=(2, 2), **CONV_S),
         keep(lambda x, g: conv_weight_grad_ref(x, g, (2, 2), (2, 1), ((1, 0), (0, 1)), (1, 2))),
         N((1, 2, 5, 5), (1, 3, 3, 4)), 2),
    Case("SumPoolTranspose", "sum_pool_transpose",
         lambda g: prim("SumPoolTranspose")(g, in_hw=(4, 5), kernel=(2, 2), stride=(2, 1),
                                            padding=((0, 0), (0, 0))),
         keep(lambda g: sum_pool_transpose_ref(g, (4, 5), (2, 2), (2, 1))), N((1, 2, 2, 4))),
    Case("MaxPoolArgmax", "max_pool_argmax",
         lambda x: prim("MaxPoolArgmax")(x, kernel=(2, 2), stride=(1, 2), padding=((0, 0), (0, 0)),
                                         dilation=(1, 1)),
         lambda x: pool_argmax_ref(x, (2, 2), (1, 2)), distinct_grid(2, 2, 4, 5), diff=False),
    Case("PlaneScatter", "plane_scatter",
         lambda g: prim("PlaneScatter")(g, POOL_IDXT, in_hw=(4, 4), disjoint=False),
         keep(lambda g: plane_scatter_ref(g, POOL_IDX, (4, 4))), N((1, 2, 2, 2))),
]
CASES += MORE_CASES

# --- the shape and indexing fast paths --------------------------------------------------------
REP = np.array([3, 0, 3, -1, 2, 0, 5])          # repeated and negative indices
UNIQUE = np.array([4, 1, 0, 5, 2])              # no repeats: the plain-assignment path
REP2 = np.array([[1, 0, 1], [2, 2, 0]])         # a 2-D index (an embedding lookup)


def _split_mix(x):
    a, b, c = ops.split(x, [2, 3, 1], 1)
    return ops.sin(a) * b[:, :2] + c * ops.exp(b[:, 2:])


def _unstack_mix(x):
    a, b, c = ops.unstack(x, 1)
    return ops.stack((a * b, ops.sin(c), a), -1)


def _index_add_ref(g, idx, shape, axis):
    out = np.zeros(shape, g.dtype)
    np.add.at(out, (slice(None),) * axis + (idx,), g)
    return out


SHAPE_CASES = [
    # split / stack / unstack (each the transpose of another), bijective getitems (flips, added
    # and removed axes: a view transpose), one-axis integer indexing (the scatters' float64
    # sums), and the matmul fast paths (inner dimension 1, broadcast operands)
    Case("Split", "split_sum",
         lambda x: sum(ops.split(x, 2, 1)[1:], ops.split(x, 2, 1)[0]),
         lambda x: x[:, 0:2] + x[:, 2:4] + x[:, 4:6], N((3, 6))),
    Case("Split", "split_partial_use",
         lambda x: ops.split(x, [1, 4, 1], 0)[1] ** 2,
         lambda x: x[1:5] ** 2, N((6, 2))),
    Case("Split", "split_mix",
         _split_mix,
         lambda x: np.sin(x[:, :2]) * x[:, 2:4] + x[:, 5:6] * np.exp(x[:, 4:5]), N((2, 6))),
    Case("Stack", "stack_axis1",
         lambda x, y: ops.stack((x, y * x, y), 1),
         lambda x, y: np.stack((x, y * x, y), 1), N((2, 3), (2, 3))),
    Case("Stack", "stack_constant_last_axis",
         lambda x: ops.stack((x, Tensor(np.ones((2, 3)))), -1),
         lambda x: np.stack((x, np.ones((2, 3))), -1), N((2, 3))),
    Case("Unstack", "unstack_3d",
         lambda x: ops.unstack(x, 1), lambda x: tuple(np.moveaxis(x, 1, 0)), N((2, 3, 2))),
    Case("Unstack", "unstack_mix",
         _unstack_mix,
         lambda x: np.stack((x[:, 0] * x[:, 1], np.sin(x[:, 2]), x[:, 0]), -1), N((2, 3))),
    Case("StridedSlice", "flip_view",
         lambda x: ops.flip(x, (0, 2)) * x, lambda x: x[::-1, :, ::-1] * x,
         N((2, 3, 2))),
    Case("StridedSlice", "getitem_none_ellipsis_flip",
         lambda x: x[None, ..., ::-1] ** 2,
         lambda x: x[None, ..., ::-1] ** 2, N((2, 3))),
    Case("StridedSlice", "getitem_int_on_size1",
         lambda x: ops.sin(x[0, ..., 0]), lambda x: np.sin(x[0, ..., 0]),
         N((1, 3, 1))),
    Case("StridedSlice", "gather_rows_repeated",
         lambda x: ops.gather(x, Tensor(REP), 0) ** 2, lambda x: x[REP] ** 2,
         N((6, 9))),
    Case("StridedSlice", "gather_rows_unique",
         lambda x: ops.gather(x, Tensor(UNIQUE), 0) * 3,
         lambda x: x[UNIQUE] * 3, N((6, 8))),
    Case("StridedSlice", "gather_2d_index",
         lambda x: ops.sin(ops.gather(x, Tensor(REP2), 0)),
         lambda x: np.sin(x[REP2]), N((3, 8))),
    Case("StridedSlice", "getitem_columns_repeated",
         lambda x: x[:, Tensor(REP)] ** 2, lambda x: x[:, REP] ** 2,
         N((9, 6))),
    Case("StridedSlice", "getitem_middle_axis",
         lambda x: x[:, Tensor(REP), ...] * x[:, Tensor(REP)],
         lambda x: x[:, REP] * x[:, REP], N((2, 6, 4))),
    Case("StridedSlice", "getitem_last_axis",
         lambda x: x[..., Tensor(REP)] ** 2, lambda x: x[..., REP] ** 2,
         N((3, 3, 6))),
    Case("StridedSlice", "getitem_ellipsis_after",
         lambda x: x[Tensor(REP2), ...] * 2, lambda x: x[REP2, ...] * 2,
         N((3, 2, 4))),
    Case("StridedSlice", "index_select_wide",
         lambda x: ops.index_select(x, 1, Tensor(UNIQUE)) ** 2,
         lambda x: x[:, UNIQUE] ** 2, N((8, 6, 2))),
    Case("MatMul", "outer_squared",
         lambda x, y: ops.outer(x, y) ** 2, lambda x, y: np.outer(x, y) ** 2, N((4,), (3,))),
    Case("MatMul", "dot_matrix_vector",
         lambda a, v: ops.dot(a, v) ** 2, lambda a, v: (a @ v) ** 2,
         N((3, 4), (4,))),
    Case("MatMul", "matmul_inner_1",
         lambda a, b: ops.matmul(a, b) * a, lambda a, b: (a @ b) * a,
         N((2, 3, 1), (1, 1))),
    Case("MatMul", "matmul_inner_1_batched",
         lambda a, b: ops.matmul(a, b), np.matmul, N((2, 3, 1), (1, 4))),
    Case("MatMul", "matmul_transposes_inner_1",
         lambda a, b: ops.matmul(a, b, True, True),
         lambda a, b: a.T @ b.T, N((1, 3), (4, 1))),
    Case("MatMul", "matmul_of_sum_cotangent",
         lambda a, b: ops.matmul(ops.broadcast_to(a, (3, 4)), b),
         lambda a, b: np.broadcast_to(a, (3, 4)) @ b, N((1, 4), (4, 2))),

    # the transpose of indexing, called directly (an index plan with one integer array)
    Case("IndexAdd", "index_add_rows",
         lambda g: prim("IndexAdd")(g, Tensor(REP), index=(ArraySlot(0),), shape=(6, 3)),
         lambda g: _index_add_ref(g, REP, (6, 3), 0), N((7, 3))),
    Case("IndexAdd", "index_add_middle_axis",
         lambda g: prim("IndexAdd")(g, Tensor(REP2), index=(slice(None), ArraySlot(0)),
                                    shape=(2, 3, 4)),
         lambda g: _index_add_ref(g, REP2, (2, 3, 4), 1), N((2, 2, 3, 4))),
]
CASES += SHAPE_CASES


# --- special functions, integer bits, complex parts, FFTs and decompositions ------------------
def _sp(name):
    """scipy.special's ``name`` in the input's dtype (SciPy computes float16 in float32)."""
    import scipy.special

    return lambda *xs: getattr(scipy.special, name)(*xs).astype(xs[0].dtype)


def _cview(z):
    return np.stack([z.real, z.imag], -1)


def _c32(x):
    """NumPy's complex results in the dtype mindgrad gives for real input ``x``."""
    return np.complex128 if x.dtype == np.float64 else np.complex64


def _fft_ref(x, **kw):
    return _cview(np.fft.fft(x, **kw).astype(_c32(x)))


def _five_point(f, a, h=1e-3):
    """f'(a) by the five-point stencil (error ~ h^4), in a's dtype."""
    a64 = a.astype(np.float64)
    d = (-f(a64 + 2 * h) + 8 * f(a64 + h) - 8 * f(a64 - h) + f(a64 - 2 * h)) / (12 * h)
    return d.astype(a.dtype)


_F16_FFT = "float16 transforms compute in complex64: checked in tests/test_special.py"
_BESSEL = (("BesselI0", "bessel_i0", "i0", N((2, 3))),
           ("BesselI0e", "bessel_i0e", "i0e", N((2, 3))),
           ("BesselI1", "bessel_i1", "i1", N((2, 3))),
           ("BesselI1e", "bessel_i1e", "i1e", N((2, 3))),
           ("BesselJ0", "bessel_j0", "j0", N((2, 3))), ("BesselJ1", "bessel_j1", "j1", N((2, 3))),
           ("BesselY0", "bessel_y0", "y0", U(0.5, 3.0, (2, 3))),
           ("BesselY1", "bessel_y1", "y1", U(0.5, 3.0, (2, 3))),
           ("BesselK0", "bessel_k0", "k0", U(0.5, 3.0, (2, 3))),
           ("BesselK0e", "bessel_k0e", "k0e", U(0.5, 3.0, (2, 3))),
           ("BesselK1", "bessel_k1", "k1", U(0.5, 3.0, (2, 3))),
           ("BesselK1e", "bessel_k1e", "k1e", U(0.5, 3.0, (2, 3))))

SPECIAL_CASES = [
    Case("Lgamma", "lgamma", ops.lgamma, _sp("gammaln"), U(0.3, 4.0, (2, 3))),
    Case("Digamma", "digamma", ops.digamma, _sp("digamma"), U(0.3, 4.0, (2, 3))),
    Case("Polygamma", "polygamma_2", lambda x: ops.polygamma(Tensor(2), x),
         lambda x: _sp("polygamma")(x * 0 + 2, x), U(0.5, 4.0, (2, 3))),
    Case("Erfinv", "erfinv", ops.erfinv, _sp("erfinv"), U(-0.9, 0.9, (2, 3))),
    *[Case(p, n, getattr(ops, n), _sp(ref), gen) for p, n, ref, gen in _BESSEL],
    Case("Igamma", "igamma", ops.igamma, _sp("gammainc"), U(0.5, 3.0, (2, 3), (2, 3))),
    Case("Igammac", "igammac", ops.igammac, _sp("gammaincc"), U(0.5, 3.0, (2, 3), (2, 3))),
    Case("IgammaGradA", "igamma_grad_a",
         lambda a, x: ops.grad(lambda p: ops.igamma(p, x).sum())(a),
         lambda a, x: _five_point(lambda p: _sp("gammainc")(p, x), a),
         U(0.5, 3.0, (2, 3), (2, 3)), f16="a finite difference as the reference"),
    # (differentiated in q only: as in MindSpore, zeta has no derivative in s)
    Case("Zeta", "zeta", lambda q: ops.zeta(ops.full_like(q, 2.5), q),
         lambda q: _sp("zeta")(q * 0 + 2.5, q), U(0.5, 3.0, (2, 3))),
    Case("Gcd", "gcd", ops.gcd, np.gcd, ints(-40, 40, (2, 3), (2, 3)), diff=False, f16=NO_F16_INT),
    Case("Lcm", "lcm", ops.lcm, np.lcm, ints(-40, 40, (2, 3), (3,)), diff=False, f16=NO_F16_INT),
    Case("LeftShift", "bitwise_left_shift", ops.bitwise_left_shift, np.left_shift,
         ints(0, 9, (2, 3), (2, 3)), diff=False, f16=NO_F16_INT),
    Case("RightShift", "bitwise_right_shift", ops.bitwise_right_shift, np.right_shift,
         ints(-64, 64, (2, 3), (3,)), diff=False, f16=NO_F16_INT),
    Case("Invert", "invert", ops.invert, np.invert, ints(-64, 64, (2, 3)), diff=False,
         f16=NO_F16_INT),
    Case("PopulationCount", "population_count", ops.population_count,
         lambda x: np.bitwise_count(x.view(np.uint64)).astype(np.uint8), ints(-64, 64, (2, 3)),
         diff=False,
         f16=NO_F16_INT),
    Case("TruncateDiv", "truncate_div_int", ops.truncate_div,
         lambda x, y: (np.trunc(x / y)).astype(x.dtype), ints(1, 50, (2, 3), (2, 3)),
         diff=False, f16=NO_F16_INT),
    Case("NextAfter", "nextafter", ops.nextafter, np.nextafter, N((2, 3), (2, 3)), diff=False,
         f16=REFUSED),
    Case("Complex", "complex_polar", lambda r, t: ops.view_as_real(ops.polar(r, t)),
         lambda r, t: np.stack([r * np.cos(t), r * np.sin(t)], -1), N((2, 3), (2, 3)),
         f16=REFUSED),
    Case("Real", "real_imag_angle", lambda a, b: ops.real(ops.Complex()(a, b)) * 2
         + ops.imag(ops.Complex()(a, b)) + ops.angle(ops.Complex()(a, b)),
         lambda a, b: 2 * a + b + np.arctan2(b, a), away0((2, 3), (2, 3)), f16=REFUSED),
    Case("Imag", "imag_conj", lambda a, b: ops.imag(ops.conj(ops.Complex()(a, b))),
         lambda a, b: -b, N((2, 3), (2, 3)), f16=REFUSED),
    Case("Conj", "conj_view", lambda a, b: ops.view_as_real(ops.conj(ops.Complex()(a, b))),
         lambda a, b: np.stack([a, -b], -1), N((2, 3), (2, 3)), f16=REFUSED),
    Case("FFT", "fft_real", lambda x: ops.view_as_real(ops.fft(x)), _fft_ref, N((2, 6)),
         f16=_F16_FFT),
    Case("ViewAsReal", "view_as_real_polar", lambda r, t: ops.view_as_real(ops.polar(r, t)) * 3,
         lambda r, t: 3 * np.stack([r * np.cos(t), r * np.sin(t)], -1), N((2, 3), (2, 3)),
         f16=REFUSED),
    Case("FFT", "ifft2_complex_ortho",
         lambda a, b: ops.view_as_real(ops.ifft2(ops.Complex()(a, b), norm="ortho")),
         lambda a, b: _cview(np.fft.ifft2(a + 1j * b, norm="ortho").astype(_c32(a))),
         N((2, 3, 4), (2, 3, 4)), f16=_F16_FFT),
    Case("FFT", "fft_n_pad_forward", lambda x: ops.view_as_real(ops.fft(x, 7, 0, "forward")),
         lambda x: _fft_ref(x, n=7, axis=0, norm="forward"), N((5, 2)), f16=_F16_FFT),
    Case("RFFT", "rfft", lambda x: ops.view_as_real(ops.rfft(x)),
         lambda x: _cview(np.fft.rfft(x).astype(_c32(x))), N((2, 7)), f16=_F16_FFT),
    Case("RFFT", "rfftn_ortho", lambda x: ops.view_as_real(ops.rfftn(x, norm="ortho")),
         lambda x: _cview(np.fft.rfftn(x, norm="ortho").astype(_c32(x))), N((3, 4)),
         f16=_F16_FFT),
    Case("IRFFT", "irfft", lambda a, b: ops.irfft(ops.Complex()(a, b)),
         lambda a, b: np.fft.irfft(a + 1j * b).astype(a.dtype), N((2, 5), (2, 5)),
         f16=_F16_FFT),
    Case("IRFFT", "irfft2_odd", lambda a, b: ops.irfft2(ops.Complex()(a, b), (3, 5)),
         lambda a, b: np.fft.irfft2(a + 1j * b, (3, 5)).astype(a.dtype), N((3, 3), (3, 3)),
         f16=_F16_FFT),
    Case("IRFFT", "hfft", lambda a, b: ops.hfft(ops.Complex()(a, b)),
         lambda a, b: np.fft.hfft(a + 1j * b).astype(a.dtype), N((4,), (4,)), f16=_F16_FFT),
    Case("Qr", "qr_tall", ops.qr, lambda x: np.linalg.qr(x), N((4, 3)), f16=REFUSED),
    Case("Qr", "qr_wide_batch", ops.qr, lambda x: np.linalg.qr(x), N((2, 3, 4)), 2,
         f16=REFUSED),
    Case("Eig", "eigvals", lambda x: ops.view_as_real(ops.eigvals(x)),
         lambda x: _cview(np.linalg.eigvals(x).astype(_c32(x))),
         lambda rng: [np.diag([3.0, -1.0, 0.5]) + 0.1 * rng.standard_normal((3, 3))],
         diff=False, f16=REFUSED),
    Case("Geqrf", "geqrf", ops.geqrf,
         lambda x: tuple(v.astype(x.dtype) for v in (np.linalg.qr(x, mode="raw")[0].T,
                                                    np.linalg.qr(x, mode="raw")[1])),
         N((4, 3)), diff=False, f16=REFUSED),
]
CASES += SPECIAL_CASES

IDS = [c.name for c in CASES]
assert len(set(IDS)) == len(IDS), "duplicate case names"


# --- primitives without a row, and the fallbacks allowed ------------------------------------
_COLLECTIVE = ("a collective across processes: tests/test_comm.py and tests/test_comm_mpi.py "
               "run it on several MPI processes")
_RANDOM = ("a random draw (an effect): tests/test_seeds.py and tests/test_random_compositions.py "
           "check its values and seeding")
EXEMPT: dict[str, str] = {
    "AllGather": _COLLECTIVE, "AllReduce": _COLLECTIVE, "AllReduceBucket": _COLLECTIVE,
    "AlltoAll": _COLLECTIVE, "Broadcast": _COLLECTIVE, "ReduceScatter": _COLLECTIVE,
    "CollectiveGather": _COLLECTIVE, "CollectiveScatter": _COLLECTIVE,
    "RandomDraw": _RANDOM, "Multinomial": _RANDOM, "Randperm": _RANDOM, "DropoutMask": _RANDOM,
    "ApplyGradientDescent": "an in-place Parameter update: tests/test_optim.py",
    "SetItemWinners": ("which of repeated writes x[index] = v keeps: the SetItem rows with "
                       "repeated indices check it"),
    "ScatterWinners": ("which of repeated updates tensor_scatter_update keeps: the "
                       "TensorScatterUpdate rows with repeated indices check it"),
}

_TAPE = ("a tape entry of reverse mode for a function with its own reverse rule (a Cell's "
         "bprop, custom_vjp), never bound as an operation: tests/test_custom_function.py and "
         "tests/test_bprop_checks.py")
# Primitives that are never run as an operation: no row, and none of the rules apply.
NOT_OPERATIONS: dict[str, str] = {
    "Guard": ("a guard the GRAPH-mode trace records in compiled graphs, never run eagerly: "
              "tests/test_compile_cache.py"),
    "CustomVJP": _TAPE, "CustomVJPMulti": _TAPE,
}

_ACROSS = ("a collective over processes: under vmap each example makes its own collective "
           "call (correct; a rule moving the batch axis behind the gathered or split axis "
           "would need one call, untested here without several MPI processes)")
_DRAW = "a random draw: one independent draw per example is what the loop gives"
# Primitives allowed to run one call per example under vmap (``ad/batching.py``'s loop).
BATCH_LOOP: dict[str, str] = {
    "AllGather": _ACROSS, "AllReduceBucket": _ACROSS, "AlltoAll": _ACROSS,
    "ReduceScatter": _ACROSS, "CollectiveGather": _ACROSS, "CollectiveScatter": _ACROSS,
    "RandomDraw": _DRAW, "Randperm": _DRAW, "DropoutMask": _DRAW,
    "ApplyGradientDescent": "updates one Parameter in place: nothing per example to map",
    "Fill": "takes no Tensor operand, so vmap never batches it",
}

_LINEAR = "linear in its differentiated inputs: the rule from the JVP is exact and as cheap"
_MULTILINEAR = ("linear in each input: its JVP rule is the primitive itself with one input "
                "replaced, so the derived series costs what a dedicated rule would")
# Differentiable primitives allowed to use the Taylor rule derived from their JVP rule
# (``ad/taylor.py``'s ``from_jvp``), order by order.
TAYLOR_FROM_JVP: dict[str, str] = {
    **{n: _LINEAR for n in (
        "SumPool", "SumPoolTranspose", "PlaneGather", "PlaneScatter", "GatherNd", "ScatterNd",
        "TensorScatterAdd", "TensorScatterUpdate", "Pad", "AllGather", "AllReduce",
        "AllReduceBucket", "AlltoAll", "Broadcast", "ReduceScatter", "CollectiveGather",
        "CollectiveScatter")},
    **{n: _MULTILINEAR for n in (
        "Conv2D", "Conv2DBackpropInput", "Conv2DBackpropFilter", "Einsum")},
    **{n: "piecewise: the JVP rule picks the branch, its series is the branch's" for n in (
        "ReduceMax", "ReduceMin", "FloorMod", "Mod", "DivNoNan")},
    **{n: "a composite of smooth operations: the JVP rule's own operations carry the series"
       for n in ("Atan2", "PowDx", "SoftmaxCrossEntropy", "BinaryCrossEntropy", "Solve",
                 "MatrixInverse",
                 "MatrixDeterminant", "Cholesky", "Svd", "SvdVals")},
    **{n: "its JVP rule is itself written with special functions, which carry the series"
       for n in ("Igamma", "Igammac", "IgammaGradA", "Zeta", "Qr")},
}


@dataclass
class Walk:
    """What ``walk`` found. ``problems`` must be empty; the rest is the report."""
    problems: list = field(default_factory=list)   # (name, what is missing)
    rows: dict = field(default_factory=dict)       # name -> number of rows
    exempt: dict = field(default_factory=dict)     # name -> reason
    not_operations: dict = field(default_factory=dict)  # name -> reason
    batch_loop: dict = field(default_factory=dict)  # name -> reason
    taylor_from_jvp: dict = field(default_factory=dict)  # name -> reason
    stale: list = field(default_factory=list)      # table entries naming no primitive


def walk(registry: Mapping, cases: list = CASES, exempt: Mapping = EXEMPT,
         batch_loop: Mapping = BATCH_LOOP, taylor_from_jvp: Mapping = TAYLOR_FROM_JVP,
         not_operations: Mapping = NOT_OPERATIONS) -> Walk:
    """Check every primitive of ``registry`` (name -> Primitive, as ``registered()`` gives)
    against the table: it has a row or an exemption, a differentiable one has reverse and
    forward rules, and each has a batch rule and (if differentiable) a Taylor rule unless
    the fallback is allowed above, with its reason. A primitive never run as an operation
    needs only its entry in ``not_operations``."""
    out = Walk()
    counts: dict = {}
    for c in cases:
        counts[c.prim] = counts.get(c.prim, 0) + 1
    for name, p in sorted(registry.items()):
        if name in not_operations:
            out.not_operations[name] = not_operations[name]
            continue
        if name in counts:
            out.rows[name] = counts[name]
        elif name in exempt:
            out.exempt[name] = exempt[name]
        else:
            out.problems.append((name, "no row and no exemption"))
        if not p.nondiff:
            if p.vjp is None and p.vjp_all is None:
                out.problems.append((name, "no reverse (vjp) rule"))
            if p.jvp is None and p.jvp_all is None:
                out.problems.append((name, "no forward (jvp) rule"))
            if p.taylor is None:
                if name in taylor_from_jvp:
                    out.taylor_from_jvp[name] = taylor_from_jvp[name]
                else:
                    out.problems.append((name, "no Taylor rule (and the JVP-derived one is "
                                               "not allowed for it)"))
        if p.batch is None:
            if name in batch_loop:
                out.batch_loop[name] = batch_loop[name]
            else:
                out.problems.append((name, "no batch rule (vmap would loop per example)"))
    names = set(registry)
    out.stale = sorted({c.prim for c in cases if c.prim != "composite"} - names
                       | (set(exempt) | set(batch_loop) | set(taylor_from_jvp)
                          | set(not_operations)) - names)
    return out
