"""Checks of what a person brings before any model time: the task, the tests, the entry point, what they import.

A solve that cannot succeed whatever the model writes is refused here, with a message that says what to fix:
an empty or non-Python task, tests that do not parse or hold a check that never runs, an entry point the tests never
call, tests that import a module the sandbox does not offer, search settings that cannot run (validate_solve). The
entry point, when none is given, is inferred from the tests and the task (see infer_entry_point), so a task typed in
words needs none.
"""

from __future__ import annotations

import ast
import builtins
import re
from collections import Counter
from dataclasses import dataclass

from agent.config import Search
from sandbox import (
    check_tests,
    checks_never_run,
    fixtures_lacking,
    missing_imports,
    module_offered,
    packages_offered,
    unsupported_in,
)
from sandbox.inside.names import reads_and_binds
from sandbox.inside.shapes import (
    collected_class,
    detect_shape,
    holds_assert,
    module_under_test,
    raises_check,
    raising_helpers,
)
from sandbox.locked_parse import parse

_OTHER_LANGUAGE = re.compile(
    r"\b(?:in|using|with|write)\s+(?:a\s+|an\s+)?(javascript|typescript|java|c\+\+|c#|rust|golang|go|ruby|php|"
    r"kotlin|swift|scala|haskell|perl|bash|sql)\b(?!\s*-?style)",
    re.IGNORECASE,
)
_BUILTINS = frozenset(dir(builtins))
_NAME_IN_WORDS = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
# main(argv=None) of "main(argv=None) counts", not sys.exit(...): a name and what its brackets hold
_CALL_IN_WORDS = re.compile(r"(?<![\w.])([A-Za-z_][A-Za-z0-9_]*)\(([^()]*)\)")


class BadInput(ValueError):
    """The task or tests cannot start a solve; the message says what to fix."""


class EnvironmentProblem(BadInput):
    """The tests need what the sandbox does not offer (a package): no model can fix it; the message says what to do."""


class UnsupportedTests(EnvironmentProblem):
    """The tests' text does what the sandbox cannot run as one process would (sandbox.unsupported_in): no model can
    fix it; the message says where and why. Its status is ``unsupported``, apart from the other environment errors."""


@dataclass(frozen=True)
class EntryPointUse:
    """The function the tests call, as a solve will use it, and where that name came from."""

    name: str | None
    how: str  # typed | inferred (from the tests' calls) | named (by the task's words: the tests call none) | none
    words: str  # one line for a person: "second_largest (inferred: the function the tests call)"


def offered_words() -> str:
    """What code and tests may import in the sandbox, in words."""
    packages = packages_offered()
    return "the standard library" + (f" and {', '.join(packages)}" if packages else "")


def _defined_names(module: ast.Module) -> set[str]:
    """Names the tests define or import themselves (helpers, fixtures, aliases): never the entry point."""
    return reads_and_binds(module, frozenset())[1]


def _test_units(module: ast.Module) -> list[ast.AST]:
    """The tests as the sandbox counts them: each top-level statement holding an assert or raising under a condition,
    or each test_* function (methods included)."""
    shape = detect_shape(module)
    if shape == "pytest":
        units: list[ast.AST] = []
        for node in module.body:
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and node.name.startswith("test"):
                units.append(node)
            elif isinstance(node, ast.ClassDef) and collected_class(node):
                units += [n for n in node.body if isinstance(n, ast.FunctionDef) and n.name.startswith("test")]
        return units
    helpers = raising_helpers(module)
    return [stmt for stmt in module.body if holds_assert(stmt) or raises_check(stmt, helpers)]


def _called(unit: ast.AST, own: set[str]) -> set[str]:
    """Functions a test calls by a bare name that the tests do not define and Python does not build in."""
    return {n.func.id for n in ast.walk(unit) if isinstance(n, ast.Call) and isinstance(n.func, ast.Name)
            and n.func.id not in own and n.func.id not in _BUILTINS}


def _mentioned(module: ast.AST) -> set[str]:
    """Every bare name the tests read: a call, or a reference such as callable(f)."""
    return {n.id for n in ast.walk(module) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load)}


def _functions_to_write(task: str) -> list[str]:
    """For a task written as Python: its functions whose body is missing (a docstring, pass, ..., imports), in order;
    a function the task already implements is a helper the tests do not target."""
    try:
        module = parse(task.strip())
    except SyntaxError:
        return []
    open_defs = []
    for node in module.body:
        if not isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            continue
        body = [s for s in node.body if not (isinstance(s, ast.Expr) and isinstance(s.value, ast.Constant))]
        if all(isinstance(s, (ast.Pass, ast.Import, ast.ImportFrom)) for s in body):
            open_defs.append(node.name)
    return open_defs


