"""Random compositions of operators, checked numerically.

Each case is a random program of two (3, 4) float64 inputs built from smooth elementwise
operators, broadcasting arithmetic, reductions, shape operators and matrix products (each
chosen so that the program is smooth everywhere: ``log(1 + x*x)`` rather than ``log(x)``).
For every program: forward and reverse derivatives against central differences up to order 3,
GRAPH-mode gradients equal to PYNATIVE ones, and ``vmap`` of the gradient equal to the
gradient of each example. CI checks 100 programs; the slow run 900 more. The generator is seeded, so a failure names
the seed that reproduces it (``build(seed)`` returns the program and its text).
"""
from __future__ import annotations

from typing import Callable

import numpy as np
import pytest

import mindgrad as ms
from mindgrad import ops
from gradcheck import check_graph_matches, check_grads

SHAPE = (3, 4)

# Elementwise maps, smooth on the whole real line.
UNARY: dict[str, Callable] = {
    "sin": ops.sin,
    "cos": ops.cos,
    "tanh": ops.tanh,
    "sigmoid": ops.sigmoid,
    "exp(tanh)": lambda x: ops.exp(ops.tanh(x)),
    "log(1+x^2)": lambda x: ops.log(1 + x * x),
    "sqrt(1+x^2)": lambda x: ops.sqrt(1 + x * x),
    "x/(1+x^2)": lambda x: x / (1 + ops.square(x)),
    "softplus": ops.softplus,
    "atan": ops.atan,
    "erf": ops.erf,
    "neg": ops.neg,
    "x^3": lambda x: x ** 3,
}

BINARY: dict[str, Callable] = {
    "add": ops.add,
    "sub": ops.sub,
    "mul": ops.mul,
    "div": lambda x, y: x / (2 + ops.sin(y)),
    "hypot": lambda x, y: ops.sqrt(1 + x * x + y * y),
    "maximum(smooth)": lambda x, y: 0.5 * (x + y + ops.sqrt((x - y) ** 2 + 1)),
}

# Maps from a (3, 4) value to a (3, 4) value through another shape.
RESHAPE: dict[str, Callable] = {
    "transpose-matmul": lambda x: ops.matmul(ops.matmul(x, x.T), x) / 10,
    "row-mean": lambda x: x - ops.mean(x, 1, keep_dims=True),
    "col-sum": lambda x: x * ops.sum(x, 0, keepdim=True) / 4,
    "reshape-flip": lambda x: ops.reshape(ops.flip(ops.reshape(x, (4, 3)), (0,)), SHAPE),
    "softmax": lambda x: ops.softmax(x, -1),
    "cumsum": lambda x: ops.cumsum(x, 1) / 4,
    "concat-slice": lambda x: ops.concat([x[:, 2:], x[:, :2]], 1),
}


def build(seed: int, depth: int = 4) -> tuple[Callable, str]:
    """A random program of two (3, 4) inputs returning a scalar, and its text."""
    rng = np.random.default_rng(seed)
    steps: list[tuple[str, str, int, int]] = []
    n_values = 2
    for _ in range(depth):
        kind = rng.choice(["unary", "binary", "reshape"], p=[0.45, 0.35, 0.2])
        table = {"unary": UNARY, "binary": BINARY, "reshape": RESHAPE}[kind]
        name = str(rng.choice(sorted(table)))
        a, b = (int(i) for i in rng.integers(0, n_values, size=2))
        steps.append((kind, name, a, b))
        n_values += 1
    weights = rng.uniform(0.2, 1.0, n_values)  # every step reaches the output

    def program(x, y):
        values = [x, y]
        for kind, name, a, b in steps:
            if kind == "binary":
                values.append(BINARY[name](values[a], values[b]))
            elif kind == "unary":
                values.append(UNARY[name](values[a]))
            else:
                values.append(RESHAPE[name](values[a]))
        out = sum(float(w) * v for w, v in zip(weights, values))
        return ops.sum(out * out) / 10

    text = "; ".join(f"v{2 + i} = {name}(v{a}{f', v{b}' if kind == 'binary' else ''})"
                     for i, (kind, name, a, b) in enumerate(steps))
    return program, text


def _inputs(seed: int) -> list:
    rng = np.random.default_rng(10_000 + seed)
    return [ms.Tensor(rng.uniform(-1.5, 1.5, SHAPE)) for _ in range(2)]


def _check(seed: int, order: int) -> None:
    program, text = build(seed)
    args = _inputs(seed)
    try:
        check_grads(program, args, order=order, seed=seed)
        check_graph_matches(program, args, order=2)
        batch = ms.Tensor(np.stack([a.asnumpy() for a in args]))  # two examples of x
        per_example = ops.vmap(ops.grad(program), in_axes=(0, None))(batch, args[1])
        for i in range(2):
            want = ops.grad(program)(ms.Tensor(batch.asnumpy()[i]), args[1])
            np.testing.assert_allclose(per_example.asnumpy()[i], want.asnumpy(), rtol=1e-12,
                                       atol=1e-12)
    except AssertionError as err:
        raise AssertionError(f"seed {seed}: {text}\n{err}") from None


@pytest.mark.parametrize("seed", range(100))
def test_random_composition(seed):
    _check(seed, order=3)


@pytest.mark.slow
@pytest.mark.parametrize("seed", range(100, 1000))
def test_random_composition_more(seed):
    _check(seed, order=3)


def test_programs_differ():
    """The generator really varies: forty seeds give many different programs."""
    texts = {build(seed)[1] for seed in range(40)}
    assert len(texts) >= 38
