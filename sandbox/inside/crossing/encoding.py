"""Values out: how this side's values become plain data for the other side (a node per value), and this side's
objects and classes handles in its table of exports.

Runs inside the sandbox (stdlib only), in both processes; codec.py's Codec is an Encoder.
"""

from __future__ import annotations

import builtins
import collections
import math
import operator
import types

import class_data
import live_views
import named_tuples
import proxies
import exports
import standard_abcs
import standard_bases
import standard_objects
import unsupported
import values
from kinds import (
    FORWARDED,
    MESSAGE_LIMIT,
    exception_fields,
    METHOD_OWNERS,
    SAFE_BUILTINS,
    TYPE_NAMES,
    MAX_DEPTH,
    CannotCross,
    dict_items,
    builtin_exception_name,
    is_builtin_exception,
    caps_of,
    read_as,
    text_of,
)
from values import VALUE_DUNDERS


TUPLE_IN_ITSELF = "a tuple that holds itself (through a list or dict inside it) cannot cross the sandbox boundary"


class Encoder:
    """This side's half of a Codec that sends: encode, and the exports it keeps for what crosses by handle."""

    def encode(self, value: object, live: set[int] | None = None) -> tuple:
        """A value as it crosses: ("v", plain) when it is plain data all through, else a node (see _node). live: the
        ids of the containers in it that this side holds elsewhere too (sharing.shared_in), which cross as live
        views instead of copies."""
        if not live:
            try:
                return ("v", _plain(value, 0, self.links.by_id))
            except _NotPlain:
                pass
        return self._nodes((value,), live or set())[0]

    def encode_call(self, args: tuple, kwargs: dict) -> tuple[tuple, dict]:
        """A call's arguments as they cross, encoded together: one list passed as two arguments (``both(a, a)``,
        ``both(a, [a, obj])``) stays one on the other side, as in one process. All as plain data where all are, else
        all as nodes, so one container is never sent both ways."""
        values = (*args, *kwargs.values())
        held: dict = {}
        try:
            encoded = [("v", _plain(v, 0, self.links.by_id, held)) for v in values]
        except _NotPlain:
            encoded = self._nodes(values, set())
        return tuple(encoded[:len(args)]), dict(zip(kwargs, encoded[len(args):]))

    def _nodes(self, values: tuple, live: set[int]) -> list:
        """values as nodes (_node), under one memo of the containers held twice; live as in encode."""
        saved = self.live, self.held
        self.live, self.held = live, {}
        try:
            return [self._node(v, 0) for v in values]
        except RecursionError:
            raise CannotCross("the value is nested too deeply to cross the sandbox boundary") from None
        finally:
            self.live, self.held = saved

    def _node(self, value: object, depth: int) -> tuple:
        if depth > MAX_DEPTH:
            raise CannotCross("the value is nested too deeply to cross the sandbox boundary")
        kind = type(value)
        if kind in values.PLAIN_SCALARS:
            return self.nans.node(value) if kind is float and value != value else ("v", value)
        if kind in values.numpy_scalar_types():
            return self._node(kind.item(value), depth + 1)  # the number it holds (docs/bench.md relies on it)
        if kind is type and value in values.numpy_scalar_types():
            return values.numpy_type_record(value)
        down = depth + 1
        if self.live and id(value) in self.live:
            return self._live(value)
        if self.links.by_id and id(value) in self.links.by_id:
            return ("home", self.links.by_id[id(value)])  # a container of the tests' the code keeps: its copy
        if kind is list or kind is tuple or kind is set or kind is frozenset or kind is dict:
            # One node for a container held twice: marshal sends it once and the other side builds it once.
            # (value, node): the value is held too, so that a temporary (read_as's) cannot lend its id to another.
            known = self.held.get(id(value))
            if known is not None:
                if known[1] is None:
                    # a tuple that holds itself through a list (t = ('root', kids); kids.append(t)): built after
                    # its items on the other side, it cannot be one of them
                    unsupported.note(TUPLE_IN_ITSELF)
                    raise CannotCross(TUPLE_IN_ITSELF)
                return known[1]
            if kind is list or kind is dict:
                # Held before its items are read: a list that holds itself is a node that holds itself, built
                # so on the other side too (a tuple or set cannot be built before its items, so it never is one).
                items: list = []
                self.held[id(value)] = (value, (kind.__name__, items))
                items.extend(self._pairs(value, down) if kind is dict else [self._node(v, down) for v in value])
                return self.held[id(value)][1]
            self.held[id(value)] = (value, None)  # being read: met again inside itself, it holds itself
            items = [self._node(v, down) for v in value]
            self.held[id(value)] = (value, (kind.__name__, items))
            return self.held[id(value)][1]
        record = values.leaf_record(value)
        if record is not None:
            return record
        if kind is bytearray:
            return ("bytearray", bytes(value))
        if kind is collections.deque:
            return ("deque", [self._node(v, down) for v in value], value.maxlen)
        if kind in (collections.Counter, collections.OrderedDict):
            return (kind.__name__, self._pairs(value, down))
        if kind is collections.defaultdict:
            factory = None if value.default_factory is None else self._node(value.default_factory, down)
            return ("defaultdict", factory, self._pairs(value, down))
        if kind is range:
            return ("range", value.start, value.stop, value.step)
        if kind is slice:
            return ("slice", self._node(value.start, down), self._node(value.stop, down), self._node(value.step, down))
        if value is Ellipsis:
            return ("ellipsis",)
        if kind is types.ModuleType:
            record = values.module_record(value)
            if record is not None:
                return record
        ref = proxies.ref_of(value)
        if ref is not None and ref.peer is self:
            return ("home", ref.handle)
        if isinstance(value, type):
            named = TYPE_NAMES.get(id(value))
            if named is not None:
                return ("type", named)
            if self._own_class(value):
                return ("class", self.describe_class(value))
            named = standard_bases.name_of(value)
            if named is not None:  # the other side's own class of that name, or where it has none, as before
                return ("stdclass", named, self._object(value))
        named = _builtin_name(value)
        if named is not None:
            return ("builtin", named)
        if not self._own_class(kind):
            if isinstance(value, tuple):  # fib.cache_info(), os.stat(...), urlparse(...): rebuilt as their types
                record = named_tuples.record(value, lambda item: self._node(item, down))
                if record is not None:
                    return record
            # A standard library's subclass of a value or container (an http.HTTPStatus) crosses as the value it
            # holds; only this side's own classes are worth a mirror.
            base = values.value_base(kind) or values.container_base(kind)
            if base is not None and not isinstance(value, BaseException):
                return self._node(read_as(base, value), depth)
        return self._object(value)

    def _pairs(self, mapping: dict, depth: int) -> list:
        return [(self._node(k, depth), self._node(v, depth)) for k, v in dict_items(mapping)]

    def _overrides(self, cls: type, value_base: type) -> list[str]:
        """What a value class of this side's defines over its value type's (_overridden_by), in its own body or a
        mixin of this side's before the value type in its order (``class Cents(AddMixin, int)``)."""
        found: list[str] = []
        for klass in cls.__mro__:
            if klass is value_base or not issubclass(klass, value_base) and not self._own_class(klass):
                break
            if self._own_class(klass):
                own = type.__dict__["__dict__"].__get__(klass)
                found += [n for n in _overridden_by(own, value_base) if n not in found]
        return found

    def _own_class(self, cls: type) -> bool:
        """Was cls defined by this side's own code (its module is this side's: solution.py, or tests.py)?"""
        return type.__dict__["__dict__"].__get__(cls).get("__module__") == self.home

    def sends_as_class(self, cls: type) -> bool:
        """Does _node send cls as a class the other side has ("home": a mirror of theirs, "type": a builtin type,
        "class": this side's own)? A class of a third party's crosses as an object instead."""
        ref = proxies.ref_of(cls)
        return (ref is not None and ref.peer is self) or TYPE_NAMES.get(id(cls)) is not None or self._own_class(cls)

    def export(self, value: object) -> int:
        """The handle of an object of this side's (the same object always gets the same handle)."""
        with self.lifetimes.lock:  # one step with a release (releasing.incoming): a handle sent is never let go of
            handle = self.export_ids.get(id(value))
            if handle is None or self.exports.get(handle) is not value:
                handle = self.next_handle
                self.next_handle += 1
                self.exports[handle] = value
                self.export_ids[id(value)] = handle
            exports.count_sending(self, handle, value)
        return handle

    def _object(self, value: object) -> tuple:
        cls = type(value)
        info = {"type": cls.__name__, "repr": text_of(repr, value), "caps": caps_of(cls)}
        name = getattr(value, "__name__", None) if callable(value) else None
        if type(name) is str:
            info["name"] = name
            qualname = getattr(value, "__qualname__", None)
            info["qualname"] = qualname if type(qualname) is str else name
            doc = getattr(value, "__doc__", None)
            info["doc"] = doc if type(doc) is str else None
            module = getattr(value, "__module__", None)
            info["module"] = module if type(module) is str else None
        kind = FORWARDED.get(cls)
        if kind:
            info["kind"] = kind
        standard = standard_objects.name_of(value)
        if standard:
            info["standard"] = standard
            doc = standard_objects.doc_of(value)
            if info.get("doc") is None and doc is not None:
                info["doc"] = doc
        mirror = self.describe_class(cls) if self._own_class(cls) else None
        if mirror is not None:
            base = values.value_base(cls)
            if base is not None:
                info["value"] = self._node(read_as(base, value), 1)
        elif isinstance(value, BaseException):
            info["exception"] = builtin_exception_name(cls)
            if is_builtin_exception(cls):
                info["exact"] = True
        if isinstance(value, BaseException):
            info["message"] = text_of(str, value, MESSAGE_LIMIT)
            info.update(exception_fields(value))
        return ("obj", self.export(value), mirror, info)

    def _live(self, value: object) -> tuple:
        """One of this side's containers that it holds elsewhere too: the other side gets a live view of it."""
        # Its text is the other side's to ask for when shown: what it holds may be proxies, whose repr is a request.
        name = type(value).__name__
        info = {"type": name, "repr": f"<{name} of the code's>", "caps": caps_of(type(value)),
                "live": live_views.ARRAY if values.is_array(value) else TYPE_NAMES[id(type(value))]}
        return ("obj", self.export(value), None, info)

    def describe_class(self, cls: type) -> tuple:
        """("C", handle, name, qualname, bases, info): what the other side needs to build its mirror of cls."""
        handle = self.export(cls)
        known = self.described.get(handle)
        if known is None:
            known = self.described[handle] = self._class_node(cls, handle)
        return known

    def _class_node(self, cls: type, handle: int) -> tuple:
        bases = tuple(self.describe_class(b) if self._own_class(b) else ("B", TYPE_NAMES.get(id(b)))
                      for b in cls.__bases__ if b is not object)
        value_base = values.value_base(cls)
        container = values.container_base(cls)
        fields = getattr(cls, "_fields", ()) if value_base is tuple else ()
        info = {
            "value": TYPE_NAMES.get(id(value_base)) if value_base else None,
            "container": TYPE_NAMES.get(id(container)) if container and not value_base else None,
            "caps": caps_of(cls),
            "fields": [f for f in fields if type(f) is str] if isinstance(fields, tuple) else [],
            "dataclass": [f for f in getattr(cls, "__dataclass_fields__", {}) if type(f) is str],
            "exception": builtin_exception_name(cls) if issubclass(cls, BaseException) else None,
            "enum": any(k.__name__ == "Enum" and k.__module__ == "enum" for k in cls.__mro__),
            # the public names it defines over its value type's (a classmethod `now` of a datetime subclass)
            # (methods only: a property such as numerator is what the standard type's own comparisons read)
            "overrides": self._overrides(cls, value_base) if value_base else [],
            "abcs": standard_abcs.names_of(cls),
            "standard_bases": standard_bases.names_of(cls, self._own_class),
            "eq_by": standard_abcs.standard_eq(cls),
            "weak": cls.__weakrefoffset__ != 0,  # takes weak references (a class with __slots__ may not)
            "match_args": _match_args(cls),
            "class_data": class_data.of(cls),
            "checks": _checks(cls),
        }
        return ("C", handle, cls.__name__, getattr(cls, "__qualname__", cls.__name__), bases, info)

    # --- values in -----------------------------------------------------------------------------------------------


