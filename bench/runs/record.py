"""A run as the store holds it, read as one typed record (Run), and the one function that makes a new run's row.

Every reader (the CLI, the page, the reports, the driver) gets runs as Run records from bench.runs.store; only
new_run_row writes a run's row from nothing, for a run of the loop, an imported file and a rescoring alike.
"""

from __future__ import annotations

import json
import os
import time
import uuid
from dataclasses import dataclass, field, fields

from agent import Search, sandbox_status
from agent.config import search_dict, stored_search
from agent.solves.liveness import owner_alive
from bench.datasets.humaneval import HUMANEVAL
from bench.protocol.labels import Protocol
from bench.protocol.rules import Rules
from bench.runs.code_version import code_version
from bench.runs.schema import JSON_RUN_COLUMNS, RUN_COLUMNS

LIVE_STATUSES = ("running", "starting", "stopping")  # statuses that hold only while the run's owner is alive


@dataclass(frozen=True)
class Run:
    """One run, as stored (bench.runs.schema.RUN_COLUMNS), with how many of its tasks are done and passing."""

    id: str
    protocol: Protocol = Protocol.HONEST
    created: float = 0.0
    status: str = "created"  # created, starting, running, stopping, finished, stopped, failed (see state())
    provider: str = ""
    model: str = ""  # the model the solvers resolved; for an imported run, the samples file
    dataset: str = HUMANEVAL  # its label: humaneval, humaneval+, or file:NAME (sha ...) for a task file
    tasks_spec: str = "all"  # the selection it was asked for (bench.datasets.selection)
    task_ids: list[str] = field(default_factory=list)
    search: Search = Search()  # how each task was solved (the class's defaults for imported samples: they had none)
    feedback: str = "visible"
    backend: str = "threads"  # threads | processes | ray
    parallel: int | None = None  # tasks at once
    code_version: str = ""
    model_arg: str = ""
    max_tokens: int | None = None
    started: float | None = None
    finished: float | None = None
    elapsed: float | None = None  # wall seconds over every segment it ran (a resume adds one)
    pid: int | None = None
    owner: str | None = None  # the process token that runs it now (agent.solves.liveness)
    heartbeat: float | None = None
    error: str | None = None
    notes: str | None = None  # solvers lost, one a line
    isolation: str | None = None  # the sandbox's isolation it ran under
    ray_address: str | None = None
    actors: int | None = None
    cpus_per_actor: float | None = None
    endpoints: list[str] = field(default_factory=list)
    tasks_file: str | None = None
    tasks_sha256: str | None = None
    rescored_from: str | None = None
    samples: int | None = None  # a samples run: independent samples a task
    temperature: float | None = None  # and their temperature
    samples_file: str | None = None  # an imported run: the file its samples came from
    samples_sha256: str | None = None
    person: str = ""  # who started it (a signed-in person; "" on a server without sign-in)
    ask: int | None = None  # an interactive run: questions a task the simulated person answers, at most
    corrections: int | None = None  # and rows of the answer's table it corrects after them, at most
    done: int = 0  # tasks with a stored result
    passing: int = 0  # of those, passing the hidden tests

    @classmethod
    def from_row(cls, row: dict) -> Run:
        """A stored row (with the done and passing counts of bench.runs.store's queries) as a Run."""
        known = {f.name for f in fields(cls)}
        values = {k: v for k, v in row.items() if k in known}
        values.update({column: json.loads(row.get(column) or "[]") for column in JSON_RUN_COLUMNS})
        return cls(**{**values, "protocol": Protocol(row["protocol"]), "search": stored_search(row),
                      "person": row.get("person") or ""})

    @property
    def sampled(self) -> bool:
        """Scored as independent samples a task (pass@k), not by the loop's answers."""
        return self.protocol.sampled

    @property
    def rules(self) -> Rules:
        """What the run asks of each of its tasks (bench.protocol.rules)."""
        return Rules(self.id, self.feedback, self.search, self.samples, self.temperature, self.ask, self.corrections)

    def state(self) -> str:
        """The stored status, except that a run whose owner stopped beating while it ran shows as 'interrupted'.

        The owner is a per-process token with a heartbeat (agent.solves.liveness), not a process id, which a restart
        or another machine may reuse."""
        if self.status in LIVE_STATUSES and not owner_alive(self.id, self.owner, self.heartbeat):
            return "interrupted"
        return self.status


def new_run_id() -> str:
    """A new run's id: when it was made, then 6 random hex digits ('20261130-110503-2f694d')."""
    return time.strftime("%Y%m%d-%H%M%S-") + uuid.uuid4().hex[:6]


def new_run_row(*, protocol: Protocol, search: Search | None, task_ids: list[str], endpoints: list[str] | None = None,
                **columns: object) -> dict:
    """A new run's row, every column present: the given ones, and for the rest what every new run records (a new id,
    when it was made, by which process, the code and sandbox it ran with, not started yet). search: None for samples
    made elsewhere, which had none of ours."""
    unknown = set(columns) - set(RUN_COLUMNS)
    if unknown:
        raise ValueError(f"not columns of a run: {', '.join(sorted(unknown))}")
    now = time.time()
    made = {"id": new_run_id(), "created": now, "status": "created", "code_version": code_version(),
            "pid": os.getpid(), "heartbeat": now, "isolation": sandbox_status().description, "elapsed": 0.0,
            "model_arg": "", "backend": "threads"}
    return {**dict.fromkeys(RUN_COLUMNS), **made, **columns, "protocol": protocol.value,
            "search": json.dumps(search_dict(search)) if search else None, "task_ids": json.dumps(list(task_ids)),
            "endpoints": json.dumps(list(endpoints or []))}
