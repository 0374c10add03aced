"""The front end's name table: one row per function of ``mindgrad.ops`` that MindSpore also
offers as an operator class (``ops.Sin()``) or as a Tensor method (``x.sin()``) doing
nothing but call it. The rows drive three things:

- the functional names: a row with a primitive (``unary_op``, ``binary_op``, ``arith_op``)
  defines the function itself in ``ops.functional.elementwise`` (argument checks and
  MindSpore's dtype rules, then the primitive), under its name and its aliases;
- the operator classes of ``ops.operations``: ``Name(*attrs)(*inputs)`` calls
  ``function(*inputs, *attrs)`` (``attrs``: the constructor's arguments with their
  defaults, passed after the inputs);
- the Tensor methods: ``x.name(*args, **kwargs)`` calls ``function(x, *args, **kwargs)``;
  the function itself is installed on the class (no wrapper to call through), by
  ``ops.tensor_methods.install`` when ``mindgrad.ops`` is imported.

A function written by hand in a family module (``softplus``, ``sort``, ...) gets a row made
with ``function(...)``, which names it and its op classes and methods.

Adding an elementwise operator with its derivative is one block in ``prims`` and one row
here. For ``cbrt``, in ``prims/unary.py``::

    cbrt = unary("Cbrt", np.cbrt, lambda x, ans: S.div(1.0, S.mul(3.0, S.mul(ans, ans))))

and in ``ROWS`` below::

    unary_op("cbrt", U.cbrt, op="Cbrt", method="cbrt"),

which gives ``ops.cbrt`` (and ``ops.functional.cbrt``), ``ops.Cbrt()`` and
``Tensor.cbrt``. A row added while the program runs (``add(row)``) is installed in all
three places at once."""
from __future__ import annotations

from typing import Any, Callable, NamedTuple

from ..prims import arith as A
from ..prims import compare as C
from ..prims import unary as U


class Row(NamedTuple):
    """One function of the front end and the names that forward to it."""
    name: str                    # the function: mindgrad.ops.<name>
    op: tuple = ()               # operator classes calling it
    method: tuple = ()           # Tensor methods calling it with the tensor first
    prim: Any = None             # the primitive of a generated elementwise function
    kind: str = ""               # "unary", "binary", "arith" (binary, weak scalars) or ""
    alias: tuple = ()            # more functional names of a generated function
    attrs: tuple = ()            # ((name, default), ...) of the op classes' constructor


def _names(v: Any) -> tuple:
    return (v,) if isinstance(v, str) else tuple(v)


def unary_op(name: str, prim: Any, op: Any = (), method: Any = (), alias: Any = ()) -> Row:
    """A generated elementwise function of one tensor binding ``prim``."""
    return Row(name, _names(op), _names(method), prim, "unary", _names(alias))


def binary_op(name: str, prim: Any, op: Any = (), method: Any = (), alias: Any = ()) -> Row:
    """A generated elementwise function of two operands (tensors or numbers) binding
    ``prim``, without scalar promotion (comparisons and logic)."""
    return Row(name, _names(op), _names(method), prim, "binary", _names(alias))


def arith_op(name: str, prim: Any, op: Any = (), method: Any = (), alias: Any = ()) -> Row:
    """A generated arithmetic function of two operands: MindSpore's weak scalars
    (``promote_scalar``) apply."""
    return Row(name, _names(op), _names(method), prim, "arith", _names(alias))


def function(name: str, op: Any = (), method: Any = (), attrs: tuple = ()) -> Row:
    """A function written in a family module of ``mindgrad.ops``."""
    return Row(name, _names(op), _names(method), attrs=tuple(attrs))


