"""Each page under streamlit's AppTest, driven by a scripted model (the browser test uses the real one)."""

from __future__ import annotations

import socket
import threading
import time

import pytest
from streamlit.testing.v1 import AppTest

from agent import ModelChoice, Solver, make_solver
from bench.humaneval import load_problems
from fakes import PromptKeyedModel, humaneval_answers
from ui import session

PROBLEMS = load_problems()
WRONG_THEN_RIGHT = {1: "```python\ndef add(a, b):\n    return a - b\n```",
                    2: "```python\ndef add(a, b):\n    return a + b\n```"}


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


def test_playground_renders_with_examples(app):
    assert app.title[0].value == "Playground"
    assert any(b.label.startswith("Run-length encoding") for b in app.button)


def test_playground_run_shows_cards_in_order_and_a_verdict(app):
    app.text_area(key="task").set_value("Write a function add(a, b) that returns the sum of a and b.")
    app.session_state["tests"] = "assert add(1, 2) == 3\n"
    click(app, "Run")
    assert not app.exception, app.exception
    headings = [t for t in texts(app) if t.startswith(("**:material/psychology:", "**:material/science:",
                                                       "**:material/replay:", "**:material/stop_circle:"))]
    kinds = ["coder" if "coder" in t else "executor" if "executor" in t else "route" for t in headings]
    assert kinds == ["coder", "executor", "route", "coder", "executor", "route"]
    assert "retry 1 of 3" in headings[2] and "stop" in headings[5]
    assert "Passed" in app.success[0].value
    assert any("left side:  -1" in c.value for c in app.code)  # the failing assert's compared values
    assert any("-    return a - b" in c.value for c in app.code)  # the diff against the previous attempt


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
    app.run()
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


def test_bench_form_starts_a_background_run_and_progress_moves(app):
    app.switch_page("views/bench.py").run()
    assert not app.exception, app.exception
    next(t for t in app.text_input if t.label == "Tasks").set_value("0-1")
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
