"""Checkpoints: ``save_checkpoint``, ``load_checkpoint``, ``load_param_into_net``.

The file format never executes code when read. It is:

    8 bytes   magic ``b"MGCKPT01"``
    8 bytes   header length ``n`` (unsigned, little-endian)
    n bytes   UTF-8 JSON header: ``{"entries": [{"name", "dtype", "shape", "offset",
              "nbytes"}...], "extras": {name: str}, "payload_bytes", "payload_sha256"}``
    payload   the raw little-endian C-order bytes of every tensor, in entry order

Loading checks the magic, the header, every name, dtype (from a fixed list), shape, offset
and size, the total length and the SHA-256 of the payload, so a truncated or corrupted
file gives a clear ``ValueError``. Saving writes a temporary file in the target directory
and renames it into place, so an interrupted save never leaves a half-written checkpoint.
"""
from __future__ import annotations

import hashlib
import json
import math
import os
import struct
import tempfile
from typing import Any, Callable, Iterable

import numpy as np

from .parameter import Parameter
from .tensor import Tensor

MAGIC = b"MGCKPT01"
_DTYPES = ("bool", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64",
           "float16", "float32", "float64", "complex64", "complex128")
_MAX_HEADER = 1 << 30


class CheckpointError(ValueError):
    """A checkpoint file that cannot be read (missing, truncated, corrupted, not ours)."""


# --- saving ----------------------------------------------------------------------------------
def _as_array(value: Any, name: str) -> np.ndarray:
    if isinstance(value, Tensor):
        return value.asnumpy()
    if isinstance(value, np.ndarray):
        return value
    if isinstance(value, (bool, int, float)):
        return np.asarray(value, np.float32 if isinstance(value, float) else
                          (np.bool_ if isinstance(value, bool) else np.int64))
    raise TypeError(f"For 'save_checkpoint', the value of '{name}' must be a Parameter, Tensor, "
                    f"numpy array or number, but got {type(value).__name__}.")


def _collect(save_obj: Any) -> list[tuple[str, Any]]:
    """``(name, value)`` pairs from a Cell, a dict or a list of ``{'name', 'data'}`` dicts."""
    from ..nn.cell import Cell

    if isinstance(save_obj, Cell):
        return [(p.name, p) for p in save_obj.get_parameters()]
    if isinstance(save_obj, dict):
        return list(save_obj.items())
    if isinstance(save_obj, (list, tuple)):
        pairs = []
        for item in save_obj:
            if not isinstance(item, dict) or "name" not in item or "data" not in item:
                raise TypeError("For 'save_checkpoint', a list 'save_obj' must hold dicts with "
                                "the keys 'name' and 'data'.")
            pairs.append((item["name"], item["data"]))
        return pairs
    raise TypeError(f"For 'save_checkpoint', 'save_obj' must be a Cell, a dict or a list, but "
                    f"got {type(save_obj).__name__}.")


def _encode(pairs: Iterable[tuple[str, Any]], extras: dict) -> tuple[bytes, list[bytes]]:
    entries, chunks, offset = [], [], 0
    seen: set = set()
    for name, value in pairs:
        if not isinstance(name, str) or not name:
            raise ValueError(f"For 'save_checkpoint', every name must be a non-empty str, but "
                             f"got {name!r}.")
        if name in seen:
            raise ValueError(f"For 'save_checkpoint', the name '{name}' appears twice; give "
                             f"the parameters distinct names.")
        seen.add(name)
        arr = _as_array(value, name)
        if arr.dtype.name not in _DTYPES:
            raise TypeError(f"For 'save_checkpoint', '{name}' has unsupported dtype {arr.dtype}.")
        data = np.ascontiguousarray(arr, arr.dtype.newbyteorder("<")).tobytes()
        entries.append({"name": name, "dtype": arr.dtype.name, "shape": list(arr.shape),
                        "offset": offset, "nbytes": len(data)})
        chunks.append(data)
        offset += len(data)
    digest = hashlib.sha256()
    for c in chunks:
        digest.update(c)
    header = {"format": "mindgrad-checkpoint", "version": 1, "entries": entries,
              "extras": extras, "payload_bytes": offset, "payload_sha256": digest.hexdigest()}
    return json.dumps(header).encode("utf-8"), chunks


def _write_atomic(path: str, header: bytes, chunks: list[bytes]) -> None:
    directory = os.path.dirname(os.path.abspath(path))
    os.makedirs(directory, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=directory, prefix="." + os.path.basename(path) + ".",
                               suffix=".tmp")
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(MAGIC)
            f.write(struct.pack("<Q", len(header)))
            f.write(header)
            for c in chunks:
                f.write(c)
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, path)
    except BaseException:
        if os.path.exists(tmp):
            os.unlink(tmp)
        raise


