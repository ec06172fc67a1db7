"""Questions a solve puts to the person when the candidates that pass their tests disagree.

Thin tests (a few asserts) let answers pass that do different things elsewhere. The probe inputs (agent.loop.probes:
the visible calls mutated, and the edge cases the model proposed from the task's words when it doubted the pass) show
where: every passing candidate's outcome on each of them. The question is the input that splits the passing
candidates most evenly (the largest entropy of the groups, then the smallest largest group), each distinct outcome
(a value, or an exception's type) one choice, beside "none of these: the right result is ..." and "skip". An input
outside the contract the visible calls imply (agent.loop.probes.within_contract) is asked only when no input inside it
splits them, and the question says the task may rule it out. No input is asked twice, nor one the tests already call.

An answer becomes a test written in the person's own style, the way a behaviour row does
(agent.solves.lineage.test_from_row); the loop then judges every candidate again with it, so those that disagree drop
out with no model time. Only the visible tests and the probe inputs are read: no expected output, no hidden test.
"""

from __future__ import annotations

import ast
import math
import re
from collections.abc import Callable, Mapping
from dataclasses import asdict, dataclass

from agent.config import Search
from agent.inputs import BadInput
from agent.loop.candidates import candidates
from agent.loop.probes import MARKS, Probe, argument_source, solve_probes, visible_calls
from agent.loop.state import read_state
from agent.solves.answer_behaviour import BehaviourRow, answer_of, argument_words, equal_values
from agent.solves.lineage import AddedTest, test_from_row
from sandbox.locked_parse import parse

SOLVE, PERSON = "solve", "person"  # who chose a question's input (Asked.by)
_TRUNCATED = re.compile(r"\.\.\. \[\d+ more chars\]$")  # the sandbox's mark on a value too long to show whole


@dataclass(frozen=True)
class Option:
    """One outcome some passing candidates give on the question's input, and which candidates give it."""

    outcome: str  # "= 3" (the value's repr) or "! ValueError" (the exception's type), unmarked
    candidates: tuple[int, ...]  # their numbers
    # Of a question on an argument read after the call (Question.argument): that argument's source before it.
    before: str | None = None

    def words(self) -> str:
        """'returns 3', 'raises ValueError'; of an argument read after the call, 'leaves it as it was' or
        "changes it to {'a': 2}"."""
        row = BehaviourRow("", "mutated", self.outcome)
        return argument_words(row.returned, self.before) if self.before is not None and row.returned else row.words()


@dataclass(frozen=True)
class Question:
    """What should this call give? The choices are what the passing candidates give there."""

    call: str  # "add(0, 2)"
    outside: bool  # the input is beyond what the visible calls show: the task may rule it out
    options: tuple[Option, ...]  # largest group first
    argument: int | None = None  # the place of the argument asked about after the call; None: the call's result

    @property
    def key(self) -> str:
        """What the question asks about, as its probe's key (agent.loop.probes.Probe.key): never asked twice."""
        return Probe(self.call, "mutated", self.argument).key

    def words(self, code: Callable[[str], str] = str, prose: Callable[[str], str] = str) -> str:
        """The question as a person reads it; code and prose write its pieces of code (the call, an argument) and
        of words (a page's code spans and escaped text)."""
        if self.argument is not None:
            return (prose("Answers that pass your tests disagree on what ") + code(self.call)
                    + prose(" does to its argument ") + code(argument_source(self.call, self.argument) or "")
                    + prose(". What should that argument hold after the call?"))
        text = prose("Answers that pass your tests disagree on ") + code(self.call) + prose(". What should it give?")
        if self.outside:
            text += prose(" (This input is unlike every one your tests use, such as a negative number or an empty "
                          "list: the task may rule it out. Skip if it does.)")
        return text

    def subject(self, code: Callable[[str], str] = str, prose: Callable[[str], str] = str) -> str:
        """What it asks about in a few words: its call, or 'argument {'a': 1} after f({'a': 1})'."""
        if self.argument is None:
            return code(self.call)
        return (prose("argument ") + code(argument_source(self.call, self.argument) or "") + prose(" after ")
                + code(self.call))

    def to_dict(self) -> dict:
        stored = {"call": self.call, "outside": self.outside,
                  "options": [{"outcome": o.outcome, "candidates": list(o.candidates)} for o in self.options]}
        return stored if self.argument is None else {**stored, "argument": self.argument}

    @staticmethod
    def from_dict(stored: Mapping) -> Question:
        argument = stored.get("argument")
        before = argument_source(stored["call"], argument) if argument is not None else None
        return Question(stored["call"], bool(stored.get("outside")),
                        tuple(Option(o["outcome"], tuple(o["candidates"]), before)
                              for o in stored.get("options") or []), argument)


