"""LangGraph Studio: langgraph.json names a graph factory that builds the loop, with no server started."""

from __future__ import annotations

import asyncio
import importlib
import json
import re
from pathlib import Path

from agent.loop.graph import NODES
from fakes import PromptKeyedModel

ROOT = Path(__file__).resolve().parent.parent


def test_langgraph_json_names_a_factory_of_the_loop_without_a_checkpointer(monkeypatch):
    config = json.loads((ROOT / "langgraph.json").read_text())
    assert config["dependencies"] == ["."]
    (target,) = config["graphs"].values()
    path, _, attribute = target.partition(":")
    assert (ROOT / path).is_file()
    module = importlib.import_module(Path(path).with_suffix("").as_posix().removeprefix("./").replace("/", "."))
    # The factory asks the settings for a chat model; a scripted one stands in, so no model is loaded.
    monkeypatch.setattr(module, "make_chat_model", lambda settings: (PromptKeyedModel(answer=lambda p, a: ""), None))
    graph = asyncio.run(getattr(module, attribute)())  # async: the server calls it in its event loop
    assert graph.checkpointer is None  # the LangGraph server brings its own
    drawn = graph.get_graph()
    assert set(drawn.nodes) == {"__start__", "__end__", *NODES}
    edges = {(edge.source, edge.target) for edge in drawn.edges}
    assert {("__start__", "coder"), ("coder", "executor"), ("executor", "coder"), ("executor", "chooser"),
            ("chooser", "__end__")} <= edges


def test_the_langgraph_cli_is_a_pinned_development_dependency():
    assert re.search(r"^langgraph-cli\[inmem\]==\S+$", (ROOT / "requirements-dev.txt").read_text(), re.MULTILINE)
