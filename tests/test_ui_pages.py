"""Each page under streamlit's AppTest, driven by a scripted model (the browser test uses the real one)."""

from __future__ import annotations

import os
import re
import socket
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest
from langchain_core.messages import AIMessage
from langchain_core.outputs import ChatGeneration, ChatResult
from streamlit.testing.v1 import AppTest

from agent import ModelChoice, Solver, make_solver
from bench.humaneval import load_problems
from fakes import PromptKeyedModel, humaneval_answers
from ui import session

PROBLEMS = load_problems()
WRONG_THEN_RIGHT = {1: "```python\ndef add(a, b):\n    return a - b\n```",
                    2: "```python\ndef add(a, b):\n    return a + b\n```"}


HEADINGS = ("**:material/psychology:", "**:material/science:", "**:material/replay:", "**:material/stop_circle:",
            "**:material/how_to_vote:")


class SeedKeyedModel(PromptKeyedModel):
    """Answers by its seed: the coder draws each fresh sample from a copy with a seed of its own, so samples differ
    here as they do on a real model (PromptKeyedModel has no seed, so all its samples would be one answer)."""

    seed: int = 0
    temperature: float = 0.0

    def _generate(self, messages, stop=None, run_manager=None, **kwargs) -> ChatResult:
        text = self.answer("", self.seed)
        usage = {"input_tokens": 10 * len(messages), "output_tokens": len(text.split()), "total_tokens": 0}
        return ChatResult(generations=[ChatGeneration(message=AIMessage(content=text, usage_metadata=usage))])


def by_seed(prompt: str, seed: int) -> str:
    """The greedy first answer (seed 0) is wrong; samples (seeds 2000, 2001, ...) are right, in two spellings."""
    if seed < 1000:
        return WRONG_THEN_RIGHT[1]
    return "```python\ndef add(a, b):\n    return " + ("a + b" if seed % 2 == 0 else "b + a") + "\n```"


def seeded_factory(settings):
    return Solver(SeedKeyedModel(answer=by_seed), settings.checkpoint_db, ModelChoice("fake", "seeded", "test"))


def fake_factory(settings):
    def answer(prompt: str, attempt: int) -> str:
        if "HumanEval" in prompt or '"""' in prompt:
            return humaneval_answers(PROBLEMS, right={p["task_id"] for p in PROBLEMS})(prompt, attempt)
        return WRONG_THEN_RIGHT.get(attempt, WRONG_THEN_RIGHT[2])
    return Solver(PromptKeyedModel(answer=answer), settings.checkpoint_db, ModelChoice("fake", "scripted", "test"))


@pytest.fixture
def app(tmp_path, monkeypatch):
    monkeypatch.setenv("DATA_DIR", str(tmp_path))
    monkeypatch.setattr(session, "SOLVER_FACTORY", fake_factory)
    session.cached_solver.clear()
    at = AppTest.from_file("../ui/app.py", default_timeout=60)
    at.run()
    assert not at.exception, at.exception
    return at


def click(at, label: str) -> AppTest:
    """Click a button, let the background job it started finish, and draw the page again."""
    next(b for b in at.button if b.label == label).click().run()
    for key in ("solve_job", "debug_job"):
        job = at.session_state[key] if key in at.session_state else None
        if job is not None:
            assert job.wait(60), f"{key} still running"
    return at.run()


def texts(at) -> list[str]:
    return [m.value for m in at.markdown] + [c.value for c in at.caption]


def card_kinds(at) -> tuple[list[str], list[str]]:
    """The timeline's card headings in page order, and what each card is."""
    headings = [m.value for m in at.markdown if m.value.startswith(HEADINGS)]
    return headings, [re.match(r"\*\*:material/\w+: (\w+)", t).group(1) for t in headings]


def stored_state(tmp_path, thread_id: str) -> dict:
    """A finished solve's state, read from the checkpoints the page's solver wrote."""
    return Solver(PromptKeyedModel(answer=lambda p, a: ""), tmp_path / "solves.sqlite").state_at(thread_id)


def set_search(at, strategy: str, budget: int) -> None:
    at.selectbox(key="strategy").set_value(strategy)
    at.number_input(key="budget").set_value(budget)
    at.run()


def test_playground_renders_with_examples(app):
    assert app.title[0].value == "Playground"
    assert any(b.label.startswith("Run-length encoding") for b in app.button)


