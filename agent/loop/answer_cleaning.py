"""The answer without the model's leftovers: its own tests and demos go before the code is judged.

Small models append their own copy of the tests or a demo to the answer: pytest test functions without
``import pytest``, a ``unittest.TestCase`` without its import, a call of their own ``check_function()`` whose wrong
asserts raise, prints, ``if __name__ == "__main__":`` blocks. Run as they are, the right function above them dies
when the code is loaded and is never judged.

What stays is what the task needs: every import and configuration call on one (``sys.setrecursionlimit(...)``);
every function and class but the model's own tests (a task may ask for more functions than the visible tests
call); the statements binding or filling the module-level names the kept code reads, found from the entry point
and the names the visible tests use through what bodies, decorators, defaults, annotations and bases read (a
constant, a namedtuple, a compiled regex, a cache dict and the statements that fill it); and plain values. What
goes: test functions and classes nothing kept reaches, top-level asserts, prints and demo calls, ``__main__``
blocks, imports of test libraries nothing kept uses, and statements that run something at load only to bind a
name nothing reads (``result = solve(5)``). When neither the entry point nor the tests' names are bound by the
code, only the obvious tests and demos go. Everything is decided on the syntax tree (with the compiler's scopes,
so a function's own n is not the module's n); kept statements keep their source text, comments included. EvalPlus's
``sanitize`` keeps only what the entry point reaches; this keeps more, since the hidden tests may call more.

Only the answer's own code and the names the visible tests use are read: hidden tests reach nothing here.
"""

from __future__ import annotations

import ast
from collections.abc import Collection

from agent.loop.answer_statements import Statement, statements_of
from sandbox import module_offered
from sandbox.inside.names import reads_and_binds
from sandbox.inside.shapes import module_under_test
from sandbox.locked_parse import parse


def names_tests_use(tests: str) -> frozenset[str]:
    """The names visible tests read without binding them (the code's names they call or use), and those they
    import from the code's module (solution, or the name they import the code by). Tests that do not parse use
    none."""
    try:
        module = parse(tests)
    except SyntaxError:
        return frozenset()
    alias = module_under_test(module, module_offered)
    read, bound = reads_and_binds(module, frozenset({"solution", alias} - {None}))
    return frozenset(read - bound)


def clean_answer(code: str, *, entry_point: str | None = None, test_names: Collection[str] = frozenset(),
                 task_names: Collection[str] = frozenset()) -> tuple[str, list[str]]:
    """The code without the model's own tests and demos, and a short label for each statement removed
    (``test_basic``, ``check_function()``, ``print(...)``, ``if __name__ == "__main__"``, ``assert at line 12``).

    test_names are the names the visible tests use (names_tests_use), task_names those the task's own code binds
    (a HumanEval prompt's helper, which its tests may call); with the entry point they are the roots of what
    stays, and no name among them that the code binds is removed (but from a __main__ block, which never runs).
    Code that does not parse, or that would keep no statement but imports, comes back as it is."""
    try:
        module = parse(code)
    except SyntaxError:
        return code, []
    if not isinstance(module, ast.Module) or not module.body:
        return code, []
    statements = statements_of(code, module)
    named = set(test_names) | set(task_names) | ({entry_point} if entry_point else set())
    kept = _kept(statements, named)
    if all(kept) or not any(k for k, s in zip(kept, statements) if s.kind not in ("import", "inert")):
        return code, []
    return _without(code, statements, kept), [s.label for s, k in zip(statements, kept) if not k]


# --- what stays ----------------------------------------------------------------------------------------------------


def _kept(statements: list[Statement], named: set[str]) -> list[bool]:
    """Which statements stay: imports, configuration and inert ones; every function and class but the code's own
    tests (a task may ask for more functions than the visible tests call, and hidden tests may call them) and
    every plain value (X = 1); the statements binding a named name or one a kept statement reads, and those
    changing such a name in place; until nothing changes. What goes is a test, a demo, or a statement that runs
    something at load to bind a name nothing reads (result = solve(5)). When the code binds no named name, every
    statement that is not an obvious test or demo stays."""
    bindable = {name for s in statements if s.kind not in ("import", "test_import") for name in s.binds}
    reached = named & bindable
    known = bool(reached)
    reached |= {name for s in statements if not s.demo and (
        s.kind == "definition" or s.kind == "other" and not (known and s.runs)) for name in s.binds}
    kept = [False] * len(statements)
    changed = True
    while changed:
        changed = False
        for i, s in enumerate(statements):
            if not kept[i] and _stays(s, reached):
                kept[i], changed = True, True
                reached |= s.reads
        changed |= _keep_shared_lines(statements, kept, reached)
    return kept


def _stays(s: Statement, reached: set[str]) -> bool:
    if s.kind in ("import", "inert", "configuration"):
        return True
    if s.kind in ("main_guard", "assert"):
        return False
    if s.kind in ("definition", "test_import"):
        return bool(s.binds & reached)
    return bool((s.binds | s.mutates) & reached)


def _keep_shared_lines(statements: list[Statement], kept: list[bool], reached: set[str]) -> bool:
    """Statements on one line (x = 1; print(x)) stay or go together: only whole lines are cut."""
    changed = False
    for i in range(1, len(statements)):
        before, after = statements[i - 1], statements[i]
        if after.first <= before.last and kept[i - 1] != kept[i]:
            for j in (i - 1, i):
                if not kept[j]:
                    kept[j], changed = True, True
                    reached |= statements[j].reads
    return changed


def _without(code: str, statements: list[Statement], kept: list[bool]) -> str:
    """The code's lines without the removed statements, the comment lines right above each of them and the blank
    lines right below."""
    lines = code.splitlines()
    drop: set[int] = set()
    for i, s in enumerate(statements):
        if kept[i]:
            continue
        floor = statements[i - 1].last if i else 0
        start, end = s.first, s.last
        while start - 1 > floor and lines[start - 2].lstrip().startswith("#"):
            start -= 1
        while end < len(lines) and not lines[end].strip():
            end += 1
        drop.update(range(start, end + 1))
    return "\n".join(line for number, line in enumerate(lines, 1) if number not in drop).strip("\n") + "\n"


# --- how the candidate's view names what went ---------------------------------------------------------------------
