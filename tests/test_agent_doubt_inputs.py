"""The inputs a doubt adds to the probes: edge cases the model proposes from the task's words (read back as calls,
never as results) and the edge inputs of the visible calls (whitespace, case, ties, touching pairs, equal arguments).
Logic only: the model is a script, the sandbox is real."""

from __future__ import annotations

import datetime
import math

import pytest

from agent import BadInput, Search, Solver
from agent.loop.candidates import doubt_of
from agent.loop.edge_inputs import (
    MAX_NAMED_VALUE_CALLS,
    MAX_OPTION_CALLS,
    affix_calls,
    calendar_year_calls,
    doubt_with_tests,
    edge_calls,
    length_calls,
    option_calls,
    part_unit_calls,
    task_options,
    threshold_calls,
)
from agent.loop.probes import (
    MAX_CALL_CHARS,
    MAX_DOUBT_INPUTS,
    MAX_DOUBT_PROBES,
    MAX_PROBES,
    Probe,
    behaviour,
    literal_calls,
    mutations,
    probe_calls,
    probes_key,
    solve_probes,
)
from agent.loop.proposed_inputs import proposal_messages, propose_inputs, read_proposals
from agent.loop.questions import Asked, Reply, answered
from agent.loop.task_words import (
    StatedContract,
    named_separators,
    not_values,
    quoted_values,
    stated_affixes,
    stated_contract,
    stated_thresholds,
)
from agent.solves.answer_behaviour import answer_behaviour
from agent.solves.reference_person import read_table, reference_reply
from fakes import SamplingScriptedModel


def test_proposals_are_read_as_calls_of_the_function_with_literal_arguments_and_never_as_results():
    answer = ("Here are some calls:\n```python\n# empty\nf('')\nassert f('a\\tb') == 'wrong'\nprint(f('A', 2))\n"
              "g(1)\nf(x)\nf('')\nf(key=1)\nf('unclosed\n```\nf('after the block')")
    assert read_proposals(answer, "f", 6) == ["f('')", "f('a\\tb')", "f('A', 2)", "f(key=1)"]
    assert read_proposals("f(1, *xs)\nf(**kw)\nf(1, strict=True)", "f", 6) == ["f(1, strict=True)"]
    assert read_proposals("f(1)\nf(2)\nf(3)", "f", 2) == ["f(1)", "f(2)"]  # no fence: every line is read
    assert read_proposals("def f(n):\n    return n\n", "f", 6) == []


def test_the_model_is_asked_with_the_task_and_visible_tests_only_after_one_worked_example():
    sent = proposal_messages("Write f(s) that trims s.", "assert f(' a ') == 'a'", "f", 6)
    assert [m["role"] for m in sent] == ["system", "user", "assistant", "user"]
    asked = sent[-1]["content"]
    assert asked.startswith("Write f(s) that trims s.") and "assert f(' a ') == 'a'" in asked
    assert "6 more calls of `f`" in sent[-1]["content"] and "initials(" in sent[2]["content"]


class _Batched(SamplingScriptedModel):
    """A provider that decodes a batch with a pre-filled answer (as the embedded model does): records each batch."""

    supports_prefill: bool = True
    max_tokens: int | None = None
    batches: list = []

    def sample_many(self, messages, n, *, temperature, seed, stop=None):
        self.batches.append({"begun": messages[-1].content, "n": n, "temperature": temperature, "seed": seed,
                             "stop": stop, "cap": self.max_tokens})
        answers = ["f('')\nf('a\\tb')\nf(3)\n", "f('a b')\nf('A  B')\nf('')\n", "f('x y z')\n"]
        return [(text, {}, {}) for text in answers][:n]


def test_a_batching_provider_draws_a_few_answers_begun_with_a_visible_call_and_pools_their_calls_in_turn():
    model = _Batched(answers=["unused"])
    calls, seconds = propose_inputs(model, "Write f(s).", "assert f('a b') == 'ab'", "f", 5, seed=7)
    # In turn: each answer's first call, then each one's second...; the visible call itself is no proposal.
    assert calls == ["f('')", "f('A  B')", "f('x y z')", "f('a\\tb')", "f(3)"] and seconds >= 0
    [batch] = model.batches
    assert batch["begun"] == "```python\nf('a b')\n" and batch["stop"] == ["```"] and batch["n"] == 3
    assert batch["seed"] == 7 and 0 < batch["temperature"] <= 1 and batch["cap"] == 100


def test_edge_inputs_reach_whitespace_case_ties_touching_pairs_and_equal_arguments():
    # Title of 'a b' is its swapcase: once. Words without a mark get a comma after the first word, the first word in
    # quotes and a dash alone after it.
    assert edge_calls("assert f('a b') == 'x'", "f") == [
        "f('a\\tb')", "f('a  b')", "f(' a b ')", "f('A B')", "f('a, b')", 'f(\'"a" b\')', "f('a - b')", "f('a b\\n')",
        "f('á b')", "f('a b 2')"]
    assert edge_calls("assert g(['x', 'y', 'x'], 2, 5) == 1", "g") == [
        # First a whole number below the list's length made that length (one less is the 2 already there)
        "g(['x', 'y', 'x'], 3, 5)",
        "g(['X', 'y', 'x'], 2, 5)", "g(['', 'x', 'y', 'x'], 2, 5)", "g([' x ', 'y', 'x'], 2, 5)",
        "g(['x', 'x', 'x'], 2, 5)", "g(['x', 'y'], 2, 5)",
        "g(['x', 'Y', 'x'], 2, 5)",  # the texts ordered apart from case as by it, until the last is capitalised
        "g(['x', 'y', 'x'], 2, 2)"]
    # Two text arguments made equal, as two ints are: where a distance, a span or a comparison is zero.
    assert edge_calls("assert minutes('09:00', '17:30') == 510", "minutes")[-1] == "minutes('09:00', '09:00')"
    assert edge_calls("assert merge([(1, 3), (5, 8)]) == []", "merge") == [
        "merge([(1, 3), (1, 3)])", "merge([(1, 3), (3, 8)])"]
    # A list of records: the first one's first text padded and in capitals (names read apart from their writing).
    assert edge_calls("assert totals([{'who': 'ann', 'n': 2}, {'who': 'bob', 'n': 1}]) == {}", "totals")[:2] == [
        "totals([{'who': ' ann ', 'n': 2}, {'who': 'bob', 'n': 1}])",
        "totals([{'who': 'ANN', 'n': 2}, {'who': 'bob', 'n': 1}])"]
    assert edge_calls("assert f(3) == 6", "f") == [] and edge_calls("assert f('') == ''", "f") == []


def test_text_gets_spaces_around_its_punctuation_and_lines_a_blank_line_and_the_separators_the_task_names():
    # Spaced and repeated marks, spaced line breaks, a blank line and a line without the mark.
    assert edge_calls("assert parse('a=1\\nb=2') == {}", "parse")[-6:] == [
        "parse('a = 1\\nb=2')", "parse('a=1\\nb=2=')", "parse('a=1 \\n b=2')", "parse('a=1\\n\\nb=2')",
        "parse('a=1\\nb=2\\na 1')", "parse('a=01\\nb=2')"]
    # A trailing line break (a pattern's $ matches before it), and a field without its value: a name alone.
    assert edge_calls("assert valid('#a1b2c3') is True", "valid")[-2:] == [
        "valid('#a1b2c3\\n')", "valid('#g1b2c3')"]
    assert edge_calls("assert query('a=1&b=2') == {}", "query")[-2:] == ["query('a=1&b=2\\n')", "query('a&b=2')"]
    task = "Write acronym(phrase): words are separated by spaces and/or hyphens, or a ';'."
    assert named_separators(task) == ["-", ";"] and named_separators("no such words: a-b, 'ab', '_x'") == []
    calls = edge_calls("assert acronym('Portable Network Graphics') == 'PNG'", "acronym", task)
    assert calls[7:9] == ["acronym('Portable-Network Graphics')", "acronym('Portable;Network Graphics')"]
    # A separator the example holds already is no edge of it.
    assert edge_calls("assert f('a-b c') == 1", "f", task)[6] == "f('a-b;c')"


def test_a_date_in_text_gets_february_29_of_a_leap_and_a_common_year_and_a_time_the_days_turning_hours():
    calls = edge_calls("assert days_left('2023-12-30') == 1", "days_left")
    assert calls[1:4] == ["days_left('2023-02-29')", "days_left('2024-02-29')", "days_left('2023-12-31')"]
    assert edge_calls("assert to_12h('09:30') == '9:30 AM'", "to_12h")[1:4] == [
        "to_12h('00:30')", "to_12h('12:30')", "to_12h('23:59')"]
    # Written with a half of the day: twelve o'clock of both halves.
    assert edge_calls("assert to_24h('7:45 pm') == '19:45'", "to_24h")[5:7] == [
        "to_24h('12:45 pm')", "to_24h('12:45 am')"]
    assert not any("23:59" in c for c in edge_calls("assert f('10:15:30') == 1", "f"))


def test_a_number_in_text_loses_its_leading_zero_or_gains_one_and_a_decimal_keeps_its_digits():
    assert edge_calls("assert valid('2024-03-15') is True", "valid")[-2] == "valid('2024-3-15')"
    assert edge_calls("assert ipv4('192.168.1.1') is True", "ipv4")[-2] == "ipv4('192.168.01.1')"
    # A date or an address is no text of words: no letter outside ASCII, no number after it, no digit repeated.
    calls = edge_calls("assert valid('2024-03-15') is True", "valid")
    assert not any(c in call for call in calls for c in ("é", "15 2", "2224"))
    assert not any("0" in call for call in edge_calls("assert size('3.5 kg') == 3500", "size"))


