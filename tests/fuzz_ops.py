"""The bad-input fuzzer's engine: a table of the public operators of ``mindgrad.ops`` and of
the Tensor methods that mirror them (each with a generator of valid arguments and, where one
is cheap, a NumPy reference), the ways an argument is spoiled, and the judge of one call.

A call passes when it returns the right thing (compared with the NumPy reference where
there is one; at least a Tensor of the reference's shape and of a dtype that holds its
values) or raises TypeError, ValueError or IndexError with a message naming the operator.
Anything else is a finding: another exception type, a message that names nothing the user
called, a result of the wrong shape or dtype, or wrong values."""
from __future__ import annotations

import math
import re
import warnings
from dataclasses import dataclass, field
from typing import Any, Callable

import numpy as np
import scipy.special as sp

import mindgrad as ms
from mindgrad import Tensor, ops

CLEAR = (TypeError, ValueError, IndexError)
FLOATS = (np.float32, np.float64)
BAD_DTYPES = (np.int32, np.int64, np.bool_, np.float16, np.complex64)


# --- the operator table -------------------------------------------------------------------
@dataclass
class Spec:
    """One operator: ``make(rng)`` gives a valid call as a list of argument slots
    ``(kind, keyword or None, value)``; ``ref(*args, **kwargs)`` the NumPy result or None."""
    name: str
    fn: Callable
    make: Callable
    ref: Callable | None = None
    names: tuple = ()          # other names its errors may carry (the function it calls)
    out: str = "float"         # "float": a float input keeps its dtype; "bool"; "index"; ""
    int_ok: bool = True        # whether integer inputs have a cheap reference too
    float_only: bool = False   # a float function: integer inputs give floats or a TypeError
    int_trunc: bool = False    # integer inputs give the float result truncated, in their dtype
    errors: tuple = ()         # error types besides TypeError/ValueError/IndexError it may raise

    def all_names(self) -> set:
        return {self.name, getattr(self.fn, "__name__", self.name), *self.names}


def _shape(rng, lo=0, hi=3) -> tuple:
    return tuple(int(d) for d in rng.integers(1, 4, size=int(rng.integers(lo, hi + 1))))


def _arr(rng, shape, dtype=None) -> np.ndarray:
    dtype = dtype or FLOATS[int(rng.integers(2))]
    return np.asarray(rng.normal(size=shape), dtype)  # 0-d: an array, not a NumPy scalar


def _pos(rng, shape, dtype=None) -> np.ndarray:
    x = _arr(rng, shape, dtype)
    return np.asarray(np.abs(x) + 0.5, x.dtype)


def _unit(rng, shape, dtype=None) -> np.ndarray:
    x = _arr(rng, shape, dtype)
    return np.asarray(np.tanh(x) * 0.9, x.dtype)


def _above1(rng, shape, dtype=None) -> np.ndarray:
    x = _pos(rng, shape, dtype)
    return np.asarray(x + 1, x.dtype)


SPECS: list[Spec] = []


def spec(name: str, make: Callable, ref: Callable | None = None, **kw: Any) -> None:
    SPECS.append(Spec(name, getattr(ops, name), make, ref, **kw))


# elementwise unary: (name, domain of valid inputs, NumPy reference)
def _gelu(x):
    return 0.5 * x * (1 + sp.erf(x / np.sqrt(2)))


_UNARY = [
    ("abs", _arr, np.abs), ("absolute", _arr, np.abs), ("neg", _arr, np.negative),
    ("negative", _arr, np.negative), ("exp", _arr, np.exp), ("exp2", _arr, np.exp2),
    ("expm1", _arr, np.expm1), ("log", _pos, np.log), ("log2", _pos, np.log2),
    ("log10", _pos, np.log10), ("log1p", _pos, np.log1p), ("sqrt", _pos, np.sqrt),
    ("rsqrt", _pos, lambda x: 1 / np.sqrt(x)), ("square", _arr, np.square),
    ("reciprocal", _pos, np.reciprocal), ("sin", _arr, np.sin), ("cos", _arr, np.cos),
    ("tan", _unit, np.tan), ("sinh", _arr, np.sinh), ("cosh", _arr, np.cosh),
    ("tanh", _arr, np.tanh), ("asin", _unit, np.arcsin), ("arcsin", _unit, np.arcsin),
    ("acos", _unit, np.arccos), ("arccos", _unit, np.arccos), ("atan", _arr, np.arctan),
    ("arctan", _arr, np.arctan), ("asinh", _arr, np.arcsinh), ("arcsinh", _arr, np.arcsinh),
    ("acosh", lambda r, s, d=None: _above1(r, s, d), np.arccosh),
    ("arccosh", lambda r, s, d=None: _above1(r, s, d), np.arccosh),
    ("atanh", _unit, np.arctanh), ("arctanh", _unit, np.arctanh), ("erf", _arr, sp.erf),
    ("erfc", _arr, sp.erfc), ("sigmoid", _arr, sp.expit),
    ("relu", _arr, lambda x: np.maximum(x, 0).astype(x.dtype)),
    ("relu6", _arr, lambda x: np.clip(x, 0, 6).astype(x.dtype)),
    ("sign", _arr, np.sign), ("floor", _arr, np.floor), ("ceil", _arr, np.ceil),
    ("round", _arr, np.round), ("silu", _arr, lambda x: x * sp.expit(x)),
    ("mish", _arr, lambda x: x * np.tanh(np.logaddexp(0, x))),
    ("hardswish", _arr, lambda x: x * np.clip(x + 3, 0, 6) / 6),
    ("gelu", _arr, _gelu), ("softplus", _arr, lambda x: np.logaddexp(0, x)),
    ("elu", _arr, lambda x: np.where(x > 0, x, np.expm1(x))),
    ("leaky_relu", _arr, lambda x: np.where(x > 0, x, 0.2 * x)),
]
# exact on integers: the others are float functions (MindSpore refuses integers for most;
# a float result of the right value is accepted too)
# keep integer and bool dtypes, as MindSpore 2.10 does (tests/fixtures/dtype_rules.json)
_INTEGER_SAFE = {"abs", "absolute", "neg", "negative", "square", "sign", "floor", "ceil",
                 "round", "relu", "relu6", "leaky_relu", "hardswish"}
# float functions whose integer results the dtype rules have not settled yet (none now)
FLOAT_RESULT_PENDING: set = set()
# MindSpore computes these in an integer input's dtype, truncating (leaky_relu of int32 -3
# is 0): the NumPy reference is truncated the same way
_INTEGER_TRUNCATES = {"leaky_relu", "hardswish"}
for _name, _dom, _ref in _UNARY:
    spec(_name, (lambda d: lambda rng: [("tensor", None, d(rng, _shape(rng)))])(_dom), _ref,
         float_only=_name not in _INTEGER_SAFE | FLOAT_RESULT_PENDING,
         int_trunc=_name in _INTEGER_TRUNCATES)

for _name, _ref in [("isnan", np.isnan), ("isinf", np.isinf), ("isfinite", np.isfinite),
                    ("logical_not", np.logical_not)]:
    spec(_name, lambda rng: [("tensor", None, _arr(rng, _shape(rng)))], _ref, out="bool")


def _pair(dom=_arr):
    def make(rng):
        s = _shape(rng)
        t = s[int(rng.integers(len(s) + 1)):] if rng.integers(2) else s  # a broadcast suffix
        dt = FLOATS[int(rng.integers(2))]
        return [("tensor", None, dom(rng, s, dt)), ("tensor", None, dom(rng, t, dt))]
    return make


def _floor_divide(a, b):
    """MindSpore's floor division: an integer or bool division by zero gives the dtype's
    limit in the dividend's direction (NumPy gives 0)."""
    out = np.floor_divide(a, b)
    if np.asarray(out).dtype.kind not in "iub":
        return out
    dt = np.asarray(out).dtype
    hi, lo = (True, False) if dt.kind == "b" else (np.iinfo(dt).max, np.iinfo(dt).min)
    limit = np.where(np.greater(a, 0), hi, np.where(np.less(a, 0), lo, 0)).astype(dt)
    return np.where(np.equal(b, 0), limit, out).astype(dt)


_BINARY = [
    ("add", np.add), ("sub", np.subtract), ("mul", np.multiply), ("div", np.divide),
    ("divide", np.divide), ("realdiv", np.divide), ("truediv", np.divide),
    ("multiply", np.multiply), ("subtract", np.subtract),
    ("maximum", np.maximum), ("minimum", np.minimum), ("atan2", np.arctan2),
    ("floor_div", _floor_divide), ("floordiv", _floor_divide),
    ("floor_divide", _floor_divide), ("floor_mod", np.mod), ("floormod", np.mod),
    ("remainder", np.mod), ("fmod", np.fmod),
    ("div_no_nan", lambda a, b: np.where(b == 0, 0, a / np.where(b == 0, 1, b)).astype(
        np.result_type(a, b))),
]
for _name, _ref in _BINARY:
    spec(_name, _pair(), _ref, names={"fmod": ("mod",), "div": ("realdiv",), "divide": ("realdiv",),
                                      "truediv": ("realdiv",)}.get(_name, ()))
spec("pow", _pair(_pos), np.power)
spec("power", _pair(_pos), np.power)
for _name, _ref in [("equal", np.equal), ("eq", np.equal), ("not_equal", np.not_equal),
                    ("ne", np.not_equal), ("less", np.less), ("lt", np.less),
                    ("less_equal", np.less_equal), ("le", np.less_equal),
                    ("greater", np.greater), ("gt", np.greater),
                    ("greater_equal", np.greater_equal), ("ge", np.greater_equal),
                    ("logical_and", np.logical_and), ("logical_or", np.logical_or),
                    ("logical_xor", np.logical_xor)]:
    spec(_name, _pair(), _ref, out="bool")
spec("isclose", lambda rng: _pair()(rng)[:1] * 2, lambda a, b: np.isclose(a, b), out="bool")


# reductions over an axis spec
def _axis_of(rng, ndim):
    return int(rng.integers(-ndim, ndim)) if ndim else 0


def _reduce(keep_name="keep_dims", axis_name="axis", tuple_ok=True):
    def make(rng):
        s = _shape(rng)
        x = _arr(rng, s)
        r = rng.integers(3)
        if r == 0 or not s:
            axis = None
        elif r == 1 or not tuple_ok:
            axis = _axis_of(rng, len(s))
        else:
            axis = tuple(sorted(set(int(a) for a in rng.integers(0, len(s), size=2))))
        return [("tensor", None, x), ("axis", axis_name, axis),
                ("bool", keep_name, bool(rng.integers(2)))]
    return make


def _nan_safe(f):
    def ref(x, axis=None, keep=False, **kw):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            # a 0-d input's axis 0 or -1 is all of it, as in MindSpore (NumPy refuses it), and
            # so is an empty tuple of axes (to NumPy: no axis)
            if np.ndim(x) == 0 or axis == ():
                axis = None
            return f(x, axis=axis, keepdims=keep, **kw)
    return ref


# the dtype rules know reduce_mean, reduce_max and reduce_min as mean, amax and amin
for _name, _f, _alias in [("reduce_sum", np.sum, ()), ("reduce_mean", np.mean, ("mean",)),
                          ("reduce_max", np.max, ("amax",)), ("reduce_min", np.min, ("amin",)),
                          ("reduce_prod", np.prod, ())]:
    spec(_name, _reduce(), _nan_safe(_f), int_ok=_name != "reduce_mean", names=_alias)
spec("sum", _reduce("keepdim", "dim"), _nan_safe(np.sum))
spec("mean", _reduce(), _nan_safe(np.mean), int_ok=False)
spec("prod", _reduce(), _nan_safe(np.prod))
spec("amax", _reduce("keepdims"), _nan_safe(np.max))
spec("amin", _reduce("keepdims"), _nan_safe(np.min))
def _with_ddof(rng):
    x, axis, keep = _reduce("keepdims")(rng)
    if np.ndim(x[2]) == 0:
        axis = ("axis", "axis", None)  # MindSpore's var and std take no axis of a 0-d input
    return [x, axis, ("int", "ddof", int(rng.integers(2))), keep]


spec("var", _with_ddof, lambda x, a=None, d=0, k=False: _nan_safe(np.var)(x, a, k, ddof=d),
     int_ok=False)
spec("std", _with_ddof, lambda x, a=None, d=0, k=False: _nan_safe(np.std)(x, a, k, ddof=d),
     int_ok=False)
