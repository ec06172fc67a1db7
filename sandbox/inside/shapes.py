"""Which of the three test shapes a test file has, and which module it imports the code under test from.

Stdlib only: imported inside the sandbox and on the host."""

from __future__ import annotations

import ast

# Inside the sandbox these modules import one another by bare name (the worker's folder is on sys.path); on the host
# they are the package sandbox.inside.
if __package__:
    from .names import reads_and_binds
    from .syntax_walk import walk
else:
    from names import reads_and_binds
    from syntax_walk import walk

# Well-known packages of PyPI: a test that imports one of them needs it, and is never importing the code under test
# by another name (the sandbox says what it offers instead).
KNOWN_PACKAGES = frozenset({
    "aiohttp", "attr", "attrs", "boto3", "bs4", "click", "cv2", "django", "fastapi", "flask", "httpx",
    "hypothesis", "jax", "matplotlib", "mock", "numpy", "pandas", "PIL", "psycopg2", "pydantic", "pymongo",
    "pytest_mock", "redis", "requests", "scipy", "seaborn", "selenium", "sklearn", "sqlalchemy", "sympy",
    "tensorflow", "torch", "yaml"})
_HARNESS = frozenset({"pytest", "solution"})


# pytest's fixtures the sandbox gives a test (sandbox/inside/pytest_standin/fixtures.py makes them).
BUILTIN_FIXTURES = ("capsys", "capfd", "capsysbinary", "capfdbinary", "tmp_path", "tmpdir", "tmp_path_factory",
                    "tmpdir_factory", "monkeypatch", "caplog", "recwarn", "request", "record_property", "pytestconfig")
# Fixtures of pytest plugins people use, and the plugin that gives each (for the message when a test asks for one).
PLUGIN_FIXTURES = {"mocker": "pytest-mock", "benchmark": "pytest-benchmark", "event_loop": "pytest-asyncio",
                   "httpserver": "pytest-httpserver", "client": "pytest-flask or pytest-django", "db": "pytest-django",
                   "settings": "pytest-django", "freezer": "pytest-freezegun", "faker": "Faker",
                   "snapshot": "syrupy", "requests_mock": "requests-mock", "datadir": "pytest-datadir"}


def missing_fixtures(module: ast.Module) -> list[str]:
    """The fixtures the test functions ask for that neither the sandbox nor the tests file gives (a plugin's
    ``mocker``), in order: no answer can pass a test that asks for one."""
    defined = {n.name for n in walk(module) if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef))
               and any(_is_fixture(d) for d in n.decorator_list)}
    missing: dict[str, None] = {}
    for unit, params in _test_functions(module):
        names = [a.arg for a in (*unit.args.posonlyargs, *unit.args.args, *unit.args.kwonlyargs)]
        defaults = len(unit.args.defaults)
        names = names[:len(names) - defaults] if defaults else names
        names = [n for n in names if n not in ("self", "cls")][_mock_patch_arguments(unit):]
        for name in names:
            if name not in params and name not in defined and name not in BUILTIN_FIXTURES:
                missing[name] = None
    return list(missing)


def _mock_patch_arguments(unit: ast.FunctionDef) -> int:
    """How many mocks the function's ``@patch(...)`` and ``@patch.object(...)`` decorators pass it (those without a
    ``new``), its first parameters, which pytest does not take for fixtures."""
    count = 0
    for decorator in unit.decorator_list:
        if not isinstance(decorator, ast.Call):
            continue
        name = ast.unparse(decorator.func)
        if name.split(".")[-1] == "patch":
            given = 2
        elif name.endswith("patch.object"):
            given = 3
        else:
            continue
        if len(decorator.args) < given and not any(k.arg in ("new", None) for k in decorator.keywords):
            count += 1
    return count


def classes_on_the_codes(module: ast.Module) -> list[tuple[str, str]]:
    """(class, base) for each class the tests define on top of a name they neither define nor import, which can
    only be the code's own class: the sandbox cannot make objects of such a class (the code runs in another
    process)."""
    bound = _bound(module)
    return [(node.name, base.id) for node in walk(module) if isinstance(node, ast.ClassDef)
            for base in node.bases if isinstance(base, ast.Name) and base.id not in bound]


def _bound(module: ast.Module) -> set[str]:
    """The names the tests bind themselves or Python builds in: any other name they use is the code's (a name they
    import from the solution module is the code's too)."""
    import builtins

    return reads_and_binds(module)[1] | set(dir(builtins))


def _is_fixture(decorator: ast.expr) -> bool:
    target = decorator.func if isinstance(decorator, ast.Call) else decorator
    return (isinstance(target, ast.Attribute) and target.attr == "fixture") or (
        isinstance(target, ast.Name) and target.id == "fixture")


