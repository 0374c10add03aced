"""``nn.Lamb`` and ``nn.LARS``: what MindSpore 2.10's CPU build can record of them, shared by
the recorder (``tools/record_catalogue.py --suite lamblars``, run with the real MindSpore)
and ``tests/test_lamblars.py``.

MindSpore's CPU build has no kernel for their updates (``Lamb``, ``LARSUpdate``; refused in
PyNative and GRAPH mode), so their steps are checked against NumPy in the test. What it runs
is recorded here: their state Parameters' names, their constructors' errors, and ``LARS``
steps where ``lars_filter`` leaves every parameter out (no ``LARSUpdate`` is then called):
those show how the wrapper takes over the wrapped optimizer's weight decay and loss scale
and shares its step count. Same ``Case`` API as ``catalogue_cases.py``; the optimizer runs
follow ``nnmisc_cases.run_optimizer`` (three steps, then the state Parameters)."""
from __future__ import annotations

from typing import Any, Callable

import numpy as np

from catalogue_cases import Case
from nncells_cases import _names, _text
from nnmisc_cases import G0, G1, W0, W1, run_optimizer, step_grads


def _none(p: Any) -> bool:
    return False


def _opt(make: Callable) -> Callable:
    return lambda ms, ops, w0, w1, g0, g1: run_optimizer(ms, make, w0, w1, g0, g1)


def _lars(make_inner: Callable, **kw: Any) -> Callable:
    """``LARS`` around ``make_inner(ms, params)`` with every parameter left out of LARS."""
    return lambda ms, ps: ms.nn.LARS(make_inner(ms, ps), lars_filter=_none, **kw)


LARS_STEPS = {
    "momentum_wd": _lars(lambda ms, ps: ms.nn.Momentum(ps, 0.1, 0.9, weight_decay=0.05)),
    "momentum_wd_loss_scale": _lars(lambda ms, ps: ms.nn.Momentum(ps, 0.1, 0.9, 0.05, 4.0)),
    # (no use_nesterov: MindSpore's CPU Momentum kernel ignores it, wrapped or not)
    "momentum_groups": _lars(lambda ms, ps: ms.nn.Momentum(
        [{"params": [ps[0]], "lr": 0.05, "weight_decay": 0.1}, {"params": [ps[1]]}], 0.1,
        0.8)),
    "momentum_clip_dynamic_lr": _lars(lambda ms, ps: ms.nn.Momentum(ps, [0.1, 0.05, 0.02], 0.9),
                                      use_clip=True, epsilon=1e-8, coefficient=0.02),
    "adam_wd": _lars(lambda ms, ps: ms.nn.Adam(ps, 0.01, weight_decay=0.1)),
    "sgd_wd": _lars(lambda ms, ps: ms.nn.SGD(ps, 0.1, momentum=0.9, weight_decay=0.05)),
}


def _lars_global_step(ms: Any, ops: Any, w0: Any, g0: Any) -> Any:
    """The shared step count after three steps with a schedule, and the wrapped optimizer's
    rate Parameter."""
    p = ms.Parameter(ms.Tensor(w0.asnumpy()), name="w")
    inner = ms.nn.Momentum([p], ms.nn.PolynomialDecayLR(0.1, 0.01, 4, 0.5), 0.9)
    opt = ms.nn.LARS(inner, lars_filter=_none)
    for s in range(3):
        opt((ms.Tensor(step_grads(g0.asnumpy(), s)),))
    return opt.global_step, inner.global_step, p


OPTIM = [Case(f"steps_LARS_{name}", _opt(make), [W0, W1, G0, G1])
         for name, make in LARS_STEPS.items()]
OPTIM += [Case("steps_LARS_global_step", _lars_global_step, [W0, G0])]


def _state_names(make: Callable) -> Callable:
    """The optimizer's Parameters: attribute name, Parameter name, shape (checkpoint)."""
    def fn(ms: Any, ops: Any) -> Any:
        w = ms.Parameter(ms.Tensor(np.zeros((2, 3), np.float32)), name="fc.weight")
        b = ms.Parameter(ms.Tensor(np.zeros((3,), np.float32)), name="fc.bias")
        g = ms.Parameter(ms.Tensor(np.zeros((3,), np.float32)), name="bn.gamma")
        return _text(ms, _names(make(ms.nn, [w, b, g]), flags=False))
    return fn


NAMES = [Case(f"names_{name}", _state_names(make), []) for name, make in {
    "Lamb": lambda nn, ps: nn.Lamb(ps, 0.1, weight_decay=0.01),
    "Lamb_groups": lambda nn, ps: nn.Lamb([{"params": ps[:1], "weight_decay": 0.1},
                                           {"params": ps[1:]}], 0.1),
    "LARS_Momentum": lambda nn, ps: nn.LARS(nn.Momentum(ps, 0.1, 0.9, weight_decay=0.01)),
    "LARS_Adam": lambda nn, ps: nn.LARS(nn.Adam(ps, 0.01), epsilon=1e-8, coefficient=0.02),
}.items()]


def _make(build: Callable) -> Callable:
    """A constructor call that must fail (the case records MindSpore's error)."""
    def fn(ms: Any, ops: Any) -> Any:
        ps = [ms.Parameter(ms.Tensor(np.ones((2, 2), np.float32)), name="w")]
        build(ms.nn, ps)
        return ms.Tensor(np.zeros(1, np.float32))
    return fn


ERRORS = [Case(f"err_{name}", _make(build), []) for name, build in {
    "Lamb_no_lr": lambda nn, ps: nn.Lamb(ps),
    "Lamb_lr_negative": lambda nn, ps: nn.Lamb(ps, -0.1),
    "Lamb_params_tensor": lambda nn, ps: nn.Lamb(ps[0], 0.1),
    "Lamb_beta1_int": lambda nn, ps: nn.Lamb(ps, 0.1, beta1=1),
    "Lamb_beta1_zero": lambda nn, ps: nn.Lamb(ps, 0.1, beta1=0.0),
    "Lamb_beta2_one": lambda nn, ps: nn.Lamb(ps, 0.1, beta2=1.0),
    "Lamb_eps_int": lambda nn, ps: nn.Lamb(ps, 0.1, eps=1),
    "Lamb_eps_zero": lambda nn, ps: nn.Lamb(ps, 0.1, eps=0.0),
    "Lamb_wd_negative": lambda nn, ps: nn.Lamb(ps, 0.1, weight_decay=-0.1),
    "Lamb_group_key": lambda nn, ps: nn.Lamb([{"params": ps, "momentum": 0.9}], 0.1),
    "LARS_not_optimizer": lambda nn, ps: nn.LARS(ps),
    "LARS_epsilon_int": lambda nn, ps: nn.LARS(nn.Momentum(ps, 0.1, 0.9), epsilon=1),
    "LARS_coefficient_str": lambda nn, ps: nn.LARS(nn.Momentum(ps, 0.1, 0.9), coefficient="1"),
    "LARS_use_clip_int": lambda nn, ps: nn.LARS(nn.Momentum(ps, 0.1, 0.9), use_clip=1),
    "LARS_clip_group_dynamic_lr": lambda nn, ps: nn.LARS(nn.Momentum(
        [{"params": ps, "lr": [0.1, 0.05]}], 0.1, 0.9), use_clip=True),
}.items()]

CASES: list[Case] = OPTIM + NAMES + ERRORS
