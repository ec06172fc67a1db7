"""The isolation policy: what this machine allows, probed once, and the command that starts a worker in it.

Three levels, strongest first:

- ``bwrap``: every worker runs inside bubblewrap (its own mount, network, pid, ipc and uts
  namespaces; only /usr, the Python install and the harness are visible, read-only). As root the
  code and the tests also run as two unprivileged uids of their own. Without root, bubblewrap
  makes a user namespace (where the kernel allows unprivileged ones) and nested ones are refused.
- ``landlock``: no namespaces (a container whose seccomp profile forbids them, a kernel that
  disallows unprivileged user namespaces). Each child is confined by Landlock (read the Python
  install and the harness, write only its own temp dir, no TCP, no signals to anything outside
  itself) and a seccomp filter (no sockets).
- ``rlimits``: resource limits only. Code can read and write whatever the app's user can:
  said loudly (``Isolation.warning``), and refused when SANDBOX_REQUIRE asks for more.

Landlock and seccomp are also applied inside bubblewrap, as a second layer.
"""

from __future__ import annotations

import functools
import json
import os
import shutil
import stat
import subprocess
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path

from sandbox.inside import confine
from sandbox.settings import LEVELS, sandbox_settings

INSIDE = Path(__file__).resolve().parent / "inside"
_SLOT_UIDS = 2  # one uid for the code, one for the tests
_UID_BASE = 100_000  # the sandbox's uids: 100000 and up, 32 per process, apart from any real account


class IsolationRefused(Exception):
    """The machine cannot give the isolation level SANDBOX_REQUIRE asks for."""


@dataclass(frozen=True)
class Isolation:
    """What confines sandboxed code on this machine."""

    level: str  # bwrap | landlock | rlimits (see the module docstring)
    bwrap: bool = False
    user_namespace: bool = False  # bubblewrap started without root, in a user namespace of its own
    uids: bool = False  # the code and the tests run as unprivileged uids of their own
    landlock_abi: int = 0  # Landlock ABI applied to each child; 0: none
    seccomp: bool = False

    @property
    def description(self) -> str:
        """One line naming every layer, stored with each report and bench run."""
        parts = []
        if self.bwrap:
            parts.append("bwrap(" + ("user," if self.user_namespace else "") + "mount,net,pid,ipc)")
        if self.uids:
            parts.append("uid")
        if self.landlock_abi:
            parts.append(f"landlock{self.landlock_abi}")
        if self.seccomp:
            parts.append("seccomp")
        return "+".join([*parts, "rlimits"])

    @property
    def warning(self) -> str | None:
        """What an operator must know when the isolation is below bubblewrap's, else None."""
        if self.level == "rlimits":
            return ("Weak sandbox: code runs with resource limits only. It can read and change every file this "
                    "app's user can (including its databases) and reach the network. Install bubblewrap, allow "
                    "user namespaces or use a kernel with Landlock; set SANDBOX_REQUIRE to refuse to run like this.")
        if self.level == "landlock":
            return ("Reduced sandbox: no namespaces here (bubblewrap is missing or user namespaces are blocked), so "
                    "code runs confined by Landlock and seccomp only: it sees the host's process list and the "
                    "system's public files, but cannot read the app's data, write outside its temp dir or open "
                    "sockets. The Compose file's seccomp profile gives containers the full sandbox.")
        return None


def base_python() -> tuple[Path, Path]:
    """The real interpreter binary (not the pyenv shim or venv link) and its installation prefix."""
    exe = Path(os.path.realpath(getattr(sys, "_base_executable", sys.executable)))
    return exe, Path(os.path.realpath(sys.base_prefix))


def _world_readable(path: Path) -> bool:
    """Can an unprivileged uid reach this file (every parent directory searchable by others)?"""
    for part in [path, *path.parents]:
        mode = part.stat().st_mode
        if not mode & (stat.S_IXOTH if part != path else stat.S_IROTH):
            return False
    return True


