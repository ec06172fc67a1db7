"""What a value is as it crosses: the standard types by name, the protocol methods a class has, a value read as its
standard type, short texts, and the two errors of crossing. Shared by encoding.py and decoding.py.

Runs inside the sandbox (stdlib only), in both processes.
"""

from __future__ import annotations

import builtins
import collections
import sys
import types

import proxies
import values

MAX_DEPTH = 200  # nesting of one value
PROTOCOL = ("__call__", "__iter__", "__next__", "__len__", "__getitem__", "__setitem__", "__delitem__",
             "__contains__", "__enter__", "__exit__", "__await__", "__aiter__", "__anext__", "__aenter__",
             "__aexit__", "__bool__", "__hash__", "__reversed__", "__int__", "__float__", "__index__", "__round__",
             "__neg__", "__pos__", "__abs__", "__invert__", "send", "throw", "close", *proxies.DESCRIPTOR_METHODS,
             *proxies.BINARY_OPS)
# Builtins a value may name instead of crossing as a proxy: functions and types that hold nothing of the sender.
SAFE_BUILTINS = frozenset({
    "abs", "all", "any", "ascii", "bin", "bool", "bytearray", "bytes", "callable", "chr", "complex", "dict",
    "divmod", "enumerate", "filter", "float", "format", "frozenset", "hash", "hex", "int", "isinstance",
    "issubclass", "iter", "len", "list", "map", "max", "min", "next", "object", "oct", "ord", "pow", "print",
    "range", "repr", "reversed", "round", "set", "slice", "sorted", "str", "sum", "tuple", "type", "zip"})
METHOD_OWNERS = {"str": str, "bytes": bytes, "int": int, "float": float, "list": list, "dict": dict, "set": set,
                  "tuple": tuple, "frozenset": frozenset}
_NEVER_RAISED = ("KeyboardInterrupt", "GeneratorExit", "BaseException")  # SystemExit fails a test, as pytest
FORWARDED = {types.GeneratorType: "generator", types.CoroutineType: "coroutine",
              types.AsyncGeneratorType: "async_generator"}


def _standard_types() -> dict[str, type]:
    import datetime
    import decimal
    import fractions
    import pathlib

    named = {f"builtins.{name}": value for name, value in vars(builtins).items()
             if isinstance(value, type) and (name in SAFE_BUILTINS or issubclass(value, BaseException))
             and name not in _NEVER_RAISED}
    for module, names in ((datetime, ("date", "datetime", "time", "timedelta", "timezone")),
                          (decimal, ("Decimal",)), (fractions, ("Fraction",)),
                          (collections, ("deque", "Counter", "OrderedDict", "defaultdict", "namedtuple")),
                          (pathlib, ("Path", "PurePath", "PosixPath", "PurePosixPath"))):
        for name in names:
            named[f"{module.__name__}.{name}"] = getattr(module, name)
    return named


STANDARD_TYPES = _standard_types()
TYPE_NAMES = {id(value): name for name, value in STANDARD_TYPES.items()}


class PeerGone(Exception):
    """The other process stopped answering: it exited, crashed or was killed, or sent what this side cannot read."""


class CannotCross(TypeError):
    """A value this side cannot send (too large, or nested too deeply)."""


def dict_items(mapping: dict) -> object:
    """A mapping's items read with the standard type's own method: an OrderedDict's order is its own list's
    (move_to_end), which dict's items do not follow."""
    return (collections.OrderedDict.items if isinstance(mapping, collections.OrderedDict) else dict.items)(mapping)


def read_as(base: type, value: object) -> object:
    """value's data through the standard type's own methods, never its class's (an int subclass's real int)."""
    if base is tuple:
        return tuple(tuple.__iter__(value))
    if base is frozenset:
        return frozenset(frozenset.__iter__(value))
    if base is collections.deque:
        return collections.deque(collections.deque.__iter__(value), collections.deque.maxlen.__get__(value))
    if base in (list, bytearray):
        return base(base.__iter__(value))
    if base is set:
        return set(set.__iter__(value))
    if issubclass(base, dict):
        pairs = list(dict_items(value))
        if base is collections.defaultdict:
            return collections.defaultdict(collections.defaultdict.default_factory.__get__(value), pairs)
        return dict(pairs) if base is dict else base(dict(pairs))  # Counter(pairs) would count the pairs
    if base is str:
        return str.__str__(value)
    if base is bytes:
        return bytes(memoryview(value))
    if base is bool or base is int:
        return int.__index__(value)
    if base is float:
        return float.__float__(value)
    if base is complex:
        return complex(float.__float__(complex.real.__get__(value)), float.__float__(complex.imag.__get__(value)))
    return values.copy_standard(base, value)


