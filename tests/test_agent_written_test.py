"""A test written from a row a person marked as wrong: in each style the tests already use, and run in the sandbox as
the person meant it (agent.written_test)."""

from __future__ import annotations

import re

import pytest

from agent import BadInput
from agent.written_test import style_of_tests, write_test
from sandbox import describe_tests, run_tests

# Right on every input but zero, where it returns 1 and should raise; the added tests below catch both.
CODE = "def add(a, b):\n    if a == 0:\n        return 1\n    return a + b\n"
ASSERTS = "assert add(1, 2) == 3\n"
PYTEST = "def test_small():\n    assert add(1, 2) == 3\n"
UNITTEST = ("import unittest\n\n\nclass TestAdd(unittest.TestCase):\n    def test_small(self):\n"
            "        self.assertEqual(add(1, 2), 3)\n\n\nif __name__ == '__main__':\n    unittest.main()\n")
CHECK = "def check(candidate):\n    assert candidate(1, 2) == 3\n"


@pytest.mark.parametrize("tests, style", [(ASSERTS, "asserts"), (PYTEST, "pytest"), (UNITTEST, "unittest"),
                                          (CHECK, "check")])
def test_the_style_is_read_from_the_tests(tests, style):
    assert style_of_tests(tests) == style


def test_plain_asserts_get_a_plain_assert():
    written = write_test(ASSERTS, "add(0, 2)", returns="2")
    assert written.style == "asserts" and written.test == "assert add(0, 2) == 2"
    assert written.tests == ASSERTS + "assert add(0, 2) == 2\n"
    assert describe_tests(written.tests) == "2 asserts, each reported on its own"
    report = run_tests(CODE, written.tests, entry_point="add")
    assert [t.passed for t in report.tests] == [True, False] and report.tests[1].left == "1"


def test_an_exception_among_plain_asserts_is_one_statement_that_runs_an_assert_either_way():
    written = write_test(ASSERTS, "add(0, 2)", raises="ValueError")
    assert written.test.splitlines() == ["try:", "    add(0, 2)", "except ValueError:", "    assert True", "else:",
                                         "    assert False, 'add(0, 2) should raise ValueError'"]
    assert describe_tests(written.tests) == "2 asserts, each reported on its own"
    report = run_tests(CODE, written.tests, entry_point="add")
    assert report.tests[1].message == "add(0, 2) should raise ValueError"
    raising = "def add(a, b):\n    if a == 0:\n        raise ValueError('zero')\n    return a + b\n"
    assert run_tests(raising, written.tests, entry_point="add").passed  # an assert ran, so the test counts


def test_pytest_style_tests_get_a_test_function_and_pytest_raises_with_its_import():
    written = write_test(PYTEST, "add(0, 2)", returns="2")
    assert written.tests == PYTEST + "\n\ndef test_add_0_2():\n    assert add(0, 2) == 2\n"
    raising = write_test(PYTEST, "add(0, -2)", raises="ValueError")
    assert raising.tests.startswith("import pytest\n\n\ndef test_small():")
    assert raising.test == "def test_add_0_minus_2_raises():\n    with pytest.raises(ValueError):\n        add(0, -2)"
    assert describe_tests(raising.tests) == "2 pytest-style test functions"
    report = run_tests(CODE, raising.tests, entry_point="add")
    assert [t.name for t in report.tests] == ["test_small", "test_add_0_minus_2_raises"]
    assert [t.passed for t in report.tests] == [True, False] and "DID NOT RAISE" in report.tests[1].message
    # pytest imported already (under its own name or another): no second import.
    aliased = "import pytest as pt\n\n" + PYTEST
    assert write_test(aliased, "add(0, 2)", raises="ValueError").tests.count("import pytest") == 1
    assert "with pt.raises(ValueError):" in write_test(aliased, "add(0, 2)", raises="ValueError").test


def test_unittest_tests_get_a_method_in_their_testcase_before_the_main_guard():
    written = write_test(UNITTEST, "add(0, 2)", returns="2")
    assert written.test == "    def test_add_0_2(self):\n        self.assertEqual(add(0, 2), 2)"
    assert written.tests.index("def test_add_0_2") < written.tests.index("if __name__")
    raising = write_test(UNITTEST, "add(0, 2)", raises="ValueError")
    assert raising.test == ("    def test_add_0_2_raises(self):\n        with self.assertRaises(ValueError):\n"
                            "            add(0, 2)")
    assert describe_tests(raising.tests) == "2 unittest test methods"
    report = run_tests(CODE, raising.tests, entry_point="add")
    assert {t.name: t.passed for t in report.tests} == {"TestAdd::test_small": True,
                                                        "TestAdd::test_add_0_2_raises": False}


def test_a_check_gets_one_more_assert_on_its_candidate():
    written = write_test(CHECK, "add(0, 2)", returns="2")
    assert written.tests == CHECK + "    assert candidate(0, 2) == 2\n"
    assert not run_tests(CODE, written.tests, entry_point="add").passed
    raising = write_test(CHECK, "add(0, 2)", raises="ValueError")
    assert "    except ValueError:\n        assert True\n" in raising.tests
    assert not run_tests(CODE, raising.tests, entry_point="add").passed


