"""Turn an optimized graph into a straight-line Python function over arrays."""
from __future__ import annotations

import functools
import math
from typing import Any, Callable

from .trace import GUARD, GraphTrace, Lit


class GuardFail(Exception):
    """A value-dependent branch went another way than when the graph was traced."""


def _literal(value: Any, ns: dict) -> str:
    if isinstance(value, bool) or value is None:
        return repr(value)
    if isinstance(value, int) or (isinstance(value, float) and math.isfinite(value)):
        return repr(value)
    name = f"_l{len(ns)}"
    ns[name] = value
    return name


def generate(trace: GraphTrace, eqns: list, outputs: list[int], param_vars: list[int],
             name: str = "graph") -> tuple[Callable, str]:
    """Return ``fn(*inputs, *params) -> tuple of output arrays`` and its source text."""
    ns: dict[str, Any] = {"_GuardFail": GuardFail}
    name = "".join(c if c.isalnum() else "_" for c in name)
    if not name.isidentifier():
        name = "graph_" + name

    def ref(o: Any) -> str:
        if isinstance(o, Lit):
            return _literal(o.value, ns)
        if o in trace.consts:
            cname = f"_c{o}"
            ns[cname] = trace.consts[o]
            return cname
        return f"v{o}"

    args = [f"v{v}" for v in trace.inputs] + [f"v{v}" for v in param_vars]
    lines = [f"def {name}({', '.join(args)}):"]
    for k, (prim, params, ins, outs) in enumerate(eqns):
        operands = [ref(o) for o in ins]
        if prim is GUARD:
            ns[f"_g{k}"] = params["kind"]
            ns[f"_e{k}"] = params["value"]
            lines.append(f"    if _g{k}({operands[0]}) != _e{k}: raise _GuardFail()")
            continue
        if prim.expr is not None and not params:
            rhs = prim.expr.format(*operands)
        else:
            fname = f"_f{k}"
            ns[fname] = functools.partial(prim.impl, **params) if params else prim.impl
            rhs = f"{fname}({', '.join(operands)})"
        lhs = ", ".join(f"v{o}" for o in outs)
        if len(outs) == 1:
            lines.append(f"    {lhs} = {rhs}")
        else:
            lines.append(f"    ({lhs},) = {rhs}")
    lines.append(f"    return ({''.join(ref(o) + ', ' for o in outputs)})")
    source = "\n".join(lines)
    exec(compile(source, f"<mindgrad graph {name}>", "exec"), ns)
    return ns[name], source
