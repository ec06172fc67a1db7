"""A test a person asks for, written into their tests in the style those tests already use.

A person reads what the answer does on an input they did not test (agent.solves.answer_behaviour), says it is wrong
and what it should return or raise; this writes that as one more test: a plain ``assert f(x) == expected`` among plain
asserts, a new ``def test_...`` function (``with pytest.raises(...)`` for an exception) among pytest-style tests, a
``self.assertEqual`` / ``with self.assertRaises`` method in the unittest.TestCase class, or one more assert inside a
HumanEval ``check(candidate)``. The test is built as a syntax tree and unparsed, inserted without touching the
person's own lines, and the whole file is parsed again: the sandbox must read exactly one more test (or the same
check) in the same shape, or nothing is written.
"""

from __future__ import annotations

import ast
import re
from dataclasses import dataclass

from agent.inputs import BadInput
from agent.loop.asserted_calls import OBSERVERS
from agent.loop.constant_values import CALENDAR, calendar_names
from sandbox.inside.shapes import count_tests, detect_shape, is_test_case, test_styles
from sandbox.locked_parse import parse

STYLES = ("asserts", "pytest", "unittest", "check")


@dataclass(frozen=True)
class WrittenTest:
    """The test written for a row: the tests' style, the test as inserted, and the whole tests with it."""

    style: str  # one of STYLES
    test: str  # the lines inserted, as they stand in tests (a method keeps its indentation)
    tests: str


def _module(tests: str) -> ast.Module:
    try:
        return parse(tests)
    except SyntaxError as exc:
        raise BadInput(f"the tests do not parse ({exc.msg}, line {exc.lineno}): fix them before adding one") from exc


def style_of_tests(tests: str) -> str:
    """How these tests are written: ``check`` (a HumanEval check(candidate)), ``pytest`` (test_* functions),
    ``unittest`` (a unittest.TestCase class and no test function outside it) or ``asserts`` (plain asserts)."""
    return _style(_module(tests))


def _style(module: ast.Module) -> str:
    shape = detect_shape(module)
    if shape != "pytest":
        return shape
    functions, cases = test_styles(module)
    return "unittest" if cases and not functions else "pytest"


def _expression(source: str, what: str) -> ast.expr:
    try:
        return parse(source.strip(), mode="eval").body
    except SyntaxError as exc:
        raise BadInput(f"{what} `{source.strip()}` is not a Python expression ({exc.msg})") from exc


def _value(source: str) -> ast.expr:
    """The expected value's syntax tree; a bare name is refused, as it is almost always an unquoted string."""
    if not source.strip():
        raise BadInput("type the value the call should return, as Python (a string in quotes)")
    value = _expression(source, "the expected value")
    if isinstance(value, ast.Name):
        raise BadInput(f"`{value.id}` is a name, not a value: write a string in quotes ('{value.id}')")
    return value


def _exception(source: str) -> ast.expr:
    """The exception type's syntax tree: a name such as ValueError, or a dotted one (json.JSONDecodeError)."""
    exception = _expression(source, "the exception type") if source.strip() else None
    node = exception
    while isinstance(node, ast.Attribute):
        node = node.value
    if exception is None or not isinstance(node, ast.Name):
        raise BadInput("type the exception's type, such as ValueError")
    return exception


def _call(call: str) -> ast.Call:
    node = _expression(call, "the call")
    if not isinstance(node, ast.Call) or not isinstance(node.func, ast.Name):
        raise BadInput(f"`{call}` is not a call of a function by its name")
    return node


def _called(call: ast.Call) -> ast.Call:
    """The function's own call inside the observers a check reads it through (f(x) in ``sorted(f(x))``)."""
    while call.func.id in OBSERVERS and call.args and isinstance(call.args[0], ast.Call) and isinstance(
            call.args[0].func, ast.Name):
        call = call.args[0]
    return call


def _test_name(call: ast.Call, raises: bool, taken: set[str]) -> str:
    """test_<function>_<its arguments>, as a name: test_add_0_minus_1, test_count_vowels_empty; unique in the file."""
    arguments = ", ".join(ast.unparse(a) for a in call.args)
    slug = re.sub(r"[^0-9a-zA-Z]+", "_", arguments.replace("-", " minus ")).strip("_").lower()[:40].rstrip("_")
    name = f"test_{call.func.id}_{slug or 'empty'}" + ("_raises" if raises else "")
    unique, n = name, 2
    while unique in taken:
        unique, n = f"{name}_{n}", n + 1
    return unique


def _raises_plainly(call: ast.Call, exception: ast.expr) -> ast.Try:
    """try: f(x) / except E: assert True / else: assert False, "...": one statement that runs an assert either way
    (a plain-assert test in which no assert ran checks nothing, and the sandbox says so)."""
    message = f"{ast.unparse(call)} should raise {ast.unparse(exception)}"
    return ast.Try(body=[ast.Expr(call)],
                   handlers=[ast.ExceptHandler(type=exception, name=None, body=[ast.Assert(ast.Constant(True))])],
                   orelse=[ast.Assert(ast.Constant(False), ast.Constant(message))], finalbody=[])