def test_a_call_read_through_the_checks_observer_keeps_it_and_is_named_for_the_function():
    tests = "def check(candidate):\n    assert sorted(candidate([2, 4])) == [2, 4]\n"
    written = write_test(tests, "sorted(evens([3, 2]))", returns="[2]")
    assert written.tests == tests + "    assert sorted(candidate([3, 2])) == [2]\n"
    pytest_style = write_test("def test_a():\n    assert set(evens([2])) == {2}\n", "set(evens([4, 4]))", returns="{4}")
    assert "def test_evens_4_4():\n    assert set(evens([4, 4])) == {4}" in pytest_style.tests
    code = "def evens(xs):\n    return [x for x in xs if x % 2 == 0][::-1]\n"
    assert run_tests(code, written.tests, entry_point="evens").passed


@pytest.mark.parametrize("tests, returns, written", [
    (ASSERTS, "True", "assert add(0, 2)"), (ASSERTS, "False", "assert not add(0, 2)"),
    (PYTEST, "False", "def test_add_0_2():\n    assert not add(0, 2)"),
    (UNITTEST, "True", "    def test_add_0_2(self):\n        self.assertTrue(add(0, 2))"),
    (CHECK, "False", "    assert not candidate(0, 2)"),
])
def test_a_result_read_only_for_its_truth_is_tested_as_people_write_that(tests, returns, written):
    # A bare `assert f(x)` reads the result through bool (agent.loop.asserted_calls): its answer is written back so.
    assert write_test(tests, "bool(add(0, 2))", returns=returns).test == written


def test_names_are_unique_and_read_what_the_call_tests():
    once = write_test(PYTEST, "count('')", returns="0")
    assert "def test_count_empty():" in once.tests
    twice = write_test(once.tests, "count('')", returns="0")
    assert "def test_count_empty_2():" in twice.tests
    assert "def test_count_hello_world():" in write_test(PYTEST, "count('hello world')", returns="2").tests


def test_values_are_python_as_typed_and_the_persons_lines_stay_as_they_are():
    tests = "# my tests\nassert  add(1, 2)==3   # spaced my way\n"
    written = write_test(tests, "add(0, [1, 2])", returns="{'a': (1, 2.5), 'b': None}")
    assert written.tests.startswith(tests) and written.test == "assert add(0, [1, 2]) == {'a': (1, 2.5), 'b': None}"


@pytest.mark.parametrize("returns, raises, words", [
    ("abc", None, "`abc` is a name, not a value: write a string in quotes ('abc')"),
    ("1 +", None, "the expected value `1 +` is not a Python expression"),
    ("", None, "type the value the call should return"),
    (None, "'oops'", "type the exception's type, such as ValueError"),
    (None, "", "type the exception's type"),
])
def test_what_is_not_python_is_refused_saying_what_to_type(returns, raises, words):
    with pytest.raises(BadInput, match=re.escape(words)):
        write_test(ASSERTS, "add(0, 2)", returns=returns, raises=raises)


def test_tests_that_do_not_parse_are_refused_and_a_dotted_exception_is_fine():
    with pytest.raises(BadInput, match="the tests do not parse"):
        write_test("assert add(1, 2) ==\n", "add(0, 2)", returns="2")
    assert "except json.JSONDecodeError:" in write_test(ASSERTS, "add(0, 2)", raises="json.JSONDecodeError").test
    with pytest.raises(ValueError):
        write_test(ASSERTS, "add(0, 2)", returns="2", raises="ValueError")


# Takes the order off the stock dict it is given, which the task says it must never change.
TAKES = "def take(stock, order):\n    for k, v in order.items():\n        stock[k] -= v\n    return stock\n"
COPIES = ("def take(stock, order):\n    out = dict(stock)\n    for k, v in order.items():\n        out[k] -= v\n"
          "    return out\n")


@pytest.mark.parametrize("tests, test", [
    ("assert take({'a': 2}, {}) == {'a': 2}\n",
     "argument = {'a': 5, 'b': 1}\ntake(argument, {'a': 3})\nassert argument == {'a': 5, 'b': 1}"),
    ("def test_small():\n    assert take({'a': 2}, {}) == {'a': 2}\n",
     "def test_take_a_5_b_1_a_3_argument_1():\n    argument = {'a': 5, 'b': 1}\n    take(argument, {'a': 3})\n"
     "    assert argument == {'a': 5, 'b': 1}"),
    ("import unittest\n\n\nclass T(unittest.TestCase):\n    def test_small(self):\n"
     "        self.assertEqual(take({'a': 2}, {}), {'a': 2})\n",
     "    def test_take_a_5_b_1_a_3_argument_1(self):\n        argument = {'a': 5, 'b': 1}\n"
     "        take(argument, {'a': 3})\n        self.assertEqual(argument, {'a': 5, 'b': 1})"),
    ("def check(candidate):\n    assert candidate({'a': 2}, {}) == {'a': 2}\n",
     "    argument = {'a': 5, 'b': 1}\n    candidate(argument, {'a': 3})\n    assert argument == {'a': 5, 'b': 1}"),
])
def test_what_an_argument_holds_after_the_call_is_a_test_that_names_it_in_every_style(tests, test):
    written = write_test(tests, "take({'a': 5, 'b': 1}, {'a': 3})", returns="{'a': 5, 'b': 1}", argument=0)
    assert written.test == test and written.tests.count(test) == 1
    # One more test the sandbox reads: the answer that changes the dict fails it, the one that copies passes.
    assert not run_tests(TAKES, written.tests, entry_point="take").passed
    assert run_tests(COPIES, written.tests, entry_point="take").passed


