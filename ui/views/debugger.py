"""Debugger: step through a solve's checkpoints, run step by step, and fork from any step."""

from __future__ import annotations

import datetime
from collections.abc import Callable, Iterator
from functools import partial

import streamlit as st

from agent import BadInput, Event, start_job
from agent.nodes import next_kind
from ui.job_view import show_job
from ui.session import sidebar_settings, solver_or_error
from ui.timeline import candidate_caption, render_report, verdict_line

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
                events = list(solver.start(task, tests, max_retries=settings.max_retries,
                                           strategy=settings.search.strategy, step_mode=True))
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

# The solve's own budget and strategy, not the sidebar's: a fork with a report may have raised the budget by one.
solve_search = solver.search_of(thread)
solve_retries, solve_strategy = solve_search.max_retries, solve_search.strategy
st.caption(f"Strategy **{solve_strategy}** · budget {solve_retries + 1} candidates")
job = state.get("debug_job") if state.get("debug_job_thread") == thread else None
busy = job is not None and job.running
if job is not None:
    with st.container(border=True):
        label, stop = st.columns([5, 1])
        label.markdown(f"**{state.debug_job_label}**" + (" · running" if busy else ""))
        if busy:
            stop.button("Stop", on_click=job.cancel)
        show_job(job, solve_retries, solve_strategy, known=solver.candidates(thread))

paused = solver.paused_before(thread)
if paused and solver.solve_status(thread) == "interrupted" and not busy:
    st.warning(f"**Interrupted:** the process running this solve stopped (killed or restarted) before "
               f"**{paused}** finished. Its checkpoints are kept.")
    if st.button("Carry on from the last checkpoint", type="primary"):
        _start("Carry on", thread, partial(solver.resume, thread))
elif paused:
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
    f'"{s.checkpoint_id}" [label="{s.step}: {s.next_node or "end"}\\n{s.iteration} cand. {s.status or ""}"];\n'
    + (f'"{s.parent_id}" -> "{s.checkpoint_id}";\n' if s.parent_id in parents else "") for s in steps) + "}"
with st.expander("Checkpoint tree (forks branch off the step they came from)"):
    st.graphviz_chart(graph)

choice = st.select_slider("Step", options=range(len(steps)), value=len(steps) - 1,
                          format_func=lambda i: f"{steps[i].step}: next {steps[i].next_node or 'end'}")
step = steps[choice]
values = solver.state_at(thread, step.checkpoint_id)
drawn = solver.candidates(thread, step.checkpoint_id)
picked = solver.chosen(thread, step.checkpoint_id)
st.markdown(f"**Checkpoint** `{step.checkpoint_id}` · {len(drawn)} candidate(s) · status "
            f"{values.get('status')} · next **{step.next_node or 'end'}**")
tab_code, tab_report, tab_messages, tab_fork = st.tabs(["Candidates", "Report", "Messages sent to the model", "Fork"])
with tab_code:
    if picked is not None:
        st.markdown(f"**chooser** — chose #{picked.number}: {picked.reason}")
    if not drawn:
        st.write("No candidate yet at this step.")
    for candidate in drawn:
        is_chosen = picked is not None and picked.number == candidate.number
        chosen = " :blue-badge[:material/star: chosen]" if is_chosen else ""
        st.markdown((verdict_line(candidate) if candidate.ran else f"**#{candidate.number}** — not run yet") + chosen)
        with st.expander(candidate_caption(candidate), expanded=candidate is drawn[-1]):
            st.code(candidate.code or "(no code)", language="python")
with tab_report:
    if values.get("report"):
        st.caption("the current answer's report: the last candidate's, or after the chooser the chosen one's")
        render_report(values["report"])
        st.code(values.get("feedback", ""), language="text")
    else:
        st.write("No report yet at this step.")
with tab_messages:
    if drawn:
        st.caption(f"for the last candidate, #{drawn[-1].number} ({drawn[-1].kind})")
        for message in drawn[-1].messages:
            st.markdown(f"**{message['role']}**")
            st.code(message["content"], language="markdown")
    else:
        st.write("The model has not been called yet at this step.")
with tab_fork:
    st.caption("Edit the last candidate's code (the tests run next) or the failure report (the model draws next). "
               "The fork continues from this step; the original branch stays in the history.")
    if drawn:
        # A fork's edited code replaces the last candidate's (agent.nodes.executor), which after the chooser
        # need not be the chosen answer that the state's code holds: edit that one.
        new_code = st.text_area(f"Code of #{drawn[-1].number}, the last candidate", value=drawn[-1].code, height=200,
                                key=f"fork-code-{step.checkpoint_id}")
        if st.button("Run the tests on this code", disabled=busy):
            _start(f"Fork from step {step.step} with edited code", thread,
                   partial(solver.fork, thread, step.checkpoint_id, code=new_code))
    if values.get("report"):
        if next_kind(values) != "repair":
            st.caption(f"With this solve's strategy ({solve_strategy}) the next candidates are fresh samples of the "
                       "first prompt: they do not read the failure report.")
        new_feedback = st.text_area("Failure report", value=values.get("feedback", ""), height=200,
                                    key=f"fork-feedback-{step.checkpoint_id}")
        if st.button("Ask the model to repair with this report", disabled=busy):
            _start(f"Fork from step {step.step} with an edited report", thread,
                   partial(solver.fork, thread, step.checkpoint_id, feedback=new_feedback))
