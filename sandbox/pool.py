"""Host side of the sandbox: starts pre-forked workers inside bubblewrap and talks to them.

A worker serves one run at a time; the pool keeps up to ``SANDBOX_WORKERS`` of them so that
many threads can run code at once. Workers start once (about 100 ms inside bwrap) and then cost
a couple of forks per run.
"""

from __future__ import annotations

import atexit
import functools
import json
import os
import queue
import selectors
import shutil
import stat
import struct
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path

INSIDE = Path(__file__).resolve().parent / "inside"
_SLOT_UIDS = 2  # one uid for the code, one for the tests


class WorkerBroken(Exception):
    """The worker died or went out of step; the pool replaces it."""


@dataclass
class RawRun:
    """What came back from one run, before it is judged."""

    events: list[dict] = field(default_factory=list)
    stdout: bytearray = field(default_factory=bytearray)
    stderr: bytearray = field(default_factory=bytearray)
    stdout_truncated: bool = False
    stderr_truncated: bool = False
    summary: dict = field(default_factory=dict)


def _base_python() -> tuple[Path, Path]:
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


@functools.lru_cache(maxsize=1)
def isolation_level() -> str:
    """The strongest isolation this machine allows, probed once per process."""
    if os.environ.get("SANDBOX_ISOLATION") == "rlimits":
        return "rlimits"
    bwrap = shutil.which("bwrap")
    if bwrap and os.geteuid() == 0:
        probe = subprocess.run([*_bwrap_prefix(bwrap), "/opt/python/bin/" + _base_python()[0].name,
                                "-I", "-S", "-c", "import os; os.setresuid(65534, 65534, 65534)"],
                               env={}, capture_output=True, timeout=30)
        if probe.returncode == 0:
            return "bwrap(mount,net,pid,ipc)+uid+rlimits"
    if os.geteuid() == 0 and _world_readable(_base_python()[0]):
        return "uid+rlimits"
    return "rlimits"


def _bwrap_prefix(bwrap: str) -> list[str]:
    exe, prefix = _base_python()
    # No --die-with-parent: it fires when the *thread* that started bwrap ends, and pools are shared
    # across threads. A worker ends instead when its stdin closes, which the host's death also does.
    args = [bwrap, "--unshare-net", "--unshare-pid", "--unshare-ipc",
            "--unshare-uts", "--unshare-cgroup-try", "--ro-bind", "/usr", "/usr"]
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


class Worker:
    """One pre-forked worker process and its pipes."""

    def __init__(self, slot: int) -> None:
        level = isolation_level()
        uid_base = 100_000 + (os.getpid() % 60_000) * 32 + slot * _SLOT_UIDS
        uids = [str(uid_base), str(uid_base + 1)] if "uid" in level else ["-", "-"]
        exe, prefix = _base_python()
        self._scratch = None
        if level.startswith("bwrap"):
            py = "/opt/python/" + str(exe.relative_to(prefix))
            cmd = [*_bwrap_prefix(shutil.which("bwrap") or "bwrap"), py, "-I", "-S", "-B",
                   "/opt/sandbox/worker.py", *uids, "/tmp/runs"]
        else:
            self._scratch = tempfile.mkdtemp(prefix="sandbox-")
            os.chmod(self._scratch, 0o755)
            cmd = [str(exe), "-I", "-S", "-B", str(INSIDE / "worker.py"), *uids, self._scratch + "/runs"]
        debug = os.environ.get("SANDBOX_DEBUG")
        self.proc = subprocess.Popen(cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     stderr=None if debug else subprocess.DEVNULL, env={},
                                     start_new_session=True)

    def run(self, header: dict, code: bytes, tests: bytes, keep_output: int) -> RawRun:
        """Send one request and read frames until the worker's summary; raises WorkerBroken."""
        head = json.dumps(header).encode()
        try:
            self.proc.stdin.write(struct.pack("<I", len(head)) + head + code + tests)
            self.proc.stdin.flush()
        except OSError as exc:
            raise WorkerBroken(f"worker stdin: {exc}") from exc
        raw, report = RawRun(), bytearray()
        deadline = time.monotonic() + header["limits"]["timeout_s"] + 15
        fd = self.proc.stdout.fileno()
        with selectors.DefaultSelector() as selector:
            selector.register(fd, selectors.EVENT_READ)
            reader = _FrameReader(fd)
            while True:
                if not selector.select(max(0.0, deadline - time.monotonic())):
                    raise WorkerBroken("worker did not answer in time")
                for kind, payload in reader.feed():
                    if kind == b"R":
                        report += payload
                    elif kind in (b"O", b"E"):
                        name = "stdout" if kind == b"O" else "stderr"
                        buffer = getattr(raw, name)
                        room = keep_output - len(buffer)
                        buffer += payload[:max(room, 0)]
                        if len(payload) > room:
                            setattr(raw, f"{name}_truncated", True)
                    elif kind == b"D":
                        raw.summary = json.loads(payload)
                        raw.events = [json.loads(line) for line in report.splitlines() if line.strip()]
                        return raw

    def close(self) -> None:
        """Stop the worker (its bwrap takes every process of the sandbox with it)."""
        try:
            self.proc.kill()
            self.proc.wait(timeout=5)
        except (OSError, subprocess.TimeoutExpired):
            pass
        for stream in (self.proc.stdin, self.proc.stdout):
            try:
                stream.close()
            except OSError:
                pass
        if self._scratch:
            shutil.rmtree(self._scratch, ignore_errors=True)


