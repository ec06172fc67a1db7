"""HumanEval's hidden tests never reach the model: no prompt of a bench-style solve contains them."""

from __future__ import annotations

from langchain_core.language_models.fake_chat_models import GenericFakeChatModel
from langchain_core.messages import AIMessage

from agent import RunFinished, Search, Solver
from bench.humaneval import load_problems
from bench.visible_tests import visible_test_source


def hidden_lines(problem: dict) -> list[str]:
    """Lines of the hidden test code that the prompt does not already show (those may appear)."""
    prompt = problem["prompt"]
    return [ln.strip() for ln in problem["test"].splitlines()
            if len(ln.strip()) > 12 and ln.strip() not in prompt]


def leaks(problem: dict, messages: list[dict]) -> list[str]:
    text = "\n".join(m["content"] for m in messages)
    found = [ln for ln in hidden_lines(problem) if ln in text]
    return found + (["def check(candidate)"] if "def check(candidate)" in text else [])


def _wrong_answers(n: int) -> GenericFakeChatModel:
    # Always wrong and always the same: every attempt fails, so every repair prompt carries a report.
    return GenericFakeChatModel(messages=iter(
        [AIMessage(content="```python\ndef placeholder(*args, **kwargs):\n    return None\n```")] * n))


def _solve_all(tmp_path, problems, tests_for) -> list[tuple[dict, list[dict]]]:
    # hybrid with 3 candidates: the first answer, a repair and a fresh sample, so every kind is audited.
    solver = Solver(_wrong_answers(len(problems) * 3), tmp_path / "s.sqlite",
                    search=Search(strategy="hybrid", max_retries=2))
    out = []
    for problem in problems:
        events = list(solver.start(problem["prompt"], tests_for(problem), entry_point=problem["entry_point"]))
        final = events[-1]
        assert isinstance(final, RunFinished) and final.iterations == 3
        drawn = solver.candidates(final.thread_id)
        assert [c.kind for c in drawn] == ["first", "repair", "sample"]
        out.append((problem, [m for c in drawn for m in c.messages] + [{"content": c.feedback} for c in drawn]))
    return out


def test_no_hidden_test_text_in_any_prompt_of_a_bench_style_solve(tmp_path):
    problems = [p for p in load_problems() if visible_test_source(p).strip()]
    assert len(problems) >= 150
    for problem, messages in _solve_all(tmp_path, problems, visible_test_source):
        assert leaks(problem, messages) == [], problem["task_id"]


def test_the_leak_check_itself_catches_a_leak(tmp_path):
    # Feeding the hidden tests as if they were visible must be caught, or the test above proves nothing.
    problems = load_problems()[:3]
    leaky = _solve_all(tmp_path, problems, lambda p: p["test"] + f"\ncheck({p['entry_point']})\n")
    assert all(leaks(problem, messages) for problem, messages in leaky)
