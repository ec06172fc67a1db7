"""Bench runs: create, start, stop, resume; the driver that hands tasks to a backend and writes the store.

The honest protocol of one task is bench.task_protocol; where tasks run is a backend (bench.backends:
threads of this process, processes of this machine, or Ray actors). This process is the run's owner (a token
with a heartbeat, agent.solves.liveness) and the only writer of its rows: each finished task in one
transaction, so a stop, a lost solver or a SIGKILL leaves whole tasks, and resume skips them.
"""

from __future__ import annotations

import json
import os
import threading
import time
import uuid
from dataclasses import asdict, dataclass, field, replace
from pathlib import Path

from agent import ModelSpec, Search, Solver, load_settings, sandbox_status
from agent.config import search_dict, stored_search
from agent.solves.liveness import keep_alive, owner_alive
from bench import store
from bench.backends import (
    BACKENDS,
    DEFAULT_BACKEND,
    ModelRecipe,
    Outcomes,
    SolverLost,
    SolverRecipe,
    TaskDone,
    check_endpoints_provider,
    default_parallel,
    parse_endpoints,
)
from bench.backends.threads import run_threads, thread_solvers
from bench.code_version import code_version
from bench.datasets import HUMANEVAL, PACKAGED, Dataset, load_dataset, packaged_tasks
from bench.settings import ray_address
from bench.task_protocol import FEEDBACK_MODES, ModelOutage, protocol_label
from bench.tasks import Task, select_tasks

__all__ = ["FEEDBACK_MODES", "ModelOutage", "RunConfig", "code_version", "config_of", "create_run",
           "default_db_path", "resume_run", "run_search", "run_state", "select_tasks", "selected_tasks", "start_run",
           "stop_run"]
STOP_POLL_S = 1.0  # how often the driver reads the store for a stop asked from another process


@dataclass
class RunConfig:
    """What a run is: the model, the protocol, the tasks, and where they run."""

    tasks: str = "all"  # a selection among the dataset's tasks (bench.tasks.select_tasks)
    dataset: str = HUMANEVAL  # humaneval, or a task file shipped with the bench by its short name (mbpp-dev)
    tasks_file: str | None = None  # a person's task file (JSONL, bench.task_file); then dataset stays humaneval
    provider: str | None = None
    model: str | None = None
    search: Search | None = None  # how each task's solve searches; None: the settings' (BUDGET, STRATEGY, ...)
    feedback: str = "visible"
    # Tasks solved at once: threads sharing one model, or processes with a model each. None: the backend's default,
    # 2 threads or one process per core (bench.backends.default_parallel).
    parallel: int | None = None
    max_tokens: int | None = None
    backend: str = DEFAULT_BACKEND  # threads | processes | ray (stored in the runs table's executor column)
    ray_address: str | None = None  # ray: a running cluster's head; None: RAY_ADDRESS, else a Ray on this machine
    actors: int | None = None  # ray: None fills the cluster
    cpus_per_actor: float = 1.0  # ray: CPUs each actor holds (the embedded model decodes on as many threads)
    endpoints: list[str] = field(default_factory=list)  # model servers, one solver each, in either backend
    samples: int | None = None  # a pass@k run: this many independent samples a task, no loop (bench.task_protocol)
    temperature: float = Search.sample_temperature  # the samples' temperature (a pass@k run only)


def dataset_of(config: RunConfig) -> Dataset:
    """The dataset a configuration runs on (ValueError for an unknown one or a bad task file)."""
    return load_dataset(config.dataset, config.tasks_file)


def selected_tasks(config: RunConfig) -> list[Task]:
    """The tasks a configuration selects in its dataset (TaskSpecError, TaskFileError: both ValueError)."""
    return select_tasks(config.tasks, dataset_of(config).tasks)


def tasks_of_run(db, run: dict) -> dict[str, Task]:
    """task_id -> Task for a stored run: those stored with it (a task file's), else its packaged dataset's
    (HumanEval's or HumanEval+'s)."""
    stored = store.run_tasks(db, run["id"])
    if stored:
        return {task["task_id"]: task for task in stored}
    if run["dataset"] not in PACKAGED:
        raise ValueError(f"run {run['id']} ran on {run['dataset']}, whose tasks are not in this database")
    return {task["task_id"]: task for task in packaged_tasks(run["dataset"])}


def default_db_path() -> Path:
    """bench.sqlite under the data dir (DATA_DIR)."""
    return load_settings().data_dir / "bench.sqlite"


# --- the driver ---------------------------------------------------------------------------

_active: dict[str, threading.Event] = {}
_active_lock = threading.Lock()


