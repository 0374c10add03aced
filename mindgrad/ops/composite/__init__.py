"""MindSpore's differentiation API on top of ``mindgrad.ad``: GradOperation, grad,
value_and_grad, get_grad, jvp, vjp (both the seed's and 2.x's form), jacfwd, jacrev; and, as
MindSpore's ``ops.composite`` (``C``) holds them, the structure helpers of ``..multitype``."""
from __future__ import annotations

from typing import Any, Callable

from ...ad.api import Pullback, forward, reverse, vectorize
from ...ad.batching import VmapAxisError, VmapAxisTypeError
from ...ad.reverse import in_no_grad
from ...context import is_graph_mode
from ...common import is_mutable
from ...common.parameter import Parameter, ParameterTuple
from ...core.tensor import Tensor
from ...core.tree import flatten, unflatten
from .. import functional as F
from ..differential import NotScalarError, hessian_by_hvp
from ..multitype import HyperMap, Map, MultitypeFuncGraph, partial  # noqa: F401  (MindSpore's C)


# --- shared helpers ----------------------------------------------------------------------------
def _check_callable(fn: Any, who: str) -> None:
    if not callable(fn):
        raise TypeError(f"For '{who}', the fn should be callable, but got "
                        f"{type(fn).__name__}.")


def _weights_list(weights: Any, who: str) -> tuple[list[Parameter], bool]:
    """Normalize ``weights``; the flag says whether a single Parameter was given."""
    if weights is None:
        return [], False
    if isinstance(weights, Parameter):
        return [weights], True
    if isinstance(weights, (tuple, list, ParameterTuple)):
        ws = list(weights)
        for w in ws:
            if not isinstance(w, Parameter):
                raise TypeError(f"For '{who}', 'weights' must be a Parameter, a ParameterTuple "
                                f"or a list of Parameters, but it holds a {type(w).__name__}.")
        return ws, False
    raise TypeError(f"For '{who}', 'weights' must be a Parameter, a ParameterTuple or a list "
                    f"of Parameters, but got {type(weights).__name__}.")


def _sens_leaves(pb: Pullback, sens: Any, who: str) -> list:
    """Match a user-given sensitivity to the output structure, checking shapes."""
    out_leaves, _ = flatten(pb.out)
    sens_leaves, _ = flatten(sens)
    if len(sens_leaves) != len(out_leaves):
        raise ValueError(f"For '{who}', the sens must match the output structure: the output "
                         f"has {len(out_leaves)} tensor(s) but sens has {len(sens_leaves)}.")
    sens_leaves = [_scalar_sens(s, o) for s, o in zip(sens_leaves, out_leaves)]
    _check_shapes(sens_leaves, out_leaves, "sens", "output", who)
    return sens_leaves


def _scalar_sens(sens: Any, out: Any) -> Any:
    """The sensitivity of a scalar output given as a larger tensor, read as MindSpore 2.10
    reads it: its first element in GRAPH mode, its sum in PYNATIVE mode (published programs
    pass one; any other shape mismatch is an error)."""
    if not isinstance(sens, Tensor) or sens.ndim == 0 or getattr(out, "ndim", None) != 0:
        return sens
    if sens.size == 0:
        return sens  # the shape check names it
    if is_graph_mode():
        return F.reshape(sens, (-1,))[0]
    return F.reduce_sum(sens)


def _check_shapes(given: list, expected: list, what: str, against: str, who: str) -> None:
    """Each ``given[i]`` must have the shape of ``expected[i]``."""
    for i, (g, e) in enumerate(zip(given, expected)):
        if g.shape != e.shape:
            raise ValueError(f"For '{who}', {what}[{i}] has shape {list(g.shape)} but {against} "
                             f"{i} has shape {list(e.shape)}.")


