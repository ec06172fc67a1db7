"""Small typed events a solve streams to its consumer (CLI, UI, bench). Each carries thread and step."""

from __future__ import annotations

from dataclasses import asdict, dataclass, field


@dataclass
class NodeStarted:
    """A node begins (coder asks the model; executor runs the tests)."""

    thread_id: str
    step: int
    node: str
    kind: str = "node_started"


@dataclass
class Token:
    """A piece of the model's answer, as it is generated."""

    thread_id: str
    step: int
    node: str
    text: str
    kind: str = "token"


@dataclass
class NodeFinished:
    """A node finished; update is the partial state it returned."""

    thread_id: str
    step: int
    node: str
    update: dict = field(default_factory=dict)
    error: str | None = None
    kind: str = "node_finished"


@dataclass
class RunFinished:
    """The stream ended: the solve is over (passed, gave_up, error, env_error, unsupported) or paused before
    next_node."""

    thread_id: str
    step: int
    status: str
    code: str
    iterations: int
    paused: bool = False
    next_node: str | None = None
    error: str | None = None
    # Paused at the ask node with its question put (Solver.question has it); False when stopped before it ran.
    asking: bool = False
    kind: str = "run_finished"


Event = NodeStarted | Token | NodeFinished | RunFinished


def event_to_dict(event: Event) -> dict:
    """Plain data for JSON lines."""
    return asdict(event)
