"""The sandbox run by a user without root (the Compose deployment's `app` user): that user's own data
files are neither read nor changed by hostile code, at every isolation level such a user can get, with numpy
offered to the code (SANDBOX_PACKAGES) as the app offers it."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest
from shape_catalog import SHAPES

from hostile_programs import (
    EXPECTED,
    HOSTILE,
    NUMPY_ATTACK_STATUS,
    NUMPY_ATTACKS,
    host_library,
    numpy_attack,
    site_library,
)
from sandbox.packages import package_paths

ROOT = Path(__file__).resolve().parent.parent
NOBODY = 65534
SETPRIV = shutil.which("setpriv")

DRIVER = r'''
import json, os, sys
from sandbox import Limits, isolation, packages_offered, run_tests
loaded, data = json.load(open(sys.argv[1])), sys.argv[2]
cases, numpy_attacks = loaded["hostile"], loaded["numpy"]
steal = ("import os\ndef f(x):\n    got = []\n    for act in (lambda: open(%r).read(),"
         " lambda: open(%r, 'w').write('gone'), lambda: os.remove(%r)):\n        try:\n"
         "            got.append(act())\n        except OSError as e:\n"
         "            got.append(type(e).__name__)\n    return got\n") % (data, data, data)
def read(path):
    try:
        return open(path).read()
    except FileNotFoundError:
        return "<deleted>"
out = {"isolation": isolation().description, "level": isolation().level, "cases": {}, "numpy": {},
       "offered": list(packages_offered()), "warning": isolation().warning}
report = run_tests(steal, "assert f(0) == []\n")
out["steal"] = report.tests[0].left if report.tests else report.error
out["data_after_steal"] = read(data)
only_some = os.environ.get("ONLY_STEAL") or os.environ.get("ONLY_SHAPES")
for name, (code, tests) in ({} if only_some else cases).items():
    report = run_tests(code, tests, limits=Limits(timeout_s=3, memory_bytes=256 << 20))
    out["cases"][name] = [report.status, read(data)]
for name, code in ({} if only_some else numpy_attacks).items():
    report = run_tests(code, "assert f(2) == 4\n", limits=Limits(timeout_s=3, memory_bytes=256 << 20))
    out["numpy"][name] = [report.status, read(data), sorted(os.listdir(os.path.dirname(data)))]
out["shapes"] = {name: [run_tests(right, tests).status, run_tests(wrong, tests).status]
                 for name, (tests, right, wrong) in ({} if os.environ.get("ONLY_STEAL") else loaded["shapes"]).items()}
out["correct"] = run_tests("def f(x):\n    return x * x\n", "assert f(2) == 4\n").status
out["correct_numpy"] = run_tests("import numpy as np\ndef f(x):\n    return np.full((2, 2), x) @ np.eye(2)\n",
                                 "import numpy as np\nassert np.array_equal(f(3), [[3, 3], [3, 3]])\n").status
print(json.dumps(out))
'''


def _python_for_others() -> str | None:
    """An interpreter any user can execute: ours if every folder above it lets others through, else the
    system's. (Asking setpriv to run it proves nothing: root's capabilities still hold during that exec.)"""
    exe = os.path.realpath(getattr(sys, "_base_executable", sys.executable))
    for candidate in (exe, "/usr/bin/python3.11", "/usr/bin/python3"):
        path = Path(os.path.realpath(candidate))
        if path.exists() and path.stat().st_mode & 0o005 == 0o005 and all(
                parent.stat().st_mode & 0o001 for parent in path.parents):
            version = subprocess.run([str(path), "-c", "import sys; print(sys.version_info >= (3, 11))"],
                                     capture_output=True, text=True)
            if version.stdout.strip() == "True":
                return str(path)
    return None


@pytest.fixture(scope="module")
def as_nobody():
    if os.geteuid() != 0 or not SETPRIV:
        pytest.skip("needs root and setpriv to become an unprivileged user")
    python = _python_for_others()
    if python is None:
        pytest.skip("no Python 3.11+ that an unprivileged user can run")
    # Not under pytest's temp root: that is 0700, and every pytest session on the machine resets it so.
    home = Path(tempfile.mkdtemp(prefix="sandbox-nonroot-"))
    os.chmod(home, 0o755)
    shutil.copytree(ROOT / "sandbox", home / "sandbox", ignore=shutil.ignore_patterns("__pycache__"))
    (home / "driver.py").write_text(DRIVER)
    site = _offer_numpy(home)
    data = home / "data"
    data.mkdir()
    (data / "bench.sqlite").write_text("precious")
    numpy_codes = {name: numpy_attack(name, str(data / "bench.sqlite"), host_library(data), site_library())
                   for name in NUMPY_ATTACKS}
    (home / "cases.json").write_text(json.dumps({"hostile": HOSTILE, "numpy": numpy_codes, "shapes": SHAPES}))
    os.chown(data, NOBODY, NOBODY)
    os.chown(data / "bench.sqlite", NOBODY, NOBODY)
    os.chmod(data / "bench.sqlite", 0o600)
    for folder, dirs, files in os.walk(home / "sandbox"):
        for name in dirs + files:
            os.chmod(os.path.join(folder, name), 0o755)

    def run(**env: str) -> dict:
        proc = subprocess.run([SETPRIV, "--reuid", str(NOBODY), "--regid", str(NOBODY), "--clear-groups", python,
                               "driver.py", "cases.json", str(data / "bench.sqlite")],
                              cwd=home, env={"PATH": "/usr/bin:/bin", "PYTHONPATH": str(site), **env},
                              capture_output=True, text=True,
                              timeout=600)
        assert proc.returncode == 0, proc.stderr[-3000:]
        return json.loads(proc.stdout.splitlines()[-1])

    yield run
    shutil.rmtree(home, ignore_errors=True)


def _offer_numpy(home: Path) -> Path:
    """A folder holding numpy for the unprivileged user's interpreter (the app's environment, as that user has
    it): links to this environment's numpy and numpy.libs where others can read them, copies where not."""
    site = home / "site"
    site.mkdir()
    for path in package_paths(("numpy",)):
        if all(parent.stat().st_mode & 0o001 for parent in path.parents) and path.stat().st_mode & 0o005 == 0o005:
            (site / path.name).symlink_to(path)
        else:
            shutil.copytree(path, site / path.name)
            for folder, dirs, files in os.walk(site / path.name):
                for name in dirs + files:
                    os.chmod(os.path.join(folder, name), 0o755)
    return site


