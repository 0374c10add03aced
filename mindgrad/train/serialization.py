"""Checkpoints: ``save_checkpoint``, ``load_checkpoint``, ``load_param_into_net``.

The files are MindSpore's own, so checkpoints move both ways between mindgrad and MindSpore:

- ``format="ckpt"`` (the default): MindSpore's protobuf layout (``checkpoint_proto``);
- ``format="safetensors"``: the safetensors format, through the optional ``safetensors``
  package (``checkpoint_safetensors``).

Files in mindgrad's first format (``MGCKPT01``, ``checkpoint_legacy``) still load. Reading
never executes code from a file, and a file that cannot be read (missing, truncated,
corrupted, crafted) raises ``CheckpointError``, a ``ValueError``. Saving writes a locked
temporary file beside the target and renames it into place, so an interrupted save never
leaves a half-written checkpoint, and removes what earlier interrupted saves left behind
(``checkpoint_files``).
"""
from __future__ import annotations

import io
import os
import threading
from typing import Any, Callable, Iterable

import numpy as np

from ..common import checkpoint_legacy, checkpoint_proto, checkpoint_safetensors
from ..common.checkpoint_files import CheckpointError, write_atomic
from ..common.parameter import Parameter
from ..core.tensor import Tensor
from ..nn.cell import Cell

MAGIC = checkpoint_legacy.MAGIC  # the signature of the first mindgrad format
_FORMATS = ("ckpt", "safetensors")
_SAVE_KWARGS = ("remove_redundancy",)


# --- asynchronous saves ----------------------------------------------------------------------
_async_lock = threading.Lock()
_async_saves: list[threading.Thread] = []
_async_errors: list[BaseException] = []


def _run_async(path: str, job: Callable[[], None]) -> None:
    def run() -> None:
        try:
            job()
        except BaseException as e:  # kept for the next save/load/wait to raise
            with _async_lock:
                _async_errors.append(e)

    thread = threading.Thread(target=run, name=f"save_checkpoint {os.path.basename(path)}")
    with _async_lock:
        _async_saves.append(thread)
    thread.start()


def wait_async_saves() -> None:
    """Wait for the checkpoints ``save_checkpoint(..., async_save=True)`` is still writing;
    re-raise the first error one of them met. ``save_checkpoint`` and ``load_checkpoint``
    call it first, so saves happen in order and a load sees every earlier save."""
    with _async_lock:
        threads = list(_async_saves)
    for t in threads:
        t.join()
    with _async_lock:
        for t in threads:
            _async_saves.remove(t)
        errors = list(_async_errors)
        _async_errors.clear()
    if errors:
        raise errors[0]


# --- saving ----------------------------------------------------------------------------------
def _as_value(value: Any, name: str, copy: bool) -> np.ndarray | str:
    """The array (or string) saved for one entry; with ``copy`` one that later updates of
    the value cannot change (an asynchronous save writes it later)."""
    if isinstance(value, str):
        return value
    if isinstance(value, Tensor):
        return np.array(value.asnumpy(), copy=copy or None)
    if isinstance(value, (np.ndarray, np.generic)):
        return np.array(value, copy=copy or None)
    if isinstance(value, (bool, int, float)):  # as MindSpore's Tensor(value): Bool/Int64/Float32
        return np.asarray(value, np.bool_ if isinstance(value, bool) else
                          (np.int64 if isinstance(value, int) else np.float32))
    raise TypeError(f"For 'save_checkpoint', the value of '{name}' must be a Parameter, Tensor, "
                    f"numpy array, number or str, but got {type(value).__name__}.")


