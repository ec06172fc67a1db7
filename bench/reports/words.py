"""The words the CLI and the Bench page both print about a run: its protocol, its search, where it ran, its tasks lost
apart, its candidates lost at load and removed by cleaning, its pass@1, and what a reference run is. Written once
here, so the two front-ends say the same thing."""

from __future__ import annotations

from agent.config import describe_search
from agent.loop.load_failure import NO_ENTRY_POINT, OTHER, OWN_TESTS, SYNTAX, TEST_LIBRARY
from bench.datasets.humaneval import HUMANEVAL
from bench.protocol.labels import Protocol
from bench.runs import store
from bench.runs.record import Run
from bench.runs.reference import REFERENCE_DIR, ReferenceRuns
from bench.scoring.load_losses import NOT_RECORDED, LoadLosses
from bench.scoring.metrics import run_metrics

# Why a candidate was lost at load (agent.loop.load_failure's causes), in words.
CAUSE_WORDS = {SYNTAX: "syntax error", TEST_LIBRARY: "test library not imported", OWN_TESTS: "own tests or demo",
               NO_ENTRY_POINT: "no entry point", OTHER: "other", NOT_RECORDED: "cause not recorded"}


def protocol_words(run: Run) -> str:
    """The run's protocol and what it means: 'honest', 'leaky (hidden-test failures fed back; not comparable)',
    'interactive (a simulated person answers up to 3 questions a task ...)',
    'samples (10 independent samples a task at temperature 0.8; ...)'. show prints its first word in capitals."""
    if run.protocol == Protocol.SAMPLES:
        return (f"samples ({run.samples} independent samples a task at temperature {run.temperature:g}; no loop, no "
                "choice; hidden tests only score)")
    if run.protocol == Protocol.IMPORTED:
        return (f"imported (samples made elsewhere, from {run.samples_file} (sha {run.samples_sha256[:8]}), scored "
                "here on the hidden tests; not a run of the loop)")
    if run.protocol == Protocol.RESCORED:
        return (f"rescored on {run.dataset} (the candidates and answers of run {run.rescored_from}, scored again on "
                "its hidden tests without the model; not a run of the loop)")
    if run.protocol == Protocol.INTERACTIVE:
        reads = (f", then reads the answer's table and corrects up to {run.corrections} wrong rows"
                 if run.corrections else "")
        return (f"interactive (a simulated person answers up to {run.ask} questions a task from its reference "
                f"solution{reads}; not comparable with honest figures)")
    return "leaky (hidden-test failures fed back; not comparable)" if run.protocol == Protocol.LEAKY else "honest"


def search_words(run: Run) -> str:
    """How a run's tasks were solved: its search (agent.config.describe_search), or for a run of independent samples
    what they were."""
    if run.protocol == Protocol.IMPORTED:
        return "samples made elsewhere, scored here"
    if run.protocol == Protocol.SAMPLES:
        return (f"{run.samples} independent samples a task at T={run.temperature:g}, prompt "
                f"{run.search.prompt_version}")
    return describe_search(run.search)


def backend_words(run: Run) -> str:
    """Where a run's tasks ran: 'threads x2', 'processes x2', 'ray 2 actors x 1 CPU at 10.0.0.5:6379'..."""
    endpoints = f" on {len(run.endpoints)} endpoints" if run.endpoints else ""
    if run.backend != "ray":
        return f"{run.backend} x{run.parallel}{endpoints}"
    actors = f"{run.actors} actors" if run.actors else "actors filling the cluster"
    where = f" at {run.ray_address}" if run.ray_address else " (local Ray)"
    return f"ray {actors} x {run.cpus_per_actor or 1:g} CPU{where}{endpoints}"


