"""User-written reverse rules: MindSpore's ``_Function`` (``forward(ctx, ...)`` /
``backward(ctx, ...)`` with ``.apply``), and the check every user rule's results go through
(also a Cell's ``bprop``): one gradient per input, summed to the input's shape where it was
broadcast, cast to the input's dtype."""
from __future__ import annotations

import functools
from typing import Any, Sequence

import numpy as np

from ..ad.reverse import ReverseTrace
from ..context import get_context
from ..core.tensor import Tensor
from ..core.primitive import custom_vjp_call, substitution
from ..prims import structural as S


def checked_grads(owner: str, rule: str, grads: Any, inputs: Sequence) -> list:
    """The gradients the user rule ``owner.rule`` (``Net.bprop``, ``Square.backward``)
    returned for ``inputs``, checked and shaped: None for an input that is not a Tensor (or
    got None), else a Tensor of the input's shape and dtype."""
    who = f"{owner}.{rule}"
    if not isinstance(grads, (tuple, list)):
        grads = (grads,)
    if rule == "bprop" and get_context("check_bprop"):
        _strict_bprop_check(owner, grads, inputs)
    # a _Function's backward is held to MindSpore's custom-function rules (its messages);
    # a Cell's bprop keeps the older, more lenient conversions
    function = rule == "backward"
    if len(grads) != len(inputs):
        if function:
            raise RuntimeError(f"Function backward return a wrong number of gradients, "
                               f"expect: {len(inputs)} but: {len(grads)}, in '{owner}'.")
        raise RuntimeError(f"The output size of the '{rule}' must match the number of "
                           f"parameters in its corresponding primal function '{owner}()' : "
                           f"{len(grads)} vs. {len(inputs)}.")
    checked: list = []
    for i, (g, x) in enumerate(zip(grads, inputs)):
        if function and g is not None and not isinstance(g, Tensor):
            raise RuntimeError(f"Gradient should be none or tensor, position: {i} type: "
                               f"{type(g)}, in '{who}'.")
        if function and g is not None and not isinstance(x, Tensor):
            raise RuntimeError(f"Input is not tensor, but gradient is not none, position: "
                               f"{i} type: {type(g)}, in '{who}'.")
        if not isinstance(x, Tensor) or g is None:
            checked.append(None)
            continue
        if not isinstance(g, Tensor):
            g = Tensor(g, dtype=x.dtype)
        if g.shape != x.shape:
            if not _sums_to(g.shape, x.shape):
                if function:
                    raise RuntimeError(f"For grad interface or custom function, grad tensor "
                                       f"should be broadcast to expected shape, but got "
                                       f"{list(g.shape)} vs {list(x.shape)}, for input {i} "
                                       f"of '{who}'.")
                raise RuntimeError(f"For '{who}', the gradient of input {i} has shape "
                                   f"{list(g.shape)}, which cannot be summed to the input's "
                                   f"shape {list(x.shape)}.")
            # a broadcast gradient is summed back to the input's shape, as MindSpore does
            g = S.unbroadcast(g, x)
        checked.append(g if g.dtype == x.dtype else S.cast(g, dtype=S.dtype_of(x)))
    return checked


def _strict_bprop_check(owner: str, grads: Sequence, inputs: Sequence) -> None:
    """``set_context(check_bprop=True)``: a Cell's ``bprop`` must return exactly one
    gradient per input, each of the input's kind, dtype and shape (no summing or casting)."""
    head = f"For user defined method 'bprop' of '{owner}'"
    if len(grads) != len(inputs):
        raise ValueError(f"{head}, the number of return values(gradients) must be equal to "
                         f"the number of input arguments except 'out' and 'dout', which "
                         f"is:{len(inputs)} but got {len(grads)}.")
    for i, (g, x) in enumerate(zip(grads, inputs)):
        what = f"the {i}th return value(gradient of the {i}th argument)"
        if g is None:
            continue
        if isinstance(x, Tensor):
            if not isinstance(g, Tensor):
                raise TypeError(f"{head}, {what} should be Tensor, but got "
                                f"{type(g).__name__}, and the value is {g}.")
            if g.dtype != x.dtype:
                raise TypeError(f"{head}, {what} should have the same dtype as the {i}th "
                                f"argument, which is:{x.dtype}, but got: {g.dtype}.")
            if g.shape != x.shape:
                raise ValueError(f"{head}, {what} should have the same shape as the {i}th "
                                 f"argument, which is:{list(x.shape)}, but got: "
                                 f"{list(g.shape)}.")
        elif isinstance(g, Tensor) and isinstance(x, (bool, int, float)):
            raise TypeError(f"{head}, {what} should have the same type as the {i}th "
                            f"argument, which is:{type(x).__name__}, but got: Tensor.")


def _sums_to(grad_shape: tuple, input_shape: tuple) -> bool:
    """Whether the input's shape broadcasts to ``grad_shape`` (so the gradient sums back)."""
    try:
        return np.broadcast_shapes(grad_shape, input_shape) == tuple(grad_shape)
    except ValueError:
        return False


def _differentiated(a: Any) -> bool:
    """Whether a gradient is being taken with respect to ``a`` (directly, or through a
    Parameter standing for a reverse-mode tracer)."""
    if not isinstance(a, Tensor):
        return False
    sub = substitution(a) if getattr(a, "_subs", 0) else None
    return isinstance(getattr(sub if sub is not None else a, "_trace", None), ReverseTrace)


def _all_tensors(values: Sequence, what: str) -> None:
    for v in values:
        if not isinstance(v, Tensor):
            raise RuntimeError(f"For 'FunctionCtx', element of {what} should be a tensor, "
                               f"but get a {type(v).__name__}.")


