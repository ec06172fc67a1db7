"""Which code a run ran: the git commit of this checkout and a digest of the sources that solve and score.

A Ray run ships agent/, bench/ and sandbox/ to its workers (runtime_env py_modules); each worker reports the
digest of the sources it imported, and the driver refuses one that differs from its own.
"""

from __future__ import annotations

import functools
import hashlib
import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]  # the checkout: bench/runs/code_version.py is two folders down
SHIPPED_PACKAGES = ("agent", "bench", "sandbox")  # what a worker imports to solve and score a task


@functools.lru_cache(maxsize=1)
def source_digest() -> str:
    """Twelve hex digits of SHA-256 over the Python sources of the shipped packages, as imported here."""
    import importlib

    digest = hashlib.sha256()
    for name in SHIPPED_PACKAGES:
        folder = Path(importlib.import_module(name).__file__).parent
        for path in sorted(folder.rglob("*.py")):
            digest.update(f"{name}/{path.relative_to(folder).as_posix()}\0".encode())
            digest.update(path.read_bytes())
    return digest.hexdigest()[:12]


def code_version() -> str:
    """The git commit of this checkout (with -dirty for local changes) and the source digest,
    e.g. 'e819468-dirty src 3f2a9c01d4e5'; 'unknown' stands in for a commit outside a checkout."""
    try:
        head = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=ROOT, capture_output=True, text=True,
                              timeout=5).stdout.strip()
        dirty = subprocess.run(["git", "status", "--porcelain", "--untracked-files=no"], cwd=ROOT,
                               capture_output=True, text=True, timeout=5).stdout.strip()
    except (OSError, subprocess.SubprocessError):
        head, dirty = "", ""
    commit = (head + ("-dirty" if dirty else "")) if head else "unknown"
    return f"{commit} src {source_digest()}"
