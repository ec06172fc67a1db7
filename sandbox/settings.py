"""The sandbox's own settings, read from the environment in this one place (the sandbox imports
nothing of the agent, so it cannot use agent.config). Each default is written once, here."""

from __future__ import annotations

import os
from dataclasses import dataclass

LEVELS = ("rlimits", "landlock", "bwrap")  # weakest first; see sandbox.isolation


@dataclass(frozen=True)
class SandboxSettings:
    """SANDBOX_WORKERS, SANDBOX_ISOLATION, SANDBOX_REQUIRE, SANDBOX_DEBUG (see the README's table)."""

    workers: int = 8  # pre-forked workers, so many threads can run code at once
    isolation: str = "auto"  # auto: the strongest this machine allows; or cap it at rlimits | landlock
    require: str = ""  # refuse to run code below this level: landlock | bwrap; empty: run at any level, loudly
    debug: bool = False  # show the workers' stderr


def sandbox_settings() -> SandboxSettings:
    """Read the environment; raises ValueError naming the variable on a bad value."""
    env, defaults = os.environ.get, SandboxSettings()
    workers = (env("SANDBOX_WORKERS") or str(defaults.workers)).strip()
    if not workers.isdigit() or int(workers) < 1:
        raise ValueError(f"SANDBOX_WORKERS must be a whole number of 1 or more, got {workers!r}")
    isolation = (env("SANDBOX_ISOLATION") or defaults.isolation).strip().lower()
    if isolation not in ("auto", "rlimits", "landlock"):
        raise ValueError(f"SANDBOX_ISOLATION must be auto, landlock or rlimits, got {isolation!r}")
    require = (env("SANDBOX_REQUIRE") or defaults.require).strip().lower()
    if require not in ("", "landlock", "bwrap"):
        raise ValueError(f"SANDBOX_REQUIRE must be landlock or bwrap (or unset), got {require!r}")
    return SandboxSettings(workers=int(workers), isolation=isolation, require=require,
                           debug=bool(env("SANDBOX_DEBUG")))