@dataclass(frozen=True)
class Reply:
    """A person's answer: one of the question's options (choice, from 0), a result they type (returns: a value as
    Python source; raises: an exception's type), or nothing of these (skip)."""

    choice: int | None = None
    returns: str | None = None
    raises: str | None = None

    @property
    def skipped(self) -> bool:
        return self.choice is None and self.returns is None and self.raises is None

    @staticmethod
    def typed(text: str) -> Reply:
        """A result a person typed: 'raises ValueError' for an exception, else a value as Python ('[1, 2]', "'a'")."""
        text = text.strip()
        # Stripped first: a lazy group before a trailing \s* makes the match quadratic, and a pasted page would hold
        # the interpreter (and every session of the app) for minutes.
        found = re.fullmatch(r"raises?\s+(\S.*)", text)
        return Reply(raises=found.group(1)) if found else Reply(returns=text)

    def words(self, question: Question) -> str:
        """'returns 3' (the person's pick or typed result), or 'skipped'."""
        if self.choice is not None:
            return question.options[self.choice].words()
        if self.returns is not None and question.argument is not None:
            return argument_words(self.returns.strip(), argument_source(question.call, question.argument) or "")
        if self.returns is not None:
            return f"returns {self.returns}"
        return f"raises {self.raises}" if self.raises is not None else "skipped"

    def to_dict(self) -> dict:
        return asdict(self)

    @staticmethod
    def from_dict(stored: Mapping | None) -> Reply:
        stored = stored or {}
        return Reply(stored.get("choice"), stored.get("returns"), stored.get("raises"))


@dataclass(frozen=True)
class Asked:
    """One question a solve put, the person's reply, the test it added (None: skipped) and the candidates the outcomes
    recorded on that input said agree with it (kept) or not (dropped); the executor then judges them all again.
    answer_before is the candidate the chooser would have answered with had the solve not asked (the bench's pass@1
    after fewer questions: answers_after_questions). by says who chose the input: the solve (a question it put) or
    the person, who read the answer's behaviour table and corrected a row (agent.loop.corrections)."""

    question: Question
    reply: Reply
    added: AddedTest | None
    kept: tuple[int, ...]
    dropped: tuple[int, ...]
    answer_before: int | None = None
    by: str = SOLVE  # SOLVE | PERSON

    def to_dict(self) -> dict:
        return {"question": self.question.to_dict(), "reply": self.reply.to_dict(),
                "added": asdict(self.added) if self.added else None, "kept": list(self.kept),
                "dropped": list(self.dropped), "answer_before": self.answer_before, "by": self.by}

    @staticmethod
    def from_dict(stored: Mapping) -> Asked:
        added = stored.get("added")
        return Asked(Question.from_dict(stored["question"]), Reply.from_dict(stored.get("reply")),
                     AddedTest(**added) if added else None, tuple(stored.get("kept") or ()),
                     tuple(stored.get("dropped") or ()), stored.get("answer_before"), stored.get("by") or SOLVE)


def writable(outcome: str) -> bool:
    """Whether an outcome can be a choice, that is a test: an exception's type, or a value whose repr is a Python
    expression written whole (not a truncated one, nor a bare name such as inf)."""
    row = BehaviourRow("", "mutated", outcome)
    if row.raised is not None:
        return True
    if row.returned is None or _TRUNCATED.search(row.returned):
        return False
    try:
        return not isinstance(parse(row.returned, mode="eval").body, ast.Name)
    except SyntaxError:
        return False


def split(probe: Probe, index: int, behaviours: Mapping[int, list[str]]) -> tuple[Option, ...]:
    """The options on one probe: the passing candidates grouped by their (unmarked) outcome there, largest first.
    Values a test's == cannot tell apart are one option ({'a': 1, 'b': 2} and {'b': 2, 'a': 1}, 800 and 800.0): a
    test written from either passes both, so asking between them would drop candidates no test rejects, and the
    same split would come back at the next input."""
    groups: list[tuple[str, list[int]]] = []
    mark = MARKS[probe.kind]
    before = argument_source(probe.call, probe.argument) if probe.argument is not None else None
    for number, outcomes in behaviours.items():
        outcome = outcomes[index]
        outcome = outcome[len(mark):] if mark and outcome.startswith(mark) else outcome
        if not writable(outcome):
            continue
        for shown, numbers in groups:
            if same_outcome(shown, outcome):
                numbers.append(number)
                break
        else:
            groups.append((outcome, [number]))
    return tuple(Option(o, tuple(n), before) for o, n in sorted(groups, key=lambda g: (-len(g[1]), g[1][0])))


def same_outcome(a: str, b: str) -> bool:
    """Whether two outcomes are one to a test: the same exception's type, or values equal under ==."""
    if a == b:
        return True
    first, second = BehaviourRow("", "mutated", a).returned, BehaviourRow("", "mutated", b).returned
    return first is not None and second is not None and equal_values(first, second)


def _evenness(options: tuple[Option, ...]) -> tuple[float, int]:
    """How evenly options split the candidates: the groups' entropy, then the smaller the largest group the better."""
    sizes = [len(o.candidates) for o in options]
    total = sum(sizes)
    return -sum(s / total * math.log(s / total) for s in sizes), -max(sizes)


