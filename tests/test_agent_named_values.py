"""Tests for agent.loop.named_values: the inputs and results a test names are read as examples where nothing can
change them in between, and nowhere else."""

from __future__ import annotations

import pytest

from agent import Search, Solver
from agent.loop.probes import literal_calls
from agent.loop.questions import Reply
from fakes import SamplingScriptedModel

READ = {
    "an input named": "def test_total():\n    items = [3, 1, 2]\n    assert total(items) == 6\n",
    "a result named": "def test_total():\n    result = total([3, 1, 2])\n    assert result == 6\n",
    "a module constant": "ITEMS = [3, 1, 2]\n\ndef test_total():\n    assert total(ITEMS) == 6\n",
    "an annotated input": "items: list = [3, 1, 2]\nassert total(items) == 6\n",
    "a built input": "items = list(range(3, 0, -1))\nassert total(items) == 6\n",
    "a result named in the message too": "result = total([3, 1, 2])\nassert result == 6, f'got {result}'\n",
    "an if that raises": "result = total([3, 1, 2])\nif result != 6:\n    raise AssertionError(f'got {result}')\n",
    # A helper of the tests' that checks: the result handed to it, or the input it passes on (session 30).
    "a result a helper checks by raising": ("def check_eq(got, want):\n    if got != want:\n"
                                            "        raise AssertionError(f'{got} != {want}')\n\n"
                                            "check_eq(total([3, 1, 2]), 6)\n"),
    "an input a helper that asserts passes on": ("def expect(xs, want):\n    assert total(xs) == want\n\n"
                                                 "expect([3, 1, 2], 6)\n"),
}


@pytest.mark.parametrize("tests", READ.values(), ids=READ.keys())
def test_a_named_input_or_result_is_read_as_the_example_it_stands_for(tests):
    assert [(c.args, c.keywords) for c in literal_calls(tests, "total")] == [([[3, 2, 1] if "range" in tests
                                                                              else [3, 1, 2]], {})]


def test_a_named_result_is_read_as_its_check_reads_it():
    tests = ("import unittest\n\nclass T(unittest.TestCase):\n    def test_a(self):\n        items = [3, 1, 2]\n"
             "        result = order(items)\n        self.assertEqual(sorted(result), [1, 2, 3])\n")
    assert [(c.args, c.observer) for c in literal_calls(tests, "order")] == [([[3, 1, 2]], "sorted(__observed_call__)")]


def test_an_if_that_raises_reads_the_result_as_an_assert_would():
    tests = "if not is_even(4):\n    raise ValueError('4 is even')\nif total([1]) != 1:\n    raise AssertionError\n"
    assert [(c.name, c.args, c.observer) for c in literal_calls(tests, None)] == [
        ("is_even", [4], "bool(__observed_call__)"), ("total", [[1]], "__observed_call__")]


PARAMETRIZED = {
    "names in one string": ("import pytest\n\n@pytest.mark.parametrize('items, expected', [([3, 1, 2], 6), ([], 0)])\n"
                            "def test_total(items, expected):\n    assert total(items) == expected\n",
                            [([[3, 1, 2]], {}), ([[]], {})]),
    "marks multiplied, a keyword": ("from pytest import mark\n\n@mark.parametrize('a', [1, 2])\n"
                                    "@mark.parametrize(('b',), [('x',)])\ndef test_a(a, b):\n"
                                    "    assert total(a, k=b) == 1\n", [([1], {"k": "x"}), ([2], {"k": "x"})]),
    "a method, a built value": ("import pytest\n\nclass TestTotal:\n"
                                "    @pytest.mark.parametrize('a', [list(range(3))])\n"
                                "    def test_a(self, a):\n        assert total(a) == 3\n", [([[0, 1, 2]], {})]),
}


@pytest.mark.parametrize(("tests", "calls"), PARAMETRIZED.values(), ids=PARAMETRIZED.keys())
def test_each_case_of_a_parametrized_test_is_read_as_a_call(tests, calls):
    assert [(c.args, c.keywords) for c in literal_calls(tests, "total")] == calls


