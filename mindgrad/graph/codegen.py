"""Turn an optimized graph into a straight-line Python function over arrays."""
from __future__ import annotations

import functools
import math
from typing import Any, Callable

import numpy as np

from .trace import GraphTrace, Lit


class GuardFail(Exception):
    """A value-dependent branch went another way than when the graph was traced."""


def _one_value(arr: Any) -> Any:
    """The scalar a guard compares (the same conversion as GraphTrace.guard)."""
    return arr.item() if arr.size == 1 else arr


def _literal(value: Any, ns: dict) -> str:
    if isinstance(value, bool) or value is None:
        return repr(value)
    # exact types: NumPy scalars (np.float64 is a float) repr as `np.float64(...)`
    if type(value) is int or (type(value) is float and math.isfinite(value)):
        return repr(value)
    name = f"_l{len(ns)}"
    ns[name] = value
    return name


def _typed_scalar(trace: GraphTrace, prim: Any, ins: list, out: int, ns: dict) -> dict:
    """For a primitive with the ``"weak_scalar"`` hint, the Python numbers among ``ins`` that
    may be passed as 0-d arrays of the result's dtype: {operand index: constant name}.

    NumPy converts a Python number operand to the array operand's dtype (NEP 50's weak
    scalars), which costs a conversion on every call (about 0.4 us, more than the
    arithmetic on a thousand elements); a 0-d array of that dtype holding the converted
    number gives the same result. Only where nothing else could change the result: a
    floating result of the same dtype as every array operand, not 0-d (NumPy returns a
    scalar there), and a number that the dtype holds finite (an int exactly)."""
    val = trace.vals[out]
    if not isinstance(val, np.ndarray) or val.dtype.kind != "f" or val.ndim == 0:
        return {}
    names = {}
    for i, o in enumerate(ins):
        if not isinstance(o, Lit):
            x = trace.consts.get(o, trace.vals[o])
            if not isinstance(x, np.ndarray) or x.dtype != val.dtype:
                return {}
            continue
        v = o.value
        if type(v) not in (int, float):
            return {}
        with np.errstate(all="ignore"):
            typed = np.asarray(v, val.dtype)
        if not np.isfinite(typed) or (type(v) is int and int(typed) != v):
            return {}
        name = f"_s{len(ns)}"
        ns[name] = typed
        names[i] = name
    return names


def _owns_result(prim: Any, params: dict) -> bool:
    """Whether the primitive's results never share memory with its operands: an inline
    expression or a ufunc (NumPy makes new arrays) or the ``"fresh"`` hint."""
    return ((prim.expr is not None and not params) or bool(prim.hints.get("fresh"))
            or (prim.hints.get("ufunc") is not None and not params))


def _reusable_operands(trace: GraphTrace, eqns: list, last: dict, held: set) -> dict:
    """{equation index: operand var} for the elementwise equations (``"ufunc"`` hint: the
    NumPy ufunc the primitive computes, without parameters) that may write their result
    into an operand's buffer (``out=``) rather than a new array: an operand that dies
    there, has the result's shape and dtype, and whose buffer nothing else can see. That
    holds for a temporary made by a primitive that owns its results and read only by such
    primitives (so no view of it exists), which is not an input, a Parameter, a constant
    or an output (``held``). A write into a buffer still in the cache replaces a new
    allocation and a pass over fresh memory."""
    owner: dict = {}  # var -> whether its producer owns it and no reader can alias it
    for prim, params, ins, outs in eqns:
        owns = _owns_result(prim, params)
        for o in outs:
            owner[o] = owns
        if not owns and not prim.hints.get("guard"):
            for o in ins:  # a reader that may return a view of o: o is never reused
                if not isinstance(o, Lit):
                    owner[o] = False
    reuse: dict = {}
    for k, (prim, params, ins, outs) in enumerate(eqns):
        if (prim.hints.get("ufunc") is None or params or len(outs) != 1
                or prim.multiple_results):
            continue
        val = trace.vals[outs[0]]
        if not isinstance(val, np.ndarray) or val.ndim == 0:
            continue
        for o in ins:
            if isinstance(o, Lit) or o in held or o in trace.consts or not owner.get(o):
                continue
            x = trace.vals[o]
            if (last.get(o) == k and isinstance(x, np.ndarray) and x.shape == val.shape
                    and x.dtype == val.dtype and x.flags.writeable):
                reuse[k] = o
                break
    return reuse


