"""run_tests: the one entry point of the sandbox, and the judging of what a run reported."""

from __future__ import annotations

import signal
import time
from dataclasses import fields

from sandbox.inside.confinement.confine import CONFINE_FAILED
from sandbox.inside.shapes import count_tests, detect_shape, test_styles, unrun_checks
from sandbox.inside.unsupported import limits_in
from sandbox.isolation import IsolationRefused, isolation_level, require_level
from sandbox.locked_parse import parse
from sandbox.packages import missing_module_hint, missing_module_name
from sandbox.pool import RawRun, WorkerBroken, WorkerPool, default_pool
from sandbox.verdict import Limits, TestReport, TestResult

KEEP_OUTPUT = 64 * 1024
_RESULT_FIELDS = {f.name for f in fields(TestResult)}


NO_TESTS = "the tests hold no assert, test_* function or check(candidate)"
NOTHING_WOULD_RUN = "no assert of these tests would run, so nothing would be checked"


def _inspect_tests(tests: str) -> tuple[str | None, str, int, list[str], list[str], tuple[bool, bool]]:
    """(why the tests cannot run or None, their shape, how many tests they hold, the checks in them that never run
    and the places they do what the sandbox cannot run as one process would, each as "line N: why"; and for a
    pytest-shaped file, whether it holds test functions and TestCase classes), from one parse."""
    if not tests.strip():
        return "the tests are empty", "", 0, [], [], (False, False)
    try:
        module = parse(tests)
    except SyntaxError as exc:
        return f"the tests do not parse: {exc.msg} (line {exc.lineno})", "", 0, [], [], (False, False)
    shape = detect_shape(module)
    count = count_tests(module, shape)
    never = [f"line {line}: {why}" for line, why in unrun_checks(module, shape)]
    beyond = [f"line {line}: {why}" for line, why in limits_in(module, tests)]
    problem = None if count else f"{NOTHING_WOULD_RUN}: {never[0]}" if never else NO_TESTS
    return problem, shape, count, never, beyond, test_styles(module) if shape == "pytest" else (False, False)


def check_tests(tests: str) -> str | None:
    """None if the tests parse and hold at least one test that runs, else a one-line message (naming the line)."""
    return _inspect_tests(tests)[0]


def checks_never_run(tests: str) -> list[str]:
    """The places of the tests that hold a check which never runs, each as "line N: why" (a helper holding asserts
    that nothing calls, a class pytest does not collect, a ``__main__`` block, a top-level sys.exit); [] when every
    check runs or the tests do not parse (check_tests names that)."""
    return _inspect_tests(tests)[3]


def unsupported_in(tests: str) -> list[str]:
    """Where the tests' text does what the sandbox cannot run as one process would (sandbox.inside.unsupported's
    LIMITS: an id() of an object compared with, or handed to, the code), each as "line N: why"; [] for none or for
    tests that do not parse (check_tests names that)."""
    return _inspect_tests(tests)[4]


def describe_tests(tests: str) -> str:
    """One line on what the sandbox will make of these tests: their shape and count, or why they cannot run."""
    problem, shape, count, never, beyond, styles = _inspect_tests(tests)
    if problem:
        return problem[0].upper() + problem[1:]
    if shape == "check":
        text = "A HumanEval check(candidate): give the entry point, the function it is called with"
    elif shape == "pytest":
        text = _test_functions(styles, count)
    else:
        text = f"{count} assert{'s' if count != 1 else ''}, each reported on its own"
    return (text + (f"; never run: {never[0]}" if never else "")
            + (f"; not judged here (the sandbox cannot run it as one process would): {beyond[0]}" if beyond else ""))


def _test_functions(styles: tuple[bool, bool], count: int) -> str:
    """What a pytest-shaped file holds, in the words of the one who wrote it: a unittest.TestCase's methods are not
    "pytest-style functions" to a person who wrote no pytest."""
    functions, cases = styles
    plural = "s" if count != 1 else ""
    if cases and not functions:
        return f"{count} unittest test method{plural}"
    if cases:
        return f"{count} tests: pytest-style functions and unittest methods"
    return f"{count} pytest-style test function{plural}"


def run_tests(code: str, tests: str, *, entry_point: str | None = None, limits: Limits = Limits()) -> TestReport:
    """Run untrusted code against tests in the sandbox and judge the result.

    tests may be plain asserts, pytest-style test_* functions, or a HumanEval ``check(candidate)``
    (then entry_point names the function passed to it). Safe to call from many threads.
    """
    return run_on(default_pool(), code, tests, entry_point=entry_point, limits=limits)


def run_on(pool: WorkerPool, code: str, tests: str, *, entry_point: str | None = None,
           limits: Limits = Limits()) -> TestReport:
    """run_tests on a given pool of workers (`python -m measure sandbox --numpy` compares pools that pre-import
    packages or not)."""
    started = time.perf_counter()
    problem = check_tests(tests)
    if problem:
        return TestReport(status="error", error=problem, isolation=isolation_level())
    try:
        require_level()
    except IsolationRefused as exc:
        return TestReport(status="error", error=str(exc), isolation=isolation_level())
    header = {"code_len": len(code.encode()), "tests_len": len(tests.encode()),
              "entry_point": entry_point, "limits": limits.to_wire()}
    try:
        raw = pool.run(header, code.encode(), tests.encode(), KEEP_OUTPUT)
    except WorkerBroken as exc:
        return TestReport(status="crashed", error=f"the sandbox worker failed: {exc}",
                          isolation=isolation_level(), duration_ms=_ms(started))
    report = judge(raw, limits)
    report.duration_ms = _ms(started)
    return report


def _ms(started: float) -> float:
    return round((time.perf_counter() - started) * 1000, 3)


