"""The layers of the THOR optimizer (``nn.DenseThor``, ``nn.EmbeddingThor``,
``nn.EmbeddingLookupThor``) used with ordinary training, shared by the recorder
(``tools/record_catalogue.py --suite thorlayers``, run with the real MindSpore) and
``tests/test_thorlayers.py``.

Same ``Case`` API as ``catalogue_cases.py``. Each layer gets seeded trainable Parameters;
a case returns the output or the Parameter gradients (of ``sum(cos-weights * output)``) or
the loss and Parameters after two ``TrainOneStepCell`` steps with ``nn.Momentum``, followed
by the two statistics the layer saved (``matrix_a`` from the forward pass, ``matrix_g`` from
the backward pass). The ``*_graph`` cases run the same in GRAPH mode. ``print(cell)`` and
the Parameter names are recorded as UTF-8 bytes (as in ``nncells_cases.py``)."""
from __future__ import annotations

from typing import Any, Callable

import numpy as np

from catalogue_cases import Case, _r
from nnlayers_cases import _cos, _flat
from nncells_cases import _names, _text


def _build(ms: Any, make: Callable, seed: int = 0) -> Any:
    """``make(nn)`` with uniform(-0.5, 0.5) values (in each Parameter's dtype) in its
    trainable Parameters, in the order of their names."""
    net = make(ms.nn)
    rng = np.random.default_rng(seed)
    for _, p in sorted(net.parameters_and_names(), key=lambda item: item[0]):
        if p.requires_grad:
            dt = p.asnumpy().dtype
            p.set_data(ms.Tensor(rng.uniform(-0.5, 0.5, tuple(p.shape)).astype(dt)))
    return net


def _loss_cell(ms: Any, net: Any, doubled: bool = False) -> Any:
    class Loss(ms.nn.Cell):
        """``sum(cos-weights * net(x))``."""

        def __init__(self, inner):
            super().__init__()
            self.inner = inner

        def construct(self, x):
            out = self.inner(x)
            return (out * ms.Tensor(_cos(tuple(out.shape)))).sum()

    class Doubled(Loss):
        """``sum(2 * net(x))``: the same gradient for every output element."""

        def construct(self, x):
            return (self.inner(x) * 2).sum()
    return (Doubled if doubled else Loss)(net)


def _saved(ms: Any, net: Any) -> tuple:
    return (ms.Tensor(net.matrix_a.asnumpy()), ms.Tensor(net.matrix_g.asnumpy()))


def _in_mode(ms: Any, graph: bool, run: Callable) -> Any:
    """``run()`` in GRAPH mode when ``graph``, PYNATIVE after it in any case."""
    if not graph:
        return run()
    ms.set_context(mode=ms.GRAPH_MODE)
    try:
        return run()
    finally:
        ms.set_context(mode=ms.PYNATIVE_MODE)


def _fwd(make: Callable, graph: bool = False) -> Callable:
    """The output, then ``matrix_a`` and ``matrix_g`` after the forward call."""
    def fn(ms, ops, x):
        net = _build(ms, make)
        return _in_mode(ms, graph, lambda: _flat(net(x)) + _saved(ms, net))
    return fn


def _first(make: Callable) -> Callable:
    """The output alone (for the input gradient)."""
    return lambda ms, ops, x: _build(ms, make)(x)


def _pgrad(make: Callable, graph: bool = False, doubled: bool = False) -> Callable:
    """The trainable Parameters' gradients, then ``matrix_a`` and ``matrix_g``."""
    def fn(ms, ops, x):
        net = _build(ms, make)

        def run():
            grads = ops.GradOperation(get_by_list=True)(_loss_cell(ms, net, doubled),
                                                        net.trainable_params())(x)
            return tuple(grads) + _saved(ms, net)
        return _in_mode(ms, graph, run)
    return fn


def _train(make: Callable, graph: bool = False) -> Callable:
    """Two ``TrainOneStepCell`` steps with ``Momentum(lr=0.1, momentum=0.9)`` on ``x`` and
    ``x`` with its first half reversed: each loss, the trained Parameters and the
    statistics after each step."""
    def fn(ms, ops, x):
        net = _build(ms, make)

        def run():
            opt = ms.nn.Momentum(net.trainable_params(), 0.1, 0.9)
            step = ms.nn.TrainOneStepCell(_loss_cell(ms, net), opt)
            out: tuple = ()
            for xs in (x, ms.Tensor(x.asnumpy()[::-1].copy())):
                out += (step(xs),)
                out += tuple(ms.Tensor(p.asnumpy()) for p in net.trainable_params())
                out += _saved(ms, net)
            return out
        return _in_mode(ms, graph, run)
    return fn


