"""ast.parse that threads can share.

CPython 3.11 keeps the recursion depth of its AST-to-object conversion in one global per
interpreter (fixed in 3.12 and 3.13 by gh-106905, never in 3.11). If the garbage collector
runs a finalizer in the middle of a parse, the GIL can pass to a thread that parses too, and one
of them fails with "SystemError: AST constructor recursion depth mismatch". CI saw it in a bench
run with two worker threads. Every parse of ours on the host goes through this lock.
"""

from __future__ import annotations

import ast
import threading

_PARSE_LOCK = threading.RLock()


def parse(source: str, mode: str = "exec") -> ast.AST:
    """ast.parse(source, mode=mode), one thread at a time."""
    with _PARSE_LOCK:
        return ast.parse(source, mode=mode)


def parses(source: str) -> bool:
    """Whether source is Python that parses (a null byte in it is ValueError in 3.11, SyntaxError later: no either)."""
    try:
        parse(source)
    except (SyntaxError, ValueError):
        return False
    return True