def _function(name: str, params: list[str], body: list[ast.stmt]) -> ast.FunctionDef:
    arguments = ast.arguments(posonlyargs=[], args=[ast.arg(p) for p in params], kwonlyargs=[], kw_defaults=[],
                              defaults=[])
    return ast.FunctionDef(name=name, args=arguments, body=body, decorator_list=[], returns=None, type_params=[])


def _method_call(owner: str, method: str, args: list[ast.expr]) -> ast.Call:
    return ast.Call(ast.Attribute(ast.Name(owner), method), args, [])


def _truth(call: ast.Call, value: ast.expr | None) -> tuple[ast.expr, bool] | None:
    """(what is tested, True or False) when the test says only whether a result is true: ``bool(f(x))`` returning
    True or False, read through bool as a bare ``assert f(x)`` reads it, and written as people write that."""
    if (isinstance(value, ast.Constant) and type(value.value) is bool and call.func.id == "bool" and len(call.args) == 1
            and not call.keywords):
        return call.args[0], value.value
    return None


def _statement(style: str, call: ast.Call, value: ast.expr | None, exception: ast.expr | None, name: str,
               pytest_name: str) -> ast.stmt:
    """The test as one statement of the style's own: an assert, a test function, or a TestCase method."""
    truth = _truth(call, value) if exception is None else None
    if style == "unittest":
        if exception is not None:
            body = [ast.With([ast.withitem(_method_call("self", "assertRaises", [exception]))], [ast.Expr(call)])]
        elif truth is not None:
            body = [ast.Expr(_method_call("self", "assertTrue" if truth[1] else "assertFalse", [truth[0]]))]
        else:
            body = [ast.Expr(_method_call("self", "assertEqual", [call, value]))]
        return _function(name, ["self"], body)
    check = (ast.Assert(truth[0] if truth[1] else ast.UnaryOp(ast.Not(), truth[0])) if truth is not None
             else ast.Assert(ast.Compare(call, [ast.Eq()], [value])))
    if style == "pytest":
        if exception is not None:
            body = [ast.With([ast.withitem(_method_call(pytest_name, "raises", [exception]))], [ast.Expr(call)])]
        else:
            body = [check]
        return _function(name, [], body)
    if exception is not None:
        return _raises_plainly(call, exception)
    return check


def _argument_test(style: str, call: ast.Call, place: int, value: ast.expr, module: ast.Module,
                   name: str) -> list[ast.stmt]:
    """The statements of a test that an argument holds value after the call: it is given a name of its own, the call
    is made with that name, and the name is compared (``argument = {...}`` / ``f(argument, 2)`` / ``assert argument ==
    {...}``); as plain statements among plain asserts or in a check, else in the style's test function or method."""
    taken = {n.id for n in ast.walk(module) if isinstance(n, ast.Name)}
    variable, n = "argument", 2
    while variable in taken:
        variable, n = f"argument_{n}", n + 1
    given = call.args[place]
    call.args[place] = ast.Name(variable)
    compare = (ast.Expr(_method_call("self", "assertEqual", [ast.Name(variable), value])) if style == "unittest"
               else ast.Assert(ast.Compare(ast.Name(variable), [ast.Eq()], [value])))
    body = [ast.Assign([ast.Name(variable, ast.Store())], given), ast.Expr(call), compare]
    if style == "unittest":
        return [_function(name, ["self"], body)]
    return [_function(name, [], body)] if style == "pytest" else body


def _indented(source: str, indent: int) -> list[str]:
    return [(" " * indent + line) if line else line for line in source.splitlines()]


def _pytest_import(module: ast.Module) -> str | None:
    """The name the tests import pytest by, or None when they do not."""
    for node in module.body:
        if isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name == "pytest":
                    return alias.asname or "pytest"
    return None


def _import_line(module: ast.Module) -> int:
    """Where an import goes: after the tests' last top-level import, else after a module docstring, else first."""
    imports = [n for n in module.body if isinstance(n, (ast.Import, ast.ImportFrom))]
    if imports:
        return imports[-1].end_lineno
    first = module.body[0] if module.body else None
    docstring = isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant) and isinstance(
        first.value.value, str)
    return first.end_lineno if docstring else 0


