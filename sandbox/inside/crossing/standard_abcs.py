"""The code's classes that join a standard ABC (a read-only dict of the code's deriving from Mapping, a Set, a number
of the numbers tower): what each side says of them and how the other compares them.

Runs inside the sandbox (stdlib only), in both processes. A mirror has the class's protocol methods, not its bases, so
the ABCs a class joins by having methods (Iterable, Sized) hold of it, and those it joins by deriving from them do
not: the sender names them (names_of) and the receiver registers the mirror with its own ABCs. A Mapping or Set that
keeps the ABC's own ``__eq__`` compares by its items or elements in one process (``Frozen({'a': 1}) == {'a': 1}``):
the sender reads them through the class's own methods (eq_data, the "data" request), the receiver compares a copy of
them by that same ``__eq__`` (COPIES); a class that overrides ``__eq__`` is an object of the other side's again.
"""

from __future__ import annotations

import collections.abc

import proxies


def _standard_abcs() -> dict[str, type]:
    import numbers

    names = ("Mapping", "MutableMapping", "Sequence", "MutableSequence", "Set", "MutableSet")
    return {**{f"collections.abc.{n}": getattr(collections.abc, n) for n in names},
            **{f"numbers.{n}": getattr(numbers, n) for n in ("Number", "Complex", "Real", "Rational", "Integral")}}


# The standard ABCs a class joins by deriving from them (or by register), not by having methods, as Iterable is
# joined: a mirror has the protocol methods, not the bases.
STANDARD_ABCS = _standard_abcs()


class _ItemsHere(collections.abc.Mapping):
    """The items of the other side's Mapping, read there through its class's methods, compared here by Mapping's own
    __eq__ (what that class keeps): one process's ``Frozen({'a': 1}) == {'a': 1}``."""

    def __init__(self, items: dict) -> None:
        self._items = items

    def __getitem__(self, key: object) -> object:
        return self._items[key]

    def __iter__(self):
        return iter(self._items)

    def __len__(self) -> int:
        return len(self._items)


class _ElementsHere(collections.abc.Set):
    """The elements of the other side's Set, with the length its class gives, compared here by Set's own __eq__."""

    def __init__(self, data: object) -> None:
        if type(data) is not tuple or len(data) != 2 or type(data[0]) is not int or type(data[1]) is not list:
            raise TypeError("the other side's Set sent data no such object holds")
        self._length, self._elements = data

    def __contains__(self, item: object) -> bool:
        return item in self._elements

    def __iter__(self):
        return iter(self._elements)

    def __len__(self) -> int:
        return self._length


def _items_here(proxy: object) -> _ItemsHere:
    items = proxies._ask(proxy, "data")
    if type(items) is not dict:
        raise TypeError("the other side's Mapping sent data no such object holds")
    return _ItemsHere(items)


# A class that keeps a standard ABC's own __eq__ (standard_eq): how its copy here is made.
COPIES = {"mapping": _items_here, "set": lambda proxy: _ElementsHere(proxies._ask(proxy, "data"))}


def names_of(cls: type) -> list[str]:
    """The STANDARD_ABCS cls is a subclass of, by name (the sender's side)."""
    found = []
    for name, abc in STANDARD_ABCS.items():
        try:
            if issubclass(cls, abc):
                found.append(name)
        except Exception:  # a metaclass of the sender's that breaks issubclass: that ABC is not said
            pass
    return found


def standard_eq(cls: type) -> str | None:
    """"mapping" or "set" when cls is a collections.abc Mapping or Set that compares by that ABC's own __eq__ (its
    items, or its elements, read through its own methods); else None."""
    for kind, abc in (("mapping", collections.abc.Mapping), ("set", collections.abc.Set)):
        try:
            if not issubclass(cls, abc):
                continue
        except Exception:  # a metaclass that breaks issubclass
            return None
        for klass in cls.__mro__:
            found = type.__dict__["__dict__"].__get__(klass)
            if "__eq__" in found:
                return kind if found["__eq__"] is abc.__eq__ else None
    return None


def eq_data(kind: str, obj: object) -> object:
    """What standard_eq's kind of comparison reads of obj: a Mapping's items, a Set's length and elements."""
    return dict(obj.items()) if kind == "mapping" else (len(obj), list(obj))
