"""The Playground asks where answers that pass thin tests disagree: the question under the verdict, one click that
adds the test and changes the answer, Run again keeping it, the question found again after a reload or a restart,
two sessions each with their own question, and the Debugger listing what was asked. Streamlit's AppTest with a
scripted model (the browser test, tests/test_e2e_questions.py, drives the same with the real one)."""

from __future__ import annotations

import pytest
from streamlit.testing.v1 import AppTest

import agent.solves.jobs
from agent import ModelSpec, Solver
from agent.loop.questions import Question
from fakes import SeededModel
from ui import session
from ui.timeline import code_span, plain, question_markdown

DOUBLE_TASK, DOUBLE_TESTS = "Write a function double(n) that returns n times 2.", "assert double(3) == 6\n"
TRIPLE_TASK, TRIPLE_TESTS = "Write a function triple(n) that returns n times 3.", "assert triple(2) == 6\n"


def by_seed(prompt: str, seed: int) -> str:
    """The greedy first answer adds where it should multiply (n + 3 passes double(3) == 6, n + 4 passes triple(2) ==
    6); the doubt batch's samples (seeds from 1000) alternate between that and the right answer. Once the prompt's
    tests say double(4) is 9, samples give the only answer that agrees."""
    name, wrong, right = ("double", "n + 3", "n * 2") if "double" in prompt else ("triple", "n + 4", "n * 3")
    body = "n * 3 - 3" if "double(4) == 9" in prompt else right if seed >= 1000 and seed % 2 == 0 else wrong
    return f"```python\ndef {name}(n):\n    return {body}\n```"


def seeded_factory(settings):
    return Solver(SeededModel(answer=by_seed), settings.checkpoint_db, ModelSpec("fake", "seeded", "test"))


@pytest.fixture
def page(app, monkeypatch):
    """The app as it starts by default: asking (the app fixture turns it off for the other pages' tests)."""
    monkeypatch.setattr(session, "SOLVER_FACTORY", seeded_factory)
    monkeypatch.delenv("APP_ASK")
    session.cached_solver.clear()
    at = AppTest.from_file("../ui/app.py", default_timeout=60)
    at.run()
    return at


def button(at, label: str):
    return next(b for b in at.button if b.label == label)


def settle(at) -> AppTest:
    """Let the solve on show finish (or pause at its question), and draw the page again."""
    job = at.session_state["solve_job"] if "solve_job" in at.session_state else None
    if job is not None:
        assert job.wait(60), "the solve is still running"
    at.run()
    assert not at.exception, at.exception
    return at


def click(at, label: str) -> AppTest:
    button(at, label).click().run()
    return settle(at)


def solve(at, task: str = DOUBLE_TASK, tests: str = DOUBLE_TESTS) -> str:
    """Run this task in words with these tests; the solve's thread id."""
    if not any(t.label == "Task" for t in at.text_area):  # the first example's task is Python, in the code editor
        at.selectbox(key="example").set_value("Add two numbers").run()
        button(at, "Load this example").click().run()
    next(t for t in at.text_area if t.label == "Task").set_value(task)
    at.session_state["tests"] = tests  # the editor's iframe is out of AppTest's reach
    at.run()
    click(at, "Run")
    return at.session_state["solve_job"].thread_id


def question(at) -> str | None:
    """The words of the question waiting under the verdict (None: none waits; a question answered is a step of the
    timeline, in plain words)."""
    return next((m.value for m in at.markdown if m.value.startswith("**") and "What should it give?" in m.value), None)


def infos(at) -> list[str]:
    return [i.value for i in at.info]


def test_a_question_shows_under_the_verdict_and_a_click_adds_the_test_and_changes_the_answer(page):
    assert next(c for c in page.checkbox if c.label == "Ask me when answers disagree").value  # on by default
    thread = solve(page)
    assert question(page) == "**Answers that pass your tests disagree on `double(4)`. What should it give?**"
    assert any(v.startswith("**A question first.** 5 of 5 candidates pass your test, but they disagree") for v in
               infos(page))
    # No verdict, behaviour table or code to download yet: the answer is not picked.
    assert not page.success and not page.table and not page.get("download_button")
    assert [b.label for b in page.button if b.key and b.key.startswith(f"answer-{thread}-")] == ["returns 7",
                                                                                                 "returns 8"]
    captions = [c.value for c in page.caption]
    assert "given by #1, #3, #5 — the answer so far" in captions and "given by #2, #4" in captions
    assert any(v.endswith("until it is answered, the answer is #1.") for v in infos(page))
    click(page, "returns 8")
    assert question(page) is None
    assert page.session_state["tests"] == DOUBLE_TESTS + "assert double(4) == 8\n"
    assert "the chooser picked #2" in page.success[0].value and page.get("download_button")
    table = page.table[0].value
    assert "double(4)" not in list(table["call"]) and "returns 10" in list(table["what the answer does"])
    steps = [e.label for e in page.expander]
    assert any(s.startswith("**#2–#5 · 4 more samples, since your tests are thin") for s in steps)
    assert "**question** — `double(4)`: answered returns 8 — a test added; kept #2, #4, dropped #1, #3, #5" in steps
    assert any(s.startswith("**#1–#5 · judged again with the test your answer added** — 2 of 5 pass") for s in steps)
    # Run again keeps the added test: the new solve runs it, and its answers agree, so nothing is asked.
    again = solve(page, tests=page.session_state["tests"])
    assert again != thread and question(page) is None and page.success
    solver = seeded_factory(session.load_settings())
    assert solver.state_at(again)["tests"] == DOUBLE_TESTS + "assert double(4) == 8\n"


