"""Selecting some of a dataset's tasks: all, ranges of indexes (0-19), lists of task ids or indexes (HumanEval/3,17 or
mbpp/2,5) and sample:N (every k-th task). An index is a task's position in its dataset, whatever its id looks like.
"""

from __future__ import annotations

from bench.datasets.task import Task


class TaskSpecError(ValueError):
    """A selection that names no task, an unknown task or a malformed range."""


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


def select_tasks(spec: str, tasks: list[Task]) -> list[Task]:
    """The tasks a spec names among a dataset's tasks, in dataset order, without duplicates."""
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
