"""The solver: start a solve and stream its events, resume, restart and fork it, and read its steps.

History is LangGraph's own: a SqliteSaver checkpoint per node transition, one thread id per solve.
The ``solves`` table beside the checkpoints (listing, inputs, ownership) is the solver's store (agent.solves.store).
"""

from __future__ import annotations

import contextlib
import itertools
import sqlite3
import threading
import uuid
from collections.abc import Iterator
from dataclasses import dataclass, replace
from pathlib import Path

from langchain_core.language_models import BaseChatModel
from langgraph.checkpoint.sqlite import SqliteSaver
from langgraph.types import Command, Overwrite

from agent.config import Search, Settings, load_line, load_settings, search_dict, stored_search
from agent.inputs import BadInput, validate_solve
from agent.loop.candidates import Candidate, ChoiceView, candidates, choice
from agent.loop.corrections import correction
from agent.loop.edge_inputs import doubt_with_tests
from agent.loop.graph import NODES, build_graph
from agent.loop.questions import Asked, Question, Reply, answered, asked_in
from agent.loop.state import SolveState, attempt_number, judged_again, read_state
from agent.providers.chat_model import ModelSpec, make_chat_model
from agent.solves.events import Event, NodeFinished, NodeStarted, RunFinished, Token
from agent.solves.history import Step
from agent.solves.line import Line, Place, line_for
from agent.solves.lineage import Lineage, lineage_from
from agent.solves.store import SolveStore


