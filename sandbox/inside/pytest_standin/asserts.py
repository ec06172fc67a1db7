"""The tests' asserts, rewritten to keep the two values they compared, and what to say when those print the same.

Runs inside the sandbox (stdlib only), in the tests' process. ``assert a == b, m`` becomes a call that evaluates a
and b once, compares them here (never in the code's process), and on failure raises TestAssertion holding both
values' reprs; when the two reprs are the same text, the failure says how the values differ (their types, digits a
float's repr hides, the order of a dict or set, a proxy of the code's against a value of the tests').
"""

from __future__ import annotations

import ast
import operator

import unsupported
from live_views import standard_type
from shapes import is_check_call
from syntax_walk import CodeTransformer, walk

_REPR_LIMIT = 300
# `type(get_config()) is dict`: a live view's type is the container type it stands for, as in one process.
OPS = {"Eq": operator.eq, "NotEq": operator.ne, "Lt": operator.lt, "LtE": operator.le, "Gt": operator.gt,
       "GtE": operator.ge, "Is": lambda a, b: same(a, b), "IsNot": lambda a, b: not same(a, b),
       "In": lambda a, b: a in b, "NotIn": lambda a, b: a not in b}
OP_TEXT = {"Eq": "==", "NotEq": "!=", "Lt": "<", "LtE": "<=", "Gt": ">", "GtE": ">=", "Is": "is", "IsNot": "is not",
           "In": "in", "NotIn": "not in"}


def short(text: str, limit: int = _REPR_LIMIT) -> str:
    return text if len(text) <= limit else text[:limit] + f"... [{len(text) - limit} more chars]"


def safe_repr(value: object) -> str:
    try:
        return short(repr(value))
    except Exception as exc:
        return f"<unrepresentable {type(value).__name__}: {exc}>"


class TestAssertion(AssertionError):
    """A failed assert, with the two values it compared."""

    def __init__(self, lineno: int, op: str | None, left: object, right: object, msg: object) -> None:
        self.lineno, self.op = lineno, op
        self.left = safe_repr(left)
        self.right = None if op is None else safe_repr(right)
        if msg is None and op == "==" and self.left == self.right:  # why two equal-looking values are not equal
            msg = differ(left, right)
        super().__init__("" if msg is None else str(msg))


class Counter:
    """How many asserts ran, and on which lines: a check() or an assert line that ran none checked nothing, and a
    helper whose lines never ran was never called."""

    ran = 0
    lines: set[int] = set()


def compare(lineno: int, op: str, left: object, right: object, msg: object) -> None:
    Counter.ran += 1
    Counter.lines.add(lineno)
    outcome = OPS[op](left, right)
    try:
        holds = bool(outcome)
    except Exception as exc:
        # An ndarray compares element by element, and an array of several truths is neither true nor false
        # (pytest fails such an assert with the same ValueError): say so with both values, not just the error.
        raise TestAssertion(lineno, OP_TEXT[op], left, right,
                            f"left {OP_TEXT[op]} right gave {safe_repr(outcome)}, which is not true or false "
                            f"({type(exc).__name__}: {exc}); compare arrays with np.array_equal or "
                            f"np.allclose, or a list with .tolist()") from None
    if not holds:
        raise TestAssertion(lineno, OP_TEXT[op], left, right, msg() if msg else None)


def same(left: object, right: object) -> bool:
    """``left is right`` as the tests' code says it (Rewriter.visit_Compare): a live view's type is the container
    type it stands for, as the container's type is in one process."""
    return standard_type(left) is standard_type(right)


def teach_unittest() -> None:
    """unittest's assertIs and assertIsNot in this process compare as the tests' own ``is`` does (same):
    ``self.assertIs(type(inv.stock), dict)`` holds of a dict the code keeps, as in one process; and its assertRaises
    says what it took (unsupported.stop_taken: a StopIteration of the code's it expected)."""
    import unittest
    import unittest.case

    case = unittest.TestCase
    if getattr(case, "_sbx_taught", False):
        return
    is_, is_not = case.assertIs, case.assertIsNot
    raises_exit = unittest.case._AssertRaisesContext.__exit__

    def took(self, exc_type, exc_value, tb):
        taken = raises_exit(self, exc_type, exc_value, tb)
        if taken:
            unsupported.stop_taken(exc_value)
        return taken

    unittest.case._AssertRaisesContext.__exit__ = took

    def assert_is(self, expr1, expr2, msg=None):
        return is_(self, standard_type(expr1), standard_type(expr2), msg)

    def assert_is_not(self, expr1, expr2, msg=None):
        return is_not(self, standard_type(expr1), standard_type(expr2), msg)

    case.assertIs, case.assertIsNot, case._sbx_taught = assert_is, assert_is_not, True


def truth(lineno: int, value: object, msg: object) -> None:
    Counter.ran += 1
    Counter.lines.add(lineno)
    if not value:
        raise TestAssertion(lineno, None, value, None, msg() if msg else None)


def checked(lineno: int, value: object) -> object:
    """A call of a check that raises AssertionError itself (shapes.is_check_call) returned: counted as an assert
    that ran and held, its value given back (a mock's assert_called_once_with returns None)."""
    Counter.ran += 1
    Counter.lines.add(lineno)
    return value


