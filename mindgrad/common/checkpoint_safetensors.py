"""``.safetensors`` checkpoints through the ``safetensors`` package (the optional extra
``pip install 'mindgrad[safetensors]'``).

The file is an 8-byte header length, a JSON header naming each tensor's dtype, shape and byte
range, and the raw data; the package's parser validates all of it and never executes code.
MindSpore writes the metadata ``{"format": "ms"}`` (plus ``"crc_num"`` with ``crc_check``),
and so does mindgrad. The format holds tensors only: a string cannot be stored in it.
"""
from __future__ import annotations

import binascii
import json
import math
from typing import Any

import numpy as np

from .checkpoint_files import CheckpointError, corrupt

# safetensors' dtype codes (as the header spells them) and the names its writer takes.
_READ = {"BOOL": np.bool_, "I8": np.int8, "I16": np.int16, "I32": np.int32, "I64": np.int64,
         "U8": np.uint8, "U16": np.uint16, "U32": np.uint32, "U64": np.uint64,
         "F16": np.float16, "F32": np.float32, "F64": np.float64, "C64": np.complex64}
_WRITE = {np.dtype(v): np.dtype(v).name for v in _READ.values()}


def _package(func: str) -> Any:
    try:
        import safetensors
    except ImportError:
        raise ImportError(f"For '{func}', format='safetensors' needs the 'safetensors' package: "
                          f"pip install 'mindgrad[safetensors]'.") from None
    return safetensors


def _crc(items: list[tuple[str, bytes | bytearray | memoryview]]) -> int:
    """MindSpore's CRC-32 of a safetensors checkpoint: names and data, in name order."""
    crc = 0
    for name, data in sorted(items, key=lambda kv: kv[0]):
        crc = binascii.crc32(name.encode("utf-8"), crc)
        crc = binascii.crc32(data, crc)
    return crc


def encode(entries: list[tuple[str, np.ndarray | str]], crc_check: bool = False,
           remove_redundancy: bool | None = None) -> bytes:
    """The bytes of a safetensors file holding ``(name, array)`` entries, with MindSpore's
    metadata."""
    st = _package("save_checkpoint")
    specs, keep, raw = {}, [], []
    for name, value in entries:
        if isinstance(value, str):
            raise TypeError(f"For 'save_checkpoint', format='safetensors' holds tensors only, "
                            f"but '{name}' is the string {value[:40]!r}; use format='ckpt'.")
        arr = np.asarray(value, order="C")  # (ascontiguousarray makes 0-d arrays 1-d)
        if arr.dtype not in _WRITE:
            raise TypeError(f"For 'save_checkpoint', format='safetensors' cannot hold '{name}' "
                            f"of dtype {arr.dtype}; use format='ckpt'.")
        arr = arr.astype(arr.dtype.newbyteorder("<"), copy=False)
        keep.append(arr)  # the spec holds a raw pointer: the array must outlive serialize()
        raw.append((name, arr.reshape(-1).view(np.uint8)))
        specs[name] = st.TensorSpec(dtype=_WRITE[arr.dtype], shape=list(arr.shape),
                                    data_ptr=arr.ctypes.data, data_len=arr.nbytes)
    metadata = {"format": "ms"}
    if remove_redundancy is not None:
        metadata["remove_redundancy"] = str(remove_redundancy)
    if crc_check:
        metadata["crc_num"] = str(_crc(raw))
    return bytes(st.serialize(specs, metadata=metadata))


def _metadata(path: str, blob: bytes) -> dict:
    # The package has validated the header already: a map of names to small records.
    n = int.from_bytes(blob[:8], "little")
    try:
        meta = json.loads(blob[8:8 + n].decode("utf-8")).get("__metadata__") or {}
    except (ValueError, RecursionError, AttributeError):
        raise corrupt(path, "the header is not a safetensors header") from None
    if not isinstance(meta, dict):
        raise corrupt(path, "the header's metadata is not a map")
    return meta


def decode(path: str, blob: bytes, wanted: Any, crc_check: bool = False
           ) -> tuple[list[tuple[str, np.ndarray]], list[str]]:
    """The ``(name, array)`` entries (in name order) of a safetensors file's bytes that
    ``wanted`` picks, and the names that were bfloat16 (returned as float32)."""
    st = _package("load_checkpoint")
    try:
        tensors = st.deserialize(blob)
    except st.SafetensorError as e:
        raise corrupt(path, f"it is not a valid safetensors file ({str(e)[:300]})") from None
    meta = _metadata(path, blob)
    if crc_check:
        if "crc_num" not in meta:
            raise corrupt(path, "crc_check=True but the file holds no CRC (crc_num)")
        if str(_crc([(k, v["data"]) for k, v in tensors])) != meta["crc_num"]:
            raise corrupt(path, "the data does not match its CRC-32 (crc_num)")
    out, bfloat16 = [], []
    for name, info in sorted(tensors, key=lambda kv: kv[0]):
        if not wanted(name):
            continue
        code, shape, data = info["dtype"], list(info["shape"]), info["data"]
        if name in meta and meta[name] != code:  # MindSpore marks its Int4 tensors so
            raise CheckpointError(f"The checkpoint file '{path}' holds '{name}' of MindSpore "
                                  f"type {meta[name]!r}, which mindgrad does not support.")
        if len(shape) > 64:
            raise corrupt(path, f"'{name}' has {len(shape)} dimensions (at most 64)")
        if code == "BF16":  # widened exactly to float32: NumPy has no bfloat16
            arr = (np.frombuffer(data, "<u2").astype(np.uint32) << 16).view(np.float32)
            bfloat16.append(name)
        elif code == "BOOL":  # any nonzero byte is True
            arr = np.frombuffer(data, np.uint8) != 0
        elif code in _READ:
            dt = np.dtype(_READ[code])
            arr = np.frombuffer(data, dt.newbyteorder("<")).astype(dt, copy=True)
        else:
            raise CheckpointError(f"The checkpoint file '{path}' holds '{name}' of safetensors "
                                  f"dtype {code}, which mindgrad cannot read.")
        if arr.size != math.prod(shape):
            raise corrupt(path, f"'{name}' has shape {shape} but {arr.size} values")
        out.append((name, arr.reshape(shape)))
    return out, bfloat16


__all__ = ["encode", "decode"]