def _settings(provider: str | None, model: str | None, max_tokens: int | None):
    settings = load_settings().with_overrides(provider=provider or None, model=model or None)
    return settings.with_overrides(max_tokens=max_tokens) if max_tokens else settings


def _recipe_for(run: dict) -> SolverRecipe:
    return ModelRecipe(_settings(run["provider"], run["model_arg"], run["max_tokens"]))


def _outcomes(db_path: Path, run: dict, problems: list, solver: Solver | None, recipe: SolverRecipe,
              halt: threading.Event) -> Outcomes:
    """The run's backend, started on the tasks still to do."""
    if run["backend"] == "ray":
        from bench.backends.ray_cluster import prepare

        prepare(run["ray_address"] or None)  # before Ray is imported: it may switch on token authentication
        from bench.backends.ray_actors import run_on_ray  # imports Ray (a second or two): only for Ray runs

        yield from run_on_ray(problems, run, recipe, halt.is_set,
                              on_ready=lambda report: _record_model(db_path, run, report))
        return
    if run["backend"] == "processes":
        from bench.backends.processes import run_processes

        yield from run_processes(problems, run, recipe, halt.is_set,
                                 on_ready=lambda report: _record_model(db_path, run, report))
        return
    solvers, lost = thread_solvers(recipe, run["parallel"], run["endpoints"], solver)
    yield from lost
    if solvers and run["endpoints"] and solvers[0][1].model_spec:
        spec = solvers[0][1].model_spec
        _record_model(db_path, run, {"provider": spec.provider, "model": spec.model})
    if solvers:
        yield from run_threads(problems, run, solvers, halt.is_set)


def _record_model(db_path: Path, run: dict, report: dict) -> None:
    """The model the solvers resolved (a Ray actor's, a process's, an endpoint's), for runs whose driver made none, and
    how many actors a run that asked to fill its cluster got."""
    changes = {"provider": report["provider"], "model": report["model"]} if report.get("model") else {}
    if report.get("actors") and not run["actors"]:
        changes |= {"actors": report["actors"], "workers": report["actors"]}  # workers: parallel's column
    if changes:
        store.update_run(store.open_store(db_path), run["id"], **changes)


def _execute(db_path: Path, run_id: str, solver: Solver | None, recipe: SolverRecipe | None, stop: threading.Event,
             progress=None) -> None:
    db = store.open_store(db_path)
    run = store.get_run(db, run_id)
    problems = tasks_of_run(db, run)
    done = store.finished_task_ids(db, run_id)
    todo = [problems[task_id] for task_id in run["task_ids"] if task_id not in done]
    segment_start = time.time()
    store.update_run(db, run_id, status="running", pid=os.getpid(), heartbeat=segment_start, error=None,
                     notes=None, started=run["started"] or segment_start)
    halt = threading.Event()  # tells the backend to hand out no more tasks
    lost: list[str] = []
    failure: list[str] = []
    polled = time.time()
    outcomes = _outcomes(db_path, run, todo, solver, recipe or _recipe_for(run), halt)
    try:
        for outcome in outcomes:
            if isinstance(outcome, TaskDone):
                try:
                    # The results table keeps its worker column for the name of the solver that ran the task.
                    store.record_task(db, {**outcome.result, "worker": outcome.solver_name}, outcome.rows)
                except Exception as exc:  # a full disk must not lose the run: stop it, keep what is stored
                    failure.append(f"{outcome.result['task_id']}: cannot store it: {type(exc).__name__}: {exc}")
                    halt.set()
                    continue
                if progress:
                    progress(outcome.result)
            elif isinstance(outcome, SolverLost):
                lost.append(f"{outcome.solver_name}: {outcome.reason}")
                store.update_run(db, run_id, notes="\n".join(lost))
            if stop.is_set():
                halt.set()
            elif time.time() - polled > STOP_POLL_S:  # a stop asked from another process, through the store
                polled = time.time()
                if store.get_run(db, run_id)["status"] == "stopping":
                    stop.set()
                    halt.set()
    finally:
        outcomes.close()
    remaining = len(run["task_ids"]) - len(store.finished_task_ids(db, run_id))
    if remaining and not stop.is_set() and not failure:
        failure.append("no solver is left to run the remaining tasks: " + "; ".join(lost) if lost
                       else f"{remaining} tasks were not done")
    status = "finished" if remaining == 0 else ("failed" if failure else "stopped")
    store.update_run(db, run_id, status=status, error="; ".join(failure) or None, finished=time.time(),
                     elapsed=(run["elapsed"] or 0.0) + time.time() - segment_start)


