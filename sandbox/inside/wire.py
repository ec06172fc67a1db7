"""Framing and value rules for the pipes between the sandbox's processes.

Runs inside the sandbox (stdlib only, imported before any untrusted code). Only plain values
of exact builtin types cross a pipe, so the receiving side never runs code it did not write:
an object that overrides ``__eq__`` cannot travel, only the data inside builtin containers.
"""

from __future__ import annotations

import marshal
import os
import struct

MAX_MESSAGE = 64 << 20
MAX_DEPTH = 200
_SCALARS = (type(None), bool, int, float, complex, str, bytes)
_CONTAINERS = (list, tuple, dict, set, frozenset)
PLAIN_TYPES = frozenset(_SCALARS + _CONTAINERS)


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
