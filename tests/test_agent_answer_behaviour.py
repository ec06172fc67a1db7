"""What a solve's answer does beyond the person's tests (agent.solves.answer_behaviour), and the verdict that says
what was checked (agent.solves.story.passed_words)."""

from __future__ import annotations

import pytest

import agent.solves.answer_behaviour as answer_behaviour_module
from agent import RunFinished, Search, Solver
from agent.loop.probes import Probe, probe_calls
from agent.solves.answer_behaviour import BehaviourRow, answer_behaviour, behaviour_rows
from agent.solves.story import passed_words, story_of
from fakes import SamplingScriptedModel

TASK = "Write a function add(a, b) that returns the sum of a and b."
TESTS = "assert add(1, 2) == 3\n"
# Right on the visible call; wrong at a == 0, where it returns 1.
ZERO_WRONG = "```python\ndef add(a, b):\n    if a == 0:\n        return 1\n    return a + b\n```"
RIGHT = "```python\ndef add(a, b):\n    return a + b\n```"
SWAPPED = "```python\ndef add(a, b):\n    return b + a\n```"
WRONG = "```python\ndef add(a, b):\n    return a - b\n```"


def solved(tmp_path, answers: list[str], tests: str = TESTS, **search) -> tuple[Solver, list]:
    solver = Solver(SamplingScriptedModel(answers=answers), tmp_path / "s.sqlite", search=Search(**search))
    events = list(solver.start(TASK, tests))
    assert isinstance(events[-1], RunFinished)
    return solver, events


def untested_calls(tests: str) -> list[str]:
    return [p.call for p in probe_calls(tests, "add") if p.kind != "original"]


def test_rows_leave_out_the_visible_calls_and_say_what_each_call_did():
    probes = [Probe("f(2)", "original"), Probe("f(3)", "mutated"), Probe("f(-1)", "outside"), Probe("f(0)", "mutated")]
    rows = behaviour_rows(probes, ["= 4", "= 6", "! ValueError", "= 'x'"])
    assert [(r.call, r.words(), r.outside) for r in rows] == [
        ("f(3)", "returns 6", False), ("f(-1)", "raises ValueError", True), ("f(0)", "returns 'x'", False)]
    assert (rows[0].returned, rows[0].raised, rows[1].returned, rows[1].raised) == ("6", None, None, "ValueError")


def test_an_answer_that_stopped_at_one_candidate_shows_its_stored_outcomes_without_running_again(tmp_path, monkeypatch):
    solver, events = solved(tmp_path, [ZERO_WRONG])
    state = solver.state_at(events[-1].thread_id)
    monkeypatch.setattr(answer_behaviour_module, "behaviour", lambda *a, **k: pytest.fail("ran the sandbox again"))
    table = answer_behaviour(state)
    assert table.answer == 1 and table.reused
    assert [r.call for r in table.rows] == untested_calls(TESTS) and len(table.rows) >= 3
    assert ("add(0, 2)", "returns 1") in [(r.call, r.words()) for r in table.rows]
    assert "add(1, 2)" not in [r.call for r in table.rows]  # the person's own call is checked by their test


def test_a_visible_call_that_a_mutation_of_another_equals_is_no_row(tmp_path):
    # add(1, 2) less one is add(0, 2), the person's second test: probe_calls keeps it as a mutated probe (the chooser's
    # rule reads it so), but the person tests it already.
    tests = TESTS + "assert add(0, 2) == 2\n"
    assert {p.call: p.kind for p in probe_calls(tests, "add")}["add(0, 2)"] == "mutated"
    solver, events = solved(tmp_path, [RIGHT], tests=tests)
    table = answer_behaviour(solver.state_at(events[-1].thread_id))
    assert table.reused and "add(0, 2)" not in [r.call for r in table.rows] and len(table.rows) >= 3


def test_an_answer_stored_without_outcomes_is_run_in_the_sandbox_and_reads_the_same(tmp_path):
    solver, events = solved(tmp_path, [ZERO_WRONG])
    state = solver.state_at(events[-1].thread_id)
    stored = answer_behaviour(state)
    older = {**state, "attempts": [{**a, "behaviour": [], "signature": ""} for a in state["attempts"]]}
    ran = answer_behaviour(older)
    assert not ran.reused and ran.rows == stored.rows
    # Outcomes stored before the probes read results through the tests' observers (set(f(x))) were taken on other
    # probes, though as many and of the same kinds: run again, never shown under these probes' calls.
    unkeyed = {**state, "attempts": [{k: v for k, v in a.items() if k != "probed"} for a in state["attempts"]]}
    again = answer_behaviour(unkeyed)
    assert not again.reused and again.rows == stored.rows


def test_the_answer_is_the_choosers_pick(tmp_path):
    solver, events = solved(tmp_path, [WRONG, ZERO_WRONG], strategy="repair", budget=3)
    table = answer_behaviour(solver.state_at(events[-1].thread_id))
    assert table.answer == 2 and ("add(0, 2)", "returns 1") in [(r.call, r.words()) for r in table.rows]