def generate(trace: GraphTrace, eqns: list, outputs: list[int], param_vars: list[int],
             name: str = "graph") -> tuple[Callable, str]:
    """Return ``fn(*inputs, *params) -> tuple of output arrays`` and its source text."""
    # __name__ places the compiled code in mindgrad (the floating-point warnings filter of
    # common/fp_warnings.py recognizes its frames by module name)
    ns: dict[str, Any] = {"_GuardFail": GuardFail, "_one": _one_value,
                          "__name__": "mindgrad.graph.compiled"}
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

    # The last equation reading each variable: a temporary is deleted right after it, so
    # its array goes back to the allocator while the rest of the graph runs. NumPy's large
    # arrays are mmapped one by one; holding every temporary to the end made each call fault
    # in the graph's whole working set afresh (measured: thousands of minor page faults per
    # call on the PINN Laplacian routes), where a freed buffer is reused by the next one.
    keep = set(outputs)
    last: dict = {}
    for k, (_, _, ins, outs) in enumerate(eqns):
        for o in outs:
            last.setdefault(o, k)  # an output that nothing reads dies where it is made
        for o in ins:
            if not isinstance(o, Lit) and o not in trace.consts:
                last[o] = k
    dead_at: dict = {}
    for o, k in last.items():
        if o not in keep:
            dead_at.setdefault(k, []).append(o)
    reuse = _reusable_operands(trace, eqns, last, keep | set(trace.inputs) | set(param_vars))
    args = [f"v{v}" for v in trace.inputs] + [f"v{v}" for v in param_vars]
    lines = [f"def {name}({', '.join(args)}):"]
    for k, (prim, params, ins, outs) in enumerate(eqns):
        if k - 1 in dead_at:
            lines.append(f"    del {', '.join(f'v{o}' for o in sorted(dead_at[k - 1]))}")
        operands = [ref(o) for o in ins]
        inline = prim.expr is not None and not params
        if inline and prim.hints.get("weak_scalar") and len(outs) == 1:
            for i, cname in _typed_scalar(trace, prim, ins, outs[0], ns).items():
                operands[i] = cname
        if prim.hints.get("guard"):
            ns[f"_g{k}"] = params["kind"]
            ns[f"_e{k}"] = params["value"]
            lines.append(f"    if _g{k}(_one({operands[0]})) != _e{k}: raise _GuardFail()")
            continue
        if k in reuse:
            fname = f"_u{k}"
            ns[fname] = prim.hints["ufunc"]
            rhs = f"{fname}({', '.join(operands)}, out={ref(reuse[k])})"
        elif inline:
            rhs = prim.expr.format(*operands)
        else:
            fname = f"_f{k}"
            ns[fname] = functools.partial(prim.impl, **params) if params else prim.impl
            rhs = f"{fname}({', '.join(operands)})"
        lhs = ", ".join(f"v{o}" for o in outs)
        if len(outs) == 1 and not prim.multiple_results:  # (one result of several: a tuple)
            lines.append(f"    {lhs} = {rhs}")
        else:
            lines.append(f"    ({lhs},) = {rhs}")
    lines.append(f"    return ({''.join(ref(o) + ', ' for o in outputs)})")
    source = "\n".join(lines)
    exec(compile(source, f"<mindgrad graph {name}>", "exec"), ns)
    return ns[name], source
