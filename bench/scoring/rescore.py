"""Score a finished HumanEval run's stored candidates on HumanEval+, without calling the model
(`python -m bench rescore RUN_ID --dataset humaneval+`).

Every candidate's code is in the run's attempts: each runs again, in the sandbox, on the other dataset's hidden
tests under that task's time limit. Nothing else changes: the same candidates, the same visible verdicts and the
same answers (the chooser's pick at each budget, answer_by_cap, is copied), so the new hidden verdicts read as
"this run, judged by HumanEval+". The result is a new run with the protocol 'rescored' and ``rescored_from`` naming
its source. It is not a run of the loop and is never mixed with one: the report shows it as its source's HumanEval+
column, list, show and the Bench page label it, and the CI gate runs the loop itself.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from bench.datasets import DATASETS, load_dataset
from bench.datasets.humaneval import HUMANEVAL
from bench.datasets.humanevalplus import HUMANEVAL_PLUS
from bench.datasets.task import Task
from bench.protocol.hidden import hidden_status, run_hidden
from bench.protocol.labels import Protocol
from bench.runs import store
from bench.runs.record import Run, new_run_id, new_run_row
from bench.runs.schema import RESULT_COLUMNS
from bench.scoring.caps import answer_at_cap, final_cap
from bench.settings import DEFAULT_AT_ONCE, bench_db_path

TARGETS = (HUMANEVAL_PLUS,)  # datasets a run can be rescored onto: the same tasks as HumanEval, other hidden tests
# Columns a rescoring does not copy from its source: it is a new run, made here and now.
NOT_COPIED = ("id", "created", "started", "finished", "status", "protocol", "rescored_from", "dataset",
              "code_version", "pid", "heartbeat", "owner", "error", "notes", "search", "task_ids", "endpoints")


def check_rescore(run: Run, dataset: str) -> None:
    """ValueError saying why this run cannot be rescored onto this dataset: a target that is not HumanEval+ (or is
    HumanEval itself), a run that is not finished, not an honest run of the loop, or not on HumanEval."""
    if dataset == HUMANEVAL:
        raise ValueError(f"run {run.id} was scored on {HUMANEVAL} when it ran: rescore it onto "
                         f"{' or '.join(TARGETS)}")
    if dataset not in TARGETS:
        known = f"unknown dataset {dataset!r}" if dataset not in DATASETS else f"{dataset} has other tasks"
        raise ValueError(f"{known}: a HumanEval run can be rescored onto {', '.join(TARGETS)} only")
    if run.protocol == Protocol.RESCORED:
        raise ValueError(f"run {run.id} is itself a rescoring (of {run.rescored_from}): rescore that run")
    state = run.state()
    if state != "finished":
        raise ValueError(f"run {run.id} is {state}, not finished: resume it first (`python -m bench resume "
                         f"{run.id}`), then rescore it")
    if run.protocol != Protocol.HONEST:
        raise ValueError(f"run {run.id} is {run.protocol}: only honest runs of the loop are rescored")
    if run.dataset != HUMANEVAL:
        raise ValueError(f"run {run.id} ran on {run.dataset}: only HumanEval runs can be rescored onto "
                         f"{dataset} (the same tasks, other hidden tests)")


def _by_task(attempts: list[dict]) -> dict[str, list[dict]]:
    grouped: dict[str, list[dict]] = {}
    for attempt in attempts:  # in task, then iteration order: the order of a result's verdict lists
        grouped.setdefault(attempt["task_id"], []).append(attempt)
    return grouped


def _rescored_attempt(attempt: dict, task: Task, run_id: str) -> dict:
    """The attempt as the new run stores it: everything the loop made, with the new hidden verdict."""
    hidden = run_hidden(attempt["code"] or "", task, task["entry_point"])
    return {**attempt, "run_id": run_id, "hidden_passed": int(hidden.passed), "hidden_status": hidden_status(hidden),
            "hidden_report": json.dumps(hidden.to_dict())}


def _rescored_result(result: dict, attempts: list[dict], cap: int, run_id: str) -> dict:
    """The task's result with the new verdicts: the same answers at every budget, hidden_passed that of the final
    one (a task lost before any answer stays not passed)."""
    hid = [bool(a["hidden_passed"]) for a in attempts]
    row = {**result, "run_id": run_id, "hidden_by_attempt": hid}
    index = answer_at_cap(row, cap)
    row["hidden_passed"] = int(hid[index]) if index is not None else 0
    for column in ("hidden_by_attempt", "visible_by_attempt", "answer_by_cap"):
        row[column] = json.dumps(row[column])
    return {k: v for k, v in row.items() if k in RESULT_COLUMNS}


def rescore_run(db_path: str | Path | None, run_id: str, dataset: str = HUMANEVAL_PLUS, *,
                parallel: int = DEFAULT_AT_ONCE, progress: Callable[[int, int], None] | None = None) -> str:
    """Score every stored candidate of a finished honest HumanEval run on the dataset's hidden tests and store the
    result as a new run, linked to the source (rescored_from); returns its id. Refused with ValueError (check_rescore)
    or StoreError (an unknown run) before anything runs; nothing is stored until every candidate is scored.
    progress(done, total) is called as candidates are scored."""
    if parallel < 1:
        raise ValueError(f"parallel must be 1 or more, got {parallel}")
    db_path = Path(db_path or bench_db_path())
    db = store.open_store(db_path)
    run = store.get_run(db, run_id)
    check_rescore(run, dataset)
    tasks = {task["task_id"]: task for task in load_dataset(dataset).tasks}
    results = store.results(db, run_id)
    attempts = _by_task(store.attempts(db, run_id))
    for result in results:
        found = len(attempts.get(result["task_id"], []))
        if found != len(result["hidden_by_attempt"]):
            raise ValueError(f"run {run_id}: {result['task_id']} has {found} stored candidates for "
                             f"{len(result['hidden_by_attempt'])} verdicts: it cannot be rescored")
    new_id = new_run_id()
    jobs = [(attempt, tasks[result["task_id"]]) for result in results
            for attempt in attempts.get(result["task_id"], [])]
    # The tasks with the longest time limits (their reference is slowest) first, so that none of them is left running
    # alone at the end: HumanEval+'s slowest takes ten seconds where most take a fifth of one.
    jobs.sort(key=lambda job: -job[1].get("hidden_timeout_s", 0))
    started, done = time.time(), 0
    scored: dict[tuple[str, int], dict] = {}
    with ThreadPoolExecutor(max_workers=parallel) as pool:
        for row in pool.map(lambda job: _rescored_attempt(job[0], job[1], new_id), jobs):
            scored[(row["task_id"], row["iteration"])] = row
            done += 1
            if progress:
                progress(done, len(jobs))
    source = db["runs"].get(run_id)  # the stored row, as it was written
    new_run = new_run_row(**{k: v for k, v in source.items() if k not in NOT_COPIED}, id=new_id,
                          created=started, started=started, finished=time.time(), status="finished",
                          protocol=Protocol.RESCORED, search=run.search, task_ids=run.task_ids,
                          endpoints=run.endpoints, rescored_from=run_id, dataset=dataset)
    store.create_run(db, new_run)
    for result in results:
        rows = [scored[(a["task_id"], a["iteration"])] for a in attempts.get(result["task_id"], [])]
        store.record_task(db, _rescored_result(result, rows, final_cap(run), new_id), rows)
    return new_id


def rescored_twin(db, run_id: str, dataset: str = HUMANEVAL_PLUS) -> Run | None:
    """The newest finished rescoring of a run onto a dataset, or None."""
    return next((r for r in store.list_runs(db) if r.rescored_from == run_id and r.dataset == dataset
                 and r.status == "finished"), None)
