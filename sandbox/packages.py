"""Which modules sandboxed code may import: the standard library and the packages SANDBOX_PACKAGES allows.

The allow-listed packages are found in the app's own environment (never imported here) and shown to
the sandbox read-only, each on its own: sandbox.isolation binds (bwrap) or links (landlock, rlimits)
just those folders, never the whole site-packages, which holds the app's own code. The host side also
names a module that a run missed (TestReport.missing_module), so the agent can stop a solve that no
code can pass here, and checks a test file's imports before any model time (imported_modules).
"""

from __future__ import annotations

import functools
import importlib.util
import os
import re
import sys
from pathlib import Path

from sandbox.inside.shapes import imported_names
from sandbox.locked_parse import parse
from sandbox.settings import sandbox_settings

# Offered to the tests although not in the standard library: the harness's own pytest stand-in, and the
# module that holds the candidate's code.
_HARNESS_MODULES = frozenset({"pytest", "solution"})
_NO_MODULE = re.compile(r"No module named '([^']+)'")


def packages_offered() -> tuple[str, ...]:
    """The top-level import names beyond the standard library that sandboxed code may import (SANDBOX_PACKAGES)."""
    return sandbox_settings().packages


def module_offered(name: str) -> bool:
    """Can sandboxed code import this module? True for the standard library and the allow-listed packages;
    for a dotted name its top-level part decides (numpy.linalg is offered when numpy is)."""
    top = name.strip().split(".")[0]
    return bool(top) and (top in sys.stdlib_module_names or top in _HARNESS_MODULES or top in packages_offered())


def imported_modules(source: str) -> list[str]:
    """Top-level names that the import statements of a source import, in order of first appearance.

    Relative imports and ``__future__`` are left out; so is everything when the source does not parse
    (sandbox.check_tests names that problem)."""
    try:
        module = parse(source)
    except (SyntaxError, ValueError):
        return []
    return imported_names(module)


def missing_module_name(error_type: str | None, message: str | None, name: object = None) -> str | None:
    """The top-level name a ModuleNotFoundError was about, when the sandbox does not offer it; else None.

    A module that is offered but still not found (a typo'd submodule such as numpy.foo, a module the code
    was meant to define) is the code's own bug, not the environment's."""
    if error_type != "ModuleNotFoundError":
        return None
    if not isinstance(name, str) or not name:
        match = _NO_MODULE.search(message or "")
        name = match.group(1) if match else None
    if not name:
        return None
    top = name.split(".")[0]
    return None if module_offered(top) else top


def missing_module_hint(name: str) -> str:
    """What to tell the user (and the model) about a module the sandbox does not offer."""
    names = ["the standard library", *packages_offered()]
    have = names[0] + " only" if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]
    return (f"the sandbox has no module {name!r}: it offers {have}. To use {name}, install it in the app's "
            f"environment (pip install {name}) and add it to SANDBOX_PACKAGES.")


@functools.lru_cache(maxsize=8)
def package_paths(names: tuple[str, ...]) -> tuple[Path, ...]:
    """The real paths that make up the given packages: each package's folder (or a single-file module), and any
    sibling ``<name>.libs`` or ``<distribution>.libs`` folder holding the shared libraries its wheel vendors
    (numpy.libs: OpenBLAS). Standard-library names need nothing. Names were checked by sandbox_settings."""
    found: dict[Path, None] = {}
    for name in names:
        if name in sys.stdlib_module_names:
            continue
        spec = importlib.util.find_spec(name)
        if spec is None:
            continue
        if spec.submodule_search_locations:  # a package (a namespace package may have several folders)
            places = [Path(os.path.realpath(p)) for p in spec.submodule_search_locations]
        elif spec.origin and os.path.isfile(spec.origin):
            places = [Path(os.path.realpath(spec.origin))]
        else:
            continue  # a built-in module: nothing on disk
        for place in places:
            found[place] = None
            found.update(dict.fromkeys(_vendored_libs(place, name)))
    return tuple(found)


def _vendored_libs(place: Path, name: str) -> list[Path]:
    """The sibling ``*.libs`` folders auditwheel made for the wheel that holds the package: ``<name>.libs``, or one
    named after the distribution (pillow.libs for PIL) whose RECORD lists the package. Read from the folder's own
    listing and one RECORD, not every distribution's metadata (which takes a tenth of a second)."""
    found = []
    for libs in sorted(place.parent.glob("*.libs")):
        base = libs.name[:-len(".libs")]
        if not libs.is_dir():
            continue
        if base == name:
            found.append(Path(os.path.realpath(libs)))
            continue
        wanted = base.lower().replace("-", "_")
        for info in place.parent.glob("*.dist-info"):
            if info.name.split("-")[0].lower().replace("-", "_") != wanted:
                continue
            try:
                record = (info / "RECORD").read_text(encoding="utf-8", errors="replace")
            except OSError:
                continue
            if any(line.startswith((f"{name}/", f"{name}.")) for line in record.splitlines()):
                found.append(Path(os.path.realpath(libs)))
    return found
