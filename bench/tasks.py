"""Task selection: all, ranges (0-19), lists (HumanEval/3,17) and sample:N (every k-th task)."""

from __future__ import annotations

from bench.humaneval import Problem, load_problems


class TaskSpecError(ValueError):
    """A selection that names no task, an unknown task or a malformed range."""


def _index(token: str, count: int) -> int:
    token = token.strip()
    number = token.split("/", 1)[1] if token.startswith("HumanEval/") else token
    if not number.isdigit():
        raise TaskSpecError(f"unknown task {token!r}: use HumanEval/N or N with N from 0 to {count - 1}")
    index = int(number)
    if index >= count:
        raise TaskSpecError(f"unknown task {token!r}: HumanEval has tasks 0 to {count - 1}")
    return index


def select_tasks(spec: str, problems: list[Problem] | None = None) -> list[Problem]:
    """The problems a spec names, in dataset order, without duplicates."""
    problems = problems if problems is not None else load_problems()
    count = len(problems)
    spec = (spec or "").strip()
    if not spec:
        raise TaskSpecError("the task selection is empty: use all, 0-19, HumanEval/3,17 or sample:N")
    if spec == "all":
        return list(problems)
    if spec.startswith("sample:"):
        size = spec.split(":", 1)[1].strip()
        if not size.isdigit() or not 1 <= int(size) <= count:
            raise TaskSpecError(f"sample:N needs N from 1 to {count}, got {size!r}")
        step = count // int(size)  # deterministic: every step-th task from the first
        return [problems[i * step] for i in range(int(size))]
    chosen: set[int] = set()
    for part in spec.split(","):
        if "-" in part and not part.strip().startswith("HumanEval/"):
            low, _, high = part.partition("-")
            start, end = _index(low, count), _index(high, count)
            if start > end:
                raise TaskSpecError(f"bad range {part.strip()!r}: the start is after the end")
            chosen.update(range(start, end + 1))
        elif part.strip():
            chosen.add(_index(part, count))
    if not chosen:
        raise TaskSpecError(f"no task in {spec!r}")
    return [problems[i] for i in sorted(chosen)]
