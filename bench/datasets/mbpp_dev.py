"""MBPP's development set (170 tasks in words), a task file shipped with the bench: the first assert of each task
visible, all of them hidden. Made by bench/data/make_mbpp_task_file.py; its source and licence are in
bench/data/README.md. As a task file, its tasks are stored with every run made from it.

Also here: MBPP's own split of its task ids (mbpp_split), which says which tasks the development set may hold and
which split each MBPP+ task comes from (bench.datasets.mbppplus).
"""

from __future__ import annotations

import ast
import sys
from pathlib import Path

from bench.datasets.task import Offered
from bench.datasets.task_file import load_task_file
from sandbox.locked_parse import parse  # the host's one parse lock (see its docstring)

FILE = Path(__file__).resolve().parent.parent / "data" / "mbpp-sanitized-dev.jsonl"
# MBPP's splits by task id (Austin et al. 2021): the development set is prompt, validation and train; test is held out.
SPLITS = {"prompt": (1, 10), "test": (11, 510), "validation": (511, 600), "train": (601, 974)}
HELD_OUT = "test"


def mbpp_split(task_number: int) -> str:
    """The MBPP split an MBPP task id belongs to: prompt, test, validation or train."""
    for split, (low, high) in SPLITS.items():
        if low <= task_number <= high:
            return split
    raise ValueError(f"{task_number} is no MBPP task id (1-974)")


def unlisted_imports(asserts: list[str], imports: list[str]) -> list[str]:
    """Import lines for the standard-library modules the asserts use by name (``sys.getsizeof``) that the
    import lines do not import, in order of first use."""
    imported = {alias.asname or alias.name.split(".")[0] for line in imports for node in ast.walk(parse(line))
                if isinstance(node, (ast.Import, ast.ImportFrom)) for alias in node.names}
    used = [node.value.id for line in asserts for node in ast.walk(parse(line))
            if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name)
            and node.value.id in sys.stdlib_module_names]
    return [f"import {name}" for name in dict.fromkeys(used) if name not in imported]


# MBPP's code is each task's reference (the interactive protocol's simulated person runs it); the file keeps MBPP's
# name for it, canonical_solution.
DATASET = Offered("mbpp-dev", "170 MBPP tasks in words, the first assert visible", packaged=False,
                  load=lambda: load_task_file(FILE, reference_field="canonical_solution").dataset)
