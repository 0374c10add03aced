"""mindgrad's GPU code paths on the CuPy stand-in (``tests/fakecupy``), in every CI run.

The stand-in's device arrays refuse implicit conversion to NumPy as CuPy's do, so these
tests fail wherever mindgrad would silently copy a GPU array to the host, mix host and
device arrays, or use a NumPy-only function on device data. They check operations, their
gradients in both modes, nn layers, optimizers, checkpoints, device placement, explicit
transfers and the error for mixing devices. (``MINDGRAD_TEST_DEVICE=GPU`` runs the whole
suite this way; ``tools/run_suite_on_gpu.sh`` runs it on real CuPy.)"""
from __future__ import annotations

import os
from typing import Any, Callable

import numpy as np
import pytest

import mindgrad as ms
from mindgrad import context, nn, ops
from mindgrad.core import device as D

RNG = np.random.default_rng(7)
A = RNG.standard_normal((3, 4))
B = RNG.standard_normal((3, 4))
POS = np.abs(A) + 0.5
SQ = RNG.standard_normal((3, 3)) + 3 * np.eye(3)
IMG = RNG.standard_normal((2, 3, 6, 6))
KER = RNG.standard_normal((4, 3, 3, 3))
IDX = np.array([2, 0, 2, 1])


def on(target: str, fn: Callable[[], Any]) -> Any:
    """Run ``fn`` with ``device_target=target``, then go back to the GPU."""
    context.set_context(device_target=target)
    try:
        return fn()
    finally:
        context.set_context(device_target="GPU")


def host(out: Any) -> list:
    """The NumPy values of a Tensor or a tuple of Tensors, checking each lives where the
    context put it."""
    outs = out if isinstance(out, (tuple, list)) else (out,)
    vals = []
    for t in outs:
        got = t.asnumpy()
        assert isinstance(got, np.ndarray)
        vals.append(got)
    return vals


# name, function of float64 Tensors, its inputs (NumPy), differentiable positions
CASES: list[tuple[str, Callable, tuple, tuple]] = [
    ("add_mul_div", lambda x, y: (x + 2.0 * y) / (1.5 + y * y), (A, B), (0, 1)),
    ("sin_exp_log", lambda x: ops.sin(x) * ops.exp(x) + ops.log(x), (POS,), (0,)),
    ("tanh_sigmoid_relu", lambda x: ops.tanh(x) + ops.sigmoid(x) * ops.relu(x), (A,), (0,)),
    ("pow_sqrt_abs", lambda x: ops.pow(x, 2.5) + ops.sqrt(x) + ops.abs(x - 1), (POS,), (0,)),
    ("erf_expm1_log1p", lambda x: ops.erf(x) + ops.expm1(x) + ops.log1p(x), (POS,), (0,)),
    ("atan2_max_min", lambda x, y: ops.atan2(x, y) + ops.maximum(x, y) - ops.minimum(x, y),
     (A, B), (0, 1)),
    ("clamp_where", lambda x: ops.where(x > 0, ops.clamp(x, -0.5, 0.7), x * x), (A,), (0,)),
    ("softmax_log_softmax", lambda x: ops.softmax(x, -1) * ops.log_softmax(x, 0), (A,), (0,)),
    ("reductions", lambda x: ops.sum(x, 1) + ops.mean(x, 1) + ops.amax(x, 1)
     + ops.prod(x, 1) + ops.var(x, 1) + ops.logsumexp(x, 1), (A,), (0,)),
    ("norm_std", lambda x: ops.norm(x) + ops.std(x), (A,), (0,)),
    ("cumsum_cumprod", lambda x: ops.cumsum(x, 1) + ops.cumprod(x, 0), (A,), (0,)),
    ("matmul_bmm_einsum", lambda x, y: ops.matmul(x, y.T) + ops.einsum("ij,kj->ik", x, y),
     (A, B), (0, 1)),
    ("inverse_det", lambda s: ops.inverse(s) * ops.det(s), (SQ,), (0,)),
    ("shapes", lambda x: ops.concat((ops.transpose(x, (1, 0)), ops.reshape(x, (4, 3))), 0)
     + ops.stack((ops.flip(x.T, 0),) * 1)[0][:, :3].sum(), (A,), (0,)),
    ("tile_broadcast", lambda x: ops.tile(x, (2, 1)) + ops.broadcast_to(x[:1], (6, 4)), (A,),
     (0,)),
    ("getitem", lambda x: x[1:, ::2] * x[IDX[:2], 1:3] + x[x > 0.3].sum(), (A,), (0,)),
    ("gather_index_select", lambda x: ops.gather(x, ms.Tensor(IDX), 1)
     + ops.index_select(x, 1, ms.Tensor(IDX)), (A,), (0,)),
    ("scatter_add", lambda x, u: ops.tensor_scatter_add(x, ms.Tensor(IDX[:3].reshape(3, 1)),
                                                         u[:, :4]), (A, B), (0, 1)),
    ("conv2d", lambda i, k: ops.conv2d(i, k, pad_mode="pad", padding=1), (IMG, KER), (0, 1)),
    ("pooling", lambda i: nn.MaxPool2d(2, 2)(i) + nn.AvgPool2d(3, 3)(i)[..., :1, :1],
     (IMG,), (0,)),
    ("one_hot_argmax", lambda x: ops.one_hot(ops.argmax(x, 1), 4, ms.Tensor(1.0, ms.float64),
                                             ms.Tensor(0.0, ms.float64)) * x, (A,), (0,)),
    ("svd_cholesky_solve", lambda s: ops.svd(s)[0].sum() * 0 + ops.cholesky(s @ s.T)
     + ops.solve(s, s.T), (SQ,), (0,)),
]


