"""The Bench page's new-run form (start a run, or time one task first) and the cost note above it."""

from __future__ import annotations

from dataclasses import replace

import streamlit as st

from agent import LineFull, ModelUnavailable, Settings, Solver
from agent.config import STRATEGIES
from agent.loop.prompts import VERSIONS
from bench.datasets import DATASETS, datasets_help
from bench.datasets.humaneval import HUMANEVAL
from bench.datasets.selection import TaskSpecError
from bench.datasets.task_file import keep_copy
from bench.protocol.labels import FEEDBACK_MODES
from bench.reports.cost import CostEstimate, duration, estimate_from_runs, probe
from bench.runs.backends import ModelRecipe
from bench.runs.config import RunConfig, dataset_of, selected_tasks
from bench.runs.lifecycle import start_run
from bench.runs.record import Run
from bench.settings import DEFAULT_AT_ONCE
from ui.bench_backend import backend_options, needs_app_model
from ui.session import MAX_BUDGET, STRATEGY_HELP, model_solver

FEEDBACK_WORDS = {"visible": "visible tests (honest)", "none": "none (one shot, honest)",
                  "oracle": "oracle: hidden failures fed back (LEAKY)"}
state = st.session_state


def run_form_fields(settings: Settings) -> RunConfig:
    """The new-run form's fields (inside the form), as the run they describe. New options go here."""
    left, mid, right = st.columns(3)
    tasks = left.text_input("Tasks", value="sample:41", help="among the dataset's tasks: all, 0-19, task ids "
                                                             "(HumanEval/3,17) or sample:N")
    # Empty by default: the backend's own default, as on the CLI (two threads, or one process per core).
    parallel = mid.number_input("Tasks at once", 1, 64, None, key="bench_parallel",
                                placeholder="the backend's default",
                                help=f"tasks solved at once: threads sharing the model (default {DEFAULT_AT_ONCE}), or "
                                     "processes with a model each (default one per core); see Where tasks run")
    versions = list(VERSIONS)
    prompt_version = right.selectbox("Prompt version", versions, key="bench_prompt_version",
                                     index=versions.index(settings.search.prompt_version)
                                     if settings.search.prompt_version in versions else 0)
    left, mid, _ = st.columns(3)
    strategy = left.selectbox("Strategy", STRATEGIES, index=STRATEGIES.index(settings.search.strategy),
                              key="bench_strategy", help=STRATEGY_HELP)
    budget = mid.number_input("Budget (candidates)", 1, MAX_BUDGET, min(MAX_BUDGET, settings.search.budget),
                              key="bench_budget", help="per task, the first answer included; 1 means one shot")
    feedback = st.radio("Feedback", FEEDBACK_MODES, horizontal=True, format_func=FEEDBACK_WORDS.get)
    left, right = st.columns([1, 2])
    dataset = left.selectbox("Dataset", DATASETS, key="bench_dataset", help=datasets_help())
    upload = right.file_uploader("Or your own task file (JSONL)", type=["jsonl"], key="bench_tasks_file",
                                 help="one JSON object a line: task_id, prompt, tests (visible), hidden_tests, "
                                      "optional entry_point and test_imports; see the README's Bench section")
    # Kept in the data dir under its content's digest: the run stores its tasks, the copy only starts it.
    tasks_file = str(keep_copy(upload.getvalue(), upload.name, settings.data_dir / "task-files")) if upload else None
    backend = backend_options()
    search = replace(settings.search, budget=int(budget), strategy=strategy, prompt_version=prompt_version)
    return RunConfig(tasks=tasks, dataset=HUMANEVAL if tasks_file else dataset, tasks_file=tasks_file,
                     provider=settings.provider, model=settings.model, search=search, feedback=feedback,
                     parallel=None if parallel is None else int(parallel), **backend)