NOT_READ = {
    "changed before the call": "def test_a():\n    items = [3, 1]\n    items.append(2)\n    assert total(items) == 6\n",
    "passed twice (the first call may change it)": (
        "def test_a():\n    items = [3, 1]\n    assert total(items) == 4\n    assert total(items) == 4\n"),
    "assigned twice": "def test_a():\n    x = [1]\n    x = [2]\n    assert total(x) == 2\n",
    "assigned after the call": "def test_a():\n    assert total(x) == 2\n\nx = [2]\n",
    "a loop's variable": "for x in [[1], [2]]:\n    assert total(x) == x[0]\n",
    "not a literal": "items = load()\nassert total(items) == 6\n",
    "a result changed before the check": "def test_a():\n    r = total([1])\n    r.sort()\n    assert r == [1]\n",
    "a result assigned twice": "r = total([1])\nr = total([2])\nassert r == 2\n",
    "a result read outside a check": "r = total([1])\nprint(r)\nassert r == 1\n",
    "a pytest.param case": ("import pytest\n\n@pytest.mark.parametrize('a', [pytest.param(1, id='x')])\n"
                            "def test_a(a):\n    assert total(a) == 1\n"),
    "a parameter changed in the test": ("import pytest\n\n@pytest.mark.parametrize('a', [1, 2])\ndef test_a(a):\n"
                                        "    a = a + 1\n    assert total(a) == 1\n"),
    "a case that is not a literal": ("import pytest\n\n@pytest.mark.parametrize('a', [load()])\ndef test_a(a):\n"
                                     "    assert total(a) == 1\n"),
    "a fixture beside the case": ("import pytest\n\n@pytest.mark.parametrize('a', [1])\ndef test_a(a, tmp_path):\n"
                                  "    assert total(a, tmp_path) == 1\n"),
    "a helper's input changed before the call": ("def expect(xs, want):\n    xs.append(1)\n"
                                                 "    assert total(xs) == want\n\nexpect([3], 4)\n"),
    "a helper given no literal": "def expect(xs, want):\n    assert total(xs) == want\n\nexpect(load(), 6)\n",
    "a result a helper changes before its check": ("def check(got, want):\n    got.sort()\n    assert got == want\n\n"
                                                   "check(total([3]), [3])\n"),
    "a result a helper reads outside its check": ("def check(got, want):\n    print(got)\n    assert got == want\n\n"
                                                  "check(total([3]), [3])\n"),
}


def _fixture(decorator: str = "", params: str = "", body: str = "return [1]") -> str:
    """A test file's start: a fixture named items, decorated @pytest.fixture followed by decorator."""
    return f"import pytest\n\n@pytest.fixture{decorator}\ndef items({params}):\n    {body}\n\n"


ASKS = "def test_a(items):\n    assert total(items) == 1\n"  # a test that asks for items and passes it once
NOT_READ |= {
    "a fixture of a wider scope (one value for many tests)": _fixture("(scope='module')") + ASKS,
    "a fixture's scope given by place": _fixture("('module')") + ASKS,
    "a fixture of cases": _fixture("(params=[[1], [2]])") + ASKS,
    "a fixture used unasked": _fixture("(autouse=True)") + ASKS,
    "a fixture cached across tests": _fixture("\n@functools.cache") + ASKS,
    "a fixture that yields": _fixture(body="yield [1]") + ASKS,
    "a fixture of no literal": _fixture(body="return load()") + ASKS,
    "a fixture that asks for another": _fixture(params="tmp_path") + ASKS,
    "a fixture's name bound again": _fixture() + "items = [2]\n" + ASKS,
    "a fixture another fixture receives (and may change)": _fixture()
    + "@pytest.fixture\ndef more(items):\n    items.append(2)\n    return items\n\n"
    "def test_a(items, more):\n    assert total(items) == 3\n",
    "a fixture named test_* that receives it": _fixture()
    + "@pytest.fixture\ndef test_data(items):\n    items.append(2)\n\n"
    "def test_a(items, test_data):\n    assert total(items) == 3\n",
    "a fixture changed in the test": _fixture()
    + "def test_a(items):\n    items.append(2)\n    assert total(items) == 3\n",
    "a fixture passed twice in one test": _fixture() + ASKS + "    assert total(items) == 1\n",
    "a decorator that fills parameters": _fixture() + "@mock.patch('os.getcwd')\n" + ASKS,
    "a parameter with a default": _fixture() + "def test_a(items=[5]):\n    assert total(items) == 5\n",
    "a fixture another of the same name overrides (name=)": _fixture()
    + "class TestX:\n    @pytest.fixture(name='items')\n    def _items(self):\n        return [2]\n\n"
    "    def test_a(self, items):\n        assert total(items) == 2\n",
    "a class whose base may hold the fixture": _fixture()
    + "class TestX(Base):\n    def test_a(self, items):\n        assert total(items) == 2\n",
    "a fixture fetched by name": _fixture()
    + "def test_a(items, request):\n    request.getfixturevalue('items').append(2)\n    assert total(items) == 3\n",
    "a fixture decorator bound otherwise": "import functools, pytest\n\n"
    "fixture = functools.partial(pytest.fixture, scope='module')\n\n@fixture\ndef items():\n    return [1]\n\n" + ASKS,
}


