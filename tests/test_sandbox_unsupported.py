"""What cannot behave in the sandbox as in one process gets a status of its own, `unsupported`, with the reason:
never a failed test of the code, never a pass, never a hang (sandbox/inside/unsupported.py)."""

from __future__ import annotations

import ast

import pytest

from sandbox import STATUSES, describe_tests, run_tests, unsupported_in
from sandbox import TestReport as Report
from sandbox.inside import unsupported

REGISTRY = ("class Node:\n    pass\nclass Registry:\n    def __init__(self):\n        self.items = {}\n"
            "    def add(self, obj):\n        self.items[id(obj)] = obj\n        return id(obj)\n"
            "    def find(self, key):\n        return self.items.get(key)\n")
THREADS = ("import threading\ndef run_all(callbacks):\n    results = []\n    def worker(cb):\n"
           "        results.append(cb())\n"
           "    threads = [threading.Thread(target=worker, args=(cb,)) for cb in callbacks]\n"
           "    for t in threads:\n        t.start()\n    for t in threads:\n        t.join()\n    return results\n")
POOL = ("from concurrent.futures import ThreadPoolExecutor\ndef run_all(callbacks):\n"
        "    with ThreadPoolExecutor(2) as pool:\n        return list(pool.map(lambda cb: cb(), callbacks))\n")
PROCESSES = ("import multiprocessing\nfrom multiprocessing import Pool\n"
             "from concurrent.futures import ProcessPoolExecutor\ndef double(x):\n    return 2 * x\n"
             "def pmap(f, xs):\n    with Pool(2) as pool:\n        return pool.map(double, xs)\n"
             "def through_a_queue(n):\n    q = multiprocessing.Queue()\n    q.put(n)\n    return q.get()\n"
             "def managed():\n    with multiprocessing.Manager() as m:\n        d = m.dict()\n        d['a'] = 1\n"
             "        return dict(d)\n"
             "def alone(n):\n    p = multiprocessing.Process(target=double, args=(n,))\n    p.start()\n"
             "    p.join()\n    return p.exitcode\n")
SHOUT = "import os\ndef shout(s):\n    os.write(1, (s + '\\n').encode())\n"


@pytest.mark.parametrize("code, tests, reason", [
    # id() of an object handed to the code, or compared with an id the code took: ids differ across the processes
    (REGISTRY, "def test_find():\n    reg = Registry()\n    n = Node()\n    reg.add(n)\n"
               "    assert reg.find(id(n)) is n\n", unsupported.ID_CROSSING),
    (REGISTRY, "reg = Registry()\nn = Node()\nassert reg.add(n) == id(n)\n", unsupported.ID_CROSSING),
    # a thread the code started calls a function of the tests after the code's call returned, while the test waits
    # on its own (noted only when the test failed: fetched)
    ("import threading\ndef later(cb, delay):\n    t = threading.Timer(delay, cb)\n    t.start()\n    return t\n",
     "import threading\ndef test_wait():\n    done = threading.Event()\n    later(done.set, 0.01)\n"
     "    assert done.wait(0.5)\n", unsupported.THREAD_CALLBACK),
    # multiprocessing's pools, queues, locks and managers: /dev/shm and sockets are no run's
    (PROCESSES, "assert pmap(double, [1, 2]) == [2, 4]\n", unsupported.PROCESS_POOLS),
    (PROCESSES.replace("Pool(2) as pool:\n        return pool.map(double, xs)",
                       "ProcessPoolExecutor(2) as pool:\n        return list(pool.map(double, xs))"),
     "import unittest\nclass T(unittest.TestCase):\n    def test_a(self):\n"
     "        self.assertEqual(pmap(double, [1, 2]), [2, 4])\n", unsupported.PROCESS_POOLS),
    (PROCESSES, "def test_queue():\n    assert through_a_queue(3) == 3\n", unsupported.PROCESS_POOLS),
    (PROCESSES, "def test_manager():\n    assert managed() == {'a': 1}\n", unsupported.PROCESS_POOLS),
    # more threads than a run may hold
    ("import threading, time\ndef run_many(n):\n    ts = [threading.Thread(target=time.sleep, args=(0.5,)) for i in "
     "range(n)]\n"
     "    for t in ts:\n        t.start()\n    for t in ts:\n        t.join()\n    return n\n",
     "assert run_many(40) == 40\n", unsupported.THREADS_BOUND),
    # a write below sys.stdout while the test captures with capfd
    (SHOUT, "def test_out(capfd):\n    shout('hi')\n    assert capfd.readouterr().out == 'hi\\n'\n",
     unsupported.FD_WRITE),
])
def test_what_cannot_behave_as_in_one_process_is_unsupported_with_the_reason(code, tests, reason):
    report = run_tests(code, tests)
    assert report.status == "unsupported", report.summary()
    assert report.unsupported == reason and report.error.endswith(reason)
    assert report.n_failed == 0 and report.n_unsupported == 1 and not report.passed
    assert report.tests[0].unsupported == reason and report.tests[0].describe().startswith("NOT JUDGED")