def _room_for_a_round(state: SolveState, search: Search) -> Search | None:
    """The search with room for one more round (samples_per_round candidates, and their share of the token budget)
    when a finished solve has less left; None when it has that much. A person's correction comes after the solve
    spent its budget, often all of it: without the room, a correction that drops every candidate would end the
    solve "not solved" with nothing drawn."""
    drawn, room = len(state["attempts"]), max(1, search.samples_per_round)
    spent = sum(a.get("tokens_out", 0) for a in state["attempts"])
    tokens = search.token_budget
    share = -(-tokens * room // search.budget) if tokens else 0  # a round's share of the tokens, rounded up
    budget, token_budget = max(search.budget, drawn + room), max(tokens, spent + share) if tokens else 0
    if (budget, token_budget) == (search.budget, tokens):
        return None
    return replace(search, budget=budget, token_budget=token_budget)


@dataclass
class Solver:
    """A compiled loop for one chat model, with its checkpoints and its solves table (store)."""

    model: BaseChatModel
    db_path: Path
    model_spec: ModelSpec | None = None  # which model is in use and why
    search: Search = Search()

    def __post_init__(self) -> None:
        self.db_path = Path(self.db_path)
        self.store = SolveStore(self.db_path)  # first: it makes the folder
        conn = sqlite3.connect(self.db_path, check_same_thread=False, timeout=60)
        conn.execute("PRAGMA journal_mode=WAL")
        self.checkpointer = SqliteSaver(conn)
        self.checkpointer.setup()
        self.graph = build_graph(self.model, self.checkpointer, self.search)

    @staticmethod
    def _config(thread_id: str, checkpoint_id: str | None = None) -> dict:
        configurable = {"thread_id": thread_id, "checkpoint_ns": ""}
        if checkpoint_id:
            configurable["checkpoint_id"] = checkpoint_id
        return {"configurable": configurable}

    def place_in_line(self, person: str, thread_id: str | None = None, what: str = "a solve") -> Place:
        """A place in the line in front of this solver's model (agent.solves.line), for a job to wait on; raises
        LineFull with what to do when there is none. With a thread_id, the solve's row is kept alive while it waits."""
        ticket = self.line().join(person, what)
        keep = (lambda: self.store.waiting(thread_id)) if thread_id else contextlib.nullcontext
        return Place(self.line(), ticket, keep)

    def line(self) -> Line:
        """The line in front of this solver's model, shared by every solver of this process on the same model."""
        provider = self.model_spec.provider if self.model_spec else "llamacpp"
        key = self.model_spec.describe() if self.model_spec else f"model-{id(self.model)}"
        return line_for(key, load_line().at_once_for(provider))

    def reserve(self, task: str, tests: str, *, entry_point: str | None = None, search: Search | None = None,
                thread_id: str, person: str = "", ask: bool = False) -> None:
        """Validate a solve and record it as waiting in the line (so that a reload or a restart finds it), before
        start runs it under the same thread id."""
        state = self._first_state(task, tests, entry_point, search or self.search, None, ask)
        self.store.add(thread_id, task, self.model_spec.describe() if self.model_spec else "", state, "",
                       person=person, status="waiting")

    @staticmethod
    def _first_state(task: str, tests: str, entry_point: str | None, search: Search, shown_tests: str | None,
                     ask: bool = False) -> dict:
        """A new solve's state, once its input is valid (raises BadInput, with what to fix, when it is not)."""
        entry_point = validate_solve(task, tests, entry_point, search).name
        return {"task": task, "tests": tests, "shown_tests": shown_tests, "entry_point": entry_point,
                "search": search_dict(search), "iteration": 0, "attempts": [], "messages": [], "status": "running",
                "choice": None, "ask": ask and shown_tests is None}

    def start(self, task: str, tests: str, *, entry_point: str | None = None, search: Search | None = None,
              thread_id: str | None = None, step_mode: bool = False, origin: str = "",
              shown_tests: str | None = None, lineage: Lineage | None = None,
              stop: threading.Event | None = None, person: str = "", ask: bool = False) -> Iterator[Event]:
        """Validate, then stream a new solve. In step mode it pauses before each node (see resume).

        ask: when candidates that pass the tests disagree, the solve pauses at a question (question) until a person
        answers it (answer); at most the search's max_questions. Never in oracle mode (shown_tests).

        search is this solve's (None: the solver's own); the state stores it whole. shown_tests replaces the
        tests in the prompt while ``tests`` are still what runs: only the bench's oracle mode uses it, to
        reproduce the leaky protocol of older agents. origin says what started the solve: "" for a person
        (Playground, Debugger); a program that starts many, such as a bench run, names itself so that
        solves() can list them apart. lineage, for a solve a person started again from an earlier one with tests
        they added, is kept beside its inputs (lineage_of); person is who started it."""
        state = self._first_state(task, tests, entry_point, search or self.search, shown_tests, ask)
        thread_id = thread_id or uuid.uuid4().hex
        self.store.add(thread_id, task, self.model_spec.describe() if self.model_spec else "", state, origin,
                       person=person, lineage=lineage.to_dict() if lineage else None)
        return self._stream(state, self._config(thread_id), step_mode, stop)

    def resume(self, thread_id: str, *, step_mode: bool = False, checkpoint_id: str | None = None,
               stop: threading.Event | None = None) -> Iterator[Event]:
        """Continue a paused (step mode) or interrupted solve; in step mode, one node at a time."""
        return self._stream(None, self._config(thread_id, checkpoint_id), step_mode, stop)

    @staticmethod
    def _edited(values: SolveState, code: str) -> dict:
        """The last candidate with its code replaced by a fork's edit, not yet run (a person's code: nothing was
        cleaned out of it)."""
        last = values["attempts"][-1]
        return {**last, "iteration": attempt_number(last, len(values["attempts"]) - 1), "code": code,
                "extract_error": None, "removed": [], "report": None, "forked": True}

    def question(self, thread_id: str) -> Question | None:
        """The question a solve is paused at, waiting for a person's answer (answer); None when it is not."""
        snapshot = self.graph.get_state(self._config(thread_id))
        for task in snapshot.tasks:
            for pending in task.interrupts:
                return Question.from_dict(pending.value)
        return None

    def answer(self, thread_id: str, reply: Reply, *, question: Question | None = None, step_mode: bool = False,
               stop: threading.Event | None = None) -> Iterator[Event]:
        """Answer the question a solve is paused at and carry it on: a pick or a typed result becomes a test in the
        person's style and every candidate is judged again with it; a skip adds nothing. Raises BadInput, with what
        to fix, when the solve asks nothing now, asks another question than question (the one the reply was made
        for: a choice's number would pick among another question's choices), or the reply cannot be a test
        (nothing is lost: ask again)."""
        self.tests_after(thread_id, reply, question=question)  # refuses all of that before resuming
        return self._stream(Command(resume=reply.to_dict()), self._config(thread_id), step_mode, stop)

    def tests_after(self, thread_id: str, reply: Reply, *, question: Question | None = None) -> str:
        """The tests the solve runs once reply answers its question: its tests with the reply's test added (as they
        are for a skip). Raises BadInput as answer does."""
        waiting = self.question(thread_id)
        if waiting is None:
            raise BadInput(f"solve {thread_id} is not waiting for an answer")
        if question is not None and waiting != question:
            raise BadInput("this question was answered elsewhere (another tab or window), and the solve has gone on: "
                           "reload to see it as it is now")
        return answered(self.state_at(thread_id)["tests"], waiting, reply)[0]

    def correct(self, thread_id: str, call: str, reply: Reply, argument: int | None = None, *,
                step_mode: bool = False, stop: threading.Event | None = None) -> Iterator[Event]:
        """Carry on a finished solve with a person's correction of its answer's row for call (the result it should
        give, typed in reply; argument: the place of the argument the row reads after the call, for such a row): the
        test goes into the solve's tests, every candidate is judged again with it, and the loop goes on from there as
        after an answered question (agent.loop.corrections). Raises BadInput, with what to fix, when the solve has not
        finished (it is paused: go on or answer first) or the correction cannot be a test."""
        snapshot = self.graph.get_state(self._config(thread_id))
        if not snapshot.values:
            raise BadInput(f"no solve {thread_id}")
        if snapshot.next:
            raise BadInput("the solve has not finished: answer its question or carry it on first")
        state = read_state(snapshot.values)
        tests, asked = correction(state, call, reply, argument)
        values = {"questions": [asked.to_dict()], "tests": tests, "status": "running",
                  "attempts": judged_again(state["attempts"])}
        if state["doubt"] is not None:
            values["doubt"] = doubt_with_tests(state["doubt"], tests, state["entry_point"], state["task"])
        roomier = _room_for_a_round(state, stored_search(state, self.search))
        if roomier is not None:
            values["search"] = search_dict(roomier)
        config = self.graph.update_state(self._config(thread_id), values, as_node="ask")
        # Told as the ask step it stands for, so that a timeline shows the correction before the candidates judged
        # again with it.
        told = NodeFinished(thread_id, snapshot.metadata.get("step", 0) + 1, "ask", {"questions": values["questions"]},
                            None)
        return itertools.chain([told], self._stream(None, config, step_mode, stop))

    def asked(self, thread_id: str, checkpoint_id: str | None = None) -> list[Asked]:
        """Every question the solve put by that step (the latest when checkpoint_id is None) and its answer."""
        return asked_in(self.state_at(thread_id, checkpoint_id))

    def restart(self, thread_id: str, *, step_mode: bool = False,
                stop: threading.Event | None = None) -> Iterator[Event]:
        """Start again, from its stored inputs, a solve that was interrupted before its first checkpoint."""
        if self._has_checkpoint(thread_id):
            raise BadInput(f"solve {thread_id} has checkpoints: carry it on with resume instead")
        inputs = self.store.inputs(thread_id)
        if not inputs:
            raise BadInput(f"solve {thread_id} has no stored inputs to start it again from")
        return self._stream(inputs, self._config(thread_id), step_mode, stop)

    def can_restart(self, thread_id: str) -> bool:
        """Whether restart can start this solve again: inputs stored and no checkpoint written."""
        return bool(self.store.inputs(thread_id)) and not self._has_checkpoint(thread_id)

    def _has_checkpoint(self, thread_id: str) -> bool:
        # The latest checkpoint alone answers this; steps() would read the whole history.
        return self.checkpointer.get_tuple(self._config(thread_id)) is not None

    def fork(self, thread_id: str, checkpoint_id: str, *, code: str | None = None, feedback: str | None = None,
             step_mode: bool = False, stop: threading.Event | None = None) -> Iterator[Event]:
        """Branch from a step with edited code (runs the tests next) or an edited failure report (the
        model repairs next), and continue from there. The original branch stays in the history."""
        if (code is None) == (feedback is None):
            raise BadInput("a fork changes either the code or the failure report")
        stored = self.graph.get_state(self._config(thread_id, checkpoint_id))
        if not stored.values:
            raise BadInput(f"no step {checkpoint_id} in solve {thread_id}")
        base = read_state(stored.values)
        if code is not None:
            if not base["attempts"]:
                raise BadInput("fork the code at a step after the first answer")
            # Written as the coder's output: the edited candidate, not yet run, is what the executor runs next.
            values, as_node = {"code": code, "extract_error": None, "status": "running",
                               "attempts": [self._edited(base, code)]}, "coder"
            messages = base["messages"]
            if messages and messages[-1]["role"] == "assistant":
                # The conversation shows the edited code as the model's last answer, so a repair reads true
                # history: the one write that replaces the conversation instead of extending it.
                values["messages"] = Overwrite(messages[:-1] + [
                    {"role": "assistant", "content": f"```python\n{code.rstrip()}\n```"}])
        else:
            values, as_node = {"feedback": feedback, "status": "running"}, "executor"
            search = stored_search(base, self.search)
            if base["iteration"] >= search.budget:  # allow the one more candidate asked for
                values["search"] = search_dict(replace(search, budget=base["iteration"] + 1))
        config = self.graph.update_state(self._config(thread_id, checkpoint_id), values, as_node=as_node)
        return self._stream(None, config, step_mode, stop)

    def _stream(self, state: dict | Command | None, config: dict, step_mode: bool,
                stop: threading.Event | None = None) -> Iterator[Event]:
        """Stream the graph as events. When stop is set, end at the next checkpoint, paused before the next
        node: a stream closed inside a node leaves that node's writes pending and no next node on record."""
        # This process owns the solve while it streams; if the process dies, the Debugger lists it as
        # interrupted (SolveStore.solves) and offers to carry it on from its last checkpoint.
        with self.store.running(config["configurable"]["thread_id"]):
            yield from self._stream_owned(state, config, step_mode, stop)

    def _stream_owned(self, state: dict | None, config: dict, step_mode: bool,
                      stop: threading.Event | None) -> Iterator[Event]:
        thread_id = config["configurable"]["thread_id"]
        step = 0
        stream = self.graph.stream(state, config, stream_mode=["debug", "messages"],
                                   interrupt_before=list(NODES) if step_mode else None)
        for mode, chunk in stream:
            if mode == "messages":
                message, meta = chunk
                if isinstance(message.content, str) and message.content:
                    yield Token(thread_id, meta.get("langgraph_step", step), meta.get("langgraph_node", ""),
                                message.content)
                continue
            step, kind, payload = chunk["step"], chunk["type"], chunk["payload"]
            if kind == "checkpoint" and stop is not None and stop.is_set():
                stream.close()
                break
            if kind == "task":
                yield NodeStarted(thread_id, step, payload["name"])
            elif kind == "task_result":
                result = payload.get("result") or {}
                error = payload.get("error")
                yield NodeFinished(thread_id, step, payload["name"], dict(result) if isinstance(result, dict) else {},
                                   str(error) if error else None)
        final = self.graph.get_state(self._config(thread_id))
        values, paused = final.values, bool(final.next)
        # No status at all: the graph stopped before its first node wrote one.
        status = "paused" if paused else values.get("status", "error")
        self.store.set_status(thread_id, status)
        yield RunFinished(thread_id, step, values.get("status", "error"), values.get("code", ""),
                          values.get("iteration", 0), paused, final.next[0] if paused else None, values.get("error"),
                          asking=any(task.interrupts for task in final.tasks))

    def steps(self, thread_id: str) -> list[Step]:
        """Every checkpoint of a solve, oldest first (forks included: see parent_id)."""
        history = []
        for snap in self.graph.get_state_history(self._config(thread_id)):
            parent = (snap.parent_config or {}).get("configurable", {}).get("checkpoint_id")
            history.append(Step(snap.config["configurable"]["checkpoint_id"], parent, snap.metadata.get("step", -1),
                                snap.next[0] if snap.next else None, read_state(snap.values)["iteration"],
                                snap.values.get("status"), snap.created_at or "", snap.metadata.get("source", "")))
        return list(reversed(history))

    def first_failing_step(self, thread_id: str) -> Step | None:
        """The earliest checkpoint at which a candidate has run and failed its visible tests (None if none did)."""
        for step in self.steps(thread_id):
            if any(c.ran and not c.passed for c in self.candidates(thread_id, step.checkpoint_id)):
                return step
        return None

    def paused_before(self, thread_id: str) -> str | None:
        """The node a paused (step mode) solve will run next, or None when it is not paused."""
        snapshot = self.graph.get_state(self._config(thread_id))
        return snapshot.next[0] if snapshot.next else None

    def state_at(self, thread_id: str, checkpoint_id: str | None = None) -> SolveState | dict:
        """The full state at a step (the latest when checkpoint_id is None), every key there with its default
        (agent.loop.state.read_state); {} when there is no such step."""
        values = self.graph.get_state(self._config(thread_id, checkpoint_id)).values
        return read_state(values) if values else {}

    def candidates(self, thread_id: str, checkpoint_id: str | None = None) -> list[Candidate]:
        """The candidates of a solve at a step (the latest when checkpoint_id is None), typed."""
        return candidates(self.state_at(thread_id, checkpoint_id))

    def chosen(self, thread_id: str, checkpoint_id: str | None = None) -> ChoiceView | None:
        """The chooser's pick and its reason, when the solve chose among several candidates."""
        return choice(self.state_at(thread_id, checkpoint_id))

    def lineage_of(self, thread_id: str) -> Lineage | None:
        """The earlier solve this one was started again from and the tests a person added; None for a first solve."""
        return lineage_from(self.store.lineage(thread_id))

    def started_again(self, thread_id: str) -> list[tuple[str, Lineage]]:
        """The solves a person started again from this one, oldest first, each with its lineage."""
        return [(thread, lineage_from(stored)) for thread, stored in self.store.started_again_from(thread_id)]

    def search_of(self, thread_id: str) -> Search:
        """The Search a stored solve runs with (its latest checkpoint's, else its stored inputs'), read as its nodes
        read it (agent.config.stored_search, with this solver's Search for what an old solve did not store)."""
        stored = self.graph.get_state(self._config(thread_id)).values or self.store.inputs(thread_id)
        return stored_search(stored, self.search)


def make_solver(settings: Settings | None = None) -> Solver:
    """A Solver on the configured model (raises agent.providers.chat_model.ModelUnavailable with a fix-it message)."""
    settings = settings or load_settings()
    model, spec = make_chat_model(settings)
    return Solver(model, settings.checkpoint_db, spec, settings.search)