def _task_names(task: str) -> list[str]:
    """The names a task offers as the function to write: its open defs when it is Python, else the words
    that look like identifiers, in order."""
    open_defs = _functions_to_write(task)
    return open_defs or list(dict.fromkeys(_NAME_IN_WORDS.findall(task)))


class _CodeModuleAsNames(ast.NodeTransformer):
    """The tests as if the code's names were theirs (as the sandbox gives them): ``from calculator import add`` gone,
    ``calculator.add(...)`` read as ``add(...)``."""

    def __init__(self, name: str) -> None:
        self.name = name

    def visit_ImportFrom(self, node: ast.ImportFrom) -> ast.AST | None:
        return None if node.module == self.name and not node.level else node

    def visit_Attribute(self, node: ast.Attribute) -> ast.AST:
        if isinstance(node.value, ast.Name) and node.value.id == self.name:
            return ast.copy_location(ast.Name(node.attr, node.ctx), node)
        return self.generic_visit(node)


def _parse_tests(tests: str) -> ast.Module:
    """The tests' syntax tree, with the code's module (when they import it by a name, sandbox.module_under_test)
    read as the code's own names."""
    module = parse(tests)
    name = module_under_test(module, module_offered)
    return _CodeModuleAsNames(name).visit(module) if name else module


def infer_entry_point(task: str, tests: str) -> str | None:
    """The function the tests exercise, or None when it cannot be told.

    1. The functions the tests call by name (not their own helpers, not builtins), counted over the tests:
       the names every test calls come first; tests that call none may still name one (``callable(f)``).
    2. Among them, one the task names (a function left to write in a Python task, or a word of a task in words);
       with none named, the one name every test calls.
    3. Tests in HumanEval's ``check(candidate)`` shape call no name: the task's one function left to write.
    4. Tests that run the code as a program (runpy) call none either: the function the task's words write with its
       parameters (``main(argv=None)``), main first (_named_in_words).
    """
    return _inferred(task, tests)[0]


def _inferred(task: str, tests: str) -> tuple[str | None, str]:
    """infer_entry_point's name, and "inferred" (from the tests' calls), "named" (by the task's words, rule 4) or
    "none"."""
    try:
        module = _parse_tests(tests)
    except SyntaxError:
        return None, "none"
    named = _task_names(task)
    if detect_shape(module) == "check":
        open_defs = _functions_to_write(task)
        return (open_defs[-1], "inferred") if open_defs else (None, "none")
    own = _defined_names(module)
    units = _test_units(module)
    counts = Counter(name for unit in units for name in _called(unit, own))
    if not counts:  # no call, but maybe a reference, as in `assert callable(f)`
        counts = Counter(name for unit in units for name in _mentioned(unit) - own - _BUILTINS)
    if not counts:
        in_words = _named_in_words(task, module)
        return (in_words, "named") if in_words else (None, "none")
    in_every = [name for name, n in counts.items() if n == len(units)]
    for pool in (in_every, list(counts)):
        in_task = [name for name in named if name in pool]
        if in_task:
            # A Python task's last open def is the one to write (helpers come first); in words, the first named.
            name = in_task[-1] if _functions_to_write(task) else max(in_task, key=lambda n: counts[n])
            return name, "inferred"
    return (in_every[0], "inferred") if len(in_every) == 1 else (None, "none")


def _named_in_words(task: str, module: ast.Module) -> str | None:
    """For tests that run the code as a program (runpy.run_module, run_path): the function the task's words write
    with its parameters, empty or with a default or a comma (``main(argv=None)``, ``main()``), main first; not
    ``O(n)`` (no function: one capital), ``word(s)`` (no parameters' shape), or a builtin (``print(x)``)."""
    if not any(isinstance(node, ast.Call) and (getattr(node.func, "attr", None) or getattr(node.func, "id", None))
               in ("run_module", "run_path") for node in ast.walk(module)):
        return None
    found = []
    for name, inside in _CALL_IN_WORDS.findall(task):
        parameters_shape = not inside.strip() or "=" in inside or "," in inside
        if len(name) < 2 or name.isupper() or name in _BUILTINS or not parameters_shape:
            continue
        try:
            parse(f"def {name}({inside}):\n    pass\n")
        except SyntaxError:
            continue
        found.append(name)
    return "main" if "main" in found else found[0] if len(set(found)) == 1 else None


