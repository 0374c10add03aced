"""Reading mindgrad's first checkpoint format (``MGCKPT01``), kept so that old files load.

mindgrad now writes MindSpore's own formats; files in this one are still read (by the magic
at their start, whatever ``format`` says). The layout is::

    8 bytes   magic ``b"MGCKPT01"``
    8 bytes   header length ``n`` (unsigned, little-endian)
    n bytes   UTF-8 JSON header: ``{"entries": [{"name", "dtype", "shape", "offset",
              "nbytes"}...], "extras": {name: str}, "payload_bytes", "payload_sha256"}``
    payload   the raw little-endian C-order bytes of every tensor, in entry order

Every part is checked (the header is parsed as data only: a deeply nested or oversized header
is the checkpoint error, never a RecursionError), and the payload's SHA-256 must match.
"""
from __future__ import annotations

import hashlib
import json
import math
import struct
from typing import Any

import numpy as np

from .checkpoint_files import CheckpointError, corrupt

MAGIC = b"MGCKPT01"
_DTYPES = ("bool", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64",
           "float16", "float32", "float64", "complex64", "complex128")
_MAX_HEADER = 1 << 30
_MAX_DIMS = 64  # NumPy's limit


def _header(path: str, raw: bytes) -> dict:
    try:
        header = json.loads(raw.decode("utf-8"))
    except RecursionError:
        raise corrupt(path, "the header is nested too deeply") from None
    except (UnicodeDecodeError, ValueError) as e:  # JSONDecodeError, or an int of 5000 digits
        raise corrupt(path, f"the header is not valid JSON ({str(e)[:200]})") from None
    if not isinstance(header, dict) or not isinstance(header.get("entries"), list):
        raise corrupt(path, "the header has no entry list")
    return header


def _int(v: Any) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


def _check_entry(path: str, e: Any, offset: int, names: set) -> None:
    ok = (isinstance(e, dict) and isinstance(e.get("name"), str) and e.get("dtype") in _DTYPES
          and isinstance(e.get("shape"), list) and len(e["shape"]) <= _MAX_DIMS
          and all(_int(d) and d >= 0 for d in e["shape"])
          and e.get("offset") == offset and _int(e.get("nbytes")))
    if not ok:
        raise corrupt(path, f"malformed entry {str(e)[:200]}")
    if e["name"] in names:
        raise corrupt(path, f"the name '{e['name']}' appears twice")
    names.add(e["name"])
    if e["nbytes"] != math.prod(e["shape"]) * np.dtype(e["dtype"]).itemsize:
        raise corrupt(path, f"the size of '{e['name']}' does not match its shape and dtype")


def read(path: str, blob: bytes, wanted: Any) -> list[tuple[str, np.ndarray | str]]:
    """The ``(name, array or str)`` entries of a legacy file's bytes that ``wanted`` picks."""
    if len(blob) < 16 or blob[:8] != MAGIC:
        raise corrupt(path, "it does not start with the mindgrad checkpoint signature")
    (n,) = struct.unpack("<Q", blob[8:16])
    if n > _MAX_HEADER or 16 + n > len(blob):
        raise corrupt(path, f"the header claims {n} bytes but the file has {len(blob)}")
    header = _header(path, blob[16:16 + n])
    payload = memoryview(blob)[16 + n:]
    if header.get("payload_bytes") != len(payload):
        raise corrupt(path, f"the data section has {len(payload)} bytes but "
                            f"{str(header.get('payload_bytes'))[:40]} were written")
    if hashlib.sha256(payload).hexdigest() != header.get("payload_sha256"):
        raise corrupt(path, "the data does not match its checksum")
    entries, offset, names = header["entries"], 0, set()
    for e in entries:
        _check_entry(path, e, offset, names)
        offset += e["nbytes"]
    if offset != len(payload):
        raise corrupt(path, "the entries do not cover the data section")
    extras = header.get("extras", {})
    if not isinstance(extras, dict) or not all(isinstance(v, str) for v in extras.values()):
        raise corrupt(path, "the extra values are malformed")
    out: list[tuple[str, np.ndarray | str]] = []
    for e in entries:
        if wanted(e["name"]):
            dt = np.dtype(e["dtype"])
            arr = np.frombuffer(payload, dt.newbyteorder("<"), math.prod(e["shape"]),
                                e["offset"]).reshape(e["shape"])
            out.append((e["name"], arr.astype(dt, copy=True)))
    out.extend((k, v) for k, v in extras.items() if wanted(k))
    return out


__all__ = ["MAGIC", "read", "CheckpointError"]
