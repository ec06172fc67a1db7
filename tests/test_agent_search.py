"""Search strategies with a scripted model: fresh samples, the hybrid order, budgets, and the chooser's rule."""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass, field, replace

import pytest

from agent import BadInput, NodeFinished, RunFinished, Search, Solver
from agent.config import (
    SEARCH_VARIABLES,
    describe_search,
    load_search,
    search_dict,
    stored_search,
)
from agent.loop.candidates import candidates
from agent.loop.choice import answers_by_budget, choose
from agent.loop.probes import Probe, behaviour, probe_calls, signature, visible_calls, within_contract
from fakes import SamplingScriptedModel

TASK = "Write a function absolute(x) that returns the absolute value of x."
TESTS = "assert absolute(3) == 3\n"
WRONG = "```python\ndef absolute(x):\n    return -x\n```"
RIGHT = "```python\ndef absolute(x):\n    return abs(x)\n```"
# Passes the visible test but not the idea: negative inputs stay negative.
LUCKY = "```python\ndef absolute(x):\n    return x\n```"


def solve(tmp_path, answers, **search):
    model = SamplingScriptedModel(answers=answers)
    solver = Solver(model, tmp_path / "s.sqlite", search=Search(**search))
    events = list(solver.start(TASK, TESTS))
    assert isinstance(events[-1], RunFinished)
    return solver, events, model


def test_sample_strategy_draws_fresh_samples_of_the_first_prompt_with_their_own_seeds(tmp_path):
    solver, events, model = solve(tmp_path, [WRONG, WRONG, RIGHT], strategy="sample", budget=4,
                                  samples_per_round=2, sample_temperature=0.9)
    final = events[-1]
    assert final.status == "passed" and final.iterations == 3
    drawn = solver.candidates(final.thread_id)
    assert [c.kind for c in drawn] == ["first", "sample", "sample"]
    # Samples are asked exactly what the first answer was asked, warmer and each with a seed of its own.
    assert model.log[1]["messages"] == model.log[0]["messages"] == model.log[2]["messages"]
    assert [c["temperature"] for c in model.log] == [0.0, 0.9, 0.9]
    assert len({c["seed"] for c in model.log[1:]}) == 2
    # One coder step drew both samples (its update holds only what it adds); the executor judged both.
    coder_steps = [e for e in events if isinstance(e, NodeFinished) and e.node == "coder"]
    assert len(coder_steps) == 2 and [c.number for c in candidates(coder_steps[1].update)] == [2, 3]
    picked = solver.chosen(final.thread_id)
    assert picked.number == 3 and "only candidate that passes" in picked.reason
    assert solver.state_at(final.thread_id)["code"].strip().endswith("return abs(x)")



def test_rounds_after_the_first_are_drawn_at_the_later_round_temperature(tmp_path):
    solver, events, model = solve(tmp_path, [WRONG] * 4 + [RIGHT], strategy="sample", budget=5, samples_per_round=2,
                                  sample_temperature=0.8, later_round_temperature=1.1)
    assert events[-1].status == "passed"
    assert [c["temperature"] for c in model.log] == [0.0, 0.8, 0.8, 1.1, 1.1]
    assert [c.temperature for c in solver.candidates(events[-1].thread_id)[1:]] == [0.8, 0.8, 1.1, 1.1]
    # A solve stored before the setting existed kept every round as warm as the first.
    assert Search(later_round_temperature=None).round_temperature(3) == 0.8

def test_hybrid_repairs_once_then_samples(tmp_path):
    solver, events, model = solve(tmp_path, [WRONG, WRONG, WRONG, WRONG], strategy="hybrid", budget=4,
                                  samples_per_round=2)
    final = events[-1]
    assert final.status == "gave_up" and final.iterations == 4
    assert [c.kind for c in solver.candidates(final.thread_id)] == ["first", "repair", "sample", "sample"]
    assert "failed" in model.log[1]["messages"][-1].content  # the repair reads the failure report
    assert [e.node for e in events if isinstance(e, NodeFinished)][-1] == "chooser"


