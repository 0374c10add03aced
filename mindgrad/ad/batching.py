"""Vectorizing map: a trace whose values carry a batch axis (``bdim``; None = unbatched).

Primitives with a ``batch`` rule ``rule(args, dims, **params) -> (out, out_dim)`` run once
for the whole batch; any other primitive falls back to one call per batch element followed
by a stack (correct, slower)."""
from __future__ import annotations

from typing import Any, Callable, Sequence

from ..core.following import outputs_of, pop_trace
from ..core.primitive import Primitive, Trace, Tracer, bind, push_trace
from ..core.tensor import Tensor
from ..core.tree import flatten, unflatten
from ..prims import structural as S
from .inputs import resolve


class VmapAxisError(RuntimeError, ValueError):
    """A bad ``in_axes`` / ``out_axes`` value: a RuntimeError, as MindSpore raises, that is
    also the ValueError Python code expects."""


class VmapAxisTypeError(RuntimeError, TypeError):
    """An ``in_axes`` / ``out_axes`` entry of the wrong type (MindSpore: RuntimeError)."""


def check_axis(name: str, axis: int, shape: tuple, what: str) -> None:
    """A vmap axis must name a dimension of the value it maps (rank >= 1)."""
    n = len(shape)
    if not n:
        raise VmapAxisError(f"For 'vmap', {name} {axis} cannot map {what} {list(shape)} (rank 0): "
                         f"a mapped value needs at least one dimension; give {name} None for "
                         f"a value that is not mapped.")
    if not -n <= axis < n:
        raise VmapAxisError(f"For 'vmap', {name} {axis} is out of range for {what} "
                         f"{list(shape)} (rank {n}): it must be in [{-n}, {n}).")


class BatchTracer(Tracer):
    __slots__ = ("primal", "bdim")

    @property
    def _data(self):  # type: ignore[override]
        # One example's worth (a view), so shape and dtype are what the function sees.
        data = self.primal._data
        if data.shape[self.bdim] == 0:
            # an empty batch has no example: zeros of one example's shape stand in, so the
            # function still sees the shape and dtype (its results are empty batches); a sum
            # over the empty axis is those zeros in NumPy and CuPy alike
            return data.sum(axis=self.bdim, dtype=data.dtype)
        return data[(slice(None),) * self.bdim + (0,)]

    def __lower__(self):
        raise TypeError("A batched value inside vmap has no single value: Python control "
                        "flow or conversion on it is not possible; use ops.select instead.")

    def _assigned(self, name: str):
        # One Parameter holds one value: there is no per-example state to write back to.
        raise ValueError(f"For 'Parameter.set_data', Parameter '{name}' cannot be updated "
                         f"with a per-example value inside vmap (of shape "
                         f"{list(self.shape)} per example): a Parameter holds one value for "
                         f"the whole batch. Layers that update running statistics (BatchNorm "
                         f"in training mode) cannot run inside vmap; call set_train(False) "
                         f"or update the Parameter outside vmap.")


class BatchTrace(Trace):
    __slots__ = ("size",)

    def __init__(self, size: int) -> None:
        self.size = size

    def new_tracer(self, val: Any, bdim: int | None) -> Any:
        if bdim is None:
            return val
        t = object.__new__(BatchTracer)
        t._trace = self
        t.primal = val
        t.bdim = bdim
        return t

    def process(self, prim: Primitive, args: Sequence, params: dict) -> Any:
        vals, dims = self.unpack(args, "bdim")
        if all(d is None for d in dims):
            return bind(prim, vals, params)
        if prim.batch is not None:
            out, odim = prim.batch(vals, dims, **params)
        else:
            out, odim = per_example(prim, vals, dims, params, self.size)
        if prim.multiple_results:
            return tuple(self.new_tracer(o, odim) for o in out)
        return self.new_tracer(out, odim)

    def value_at(self, x: Any, out_axis: int | None) -> Any:
        """Lower an output: move its batch axis to ``out_axis`` (broadcast if unbatched)."""
        if getattr(x, "_trace", None) is self:
            val, bdim = x.primal, x.bdim
        else:
            val, bdim = x, None
        if out_axis is None:
            if bdim is not None:
                raise ValueError("For 'vmap', an output with out_axes=None must not depend on "
                                 "the mapped inputs.")
            return val
        if bdim is None:
            val, bdim = S.broadcast_batch(val, self.size), 0
        check_axis("out_axes", out_axis, S.shape_of(val), "a mapped output of shape")
        return S.moveaxis(val, bdim, out_axis)


