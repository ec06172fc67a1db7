"""A person's own task suite: a JSONL file of tasks, read and checked whole before anything is stored.

One JSON object a line (blank lines are skipped; other fields are ignored):

- ``task_id``: a string, unique in the file;
- ``prompt``: the task, in words or as a Python signature with a docstring;
- ``tests``: the visible tests, which the loop shows the model and runs;
- ``hidden_tests``: the tests that score every candidate after the loop, never shown to the model;
- ``entry_point`` (optional): the function's name; without it the agent infers it from the tests;
- ``test_imports`` (optional): import lines (``["import math"]``) put before both the visible and the hidden tests;
- ``reference`` (optional): a right answer, code that defines the entry point; the interactive protocol's simulated
  person (``bench run --ask N``) answers the solve's questions by running it, and a run with ``--ask`` refuses a
  file whose tasks lack it. Like the hidden tests, it never reaches the model.

A file with a bad line is refused as a whole, each bad line named by its number with the reason, so a run
never starts on part of a suite.
"""

from __future__ import annotations

import ast
import hashlib
import json
from dataclasses import dataclass
from pathlib import Path

from agent.inputs import infer_entry_point, resolve_entry_point
from bench.datasets.jsonl_lines import JsonlFile, parse_lines
from bench.datasets.task import Dataset, Task, tests_in
from sandbox import check_tests
from sandbox.inside.shapes import detect_shape
from sandbox.locked_parse import parse

REQUIRED = ("task_id", "prompt", "tests", "hidden_tests")


class TaskFileError(ValueError):
    """A task file that cannot be used; the message names the file and each bad line with its reason."""


@dataclass(frozen=True)
class TaskFile(JsonlFile):
    """The tasks of a file, in file order, with the file's name and the SHA-256 of its bytes."""

    tasks: list[Task]

    @property
    def label(self) -> str:
        """What a run ran on, as list and show print it: 'file:tasks.jsonl (sha 1a2b3c4d)'."""
        return f"file:{self.named}"

    @property
    def dataset(self) -> Dataset:
        """The file as a run's dataset: its tasks are stored with the run."""
        return Dataset(self.label, self.tasks, self.name, self.sha256)


def _imports(value: object) -> str:
    """The test_imports lines as source, or ValueError saying what is wrong with them."""
    if not isinstance(value, list) or not all(isinstance(line, str) for line in value):
        raise ValueError(f"'test_imports' must be a list of strings, got {json.dumps(value)[:60]}")
    for number, line in enumerate(value):
        try:
            body = parse(line).body
        except SyntaxError as exc:
            raise ValueError(f"test_imports[{number}] {line!r} does not parse: {exc.msg}") from None
        if not body or not all(isinstance(node, (ast.Import, ast.ImportFrom)) for node in body):
            raise ValueError(f"test_imports[{number}] {line!r} is not an import statement")
    return "".join(line.strip() + "\n" for line in value)


def _reference(code: object, entry_point: str | None) -> str:
    """A reference's code, checked: Python that defines the entry point (when one is known) at its top level; or
    ValueError saying what is wrong."""
    if not isinstance(code, str) or not code.strip():
        raise ValueError("'reference' must be code that defines the entry point, a non-empty string")
    try:
        module = parse(code)
    except SyntaxError as exc:
        raise ValueError(f"'reference' does not parse: {exc.msg} (line {exc.lineno})") from None
    defined = {node.name for node in module.body if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef))}
    if entry_point and entry_point not in defined:
        raise ValueError(f"'reference' defines no function {entry_point}() at its top level")
    return code


def _task(record: object, index: int, reference_field: str = "reference") -> Task:
    """One line's object as a Task, or ValueError with the reason; reference_field names the field that holds its
    reference (MBPP's file calls it canonical_solution)."""
    if not isinstance(record, dict):
        raise ValueError(f"not a JSON object but {type(record).__name__}: a line holds one task, {{\"task_id\": ...}}")
    for field in REQUIRED:
        if field not in record:
            raise ValueError(f"missing field '{field}' (a task needs {', '.join(REQUIRED)})")
        if not isinstance(record[field], str):
            raise ValueError(f"'{field}' must be a string, got {type(record[field]).__name__}")
        if not record[field].strip():
            raise ValueError(f"'{field}' is empty")
    task_id = record["task_id"]
    if task_id != task_id.strip() or "," in task_id:
        raise ValueError(f"task_id {task_id!r} has spaces around it or a comma: --tasks could not name it")
    imports = _imports(record["test_imports"]) if record.get("test_imports") is not None else ""
    for field in ("tests", "hidden_tests"):
        problem = check_tests(record[field]) or check_tests(imports + record[field])
        if problem:
            raise ValueError(f"'{field}': {problem}")
    tests, hidden = imports + record["tests"], imports + record["hidden_tests"]
    entry_point = record.get("entry_point")
    checks = [f for f, source in (("tests", tests), ("hidden_tests", hidden)) if detect_shape(parse(source)) == "check"]
    if entry_point is None:
        if checks:
            raise ValueError(f"'{checks[0]}' are a check(candidate): give the entry_point it is called with")
    elif not isinstance(entry_point, str) or not entry_point.isidentifier():
        raise ValueError(f"entry_point {json.dumps(entry_point)} is not a Python name")
    else:
        resolve_entry_point(record["prompt"], tests, entry_point)  # the Playground's check: names both, or passes
    task = Task(task_id=task_id, index=index, prompt=record["prompt"], tests=tests, hidden_tests=hidden,
                entry_point=entry_point, visible_count=tests_in(tests))
    if record.get(reference_field) is not None:
        task["reference"] = _reference(record[reference_field], entry_point or infer_entry_point(record["prompt"],
                                                                                                   tests))
    return task


def parse_task_file(data: bytes, name: str, reference_field: str = "reference") -> TaskFile:
    """The tasks of a task file's bytes, or TaskFileError naming every bad line (by number) and why; each task's
    reference is read from reference_field."""
    first_line: dict[str, int] = {}

    def read(record: object, number: int, index: int) -> Task:
        task = _task(record, index, reference_field)
        if task["task_id"] in first_line:
            raise ValueError(f"duplicate task_id {task['task_id']!r} (first on line {first_line[task['task_id']]})")
        first_line[task["task_id"]] = number
        return task

    tasks = parse_lines(data, name, read, TaskFileError, "run or stored")
    if not tasks:
        raise TaskFileError(f"{name}: holds no task (one JSON object a line)")
    return TaskFile(name=name, sha256=hashlib.sha256(data).hexdigest(), tasks=tasks)


def load_task_file(path: str | Path, reference_field: str = "reference") -> TaskFile:
    """parse_task_file on a file; TaskFileError when it cannot be read."""
    path = Path(path)
    try:
        data = path.read_bytes()
    except OSError as exc:
        raise TaskFileError(f"cannot read the task file {path}: {exc.strerror or exc}") from None
    return parse_task_file(data, path.name, reference_field)


def keep_copy(data: bytes, name: str, folder: str | Path) -> Path:
    """Write an uploaded task file under folder, in a subfolder named by its content's digest, keeping its name
    (the run's label says it); the same content is written once. Not checked here: starting the run checks it."""
    safe = Path(name).name or "tasks.jsonl"  # a name from a browser is not a path to follow
    path = Path(folder) / hashlib.sha256(data).hexdigest()[:16] / safe
    if not path.exists():
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(data)
    return path
