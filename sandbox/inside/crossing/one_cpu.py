"""One CPU for a run's two processes once calls cross between them.

Runs inside the sandbox (stdlib only), in both processes. Each call that crosses wakes the other process and puts this
one to sleep (a test calling the code 20,000 times wakes each 20,000 times). A wake-up on the waker's own CPU costs
about 11 microseconds on the project's machine kind; on the other CPU about 75 when it sleeps idle, as it must be
woken first, so a crossing between two CPUs of an idle machine costs two to three times as much. So at the first
crossing each process moves to the CPU its worker was on when the run began. Not at the fork: until then the two
start up side by side (the code's module runs while the tests are read), which one CPU would take in turn, 5 ms more
a run.
"""

from __future__ import annotations

import os

pending: int | None = None  # the CPU to move to at the first crossing; None once moved, or when there is no choice


def share(cpu: int | None) -> None:
    """The worker, in a run's process after the fork: the CPU both processes take at their first crossing."""
    global pending
    pending = cpu


def settle() -> None:
    """Move to the shared CPU (Peer, at this process's first request or answer); once."""
    global pending
    cpu, pending = pending, None
    if cpu is not None:
        try:
            os.sched_setaffinity(0, {cpu})
        except OSError:  # the CPU left the run's set meanwhile: the scheduler places the process
            pass
