"""The processes backend: solver processes on this machine, each with its own solver and model, without Ray.

N processes (one per core unless the run's parallel says otherwise; one per endpoint when it has endpoints) are
spawned, not forked: a fresh interpreter holds no copy of the driver's threads, locks, sandbox pool or loaded model.
Each makes its solver once through the run's recipe (the embedded model decoding on cores // N threads) and has its
own sandbox pool, as a Ray actor does. The driver hands a task to a process as it frees up, over that process's
pipe, and gets back what an actor returns (bench.runs.backends.solve_one): a TaskDone, or a SolverLost for a model that
stopped answering. A process that dies (killed, out of memory) is a lost solver too: the task it held goes back
to the others (bench.runs.backends.hand_back). Stop, Ctrl-C and the end of the run end every process; one whose driver
dies is sent SIGTERM by the kernel (PR_SET_PDEATHSIG). Like every backend, it never writes the store.
"""

from __future__ import annotations

import collections
import ctypes
import multiprocessing
import os
import pickle
import signal
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from multiprocessing.connection import Connection, wait
from multiprocessing.process import BaseProcess

from bench.datasets.task import Task
from bench.runs.backends import (
    TICK_S,
    Outcomes,
    SolverLost,
    SolverRecipe,
    TaskDone,
    default_parallel,
    hand_back,
    local_cores,
    make_solver_or_why,
    ready_report,
    solve_one,
)
from bench.runs.record import Run
from sandbox import close_default_pool

READY_TIMEOUT_S = 300.0  # a process imports the agent and makes its solver (the model loads at its first answer)
END_GRACE_S = 5.0  # a process told to end may take this long to close its sandbox pool before it is killed
CLOSE_S = 3.0  # what a process ending on SIGTERM gives its sandbox pool's close (within END_GRACE_S)
PR_SET_PDEATHSIG = 1  # linux/prctl.h


@dataclass(eq=False)  # one process is one solver: compared and hashed by identity
class _Solver:
    """One solver process as the driver sees it: its pipe, and the task it holds."""

    name: str
    process: BaseProcess
    conn: Connection
    ready: bool = False
    problem: Task | None = None


