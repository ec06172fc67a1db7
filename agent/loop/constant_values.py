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
from collections.abc import Callable

MAX_ITEMS = 10_000  # the longest sequence a built value may be: longer ones are no probe input (their call is cut)
MAX_DEPTH = 8
_NUMBERS = (int, float)
_BUILDERS: dict[str, Callable] = {"list": list, "tuple": tuple, "set": set, "frozenset": frozenset,
                                  "sorted": sorted, "range": range, "str": str}
# The calendar's types, read by their bare names (``from datetime import date``) or as ``datetime.date``: naive
# values only, their repr (``datetime.date(2024, 3, 4)``) is how a probe writes them back (agent.loop.probes).
CALENDAR: dict[str, type] = {"date": datetime.date, "datetime": datetime.datetime, "time": datetime.time,
                             "timedelta": datetime.timedelta}
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


def _calendar_type(func: ast.expr) -> type | None:
    """The calendar type a call's function names: ``date`` or ``datetime.date``; None for anything else."""
    if isinstance(func, ast.Name):
        return CALENDAR.get(func.id)
    if isinstance(func, ast.Attribute) and isinstance(func.value, ast.Name) and func.value.id == "datetime":
        return CALENDAR.get(func.attr)
    return None


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
    """A date, datetime, time or timedelta built from whole numbers, by place or keyword."""
    if any(isinstance(a, ast.Starred) for a in node.args) or any(k.arg is None for k in node.keywords):
        raise _NotConstant
    args = [_whole(a) for a in node.args]
    keywords = {k.arg: _whole(k.value) for k in node.keywords}
    if len(args) + len(keywords) > 8:
        raise _NotConstant
    try:
        return kind(*args, **keywords)
    except (TypeError, ValueError, OverflowError) as e:  # no such day, an unknown keyword
        raise _NotConstant from e


def _built(node: ast.Call, depth: int) -> object:
    kind = _calendar_type(node.func)
    if kind is not None:
        return _calendar(kind, node)
    name = node.func.id if isinstance(node.func, ast.Name) else None
    if name not in _BUILDERS or node.keywords or any(isinstance(a, ast.Starred) for a in node.args):
        raise _NotConstant
    args = [_value(a, depth + 1) for a in node.args]
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


def _operated(node: ast.BinOp, depth: int) -> object:
    left, right = _value(node.left, depth + 1), _value(node.right, depth + 1)
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


def _value(node: ast.AST, depth: int) -> object:
    if depth > MAX_DEPTH:
        raise _NotConstant
    try:
        return ast.literal_eval(node)
    except (ValueError, TypeError, SyntaxError, MemoryError, RecursionError):
        pass
    if isinstance(node, ast.Call):
        return _built(node, depth)
    if isinstance(node, ast.BinOp):
        return _operated(node, depth)
    if isinstance(node, (ast.List, ast.Tuple, ast.Set)) and not any(isinstance(e, ast.Starred) for e in node.elts):
        items = [_value(e, depth + 1) for e in node.elts]
        try:
            return list(items) if isinstance(node, ast.List) else tuple(items) if isinstance(node, ast.Tuple) else (
                set(items))
        except TypeError as e:  # an unhashable item of a set
            raise _NotConstant from e
    if isinstance(node, ast.Dict) and None not in node.keys:
        try:
            return {_value(k, depth + 1): _value(v, depth + 1) for k, v in zip(node.keys, node.values)}
        except TypeError as e:
            raise _NotConstant from e
    raise _NotConstant


def constant(node: ast.AST) -> tuple[bool, object]:
    """(whether node is a literal or a value built from literals as this module reads them, that value). A range
    alone is no value here (its repr is a call again): ``list(range(3))`` is."""
    try:
        value = _value(node, 0)
    except (_NotConstant, MemoryError, RecursionError):
        return False, None
    return (True, value) if _plain(value) else (False, None)
