"""A solve, fork or resumed step running in a background thread.

A web page reruns its script whenever the user touches a widget and cuts the running script short;
a solve driven from that script would die with it. A job outlives reruns: the page starts it, then
reads its events on each redraw until it is done, and may ask it to stop.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field

from agent.events import Event, RunFinished, Token


@dataclass
class SolveJob:
    """The events a background solve has produced so far; safe to read from any thread while it runs."""

    events: list[Event] = field(default_factory=list)
    error: str | None = None
    cancelled: bool = False
    _stop: threading.Event = field(default_factory=threading.Event, repr=False)
    _done: threading.Event = field(default_factory=threading.Event, repr=False)

    @property
    def running(self) -> bool:
        return not self._done.is_set()

    def cancel(self) -> None:
        """Ask the job to stop when the node running now has finished."""
        self._stop.set()

    def wait(self, timeout: float | None = None) -> bool:
        """Block until the job ends; False if it is still running after timeout seconds."""
        return self._done.wait(timeout)

    def snapshot(self, *, tokens: bool = True) -> list[Event]:
        """A copy of the events so far (without Token events when tokens is False)."""
        events = list(self.events)  # one C-level copy: appends from the worker thread cannot tear it
        return events if tokens else [e for e in events if not isinstance(e, Token)]

    @property
    def final(self) -> RunFinished | None:
        """The RunFinished event, once the stream has produced it."""
        return next((e for e in reversed(self.events) if isinstance(e, RunFinished)), None)


def start_job(make_events: Callable[..., Iterator[Event]]) -> SolveJob:
    """Run make_events(stop=event) in a daemon thread; return at once the SolveJob collecting what it yields.

    make_events is a Solver's start, resume or fork with its arguments bound; cancel() sets the stop
    event, and the solve ends at its next checkpoint, paused before the next node, so it can go on later.
    """
    job = SolveJob()

    def work() -> None:
        try:
            for event in make_events(stop=job._stop):
                job.events.append(event)
        except Exception as exc:  # shown by whoever reads the job; a thread's traceback would reach nobody
            job.error = f"{type(exc).__name__}: {exc}"
        finally:
            final = job.final
            job.cancelled = job._stop.is_set() and (final is None or final.paused)
            job._done.set()

    threading.Thread(target=work, name="solve-job", daemon=True).start()
    return job
