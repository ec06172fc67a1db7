"""What one process hands the other with every message, besides the value: one working directory, one random
generator.

Runs inside the sandbox (stdlib only), in both processes (testside_sync and candidate call it around each
request and answer). Before a message goes out, the files this process made in the shared folder are given to the
other uid (shared_files), and its working directory (a test's chdir or monkeypatch.chdir, or the code's) and the
global random generators' state (random_sync) go along if they changed since the two processes last agreed, in the
message's extra under "cwd" and "random"; when a message comes in, they are taken on.
"""

from __future__ import annotations

import os

from random_sync import BadState, Generators
from shared_files import SharedFolder

__all__ = ["BadState", "Handover"]


class Handover:
    """This process's side of what the two processes share as one process would."""

    def __init__(self) -> None:
        self.folder = SharedFolder(os.environ.get("SBX_SHARED", ""))
        self.generators = Generators()
        self.cwd = _cwd()

    def outgoing(self, extra: dict | None) -> dict | None:
        """extra, with the working directory and the generators' state when they changed since the two processes
        last agreed."""
        self.folder.hand_over()
        found = {}
        cwd = _cwd()
        if cwd != self.cwd and cwd is not None:
            found["cwd"] = self.cwd = cwd
        states = self.generators.outgoing()
        if states is not None:
            found["random"] = states
        return {**(extra or {}), **found} if found else extra

    def incoming(self, extra: dict | None) -> None:
        """Take on what the other process handed over (BadState: a generator state no process could have sent)."""
        if not extra:
            return
        cwd = extra.get("cwd")
        if type(cwd) is str:
            try:
                os.chdir(cwd)
            except (OSError, ValueError):
                pass  # a folder this process may not enter: it stays where it was, as its own open() calls show
            self.cwd = _cwd()
        if "random" in extra:
            self.generators.incoming(extra["random"])


def _cwd() -> str | None:
    try:
        return os.getcwd()
    except OSError:
        return None