def resolve_entry_point(task: str, tests: str, typed: str | None) -> EntryPointUse:
    """The entry point a solve will use: the typed one, checked against the tests, else the inferred one.

    Raises BadInput when a typed name is not a Python name, or the tests never call or mention it."""
    typed = (typed or "").strip() or None
    inferred, how = _inferred(task, tests)
    named = how == "named"  # tests that run the code as a program call no function: the task's words named it
    if typed is None:
        if inferred is None:
            return EntryPointUse(None, "none", "none: the tests call no function of the code by name")
        if named:
            return EntryPointUse(inferred, "named", f"{inferred} (named by the task; the tests call no function)")
        return EntryPointUse(inferred, "inferred", f"{inferred} (inferred: the function the tests call)")
    if not typed.isidentifier():
        raise BadInput(f"the entry point {typed!r} is not a valid Python name")
    try:
        module = _parse_tests(tests)
    except SyntaxError:
        return EntryPointUse(typed, "typed", f"{typed} (typed)")
    if detect_shape(module) != "check" and typed not in _mentioned(module) and not (named and typed == inferred):
        called = sorted(set().union(*(_called(u, _defined_names(module)) for u in _test_units(module))))
        calls = (f"the tests call no function by name (the task names `{inferred}`)" if named else
                 f"the tests call `{inferred}`" if inferred else
                 f"the tests call {', '.join(f'`{c}`' for c in called)}" if called else
                 "the tests call no function by name")
        raise BadInput(f"{calls}; the entry point says `{typed}`. Clear the entry point to use "
                       f"{'`' + inferred + '`' if inferred else 'what the tests call'}, or fix the tests.")
    return EntryPointUse(typed, "typed", f"{typed} (typed)")


def tests_lack(names: list[str]) -> str:
    """The message for tests that import modules the sandbox does not offer."""
    return (f"the tests import {', '.join(dict.fromkeys(names))}, which the sandbox does not offer (it offers "
            f"{offered_words()}); no code the model writes can fix that. Add the package to SANDBOX_PACKAGES (and "
            "install it), or change the tests.")


def check_test_imports(tests: str) -> None:
    """Raise EnvironmentProblem when the tests import a module the sandbox does not offer, or ask for a fixture
    nobody gives (a plugin's mocker), and UnsupportedTests when their text does what the sandbox cannot run as one
    process would: no answer can pass them."""
    missing = missing_imports(tests)
    if missing:
        raise EnvironmentProblem(tests_lack(missing))
    lacking = fixtures_lacking(tests)
    if lacking:
        raise EnvironmentProblem(lacking)
    beyond = unsupported_in(tests)
    if beyond:
        raise UnsupportedTests(unsupported_words(beyond))


def unsupported_words(places: list[str]) -> str:
    """The message for tests that do what the sandbox cannot run as one process would, at places ("line N: why")."""
    more = f" (and {len(places) - 1} more place{'s' if len(places) > 2 else ''})" if len(places) > 1 else ""
    return (f"the tests do what the sandbox cannot run as one process would, at {places[0]}{more}. No code the model "
            "writes can change that, and the sandbox would not judge that test: change it, or run it outside the "
            "sandbox.")


def validate_input(task: str, tests: str, entry_point: str | None = None) -> EntryPointUse:
    """Check a task and its tests before any model time; return the entry point the solve will use.

    Raises BadInput for an empty or non-Python task, tests that are empty, do not parse or hold a check that never
    runs (sandbox.checks_never_run), or an entry point the tests never call; EnvironmentProblem for tests that import
    what the sandbox does not offer, UnsupportedTests (one of those) for tests that do what it cannot run as one
    process would."""
    if not task or not task.strip():
        raise BadInput("the task is empty: describe the function to write")
    other = _OTHER_LANGUAGE.search(task)
    if other:
        raise BadInput(f"the task asks for {other.group(1)}; this agent writes and tests Python only")
    problem = check_tests(tests or "")
    if problem:
        raise BadInput(problem)
    never = checks_never_run(tests)
    if never:  # a check the person wrote that would never run: they meant it to, and no answer can change that
        raise BadInput(f"the tests hold a check that never runs: {never[0]}"
                       + (f" (and {len(never) - 1} more)" if len(never) > 1 else ""))
    use = resolve_entry_point(task, tests, entry_point)
    check_test_imports(tests)
    return use


def validate_solve(task: str, tests: str, entry_point: str | None, search: Search) -> EntryPointUse:
    """Check everything a solve starts from: the input (validate_input), then the search settings it runs with.

    Raises BadInput (or EnvironmentProblem) with what to fix; returns the entry point the solve will use."""
    use = validate_input(task, tests, entry_point)
    problem = search.problem()
    if problem:
        raise BadInput(problem)
    return use
