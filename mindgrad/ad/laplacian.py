"""Forward Laplacian (collapsed second-order Taylor mode).

Each value ``u`` carries, besides itself, its first derivatives along all ``n`` input
directions at once, ``grads`` (shape ``(n,) + u.shape``), and the *sum* over those directions
of its second derivatives, ``lap`` (shape ``u.shape``). For ``z = f(u)``:

    grads(z) = f'(u) grads(u)                               (one batched JVP)
    lap(z)   = f'(u) lap(u) + sum_d f''(u)[grads_d(u), grads_d(u)]

so the second-order part is never formed per direction: it is summed as it goes, and through a
linear operation it passes as one call (Li et al. 2024, "forward Laplacian"; Dangel et al. 2025,
"collapsed Taylor mode"). Rules by the shape of a primitive's Taylor rule (``rule.kind``, set
by the helpers in ``prims.structural``):

* ``linear`` (linear in the first argument, the rest constants) and ``additive``: the op is
  applied to the direction stack (its vmap rule) and to ``lap``; no second-order term.
* ``bilinear`` (mul, matmul): the product rule, ``lap = f(La, b) + f(a, Lb) + 2 sum_d
  f(Ga_d, Gb_d)``.
* ``unary`` (elementwise): f' and f''/2 from the primitive's own second-order Taylor rule at
  the value, then ``grads = f' G`` and ``lap = f' L + f'' sum_d G_d^2``.
* anything else: the primitive's Taylor rule (dedicated or derived from its JVP) mapped over
  the directions with series ``(G_d, L / 2n)``; ``lap = 2 sum_d z2_d``. Correct for every
  primitive, at n times the cost of its second-order part.

Every rule is written with primitives, so the pass composes with vmap, reverse mode (training
a PINN through its Laplacian) and GRAPH-mode compilation.
"""
from __future__ import annotations

from typing import Any, Callable, Sequence

from ..core.following import outputs_of, pop_trace
from ..core.primitive import Primitive, Trace, Tracer, bind, push_trace
from ..core.tree import flatten, unflatten
from ..prims import structural as S
from .batching import vectorize
from .taylor import from_jvp


class LaplacianTracer(Tracer):
    __slots__ = ("primal", "grads", "lap")

    @property
    def _data(self):  # type: ignore[override]
        return self.primal._data

    def __lower__(self):
        return self.primal


class LaplacianTrace(Trace):
    __slots__ = ("n",)

    def __init__(self, n: int) -> None:
        self.n = n  # the number of directions

    def new_tracer(self, primal: Any, grads: Any, lap: Any) -> Any:
        if grads is None and lap is None:
            return primal
        t = object.__new__(LaplacianTracer)
        t._trace = self
        t.primal = primal
        t.grads = grads
        t.lap = lap
        return t

    def process(self, prim: Primitive, args: Sequence, params: dict) -> Any:
        primals, tracers = self.unpack(args, None)
        if prim.nondiff or all(t is None for t in tracers):
            return bind(prim, primals, params)
        grads = [None if t is None else t.grads for t in tracers]
        laps = [None if t is None else t.lap for t in tracers]
        kind = getattr(prim.taylor, "kind", None)
        rule = _RULES.get(kind, _fallback)
        if kind in ("linear", "unary") and any(g is not None or lp is not None
                                               for g, lp in zip(grads[1:], laps[1:])):
            rule = _fallback  # only the first input may vary under these rules
        out, gout, lout = rule(prim, primals, grads, laps, params, self.n)
        if prim.multiple_results:
            return tuple(self.new_tracer(o, g, lp) for o, g, lp in zip(out, gout, lout))
        return self.new_tracer(out, gout, lout)


def laplacian_call(fn: Callable, x: Any, grads: Any) -> tuple:
    """Run ``fn(x)`` with ``x`` carrying the direction stack ``grads`` (shape ``(n,) +
    x.shape``) and a zero Laplacian. Returns ``(out, grads, laps)``: the output and two lists
    with one entry per output leaf (``core.tree.flatten`` order), None where a leaf does not
    depend on x."""
    n = grads.shape[0]
    trace = push_trace(LaplacianTrace(n))
    try:
        tx = object.__new__(LaplacianTracer)
        tx._trace, tx.primal, tx.grads, tx.lap = trace, x, grads, None
        out = outputs_of(fn(tx), trace)
    finally:
        pop_trace(trace)
    leaves, tree = flatten(out)
    mine = [getattr(v, "_trace", None) is trace for v in leaves]
    prim_out = [v.primal if m else v for v, m in zip(leaves, mine)]
    g_out = [v.grads if m else None for v, m in zip(leaves, mine)]
    l_out = [v.lap if m else None for v, m in zip(leaves, mine)]
    return unflatten(tree, prim_out), g_out, l_out


# --- helpers --------------------------------------------------------------------------------

def _over_directions(prim: Primitive, args: list, dims: list, params: dict) -> Any:
    """``prim`` mapped over the leading direction axis of the arguments whose dim is 0
    (its vmap rule, or the vmap fallback); the result has the direction axis in front."""

    if prim.batch is not None:
        out, odim = prim.batch(args, dims, **params)
        if prim.multiple_results:
            return tuple(S.to_front(o, odim) for o in out)
        return S.to_front(out, odim)
    mapped = [i for i, d in enumerate(dims) if d is not None]

    def one(*vs: Any) -> Any:
        full = list(args)
        for i, v in zip(mapped, vs):
            full[i] = v
        return bind(prim, full, params)

    return vectorize(one, [args[i] for i in mapped], [0] * len(mapped), 0)


