"""The test process: runs the tests against proxies of the candidate's functions.

Runs inside the sandbox as a uid of its own, in a process the candidate code never runs in.
Every call to the candidate is a request over a pipe; the answer is plain data (or a handle to
an object that stays in the candidate process). All comparisons happen here, on values this
process built itself, so nothing the candidate does can make an assert pass that should fail.
"""

from __future__ import annotations

import ast
import builtins
import itertools
import json
import math
import operator
import os
import re
import sys
import time
import traceback
import types

import wire

TESTS_FILE = "tests.py"
_REPR_LIMIT = 300
_TRACEBACK_LIMIT = 2000
_NEVER_RERAISED = {"SystemExit", "KeyboardInterrupt", "GeneratorExit", "BaseException"}


def _short(text: str, limit: int = _REPR_LIMIT) -> str:
    return text if len(text) <= limit else text[:limit] + f"... [{len(text) - limit} more chars]"


def _safe_repr(value: object) -> str:
    try:
        return _short(repr(value))
    except Exception as exc:
        return f"<unrepresentable {type(value).__name__}: {exc}>"


class CandidateDied(Exception):
    """The candidate process stopped answering: it exited, crashed or was killed."""


class RemoteError(Exception):
    """Base of exceptions re-raised from the candidate process."""

    remote_traceback = ""


class TestAssertion(AssertionError):
    """A failed assert, with the two values it compared."""

    def __init__(self, lineno: int, op: str | None, left: object, right: object, msg: object) -> None:
        super().__init__("" if msg is None else str(msg))
        self.lineno, self.op = lineno, op
        self.left = _safe_repr(left)
        self.right = None if op is None else _safe_repr(right)


_error_classes: dict[tuple[str, str], type] = {}


def _remote_exception(info: dict) -> BaseException:
    """Rebuild the candidate's exception as a local one of the same builtin family (so except works)."""
    base_name = info.get("base", "Exception")
    base = getattr(builtins, base_name, Exception)
    if base_name in _NEVER_RERAISED or not (isinstance(base, type) and issubclass(base, Exception)):
        base = Exception
    key = (str(info.get("type")), base.__name__)
    if key not in _error_classes:
        bases = (RemoteError,) if base is Exception else (base, RemoteError)
        _error_classes[key] = type(key[0], bases, {"__module__": "solution"})
    cls = _error_classes[key]
    exc = cls.__new__(cls)
    exc.args = (str(info.get("message", "")),)
    exc.remote_traceback = str(info.get("traceback", ""))
    return exc


class Channel:
    """Request/response pipe to the candidate process."""

    def __init__(self, req_fd: int, resp_fd: int) -> None:
        self.req_fd, self.resp_fd = req_fd, resp_fd
        self.dead: str | None = None

    def receive(self) -> tuple:
        try:
            message = wire.recv(self.resp_fd)
        except (wire.ChannelClosed, OSError) as exc:
            self.dead = f"the candidate process stopped answering ({exc or 'it exited'})"
            raise CandidateDied(self.dead) from None
        if type(message) is not tuple or not message or type(message[0]) is not str:
            self.dead = "the candidate process sent a garbled answer"
            raise CandidateDied(self.dead)
        return message

    def request(self, op: str, ref: tuple, *args: object) -> object:
        if self.dead:
            raise CandidateDied(self.dead)
        try:
            wire.send(self.req_fd, (op, ref, *args))
        except OSError:
            self.dead = "the candidate process is gone"
            raise CandidateDied(self.dead) from None
        answer = self.receive()
        if answer[0] == "ok" and len(answer) == 3:
            return answer
        if answer[0] == "err" and len(answer) == 2 and type(answer[1]) is dict:
            raise _remote_exception(answer[1])
        if answer[0] == "stop":
            raise StopIteration
        raise CandidateDied("the candidate process sent a garbled answer")

    def decode(self, enc: object) -> object:
        if type(enc) is tuple and len(enc) == 2 and enc[0] == "v":
            return enc[1]
        if type(enc) is tuple and len(enc) == 4 and enc[0] == "h" and type(enc[1]) is int:
            return RemoteObject(self, enc[1], str(enc[2]), str(enc[3]))
        raise CandidateDied("the candidate process sent a garbled value")


def _encode_arg(value: object) -> tuple:
    if isinstance(value, RemoteObject):
        return ("h", object.__getattribute__(value, "_id"))
    try:
        return ("v", wire.normalize(value))
    except wire.NotPlain:
        raise TypeError(
            f"cannot pass a {type(value).__name__} to the code under test: only plain data "
            "(numbers, strings, bytes, lists, tuples, dicts, sets, None) crosses the sandbox boundary"
        ) from None