def _collect(save_obj: Any, choice_func: Callable[[str], bool] | None) -> list[tuple[str, Any]]:
    """``(name, value)`` pairs from a Cell, a dict, a list of Parameters or a list of
    ``{'name', 'data'}`` dicts, filtered by ``choice_func``."""
    if isinstance(save_obj, Cell):
        pairs = [(p.name, p) for p in save_obj.get_parameters()]
    elif isinstance(save_obj, dict):
        pairs = list(save_obj.items())
    elif isinstance(save_obj, (list, tuple)):
        pairs = []
        for item in save_obj:
            if isinstance(item, Parameter):
                pairs.append((item.name, item))
            elif isinstance(item, dict) and "name" in item and "data" in item:
                pairs.append((item["name"], item["data"]))
            else:
                raise TypeError("For 'save_checkpoint', a list 'save_obj' must hold Parameters "
                                "or dicts with the keys 'name' and 'data', but got "
                                f"{type(item).__name__}.")
    else:
        raise TypeError(f"For 'save_checkpoint', 'save_obj' must be a Cell, a dict or a list, "
                        f"but got {type(save_obj).__name__}.")
    for name, _ in pairs:
        if not isinstance(name, str) or not name:
            raise ValueError(f"For 'save_checkpoint', every name must be a non-empty str, but "
                             f"got {name!r}.")
    if choice_func is not None:
        pairs = [(n, v) for n, v in pairs if choice_func(n)]
    return pairs


def _check_append_dict(append_dict: Any) -> dict:
    if append_dict is None:
        return {}
    if not isinstance(append_dict, dict):
        raise TypeError(f"For 'save_checkpoint', 'append_dict' must be a dict, but got "
                        f"{type(append_dict).__name__}.")
    for k, v in append_dict.items():
        if not isinstance(k, str) or not isinstance(v, (bool, int, float, str, Tensor)):
            raise TypeError(f"For 'save_checkpoint', 'append_dict' must map str to int, float, "
                            f"bool, str, Parameter or Tensor, but got {k!r}: "
                            f"{type(v).__name__}.")
    return append_dict


def _save_path(ckpt_file_name: Any, format: str) -> str:
    if not isinstance(ckpt_file_name, (str, os.PathLike)):
        raise TypeError(f"For 'save_checkpoint', 'ckpt_file_name' must be a str, but got "
                        f"{type(ckpt_file_name).__name__}.")
    path = os.path.realpath(os.fspath(ckpt_file_name))
    if os.path.isdir(path):
        raise IsADirectoryError(f"For 'save_checkpoint', 'ckpt_file_name' {path!r} is a "
                                f"directory; it must be a file name.")
    # As MindSpore: the format's name is appended unless the name already ends with it.
    return path if path.endswith(format) else f"{path}.{format}"


def _check_bool(value: Any, func: str, arg: str) -> bool:
    if not isinstance(value, bool):
        raise TypeError(f"For '{func}', '{arg}' must be a bool, but got {type(value).__name__}.")
    return value


