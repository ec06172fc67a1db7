"""The isolation probe: what this machine allows, probed once, the Policy that follows from it (its rules are in
sandbox.host_policy) and the command that starts a worker with it.

Three levels, strongest first:

- ``bwrap``: every worker runs inside bubblewrap (its own mount, network, pid, ipc and uts
  namespaces; only /usr, the Python install, the harness and the packages SANDBOX_PACKAGES allows
  are visible, read-only). As root the
  code and the tests also run as two unprivileged uids of their own. Without root, bubblewrap
  makes a user namespace (where the kernel allows unprivileged ones) and nested ones are refused.
- ``landlock``: no namespaces (a container whose seccomp profile forbids them, a kernel that
  disallows unprivileged user namespaces). Each child is confined by Landlock (read the Python
  install and the harness, write only its own temp dir, no TCP, no signals to anything outside
  itself) and a seccomp filter (no sockets).
- ``rlimits``: resource limits only. Code can read and write whatever the app's user can:
  said loudly (``Isolation.warning``), and refused when SANDBOX_REQUIRE asks for more.

Landlock and seccomp are also applied inside bubblewrap, as a second layer.

At every level the allow-listed packages (sandbox.packages) are shown to the code one by one, read-only,
under one folder on the children's sys.path: bound at /opt/packages inside bubblewrap, linked from the
worker's scratch folder outside it (and then added to Landlock's read-only list), never the whole
site-packages, which holds the app's own code.
"""

from __future__ import annotations

import functools
import os
import shutil
import stat
import subprocess
import tempfile
from pathlib import Path

from sandbox.host_policy import (
    INSIDE,
    SYSCALLS_DENIED,
    WORKER,
    base_python,
    build_policy,
    bwrap_args,
    packages_by_name,
    python_in_bwrap,
)
from sandbox.inside.confinement import confine
from sandbox.inside.confinement.policy import Policy
from sandbox.layers import Isolation
from sandbox.packages import package_paths
from sandbox.settings import LEVELS, sandbox_settings

_SLOT_UIDS = 2  # one uid for the code, one for the tests
_UID_BASE = 100_000  # the sandbox's uids: 100000 and up, 32 per process, apart from any real account


class IsolationRefused(Exception):
    """The machine cannot give the isolation level SANDBOX_REQUIRE asks for."""


def _world_readable(path: Path) -> bool:
    """Can an unprivileged uid reach this file (every parent directory searchable by others)?"""
    for part in [path, *path.parents]:
        mode = part.stat().st_mode
        if not mode & (stat.S_IXOTH if part != path else stat.S_IROTH):
            return False
    return True


def _others_can_read(path: Path, through_parents: bool) -> bool:
    """Can an unprivileged uid read this package path (its folder's own mode; with through_parents every folder
    above it too, as when it is not bound into a sandbox of its own)?"""
    try:
        if through_parents:
            return _world_readable(path)
        mode = path.stat().st_mode
        return bool(mode & stat.S_IROTH) and (not path.is_dir() or bool(mode & stat.S_IXOTH))
    except OSError:
        return False


def _link_packages(folder: str, packages: tuple[Path, ...]) -> None:
    """Outside bubblewrap: one folder of links to the allow-listed packages, put on the children's sys.path in
    place of site-packages (whose other packages must stay out of reach)."""
    os.makedirs(folder, mode=0o755, exist_ok=True)
    for name, path in packages_by_name(packages).items():
        os.symlink(path, os.path.join(folder, name))


def _runs(cmd: list[str]) -> bool:
    try:
        return subprocess.run(cmd, env={}, capture_output=True, timeout=30).returncode == 0
    except (OSError, subprocess.SubprocessError):
        return False


def _confinement_works(landlock: bool, seccomp: bool) -> bool:
    """Apply the confinement in a throwaway process, as a worker's child would (the same code, from a policy),
    and check that it holds."""
    exe, prefix = base_python()
    probe = Policy("probe", landlock=landlock, readable=(str(INSIDE), str(prefix)), seccomp=seccomp,
                   syscalls_denied=SYSCALLS_DENIED)
    with tempfile.TemporaryDirectory(prefix="sandbox-probe-") as home:
        script = (
            "import sys, ctypes, os; sys.path.insert(0, sys.argv[1] + '/confinement'); import confine, policy\n"
            "ctypes.CDLL(None).prctl(38, 1, 0, 0, 0)\n"
            "confine.apply(policy.from_json(sys.argv[2]), sys.argv[3])\n"
            "open(os.path.join(sys.argv[3], 'ok'), 'w').write('ok')\n"
            "try:\n    open('/etc/hostname').read()\nexcept OSError:\n    pass\nelse:\n"
            f"    sys.exit(3 if {landlock} else 0)\n"
            "import socket\ntry:\n    socket.socket(socket.AF_INET, socket.SOCK_DGRAM)\nexcept OSError:\n    pass\n"
            f"else:\n    sys.exit(4 if {seccomp} else 0)\n"
        )
        return _runs([str(exe), "-I", "-S", "-c", script, str(INSIDE), probe.to_json(), home])


