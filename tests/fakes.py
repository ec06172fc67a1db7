"""Test doubles for logic tests only: chat models that answer from a script, by the prompt they read or by their
seed, the solvers the app and the bench make of them, and the add task most loop tests solve.

A module of its own rather than conftest.py: Ray actors unpickle the recipes by this module's name (the session's
cluster puts tests/ on their path)."""

from __future__ import annotations

import os
import tempfile
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from langchain_core.language_models import BaseChatModel
from langchain_core.language_models.fake_chat_models import GenericFakeChatModel
from langchain_core.messages import AIMessage, BaseMessage
from langchain_core.outputs import ChatGeneration, ChatResult

_LOCK = threading.Lock()

# The add task of the loop's logic tests: a wrong first answer, and a right one after prose as models write it.
ADD_TASK = "Write a function add(a, b) that returns the sum of a and b."
ADD_TESTS = "assert add(1, 2) == 3\nassert add(2, 2) == 4\n"
ADD_WRONG = "```python\ndef add(a, b):\n    return a - b\n```"
ADD_RIGHT = "Here you go:\n```python\ndef add(a, b):\n    return a + b\n```"
# The add task's answers by attempt in the app's tests: wrong first, right from the second attempt on.
WRONG_THEN_RIGHT = {1: ADD_WRONG, 2: "```python\ndef add(a, b):\n    return a + b\n```"}


def scripted(*answers: str) -> GenericFakeChatModel:
    """A chat model giving these answers in order, one a call (a call after the last fails)."""
    return GenericFakeChatModel(messages=iter([AIMessage(content=a) for a in answers]))


def solver_for(tmp_path: Path, *answers: str, budget: int = 4):
    """A repair-strategy Solver over scripted answers, its solves stored under tmp_path."""
    from agent import Search, Solver

    return Solver(scripted(*answers), tmp_path / "solves.sqlite", search=Search(budget=budget,
                                                                                strategy="repair"))


def run_to_end(events) -> tuple[list, object]:
    """All events of a solve and its last one, which must be the RunFinished."""
    from agent import RunFinished

    events = list(events)
    assert isinstance(events[-1], RunFinished)
    return events, events[-1]


class ScriptedModel(BaseChatModel):
    """Answers from a list in call order (the last one again once they run out); records every call's messages and
    stop strings in log, a list its copies share, so the order is that of all calls. Thread-safe."""

    answers: list[str]
    log: list = []  # pydantic gives each instance its own; the coder's copies share their original's

    @property
    def _llm_type(self) -> str:
        return "scripted-fake"

    @property
    def calls(self) -> int:
        """How many calls this model and its copies answered."""
        return len(self.log)

    def _generate(self, messages: list[BaseMessage], stop=None, run_manager=None, **kwargs) -> ChatResult:
        with _LOCK:
            self.log.append({"temperature": getattr(self, "temperature", None), "seed": getattr(self, "seed", None),
                             "messages": messages, "stop": stop})
            text = self.answers[min(len(self.log) - 1, len(self.answers) - 1)]
        return ChatResult(generations=[ChatGeneration(message=AIMessage(content=text))])


class SamplingScriptedModel(ScriptedModel):
    """A ScriptedModel with the sampling settings the coder sets on its copies (a warmer temperature, a seed a
    sample), which log records; without them the coder cannot draw fresh samples or resample warmer."""

    temperature: float = 0.0
    seed: int = 0


class PromptKeyedModel(BaseChatModel):
    """Answers with answer(first_user_message, attempt_number); thread-safe; counts its calls."""

    answer: Callable[[str, int], str]
    delay: float = 0.0
    calls: int = 0

    @property
    def _llm_type(self) -> str:
        return "prompt-keyed-fake"

    def _generate(self, messages: list[BaseMessage], stop=None, run_manager=None, **kwargs) -> ChatResult:
        first_user = next(m.content for m in messages if m.type == "human")
        attempt = sum(1 for m in messages if m.type == "ai") + 1
        with _LOCK:
            self.calls += 1
        if self.delay:
            time.sleep(self.delay)
        text = self.answer(first_user, attempt)
        usage = {"input_tokens": 10 * len(messages), "output_tokens": len(text.split()), "total_tokens": 0}
        return ChatResult(generations=[ChatGeneration(message=AIMessage(content=text, usage_metadata=usage))])


class CachedPromptModel(PromptKeyedModel):
    """Says, as llama.cpp does, how many prompt tokens it took from its cache (all but the last message's)."""

    def _generate(self, messages, stop=None, run_manager=None, **kwargs) -> ChatResult:
        result = super()._generate(messages, stop, run_manager, **kwargs)
        result.generations[0].message.response_metadata = {"prompt_tokens_reused": 10 * (len(messages) - 1)}
        return result


