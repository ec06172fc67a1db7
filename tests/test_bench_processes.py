"""Bench runs on the processes backend (solver processes of this machine, spawned, with scripted models): the same
rows as threads, a process killed mid-run, the last one killed, a model outage in one, stop, a driver killed with
SIGKILL, and the run's row and options."""

from __future__ import annotations

import os
import signal
import time
from pathlib import Path

import pytest

from agent import Search
from backend_runs import EIGHT, assert_a_dead_endpoint_is_named, assert_each_task_once, assert_same_rows, start_driver
from bench.__main__ import main as bench_cli
from bench.datasets.humaneval import load_problems
from bench.reports.words import backend_words
from bench.runs import store
from bench.runs.backends import local_cores
from bench.runs.config import RunConfig
from bench.runs.lifecycle import create_run, resume_run, start_run, stop_run
from fakes import FirstSolverDownRecipe, ScriptedRecipe
from polling import wait_for

PROBLEMS = {p["task_id"]: p for p in load_problems()}
SLOW = ScriptedRecipe(right=frozenset(PROBLEMS), delay=1.0)  # a task long enough to be killed or stopped in


def _config(**changes) -> RunConfig:
    return RunConfig(**{"tasks": "0-7", "search": Search(budget=3, strategy="repair"), "backend": "processes",
                               "parallel": 2, **changes})


def _descendants(pid: int) -> set[int]:
    """Every live process below pid (its solver processes and their sandbox workers), from /proc."""
    parents = {}
    for entry in Path("/proc").iterdir():
        try:
            stat = (entry / "stat").read_text()
        except (OSError, ValueError):
            continue
        fields = stat.rsplit(")", 1)[1].split()  # after the command name, which may hold spaces
        if entry.name.isdigit() and fields[0] != "Z":
            parents.setdefault(int(fields[1]), []).append(int(entry.name))
    found, frontier = set(), [pid]
    while frontier:
        children = parents.get(frontier.pop(), [])
        found.update(children)
        frontier.extend(children)
    return found


def _alive(pids: set[int]) -> set[int]:
    alive = set()
    for pid in pids:
        try:
            if Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0] != "Z":
                alive.add(pid)
        except OSError:
            pass
    return alive


def _solver_pids(run_id: str) -> list[int]:
    import multiprocessing

    return [p.pid for p in multiprocessing.active_children() if p.name.startswith(f"bench-{run_id}-")]


def _ended(db_path: Path, run_id: str) -> bool:
    return store.get_run(store.open_store(db_path), run_id).status in ("finished", "failed", "stopped")


def test_a_processes_run_gives_the_threads_rows(tmp_path):
    db_path = tmp_path / "bench.sqlite"
    threads = start_run(_config(backend="threads"), db_path, solver=EIGHT(), background=False)
    processes = start_run(_config(), db_path, recipe=EIGHT, background=False)
    db = store.open_store(db_path)
    run = store.get_run(db, processes)
    assert run.status == "finished", run.error
    assert (run.backend, run.parallel, run.model, run.notes) == ("processes", 2, "scripted", None)
    assert backend_words(run) == "processes x2"
    ours = assert_same_rows(db, processes, threads)
    assert [r["task_id"] for r in ours] == [f"HumanEval/{i}" for i in range(8)]
    assert {r["worker"] for r in ours} <= {"process-1", "process-2"}
    assert _solver_pids(processes) == []  # ended with the run


@pytest.mark.parametrize("count", [2, 1], ids=["the-other-carries-on", "none-left"])
def test_a_process_killed_mid_task_is_a_lost_solver_and_its_task_is_done_again(tmp_path, count):
    db_path = tmp_path / "bench.sqlite"
    run_id = start_run(_config(tasks="0-5", parallel=count), db_path, recipe=SLOW)
    db = store.open_store(db_path)
    wait_for(lambda: len(store.finished_task_ids(db, run_id)) >= 1 and len(_solver_pids(run_id)) == count,
             timeout=300)
    assert len(store.finished_task_ids(db, run_id)) < 6, "the run ended before a process could be killed"
    os.kill(_solver_pids(run_id)[0], signal.SIGKILL)  # in the middle of a task: each takes at least 1 s
    wait_for(lambda: _ended(db_path, run_id), timeout=300)
    run = store.get_run(db, run_id)
    assert "the process died" in run.notes and "killed by SIGKILL" in run.notes, run.notes
    if count == 2:
        assert run.status == "finished", run.error
    else:
        assert run.status == "failed" and run.error.startswith("no solver is left to run the remaining tasks: "
                                                                     "process-1: the process died on HumanEval/")
        resume_run(run_id, db_path, recipe=SLOW, background=False)
        assert store.get_run(db, run_id).status == "finished"
    assert_each_task_once(db, run_id, 6)