def _calendar_as_written(statements: list[ast.stmt], module: ast.Module) -> list[str]:
    """Dates as the person's tests write them: a probe writes one as its repr, ``datetime.date(2024, 3, 4)``. Where the
    tests import the module (``import datetime as dt``: ``dt.date(...)``) or read ``datetime`` without binding it (the
    code's import, which the tests share), it stays the module's; where they take ``date`` from datetime (``from
    datetime import date``) it becomes ``date(2024, 3, 4)``; where ``date`` is free, ``from datetime import date`` is
    added, else ``import datetime`` (or, where ``datetime`` is taken too, under a name of its own). Changes statements
    in place; returns the import lines to add."""
    imported, bound_otherwise, shared = calendar_names(module)
    other = bound_otherwise | shared
    module_name = next((name for name, kind in imported.items() if kind == "module"), None)
    if module_name is None and "datetime" in shared and any(
            isinstance(n, ast.Attribute) and isinstance(n.value, ast.Name) and n.value.id == "datetime"
            and n.attr in CALENDAR for n in ast.walk(module)):
        module_name = "datetime"  # the code's `import datetime`, which the tests share and read as the module
    added: list[str] = []
    for node in (n for statement in statements for n in ast.walk(statement)):
        func = node.func if isinstance(node, ast.Call) else None
        if not (isinstance(func, ast.Attribute) and isinstance(func.value, ast.Name) and func.value.id == "datetime"
                and func.attr in CALENDAR):
            continue
        if module_name is not None:
            func.value = ast.Name(module_name, ast.Load())
            continue
        by = next((name for name, kind in imported.items() if kind == func.attr), None)
        taken = set(imported) | other
        if by is None and func.attr not in taken:
            by = func.attr
            added.append(f"from datetime import {by}")
            imported[by] = func.attr
        if by is not None:
            node.func = ast.Name(by, ast.Load())
            continue
        module_name = "datetime" if "datetime" not in taken else next(
            f"datetime_{i}" for i in range(1, 100) if f"datetime_{i}" not in taken)
        added.append("import datetime" if module_name == "datetime" else f"import datetime as {module_name}")
        imported[module_name] = "module"
        func.value = ast.Name(module_name, ast.Load())
    return added


def _place(module: ast.Module, style: str, lines: list[str]) -> tuple[int, int]:
    """(the line after which the test goes, its indentation): the end of the TestCase class or of check's body, else
    the end of the file."""
    if style in ("unittest", "check"):
        owner = [n for n in module.body if (isinstance(n, ast.ClassDef) and is_test_case(n)) or (
            isinstance(n, ast.FunctionDef) and n.name == "check")][-1]
        return owner.end_lineno, owner.body[0].col_offset
    return len(lines), 0


def write_test(tests: str, call: str, *, returns: str | None = None, raises: str | None = None,
               argument: int | None = None) -> WrittenTest:
    """tests with one more test: that call (``add(0, 0)``, or one read through a check's observer: ``sorted(f(x))``)
    returns the value whose Python source is returns, or raises the exception type named by raises; written in the
    tests' own style (style_of_tests). With argument (the place of one of the call's arguments), the test says that
    argument holds the value returns after the call: it is named, the call made with it, and the name compared (an
    answer must leave the dict it is given as it was, or change it so). Raises BadInput, saying what to fix, for a
    value or type that is not Python, or tests that do not parse."""
    if (returns is None) == (raises is None):
        raise ValueError("a test says either what the call returns or what it raises")
    if argument is not None and raises is not None:
        raise BadInput("an argument holds a value after the call: type the value it should hold, not an exception")
    module = _module(tests)
    style = _style(module)
    called = _call(call)
    value = _value(returns) if returns is not None else None
    exception = _exception(raises) if raises is not None else None
    calendar_imports = _calendar_as_written([ast.Expr(n) for n in (called, value) if n is not None], module)
    taken = {n.name for n in ast.walk(module) if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef))}
    name = _test_name(_called(called), exception is not None, taken)
    if argument is not None and not 0 <= argument < len(called.args):
        raise BadInput(f"`{call}` has no argument {argument + 1} to read after the call")
    if style == "check":  # check(candidate) calls the function by its parameter's name
        check = next(n for n in module.body if isinstance(n, ast.FunctionDef) and n.name == "check")
        _called(called).func = ast.Name(check.args.args[0].arg)
    lines = tests.rstrip("\n").splitlines()
    pytest_name = _pytest_import(module)
    needs_pytest = style == "pytest" and exception is not None and pytest_name is None
    if argument is not None:
        statements = _argument_test(style, called, argument, value, module, f"{name}_argument_{argument + 1}")
    else:
        statements = [_statement(style, called, value, exception, name, pytest_name or "pytest")]
    imports = calendar_imports + (["import pytest"] if needs_pytest else [])
    after, indent = _place(module, style, lines)
    test = _indented(ast.unparse(ast.fix_missing_locations(ast.Module(statements, []))), indent)
    gap = [""] if style == "unittest" else ["", ""] if style == "pytest" else []
    lines[after:after] = gap + test
    if imports:
        at = _import_line(module)
        lines[at:at] = imports + (["", ""] if at == 0 else [])
    written = "\n".join(lines) + "\n"
    _check_written(module, written, style)
    return WrittenTest(style, "\n".join(test), written)


def _check_written(before: ast.Module, after: str, style: str) -> None:
    """The written tests parse, keep their style, and hold one more test (a check stays one)."""
    try:
        module = parse(after)
    except SyntaxError as exc:  # not expected: the test is unparsed from a syntax tree
        raise BadInput(f"the test could not be written into these tests ({exc.msg})") from exc
    more = 0 if style == "check" else 1
    if _style(module) != style or count_tests(module, detect_shape(module)) != count_tests(
            before, detect_shape(before)) + more:
        raise BadInput("the test could not be written into these tests in their own style")
