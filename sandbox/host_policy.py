"""The sandbox's rules, written once: the Policy a worker applies, built for the isolation this machine gives.

sandbox.isolation probes which layers work here (bubblewrap, Landlock, seccomp, separate uids) and asks
build_policy for the Policy (sandbox.inside.confinement.policy) that follows from them; the worker applies it as it
comes (sandbox.inside.confinement.confine), and bubblewrap's command line is rendered from it here (bwrap_args);
describe_policy prints it for a reviewer (``python -m sandbox policy``); tests/test_deploy_files.py checks the Compose
seccomp profile against it.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

from sandbox.inside.confinement.policy import HOME, Mount, Policy, Rlimit
from sandbox.layers import Isolation
from sandbox.packages import package_paths

INSIDE = Path(__file__).resolve().parent / "inside"
WORKER = "confinement/worker.py"  # the worker, inside INSIDE (bound at /opt/sandbox)
PACKAGES_IN_BWRAP = "/opt/packages"
WORKER_SCRATCH = "<worker scratch>"  # a worker's own host folder outside bubblewrap, made when it starts
# A run's two homes together: the size of the tmpfs inside bubblewrap, watched on the host's disk outside it.
DISK_BYTES = 256 << 20
# One thread per numerical library in every child: RLIMIT_NPROC counts threads, OpenBLAS would start one per
# core at numpy's import, and threads do not survive the worker's fork (a pre-imported numpy must hold none).
THREAD_ENV = {name: "1" for name in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS",
                                     "NUMEXPR_NUM_THREADS", "VECLIB_MAXIMUM_THREADS")}
ENV = (("PATH", "/usr/bin:/bin"), ("LANG", "C.UTF-8"), *THREAD_ENV.items())
DEVICES = ("/dev/null", "/dev/zero", "/dev/urandom", "/dev/random")
# No new sockets of any family (UDP, raw, netlink, UNIX by path); no io_uring, whose requests could bypass
# the other rules on older kernels.
SYSCALLS_DENIED = ("socket", "io_uring_setup")
RLIMITS = (
    Rlimit("CPU", "cpu_s", grace=1, minimum=1),
    Rlimit("AS", "memory_bytes"),
    Rlimit("NPROC", "processes"),  # ignored for root: hence the separate uids where root is available
    Rlimit("FSIZE", "file_size_bytes"),
    Rlimit("NOFILE", "open_files"),
    Rlimit("CORE", value=0),
)
_SYSTEM_DIRS = ("/usr", "/lib", "/lib64", "/lib32", "/bin")  # read-only for the children at every level
_NAMESPACES = ("net", "pid", "ipc", "uts", "cgroup")
# What each layer calls, so what a container's seccomp profile must allow (tests/test_deploy_files.py).
_NEEDS = {
    "always": ("prctl", "prlimit64"),  # no_new_privs, not dumpable, subreaper; the rlimits
    "bwrap": ("clone", "clone3", "unshare", "mount", "umount2", "pivot_root"),
    "uids": ("setresuid", "setresgid", "setgroups"),
    "landlock": ("landlock_create_ruleset", "landlock_add_rule", "landlock_restrict_self"),
}


def base_python() -> tuple[Path, Path]:
    """The real interpreter binary (not the pyenv shim or venv link) and its installation prefix."""
    exe = Path(os.path.realpath(getattr(sys, "_base_executable", sys.executable)))
    return exe, Path(os.path.realpath(sys.base_prefix))


def packages_by_name(packages: tuple[Path, ...]) -> dict[str, Path]:
    """The package paths by the name they take on sys.path (the first of two folders of one name wins)."""
    named: dict[str, Path] = {}
    for path in packages:
        named.setdefault(path.name, path)
    return named


def build_policy(found: Isolation, names: tuple[str, ...], preload: bool = True,
                 scratch: str | None = None) -> Policy:
    """The Policy for a worker at the isolation found, offering the packages names (SANDBOX_PACKAGES).

    preload: the worker imports those packages once, before any run. scratch: outside bubblewrap, the worker's
    own host folder, where the packages' links are put (sandbox.isolation.worker_command makes them)."""
    packages = package_paths(names)
    _, prefix = base_python()
    needs = [*_NEEDS["always"]]
    if found.bwrap:
        python, harness = "/opt/python", "/opt/sandbox"
        sys_path = (PACKAGES_IN_BWRAP,) if packages else ()
        package_reads: tuple[str, ...] = sys_path
        needs += _NEEDS["bwrap"]
    else:
        python, harness = str(prefix), str(INSIDE)
        # The links' folder, and what they point to (Landlock checks the real path a link leads to).
        sys_path = (os.path.join(scratch or WORKER_SCRATCH, "packages"),) if packages else ()
        package_reads = (*sys_path, *map(str, packages)) if packages else ()
    if found.uids:
        needs += _NEEDS["uids"]
    if found.landlock_abi:
        needs += _NEEDS["landlock"]
    return Policy(
        level=found.level,
        namespaces=((("user",) if found.user_namespace else ()) + _NAMESPACES) if found.bwrap else (),
        mounts=_mounts(prefix, packages) if found.bwrap else (),
        separate_uids=found.uids,
        landlock=bool(found.landlock_abi),
        readable=(*_SYSTEM_DIRS, python, harness, *package_reads),
        writable=(HOME,),
        devices=DEVICES,
        seccomp=found.seccomp,
        syscalls_denied=SYSCALLS_DENIED if found.seccomp else (),
        syscalls_needed=tuple(dict.fromkeys(needs)),
        rlimits=RLIMITS,
        disk_bytes=DISK_BYTES,
        watch_disk=not found.bwrap,
        packages=names,
        sys_path=sys_path,
        preload=names if preload and packages else (),
        env=ENV,
        network=_network(found),
    )


