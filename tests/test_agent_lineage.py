"""A solve run again with tests a person added from the rows of an earlier answer: the test written, and the lineage
kept with the new solve (agent.solves.lineage, SolveStore's lineage column, Solver.lineage_of / started_again)."""

from __future__ import annotations

import sqlite3

from agent import Search, Solver, SolveStore
from agent.solves.answer_behaviour import BehaviourRow
from agent.solves.lineage import AddedTest, Lineage, kept_in, lineage_from, with_test_from_row
from fakes import SamplingScriptedModel

TASK = "Write a function add(a, b) that returns the sum of a and b."
TESTS = "assert add(1, 2) == 3\n"
RIGHT = "```python\ndef add(a, b):\n    return a + b\n```"
ROW = BehaviourRow("add(0, 2)", "mutated", "= 1")


def test_a_row_made_a_test_grows_the_pending_lineage_of_that_answer():
    tests, lineage = with_test_from_row(None, "earlier", 1, TESTS, ROW, returns="2")
    assert tests == TESTS + "assert add(0, 2) == 2\n"
    added = AddedTest("add(0, 2)", "returns 1", "returns 2", "assert add(0, 2) == 2")
    assert lineage == Lineage("earlier", 1, (added,))
    raising = BehaviourRow("add(-1, 2)", "outside", "= 1")
    tests, grown = with_test_from_row(lineage, "earlier", 1, tests, raising, raises=" ValueError ")
    assert [a.expected for a in grown.added] == ["returns 2", "raises ValueError"] and "except ValueError:" in tests
    # Tests added after another answer start a lineage of their own.
    _, other = with_test_from_row(grown, "later", 2, tests, ROW, returns="2")
    assert (other.from_solve, other.after_answer, len(other.added)) == ("later", 2, 1)


def test_only_the_added_tests_still_in_the_box_are_kept():
    _, lineage = with_test_from_row(None, "earlier", 1, TESTS, ROW, returns="2")
    assert kept_in(lineage, TESTS + "assert add(0, 2) == 2\n") == lineage
    assert kept_in(lineage, TESTS) is None  # deleted before running again
    assert lineage_from(lineage.to_dict()) == lineage and lineage_from({}) is None and lineage_from(None) is None
    assert lineage.words() == "1 test added after answer #1"


def test_a_solve_run_again_keeps_its_lineage_and_the_earlier_one_lists_it(tmp_path):
    solver = Solver(SamplingScriptedModel(answers=[RIGHT]), tmp_path / "s.sqlite", search=Search(budget=1))
    first = list(solver.start(TASK, TESTS))[-1].thread_id
    tests, lineage = with_test_from_row(None, first, 1, TESTS, ROW, returns="2")
    again = list(solver.start(TASK, tests, lineage=lineage))[-1].thread_id
    assert solver.lineage_of(again) == lineage and solver.lineage_of(first) is None
    assert solver.started_again(first) == [(again, lineage)] and solver.started_again(again) == []
    listed = {s["thread_id"]: s["lineage"] for s in solver.store.solves()}
    assert listed == {first: {}, again: lineage.to_dict()}
    assert solver.state_at(again)["tests"] == tests  # the new solve ran with the added test


def test_a_solves_table_from_before_lineages_gains_the_column(tmp_path):
    path = tmp_path / "old.sqlite"
    with sqlite3.connect(path) as db:
        db.execute("CREATE TABLE solves (thread_id TEXT PRIMARY KEY, task TEXT, model TEXT, created REAL, "
                   "updated REAL, status TEXT, owner TEXT, heartbeat REAL, inputs TEXT, origin TEXT)")
        db.execute("INSERT INTO solves VALUES ('old', 't', 'm', 1, 1, 'passed', NULL, NULL, NULL, '')")
    store = SolveStore(path)
    assert store.lineage("old") == {} and store.solves()[0]["lineage"] == {}
    assert store.started_again_from("old") == []
