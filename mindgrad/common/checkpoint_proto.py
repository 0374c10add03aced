"""MindSpore's ``.ckpt`` layout, read and written with a small protobuf wire-format codec.

MindSpore describes its checkpoints with this protobuf schema (``checkpoint.proto``)::

    message Checkpoint {
      message Value {
        required string tag = 1;                         // the parameter name
        oneof value { TensorProto tensor = 2; MapTensorProto maptensor = 3; }
      }
      repeated Value value = 1;
    }
    message TensorProto {
      repeated int64 dims = 1;                           // the shape; [] for a scalar
      required string tensor_type = 2;                   // "Float32", "Int64", "Bool", "str"...
      required bytes tensor_content = 3;                 // raw little-endian C-order bytes
    }

A file is a sequence of ``value`` records. MindSpore splits a tensor larger than 512 MiB into
consecutive records of the same tag (each with the full ``dims``), and with ``crc_check``
appends ``b"crc_num"`` and a 10-byte big-endian CRC-32 of everything before it. A string
(``append_dict``) is ``tensor_type "str"``, ``dims [0]`` and the UTF-32-LE characters.

The reader here is plain bounds-checked byte slicing: it never executes anything from the
file, accepts only the wire types the schema can hold, and reports every inconsistency (a
length past the end, an unknown dtype, a size that does not match the shape) as the
checkpoint error.
"""
from __future__ import annotations

import binascii
import math
from typing import Any, BinaryIO, Iterable

import numpy as np

from .checkpoint_files import CheckpointError, corrupt

# MindSpore's dtype names (``str(mindspore.float32)``) and their NumPy types. MindSpore 2.10
# itself cannot read Complex64/Complex128 checkpoints; mindgrad writes them under these names.
TENSOR_TYPES = {"Bool": np.bool_, "Int8": np.int8, "Int16": np.int16, "Int32": np.int32,
                "Int64": np.int64, "UInt8": np.uint8, "UInt16": np.uint16, "UInt32": np.uint32,
                "UInt64": np.uint64, "Float16": np.float16, "Float32": np.float32,
                "Float64": np.float64, "Complex64": np.complex64, "Complex128": np.complex128}
_NAME_OF = {np.dtype(v): k for k, v in TENSOR_TYPES.items()}
MAX_DIMS = 64  # NumPy's limit on the number of dimensions
SLICE_BYTES = 512 * 1024 * 1024  # MindSpore's record size for large tensors
_CRC_MARK = b"crc_num"
_CRC_TRAILER = len(_CRC_MARK) + 10

_VARINT, _I64, _LEN, _I32 = 0, 1, 2, 5


# --- writing ---------------------------------------------------------------------------------
def _varint(n: int) -> bytes:
    """Base-128 varint of ``n`` (negative int64 values as their two's complement)."""
    if n < 0:
        n += 1 << 64
    out = bytearray()
    while True:
        low = n & 0x7F
        n >>= 7
        if n:
            out.append(low | 0x80)
        else:
            out.append(low)
            return bytes(out)


def _key(field: int, wire: int) -> bytes:
    return _varint(field << 3 | wire)


def _len_field(field: int, payload_len: int) -> bytes:
    return _key(field, _LEN) + _varint(payload_len)


def dtype_name(dtype: np.dtype) -> str:
    """MindSpore's name for a NumPy dtype (``float32`` -> ``"Float32"``)."""
    try:
        return _NAME_OF[np.dtype(dtype)]
    except KeyError:
        raise TypeError(f"For 'save_checkpoint', the dtype {np.dtype(dtype)} has no MindSpore "
                        f"checkpoint type.") from None


def _records(name: str, value: np.ndarray | str) -> Iterable[list]:
    """The pieces of the ``value`` records for one entry (a list of byte strings each)."""
    tag = name.encode("utf-8")
    if isinstance(value, str):
        dims, type_name, content = [0], b"str", np.array(value).astype("<U").tobytes()
        chunks: list = [content]
    else:
        arr = np.asarray(value, order="C")  # (ascontiguousarray makes 0-d arrays 1-d)
        dims, type_name = list(arr.shape), dtype_name(arr.dtype).encode()
        data = memoryview(arr.astype(arr.dtype.newbyteorder("<"), copy=False).reshape(-1)
                          .view(np.uint8))
        chunks = [data[i:i + SLICE_BYTES] for i in range(0, len(data), SLICE_BYTES)] or [b""]
    head = b"".join(_key(1, _VARINT) + _varint(d) for d in dims)
    head += _len_field(2, len(type_name)) + type_name
    for chunk in chunks:
        tensor_len = len(head) + len(_len_field(3, len(chunk))) + len(chunk)
        value_head = (_len_field(1, len(tag)) + tag + _len_field(2, tensor_len) + head
                      + _len_field(3, len(chunk)))
        record_len = len(value_head) + len(chunk)
        yield [_len_field(1, record_len) + value_head, chunk]


