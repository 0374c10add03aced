"""The bad-input fuzzer's table (``fuzz_ops``) for the array-manipulation, segment and
scatter, statistics, random and assignment operators (``ops.reshaping_functions``,
``ops.scatter_functions``, ``ops.statistics_functions``, ``ops.operations.catalogue_ops``):
a valid call per operator and, where cheap, its NumPy reference. ``fuzz_ops`` imports this
module at its end, so the names join its ``SPECS``."""
from __future__ import annotations

import numpy as np

import mindgrad as ms
from mindgrad import Parameter, Tensor, ops

import fuzz_ops as F
from fuzz_ops import _arr, _cls2, _shape, spec

F32 = np.float32


def _t(rng, shape, dt=F32):
    return ("tensor", None, _arr(rng, shape, dt))


def _param_call(fn):
    """``fn`` with its first argument made a Parameter (the in-place operators)."""
    def call(x, *args, **kwargs):
        if isinstance(x, Tensor):
            x = Parameter(x, name="fuzzed")
        return fn(x, *args, **kwargs)
    call.__name__ = fn.__name__
    return call


def pspec(name, make, ref=None, **kw):
    F.SPECS.append(F.Spec(name, _param_call(getattr(ops, name)), make, ref, **kw))


def _nd_ref(kind):
    def ref(x, i, u):
        out = x.copy()
        idx = tuple(np.moveaxis(i, -1, 0))
        {"mul": np.multiply, "div": np.divide, "max": np.maximum, "min": np.minimum,
         "add": np.add, "sub": np.subtract}[kind].at(out, idx, u)
        return out
    return ref


def _seg_ref(kind):
    def ref(x, ids, n):
        fill = {"sum": 0, "prod": 1, "max": np.finfo(x.dtype).min if x.dtype.kind == "f" else 0,
                "min": np.finfo(x.dtype).max if x.dtype.kind == "f" else 0}[kind]
        if x.dtype.kind != "f" and kind in ("max", "min") or not isinstance(n, int):
            return None
        out = np.full((n,) + x.shape[ids.ndim:], fill, x.dtype)
        f = {"sum": np.add, "prod": np.multiply, "max": np.maximum, "min": np.minimum}[kind]
        keep = (ids >= 0) & (ids < n)
        f.at(out, ids[keep], x[keep])
        return out
    return ref


# --- shapes and views -------------------------------------------------------------------------
spec("expand", lambda rng: [_t(rng, (3, 1)), ("tensor", None, np.array([2, 3, 4]))],
     lambda x, s: np.broadcast_to(x, tuple(s)) if isinstance(s, np.ndarray) and s.ndim == 1
     and s.dtype.kind in "iu" else None)
spec("expand_as", lambda rng: [_t(rng, (3, 1)), _t(rng, (3, 4))],
     lambda x, o: np.broadcast_to(x, o.shape))
spec("swapdims", lambda rng: [_t(rng, (2, 3, 4)), ("axis", None, 0), ("axis", None, 2)],
     np.swapaxes)
spec("t", lambda rng: [_t(rng, _shape(rng))], lambda x: x.T if x.ndim == 2 else x)
spec("ravel", lambda rng: [_t(rng, _shape(rng))], np.ravel)
spec("reverse", lambda rng: [_t(rng, (2, 3)), ("axis", None, (1,))],
     lambda x, a: np.flip(x, a))
spec("view_as", lambda rng: [_t(rng, (2, 3)), _t(rng, (3, 2))],
     lambda x, o: x.reshape(o.shape))
spec("deepcopy", lambda rng: [_t(rng, _shape(rng))], lambda x: x.copy())
spec("slice", lambda rng: [_t(rng, (3, 4)), ("shape", None, (1, 0)), ("shape", None, (2, -1))],
     lambda x, b, s: x[1:3, 0:] if (b, s) == ((1, 0), (2, -1)) else None)
