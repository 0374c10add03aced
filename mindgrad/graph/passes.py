"""Clean-up passes over a traced graph: constant folding, identity and zero folding, common
subexpressions and dead code. They run in one forward sweep plus one backward sweep."""
from __future__ import annotations

from typing import Any


from .trace import GraphTrace, Lit


def _is_const_value(trace: GraphTrace, operand: Any, value: float) -> bool:
    if isinstance(operand, Lit):
        v = operand.value
        return isinstance(v, (int, float)) and not isinstance(v, bool) and v == value
    arr = trace.consts.get(operand)
    if arr is None or not arr.size:
        return False
    # the first element rules out nearly every constant (weights, data) at once; only a
    # constant that starts with the value is compared in full (a broadcast scalar, all
    # strides 0, such as the cotangent of a sum, has a single cell)
    first = arr[(0,) * arr.ndim]
    if not bool(first == value):
        return False
    return not any(arr.strides) or bool((arr == value).all())


def _identity_source(trace: GraphTrace, prim, params: dict, ins: list, out: int) -> Any:
    """If this equation returns one of its inputs unchanged, that input's var."""
    vals = trace.vals
    out_val = vals[out]

    def same(v: Any) -> bool:
        if isinstance(v, Lit):
            return False
        x = vals[v]
        return x.shape == out_val.shape and x.dtype == out_val.dtype

    hints = prim.hints
    identity = hints.get("identity")  # reshape, cast, ...: the input when nothing changes
    if identity is not None:
        return ins[0] if same(ins[0]) and identity(params) else None
    # x + 0, x * 1, ...: the other operand (a binary primitive's neutral constants)
    for i, value in hints.get("neutral", {}).items():
        other = ins[1 - i]
        if same(other) and _is_const_value(trace, ins[i], value):
            return other
    return None


def _key(prim, params: dict, ins: list) -> Any:
    ops = tuple(("lit", repr(o.value)) if isinstance(o, Lit) else o for o in ins)
    # Exactly commutative in IEEE arithmetic (same value and dtype either way round): the
    # operands are compared as a set, so ``t * y`` and ``y * t`` (the two halves of the
    # product rule's derivative of ``y * y``) are one product.
    if prim.hints.get("commutative") and not params:
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
        if prim.hints.get("guard"):
            if not all(isinstance(o, Lit) or o in consts for o in ins):
                kept.append((prim, params, ins, outs))
            continue
        # constant inputs, or a value that depends only on shapes and dtypes (which a
        # traced signature fixes)
        if prim.hints.get("shape_only") or (
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
        if prim.effect or any(o in needed for o in outs):
            live.append(eqn)
            needed.update(o for o in ins if not isinstance(o, Lit))
    live.reverse()
    return live, outputs