class _FrameReader:
    def __init__(self, fd: int) -> None:
        self.fd, self.buffer = fd, bytearray()

    def feed(self) -> list[tuple[bytes, bytes]]:
        chunk = os.read(self.fd, 1 << 16)
        if not chunk:
            raise WorkerBroken("worker exited")
        self.buffer += chunk
        frames = []
        while len(self.buffer) >= 5:
            (size,) = struct.unpack("<I", self.buffer[1:5])
            if len(self.buffer) < 5 + size:
                break
            frames.append((bytes(self.buffer[:1]), bytes(self.buffer[5:5 + size])))
            del self.buffer[:5 + size]
        return frames


class WorkerPool:
    """Hands each calling thread a worker of its own; grows on demand up to max_workers."""

    def __init__(self, max_workers: int) -> None:
        self._idle: queue.SimpleQueue[Worker] = queue.SimpleQueue()
        self._slots: queue.SimpleQueue[int] = queue.SimpleQueue()
        for slot in range(max_workers):
            self._slots.put(slot)
        self._all: dict[int, Worker] = {}
        self._lock = threading.Lock()
        self._available = threading.Semaphore(max_workers)

    def run(self, header: dict, code: bytes, tests: bytes, keep_output: int) -> RawRun:
        """Run one request on a free worker; a broken worker is replaced and the run tried once more."""
        with self._available:
            while True:
                worker, fresh = self._take()
                try:
                    raw = worker.run(header, code, tests, keep_output)
                except WorkerBroken:
                    self._discard(worker)
                    if fresh:
                        raise
                    continue  # an idle worker that died meanwhile: take another
                if any(e.get("ev") == "tests_read" for e in raw.events) or not tests:
                    self._idle.put(worker)
                else:
                    self._discard(worker)  # its stdin still holds unread test bytes
                return raw

    def _take(self) -> tuple[Worker, bool]:
        try:
            return self._idle.get_nowait(), False
        except queue.Empty:
            slot = self._slots.get_nowait()
            worker = Worker(slot)
            worker.slot = slot
            with self._lock:
                self._all[slot] = worker
            return worker, True

    def _discard(self, worker: Worker) -> None:
        worker.close()
        with self._lock:
            self._all.pop(worker.slot, None)
        self._slots.put(worker.slot)

    def close(self) -> None:
        """Stop every worker."""
        with self._lock:
            workers = list(self._all.values())
            self._all.clear()
        for worker in workers:
            worker.close()


_pool: WorkerPool | None = None
_pool_lock = threading.Lock()


def default_pool() -> WorkerPool:
    """The process-wide pool, created on first use and closed at exit."""
    global _pool
    with _pool_lock:
        if _pool is None:
            _pool = WorkerPool(int(os.environ.get("SANDBOX_WORKERS", "8")))
            atexit.register(_pool.close)
        return _pool