spec("strided_slice", lambda rng: [_t(rng, (4, 3)), ("shape", None, (0, 1)),
                                   ("shape", None, (3, 3)), ("shape", None, (2, 1))],
     lambda x, b, e, s: x[tuple(slice(*t) for t in zip(b, e, s))]
     if isinstance(b, tuple) and len(b) == len(e) == len(s) == 2 and 0 not in s else None)
# --- diagonals and slice updates ----------------------------------------------------------------
spec("diag_embed", lambda rng: [_t(rng, (2, 3)), ("int", None, 1)],
     lambda x, o: np.stack([np.diag(r, o) for r in x]) if isinstance(o, int) and x.ndim == 2
     else None)
spec("diagflat", lambda rng: [_t(rng, (2, 2)), ("int", None, -1)],
     lambda x, o: np.diagflat(x, o) if isinstance(o, int) else None)
spec("diagonal_scatter", lambda rng: [_t(rng, (3, 3)), _t(rng, (3,))], out="")
spec("select_scatter", lambda rng: [_t(rng, (3, 4)), _t(rng, (3,)), ("axis", None, 1),
                                    ("int", None, 2)], out="")
spec("slice_scatter", lambda rng: [_t(rng, (3, 4)), _t(rng, (3, 2)), ("axis", None, 1),
                                   ("int", None, 0), ("int", None, 4), ("int", None, 2)], out="")
spec("index_fill", lambda rng: [_t(rng, (3, 4)), ("axis", None, 1),
                                ("index", None, np.array([0, 2])), ("float", None, 1.5)],
     out="")
spec("repeat_elements", lambda rng: [_t(rng, (2, 3)), ("int", None, 2), ("axis", None, 1)],
     lambda x, r, a: np.repeat(x, r, a) if isinstance(r, int) and isinstance(a, int) else None)
spec("sequence_mask", lambda rng: [("index", None, np.array([1, 3, 0])), ("int", None, 4)],
     out="bool")
spec("cartesian_prod", lambda rng: [_t(rng, (3,)), _t(rng, (2,))], out="")
spec("combinations", lambda rng: [_t(rng, (4,)), ("int", None, 2)], out="")
spec("reverse_sequence", lambda rng: [_t(rng, (3, 4)), ("index", None, np.array([1, 4, 2])),
                                      ("axis", None, 1)], out="")
spec("unique_consecutive", lambda rng: [("tensor", None, np.array([1, 1, 2, 2, 1]))], out="")
spec("unique_with_pad", lambda rng: [("tensor", None, np.array([3, 1, 3, 2])),
                                     ("int", None, -1)], out="")
spec("pixel_shuffle", lambda rng: [_t(rng, (1, 4, 2, 3)), ("int", None, 2)], out="")
spec("pixel_unshuffle", lambda rng: [_t(rng, (1, 1, 4, 2)), ("int", None, 2)], out="")
spec("channel_shuffle", lambda rng: [_t(rng, (1, 4, 2)), ("int", None, 2)], out="")
# --- segments and scatters ----------------------------------------------------------------------
for _k in ("sum", "prod", "max", "min"):
    spec(f"unsorted_segment_{_k}", lambda rng: [_t(rng, (5, 2)),
                                                ("index", None, np.array([0, 2, 0, 1, 2])),
                                                ("int", None, 3)], _seg_ref(_k), out="")
spec("sparse_segment_mean", lambda rng: [_t(rng, (3, 2)), ("index", None, np.array([0, 2, 1])),
                                         ("index", None, np.array([0, 0, 1]))], out="")
_I = np.array([[1], [0], [1]])
for _k in ("mul", "div", "max", "min"):
    spec(f"tensor_scatter_{_k}", lambda rng: [_t(rng, (3, 2)), ("index", None, _I),
                                              _t(rng, (3, 2))], _nd_ref(_k), out="")