@pytest.mark.parametrize("mode", [ms.PYNATIVE_MODE, ms.GRAPH_MODE], ids=["pynative", "graph"])
@pytest.mark.parametrize("name,f,inputs,wrt", CASES, ids=[c[0] for c in CASES])
def test_ops_and_gradients_match_the_cpu(standin_gpu, mode, name, f, inputs, wrt) -> None:
    """Forward values and first and second gradients on the GPU equal the CPU's."""
    ms.set_context(mode=mode)
    try:
        def run() -> list:
            xs = [ms.Tensor(v) for v in inputs]
            g = ops.grad(lambda *a: (f(*a) ** 2).sum(), wrt)
            g2 = ops.grad(lambda *a: ops.grad(lambda *b: (f(*b) ** 2).sum(), wrt)(*a)[0].sum()
                          if len(wrt) > 1 else g(*a).sum(), wrt)
            fns = [f, g, g2]
            if mode == ms.GRAPH_MODE:
                fns = [ms.jit(h) for h in fns]
                for h in fns:
                    h(*xs)  # the first call traces; the second runs the compiled code
            outs = [h(*xs) for h in fns]
            flat = [t for o in outs for t in (o if isinstance(o, tuple) else (o,))]
            for t in flat:
                assert t.device == context.get_context("device_target"), (name, t.device)
            return host(flat)

        want = on("CPU", run)
        standin_gpu.reset_transfers()
        got = run()
        for w, g in zip(want, got):
            np.testing.assert_allclose(g, w, rtol=1e-10, atol=1e-12, err_msg=name)
    finally:
        ms.set_context(mode=ms.PYNATIVE_MODE)


def test_the_standin_refuses_implicit_conversion(standin_gpu) -> None:
    x = ms.Tensor(np.arange(3.0))
    arr = x._data
    assert type(arr) is standin_gpu.ndarray and x.device == "GPU"
    with pytest.raises(TypeError, match="Implicit conversion to a NumPy array"):
        np.asarray(arr)
    with pytest.raises(TypeError, match="Unsupported type"):
        arr + np.ones(3)
    # a Tensor's own conversions are explicit transfers, as MindSpore's asnumpy is
    np.testing.assert_array_equal(np.asarray(x), [0.0, 1.0, 2.0])
    assert x.asnumpy().flags.writeable and str(x) == "[0. 1. 2.]"
    assert float(x.sum()) == 3.0 and x[1].item() == 1.0 and x.tolist() == [0.0, 1.0, 2.0]


