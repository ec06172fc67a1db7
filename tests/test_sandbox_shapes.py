"""The sandbox's contract: test shapes, statuses, compared values and trimmed tracebacks."""

from __future__ import annotations

import pytest

from sandbox import Limits, describe_tests, isolation, run_tests

ADD = "def add(a, b):\n    return a + b\n"
BUGGY = "def add(a, b):\n    return a - b\n"


def test_plain_asserts_each_reported():
    report = run_tests(ADD, "assert add(1, 2) == 3\nassert add(2, 2) == 5\nx = add(1, 1)\nassert x == 2\n")
    assert report.status == "failed"
    assert report.shape == "asserts"
    assert [t.passed for t in report.tests] == [True, False, True]
    failed = report.tests[1]
    assert failed.line == "assert add(2, 2) == 5"
    assert (failed.left, failed.op, failed.right) == ("4", "==", "5")


def test_every_assert_passing_is_a_pass_with_each_counted():
    report = run_tests(ADD, "assert add(1, 2) == 3\nassert add(-1, 1) == 0\n")
    assert report.status == "passed" and report.passed and report.n_passed == 2


def test_pytest_style_functions_and_classes():
    tests = (
        "import pytest\n"
        "def test_ok():\n    assert add(1, 2) == 3\n"
        "def test_bad():\n    assert add(1, 2) == 4\n"
        "@pytest.mark.parametrize('a,b,c', [(1, 1, 2), (2, 3, 5), (0, 0, 1)])\n"
        "def test_param(a, b, c):\n    assert add(a, b) == c\n"
        "def test_raises():\n    with pytest.raises(TypeError):\n        add(1, 'x')\n"
        "class TestAdd:\n    def test_float(self):\n        assert add(0.1, 0.2) == pytest.approx(0.3)\n"
    )
    report = run_tests(ADD, tests)
    assert report.shape == "pytest"
    results = {t.name: t.passed for t in report.tests}
    assert results == {"test_ok": True, "test_bad": False, "test_param[1-1-2]": True, "test_param[2-3-5]": True,
                       "test_param[0-0-1]": False, "test_raises": True, "TestAdd::test_float": True}


def test_humaneval_check_shape_with_entry_point():
    tests = "def check(candidate):\n    assert candidate(1, 2) == 3\n    assert candidate(5, 5) == 10\n"
    assert run_tests(ADD, tests, entry_point="add").status == "passed"
    report = run_tests(BUGGY, tests, entry_point="add")
    assert report.status == "failed" and report.shape == "check"
    assert report.tests[0].name == "check(add)"
    assert report.tests[0].left == "-1" and report.tests[0].right == "3"


def test_missing_entry_point_is_an_error():
    report = run_tests(ADD, "def check(candidate):\n    assert candidate(1) == 1\n", entry_point="nope")
    assert report.status == "error" and "nope" in report.error


def test_syntax_error_in_code_is_error_with_line():
    report = run_tests("def add(a, b)\n    return a + b\n", "assert add(1, 2) == 3")
    assert report.status == "error"
    assert "SyntaxError" in report.error and "line 1" in report.error


def test_exception_at_import_is_error():
    report = run_tests("import nonexistent_module_xyz\n", "assert True")
    assert report.status == "error" and "ModuleNotFoundError" in report.error


def test_tests_with_syntax_error_name_the_line():
    report = run_tests(ADD, "assert add(1, 2) == 3\nassert add(1,, 2) == 3\n")
    assert report.status == "error" and "line 2" in report.error


def test_empty_tests_are_an_error():
    assert run_tests(ADD, "  \n").status == "error"
    assert run_tests(ADD, "x = 1\n").status == "error"  # parses, but holds no test


def test_traceback_trimmed_to_user_frames():
    code = "def helper(x):\n    return 10 // x\n\ndef f(x):\n    return helper(x)\n"
    report = run_tests(code, "assert f(2) == 5\nassert f(0) == 0\n")
    failure = report.tests[1]
    assert failure.error_type == "ZeroDivisionError"
    assert 'File "solution.py", line 2, in helper' in failure.traceback
    assert 'File "solution.py", line 5, in f' in failure.traceback
    assert 'File "tests.py", line 2' in failure.traceback
    assert "worker.py" not in failure.traceback and "candidate.py" not in failure.traceback
    assert "ZeroDivisionError" in report.summary()


