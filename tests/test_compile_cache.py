"""The compiled-call cache of ``jit`` functions and GRAPH-mode Cells: keys that never depend
on the identity of a value the user can change or free (NumPy arrays, NumPy scalars, signed
zeros, other objects), ``Tensor(x)`` of a traced input, the bound on the cache
(``jit_cache_size``) and the once-only recompilation warning."""
from __future__ import annotations

import gc
import tracemalloc
import warnings

import numpy as np
import pytest

import mindgrad as ms
from mindgrad import nn
from mindgrad import Tensor


@pytest.fixture
def cache_size():
    """Set ``jit_cache_size`` for one test and restore it afterwards."""
    old = ms.get_context("jit_cache_size")
    yield lambda n: ms.set_context(jit_cache_size=n)
    ms.set_context(jit_cache_size=old)


def _recompile_warnings(caught) -> list[str]:
    return [str(w.message) for w in caught if "was compiled" in str(w.message)]


# --- keys: NumPy arrays and other values the user can change or free -------------------------

def test_numpy_array_argument_gives_fresh_results_each_call():
    f = ms.jit(lambda x, a: x * Tensor(a))
    x = Tensor(np.ones(3, np.float32))
    got = [f(x, np.full(3, k, np.float32)).asnumpy() for k in range(200)]
    for k, g in enumerate(got):
        np.testing.assert_array_equal(g, np.full(3, k, np.float32))
    # an input by shape and dtype: one compiled version serves all 200 calls
    assert len(f._graph.cache) == 1 and isinstance(next(iter(f._graph.cache.values())), list)


def test_numpy_array_mutated_in_place_gives_fresh_results():
    f = ms.jit(lambda x, a: (x + Tensor(a) * 2).sum())
    x = Tensor(np.zeros(2))
    a = np.array([1.0, 2.0])
    assert f(x, a).asnumpy() == 6.0
    a[:] = [10.0, 20.0]
    assert f(x, a).asnumpy() == 60.0
    a[0] = -5.0
    assert f(x, a).asnumpy() == 30.0


def test_numpy_array_inputs_match_eager_results_and_dtypes():
    def fn(x, a, pair):
        return x * a + pair[0].sum() * Tensor(pair[1]), Tensor(a).sum(), a.shape[0] * x

    f = ms.jit(fn)
    x = Tensor(np.array([1.0, 2.0], np.float32))
    for k in range(3):
        a = np.array([k, k + 1.0])  # float64
        pair = (np.arange(2.0) + k, np.array([3, 4], np.int32))
        want = fn(x, a, pair)
        got = f(x, a, pair)
        for w, g in zip(want, got):
            assert g.dtype == w.dtype
            np.testing.assert_array_equal(g.asnumpy(), w.asnumpy())
    # a NumPy result computed inside comes back as a Tensor, with the value of the call
    g = ms.jit(lambda a: a.sum())
    assert g(np.array([1.0, 2.0])).asnumpy() == 3.0 and g(np.array([5.0, 2.0])).asnumpy() == 7.0
    # a new shape or dtype compiles a new version
    f(x, np.ones(2, np.float32), (np.ones(2), np.ones(2, np.int32)))
    assert len(f._graph.cache) == 2


def test_graph_mode_cell_with_numpy_argument():
    class Scale(nn.Cell):
        def construct(self, x, a):
            return x * Tensor(a)

    ms.set_context(mode=ms.GRAPH_MODE)
    try:
        net = Scale()
        x = Tensor(np.ones(3, np.float32))
        for k in range(60):
            np.testing.assert_array_equal(net(x, np.full(3, k, np.float32)).asnumpy(),
                                          np.full(3, k, np.float32))
        a = np.ones(3, np.float32)
        net(x, a)
        a *= 4
        np.testing.assert_array_equal(net(x, a).asnumpy(), np.full(3, 4, np.float32))
        assert len(net._graph.cache) == 1
    finally:
        ms.set_context(mode=ms.PYNATIVE_MODE)


def test_tensor_of_a_traced_input_follows_the_input():
    g = ms.jit(lambda x: Tensor(x) * 2)
    assert g(Tensor([1.0])).asnumpy()[0] == 2.0
    assert g(Tensor([5.0])).asnumpy()[0] == 10.0
    h = ms.jit(lambda x: Tensor(x, ms.int32) + 1)
    out = h(Tensor([2.7]))
    assert out.dtype == ms.int32 and out.asnumpy()[0] == 3
    assert h(Tensor([7.2])).asnumpy()[0] == 8


