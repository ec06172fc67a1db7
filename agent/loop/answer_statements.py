"""What each top-level statement of a model's answer is, for the answer cleaner (agent.loop.answer_cleaning): the
names it binds, reads (with the compiler's scopes, so a function's own n is not the module's n) and changes in
place, whether it is an import, a definition, the model's own test or demo, or configuration (sys.setrecursionlimit),
and how the candidate's view names it once removed. Read from the syntax tree only."""

from __future__ import annotations

import ast
import builtins
import symtable
from collections.abc import Iterator
from dataclasses import dataclass

# Modules whose only use in an answer is the model's own tests; the sandbox does not let the code import pytest.
TEST_LIBRARIES = frozenset({"pytest", "unittest", "doctest", "hypothesis", "nose", "nose2"})
# Calls whose only effect at load is output, a prompt or an exit: a demo, never configuration.
_DEMO_CALLS = frozenset({"print", "pprint", "display", "input", "exit", "quit", "breakpoint", "help"})
_DEMO_ATTRIBUTES = frozenset({("sys", "stdout"), ("sys", "stderr"), ("sys", "exit"), ("os", "_exit")})
_BUILTINS = frozenset(dir(builtins))
# Names of the functions models write to try their answer; one is the model's test only when it asserts or prints.
CHECK_PREFIXES = ("check", "verify", "validate", "main", "demo", "example", "run_test", "run_check")
_BLOCK_WORDS = {ast.For: "for loop", ast.AsyncFor: "for loop", ast.While: "while loop", ast.If: "if block",
                ast.With: "with block", ast.AsyncWith: "with block", ast.Try: "try block", ast.Match: "match block",
                ast.TryStar: "try block", ast.Raise: "raise", ast.Delete: "del", ast.Expr: "expression"}


@dataclass(frozen=True)
class Statement:
    """One top-level statement and what decides whether it stays."""

    node: ast.stmt
    first: int  # its first line, decorators included (1-based)
    last: int
    kind: str  # import | test_import | definition | main_guard | assert | inert | configuration | other
    binds: frozenset[str]  # module-level names it binds
    mutates: frozenset[str]  # module-level names whose value it changes in place (cache[k] = v, table.append(x))
    reads: frozenset[str]  # module-level names it reads, at load or in its nested bodies
    demo: bool  # obviously the model's test or demo (what goes even when nothing says what the answer is)
    runs: bool  # it calls something when the code is loaded
    label: str  # how the candidate's view names it once removed


def statements_of(code: str, module: ast.Module) -> list[Statement]:
    """Each top-level statement of the code (whose syntax tree module is), as the cleaner weighs it."""
    test_modules = {name for node in module.body for name in _test_library_names(node)}
    defined = {name for node in module.body for name in _defined_names(node)}
    tests_defined = {node.name for node in module.body if _is_test_definition(node, test_modules)}
    imported = {name for node in module.body if isinstance(node, (ast.Import, ast.ImportFrom))
                for name in _bound_by(node)} - test_modules
    scopes = _nested_scopes(code)
    return [_statement(node, scopes, test_modules, defined, tests_defined, imported) for node in module.body]


def _statement(node: ast.stmt, scopes: list[symtable.SymbolTable] | None, test_modules: set[str], defined: set[str],
               tests_defined: set[str], imported: set[str]) -> Statement:
    first = min([node.lineno] + [d.lineno for d in getattr(node, "decorator_list", [])])
    last = node.end_lineno or node.lineno
    binds = frozenset(_bound_by(node))
    inside = None if scopes is None else [t for t in scopes if first <= t.get_lineno() <= last]
    reads = frozenset(_read_by(node, inside))
    calls = list(_load_calls(node))
    kind, mutates, demo = "other", frozenset(_mutated_by(node, defined | imported)), False
    if isinstance(node, (ast.Import, ast.ImportFrom)):
        kind = "test_import" if binds and binds <= test_modules else "import"
    elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
        kind, demo = "definition", node.name in tests_defined
    elif _is_main_guard(node):
        kind, demo = "main_guard", True
    elif isinstance(node, ast.Assert):
        kind, demo = "assert", True
    elif isinstance(node, (ast.Pass, ast.Global, ast.Nonlocal)) or (
            isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant)):
        kind = "inert"
    else:
        configures = [_configures(call, test_modules, imported) for call in calls]
        if calls and all(configures) and not binds and not _holds_assert(node):
            kind = "configuration"
        demo = _holds_assert(node) or any(
            _calls_demo(call, test_modules, defined, tests_defined, imported) for call in calls)
    return Statement(node=node, first=first, last=last, kind=kind, binds=binds,
                      mutates=mutates, reads=reads, demo=demo, runs=bool(calls),
                      label=_label(node, kind))