# --- GradOperation ----------------------------------------------------------------------------
class GradOperation:
    """``GradOperation(get_all=False, get_by_list=False, sens_param=False)(fn, weights)``
    returns a function computing gradients of ``fn``:

    - neither flag: the gradient of the first input, as a Tensor;
    - ``get_all``: a tuple over all Tensor inputs;
    - ``get_by_list``: a tuple over ``weights`` (a single Parameter gives a bare Tensor;
      no weights means all trainable parameters of ``fn``);
    - both: ``(input_grads, weight_grads)``.

    With ``sens_param`` the last argument scales the output (a tuple for tuple outputs);
    otherwise every output is weighted by ones."""

    def __init__(self, get_all: bool = False, get_by_list: bool = False,
                 sens_param: bool = False) -> None:
        for name, v in (("get_all", get_all), ("get_by_list", get_by_list),
                        ("sens_param", sens_param)):
            if not isinstance(v, bool):
                raise TypeError(f"For 'GradOperation', the '{name}' should be bool, but got "
                                f"{type(v).__name__}")
        self.get_all = get_all
        self.get_by_list = get_by_list
        self.sens_param = sens_param

    def __call__(self, fn: Callable, weights: Any = None) -> Callable:
        _check_callable(fn, "GradOperation")
        op = self

        def grad_fn(*args: Any, **kwargs: Any) -> Any:
            # keyword arguments pass through to ``fn`` undifferentiated; with sens_param the
            # sensitivity may also come as ``sens=``
            if op.sens_param and "sens" in kwargs:
                args = args + (kwargs.pop("sens"),)
            return op._run(fn, weights, args, kwargs)

        grad_fn.__name__ = f"grad_{getattr(fn, '__name__', type(fn).__name__)}"
        return grad_fn

    def _run(self, fn: Callable, weights: Any, args: tuple, kwargs: dict) -> Any:
        return self._value_and_grads(fn, weights, args, kwargs)[1]

    def _value_and_grads(self, fn: Callable, weights: Any, args: tuple, kwargs: dict) -> tuple:
        """``(fn's output, the gradients this GradOperation returns)`` from one forward
        pass (``nn.ForwardValueAndGrad`` returns both)."""
        sens = None
        if self.sens_param:
            if not args:
                raise TypeError("For 'GradOperation' with sens_param=True, the last argument "
                                "must be the sens, but no argument was given.")
            args, sens = args[:-1], args[-1]
        positions = [i for i, a in enumerate(args) if _differentiable(a)]
        if not self.get_all:
            positions = positions[:1] if positions and positions[0] == 0 else []
        ws, single = [], False
        if self.get_by_list:
            if weights is None and hasattr(fn, "trainable_params"):
                ws = list(fn.trainable_params())
            else:
                ws, single = _weights_list(weights, "GradOperation")
        pb, regroup = _reverse(_bind_kwargs(fn, kwargs), args, positions, ws)
        leaves = None if sens is None else _sens_leaves(pb, sens, "GradOperation")
        dargs, dws = pb(leaves)
        if regroup is not None:
            dargs = regroup(dargs)
        if self.get_all:
            in_part: Any = tuple(dargs)
        else:
            in_part = dargs[0] if dargs else ()
        w_part: Any = dws[0] if single else tuple(dws)
        if self.get_all and self.get_by_list:
            return pb.out, (in_part, w_part)
        return pb.out, (w_part if self.get_by_list else in_part)


def _bind_kwargs(fn: Callable, kwargs: dict) -> Callable:
    """``fn`` with the call's keyword arguments fixed (they are not differentiated)."""
    if not kwargs:
        return fn
    return lambda *args: fn(*args, **kwargs)


# --- grad / value_and_grad ----------------------------------------------------------------------
def _differentiable(a: Any) -> bool:
    """A Tensor, or a container marked by ``mutable`` (differentiated element by element)."""
    return isinstance(a, Tensor) or is_mutable(a)


def _plain(a: Any) -> Any:
    """A ``mutable`` container as the plain tuple, list or dict it marks."""
    return dict(a) if isinstance(a, dict) else list(a) if isinstance(a, list) else tuple(a)


def _reverse(fn: Callable, args: tuple, positions: list, weights: Any = ()) -> tuple:
    """``reverse``, with each ``mutable`` container at ``positions`` differentiated through
    its Tensor leaves. Returns the pullback and None, or a function that regroups the
    pullback's input cotangents into one entry per position (a container for a container)."""
    if in_no_grad() and not is_graph_mode():
        # MindSpore's PYNATIVE rule for ``grad``/``GradOperation``/``value_and_grad``
        raise RuntimeError("In no_grad context, you can not calculate gradient")
    if not any(is_mutable(args[p]) for p in positions):
        return reverse(fn, args, positions, weights), None
    flat_args: list = []
    slots: list = []  # per argument: its index in flat_args, or (tree, indices of its leaves)
    for i, a in enumerate(args):
        if i in positions and is_mutable(a):
            leaves, tree = flatten(_plain(a))
            slots.append((tree, list(range(len(flat_args), len(flat_args) + len(leaves)))))
            flat_args.extend(leaves)
        else:
            slots.append(len(flat_args))
            flat_args.append(a)
    flat_positions = [k for p in positions
                      for k in (slots[p][1] if isinstance(slots[p], tuple) else [slots[p]])]

    def rebuilt(*xs: Any) -> Any:
        return fn(*[unflatten(s[0], [xs[k] for k in s[1]]) if isinstance(s, tuple) else xs[s]
                    for s in slots])

    def regroup(dargs: list) -> list:
        it = iter(dargs)
        return [unflatten(slots[p][0], [next(it) for _ in slots[p][1]])
                if isinstance(slots[p], tuple) else next(it) for p in positions]

    return reverse(rebuilt, flat_args, flat_positions, weights), regroup


