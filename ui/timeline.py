"""Render a solve's events as a timeline of cards: coder, executor, route and chooser, one per node transition."""

from __future__ import annotations

import difflib
import time
from collections.abc import Callable, Sequence

import streamlit as st

from agent import NodeFinished, NodeStarted, RunFinished, Token
from agent.candidates import Candidate, ChoiceView, candidates, choice, judged_now
from agent.events import Event
from agent.nodes import next_kind
from sandbox import TestReport

ICONS = {"coder": ":material/psychology:", "executor": ":material/science:", "chooser": ":material/how_to_vote:"}
PER_ROW = 3  # candidates side by side; narrower columns would wrap every line of code
PASS_MARK = ":green[:material/check_circle:]"
FAIL_MARK = ":red[:material/cancel:]"
NEXT_WORDS = {"repair": "a repair of the last candidate from its failure report",
              "sample": "fresh samples of the first prompt"}


def code_diff(previous: str, current: str) -> str:
    """Unified diff between two candidates (difflib)."""
    return "".join(difflib.unified_diff(previous.splitlines(True), current.splitlines(True),
                                        "previous candidate", "this candidate"))


def render_report(report: TestReport | dict) -> None:
    """Each visible test, and for failures the line, the compared values, the error and the traceback."""
    parsed = report if isinstance(report, TestReport) else TestReport.from_dict(report)
    if parsed.error:
        st.warning(parsed.error)
    for test in parsed.tests:
        if test.passed:
            st.markdown(f"{PASS_MARK} `{test.name}`")
            continue
        st.markdown(f"{FAIL_MARK} `{test.name}`")
        st.code(test.describe(), language="text")
    for name, text, cut in (("stdout", parsed.stdout, parsed.stdout_truncated),
                            ("stderr", parsed.stderr, parsed.stderr_truncated)):
        if text.strip():
            with st.expander(f"{name}{' (truncated)' if cut else ''}"):
                st.code(text[-5000:], language="text")


def verdict_line(candidate: Candidate) -> str:
    """The candidate's headline with a mark and a word for pass or fail (colour alone would not carry it)."""
    mark, word = (PASS_MARK, "passes") if candidate.passed else (FAIL_MARK, "fails")
    return f"{mark} **#{candidate.number} {word}** — {candidate.headline()}"


def candidate_caption(candidate: Candidate) -> str:
    """'#n · kind · tokens · seconds', and how it was drawn when that matters (sampling, cache, a warmer retry)."""
    parts = [f"#{candidate.number}", candidate.kind, f"{candidate.tokens_out} tokens",
             f"{candidate.seconds_model:.1f}s"]
    if candidate.temperature is not None:
        parts.append(f"temperature {candidate.temperature:g}")
    if candidate.seed is not None and candidate.kind == "sample":
        parts.append(f"seed {candidate.seed}")
    if candidate.prompt_tokens_reused:
        parts.append(f"{candidate.prompt_tokens_reused} prompt tokens reused from cache")
    if candidate.resampled:
        parts.append("the model repeated earlier code, so it was asked again, warmer")
    if candidate.forked:
        parts.append("code edited in the debugger")
    return " · ".join(parts)


def side_by_side(items: Sequence[Candidate], draw: Callable[[Candidate], None]) -> None:
    """Draw each candidate in a column of its own, PER_ROW to a row."""
    for start in range(0, len(items), PER_ROW):
        row = items[start:start + PER_ROW]
        for column, item in zip(st.columns(PER_ROW if len(items) > PER_ROW else len(row)), row):
            with column:
                draw(item)


def show_candidate(candidate: Candidate, previous: Candidate | None) -> None:
    """A candidate's caption and code; for a repair, its diff against the candidate it repaired."""
    st.caption(candidate_caption(candidate))
    if candidate.note:
        st.caption(candidate.note)
    if candidate.extract_error:
        st.warning(f"No usable code: {candidate.extract_error}")
        with st.expander("the model's answer"):
            st.code(candidate.answer, language="markdown")
        return
    st.code(candidate.code, language="python")
    if candidate.kind == "repair" and previous is not None and previous.code:
        with st.expander("diff against the previous candidate"):
            st.code(code_diff(previous.code, candidate.code) or "(no change)", language="diff")


