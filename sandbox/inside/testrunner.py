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
import types
import unittest

import collecting
import fixtures
import introspection
import live_views
import proxies
import pytest_run
import pytest_shim
import unsupported
from asserts import (Counter, Rewriter, caught, checked, compare, safe_repr, same, short, teach_unittest,
                     truth)
from peer import Peer, PeerGone
from report import NOTHING_CHECKED, TESTS_FILE, Reporter, TestNotRun
from syntax_walk import fix_missing_locations, walk
from shapes import (constructor_of, detect_shape, holds_assert, is_main_guard, module_under_test, raises_check,
                    raising_helpers, uncollected_class_words)
from testside_sync import CodeModuleFinder, SolutionModule, TestsSide, follow_mock_patches, teach_runpy
from wire import read_exact


def _future_flags(module: ast.Module) -> int:
    """The compiler flags of the file's own ``from __future__`` imports, for statements compiled one at a time."""
    import __future__

    return sum(getattr(__future__, alias.name).compiler_flag for stmt in module.body
               if isinstance(stmt, ast.ImportFrom) and stmt.module == "__future__"
               for alias in stmt.names if hasattr(__future__, alias.name))


def _run_asserts(module: ast.Module, source: str, ns: dict, reporter: Reporter) -> None:
    """Each top-level statement holding an assert is a test, and so is one that raises under a condition (a check
    written without assert), one that runs an assert (a call of a helper that asserts) or one that fails; a
    definition is not a test by itself, but one holding asserts that never ran is reported as checking nothing. A
    top-level exit or skip ends the file there, as it would end pytest's import of it."""
    definitions = []
    flags = _future_flags(module)
    helpers = raising_helpers(module)
    for stmt in module.body:
        checks = holds_assert(stmt)  # before the rewriting, which turns its asserts into calls
        raises = raises_check(stmt, helpers)  # checks by raising: `if r != 4: raise AssertionError(r)`, check_eq(r, 4)
        # dont_inherit: the tests' annotations are what their own file makes them, not this file's future import.
        code = compile(fix_missing_locations(ast.Module([Rewriter().visit(stmt)], [])), TESTS_FILE, "exec",
                       flags=flags, dont_inherit=True)
        first = (ast.get_source_segment(source, stmt) or "").splitlines()[0] if source else ""
        name = f"line {stmt.lineno}: {short(first, 120)}"
        if isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            raised = reporter.run(name, exec, code, ns, setup=True)
            if checks:
                definitions.append((stmt, name))
        elif checks or raises:
            # a line that checks by raising passes without evaluating anything
            raised = reporter.run(name, exec, code, ns, must_assert=not raises,
                                  unchecked=MAIN_BLOCK if is_main_guard(stmt) else None)
        else:
            raised = reporter.run(name, exec, code, ns, setup=True)
        if _ended_loading(raised, stmt.lineno, first, reporter):
            return
    for stmt, name in definitions:
        if not any(stmt.lineno <= line <= stmt.end_lineno for line in Counter.lines):
            why = (uncollected_class_words(stmt.name, constructor_of(stmt), _test_method_names(stmt))
                   if isinstance(stmt, ast.ClassDef) else
                   f"{stmt.name}() holds asserts, but nothing called it (pytest runs only functions named test_*)")
            failure = {**reporter.failure(TestNotRun(f"{NOTHING_CHECKED}: {why}")),
                       "lineno": stmt.lineno, "line": reporter.line(stmt.lineno)}
            reporter.emit(ev="test", name=name, passed=False, duration_ms=0, **failure)


MAIN_BLOCK = ('the `if __name__ == "__main__":` block runs only when the file is run as a script; tests are imported '
              "(as pytest imports them), so it never runs")


def _test_method_names(node: ast.ClassDef) -> list[str]:
    return [n.name for n in node.body if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef))
            and n.name.startswith("test")]


