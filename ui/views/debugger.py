"""Debugger: step through a solve's checkpoints, compare two of them, run step by step, and fork from any step."""

from __future__ import annotations

import datetime
from collections.abc import Callable, Iterator
from functools import partial

import streamlit as st

from agent import BadInput, Event, LineFull, Search, Step, start_job
from agent.config import describe_search
from agent.loop.questions import PERSON
from agent.solves.history import Branch, branches, next_draw, step_changes
from agent.solves.lineage import Lineage, lineage_from
from ui.code_editor import code_editor
from ui.identity import started_by_words
from ui.job_view import show_job
from ui.session import current_settings, solver_or_error
from ui.timeline import (
    ENV_ERROR_WORDS,
    QUESTION_ICON,
    UNSUPPORTED_WORDS,
    asked_details,
    asked_line,
    attempt_step,
    plain,
    render_report,
)

# How a solve or a branch ended: always in words, with a mark beside some (never the mark alone: it would carry the
# outcome by colour). Unknown statuses show as stored, so a new one (a solve whose process died is "interrupted")
# needs no change here.
PLAIN_STATUS = {"passed": "passed", "gave_up": "not solved", "paused": "paused", "error": "stopped with an error",
                "env_error": ENV_ERROR_WORDS, "unsupported": UNSUPPORTED_WORDS, "waiting": "waiting for the model",
                "left_line": "left the line before it began"}
STATUS_MARKS = {"passed": ":green[:material/check_circle:] ", "gave_up": ":red[:material/cancel:] ",
                "error": ":red[:material/error:] ", "paused": ":material/pause_circle: ",
                "interrupted": ":orange[:material/warning:] ", "env_error": ":orange[:material/block:] ",
                "unsupported": ":orange[:material/block:] "}
BRANCH_COLOURS = ["#0f766e", "#b45309", "#7c3aed", "#be123c", "#1d4ed8", "#4d7c0f"]
state = st.session_state


def _start(label: str, thread_id: str, make_events: Callable[..., Iterator[Event]]) -> None:
    """Run a step or a fork in the background (a rerun cannot cut it short), in its turn in the line in front of the
    model, and redraw the page."""
    try:
        place = solver.place_in_line(state.person.key, thread_id)
    except LineFull as exc:
        st.error(f"**Cannot start:** {exc}", icon=":material/group:")
        return
    state.debug_job = start_job(make_events, person=state.person.key, place=place)
    state.debug_job_thread, state.debug_job_label = thread_id, label
    st.rerun()


def step_mode_form(solver, settings) -> None:
    """Start a new solve that pauses before every node."""
    with st.expander("New step-mode solve: pause before every node", expanded=not solver.store.solves()):
        with st.form("step-mode"):
            task = st.text_area("Task", value="Write a function add(a, b) that returns the sum of a and b.")
            tests = st.text_area("Tests", value="assert add(1, 2) == 3\n")
            if st.form_submit_button("Start in step mode"):
                try:
                    events = list(solver.start(task, tests, search=settings.search, step_mode=True,
                                               person=state.person.key))
                except BadInput as exc:
                    st.error(f"**Cannot start:** {exc}")
                else:
                    state.debug_thread = events[-1].thread_id


def solve_label(solve: dict) -> str:
    """'2026-05-01 10:02 · by Ada · passed · run again: 1 test added after answer #1 · Write a function add...' (who
    started it when it is not the person at the page)."""
    lineage = lineage_from(solve.get("lineage"))
    person = state.person
    return (f"{datetime.datetime.fromtimestamp(solve['created']):%Y-%m-%d %H:%M} · "
            + (f"{solve['origin']} · " if solve["origin"] else "")
            + ("" if person.owns(solve["person"]) else f"by {started_by_words(person, solve['person'])} · ")
            + f"{PLAIN_STATUS.get(solve['status'], solve['status'])} · "
            + (f"run again: {lineage.words()} · " if lineage else "") + " ".join(solve["task"].split())[:70])


