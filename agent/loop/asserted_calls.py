"""The function calls a visible test file makes in its asserts: the examples both the prompt (does the task already
show them?) and the probes (which inputs to try) read."""

from __future__ import annotations

import ast
import builtins

from sandbox.locked_parse import parse


def asserted_calls(tests: str, names: set[str] | None = None) -> list[ast.Call]:
    """Each call of a plain name inside an assert, in order: of one of names, or (names None) of any function
    that is not a builtin. A test file that does not parse has none."""
    try:
        module = parse(tests)
    except SyntaxError:
        return []
    return [call for test in ast.walk(module) if isinstance(test, ast.Assert)
            for call in ast.walk(test.test) if isinstance(call, ast.Call) and isinstance(call.func, ast.Name)
            and (call.func.id in names if names is not None else call.func.id not in dir(builtins))]
