"""A solve's events folded into the steps a timeline draws: each round of candidates with their verdicts (the doubt
batch among them), what the route decided, each question answered, the chooser's pick, the answer being written now,
and how the solve ended.

A pure function of the events, apart from any page: the app's timeline (ui/timeline.py) draws what it returns.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from agent.loop.candidates import (
    Candidate,
    ChoiceView,
    DoubtView,
    answer_among,
    candidates_after,
    choice,
    doubt_of,
    judged_now,
)
from agent.loop.choice import choose
from agent.loop.questions import Asked
from agent.solves.events import Event, NodeFinished, NodeStarted, RunFinished, Token
from agent.solves.history import next_draw

DRAWING = ("coder", "doubt")  # the nodes that draw candidates


@dataclass
class Drawn:
    """Candidates one coder step drew (one, or a round of samples), with their verdicts once the executor ran."""

    numbers: list[int]
    by_number: dict[int, Candidate]
    previous: dict[int, Candidate]
    judged_again: bool = False  # drawn earlier, judged again with the test a person's answer added
    doubt: DoubtView | None = None  # a doubt batch's record: the inputs it added to the probes


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
class Answered:
    """A question the solve put and the person's answer (the test it added, the candidates it kept and dropped)."""

    asked: Asked


@dataclass
class Failure:
    """A node or the model call that failed, in words."""

    text: str


@dataclass
class Story:
    """A solve's events as the steps a timeline draws, in order, and how the solve ended (None: still going), with
    every candidate so far and the chooser's pick (None until it picks, and when the solve stopped at one)."""

    entries: list = field(default_factory=list)
    final: RunFinished | None = None
    everyone: list[Candidate] = field(default_factory=list)
    picked: ChoiceView | None = None


def story_of(events: list[Event], strategy: str, known: list[Candidate]) -> Story:
    """The steps of a solve's events so far, under its strategy; known are its candidates from before the first event
    (a job that starts mid-solve). A pure fold, redone on every redraw."""
    story, open_coder, streamed, judging_again = Story(), None, "", False
    drawn_of: dict[int, Drawn] = {}
    latest = list(known)
    for event in events:
        if isinstance(event, NodeStarted):
            if event.node in DRAWING:
                open_coder, streamed = event, ""
        elif isinstance(event, Token) and open_coder is not None:
            streamed += event.text
        elif isinstance(event, NodeFinished):
            if event.node in DRAWING:
                open_coder = None
            if event.error:
                story.entries.append(Failure(f"The {event.node} node failed: {event.error}"))
                continue
            update = event.update
            if event.node in DRAWING:
                if update.get("status") == "error":
                    story.entries.append(Failure(update.get("error") or "the model call failed"))
                    continue
                everyone = latest = candidates_after(latest, update)
                new = [c for c in everyone if not c.ran] or everyone[-1:]
                entry = Drawn([c.number for c in new], {c.number: c for c in new},
                               {c.number: everyone[i - 1] for i, c in enumerate(everyone) if i > 0},
                              doubt=doubt_of(update) if event.node == "doubt" else None)
                story.entries.append(entry)
                for number in entry.numbers:
                    drawn_of[number] = entry
            elif event.node == "executor":
                everyone = latest = candidates_after(latest, update)
                for candidate in everyone:
                    if candidate.number not in judged_now(update):
                        continue
                    entry = drawn_of.get(candidate.number)
                    if entry is None and judging_again and story.entries and isinstance(story.entries[-1], Drawn):
                        entry = story.entries[-1]  # every candidate judged again after an answer: one step
                    if entry is None:  # drawn before this job began (a fork with edited code runs the tests first)
                        entry = Drawn([], {}, {c.number: everyone[i - 1] for i, c in enumerate(everyone) if i > 0},
                                      judging_again)
                        story.entries.append(entry)
                        drawn_of[candidate.number] = entry
                    if candidate.number not in entry.numbers:
                        entry.numbers.append(candidate.number)
                    entry.by_number[candidate.number] = candidate
                story.entries.append(Route(update.get("status"), update, everyone))
                judging_again = False
            elif event.node == "ask":  # a step that paused at its question has answered nothing yet
                # A job told from checkpoints (agent.solves.jobs.stored_job) gives each step the whole state, every
                # question so far among them; a solve never asks about one input twice, so its key tells the new ones.
                told = {e.asked.question.key for e in story.entries if isinstance(e, Answered)}
                answered = [a for a in map(Asked.from_dict, update.get("questions") or [])
                            if a.question.key not in told]
                story.entries += [Answered(a) for a in answered]
                if any(a.added for a in answered):  # every candidate is judged again: their verdicts are a new step
                    drawn_of, judging_again = {}, True
            elif event.node == "chooser":
                story.picked = choice(update)
                story.entries.append(Chooser(story.picked, event.step, latest))
        elif isinstance(event, RunFinished):
            story.final = event
    if open_coder is not None:
        upcoming = "doubt" if open_coder.node == "doubt" else next_draw(latest, strategy)
        story.entries.append(Writing(len(latest) + 1, upcoming, streamed))
    story.everyone = latest
    return story


def _your_tests(count: int) -> str:
    """'your test', 'your 3 tests', or 'your tests' when their number is not known."""
    return "your test" if count == 1 else f"your {count} tests" if count else "your tests"


def answer_so_far(everyone: list[Candidate]) -> Candidate | None:
    """The candidate the chooser would answer with now: a solve paused at a question has not chosen yet."""
    picked = choose(everyone)
    return everyone[picked.index] if picked is not None else None


def asking_words(story: Story) -> str:
    """The verdict of a solve paused at a question: which candidates pass the person's tests, that they disagree where
    the tests do not look, so the person is asked (agent.loop.questions), and the answer until then."""
    passing = [c for c in story.everyone if c.passed]
    yours = _your_tests(passing[0].tests_total if passing else 0)
    so_far = answer_so_far(story.everyone)
    return (f"{len(passing)} of {len(story.everyone)} candidates pass {yours}, but they disagree on inputs your "
            "tests do not check: a question picks the one you mean"
            + (f"; until it is answered, the answer is #{so_far.number}." if so_far is not None else "."))


def passed_words(story: Story, *, more_below: bool = False) -> str:
    """The verdict of a solve that passed, saying what was checked. Where one candidate alone passes (the loop stopped
    at the first answer, or only one of several passes), nothing but the person's tests vouches for it, and the words
    say so; where several pass, the chooser picked by what they return on other inputs. more_below: the page shows
    what the answer does on other inputs below the verdict (agent.solves.answer_behaviour)."""
    everyone = story.everyone
    answer = answer_among(everyone, story.picked)
    count = answer.tests_total if answer is not None and answer.ran else 0
    yours = _your_tests(count)
    checked = "only your test was checked" if count == 1 else "only your tests were checked"
    passing = [c for c in everyone if c.passed]
    below = "; see below what it does on other inputs" if more_below else ""
    if len(everyone) <= 1:
        at = "at the first answer" if answer is None or answer.kind == "first" else f"with #{answer.number}"
        return f"Passed {yours} {at} — {checked}{below}."
    if len(passing) <= 1:
        return f"Passed {yours} after {len(everyone)} candidates; only #{answer.number} passes, so {checked}{below}."
    return (f"Passed {yours} after {len(everyone)} candidates; {len(passing)} pass, and the chooser picked "
            f"#{answer.number} by what they return on other inputs"
            + ("; see below what it does on them." if more_below else "."))
