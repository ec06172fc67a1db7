"""Inputs near the visible calls that reach the rules tasks often state in words, probed after a doubted pass.

The probes' own mutations (agent.loop.probes) shorten, reverse, empty and negate the examples. Tasks in words state
more: whitespace of any kind, case, ties and duplicates, ranges that only touch, arguments that are equal. Answers
that pass thin tests often differ exactly there (a tab where the example has spaces, a tie in a count), so a doubt
probes these too. Hypothesis reaches such cases by copying one generated value over another (duplicates, equal
arguments); EvalPlus by repeating an element. They are probed only when a pass is doubted: a solve nobody doubts
chooses among its candidates as before.
"""

from __future__ import annotations

import itertools

from agent.loop.probes import bare_call, literal_calls


def _text_edges(value: str) -> list[str]:
    """Other whitespace and case than the example's."""
    edges = [value.replace(" ", "\t", 1), value.replace(" ", "  ", 1)] if " " in value else []
    return edges + [f" {value} ", value.swapcase(), value.title()]


def _list_edges(value: list | tuple) -> list[object]:
    """Case inside a string element, a duplicate (the first element over the second), the distinct elements alone,
    and pairs that touch (the second pair starting where the first ends)."""
    kind, items = type(value), list(value)
    edges: list[object] = []
    texts = [i for i, x in enumerate(items) if isinstance(x, str) and x]
    if texts:
        i = texts[0]
        edges += [kind(items[:i] + [items[i].upper()] + items[i + 1:]),
                  kind(items[:i] + [items[i].capitalize()] + items[i + 1:])]
    if len(items) >= 2:
        edges.append(kind([items[0], items[0]] + items[2:]))
        try:
            distinct = list(dict.fromkeys(items))
        except TypeError:  # unhashable elements: no distinct version
            distinct = items
        if len(distinct) < len(items):
            edges.append(kind(distinct))
        if all(isinstance(x, (list, tuple)) and len(x) == 2 for x in items[:2]):
            edges.append(kind([items[0], type(items[1])([items[0][1], items[1][1]])] + items[2:]))
    return edges


def edges_of(value: object) -> list[object]:
    """The edge inputs of one argument of a visible call."""
    if isinstance(value, str) and value:
        return _text_edges(value)
    if isinstance(value, (list, tuple)) and value:
        return _list_edges(value)
    return []


def edge_calls(tests: str, entry_point: str | None) -> list[str]:
    """Calls of the entry point (as agent.loop.probes.bare_call writes them) with one argument of a visible call
    moved to an edge (edges_of), or one int argument made equal to another; each once, in the visible calls'
    order, none a visible call's own."""
    if not entry_point:
        return []
    calls = [args for _, args, _ in literal_calls(tests, entry_point)]
    found: list[str] = []
    given = {bare_call(entry_point, args) for args in calls}
    for args in calls:
        variants = [args[:i] + [edge] + args[i + 1:] for i, a in enumerate(args) for edge in edges_of(a)]
        ints = [i for i, a in enumerate(args) if isinstance(a, int) and not isinstance(a, bool)]
        variants += [args[:j] + [args[i]] + args[j + 1:] for i, j in itertools.combinations(ints, 2)
                     if args[i] != args[j]]
        for variant in variants:
            call = bare_call(entry_point, variant)
            if call not in given and call not in found and len(call) < 2000:
                found.append(call)
    return found