def test_exceptions_keep_their_builtin_family():
    code = "class Bad(ValueError):\n    pass\n\ndef f(x):\n    raise Bad('no')\n"
    tests = "try:\n    f(1)\n    raised = False\nexcept ValueError as e:\n    raised = str(e) == 'no'\nassert raised\n"
    assert run_tests(code, tests).status == "passed"


def test_truthiness_assert_reports_value():
    report = run_tests("def is_even(n):\n    return n % 2 == 1\n", "assert is_even(4)\n")
    assert report.status == "failed" and report.tests[0].left == "False"


def test_generators_objects_and_mutation():
    code = (
        "def gen(n):\n    yield from range(n)\n"
        "class Stack:\n    def __init__(self):\n        self.items = []\n"
        "    def push(self, x):\n        self.items.append(x)\n"
        "    def pop(self):\n        return self.items.pop()\n    def __len__(self):\n        return len(self.items)\n"
        "def sort_in_place(xs):\n    xs.sort()\n"
    )
    tests = (
        "assert list(gen(3)) == [0, 1, 2]\n"
        "s = Stack()\ns.push(1)\ns.push(2)\nassert s.pop() == 2\nassert len(s) == 1\n"
        "xs = [3, 1, 2]\nsort_in_place(xs)\nassert xs == [1, 2, 3]\n"
    )
    report = run_tests(code, tests)
    assert report.status == "passed", report.summary()


def test_subclass_values_compare_by_their_real_data():
    code = "from collections import OrderedDict, namedtuple\nP = namedtuple('P', 'x y')\n" \
           "def f():\n    return OrderedDict(a=1)\ndef g():\n    return P(1, 2)\n"
    assert run_tests(code, "assert f() == {'a': 1}\nassert g() == (1, 2)\n").status == "passed"


def test_stdout_and_stderr_captured():
    code = "import sys\nprint('hello out')\ndef f():\n    print('in f', file=sys.stderr)\n    return 1\n"
    report = run_tests(code, "assert f() == 1\n")
    assert report.status == "passed"
    assert "hello out" in report.stdout and "in f" in report.stderr


def test_timeout_status_and_running_test_named():
    report = run_tests("def f():\n    while True:\n        pass\n", "assert 1 == 1\nassert f() == 1\n",
                       limits=Limits(timeout_s=1))
    assert report.status == "timeout"
    assert report.tests[0].passed and not report.tests[1].passed
    assert report.tests[1].name.startswith("line 2")


def test_code_over_its_memory_limit_has_status_memory():
    report = run_tests("def f():\n    return len(bytearray(2 << 30))\n", "assert f() == 0\n",
                       limits=Limits(memory_bytes=256 << 20))
    assert report.status == "memory"


def test_output_over_its_limit_has_status_output_limit_and_is_truncated():
    report = run_tests("def f():\n    while True:\n        print('x' * 1000)\n", "assert f() is None\n",
                       limits=Limits(output_bytes=200_000))
    assert report.status == "output_limit"
    assert report.stdout_truncated


def test_crashed_status_on_segfault():
    code = "import ctypes\ndef f():\n    return ctypes.string_at(0)\n"
    report = run_tests(code, "assert f() == b''\n")
    assert report.status == "crashed"


def test_each_report_names_the_layers_of_isolation_that_confined_it():
    report = run_tests(ADD, "assert add(1, 1) == 2")
    confined = isolation()
    assert report.isolation == confined.description
    assert report.isolation.endswith("rlimits")  # resource limits confine every run, at every level
    assert report.isolation.startswith("bwrap(") == (confined.level == "bwrap")
    assert ("landlock" in report.isolation) == (confined.landlock_abi > 0)
    assert ("seccomp" in report.isolation) == confined.seccomp


@pytest.mark.parametrize("exit_call", ["import sys; sys.exit(0)", "import os; os._exit(0)"])
def test_exit_during_a_call_fails(exit_call):
    report = run_tests(f"def f():\n    {exit_call}\n", "assert f() == 1\n")
    assert report.status in ("failed", "crashed") and not report.passed