def test_parameters_with_defaults_are_left_out_of_a_call_that_passes_them_and_their_edges_follow():
    task = "Write `clamp(value, low=None, high=None)`: a bound given as None means no limit."
    assert stated_contract(task, "clamp").optional_from == 1
    calls = edge_calls("assert clamp(15, 0, 10) == 10", "clamp", task)
    assert calls[:2] == ["clamp(15, 0)", "clamp(15)"]
    rounding = edge_calls("assert r(3.14159, 2) == 3.14", "r", "Write r(x, digits=0) that rounds halves up.")
    assert rounding[0] == "r(3.14159)" and "r(2.5)" in rounding
    # Read beside the visible call that passes more, inside the contract; without a default, no such call is probed.
    probes = {p.call: p.kind for p in probe_calls("assert clamp(15, 0, 10) == 10", "clamp", calls,
                                                  stated_contract(task, "clamp"))}
    assert probes["clamp(15)"] == probes["clamp(15, 0)"] == "mutated"
    assert "clamp(15)" not in {p.call for p in probe_calls("assert clamp(15, 0, 10) == 10", "clamp", calls)}
    # A later one passed alone by keyword, the earlier left to its default: code that reads high only beside low.
    assert "clamp(15, high=10)" in calls and "clamp(15, low=0)" not in calls
    assert probes["clamp(15, high=10)"] == "mutated"
    assert not [c for c in edge_calls("assert f(1, 2) == 3", "f", "Write f(a, b=0).") if "=" in c]


def test_a_doubts_edges_grow_by_those_of_a_test_an_answer_added_after_the_ones_it_had():
    task = "Write invert(d): each value mapped to the sorted list of the keys that have it."
    before = "assert invert({'a': 1, 'b': 2}) == {1: ['a'], 2: ['b']}\n"
    doubt = {"numbers": [2, 3], "proposed": ["invert({})"], "edges": edge_calls(before, "invert", task)}
    after = before + "assert invert({'a': 1, 'b': 2, 'c': 1}) == {1: ['a', 'c'], 2: ['b']}\n"
    grown = doubt_with_tests(doubt, after, "invert", task)
    assert grown["edges"][:len(doubt["edges"])] == doubt["edges"] and grown["numbers"] == [2, 3]
    # The added call's keys in reverse order: where an answer that keeps their order and one that sorts differ.
    assert "invert({'c': 1, 'b': 2, 'a': 1})" in grown["edges"][len(doubt["edges"]):]
    assert doubt_with_tests(None, after, "invert", task) is None


def test_a_float_gets_the_halves_near_it_where_rounding_differs():
    # And a tenth above a non-negative one, which binary floats hold only nearly (0.35 * 3 is 1.0499999999999998).
    assert edge_calls("assert r(2.7, 0) == 3.0", "r") == ["r(2.5, 0)", "r(-2.5, 0)", "r(1.5, 0)", "r(2.8, 0)"]
    assert edge_calls("assert fine(3, 0.25) == 0.75", "fine")[-1] == "fine(3, 0.35)"
    # Neither a half already there (0.5 of 0.4) nor a whole number (1.0 of 0.9), nor one binary holds exactly.
    assert edge_calls("assert f(0.4) == 0", "f")[-1] == "f(0.6)" and edge_calls("assert f(0.9) == 0", "f")[-1] == (
        "f(1.1)")
    assert edge_calls("assert f(0.15) == 0", "f")[-1] == "f(0.35)"  # 0.25 is exact in binary
    assert edge_calls("assert r(-1.2) == -1.0", "r") == ["r(-1.5)", "r(1.5)", "r(-0.5)"]


def test_the_tasks_words_let_in_the_empty_and_negative_inputs_it_speaks_of_and_bound_a_named_parameter():
    task = "Write to_base(n, base) that writes n in the given base from 2 to 36. A negative n gets a minus sign."
    stated = stated_contract(task, "to_base")
    assert stated == StatedContract(empty=False, negative=True, bounds={1: (2, 36)})
    assert stated_contract("n is non-negative; 0 <= k <= 9 where f(n, k); empty lists give 0", "f") == StatedContract(
        empty=True, negative=False, bounds={1: (0, 9)})
    assert stated_contract("Numbers from 1 to 5, say.", "f") == StatedContract()  # no parameter named before them
    tests = "assert to_base(10, 2) == '1010'"
    plain = {p.call: p.kind for p in probe_calls(tests, "to_base")}
    worded = {p.call: p.kind for p in probe_calls(tests, "to_base", (), stated)}
    assert plain["to_base(-10, 2)"] == "outside" and worded["to_base(-10, 2)"] == "mutated"
    assert plain["to_base(10, 1)"] == plain["to_base(10, 6)"] == "mutated"
    assert worded["to_base(10, 1)"] == worded["to_base(10, 0)"] == "outside" and worded["to_base(10, 6)"] == "mutated"
    # The examples overrule a bound they break: the words were misread.
    assert {p.call: p.kind for p in probe_calls("assert to_base(10, 40) == 'A'", "to_base", (), stated)}[
        "to_base(10, 41)"] == "mutated"
    merge = "assert merge([[1, 3]]) == [[1, 3]]"
    assert {p.call: p.kind for p in probe_calls(merge, "merge")}["merge([])"] == "outside"
    assert {p.call: p.kind for p in probe_calls(merge, "merge", (), StatedContract(empty=True))}["merge([])"] == (
        "mutated")


def test_the_tasks_words_give_least_lengths_and_lower_bounds_and_non_empty_lets_no_empty_input_in():
    closest = ("def closest(numbers: List[float]) -> Tuple[float, float]:\n    From a supplied list of numbers (of "
               "length at least two) select the two closest")
    assert stated_contract(closest, "closest") == StatedContract(least_lengths={0: 2})
    # The only parameter when none is named; "len(p) > 1" is a length of two; a count of vowels bounds nothing.
    assert stated_contract("Write f(words). There are at least 3 words.", "f").least_lengths == {0: 3}
    assert stated_contract("f(a, b): len(b) > 1", "f").least_lengths == {1: 2}
    assert stated_contract("f(a, b): words with at least 3 vowels, at least 2 of them", "f") == StatedContract()
    bounds = stated_contract("Write f(n, k, x) for a positive integer n; k >= 0 and x > 0.5; size is at least 9.", "f")
    assert bounds.bounds == {0: (math.nextafter(0, math.inf), math.inf), 1: (0, math.inf)}
    # A condition is no bound; "non-empty" lets no empty input in.
    assert stated_contract("f(x): True if x is positive, for a non-empty list, never empty", "f") == (
        StatedContract())
    kinds = {p.call: p.kind for p in probe_calls("assert closest([1.0, 2.5]) == (1.0, 2.5)", "closest", (),
                                                  stated_contract(closest, "closest"))}
    assert kinds["closest([2.5, 1.0])"] == kinds["closest([1.0, 2.5, 1.0])"] == "mutated"
    assert kinds["closest([])"] == "outside"
    positive = {p.call: p.kind for p in probe_calls("assert f(3, 0, 1.0) == 1", "f", (), bounds)}
    assert positive["f(0, 0, 1.0)"] == "outside" and positive["f(4, 0, 1.0)"] == "mutated"
    assert positive["f(3, 0, 0.0)"] == "mutated"  # "x > 0.5" is read as no bound: x stays unbound
    assert kinds["closest([1.0])"] == "outside"
    # An example that breaks the stated length overrules it.
    overruled = probe_calls("assert closest([1.0, 2.0]) == (1.0, 2.0)\nassert closest([7.0]) == ()", "closest", (),
                            stated_contract(closest, "closest"))
    assert {p.call: p.kind for p in overruled}["closest([1.0])"] == "mutated"


def test_a_list_of_numbers_gets_negatives_asked_only_where_the_task_speaks_of_them_and_a_nested_level_left_empty():
    tests = "assert buckets([1, 5, 12], 10) == {0: 2, 10: 1}"
    calls = edge_calls(tests, "buckets")
    assert calls[:2] == ["buckets([-1, 5, 12], 10)", "buckets([-1, -5, -12], 10)"]
    plain = {p.call: p.kind for p in probe_calls(tests, "buckets", calls)}
    worded = {p.call: p.kind for p in probe_calls(tests, "buckets", calls, stated_contract(
        "buckets(values, width): negative values go in the bucket below", "buckets"))}
    assert plain["buckets([-1, 5, 12], 10)"] == "outside" and worded["buckets([-1, 5, 12], 10)"] == "mutated"
    # An example list that holds a negative number lets them in; zeros and bools are no numbers to negate.
    assert {p.call: p.kind for p in probe_calls("assert f([0, -2, 3]) == 1", "f", ["f([0, -2, -3])"])}[
        "f([0, -2, -3])"] == "mutated"
    assert edge_calls("assert f([0, 0]) == 1", "f") == ["f([0])"]
    assert not any("-" in call for call in edge_calls("assert f([True, 2]) == 1", "f"))
    assert edge_calls("assert flat({'a': {'b': 1}, 'c': 2}) == {}", "flat")[3:5] == [
        "flat({'a': {}, 'c': 2})", "flat({'c': 2, 'a': {'b': 1}})"]  # and the keys in another order


def test_text_gets_a_repeated_letter_a_letter_outside_ascii_a_number_and_a_named_separator_inside_one_word():
    # A repeated letter of a code: where counting colours differs.
    assert edge_calls("assert score('RGBY', 'RGBY') == (4, 0)", "score")[4] == "score('RRBY', 'RGBY')"
    assert edge_calls("assert shift('abc', 1) == 'bcd'", "shift")[6:9] == [
        "shift('aac', 1)", "shift('ábc', 1)", "shift('abc 2', 1)"]  # digits and letters beyond A to Z stay
    task = "Write is_isogram(word): hyphens and spaces may appear more than once."
    assert edge_calls("assert is_isogram('lumberjacks') is True", "is_isogram", task)[-2:] == [
        "is_isogram('lumbe-rjacks')", "is_isogram('-lumberjacks-')"]
    # A word that holds the separator, or words with spaces, get none inside and around.
    assert not any("-x-" in c or "-pre" in c for c in edge_calls("assert f('x-ray', 'a b') == 1", "f", task))


