"""``Parameter`` (a named, trainable Tensor whose value can be updated) and ``ParameterTuple``."""
from __future__ import annotations

import itertools
from typing import Any, Iterable

import numpy as np

from ..core.primitive import Tracer, before_change, graph_tracing, tracing
from ..core import dtype as mstype
from ..core.device import device_of, to_device
from ..core.tensor import Tensor
from .initializer import initializer

_NAME_MAX_LEN = 1024  # MindSpore's limit on a Parameter's name
# Unnamed Parameters are called "Parameter#N" with N counting every one made (and every name
# cleared), as in MindSpore 2.10; its count is at 2 for the first one a program makes.
_UNNAMED = itertools.count(2)


def _check_flag(arg: str, value: Any) -> bool:
    if not isinstance(value, bool):  # MindSpore refuses 0, 1 and NumPy bools alike
        raise TypeError(f"For 'Parameter', '{arg}' must be a bool, but got "
                        f"{type(value).__name__} {value!r}.")
    return value


class Parameter(Tensor):
    """A trainable tensor owned by a Cell. Unlike a Tensor, its value can be replaced in place
    (``set_data``, ``assign_value``), which is how optimizers update it.

    While transformations differentiate with respect to a Parameter, ``_subs`` counts the
    threads doing so and ``_trace`` is the dispatch point's marker that makes each of those
    threads swap in its own tracer for it (``core.primitive.substitute``)."""

    __slots__ = ("_name", "_requires_grad", "_layerwise_parallel", "_parallel_optimizer",
                 "_trace", "_subs", "_named")
    # MindSpore's flag for delaying initialization (False inside nn.no_init_parameters);
    # mindgrad initializes at creation either way
    init_param = True

    def __init__(self, default_input: Any, name: str | None = None, requires_grad: bool = True,
                 layerwise_parallel: bool = False, parallel_optimizer: bool = True,
                 storage_format: str = "", device: str | None = None) -> None:
        """``default_input``: a Tensor (its value is copied), a Python int (Int32), a Python
        float (Float32), a NumPy array or a list. ``name``: a str, or None (or a blank str)
        for a Parameter that a Cell names after the attribute holding it. The flags must be
        bools; ``device`` None, "CPU" or "Remote" (MindSpore's host-memory placement,
        accepted and without effect), as MindSpore checks them.

        Raises:
            ValueError: ``default_input`` is a bool, an int out of Int32's range, ``name`` is
                not a str or None (MindSpore's type of error for it) or longer than 1024
                characters, or ``device`` is not a supported value.
            TypeError: ``default_input`` has another type, or a flag is not a bool.
        """
        if isinstance(default_input, bool):
            raise ValueError("For 'Parameter', 'default_input' can not be a bool; pass "
                             "Tensor(True) for a Bool parameter.")
        self.name = name
        self.requires_grad = requires_grad
        self.layerwise_parallel = layerwise_parallel
        self.parallel_optimizer = parallel_optimizer
        if device is not None and device not in ("CPU", "Remote"):
            raise ValueError(f"For 'Parameter', 'device' must be None, 'CPU' or 'Remote', but "
                             f"got {device!r}.")
        if isinstance(default_input, Tensor):
            data = default_input._data
        elif isinstance(default_input, int):
            # MindSpore makes a Python int an Int32 Parameter (a Tensor would be Int64)
            if not -2**31 <= default_input < 2**31:
                raise ValueError(f"For 'Parameter', the int 'default_input' {default_input} "
                                 f"does not fit its dtype Int32.")
            data = Tensor(default_input, mstype.int32)._data
        elif isinstance(default_input, float):  # a NumPy float64 scalar too, as in MindSpore
            data = Tensor(default_input, mstype.float32)._data
        elif isinstance(default_input, (np.ndarray, list)):
            data = Tensor(default_input)._data
        else:
            raise TypeError(f"For 'Parameter', 'default_input' must be a Tensor, int, float, "
                            f"numpy.ndarray or list, but got {type(default_input).__name__}.")
        self._data = data
        self._trace = None
        self._subs = 0

    @property
    def name(self) -> str:
        """The Parameter's name; setting None or a blank str makes it unnamed again."""
        return self._name

    @name.setter
    def name(self, name: str | None) -> None:
        if name is not None and not isinstance(name, str):
            raise ValueError(f"For 'Parameter', 'name' must be a str or None, but got "
                             f"{type(name).__name__} {name!r}.")
        name = name.strip() if name is not None else ""
        if len(name) > _NAME_MAX_LEN:
            raise ValueError(f"For 'Parameter', 'name' must be at most {_NAME_MAX_LEN} "
                             f"characters long, but got {len(name)}: {name[:40]!r}...")
        if name:
            self._name = name
            if not hasattr(self, "_named"):  # the first name, in __init__
                self._named = True
        else:
            self._name, self._named = f"Parameter#{next(_UNNAMED)}", False

    @property
    def requires_grad(self) -> bool:
        """Whether a Cell's trainable_params (and so optimizers and weight gradients) take it."""
        return self._requires_grad

    @requires_grad.setter
    def requires_grad(self, value: bool) -> None:
        self._requires_grad = _check_flag("requires_grad", value)

    @property
    def layerwise_parallel(self) -> bool:
        return self._layerwise_parallel

    @layerwise_parallel.setter
    def layerwise_parallel(self, value: bool) -> None:
        self._layerwise_parallel = _check_flag("layerwise_parallel", value)

    @property
    def parallel_optimizer(self) -> bool:
        return self._parallel_optimizer

    @parallel_optimizer.setter
    def parallel_optimizer(self, value: bool) -> None:
        self._parallel_optimizer = _check_flag("parallel_optimizer", value)

    def __repr__(self) -> str:
        return (f"Parameter (name={self.name}, shape={self.shape}, dtype={self.dtype}, "
                f"requires_grad={self.requires_grad})")

    __str__ = __repr__  # MindSpore prints a Parameter by its description, not its values

    @property
    def data(self) -> Tensor:
        """The value as a Tensor (MindSpore 2.10's, printed by its values). While a
        transformation or a compiled function runs, the Parameter itself, so that the use is
        recorded and a later update is seen."""
        if tracing() or graph_tracing() is not None:
            return self
        return Tensor._wrap(self._data)

    @data.setter
    def data(self, value: Any) -> None:
        if not isinstance(value, Tensor):
            raise TypeError(f"For 'Parameter.data', the new value must be a Tensor, but got "
                            f"{type(value).__name__}.")
        self.set_data(value)

    def set_data(self, data: Any, slice_shape: bool = False) -> "Parameter":
        """Replace the value, cast to the Parameter's dtype and copied to its device if it
        lives on another. Outside transformations the shape may change, as in MindSpore 2.10
        (``slice_shape`` is accepted for its signature); inside grad, jvp, vmap or a
        compiled function the new value must keep the shape.

        A value seen by a reverse/forward transformation is stored as its plain value. While
        a GRAPH-mode function is being traced the assignment is recorded in the graph (the
        compiled function returns the new value and the caller stores it on every call)."""
        while isinstance(data, Tracer) and hasattr(data, "primal"):
            data = data._assigned(self.name)  # a derivative trace's: the value beneath it
        traced = tracing()
        if traced:
            before_change(self)  # uses already recorded keep the present value
        graph = graph_tracing()
        if graph is not None:
            return self._record_assign(graph, data)
        new = data._data if isinstance(data, Tensor) else Tensor(data)._data
        if traced and tuple(new.shape) != tuple(self._data.shape):
            raise ValueError(f"For 'Parameter.set_data', the new value of '{self.name}' has "
                             f"shape {tuple(new.shape)} but the parameter has shape "
                             f"{tuple(self._data.shape)}.")
        if new.dtype != self._data.dtype:
            new = new.astype(self._data.dtype)
        # A Parameter stays on its device (a checkpoint read on the CPU loads into a network
        # on the GPU): the one place a value moves without move_to, as the dtype is cast.
        new = to_device(new, device_of(self._data), "Parameter.set_data")
        self._data = new
        return self

    def _become(self, new: Tensor) -> None:
        """``p[index] = value`` updates the Parameter as ``set_data`` does (inside a
        transformation the value beneath is stored; in GRAPH mode the graph records it)."""
        self.set_data(new)

    def _record_assign(self, graph: Any, data: Any) -> "Parameter":
        value = data if isinstance(data, Tensor) else Tensor(data)
        if tuple(value.shape) != tuple(self._data.shape):
            raise ValueError(f"For 'Parameter.set_data', the new value of '{self.name}' has "
                             f"shape {tuple(value.shape)} but the parameter has shape "
                             f"{tuple(self._data.shape)}.")
        if value._data.dtype != self._data.dtype:
            value = value.astype(self._data.dtype)
        graph.assign(self, value)
        return self

    def assign_value(self, value: Any) -> "Parameter":
        return self.set_data(value)

    def init_data(self, layout: Any = None, set_sliced: bool = False) -> "Parameter":
        """The Parameter itself: its value is made when it is created (no delayed
        initialization to run)."""
        return self

    def clone(self, init: Any = "same") -> "Parameter":
        """A new Parameter of the same name, shape and dtype: a copy of the value with
        ``init='same'``, else initialized by ``init`` (an initializer, its name, a number)."""
        if isinstance(init, str) and init == "same":
            data = Tensor._wrap(self._data.copy())
        else:
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