def save_checkpoint(save_obj: Any, ckpt_file_name: str, integrated_save: bool = True,
                    async_save: bool = False, append_dict: dict | None = None,
                    enc_key: Any = None, enc_mode: str = "AES-GCM",
                    choice_func: Callable[[str], bool] | None = None, **kwargs: Any) -> None:
    """Save the parameters of a Cell (by ``Parameter.name``), a ``{name: value}`` dict or a
    list of ``{'name': ..., 'data': ...}`` dicts to ``ckpt_file_name`` ('.ckpt' is added when
    missing). ``append_dict`` adds numbers, Tensors or strings; ``choice_func(name)`` picks
    which names to keep. Saving is synchronous; encryption is not supported."""
    if enc_key is not None:
        raise NotImplementedError("For 'save_checkpoint', encrypted checkpoints (enc_key) are "
                                  "not supported by mindgrad.")
    if not isinstance(ckpt_file_name, (str, os.PathLike)):
        raise TypeError(f"For 'save_checkpoint', 'ckpt_file_name' must be a str, but got "
                        f"{type(ckpt_file_name).__name__}.")
    path = os.fspath(ckpt_file_name)
    if not path.endswith(".ckpt"):
        path += ".ckpt"
    pairs = _collect(save_obj)
    extras: dict = {}
    for key, value in (append_dict or {}).items():
        if isinstance(value, str):
            extras[key] = value
        else:
            pairs.append((key, value))
    if choice_func is not None:
        pairs = [(n, v) for n, v in pairs if choice_func(n)]
        extras = {n: v for n, v in extras.items() if choice_func(n)}
    header, chunks = _encode(pairs, extras)
    _write_atomic(path, header, chunks)


# --- loading ---------------------------------------------------------------------------------
def _corrupt(path: str, why: str) -> CheckpointError:
    return CheckpointError(f"Failed to read the checkpoint file '{path}': {why}. The file is "
                           f"truncated, corrupted or not a mindgrad checkpoint.")


def _read(path: str) -> tuple[list, dict, memoryview]:
    """The validated entries, extras and payload of a checkpoint file."""
    if not os.path.isfile(path):
        raise CheckpointError(f"The checkpoint file '{path}' does not exist.")
    with open(path, "rb") as f:
        blob = f.read()
    if len(blob) < 16 or blob[:8] != MAGIC:
        raise _corrupt(path, "it does not start with the mindgrad checkpoint signature")
    (n,) = struct.unpack("<Q", blob[8:16])
    if n > _MAX_HEADER or 16 + n > len(blob):
        raise _corrupt(path, f"the header claims {n} bytes but the file has {len(blob)}")
    try:
        header = json.loads(blob[16:16 + n].decode("utf-8"))
    except (UnicodeDecodeError, json.JSONDecodeError) as e:
        raise _corrupt(path, f"the header is not valid JSON ({e})") from None
    if not isinstance(header, dict) or not isinstance(header.get("entries"), list):
        raise _corrupt(path, "the header has no entry list")
    payload = memoryview(blob)[16 + n:]
    if header.get("payload_bytes") != len(payload):
        raise _corrupt(path, f"the data section has {len(payload)} bytes but "
                             f"{header.get('payload_bytes')} were written")
    if hashlib.sha256(payload).hexdigest() != header.get("payload_sha256"):
        raise _corrupt(path, "the data does not match its checksum")
    entries, offset, names = header["entries"], 0, set()
    for e in entries:
        _check_entry(path, e, offset, names)
        offset += e["nbytes"]
    if offset != len(payload):
        raise _corrupt(path, "the entries do not cover the data section")
    extras = header.get("extras", {})
    if not isinstance(extras, dict) or not all(isinstance(v, str) for v in extras.values()):
        raise _corrupt(path, "the extra values are malformed")
    return entries, extras, payload


def _check_entry(path: str, e: Any, offset: int, names: set) -> None:
    ok = (isinstance(e, dict) and isinstance(e.get("name"), str) and e.get("dtype") in _DTYPES
          and isinstance(e.get("shape"), list)
          and all(isinstance(d, int) and not isinstance(d, bool) and d >= 0 for d in e["shape"])
          and e.get("offset") == offset and isinstance(e.get("nbytes"), int))
    if not ok:
        raise _corrupt(path, f"malformed entry {str(e)[:200]}")
    if e["name"] in names:
        raise _corrupt(path, f"the name '{e['name']}' appears twice")
    names.add(e["name"])
    if e["nbytes"] != math.prod(e["shape"]) * np.dtype(e["dtype"]).itemsize:
        raise _corrupt(path, f"the size of '{e['name']}' does not match its shape and dtype")


