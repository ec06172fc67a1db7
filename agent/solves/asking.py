"""A solve that asks, run to its end with someone to answer: a person at a terminal (python -m agent solve --ask),
or the bench's simulated person (agent.solves.reference_person). A page does the same one step at a time:
Solver.start(..., ask=True) until the solve pauses, Solver.question, then Solver.answer with the person's Reply."""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator

from agent.loop.questions import Question, Reply
from agent.solves.events import Event, RunFinished
from agent.solves.solver import Solver

Person = Callable[[Question], Reply]  # reads a question, gives the answer (Reply() to skip)


def answering(solver: Solver, events: Iterator[Event], person: Person, stop: threading.Event | None = None
              ) -> Iterator[Event]:
    """The events of a solve (Solver.start(..., ask=True)) and of every carry-on after an answer: whenever it pauses
    at a question, person answers it and the solve goes on. A RunFinished ends each stretch; the last one ends the
    solve (or pauses it in step mode, where the caller carries on as usual, or where stop ended it)."""
    while True:
        final = None
        for event in events:
            if isinstance(event, RunFinished):
                final = event
            yield event
        question = solver.question(final.thread_id) if final is not None and final.paused else None
        if question is None:
            return
        events = solver.answer(final.thread_id, person(question), stop=stop)