def test_mixing_devices_is_a_clear_type_error(standin_gpu) -> None:
    gpu = ms.Tensor(np.ones(3))
    cpu = on("CPU", lambda: ms.Tensor(np.ones(3)))
    assert (cpu.device, gpu.device) == ("CPU", "GPU")
    for fn in (lambda: cpu + gpu, lambda: ops.matmul(gpu, cpu), lambda: ops.concat((gpu, cpu)),
               lambda: ops.grad(lambda a: (a * cpu).sum())(gpu),
               lambda: ms.jit(lambda a: a * cpu)(gpu)):
        with pytest.raises(TypeError, match=r"For '\w+', all tensor inputs must be on the "
                                            r"same device, but got input 0 on (CPU|GPU), "
                                            r"input 1 on (CPU|GPU)") as err:
            fn()
        assert "move_to" in str(err.value)
    ms.set_context(mode=ms.GRAPH_MODE)
    try:
        class Net(nn.Cell):
            def construct(self, a):
                return a - cpu

        with pytest.raises(TypeError, match="'Sub'.*input 0 on GPU, input 1 on CPU"):
            Net()(gpu)
    finally:
        ms.set_context(mode=ms.PYNATIVE_MODE)
    np.testing.assert_array_equal((cpu.move_to("GPU") + gpu).asnumpy(), [2.0, 2.0, 2.0])


def test_move_to_copies_explicitly(standin_gpu) -> None:
    x = ms.Tensor(np.array([1.5, -2.0], np.float32))
    standin_gpu.reset_transfers()
    c = x.move_to("CPU")
    assert c.device == "CPU" and isinstance(c._data, np.ndarray) and c.dtype == ms.float32
    g = c.move_to("GPU")
    assert g.device == "GPU" and type(g._data) is standin_gpu.ndarray
    assert standin_gpu.TRANSFERS == {"to_host": 1, "to_device": 1}
    assert x.move_to("GPU")._data is x._data  # already there: nothing copied
    np.testing.assert_array_equal(g.asnumpy(), [1.5, -2.0])
    with pytest.raises(ValueError, match=r"'to' must be one of \['Ascend', 'GPU', 'CPU'\], "
                                         r"but got 'gpu'"):
        x.move_to("gpu")
    with pytest.raises(ValueError, match="'blocking' must be a bool"):
        x.move_to("CPU", blocking=1)
    with pytest.raises(ValueError, match="move_to only works on concrete tensors"):
        ops.grad(lambda a: a.move_to("CPU").sum())(x)


def test_tensors_are_made_on_the_context_device(standin_gpu) -> None:
    dev_arr = standin_gpu.asarray(np.array([1, 2]))
    t = on("CPU", lambda: ms.Tensor(dev_arr))  # a CuPy array for a CPU tensor: copied
    assert t.device == "CPU" and t.dtype == ms.int64
    u = ms.Tensor(dev_arr)
    assert u.device == "GPU" and u._data is dev_arr
    assert ops.zeros((2, 2)).device == "GPU" and ops.arange(3).device == "GPU"
    assert ms.Tensor(shape=(2,), dtype=ms.float32, init=ms.common.initializer.One()).device \
        == "GPU"
    assert D.device_of(np.ones(2)) == "CPU" and D.device_of(2.0) == "CPU"
    assert D.device_of(dev_arr) == "GPU"
    ms.runtime.synchronize()  # cupy.cuda.Device().synchronize()


def test_singular_matrix_errors_as_on_the_cpu(standin_gpu) -> None:
    """CuPy returns NaN for a singular inverse unless asked to check: mindgrad asks."""
    with pytest.raises(ValueError, match="For 'MatrixInverse', the input matrix is singular"):
        ops.inverse(ms.Tensor(np.zeros((2, 2))))
    assert np.isnan(standin_gpu.linalg.inv(standin_gpu.zeros((2, 2))).get()).all()


def test_repeated_index_gradients_keep_their_digits(standin_gpu) -> None:
    """Atomic adds on the GPU sum in float64 as the CPU does: float16 ones counted past 2048."""
    x = ms.Tensor(np.zeros(3, np.float16))
    idx = ms.Tensor(np.full(5000, 1, np.int32))
    g = ops.grad(lambda a: ops.gather(a, idx, 0).sum())(x)
    assert g.device == "GPU" and g.asnumpy().tolist() == [0.0, 5000.0, 0.0]


class _Net(nn.Cell):
    def __init__(self) -> None:
        super().__init__()
        self.conv = nn.Conv2d(3, 4, 3, pad_mode="same", weight_init="normal")
        self.bn = nn.BatchNorm2d(4)
        self.pool = nn.MaxPool2d(2, 2)
        self.flat = nn.Flatten()
        self.fc = nn.Dense(4 * 3 * 3, 5, weight_init="normal")

    def construct(self, x):
        return self.fc(self.flat(self.pool(ops.relu(self.bn(self.conv(x))))))