def _thor_off(make: Callable, graph: bool = False) -> Callable:
    """A training step, then ``thor = False`` and a step on ``x[:1]``: the statistics after
    each (in GRAPH mode the compiled step keeps the flag it was compiled with)."""
    def fn(ms, ops, x):
        net = _build(ms, make)

        def run():
            step = ms.nn.TrainOneStepCell(_loss_cell(ms, net),
                                          ms.nn.Momentum(net.trainable_params(), 0.1, 0.9))
            step(x)
            out = _saved(ms, net)
            net.thor = False
            step(ms.Tensor(x.asnumpy()[:1]))
            return out + _saved(ms, net)
        return _in_mode(ms, graph, run)
    return fn


def _meta(make: Callable) -> Callable:
    """``print(cell)`` and the Parameters' attribute names, names, shapes and flags."""
    return lambda ms, ops: (_text(ms, repr(make(ms.nn))), _text(ms, _names(make(ms.nn))))


X53 = _r(901, (5, 3))
IDS = np.array([[0, 2, 5, 3], [3, 3, 1, 0]], np.int32)
IDS1 = np.array([4, 1, 1], np.int32)


def _dense(nn):
    return nn.DenseThor(3, 4)


def _dense_act(nn):
    return nn.DenseThor(3, 2, has_bias=False, activation="tanh")


def _emb(nn):
    return nn.EmbeddingThor(6, 3)


def _emb_one_hot(nn):
    return nn.EmbeddingThor(6, 3, use_one_hot=True)


def _lookup(nn):
    return nn.EmbeddingLookupThor(6, 3)


def _lookup_device(nn):
    return nn.EmbeddingLookupThor(6, 3, target="DEVICE", sparse=False)


def _lookup_device_f32(nn):
    # a Tensor param_init keeps its float32 dtype
    return nn.EmbeddingLookupThor(6, 3, param_init=nn_tensor(nn), target="DEVICE",
                                  sparse=False)


def nn_tensor(nn: Any) -> Any:
    """A float32 (6, 3) table, made with the Tensor class of ``nn``'s package."""
    import importlib
    pkg = importlib.import_module(nn.__name__.split(".")[0])
    return pkg.Tensor(np.zeros((6, 3), np.float32))


def _ctor(make: Callable) -> Callable:
    """The cell's Parameters right after ``make(ms)`` (its constructor's checks)."""
    return lambda ms, ops: tuple(ms.Tensor(p.asnumpy())
                                 for _, p in make(ms).parameters_and_names())


def _ones_table(ms: Any) -> Any:
    return ms.Tensor(np.arange(18, dtype=np.float32).reshape(6, 3))


def _family(name: str, make: Callable, x: np.ndarray, input_grad: bool, rtol: float = 1e-5,
            train: bool = True, pgrad: bool = True) -> list:
    cases = [Case(name, _fwd(make), [x], (0,) if input_grad else (), rtol=rtol),
             Case(f"{name}_graph", _fwd(make, True), [x], rtol=rtol)]
    if pgrad:
        cases += [Case(f"{name}_pgrad", _pgrad(make), [x], rtol=rtol),
                  Case(f"{name}_pgrad_graph", _pgrad(make, True), [x], rtol=rtol)]
    if train:
        cases += [Case(f"{name}_train", _train(make), [x], rtol=rtol),
                  Case(f"{name}_train_graph", _train(make, True), [x], rtol=rtol)]
    return cases