def _call(channel: Channel, ref: tuple, args: tuple, kwargs: dict) -> object:
    _, result, mutated = channel.request(
        "call", ref, [_encode_arg(a) for a in args], {k: _encode_arg(v) for k, v in kwargs.items()}
    )
    for index, new in mutated if type(mutated) is list else ():
        arg = args[index] if type(index) is int and 0 <= index < len(args) else None
        if type(arg) is list and type(new) is list:
            arg[:] = new
        elif type(arg) in (dict, set) and type(new) is type(arg):
            arg.clear()
            arg.update(new)
    return channel.decode(result)


class RemoteCallable:
    """A function or class defined by the candidate code."""

    def __init__(self, channel: Channel, name: str) -> None:
        self._channel, self.__name__ = channel, name

    def __call__(self, *args: object, **kwargs: object) -> object:
        return _call(self._channel, ("g", self.__name__), args, kwargs)

    def __repr__(self) -> str:
        return f"<candidate {self.__name__}>"


class RemoteObject:
    """An object that lives in the candidate process; it equals only objects of the candidate's own."""

    __slots__ = ("_channel", "_id", "_type", "_repr")

    def __init__(self, channel: Channel, handle: int, type_name: str, text: str) -> None:
        for name, value in zip(self.__slots__, (channel, handle, type_name, text)):
            object.__setattr__(self, name, value)

    def _ask(self, op: str, *args: object) -> object:
        channel = object.__getattribute__(self, "_channel")
        return channel.decode(channel.request(op, ("h", object.__getattribute__(self, "_id")), *args)[1])

    def __getattr__(self, name: str) -> object:
        if name.startswith("__"):
            raise AttributeError(name)
        return self._ask("getattr", name)

    def __setattr__(self, name: str, value: object) -> None:
        self._ask("setattr", name, _encode_arg(value))

    def __call__(self, *args: object, **kwargs: object) -> object:
        ref = ("h", object.__getattribute__(self, "_id"))
        return _call(object.__getattribute__(self, "_channel"), ref, args, kwargs)

    def __iter__(self) -> object:
        it = self._ask("iter")
        return it if isinstance(it, RemoteObject) else iter(it)

    def __next__(self) -> object:
        return self._ask("next")

    def __len__(self) -> int:
        return int(self._ask("len"))

    def __getitem__(self, key: object) -> object:
        return self._ask("getitem", _encode_arg(key))

    def __setitem__(self, key: object, value: object) -> None:
        self._ask("setitem", _encode_arg(key), _encode_arg(value))

    def __contains__(self, item: object) -> bool:
        return self._ask("contains", _encode_arg(item)) is True

    def __bool__(self) -> bool:
        return self._ask("bool") is True

    def __str__(self) -> str:
        return str(self._ask("str"))

    def __repr__(self) -> str:
        return object.__getattribute__(self, "_repr")

    def _binop(self, name: str, other: object) -> object:
        if not isinstance(other, RemoteObject):
            # A candidate object against plain data: its own __eq__ could claim anything.
            return NotImplemented
        return self._ask("binop", name, _encode_arg(other))

    def __eq__(self, other: object) -> bool:
        result = self._binop("eq", other)
        return result is True

    def __ne__(self, other: object) -> bool:
        return not self.__eq__(other)

    def __lt__(self, other: object) -> object:
        return self._binop("lt", other)

    def __le__(self, other: object) -> object:
        return self._binop("le", other)

    def __gt__(self, other: object) -> object:
        return self._binop("gt", other)

    def __ge__(self, other: object) -> object:
        return self._binop("ge", other)

    __hash__ = object.__hash__


# --- asserts that report the values they compared -------------------------------------------

_OPS = {
    "Eq": operator.eq, "NotEq": operator.ne, "Lt": operator.lt, "LtE": operator.le,
    "Gt": operator.gt, "GtE": operator.ge, "Is": operator.is_, "IsNot": operator.is_not,
    "In": lambda a, b: a in b, "NotIn": lambda a, b: a not in b,
}
_OP_TEXT = {"Eq": "==", "NotEq": "!=", "Lt": "<", "LtE": "<=", "Gt": ">", "GtE": ">=",
            "Is": "is", "IsNot": "is not", "In": "in", "NotIn": "not in"}


def _sbx_compare(lineno: int, op: str, left: object, right: object, msg: object) -> None:
    if not _OPS[op](left, right):
        raise TestAssertion(lineno, _OP_TEXT[op], left, right, msg() if msg else None)


def _sbx_truth(lineno: int, value: object, msg: object) -> None:
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

class _Skipped(Exception):
    pass


class _RaisesContext:
    def __init__(self, expected: type | tuple, match: str | None) -> None:
        self.expected, self.match, self.value = expected, match, None

    def __enter__(self) -> _RaisesContext:
        return self

    def __exit__(self, kind: type | None, value: BaseException | None, tb: object) -> bool:
        if kind is None:
            raise AssertionError(f"DID NOT RAISE {self.expected}")
        if not issubclass(kind, self.expected):
            return False
        if self.match is not None and not re.search(self.match, str(value)):
            raise AssertionError(f"Regex {self.match!r} does not match {str(value)!r}")
        self.value = value
        return True