def _bwrap_prefix(bwrap: str, user_namespace: bool) -> list[str]:
    exe, prefix = base_python()
    # No --die-with-parent: it fires when the *thread* that started bwrap ends, and pools are shared
    # across threads. A worker ends instead when its stdin closes, which the host's death also does.
    args = [bwrap, "--unshare-net", "--unshare-pid", "--unshare-ipc",
            "--unshare-uts", "--unshare-cgroup-try", "--ro-bind", "/usr", "/usr"]
    if user_namespace:
        args[1:1] = ["--unshare-user", "--disable-userns"]
    for name in ("bin", "sbin", "lib", "lib32", "lib64"):
        path = Path("/") / name
        if path.is_symlink():
            args += ["--symlink", os.readlink(path), str(path)]
        elif path.is_dir():
            args += ["--ro-bind", str(path), str(path)]
    return args + [
        "--perms", "0755", "--dir", "/opt", "--ro-bind", str(prefix), "/opt/python",
        "--ro-bind", str(INSIDE), "/opt/sandbox",
        "--proc", "/proc", "--dev", "/dev",
        "--perms", "0755", "--size", str(256 << 20), "--tmpfs", "/tmp",
        "--clearenv", "--setenv", "PATH", "/usr/bin:/bin", "--setenv", "LANG", "C.UTF-8",
        "--chdir", "/tmp",
    ]


def _python_in_bwrap() -> str:
    exe, prefix = base_python()
    return "/opt/python/" + str(exe.relative_to(prefix))


def _runs(cmd: list[str]) -> bool:
    try:
        return subprocess.run(cmd, env={}, capture_output=True, timeout=30).returncode == 0
    except (OSError, subprocess.SubprocessError):
        return False


def _confinement_works(landlock: bool, seccomp: bool) -> bool:
    """Apply the confinement in a throwaway process, as a worker's child would, and check that it holds."""
    exe, prefix = base_python()
    with tempfile.TemporaryDirectory(prefix="sandbox-probe-") as home:
        script = (
            "import sys, ctypes, os; sys.path.insert(0, sys.argv[1]); import confine\n"
            "ctypes.CDLL(None).prctl(38, 1, 0, 0, 0)\n"
            f"if {landlock}: confine.landlock([sys.argv[1], sys.argv[2]], [sys.argv[3]])\n"
            f"if {seccomp}: confine.seccomp()\n"
            "open(os.path.join(sys.argv[3], 'ok'), 'w').write('ok')\n"
            "try:\n    open('/etc/hostname').read()\nexcept OSError:\n    pass\nelse:\n"
            f"    sys.exit(3 if {landlock} else 0)\n"
            "import socket\ntry:\n    socket.socket(socket.AF_INET, socket.SOCK_DGRAM)\nexcept OSError:\n    pass\n"
            f"else:\n    sys.exit(4 if {seccomp} else 0)\n"
        )
        return _runs([str(exe), "-I", "-S", "-c", script, str(INSIDE), str(prefix), home])


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
    bwrap = shutil.which("bwrap")
    if bwrap and settings.isolation == "auto":
        py = _python_in_bwrap()
        if root and _runs([*_bwrap_prefix(bwrap, False), py, "-I", "-S", "-c",
                           "import os; os.setresuid(65534, 65534, 65534)"]):
            return Isolation("bwrap", bwrap=True, uids=True, **layers)
        if not root and _runs([*_bwrap_prefix(bwrap, True), py, "-I", "-S", "-c", "pass"]):
            return Isolation("bwrap", bwrap=True, user_namespace=True, **layers)
    if abi:
        return Isolation("landlock", uids=uids, **layers)
    return Isolation("rlimits", uids=uids and settings.isolation != "rlimits")


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


def worker_command(slot: int) -> tuple[list[str], str | None]:
    """The command that starts one pre-forked worker, and the host scratch dir it uses (None inside bwrap)."""
    level = isolation()
    if level.uids:
        uid_base = _UID_BASE + (os.getpid() % 60_000) * 32 + slot * _SLOT_UIDS
        uids = [str(uid_base), str(uid_base + 1)]
    else:
        uids = ["-", "-"]
    exe, prefix = base_python()
    # Inside bwrap the Python install and the harness are mounted at /opt, and the run dir is a capped tmpfs;
    # outside, they are where they are, and the worker watches the run dir's size on the host's disk instead.
    python, harness = ("/opt/python", "/opt/sandbox") if level.bwrap else (str(prefix), str(INSIDE))
    plan = json.dumps({"landlock": bool(level.landlock_abi), "seccomp": level.seccomp, "watch_disk": not level.bwrap,
                       "read_only": ["/usr", "/lib", "/lib64", "/lib32", "/bin", python, harness]})
    if level.bwrap:
        cmd = [*_bwrap_prefix(shutil.which("bwrap") or "bwrap", level.user_namespace), _python_in_bwrap(),
               "-I", "-S", "-B", f"{harness}/worker.py", *uids, "/tmp/runs", plan]
        return cmd, None
    scratch = tempfile.mkdtemp(prefix="sandbox-")
    os.chmod(scratch, 0o755)
    return [str(exe), "-I", "-S", "-B", f"{harness}/worker.py", *uids, scratch + "/runs", plan], scratch
