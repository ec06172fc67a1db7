"""Questions a solve puts when candidates that pass thin tests disagree: which input is asked, how an answer becomes a
test in the person's style, and the loop around them (doubt batch, dropping candidates, the limit, never twice), run
through the real graph on scripted answers. Logic only: the model is a script, the sandbox is real."""

from __future__ import annotations

import pytest

from agent import BadInput
from agent.loop.probes import Probe
from agent.loop.questions import Option, Question, Reply, answered, pick_question

P = [Probe("f(1)", "original"), Probe("f(2)", "mutated"), Probe("f(3)", "mutated"), Probe("f(-1)", "outside")]


def test_the_input_asked_is_the_one_that_splits_the_passing_candidates_most_evenly():
    behaviours = {1: ["= 1", "~= 2", "~= 3", "?= 1"], 2: ["= 1", "~= 2", "~= 4", "?= 1"],
                  3: ["= 1", "~= 2", "~= 3", "?= 1"], 4: ["= 1", "~= 5", "~= 4", "?= 1"]}
    question = pick_question(P, behaviours)
    # f(2) splits them 3-1, f(3) 2-2: the even split says more whichever way the person answers.
    assert question.call == "f(3)" and not question.outside
    assert question.options == (Option("= 3", (1, 3)), Option("= 4", (2, 4)))
    assert [o.words() for o in question.options] == ["returns 3", "returns 4"]
    # Three ways beat two: f(2) split 2-1-1 has the larger entropy.
    behaviours[3] = ["= 1", "~= 7", "~= 3", "?= 1"]
    assert pick_question(P, behaviours).call == "f(2)"


def test_an_input_outside_the_contract_is_asked_only_when_nothing_inside_it_disagrees():
    inside_3_1 = {1: ["= 1", "~= 2", "~= 3", "?= 1"], 2: ["= 1", "~= 2", "~= 3", "?= 0"],
                  3: ["= 1", "~= 2", "~= 3", "?= 1"], 4: ["= 1", "~= 2", "~= 4", "?= 0"]}
    assert pick_question(P, inside_3_1).call == "f(3)"  # though f(-1) splits them 2-2
    agree_inside = {n: b[:2] + ["~= 3", b[3]] for n, b in inside_3_1.items()}
    question = pick_question(P, agree_inside)
    assert question.call == "f(-1)" and question.outside and "may rule it out" in question.words()
    assert "rule it out" not in pick_question(P, inside_3_1).words()


def test_no_question_where_the_candidates_agree_or_on_a_visible_or_asked_input():
    same = {1: ["= 1", "~= 2", "~= 3", "?= 1"], 2: ["= 1", "~= 2", "~= 3", "?= 1"]}
    assert pick_question(P, same) is None
    # The visible call's own input (original) is never asked, even were outcomes to differ there.
    assert pick_question(P, {1: ["= 1", "~= 2", "~= 3", "?= 1"], 2: ["= 9", "~= 2", "~= 3", "?= 1"]}) is None
    differ = {1: ["= 1", "~= 2", "~= 3", "?= 1"], 2: ["= 1", "~= 5", "~= 4", "?= 1"]}
    assert pick_question(P, differ).call == "f(2)"
    assert pick_question(P, differ, {"f(2)"}).call == "f(3)"
    assert pick_question(P, differ, {"f(2)", "f(3)"}) is None


def test_only_outcomes_that_can_be_a_test_are_choices():
    probes = [Probe("f(2)", "mutated")]
    # A value cut short by the sandbox, a name (inf) and a run that stopped cannot be written as a test.
    unwritable = {1: ["~= [1, 2... [40 more chars]"], 2: ["~= inf"], 3: ["~! timeout"], 4: ["~= 5"]}
    assert pick_question(probes, unwritable) is None
    question = pick_question(probes, {1: ["~= 5"], 2: ["~! ValueError"], 3: ["~! timeout"]})
    assert [o.words() for o in question.options] == ["returns 5", "raises ValueError"]


ASSERTS = "assert f(1) == 1\n"
PYTEST = "def test_one():\n    assert f(1) == 1\n"
UNITTEST = ("import unittest\n\nclass T(unittest.TestCase):\n    def test_one(self):\n"
            "        self.assertEqual(f(1), 1)\n")
QUESTION = Question("f(2)", False, (Option("= 4", (1, 3)), Option("! ValueError", (2,)), Option("= [1, 2]", (4,))))


@pytest.mark.parametrize(("tests", "reply", "written"), [
    (ASSERTS, Reply(choice=0), "assert f(2) == 4"),
    (PYTEST, Reply(choice=0), "def test_f_2():\n    assert f(2) == 4"),
    (UNITTEST, Reply(choice=0), "    def test_f_2(self):\n        self.assertEqual(f(2), 4)"),
    (ASSERTS, Reply(choice=1), "try:\n    f(2)\nexcept ValueError:"),
    (PYTEST, Reply(choice=1), "with pytest.raises(ValueError):\n        f(2)"),
    (UNITTEST, Reply(choice=1), "with self.assertRaises(ValueError):\n            f(2)"),
    (ASSERTS, Reply.typed("'two'"), "assert f(2) == 'two'"),
])
def test_an_answer_is_a_test_in_the_persons_own_style(tests, reply, written):
    new_tests, asked = answered(tests, QUESTION, reply)
    assert all(line in new_tests.splitlines() for line in tests.splitlines()) and written in new_tests
    assert asked.added.test.strip() in new_tests and asked.added.call == "f(2)"
    assert asked.added.answered == "returns 4"  # what most of the answers gave there, which the person corrected


def test_an_answer_keeps_the_candidates_that_agree_and_drops_the_others():
    _, picked = answered(ASSERTS, QUESTION, Reply(choice=0))
    assert (picked.kept, picked.dropped) == ((1, 3), (2, 4))
    # A typed result equal to a choice's value, spaced otherwise, is that choice; a raise typed names its type.
    _, typed = answered(ASSERTS, QUESTION, Reply.typed("[1,2]"))
    assert (typed.kept, typed.dropped) == ((4,), (1, 2, 3)) and typed.added.expected == "returns [1,2]"
    _, raised = answered(ASSERTS, QUESTION, Reply.typed("raises ValueError"))
    assert raised.reply == Reply(raises="ValueError") and raised.kept == (2,)
    _, other = answered(ASSERTS, QUESTION, Reply.typed("7"))
    assert (other.kept, other.dropped) == ((), (1, 2, 3, 4))
    tests, skipped = answered(ASSERTS, QUESTION, Reply())
    assert tests == ASSERTS and skipped.added is None and skipped.reply.skipped


@pytest.mark.parametrize(("reply", "message"), [
    (Reply(choice=3), "choose one of 1 to 3"), (Reply.typed("two"), "is a name, not a value"),
    (Reply.typed("[1,"), "not a Python expression"), (Reply.typed("raises 3"), "the exception's type"),
])
def test_an_answer_that_cannot_be_a_test_is_refused_saying_what_to_fix(reply, message):
    with pytest.raises(BadInput, match=message):
        answered(ASSERTS, QUESTION, reply)


def test_a_question_and_its_answer_read_back_as_stored():
    _, asked = answered(PYTEST, QUESTION, Reply(choice=1))
    from agent.loop.questions import Asked

    assert Asked.from_dict(asked.to_dict()) == asked and Question.from_dict(QUESTION.to_dict()) == QUESTION
