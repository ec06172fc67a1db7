"""Bench: start HumanEval runs in the background, watch them, read and compare the results."""

from __future__ import annotations

import datetime

import altair as alt
import pandas as pd
import streamlit as st

from agent import ModelUnavailable
from agent.config import STRATEGIES
from agent.prompts import VERSIONS
from bench import runner, store
from bench.executors import ModelRecipe
from bench.metrics import compare_runs, run_metrics
from bench.tasks import TaskSpecError
from ui.bench_executor import executor_options, needs_app_model, worker_progress
from ui.session import MAX_BUDGET, STRATEGY_HELP, model_solver, sidebar_settings

settings = sidebar_settings()
st.title("Bench")
st.caption("HumanEval with the loop judging its candidates by the docstring's examples only; hidden tests score "
           "every candidate afterwards. Leaky runs (hidden failures fed back) are labelled and never mixed in.")
db_path = runner.default_db_path()
db = store.open_store(db_path)
state = st.session_state

with st.form("new-run"):
    left, mid, right = st.columns(3)
    tasks = left.text_input("Tasks", value="sample:41", help="all, 0-19, HumanEval/3,17 or sample:N")
    workers = mid.number_input("Workers", 1, 16, 2)
    versions = list(VERSIONS)
    prompt_version = right.selectbox("Prompt version", versions, key="bench_prompt_version",
                                     index=versions.index(settings.search.prompt_version)
                                     if settings.search.prompt_version in versions else 0)
    left, mid, _ = st.columns(3)
    strategy = left.selectbox("Strategy", STRATEGIES, index=STRATEGIES.index(settings.search.strategy),
                              key="bench_strategy", help=STRATEGY_HELP)
    budget = mid.number_input("Budget (candidates)", 1, MAX_BUDGET, min(MAX_BUDGET, settings.max_retries + 1),
                              key="bench_budget", help="per task, the first answer included; 1 means one shot")
    feedback = st.radio("Feedback", runner.FEEDBACK_MODES, horizontal=True,
                        format_func={"visible": "visible tests (honest)", "none": "none (one shot, honest)",
                                     "oracle": "oracle: hidden failures fed back (LEAKY)"}.get)
    executor = executor_options()
    st.caption(f"Model from the sidebar: {settings.provider or 'auto'} · {settings.model or 'default'}")
    if st.form_submit_button("Start", type="primary"):
        try:
            solver = model_solver(settings) if needs_app_model(executor) else None
            state.bench_run = runner.start_run(
                runner.RunConfig(tasks=tasks, provider=settings.provider, model=settings.model,
                                 max_retries=int(budget) - 1, feedback=feedback, workers=int(workers),
                                 strategy=strategy, prompt_version=prompt_version, **executor),
                db_path, solver=solver, recipe=ModelRecipe(settings))
        except (TaskSpecError, ValueError, ModelUnavailable) as exc:
            st.error(f"**Cannot start:** {exc}")

runs = store.list_runs(db)
if not runs:
    st.info("No runs yet.")
    st.stop()
by_id = {r["id"]: r for r in runs}


def _strategy(run: dict) -> str:
    return run.get("strategy") or "repair"  # runs stored before strategies existed only repaired


def _label(run_id: str) -> str:
    r = by_id[run_id]
    return (f"{run_id} · {r['protocol']} · {r['feedback']} · {_strategy(r)} ×{r['max_retries'] + 1} · {r['model']} · "
            f"{r['done']}/{len(r['task_ids'])}")


selected = st.selectbox("Run", list(by_id), index=list(by_id).index(state.get("bench_run", runs[0]["id"]))
                        if state.get("bench_run") in by_id else 0, format_func=_label)
state.bench_run = selected


@st.fragment(run_every=2)
def progress(run_id: str) -> None:
    """Live progress read from the store: works for runs of this process and of others."""
    fresh = store.open_store(db_path)
    run, rows = store.get_run(fresh, run_id), store.results(fresh, run_id)
    total, done, passing = len(run["task_ids"]), len(rows), sum(r["hidden_passed"] for r in rows)
    phase = runner.run_state(run)
    seen = f"bench-seen-{run_id}"
    previous, state[seen] = state.get(seen), (done, phase)
    if previous not in (None, (done, phase)):
        st.rerun(scope="app")  # new results: refresh the metrics, chart and tables below too
    spent = sum(r["seconds"] for r in rows) / max(1, run["workers"])
    eta = spent / done * (total - done) if done else 0
    st.progress(done / total if total else 0.0,
                text=f"{done}/{total} tasks done · {passing} passing · {phase}"
                     + (f" · ETA {int(eta // 60)}m{int(eta % 60):02d}s" if phase == "running" and done else ""))
    if run.get("error"):
        st.warning(run["error"])
    worker_progress(run, rows)
    stop_col, resume_col = st.columns(2)
    if phase in ("running", "starting") and stop_col.button("Stop", key=f"stop-{run_id}"):
        runner.stop_run(run_id, db_path)
    if phase in ("stopped", "failed", "interrupted") and done < total and resume_col.button("Resume",
                                                                                             key=f"resume-{run_id}"):
        runner.resume_run(run_id, db_path, solver=model_solver(settings) if needs_app_model(run) else None)