def _bwrap_works(bwrap: str, user_namespace: bool, check: str) -> bool:
    """Run a check inside bubblewrap with the policy's namespaces and mounts (no packages)."""
    policy = build_policy(Isolation("bwrap", bwrap=True, user_namespace=user_namespace), ())
    return _runs([*bwrap_args(policy, bwrap), python_in_bwrap(), "-I", "-S", "-c", check])


@functools.lru_cache(maxsize=1)
def isolation() -> Isolation:
    """The strongest isolation this machine allows (capped by SANDBOX_ISOLATION), probed once per process."""
    settings = sandbox_settings()
    root = os.geteuid() == 0
    uids = root and _world_readable(base_python()[0])
    abi = confine.landlock_abi() if settings.isolation != "rlimits" else 0
    seccomp = settings.isolation != "rlimits" and confine.seccomp_supported()
    if abi and not _confinement_works(True, seccomp):
        abi, seccomp = 0, False
    if seccomp and not abi and not _confinement_works(False, True):
        seccomp = False
    layers = {"landlock_abi": abi, "seccomp": seccomp}
    packages = package_paths(settings.packages)
    bwrap = shutil.which("bwrap")
    if bwrap and settings.isolation == "auto":
        if root and _bwrap_works(bwrap, False, "import os; os.setresuid(65534, 65534, 65534)"):
            # Bound into the sandbox, a package needs only its own folder to be readable by others.
            return Isolation("bwrap", bwrap=True, uids=True, **layers,
                             unreadable_packages=_unreadable(packages, through_parents=False))
        if not root and _bwrap_works(bwrap, True, "pass"):
            return Isolation("bwrap", bwrap=True, user_namespace=True, **layers)
    uids = uids and settings.isolation != "rlimits"
    unreadable = _unreadable(packages, through_parents=True) if uids else ()
    if abi:
        return Isolation("landlock", uids=uids, **layers, unreadable_packages=unreadable)
    return Isolation("rlimits", uids=uids, unreadable_packages=unreadable)


def _unreadable(packages: tuple[Path, ...], through_parents: bool) -> tuple[str, ...]:
    return tuple(str(path) for path in packages if not _others_can_read(path, through_parents))


def isolation_level() -> str:
    """The description of this machine's isolation (see Isolation.description)."""
    return isolation().description


def require_level() -> None:
    """Raise IsolationRefused when SANDBOX_REQUIRE asks for more than this machine gives."""
    wanted = sandbox_settings().require
    have = isolation()
    if wanted and LEVELS.index(have.level) < LEVELS.index(wanted):
        raise IsolationRefused(
            f"SANDBOX_REQUIRE={wanted}, but this machine only gives {have.level} isolation ({have.description}); "
            "code is not run. " + (have.warning or ""))


def worker_policy(preload: bool = True, scratch: str | None = None) -> Policy:
    """The Policy a worker applies on this machine (see sandbox.host_policy); scratch: its host folder outside
    bubblewrap (left as a placeholder when None, as when the policy is only shown)."""
    return build_policy(isolation(), sandbox_settings().packages, preload, scratch)


def worker_command(slot: int, preload: bool = True) -> tuple[list[str], str | None]:
    """The command that starts one pre-forked worker with its policy, and the host scratch dir it uses (None
    inside bwrap).

    preload: the worker imports the allow-listed packages once, before it reads any code, so that each run's
    children start with them loaded (`python -m measure sandbox --numpy` measures both ways)."""
    # Inside bwrap the Python install and the harness are mounted at /opt and the run dir is a capped tmpfs;
    # outside, they are where they are, and the worker's own scratch folder holds its runs and package links.
    scratch = None if isolation().bwrap else tempfile.mkdtemp(prefix="sandbox-")
    policy = worker_policy(preload, scratch)
    if policy.separate_uids:
        uid_base = _UID_BASE + (os.getpid() % 60_000) * 32 + slot * _SLOT_UIDS
        uids = [str(uid_base), str(uid_base + 1)]
    else:
        uids = ["-", "-"]
    if scratch is None:
        cmd = [*bwrap_args(policy, shutil.which("bwrap") or "bwrap"), python_in_bwrap(),
               "-I", "-S", "-B", f"/opt/sandbox/{WORKER}", *uids, "/tmp/runs", policy.to_json()]
        return cmd, None
    for folder in policy.sys_path:
        _link_packages(folder, package_paths(policy.packages))
    os.chmod(scratch, 0o755)
    return [str(base_python()[0]), "-I", "-S", "-B", f"{INSIDE}/{WORKER}", *uids, scratch + "/runs",
            policy.to_json()], scratch