@pytest.mark.parametrize("tests, says", [
    ("assert add(1, 2) == 3\nx = add(1, 1)\nassert x == 2\n", "2 asserts"),
    ("assert add(1, 2) == 3\n", "1 assert,"),
    ("def test_a():\n    assert add(1, 2) == 3\n\nclass TestB:\n    def test_c(self):\n        pass\n",
     "2 pytest-style test functions"),
    ("import unittest\n\nclass TestAdd(unittest.TestCase):\n    def test_a(self):\n"
     "        self.assertEqual(add(1, 2), 3)\n", "1 unittest test method"),
    ("import unittest\n\ndef test_a():\n    pass\n\nclass TestAdd(unittest.TestCase):\n    def test_b(self):\n"
     "        pass\n", "2 tests: pytest-style functions and unittest methods"),
    ("def check(candidate):\n    assert candidate(1, 2) == 3\n", "check(candidate)"),
    ("print(add(1, 2))\n", "hold no assert"),
    ("assert add(1, 2 == 3\n", "do not parse"),
    ("  \n", "The tests are empty"),
])
def test_describe_tests_says_what_will_run(tests, says):
    assert says in describe_tests(tests)


# --- tests that never ran, or checked nothing, are never reported as passed -------------------

ONE = "def f(x):\n    return x + 1\n"


@pytest.mark.parametrize("tests, status, message", [
    ("async def test_a():\n    assert f(1) == 3\n", "failed", None),  # run to the end, like pytest-asyncio
    ("def test_a():\n    yield\n    assert f(1) == 2\n", "failed", "yields"),
    ("def test_a():\n    return f(1) == 3\n", "failed", "instead of asserting"),
    ("def check(candidate):\n    candidate(1) == 3\n", "failed", "no assert ran"),
    ("for x in []:\n    assert f(x) == 0\n", "failed", "no assert ran"),
    ("import pytest\n@pytest.mark.parametrize('x', [])\ndef test_a(x):\n    assert f(x) == 0\n", "error", None),
    ("import pytest\ndef test_a():\n    pytest.skip('later')\n", "error", None),
])
def test_an_unexecuted_or_empty_test_is_never_a_pass(tests, status, message):
    report = run_tests(ONE, tests, entry_point="f")
    assert report.status == status, report.summary()
    if message:
        assert message in report.tests[0].message, report.summary()


RAISES = "def f(x):\n    if x < 0:\n        raise ValueError(x)\n    return x + 1\n"
IGNORES = "def f(x):\n    return x + 1\n"


@pytest.mark.parametrize("tests", [
    "try:\n    f(-1)\n    assert False\nexcept ValueError:\n    pass\n",
    "for bad in [-1, -2]:\n    try:\n        f(bad)\n        assert False, bad\n    except ValueError:\n        pass\n",
    "def test_negative():\n    try:\n        f(-1)\n        assert False, 'no error'\n"
    "    except (TypeError, ValueError):\n        pass\n",
    "def check(candidate):\n    assert candidate(1) == 2\n    try:\n        candidate(-1)\n        assert False\n"
    "    except ValueError:\n        pass\n",
])
def test_a_test_that_expects_an_exception_and_catches_it_passes_as_in_python(tests):
    # The idiom people write for "raises": its assert never runs when the code is right, and the except clause
    # catching the error is the check. One Python process and pytest pass it; it failed here as checking nothing.
    assert run_tests(RAISES, tests, entry_point="f").status == "passed"
    report = run_tests(IGNORES, tests, entry_point="f")
    assert report.status == "failed" and not report.tests[-1].passed, report.summary()


# What one Python process and pytest give for tests that never run (issue 32's second table), with code that returns
# the wrong value and with code that returns the right one: neither reads as passed.
RIGHT_F = "def f(x):\n    return 5 if x == 1 else x + 1\n"


@pytest.mark.parametrize("tests, says", [
    # nothing calls verify(): pytest says no tests ran
    ("def verify():\n    assert f(1) == 5\n", "verify() holds asserts, but nothing calls it"),
    # a class pytest does not collect (not Test*, not a TestCase)
    ("class MyChecks:\n    def test_a(self):\n        assert f(1) == 5\n", "class MyChecks is not collected"),
    # a Test* class with a constructor: pytest warns that it cannot collect it
    ("class TestInit:\n    def __init__(self):\n        self.n = 1\n    def test_a(self):\n        assert f(1) == 5\n",
     "because it has a __init__ constructor"),
    ('if __name__ == "__main__":\n    assert f(1) == 5\n', "runs only when the file is run as a script"),
])
@pytest.mark.parametrize("code", [ONE, RIGHT_F], ids=["wrong", "right"])
def test_tests_whose_asserts_never_run_check_nothing_and_say_why(code, tests, says):
    report = run_tests(code, tests)
    assert report.status == "error" and not report.tests, report.summary()
    assert report.error.startswith("no assert of these tests would run, so nothing would be checked")
    assert says in report.error, report.error


