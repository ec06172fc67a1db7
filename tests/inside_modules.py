"""The sandbox's inside modules (sandbox/inside), imported on the host for unit tests of their logic.

Inside the sandbox they import one another by bare name (the worker runs with that folder on sys.path), so a test
that wants one puts the folder on sys.path first."""

from __future__ import annotations

import importlib
import sys
from pathlib import Path

import sandbox

INSIDE = str(Path(sandbox.__file__).parent / "inside")


def inside_modules(*names: str) -> tuple:
    """The named modules of sandbox/inside, as the sandbox's processes import them."""
    from sandbox.inside import rooms

    for folder in rooms.paths(INSIDE):
        if folder not in sys.path:
            sys.path.append(folder)
    return tuple(importlib.import_module(name) for name in names)
