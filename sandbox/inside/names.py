"""The names a piece of Python reads and the names it binds, from its syntax tree: what tests take from the code
under test, what code uses without importing it. Stdlib only: read inside the sandbox and on the host."""

from __future__ import annotations

import ast

if __package__:
    from .syntax_walk import walk
else:
    from syntax_walk import walk


def reads_and_binds(module: ast.AST, code_modules: frozenset[str] = frozenset({"solution"})) -> tuple[set, set]:
    """(names read, names bound) anywhere in module. Bound: defs, classes, arguments, assignments, imports, except
    and global names. A name imported from one of code_modules (the code under test: ``from solution import f``), or
    read as its attribute (``solution.f``), counts as read: it is the code's, not the reader's own."""
    read: set[str] = set()
    bound: set[str] = set()
    for node in walk(module):
        if isinstance(node, ast.Name):
            (read if isinstance(node.ctx, ast.Load) else bound).add(node.id)
        elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            bound.add(node.name)
        elif isinstance(node, ast.arg):
            bound.add(node.arg)
        elif isinstance(node, ast.ExceptHandler) and node.name:
            bound.add(node.name)
        elif isinstance(node, (ast.Global, ast.Nonlocal)):
            bound.update(node.names)
        elif isinstance(node, ast.ImportFrom) and not node.level and node.module in code_modules:
            read.update(alias.name for alias in node.names)
        elif isinstance(node, (ast.Import, ast.ImportFrom)):
            bound.update((alias.asname or alias.name).split(".")[0] for alias in node.names)
        elif isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id in code_modules:
            read.add(node.attr)
    return read, bound
