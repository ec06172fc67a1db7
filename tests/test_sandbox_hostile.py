"""Hostile code: every program here must be contained, must not pass, and must leave the host as it was."""

from __future__ import annotations

import hashlib
import importlib.util
import os
import socket
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from hostile_programs import (
    EXPECTED,
    HOSTILE,
    NUMPY_ATTACK_STATUS,
    NUMPY_ATTACKS,
    TESTS,
    host_library,
    numpy_attack,
    site_library,
)
from sandbox import Limits, isolation, isolation_level, packages_offered, run_tests

FULL = isolation_level().startswith("bwrap")
FAST = Limits(timeout_s=3, memory_bytes=256 << 20)  # a memory bomb fills it well within the timeout
NOT_PASSED = {"failed", "error", "timeout", "memory", "output_limit", "crashed", "unsupported"}


def _sandbox_processes() -> list[int]:
    """Host processes running under this process's sandbox uids (32 from 100000 + 32 * (pid % 60000); other
    test sessions on the machine have their own): there must be none between runs."""
    first = 100_000 + (os.getpid() % 60_000) * 32
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                uid = int((entry / "status").read_text().split("Uid:")[1].split()[0])
            except (OSError, IndexError, ValueError):
                continue
            if first <= uid < first + 32:
                found.append(int(entry.name))
    return found


@pytest.fixture
def sentinel(tmp_path_factory):
    """A host file that hostile code tries to read, change or delete."""
    path = tmp_path_factory.mktemp("host") / "sentinel.txt"
    path.write_text("original")
    os.chmod(path.parent, 0o777)
    os.chmod(path, 0o666)
    return path


def test_every_hostile_program_has_an_expected_status():
    assert set(EXPECTED) == set(HOSTILE)
    assert all(expected <= NOT_PASSED for expected in EXPECTED.values())


@pytest.mark.parametrize("name", sorted(HOSTILE))
def test_hostile_program_is_contained(name, sentinel):
    code, tests = HOSTILE[name]
    before = sentinel.read_text()
    report = run_tests(code, tests, limits=FAST)
    assert report.status in EXPECTED[name], f"{name}: {report.status}\n{report.summary()}"
    assert not report.passed
    assert sentinel.read_text() == before
    if "uid" in report.isolation:
        assert _sandbox_processes() == [], f"{name} left processes behind"
    # The sandbox is intact afterwards: a correct program still passes.
    after = run_tests("def f(x):\n    return x * x\n", TESTS)
    assert after.status == "passed", after.summary()


# Reads every other process's memory, environment and command line it can reach and returns the pids where
# the sentinel (built at run time, so the searcher's own code holds it only as two halves) was found.
MEMORY_SEARCH = """
import os
def found(sentinel_halves):
    needle = ''.join(sentinel_halves).encode()
    hits = []
    try:
        pids = [int(p) for p in os.listdir('/proc') if p.isdigit()]
    except OSError:
        pids = list(range(1, 400))
    for pid in pids:
        if pid == os.getpid():
            continue
        blobs = []
        for name in ('environ', 'cmdline'):
            try:
                blobs.append(open(f'/proc/{pid}/{name}', 'rb').read())
            except OSError:
                pass
        try:
            with open(f'/proc/{pid}/maps') as maps, open(f'/proc/{pid}/mem', 'rb', 0) as mem:
                for line in maps:
                    span, perms = line.split()[:2]
                    start, end = (int(x, 16) for x in span.split('-'))
                    if perms.startswith('r') and end - start <= 64 << 20:
                        try:
                            mem.seek(start)
                            blobs.append(mem.read(end - start))
                        except (OSError, ValueError, OverflowError):
                            pass
        except OSError:
            pass
        if any(needle in blob for blob in blobs):
            hits.append(pid)
    return hits
"""


def test_memory_search_finds_a_sentinel_when_it_can_read(tmp_path):
    """The search below is real: on the host, unconfined, it finds a sentinel another process holds."""
    holder = subprocess.Popen([sys.executable, "-c", "import time; s = 'sbx-' + 'sentinel-host' * 3; time.sleep(60)"])
    try:
        time.sleep(1.0)
        namespace: dict = {}
        exec(MEMORY_SEARCH, namespace)
        assert holder.pid in namespace["found"](["sbx-", "sentinel-host" * 3])
    finally:
        holder.kill()
        holder.wait()


def test_other_processes_memory_is_out_of_reach():
    """The test process holds a sentinel; the code searches every process it can see for it and finds none."""
    tests = ("SENTINEL = 'sbx-' + 'sentinel-tests' * 3\n"
             "def test_nothing_found():\n    assert found(['sbx-', 'sentinel-tests' * 3]) == []\n")
    report = run_tests(MEMORY_SEARCH, tests, limits=Limits(timeout_s=20))
    assert report.status == "passed", report.summary()


def test_file_outside_temp_dir_cannot_be_written_or_deleted(sentinel):
    code = (f"import os\np = {str(sentinel)!r}\n"
            "def f(x):\n    errors = []\n    for act in (lambda: open(p, 'w').write('pwned'), lambda: os.remove(p),\n"
            "                lambda: open('/tmp/escape', 'w').write('x'), lambda: open('/usr/escape', 'w')):\n"
            "        try:\n            act()\n        except OSError as e:\n"
            "            errors.append(type(e).__name__)\n"
            "    return len(errors)\n")
    report = run_tests(code, "assert f(0) == 4\n")
    assert sentinel.read_text() == "original"
    assert not Path("/tmp/escape").exists() and not Path("/usr/escape").exists()
    assert report.status == "passed", report.summary()  # every attempt failed inside the sandbox


