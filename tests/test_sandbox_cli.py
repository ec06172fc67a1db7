"""python -m sandbox run: exit codes 0 / 1 / 2 and the --json report."""

from __future__ import annotations

import json
import subprocess
import sys


def _cli(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "sandbox", *args], capture_output=True, text=True, timeout=120)


def test_passing_failing_and_json(tmp_path):
    code, good, bad = tmp_path / "code.py", tmp_path / "good.py", tmp_path / "bad.py"
    code.write_text("def add(a, b):\n    return a + b\n")
    good.write_text("assert add(1, 2) == 3\n")
    bad.write_text("assert add(1, 2) == 4\n")
    assert _cli("run", "--code", str(code), "--tests", str(good)).returncode == 0
    failing = _cli("run", "--code", str(code), "--tests", str(bad), "--json")
    assert failing.returncode == 1
    report = json.loads(failing.stdout)
    assert report["status"] == "failed" and report["isolation"]
    assert report["tests"][0]["left"] == "3" and report["tests"][0]["right"] == "4"
    assert set(report) >= {"status", "tests", "stdout", "stderr", "duration_ms", "isolation"}


def test_check_shape_with_entry_point(tmp_path):
    code, tests = tmp_path / "code.py", tmp_path / "tests.py"
    code.write_text("def add(a, b):\n    return a + b\n")
    tests.write_text("def check(candidate):\n    assert candidate(2, 2) == 4\n")
    assert _cli("run", "--code", str(code), "--tests", str(tests), "--entry-point", "add").returncode == 0


def test_bad_usage_exits_2_with_one_line(tmp_path):
    missing = _cli("run", "--code", str(tmp_path / "nope.py"), "--tests", str(tmp_path / "nope.py"))
    assert missing.returncode == 2
    assert len(missing.stderr.strip().splitlines()) == 1 and "cannot read" in missing.stderr
    assert _cli("run", "--code", "x.py").returncode == 2
    assert _cli().returncode == 2
