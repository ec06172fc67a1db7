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
    assert names.outgoing(lambda value: ("v", value)) is None


def test_the_code_never_rebinds_the_tests_own_names():
    module = ast.parse("expected = 4\n")
    names = shared_names.TestsNames()
    namespace = {"expected": 4, "count": 0}
    code_module = {"expected": None, "count": 0}
    names.start(namespace, ["expected", "count"], module, [code_module], separate=False)
    names.incoming({"expected": -1, "count": 2, "candidate": "forged", "__builtins__": {}}, lambda enc: enc)
    assert namespace == {"expected": 4, "count": 2}
    assert code_module == {"expected": -1, "count": 2, "candidate": "forged"}  # the module stands for the code's


def test_tests_that_import_the_code_keep_their_globals():
    names = shared_names.TestsNames()
    namespace, code_module = {"count": 0}, {"count": 0}
    names.start(namespace, ["count"], ast.parse("import tracker\n"), [code_module], separate=True)
    namespace["count"] = 5
    assert names.outgoing(lambda value: ("v", value)) is None
    names.incoming({"count": 2}, lambda enc: enc)
    assert namespace == {"count": 5} and code_module == {"count": 2}


def test_a_list_bound_by_a_test_and_changed_by_the_code_is_one_list():
    code = "items = []\ndef add(x):\n    items.append(x)\n    return len(items)\n"
    tests = ("def test_add():\n    global items\n    items = [0]\n    mine = items\n    assert add(1) == 2\n"
             "    assert mine == [0, 1] and items is mine\n    mine.append(2)\n    assert add(3) == 4\n")
    report = run_tests(code, tests)
    assert report.status == "passed", report.summary()
