"""What every dataset gives the bench: tasks in one shape (Task), a dataset's tasks with its label (Dataset), and the
entry by which a dataset module offers itself to the registry (Offered: bench.datasets finds it by the module).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import NotRequired, TypedDict

from sandbox.inside.shapes import count_tests, detect_shape
from sandbox.locked_parse import parse

# What a hidden test raises for a call it stopped at its own time limit (HumanEval+'s, as EvalPlus): the protocol
# counts it as a timeout, not a wrong answer (bench.protocol.hidden).
TIME_LIMIT_ERROR = "TimeLimitExceeded"


class Task(TypedDict):
    """One task as the honest protocol reads it, from any dataset (a packaged one, or a task file).

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
    # runtime); without it, bench.protocol.hidden.HIDDEN_LIMITS.
    hidden_timeout_s: NotRequired[float]
    # The code a completion made elsewhere continues, where it is not ``prompt`` (MBPP+: EvalPlus's prompt, a
    # docstring holding the task; ours is the task in words): bench.scoring.imported runs code_prompt + completion.
    code_prompt: NotRequired[str]
    # A right answer, code that defines the entry point (HumanEval's canonical solution, MBPP's code, a task file's
    # reference): only the interactive protocol's simulated person runs it, on a question's input
    # (agent.solves.reference_person); like the hidden tests, it never reaches a prompt or the chooser.
    reference: NotRequired[str]


def tests_in(tests: str) -> int:
    """How many tests the sandbox will report for this source (asserts, test functions, or 1 for a check)."""
    module = parse(tests)
    return count_tests(module, detect_shape(module))


@dataclass(frozen=True)
class Dataset:
    """A dataset's tasks in order, its label (what a run records it ran on), and for a task file its name and
    SHA-256."""

    label: str
    tasks: list[Task]
    file_name: str | None = None
    sha256: str | None = None

    @property
    def from_file(self) -> bool:
        """Tasks read from a file: they are stored with the run (a packaged dataset's come with the bench)."""
        return self.file_name is not None


@dataclass(frozen=True)
class Offered:
    """A dataset the bench runs by name (--dataset NAME, the Bench page's Dataset box): a module of bench.datasets
    that sets DATASET to one of these is all it takes (docs/bench.md, "Adding a dataset")."""

    name: str
    about: str  # one line for --help and the page: what its tasks are, what is visible and what is hidden
    load: Callable[[], Dataset]
    # Packaged: its tasks come with the bench and are read again by name (a run stores none); otherwise a task file,
    # whose tasks every run stores, so that it resumes without the file.
    packaged: bool
    # task_id -> the part of its source a task comes from, where a run's figures must be read apart (MBPP+: MBPP's
    # test split, held out, or its development splits, which the loop was tuned on); show gives each part's.
    parts: Callable[[], dict[str, str]] | None = None