def _positions(grad_position: Any, args: tuple) -> tuple[list[int], bool]:
    """Checked positions (Tensor args only) and whether the result is a single gradient."""
    one = grad_position[0] if type(grad_position) is tuple and len(grad_position) == 1 \
        else grad_position
    if type(one) is int and 0 <= one < len(args) and _differentiable(args[one]):
        return [one], True  # one position (the common case), with nothing left to check
    if isinstance(grad_position, bool) or not isinstance(grad_position, (int, tuple, list)):
        raise TypeError("For 'F.grad', the 'grad_position' must be int or tuple.")
    pos = [grad_position] if isinstance(grad_position, int) else list(grad_position)
    for p in pos:
        if isinstance(p, bool) or not isinstance(p, int):
            raise TypeError("For 'F.grad', the 'grad_position' must be int or tuple.")
        if p < 0:
            raise ValueError("grad_position must be >= 0.")
        if p >= len(args):
            raise IndexError(f"Position index {p} is exceed input size.")
    if len(set(pos)) != len(pos):
        raise ValueError("There are duplicate positions in `grad_position`, please check it")
    kept = [p for p in pos if _differentiable(args[p])]  # Python scalars get no slot
    return kept, isinstance(grad_position, int) or len(kept) == 1


class _GradSpec:
    """What ``grad``/``value_and_grad`` were asked for, shared by both."""

    def __init__(self, fn, grad_position, weights, has_aux, return_ids, sens_param, who):
        _check_callable(fn, who)
        if grad_position is None and weights is None:
            raise ValueError("`grad_position` and `weight` can not be None at the same time.")
        if isinstance(grad_position, (tuple, list)) and len(grad_position) == 0 and weights is not None:
            raise RuntimeError(f"For '{who}', 'grad_position' is an empty tuple: give at "
                               f"least one position, or None to take only weight gradients.")
        self.fn, self.grad_position, self.has_aux = fn, grad_position, has_aux
        self.return_ids, self.sens_param, self.who = return_ids, sens_param, who
        self.weights, self.single_weight = _weights_list(weights, who)
        self.weights_given = weights is not None

    def run(self, args: tuple, kwargs: dict) -> tuple[Any, Any]:
        sens = None
        if self.sens_param:
            args, sens = args[:-1], args[-1]
        if self.grad_position is None:
            positions, single = [], False
        else:
            positions, single = _positions(self.grad_position, args)
        fn = _bind_kwargs(self.fn, kwargs)
        if self.has_aux:
            fn = _first_output(fn, self.who, bare_single_aux=False)
        pb, regroup = _reverse(fn, args, positions, self.weights)
        leaves = None if sens is None else _sens_leaves(pb, sens, self.who)
        dargs, dws = pb(leaves)
        if regroup is not None:
            dargs = regroup(dargs)
        if self.return_ids:
            dargs = [(p, g) for p, g in zip(positions, dargs)]
            dws = [(w.name, g) for w, g in zip(self.weights, dws)]
        if single:
            in_part: Any = dargs[0] if dargs else ()
        else:
            in_part = tuple(dargs)
        out = pb.out
        # a single Parameter as ``weights`` gives its gradient bare, as MindSpore does
        w_part: Any = dws[0] if self.single_weight else tuple(dws)
        if self.grad_position is None:
            grads: Any = w_part
        elif self.weights_given:
            grads = (in_part, w_part)
        else:
            grads = in_part
        if self.has_aux:
            main, aux = out
            return (main,) + tuple(F.stop_gradient(a) for a in aux), (grads, tuple(aux))
        return out, grads


