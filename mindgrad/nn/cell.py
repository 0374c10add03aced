"""``nn.Cell``: the unit of a network. Parameters and sub-cells assigned as attributes are
registered (with MindSpore's dotted names); calling a cell runs ``construct``, compiled in
GRAPH_MODE; a ``bprop`` method replaces the cell's reverse rule."""
from __future__ import annotations

import dis
import functools
from collections import OrderedDict
from typing import Any, Callable, Iterator

from .. import context
from ..common.parameter import Parameter, ParameterTuple
from ..core import dtype as mstype
from ..core.dtype import to_numpy
from ..core.tensor import Tensor
from ..core.primitive import custom_vjp_call, tracing
from ..graph.function import GraphFunction
from ..core.hooks import HookHandle, check_hook
from ..core.tree import flatten, tree_map, unflatten
from ..ops.custom_function import checked_grads
from ..ops.hooks import pass_through
from ..prims import structural as S


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
        # MindSpore's compile phase name: "train" until set_train(False) makes it "predict"
        object.__setattr__(self, "phase", "train")
        object.__setattr__(self, "_auto_prefix", auto_prefix)
        object.__setattr__(self, "_graph", None)
        object.__setattr__(self, "_mp_dtype", None)  # set by to_float (mixed precision)
        object.__setattr__(self, "_hooks", None)  # _CellHooks once a hook is registered

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
        """Put this cell and its sub-cells in training (``True``) or inference mode; this
        cell's ``phase`` becomes ``"train"`` or ``"predict"`` (the sub-cells' stay, as in
        MindSpore)."""
        for _, c in self.cells_and_names():
            object.__setattr__(c, "training", bool(mode))
        object.__setattr__(self, "phase", "train" if mode else "predict")
        return self

    def set_grad(self, requires_grad: bool = True) -> "Cell":
        return self

    def to_float(self, dst_type: Any) -> "Cell":
        """Run this cell and its sub-cells in ``dst_type`` (float16, bfloat16 or float32):
        float Tensor inputs are cast to it, and so are the trainable float Parameters while
        ``construct`` runs (the Parameters themselves keep their dtype: they are the master
        weights, and their gradients come back in it through the cast)."""
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
        hooks = self._hooks
        if hooks is not None and hooks.any():
            return hooks.call(self, args, kwargs)
        if kwargs or not context.is_graph_mode() or tracing():
            return self._run(*args, **kwargs)
        if "_input_specs" in self.__dict__:
            self._check_input_specs(args)
        graph = self._graph
        if graph is None:
            graph = GraphFunction(self._run, type(self).__name__, self.construct)
            object.__setattr__(self, "_graph", graph)
        return graph(*args, extra_key=self.training)

    def _run(self, *args: Any, **kwargs: Any) -> Any:
        if self._mp_dtype is not None:
            return self._run_mixed(args, kwargs)
        if type(self)._has_bprop:
            if kwargs:
                raise TypeError(f"For '{type(self).__name__}', a Cell with a custom bprop "
                                f"takes positional inputs only.")
            if context.is_graph_mode():
                self._check_bprop_uses_no_parameter()
            return custom_vjp_call(self.construct, self._custom_bprop, args,
                                   f"{type(self).__name__}.bprop")
        return self.construct(*args, **kwargs)

    def _run_mixed(self, args: tuple, kwargs: dict) -> Any:
        """``_run`` under ``to_float``: the cast inputs, and the cell's own trainable float
        Parameters replaced by their casts while construct runs."""
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

    # --- hooks ----------------------------------------------------------------------------
    def register_forward_pre_hook(self, hook_fn: Callable) -> HookHandle:
        """Call ``hook_fn(cell, inputs)`` before ``construct``; a tuple it returns replaces
        the inputs. A Cell with hooks runs op by op in GRAPH mode too, so they run on every
        call."""
        return self._hook_list("forward_pre", hook_fn, "register_forward_pre_hook")

    def register_forward_hook(self, hook_fn: Callable) -> HookHandle:
        """Call ``hook_fn(cell, inputs, output)`` after ``construct``; a value it returns
        replaces the output."""
        return self._hook_list("forward", hook_fn, "register_forward_hook")

    def register_backward_pre_hook(self, hook_fn: Callable) -> HookHandle:
        """Call ``hook_fn(cell, grad_output)`` (a tuple over the output's Tensors) when the
        gradient of the Cell's output arrives; a tuple it returns replaces it."""
        return self._hook_list("backward_pre", hook_fn, "register_backward_pre_hook")

    def register_backward_hook(self, hook_fn: Callable) -> HookHandle:
        """Call ``hook_fn(cell, grad_input, grad_output)`` once the gradients of the Cell's
        Tensor inputs are known; a tuple it returns replaces ``grad_input``."""
        return self._hook_list("backward", hook_fn, "register_backward_hook")

    def _hook_list(self, kind: str, hook_fn: Callable, who: str) -> HookHandle:
        check_hook(hook_fn, f"{type(self).__name__}.{who}")
        if self._hooks is None:
            object.__setattr__(self, "_hooks", _CellHooks())
        hooks = getattr(self._hooks, kind)
        hooks.append(hook_fn)
        return HookHandle(hooks, hook_fn)

    def _check_bprop_uses_no_parameter(self) -> None:
        """GRAPH mode compiles ``bprop`` as a function of its arguments only: one that reads
        a Parameter of the Cell (``self.w``) is refused, as MindSpore refuses it."""
        for name in _self_attributes(type(self).bprop):
            if isinstance(self._params.get(name), Parameter):
                raise RuntimeError(
                    f"The user defined 'bprop' function of '{type(self).__name__}' does not "
                    f"support using Parameter (it reads 'self.{name}') in GRAPH mode.")

    def set_inputs(self, *inputs: Any, **kwargs: Any) -> None:
        """Declare the inputs' kinds: Tensors or ``Tensor(shape=[None, 3], dtype=...)``
        placeholders whose ``None`` axes take any size. A GRAPH-mode call checks its
        Tensor inputs against them (rank, dtype and the fixed sizes), as MindSpore does;
        mindgrad compiles one graph per input shape, so the sizes may vary from call to call
        either way."""
        object.__setattr__(self, "_input_specs", inputs)

    def get_inputs(self) -> tuple | None:
        """The inputs given to ``set_inputs`` (None before it is called)."""
        return self.__dict__.get("_input_specs")

    def _check_input_specs(self, args: tuple) -> None:
        for i, (spec, a) in enumerate(zip(self.__dict__["_input_specs"], args)):
            if not isinstance(spec, Tensor) or not isinstance(a, Tensor):
                continue
            if a.dtype != spec.dtype:
                raise TypeError(f"For set_inputs or tuple(list) in set_inputs, the {i + 1}th type "
                                f"should be Tensor[{spec.dtype}], but got Tensor[{a.dtype}]!")
            if len(a.shape) != len(spec.shape):
                raise ValueError(f"For set_inputs and tuple(list) in set_inputs, the dims of "
                                 f"{i + 1}th input must be the same as expected, but got expected: "
                                 f"{len(spec.shape)}, and input: {len(a.shape)}!")
            for want, got in zip(spec.shape, a.shape):
                if want != -1 and want != got:
                    raise ValueError(f"For set_inputs and tuple(list) in set_inputs, the shape "
                                     f"of {i + 1}th input must be the same as expected, but got "
                                     f"expected: {want}, and input: {got}!")

    def init_parameters_data(self, auto_parallel_mode: bool = False) -> dict:
        """Materialise every Parameter's data; returns ``{parameter: parameter}`` (mindgrad
        initialises a Parameter when it is created, so each maps to itself)."""
        return {p: p for p in self.get_parameters()}

    def _custom_bprop(self, inputs: tuple, out: Any, dout: Any) -> list:
        """Call the user's ``bprop(*inputs, out, dout)`` and check what it returns."""
        return checked_grads(type(self).__name__, "bprop", self.bprop(*inputs, out, dout),
                             inputs)

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


