"""The Playground under a finished solve: what the answer does on inputs the person did not test, a row made a test in
one click, Run again, and the Debugger saying which tests were added after which answer. Streamlit's AppTest with a
scripted model (the browser test, tests/test_e2e_browser.py, drives the same with the real one)."""

from __future__ import annotations

import pytest
from streamlit.testing.v1 import AppTest

import agent.solves.jobs
from agent import ModelSpec, Solver
from fakes import ADD_TASK, PromptKeyedModel
from ui import session

# Right on the person's test, wrong at a == 0 (it returns 1); right once the prompt shows a test of add(0, 2).
ZERO_WRONG = "```python\ndef add(a, b):\n    if a == 0:\n        return 1\n    return a + b\n```"
RIGHT = "```python\ndef add(a, b):\n    return a + b\n```"
PYTEST_TESTS = "def test_small():\n    assert add(1, 2) == 3\n"


def zero_wrong_factory(settings):
    model = PromptKeyedModel(answer=lambda prompt, attempt: RIGHT if "add(0, 2)" in prompt else ZERO_WRONG)
    return Solver(model, settings.checkpoint_db, ModelSpec("fake", "zero-wrong", "test"))


@pytest.fixture
def page(app, monkeypatch):
    monkeypatch.setattr(session, "SOLVER_FACTORY", zero_wrong_factory)
    session.cached_solver.clear()
    return app


def button(at, label: str):
    return next(b for b in at.button if b.label == label)


def click(at, label: str) -> AppTest:
    """Click a button, let the solve it started finish, and draw the page again."""
    button(at, label).click().run()
    job = at.session_state["solve_job"] if "solve_job" in at.session_state else None
    if job is not None:
        assert job.wait(60), "the solve is still running"
    return at.run()


def solve_add(at, tests: str = "assert add(1, 2) == 3\n") -> str:
    """Run the add task in words with these tests; the solve's thread id."""
    at.selectbox(key="example").set_value("Add two numbers").run()
    click(at, "Load this example")
    next(t for t in at.text_area if t.label == "Task").set_value(ADD_TASK)
    at.session_state["tests"] = tests  # the editor's iframe is out of AppTest's reach
    at.run()
    click(at, "Run")
    assert not at.exception, at.exception
    return at.session_state["solve_job"].final.thread_id


def rows(at) -> list[tuple[str, str, str]]:
    table = at.table[0].value
    return list(zip(table["call"], table["what the answer does"], table["input"]))


def expected_box(at):
    return next(t for t in at.text_input if t.label == "Expected value or exception type")


def mark_wrong(at, call: str, expected: str, *, raises: bool = False, then: str = "Add this test") -> None:
    """Pick the row of this call, say what it should return (or raise), and click then (Add this test)."""
    picker = next(s for s in at.selectbox if s.label == "Row the answer gets wrong")
    picker.set_value([r[0] for r in rows(at)].index(call) + 1)  # rows are numbered from 1
    next(r for r in at.radio if r.label == "The right outcome").set_value(
        "raises this exception" if raises else "returns this value")
    expected_box(at).set_value(expected)
    at.run()
    button(at, then).click().run()
    assert not at.exception, at.exception


def test_a_solve_that_stopped_at_its_first_answer_shows_what_it_does_on_other_inputs(page):
    solve_add(page)
    assert page.success[0].value == ("**Passed** your test at the first answer — only your test was checked; see "
                                     "below what it does on other inputs.")
    assert [h.value for h in page.subheader][0] == "What the answer does beyond your tests"
    table = rows(page)
    assert len(table) >= 3 and ("add(0, 2)", "returns 1", "like your tests' inputs") in table
    assert ("add(1, -2)", "returns -1", "outside what your tests show") in table
    assert "add(1, 2)" not in [call for call, _, _ in table]  # the person's own test checks that one
    assert any("these outcomes were recorded when it was judged" in c.value for c in page.caption)


