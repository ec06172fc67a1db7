"""Waiting for what a test started in the background (a bench run, a job) to reach a state."""

from __future__ import annotations

import time
from collections.abc import Callable


def wait_for(predicate: Callable[[], bool], timeout: float = 60.0) -> None:
    """Return once predicate() holds, polling every 50 ms; fail the test after timeout seconds."""
    deadline = time.time() + timeout
    while time.time() < deadline:
        if predicate():
            return
        time.sleep(0.05)
    raise AssertionError("timed out waiting")
