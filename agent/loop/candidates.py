"""Typed views of a solve's candidates and choice, for the UI, the CLIs and the bench.

The graph keeps plain dicts in its checkpoints (they serialise as they are); readers get these
dataclasses instead of digging in the dicts, so the state's layout can change in one place.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from sandbox import TestReport, code_could_avoid


def passes_what_can_be_judged(status: str | None, unsupported: str | None) -> bool:
    """A report's status and first unsupported reason: it passes every visible test the sandbox can judge, and the
    others do what the sandbox cannot run as one process would whatever the answer (not a limit of the answer's own
    way of working, which another answer need not meet: sandbox.code_could_avoid)."""
    return status == "unsupported" and not code_could_avoid(unsupported)


@dataclass(frozen=True)
class Candidate:
    """One candidate answer: how it was drawn, its code, and its verdict on the visible tests."""

    number: int  # from 1, in the order drawn
    kind: str  # first | repair | sample | doubt
    code: str
    answer: str
    messages: list[dict]
    extract_error: str | None
    report: TestReport | None  # None until the executor has run it
    feedback: str
    signature: str
    behaviour: list[str]  # outcome on each probe, marked by the probe's kind (agent.loop.probes)
    tokens_in: int
    tokens_out: int
    prompt_tokens_reused: int | None
    seconds_model: float
    seconds_tests: float
    temperature: float | None
    seed: int | None
    resampled: bool
    forked: bool
    note: str | None
    # What cleaning took out of the answer's code (agent.loop.answer_cleaning): "test_basic", "check_function()".
    removed: list[str] = field(default_factory=list)
    probed: str = ""  # which probes behaviour was taken on (agent.loop.probes.probes_key); "" when not known

    @property
    def ran(self) -> bool:
        return self.report is not None

    @property
    def passed(self) -> bool:
        """Passed every visible test."""
        return self.report is not None and self.report.passed

    @property
    def passes_what_can_be_judged(self) -> bool:
        """It passes every visible test the sandbox can judge; the others cannot be judged whatever the answer."""
        return self.report is not None and passes_what_can_be_judged(self.report.status, self.report.unsupported)

    @property
    def tests_passed(self) -> int:
        return self.report.n_passed if self.report else 0

    @property
    def tests_total(self) -> int:
        return len(self.report.tests) if self.report else 0

    @property
    def tokens_per_second(self) -> float | None:
        """Generated tokens per second of model time; None when the time is unknown (a fork's edited code) or
        covers more than these tokens (a resampled repair's time includes the repeated answer it replaced)."""
        if self.resampled or self.seconds_model <= 0 or not self.tokens_out:
            return None
        return self.tokens_out / self.seconds_model

    @property
    def repairs(self) -> int | None:
        """The number of the candidate this one repairs (the one drawn just before it); None for others."""
        return self.number - 1 if self.kind == "repair" and self.number > 1 else None

    def headline(self) -> str:
        """One line: k of n visible tests pass, or the first failure with its two values, or why nothing ran, or why
        the tests that did not pass could not be judged."""
        if self.report is None:
            return "not run yet"
        report = self.report
        if report.passed:
            return f"{report.n_passed} of {len(report.tests)} visible tests pass"
        failing = next((t for t in report.tests if not t.passed and not t.unsupported), None)
        head = f"{report.n_passed} of {len(report.tests)} visible tests pass"
        if report.status == "unsupported":  # no failure of the code: the rest could not be judged here
            return f"{head}; {report.n_unsupported} not judged: {report.unsupported}"
        if failing is not None:
            where = failing.line or failing.name
            if failing.op is not None:
                return f"{head}; first failure {where}: got {failing.left}, expected {failing.right}"
            if failing.error_type:
                return f"{head}; first failure {where}: {failing.error_type}: {failing.message or ''}".rstrip(": ")
        first_line = (report.error or "").splitlines()[0] if report.error else ""
        return f"{head}; {report.status}: {first_line}".rstrip(": ")


@dataclass(frozen=True)
class ChoiceView:
    """The chooser's pick among several candidates, and why."""

    number: int
    index: int
    reason: str
    agreeing: int  # candidates that behave like the chosen one (itself included)
    eligible: list[int]  # numbers of the candidates it was chosen among


def _candidate(raw: dict, index: int) -> Candidate:
    report = raw.get("report")
    return Candidate(
        number=raw.get("iteration", index + 1), kind=raw.get("kind") or ("first" if index == 0 else "repair"),
        code=raw.get("code", ""), answer=raw.get("answer", ""), messages=list(raw.get("messages") or []),
        extract_error=raw.get("extract_error"), report=TestReport.from_dict(report) if report else None,
        feedback=raw.get("feedback", ""), signature=raw.get("signature", ""),
        behaviour=list(raw.get("behaviour") or []), tokens_in=raw.get("tokens_in", 0),
        tokens_out=raw.get("tokens_out", 0), prompt_tokens_reused=raw.get("prompt_tokens_reused"),
        seconds_model=raw.get("seconds_model", 0.0), seconds_tests=raw.get("seconds_tests", 0.0),
        temperature=raw.get("temperature"), seed=raw.get("seed"), resampled=bool(raw.get("resampled")),
        forked=bool(raw.get("forked")), note=raw.get("note"), removed=list(raw.get("removed") or []),
        probed=raw.get("probed") or "")


def drawing_speed(drawn: list[Candidate]) -> tuple[int, float, float | None]:
    """Tokens generated, model seconds and tokens per second of candidates drawn together (a round of samples
    shares one batch, so its rate is the round's, not a sum of each sample's)."""
    tokens, seconds = sum(c.tokens_out for c in drawn), sum(c.seconds_model for c in drawn)
    return tokens, seconds, (tokens / seconds if seconds > 0 and tokens else None)


def candidates(values: dict) -> list[Candidate]:
    """The candidates in a solve's state, or in a node's partial update (a NodeFinished event's update)."""
    return [_candidate(raw, i) for i, raw in enumerate(values.get("attempts") or [])]


def candidates_after(known: list[Candidate], update: dict) -> list[Candidate]:
    """The candidates after a node's update, from those known before: a node returns only the candidates it adds
    or changes (agent.loop.state.merge_attempts), so one it changes keeps its place and a new one goes last."""
    by_number = {c.number: c for c in known}
    by_number.update({c.number: c for c in candidates(update)})
    return list(by_number.values())


def choice(values: dict) -> ChoiceView | None:
    """The chooser's pick in a state or update, or None when there was nothing to choose."""
    raw = values.get("choice")
    if not raw:
        return None
    return ChoiceView(number=raw.get("iteration", raw["index"] + 1), index=raw["index"], reason=raw.get("reason", ""),
                      agreeing=raw.get("agreeing", 1), eligible=list(raw.get("eligible") or [raw["index"] + 1]))


def answer_among(drawn: list[Candidate], picked: ChoiceView | None) -> Candidate | None:
    """A solve's answer among its candidates: the chooser's pick, else the last one drawn (a solve that stopped at
    one); None before any candidate."""
    found = next((c for c in drawn if c.number == picked.number), None) if picked is not None else None
    return found or (drawn[-1] if drawn else None)


def judged_now(update: dict) -> list[int]:
    """Numbers of the candidates an executor step ran (from its update); [] for other nodes."""
    return list(update.get("judged") or [])


@dataclass(frozen=True)
class DoubtView:
    """The doubt batch a solve drew after a pass on thin tests (agent.loop.nodes.doubt), and the time it added."""

    numbers: list[int]  # its candidates
    seconds_model: float  # drawing them, one batch, and asking for inputs
    seconds_tests: float  # running them on the visible tests and the probe inputs (their latest run)
    error: str | None  # why none was drawn: the model failed, and the pass stood
    proposed: list[str] = field(default_factory=list)  # calls the model proposed from the task's words
    edges: list[str] = field(default_factory=list)  # edge inputs of the visible calls (agent.loop.edge_inputs)
    proposing_error: str | None = None  # why the model proposed none: it failed, and the batch stood

    @property
    def seconds(self) -> float:
        """The time the doubt added to the solve."""
        return self.seconds_model + self.seconds_tests

    def inputs_words(self, shown: int = 3) -> str:
        """The inputs the doubt added to the probes, in words; "" when it added none and nothing failed."""
        parts = []
        if self.proposed:
            calls = ", ".join(self.proposed[:shown]) + (", ..." if len(self.proposed) > shown else "")
            parts.append(f"{len(self.proposed)} the model proposed from the task's words ({calls})")
        if self.edges:
            parts.append(f"{len(self.edges)} near the tests' calls (the task's options, other whitespace, case or "
                         "separators, empty words, halves, ties, equal arguments, dict keys left out or shared)")
        words = f"every candidate is also tried on {' and '.join(parts)}" if parts else ""
        if self.proposing_error:
            words += ("; " if words else "") + f"the model proposed no inputs: {self.proposing_error}"
        return words


def doubt_of(values: dict) -> DoubtView | None:
    """The doubt batch of a solve's state; None when it drew none."""
    raw = values.get("doubt")
    if not raw:
        return None
    numbers = list(raw.get("numbers") or [])
    tests = sum(c.seconds_tests for c in candidates(values) if c.number in numbers)
    return DoubtView(numbers, raw.get("seconds_model", 0.0), round(tests, 3), raw.get("error"),
                     list(raw.get("proposed") or []), list(raw.get("edges") or []), raw.get("proposing_error"))