def test_repair_strategy_never_samples(tmp_path):
    solver, events, _ = solve(tmp_path, [WRONG] * 5, strategy="repair", budget=3)
    assert [c.kind for c in solver.candidates(events[-1].thread_id)] == ["first", "repair", "repair"]


def test_the_token_budget_stops_the_search(tmp_path):
    # Each scripted answer counts no tokens, so a budget of 1 token is never spent: the candidate cap rules.
    solver, events, _ = solve(tmp_path, [WRONG] * 5, strategy="sample", budget=5, token_budget=1)
    assert events[-1].iterations == 5


@pytest.mark.parametrize("search, message", [
    ({"strategy": "guess"}, "strategy must be one of repair, sample, hybrid"),
    ({"budget": 0}, "1 or more"),
    ({"samples_per_round": 0}, "samples per round"),
    ({"prompt_version": "v9"}, "prompt version"),
])
def test_bad_search_settings_are_refused_with_a_clear_message(tmp_path, search, message):
    solver = Solver(SamplingScriptedModel(answers=[RIGHT]), tmp_path / "s.sqlite", search=Search(**search))
    with pytest.raises(BadInput, match=message):
        solver.start(TASK, TESTS)


def test_the_chooser_takes_the_largest_group_that_behaves_alike(tmp_path):
    # Two passing candidates return abs(x); one passing candidate returns x: on the mutated input -3 they differ.
    answers = [WRONG, LUCKY, RIGHT, RIGHT]
    solver, events, _ = solve(tmp_path, answers, strategy="sample", budget=4, samples_per_round=3)
    final = events[-1]
    picked = solver.chosen(final.thread_id)
    # The example's 3 implies no negative input, so on the probes inside that all three agree; the negative
    # input, weighed last, splits them and the larger group wins.
    assert picked.number == 3 and picked.agreeing == 3 and picked.eligible == [2, 3, 4]
    assert "3 of them return the same values on the probe inputs the examples imply" in picked.reason
    assert "2 agree on every probe" in picked.reason
    assert solver.state_at(final.thread_id)["code"].strip().endswith("return abs(x)")


def test_answers_by_budget_apply_the_same_rule_to_every_prefix(tmp_path):
    solver, events, _ = solve(tmp_path, [WRONG, LUCKY, RIGHT, RIGHT], strategy="sample", budget=4,
                              samples_per_round=3)
    drawn = solver.candidates(events[-1].thread_id)
    # k=0: the failing first answer; k=1: the lucky one (the only passer); k>=2: the agreeing pair's first.
    assert answers_by_budget(drawn) == [0, 1, 1, 2]
    assert choose(drawn).index == 2


def test_probe_calls_keep_the_visible_calls_and_add_mutated_inputs():
    calls = [p.call for p in probe_calls("assert f([1, 2], 'ab') == 3\nassert f([], '') == 0\n", "f")]
    assert calls[:2] == ["f([1, 2], 'ab')", "f([], '')"]
    assert "f([2, 1], 'ab')" in calls and "f([1, 2], 'ba')" in calls
    assert len(calls) == len(set(calls)) <= 16
    # A check(candidate) calls the function by that name.
    assert probe_calls("def check(candidate):\n    assert candidate(2) == 4\n", "sq")[0].call == "sq(2)"
    assert probe_calls("assert callable(f)\n", "f") == []


