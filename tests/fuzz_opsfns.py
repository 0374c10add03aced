"""The fuzzer's table rows (``fuzz_ops.spec``) for the opsfns family: MindSpore's other
spellings of existing operators (``tensor_add`` ... ``tensor_muls``, ``pows``, ``reshape_``,
the ``*_ext`` functions) and the general utilities (``inv``, ``eps``, ``gumbel_softmax``,
``cond``, ``clip_by_global_norm``, the scalar conversions); imported by ``fuzz_ops``."""
from __future__ import annotations

import numpy as np

import mindgrad as ms

import fuzz_ops as FZ
from fuzz_ops import _arr, _floor_divide, _pair, _pos, _shape, spec


# --- opsfns family ------------------------------------------------------------------------------
def _one(dom=_arr):
    return lambda rng: [("tensor", None, dom(rng, _shape(rng)))]


for _name, _dom, _ref, _via in [
        ("tensor_add", _arr, np.add, "add"), ("tensor_sub", _arr, np.subtract, "sub"),
        ("tensor_mul", _arr, np.multiply, "mul"), ("tensor_floordiv", _arr, _floor_divide,
                                                   "floor_div"),
        ("tensor_mod", _arr, np.mod, "floor_mod"), ("tensor_pow", _pos, np.power, "pow"),
        ("pows", _pos, np.power, "pow")]:
    spec(_name, _pair(_dom), _ref, names=(_via,))
# integers divide and truncate (RealDiv): the float reference holds for float inputs only
spec("tensor_div", _pair(), np.divide, names=("div", "realdiv"), int_ok=False)
for _name, _ref, _via in [("tensor_ge", np.greater_equal, "greater_equal"),
                          ("tensor_gt", np.greater, "greater"),
                          ("tensor_le", np.less_equal, "less_equal"),
                          ("tensor_lt", np.less, "less")]:
    spec(_name, _pair(), _ref, out="bool", names=(_via,))
spec("tensor_exp", _one(), np.exp, float_only=True, names=("exp",))
spec("tensor_expm1", _one(), np.expm1, float_only=True, names=("expm1",))
spec("tensor_muls", lambda rng: [("tensor", None, _arr(rng, _shape(rng))),
                                 ("float", None, float(rng.normal()))],
     lambda x, s: x * s, names=("mul",))
spec("reshape_", lambda rng: [("tensor", None, _arr(rng, (2, 3))),
                              ("shape", None, [(3, 2), (6,), (-1, 2)][rng.integers(3)])],
     lambda x, s: np.reshape(x, s), names=("reshape",))
spec("isnan_ext", _one(), np.isnan, out="bool", names=("isnan",))
spec("diff_ext", lambda rng: [("tensor", None, _arr(rng, (2, 5))),
                              ("int", None, int(rng.integers(1, 3))), ("axis", None, -1)],
     lambda x, n, d=-1: np.diff(x, n, d), names=("diff",))
spec("einsum_ext", lambda rng: [("str", None, "ij,jk->ik"),
                                ("tensor", None, _arr(rng, (2, 3), np.float32)),
                                ("tensor", None, _arr(rng, (3, 4), np.float32))],
     names=("einsum",))
spec("baddbmm_ext", lambda rng: [("tensor", None, _arr(rng, (2, 2, 4), np.float32)),
                                 ("tensor", None, _arr(rng, (2, 2, 3), np.float32)),
                                 ("tensor", None, _arr(rng, (2, 3, 4), np.float32))],
     lambda i, a, b: i + a @ b, names=("baddbmm",))
spec("mse_loss_ext", lambda rng: [("tensor", None, _arr(rng, (2, 3), np.float32)),
                                  ("tensor", None, _arr(rng, (3,), np.float32))],
     lambda a, b: np.asarray(np.mean((a - b) ** 2), np.float32), names=("mse_loss",),
     int_ok=False)
spec("accumulate_n", lambda rng: [("tensors", None, [_arr(rng, (2, 3), np.float32)
                                                     for _ in range(int(rng.integers(1, 4)))])],
     lambda ts: np.sum(np.stack(ts), 0), names=("addn",))
# integer inputs give the truncated reciprocal in their dtype: no float reference for them
spec("inv", _one(_pos), np.reciprocal, int_ok=False, names=("reciprocal",))
spec("eps", _one(), lambda x: np.full_like(x, np.finfo(x.dtype).eps), int_ok=False)
spec("type_as", lambda rng: [("tensor", None, _arr(rng, _shape(rng))),
                             ("tensor", None, _arr(rng, (2,), np.float16))],
     lambda x, y: x.astype(y.dtype), out="", names=("cast",))
spec("fills", lambda rng: [("tensor", None, _arr(rng, _shape(rng))),
                           ("float", None, float(rng.normal()))],
     lambda x, v: np.full_like(x, v), names=("full",))
spec("gumbel_softmax", lambda rng: [("tensor", None, _arr(rng, (2, 3), np.float32)),
                                    ("float", None, 0.5 + float(rng.random())),
                                    ("bool", None, bool(rng.integers(2))),
                                    ("axis", "dim", -1)], out="",
     names=("softmax",))
spec("cond", lambda rng: [("tensor", None, FZ._square(rng))], lambda a: np.linalg.cond(a),
     int_ok=False, names=("matrix_norm", "inverse"))
spec("clip_by_global_norm", lambda rng: [("tensors", None, [_arr(rng, (2, 3), np.float32),
                                                            _arr(rng, (4,), np.float32)]),
                                         ("float", None, 0.5 + float(rng.random()))], out="")
spec("scalar_cast", lambda rng: [("float", None, float(rng.normal()) * 4),
                                 ("dtype", None, [ms.int64, ms.float64, ms.bool_][
                                     rng.integers(3)])], out="")
spec("scalar_to_tensor", lambda rng: [("float", None, float(rng.normal()) * 4),
                                      ("dtype", None, [ms.float32, ms.int32, ms.float16][
                                          rng.integers(3)])], out="")
spec("tuple_to_array", lambda rng: [("shape", None, tuple(int(v) for v in
                                                          rng.integers(-5, 5, size=3)))],
     lambda t: np.array(t, np.int32), out="")
for _name, _ref in [("quantile", np.quantile), ("nanquantile", np.nanquantile)]:
    spec(_name, lambda rng: [("tensor", None, _arr(rng, (3, 4))),
                             ("float", None, float(rng.random())), ("axis", None, 1)],
         (lambda f: lambda x, q, a=None: f(x, q, a))(_ref), int_ok=False)
FZ.NOT_FUZZED["print_"] = "writes its inputs and returns None, as Print (test_opsfns.py)"
# --- end of the opsfns family -------------------------------------------------------------------
