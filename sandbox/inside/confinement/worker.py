"""The pre-forked worker (zygote): one per concurrent run, started once, forks two processes a run.

Runs inside the sandbox's namespaces (started by sandbox.pool with ``python -I -S``, empty
environment). For each request it forks the candidate process (untrusted code) and the test
process, each under its own unprivileged uid with rlimits, in its own session and temp dir,
supervises them with a wall-clock deadline and an output cap, then kills every process of both
uids and removes their directories. It reads the code but never the tests: the test process
reads those straight from this worker's stdin, so no fork of this worker ever holds them.

Protocol on stdin: 4-byte length + JSON header, the code bytes, then the test bytes. On stdout,
frames (kind byte, 4-byte length, payload): R test-report bytes, O stdout, E stderr, then one D
with the worker's own summary (flags, exit codes, wall time).
"""

from __future__ import annotations

import ctypes
import dataclasses
import fcntl
import gc
import json
import os
import resource
import selectors
import shutil
import signal
import struct
import sys
import time

# -I leaves the script's folder out: the inside code's folders go on the path, one a job (rooms.py).
sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import rooms  # noqa: E402

sys.path[:1] = rooms.paths(sys.path[0])

import wire  # noqa: E402

# Imported once here so that every fork starts with them loaded (each import costs a run ms).
import candidate  # noqa: E402
import codec  # noqa: E402,F401
import names as _names  # noqa: E402,F401
import confine  # noqa: E402
import policy  # noqa: E402
import testrunner  # noqa: E402
import bisect, collections, copy, datetime, decimal, enum, fractions, functools  # noqa: E401,F401
import hashlib, heapq, inspect, itertools, logging, math, pathlib, random, re, statistics  # noqa: E401,F401
import string, typing, unittest, unittest.mock, warnings  # noqa: E401,F401
import refusals  # noqa: E402

refusals.name_what_is_denied()  # before any fork: both processes of every run

_libc = ctypes.CDLL(None, use_errno=True)
PR_SET_DUMPABLE, PR_SET_CHILD_SUBREAPER, PR_SET_NO_NEW_PRIVS = 4, 36, 38
RUN_ROOT = "/tmp/runs"
# Set by main from the host's policy (sandbox.host_policy): every rule a child is confined by, where the allow-listed
# packages are, which of them to import before any fork, and the children's environment. This file holds none.
POLICY = policy.Policy("unset")


def _become(uid: int | None, home: str, limits: dict, keep: dict[int, int]) -> None:
    """In a fresh child: new session, only the given fds (old -> new), limits, then drop to uid."""
    os.setsid()
    # Through high copies first, so that no target number clobbers a source still to be moved.
    high = {new: fcntl.fcntl(old, fcntl.F_DUPFD, 256) for new, old in keep.items()}
    for new, old in high.items():
        os.dup2(old, new)
    os.closerange(max(keep) + 1, resource.getrlimit(resource.RLIMIT_NOFILE)[0])
    os.chdir(policy.working_folder(home))
    # Neither process imports from the working directory: a module one side writes there (helpers.py, a
    # pytest.py or a csv.py shadowing the real one) is data to the other, never code it runs.
    run_root = os.path.dirname(home) + os.sep
    sys.path[:] = [path for path in sys.path if os.path.isabs(path) and not (path + os.sep).startswith(run_root)]
    os.environ.clear()
    # One temporary folder for both, as one process has: a file the tests make under tempfile.gettempdir() (a test
    # database) is the file the code opens by that path.
    os.environ.update({**dict(POLICY.env), "HOME": home, "TMPDIR": policy.temp_folder(home),
                       "SBX_SHARED": policy.shared_folder(home)})
    import tempfile

    tempfile.tempdir = None  # read TMPDIR again: the worker may have asked before the fork
    os.umask(0)  # what one process writes in the shared folder the other may change; homes are 0700 anyway
    confine.set_rlimits(POLICY.rlimits, limits)
    if uid is not None:
        os.setgroups([])
        os.setresgid(uid, uid, uid)
        os.setresuid(uid, uid, uid)
    _libc.prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0)
    # Not dumpable: no ptrace and no /proc/<pid>/mem for anyone else with the same uid.
    _libc.prctl(PR_SET_DUMPABLE, 0, 0, 0, 0)
    sys.stdout = open(1, "w", encoding="utf-8", errors="replace", closefd=False, buffering=1)
    sys.stderr = open(2, "w", encoding="utf-8", errors="replace", closefd=False, buffering=1)
    sys.stdin = open(os.devnull)
    try:
        confine.apply(POLICY, home)
    except (confine.ConfineError, OSError):
        os._exit(confine.CONFINE_FAILED)


def _fork(target, *args: object) -> int:
    pid = os.fork()
    if pid == 0:
        code = 0
        try:
            target(*args)
        except BaseException:
            code = 70
        finally:
            try:
                sys.stdout.flush()
                sys.stderr.flush()
            except BaseException:
                pass
            os._exit(code)
    return pid


