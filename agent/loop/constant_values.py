"""Argument values a test builds from literals with a few pure builtins: ``list(range(1, 26))``, ``"ab" * 3``,
``[0] * 5``, ``sorted({3, 1})``, ``[1, 2] + [3]``; and the calendar's values, ``date(2024, 3, 4)``,
``datetime.datetime(2024, 3, 4, 9, 30)``, ``time(23, 59)``, ``timedelta(days=2)``, built from whole numbers. People
write these for inputs longer than they care to type, and dates as the standard library makes them; read as values, a
call that passes one is probed (and a pass on it doubted) as a call of literals is, where before it was not read at
all. Nothing else is evaluated: no name but these builtins and the four calendar types (bare or as attributes of
``datetime``), keywords only for the calendar's, no call of anything else, sizes capped; reading a test never runs
its code."""

from __future__ import annotations

import ast
import datetime
from collections.abc import Callable, Mapping

from sandbox.inside.names import reads_and_binds

MAX_ITEMS = 10_000  # the longest sequence a built value may be: longer ones are no probe input (their call is cut)
MAX_DEPTH = 8
_NUMBERS = (int, float)
_BUILDERS: dict[str, Callable] = {"list": list, "tuple": tuple, "set": set, "frozenset": frozenset,
                                  "sorted": sorted, "range": range, "str": str}
# The calendar's types, read by their bare names (``from datetime import date``) or as ``datetime.date``: naive
# values only, their repr (``datetime.date(2024, 3, 4)``) is how a probe writes them back (agent.loop.probes).
CALENDAR: dict[str, type] = {"date": datetime.date, "datetime": datetime.datetime, "time": datetime.time,
                             "timedelta": datetime.timedelta}
# How a probe writes them (their repr), and how tests that say nothing otherwise may: bare or as datetime's.
SPELLINGS: dict[str, type] = {**CALENDAR, **{f"datetime.{name}": kind for name, kind in CALENDAR.items()}}
_SEQUENCE_OPS = (ast.Add, ast.Mult)
_NUMBER_OPS = {ast.Add: lambda a, b: a + b, ast.Sub: lambda a, b: a - b, ast.Mult: lambda a, b: a * b}


class _NotConstant(Exception):
    """The expression is not one this module reads."""


def _plain(value: object) -> bool:
    """Whether value is plain data whose repr reads back as the same value (what a probe call writes)."""
    if value is None or isinstance(value, (bool, int, float, complex, str, bytes)):
        return True
    if isinstance(value, (list, tuple, set, frozenset)):
        return all(_plain(v) for v in value)
    if isinstance(value, dict):
        return all(_plain(k) and _plain(v) for k, v in value.items())
    if type(value) in CALENDAR.values():
        return getattr(value, "tzinfo", None) is None
    return False


def _sized(value: object) -> int:
    try:
        return len(value)  # type: ignore[arg-type]
    except TypeError:
        return 0


def _calendar_type(func: ast.expr, spellings: Mapping[str, type]) -> type | None:
    """The calendar type a call's function names (``date``, ``datetime.date``, as spellings has them); None for
    anything else."""
    if isinstance(func, ast.Name):
        return spellings.get(func.id)
    if isinstance(func, ast.Attribute) and isinstance(func.value, ast.Name):
        return spellings.get(f"{func.value.id}.{func.attr}")
    return None


def calendar_names(module: ast.Module) -> tuple[dict[str, str], set[str], set[str]]:
    """How tests name the calendar's types: ({name: the datetime type, or "module", it stands for}, from ``import
    datetime [as dt]`` and ``from datetime import date [as d]`` (or ``*``) at their top level; the names they bind
    any other way anywhere; the names they read and never bind, the code's, which the tests share)."""
    read, bound = reads_and_binds(module)
    imported: dict[str, str] = {}
    calendar_imports: set[int] = set()
    for node in module.body:
        if isinstance(node, ast.ImportFrom) and node.module == "datetime" and not node.level:
            calendar_imports.add(id(node))
            for alias in node.names:
                if alias.name == "*":
                    imported.update({name: name for name in CALENDAR})
                elif alias.name in CALENDAR:
                    imported[alias.asname or alias.name] = alias.name
        elif isinstance(node, ast.Import) and all(a.name == "datetime" for a in node.names):
            calendar_imports.add(id(node))
            imported.update({a.asname or a.name: "module" for a in node.names})
    # What the tests bind besides those imports (the code's own module, imported by name, binds nothing of theirs).
    _, otherwise = reads_and_binds(ast.Module([n for n in module.body if id(n) not in calendar_imports], []))
    shared = read - bound - {name for name, kind in imported.items() if kind != "module"}  # `import *`'s are bound
    # A name imported from datetime and bound otherwise too (a local `date = ...`) stands for nothing sure.
    return {name: kind for name, kind in imported.items() if name not in otherwise}, otherwise, shared


def calendar_spellings(module: ast.Module) -> dict[str, type]:
    """The spellings of the calendar's types these tests use: what they import from datetime (``d`` of ``from
    datetime import date as d``, ``dt.date`` of ``import datetime as dt``), and the bare and ``datetime.`` ones they
    bind no other way (a name they only read is the code's, which the tests share); never ``time`` of ``from time
    import time``, a ``date`` helper of theirs, nor ``datetime.date`` where ``datetime`` is the class."""
    imported, otherwise, _ = calendar_names(module)
    found: dict[str, type] = {}
    for name, kind in imported.items():
        if kind == "module":
            found.update({f"{name}.{x}": t for x, t in CALENDAR.items()})
        else:
            found[name] = CALENDAR[kind]
    found.update({x: t for x, t in CALENDAR.items() if x not in imported and x not in otherwise})
    if "datetime" not in otherwise and imported.get("datetime", "module") == "module":
        found.update({f"datetime.{x}": t for x, t in CALENDAR.items()})
    return found


