"""The datasets a bench run solves, one module each: HumanEval (humaneval), HumanEval+ (humanevalplus), MBPP's
development set (mbpp_dev), and a person's own task file (task_file). Also here: the task type every dataset gives
(task), selecting tasks (selection), HumanEval's visible tests from its docstrings (visible_tests) and files of
samples made elsewhere (samples_file).

A module that sets ``DATASET`` (a bench.datasets.task.Offered) is found here by itself and offered by its name
(--dataset, the Bench page): adding a dataset is one module and its data (docs/bench.md, "Adding a dataset").
A run records its dataset's label ('humaneval', 'humaneval+', or 'file:NAME (sha 1a2b3c4d)' for a task file); a
task file's tasks are stored with the run, so it resumes and reads without the file. No dataset imports the
protocol: what a dataset gives is plain data (bench.datasets.task).
"""

from __future__ import annotations

import importlib
import pkgutil
from pathlib import Path

from bench.datasets.humaneval import HUMANEVAL
from bench.datasets.task import Dataset, Offered, Task
from bench.datasets.task_file import load_task_file


def _offered() -> dict[str, Offered]:
    """Every module of this package that offers a dataset, by its name: the default first, then by name."""
    found = [module.DATASET for module in (importlib.import_module(f"{__name__}.{info.name}")
                                           for info in pkgutil.iter_modules(__path__))
             if isinstance(getattr(module, "DATASET", None), Offered)]
    return {offered.name: offered for offered in sorted(found, key=lambda o: (o.name != HUMANEVAL, o.name))}


OFFERED = _offered()
DATASETS = tuple(OFFERED)  # the names --dataset takes, the default (HumanEval) first
PACKAGED = tuple(name for name, offered in OFFERED.items() if offered.packaged)  # tasks come with the bench


def datasets_help() -> str:
    """The datasets in one line each way the CLI and the page say them: 'humaneval (default): ...; humaneval+: ...'."""
    return "; ".join(f"{name}{' (default)' if name == HUMANEVAL else ''}: {offered.about}"
                     for name, offered in OFFERED.items())


def load_dataset(name: str = HUMANEVAL, tasks_file: str | Path | None = None) -> Dataset:
    """The dataset a run names: a task file when given (then name must be the default), else an offered one by
    name. ValueError (bench.datasets.task_file.TaskFileError for a bad file) says what is wrong."""
    name = name or HUMANEVAL
    if tasks_file and name != HUMANEVAL:
        raise ValueError(f"give a task file or a dataset, not both (--tasks-file and --dataset {name})")
    if tasks_file:
        return load_task_file(tasks_file).dataset
    if name not in OFFERED:
        raise ValueError(f"unknown dataset {name!r}: use {', '.join(DATASETS)}, or a task file (--tasks-file)")
    return OFFERED[name].load()


def packaged_tasks(name: str) -> list[Task]:
    """The tasks of a dataset that comes with the bench (PACKAGED), by its name: what a run on it solved."""
    if name not in PACKAGED:
        raise ValueError(f"{name} is not a dataset that comes with the bench ({', '.join(PACKAGED)})")
    return OFFERED[name].load().tasks
