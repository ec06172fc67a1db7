"""The loop on the real embedded Qwen2.5-Coder-0.5B (pulled here if missing): few, tiny, capped."""

from __future__ import annotations

import pytest

from agent import NodeFinished, RunFinished, Search, Settings, Solver, Token, make_chat_model
from agent.models import find_model, pull
from agent.models.weights import ModelNotPulledError

pytestmark = pytest.mark.model

TASK = "Write a function add(a, b) that returns the sum of a and b."
TESTS = "assert add(1, 2) == 3\nassert add(-4, 4) == 0\n"


@pytest.fixture(scope="module")
def solver(tmp_path_factory):
    try:
        path = find_model("qwen2.5-coder-0.5b")
    except ModelNotPulledError:
        path = pull("qwen2.5-coder-0.5b")
    settings = Settings(provider="llamacpp", llamacpp_model_path=str(path), max_tokens=256, num_ctx=4096)
    model, spec = make_chat_model(settings)
    return Solver(model, tmp_path_factory.mktemp("real") / "solves.sqlite", spec)


def test_small_task_solved_end_to_end_with_streamed_tokens(solver):
    events = list(solver.start(TASK, TESTS))
    final = events[-1]
    assert isinstance(final, RunFinished) and final.status == "passed", solver.state_at(final.thread_id)
    assert sum(isinstance(e, Token) for e in events) > 5  # tokens arrive as they are generated
    attempt = solver.state_at(final.thread_id)["attempts"][0]
    assert attempt["tokens_in"] > 20 and attempt["tokens_out"] > 5 and attempt["report"]["status"] == "passed"


def test_repair_from_a_buggy_first_attempt_and_history(solver):
    events = list(solver.start(TASK, TESTS, search=Search(budget=3, strategy="repair")))
    thread = events[-1].thread_id
    first_answer = next(s for s in solver.steps(thread) if s.next_node == "executor" and s.iteration == 1)
    buggy = "def add(a, b):\n    return a * b\n"
    forked = list(solver.fork(thread, first_answer.checkpoint_id, code=buggy))
    finished = [e for e in forked if isinstance(e, NodeFinished)]
    assert [e.node for e in finished[:2]] == ["executor", "coder"]  # buggy code ran, then the model repaired
    state = solver.state_at(thread)
    buggy_attempt, repair = state["attempts"][0], state["attempts"][1]
    assert buggy_attempt["forked"] and buggy_attempt["report"]["status"] == "failed"
    assert repair["report"] is not None and repair["iteration"] == 2  # the model's repair was executed
    assert "return a * b" in repair["messages"][-2]["content"]  # the model saw the buggy code as its answer
    assert "left side" in repair["messages"][-1]["content"]  # and the failure report with compared values
    # The KV cache kept the shared prefix (system + task); only the edited answer and the report were new.
    assert repair["prompt_tokens_reused"] >= buggy_attempt["tokens_in"] - 1
    # History: the original branch and the fork are both there; the fork hangs off the chosen step.
    steps = solver.steps(thread)
    assert any(s.parent_id == first_answer.checkpoint_id for s in steps[steps.index(first_answer) + 1:])
    assert len([s for s in steps if s.next_node == "executor"]) >= 3


def test_samples_are_decoded_together_each_with_its_seed(solver):
    from langchain_core.messages import AIMessage, HumanMessage

    from agent.loop.prompts import FENCE

    model = solver.model.model_copy(update={"max_tokens": 48})
    asked = [HumanMessage(content="Write a Python function that returns a random greeting."), AIMessage(content=FENCE)]
    first = model.sample_many(asked, 3, temperature=1.0, seed=7, stop=["\n```"])
    again = model.sample_many(asked, 3, temperature=1.0, seed=7, stop=["\n```"])
    # Different seeds, different samples. (The same seed need not give the same text twice: a batch's
    # make-up changes the float rounding of its logits, as llama.cpp says of batch sizes.)
    assert len({text for text, _, _ in first}) > 1
    assert all(0 < usage["output_tokens"] <= 48 and "```" not in text for text, usage, _ in first)
    # The second call found the prompt cached: only its last token was evaluated again.
    assert again[0][2]["prompt_tokens_reused"] == again[0][1]["input_tokens"] - 1
    # The pre-fill is continued, not closed as a turn: the answer is code at once.
    plain = model.invoke(asked, stop=["\n```"])
    assert not plain.content.lstrip().startswith("```")