for _k in ("add", "sub", "mul", "div", "max", "min", "update"):
    pspec(f"scatter_nd_{_k}", lambda rng: [_t(rng, (3, 2)), ("index", None, _I),
                                           _t(rng, (3, 2))], None if _k == "update" else
          _nd_ref(_k), out="")
for _k in ("update", "sub", "mul", "div", "max", "min"):
    pspec(f"scatter_{_k}", lambda rng: [_t(rng, (3, 2)), ("index", None, np.array([2, 0])),
                                        _t(rng, (2, 2))], out="")
pspec("index_add", lambda rng: [_t(rng, (3, 2)), ("index", None, np.array([2, 2])),
                                _t(rng, (3, 2)), ("axis", None, 1)], out="")
pspec("inplace_index_add", lambda rng: [_t(rng, (3, 2)), ("index", None, np.array([2, 0])),
                                        _t(rng, (2, 2)), ("axis", None, 0)], out="")
for _k in ("add", "sub", "update"):
    spec(f"inplace_{_k}", lambda rng: [_t(rng, (3, 2)), _t(rng, (2, 2)),
                                       ("shape", None, (0, 2))], out="")
for _k in ("", "_add", "_sub"):
    pspec(f"assign{_k}", lambda rng: [_t(rng, (2, 3)), _t(rng, (2, 3))], out="")
# --- statistics -----------------------------------------------------------------------------------
spec("median", lambda rng: [_t(rng, (3, 4)), ("axis", None, 0)], out="")
spec("nanmedian", lambda rng: [_t(rng, (3, 4)), ("axis", None, 1)], out="")
spec("aminmax", lambda rng: [_t(rng, (3, 4)), ("axis", "axis", 1)], out="")
spec("top_k", lambda rng: [_t(rng, (3, 4)), ("int", None, 2)], out="")
spec("intopk", lambda rng: [_t(rng, (3, 4)), ("index", None, np.array([0, 3, 1])),
                            ("int", None, 2)], out="bool")
spec("histc", lambda rng: [_t(rng, (3, 4)), ("int", None, 4), ("float", None, -1.0),
                           ("float", None, 1.0)], out="")
spec("bincount", lambda rng: [("index", None, np.array([0, 3, 3, 1]))], out="")
spec("bucketize", lambda rng: [_t(rng, (3, 4)), ("shape", None, [-1.0, 0.0, 1.0])],
     out="index")
# --- random draws ---------------------------------------------------------------------------------
spec("bernoulli", lambda rng: [_t(rng, (2, 3)), ("float", None, 0.4)], out="")
spec("standard_laplace", lambda rng: [("shape", None, (2, 3))], out="")
spec("laplace", lambda rng: [("shape", None, (2, 3)), ("tensor", None, np.array(1.0, F32)),
                             ("tensor", None, np.array(0.5, F32))], out="")
spec("random_poisson", lambda rng: [("index", None, np.array([3])),
                                    ("tensor", None, np.array([1.5, 2.0], F32))], out="")
spec("random_gamma", lambda rng: [("index", None, np.array([3])),
                                  ("tensor", None, np.array([1.5, 2.0], F32))], out="")
spec("random_categorical", lambda rng: [_t(rng, (2, 3)), ("int", None, 4)], out="")
spec("multinomial_with_replacement", lambda rng: [
    ("tensor", None, np.array([[0.2, 0.5, 0.3]], F32)), ("index", None, np.array(0)),
    ("index", None, np.array(0)), ("int", None, 3), ("bool", None, True)], out="")

# --- operator classes ----------------------------------------------------------------------
for _c, _f in [("Assign", "assign"), ("AssignAdd", "assign_add"), ("AssignSub", "assign_sub")]:
    F.SPECS.append(F.Spec(_c, _param_call(lambda *a, _c=_c, **k: getattr(ops, _c)()(*a, **k)),
                          next(s for s in F.SPECS if s.name == _f).make, names=(_f,), out=""))
