"""python -m sandbox run: exit codes 0 / 1 / 2 and the --json report."""

from __future__ import annotations

import json
import os
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


def test_policy_prints_the_rules_in_force_and_says_weak_isolation_loudly():
    from sandbox import worker_policy
    from sandbox.inside.confinement.policy import from_json

    shown = _cli("policy")
    assert shown.returncode == 0, shown.stderr
    lines = shown.stdout.splitlines()
    policy = worker_policy()
    assert f"level: {policy.level}" in lines and any(line.startswith("rlimits: CPU=cpu_s") for line in lines)
    assert any(line.startswith("network: ") and policy.network in line for line in lines)
    assert from_json(_cli("policy", "--json").stdout) == policy
    weak = subprocess.run([sys.executable, "-m", "sandbox", "policy"], capture_output=True, text=True, timeout=120,
                          env={**os.environ, "SANDBOX_ISOLATION": "rlimits"})
    assert weak.returncode == 0 and "level: rlimits" in weak.stdout
    assert "WARNING: Weak sandbox" in weak.stdout and "seccomp: off" in weak.stdout
    assert "network: the host's, unconfined" in weak.stdout
