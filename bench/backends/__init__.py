"""Where 'solve and score one task' runs: threads of this process, or Ray actors on a cluster.

A backend takes the tasks still to do and yields what happened, as it happens: a task done (its
result and attempt rows, from bench.task_protocol), a solver lost (a model endpoint that does not answer,
an actor that died for good), or None now and then so the driver can look at its stop flag. It
never writes the store: the driver (bench.runner) alone does, one transaction per finished task.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass, replace

from agent import Settings, Solver, load_settings, make_solver

BACKENDS = ("threads", "ray")
SERVER_PROVIDERS = ("ollama", "openai")


@dataclass(frozen=True)
class TaskDone:
    """A task solved and scored by one of the run's solvers (a thread's, a Ray actor's, an endpoint's)."""

    solver_name: str  # thread-1, actor-1@host, or the endpoint: stored in the results' worker column
    result: dict
    rows: list[dict]


@dataclass(frozen=True)
class SolverLost:
    """One of the run's solvers that will take no more tasks, and why; the task it held (if any) goes back to
    the others."""

    solver_name: str
    reason: str


Outcome = TaskDone | SolverLost | None  # None: nothing new, a moment to check the stop flag
Outcomes = Iterator[Outcome]
# Makes one of the run's solvers where it runs: (model endpoint or None, CPU threads or None) -> Solver.
SolverRecipe = Callable[[str | None, int | None], Solver]


@dataclass(frozen=True)
class ModelRecipe:
    """The driver's model and search settings, made into a solver on whichever machine runs one.

    Each keeps its own data directory (checkpoints) and finds models in its own MODELS_DIR; an
    endpoint replaces the server URL of the provider; n_threads is the cores an actor holds."""

    settings: Settings

    def __call__(self, endpoint: str | None = None, n_threads: int | None = None) -> Solver:
        settings = replace(self.settings, data_dir=load_settings().data_dir,
                           n_threads=n_threads or self.settings.n_threads)
        return make_solver(with_endpoint(settings, endpoint) if endpoint else settings)


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
