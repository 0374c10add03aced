"""``mindspore._checkparam``: the argument checks MindSpore's own cells use and custom cells
import (``from mindspore import _checkparam as Validator``; 1.x code imports ``Validator``
and ``Rel`` from it, which here are this module and a namespace of the relations).

Each check returns the value it accepted and raises MindSpore's exception type, with a
message naming the function (``prim_name``) and the argument."""
from __future__ import annotations

import types
from typing import Any, Iterable

import numpy as np

from ..core import dtype as mstype

# Relations, numbered as in MindSpore.
EQ, NE, LT, LE, GT, GE = 1, 2, 3, 4, 5, 6
INC_NEITHER, INC_LEFT, INC_RIGHT, INC_BOTH = 7, 8, 9, 10
IN, NOT_IN = 11, 12

_COMPARE = {EQ: ("=", lambda a, b: a == b), NE: ("!=", lambda a, b: a != b),
            LT: ("<", lambda a, b: a < b), LE: ("<=", lambda a, b: a <= b),
            GT: (">", lambda a, b: a > b), GE: (">=", lambda a, b: a >= b)}
_RANGE = {INC_NEITHER: ("(", ")", lambda v, lo, hi: lo < v < hi),
          INC_LEFT: ("[", ")", lambda v, lo, hi: lo <= v < hi),
          INC_RIGHT: ("(", "]", lambda v, lo, hi: lo < v <= hi),
          INC_BOTH: ("[", "]", lambda v, lo, hi: lo <= v <= hi)}


def _prefix(prim_name: str | None) -> str:
    return f"For '{prim_name}', the" if prim_name else "The"


def _relation(rel: int, who: str) -> tuple:
    if rel not in _COMPARE:
        raise ValueError(f"For '{who}', 'rel' must be one of EQ, NE, LT, LE, GT, GE, but got "
                         f"{rel!r}.")
    return _COMPARE[rel]


def _type_name(t: Any) -> str:
    return t.__name__ if isinstance(t, type) else str(t)


def _is_int(v: Any) -> bool:
    return isinstance(v, (int, np.integer)) and not isinstance(v, (bool, np.bool_))


def _is_float(v: Any) -> bool:
    return isinstance(v, (float, np.floating))


def check_value_type(arg_name: str, arg_value: Any, valid_types: Any,
                     prim_name: str | None = None) -> Any:
    """``arg_value`` is an instance of one of ``valid_types`` (a bool is not an int unless
    bool is listed)."""
    valid = tuple(valid_types) if isinstance(valid_types, (tuple, list)) else (valid_types,)
    ok = isinstance(arg_value, valid)
    if ok and isinstance(arg_value, bool) and bool not in valid:
        ok = False
    if not ok:
        names = ", ".join(_type_name(t) for t in valid)
        raise TypeError(f"{_prefix(prim_name)} type of '{arg_name}' should be '{names}', but "
                        f"got type '{type(arg_value).__name__}'.")
    return arg_value


def check_bool(arg_value: Any, arg_name: str | None = None,
               prim_name: str | None = None) -> bool:
    if not isinstance(arg_value, bool):
        raise TypeError(f"{_prefix(prim_name)} '{arg_name}' must be a bool, but got "
                        f"{type(arg_value).__name__}.")
    return arg_value


def _check_number(arg_value: Any, value: Any, rel: int, kind: str, arg_name: str | None,
                  prim_name: str | None) -> Any:
    is_kind = _is_int if kind == "int" else _is_float
    if not is_kind(arg_value):
        raise TypeError(f"{_prefix(prim_name)} '{arg_name}' must be {kind}, but got "
                        f"'{type(arg_value).__name__}'")
    sign, holds = _relation(rel, prim_name or "check")
    if not holds(arg_value, value):
        raise ValueError(f"{_prefix(prim_name)} '{arg_name}' must be {kind} and must {sign} "
                         f"{value}, but got '{arg_value}' with type "
                         f"'{type(arg_value).__name__}'.")
    return arg_value


def check_int(arg_value: Any, value: int, rel: int, arg_name: str | None = None,
              prim_name: str | None = None) -> int:
    return _check_number(arg_value, value, rel, "int", arg_name, prim_name)


def check_float(arg_value: Any, value: float, rel: int, arg_name: str | None = None,
                prim_name: str | None = None) -> float:
    return _check_number(arg_value, value, rel, "float", arg_name, prim_name)


