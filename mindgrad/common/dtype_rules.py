"""Which input dtypes each operation accepts, and in which dtype it computes them: MindSpore
2.10's rules on CPU, recorded from the real MindSpore by ``tools/record_dtype_rules.py``
(``tests/fixtures/dtype_rules.json``) and checked by ``tests/test_dtype_rules.py``.

The rules speak of dtype *kinds*: ``b`` bool, ``i`` signed and unsigned integers, ``f``
float16/32/64, ``c`` complex. Each operation names the kinds it takes as they are
(``accept``) and the kinds it first converts to float32 (``to_float32``: ``ops.sqrt`` of an
int64 tensor is a float32 tensor, as in MindSpore); any other kind is refused with a
TypeError that names the operation and the dtype. Float-only operations (``sin``, ``exp``,
...) refuse integer and bool tensors: NumPy would compute them in float64, and the gradient,
which keeps an integer input's dtype, would then be truncated to zeros.

Where MindSpore's CPU build refuses a float16, float64 or complex input only because it lacks
that kernel, mindgrad computes it; ``tests/test_dtype_rules.py`` lists those cases.
"""
from __future__ import annotations

import numpy as np

from ..core import dtype as mstype

FLOAT32 = np.dtype(np.float32)
# A bool tensor meeting a Python int in arithmetic (``mask + 1``) becomes int64.
BOOL_WITH_INT = np.dtype(np.int64)
INT32 = np.dtype(np.int32)
INT64 = np.dtype(np.int64)


class Rule:
    """What an operation does with each dtype kind: keep it (``accept``), convert it to
    float32 first (``to_float32``), or refuse it (any other kind)."""

    __slots__ = ("accept", "to_float32")

    def __init__(self, accept: str, to_float32: str = "") -> None:
        self.accept = accept.replace("i", "iu")
        self.to_float32 = to_float32.replace("i", "iu")


# Named rules, for the families of operations that share one.
FLOATING = Rule("fc")               # float or complex; integers and bool refused
REAL_FLOATING = Rule("f")           # float only
FLOATING_FROM_INT = Rule("fc", "bi")  # integers and bool computed in float32
NUMERIC = Rule("ifc")               # everything but bool
REAL = Rule("bif")                  # everything but complex
REAL_NUMERIC = Rule("if")           # neither bool nor complex
ANY = Rule("bifc")

RULES: dict[str, Rule] = {}


def _define(rule: Rule, *names: str) -> None:
    for name in names:
        RULES[name] = rule


_define(FLOATING, "exp", "expm1", "log", "log2", "log10", "log1p", "sin", "cos", "tan", "sinh",
        "cosh", "tanh", "asin", "acos", "atan", "asinh", "acosh", "atanh", "sigmoid", "rsqrt",
        "silu")
_define(REAL_FLOATING, "erf", "erfc", "softplus", "elu", "gelu", "mish", "atan2", "var", "std",
        "logsumexp", "softmax", "log_softmax", "relu6", "floor", "ceil", "isinf", "Dense")
_define(FLOATING_FROM_INT, "sqrt", "reciprocal", "exp2", "div")
_define(Rule("fc", "i"), "norm")
_define(NUMERIC, "neg", "square", "sign", "cumsum", "mean", "sub")
_define(REAL, "relu", "leaky_relu", "maximum", "isnan", "isfinite", "less", "less_equal", "greater",
        "greater_equal", "argmax", "fmod")
_define(REAL_NUMERIC, "round", "hardswish", "amax", "amin", "max",
        "min", "argmin", "minimum", "floor_mod")
_define(NUMERIC, "pow", "matmul")

# Operations whose bool inputs give a bool result (NumPy's would be int8).
BOOL_RESULT = frozenset({"floor_div", "fmod"})


def input_dtype(op: str, dt: np.dtype, arg: str = "input",
                shown: str | None = None) -> np.dtype | None:
    """The dtype ``op`` computes an input of NumPy dtype ``dt`` in: None to keep ``dt``,
    float32 for an integer or bool input of an operation that converts them; a TypeError
    naming the op (``shown``, the name it was called by, or ``op``), ``arg`` and the dtype
    when ``op`` refuses it."""
    rule = RULES[op]
    kind = dt.kind
    if kind in rule.accept:
        return None
    if kind in rule.to_float32:
        return FLOAT32
    raise refusal(shown or op, dt, rule, arg)


def refusal(op: str, dt: np.dtype, rule: Rule | None = None, arg: str = "input") -> TypeError:
    """The TypeError of ``op`` refusing a ``dt`` input, saying which dtypes it takes."""
    rule = rule or RULES[op]
    kinds = rule.accept + rule.to_float32
    names = [d.name.lower() for d in (mstype.bool_, mstype.int32, mstype.int64, mstype.float16,
                                       mstype.float32, mstype.float64, mstype.complex64,
                                       mstype.complex128) if d.np_dtype.kind in kinds]
    hint = ""
    if dt.kind in "biu" and "f" in kinds:
        hint = " Cast it first, e.g. ops.cast(x, mindspore.float32)."
    return TypeError(f"For '{op}', '{arg}' of dtype {mstype.from_numpy(dt)} is not supported: "
                     f"it takes {', '.join(names)} Tensors.{hint}")


def result_of_sum(dt: np.dtype) -> np.dtype:
    """The dtype of a sum or product of ``dt`` elements: int64 for bool and integers below
    64 bits (as MindSpore's ReduceSum, ReduceProd and CumProd give), ``dt`` otherwise."""
    if dt.kind == "b" or (dt.kind in "iu" and dt.itemsize < 8):
        return INT64
    return dt