def _network(found: Isolation) -> str:
    if found.bwrap:
        return "none (a network namespace of its own)"
    if found.seccomp:
        return "no new sockets (seccomp)" + (", no TCP (Landlock)" if found.landlock_abi >= 4 else "")
    if found.landlock_abi >= 4:
        return "no TCP (Landlock); other sockets open"
    return "the host's, unconfined"


def _mounts(prefix: Path, packages: tuple[Path, ...]) -> tuple[Mount, ...]:
    """bubblewrap's file system: the system's read-only folders, the Python install, the harness, the allowed
    packages one by one, and a capped tmpfs for the runs; nothing else of the host."""
    mounts = [Mount("ro-bind", "/usr", "/usr")]
    for name in ("bin", "sbin", "lib", "lib32", "lib64"):
        path = Path("/") / name
        if path.is_symlink():
            mounts.append(Mount("symlink", str(path), os.readlink(path)))
        elif path.is_dir():
            mounts.append(Mount("ro-bind", str(path), str(path)))
    mounts += [Mount("dir", "/opt", mode="0755"), Mount("ro-bind", "/opt/python", str(prefix)),
               Mount("ro-bind", "/opt/sandbox", str(INSIDE))]
    if packages:
        mounts.append(Mount("dir", PACKAGES_IN_BWRAP, mode="0755"))
        mounts += [Mount("ro-bind", f"{PACKAGES_IN_BWRAP}/{name}", str(path))
                   for name, path in packages_by_name(packages).items()]
    return (*mounts, Mount("proc", "/proc"), Mount("dev", "/dev"),
            Mount("tmpfs", "/tmp", mode="0755", size=DISK_BYTES))


def bwrap_args(policy: Policy, bwrap: str) -> list[str]:
    """bubblewrap's command line for the policy's namespaces, mounts and environment (the program follows)."""
    # No --die-with-parent: it fires when the *thread* that started bwrap ends, and pools are shared
    # across threads. A worker ends instead when its stdin closes, which the host's death also does.
    args = [bwrap]
    for namespace in policy.namespaces:
        if namespace == "user":  # and no user namespace nested inside it
            args += ["--unshare-user", "--disable-userns"]
        else:
            args.append("--unshare-cgroup-try" if namespace == "cgroup" else f"--unshare-{namespace}")
    for mount in policy.mounts:
        if mount.mode:
            args += ["--perms", mount.mode]
        if mount.size:
            args += ["--size", str(mount.size)]
        args += [f"--{mount.kind}", *([mount.source] if mount.source else []), mount.target]
    args.append("--clearenv")
    for name, value in policy.env:
        args += ["--setenv", name, value]
    return [*args, "--chdir", "/tmp"]


def python_in_bwrap() -> str:
    """The interpreter's path inside bubblewrap, where the Python install is bound at /opt/python."""
    exe, prefix = base_python()
    return "/opt/python/" + str(exe.relative_to(prefix))


def describe_policy(policy: Policy) -> str:
    """The policy as a reviewer reads it, one rule a line."""
    lines = [f"level: {policy.level}"]
    if policy.namespaces:
        lines.append("namespaces (bubblewrap): " + ", ".join(policy.namespaces))
        lines.append("file system (all the sandbox sees):")
        for mount in policy.mounts:
            source = f" {'->' if mount.kind == 'symlink' else '<-'} {mount.source}" if mount.source else ""
            extra = "".join([f" mode {mount.mode}" if mount.mode else "",
                             f" size {mount.size >> 20} MiB" if mount.size else ""])
            lines.append(f"  {mount.kind:8} {mount.target}{source}{extra}")
    else:
        lines.append("namespaces: none (the children see the host's file system, processes and network, "
                     "within the layers below)")
    lines.append("uids: " + ("the code and the tests as two unprivileged uids of their own" if policy.separate_uids
                             else "the app's own user"))
    if policy.landlock:
        lines.append("landlock: read and execute only " + ", ".join(policy.readable))
        lines.append("landlock: read and write only " + ", ".join(
            "its own home" if path == HOME else path for path in (*policy.writable, *policy.devices)))
    else:
        lines.append("landlock: off (files: whatever the uid and the namespaces allow)")
    lines.append("seccomp: " + (", ".join(policy.syscalls_denied) + " fail with EACCES; other ABIs killed"
                                if policy.seccomp else "off"))
    lines.append("the host must allow: " + ", ".join(policy.syscalls_needed))
    lines.append("rlimits: " + ", ".join(_describe_rlimit(rule) for rule in policy.rlimits))
    lines.append(f"disk: {policy.disk_bytes >> 20} MiB per run, "
                 + ("watched on the host's disk" if policy.watch_disk else "a tmpfs of that size"))
    lines.append("network: " + policy.network)
    lines.append("packages: the standard library" + "".join(f", {name}" for name in policy.packages)
                 + (f" (at {', '.join(policy.sys_path)})" if policy.sys_path else "")
                 + (f"; preloaded: {', '.join(policy.preload)}" if policy.preload else ""))
    lines.append("environment: " + " ".join(f"{name}={value}" for name, value in policy.env) + " HOME TMPDIR")
    return "\n".join(lines)


def _describe_rlimit(rule: Rlimit) -> str:
    value = rule.limit or str(rule.value)
    return f"{rule.resource}={value}" + (f" (+{rule.grace} hard)" if rule.grace else "")