class _CellHooks:
    """A Cell's registered hooks, and one call of the Cell through them."""

    def __init__(self) -> None:
        self.forward_pre: list = []
        self.forward: list = []
        self.backward_pre: list = []
        self.backward: list = []

    def any(self) -> bool:
        return bool(self.forward_pre or self.forward or self.backward_pre or self.backward)

    def call(self, cell: Cell, args: tuple, kwargs: dict) -> Any:
        for hook in list(self.forward_pre):
            new = hook(cell, args)
            if new is not None:
                args = tuple(new) if isinstance(new, (tuple, list)) else (new,)
        grad_output: list = []  # filled by the output's reverse rule, read by the inputs'
        if self.backward:
            args = self._watch_inputs(cell, args, grad_output)
        out = cell._run(*args, **kwargs)
        for hook in list(self.forward):
            new = hook(cell, args, out)
            if new is not None:
                out = new
        if self.backward or self.backward_pre:
            out = self._watch_output(cell, out, grad_output)
        return out

    def _watch_inputs(self, cell: Cell, args: tuple, grad_output: list) -> tuple:
        positions = [i for i, a in enumerate(args) if isinstance(a, Tensor)]
        if not positions:
            return args

        def on_grads(grad_input: tuple) -> Any:
            for hook in list(self.backward):
                new = hook(cell, grad_input, grad_output[0] if grad_output else ())
                if new is not None:
                    grad_input = tuple(new) if isinstance(new, (tuple, list)) else (new,)
            return grad_input

        watched = pass_through([args[i] for i in positions], on_grads,
                               f"{type(cell).__name__}.register_backward_hook")
        args = list(args)
        for i, w in zip(positions, watched):
            args[i] = w
        return tuple(args)

    def _watch_output(self, cell: Cell, out: Any, grad_output: list) -> Any:
        leaves, tree = flatten(out)
        positions = [i for i, a in enumerate(leaves) if isinstance(a, Tensor)]
        if not positions:
            return out

        def on_grads(grads: tuple) -> Any:
            for hook in list(self.backward_pre):
                new = hook(cell, grads)
                if new is not None:
                    grads = tuple(new) if isinstance(new, (tuple, list)) else (new,)
            grad_output[:] = [grads]
            return grads

        watched = pass_through([leaves[i] for i in positions], on_grads,
                               f"{type(cell).__name__}.register_backward_pre_hook")
        for i, w in zip(positions, watched):
            leaves[i] = w
        return unflatten(tree, leaves)


__all__ = ["Cell", "ParameterTuple"]


@functools.lru_cache(maxsize=None)
def _self_attributes(fn: Callable) -> tuple:
    """The attribute names ``fn`` reads from its first argument (``self.name``), found in
    its bytecode."""
    code = fn.__code__
    if not code.co_varnames:
        return ()
    me, names, prev = code.co_varnames[0], [], None
    for ins in dis.get_instructions(code):
        if ins.opname in ("LOAD_ATTR", "LOAD_METHOD") and prev is not None \
                and prev.opname == "LOAD_FAST" and prev.argval == me:
            names.append(ins.argval)
        prev = ins
    return tuple(names)