def _open_solve(thread: str) -> None:
    state.debug_thread = thread


def _added_tests(lineage: Lineage) -> None:
    for added in lineage.added:
        st.markdown(f"`{added.call}`: the answer {plain(added.answered)}; expected: {plain(added.expected)}")
        st.code(added.test, language="python")


def lineage_panel(solver, thread: str, solves: list[dict]) -> None:
    """Which tests a person added after which answer: the solve this one was run again from, and the solves run
    again from this one (named as the list of solves names them)."""
    named = {s["thread_id"]: solve_label(s) for s in solves}
    lineage, later = solver.lineage_of(thread), solver.started_again(thread)
    if lineage is None and not later:
        return
    with st.expander("Tests a person added", expanded=True, icon=":material/playlist_add:"):
        if lineage is not None:
            st.markdown(f"**Run again** from an earlier solve: {lineage.words()} there.")
            _added_tests(lineage)
            st.button("Open the earlier solve", on_click=_open_solve, args=(lineage.from_solve,),
                      key=f"open-earlier-{thread}")
        for i, (again, added) in enumerate(later):
            st.markdown(f"**Run again later** ({plain(named.get(again, again))}): {added.words()}.")
            _added_tests(added)
            st.button("Open that solve", on_click=_open_solve, args=(again,), key=f"open-later-{thread}-{i}")


def questions_panel(solver, thread: str) -> None:
    """Each question the solve put, the choices, what was answered, the test it added and the candidates it kept and
    dropped (agent.loop.questions.Asked, from its latest checkpoint)."""
    asked = solver.asked(thread)
    if not asked:
        return
    corrected = sum(one.by == PERSON for one in asked)
    title = f"Questions asked ({len(asked) - corrected})" + (f" and rows corrected ({corrected})" if corrected else "")
    with st.expander(title, expanded=True, icon=QUESTION_ICON):
        for number, one in enumerate(asked, 1):
            st.markdown(f"**{'Correction' if one.by == PERSON else 'Question'} {number}** — {asked_line(one)}")
            asked_details(one)


def pick_solve(solves: list[dict]) -> str:
    """The solve to debug: the one asked for (playground, bench, ?thread=), else the newest; the person's own solves
    come first (another person's opens by its link, or further down the list, marked with their name)."""
    person = state.person
    solves = sorted(solves, key=lambda s: not person.owns(s["person"]))  # stable: newest first within each
    labels = {s["thread_id"]: solve_label(s) for s in solves}
    wanted = state.get("debug_thread") or st.query_params.get("thread")
    if wanted and wanted not in labels:
        labels[wanted] = f"{wanted} (from the bench)"
    ids = list(labels)
    thread = st.selectbox("Solve", ids, index=ids.index(wanted) if wanted in ids else 0, format_func=labels.get)
    state.debug_thread = thread
    return thread


def job_panel(solver, thread: str, search: Search) -> bool:
    """The step, fork or resume running (or last run) on this solve; returns whether one is running."""
    job = state.get("debug_job") if state.get("debug_job_thread") == thread else None
    busy = job is not None and job.running
    if job is not None:
        with st.container(border=True):
            label, stop = st.columns([5, 1])
            label.markdown(f"**{state.debug_job_label}**" + (" · running" if busy else ""))
            if busy:
                stop.button("Stop this run", on_click=job.cancel)
            show_job(job, search, key="debug-job", known=solver.candidates(thread))
    return busy