def test_playground_run_shows_cards_in_order_and_a_verdict(app):
    set_search(app, "hybrid", 4)
    app.text_area(key="task").set_value("Write a function add(a, b) that returns the sum of a and b.")
    app.session_state["tests"] = "assert add(1, 2) == 3\n"
    click(app, "Run")
    assert not app.exception, app.exception
    headings, kinds = card_kinds(app)
    # hybrid repairs first: the repair passes, and with two candidates the chooser picks.
    assert kinds == ["coder", "executor", "route", "coder", "executor", "route", "chooser"]
    assert "1 of 4 candidates used — next: a repair" in headings[2]
    assert "stop" in headings[5] and "#2" in headings[5]
    assert "chose #2: #2 is the only candidate that passes every visible test" in headings[6]
    assert "Passed" in app.success[0].value
    verdicts = [m.value for m in app.markdown if m.value.startswith((":green[", ":red["))]
    # pass and fail are said in words too, not by colour alone
    assert any("**#1 fails** — 0 of 1 visible tests pass; first failure" in v for v in verdicts), verdicts
    assert any("**#2 passes** — 1 of 1 visible tests pass" in v for v in verdicts), verdicts
    assert any(c.value.startswith("#2 · repair · ") for c in app.caption)
    assert any("left side:  -1" in c.value for c in app.code)  # the failing assert's compared values
    assert any("-    return a - b" in c.value for c in app.code)  # the repair's diff against the previous candidate


def test_playground_sample_round_is_shown_side_by_side_and_the_choice_says_why(app, tmp_path, monkeypatch):
    monkeypatch.setattr(session, "SOLVER_FACTORY", seeded_factory)
    session.cached_solver.clear()
    set_search(app, "sample", 3)
    app.text_area(key="task").set_value("Write a function add(a, b) that returns the sum of a and b.")
    app.session_state["tests"] = "assert add(1, 2) == 3\n"
    click(app, "Run")
    assert not app.exception, app.exception
    headings, kinds = card_kinds(app)
    assert kinds == ["coder", "executor", "route", "coder", "executor", "route", "chooser"]
    assert "1 of 3 candidates used — next: fresh samples" in headings[2]
    # The round's two samples sit in columns of one row, each with its caption and code.
    columns = [c for c in app.columns if any(cap.value.startswith(("#2 · sample", "#3 · sample")) for cap in c.caption)]
    assert len(columns) == 2, [[cap.value for cap in c.caption] for c in app.columns]
    assert [c.weight for c in columns] == [0.5, 0.5]  # halves of one row, not a column each
    assert "return a + b" in columns[0].code[0].value and "return b + a" in columns[1].code[0].value
    assert "seed 2000" in columns[0].caption[0].value and "seed 2001" in columns[1].caption[0].value
    final = app.session_state["solve_job"].final
    chosen = stored_state(tmp_path, final.thread_id)["choice"]
    assert headings[6].endswith(f"chose #{chosen['iteration']}: {chosen['reason']}")
    assert "2 candidates pass every visible test" in headings[6]
    # The chooser card shows both eligible candidates, the chosen one marked in words.
    assert sum("chosen" in m.value for m in app.markdown if m.value.startswith(("**#2 · sample", "**#3 · sample"))) == 1


def test_sidebar_strategy_and_budget_reach_the_solve(app, tmp_path, monkeypatch):
    def always_wrong(settings):
        model = PromptKeyedModel(answer=lambda prompt, attempt: WRONG_THEN_RIGHT[1])
        return Solver(model, settings.checkpoint_db, ModelChoice("fake", "wrong", "test"))

    monkeypatch.setattr(session, "SOLVER_FACTORY", always_wrong)
    session.cached_solver.clear()
    set_search(app, "repair", 2)
    app.text_area(key="task").set_value("Write a function add(a, b) that returns the sum of a and b.")
    app.session_state["tests"] = "assert add(1, 2) == 3\n"
    click(app, "Run")
    assert not app.exception, app.exception
    state = stored_state(tmp_path, app.session_state["solve_job"].final.thread_id)
    assert (state["strategy"], state["max_retries"]) == ("repair", 1)
    # The budget of 2 candidates ends the solve, not the default of 4; the chooser still picks between the two.
    headings, kinds = card_kinds(app)
    assert kinds == ["coder", "executor", "route", "coder", "executor", "route", "chooser"]
    assert "1 of 2 candidates used — next: a repair" in headings[2]
    assert "the budget is spent: 2 of 2 candidates used" in headings[5]
    assert "chose #2: 2 candidates pass the most visible tests (0)" in headings[6]
    assert any("Not solved" in e.value for e in app.error)


