"""Which of the three test shapes a test file has. Stdlib only: imported inside the sandbox and on the host."""

from __future__ import annotations

import ast


def detect_shape(module: ast.Module) -> str:
    """``check`` (HumanEval), ``pytest`` (test_* functions or Test* classes) or ``asserts``."""
    defs = [n for n in module.body if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef))]
    if any(isinstance(n, ast.FunctionDef) and n.name == "check" for n in defs):
        return "check"
    if any(n.name.startswith("test") if not isinstance(n, ast.ClassDef) else n.name.startswith("Test")
           for n in defs):
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
            elif isinstance(node, ast.ClassDef) and node.name.startswith("Test"):
                count += sum(isinstance(n, ast.FunctionDef) and n.name.startswith("test") for n in node.body)
        return count
    return sum(holds_assert(stmt) for stmt in module.body)