for _c, _f in [("Expand", "expand"), ("Slice", "slice"),
               ("UnsortedSegmentSum", "unsorted_segment_sum"),
               ("UnsortedSegmentMax", "unsorted_segment_max"),
               ("UnsortedSegmentMin", "unsorted_segment_min"),
               ("UnsortedSegmentProd", "unsorted_segment_prod"),
               ("TensorScatterMul", "tensor_scatter_mul"),
               ("TensorScatterDiv", "tensor_scatter_div"),
               ("TensorScatterMax", "tensor_scatter_max"),
               ("TensorScatterMin", "tensor_scatter_min")]:
    F._cls(_c, _f)
for _c in ("ScatterNdAdd", "ScatterNdSub", "ScatterNdMul", "ScatterNdDiv", "ScatterNdMax",
           "ScatterNdMin", "ScatterNdUpdate", "ScatterUpdate", "ScatterSub", "ScatterMul",
           "ScatterDiv", "ScatterMax", "ScatterMin"):
    _f = next(s for s in F.SPECS if s.fn.__name__ == {
        "ScatterNdAdd": "scatter_nd_add", "ScatterNdSub": "scatter_nd_sub",
        "ScatterNdMul": "scatter_nd_mul", "ScatterNdDiv": "scatter_nd_div",
        "ScatterNdMax": "scatter_nd_max", "ScatterNdMin": "scatter_nd_min",
        "ScatterNdUpdate": "scatter_nd_update", "ScatterUpdate": "scatter_update",
        "ScatterSub": "scatter_sub", "ScatterMul": "scatter_mul", "ScatterDiv": "scatter_div",
        "ScatterMax": "scatter_max", "ScatterMin": "scatter_min"}[_c])
    F.SPECS.append(F.Spec(_c, _param_call(lambda *a, _c=_c, **k: getattr(ops, _c)()(*a, **k)),
                          _f.make, names=(_f.fn.__name__,), out=""))
_cls2("InplaceAdd", lambda rng: [("shape", None, (0, 2)), _t(rng, (3, 2)), _t(rng, (2, 2))], 1,
      names=("inplace_add",))
_cls2("InplaceSub", lambda rng: [("int", None, 1), _t(rng, (3, 2)), _t(rng, (1, 2))], 1,
      names=("inplace_sub",))
_cls2("InplaceUpdate", lambda rng: [("shape", None, (2,)), _t(rng, (3, 2)), _t(rng, (1, 2))], 1,
      names=("inplace_update",))
_cls2("IndexAdd", lambda rng: [("axis", None, 0), _t(rng, (3, 2)),
                               ("index", None, np.array([1])), _t(rng, (1, 2))], 1,
      names=("index_add",))
_cls2("InplaceIndexAdd", lambda rng: [("axis", None, 0), _t(rng, (3, 2)),
                                      ("index", None, np.array([1])), _t(rng, (1, 2))], 1,
      names=("inplace_index_add",))
_cls2("IndexFill", lambda rng: [_t(rng, (3, 2)), ("axis", None, 0),
                                ("index", None, np.array([1])), ("float", None, 2.0)], 0,
      names=("index_fill",))
_cls2("UniqueConsecutive", lambda rng: [("bool", None, True), ("bool", None, False),
                                        ("axis", None, None),
                                        ("tensor", None, np.array([1, 1, 3]))], 3,
      names=("unique_consecutive",))
_cls2("UniqueWithPad", lambda rng: [("tensor", None, np.array([1, 1, 3])), ("int", None, 0)], 0,
      names=("unique_with_pad",))
_cls2("ChannelShuffle", lambda rng: [("int", None, 2), _t(rng, (1, 4, 2))], 1,
      names=("channel_shuffle",))
_cls2("ReverseSequence", lambda rng: [("axis", None, 1), ("axis", None, 0), _t(rng, (2, 3)),
                                      ("index", None, np.array([1, 3]))], 2,
      names=("reverse_sequence",))
