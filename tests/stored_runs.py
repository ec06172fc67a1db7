"""Real stored runs cut to some of their tasks, for tests that need a finished run of a few tasks without a model: the
rows a run stored, as `python -m bench dump` writes them, made a run of their own that selected only those tasks."""

from __future__ import annotations

import json
import time

from sqlite_utils import Database

from bench.datasets.humaneval import humaneval_tasks
from bench.datasets.selection import select_tasks
from bench.runs.record import new_run_id
from bench.runs.reference import reference_runs
from bench.runs.transfer import dump_runs, load_runs


def run_slice(dump: dict, run_id: str, task_ids: list[str], spec: str, **run: object) -> dict:
    """The dump of one run cut to these tasks (spec: the selection that names them), a finished run of its own;
    run: columns to change (a new id moves every row to it, so it loads beside the run it came from)."""
    new_id = run.get("id", run_id)
    kept = set(task_ids)
    source = next(r for r in dump["runs"] if r["id"] == run_id)

    def moved(rows: list[dict]) -> list[dict]:
        return [{**row, "run_id": new_id} for row in rows if row["run_id"] == run_id and row["task_id"] in kept]

    return {**dump, "runs": [{**source, "task_ids": json.dumps(task_ids), "tasks_spec": spec, **run}],
            "results": moved(dump["results"]), "attempts": moved(dump["attempts"]),
            "tasks": moved(dump.get("tasks", []))}


def load_as_new_run(db: Database, source: str, spec: str) -> str:
    """A finished HumanEval run in the database: the tasks of spec (sample:5 ...) as the reference run source solved
    them, under an id and a time of its own, loaded as `python -m bench load` loads a dump (no model); its id."""
    run_id = new_run_id()
    tasks = [task["task_id"] for task in select_tasks(spec, humaneval_tasks())]
    cut = run_slice(dump_runs(reference_runs().store(), [source]), source, tasks, spec, id=run_id,
                    created=time.time(), person="")
    cut["runs"][0]["elapsed"] = sum(r["seconds"] for r in cut["results"])  # its tasks' time, one after another
    load_runs(db, cut)
    return run_id
