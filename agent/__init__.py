"""The self-healing loop: a LangGraph state machine (coder -> executor -> repair) on a real model.

The public API, for bench, ui and CLIs. Its rooms: agent.providers (chat models), agent.loop (the graph, its nodes,
state and prompts), agent.solves (the solver, its store, jobs and history); agent.models fetches GGUF files.
"""

from agent.config import Search, Settings, load_settings
from agent.inputs import (
    BadInput,
    EntryPointUse,
    EnvironmentProblem,
    UnsupportedTests,
    infer_entry_point,
    resolve_entry_point,
    validate_input,
)
from agent.providers.chat_model import ModelSpec, ModelUnavailable, make_chat_model
from agent.solves.events import Event, NodeFinished, NodeStarted, RunFinished, Token, event_to_dict
from agent.solves.history import Step, next_draw
from agent.solves.jobs import SolveJob, start_job
from agent.solves.line import LineFull, Place
from agent.solves.solver import Solver, make_solver
from agent.solves.store import SolveStore
from sandbox.status import SandboxStatus, sandbox_status

__all__ = [
    "BadInput", "EntryPointUse", "EnvironmentProblem", "Event", "LineFull", "ModelSpec", "ModelUnavailable",
    "NodeFinished", "NodeStarted", "Place", "RunFinished", "SandboxStatus", "Search", "Settings", "SolveJob",
    "SolveStore", "Solver", "Step", "Token", "UnsupportedTests", "event_to_dict", "infer_entry_point",
    "load_settings", "make_chat_model", "make_solver", "next_draw", "resolve_entry_point", "sandbox_status",
    "start_job", "validate_input",
]