def write(f: BinaryIO, entries: Iterable[tuple[str, np.ndarray | str]],
          crc_check: bool = False) -> None:
    """Write ``(name, array or str)`` entries to ``f`` in MindSpore's layout."""
    crc = 0
    for name, value in entries:
        for pieces in _records(name, value):
            for piece in pieces:
                f.write(piece)
                if crc_check:
                    crc = binascii.crc32(piece, crc)
    if crc_check:
        f.write(_CRC_MARK + crc.to_bytes(10, "big"))


# --- reading ---------------------------------------------------------------------------------
class _Reader:
    """Bounds-checked reading of protobuf fields from ``buf[pos:end]``."""

    def __init__(self, buf: memoryview, path: str, pos: int, end: int) -> None:
        self.buf, self.path, self.pos, self.end = buf, path, pos, end

    def fail(self, why: str) -> CheckpointError:
        return corrupt(self.path, f"{why} (at byte {self.pos})")

    def varint(self) -> int:
        n, shift = 0, 0
        for _ in range(10):
            if self.pos >= self.end:
                raise self.fail("a number runs past the end of its record")
            b = self.buf[self.pos]
            self.pos += 1
            n |= (b & 0x7F) << shift
            if not b & 0x80:
                if n >= 1 << 64:
                    raise self.fail("a number is larger than 64 bits")
                return n
            shift += 7
        raise self.fail("a number is longer than 10 bytes")

    def field(self) -> tuple[int, int]:
        key = self.varint()
        field, wire = key >> 3, key & 7
        if field == 0:
            raise self.fail("a field has the number 0")
        return field, wire

    def length_delimited(self) -> tuple[int, int]:
        """(start, end) of the payload of a length-delimited field."""
        n = self.varint()
        if n > self.end - self.pos:
            raise self.fail(f"a field claims {n} bytes but its record has "
                            f"{self.end - self.pos} left")
        start = self.pos
        self.pos += n
        return start, self.pos

    def skip(self, wire: int) -> None:
        """Skip a field this schema does not use (protobuf's rule for unknown fields)."""
        if wire == _VARINT:
            self.varint()
        elif wire == _LEN:
            self.length_delimited()
        elif wire in (_I64, _I32):
            size = 8 if wire == _I64 else 4
            if size > self.end - self.pos:
                raise self.fail("a fixed-size field runs past the end of its record")
            self.pos += size
        else:  # groups (3, 4) are not in the schema; 6 and 7 do not exist
            raise self.fail(f"wire type {wire} is not valid here")

    def expect(self, wire: int, want: int, what: str) -> None:
        if wire != want:
            raise self.fail(f"the field '{what}' has wire type {wire}, not {want}")


def _text(r: _Reader, start: int, end: int, what: str) -> str:
    try:
        return bytes(r.buf[start:end]).decode("utf-8")
    except UnicodeDecodeError:
        raise r.fail(f"the {what} is not valid UTF-8") from None


def _tensor(r: _Reader) -> tuple[list[int], str, tuple[int, int]]:
    """Parse a TensorProto spanning ``r.pos:r.end``: (dims, type name, content span)."""
    dims: list[int] = []
    type_name, content = None, None
    while r.pos < r.end:
        field, wire = r.field()
        if field == 1 and wire == _VARINT:
            if len(dims) >= MAX_DIMS:
                raise r.fail(f"a tensor has more than {MAX_DIMS} dimensions")
            d = r.varint()
            if d >= 1 << 63:
                raise r.fail(f"a tensor has the negative dimension {d - (1 << 64)}")
            dims.append(d)
        elif field == 1 and wire == _LEN:  # packed dims (what a proto3 writer emits)
            start, end = r.length_delimited()
            sub = _Reader(r.buf, r.path, start, end)
            while sub.pos < sub.end:
                if len(dims) >= MAX_DIMS:
                    raise sub.fail(f"a tensor has more than {MAX_DIMS} dimensions")
                d = sub.varint()
                if d >= 1 << 63:
                    raise sub.fail(f"a tensor has the negative dimension {d - (1 << 64)}")
                dims.append(d)
        elif field == 2:
            r.expect(wire, _LEN, "tensor_type")
            start, end = r.length_delimited()
            type_name = _text(r, start, end, "tensor type")
        elif field == 3:
            r.expect(wire, _LEN, "tensor_content")
            content = r.length_delimited()
        else:
            r.skip(wire)
    if type_name is None or content is None:
        raise r.fail("a tensor lacks its type or its content")
    return dims, type_name, content


