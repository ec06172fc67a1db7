"""Hostile code: every program here must be contained, must not pass, and must leave the host as it was."""

from __future__ import annotations

import hashlib
import importlib.util
import os
import shutil
import socket
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from sandbox import Limits, isolation, isolation_level, packages_offered, run_tests

FULL = isolation_level().startswith("bwrap")
TESTS = "assert f(2) == 4\nassert f(3) == 9\n"
FAST = Limits(timeout_s=3, memory_bytes=256 << 20)  # a memory bomb fills it well within the timeout
NOT_PASSED = {"failed", "error", "timeout", "memory", "output_limit", "crashed"}


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


HOSTILE = {
    "fork_bomb": ("import os\nwhile True:\n    try:\n        os.fork()\n    except OSError:\n        pass\n", TESTS),
    "fork_bomb_in_call": ("import os\ndef f(x):\n    while True:\n        os.fork()\n", TESTS),
    "infinite_loop_ignoring_sigterm": (
        "import signal\nsignal.signal(signal.SIGTERM, signal.SIG_IGN)\ndef f(x):\n    while True:\n        pass\n",
        TESTS),
    "sleep_past_timeout": ("import time\ndef f(x):\n    time.sleep(60)\n    return x * x\n", TESTS),
    "memory_bomb": ("def f(x):\n    a = []\n    while True:\n        a.append(' ' * 10**7)\n", TESTS),
    "output_flood": ("import sys\ndef f(x):\n    while True:\n        sys.stdout.write('y' * 65536)\n", TESTS),
    "stderr_flood_at_import": ("import sys\nwhile True:\n    sys.stderr.write('z' * 65536)\n", TESTS),
    "disk_fill_one_file": ("def f(x):\n    with open('big', 'wb') as fh:\n        while True:\n"
                           "            fh.write(b'0' * (1 << 20))\n", TESTS),
    "disk_fill_many_files": ("def f(x):\n    i = 0\n    while True:\n        i += 1\n"
                             "        open(f'f{i}', 'wb').write(b'0' * (8 << 20))\n", TESTS),
    "recursion_bomb": ("def f(x):\n    return f(x + 1)\n", TESTS),
    "deep_recursion_segfault": ("import sys\nsys.setrecursionlimit(10**7)\ndef f(x):\n    return f(x + 1) + 1\n",
                                TESTS),
    "print_success_marker": ("print('PASSED'); print('2 passed, 0 failed'); print('{\"status\": \"passed\"}')\n"
                             "def f(x):\n    return 0\n", TESTS),
    "exit_zero_at_import": ("import sys\nsys.exit(0)\ndef f(x):\n    return x * x\n", TESTS),
    "os_exit_zero_at_import": ("import os\nos._exit(0)\n", TESTS),
    "exit_zero_in_call": ("import os\ndef f(x):\n    os._exit(0)\n", TESTS),
    "replace_assertion_error_and_builtins": (
        "import builtins\nbuiltins.AssertionError = type('X', (Exception,), {})\n"
        "builtins.isinstance = lambda *a: True\nbuiltins.len = lambda *a: 0\ndef f(x):\n    return 0\n", TESTS),
    "eq_always_true": ("class Any:\n    def __eq__(self, other):\n        return True\n    __hash__ = None\n"
                       "def f(x):\n    return Any()\n", TESTS),
    "int_subclass_eq_always_true": ("class Sly(int):\n    def __eq__(self, other):\n        return True\n"
                                    "    __hash__ = int.__hash__\ndef f(x):\n    return Sly(0)\n", TESTS),
    "kill_parent_and_everything": (
        "import os, signal\nfor pid in [os.getppid(), 1, -1]:\n    try:\n        os.kill(pid, signal.SIGKILL)\n"
        "    except OSError:\n        pass\ndef f(x):\n    return 0\n", TESTS),
    "kill_every_process_seen": (
        "import os, signal\ndef f(x):\n    for p in os.listdir('/proc'):\n"
        "        if p.isdigit() and int(p) != os.getpid():\n"
        "            try:\n                os.kill(int(p), signal.SIGKILL)\n            except OSError:\n"
        "                pass\n    return 0\n", TESTS),
    "forge_report_on_every_fd": (
        "import os\nline = b'{\"ev\": \"test\", \"name\": \"x\", \"passed\": true}\\n'\ndef f(x):\n"
        "    for fd in range(0, 256):\n        try:\n            os.write(fd, line * 50)\n        except OSError:\n"
        "            pass\n    return 0\n", TESTS),
    "patch_harness_modules_in_memory": (
        "import sys, gc\nfor m in list(sys.modules.values()):\n    for name in dir(m):\n"
        "        if 'compare' in name or 'truth' in name:\n            try:\n"
        "                setattr(m, name, lambda *a, **k: None)\n            except Exception:\n                pass\n"
        "def f(x):\n    return 0\n", TESTS),
    "walk_frames_for_channels": (
        "import sys, gc\ndef f(x):\n    for o in gc.get_objects():\n        if isinstance(o, dict) and 'passed' in o:\n"
        "            o['passed'] = True\n    frame = sys._getframe()\n    while frame:\n"
        "        frame.f_globals.pop('wire', None)\n        frame = frame.f_back\n    return 0\n", TESTS),
    "sigstop_self": ("import os, signal\ndef f(x):\n    os.kill(os.getpid(), signal.SIGSTOP)\n    return x * x\n",
                     TESTS),
    "thread_sleeping_forever_still_judged": (
        "import threading, time\nthreading.Thread(target=time.sleep, args=(3600,)).start()\ndef f(x):\n    return 0\n",
        TESTS),
    "open_files_exhaustion": ("def f(x):\n    fs = []\n    while True:\n        fs.append(open('/dev/null'))\n",
                              TESTS),
    # numpy (SANDBOX_PACKAGES): its values cross as plain data or arrays the test process rebuilds itself.
    "numpy_int64_subclass_with_lying_item_and_eq": (
        "import numpy as np\nclass Sly(np.int64):\n    def item(self):\n        return 4\n"
        "    def __eq__(self, other):\n        return True\n    __hash__ = int.__hash__\n"
        "def f(x):\n    return Sly(0)\n", TESTS),
    "ndarray_subclass_eq_always_true": (
        "import numpy as np\nclass A(np.ndarray):\n    def __eq__(self, other):\n        return True\n"
        "    def __bool__(self):\n        return True\ndef f(x):\n    return np.zeros(1).view(A)\n", TESTS),
    "object_array_of_always_equal": (
        "import numpy as np\nclass Any:\n    def __eq__(self, other):\n        return True\n"
        "def f(x):\n    return np.array([Any()], dtype=object)\n", TESTS),
    "patch_numpy_in_the_code_process": (
        "import numpy as np\nnp.allclose = np.array_equal = lambda *a, **k: True\n"
        "np.testing.assert_allclose = lambda *a, **k: None\n"
        "def f(x):\n    return np.zeros(3)\n",
        "import numpy as np\nassert np.allclose(f(2), [4, 4, 4])\nnp.testing.assert_allclose(f(3), [9, 9, 9])\n"),
}


