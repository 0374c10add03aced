"""Vectorizing map: a trace whose values carry a batch axis (``bdim``; None = unbatched).

Primitives with a ``batch`` rule ``rule(args, dims, **params) -> (out, out_dim)`` run once
for the whole batch; any other primitive falls back to one call per batch element followed
by a stack (correct, slower)."""
from __future__ import annotations

from typing import Any, Sequence

from ..core.primitive import Primitive, Trace, Tracer, bind


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
            out, odim = _loop(prim, vals, dims, params, self.size)
        if prim.multiple_results:
            return tuple(self.new_tracer(o, odim) for o in out)
        return self.new_tracer(out, odim)

    def value_at(self, x: Any, out_axis: int | None) -> Any:
        """Lower an output: move its batch axis to ``out_axis`` (broadcast if unbatched)."""
        from ..prims import batch_rules as B

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
            val, bdim = B.broadcast_batch(val, self.size), 0
        check_axis("out_axes", out_axis, B.S.shape_of(val), "a mapped output of shape")
        return B.moveaxis(val, bdim, out_axis)


def _loop(prim: Primitive, vals: list, dims: list, params: dict, size: int,
          hint: str = "") -> tuple:
    """Fallback for primitives without a batch rule: apply per element, then stack.
    ``hint`` says why results of different shapes would arise, for the error."""
    from ..prims import batch_rules as B

    if size == 0:
        return _loop_empty(prim, vals, dims, params)
    outs = []
    for i in range(size):
        args = [v if d is None else B.take(v, i, d) for v, d in zip(vals, dims)]
        outs.append(bind(prim, args, params))
    shapes = [[list(B.S.shape_of(r)) for r in o] if prim.multiple_results
              else list(B.S.shape_of(o)) for o in outs]
    odd = next((i for i, s in enumerate(shapes) if s != shapes[0]), None)
    if odd is not None:
        raise ValueError(f"For 'vmap', {prim.name} gives a result of shape {shapes[0]} "
                         f"for example 0 but {shapes[odd]} for example {odd}: results "
                         f"of different shapes cannot be stacked into one batch"
                         + (f"; {hint}." if hint else "."))
    if prim.multiple_results:
        return tuple(B.stack0(list(col)) for col in zip(*outs)), 0
    return B.stack0(outs), 0


def _loop_empty(prim: Primitive, vals: list, dims: list, params: dict) -> tuple:
    """The fallback over an empty batch: one example of zeros gives the result's shape and
    dtype; the batch of none of them is that result broadcast to a leading size of 0."""
    from ..prims import batch_rules as B

    args = []
    for v, d in zip(vals, dims):
        if d is None:
            args.append(v)
            continue
        shape = B.S.shape_of(v)
        args.append(B.S.full(shape=shape[:d] + shape[d + 1:], value=0,
                             dtype=B.S.dtype_of(v)))
    out = bind(prim, args, params)
    if prim.multiple_results:
        return tuple(B.broadcast_batch(o, 0) for o in out), 0
    return B.broadcast_batch(out, 0), 0
