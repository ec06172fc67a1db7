"""The self-healing loop: a LangGraph state machine (coder -> executor -> repair) on a real model.

The public API, for bench, ui and CLIs. Its rooms: agent.providers (chat models), agent.loop (the graph, its nodes,
state and prompts), agent.solves (the solver, its store, jobs and history); agent.models fetches GGUF files.

Each name is imported from its module when it is first read: the loop's libraries (LangChain, LangGraph) take two
seconds to import, and a command that never solves (``python -m bench list``, ``show``, ``compare``) should not
wait for them.
"""

from __future__ import annotations

import importlib

_HOMES = {
    "agent.config": ("Search", "Settings", "load_settings"),
    "agent.inputs": ("BadInput", "EntryPointUse", "EnvironmentProblem", "UnsupportedTests", "infer_entry_point",
                     "resolve_entry_point", "validate_input"),
    "agent.providers.chat_model": ("ModelSpec", "ModelUnavailable", "make_chat_model"),
    "agent.solves.events": ("Event", "NodeFinished", "NodeStarted", "RunFinished", "Token", "event_to_dict"),
    "agent.solves.history": ("Step", "next_draw"),
    "agent.solves.jobs": ("SolveJob", "start_job"),
    "agent.solves.line": ("LineFull", "Place"),
    "agent.solves.solver": ("Solver", "make_solver"),
    "agent.solves.store": ("SolveStore",),
    "sandbox.status": ("SandboxStatus", "sandbox_status"),
}
_HOME_OF = {name: module for module, names in _HOMES.items() for name in names}

__all__ = sorted(_HOME_OF)


def __getattr__(name: str) -> object:
    module = _HOME_OF.get(name)
    if module is None:
        raise AttributeError(f"module 'agent' has no attribute {name!r}")
    value = getattr(importlib.import_module(module), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted({*globals(), *__all__})

