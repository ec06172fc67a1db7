"""The words a run and a task are labelled with: the run's protocol, the feedback the loop gets, and the statuses of
tasks that never had an answer or were not solved by the loop."""

from __future__ import annotations

from enum import StrEnum

FEEDBACK_MODES = ("visible", "none", "oracle")  # what the loop repairs from; oracle: the hidden tests (leaky)
ENV_ERROR = "env_error"  # a task's status when the sandbox lacks what the code or tests import
BAD_INPUT = "bad_input"  # the agent refused the task before any model call
# the agent refused the task before any model call: its visible tests do what the sandbox cannot run as one process
# would (agent.inputs.UnsupportedTests). A solve that stops on such a test at run time ends "unsupported" with its
# answer kept, which the hidden tests score as any other.
UNSUPPORTED_TESTS = "unsupported_tests"
LOST_STATUSES = (ENV_ERROR, BAD_INPUT, UNSUPPORTED_TESTS)  # tasks that never had an answer: counted apart, not passed
UNJUDGED_STATUS = "unsupported"  # a hidden verdict the sandbox could not give (sandbox STATUSES): counted apart
SAMPLED_STATUS = "sampled"  # a task's status in a samples run: nothing was chosen, every sample is scored
IMPORTED_STATUS = "imported"  # a task's status in an imported run (bench.scoring.imported)


class Protocol(StrEnum):
    """How a run's answers were made and scored; every list, table and page keeps the kinds apart."""

    HONEST = "honest"  # the loop sees visible tests only; hidden tests only score
    LEAKY = "leaky"  # hidden-test failures fed back (oracle feedback): reproduces older agents, not comparable
    SAMPLES = "samples"  # independent samples a task at a temperature, no loop: scored by pass@k
    IMPORTED = "imported"  # samples made elsewhere, scored here (bench.scoring.imported): pass@k, not our model
    RESCORED = "rescored"  # a run's candidates scored again on another dataset's hidden tests (bench.scoring.rescore)
    # A simulated person answers the solve's questions from the task's reference (bench run --ask N): information
    # only a person has reaches the loop, so its figures are read apart from the honest ones, never mixed with them.
    INTERACTIVE = "interactive"

    @property
    def sampled(self) -> bool:
        """Scored as independent samples a task (pass@k), never as the loop's answers."""
        return self in (Protocol.SAMPLES, Protocol.IMPORTED)

    @classmethod
    def of(cls, feedback: str, samples: int | None = None, ask: int | None = None) -> Protocol:
        """The protocol of a new run: samples for a run of independent samples, interactive for one whose solves a
        simulated person answers (ask: questions a task at most), else leaky when hidden-test failures reach the model
        (oracle), else honest."""
        if samples:
            return cls.SAMPLES
        if ask:
            return cls.INTERACTIVE
        return cls.LEAKY if feedback == "oracle" else cls.HONEST
