"""NumPy's floating-point RuntimeWarnings (log of 0, division by zero, overflow, invalid
values) do not escape from mindgrad's operations, eager, traced or compiled, and their
results are the inf and NaN MindSpore computes; the user's own NumPy code still warns, and a
NumPy error state set to raise still raises."""
from __future__ import annotations

import os
import warnings

import numpy as np
import pytest

import mindgrad as ms
from mindgrad import ops

# Values that take every op below out of its domain or range somewhere.
BAD = np.array([0.0, -1.0, 2.0, np.inf, -np.inf, np.nan, 1e38, -1e38, 1e-45], np.float32)

UNARY = {
    "log": ops.log, "log2": ops.log2, "log10": ops.log10, "log1p": ops.log1p,
    "sqrt": ops.sqrt, "rsqrt": ops.rsqrt, "reciprocal": ops.reciprocal, "exp": ops.exp,
    "exp2": ops.exp2, "expm1": ops.expm1, "sin": ops.sin, "cos": ops.cos, "tan": ops.tan,
    "sinh": ops.sinh, "cosh": ops.cosh, "tanh": ops.tanh, "asin": ops.asin,
    "acos": ops.acos, "acosh": ops.acosh, "atanh": ops.atanh, "sigmoid": ops.sigmoid,
    "softplus": ops.softplus, "square": ops.square, "erf": ops.erf, "gelu": ops.gelu,
    "silu": ops.silu, "mish": ops.mish, "elu": ops.elu,
    "x*x": lambda x: x * x, "x/0": lambda x: x / 0.0, "0/x": lambda x: 0.0 / x,
    "pow(x, 0.5)": lambda x: ops.pow(x, 0.5), "pow(x, -1.5)": lambda x: ops.pow(x, -1.5),
    "pow(2, x)": lambda x: ops.pow(2.0, x), "floor_div": lambda x: ops.floor_div(x, x * 0),
    "floor_mod": lambda x: ops.floor_mod(x, x * 0), "fmod": lambda x: ops.fmod(x, x * 0),
    "atan2": lambda x: ops.atan2(x, x), "div_no_nan": lambda x: ops.div_no_nan(x, x),
    "sum": ops.sum, "mean": ops.mean, "prod": ops.prod, "var": ops.var, "std": ops.std,
    "norm": ops.norm, "logsumexp": lambda x: ops.logsumexp(x, 0),
    "softmax": ops.softmax, "log_softmax": ops.log_softmax,
    "cumprod": lambda x: ops.cumprod(x, 0), "cumsum": lambda x: ops.cumsum(x, 0),
}


def _no_runtime_warning(call):
    """Run ``call`` and fail on any RuntimeWarning it lets out. The recording filter is
    appended after mindgrad's, as any filter installed before mindgrad would be."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.filterwarnings("always", append=True)
        out = call()
    escaped = [f"{w.filename}:{w.lineno}: {w.message}" for w in caught
               if issubclass(w.category, RuntimeWarning)]
    assert not escaped, escaped
    return out


@pytest.mark.parametrize("name", sorted(UNARY))
def test_no_floating_point_warning_escapes(name) -> None:
    fn = UNARY[name]
    x = ms.Tensor(BAD)
    out = _no_runtime_warning(lambda: fn(x))
    with np.errstate(all="ignore"):  # the same op on NumPy arrays, for the values
        ref = fn(ms.Tensor(BAD)).asnumpy()
    np.testing.assert_array_equal(out.asnumpy(), ref)
    _no_runtime_warning(lambda: ops.grad(lambda a: fn(a).sum())(x))
    _no_runtime_warning(lambda: ops.jvp(fn, (x,), (ms.Tensor(np.ones_like(BAD)),)))
    compiled = ms.jit(lambda a: fn(a) * 1.0)
    _no_runtime_warning(lambda: compiled(x))  # traced
    got = _no_runtime_warning(lambda: compiled(x))  # the compiled function
    np.testing.assert_array_equal(got.asnumpy(), ref)
    both = ms.jit(ops.grad(lambda a: fn(a).sum()))
    _no_runtime_warning(lambda: both(x))
    _no_runtime_warning(lambda: both(x))


def test_inf_and_nan_results_as_mindspore() -> None:
    x = ms.Tensor(np.array([0.0, -1.0, 1e38], np.float32))
    log = _no_runtime_warning(lambda: ops.log(x)).asnumpy()
    assert log[0] == -np.inf and np.isnan(log[1])
    assert _no_runtime_warning(lambda: ops.exp(x)).asnumpy()[2] == np.inf
    assert _no_runtime_warning(lambda: ops.reciprocal(x)).asnumpy()[0] == np.inf
    assert _no_runtime_warning(lambda: x * x).asnumpy()[2] == np.inf


@pytest.mark.skipif(os.environ.get("MINDGRAD_TEST_DEVICE", "CPU").upper() == "GPU",
                    reason="NumPy's error state governs CPU arrays only; a GPU computes inf "
                           "and nan without it")
def test_users_numpy_warnings_and_errors_stay() -> None:
    """Only mindgrad's own frames are silenced: the user's NumPy code warns, and asking NumPy
    to raise makes mindgrad's operations raise too."""
    with pytest.warns(RuntimeWarning, match="divide by zero"):
        np.log(np.zeros(1))
    with np.errstate(divide="raise"):
        with pytest.raises(FloatingPointError):
            ops.log(ms.Tensor(np.zeros(2, np.float32)))
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # installed after mindgrad's filter: it decides
        with pytest.raises(RuntimeWarning, match="divide by zero encountered in log"):
            ops.log(ms.Tensor(np.zeros(2, np.float32)))


def test_the_filter_is_installed_once() -> None:
    from mindgrad.core import fp_warnings

    fp_warnings.install()
    n = len(warnings.filters)
    fp_warnings.install()
    fp_warnings.ensure()
    assert len(warnings.filters) == n