def scripted_solver_factory(settings):
    """The app's solver factory in tests (ui.session.SOLVER_FACTORY): HumanEval tasks are answered right, any other
    task wrong first and right from the second attempt on."""
    from agent import ModelSpec, Solver
    from bench.datasets.humaneval import load_problems

    problems = load_problems()

    def answer(prompt: str, attempt: int) -> str:
        if "HumanEval" in prompt or '"""' in prompt:
            return humaneval_answers(problems, right={p["task_id"] for p in problems})(prompt, attempt)
        return WRONG_THEN_RIGHT.get(attempt, WRONG_THEN_RIGHT[2])
    return Solver(CachedPromptModel(answer=answer), settings.checkpoint_db, ModelSpec("fake", "scripted", "test"))

def humaneval_answers(problems: list[dict], *, right: set[str], fix_on_attempt: dict[str, int] | None = None):
    """An answer function: canonical solutions for tasks in right (or from the given attempt on), else wrong code."""
    fix_on_attempt = fix_on_attempt or {}

    def answer(prompt: str, attempt: int) -> str:
        problem = next(p for p in problems if p["prompt"].strip() in prompt)
        good = problem["task_id"] in right or attempt >= fix_on_attempt.get(problem["task_id"], 99)
        body = problem["canonical_solution"] if good else "    return None\n"
        return "```python\n" + problem["prompt"] + body + "```"
    return answer


@dataclass(frozen=True)
class ScriptedRecipe:
    """A bench.backends solver recipe for logic tests: each worker gets a PromptKeyedModel of its own.

    Picklable, so Ray actors make it where they run (the session's cluster puts tests/ on their path).
    Endpoints in dead are asked for real (an Ollama ping), so they fail with the real message."""

    right: frozenset[str] = frozenset()
    fix_on_attempt: tuple[tuple[str, int], ...] = ()
    delay: float = 0.0
    dead: tuple[str, ...] = ()

    def __call__(self, endpoint: str | None = None, n_threads: int | None = None):
        from agent import ModelSpec, Solver
        from agent.providers.chat_model import ollama_models
        from bench.datasets.humaneval import load_problems

        if endpoint in self.dead:
            ollama_models(endpoint, timeout=2.0)
        answer = humaneval_answers(load_problems(), right=set(self.right), fix_on_attempt=dict(self.fix_on_attempt))
        folder = _solver_folder("scripted-solver-")
        return Solver(PromptKeyedModel(answer=answer, delay=self.delay), folder / "solves.sqlite",
                      ModelSpec("fake", "scripted", "test"))


def _solver_folder(prefix: str) -> Path:
    """A fresh folder for a recipe's solver store, under the session's TEST_SOLVERS_DIR (conftest.py removes it when
    the session ends; worker processes and Ray actors inherit the variable), else the system's temp folder."""
    root = os.environ.get("TEST_SOLVERS_DIR")
    return Path(tempfile.mkdtemp(prefix=prefix, dir=root if root and os.path.isdir(root) else None))


def _refuse(prompt: str, attempt: int) -> str:
    raise ConnectionError("Connection refused")


@dataclass(frozen=True)
class FirstSolverDownRecipe:
    """A solver recipe whose first solver (the one that creates marker, a path no file holds yet) has a model that
    never answers; every other is others'. For a model outage in one of a run's solver processes (picklable)."""

    marker: str
    others: ScriptedRecipe = ScriptedRecipe()

    def __call__(self, endpoint: str | None = None, n_threads: int | None = None):
        from agent import ModelSpec, Solver

        try:
            os.close(os.open(self.marker, os.O_CREAT | os.O_EXCL | os.O_WRONLY))
        except FileExistsError:
            return self.others(endpoint, n_threads)
        folder = _solver_folder("down-solver-")
        return Solver(PromptKeyedModel(answer=_refuse), folder / "solves.sqlite", ModelSpec("fake", "scripted", "test"))


def keyed_answers(answers: tuple[tuple[str, str, str], ...]) -> Callable[[str, int], str]:
    """An answer function for tasks of any dataset: (phrase of the task, first code, repaired code or "") each; the
    task whose phrase is in the prompt gets its first code, and its repaired code from the second call on."""
    def answer(prompt: str, attempt: int) -> str:
        first, repaired = next((f, r) for phrase, f, r in answers if phrase in prompt)
        return "```python\n" + (repaired if attempt > 1 and repaired else first) + "```"
    return answer


