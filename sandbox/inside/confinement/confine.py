"""Kernel confinement of one sandboxed process, as its Policy says: rlimits, Landlock (files, TCP, signals) and a
seccomp filter. The rules themselves (which paths, which calls, which limits) are the policy's (sandbox.host_policy
writes them); this file only knows how to ask the kernel for them.

Runs in the worker's children before any untrusted byte. Landlock and seccomp are raw
syscalls through ctypes: this file runs under ``python -I -S`` inside the sandbox, where no
site-packages (and so no PyPI binding) exists. Both are irrevocable once set with no_new_privs,
and both survive fork and exec, so whatever the code starts stays confined.

Landlock: the process may read and execute only the policy's readable paths, may read and write only
its writable paths (its own home) and devices, and, where the kernel's ABI knows them, may not connect
or bind TCP, nor signal or reach abstract UNIX sockets of processes outside its own domain (the test
process, the worker, the app). seccomp: the policy's denied calls fail with EACCES; calls through
another architecture's ABI (x32, i386 on x86_64), which would dodge the numbers below, are killed.
"""

from __future__ import annotations

import ctypes
import os
import platform
import resource
import struct
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # the worker passes the value; this file is also imported on the host, where policy is not
    from sandbox.inside.confinement.policy import Policy, Rlimit

_libc = ctypes.CDLL(None, use_errno=True)
_libc.syscall.restype = ctypes.c_long

# The Landlock syscalls have one number on every architecture.
_CREATE_RULESET, _ADD_RULE, _RESTRICT_SELF = 444, 445, 446
_CREATE_RULESET_VERSION = 1
_RULE_PATH_BENEATH = 1

# Filesystem rights by the ABI version that introduced them.
_FS_V1 = (1 << 13) - 1  # execute .. make_sym
_FS_REFER, _FS_TRUNCATE, _FS_IOCTL_DEV = 1 << 13, 1 << 14, 1 << 15
_FILE_RIGHTS = 1 | 2 | 4 | _FS_TRUNCATE | _FS_IOCTL_DEV  # execute, write, read, truncate, ioctl
_READ_EXEC = 1 | 4 | 8  # execute, read_file, read_dir
_NET_TCP = 1 | 2  # bind, connect
_SCOPE_ALL = 1 | 2  # abstract unix sockets, signals


CONFINE_FAILED = 71  # the exit code of a child whose confinement the kernel refused, before it ran anything


class ConfineError(Exception):
    """The kernel refused a confinement the worker was told to apply: the run must not go on."""


def landlock_abi() -> int:
    """The kernel's Landlock ABI version, 0 when Landlock is absent or disabled."""
    version = _libc.syscall(_CREATE_RULESET, None, ctypes.c_size_t(0), ctypes.c_uint32(_CREATE_RULESET_VERSION))
    return max(int(version), 0)


def _handled_fs(abi: int) -> int:
    rights = _FS_V1
    if abi >= 2:
        rights |= _FS_REFER
    if abi >= 3:
        rights |= _FS_TRUNCATE
    if abi >= 5:
        rights |= _FS_IOCTL_DEV
    return rights


def _add_path(ruleset: int, path: str, access: int, handled: int) -> None:
    try:
        fd = os.open(path, os.O_PATH | os.O_CLOEXEC)
    except OSError:
        return  # a path this machine lacks (no /lib32): nothing to allow
    try:
        if not os.path.isdir(path):
            access &= _FILE_RIGHTS
        rule = struct.pack("=Qi", access & handled, fd)
        if _libc.syscall(_ADD_RULE, ruleset, _RULE_PATH_BENEATH, ctypes.c_char_p(rule), 0) != 0:
            raise ConfineError(f"landlock_add_rule({path}): errno {ctypes.get_errno()}")
    finally:
        os.close(fd)