def test_a_typed_result_goes_on_with_the_new_test_and_what_is_not_python_is_refused_in_place(page):
    thread = solve(page)
    page.text_input(key=f"answer-typed-{thread}").set_value("nine").run()
    click(page, "Use this result")
    assert any("Cannot take this answer:" in e.value and "is a name, not a value" in e.value for e in page.error)
    assert question(page) is not None and page.session_state["tests"] == DOUBLE_TESTS  # nothing lost
    page.text_input(key=f"answer-typed-{thread}").set_value("9").run()
    click(page, "Use this result")
    # No candidate gives 9: every one drops out and the loop goes on, its samples reading the new test.
    assert page.session_state["tests"] == DOUBLE_TESTS + "assert double(4) == 9\n"
    assert page.session_state["solve_job"].final.status == "passed"
    assert "return n * 3 - 3" in page.session_state["solve_job"].final.code


def test_skip_adds_nothing_and_the_next_question_follows_or_the_answer(page):
    solve(page)
    click(page, "Skip")
    assert page.session_state["tests"] == DOUBLE_TESTS
    # n + 3 and n * 2 disagree on every input but 3: the next question is about another one.
    assert question(page) is not None and "double(4)" not in question(page)
    assert any(e.label == "**question** — `double(4)`: skipped" for e in page.expander)


def test_the_question_shows_again_after_a_reload_and_after_a_restart(page, monkeypatch):
    thread = solve(page)
    asked = question(page)
    reload = AppTest.from_file("../ui/app.py", default_timeout=60)
    reload.query_params["solve"] = thread
    reload.run()
    assert question(reload) == asked and reload.session_state["tests"] == DOUBLE_TESTS
    monkeypatch.setattr(agent.solves.jobs, "_jobs", {})  # a restarted server: told from the checkpoints
    restarted = AppTest.from_file("../ui/app.py", default_timeout=60)
    restarted.query_params["solve"] = thread
    restarted.run()
    assert question(restarted) == asked
    click(restarted, "returns 8")
    assert question(restarted) is None and "the chooser picked #2" in restarted.success[0].value
    # The timeline still tells the whole solve: the first answer, the doubt batch, the question, the chooser.
    steps = [e.label for e in restarted.expander]
    assert any(s.startswith("**#1 · first answer") for s in steps) and any(s.startswith("**chooser") for s in steps)
    assert restarted.session_state["tests"] == DOUBLE_TESTS + "assert double(4) == 8\n"


def test_two_sessions_running_together_each_see_their_own_question(page):
    other = AppTest.from_file("../ui/app.py", default_timeout=60)
    other.run()
    for at, task, tests in ((page, DOUBLE_TASK, DOUBLE_TESTS), (other, TRIPLE_TASK, TRIPLE_TESTS)):
        at.selectbox(key="example").set_value("Add two numbers").run()
        button(at, "Load this example").click().run()
        next(t for t in at.text_area if t.label == "Task").set_value(task)
        at.session_state["tests"] = tests
        at.run()
    button(page, "Run").click().run()
    button(other, "Run").click().run()
    settle(page), settle(other)
    assert "double(4)" in question(page) and "triple" not in question(page)
    assert "triple(" in question(other) and "double" not in question(other)
    click(other, next(b.label for b in other.button if b.label.startswith("returns ")))
    assert question(other) is None and "double(4)" in question(settle(page))


def test_turned_off_the_solve_asks_nothing(page):
    next(c for c in page.checkbox if c.label == "Ask me when answers disagree").uncheck().run()
    solve(page)
    assert question(page) is None and "at the first answer" in page.success[0].value


def test_the_debugger_shows_each_question_and_answer_and_sends_a_waiting_one_to_the_playground(page):
    thread = solve(page)
    click(page, "Open this solve in the debugger")
    assert any(v.startswith("**This solve waits for an answer.** Answers that pass your tests disagree on double(4)")
               for v in infos(page))
    assert not [b for b in page.button if b.label in ("Next step", "Run to the end")]  # they would only ask again
    click(page, "Answer it in the Playground")
    assert question(page) is not None and page.query_params["solve"] == thread
    click(page, "returns 8")
    click(page, "Open this solve in the debugger")
    panel = next(e for e in page.expander if e.label == "Questions asked (1)")
    texts = [m.value for m in panel.markdown]
    assert "**Question 1** — `double(4)`: answered returns 8 — a test added; kept #2, #4, dropped #1, #3, #5" in texts
    assert "- returns 7 — given by #1, #3, #5" in texts and "- returns 8 — given by #2, #4 · **your answer**" in texts
    assert [c.value for c in panel.code] == ["assert double(4) == 8"]