def test_hexadecimal_text_gets_a_letter_past_f():
    assert edge_calls("assert is_mac('00:1A:2B:3C:4D:5E') is True", "is_mac")[-1] == "is_mac('00:1G:2B:3C:4D:5E')"
    assert edge_calls("assert f('#1a2b3c') == 1", "f")[-1] == "f('#1g2b3c')"
    # After 0x or #, letters alone are digits; without, a word of a to f ('cafe') or a short text ('Dec 5', 'e4') is
    # words, and any other letter ('Room 4B') makes the text no number.
    assert edge_calls("assert f('0xFF') == 255", "f")[-1] == "f('0xGF')"
    for value in ("cafe", "Room 4B", "2023-01-31", "12", "a=1;b=2", "Dec 5", "add 1", "e4", "3e5"):
        assert not any("g" in call.lower().replace("f(", "") for call in edge_calls(f"assert f('{value}') == 1", "f"))
    # A long run of digits that fails at its end is read at once: with the mark between groups optional, this one
    # took hours (time that doubles with each digit), past the suite's timeout.
    assert not any("g" in call for call in edge_calls(
        "assert not is_sha1('da39a3ee5e6b4b0d3255bfef95601890afd80709Z')", "is_sha1"))


def test_text_with_brackets_gets_one_closed_by_another_kind_and_one_closed_before_it_opens():
    assert edge_calls("assert is_balanced('f(a[0], {b: 2})') is True", "is_balanced")[-2:] == [
        "is_balanced('f(a[0], {b: 2}]')", "is_balanced('f)a[0], {b: 2}(')"]
    assert edge_calls("assert f('[1]') == 1", "f")[-2:] == ["f('[1)')", "f(']1[')"]
    # A bracket only closed, or only opened, is no pair to break.
    for value in (":)", "(a", ")("):
        assert not any("]" in call for call in edge_calls(f"assert f('{value}') == 1", "f")), value


def test_a_list_of_full_names_gets_one_padded_its_words_spaced_and_two_that_tie_on_the_last_word():
    calls = edge_calls("assert by_surname(['Alan Turing', 'Ada Lovelace', 'Grace Hopper']) == []", "by_surname")
    assert calls[3:6] == ["by_surname([' Alan Turing ', 'Ada Lovelace', 'Grace Hopper'])",
                          "by_surname(['Alan  Turing', 'Ada Lovelace', 'Grace Hopper'])",
                          # 'ada Turing' comes first read apart from case, 'Alan Turing' read by case or by place
                          "by_surname(['Alan Turing', 'ada Turing', 'Grace Hopper'])"]
    # The earlier first word is the one put in lower case, whichever text holds it.
    assert "f(['Bob Smith', 'ann Smith'])" in edge_calls("assert f(['Bob Smith', 'Ann Jones']) == []", "f")
    # No tie where a text is one word, the last words are already one, or both readings order the two alike: the
    # first words are one, the later one is in lower case already, or it begins beyond A to Z.
    for names, tie in ((["Cher", "Ada Lovelace"], "'ada Cher'"), (["Ann Smith", "Bob Smith"], "'ann Smith'"),
                       (["Ann Smith", "ANN Jones"], "'ann Jones'"), (["ann Smith", "bob Jones"], "'ann Jones'"),
                       (["Zoe Smith", "Émile Jones"], "'zoe Jones'")):
        assert not any(tie in call for call in edge_calls(f"assert f({names!r}) == []", "f")), names


def test_texts_ordered_alike_by_case_and_apart_from_it_get_one_that_orders_them_otherwise():
    # Every record's dept in capitals ('IT' < 'Sales' either way): the first in lower case sorts last by case.
    staff = "[{'name': 'Bo', 'dept': 'Sales'}, {'name': 'Al', 'dept': 'IT'}]"
    calls = edge_calls(f"assert order({staff}) == []", "order")
    assert "order([{'name': 'Bo', 'dept': 'Sales'}, {'name': 'al', 'dept': 'IT'}])" in calls
    assert "order([{'name': 'Bo', 'dept': 'Sales'}, {'name': 'Al', 'dept': 'it'}])" in calls
    # Texts in lower case already: the last one capitalised sorts first by case.
    assert "f(['ann', 'Cy', 'bob'])" in edge_calls("assert f(['ann', 'cy', 'bob']) == []", "f")
    # None where the example already orders otherwise by case.
    assert "f(['ann', 'bob', 'Cy'])" not in edge_calls("assert f(['Ann', 'bob', 'Cy']) == []", "f")
    # Of records with many text fields, the first two that show it.
    many = "[{'a': 'P', 'b': 'Q', 'c': 'R', 'd': 'S'}, {'a': 'T', 'b': 'U', 'c': 'V', 'd': 'W'}]"
    calls = edge_calls(f"assert f({many}) == []", "f")
    assert [field for field in "abcd" if any(f"'{field}': 'p'" in c or f"'{field}': 'q'" in c or
                                             f"'{field}': 'r'" in c or f"'{field}': 's'" in c for c in calls)] == [
        "a", "b"]


def test_a_whole_number_below_the_length_of_a_text_or_list_it_is_passed_with_is_made_that_length_and_one_less():
    task = "Write a function `final_score(scores, drop=1)` that drops the `drop` lowest scores."
    calls = edge_calls("assert final_score([70, 85, 90, 60]) == 81.7", "final_score", task)
    # An option left to its whole-number default is passed by keyword; by place and by keyword otherwise. Before
    # the arguments' own edges: a doubt probes only the first of its inputs.
    at = calls.index("final_score([70, 85, 90, 60], drop=4)")
    assert calls[at + 1] == "final_score([70, 85, 90, 60], drop=3)" and at < calls.index(
        "final_score([-70, 85, 90, 60])")
    assert edge_calls("assert cut('hello world', width=5) == 'hello'", "cut")[:2] == [
        "cut('hello world', width=11)", "cut('hello world', width=10)"]
    # A tuple is sized too; a number the example already keeps at or past the length is no count of it.
    assert edge_calls("assert f(('a', 'b', 'c'), 1) == 0", "f")[:2] == [
        "f(('a', 'b', 'c'), 3)", "f(('a', 'b', 'c'), 2)"]
    assert not any(c.endswith(", 3)") for c in edge_calls("assert f([1, 2, 3], 10) == 0", "f"))
    # Each number in turn, up to the cap; none negative, none a visible call's own.
    tests = "assert f([1, 2, 3], 0, 1) == 0\nassert f([1, 2, 3], 1, 0) == 0"
    assert length_calls(literal_calls(tests, "f"), "f", "", {"f([1, 2, 3], 3, 1)"}) == [
        "f([1, 2, 3], 2, 1)", "f([1, 2, 3], 0, 3)", "f([1, 2, 3], 3, 0)", "f([1, 2, 3], 0, 2)"]
    assert length_calls(literal_calls("assert f('a', 0, -2) == 0\nassert f('', 2) == 0", "f"), "f", "") == [
        "f('a', 1, -2)"]


def test_a_stated_text_result_that_is_a_word_of_the_text_passed_is_marked_there():
    calls = edge_calls("assert longest_word('I love programming in Python') == 'programming'", "longest_word")
    assert calls[:2] == ["longest_word('I love programming, in Python')",
                         "longest_word('I love (programming) in Python')"]
    # By keyword too; the first time the word stands alone, not inside another word.
    assert edge_calls("assert f(text='bobcat cat cat') == 'cat'", "f")[:2] == [
        "f(text='bobcat cat, cat')", "f(text='bobcat (cat) cat')"]
    # Not inside another word, not the whole text, not a result that is no word, not a visible call.
    assert not any("(cat)" in c for c in edge_calls("assert f('concatenate cats') == 'cat'", "f"))
    assert "f('a b,')" not in edge_calls("assert f('a b') == 'b'\nassert f('a b,') == 'b'", "f")
    assert not any("(cat)" in c for c in edge_calls("assert f('cat') == 'cat'", "f"))
    assert not any("(a b)" in c for c in edge_calls("assert f('x a b') == 'a b'", "f"))


