"""A run's life: created (stored, not started), started in the background or in the foreground, asked to stop,
resumed. This process is the owner of a run it starts (a token with a heartbeat, agent.solves.liveness) while its
driver (bench.runs.driver) runs it; where the tasks run is a backend (bench.runs.backends)."""

from __future__ import annotations

import os
import threading
import time
from pathlib import Path

from agent import ModelSpec, Solver
from agent.solves.line import Place
from agent.solves.liveness import keep_alive
from bench.datasets.selection import select_tasks
from bench.protocol.labels import Protocol
from bench.runs import store
from bench.runs.backends import ModelRecipe, SolverRecipe, default_parallel
from bench.runs.config import (
    RunConfig,
    check_config,
    check_references,
    dataset_of,
    model_settings,
    run_search,
    selected_tasks,
)
from bench.runs.driver import execute
from bench.runs.record import new_run_row
from bench.settings import bench_db_path, ray_address

# run id -> (its stop flag, set once its driver has left), for the runs this process drives
_active: dict[str, tuple[threading.Event, threading.Event]] = {}
_active_lock = threading.Lock()
_LEAVING_S = 30.0  # how long a resume waits for a stopped run's driver to leave (it has stored "stopped" already)


def _launch(db_path: Path, run_id: str, solver: Solver | None, recipe: SolverRecipe | None, background: bool,
            progress=None, place: Place | None = None) -> str:
    stop, left = threading.Event(), threading.Event()
    with _active_lock:
        going = _active.get(run_id)
    if going is not None and going[0].is_set():
        # Asked to stop, its driver stores "stopped" and then leaves: a resume pressed in that moment follows it
        # (it was refused as "already going").
        going[1].wait(_LEAVING_S)
    with _active_lock:
        if run_id in _active:
            raise RuntimeError(f"run {run_id} is already going in this process")
        _active[run_id] = (stop, left)
    db = store.open_store(db_path)
    # Claimed before the status says starting, so no reader sees a starting run without a live owner.
    owner = keep_alive(db_path, "runs", "id", run_id)
    owner.__enter__()
    store.update_run(db, run_id, status="starting", pid=os.getpid())

    def go() -> None:
        try:
            # A threads run on the app's model takes its turn in the line in front of that model (agent.solves.line)
            # and holds it to its end; stopped while it waits, it never began.
            if place is not None and not place.wait(stop):
                store.update_run(store.open_store(db_path), run_id, status="stopped", finished=time.time())
                return
            execute(db_path, run_id, solver, recipe, stop, progress)
        except Exception as exc:  # model unavailable at start, no cluster, unreadable store...
            store.update_run(store.open_store(db_path), run_id, status="failed", error=str(exc), finished=time.time())
        finally:
            if place is not None:
                place.leave()
            owner.__exit__(None, None, None)
            with _active_lock:
                _active.pop(run_id, None)
            left.set()

    if background:
        threading.Thread(target=go, name=f"bench-{run_id}", daemon=True).start()
    else:
        go()
    return run_id


def create_run(config: RunConfig, db_path: Path | None = None, spec: ModelSpec | None = None) -> tuple[Path, str]:
    """Validate a configuration and store it as a new run (not started yet)."""
    endpoints = check_config(config)
    dataset = dataset_of(config)
    problems = select_tasks(config.tasks, dataset.tasks)
    check_references(config, problems)
    db_path = Path(db_path or bench_db_path())
    on_ray, sampled = config.backend == "ray", bool(config.samples)
    row = new_run_row(
        protocol=Protocol.of(config.feedback, config.samples, config.ask), search=run_search(config),
        task_ids=[p["task_id"] for p in problems], endpoints=endpoints,
        provider=spec.provider if spec else (config.provider or ""), model=spec.model if spec else (config.model or ""),
        model_arg=config.model or "", max_tokens=config.max_tokens, feedback="none" if sampled else config.feedback,
        tasks_spec=config.tasks, backend=config.backend,
        parallel=len(endpoints) or ((config.actors or 0) if on_ray else config.parallel or
                                    default_parallel(config.backend)),
        ray_address=(config.ray_address or ray_address() or "") if on_ray else "",
        actors=(len(endpoints) or config.actors or 0) if on_ray else None,
        cpus_per_actor=config.cpus_per_actor if on_ray else None, dataset=dataset.label,
        tasks_file=dataset.file_name, tasks_sha256=dataset.sha256, samples=config.samples if sampled else None,
        temperature=config.temperature if sampled else None, person=config.person, ask=config.ask,
        corrections=config.corrections)
    # A file's tasks are kept with the run: it resumes without the file.
    store.create_run(store.open_store(db_path), row, tasks=problems if dataset.from_file else None)
    return db_path, row["id"]


def start_run(config: RunConfig, db_path: Path | None = None, *, solver: Solver | None = None,
              recipe: SolverRecipe | None = None, background: bool = True, progress=None,
              place: Place | None = None) -> str:
    """Store a new run and start it; returns its id at once (background) or when it ends.

    solver: the model for a threads run (made here from the config when None). recipe: how each thread, process or
    actor makes its solver where it runs (processes, Ray actors, endpoints); by default the config's model and this
    process's settings. Whatever can be checked here is, before anything is stored: the tasks, the
    model of a threads or processes run (Ollama down, model not pulled), the Ray address. place: the run's place in
    the line in front of the solver's model (Solver.place_in_line), when it shares a model people solve with."""
    check_config(config)
    if solver is not None and recipe is None and config.backend != "threads":
        # Processes and actors make solvers of their own from a recipe: without one they would load the settings'
        # model, not this one (a test's double would silently become the real model).
        raise ValueError(f"a {config.backend} run makes its solvers from a recipe: pass recipe=, or run on threads")
    # A bad task file or selection, or a task an interactive run cannot answer for, fails before a model is loaded.
    check_references(config, selected_tasks(config))
    recipe = recipe or ModelRecipe(model_settings(config.provider, config.model, config.max_tokens))
    spec = None
    if config.backend == "ray":
        address = config.ray_address or ray_address()
        if address:
            from bench.runs.backends.ray_cluster import ClusterError, prepare

            try:
                prepare(address)
            except ClusterError as exc:
                raise ValueError(str(exc)) from None
    elif not config.endpoints:
        solver = solver or recipe(None, None)
        spec = solver.model_spec
    db_path, run_id = create_run(config, db_path, spec)
    return _launch(db_path, run_id, solver, recipe, background, progress, place)


def stop_run(run_id: str, db_path: Path | None = None) -> None:
    """Ask a run to stop (works across processes through the store). Threads leave the task they are on at its next
    step (a candidate drawn or run); solver processes and Ray actors are ended at once; the tasks they held are done
    again on resume."""
    db = store.open_store(Path(db_path or bench_db_path()))
    if store.get_run(db, run_id).status in ("running", "starting"):
        store.update_run(db, run_id, status="stopping")
    with _active_lock:
        going = _active.get(run_id)
    if going:
        going[0].set()


def resume_run(run_id: str, db_path: Path | None = None, *, solver: Solver | None = None,
               recipe: SolverRecipe | None = None, background: bool = True, progress=None,
               place: Place | None = None) -> str:
    """Continue a stopped, failed or killed run on its own backend: finished tasks are skipped, nothing is
    duplicated."""
    db_path = Path(db_path or bench_db_path())
    run = store.get_run(store.open_store(db_path), run_id)
    if run.state() == "running":
        raise RuntimeError(f"run {run_id} is still running (owner {run.owner})")
    return _launch(db_path, run_id, solver, recipe, background, progress, place)
