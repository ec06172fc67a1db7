"""The folders of the sandbox's inside code, one job each: what crosses between the two processes (crossing), the
pytest stand-in (pytest_standin), and confinement (confinement); the two processes' own modules (the code's, the
tests') stay at the top. Inside the sandbox every module imports the others by bare name, so each folder is on
sys.path (the worker puts them there; tests/inside_modules.py does the same on the host).

Runs inside the sandbox (stdlib only), and on the host.
"""

from __future__ import annotations

import os

ROOMS = ("crossing", "pytest_standin", "confinement")


def paths(inside: str) -> list[str]:
    """The folders to put on sys.path, the top of the inside code first."""
    return [inside, *(os.path.join(inside, room) for room in ROOMS)]
