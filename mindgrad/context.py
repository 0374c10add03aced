"""``context.set_context`` / ``get_context``: execution mode, device target and MindSpore's
other context keys.

``mode`` and ``device_target`` change what mindgrad does; the other keys MindSpore 2.x
documents are accepted, checked as MindSpore checks them (a wrong type is a TypeError, a
value out of its choices or range a ValueError) and kept for ``get_context``, without effect
(they tune MindSpore's compiler, memory pools and hardware, which mindgrad does not have).
An unknown key is a ValueError, as in MindSpore, so that a misspelt setting is not lost."""
from __future__ import annotations

import difflib
import os
from typing import Any, Callable

from .core.config import GRAPH_MODE, PYNATIVE_MODE, array_module, is_graph_mode  # noqa: F401
from .core.config import select_backend as _select_backend
from .core.config import state as _state

# jit_syntax_level and debug_level values (MindSpore's numbers)
STRICT = 0
COMPATIBLE = 1
LAX = 2
RELEASE = 0
DEBUG = 1

_DEVICES = ("CPU", "GPU", "Ascend", "Davinci")  # "Davinci": MindSpore's old name of Ascend
# --- value checks: each takes (key, value), raises on a bad value and returns what is kept ---
_Check = Callable[[str, Any], Any]


def _type_error(key: str, value: Any, expected: str) -> TypeError:
    return TypeError(f"For 'set_context', '{key}' must be {expected}, but got "
                     f"{type(value).__name__} {value!r}.")


def _int(choices: dict[int, str] | None = None, lo: int | None = None,
         hi: int | None = None) -> _Check:
    """An int (a bool counts as 0 or 1, as in MindSpore), among ``choices`` (value -> the
    name shown in the error) or within ``[lo, hi]``."""

    def check(key: str, value: Any) -> int:
        if value is None and choices is not None:
            pass  # MindSpore reports None as a value outside the choices
        elif not isinstance(value, int):
            raise _type_error(key, value, "an int")
        if choices is not None and value not in choices:
            names = " or ".join(f"{name} ({v})" for v, name in choices.items())
            raise ValueError(f"For 'set_context', '{key}' must be {names}, but got {value!r}.")
        if (lo is not None and value < lo) or (hi is not None and value > hi):
            bound = (f"in [{lo}, {hi}]" if hi is not None
                     else f"greater than {lo - 1}" if lo else f"at least {lo}")
            raise ValueError(f"For 'set_context', '{key}' must be {bound}, but got {value}.")
        return int(value)

    return check


def _cache_size(key: str, value: Any) -> int:
    """mindgrad's own ``jit_cache_size``: an int >= 1 (a bool is not a count)."""
    if isinstance(value, bool) or not isinstance(value, int):
        raise _type_error(key, value, "an int")
    return _int(lo=1)(key, value)


def _str(choices: tuple[str, ...] | None = None) -> _Check:
    def check(key: str, value: Any) -> str:
        if value is None and choices is not None:
            pass
        elif not isinstance(value, str):
            raise _type_error(key, value, "a str")
        if choices is not None and value not in choices:
            raise ValueError(f"For 'set_context', '{key}' must be one of {list(choices)}, "
                             f"but got {value!r}.")
        return value

    return check


def _bool(key: str, value: Any) -> bool:
    if not isinstance(value, bool):  # MindSpore refuses 0 and 1 here
        raise _type_error(key, value, "a bool")
    return value


def _dict(sub: dict[str, tuple[str, ...]] | None = None) -> _Check:
    """A dict; with ``sub``, only those keys, each with one of its listed values."""

    def check(key: str, value: Any) -> dict:
        if not isinstance(value, dict):
            raise _type_error(key, value, "a dict")
        for k, v in (value.items() if sub is not None else ()):
            if k not in sub:
                raise ValueError(f"For 'set_context', the keys of '{key}' must be among "
                                 f"{list(sub)}, but got {k!r}.")
            if v not in sub[k]:
                raise ValueError(f"For 'set_context', {key}[{k!r}] must be one of "
                                 f"{list(sub[k])}, but got {v!r}.")
        return dict(value)

    return check


def _save_graphs(key: str, value: Any) -> int:
    if isinstance(value, bool):
        return 2 if value else 0  # MindSpore's meaning of True / False
    if not isinstance(value, int):
        raise _type_error(key, value, "a bool or an int")
    if not 0 <= value <= 3:
        raise ValueError(f"For 'set_context', '{key}' must be in [0, 3], but got {value}.")
    return value


def _existing_file(key: str, value: Any) -> str:
    value = _str()(key, value)
    if value and not os.path.isfile(value):
        raise ValueError(f"For 'set_context', '{key}' names no file: {value!r}.")
    return value


def _device_target(key: str, value: Any) -> str:
    value = _str(_DEVICES)(key, value)
    return "Ascend" if value == "Davinci" else value


