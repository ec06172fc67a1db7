"""The self-healing loop: a LangGraph state machine (coder -> executor -> repair) on a real model."""

from agent.config import Search, Settings, load_settings
from agent.inputs import (
    BadInput,
    EntryPointUse,
    EnvironmentProblem,
    infer_entry_point,
    resolve_entry_point,
    validate_input,
)
from agent.providers.chat_model import ModelSpec, ModelUnavailable, make_chat_model
from agent.solves.events import Event, NodeFinished, NodeStarted, RunFinished, Token, event_to_dict
from agent.solves.history import Step
from agent.solves.jobs import SolveJob, start_job
from agent.solves.solver import Solver, make_solver
from sandbox.status import SandboxStatus, sandbox_status

__all__ = [
    "BadInput", "EntryPointUse", "EnvironmentProblem", "Event", "ModelSpec", "ModelUnavailable", "NodeFinished",
    "NodeStarted", "RunFinished", "SandboxStatus", "Search", "Settings", "SolveJob", "Solver", "Step", "Token",
    "event_to_dict", "infer_entry_point", "load_settings", "make_chat_model", "make_solver", "resolve_entry_point",
    "sandbox_status", "start_job", "validate_input",
]