spec("logsumexp", _reduce(), lambda x, *a: x if x.ndim == 0 else _nan_safe(sp.logsumexp)(x, *a),
     int_ok=False)
spec("all", _reduce(), _nan_safe(np.all), out="bool")
spec("any", _reduce(), _nan_safe(np.any), out="bool")
spec("argmax", _reduce("keepdim", "dim", False),
     lambda x, dim=None, keep=False: np.argmax(x, axis=dim, keepdims=keep), out="index")
spec("argmin", _reduce("keepdims", "axis", False),
     lambda x, axis=None, keep=False: np.argmin(x, axis=axis, keepdims=keep), out="index")
def _extreme_ref(f, arg):
    def ref(x, axis=None, keep=False):
        if axis is None or x.ndim == 0:
            return [np.asarray(f(x)), np.asarray(0)]
        return [f(x, axis=axis, keepdims=keep), arg(x, axis=axis, keepdims=keep)]
    return ref


spec("max", _reduce("keepdims", "axis", False), _extreme_ref(np.max, np.argmax), out="")
spec("min", _reduce("keepdims", "axis", False), _extreme_ref(np.min, np.argmin), out="")


def _along(rng, min_rank=1):
    s = _shape(rng, min_rank)
    return [("tensor", None, _arr(rng, s)), ("axis", None, _axis_of(rng, len(s)))]


def _softmax_ref(x, axis=-1):
    e = np.exp(x - np.max(x, axis=axis, keepdims=True))
    return e / e.sum(axis=axis, keepdims=True)


spec("softmax", _along, _softmax_ref, int_ok=False)
spec("log_softmax", _along, lambda x, axis=-1: np.log(_softmax_ref(x, axis)), int_ok=False)
# a running sum of a 0-d input is itself (NumPy flattens it to 1-D)
spec("cumsum", _along, lambda x, axis: np.cumsum(x, axis=axis) if x.ndim else x, out="")
spec("cumprod", _along, lambda x, axis: np.cumprod(x, axis=axis) if x.ndim else x, out="")
spec("norm", lambda rng: [("tensor", None, _arr(rng, _shape(rng)))],
     lambda x: np.sqrt(np.sum(np.abs(x) ** 2)), int_ok=False)


def _norm_dim(rng):
    s = _shape(rng, 1)
    return [("tensor", None, _arr(rng, s)), ("float", "ord", float(rng.choice([1, 2, np.inf]))),
            ("axis", "dim", _axis_of(rng, len(s)))]


spec("norm", _norm_dim, lambda x, ord=None, dim=None: np.linalg.norm(x, ord, dim), int_ok=False)

# shapes
spec("reshape", lambda rng: [("tensor", None, _arr(rng, (2, 3))),
                             ("shape", None, [(3, 2), (6,), (-1, 2), (1, 6, 1)][rng.integers(4)])],
     lambda x, s: np.reshape(x, s))
spec("transpose", lambda rng: [("tensor", None, _arr(rng, (2, 3, 4))),
                               ("perm", None, tuple(rng.permutation(3).tolist()))],
     lambda x, p: np.transpose(x, p))
spec("permute", lambda rng: [("tensor", None, _arr(rng, (2, 3))), ("perm", None, (1, 0))],
     lambda x, p: np.transpose(x, p), names=("transpose",))
spec("swapaxes", lambda rng: [("tensor", None, _arr(rng, (2, 3, 4))),
                              ("axis", None, int(rng.integers(-3, 3))),
                              ("axis", None, int(rng.integers(-3, 3)))],
     lambda x, a, b: np.swapaxes(x, a, b))
for _name in ("expand_dims", "unsqueeze"):
    spec(_name, lambda rng: [("tensor", None, _arr(rng, (2, 3))),
                             ("axis", None, int(rng.integers(-3, 3)))],
         lambda x, a: np.expand_dims(x, a), names=("expand_dims",))
spec("squeeze", lambda rng: [("tensor", None, _arr(rng, (1, 3, 1))),
                             ("axis", None, [None, 0, 2, -1, (0, 2)][rng.integers(5)])],
     lambda x, a=None: np.squeeze(x, None if a == () else a))
spec("broadcast_to", lambda rng: [("tensor", None, _arr(rng, (1, 3))),
                                  ("shape", None, [(2, 3), (4, 1, 3), (-1, 3)][rng.integers(3)])],
     lambda x, s: np.broadcast_to(x, tuple(x.shape[i] if d == -1 else d
                                           for i, d in enumerate(s))))
spec("flatten", lambda rng: [("tensor", None, _arr(rng, (2, 3, 4)))],
     lambda x: x.reshape(x.shape[0], -1) if x.ndim > 1 else x.reshape(-1))
spec("tile", lambda rng: [("tensor", None, _arr(rng, (2, 3))), ("shape", None, (2, 1))],
     lambda x, r: np.tile(x, r))


def _tensors(rng):
    s = _shape(rng, 1)
    return [("tensors", None, [_arr(rng, s, np.float32) for _ in range(int(rng.integers(1, 4)))]),
            ("axis", None, _axis_of(rng, len(s)))]


for _name in ("concat", "cat"):
    spec(_name, _tensors, lambda ts, a=0: np.concatenate(ts, a), names=("concat",))
spec("stack", _tensors, lambda ts, a=0: np.stack(ts, a))
spec("addn", lambda rng: [("tensors", None, [_arr(rng, (2, 3), np.float32)
                                             for _ in range(int(rng.integers(1, 4)))])],
     lambda ts: np.sum(np.stack(ts), 0), names=("AddN",))
spec("unstack", _along, lambda x, a=0: [np.take(x, i, a) for i in range(x.shape[a])], out="")
spec("split", lambda rng: [("tensor", None, _arr(rng, (6, 2))), ("int", None, 2)],
     lambda x, n: np.split(x, range(n, x.shape[0], n)), out="")
spec("flip", lambda rng: [("tensor", None, _arr(rng, (2, 3))),
                          ("axis", None, [(0,), (1,), (0, 1), (-1,)][rng.integers(4)])],
     lambda x, a: np.flip(x, a))
spec("gather", lambda rng: [("tensor", None, _arr(rng, (4, 3))),
                            ("index", None, rng.integers(0, 4, size=5)), ("axis", None, 0)],
     lambda x, i, a=0: np.take(x, i, a))
spec("index_select", lambda rng: [("tensor", None, _arr(rng, (4, 3))), ("axis", None, 1),
                                  ("index", None, rng.integers(0, 3, size=2))],
     lambda x, a, i: np.take(x, i, a))
spec("gather_nd", lambda rng: [("tensor", None, _arr(rng, (4, 3))),
                               ("index", None, rng.integers(0, 3, size=(2, 2)))],
     lambda x, i: np.asarray([x[tuple(r)] for r in i.reshape(-1, i.shape[-1])], x.dtype).reshape(
         i.shape[:-1] + x.shape[i.shape[-1]:]))
spec("getitem", lambda rng: [("tensor", None, _arr(rng, (4, 3))),
                             ("key", None, [1, -1, slice(1, 3), (0, 2)][rng.integers(4)])],
     lambda x, i: x[i])
spec("pad", lambda rng: [("tensor", None, _arr(rng, (2, 3))), ("shape", None, (1, 2))],
     lambda x, p: np.pad(x, ((0, 0), p)))

# creation, dtype and constants
spec("zeros", lambda rng: [("shape", None, (2, 3))], lambda s: np.zeros(s, np.float32))
spec("ones", lambda rng: [("shape", None, (2, 3))], lambda s: np.ones(s, np.float32))
spec("fill", lambda rng: [("dtype", None, ms.float32), ("shape", None, (2, 3)),
                          ("float", None, 1.5)],
     lambda t, s, v: np.full(s, v, np.float32))
spec("full", lambda rng: [("shape", None, (2, 3)), ("float", None, 1.5)],
     lambda s, v: np.full(s, v, np.float32))
spec("eye", lambda rng: [("int", None, 3)], lambda n: np.eye(n, dtype=np.float32))
spec("arange", lambda rng: [("int", None, 1), ("int", None, 7), ("int", None, 2)],
     lambda a, b, c: np.arange(a, b, c), out="")
spec("linspace", lambda rng: [("float", None, 0.0), ("float", None, 1.0), ("int", None, 5)],
     lambda a, b, n: np.linspace(a, b, n, dtype=np.float32))
spec("cast", lambda rng: [("tensor", None, _arr(rng, _shape(rng))), ("dtype", None, ms.float64)],
     lambda x, t: x.astype(np.float64), out="")
spec("zeros_like", lambda rng: [("tensor", None, _arr(rng, _shape(rng)))], np.zeros_like)
spec("ones_like", lambda rng: [("tensor", None, _arr(rng, _shape(rng)))], np.ones_like)
# (a tuple or list is mapped over, element by element: no single reference)
spec("stop_gradient", lambda rng: [("tensor", None, _arr(rng, _shape(rng)))], out="")
for _name in ("clamp", "clip"):
    spec(_name, lambda rng: [("tensor", None, _arr(rng, _shape(rng))), ("float", None, -0.5),
                             ("float", None, 0.5)],
         lambda x, lo=None, hi=None: np.clip(x, lo, hi), names=("clamp",))
spec("clip_by_value", lambda rng: [("tensor", None, _arr(rng, _shape(rng))),
                                   ("float", None, -0.5), ("float", None, 0.5)],
     lambda x, lo=None, hi=None: np.clip(x, lo, hi), names=("clamp",))


def _select(rng):
    s = _shape(rng)
    return [("mask", None, rng.integers(2, size=s).astype(bool)),
            ("tensor", None, _arr(rng, s, np.float32)), ("tensor", None, _arr(rng, s, np.float32))]


spec("select", _select, np.where)
spec("where", _select, np.where, names=("select",))
spec("masked_fill", lambda rng: [("tensor", None, _arr(rng, (2, 3))),
                                 ("mask", None, rng.integers(2, size=(2, 3)).astype(bool)),
                                 ("float", None, 9.0)],
     lambda x, m, v: np.where(m, np.asarray(v, x.dtype), x))
spec("one_hot", lambda rng: [("index", None, rng.integers(0, 4, size=3)), ("int", None, 4)],
     lambda i, d: (i[..., None] == np.arange(d)).astype(np.int64), out="")
def _scatter_nd_ref(i, u, shape):
    out = np.zeros(shape, u.dtype)
    np.add.at(out, tuple(np.moveaxis(i, -1, 0)), u)
    return out


def _tensor_scatter_ref(add):
    def ref(x, i, u):
        out = x.copy()
        if add:
            np.add.at(out, tuple(np.moveaxis(i, -1, 0)), u)
        else:
            out[tuple(np.moveaxis(i, -1, 0))] = u
        return out
    return ref


spec("scatter_nd", lambda rng: [("index", None, np.array([[0], [2]])),
                                ("tensor", None, _arr(rng, (2, 3), np.float32)),
                                ("shape", None, (4, 3))], _scatter_nd_ref, out="")
for _name in ("tensor_scatter_add", "tensor_scatter_update"):
    spec(_name, lambda rng: [("tensor", None, _arr(rng, (4, 3), np.float32)),
                             ("index", None, np.array([[0], [2]])),
                             ("tensor", None, _arr(rng, (2, 3), np.float32))],
         _tensor_scatter_ref(_name.endswith("add")), out="")

# linear algebra
for _name in ("matmul", "batch_matmul", "bmm"):
    spec(_name, lambda rng: [("tensor", None, _arr(rng, (2, 3), np.float32)),
                             ("tensor", None, _arr(rng, (3, 4), np.float32))], np.matmul,
         names=("matmul",))
spec("dot", lambda rng: [("tensor", None, _arr(rng, (2, 3), np.float32)),
                         ("tensor", None, _arr(rng, (3,), np.float32))], np.matmul,
     names=("matmul",))
spec("outer", lambda rng: [("tensor", None, _arr(rng, (2,))), ("tensor", None, _arr(rng, (3,)))],
     lambda a, b: np.outer(a, b).astype(np.result_type(a, b)))
spec("einsum", lambda rng: [("str", None, "ij,jk->ik"),
                            ("tensor", None, _arr(rng, (2, 3), np.float32)),
                            ("tensor", None, _arr(rng, (3, 4), np.float32))],
     lambda e, a, b: np.einsum(e, a, b))


def _square(rng):
    a = _arr(rng, (3, 3), np.float64)
    return a @ a.T + 3 * np.eye(3)