class FunctionCtx:
    """The ``ctx`` a ``_Function``'s ``forward`` and ``backward`` share."""

    def __init__(self, needs_input_grad: tuple) -> None:
        self.needs_input_grad = needs_input_grad
        self.saved_tensors: tuple = ()
        self.non_differentiable: list = []
        self.dirty_tensors: list = []
        self.materialize_grads = True

    def save_for_backward(self, *tensors: Any) -> None:
        """Keep values for ``backward`` (read back as ``ctx.saved_tensors``). When a
        gradient is being taken, each must be a Tensor or None (checked after ``forward``)."""
        self.saved_tensors = tensors

    def mark_non_differentiable(self, *outputs: Any) -> None:
        """Outputs without a gradient: ``backward`` gets zeros for them."""
        _all_tensors(outputs, "non_differentiable")
        self.non_differentiable.extend(outputs)

    def mark_dirty(self, *tensors: Any) -> None:
        """Inputs that ``forward`` changed in place. Each must also be an output of
        ``forward`` (checked after it returns), so that later uses see the changed value
        through the output, whose gradient ``backward`` gives."""
        _all_tensors(tensors, "dirty_tensors")
        self.dirty_tensors.extend(tensors)

    def check_forward(self, cls_name: str, out: Any) -> None:
        """The checks MindSpore makes once ``forward`` has returned ``out``."""
        outs = out if isinstance(out, (tuple, list)) else (out,)
        if any(not any(d is o for o in outs) for d in self.dirty_tensors):
            raise RuntimeError(f"For '{cls_name}.forward', the dirty tensors must all be "
                               f"outputs of the forward function.")
        if any(self.needs_input_grad) and any(
                t is not None and not isinstance(t, Tensor) for t in self.saved_tensors):
            raise RuntimeError(f"For '{cls_name}.forward', please check your custom "
                               f"function, that save_for_backward() only support None and "
                               f"tensor, but got other type!")

    def set_materialize_grads(self, value: bool) -> None:
        """With False, ``backward`` gets None (not zeros) for outputs that received no
        gradient."""
        self.materialize_grads = bool(value)


class _Function:
    """A function with a hand-written gradient. Subclass it with two static methods::

        class Square(ms._Function):
            @staticmethod
            def forward(ctx, x):
                ctx.save_for_backward(x)
                return x * x

            @staticmethod
            def backward(ctx, dout):
                (x,) = ctx.saved_tensors
                return 2 * x * dout

    and call ``Square.apply(x)``. Gradients (``grad``, ``GradOperation``, in both modes)
    use ``backward``; forward mode, vmap and Taylor mode differentiate ``forward``'s
    operations. ``backward`` returns one gradient per input (None for none); written in
    mindgrad operations it is itself differentiable (gradients of gradients)."""

    @staticmethod
    def forward(ctx: FunctionCtx, *args: Any, **kwargs: Any) -> Any:
        raise NotImplementedError("A _Function subclass must define forward(ctx, ...).")

    @staticmethod
    def backward(ctx: FunctionCtx, *grads: Any) -> Any:
        raise NotImplementedError("A _Function subclass must define backward(ctx, ...).")

    @classmethod
    def apply(cls, *args: Any, **kwargs: Any) -> Any:
        name = f"{cls.__name__}.backward"
        ctx = FunctionCtx(tuple(_differentiated(a) for a in args))

        def fun(*xs: Any) -> Any:
            out = cls.forward(ctx, *xs, **kwargs)
            ctx.check_forward(cls.__name__, out)
            return out

        def bwd(xs: Sequence, out: Any, dout: Any) -> list:
            multiple = isinstance(out, (tuple, list))
            outs, douts = (list(out), list(dout)) if multiple else ([out], [dout])
            for i, o in enumerate(outs):
                if any(o is m for m in ctx.non_differentiable):
                    douts[i] = S.zeros_like(o) if ctx.materialize_grads else None
            return checked_grads(cls.__name__, "backward", cls.backward(ctx, *douts), xs)

        return custom_vjp_call(fun, bwd, args, name)


class _CustomVjp:
    """A function with a user-written reverse rule: ``fn.defbwd(bprop)`` sets
    ``bprop(*inputs, out, dout)``, which returns one gradient per input (checked, summed and
    cast as a Cell's ``bprop`` is). Until ``defbwd`` is called, ``fn`` is differentiated
    through its own operations."""

    def __init__(self, fn: Any) -> None:
        if not callable(fn):
            raise TypeError(f"For 'custom_vjp', the decorated object must be callable, but "
                            f"got {type(fn).__name__}.")
        functools.update_wrapper(self, fn)
        self.fn = fn
        self.bprop: Any = None

    def defbwd(self, bprop: Any) -> None:
        if not callable(bprop):
            raise TypeError(f"For 'custom_vjp', 'defbwd' needs a callable bprop, but got "
                            f"{type(bprop).__name__}.")
        self.bprop = bprop

    def __call__(self, *args: Any) -> Any:
        if self.bprop is None:
            return self.fn(*args)
        name = getattr(self.fn, "__name__", "custom_vjp")
        bprop = self.bprop

        def bwd(xs: Sequence, out: Any, dout: Any) -> list:
            return checked_grads(name, "bprop", bprop(*xs, out, dout), xs)

        return custom_vjp_call(self.fn, bwd, args, f"{name}.bprop")


def custom_vjp(fn: Any = None) -> Any:
    """``@custom_vjp`` (or ``@custom_vjp()``): make ``fn`` take a reverse rule given later
    with ``fn.defbwd(bprop)``, as in MindSpore's ``ops.function.grad.grad_func``."""
    if fn is None:
        return _CustomVjp
    return _CustomVjp(fn)


__all__ = ["_Function", "FunctionCtx", "checked_grads", "custom_vjp"]