progress(selected)
run = store.get_run(db, selected)
results = store.results(db, selected)
metrics = run_metrics(run, results)
leaky = run["protocol"] == "leaky"
label = "LEAKY protocol: hidden-test failures were fed back" if leaky else "honest protocol"
cols = st.columns(4)
cols[0].metric("pass@1", f"{100 * metrics['pass_at_1']:.1f}%", help=label)
cols[1].metric("first attempt", f"{100 * metrics['first_attempt_pass_at_1']:.1f}%")
cols[2].metric("visible pass", f"{100 * metrics['visible_pass_rate']:.1f}%")
cols[3].metric("candidates per task", f"{metrics['candidates_per_task']:.2f}")
(st.error if leaky else st.success)(label)
st.caption(f"strategy {_strategy(run)} · budget {run['max_retries'] + 1} candidates · prompt {run['prompt_version']} · "
           f"{metrics['tasks']} tasks · wall {metrics['wall_seconds']:.0f}s · model time "
           f"{100 * metrics['model_time_share']:.0f}% · {metrics['tasks_per_minute']:.2f} tasks/min · tokens "
           f"{metrics['tokens_in']}/{metrics['tokens_out']} · code {run['code_version']}")
st.markdown("**Diagnostics** — measured with the hidden tests after the run, never used to choose an answer")
diag = st.columns(4)
diag[0].metric("oracle ceiling", f"{100 * metrics['oracle_ceiling']:.1f}%",
               help="tasks where some candidate passes the hidden tests: what a perfect chooser would reach")
diag[1].metric("visible precision", f"{100 * metrics['visible_precision']:.1f}%",
               help="of the answers that pass their visible tests, the share that pass the hidden tests too")
if results:
    curve = pd.DataFrame({"more candidates": range(len(metrics["pass_after_k_repairs"])),
                          "pass rate": metrics["pass_after_k_repairs"]})
    st.altair_chart(alt.Chart(curve, title="Pass rate with k candidates after the first").mark_line(point=True).encode(
        x=alt.X("more candidates:O", title="candidates after the first allowed"),
        y=alt.Y("pass rate:Q", scale=alt.Scale(domain=[0, 1]))), use_container_width=True)
    table = pd.DataFrame([{"task": r["task_id"], "hidden": bool(r["hidden_passed"]),
                           "visible": bool(r["visible_passed"]),
                           "candidates": r["iterations"], "visible tests": r["visible_tests"], "seconds": r["seconds"],
                           "thread": r["thread_id"]} for r in results])
    only = st.radio("Show", ["all", "passing", "failing", "passing after more than one candidate"], horizontal=True)
    if only == "passing":
        table = table[table.hidden]
    elif only == "failing":
        table = table[~table.hidden]
    elif only == "passing after more than one candidate":
        table = table[table.hidden & (table.candidates > 1)]
    st.dataframe(table.drop(columns=["thread"]), hide_index=True, use_container_width=True)
    task = st.selectbox("Task candidates", list(table.task))
    if task:
        reason = next((r.get("choice") for r in results if r["task_id"] == task), None)
        if reason:
            st.markdown(f"**chooser**: {reason}")
        for attempt in store.attempts(db, selected, task):
            kind = f" · {attempt['kind']}" if attempt.get("kind") else ""  # older runs did not store it
            with st.expander(f"#{attempt['iteration']}{kind}: visible "
                             f"{attempt['visible_status']}, hidden "
                             f"{'passed' if attempt['hidden_passed'] else attempt['hidden_status']}"):
                st.code(attempt["code"], language="python")
        if st.button("Open this task in the debugger"):
            state.debug_thread = next(r["thread_id"] for r in results if r["task_id"] == task)
            st.switch_page("views/debugger.py")

st.subheader("Runs")
st.dataframe(pd.DataFrame([{"run": r["id"], "state": runner.run_state(r), "protocol": r["protocol"],
                            "feedback": r["feedback"], "strategy": _strategy(r), "budget": r["max_retries"] + 1,
                            "prompt": r["prompt_version"], "model": r["model"], "done": r["done"],
                            "passing": r["passing"], "created": datetime.datetime.fromtimestamp(r["created"])}
                           for r in runs]), hide_index=True, use_container_width=True)
st.subheader("Compare two runs")
a_col, b_col = st.columns(2)
a = a_col.selectbox("A", list(by_id), format_func=_label, key="cmp-a")
b = b_col.selectbox("B", list(by_id), index=min(1, len(by_id) - 1), format_func=_label, key="cmp-b")
if a and b and a != b:
    diff = compare_runs(store.results(db, a), store.results(db, b))
    if by_id[a]["protocol"] != by_id[b]["protocol"]:
        st.warning("These runs use different protocols (honest vs leaky): their numbers are not comparable.")
    counts = pd.DataFrame({"outcome": ["fixed in B", "regressed in B", "passing in both", "failing in both"],
                           "tasks": [len(diff[k]) for k in ("fixed", "regressed", "both", "neither")]})
    st.altair_chart(alt.Chart(counts).mark_bar().encode(x="tasks:Q", y=alt.Y("outcome:N", sort=None)),
                    use_container_width=True)
    st.write(f"Fixed: {', '.join(diff['fixed']) or '-'}  \nRegressed: {', '.join(diff['regressed']) or '-'}")