for _name, _ref in [("inverse", np.linalg.inv), ("det", np.linalg.det),
                    ("matrix_determinant", np.linalg.det), ("cholesky", np.linalg.cholesky)]:
    spec(_name, lambda rng: [("tensor", None, _square(rng))], _ref, int_ok=False,
         names=("det", "MatrixInverse", "MatrixDeterminant"))
spec("solve", lambda rng: [("tensor", None, _square(rng)),
                           ("tensor", None, _arr(rng, (3,), np.float64))],
     np.linalg.solve, int_ok=False)
spec("svd", lambda rng: [("tensor", None, _arr(rng, (3, 2), np.float64)), ("bool", None, False),
                         ("bool", None, False)],
     lambda x, full=False, uv=True: np.linalg.svd(x, compute_uv=False) if not uv else None,
     out="", int_ok=False, names=("Svd", "SvdVals"))

# convolution and pooling
spec("conv2d", lambda rng: [("tensor", None, _arr(rng, (1, 2, 5, 5), np.float32)),
                            ("tensor", None, _arr(rng, (3, 2, 3, 3), np.float32))], out="float")
spec("conv1d", lambda rng: [("tensor", None, _arr(rng, (1, 2, 5), np.float32)),
                            ("tensor", None, _arr(rng, (3, 2, 3), np.float32))], out="float")
spec("max_pool2d", lambda rng: [("tensor", None, _arr(rng, (1, 2, 4, 4), np.float32)),
                                ("int", None, 2)], out="float")
spec("avg_pool2d", lambda rng: [("tensor", None, _arr(rng, (1, 2, 4, 4), np.float32)),
                                ("int", None, 2)], out="float")
# resizing
for _name in ("interpolate", "upsample"):
    spec(_name, lambda rng: [("tensor", None, _arr(rng, (1, 2, 3, 4), np.float32)),
                             ("int", None, 5)], out="float")

# opsvision family: sampling, boxes, CTC decoding, unpooling and fractional pooling
def _boxes_np(rng, n):
    lo = rng.uniform(0, 4, size=(n, 2))
    return np.concatenate([lo, lo + rng.uniform(0.5, 3, size=(n, 2))], 1).astype(np.float32)


def _unpool_index(rng, shape, nd):
    """Positions a kernel-2, stride-2 max pooling of ``shape`` could return."""
    grids = np.meshgrid(*(np.arange(n) for n in shape[2:]), indexing="ij")
    pos = [g * 2 + rng.integers(0, 2, size=shape) for g in grids]
    return np.ravel_multi_index(tuple(pos), tuple(2 * n for n in shape[2:])).astype(np.int64)


def _iou_ref(a, g):
    if not (isinstance(a, np.ndarray) and isinstance(g, np.ndarray)) or a.dtype != g.dtype \
            or a.ndim != 2 or g.ndim != 2 or a.shape[1] != 4 or g.shape[1] != 4 \
            or a.dtype.kind != "f":
        return None
    w = np.maximum(np.minimum(a[None, :, 2], g[:, None, 2])
                   - np.maximum(a[None, :, 0], g[:, None, 0]) + 1, 0)
    h = np.maximum(np.minimum(a[None, :, 3], g[:, None, 3])
                   - np.maximum(a[None, :, 1], g[:, None, 1]) + 1, 0)
    area = lambda b: (b[:, 2] - b[:, 0] + 1) * (b[:, 3] - b[:, 1] + 1)  # noqa: E731
    inter = w * h
    return inter / (area(a)[None, :] + area(g)[:, None] - inter)


def _unpool_ref(nd):
    def ref(x, i, k):
        if not isinstance(k, int) or isinstance(k, bool) or k < 1 or \
                not isinstance(x, np.ndarray) or x.shape != getattr(i, "shape", None) \
                or x.ndim != nd + 2 or i.dtype.kind not in "iu" or x.dtype.kind != "f":
            return None
        size = tuple((n - 1) * k + k for n in x.shape[2:])
        out = np.zeros(x.shape[:2] + (int(np.prod(size)),), x.dtype)
        if i.size and (i.min() < 0 or i.max() >= out.shape[-1]):
            return None
        np.put_along_axis(out, i.reshape(x.shape[:2] + (-1,)), x.reshape(x.shape[:2] + (-1,)),
                          -1)
        return out.reshape(x.shape[:2] + size)
    return ref


spec("grid_sample", lambda rng: [("tensor", None, _arr(rng, (1, 2, 3, 4), np.float32)),
                                 ("tensor", None, _unit(rng, (1, 2, 2, 2), np.float32))],
     out="float")
spec("affine_grid", lambda rng: [("tensor", None, _arr(rng, (2, 2, 3), np.float32)),
                                 ("shape", None, (2, 1, 3, 2))], out="float")
spec("crop_and_resize", lambda rng: [
    ("tensor", None, _arr(rng, (2, 4, 5, 2), np.float32)),
    ("tensor", None, np.array([[0.1, 0.2, 0.9, 0.8], [0.0, 0.0, 1.0, 1.0]], np.float32)),
    ("index", None, np.array([1, 0], np.int32)), ("shape", None, (2, 3))], out="")
spec("deformable_conv2d", lambda rng: [
    ("tensor", None, _arr(rng, (1, 2, 4, 4), np.float32)),
    ("tensor", None, _arr(rng, (3, 2, 2, 2), np.float32)),
    ("tensor", None, _unit(rng, (1, 12, 3, 3), np.float32)), ("shape", None, (2, 2)),
    ("shape", None, (1, 1, 1, 1)), ("shape", None, (0, 0, 0, 0))], out="float")
spec("iou", lambda rng: [("tensor", None, _boxes_np(rng, 3)), ("tensor", None, _boxes_np(rng, 2))],
     _iou_ref, out="float", int_ok=False)
spec("bounding_box_encode", lambda rng: [("tensor", None, _boxes_np(rng, 3)),
                                         ("tensor", None, _boxes_np(rng, 3))], out="float")
spec("bounding_box_decode", lambda rng: [("tensor", None, _boxes_np(rng, 3)),
                                         ("tensor", None, _unit(rng, (3, 4), np.float32)),
                                         ("shape", None, (8, 9))], out="float")
spec("check_valid", lambda rng: [("tensor", None, _boxes_np(rng, 4)),
                                 ("tensor", None, np.array([6, 7, 1], np.float32))], out="bool")
spec("ctc_greedy_decoder", lambda rng: [("tensor", None, _arr(rng, (4, 2, 3), np.float32)),
                                        ("index", None, np.array([4, 2], np.int32))], out="")
for _nd, _shp in ((1, (1, 2, 3)), (2, (1, 2, 2, 3)), (3, (1, 1, 2, 2, 2))):
    spec(f"max_unpool{_nd}d",
         (lambda nd, shp: lambda rng: [
             ("tensor", None, _arr(rng, shp, np.float32)),
             ("index", None, _unpool_index(rng, shp, nd)), ("int", None, 2)])(_nd, _shp),
         _unpool_ref(_nd), int_ok=False)
for _nd, _shp in ((2, (1, 2, 5, 6)), (3, (1, 1, 4, 5, 4))):
    spec(f"fractional_max_pool{_nd}d",
         (lambda shp, nd: lambda rng: [("tensor", None, _arr(rng, shp, np.float32)),
                                       ("int", None, 2),
                                       ("shape", "output_size", (2,) * nd)])(_shp, _nd),
         out="float")



def _windows(reduce, nd: int, default_stride: bool = False):
    """A NumPy reference for an ``nd``-D pooling of int ``kernel`` (and ``stride``; the
    kernel when ``default_stride``): ``reduce`` over each window (None for other args)."""
    def ref(x, k, st=None):
        st = k if st is None and default_stride else st
        if not all(isinstance(v, int) and not isinstance(v, bool) and v > 0 for v in (k, st)):
            return None
        axes = tuple(range(x.ndim - nd, x.ndim))
        w = np.lib.stride_tricks.sliding_window_view(x, (k,) * nd, axis=axes)
        w = w[(Ellipsis,) + (slice(None, None, st),) * nd + (slice(None),) * nd]
        out = reduce(w, axis=tuple(range(-nd, 0)))
        # a maximum keeps an integer input's dtype; lp_pool of integers is float32
        return out.astype(x.dtype) if x.dtype.kind == "f" or reduce is np.max else out
    return ref


def _adaptive(reduce, nd: int):
    """An adaptive pooling to an int size that divides each spatial size: windows of
    ``size // out``."""
    def ref(x, out):
        if not isinstance(out, int) or isinstance(out, bool) or out <= 0 or \
                any(d % out for d in x.shape[-nd:]):
            return None
        k = x.shape[-1] // out
        return _windows(reduce, nd)(x, k, k)
    return ref


for _nd, _shp in ((1, (1, 2, 4)), (2, (1, 2, 4, 4)), (3, (1, 2, 4, 4, 4))):
    for _kind, _red in (("avg", np.mean), ("max", np.max)):
        spec(f"adaptive_{_kind}_pool{_nd}d",
             (lambda shp: lambda rng: [("tensor", None, _arr(rng, shp, np.float32)),
                                       ("int", None, 2)])(_shp), _adaptive(_red, _nd),
             int_ok=_kind == "max")
spec("avg_pool1d", lambda rng: [("tensor", None, _arr(rng, (1, 2, 6), np.float32)),
                                ("int", None, 2), ("int", None, 2)], _windows(np.mean, 1),
     int_ok=False)
spec("avg_pool3d", lambda rng: [("tensor", None, _arr(rng, (1, 2, 4, 4, 4), np.float32)),
                                ("int", None, 2), ("int", None, 2)], _windows(np.mean, 3),
     int_ok=False)
spec("max_pool3d", lambda rng: [("tensor", None, _arr(rng, (1, 2, 4, 4, 4), np.float32)),
                                ("int", None, 2)], _windows(np.max, 3, True))
for _nd, _shp in ((1, (1, 2, 6)), (2, (1, 2, 4, 4))):
    spec(f"lp_pool{_nd}d",
         (lambda shp: lambda rng: [("tensor", None, _arr(rng, shp, np.float32)),
                                   ("float", None, 2.0), ("int", None, 2)])(_shp),
         (lambda nd: lambda x, p, k: _windows(lambda w, axis: np.sqrt(np.sum(w * w, axis)),
                                              nd, True)(x, k) if p == 2.0 else None)(_nd))
spec("conv3d", lambda rng: [("tensor", None, _arr(rng, (1, 2, 4, 4, 4), np.float32)),
                            ("tensor", None, _arr(rng, (3, 2, 2, 2, 2), np.float32))], out="float")
spec("conv3d_transpose", lambda rng: [("tensor", None, _arr(rng, (1, 2, 3, 3, 3), np.float32)),
                                      ("tensor", None, _arr(rng, (2, 3, 2, 2, 2), np.float32))],
     out="float")

# tensor facts
spec("shape", lambda rng: [("tensor", None, _arr(rng, _shape(rng)))], out="")
spec("rank", lambda rng: [("tensor", None, _arr(rng, _shape(rng)))], out="")
spec("size", lambda rng: [("tensor", None, _arr(rng, _shape(rng)))], out="")
spec("dtype", lambda rng: [("tensor", None, _arr(rng, _shape(rng)))], out="")

# transforms: their function argument
for _name in ("grad", "value_and_grad", "vmap", "jacfwd", "jacrev", "hessian"):
    spec(_name, lambda rng: [("fn", None, ops.sin)], out="")


# operator classes: configured, then called
def _cls(cls_name: str, fn_name: str, init: tuple = (), cls_names: tuple = (),
         drop: int = 0) -> None:
    """The operator class ``cls_name`` (made with ``init``) called as function ``fn_name``
    is, less its last ``drop`` arguments (those the class takes when it is made)."""
    base = next(s for s in SPECS if s.name == fn_name)
    make = base.make if not drop else (lambda rng: base.make(rng)[:-drop])
    cls = getattr(ops, cls_name)

    def call(*args, **kwargs):
        return cls(*init)(*args, **kwargs)

    call.__name__ = cls_name
    SPECS.append(Spec(cls_name, call, make, base.ref,
                      names=(fn_name, *base.names, *cls_names,
                             getattr(base.fn, "__name__", fn_name)),
                      out=base.out, int_ok=base.int_ok, float_only=base.float_only,
                      int_trunc=base.int_trunc))


