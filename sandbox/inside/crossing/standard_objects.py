"""Standard objects that are neither plain values nor containers, held by the other side: a ``SimpleNamespace``, an
``array.array``, a ``ChainMap``, a ``MappingProxyType``, a ``functools.partial``, a ``property`` read off a class
(``isinstance(Rectangle.area, property)``, its ``__doc__``; its ``fget`` is the other side's function).

Runs inside the sandbox (stdlib only), in both processes. Such an object stays where it was made (a view keeps
reading the dict it wraps, a namespace the code keeps changing is one object), so it crosses by reference, as any
object does; but in one process the tests' ``ns == SimpleNamespace(verbose=True)`` compares two namespaces, and
``isinstance(add5, functools.partial)`` holds. So the proxy says it is of the standard type (``__class__``), and a
comparison with this side's data reads the object's data, as plain data, and compares a copy built here of this
side's own type with it: the holder's class decides nothing, as for a container (and only exact standard types are
read so: a subclass of the code's is the code's own class, a mirror).
"""

from __future__ import annotations

import array
import collections
import functools
import io
import re
import types

import proxies

KINDS: dict[str, type] = {"types.SimpleNamespace": types.SimpleNamespace, "array.array": array.array,
                          "collections.ChainMap": collections.ChainMap,
                          "types.MappingProxyType": types.MappingProxyType, "functools.partial": functools.partial,
                          "builtins.property": property, "re.Match": re.Match, "io.StringIO": io.StringIO,
                          "io.BytesIO": io.BytesIO}
_NAMES = {id(cls): name for name, cls in KINDS.items()}
# partial, property, a match and a stream compare by identity in one process too: they are no data to read
_BY_DATA = frozenset(KINDS) - {"functools.partial", "builtins.property", "re.Match", "io.StringIO", "io.BytesIO"}


def name_of(value: object) -> str | None:
    """The standard name of value's type when it is exactly one of KINDS, else None."""
    return _NAMES.get(id(type(value)))


def doc_of(value: object) -> str | None:
    """A property's own docstring (its getter's, or the one it was given), sent with it; None for the other kinds,
    whose docstring is their type's."""
    doc = value.__doc__ if type(value) is property else None
    return doc if type(doc) is str else None


def data_of(value: object) -> object:
    """The holder's side: what a copy of value is built from, read with the standard type's own methods."""
    kind = type(value)
    if kind is types.SimpleNamespace:
        return dict(object.__getattribute__(value, "__dict__"))
    if kind is array.array:
        return (value.typecode, value.tolist())
    if kind is collections.ChainMap:
        return [dict(m) for m in value.maps]
    if kind is types.MappingProxyType:
        return dict(value)
    return None


def _copy_of(name: str, proxy: object) -> object:
    """This side's own object of the standard type name holding the data the other side's object holds (raises
    TypeError on data no such object has)."""
    data = proxies._ask(proxy, "data")
    if name == "types.SimpleNamespace" and type(data) is dict and all(type(k) is str for k in data):
        return types.SimpleNamespace(**data)
    if name == "array.array" and type(data) is tuple and len(data) == 2 and type(data[0]) is str \
            and data[0] in array.typecodes and type(data[1]) is list:
        return array.array(data[0], data[1])
    if name == "collections.ChainMap" and type(data) is list and all(type(m) is dict for m in data):
        return collections.ChainMap(*data)
    if name == "types.MappingProxyType" and type(data) is dict:
        return types.MappingProxyType(data)
    raise TypeError(f"the other side's {name} sent data no such object holds")


_made: dict[tuple, type] = {}


def view(ref: proxies.Ref, name: str, caps: frozenset, names: dict) -> object:
    """A proxy of the other side's object of the standard type name (one of KINDS)."""
    ref.names = names
    key = (name, caps)
    cls = _made.get(key)
    if cls is None:
        standard = KINDS[name]
        namespace = {"__slots__": (), **proxies.protocol_methods(caps),
                     "__class__": property(lambda self, standard=standard: standard)}
        if name in _BY_DATA:
            copy_here = functools.partial(_copy_of, name)
            namespace.update({op: proxies.by_data(op, copy_here) for op in proxies.COMPARISONS})
            namespace["_sbx_standard_copy"] = staticmethod(copy_here)
        if name == "array.array":
            # bytes(a) reads an array's buffer, which no proxy has: the items' bytes, not a byte per item
            namespace["__bytes__"] = lambda self: _copy_of("array.array", self).tobytes()
        cls = type(standard.__name__, (proxies.ObjectProxy,), namespace)
        if standard is property:
            cls.__doc__ = property(lambda self: proxies._ref(self).names.get("doc"))
        _made[key] = cls
    made = object.__new__(cls)
    object.__setattr__(made, "_sbx_ref", ref)
    return made
