"""HumanEval+ (EvalPlus, release v0.1.10): HumanEval's 164 tasks, judged by about 750 hidden tests each.

The loop sees exactly what it sees on HumanEval: HumanEval's prompt and the docstring's examples as visible tests
(bench.datasets.humaneval). Only the hidden tests differ: EvalPlus's base inputs (HumanEval's own) and plus
inputs with their expected outputs, as the release's ``HumanEvalPlus-OriginFmt.jsonl.gz`` writes them (vendored
unchanged in bench/data/humanevalplus, with its licence), judged by EvalPlus's rules as a check program
(bench.datasets.evalplus_checks).
"""

from __future__ import annotations

import functools
from pathlib import Path

from bench.datasets.evalplus_checks import EvalPlusError, hidden_test, read_release, read_tasks_info, run_limit
from bench.datasets.humaneval import humaneval_tasks
from bench.datasets.task import Dataset, Offered, Task
from sandbox import module_offered

HUMANEVAL_PLUS = "humaneval+"
DATA_DIR = Path(__file__).resolve().parent.parent / "data" / "humanevalplus"
ORIGIN_FMT = DATA_DIR / "HumanEvalPlus-OriginFmt.jsonl.gz"
TASKS_INFO = DATA_DIR / "tasks.json"  # per task: atol, input counts, the canonical solution's times here


@functools.lru_cache(maxsize=1)
def origin_records() -> dict[str, dict]:
    """task_id -> the release's OriginFmt record (prompt, canonical_solution, entry_point, test), in task order."""
    return {record["task_id"]: record for record in read_release(ORIGIN_FMT)}


@functools.lru_cache(maxsize=1)
def tasks_info() -> dict[str, dict]:
    """task_id -> atol, base_inputs, plus_inputs, slowest_call_seconds and canonical_seconds
    (bench/data/make_humanevalplus.py)."""
    return read_tasks_info(TASKS_INFO)


@functools.lru_cache(maxsize=1)
def humanevalplus_tasks() -> list[Task]:
    """The 164 HumanEval+ tasks in dataset order: HumanEval's prompt, visible tests and entry point (the loop sees
    what it sees on HumanEval), HumanEval+'s hidden tests and the time limit they run under (cached and shared:
    treat as read-only), each with EvalPlus's corrected canonical solution as its reference (canonical_program).
    EvalPlusError when the sandbox offers no numpy, which EvalPlus's comparison needs."""
    if not module_offered("numpy"):
        raise EvalPlusError("HumanEval+'s hidden tests compare floats with numpy, which the sandbox does not "
                                 "offer: add numpy to SANDBOX_PACKAGES (its default)")
    records, info = origin_records(), tasks_info()
    tasks = []
    for task in humaneval_tasks():
        task_id = task["task_id"]
        if task_id not in records or task_id not in info:
            raise EvalPlusError(f"{task_id} is missing from the vendored HumanEval+ data ({DATA_DIR})")
        tasks.append(Task(**{**task, "hidden_tests": hidden_test(records[task_id], info[task_id]),
                             "hidden_timeout_s": run_limit(info[task_id]),
                             "reference": task["prompt"] + records[task_id]["canonical_solution"]}))
    return tasks


def canonical_program(task_id: str) -> str:
    """HumanEval's prompt with HumanEval+'s canonical solution (EvalPlus's corrected reference): a right answer."""
    prompt = next(task["prompt"] for task in humaneval_tasks() if task["task_id"] == task_id)
    return prompt + origin_records()[task_id]["canonical_solution"]


DATASET = Offered(HUMANEVAL_PLUS, "HumanEval's tasks and visible tests, EvalPlus's ~750 hidden tests a task",
                  packaged=True, load=lambda: Dataset(HUMANEVAL_PLUS, humanevalplus_tasks()))