def _overridden_by(own: dict, value_base: type) -> list[str]:
    """Of one class's own namespace, the names that override its value type's: public methods, and the operators and
    protocol methods (VALUE_DUNDERS, ==, !=) however they are made (``__add__ = int.__sub__``)."""
    found = []
    for name, value in own.items():
        if type(name) is not str or not callable(getattr(value_base, name, None)):
            continue
        if name in VALUE_DUNDERS or name in ("__eq__", "__ne__"):
            if callable(value) or isinstance(value, (classmethod, staticmethod)):
                found.append(name)
        elif not name.startswith("_") and isinstance(value, (types.FunctionType, classmethod, staticmethod)):
            found.append(name)
    return found


def _checks(cls: type) -> str | None:
    """How cls's metaclass decides isinstance, where it does so itself (then the other side's mirror asks this side,
    proxies.RemoteType): "classes" for ABCMeta's (its registry and __subclasshook__ read the object's class only),
    "objects" for another's (a runtime_checkable Protocol reads the object's methods); None for type's own, and a
    mirror's."""
    import abc

    meta = type(cls)
    if issubclass(meta, proxies.RemoteType):
        return None
    instance_check = getattr(meta, "__instancecheck__", None)
    if instance_check is abc.ABCMeta.__instancecheck__:
        return "classes"
    if instance_check is not type.__instancecheck__ or getattr(meta, "__subclasscheck__", None) is not \
            type.__subclasscheck__:
        return "objects"
    return None