# key -> (check, default). The keys MindSpore 2.x documents for set_context, plus the graph
# kernel and jit_level keys older scripts still pass.
_KEYS: dict[str, tuple[_Check, Any]] = {
    "mode": (_int({GRAPH_MODE: "GRAPH_MODE", PYNATIVE_MODE: "PYNATIVE_MODE"}), PYNATIVE_MODE),
    "device_target": (_device_target, "CPU"),
    "device_id": (_int(lo=0, hi=4095), 0),
    "deterministic": (_str(("ON", "OFF")), "OFF"),
    "max_call_depth": (_int(lo=1), 1000),
    "jit_cache_size": (_cache_size, 64),  # mindgrad's own (see set_context)
    "variable_memory_max_size": (_str(), "0"),
    "mempool_block_size": (_str(), "1GB"),
    "memory_optimize_level": (_str(("O0", "O1")), "O0"),
    "max_device_memory": (_str(), "1024GB"),
    "pynative_synchronize": (_bool, False),
    "compile_cache_path": (_str(), ""),
    "inter_op_parallel_num": (_int(lo=0), 0),
    "disable_format_transform": (_bool, False),
    "jit_syntax_level": (_int({STRICT: "STRICT", COMPATIBLE: "COMPATIBLE", LAX: "LAX"}), LAX),
    "jit_config": (_dict({"jit_level": ("O0", "O1", "O2"), "infer_boost": ("on", "off")}), {}),
    "jit_level": (_str(), ""),
    "exec_order": (_str(("bfs", "dfs")), "bfs"),
    "op_timeout": (_int(lo=0), 900),
    "aoe_tune_mode": (_str(("online", "offline")), ""),
    "aoe_config": (_dict(), {}),
    "runtime_num_threads": (_int(lo=0), 30),
    "save_graphs": (_save_graphs, 0),
    "save_graphs_path": (_str(), "."),
    "enable_compile_cache": (_bool, False),
    "ascend_config": (_dict(), {}),
    "gpu_config": (_dict(), {}),
    "print_file_path": (_str(), ""),
    "env_config_path": (_existing_file, ""),
    "debug_level": (_int({RELEASE: "RELEASE", DEBUG: "DEBUG"}), RELEASE),
    "reserve_class_name_in_scope": (_bool, True),
    "check_bprop": (_bool, False),
    "enable_reduce_precision": (_bool, True),
    "support_binary": (_bool, False),
    "enable_graph_kernel": (_bool, False),
    "graph_kernel_flags": (_str(), ""),
}
# Deprecated keys MindSpore accepts and drops (get_context does not know them).
_DROPPED: dict[str, _Check | None] = {"enable_sparse": None, "auto_tune_mode": None,
                                      "enable_auto_mixed_precision": _bool}
# Ascend settings MindSpore only takes inside ascend_config.
_ASCEND_ONLY = ("precision_mode", "jit_compile", "atomic_clean_policy", "matmul_allow_hf32",
                "conv_allow_hf32", "op_precision_mode", "host_scheduling_max_threshold",
                "ge_options", "op_debug_option")


def _unknown(func: str, what: str, key: Any) -> ValueError:
    close = difflib.get_close_matches(str(key), list(_KEYS), n=1)
    hint = f" Did you mean '{close[0]}'?" if close else ""
    return ValueError(f"For '{func}', unknown {what} {key!r}: it is not a MindSpore context "
                      f"key.{hint}")


def set_context(**kwargs: Any) -> None:
    """Set context keys: ``mode`` (GRAPH_MODE or PYNATIVE_MODE), ``device_target`` ("CPU";
    "GPU" or "Ascend" compute with CuPy when it and a GPU are present, else on the CPU after
    a one-line warning), ``jit_cache_size`` (mindgrad's own: how many input signatures each
    compiled function or GRAPH-mode Cell keeps compiled, least recently used dropped
    first; default 64) and the other keys of MindSpore's ``set_context`` (checked and
    kept, without effect).

    Every value is checked before any is set, so a call that raises changes nothing.

    Raises:
        ValueError: an unknown key, or a value outside a key's choices or range.
        TypeError: a value of the wrong type for its key.
    """
    new: dict[str, Any] = {}
    for key, value in kwargs.items():
        if key in _KEYS:
            new[key] = _KEYS[key][0](key, value)
        elif key in _DROPPED:
            check = _DROPPED[key]
            if check is not None:
                check(key, value)
        elif key in _ASCEND_ONLY:
            raise ValueError(f"For 'set_context', '{key}' is an Ascend setting: pass it inside "
                             f"ascend_config={{'{key}': ...}}.")
        else:
            raise _unknown("set_context", "keyword argument", key)
    if "device_target" in new:
        _select_backend(new["device_target"])
    _state.update(new)


def get_context(key: str) -> Any:
    """The value of a context key (``mode``, ``device_target``, ...): what `set_context` set,
    else MindSpore's default.

    Raises:
        TypeError: ``key`` is not a str.
        ValueError: ``key`` is not a MindSpore context key.
    """
    if not isinstance(key, str):
        raise TypeError(f"For 'get_context', the key must be a str, but got "
                        f"{type(key).__name__} {key!r}.")
    if key not in _KEYS:
        raise _unknown("get_context", "key", key)
    value = _state.get(key, _KEYS[key][1])
    return dict(value) if isinstance(value, dict) else value  # a copy: set_context sets


from .common.auto_parallel import (ParallelMode, get_auto_parallel_context,  # noqa: E402,F401
                                    reset_auto_parallel_context, set_auto_parallel_context)