@pytest.mark.parametrize("code", [THREADS, POOL, POOL.replace("return list(pool.map(lambda cb: cb(), callbacks))",
                                                                  "return [f.result() for f in [pool.submit(cb) for "
                                                                  "cb in callbacks]]")])
def test_threads_the_code_starts_during_a_call_call_the_tests_back_as_in_one_process(code):
    # each on a channel of its own, served by a thread of the tests' process while the test waits for the call
    passing = ("def test_all():\n    assert sorted(run_all([lambda: 1, lambda: 2])) == [1, 2]\n"
               "import unittest\nclass T(unittest.TestCase):\n    def test_a(self):\n"
               "        self.assertEqual(sorted(run_all([lambda: 1, lambda: 2])), [1, 2])\n")
    report = run_tests(code, passing)
    assert report.status == "passed" and report.unsupported is None, report.summary()
    failing = run_tests(code, "def test_all():\n    assert sorted(run_all([lambda: 1, lambda: 2])) == [1, 3]\n")
    assert failing.status == "failed" and failing.unsupported is None, failing.summary()


def test_a_failure_of_the_code_beside_an_unsupported_test_is_still_a_failure_and_the_model_reads_it_first():
    tests = ("def test_all():\n    reg = Registry()\n    n = Node()\n    assert reg.add(n) == id(n)\n"
             "def test_empty():\n    assert Registry().find(1) == 0\n")
    report = run_tests(REGISTRY, tests)
    assert report.status == "failed" and report.unsupported == unsupported.ID_CROSSING
    assert (report.n_failed, report.n_unsupported) == (1, 1)
    summary = report.summary()
    assert summary.index("FAILED test_empty") < summary.index("NOT JUDGED test_all")


@pytest.mark.parametrize("code, tests", [
    ("def shout(s):\n    print(s)\n",
     "def test_out(capfd):\n    shout('hi')\n    assert capfd.readouterr().out == 'hi\\n'\n"),
    # capsys never captured a write below sys.stdout, in one process either: a plain failure, as pytest says
    (SHOUT, "def test_out(capsys):\n    shout('hi')\n    assert capsys.readouterr().out == 'hi\\n'\n"),
    # ids compared with ids: the tests hold one stand-in per object of the code, so `is` and id() agree
    (REGISTRY, "def test_same():\n    reg = Registry()\n    n = Node()\n    m = Node()\n    assert id(n) != id(m)\n"
               "    ids = [id(x) for x in (n, m)]\n    assert id(n) in ids\n"),
    # a process of multiprocessing that shares nothing runs as it would
    (PROCESSES, "assert alone(3) == 0\n"),
])
def test_what_behaves_as_in_one_process_is_judged_as_usual(code, tests):
    report = run_tests(code, tests)
    assert report.unsupported is None and not unsupported_in(tests), report.summary()
    assert report.status == ("failed" if "capsys" in tests else "passed"), report.summary()