def _test_functions(module: ast.Module) -> list[tuple[ast.FunctionDef, set[str]]]:
    """The test functions (methods of Test* classes too, not of unittest's) and the names parametrize gives each."""
    found = []
    for node in module.body:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and node.name.startswith("test"):
            found.append((node, _parametrized(node)))
        elif isinstance(node, ast.ClassDef) and collected_class(node) and not is_test_case(node):
            found += [(n, _parametrized(n)) for n in node.body
                      if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef)) and n.name.startswith("test")]
    return found


def _parametrized(node: ast.FunctionDef) -> set[str]:
    names: set[str] = set()
    for decorator in node.decorator_list:
        if isinstance(decorator, ast.Call) and isinstance(decorator.func, ast.Attribute) \
                and decorator.func.attr == "parametrize" and decorator.args:
            first = decorator.args[0]
            if isinstance(first, ast.Constant) and isinstance(first.value, str):
                names.update(n.strip() for n in first.value.split(","))
            elif isinstance(first, (ast.List, ast.Tuple)):
                names.update(e.value for e in first.elts if isinstance(e, ast.Constant) and isinstance(e.value, str))
    return names


def is_test_case(node: ast.ClassDef) -> bool:
    """A unittest.TestCase subclass (pytest collects those whatever their name)."""
    for base in node.bases:
        name = base.attr if isinstance(base, ast.Attribute) else base.id if isinstance(base, ast.Name) else ""
        if name.endswith("TestCase"):
            return True
    return False


def test_styles(module: ast.Module) -> tuple[bool, bool]:
    """(whether the file defines pytest-style test functions at its top level, whether it defines unittest.TestCase
    classes): how a person wrote a pytest-shaped file."""
    functions = any(isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef)) and n.name.startswith("test")
                    for n in module.body)
    return functions, any(isinstance(n, ast.ClassDef) and is_test_case(n) for n in module.body)


def collected_class(node: ast.ClassDef) -> bool:
    """A class pytest collects tests from: a unittest.TestCase subclass, or one named Test* that has no constructor
    of its own (pytest warns and skips such a class) and is not marked ``__test__ = False``."""
    if is_test_case(node):
        return True
    return node.name.startswith("Test") and constructor_of(node) is None and not _marked_not_a_test(node)


def constructor_of(node: ast.ClassDef) -> str | None:
    """``__init__`` or ``__new__`` when the class defines one (a dataclass decorator makes an __init__), else None."""
    for item in node.body:
        if isinstance(item, (ast.FunctionDef, ast.AsyncFunctionDef)) and item.name in ("__init__", "__new__"):
            return item.name
    for decorator in node.decorator_list:
        target = decorator.func if isinstance(decorator, ast.Call) else decorator
        name = target.attr if isinstance(target, ast.Attribute) else target.id if isinstance(target, ast.Name) else ""
        if name == "dataclass":
            return "__init__"
    return None


def _marked_not_a_test(node: ast.ClassDef) -> bool:
    return any(isinstance(item, ast.Assign) and any(isinstance(t, ast.Name) and t.id == "__test__"
                                                     for t in item.targets)
               and isinstance(item.value, ast.Constant) and not item.value.value for item in node.body)


def is_main_guard(stmt: ast.stmt) -> bool:
    """``if __name__ == "__main__":``: its body runs only when the file is run as a script, never when imported (as
    pytest imports a tests file, and as the sandbox runs one)."""
    test = stmt.test if isinstance(stmt, ast.If) else None
    return (isinstance(test, ast.Compare) and len(test.ops) == 1 and isinstance(test.ops[0], ast.Eq)
            and {_text(test.left), _text(test.comparators[0])} == {"__name__", "__main__"})


def _text(node: ast.expr) -> str | None:
    if isinstance(node, ast.Name):
        return node.id
    return node.value if isinstance(node, ast.Constant) and isinstance(node.value, str) else None


# What ends a Python process, called at the tests' top level: the tests stop while they load.
_EXITS = {"exit", "quit", "sys.exit", "os._exit", "_exit"}


def exit_call(stmt: ast.stmt) -> str | None:
    """The text of a top-level statement that ends the process (``sys.exit(0)``, ``exit()``, ``os._exit(1)``,
    ``raise SystemExit(2)``), else None."""
    if isinstance(stmt, ast.Raise) and stmt.exc is not None:
        target = stmt.exc.func if isinstance(stmt.exc, ast.Call) else stmt.exc
        return ast.unparse(stmt) if isinstance(target, ast.Name) and target.id == "SystemExit" else None
    if isinstance(stmt, ast.Expr) and isinstance(stmt.value, ast.Call):
        func = stmt.value.func
        name = func.id if isinstance(func, ast.Name) else (
            f"{func.value.id}.{func.attr}" if isinstance(func, ast.Attribute) and isinstance(func.value, ast.Name)
            else None)
        return ast.unparse(stmt) if name in _EXITS else None
    return None