def _launch(db_path: Path, run_id: str, solver: Solver | None, recipe: SolverRecipe | None, background: bool,
            progress=None) -> str:
    stop = threading.Event()
    with _active_lock:
        if run_id in _active:
            raise RuntimeError(f"run {run_id} is already going in this process")
        _active[run_id] = stop
    db = store.open_store(db_path)
    # Claimed before the status says starting, so no reader sees a starting run without a live owner.
    owner = keep_alive(db_path, "runs", "id", run_id)
    owner.__enter__()
    store.update_run(db, run_id, status="starting", pid=os.getpid())

    def go() -> None:
        try:
            _execute(db_path, run_id, solver, recipe, stop, progress)
        except Exception as exc:  # model unavailable at start, no cluster, unreadable store...
            store.update_run(store.open_store(db_path), run_id, status="failed", error=str(exc), finished=time.time())
        finally:
            owner.__exit__(None, None, None)
            with _active_lock:
                _active.pop(run_id, None)

    if background:
        threading.Thread(target=go, name=f"bench-{run_id}", daemon=True).start()
    else:
        go()
    return run_id


def check_config(config: RunConfig) -> list[str]:
    """Raise ValueError for a configuration that cannot run; returns its endpoints, parsed."""
    if config.feedback not in FEEDBACK_MODES:
        raise ValueError(f"feedback must be one of {', '.join(FEEDBACK_MODES)}, got {config.feedback!r}")
    if config.parallel is not None and config.parallel < 1:
        raise ValueError(f"parallel must be 1 or more, got {config.parallel}")
    if config.backend not in BACKENDS:
        raise ValueError(f"the backend must be one of {', '.join(BACKENDS)}, got {config.backend!r}")
    if config.actors is not None and config.actors < 1:
        raise ValueError(f"actors must be 1 or more, got {config.actors}")
    if not config.cpus_per_actor > 0:
        raise ValueError(f"CPUs per actor must be above 0, got {config.cpus_per_actor}")
    if config.samples is not None:
        if config.samples < 1:
            raise ValueError(f"samples must be 1 or more a task, got {config.samples}")
        if config.feedback == "oracle":
            raise ValueError("a samples run draws independent samples of the first prompt and feeds nothing back: "
                             "drop --feedback oracle")
        if not 0 < config.temperature <= 2:
            raise ValueError(f"the samples' temperature must be above 0 and at most 2, got {config.temperature}")
    endpoints = parse_endpoints(config.endpoints)
    check_endpoints_provider(config.provider, endpoints)
    problem = run_search(config).problem()
    if problem:
        raise ValueError(problem)
    return endpoints


def run_search(config: RunConfig) -> Search:
    """The Search a run of this configuration stores and solves every task with (read back by stored_search): the
    configuration's, else the settings'; one candidate when nothing is fed back; a samples run's samples, drawn at
    their temperature (no loop spends them)."""
    search = config.search or load_settings().search
    if config.samples:
        return replace(search, budget=config.samples, strategy="sample", sample_temperature=config.temperature,
                       later_round_temperature=None)
    return replace(search, budget=1) if config.feedback == "none" else search


def new_run_id() -> str:
    """A new run's id: when it was made, then 6 random hex digits ('20261130-110503-2f694d')."""
    return time.strftime("%Y%m%d-%H%M%S-") + uuid.uuid4().hex[:6]


def create_run(config: RunConfig, db_path: Path | None = None, spec: ModelSpec | None = None) -> tuple[Path, str]:
    """Validate a configuration and store it as a new run (not started yet)."""
    endpoints = check_config(config)
    dataset = dataset_of(config)
    problems = select_tasks(config.tasks, dataset.tasks)
    db_path = Path(db_path or default_db_path())
    db = store.open_store(db_path)
    run_id = new_run_id()
    on_ray = config.backend == "ray"
    sampled = bool(config.samples)
    store.create_run(db, {
        "id": run_id, "created": time.time(), "started": None, "finished": None, "status": "created",
        "protocol": protocol_label(config.feedback, config.samples),
        "provider": spec.provider if spec else (config.provider or ""),
        "model": spec.model if spec else (config.model or ""), "model_arg": config.model or "",
        "max_tokens": config.max_tokens, "search": json.dumps(search_dict(run_search(config))),
        "isolation": sandbox_status().description, "feedback": "none" if sampled else config.feedback,
        "tasks_spec": config.tasks, "task_ids": json.dumps([p["task_id"] for p in problems]),
        # parallel is stored in the workers column (its name before; store._decoded reads it as parallel)
        "workers": len(endpoints) or (config.actors or 0 if on_ray else
                                      config.parallel or default_parallel(config.backend)),
        "code_version": code_version(), "pid": os.getpid(), "heartbeat": time.time(),
        "owner": None, "error": None, "elapsed": 0.0, "executor": config.backend,  # old column name (store._decoded)
        "ray_address": (config.ray_address or ray_address() or "") if on_ray else "",
        "actors": (len(endpoints) or config.actors or 0) if on_ray else None,
        "cpus_per_actor": config.cpus_per_actor if on_ray else None, "endpoints": json.dumps(endpoints),
        "notes": None, "dataset": dataset.label, "tasks_file": dataset.file_name, "tasks_sha256": dataset.sha256,
        "samples": config.samples if sampled else None, "temperature": config.temperature if sampled else None,
    }, tasks=problems if dataset.from_file else None)  # a file's tasks are kept: the run resumes without it
    return db_path, run_id