def _is_main_guard(node: ast.stmt) -> bool:
    if not isinstance(node, ast.If) or not isinstance(node.test, ast.Compare) or len(node.test.comparators) != 1:
        return False
    sides = [node.test.left, node.test.comparators[0]]
    names = {s.id for s in sides if isinstance(s, ast.Name)}
    texts = {s.value for s in sides if isinstance(s, ast.Constant)}
    return names == {"__name__"} and texts == {"__main__"}


def _test_library_names(node: ast.stmt) -> Iterator[str]:
    """Names an import binds from a test library (import pytest; from unittest import TestCase)."""
    if isinstance(node, ast.Import):
        for alias in node.names:
            if alias.name.split(".")[0] in TEST_LIBRARIES:
                yield (alias.asname or alias.name).split(".")[0]
    elif isinstance(node, ast.ImportFrom) and node.module and node.module.split(".")[0] in TEST_LIBRARIES:
        yield from (alias.asname or alias.name for alias in node.names)


def _is_test_definition(node: ast.stmt, test_modules: set[str]) -> bool:
    """A test function (test_*, decorated by a test library, a check_*, verify_*, main ... that asserts or prints)
    or test class (Test*, a TestCase)."""
    if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
        decorated = any(_root(d) in TEST_LIBRARIES | test_modules for d in node.decorator_list)
        checks = node.name.lstrip("_").lower().startswith(CHECK_PREFIXES) and (
            _holds_assert(node) or any(isinstance(n, ast.Call) and _root(n.func) in _DEMO_CALLS
                                       for n in ast.walk(node)))
        return node.name.startswith("test") or decorated or checks
    if isinstance(node, ast.ClassDef):
        return node.name.startswith("Test") or any(_tail(base) == "TestCase" for base in node.bases)
    return False


def _holds_assert(node: ast.AST) -> bool:
    return any(isinstance(n, ast.Assert) for n in ast.walk(node))


def _root(node: ast.expr) -> str | None:
    """The name an expression starts from: pytest in pytest.mark.parametrize(...), Solution in Solution().f."""
    while True:
        if isinstance(node, ast.Name):
            return node.id
        if isinstance(node, (ast.Attribute, ast.Subscript, ast.Starred)):
            node = node.value
        elif isinstance(node, ast.Call):
            node = node.func
        else:
            return None


def _tail(node: ast.expr) -> str | None:
    return node.attr if isinstance(node, ast.Attribute) else node.id if isinstance(node, ast.Name) else None


def _module_scope(node: ast.AST, *, comprehensions: bool = False) -> Iterator[ast.AST]:
    """The nodes of a top-level statement that run in the module's scope at load. A nested function's body is not
    entered (its decorators and defaults are), nor a class's body (its decorators, bases and keywords are), nor
    a lambda's body; a comprehension's body runs at load but binds in a scope of its own, so it is entered only
    when asked (for the calls it makes, not the names it binds)."""
    stack = [node]
    while stack:
        current = stack.pop()
        yield current
        if isinstance(current, (ast.FunctionDef, ast.AsyncFunctionDef)):
            arguments = current.args
            every = arguments.posonlyargs + arguments.args + arguments.kwonlyargs + [
                a for a in (arguments.vararg, arguments.kwarg) if a is not None]
            stack += current.decorator_list + arguments.defaults + [d for d in arguments.kw_defaults if d] + [
                a.annotation for a in every if a.annotation] + ([current.returns] if current.returns else [])
        elif isinstance(current, ast.ClassDef):
            stack += current.decorator_list + current.bases + [k.value for k in current.keywords]
        elif isinstance(current, ast.Lambda):
            continue
        elif isinstance(current, (ast.ListComp, ast.SetComp, ast.DictComp, ast.GeneratorExp)) and not comprehensions:
            stack.append(current.generators[0].iter)
        else:
            stack += list(ast.iter_child_nodes(current))