def test_a_question_answered_in_another_tab_is_not_answered_again_from_a_stale_one(page):
    thread = solve(page)
    stale = AppTest.from_file("../ui/app.py", default_timeout=60)
    stale.query_params["solve"] = thread
    stale.run()
    click(page, "Skip")  # the next question waits now
    click(stale, "returns 8")  # a reply to the first question, from the tab that still shows it
    assert any("answered in another tab or window" in e.value for e in stale.error)
    assert len(seeded_factory(session.load_settings()).asked(thread)) == 1


def test_a_tab_whose_solve_another_tab_carried_on_shows_it_carried_on_with_the_answers_test(page):
    thread = solve(page)
    other = AppTest.from_file("../ui/app.py", default_timeout=60)
    other.query_params["solve"] = thread
    other.run()
    click(other, "returns 8")
    settle(page)  # the tab that started the solve, drawn again: not its own job's old question
    assert question(page) is None and not page.error
    assert "assert double(4) == 8" in page.session_state["tests"]  # Run from here keeps the answer


def test_a_bad_app_ask_stops_the_app_at_start_naming_it(monkeypatch):
    from ui.settings import load_app_settings

    monkeypatch.setenv("APP_ASK", "maybe")
    with pytest.raises(ValueError, match="APP_ASK"):
        load_app_settings()


def test_a_call_reads_exactly_in_markdown_its_spaces_and_backticks_kept():
    # A question on f('   hello') read as f(' hello') would make the person's answer a test of another input.
    assert plain("f('   a_b')") == "f('\u00a0\u00a0 a\\_b')" and plain("f(' a')") == "f(' a')"
    assert code_span("f('   a')") == "`f('   a')`" and code_span("f('`')") == "``f('`')``"
    assert code_span("`x") == "`` `x ``"
    # The Playground's form and the Debugger's detail write a question alike: its call as a code span, the rest plain.
    asked = question_markdown(Question("f('   a_b')", False, ()))
    assert "`f('   a_b')`" in asked and asked.endswith("What should it give?")
    # A question on an argument read after the call writes the argument as a code span too, and so does its line.
    on_argument = Question("take({'a_b': 5}, {'a_b': 3})", False, (), argument=0)
    assert question_markdown(on_argument) == (
        "Answers that pass your tests disagree on what `take({'a_b': 5}, {'a_b': 3})` does to its argument "
        "`{'a_b': 5}`. What should that argument hold after the call?")
    assert on_argument.subject(code=code_span, prose=plain) == (
        "argument `{'a_b': 5}` after `take({'a_b': 5}, {'a_b': 3})`")


def by_seed_changing(prompt: str, seed: int) -> str:
    """The greedy answer takes the order off the dict it is given, which the task forbids; the doubt batch's samples
    (seeds from 1000) alternate between that and one that copies it first."""
    copies = seed >= 1000 and seed % 2 == 0
    body = ("    left = dict(stock)\n    for k, v in order.items():\n        left[k] -= v\n    return left\n" if copies
            else "    for k, v in order.items():\n        stock[k] -= v\n    return stock\n")
    return f"```python\ndef take(stock, order):\n{body}```"


def test_a_question_on_what_a_call_leaves_in_its_argument_adds_a_test_that_names_it(app, monkeypatch):
    monkeypatch.setattr(session, "SOLVER_FACTORY", lambda settings: Solver(
        SeededModel(answer=by_seed_changing), settings.checkpoint_db, ModelSpec("fake", "seeded", "test")))
    monkeypatch.delenv("APP_ASK")
    session.cached_solver.clear()
    at = AppTest.from_file("../ui/app.py", default_timeout=60)
    at.run()
    tests = "assert take({'a': 5, 'b': 1}, {'a': 3}) == {'a': 2, 'b': 1}\n"
    thread = solve(at, "Write take(stock, order): the stock left once the order is taken off. Never modify `stock`.",
                   tests)
    asked = next(m.value for m in at.markdown if "What should that argument hold after the call?" in m.value)
    assert asked == ("**Answers that pass your tests disagree on what `take({'a': 5, 'b': 1}, {'a': 3})` does to its "
                     "argument `{'a': 5, 'b': 1}`. What should that argument hold after the call?**")
    assert [b.label for b in at.button if b.key and b.key.startswith(f"answer-{thread}-")] == [
        "changes it to {'a': 2, 'b': 1}", "leaves it as it was"]
    assert any(t.label == "None of these: after the call it should hold ..." for t in at.text_input)
    click(at, "leaves it as it was")
    assert at.session_state["tests"] == tests + (
        "argument = {'a': 5, 'b': 1}\ntake(argument, {'a': 3})\nassert argument == {'a': 5, 'b': 1}\n")
    assert "the chooser picked #2" in at.success[0].value
    assert any(e.label.startswith("**question** — argument `{'a': 5, 'b': 1}` after `take({'a': 5, 'b': 1}, "
                                  "{'a': 3})`: answered leaves it as it was — a test added") for e in at.expander)
    rows = list(at.table[0].value["what the answer does"])
    assert "leaves its argument {'a': 5, 'b': 1} as it was" in rows