def unrun_checks(module: ast.Module, shape: str | None = None) -> list[tuple[int, str]]:
    """(line, why) for each place of the tests that holds a check which can never run, in order: a function holding
    asserts that nothing calls (and pytest does not collect), a class holding tests that pytest does not collect, a
    ``__main__`` block holding asserts, a top-level call that ends the tests while they load. Such a file checks
    less than it says; where it checks nothing, the sandbox says "no assert ran, so nothing was checked"."""
    shape = shape or detect_shape(module)
    read = {n.id for stmt in module.body if not is_main_guard(stmt)
            for n in walk(stmt) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load)}
    found = []
    for stmt in module.body:
        why = None
        if isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef)):
            collected = (shape == "pytest" and stmt.name.startswith("test")) or (
                shape == "check" and stmt.name == "check")
            if not collected and not stmt.decorator_list and stmt.name not in read and holds_assert(stmt):
                why = (f"{stmt.name}() holds asserts, but nothing calls it (pytest runs only functions named "
                       f"test_*), so they never run; call it, or name it test_{stmt.name}")
        elif isinstance(stmt, ast.ClassDef):
            if not collected_class(stmt) and not _marked_not_a_test(stmt) and stmt.name not in read \
                    and (holds_assert(stmt) or _test_methods(stmt)):
                why = uncollected_class_words(stmt.name, constructor_of(stmt), _test_methods(stmt))
        elif is_main_guard(stmt) and holds_assert(stmt):
            why = ('the `if __name__ == "__main__":` block runs only when the file is run as a script; tests are '
                   "imported (as pytest imports them), so its asserts never run")
        elif exit_call(stmt):
            why = exit_words(exit_call(stmt))
        if why:
            found.append((stmt.lineno, why))
    return found


def _test_methods(node: ast.ClassDef) -> list[str]:
    return [n.name for n in node.body if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef))
            and n.name.startswith("test")]


def uncollected_class_words(name: str, constructor: str | None, methods: list[str]) -> str:
    """Why the tests of class name never run: pytest does not collect it."""
    held = f"its tests ({', '.join(methods[:3])}{', ...' if len(methods) > 3 else ''})" if methods else "its asserts"
    if name.startswith("Test") and constructor:
        return (f"pytest does not collect class {name} because it has a {constructor} constructor, so {held} never "
                "run; set things up in setup_method instead")
    return (f"pytest collects only classes named Test* and unittest.TestCase subclasses, so class {name} is not "
            f"collected and {held} never run; name it Test{name}")


def exit_words(text: str) -> str:
    """What a call that ends the process does at the tests' top level."""
    return (f"`{text}` ends the tests while they load: pytest reports an error there, and nothing after it runs; "
            "take it out")


def detect_shape(module: ast.Module) -> str:
    """``pytest`` (test_* functions, Test* or unittest.TestCase classes), ``check`` (HumanEval: a ``check`` function
    and nothing else that tests, called by no line of the file) or ``asserts``. A ``check`` beside test functions is
    their helper: taken for HumanEval's, it ran alone, and the tests never did (a wrong answer passed)."""
    defs = [n for n in module.body if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef))]
    if any(n.name.startswith("test") if not isinstance(n, ast.ClassDef) else
           (n.name.startswith("Test") or is_test_case(n)) for n in defs):
        return "pytest"
    if any(isinstance(n, ast.FunctionDef) and n.name == "check" for n in defs) and not _calls_check(module):
        return "check"
    return "asserts"


def _calls_check(module: ast.Module) -> bool:
    """Does a top-level line of the file (not a definition, not a __main__ block) call check itself?"""
    lines = [stmt for stmt in module.body
             if not isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)) and not is_main_guard(stmt)]
    return any(isinstance(n, ast.Call) and isinstance(n.func, ast.Name) and n.func.id == "check"
               for stmt in lines for n in walk(stmt))


def holds_assert(stmt: ast.stmt) -> bool:
    """A top-level statement of plain-assert tests is a test when it holds an assert, or a call of a check that
    raises AssertionError itself (is_check_call); else it is setup."""
    return any(isinstance(n, ast.Assert) or is_check_call(n) for n in walk(stmt))


def raises_check(stmt: ast.stmt, helpers: frozenset[str] = frozenset()) -> bool:
    """A top-level statement of plain-assert tests that raises under a condition or in a loop: ``if result != 4:
    raise AssertionError(f"got {result}")``, a check written without assert (which ``python -O`` would drop), or
    that calls one of the tests' functions that check so (helpers: raising_helpers; ``check_eq(add(2, 2), 4)``). It
    passes by not raising, so unlike an assert line it need not have evaluated anything to count."""
    if isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Raise)) or is_main_guard(stmt):
        return False
    return any(_raises(n) or isinstance(n, ast.Call) and isinstance(n.func, ast.Name) and n.func.id in helpers
               for n in walk(stmt))