def test_probes_read_the_result_as_the_visible_check_does():
    # Found on MBPP: `assert set(f(a)) == set(b)` ignores order, but the probes read the bare list, so the solve asked
    # about an order the tests ignore and its answer's test rejected right answers (4 of 71 tasks).
    tests = ("assert set(common([1, 2], [2, 1])) == {1, 2}\nassert round(area(2.5), 2) == 19.63\n"
             "assert sorted(words('b a'), reverse=True) == ['b', 'a']\nassert sorted(f(1), key=len) == []\n")
    calls = [p.call for p in probe_calls(tests, None)]
    assert calls[:4] == ["set(common([1, 2], [2, 1]))", "round(area(2.5), 2)", "sorted(words('b a'), reverse=True)",
                         "f(1)"]  # a key function is not a literal: what the check does with the result is unknown
    assert "set(common([2, 1], [2, 1]))" in calls and "round(area(3.0), 2)" in calls
    assert visible_calls(tests, None) == set(calls[:4])
    # One input read both ways is probed once (the 16 probes would otherwise hold each mutation twice).
    both = [p.call for p in probe_calls("assert f(1) == [2, 1]\nassert set(f(1)) == {1, 2}\n", "f")]
    assert both[:2] == ["f(1)", "set(f(1))"] and "f(2)" in both and "set(f(2))" not in both
    # A bare assert (or assertTrue) reads only the result's truth: a match object and True are one answer to it.
    truth = "assert check('annie')\nassert not check('bob')\nassert check('x') == True\n"
    assert [p.call for p in probe_calls(truth, "check")][:3] == ["bool(check('annie'))", "bool(check('bob'))",
                                                                 "check('x')"]
    in_order = "def common(a, b):\n    return [x for x in a if x in b]\n"
    reversed_ = "def common(a, b):\n    return [x for x in b if x in a]\n"
    probes = probe_calls("assert set(common([1, 2], [2, 1])) == {1, 2}\n", "common")
    assert behaviour(in_order, probes, "common") == behaviour(reversed_, probes, "common")


def test_behaviour_records_values_and_exceptions_in_the_sandbox_marked_by_the_probes_kind():
    code = "def f(x):\n    if x < 0:\n        raise ValueError('negative')\n    return x * 2\n"
    outcomes = behaviour(code, [Probe("f(2)", "original"), Probe("f(3)", "mutated"), Probe("f(-1)", "outside")], "f")
    assert outcomes == ["= 4", "~= 6", "?! ValueError"]
    assert signature(outcomes) == signature(list(outcomes)) != signature(["= 4", "~= 6", "?= -2"])


def test_mutated_inputs_outside_what_the_examples_show_are_marked_outside():
    kinds = {p.call: p.kind for p in probe_calls("assert solve(1000) == '1'\nassert solve(150) == '110'\n", "solve")}
    assert kinds["solve(1000)"] == kinds["solve(150)"] == "original"
    assert kinds["solve(1001)"] == kinds["solve(0)"] == "mutated"
    assert kinds["solve(-1000)"] == "outside"  # every example is non-negative
    kinds = {p.call: p.kind for p in probe_calls("assert f([3, 1], (1, 2)) == 1\nassert f([-2], (0, 5)) == 0\n", "f")}
    assert kinds["f([], (1, 2))"] == "outside"  # every example's list holds something
    assert kinds["f([3, 1], (1,))"] == "outside"  # a tuple keeps its length
    assert kinds["f([1, 3], (1, 2))"] == kinds["f([3, 1], (2, 1))"] == "mutated"
    kinds = {p.call: p.kind for p in probe_calls("assert g(-1) == 1\nassert g(2) == 2\n", "g")}
    assert kinds["g(-2)"] == "mutated"  # an example is negative: signs are free
    assert within_contract(-3, [1, -1]) and not within_contract(-3, [1, 2]) and not within_contract(1.5, [1])


# HumanEval/84's shape: two right answers that differ only on a negative N, which its contract rules out.
SUM_TASK = "Given a positive integer N, return the total sum of its digits in binary."
SUM_TESTS = "assert solve(1000) == '1'\nassert solve(150) == '110'\nassert solve(147) == '1100'\n"
BIN = "```python\ndef solve(N):\n    return bin(N)[2:]\n```"
LOOP = ("```python\ndef solve(N):\n    total = 0\n    while N > 0:\n        total += N % 10\n        N //= 10\n"
        "    return bin(total)[2:]\n```")
