"""The test process: runs the tests against the code, which lives in another process.

Runs inside the sandbox as a uid of its own, in a process the candidate code never runs in. The code's functions,
classes and objects are proxies and mirrors here (peer.py, proxies.py); standard values (numbers, strings, dates,
Decimals, ...) are rebuilt by this process from plain data. All comparisons happen here, on values this process
built itself, so nothing the code does can make an assert pass that should fail.
"""

from __future__ import annotations

import ast
import builtins
import importlib.util
import linecache
import os
import sys

import fixtures
import introspection
import proxies
import pytest_run
import pytest_shim
from asserts import Rewriter, TestAssertion, compare, short, truth
from peer import Peer, PeerGone
from report import TESTS_FILE, Reporter
from shapes import detect_shape, holds_assert, module_under_test
from testside_sync import SolutionModule, TestsSide, follow_mock_patches
from wire import read_exact


def _future_flags(module: ast.Module) -> int:
    """The compiler flags of the file's own ``from __future__`` imports, for statements compiled one at a time."""
    import __future__

    return sum(getattr(__future__, alias.name).compiler_flag for stmt in module.body
               if isinstance(stmt, ast.ImportFrom) and stmt.module == "__future__"
               for alias in stmt.names if hasattr(__future__, alias.name))


def _run_asserts(module: ast.Module, source: str, ns: dict, reporter: Reporter) -> None:
    flags = _future_flags(module)
    for stmt in module.body:
        is_test = holds_assert(stmt)
        # dont_inherit: the tests' annotations are what their own file makes them, not this file's future import.
        code = compile(ast.fix_missing_locations(ast.Module([Rewriter().visit(stmt)], [])), TESTS_FILE, "exec",
                       flags=flags, dont_inherit=True)
        if not is_test:
            try:
                exec(code, ns)
                continue
            except Exception:
                pass  # a failing setup line is reported like a test, so it is never silent
        first = (ast.get_source_segment(source, stmt) or "").splitlines()[0] if source else ""
        # A definition holding an assert is not a check by itself; any other line must evaluate one.
        definition = isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef))
        reporter.run(f"line {stmt.lineno}: {short(first, 120)}", exec, code, ns, must_assert=not definition)


def _solution(peer: Peer, side: TestsSide, names: dict) -> SolutionModule:
    """The code's names as the module ``solution``."""
    module = SolutionModule("solution")
    for name, enc in names.items():
        try:
            module.__dict__[str(name)] = peer.decode(enc)
        except PeerGone:
            peer.dead = None  # a name this side cannot read is left out (a test using it fails with NameError)
    module.__dict__.pop("__builtins__", None)
    module.__dict__["_sbx_side"] = side
    return module


def _importable(name: str) -> bool:
    try:
        return importlib.util.find_spec(name) is not None
    except (ImportError, ValueError):
        return False


def run(tests_len: int, entry_point: str | None, req_fd: int, resp_fd: int, report_fd: int) -> None:
    """Read the tests from stdin, wait for the candidate's names, run every test, report each."""
    source = read_exact(0, tests_len).decode("utf-8", "replace") if tests_len else ""
    os.close(0)
    # Tracebacks and warnings read the two files' lines through linecache, which would look for them by name in
    # the working directory, where the code may have put a file of that name (a fifo that never answers).
    linecache.cache[TESTS_FILE] = (len(source), None, source.splitlines(True), TESTS_FILE)
    linecache.cache["solution.py"] = (0, None, [], "solution.py")
    side = TestsSide(lambda exc: isinstance(exc, TestAssertion))
    reporter = Reporter(report_fd, source.splitlines(), side)
    reporter.emit(ev="tests_read")
    try:
        module = ast.parse(source, TESTS_FILE)
    except SyntaxError as exc:
        reporter.emit(ev="tests_invalid", message=f"the tests do not parse: {exc.msg} (line {exc.lineno})",
                      lineno=exc.lineno)
        return
    shape = detect_shape(module)
    peer = Peer(resp_fd, req_fd, home="tests", role="tests")
    peer.hooks = side
    side.peer = peer
    fixtures.attach(side)
    follow_mock_patches(side)
    introspection.follow_type_hints(proxies.ref_of)
    try:
        hello = peer.receive()
    except PeerGone:
        reporter.emit(ev="import_error", error={"type": "CandidateDied", "lineno": None, "traceback": "",
                      "message": "the code exited or was killed while it was being loaded"})
        return
    if hello[0] == "import_error" and len(hello) == 2 and type(hello[1]) is dict:
        reporter.emit(ev="import_error", error=hello[1])
        return
    names = hello[1] if hello[0] == "hello" and len(hello) == 2 and type(hello[1]) is dict else {}
    solution = _solution(peer, side, names)
    if entry_point and not callable(solution.__dict__.get(entry_point)):
        reporter.emit(ev="import_error", error={"type": "NameError", "lineno": None, "traceback": "",
                      "message": f"the code does not define a function named {entry_point!r}"})
        return
    sys.modules["solution"] = solution
    alias = module_under_test(module, _importable, set(solution.__dict__))
    if alias:
        sys.modules[alias] = solution  # `from calculator import add`: the tests' name for the code's module
    sys.modules["pytest"] = pytest_shim.pytest_module()
    ns: dict = {**{k: v for k, v in vars(solution).items() if not k.startswith(("__", "_sbx"))},
                "__builtins__": builtins,
                "__sbx_compare__": compare, "__sbx_truth__": truth, "__name__": "tests"}
    if entry_point:
        ns["candidate"] = solution.__dict__[entry_point]
    reporter.emit(ev="shape", shape=shape)
    if shape == "asserts":
        _run_asserts(module, source, ns, reporter)
        return
    rewritten = compile(ast.fix_missing_locations(Rewriter().visit(module)), TESTS_FILE, "exec", dont_inherit=True)
    try:
        exec(rewritten, ns)
    except Exception as exc:
        reporter.emit(ev="test", name="load tests.py", passed=False, duration_ms=0, **reporter.failure(exc))
        return
    if shape == "check":
        reporter.run(f"check({entry_point or 'candidate'})", ns["check"], ns.get("candidate"), must_assert=True)
    else:
        pytest_run.run(ns, reporter)