def _bound_by(node: ast.stmt) -> set[str]:
    """Module-level names a top-level statement binds (defs, classes, imports, assignment and loop targets ...)."""
    bound = set()
    for current in _module_scope(node):
        if isinstance(current, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            bound.add(current.name)
        elif isinstance(current, (ast.Import, ast.ImportFrom)):
            bound.update((alias.asname or alias.name).split(".")[0] for alias in current.names if alias.name != "*")
        elif isinstance(current, ast.Name) and isinstance(current.ctx, ast.Store):
            bound.add(current.id)
        elif isinstance(current, ast.ExceptHandler) and current.name:
            bound.add(current.name)
        elif isinstance(current, (ast.MatchAs, ast.MatchStar)) and current.name:
            bound.add(current.name)
    return bound


def _defined_names(node: ast.stmt) -> set[str]:
    """Functions and classes a top-level statement defines (in a try or if too)."""
    return {n.name for n in _module_scope(node) if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef))}


def _nested_scopes(code: str) -> list[symtable.SymbolTable] | None:
    """The module's functions, classes, lambdas and comprehensions as the compiler scopes them, or None when it
    refuses the code (a return outside a function parses but does not compile)."""
    try:
        return symtable.symtable(code, "solution.py", "exec").get_children()
    except (SyntaxError, ValueError):
        return None


def _read_by(node: ast.stmt, scopes: list[symtable.SymbolTable] | None) -> set[str]:
    """The module-level names a statement reads: at load (a def's decorators, defaults and annotations, a class's
    bases) and in its nested bodies, where only the names the compiler resolves to the module's count (a
    function's parameter n is not the module's n). A name a function declares global counts as read. Without the
    scopes, every name read anywhere (more than needed, never less)."""
    if scopes is None:
        read = {n.id for n in ast.walk(node) if isinstance(n, ast.Name) and isinstance(n.ctx, (ast.Load, ast.Del))}
        return read | {name for n in ast.walk(node) if isinstance(n, (ast.Global, ast.Nonlocal)) for name in n.names}
    loaded, local = set(), set()
    for current in _module_scope(node, comprehensions=True):
        if isinstance(current, ast.Name) and isinstance(current.ctx, (ast.Load, ast.Del)):
            loaded.add(current.id)
        elif isinstance(current, ast.comprehension):
            local.update(n.id for n in ast.walk(current.target) if isinstance(n, ast.Name))
    return loaded - local | {name for table in scopes for name in _globals_read(table)}


def _globals_read(table: symtable.SymbolTable) -> set[str]:
    names = {s.get_name() for s in table.get_symbols()
             if s.is_global() and (s.is_referenced() or s.is_declared_global())}
    for child in table.get_children():
        names |= _globals_read(child)
    return names


def _mutated_by(node: ast.stmt, not_data: set[str]) -> set[str]:
    """Module-level names a statement changes in place at load: cache[0] = 1, Point.__doc__ = ..., del memo[k],
    total += 1, and method calls on data (table.append(x), memo.update(...); not on a def, class or module, where
    a call is a demo or configuration)."""
    mutated = set()
    for current in _module_scope(node):
        targets = []
        if isinstance(current, (ast.Assign, ast.Delete)):
            targets = current.targets
        elif isinstance(current, (ast.AugAssign, ast.AnnAssign)):
            targets = [current.target]
        for target in targets:
            for part in ast.walk(target):
                if isinstance(part, (ast.Subscript, ast.Attribute)) and (root := _root(part)):
                    mutated.add(root)
            if isinstance(current, ast.AugAssign) and isinstance(target, ast.Name):
                mutated.add(target.id)
        if isinstance(current, ast.Call) and isinstance(current.func, ast.Attribute):
            root = _root(current.func)
            if root and root not in not_data:
                mutated.add(root)
    return mutated


