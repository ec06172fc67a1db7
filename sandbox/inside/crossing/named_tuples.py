"""The standard library's named tuples as records, rebuilt by the receiving side as their own types.

Runs inside the sandbox (stdlib only), in both processes (crossing.py's codec calls it). ``fib.cache_info()`` is a
functools._CacheInfo, ``os.stat`` gives an os.stat_result, ``time.localtime`` a time.struct_time, ``urlparse`` a
ParseResult: tuples whose fields have names (``.hits``, ``.st_mtime``, ``.tm_zone``, ``.hostname``, ``.geturl()``).
They cross as a record naming the class by its module and the name it has there, with their items (each crossing as
any value does) and, for a structseq, its fields beyond the tuple's (st_mtime, tm_zone). The receiving side builds
the value with its own class of that name: only a tuple type of a standard module, loaded there already or safe to
import (values.build_module's rule), made from data without running any of the class's code beyond the standard
library's own constructor. A class it does not have gives a plain tuple, as before.

Only exact types of the standard library: a namedtuple the code defined is one of its classes, with a mirror.
"""

from __future__ import annotations

import sys

import values

TAG = "named_tuple"
_MAX_ITEMS = 1000
_places: dict[type, tuple[str, str] | None] = {}


def _is_structseq(cls: type) -> bool:
    return type(cls.__dict__.get("n_sequence_fields")) is int


def _is_namedtuple(cls: type) -> bool:
    fields = getattr(cls, "_fields", None)
    return type(fields) is tuple and all(type(name) is str for name in fields) and hasattr(cls, "_make")


def _place(cls: type) -> tuple[str, str] | None:
    """(module, name there) of a standard library's named tuple type, or None."""
    if cls in _places:
        return _places[cls]
    found = None
    module = type.__dict__["__module__"].__get__(cls)
    if (type(cls) is type and issubclass(cls, tuple) and type(module) is str and values.standard_module(module)
            and (_is_structseq(cls) or _is_namedtuple(cls))):
        namespace = getattr(sys.modules.get(module), "__dict__", {})
        qualname = type.__dict__["__qualname__"].__get__(cls)
        if namespace.get(qualname) is cls:
            found = (module, qualname)
        else:  # functools._CacheInfo is named CacheInfo, shutil's disk usage "usage"
            found = next(((module, name) for name, value in list(namespace.items()) if value is cls), None)
    _places[cls] = found
    return found


def record(value: tuple, encode) -> tuple | None:
    """(TAG, module, name, items, extra fields) for a named tuple of the standard library (items and the extra
    fields' values encoded by encode), or None for any other value."""
    place = _place(type(value))
    if place is None:
        return None
    if _is_structseq(type(value)):
        items, extra = type(value).__reduce__(value)[1]
        named = [(str(name), encode(item)) for name, item in dict(extra).items()]
    else:
        items, named = tuple.__iter__(value), []
    return (TAG, *place, [encode(item) for item in items], named)


def build(node: tuple, decode) -> tuple:
    """The named tuple a record describes, of this side's own class of that name (a plain tuple when this side has
    no such class); raises values.BadRecord for a record of the wrong shape."""
    if len(node) != 5 or type(node[1]) is not str or type(node[2]) is not str or not node[2].isidentifier():
        raise values.BadRecord("a named tuple record of the wrong shape")
    _, module, name, items, named = node
    if type(items) is not list or type(named) is not list or len(items) + len(named) > _MAX_ITEMS:
        raise values.BadRecord("a named tuple record of the wrong shape")
    items = [decode(item) for item in items]
    extra = {}
    for pair in named:
        if type(pair) is not tuple or len(pair) != 2 or type(pair[0]) is not str:
            raise values.BadRecord("a named tuple's field of the wrong shape")
        extra[pair[0]] = decode(pair[1])
    cls = _class(module, name)
    if cls is None:
        return tuple(items)
    try:
        if _is_structseq(cls):
            if not cls.n_sequence_fields <= len(items) <= cls.n_fields:
                raise values.BadRecord(f"a {name} of {len(items)} items")
            return cls(items, extra)
        if len(items) > len(cls._fields):
            raise values.BadRecord(f"a {name} of {len(items)} items")
        return tuple.__new__(cls, items)  # the items, never the class's own __new__
    except TypeError:  # a structseq the standard library makes but never lets anyone build (sys.flags)
        return tuple(items)


def _class(module: str, name: str) -> type | None:
    """This side's standard named tuple type module.name, importing a standard module if it may; else None."""
    if not values.standard_module(module):
        raise values.BadRecord(f"not a standard module: {module!r}")
    loaded = sys.modules.get(module)
    if loaded is None:
        try:
            loaded = values.build_module(("module", module))
        except values.BadRecord:
            return None
    cls = getattr(loaded, "__dict__", {}).get(name)
    if not isinstance(cls, type) or _place(cls) != (module, name):
        return None
    return cls