for _c, _f in [("Sin", "sin"), ("Exp", "exp"), ("Log", "log"), ("Sqrt", "sqrt"), ("Abs", "abs"),
               ("Neg", "neg"), ("Tanh", "tanh"), ("Sigmoid", "sigmoid"), ("ReLU", "relu"),
               ("Add", "add"), ("Sub", "sub"), ("Mul", "mul"), ("RealDiv", "div"),
               ("Maximum", "maximum"), ("Equal", "equal"), ("Less", "less"),
               ("Pow", "pow"), ("Square", "square"), ("Floor", "floor"), ("Erf", "erf"),
               ("Reshape", "reshape"), ("Transpose", "transpose"), ("Tile", "tile"),
               ("ExpandDims", "expand_dims"), ("Gather", "gather"), ("Select", "select"),
               ("ZerosLike", "zeros_like"), ("OnesLike", "ones_like")]:
    _cls(_c, _f)
_cls("Concat", "concat")
_cls("Stack", "stack")
_cls("AddN", "addn")
_cls("ReduceSum", "reduce_sum", (False,), drop=1)
_cls("ReduceMean", "reduce_mean", (False,), drop=1)
_cls("ReduceMax", "reduce_max", (False,), drop=1)
_cls("Softmax", "softmax")
_cls("MatMul", "matmul")


def _cls2(cls_name: str, make: Callable, n_init: int, ref: Callable | None = None,
          names: tuple = (), out: str = "", int_ok: bool = True) -> None:
    """An operator class whose first ``n_init`` argument slots configure it (and may be
    spoiled too); the others are the call's. ``ref`` takes them all."""
    cls = getattr(ops, cls_name)

    def call(*args, **kwargs):
        return cls(*args[:n_init])(*args[n_init:], **kwargs)

    call.__name__ = cls_name
    SPECS.append(Spec(cls_name, call, make, ref, names=names, out=out, int_ok=int_ok))


# the special functions, decompositions and FFTs (their own table, tests/fuzz_special.py)
import fuzz_special  # noqa: E402,F401

# every operator class that is a function under another name (``Sin()(x)`` is ``sin(x)``)
_DONE = {s.name for s in SPECS}
for _c in sorted(ops.__all__):
    _k = getattr(ops, _c)
    _m = re.fullmatch(r"Operator class for ``(\w+)``\.", getattr(_k, "__doc__", None) or "")
    if _c in _DONE or not isinstance(_k, type) or not _m:
        continue
    _f = next((s.name for s in SPECS if getattr(s.fn, "__name__", "") == _m.group(1)), None)
    if _f is not None:
        _cls(_c, _f)

_cls2("ReduceMin", lambda rng: [("bool", None, False), *_reduce()(rng)[:2]], 1,
      lambda k, x, a=None: _nan_safe(np.min)(x, a, k), names=("reduce_min", "amin"),
      out="float")
_cls2("ReduceProd", lambda rng: [("bool", None, True), *_reduce()(rng)[:2]], 1,
      lambda k, x, a=None: _nan_safe(np.prod)(x, a, k), names=("reduce_prod",), out="float")
_cls2("Squeeze", lambda rng: [("axis", None, 0), ("tensor", None, _arr(rng, (1, 3)))], 1,
      lambda a, x: np.squeeze(x, None if a == () else a), names=("squeeze",), out="float")
_cls2("BroadcastTo", lambda rng: [("shape", None, (2, 3)), ("tensor", None, _arr(rng, (3,)))],
      1, lambda s, x: np.broadcast_to(x, s), names=("broadcast_to",), out="float")
_cls2("Argmax", lambda rng: [("axis", None, -1), ("tensor", None, _arr(rng, _shape(rng, 1)))],
      1, lambda a, x: np.argmax(x, a), names=("argmax",), out="index")
_cls2("Argmin", lambda rng: [("axis", None, 0), ("tensor", None, _arr(rng, _shape(rng, 1)))],
      1, lambda a, x: np.argmin(x, a), names=("argmin",), out="index")
_cls2("ArgMaxWithValue", lambda rng: [("axis", None, 0), ("bool", None, False),
                                      ("tensor", None, _arr(rng, (3, 2)))], 2, names=("max",))
_cls2("ArgMinWithValue", lambda rng: [("axis", None, 1), ("bool", None, True),
                                      ("tensor", None, _arr(rng, (3, 2)))], 2, names=("min",))
_cls2("Split", lambda rng: [("axis", None, 0), ("int", None, 2),
                            ("tensor", None, _arr(rng, (4, 3)))], 2, names=("split",))
_cls2("CumSum", lambda rng: [("bool", None, False), ("bool", None, True),
                             *_along(rng)], 2, names=("cumsum",))
_cls2("CumProd", lambda rng: [("bool", None, True), ("bool", None, False),
                              *_along(rng)], 2, names=("cumprod",))
_cls2("ReverseV2", lambda rng: [("axis", None, (0,)), ("tensor", None, _arr(rng, (2, 3)))], 1,
      lambda a, x: np.flip(x, a), names=("flip",), out="float")
_cls2("Pad", lambda rng: [("shape", None, ((0, 0), (1, 2))), ("tensor", None, _arr(rng, (2, 3)))],
      1, lambda p, x: np.pad(x, p), names=("pad",), out="float")
_cls2("OneHot", lambda rng: [("axis", None, -1), ("index", None, rng.integers(0, 3, size=4)),
                             ("int", None, 3), ("float", None, 1.0), ("float", None, 0.0)], 1,
      names=("one_hot",))
_cls2("Einsum", lambda rng: [("str", None, "ij->ji"),
                             ("tensors", None, [_arr(rng, (2, 3), np.float32)])], 1,
      names=("einsum",))
_cls2("MatrixInverse", lambda rng: [("bool", None, False), ("tensor", None, _square(rng))], 1,
      lambda adj, x: np.swapaxes(np.linalg.inv(x), -1, -2) if adj else np.linalg.inv(x),
      names=("inverse",), out="float", int_ok=False)
_cls2("Cholesky", lambda rng: [("bool", None, False), ("tensor", None, _square(rng))], 1,
      lambda up, x: np.linalg.cholesky(x).T if up else np.linalg.cholesky(x),
      names=("cholesky",), out="float", int_ok=False)
_cls2("GeLU", lambda rng: [("tensor", None, _arr(rng, _shape(rng)))], 0, names=("gelu",),
      out="float")
_cls2("Elu", lambda rng: [("float", None, 1.0), ("tensor", None, _arr(rng, _shape(rng)))], 1,
      lambda a, x: np.where(x > 0, x, a * np.expm1(x)), names=("elu",), out="float")
_cls2("LeakyReLU", lambda rng: [("float", None, 0.2), ("tensor", None, _arr(rng, _shape(rng)))],
      1, lambda a, x: np.where(x > 0, x, a * x), names=("leaky_relu",), out="float")
SPECS[-1].int_trunc = True
_cls2("BiasAdd", lambda rng: [("tensor", None, _arr(rng, (2, 3, 4), np.float32)),
                              ("tensor", None, _arr(rng, (3,), np.float32))], 0,
      lambda x, b: x + b[:, None], names=("bias_add",))
_cls2("LogSoftmax", lambda rng: [("axis", None, -1), ("tensor", None, _arr(rng, (2, 3)))], 1,
      lambda a, x: np.log(_softmax_ref(x, a)), names=("log_softmax",), out="float",
      int_ok=False)
_cls2("BatchMatMul", lambda rng: [("bool", None, False), ("bool", None, True),
                                  ("tensor", None, _arr(rng, (2, 2, 3), np.float32)),
                                  ("tensor", None, _arr(rng, (2, 4, 3), np.float32))], 2,
      lambda ta, tb, a, b: (np.swapaxes(a, -1, -2) if ta else a) @ (
          np.swapaxes(b, -1, -2) if tb else b), names=("matmul",), out="float")
_cls2("StridedSlice", lambda rng: [("tensor", None, _arr(rng, (4, 3))), ("shape", None, (0, 1)),
                                   ("shape", None, (3, 3)), ("shape", None, (2, 1))], 0,
      lambda x, b, e, st: x[tuple(slice(*t) for t in zip(b, e, st))] if len(b) == len(e) == len(
          st) else None, names=("getitem",), out="float")
_cls2("ScatterAdd", lambda rng: [("bool", None, False),
                                 ("tensor", None, _arr(rng, (4, 3), np.float32)),
                                 ("index", None, np.array([0, 2])),
                                 ("tensor", None, _arr(rng, (2, 3), np.float32))], 1,
      names=("scatter_add",))
_cls2("Conv2D", lambda rng: [("int", None, 3), ("int", None, 3),
                             ("tensor", None, _arr(rng, (1, 2, 5, 5), np.float32)),
                             ("tensor", None, _arr(rng, (3, 2, 3, 3), np.float32))], 2,
      names=("conv2d",), out="float")
for _c in ("MaxPool", "AvgPool"):
    _cls2(_c, lambda rng: [("int", None, 2), ("int", None, 2),
                           ("tensor", None, _arr(rng, (1, 2, 4, 4), np.float32))], 2,
          names=("max_pool2d", "avg_pool2d"), out="float")
spec("scatter_add", lambda rng: [("tensor", None, _arr(rng, (4, 3), np.float32)),
                                 ("index", None, np.array([0, 2])),
                                 ("tensor", None, _arr(rng, (2, 3), np.float32))], out="")
# (an error may come from the function transformed, ops.sin, and name it)
for _name in ("jvp", "vjp", "derivative", "jet", "laplacian", "linearize"):
    spec(_name, lambda rng: [("fn", None, ops.sin), ("tensor", None, _arr(rng, (3,)))], out="",
         names=("sin",))
# a gradient that is not there is MindSpore's RuntimeError
spec("get_grad", lambda rng: [("grads", None, ((0, Tensor(_arr(rng, (3,)))),)), ("int", None, 0)],
     out="", errors=(RuntimeError,))
spec("hvp", lambda rng: [("fn", None, lambda y: ops.reduce_sum(ops.sin(y))),
                        ("tensor", None, _arr(rng, (3,))), ("tensor", None, _arr(rng, (3,)))],
     out="", names=("sin",))
spec("divergence", lambda rng: [("fn", None, ops.sin)], out="")
spec("hutchinson_laplacian", lambda rng: [("fn", None, lambda y: ops.reduce_sum(ops.sin(y))),
                                         ("tensor", None, _arr(rng, (3,))), ("int", None, 4)],
     out="", names=("sin",))
spec("biharmonic", lambda rng: [("fn", None, lambda y: ops.reduce_sum(ops.sin(y) ** 2))], out="")
spec("biharmonic_estimate", lambda rng: [("fn", None, lambda y: ops.reduce_sum(ops.sin(y))),
                                        ("tensor", None, _arr(rng, (3,))), ("int", None, 4)],
     out="", names=("sin",))

# Tensor methods: ``x.sum(axis)`` for the function of the same arguments
def _method(method: str, fn_name: str, ref: Callable | None = None, names: tuple = ()) -> None:
    base = next(s for s in SPECS if s.name == fn_name)

    def make(rng):
        slots = base.make(rng)
        return [("self", None, slots[0][2]), *slots[1:]]

    def call(x, *args, **kwargs):
        return getattr(x, method)(*args, **kwargs)

    call.__name__ = method
    SPECS.append(Spec(f"Tensor.{method}", call, make, ref or base.ref,
                      names=(method, fn_name, *base.names, *names,
                             getattr(base.fn, "__name__", fn_name)),
                      out=base.out, int_ok=base.int_ok, float_only=base.float_only,
                      int_trunc=base.int_trunc))


for _m in sorted(set(dir(Tensor))):
    _f = next((s for s in SPECS if s.name == _m and not s.name[0].isupper()), None)
    if _m.startswith("_") or _f is None or not callable(getattr(Tensor, _m)) or \
            _f.make(np.random.default_rng(0))[0][0] != "tensor":
        continue
    if _m in ("sum", "mean", "prod", "max", "min", "argmax", "argmin", "all", "any", "cumsum",
              "cumprod", "norm", "transpose", "permute", "reshape", "flatten", "softmax",
              "logsumexp", "index_select", "scatter_add", "split", "var", "std"):
        continue  # other arguments than the function's: written below
    _method(_m, _m)
_method("sum", "reduce_sum", _nan_safe(np.sum))
_method("mean", "reduce_mean", _nan_safe(np.mean))
_method("prod", "reduce_prod", _nan_safe(np.prod))
_method("max", "reduce_max", _nan_safe(np.max))
_method("min", "reduce_min", _nan_safe(np.min))
_method("var", "var")
_method("std", "std")
_method("softmax", "softmax")
_method("norm", "norm")


