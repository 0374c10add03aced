"""Clean-up passes over a traced graph: constant folding, identity and zero folding, common
subexpressions and dead code. They run in one forward sweep plus one backward sweep."""
from __future__ import annotations

from typing import Any


from ..prims import arith as A
from ..prims import shape as S
from .trace import GUARD, GraphTrace, Lit


# Their values depend only on shapes and dtypes, which a traced signature fixes.
_SHAPE_ONLY = (S.zeros_like, S.ones_like)


def _is_const_value(trace: GraphTrace, operand: Any, value: float) -> bool:
    if isinstance(operand, Lit):
        v = operand.value
        return isinstance(v, (int, float)) and not isinstance(v, bool) and v == value
    arr = trace.consts.get(operand)
    if arr is None:
        return False
    if arr.size > 64:
        # a broadcast scalar (all strides 0, e.g. the cotangent of a sum) is one value
        if arr.ndim == 0 or any(arr.strides) or not arr.size:
            return False
        return bool(arr[(0,) * arr.ndim] == value)
    return bool((arr == value).all())


def _identity_source(trace: GraphTrace, prim, params: dict, ins: list, out: int) -> Any:
    """If this equation returns one of its inputs unchanged, that input's var."""
    vals = trace.vals
    out_val = vals[out]

    def same(v: Any) -> bool:
        if isinstance(v, Lit):
            return False
        x = vals[v]
        return x.shape == out_val.shape and x.dtype == out_val.dtype

    if prim in (S.reshape, S.broadcast_to, S.cast, S.transpose):
        if same(ins[0]) and (prim is not S.transpose or params["perm"] == tuple(range(len(params["perm"])))):
            return ins[0]
        return None
    if prim in (A.add, A.sub) and same(ins[0]) and _is_const_value(trace, ins[1], 0):
        return ins[0]
    if prim is A.add and same(ins[1]) and _is_const_value(trace, ins[0], 0):
        return ins[1]
    if prim in (A.mul, A.div) and same(ins[0]) and _is_const_value(trace, ins[1], 1):
        return ins[0]
    if prim is A.mul and same(ins[1]) and _is_const_value(trace, ins[0], 1):
        return ins[1]
    return None


# Exactly commutative in IEEE arithmetic (same value and dtype either way round): their
# operands are compared as a set, so ``t * y`` and ``y * t`` (the two halves of the product
# rule's derivative of ``y * y``, in every second-order pass through tanh) are one product.
_COMMUTATIVE = (A.add, A.mul)


def _key(prim, params: dict, ins: list) -> Any:
    ops = tuple(("lit", repr(o.value)) if isinstance(o, Lit) else o for o in ins)
    if prim in _COMMUTATIVE and not params:
        ops = tuple(sorted(ops, key=repr))
    return (id(prim), repr(sorted(params.items())), ops)


def optimize(trace: GraphTrace, outputs: list[int]) -> tuple[list, list[int]]:
    """Return the optimized equation list and the (possibly renamed) output vars."""
    alias: dict[int, int] = {}
    seen: dict = {}
    consts = trace.consts
    kept: list = []

    def res(o: Any) -> Any:
        return o if isinstance(o, Lit) else alias.get(o, o)

    for prim, params, ins, outs in trace.eqns:
        ins = [res(o) for o in ins]
        if prim is GUARD:
            if not all(isinstance(o, Lit) or o in consts for o in ins):
                kept.append((prim, params, ins, outs))
            continue
        if prim in _SHAPE_ONLY or (
                not prim.effect and all(isinstance(o, Lit) or o in consts for o in ins)):
            for o in outs:  # constant folding: the traced value is the value
                consts[o] = trace.vals[o]
            continue
        if len(outs) == 1 and not prim.effect:
            src = _identity_source(trace, prim, params, ins, outs[0])
            if src is not None:
                alias[outs[0]] = src
                continue
        if not prim.effect:
            key = _key(prim, params, ins)
            prev = seen.get(key)
            if prev is not None:
                for o, p in zip(outs, prev):
                    alias[o] = p
                continue
            seen[key] = outs
        kept.append((prim, params, ins, outs))
    outputs = [res(o) for o in outputs]

    # dead code: keep what outputs and guards need
    needed = set(outputs)
    live: list = []
    for eqn in reversed(kept):
        prim, params, ins, outs = eqn
        if prim is GUARD or prim.effect or any(o in needed for o in outs):
            live.append(eqn)
            needed.update(o for o in ins if not isinstance(o, Lit))
    live.reverse()
    return live, outputs