def test_a_function_scoped_fixture_of_a_literal_is_read_in_each_test_that_asks_for_it():
    tests = (_fixture(body='"""Three scores."""\n    return [3, 1, 2]')
             + "def test_a(items):\n    assert total(items) == 6\n\n"
             + "def test_b(items):\n    assert total(items) > 0\n\n"
             + "def test_c():\n    assert total([5]) == 5\n")
    assert [c.args for c in literal_calls(tests, "total")] == [[[3, 1, 2]], [[3, 1, 2]], [[5]]]
    called = tests.replace("@pytest.fixture\n", "@pytest.fixture(scope='function')\n")
    assert [c.args for c in literal_calls(called, "total")] == [[[3, 1, 2]], [[3, 1, 2]], [[5]]]
    # From pytest's name for it; in a method of a plain test class.
    imported = tests.replace("import pytest\n", "import pytest\nfrom pytest import fixture\n").replace(
        "@pytest.fixture\n", "@fixture\n")
    assert len(literal_calls(imported, "total")) == 3
    method = _fixture(body="return [3, 1, 2]") + (
        "class TestTotal:\n    @pytest.mark.slow\n    def test_a(self, items):\n        assert total(items) == 6\n")
    assert [c.args for c in literal_calls(method, "total")] == [[[3, 1, 2]]]
    # A parametrize mark of the fixture's name overrides it, as in pytest: its cases are the examples.
    overridden = _fixture() + (
        "@pytest.mark.parametrize('items', [[5], [6]])\ndef test_a(items):\n    assert total(items) > 0\n")
    assert [c.args for c in literal_calls(overridden, "total")] == [[[5]], [[6]]]
    # A test that does not ask for it passes the fixture's function itself: no example.
    assert [c.args for c in literal_calls(tests.replace("def test_b(items)", "def test_b()"), "total")] == [
        [[3, 1, 2]], [[5]]]


@pytest.mark.parametrize("tests", NOT_READ.values(), ids=NOT_READ.keys())
def test_a_name_something_else_may_change_or_bind_is_not_read(tests):
    assert literal_calls(tests, "total") == []


def test_a_pass_on_a_test_that_names_its_input_and_result_is_doubted_and_asked(tmp_path):
    # Both answers pass the person's test; one keeps duplicates, which only a mutated input with a repeat shows.
    keeps = "def unique(xs):\n    return sorted(xs)\n"
    drops = "def unique(xs):\n    return sorted(set(xs))\n"
    model = SamplingScriptedModel(answers=[f"```python\n{c}```" for c in [keeps, drops, keeps, drops, drops]])
    solver = Solver(model, tmp_path / "solves.sqlite", search=Search(proposed_inputs=0))
    tests = ("def test_unique():\n    numbers = [3, 1, 2]\n    result = unique(numbers)\n"
             "    assert result == [1, 2, 3]\n")
    task = "Write unique(xs): the distinct numbers of xs, sorted."
    thread = list(solver.start(task, tests, ask=True))[-1].thread_id
    question = solver.question(thread)
    assert question is not None and question.call == "unique([3, 3, 2])"
    outcomes = [o.outcome for o in question.options]
    list(solver.answer(thread, Reply(choice=outcomes.index("= [2, 3]"))))
    assert solver.chosen(thread).number == 2
    added = solver.state_at(thread)["tests"]
    assert added.startswith(tests) and "assert unique([3, 3, 2]) == [2, 3]" in added[len(tests):]
