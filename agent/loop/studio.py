"""The loop for LangGraph Studio: ``langgraph dev`` (langgraph.json at the top) opens this graph.

The same coder -> executor -> chooser graph the Solver runs, on the chat model the settings name (LLM_PROVIDER,
LLM_MODEL, ... as for the app), and without a checkpointer of its own: the LangGraph server keeps its own threads
and checkpoints. A factory, not a module-level graph, so that importing this module asks for no model; async,
because the server calls it in its event loop, where finding the model (an HTTP probe, a file) must not block.
"""

from __future__ import annotations

import asyncio

from langgraph.graph.state import CompiledStateGraph

from agent.config import load_settings
from agent.loop.graph import build_graph
from agent.providers.chat_model import make_chat_model


async def make_graph() -> CompiledStateGraph:
    """The loop on the configured chat model, for the LangGraph server (raises ModelUnavailable with a fix-it
    message when no model is there)."""
    settings = load_settings()
    model, _ = await asyncio.to_thread(make_chat_model, settings)
    # A state typed into Studio holds no search: it runs with the settings' (BUDGET, STRATEGY, ...).
    return build_graph(model, search=settings.search)