ROWS: list[Row] = [
    # --- arithmetic ------------------------------------------------------------------------
    arith_op("add", A.add, op=("Add", "TensorAdd")),  # TensorAdd: the 1.x name
    arith_op("sub", A.sub, op="Sub", method=("sub", "subtract"), alias="subtract"),
    arith_op("mul", A.mul, op="Mul", method="multiply", alias="multiply"),
    arith_op("div", A.div, op=("Div", "RealDiv"), method="divide",
             alias=("realdiv", "truediv", "divide")),
    arith_op("div_no_nan", A.div_no_nan, op="DivNoNan"),  # x / y, 0 where y == 0
    arith_op("maximum", A.maximum, op="Maximum"),
    arith_op("minimum", A.minimum, op="Minimum"),
    arith_op("floor_div", A.floor_div, op="FloorDiv", alias=("floordiv", "floor_divide")),
    arith_op("floor_mod", A.floor_mod, op="FloorMod", alias=("floormod", "remainder")),
    # the truncated remainder (np.fmod: the sign of x); MindSpore's ops.fmod and ops.Mod
    arith_op("fmod", A.mod, op="Mod", method="fmod"),
    arith_op("atan2", A.atan2, op="Atan2"),
    function("pow", op="Pow"),
    # --- comparisons and logic -------------------------------------------------------------
    binary_op("equal", C.equal, op="Equal", alias="eq"),
    binary_op("not_equal", C.not_equal, op="NotEqual", alias="ne"),
    binary_op("less", C.less, op="Less", alias="lt"),
    binary_op("less_equal", C.less_equal, op="LessEqual", alias="le"),
    binary_op("greater", C.greater, op="Greater", alias="gt"),
    binary_op("greater_equal", C.greater_equal, op="GreaterEqual", alias="ge"),
    binary_op("logical_and", C.logical_and, op="LogicalAnd"),
    binary_op("logical_or", C.logical_or, op="LogicalOr"),
    binary_op("logical_xor", C.logical_xor, op="LogicalXor"),
    unary_op("logical_not", C.logical_not, op="LogicalNot", method="logical_not"),
    unary_op("isnan", C.isnan, op="IsNan", method="isnan"),
    unary_op("isinf", C.isinf, op="IsInf", method="isinf"),
    unary_op("isfinite", C.isfinite, op="IsFinite", method="isfinite"),
    # --- unary math ------------------------------------------------------------------------
    unary_op("neg", A.neg, op="Neg", method=("neg", "negative"), alias="negative"),
    unary_op("exp", U.exp, op="Exp", method="exp"),
    unary_op("log", U.log, op="Log", method="log"),
    unary_op("sin", U.sin, op="Sin", method="sin"),
    unary_op("cos", U.cos, op="Cos", method="cos"),
    unary_op("tan", U.tan, op="Tan", method="tan"),
    unary_op("sinh", U.sinh, op="Sinh", method="sinh"),
    unary_op("cosh", U.cosh, op="Cosh", method="cosh"),
    unary_op("tanh", U.tanh, op="Tanh", method="tanh"),
    unary_op("asin", U.asin, op="Asin", method=("asin", "arcsin"), alias="arcsin"),
    unary_op("acos", U.acos, op="ACos", method=("acos", "arccos"), alias="arccos"),
    unary_op("atan", U.atan, op="Atan", method=("atan", "arctan"), alias="arctan"),
    unary_op("asinh", U.asinh, op="Asinh", method=("asinh", "arcsinh"), alias="arcsinh"),
    unary_op("acosh", U.acosh, op="Acosh", method=("acosh", "arccosh"), alias="arccosh"),
    unary_op("atanh", U.atanh, op="Atanh", method=("atanh", "arctanh"), alias="arctanh"),
    unary_op("sqrt", U.sqrt, op="Sqrt", method="sqrt"),
    unary_op("rsqrt", U.rsqrt, op="Rsqrt", method="rsqrt"),
    unary_op("square", U.square, op="Square", method="square"),
    unary_op("reciprocal", U.reciprocal, op="Reciprocal", method="reciprocal"),
    unary_op("abs", U.abs_, op="Abs", method=("abs", "absolute"), alias="absolute"),
    unary_op("expm1", U.expm1, op="Expm1", method="expm1"),
    unary_op("log1p", U.log1p, op="Log1p", method="log1p"),
    unary_op("erf", U.erf, op="Erf", method="erf"),
    unary_op("erfc", U.erfc, op="Erfc", method="erfc"),
    unary_op("exp2", U.exp2, method="exp2"),
    unary_op("log2", U.log2, method="log2"),
    unary_op("log10", U.log10, method="log10"),
    unary_op("sign", U.sign, op="Sign", method="sign"),
    unary_op("floor", U.floor, op="Floor", method="floor"),
    unary_op("ceil", U.ceil, op="Ceil", method="ceil"),
    unary_op("round", U.round_, op="Round", method="round"),
    # --- activations -----------------------------------------------------------------------
    unary_op("sigmoid", U.sigmoid, op="Sigmoid", method="sigmoid"),
    unary_op("relu", U.relu, op="ReLU", method="relu"),
    unary_op("relu6", U.relu6, op="ReLU6"),  # min(max(x, 0), 6); gradient where 0 < x < 6
    function("softplus", op="Softplus", method="softplus"),
    function("silu", op="SiLU"),
    function("mish", op="Mish"),
    function("hardswish", op="HSwish"),
    function("leaky_relu", op="LeakyReLU", attrs=(("alpha", 0.2),)),
    function("bias_add", op="BiasAdd", attrs=(("data_format", "NCHW"),)),
    function("hardshrink", method="hardshrink"),
    function("select", op="Select"),
    function("addn", op="AddN"),
    function("clamp", method="clamp"),
    # --- creation and dtype ----------------------------------------------------------------
    function("zeros_like", op="ZerosLike"),
    function("ones_like", op="OnesLike"),
    function("cast", op="Cast", method=("astype", "to", "set_dtype")),
    function("fill", op="Fill"),
    function("stop_gradient", op="StopGradient"),
    # --- shape -----------------------------------------------------------------------------
    function("shape", op="Shape"),
    function("rank", op="Rank"),
    function("size", op="Size"),
    function("reshape", op="Reshape"),
    function("transpose", op="Transpose"),
    function("squeeze", method="squeeze"),
    function("broadcast_to", method="broadcast_to"),
    function("flip", method="flip"),
    function("expand_dims", op="ExpandDims", method="expand_dims"),
    function("tile", op="Tile"),
    function("split", method="split"),
    function("tensor_split", method="tensor_split"),
    function("hsplit", method="hsplit"),
    function("vsplit", method="vsplit"),
    function("dsplit", method="dsplit"),
    function("chunk", method="chunk"),
    function("unbind", method="unbind"),
    function("movedim", method="movedim"),
    function("moveaxis", method="moveaxis"),
    function("fliplr", method="fliplr"),
    function("flipud", method="flipud"),
    function("rot90", method="rot90"),
    function("roll", method="roll"),
    function("repeat_interleave", method="repeat_interleave"),
    function("narrow", method="narrow"),
    function("tril", method="tril"),
    function("triu", method="triu"),
    function("diag", method="diag"),
    function("diagonal", method="diagonal"),
    # --- indexing --------------------------------------------------------------------------
    function("gather", op="Gather"),
    function("gather_nd", op="GatherNd", method="gather_nd"),
    function("gather_elements", method="gather_elements"),
    function("scatter_nd", op="ScatterNd"),
    function("tensor_scatter_add", op="TensorScatterAdd", method="scatter_add"),
    function("tensor_scatter_update", op="TensorScatterUpdate"),
    function("index_select", method="index_select"),
    function("scatter", method="scatter"),
    function("masked_fill", op="MaskedFill", method="masked_fill"),
    function("masked_select", method="masked_select"),
    function("nonzero", method="nonzero"),
    function("argwhere", method="argwhere"),
    function("one_hot", op="OneHot", attrs=(("axis", -1),)),
    # --- more elementwise math -------------------------------------------------------------
    function("arctan2", method="arctan2"),
    function("true_divide", method="true_divide"),
    function("bitwise_and", method="bitwise_and"),
    function("bitwise_or", method="bitwise_or"),
    function("bitwise_xor", method="bitwise_xor"),
    function("copysign", method="copysign"),
    function("deg2rad", method="deg2rad"),
    function("rad2deg", method="rad2deg"),
    function("float_power", method="float_power"),
    function("fmax", method="fmax"),
    function("fmin", method="fmin"),
    function("frac", method="frac"),
    function("trunc", method="trunc"),
    function("heaviside", method="heaviside"),
    function("hypot", method="hypot"),
    function("logaddexp", method="logaddexp"),
    function("logaddexp2", method="logaddexp2"),
    function("logit", method="logit"),
    function("lerp", method="lerp"),
    function("xlogy", method="xlogy"),
    function("nan_to_num", method="nan_to_num"),
    function("positive", method="positive"),
    function("sgn", method="sgn"),
    function("signbit", method="signbit"),
    function("sinc", method="sinc"),
    function("isposinf", method="isposinf"),
    function("isneginf", method="isneginf"),
    function("is_complex", method="is_complex"),
    # --- reductions and running operations -------------------------------------------------
    function("reduce_mean", method="mean"),
    function("reduce_prod", method="prod"),
    function("all", method="all"),
    function("any", method="any"),
    function("argmin", method="argmin"),
    function("var", method="var"),
    function("std", method="std"),
    function("cumprod", method="cumprod"),
    function("log_softmax", method="log_softmax"),
    function("amax", method="amax"),
    function("amin", method="amin"),
    function("nansum", method="nansum"),
    function("nanmean", method="nanmean"),
    function("count_nonzero", method="count_nonzero"),
    function("diff", method="diff"),
    function("cummax", method="cummax"),
    function("cummin", method="cummin"),
    function("logcumsumexp", method="logcumsumexp"),
    function("sort", method="sort"),
    function("argsort", method="argsort"),
    function("msort", method="msort"),
    function("topk", method="topk"),
    function("multinomial", method="multinomial"),
    # --- products and linear algebra -------------------------------------------------------
    function("dot", method="dot"),
    function("mm", method="mm"),
    function("inner", method="inner"),
    function("kron", method="kron"),
    function("ger", method="ger"),
    function("cross", method="cross"),
    function("addmm", method="addmm"),
    function("addmv", method="addmv"),
    function("addr", method="addr"),
    function("addcmul", method="addcmul"),
    function("addcdiv", method="addcdiv"),
    function("adjoint", method="adjoint"),
    function("det", op="MatrixDeterminant", method="det"),
    function("inverse", method="inverse"),
    function("matrix_determinant", method="matrix_determinant"),
    function("logdet", method="logdet"),
    function("slogdet", method="slogdet"),
    function("matrix_power", method="matrix_power"),
    function("cholesky", method="cholesky"),
    function("svd", method="svd"),
    # --- Tensor methods forwarding to functions of other families ------------------------------
    function("soft_shrink", method="soft_shrink"),
    # --- array manipulation, segments, scatters, assignment, statistics ----------------------
    function("assign", op="Assign"),
    function("assign_add", op="AssignAdd"),
    function("assign_sub", op="AssignSub"),
    function("expand", op="Expand"),
    function("expand_as"),
    function("swapdims"),
    function("t"),
    function("ravel"),
    function("reverse", method="reverse"),
    function("view_as"),
    function("slice", op="Slice"),
    function("strided_slice"),
    function("diag_embed"),
    function("diagflat", method="diagflat"),
    function("diagonal_scatter", method="diagonal_scatter"),
    function("select_scatter", method="select_scatter"),
    function("slice_scatter", method="slice_scatter"),
    function("index_fill", method="index_fill"),
    function("inplace_update", method="inplace_update"),
    function("unique_consecutive", method="unique_consecutive"),
    function("unique_with_pad", method="unique_with_pad"),
    function("unsorted_segment_sum", op="UnsortedSegmentSum"),
    function("unsorted_segment_max", op="UnsortedSegmentMax", method="unsorted_segment_max"),
    function("unsorted_segment_min", op="UnsortedSegmentMin", method="unsorted_segment_min"),
    function("unsorted_segment_prod", op="UnsortedSegmentProd",
             method="unsorted_segment_prod"),
    function("tensor_scatter_mul", op="TensorScatterMul"),
    function("tensor_scatter_div", op="TensorScatterDiv"),
    function("tensor_scatter_max", op="TensorScatterMax"),
    function("tensor_scatter_min", op="TensorScatterMin"),
    function("scatter_nd_add", op="ScatterNdAdd", attrs=(("use_locking", False),)),
    function("scatter_nd_sub", op="ScatterNdSub", attrs=(("use_locking", False),)),
    function("scatter_nd_mul", op="ScatterNdMul", attrs=(("use_locking", False),)),
    function("scatter_nd_div", op="ScatterNdDiv", attrs=(("use_locking", False),)),
    function("scatter_nd_max", op="ScatterNdMax", attrs=(("use_locking", False),)),
    function("scatter_nd_min", op="ScatterNdMin", attrs=(("use_locking", False),)),
    function("scatter_nd_update", op="ScatterNdUpdate", attrs=(("use_locking", True),)),
    function("scatter_sub", method="scatter_sub"),
    function("scatter_mul", method="scatter_mul"),
    function("scatter_div", method="scatter_div"),
    function("scatter_max", method="scatter_max"),
    function("scatter_min", method="scatter_min"),
    function("nanmedian", method="nanmedian"),
    function("aminmax", method="aminmax"),
    function("top_k", method="top_k"),
    function("random_categorical", method="random_categorical"),
    function("multinomial_with_replacement"),
    function("choice_with_mask"),
    function("mirror_pad"),
    function("space_to_batch_nd"),
    function("batch_to_space_nd"),
    function("unfold", method="unfold"),
    function("fold", method="fold"),
    function("col2im", method="col2im"),
    function("padding"),
    function("median", method="median"),
    function("histc", method="histc"),
    function("bincount", method="bincount"),
    # --- special functions, bits, complex parts, decompositions, matrix builders -----------
    function("lgamma", op="Lgamma", method="lgamma"),
    function("digamma", op="Digamma", method="digamma"),
    function("polygamma", op="Polygamma"),
    function("mvlgamma", op="Mvlgamma", method="mvlgamma", attrs=(("p", None),)),
    function("igamma", op="Igamma", method="igamma"),
    function("igammac", op="Igammac", method="igammac"),
    function("zeta", op="Zeta"),
    function("erfinv", op="Erfinv", method="erfinv"),
    function("i0", method="i0"),
    function("bessel_i0", op="BesselI0"),
    function("bessel_i0e", op="BesselI0e"),
    function("bessel_i1", op="BesselI1"),
    function("bessel_i1e", op="BesselI1e"),
    function("bessel_j0", op="BesselJ0"),
    function("bessel_j1", op="BesselJ1"),
    function("bessel_k0", op="BesselK0"),
    function("bessel_k0e", op="BesselK0e"),
    function("bessel_k1", op="BesselK1"),
    function("bessel_k1e", op="BesselK1e"),
    function("bessel_y0", op="BesselY0"),
    function("bessel_y1", op="BesselY1"),
    function("gcd", op="Gcd", method="gcd"),
    function("lcm", op="Lcm", method="lcm"),
    function("bitwise_left_shift", op="LeftShift", method="bitwise_left_shift"),
    function("bitwise_right_shift", op="RightShift", method="bitwise_right_shift"),
    function("invert", op="Invert", method="invert"),
    function("population_count", op="PopulationCount"),
    function("truncate_div", op="TruncateDiv"),
    function("truncate_mod", op="TruncateMod"),
    function("nextafter", op="NextAfter", method="nextafter"),
    function("xdivy", op="Xdivy", method="xdivy"),
    function("ldexp", method="ldexp"),
    function("approximate_equal", op="ApproximateEqual", method="approximate_equal",
             attrs=(("tolerance", 1e-05),)),
    function("isreal", method="isreal"),
    function("real", op="Real", method="real"),
    function("imag", op="Imag", method="imag"),
    function("conj", op="Conj", method="conj"),
    function("angle", op="Angle", method="angle"),
    function("polar", op="Polar"),
    function("qr"),  # Tensor.qr(some=True) is written in tensor_extras
    function("geqrf", op="Geqrf", method="geqrf"),
    function("orgqr", op="Orgqr", method="orgqr"),
    function("ormqr", method="ormqr"),
    function("eigvals", method="eigvals"),
    function("lstsq", method="lstsq"),
    function("lu_solve", op="LuSolve", method="lu_solve"),
    function("matrix_solve", op="MatrixSolve", attrs=(("adjoint", False),)),
    function("cholesky_inverse", op="CholeskyInverse", method="cholesky_inverse",
             attrs=(("upper", False),)),
    function("cholesky_solve", op="CholeskySolve", method="cholesky_solve",
             attrs=(("upper", False),)),
    function("log_matrix_determinant", op="LogMatrixDeterminant",
             method="log_matrix_determinant"),
    function("matrix_exp", op="MatrixExp"),
    function("matrix_band_part", op="MatrixBandPart"),
    function("cov", method="cov"),
    function("addbmm", method="addbmm"),
    function("baddbmm", method="baddbmm"),
    function("pdist", op="Pdist", attrs=(("p", 2.0),)),
    function("renorm", method="renorm"),
    # --- primclasses family: operator classes over functions that have rows above or none ----
    function("addcdiv", op="Addcdiv"),
    function("addcmul", op="Addcmul"),
    function("bitwise_and", op="BitwiseAnd"),
    function("bitwise_or", op="BitwiseOr"),
    function("bitwise_xor", op="BitwiseXor"),
    function("fmax", op="Fmax"),
    function("heaviside", op="Heaviside"),
    function("hypot", op="Hypot"),
    function("lerp", op="Lerp"),
    function("xlogy", op="Xlogy"),
    function("trunc", op="Trunc"),
    function("sinc", op="Sinc"),
    function("softsign", op="Softsign"),
    function("reciprocal", op="Inv"),
    function("isclose", op="IsClose", attrs=(("rtol", 1e-05), ("atol", 1e-08),
                                              ("equal_nan", False))),
    function("cdist", op="Cdist", attrs=(("p", 2.0),)),
    function("celu", op="CeLU", attrs=(("alpha", 1.0),)),
    function("selu", op="SeLU"),
    function("hardshrink", op="HShrink", attrs=(("lambd", 0.5),)),
    function("soft_shrink", op="SoftShrink", attrs=(("lambd", 0.5),)),
    function("hardsigmoid", op="HSigmoid"),
    function("fast_gelu", op=("FastGeLU", "FastGelu")),
    function("glu", op="GLU", attrs=(("axis", -1),)),
    function("prelu", op="PReLU"),
    function("kl_div", op="KLDivLoss", attrs=(("reduction", "mean"),)),
    function("binary_cross_entropy", op="BinaryCrossEntropy", attrs=(("reduction", "mean"),)),
    function("binary_cross_entropy_with_logits", op="BCEWithLogitsLoss",
             attrs=(("reduction", "mean"),)),
    function("smooth_l1_loss", op="SmoothL1Loss", attrs=(("beta", 1.0), ("reduction", "none"))),
    function("multi_margin_loss", op="MultiMarginLoss",
             attrs=(("p", 1), ("margin", 1.0), ("reduction", "mean"))),
    function("lrn", op="LRN", attrs=(("depth_radius", 5), ("bias", 1.0), ("alpha", 1.0),
                                      ("beta", 0.5), ("norm_region", "ACROSS_CHANNELS"))),
    function("trace", op="Trace"),
    function("masked_select", op="MaskedSelect"),
    function("nonzero", op="NonZero"),
    function("tril", op="Tril", attrs=(("diagonal", 0),)),
    function("triu", op="Triu", attrs=(("diagonal", 0),)),
    function("dense", op="Dense"),
    function("gather_elements", op="GatherD"),
    function("linspace", op="LinSpace"),
    function("eye", op="Eye"),
    function("ones", op="Ones"),
    function("zeros", op="Zeros"),
    function("depend", op="Depend"),
    function("tensor_scatter_sub", op="TensorScatterSub"),
    function("tensor_scatter_elements", op="TensorScatterElements",
             attrs=(("axis", 0), ("reduction", "none"))),
    # --- end of the primclasses family ----------------------------------------------------
]

_LISTENERS: list[Callable[[Row], None]] = []


def each_row(define: Callable[[Row], None]) -> None:
    """Call ``define`` on every row of the table, now and whenever one is added: how the
    functional module, the operator classes and the Tensor methods follow the table."""
    _LISTENERS.append(define)
    for row in ROWS:
        define(row)


def add(row: Row) -> None:
    """Add ``row`` to the table and install its function, operator classes and Tensor
    methods in the modules already imported."""
    if not isinstance(row, Row):
        raise TypeError(f"For 'add', 'row' must be a Row, but got {type(row).__name__}.")
    taken = {n for r in ROWS for n in (r.name, *r.alias)} if row.prim is not None else set()
    if row.name in taken:
        raise ValueError(f"For 'add', the function {row.name!r} is already in the table.")
    ROWS.append(row)
    for define in _LISTENERS:
        define(row)


__all__ = ["Row", "ROWS", "unary_op", "binary_op", "arith_op", "function", "each_row", "add"]
