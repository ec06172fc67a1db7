"""Tests for agent.loop.constant_values: the argument values a test builds from literals with a few pure builtins,
read as values, and everything else refused without running it."""

from __future__ import annotations

import ast
import datetime

import pytest

from agent.loop.constant_values import MAX_ITEMS, constant


def _read(source: str) -> tuple[bool, object]:
    return constant(ast.parse(source, mode="eval").body)


@pytest.mark.parametrize(("source", "value"), [
    ("list(range(1, 6))", [1, 2, 3, 4, 5]),
    ("list(range(10, 0, -3))", [10, 7, 4, 1]),
    ("tuple(range(3))", (0, 1, 2)),
    ("'ab' * 3", "ababab"),
    ("3 * [0]", [0, 0, 0]),
    ("[1, 2] + [3]", [1, 2, 3]),
    ("'a' + 'b'", "ab"),
    ("sorted({3, 1, 2})", [1, 2, 3]),
    ("list('abc')", ["a", "b", "c"]),
    ("[list(range(2)), [5]]", [[0, 1], [5]]),
    ("{'a': list(range(2)), 'b': 'x' * 2}", {"a": [0, 1], "b": "xx"}),
    ("(1, 'x' * 2)", (1, "xx")),
    ("str(12)", "12"),
    ("2 * 3 + 1", 7),
    ("-5", -5),
    ("{'k': 1}", {"k": 1}),
])
def test_literals_and_values_built_from_them_are_read(source, value):
    assert _read(source) == (True, value)


@pytest.mark.parametrize("source", [
    "range(3)",  # a range's repr is a call again: no value a probe writes
    f"list(range({MAX_ITEMS + 1}))",
    f"'a' * {MAX_ITEMS + 1}",
    "[0] * 10 ** 9",
    "2 ** 100000",
    "open('secret.txt')",
    "__import__('os').system('true')",
    "list(x)",
    "(lambda: 1)()",
    "str([1])",
    "sorted([1, 'a'])",
    "{[1]: 2}",
    "list(range(3), 1)",
    "sorted([3, 1], reverse=True)",
    "'a'.upper()",
    "[*range(3)]",
    "'a' - 'b'",
])
def test_anything_else_is_refused_without_running_it(source):
    assert _read(source) == (False, None)


@pytest.mark.parametrize(("source", "value"), [
    ("date(2024, 3, 4)", datetime.date(2024, 3, 4)),
    ("datetime.date(2024, 3, 4)", datetime.date(2024, 3, 4)),
    ("datetime(2024, 1, 1, 9, 30)", datetime.datetime(2024, 1, 1, 9, 30)),
    ("datetime.datetime(2024, 1, 1, hour=9)", datetime.datetime(2024, 1, 1, 9)),
    ("time(23, 59)", datetime.time(23, 59)),
    ("timedelta(days=2, hours=-1)", datetime.timedelta(days=1, hours=23)),
    ("[date(2024, 1, 1), date(2024, 1, 2)]", [datetime.date(2024, 1, 1), datetime.date(2024, 1, 2)]),
])
def test_the_calendars_values_built_from_whole_numbers_are_read(source, value):
    assert _read(source) == (True, value)
    assert _read(repr(value)) == (True, value)  # how a probe writes it back


@pytest.mark.parametrize("source", [
    "date(2024, 2, 30)",  # no such day
    "date(year, 1, 1)",
    "date(2024, 1, True)",
    "date(10 ** 5, 1, 1)",
    "datetime.now()",
    "datetime.datetime.now()",
    "pendulum.date(2024, 1, 1)",
    "datetime(2024, 1, 1, tzinfo=None)",
    "date(*parts)",
])
def test_other_calendar_calls_are_not_read(source):
    assert _read(source) == (False, None)


def test_tests_name_the_calendar_as_they_import_it():
    from agent.loop.constant_values import calendar_spellings

    def spelled(tests: str, source: str) -> tuple[bool, object]:
        return constant(ast.parse(source, mode="eval").body, calendar_spellings(ast.parse(tests)))

    day = datetime.date(2024, 1, 1)
    assert spelled("from datetime import date as d\n", "d(2024, 1, 1)") == (True, day)
    assert spelled("import datetime as dt\n", "dt.date(2024, 1, 1)") == (True, day)
    assert spelled("", "date(2024, 1, 1)") == (True, day)  # the code's name, which the tests share
    assert spelled("from time import time\n", "time(1)") == (False, None)
    assert spelled("def date(y, m, d):\n    return y\n", "date(2024, 1, 1)") == (False, None)
    assert spelled("from datetime import datetime\n", "datetime.date(2024, 1, 1)") == (False, None)  # a method
    assert _read("time()") == (False, None)  # no argument: time.time's, more often