_cls2("TopK", lambda rng: [("bool", None, True), _t(rng, (2, 3)), ("int", None, 2)], 1,
      names=("top_k", "topk"))
_cls2("InTopK", lambda rng: [("int", None, 2), _t(rng, (2, 3)),
                             ("index", None, np.array([0, 2]))], 1, names=("intopk",))
_cls2("Bucketize", lambda rng: [("shape", None, [0.0, 1.0]), _t(rng, (2, 3))], 1,
      names=("bucketize",))
_cls2("RandomCategorical", lambda rng: [("dtype", None, ms.int64), _t(rng, (2, 3)),
                                        ("int", None, 3)], 1, names=("random_categorical",))
_cls2("StandardLaplace", lambda rng: [("int", None, 0), ("int", None, 0),
                                      ("shape", None, (2, 3))], 2, names=("standard_laplace",))
_cls2("RandomGamma", lambda rng: [("int", None, 0), ("int", None, 0),
                                  ("index", None, np.array([2])),
                                  ("tensor", None, np.array([1.0, 2.0], F32))], 2,
      names=("random_gamma",))
_cls2("RandomPoisson", lambda rng: [("int", None, 0), ("int", None, 0),
                                    ("dtype", None, ms.int64), ("index", None, np.array([2])),
                                    ("tensor", None, np.array([1.0, 2.0], F32))], 3,
      names=("random_poisson",))
_cls2("MultinomialWithReplacement", lambda rng: [
    ("int", None, 3), ("bool", None, True), ("tensor", None, np.array([[0.2, 0.8]], F32)),
    ("index", None, np.array(0)), ("index", None, np.array(0))], 2,
      names=("multinomial_with_replacement", "multinomial"))

# --- spatial rearrangements ----------------------------------------------------------------
spec("choice_with_mask", lambda rng: [("mask", None, np.array([[True, False], [True, True]])),
                                      ("int", None, 3)], out="")
spec("mirror_pad", lambda rng: [_t(rng, (3, 4)), ("index", None, np.array([[1, 0], [2, 1]])),
                                ("str", None, "REFLECT")],
     lambda x, p, m: np.pad(x, p, m.lower()) if isinstance(m, str) and m in (
         "REFLECT", "SYMMETRIC") and isinstance(p, np.ndarray) and p.shape == (2, 2)
     and p.dtype.kind in "iu" else None)
spec("space_to_batch_nd", lambda rng: [_t(rng, (1, 2, 2, 4)), ("shape", None, [2, 2]),
                                       ("shape", None, [[0, 0], [0, 0]])], out="")
spec("batch_to_space_nd", lambda rng: [_t(rng, (4, 1, 2, 2)), ("shape", None, [2, 2]),
                                       ("shape", None, [[0, 0], [1, 0]])], out="")
spec("unfold", lambda rng: [_t(rng, (1, 2, 4, 4)), ("int", None, 2)], out="")
spec("fold", lambda rng: [_t(rng, (1, 8, 9)), ("index", None, np.array([4, 4])),
                          ("int", None, 2)], out="")
spec("col2im", lambda rng: [_t(rng, (1, 2, 4, 4)), ("index", None, np.array([4, 4])),
                            ("shape", None, (2, 2)), ("shape", None, (1, 1)),
                            ("shape", None, (0, 0)), ("shape", None, (2, 2))], out="")
spec("padding", lambda rng: [_t(rng, (3, 1)), ("int", None, 4)],
     lambda x, n: np.pad(x, ((0, 0), (0, n - 1))) if isinstance(n, int) and 0 < n < 100
     and x.ndim == 2 and x.shape[-1] == 1 else None)
_cls2("MirrorPad", lambda rng: [("str", None, "SYMMETRIC"), _t(rng, (2, 3)),
                                ("index", None, np.array([[1, 0], [0, 2]]))], 1,
      names=("mirror_pad",))
