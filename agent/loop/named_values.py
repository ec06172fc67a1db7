"""Values a test file names before it uses them: an input bound to a name and passed by it (``items = [3, 1, 2]``,
then ``assert total(items) == 6``), a result bound to a name that a check reads (``result = total([3, 1, 2])``,
then ``assert result == 6``), and the cases of a pytest function's parametrize mark (``@pytest.mark.parametrize(
"items", [[3, 1, 2], []])`` over ``def test_total(items)``: one call each). People write tests so; read through
literals alone, such a test showed no example to probe, and a pass on it was never doubted.

A name is read only where nothing can change it in between: bound once in the whole file, by one plain assignment
(of a literal, or of a value built from literals: agent.loop.constant_values, for an input; of one call of the
function, for a result), before it is read, and read nowhere else than where it stands for that value (an argument
of the function's calls; a check). A pytest fixture that returns such a value stands for it in a test function
that asks for it and passes it once (pytest makes it anew for each test). A name a loop, an import or a second
assignment binds is not read. Nothing is run.
"""

from __future__ import annotations

import ast
import copy
import itertools
import re
from collections.abc import Callable
from typing import NamedTuple

from agent.loop.constant_values import constant


def _bound_names(module: ast.Module) -> dict[str, list[ast.AST]]:
    """Every place the file binds each name: assignments and other stores, deletions, parameters, imports, the names
    of functions and classes, exception handlers and match captures."""
    bound: dict[str, list[ast.AST]] = {}
    for node in ast.walk(module):
        names: list[str] = []
        if isinstance(node, ast.Name) and not isinstance(node.ctx, ast.Load):
            names = [node.id]
        elif isinstance(node, ast.arg):
            names = [node.arg]
        elif isinstance(node, ast.alias):
            names = [(node.asname or node.name).split(".")[0]]
        elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            names = [node.name]
        elif isinstance(node, (ast.ExceptHandler, ast.MatchAs, ast.MatchStar)) and node.name:
            names = [node.name]
        elif isinstance(node, (ast.Global, ast.Nonlocal)):
            names = list(node.names)
        for name in names:
            bound.setdefault(name, []).append(node)
    return bound


def _single_assignment(name: str, bound: dict[str, list[ast.AST]], parents: dict[int, ast.AST]) -> ast.expr | None:
    """The value of the one plain assignment that binds name in the file (``name = value`` or ``name: T = value``),
    or None when anything else binds it too."""
    sites = bound.get(name, [])
    if len(sites) != 1 or not isinstance(sites[0], ast.Name):
        return None
    statement = parents.get(id(sites[0]))
    if isinstance(statement, ast.Assign) and statement.targets == [sites[0]]:
        return statement.value
    if isinstance(statement, ast.AnnAssign) and statement.target is sites[0] and statement.value is not None:
        return statement.value
    return None


def _dotted(node: ast.expr) -> list[str]:
    """The names of a dotted name, outermost first (pytest.mark.parametrize: pytest, mark, parametrize); [] for
    anything else."""
    parts: list[str] = []
    while isinstance(node, ast.Attribute):
        parts.insert(0, node.attr)
        node = node.value
    return [node.id, *parts] if isinstance(node, ast.Name) else []


def _is_fixture(decorator: ast.expr, names: FileNames) -> bool:
    """Whether a decorator makes a function-scoped pytest fixture: @pytest.fixture, or @fixture where the file binds
    fixture by importing it from pytest alone, either called with no argument but scope="function" (another scope
    shares one value between tests, which one may change; params= and name= give others)."""
    call = decorator if isinstance(decorator, ast.Call) else None
    dotted = _dotted(call.func if call else decorator)
    sites = names.bound.get("fixture", [])
    statement = names.parents.get(id(sites[0])) if len(sites) == 1 and isinstance(sites[0], ast.alias) else None
    named = dotted == ["pytest", "fixture"] or (
        dotted == ["fixture"] and isinstance(statement, ast.ImportFrom) and statement.module == "pytest")
    return named and (call is None or (not call.args and all(
        k.arg == "scope" and isinstance(k.value, ast.Constant) and k.value.value == "function" for k in call.keywords)))


