"""Run the agent over HumanEval: honest by construction, in background threads, resumable.

The loop repairs against visible tests only (the docstring's examples). The hidden tests run
afterwards, on every attempt's code, in the sandbox: their text and verdicts never reach the model.
One run therefore gives the pass rate the loop would have had after 0, 1, 2 ... repairs.
"""

from __future__ import annotations

import ast
import json
import os
import queue
import subprocess
import threading
import time
import uuid
from dataclasses import asdict, dataclass
from pathlib import Path

from agent import ModelChoice, RunFinished, Search, Solver, load_settings, make_solver, sandbox_status
from agent.choice import answers_by_budget
from agent.liveness import keep_alive, owner_alive
from bench import store
from bench.humaneval import Problem
from bench.tasks import select_tasks
from bench.visible_tests import visible_test_source
from sandbox import Limits, run_tests
from sandbox.syntax import parse

FEEDBACK_MODES = ("visible", "none", "oracle")
HIDDEN_LIMITS = Limits(timeout_s=10)


def protocol_label(feedback: str) -> str:
    """'leaky' when hidden-test failures reach the model (oracle), else 'honest'."""
    return "leaky" if feedback == "oracle" else "honest"


@dataclass
class RunConfig:
    """What a run is: the model, the protocol and the tasks."""

    tasks: str = "all"
    provider: str | None = None
    model: str | None = None
    max_retries: int = Search.max_retries  # the budget: candidates after the first answer
    feedback: str = "visible"
    workers: int = 2
    max_tokens: int | None = None
    strategy: str = Search.strategy
    prompt_version: str = Search.prompt_version


class ModelOutage(Exception):
    """The model stopped answering: the run stops, keeps what it finished, and can be resumed."""


def default_db_path() -> Path:
    """bench.sqlite under the data dir (DATA_DIR)."""
    return load_settings().data_dir / "bench.sqlite"


def code_version() -> str:
    """The git commit of this checkout (with -dirty for local changes), or 'unknown'."""
    root = Path(__file__).resolve().parent.parent
    try:
        head = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=root, capture_output=True, text=True,
                              timeout=5).stdout.strip()
        dirty = subprocess.run(["git", "status", "--porcelain", "--untracked-files=no"], cwd=root,
                               capture_output=True, text=True, timeout=5).stdout.strip()
    except (OSError, subprocess.SubprocessError):
        return "unknown"
    return (head + ("-dirty" if dirty else "")) if head else "unknown"


def visible_tests_for(problem: Problem) -> tuple[str, int]:
    """The docstring's examples as asserts; where there are none, only that the function exists."""
    source = visible_test_source(problem)
    count = sum(isinstance(node, ast.Assert) for node in parse(source).body) if source.strip() else 0
    return (source if count else f"assert callable({problem['entry_point']})\n"), count


def answer_at_cap(result: dict, k: int) -> int | None:
    """Index of the answer the loop gives with a budget of k candidates after the first: the chooser's
    pick among the first k + 1 (agent.choice, stored per result); None if no attempt was made.
    Results stored before the chooser existed: the first visible pass within k + 1, else attempt k + 1."""
    by_cap = result.get("answer_by_cap")
    if by_cap:
        return by_cap[min(k, len(by_cap) - 1)]
    visible = result["visible_by_attempt"]
    limit = min(k + 1, len(visible))
    return next((i for i in range(limit) if visible[i]), limit - 1) if limit else None


def hidden_at_cap(result: dict, k: int) -> bool:
    """Hidden verdict of the answer at cap k (see answer_at_cap)."""
    index = answer_at_cap(result, k)
    return bool(result["hidden_by_attempt"][index]) if index is not None else False