@pytest.mark.parametrize("code", [ONE, RIGHT_F], ids=["wrong", "right"])
def test_a_helper_nothing_calls_beside_asserts_that_ran_is_reported_as_checking_nothing(code):
    report = run_tests(code, "assert f(0) == 1\ndef verify():\n    assert f(1) == 5\n")
    assert report.status == "failed" and [t.passed for t in report.tests] == [True, False]
    unrun = report.tests[1]
    assert unrun.name == "line 2: def verify():" and unrun.lineno == 2
    assert unrun.message.startswith("no assert ran, so nothing was checked: verify() holds asserts, but nothing called")


def test_a_helper_that_is_called_counts_at_the_line_that_calls_it():
    tests = "def check_x(n, want):\n    assert f(n) == want\ncheck_x(1, 5)\nfor n in (2, 3):\n    check_x(n, n + 1)\n"
    report = run_tests(RIGHT_F, tests)
    assert report.status == "passed" and [t.name for t in report.tests] == ["line 3: check_x(1, 5)",
                                                                          "line 4: for n in (2, 3):"]
    report = run_tests(ONE, tests)
    assert report.status == "failed" and [t.passed for t in report.tests] == [False, True]
    assert (report.tests[0].left, report.tests[0].right) == ("2", "5")


@pytest.mark.parametrize("tests", [
    "import pytest\npytest.skip('later', allow_module_level=True)\nassert f(1) == 5\n",
    "import pytest\npytest.skip('later', allow_module_level=True)\ndef test_a():\n    assert f(1) == 5\n",
    "import pytest\nnp = pytest.importorskip('no_such_module_xyz')\ndef test_a():\n    assert f(1) == 5\n",
])
def test_a_file_skipped_at_its_top_level_runs_none_of_its_asserts(tests):
    for code in (ONE, RIGHT_F):
        report = run_tests(code, tests)
        assert report.status == "error" and report.error == "no test ran: every test was skipped", report.summary()
        assert all(t.skipped for t in report.tests) and len(report.tests) == 1


def test_a_skip_outside_a_test_without_allow_module_level_is_an_error_as_in_pytest():
    report = run_tests(ONE, "import pytest\npytest.skip('later')\nassert f(1) == 5\n")
    assert report.status == "error" and "pytest.skip at line 2" in report.error
    assert "allow_module_level=True" in report.error


@pytest.mark.parametrize("tests, line, text", [
    ("import sys\nsys.exit(0)\nassert f(1) == 5\n", 2, "sys.exit(0)"),
    ("import sys\nsys.exit(0)\ndef test_a():\n    assert f(1) == 5\n", 2, "sys.exit(0)"),
    ("assert f(0) == 1\nraise SystemExit(1)\nassert f(1) == 5\n", 2, "raise SystemExit(1)"),
    ("exit()\nassert f(1) == 5\n", 1, "exit()"),
    ("quit(3)\ndef test_a():\n    assert f(1) == 5\n", 1, "quit(3)"),
])
def test_an_exit_while_the_tests_load_is_an_error_at_that_line(tests, line, text):
    for code in (ONE, RIGHT_F):
        report = run_tests(code, tests)
        assert report.status == "error", report.summary()
        assert report.error.startswith(f"the tests exit at line {line} (`{text}`) while they load")
        assert "nothing after it ran" in report.error


def test_an_exit_inside_a_test_fails_that_test_as_pytest_does_and_the_others_run():
    tests = ("import sys\ndef test_a():\n    sys.exit(0)\ndef test_b():\n    exit()\n"
             "def test_c():\n    assert f(1) == 5\n")
    report = run_tests(RIGHT_F, tests)
    assert report.status == "failed" and [t.passed for t in report.tests] == [False, False, True]
    assert {t.error_type for t in report.tests[:2]} == {"SystemExit"}