def _train(mode: int, opt: str, steps: int, after_first: Callable = lambda: None,
           ) -> tuple[list, dict]:
    """``steps`` training steps of ``_Net``; ``after_first`` runs after the first (which
    compiles, in GRAPH mode). The losses are read only at the end."""
    ms.set_context(mode=mode)
    ms.set_seed(3)
    net = _Net()
    make = {"adam": lambda p: nn.Adam(p, 1e-2), "momentum": lambda p: nn.Momentum(p, 0.1, 0.9),
            "sgd": lambda p: nn.SGD(p, 0.1, weight_decay=1e-3),
            # lamblars family
            "lamb": lambda p: nn.Lamb(p, 1e-2, weight_decay=1e-3),
            "lars": lambda p: nn.LARS(nn.Momentum(p, 0.1, 0.9, weight_decay=1e-3))}[opt]
    loss = nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean")
    step = nn.TrainOneStepCell(nn.WithLossCell(net, loss), make(net.trainable_params()))
    step.set_train()
    x = ms.Tensor(np.random.default_rng(0).standard_normal((4, 3, 6, 6)).astype(np.float32))
    y = ms.Tensor(np.array([0, 3, 1, 4], np.int32))
    losses = [step(x, y)]
    after_first()
    losses += [step(x, y) for _ in range(steps - 1)]
    return losses, {n: p for n, p in net.parameters_and_names()}


@pytest.mark.parametrize("mode", [ms.PYNATIVE_MODE, ms.GRAPH_MODE], ids=["pynative", "graph"])
@pytest.mark.parametrize("opt", ["adam", "momentum", "sgd", "lamb", "lars"])
def test_training_on_the_gpu_matches_the_cpu_and_stays_there(standin_gpu, mode, opt) -> None:
    """Conv2d, BatchNorm2d, MaxPool2d, Dense, a sparse softmax cross-entropy and five
    optimizers: the GPU's losses equal the CPU's, the Parameters stay on the GPU, and after
    the first step nothing is copied to the device and one value per step to the host
    (the check that every label is in range, as on the CPU)."""
    try:
        losses, _ = on("CPU", lambda: _train(mode, opt, 3))
        want = [float(v.asnumpy()) for v in losses]
        losses, params = _train(mode, opt, 3, standin_gpu.reset_transfers)
        assert standin_gpu.TRANSFERS == {"to_host": 2, "to_device": 0}
        got = [float(v.asnumpy()) for v in losses]
        np.testing.assert_allclose(got, want, rtol=2e-5)
        assert got[-1] < got[0]
        assert all(p.device == "GPU" for p in params.values())
    finally:
        ms.set_context(mode=ms.PYNATIVE_MODE)


def test_checkpoints_of_gpu_parameters(standin_gpu, tmp_path) -> None:
    ms.set_seed(1)
    net = _Net()
    path = os.fspath(tmp_path / "gpu.ckpt")
    ms.save_checkpoint(net, path)
    want = {n: p.asnumpy() for n, p in net.parameters_and_names()}
    loaded = ms.load_checkpoint(path)
    assert all(p.device == "GPU" for p in loaded.values())
    for target in ("GPU", "CPU"):
        def load() -> dict:
            ms.set_seed(2)
            other = _Net()
            ms.load_param_into_net(other, loaded)  # GPU values into this device's network
            return {n: (p.device, p.asnumpy()) for n, p in other.parameters_and_names()}

        got = on(target, load)
        for n, w in want.items():
            assert got[n][0] == target
            np.testing.assert_array_equal(got[n][1], w)


def test_set_data_keeps_the_parameter_on_its_device(standin_gpu) -> None:
    p = ms.Parameter(ms.Tensor(np.zeros(2, np.float32)), name="p")
    p.set_data(on("CPU", lambda: ms.Tensor(np.array([1.0, 2.0]))))
    assert p.device == "GPU" and p.dtype == ms.float32
    np.testing.assert_array_equal(p.asnumpy(), [1.0, 2.0])


