"""The sandbox's policy as one value: what a run's processes may see, read, write, call and use.

Built on the host by sandbox.host_policy (from what sandbox.isolation found this machine allows), sent to each
worker as JSON on its command line, and applied there by confine.py, which holds no rule of its own. One
value, so that what the sandbox allows can be read (``python -m sandbox policy``) and checked (the Compose
seccomp profile is tested against it) in one place.

Runs inside the sandbox too (stdlib only, under ``python -I -S``): the worker rebuilds the value with
from_json.
"""

from __future__ import annotations

import json
import os
from dataclasses import asdict, dataclass, fields

HOME = "~"  # in Policy.writable: the child's own home (one per run and role, made by the worker)


@dataclass(frozen=True)
class Mount:
    """One entry of bubblewrap's file system, in order: what the sandbox sees at target."""

    kind: str  # ro-bind (source shown read-only at target) | symlink (target -> source) | dir | proc | dev | tmpfs
    target: str
    source: str = ""
    mode: str = ""  # permissions of a dir or tmpfs, octal
    size: int = 0  # a tmpfs's cap in bytes


@dataclass(frozen=True)
class Rlimit:
    """One resource limit of every child: soft = the run's Limits field (or value), hard = soft + grace."""

    resource: str  # the name after RLIMIT_: CPU, AS, NPROC, FSIZE, NOFILE, CORE
    limit: str = ""  # the Limits field that sets it per run; empty: value
    value: int = 0
    grace: int = 0  # CPU: SIGXCPU at the soft limit, SIGKILL a second later
    minimum: int = 0

    def values(self, limits: dict) -> tuple[int, int]:
        """(soft, hard) for a run with these limits (sandbox.verdict.Limits.to_wire)."""
        soft = max(self.minimum, int(limits[self.limit] if self.limit else self.value))
        return soft, soft + self.grace


@dataclass(frozen=True)
class Policy:
    """Everything that confines a run, at the isolation level this machine gives (sandbox.isolation)."""

    level: str  # bwrap | landlock | rlimits
    # bubblewrap: the namespaces each worker gets, and its whole file system (empty: no bubblewrap)
    namespaces: tuple[str, ...] = ()
    mounts: tuple[Mount, ...] = ()
    separate_uids: bool = False  # the code and the tests run as two unprivileged uids of their own
    # Landlock (when on): children read and execute only readable, read and write only writable and devices;
    # where the kernel's ABI allows, they also cannot bind or connect TCP, nor signal or reach abstract UNIX
    # sockets outside their own domain.
    landlock: bool = False
    readable: tuple[str, ...] = ()
    writable: tuple[str, ...] = (HOME,)
    devices: tuple[str, ...] = ()
    # seccomp (when on): these calls fail with EACCES; calls through another architecture's ABI are killed.
    seccomp: bool = False
    syscalls_denied: tuple[str, ...] = ()
    # What the host (a container's seccomp profile) must allow for the layers above to be set up.
    syscalls_needed: tuple[str, ...] = ()
    rlimits: tuple[Rlimit, ...] = ()
    disk_bytes: int = 0  # a run's two homes together: a tmpfs's size inside bubblewrap, else watched
    watch_disk: bool = True  # the worker measures the run dir on the host's disk (no tmpfs caps it)
    packages: tuple[str, ...] = ()  # SANDBOX_PACKAGES: top-level names importable beyond the standard library
    sys_path: tuple[str, ...] = ()  # where those packages appear, after the standard library
    preload: tuple[str, ...] = ()  # imported by the worker once, before any run
    env: tuple[tuple[str, str], ...] = ()  # the children's environment, besides HOME and TMPDIR
    network: str = "the host's"  # what the layers above leave of it, said for the reader

    def writable_for(self, home: str) -> list[str]:
        """The paths a child whose own folder is home may read and write: writable (its home standing for itself
        and the run's shared folder beside it, tmp_path's), then the devices."""
        paths = []
        for path in self.writable:
            paths += [home, shared_folder(home)] if path == HOME else [path]
        return paths + list(self.devices)

    def to_json(self) -> str:
        """The policy as the worker reads it (from_json)."""
        return json.dumps(asdict(self))


def shared_folder(home: str) -> str:
    """The run's folder that both its processes may use (a test's tmp_path), beside their homes."""
    return os.path.join(os.path.dirname(home), "shared")


def working_folder(home: str) -> str:
    """The working directory of both of a run's processes, in the shared folder: a file one of them writes by a
    relative name (open('data.csv', 'w'), sqlite3.connect('test.db')) is the file the other reads by that name."""
    return os.path.join(shared_folder(home), "work")


def temp_folder(home: str) -> str:
    """The temporary folder of both of a run's processes (TMPDIR), in the shared folder beside the working one."""
    return os.path.join(shared_folder(home), "tmp")


def from_json(text: str) -> Policy:
    """The Policy that to_json wrote."""
    data = json.loads(text)
    nested = {"mounts": Mount, "rlimits": Rlimit}
    values = {}
    for item in fields(Policy):
        if item.name not in data:
            continue
        value = data[item.name]
        if item.name in nested:
            value = tuple(nested[item.name](**entry) for entry in value)
        elif isinstance(value, list):
            value = tuple(tuple(entry) if isinstance(entry, list) else entry for entry in value)
        values[item.name] = value
    return Policy(**values)
