"""A solve, fork or resumed step running in a background thread, and where to find it again.

A web page reruns its script whenever the user touches a widget and cuts the running script short;
a solve driven from that script would die with it. A job outlives reruns: the page starts it, then
reads its events on each redraw until it is done, and may ask it to stop.

A job started with a thread id is also recorded in this process, so that another session of the same
server (a reload, a second tab, a shared link) finds it by that id: job_for. A solve no job of this
process ran is told from its checkpoints instead: stored_job.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from agent.config import search_dict
from agent.loop.graph import NODES
from agent.solves.events import Event, NodeFinished, NodeStarted, RunFinished, Token
from agent.solves.line import Place

if TYPE_CHECKING:
    from agent.solves.history import Step
    from agent.solves.solver import Solver

# Finished jobs kept findable by thread id (running ones are always kept): enough for the links people share
# while they work, small enough that a long-lived server does not keep every solve's events.
KEEP_FINISHED = 32


@dataclass
class SolveJob:
    """The events a background solve has produced so far; safe to read from any thread while it runs.

    thread_id is the solve's, when the starter named it; inputs are what the starter says about the solve (its
    task, tests, entry point and its Search under "search", read with agent.config.stored_search) for a page that
    finds the job by its id later."""

    events: list[Event] = field(default_factory=list)
    error: str | None = None
    cancelled: bool = False
    thread_id: str | None = None
    inputs: dict[str, Any] = field(default_factory=dict)
    person: str = ""  # who started it ("" on a server without sign-in: the one person at the machine)
    place: Place | None = None  # its place in the line in front of the model, while it waits or runs
    left_line: bool = False  # stopped while it waited: it never began
    _stop: threading.Event = field(default_factory=threading.Event, repr=False)
    _done: threading.Event = field(default_factory=threading.Event, repr=False)

    @property
    def running(self) -> bool:
        return not self._done.is_set()

    @property
    def waiting(self) -> bool:
        """Still in the line in front of the model: its turn has not come."""
        return self.running and self.place is not None and self.place.ticket.started is None

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


_jobs: dict[str, SolveJob] = {}  # by thread id, oldest first
_jobs_lock = threading.Lock()


def _record(job: SolveJob) -> None:
    """Keep the job findable by its thread id; forget the oldest finished jobs beyond KEEP_FINISHED."""
    with _jobs_lock:
        _jobs.pop(job.thread_id, None)
        _jobs[job.thread_id] = job
        finished = [thread for thread, kept in _jobs.items() if not kept.running]
        for thread in finished[:max(0, len(finished) - KEEP_FINISHED)]:
            del _jobs[thread]


def job_for(thread_id: str) -> SolveJob | None:
    """The job this process started for this thread id (running, or finished not long ago), or None."""
    with _jobs_lock:
        return _jobs.get(thread_id)


def start_job(make_events: Callable[..., Iterator[Event]], *, thread_id: str | None = None,
              inputs: dict[str, Any] | None = None, person: str = "", place: Place | None = None,
              on_leaving_line: Callable[[], None] | None = None, before: list[Event] | None = None) -> SolveJob:
    """Run make_events(stop=event) in a daemon thread; return at once the SolveJob collecting what it yields.

    make_events is a Solver's start, resume or fork with its arguments bound; cancel() sets the stop
    event, and the solve ends at its next checkpoint, paused before the next node, so it can go on later.
    With a thread_id (the one make_events solves under), job_for finds the job from any session of this
    process; inputs ride along on the job for whoever finds it, and person says who started it.
    With a place in the line in front of the model (Solver.place_in_line), the job waits for its turn first;
    cancel() while it waits leaves the line (on_leaving_line is then called), and its seat is given up when it ends.
    before are the events of the same solve up to a pause it now goes on from (a question answered: Solver.answer):
    the job starts with them, less the RunFinished that paused, so that it tells the whole solve to whoever reads it
    (a job that leaves the line ends with that RunFinished: the solve is where it was).
    """
    earlier = [e for e in before or [] if not isinstance(e, RunFinished)]
    paused = next((e for e in reversed(before or []) if isinstance(e, RunFinished)), None)
    job = SolveJob(events=earlier, thread_id=thread_id, inputs=dict(inputs or {}), person=person, place=place)
    if thread_id is not None:
        _record(job)

    def work() -> None:
        try:
            if place is not None and not place.wait(job._stop):
                job.left_line = True
                if paused is not None:
                    job.events.append(paused)
                if on_leaving_line is not None:
                    on_leaving_line()
                return
            for event in make_events(stop=job._stop):
                job.events.append(event)
        except Exception as exc:  # shown by whoever reads the job; a thread's traceback would reach nobody
            job.error = f"{type(exc).__name__}: {exc}"
        finally:
            if place is not None:
                place.leave()
            final = job.final
            job.cancelled = job._stop.is_set() and (final is None or final.paused)
            job._done.set()

    threading.Thread(target=work, name="solve-job", daemon=True).start()
    return job


def _corrected_at(solver: Solver, thread_id: str, parent: Step, step: Step) -> bool:
    """Whether an edit of the state between two checkpoints added a question: a person's correction of a row."""
    before = solver.state_at(thread_id, parent.checkpoint_id)["questions"]
    return len(solver.state_at(thread_id, step.checkpoint_id)["questions"]) > len(before)