def _prefixes(value: Any, arg: str) -> tuple:
    if value is None:
        return ()
    items = (value,) if isinstance(value, str) else tuple(value)
    if not items or not all(isinstance(v, str) and v for v in items):
        raise TypeError(f"For 'load_checkpoint', '{arg}' must be a non-empty str or a list of "
                        f"them, but got {value!r}.")
    return items


def load_checkpoint(ckpt_file_name: str, net: Any = None, strict_load: bool = False,
                    filter_prefix: Any = None, dec_key: Any = None, dec_mode: str = "AES-GCM",
                    specify_prefix: Any = None, choice_func: Callable[[str], bool] | None = None,
                    **kwargs: Any) -> dict:
    """Read a checkpoint into ``{name: Parameter}`` (strings saved with ``append_dict`` come
    back as str). ``filter_prefix`` drops, ``specify_prefix`` keeps, names with those
    prefixes; ``choice_func(name)`` keeps the names it accepts. With ``net`` the parameters
    are also loaded into it (``load_param_into_net``)."""
    if dec_key is not None:
        raise NotImplementedError("For 'load_checkpoint', encrypted checkpoints (dec_key) are "
                                  "not supported by mindgrad.")
    path = os.fspath(ckpt_file_name)
    drop, keep = _prefixes(filter_prefix, "filter_prefix"), _prefixes(specify_prefix,
                                                                      "specify_prefix")

    def wanted(name: str) -> bool:
        return (not any(name.startswith(p) for p in drop)
                and (not keep or any(name.startswith(p) for p in keep))
                and (choice_func is None or bool(choice_func(name))))

    entries, extras, payload = _read(path)
    out: dict = {}
    for e in entries:
        if not wanted(e["name"]):
            continue
        arr = np.frombuffer(payload, np.dtype(e["dtype"]).newbyteorder("<"),
                            math.prod(e["shape"]), e["offset"]).reshape(e["shape"])
        out[e["name"]] = Parameter(Tensor(arr.astype(np.dtype(e["dtype"]), copy=True)),
                                   name=e["name"])
    out.update((k, v) for k, v in extras.items() if wanted(k))
    if net is not None:
        load_param_into_net(net, out, strict_load)
    return out


def _match(name: str, params: dict, strict: bool) -> str | None:
    """The checkpoint key for a network parameter: its own name, or (not strict) the one
    key that differs from it only by a leading prefix."""
    if name in params:
        return name
    if strict:
        return None
    hits = [k for k in params if k.endswith("." + name) or name.endswith("." + k)]
    return hits[0] if len(hits) == 1 else None


def load_param_into_net(net: Any, parameter_dict: dict, strict_load: bool = False) -> tuple:
    """Copy the values of ``parameter_dict`` into the parameters of ``net`` (matched by name;
    without ``strict_load`` also by a name that differs only by a leading prefix, and float
    dtypes are converted). Every value is checked first: a shape or dtype mismatch raises
    ``ValueError``/``TypeError`` and leaves every Parameter untouched.

    Returns ``(param_not_load, ckpt_not_load)``: the network's parameters that received no
    value, and the checkpoint's names that were not used."""
    from ..nn.cell import Cell

    if not isinstance(net, Cell):
        raise TypeError(f"For 'load_param_into_net', 'net' must be a Cell, but got "
                        f"{type(net).__name__}.")
    if not isinstance(parameter_dict, dict):
        raise TypeError(f"For 'load_param_into_net', 'parameter_dict' must be a dict, but got "
                        f"{type(parameter_dict).__name__}.")
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
        if arr.dtype != want and (strict_load or arr.dtype.kind != "f" or want.kind != "f"):
            raise TypeError(f"For 'load_param_into_net', '{p.name}' has dtype {p.dtype} in the "
                            f"network but {arr.dtype} in the checkpoint.")
        updates.append((p, arr))
        used.add(key)
    if errors:
        raise ValueError("For 'load_param_into_net', nothing was loaded because of shape "
                         "mismatches: " + "; ".join(errors) + ".")
    for p, arr in updates:
        p.set_data(Tensor(arr))
    return not_loaded, [k for k in parameter_dict if k not in used]


__all__ = ["save_checkpoint", "load_checkpoint", "load_param_into_net", "CheckpointError"]
