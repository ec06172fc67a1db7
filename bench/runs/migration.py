"""The store's one migration: a database an earlier version of the bench wrote, brought to today's columns once,
when it is opened (bench.runs.store.open_store); and the same upgrade for the rows of a dump file one wrote
(bench.runs.transfer). After it, every reader reads today's columns only.

What earlier versions stored differently:

- runs: ``workers`` for tasks at once (today's ``parallel``) and ``executor`` for where they ran (today's
  ``backend``; empty: threads, the only backend then); no protocol in the first rows (their feedback says it); the
  search as three columns (``max_retries``, candidates after
  the first answer; ``strategy``; ``prompt_version``) before it was stored whole, and whole searches lacking fields
  that came later; no ``dataset`` (HumanEval, the only one then);
- results: no ``answer_by_cap`` (before the chooser): the answer at budget k was the first candidate within the
  first k + 1 to pass the visible tests, else the (k + 1)-th.

Every row is read as those versions read it, and written whole in today's shape: the same runs, read and scored
exactly as before.
"""

from __future__ import annotations

import json
from dataclasses import replace

from sqlite_utils import Database

from agent.config import SEARCH_FIELDS, Search, search_dict
from bench.datasets.humaneval import HUMANEVAL
from bench.protocol.labels import LOST_STATUSES, Protocol
from bench.runs.schema import TABLES, writing

VERSION = 1  # the store's PRAGMA user_version once it has today's shape
RENAMED = {"workers": "parallel", "executor": "backend"}
OLD_SEARCH_COLUMNS = ("max_retries", "strategy", "prompt_version")
FIRST_BACKEND = "threads"  # where every run ran before backends were stored
# What runs stored before a search setting existed ran with: they only repaired, with prompt v3, at one temperature.
BEFORE_SETTING = {"strategy": "repair", "prompt_version": "v3", "later_round_temperature": None}


def _stored_search(row: dict) -> Search | None:
    """The search an earlier version read from a runs row: whole (a field it lacks is what runs did before it
    existed, else today's default), or from the three columns before it was stored whole; None when it stored none
    (imported samples)."""
    whole = json.loads(row["search"]) if (row.get("search") or "").strip() else None
    if whole is not None:
        found = {k: whole[k] for k in SEARCH_FIELDS if whole.get(k) is not None}
    elif any(row.get(k) not in (None, "") for k in OLD_SEARCH_COLUMNS):
        found = {k: row[k] for k in SEARCH_FIELDS if row.get(k) not in (None, "")}
        if row.get("max_retries") is not None:
            found["budget"] = row["max_retries"] + 1
    else:
        return None
    return replace(Search(), **{**BEFORE_SETTING, **found})


def upgraded_run(row: dict) -> dict:
    """A runs row of any version in today's columns: parallel and backend by their names, the search whole,
    the dataset and the protocol named."""
    search = _stored_search(row)
    new = {RENAMED.get(k, k): v for k, v in row.items() if k not in OLD_SEARCH_COLUMNS}
    return {**new, "backend": new.get("backend") or FIRST_BACKEND, "dataset": new.get("dataset") or HUMANEVAL,
            "protocol": new.get("protocol") or Protocol.of(new.get("feedback") or "visible").value,
            "search": json.dumps(search_dict(search)) if search else None}


def upgraded_result(row: dict) -> dict:
    """A results row of any version with its answer at every budget (answer_by_cap): a row stored before the chooser
    gets the answers that version read."""
    visible = json.loads(row.get("visible_by_attempt") or "[]")
    if json.loads(row.get("answer_by_cap") or "[]") or row.get("final_status") in LOST_STATUSES or not visible:
        return row
    by_cap = [next((i for i in range(k + 1) if visible[i]), k) for k in range(len(visible))]
    return {**row, "answer_by_cap": json.dumps(by_cap)}


def _columns(db: Database) -> dict[str, set[str]]:
    names = set(db.table_names())
    return {table: set(db[table].columns_dict) if table in names else set() for table in TABLES}


def _current(db: Database) -> bool:
    """The store has today's shape: marked migrated, with every table and column of bench.runs.schema."""
    found = _columns(db)
    return db.execute("PRAGMA user_version").fetchone()[0] == VERSION and all(
        set(columns) <= found[table] for table, (columns, _) in TABLES.items())


def migrate(db: Database) -> None:
    """Bring a store to today's shape (creating its tables in a new one), in one transaction; a store already there
    is only read (a page polls every 2 s: no write lock then)."""
    if _current(db):
        return
    with writing(db):
        if _current(db):  # another process migrated it meanwhile
            return
        found = _columns(db)
        for old, new in RENAMED.items():
            if old in found["runs"] and new in found["runs"]:
                # Rows of both versions in one table (dumps of each loaded with added columns): keep either's value.
                db.execute(f"UPDATE runs SET {new} = COALESCE({new}, {old})")
                db.execute(f"ALTER TABLE runs DROP COLUMN {old}")
            elif old in found["runs"]:
                db.execute(f"ALTER TABLE runs RENAME COLUMN {old} TO {new}")
        found = _columns(db)
        for table, (columns, pk) in TABLES.items():
            if not found[table]:
                db[table].create(columns, pk=pk)
            for column, kind in columns.items():
                if found[table] and column not in found[table]:
                    db[table].add_column(column, kind)
        for row in list(db.query("SELECT * FROM runs")):
            changed = {k: v for k, v in upgraded_run(row).items() if k in TABLES["runs"][0] and v != row.get(k)}
            if changed:
                db.execute(f"UPDATE runs SET {', '.join(f'{k} = ?' for k in changed)} WHERE id = ?",
                           [*changed.values(), row["id"]])
        for column in OLD_SEARCH_COLUMNS:
            if column in found["runs"]:
                db.execute(f"ALTER TABLE runs DROP COLUMN {column}")
        for row in list(db.query("SELECT * FROM results WHERE answer_by_cap IS NULL OR answer_by_cap = '[]'")):
            upgraded = upgraded_result(row)
            if upgraded is not row:
                db.execute("UPDATE results SET answer_by_cap = ? WHERE run_id = ? AND task_id = ?",
                           [upgraded["answer_by_cap"], row["run_id"], row["task_id"]])
        db.execute(f"PRAGMA user_version = {VERSION}")