def test_a_text_is_made_to_end_and_begin_as_the_task_quotes_and_the_quoted_ending_is_not_passed_alone():
    task = ('Write a function `pluralize(noun, count)`, such as "1 cat" or "3 cats". If the noun ends in "s", "x", '
            '"ch" or "sh", add "es"; if it ends in "y" and the letter before the "y" is a consonant, replace the "y" '
            'with "ies"; in every other case just add "s".')
    assert stated_affixes(task, "pluralize") == {True: ["s", "x", "ch", "sh", "y"], False: []}
    tests = 'assert pluralize("cat", 3) == "3 cats"\nassert pluralize("dog", 1) == "1 dog"'
    calls = edge_calls(tests, "pluralize", task)
    # Each ending added, in turn, before the arguments' own edges; the "y" also over the last letter, as the task
    # states a rule of the letter before it. Endings, and texts to add, are no words to pass alone.
    assert affix_calls(literal_calls(tests, "pluralize"), "pluralize", task) == [
        "pluralize('caty', 3)", "pluralize('cay', 3)", "pluralize('cats', 3)", "pluralize('catx', 3)",
        "pluralize('catch', 3)", "pluralize('catsh', 3)"]
    # The ending with a rule of the letter before it first, both its texts, however many endings the task lists.
    more = task.replace('"x", ', '"x", "z", "o", ')
    assert affix_calls(literal_calls(tests, "pluralize"), "pluralize", more)[:2] == [
        "pluralize('caty', 3)", "pluralize('cay', 3)"]
    assert calls.index("pluralize('cay', 3)") < calls.index("pluralize('CAT', 3)")
    assert not {"pluralize('ch', 3)", "pluralize('s', 3)", "pluralize('es', 3)", "pluralize('ies', 3)"} & set(calls)
    assert "pluralize('1 cat', 3)" in calls
    # At the start for a beginning; no text of one character (a letter looked for), no parameter's name.
    one = 'Files ending with ".txt" are text; names that start with the letter "#" are comments.'
    assert affix_calls(literal_calls("assert kind('notes', 'n') == 'other'", "kind"), "kind", one) == [
        "kind('notes.txt', 'n')", "kind('#notes', 'n')"]
    assert affix_calls(literal_calls("assert f('day') == 1", "f"), "f", 'Words that end in "y".') == ["f('dayy')"]
    assert stated_affixes('Write `starts_with(word, c)`: True if word begins with "c".', "starts_with") == {
        True: [], False: []}
    # An option whose name holds "ending" inside another word is no ending parameter; a visible call is never made.
    sort = 'Write `sort_words(words, descending=False)`. Words that end in "s" come first.'
    assert stated_affixes(sort, "sort_words")[True] == ["s"]
    assert edge_calls("assert f('cat') == 1\nassert f('cats') == 2", "f", 'Words that end in "s".')[0] != "f('cats')"
    assert "f('cats')" not in edge_calls("assert f('cat') == 1\nassert f('cats') == 2", "f", 'Words that end in "s".')
    # A quoted text a verb follows is what happens, not an ending; nor a line break written out, nor a result.
    for words, endings in (('ends in "y", "ies" replaces it', ["y"]), ('ends with "s", "es" is appended', ["s"]),
                           ('ends with "s" and "es" is added', ["s"]),
                           ('if the game ends in a "draw"', []), ('ends with "\\n"', []), ('ends in a "y"', ["y"]),
                           ('Return "yes" if it ends with "!" and "no" otherwise.', ["!"]),
                           ('ends in "y", "ies" should be used', ["y"]),
                           ('It ends with a period; it\'s ending with \'x\' or "z".', ["x", "z"])):
        assert stated_affixes(words)[True] == endings, words
    assert stated_affixes('Lines starting with "#", and "mode" is "strict"')[False] == ["#"]
    # The last of a list the sentence's verb follows is an ending still; what it gets, or swaps in, is no value.
    label = ('Write `count_label(thing, n)`. Nouns that end in "s", "x", "ch" or "sh" get "es" added, nouns that end '
             'in "y" with a consonant before the "y" swap the "y" for "ies".')
    assert stated_affixes(label, "count_label")[True] == ["s", "x", "ch", "sh", "y"]
    assert {"es", "ies"} <= not_values(label, "count_label")
    # A text quoted as a value elsewhere too is still passed alone: the unit "km" of a text that ends with "km".
    unit = '`convert(value, unit)`: unit is "km" or "mi"; the text ends with "km".'
    assert "convert(3, 'km')" in edge_calls("assert convert(3, 'mi') == 4.83", "convert", unit)
    # A parameter that is an ending itself takes the quoted ending as its value; no text is made to end in it.
    cut = edge_calls('assert remove_suffix("played", "ed") == "play"', "remove_suffix",
                     'Write `remove_suffix(word, suffix)`: the suffix "ing" turns "walking" into "walk".')
    assert "remove_suffix('played', 'ing')" in cut and "remove_suffix('playeding', 'ed')" not in cut


def test_a_task_that_decides_a_text_without_letters_gets_every_text_made_empty_marks_or_digits_alone_inside():
    task = ("Write `are_anagrams(a, b)`. Only letters and digits matter. If either string contains no letters or "
            "digits at all, return False.")
    assert stated_contract(task, "are_anagrams") == StatedContract(unlettered=frozenset({"letter", "digit"}))
    assert stated_contract("If it has no letters, digits or underscores, return 0.", "f").unlettered == {
        "letter", "digit", "other"}
    tests = 'assert are_anagrams("listen", "silent") is True'
    # Every text at once (the probes empty one at a time), first among the doubt's inputs, and inside the contract:
    # an empty text, not an empty list.
    assert edge_calls(tests, "are_anagrams", task)[:2] == ["are_anagrams('', '')", "are_anagrams('!?', '!?')"]
    assert "are_anagrams('4 2!', '4 2!')" not in edge_calls(tests, "are_anagrams", task)  # digits count here
    kinds = {p.call: p.kind for p in probe_calls(tests, "are_anagrams", ["are_anagrams('', '')"],
                                                 stated_contract(task, "are_anagrams"))}
    assert kinds["are_anagrams('', '')"] == "mutated"
    lists = "assert first_clean(['a1', 'b']) == 'b'"
    listed = stated_contract("If the list has no words, return None.", "first_clean")
    assert listed.unlettered and {p.call: p.kind for p in probe_calls(lists, "first_clean", [], listed)}[
        "first_clean([])"] == "outside"
    # A separator the call passes is no text to empty: it holds no letter or digit.
    seps = "assert count_words('a,b', ',') == 2"
    said = stated_contract("Write `count_words(text, sep)`. If the text contains no words, return 0.", "count_words")
    assert edge_calls(seps, "count_words", "If the text contains no words, return 0.")[:2] == [
        "count_words('', ',')", "count_words('!?', ',')"]
    assert {p.call: p.kind for p in probe_calls(seps, "count_words", ["count_words('a,b', '')"], said)}[
        "count_words('a,b', '')"] == "outside"
    # Each call made empty and marks alone before the next call.
    two = 'assert are_anagrams("listen", "silent", True) is True\nassert are_anagrams("ab", "ba", False) is True'
    assert edge_calls(two, "are_anagrams", task)[:2] == [
        "are_anagrams('', '', True)", "are_anagrams('!?', '!?', True)"]
    for words in ("An isogram is a word with no letter repeated.", "Given a non-empty text with no digits, return it.",
                  "Return the words that contain no digits.", "A sentence with no words longer than 3 letters is short",
                  "If it has no letters in uppercase, return it.", "The number has no digits repeated.",
                  "If either string contains no letters, return False; s is non-empty.", "Return the letters.",
                  "Split it into words. If a word contains no letters, skip it.", "If each line has no words, drop it"):
        assert not stated_contract(words, "f").unlettered, words
    for words in ("A text with no words gives 0.", "If the string contains no letters, reverse the string.",
                  "When the title has no words, it returns an empty string.",
                  "If the sentence contains no letters at all (including an empty string), return ''.",
                  "If a string contains no letters: return False", "A string containing no letters returns False."):
        assert stated_contract(words, "f").unlettered, words
    assert not any(c.startswith("are_anagrams('!?'") for c in edge_calls(tests, "are_anagrams", "Anagrams."))
    # Where only letters are what it lacks, digits and marks alone too: a run of digits is no word there.
    words = "If the sentence contains no letters at all, return ''."
    assert edge_calls("assert longest_word('I love Python') == 'Python'", "longest_word", words)[:3] == [
        "longest_word('')", "longest_word('!?')", "longest_word('4 2!')"]


def test_an_edge_call_too_long_to_probe_through_the_visible_check_takes_no_place_among_the_doubts_inputs():
    long = "a " * 994  # 1988 characters: its call fits 2000 bare, and not through sorted(...)
    calls = edge_calls(f"assert sorted(f({long!r})) == []", "f", "If the text contains no letters, return [].")
    assert calls and all(len(f"sorted({c})") < MAX_CALL_CHARS for c in calls)
    assert "f('')" in calls


def test_a_result_the_test_states_is_put_into_the_collection_of_texts_the_call_passes():
    assert edge_calls("assert make_username('Ada', 'Lovelace', set()) == 'alovelace'", "make_username")[0] == (
        "make_username('Ada', 'Lovelace', {'alovelace'})")
    unittest_style = ("import unittest\nclass T(unittest.TestCase):\n    def test_a(self):\n"
                      "        self.assertEqual('file1', unique('file', ['file']))\n")
    assert "unique('file', ['file', 'file1'])" in edge_calls(unittest_style, "unique")
    # Not a count or a sum, not a set of several texts (its order changes from one process to the next).
    for tests in ("assert count([1, 2]) == 2", "assert pick({'a', 'b'}) == 'c'", "assert pick(['a'], 'a') == 'a'"):
        name = tests.split()[1].split("(")[0]
        assert not any("'c'" in call or "[1, 2, 2]" in call or "['a', 'a']" in call
                       for call in edge_calls(tests, name)), tests


