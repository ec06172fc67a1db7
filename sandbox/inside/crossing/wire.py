"""Framing for the pipes between the sandbox's processes: one marshal message per frame, plain data only.

Runs inside the sandbox (stdlib only, imported before any untrusted code). Only plain values
of exact builtin types cross a pipe, so the receiving side never runs code it did not write:
marshal can carry code objects, and check_plain refuses them (and any other type). What those
plain values stand for (a date, a Decimal, an object of the other side's) is peer.py's and values.py's.
"""

from __future__ import annotations

import marshal
import os
import struct

MAX_MESSAGE = 64 << 20
_SCALARS = (type(None), bool, int, float, complex, str, bytes)
_CONTAINERS = (list, tuple, dict, set, frozenset)
PLAIN_TYPES = frozenset(_SCALARS + _CONTAINERS)
_SCALAR_TYPES = frozenset(_SCALARS)


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
    # marshal keeps one object held twice as one (a grid's row), so each container is read once: 200 bytes of
    # rows, each held twice by the one above, would otherwise be 2**40 items to read.
    stack, seen = [obj], set()
    while stack:
        item = stack.pop()
        kind = type(item)
        if kind not in PLAIN_TYPES:
            raise ChannelClosed(f"forbidden type in message: {kind.__name__}")
        if kind in _CONTAINERS:
            if id(item) in seen:
                continue
            seen.add(id(item))
            # a container of scalars only is read at C speed (a list of 100,000 numbers is no Python loop)
            if kind is dict:
                if not (set(map(type, item.keys())) | set(map(type, item.values()))) <= _SCALAR_TYPES:
                    stack.extend(item.keys())
                    stack.extend(item.values())
            elif not set(map(type, item)) <= _SCALAR_TYPES:
                stack.extend(item)