# --- the catalogue's families (random_ops, nn_functions, sorting, linalg_functions) ----------
def _wide(f):
    """A reference computed in float64 (mixed float32 and float64 operands are widened)."""
    if f is None:
        return None
    return lambda *a: f(*(v.astype(np.float64) if isinstance(v, np.ndarray) and v.dtype.kind == "f"
                          else v for v in a))


def _bce_ref(p, y):
    """MindSpore's binary cross entropy: 1e-12 (in the inputs' dtype: 0 in float16) added
    inside the logarithms, computed in float64."""
    eps = float(np.asarray(1e-12, np.result_type(p, y)))
    p, y = (np.asarray(v, np.float64) for v in (p, y))
    return np.mean(-(y * np.log(p + eps) + (1 - y) * np.log(1 - p + eps)))


def _logits_pair(rng):
    s = _shape(rng, 1)
    return [("tensor", None, _arr(rng, s, np.float32)),
            ("tensor", None, rng.random(s).astype(np.float32))]


def _bce_logits_ref(x, y):
    return np.mean(y * np.logaddexp(0, -x) + (1 - y) * np.logaddexp(0, x))


spec("binary_cross_entropy_with_logits", _logits_pair, _wide(_bce_logits_ref), int_ok=False)
spec("binary_cross_entropy", lambda rng: [("tensor", None, _unit(rng, (3,), np.float32) * 0.4
                                           + 0.5),
                                          ("tensor", None, rng.random(3).astype(np.float32))],
     lambda p, y: _bce_ref(p, y), int_ok=False)
for _name, _ref in [("mse_loss", lambda a, b: np.mean((a - b) ** 2)),
                    ("l1_loss", lambda a, b: np.mean(np.abs(a - b))),
                    ("smooth_l1_loss", lambda a, b: np.where(np.abs(a - b) < 1,
                                                             0.5 * (a - b) ** 2,
                                                             np.abs(a - b) - 0.5)),
                    ("huber_loss", lambda a, b: np.mean(np.where(np.abs(a - b) < 1,
                                                                 0.5 * (a - b) ** 2,
                                                                 np.abs(a - b) - 0.5))),
                    ("soft_margin_loss", lambda a, b: np.mean(np.logaddexp(0, -a * b))),
                    ("kl_div", None)]:
    spec(_name, lambda rng: [("tensor", None, _arr(rng, (2, 3), np.float32)),
                             ("tensor", None, _pos(rng, (2, 3), np.float32))], _wide(_ref),
         int_ok=False)
spec("margin_ranking_loss", lambda rng: [("tensor", None, _arr(rng, (3,), np.float32)),
                                         ("tensor", None, _arr(rng, (3,), np.float32)),
                                         ("tensor", None, np.sign(_arr(rng, (3,), np.float32)))],
     _wide(lambda a, b, y: np.mean(np.maximum(0, -y * (a - b)))), int_ok=False)


def _class_case(rng):
    return [("tensor", None, _arr(rng, (4, 3), np.float32)),
            ("index", None, rng.integers(0, 3, size=4))]


def _nll_ref(x, t):
    return -np.mean(x[np.arange(len(t)), t])


spec("nll_loss", _class_case, _nll_ref, int_ok=False)
spec("cross_entropy", _class_case, lambda x, t: _nll_ref(np.log(_softmax_ref(x, 1)), t),
     int_ok=False)
def _cosine(a, b):
    return (a * b).sum(1) / np.maximum(np.linalg.norm(a, axis=1) * np.linalg.norm(b, axis=1),
                                       1e-8)


spec("cosine_similarity", lambda rng: [("tensor", None, _arr(rng, (2, 3), np.float32)),
                                       ("tensor", None, _arr(rng, (2, 3), np.float32))],
     lambda a, b: _cosine(a.astype(np.float64), b.astype(np.float64)), int_ok=False)
spec("dense", lambda rng: [("tensor", None, _arr(rng, (2, 3), np.float32)),
                           ("tensor", None, _arr(rng, (4, 3), np.float32)),
                           ("tensor", None, _arr(rng, (4,), np.float32))],
     lambda x, w, b=None: x @ w.T + (0 if b is None else b), names=("matmul",))
spec("batch_norm", lambda rng: [("tensor", None, _arr(rng, (2, 3, 4), np.float32)),
                                ("tensor", None, _arr(rng, (3,), np.float32)),
                                ("tensor", None, _pos(rng, (3,), np.float32)),
                                ("tensor", None, _arr(rng, (3,), np.float32)),
                                ("tensor", None, _arr(rng, (3,), np.float32))],
     lambda x, m, v, w, b: ((x - m[:, None]) / np.sqrt(v[:, None] + 1e-5) * w[:, None]
                            + b[:, None]), int_ok=False)
spec("bias_add", lambda rng: [("tensor", None, _arr(rng, (2, 3, 4), np.float32)),
                              ("tensor", None, _arr(rng, (3,), np.float32))],
     lambda x, b: x + b[:, None])
for _name, _ref in [("hardtanh", lambda x: np.clip(x, -1, 1)),
                    ("softsign", lambda x: x / (1 + np.abs(x))),
                    ("selu", None), ("celu", lambda x: np.where(x > 0, x, np.expm1(x))),
                    ("logsigmoid", lambda x: -np.logaddexp(0, -x)),
                    ("hardsigmoid", lambda x: np.clip(x / 6 + 0.5, 0, 1)),
                    ("softmin", lambda x: _softmax_ref(-x, -1) if x.ndim else None),
                    ("softshrink", lambda x: x - np.clip(x, -0.5, 0.5)),
                    ("hardshrink", lambda x: np.where(np.abs(x) > 0.5, x, 0).astype(x.dtype)),
                    ("tanhshrink", lambda x: x - np.tanh(x))]:
    spec(_name, lambda rng: [("tensor", None, _arr(rng, _shape(rng)))], _ref, int_ok=False,
         names=("clamp", "softmax", "elu"))
spec("glu", lambda rng: [("tensor", None, _arr(rng, (2, 4)))],
     lambda x: x[:, :2] * sp.expit(x[:, 2:]), int_ok=False, names=("split",))
spec("threshold", lambda rng: [("tensor", None, _arr(rng, (2, 3))), ("float", None, 0.1),
                               ("float", None, 2.0)],
     lambda x, t, v: np.where(x > t, x, v).astype(x.dtype), int_ok=False)

# --- activations, losses and normalisations behind more nn layers ---------------------------
spec("prelu", lambda rng: [("tensor", None, _arr(rng, (2, 3, 4), np.float32)),
                           ("tensor", None, _pos(rng, (3,), np.float32))],
     lambda x, w: np.where(x > 0, x, w[:, None] * x), int_ok=False)
spec("rrelu", lambda rng: [("tensor", None, _pos(rng, (2, 3)))], lambda x: x, int_ok=False,
     names=("uniform",))
spec("soft_shrink", lambda rng: [("tensor", None, _arr(rng, _shape(rng)))],
     lambda x: x - np.clip(x, -0.5, 0.5), int_ok=False, names=("softshrink", "clamp"))
spec("fast_gelu", lambda rng: [("tensor", None, _arr(rng, _shape(rng), np.float32))],
     lambda x: x / (1 + np.exp(-1.702 * np.abs(x))) * np.exp(0.851 * (x - np.abs(x))),
     int_ok=False)
spec("group_norm", lambda rng: [("tensor", None, _arr(rng, (2, 4, 3), np.float32)),
                                ("int", None, 2)],
     lambda x, g: ((x.reshape(2, g, -1) - x.reshape(2, g, -1).mean(2, keepdims=True))
                   / np.sqrt(x.reshape(2, g, -1).var(2, keepdims=True) + 1e-5)).reshape(x.shape),
     int_ok=False)
spec("lrn", lambda rng: [("tensor", None, _arr(rng, (1, 3, 2, 2), np.float32))],
     int_ok=False, names=("pad", "pow"))
for _name, _shape_d in (("dropout1d", (2, 3, 4)), ("dropout2d", (2, 3, 2, 2)),
                        ("dropout3d", (1, 2, 2, 1, 2))):
    spec(_name, lambda rng, _s=_shape_d: [("tensor", None, _arr(rng, _s)),
                                          ("float", None, 0.0)],
         lambda x, p: x, int_ok=False, names=("dropout",))
spec("clip_by_norm", lambda rng: [("tensor", None, _arr(rng, (2, 3), np.float32)),
                                  ("float", None, 1.0)],
     lambda x, m: x * min(1.0, m / (np.sqrt((x.astype(np.float64) ** 2).sum()) + 1e-6)),
     int_ok=False, names=("norm",))
spec("bidense", lambda rng: [("tensor", None, _arr(rng, (4, 3), np.float32)),
                             ("tensor", None, _arr(rng, (4, 2), np.float32)),
                             ("tensor", None, _arr(rng, (5, 3, 2), np.float32))],
     lambda a, b, w: np.einsum("ni,oij,nj->no", a, w, b), int_ok=False)
spec("gaussian_nll_loss", lambda rng: [("tensor", None, _arr(rng, (2, 3), np.float32)),
                                       ("tensor", None, _arr(rng, (2, 3), np.float32)),
                                       ("tensor", None, _pos(rng, (2, 3), np.float32))],
     _wide(lambda x, t, v: np.mean(0.5 * (np.log(np.maximum(v, 1e-6))
                                          + (x - t) ** 2 / np.maximum(v, 1e-6)))),
     int_ok=False)
spec("hinge_embedding_loss", lambda rng: [("tensor", None, _arr(rng, (2, 3), np.float32)),
                                          ("tensor", None,
                                           np.sign(_arr(rng, (2, 3), np.float32)))],
     _wide(lambda x, y: np.mean(np.where(y > 0, x, 0) + np.where(y < 0, np.maximum(1 - x, 0),
                                                                  0))), int_ok=False)
spec("multi_margin_loss", _class_case,
     lambda x, t: np.mean((np.maximum(1 - x[np.arange(4), t][:, None] + x, 0)
                           * (np.arange(3)[None] != t[:, None])).sum(1) / 3), int_ok=False)
spec("multilabel_soft_margin_loss",
     lambda rng: [("tensor", None, _arr(rng, (2, 3), np.float32)),
                  ("tensor", None, (_arr(rng, (2, 3), np.float32) > 0).astype(np.float32))],
     _wide(lambda x, y: np.mean((y * np.logaddexp(0, -x) + (1 - y) * np.logaddexp(0, x))
                                .mean(-1))), int_ok=False)
spec("cosine_embedding_loss", lambda rng: [("tensor", None, _arr(rng, (2, 3), np.float32)),
                                           ("tensor", None, _arr(rng, (2, 3), np.float32)),
                                           ("tensor", None, np.array([1.0, -1.0], np.float32))],
     int_ok=False)
spec("ctc_loss", lambda rng: [("tensor", None, np.log(rng.dirichlet(np.ones(4), size=(5, 2)))
                               .astype(np.float32)),
                              ("index", None, np.array([[1, 2], [3, 3]])),
                              ("index", None, np.array([5, 4])),
                              ("index", None, np.array([2, 1]))], int_ok=False, out="")

for _name in ("rand", "randn"):
    spec(_name, lambda rng: [("shape", None, (2, 3))], out="")
spec("standard_normal", lambda rng: [("shape", None, (2, 3))], out="")
spec("randint", lambda rng: [("int", None, 0), ("int", None, 5), ("shape", None, (2, 3))],
     out="")
for _name in ("rand_like", "randn_like"):
    spec(_name, lambda rng: [("tensor", None, _arr(rng, _shape(rng)))], out="")
spec("randint_like", lambda rng: [("tensor", None, rng.integers(0, 3, size=(2, 3))),
                                  ("int", None, 0), ("int", None, 4)], out="")
spec("uniform", lambda rng: [("shape", None, (2, 3)), ("tensor", None, np.zeros((), np.float32)),
                             ("tensor", None, np.ones((), np.float32))], out="")
spec("normal", lambda rng: [("shape", None, (2, 3)), ("tensor", None, np.zeros((), np.float32)),
                            ("tensor", None, np.ones((), np.float32))], out="")
spec("multinomial", lambda rng: [("tensor", None, rng.random((2, 3)).astype(np.float32) + 0.1),
                                 ("int", None, 2)], out="")
spec("randperm", lambda rng: [("int", None, 5)], out="")
spec("shuffle", lambda rng: [("tensor", None, _arr(rng, (4, 2)))], out="", names=("gather",))