def test_a_test_that_meets_a_limit_and_passes_anyway_passes():
    # the code's write below sys.stdout is not what the test checks
    code = "import os\ndef shout(s):\n    os.write(1, b'log\\n')\n    print(s)\n"
    report = run_tests(code, "def test_out(capfd):\n    shout('hi')\n    assert 'hi' in capfd.readouterr().out\n")
    assert report.status == "passed" and report.unsupported is None
    assert "log" in report.stdout  # passed on to the run's output, as before


def test_wrong_code_that_meets_a_limit_is_never_a_pass():
    report = run_tests(REGISTRY.replace("return self.items.get(key)", "return None"),
                       "def test_find():\n    reg = Registry()\n    n = Node()\n    reg.add(n)\n"
                       "    assert reg.find(id(n)) is n\n")
    assert report.status == "unsupported" and not report.passed


def test_the_sandboxs_code_raises_or_notes_it_and_the_code_cannot_make_it_a_pass():
    # what the code's process notes reaches the tests with its answer; the worst it can do is its own test's status
    code = ("import unsupported\ndef f():\n    unsupported.note('forged')\n    return 1\n")
    report = run_tests(code, "assert f() == 2\n")
    assert report.status == "unsupported" and report.unsupported == "forged" and not report.passed
    assert run_tests(code, "assert f() == 1\n").status == "passed"


def test_the_text_check_finds_ids_that_meet_the_code_and_leaves_the_tests_own_alone():
    tests = ("import pytest\n@pytest.fixture\ndef reg():\n    return Registry()\n"
             "def test_a(reg):\n    n = Node()\n    reg.add(n)\n    assert reg.find(id(n)) is n\n"
             "def test_b():\n    seen = set()\n    n = Node()\n    seen.add(id(n))\n    assert id(n) in seen\n"
             "class TestC:\n    def setup_method(self):\n        self.reg = Registry()\n"
             "    def test_c(self):\n        n = Node()\n        assert self.reg.add(n) == id(n)\n")
    assert [line.split(":")[0] for line in unsupported_in(tests)] == ["line 8", "line 19"]
    assert unsupported_in("id = 3\nassert f(id) == 3\n") == []  # the tests' own `id`
    assert unsupported_in("assert f(1 ==\n") == []  # does not parse: check_tests says so


def test_the_text_check_skips_the_walks_only_where_the_text_cannot_show_a_limit():
    # A limit's words missing from the text spare its walks (a second a file of EvalPlus's literal inputs); the
    # places found are those of the full walk, also where a name is written in wide letters, which Python reads as id.
    texts = ["reg = Registry()\nn = Node()\nassert reg.add(n) == id(n)\n",
             "reg = Registry()\nn = Node()\nassert reg.add(n) == \uff49\uff44(n)\n",
             "import numpy as np\nassert np.may_share_memory(grid(), grid())\n",
             "inputs = [[1, 2], [3]]\nassert [total(i) for i in inputs] == [3, 3]  # no id here: valid\n"]
    for text in texts:
        module = ast.parse(text)
        assert unsupported.limits_in(module, text) == unsupported.limits_in(module)
    assert [len(unsupported.limits_in(ast.parse(t), t)) for t in texts] == [1, 1, 1, 0]
    marked = [ast.dump(unsupported.mark_limits(ast.parse(t), t)) for t in texts]
    assert marked == [ast.dump(unsupported.mark_limits(ast.parse(t))) for t in texts]
    assert ["__sbx_limit__" in m for m in marked] == [True, True, True, False]