DENSE = _family("DenseThor", _dense, X53, True) + _family(
    "DenseThor_no_bias_tanh", _dense_act, X53, True, train=False) + [
    Case("DenseThor_input_grad", _first(_dense), [X53], (0,)),
    Case("DenseThor_thor_off", _thor_off(_dense), [X53]),
    Case("DenseThor_thor_off_graph", _thor_off(_dense, True), [X53]),
    Case("DenseThor_pgrad_doubled", _pgrad(_dense, doubled=True), [X53]),
    Case("DenseThor_pgrad_doubled_graph", _pgrad(_dense, True, doubled=True), [X53]),
    Case("DenseThor_err_3d", _fwd(_dense), [_r(902, (2, 5, 3))]),
    Case("DenseThor_err_channels", _fwd(_dense), [_r(903, (5, 4))]),
    Case("DenseThor_tensor_inits", _ctor(lambda ms: ms.nn.DenseThor(
        2, 3, ms.Tensor(X53[:3, :2].copy()), ms.Tensor(X53[3, :].copy()))), []),
    Case("DenseThor_err_in_channels", _ctor(lambda ms: ms.nn.DenseThor(0, 2)), []),
    Case("DenseThor_err_weight_shape", _ctor(lambda ms: ms.nn.DenseThor(
        3, 2, weight_init=ms.Tensor(np.ones((3, 2), np.float32)))), []),
    Case("DenseThor_err_bias_shape", _ctor(lambda ms: ms.nn.DenseThor(
        3, 2, bias_init=ms.Tensor(np.ones((3,), np.float32)))), []),
    Case("DenseThor_err_has_bias", _ctor(lambda ms: ms.nn.DenseThor(3, 2, has_bias=1)), []),
    Case("meta_DenseThor", _meta(_dense), []),
    Case("meta_DenseThor_no_bias", _meta(_dense_act), []),
]

EMBEDDING = _family("EmbeddingThor", _emb, IDS, False) + _family(
    "EmbeddingThor_1d", _emb, IDS1, False, train=False) + _family(
    "EmbeddingThor_one_hot", _emb_one_hot, IDS, False, train=False) + [
    Case("EmbeddingThor_thor_off", _thor_off(_emb), [IDS]),
    Case("EmbeddingThor_thor_off_graph", _thor_off(_emb, True), [IDS]),
    Case("EmbeddingThor_pgrad_doubled", _pgrad(_emb, doubled=True), [IDS]),
    Case("EmbeddingThor_pgrad_doubled_graph", _pgrad(_emb, True, doubled=True), [IDS]),
    Case("EmbeddingThor_padding_idx", _ctor(lambda ms: ms.nn.EmbeddingThor(
        6, 3, embedding_table=_ones_table(ms), padding_idx=4)), []),
    Case("EmbeddingThor_err_padding_negative", _ctor(lambda ms: ms.nn.EmbeddingThor(
        6, 3, embedding_table=_ones_table(ms), padding_idx=-1)), []),
    Case("EmbeddingThor_err_padding_vocab", _ctor(lambda ms: ms.nn.EmbeddingThor(
        6, 3, embedding_table=_ones_table(ms), padding_idx=6)), []),
    Case("EmbeddingThor_err_vocab_size", _ctor(lambda ms: ms.nn.EmbeddingThor(0, 3)), []),
    Case("EmbeddingThor_err_float_ids", _fwd(_emb), [IDS.astype(np.float32)]),
    Case("meta_EmbeddingThor", _meta(_emb), []),
    Case("meta_EmbeddingThor_one_hot", _meta(_emb_one_hot), []),
]

# (on the 'CPU' target MindSpore's gradient of the table is sparse: the rows of each lookup)
LOOKUP = _family("EmbeddingLookupThor", _lookup, IDS, False, rtol=2e-3, train=False,
                 pgrad=False) + _family(
    "EmbeddingLookupThor_device", _lookup_device, IDS, False, rtol=2e-3) + _family(
    "EmbeddingLookupThor_device_f32", _lookup_device_f32, IDS, False, rtol=2e-3,
    train=False) + [
    # the default sparse=True on the 'DEVICE' target: SparseGatherV2, no CPU kernel
    Case("EmbeddingLookupThor_device_sparse", _fwd(
        lambda nn: nn.EmbeddingLookupThor(6, 3, target="DEVICE")), [IDS], rtol=2e-3),
    Case("EmbeddingLookupThor_err_target", _fwd(
        lambda nn: nn.EmbeddingLookupThor(6, 3, target="GPU")), [IDS]),
    Case("EmbeddingLookupThor_err_cpu_dense", _fwd(
        lambda nn: nn.EmbeddingLookupThor(6, 3, sparse=False)), [IDS]),
    Case("EmbeddingLookupThor_err_vocab_size", _ctor(
        lambda ms: ms.nn.EmbeddingLookupThor(0, 3)), []),
    Case("EmbeddingLookupThor_err_sparse_type", _ctor(
        lambda ms: ms.nn.EmbeddingLookupThor(6, 3, sparse=1)), []),
    Case("meta_EmbeddingLookupThor", _meta(_lookup), []),
    Case("meta_EmbeddingLookupThor_device", _meta(_lookup_device), []),
]

CASES = DENSE + EMBEDDING + LOOKUP
