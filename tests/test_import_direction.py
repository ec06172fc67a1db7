"""Imports point one way (ui -> bench -> agent -> sandbox; inside bench, reports -> scoring -> runs -> protocol ->
datasets), and readers do not reach into the loop's workings."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
# What runs the loop: its nodes and routing, its graph and state. Readers ask agent.solves (history, solver) instead.
LOOP_WORKINGS = ("agent.loop.nodes", "agent.loop.graph", "agent.loop.state")
LAYERS = ("ui", "bench", "agent", "sandbox")  # each may import those after it, never those before
BENCH_ROOMS = ("reports", "scoring", "runs", "protocol", "datasets")  # the same, for bench's rooms


def _imported(package: str) -> dict[str, set[str]]:
    """Every module each file of a package imports, by the file's path."""
    found = {}
    for path in sorted((ROOT / package).rglob("*.py")):
        names = set()
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.Import):
                names |= {alias.name for alias in node.names}
            elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
                names |= {node.module} | {f"{node.module}.{alias.name}" for alias in node.names}
        found[str(path.relative_to(ROOT))] = names
    return found


@pytest.mark.parametrize("reader", ["ui", "bench"])
def test_readers_of_solves_go_through_the_solves_api_not_the_loops_nodes(reader):
    reaching = {path: sorted(n for n in names if n.startswith(LOOP_WORKINGS))
                for path, names in _imported(reader).items()}
    assert {path: names for path, names in reaching.items() if names} == {}


@pytest.mark.parametrize("layer", LAYERS)
def test_no_import_points_against_the_layers(layer):
    earlier = LAYERS[:LAYERS.index(layer)]
    against = {path: sorted(n for n in names if n.split(".")[0] in earlier) for path, names in _imported(layer).items()}
    assert {path: names for path, names in against.items() if names} == {}


@pytest.mark.parametrize("room", BENCH_ROOMS)
def test_no_import_points_against_the_bench_rooms(room):
    # No dataset imports the protocol, no protocol module the runs, and so on down: a room may import those after it.
    earlier = tuple(f"bench.{r}" for r in BENCH_ROOMS[:BENCH_ROOMS.index(room)]) + ("bench.__main__",)
    against = {path: sorted(n for n in names if n.startswith(earlier))
               for path, names in _imported(f"bench/{room}").items()}
    assert {path: names for path, names in against.items() if names} == {}
