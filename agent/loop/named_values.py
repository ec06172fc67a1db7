"""Values a test file names before it uses them: an input bound to a name and passed by it (``items = [3, 1, 2]``,
then ``assert total(items) == 6``), and a result bound to a name that a check reads (``result = total([3, 1, 2])``,
then ``assert result == 6``). People write tests so; read through literals alone, such a test showed no example to
probe, and a pass on it was never doubted.

A name is read only where nothing can change it in between: bound once in the whole file, by one plain assignment
(of a literal, or of a value built from literals: agent.loop.constant_values, for an input; of one call of the
function, for a result), before it is read, and read nowhere else than where it stands for that value (an argument
of the function's calls; a check). A name a fixture, a loop, an import or a second assignment binds is not read.
Nothing is run.
"""

from __future__ import annotations

import ast
import copy
from collections.abc import Callable

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


def _loads(module: ast.Module) -> dict[str, list[ast.Name]]:
    loads: dict[str, list[ast.Name]] = {}
    for node in ast.walk(module):
        if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Load):
            loads.setdefault(node.id, []).append(node)
    return loads


def _before(value: ast.AST, node: ast.AST) -> bool:
    return (value.end_lineno or value.lineno, value.end_col_offset or 0) <= (node.lineno, node.col_offset)


def with_named_inputs(calls: list[ast.Call], module: ast.Module, parents: dict[int, ast.AST],
                      is_function: Callable[[ast.Call], bool]) -> list[ast.Call]:
    """The calls, each with the names it passes replaced by the literal value bound to them, where the name is bound
    once in the file by a plain assignment before the call and read only as an argument of the function's calls (no
    other code could change it between). A call left as it is when none of its names qualifies."""
    bound, loads = _bound_names(module), _loads(module)

    def value_of(name: ast.Name, call: ast.Call) -> ast.expr | None:
        value = _single_assignment(name.id, bound, parents)
        if value is None or not _before(value, call) or not constant(value)[0]:
            return None
        # Read anywhere but as a direct argument of the function (a method called on it, a loop over it, a check of
        # it after the call), the value may not be what the call was passed; and a second call of the function may
        # be passed what the first changed, so the name stands for the literal in one call only.
        uses = loads.get(name.id, [])
        if len(uses) != 1:
            return None
        parent = parents.get(id(uses[0]))
        if isinstance(parent, ast.keyword):
            parent = parents.get(id(parent))
        return value if isinstance(parent, ast.Call) and is_function(parent) else None

    read: list[ast.Call] = []
    for call in calls:
        args = [value_of(a, call) if isinstance(a, ast.Name) else None for a in call.args]
        keywords = [value_of(k.value, call) if isinstance(k.value, ast.Name) else None for k in call.keywords]
        if not any(v is not None for v in [*args, *keywords]):
            read.append(call)
            continue
        named = copy.copy(call)
        named.args = [v if v is not None else a for v, a in zip(args, call.args)]
        named.keywords = [ast.keyword(k.arg, v) if v is not None else k for v, k in zip(keywords, call.keywords)]
        read.append(named)
    return read


def named_results(module: ast.Module, parents: dict[int, ast.AST], checked: set[int],
                  is_function: Callable[[ast.Call], bool]) -> list[tuple[ast.Call, ast.Name]]:
    """Calls of the function whose result the file binds to a name (``result = f(x)``) and checks by it: (the call,
    the name where a check first reads it). Only where the name is bound there alone and every read of it is inside
    a check and no method is called on it (``result.sort()`` would check another value than the call gave)."""
    bound, loads = _bound_names(module), _loads(module)
    found: list[tuple[ast.Call, ast.Name]] = []
    for name, uses in loads.items():
        value = _single_assignment(name, bound, parents)
        if not (isinstance(value, ast.Call) and is_function(value)) or not uses:
            continue
        if all(id(u) in checked and _before(value, u) and not isinstance(parents.get(id(u)), ast.Attribute)
               for u in uses):
            found.append((value, min(uses, key=lambda u: (u.lineno, u.col_offset))))
    return found