def test_no_table_without_an_answer_that_ran():
    assert answer_behaviour({"task": TASK, "tests": TESTS, "attempts": []}) is None
    no_code = {"task": TASK, "tests": TESTS, "attempts": [{"iteration": 1, "code": "", "extract_error": "no code",
                                                           "report": {"status": "error", "tests": []}}]}
    assert answer_behaviour(no_code) is None


def test_in_oracle_mode_the_inputs_come_from_the_visible_tests_never_the_hidden_ones(tmp_path):
    # The labelled leaky mode runs hidden tests and shows the visible ones: the executor's stored outcomes were probed
    # on the hidden tests' calls, so the table neither reuses them nor shows any input only those calls lead to.
    hidden = "assert add(1, 2) == 3\nassert add(40, 50) == 90\nassert add(7, -7) == 0\n"
    solver = Solver(SamplingScriptedModel(answers=[RIGHT]), tmp_path / "s.sqlite")
    final = list(solver.start(TASK, hidden, shown_tests=TESTS))[-1]
    state = solver.state_at(final.thread_id)
    assert state["attempts"][0]["behaviour"]  # probed on the hidden calls
    table = answer_behaviour(state)
    assert not table.reused and [r.call for r in table.rows] == untested_calls(TESTS)
    hidden_only = set(untested_calls(hidden)) - set(untested_calls(TESTS))
    assert hidden_only and not hidden_only & {r.call for r in table.rows}
    assert not any(number in r.call for r in table.rows for number in ("40", "50", "90", "7"))


def test_a_call_that_runs_out_of_time_and_those_after_it_say_so(tmp_path):
    sleepy = "```python\nimport time\n\ndef add(a, b):\n    if a == 0:\n        time.sleep(30)\n    return a + b\n```"
    solver, events = solved(tmp_path, [sleepy])
    state = solver.state_at(events[-1].thread_id)
    words = {r.call: r.words() for r in answer_behaviour(state).rows}
    assert words["add(0, 2)"] == "did not finish within 3 s"
    after = [w for w in words.values() if w.startswith("not run")]
    assert after and all(w == "not run: the run stopped at an earlier input (did not finish within 3 s)" for w in after)
    assert BehaviourRow("f(1)", "mutated", "! error").words() == "could not be run: the code did not load"


# --- the verdict ---------------------------------------------------------------------------------------------


def verdict(events, **search) -> str:
    return passed_words(story_of(events, search.get("strategy", "sample"), []), more_below=True)


def test_a_pass_at_the_first_answer_says_only_the_persons_tests_were_checked(tmp_path):
    _, events = solved(tmp_path, [RIGHT], tests=TESTS + "assert add(2, 2) == 4\n")
    assert verdict(events) == ("Passed your 2 tests at the first answer — only your tests were checked; see below "
                               "what it does on other inputs.")
    (tmp_path / "one").mkdir()
    _, events = solved(tmp_path / "one", [RIGHT])
    assert passed_words(story_of(events, "sample", []), more_below=False) == (
        "Passed your test at the first answer — only your test was checked.")


def test_a_pass_by_one_candidate_of_several_says_so_too(tmp_path):
    _, events = solved(tmp_path, [WRONG, RIGHT], strategy="repair", budget=3)
    assert verdict(events, strategy="repair") == (
        "Passed your test after 2 candidates; only #2 passes, so only your test was checked; see below what it does "
        "on other inputs.")


def test_several_passing_candidates_say_the_chooser_picked_by_other_inputs(tmp_path):
    _, events = solved(tmp_path, [WRONG, RIGHT, SWAPPED], strategy="sample", budget=3, samples_per_round=2)
    assert verdict(events) == ("Passed your test after 3 candidates; 2 pass, and the chooser picked #2 by what they "
                               "return on other inputs; see below what it does on them.")


def test_unittest_cases_and_raises_blocks_give_rows_too(tmp_path):
    # A person who writes a TestCase, or checks an error under pytest.raises, shows calls as much as an assert does.
    unittest_tests = ("import unittest\n\nclass TestAdd(unittest.TestCase):\n    def test_small(self):\n"
                      "        self.assertEqual(add(1, 2), 3)\n        with self.assertRaises(TypeError):\n"
                      "            add('a', 1)\n")
    assert [p.call for p in probe_calls(unittest_tests, "add") if p.kind == "original"] == [
        "add(1, 2)", "add('a', 1)"]
    raises_tests = "import pytest\n\ndef test_add():\n    with pytest.raises(TypeError):\n        add(None, 1)\n"
    assert [p.call for p in probe_calls(raises_tests, "add")][0] == "add(None, 1)"
    solver, events = solved(tmp_path, [RIGHT], tests=unittest_tests)
    table = answer_behaviour(solver.state_at(events[-1].thread_id))
    assert len(table.rows) >= 3 and ("add(0, 2)", "returns 2") in [(r.call, r.words()) for r in table.rows]