def run_controls(solver, thread: str, busy: bool) -> None:
    """Go on with a paused solve one node at a time or to the end; carry on an interrupted one (the person who
    started it, or an admin: anyone may fork it)."""
    started_by = solver.store.person(thread)
    if not state.person.may_stop(started_by):
        st.caption(f"Started by {started_by_words(state.person, started_by)}: only they (or an admin) can go on with "
                   "it. Fork any step below to try changes of your own.")
        return
    paused = solver.paused_before(thread)
    interrupted = solver.store.status(thread) == "interrupted" and not busy
    question = solver.question(thread) if paused == "ask" and not busy else None
    if question is not None:
        # Going on would only put the same question again: it waits for an answer, which the Playground takes.
        st.info(f"**This solve waits for an answer.** {plain(question.words())}", icon=QUESTION_ICON)
        if st.button("Answer it in the Playground", type="primary"):
            st.switch_page("views/playground.py", query_params={"solve": thread})
        return
    if interrupted and not paused and solver.can_restart(thread):
        st.warning("**Interrupted:** the process running this solve stopped (killed or restarted) before it wrote "
                   "its first checkpoint. Its task and tests are kept.")
        if st.button("Start it again", type="primary"):
            _start("Start again", thread, partial(solver.restart, thread))
    elif paused and interrupted:
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


def outcome_words(branch: Branch) -> str:
    """'passed', 'not solved', 'paused before executor' ..."""
    if branch.outcome == "paused":
        return f"paused before {branch.next_node}"
    return PLAIN_STATUS.get(branch.outcome, branch.outcome)


def branch_words(branch: Branch) -> str:
    """'fork 1 from step 2, edited code · 3 checkpoints · 1 candidate · passed'."""
    where = "the solve as run" if branch.fork_of is None else \
        f"fork {branch.number} from step {branch.fork_step}, {branch.how}"
    return f"{where} · {_count(len(branch.checkpoints), 'checkpoint')} · {_count(branch.candidates, 'candidate')} · " \
           f"{outcome_words(branch)}"


def _count(n: int, thing: str) -> str:
    return f"{n} {thing}{'' if n == 1 else 's'}"


def _node_name(step: Step) -> str:
    return {"__start__": "input", None: "end"}.get(step.next_node, step.next_node)


def tree_dot(steps: list[Step], found: list[Branch]) -> str:
    """Graphviz source: a node per checkpoint, coloured by branch; each branch's last node names its outcome."""
    by_id = {s.checkpoint_id: s for s in steps}
    lines = ["digraph { rankdir=LR; node [shape=box, style=rounded, fontsize=10, fontname=sans]; edge [fontsize=9];"]
    for branch in found:
        colour = BRANCH_COLOURS[branch.number % len(BRANCH_COLOURS)]
        for checkpoint in branch.checkpoints:
            s = by_id[checkpoint]
            label = f"{s.step}: {_node_name(s)}\\n{s.iteration} cand."
            if checkpoint == branch.head:
                label += f"\\n{'fork ' + str(branch.number) if branch.number else 'original'}: {outcome_words(branch)}"
            pen = ", penwidth=2" if checkpoint == branch.head else ""
            lines.append(f'"{checkpoint}" [label="{label}", color="{colour}"{pen}];')
            if s.parent_id in by_id:
                edge = f', label="{branch.how}"' if checkpoint == branch.checkpoints[0] and branch.fork_of else ""
                lines.append(f'"{s.parent_id}" -> "{checkpoint}" [color="{colour}"{edge}];')
    return "\n".join(lines + ["}"])


def checkpoint_tree(steps: list[Step], found: list[Branch]) -> None:
    """The checkpoints as a tree: forks branch off the step they came from; each branch says how it ended."""
    st.subheader("Checkpoint tree")
    st.graphviz_chart(tree_dot(steps, found), alt="Checkpoint tree: " + "; ".join(
        f"branch {b.number}: {branch_words(b)}" for b in found))
    for branch in found:
        mark = STATUS_MARKS.get(branch.outcome, "")
        st.markdown(f"**{'Original' if branch.fork_of is None else f'Fork {branch.number}'}** — {mark}"
                    f"{branch_words(branch)}")


def checkpoint_options(found: list[Branch]) -> list[str]:
    """Checkpoint ids in reading order: the solve as run, then each fork's own checkpoints."""
    return [c for b in found for c in b.checkpoints]


