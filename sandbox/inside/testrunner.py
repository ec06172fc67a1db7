"""The test process: runs the tests against proxies of the candidate's functions.

Runs inside the sandbox as a uid of its own, in a process the candidate code never runs in.
Every call to the candidate is a request over a pipe; the answer is plain data (or a handle to
an object that stays in the candidate process). All comparisons happen here, on values this
process built itself, so nothing the candidate does can make an assert pass that should fail.
"""

from __future__ import annotations

import ast
import builtins
import inspect
import json
import operator
import os
import sys
import time
import traceback
import types

import pytest_shim
from shapes import detect_shape, holds_assert
from wire import read_exact
from remote import CandidateDied, Channel, RemoteCallable, RemoteError

TESTS_FILE = "tests.py"
_REPR_LIMIT = 300
_TRACEBACK_LIMIT = 2000


def _short(text: str, limit: int = _REPR_LIMIT) -> str:
    return text if len(text) <= limit else text[:limit] + f"... [{len(text) - limit} more chars]"


def _safe_repr(value: object) -> str:
    try:
        return _short(repr(value))
    except Exception as exc:
        return f"<unrepresentable {type(value).__name__}: {exc}>"


class TestAssertion(AssertionError):
    """A failed assert, with the two values it compared."""

    def __init__(self, lineno: int, op: str | None, left: object, right: object, msg: object) -> None:
        super().__init__("" if msg is None else str(msg))
        self.lineno, self.op = lineno, op
        self.left = _safe_repr(left)
        self.right = None if op is None else _safe_repr(right)


# --- asserts that report the values they compared -------------------------------------------

_OPS = {
    "Eq": operator.eq, "NotEq": operator.ne, "Lt": operator.lt, "LtE": operator.le,
    "Gt": operator.gt, "GtE": operator.ge, "Is": operator.is_, "IsNot": operator.is_not,
    "In": lambda a, b: a in b, "NotIn": lambda a, b: a not in b,
}
_OP_TEXT = {"Eq": "==", "NotEq": "!=", "Lt": "<", "LtE": "<=", "Gt": ">", "GtE": ">=",
            "Is": "is", "IsNot": "is not", "In": "in", "NotIn": "not in"}


class TestNotRun(Exception):
    """A test whose body never ran (a generator function) or that checked nothing."""


_asserts_run = 0  # asserts evaluated so far: a check() or assert line that ran none checked nothing


def _sbx_compare(lineno: int, op: str, left: object, right: object, msg: object) -> None:
    global _asserts_run
    _asserts_run += 1
    outcome = _OPS[op](left, right)
    try:
        holds = bool(outcome)
    except Exception as exc:
        # An ndarray compares element by element, and an array of several truths is neither true nor false
        # (pytest fails such an assert with the same ValueError): say so with both values, not just the error.
        raise TestAssertion(lineno, _OP_TEXT[op], left, right,
                            f"left {_OP_TEXT[op]} right gave {_safe_repr(outcome)}, which is not true or false "
                            f"({type(exc).__name__}: {exc}); compare arrays with np.array_equal or "
                            f"np.allclose, or a list with .tolist()") from None
    if not holds:
        raise TestAssertion(lineno, _OP_TEXT[op], left, right, msg() if msg else None)


def _sbx_truth(lineno: int, value: object, msg: object) -> None:
    global _asserts_run
    _asserts_run += 1
    if not value:
        raise TestAssertion(lineno, None, value, None, msg() if msg else None)


class _AssertRewriter(ast.NodeTransformer):
    """Turns ``assert a == b, m`` into a call that evaluates a and b once and keeps both values."""

    def visit_Assert(self, node: ast.Assert) -> ast.AST:
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


# --- a small pytest stand-in (the sandbox has only the standard library) --------------------

# --- running and reporting -----------------------------------------------------------------

class Reporter:
    """Sends one JSON line per event to the worker over a pipe the candidate never holds."""

    def __init__(self, fd: int, source_lines: list[str]) -> None:
        self.fd, self.lines = fd, source_lines

    def emit(self, **event: object) -> None:
        data = (json.dumps(event) + "\n").encode()
        while data:
            data = data[os.write(self.fd, data):]

    def line(self, lineno: int | None) -> str | None:
        if lineno and 0 < lineno <= len(self.lines):
            return self.lines[lineno - 1].strip()
        return None

    def failure(self, exc: BaseException) -> dict:
        """What the model reads about a failure: line, compared values, error, trimmed traceback."""
        frames = [f for f in traceback.extract_tb(exc.__traceback__) if f.filename == TESTS_FILE]
        lineno = exc.lineno if isinstance(exc, TestAssertion) else (frames[-1].lineno if frames else None)
        text = "".join(traceback.format_list(frames))
        if isinstance(exc, RemoteError) and exc.remote_traceback:
            text += "In the code under test:\n" + exc.remote_traceback
        detail = {
            "lineno": lineno, "line": self.line(lineno),
            "error_type": "AssertionError" if isinstance(exc, TestAssertion) else type(exc).__name__,
            "message": _short(str(exc), 1000), "traceback": _short(text, _TRACEBACK_LIMIT),
        }
        if isinstance(exc, TestAssertion):
            detail.update(op=exc.op, left=exc.left, right=exc.right)
        if isinstance(exc, ModuleNotFoundError):
            # Whose import failed: the code's (re-raised from its process) or the tests' own.
            detail.update(module=exc.name if type(exc.name) is str else None,
                          module_in="code" if isinstance(exc, RemoteError) else "tests")
        return detail

    def run(self, name: str, fn: object, *args: object, must_assert: bool = False, **kwargs: object) -> None:
        """Run one test and report it. A coroutine it returns is run to the end (as pytest-asyncio does); a
        generator, a returned value, or (with must_assert) no assert evaluated is a failure: none of them
        checked anything."""
        self.emit(ev="start", name=name)
        started = time.perf_counter()
        result: dict = {"name": name, "passed": True}
        asserts_before = _asserts_run
        try:
            value = fn(*args, **kwargs)
            if inspect.iscoroutine(value):
                import asyncio

                value = asyncio.run(value)
            if inspect.isgenerator(value):
                value.close()
                raise TestNotRun("the test function yields, so its body never ran (pytest does not run "
                                 "yield tests either); write it as a plain function or use parametrize")
            if value is not None:
                raise TestNotRun(f"the test returned {_safe_repr(value)} instead of asserting it; a returned "
                                 "value checks nothing")
            if must_assert and _asserts_run == asserts_before:
                raise TestNotRun("no assert ran, so nothing was checked")
        except pytest_shim.Skipped as exc:
            result.update(skipped=True, message=str(exc))
        except Exception as exc:
            result.update(passed=False, **self.failure(exc))
        result["duration_ms"] = round((time.perf_counter() - started) * 1000, 3)
        self.emit(ev="test", **result)


