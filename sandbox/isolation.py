"""The isolation policy: what this machine allows, probed once, and the command that starts a worker in it.

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
from sandbox.packages import package_paths
from sandbox.settings import LEVELS, sandbox_settings

INSIDE = Path(__file__).resolve().parent / "inside"
_SLOT_UIDS = 2  # one uid for the code, one for the tests
_UID_BASE = 100_000  # the sandbox's uids: 100000 and up, 32 per process, apart from any real account
PACKAGES_IN_BWRAP = "/opt/packages"
# One thread per numerical library in every child: RLIMIT_NPROC counts threads, OpenBLAS would start one per
# core at numpy's import, and threads do not survive the worker's fork (a pre-imported numpy must hold none).
THREAD_ENV = {name: "1" for name in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS",
                                     "NUMEXPR_NUM_THREADS", "VECLIB_MAXIMUM_THREADS")}


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
    unreadable_packages: tuple[str, ...] = ()  # allow-listed packages the sandbox's own uids cannot read

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
        """What an operator must know when the isolation is below bubblewrap's (or packages cannot be read), else
        None."""
        parts = [text for text in (self._level_warning(), self._packages_warning()) if text]
        return " ".join(parts) or None

    def _packages_warning(self) -> str | None:
        if not self.unreadable_packages:
            return None
        return (f"SANDBOX_PACKAGES: {', '.join(self.unreadable_packages)} cannot be read by the sandbox's "
                "unprivileged uids, so code that imports them fails: make them readable by others "
                "(chmod -R o+rX on the folder) or install them where others can read them.")

    def _level_warning(self) -> str | None:
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


def _bwrap_prefix(bwrap: str, user_namespace: bool, packages: tuple[Path, ...] = ()) -> list[str]:
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
    args += ["--perms", "0755", "--dir", "/opt", "--ro-bind", str(prefix), "/opt/python",
             "--ro-bind", str(INSIDE), "/opt/sandbox"]
    if packages:
        args += ["--perms", "0755", "--dir", PACKAGES_IN_BWRAP]
        for path in _by_name(packages).values():
            args += ["--ro-bind", str(path), f"{PACKAGES_IN_BWRAP}/{path.name}"]
    return args + [
        "--proc", "/proc", "--dev", "/dev",
        "--perms", "0755", "--size", str(256 << 20), "--tmpfs", "/tmp",
        "--clearenv", "--setenv", "PATH", "/usr/bin:/bin", "--setenv", "LANG", "C.UTF-8",
        "--chdir", "/tmp",
    ]


def _by_name(packages: tuple[Path, ...]) -> dict[str, Path]:
    """The package paths by the name they take on sys.path (the first of two folders of one name wins)."""
    named: dict[str, Path] = {}
    for path in packages:
        named.setdefault(path.name, path)
    return named


def _link_packages(scratch: str, packages: tuple[Path, ...]) -> str:
    """Outside bubblewrap: one folder of links to the allow-listed packages, put on the children's sys.path in
    place of site-packages (whose other packages must stay out of reach)."""
    folder = os.path.join(scratch, "packages")
    os.makedirs(folder, mode=0o755, exist_ok=True)
    for name, path in _by_name(packages).items():
        os.symlink(path, os.path.join(folder, name))
    return folder


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
    packages = package_paths(settings.packages)
    bwrap = shutil.which("bwrap")
    if bwrap and settings.isolation == "auto":
        py = _python_in_bwrap()
        if root and _runs([*_bwrap_prefix(bwrap, False), py, "-I", "-S", "-c",
                           "import os; os.setresuid(65534, 65534, 65534)"]):
            # Bound into the sandbox, a package needs only its own folder to be readable by others.
            return Isolation("bwrap", bwrap=True, uids=True, **layers,
                             unreadable_packages=_unreadable(packages, through_parents=False))
        if not root and _runs([*_bwrap_prefix(bwrap, True), py, "-I", "-S", "-c", "pass"]):
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


def worker_command(slot: int, preload: bool = True) -> tuple[list[str], str | None]:
    """The command that starts one pre-forked worker, and the host scratch dir it uses (None inside bwrap).

    preload: the worker imports the allow-listed packages once, before it reads any code, so that each run's
    children start with them loaded (`python -m measure sandbox --numpy` measures both ways)."""
    level = isolation()
    names = sandbox_settings().packages
    packages = package_paths(names)
    if level.uids:
        uid_base = _UID_BASE + (os.getpid() % 60_000) * 32 + slot * _SLOT_UIDS
        uids = [str(uid_base), str(uid_base + 1)]
    else:
        uids = ["-", "-"]
    exe, prefix = base_python()
    # Inside bwrap the Python install and the harness are mounted at /opt, and the run dir is a capped tmpfs;
    # outside, they are where they are, and the worker watches the run dir's size on the host's disk instead.
    python, harness = ("/opt/python", "/opt/sandbox") if level.bwrap else (str(prefix), str(INSIDE))
    scratch = None if level.bwrap else tempfile.mkdtemp(prefix="sandbox-")
    read_only = ["/usr", "/lib", "/lib64", "/lib32", "/bin", python, harness]
    package_dirs = []
    if packages and level.bwrap:
        package_dirs = [PACKAGES_IN_BWRAP]
        read_only += package_dirs
    elif packages:  # the links' folder, and what they point to (Landlock checks the real path a link leads to)
        package_dirs = [_link_packages(scratch, packages)]
        read_only += [*package_dirs, *map(str, packages)]
    plan = json.dumps({"landlock": bool(level.landlock_abi), "seccomp": level.seccomp, "watch_disk": not level.bwrap,
                       "read_only": read_only, "sys_path": package_dirs, "env": THREAD_ENV,
                       "preload": list(names) if preload and packages else []})
    if level.bwrap:
        cmd = [*_bwrap_prefix(shutil.which("bwrap") or "bwrap", level.user_namespace, packages), _python_in_bwrap(),
               "-I", "-S", "-B", f"{harness}/worker.py", *uids, "/tmp/runs", plan]
        return cmd, None
    os.chmod(scratch, 0o755)
    return [str(exe), "-I", "-S", "-B", f"{harness}/worker.py", *uids, scratch + "/runs", plan], scratch