def checkpoint_label(step: Step, branch: Branch) -> str:
    where = "" if branch.fork_of is None else f"fork {branch.number} · "
    return f"{where}step {step.step}: next {_node_name(step)}"


def compare_checkpoints(solver, thread: str, options: list[str], labels: dict[str, str], first_failing: int) -> None:
    """Two checkpoints side by side: the code diff, the report diff, which tests changed, messages added."""
    st.subheader("Compare two checkpoints")
    start = first_failing if first_failing < len(options) - 1 else 0
    low, high = st.select_slider("Checkpoints to compare", options=range(len(options)),
                                 value=(start, len(options) - 1), format_func=lambda i: labels[options[i]],
                                 key=f"compare-{thread}-{len(options)}",
                                 help="from the left checkpoint to the right one")
    a, b = options[low], options[high]
    changes = step_changes(solver.state_at(thread, a), solver.state_at(thread, b), labels[a], labels[b])
    st.caption(f"From **{labels[a]}** to **{labels[b]}** · status {changes.status_before} → {changes.status_after}"
               + (f" · candidates added: {', '.join(f'#{n}' for n in changes.candidates_added)}"
                  if changes.candidates_added else ""))
    for note in changes.notes:
        st.caption(note)
    if changes.unchanged:
        st.write("Nothing changed between these checkpoints.")
        return
    code, report, verdicts, messages = st.tabs(["Code diff", "Report diff", "Test verdicts", "Messages added"])
    with code:
        st.code(changes.code_diff or "(the code is the same)", language="diff")
    with report:
        st.code(changes.report_diff or "(the failure report is the same)", language="diff")
    with verdicts:
        if not changes.tests:
            st.write("No visible test changed its verdict.")
        for test in changes.tests:
            st.markdown(f"`{test.name}`: {test.before or 'not run'} → **{test.after or 'not run'}**")
    with messages:
        if not changes.messages_added:
            st.write("No message was added to the conversation.")
        for message in changes.messages_added:
            st.markdown(f"**{message['role']}**")
            st.code(message["content"], language="markdown")


def _jump(key: str, index: int) -> None:
    state[key] = index


def step_view(solver, thread: str, steps: list[Step], options: list[str], labels: dict[str, str],
              first_failing: int | None, busy: bool, strategy: str) -> None:
    """One checkpoint in full: its candidates, report, the messages sent, and forks from it."""
    st.subheader("Step through the checkpoints")
    key = f"step-{thread}-{len(options)}"
    if first_failing is not None:
        st.button("Jump to the first failing iteration", on_click=_jump, args=(key, first_failing),
                  help="the first checkpoint where a candidate fails its visible tests")
    state.setdefault(key, len(options) - 1)  # the newest checkpoint, until a jump or the user moves it
    choice = st.select_slider("Checkpoint", options=range(len(options)), format_func=lambda i: labels[options[i]],
                              key=key)
    step = next(s for s in steps if s.checkpoint_id == options[choice])
    values = solver.state_at(thread, step.checkpoint_id)
    drawn = solver.candidates(thread, step.checkpoint_id)
    picked = solver.chosen(thread, step.checkpoint_id)
    st.markdown(f"**Checkpoint** `{step.checkpoint_id}` · {labels[step.checkpoint_id]} · "
                f"{_count(len(drawn), 'candidate')} · status {values.get('status')}")
    tab_code, tab_report, tab_messages, tab_fork = st.tabs(["Candidates", "Report", "Messages sent to the model",
                                                            "Fork"])
    with tab_code:
        if picked is not None:
            st.markdown(f"**chooser** — chose #{picked.number}: {plain(picked.reason)}")
        if not drawn:
            st.write("No candidate yet at this step.")
        for i, candidate in enumerate(drawn):
            chosen = " · chosen" if picked is not None and picked.number == candidate.number else ""
            attempt_step(candidate, drawn[i - 1] if i else None, key=f"dbg-{step.checkpoint_id}-{candidate.number}",
                         extra=chosen, expanded=candidate is drawn[-1])
    with tab_report:
        if values.get("report"):
            st.caption("the current answer's report: the last candidate's, or after the chooser the chosen one's")
            render_report(values["report"])
            st.markdown("**What the model reads next**")
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
        fork_from(solver, thread, step, values, drawn, busy, strategy)