def test_compiled_functions_keep_one_graph_per_device(standin_gpu) -> None:
    f = ms.jit(lambda a: ops.sin(a) * 2.0)
    x = np.array([0.5, 1.0])
    gpu = f(ms.Tensor(x))
    cpu = on("CPU", lambda: f(ms.Tensor(x)))
    assert (gpu.device, cpu.device) == ("GPU", "CPU")
    np.testing.assert_array_equal(gpu.asnumpy(), cpu.asnumpy())
    np.testing.assert_array_equal(gpu.asnumpy(), np.sin(x) * 2.0)


def test_repeated_index_writes_keep_the_last_on_the_gpu(standin_gpu) -> None:
    """A GPU scatter writes repeated positions in no set order (the stand-in keeps the
    first); assignment and tensor_scatter_update keep the last write on both devices, and
    the gradients go to the writes that were kept."""
    def f(x, v):
        x[ms.Tensor(np.array([1, 0, 1]))] = v
        return (x * ms.Tensor([1.0, 10.0])).sum()

    for mode in (ms.PYNATIVE_MODE, ms.GRAPH_MODE):
        ms.set_context(mode=mode)
        try:
            g = ops.grad(f, (0, 1))
            dx, dv = (ms.jit(g) if mode == ms.GRAPH_MODE else g)(
                ms.Tensor([1.0, 2.0]), ms.Tensor([3.0, 4.0, 5.0]))
            assert dv.device == "GPU"
            np.testing.assert_array_equal(dx.asnumpy(), [0, 0])
            np.testing.assert_array_equal(dv.asnumpy(), [0, 1, 10])
        finally:
            ms.set_context(mode=ms.PYNATIVE_MODE)
    x = ms.Tensor(np.zeros((2, 2)))
    idx = ms.Tensor(np.array([[0], [0], [0]]))
    u = ms.Tensor(np.arange(6.0).reshape(3, 2))
    np.testing.assert_array_equal(ops.tensor_scatter_update(x, idx, u).asnumpy(),
                                  [[4.0, 5.0], [0.0, 0.0]])
    gu = ops.grad(lambda v: (ops.tensor_scatter_update(x, idx, v) ** 2).sum())(u)
    np.testing.assert_array_equal(gu.asnumpy(), [[0, 0], [0, 0], [8, 10]])
    y = ms.Tensor(np.zeros(3))
    y[ms.Tensor(np.array([2, 2, 0]))] = ms.Tensor([1.0, 2.0, 3.0])
    np.testing.assert_array_equal(y.asnumpy(), [3.0, 0.0, 2.0])


def test_out_of_range_indices_raise_on_the_gpu(standin_gpu) -> None:
    """CuPy wraps out-of-range index arrays around where NumPy raises: the GPU paths check
    them, so both devices raise the same IndexError."""
    x = ms.Tensor(np.arange(6.0).reshape(2, 3))
    cases = [
        (lambda: x[ms.Tensor(np.array([0, 2]))], r"For 'getitem', .*out of range.*index 2 "
                                                 r"is out of bounds for axis 0 with size 2"),
        (lambda: x[:, ms.Tensor(np.array([-4]))], "index -4 is out of bounds for axis 1"),
        (lambda: x[None, ..., [1, 3]], "index 3 is out of bounds for axis 1 with size 3"),
        (lambda: ops.gather(x, ms.Tensor(np.array([0, 3], np.int32)), 1),
         r"For 'gather', each value of 'input_indices' must be in \[-3, 3\)"),
        (lambda: ops.index_select(x, 1, ms.Tensor(np.array([5], np.int32))),
         r"For 'index_select', each value of 'index' must be in \[0, 3\)"),
        (lambda: ops.grad(lambda a: a[ms.Tensor(np.array([1, 2]))].sum())(x),
         "index 2 is out of bounds for axis 0"),
    ]
    for fn, pattern in cases:
        with pytest.raises(IndexError, match=pattern):
            fn()

    def assign() -> None:
        y = ms.Tensor(np.zeros(3))
        y[ms.Tensor(np.array([3]))] = 1.0

    with pytest.raises(IndexError, match="For 'setitem', .*index 3 is out of bounds"):
        assign()
    with pytest.raises(ValueError, match="For 'getitem', .*slice step cannot be zero"):
        x[::0]


