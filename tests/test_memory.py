"""Differentiated calls leave no reference cycles: every intermediate of the forward and
backward pass is freed as soon as the call returns, not when the cyclic garbage collector
next runs (which made memory grow and the next call page-fault)."""
from __future__ import annotations

import gc

import numpy as np
import pytest

import mindgrad as ms
from mindgrad import nn, ops


class Net(nn.Cell):
    def __init__(self):
        super().__init__()
        self.w = ms.Parameter(ms.Tensor(np.ones((5, 3), np.float32)), name="w")

    def construct(self, x):
        return ops.tanh(ops.matmul(x, self.w)).sum()


def _cyclic_garbage_per_call(fn, calls: int = 20) -> float:
    fn()
    gc.collect()
    gc.disable()
    try:
        for _ in range(calls):
            fn()
        return gc.collect() / calls
    finally:
        gc.enable()


X = ms.Tensor(np.linspace(-1, 1, 20, dtype=np.float32).reshape(4, 5))
CALLS = {
    "value_and_grad": lambda: ops.value_and_grad(Net(), 0, Net().trainable_params())(X),
    "grad_of_grad": lambda: ops.grad(ops.grad(lambda x: (x * x * x).sum()))(X),
    "jvp": lambda: ops.jvp(lambda x: ops.sin(x) * x, X, X),
    "vjp_fn": lambda: ops.vjp(lambda x: ops.sin(x) * x, X)[1](X),
    "jacrev": lambda: ops.jacrev(lambda x: ops.sin(x).sum(1))(X),
    "jet": lambda: ops.jet(lambda x: ops.exp(x) * x, X, ms.Tensor(np.ones((2, 4, 5), np.float32))),
}


@pytest.mark.parametrize("mode", [ms.PYNATIVE_MODE, ms.GRAPH_MODE])
@pytest.mark.parametrize("name", sorted(CALLS))
def test_no_reference_cycles(name, mode) -> None:
    ms.set_context(mode=mode)
    try:
        net = Net()
        grad_net = ops.GradOperation(get_by_list=True)(net, net.trainable_params())
        fn = CALLS[name]
        assert _cyclic_garbage_per_call(fn) == 0, name
        assert _cyclic_garbage_per_call(lambda: grad_net(X)) == 0
        assert _cyclic_garbage_per_call(lambda: net(X)) == 0
    finally:
        ms.set_context(mode=ms.PYNATIVE_MODE)


def test_compiled_code_frees_each_temporary_after_its_last_use():
    """The generated function deletes a temporary right after the last equation that reads
    it (so the allocator hands its memory to the next one), never an output, and the numbers
    do not change."""
    import resource
    import re

    rng = np.random.default_rng(0)
    w1 = ms.Tensor(rng.standard_normal((64, 256)).astype(np.float32))
    w2 = ms.Tensor(rng.standard_normal((256, 256)).astype(np.float32))

    def f(x):
        h = ops.tanh(ops.matmul(x, w1))
        h = ops.tanh(ops.matmul(h, w2)) * 2.0 + h
        return ops.reduce_sum(h * h, 1), h

    g = ms.jit(f)
    x = ms.Tensor(rng.standard_normal((512, 64)).astype(np.float32))
    a, b = g(x)
    ea, eb = f(x)
    np.testing.assert_allclose(a.asnumpy(), ea.asnumpy(), rtol=1e-6)
    np.testing.assert_allclose(b.asnumpy(), eb.asnumpy(), rtol=1e-6)
    (variant,) = [v for sig in g._graph.cache.values() for v in
                  (sig if isinstance(sig, list) else [sig])]
    src = variant.source
    deleted = set(re.findall(r"v\d+", " ".join(re.findall(r"del ([^\n]+)", src))))
    returned = set(re.findall(r"v\d+", src.splitlines()[-1]))
    assert deleted and not deleted & returned
    # each deleted name is read no more after its del
    body = src.splitlines()
    for i, line in enumerate(body):
        if line.strip().startswith("del "):
            for name in re.findall(r"v\d+", line):
                assert not any(re.search(rf"\b{name}\b", later) for later in body[i + 1:])
    # repeated calls reuse freed memory instead of faulting in fresh pages each time
    for _ in range(3):
        g(x)
    before = resource.getrusage(resource.RUSAGE_SELF).ru_minflt
    for _ in range(10):
        g(x)
    per_call = (resource.getrusage(resource.RUSAGE_SELF).ru_minflt - before) / 10
    assert per_call < 100, per_call
