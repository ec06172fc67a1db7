"""How the tests' process reports each test to the worker, on a pipe the code's process never holds.

Runs inside the sandbox (stdlib only). One JSON line per event: a test starting, a test's outcome (passed, or the
failing line, the two values an assert compared, the error and a traceback trimmed to the tests' own frames).
"""

from __future__ import annotations

import inspect
import json
import os
import time
import traceback

import pytest_shim
import unsupported
from asserts import Counter, TestAssertion, safe_repr, short
from peer import PeerGone
from proxies import RemoteError

TESTS_FILE = "tests.py"
_TRACEBACK_LIMIT = 2000


NOTHING_CHECKED = "no assert ran, so nothing was checked"


class TestNotRun(Exception):
    """A test whose body never ran (a generator function) or that checked nothing."""


class Reporter:
    """Sends one JSON line per event to the worker."""

    def __init__(self, fd: int, source_lines: list[str], side: object = None) -> None:
        self.fd, self.lines, self.side = fd, source_lines, side

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
            "error_type": ("AssertionError" if isinstance(exc, TestAssertion) else
                           "CandidateDied" if isinstance(exc, PeerGone) else type(exc).__name__),
            "message": short(str(exc), 1000), "traceback": short(text, _TRACEBACK_LIMIT),
        }
        if isinstance(exc, TestAssertion):
            detail.update(op=exc.op, left=exc.left, right=exc.right)
        if isinstance(exc, SystemExit):
            who = "the code under test exited" if isinstance(exc, RemoteError) else "the tests exited here"
            detail["message"] = (f"{who} (SystemExit: {short(safe_repr(exc.code), 200)}: sys.exit, "
                                 "exit(), quit() or raise SystemExit); pytest fails a test that exits, and stops at "
                                 "one that exits while the tests load")
        if isinstance(exc, ModuleNotFoundError):
            # Whose import failed: the code's (re-raised from its process) or the tests' own.
            detail.update(module=exc.name if type(exc.name) is str else None,
                          module_in="code" if isinstance(exc, RemoteError) else "tests")
        return detail

    def run(self, name: str, fn: object, *args: object, must_assert: bool = False, unchecked: str | None = None,
            setup: bool = False, xfail: object = None, teardown: object = None,
            **kwargs: object) -> BaseException | None:
        """Run one test and report it; return what it raised, if anything. A coroutine it returns is run to the end
        (as pytest-asyncio does); a generator, a returned value, or (with must_assert) no assert evaluated is a
        failure: none of them checked anything (unchecked says why no assert could run there). A failing assert of
        the tests that the code caught inside a callback makes a test that passed not judged (hidden_check).
        SystemExit (sys.exit, exit()) fails it, as pytest fails it, instead of ending the tests. setup: a top-level
        line of plain-assert tests that holds no assert, reported only when it fails or runs an assert (a call of a
        helper that asserts).
        xfail: the reason a test is expected to fail (its failure is reported as skipped; strict=True in it makes
        an unexpected pass a failure). teardown: called after the test (fixtures), whose errors fail it."""
        self.emit(ev="start", name=name, **({"setup": True} if setup else {}))
        unsupported.take()  # what an earlier test met is not this one's
        started = time.perf_counter()
        result: dict = {"name": name, "passed": True}
        asserts_before = Counter.ran
        swallowed = self.side.swallowed if self.side is not None else []
        swallowed_before = len(swallowed)
        raised = None
        try:
            try:
                _check_ran(fn(*args, **kwargs))
                if must_assert and Counter.ran == asserts_before:
                    raise TestNotRun(NOTHING_CHECKED + (f": {unchecked}" if unchecked else ""))
                if len(swallowed) > swallowed_before:
                    raise unsupported.Unsupported(hidden_check(swallowed[swallowed_before]))
            finally:
                errors = teardown() if teardown else []
            if errors:
                raise errors[0]
            if xfail is not None and xfail.get("strict"):
                raise AssertionError(f"[XPASS(strict)] {xfail.get('reason') or 'expected to fail, but passed'}")
        except pytest_shim.Skipped as exc:
            raised = exc
            result.update(skipped=True, message=str(exc))
        except BaseException as exc:
            if isinstance(exc, KeyboardInterrupt):
                raise
            # Any other escape fails the test, as pytest and unittest fail it: SystemExit, and asyncio's
            # CancelledError (a BaseException) out of a test's asyncio.run.
            raised = exc
            if isinstance(exc, pytest_shim.XFailed) or (xfail is not None and _expected_failure(exc, xfail)):
                reason = str(exc) if isinstance(exc, pytest_shim.XFailed) else (xfail or {}).get("reason")
                result.update(skipped=True, message=f"xfail: {reason or 'expected to fail'}")
            else:
                result.update(passed=False, **self.failure(exc))
                if self.side is not None:
                    self.side.fetch_notes()
        self.limited(result, raised)
        if setup and result["passed"] and not result.get("skipped") and Counter.ran == asserts_before:
            return None  # a line that set something up and checked nothing: not a test
        result["duration_ms"] = round((time.perf_counter() - started) * 1000, 3)
        self.emit(ev="test", **result)
        return raised


    def limited(self, result: dict, raised: BaseException | None) -> None:
        """A test that raised Unsupported, or did not pass after meeting what cannot behave as in one process (the
        reasons noted during it, in either process), is unsupported, with the reason: never a failure of the code.
        A test that passed passed, unless it caught an Unsupported this process raised."""
        caught = unsupported.raised()
        noted = unsupported.take()
        if result.get("passed"):
            if caught and not result.get("skipped"):
                # The test caught what the sandbox raised (pytest.raises(Exception) around Temp(1) < 3): not judged.
                result.update(passed=False, unsupported=caught[0])
            return
        reason = raised.reason if isinstance(raised, unsupported.Unsupported) else noted[0] if noted else None
        if reason:
            result["unsupported"] = reason