def solve_task(solver: Solver, problem: Problem, run: dict) -> tuple[dict, list[dict]]:
    """One agent solve on one problem, then every attempt scored on the hidden tests."""
    visible, count = visible_tests_for(problem)
    feedback, retries = run["feedback"], (0 if run["feedback"] == "none" else run["max_retries"])
    executed, shown = (problem["test"], visible) if feedback == "oracle" else (visible, None)
    started = time.perf_counter()
    events = list(solver.start(problem["prompt"], executed, entry_point=problem["entry_point"],
                               max_retries=retries, strategy=run["strategy"] or None,
                               prompt_version=run["prompt_version"], shown_tests=shown))
    final = events[-1]
    assert isinstance(final, RunFinished)
    made = [c for c in solver.candidates(final.thread_id) if c.ran]
    if final.status == "error" or not made:
        raise ModelOutage(final.error or "the model gave no answer")
    rows, vis, hid = [], [], []
    for candidate in made:
        hidden = run_tests(candidate.code, problem["test"], entry_point=problem["entry_point"], limits=HIDDEN_LIMITS)
        if feedback == "oracle":
            visible_ok = run_tests(candidate.code, visible, entry_point=problem["entry_point"]).passed
        else:
            visible_ok = candidate.passed
        vis.append(visible_ok)
        hid.append(hidden.passed)
        rows.append({
            "run_id": run["id"], "task_id": problem["task_id"], "iteration": candidate.number,
            "code": candidate.code, "answer": candidate.answer, "visible_status": candidate.report.status,
            "visible_report": json.dumps(candidate.report.to_dict()), "hidden_passed": int(hidden.passed),
            "hidden_status": hidden.status, "hidden_report": json.dumps(hidden.to_dict()),
            "messages": json.dumps(candidate.messages), "tokens_in": candidate.tokens_in,
            "tokens_out": candidate.tokens_out, "prompt_tokens_reused": candidate.prompt_tokens_reused,
            "seconds_model": candidate.seconds_model, "seconds_tests": candidate.seconds_tests,
            "kind": candidate.kind, "signature": candidate.signature, "temperature": candidate.temperature,
            "seed": candidate.seed,
        })
    by_cap = answers_by_budget(made)
    picked = solver.chosen(final.thread_id)
    result = {
        "run_id": run["id"], "task_id": problem["task_id"], "task_index": int(problem["task_id"].split("/")[1]),
        "final_status": final.status, "visible_passed": int(any(vis)),
        "hidden_passed": int(hid[by_cap[-1]]), "answer_by_cap": json.dumps(by_cap),
        "choice": picked.reason if picked else "",
        "iterations": len(made), "tokens_in": sum(r["tokens_in"] for r in rows),
        "tokens_out": sum(r["tokens_out"] for r in rows), "seconds": round(time.perf_counter() - started, 3),
        "model_seconds": round(sum(r["seconds_model"] for r in rows), 3), "hidden_by_attempt": json.dumps(hid),
        "visible_by_attempt": json.dumps(vis), "thread_id": final.thread_id, "error": None, "visible_tests": count,
        "finished": time.time(),
    }
    return result, rows


# --- background execution -----------------------------------------------------------------

_active: dict[str, threading.Event] = {}
_active_lock = threading.Lock()


def _settings(provider: str | None, model: str | None, max_tokens: int | None):
    settings = load_settings().with_overrides(provider=provider or None, model=model or None)
    return settings.with_overrides(max_tokens=max_tokens) if max_tokens else settings


def _solver_for(run: dict) -> Solver:
    return make_solver(_settings(run["provider"], run["model_arg"], run["max_tokens"]))


