"""The loop, built in one place: coder -> executor -> (coder | chooser | END), with a checkpointer."""

from __future__ import annotations

from functools import partial

from langchain_core.language_models import BaseChatModel
from langgraph.checkpoint.base import BaseCheckpointSaver
from langgraph.graph import END, START, StateGraph

from agent.config import Search
from agent.loop.nodes import after_coder, after_executor, chooser, coder, executor
from agent.loop.state import SolveState

NODES = ("coder", "executor", "chooser")


def build_graph(model: BaseChatModel, checkpointer: BaseCheckpointSaver | None = None, search: Search = Search()):
    """Compile the self-healing loop for one chat model. Every node transition is a checkpoint. A solve runs with
    the Search its state holds; search stands in for what a state does not hold (agent.config.stored_search)."""
    graph = StateGraph(SolveState)
    graph.add_node("coder", partial(coder, model=model, base=search))
    graph.add_node("executor", partial(executor, base=search))
    graph.add_node("chooser", chooser)
    graph.add_edge(START, "coder")
    graph.add_conditional_edges("coder", after_coder, {"executor": "executor", "end": END})
    graph.add_conditional_edges("executor", after_executor, {"coder": "coder", "chooser": "chooser", "end": END})
    graph.add_edge("chooser", END)
    return graph.compile(checkpointer=checkpointer)
