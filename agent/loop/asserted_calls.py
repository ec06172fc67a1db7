"""The function calls a visible test file makes in its checks: the examples both the prompt (does the task already
show them?) and the probes (which inputs to try) read. A check is a plain ``assert``, an ``if`` that raises
(``if f(2) != 4: raise AssertionError``), a unittest assertion (``self.assertEqual(f(2), 4)``) or a call under
``with pytest.raises(...)`` / ``self.assertRaises(...)``: people write all of them, and a file of unittest cases
alone would otherwise show no example at all."""

from __future__ import annotations

import ast
import builtins

from agent.loop.named_values import file_names, named_results, results_checked_by_helpers, with_named_inputs
from sandbox.locked_parse import parse

# Calls a check may wrap around the function's result to compare only what it cares about: its items whatever
# their order (set, sorted), a number to some digits (round), a generator's items (list), its truth (bool; also a
# bare ``assert f(x)``, ``assert not f(x)`` and ``self.assertTrue(f(x))``, which read nothing else of the result).
# A probe observes the result through the same wrapper, or it would ask about an order the tests ignore and write a
# test that rejects right code.
OBSERVERS = frozenset({"set", "frozenset", "sorted", "list", "tuple", "round", "bool"})
CALL_MARK = "__observed_call__"


def _is_assertion_method(node: ast.AST) -> bool:
    return (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
            and node.func.attr.startswith("assert"))


def _is_raises_block(node: ast.AST) -> bool:
    return isinstance(node, (ast.With, ast.AsyncWith)) and any(
        isinstance(item.context_expr, ast.Call) and isinstance(item.context_expr.func, ast.Attribute)
        and item.context_expr.func.attr in ("raises", "assertRaises", "assertRaisesRegex") for item in node.items)


def _raises_when(node: ast.AST) -> bool:
    """An if statement that raises when its test holds: ``if f(2) != 4: raise AssertionError(...)``, a check
    written without assert (the sandbox runs such a line as a test: sandbox.inside.shapes.raises_check)."""
    return isinstance(node, ast.If) and any(isinstance(s, ast.Raise) and s.exc is not None for s in node.body)


def _checked(module: ast.Module) -> list[ast.AST]:
    """The expressions a test file checks, in order: asserts' tests, the tests of ifs that raise, unittest
    assertions' arguments, and the statements under a raises block."""
    found: list[ast.AST] = []
    for node in ast.walk(module):
        if isinstance(node, ast.Assert) or _raises_when(node):
            found.append(node.test)
        elif _is_assertion_method(node):
            found.extend([*node.args, *(k.value for k in node.keywords)])
        elif _is_raises_block(node):
            found.extend(s.value for s in node.body if isinstance(s, ast.Expr))
    return found


def _messages(module: ast.Module) -> list[ast.AST]:
    """What a check says when it fails: an assert's message, the exception an if that raises raises."""
    found: list[ast.AST] = []
    for node in ast.walk(module):
        if isinstance(node, ast.Assert) and node.msg is not None:
            found.append(node.msg)
        elif _raises_when(node):
            found.extend(s.exc for s in node.body if isinstance(s, ast.Raise) and s.exc is not None)
    return found


def literal(node: ast.expr) -> tuple[bool, object]:
    """(whether node is a literal, its value): what a check passes besides the result (round's digits), and the
    arguments a probe may mutate (agent.loop.probes)."""
    try:
        return True, ast.literal_eval(node)
    except (ValueError, TypeError, SyntaxError, MemoryError, RecursionError):
        return False, None


def _observer(call: ast.Call, parents: dict[int, ast.AST]) -> str:
    """How the check reads call's result: CALL_MARK alone, or inside the observers wrapped around it
    (``sorted(CALL_MARK, reverse=True)``), each taking the result first and nothing but literals besides."""
    text, inner, parent = CALL_MARK, call, parents.get(id(call))
    while (isinstance(parent, ast.Call) and isinstance(parent.func, ast.Name) and parent.func.id in OBSERVERS
           and parent.args and parent.args[0] is inner and all(literal(a)[0] for a in parent.args[1:])
           and all(k.arg is not None and literal(k.value)[0] for k in parent.keywords)):
        # The text so far stands in as a name: unparse writes a name as it is.
        text = ast.unparse(ast.Call(parent.func, [ast.Name(text), *parent.args[1:]], parent.keywords))
        inner, parent = parent, parents.get(id(parent))
    if isinstance(parent, ast.UnaryOp) and isinstance(parent.op, ast.Not):
        inner, parent = parent, parents.get(id(parent))
    truth = (isinstance(parent, ast.Assert) or _raises_when(parent)) and parent.test is inner or (
        isinstance(parent, ast.Call) and isinstance(parent.func, ast.Attribute)
        and parent.func.attr in ("assertTrue", "assertFalse") and parent.args[:1] == [inner])
    if truth and not text.startswith("bool("):
        return f"bool({text})"
    return text


