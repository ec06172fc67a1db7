"""The driver of a run: it hands the tasks still to do to the run's backend and writes what comes back, each finished
task in one transaction, so a stop, a lost solver or a SIGKILL leaves whole tasks, and a resume skips them. It is the
only writer of a run's rows while the run goes (bench.runs.lifecycle starts it in the run's owner process)."""

from __future__ import annotations

import os
import threading
import time
from pathlib import Path

from agent import Solver
from bench.datasets import PACKAGED, packaged_tasks
from bench.datasets.task import Task
from bench.runs import store
from bench.runs.backends import ModelRecipe, Outcomes, SolverLost, SolverRecipe, TaskDone
from bench.runs.backends.threads import run_threads, thread_solvers
from bench.runs.config import model_settings
from bench.runs.record import Run

STOP_POLL_S = 1.0  # how often the driver reads the store for a stop asked from another process


def tasks_of_run(db, run: Run) -> dict[str, Task]:
    """task_id -> Task for a stored run: those stored with it (a task file's), else its packaged dataset's."""
    stored = store.run_tasks(db, run.id)
    if stored:
        return {task["task_id"]: task for task in stored}
    if run.dataset not in PACKAGED:
        raise ValueError(f"run {run.id} ran on {run.dataset}, whose tasks are not in this database")
    return {task["task_id"]: task for task in packaged_tasks(run.dataset)}


def _outcomes(db_path: Path, run: Run, problems: list[Task], solver: Solver | None, recipe: SolverRecipe,
              halt: threading.Event) -> Outcomes:
    """The run's backend, started on the tasks still to do."""
    def on_ready(report: dict) -> None:
        _record_model(db_path, run, report)

    if run.backend == "ray":
        from bench.runs.backends.ray_cluster import prepare

        prepare(run.ray_address or None)  # before Ray is imported: it may switch on token authentication
        from bench.runs.backends.ray_actors import run_on_ray  # imports Ray (a second or two): only for Ray runs

        yield from run_on_ray(problems, run, recipe, halt.is_set, on_ready=on_ready)
        return
    if run.backend == "processes":
        from bench.runs.backends.processes import run_processes

        yield from run_processes(problems, run, recipe, halt.is_set, on_ready=on_ready)
        return
    solvers, lost = thread_solvers(recipe, run.parallel, run.endpoints, solver)
    yield from lost
    if solvers and run.endpoints and solvers[0][1].model_spec:
        spec = solvers[0][1].model_spec
        on_ready({"provider": spec.provider, "model": spec.model})
    if solvers:
        yield from run_threads(problems, run, solvers, halt)


def _record_model(db_path: Path, run: Run, report: dict) -> None:
    """The model the solvers resolved (a Ray actor's, a process's, an endpoint's), for runs whose driver made none, and
    how many actors a run that asked to fill its cluster got."""
    changes = {"provider": report["provider"], "model": report["model"]} if report.get("model") else {}
    if report.get("actors") and not run.actors:
        changes |= {"actors": report["actors"], "parallel": report["actors"]}
    if changes:
        store.update_run(store.open_store(db_path), run.id, **changes)


def _store_outcomes(db, run: Run, outcomes: Outcomes, stop: threading.Event, halt: threading.Event,
                    progress) -> tuple[list[str], list[str]]:
    """Write each task as it is done, note each solver lost, and pass a stop on to the backend (asked in this
    process, or from another through the store); returns the solvers lost and why the run failed, if it did."""
    lost: list[str] = []
    failure: list[str] = []
    polled = time.time()
    for outcome in outcomes:
        if isinstance(outcome, TaskDone):
            try:
                # The results table keeps its worker column for the name of the solver that ran the task.
                store.record_task(db, {**outcome.result, "worker": outcome.solver_name}, outcome.rows,
                                  outcome.questions)
            except Exception as exc:  # a full disk must not lose the run: stop it, keep what is stored
                failure.append(f"{outcome.result['task_id']}: cannot store it: {type(exc).__name__}: {exc}")
                halt.set()
                continue
            if progress:
                progress(outcome.result)
        elif isinstance(outcome, SolverLost):
            lost.append(f"{outcome.solver_name}: {outcome.reason}")
            store.update_run(db, run.id, notes="\n".join(lost))
        if stop.is_set():
            halt.set()
        elif time.time() - polled > STOP_POLL_S:
            polled = time.time()
            if store.get_run(db, run.id).status == "stopping":
                stop.set()
                halt.set()
    return lost, failure


def execute(db_path: Path, run_id: str, solver: Solver | None, recipe: SolverRecipe | None, stop: threading.Event,
            progress=None) -> None:
    """Run the tasks of a stored run not done yet, on its backend, until they are done, stop is set, or no solver is
    left; then store how the run ended (finished, stopped or failed, and why)."""
    db = store.open_store(db_path)
    run = store.get_run(db, run_id)
    problems = tasks_of_run(db, run)
    done = store.finished_task_ids(db, run_id)
    todo = [problems[task_id] for task_id in run.task_ids if task_id not in done]
    segment_start = time.time()
    store.update_run(db, run_id, status="running", pid=os.getpid(), heartbeat=segment_start, error=None,
                     notes=None, started=run.started or segment_start)
    halt = threading.Event()  # tells the backend to hand out no more tasks
    recipe = recipe or ModelRecipe(model_settings(run.provider, run.model_arg, run.max_tokens))
    outcomes = _outcomes(db_path, run, todo, solver, recipe, halt)
    try:
        lost, failure = _store_outcomes(db, run, outcomes, stop, halt, progress)
    finally:
        outcomes.close()
    remaining = len(run.task_ids) - len(store.finished_task_ids(db, run_id))
    if remaining and not stop.is_set() and not failure:
        failure.append("no solver is left to run the remaining tasks: " + "; ".join(lost) if lost
                       else f"{remaining} tasks were not done")
    status = "finished" if remaining == 0 else ("failed" if failure else "stopped")
    store.update_run(db, run_id, status=status, error="; ".join(failure) or None, finished=time.time(),
                     elapsed=(run.elapsed or 0.0) + time.time() - segment_start)