def _full_stack(g: Any, out: Any, n: int) -> Any:
    """A direction stack broadcast to ``(n,) + out.shape`` (a linear op may broadcast)."""

    want = (n,) + tuple(S.shape_of(out))
    return g if tuple(S.shape_of(g)) == want else S.broadcast_to(g, shape=want)


# --- rules: (prim, primals, grads, laps, params, n) -> (out, out_grads, out_lap) -------------

def _linear_rule(prim, primals, grads, laps, params, n):
    out = bind(prim, primals, params)
    rest = list(primals[1:])
    g = None if grads[0] is None else _over_directions(
        prim, [grads[0]] + rest, [0] + [None] * len(rest), params)
    lp = None if laps[0] is None else bind(prim, [laps[0]] + rest, params)
    return out, g, lp


def _additive_rule(prim, primals, grads, laps, params, n):
    out = bind(prim, primals, params)
    sub = prim is S.sub
    ga, gb = grads
    if gb is not None and sub:
        gb = S.neg(gb)
    if ga is not None and gb is not None:
        g = _over_directions(S.add, [ga, gb], [0, 0], {})
    else:
        g = ga if ga is not None else gb
    la, lb = laps
    if lb is not None and sub:
        lb = S.neg(lb)
    lp = S.add_if(la, lb)
    return (out, None if g is None else _full_stack(g, out, n),
            None if lp is None else S.broadcast_like(lp, out))


def _bilinear_rule(prim, primals, grads, laps, params, n):
    a, b = primals
    ga, gb = grads
    la, lb = laps
    out = bind(prim, [a, b], params)
    g = None
    if ga is not None:
        g = _over_directions(prim, [ga, b], [0, None], params)
    if gb is not None:
        t = _over_directions(prim, [a, gb], [None, 0], params)
        g = t if g is None else S.add(g, t)
    lp = None
    if la is not None:
        lp = bind(prim, [la, b], params)
    if lb is not None:
        lp = S.add_if(lp, bind(prim, [a, lb], params))
    if ga is not None and gb is not None:
        cross = S.reduce_sum(_over_directions(prim, [ga, gb], [0, 0], params), axis=(0,),
                             keepdims=False)
        lp = S.add_if(lp, S.mul(cross, 2.0))
    return out, g, lp


def _unary_rule(prim, primals, grads, laps, params, n):
    x = primals[0]
    g, lx = grads[0], laps[0]
    closed = getattr(prim.taylor, "second", None)
    if closed is not None:
        out, d1, d2 = closed(x)  # f, f', f''
    else:
        # f' and f''/2 are the first two Taylor coefficients along the all-ones direction
        out, (d1, h2) = prim.taylor([x], [[S.ones_like(x), None]], **params)
        d2 = None if h2 is None else S.mul(h2, 2.0)
    if d1 is None:
        return out, None, None
    gout = None if g is None else S.mul(g, d1)
    lp = None if lx is None else S.mul(lx, d1)
    if g is not None and d2 is not None:
        sq = S.reduce_sum(S.mul(g, g), axis=(0,), keepdims=False)
        lp = S.add_if(lp, S.mul(sq, d2))
    return out, gout, lp


def _fallback(prim, primals, grads, laps, params, n):
    """The primitive's Taylor rule mapped over the directions, with series (G_d, L / 2n):
    coefficient 2 of z is f''[G_d, G_d] / 2 + f'(L) / 2n, so 2 sum_d z2_d is the Laplacian."""

    rule = prim.taylor or from_jvp(prim)
    out = bind(prim, primals, params)
    mapped = [i for i, g in enumerate(grads) if g is not None]
    halves = [None if lp is None else S.mul(lp, 0.5 / n) for lp in laps]
    for i, (g, lp) in enumerate(zip(grads, laps)):
        if g is None and lp is not None:
            raise NotImplementedError(f"forward Laplacian: {prim.name} input {i} has a "
                                      f"Laplacian but no first derivatives")
    present: list = []

    def one(*gs: Any) -> Any:
        series: list = [None] * len(primals)
        for i, gd in zip(mapped, gs):
            series[i] = [gd, halves[i]]
        _, zs = rule(list(primals), series, **params)
        zs = list(zs) if prim.multiple_results else [zs]
        flat = []
        present.clear()
        for z in zs:
            z1, z2 = (z + [None, None])[:2] if z is not None else (None, None)
            present.append((z1 is not None, z2 is not None))
            flat.extend(v for v in (z1, z2) if v is not None)
        return tuple(flat)

    flat = list(vectorize(one, [grads[i] for i in mapped], [0] * len(mapped), 0))
    gouts, louts = [], []
    for has1, has2 in present:
        z1 = flat.pop(0) if has1 else None
        z2 = flat.pop(0) if has2 else None
        gouts.append(z1)
        louts.append(None if z2 is None else
                     S.mul(S.reduce_sum(z2, axis=(0,), keepdims=False), 2.0))
    if prim.multiple_results:
        return out, gouts, louts
    return out, gouts[0], louts[0]


_RULES: dict[str | None, Callable] = {"linear": _linear_rule, "additive": _additive_rule,
                                      "bilinear": _bilinear_rule, "unary": _unary_rule}