def pick_question(probes: list[Probe], behaviours: Mapping[int, list[str]],
                  exclude: set[str] = frozenset()) -> Question | None:
    """The input to ask about: among probes (not the visible tests' own calls, though an argument read after one is
    asked about; none whose key is in exclude), the one that splits the passing candidates' behaviours (number ->
    marked outcome on each probe, agent.loop.probes.behaviour) into at least two options most evenly; inside the
    contract if any input there splits them, else outside it. An earlier probe wins a tie. None when they agree
    everywhere."""
    behaviours = {n: b for n, b in behaviours.items() if len(b) == len(probes)}
    best: dict[bool, tuple[tuple[float, int], Question]] = {}
    for index, probe in enumerate(probes):
        if probe.kind == "original" or probe.key in exclude:
            continue
        options = split(probe, index, behaviours)
        if len(options) < 2:
            continue
        outside = probe.kind == "outside"
        score = _evenness(options)
        if outside not in best or score > best[outside][0]:
            best[outside] = (score, Question(probe.call, outside, options, probe.argument))
    found = best.get(False) or best.get(True)
    return found[1] if found else None


def _agreeing(question: Question, reply: Reply) -> Option | None:
    """The option the reply is: the one picked, or the one whose outcome is the typed result; None for another."""
    if reply.choice is not None:
        return question.options[reply.choice]
    for option in question.options:
        row = BehaviourRow(question.call, "mutated", option.outcome)
        if (reply.returns is not None and row.returned is not None and equal_values(row.returned, reply.returns)) or (
                reply.raises is not None and row.raised == reply.raises.strip()):
            return option
    return None


def answered(tests: str, question: Question, reply: Reply, shown: BehaviourRow | None = None) -> tuple[str, Asked]:
    """The tests with the reply written as one more test in their own style (unchanged for a skip), and the question
    with its answer as the solve keeps it. shown is the row the person corrected (what the answer did there); by
    default what the largest group of answers gave. Raises BadInput, saying what to fix, for a choice that is not one
    of the question's or a typed result that is not Python."""
    if reply.skipped:
        return tests, Asked(question, reply, None, (), ())
    if reply.choice is not None and not 0 <= reply.choice < len(question.options):
        raise BadInput(f"choose one of 1 to {len(question.options)}, type the right result, or skip")
    agreeing = _agreeing(question, reply)
    kind = "outside" if question.outside else "mutated"
    if reply.choice is not None:
        row = BehaviourRow(question.call, kind, agreeing.outcome)
        returns, raises = row.returned, row.raised
    else:
        returns, raises = reply.returns, reply.raises
    # The row the test is made from says what the person corrected: by default, what the largest group of answers gave.
    shown = shown or BehaviourRow(question.call, kind, question.options[0].outcome, question.argument)
    tests, added = test_from_row(tests, shown, returns=returns, raises=raises)
    kept = agreeing.candidates if agreeing else ()
    dropped = tuple(sorted(n for o in question.options if o is not agreeing for n in o.candidates))
    return tests, Asked(question, reply, added, kept, dropped)


def thin(tests: str, entry_point: str | None, search: Search) -> bool:
    """Whether visible tests are thin: they check at most search.thin_tests distinct calls of the function."""
    return len(visible_calls(tests, entry_point)) <= search.thin_tests


def asked_in(state: Mapping) -> list[Asked]:
    """The questions a solve put and the rows a person corrected, with their answers, in order."""
    return [Asked.from_dict(q) for q in read_state(state)["questions"]]


def questions_put(state: Mapping) -> int:
    """How many questions the solve itself put (a person's corrections of rows are not its questions)."""
    return sum(1 for q in read_state(state)["questions"] if (q.get("by") or SOLVE) == SOLVE)


def answers_after_questions(state: Mapping) -> list[int]:
    """The answer's candidate number after 0, 1, ... questions: the chooser's pick before each question the solve
    put, then its answer once it asked no more (before the person's first correction, if any); [] before any
    candidate. After a solve that asked fewer questions than a run allows, the answer after more is its last."""
    asked = asked_in(state)
    first = next((a for a in asked if a.by == PERSON), None)
    before = [a.answer_before for a in (asked[:asked.index(first)] if first else asked)]
    final = answer_of(state)
    after = first.answer_before if first else (final.number if final else None)
    return [n for n in before if n is not None] + ([after] if after is not None else [])


def answers_after_corrections(state: Mapping) -> list[int]:
    """The answer's candidate number after 0, 1, ... rows the person corrected: the answer before each correction,
    then the solve's answer; [] before any candidate."""
    before = [a.answer_before for a in asked_in(state) if a.by == PERSON]
    final = answer_of(state)
    return [n for n in before if n is not None] + ([final.number] if final else [])


def next_question(state: Mapping) -> Question | None:
    """The question a solve would ask now, from its passing candidates' behaviours on its visible tests' probes;
    None when they agree on every input not yet asked, or the solve is the bench's leaky oracle mode (its executed
    tests are hidden ones, so no answer may be added to them)."""
    state = read_state(state)
    if state["shown_tests"] is not None:
        return None
    tests, entry_point = state["tests"], state["entry_point"]
    passing = {c.number: c.behaviour for c in candidates(state) if c.passed}
    if len(passing) < 2:
        return None
    asked = {q.question.key for q in asked_in(state)}
    return pick_question(solve_probes(state), passing, asked | visible_calls(tests, entry_point))
