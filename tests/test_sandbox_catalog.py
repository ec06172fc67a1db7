"""The catalog of ordinary test shapes (tests/shape_catalog.py): every right answer passes and every wrong one fails,
in this process's isolation and, as root, at each weaker level (an ordinary user's levels are in
tests/test_sandbox_nonroot.py)."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from shape_catalog import SHAPES

from sandbox import run_tests

ROOT = Path(__file__).resolve().parent.parent
DRIVER = r'''
import json, sys
sys.path.insert(0, "tests")
from shape_catalog import SHAPES
from sandbox import isolation, run_tests
out = {"level": isolation().level, "shapes": {}}
for name, (tests, right, wrong) in SHAPES.items():
    out["shapes"][name] = [run_tests(right, tests).status, run_tests(wrong, tests).status]
print(json.dumps(out))
'''


@pytest.mark.parametrize("name", sorted(SHAPES))
def test_the_right_answer_passes_and_the_wrong_one_fails(name):
    tests, right, wrong = SHAPES[name]
    report = run_tests(right, tests)
    assert report.status == "passed", report.summary()
    report = run_tests(wrong, tests)
    assert report.status == "failed", report.summary()


def catalog_at(level: str, **env: str) -> dict:
    """The catalog's statuses from a fresh process whose sandbox runs at level (SANDBOX_ISOLATION)."""
    proc = subprocess.run([sys.executable, "-c", DRIVER], cwd=ROOT, capture_output=True, text=True, timeout=600,
                          env={**os.environ, "SANDBOX_ISOLATION": level, **env})
    assert proc.returncode == 0, proc.stderr[-3000:]
    return json.loads(proc.stdout.splitlines()[-1])


@pytest.mark.parametrize("level", ["landlock", "rlimits"])
def test_the_catalog_holds_at_each_weaker_level(level):
    if level == "landlock" and not (os.path.exists("/sys/kernel/security/landlock") or shutil.which("bwrap")):
        pytest.skip("no Landlock here")
    result = catalog_at(level)
    assert result["level"] == level
    wrong = {name: statuses for name, statuses in result["shapes"].items() if statuses != ["passed", "failed"]}
    assert not wrong, wrong