def stored_job(solver: Solver, thread_id: str) -> SolveJob | None:
    """A solve that no job of this process holds, told from its checkpoints as the finished job that would have
    streamed them: the nodes of its current branch in order, then a RunFinished. None for an unknown thread id.

    A solve whose process died ends with the status ``interrupted`` (paused before the node that was running, if
    it had a checkpoint); one still running elsewhere (another process, or a job not started with its thread id)
    has no RunFinished yet, as its own stream would not. inputs hold the task, tests, search and lineage (the solve
    it was run again from, agent.solves.lineage); not the entry point, which the checkpoints hold as used, whether
    typed or inferred."""
    status = solver.store.status(thread_id)
    if status is None:
        return None
    ordered = solver.steps(thread_id)  # oldest first: the last is the latest checkpoint
    steps = {s.checkpoint_id: s for s in ordered}
    branch, head = [], ordered[-1] if ordered else None
    while head is not None:  # the latest checkpoint and its ancestors: the branch the solve stands on now
        branch.append(head)
        head = steps.get(head.parent_id)
    branch.reverse()
    events: list[Event] = []
    for parent, step in zip(branch, branch[1:]):
        if step.source == "update" and _corrected_at(solver, thread_id, parent, step):
            # A person's correction (Solver.correct) is written as the ask step, and told as one.
            events += [NodeStarted(thread_id, step.step, "ask"),
                       NodeFinished(thread_id, step.step, "ask", solver.state_at(thread_id, step.checkpoint_id))]
            continue
        if step.source != "loop" or parent.next_node not in NODES:
            continue  # a fork's edit or the graph's own start: no node of the loop ran
        # A checkpoint's full state stands in for the node's update: the timeline reads the same keys from it.
        values = solver.state_at(thread_id, step.checkpoint_id)
        events += [NodeStarted(thread_id, step.step, parent.next_node),
                   NodeFinished(thread_id, step.step, parent.next_node, values)]
    values = solver.state_at(thread_id)
    last = branch[-1] if branch else None
    paused = last is not None and last.next_node is not None
    if status != "running":
        final_status = status if status == "interrupted" else values.get("status", status)
        events.append(RunFinished(thread_id, last.step if last else 0, final_status, values.get("code", ""),
                                  values.get("iteration", 0), paused, last.next_node if paused else None,
                                  values.get("error"),
                                  asking=paused and last.next_node == "ask" and solver.question(thread_id) is not None))
    job = SolveJob(events=events, thread_id=thread_id,
                   inputs={"task": values.get("task", ""), "tests": values.get("tests", ""),
                           "search": search_dict(solver.search_of(thread_id)),
                           "lineage": solver.store.lineage(thread_id) or None})
    job._done.set()
    return job
