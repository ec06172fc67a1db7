"""What the sandbox on this machine can do, for the app's banner and the records of bench runs."""

from __future__ import annotations

from dataclasses import dataclass

from sandbox.isolation import IsolationRefused, isolation, require_level


@dataclass(frozen=True)
class SandboxStatus:
    """The isolation level, its one-line description, and what an operator must be told about it."""

    level: str  # bwrap | landlock | rlimits
    description: str
    warning: str | None  # set below bubblewrap's level: shown as a banner, never as a caption
    refused: str | None  # set when SANDBOX_REQUIRE asks for more: no code runs at all


def sandbox_status() -> SandboxStatus:
    """Probe (once per process) and describe the sandbox's isolation."""
    found = isolation()
    try:
        require_level()
        refused = None
    except IsolationRefused as exc:
        refused = str(exc)
    return SandboxStatus(found.level, found.description, found.warning, refused)