@pytest.mark.parametrize("task, tests, message", [
    ("", "assert add(1, 2) == 3\n", "task is empty"),
    ("add numbers", "assert add(1, 2 == 3\n", "line 1"),
    ("add numbers", "", "tests are empty"),
])
def test_playground_bad_input_is_shown_in_place(app, task, tests, message):
    app.text_area(key="task").set_value(task)
    app.session_state["tests"] = tests
    next(b for b in app.button if b.label == "Run").click().run()
    assert not app.exception
    assert any(message in e.value for e in app.error), [e.value for e in app.error]


def test_playground_model_server_down_names_the_fix(app, monkeypatch):
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    monkeypatch.setenv("OLLAMA_BASE_URL", f"http://127.0.0.1:{port}")
    monkeypatch.setattr(session, "SOLVER_FACTORY", make_solver)
    app.selectbox(key="provider").set_value("ollama").run()
    next(b for b in app.button if b.label == "Run").click().run()
    assert any(f"127.0.0.1:{port}" in e.value and "ollama serve" in e.value for e in app.error), (
        [e.value for e in app.error], app.exception)


def test_playground_a_running_solve_can_be_stopped_and_keeps_its_steps(app, monkeypatch):
    gate = threading.Event()  # the second attempt waits here, so Stop surely lands mid-solve

    def wrong_after_the_gate(prompt: str, attempt: int) -> str:
        if attempt >= 2:
            gate.wait(30)
        return WRONG_THEN_RIGHT[1]

    def slow_wrong(settings):
        model = PromptKeyedModel(answer=wrong_after_the_gate)
        return Solver(model, settings.checkpoint_db, ModelChoice("fake", "slow", "test"))

    monkeypatch.setattr(session, "SOLVER_FACTORY", slow_wrong)
    session.cached_solver.clear()
    set_search(app, "repair", 4)  # a repair's conversation holds an answer, which is what the gate waits on
    assert "2 asserts, each reported on its own" in [c.value for c in app.caption]
    next(b for b in app.button if b.label == "Run").click().run()
    job = app.session_state["solve_job"]
    assert job.running
    assert next(b for b in app.button if b.label == "Run").disabled
    deadline = time.time() + 30  # Stop once the second answer is being written (held at the gate)
    while not any(getattr(e, "step", 0) == 3 for e in job.snapshot()) and time.time() < deadline:
        time.sleep(0.01)
    next(b for b in app.button if b.label == "Stop").click().run()
    gate.set()
    assert job.wait(30) and job.cancelled
    app.run()
    assert any("Stopped." in w.value for w in app.warning), [w.value for w in app.warning]
    assert not any(b.label == "Stop" for b in app.button)
    assert job.final.paused and job.final.iterations == 2  # stopped after the second answer, not at the cap
    app.switch_page("views/debugger.py").run()
    assert any("Checkpoint" in t for t in texts(app))
    assert any("paused before" in i.value for i in app.info), [i.value for i in app.info]
    click(app, "Run to the end")
    assert not app.exception, app.exception
    assert not any("paused before" in i.value for i in app.info)
    assert any("Not solved" in e.value for e in app.error)  # the slow model is always wrong: 4 attempts


def test_debugger_lists_a_solve_and_its_steps(app):
    click(app, "Run")
    app.switch_page("views/debugger.py").run()
    assert not app.exception, app.exception
    assert app.title[0].value == "Debugger"
    assert app.select_slider  # the checkpoint slider
    assert any("Checkpoint" in t for t in texts(app))


def test_debugger_step_mode_runs_one_node_per_click(app):
    app.switch_page("views/debugger.py").run()
    next(b for b in app.button if b.label == "Start in step mode").click().run()
    assert any("paused before **coder**" in i.value for i in app.info)
    click(app, "Next step")
    assert not app.exception, app.exception
    assert any("paused before **executor**" in i.value for i in app.info)


def test_debugger_steps_through_to_the_chooser(app):
    set_search(app, "hybrid", 4)  # one repair, which the scripted model gets right
    app.switch_page("views/debugger.py").run()
    next(b for b in app.button if b.label == "Start in step mode").click().run()
    for node in ("coder", "executor", "coder", "executor", "chooser"):
        assert any(f"paused before **{node}**" in i.value for i in app.info), [i.value for i in app.info]
        click(app, "Next step")
        assert not app.exception, app.exception
    assert not any("paused before" in i.value for i in app.info)
    # The last step ran the chooser alone: its card still shows the candidates it chose among.
    headings, kinds = card_kinds(app)
    assert kinds[-1] == "chooser" and "chose #2" in headings[-1], headings
    assert any(m.value.startswith("**#2 · repair**") and "chosen" in m.value for m in app.markdown)