class _Approx:
    def __init__(self, expected: object, rel: float, abs_: float) -> None:
        self.expected, self.rel, self.abs = expected, rel, abs_

    def _close(self, a: object, b: object) -> bool:
        if isinstance(a, (list, tuple)) and isinstance(b, (list, tuple)):
            return len(a) == len(b) and all(self._close(x, y) for x, y in zip(a, b))
        if isinstance(a, dict) and isinstance(b, dict):
            return a.keys() == b.keys() and all(self._close(a[k], b[k]) for k in a)
        if type(a) in (int, float) and type(b) in (int, float):
            return math.isclose(a, b, rel_tol=self.rel, abs_tol=self.abs)
        return a == b

    def __eq__(self, other: object) -> bool:
        return self._close(other, self.expected)

    def __repr__(self) -> str:
        return f"approx({self.expected!r})"


def _pytest_module() -> types.ModuleType:
    def raises(expected, *args, match=None, **kwargs):
        ctx = _RaisesContext(expected, match)
        if not args:
            return ctx
        with ctx:
            args[0](*args[1:], **kwargs)
        return ctx

    def parametrize(names, values, **_):
        def mark(fn):
            fn.__dict__.setdefault("__sbx_params__", []).insert(0, (names, list(values)))
            return fn
        return mark

    class _Mark:
        def __getattr__(self, name):
            return parametrize if name == "parametrize" else (lambda *a, **k: (lambda fn: fn))

    module = types.ModuleType("pytest")
    module.raises = raises
    module.approx = lambda expected, rel=1e-6, abs=1e-12: _Approx(expected, rel, abs)
    module.fail = lambda msg="": (_ for _ in ()).throw(AssertionError(msg))
    module.skip = lambda reason="": (_ for _ in ()).throw(_Skipped(reason))
    module.mark = _Mark()
    return module


def _param_cases(fn: object) -> list[tuple[str, dict]]:
    cases = [("", {})]
    for names, values in getattr(fn, "__sbx_params__", []):
        keys = [n.strip() for n in names.split(",")] if isinstance(names, str) else list(names)
        expanded = []
        for (label, kwargs), (i, value) in itertools.product(cases, enumerate(values)):
            vals = value if len(keys) > 1 else (value,)
            expanded.append((f"{label}-{i}" if label else str(i), {**kwargs, **dict(zip(keys, vals))}))
        cases = expanded
    return [(f"[{label}]" if label else "", kwargs) for label, kwargs in cases]


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
        return detail

    def run(self, name: str, fn: object, *args: object, **kwargs: object) -> None:
        self.emit(ev="start", name=name)
        started = time.perf_counter()
        result: dict = {"name": name, "passed": True}
        try:
            fn(*args, **kwargs)
        except _Skipped as exc:
            result.update(skipped=True, message=str(exc))
        except Exception as exc:
            result.update(passed=False, **self.failure(exc))
        result["duration_ms"] = round((time.perf_counter() - started) * 1000, 3)
        self.emit(ev="test", **result)


def detect_shape(module: ast.Module) -> str:
    """``check`` (HumanEval), ``pytest`` (test_* functions or Test* classes) or ``asserts``."""
    defs = [n for n in module.body if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef))]
    if any(isinstance(n, ast.FunctionDef) and n.name == "check" for n in defs):
        return "check"
    if any(n.name.startswith("test") if not isinstance(n, ast.ClassDef) else n.name.startswith("Test")
           for n in defs):
        return "pytest"
    return "asserts"


def _run_asserts(module: ast.Module, source: str, ns: dict, reporter: Reporter) -> None:
    for stmt in module.body:
        is_test = any(isinstance(n, ast.Assert) for n in ast.walk(stmt))
        code = compile(ast.fix_missing_locations(ast.Module([_AssertRewriter().visit(stmt)], [])),
                       TESTS_FILE, "exec")
        if not is_test:
            try:
                exec(code, ns)
                continue
            except Exception:
                pass  # a failing setup line is reported like a test, so it is never silent
        first = (ast.get_source_segment(source, stmt) or "").splitlines()[0] if source else ""
        reporter.run(f"line {stmt.lineno}: {_short(first, 120)}", exec, code, ns)


def _run_pytest(ns: dict, reporter: Reporter) -> None:
    for name, obj in list(ns.items()):
        if name.startswith("test") and isinstance(obj, types.FunctionType):
            for label, kwargs in _param_cases(obj):
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
    source = wire.read_exact(0, tests_len).decode("utf-8", "replace") if tests_len else ""
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
    sys.modules["pytest"] = _pytest_module()
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
        reporter.run(f"check({entry_point or 'candidate'})", ns["check"], ns.get("candidate"))
    else:
        _run_pytest(ns, reporter)