def _match_args(cls: type) -> list[str] | None:
    """The class's __match_args__ (a dataclass's fields: ``case Point(x, y)``) where it is a tuple of names."""
    found = getattr(cls, "__match_args__", None)
    if type(found) is tuple and len(found) <= 100 and all(type(n) is str and n.isidentifier() for n in found):
        return list(found)
    return None


class _NotPlain(Exception):
    pass


_SCALARS = frozenset(values.PLAIN_SCALARS)
_REALS = frozenset({bool, int, float})


def _scalars_only(*parts: object) -> bool:
    """Do these hold exact plain scalars only, and no NaN? Read at C speed, so that a list of 100,000 numbers or
    strings is copied whole, not walked item by item (each call of the code's with it did). False sends them the
    long way (_plain's walk), which decides the same."""
    kinds: set = set()
    for part in parts:
        kinds.update(map(type, part))
    if not kinds <= _SCALARS:
        return False
    if float not in kinds:
        return True
    if not kinds <= _REALS:
        return False
    try:
        return not any(any(map(math.isnan, part)) for part in parts)
    except OverflowError:  # an int too large for a float beside them
        return False


def _plain(value: object, depth: int, linked: dict, held: dict | None = None) -> object:
    """A copy of value when it is plain data of exact builtin types all through (numpy scalars read as numbers) and
    holds no linked container. A list, dict or set held twice in value is one copy held twice (held: id -> copy), as
    in one process, where ``[[0] * 2] * 2`` has one row."""
    kind = type(value)
    if kind in values.PLAIN_SCALARS:
        if kind is float and value != value:
            raise _NotPlain  # a NaN keeps its identity (nans.py)
        return value
    if depth > MAX_DEPTH or (linked and id(value) in linked):
        raise _NotPlain
    if held is None:
        held = {}
    elif id(value) in held:
        return held[id(value)]
    down = depth + 1
    if kind is list:
        copy = list(value) if _scalars_only(value) else [_plain(v, down, linked, held) for v in value]
    elif kind is tuple:
        return value if _scalars_only(value) else tuple(_plain(v, down, linked, held) for v in value)
    elif kind is dict:
        copy = dict(value) if _scalars_only(value.keys(), value.values()) else {
            _plain(k, down, linked, held): _plain(v, down, linked, held) for k, v in value.items()}
    elif kind is set or kind is frozenset:
        copy = kind(value) if _scalars_only(value) else kind(_plain(v, down, linked, held) for v in value)
    elif kind in values.numpy_scalar_types():
        return _plain(kind.item(value), down, linked, held)
    else:
        raise _NotPlain
    # Kept once built: a list that holds itself still ends at MAX_DEPTH, as before, and crosses another way.
    held[id(value)] = copy
    return copy


def _builtin_name(value: object) -> str | None:
    """The name of a builtin function or method descriptor that _resolve_builtin gives back (``len``,
    ``str.upper``), or None."""
    name = getattr(value, "__name__", None) if type(value).__module__ == "builtins" else None
    if type(name) is not str:
        return None
    if name in SAFE_BUILTINS and getattr(builtins, name, None) is value:
        return name
    if getattr(value, "__module__", None) == "_operator" and getattr(operator, name, None) is value:
        return f"operator.{name}"  # functools.partial(operator.mul, 2).func is operator.mul on both sides
    owner = getattr(value, "__objclass__", None)
    if owner is not None and METHOD_OWNERS.get(getattr(owner, "__name__", "")) is owner:
        if getattr(owner, name, None) is value:
            return f"{owner.__name__}.{name}"
    return None
