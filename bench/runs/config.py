"""What a run is before it is stored: its configuration (RunConfig), checked whole, the search it solves every task
with, and the tasks it selects."""

from __future__ import annotations

from dataclasses import asdict, dataclass, field, replace

from agent import Search, Settings, load_settings
from agent.config import search_dict
from bench.datasets import load_dataset
from bench.datasets.humaneval import HUMANEVAL
from bench.datasets.selection import select_tasks
from bench.datasets.task import Dataset, Task
from bench.protocol.labels import FEEDBACK_MODES
from bench.runs.backends import BACKENDS, DEFAULT_BACKEND, check_endpoints_provider, parse_endpoints
from bench.runs.record import Run


@dataclass
class RunConfig:
    """What a run is: the model, the protocol, the tasks, and where they run."""

    tasks: str = "all"  # a selection among the dataset's tasks (bench.datasets.selection.select_tasks)
    dataset: str = HUMANEVAL  # a dataset the bench offers by name (bench.datasets.DATASETS)
    tasks_file: str | None = None  # a person's task file (JSONL, bench.datasets.task_file); then dataset stays
    provider: str | None = None
    model: str | None = None
    search: Search | None = None  # how each task's solve searches; None: the settings' (BUDGET, STRATEGY, ...)
    feedback: str = "visible"
    # Tasks solved at once: threads sharing one model, or processes with a model each. None: the backend's default,
    # (bench.runs.backends.default_parallel).
    parallel: int | None = None
    max_tokens: int | None = None
    backend: str = DEFAULT_BACKEND  # threads | processes | ray
    ray_address: str | None = None  # ray: a running cluster's head; None: RAY_ADDRESS, else a Ray on this machine
    actors: int | None = None  # ray: None fills the cluster
    cpus_per_actor: float = 1.0  # ray: CPUs each actor holds (the embedded model decodes on as many threads)
    endpoints: list[str] = field(default_factory=list)  # model servers, one solver each, in either backend
    samples: int | None = None  # a pass@k run: this many independent samples a task, no loop (bench.protocol.solve)
    temperature: float = Search.sample_temperature  # the samples' temperature (a pass@k run only)
    person: str = ""  # who starts it, on a server people sign in to (the Bench page); "" from the CLI
    # An interactive run (bench run --ask N): a simulated person answers up to this many questions a task from the
    # task's reference solution (bench.protocol.solve); None: nobody answers.
    ask: int | None = None
    # And then reads each answer's behaviour table (the rows inside the contract, from the top) and corrects the first
    # wrong row, up to this many times a task (bench run --ask N --corrections M); None: nobody reads it.
    corrections: int | None = None


def dataset_of(config: RunConfig) -> Dataset:
    """The dataset a configuration runs on (ValueError for an unknown one or a bad task file)."""
    return load_dataset(config.dataset, config.tasks_file)


def selected_tasks(config: RunConfig) -> list[Task]:
    """The tasks a configuration selects in its dataset (TaskSpecError, TaskFileError: both ValueError)."""
    return select_tasks(config.tasks, dataset_of(config).tasks)


