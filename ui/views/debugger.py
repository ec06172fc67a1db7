"""Debugger: step through a solve's checkpoints, run step by step, and fork from any step."""

from __future__ import annotations

import datetime
from collections.abc import Callable, Iterator
from functools import partial

import streamlit as st

from agent import BadInput, Event, start_job
from ui.job_view import show_job
from ui.session import sidebar_settings, solver_or_error
from ui.timeline import render_report

settings = sidebar_settings()
st.title("Debugger")
solver = solver_or_error(settings)
if solver is None:
    st.stop()
state = st.session_state


def _start(label: str, thread_id: str, make_events: Callable[..., Iterator[Event]]) -> None:
    """Run a step or a fork in the background (a rerun cannot cut it short) and redraw the page."""
    state.debug_job = start_job(make_events)
    state.debug_job_thread, state.debug_job_label = thread_id, label
    st.rerun()


with st.expander("New step-mode solve: pause before every node", expanded=not solver.solves()):
    with st.form("step-mode"):
        task = st.text_area("Task", value="Write a function add(a, b) that returns the sum of a and b.")
        tests = st.text_area("Tests", value="assert add(1, 2) == 3\n")
        if st.form_submit_button("Start in step mode"):
            try:
                events = list(solver.start(task, tests, max_retries=settings.max_retries, step_mode=True))
            except BadInput as exc:
                st.error(f"**Cannot start:** {exc}")
            else:
                state.debug_thread = events[-1].thread_id

solves = solver.solves()
if not solves:
    st.info("No solves yet: run one in the playground or start a step-mode solve above.")
    st.stop()
labels = {s["thread_id"]: f"{datetime.datetime.fromtimestamp(s['created']):%Y-%m-%d %H:%M} · {s['status']} · "
          f"{s['task'][:70]}" for s in solves}
wanted = state.get("debug_thread") or st.query_params.get("thread")
if wanted and wanted not in labels:
    labels[wanted] = f"{wanted} (from the bench)"
ids = list(labels)
thread = st.selectbox("Solve", ids, index=ids.index(wanted) if wanted in ids else 0, format_func=labels.get)
state.debug_thread = thread

job = state.get("debug_job") if state.get("debug_job_thread") == thread else None
busy = job is not None and job.running
if job is not None:
    with st.container(border=True):
        label, stop = st.columns([5, 1])
        label.markdown(f"**{state.debug_job_label}**" + (" · running" if busy else ""))
        if busy:
            stop.button("Stop", on_click=job.cancel)
        show_job(job, settings.max_retries)

paused = solver.paused_before(thread)
if paused:
    st.info(f"This solve is paused before **{paused}**.")
    one, rest = st.columns([1, 4])
    if one.button("Next step", type="primary", disabled=busy):
        _start(f"Next step: {paused}", thread, partial(solver.resume, thread, step_mode=True))
    if rest.button("Run to the end", disabled=busy):
        _start("Run to the end", thread, partial(solver.resume, thread))

steps = solver.steps(thread)
if len(steps) < 2:
    st.stop()
parents = {s.checkpoint_id: s.parent_id for s in steps}
graph = "digraph { rankdir=LR; node [shape=box, fontsize=10];\n" + "".join(
    f'"{s.checkpoint_id}" [label="{s.step}: {s.next_node or "end"}\\niter {s.iteration} {s.status or ""}"];\n'
    + (f'"{s.parent_id}" -> "{s.checkpoint_id}";\n' if s.parent_id in parents else "") for s in steps) + "}"
with st.expander("Checkpoint tree (forks branch off the step they came from)"):
    st.graphviz_chart(graph)

choice = st.select_slider("Step", options=range(len(steps)), value=len(steps) - 1,
                          format_func=lambda i: f"{steps[i].step}: next {steps[i].next_node or 'end'}")
step = steps[choice]
values = solver.state_at(thread, step.checkpoint_id)
st.markdown(f"**Checkpoint** `{step.checkpoint_id}` · iteration {values.get('iteration', 0)} · status "
            f"{values.get('status')} · next **{step.next_node or 'end'}**")
tab_code, tab_report, tab_messages, tab_fork = st.tabs(["Code", "Report", "Messages sent to the model", "Fork"])
with tab_code:
    st.code(values.get("code") or "(no code yet)", language="python")
with tab_report:
    if values.get("report"):
        render_report(values["report"])
        st.code(values.get("feedback", ""), language="text")
    else:
        st.write("No report yet at this step.")
with tab_messages:
    attempts = values.get("attempts") or []
    if attempts:
        for message in attempts[-1].get("messages", []):
            st.markdown(f"**{message['role']}**")
            st.code(message["content"], language="markdown")
    else:
        st.write("The model has not been called yet at this step.")
with tab_fork:
    st.caption("Edit the code (the tests run next) or the failure report (the model repairs next). The fork "
               "continues from this step; the original branch stays in the history.")
    if attempts:
        new_code = st.text_area("Code", value=values.get("code", ""), height=200, key=f"fork-code-{step.checkpoint_id}")
        if st.button("Run the tests on this code", disabled=busy):
            _start(f"Fork from step {step.step} with edited code", thread,
                   partial(solver.fork, thread, step.checkpoint_id, code=new_code))
    if values.get("report"):
        new_feedback = st.text_area("Failure report", value=values.get("feedback", ""), height=200,
                                    key=f"fork-feedback-{step.checkpoint_id}")
        if st.button("Ask the model to repair with this report", disabled=busy):
            _start(f"Fork from step {step.step} with an edited report", thread,
                   partial(solver.fork, thread, step.checkpoint_id, feedback=new_feedback))
