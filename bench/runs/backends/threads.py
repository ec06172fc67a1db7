"""The zero-setup backend: solver threads in this process.

Without endpoints the threads share one solver (one loaded model; the embedded model serialises its
decoding, the threads overlap its sandbox runs). With endpoints there is one thread per endpoint, each
with a solver of its own on that server.
"""

from __future__ import annotations

import queue
import threading

from agent import ModelUnavailable, Solver
from bench.datasets.task import Task
from bench.runs.backends import TICK_S, Outcomes, SolverLost, SolverRecipe, TaskDone, solve_one
from bench.runs.record import Run


def thread_solvers(recipe: SolverRecipe, count: int, endpoints: list[str], solver: Solver | None = None
                   ) -> tuple[list[tuple[str, Solver]], list[SolverLost]]:
    """(name, solver) per thread, and the endpoints that could not make one (their message names them)."""
    if not endpoints:
        shared = solver or recipe(None, None)  # an unusable model fails the run here, before any task
        return [(f"thread-{i + 1}", shared) for i in range(max(1, count))], []
    solvers, lost = [], []
    for endpoint in endpoints:
        try:
            solvers.append((endpoint, recipe(endpoint, None)))
        except ModelUnavailable as exc:
            lost.append(SolverLost(endpoint, str(exc)))
    return solvers, lost


def run_threads(problems: list[Task], run: Run, solvers: list[tuple[str, Solver]],
                halt: threading.Event) -> Outcomes:
    """Solve the problems on the solvers' threads; yields outcomes until every thread has ended.

    A thread ends when no task is left, when halt is set (at the next step of its task's solve: the task is left
    for a resume), or when its model fails (the task goes back to the queue for the others)."""
    todo: queue.SimpleQueue[Task] = queue.SimpleQueue()
    for problem in problems:
        todo.put(problem)
    out: queue.SimpleQueue[TaskDone | SolverLost | str] = queue.SimpleQueue()

    def work(name: str, solver: Solver) -> None:
        try:
            while not halt.is_set():
                try:
                    problem = todo.get_nowait()
                except queue.Empty:
                    return
                outcome = solve_one(solver, name, problem, run.rules, halt)
                if outcome is None:  # stopped in the middle of the task: a resume does it again
                    return
                if isinstance(outcome, SolverLost):  # a model outage, or a bug: this thread stops, the task is not lost
                    todo.put(problem)
                    out.put(outcome)
                    return
                out.put(outcome)
        finally:
            out.put("ended")

    # Daemon threads: an app shutting down must not wait for a run; the store keeps it resumable.
    for index, (name, solver) in enumerate(solvers):
        threading.Thread(target=work, args=(name, solver), name=f"bench-{run.id}-{index}", daemon=True).start()
    running = len(solvers)
    while running:
        try:
            item = out.get(timeout=TICK_S)
        except queue.Empty:
            yield None
            continue
        if item == "ended":
            running -= 1
        else:
            yield item
