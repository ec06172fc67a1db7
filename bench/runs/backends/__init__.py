"""Where 'solve and score one task' runs: threads of this process, processes of this machine, or Ray actors.

A backend takes the tasks still to do and yields what happened, as it happens: a task done (its
result and attempt rows, from bench.protocol.solve), a solver lost (a model endpoint that does not answer,
an actor that died for good), or None now and then so the driver can look at its stop flag. It
never writes the store: the driver (bench.runs.driver) alone does, one transaction per finished task.
"""

from __future__ import annotations

import os
import threading
from collections import Counter, deque
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING

from agent import ModelUnavailable, Settings, load_settings
from bench.datasets.task import Task
from bench.protocol.rules import Rules
from bench.settings import DEFAULT_AT_ONCE

# The solver and the solve (the loop's libraries: two seconds to import) are imported where a task is solved, not by
# every command that reads a run's backend (``python -m bench list``).
if TYPE_CHECKING:
    from agent import Solver

BACKENDS = ("threads", "processes", "ray")
# A run's backend when none is asked. Processes: on 2 cores, with the default search on the same 10 tasks in one run,
# two processes of one core each did 1.34x the tasks a minute of two threads sharing one model on both cores
# (docs/scaling-out.md). Threads stay for a model already loaded in this process (the app's, a test's double).
DEFAULT_BACKEND = "processes"
TICK_S = 1.0  # how often a backend hands the driver a moment to look at its stop flag while nothing finishes
MAX_REQUEUES = 3  # a task whose solver (a process, an actor) dies under it this many times is left for a resume
SERVER_PROVIDERS = ("ollama", "openai")


@dataclass(frozen=True)
class TaskDone:
    """A task solved and scored by one of the run's solvers (a thread's, a process's, a Ray actor's, an endpoint's)."""

    solver_name: str  # thread-1, process-1, actor-1@host, or the endpoint: stored in the results' worker column
    result: dict
    rows: list[dict]
    questions: list[dict] = field(default_factory=list)  # an interactive run's: the questions its solve put


@dataclass(frozen=True)
class SolverLost:
    """One of the run's solvers that will take no more tasks, and why; the task it held (if any) goes back to
    the others."""

    solver_name: str
    reason: str


Outcome = TaskDone | SolverLost | None  # None: nothing new, a moment to check the stop flag
Outcomes = Iterator[Outcome]
# Makes one of the run's solvers where it runs: (model endpoint or None, CPU threads or None) -> Solver.
SolverRecipe = Callable[[str | None, int | None], "Solver"]


@dataclass(frozen=True)
class ModelRecipe:
    """The driver's model and search settings, made into a solver on whichever machine runs one.

    Each keeps its own data directory (checkpoints) and finds models in its own MODELS_DIR; an
    endpoint replaces the server URL of the provider; n_threads is the cores an actor or process holds."""

    settings: Settings

    def __call__(self, endpoint: str | None = None, n_threads: int | None = None) -> Solver:
        settings = replace(self.settings, data_dir=load_settings().data_dir,
                           n_threads=n_threads or self.settings.n_threads)
        from agent import make_solver

        return make_solver(with_endpoint(settings, endpoint) if endpoint else settings)


def local_cores() -> int:
    """The cores this process may run on (its CPU affinity, which a container's cpuset narrows), at least 1."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except (AttributeError, OSError):  # not Linux
        return os.cpu_count() or 1


def default_parallel(backend: str) -> int:
    """Tasks at once when a run asks for none: two threads sharing the model, or one process per core (each
    decoding on one core: on a small machine more smaller solvers beat one on every core, docs/scaling-out.md)."""
    return local_cores() if backend == "processes" else DEFAULT_AT_ONCE


def failure_words(exc: BaseException) -> str:
    """Why a solver is lost, for the run's notes: the message of a model that is unusable or stopped answering,
    else the exception's type and message (a bug)."""
    from bench.protocol.solve import ModelOutage

    return str(exc) if isinstance(exc, (ModelUnavailable, ModelOutage)) else f"{type(exc).__name__}: {exc}"


def make_solver_or_why(recipe: SolverRecipe, endpoint: str | None, n_threads: int | None
                       ) -> tuple[Solver | None, str | None]:
    """The recipe's solver where this runs (a Ray actor, a process), or None and why it could not be made."""
    try:
        return recipe(endpoint, n_threads), None
    except Exception as exc:  # said by the solver's ready report: the driver names the solver and the reason
        return None, failure_words(exc)


def ready_report(name: str, solver: Solver | None, problem: str | None) -> dict:
    """What a solver that runs apart from the driver says once made: its name, its model, or why it has none."""
    spec = solver.model_spec if solver else None
    return {"name": name, "problem": problem, "provider": spec.provider if spec else "",
            "model": spec.model if spec else ""}


def solve_one(solver: Solver, name: str, problem: Task, rules: Rules,
              stop: threading.Event | None = None) -> TaskDone | SolverLost | None:
    """One task on one of the run's solvers, as every backend does it: the task done, or the solver lost (a model
    outage, or a bug) with the task named, for the driver to hand it to another; None when stop was set in the
    middle of the task (nothing of it is kept: a resume does it again)."""
    from bench.protocol.solve import TaskStopped, solve_task

    try:
        result, rows, questions = solve_task(solver, problem, rules, stop)
    except TaskStopped:
        return None
    except Exception as exc:
        return SolverLost(name, f"{problem['task_id']}: {failure_words(exc)}")
    return TaskDone(name, result, rows, questions)


def hand_back(todo: deque[Task], problem: Task, deaths: Counter) -> None:
    """A task whose solver died under it (a process or actor gone, not a model that stopped answering) goes back in
    line for the others, unless it has now taken MAX_REQUEUES of them: it is left for a resume rather than allowed
    to take every solver of the run with it."""
    deaths[problem["task_id"]] += 1
    if deaths[problem["task_id"]] < MAX_REQUEUES:
        todo.append(problem)


def with_endpoint(settings: Settings, endpoint: str) -> Settings:
    """The settings with this server as the model's URL (Ollama unless the provider is openai)."""
    if settings.provider == "openai":
        return replace(settings, openai_base_url=endpoint.rstrip("/"))
    return replace(settings, provider="ollama", ollama_base_url=endpoint.rstrip("/"))


def parse_endpoints(text: str | list[str] | tuple[str, ...] | None) -> list[str]:
    """URLs from 'URL,URL,...' (or a list), in order, without duplicates; ValueError names a bad one."""
    items = text.split(",") if isinstance(text, str) else list(text or [])
    found: list[str] = []
    for item in (i.strip().rstrip("/") for i in items):
        if not item:
            continue
        if not item.startswith(("http://", "https://")) or len(item.split("://", 1)[1]) == 0:
            raise ValueError(f"the endpoint {item!r} is not a URL: write it as http://host:port (Ollama) or "
                             "http://host:port/v1 (OpenAI-compatible)")
        if item not in found:
            found.append(item)
    return found


def check_endpoints_provider(provider: str | None, endpoints: list[str]) -> None:
    """Endpoints are model servers: they go with Ollama or an OpenAI-compatible server, not the embedded model."""
    if endpoints and provider not in (None, *SERVER_PROVIDERS):
        raise ValueError(f"endpoints are model servers ({' or '.join(SERVER_PROVIDERS)}); the {provider} provider "
                         "runs the model inside each thread or actor: leave the endpoints empty or pick a server "
                         "provider")