def test_memory_shared_with_the_codes_array_is_never_judged_whichever_way_it_answers():
    # always False here (no array of the code's shares memory with the tests'), so `assert not np.shares_memory(...)`
    # would pass code that returns a view where it must copy: the test stops unjudged, right or wrong code alike
    pytest.importorskip("numpy")
    code = ("import numpy as np\nclass Board:\n    def __init__(self):\n        self.grid = np.zeros(3)\n"
            "    def snapshot(self):\n        return self.grid{}\n")
    tests = ("import numpy as np\ndef test_copy():\n    b = Board()\n"
             "    assert not np.shares_memory(b.snapshot(), b.grid)\n"
             "def test_own():\n    a = np.ones(2)\n    assert np.shares_memory(a, a[1:])\n")
    assert [line.split(":")[0] for line in unsupported_in(tests)] == ["line 4"]  # the tests' own arrays are theirs
    for body in ("[:]", ".copy()"):
        report = run_tests(code.format(body), tests)
        assert report.status == "unsupported" and report.unsupported == unsupported.MEMORY_SHARED, report.summary()
        assert [t.passed for t in report.tests] == [False, True] and report.tests[0].unsupported


def test_a_containers_method_through_its_class_on_the_codes_container_is_not_judged_and_the_tests_own_are():
    # Before: TypeError ("descriptor 'sort' for 'list' objects doesn't apply to a 'list' object"), a failed test
    # where one process passes; a kept list reaches the tests as a live view, which list's own method refuses.
    code = ("class Inv:\n    def __init__(self):\n        self.log = [3, 1]\n        self.stock = {'a': 1}\n"
            "    def fresh(self):\n        return [2, 1]\n")
    tests = ("def test_kept():\n    inv = Inv()\n    list.sort(inv.log)\n    assert inv.log == [1, 3]\n"
             "def test_kept_dict():\n    assert dict.get(Inv().stock, 'a') == 1\n"
             "def test_own():\n    xs = [2, 1]\n    list.sort(xs)\n    assert dict.get({'a': 1}, 'a') == 1\n"
             "def test_fresh():\n    got = Inv().fresh()\n    list.sort(got)\n    assert got == [1, 2]\n")
    assert [line.split(":")[0] for line in unsupported_in(tests)] == ["line 3", "line 6", "line 13"]
    assert unsupported_in("list = [1]\ndef test_a():\n    assert list.count(Inv().log) == 0\n") == []
    report = run_tests(code, tests)
    assert report.status == "unsupported" and report.unsupported == unsupported.UNBOUND_METHOD, report.summary()
    assert [(t.passed, bool(t.unsupported)) for t in report.tests] == [(False, True), (False, True), (True, False),
                                                                       (True, False)]


WORDS = ("import sys\n\ndef main(argv=None):\n    args = sys.argv[1:] if argv is None else argv\n"
         "    print(len(args))\n    return 0\n\nif __name__ == '__main__':\n    sys.exit(main())\n")


def test_the_codes_file_run_as_a_program_is_not_judged_whichever_way_it_exits():
    # Before: the subprocess found no file (the code's is not in the tests' reach) and exited 2: a test of a wrong
    # usage's exit status passed, one of the output failed, where one process ran the script.
    tests = ("import subprocess, sys, pathlib\nimport solution\n"
             "def test_output():\n    out = subprocess.run([sys.executable, solution.__file__, 'a', 'b'],\n"
             "                         capture_output=True, text=True)\n    assert out.stdout == '2\\n'\n"
             "def test_status():\n    script = pathlib.Path(solution.__file__)\n"
             "    assert subprocess.run([sys.executable, str(script)]).returncode == 2\n"
             "def test_module():\n    assert subprocess.call(['python', '-m', 'solution']) == 0\n"
             "def test_shell():\n    import os\n    assert os.system('python3 -m solution x') == 0\n"
             "def test_other_program():\n    out = subprocess.run(['echo', 'hi'], capture_output=True, text=True)\n"
             "    assert main(out.stdout.split()) == 0\n")
    assert [line.split(":")[0] for line in unsupported_in(tests)] == ["line 4", "line 9", "line 11", "line 14"]
    report = run_tests(WORDS, tests)
    assert report.status == "unsupported" and report.unsupported == unsupported.PROGRAM_OF_THE_CODE, report.summary()
    assert [(t.passed, bool(t.unsupported)) for t in report.tests] == [(False, True)] * 4 + [(True, False)]
    assert unsupported_in("import subprocess\ndef test_a():\n    subprocess.run(['ls', 'data.py'])\n") == []