def _raises(node: ast.AST) -> bool:
    """A raise of an exception of the tests' own (not a bare re-raise)."""
    return isinstance(node, ast.Raise) and node.exc is not None


def raising_helpers(module: ast.Module) -> frozenset[str]:
    """The tests' top-level functions that raise an exception of their own (``def check_eq(a, b): if a != b: raise
    AssertionError(f"{a} != {b}")``): a line of plain-assert tests calling one is a check (raises_check)."""
    return frozenset(stmt.name for stmt in module.body if isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef))
                     and any(_raises(n) for n in walk(stmt)))


def is_check_call(node: ast.AST) -> bool:
    """A call of a function or method named assert...: a mock's ``send.assert_called_once_with('hi')``,
    ``np.testing.assert_allclose(a, b)``, ``assertEqual``. Each raises AssertionError when its check fails, so a
    line of plain-assert tests that makes one checks as an assert statement does."""
    if not isinstance(node, ast.Call):
        return False
    name = node.func.attr if isinstance(node.func, ast.Attribute) else \
        node.func.id if isinstance(node.func, ast.Name) else ""
    return name.startswith("assert")


def count_tests(module: ast.Module, shape: str) -> int:
    """How many tests the runner will report: top-level statements holding an assert, or test functions."""
    if shape == "check":
        return 1
    if shape == "pytest":
        count = 0
        for node in module.body:
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and node.name.startswith("test"):
                count += 1
            elif isinstance(node, ast.ClassDef) and collected_class(node):
                count += len(_test_methods(node))
        return count
    return len(assert_tests(module))


def assert_tests(module: ast.Module) -> list[ast.stmt]:
    """The top-level statements of plain-assert tests that are reported as tests: those holding an assert (not a
    definition, and not a ``__main__`` block, which never runs), those raising under a condition or calling a
    function of the tests' that raises (raises_check) and those calling a definition that holds an assert."""
    checking = {stmt.name for stmt in module.body
                if isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)) and holds_assert(stmt)}
    helpers = raising_helpers(module)
    found = []
    for stmt in module.body:
        if isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)) or is_main_guard(stmt):
            continue
        if holds_assert(stmt) or raises_check(stmt, helpers) or \
                any(isinstance(n, ast.Name) and n.id in checking for n in walk(stmt)):
            found.append(stmt)
    return found


def imported_names(module: ast.Module) -> list[str]:
    """The top-level module names the source imports, in order of first appearance (no relative imports, no
    __future__)."""
    found: list[tuple[int, int, int, str]] = []
    for node in walk(module):
        if isinstance(node, ast.Import):
            found += [(node.lineno, node.col_offset, i, alias.name.split(".")[0]) for i, alias in enumerate(node.names)]
        elif isinstance(node, ast.ImportFrom) and not node.level and node.module:
            found.append((node.lineno, node.col_offset, 0, node.module.split(".")[0]))
    names = dict.fromkeys(name for *_, name in sorted(found))
    names.pop("__future__", None)
    return list(names)


def _taken(module: ast.Module, name: str) -> set[str]:
    """The names the tests take from module name: ``from name import a, b`` gives a and b (``*`` for a star
    import); ``import name as m`` gives every attribute they read of m."""
    taken: set[str] = set()
    aliases = set()
    for node in walk(module):
        if isinstance(node, ast.ImportFrom) and not node.level and node.module == name:
            taken.update(alias.name for alias in node.names)
        elif isinstance(node, ast.Import):
            aliases.update(alias.asname or alias.name for alias in node.names if alias.name == name)
    for node in walk(module):
        if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id in aliases:
            taken.add(node.attr)
    return taken


def module_under_test(module: ast.Module, importable, defined: set[str] | None = None) -> str | None:
    """The name the tests import the code under test by (``from calculator import add``): the first module they
    import that is neither importable here (importable(name) says) nor a well-known package, and that they take
    names from; with defined (the code's names, once known), only when the code defines every name taken from it.
    None when there is none. The sandbox gives that name the code's module, as if the code were saved under it."""
    bound = _bound(module)
    if any(isinstance(n, ast.Call) and isinstance(n.func, ast.Name) and n.func.id not in bound
           for n in walk(module)):
        return None  # they call the code's functions by their bare names: what they import is something else
    for name in imported_names(module):
        if name in _HARNESS or name in KNOWN_PACKAGES or importable(name):
            continue
        taken = _taken(module, name)
        if not taken:
            continue
        if defined is None or "*" in taken or taken <= defined:
            return name
    return None
