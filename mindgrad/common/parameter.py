"""``Parameter`` (a named, trainable Tensor whose value can be updated) and ``ParameterTuple``."""
from __future__ import annotations

from typing import Any, Iterable

from ..core.primitive import Tracer, before_change, graph_tracing, tracing
from .tensor import Tensor


def _graph_trace() -> Any:
    """The GRAPH-mode trace being recorded, if any (imported late: it imports this module)."""
    from ..graph.trace import current_graph_trace

    return current_graph_trace()


class Parameter(Tensor):
    """A trainable tensor owned by a Cell. Unlike a Tensor, its value can be replaced in place
    (``set_data``, ``assign_value``), which is how optimizers update it.

    While transformations differentiate with respect to a Parameter, ``_subs`` counts the
    threads doing so and ``_trace`` is the dispatch point's marker that makes each of those
    threads swap in its own tracer for it (``core.primitive.substitute``)."""

    __slots__ = ("name", "requires_grad", "layerwise_parallel", "_trace", "_subs", "_named")

    def __init__(self, default_input: Any, name: str | None = None, requires_grad: bool = True,
                 layerwise_parallel: bool = False, parallel_optimizer: bool = True) -> None:
        if isinstance(default_input, Tensor):
            data = default_input._data
        else:
            data = Tensor(default_input)._data
        self._data = data
        self._named = name is not None
        self.name = name if name is not None else "Parameter"
        self.requires_grad = bool(requires_grad)
        self.layerwise_parallel = layerwise_parallel
        self._trace = None
        self._subs = 0

    def __repr__(self) -> str:
        return (f"Parameter (name={self.name}, shape={self.shape}, dtype={self.dtype}, "
                f"requires_grad={self.requires_grad})")

    __str__ = __repr__  # MindSpore prints a Parameter by its description, not its values

    @property
    def data(self) -> "Parameter":
        return self

    def set_data(self, data: Any, slice_shape: bool = False) -> "Parameter":
        """Replace the value. The new value must keep the shape; it is cast to the dtype.

        A value seen by a reverse/forward transformation is stored as its plain value. While
        a GRAPH-mode function is being traced the assignment is recorded in the graph (the
        compiled function returns the new value and the caller stores it on every call)."""
        while isinstance(data, Tracer) and hasattr(data, "primal"):
            data = data._assigned(self.name)  # a derivative trace's: the value beneath it
        if tracing():
            before_change(self)  # uses already recorded keep the present value
        if graph_tracing() is not None:
            graph = _graph_trace()
            if graph is not None:
                return self._record_assign(graph, data)
        new = data._data if isinstance(data, Tensor) else Tensor(data)._data
        if tuple(new.shape) != tuple(self._data.shape):
            raise ValueError(f"For 'Parameter.set_data', the new value of '{self.name}' has "
                             f"shape {tuple(new.shape)} but the parameter has shape "
                             f"{tuple(self._data.shape)}.")
        if new.dtype != self._data.dtype:
            new = new.astype(self._data.dtype)
        self._data = new
        return self

    def _become(self, new: Tensor) -> None:
        """``p[index] = value`` updates the Parameter as ``set_data`` does (inside a
        transformation the value beneath is stored; in GRAPH mode the graph records it)."""
        self.set_data(new)

    def _record_assign(self, graph: Any, data: Any) -> "Parameter":
        from ..prims import shape as S

        value = data if isinstance(data, Tensor) else Tensor(data)
        if tuple(value.shape) != tuple(self._data.shape):
            raise ValueError(f"For 'Parameter.set_data', the new value of '{self.name}' has "
                             f"shape {tuple(value.shape)} but the parameter has shape "
                             f"{tuple(self._data.shape)}.")
        if value._data.dtype != self._data.dtype:
            value = S.cast(value, dtype=self._data.dtype)
        graph.assign(self, value)
        return self

    def assign_value(self, value: Any) -> "Parameter":
        return self.set_data(value)

    def clone(self, init: Any = "same") -> "Parameter":
        """A new Parameter of the same name, shape and dtype: a copy of the value with
        ``init='same'``, else initialized by ``init`` (an initializer, its name, a number)."""
        if isinstance(init, str) and init == "same":
            data = Tensor._wrap(self._data.copy())
        else:
            from .initializer import initializer

            data = initializer(init, self.shape, self.dtype)
        return Parameter(data, self.name, self.requires_grad)

    def value(self) -> Tensor:
        return Tensor._wrap(self._data)

    __hash__ = object.__hash__


class ParameterTuple(tuple):
    """A tuple of Parameters (what ``GradOperation(get_by_list=True)`` differentiates)."""

    def __new__(cls, iterable: Iterable[Parameter]) -> "ParameterTuple":
        items = tuple(iterable)
        for p in items:
            if not isinstance(p, Parameter):
                raise TypeError(f"For 'ParameterTuple', every element must be a Parameter, "
                                f"but got {type(p).__name__}.")
        return super().__new__(cls, items)

    def clone(self, prefix: str, init: str = "same") -> "ParameterTuple":
        out = []
        for p in self:
            c = p.clone(init)
            c.name = f"{prefix}.{p.name}"
            out.append(c)
        return ParameterTuple(out)