spec("gather_elements", lambda rng: [("tensor", None, _arr(rng, (3, 4))), ("axis", None, 1),
                                     ("index", None, rng.integers(0, 4, size=(3, 2)))],
     lambda x, d, i: np.take_along_axis(x, i, d))
spec("sort", _along, lambda x, a=-1: [np.sort(x, a, kind="stable"),
                                     np.argsort(x, a, kind="stable")] if x.ndim else None,
     out="")
spec("argsort", _along, lambda x, a=-1: np.argsort(x, a, kind="stable") if x.ndim else None,
     out="index")
spec("topk", lambda rng: [("tensor", None, _arr(rng, (3, 4))), ("int", None, 2)],
     lambda x, k: [-np.sort(-x, -1)[:, :k], None][:1] and None, out="")
spec("unique", lambda rng: [("tensor", None, rng.integers(0, 4, size=(5,)))], out="")
spec("searchsorted", lambda rng: [("tensor", None, np.sort(_arr(rng, (5,)))),
                                  ("tensor", None, _arr(rng, (3,)))],
     lambda s, v: np.searchsorted(s, v) if s.ndim == 1 and s.dtype == v.dtype else None,
     out="index")
for _name in ("cummax", "cummin"):
    spec(_name, _along, out="")
spec("logcumsumexp", _along,
     lambda x, a: np.logaddexp.accumulate(x, a) if x.ndim else x, int_ok=False)

spec("mm", lambda rng: [("tensor", None, _arr(rng, (2, 3), np.float32)),
                        ("tensor", None, _arr(rng, (3, 4), np.float32))], np.matmul,
     names=("matmul",))
spec("tensor_dot", lambda rng: [("tensor", None, _arr(rng, (2, 3, 4), np.float32)),
                                ("tensor", None, _arr(rng, (3, 4, 5), np.float32)),
                                ("int", None, 2)],
     lambda a, b, n: np.tensordot(a, b, n), names=("matmul", "transpose", "reshape"))
spec("inner", lambda rng: [("tensor", None, _arr(rng, (2, 3), np.float32)),
                           ("tensor", None, _arr(rng, (4, 3), np.float32))], np.inner,
     names=("tensor_dot", "matmul"))
spec("addmm", lambda rng: [("tensor", None, _arr(rng, (2, 4), np.float32)),
                           ("tensor", None, _arr(rng, (2, 3), np.float32)),
                           ("tensor", None, _arr(rng, (3, 4), np.float32))],
     lambda x, a, b: x + a @ b, names=("mm", "matmul"))
spec("kron", lambda rng: [("tensor", None, _arr(rng, (2, 2))), ("tensor", None, _arr(rng, (2, 3)))],
     np.kron)
spec("trace", lambda rng: [("tensor", None, _arr(rng, (3, 4)))], np.trace)
def _slogdet(x):
    # NumPy's sign of a matrix holding NaN is an arbitrary 1.0; mindgrad's is NaN there
    # (MindSpore's, 0 with log|det| -inf, would call the matrix singular)
    sign, logdet = np.linalg.slogdet(x)
    return [np.where(np.isnan(logdet), np.nan, sign).astype(sign.dtype), logdet]


spec("slogdet", lambda rng: [("tensor", None, _square(rng))],
     lambda x: _slogdet(x), out="", int_ok=False, names=("det",))
# (with inf in a matrix, where inf - inf gives NaN depends on the order of the products,
# which NumPy, MindSpore and mindgrad each choose differently: no reference there)
spec("matrix_power", lambda rng: [("tensor", None, _square(rng)), ("int", None, 3)],
     lambda x, n: np.linalg.matrix_power(x, n) if np.isfinite(x).all() else None,
     names=("matmul", "inverse"), int_ok=False)
spec("cdist", lambda rng: [("tensor", None, _arr(rng, (2, 3), np.float32)),
                           ("tensor", None, _arr(rng, (4, 3), np.float32))],
     lambda a, b: np.sqrt(((a[:, None] - b[None]) ** 2).sum(-1)), int_ok=False)

spec("full_like", lambda rng: [("tensor", None, _arr(rng, _shape(rng))), ("float", None, 2.5)],
     lambda x, v: np.full_like(x, v), names=("fill",))
for _name, _ref in [("tril", np.tril), ("triu", np.triu)]:
    spec(_name, lambda rng: [("tensor", None, _arr(rng, (3, 4))),
                             ("int", None, int(rng.integers(-2, 3)))], _ref)
spec("diag", lambda rng: [("tensor", None, _arr(rng, (3,)))], np.diag)
spec("narrow", lambda rng: [("tensor", None, _arr(rng, (3, 4))), ("axis", None, 1),
                            ("int", None, 1), ("int", None, 2)],
     lambda x, a, s, n: np.take(x, range(s, s + n), a), names=("getitem",))
spec("masked_select", lambda rng: [("tensor", None, _arr(rng, (2, 3))),
                                   ("mask", None, rng.integers(2, size=(2, 3)).astype(bool))],
     # the mask broadcasts against x (a 0-d mask too), and the result is 1-D
     lambda x, m: x[np.broadcast_to(m, np.broadcast_shapes(x.shape, m.shape))]
     if m.dtype == bool and x.shape == np.broadcast_shapes(x.shape, m.shape) else None,
     names=("getitem", "broadcast_to"))
spec("nonzero", lambda rng: [("tensor", None, rng.integers(0, 2, size=(2, 3)).astype(np.float32))],
     lambda x: np.argwhere(x) if x.ndim else None, out="index")
spec("argwhere", lambda rng: [("tensor", None, rng.integers(0, 2, size=(2, 3)).astype(bool))],
     np.argwhere, out="index")
spec("count_nonzero", lambda rng: [("tensor", None, rng.integers(0, 2, size=(2, 3)).astype(
    np.float32))], lambda x: np.count_nonzero(x), out="index", names=("reduce_sum",))
spec("logaddexp", _pair(), _wide(np.logaddexp), int_ok=False)
spec("xlogy", _pair(_pos), _wide(lambda a, b: np.where(a == 0, 0, a * np.log(b))), int_ok=False)
spec("lerp", lambda rng: _pair()(rng) + [("float", None, 0.3)],
     _wide(lambda a, b, w: a + w * (b - a)), int_ok=False)
for _name, _ref in [("isposinf", np.isposinf), ("isneginf", np.isneginf)]:
    spec(_name, lambda rng: [("tensor", None, _arr(rng, _shape(rng)))], _ref, out="bool")
spec("tensor_scatter_sub", lambda rng: [("tensor", None, _arr(rng, (4, 3), np.float32)),
                                        ("index", None, np.array([[0], [2]])),
                                        ("tensor", None, _arr(rng, (2, 3), np.float32))],
     names=("tensor_scatter_add", "neg"), out="")
for _name in ("movedim", "moveaxis"):
    spec(_name, lambda rng: [("tensor", None, _arr(rng, (2, 3, 4))),
                             ("axis", None, int(rng.integers(-3, 3))),
                             ("axis", None, int(rng.integers(-3, 3)))],
         lambda x, s, d: np.moveaxis(x, s, d), names=("movedim", "transpose"))
spec("chunk", lambda rng: [("tensor", None, _arr(rng, (5, 2))), ("int", None, 2)],
     lambda x, n: np.array_split(x, n) if x.ndim and x.shape[0] == 5 else None, out="",
     names=("getitem",))
spec("unbind", _along, lambda x, a=0: [np.take(x, i, a) for i in range(x.shape[a])], out="",
     names=("unstack",))

# math_functions
_one = lambda rng: [("tensor", None, _arr(rng, _shape(rng)))]  # noqa: E731
for _name, _ref in [("trunc", np.trunc), ("frac", lambda x: x - np.trunc(x)),
                    ("sinc", np.sinc), ("sgn", np.sign), ("positive", lambda x: x),
                    ("deg2rad", np.deg2rad), ("rad2deg", np.rad2deg),
                    ("nan_to_num", lambda x: np.nan_to_num(x)),
                    ("signbit", None)]:
    spec(_name, _one, _ref, int_ok=_name in ("trunc", "sgn", "positive"),
         out="bool" if _name == "signbit" else "float")
spec("logit", lambda rng: [("tensor", None, np.asarray(_unit(rng, _shape(rng)) * 0.5 + 0.5))],
     lambda p: np.log(p / (1 - p)), int_ok=False)
def _heaviside(x, v):
    # MindSpore's heaviside is 0 at a NaN input (NumPy's is NaN): 1 only where x > 0
    return np.where(np.isnan(x), np.zeros_like(np.heaviside(x, v)), np.heaviside(x, v))


for _name, _ref in [("hypot", np.hypot), ("copysign", np.copysign), ("fmax", np.fmax),
                    ("fmin", np.fmin), ("logaddexp2", np.logaddexp2),
                    ("heaviside", _heaviside), ("arctan2", np.arctan2),
                    ("true_divide", np.divide)]:
    spec(_name, _pair(), _wide(_ref), int_ok=False, out="" if _name == "heaviside" else "float",
         names=("atan2",) if _name == "arctan2" else ("div", "realdiv")
         if _name == "true_divide" else ())
spec("float_power", _pair(_pos), lambda a, b: np.float_power(a, b), out="", names=("pow",))
for _name, _ref in [("addcmul", lambda a, b, c: a + b * c), ("addcdiv", lambda a, b, c: a + b / c)]:
    spec(_name, lambda rng: [("tensor", None, _arr(rng, (2, 3), np.float32)),
                             ("tensor", None, _arr(rng, (2, 3), np.float32)),
                             ("tensor", None, _pos(rng, (3,), np.float32))], _ref,
         names=("mul", "div", "add"))
spec("mv", lambda rng: [("tensor", None, _arr(rng, (2, 3), np.float32)),
                        ("tensor", None, _arr(rng, (3,), np.float32))], np.matmul,
     names=("matmul",))
spec("addmv", lambda rng: [("tensor", None, _arr(rng, (2,), np.float32)),
                           ("tensor", None, _arr(rng, (2, 3), np.float32)),
                           ("tensor", None, _arr(rng, (3,), np.float32))],
     lambda x, m, v: x + m @ v, names=("mv", "matmul", "add", "mul"))
spec("ger", lambda rng: [("tensor", None, _arr(rng, (2,))), ("tensor", None, _arr(rng, (3,)))],
     lambda a, b: np.outer(a, b).astype(np.result_type(a, b)), names=("outer",))
spec("addr", lambda rng: [("tensor", None, _arr(rng, (2, 3), np.float32)),
                          ("tensor", None, _arr(rng, (2,), np.float32)),
                          ("tensor", None, _arr(rng, (3,), np.float32))],
     lambda x, a, b: x + np.outer(a, b), names=("outer", "add", "mul"))
spec("vecdot", _pair(), _wide(lambda a, b: (a * b).sum(-1)), int_ok=False, names=("mul",))
spec("adjoint", lambda rng: [("tensor", None, _arr(rng, (2, 3)))],
     lambda x: np.swapaxes(x, -1, -2) if x.ndim >= 2 else None,
     names=("swapaxes", "transpose"))
for _name, _ref in [("atleast_1d", np.atleast_1d), ("atleast_2d", np.atleast_2d),
                    ("atleast_3d", np.atleast_3d)]:
    spec(_name, _one, _ref, names=("reshape",))
for _name, _ref in [("hstack", np.hstack), ("vstack", np.vstack), ("row_stack", np.vstack),
                    ("dstack", np.dstack), ("column_stack", np.column_stack)]:
    spec(_name, lambda rng: [("tensors", None, [_arr(rng, (2, 3), np.float32)
                                                for _ in range(int(rng.integers(1, 3)))])],
         lambda ts: _ref(ts) if all(t.ndim >= 1 for t in ts) else None,
         names=("concat", "reshape"))
spec("tensor_split", lambda rng: [("tensor", None, _arr(rng, (7, 2))), ("int", None, 3)],
     lambda x, n: np.array_split(x, n) if x.ndim and n > 0 else None, out="", names=("getitem",))
for _name, _ref, _shp in [("hsplit", np.hsplit, (2, 4)), ("vsplit", np.vsplit, (4, 2)),
                          ("dsplit", np.dsplit, (2, 2, 4))]:
    spec(_name, lambda rng, _s=_shp: [("tensor", None, _arr(rng, _s)), ("int", None, 2)],
         lambda x, n, _f=_ref: _f(x, n) if x.ndim >= 2 else None, out="",
         names=("tensor_split", "getitem"))