def check_equal_int(arg_value: Any, value: int, arg_name: str | None = None,
                    prim_name: str | None = None) -> int:
    return check_int(arg_value, value, EQ, arg_name, prim_name)


def check_positive_int(arg_value: Any, arg_name: str | None = None,
                       prim_name: str | None = None) -> int:
    return check_int(arg_value, 0, GT, arg_name, prim_name)


def check_negative_int(arg_value: Any, arg_name: str | None = None,
                       prim_name: str | None = None) -> int:
    return check_int(arg_value, 0, LT, arg_name, prim_name)


def check_non_negative_int(arg_value: Any, arg_name: str | None = None,
                           prim_name: str | None = None) -> int:
    return check_int(arg_value, 0, GE, arg_name, prim_name)


def check_non_positive_int(arg_value: Any, arg_name: str | None = None,
                           prim_name: str | None = None) -> int:
    return check_int(arg_value, 0, LE, arg_name, prim_name)


def check_positive_float(arg_value: Any, arg_name: str | None = None,
                         prim_name: str | None = None) -> float:
    return check_float(arg_value, 0, GT, arg_name, prim_name)


def check_negative_float(arg_value: Any, arg_name: str | None = None,
                         prim_name: str | None = None) -> float:
    return check_float(arg_value, 0, LT, arg_name, prim_name)


def check_non_negative_float(arg_value: Any, arg_name: str | None = None,
                             prim_name: str | None = None) -> float:
    return check_float(arg_value, 0, GE, arg_name, prim_name)


def check_non_positive_float(arg_value: Any, arg_name: str | None = None,
                             prim_name: str | None = None) -> float:
    return check_float(arg_value, 0, LE, arg_name, prim_name)


def _check_sequence(sequence: Any, check: Any, arg_name: str | None,
                    prim_name: str | None) -> Any:
    check_value_type(arg_name, sequence, (list, tuple), prim_name)
    for i, v in enumerate(sequence):
        check(v, f"{arg_name}[{i}]", prim_name)
    return sequence


def check_positive_int_sequence(sequence: Any, arg_name: str | None = None,
                                prim_name: str | None = None) -> Any:
    return _check_sequence(sequence, check_positive_int, arg_name, prim_name)


def check_non_negative_int_sequence(sequence: Any, arg_name: str | None = None,
                                    prim_name: str | None = None) -> Any:
    return _check_sequence(sequence, check_non_negative_int, arg_name, prim_name)


def check_positive_float_sequence(sequence: Any, arg_name: str | None = None,
                                  prim_name: str | None = None) -> Any:
    return _check_sequence(sequence, check_positive_float, arg_name, prim_name)


def _check_range(arg_value: Any, lower: Any, upper: Any, rel: int, arg_name: str | None,
                 prim_name: str | None) -> Any:
    if rel not in _RANGE:
        raise ValueError(f"For '{prim_name or 'check'}', 'rel' must be one of INC_NEITHER, "
                         f"INC_LEFT, INC_RIGHT, INC_BOTH, but got {rel!r}.")
    left, right, holds = _RANGE[rel]
    if not holds(arg_value, lower, upper):
        raise ValueError(f"{_prefix(prim_name)} '{arg_name}' must be in range of "
                         f"{left}{lower}, {upper}{right}, but got {arg_value} with type "
                         f"'{type(arg_value).__name__}'.")
    return arg_value


def check_int_range(arg_value: Any, lower_limit: int, upper_limit: int, rel: int,
                    arg_name: str | None = None, prim_name: str | None = None) -> int:
    if not _is_int(arg_value):
        raise TypeError(f"{_prefix(prim_name)} '{arg_name}' must be int, but got "
                        f"'{type(arg_value).__name__}'")
    return _check_range(arg_value, lower_limit, upper_limit, rel, arg_name, prim_name)


def check_float_range(arg_value: Any, lower_limit: float, upper_limit: float, rel: int,
                      arg_name: str | None = None, prim_name: str | None = None) -> float:
    if not _is_float(arg_value):
        raise TypeError(f"{_prefix(prim_name)} '{arg_name}' must be float, but got "
                        f"'{type(arg_value).__name__}'")
    return _check_range(arg_value, lower_limit, upper_limit, rel, arg_name, prim_name)


def check_number_range(arg_value: Any, lower_limit: Any, upper_limit: Any, rel: int,
                       value_type: Any, arg_name: str | None = None,
                       prim_name: str | None = None) -> Any:
    check_value_type(arg_name, arg_value, value_type, prim_name)
    return _check_range(arg_value, lower_limit, upper_limit, rel, arg_name, prim_name)


