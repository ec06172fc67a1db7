"""Framing and value rules for the pipes between the sandbox's processes.

Runs inside the sandbox (stdlib only, imported before any untrusted code). Only plain values
of exact builtin types cross a pipe, so the receiving side never runs code it did not write:
an object that overrides ``__eq__`` cannot travel, only the data inside builtin containers.

numpy values (when SANDBOX_PACKAGES offers numpy) cross as plain data too. A numpy scalar of one of
numpy's own types becomes the Python value its type's own ``item`` gives (``np.int64(4)`` arrives as
4, ``np.bool_(True)`` as True). An ndarray of numbers, booleans or strings (exactly numpy's ndarray,
no subclass) crosses as an array record, ("a", dtype, shape, bytes), from which the receiving side
rebuilds a fresh array with its own numpy (array_record, from_record). Subclasses, object arrays and
other numpy objects stay behind as handles. The sender's conversion is a convenience, not a guard: the
candidate's process is untrusted anyway and may send any plain value it likes, which it could also
have returned. What keeps the verdict honest is the receiving side, which accepts exact builtin types
only (check_plain) and builds every numpy object itself from bytes and a dtype it validates.
"""

from __future__ import annotations

import marshal
import os
import re
import struct
import sys

MAX_MESSAGE = 64 << 20
MAX_DEPTH = 200
_SCALARS = (type(None), bool, int, float, complex, str, bytes)
_CONTAINERS = (list, tuple, dict, set, frozenset)
PLAIN_TYPES = frozenset(_SCALARS + _CONTAINERS)
# Booleans, integers, floats, complex numbers and fixed-width strings, in one byte order and of a sane width:
# never object, structured, void or datetime dtypes.
_ARRAY_DTYPE = re.compile(r"[<>|=][biufcUS][1-9][0-9]{0,3}")
_MAX_DIMS = 32


class ChannelClosed(Exception):
    """The other end closed the pipe (or died)."""


class NotPlain(TypeError):
    """A value that cannot cross the boundary as plain data."""


def send(fd: int, obj: object) -> None:
    """Write one length-prefixed marshal message."""
    data = marshal.dumps(obj, 4)
    if len(data) > MAX_MESSAGE:
        raise NotPlain(f"value too large to transfer ({len(data)} bytes)")
    view = memoryview(struct.pack("<I", len(data)) + data)
    while view:
        written = os.write(fd, view)
        view = view[written:]


def read_exact(fd: int, size: int) -> bytes:
    """Read exactly size bytes from fd (raises ChannelClosed at end of file)."""
    chunks = []
    while size:
        chunk = os.read(fd, min(size, 1 << 20))
        if not chunk:
            raise ChannelClosed()
        chunks.append(chunk)
        size -= len(chunk)
    return b"".join(chunks)


def recv(fd: int) -> object:
    """Read one message and check that it holds nothing but plain builtin values."""
    (size,) = struct.unpack("<I", read_exact(fd, 4))
    if size > MAX_MESSAGE:
        raise ChannelClosed("oversized message")
    try:
        obj = marshal.loads(read_exact(fd, size))
    except (EOFError, ValueError, TypeError) as exc:
        raise ChannelClosed(f"malformed message: {exc}") from None
    check_plain(obj)
    return obj


def check_plain(obj: object) -> None:
    """Raise ChannelClosed if obj holds anything but exact builtin data (marshal can carry code)."""
    stack = [obj]
    while stack:
        item = stack.pop()
        kind = type(item)
        if kind not in PLAIN_TYPES:
            raise ChannelClosed(f"forbidden type in message: {kind.__name__}")
        if kind is dict:
            stack.extend(item.keys())
            stack.extend(item.values())
        elif kind in _CONTAINERS:
            stack.extend(item)