def test_a_process_whose_model_stops_answering_hands_its_task_to_the_other(tmp_path):
    db_path = tmp_path / "bench.sqlite"
    recipe = FirstSolverDownRecipe(str(tmp_path / "down"), ScriptedRecipe(right=frozenset(PROBLEMS)))
    # The driver's own solver (it checks the model before the run) is given, so the first made is a process's.
    run_id = start_run(_config(tasks="0-3"), db_path, solver=ScriptedRecipe()(), recipe=recipe,
                       background=False)
    db = store.open_store(db_path)
    run = store.get_run(db, run_id)
    assert run.status == "finished", run.error
    assert "stopped answering" in run.notes and len(run.notes.splitlines()) == 1
    assert len({r["worker"] for r in store.results(db, run_id)}) == 1  # the other process did every task
    assert_each_task_once(db, run_id, 4)


def test_stop_ends_every_process_and_its_sandbox_and_resume_finishes(tmp_path):
    db_path = tmp_path / "bench.sqlite"
    run_id = start_run(_config(), db_path, recipe=SLOW)
    db = store.open_store(db_path)
    wait_for(lambda: len(store.finished_task_ids(db, run_id)) >= 1 and len(_solver_pids(run_id)) == 2, timeout=300)
    below = {pid for solver in _solver_pids(run_id) for pid in {solver, *_descendants(solver)}}
    assert len(below) > 2  # the solver processes and their sandbox workers
    stop_run(run_id, db_path)
    wait_for(lambda: _ended(db_path, run_id), timeout=60)
    assert store.get_run(db, run_id).status == "stopped"
    # The processes are gone (joined) by now; a sandbox worker whose outer bwrap was killed leaves once it reads the
    # end of its stdin, a moment later.
    wait_for(lambda: not _alive(below), timeout=30)
    before = store.finished_task_ids(db, run_id)
    assert len(before) < 8
    resume_run(run_id, db_path, recipe=ScriptedRecipe(right=frozenset(PROBLEMS)), background=False)
    assert store.get_run(db, run_id).status == "finished"
    assert_each_task_once(db, run_id, 8)


def _serving(pid: int) -> set[int]:
    """The solver processes below pid that are past their start, in serve (it ignores SIGINT first thing);
    multiprocessing's resource tracker, which ignores SIGINT too, left out."""
    found = set()
    for child in _descendants(pid):
        try:
            if b"spawn_main" not in Path(f"/proc/{child}/cmdline").read_bytes():
                continue
            ignored = next(line for line in Path(f"/proc/{child}/status").read_text().splitlines()
                           if line.startswith("SigIgn:"))
        except (OSError, StopIteration):
            continue
        if int(ignored.split()[1], 16) & (1 << (signal.SIGINT - 1)):
            found.add(child)
    return found


@pytest.mark.parametrize("how", ["sigkill-to-the-driver", "ctrl-c"])
def test_a_driver_killed_or_interrupted_takes_its_processes_with_it_and_resumes(tmp_path, how):
    db_path = tmp_path / "bench.sqlite"
    # A minute a model call: a process that outlived its driver would still be in its first task when checked.
    proc = start_driver(db_path, 'tasks="0-5", backend="processes", parallel=2', "ScriptedRecipe(delay=60.0)")
    wait_for(lambda: proc.poll() is not None or len(_serving(proc.pid)) == 2, timeout=300)
    assert proc.poll() is None, proc.stderr.read().decode()
    time.sleep(1)  # past the request for SIGTERM on the driver's death, which follows at once
    below = _descendants(proc.pid)
    if how == "ctrl-c":
        os.killpg(proc.pid, signal.SIGINT)  # the terminal sends it to the whole group: the driver ends its processes
    else:
        os.kill(proc.pid, signal.SIGKILL)  # the driver alone: its processes must go by themselves
    proc.wait(timeout=60)
    wait_for(lambda: not _alive(below), timeout=45)  # each would otherwise be in its minute-long model call
    db = store.open_store(db_path)
    run_id = store.list_runs(db)[0].id
    assert store.get_run(db, run_id).state() == "interrupted"
    resume_run(run_id, db_path, recipe=ScriptedRecipe(), background=False)
    assert store.get_run(db, run_id).status == "finished"
    assert_each_task_once(db, run_id, 6)


def test_an_endpoint_that_does_not_answer_is_named_and_the_other_process_carries_on(tmp_path):
    assert_a_dead_endpoint_is_named(tmp_path / "bench.sqlite", backend="processes")  # one process an endpoint


def test_processes_default_to_one_per_core_and_threads_to_two(tmp_path):
    db_path = tmp_path / "bench.sqlite"
    for backend, expected in (("processes", local_cores()), ("threads", 2)):
        _, run_id = create_run(RunConfig(tasks="0", backend=backend), db_path)
        run = store.get_run(store.open_store(db_path), run_id)
        assert (run.backend, run.parallel) == (backend, expected)



def test_the_cli_takes_the_processes_backend_and_refuses_zero_of_them(tmp_path, capsys):
    code = bench_cli(["--db", str(tmp_path / "b.sqlite"), "run", "--tasks", "0", "--backend", "processes",
                      "--parallel", "0"])
    err = capsys.readouterr().err
    assert code == 2 and "parallel must be 1 or more" in err and len(err.strip().splitlines()) == 1, err