spec("fliplr", lambda rng: [("tensor", None, _arr(rng, (2, 3)))], np.fliplr, names=("flip",))
spec("flipud", lambda rng: [("tensor", None, _arr(rng, (2, 3)))], np.flipud, names=("flip",))
spec("rot90", lambda rng: [("tensor", None, _arr(rng, (2, 3))), ("int", None, 1)],
     lambda x, k: np.rot90(x, k), names=("flip", "swapaxes", "transpose"))
spec("repeat_interleave", lambda rng: [("tensor", None, _arr(rng, (2, 3))), ("int", None, 2),
                                       ("axis", None, 1)],
     lambda x, r, a=None: np.repeat(x, r, a), names=("gather",))
spec("nansum", _reduce("keepdims"), _nan_safe(np.nansum), names=("reduce_sum",))
spec("nanmean", _reduce("keepdims"), _nan_safe(np.nanmean), int_ok=False,
     names=("reduce_sum",))
spec("std_mean", _with_ddof, out="", names=("std", "reduce_mean"))
spec("var_mean", _with_ddof, out="", names=("var", "reduce_mean"))
# NumPy's diff runs all n passes (mindgrad stops once the axis is empty): an n of 10**9
# would keep the reference busy for hours, and beyond the axis length the result is the same
spec("diff", _along, lambda x, n=1: np.diff(x, min(n, x.shape[-1])) if x.ndim else None, out="",
     names=("getitem",))
spec("trapz", lambda rng: [("tensor", None, _arr(rng, (2, 4)))],
     lambda y: np.trapezoid(y) if hasattr(np, "trapezoid") else np.trapz(y), int_ok=False)
spec("logdet", lambda rng: [("tensor", None, _square(rng))],
     lambda x: np.log(np.linalg.det(x)), int_ok=False, names=("det",))
spec("dist", _pair(), _wide(lambda a, b: np.linalg.norm((a - b).reshape(-1))), int_ok=False,
     names=("norm", "sub"))
spec("vector_norm", _one, lambda x: np.linalg.norm(x.reshape(-1)), int_ok=False,
     names=("norm",))
spec("logspace", lambda rng: [("float", None, 0.0), ("float", None, 2.0), ("int", None, 5)],
     lambda a, b, n: np.logspace(a, b, n, dtype=np.float32), names=("linspace", "pow"))
spec("meshgrid", lambda rng: [("tensor", None, _arr(rng, (2,))), ("tensor", None, _arr(rng, (3,)))],
     lambda a, b: list(np.meshgrid(a, b)) if a.dtype == b.dtype else None, out="")
spec("msort", _one, lambda x: np.sort(x, 0, kind="stable") if x.ndim else None,
     names=("sort",))
spec("take", lambda rng: [("tensor", None, _arr(rng, (2, 3))),
                          ("index", None, rng.integers(0, 6, size=(2, 2)))], np.take,
     names=("gather",))
spec("numel", _one, out="")
spec("is_floating_point", _one, out="")
spec("is_complex", _one, out="")
spec("dropout", lambda rng: [("tensor", None, _arr(rng, _shape(rng))), ("float", None, 0.3),
                             ("bool", None, False)], lambda x, p, t=True: x if not t else None,
     int_ok=False)

# indexing_functions
def _scatter_ref(x, a, i, u):
    out = x.copy()
    np.put_along_axis(out, i, u, a)
    return out


spec("scatter", lambda rng: [("tensor", None, _arr(rng, (3, 4), np.float32)), ("axis", None, 1),
                             ("index", None, np.array([[0, 2], [3, 1], [1, 0]])),
                             ("tensor", None, _arr(rng, (3, 2), np.float32))],
     _scatter_ref, names=("tensor_scatter_elements", "tensor_scatter_update"))
spec("tensor_scatter_elements",
     lambda rng: [("tensor", None, _arr(rng, (3, 4), np.float32)),
                  ("index", None, np.array([[0, 2], [3, 1], [1, 0]])),
                  ("tensor", None, _arr(rng, (3, 2), np.float32)), ("axis", None, 1)],
     lambda x, i, u, a=0: _scatter_ref(x, a, i, u), names=("tensor_scatter_update",))
spec("gather_d", lambda rng: [("tensor", None, _arr(rng, (3, 4))), ("axis", None, 1),
                              ("index", None, rng.integers(0, 4, size=(3, 2)))],
     lambda x, d, i: np.take_along_axis(x, i, d), names=("gather_elements",))
spec("tril_indices", lambda rng: [("int", None, 3), ("int", None, 4), ("int", None, 1)],
     lambda r, c, k=0: np.stack(np.tril_indices(r, k, c)), out="index")
spec("triu_indices", lambda rng: [("int", None, 3), ("int", None, 4), ("int", None, 1)],
     lambda r, c, k=0: np.stack(np.triu_indices(r, k, c)), out="index")
spec("range", lambda rng: [("int", None, 1), ("int", None, 9), ("int", None, 3)],
     lambda a, b, c: np.arange(a, b, c), out="")
for _name, _ref in [("bitwise_and", np.bitwise_and), ("bitwise_or", np.bitwise_or),
                    ("bitwise_xor", np.bitwise_xor)]:
    spec(_name, lambda rng: [("tensor", None, rng.integers(0, 16, size=(2, 3)).astype(np.int32)),
                             ("tensor", None, rng.integers(0, 16, size=(3,)).astype(np.int32))],
         _ref, out="")

spec("diagonal", lambda rng: [("tensor", None, _arr(rng, (2, 3, 4))), ("int", None, 1),
                              ("axis", None, 1), ("axis", None, 2)],
     lambda x, o=0, a=0, b=1: np.diagonal(x, o, a, b), names=("getitem", "transpose"))
spec("roll", lambda rng: [("tensor", None, _arr(rng, (2, 3))), ("int", None, 2),
                          ("axis", None, 1)],
     lambda x, s, d=None: np.roll(x, s, d), names=("concat", "getitem"))
spec("cross", lambda rng: [("tensor", None, _arr(rng, (3, 2), np.float32)),
                           ("tensor", None, _arr(rng, (3, 2), np.float32))],
     lambda a, b: np.cross(a, b, axis=0) if a.shape == b.shape == (3, 2) else None,
     names=("getitem", "concat"))

_cls2("HookBackward", lambda rng: [("fn", None, lambda g: g), ("tensor", None, _arr(rng, (3,)))],
      1, lambda h, x: x, out="float")
_cls2("InsertGradientOf", lambda rng: [("fn", None, lambda g: g),
                                       ("tensor", None, _arr(rng, (3,)))],
      1, lambda h, x: x, out="float")
for _c in ("Map", "HyperMap"):  # (an error may come from the function mapped, ops.sin)
    _cls2(_c, lambda rng: [("fn", None, ops.sin),
                           ("tensors", None, [_arr(rng, (2,)), _arr(rng, (3,))])], 0,
          lambda f, ts: [np.sin(t) for t in ts], names=("sin",))
spec("partial", lambda rng: [("fn", None, ops.add), ("tensor", None, _arr(rng, (3,)))], out="")

# public names that take no user data to spoil
NOT_FUZZED = {
    "tensordump": "writes a file and returns None (test_published_programs.py)",
    "TensorDump": "writes a file and returns None (test_published_programs.py)",
    "PrimitiveWithCheck": "a base class for user-defined primitives",
    "PrimitiveWithInfer": "a base class for user-defined primitives",
    "constexpr": "a decorator of user functions",
    "prim_attr_register": "a decorator of user primitives' __init__",
    "MultitypeFuncGraph": "a registry of user functions chosen by argument types",
    "is_tensor": "answers for any object",
    "depend": "returns its first argument, whatever it is",
    "promote_scalar": "an internal helper of the arithmetic operators",
    "GradOperation": "configures a transform; called with a function, as grad is fuzzed",
    "Primitive": "the base class of the operator classes",
    "PrimitiveOp": "the base class of the operator classes",
    "Tensor": "the constructor, tested in test_tensor.py",
    "PrimitiveWithInfer": "a base class for user-defined primitives (test_module_paths.py)",
    "PrimitiveWithCheck": "a base class for user-defined primitives (test_module_paths.py)",
    "prim_attr_register": "a decorator for user primitives' __init__ (test_module_paths.py)",
    "constexpr": "a decorator that returns its function (test_module_paths.py)",
    "MultitypeFuncGraph": "dispatches to user-registered functions (test_module_paths.py)",
    "HyperMap": "maps a user function over structures (test_module_paths.py)",
    "Map": "maps a user function over structures (test_module_paths.py)",
    "partial": "functools.partial",
    "HookBackward": "the identity with a user hook on the gradient (test_hooks.py)",
    "InsertGradientOf": "the identity with a user function on the gradient (test_hooks.py)",
    "BatchNorm": "batch_norm's statistics in MindSpore's 5-tuple (test_debug_ops.py)",
    "Print": "writes its inputs and returns None (test_debug_ops.py)",
    "ScalarSummary": "records a value and returns None (test_debug_ops.py)",
    "TensorSummary": "records a value and returns None (test_debug_ops.py)",
    "ImageSummary": "records a value and returns None (test_debug_ops.py)",
    "HistogramSummary": "records a value and returns None (test_debug_ops.py)",
    "ReduceOp": "a namespace of the reduction names",
    # the collectives need an MPI launch (init()): test_comm_mpi.py checks them on 2 ranks
    # and test_comm.py their argument errors
    "AllReduce": "a collective (test_comm_mpi.py, test_comm.py)",
    "AllGather": "a collective (test_comm_mpi.py, test_comm.py)",
    "ReduceScatter": "a collective (test_comm_mpi.py, test_comm.py)",
    "Broadcast": "a collective (test_comm_mpi.py, test_comm.py)",
    "AlltoAll": "a collective (test_comm_mpi.py, test_comm.py)",
    "CollectiveGather": "a collective (test_comm_mpi.py, test_comm.py)",
    "CollectiveScatter": "a collective (test_comm_mpi.py, test_comm.py)",
}


# --- spoiling an argument -------------------------------------------------------------------
def _rank_of(slots) -> int:
    t = next((v for k, _, v in slots if k in ("tensor", "self")), None)
    return t.ndim if isinstance(t, np.ndarray) else 1


def _spoil_array(rng, v: np.ndarray) -> tuple[str, Any]:
    with np.errstate(all="ignore"), warnings.catch_warnings():
        warnings.simplefilter("ignore")  # NaN to an integer, complex to a real, on purpose
        what, w = _spoiled_array(rng, v)
    return what, np.asarray(w) if isinstance(w, np.generic) else w


def _spoiled_array(rng, v: np.ndarray) -> tuple[str, Any]:
    choice = int(rng.integers(14))
    if choice == 12:  # a Python number where a tensor goes (an operand of arithmetic)
        return "python number", [2.5, -3, True, 10 ** 12, -(2 ** 63)][int(rng.integers(5))]
    if choice == 13:
        return "1-element list", [float(v.reshape(-1)[0].real) if v.size else 1.0]
    if choice == 0:
        dt = BAD_DTYPES[int(rng.integers(len(BAD_DTYPES)))]
        if np.dtype(dt).kind in "iub":
            return f"dtype {np.dtype(dt).name}", (np.round(v.real * 3) if v.dtype.kind in "fc"
                                                  else v).astype(dt)
        return f"dtype {np.dtype(dt).name}", v.astype(dt)
    if choice == 1:
        s = list(v.shape) or [1]
        s[int(rng.integers(len(s)))] = 0
        return "empty", np.zeros(s, v.dtype)
    if choice == 2:
        return "0-d", np.asarray(v.reshape(-1)[0] if v.size else 0, v.dtype)
    if choice == 3 and v.dtype.kind in "fc" and v.size:
        w = v.copy().reshape(-1)
        w[int(rng.integers(w.size))] = [np.nan, np.inf, -np.inf][int(rng.integers(3))]
        return "nan/inf", w.reshape(v.shape)
    if choice == 4:
        return "extra axis", v[None]
    if choice == 5 and v.ndim and v.shape[0]:
        return "fewer axes", v.reshape(-1)[:max(v.size - 1, 0)] if v.ndim == 1 else v[0]
    if choice == 6:
        return "None", None
    if choice == 7:
        return "list", v.tolist()
    if choice == 8:
        return "str", "abc"
    if choice == 9:
        return "ragged list", [[1.0, 2.0], [3.0]]
    if choice == 10:
        return "other shape", np.ones(tuple(int(d) + 1 for d in v.shape) or (2,), v.dtype)
    return "float64 array", v.astype(np.float64)


