"""``nn.Cell``: the unit of a network. Parameters and sub-cells assigned as attributes are
registered (with MindSpore's dotted names); calling a cell runs ``construct``, compiled in
GRAPH_MODE; a ``bprop`` method replaces the cell's reverse rule."""
from __future__ import annotations

from collections import OrderedDict
from typing import Any, Iterator

import numpy as np

from .. import context
from ..common.parameter import Parameter, ParameterTuple
from ..common.tensor import Tensor
from ..core.primitive import custom_vjp_call, state
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
        object.__setattr__(self, "_mp_dtype", None)  # set by to_float (mixed precision)

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
        """Run this cell and its sub-cells in ``dst_type`` (float16, bfloat16 or float32):
        float Tensor inputs are cast to it, and so are the trainable float Parameters while
        ``construct`` runs (the Parameters themselves keep their dtype: they are the master
        weights, and their gradients come back in it through the cast)."""
        from ..common import dtype as mstype

        allowed = [d for d in (mstype.float16, mstype.float32, getattr(mstype, "bfloat16", None))
                   if d is not None]
        if not isinstance(dst_type, mstype.DType) or dst_type not in allowed:
            raise ValueError(f"For '{type(self).__name__}.to_float', 'dst_type' must be "
                             f"float16, bfloat16 or float32, but got {dst_type}.")
        for _, c in self.cells_and_names():
            object.__setattr__(c, "_mp_dtype", dst_type)
            object.__setattr__(c, "_graph", None)  # recompile with the casts
        return self

    # --- calling --------------------------------------------------------------------------
    def construct(self, *args: Any, **kwargs: Any) -> Any:
        raise NotImplementedError(f"{type(self).__name__} must define construct().")

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        if kwargs or state.stack or state.dynamic is not None or not context.is_graph_mode():
            return self._run(*args, **kwargs)
        graph = self._graph
        if graph is None:
            graph = GraphFunction(self._run, type(self).__name__)
            object.__setattr__(self, "_graph", graph)
        return graph(*args, extra_key=self.training)

    def _run(self, *args: Any, **kwargs: Any) -> Any:
        if self._mp_dtype is not None:
            return self._run_mixed(args, kwargs)
        if type(self)._has_bprop:
            if kwargs:
                raise TypeError(f"For '{type(self).__name__}', a Cell with a custom bprop "
                                f"takes positional inputs only.")
            return custom_vjp_call(self.construct, self._custom_bprop, args,
                                   f"{type(self).__name__}.bprop")
        return self.construct(*args, **kwargs)

    def _run_mixed(self, args: tuple, kwargs: dict) -> Any:
        """``_run`` under ``to_float``: the cast inputs, and the cell's own trainable float
        Parameters replaced by their casts while construct runs."""
        from ..common.dtype import to_numpy
        from ..core.tree import tree_map

        target = to_numpy(self._mp_dtype, "to_float")

        def cast(x: Any) -> Any:
            if isinstance(x, Tensor) and x.dtype.is_floating and x.dtype.np_dtype != target:
                return S.cast(x, dtype=target)
            return x

        args, kwargs = tree_map(cast, (args, kwargs))
        swapped = {n: p for n, p in self._params.items()
                   if p is not None and p.requires_grad and p.dtype.is_floating
                   and self.__dict__.get(n) is p}
        try:
            for n, p in swapped.items():
                object.__setattr__(self, n, cast(p))
            mp, self.__dict__["_mp_dtype"] = self._mp_dtype, None
            try:
                return self._run(*args, **kwargs)
            finally:
                self.__dict__["_mp_dtype"] = mp
        finally:
            for n, p in swapped.items():
                object.__setattr__(self, n, p)

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
                if not _sums_to(g.shape, x.shape):
                    raise RuntimeError(f"For '{type(self).__name__}.bprop', the gradient of "
                                       f"input {i} has shape {list(g.shape)}, which cannot be "
                                       f"summed to the input's shape {list(x.shape)}.")
                # a broadcast gradient is summed back to the input's shape, as MindSpore does
                g = S.unbroadcast(g, x)
            checked.append(g if g.dtype == x.dtype else S.cast(g, dtype=S.dtype_of(x)))
        return checked

    def __repr__(self) -> str:
        """MindSpore 2.x's form: ``Name(extend_repr)``, or with sub-cells one indented line
        for ``extend_repr`` (when not empty) and one per sub-cell, ``(name): repr``."""
        name, extra = type(self).__name__, self.extend_repr()
        children = [f"({n}): " + repr(c).replace("\n", "\n  ") for n, c in self._cells.items()]
        if not children:
            return f"{name}({extra})"
        lines = ([extra] if extra else []) + children
        return f"{name}(\n  " + "\n  ".join(lines) + "\n)"

    def extend_repr(self) -> str:
        return ""


def _sums_to(grad_shape: tuple, input_shape: tuple) -> bool:
    """Whether the input's shape broadcasts to ``grad_shape`` (so the gradient sums back)."""
    try:
        return np.broadcast_shapes(grad_shape, input_shape) == tuple(grad_shape)
    except ValueError:
        return False


__all__ = ["Cell", "ParameterTuple"]