def _asks_for(site: ast.arg, function: ast.AST, names: FileNames) -> bool:
    """Whether pytest fills a test's parameter with the fixture of its name: a test function (test_*, at module
    level or in a module-level class Test* of no base, which could hold another fixture of that name) marked by
    pytest.mark alone (mock.patch, hypothesis's given fill parameters too; a fixture may be named test_*), the
    parameter without a default, not *args or **kwargs."""
    if not isinstance(function, (ast.FunctionDef, ast.AsyncFunctionDef)) or not function.name.startswith("test"):
        return False
    params = function.args
    filled = params.args[:len(params.args) - len(params.defaults)] + [
        a for a, d in zip(params.kwonlyargs, params.kw_defaults) if d is None]
    if not any(site is a for a in filled) or not all("mark" in _dotted(d.func if isinstance(d, ast.Call) else d)
                                                       for d in function.decorator_list):
        return False
    holder = names.parents.get(id(function))
    return isinstance(holder, ast.Module) or (
        isinstance(holder, ast.ClassDef) and holder.name.startswith("Test") and not holder.bases
        and not holder.keywords and isinstance(names.parents.get(id(holder)), ast.Module))


def _fixture_value(name: str, function: ast.AST | None, names: FileNames) -> ast.expr | None:
    """The value a pytest fixture of that name returns, for a test that asks for it: where the file binds the name by
    that fixture alone (a module-level function, function-scoped, of no parameters, whose body returns one value)
    and by parameters that tests ask for it by (_asks_for: no other fixture receives it and changes it first), one
    of them the given function's, and no text of the file names it (name=, getfixturevalue, usefixtures, a
    parametrize mark that overrides it). A conftest.py the file does not show could override it too: the Playground
    runs the tests box alone, where there is none."""
    sites = names.bound.get(name, [])
    fixtures = [s for s in sites if isinstance(s, ast.FunctionDef)]
    asking = [(s, names.parents.get(id(names.parents.get(id(s))))) for s in sites if isinstance(s, ast.arg)]
    if (len(fixtures) != 1 or len(fixtures) + len(asking) != len(sites) or function not in [f for _, f in asking]
            or not all(_asks_for(s, f, names) for s, f in asking) or name in names.words):
        return None
    fixture = fixtures[0]
    params = fixture.args
    if (not isinstance(names.parents.get(id(fixture)), ast.Module) or len(fixture.decorator_list) != 1
            or not _is_fixture(fixture.decorator_list[0], names)
            or params.posonlyargs or params.args or params.kwonlyargs or params.vararg or params.kwarg):
        return None
    body = fixture.body[1:] if ast.get_docstring(fixture) is not None else fixture.body
    if len(body) != 1 or not isinstance(body[0], ast.Return) or body[0].value is None:
        return None
    return body[0].value


def _loads(module: ast.Module) -> dict[str, list[ast.Name]]:
    loads: dict[str, list[ast.Name]] = {}
    for node in ast.walk(module):
        if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Load):
            loads.setdefault(node.id, []).append(node)
    return loads


class FileNames(NamedTuple):
    """Where a test file binds each name (_bound_names) and reads it (_loads), and each node's parent: walked once
    for all the file's calls."""

    bound: dict[str, list[ast.AST]]
    loads: dict[str, list[ast.Name]]
    parents: dict[int, ast.AST]
    words: frozenset[str]  # the words of the file's texts: a fixture a text names may be given otherwise


def file_names(module: ast.Module) -> FileNames:
    """The FileNames of a parsed test file."""
    parents = {id(child): node for node in ast.walk(module) for child in ast.iter_child_nodes(node)}
    words = frozenset(w for node in ast.walk(module) if isinstance(node, ast.Constant) and isinstance(node.value, str)
                      for w in re.findall(r"\w+", node.value))
    return FileNames(_bound_names(module), _loads(module), parents, words)