def start_form(settings: Settings, db_path) -> RunConfig:
    """The new-run form: start a run in the background, or time one task first to see what a run costs. Returns
    the run the form describes (its last submitted values), for the cost note."""
    with st.form("new-run"):
        config = run_form_fields(settings)
        st.caption(f"Model from the sidebar: {settings.provider or 'auto'} · {settings.model or 'default'}")
        start_col, probe_col = st.columns([1, 3])
        start = start_col.form_submit_button("Start the run", type="primary")
        measure = probe_col.form_submit_button("Estimate the cost: time the first task",
                                               help="solves the first selected task once, as the run would, and "
                                                    "times it; nothing is stored")
    if not (start or measure):
        return config
    try:
        selected_tasks(config)  # a bad task file or selection is said before a model is loaded
        if start:
            # Processes, Ray actors and endpoint threads make their own solvers where they run; threads share
            # this app's.
            config = replace(config, person=state.person.key)
            solver, place = None, None
            if needs_app_model(config.backend, config.endpoints):
                # Threads on this app's model: the run takes its turn in the line in front of it, and holds it.
                solver = model_solver(settings)
                place = solver.place_in_line(state.person.key, what="a bench run")
            state.bench_run = start_run(config, db_path, solver=solver, recipe=ModelRecipe(settings), place=place)
            state.bench_run_chosen = True  # shown until the person picks another
        else:
            solver = model_solver(settings)
            place = solver.place_in_line(state.person.key, what="a cost estimate")
            try:
                with st.spinner("Waiting for the model (people are solving)..."):
                    place.wait()
                with st.spinner(f"Solving the first task of {config.tasks} to time it..."):
                    state.setdefault("bench_probes", {})[_model_key(solver)] = probe(solver, config)
            finally:
                place.leave()
            st.rerun()  # the cost note above the form shows the measurement
    except (TaskSpecError, ValueError, ModelUnavailable, LineFull) as exc:
        st.error(f"**Cannot {'start' if start else 'estimate'}:** {exc}")
    return config


def _model_key(solver: Solver) -> tuple[str, str]:
    return (solver.model_spec.provider, solver.model_spec.model) if solver.model_spec else ("", "")


def app_model(settings: Settings) -> tuple[str, str] | None:
    """The sidebar's provider and model as a run stores them (its resolved model), or None while it is unavailable."""
    try:
        return _model_key(model_solver(settings))  # cheap: the embedded model loads at its first answer, not here
    except ModelUnavailable:
        return None


def _counts(config: RunConfig) -> tuple[int, int] | None:
    """How many tasks the form's selection and its whole dataset hold; None while either cannot be read."""
    try:
        return len(selected_tasks(config)), len(dataset_of(config).tasks)
    except ValueError:  # a bad selection or task file: the start form says what is wrong
        return None


def cost_note(settings: Settings, runs: list[Run], config: RunConfig) -> None:
    """What a run of the sidebar's model costs on this machine, measured (its last run, or a probe), for the tasks
    the form selects and for its whole dataset."""
    model_key = app_model(settings)
    if model_key is None:
        return  # the start form says why when it is used
    provider, model = model_key
    estimate: CostEstimate | None = estimate_from_runs(runs, provider, model) or \
        state.get("bench_probes", {}).get((provider, model))
    counts = _counts(config)
    if estimate is None:
        every = f"all {counts[1]} tasks" if counts else "a whole dataset"
        st.info(f"**What a run costs here is not measured yet for {provider} · {model}.** A run of {every} can take "
                "an hour or more on a laptop: **Estimate the cost** below solves the first selected task once and "
                "times it.", icon=":material/timer:")
        return
    so = ""
    if counts:
        chosen, every = counts
        so = (f" So {config.tasks} ({chosen} tasks) takes about {duration(estimate.for_tasks(chosen))}, all {every} "
              f"tasks about {duration(estimate.for_tasks(every))}.")
    st.info(f"**Cost on this machine:** about {duration(estimate.seconds_per_task)} a task with {provider} · {model}, "
            f"measured by {estimate.source}.{so}", icon=":material/timer:")
