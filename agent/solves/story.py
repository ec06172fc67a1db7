"""A solve's events folded into the steps a timeline draws: each round of candidates with their verdicts, what the
route decided, the chooser's pick, the answer being written now, and how the solve ended.

A pure function of the events, apart from any page: the app's timeline (ui/timeline.py) draws what it returns.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from agent.loop.candidates import Candidate, ChoiceView, candidates_after, choice, judged_now
from agent.solves.events import Event, NodeFinished, NodeStarted, RunFinished, Token
from agent.solves.history import next_draw


@dataclass
class Drawn:
    """Candidates one coder step drew (one, or a round of samples), with their verdicts once the executor ran."""

    numbers: list[int]
    by_number: dict[int, Candidate]
    previous: dict[int, Candidate]


@dataclass
class Route:
    """What the route decided after an executor step: its status, the update, and every candidate so far."""

    status: str | None
    update: dict
    everyone: list[Candidate]  # every candidate of the solve so far


@dataclass
class Chooser:
    """The chooser's pick (None: nothing to choose), its step, and the candidates it chose among."""

    picked: ChoiceView | None
    step: int
    known: list[Candidate]


@dataclass
class Writing:
    """The model writing candidate number (of this kind) now, with the text streamed so far."""

    number: int
    kind: str
    text: str


@dataclass
class Failure:
    """A node or the model call that failed, in words."""

    text: str


@dataclass
class Story:
    """A solve's events as the steps a timeline draws, in order, and how the solve ended (None: still going)."""

    entries: list = field(default_factory=list)
    final: RunFinished | None = None


def story_of(events: list[Event], strategy: str, known: list[Candidate]) -> Story:
    """The steps of a solve's events so far, under its strategy; known are its candidates from before the first event
    (a job that starts mid-solve). A pure fold, redone on every redraw."""
    story, open_coder, streamed = Story(), None, ""
    drawn_of: dict[int, Drawn] = {}
    latest = list(known)
    for event in events:
        if isinstance(event, NodeStarted):
            if event.node == "coder":
                open_coder, streamed = event, ""
        elif isinstance(event, Token) and open_coder is not None:
            streamed += event.text
        elif isinstance(event, NodeFinished):
            if event.node == "coder":
                open_coder = None
            if event.error:
                story.entries.append(Failure(f"The {event.node} node failed: {event.error}"))
                continue
            update = event.update
            if event.node == "coder":
                if update.get("status") == "error":
                    story.entries.append(Failure(update.get("error") or "the model call failed"))
                    continue
                everyone = latest = candidates_after(latest, update)
                new = [c for c in everyone if not c.ran] or everyone[-1:]
                entry = Drawn([c.number for c in new], {c.number: c for c in new},
                               {c.number: everyone[i - 1] for i, c in enumerate(everyone) if i > 0})
                story.entries.append(entry)
                for number in entry.numbers:
                    drawn_of[number] = entry
            elif event.node == "executor":
                everyone = latest = candidates_after(latest, update)
                for candidate in everyone:
                    if candidate.number not in judged_now(update):
                        continue
                    entry = drawn_of.get(candidate.number)
                    if entry is None:  # drawn before this job began (a fork with edited code runs the tests first)
                        entry = Drawn([], {}, {c.number: everyone[i - 1] for i, c in enumerate(everyone) if i > 0})
                        story.entries.append(entry)
                        drawn_of[candidate.number] = entry
                    if candidate.number not in entry.numbers:
                        entry.numbers.append(candidate.number)
                    entry.by_number[candidate.number] = candidate
                story.entries.append(Route(update.get("status"), update, everyone))
            elif event.node == "chooser":
                story.entries.append(Chooser(choice(update), event.step, latest))
        elif isinstance(event, RunFinished):
            story.final = event
    if open_coder is not None:
        upcoming = next_draw(latest, strategy)
        story.entries.append(Writing(len(latest) + 1, upcoming, streamed))
    return story
