"""``nn.Cell``: the unit of a network. Parameters and sub-cells assigned as attributes are
registered (with MindSpore's dotted names); calling a cell runs ``construct``, compiled in
GRAPH_MODE; a ``bprop`` method replaces the cell's reverse rule."""
from __future__ import annotations

from collections import OrderedDict
from typing import Any, Iterator

from .. import context
from ..common.parameter import Parameter, ParameterTuple
from ..common.tensor import Tensor
from ..core.primitive import custom_vjp_call, tracing
from ..graph.function import GraphFunction
from ..prims import shape as S


class Cell:
    """Base class of networks: subclass it and define ``construct``."""

    _has_bprop = False  # set per subclass: whether it (or a base) defines bprop

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        cls._has_bprop = callable(getattr(cls, "bprop", None))

    def __init__(self, auto_prefix: bool = True, flags: Any = None) -> None:
        object.__setattr__(self, "_params", OrderedDict())
        object.__setattr__(self, "_cells", OrderedDict())
        object.__setattr__(self, "training", False)
        object.__setattr__(self, "_auto_prefix", auto_prefix)
        object.__setattr__(self, "_graph", None)

    # --- registration ---------------------------------------------------------------------
    def __setattr__(self, name: str, value: Any) -> None:
        if "_params" not in self.__dict__:
            raise AttributeError(f"'{type(self).__name__}': call super().__init__() before "
                                 f"assigning attribute '{name}'.")
        params, cells = self._params, self._cells
        params.pop(name, None)
        cells.pop(name, None)
        if isinstance(value, Parameter):
            if not value._named:
                value.name = name
                value._named = True
            params[name] = value
        elif isinstance(value, Cell):
            if self._auto_prefix:
                for p in value.get_parameters():
                    p.name = f"{name}.{p.name}"
            cells[name] = value
        object.__setattr__(self, name, value)

    def __delattr__(self, name: str) -> None:
        self._params.pop(name, None)
        self._cells.pop(name, None)
        object.__delattr__(self, name)

    def insert_param_to_cell(self, param_name: str, param: Parameter,
                             check_name_contain_dot: bool = True) -> None:
        setattr(self, param_name, param)

    def insert_child_to_cell(self, child_name: str, child_cell: "Cell") -> None:
        setattr(self, child_name, child_cell)

    # --- traversal ------------------------------------------------------------------------
    def cells_and_names(self, cells: Any = None, name_prefix: str = "") -> Iterator:
        seen = set() if cells is None else cells
        if id(self) in seen:
            return
        seen.add(id(self))
        yield name_prefix, self
        for n, c in self._cells.items():
            yield from c.cells_and_names(seen, f"{name_prefix}.{n}" if name_prefix else n)

    def cells(self) -> Iterator["Cell"]:
        return iter(self._cells.values())

    def name_cells(self) -> "OrderedDict[str, Cell]":
        return OrderedDict(self._cells)

    def parameters_and_names(self, name_prefix: str = "", expand: bool = True) -> Iterator:
        """``(name, Parameter)`` for this cell and (with ``expand``) its sub-cells, each
        Parameter once."""
        seen: set = set()
        for prefix, cell in (self.cells_and_names(name_prefix=name_prefix) if expand
                             else [(name_prefix, self)]):
            for n, p in cell._params.items():
                if id(p) in seen:
                    continue
                seen.add(id(p))
                yield (f"{prefix}.{n}" if prefix else n), p

    def get_parameters(self, expand: bool = True) -> Iterator[Parameter]:
        for _, p in self.parameters_and_names(expand=expand):
            yield p

    def trainable_params(self, recurse: bool = True) -> list[Parameter]:
        return [p for p in self.get_parameters(recurse) if p.requires_grad]

    def untrainable_params(self, recurse: bool = True) -> list[Parameter]:
        return [p for p in self.get_parameters(recurse) if not p.requires_grad]

    def parameters_dict(self, recurse: bool = True) -> "OrderedDict[str, Parameter]":
        return OrderedDict((p.name, p) for p in self.get_parameters(recurse))

    # --- modes ----------------------------------------------------------------------------
    def set_train(self, mode: bool = True) -> "Cell":
        for _, c in self.cells_and_names():
            object.__setattr__(c, "training", bool(mode))
        return self

    def set_grad(self, requires_grad: bool = True) -> "Cell":
        return self

    def to_float(self, dst_type: Any) -> "Cell":
        return self

    # --- calling --------------------------------------------------------------------------
    def construct(self, *args: Any, **kwargs: Any) -> Any:
        raise NotImplementedError(f"{type(self).__name__} must define construct().")

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        if kwargs or not context.is_graph_mode() or tracing():
            return self._run(*args, **kwargs)
        graph = self._graph
        if graph is None:
            graph = GraphFunction(self._run, type(self).__name__, self.construct)
            object.__setattr__(self, "_graph", graph)
        return graph(*args, extra_key=self.training)

    def _run(self, *args: Any, **kwargs: Any) -> Any:
        if type(self)._has_bprop:
            if kwargs:
                raise TypeError(f"For '{type(self).__name__}', a Cell with a custom bprop "
                                f"takes positional inputs only.")
            return custom_vjp_call(self.construct, self._custom_bprop, args,
                                   f"{type(self).__name__}.bprop")
        return self.construct(*args, **kwargs)

    def _custom_bprop(self, inputs: tuple, out: Any, dout: Any) -> list:
        """Call the user's ``bprop(*inputs, out, dout)`` and check what it returns."""
        grads = self.bprop(*inputs, out, dout)
        if not isinstance(grads, (tuple, list)):
            grads = (grads,)
        if len(grads) != len(inputs):
            raise RuntimeError(f"The output size of the 'bprop' must match the number of "
                               f"parameters in its corresponding primal function "
                               f"'{type(self).__name__}()' : {len(grads)} vs. {len(inputs)}.")
        checked = []
        for i, (g, x) in enumerate(zip(grads, inputs)):
            if not isinstance(x, Tensor) or g is None:
                checked.append(None)
                continue
            if not isinstance(g, Tensor):
                g = Tensor(g, dtype=x.dtype)
            if g.shape != x.shape:
                raise RuntimeError(f"For '{type(self).__name__}.bprop', the gradient of input "
                                   f"{i} has shape {list(g.shape)} but the input has shape "
                                   f"{list(x.shape)}.")
            checked.append(g if g.dtype == x.dtype else S.cast(g, dtype=S.dtype_of(x)))
        return checked

    def __repr__(self) -> str:
        inner = "".join(f"\n  ({n}): " + repr(c).replace("\n", "\n  ")
                        for n, c in self._cells.items())
        return f"{type(self).__name__}<{inner}\n>" if inner else f"{type(self).__name__}<>"

    def extend_repr(self) -> str:
        return ""


__all__ = ["Cell", "ParameterTuple"]
