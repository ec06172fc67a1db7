"""Why a candidate was lost when its code was loaded, before any test ran, told from its sandbox report.

A candidate whose code raises at load is never judged: the right function above a broken demo scores like no
answer. Telling the causes apart lets the bench count the candidates lost to the model's own leftovers (what
agent.loop.answer_cleaning removes) apart from code that is broken in itself.
"""

from __future__ import annotations

import re

from agent.loop.answer_statements import CHECK_PREFIXES, TEST_LIBRARIES
from sandbox import TestReport

SYNTAX = "syntax"  # the code does not parse (SyntaxError, IndentationError)
TEST_LIBRARY = "test_library"  # its own tests use pytest or unittest without the import (or import pytest)
OWN_TESTS = "own_tests"  # its own tests or demo, run at load, failed: an assert, a check_function() call, exit()
NO_ENTRY_POINT = "no_entry_point"  # it loads but defines no function by the entry point's name
OTHER = "other"
LOAD_FAILURES = (SYNTAX, TEST_LIBRARY, OWN_TESTS, NO_ENTRY_POINT, OTHER)

_LOADED = "the code fails when loaded: "  # how sandbox.run words an exception raised while the code is loaded
_EXITED = "the code called exit("
_DIED = "the code exited while it was being loaded"
_SYNTAX_ERRORS = frozenset({"SyntaxError", "IndentationError", "TabError"})
# Names a test library gives that the model uses without importing them.
_TEST_NAMES = TEST_LIBRARIES | {"TestCase", "parametrize", "mock", "patch", "given"}
_UNDEFINED = re.compile(r"name '(\w+)' is not defined")
_NO_MODULE = re.compile(r"No module named '([\w.]+)'")
_FRAME = re.compile(r'^\s*File "[^"]*", line \d+, in (\S+)\s*$')
# A top-level line that only the model's own tests or demo write.
_DEMO_LINE = re.compile(r"^\s*(assert\b|print\(|pprint\(|check\w*\(|test\w*\(|unittest\.main\(|doctest\.testmod\(|"
                        r"pytest\.main\()")


def load_failure(report: TestReport | dict | None) -> str | None:
    """Why the candidate with this visible-test report was lost at load (one of LOAD_FAILURES), or None when it
    was not: tests ran, it passed or failed them, timed out, or there was no code (an extraction error) or no
    valid test to run."""
    if report is None:
        return None
    if isinstance(report, dict):
        report = TestReport.from_dict(report)
    if report.status != "error" or report.tests:
        return None
    text = report.error or ""
    if text.startswith(_EXITED):
        return OWN_TESTS  # a script's ending (sys.exit(main()), exit() after the checks), never a task's answer
    if text.startswith(_DIED):
        return OTHER
    if not text.startswith(_LOADED):
        return None
    lines = text.splitlines()
    kind, _, message = lines[0][len(_LOADED):].partition(": ")
    if kind in _SYNTAX_ERRORS:
        return SYNTAX
    missing = _UNDEFINED.search(message) or _NO_MODULE.search(message)
    if missing and missing.group(1).split(".")[0] in _TEST_NAMES or report.missing_module in TEST_LIBRARIES:
        return TEST_LIBRARY
    if "the code does not define a function named" in message:
        return NO_ENTRY_POINT
    if kind == "AssertionError" or _raised_in_own_tests(lines[1:]):
        return OWN_TESTS
    return OTHER


def _raised_in_own_tests(traceback: list[str]) -> bool:
    """The traceback passes through a test function of the code's own (test_*, check*, verify* ...), or starts at a
    top-level line that only a test or demo writes (an assert, a print, a check_function() call)."""
    for i, line in enumerate(traceback):
        frame = _FRAME.match(line)
        if not frame:
            continue
        function = frame.group(1).lstrip("_").lower()
        if function.startswith(("test", *CHECK_PREFIXES)):
            return True
        if function == "<module>" and i + 1 < len(traceback) and _DEMO_LINE.match(traceback[i + 1]):
            return True
    return False