def _first_output(fn: Callable, who: str, bare_single_aux: bool = True) -> Callable:
    """For has_aux: ``fn``'s output becomes ``(out[0], aux)``; only ``out[0]`` is
    differentiated (aux goes through stop_gradient). As in MindSpore, the aux of a
    two-output function is ``out[1]`` itself, except for grad/value_and_grad, which always
    give a tuple (``bare_single_aux=False``)."""

    def wrapped(*args: Any) -> Any:
        out = fn(*args)
        if not isinstance(out, (tuple, list)) or len(out) < 2:
            raise ValueError("When has_aux is True, origin fn requires more than one outputs.")
        aux = out[1] if bare_single_aux and len(out) == 2 else tuple(out[1:])
        return out[0], F.stop_gradient(aux)

    return wrapped


def grad(fn: Callable, grad_position: Any = 0, weights: Any = None, has_aux: bool = False,
         return_ids: bool = False, sens_param: bool = False) -> Callable:
    """Gradient function of ``fn`` (MindSpore 2.x ``ops.grad``)."""
    spec = _GradSpec(fn, grad_position, weights, has_aux, return_ids, sens_param, "grad")

    def grad_fn(*args: Any, **kwargs: Any) -> Any:
        return spec.run(args, kwargs)[1]

    return grad_fn


def value_and_grad(fn: Callable, grad_position: Any = 0, weights: Any = None,
                   has_aux: bool = False, return_ids: bool = False) -> Callable:
    """Function returning ``(fn(*args), gradients)``."""
    spec = _GradSpec(fn, grad_position, weights, has_aux, return_ids, False, "value_and_grad")

    def vg_fn(*args: Any, **kwargs: Any) -> Any:
        value, grads = spec.run(args, kwargs)
        if has_aux:
            return value, grads[0]
        return value, grads

    return vg_fn


class GradientNotFoundError(RuntimeError, ValueError):
    """``get_grad`` found no gradient for the identifier: MindSpore's RuntimeError, and the
    ValueError Python code expects of a bad argument value."""


def get_grad(gradients: Any, identifier: Any) -> Tensor:
    """Find a gradient by position or Parameter (or its name) in a ``return_ids`` result."""
    if not isinstance(gradients, (tuple, Tensor)):
        raise TypeError(f"For 'get_grad', 'gradients' must be what a gradient function built "
                        f"with return_ids=True returns (a tuple), but got "
                        f"{type(gradients).__name__}.")
    if isinstance(identifier, bool) or not isinstance(identifier, (int, Parameter, str)):
        raise TypeError(f"For 'get_grad', the identifier should be an integer, a Parameter or "
                        f"a Parameter's name, but got {identifier!r}.")
    key = identifier.name if isinstance(identifier, Parameter) else identifier

    def search(node: Any) -> Any:
        if isinstance(node, tuple):
            if len(node) == 2 and not isinstance(node[0], (tuple, Tensor)) and node[0] == key \
                    and isinstance(node[1], Tensor):
                return node[1]
            for child in node:
                hit = search(child)
                if hit is not None:
                    return hit
        return None

    hit = search(gradients)
    if hit is None:
        # MindSpore's exception type and words; the hint is mindgrad's
        raise GradientNotFoundError(f"For 'get_grad', can not find the gradient for position "
                                    f"or Parameter {identifier} (build the gradients with "
                                    f"return_ids=True).")
    return hit


# --- forward mode -------------------------------------------------------------------------------
def _as_tensor_tuple(x: Any, who: str) -> tuple:
    items = tuple(x) if isinstance(x, (tuple, list)) else (x,)
    for t in items:
        if not isinstance(t, Tensor):
            raise TypeError("The inputs type must be a Tensor, tuple or list of Tensors.")
    return items


def _check_tangents(primals: tuple, tangents: tuple, who: str) -> None:
    if len(tangents) != len(primals):
        raise ValueError(f"v has invalid length: should be {len(primals)}, but got "
                         f"{len(tangents)}")
    _check_shapes(list(tangents), list(primals), "v", "input", who)


def jvp(fn: Callable, inputs: Any, v: Any, has_aux: bool = False) -> tuple:
    """Forward mode: ``(fn(*inputs), J v)``, or ``(out0, J v, aux)`` with has_aux."""
    _check_callable(fn, "jvp")
    primals = _as_tensor_tuple(inputs, "jvp")
    tangents = _as_tensor_tuple(v, "jvp")
    _check_tangents(primals, tangents, "jvp")
    target = _first_output(fn, "jvp") if has_aux else fn
    out, tan = forward(target, primals, tangents)
    if has_aux:
        return out[0], tan[0], out[1]
    return out, tan