def _execute(db_path: Path, run_id: str, solver: Solver, stop: threading.Event, progress=None) -> None:
    db = store.open_store(db_path)
    run = store.get_run(db, run_id)
    problems = {p["task_id"]: p for p in select_tasks("all")}
    todo: queue.Queue[Problem] = queue.Queue()
    done = store.finished_task_ids(db, run_id)
    for task_id in run["task_ids"]:
        if task_id not in done:
            todo.put(problems[task_id])
    segment_start = time.time()
    store.update_run(db, run_id, status="running", pid=os.getpid(), heartbeat=segment_start, error=None,
                     started=run["started"] or segment_start)
    failure: list[str] = []

    def worker() -> None:
        local = store.open_store(db_path)
        while not stop.is_set() and not failure:
            if store.get_run(local, run_id)["status"] == "stopping":  # a stop asked from another process
                stop.set()
                break
            try:
                problem = todo.get_nowait()
            except queue.Empty:
                return
            try:
                result, rows = solve_task(solver, problem, run)
                store.record_task(local, result, rows)
            except ModelOutage as exc:
                failure.append(f"{problem['task_id']}: {exc}")
                return
            except Exception as exc:  # a bug or a full disk must not lose the run: stop it, keep what is stored
                failure.append(f"{problem['task_id']}: {type(exc).__name__}: {exc}")
                return
            if progress:
                progress(result)

    # Daemon threads: an app shutting down must not wait for a run; the store keeps it resumable.
    threads = [threading.Thread(target=worker, name=f"bench-{run_id}-{i}", daemon=True)
               for i in range(max(1, run["workers"]))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    remaining = len(run["task_ids"]) - len(store.finished_task_ids(db, run_id))
    status = "failed" if failure else ("finished" if remaining == 0 else "stopped")
    store.update_run(db, run_id, status=status, error="; ".join(failure) or None, finished=time.time(),
                     elapsed=(run["elapsed"] or 0.0) + time.time() - segment_start)


def _launch(db_path: Path, run_id: str, solver: Solver | None, background: bool, progress=None) -> str:
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
            _execute(db_path, run_id, solver or _solver_for(store.get_run(db, run_id)), stop, progress)
        except Exception as exc:  # model unavailable at start, unreadable store...
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


def create_run(config: RunConfig, db_path: Path | None = None, choice: ModelChoice | None = None) -> tuple[Path, str]:
    """Validate a configuration and store it as a new run (not started yet)."""
    if config.feedback not in FEEDBACK_MODES:
        raise ValueError(f"feedback must be one of {', '.join(FEEDBACK_MODES)}, got {config.feedback!r}")
    if config.workers < 1:
        raise ValueError(f"workers must be 1 or more, got {config.workers}")
    problem = Search(max_retries=config.max_retries, strategy=config.strategy,
                     prompt_version=config.prompt_version).problem()
    if problem:
        raise ValueError(problem)
    problems = select_tasks(config.tasks)
    db_path = Path(db_path or default_db_path())
    db = store.open_store(db_path)
    run_id = time.strftime("%Y%m%d-%H%M%S-") + uuid.uuid4().hex[:6]
    store.create_run(db, {
        "id": run_id, "created": time.time(), "started": None, "finished": None, "status": "created",
        "protocol": protocol_label(config.feedback),
        "provider": choice.provider if choice else (config.provider or ""),
        "model": choice.model if choice else (config.model or ""), "model_arg": config.model or "",
        "max_tokens": config.max_tokens, "prompt_version": config.prompt_version, "strategy": config.strategy,
        "isolation": sandbox_status().description,
        "max_retries": 0 if config.feedback == "none" else config.max_retries, "feedback": config.feedback,
        "tasks_spec": config.tasks, "task_ids": json.dumps([p["task_id"] for p in problems]),
        "workers": config.workers, "code_version": code_version(), "pid": os.getpid(), "heartbeat": time.time(),
        "owner": None, "error": None, "elapsed": 0.0,
    })
    return db_path, run_id


def start_run(config: RunConfig, db_path: Path | None = None, *, solver: Solver | None = None,
              background: bool = True, progress=None) -> str:
    """Store a new run and start it; returns its id at once (background) or when it ends.

    The model is made first, so an unusable one (Ollama down, model not pulled) is reported before
    anything is stored."""
    select_tasks(config.tasks)  # a bad selection fails before a model is loaded
    solver = solver or make_solver(_settings(config.provider, config.model, config.max_tokens))
    db_path, run_id = create_run(config, db_path, solver.choice)
    return _launch(db_path, run_id, solver, background, progress)


def stop_run(run_id: str, db_path: Path | None = None) -> None:
    """Ask a run to stop at the next task boundary (works across processes through the store)."""
    db = store.open_store(Path(db_path or default_db_path()))
    if store.get_run(db, run_id)["status"] in ("running", "starting"):
        store.update_run(db, run_id, status="stopping")
    with _active_lock:
        event = _active.get(run_id)
    if event:
        event.set()


def resume_run(run_id: str, db_path: Path | None = None, *, solver: Solver | None = None, background: bool = True,
               progress=None) -> str:
    """Continue a stopped, failed or killed run: finished tasks are skipped, nothing is duplicated."""
    db_path = Path(db_path or default_db_path())
    run = store.get_run(store.open_store(db_path), run_id)
    if run_state(run) == "running":
        raise RuntimeError(f"run {run_id} is still running (owner {run['owner']})")
    return _launch(db_path, run_id, solver, background, progress)


def run_state(run: dict) -> str:
    """The stored status, except that a running run whose owner stopped beating shows as 'interrupted'.

    The owner is a per-process token with a heartbeat (agent.liveness), not a process id, which
    a restart or another machine may reuse."""
    status = run["status"]
    if status in ("running", "starting", "stopping"):
        return status if owner_alive(run["id"], run.get("owner"), run.get("heartbeat")) else "interrupted"
    return status


def config_of(run: dict) -> dict:
    """The run's configuration as stored (for display and MLflow)."""
    keys = asdict(RunConfig()).keys() | {"prompt_version", "code_version", "protocol"}
    return {k: run.get(k) for k in keys if k in run} | {"tasks": run["tasks_spec"]}