def _ended_loading(raised: BaseException | None, lineno: int | None, text: str, reporter: Reporter) -> bool:
    """Whether what a top-level statement raised ends the tests file there, as it ends pytest's import of it: an exit
    (an error, saying so), or a skip of the whole file (pytest.skip(allow_module_level=True), importorskip)."""
    where = f"line {lineno} (`{short(text.strip(), 80)}`)" if lineno else "the top level"
    if isinstance(raised, SystemExit) and not isinstance(raised, proxies.RemoteError):
        # The tests' own exit; the code's (sys.exit in the function a line calls) fails that line, and the code is
        # what to mend, not the tests.
        reporter.emit(ev="tests_invalid", lineno=lineno,
                      message=f"the tests exit at {where} while they load (SystemExit: {safe_repr(raised.code)}): "
                              "pytest reports an error there, and nothing after it ran; take the exit out")
        return True
    if isinstance(raised, pytest_shim.Skipped):
        if not raised.module_level:
            reporter.emit(ev="tests_invalid", lineno=lineno,
                          message=f"pytest.skip at {where} is outside a test: pytest reports an error there; pass "
                                  "allow_module_level=True to skip the whole file, or mark a test with "
                                  "@pytest.mark.skip")
        return True
    return False


def _load(module: ast.Module, ns: dict, reporter: Reporter) -> bool:
    """Execute a pytest-style or check() tests file as pytest imports it; False when it did not load (reported)."""
    # dont_inherit: the tests' annotations are what their own file makes them, not this file's future import.
    rewritten = compile(fix_missing_locations(Rewriter().visit(module)), TESTS_FILE, "exec", dont_inherit=True)
    try:
        exec(rewritten, ns)
    except BaseException as exc:
        if isinstance(exc, KeyboardInterrupt):  # any other escape fails, as in pytest
            raise
        failure = reporter.failure(exc)
        if isinstance(exc, pytest_shim.Skipped) and exc.module_level:
            reporter.emit(ev="test", name=TESTS_FILE, passed=True, skipped=True, duration_ms=0, message=str(exc))
        elif not _ended_loading(exc, failure["lineno"], failure["line"] or "", reporter):
            reporter.emit(ev="test", name="load tests.py", passed=False, duration_ms=0, **failure)
        return False
    return True


def imports_solution(module: ast.Module) -> bool:
    """Do the tests import the code by the name ``solution`` (``from solution import f``, ``import solution``)?"""
    return any(isinstance(node, ast.ImportFrom) and node.module == "solution" and not node.level
               or isinstance(node, ast.Import) and any(alias.name == "solution" for alias in node.names)
               for node in walk(module))


def _run_by_the_sandbox(*args: object, **kwargs: object) -> None:
    """unittest.main() in a tests file: the sandbox runs the file's tests itself, as pytest collects them; the call
    must not end the tests' process (unittest.main exits) before they run."""
    return None


def _exit(code: object = None) -> None:
    """exit() and quit(), which the site module would give (the sandbox's Python starts without it)."""
    raise SystemExit(code)


def _solution(peer: Peer, side: TestsSide, names: dict) -> SolutionModule:
    """The code's names as the module ``solution``."""
    module = SolutionModule("solution")
    for name, enc in names.items():
        try:
            module.__dict__[str(name)] = peer.decode(enc)
        except PeerGone:
            peer.dead = None  # a name this side cannot read is left out (a test using it fails with NameError)
    module.__dict__.pop("__builtins__", None)
    # Where one process's module file would be: beside the tests, in the folder the code's files are handed to
    # (``os.path.dirname(solution.__file__)`` finds a file the code wrote there).
    module.__dict__["__file__"] = os.path.abspath("solution.py")
    module.__dict__["_sbx_side"] = side
    return module


def _fd_level(stream: object) -> bool:
    """Does capfd hold the stream (its own flag, read without asking: a stream may be anything a test set)?"""
    try:
        return object.__getattribute__(stream, "_sbx_fd_level") is True
    except AttributeError:
        return False


class _TestsSide(TestsSide):
    """The tests' side of the protocol, which also asks the code's process to watch its file descriptors while a
    test captures with capfd, and takes what that process noted as unsupported (sandbox/inside/unsupported.py)."""

    def before_request(self) -> dict | None:
        extra = super().before_request()
        if _fd_level(sys.stdout):
            extra = {**(extra or {}), "fd_watch": True}
        return extra

    def after_answer(self, extra: dict) -> None:
        super().after_answer(extra)
        unsupported.receive(extra)


def _importable(name: str) -> bool:
    try:
        return importlib.util.find_spec(name) is not None
    except (ImportError, ValueError):
        return False