def test_dict_arguments_get_a_key_left_out_renamed_zeroed_retyped_or_reordered_and_two_dicts_share_a_key():
    assert edge_calls("assert fill({'name': 'Ana', 'n': 2}) == 'x'", "fill") == [
        "fill({'name': 'Ana'})", "fill({'name_other': 'Ana', 'n': 2})", "fill({' NAME ': 'Ana', 'n': 2})",
        "fill({'name': 3, 'n': 2})", "fill({'n': 2, 'name': 'Ana'})", "fill({'name': 'Ana', 'n': 'Ana'})",
        "fill({'n': 'Ana', 'name': 'Ana'})", "fill({'name': 'Ana', 'n': -2})"]
    # A tie in both orders (where it is broken shows), every number below zero, a name typed otherwise.
    assert edge_calls("assert winner({'ann': [3, 4], 'bob': [5, 1]}) == 'ann'", "winner")[-4:] == [
        "winner({'bob': [5, 1], 'ann': [3, 4]})", "winner({'ann': [3, 4], 'bob': [3, 4]})",
        "winner({'bob': [3, 4], 'ann': [3, 4]})", "winner({'ann': [-3, -4], 'bob': [-5, -1]})"]
    assert edge_calls("assert merge({'x': 1}, {'y': 2}) == {}", "merge")[-4:] == [
        "merge({'x': 1}, {'x': 2})", "merge({'x': 1}, {' X ': 2})",
        # at the shared key, a dict over a number and a number over a dict: where a deep merge recurses
        "merge({'x': 1}, {'x': {'x': 2}})", "merge({'x': {'x': 1}}, {'x': 2})"]
    assert "merge({'x': 0}, {'y': 2})" in edge_calls("assert merge({'x': 1}, {'y': 2}) == {}", "merge")
    tests = "assert merge({'x': 1}, {'y': 2}) == {'x': 1, 'y': 2}"
    kinds = {p.call: p.kind for p in probe_calls(tests, "merge", edge_calls(tests, "merge"))}
    # Empty where every example is not, or a value of a type no example's dict holds: maybe ruled out by the task.
    assert kinds["merge({}, {'y': 2})"] == kinds["merge({'x': '1'}, {'y': 2})"] == "outside"
    assert kinds["merge({'x': 1}, {'x': 2})"] == kinds["merge({'x_other': 1}, {'y': 2})"] == "mutated"
    # A negative count where no example dict holds one is outside, unless the task speaks of negative ones.
    assert kinds["merge({'x': -1}, {'y': 2})"] == "outside"
    negative = stated_contract("Counts may be negative.", "merge")
    assert Probe("merge({'x': -1}, {'y': 2})", "mutated") in probe_calls(tests, "merge", edge_calls(tests, "merge"),
                                                                         negative)


def test_the_options_a_tasks_signature_states_are_tried_by_keyword_on_the_visible_and_mutated_inputs():
    task = "Write digit_sum(n, repeat=False) that sums the digits of n, e.g. digit_sum(12) is 3."
    assert task_options(task, "digit_sum") == {"repeat": True}
    assert task_options("def f(a: List[int], *, strict: bool = True, k=2, name=None, s='x') -> int:\n", "f") == {
        "strict": False, "k": 3}
    assert task_options("Call f(1, 2) or f(a) (see f(", "f") == {} and task_options("f(x=(1, 2))", "f") == {}
    # Each of many opened calls is scanned a signature's length at most; the last one closes.
    assert task_options("f(" * 5000 + "a, b=1)", "f") == {"b": 2}
    assert task_options("f(" + "a" * 600 + ", b=1)", "f") == {}
    calls = edge_calls("assert digit_sum(123) == 6", "digit_sum", task)
    # Beside the visible call's own arguments, its mutations inside the contract: 369's digits sum to two digits.
    assert calls == ["digit_sum(123, repeat=True)", "digit_sum(124, repeat=True)", "digit_sum(122, repeat=True)",
                     "digit_sum(0, repeat=True)", "digit_sum(369, repeat=True)"]
    many = option_calls("assert f(12, 'ab') == 1", "f", "f(n, s, a=1, b=2, c=True)")
    assert len(many) == MAX_OPTION_CALLS
    assert many[:4] == ["f(12, 'ab', a=2)", "f(12, 'ab', b=3)", "f(12, 'ab', c=False)", "f(13, 'ab', a=2)"]
    # An option the call passes by place already is not passed again by keyword.
    assert option_calls("assert r(3.14159, 2) == 3.14", "r", "Write r(x, digits=0, up=True)") == [
        "r(3.14159, 2, up=False)", "r(3.64159, 2, up=False)", "r(0.0, 2, up=False)", "r(3.14159, 3, up=False)",
        "r(3.14159, 1, up=False)", "r(3.14159, 0, up=False)", "r(3.14159, 6, up=False)"][:MAX_OPTION_CALLS]
    probes = probe_calls("assert digit_sum(123) == 6", "digit_sum", calls + ["digit_sum(-5, repeat=True)"])
    # Keyword arguments name what the task states; the positional ones alone place the call in the contract.
    assert Probe("digit_sum(369, repeat=True)", "mutated") in probes
    assert Probe("digit_sum(-5, repeat=True)", "outside") in probes


def test_a_visible_call_that_passes_a_keyword_is_probed_with_the_keyword_kept_and_its_value_moved():
    # People write top_words(text, n=2): read as no call at all, such a test was never doubted nor probed.
    tests = "assert top_words('red blue red', n=2) == ['red', 'blue']\n"
    probes = probe_calls(tests, "top_words")
    assert probes[0] == Probe("top_words('red blue red', n=2)", "original")
    assert {"top_words('red blue red', n=1)", "top_words('red blue red', n=0)", "top_words('red blue red', n=6)",
            "top_words('', n=2)", "top_words('RED BLUE RED', n=2)"} <= {p.call for p in probes}
    assert Probe("top_words('red blue red', n=-2)", "outside") in probes
    assert all(p.call.endswith(")") and ", n=" in p.call for p in probes)
    task = "Write `top_words(text, n=3, lower=True)`: the n most common words."
    edges = edge_calls(tests, "top_words", task)
    # An option the call passes by keyword is not passed again; the other is, beside it.
    assert edges[0] == "top_words('red blue red', n=2, lower=False)"
    assert all(e.count("n=") == 1 for e in edges) and "top_words('red\\tblue red', n=2)" in edges


def test_the_texts_a_task_quotes_are_passed_where_the_example_passes_text_and_as_an_option_left_unset():
    words = "Codes: \"SAVE10\" or 'HALF' (it's, don't); unit “mi”; split at \"-\"; see \"f(x)\"."
    assert quoted_values(words, "f") == ["SAVE10", "HALF", "mi"]
    task = "Write `cart_total(items, code=None)`: \"SAVE10\" takes 10% off, \"HALF\" half; codes ignore case."
    tests = "assert cart_total([{'price': 2.0}]) == 2.0\n"
    # An option the call leaves unset, by keyword: each quoted text, and the first typed otherwise.
    assert edge_calls(tests, "cart_total", task)[:3] == [
        "cart_total([{'price': 2.0}], code='SAVE10')", "cart_total([{'price': 2.0}], code='HALF')",
        "cart_total([{'price': 2.0}], code=' save10 ')"]
    # At a text argument of the example, the other values the task names.
    calls = edge_calls("assert convert(5, 'km') == 5000\n", "convert", "convert(x, unit): \"km\", \"m\" or \"mi\"")
    assert calls[:2] == ["convert(5, 'm')", "convert(5, 'mi')"]
    many = " ".join(f'"w{i}"' for i in range(20))
    assert len([c for c in edge_calls("assert f('a') == 1\n", "f", many) if "'w" in c]) == MAX_NAMED_VALUE_CALLS


def test_a_year_the_signature_names_is_made_a_century_year_of_each_kind_and_its_month_february():
    def years(test: str, name: str, task: str) -> list[str]:
        return calendar_year_calls(literal_calls(test, name), name, task)

    task = "Write `days_in_month(year, month)`: the Gregorian rule, where century years leap only by 400."
    assert years("assert days_in_month(2023, 4) == 30\n", "days_in_month", task) == [
        "days_in_month(1900, 2)", "days_in_month(2000, 2)"]
    assert "days_in_month(1900, 2)" in edge_calls("assert days_in_month(2023, 4) == 30\n", "days_in_month", task)
    # A day that is in no February keeps its month; the year still moves (a leap day is before it).
    assert years("assert day_of_year(2023, 4, 30) == 120\n", "day_of_year", "day_of_year(year, month, day)") == [
        "day_of_year(1900, 4, 30)", "day_of_year(2000, 4, 30)"]
    # Parameters the task calls years: both move alike, keeping their order and distance.
    assert years("assert count_leap_years(2000, 2010) == 3\n", "count_leap_years",
                 "Write `count_leap_years(start, end)`: leap years from year `start` to year `end`.") == [
        "count_leap_years(1900, 1910)"]
    assert years("assert age(2023, birth_year=1990) == 33\n", "age", "age(current_year, birth_year)") == [
        "age(1900, birth_year=1867)", "age(2000, birth_year=1967)"]
    # A day passed by keyword, or as text, is no day of every month: the month stays.
    assert years("assert doy(2023, 4, day=30) == 120\n", "doy", "doy(year, month, day)") == [
        "doy(1900, 4, day=30)", "doy(2000, 4, day=30)"]
    assert years("assert doy(2023, 4, '3') == 93\n", "doy", "doy(year, month, day)")[0] == "doy(1900, 4, '3')"
    # Years as a count, a rate a year, a year in words beside a parameter, a year no calendar has, a task that writes
    # no signature: nothing.
    assert years("assert grow(100, 5, 10) == 162.89\n", "grow", "grow(principal, rate, years)") == []
    assert years("assert pay(1000, 0.05, 12) == 85.61\n", "pay", "pay(principal, rate, payments_per_year)") == []
    assert years("assert tree(5, 3) == 8\n", "tree", "Write `tree(a, n)`: each year a tree grows by n metres.") == []
    assert years("assert f(20230) == 1\n", "f", "f(year)") == []
    assert years("assert is_leap(2023) is False\n", "is_leap", "Say whether a year is a leap year.") == []


