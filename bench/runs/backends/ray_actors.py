"""The Ray backend: one solver per actor, tasks handed to actors as they free up by Ray's ActorPool.

Each actor makes its own solver once (the embedded model loaded with as many threads as the actor holds
CPUs, or a client of one endpoint) and has its own sandbox pool (the sandbox is per process). The code
travels with the driver's job (bench.runs.backends.ray_cluster.shipped_code), and every actor reports the
digest of what it imported: one that differs is not given tasks.

Faults are Ray's to handle first: an actor that dies is restarted (max_restarts) and the task it was on is
sent again (max_task_retries), on the restarted actor wherever Ray places it. An actor that stays dead
loses its task back to the queue for the others. A result arrives once per task, so the driver writes
each task once.
"""

from __future__ import annotations

import collections
import re
import socket
import time
from collections.abc import Callable
from dataclasses import dataclass, field

import ray
from ray.util.actor_pool import ActorPool

from bench.datasets.task import Task
from bench.protocol.rules import Rules
from bench.runs.backends import (
    TICK_S,
    Outcomes,
    SolverLost,
    SolverRecipe,
    TaskDone,
    hand_back,
    make_solver_or_why,
    ready_report,
    solve_one,
)
from bench.runs.backends.ray_cluster import actors_that_fit, check_fits, connected
from bench.runs.code_version import source_digest
from bench.runs.record import Run

NAMESPACE = "self-healing-agent"
MAX_RESTARTS = 2  # an actor process that dies is started again this many times
MAX_TASK_RETRIES = 2  # and the task it was on is sent again
READY_TIMEOUT_S = 600.0  # loading a large GGUF from a slow disk


@ray.remote
class TaskSolver:
    """A Ray actor holding one solver; solve() runs the honest protocol on one task."""

    def __init__(self, recipe: SolverRecipe, endpoint: str | None, n_threads: int, label: str) -> None:
        self.name = f"{label}@{socket.gethostname()}"
        self.solver, self.problem = make_solver_or_why(recipe, endpoint, n_threads)  # a problem: said by ready()

    def ready(self) -> dict:
        """Who this actor is, the code it runs, and its model (or why it has none)."""
        return {**ready_report(self.name, self.solver, self.problem),
                "actor_id": ray.get_runtime_context().get_actor_id(), "code": source_digest()}

    def solve(self, problem: Task, rules: Rules) -> TaskDone | SolverLost:
        """Solve and score one task; a model that stops answering retires this actor (the task goes back).

        The task travels with the call (a plain dict, HumanEval's or a task file's alike): an actor needs no
        dataset or file of its own."""
        return solve_one(self.solver, self.name, problem, rules)


def run_on_ray(problems: list[Task], run: Run, recipe: SolverRecipe, should_stop: Callable[[], bool],
               on_ready: Callable[[dict], None] | None = None) -> Outcomes:
    """Solve the problems on Ray actors; yields outcomes until all are done, should_stop() says so (the
    actors are ended at once; their tasks are redone on resume), or no actor is left.

    run gives ray_address, actors (0: as many as fit), cpus_per_actor and endpoints (one actor each).
    on_ready gets the first live actor's ready() report (its model, for the run's row) and how many
    actors started."""
    cpus, endpoints = float(run.cpus_per_actor or 1.0), list(run.endpoints)
    with connected(run.ray_address or None):
        count = len(endpoints) or run.actors or max(1, actors_that_fit(cpus))
        check_fits(count, cpus)
        segment = f"{run.id}-{int(time.time() * 1000) % 100000:05d}"  # a resume's actors get new names
        handles = [TaskSolver.options(
            name=f"bench-{segment}-{i + 1}", namespace=NAMESPACE, num_cpus=cpus, max_restarts=MAX_RESTARTS,
            max_task_retries=MAX_TASK_RETRIES, scheduling_strategy="SPREAD",
        ).remote(recipe, endpoints[i] if endpoints else None, max(1, int(cpus)),
                 endpoints[i] if endpoints else f"actor-{i + 1}") for i in range(count)]
        try:
            yield from _drive(problems, run, handles, endpoints, should_stop, on_ready)
        finally:
            for handle in handles:
                ray.kill(handle, no_restart=True)


@dataclass
class _Actors:
    """The run's actors that started: in order, by the name each reports and by Ray's actor id; what to call each
    actor (its endpoint or number, then the name it reports); and the first one's ready report."""

    labels: dict
    live: list = field(default_factory=list)
    names: dict = field(default_factory=dict)
    by_actor_id: dict = field(default_factory=dict)
    first: dict | None = None


