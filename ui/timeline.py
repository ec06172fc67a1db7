"""Render a solve's events as a timeline of steps: each candidate (or round of samples) with its verdict in one
line, what the route decides next, and the chooser's pick. A pure function of the events so far, redrawn live.

Each candidate is a step that opens on its details (code, or for a repair the diff against the candidate it
repairs); a step the user closes stays closed where it is, across redraws: its open state is a widget's, kept
under a key, so the live redraws and the final one agree.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence

import streamlit as st

from agent import RunFinished
from agent.config import Search
from agent.loop.candidates import Candidate, drawing_speed
from agent.loop.questions import PERSON, Asked, Question
from agent.solves.events import Event
from agent.solves.history import code_diff, next_draw
from agent.solves.story import (
    Answered,
    Chooser,
    Drawn,
    Failure,
    Route,
    Story,
    Writing,
    asking_words,
    passed_words,
    story_of,
)
from sandbox import TestReport

PER_ROW = 3  # candidates side by side; narrower columns would wrap every line of code
PASS_ICON, FAIL_ICON, WAIT_ICON = ":material/check_circle:", ":material/cancel:", ":material/hourglass_top:"
PASS_MARK, FAIL_MARK = f":green[{PASS_ICON}]", f":red[{FAIL_ICON}]"
NEXT_WORDS = {"repair": "a repair of the last candidate from its failure report",
              "sample": "fresh samples of the first prompt"}
ENV_ERROR_WORDS = "the sandbox cannot run this"  # a solve's env_error: the sandbox lacks what the code or tests import
# A solve's unsupported: its answer passes every test the sandbox can judge; the others do what it cannot run as one
# process would. Also a candidate's verdict then, and a test's.
UNSUPPORTED_WORDS = "not judged: the sandbox cannot run this as one process would"
UNJUDGED_MARK = ":orange[:material/block:]"
WRITING_WORDS = {"first": "the first answer", "repair": "a repair", "sample": "fresh samples",
                 "doubt": "more samples, to doubt a pass on thin tests"}
QUESTION_ICON = ":material/contact_support:"
_MARKDOWN_SPECIALS = str.maketrans({c: "\\" + c for c in "\\`*_[]<>$~"})


def plain(text: str) -> str:
    """Text shown as it is inside Markdown (labels and lines): values like a_b or $5 must not turn into markup, and a
    run of spaces (an input such as '   hello') keeps its length instead of collapsing to one."""
    return spaces_kept(text.translate(_MARKDOWN_SPECIALS))


def spaces_kept(text: str) -> str:
    """text with each run of spaces kept at its length where a page collapses it (Markdown, a table's cell): every
    space but a run's last is a no-break space."""
    return re.sub(" (?= )", "\u00a0", text)


def code_span(text: str) -> str:
    """text as a Markdown code span, shown as written, spaces included (a call a person must read exactly); a run of
    backticks inside gets a longer fence."""
    fence = "`" * (max((len(run) for run in re.findall("`+", text)), default=0) + 1)
    pad = " " if text.startswith("`") or text.endswith("`") else ""
    return f"{fence}{pad}{text}{pad}{fence}"


def question_markdown(question: Question) -> str:
    """A question's words as Markdown, its call (and an argument it asks about) a code span, read exactly, spaces
    included, and the rest plain."""
    return question.words(code=code_span, prose=plain)


def kind_words(candidate: Candidate) -> str:
    """'first answer', 'repair of #1', 'sample', with 'code edited in the debugger' when a fork changed it."""
    words = {"first": "first answer", "sample": "sample"}.get(candidate.kind, candidate.kind)
    if candidate.repairs is not None:
        words = f"repair of #{candidate.repairs}"
    return words + (" (code edited in the debugger)" if candidate.forked else "")


def verdict_word(candidate: Candidate) -> str:
    """'passes', 'fails', or 'passes what can be judged' (the other tests unsupported), never a mark alone."""
    return ("passes" if candidate.passed else "passes what can be judged" if candidate.passes_what_can_be_judged
            else "fails")


def verdict_line(candidate: Candidate) -> str:
    """'#2 passes — 3 of 3 visible tests pass': a word for pass or fail besides the mark (colour alone would not
    carry it) and, for a failure, the first failing test with the two values it compared."""
    if not candidate.ran:
        return f"**#{candidate.number}** — not run yet"
    mark = PASS_MARK if candidate.passed else UNJUDGED_MARK if candidate.passes_what_can_be_judged else FAIL_MARK
    return f"{mark} **#{candidate.number} {verdict_word(candidate)}** — {plain(candidate.headline())}"


def attempt_label(candidate: Candidate) -> str:
    """The one line a candidate's step shows closed: number, how it was drawn, verdict and first failure."""
    if not candidate.ran:
        return f"**#{candidate.number} · {kind_words(candidate)}** — running the visible tests"
    return (f"**#{candidate.number} · {kind_words(candidate)} · {verdict_word(candidate)}** — "
            f"{plain(candidate.headline())}")


def step_icon(candidate: Candidate) -> str:
    if not candidate.ran:
        return WAIT_ICON
    return PASS_ICON if candidate.passed else ":material/block:" if candidate.passes_what_can_be_judged else FAIL_ICON


def speed_caption(candidate: Candidate, *, alone: bool = True) -> str:
    """'41 tokens in 2.6 s · 15.8 tokens/s · 212 of 400 prompt tokens from the cache', and how it was drawn when
    that matters (temperature, seed, a warmer retry). alone is False inside a round, which shows its own speed."""
    parts = [f"{candidate.tokens_out} tokens"]
    if alone:
        parts[0] += f" in {candidate.seconds_model:.1f} s (reading the prompt included)"
        if candidate.tokens_per_second:
            parts.append(f"{candidate.tokens_per_second:.1f} tokens/s")
    if candidate.prompt_tokens_reused is not None and candidate.tokens_in:
        parts.append(f"{candidate.prompt_tokens_reused} of {candidate.tokens_in} prompt tokens from the cache")
    if candidate.temperature is not None:
        parts.append(f"temperature {candidate.temperature:g}")
    if candidate.seed is not None and candidate.kind == "sample":
        parts.append(f"seed {candidate.seed}")
    if candidate.resampled:
        parts.append("the model repeated earlier code, so it was asked again, warmer")
    return " · ".join(parts)


def render_report(report: TestReport | dict) -> None:
    """Each visible test, and for failures the line, the compared values, the error and the traceback."""
    parsed = report if isinstance(report, TestReport) else TestReport.from_dict(report)
    st.caption(f"sandbox: {parsed.status} · isolation {parsed.isolation or '?'}")
    if parsed.error:
        st.warning(parsed.error)
    for test in parsed.tests:
        if test.passed:
            st.markdown(f"{PASS_MARK} passes: `{test.name}`")
            continue
        if test.unsupported:
            st.markdown(f"{UNJUDGED_MARK} {UNSUPPORTED_WORDS}: `{test.name}`")
        else:
            st.markdown(f"{FAIL_MARK} fails: `{test.name}`")
        st.code(test.describe(), language="text")
    for name, text, cut in (("stdout", parsed.stdout, parsed.stdout_truncated),
                            ("stderr", parsed.stderr, parsed.stderr_truncated)):
        if text.strip():
            st.markdown(f"**{name}**{' (truncated)' if cut else ''}")
            st.code(text[-5000:], language="text")


def attempt_details(candidate: Candidate, previous: Candidate | None, *, speed: bool = True) -> None:
    """A candidate's caption, then tabs: for a repair its diff against the candidate it repairs (shown first),
    its code, and each visible test's verdict."""
    if speed:
        st.caption(speed_caption(candidate))
    if candidate.note:
        st.caption(candidate.note)
    if candidate.removed:
        st.caption("removed: " + ", ".join(f"`{label}`" for label in candidate.removed)
                   + " (the model's own tests and demos, taken out before the code was judged)")
    if candidate.extract_error:
        st.warning(f"No usable code: {candidate.extract_error}")
        st.code(candidate.answer, language="markdown")
        return
    names = []
    repaired = previous if candidate.repairs is not None and previous is not None and previous.code else None
    if repaired is not None:
        names.append(f"Diff against #{repaired.number}")
    names.append("Code")
    if candidate.ran:
        names.append("Visible tests")
    tabs = dict(zip(names, st.tabs(names)))
    if repaired is not None:
        with tabs[names[0]]:
            st.code(code_diff(repaired.code, candidate.code, f"#{repaired.number}", f"#{candidate.number}")
                    or "(no change)", language="diff")
    with tabs["Code"]:
        st.code(candidate.code or "(no code)", language="python")
    if candidate.ran:
        with tabs["Visible tests"]:
            render_report(candidate.report)


def attempt_step(candidate: Candidate, previous: Candidate | None, *, key: str, extra: str = "",
                 expanded: bool = True) -> None:
    """One candidate as a timeline step: its one-line verdict, opening on its details. The step's open state is
    kept under key, so a step the user closes stays closed on every redraw."""
    with st.expander(attempt_label(candidate) + extra, expanded=expanded, key=key, on_change="rerun", type="step",
                     icon=step_icon(candidate)):
        # Drawn closed too: a step with no content is drawn as the timeline's end, which cannot be opened again.
        attempt_details(candidate, previous)


def side_by_side(items: Sequence[Candidate], draw: Callable[[Candidate], None]) -> None:
    """Draw each candidate in a column of its own, PER_ROW to a row."""
    for start in range(0, len(items), PER_ROW):
        row = items[start:start + PER_ROW]
        for column, item in zip(st.columns(PER_ROW if len(items) > PER_ROW else len(row)), row):
            with column:
                draw(item)


# --- drawing -------------------------------------------------------------------------------------------------


def _draw_drawn(entry: Drawn, key: str) -> None:
    drawn = [entry.by_number[n] for n in entry.numbers]
    if len(drawn) == 1 and not entry.judged_again:
        candidate = drawn[0]
        attempt_step(candidate, entry.previous.get(candidate.number), key=f"{key}-{candidate.number}")
        return
    tokens, seconds, rate = drawing_speed(drawn)
    passing = [c for c in drawn if c.passed]
    verdict = ("running the visible tests" if not all(c.ran for c in drawn) else
               f"{len(passing)} of {len(drawn)} pass every visible test")
    if entry.judged_again:
        what = "judged again with the test your answer added"
    elif all(c.kind == "doubt" for c in drawn):
        what = f"{len(drawn)} more samples, since your tests are thin: do answers that pass disagree?"
    else:
        what = f"a round of {len(drawn)} fresh samples"
    label = f"**#{drawn[0].number}–#{drawn[-1].number} · {what}** — {verdict}"
    icon = WAIT_ICON if not all(c.ran for c in drawn) else PASS_ICON if passing else FAIL_ICON
    with st.expander(label, expanded=True, key=f"{key}-{drawn[0].number}-{drawn[-1].number}", on_change="rerun",
                     type="step", icon=icon):
        if entry.judged_again:
            st.caption("no model time: each candidate runs against your tests, the new one included")
        else:
            st.caption(f"decoded together: {tokens} tokens in {seconds:.1f} s"
                       + (f" · {rate:.1f} tokens/s" if rate else "") + "; each runs against the visible tests")
        if entry.doubt and entry.doubt.inputs_words():
            st.caption(entry.doubt.inputs_words())

        def draw(candidate: Candidate) -> None:
            st.markdown(verdict_line(candidate))
            st.caption(speed_caption(candidate, alone=False))
            st.code(candidate.code or "(no code)", language="python")

        side_by_side(drawn, draw)


def _draw_route(entry: Route, budget: int, strategy: str) -> None:
    used = len(entry.everyone)
    if entry.status == "running":
        upcoming = next_draw(entry.everyone, strategy)
        label = (f"**route: draw more** — no candidate passes the visible tests yet; {used} of {budget} candidates "
                 f"used — next: {NEXT_WORDS.get(upcoming, upcoming)}")
        icon = ":material/replay:"
    elif entry.status == "passed":
        passing = ", ".join(f"#{c.number}" for c in entry.everyone if c.passed)
        label = f"**route: stop** — every visible test passes ({passing})" + (
            " — the chooser picks the answer next" if used > 1 else "")
        icon = ":material/stop_circle:"
    elif entry.status in ("env_error", "unsupported"):
        words = ENV_ERROR_WORDS if entry.status == "env_error" else "the other tests cannot be judged here"
        label = f"**route: stop** — {words}: {plain(entry.update.get('error') or '')}" + (
            " — the chooser picks the answer next" if used > 1 else "")
        icon = ":material/block:"
    else:
        spent = (f"the budget is spent: {used} of {budget} candidates used" if used >= budget else
                 f"the token budget is spent after {used} of {budget} candidates")
        label = (f"**route: stop** — {spent}, and none passes every visible test"
                 + ("; the chooser picks the answer next" if used > 1 else ""))
        icon = ":material/stop_circle:"
    with st.expander(label, type="step", icon=icon):
        st.caption("The route reads the visible tests' verdicts and the budget; the hidden tests play no part.")


def _numbers(numbers: Sequence[int]) -> str:
    return ", ".join(f"#{n}" for n in numbers) or "none"


def asked_line(asked: Asked) -> str:
    """'double(4): answered returns 8 — a test added; kept #2, #4, #5, dropped #1, #3', 'double(4): skipped', or for
    a row the person corrected 'double(4): corrected to returns 8 (the answer returns 7) — a test added; ...'."""
    words = asked.reply.words(asked.question)
    call = asked.question.subject(code=code_span, prose=plain)
    if asked.by == PERSON and asked.added is not None:
        line = f"{call}: corrected to {plain(words)} (the answer {plain(asked.added.answered)})"
    else:
        line = f"{call}: " + ("skipped" if asked.reply.skipped else f"answered {plain(words)}")
    if asked.added is not None:
        line += f" — a test added; kept {_numbers(asked.kept)}, dropped {_numbers(asked.dropped)}"
    return line


def asked_details(asked: Asked) -> None:
    """A question the solve put and its answer (or a row the person corrected): the question's words, each choice
    with the candidates that gave it, the reply, and the test it added."""
    if asked.by == PERSON:
        st.markdown(f"You marked this row of answer #{asked.answer_before}'s table wrong. What the candidates that "
                    f"passed give on {code_span(asked.question.call)}:")
    else:
        st.markdown(question_markdown(asked.question))
    for option in asked.question.options:
        picked = asked.added is not None and option.candidates == asked.kept
        st.markdown(f"- {plain(option.words())} — given by {_numbers(option.candidates)}"
                    + (" · **your answer**" if picked else ""))
    if asked.reply.skipped:
        st.caption("Skipped: no test added, every candidate kept.")
    elif asked.added is not None:
        st.caption(f"The answer, {plain(asked.reply.words(asked.question))}, added this test to the tests; the "
                   "candidates that disagree with it dropped out, with no model time:")
        st.code(asked.added.test, language="python")


def _draw_answered(entry: Answered) -> None:
    kind = "correction" if entry.asked.by == PERSON else "question"
    with st.expander(f"**{kind}** — {asked_line(entry.asked)}", type="step", icon=QUESTION_ICON):
        asked_details(entry.asked)


def _draw_chooser(entry: Chooser) -> None:
    picked = entry.picked
    if picked is None:
        with st.expander("**chooser** — nothing to choose", type="step", icon=":material/how_to_vote:"):
            st.caption(f"step {entry.step}")
        return
    label = f"**chooser** — chose #{picked.number}: {plain(picked.reason)}"
    with st.expander(label, expanded=True, type="step", icon=":material/how_to_vote:"):
        st.caption(f"step {entry.step} · chosen by the visible tests and by what the candidates return on probe "
                   "inputs; the hidden tests play no part")
        chosen = next((c for c in entry.known if c.number == picked.number), None)
        if chosen is None:
            return
        eligible = [c for c in entry.known if c.number in picked.eligible]

        def draw(candidate: Candidate) -> None:
            badge = " :blue-badge[:material/star: chosen]" if candidate.number == picked.number else ""
            st.markdown(f"**#{candidate.number} · {kind_words(candidate)}**{badge}")
            st.markdown(verdict_line(candidate))
            if candidate.number != picked.number and candidate.signature and candidate.signature == chosen.signature:
                st.caption(f"returns the same values as #{picked.number} on the probe inputs")
            # No code here: each candidate's own step holds it, and a long solve should not list it twice.

        side_by_side(eligible, draw)


def _draw_final(story: Story, more_below: bool) -> None:
    """The verdict banner: each way a solve ends in its own words (and icon), never by colour alone; a pass says what
    was checked (agent.solves.story.passed_words)."""
    final: RunFinished = story.final
    if final.status == "interrupted":
        where = f"before **{final.next_node}** finished" if final.next_node else "before its first checkpoint"
        st.warning(f"**Interrupted** {where}: the process running this solve stopped (killed or restarted). "
                   "Its steps are kept; the debugger can carry it on.", icon=":material/warning:")
    elif final.paused and final.next_node == "ask" and final.asking:
        st.info(f"**A question first.** {plain(asking_words(story))}", icon=QUESTION_ICON)
    elif final.paused and final.next_node == "ask":
        st.info("**Stopped before its question.** The answers that pass your tests disagree on inputs your tests do "
                "not check; carried on (the debugger's Run to the end, or Next step), the solve puts its question.")
    elif final.paused:
        st.info(f"Paused before **{final.next_node}**.")
    elif final.status == "passed":
        st.success(plain(passed_words(story, more_below=more_below)).replace("Passed", "**Passed**", 1),
                   icon=":material/check_circle:")
    elif final.status == "gave_up":
        st.error(f"**Not solved**: no candidate passes every visible test after {final.iterations} candidates.",
                 icon=":material/cancel:")
    elif final.status == "env_error":
        # Not the model's failure and not a spent budget: what the sandbox lacks, and what to do about it.
        st.warning(f"**Stopped: {ENV_ERROR_WORDS}** — {final.error}", icon=":material/block:")
    elif final.status == "unsupported":
        # Not solved and not failed: the answer passes what can be judged, and repairing it would change correct code.
        st.warning(f"**Stopped, {UNSUPPORTED_WORDS}** — {final.error}. Nothing was repaired for it: the code was "
                   "not shown to be wrong.", icon=":material/block:")
    else:
        st.error(f"**Stopped with an error**: {final.error}", icon=":material/error:")


def draw_timeline(events: list[Event], *, search: Search, key: str, known: list[Candidate] | None = None,
                  more_below: bool = False) -> None:
    """Draw the events of one solve (or of a step, fork or resume of it) as timeline steps where this is called.

    search is the solve's own (agent.config.stored_search); known are its candidates from before the first event,
    for a job that starts mid-solve. key prefixes the steps' widget keys and must be unique on the page. more_below:
    the page shows under the timeline what the answer does on other inputs, and a pass's verdict points there."""
    known = list(known or [])
    story = story_of(events, search.strategy, known)
    thread = events[0].thread_id if events else "none"
    prefix = f"{key}-{thread}"
    for index, entry in enumerate(story.entries):
        if isinstance(entry, Drawn):
            # The same candidates may be judged again after each answer: each time is a step of its own.
            _draw_drawn(entry, f"{prefix}-again-{index}" if entry.judged_again else prefix)
        elif isinstance(entry, Route):
            _draw_route(entry, search.budget, search.strategy)
        elif isinstance(entry, Chooser):
            _draw_chooser(entry)
        elif isinstance(entry, Answered):
            _draw_answered(entry)
        elif isinstance(entry, Writing):
            what = WRITING_WORDS.get(entry.kind, "an answer")
            with st.expander(f"**#{entry.number} · the model is writing {what}**", expanded=True, type="step",
                             icon=":material/edit_note:"):
                st.code(entry.text or "…", language="markdown")
        elif isinstance(entry, Failure):
            st.error(entry.text)
    if story.final is not None:
        _draw_final(story, more_below)