def _value(r: _Reader) -> tuple[str, list[int], str, tuple[int, int]]:
    """Parse a Checkpoint.Value spanning ``r.pos:r.end``."""
    tag, tensor = None, None
    while r.pos < r.end:
        field, wire = r.field()
        if field == 1:
            r.expect(wire, _LEN, "tag")
            start, end = r.length_delimited()
            tag = _text(r, start, end, "parameter name")
        elif field == 2:
            r.expect(wire, _LEN, "tensor")
            if tensor is not None:
                raise r.fail("a record holds two tensors")
            start, end = r.length_delimited()
            tensor = _tensor(_Reader(r.buf, r.path, start, end))
        elif field == 3:
            raise CheckpointError(f"The checkpoint file '{r.path}' holds a MapParameter "
                                  f"(maptensor), which mindgrad does not support.")
        else:
            r.skip(wire)
    if tag is None or tensor is None:
        raise r.fail("a record lacks its name or its tensor")
    return (tag, *tensor)


def _decode(path: str, name: str, dims: list[int], type_name: str, data: bytes | memoryview,
            bfloat16: list) -> np.ndarray | str:
    if type_name == "str":
        if len(data) % 4:
            raise corrupt(path, f"the string '{name}' has {len(data)} bytes, not a multiple of 4")
        try:  # NumPy pads a str array with NULs (an empty str is one NUL): strip as it does
            return bytes(data).decode("utf-32-le").rstrip("\0")
        except UnicodeDecodeError:
            raise corrupt(path, f"the string '{name}' is not valid UTF-32") from None
    if type_name == "BFloat16":
        # NumPy has no bfloat16: the values are widened to float32 exactly (a bfloat16 is the
        # upper half of the float32 with the same value).
        np_type, itemsize = None, 2
    elif type_name in TENSOR_TYPES:
        np_type = np.dtype(TENSOR_TYPES[type_name]).newbyteorder("<")
        itemsize = np_type.itemsize
    else:
        raise corrupt(path, f"'{name}' has the tensor type '{type_name[:40]}', which mindgrad "
                            f"cannot read (it reads {', '.join(TENSOR_TYPES)}, BFloat16, str)")
    size = math.prod(dims)
    if dims == [0] and len(data) == itemsize:
        dims, size = [], 1  # an early MindSpore form of a scalar, which MindSpore also reads
    if size * itemsize != len(data):
        raise corrupt(path, f"'{name}' has shape {dims} and type {type_name}, which need "
                            f"{size * itemsize} bytes, but it holds {len(data)}")
    if np_type is None:
        bits = np.frombuffer(data, np.dtype("<u2")).astype(np.uint32) << 16
        bfloat16.append(name)
        return bits.view(np.float32).reshape(dims)
    if type_name == "Bool":  # any nonzero byte is True, as a C++ bool reads it
        return (np.frombuffer(data, np.uint8) != 0).reshape(dims)
    return np.frombuffer(data, np_type).astype(np_type.newbyteorder("="), copy=True).reshape(dims)


def read(path: str, blob: bytes, wanted: Any, crc_check: bool = False
         ) -> tuple[list[tuple[str, np.ndarray | str]], list[str], bool]:
    """Parse a whole ``.ckpt`` file's bytes. ``wanted(name)`` picks the entries to decode.
    Returns the ``(name, array or str)`` entries in file order, the names that were bfloat16
    (returned as float32), and whether the file had a CRC that was checked."""
    buf = memoryview(blob)
    end = len(buf)
    has_crc = end >= _CRC_TRAILER and bytes(buf[end - _CRC_TRAILER:end - 10]) == _CRC_MARK
    if has_crc:
        end -= _CRC_TRAILER
        stored = int.from_bytes(buf[end + len(_CRC_MARK):], "big")
        if binascii.crc32(buf[:end]) != stored:
            raise corrupt(path, "the data does not match its CRC-32 (crc_num)")
    elif crc_check:
        raise corrupt(path, "crc_check=True but the file holds no CRC (it was saved without "
                            "crc_check)")
    r = _Reader(buf, path, 0, end)
    # Gather the records first: consecutive records with one tag are the slices of one tensor.
    groups: list[list] = []
    while r.pos < r.end:
        field, wire = r.field()
        if field != 1:
            r.skip(wire)
            continue
        r.expect(wire, _LEN, "value")
        start, stop = r.length_delimited()
        tag, dims, type_name, span = _value(_Reader(buf, path, start, stop))
        if groups and groups[-1][0] == tag:
            if groups[-1][1] != dims or groups[-1][2] != type_name:
                raise corrupt(path, f"the slices of '{tag}' disagree on shape or type")
            groups[-1][3].append(span)
        else:
            groups.append([tag, dims, type_name, [span]])
    if not groups:
        raise corrupt(path, "it holds no parameters")
    out, bfloat16, seen = [], [], set()
    for tag, dims, type_name, spans in groups:
        if tag in seen:
            raise corrupt(path, f"the name '{tag}' appears twice")
        seen.add(tag)
        if not wanted(tag):
            continue
        data = (buf[spans[0][0]:spans[0][1]] if len(spans) == 1
                else b"".join(buf[a:b] for a, b in spans))
        out.append((tag, _decode(path, tag, dims, type_name, data, bfloat16)))
    return out, bfloat16, has_crc


__all__ = ["read", "write", "dtype_name", "TENSOR_TYPES"]
