"""What the code changes of the interpreter and keeps after a call, seen by the tests as in one process.

Runs inside the sandbox (stdlib only), in both processes (codeside_sync.py sends, testside_sync.py takes). In one
process a ``sys.stdout = io.StringIO()`` the code forgets to undo is the stream the test's ``sys.stdout is before``
reads, a ``sys.setrecursionlimit(100)`` is the test's limit too, and a ``warnings.simplefilter('ignore')`` is in the
test's ``warnings.filters``; a test that checks the code put them back fails. So the code's side notes them as each
call it serves begins (snapshot) and sends what the call left changed (changes): a stream it replaced, as an object
of the code's (a test's print inside the code's ``with Capturing() as c:`` lands in the code's buffer), or None when it
put its own back, the limit as a number, the filters it added in front as plain data. The tests' side sets them on its
own interpreter (apply), and takes its own stream back on None. Its harness never asks such a stream anything but to
write (testrunner._fd_level reads a flag without a request).
"""

from __future__ import annotations

import builtins
import re
import sys

_MIN_LIMIT = 200  # a recursion limit below it would stop the tests' own harness, which one file would not have
_MAX_FILTERS = 50


def snapshot() -> tuple:
    """The streams, the recursion limit and the warnings filters as a call begins."""
    warnings = sys.modules.get("warnings")
    return sys.stdout, sys.stderr, sys.getrecursionlimit(), list(warnings.filters) if warnings else None


def changes(began: tuple, own: tuple, encode, captures: type) -> dict:
    """What differs from began and the call kept, as plain data. own: the streams this process had before the code
    replaced any; captures: the class of the streams a request's capture puts in (a stream put back to one of
    those, the one the code saw when it replaced it, is sent as None: the tests' own again)."""
    found = {}
    for name, stream, was, home in (("stdout", sys.stdout, began[0], own[0]), ("stderr", sys.stderr, began[1], own[1])):
        if stream is not was and (stream is home or isinstance(stream, captures)):
            found[name] = None
        elif stream is not was:
            try:
                found[name] = encode(stream)
            except Exception:  # a stream that cannot cross stays the code's
                pass
    if sys.getrecursionlimit() != began[2]:
        found["recursionlimit"] = sys.getrecursionlimit()
    warnings = sys.modules.get("warnings")
    if warnings is not None and began[3] is not None and warnings.filters != began[3]:
        added = len(warnings.filters) - len(began[3])
        if 0 < added <= _MAX_FILTERS and warnings.filters[added:] == began[3]:  # simplefilter/filterwarnings
            found["filters"] = [_plain_filter(f) for f in warnings.filters[:added]]
    return found


def _plain_filter(entry: tuple) -> tuple | None:
    action, message, category, module, lineno = entry
    name = getattr(category, "__name__", None)
    if getattr(builtins, str(name), None) is not category:
        return None  # a warning class of the code's own: not one the tests can name
    return (str(action), getattr(message, "pattern", None), name, getattr(module, "pattern", None), int(lineno))


# By name: the tests' stream the code's replaced, and the code's as set here, for when the code puts its own back.
_REPLACED: dict[str, tuple[object, object]] = {}


def apply(sent: object, decode) -> None:
    """Take on the code's kept changes (changes) in this process."""
    if type(sent) is not dict:
        return
    for name in ("stdout", "stderr"):
        if name not in sent:
            continue
        if sent[name] is None:
            previous, placed = _REPLACED.pop(name, (None, None))
            if placed is not None and getattr(sys, name) is placed:  # not since replaced by the tests (capsys's end)
                setattr(sys, name, previous)
            continue
        stream = decode(sent[name])
        previous, placed = _REPLACED.get(name, (None, None))
        _REPLACED[name] = (previous if placed is not None and getattr(sys, name) is placed else getattr(sys, name),
                           stream)
        setattr(sys, name, stream)
    limit = sent.get("recursionlimit")
    if type(limit) is int:
        try:
            sys.setrecursionlimit(max(limit, _MIN_LIMIT))
        except (ValueError, RecursionError):
            pass
    filters = sent.get("filters")
    if type(filters) is list:
        import warnings

        made = [_filter_of(f) for f in filters[:_MAX_FILTERS]]
        warnings.filters[:0] = [f for f in made if f is not None]
        warnings._filters_mutated()


def _filter_of(sent: object) -> tuple | None:
    if type(sent) is not tuple or len(sent) != 5:
        return None
    action, message, category, module, lineno = sent
    found = getattr(builtins, category, None) if type(category) is str else None
    if (action not in ("error", "ignore", "always", "default", "module", "once") or type(lineno) is not int
            or not (isinstance(found, type) and issubclass(found, Warning))):
        return None
    try:
        return (action, re.compile(message, re.I) if type(message) is str else None, found,
                re.compile(module) if type(module) is str else None, lineno)
    except re.error:
        return None