def observed_calls(tests: str, names: set[str] | None = None) -> list[tuple[ast.Call, str]]:
    """asserted_calls, each with how its check reads the result (_observer): ``set(CALL_MARK)`` for
    ``assert set(f(x)) == {1, 2}``, CALL_MARK alone for ``assert f(x) == [1, 2]``; and the calls whose result a
    check reads by a name, with the inputs a test names passed as their values (agent.loop.named_values)."""
    try:
        module = parse(tests)
    except SyntaxError:
        return []
    in_file = file_names(module)
    found = [(call, _observer(call, in_file.parents)) for call in _calls(module, names)]
    # A result named before a check reads it (result = f(x); assert result == 6) is read where the check reads it;
    # the check's message may name it too (assert result == 6, f"got {result}"), which reads nothing else of it.
    checked = {id(node) for expression in [*_checked(module), *_messages(module)] for node in ast.walk(expression)}
    found += [(call, _observer(name, in_file.parents))
              for call, name in named_results(in_file, checked, lambda c: _is_function(c, names))]
    # A result handed straight to a helper of the tests' that checks it (check_eq(f(2), 4)) is read there alike.
    found += [(call, _observer(name, in_file.parents))
              for call, name in results_checked_by_helpers(in_file, checked, lambda c: _is_function(c, names))]
    found.sort(key=lambda pair: (pair[0].lineno, pair[0].col_offset))
    read = with_named_inputs([call for call, _ in found], in_file, lambda c: _is_function(c, names))
    return [(call, observer) for calls, (_, observer) in zip(read, found) for call in calls]


def asserted_calls(tests: str, names: set[str] | None = None) -> list[ast.Call]:
    """Each call of a plain name inside a check, in order: of one of names, or (names None) of any function
    that is not a builtin. A test file that does not parse has none."""
    try:
        module = parse(tests)
    except SyntaxError:
        return []
    return _calls(module, names)


def _is_function(node: ast.AST, names: set[str] | None) -> bool:
    """Whether node calls a plain name: one of names, or (names None) any function that is not a builtin."""
    return isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and (
        node.func.id in names if names is not None else node.func.id not in dir(builtins))


def _calls(module: ast.Module, names: set[str] | None) -> list[ast.Call]:
    calls: dict[int, ast.Call] = {}  # by id: a unittest assertion inside an assert is walked twice
    for checked in _checked(module):
        for call in ast.walk(checked):
            if _is_function(call, names):
                calls.setdefault(id(call), call)
    return sorted(calls.values(), key=lambda c: (c.lineno, c.col_offset))


def compared_results(tests: str, name: str) -> list[tuple[ast.Call, object]]:
    """Each call of name that a check compares for equality with a literal, with the literal's value: what the
    person wrote the call returns (``assert f(x) == 'a'``, ``self.assertEqual(f(x), 'a')``, either side). A test
    file that does not parse has none."""
    try:
        module = parse(tests)
    except SyntaxError:
        return []
    pairs: list[tuple[ast.expr, ast.expr]] = []
    for node in ast.walk(module):
        if isinstance(node, ast.Compare) and len(node.ops) == 1 and isinstance(node.ops[0], ast.Eq):
            pairs.append((node.left, node.comparators[0]))
        elif _is_assertion_method(node) and node.func.attr == "assertEqual" and len(node.args) >= 2:
            pairs.append((node.args[0], node.args[1]))
    found = []
    for a, b in pairs:
        for call, other in ((a, b), (b, a)):
            ok, value = literal(other)
            if ok and _is_function(call, {name}):
                found.append((call, value))
    return found