class Timeline:
    """Feeds events into cards inside a container; works live (tokens) and on replay (stored events).

    max_retries and strategy are the solve's own (its budget is max_retries + 1 candidates). known seeds the
    candidates drawn before the first event, for a job that starts mid-solve (a debugger step to the chooser).
    """

    def __init__(self, container, max_retries: int, strategy: str, known: list[Candidate] | None = None) -> None:
        self.container, self.budget, self.strategy = container, max_retries + 1, strategy
        self.known: list[Candidate] = list(known or [])
        self.card = None
        self.heading = None
        self.stream = None
        self.streamed = ""
        self.last_paint = 0.0

    def handle(self, event: Event) -> None:
        """Draw one event: a node's card opens on NodeStarted and fills on NodeFinished."""
        if isinstance(event, NodeStarted):
            self.card = self.container.container(border=True)
            self.heading = self.card.empty()  # the chooser rewrites it with its pick
            self.heading.markdown(f"**{ICONS.get(event.node, '')} {event.node}** · step {event.step}")
            self.stream, self.streamed = (self.card.empty(), "") if event.node == "coder" else (None, "")
        elif isinstance(event, Token) and self.stream is not None:
            self.streamed += event.text
            if time.monotonic() - self.last_paint > 0.15:  # repainting on every token would flood the browser
                self.stream.code(self.streamed, language="markdown")
                self.last_paint = time.monotonic()
        elif isinstance(event, NodeFinished):
            if self.card is None:  # a job that started inside this node: its NodeStarted came before the job
                self.card = self.container.container(border=True)
                self.heading = self.card.empty()
                self.heading.markdown(f"**{ICONS.get(event.node, '')} {event.node}** · step {event.step}")
            with self.card:
                self._finished(event)
            self.card = self.heading = None
        elif isinstance(event, RunFinished):
            self._verdict(event)

    def flush(self) -> None:
        """Paint the tokens the throttle held back (after replaying a list of events in one go)."""
        if self.stream is not None and self.streamed:
            self.stream.code(self.streamed, language="markdown")

    def _finished(self, event: NodeFinished) -> None:
        update = event.update
        if event.error:
            st.error(f"The {event.node} node failed: {event.error}")
            return
        if event.node == "coder":
            self._coder(update)
        elif event.node == "executor":
            self._executor(update)
        elif event.node == "chooser":
            self._chooser(choice(update), event.step)

    def _coder(self, update: dict) -> None:
        if self.stream is not None:
            self.stream.empty()
        if update.get("status") == "error":
            st.error(update.get("error"))
            return
        drawn = candidates(update)
        if drawn:
            self.known = drawn
        # The coder's update lists every candidate so far; this step's are the ones not run yet.
        new = [c for c in drawn if not c.ran] or drawn[-1:]
        previous = {c.number: drawn[i - 1] for i, c in enumerate(drawn) if i > 0}
        if len(new) > 1:
            st.caption(f"a round of {len(new)} fresh samples, drawn together; each runs against the visible tests next")
            side_by_side(new, lambda c: show_candidate(c, previous.get(c.number)))
        elif new:
            show_candidate(new[0], previous.get(new[0].number))

    def _executor(self, update: dict) -> None:
        everyone = candidates(update)
        if everyone:
            self.known = everyone
        numbers = judged_now(update)
        judged = [c for c in everyone if c.number in numbers]
        for candidate in judged:
            report = candidate.report
            st.markdown(verdict_line(candidate))
            where = f"sandbox: {report.status} · {candidate.seconds_tests:.2f}s · isolation {report.isolation or '?'}"
            # One candidate's report is the card's content; with a round of several, the headlines come first.
            with st.expander(f"#{candidate.number}: every visible test · {where}",
                             expanded=len(judged) == 1):
                render_report(report)
        self._route(update.get("status"), update)

    def _route(self, status: str | None, update: dict) -> None:
        used = len(self.known)
        with self.container.container(border=True):
            if status == "running":
                upcoming = next_kind({"attempts": update.get("attempts") or [], "strategy": self.strategy})
                st.markdown(f"**:material/replay: route: draw more** — no candidate passes the visible tests yet; "
                            f"{used} of {self.budget} candidates used — next: {NEXT_WORDS.get(upcoming, upcoming)}")
            elif status == "passed":
                passing = ", ".join(f"#{c.number}" for c in self.known if c.passed)
                then = " — the chooser picks the answer next" if used > 1 else ""
                st.markdown(f"**:material/stop_circle: route: stop** — every visible test passes ({passing}){then}")
            else:
                spent = (f"the budget is spent: {used} of {self.budget} candidates used" if used >= self.budget else
                         f"the token budget is spent after {used} of {self.budget} candidates")
                then = "; the chooser picks the answer next" if used > 1 else ""
                st.markdown(f"**:material/stop_circle: route: stop** — {spent}, and none passes every visible "
                            f"test{then}")

    def _chooser(self, picked: ChoiceView | None, step: int) -> None:
        icon = ICONS["chooser"]
        if picked is None:
            self.heading.markdown(f"**{icon} chooser** · step {step} — nothing to choose")
            return
        self.heading.markdown(f"**{icon} chooser** — chose #{picked.number}: {picked.reason}")
        st.caption(f"step {step} · chosen by the visible tests and by what the candidates return on probe "
                   "inputs; the hidden tests play no part")
        chosen = next((c for c in self.known if c.number == picked.number), None)
        if chosen is None:
            return
        eligible = [c for c in self.known if c.number in picked.eligible]

        def draw(candidate: Candidate) -> None:
            badge = " :blue-badge[:material/star: chosen]" if candidate.number == picked.number else ""
            st.markdown(f"**#{candidate.number} · {candidate.kind}**{badge}")
            st.markdown(verdict_line(candidate))
            if candidate.number != picked.number and candidate.signature and candidate.signature == chosen.signature:
                st.caption(f"returns the same values as #{picked.number} on the probe inputs")
            with st.expander("code"):
                st.code(candidate.code, language="python")

        side_by_side(eligible, draw)

    def _verdict(self, event: RunFinished) -> None:
        if event.paused:
            self.container.info(f"Paused before **{event.next_node}**.")
        elif event.status == "passed":
            self.container.success(f"**Passed** after {event.iterations} candidate(s).", icon=":material/check_circle:")
        elif event.status == "gave_up":
            self.container.error(f"**Not solved**: no candidate passes every visible test after {event.iterations} "
                                 "candidates.", icon=":material/cancel:")
        else:
            self.container.error(f"**Stopped with an error**: {event.error}", icon=":material/error:")