def _load_calls(node: ast.stmt) -> Iterator[ast.Call]:
    """The calls a top-level statement makes when the code is loaded (a def's decorators and defaults included)."""
    return (n for n in _module_scope(node, comprehensions=True) if isinstance(n, ast.Call))


def _configures(call: ast.Call, test_modules: set[str], imported: set[str]) -> bool:
    """A call that sets something up for the code: on an imported module or name (sys.setrecursionlimit(...),
    random.seed(0)) or a builtin, never output, an exit or a test library."""
    root = _root(call.func)
    if root is None or root in _DEMO_CALLS or root in test_modules or root in TEST_LIBRARIES:
        return False
    if _attribute_pair(call.func) in _DEMO_ATTRIBUTES:
        return False
    return root in imported or root in _BUILTINS


def _attribute_pair(func: ast.expr) -> tuple[str, str] | None:
    """(module, attribute) of the first attribute after the root name: ("sys", "stdout") in sys.stdout.write."""
    while isinstance(func, ast.Attribute):
        if isinstance(func.value, ast.Name):
            return func.value.id, func.attr
        func = func.value
    return None


def _calls_demo(call: ast.Call, test_modules: set[str], defined: set[str], tests_defined: set[str],
                imported: set[str]) -> bool:
    """A call at load that only a demo makes: output, a test library, one of the code's tests, or a name that
    exists nowhere (the model's check(...) of a function it never wrote)."""
    root = _root(call.func)
    if root is None:
        return False
    if root in _DEMO_CALLS or root in test_modules or root in TEST_LIBRARIES or root in tests_defined:
        return True
    if _attribute_pair(call.func) in _DEMO_ATTRIBUTES:
        return True
    return root not in defined and root not in imported and root not in _BUILTINS


# --- what stays ---------------------------------------------------------------------------------------------------


def _label(node: ast.stmt, kind: str) -> str:
    if kind == "main_guard":
        return 'if __name__ == "__main__"'
    if kind == "assert":
        return f"assert at line {node.lineno}"
    if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
        return node.name
    if isinstance(node, (ast.Import, ast.ImportFrom)):
        return _short(ast.unparse(node))
    if isinstance(node, ast.Expr) and isinstance(node.value, ast.Call):
        return _call_text(node.value)
    if isinstance(node, (ast.Assign, ast.AnnAssign, ast.AugAssign)):
        targets = node.targets if isinstance(node, ast.Assign) else [node.target]
        operator = "=" if not isinstance(node, ast.AugAssign) else ast.unparse(node).split()[1]
        return _short(" = ".join(ast.unparse(t) for t in targets)) + f" {operator} ..."
    return f"{_BLOCK_WORDS.get(type(node), 'statement')} at line {node.lineno}"


def _call_text(call: ast.Call) -> str:
    """check_function(), print(...), Solution().two_sum(...): the callee as written, arguments elided."""
    def callee(node: ast.expr) -> str:
        if isinstance(node, ast.Name):
            return node.id
        if isinstance(node, ast.Attribute):
            return f"{callee(node.value)}.{node.attr}"
        if isinstance(node, ast.Call):
            return callee(node.func) + ("(...)" if node.args or node.keywords else "()")
        if isinstance(node, ast.Subscript):
            return f"{callee(node.value)}[...]"
        return "(...)"
    return _short(callee(call.func) + ("(...)" if call.args or call.keywords else "()"))


def _short(text: str, limit: int = 40) -> str:
    text = " ".join(text.split())
    return text if len(text) <= limit else text[:limit - 3] + "..."
