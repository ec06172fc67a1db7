"""The function calls a visible test file makes in its checks: the examples both the prompt (does the task already
show them?) and the probes (which inputs to try) read. A check is a plain ``assert``, a unittest assertion
(``self.assertEqual(f(2), 4)``) or a call under ``with pytest.raises(...)`` / ``self.assertRaises(...)``: people
write all three, and a file of unittest cases alone would otherwise show no example at all."""

from __future__ import annotations

import ast
import builtins

from sandbox.locked_parse import parse


def _is_assertion_method(node: ast.AST) -> bool:
    return (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
            and node.func.attr.startswith("assert"))


def _is_raises_block(node: ast.AST) -> bool:
    return isinstance(node, (ast.With, ast.AsyncWith)) and any(
        isinstance(item.context_expr, ast.Call) and isinstance(item.context_expr.func, ast.Attribute)
        and item.context_expr.func.attr in ("raises", "assertRaises", "assertRaisesRegex") for item in node.items)


def _checked(module: ast.Module) -> list[ast.AST]:
    """The expressions a test file checks, in order: asserts' tests, unittest assertions' arguments, and the
    statements under a raises block."""
    found: list[ast.AST] = []
    for node in ast.walk(module):
        if isinstance(node, ast.Assert):
            found.append(node.test)
        elif _is_assertion_method(node):
            found.extend([*node.args, *(k.value for k in node.keywords)])
        elif _is_raises_block(node):
            found.extend(s.value for s in node.body if isinstance(s, ast.Expr))
    return found


def asserted_calls(tests: str, names: set[str] | None = None) -> list[ast.Call]:
    """Each call of a plain name inside a check, in order: of one of names, or (names None) of any function
    that is not a builtin. A test file that does not parse has none."""
    try:
        module = parse(tests)
    except SyntaxError:
        return []
    calls: dict[int, ast.Call] = {}  # by id: a unittest assertion inside an assert is walked twice
    for checked in _checked(module):
        for call in ast.walk(checked):
            if isinstance(call, ast.Call) and isinstance(call.func, ast.Name) and (
                    call.func.id in names if names is not None else call.func.id not in dir(builtins)):
                calls.setdefault(id(call), call)
    return sorted(calls.values(), key=lambda c: (c.lineno, c.col_offset))