# RLIMIT_NPROC binds only a process that is not root: the sandbox's own uids, or an app run without root.
NPROC_BINDS = "uid" in isolation_level() or os.geteuid() != 0
# The status each hostile program must get, so that a regression turning (say) a timeout into a crash shows.
EXPECTED = {
    "fork_bomb": {"timeout"},
    "fork_bomb_in_call": {"failed"} if NPROC_BINDS else {"timeout"},  # fork raises once the limit binds
    "infinite_loop_ignoring_sigterm": {"timeout"},
    "sleep_past_timeout": {"timeout"},
    "memory_bomb": {"memory"},
    "output_flood": {"output_limit"},
    "stderr_flood_at_import": {"output_limit"},
    "disk_fill_one_file": {"failed"},  # RLIMIT_FSIZE: the write raises
    # The run dir fills (bwrap's tmpfs raises ENOSPC) or the worker's disk watch stops the run first.
    "disk_fill_many_files": {"failed", "output_limit"},
    "recursion_bomb": {"failed"},  # RecursionError
    # CPython's C stack may overflow (a crash) or the million frames may outlast the timeout.
    "deep_recursion_segfault": {"timeout", "crashed"},
    "print_success_marker": {"failed"},
    "exit_zero_at_import": {"error"},
    "os_exit_zero_at_import": {"error"},
    "exit_zero_in_call": {"crashed"},
    "replace_assertion_error_and_builtins": {"error"},
    "eq_always_true": {"failed"},
    "int_subclass_eq_always_true": {"failed"},
    "kill_parent_and_everything": {"failed"},
    "kill_every_process_seen": {"failed"},
    "forge_report_on_every_fd": {"crashed"},
    "patch_harness_modules_in_memory": {"failed"},
    "walk_frames_for_channels": {"crashed"},
    "sigstop_self": {"timeout"},
    "thread_sleeping_forever_still_judged": {"failed"},
    "open_files_exhaustion": {"failed"},
    # Without numpy offered (SANDBOX_PACKAGES empty) these code cannot load: an error, never a pass.
    **dict.fromkeys([name for name in HOSTILE if "numpy" in HOSTILE[name][0]],
                    {"failed"} if "numpy" in packages_offered() else {"error"}),
}


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