@pytest.mark.parametrize("tests, during", [
    ("import os\nassert f(0) == 1\nos._exit(0)\nassert f(1) == 5\n", "line 3: os._exit(0)"),
    ("import os\ndef test_a():\n    os._exit(0)\n    assert f(1) == 5\n", "test_a"),
])
def test_tests_that_end_their_own_process_never_read_as_passed(tests, during):
    for code in (ONE, RIGHT_F):
        report = run_tests(code, tests)
        assert report.status == "error", report.summary()
        assert report.error.startswith("the tests ended their own process") and during in report.error
        assert report.tests[-1].name == during and not report.tests[-1].passed


def test_a_test_class_with_a_constructor_is_not_collected_beside_tests_that_are():
    tests = ("class TestInit:\n    def __init__(self):\n        self.n = 1\n    def test_a(self):\n"
             "        assert f(1) == 2\ndef test_b():\n    assert f(1) == 5\n")
    report = run_tests(RIGHT_F, tests)
    assert report.status == "passed" and report.tests[0].skipped and report.tests[0].name == "TestInit"
    assert "pytest does not collect class TestInit" in report.tests[0].message
    assert run_tests(ONE, tests).status == "failed"


def test_a_class_or_function_marked_not_a_test_is_not_collected():
    tests = ("class TestHelper:\n    __test__ = False\n    def test_a(self):\n        assert f(1) == 2\n"
             "def test_b():\n    assert f(1) == 5\n")
    report = run_tests(RIGHT_F, tests)
    assert report.status == "passed" and [t.name for t in report.tests] == ["test_b"]


@pytest.mark.parametrize("tests, says", [
    ("assert f(1) == 5\ndef verify():\n    assert f(2) == 3\n", "never run: line 2: verify() holds asserts"),
    ("import sys\ndef test_a():\n    assert f(1) == 5\nsys.exit(0)\n", "never run: line 4: `sys.exit(0)` ends"),
])
def test_describe_tests_names_a_check_that_never_runs(tests, says):
    assert says in describe_tests(tests)


def test_async_tests_run_and_pass_when_right():
    report = run_tests(ONE, "async def test_a():\n    assert f(1) == 2\n")
    assert report.status == "passed", report.summary()


def test_an_empty_parametrize_is_reported_as_skipped_beside_tests_that_ran():
    tests = ("import pytest\n@pytest.mark.parametrize('x', [])\ndef test_a(x):\n    assert f(x) == 0\n"
             "def test_b():\n    assert f(1) == 2\n")
    report = run_tests(ONE, tests)
    assert report.status == "passed"
    assert [t.describe().split(":")[0] for t in report.tests] == ["SKIPPED test_a[]", "PASSED test_b"]


@pytest.mark.parametrize("code, tests, says", [
    ("class Point:\n    def __init__(self, x):\n        self.x = x\n    def __repr__(self):\n"
     "        return f'Point({self.x})'\ndef make():\n    return Point(1)\n",
     "class Point:\n    def __init__(self, x):\n        self.x = x\n    def __repr__(self):\n"
     "        return f'Point({self.x})'\nassert make() == Point(1)\n",
     "their types differ: left is solution.Point (from the code under test), right is tests.Point"),
    ("def f():\n    return list(range(199)) + [0]\n", "assert f() == list(range(199)) + [5]\n", "item 199 differs"),
    ("class Box:\n    def __repr__(self):\n        return 'Box()'\ndef f():\n    return Box()\n",
     "assert f() == f()\n", "equal only to themselves unless the class defines __eq__"),
])
def test_values_that_print_the_same_are_told_apart(code, tests, says):
    report = run_tests(code, tests)
    assert report.status == "failed"
    failure = report.tests[0]
    assert failure.left == failure.right
    assert "both sides print the same, but" in failure.message and says in failure.message, failure.message


def test_a_recursion_across_the_tests_and_the_code_works_deep_and_says_so_past_the_limit():
    code = "def passthrough(f):\n    def w(*a):\n        return f(*a)\n    return w\n"
    tests = ("import math\n@passthrough\ndef fact(n):\n    return 1 if n == 0 else n * fact(n - 1)\n"
             "assert fact(N) == math.factorial(N)\n")
    assert run_tests(code, tests.replace("N", "200")).status == "passed"
    report = run_tests(code, tests.replace("N", "5000"))
    assert report.status == "failed" and "went more than 500 deep" in report.tests[0].message


def test_a_function_whose_name_starts_with_an_underscore_is_the_tests_to_call():
    assert run_tests("def _sum(xs):\n    return sum(xs)\n", "assert _sum([1, 2]) == 3\n").status == "passed"
