"""Transformations on several threads at once: each thread has its own trace state, so eager
gradients (first and second order, with respect to inputs and to the shared Parameters of a
Cell), first calls of ``jit`` functions and compiled calls give exactly the serial results,
and plain eager operations on one thread never see another thread's tracers."""
from __future__ import annotations

import sys
import threading

import numpy as np

import mindgrad as ms
from mindgrad import Parameter, Tensor, nn, ops
from mindgrad.core.primitive import active, graphs, state


class Net(nn.Cell):
    def __init__(self):
        super().__init__()
        self.w = Parameter(Tensor(np.array([0.5, -1.5, 2.0])), name="w")
        self.b = Parameter(Tensor(np.array([0.25])), name="b")

    def construct(self, x):
        return (ops.tanh(x * self.w) + self.b).sum()


NET = Net()
WEIGHTS = NET.trainable_params()
COMPILED = ms.jit(lambda x: ops.sin(x) * x + 1.0)


def _one_step(i: int) -> list[np.ndarray]:
    """Every kind of work for iteration ``i``, as arrays to compare."""
    x = Tensor(np.array([0.1, 0.2, 0.3]) * (i % 7 + 1))
    out = []
    # eager first- and second-order gradients
    out.append(ops.grad(lambda v: (ops.exp(v) * v).sum())(x))
    out.append(ops.grad(lambda v: ops.grad(lambda u: (ops.sin(u) * u * u).sum())(v).sum())(x))
    # gradients with respect to the Parameters of a Cell all threads share
    gw, gb = ops.GradOperation(get_by_list=True)(NET, ms.ParameterTuple(WEIGHTS))(x)
    out += [gw, gb]
    out.append(ops.value_and_grad(NET, 0, WEIGHTS)(x)[1][1][0])
    # first call of a new jit function (a trace), and of a compiled gradient
    scale = float(i % 5)
    out.append(ms.jit(lambda v: ops.cos(v) * scale + v * v)(x))
    out.append(ms.jit(ops.grad(lambda v: (ops.sin(v) * v).sum()))(x))
    # an already compiled function
    out.append(COMPILED(x))
    # plain eager operations stay plain
    y = x * 2.0 + 1.0
    assert type(y) is Tensor
    out.append(y)
    return [o.asnumpy() for o in out]