def _run_asserts(module: ast.Module, source: str, ns: dict, reporter: Reporter) -> None:
    for stmt in module.body:
        is_test = holds_assert(stmt)
        code = compile(ast.fix_missing_locations(ast.Module([_AssertRewriter().visit(stmt)], [])),
                       TESTS_FILE, "exec")
        if not is_test:
            try:
                exec(code, ns)
                continue
            except Exception:
                pass  # a failing setup line is reported like a test, so it is never silent
        first = (ast.get_source_segment(source, stmt) or "").splitlines()[0] if source else ""
        # A definition holding an assert is not a check by itself; any other line must evaluate one.
        definition = isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef))
        reporter.run(f"line {stmt.lineno}: {_short(first, 120)}", exec, code, ns, must_assert=not definition)


def _run_pytest(ns: dict, reporter: Reporter) -> None:
    for name, obj in list(ns.items()):
        if name.startswith("test") and isinstance(obj, types.FunctionType):
            cases = pytest_shim.param_cases(obj)
            if not cases:
                reporter.emit(ev="test", name=name + "[]", passed=True, skipped=True, duration_ms=0,
                              message="parametrize gave no cases, so this test never ran (pytest skips it too)")
            for label, kwargs in cases:
                reporter.run(name + label, obj, **kwargs)
        elif name.startswith("Test") and isinstance(obj, type):
            for attr in [a for a in vars(obj) if a.startswith("test")]:
                reporter.run(f"{name}::{attr}", _run_method, obj, attr)


def _run_method(cls: type, attr: str) -> None:
    import unittest

    if issubclass(cls, unittest.TestCase):
        instance = cls(attr)
        instance.setUp()
        try:
            getattr(instance, attr)()
        finally:
            instance.tearDown()
        return
    instance = cls()
    if hasattr(instance, "setup_method"):
        instance.setup_method(getattr(instance, attr))
    getattr(instance, attr)()


def run(tests_len: int, entry_point: str | None, req_fd: int, resp_fd: int, report_fd: int) -> None:
    """Read the tests from stdin, wait for the candidate's names, run every test, report each."""
    source = read_exact(0, tests_len).decode("utf-8", "replace") if tests_len else ""
    os.close(0)
    reporter = Reporter(report_fd, source.splitlines())
    reporter.emit(ev="tests_read")
    try:
        module = ast.parse(source, TESTS_FILE)
    except SyntaxError as exc:
        reporter.emit(ev="tests_invalid", message=f"the tests do not parse: {exc.msg} (line {exc.lineno})",
                      lineno=exc.lineno)
        return
    shape = detect_shape(module)
    channel = Channel(req_fd, resp_fd)
    try:
        hello = channel.receive()
    except CandidateDied:
        reporter.emit(ev="import_error", error={"type": "CandidateDied", "lineno": None, "traceback": "",
                      "message": "the code exited or was killed while it was being loaded"})
        return
    if hello[0] == "import_error":
        reporter.emit(ev="import_error", error=hello[1])
        return
    names = hello[1] if hello[0] == "hello" and len(hello) == 2 and type(hello[1]) is dict else {}
    solution = types.ModuleType("solution")
    for name, enc in names.items():
        setattr(solution, name, RemoteCallable(channel, name) if enc == ("callable",) else channel.decode(enc))
    if entry_point and not isinstance(getattr(solution, entry_point, None), RemoteCallable):
        reporter.emit(ev="import_error", error={"type": "NameError", "lineno": None, "traceback": "",
                      "message": f"the code does not define a function named {entry_point!r}"})
        return
    sys.modules["solution"] = solution
    sys.modules["pytest"] = pytest_shim.pytest_module()
    ns: dict = {"__name__": "tests", "__builtins__": builtins, "__sbx_compare__": _sbx_compare,
                "__sbx_truth__": _sbx_truth, **vars(solution)}
    ns.pop("__name__", None)
    ns["__name__"] = "tests"
    if entry_point:
        ns["candidate"] = getattr(solution, entry_point)
    reporter.emit(ev="shape", shape=shape)
    if shape == "asserts":
        _run_asserts(module, source, ns, reporter)
        return
    rewritten = compile(ast.fix_missing_locations(_AssertRewriter().visit(module)), TESTS_FILE, "exec")
    try:
        exec(rewritten, ns)
    except Exception as exc:
        reporter.emit(ev="test", name="load tests.py", passed=False, duration_ms=0, **reporter.failure(exc))
        return
    if shape == "check":
        reporter.run(f"check({entry_point or 'candidate'})", ns["check"], ns.get("candidate"), must_assert=True)
    else:
        _run_pytest(ns, reporter)