def run(tests_len: int, entry_point: str | None, req_fd: int, resp_fd: int, report_fd: int) -> None:
    """Read the tests from stdin, wait for the candidate's names, run every test, report each, then say it is done
    (a tests' process that ends without saying so ended itself, or was killed, before the tests' end)."""
    source = read_exact(0, tests_len).decode("utf-8", "replace") if tests_len else ""
    os.close(0)
    # Tracebacks and warnings read the two files' lines through linecache, which would look for them by name in
    # the working directory, where the code may have put a file of that name (a fifo that never answers).
    linecache.cache[TESTS_FILE] = (len(source), None, source.splitlines(True), TESTS_FILE)
    linecache.cache["solution.py"] = (0, None, [], "solution.py")
    # A failing check of the tests': their asserts, unittest's assert methods, a mock's assert_called_once, pytest's
    # outcomes; never an AssertionError of the code's (it crosses as a RemoteError).
    side = _TestsSide(lambda exc: isinstance(exc, (AssertionError, *pytest_shim.OUTCOMES))
                      and not isinstance(exc, proxies.RemoteError))
    reporter = Reporter(report_fd, source.splitlines(), side)
    reporter.emit(ev="tests_read")
    _run(source, entry_point, req_fd, resp_fd, side, reporter)
    reporter.emit(ev="done")


def _import_standard_modules(module: ast.Module) -> None:
    """The standard library's modules the tests import, imported before the code's names are read: a class of the
    code's derives from a standard class (an HTMLParser, an HTTPError) that its mirror holds only where that class's
    module is loaded here (crossing/standard_bases.py), and the code's names are read before the tests' own imports
    run. A module that fails to load fails again, and is reported, where the tests import it."""
    for node in walk(module):
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and not node.level and node.module:
            names = [node.module]
        else:
            continue
        for name in names:
            top = name.split(".")[0]
            if top in sys.stdlib_module_names and not top.startswith("_") and name not in sys.modules:
                try:
                    importlib.import_module(name)
                except Exception:
                    pass


def _run(source: str, entry_point: str | None, req_fd: int, resp_fd: int, side: TestsSide,
         reporter: Reporter) -> None:
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
    collecting.follow_collections(peer)
    _import_standard_modules(module)
    live_views.teach_standard_modules()
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
    sys.meta_path.insert(0, CodeModuleFinder(solution, frozenset({"solution", alias} - {None})))
    teach_runpy(solution, frozenset({"solution", alias} - {None}))
    sys.modules["pytest"] = pytest_shim.pytest_module()
    unittest.main = _run_by_the_sandbox
    teach_unittest()
    builtins.exit = builtins.quit = _exit
    # The tests' globals are a module's, under their __name__, as a pytest file's are: patching the one-file way
    # (monkeypatch.setattr(sys.modules[__name__], 'fetch', ...), mock.patch(__name__ + '.fetch')) finds them, and
    # shared_names sends the change to the code.
    tests_module = types.ModuleType("tests")
    sys.modules["tests"] = tests_module
    ns: dict = tests_module.__dict__
    ns.update({**{k: v for k, v in vars(solution).items() if not k.startswith(("__", "_sbx"))},
               "__builtins__": builtins,
               "__sbx_compare__": compare, "__sbx_truth__": truth, "__sbx_caught__": caught,
               "__sbx_checked__": checked, "__sbx_is__": same,
               "__sbx_limit__": unsupported.met,
               "__name__": "tests",
               "__file__": os.path.abspath(TESTS_FILE)})
    if entry_point:
        ns["candidate"] = solution.__dict__[entry_point]
    # One namespace, as in one file, unless the tests import the code as a module (shared_names.py).
    side.names.start(ns, names, module, [solution.__dict__], separate=bool(alias) or imports_solution(module))
    # After reading the tests' names: the marks are the sandbox's calls.
    module = unsupported.mark_limits(module, source)
    reporter.emit(ev="shape", shape=shape)
    if shape == "asserts":
        _run_asserts(module, source, ns, reporter)
        return
    if not _load(module, ns, reporter):
        return
    if shape == "check":
        reporter.run(f"check({entry_point or 'candidate'})", ns["check"], ns.get("candidate"), must_assert=True)
    else:
        pytest_run.run(ns, reporter)

