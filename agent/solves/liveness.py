"""Who owns a running solve or bench run, and whether that owner is still alive.

A process id is not an owner: ids are reused after a restart and mean nothing on another machine
that shares the database. Each process therefore gets a token of its own (host, pid and a random
part), stamps it on the rows it runs, and refreshes a heartbeat on them while it works. A row
marked running whose heartbeat has gone stale belongs to a dead process: callers show it as
``interrupted`` and offer to carry it on.
"""

from __future__ import annotations

import contextlib
import functools
import os
import socket
import sqlite3
import threading
import time
import uuid
from collections import Counter
from collections.abc import Iterator
from pathlib import Path

HEARTBEAT_S = 5.0
# Six missed beats: a busy machine (a model decoding on every core) still beats well within it.
STALE_AFTER_S = 30.0


def _read(path: str) -> str:
    try:
        with open(path) as handle:
            return handle.read().strip()
    except OSError:
        return "?"


@functools.lru_cache(maxsize=1)
def _machine() -> str:
    """This kernel boot and pid namespace: where a process id means the same process."""
    return _read("/proc/sys/kernel/random/boot_id")[:8] + "/" + os.readlink("/proc/self/ns/pid").strip("pid:[]")


def _started(pid: int) -> str:
    """The process's start time in clock ticks since boot, which a reused pid does not share."""
    stat = _read(f"/proc/{pid}/stat")
    return stat.rsplit(")", 1)[-1].split()[19] if ")" in stat else "gone"


def _new_token() -> str:
    return f"{socket.gethostname()}|{_machine()}|{os.getpid()}|{_started(os.getpid())}|{uuid.uuid4().hex[:8]}"


_token, _token_pid = _new_token(), os.getpid()


def process_token() -> str:
    """This process's owner token: host, boot and pid namespace, pid, start time, a random part.

    A forked child gets a token of its own."""
    global _token, _token_pid
    if _token_pid != os.getpid():
        _token, _token_pid = _new_token(), os.getpid()
    return _token


def owner_alive(key: str, owner: str | None, heartbeat: float | None, *, now: float | None = None) -> bool:
    """Is the process that stamped this row (key, owner, heartbeat) still working on it?

    This process's own rows are alive while it keeps them (see ``keep_alive``) or was just stamped. A process of this
    machine is alive while that very process exists (pid and start time match), which shows a
    kill at once; and while it beats, which catches an owner that lost the row without saying so.
    Owners on other machines are alive while their heartbeat is fresh.
    """
    if not owner:
        return False
    fresh = heartbeat is not None and (now or time.time()) - heartbeat < STALE_AFTER_S
    if owner == process_token():
        return holds(key) or fresh  # fresh: claimed a moment ago, its stream not started yet
    parts = owner.split("|")
    if len(parts) == 5 and parts[1] == _machine():
        return fresh and parts[2].isdigit() and _started(int(parts[2])) == parts[3]
    return fresh


_held: Counter[str] = Counter()  # keys of the rows this process keeps alive now (a key may be kept twice)
_held_lock = threading.Lock()


@contextlib.contextmanager
def keep_alive(db_path: Path, table: str, key_column: str, key: str) -> Iterator[str]:
    """Stamp the row with this process's token and refresh its heartbeat until the block ends.

    The table must have ``owner TEXT`` and ``heartbeat REAL`` columns. Yields the token.
    """
    token = process_token()
    _beat(db_path, table, key_column, key, token, claim=True)
    done = threading.Event()

    def beat() -> None:
        while not done.wait(HEARTBEAT_S):
            try:
                _beat(db_path, table, key_column, key, token)
            except sqlite3.Error:
                pass  # a locked or busy database: the next beat tries again well before the row goes stale

    thread = threading.Thread(target=beat, name=f"heartbeat-{key}", daemon=True)
    with _held_lock:
        _held[key] += 1
    thread.start()
    try:
        yield token
    finally:
        done.set()
        with _held_lock:
            _held[key] -= 1
            if not _held[key]:
                del _held[key]


def holds(key: str) -> bool:
    """Does this process hold a row with this key (of any table) right now?"""
    with _held_lock:
        return key in _held


def _beat(db_path: Path, table: str, key_column: str, key: str, token: str, claim: bool = False) -> None:
    db = sqlite3.connect(db_path, timeout=30)
    try:
        with db:
            if claim:
                db.execute(f"UPDATE [{table}] SET owner = ?, heartbeat = ? WHERE [{key_column}] = ?",
                           (token, time.time(), key))
            else:
                db.execute(f"UPDATE [{table}] SET heartbeat = ? WHERE [{key_column}] = ? AND owner = ?",
                           (time.time(), key, token))
    finally:
        db.close()
