"""A class's data that the other side's mirror holds as it is: ``__slots__``, ``__abstractmethods__`` (which
``inspect.isabstract`` reads through the type's flag), and a TypedDict's ``__required_keys__``,
``__optional_keys__`` and ``__total__``.

Runs inside the sandbox (stdlib only), in both processes. A mirror asks the other side for what its class holds,
but Python looks these special names up on the type itself, never through a mirror's requests: so
``Point.__slots__ == ('x', 'y')`` read the mirror's own empty slots, and ``Shape.__abstractmethods__`` and
``inspect.isabstract(Shape)`` said the class was not abstract. The describing side reads them once, with the rest
of the class's description, as plain text; the receiving side checks their shape (nothing in them is run) and sets
them on the mirror. A mirror stays concrete where an object of its class exists (proxies.instance): the class was
changed after it was described.
"""

from __future__ import annotations

import inspect

NAMES = ("__slots__", "__abstractmethods__", "__required_keys__", "__optional_keys__", "__total__")
_MAX_ITEMS = 10_000
_MAX_TEXT = 1_000
_KINDS = {"tuple": tuple, "list": list, "frozenset": frozenset, "set": set}


class BadClassData(ValueError):
    """Class data no class has (a garbled description)."""


def of(cls: type) -> dict:
    """The describing side: each of NAMES that cls has and that is plain text, as (kind, items); "__slots__" as
    None where no class of its order has any (the mirror then has none either). Read from the classes' own dicts,
    never through a metaclass's __getattr__ (one that answers any name would make every class abstract)."""
    found: dict = {}
    own = type.__dict__["__dict__"].__get__
    order = type.__dict__["__mro__"].__get__(cls)
    for name in NAMES:
        holder = next((own(k) for k in (order if name == "__slots__" else (cls,)) if name in own(k)), None)
        if holder is None:
            if name == "__slots__":
                found[name] = None
            continue
        value = holder[name]
        if name == "__abstractmethods__":
            if type(value) is not frozenset:
                continue
            # names that are no text still make the class abstract: a placeholder stands for each (their repr is
            # the code's to run, and may raise, exit or sleep)
            value = frozenset(v if _text(v) else f"<abstract name {i}>" for i, v in enumerate(list(value)[:_MAX_ITEMS]))
        record = _record(value)
        if record is not None:
            found[name] = record
    return found


def _text(item: object) -> bool:
    return type(item) is str and len(item) <= _MAX_TEXT


def _record(value: object) -> tuple | None:
    if type(value) is bool:
        return ("bool", value)
    if _text(value):
        return ("str", value)
    if type(value) in _KINDS.values() and len(value) <= _MAX_ITEMS and all(_text(i) for i in value):
        return (type(value).__name__, sorted(value) if isinstance(value, (set, frozenset)) else list(value))
    if type(value) is dict and len(value) <= _MAX_ITEMS and all(
            _text(k) and (v is None or _text(v)) for k, v in value.items()):
        return ("dict", [[k, v] for k, v in value.items()])  # __slots__ with docstrings
    return None


def read(found: object) -> dict:
    """The receiving side: the class data a description holds, rebuilt ({} for none); BadClassData for a shape no
    class has."""
    if found is None:
        return {}
    if type(found) is not dict or any(name not in NAMES for name in found):
        raise BadClassData("class data under names it may not set")
    return {name: _NO_SLOTS if name == "__slots__" and record is None else _value(record)
            for name, record in found.items()}


def _value(record: object) -> object:
    if type(record) not in (tuple, list) or len(record) != 2 or type(record[0]) is not str:
        raise BadClassData("class data of the wrong shape")
    kind, items = record
    if kind == "bool" and type(items) is bool:
        return items
    if kind == "str" and _text(items):
        return items
    if kind in _KINDS and type(items) in (tuple, list) and len(items) <= _MAX_ITEMS and all(_text(i) for i in items):
        return _KINDS[kind](items)
    if kind == "dict" and type(items) in (tuple, list) and len(items) <= _MAX_ITEMS and all(
            type(p) in (tuple, list) and len(p) == 2 and _text(p[0]) and (p[1] is None or _text(p[1])) for p in items):
        return {k: v for k, v in items}
    raise BadClassData(f"class data of a kind no class has: {kind!r}")


class _NoSlots:
    """A mirror's __slots__ where its class has none: ``hasattr(Vector, '__slots__')`` is False, as in one process
    (a mirror's layout has slots of its own); an empty sequence to what reads a class's dict for its slot names
    (copyreg)."""

    def __get__(self, obj: object, cls: type | None = None) -> object:
        raise AttributeError("__slots__")

    def __iter__(self):
        return iter(())


_NO_SLOTS = _NoSlots()


def hold(mirror: type, data: dict) -> None:
    """Set the class data on the mirror as the other side's class has it (``__abstractmethods__`` makes it abstract
    here too, so inspect.isabstract reads it)."""
    for name, value in data.items():
        type.__setattr__(mirror, name, value)


def made_concrete(mirror: type) -> bool:
    """Where an object of an abstract mirror's class exists after all (its class was changed after it was
    described): the mirror is concrete from then on. True if it was abstract."""
    if not mirror.__flags__ & inspect.TPFLAGS_IS_ABSTRACT:
        return False
    type.__setattr__(mirror, "__abstractmethods__", frozenset())
    return True