def test_a_task_that_speaks_of_part_of_a_unit_puts_a_part_above_each_whole_number_inside_the_contract():
    task = ("Write `shipping_cost(weight_kg)`: 5.00 up to 1 kg, and each additional kilogram or part of a kilogram "
            "adds 2.50.")
    tests = "assert shipping_cost(3) == 10.0\n"
    assert stated_contract(task, "shipping_cost").parts
    assert part_unit_calls(literal_calls(tests, "shipping_cost"), "shipping_cost", task) == [
        "shipping_cost(3.2)", "shipping_cost(3.5)"]
    probes = probe_calls(tests, "shipping_cost", ["shipping_cost(3.2)"], stated_contract(task, "shipping_cost"))
    assert Probe("shipping_cost(3.2)", "mutated") in probes  # inside: the task's words say weights have parts
    assert Probe("shipping_cost(3.2)", "outside") in probe_calls(tests, "shipping_cost", ["shipping_cost(3.2)"],
                                                                  StatedContract())
    # Once a question's answer adds shipping_cost(3.2) beside the person's 3, a doubted solve takes whole and part
    # weights alike (the person's table reading reaches shipping_cost(45) again); a solve nobody doubts is as before.
    both = tests + "assert shipping_cost(3.2) == 12.5\n"
    doubted = {p.call: p.kind for p in probe_calls(both, "shipping_cost", (), StatedContract())}
    assert doubted["shipping_cost(4)"] == doubted["shipping_cost(3.7)"] == "mutated"
    assert {p.call: p.kind for p in probe_calls(both, "shipping_cost")}["shipping_cost(4)"] == "outside"
    for words in ("£2 per hour or part thereof", "partial hours count as whole ones", "any fraction of an hour",
                  "each started hour costs 2"):
        assert stated_contract(f"fee(hours): {words}.", "fee").parts == {0}, words
    for words in ("each part of a path", "if any part of a name is empty", "the fraction of a day elapsed after it",
                  "the local part of an email", "a partial match"):
        assert not stated_contract(f"f(n): {words}.", "f").parts, words
    # A parameter the task calls a float takes a part above a whole number too: where a half cent is rounded.
    task = ("Write `tip_amount(bill, percent)`: `bill` is the amount in dollars (int or float) and `percent` a whole "
            "number. Return a float rounded to cents.")
    assert stated_contract(task, "tip_amount").parts == {0}
    assert part_unit_calls(literal_calls("assert tip_amount(100, 15) == 15.0\n", "tip_amount"), "tip_amount",
                           task) == ["tip_amount(100.2, 15)", "tip_amount(100.5, 15)"]
    tip = "assert tip_amount(100, 15) == 15.0\n"
    assert Probe("tip_amount(100.5, 15)", "mutated") in probe_calls(tip, "tip_amount", ["tip_amount(100.5, 15)"],
                                                                     stated_contract(task, "tip_amount"))
    for words, places in (("`n` is never a float", set()), ("`n` is a count. Return a float", set()),
                          ("`n` is a count and `x` a float", {1}), ("`n` and `x` are floats", {0, 1}),
                          ("`n` is an int, and the function returns a float", set()),
                          ("`n` is an integer (floats are not allowed)", set()), ("`n` can't be a float", set()),
                          ("a list of `n` floats", set()), ("`x` is a floating-point number", {1}),
                          ("`n` is a decimal number; `x` a count", {0})):
        assert stated_contract(f"Write `f(n, x)`: {words}.", "f").parts == places, words
    assert stated_contract("def f(n: int, x: float) -> float:", "f").parts == {1}  # annotated
    assert stated_contract("def f(n: Optional[float], x: int | float):", "f").parts == {0, 1}
    assert not stated_contract("def f(n: List[float], x: dict[str, float]):", "f").parts  # a list of them
    # The parameter that measures in the unit, not a count beside it; a few such calls, before the other edges.
    task = "Write `fee(hours, people)`: 2 dollars a person per hour or part of an hour."
    assert stated_contract(task, "fee").parts == {0}
    many = "".join(f"assert fee({n}, 2) == {4 * n}\n" for n in range(1, 5))
    assert part_unit_calls(literal_calls(many, "fee"), "fee", task) == [
        "fee(1.2, 2)", "fee(1.5, 2)", "fee(2.2, 2)", "fee(2.5, 2)"]
    kinds = {p.call: p.kind for p in probe_calls(many, "fee", ["fee(1, 2.5)", "fee(1.5, 2)"],
                                                 stated_contract(task, "fee"))}
    assert kinds["fee(1.5, 2)"] == "mutated" and kinds["fee(1, 2.5)"] == "outside"  # 2.5 people: no part of a unit


def test_a_threshold_the_task_states_is_tried_at_it_and_just_past_it_by_place_keyword_or_option():
    assert stated_thresholds("Write f(n, k, m, a, b): n < 10, k <= 10, m > 1, a >= 0, 0 < b.", "f") == {
        "n": [10, 9], "k": [10, 11], "m": [1, 2], "a": [0, -1], "b": [0, 1]}
    words = "Write `f(n, k)`: raise ValueError if `n` is less than 1; when k is greater than 100, or x exceeds 5."
    assert stated_thresholds(words, "f") == {"n": [1, 0], "k": [100, 101]}  # x is no parameter
    assert stated_thresholds("Write f(x): 0 if x is less than 2.5; a list of length less than 3.", "f") == {}
    task = ("Write `date_range(start, end, step_days=1)`: dates from start to end; raise ValueError if `step_days` "
            "is less than 1.")
    tests = "assert date_range('2024-01-30', '2024-02-01') == ['2024-01-30', '2024-01-31', '2024-02-01']\n"
    # An option the call leaves to its default is passed by keyword; the default's own value is no new input.
    assert threshold_calls(literal_calls(tests, "date_range"), "date_range", task) == [
        "date_range('2024-01-30', '2024-02-01', step_days=0)"]
    assert "date_range('2024-01-30', '2024-02-01', step_days=0)" in edge_calls(tests, "date_range", task)
    both = "Write `f(n, k)`: if n is greater than 100 or k is less than 2, raise ValueError."
    # Each parameter in turn, at most four, none a visible call.
    assert threshold_calls(literal_calls("assert f(5, 3) == 8\nassert f(7, 4) == 11\n", "f"), "f", both) == [
        "f(100, 3)", "f(5, 2)", "f(101, 3)", "f(5, 1)"]
    assert threshold_calls(literal_calls("assert f(100, 3) == 8\n", "f"), "f", both, {"f(100, 3)"})[:2] == [
        "f(101, 3)", "f(100, 2)"]
    # Words that state no rule of a parameter, arithmetic, an option whose default is no whole number, a
    # positional-only one: nothing.
    assert stated_thresholds("Write f(items, count): the items whose count is greater than 1.", "f") == {}
    assert stated_thresholds("Write f(n, k): n - k < 3, 2*k <= 10, k-1 <= n, n < 10**6, if n is less than 1 million.",
                             "f") == {}
    assert threshold_calls(literal_calls("assert pad('a') == 'a'\n", "pad"), "pad",
                           "Write `pad(s, fill=' ')`: raise ValueError if `fill` is greater than 1.") == []
    assert threshold_calls(literal_calls("assert f(3) == 3\n", "f"), "f", "Write `f(x, step=1, /)`: if step < 1.") == []
    assert threshold_calls(literal_calls("assert f(5, k=3) == 8\n", "f"), "f", both)[1::2] == ["f(5, k=2)", "f(5, k=1)"]
    assert threshold_calls(literal_calls("assert f('5', 3) == 8\n", "f"), "f", both) == ["f('5', 2)", "f('5', 1)"]


def test_a_visible_call_of_values_built_from_literals_is_probed_as_their_values():
    tests = "assert paginate(list(range(1, 26)), 2) == list(range(11, 21))\n"
    probes = [p.call for p in probe_calls(tests, "paginate")]
    assert probes[0] == f"paginate({list(range(1, 26))!r}, 2)" and f"paginate({list(range(1, 26))!r}, 3)" in probes
    # A call of anything else is still no example.
    assert probe_calls("assert paginate(load(), 2) == []\n", "paginate") == []


def test_a_pass_on_a_keyword_call_is_doubted_and_asked_about_the_keywords_value(tmp_path):
    # Both pass top([3, 1, 2], n=2); one gives nothing when n exceeds the list, which only a larger n shows.
    everything = "def top(xs, n=3):\n    return sorted(xs, reverse=True)[:n]\n"
    nothing = "def top(xs, n=3):\n    return sorted(xs, reverse=True)[:n] if n <= len(xs) else []\n"
    task = "Write top(xs, n=3): the n largest numbers of xs, largest first; all of them when xs has fewer."
    state = _second_kept_after_first_question(tmp_path, nothing, everything, task,
                                              "assert top([3, 1, 2], n=2) == [3, 2]\n", "top([3, 1, 2], n=6)",
                                              "= [3, 2, 1]")
    assert "assert top([3, 1, 2], n=6) == [3, 2, 1]" in state["tests"]


def test_a_doubts_inputs_come_after_the_visible_calls_marked_by_the_contract_and_beyond_the_mutations_cap():
    tests = "assert f([1, 2], 3) == 4\n"
    plain = probe_calls(tests, "f")
    assert probe_calls(tests, "f", ()) == plain  # nothing added: the probes of every solve not doubted
    added = ["f([5, 5], 0)", "f([], 3)", "f(1)", "g([1], 1)", "f([1, 2], 3)", "f('ab', 3)", "f([9], -1)",
             "f([1], 2.5)", plain[1].call]
    probes = probe_calls(tests, "f", added)
    # Passed over: another number of arguments, another function, the visible call, text where a list is given.
    assert probes[:5] == [plain[0], Probe("f([5, 5], 0)", "mutated"), Probe("f([], 3)", "outside"),
                          Probe("f([9], -1)", "outside"), Probe("f([1], 2.5)", "outside")]
    assert probes[5] == Probe(plain[1].call, "mutated")  # a mutation proposed too is probed once, in the doubt's place
    # Two of the five were mutations already (f([], 3) and plain[1]): each probed once.
    assert len(probes) == len({p.call for p in probes}) == len(plain) + 5 - 2 and len(plain) <= MAX_PROBES
    many = [f"f([{n}], 1)" for n in range(100)]
    assert len(probe_calls(tests, "f", many)) == len(plain) + MAX_DOUBT_INPUTS
    # A doubted solve (one given the task's stated contract) keeps more mutations: here the last of the second
    # argument's, of each call.
    two = "assert avg([1, 2, 3, 4], 2) == [1.5, 2.5, 3.5]\nassert avg([5, 6, 7], 3) == [6.0]\n"
    assert len(probe_calls(two, "avg")) == MAX_PROBES and "avg([1, 2, 3, 4], 6)" not in {
        p.call for p in probe_calls(two, "avg")}
    doubted = probe_calls(two, "avg", (), StatedContract())
    assert MAX_PROBES < len(doubted) <= MAX_DOUBT_PROBES and Probe("avg([1, 2, 3, 4], 6)", "mutated") in doubted