def _run_threads(n_threads: int, iterations: int, step=_one_step) -> list:
    results: list = [None] * n_threads
    errors: list = []
    barrier = threading.Barrier(n_threads)

    def worker(k: int) -> None:
        try:
            barrier.wait()
            results[k] = [step(i) for i in range(iterations)]
        except BaseException as e:  # reported below with the thread's number
            errors.append((k, e))

    old = sys.getswitchinterval()
    sys.setswitchinterval(1e-5)  # switch threads often, so that the work interleaves
    try:
        threads = [threading.Thread(target=worker, args=(k,)) for k in range(n_threads)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
    finally:
        sys.setswitchinterval(old)
    if errors:
        raise AssertionError(f"{len(errors)} thread(s) failed: {errors!r}") from errors[0][1]
    return results


def _check_threads(n_threads: int, iterations: int) -> None:
    serial = [_one_step(i) for i in range(iterations)]
    for k, got in enumerate(_run_threads(n_threads, iterations)):
        for i, (want, have) in enumerate(zip(serial, got)):
            for j, (w, h) in enumerate(zip(want, have)):
                assert w.dtype == h.dtype and np.array_equal(w, h), (k, i, j, w, h)
    assert state.stack == [] and state.dynamic is None and state.subs == {}
    assert active == [] and graphs == []
    assert all(p._trace is None and p._subs == 0 for p in WEIGHTS)


def test_threads_give_the_serial_results():
    _check_threads(4, 300)  # 4 threads x 300 iterations: about 2 s


def _paused_in(target, *args):
    """Run ``target(*args, pause)`` on a thread that stops at ``pause()`` until released:
    returns (thread, released event, reached event, result list)."""
    reached, release, result = threading.Event(), threading.Event(), []

    def pause():
        reached.set()
        assert release.wait(10)

    thread = threading.Thread(target=lambda: result.append(target(*args, pause)))
    thread.start()
    assert reached.wait(10)
    return thread, release, result


def test_eager_operations_beside_a_graph_trace_stay_eager():
    def traced(x, pause):
        def fn(v):
            y = v * 3.0
            pause()  # the other thread works while this one is inside the trace
            return y + 1.0
        return ms.jit(fn)(x).asnumpy()

    thread, release, result = _paused_in(traced, Tensor(np.array([1.0, 2.0])))
    try:
        z = Tensor(np.array([5.0])) * 2.0
        assert type(z) is Tensor and z.asnumpy()[0] == 10.0
        g = ms.jit(lambda v: v - 1.0)
        assert type(g(z)) is Tensor and g(z).asnumpy()[0] == 9.0
        assert ops.grad(lambda v: (v * v).sum())(z).asnumpy()[0] == 20.0
    finally:
        release.set()
        thread.join()
    np.testing.assert_array_equal(result[0], [4.0, 7.0])


def test_shared_parameters_while_another_thread_differentiates_them():
    net = Net()
    weights = net.trainable_params()

    def differentiate(x, pause):
        def loss(v):
            out = net(v)
            pause()  # net.w and net.b stand for this thread's tracers now
            return out * 2.0
        return [g.asnumpy() for g in ops.grad(loss, None, weights)(x)]

    x = Tensor(np.array([0.3, 0.1, -0.2]))
    want = [g.asnumpy() for g in ops.grad(lambda v: net(v) * 2.0, None, weights)(x)]
    want_out = net(x).asnumpy()
    want_own = [g.asnumpy() for g in ops.GradOperation(get_by_list=True)(net, weights)(x)]
    thread, release, result = _paused_in(differentiate, x)
    try:
        assert all(p._trace is not None for p in weights)  # marked while substituted
        out = net(x)  # eager, on this thread: the plain values, no tracer
        assert type(out) is Tensor and np.array_equal(out.asnumpy(), want_out)
        own = ops.GradOperation(get_by_list=True)(net, weights)(x)
        for w, h in zip(want_own, own):
            assert np.array_equal(w, h.asnumpy())
    finally:
        release.set()
        thread.join()
    for w, h in zip(want, result[0]):
        assert np.array_equal(w, h)
    assert all(p._trace is None and p._subs == 0 for p in weights)


def test_graph_mode_cells_first_calls_in_threads():
    class Affine(nn.Cell):
        def __init__(self, k):
            super().__init__()
            self.w = Parameter(Tensor(np.array([1.0, 2.0, 3.0]) * k), name="w")

        def construct(self, x):
            return ops.tanh(x * self.w).sum() + self.w[0]

    def step(i, shared):
        x = Tensor(np.array([0.1, -0.2, 0.3]) * (i % 5 + 1))
        grads = ops.GradOperation(get_by_list=True)(shared, shared.trainable_params())(x)
        outs = [Affine(i % 3 + 1)(x), shared(x), grads[0]]
        assert all(type(o) is Tensor for o in outs)  # never another thread's tracer
        return [o.asnumpy() for o in outs]

    serial_net = Affine(0.5)
    want = [step(i, serial_net) for i in range(100)]
    ms.set_context(mode=ms.GRAPH_MODE)
    try:
        shared = Affine(0.5)  # its first call is raced by all threads
        results = _run_threads(4, 100, lambda i: step(i, shared))
    finally:
        ms.set_context(mode=ms.PYNATIVE_MODE)
    for got in results:
        for w_step, g_step in zip(want, got):
            for w, g in zip(w_step, g_step):
                np.testing.assert_allclose(g, w, rtol=1e-12, atol=1e-15)
    assert all(isinstance(v, list) for v in shared._graph.cache.values())  # compiled