def tasks_words(run: Run, done: int, *, longest: int | None = None) -> str:
    """'all (164)' (the selection and the tasks done), with the dataset named when it is not HumanEval:
    'humaneval+ sample:41 (41)'; a selection longer than longest characters is 'chosen tasks'."""
    dataset = "" if run.dataset == HUMANEVAL else f"{run.dataset} "
    spec = run.tasks_spec if longest is None or len(run.tasks_spec) <= longest else "chosen tasks"
    return f"{dataset}{spec} ({done})"


def lost_words(metrics: dict) -> str:
    """'lost to environment errors: 2 · lost to extraction errors: 1', or '' when no task was lost."""
    parts = [(metrics.get("lost_to_environment", 0), "environment errors"),
             (metrics.get("lost_to_bad_input", 0), "bad input"),
             (metrics.get("lost_to_unsupported", 0), "tests the sandbox cannot run as one process would"),
             (metrics.get("lost_to_extraction", 0), "extraction errors")]
    return " · ".join(f"lost to {what}: {count}" for count, what in parts if count)


def percent(fraction: float) -> str:
    """'71.3%'."""
    return f"{100 * fraction:.1f}%"


def lost_at_load_count(losses: LoadLosses) -> str:
    """'35 of 548 (6.4%)': the candidates lost at load, of all the run's candidates."""
    return f"{losses.lost} of {losses.candidates} ({percent(losses.lost_share)})"


def cause_words(losses: LoadLosses) -> str:
    """'own tests or demo 20, syntax error 15', or '-' when no candidate was lost at load."""
    return ", ".join(f"{CAUSE_WORDS[cause]} {count}" for cause, count in losses.causes.items()) or "-"


def cleaning_share_words(run: Run, losses: LoadLosses) -> str:
    """'4.4%' of the candidates whose answer cleaning removed something from; 'not recorded' for a run made before
    it was stored (never 0); 'not cleaned' for samples made elsewhere (scored as they came)."""
    if run.protocol == Protocol.IMPORTED:
        return "not cleaned"
    share = losses.cleaned_share
    if share is None:
        return "not recorded"
    partly = "" if losses.cleaning_recorded == losses.candidates else f" of the {losses.cleaning_recorded} recorded"
    return f"{percent(share)}{partly}"


def load_loss_words(run: Run, losses: LoadLosses) -> str:
    """One line: 'candidates lost at load (before any test ran): 35 of 548 (6.4%): syntax error 5, cause not recorded
    30 · removed by cleaning: not recorded'."""
    causes = f": {cause_words(losses)}" if losses.lost else ""
    return (f"candidates lost at load (before any test ran): {lost_at_load_count(losses)}{causes} · removed by "
            f"cleaning: {cleaning_share_words(run, losses)}")


def pass_at_1_so_far(db, run: Run) -> float | None:
    """pass@1 over the tasks done, as list and the runs table give it: a sampled run's unbiased estimate over all its
    samples, else the share of its tasks that pass; None before any task is done."""
    if not run.done:
        return None
    return run_metrics(run, store.results(db, run.id))["pass_at_1"] if run.sampled else run.passing / run.done


def passing_words(db, run: Run) -> str:
    """'12 passing' for a run of the loop; a sampled run's 'pass@1 46.1%' (a count of first samples would mislead)."""
    return f"pass@1 {percent(pass_at_1_so_far(db, run) or 0.0)}" if run.sampled else f"{run.passing} passing"


def reference_words(references: ReferenceRuns, run: Run) -> str:
    """'reference run measured on the project's machine (...), code 06cf296 src d73df838a835, shipped with the app
    (bench/reference_runs/coverage-runs.json.gz); not yours'."""
    return (f"reference run measured on {references.machines[run.id]}, code {run.code_version}, shipped with the app "
            f"(bench/{REFERENCE_DIR.name}/{references.files[run.id]}); not yours")


def reference_machines_words(references: ReferenceRuns) -> str:
    """The machines the reference runs were measured on, once each: "the project's machine (...)"."""
    return "; ".join(dict.fromkeys(references.machines.values()))