def caught(lineno: int) -> None:
    """An except clause of the tests was entered whose try block holds an assert: the test expected the exception
    (``try: f(-1); assert False / except ValueError: pass``), and catching it is the check its run makes in Python.
    Counted as an assert that ran, so such a test passes as it does there, not as one that checked nothing."""
    Counter.ran += 1
    Counter.lines.add(lineno)


class Rewriter(CodeTransformer):
    """Turns ``assert a == b, m`` into a call that evaluates a and b once and keeps both values, counts a check
    call that returned (checked), and has an except clause whose try block holds an assert say it was entered
    (caught)."""

    def visit_Try(self, node: ast.Try) -> ast.AST:
        expects = any(isinstance(n, ast.Assert) or is_check_call(n) for stmt in node.body for n in walk(stmt))
        self.generic_visit(node)
        if expects:
            for handler in node.handlers:
                mark = ast.Expr(ast.Call(ast.Name("__sbx_caught__", ast.Load()), [ast.Constant(handler.lineno)], []))
                handler.body.insert(0, ast.copy_location(mark, handler))
        return node

    visit_TryStar = visit_Try

    def visit_Call(self, node: ast.Call) -> ast.AST:
        self.generic_visit(node)
        if not is_check_call(node):
            return node
        call = ast.Call(ast.Name("__sbx_checked__", ast.Load()), [ast.Constant(node.lineno), node], [])
        return ast.copy_location(call, node)

    def visit_Compare(self, node: ast.Compare) -> ast.AST:
        # `type(jobs.seen) is dict` anywhere in the tests (an if, an and): identity by same(), which takes a live
        # view's type for the container type it stands for. A chain (a is b is c) is left as Python reads it.
        self.generic_visit(node)
        if len(node.ops) != 1 or not isinstance(node.ops[0], (ast.Is, ast.IsNot)):
            return node
        call = ast.Call(ast.Name("__sbx_is__", ast.Load()), [node.left, node.comparators[0]], [])
        if isinstance(node.ops[0], ast.IsNot):
            call = ast.UnaryOp(ast.Not(), call)
        return ast.copy_location(call, node)

    def visit_Assert(self, node: ast.Assert) -> ast.AST:
        if isinstance(node.test, ast.Compare) and len(node.test.ops) == 1:
            # its own comparison stays one, for __sbx_compare__ to keep both values (its operands are visited)
            node.test.left = self.visit(node.test.left)
            node.test.comparators = [self.visit(node.test.comparators[0])]
            node.msg = self.visit(node.msg) if node.msg else None
        else:
            self.generic_visit(node)
        no_args = ast.arguments(posonlyargs=[], args=[], vararg=None, kwonlyargs=[], kw_defaults=[],
                                kwarg=None, defaults=[])
        msg = ast.Lambda(args=no_args, body=node.msg) if node.msg else ast.Constant(None)
        test = node.test
        if isinstance(test, ast.Compare) and len(test.ops) == 1:
            func, args = "__sbx_compare__", [ast.Constant(type(test.ops[0]).__name__), test.left,
                                             test.comparators[0]]
        else:
            func, args = "__sbx_truth__", [test]
        call = ast.Call(ast.Name(func, ast.Load()), [ast.Constant(node.lineno), *args, msg], [])
        return ast.copy_location(ast.Expr(call), node)


def differ(left: object, right: object) -> str:
    """Why two values that print the same are not equal, in words a person can act on."""
    found = _first_difference(left, right, "", 0)
    if found is None and _class(left) is _class(right) and _class(left).__module__ not in ("builtins", "sandbox"):
        found = (f"they are two {_kind(left)} objects, which are equal only to themselves unless the class "
                 "defines __eq__")
    return f"both sides print the same, but {found}" if found else "both sides print the same, but are not equal"


def _class(value: object) -> type:
    # What the value says its class is: a proxy of the code's SimpleNamespace or list is one to isinstance, and its
    # own class's __module__ may be a property (an instance's module), no text.
    cls = value.__class__
    return cls if isinstance(cls, type) and isinstance(cls.__module__, str) else type(value)


def _kind(value: object) -> str:
    cls = _class(value)
    origin = " (from the code under test)" if cls.__module__ == "solution" else ""
    return f"{cls.__module__}.{cls.__qualname__}{origin}" if cls.__module__ not in ("builtins",) else cls.__name__


def _first_difference(left: object, right: object, where: str, depth: int) -> str | None:
    at = f" at {where}" if where else ""
    if depth > 20:
        return None
    if _class(left) is not _class(right):
        return f"their types differ{at}: left is {_kind(left)}, right is {_kind(right)}"
    if isinstance(left, float) and left != right:
        return f"the floats differ{at} in digits the print hides: {left!r} against {right!r} ({left - right:+.3g})"
    if isinstance(left, (list, tuple)) and len(left) == len(right):
        for index, (a, b) in enumerate(zip(left, right)):
            if not _equal(a, b):
                return _first_difference(a, b, f"{where}[{index}]", depth + 1) or f"item {index} differs{at}"
    if isinstance(left, dict) and left.keys() == right.keys():
        if list(left) != list(right) and all(_equal(left[k], right[k]) for k in left):
            return f"only the order of the keys differs{at}"
        for key in left:
            if not _equal(left[key], right[key]):
                return _first_difference(left[key], right[key], f"{where}[{key!r}]", depth + 1)
    return None


def _equal(a: object, b: object) -> bool:
    try:
        return bool(a == b)
    except Exception:
        return False
