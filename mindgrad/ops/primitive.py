"""``mindspore.ops.primitive``: the base of the operator classes (``Primitive``), the bases
for user-defined primitives (``PrimitiveWithInfer``, ``PrimitiveWithCheck``),
``prim_attr_register`` and ``constexpr``.

mindgrad's operator classes forward to functional operators. A user-defined primitive runs
what its class defines: its own ``__call__``, or ``infer_value`` where that gives a value
(MindSpore's constant folding); a class with neither has no kernel, and calling it says so."""
from __future__ import annotations

import functools
import inspect
from types import FunctionType
from typing import Any, Callable


class Primitive:
    """Base of the operator classes: a named operation configured by attributes."""

    def __init__(self, name: str | None = None) -> None:
        self.name = name or type(self).__name__
        self.attrs: dict = {}

    def __init_subclass__(cls, **kwargs: Any) -> None:
        # An inherited __call__ (ReduceSum's is _Reduce's) gets a copy named after this
        # class, so that Python's own argument errors name the operator the user called.
        super().__init_subclass__(**kwargs)
        call = cls.__dict__.get("__call__")
        if call is None and isinstance(getattr(cls, "__call__", None), FunctionType) \
                and cls.__call__ is not Primitive.__call__:
            base = cls.__call__
            call = FunctionType(base.__code__, base.__globals__, "__call__", base.__defaults__,
                                base.__closure__)
            call.__kwdefaults__ = base.__kwdefaults__
            call.__doc__ = base.__doc__
            call.__qualname__ = f"{cls.__name__}.__call__"
            cls.__call__ = call

    def add_prim_attr(self, name: str, value: Any) -> "Primitive":
        """Record an attribute (also readable as ``self.<name>``)."""
        self.__dict__.setdefault("attrs", {})[name] = value
        setattr(self, name, value)
        return self

    def del_prim_attr(self, name: str) -> "Primitive":
        self.__dict__.get("attrs", {}).pop(name, None)
        self.__dict__.pop(name, None)
        return self

    def init_prim_io_names(self, inputs: list, outputs: list) -> None:
        """Name the inputs and outputs (recorded as the ``input_names`` / ``output_names``
        attributes, as MindSpore does)."""
        self.add_prim_attr("input_names", list(inputs))
        self.add_prim_attr("output_names", list(outputs))

    def set_prim_instance_name(self, instance_name: str) -> "Primitive":
        self.instance_name = instance_name
        return self

    def __call__(self, *args: Any) -> Any:
        value = _infer_value(self, args)
        if value is not None:
            return value
        raise NotImplementedError(
            f"Primitive '{self.name}' has no kernel in mindgrad: define __call__ on "
            f"{type(self).__name__} (written with mindgrad operations, so it is "
            f"differentiable), or infer_value for constant inputs.")

    def __repr__(self) -> str:
        return f"Prim[{self.name}]"


def _infer_value(prim: Primitive, args: tuple) -> Any:
    infer = getattr(prim, "infer_value", None)
    return None if infer is None else infer(*args)


class PrimitiveWithInfer(Primitive):
    """A primitive with Python shape/dtype/value inference (``infer_shape``,
    ``infer_dtype``, ``infer_value``); mindgrad computes shapes by running the operation,
    so only ``infer_value`` and a user ``__call__`` take part in a call."""

    def infer_value(self, *args: Any) -> Any:
        return None


class PrimitiveWithCheck(Primitive):
    """A primitive with Python argument checks (``check_shape``, ``check_dtype``), run
    before the user's ``__call__`` when the class defines them."""

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        call = cls.__dict__.get("__call__")
        if call is None:
            return

        @functools.wraps(call)
        def checked(self: Any, *args: Any) -> Any:
            if hasattr(self, "check_shape"):
                self.check_shape(*[getattr(a, "shape", ()) for a in args])
            if hasattr(self, "check_dtype"):
                self.check_dtype(*[getattr(a, "dtype", type(a)) for a in args])
            return call(self, *args)

        cls.__call__ = checked


def prim_attr_register(fn: Callable) -> Callable:
    """Decorate a primitive's ``__init__``: every argument it is called with (defaults
    included) becomes a primitive attribute, and the primitive is named after its class."""

    @functools.wraps(fn)
    def deco(self: Any, *args: Any, **kwargs: Any) -> None:
        Primitive.__init__(self, type(self).__name__)
        bound = inspect.signature(fn).bind(self, *args, **kwargs)
        bound.apply_defaults()
        for name, value in bound.arguments.items():
            if name != "self":
                self.add_prim_attr(name, value)
        fn(self, *args, **kwargs)

    return deco


def constexpr(fn: Callable | None = None, get_instance: bool = True, name: str | None = None,
              reuse_result: bool = True, check: bool = True) -> Any:
    """Mark a function computed from constants when a graph is built. mindgrad's graphs are
    built by running Python, where such a function runs as it is; the decorator keeps the
    function callable with MindSpore's arguments (``get_instance=False`` gives a class whose
    instances call it)."""

    def wrap(f: Callable) -> Any:
        if get_instance:
            return f

        class _Constexpr(Primitive):
            def __init__(self) -> None:
                super().__init__(name or f.__name__)

            def __call__(self, *args: Any) -> Any:
                return f(*args)

        return _Constexpr

    return wrap(fn) if fn is not None else wrap


__all__ = ["Primitive", "PrimitiveWithInfer", "PrimitiveWithCheck", "prim_attr_register",
           "constexpr"]
