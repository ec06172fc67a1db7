"""One CPU for a run's two processes while calls cross between them fast.

Runs inside the sandbox (stdlib only), in both processes. Each call that crosses wakes the other process and puts this
one to sleep (a test calling the code 20,000 times wakes each 20,000 times). On an idle machine the other process
sleeps on the other CPU, and waking a sleeping CPU costs several times a wake-up on the waker's own CPU, so where calls
cross fast the two processes go faster on one CPU: a 20,000-call loop two to three times as fast (docs/sandbox.md).
Where each call computes a while, one CPU gains nothing and may cost: another run pinned to the same CPU would halve
both. So the tests' process looks at the pace of the crossings (its requests, and the code's calls back into it) every
PACE_EVERY crossings, moves its threads to the CPU it runs on when they cross fast and back to all its CPUs when they
do not, and says so in its next message; the code's process follows (a code process that does not only slows itself).
Never before PACE_EVERY crossings: most runs call the code a few times, and their two processes keep starting up side
by side.
"""

from __future__ import annotations

import ctypes
import os
import threading
import time

PACE_EVERY = 64  # crossings between two looks at their pace
FAST_S = 0.001  # a mean time a crossing under it is mostly the wake-ups
_ALL = -1  # what a request says to undo a move: every CPU the process may use

try:
    _START = frozenset(os.sched_getaffinity(0))
    _getcpu = ctypes.CDLL(None, use_errno=True).sched_getcpu
except (OSError, AttributeError):
    _START, _getcpu = frozenset(), None


def _move(cpus: frozenset) -> None:
    """Every thread of this process to cpus (sched_setaffinity moves one thread; threads made later inherit)."""
    main = threading.main_thread()
    for thread in threading.enumerate():
        # After a fork the main thread keeps the forking process's native_id; its thread id is the process id.
        tid = os.getpid() if thread is main else thread.native_id
        try:
            os.sched_setaffinity(tid or 0, cpus)
        except (OSError, TypeError):  # a thread that ended meanwhile
            pass


class Pacer:
    """The tests' process: whether calls cross fast, and the move to tell the code's process of (announce: a CPU, or
    _ALL), until its next message carries it."""

    def __init__(self) -> None:
        self.count = 0
        self.since = time.perf_counter()
        self.cpu: int | None = None  # where this process was moved, or None
        self.announce: int | None = None

    def tick(self) -> None:
        """At each crossing (a request of this process's, or one of the code's it serves)."""
        self.count += 1
        if self.count % PACE_EVERY or len(_START) < 2 or _getcpu is None:
            return
        now = time.perf_counter()
        fast, self.since = (now - self.since) / PACE_EVERY < FAST_S, now
        if fast and self.cpu is None:
            cpu = _getcpu()
            if cpu in _START:
                self.cpu = self.announce = cpu
                _move(frozenset({cpu}))
        elif not fast and self.cpu is not None:
            self.cpu, self.announce = None, _ALL
            _move(_START)


def follow(cpu: object) -> None:
    """The code's process: move where the tests' process said (a CPU, or _ALL)."""
    if type(cpu) is not int or len(_START) < 2:
        return
    if cpu == _ALL:
        _move(_START)
    elif cpu in _START:
        _move(frozenset({cpu}))