def _descendants() -> list[int]:
    """Every process below this worker. As a child subreaper it inherits all orphans of its runs, so
    daemons and setsid escapers stay its descendants."""
    parents = {}
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                with open(f"/proc/{entry}/stat", "rb") as handle:
                    parents[int(entry)] = int(handle.read().rsplit(b")", 1)[1].split()[1])
            except (OSError, IndexError, ValueError):
                continue
    found, frontier = [], [os.getpid()]
    while frontier:
        parent = frontier.pop()
        children = [pid for pid, ppid in parents.items() if ppid == parent]
        found += children
        frontier += children
    return found


def _kill_uid(uid: int | None, pids: list[int]) -> None:
    """SIGKILL every process of uid (daemons, grandchildren, setsid escapers) or, without uids, every
    descendant of this worker."""
    for pid in pids:
        try:
            os.killpg(pid, signal.SIGKILL)
        except OSError:
            pass
    if uid is None:
        for pid in _descendants():
            try:
                os.kill(pid, signal.SIGKILL)
            except OSError:
                pass
        return
    pid = os.fork()
    if pid == 0:
        try:
            os.setresuid(uid, uid, uid)
            os.kill(-1, signal.SIGKILL)
        finally:
            os._exit(0)
    os.waitpid(pid, 0)


class Run:
    """One request: two children, their pipes and the deadline.

    Everything the children write is forwarded to the host as it arrives, through one reusable
    buffer that is zeroed after each chunk, so this process (whose memory every later fork
    inherits) keeps no trace of test reports or output: a candidate cannot dig up an earlier
    run's hidden-test failures from memory.
    """

    def __init__(self, header: dict, code: str, uids: tuple[int | None, int | None], out: int) -> None:
        self.header, self.code, self.uids, self.out = header, code, uids, out
        self.limits = header["limits"]
        self.output_total = 0
        self.flags: set[str] = set()
        self.exit: dict[str, int] = {}

    def _dirs(self) -> tuple[str, str]:
        dirs = []
        for role, uid in zip(("code", "tests"), self.uids):
            path = os.path.join(RUN_ROOT, role)
            shutil.rmtree(path, ignore_errors=True)
            os.makedirs(path, mode=0o700)
            if uid is not None:
                os.chown(path, uid, uid)
            dirs.append(path)
        # A test's tmp_path and both processes' working directory live here: both processes (two uids) read and
        # write it; their homes stay their own.
        shared = policy.shared_folder(dirs[0])
        shutil.rmtree(shared, ignore_errors=True)
        for path in (shared, policy.working_folder(dirs[0]), policy.temp_folder(dirs[0])):
            os.makedirs(path)
            os.chmod(path, 0o777)
        return dirs[0], dirs[1]

    def execute(self) -> None:
        code_dir, tests_dir = self._dirs()
        _reseed()
        req_r, req_w = os.pipe()
        resp_r, resp_w = os.pipe()
        rep_r, rep_w = os.pipe()
        out_r, out_w = os.pipe()
        err_r, err_w = os.pipe()
        null = os.open(os.devnull, os.O_RDWR)
        started = time.monotonic()
        c_pid = _fork(self._candidate, code_dir, {0: null, 1: out_w, 2: err_w, 3: req_r, 4: resp_w})
        t_pid = _fork(self._tests, tests_dir, {0: 0, 1: out_w, 2: err_w, 3: req_w, 4: resp_r, 5: rep_w})
        for fd in (req_r, req_w, resp_r, resp_w, rep_w, out_w, err_w, null):
            os.close(fd)
        self._supervise({rep_r: b"R", out_r: b"O", err_r: b"E"}, started + self.limits["timeout_s"])
        _kill_uid(self.uids[0], [c_pid])
        _kill_uid(self.uids[1], [t_pid])
        self._reap({c_pid: "code", t_pid: "tests"})
        for fd in (rep_r, out_r, err_r):
            os.close(fd)
        shutil.rmtree(RUN_ROOT, ignore_errors=True)
        summary = {"flags": sorted(self.flags), "exit": self.exit,
                   "wall_ms": round((time.monotonic() - started) * 1000, 3)}
        _frame(self.out, b"D", json.dumps(summary).encode())

    def _candidate(self, home: str, fds: dict[int, int]) -> None:
        _become(self.uids[0], home, self.limits, fds)
        sys.argv = list(RUN_ARGV)
        candidate.serve(self.code, 3, 4)

    def _tests(self, home: str, fds: dict[int, int]) -> None:
        _become(self.uids[1], home, self.limits, fds)
        sys.argv = list(RUN_ARGV)
        testrunner.run(self.header["tests_len"], self.header.get("entry_point"), 3, 4, 5)

    def _supervise(self, kinds: dict[int, bytes], deadline: float) -> None:
        """Forward output until the test process closes its report pipe, the deadline or the output cap."""
        selector = selectors.DefaultSelector()
        for fd, kind in kinds.items():
            selector.register(fd, selectors.EVENT_READ, kind)
        view = memoryview(_BUFFER)
        next_disk_check = 0.0
        while any(k.data == b"R" for k in selector.get_map().values()):
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                self.flags.add("timeout")
                break
            if POLICY.watch_disk and time.monotonic() >= next_disk_check:
                next_disk_check = time.monotonic() + 0.2
                if _disk_used(RUN_ROOT) > POLICY.disk_bytes:
                    self.flags.add("disk_limit")
                    break
            for key, _ in selector.select(min(remaining, 0.2) if POLICY.watch_disk else remaining):
                size = os.readv(key.fd, [_BUFFER])
                if not size:
                    selector.unregister(key.fd)
                    continue
                if key.data != b"R":
                    self.output_total += size
                _frame(self.out, key.data, view[:size])
                view[:size] = bytes(size)
            if self.output_total > self.limits["output_bytes"]:
                self.flags.add("output_limit")
                break
        selector.close()

    def _reap(self, roles: dict[int, str]) -> None:
        """Wait for every descendant (orphans come to us as subreaper); re-kill anything still alive."""
        while True:
            try:
                pid, status = os.waitpid(-1, os.WNOHANG)
            except ChildProcessError:
                return
            if pid == 0:
                time.sleep(0.0005)
                for uid in self.uids:
                    _kill_uid(uid, [])
                continue
            if pid in roles:
                self.exit[roles[pid]] = (
                    -os.WTERMSIG(status) if os.WIFSIGNALED(status) else os.WEXITSTATUS(status)
                )