def test_an_argument_test_takes_a_name_no_test_uses_and_a_place_the_call_has():
    tests = "argument = {'a': 1}\nassert take(argument, {}) == {'a': 1}\n"
    written = write_test(tests, "take({'a': 5}, {'a': 3})", returns="{'a': 2}", argument=0)
    assert written.test.startswith("argument_2 = {'a': 5}\ntake(argument_2, {'a': 3})\n")
    assert run_tests(TAKES, written.tests, entry_point="take").passed  # it says the dict is changed: so it is
    with pytest.raises(BadInput, match="has no argument 3"):
        write_test(tests, "take({'a': 5}, {'a': 3})", returns="{'a': 2}", argument=2)
    with pytest.raises(BadInput, match="type the value it should hold"):
        write_test(tests, "take({'a': 5}, {'a': 3})", raises="KeyError", argument=0)


def test_a_date_is_written_as_the_tests_write_dates():
    tests = ("import unittest\nfrom datetime import date\n\nclass T(unittest.TestCase):\n"
             "    def test_week(self):\n        self.assertEqual(days(date(2024, 3, 4), date(2024, 3, 11)), 5)\n")
    written = write_test(tests, "days(datetime.date(2024, 3, 5), datetime.date(2024, 3, 11))", returns="4")
    assert written.test.strip().endswith("self.assertEqual(days(date(2024, 3, 5), date(2024, 3, 11)), 4)")
    assert "datetime.date" not in written.tests
    # Tests that import the module keep its name; tests that import neither get the import the value needs.
    module = write_test("import datetime\nassert f(datetime.date(2024, 1, 1)) == 1\n", "f(datetime.date(2024, 1, 2))",
                        returns="datetime.date(2024, 1, 3)")
    assert module.test == "assert f(datetime.date(2024, 1, 2)) == datetime.date(2024, 1, 3)"
    plain = write_test("assert f('x') == 1\n", "f(datetime.date(2024, 1, 2))", returns="datetime.datetime(2024, 1, 3)")
    assert plain.tests.startswith("from datetime import date\nfrom datetime import datetime\n")
    assert run_tests("def f(x):\n    return 1 if x == 'x' else x\n", plain.tests).status == "failed"
    renamed = write_test("from datetime import date as d\nassert f(d(2024, 1, 1)) == 1\n",
                         "f(datetime.date(2024, 1, 2))", returns="2")
    assert renamed.test == "assert f(d(2024, 1, 2)) == 2"


@pytest.mark.parametrize(("tests", "call", "returns", "expected"), [
    # The code's `import datetime`, which the tests read and share: no import added over it.
    ("assert f(datetime.date(2024, 1, 1)) == 1\n", "f(datetime.date(2024, 1, 2))", "2",
     "assert f(datetime.date(2024, 1, 2)) == 2"),
    # `datetime` is the class and `time` the module: the module under a name of its own.
    ("import time\nfrom datetime import datetime\nassert f(datetime(2024, 1, 1)) == 1\n",
     "f(datetime.datetime(2024, 1, 2, 0, 0))", "datetime.time(0, 0)",
     "assert f(datetime(2024, 1, 2, 0, 0)) == datetime_1.time(0, 0)"),
    # A name the tests take from another module is theirs.
    ("from time import time\nassert f(1) == 1\n", "f(2)", "datetime.time(0, 0)", "assert f(2) == datetime.time(0, 0)"),
    ("import datetime as dt\nassert f(dt.date(2024, 1, 1)) == 1\n", "f(datetime.date(2024, 1, 2))", "2",
     "assert f(dt.date(2024, 1, 2)) == 2"),
    ("from datetime import *\nassert f(date(2024, 1, 1)) == 1\n", "f(datetime.date(2024, 1, 2))", "2",
     "assert f(date(2024, 1, 2)) == 2"),
])
def test_a_date_is_written_so_that_it_runs_beside_the_persons_names(tests, call, returns, expected):
    written = write_test(tests, call, returns=returns)
    assert written.test == expected
    assert tests.rstrip("\n").splitlines()[-1] in written.tests.splitlines()  # the person's lines stay
