"""Copy finished runs between bench databases as one JSON file: `python -m bench dump` and `python -m bench load`.

The rows are written as the store holds them, so a loaded run reads exactly like the original (the same metrics,
curves and comparisons), and a run made from a task file carries its tasks, so it resumes where it is loaded. A dump
an earlier version wrote is read through the store's migration (bench.runs.migration), as its database would be.
`slim` leaves out what is long and only read when studying one attempt (the prompt
messages, the raw answers, the sandbox reports); the code of every candidate stays.
"""

from __future__ import annotations

import gzip
import json
from pathlib import Path

from sqlite_utils import Database

from bench.runs import store
from bench.runs.migration import upgraded_result, upgraded_run
from bench.runs.schema import ATTEMPT_COLUMNS, QUESTION_COLUMNS, RESULT_COLUMNS, RUN_COLUMNS, TASK_COLUMNS

FORMAT = "self-healing-agent bench runs, v2"  # v2: today's run columns (bench.runs.schema)
EARLIER_FORMATS = ("self-healing-agent bench runs, v1",)  # read through bench.runs.migration
SLIM_DROPS = ("messages", "answer", "visible_report", "hidden_report")


def dump_runs(db: Database, run_ids: list[str], *, slim: bool = False) -> dict:
    """The stored rows of these runs (runs, results, attempts, a task file's tasks and an interactive run's
    questions), ready for json.dump."""
    runs, results, attempts, tasks, questions = [], [], [], [], []
    for run_id in run_ids:
        store.get_run(db, run_id)  # StoreError naming an unknown id
        runs += list(db["runs"].rows_where("id = ?", [run_id]))
        tasks += list(db["tasks"].rows_where("run_id = ?", [run_id], order_by="task_index"))
        results += list(db["results"].rows_where("run_id = ?", [run_id], order_by="task_index"))
        questions += list(db["questions"].rows_where("run_id = ?", [run_id], order_by="task_id, number"))
        for row in db["attempts"].rows_where("run_id = ?", [run_id], order_by="task_id, iteration"):
            attempts.append({k: (None if slim and k in SLIM_DROPS else v) for k, v in row.items()})
    return {"format": FORMAT, "runs": runs, "results": results, "attempts": attempts, "tasks": tasks,
            "questions": questions}


def _known(row: dict, columns: dict) -> dict:
    # Every column of today's: a dump may lack some (they came later: empty, as in the database it came from) and
    # hold some no more stored (left out).
    return {column: row.get(column) for column in columns}


def load_runs(db: Database, data: dict) -> list[str]:
    """Store the dumped runs (each whole in one transaction); returns their ids.
    A run id already in the database is refused rather than mixed with what is there."""
    if data.get("format") not in (FORMAT, *EARLIER_FORMATS):
        raise ValueError(f"not a dump of bench runs (format {data.get('format')!r}, expected {FORMAT!r})")
    existing = {r.id for r in store.list_runs(db)}
    clashing = [r["id"] for r in data["runs"] if r["id"] in existing]
    if clashing:
        raise ValueError(f"runs already in this database: {', '.join(clashing)}")
    rows: dict[str, dict[str, list[dict]]] = {r["id"]: {"tasks": [], "results": [], "attempts": [], "questions": []}
                                              for r in data["runs"]}
    for table, columns, upgrade in (("tasks", TASK_COLUMNS, dict), ("results", RESULT_COLUMNS, upgraded_result),
                                    ("attempts", ATTEMPT_COLUMNS, dict), ("questions", QUESTION_COLUMNS, dict)):
        for row in data.get(table, []):
            rows[row["run_id"]][table].append(_known(upgrade(row), columns))
    for run in data["runs"]:
        store.insert_run(db, _known(upgraded_run(run), RUN_COLUMNS), **rows[run["id"]])
    return [r["id"] for r in data["runs"]]


def write_file(data: dict, path: Path) -> None:
    """Write a dump as JSON, gzipped when the name ends in .gz (a run's code is most of it and packs well)."""
    text = json.dumps(data, separators=(",", ":")) + "\n"
    path = Path(path)
    if path.suffix == ".gz":
        path.write_bytes(gzip.compress(text.encode("utf-8"), mtime=0))  # mtime 0: the same runs, the same bytes
    else:
        path.write_text(text, encoding="utf-8")


def load_file(db: Database, path: Path) -> list[str]:
    """load_runs from a file written by `python -m bench dump` (JSON, or gzipped JSON ending in .gz)."""
    path = Path(path)
    raw = gzip.decompress(path.read_bytes()) if path.suffix == ".gz" else path.read_bytes()
    return load_runs(db, json.loads(raw))