_BUFFER = bytearray(65536)


def _reseed() -> None:
    """Fresh global random generators before each run's forks: both processes start from one state (random_sync
    keeps it one, as in a single process), and no run repeats an earlier run's draws."""
    random.seed()
    np_random = sys.modules.get("numpy.random")
    if np_random is not None:
        np_random.seed()


def _disk_used(root: str) -> int:
    """Bytes in files under root (a run's two homes); cheap enough to check five times a second."""
    total = 0
    for folder, _, files in os.walk(root):
        for name in files:
            try:
                total += os.lstat(os.path.join(folder, name)).st_blocks * 512
            except OSError:
                pass
    return total


def _frame(fd: int, kind: bytes, payload: bytes | memoryview) -> None:
    """One frame to the host: kind byte, 4-byte length, payload."""
    parts = [kind + struct.pack("<I", len(payload)), payload]
    total = 5 + len(payload)
    while total:
        written = os.writev(fd, parts)
        total -= written
        while parts and written >= len(parts[0]):
            written -= len(parts[0])
            parts.pop(0)
        if parts and written:
            parts[0] = memoryview(parts[0])[written:]


def _threads() -> int:
    try:
        return len(os.listdir("/proc/self/task"))
    except OSError:
        return 1


def _preload(names: list[str]) -> None:
    """Import the allow-listed packages once, so that every run's children start with them loaded.

    Safe because it happens before this worker reads any code or tests, in an empty environment: the
    modules' memory, which every child shares, holds nothing of any run. A fork copies only the thread
    that calls it, so a package that leaves a thread running (whose locks a child could inherit held) is
    not kept: the worker starts afresh without pre-imports, and each child imports what it uses."""
    for name in names:
        try:
            __import__(name)
        except Exception as exc:  # the children meet the same error when they import it, and report it
            print(f"sandbox worker: pre-import of {name} failed: {exc!r}", file=sys.stderr)
    if _threads() > 1:
        print(f"sandbox worker: pre-imports {names} started threads; starting again without them", file=sys.stderr)
        again = dataclasses.replace(POLICY, preload=()).to_json()
        os.execv(sys.executable, [sys.executable, "-I", "-S", "-B", os.path.abspath(__file__), *sys.argv[1:4], again])


# What both processes of a run see as sys.argv, as one process running the tests file would: not the worker's own
# (its run directory and the confinement policy are none of the code's business).
RUN_ARGV = ("tests.py",)


def main() -> None:
    """Serve runs until stdin closes or goes out of step.

    argv: code uid, tests uid ('-': none), run dir, the policy as JSON (sandbox.inside.confinement.policy)."""
    global RUN_ROOT, POLICY
    uids = tuple(None if a == "-" else int(a) for a in sys.argv[1:3])
    RUN_ROOT = sys.argv[3]
    POLICY = policy.from_json(sys.argv[4])
    # Before any package loads: a numerical library reads its thread count once, when it loads.
    os.environ.update(dict(POLICY.env))
    # After the standard library, so an allow-listed name can never shadow a standard module.
    sys.path.extend(POLICY.sys_path)
    _preload(list(POLICY.preload))
    # Everything loaded so far lives as long as the worker: out of the collector's reach, a child's full
    # collection neither walks it nor copies its pages on write (14 ms with numpy loaded; 3 ms frozen).
    gc.freeze()
    _libc.prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0)
    os.makedirs(RUN_ROOT, exist_ok=True)
    while True:
        try:
            (size,) = struct.unpack("<I", wire.read_exact(0, 4))
            header = json.loads(wire.read_exact(0, size))
            code = wire.read_exact(0, header["code_len"]).decode("utf-8", "replace")
        except (wire.ChannelClosed, ValueError, KeyError):
            return  # the host restarts a worker whose stdin is out of step
        Run(header, code, uids, 1).execute()


if __name__ == "__main__":
    main()
