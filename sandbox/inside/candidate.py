"""The candidate process: runs the untrusted code and answers calls from the test process.

Runs inside the sandbox as its own unprivileged uid. It never sees the tests and never
decides a verdict: it only returns values (see wire.normalize) or handles to objects it keeps.
Whatever the untrusted code does to this process, the worst it can do is answer wrongly.
"""

from __future__ import annotations

import builtins
import linecache
import marshal
import operator
import sys
import traceback
import types

import wire

SOLUTION_FILE = "solution.py"
_MAX_TEXT = 2000


def _short(text: str, limit: int = _MAX_TEXT) -> str:
    return text if len(text) <= limit else text[:limit] + f"... [{len(text) - limit} more chars]"


def _safe_str(fn, value: object) -> str:
    try:
        return _short(str(fn(value)), 300)
    except BaseException as exc:  # untrusted __repr__/__str__ may raise anything
        return f"<{type(value).__name__} ({fn.__name__} raised {type(exc).__name__})>"


def describe_error(exc: BaseException) -> dict:
    """Type, nearest builtin base, message and a traceback trimmed to the candidate's frames."""
    builtin_base = next(
        (k.__name__ for k in type(exc).__mro__ if getattr(builtins, k.__name__, None) is k),
        "Exception",
    )
    frames = [f for f in traceback.extract_tb(exc.__traceback__) if f.filename == SOLUTION_FILE]
    lines = traceback.format_list(frames)
    if isinstance(exc, SyntaxError) and exc.filename == SOLUTION_FILE:
        lines = traceback.format_exception_only(type(exc), exc)[:-1]
    info = {
        "type": type(exc).__name__,
        "base": builtin_base,
        "message": _safe_str(str, exc),
        "traceback": _short("".join(lines)),
        "lineno": frames[-1].lineno if frames else getattr(exc, "lineno", None),
    }
    if isinstance(exc, ModuleNotFoundError) and type(getattr(exc, "name", None)) is str:
        info["module"] = exc.name  # which module was missing: the host tells an absent package from a bug
    return info


class _Handles:
    """Objects that are not plain values stay here; the test process holds their ids."""

    def __init__(self) -> None:
        self.objects: dict[int, object] = {}
        self.next_id = 1

    def encode(self, value: object) -> tuple:
        data = wire.encode_data(value)
        if data is not None:
            return data
        handle = self.next_id
        self.next_id += 1
        self.objects[handle] = value
        return ("h", handle, type(value).__name__, _safe_str(repr, value))

    def decode(self, enc: tuple) -> object:
        if enc[0] == "h":
            return self.objects[enc[1]]
        if enc[0] == "a":
            return wire.from_record(enc)
        return enc[1]


def _describe_names(namespace: dict, handles: _Handles) -> dict:
    names = {}
    for name, value in list(namespace.items()):
        if name.startswith("__") or isinstance(value, types.ModuleType):
            continue
        names[name] = ("callable",) if callable(value) else handles.encode(value)
    return names


def _flush() -> None:
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except BaseException:
            pass


def _call(op: str, target: object, args: tuple, handles: _Handles) -> tuple:
    """Perform one operation requested by the test process; returns the response message."""
    if op == "call":
        # Fresh copies, so the request's own values still show the arguments as they were sent.
        pos = [marshal.loads(marshal.dumps(a[1])) if a[0] == "v" else handles.decode(a) for a in args[0]]
        kw = {k: handles.decode(v) for k, v in args[1].items()}
        result = target(*pos, **kw)
        # In-place changes to list/dict/set/ndarray arguments travel back so tests can inspect them.
        mutated = []
        for index, (enc, value) in enumerate(zip(args[0], pos)):
            if enc[0] == "v" and type(enc[1]) in (list, dict, set):
                now = wire.normalize(value)
                if now != enc[1]:
                    mutated.append((index, now))
            elif enc[0] == "a":
                now = wire.array_record(value)
                if now is not None and now != enc:
                    mutated.append((index, now))
        return ("ok", handles.encode(result), mutated)
    if op == "getattr":
        return ("ok", handles.encode(getattr(target, args[0])), [])
    if op == "setattr":
        setattr(target, args[0], handles.decode(args[1]))
        return ("ok", ("v", None), [])
    if op == "iter":
        return ("ok", handles.encode(iter(target)), [])
    if op == "next":
        try:
            return ("ok", handles.encode(next(target)), [])
        except StopIteration:
            return ("stop",)
    if op == "len":
        return ("ok", ("v", int.__int__(len(target))), [])
    if op == "getitem":
        return ("ok", handles.encode(target[handles.decode(args[0])]), [])
    if op == "setitem":
        target[handles.decode(args[0])] = handles.decode(args[1])
        return ("ok", ("v", None), [])
    if op == "contains":
        return ("ok", ("v", bool(handles.decode(args[0]) in target)), [])
    if op == "binop":
        # Only between objects the candidate made itself (two handles), e.g. Point(1,2) == Point(1,2).
        result = getattr(operator, args[0])(target, handles.decode(args[1]))
        return ("ok", handles.encode(result), [])
    if op == "bool":
        return ("ok", ("v", bool(target)), [])
    if op in ("repr", "str"):
        return ("ok", ("v", _safe_str(repr if op == "repr" else str, target)), [])
    raise ValueError(f"unknown operation {op!r}")


def serve(code: str, req_fd: int, resp_fd: int) -> None:
    """Execute the code, send the names it defines, then answer requests until the pipe closes."""
    handles = _Handles()
    namespace: dict = {"__name__": "solution", "__file__": SOLUTION_FILE, "__builtins__": builtins}
    module = types.ModuleType("solution")
    module.__dict__.update(namespace)
    namespace = module.__dict__
    sys.modules["solution"] = module
    linecache.cache[SOLUTION_FILE] = (len(code), None, code.splitlines(True), SOLUTION_FILE)
    try:
        exec(compile(code, SOLUTION_FILE, "exec"), namespace)
    except BaseException as exc:
        _flush()
        wire.send(resp_fd, ("import_error", describe_error(exc)))
        return
    _flush()
    wire.send(resp_fd, ("hello", _describe_names(namespace, handles)))
    while True:
        try:
            request = wire.recv(req_fd)
        except wire.ChannelClosed:
            return
        op, ref, *args = request
        try:
            target = namespace[ref[1]] if ref[0] == "g" else handles.objects[ref[1]]
            response = _call(op, target, tuple(args), handles)
        except BaseException as exc:
            response = ("err", describe_error(exc))
        _flush()
        try:
            wire.send(resp_fd, response)
        except wire.NotPlain as exc:
            wire.send(resp_fd, ("err", describe_error(exc)))
