"""Under the verdict of a solve paused at a question (agent.loop.questions): the question in words, one button per
choice, a result typed in when none of them is right, and Skip; one question at a time.

An answer carries the solve on in the background as Run started it (agent.solves.jobs.start_job, in its turn in the
line in front of the model, with the events so far so that the timeline tells the whole solve) through
Solver.answer, and writes the same test into the tests box, so that Run keeps it. The question lives in the solve's
checkpoint, not in the page: a reload, a second tab or a restarted server shows it again.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable
from functools import partial

import streamlit as st

from agent import BadInput, LineFull, SolveJob, Solver, start_job
from agent.loop.questions import Question, Reply, answered
from agent.solves.jobs import job_for
from agent.solves.story import answer_so_far
from ui.identity import started_by_words
from ui.timeline import plain

NONE_LABEL = "None of these: the right result is ..."
TYPED_HELP = ("a Python value as in your tests ('abc', 0, [1, 2], None), or `raises` and an exception's type "
              "(raises ValueError)")
state = st.session_state


def pending_question(job: SolveJob, solver: Solver) -> Question | None:
    """The question the solve on show waits at (None when it does not wait, or is running)."""
    final = job.final
    if job.running or final is None or not final.paused or final.next_node != "ask":
        return None
    return solver.question(job.thread_id)


def _error_key(thread: str) -> str:
    return f"answer-error-{thread}"


def _answer(solver: Solver, job: SolveJob, question: Question, reply: Reply | None,
            put_tests: Callable[[str], None], show_solve: Callable[[SolveJob], None]) -> None:
    """A click on a choice, on "Use this result" (reply None: the typed text) or on Skip: carry the solve on."""
    thread = job.thread_id
    state[_error_key(thread)] = None
    if reply is None:
        reply = Reply.typed(state.get(f"answer-typed-{thread}") or "")
        if reply.returns == "":
            state[_error_key(thread)] = "type the right result first, or pick a choice, or skip"
            return
    going = job_for(thread)
    if going is not None and going.running:  # a second click, or the same person's other tab, came first
        return
    if solver.question(thread) != question:  # answered in another tab: this reply may not fit the next question
        state[_error_key(thread)] = ("this question was answered in another tab or window; reload the page to see "
                                     "the solve as it is now")
        return
    try:
        # Refuses, saying what to fix, a reply that cannot be a test; the stream it returns is not started here.
        solver.answer(thread, reply)
        solve_tests, _ = answered(solver.state_at(thread)["tests"], question, reply)
    except BadInput as exc:
        state[_error_key(thread)] = str(exc)
        return
    owner = solver.store.person(thread)
    try:
        place = solver.place_in_line(owner, thread)
    except LineFull as exc:
        state[_error_key(thread)] = str(exc)
        return
    with contextlib.suppress(BadInput):  # a tests box edited since into what takes no test stays as it is
        put_tests(answered(state.tests, question, reply)[0])
    state[f"answer-typed-{thread}"] = ""
    show_solve(start_job(partial(solver.answer, thread, reply), thread_id=thread,
                         inputs={**job.inputs, "tests": solve_tests}, person=owner, place=place, before=job.events,
                         on_leaving_line=partial(solver.store.set_status, thread, "paused")))


def question_form(job: SolveJob, solver: Solver, put_tests: Callable[[str], None],
                  show_solve: Callable[[SolveJob], None]) -> None:
    """The question the solve waits at, under its verdict, and the ways to answer it (only its owner, or an admin,
    may answer: a shared link shows it to others without them)."""
    question = pending_question(job, solver)
    if question is None:
        return
    thread = job.thread_id
    with st.container(border=True, key=f"question-{thread}"):
        st.markdown(f"**{plain(question.words())}**")
        owner = solver.store.person(thread)
        if not state.person.may_stop(owner):
            st.caption(f"Started by {started_by_words(state.person, owner)}: only they (or an admin) can answer.")
            return
        answer = partial(_answer, solver, job, question, put_tests=put_tests, show_solve=show_solve)
        st.caption("Pick what it should give: your answer becomes a test in your tests, the answers that disagree "
                   "drop out, and the solve goes on.")
        so_far = answer_so_far(solver.candidates(thread))
        for i, option in enumerate(question.options):
            pick, given = st.columns([1, 3], vertical_alignment="center")
            pick.button(plain(option.words()), key=f"answer-{thread}-{i}", on_click=answer, args=(Reply(choice=i),),
                        width="stretch")
            given.caption("given by " + ", ".join(f"#{n}" for n in option.candidates)
                          + (" — the answer so far" if so_far is not None and so_far.number in option.candidates
                             else ""))
        typed, use = st.columns([4, 1], vertical_alignment="bottom")
        typed.text_input(NONE_LABEL, key=f"answer-typed-{thread}", help=TYPED_HELP)
        use.button("Use this result", key=f"answer-use-{thread}", on_click=answer, args=(None,), width="stretch")
        st.button("Skip", key=f"answer-skip-{thread}", on_click=answer, args=(Reply(),),
                  help="no test is added; the solve asks about another input, if any, or picks its answer")
        if state.get(_error_key(thread)):
            st.error(f"**Cannot take this answer:** {plain(state[_error_key(thread)])}")