def test_debugger_fork_edits_the_last_candidate_and_the_chooser_runs_again(app, monkeypatch):
    monkeypatch.setattr(session, "SOLVER_FACTORY", seeded_factory)
    session.cached_solver.clear()
    set_search(app, "sample", 3)
    click(app, "Run")
    app.switch_page("views/debugger.py").run()
    assert not app.exception, app.exception
    assert any(m.value.startswith("**chooser** — chose #2") for m in app.markdown)
    # After the chooser the answer is #2, but a fork's code replaces the last candidate's: the editor holds #3.
    editor = next(t for t in app.text_area if t.label.startswith("Code of #3"))
    assert "return b + a" in editor.value
    editor.set_value("def add(a, b):\n    return 0\n")
    click(app, "Run the tests on this code")
    assert not app.exception, app.exception
    assert any("**#3 fails**" in m.value for m in app.markdown)
    headings, kinds = card_kinds(app)
    assert kinds[-3:] == ["executor", "route", "chooser"] and "chose #2" in headings[-1], headings


def test_bench_form_starts_a_background_run_and_progress_moves(app):
    app.switch_page("views/bench.py").run()
    assert not app.exception, app.exception
    next(t for t in app.text_input if t.label == "Tasks").set_value("0-1")
    app.selectbox(key="bench_strategy").set_value("repair")
    app.number_input(key="bench_budget").set_value(2)
    app.selectbox(key="bench_prompt_version").set_value("v3")
    next(b for b in app.button if b.label == "Start").click().run()
    assert not app.exception, app.exception
    deadline = time.time() + 60
    while time.time() < deadline:
        app.run()
        bars = [p for p in app.get("progress")]
        if bars and "2/2 tasks done" in bars[0].proto.text:
            break
        time.sleep(0.5)
    assert "2/2 tasks done" in bars[0].proto.text and "2 passing" in bars[0].proto.text
    assert any("honest protocol" in s.value for s in app.success)
    assert any(c.value.startswith("strategy repair · budget 2 candidates · prompt v3 · 2 tasks") for c in app.caption)
    assert any(m.value.startswith("**Diagnostics** — measured with the hidden tests after the run, never used to "
                                  "choose") for m in app.markdown)
    assert {m.label: m.value for m in app.metric}["oracle ceiling"] == "100.0%"


@pytest.mark.parametrize("status, banner, words", [
    (("rlimits", "rlimits", "Code can read every file", None), "error", "Weak sandbox"),
    (("landlock", "landlock7+seccomp+rlimits", "No namespaces here", None), "warning", "Reduced sandbox"),
    (("rlimits", "rlimits", "weak", "SANDBOX_REQUIRE=bwrap, but"), "error", "Sandbox refused"),
])
def test_weak_isolation_is_a_banner_on_every_page(tmp_path, monkeypatch, status, banner, words):
    import agent

    monkeypatch.setenv("DATA_DIR", str(tmp_path))
    monkeypatch.setattr(session, "SOLVER_FACTORY", fake_factory)
    monkeypatch.setattr(agent, "sandbox_status", lambda: agent.SandboxStatus(*status))
    at = AppTest.from_file("../ui/app.py", default_timeout=60).run()
    assert not at.exception, at.exception
    shown = [e.value for e in getattr(at, banner)]
    assert any(words in text and (status[3] or status[2]) in text for text in shown), shown


def test_full_isolation_shows_no_banner(app):
    assert not [e.value for e in app.error] and not [w.value for w in app.warning if "sandbox" in w.value.lower()]


def test_sandbox_status_is_real_and_names_the_level(monkeypatch):
    probe = subprocess.run([sys.executable, "-c", "from agent import sandbox_status; s = sandbox_status(); "
                            "print(s.level, bool(s.warning), bool(s.refused))"],
                           env={**os.environ, "SANDBOX_ISOLATION": "rlimits", "SANDBOX_REQUIRE": "landlock"},
                           capture_output=True, text=True, cwd=Path(__file__).resolve().parent.parent)
    assert probe.stdout.split() == ["rlimits", "True", "True"], probe.stderr