def _cotangents(out: Any, v: tuple, who: str) -> list:
    out_leaves, _ = flatten(out)
    if len(v) == 1 and isinstance(v[0], (tuple, list)):
        v = tuple(v[0])
    if len(v) != len(out_leaves):
        raise ValueError(f"For '{who}', v must give one cotangent per output: the output has "
                         f"{len(out_leaves)} tensor(s), but got {len(v)}.")
    for i, c in enumerate(v):
        if not isinstance(c, Tensor):
            raise TypeError(f"For '{who}', v[{i}] must be a Tensor, but got {type(c).__name__}.")
    _check_shapes(list(v), out_leaves, "v", "output", who)
    return list(v)


def vjp(fn: Callable, *inputs: Any, weights: Any = None, has_aux: bool = False) -> tuple:
    """Reverse mode, in two forms:

    - ``vjp(fn, *inputs)`` (MindSpore 2.x) returns ``(out, vjp_fn)``; ``vjp_fn(v)`` gives a
      tuple over all inputs (and ``(input_grads, weight_grads)`` with weights);
    - ``vjp(fn, (x, y), v)`` (the 1.x tutorials' form: a tuple of tensors then ``v``) returns
      ``(out, grads)`` directly."""
    _check_callable(fn, "vjp")
    if len(inputs) == 2 and isinstance(inputs[0], (tuple, list)) and inputs[0] \
            and all(isinstance(t, Tensor) for t in inputs[0]) and weights is None \
            and not has_aux:
        primals = tuple(inputs[0])
        v = inputs[1] if isinstance(inputs[1], (tuple, list)) else (inputs[1],)
        pb = reverse(fn, primals, range(len(primals)))
        dargs, _ = pb(_cotangents(pb.out, tuple(v), "vjp"))
        return pb.out, tuple(dargs)
    for t in inputs:
        if not isinstance(t, Tensor):
            raise TypeError(f"For 'vjp', the inputs must be Tensors, but got "
                            f"{type(t).__name__}.")
    ws, _ = _weights_list(weights, "vjp")
    target = _first_output(fn, "vjp") if has_aux else fn
    pb = reverse(target, inputs, range(len(inputs)), ws)
    out = pb.out[0] if has_aux else pb.out
    main_pb = pb

    def vjp_fn(*v: Any) -> Any:
        cts = _cotangents(out, v, "vjp")
        if has_aux:
            aux_leaves, _ = flatten(pb.out[1])
            cts = cts + [None] * len(aux_leaves)
        dargs, dws = main_pb(cts)
        return (tuple(dargs), tuple(dws)) if weights is not None else tuple(dargs)

    if has_aux:
        return out, vjp_fn, pb.out[1]
    return out, vjp_fn


# --- Jacobians ----------------------------------------------------------------------------------
def _basis(like: Tensor) -> Tensor:
    """The standard basis of ``like``'s space, stacked: shape ``(n,) + like.shape``."""
    n = like.size
    return F.reshape(F.eye(n, dtype=like.dtype), (n,) + like.shape)


def jacrev(fn: Callable, grad_position: Any = 0, has_aux: bool = False) -> Callable:
    """Jacobian by reverse mode, one batched (vmap) pullback per output: shape
    ``out.shape + in.shape``; one per output for tuple outputs, a tuple over positions for
    several positions."""
    _check_callable(fn, "jacrev")

    def jac_fn(*args: Any) -> Any:
        positions, single = _positions(grad_position, args)
        target = _first_output(fn, "jacrev") if has_aux else fn
        pb = reverse(target, args, positions)
        n_seeds = len(flatten(pb.out)[0])
        outs, tree = flatten(pb.out[0] if has_aux else pb.out)
        per_out = []
        for k, o in enumerate(outs):
            def pull(e: Tensor, k: int = k) -> tuple:
                seeds = [None] * n_seeds
                seeds[k] = e
                return tuple(pb(seeds)[0])

            rows = vectorize(pull, [_basis(o)], [0], 0)
            jacs = [F.reshape(r, o.shape + args[p].shape) for r, p in zip(rows, positions)]
            per_out.append(jacs[0] if single else tuple(jacs))
        jac = unflatten(tree, per_out)
        return (jac, pb.out[1]) if has_aux else jac

    return jac_fn