def caps_of(cls: type) -> list[str]:
    """The protocol methods instances of cls have (looked up in its MRO, as Python does, not on its metaclass)."""
    found = []
    for name in PROTOCOL:
        for klass in cls.__mro__:
            if name in klass.__dict__:
                if klass.__dict__[name] is not None:
                    found.append(name)
                break
    return found


def caps_in(caps: object) -> frozenset:
    return frozenset(c for c in caps if type(c) is str and c in PROTOCOL) if type(caps) is list else frozenset()


def as_list(items: object) -> list:
    if type(items) not in (list, tuple):
        raise values.BadRecord("expected a list")
    return list(items)


def is_builtin_exception(cls: type) -> bool:
    """Whether cls is a builtin exception class itself (ZeroDivisionError, not a subclass of it)."""
    return getattr(builtins, cls.__name__, None) is cls and cls.__name__ not in _NEVER_RAISED


def builtin_exception_name(cls: type) -> str:
    for klass in cls.__mro__:
        if is_builtin_exception(klass):
            return klass.__name__
    return "Exception"


def standard_name(cls: type) -> str | None:
    """module.Class for a class of the standard library (not builtins), else None."""
    module = cls.__dict__.get("__module__")
    if type(module) is str and module.split(".")[0] in sys.stdlib_module_names and module != "builtins":
        # only a class that name finds: one that says it is a standard module's (its __module__ set) is not named
        if getattr(sys.modules.get(module), cls.__qualname__, None) is cls:
            return f"{module}.{cls.__qualname__}"
    return None


def short_text(text: object, limit: int = 2000) -> str:
    text = str(text) if text is not None else ""
    return text if len(text) <= limit else text[:limit] + f"... [{len(text) - limit} more chars]"


def text_of(fn, value: object, limit: int = 300) -> str:
    try:
        return short_text(str(fn(value)), limit)
    except BaseException as exc:  # this side's own __repr__/__str__ may raise anything
        return f"<{type(value).__name__} ({fn.__name__} raised {type(exc).__name__})>"


_ARG_TYPES = (int, float, str, bool, type(None), bytes)
MESSAGE_LIMIT = 10_000  # an exception's message and each text among its args: match= reads them whole


def _plain_arg(value: object, depth: int = 0) -> bool:
    if type(value) in (tuple, list) and depth < 4 and len(value) <= 100:  # d[(3, 4)]: KeyError((3, 4))
        return all(_plain_arg(v, depth + 1) for v in value)
    return type(value) in _ARG_TYPES and (type(value) not in (str, bytes) or len(value) <= MESSAGE_LIMIT)


def exception_args(exc: BaseException) -> tuple | None:
    """An exception's args where they are plain values (``HTTPError(404, 'Not Found')``, ``KeyError('timeout')``),
    to cross as they are; else None (the message stands for them, as before)."""
    args = exc.args
    if type(args) is tuple and len(args) <= 16 and all(_plain_arg(a) for a in args):
        return args
    return None


def exception_fields(exc: BaseException) -> dict:
    """What an exception carries beside its message, for proxies.give_args on the other side: its args, an OSError's
    fields and a SystemExit's code (set apart from its args: ``e.code = 3``), each where they are plain values."""
    found = {"args": exception_args(exc), "os_error": os_error_fields(exc)}
    if isinstance(exc, SystemExit):
        code = getattr(exc, "code", None)
        found["exit_code"] = [code] if _plain_arg(code) else None
    return found


def os_error_fields(exc: BaseException) -> list | None:
    """An OSError's errno, strerror, filename and filename2 where they are plain values (its args hold only the
    first two): ``e.errno == errno.ENOENT``, ``e.filename == 'x.txt'``."""
    if not isinstance(exc, OSError):
        return None
    found = [getattr(exc, name, None) for name in proxies.OS_ERROR_FIELDS]
    return found if all(_plain_arg(v) for v in found) else None