def _passed_once(uses: list[ast.Name], parents: dict[int, ast.AST], is_function: Callable[[ast.Call], bool]) -> bool:
    """Whether a name is read once, as an argument of a call of the function (by place or by keyword)."""
    parent = parents.get(id(uses[0])) if len(uses) == 1 else None
    if isinstance(parent, ast.keyword):
        parent = parents.get(id(parent))
    return isinstance(parent, ast.Call) and is_function(parent)


def _before(value: ast.AST, node: ast.AST) -> bool:
    return (value.end_lineno or value.lineno, value.end_col_offset or 0) <= (node.lineno, node.col_offset)


MAX_CASES = 20  # the cases of a parametrized test read as calls, of its marks' product


def _is_parametrize(decorator: ast.expr) -> bool:
    func = decorator.func if isinstance(decorator, ast.Call) else None
    return isinstance(func, (ast.Attribute, ast.Name)) and (
        func.attr if isinstance(func, ast.Attribute) else func.id) == "parametrize"


def _mark_cases(mark: ast.Call) -> list[dict[str, ast.expr]] | None:
    """The cases of one parametrize mark, each {parameter: value node}; None when it is not read (names or values
    not written out, a case of another length, a pytest.param)."""
    if len(mark.args) < 2:
        return None
    names_node, values = mark.args[0], mark.args[1]
    if isinstance(names_node, ast.Constant) and isinstance(names_node.value, str):
        names = [n.strip() for n in names_node.value.split(",") if n.strip()]
    elif isinstance(names_node, (ast.List, ast.Tuple)) and all(
            isinstance(e, ast.Constant) and isinstance(e.value, str) for e in names_node.elts):
        names = [e.value for e in names_node.elts]
    else:
        return None
    if not names or not isinstance(values, (ast.List, ast.Tuple)):
        return None
    # One name written as a string takes each case whole; names written as a list or tuple, even one, take each case
    # as the sequence of their values (pytest's rule: ("b",) over [("x",)] gives b == "x").
    whole = isinstance(names_node, ast.Constant) and len(names) == 1
    cases = []
    for case in values.elts:
        parts = [case] if whole else case.elts if isinstance(case, (ast.Tuple, ast.List)) else None
        if parts is None or len(parts) != len(names) or any(isinstance(p, ast.Starred) for p in parts):
            return None
        cases.append(dict(zip(names, parts)))
    return cases


def _parametrized(function: ast.AST) -> list[dict[str, ast.expr]]:
    """The cases a test function's parametrize marks give, their product, up to MAX_CASES; [] when it has none or
    one is not read."""
    if not isinstance(function, (ast.FunctionDef, ast.AsyncFunctionDef)):
        return []
    marks = [_mark_cases(d) for d in function.decorator_list if _is_parametrize(d)]
    if not marks or any(m is None for m in marks):
        return []
    product = itertools.islice(itertools.product(*marks), MAX_CASES)
    return [{k: v for case in combination for k, v in case.items()} for combination in product]


def _enclosing_function(node: ast.AST, parents: dict[int, ast.AST]) -> ast.AST | None:
    while node is not None and not isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
        node = parents.get(id(node))
    return node


def _parametrized_cases(call: ast.Call, parents: dict[int, ast.AST],
                        is_function: Callable[[ast.Call], bool]) -> list[dict[str, ast.expr]]:
    """For a call inside a parametrized test function, the cases that give the parameters it passes (each name a
    parameter of the function bound nowhere else in it and read once, as an argument of the function's calls);
    [] otherwise."""
    function = _enclosing_function(call, parents)
    cases = _parametrized(function) if function is not None else []
    if not cases:
        return []
    passed = {a.id for a in [*call.args, *(k.value for k in call.keywords)] if isinstance(a, ast.Name)} & set(cases[0])
    if not passed:
        return []
    bound = _bound_names(function)
    loads = _loads(function)
    if any(len(bound.get(name, [])) != 1 or not _passed_once(loads.get(name, []), parents, is_function)
           for name in passed):
        return []
    return [{name: case[name] for name in passed} for case in cases if all(constant(case[n])[0] for n in passed)]