def check_config(config: RunConfig) -> list[str]:
    """Raise ValueError for a configuration that cannot run; returns its endpoints, parsed."""
    if config.feedback not in FEEDBACK_MODES:
        raise ValueError(f"feedback must be one of {', '.join(FEEDBACK_MODES)}, got {config.feedback!r}")
    if config.parallel is not None and config.parallel < 1:
        raise ValueError(f"parallel must be 1 or more, got {config.parallel}")
    if config.backend not in BACKENDS:
        raise ValueError(f"the backend must be one of {', '.join(BACKENDS)}, got {config.backend!r}")
    if config.actors is not None and config.actors < 1:
        raise ValueError(f"actors must be 1 or more, got {config.actors}")
    if not config.cpus_per_actor > 0:
        raise ValueError(f"CPUs per actor must be above 0, got {config.cpus_per_actor}")
    if config.samples is not None:
        if config.samples < 1:
            raise ValueError(f"samples must be 1 or more a task, got {config.samples}")
        if config.feedback == "oracle":
            raise ValueError("a samples run draws independent samples of the first prompt and feeds nothing back: "
                             "drop --feedback oracle")
        if not 0 < config.temperature <= 2:
            raise ValueError(f"the samples' temperature must be above 0 and at most 2, got {config.temperature}")
    if config.ask is not None:
        _check_ask(config)
    if config.corrections is not None and (config.corrections < 1 or not config.ask):
        raise ValueError(f"--corrections is how many rows of each answer's table the simulated person corrects, 1 or "
                         f"more, in an interactive run (--ask N); got {config.corrections}"
                         + ("" if config.ask else " without --ask"))
    endpoints = parse_endpoints(config.endpoints)
    check_endpoints_provider(config.provider, endpoints)
    problem = run_search(config).problem()
    if problem:
        raise ValueError(problem)
    return endpoints


def _check_ask(config: RunConfig) -> None:
    """ValueError for an interactive run that cannot ask: no question allowed, or a protocol with nobody to ask."""
    if config.ask < 1:
        raise ValueError(f"--ask is the number of questions a task the simulated person answers, 1 or more; got "
                         f"{config.ask} (a run without --ask asks none)")
    if config.samples is not None:
        raise ValueError("a samples run draws independent samples with no loop, so nothing is asked: drop --ask or "
                         "--samples")
    if config.feedback != "visible":
        why = "hidden tests are fed back" if config.feedback == "oracle" else "one candidate, nothing to doubt"
        raise ValueError(f"--ask needs the loop on the visible tests (--feedback visible); --feedback "
                         f"{config.feedback} is {why}")
    if (config.search or load_settings().search).budget < 2:
        raise ValueError("--ask needs a budget of 2 or more candidates: a one-shot solve draws no doubt batch, so its "
                         "answers never disagree and nothing is asked")


def check_references(config: RunConfig, tasks: list[Task]) -> None:
    """ValueError naming the tasks an interactive run would solve with no reference solution for its simulated person
    to answer from. The run is refused whole rather than skipping their questions: a figure 'after k questions'
    where some questions went unanswered would not be one."""
    missing = [task["task_id"] for task in tasks if not (task.get("reference") or "").strip()] if config.ask else []
    if missing:
        shown = ", ".join(missing[:5]) + (f" and {len(missing) - 5} more" if len(missing) > 5 else "")
        raise ValueError(f"--ask answers questions from each task's reference solution, and {len(missing)} of the "
                         f"{len(tasks)} tasks have none ({shown}): give each a 'reference' field (code that defines "
                         "the entry point) in the task file, or leave them out of --tasks")


def run_search(config: RunConfig) -> Search:
    """The Search a run of this configuration stores and solves every task with: the configuration's, else the
    settings'; one candidate when nothing is fed back; a samples run's samples, drawn at their temperature (no loop
    spends them); an interactive run's questions a task."""
    search = config.search or load_settings().search
    if config.ask:
        search = replace(search, max_questions=config.ask)
    if config.samples:
        return replace(search, budget=config.samples, strategy="sample", sample_temperature=config.temperature,
                       later_round_temperature=None)
    return replace(search, budget=1) if config.feedback == "none" else search


def config_of(run: Run) -> dict:
    """A stored run's configuration (for MLflow), its search's fields among the others."""
    keys = (asdict(RunConfig()).keys() - {"search", "tasks"}) | {"code_version", "protocol"}
    return {k: getattr(run, k) for k in sorted(keys) if hasattr(run, k)} | search_dict(run.search) | {
        "tasks": run.tasks_spec}


def model_settings(provider: str | None, model: str | None, max_tokens: int | None) -> Settings:
    """The settings a run's solvers are made with: this process's, with the run's provider, model and answer cap."""
    settings = load_settings().with_overrides(provider=provider or None, model=model or None)
    return settings.with_overrides(max_tokens=max_tokens) if max_tokens else settings
