"""The sandbox against one Python process (docs/sandbox.md, "What cannot behave as in one process"): each ordinary
case of tests/one_process_cases.py is run by one process (pytest, unittest, or the file run as a module, with the code
and the tests in one file) and by the sandbox, and each test's verdict must agree, or the sandbox must say it could
not judge it. The differences docs/sandbox.md lists are expected to differ: a case that starts to agree is a doc to
update."""

from __future__ import annotations

import json
import re
import subprocess
import sys
import xml.etree.ElementTree as ET

import pytest
from one_process_cases import CASES

from sandbox import run_tests

# The differences docs/sandbox.md lists ("Known to differ"), by case; the threads' lose a varying share of changes.
KNOWN = {
}

_UNITTEST = r"""
import json, sys, unittest
sys.path.insert(0, '.')
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
    def addExpectedFailure(self, t, e): out[self._name(t)] = 'pass'
    def addUnexpectedSuccess(self, t): out[self._name(t)] = 'fail'
    def addSubTest(self, t, s, e):
        if e is not None: out[self._name(t)] = 'fail'
unittest.defaultTestLoader.loadTestsFromModule(test_case).run(Result())
print('@@' + json.dumps(out))
"""


def _style(tests: str) -> str:
    if re.search(r"\(\s*unittest\.(IsolatedAsyncio)?TestCase\s*\)", tests) and not re.search(r"^def test_", tests,
                                                                                              re.M):
        return "unittest"
    return "pytest" if re.search(r"^(async )?def test_|^class Test", tests, re.M) else "plain"


def one_process(code: str, tests: str, folder) -> dict[str, str]:
    """Each test's verdict by one Python process, code and tests in one file ('<file>' for plain asserts)."""
    (folder / "test_case.py").write_text(code + "\n" + tests)
    style = _style(tests)
    if style == "pytest":
        subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-p", "no:randomly",
                        "--junitxml=r.xml", "test_case.py"], cwd=folder, capture_output=True, timeout=120)
        found = {}
        for case in ET.parse(folder / "r.xml").getroot().iter("testcase"):
            owner = case.get("classname", "").split(".")[-1]
            name = f"{owner}::{case.get('name')}" if owner and owner != "test_case" else case.get("name")
            failed = case.find("failure") is not None or case.find("error") is not None
            found[name] = "fail" if failed else "skip" if case.find("skipped") is not None else "pass"
        return found
    if style == "unittest":
        run = subprocess.run([sys.executable, "-c", _UNITTEST], cwd=folder, capture_output=True, text=True,
                             timeout=120)
        return json.loads(run.stdout.split("@@")[-1]) if "@@" in run.stdout else {"<load>": "fail"}
    run = subprocess.run([sys.executable, "-c", "import sys; sys.path.insert(0, '.'); import test_case"],
                         cwd=folder, capture_output=True, timeout=120)
    return {"<file>": "pass" if run.returncode == 0 else "fail"}


def sandboxed(code: str, tests: str, style: str) -> tuple[dict[str, str], bool]:
    """Each test's verdict by the sandbox, and whether it said it could not judge one."""
    report = run_tests(code, tests)
    unsupported = report.status == "unsupported" or any(t.unsupported for t in report.tests)
    if style == "plain":
        return {"<file>": {"passed": "pass", "failed": "fail"}.get(report.status, report.status)}, unsupported
    found = {t.name: "pass" if t.passed else "skip" if t.skipped else "unsupported" if t.unsupported else "fail"
             for t in report.tests}
    return found, unsupported


@pytest.mark.parametrize(("name", "code", "tests"), CASES, ids=[case[0] for case in CASES])
def test_the_sandbox_judges_as_one_process(name, code, tests, tmp_path, request):
    if name in KNOWN:
        request.applymarker(pytest.mark.xfail(reason=KNOWN[name], strict=True))
    truth = one_process(code, tests, tmp_path)
    got, unsupported = sandboxed(code, tests, _style(tests))
    differ = {k: (truth.get(k), got.get(k)) for k in set(truth) | set(got)
              if truth.get(k) != got.get(k) and got.get(k) != "unsupported"}
    if unsupported and differ and set(v for _, v in differ.values()) <= {"fail", "unsupported"}:
        differ = {}  # said it could not judge: a clear statement, never a silent wrong verdict
    assert not differ, f"{name}: one process vs the sandbox, by test: {differ}"