def _drive(problems: list[Task], run: Run, handles: list, endpoints: list[str],
           should_stop: Callable[[], bool], on_ready: Callable[[dict], None] | None) -> Outcomes:
    """The run on its actors: wait until each has started (or is lost), then hand out the tasks."""
    actors = _Actors({handle: endpoints[i] if endpoints else f"actor-{i + 1}" for i, handle in enumerate(handles)})
    yield from _start(handles, actors, should_stop)
    if not actors.live or should_stop():
        return
    if on_ready:
        on_ready({**actors.first, "actors": len(actors.live)})
    yield from _hand_out(problems, run, actors, should_stop)


def _start(handles: list, actors: _Actors, should_stop: Callable[[], bool]) -> Outcomes:
    """Each actor's ready report: one that runs the driver's code and has its solver joins actors.live; the others,
    and those not ready within READY_TIMEOUT_S, are lost."""
    pending = {handle.ready.remote(): handle for handle in handles}
    deadline = time.time() + READY_TIMEOUT_S
    digest = source_digest()
    while pending and time.time() < deadline:
        if should_stop():
            return
        done, _ = ray.wait(list(pending), num_returns=1, timeout=TICK_S)
        if not done:
            yield None
            continue
        handle = pending.pop(done[0])
        try:
            report = ray.get(done[0])
        except ray.exceptions.RayError as exc:
            yield SolverLost(actors.labels[handle], f"the actor did not start: {_first_line(exc)}")
            continue
        if report["problem"] or report["code"] != digest:
            why = report["problem"] or f"it runs other code (sources {report['code']}, the driver's {digest})"
            ray.kill(handle, no_restart=True)
            yield SolverLost(report["name"], why)
            continue
        actors.first = actors.first or report
        actors.live.append(handle)
        actors.names[report["name"]], actors.by_actor_id[report["actor_id"]] = handle, handle
        actors.labels[handle] = report["name"]
    for handle in pending.values():
        ray.kill(handle, no_restart=True)
        yield SolverLost(actors.labels[handle], f"did not start within {READY_TIMEOUT_S:.0f} s (are the cluster's "
                                                "CPUs taken by another run?)")


def _hand_out(problems: list[Task], run: Run, actors: _Actors, should_stop: Callable[[], bool]) -> Outcomes:
    """The tasks, to the live actors as they free up (Ray's ActorPool), until all are done, should_stop() says so,
    or no actor is left; an actor dead for good hands its task back, one whose model stopped answering retires."""
    live = actors.live
    pool = ActorPool(live)
    todo = collections.deque(problems)
    in_flight: dict = {}  # actor handle -> the problem it holds
    requeues: collections.Counter = collections.Counter()

    def submit(handle, problem: Task):
        in_flight[handle] = problem
        return handle.solve.remote(problem, run.rules)

    while not should_stop():
        while todo and pool.has_free():
            pool.submit(submit, todo.popleft())
        if not pool.has_next():
            todo.extend(in_flight.values())  # lost without a word (should not happen): not lost for good
            in_flight.clear()
            if not todo or not live:
                return
            continue
        try:
            outcome = pool.get_next_unordered(timeout=TICK_S)
        except TimeoutError:
            yield None
            continue
        except ray.exceptions.RayActorError as exc:  # dead for good: Ray's restarts and retries are spent
            handle = actors.by_actor_id.get(exc.actor_id)
            if handle in live:
                live.remove(handle)
            problem = in_flight.pop(handle, None)
            yield SolverLost(actors.labels.get(handle, "an actor"), f"the actor died: {_first_line(exc)}")
            if problem is not None:
                hand_back(todo, problem, requeues)
            continue
        handle = actors.names[outcome.solver_name]
        problem = in_flight.pop(handle)
        if isinstance(outcome, SolverLost):
            _retire(pool, handle)
            live.remove(handle)
            todo.append(problem)
        yield outcome


def _retire(pool: ActorPool, handle) -> None:
    """Take an idle actor out of the pool and end it."""
    idle = []
    while (actor := pool.pop_idle()) is not None:
        idle.append(actor)
    for actor in idle:
        if actor != handle:
            pool.push(actor)
    ray.kill(handle, no_restart=True)


def _first_line(exc: BaseException) -> str:
    """The gist of a Ray error: the exception a traceback in it ends with (e.g. an actor that cannot import
    the recipe's module), else its first line."""
    lines = [line.strip() for line in str(exc).splitlines() if line.strip()]
    raised = [line for line in lines if re.match(r"^[A-Za-z_][\w.]*(Error|Exception|Interrupt)\b", line)]
    return raised[-1] if raised else (lines[0] if lines else type(exc).__name__)
