"""Why a candidate was lost when its code was loaded (agent.loop.load_failure), from real sandbox reports."""

from __future__ import annotations

import pytest

from agent.loop.load_failure import LOAD_FAILURES, load_failure
from sandbox import run_tests
from sandbox.verdict import TestReport as Report  # not collected as a test class

TESTS = "assert solve(1) == 2\n"
SOLUTION = "def solve(n):\n    return 2 * n\n"
LOST = {
    "syntax": "def solve(n):\n    return 2 * n)\n",
    "test_library": [
        SOLUTION + "@pytest.mark.parametrize('n', [1])\ndef test_solve(n):\n    assert solve(n) == 2\n",
        SOLUTION + "class TestSolve(unittest.TestCase):\n    pass\n",
        "import pytest\n" + SOLUTION,
    ],
    "own_tests": [
        SOLUTION + "def check_function():\n    assert solve(1) == 3\n\ncheck_function()\n",
        SOLUTION + "assert solve(1) == 3, 'wrong'\n",
        "def solve(n):\n    return n[0]\n\nprint(solve(3))\n",
        "import sys\n" + SOLUTION + "sys.exit(0)\n",
        SOLUTION + "def verify():\n    if solve(1) != 3:\n        raise ValueError('wrong')\n\ncheck_all = verify()\n",
    ],
    "no_entry_point": "def double(n):\n    return 2 * n\n",
    "other": "from typing import Lisst\n" + SOLUTION,
}
CASES = [(kind, code) for kind, codes in LOST.items() for code in ([codes] if isinstance(codes, str) else codes)]


@pytest.mark.parametrize(("kind", "code"), CASES)
def test_a_candidate_lost_at_load_is_told_by_its_cause(kind, code):
    report = run_tests(code, TESTS, entry_point="solve")
    assert report.status == "error" and not report.tests
    assert kind in LOAD_FAILURES and load_failure(report) == kind
    assert load_failure(report.to_dict()) == kind  # as the store keeps it


def test_a_candidate_whose_tests_ran_was_not_lost_at_load():
    assert load_failure(run_tests(SOLUTION, TESTS, entry_point="solve")) is None
    assert load_failure(run_tests("def solve(n):\n    return n\n", TESTS, entry_point="solve")) is None
    assert load_failure(run_tests("def solve(n):\n    raise ValueError\n", TESTS, entry_point="solve")) is None


def test_no_code_no_report_or_bad_tests_are_not_losses_at_load():
    assert load_failure(None) is None
    assert load_failure(Report(status="error", error="no code to run: the answer was empty")) is None
    assert load_failure(run_tests(SOLUTION, "assert solve(1) ==\n", entry_point="solve")) is None
