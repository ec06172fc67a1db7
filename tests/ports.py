"""Loopback ports for the servers tests start, and for addresses where nothing listens."""

from __future__ import annotations

import socket


def free_port() -> int:
    """A TCP port free on this machine right now: for a server a test starts, or an address that refuses."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]