def run_processes(problems: list[Task], run: Run, recipe: SolverRecipe, should_stop: Callable[[], bool],
                  on_ready: Callable[[dict], None] | None = None) -> Outcomes:
    """Solve the problems on solver processes of this machine; yields outcomes until all are done, should_stop()
    says so (the processes are ended at once; the tasks they held are redone on resume), or no process is left.

    run gives parallel (processes; None or 0: one per core) and endpoints (one process each). on_ready gets the
    first process's ready report (its model, for the run's row)."""
    endpoints = list(run.endpoints)
    count = len(endpoints) or run.parallel or default_parallel("processes")
    n_threads = max(1, local_cores() // count)  # the cores are split: N models must not each decode on all of them
    context = multiprocessing.get_context("spawn")
    solvers: list[_Solver] = []
    try:
        for index in range(count):
            endpoint = endpoints[index] if endpoints else None
            name = endpoint or f"process-{index + 1}"
            ours, theirs = context.Pipe()
            process = context.Process(target=serve, args=(theirs, recipe, endpoint, n_threads, name, os.getpid()),
                                      name=f"bench-{run.id}-{index + 1}", daemon=True)
            try:
                process.start()
            except (pickle.PicklingError, AttributeError, TypeError) as exc:  # a local function, an open file...
                raise RuntimeError(f"the solver recipe cannot be sent to a process: {exc}") from exc
            finally:
                theirs.close()  # the child's end lives in the child: once it dies, ours reads end-of-file
            solvers.append(_Solver(name, process, ours))
        yield from _drive(problems, run, solvers, should_stop, on_ready)
    finally:
        end_processes(solvers)


def _drive(problems: list[Task], run: Run, solvers: list[_Solver], should_stop: Callable[[], bool],
           on_ready: Callable[[dict], None] | None) -> Outcomes:
    todo = collections.deque(problems)
    deaths: collections.Counter = collections.Counter()
    live = list(solvers)
    reported = False
    deadline = time.monotonic() + READY_TIMEOUT_S
    while live and not should_stop():
        for solver in live:
            if solver.ready and solver.problem is None and todo:
                _hand(solver, todo.popleft(), run, todo)
        # Done once every process has been heard from: one still starting may be about to say its endpoint is
        # down, which the run's notes must name even when the others did every task (a ready report comes before
        # any model loads, so this waits seconds).
        if not todo and all(solver.ready and solver.problem is None for solver in live):
            return
        by_handle = {handle: solver for solver in live for handle in (solver.conn, solver.process.sentinel)}
        woken = wait(list(by_handle), timeout=TICK_S)
        for solver in dict.fromkeys(by_handle[handle] for handle in woken):  # its pipe and its exit: once
            message = _receive(solver)
            held, solver.problem = solver.problem, None
            if isinstance(message, TaskDone):
                yield message
            elif isinstance(message, dict) and not message["problem"]:  # its ready report: it takes tasks
                solver.ready = True
                if on_ready and not reported:
                    on_ready(message)
                reported = True
            else:  # lost: it died, its model stopped answering, or it could not make its solver
                live.remove(solver)
                end_processes([solver])
                if isinstance(message, SolverLost):  # the model's fault, not the task's: no death counted
                    todo.append(held)
                    yield message
                elif message is None:  # killed, out of memory..., perhaps in the middle of a task
                    if held is not None:
                        hand_back(todo, held, deaths)
                    yield SolverLost(solver.name, _death_words(solver, held))
                else:
                    yield SolverLost(solver.name, message["problem"])
        for solver in [s for s in live if not s.ready and time.monotonic() > deadline]:
            live.remove(solver)
            end_processes([solver])
            yield SolverLost(solver.name, f"did not start within {READY_TIMEOUT_S:.0f} s")
        if not woken:
            yield None


def _hand(solver: _Solver, problem: Task, run: Run, todo: collections.deque) -> None:
    """Send a task to an idle process; one that died just now keeps nothing (its death is read next)."""
    try:
        solver.conn.send((problem, run.rules))
        solver.problem = problem
    except OSError:
        todo.appendleft(problem)


def _receive(solver: _Solver) -> dict | TaskDone | SolverLost | None:
    """The process's next message, or None when it has no whole one to give: it died, or is dying."""
    try:
        return solver.conn.recv() if solver.conn.poll() else None
    except Exception:  # end-of-file, a message cut short by its death
        return None


def _death_words(solver: _Solver, held: Task | None) -> str:
    """'the process died on HumanEval/3 (killed by SIGKILL)': what the run's notes say of a process gone."""
    code = solver.process.exitcode
    how = (f"killed by {signal.Signals(-code).name}" if code is not None and code < 0 and -code in
           signal.valid_signals() else f"exit code {code}")
    on = f" on {held['task_id']}" if held else ""
    return f"the process died{on} ({how})"


def end_processes(solvers: list[_Solver]) -> None:
    """End the processes: an idle one is told to (and closes its sandbox pool), a busy or starting one gets SIGTERM
    at once (it closes its sandbox pool on the way out); one still there after END_GRACE_S is killed."""
    for solver in solvers:
        if solver.process.exitcode is None and not _told_to_end(solver):
            solver.process.terminate()
    deadline = time.monotonic() + END_GRACE_S
    for solver in solvers:
        solver.process.join(max(0.0, deadline - time.monotonic()))
        if solver.process.exitcode is None:
            solver.process.kill()
            solver.process.join()
        solver.conn.close()


def _told_to_end(solver: _Solver) -> bool:
    """Tell an idle process to end; False for one that reads no message now (busy, starting) or cannot be told."""
    if not solver.ready or solver.problem is not None:
        return False
    try:
        solver.conn.send(None)
    except OSError:
        return False
    return True


# --- in the solver process ------------------------------------------------------------------------------------


def serve(conn: Connection, recipe: SolverRecipe, endpoint: str | None, n_threads: int, name: str,
          driver_pid: int) -> None:
    """A solver process's life: make the solver once, report it, then solve each task the driver sends until it
    sends None or goes away. Runs in the spawned process (run_processes starts it)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C reaches the whole process group: the driver ends us
    signal.signal(signal.SIGTERM, _exit_on_sigterm)
    _end_with(driver_pid)
    solver, problem = make_solver_or_why(recipe, endpoint, n_threads)
    conn.send(ready_report(name, solver, problem))
    while solver is not None:
        try:
            message = conn.recv()
        except EOFError:  # the driver is gone
            return
        if message is None:
            return
        task, rules = message
        try:
            conn.send(solve_one(solver, name, task, rules))
        except OSError:  # the driver is gone (or ended the run while this task ran)
            return


def _exit_on_sigterm(signum: int, frame: object) -> None:
    """Leave now, the sandbox's workers closed first. Not sys.exit: Python's exit waits for the graph's threads, one
    of which may be in a model call for a minute. The close has a thread of its own so that a pool lock this thread
    may hold at this moment cannot keep the process past CLOSE_S."""
    closer = threading.Thread(target=close_default_pool, daemon=True)
    closer.start()
    closer.join(CLOSE_S)
    os._exit(128 + signum)


def _end_with(driver_pid: int) -> None:
    """Ask the kernel for SIGTERM when the driver dies (Linux; elsewhere a dead driver's pipe ends an idle process
    at its next read)."""
    try:
        ctypes.CDLL(None, use_errno=True).prctl(PR_SET_PDEATHSIG, int(signal.SIGTERM))
    except (OSError, AttributeError):
        return
    if os.getppid() != driver_pid:  # it died before the request was made
        os._exit(128 + signal.SIGTERM)