DIGITS = "```python\ndef solve(N):\n    return bin(sum(int(d) for d in str(abs(N))))[2:]\n```"
RAISES = ("```python\ndef solve(N):\n    if N < 100:\n        raise ValueError(N)\n"
          "    return bin(sum(map(int, str(N))))[2:]\n```")


def _solve_sum(tmp_path, answers):
    model = SamplingScriptedModel(answers=answers)
    solver = Solver(model, tmp_path / "s.sqlite", search=Search(strategy="sample", budget=len(answers),
                                                                  samples_per_round=len(answers) - 1))
    final = list(solver.start(SUM_TASK, SUM_TESTS))[-1]
    return solver, final


def test_right_candidates_that_differ_only_outside_the_examples_contract_agree(tmp_path):
    solver, final = _solve_sum(tmp_path, [BIN, LOOP, DIGITS])
    picked = solver.chosen(final.thread_id)
    assert picked.number == 2 and picked.agreeing == 2 and picked.eligible == [2, 3]
    assert "2 of them return the same values on the probe inputs the examples imply" in picked.reason
    assert "outside what the examples show" in picked.reason and "1 agree on every probe" in picked.reason


def test_a_candidate_that_raises_on_a_mutated_input_still_agrees_with_one_that_returns(tmp_path):
    # RAISES rejects N < 100 (the mutated input 0) but returns what LOOP returns everywhere else.
    solver, final = _solve_sum(tmp_path, [BIN, RAISES, LOOP])
    assert solver.chosen(final.thread_id).agreeing == 2


def test_raising_on_a_visible_call_is_a_real_difference():
    from agent.loop.candidates import candidates as typed
    from agent.loop.choice import agree

    a, b = typed({"attempts": [{"behaviour": ["= 1", "~= 2"], "signature": "x"},
                               {"behaviour": ["! ValueError", "~= 2"], "signature": "y"}]})
    assert not agree(a, b) and not agree(a, b, strict=True)
    c, d = typed({"attempts": [{"behaviour": ["= 1", "~! ValueError", "?= 3"], "signature": "x"},
                               {"behaviour": ["= 1", "~= 2", "?= 4"], "signature": "y"}]})
    assert agree(c, d) and not agree(c, d, strict=True)
    # Older solves stored signatures only: equal ones agree.
    e, f = typed({"attempts": [{"signature": "s1"}, {"signature": "s1"}]})
    assert agree(e, f) and agree(e, f, strict=True)


def test_ties_inside_the_contract_go_to_the_largest_group_that_agrees_exactly():
    # MBPP 558's shape: four candidates agree on the inputs the examples imply; on negative inputs two return the
    # same values, one returns others, and one raises. The exact pair wins, not the earliest candidate.
    from agent.loop.candidates import candidates as typed

    ok = {"status": "passed", "tests": [{"name": "t", "passed": True}]}
    drawn = typed({"attempts": [
        {"iteration": 1, "report": ok, "behaviour": ["= 1", "~= 0", "?= 3"], "signature": "a"},
        {"iteration": 2, "report": ok, "behaviour": ["= 1", "~= 0", "?! ValueError"], "signature": "b"},
        {"iteration": 3, "report": ok, "behaviour": ["= 1", "~= 0", "?= 7"], "signature": "c"},
        {"iteration": 4, "report": ok, "behaviour": ["= 1", "~= 0", "?= 7"], "signature": "c"}]})
    picked = choose(drawn)
    assert (picked.index, picked.agreeing) == (2, 4) and "2 agree on every probe" in picked.reason


# --- the one search setting: read from the environment, stored whole, read back, described -----------------------


@pytest.fixture
def clean_search_env(monkeypatch):
    for variable in SEARCH_VARIABLES.values():
        monkeypatch.delenv(variable, raising=False)
    return monkeypatch