def _spoil(rng, kind: str, v: Any, rank: int) -> tuple[str, Any]:
    """A spoiled version of argument ``v`` of kind ``kind`` (and a description)."""
    if kind == "self":  # the Tensor a method is called on: spoiled, but still an array
        for _ in range(50):
            what, w = _spoil_array(rng, v)
            if isinstance(w, np.ndarray):
                return what, w
    if kind in ("tensor", "mask", "index", "self"):
        if not isinstance(v, np.ndarray):  # spoiled already (a list, a string, None)
            return "None", None
        return _spoil_array(rng, v)
    if kind == "tensors":
        arrays = [i for i, t in enumerate(v) if isinstance(t, np.ndarray)] \
            if isinstance(v, list) else []
        if rng.integers(2) and arrays:
            k = arrays[int(rng.integers(len(arrays)))]
            what, w = _spoil_array(rng, v[k])
            return f"tensors[{k}] {what}", [*v[:k], w, *v[k + 1:]]
    if kind == "axis":
        opts = [("axis = rank", rank), ("axis = -rank-1", -rank - 1), ("axis 1e9", 10 ** 9),
                ("negative axis", -1), ("float axis", 1.5), ("None axis", None),
                ("bool axis", True), ("str axis", "0"), ("repeated axes", (0, 0)),
                ("list axes", [0, -1]), ("tensor axis", Tensor(np.array(0))),
                ("numpy int axis", np.int64(-1)), ("axes out of range", (0, rank + 1)),
                ("empty axes", ())]
        return opts[int(rng.integers(len(opts)))]
    opts = [("None", None), ("str", "x"), ("list", [1, 2]), ("negative", -2), ("zero", 0),
            ("float", 2.5), ("nan", float("nan")), ("huge", 10 ** 12), ("bool", True),
            ("empty tuple", ()), ("nested", ((1,), (2,))), ("object", object()),
            ("numpy int", np.int64(2)), ("0-d Tensor", Tensor(np.array(1.0))), ("inf", math.inf)]
    return opts[int(rng.integers(len(opts)))]


def _to_call(value: Any) -> Any:
    return Tensor(value) if isinstance(value, np.ndarray) else (
        [Tensor(t) if isinstance(t, np.ndarray) else t for t in value]
        if isinstance(value, list) and value and isinstance(value[0], np.ndarray) else value)


def _as_tensor_array(v: Any) -> Any:
    """A Python number or list of them as the array ``Tensor(v)`` holds (bool, int64 or
    float32); an int beyond 2**53, whose float reference would be inexact, stays as it is."""
    if isinstance(v, bool):
        return np.asarray(v)
    if isinstance(v, int):
        return np.asarray(v, np.int64) if abs(v) < 2 ** 53 else v
    if isinstance(v, float):
        return np.asarray(v, np.float32)
    if isinstance(v, list) and v and all(isinstance(i, float) for i in v):
        return np.asarray(v, np.float32)
    return v


@dataclass
class Case:
    spec: Spec
    args: list
    kwargs: dict
    ref_args: list
    ref_kwargs: dict
    what: str
    bad: bool = True
    notes: list = field(default_factory=list)


def draw_case(spec_: Spec, seed: int, spoil: bool = True) -> Case:
    """A call of ``spec_``: valid arguments, one of them (or the keywords) spoiled."""
    rng = np.random.default_rng(seed)
    slots = spec_.make(rng)
    kw_fault = None
    if spoil and len(slots) > 1 and rng.integers(6) == 0:  # now and then, two at once
        pick = int(rng.integers(len(slots)))
        kind, kw, v = slots[pick]
        first, w = _spoil(rng, kind, v, _rank_of(slots))
        slots[pick] = (kind, kw, w)
        what = f"arg {pick} ({kind}): {first}; "
    else:
        what = ""
    if spoil:
        pick = int(rng.integers(len(slots) + 1))
        if pick == len(slots):
            kw_fault = ["unknown", "renamed"][int(rng.integers(2))]
            what += f"{kw_fault} keyword"
        else:
            kind, kw, v = slots[pick]
            desc, w = _spoil(rng, kind, v, _rank_of(slots))
            what += f"arg {pick} ({kind}): {desc}"
            slots[pick] = (kind, kw, w)
    args, kwargs, ref_args, ref_kwargs, kinds = [], {}, [], {}, []
    for kind, kw, v in slots:
        if kw is None or not rng.integers(2):
            args.append(_to_call(v))
            ref_args.append(v)
            kinds.append(kind)
        else:
            kwargs[kw] = _to_call(v)
            ref_kwargs[kw] = v
    if kw_fault == "unknown" or (kw_fault == "renamed" and not kwargs):
        kwargs["bogus_keyword"] = 1
    elif kw_fault == "renamed":
        k = next(iter(kwargs))
        kwargs[k + "_misspelled"] = kwargs.pop(k)
    if not any(isinstance(v, np.ndarray) for v in ref_args):
        # a Python number where the only tensor goes is read as Tensor(number) holds it;
        # beside an array it is a weak scalar, to NumPy as to mindgrad
        ref_args = [_as_tensor_array(v) if k in ("tensor", "self") else v
                    for v, k in zip(ref_args, kinds)]
    return Case(spec_, args, kwargs, ref_args, ref_kwargs, what or "valid", bad=spoil)


# --- judging one call -----------------------------------------------------------------------
class Finding(AssertionError):
    pass


def _names_op(msg: str, spec_: Spec) -> bool:
    """Whether the message names the op: its name, an alias, or MindSpore's primitive of the
    same name (``'FloorMod'`` for ``floor_mod``), as a whole word."""
    words = {w.lower().replace("_", "") for w in re.findall(r"[A-Za-z_][A-Za-z0-9_]*", msg)}
    return any(n.lower().replace("_", "") in words for n in spec_.all_names())


def _as_numpy(out: Any) -> Any:
    if isinstance(out, Tensor):
        return out.asnumpy()
    if isinstance(out, (tuple, list)) and all(isinstance(o, Tensor) for o in out):
        return [o.asnumpy() for o in out]
    return out


def _int_inputs(case: Case) -> bool:
    return any(isinstance(v, np.ndarray) and v.dtype.kind in "iub" for v in case.ref_args)


def _input_dtypes(case: Case) -> set | None:
    """The float dtypes of the tensor arguments; None when a list or a Tensor parameter
    (whose dtype the call decides) takes part."""
    if any(isinstance(v, (list, Tensor)) for v in case.ref_args):
        return None
    return {v.dtype for v in case.ref_args if isinstance(v, np.ndarray) and v.dtype.kind in "fc"}


def _plain(a: Any, spec_: Spec) -> bool:
    """An argument NumPy reads as mindgrad does (not None, a string or a nested list)."""
    if isinstance(a, list):
        return bool(a) and all(isinstance(t, np.ndarray) for t in a)
    if isinstance(a, str):
        return spec_.name == "einsum"
    return isinstance(a, (np.ndarray, int, float, tuple, slice, ms.dtype.DType)) and not (
        isinstance(a, int) and not -2 ** 31 <= a < 2 ** 31)  # NumPy's rules for huge ints differ


def _reference(case: Case) -> Any:
    spec_ = case.spec
    if spec_.ref is None or case.kwargs:  # keyword names differ between the two
        return None
    args = list(case.ref_args)
    if not all(_plain(a, spec_) for a in args):
        return None
    if any(isinstance(a, np.ndarray) and a.dtype.kind == "c" for a in args):
        return None  # complex: the dtype rules decide (a clear error or the right value)
    if _int_inputs(case) and not spec_.int_ok:
        return None
    ints = [a.dtype for a in args if isinstance(a, np.ndarray) and a.dtype.kind in "iub"]
    if spec_.float_only or spec_.int_trunc:  # the value a float function has at the integers
        args = [a.astype(np.float64) if isinstance(a, np.ndarray) and a.dtype.kind in "iub"
                else a for a in args]
    if spec_.int_trunc and ints:
        if ints[0].kind == "b":
            return None
        with warnings.catch_warnings(), np.errstate(all="ignore"):
            warnings.simplefilter("ignore")
            try:
                return np.trunc(spec_.ref(*args)).astype(ints[0])
            except Exception:
                return None
    with warnings.catch_warnings(), np.errstate(all="ignore"):
        warnings.simplefilter("ignore")
        try:
            return spec_.ref(*args)
        except Exception:
            return None


def _tol(dt: np.dtype) -> float:
    return {"float16": 2e-2, "float32": 2e-4}.get(np.dtype(dt).name, 1e-9)


def judge(case: Case) -> str:
    """Run one call; return "error", "checked" or "ran"; raise Finding on a defect."""
    spec_ = case.spec
    try:
        with warnings.catch_warnings(), np.errstate(all="ignore"):
            warnings.simplefilter("ignore")
            out = spec_.fn(*case.args, **case.kwargs)
    except (*CLEAR, *spec_.errors) as e:
        msg = str(e)
        if not _names_op(msg, spec_):
            raise Finding(f"{spec_.name} [{case.what}]: {type(e).__name__} does not name the "
                          f"op: {msg!r}") from e
        return "error"
    except Finding:
        raise
    except Exception as e:
        raise Finding(f"{spec_.name} [{case.what}]: unclear {type(e).__name__}: {e!r}") from e
    if spec_.out == "" and spec_.ref is None:
        return "ran"
    got = _as_numpy(out)
    ref = _reference(case)
    if spec_.out and isinstance(out, Tensor):
        dts = _input_dtypes(case)
        d = got.dtype
        if spec_.out == "bool" and d != np.bool_:
            raise Finding(f"{spec_.name} [{case.what}]: dtype {d}, expected bool")
        if spec_.out == "index" and d.kind not in "iu":
            raise Finding(f"{spec_.name} [{case.what}]: dtype {d}, expected an integer")
        if spec_.float_only and _int_inputs(case) and d.kind not in "fc":
            raise Finding(f"{spec_.name} [{case.what}]: an integer input gave {d}; a float "
                          f"function gives floats (or refuses integers)")
        if spec_.out == "float" and dts and len(dts) == 1 and not _int_inputs(case) and \
                d != next(iter(dts)) and next(iter(dts)).kind == "f":
            raise Finding(f"{spec_.name} [{case.what}]: a {next(iter(dts))} input gave {d}")
    if ref is None:
        return "ran"
    if isinstance(ref, (tuple, list)):  # several results (max's values and indices, split)
        if not isinstance(got, list) or len(got) != len(ref):
            raise Finding(f"{spec_.name} [{case.what}]: {len(got) if isinstance(got, list) else 1}"
                          f" results, NumPy gives {len(ref)}")
        for h, w in zip(got, ref):
            _compare(spec_, case, np.asarray(h), np.asarray(w))
    else:
        _compare(spec_, case, np.asarray(got[0] if isinstance(got, list) else got),
                 np.asarray(ref))
    return "checked"


def _compare(spec_: Spec, case: Case, have: np.ndarray, want: np.ndarray) -> None:
    if have.shape != want.shape:
        raise Finding(f"{spec_.name} [{case.what}]: shape {list(have.shape)}, NumPy gives "
                      f"{list(want.shape)}")
    if want.dtype.kind == "b" or have.dtype.kind == "b":
        ok = np.array_equal(have.astype(bool), want.astype(bool))
    else:
        # a result is no more precise than its least precise float input (a float32 input
        # beside a float64 one gives a float64 result of float32 accuracy)
        tol = max(_tol(have.dtype), _tol(want.dtype),
                  *(_tol(a.dtype) for a in case.ref_args
                    if isinstance(a, np.ndarray) and a.dtype.kind == "f"))
        wide = np.complex128 if "c" in (have.dtype.kind, want.dtype.kind) else np.float64
        with np.errstate(all="ignore"):
            ok = np.allclose(have.astype(wide), want.astype(wide), rtol=tol, atol=tol,
                             equal_nan=True)
    if not ok:
        raise Finding(f"{spec_.name} [{case.what}]: values differ from NumPy's:\n{have!r}\n"
                      f"vs\n{want!r}")


def public_ops_covered() -> set:
    return {s.name for s in SPECS}


# the array-manipulation, scatter, statistics and random operators' table
import fuzz_arrayops  # noqa: E402,F401

# opsfns family: MindSpore's other spellings of operators and general utilities
import fuzz_opsfns  # noqa: E402,F401
# the operator classes of the primclasses family
import fuzz_primclasses  # noqa: E402,F401