def test_solve_broadcasts_batches_on_the_gpu(standin_gpu) -> None:
    """CuPy's solve wants equal batch shapes; mindgrad broadcasts them as NumPy does."""
    a = RNG.standard_normal((3, 2, 2)) + 2 * np.eye(2)
    b = RNG.standard_normal((2, 4))
    got = ops.solve(ms.Tensor(a), ms.Tensor(b))
    assert got.device == "GPU"
    np.testing.assert_allclose(got.asnumpy(), np.linalg.solve(a, b), rtol=1e-12)
    ga = ops.grad(lambda m: ops.solve(m, ms.Tensor(b)).sum())(ms.Tensor(a[:1]))
    want = on("CPU", lambda: ops.grad(lambda m: ops.solve(m, ms.Tensor(b)).sum())(
        ms.Tensor(a[:1])))
    np.testing.assert_allclose(ga.asnumpy(), want.asnumpy(), rtol=1e-12)


@pytest.mark.parametrize("where", ["CPU", "GPU"])
def test_data_goes_with_the_tensor_it_meets(standin_gpu, where) -> None:
    """NumPy arrays, lists and numbers combined with a tensor are converted on that
    tensor's device, whatever device_target says: a CPU tensor keeps working after
    set_context(device_target="GPU"), and a GPU tensor after switching back."""
    other = "CPU" if where == "GPU" else "GPU"
    x, labels = on(where, lambda: (ms.Tensor(np.arange(6.0).reshape(2, 3)),
                                   ms.Tensor(np.array([2, 0], np.int32))))
    context.set_context(device_target=other)
    try:
        outs = [x + np.ones(3), np.ones(3) * x, x[np.array([1, 0])], x[[0], 1:],
                ops.masked_fill(x, x > 2, 7.0), ops.max(x)[1], x == [0.0, 1.0, 2.0],
                nn.SoftmaxCrossEntropyWithLogits(sparse=True)(x, labels),
                ops.grad(lambda a: nn.NLLLoss()(ops.log_softmax(a, 1), labels))(x)]
        y = ms.Tensor(x)
        y[np.array([0])] = np.array([9.0, 8.0, 7.0])
        outs.append(y)
        assert [t.device for t in outs] == [where] * len(outs)
        np.testing.assert_array_equal(outs[2].asnumpy(), [[3, 4, 5], [0, 1, 2]])
        np.testing.assert_array_equal(y.asnumpy()[0], [9, 8, 7])
        with pytest.raises(TypeError, match="must be on the same device"):
            x + ms.Tensor(np.ones(3))  # a tensor made on the other device does not move
    finally:
        context.set_context(device_target="GPU")


def test_the_standin_behaves_as_cupy_where_cupy_differs_from_numpy(standin_gpu) -> None:
    """The stand-in's own CuPy behaviours (measured on CuPy 14.2), which the tests above
    rely on to find GPU-only bugs."""
    cp = standin_gpu
    a = cp.arange(5.0)
    assert a[cp.asarray([0, 6, -7])].get().tolist() == [0.0, 1.0, 3.0]  # wraps around
    assert cp.take(a, cp.asarray([7])).get().tolist() == [2.0]
    b = cp.zeros(3)
    b[cp.asarray([1, 1])] = cp.asarray([5.0, 6.0])  # repeated writes: the first stays
    assert b.get().tolist() == [0.0, 5.0, 0.0]
    with pytest.raises(ValueError, match=r"b must have \(\.\.\., M, K\)"):
        cp.linalg.solve(cp.stack([cp.eye(2)] * 3), cp.ones((2, 1)))
    assert np.isnan(cp.linalg.inv(cp.zeros((2, 2))).get()).all()
    s = a.sum()
    assert type(s) is cp.ndarray and s.ndim == 0 and float(s) == 10.0
    with pytest.raises(TypeError, match="only 0-dimensional arrays"):
        float(cp.ones(1))
    with pytest.raises(TypeError, match="cannot be interpreted as an integer"):
        cp.zeros(cp.asarray(3))
    with pytest.raises(ValueError, match="non-scalar numpy.ndarray"):
        b[0:2] = np.ones(2)
    assert cp.take_along_axis(a, cp.asarray([6]), 0).get().tolist() == [1.0]
    z = cp.zeros(3)
    import cupyx

    cupyx.scatter_add(z, cp.asarray([4, 0]), 1.0)
    assert z.get().tolist() == [1.0, 1.0, 0.0]
    assert not hasattr(a.flags, "writeable") and not hasattr(cp, "errstate")
    assert type(np.exp(a)) is cp.ndarray  # NumPy functions dispatch to the device ones


