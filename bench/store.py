"""The bench's SQLite store (sqlite-utils): runs, per-task results, per-attempt details, and the tasks of runs
made from a task file (so they resume and read without the file).

One file, WAL mode, a busy timeout, and one short transaction per finished task, so a run
writing while the UI reads and another run writes never sees "database is locked", and a run
killed at any instant leaves either a whole task or nothing of it.
Read it with the CLI too: ``sqlite-utils tables bench.sqlite --counts``.
"""

from __future__ import annotations

import contextlib
import json
import sqlite3
import time
from collections.abc import Iterator
from pathlib import Path

from sqlite_utils import Database

RUN_COLUMNS = {
    "id": str, "created": float, "started": float, "finished": float, "status": str, "protocol": str,
    # prompt_version, max_retries and strategy: the search as runs stored it before it was stored whole (search);
    # still read from those runs (agent.config.stored_search), no longer written
    "provider": str, "model": str, "prompt_version": str, "max_retries": int, "feedback": str, "tasks_spec": str,
    "task_ids": str, "workers": int, "code_version": str, "pid": int, "heartbeat": float, "error": str,
    "elapsed": float, "model_arg": str, "max_tokens": int, "strategy": str, "owner": str, "isolation": str,
    "executor": str, "ray_address": str, "actors": int, "cpus_per_actor": float, "endpoints": str, "notes": str,
    "dataset": str, "tasks_file": str, "tasks_sha256": str,
    "rescored_from": str,  # a rescored run (bench.rescore): the run whose candidates it scored again
    # pass@k runs (bench.task_protocol.SAMPLED): samples a task and their temperature, or the file imported samples
    # came from
    "samples": int, "temperature": float, "samples_file": str, "samples_sha256": str,
    "search": str,  # JSON: the run's agent.config.Search, whole (search_dict); read it with stored_search
}
JSON_RUN_COLUMNS = ("task_ids", "endpoints")  # lists, stored as JSON text, handed to every caller decoded
RESULT_COLUMNS = {
    "run_id": str, "task_id": str, "task_index": int, "final_status": str, "visible_passed": int,
    "hidden_passed": int, "iterations": int, "tokens_in": int, "tokens_out": int, "seconds": float,
    "model_seconds": float, "hidden_by_attempt": str, "visible_by_attempt": str, "thread_id": str, "error": str,
    "visible_tests": int, "finished": float, "answer_by_cap": str, "choice": str, "worker": str, "extract_errors": int,
    "pass_at_1": float,  # a sampled run's task (bench.task_protocol.SAMPLED): its share of passing samples, c / n
}
ATTEMPT_COLUMNS = {
    "run_id": str, "task_id": str, "iteration": int, "code": str, "answer": str, "visible_status": str,
    "visible_report": str, "hidden_passed": int, "hidden_status": str, "hidden_report": str, "messages": str,
    "tokens_in": int, "tokens_out": int, "prompt_tokens_reused": int, "seconds_model": float,
    "seconds_tests": float, "kind": str, "signature": str, "temperature": float, "seed": int, "extract_error": str,
    "behaviour": str,  # JSON: the outcome on each probe (agent.loop.probes), so a chooser can be re-run on stored runs
    "removed": str,  # JSON: what cleaning took out of the answer's code (agent.loop.answer_cleaning); NULL before it
}
# A task file's tasks, as bench.tasks.Task, for the runs made from one (HumanEval's come from its package).
TASK_COLUMNS = {
    "run_id": str, "task_id": str, "task_index": int, "prompt": str, "tests": str, "hidden_tests": str,
    "entry_point": str, "visible_count": int,
}


def open_store(path: str | Path) -> Database:
    """Open (creating if needed) the bench database with WAL and a generous busy timeout."""
    path = Path(path)
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        conn = sqlite3.connect(path, timeout=60, check_same_thread=False, isolation_level=None)
        conn.execute("PRAGMA busy_timeout = 60000")
        db = Database(conn)
        db.enable_wal()
        _ensure_schema(db)
    except sqlite3.DatabaseError as exc:
        raise StoreError(f"cannot use {path} as the bench database: {exc}") from None
    except OSError as exc:
        raise StoreError(f"cannot open {path}: {exc.strerror}") from None
    return db


@contextlib.contextmanager
def _writing(db: Database) -> Iterator[None]:
    """A write transaction that takes the write lock up front (BEGIN IMMEDIATE).

    sqlite-utils' atomic() starts with a plain BEGIN; its helpers read before they write, and a
    read transaction that must then become a writer fails at once with "database is locked"
    when another connection wrote meanwhile: the busy timeout does not apply to that upgrade.
    """
    db.execute("BEGIN IMMEDIATE")
    try:
        yield
    except BaseException:
        db.execute("ROLLBACK")
        raise
    db.execute("COMMIT")


class StoreError(Exception):
    """The database file is unreadable, not SQLite, or a run id is unknown."""


_TABLES = {"runs": (RUN_COLUMNS, "id"), "results": (RESULT_COLUMNS, ("run_id", "task_id")),
           "attempts": (ATTEMPT_COLUMNS, ("run_id", "task_id", "iteration")),
           "tasks": (TASK_COLUMNS, ("run_id", "task_id"))}


def _missing_columns(db: Database) -> dict[str, dict]:
    names = set(db.table_names())
    return {table: {c: t for c, t in columns.items() if table not in names or c not in db[table].columns_dict}
            for table, (columns, _) in _TABLES.items()}