def _doubted(tmp_path, proposal: str, **search):
    # double(3) == 6: every candidate passes; the "n * 2 if n < 50 else n" ones differ from "n * 2" only from 50 up,
    # which no mutation of 3 reaches. The sixth answer is the one asked for inputs.
    bodies = ["n * 2 if n < 50 else n", "n * 2", "n * 2", "n * 2 if n < 50 else n", "n * 2"]
    model = SamplingScriptedModel(answers=[f"```python\ndef double(n):\n    return {b}\n```" for b in bodies]
                                  + [proposal])
    return Solver(model, tmp_path / "solves.sqlite", search=Search(**search)), model


def test_a_proposed_input_reaches_a_disagreement_the_mutations_miss_and_earlier_candidates_are_probed_again(tmp_path):
    solver, model = _doubted(tmp_path, "```python\ndouble(0)\ndouble(100)\n```")
    first = list(solver.start("Write double(n) that returns twice n.", "assert double(3) == 6\n", ask=True))
    thread = first[-1].thread_id
    state = solver.state_at(thread)
    assert state["doubt"]["proposed"] == ["double(0)", "double(100)"] and state["doubt"]["edges"] == []
    assert state["doubt"]["seconds_proposing"] >= 0 and state["doubt"]["proposing_error"] is None
    assert doubt_of(state).inputs_words() == (
        "every candidate is also tried on 2 the model proposed from the task's words (double(0), double(100))")
    assert model.calls == 6 and "Write double(n)" in model.log[-1]["messages"][-1].content
    assert state["doubt"]["proposal_request"] == model.log[-1]["messages"][-1].content  # kept as it was sent
    probes = solve_probes(state)
    assert Probe("double(100)", "mutated") in probes
    # The first answer, judged before the doubt, was probed again on the inputs it added; its verdict stands.
    for candidate in solver.candidates(thread):
        assert len(candidate.behaviour) == len(probes) and candidate.probed == probes_key(probes) and candidate.passed
    question = solver.question(thread)
    assert question.call == "double(100)" and not question.outside
    assert [(o.outcome, o.candidates) for o in question.options] == [("= 200", (2, 3, 5)), ("= 100", (1, 4))]
    events = list(solver.answer(thread, Reply(choice=0)))
    assert events[-1].status == "passed" and solver.chosen(thread).number == 2
    assert "assert double(100) == 200" in solver.state_at(thread)["tests"]


def test_without_proposals_the_same_solve_sees_no_disagreement(tmp_path):
    solver, model = _doubted(tmp_path, "unused", proposed_inputs=0)
    final = list(solver.start("Write double(n) that returns twice n.", "assert double(3) == 6\n", ask=True))[-1]
    assert final.status == "passed" and not final.paused and model.calls == 5
    assert solver.state_at(final.thread_id)["doubt"]["proposed"] == []


class _FailsToPropose(SamplingScriptedModel):
    def _generate(self, messages, stop=None, run_manager=None, **kwargs):
        if "more calls of" in messages[-1].content:
            raise ConnectionError("connection refused")
        return super()._generate(messages, stop, run_manager, **kwargs)


def test_a_model_failure_while_proposing_keeps_the_doubt_batch_and_says_why(tmp_path):
    model = _FailsToPropose(answers=[f"```python\ndef double(n):\n    return {b}\n```"
                                     for b in ("n + 3", "n * 2", "n * 2", "n * 2", "n * 2")])
    solver = Solver(model, tmp_path / "solves.sqlite", search=Search())
    first = list(solver.start("Write double(n) that returns twice n.", "assert double(3) == 6\n", ask=True))
    state = solver.state_at(first[-1].thread_id)
    assert doubt_of(state).numbers == [2, 3, 4, 5] and doubt_of(state).error is None
    assert state["doubt"]["proposed"] == [] and "stopped answering" in state["doubt"]["proposing_error"]
    assert doubt_of(state).inputs_words().startswith("the model proposed no inputs: the model server stopped")
    assert solver.question(first[-1].thread_id).call == "double(4)"  # the mutations still ask


def _first_question(solver: Solver, task: str, tests: str):
    """Start an asking solve: (its thread, the question it puts first)."""
    thread = list(solver.start(task, tests, ask=True))[-1].thread_id
    return thread, solver.question(thread)


def _without_proposals(tmp_path, codes: list[str]) -> tuple[Solver, SamplingScriptedModel]:
    # The candidates are the codes in order; the probes are the tests' calls, their mutations and the edge inputs.
    model = SamplingScriptedModel(answers=[f"```python\n{code}```" for code in codes])
    return Solver(model, tmp_path / "solves.sqlite", search=Search(proposed_inputs=0)), model


def _second_kept_after_first_question(tmp_path, wrong: str, right: str, task: str, tests: str, call: str,
                                      outcome: str) -> dict:
    """Candidates wrong, right, wrong, right, right (no proposals): the solve's first question must be call, inside
    the contract; answered with outcome, the answer must be #2. Returns the solve's state after."""
    solver, _ = _without_proposals(tmp_path, [wrong, right, wrong, right, right])
    thread, question = _first_question(solver, task, tests)
    assert question.call == call and not question.outside
    list(solver.answer(thread, Reply(choice=[o.outcome for o in question.options].index(outcome))))
    assert solver.chosen(thread).number == 2
    return solver.state_at(thread)


def test_an_option_the_tasks_signature_states_is_asked_about_by_keyword_and_the_answer_is_a_keyword_test(tmp_path):
    # Every candidate passes digit_sum(123) == 6; two ignore repeat, which only a sum of two digits or more shows.
    honours = ("def digit_sum(n, repeat=False):\n    t = sum(int(d) for d in str(abs(n)))\n"
               "    while repeat and t >= 10:\n        t = sum(int(d) for d in str(t))\n    return t\n")
    ignores = "def digit_sum(n, repeat=False):\n    return sum(int(d) for d in str(abs(n)))\n"
    solver, _ = _without_proposals(tmp_path, [ignores, honours, honours, ignores, honours])
    task = "Write digit_sum(n, repeat=False): the sum of n's digits; with repeat, summed again to one digit."
    thread, question = _first_question(solver, task, "assert digit_sum(123) == 6\n")
    assert question.call == "digit_sum(369, repeat=True)" and not question.outside
    assert [(o.outcome, o.candidates) for o in question.options] == [("= 9", (2, 3, 5)), ("= 18", (1, 4))]
    events = list(solver.answer(thread, Reply(choice=0)))
    assert events[-1].status == "passed" and solver.chosen(thread).number == 2
    assert "assert digit_sum(369, repeat=True) == 9" in solver.state_at(thread)["tests"]


def test_a_pass_on_dict_arguments_alone_is_doubted_and_asked_about_a_key_both_dicts_hold(tmp_path):
    # Dicts have no mutations of their own: only the doubt's edge inputs can tell these answers apart.
    adds = ("def merge(a, b):\n    out = dict(a)\n    for k, v in b.items():\n        out[k] = out.get(k, 0) + v\n"
            "    return out\n")
    overwrites = "def merge(a, b):\n    return {**a, **b}\n"
    solver, model = _without_proposals(tmp_path, [overwrites, adds, overwrites, adds, adds])
    tests = "assert merge({'x': 1}, {'y': 2}) == {'x': 1, 'y': 2}\n"
    assert probe_calls(tests, "merge")[1:] == []
    thread = list(solver.start("Write merge(a, b): counts of both dicts added.", tests, ask=True))[-1].thread_id
    assert model.calls == 5 and solver.question(thread).call == "merge({'x': 1}, {'x': 2})"
    list(solver.answer(thread, Reply(returns="{'x': 3}")))
    assert solver.chosen(thread).number == 2
    # The answer's test is probed at its edges too, as the person's own call is: its first value made 0.
    state = solver.state_at(thread)
    assert "merge({'x': 0}, {'x': 2})" not in edge_calls(tests, "merge", state["task"])
    assert "merge({'x': 0}, {'x': 2})" in state["doubt"]["edges"]
    assert Probe("merge({'x': 0}, {'x': 2})", "mutated") in solve_probes(state)


def test_a_doubted_solve_whose_task_speaks_of_empty_input_asks_about_it_as_inside_the_contract(tmp_path):
    sums = "def total(xs):\n    return sum(xs)\n"
    indexes = "def total(xs):\n    return xs[0] + sum(xs[1:])\n"
    solver, _ = _without_proposals(tmp_path, [indexes, sums, indexes, sums, sums])
    tests = "assert total([1, 2]) == 3\n"
    thread = list(solver.start("Write total(xs): the sum of xs; an empty list gives 0.", tests,
                               ask=True))[-1].thread_id
    assert Probe("total([])", "outside") in probe_calls(tests, "total")  # what the examples alone imply
    assert Probe("total([])", "mutated") in solve_probes(solver.state_at(thread))
    question = solver.question(thread)
    assert question.call == "total([])" and not question.outside