def test_forward_mode_vmap_and_taylor_on_the_gpu(standin_gpu) -> None:
    """jvp, jacfwd, vmap and jet (Taylor mode) run on device arrays and agree with the
    CPU."""
    def f(x):
        return ops.sin(x) * ops.exp(0.5 * x) + ops.softmax(x, -1)

    def run() -> list:
        x = ms.Tensor(A)
        u = ms.Tensor(B)
        out = [*ops.jvp(f, (x,), (u,)), ops.jacfwd(lambda v: f(v).sum(0))(x),
               ops.vmap(lambda r: ops.matmul(f(r), r), in_axes=0)(x),
               ops.vmap(ops.grad(lambda r: (f(r) ** 2).sum()))(x)]
        primal, series = ops.jet(f, x, ops.stack((u, ops.zeros_like(u))))
        out += [primal, series]
        assert all(t.device == context.get_context("device_target") for t in out)
        return host(out)

    want = on("CPU", run)
    for w, g in zip(want, run()):
        np.testing.assert_allclose(g, w, rtol=1e-11, atol=1e-12)


def test_move_to_without_a_gpu() -> None:
    """Without CuPy (or a GPU), moving to the GPU is a clear error; to the CPU a no-op."""
    if D.gpu_module() is not None:
        pytest.skip("a GPU is present")
    x = ms.Tensor([1.0, 2.0])  # on the CPU: device_target "GPU" falls back to it here
    assert x.device == "CPU" and x.move_to("CPU")._data is x._data
    with pytest.raises(RuntimeError, match=r"For 'Tensor.move_to', device 'GPU' is not "
                                           r"available here \(the GPU needs CuPy"):
        x.move_to("GPU")
    with pytest.raises(RuntimeError, match="there is no Ascend backend"):
        x.move_to("Ascend")


def test_complex_logic_and_0d_argmax_on_the_gpu(standin_gpu) -> None:
    """CuPy's logical ufuncs refuse complex inputs and its argmax refuses an axis on a 0-d
    array (measured); mindgrad gives the CPU's answers on both devices."""
    z = ms.Tensor(np.array([1j, 0j, 2 + 0j], np.complex64))
    assert ops.logical_not(z).asnumpy().tolist() == [False, True, False]
    assert ops.logical_and(z, z).asnumpy().tolist() == [True, False, True]
    assert ops.logical_or(z, ms.Tensor(np.zeros(3, np.complex128))).device == "GPU"
    for f in (ops.argmax, ops.argmin):
        got = f(ms.Tensor(3.0), 0)
        assert got.device == "GPU" and got.shape == () and int(got) == 0


def test_differential_operators_stay_on_the_gpu(standin_gpu) -> None:
    """The forward Laplacian, HVPs, Hessian, divergence, the Hutchinson estimator and the
    biharmonic operators run on device arrays (no host copies) and give the CPU's numbers."""
    w = RNG.standard_normal((4, 6))

    def run() -> list:
        wt = ms.Tensor(w)
        net = lambda x: ops.tanh(ops.matmul(x, wt)) * ops.sin(x[:, :1])  # noqa: E731
        scalar = lambda x: ops.reduce_sum(net(x) ** 2)  # noqa: E731
        x = ms.Tensor(A)
        outs = [ops.laplacian(net, batch_axis=0)(x), ops.laplacian(scalar)(x),
                ops.hvp(scalar, x, ms.Tensor(B))[1],
                ops.hvp(scalar, x, ms.Tensor(np.stack([A, B])), batched=True)[1],
                ops.hessian(scalar)(x), ops.divergence(lambda y: ops.sin(y) * y)(x),
                ops.hutchinson_laplacian(scalar, x, 5),
                ops.biharmonic(net, batch_axis=0)(x), ops.biharmonic_estimate(net, x, 3)]
        for t in outs:
            assert t.device == context.get_context("device_target")
        return host(outs)

    want = on("CPU", run)
    standin_gpu.reset_transfers()
    got = run()
    for w_, g in zip(want, got):
        np.testing.assert_allclose(g, w_, rtol=1e-10, atol=1e-12)