def judge(raw: RawRun, limits: Limits) -> TestReport:
    """Decide the status from the test process's report and the worker's own observations.

    Only the test process's events (built from values it compared itself) and exit codes count;
    nothing the code printed is read.
    """
    flags, exits = set(raw.summary.get("flags", [])), raw.summary.get("exit", {})
    report = TestReport(status="failed", isolation=isolation_level(),
                        stdout=raw.stdout.decode("utf-8", "replace"),
                        stderr=raw.stderr.decode("utf-8", "replace"),
                        stdout_truncated=raw.stdout_truncated, stderr_truncated=raw.stderr_truncated,
                        exit_codes=exits)
    running, done = None, False
    for event in raw.events:
        kind = event.get("ev")
        if kind == "start":
            running = event.get("name")
        elif kind == "done":
            running, done = None, True
        elif kind == "test":
            running = None
            report.tests.append(TestResult(**{k: v for k, v in event.items() if k in _RESULT_FIELDS}))
            _note_missing(report, event.get("error_type"), event.get("message"), event.get("module"),
                          "code" if event.get("module_in") == "code" else "tests", report.tests[-1])
        elif kind == "shape":
            report.shape = event.get("shape")
        elif kind == "tests_invalid":
            report.status, report.error = "error", event.get("message")
            return report
        elif kind == "import_error":
            err = event.get("error", {})
            report.status = "memory" if err.get("type") == "MemoryError" else "error"
            report.error = _import_error_text(err, exits.get("code"))
            _note_missing(report, err.get("type"), err.get("message"), err.get("module"), "code", None)
    cpu_killed = -signal.SIGXCPU in exits.values()
    if "output_limit" in flags:
        report.status = "output_limit"
        report.error = f"the run printed more than {limits.output_bytes} bytes and was stopped"
    elif "disk_limit" in flags:
        report.status = "output_limit"
        report.error = "the run wrote more than 256 MiB to disk and was stopped"
    elif "timeout" in flags or cpu_killed:
        report.status = "timeout"
        report.error = f"the run did not finish within {limits.timeout_s:g} s and was killed"
    ended_in = running is not None
    if running is not None:
        report.tests.append(TestResult(name=running, passed=False, error_type=report.status.title(),
                                       message=report.error or "the test process died during this test"))
    if report.status != "failed" or report.error:
        return report
    if CONFINE_FAILED in exits.values():
        report.status = "crashed"
        report.error = "the sandbox could not confine the run (the kernel refused Landlock or seccomp); nothing ran"
    elif exits.get("tests", 0) != 0:
        report.status, report.error = "crashed", f"the test process died (exit {exits.get('tests')})"
    elif not done:
        # os._exit(0) in the tests: the process ended cleanly, but before the tests did
        report.status = "error"
        report.error = ("the tests ended their own process (exit 0, as os._exit does) before they finished"
                        + (f", during {report.tests[-1].name}" if ended_in else "")
                        + ": nothing after that ran, and pytest itself would stop there without a report")
        if ended_in:
            report.tests[-1].error_type, report.tests[-1].message = "ProcessEnded", report.error
    elif any(t.error_type == "MemoryError" for t in report.tests):
        report.status = "memory"
        report.error = f"the code ran out of memory (limit {limits.memory_bytes >> 20} MiB)"
    elif any(t.error_type == "CandidateDied" for t in report.tests):
        report.status = "crashed"
        report.error = f"the code's process died during the tests (exit {exits.get('code')})"
    elif not report.tests:
        report.status, report.error = "error", "no tests were found in the test code"
    elif all(t.skipped for t in report.tests):
        report.status, report.error = "error", "no test ran: every test was skipped"
    elif all(t.passed for t in report.tests):
        report.status = "passed"
    elif all(t.passed or t.unsupported for t in report.tests):
        unjudged = [t for t in report.tests if not t.passed]
        report.status = "unsupported"
        others = " (the others passed)" if len(unjudged) < len(report.tests) else ""
        report.error = (f"{len(unjudged)} of {len(report.tests)} tests did what the sandbox cannot run as one "
                        f"process would, so they were not judged{others}: {unjudged[0].unsupported}")
    report.unsupported = next((t.unsupported for t in report.tests if t.unsupported and not t.passed), None)
    if report.missing_module and not report.error:
        hint = missing_module_hint(report.missing_module)
        report.error = hint[0].upper() + hint[1:]
    return report


def _note_missing(report: TestReport, error_type: object, message: object, module: object, where: str,
                  test: TestResult | None) -> None:
    """Record the first module the run missed that the sandbox does not offer, and say what to do at the failure."""
    name = missing_module_name(error_type if isinstance(error_type, str) else None,
                               message if isinstance(message, str) else None, module)
    if name is None:
        return
    hint = missing_module_hint(name)
    if test is not None:
        test.message = f"{test.message}; {hint}" if test.message else hint
    elif report.error:
        first, _, rest = report.error.partition("\n")
        report.error = f"{first}\n{hint[0].upper() + hint[1:]}" + (f"\n{rest}" if rest else "")
    if report.missing_module is None:
        report.missing_module, report.missing_module_in = name, where


def _import_error_text(err: dict, exit_code: int | None) -> str:
    kind, message = err.get("type", "Error"), err.get("message", "")
    if kind == "CandidateDied":
        return f"the code exited while it was being loaded (exit {exit_code}), before any test ran"
    if kind == "SystemExit":
        return f"the code called exit({message}) while it was being loaded, before any test ran"
    text = f"the code fails when loaded: {kind}: {message}"
    if err.get("traceback"):
        text += "\n" + err["traceback"].rstrip()
    return text