def start_run(config: RunConfig, db_path: Path | None = None, *, solver: Solver | None = None,
              recipe: SolverRecipe | None = None, background: bool = True, progress=None) -> str:
    """Store a new run and start it; returns its id at once (background) or when it ends.

    solver: the model for a threads run (made here from the config when None). recipe: how each thread, process or
    actor makes its solver where it runs (processes, Ray actors, endpoints); by default the config's model and this
    process's settings. Whatever can be checked here is, before anything is stored: the tasks, the
    model of a threads or processes run (Ollama down, model not pulled), the Ray address."""
    check_config(config)
    if solver is not None and recipe is None and config.backend != "threads":
        # Processes and actors make solvers of their own from a recipe: without one they would load the settings'
        # model, not this one (a test's double would silently become the real model).
        raise ValueError(f"a {config.backend} run makes its solvers from a recipe: pass recipe=, or run on threads")
    selected_tasks(config)  # a bad task file or selection fails before a model is loaded
    settings = _settings(config.provider, config.model, config.max_tokens)
    recipe = recipe or ModelRecipe(settings)
    if config.backend == "ray":
        address = config.ray_address or ray_address()
        if address:
            from bench.backends.ray_cluster import ClusterError, prepare

            try:
                prepare(address)
            except ClusterError as exc:
                raise ValueError(str(exc)) from None
        spec = None
    elif not config.endpoints:
        solver = solver or recipe(None, None)
        spec = solver.model_spec
    else:
        spec = None
    db_path, run_id = create_run(config, db_path, spec)
    return _launch(db_path, run_id, solver, recipe, background, progress)


def stop_run(run_id: str, db_path: Path | None = None) -> None:
    """Ask a run to stop (works across processes through the store). Threads finish the task they are on;
    solver processes and Ray actors are ended at once, and the tasks they held are done again on resume."""
    db = store.open_store(Path(db_path or default_db_path()))
    if store.get_run(db, run_id)["status"] in ("running", "starting"):
        store.update_run(db, run_id, status="stopping")
    with _active_lock:
        event = _active.get(run_id)
    if event:
        event.set()


def resume_run(run_id: str, db_path: Path | None = None, *, solver: Solver | None = None,
               recipe: SolverRecipe | None = None, background: bool = True, progress=None) -> str:
    """Continue a stopped, failed or killed run on its own backend: finished tasks are skipped, nothing is
    duplicated."""
    db_path = Path(db_path or default_db_path())
    run = store.get_run(store.open_store(db_path), run_id)
    if run_state(run) == "running":
        raise RuntimeError(f"run {run_id} is still running (owner {run['owner']})")
    return _launch(db_path, run_id, solver, recipe, background, progress)


def run_state(run: dict) -> str:
    """The stored status, except that a running run whose owner stopped beating shows as 'interrupted'.

    The owner is a per-process token with a heartbeat (agent.solves.liveness), not a process id, which
    a restart or another machine may reuse."""
    status = run["status"]
    if status in ("running", "starting", "stopping"):
        return status if owner_alive(run["id"], run.get("owner"), run.get("heartbeat")) else "interrupted"
    return status


def config_of(run: dict) -> dict:
    """The run's configuration as stored (for display and MLflow), its search's fields among the others."""
    keys = (asdict(RunConfig()).keys() - {"search"}) | {"code_version", "protocol"}
    return {k: run.get(k) for k in keys if k in run} | search_dict(stored_search(run)) | {"tasks": run["tasks_spec"]}


def backend_label(run: dict) -> str:
    """Where a run's tasks ran, in a few words: 'threads x2', 'processes x2', 'ray 2 actors x 1 CPU at
    10.0.0.5:6379'..."""
    endpoints = f" on {len(run['endpoints'])} endpoints" if run["endpoints"] else ""
    if run["backend"] != "ray":
        return f"{run['backend']} x{run['parallel']}{endpoints}"
    actors = f"{run['actors']} actors" if run["actors"] else "actors filling the cluster"
    where = f" at {run['ray_address']}" if run["ray_address"] else " (local Ray)"
    return f"ray {actors} x {run['cpus_per_actor'] or 1:g} CPU{where}{endpoints}"
