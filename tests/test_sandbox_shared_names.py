"""One namespace for the code's globals and the tests' (sandbox/inside/crossing/shared_names.py): which names the
tests bind as their own, and which rebinding crosses. The runs themselves are in the shape catalog
(tests/shape_catalog.py: a counter the code rebinds, a flag a test rebinds, a module the tests import) and the
hostile programs (the code rebinding the tests' own `expected` and `check`)."""

from __future__ import annotations

import ast

from inside_modules import inside_modules

from sandbox import run_tests

(shared_names,) = inside_modules("shared_names")

TESTS = """
import unittest
from datetime import date
from solution import counter as start
expected = [1, 2]
for item in expected:
    pass
def helper(x):
    local = x
    return local
class T(unittest.TestCase):
    def setUp(self):
        global history
        history = []
"""


def test_the_tests_own_globals_are_their_top_level_names_and_declared_globals():
    module = ast.parse(TESTS)
    found = shared_names.global_names(module)
    assert {"unittest", "date", "start", "expected", "item", "helper", "T", "history"} <= found
    assert "local" not in found and "x" not in found  # a function's own
    assert shared_names.defined_names(module) == {"helper", "T"}
    assert shared_names.imported_names(module) == {"unittest", "date", "start"}


def test_a_rebinding_the_tests_did_not_make_is_sent_once():
    module = ast.parse("DEBUG = True\ndef helper():\n    pass\n")
    names = shared_names.TestsNames()
    namespace = {"DEBUG": False, "helper": "the code's helper", "count": 1}
    names.start(namespace, ["DEBUG", "helper", "count"], module, [], separate=False)
    namespace.update(DEBUG=True, helper="the tests' helper")
    assert names.outgoing(lambda value: ("v", value)) == {"DEBUG": ("v", True)}  # a def of the tests stays theirs
    names.incoming({"DEBUG": False}, lambda enc: enc)
    assert namespace["DEBUG"] is True  # set by a test: the tests' from then on
    assert names.outgoing(lambda value: ("v", value)) is None


def test_the_code_never_rebinds_the_tests_own_names():
    module = ast.parse("expected = 4\n")
    names = shared_names.TestsNames()
    namespace = {"expected": 4, "count": 0}
    code_module = {"expected": None, "count": 0}
    names.start(namespace, ["expected", "count"], module, [code_module], separate=False)
    names.incoming({"expected": -1, "count": 2, "candidate": "forged", "__builtins__": {}}, lambda enc: enc)
    assert namespace == {"expected": 4, "count": 2}
    assert code_module == {"expected": -1, "count": 2}  # the module stands for the code's, and holds its names only


def test_tests_that_import_the_code_keep_their_globals():
    names = shared_names.TestsNames()
    namespace, code_module = {"count": 0}, {"count": 0}
    names.start(namespace, ["count"], ast.parse("import tracker\n"), [code_module], separate=True)
    namespace["count"] = 5
    assert names.outgoing(lambda value: ("v", value)) is None
    names.incoming({"count": 2}, lambda enc: enc)
    assert namespace == {"count": 5} and code_module == {"count": 2}


def test_a_list_bound_by_a_test_reaches_the_code_as_a_copy():
    code = "items = []\ndef add(x):\n    items.append(x)\n    return len(items)\n"
    tests = ("def test_add():\n    global items\n    items = [0]\n    assert add(1) == 2\n"
             "    assert items == [0]  # the tests' own list: the code changed its copy\n    assert add(3) == 3\n")
    report = run_tests(code, tests)
    assert report.status == "passed", report.summary()


def test_only_the_names_the_codes_functions_store_are_looked_at():
    compiled = compile("import math\nA = 1\ndef f():\n    global A, B\n    A += 1\n    B = 2\n"
                       "class C:\n    def m(self):\n        global D\n        del D\n", "solution.py", "exec")
    assert shared_names.stored_globals(compiled) == {"A", "B", "D"}
    assert shared_names.stored_globals(compile("def f():\n    globals()['A'] = 1\n", "s", "exec")) is None


def test_a_rebound_name_the_tests_never_read_is_no_reason_not_to_judge():
    code = "count = 0\ndef count_vowels(s):\n    global count\n    count = 1\n    return 1\n"
    tests = "count = 5\ndef test_a():\n    assert count_vowels('hello') == 2\n"
    assert run_tests(code, tests).status == "failed"


def test_a_value_too_big_to_send_with_every_message_stays_the_codes():
    code = "log = ''\ndef f(x):\n    global log\n    log = 'x' * (3 << 20)\n    return x\n"
    report = run_tests(code, "assert f(2) == 2\nassert f(3) == 3\n")
    assert report.status == "passed", report.summary()


def test_a_test_list_the_code_changes_through_its_copy_is_said_not_judged():
    tests = ("import unittest\nclass T(unittest.TestCase):\n    def setUp(self):\n        global EVENTS\n"
             "        EVENTS = []\n    def test_two(self):\n        self.assertEqual(record('login'), 1)\n"
             "        self.assertEqual(EVENTS, ['login'])\n")
    right = run_tests("EVENTS = []\ndef record(event):\n    EVENTS.append(event)\n    return len(EVENTS)\n", tests)
    assert right.status == "unsupported" and "a copy" in right.unsupported
    assert run_tests("EVENTS = []\ndef record(event):\n    return 1\n", tests).status == "failed"