def save_checkpoint(save_obj: Any, ckpt_file_name: str, integrated_save: bool = True,
                    async_save: bool | str = False, append_dict: dict | None = None,
                    enc_key: Any = None, enc_mode: str = "AES-GCM",
                    choice_func: Callable[[str], bool] | None = None, crc_check: bool = False,
                    format: str = "ckpt", **kwargs: Any) -> None:
    """Save parameters to ``ckpt_file_name`` in MindSpore's format, so that MindSpore loads
    the file too.

    ``save_obj`` is a Cell (its parameters by ``Parameter.name``), a ``{name: value}`` dict
    (Parameter, Tensor, numpy array, number or str), a list of Parameters or a list of
    ``{'name': ..., 'data': ...}`` dicts. ``format`` is ``"ckpt"`` (MindSpore's protobuf
    layout) or ``"safetensors"`` (needs the ``safetensors`` package; tensors only); the
    format's name is appended to a file name that does not end with it. ``append_dict``
    adds ints (Int64), floats (Float32), bools, Tensors and (``ckpt`` only) strings;
    ``choice_func(name)`` picks the parameters of ``save_obj`` to keep. ``crc_check`` stores
    MindSpore's CRC-32 of the data. ``async_save`` (True, ``"thread"`` or ``"process"``)
    copies the values now and writes the file in a background thread (``"process"`` too);
    the next ``save_checkpoint``/``load_checkpoint`` waits for it. ``integrated_save`` only
    concerns parallel training and has no effect; ``remove_redundancy`` (a keyword) is
    recorded in a safetensors file's metadata as MindSpore does. Encryption (``enc_key``) is
    not supported.

    Raises:
        NotImplementedError: ``enc_key`` is given.
        TypeError / ValueError: a bad argument or value (nothing is written then).
    """
    if enc_key is not None:
        raise NotImplementedError("For 'save_checkpoint', encrypted checkpoints (enc_key) are "
                                  "not supported by mindgrad; save without 'enc_key'.")
    if format not in _FORMATS:
        raise ValueError(f"For 'save_checkpoint', 'format' must be 'ckpt' or 'safetensors', "
                         f"but got {format!r}.")
    unknown = sorted(set(kwargs) - set(_SAVE_KWARGS))
    if unknown:
        raise TypeError(f"For 'save_checkpoint', unexpected keyword argument(s) {unknown}.")
    remove_redundancy = kwargs.get("remove_redundancy")
    if remove_redundancy is not None:
        _check_bool(remove_redundancy, "save_checkpoint", "remove_redundancy")
    _check_bool(integrated_save, "save_checkpoint", "integrated_save")
    _check_bool(crc_check, "save_checkpoint", "crc_check")
    if not isinstance(async_save, (bool, str)):
        raise TypeError(f"For 'save_checkpoint', 'async_save' must be a bool or str, but got "
                        f"{type(async_save).__name__}.")
    if isinstance(async_save, str) and async_save not in ("process", "thread"):
        raise ValueError(f"For 'save_checkpoint', 'async_save' can only be 'process' or "
                         f"'thread', but got {async_save!r}.")
    path = _save_path(ckpt_file_name, format)
    pairs = _collect(save_obj, choice_func) + list(_check_append_dict(append_dict).items())
    entries, seen = [], set()
    for name, value in pairs:
        if name in seen:
            raise ValueError(f"For 'save_checkpoint', the name '{name}' appears twice; give "
                             f"the parameters distinct names.")
        seen.add(name)
        value = _as_value(value, name, copy=bool(async_save))
        if not isinstance(value, str):
            checkpoint_proto.dtype_name(value.dtype)  # a clear TypeError before any writing
        entries.append((name, value))
    if format == "safetensors":
        blob = checkpoint_safetensors.encode(entries, crc_check, remove_redundancy)

        def job() -> None:
            write_atomic(path, lambda f: f.write(blob))
    else:
        def job() -> None:
            write_atomic(path, lambda f: checkpoint_proto.write(f, entries, crc_check))
    wait_async_saves()
    if async_save:
        _run_async(path, job)
    else:
        job()


# --- loading ---------------------------------------------------------------------------------
def _prefixes(value: Any, arg: str) -> tuple:
    if value is None:
        return ()
    if not isinstance(value, (str, list, tuple)):
        raise TypeError(f"For 'load_checkpoint', '{arg}' must be a str or a list or tuple of "
                        f"str, but got {type(value).__name__}.")
    items = (value,) if isinstance(value, str) else tuple(value)
    bad = [v for v in items if not isinstance(v, str)]
    if bad:
        raise TypeError(f"For 'load_checkpoint', every element of '{arg}' must be a str, but "
                        f"got {type(bad[0]).__name__}.")
    if not items or not all(items):
        raise ValueError(f"For 'load_checkpoint', '{arg}' must be a non-empty str or a "
                         f"non-empty list of them, but got {value!r}.")
    return items


def _chooser(filter_prefix: Any, specify_prefix: Any,
             choice_func: Callable[[str], bool] | None) -> Callable[[str], bool]:
    """Which names to load. As in MindSpore, ``specify_prefix``/``filter_prefix`` (both
    deprecated there) replace ``choice_func`` when either is given."""
    drop = _prefixes(filter_prefix, "filter_prefix")
    keep = _prefixes(specify_prefix, "specify_prefix")
    if choice_func is not None and not callable(choice_func):
        raise TypeError(f"For 'load_checkpoint', 'choice_func' must be callable, but got "
                        f"{type(choice_func).__name__}.")
    if drop or keep or choice_func is None:
        return lambda name: (not any(name.startswith(p) for p in drop)
                             and (not keep or any(name.startswith(p) for p in keep)))
    return lambda name: bool(choice_func(name))


