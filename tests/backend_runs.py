"""What a bench run on any backend must give, checked the same way for each (tests/test_bench_ray.py,
tests/test_bench_processes.py): the threads backend's rows, each task once, a dead endpoint named; and a driver of
its own to kill."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from pathlib import Path

from bench.datasets.humaneval import load_problems
from bench.runs import store
from bench.runs.config import RunConfig
from bench.runs.lifecycle import start_run
from fakes import ScriptedRecipe
from ports import free_port

# Eight tasks: three right at once, two repaired (at the second and third attempt), three never right.
EIGHT = ScriptedRecipe(right=frozenset({"HumanEval/0", "HumanEval/2", "HumanEval/5"}),
                       fix_on_attempt=(("HumanEval/1", 2), ("HumanEval/3", 3)))
SAME = ("final_status", "visible_passed", "hidden_passed", "iterations", "answer_by_cap", "hidden_by_attempt",
        "visible_by_attempt", "visible_tests")
ATTEMPT = ("iteration", "code", "kind", "visible_status", "hidden_passed", "hidden_status")


def assert_same_rows(db, run_id: str, threads_run_id: str) -> list[dict]:
    """The run's results and attempts are the threads run's, task by task (times and solvers aside); returns the
    run's results."""
    ours, theirs = store.results(db, run_id), store.results(db, threads_run_id)
    assert [r["task_id"] for r in ours] == [r["task_id"] for r in theirs]
    for a, b in zip(ours, theirs):
        assert {k: a[k] for k in SAME} == {k: b[k] for k in SAME}, a["task_id"]
        assert [{k: x[k] for k in ATTEMPT} for x in store.attempts(db, run_id, a["task_id"])] == \
               [{k: x[k] for k in ATTEMPT} for x in store.attempts(db, threads_run_id, a["task_id"])]
    return ours


def assert_each_task_once(db, run_id: str, count: int) -> list[dict]:
    """The run holds HumanEval/0 .. count - 1, each task and each of its attempts once; returns its results."""
    results = store.results(db, run_id)
    assert sorted(r["task_id"] for r in results) == sorted(f"HumanEval/{i}" for i in range(count))
    pairs = [(a["task_id"], a["iteration"]) for a in store.attempts(db, run_id)]
    assert len(pairs) == len(set(pairs)) == sum(r["iterations"] for r in results)
    return results


def start_driver(db_path: Path, config: str, recipe: str) -> subprocess.Popen:
    """`start_run(RunConfig(<config>), db_path, recipe=<recipe>)` in a process of its own and its own process
    group (a terminal's foreground job, Ctrl-C handled even when this test runs as a shell's background job, which
    ignores it); recipe is an expression over fakes.ScriptedRecipe."""
    driver = textwrap.dedent(f"""
        import signal
        signal.signal(signal.SIGINT, signal.default_int_handler)
        from bench.runs.config import RunConfig
        from bench.runs.lifecycle import start_run
        from fakes import ScriptedRecipe
        start_run(RunConfig({config}), {str(db_path)!r}, recipe={recipe}, background=False)
    """)
    tests_dir = str(Path(__file__).resolve().parent)
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([tests_dir, str(Path(tests_dir).parent)])}
    return subprocess.Popen([sys.executable, "-c", driver], env=env, stdout=subprocess.DEVNULL,
                            stderr=subprocess.PIPE, start_new_session=True)


def assert_a_dead_endpoint_is_named(db_path: Path, **config) -> None:
    """A run of 4 tasks on two endpoints, the first of which does not answer: the run names it in its notes and
    the other endpoint's solver does every task."""
    dead, live = f"http://127.0.0.1:{free_port()}", "http://127.0.0.1:1/scripted"
    right = frozenset(p["task_id"] for p in load_problems())
    run_id = start_run(RunConfig(tasks="0-3", provider="ollama", endpoints=[dead, live], **config),
                       db_path, recipe=ScriptedRecipe(right=right, dead=(dead,)), background=False)
    run = store.get_run(store.open_store(db_path), run_id)
    assert run.status == "finished", run.error
    assert run.endpoints == [dead, live] and run.parallel == 2
    assert run.notes.startswith(dead) and f"Ollama is not reachable at {dead}" in run.notes
    assert {r["worker"].split("@")[0] for r in store.results(store.open_store(db_path), run_id)} == {live}
