"""Hostile programs the sandbox must contain, the status each must get, and numpy attacks on the host: shared by
the hostile suite (run as this user) and the non-root suite (run as an ordinary user)."""

from __future__ import annotations

import importlib.util
import os
import shutil
from pathlib import Path

import pytest

from sandbox import isolation_level, packages_offered

TESTS = "assert f(2) == 4\nassert f(3) == 9\n"  # what every hostile program is judged against

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
    # What crosses now besides plain data: each attack below passes its tests if it works.
    "decimal_subclass_eq_always_true": (
        "from decimal import Decimal\nclass Liar(Decimal):\n    def __eq__(self, other):\n        return True\n"
        "    __hash__ = Decimal.__hash__\ndef f(x):\n    return Liar('999')\n",
        "from decimal import Decimal\nassert f(2) == Decimal('4')\n"),
    "date_subclass_posing_as_date": (
        "import datetime\nclass D(datetime.date):\n    def __eq__(self, other):\n        return True\n"
        "    __hash__ = datetime.date.__hash__\ndef f(x):\n    return D(1999, 1, 1)\n",
        "import datetime\nassert f(2) == datetime.date(2024, 1, 5)\nassert type(f(2)) is not datetime.date\n"),
    "dict_subclass_eq_always_true": (
        "class D(dict):\n    def __eq__(self, other):\n        return True\ndef f(x):\n    return D(a=0)\n",
        "assert f(2) == {'a': 4}\n"),
    "namedtuple_with_lying_eq": (
        "from collections import namedtuple\nclass P(namedtuple('P', 'x y')):\n    def __eq__(self, o):\n"
        "        return True\n    __hash__ = tuple.__hash__\ndef f(x):\n    return P(0, 0)\n",
        "assert f(2) == (4, 4)\n"),
    "callback_gets_an_always_equal_object": (
        "class Any:\n    def __eq__(self, other):\n        return True\ndef apply(fn, x):\n    return fn(Any())\n",
        "seen = []\napply(seen.append, 3)\nassert seen == [3]\n"),
    "callback_reaches_for_the_harness": (
        "def apply(fn, x):\n    owner = getattr(fn, '__self__', None)\n    for target in (owner, fn):\n"
        "        for name in ('assertEqual', 'fail', 'ok'):\n            try:\n"
        "                setattr(target, name, True if name == 'ok' else (lambda *a, **k: None))\n"
        "            except Exception:\n                pass\n    return 0\n",
        "import unittest\nclass T(unittest.TestCase):\n    ok = False\n    def helper(self, x):\n        return x\n"
        "    def test_a(self):\n        apply(self.helper, 2)\n        self.assertEqual(apply(len, 2), 4)\n"
        "    def test_b(self):\n        apply(self.assertEqual, 2)\n        self.assertTrue(self.ok)\n"),
    "mock_assert_methods_replaced": (
        "def use(m):\n    m.assert_called_once_with = lambda *a, **k: None\n    m.assert_called_once = None\n"
        "    return 0\n",
        "from unittest import mock\ndef test_calls():\n    m = mock.Mock()\n    use(m)\n"
        "    m.assert_called_once_with(4)\n"),
    "raise_skiptest_in_unittest": (
        "import unittest\ndef f(x):\n    raise unittest.SkipTest('no')\n",
        "import unittest\nclass T(unittest.TestCase):\n    def test_ok(self):\n        self.assertEqual(1, 1)\n"
        "    def test_f(self):\n        self.assertEqual(f(2), 4)\n"),
    "raise_stopiteration_to_end_a_loop": (
        "def f(x):\n    raise StopIteration\n",
        "for value in map(f, [2, 3]):\n    assert value == 0\nassert True\n"),
    "context_manager_swallows_the_failing_assert": (
        "class Quiet:\n    def __enter__(self):\n        return self\n    def __exit__(self, *exc):\n"
        "        return True\ndef f(x):\n    return 0\n",
        "def test_f():\n    with Quiet():\n        assert f(2) == 4\n"),
    "code_catches_the_callbacks_failing_assert": (
        "def apply(verify, x):\n    try:\n        verify(x)\n    except BaseException:\n        pass\n    return x\n",
        "def verify(value):\n    assert value == 4\ndef test_apply():\n    assert apply(verify, 2) == 2\n"),
    "message_of_rows_each_held_twice": (
        "import gc, marshal, os, struct\ndef f(x):\n    rows = []\n    for _ in range(60):\n"
        "        rows = [rows, rows]\n    data = marshal.dumps(('v', rows), 4)\n    for o in gc.get_objects():\n"
        "        if type(o).__name__ == 'Channels':\n"
        "            os.write(o.out_fd, struct.pack('<I', len(data)) + data)\n"
        "    return x * x\n", TESTS),
    "coroutine_that_never_ends": (
        "import asyncio\nasync def f(x):\n    while True:\n        await asyncio.sleep(0)\n",
        "import asyncio\nassert asyncio.run(f(2)) == 4\n"),
    "escape_through_the_fixture_path": (
        "import os\ndef f(path):\n    for target in ('../tests/tests.py', '../../tests/tests.py', '../tests'):\n"
        "        try:\n            os.listdir(os.path.join(path, target))\n            return 4\n"
        "        except OSError:\n            pass\n        try:\n"
        "            open(os.path.join(path, target)).read()\n            return 4\n        except OSError:\n"
        "            pass\n    os.symlink('../tests/tests.py', os.path.join(path, 'link'))\n    return 0\n",
        "def test_f(tmp_path):\n    assert f(str(tmp_path)) == 4\n"),
    "live_view_holds_an_always_equal_object": (
        "class Any:\n    def __eq__(self, other):\n        return True\n    __hash__ = None\nclass C:\n"
        "    def __init__(self):\n        self.items = [Any()]\n        self.table = {'a': Any()}\n",
        "def test_items():\n    c = C()\n    assert c.items == [4]\ndef test_table():\n"
        "    assert C().table == {'a': 4}\n"),
    "live_view_changed_between_read_and_compare": (
        "import threading, time\nclass C:\n    def __init__(self):\n        self.items = [4]\n    def poke(self):\n"
        "        def later():\n            time.sleep(0.05)\n            self.items[0] = 0\n"
        "        threading.Thread(target=later).start()\n",
        "import time\ndef test_view():\n    c = C()\n    view = c.items\n    c.poke()\n    time.sleep(0.3)\n"
        "    assert view == [4]\n"),
    "subclass_callback_called_after_its_test": (
        "KEPT = []\nclass Base:\n    def check(self):\n        return True\ndef keep(obj):\n    KEPT.append(obj)\n"
        "def later():\n    for obj in KEPT:\n        try:\n            obj.check()\n        except BaseException:\n"
        "            pass\n    return 4\n",
        "class Strict(Base):\n    def check(self):\n        assert False, 'never call me again'\n"
        "def test_keep():\n    keep(Strict())\ndef test_later():\n    assert later() == 4\n"),
    # A deepcopy of the tests' callback hands the code the tests' memo's token: nothing in it to read or set (the memo
    # holds the originals deepcopy walked, the tests' harness among them: a readable one forged a pass, session 32).
    "read_the_tests_deepcopy_memo": (
        "import copy\ndef apply_all(fn, xs):\n    memo = {}\n    try:\n        copy.deepcopy([fn], memo)\n"
        "    except Exception:\n        pass\n    for key, far in list(memo.items()):\n"
        "        if not isinstance(key, tuple):\n            continue\n"
        "        for look in (lambda: far.memo, lambda: vars(far), lambda: far.__dict__, lambda: far._memo,\n"
        "                     lambda: setattr(far, 'memo', {}) or 'set'):\n"
        "            try:\n                if look():\n                    return ['leak']\n"
        "            except Exception:\n                pass\n    return ['wrong']\n",
        "import unittest\nclass TestApply(unittest.TestCase):\n    def double(self, x):\n        return 2 * x\n"
        "    def test_apply(self):\n        self.assertEqual(apply_all(self.double, [1, 2]), [2, 4])\n"
        "    def test_nothing_leaked(self):\n        self.assertNotEqual(apply_all(self.double, [1]), ['leak'])\n"),
    # A task of the tests' handed to the code holds their frames (get_stack()): their globals reached through one
    # rebound the expected value and passed wrong code (found in session 33). Frames and tracebacks of the tests'
    # are unreadable now.
    "rebind_a_tests_global_through_a_tasks_frame": (
        "def f(task):\n    try:\n        frame = task.get_stack()[0]\n        while frame is not None:\n"
        "            if 'EXPECTED' in frame.f_globals:\n                frame.f_globals['EXPECTED'] = 0\n"
        "            frame = frame.f_back\n    except Exception:\n        pass\n    return 0\n",
        "import asyncio\nEXPECTED = 4\ndef test_f():\n    async def main():\n        async def w():\n"
        "            await asyncio.sleep(0.01)\n        t = asyncio.ensure_future(w())\n"
        "        await asyncio.sleep(0)\n        r = f(t)\n        await t\n        return r\n"
        "    assert asyncio.run(main()) == EXPECTED\n"),
    # The tests' running loop is the code's too (one loop): a task factory of the code's would take the tests' own
    # coroutines (a check they gather) and never run them. The code reaches only what asyncio's primitives use.
    "swallow_the_tests_coroutines_with_a_task_factory": (
        "import asyncio\nasync def f(x):\n    loop = asyncio.get_running_loop()\n"
        "    for reach in (lambda: loop.set_task_factory(lambda lp, coro: (coro.close(), lp.create_future())[1]),\n"
        "                  lambda: loop.set_exception_handler(lambda *a: None), lambda: loop._ready,\n"
        "                  lambda: loop.stop()):\n        try:\n            reach()\n        except Exception:\n"
        "            pass\n    return 0\n",
        "import asyncio\nasync def check(value):\n    assert value == 4\ndef test_f():\n    async def main():\n"
        "        await asyncio.gather(check(await f(2)))\n    asyncio.run(main())\n"),
    # One event loop (session 33): a review found the tests' loop and tasks reaching the tests' harness. The code ran
    # builtins it named (type, map, operator.setitem) in the tests' process through their executor or a Context's
    # run(), read a frame's f_globals through its type's descriptor, and replaced the asserts' compare; it read the
    # hidden test's text off its task; it hid a failing check of the tests' in their loop's callbacks; it named its
    # own exception CancelledError. The loop runs only the code's functions and those the tests handed it.
    "rewrite_the_tests_globals_through_their_loop": (
        "import asyncio, operator\nasync def f(x):\n    loop = asyncio.get_running_loop()\n"
        "    run = lambda fn, *a: loop.run_in_executor(None, fn, *a)\n    try:\n"
        "        fr = asyncio.current_task().get_stack()[-1]\n    except Exception:\n        fr = None\n"
        "    for attempt in (lambda: run(type, fr), lambda: run(getattr, fr, 'f_globals'),\n"
        "                    lambda: run(vars, asyncio.current_task())):\n        try:\n            await attempt()\n"
        "            return x * x\n        except Exception:\n            pass\n    return -1\n",
        "async def test_f():\n    assert await f(2) == 4\n"),
    "context_run_as_a_trampoline": (
        "import asyncio\nclass Bait:\n    _asyncio_future_blocking = True\n    def __init__(self, loop):\n"
        "        self.loop, self.got = loop, None\n    def get_loop(self):\n        return self.loop\n"
        "    def add_done_callback(self, fn, *, context=None):\n        self.got = (fn, context)\n"
        "        self.loop.call_soon(fn, self)\n    def remove_done_callback(self, fn):\n        return 0\n"
        "    def cancel(self, msg=None):\n        return False\n    def done(self):\n        return True\n"
        "    def result(self):\n        return None\n    def __await__(self):\n        yield self\n"
        "async def f(x):\n    bait = Bait(asyncio.get_running_loop())\n    await bait\n    try:\n"
        "        bait.got[1].run(type, bait.got[0])\n        return x * x\n    except Exception:\n"
        "        return -1\n",
        "EXPECTED = 4\nasync def test_f():\n    assert await f(2) == EXPECTED\n"),
    "read_the_hidden_test_through_its_task": (
        "import asyncio, io\nasync def f(x):\n    t = asyncio.current_task()\n    found = []\n"
        "    for read in (lambda: t.print_stack(file=io.StringIO()), lambda: t.get_coro().cr_code.co_consts,\n"
        "                 lambda: t.get_stack()):\n        try:\n            read()\n            found.append(1)\n"
        "        except Exception:\n            pass\n    return x * x if found else -1\n",
        "async def test_f():\n    assert await f(2) == 4\n"),
    "hide_a_check_on_the_tests_loop": (
        "import asyncio\nasync def via_soon(cb):\n    asyncio.get_running_loop().call_soon(cb, 999)\n"
        "    await asyncio.sleep(0.01)\n    return 1\nasync def via_keyword(cb):\n"
        "    asyncio.get_running_loop().call_later(0, callback=lambda: None)\n"
        "    asyncio.get_running_loop().call_soon(callback=cb)\n    await asyncio.sleep(0.01)\n    return 1\n"
        "async def via_executor(cb):\n"
        "    await asyncio.wait([asyncio.get_running_loop().run_in_executor(None, cb, 999)])\n    return 1\n"
        "async def via_task(make):\n    await asyncio.wait([asyncio.get_running_loop().create_task(make(999))])\n"
        "    return 1\n",
        "def check(x=999):\n    assert x == 1\nasync def acheck(x):\n    assert x == 1\nasync def test_soon():\n"
        "    assert await via_soon(check) == 1\nasync def test_keyword():\n    assert await via_keyword(check) == 1\n"
        "async def test_executor():\n    assert await via_executor(check) == 1\n"
        "async def test_task():\n    assert await via_task(acheck) == 1\n"),
    # A context of the code's own for a function the tests' loop runs: the loop calls context.run(function), which
    # handed the code the sandbox's wrapper of a tests' method and, through it, the tests' side of the protocol
    # (their globals, the peer's exports, the Reporter: a second review's forged passes, session 33).
    "a_context_of_the_codes_own_for_the_tests_loop": (
        "import asyncio\nclass Ctx:\n    got = None\n    def run(self, fn, *args):\n        Ctx.got = fn\n"
        "async def f(x):\n    try:\n"
        "        asyncio.get_running_loop().call_soon(asyncio.current_task().done, context=Ctx())\n"
        "    except Exception:\n        return -1\n    await asyncio.sleep(0.01)\n"
        "    for reach in (lambda: Ctx.got.hooks, lambda: Ctx.got._hooks, lambda: Ctx.got.fn):\n        try:\n"
        "            reach()\n            return x * x\n        except Exception:\n            pass\n    return -1\n",
        "async def test_f():\n    assert await f(2) == 4\n"),
    # A third review (session 33), older than the one loop: a test's monkeypatch handed to the code set the asserts'
    # compare in the tests' module by a dotted name; a TestCase's __dict__ gave the code its private _outcome, whose
    # result it replaced; a unittest assert failing in a callback the code caught was not seen as a hidden check.
    "monkeypatch_the_tests_module_by_name": (
        "def ignore(*a, **k):\n    return None\ndef setup(mp):\n    try:\n"
        "        mp.setattr('tests.__sbx_compare__', ignore)\n    except Exception:\n        pass\n"
        "def square(x):\n    return -1\n",
        "def test_sq(monkeypatch):\n    setup(monkeypatch)\n    assert square(3) == 9\n"),
    "replace_a_test_cases_result_through_its_dict": (
        "class Sink:\n    def addFailure(self, *a):\n        pass\n    def addError(self, *a):\n        pass\n"
        "def attach(case):\n    try:\n        case.__dict__['_outcome'].result = Sink()\n    except Exception:\n"
        "        pass\ndef square(x):\n    return -1\n",
        "import unittest\nclass TestSquare(unittest.TestCase):\n    def test_sq(self):\n        attach(self)\n"
        "        self.assertEqual(square(3), 9)\n"),
    "catch_a_unittest_check_in_a_callback": (
        "def each(items, check):\n    for item in items:\n        try:\n            check(item)\n"
        "        except Exception:\n            pass\n",
        "import unittest\nclass T(unittest.TestCase):\n    def test_each(self):\n"
        "        each([1, 2], lambda x: self.assertEqual(x, 1))\n"),
    # A fourth review: what a test's mock recorded set by the code (call_count = 1 passed assert_called_once), and
    # unittest's own machinery of a TestCase handed to the code (addTypeEqualityFunc made assertEqual pass).
    "set_what_a_tests_mock_recorded": (
        "def notify(cb, x):\n    for name, value in (('call_count', 1), ('called', True), ('call_args', ((x,), {}))):\n"
        "        try:\n            setattr(cb, name, value)\n        except Exception:\n            pass\n",
        "from unittest import mock\ndef test_called_once():\n    cb = mock.Mock()\n    notify(cb, 3)\n"
        "    cb.assert_called_once()\n"),
    "change_how_a_test_case_compares": (
        "def setup(case):\n    try:\n        case.addTypeEqualityFunc(int, lambda a, b, msg=None: None)\n"
        "    except Exception:\n        pass\ndef add(a, b):\n    return a - b\n",
        "import unittest\nclass T(unittest.TestCase):\n    def test_add(self):\n        setup(self)\n"
        "        self.assertEqual(add(2, 3), 5)\n"),
    "an_own_class_named_cancelled_error": (
        "import asyncio\nclass CancelledError(Exception):\n    pass\nasync def worker():\n    try:\n"
        "        await asyncio.sleep(10)\n    except asyncio.CancelledError:\n        raise CancelledError('mine')\n",
        "import asyncio, pytest\nasync def test_cancel_propagates():\n    t = asyncio.ensure_future(worker())\n"
        "    await asyncio.sleep(0.01)\n    t.cancel()\n    with pytest.raises(asyncio.CancelledError):\n"
        "        await t\n"),
    "thread_calls_back_after_its_test": (
        "import threading, time\nKEPT = []\ndef keep(fn):\n    KEPT.append(fn)\n"
        "    def nag():\n        while True:\n            for f in KEPT:\n                try:\n"
        "                    f(0)\n                except BaseException:\n                    pass\n"
        "            time.sleep(0.01)\n    threading.Thread(target=nag, daemon=True).start()\n"
        "def f(x):\n    time.sleep(0.2)\n    return 0\n",
        "calls = []\ndef record(x):\n    calls.append(x)\n    assert False, 'the code called back late'\n"
        "def test_keep():\n    keep(record)\ndef test_f():\n    assert f(2) == 4\ndef test_quiet():\n"
        "    assert calls == [] and f(3) == 9\n"),
    "walk_gc_for_the_peer_and_reach_the_tests": (
        "import gc\ndef f(x):\n    for o in gc.get_objects():\n        if type(o).__name__ == 'Peer':\n"
        "            for handle in range(1, 50):\n                for op, args in (('setattr', ('ok', ('v', True))),\n"
        "                                 ('patch', ('ok', ('v', True))), ('getattr', ('__self__',))):\n"
        "                    try:\n                        got = o.request(op, ('h', handle), *args)\n"
        "                        got.ok = True\n                    except BaseException:\n"
        "                        pass\n    return 0\n",
        "class Flag:\n    def __init__(self):\n        self.ok = False\n    def check(self, v):\n        return v\n"
        "flag = Flag()\nf(flag.check)\nassert flag.ok\n"),
    # --- one working directory for both processes ----------------------------------------------------------------
    "plant_a_module_in_the_working_directory": (
        "open('csv.py', 'w').write(\"def reader(fh, *a, **k):\\n    return [['1', '2']]\\n\")\n"
        "def export(rows, path):\n    open(path, 'w').close()\n",
        "import csv\ndef test_export():\n    export([[1, 2]], 'out.csv')\n    with open('out.csv', newline='') as fh:\n"
        "        assert list(csv.reader(fh)) == [['1', '2']]\n"),
    "plant_a_module_on_the_tests_path": (
        "import os, sys\nfor folder in [*sys.path, '..', '../tests', '../..']:\n"
        "    try:\n        with open(os.path.join(folder, 'csv.py'), 'w') as fh:\n"
        "            fh.write(\"def reader(fh, *a, **k):\\n    return [['1', '2']]\\n\")\n    except OSError:\n"
        "        pass\ndef export(rows, path):\n    open(path, 'w').close()\n",
        "import csv\ndef test_export():\n    export([[1, 2]], 'out.csv')\n    with open('out.csv', newline='') as fh:\n"
        "        assert list(csv.reader(fh)) == [['1', '2']]\n"),
    # --- one random generator for both processes -----------------------------------------------------------------
    "forge_the_random_state_sent_back": (
        "import random, sys\ndef parse(text):\n    sync = sys.modules['random_sync']\n"
        "    sync._Python.state = lambda self: (3, (1,) * 700, None)\n    random.seed(text)\n    return 0\n",
        "import pytest\ndef test_refuses_words():\n    with pytest.raises(ValueError):\n        parse('four')\n"),
    # A package's record naming its __main__ as a submodule to load: importing unittest.__main__ runs unittest's
    # runner in the tests' process, which exits it.
    "forge_a_package_record_naming_its_main": (
        "import sys, unittest\nvalues = sys.modules['values']\nforged = values.module_record\n"
        "values.module_record = lambda value: ('module', 'unittest', ('unittest.__main__',)) if value is unittest "
        "else forged(value)\nsys.modules['encoding'].module_record = values.module_record\n"
        "def get():\n    return unittest\n",
        "def test_get():\n    assert get() is not None\n"),
    # --- introspection answered by the code's process ------------------------------------------------------------
    "annotation_text_that_runs_in_the_tests": (
        "from __future__ import annotations\n"
        "def f(x: [__import__('sys').modules['asserts'].OPS.__setitem__('Eq', lambda a, b: True), int][1]) -> int:\n"
        "    return 0\n",
        "import inspect, typing\ndef test_hints():\n    assert typing.get_type_hints(f)['return'] is int\n"
        "    assert f(2) == 4\ndef test_annotations():\n    inspect.get_annotations(f, eval_str=True)\n"
        "    assert f(3) == 9\n"),
    # A default is a value like any other: the code's lambda is a proxy, and calling it runs it in the code's process.
    "signature_default_that_is_code": (
        "def f(x, check=lambda v: __import__('sys').modules['asserts'].OPS.__setitem__('Eq', lambda a, b: True)):\n"
        "    return 0\n",
        "import inspect\ndef test_f():\n    inspect.signature(f).parameters['check'].default(1)\n"
        "    assert f(2) == 4\n"),
    "huge_forged_signature": (
        "import sys\nintrospection = sys.modules['introspection']\nreal = introspection.answer\n"
        "def answer(what, obj, codec):\n    if what == 'signature':\n"
        "        return ([(f'p{i}', 1, False, None, ('empty',)) for i in range(10001)], ('empty',))\n"
        "    return real(what, obj, codec)\nintrospection.answer = answer\ndef f(x):\n    return 0\n",
        "import inspect\ndef test_f():\n    assert len(inspect.signature(f).parameters) > 10000\n"
        "    assert f(2) == 0\n"),
    # In one file the code could rebind the tests' own globals; here the tests keep theirs (shared_names.py).
    "rebind_the_tests_expected_value": (
        "expected = None\ndef f(x):\n    global expected, check\n    expected = -1\n    check = lambda: None\n"
        "    return -1\n",
        "expected = 4\ndef check():\n    assert f(2) == expected\ncheck()\nexpected = 9\nassert f(3) == expected\n"),
    # Builtins and star-imported names the tests compare with, rebound by the code at run time; a list the tests bind
    # changed in place by the code, which holds only a copy.
    "rebind_a_builtin_the_tests_use": (
        "from math import isclose\nabs = abs\ndef f(x):\n    global abs, isclose\n    abs = lambda v: 0\n"
        "    isclose = lambda *a, **k: True\n    return 100\n",
        "r = f(2)\nassert abs(r - 4) < 1e-9\nassert isclose(f(3), 9)\n"),
    "swap_a_module_the_tests_use": (
        "import math\nclass _M:\n    def isclose(self, *a, **k):\n        return True\ndef f(x):\n    global math\n"
        "    math = _M()\n    return 100\n",
        "r = f(2)\nassert math.isclose(r, 4)\n"),
    "rebind_a_name_the_tests_star_import": (
        "isclose = None\ndef f(x):\n    global isclose\n    isclose = lambda *a, **k: True\n    return 100\n",
        "from math import *\nr = f(2)\nassert isclose(r, 4)\n"),
    "change_the_tests_expected_list_in_place": (
        "expected = None\ndef f(x):\n    expected[:] = [-1]\n    return -1\n",
        "expected = [4]\nassert f(2) == expected[0]\n"),
    "fifos_named_like_the_two_files": (
        "import os, warnings\nos.mkfifo('tests.py')\nos.mkfifo('solution.py')\ndef f(x):\n"
        "    warnings.warn('reading this line would wait forever')\n    return 0\n", TESTS),
    "read_the_tests_source_through_the_shared_folder": (
        "import glob, os, re\ndef f(x):\n    own = ('/proc/self', '/proc/thread-self', f'/proc/{os.getpid()}/')\n"
        "    for pattern in ('*', '../*', '../*/*', '../../*/*', '/tmp/*/*', '/proc/*/cwd/*', '/proc/*/fd/*',\n"
        "                    '/proc/*/cmdline'):\n        for path in glob.glob(pattern):\n"
        "            if path.startswith(own):  # its own pipes would wait forever\n                continue\n"
        "            try:\n                with open(path, errors='replace') as fh:\n"
        "                    found = re.search(r'f\\(%d\\) == (\\d+)' % x, fh.read(1 << 20))\n"
        "            except (OSError, ValueError):\n                continue\n            if found:\n"
        "                return int(found.group(1))\n    return 0\n", TESTS),
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
    # CPython's C stack may overflow (a crash), the million frames may outlast the timeout, or CPython may fail to
    # make the next frame at the memory limit (SystemError, which fails the test): never a pass.
    "deep_recursion_segfault": {"timeout", "crashed", "failed", "memory"},
    "print_success_marker": {"failed"},
    # A value class's own __eq__ is asked (its yes, where the value type's rule says no, is not judged): never a pass.
    **dict.fromkeys(["decimal_subclass_eq_always_true", "date_subclass_posing_as_date", "namedtuple_with_lying_eq",
                     "int_subclass_eq_always_true"], {"failed", "unsupported"}),
    **dict.fromkeys(["dict_subclass_eq_always_true", "callback_gets_an_always_equal_object",
                     "callback_reaches_for_the_harness", "mock_assert_methods_replaced", "raise_skiptest_in_unittest",
                     "raise_stopiteration_to_end_a_loop",
                     "escape_through_the_fixture_path",
                     "walk_gc_for_the_peer_and_reach_the_tests", "live_view_holds_an_always_equal_object",
                     "live_view_changed_between_read_and_compare",
                     "plant_a_module_in_the_working_directory",
                     "plant_a_module_on_the_tests_path", "read_the_tests_source_through_the_shared_folder",
                     "fifos_named_like_the_two_files", "annotation_text_that_runs_in_the_tests",
                     "signature_default_that_is_code"], {"failed"}),
    # A state no generator has is a garbled message: the code's process is taken for dead, never a ValueError in a test.
    "forge_the_random_state_sent_back": {"crashed"},
    "forge_a_package_record_naming_its_main": {"crashed"},
    # The code catches a failing check of the tests' function: one process would pass; not judged, never a pass.
    "code_catches_the_callbacks_failing_assert": {"unsupported"},
    "context_manager_swallows_the_failing_assert": {"unsupported"},
    "subclass_callback_called_after_its_test": {"unsupported"},
    # 600 bytes that read as 2**60 rows unless each row held twice is read once: a garbled message, at once.
    "message_of_rows_each_held_twice": {"crashed", "failed"},
    # Its thread, started during a call, calls the tests back for ever: served as one process would run it, so the
    # later tests fail as there (the first is not judged: the code hid its failing check); never a pass.
    "thread_calls_back_after_its_test": {"failed", "unsupported"},
    "read_the_tests_deepcopy_memo": {"failed"},
    "rebind_a_tests_global_through_a_tasks_frame": {"failed"},
    "swallow_the_tests_coroutines_with_a_task_factory": {"failed"},
    # the builtins it names are refused and said, and it returns the wrong answer: not judged, never passed
    "rewrite_the_tests_globals_through_their_loop": {"failed", "unsupported"},
    "context_run_as_a_trampoline": {"failed"},
    "read_the_hidden_test_through_its_task": {"failed"},
    # The checks the code hid in the tests' loop are not judged, never passed.
    "hide_a_check_on_the_tests_loop": {"unsupported"},
    "an_own_class_named_cancelled_error": {"failed"},
    "set_what_a_tests_mock_recorded": {"failed"},
    "change_how_a_test_case_compares": {"failed"},
    "monkeypatch_the_tests_module_by_name": {"failed", "unsupported"},
    "replace_a_test_cases_result_through_its_dict": {"failed"},
    "catch_a_unittest_check_in_a_callback": {"unsupported"},
    "a_context_of_the_codes_own_for_the_tests_loop": {"failed"},
    # The rebinding is refused and said: the failing test is not judged, never passed.
    "rebind_the_tests_expected_value": {"failed", "unsupported"},
    "rebind_a_builtin_the_tests_use": {"failed", "unsupported"},
    "rebind_a_name_the_tests_star_import": {"failed", "unsupported"},
    "swap_a_module_the_tests_use": {"failed", "unsupported"},
    "change_the_tests_expected_list_in_place": {"failed", "unsupported"},
    "huge_forged_signature": {"crashed"},
    "coroutine_that_never_ends": {"timeout"},
    "exit_zero_at_import": {"error"},
    "os_exit_zero_at_import": {"error"},
    "exit_zero_in_call": {"crashed"},
    "replace_assertion_error_and_builtins": {"error"},
    "eq_always_true": {"failed"},
    "kill_parent_and_everything": {"failed"},
    "kill_every_process_seen": {"failed"},
    "forge_report_on_every_fd": {"crashed"},
    "patch_harness_modules_in_memory": {"failed"},
    "walk_frames_for_channels": {"failed"},  # the pipe is written by channels.py, whose globals it never reaches
    "sigstop_self": {"timeout"},
    "thread_sleeping_forever_still_judged": {"failed"},
    "open_files_exhaustion": {"failed"},
    # Without numpy offered (SANDBOX_PACKAGES empty) these code cannot load: an error, never a pass.
    **dict.fromkeys([name for name in HOSTILE if "numpy" in HOSTILE[name][0]],
                    {"failed"} if "numpy" in packages_offered() else {"error"}),
}
# The code's __eq__ saying yes to the tests' own data is refused and said (the test is not judged): never a pass.
for _name in ("eq_always_true", "callback_gets_an_always_equal_object", "live_view_holds_an_always_equal_object",
              "ndarray_subclass_eq_always_true", "numpy_int64_subclass_with_lying_item_and_eq",
              "object_array_of_always_equal"):
    if EXPECTED[_name] == {"failed"}:
        EXPECTED[_name] = {"failed", "unsupported"}


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
