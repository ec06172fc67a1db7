"""The bench's SQLite store (sqlite-utils): runs, per-task results, per-attempt details, and the tasks of runs
made from a task file (so they resume and read without the file). Its tables are bench.runs.schema's.

One file, WAL mode, a busy timeout, and one short transaction per finished task, so a run
writing while the UI reads and another run writes never sees "database is locked", and a run
killed at any instant leaves either a whole task or nothing of it. A database an earlier version wrote is
brought to today's columns when it is opened (bench.runs.migration).
Read it with the CLI too: ``sqlite-utils tables bench.sqlite --counts``.
"""

from __future__ import annotations

import json
import sqlite3
import time
from pathlib import Path

from sqlite_utils import Database

from bench.runs.migration import migrate
from bench.runs.record import Run
from bench.runs.schema import JSON_RESULT_COLUMNS, TASK_COLUMNS, writing


class StoreError(Exception):
    """The database file is unreadable, not SQLite, or a run id is unknown."""


def open_store(path: str | Path) -> Database:
    """Open (creating if needed) the bench database with WAL and a generous busy timeout, in today's shape."""
    path = Path(path)
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        conn = sqlite3.connect(path, timeout=60, check_same_thread=False, isolation_level=None)
        conn.execute("PRAGMA busy_timeout = 60000")
        db = Database(conn)
        db.enable_wal()
        migrate(db)
    except sqlite3.DatabaseError as exc:
        raise StoreError(f"cannot use {path} as the bench database: {exc}") from None
    except OSError as exc:
        raise StoreError(f"cannot open {path}: {exc.strerror}") from None
    return db


def create_run(db: Database, run: dict, tasks: list[dict] | None = None) -> None:
    """Insert a new run's row (bench.runs.record.new_run_row), with the tasks of a run made from a task file
    (bench.datasets.task.Task), in one transaction."""
    with writing(db):
        db["runs"].insert(run)
        if tasks:
            db["tasks"].insert_all([_task_row(run["id"], task) for task in tasks])


def insert_run(db: Database, run: dict, tasks: list[dict], results: list[dict], attempts: list[dict],
               questions: list[dict] | None = None) -> None:
    """Insert a whole run as another database stored it (a loaded dump): its row, a task file's tasks, its results,
    attempts and questions, in one transaction, so a load that fails leaves nothing of the run."""
    with writing(db):
        db["runs"].insert(run)
        db["tasks"].insert_all([_task_row(run["id"], task) for task in tasks])
        db["results"].insert_all(results)
        db["attempts"].insert_all(attempts)
        db["questions"].insert_all(questions or [])


def _task_row(run_id: str, task: dict) -> dict:
    row = {column: task.get(column) for column in TASK_COLUMNS if column in task}
    return {**row, "run_id": run_id, "task_index": task.get("index", task.get("task_index"))}


def run_tasks(db: Database, run_id: str) -> list[dict]:
    """The tasks stored with a run (bench.datasets.task.Task, in dataset order); empty for a packaged dataset's."""
    rows = db.query("SELECT * FROM tasks WHERE run_id = ? ORDER BY task_index", [run_id])
    # A task with no reference has no key for it, as a task file's without one (bench.datasets.task.Task).
    return [{"task_id": r["task_id"], "index": r["task_index"], "prompt": r["prompt"], "tests": r["tests"],
             "hidden_tests": r["hidden_tests"], "entry_point": r["entry_point"], "visible_count": r["visible_count"],
             **({"reference": r["reference"]} if r.get("reference") is not None else {})} for r in rows]


def update_run(db: Database, run_id: str, **fields: object) -> None:
    """Change some columns of a run (status, heartbeat, finished, ...)."""
    with writing(db):
        db["runs"].update(run_id, fields)


_RUNS_WITH_COUNTS = (
    "SELECT runs.*, COUNT(results.task_id) AS done, COALESCE(SUM(results.hidden_passed), 0) AS passing "
    "FROM runs LEFT JOIN results ON results.run_id = runs.id {where} GROUP BY runs.id ORDER BY runs.created DESC")


def get_run(db: Database, run_id: str) -> Run:
    """One run, with how many of its tasks are done and passing, or StoreError naming the id."""
    rows = list(db.query(_RUNS_WITH_COUNTS.format(where="WHERE runs.id = ?"), [run_id]))
    if not rows:
        raise StoreError(f"no run {run_id!r} in this database (see `python -m bench list`)")
    return Run.from_row(rows[0])


def list_runs(db: Database) -> list[Run]:
    """Every run, newest first, with how many of its tasks are done and passing (hidden tests)."""
    return [Run.from_row(row) for row in db.query(_RUNS_WITH_COUNTS.format(where=""))]


def record_task(db: Database, result: dict, attempts: list[dict], questions: list[dict] | None = None) -> None:
    """Write one finished task, all its attempts and (an interactive run's) the questions its solve put, in a single
    transaction (all or nothing)."""
    with writing(db):
        for table in ("attempts", "questions"):
            db[table].delete_where("run_id = ? AND task_id = ?", [result["run_id"], result["task_id"]])
        db["attempts"].insert_all(attempts)
        db["questions"].insert_all(questions or [])
        db["results"].insert(result, replace=True)
        db["runs"].update(result["run_id"], {"heartbeat": time.time()})


def results(db: Database, run_id: str) -> list[dict]:
    """Per-task results of a run in task order, JSON columns decoded."""
    rows = list(db.query("SELECT * FROM results WHERE run_id = ? ORDER BY task_index", [run_id]))
    for row in rows:
        for column in JSON_RESULT_COLUMNS:
            row[column] = json.loads(row[column] or "[]")
    return rows


def attempts(db: Database, run_id: str, task_id: str | None = None) -> list[dict]:
    """Attempts of a run (or of one task), in order."""
    where, params = ("run_id = ?", [run_id]) if task_id is None else ("run_id = ? AND task_id = ?", [run_id, task_id])
    return list(db.query(f"SELECT * FROM attempts WHERE {where} ORDER BY task_id, iteration", params))


def questions(db: Database, run_id: str, task_id: str | None = None) -> list[dict]:
    """The questions an interactive run's solves put (of one task, when given) and the simulated person's answers,
    by task and in the order asked; JSON columns decoded."""
    where, params = ("run_id = ?", [run_id]) if task_id is None else ("run_id = ? AND task_id = ?", [run_id, task_id])
    rows = list(db.query(f"SELECT * FROM questions WHERE {where} ORDER BY task_id, number", params))
    for row in rows:
        for column in ("options", "reply", "kept", "dropped"):
            row[column] = json.loads(row[column] or "null")
    return rows


def load_outcomes(db: Database, run_id: str, task_ids: set[str] | None = None) -> list[dict]:
    """What tells how each candidate of a run fared when loaded (bench.scoring.load_losses), without its prompts:
    task_id, iteration, visible_status, visible_report, code, extract_error, removed; of the given tasks only, when
    task_ids is given."""
    rows = db.query("SELECT task_id, iteration, visible_status, visible_report, code, extract_error, removed "
                    "FROM attempts WHERE run_id = ? ORDER BY task_id, iteration", [run_id])
    return [r for r in rows if task_ids is None or r["task_id"] in task_ids]


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
