"""The loop, built in one place, with a checkpointer: coder -> executor -> (coder | doubt | ask | chooser | END);
doubt -> executor; ask -> (executor | ask | chooser | END)."""

from __future__ import annotations

from functools import partial

from langchain_core.language_models import BaseChatModel
from langgraph.checkpoint.base import BaseCheckpointSaver
from langgraph.graph import END, START, StateGraph

from agent.config import Search
from agent.loop.nodes import (
    after_ask,
    after_coder,
    after_doubt,
    after_executor,
    chooser,
    coder,
    doubt,
    executor,
    put_question,
)
from agent.loop.state import SolveState

NODES = ("coder", "executor", "doubt", "ask", "chooser")
_AFTER_PASS = {"doubt": "doubt", "ask": "ask", "chooser": "chooser", "end": END}


def build_graph(model: BaseChatModel, checkpointer: BaseCheckpointSaver | None = None, search: Search = Search()):
    """Compile the self-healing loop for one chat model. Every node transition is a checkpoint. A solve runs with
    the Search its state holds; search stands in for what a state does not hold (agent.config.stored_search).
    The ask node pauses the solve at a question (a LangGraph interrupt) until Solver.answer resumes it."""
    graph = StateGraph(SolveState)
    graph.add_node("coder", partial(coder, model=model, base=search))
    graph.add_node("executor", partial(executor, base=search))
    graph.add_node("doubt", partial(doubt, model=model, base=search))
    graph.add_node("ask", put_question)
    graph.add_node("chooser", chooser)
    graph.add_edge(START, "coder")
    graph.add_conditional_edges("coder", after_coder, {"executor": "executor", "end": END})
    graph.add_conditional_edges("executor", partial(after_executor, base=search), {"coder": "coder", **_AFTER_PASS})
    graph.add_conditional_edges("doubt", partial(after_doubt, base=search), {"executor": "executor", **_AFTER_PASS})
    graph.add_conditional_edges("ask", partial(after_ask, base=search), {"executor": "executor", **_AFTER_PASS})
    graph.add_edge("chooser", END)
    return graph.compile(checkpointer=checkpointer)