def _ensure_schema(db: Database) -> None:
    """Create the tables, or add the columns a newer version stores to a database made by an older one."""
    if not any(_missing_columns(db).values()):
        return  # readers (the UI polls every 2 s) need no write lock
    with _writing(db):
        names = set(db.table_names())
        for table, missing in _missing_columns(db).items():
            columns, pk = _TABLES[table]
            if table not in names:
                db[table].create(columns, pk=pk)
                continue
            for column, kind in missing.items():
                db[table].add_column(column, kind)


def create_run(db: Database, run: dict, tasks: list[dict] | None = None) -> None:
    """Insert a new run row, with the tasks of a run made from a task file (bench.tasks.Task), in one transaction."""
    with _writing(db):
        db["runs"].insert(run)
        if tasks:
            db["tasks"].insert_all([_task_row(run["id"], task) for task in tasks])


def _task_row(run_id: str, task: dict) -> dict:
    row = {column: task.get(column) for column in TASK_COLUMNS if column in task}
    return {**row, "run_id": run_id, "task_index": task.get("index", task.get("task_index"))}


def run_tasks(db: Database, run_id: str) -> list[dict]:
    """The tasks stored with a run (bench.tasks.Task, in dataset order); empty for a HumanEval run."""
    rows = db.query("SELECT * FROM tasks WHERE run_id = ? ORDER BY task_index", [run_id])
    return [{"task_id": r["task_id"], "index": r["task_index"], "prompt": r["prompt"], "tests": r["tests"],
             "hidden_tests": r["hidden_tests"], "entry_point": r["entry_point"], "visible_count": r["visible_count"]}
            for r in rows]


def update_run(db: Database, run_id: str, **fields: object) -> None:
    """Change some columns of a run (status, heartbeat, finished, ...)."""
    with _writing(db):
        db["runs"].update(run_id, fields)


_RUNS_WITH_COUNTS = (
    "SELECT runs.*, COUNT(results.task_id) AS done, COALESCE(SUM(results.hidden_passed), 0) AS passing "
    "FROM runs LEFT JOIN results ON results.run_id = runs.id {where} GROUP BY runs.id ORDER BY runs.created DESC")


def _decoded(row: dict) -> dict:
    """The one row shape of a run: JSON columns decoded (the search None for a run stored before it was, which
    agent.config.stored_search reads from its older columns), backend read from the executor column (its name before
    backends were called so), threads for runs stored before it, parallel from workers."""
    for column in JSON_RUN_COLUMNS:
        row[column] = json.loads(row.get(column) or "[]")
    row["search"] = json.loads(row["search"]) if row.get("search") else None
    # Read here only; the raw column stays in the row so that copies of it (rescore, transfer) keep it.
    row["backend"] = row.get("executor") or "threads"
    row["parallel"] = row.get("workers")  # the workers column holds parallel (its name before "worker" meant a
    # sandbox process only)
    row["dataset"] = row.get("dataset") or "humaneval"  # runs stored before task files all ran HumanEval
    return row


def get_run(db: Database, run_id: str) -> dict:
    """One run's row in list_runs' shape (lists decoded, with done and passing), or StoreError naming the id."""
    rows = list(db.query(_RUNS_WITH_COUNTS.format(where="WHERE runs.id = ?"), [run_id]))
    if not rows:
        raise StoreError(f"no run {run_id!r} in this database (see `python -m bench list`)")
    return _decoded(rows[0])


def list_runs(db: Database) -> list[dict]:
    """Every run, newest first, in get_run's shape: task_ids and endpoints decoded, with how many tasks are
    done and passing (hidden tests)."""
    return [_decoded(row) for row in db.query(_RUNS_WITH_COUNTS.format(where=""))]


def record_task(db: Database, result: dict, attempts: list[dict]) -> None:
    """Write one finished task and all its attempts in a single transaction (all or nothing)."""
    with _writing(db):
        db["attempts"].delete_where("run_id = ? AND task_id = ?", [result["run_id"], result["task_id"]])
        db["attempts"].insert_all(attempts)
        db["results"].insert(result, replace=True)
        db["runs"].update(result["run_id"], {"heartbeat": time.time()})


def results(db: Database, run_id: str) -> list[dict]:
    """Per-task results of a run in task order, JSON columns decoded."""
    rows = list(db.query("SELECT * FROM results WHERE run_id = ? ORDER BY task_index", [run_id]))
    for row in rows:
        for column in ("hidden_by_attempt", "visible_by_attempt", "answer_by_cap"):
            row[column] = json.loads(row[column] or "[]")
    return rows


def attempts(db: Database, run_id: str, task_id: str | None = None) -> list[dict]:
    """Attempts of a run (or of one task), in order."""
    where, params = ("run_id = ?", [run_id]) if task_id is None else ("run_id = ? AND task_id = ?", [run_id, task_id])
    return list(db.query(f"SELECT * FROM attempts WHERE {where} ORDER BY task_id, iteration", params))


def finished_task_ids(db: Database, run_id: str) -> set[str]:
    """Tasks of a run that have a stored result (skipped on resume)."""
    return {r["task_id"] for r in db.query("SELECT task_id FROM results WHERE run_id = ?", [run_id])}


def hidden_statuses(db: Database, run_id: str) -> dict[str, list[str]]:
    """task_id -> the hidden-test status of each of its attempts, in order (passed, failed, timeout ...)."""
    grouped: dict[str, list[str]] = {}
    for row in db.query("SELECT task_id, hidden_status FROM attempts WHERE run_id = ? ORDER BY task_id, iteration",
                        [run_id]):
        grouped.setdefault(row["task_id"], []).append(row["hidden_status"])
    return grouped