def test_tensor_of_a_traced_input_carries_no_gradient_in_both_modes():
    def loss(x):
        return (x * Tensor(x)).sum()

    x = Tensor(np.array([1.0, 3.0]))
    eager = ms.ops.grad(loss)(x).asnumpy()
    compiled = ms.jit(ms.ops.grad(loss))
    np.testing.assert_array_equal(eager, [1.0, 3.0])
    np.testing.assert_array_equal(compiled(x).asnumpy(), eager)
    np.testing.assert_array_equal(compiled(Tensor(np.array([2.0, 5.0]))).asnumpy(), [2.0, 5.0])


def test_signed_zero_and_nan_scalars():
    f = ms.jit(lambda x, s: x / s)
    x = Tensor(np.array([1.0]))
    with np.errstate(divide="ignore"):
        assert f(x, 0.0).asnumpy()[0] == np.inf
        assert f(x, -0.0).asnumpy()[0] == -np.inf
        assert f(x, np.float64(-0.0)).asnumpy()[0] == -np.inf
        assert f(x, np.float64(0.0)).asnumpy()[0] == np.inf
    n = len(f._graph.cache)
    for _ in range(5):
        assert np.isnan(f(x, float("nan")).asnumpy()[0])
    assert len(f._graph.cache) == n + 1  # every NaN finds the same compiled version


@pytest.mark.filterwarnings("ignore:.*was compiled:RuntimeWarning")
def test_numpy_scalar_arguments_are_keyed_by_value():
    f = ms.jit(lambda x, s: x * s)
    x = Tensor(np.ones(1, np.float32))
    for k in range(100):
        assert f(x, np.float32(k)).asnumpy()[0] == k
    assert f(x, np.float32(3)).asnumpy()[0] == 3.0


@pytest.mark.filterwarnings("ignore:.*was compiled:RuntimeWarning")
def test_other_objects_are_held_so_their_id_is_not_reused():
    class Config:
        def __init__(self, scale):
            self.scale = scale

    f = ms.jit(lambda x, cfg: x * cfg.scale)
    x = Tensor(np.ones(1))
    for k in range(100):
        # each Config is freed after its call unless the cache holds it: an id-keyed cache
        # served an earlier object's result to a new one at the same address
        assert f(x, Config(float(k))).asnumpy()[0] == k


@pytest.mark.filterwarnings("ignore:.*was compiled:RuntimeWarning")
def test_jit_method_of_cell_instances():
    class Net(nn.Cell):
        def __init__(self, scale):
            super().__init__()
            self.scale = scale

        @ms.jit
        def run(self, x):
            return x * self.scale

    x = Tensor(np.ones(1))
    for k in range(50):
        assert Net(float(k)).run(x).asnumpy()[0] == k


# --- the bound and the warning ---------------------------------------------------------------

def test_cache_is_least_recently_used_and_bounded(cache_size):
    cache_size(4)
    calls = []

    def fn(x, s):
        calls.append(s)
        return x * s

    f = ms.jit(fn)
    x = Tensor(np.ones(1))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        for s in (1.0, 2.0, 3.0, 4.0):
            f(x, s)
        f(x, 1.0)  # used again: 2.0 is now the least recently used
        f(x, 5.0)
        assert len(f._graph.cache) == 4
        n = len(calls)
        assert f(x, 1.0).asnumpy()[0] == 1.0 and len(calls) == n  # still compiled
        assert f(x, 2.0).asnumpy()[0] == 2.0 and len(calls) == n + 1  # dropped: traced again
        for s in range(100):
            assert f(x, float(s)).asnumpy()[0] == s
        assert len(f._graph.cache) == 4


def test_recompile_warning_once_and_names_the_argument(cache_size):
    cache_size(16)

    def scaled(x, factor):
        return x * factor

    f = ms.jit(scaled)
    x = Tensor(np.ones(2))
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        for k in range(300):
            assert f(x, k + 0.5).asnumpy()[0] == k + 0.5
    msgs = _recompile_warnings(caught)
    assert len(msgs) == 1, msgs
    assert "'scaled'" in msgs[0] and "argument 1 ('factor')" in msgs[0]
    assert "Python float" in msgs[0] and "jit_cache_size" in msgs[0]
    assert len(f._graph.cache) <= 16
    assert all(w.filename == __file__ for w in caught if "was compiled" in str(w.message))


