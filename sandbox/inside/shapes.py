"""Which of the three test shapes a test file has, and which module it imports the code under test from.

Stdlib only: imported inside the sandbox and on the host."""

from __future__ import annotations

import ast

# Inside the sandbox these modules import one another by bare name (the worker's folder is on sys.path); on the host
# they are the package sandbox.inside.
if __package__:
    from .names import reads_and_binds
else:
    from names import reads_and_binds

# Well-known packages of PyPI: a test that imports one of them needs it, and is never importing the code under test
# by another name (the sandbox says what it offers instead).
KNOWN_PACKAGES = frozenset({
    "aiohttp", "attr", "attrs", "boto3", "bs4", "click", "cv2", "django", "fastapi", "flask", "httpx",
    "hypothesis", "jax", "matplotlib", "mock", "numpy", "pandas", "PIL", "psycopg2", "pydantic", "pymongo",
    "pytest_mock", "redis", "requests", "scipy", "seaborn", "selenium", "sklearn", "sqlalchemy", "sympy",
    "tensorflow", "torch", "yaml"})
_HARNESS = frozenset({"pytest", "solution"})


# pytest's fixtures the sandbox gives a test (sandbox/inside/fixtures.py makes them).
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
    defined = {n.name for n in ast.walk(module) if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef))
               and any(_is_fixture(d) for d in n.decorator_list)}
    missing: dict[str, None] = {}
    for unit, params in _test_functions(module):
        names = [a.arg for a in (*unit.args.posonlyargs, *unit.args.args, *unit.args.kwonlyargs)]
        defaults = len(unit.args.defaults)
        names = names[:len(names) - defaults] if defaults else names
        for name in names:
            if name not in ("self", "cls") and name not in params and name not in defined \
                    and name not in BUILTIN_FIXTURES:
                missing[name] = None
    return list(missing)


def classes_on_the_codes(module: ast.Module) -> list[tuple[str, str]]:
    """(class, base) for each class the tests define on top of a name they neither define nor import, which can
    only be the code's own class: the sandbox cannot make objects of such a class (the code runs in another
    process)."""
    bound = _bound(module)
    return [(node.name, base.id) for node in ast.walk(module) if isinstance(node, ast.ClassDef)
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
        elif isinstance(node, ast.ClassDef) and node.name.startswith("Test") and not is_test_case(node):
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


def detect_shape(module: ast.Module) -> str:
    """``check`` (HumanEval), ``pytest`` (test_* functions, Test* or unittest.TestCase classes) or ``asserts``."""
    defs = [n for n in module.body if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef))]
    if any(isinstance(n, ast.FunctionDef) and n.name == "check" for n in defs):
        return "check"
    if any(n.name.startswith("test") if not isinstance(n, ast.ClassDef) else
           (n.name.startswith("Test") or is_test_case(n)) for n in defs):
        return "pytest"
    return "asserts"


def holds_assert(stmt: ast.stmt) -> bool:
    """A top-level statement of plain-assert tests is a test when it holds an assert; else it is setup."""
    return any(isinstance(n, ast.Assert) for n in ast.walk(stmt))


def count_tests(module: ast.Module, shape: str) -> int:
    """How many tests the runner will report: top-level statements holding an assert, or test functions."""
    if shape == "check":
        return 1
    if shape == "pytest":
        count = 0
        for node in module.body:
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and node.name.startswith("test"):
                count += 1
            elif isinstance(node, ast.ClassDef) and (node.name.startswith("Test") or is_test_case(node)):
                count += sum(isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef)) and n.name.startswith("test")
                             for n in node.body)
        return count
    return sum(holds_assert(stmt) for stmt in module.body)


def imported_names(module: ast.Module) -> list[str]:
    """The top-level module names the source imports, in order of first appearance (no relative imports, no
    __future__)."""
    found: list[tuple[int, int, int, str]] = []
    for node in ast.walk(module):
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
    for node in ast.walk(module):
        if isinstance(node, ast.ImportFrom) and not node.level and node.module == name:
            taken.update(alias.name for alias in node.names)
        elif isinstance(node, ast.Import):
            aliases.update(alias.asname or alias.name for alias in node.names if alias.name == name)
    for node in ast.walk(module):
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
           for n in ast.walk(module)):
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