def per_example(prim: Primitive, vals: list, dims: list, params: dict, size: int,
          hint: str = "") -> tuple:
    """Fallback for primitives without a batch rule: apply per element, then stack.
    ``hint`` says why results of different shapes would arise, for the error."""
    if size == 0:
        return _loop_empty(prim, vals, dims, params)
    examples = [None if d is None else S.unstack(v, axis=d) for v, d in zip(vals, dims)]
    outs = []
    for i in range(size):
        args = [v if ex is None else ex[i] for v, ex in zip(vals, examples)]
        outs.append(bind(prim, args, params))
    shapes = [[list(S.shape_of(r)) for r in o] if prim.multiple_results
              else list(S.shape_of(o)) for o in outs]
    odd = next((i for i, s in enumerate(shapes) if s != shapes[0]), None)
    if odd is not None:
        raise ValueError(f"For 'vmap', {prim.name} gives a result of shape {shapes[0]} "
                         f"for example 0 but {shapes[odd]} for example {odd}: results "
                         f"of different shapes cannot be stacked into one batch"
                         + (f"; {hint}." if hint else "."))
    if prim.multiple_results:
        return tuple(S.stack0(list(col)) for col in zip(*outs)), 0
    return S.stack0(outs), 0


def _loop_empty(prim: Primitive, vals: list, dims: list, params: dict) -> tuple:
    """The fallback over an empty batch: one example of zeros gives the result's shape and
    dtype; the batch of none of them is that result broadcast to a leading size of 0."""
    args = []
    for v, d in zip(vals, dims):
        if d is None:
            args.append(v)
            continue
        shape = S.shape_of(v)
        args.append(S.full(shape=shape[:d] + shape[d + 1:], value=0,
                             dtype=S.dtype_of(v)))
    out = bind(prim, args, params)
    if prim.multiple_results:
        return tuple(S.broadcast_batch(o, 0) for o in out), 0
    return S.broadcast_batch(out, 0), 0


def vectorize(fn: Callable, args: Sequence, in_axes: Sequence, out_axes: Any = 0) -> Any:
    """Map ``fn`` over axis ``in_axes[i]`` of each ``args[i]`` (None: not mapped) at once.
    ``out_axes`` is an int/None for every output leaf or a matching tuple."""
    for a, ax in zip(args, in_axes):
        if ax is not None:
            check_axis("in_axes", ax, a.shape, "an input of shape")
    sizes = [a.shape[ax] for a, ax in zip(args, in_axes) if ax is not None]
    if not sizes:
        raise VmapAxisError("For 'vmap', at least one input must be mapped (in_axes all "
                            "None).")
    for s in sizes[1:]:
        if s != sizes[0]:
            raise RuntimeError(f"The 'axis_size' of each argument in the scope of 'vmap' should "
                               f"be equal, but got {sizes[0]} and {s}.")
    trace = push_trace(BatchTrace(sizes[0]))
    try:
        targs = [a if ax is None else trace.new_tracer(resolve(a), ax % a.ndim)
                 for a, ax in zip(args, in_axes)]
        out = outputs_of(fn(*targs), trace)
    finally:
        pop_trace(trace)
    out = _numbers_as_tensors(out, out_axes)
    leaves, tree = flatten(out)
    axes = axes_per_leaf(out_axes, out, len(leaves))
    return unflatten(tree, [trace.value_at(x, ax) for x, ax in zip(leaves, axes)])


def _numbers_as_tensors(out: Any, spec: Any) -> Any:
    """Python numbers among the outputs that get an out axis become Tensors (Int64, Float32,
    Bool), to be repeated along it as MindSpore does; with out axis None they stay numbers."""
    if spec is None:
        return out
    if isinstance(out, (bool, int, float)):
        return Tensor(out)
    if isinstance(out, (tuple, list)):
        specs = spec if isinstance(spec, (tuple, list)) and len(spec) == len(out) \
            else [spec] * len(out)
        return type(out)(_numbers_as_tensors(o, s) for o, s in zip(out, specs))
    return out


def axes_per_leaf(spec: Any, out: Any, n: int) -> list:
    """``out_axes`` spread over the ``n`` Tensor leaves of ``out`` (checked)."""
    if spec is None or (isinstance(spec, int) and not isinstance(spec, bool)):
        return [spec] * n
    if not isinstance(spec, (tuple, list)):
        raise VmapAxisTypeError(f"For 'vmap', an out_axes entry must be an int, None, or a "
                                f"tuple or list of them, but got {spec!r}.")
    flat: list = []
    outs = out if isinstance(out, (tuple, list)) else (out,)
    if len(spec) != len(outs):
        raise VmapAxisError(f"For 'vmap', out_axes has {len(spec)} entries but the function "
                            f"returns {len(outs)} outputs.")
    for s, o in zip(spec, outs):
        flat.extend(axes_per_leaf(s, o, len(flatten(o)[0])))
    return flat