def jacfwd(fn: Callable, grad_position: Any = 0, has_aux: bool = False) -> Callable:
    """Jacobian by forward mode, one batched (vmap) jvp per input position; same layout as
    ``jacrev``."""
    _check_callable(fn, "jacfwd")

    def jac_fn(*args: Any) -> Any:
        positions, single = _positions(grad_position, args)
        target = _first_output(fn, "jacfwd") if has_aux else fn
        value = target(*args)
        main = value[0] if has_aux else value
        outs, tree = flatten(main)
        columns = []
        for p in positions:
            def push(e: Tensor, p: int = p) -> Any:
                tangents = [e if i == p else F.zeros_like(a) for i, a in enumerate(args)]
                tan = forward(target, args, tangents)[1]
                return tan[0] if has_aux else tan

            columns.append(flatten(vectorize(push, [_basis(args[p])], [0], -1))[0])
        per_out = []
        for k, o in enumerate(outs):
            jacs = [F.reshape(col[k], o.shape + args[p].shape)
                    for col, p in zip(columns, positions)]
            per_out.append(jacs[0] if single else tuple(jacs))
        jac = unflatten(tree, per_out)
        return (jac, value[1]) if has_aux else jac

    return jac_fn


def hessian(fn: Callable, grad_position: Any = 0) -> Callable:
    """Second derivatives, forward over reverse. For a one-element output and one input
    position: Hessian-vector products with every basis vector in one batched pass
    (``ops.hvp``); otherwise ``jacfwd(jacrev(fn))``."""
    _check_callable(fn, "hessian")
    general = jacfwd(jacrev(fn, grad_position), grad_position)

    def hess(*args: Any) -> Any:
        if isinstance(grad_position, int) and not isinstance(grad_position, bool) \
                and -len(args) <= grad_position < len(args) \
                and isinstance(args[grad_position], Tensor) \
                and args[grad_position].is_floating_point():
            try:
                return hessian_by_hvp(fn, args, grad_position % len(args))
            except NotScalarError:
                pass
        return general(*args)

    return hess


# --- vmap -------------------------------------------------------------------------------------------
def _in_axes(in_axes: Any, args: tuple) -> tuple[list, list]:
    """Flatten the arguments and give each tensor leaf its mapped axis."""
    leaves, axes = [], []

    def walk(a: Any, spec: Any) -> None:
        if isinstance(a, Tensor):
            if spec is not None and (not isinstance(spec, int) or isinstance(spec, bool)):
                raise VmapAxisTypeError(f"For 'vmap', the axis of a Tensor input must be an "
                                        f"int or None, but got {spec!r}.")
            leaves.append(a)
            axes.append(spec)
        elif isinstance(a, (tuple, list)):
            specs = spec if isinstance(spec, (tuple, list)) else [spec] * len(a)
            if len(specs) != len(a):
                raise VmapAxisError(f"For 'vmap', in_axes {spec!r} does not match an input "
                                    f"with {len(a)} elements.")
            for x, s in zip(a, specs):
                walk(x, s)

    specs = in_axes if isinstance(in_axes, (tuple, list)) else [in_axes] * len(args)
    if len(specs) != len(args):
        raise VmapAxisError(f"For 'vmap', in_axes has {len(specs)} entries but {len(args)} "
                            f"arguments were given.")
    for a, s in zip(args, specs):
        walk(a, s)
    return leaves, axes


def vmap(fn: Callable, in_axes: Any = 0, out_axes: Any = 0) -> Callable:
    """Vectorize ``fn`` over an axis of its inputs (``in_axes``: int, None, or a tuple per
    argument) putting the mapped axis of the outputs at ``out_axes``. An object with a
    ``__vmap__(in_axes, out_axes)`` method (``nn.CellList``: model ensembling) makes its own
    mapped function."""
    own = getattr(fn, "__vmap__", None)
    if own is not None:
        return own(in_axes, out_axes)
    _check_callable(fn, "vmap")

    def mapped(*args: Any) -> Any:
        leaves, axes = _in_axes(in_axes, args)
        _, tree = flatten(args)

        def flat_fn(*xs: Any) -> Any:
            return fn(*unflatten(tree, list(xs)))

        return vectorize(flat_fn, leaves, axes, out_axes)

    return mapped