def test_environment_secrets_do_not_reach_the_code(monkeypatch):
    monkeypatch.setenv("SECRET_TOKEN", "s3cr3t-value-123")
    code = ("import os\ndef f():\n    seen = repr(dict(os.environ))\n    for p in [*range(1, 200), 'self']:\n"
            "        try:\n            seen += open(f'/proc/{p}/environ').read()\n"
            "        except OSError:\n            pass\n    print(seen)\n    return seen\n")
    report = run_tests(code, "assert f() == 'nothing'\n")
    assert "s3cr3t" not in report.stdout and "s3cr3t" not in report.summary()
    assert report.tests[0].left is not None and "SECRET_TOKEN" not in report.tests[0].left


@pytest.mark.skipif(isolation().level == "rlimits", reason="needs a network namespace or Landlock and seccomp")
def test_no_network_even_to_loopback():
    server = socket.socket()
    server.bind(("127.0.0.1", 0))
    server.listen()
    server.settimeout(3)
    port = server.getsockname()[1]
    accepted = []
    thread = threading.Thread(target=lambda: accepted.append(_accept(server)))
    thread.start()
    code = (f"import socket\ndef f():\n    try:\n        socket.create_connection(('127.0.0.1', {port}), timeout=2)\n"
            "        return 'connected'\n    except OSError as e:\n        return 'refused'\n")
    report = run_tests(code, "assert f() == 'refused'\n")
    thread.join()
    server.close()
    assert report.status == "passed", report.summary()
    assert accepted == [None]


def _accept(server: socket.socket) -> object:
    try:
        return server.accept()
    except OSError:
        return None


@pytest.mark.skipif(not FULL, reason="needs bubblewrap's private /proc and mounts")
def test_host_files_and_processes_invisible():
    code = ("import os\ndef f():\n"
            "    return [os.path.exists(p) for p in ('/work', '/root', '/home', '/etc/passwd')]\n"
            "def g():\n    try:\n        return sorted(int(p) for p in os.listdir('/proc') if p.isdigit())\n"
            "    except OSError:  # Landlock hides /proc altogether\n        return []\n")
    report = run_tests(code, "assert f() == [False, False, False, False]\nassert len(g()) < 10\n")
    assert report.status == "passed", report.summary()


def test_daemon_children_do_not_outlive_the_run():
    code = ("import os, time\ndef f(x):\n    if os.fork() == 0:\n        os.setsid()\n        if os.fork() == 0:\n"
            "            time.sleep(600)\n        os._exit(0)\n    return x * x\n")
    report = run_tests(code, TESTS)
    assert report.status == "passed", report.summary()
    if "uid" in report.isolation:
        assert _sandbox_processes() == []


def _tree_digest(folder: Path) -> str:
    digest = hashlib.sha256()
    for path in sorted(folder.rglob("*")):
        digest.update(str(path).encode())
        if path.is_file():
            digest.update(path.read_bytes())
    return digest.hexdigest()


@pytest.fixture(scope="module")
def numpy_dir():
    if "numpy" not in packages_offered():
        pytest.skip("SANDBOX_PACKAGES does not offer numpy")
    folder = Path(importlib.util.find_spec("numpy").origin).resolve().parent
    before = _tree_digest(folder)
    yield folder
    assert _tree_digest(folder) == before, "the numpy package folder changed"


@pytest.mark.parametrize("name", sorted(NUMPY_ATTACKS))
def test_numpy_attack_is_contained(name, sentinel, numpy_dir):
    code = numpy_attack(name, str(sentinel), host_library(sentinel.parent), site_library())
    report = run_tests(code, TESTS, limits=FAST)
    assert report.status == NUMPY_ATTACK_STATUS, f"{name}: {report.status}\n{report.summary()}"
    assert sentinel.read_text() == "original"
    assert sorted(p.name for p in sentinel.parent.iterdir()) == ["host.so", "sentinel.txt"]
    assert not (numpy_dir / "pwned.npy").exists()
    assert (numpy_dir / "py.typed").read_bytes() == b""


def test_numpy_works_in_the_run_dir_and_after_the_workers_fork():
    """numpy (pre-imported by the worker) still multiplies matrices in a forked child, and files in the
    run's own dir are the code's to use."""
    if "numpy" not in packages_offered():
        pytest.skip("SANDBOX_PACKAGES does not offer numpy")
    code = ("import numpy as np\ndef f():\n    a = np.arange(40000.0).reshape(200, 200) / 40000\n"
            "    np.save('a.npy', a)\n    b = np.load('a.npy')\n    m = np.memmap('m.bin', dtype=np.float64, mode='w+',"
            " shape=(200, 200))\n    m[:] = b @ b.T\n    m.flush()\n    return float(np.fromfile('m.bin').sum())\n")
    tests = ("import numpy as np\na = np.arange(40000.0).reshape(200, 200) / 40000\n"
             "assert abs(f() - float((a @ a.T).sum())) < 1e-6\n")
    for _ in range(3):  # a fresh child of the same worker each time
        report = run_tests(code, tests)
        assert report.status == "passed", report.summary()


def test_a_forged_package_record_loads_nothing_in_the_tests_process():
    # Before: the tests' process imported unittest.__main__, which ran unittest's runner and exited it (exit 70).
    code, tests = HOSTILE["forge_a_package_record_naming_its_main"]
    report = run_tests(code, tests)
    assert report.status == "crashed" and "the code's process" in (report.error or ""), report.summary()
    assert "Ran 0 tests" not in report.stderr and report.exit_codes.get("tests") == 0