def check_string(arg_value: Any, valid_values: Iterable[str], arg_name: str | None = None,
                 prim_name: str | None = None) -> str:
    valid = list(valid_values)
    if not isinstance(arg_value, str) or arg_value not in valid:
        raise ValueError(f"{_prefix(prim_name)} '{arg_name}' must be str and must be in "
                         f"'{valid}', but got '{arg_value}'.")
    return arg_value


def check_isinstance(arg_name: str, arg_value: Any, classes: Any) -> Any:
    if not isinstance(arg_value, classes):
        raise ValueError(f"The parameter '{arg_name}' must be isinstance of {classes}, but got "
                         f"{arg_value}.")
    return arg_value


def check(arg_name: str, arg_value: Any, value_name: str, value: Any, rel: int = EQ,
          prim_name: str | None = None, excp_cls: type = ValueError) -> Any:
    """``arg_value rel value``, both named in the message."""
    sign, holds = _relation(rel, prim_name or "check")
    if not holds(arg_value, value):
        raise excp_cls(f"{_prefix(prim_name)} '{arg_name}' should be {sign} {value_name}: "
                       f"{value}, but got {arg_value}.")
    return arg_value


def check_number(arg_name: str, arg_value: Any, value: Any, rel: int,
                 prim_name: str | None) -> Any:
    sign, holds = _relation(rel, prim_name or "check")
    if not holds(arg_value, value):
        raise ValueError(f"For '{prim_name}', the argument '{arg_name}' must {sign} {value}, "
                         f"but got {arg_value}.")
    return arg_value


def check_is_int(arg_value: Any, arg_name: str | None = None,
                 prim_name: str | None = None) -> int:
    if not _is_int(arg_value):
        raise TypeError(f"{_prefix(prim_name)} type of '{arg_name}' must be 'int', but got "
                        f"'{type(arg_value).__name__}'.")
    return arg_value


def check_is_float(arg_value: Any, arg_name: str | None = None,
                   prim_name: str | None = None) -> float:
    if not _is_float(arg_value):
        raise TypeError(f"{_prefix(prim_name)} type of '{arg_name}' must be 'float', but got "
                        f"'{type(arg_value).__name__}'.")
    return arg_value


def check_axis_in_range(axis: Any, ndim: int) -> int:
    """``axis`` is an int in ``[-ndim, ndim)``; returns it."""
    if not _is_int(axis):
        raise TypeError(f"The axis must be int, but got {type(axis).__name__}.")
    if not -ndim <= axis < ndim:
        raise ValueError(f"The 'axis' must be in the range of [{-ndim}, {ndim}), but got "
                         f"{axis}.")
    return axis


def check_type_name(arg_name: str, arg_type: Any, valid_types: Any, prim_name: str) -> Any:
    """``arg_type`` (a dtype) is one of ``valid_types``."""
    valid = tuple(valid_types) if isinstance(valid_types, (tuple, list)) else (valid_types,)
    if arg_type not in valid:
        names = ", ".join(str(t) for t in valid)
        raise TypeError(f"For '{prim_name}', the '{arg_name}' should be one of '{names}', "
                        f"but got {arg_type}.")
    return arg_type


def check_tensor_dtype_valid(arg_name: str, arg_type: Any, valid_dtypes: Any,
                             prim_name: str) -> Any:
    """The dtype ``arg_type`` of a Tensor argument is one of ``valid_dtypes``."""
    if not isinstance(arg_type, mstype.DType):
        raise TypeError(f"For '{prim_name}', the '{arg_name}' must be a Tensor, but got "
                        f"{arg_type}.")
    return check_type_name(arg_name, arg_type, valid_dtypes, prim_name)


# 1.x spellings: ``Validator.check_...`` and ``Rel.GE``.
Validator = types.SimpleNamespace(**{n: v for n, v in dict(globals()).items()
                                     if n.startswith("check")})
Rel = types.SimpleNamespace(EQ=EQ, NE=NE, LT=LT, LE=LE, GT=GT, GE=GE, INC_NEITHER=INC_NEITHER,
                            INC_LEFT=INC_LEFT, INC_RIGHT=INC_RIGHT, INC_BOTH=INC_BOTH, IN=IN,
                            NOT_IN=NOT_IN)
