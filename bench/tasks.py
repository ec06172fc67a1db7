"""The tasks a run solves, in one shape for every dataset, and selecting some of them.

Selections: all, ranges of indexes (0-19), lists of task ids or indexes (HumanEval/3,17 or mbpp/2,5) and
sample:N (every k-th task). An index is a task's position in its dataset, whatever its id looks like.
"""

from __future__ import annotations

import functools
from typing import NotRequired, TypedDict

from bench.humaneval import Problem, load_problems
from bench.visible_tests import visible_tests_for
from sandbox.inside.shapes import count_tests, detect_shape
from sandbox.locked_parse import parse


class Task(TypedDict):
    """One task as the honest protocol reads it, from HumanEval or from a task file (bench.task_file).

    ``tests`` are the visible tests: the loop shows and runs them. ``hidden_tests`` score every candidate after
    the loop and never reach the model. ``entry_point`` is None when the task does not name its function (the
    agent infers it from the tests)."""

    task_id: str
    index: int  # the task's position in its dataset (the results' task_index, their order)
    prompt: str
    tests: str
    hidden_tests: str
    entry_point: str | None
    visible_count: int  # tests in ``tests`` (0 for HumanEval's bare existence check: it tests nothing)
    # The hidden tests' time limit, where a dataset sets one per task (HumanEval+: from its canonical solution's
    # runtime); without it, bench.task_protocol.HIDDEN_LIMITS.
    hidden_timeout_s: NotRequired[float]


class TaskSpecError(ValueError):
    """A selection that names no task, an unknown task or a malformed range."""


def tests_in(tests: str) -> int:
    """How many tests the sandbox will report for this source (asserts, test functions, or 1 for a check)."""
    module = parse(tests)
    return count_tests(module, detect_shape(module))


def humaneval_task(problem: Problem, index: int) -> Task:
    """A HumanEval problem as a Task: visible tests from its docstring's examples (bench.visible_tests), hidden
    tests its ``test`` code, which calls check(entry_point)."""
    tests, count = visible_tests_for(problem)
    return Task(task_id=problem["task_id"], index=index, prompt=problem["prompt"], tests=tests,
                hidden_tests=problem["test"], entry_point=problem["entry_point"], visible_count=count)


@functools.lru_cache(maxsize=1)
def humaneval_tasks() -> list[Task]:
    """The 164 HumanEval problems as Tasks, in dataset order (cached and shared: treat as read-only)."""
    return [humaneval_task(problem, index) for index, problem in enumerate(load_problems())]


def _index(token: str, tasks: list[Task], ids: dict[str, int] | None = None) -> int:
    """A task's position from its id or its index; with no ids (a range's ends), an index only."""
    token = token.strip()
    if ids and token in ids:  # a task id first: an id made of digits means that task, not that position
        return ids[token]
    count = len(tasks)
    if not token.isdigit():
        raise TaskSpecError(f"unknown task {token!r}: give a task id (e.g. {tasks[0]['task_id']}) or an index "
                            f"from 0 to {count - 1}")
    index = int(token)
    if index >= count:
        raise TaskSpecError(f"unknown task {token!r}: the dataset has tasks 0 to {count - 1}")
    return index


def _is_range(part: str, ids: dict[str, int]) -> bool:
    low, sep, high = part.strip().partition("-")
    return bool(sep) and part.strip() not in ids and low.strip().isdigit() and high.strip().isdigit()


def select_tasks(spec: str, tasks: list[Task] | None = None) -> list[Task]:
    """The tasks a spec names among tasks (HumanEval's by default), in dataset order, without duplicates."""
    tasks = tasks if tasks is not None else humaneval_tasks()
    count = len(tasks)
    spec = (spec or "").strip()
    if not spec:
        raise TaskSpecError("the task selection is empty: use all, 0-19, task ids (HumanEval/3,17) or sample:N")
    if not tasks:
        raise TaskSpecError("the dataset holds no task")
    if spec == "all":
        return list(tasks)
    if spec.startswith("sample:"):
        size = spec.split(":", 1)[1].strip()
        if not size.isdigit() or not 1 <= int(size) <= count:
            raise TaskSpecError(f"sample:N needs N from 1 to {count}, got {size!r}")
        step = count // int(size)  # deterministic: every step-th task from the first
        return [tasks[i * step] for i in range(int(size))]
    ids = {task["task_id"]: position for position, task in enumerate(tasks)}
    chosen: set[int] = set()
    for part in spec.split(","):
        if _is_range(part, ids):
            low, _, high = part.partition("-")
            start, end = _index(low, tasks), _index(high, tasks)  # a range is of indexes, whatever the ids
            if start > end:
                raise TaskSpecError(f"bad range {part.strip()!r}: the start is after the end")
            chosen.update(range(start, end + 1))
        elif part.strip():
            chosen.add(_index(part, tasks, ids))
    if not chosen:
        raise TaskSpecError(f"no task in {spec!r}")
    return [tasks[i] for i in sorted(chosen)]