def test_a_row_marked_wrong_becomes_a_plain_assert_and_run_again_solves_with_it(page, tmp_path):
    first = solve_add(page)
    mark_wrong(page, "add(0, 2)", "2")
    assert page.session_state["tests"] == "assert add(1, 2) == 3\nassert add(0, 2) == 2\n"
    assert any(c.value == "assert add(0, 2) == 2" for c in page.code)  # listed under "Added to your tests"
    assert expected_box(page).value == ""  # ready for the next row
    click(page, "Run again")
    again = page.session_state["solve_job"].final
    assert again.thread_id != first and again.status == "passed"
    assert "**Passed** your 2 tests at the first answer" in page.success[0].value
    assert any(c.value.startswith("Run again from the solve before: 1 test added after answer #1 — "
                                  "`assert add(0, 2) == 2`") for c in page.caption)
    solver = zero_wrong_factory(session.load_settings())
    lineage = solver.lineage_of(again.thread_id)
    assert (lineage.from_solve, lineage.after_answer) == (first, 1)
    assert [(a.call, a.answered, a.expected) for a in lineage.added] == [("add(0, 2)", "returns 1", "returns 2")]
    assert solver.state_at(again.thread_id)["tests"].endswith("assert add(0, 2) == 2\n")
    # The new answer has a table of its own, without the call the person tests now, and nothing is pending.
    now = {call: words for call, words, _ in rows(page)}
    assert "add(0, 2)" not in now and now["add(0, 3)"] == "returns 3"
    assert not any(m.value.startswith("**Added to your tests**") for m in page.markdown)


def test_a_row_corrected_carries_the_same_solve_on_with_its_test_and_the_timeline_tells_it(page, monkeypatch):
    first = solve_add(page)
    mark_wrong(page, "add(0, 2)", "2", then="Correct and go on")
    job = page.session_state["solve_job"]
    assert job.wait(60), "the solve is still running"
    page.run()
    final = page.session_state["solve_job"].final
    # The same solve went on: its only candidate failed the new test, so the loop repaired with it in the prompt.
    assert final.thread_id == first and final.status == "passed" and "return a + b" in final.code
    assert page.session_state["tests"] == "assert add(1, 2) == 3\nassert add(0, 2) == 2\n"
    solver = zero_wrong_factory(session.load_settings())
    assert solver.state_at(first)["tests"].endswith("assert add(0, 2) == 2\n")
    [corrected] = solver.asked(first)
    assert (corrected.by, corrected.added.answered, corrected.dropped) == ("person", "returns 1", (1,))
    assert any("**correction** — `add(0, 2)`: corrected to returns 2 (the answer returns 1)" in e.label
               for e in page.expander)
    assert "add(0, 2)" not in [call for call, _, _ in rows(page)]  # the new answer's table: the person tests it now
    # Told from its checkpoints (a reload after a restart), the timeline still has the correction.
    monkeypatch.setattr(agent.solves.jobs, "_jobs", {})
    other = AppTest.from_file("../ui/app.py", default_timeout=60)
    other.query_params["solve"] = first
    other.run()
    assert not other.exception, other.exception
    assert any("**correction** — `add(0, 2)`: corrected to returns 2" in e.label for e in other.expander)


def test_pytest_style_tests_get_a_test_function_with_pytest_raises(page):
    solve_add(page, PYTEST_TESTS)
    mark_wrong(page, "add(0, 2)", "ValueError", raises=True)
    tests = page.session_state["tests"]
    assert tests.startswith("import pytest\n") and tests.endswith(
        "def test_add_0_2_raises():\n    with pytest.raises(ValueError):\n        add(0, 2)\n")


def test_what_is_not_python_is_refused_in_place_and_the_tests_stay(page):
    solve_add(page)
    mark_wrong(page, "add(0, 2)", "two")
    assert any("Cannot add this test:" in e.value and "is a name, not a value" in e.value for e in page.error)
    assert page.session_state["tests"] == "assert add(1, 2) == 3\n"


def test_a_solve_found_again_after_a_restart_shows_its_table(page, monkeypatch):
    thread = solve_add(page)
    seen = rows(page)
    monkeypatch.setattr(agent.solves.jobs, "_jobs", {})  # no job holds it: told from its checkpoints
    other = AppTest.from_file("../ui/app.py", default_timeout=60)
    other.query_params["solve"] = thread
    other.run()
    assert not other.exception, other.exception
    assert rows(other) == seen and "only your test was checked" in other.success[0].value


def test_the_debugger_says_which_tests_were_added_after_which_answer(page):
    first = solve_add(page)
    mark_wrong(page, "add(0, 2)", "2")
    click(page, "Run again")
    click(page, "Open this solve in the debugger")
    assert not page.exception, page.exception
    solve = next(s for s in page.selectbox if s.label == "Solve")
    assert "run again: 1 test added after answer #1" in solve.format_func(solve.value)
    texts = [m.value for m in page.markdown]
    assert "**Run again** from an earlier solve: 1 test added after answer #1 there." in texts
    assert "`add(0, 2)`: the answer returns 1; expected: returns 2" in texts
    click(page, "Open the earlier solve")
    solve = next(s for s in page.selectbox if s.label == "Solve")
    assert solve.value == first
    assert any(t.startswith("**Run again later** (") and t.endswith("1 test added after answer #1.")
               for t in (m.value for m in page.markdown))
