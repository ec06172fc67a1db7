"""What one Python process says of code and tests in one file, for tests/test_sandbox_against_one_process.py.

Each case runs alone in a fresh process, as a pytest file (pytest), unittest's loader (a TestCase) or the file run as
a module (plain asserts). Starting pytest with the plugins installed beside it costs two seconds, and the differential
suite runs hundreds of cases: so one server process imports pytest once, without those plugins, and forks a child for
each case, which runs it from the case's folder and writes its verdicts there. A child that outlives TIMEOUT is
killed and its case reported as failed to load.
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

TIMEOUT = 120

_SERVER = r"""
import json, os, signal, sys, time
# The plugins installed beside pytest (langsmith's, anyio's, ...) cost most of pytest's start and no case uses them.
os.environ["PYTEST_DISABLE_PLUGIN_AUTOLOAD"] = "1"
import pytest, unittest, xml.etree.ElementTree as ET

def pytest_style(folder):
    pytest.main(["-q", "-p", "no:cacheprovider", "-p", "no:randomly", "--junitxml=r.xml", "test_case.py"])
    found = {}
    for case in ET.parse(os.path.join(folder, "r.xml")).getroot().iter("testcase"):
        owner = case.get("classname", "").split(".")[-1]
        name = f"{owner}::{case.get('name')}" if owner and owner != "test_case" else case.get("name")
        failed = case.find("failure") is not None or case.find("error") is not None
        found[name] = "fail" if failed else "skip" if case.find("skipped") is not None else "pass"
    return found

def unittest_style(folder):
    import test_case
    out = {}
    class Result(unittest.TestResult):
        def _name(self, t):
            parts = t.id().split('.')
            return parts[-2] + '::' + parts[-1]
        def addSuccess(self, t): out.setdefault(self._name(t), 'pass')
        def addFailure(self, t, e): out[self._name(t)] = 'fail'
        def addError(self, t, e): out[self._name(t)] = 'fail'
        def addSkip(self, t, r): out[self._name(t)] = 'skip'
        def addExpectedFailure(self, t, e): out[self._name(t)] = 'skip'  # as pytest reports an xfail
        def addUnexpectedSuccess(self, t): out[self._name(t)] = 'fail'
        def addSubTest(self, t, s, e):
            if e is not None: out[self._name(t)] = 'fail'
    unittest.defaultTestLoader.loadTestsFromModule(test_case).run(Result())
    return out

def plain_style(folder):
    try:
        import test_case
    except SystemExit as exc:
        return {"<file>": "pass" if exc.code in (None, 0) else "fail"}
    except BaseException:
        return {"<file>": "fail"}
    return {"<file>": "pass"}

STYLES = {"pytest": pytest_style, "unittest": unittest_style, "plain": plain_style}

for line in sys.stdin:
    folder, style = json.loads(line)
    pid = os.fork()
    if pid == 0:
        try:
            os.chdir(folder)
            sys.path.insert(0, folder)
            null = os.open(os.devnull, os.O_WRONLY)
            os.dup2(null, 1)
            os.dup2(null, 2)
            found = STYLES[style](folder)
            with open(os.path.join(folder, "verdicts.json"), "w") as fh:
                json.dump(found, fh)
        finally:
            os._exit(0)
    deadline = time.monotonic() + float(sys.argv[1])
    while os.waitpid(pid, os.WNOHANG) == (0, 0):
        if time.monotonic() > deadline:
            os.kill(pid, signal.SIGKILL)
            os.waitpid(pid, 0)
            break
        time.sleep(0.005)
    print("done", flush=True)
"""


def style_of(tests: str) -> str:
    """How one process runs the tests: "unittest" (TestCase classes only), "pytest" (test functions or classes),
    else "plain" (the file itself)."""
    if re.search(r"\(\s*unittest\.(IsolatedAsyncio)?TestCase\s*\)", tests) and not re.search(r"^def test_", tests,
                                                                                              re.M):
        return "unittest"
    return "pytest" if re.search(r"^(async )?def test_|^class Test", tests, re.M) else "plain"


class OneProcess:
    """The fork server, started once (close it when done)."""

    def __init__(self) -> None:
        self.server = subprocess.Popen([sys.executable, "-c", _SERVER, str(TIMEOUT)], stdin=subprocess.PIPE,
                                       stdout=subprocess.PIPE, text=True)

    def verdicts(self, code: str, tests: str, folder: Path) -> dict[str, str]:
        """Each test's verdict, code and tests in one file ('<file>' for plain asserts; '<load>' when the case's
        process died before it said)."""
        self.submit(code, tests, folder)
        return self.collect(folder)

    def submit(self, code: str, tests: str, folder: Path) -> None:
        """Start one case (its child runs while the caller does something else: the sandbox's run of the same
        case, on the other core); collect() its verdicts before the next submit."""
        (folder / "test_case.py").write_text(code + "\n" + tests)
        self.server.stdin.write(json.dumps([str(folder), style_of(tests)]) + "\n")
        self.server.stdin.flush()

    def collect(self, folder: Path) -> dict[str, str]:
        """The verdicts of the case submitted last (verdicts())."""
        if self.server.stdout.readline().strip() != "done":
            raise RuntimeError("the one-process server stopped")
        answer = folder / "verdicts.json"
        return json.loads(answer.read_text()) if answer.exists() else {"<load>": "fail"}

    def close(self) -> None:
        self.server.stdin.close()
        self.server.wait(timeout=30)
