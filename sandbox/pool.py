"""Host side of the sandbox: starts pre-forked workers (in the isolation sandbox.isolation chose) and talks to them.

A worker serves one run at a time; the pool keeps up to ``SANDBOX_WORKERS`` of them so that
many threads can run code at once. Workers start once (about 100 ms inside bwrap) and then cost
a couple of forks per run.
"""

from __future__ import annotations

import atexit
import json
import os
import queue
import selectors
import shutil
import struct
import subprocess
import threading
import time
from dataclasses import dataclass, field

from sandbox.isolation import worker_command
from sandbox.settings import sandbox_settings


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


class Worker:
    """One pre-forked worker process and its pipes."""

    def __init__(self, slot: int, preload: bool = True) -> None:
        cmd, self._scratch = worker_command(slot, preload)
        self.proc = subprocess.Popen(cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     stderr=None if sandbox_settings().debug else subprocess.DEVNULL, env={},
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
    """Hands each calling thread a worker of its own; grows on demand up to max_workers.

    preload: workers pre-import the allow-listed packages (see sandbox.inside.worker). first_slot: where this
    pool's slots (and so its workers' uids) start, apart from another pool's in the same process."""

    def __init__(self, max_workers: int, preload: bool = True, first_slot: int = 0) -> None:
        self._idle: queue.SimpleQueue[Worker] = queue.SimpleQueue()
        self._slots: queue.SimpleQueue[int] = queue.SimpleQueue()
        self._preload = preload
        for slot in range(first_slot, first_slot + max_workers):
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
            worker = Worker(slot, self._preload)
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
            _pool = WorkerPool(sandbox_settings().workers)
            atexit.register(_pool.close)
        return _pool


def close_default_pool() -> None:
    """Stop the process-wide pool's workers now, if it was made: for a process about to leave without atexit
    (os._exit), whose workers would otherwise run on until they read the end of their stdin."""
    with _pool_lock:
        pool = _pool
    if pool is not None:
        pool.close()
