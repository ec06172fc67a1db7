"""Packages in the sandbox (SANDBOX_PACKAGES): the allow-list, numpy values crossing between the code's and the
tests' processes, and the modules a run missed named for the agent."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from inside_modules import inside_modules

from sandbox import (
    Isolation,
    imported_modules,
    isolation,
    module_offered,
    packages_offered,
    run_tests,
)
from sandbox.inside.confinement.policy import from_json
from sandbox.isolation import worker_command
from sandbox.packages import package_paths
from sandbox.pool import WorkerPool, default_pool
from sandbox.run import run_on
from sandbox.settings import sandbox_settings
from sandbox.verdict import TestReport as Report  # not collected as a test class

NUMPY = "numpy" in packages_offered()
needs_numpy = pytest.mark.skipif(not NUMPY, reason="SANDBOX_PACKAGES does not offer numpy")
np = pytest.importorskip("numpy") if NUMPY else None


# --- the setting ---------------------------------------------------------------------------------------------

def test_setting_default_empty_and_list(monkeypatch):
    monkeypatch.delenv("SANDBOX_PACKAGES", raising=False)
    assert sandbox_settings().packages == ("numpy",)
    monkeypatch.setenv("SANDBOX_PACKAGES", "")
    assert sandbox_settings().packages == ()
    assert packages_offered() == ()
    monkeypatch.setenv("SANDBOX_PACKAGES", " numpy , json,numpy, ")
    assert sandbox_settings().packages == ("numpy", "json")


def test_setting_refuses_a_package_that_is_not_installed_or_not_a_name(monkeypatch):
    monkeypatch.setenv("SANDBOX_PACKAGES", "numpy,surely_not_installed_pkg")
    with pytest.raises(ValueError) as missing:
        sandbox_settings()
    text = str(missing.value)
    assert "SANDBOX_PACKAGES" in text and "'surely_not_installed_pkg'" in text
    assert "pip install surely_not_installed_pkg" in text and "remove it" in text
    monkeypatch.setenv("SANDBOX_PACKAGES", "numpy.linalg")
    with pytest.raises(ValueError, match="top-level import name"):
        sandbox_settings()


def test_cli_says_a_missing_package_in_one_line(tmp_path):
    (tmp_path / "c.py").write_text("def f():\n    return 1\n")
    (tmp_path / "t.py").write_text("assert f() == 1\n")
    proc = subprocess.run([sys.executable, "-m", "sandbox", "run", "--code", str(tmp_path / "c.py"), "--tests",
                           str(tmp_path / "t.py")], capture_output=True, text=True, timeout=120,
                          env={**os.environ, "SANDBOX_PACKAGES": "surely_not_installed_pkg"})
    assert proc.returncode == 2
    assert len(proc.stderr.strip().splitlines()) == 1 and "pip install surely_not_installed_pkg" in proc.stderr


def test_a_module_is_offered_from_the_standard_library_pytest_or_sandbox_packages(monkeypatch):
    monkeypatch.setenv("SANDBOX_PACKAGES", "numpy")
    assert module_offered("os") and module_offered("collections.abc") and module_offered("pytest")
    assert module_offered("numpy") and module_offered("numpy.linalg")
    assert not module_offered("scipy") and not module_offered("sklearn.linear_model") and not module_offered("")
    monkeypatch.setenv("SANDBOX_PACKAGES", "")
    assert not module_offered("numpy") and module_offered("json")


def test_imported_modules_are_the_absolute_top_level_names_in_order_once():
    source = ("from __future__ import annotations\nimport os, numpy.linalg as la\nfrom collections import abc\n"
              "from . import sibling\nfrom .pkg import thing\nimport numpy as np\n"
              "def test_x():\n    import scipy.stats\n    from pandas import DataFrame\n")
    assert imported_modules(source) == ["os", "numpy", "collections", "scipy", "pandas"]
    assert imported_modules("def broken(:\n") == []
    assert imported_modules("assert 1 == 1\n") == []


# --- where the packages come from ------------------------------------------------------------------------------

@needs_numpy
def test_package_paths_are_the_package_and_its_libs_only():
    paths = package_paths(("numpy",))
    site = Path(np.__file__).resolve().parent.parent
    assert Path(np.__file__).resolve().parent in paths
    assert all(path.parent == site and path.name.split(".")[0] == "numpy" for path in paths)
    if (site / "numpy.libs").is_dir():
        assert site / "numpy.libs" in paths
    assert package_paths(("json",)) == ()  # the standard library needs nothing


@needs_numpy
def test_worker_plan_offers_the_packages_and_not_site_packages():
    cmd, scratch = worker_command(0)
    try:
        policy = from_json(cmd[-1])
        site = str(Path(np.__file__).resolve().parent.parent)
        assert policy.preload == ("numpy",) and dict(policy.env)["OPENBLAS_NUM_THREADS"] == "1"
        assert len(policy.sys_path) == 1
        assert site not in policy.readable and site not in cmd
        if isolation().bwrap:
            assert policy.sys_path == ("/opt/packages",) and "/opt/packages" in policy.readable
            binds = [cmd[i + 1:i + 3] for i, arg in enumerate(cmd) if arg == "--ro-bind"]
            assert [str(Path(np.__file__).resolve().parent), "/opt/packages/numpy"] in binds
        else:
            assert sorted(os.listdir(policy.sys_path[0])) == sorted(p.name for p in package_paths(("numpy",)))
        assert from_json(worker_command(0, preload=False)[0][-1]).preload == ()
    finally:
        if scratch:
            import shutil

            shutil.rmtree(scratch, ignore_errors=True)


def test_unreadable_packages_are_said_loudly():
    ok = Isolation("bwrap", bwrap=True, uids=True)
    assert ok.warning is None
    loud = Isolation("bwrap", bwrap=True, uids=True, unreadable_packages=("/root/site/numpy",))
    assert "SANDBOX_PACKAGES" in loud.warning and "/root/site/numpy" in loud.warning
    landlock = Isolation("landlock", landlock_abi=7, unreadable_packages=("/x",))
    assert "Reduced sandbox" in landlock.warning and "SANDBOX_PACKAGES" in landlock.warning


# --- numpy in code and tests ------------------------------------------------------------------------------------

@needs_numpy
@pytest.mark.parametrize(("code", "tests"), [
    ("import numpy as np\ndef f():\n    return np.int64(4)\n", "assert f() == 4\n"),
    ("import numpy as np\ndef f():\n    return np.bool_(True)\n", "assert f() == True\nassert f()\n"),
    ("import numpy as np\ndef f():\n"
     "    return [np.int64(1), np.float32(2.5), (np.uint8(3),), {np.int16(1): np.bool_(0)}]\n",
     "assert f() == [1, 2.5, (3,), {1: False}]\n"),
    ("import numpy as np\ndef col_means(m):\n    return np.asarray(m, dtype=float).mean(axis=0)\n",
     "import numpy as np\nassert np.allclose(col_means([[1, 2], [3, 4]]), [2, 3])\n"
     "assert col_means([[1, 2], [3, 4]]).shape == (2,)\n"
     "assert (col_means(np.array([[1, 2], [3, 4]])) == np.array([2.0, 3.0])).all()\n"
     "np.testing.assert_array_equal(col_means([[0], [2]]), [1.0])\n"),
    ("import numpy as np\ndef scale(a, k):\n    a *= k\n",  # an array argument changed in place comes back
     "import numpy as np\ndef test_in_place():\n    a = np.arange(3)\n    scale(a, 2)\n"
     "    assert a.tolist() == [0, 2, 4]\n"),
    ("import numpy as np\ndef f():\n    return np.zeros((0, 3)), np.array(5), np.array(['ab', 'c']), "
     "np.array([1 + 2j], dtype=np.complex64), np.array([True, False]), np.float16(0.5)\n",
     "import numpy as np\ndef test_kinds():\n    empty, zero_d, text, cplx, flags, half = f()\n"
     "    assert empty.shape == (0, 3) and zero_d.ndim == 0 and zero_d == 5\n"
     "    assert text.tolist() == ['ab', 'c'] and cplx.dtype == np.complex64 and cplx[0] == 1 + 2j\n"
     "    assert flags.dtype == bool and half == 0.5\n"),
    ("import numpy as np\ndef f():\n    return np.array([1.0, 2.0])\n",
     "import pytest\nassert f() == pytest.approx([1.0, 2.0])\n"),
    ("import numpy as np\nWEIGHTS = np.array([0.5, 0.5])\ndef f():\n    return 1\n",
     "import numpy as np\nassert np.array_equal(WEIGHTS, [0.5, 0.5])\n"),
])
def test_numpy_values_cross_the_sandbox_boundary_and_compare_as_python_values(code, tests):
    report = run_tests(code, tests)
    assert report.status == "passed", report.summary()


@needs_numpy
def test_numpy_comparisons_that_must_fail():
    report = run_tests("def f():\n    return 3\n", "import numpy as np\nassert np.int64(3) == 4\n")
    assert report.status == "failed" and report.tests[0].left == "np.int64(3)"
    wrong = run_tests("import numpy as np\ndef f():\n    return np.int64(4)\n", "assert f() == 5\n")
    assert wrong.status == "failed" and wrong.tests[0].left == "4"
    array = run_tests("import numpy as np\ndef f():\n    return np.array([1, 2])\n", "assert f() == [1, 2]\n")
    assert array.status == "failed"
    failure = array.tests[0]
    assert failure.error_type == "AssertionError" and failure.left == "array([1, 2])" and failure.right == "[1, 2]"
    assert "np.array_equal" in failure.message and "tolist" in failure.message


@needs_numpy
def test_numpy_records_are_checked_by_the_receiver():
    peer, values = inside_modules("peer", "values")
    good = values.array_record(np.arange(6, dtype=np.int32).reshape(2, 3))
    assert good[0] == "array" and good[2] == (2, 3)
    assert values.build_array(good).tolist() == [[0, 1, 2], [3, 4, 5]]
    assert values.array_record(np.array([object()])) is None  # object arrays stay behind as handles
    assert values.array_record(np.zeros(2).view(type("Sub", (np.ndarray,), {}))) is None
    assert values.array_record(np.zeros(1, dtype=[("a", "i4")])) is None  # structured
    for bad in [("array", "|O8", (1,), bytes(8)), ("array", "<i4", (2,), bytes(4)), ("array", "<i4", (-1,), b""),
                ("array", "<i4,<i4", (1,), bytes(8)), ("array", "<i4", [1], bytes(4)), ("array", "<i4", (1,), "xxxx")]:
        with pytest.raises(values.BadRecord):
            values.build_array(bad)
    side = peer.Peer(-1, -1, home="solution", role="code")
    assert side.encode(np.uint8(7)) == ("v", 7) and type(side.encode(np.uint8(7))[1]) is int
    assert type(side.encode(np.bool_(True))[1]) is bool and type(side.encode(np.float32(1.5))[1]) is float
    # A subclass of numpy's scalar, with an item() that lies, is no number here: it stays behind as an object.
    assert side.encode(type("Sly", (np.int64,), {"item": lambda self: 4})(3))[0] == "obj"


@needs_numpy
def test_numpy_random_differs_between_runs():
    code = "import numpy as np\ndef f():\n    return float(np.random.rand())\n"
    draws = {run_tests(code, "assert f() == -1\n").tests[0].left for _ in range(3)}
    assert len(draws) == 3


@needs_numpy
@pytest.mark.parametrize("preload", [True, False])
def test_numpy_seed_of_the_tests_decides_the_codes_draws(preload):
    """numpy's global generator is one for the tests and the code, as in one process: seeded by the tests, drawn
    by the code, its cached second normal deviate used by the tests; with numpy pre-imported by the worker, or
    imported by each side itself."""
    code = "import numpy as np\ndef noise(n):\n    return np.random.normal(size=n)\n"
    tests = ("import numpy as np\ndef test_seeded():\n    np.random.seed(0)\n    got = noise(3)\n"
             "    np.random.seed(0)\n    assert np.array_equal(got, np.random.normal(size=3))\n"
             "def test_the_cached_deviate_is_shared():\n    np.random.seed(1)\n    a = noise(1)\n"
             "    b = np.random.normal()\n    c = noise(1)\n    np.random.seed(1)\n"
             "    assert [a[0], b, c[0]] == list(np.random.normal(size=3))\n")
    pool = WorkerPool(1, preload=preload, first_slot=16)
    try:
        report = run_on(pool, code, tests)
        assert report.status == "passed", report.summary()
        report = run_on(pool, code.replace("np.random.normal(size=n)", "np.random.default_rng().normal(size=n)"), tests)
        assert report.status == "failed", report.summary()
    finally:
        pool.close()


@needs_numpy
def test_a_forged_numpy_state_is_a_garbled_message():
    """The code sends a numpy generator state no generator has: the tests' process never takes it on, and never
    raises it inside a test (where pytest.raises(ValueError) would take it for the code's error)."""
    code = ("import sys\nimport numpy as np\ndef parse(text):\n"
            "    sys.modules['random_sync']._Numpy.state = lambda self: ('MT19937', b'x', -1, 7, 0.0)\n"
            "    np.random.seed(1)\n    return 0\n")
    report = run_tests(code, "import pytest\ndef test_refuses():\n    with pytest.raises(ValueError):\n"
                             "        parse('four')\n")
    assert report.status == "crashed", report.summary()
    assert "numpy random state of the wrong shape" in report.tests[0].message


@needs_numpy
def test_numpy_without_the_workers_pre_import():
    pool = WorkerPool(1, preload=False, first_slot=15)
    try:
        code = "import numpy as np\ndef f(n):\n    a = np.ones((n, n))\n    return float((a @ a).sum())\n"
        report = run_on(pool, code, "assert f(100) == 1e6\n")
        assert report.status == "passed", report.summary()
    finally:
        pool.close()


@needs_numpy
def test_pre_import_leaves_the_worker_single_threaded():
    assert run_tests("def f():\n    return 1\n", "import numpy\nassert f() == 1\n").passed
    workers = [p for p in Path("/proc").iterdir() if p.name.isdigit() and _is_our_worker(p)]
    assert workers, "no sandbox worker of this process found"
    for proc in workers:
        threads = int(next(line.split()[1] for line in (proc / "status").read_text().splitlines()
                           if line.startswith("Threads:")))
        assert threads == 1, f"worker {proc.name} runs {threads} threads"


def _is_our_worker(proc: Path) -> bool:
    """A python worker.py process below one of the default pool's workers."""
    roots = {worker.proc.pid for worker in default_pool()._all.values()}
    try:
        argv = (proc / "cmdline").read_bytes().split(b"\0")
        # bubblewrap's own process names worker.py too; the worker's policy may name bwrap (its level)
        if not any(arg.endswith(b"worker.py") for arg in argv) or argv[0].endswith(b"bwrap"):
            return False
        pid = int(proc.name)
        while pid > 1:
            if pid in roots:
                return True
            pid = int((Path("/proc") / str(pid) / "stat").read_text().rsplit(")", 1)[1].split()[1])
    except (OSError, ValueError, IndexError):
        return False
    return False


def test_a_package_that_starts_a_thread_is_not_pre_imported(tmp_path):
    """A fork copies only the calling thread: a worker whose pre-imports left a thread running starts again
    without them, and the package still imports in each child."""
    package = tmp_path / "sbx_threaded_pkg"
    package.mkdir()
    (package / "__init__.py").write_text("import threading, time\nVALUE = 7\n"
                                         "threading.Thread(target=time.sleep, args=(3600,), daemon=True).start()\n")
    for path in (package, package / "__init__.py"):
        os.chmod(path, 0o755)  # bound into bwrap on its own: only its own mode matters to the sandbox's uids
    driver = ("from sandbox import run_tests\n"
              "print(run_tests('import sbx_threaded_pkg\\ndef f():\\n    return sbx_threaded_pkg.VALUE\\n',"
              " 'assert f() == 7\\n').status)\n")
    proc = subprocess.run([sys.executable, "-c", driver], capture_output=True, text=True, timeout=120,
                          cwd=Path(__file__).resolve().parent.parent,
                          env={**os.environ, "PYTHONPATH": str(tmp_path), "SANDBOX_DEBUG": "1",
                               "SANDBOX_PACKAGES": "sbx_threaded_pkg"})
    assert proc.stdout.strip() == "passed", proc.stderr[-2000:]
    assert "started threads; starting again without them" in proc.stderr


# --- missing modules, named -------------------------------------------------------------------------------------

@pytest.mark.parametrize(("code", "tests", "module", "where", "status"), [
    ("import scipy\ndef f():\n    return 1\n", "assert f() == 1\n", "scipy", "code", "error"),
    ("from sklearn.linear_model import Ridge\ndef f():\n    return 1\n", "assert f() == 1\n", "sklearn", "code",
     "error"),
    ("def f():\n    import scipy.stats\n    return 1\n", "assert f() == 1\n", "scipy", "code", "failed"),
    ("def f():\n    return 1\n", "import pandas as pd\nassert f() == 1\n", "pandas", "tests", "failed"),
    ("def f():\n    return 1\n", "import pandas as pd\ndef test_f():\n    assert f() == 1\n", "pandas", "tests",
     "failed"),
    ("def f():\n    return 1\n", "def test_f():\n    import polars\n    assert f() == 1\n", "polars", "tests",
     "failed"),
    # Offered modules that are still not found are the code's own bug, not the environment's.
    ("def f():\n    import numpy.foo\n    return 1\n", "assert f() == 1\n", None, None, "failed"),
    ("import os.nothing\ndef f():\n    return 1\n", "assert f() == 1\n", None, None, "error"),
    ("def f():\n    return 1\n", "import solution.helpers\nassert f() == 1\n", None, None, "failed"),
    ("def f():\n    raise ValueError('x')\n", "assert f() == 1\n", None, None, "failed"),
])
def test_missing_module_is_named(code, tests, module, where, status):
    report = run_tests(code, tests)
    assert report.status == status, report.summary()
    assert (report.missing_module, report.missing_module_in) == (module, where)
    if module:
        assert f"no module '{module}'" in report.error and "SANDBOX_PACKAGES" in report.error
        assert "the standard library and numpy" in report.error or not NUMPY
        assert f"pip install {module}" in report.summary()


def test_missing_numpy_when_not_offered(tmp_path):
    """With SANDBOX_PACKAGES empty, numpy is out of reach of code and tests and named as missing."""
    (tmp_path / "c.py").write_text("def f():\n    return 1\n")
    (tmp_path / "t.py").write_text("import numpy as np\nassert np.int64(f()) == 1\n")
    proc = subprocess.run([sys.executable, "-m", "sandbox", "run", "--code", str(tmp_path / "c.py"), "--tests",
                           str(tmp_path / "t.py"), "--json"], capture_output=True, text=True, timeout=120,
                          env={**os.environ, "SANDBOX_PACKAGES": ""})
    report = json.loads(proc.stdout)
    assert proc.returncode == 1 and report["status"] == "failed"
    assert (report["missing_module"], report["missing_module_in"]) == ("numpy", "tests")
    assert "offers the standard library only" in report["error"]


def test_report_round_trips_the_missing_module():
    report = Report(status="error", error="x", missing_module="scipy", missing_module_in="code")
    assert Report.from_dict(report.to_dict()) == report
    old = report.to_dict()
    del old["missing_module"], old["missing_module_in"]  # stored before the fields existed
    loaded = Report.from_dict(old)
    assert loaded.missing_module is None and loaded.missing_module_in is None and loaded.error == "x"