def normalize(value: object, depth: int = 0) -> object:
    """Copy value into exact builtin types, reading subclasses through the base type's own methods.

    An ``int`` subclass becomes the int it really holds, whatever its ``__eq__`` says; an object
    of any other class raises NotPlain (the caller keeps it behind a handle instead).
    """
    if depth > MAX_DEPTH:
        raise NotPlain("value nested too deeply")
    kind = type(value)
    if kind in _SCALARS:
        return value
    if kind in _numpy_scalar_types():
        # numpy's own C method of numpy's own (immutable) type: a subclass's override is never called.
        return normalize(kind.item(value), depth + 1)
    if isinstance(value, int):
        return int.__int__(value)
    if isinstance(value, float):
        return float.__float__(value)
    if isinstance(value, complex):
        return complex(float.__float__(complex.real.__get__(value)), float.__float__(complex.imag.__get__(value)))
    if isinstance(value, str):
        return str.__str__(value)
    if isinstance(value, bytes):
        return bytes(memoryview(value))
    if isinstance(value, dict):
        return {normalize(k, depth + 1): normalize(v, depth + 1) for k, v in dict.items(value)}
    if isinstance(value, list):
        return [normalize(v, depth + 1) for v in list.__iter__(value)]
    if isinstance(value, tuple):
        return tuple(normalize(v, depth + 1) for v in tuple.__iter__(value))
    if isinstance(value, frozenset):
        return frozenset(normalize(v, depth + 1) for v in frozenset.__iter__(value))
    if isinstance(value, set):
        return {normalize(v, depth + 1) for v in set.__iter__(value)}
    raise NotPlain(f"{kind.__name__} is not a plain value")


def _numpy_scalar_types() -> frozenset:
    """numpy's own scalar types (not subclasses), or none when numpy is not loaded (then no value is numpy's)."""
    numpy = sys.modules.get("numpy")
    if numpy is None:
        return frozenset()
    found = _numpy_types.get(id(numpy))
    if found is None:
        try:
            found = frozenset(numpy.dtype(code).type for code in "?bhilqpBHILQPefdgFDG")
        except Exception:  # not the real numpy: nothing is one of its scalars
            found = frozenset()
        _numpy_types.clear()
        _numpy_types[id(numpy)] = found
    return found


_numpy_types: dict[int, frozenset] = {}


def is_array(value: object) -> bool:
    """Is value exactly numpy's ndarray (no subclass)?"""
    numpy = sys.modules.get("numpy")
    return numpy is not None and type(value) is getattr(numpy, "ndarray", None)


def array_record(value: object) -> tuple | None:
    """("a", dtype, shape, bytes) for an ndarray of plain numbers, booleans or strings; None for anything else."""
    if not is_array(value):
        return None
    try:
        dtype = value.dtype.str
        if not _ARRAY_DTYPE.fullmatch(dtype):
            return None
        return ("a", dtype, tuple(int(n) for n in value.shape), value.tobytes(order="C"))
    except Exception:
        return None


def encode_data(value: object) -> tuple | None:
    """("v", plain data) or an array record: how a value crosses between the processes as data; None when it is
    neither (the caller keeps it behind as a handle, or refuses it)."""
    try:
        return ("v", normalize(value))
    except NotPlain:
        return array_record(value)


def from_record(record: object) -> object:
    """A fresh ndarray built by this process's own numpy from an array record; raises ChannelClosed on anything
    malformed (wrong types, a dtype outside the plain ones, a size that does not match the bytes)."""
    if type(record) is not tuple or len(record) != 4 or record[0] != "a":
        raise ChannelClosed("malformed array record")
    _, dtype, shape, data = record
    if (type(dtype) is not str or not _ARRAY_DTYPE.fullmatch(dtype) or type(shape) is not tuple
            or len(shape) > _MAX_DIMS or any(type(n) is not int or n < 0 for n in shape) or type(data) is not bytes):
        raise ChannelClosed("malformed array record")
    try:
        import numpy
    except ImportError:
        raise ChannelClosed("an array arrived, but numpy is not offered here") from None
    kind = numpy.dtype(dtype)
    count = 1
    for n in shape:
        count *= n
    if count * kind.itemsize != len(data):
        raise ChannelClosed("array record: the bytes do not match its shape")
    return numpy.frombuffer(data, dtype=kind).reshape(shape).copy()