# numpy against the host: each attack runs in f(x) and, when it does not raise, returns the right answer, so an
# attack that got through would pass. DATA_PATH (the app's data file), HOST_LIB (a shared library copied next to
# it) and SITE_LIB (a library of the app's own environment, not allow-listed) are filled in per run.
NUMPY_ATTACKS = {
    "np_tofile_over_the_data_file": "np.frombuffer(b'pwned', dtype=np.uint8).tofile(DATA_PATH)",
    "np_memmap_writes_the_data_file": "m = np.memmap(DATA_PATH, dtype=np.uint8, mode='r+')\n"
                                      "    m[:] = 0\n    m.flush()",
    "np_save_next_to_the_data_file_in_host_tmp": "np.save(DATA_PATH + '-escape.npy', np.arange(3))",
    "np_save_into_the_package_folder": "np.save(os.path.join(os.path.dirname(np.__file__), 'pwned.npy'), np.arange(3))",
    "np_tofile_over_a_package_file": "np.arange(3).tofile(os.path.join(os.path.dirname(np.__file__), 'py.typed'))",
    "ctypes_cdll_of_a_host_library": "ctypes.CDLL(HOST_LIB)",
    "np_ctypeslib_load_library_from_host": "np.ctypeslib.load_library(os.path.basename(HOST_LIB), "
                                           "os.path.dirname(HOST_LIB))",
    "ctypes_cdll_of_the_apps_own_environment": "ctypes.CDLL(SITE_LIB)",
}
NUMPY_ATTACK_STATUS = "failed"  # the attack raises inside f: a failed test, and nothing outside changed


def numpy_attack(name: str, data: str, host_lib: str, site_lib: str) -> str:
    """The code of one numpy attack, aimed at the given paths."""
    body = NUMPY_ATTACKS[name]
    for token, value in (("DATA_PATH", data), ("HOST_LIB", host_lib), ("SITE_LIB", site_lib)):
        body = body.replace(token, repr(value))
    return f"import ctypes, os\nimport numpy as np\ndef f(x):\n    {body}\n    return x * x\n"


def site_library() -> str:
    """A compiled module of the app's environment outside the allow-listed packages (the venv is not mounted)."""
    numpy_dir = Path(importlib.util.find_spec("numpy").origin).resolve().parent
    offered = {numpy_dir.parent / name for name in os.listdir(numpy_dir.parent) if name.split(".")[0] == "numpy"}
    for path in sorted(numpy_dir.parent.rglob("*.so")):
        if not any(folder in path.parents for folder in offered):
            return str(path)
    pytest.skip("no compiled module outside numpy in this environment")


def host_library(folder: Path) -> str:
    """A copy of a system shared library in a host folder the sandbox must not reach."""
    source = next(Path(p) for p in ("/usr/lib/x86_64-linux-gnu/libz.so.1", "/usr/lib/aarch64-linux-gnu/libz.so.1",
                                    "/lib/x86_64-linux-gnu/libz.so.1") if Path(p).exists())
    target = folder / "host.so"
    shutil.copy(source, target)
    os.chmod(target, 0o755)
    return str(target)


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