def test_a_doubted_solve_asks_about_a_threshold_the_task_states_and_the_answer_is_a_raises_test(tmp_path):
    # Both pass tickets(10) == 100; one forgets "at least 5", which no mutation of 10 reaches (0 and 9 agree).
    checks = ("def tickets(n):\n    if n < 5:\n        raise ValueError(n)\n    return 10 * n\n")
    forgets = "def tickets(n):\n    return 10 * n if n > 0 else 0\n"
    task = "Write `tickets(n)`: 10 dollars a ticket; raise ValueError if `n` is less than 5 (a group is 5 or more)."
    state = _second_kept_after_first_question(tmp_path, forgets, checks, task, "assert tickets(10) == 100\n",
                                              "tickets(4)", "! ValueError")
    assert "tickets(4)" in state["tests"] and "ValueError" in state["tests"]


def test_a_doubted_solve_whose_task_charges_part_of_a_unit_asks_about_a_part_inside_the_contract(tmp_path):
    rounds_up = "import math\ndef fee(hours):\n    return 2 * math.ceil(hours)\n"
    per_hour = "def fee(hours):\n    return 2 * hours\n"
    state = _second_kept_after_first_question(tmp_path, per_hour, rounds_up,
                                              "Write `fee(hours)`: 2 dollars an hour or part of an hour.",
                                              "assert fee(3) == 6\n", "fee(3.2)", "= 8")
    assert "assert fee(3.2) == 8" in state["tests"]


def test_a_doubted_solve_reads_a_dict_it_passed_after_the_call_and_asks_when_answers_change_it(tmp_path):
    # Every candidate returns the stock left; two take it off the dict they are given, which the task forbids.
    changes = ("def fulfil(stock, order):\n    for k, v in order.items():\n        stock[k] -= v\n"
               "    return stock\n")
    copies = ("def fulfil(stock, order):\n    left = dict(stock)\n    for k, v in order.items():\n"
              "        left[k] -= v\n    return left\n")
    solver, _ = _without_proposals(tmp_path, [changes, copies, changes, copies, copies])
    task = "Write fulfil(stock, order): the stock left once the order is taken off. Never modify `stock`."
    tests = "assert fulfil({'a': 5, 'b': 2}, {'a': 3}) == {'a': 2, 'b': 2}\n"
    thread = list(solver.start(task, tests, ask=True))[-1].thread_id
    state = solver.state_at(thread)
    probes = solve_probes(state)
    assert Probe("fulfil({'a': 5, 'b': 2}, {'a': 3})", "mutated", 0) in probes
    # Read only in a doubted solve whose task speaks of changing what it is given; a row of the answer's table too.
    assert not [p for p in probe_calls(tests, "fulfil") if p.argument is not None]
    silent = stated_contract("Write fulfil(stock, order): the stock left once the order is taken off.", "fulfil")
    assert not silent.changes and not [p for p in probe_calls(tests, "fulfil", (), silent) if p.argument is not None]
    assert all(stated_contract(words, "f").changes for words in (
        "Never modify the list.", "sorts xs in place", "leaves the dict unchanged", "returns a new list",
        "Note: don't change the given array.", "Return a copy of it."))
    assert not stated_contract("ties keep their index in the original list; change case", "f").changes
    rows = [row.words() for row in answer_behaviour(state).rows if row.call == "fulfil({'a': 5, 'b': 2}, {'a': 3})"]
    assert rows == ["leaves its argument {'a': 5, 'b': 2} as it was", "leaves its argument {'a': 3} as it was"]
    question = solver.question(thread)
    assert (question.call, question.argument) == ("fulfil({'a': 5, 'b': 2}, {'a': 3})", 0)
    assert question.words() == ("Answers that pass your tests disagree on what fulfil({'a': 5, 'b': 2}, {'a': 3}) "
                                "does to its argument {'a': 5, 'b': 2}. What should that argument hold after the call?")
    assert [(o.words(), o.candidates) for o in question.options] == [
        ("leaves it as it was", (2, 4, 5)), ("changes it to {'a': 2, 'b': 2}", (1, 3))]
    assert reference_reply(copies, "fulfil", question) == Reply(choice=0)
    events = list(solver.answer(thread, Reply(choice=0)))
    assert events[-1].status == "passed" and solver.chosen(thread).number == 2
    [asked] = solver.asked(thread)
    assert asked.added.test == ("argument = {'a': 5, 'b': 2}\nfulfil(argument, {'a': 3})\n"
                                "assert argument == {'a': 5, 'b': 2}")
    assert asked.added.expected == "leaves its argument {'a': 5, 'b': 2} as it was"
    assert asked.dropped == (1, 3) and Asked.from_dict(asked.to_dict()) == asked
    assert [c.passed for c in solver.candidates(thread)] == [False, True, False, True, True]
    assert asked.question.subject() == "argument {'a': 5, 'b': 2} after fulfil({'a': 5, 'b': 2}, {'a': 3})"
    with pytest.raises(BadInput, match="type the value it should hold, not an exception"):
        answered(tests, question, Reply(raises="ValueError"))
    assert answered(tests, question, Reply(returns="{'a': 5, 'b': 2}"))[1].reply.words(question) == (
        "leaves it as it was")


def test_a_person_corrects_the_row_of_an_argument_every_answer_changes_and_the_loop_draws_one_that_keeps_it(tmp_path):
    changes = ("def fulfil(stock, order):\n    for k, v in order.items():\n        stock[k] -= v\n"
               "    return stock\n")
    copies = "def fulfil(stock, order):\n    return {k: v - order.get(k, 0) for k, v in stock.items()}\n"
    solver, _ = _without_proposals(tmp_path, [changes] * 5 + [copies] * 4)
    task = "Write fulfil(stock, order): the stock left once the order is taken off. Never modify `stock`."
    tests = "assert fulfil({'a': 5, 'b': 2}, {'a': 3}) == {'a': 2, 'b': 2}\n"
    final = list(solver.start(task, tests, ask=True))[-1]
    thread = final.thread_id
    assert final.status == "passed" and solver.asked(thread) == []  # every answer changes it alike: nothing to ask
    call = "fulfil({'a': 5, 'b': 2}, {'a': 3})"
    [row] = [r for r in answer_behaviour(solver.state_at(thread)).rows if r.call == call and r.argument == 0]
    assert read_table(copies, "fulfil", [row]).reply == Reply(returns="{'a': 5, 'b': 2}")
    rest = list(solver.correct(thread, call, Reply(returns="{'a': 5, 'b': 2}"), 0))
    assert rest[-1].status == "passed" and "dict" not in rest[-1].code and "order.get" in rest[-1].code
    [corrected] = solver.asked(thread)
    assert corrected.by == "person" and corrected.question.argument == 0 and corrected.dropped == (1, 2, 3, 4, 5)
    assert corrected.added.answered == "changes its argument {'a': 5, 'b': 2} to {'a': 2, 'b': 2}"
    assert "fulfil(argument, {'a': 3})" in solver.state_at(thread)["tests"]


# --- dates the tests build with the standard library ------------------------------------------------------------

DATE_TESTS = ("import unittest\nfrom datetime import date\n\nclass TestDays(unittest.TestCase):\n"
              "    def test_week(self):\n"
              "        self.assertEqual(business_days(date(2024, 3, 4), date(2024, 3, 11)), 5)\n")
COUNTS_EVERY_START = ("import datetime\ndef business_days(start, end):\n    count = 0\n"
                      "    for _ in range(5):\n        if start + datetime.timedelta(days=1) <= end:\n"
                      "            count += 1\n    return count\n")
RIGHT_DAYS = ("import datetime\ndef business_days(start, end):\n"
              "    return sum((start + datetime.timedelta(days=i)).weekday() < 5 for i in range((end - start).days))\n")


def test_dates_a_test_builds_are_probed_a_day_either_side_and_at_the_calendars_edges():
    (call,) = literal_calls(DATE_TESTS, "business_days")
    assert call.args == [datetime.date(2024, 3, 4), datetime.date(2024, 3, 11)]
    assert mutations(datetime.date(2023, 3, 4)) == [datetime.date(2023, 3, 5), datetime.date(2023, 3, 3),
                                                    datetime.date(2023, 12, 31), datetime.date(2024, 2, 29)]
    assert datetime.datetime(2024, 1, 1, 9, 30) - datetime.timedelta(days=1) in mutations(
        datetime.datetime(2024, 1, 1, 9, 30))
    assert mutations(datetime.date(9999, 12, 31)) == [datetime.date(9999, 12, 30)]  # none past the calendar's end
    # Two dates made one: a span of no days; the later made the earlier's anniversary in its year, and the day before.
    assert edge_calls(DATE_TESTS, "business_days")[:2] == [
        "business_days(datetime.date(2024, 3, 4), datetime.date(2024, 3, 4))",
        "business_days(datetime.date(2024, 3, 4), datetime.date(2024, 3, 3))"]
    birthday = edge_calls("from datetime import date\nassert age_on(date(1990, 5, 15), date(2020, 8, 1)) == 30\n",
                          "age_on")
    assert "age_on(datetime.date(1990, 5, 15), datetime.date(2020, 5, 14))" in birthday


def test_an_answer_that_counts_wrongly_differs_from_a_right_one_on_a_date_probe():
    probes = probe_calls(DATE_TESTS, "business_days", [], None)
    wrong = behaviour(COUNTS_EVERY_START, probes, "business_days")
    right = behaviour(RIGHT_DAYS, probes, "business_days")
    assert wrong[0] == right[0] == "= 5"  # both pass the person's test
    start_later = next(i for i, p in enumerate(probes) if p.call.startswith(
        "business_days(datetime.date(2024, 3, 5)"))
    assert (wrong[start_later], right[start_later]) == ("~= 5", "~= 4")