def landlock(read_only: list[str], read_write: list[str]) -> int:
    """Confine this process with Landlock; returns the ABI used. Needs no_new_privs set first."""
    abi = landlock_abi()
    if abi < 1:
        raise ConfineError("Landlock is not available in this kernel")
    handled = _handled_fs(abi)
    attr = struct.pack("=QQQ", handled, _NET_TCP if abi >= 4 else 0, _SCOPE_ALL if abi >= 6 else 0)
    size = 8 if abi < 4 else 16 if abi < 6 else 24
    ruleset = _libc.syscall(_CREATE_RULESET, ctypes.c_char_p(attr[:size]), ctypes.c_size_t(size), 0)
    if ruleset < 0:
        raise ConfineError(f"landlock_create_ruleset: errno {ctypes.get_errno()}")
    try:
        for path in read_only:
            _add_path(ruleset, path, _READ_EXEC, handled)
        for path in read_write:
            _add_path(ruleset, path, handled, handled)
        if _libc.syscall(_RESTRICT_SELF, ruleset, 0) != 0:
            raise ConfineError(f"landlock_restrict_self: errno {ctypes.get_errno()}")
    finally:
        os.close(ruleset)
    return abi


# seccomp: classic BPF over struct seccomp_data {int nr; u32 arch; u64 ip; u64 args[6]}.
# The architectures the filter is written for: their audit number, and the numbers of the calls a policy may deny.
ARCHES = {"x86_64": (0xC000003E, {"socket": 41, "io_uring_setup": 425}),
           "aarch64": (0xC00000B7, {"socket": 198, "io_uring_setup": 425})}
_LD_W_ABS, _JEQ_K, _JGE_K, _RET_K = 0x20, 0x15, 0x35, 0x06
_RET_ALLOW, _RET_KILL_PROCESS, _RET_ERRNO = 0x7FFF0000, 0x80000000, 0x00050000
_EACCES = 13
_PR_SET_SECCOMP, _SECCOMP_MODE_FILTER = 22, 2


def seccomp_supported() -> bool:
    """Is there a filter for this machine's architecture?"""
    return platform.machine() in ARCHES


def _insn(code: int, jt: int, jf: int, k: int) -> bytes:
    return struct.pack("=HBBI", code, jt, jf, k)


def seccomp_filter(denied: tuple[str, ...]) -> bytes:
    """The BPF program: other architectures and x32 calls are killed; the denied calls fail with EACCES."""
    arch, numbers = ARCHES[platform.machine()]
    unknown = [name for name in denied if name not in numbers]
    if unknown:  # a rule this file cannot enforce must not pass for enforced
        raise ConfineError(f"seccomp: no syscall number for {', '.join(unknown)} on {platform.machine()}")
    program = [
        _insn(_LD_W_ABS, 0, 0, 4),  # arch
        _insn(_JEQ_K, 1, 0, arch),
        _insn(_RET_K, 0, 0, _RET_KILL_PROCESS),
        _insn(_LD_W_ABS, 0, 0, 0),  # syscall number
        _insn(_JGE_K, 0, 1, 0x40000000),  # x32 ABI numbers on x86_64
        _insn(_RET_K, 0, 0, _RET_KILL_PROCESS),
    ]
    for name in denied:
        program += [_insn(_JEQ_K, 0, 1, numbers[name]), _insn(_RET_K, 0, 0, _RET_ERRNO | _EACCES)]
    program.append(_insn(_RET_K, 0, 0, _RET_ALLOW))
    return b"".join(program)


def seccomp(denied: tuple[str, ...]) -> None:
    """Install the filter on this process (and so on all it forks). Needs no_new_privs set first."""
    program = seccomp_filter(denied)
    buffer = ctypes.create_string_buffer(program)
    fprog = struct.pack("=HxxxxxxQ", len(program) // 8, ctypes.addressof(buffer))
    if _libc.prctl(_PR_SET_SECCOMP, _SECCOMP_MODE_FILTER, ctypes.c_char_p(fprog), 0, 0) != 0:
        raise ConfineError(f"seccomp: errno {ctypes.get_errno()}")


def set_rlimits(rules: tuple[Rlimit, ...], limits: dict) -> None:
    """Set each of the policy's resource limits, from the run's limits (sandbox.verdict.Limits.to_wire)."""
    for rule in rules:
        resource.setrlimit(getattr(resource, f"RLIMIT_{rule.resource}"), rule.values(limits))


def apply(policy: Policy, home: str) -> None:
    """Confine this process with the policy's Landlock and seccomp layers (those it turns on); home is the
    process's own folder. Needs no_new_privs set first; raises ConfineError."""
    if policy.landlock:
        landlock(list(policy.readable), policy.writable_for(home))
    if policy.seccomp:
        seccomp(policy.syscalls_denied)