def fork_from(solver, thread: str, step: Step, values: dict, drawn: list, busy: bool, strategy: str) -> None:
    """Branch off this checkpoint with edited code (the tests run next) or an edited report (the model repairs)."""
    st.caption("Edit the last candidate's code (the tests run next) or the failure report (the model draws next). "
               "The fork continues from this step; the original branch stays in the history.")
    if drawn:
        # A fork's edited code replaces the last candidate's (the loop's executor), which after the chooser
        # need not be the chosen answer that the state's code holds: edit that one.
        new_code = code_editor(f"Code of #{drawn[-1].number}, the last candidate", drawn[-1].code,
                               key=f"fork-code-{step.checkpoint_id}")
        if st.button("Run the tests on this code", disabled=busy):
            _start(f"Fork from step {step.step} with edited code", thread,
                   partial(solver.fork, thread, step.checkpoint_id, code=new_code))
    if values.get("report"):
        if next_draw(drawn, strategy) != "repair":
            st.caption(f"With this solve's strategy ({strategy}) the next candidates are fresh samples of the "
                       "first prompt: they do not read the failure report.")
        new_feedback = st.text_area("Failure report", value=values.get("feedback", ""), height=200,
                                    key=f"fork-feedback-{step.checkpoint_id}")
        if st.button("Ask the model to repair with this report", disabled=busy):
            _start(f"Fork from step {step.step} with an edited report", thread,
                   partial(solver.fork, thread, step.checkpoint_id, feedback=new_feedback))


settings = current_settings()
st.title("Debugger")
solver = solver_or_error(settings)
if solver is None:
    st.stop()
step_mode_form(solver, settings)
# A bench run's tasks are solves too; listed with people's own, one run of 164 would push those out of the list.
with_bench = st.checkbox("Include the solves of bench runs", key="debug_with_bench",
                         help="each task of a bench run started in this app is a solve you can step through")
solves = solver.store.solves(origin=None if with_bench else "")
if not solves and not state.get("debug_thread"):
    st.info("No solves yet: run one in the playground or start a step-mode solve above"
            + ("." if with_bench else ", or include the solves of bench runs."))
    st.stop()
thread = pick_solve(solves)
# The solve's own search, not the sidebar's: a fork with a report may have raised the budget by one.
solve_search = solver.search_of(thread)
st.caption(f"This solve's search: **{describe_search(solve_search)}**")
lineage_panel(solver, thread, solves)
questions_panel(solver, thread)
busy = job_panel(solver, thread, solve_search)
run_controls(solver, thread, busy)
steps = solver.steps(thread)
if not steps:
    # A solve that is starting, or was interrupted before its first checkpoint, has none yet: not a lost file.
    if not busy and solver.store.status(thread) not in ("running", "interrupted"):
        st.info("This solve's checkpoints are not in this data directory (a bench run made elsewhere, or a "
                "deleted file).")
    st.stop()
if len(steps) < 2:
    st.stop()
found = branches(steps)
options = checkpoint_options(found)
branch_of = {c: b for b in found for c in b.checkpoints}
by_id = {s.checkpoint_id: s for s in steps}
labels = {c: checkpoint_label(by_id[c], branch_of[c]) for c in options}
failing = solver.first_failing_step(thread)
first_failing = options.index(failing.checkpoint_id) if failing is not None else None
checkpoint_tree(steps, found)
compare_checkpoints(solver, thread, options, labels, first_failing or 0)
step_view(solver, thread, steps, options, labels, first_failing, busy, solve_search.strategy)
