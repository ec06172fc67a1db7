"""The sandbox's own settings, read from the environment in this one place (the sandbox imports
nothing of the agent, so it cannot use agent.config). Each default is written once, here.

The reader of on/off variables (flag) lives here too, and agent.config reads its own with it: the sandbox is the
layer every other imports, so one reader here serves them all.
"""

from __future__ import annotations

import importlib.util
import os
import sys
from dataclasses import dataclass

LEVELS = ("rlimits", "landlock", "bwrap")  # weakest first; see sandbox.isolation


@dataclass(frozen=True)
class SandboxSettings:
    """SANDBOX_WORKERS, SANDBOX_ISOLATION, SANDBOX_REQUIRE, SANDBOX_PACKAGES, SANDBOX_DEBUG (see the README)."""

    workers: int = 8  # pre-forked workers, so many threads can run code at once
    isolation: str = "auto"  # auto: the strongest this machine allows; or cap it at rlimits | landlock
    require: str = ""  # refuse to run code below that level: landlock | bwrap; empty: run at any level, loudly
    # Top-level import names the sandboxed code and tests may import (read-only) beyond the standard library.
    packages: tuple[str, ...] = ("numpy",)
    debug: bool = False  # show the workers' stderr


FLAG_WORDS = {"1": True, "true": True, "yes": True, "on": True, "0": False, "false": False, "no": False,
              "off": False}


def flag(name: str, default: bool) -> bool:
    """An on/off environment variable: 1, true, yes or on; 0, false, no or off (any case); unset or blank: the
    default. Anything else is a ValueError naming the variable, never a guess."""
    value = (os.environ.get(name) or "").strip().lower()
    if not value:
        return default
    if value not in FLAG_WORDS:
        raise ValueError(f"{name} must be 1 or 0 (true or false, on or off), got {os.environ[name]!r}")
    return FLAG_WORDS[value]


def _packages(raw: str | None, default: tuple[str, ...]) -> tuple[str, ...]:
    """SANDBOX_PACKAGES: comma-separated top-level import names, each installed here; unset: the default."""
    if raw is None:
        names = default
    else:
        names = tuple(dict.fromkeys(name.strip() for name in raw.split(",") if name.strip()))
    for name in names:
        if not name.isidentifier():
            raise ValueError(f"SANDBOX_PACKAGES holds {name!r}, which is not a top-level import name "
                             "(write numpy, not numpy.linalg or a pip requirement)")
        try:
            # Found, not imported: a package's own code does not run in the app just to check it is there.
            found = importlib.util.find_spec(name) is not None
        except (ImportError, ValueError):
            found = False
        if not found:
            raise ValueError(f"SANDBOX_PACKAGES offers {name!r} to sandboxed code, but it is not installed in this "
                             f"app's environment ({sys.prefix}): run `pip install {name}` there, or remove it from "
                             "SANDBOX_PACKAGES (an empty value offers the standard library only)")
    return names


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
                           packages=_packages(env("SANDBOX_PACKAGES"), defaults.packages),
                           debug=flag("SANDBOX_DEBUG", defaults.debug))