def test_each_search_field_is_read_from_its_own_variable(clean_search_env):
    assert load_search() == Search()
    wanted = Search(budget=3, strategy="hybrid", samples_per_round=2, sample_temperature=0.5, token_budget=0,
                    prompt_version="v3")
    for name, variable in SEARCH_VARIABLES.items():
        clean_search_env.setenv(variable, str(getattr(wanted, name)))
    assert load_search() == wanted
    clean_search_env.setenv("BUDGET", " ")  # blank reads as unset
    assert load_search().budget == Search().budget


def test_stored_search_reads_every_shape_a_search_was_stored_in():
    search = Search(budget=5, strategy="hybrid", samples_per_round=2, sample_temperature=0.6, token_budget=900,
                    prompt_version="v4")
    # Whole: a state's dict, a bench row's JSON text; keys it does not know (a field since removed) are left out.
    assert stored_search({"search": search_dict(search)}) == search
    assert stored_search({"search": json.dumps({**search_dict(search), "gone": 1})}) == search
    # A field the stored search lacks is the base's; an explicit None (later rounds as warm as the first) stays.
    base = Search(token_budget=123)
    older = {k: v for k, v in search_dict(search).items() if k != "token_budget"}
    assert stored_search({"search": older}, base) == replace(search, token_budget=123)
    one_temperature = {**search_dict(search), "later_round_temperature": None}
    assert stored_search({"search": one_temperature}).later_round_temperature is None
    # Nothing stored (a state typed into LangGraph Studio): the base, whole.
    assert stored_search({"task": "t", "search": None}, base) == base


def test_describe_search_says_the_whole_search_in_one_form():
    assert describe_search(Search()) == ("sample search, budget 9 candidates (rounds of 4 at T=0.8, later ones at "
                                         "1.1), 3000 tokens, prompt v5")
    assert describe_search(Search(later_round_temperature=None, doubt="never")) == (
        "sample search, budget 9 candidates (rounds of 4 at T=0.8), 3000 tokens, prompt v5")
    assert describe_search(Search(strategy="repair", budget=4, token_budget=0, doubt="never")) == (
        "repair search, budget 4 candidates, no token limit, prompt v5")
    assert describe_search(Search(strategy="hybrid", samples_per_round=2, later_round_temperature=0.8,
                                  doubt="always", doubt_samples=2, thin_tests=1, max_questions=5)) == (
        "hybrid search, budget 9 candidates (one repair, then rounds of 2 at T=0.8), 3000 tokens, doubt: 2 more and 8 "
        "inputs from the task's words after a pass on at most 1 calls, prompt v5")
    assert describe_search(Search(doubt="always", proposed_inputs=0)).endswith(
        "doubt: 4 more after a pass on at most 3 calls, prompt v5")
    assert describe_search(Search(budget=1, prompt_version="v3")) == "one shot, prompt v3"


def test_a_new_search_field_is_described_without_words_of_its_own():
    @dataclass(frozen=True)
    class Wider(Search):
        second_opinion: str = field(default="off", metadata={"env": "SECOND_OPINION"})

    assert describe_search(Wider(budget=1)) == "one shot, prompt v5, second opinion off"
    assert asdict(Wider())["second_opinion"] == "off"


def test_a_solve_stores_its_search_whole_and_a_fork_past_its_budget_raises_it(tmp_path):
    search = Search(budget=2, strategy="repair", token_budget=500)
    other_wrong = WRONG.replace("-x", "0 - x")  # a repair that repeats its code would be drawn again
    solver, events, _ = solve(tmp_path, [WRONG, other_wrong, RIGHT], **asdict(search))
    thread = events[-1].thread_id
    assert events[-1].status == "gave_up" and solver.state_at(thread)["search"] == search_dict(search)
    assert solver.search_of(thread) == search
    end = solver.steps(thread)[-1]
    forked = list(solver.fork(thread, end.checkpoint_id, feedback="return abs(x)"))[-1]
    assert forked.status == "passed" and solver.search_of(thread) == replace(search, budget=3)