def _helper(name: str, bound: dict[str, list[ast.AST]]) -> ast.FunctionDef | None:
    """The tests' own helper of that name: a plain function (no decorator: no fixture, no mark) that pytest does not
    run itself (not test_*), bound by its def alone."""
    sites = bound.get(name, [])
    if len(sites) != 1 or not isinstance(sites[0], ast.FunctionDef):
        return None
    function = sites[0]
    return None if function.decorator_list or function.name.startswith("test") else function


def _parameters(function: ast.FunctionDef) -> list[str]:
    """The parameters a call may pass by place or by keyword, in order."""
    return [a.arg for a in [*function.args.posonlyargs, *function.args.args]]


def _calls_of(helper: ast.FunctionDef, names: FileNames) -> list[ast.Call]:
    """The file's calls of the helper by its name."""
    sites = names.loads.get(helper.name, [])
    return [caller for site in sites
            if isinstance(caller := names.parents.get(id(site)), ast.Call) and caller.func is site]


def _arguments_by_parameter(site: ast.Call, function: ast.FunctionDef) -> dict[str, ast.expr]:
    """What a call of the helper passes to each of its parameters (by place or by keyword); {} where a starred
    argument leaves it unknown."""
    if any(isinstance(a, ast.Starred) for a in site.args) or any(k.arg is None for k in site.keywords):
        return {}
    passed = dict(zip(_parameters(function), site.args))
    passed.update({k.arg: k.value for k in site.keywords})
    return passed


def _helper_cases(call: ast.Call, names: FileNames, is_function: Callable[[ast.Call], bool]
                  ) -> list[dict[str, ast.expr]]:
    """For a call inside a helper of the tests' that passes the helper's parameters (``def expect(xs, want): assert
    total(xs) == want``, called as ``expect([3, 1, 2], 6)``), the cases its calls in the file give: one for each
    call that passes literals there; [] otherwise. Each parameter passed must be bound nowhere else in the helper and
    read there once, as an argument of the function's calls."""
    bound, _, parents, _ = names
    function = _enclosing_function(call, parents)
    helper = _helper(function.name, bound) if isinstance(function, ast.FunctionDef) else None
    if helper is None:
        return []
    passed = {a.id for a in [*call.args, *(k.value for k in call.keywords)] if isinstance(a, ast.Name)} & set(
        _parameters(helper))
    inside_bound, inside_loads = _bound_names(helper), _loads(helper)
    if not passed or any(len(inside_bound.get(name, [])) != 1 or
                         not _passed_once(inside_loads.get(name, []), parents, is_function) for name in passed):
        return []
    cases = []
    for caller in _calls_of(helper, names):
        given = _arguments_by_parameter(caller, helper)
        if all(name in given and constant(given[name])[0] for name in passed):
            cases.append({name: given[name] for name in passed})
    return cases[:MAX_CASES]


def _substituted(call: ast.Call, values: dict[str, ast.expr]) -> ast.Call:
    """A copy of the call with each argument that is a name in values replaced by its value node."""
    named = copy.copy(call)
    named.args = [values.get(a.id, a) if isinstance(a, ast.Name) else a for a in call.args]
    named.keywords = [ast.keyword(k.arg, values[k.value.id]) if isinstance(k.value, ast.Name) and k.value.id in values
                      else k for k in call.keywords]
    return named