@pytest.mark.parametrize("cap", ["auto", "landlock"])
def test_hostile_code_leaves_the_users_data_alone(as_nobody, cap):
    result = as_nobody(SANDBOX_ISOLATION=cap)
    assert result["level"] == ("bwrap" if cap == "auto" and shutil.which("bwrap") else "landlock"), result
    assert result["steal"] is not None and "precious" not in result["steal"], result["steal"]
    assert result["data_after_steal"] == "precious"
    for name, (status, data) in result["cases"].items():
        expected = {"failed"} if name == "fork_bomb_in_call" else EXPECTED[name]  # RLIMIT_NPROC binds here
        assert status in expected, f"{name} under {result['isolation']}: {status}"
        assert data == "precious", name
    assert result["offered"] == ["numpy"]
    assert "SANDBOX_PACKAGES" not in (result["warning"] or ""), result["warning"]  # the user reads its packages
    assert set(result["numpy"]) == set(NUMPY_ATTACKS)
    for name, (status, data, listing) in result["numpy"].items():
        assert status == NUMPY_ATTACK_STATUS, f"{name} under {result['isolation']}: {status}"
        assert data == "precious" and listing == ["bench.sqlite", "host.so"], (name, data, listing)
    assert result["correct"] == "passed"
    assert result["correct_numpy"] == "passed"
    # Ordinary tests judge right as this user too: every right answer of the catalog passes, every wrong one fails.
    assert set(result["shapes"]) == set(SHAPES)
    assert {n: s for n, s in result["shapes"].items() if s != ["passed", "failed"]} == {}


def test_rlimits_alone_is_weak_and_required_levels_refuse_it(as_nobody):
    weak = as_nobody(SANDBOX_ISOLATION="rlimits", ONLY_STEAL="1")
    assert weak["level"] == "rlimits"
    # What the weak level means, shown so it is never silent: the user's own file is within reach.
    assert "precious" in (weak["steal"] or "")
    refused = as_nobody(SANDBOX_ISOLATION="rlimits", SANDBOX_REQUIRE="landlock", ONLY_STEAL="1")
    assert "SANDBOX_REQUIRE=landlock" in (refused["steal"] or ""), refused["steal"]
    assert refused["correct"] == "error"
    # Weak as it is, the level still judges ordinary tests right.
    shapes = as_nobody(SANDBOX_ISOLATION="rlimits", ONLY_SHAPES="1")["shapes"]
    assert {n: s for n, s in shapes.items() if s != ["passed", "failed"]} == {}