def test_the_codes_main_block_runs_in_its_process_through_runpy():
    # Before: AttributeError ('CodeModuleFinder' object has no attribute 'get_code'): runpy asked the tests' process
    # for the code to run; it runs again in the code's process, under the name asked, its module left as it was.
    tests = ("import runpy, sys, pytest\nimport solution\n"
             "def test_main_block(monkeypatch, capsys):\n    monkeypatch.setattr(sys, 'argv', ['words', 'a', 'b'])\n"
             "    with pytest.raises(SystemExit) as stop:\n        runpy.run_module('solution', run_name='__main__')\n"
             "    assert stop.value.code == 0 and capsys.readouterr().out == '2\\n'\n"
             "def test_by_path(capsys):\n    names = runpy.run_path(solution.__file__)\n"
             "    assert names['main'](['x']) == 0 and capsys.readouterr().out == '1\\n'\n"
             "    assert solution.__name__ == 'solution'\n")
    report = run_tests(WORDS, tests)
    assert report.passed, report.summary()
    wrong = WORDS.replace("sys.exit(main())", "sys.exit(main() + 1)")
    assert [t.passed for t in run_tests(wrong, tests).tests] == [False, True]


def test_a_limit_is_one_entry_any_developer_can_add():
    finds = [limit.finds for limit in unsupported.LIMITS]
    assert all(callable(f) and isinstance(f(ast.parse("x = 1\n")), list) for f in finds)
    assert "unsupported" in STATUSES


def test_reports_stored_before_the_status_existed_read_back_without_it():
    old = {"status": "failed", "tests": [{"name": "t", "passed": False}]}
    report = Report.from_dict(old)
    assert report.unsupported is None and report.tests[0].unsupported is None and report.n_failed == 1


def test_tests_importing_the_code_by_a_module_name_of_their_own_are_marked_the_same():
    tests = ("from registry import Node, Registry\ndef test_find():\n    reg = Registry()\n    n = Node()\n"
             "    reg.add(n)\n    assert reg.find(id(n)) is n\n")
    report = run_tests(REGISTRY, tests)
    assert report.status == "unsupported" and report.unsupported == unsupported.ID_CROSSING, report.summary()
    by_module = "import registry\nreg = registry.Registry()\nn = registry.Node()\nassert reg.add(n) == id(n)\n"
    assert run_tests(REGISTRY, by_module).status == "unsupported"


def test_describe_tests_says_before_any_run_what_will_not_be_judged():
    said = describe_tests("reg = Registry()\nn = Node()\nassert reg.add(n) == id(n)\n")
    assert said.startswith("1 assert, each reported on its own; not judged here (the sandbox cannot run it as one "
                           "process would): line 3: the test compares or hands over id()")


def test_a_stopiteration_of_the_codes_call_is_judged_where_a_raises_block_takes_it():
    # Before: a RuntimeError ("StopIteration was raised outside iteration"), so pytest.raises(StopIteration) around
    # a right answer failed. Raised as itself, it could end a loop of the tests' unseen: not judged then.
    code = "def first(items):\n    return next(iter(items))\n"
    tests = ("import pytest, unittest\n"
             "def test_raises():\n    with pytest.raises(StopIteration):\n        first([])\n"
             "def test_uncaught():\n    first([])\n"
             "def test_by_hand():\n    try:\n        first([])\n    except StopIteration:\n        pass\n"
             "def test_loop():\n    assert list(map(first, [[1], [], [2]])) == [1]\n"
             "class T(unittest.TestCase):\n    def test_u(self):\n        with self.assertRaises(StopIteration):\n"
             "            first([])\n")
    report = run_tests(code, tests)
    assert [(t.name, t.passed, t.unsupported) for t in report.tests] == [
        ("test_raises", True, None), ("test_uncaught", False, None),
        ("test_by_hand", False, unsupported.STOP_OUT_OF_CALL), ("test_loop", False, unsupported.STOP_OUT_OF_CALL),
        ("T::test_u", True, None)], report.summary()