def _read_source(ckpt_file_name: Any, format: str) -> tuple[str, bytes]:
    if isinstance(ckpt_file_name, io.BytesIO):
        if format == "ckpt":
            raise TypeError("For 'load_checkpoint', a BytesIO source is only supported with "
                            "format='safetensors'.")
        return "<BytesIO>", ckpt_file_name.getvalue()
    if not isinstance(ckpt_file_name, (str, os.PathLike)):
        raise TypeError(f"For 'load_checkpoint', 'ckpt_file_name' must be a str, but got "
                        f"{type(ckpt_file_name).__name__}.")
    path = os.fspath(ckpt_file_name)
    if not path.endswith(format):
        raise ValueError(f"For 'load_checkpoint', the file name must end with the format "
                         f"'{format}', but got {path!r}; pass format='safetensors' for a "
                         f".safetensors file.")
    if not os.path.isfile(path):
        raise CheckpointError(f"The checkpoint file '{path}' does not exist.")
    with open(path, "rb") as f:
        return path, f.read()


def load_checkpoint(ckpt_file_name: str, net: Any = None, strict_load: bool = False,
                    filter_prefix: Any = None, dec_key: Any = None, dec_mode: str = "AES-GCM",
                    specify_prefix: Any = None, choice_func: Callable[[str], bool] | None = None,
                    crc_check: bool = False, remove_redundancy: bool = False,
                    format: str = "ckpt") -> dict:
    """Read a checkpoint into ``{name: Parameter}`` (strings saved with ``append_dict`` come
    back as str), from MindSpore's ``.ckpt`` layout (``format="ckpt"``, the default; files
    of mindgrad's first format load too) or a ``.safetensors`` file (``format=
    "safetensors"``; also an ``io.BytesIO``). The file name must end with the format, as in
    MindSpore. BFloat16 values come back as float32 with the same values (NumPy has no
    bfloat16).

    ``choice_func(name)`` keeps the names it accepts; ``specify_prefix`` keeps, and
    ``filter_prefix`` drops, names with those prefixes (either replaces ``choice_func``).
    ``crc_check=True`` requires and checks the CRC-32 that ``save_checkpoint(...,
    crc_check=True)`` stores; a ``.ckpt`` file's CRC is checked whenever it has one. With
    ``net`` the parameters are also loaded into it (``load_param_into_net``). Decryption
    (``dec_key``) is not supported.

    Raises:
        CheckpointError (a ValueError): the file is missing, truncated, corrupted or crafted.
        ValueError: nothing is left after the filters, or a bad argument.
        NotImplementedError: ``dec_key`` is given.
    """
    if dec_key is not None:
        raise NotImplementedError("For 'load_checkpoint', encrypted checkpoints (dec_key) are "
                                  "not supported by mindgrad.")
    if format not in _FORMATS:
        raise ValueError(f"For 'load_checkpoint', 'format' must be 'ckpt' or 'safetensors', "
                         f"but got {format!r}.")
    _check_bool(strict_load, "load_checkpoint", "strict_load")
    _check_bool(crc_check, "load_checkpoint", "crc_check")
    _check_bool(remove_redundancy, "load_checkpoint", "remove_redundancy")
    wanted = _chooser(filter_prefix, specify_prefix, choice_func)
    wait_async_saves()
    path, blob = _read_source(ckpt_file_name, format)
    if blob[:len(MAGIC)] == MAGIC:
        entries: Iterable = checkpoint_legacy.read(path, blob, wanted)
    elif format == "safetensors":
        entries, _ = checkpoint_safetensors.decode(path, blob, wanted, crc_check)
    else:
        entries, _, _ = checkpoint_proto.read(path, blob, wanted, crc_check)
    out: dict = {}
    for name, value in entries:
        out[name] = value if isinstance(value, str) else Parameter(Tensor(value), name=name)
    if not out:
        raise ValueError(f"For 'load_checkpoint', nothing was loaded from '{path}': the "
                         f"filters (choice_func, specify_prefix, filter_prefix) left no "
                         f"parameter.")
    if net is not None:
        load_param_into_net(net, out, strict_load, remove_redundancy)
    return out