def with_named_inputs(calls: list[ast.Call], names: FileNames,
                      is_function: Callable[[ast.Call], bool]) -> list[list[ast.Call]]:
    """For each call, the calls it stands for: the call with the names it passes replaced by the literal value bound
    to them, where the name is bound once in the file by a plain assignment before the call and read only as an
    argument of the function's calls (no other code could change it between); one such call for each case of a
    parametrized test that gives the names it passes. [call] when none of its names qualifies."""
    bound, loads, parents, _ = names

    def value_of(name: ast.Name, call: ast.Call) -> ast.expr | None:
        value = _single_assignment(name.id, bound, parents)
        if value is None:
            # A fixture's value is made anew for each test: read once in the test that asks for it, it is the
            # call's own (the name may be read in other tests).
            function = _enclosing_function(call, parents)
            value = _fixture_value(name.id, function, names)
            if value is None or not constant(value)[0]:
                return None
            return value if _passed_once(_loads(function).get(name.id, []), parents, is_function) else None
        if not _before(value, call) or not constant(value)[0]:
            return None
        # Read anywhere but as a direct argument of the function (a method called on it, a loop over it, a check of
        # it after the call), the value may not be what the call was passed; and a second call of the function may
        # be passed what the first changed, so the name stands for the literal in one call only.
        return value if _passed_once(loads.get(name.id, []), parents, is_function) else None

    read: list[list[ast.Call]] = []
    for call in calls:
        passed = [a for a in [*call.args, *(k.value for k in call.keywords)] if isinstance(a, ast.Name)]
        values = {n.id: v for n in passed if (v := value_of(n, call)) is not None}
        named = _substituted(call, values) if values else call
        # the call itself: its place in the file
        cases = _parametrized_cases(call, parents, is_function) or _helper_cases(call, names, is_function)
        read.append([_substituted(named, case) for case in cases] or [named])
    return read


def named_results(names: FileNames, checked: set[int],
                  is_function: Callable[[ast.Call], bool]) -> list[tuple[ast.Call, ast.Name]]:
    """Calls of the function whose result the file binds to a name (``result = f(x)``) and checks by it: (the call,
    the name where a check first reads it). Only where the name is bound there alone and every read of it is inside
    a check and no method is called on it (``result.sort()`` would check another value than the call gave)."""
    bound, loads, parents, _ = names
    found: list[tuple[ast.Call, ast.Name]] = []
    for name, uses in loads.items():
        value = _single_assignment(name, bound, parents)
        if not (isinstance(value, ast.Call) and is_function(value)) or not uses:
            continue
        if all(id(u) in checked and _before(value, u) and not isinstance(parents.get(id(u)), ast.Attribute)
               for u in uses):
            found.append((value, min(uses, key=lambda u: (u.lineno, u.col_offset))))
    return found


def results_checked_by_helpers(names: FileNames, checked: set[int],
                               is_function: Callable[[ast.Call], bool]) -> list[tuple[ast.Call, ast.Name]]:
    """Calls of the function passed straight to a helper of the tests' that checks the parameter they reach
    (``def check_eq(got, want): if got != want: raise AssertionError(...)``, called as ``check_eq(total([3, 1, 2]),
    6)``): (the call, the parameter where the helper's check first reads it). Only where the helper binds the
    parameter nowhere else and reads it only inside its checks, none calling a method on it."""
    bound, loads, parents, _ = names
    found: list[tuple[ast.Call, ast.Name]] = []
    for name in loads:
        helper = _helper(name, bound)
        if helper is None:
            continue
        inside_bound, inside_loads = _bound_names(helper), _loads(helper)
        for caller in _calls_of(helper, names):
            for parameter, value in _arguments_by_parameter(caller, helper).items():
                reads = inside_loads.get(parameter, [])
                if not (isinstance(value, ast.Call) and is_function(value)) or len(
                        inside_bound.get(parameter, [])) != 1:
                    continue
                if reads and all(id(r) in checked and not isinstance(parents.get(id(r)), ast.Attribute)
                                 for r in reads):
                    found.append((value, min(reads, key=lambda r: (r.lineno, r.col_offset))))
    return found
