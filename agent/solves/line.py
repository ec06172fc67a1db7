"""One line in front of a model: the solves of every person of a server take turns, in the order they came.

A model loaded in this process decodes one answer at a time at full speed; four solves at once would share its
cores and each take four times as long, while in a line each finishes as soon as it would alone after those before
it. A model server that batches (Ollama, an OpenAI-compatible server) serves several at once as well as one: its
line has more seats (Line.seats). A person holds at most SOLVES_PER_PERSON places, running or waiting, and a line
holds at most LINE_LENGTH waiting: past either, join says why at once instead of queueing.

A place is a Ticket: the solve's job waits for its turn on it (wait_turn), the page reads where it stands (place,
estimate), and leaving the line or finishing frees the seat for the next in line.
"""

from __future__ import annotations

import contextlib
import itertools
import threading
import time
from collections import deque
from collections.abc import Callable
from contextlib import AbstractContextManager
from dataclasses import dataclass, field

from agent.config import LineSettings, load_line

# Solve durations remembered for the estimate of a wait: the last few, as the model and tasks of the moment go.
_RECENT = 8
_FIRST_GUESS_S = 30.0  # before any solve of this server has finished: a short task on the embedded model


class LineFull(Exception):
    """No place for this solve: the line is full, or the person already holds as many places as they may."""


@dataclass
class Ticket:
    """One solve's place in a line."""

    number: int
    person: str
    what: str  # what holds the place, in words: "a solve", "bench run 20261202-..."
    joined: float = field(default_factory=time.monotonic)
    started: float | None = None  # when its turn came
    left: bool = False


class Line:
    """The line in front of one model: seats served at once, the tickets waiting, the tickets seated."""

    def __init__(self, seats: int, settings: LineSettings) -> None:
        self.seats, self.settings = max(1, seats), settings
        self._numbers = itertools.count(1)
        self._waiting: deque[Ticket] = deque()
        self._seated: list[Ticket] = []
        self._durations: deque[float] = deque(maxlen=_RECENT)
        self._changed = threading.Condition()

    def join(self, person: str, what: str = "a solve") -> Ticket:
        """A place at the end of the line; raises LineFull with what to do when there is none."""
        with self._changed:
            held = [t for t in (*self._seated, *self._waiting) if t.person == person and person]
            if len(held) >= self.settings.per_person:
                raise LineFull(f"you already have {_count(len(held), 'solve')} running or waiting (at most "
                               f"{self.settings.per_person} a person, SOLVES_PER_PERSON): wait for it to end, or "
                               "stop it")
            if len(self._waiting) >= self.settings.length:
                raise LineFull(f"the line is full ({_count(len(self._waiting), 'solve')} waiting, at most "
                               f"{self.settings.length}, LINE_LENGTH): try again in a few minutes")
            ticket = Ticket(next(self._numbers), person, what)
            self._waiting.append(ticket)
            self._seat_next()
            return ticket

    def wait_turn(self, ticket: Ticket, stop: threading.Event | None = None, poll_s: float = 0.2) -> bool:
        """Block until the ticket is seated (True), or until stop is set, which leaves the line (False)."""
        with self._changed:
            while ticket not in self._seated:
                if ticket.left or (stop is not None and stop.is_set()):
                    self._leave(ticket)
                    return False
                self._changed.wait(poll_s)
            return True

    def leave(self, ticket: Ticket) -> None:
        """Give up the place or the seat (a finished solve, or a person leaving the line); the next in line sits."""
        with self._changed:
            self._leave(ticket)

    def _leave(self, ticket: Ticket) -> None:
        if ticket in self._seated:
            self._seated.remove(ticket)
            if ticket.started is not None and not ticket.left:
                self._durations.append(time.monotonic() - ticket.started)
        elif ticket in self._waiting:
            self._waiting.remove(ticket)
        ticket.left = True
        self._seat_next()

    def _seat_next(self) -> None:
        while self._waiting and len(self._seated) < self.seats:
            ticket = self._waiting.popleft()
            ticket.started = time.monotonic()
            self._seated.append(ticket)
        self._changed.notify_all()

    def ahead(self, ticket: Ticket) -> int:
        """How many solves come before this ticket: those running and those waiting in front; 0 once seated."""
        with self._changed:
            if ticket not in self._waiting:
                return 0
            return len(self._seated) + list(self._waiting).index(ticket)

    def estimate_s(self, ticket: Ticket) -> float:
        """Seconds until the ticket's turn, from how long this line's recent solves took: until the first seat
        frees, then a typical solve for each one waiting in front, shared among the seats."""
        with self._changed:
            if ticket not in self._waiting:
                return 0.0
            in_front = list(self._waiting).index(ticket)
            typical = sum(self._durations) / len(self._durations) if self._durations else _FIRST_GUESS_S
            running = [time.monotonic() - t.started for t in self._seated if t.started is not None]
        first_free = min(max(typical - r, 0.0) for r in running) if running else 0.0
        return first_free + in_front * typical / self.seats

    def holders(self) -> list[Ticket]:
        """The tickets seated now (what holds the model: a solve, a bench run)."""
        with self._changed:
            return list(self._seated)

    def waiting(self) -> int:
        with self._changed:
            return len(self._waiting)