def test_recompile_warning_for_changing_shapes_and_cells(cache_size):
    cache_size(64)

    class Net(nn.Cell):
        def construct(self, x, y):
            return x + y.sum()

    ms.set_context(mode=ms.GRAPH_MODE)
    try:
        net = Net()
        x = Tensor(np.ones(1))
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            for n in range(1, 30):
                assert net(x, Tensor(np.ones(n))).asnumpy()[0] == n + 1
        msgs = _recompile_warnings(caught)
        assert len(msgs) == 1 and "'Net'" in msgs[0] and "argument 1 ('y')" in msgs[0]
        assert "shape or dtype" in msgs[0]
    finally:
        ms.set_context(mode=ms.PYNATIVE_MODE)


def test_a_stable_function_does_not_warn():
    f = ms.jit(lambda x, s: x * s)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        for k in range(100):
            f(Tensor(np.full(2, float(k))), 2.0)
    assert not _recompile_warnings(caught)


def test_jit_cache_size_is_validated():
    # as for every context key: a value out of range is a ValueError, a wrong type a TypeError
    for bad in (0, -1):
        with pytest.raises(ValueError, match="jit_cache_size"):
            ms.set_context(jit_cache_size=bad)
    for bad in (2.5, True, "8"):
        with pytest.raises(TypeError, match="jit_cache_size"):
            ms.set_context(jit_cache_size=bad)


def _float_calls_memory(n: int) -> tuple[int, int]:
    """Call a jit function with ``n`` different Python floats; return the cache size and
    the memory still held (bytes) after the calls."""
    f = ms.jit(lambda x, s: (x * s + 1.0).sum())
    x = Tensor(np.ones(4))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        f(x, -1.0)
        gc.collect()
        tracemalloc.start()
        try:
            base = tracemalloc.get_traced_memory()[0]
            for k in range(n):
                assert f(x, float(k)).asnumpy() == 4 * k + 4
            gc.collect()
            held = tracemalloc.get_traced_memory()[0] - base
        finally:
            tracemalloc.stop()
    return len(f._graph.cache), held


def test_many_python_floats_keep_memory_bounded(cache_size):
    cache_size(8)
    size_a, held_a = _float_calls_memory(100)
    size_b, held_b = _float_calls_memory(400)
    assert size_a == size_b == 8
    # 300 more compilations hold (almost) nothing more: each compiled version was freed
    assert held_b - held_a < 200_000, (held_a, held_b)


@pytest.mark.slow
def test_twenty_thousand_python_floats(cache_size):
    cache_size(64)
    size, held = _float_calls_memory(20_000)
    assert size == 64
    assert held < 3_000_000, held  # unbounded, it held about 33 MB


def test_tensor_of_a_parameter_reads_its_present_value():
    class Net(nn.Cell):
        def __init__(self):
            super().__init__()
            self.w = ms.Parameter(Tensor(np.array([2.0])), name="w")

        def construct(self, x):
            return x * Tensor(self.w)

    ms.set_context(mode=ms.GRAPH_MODE)
    try:
        net = Net()
        x = Tensor(np.array([3.0]))
        assert net(x).asnumpy()[0] == 6.0
        net.w.set_data(Tensor(np.array([5.0])))
        assert net(x).asnumpy()[0] == 15.0
    finally:
        ms.set_context(mode=ms.PYNATIVE_MODE)


def test_text_and_object_arrays_are_constants_keyed_by_content():
    def pick(x, names):
        return x * float(len(names[0]))

    f = ms.jit(pick)
    x = Tensor(np.ones(1))
    names = np.array(["ab", "c"], dtype="<U8")
    assert f(x, names).asnumpy()[0] == 2.0
    names[0] = "wxyz"  # changed in place: a new key
    assert f(x, names).asnumpy()[0] == 4.0
    objs = np.array([[1.0, 2.0], [3.0]], dtype=object)
    g = ms.jit(lambda v, o: v * float(len(o[0])))
    assert g(x, objs).asnumpy()[0] == 2.0
    objs[0] = [1.0, 2.0, 3.0]
    assert g(x, objs).asnumpy()[0] == 3.0
