"""Loopback ports for the servers tests start, and for addresses where nothing listens (measure.app_server's)."""

from __future__ import annotations

from measure.app_server import free_port

__all__ = ["free_port"]