def wait_words(place: Place) -> str:
    """Where a waiting solve stands, for the person waiting: how many come before it, and about how long."""
    ahead, seconds = place.ahead, place.estimate_s
    if not ahead:
        return "Your turn: the solve starts now."
    wait = f"about {round(seconds)} s" if seconds < 90 else f"about {round(seconds / 60)} min"
    return f"Waiting for the model: {_count(ahead, 'solve')} ahead of yours, {wait}."


def busy_words(line: Line) -> str | None:
    """What holds the model now, when people would wait for it: a bench run, or how many solves run and wait."""
    holders, waiting = line.holders(), line.waiting()
    runs = [t for t in holders if t.what != "a solve"]
    if runs:
        return (f"{runs[0].what.capitalize()} holds the model now"
                + (f" (started by {runs[0].person})" if runs[0].person else "")
                + ": a solve started now waits until it ends.")
    if len(holders) >= line.seats:
        return f"The model is busy: {_count(len(holders), 'solve')} running, {waiting} waiting. A solve waits its turn."
    return None


def _count(n: int, noun: str) -> str:
    return f"{n} {noun}{'s' if n != 1 else ''}"


@dataclass
class Place:
    """A job's ticket in a line, and what to keep while it waits (the heartbeat on its row in the solves table, so
    that a waiting solve of a process that dies shows as interrupted, never as waiting forever)."""

    line: Line
    ticket: Ticket
    while_waiting: Callable[[], AbstractContextManager] = contextlib.nullcontext

    def wait(self, stop: threading.Event | None = None) -> bool:
        """Block until the turn comes (True) or stop is set, which leaves the line (False)."""
        with self.while_waiting():
            return self.line.wait_turn(self.ticket, stop)

    def leave(self) -> None:
        self.line.leave(self.ticket)

    @property
    def ahead(self) -> int:
        return self.line.ahead(self.ticket)

    @property
    def estimate_s(self) -> float:
        return self.line.estimate_s(self.ticket)


_lines: dict[str, Line] = {}
_lines_lock = threading.Lock()


def busy_now() -> str | None:
    """What holds a model of this process now, when a solve started now would wait (busy_words); None when none
    would (or no model has been used yet: nothing is loaded to ask about)."""
    with _lines_lock:
        lines = list(_lines.values())
    return next((words for words in map(busy_words, lines) if words), None)


def line_for(model_key: str, seats: int) -> Line:
    """The line in front of one model of this process (one per model, made on first use with these seats)."""
    with _lines_lock:
        line = _lines.get(model_key)
        if line is None:
            line = _lines[model_key] = Line(seats, load_line())
        return line