@dataclass(frozen=True)
class KeyedRecipe:
    """A bench.backends solver recipe answering by keyed_answers: for task-file runs on Ray actors (picklable)."""

    answers: tuple[tuple[str, str, str], ...] = ()

    def __call__(self, endpoint: str | None = None, n_threads: int | None = None):
        from agent import ModelSpec, Solver

        folder = _solver_folder("keyed-solver-")
        return Solver(PromptKeyedModel(answer=keyed_answers(self.answers)), folder / "solves.sqlite",
                      ModelSpec("fake", "keyed", "test"))


class SeededModel(BaseChatModel):
    """Answers with answer(first_user_message, seed): the loop's samples (and a pass@k run's) each get a seed of their
    own, so a test can make some samples right and others wrong. Counts its calls (across its copies)."""

    answer: Callable[[str, int], str]
    seed: int = 0
    temperature: float = 0.0
    calls: list = []  # shared by the copies the coder makes with each sample's seed

    @property
    def _llm_type(self) -> str:
        return "seeded-fake"

    def _generate(self, messages: list[BaseMessage], stop=None, run_manager=None, **kwargs) -> ChatResult:
        first_user = next(m.content for m in messages if m.type == "human")
        with _LOCK:
            self.calls.append(self.seed)
        text = self.answer(first_user, self.seed)
        usage = {"input_tokens": 10 * len(messages), "output_tokens": len(text.split()), "total_tokens": 0}
        return ChatResult(generations=[ChatGeneration(message=AIMessage(content=text, usage_metadata=usage))])


def seeded_humaneval_answers(problems: list[dict], right_seeds: dict[str, set[int]]):
    """An answer function for SeededModel: the canonical solution when the seed is among the task's right seeds,
    else wrong code."""
    def answer(prompt: str, seed: int) -> str:
        problem = next(p for p in problems if p["prompt"].strip() in prompt)
        good = seed in right_seeds.get(problem["task_id"], set())
        body = problem["canonical_solution"] if good else "    return None\n"
        return "```python\n" + problem["prompt"] + body + "```"
    return answer


def drawn_in_order(answers: tuple[tuple[str, str, tuple[str, ...]], ...]) -> Callable[[str, int], str]:
    """An answer function for SeededModel: (marker, signature, bodies) each; the first whose marker is in the prompt
    (a phrase of the task, or a test an answer added) answers with its first body for the first answer (seed 0), and
    for the candidates of a later round (seeds from 1000 times its number) the next ones by their place in the round,
    the last one again once they run out. A signature is "double(n)"; a body is the expression the function returns."""
    def answer(prompt: str, seed: int) -> str:
        signature, bodies = next((s, b) for marker, s, b in answers if marker in prompt)
        index = min(1 + seed % 1000 if seed >= 1000 else 0, len(bodies) - 1)
        return f"```python\ndef {signature}:\n    return {bodies[index]}\n```"
    return answer


@dataclass(frozen=True)
class DrawnInOrderRecipe:
    """A bench.backends solver recipe answering by drawn_in_order: a first answer and a doubt batch that disagree,
    for interactive runs on any backend (picklable)."""

    answers: tuple[tuple[str, str, tuple[str, ...]], ...] = ()

    def __call__(self, endpoint: str | None = None, n_threads: int | None = None):
        from agent import ModelSpec, Solver

        folder = _solver_folder("drawn-solver-")
        return Solver(SeededModel(answer=drawn_in_order(self.answers)), folder / "solves.sqlite",
                      ModelSpec("fake", "drawn-in-order", "test"))


# The interactive protocol's tiny dataset (tests/fixtures/asked_tasks.jsonl, each task with a reference) answered so
# that one question decides: double's first answer and most of its doubt batch give n + 3 (right at 3 only), and the
# reference says double(4) is 8, which two candidates give; triple's answers give 10 or 16 at 4, the reference 12,
# which none gives, so the loop goes on with that test and gets it right; square is right and its answers agree;
# halve's answers all agree and are wrong, so its pass is one the hidden tests refute; a person who reads the answer's
# table corrects halve(5) to 2, and the round drawn with that test gets it right.
ASKED_TASKS = Path(__file__).resolve().parent / "fixtures" / "asked_tasks.jsonl"
ASKED_ANSWERS = DrawnInOrderRecipe(answers=(
    ("Write double", "double(n)", ("n + 3", "n + 3", "n * 2", "n + 3", "n * 2")),
    ("triple(4) == 12", "triple(n)", ("3 * n",)),
    ("Write triple", "triple(n)", ("n + 6", "n + 6", "n * n", "n + 6", "n * n")),
    ("Write square", "square(n)", ("n * n",)),
    ("halve(5) == 2", "halve(n)", ("n // 2",)),
    ("Write halve", "halve(n)", ("n - 2",)),
))