_cls2("SpaceToBatchND", lambda rng: [("int", None, 2), ("shape", None, [[0, 0], [0, 0]]),
                                     _t(rng, (1, 1, 2, 2))], 2, names=("space_to_batch_nd",))
_cls2("BatchToSpaceND", lambda rng: [("shape", None, [2, 1]), ("shape", None, [[0, 0], [0, 0]]),
                                     _t(rng, (2, 1, 2, 2))], 2, names=("batch_to_space_nd",))
_cls2("Col2Im", lambda rng: [("int", None, 2), ("int", None, 1), ("int", None, 0),
                             ("int", None, 2), _t(rng, (1, 1, 4, 4)),
                             ("index", None, np.array([4, 4]))], 4, names=("col2im",))
_cls2("Padding", lambda rng: [("int", None, 3), _t(rng, (2, 1))], 1, names=("padding",))
_cls2("Identity", lambda rng: [_t(rng, _shape(rng))], 0, lambda x: x, names=("deepcopy",),
      out="float")
_cls2("Cummin", lambda rng: [("axis", None, 0), _t(rng, (3, 2))], 1, names=("cummin",))
_cls2("Cummax", lambda rng: [("axis", None, 1), _t(rng, (3, 2))], 1, names=("cummax",))
_cls2("Histogram", lambda rng: [("int", None, 4), ("float", None, -1.0), ("float", None, 1.0),
                                _t(rng, (3, 2))], 3, names=("histc",))
_cls2("Bincount", lambda rng: [("index", None, np.array([0, 2, 2])), ("int", None, 4),
                               ("tensor", None, np.array([1.0, 2.0, 0.5], F32))], 0,
      names=("bincount",))
_cls2("Bernoulli", lambda rng: [("int", None, -1), ("int", None, 0), _t(rng, (2, 3)),
                                ("float", None, 0.5)], 2, names=("bernoulli",))
_cls2("RandomChoiceWithMask", lambda rng: [("int", None, 3), ("int", None, 0), ("int", None, 0),
                                           ("mask", None, np.array([True, False, True]))], 3,
      names=("choice_with_mask",))

# --- candidate samplers and the primitive-instance functions -------------------------------------
spec("uniform_candidate_sampler", lambda rng: [("index", None, np.array([[1], [3]])),
                                               ("int", None, 1), ("int", None, 3),
                                               ("bool", None, True), ("int", None, 5)], out="")
spec("log_uniform_candidate_sampler", lambda rng: [("index", None, np.array([[1], [3]])),
                                                   ("int", None, 1), ("int", None, 3),
                                                   ("bool", None, False), ("int", None, 5)],
     out="")
spec("identity", lambda rng: [_t(rng, _shape(rng))], lambda x: x.copy())
spec("shape_", lambda rng: [_t(rng, _shape(rng))], out="")
spec("tensor_range", lambda rng: [("int", None, 1), ("int", None, 9), ("int", None, 3)], out="")
spec("tensor_slice", lambda rng: [_t(rng, (3, 4)), ("shape", None, (1, 0)),
                                  ("shape", None, (2, -1))], out="")
_cls2("UniformCandidateSampler", lambda rng: [
    ("int", None, 1), ("int", None, 2), ("bool", None, False), ("int", None, 4),
    ("index", None, np.array([[1], [3]]))], 4, names=("uniform_candidate_sampler",))
_cls2("LogUniformCandidateSampler", lambda rng: [
    ("int", None, 1), ("int", None, 2), ("bool", None, True), ("int", None, 4),
    ("index", None, np.array([[1], [3]]))], 4, names=("log_uniform_candidate_sampler",))
_cls2("MaskedScatter", lambda rng: [_t(rng, (2, 3)), ("mask", None, np.array([True, False, True])),
                                    _t(rng, (4,))], 0, names=("masked_scatter",))