def hidden_check(exc: BaseException) -> str:
    """Why a test is not judged whose own check failed inside a function of its that the code called and caught.
    One process would pass it, as the code chose; a sandbox that passed it would let hostile code hide any failing
    check a test hands it, so it says neither pass nor fail."""
    lines = [f.lineno for f in traceback.extract_tb(exc.__traceback__) if f.filename == TESTS_FILE]
    where = f" (line {lines[-1]} of the tests)" if lines else ""
    if isinstance(exc, pytest_shim.OUTCOMES):
        called = "pytest.skip" if isinstance(exc, pytest_shim.Skipped) else (
            "pytest.xfail" if isinstance(exc, pytest_shim.XFailed) else "pytest.fail")
        return (f"{called} ran inside a function of the tests that the code called{where}, and the code caught it "
                "and went on; in pytest it is no Exception (the code's `except Exception` would not catch it), so "
                "the sandbox does not judge the test")
    return (f"a check of the tests failed inside a function of theirs that the code called{where}, and the code "
            "caught the failure and went on; one process would pass the test, the sandbox does not pass a check "
            "the code hid")


def _check_ran(value: object) -> None:
    if inspect.iscoroutine(value):
        import asyncio

        value = asyncio.run(value)
    if inspect.isgenerator(value):
        value.close()
        raise TestNotRun("the test function yields, so its body never ran (pytest does not run yield tests "
                         "either); write it as a plain function or use parametrize")
    if value is not None:
        raise TestNotRun(f"the test returned {safe_repr(value)} instead of asserting it; a returned value checks "
                         "nothing")


def _expected_failure(exc: BaseException, xfail: dict) -> bool:
    if isinstance(exc, pytest_shim.XFailed):
        return True
    raises = xfail.get("raises")
    return raises is None or isinstance(exc, raises)
