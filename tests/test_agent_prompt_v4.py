"""Prompt v4's answer format: pre-fill where the provider continues answers, stop strings, answer caps, imports."""

from __future__ import annotations

from langchain_core.language_models import BaseChatModel
from langchain_core.messages import AIMessage
from langchain_core.outputs import ChatGeneration, ChatResult

from agent import RunFinished, Search, Solver
from agent.loop.extract import add_missing_imports, extract_code
from agent.loop.model_calls import answer_token_cap
from agent.loop.prompts import prompt_version, repeats_task

HUMANEVAL_STYLE = 'def double(x: int) -> int:\n    """Return twice x.\n    >>> double(2)\n    4\n    """\n'
TESTS = "assert double(2) == 4\n"


class Continuing(BaseChatModel):
    """A provider that continues a pre-filled answer, as the embedded model does; records what it was sent."""

    supports_prefill: bool = True
    max_tokens: int = 1024
    sent: list = []

    @property
    def _llm_type(self) -> str:
        return "continuing-fake"

    def _generate(self, messages, stop=None, run_manager=None, **kwargs):
        self.sent.append({"messages": messages, "stop": stop, "max_tokens": self.max_tokens})
        # The continuation of "```python\n": code, and generation ends at the stop before the closing fence.
        text = "def double(x: int) -> int:\n    return x * 2"
        return ChatResult(generations=[ChatGeneration(message=AIMessage(content=text))])


class Plain(Continuing):
    supports_prefill: bool = False

    def _generate(self, messages, stop=None, run_manager=None, **kwargs):
        self.sent.append({"messages": messages, "stop": stop})
        text = "Sure:\n```python\ndef double(x: int) -> int:\n    return x * 2\n```\nThis doubles x."
        return ChatResult(generations=[ChatGeneration(message=AIMessage(content=text))])


def test_v4_prefills_the_fence_and_stops_at_the_closing_one(tmp_path):
    model = Continuing(sent=[])
    solver = Solver(model, tmp_path / "s.sqlite", search=Search(prompt_version="v4"))
    final = list(solver.start(HUMANEVAL_STYLE, TESTS, entry_point="double"))[-1]
    assert isinstance(final, RunFinished) and final.status == "passed"
    call = model.sent[0]
    assert call["messages"][-1].type == "ai" and call["messages"][-1].content == "```python\n"
    assert "\n```" in call["stop"] and "\nassert " in call["stop"]
    user = call["messages"][1].content
    assert user.startswith("Can you complete the following Python function?\n```python\ndef double")
    assert call["messages"][0].content == prompt_version("v4").system
    # The stored answer is the whole answer, pre-fill included; the cap fits the task.
    candidate = solver.candidates(final.thread_id)[0]
    assert candidate.answer.startswith("```python\ndef double")
    assert call["max_tokens"] == min(1024, answer_token_cap(HUMANEVAL_STYLE))


def test_v4_without_prefill_sends_no_fence_stop_and_extracts_from_prose(tmp_path):
    model = Plain(sent=[])
    solver = Solver(model, tmp_path / "s.sqlite", search=Search(prompt_version="v4"))
    final = list(solver.start("Write double(x) returning twice x.", TESTS, entry_point="double"))[-1]
    assert final.status == "passed"
    assert model.sent[0]["stop"] is None and model.sent[0]["messages"][-1].type == "human"
    assert "Name the function `double`" in model.sent[0]["messages"][1].content


def test_v3_is_still_available_for_comparison(tmp_path):
    model = Continuing(sent=[])
    solver = Solver(model, tmp_path / "s.sqlite", search=Search(prompt_version="v3"))
    list(solver.start(HUMANEVAL_STYLE, TESTS, entry_point="double"))
    assert model.sent[0]["messages"][-1].type == "human" and model.sent[0]["stop"] is None
    assert model.sent[0]["messages"][1].content.startswith("Task:\n")


def test_missing_standard_imports_are_added_and_nothing_else():
    code = "def f(xs):\n    c = Counter(xs)\n    return math.sqrt(len(c)) + gcd(2, 4)\n"
    fixed = add_missing_imports(code)
    assert fixed.splitlines()[:3] == ["from collections import Counter", "from math import gcd", "import math"]
    # A name the code binds itself is left alone, as is code that imports what it uses.
    assert add_missing_imports("def f(math):\n    return math\n") == "def f(math):\n    return math\n"
    assert add_missing_imports("import math\nx = math.pi\n") == "import math\nx = math.pi\n"
    code, _ = extract_code("```python\ndef f(xs: List[int]) -> int:\n    return reduce(max, xs)\n```")
    assert "from typing import List" in code and "from functools import reduce" in code


def test_qwen_asks_a_python_task_as_qwens_harness_does_and_a_task_in_words_with_its_tests(tmp_path):
    model = Continuing(sent=[])
    solver = Solver(model, tmp_path / "s.sqlite", search=Search(prompt_version="qwen"))
    final = list(solver.start(HUMANEVAL_STYLE, TESTS, entry_point="double"))[-1]
    assert final.status == "passed"
    call = model.sent[0]
    assert call["messages"][1].content == (
        f"Can you complete the following Python function?\n```python\n{HUMANEVAL_STYLE.strip()}\n```")
    assert call["messages"][-1].content == "```python\n"
    assert "\n#" in call["stop"] and "\nassert " not in call["stop"]
    model.sent.clear()
    list(Solver(model, tmp_path / "w.sqlite", search=Search(prompt_version="qwen")).start(
        "Write double(x) returning twice x.", TESTS, entry_point="double"))
    assert TESTS.strip() in model.sent[0]["messages"][1].content


def test_v5_shows_the_tests_only_when_they_say_more_than_the_task(tmp_path):
    doctested = HUMANEVAL_STYLE.replace("    >>> double(2)\n    4\n", "    >>> double( 2 )\n    4\n")
    assert repeats_task(doctested, TESTS) and not repeats_task(HUMANEVAL_STYLE.replace(">>> double(2)", ""), TESTS)
    assert not repeats_task(HUMANEVAL_STYLE, "assert double(3) == 6\n")  # a call of its own: new to the task
    assert not repeats_task(HUMANEVAL_STYLE, "not python(")
    v5 = prompt_version("v5")
    assert "must pass these tests" not in v5.first_message(HUMANEVAL_STYLE, TESTS, "double")
    assert "assert double(3) == 6" in v5.first_message(HUMANEVAL_STYLE, "assert double(3) == 6\n", "double")
    assert TESTS.strip() in v5.first_message("Write double(x) returning twice x.", TESTS, "double")
    # Body only: the task is pre-filled after the fence, as v4-body does.
    assert v5.prefill(HUMANEVAL_STYLE) == prompt_version("v4-body").prefill(HUMANEVAL_STYLE)