def _whole(node: ast.AST) -> int:
    """A whole number written as a literal (``-1`` too)."""
    try:
        value = ast.literal_eval(node) if isinstance(node, (ast.Constant, ast.UnaryOp)) else None
    except (ValueError, TypeError, SyntaxError) as e:
        raise _NotConstant from e
    if type(value) is not int:
        raise _NotConstant
    return value


def _calendar(kind: type, node: ast.Call) -> object:
    """A date, datetime, time or timedelta built from whole numbers, by place or keyword (at least one: ``time()`` is
    more often time.time's)."""
    if any(isinstance(a, ast.Starred) for a in node.args) or any(k.arg is None for k in node.keywords) or not (
            node.args or node.keywords):
        raise _NotConstant
    args = [_whole(a) for a in node.args]
    keywords = {k.arg: _whole(k.value) for k in node.keywords}
    if len(args) + len(keywords) > 8:
        raise _NotConstant
    try:
        return kind(*args, **keywords)
    except (TypeError, ValueError, OverflowError) as e:  # no such day, an unknown keyword
        raise _NotConstant from e


def _built(node: ast.Call, depth: int, spellings: Mapping[str, type]) -> object:
    kind = _calendar_type(node.func, spellings)
    if kind is not None:
        return _calendar(kind, node)
    name = node.func.id if isinstance(node.func, ast.Name) else None
    if name not in _BUILDERS or node.keywords or any(isinstance(a, ast.Starred) for a in node.args):
        raise _NotConstant
    args = [_value(a, depth + 1, spellings) for a in node.args]
    if name == "range":
        if not 1 <= len(args) <= 3 or not all(type(a) is int for a in args) or len(range(*args)) > MAX_ITEMS:
            raise _NotConstant
        return range(*args)
    if len(args) != 1 or _sized(args[0]) > MAX_ITEMS:
        raise _NotConstant
    if name == "str" and not isinstance(args[0], (*_NUMBERS, str)):
        raise _NotConstant  # str of a list is a repr: no value a person types as text
    try:
        return _BUILDERS[name](args[0])
    except (TypeError, ValueError) as e:  # sorted of mixed types, set of lists, str of a huge int
        raise _NotConstant from e


def _operated(node: ast.BinOp, depth: int, spellings: Mapping[str, type]) -> object:
    left, right = _value(node.left, depth + 1, spellings), _value(node.right, depth + 1, spellings)
    if isinstance(left, range) or isinstance(right, range):
        raise _NotConstant
    numbers = all(isinstance(v, _NUMBERS) and not isinstance(v, bool) for v in (left, right))
    if numbers and type(node.op) in _NUMBER_OPS:
        value = _NUMBER_OPS[type(node.op)](left, right)
        if isinstance(value, int) and value.bit_length() > 4096:
            raise _NotConstant
        return value
    if not isinstance(node.op, _SEQUENCE_OPS):
        raise _NotConstant
    if isinstance(node.op, ast.Mult):
        sequence, times = (left, right) if isinstance(right, int) else (right, left)
        if not isinstance(sequence, (str, list, tuple)) or type(times) is not int or (
                len(sequence) * max(times, 0) > MAX_ITEMS):
            raise _NotConstant
        return sequence * times
    if type(left) is not type(right) or not isinstance(left, (str, list, tuple)) or (
            len(left) + len(right) > MAX_ITEMS):
        raise _NotConstant
    return left + right


def _value(node: ast.AST, depth: int, spellings: Mapping[str, type]) -> object:
    if depth > MAX_DEPTH:
        raise _NotConstant
    try:
        return ast.literal_eval(node)
    except (ValueError, TypeError, SyntaxError, MemoryError, RecursionError):
        pass
    if isinstance(node, ast.Call):
        return _built(node, depth, spellings)
    if isinstance(node, ast.BinOp):
        return _operated(node, depth, spellings)
    if isinstance(node, (ast.List, ast.Tuple, ast.Set)) and not any(isinstance(e, ast.Starred) for e in node.elts):
        items = [_value(e, depth + 1, spellings) for e in node.elts]
        try:
            return list(items) if isinstance(node, ast.List) else tuple(items) if isinstance(node, ast.Tuple) else (
                set(items))
        except TypeError as e:  # an unhashable item of a set
            raise _NotConstant from e
    if isinstance(node, ast.Dict) and None not in node.keys:
        try:
            return {_value(k, depth + 1, spellings): _value(v, depth + 1, spellings)
                    for k, v in zip(node.keys, node.values)}
        except TypeError as e:
            raise _NotConstant from e
    raise _NotConstant


def constant(node: ast.AST, spellings: Mapping[str, type] = SPELLINGS) -> tuple[bool, object]:
    """(whether node is a literal or a value built from literals as this module reads them, that value). A range
    alone is no value here (its repr is a call again): ``list(range(3))`` is. spellings: how the calendar's types are
    named where node was written (calendar_spellings of the tests; by default bare or as datetime's)."""
    try:
        value = _value(node, 0, spellings)
    except (_NotConstant, MemoryError, RecursionError):
        return False, None
    return (True, value) if _plain(value) else (False, None)