# --- into a network --------------------------------------------------------------------------
def _match(name: str, params: dict, strict: bool) -> str | None:
    """The checkpoint key for a network parameter: its own name, or (not strict) the one
    key that differs from it only by a leading prefix."""
    if name in params:
        return name
    if strict:
        return None
    hits = [k for k in params if k.endswith("." + name) or name.endswith("." + k)]
    return hits[0] if len(hits) == 1 else None


def _convertible(have: np.dtype, want: np.dtype) -> bool:
    """MindSpore converts between float types and between signed int types unless
    ``strict_load``."""
    return (have.kind == want.kind == "f") or (have.kind == want.kind == "i")


def load_param_into_net(net: Any, parameter_dict: dict, strict_load: bool = False,
                        remove_redundancy: bool = False) -> tuple:
    """Copy the values of ``parameter_dict`` into the parameters of ``net`` (matched by name;
    without ``strict_load`` also by a name that differs only by a leading prefix, and float
    to float or signed int to signed int dtypes are converted, as in MindSpore). Every value
    is checked first: a shape or dtype mismatch raises ``ValueError``/``TypeError`` and
    leaves every Parameter untouched. ``remove_redundancy=True`` (data-parallel
    deduplicated checkpoints) is not supported.

    Returns ``(param_not_load, ckpt_not_load)``: the network's parameters that received no
    value, and the checkpoint's names that were not used."""
    if not isinstance(net, Cell):
        raise TypeError(f"For 'load_param_into_net', 'net' must be a Cell, but got "
                        f"{type(net).__name__}.")
    if not isinstance(parameter_dict, dict):
        raise TypeError(f"For 'load_param_into_net', 'parameter_dict' must be a dict, but got "
                        f"{type(parameter_dict).__name__}.")
    _check_bool(strict_load, "load_param_into_net", "strict_load")
    if _check_bool(remove_redundancy, "load_param_into_net", "remove_redundancy"):
        raise NotImplementedError("For 'load_param_into_net', remove_redundancy=True "
                                  "(checkpoints deduplicated across data-parallel devices) is "
                                  "not supported by mindgrad.")
    values = {k: v for k, v in parameter_dict.items() if isinstance(v, (Tensor, np.ndarray))}
    updates, not_loaded, used, errors = [], [], set(), []
    for p in net.get_parameters():
        key = _match(p.name, values, strict_load)
        if key is None:
            not_loaded.append(p.name)
            continue
        arr = values[key].asnumpy() if isinstance(values[key], Tensor) else values[key]
        if tuple(arr.shape) != tuple(p.shape):
            errors.append(f"'{p.name}': the network has shape {list(p.shape)} but the "
                          f"checkpoint '{key}' has shape {list(arr.shape)}")
            continue
        want = p._data.dtype
        if arr.dtype != want and (strict_load or not _convertible(arr.dtype, want)):
            raise TypeError(f"For 'load_param_into_net', '{p.name}' has dtype {p.dtype} in the "
                            f"network but {arr.dtype} in the checkpoint.")
        updates.append((p, arr))
        used.add(key)
    if errors:
        raise ValueError("For 'load_param_into_net', nothing was loaded because of shape "
                         "mismatches: " + "; ".join(errors) + ".")
    for p, arr in updates:
        p.set_data(Tensor(arr.astype(p._data.dtype, copy=False)))
    return not_loaded, [k for k in parameter_dict if k not in used]


__all__ = ["save_checkpoint", "load_checkpoint", "load_param_into_net", "CheckpointError",
           "wait_async_saves"]
