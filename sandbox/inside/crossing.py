"""How values cross between the code's process and the tests' process: plain data, records of standard values,
this side's objects and classes by handle, and the other side's as proxies and mirrors.

Runs inside the sandbox (stdlib only), in both processes (peer.py's Peer is a Codec). Each side keeps what it cannot
send as data (its functions, its objects, its classes) in a table of exports and sends a handle; the other side
holds a proxy for it (proxies.py).

What keeps the verdict honest is this file's decoding on the tests' side: a message is plain data (wire.recv), and
from it the tests' side builds only plain values, standard values with its own classes (values.py), builtins from a
fixed list, its own mirror classes and proxies. It never unpickles, imports (but for a standard module named by a
value, values.build_module) or runs anything the code sent.
"""

from __future__ import annotations

import builtins
import collections
import sys
import types

import linking
import live_views
import named_tuples
import proxies
import values

MAX_DEPTH = 200  # nesting of one value
_PROTOCOL = ("__call__", "__iter__", "__next__", "__len__", "__getitem__", "__setitem__", "__delitem__",
             "__contains__", "__enter__", "__exit__", "__await__", "__aiter__", "__anext__", "__aenter__",
             "__aexit__", "__bool__", "__hash__", "__reversed__", "__int__", "__float__", "__index__", "__round__",
             "__neg__", "__pos__", "__abs__", "__invert__", "send", "throw", "close", *proxies.BINARY_OPS)
# Builtins a value may name instead of crossing as a proxy: functions and types that hold nothing of the sender.
_SAFE_BUILTINS = frozenset({
    "abs", "all", "any", "ascii", "bin", "bool", "bytearray", "bytes", "callable", "chr", "complex", "dict",
    "divmod", "enumerate", "filter", "float", "format", "frozenset", "hash", "hex", "int", "isinstance",
    "issubclass", "iter", "len", "list", "map", "max", "min", "next", "object", "oct", "ord", "pow", "print",
    "range", "repr", "reversed", "round", "set", "slice", "sorted", "str", "sum", "tuple", "type", "zip"})
_METHOD_OWNERS = {"str": str, "bytes": bytes, "int": int, "float": float, "list": list, "dict": dict, "set": set,
                  "tuple": tuple, "frozenset": frozenset}
_NEVER_RAISED = ("SystemExit", "KeyboardInterrupt", "GeneratorExit", "BaseException")
_FORWARDED = {types.GeneratorType: "generator", types.CoroutineType: "coroutine",
              types.AsyncGeneratorType: "async_generator"}


def _standard_types() -> dict[str, type]:
    import datetime
    import decimal
    import fractions
    import pathlib

    named = {f"builtins.{name}": value for name, value in vars(builtins).items()
             if isinstance(value, type) and (name in _SAFE_BUILTINS or issubclass(value, BaseException))
             and name not in _NEVER_RAISED}
    for module, names in ((datetime, ("date", "datetime", "time", "timedelta", "timezone")),
                          (decimal, ("Decimal",)), (fractions, ("Fraction",)),
                          (collections, ("deque", "Counter", "OrderedDict", "defaultdict", "namedtuple")),
                          (pathlib, ("Path", "PurePath", "PosixPath", "PurePosixPath"))):
        for name in names:
            named[f"{module.__name__}.{name}"] = getattr(module, name)
    return named


STANDARD_TYPES = _standard_types()
_TYPE_NAMES = {id(value): name for name, value in STANDARD_TYPES.items()}


class PeerGone(Exception):
    """The other process stopped answering: it exited, crashed or was killed, or sent what this side cannot read."""


class CannotCross(TypeError):
    """A value this side cannot send (too large, or nested too deeply)."""


class Codec:
    """One side's exports (what it sent by handle) and its proxies and mirrors of the other side's, and how a value
    becomes plain data and back.

    home: the module name of this side's own classes ("solution" for the code, "tests" for the tests): their
    instances cross as objects of a mirror class. role: "code" or "tests"."""

    def __init__(self, home: str, role: str) -> None:
        self.home, self.role = home, role
        self.exports: dict[int, object] = {}
        self.export_ids: dict[int, int] = {}
        self.proxies: dict[int, object] = {}
        self.mirrors: dict[int, type] = {}
        self.described: dict[int, tuple] = {}
        self.next_handle = 1
        self.dead: str | None = None
        self.live: set[int] = set()  # ids of this side's containers the value being encoded sends as live views
        self.links = linking.Links()  # containers the tests handed over and the code kept, in step on both sides

    # --- values out ----------------------------------------------------------------------------------------------

    def encode(self, value: object, live: set[int] | None = None) -> tuple:
        """A value as it crosses: ("v", plain) when it is plain data all through, else a node (see _node). live: the
        ids of the containers in it that this side holds elsewhere too (sharing.shared_in), which cross as live
        views instead of copies."""
        if not live:
            try:
                return ("v", _plain(value, 0, self.links.by_id))
            except _NotPlain:
                pass
        saved, self.live = self.live, live or set()
        try:
            return self._node(value, 0)
        except RecursionError:
            raise CannotCross("the value is nested too deeply to cross the sandbox boundary") from None
        finally:
            self.live = saved

    def _node(self, value: object, depth: int) -> tuple:
        if depth > MAX_DEPTH:
            raise CannotCross("the value is nested too deeply to cross the sandbox boundary")
        kind = type(value)
        if kind in values.PLAIN_SCALARS:
            return ("v", value)
        if kind in values.numpy_scalar_types():
            return ("v", _plain(kind.item(value), depth, None))
        down = depth + 1
        if self.live and id(value) in self.live:
            return self._live(value)
        if self.links.by_id and id(value) in self.links.by_id:
            return ("home", self.links.by_id[id(value)])  # a container of the tests' the code keeps: its copy
        if kind is list or kind is tuple or kind is set or kind is frozenset:
            return (kind.__name__, [self._node(v, down) for v in value])
        if kind is dict:
            return ("dict", self._pairs(value, down))
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
            named = _TYPE_NAMES.get(id(value))
            if named is not None:
                return ("type", named)
            if self._own_class(value):
                return ("class", self.describe_class(value))
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
        return [(self._node(k, depth), self._node(v, depth)) for k, v in dict.items(mapping)]

    def _own_class(self, cls: type) -> bool:
        """Was cls defined by this side's own code (its module is this side's: solution.py, or tests.py)?"""
        return type.__dict__["__dict__"].__get__(cls).get("__module__") == self.home

    def export(self, value: object) -> int:
        """The handle of an object of this side's (the same object always gets the same handle)."""
        handle = self.export_ids.get(id(value))
        if handle is None or self.exports.get(handle) is not value:
            handle = self.next_handle
            self.next_handle += 1
            self.exports[handle] = value
            self.export_ids[id(value)] = handle
        return handle

    def forget(self, handle: int) -> None:
        """Let go of an export the other side no longer reaches."""
        value = self.exports.pop(handle, None)
        if value is not None and self.export_ids.get(id(value)) == handle:
            del self.export_ids[id(value)]

    def _object(self, value: object) -> tuple:
        cls = type(value)
        info = {"type": cls.__name__, "repr": text_of(repr, value), "caps": _caps(cls)}
        name = getattr(value, "__name__", None) if callable(value) else None
        if type(name) is str:
            info["name"] = name
            qualname = getattr(value, "__qualname__", None)
            info["qualname"] = qualname if type(qualname) is str else name
            doc = getattr(value, "__doc__", None)
            info["doc"] = doc if type(doc) is str else None
            module = getattr(value, "__module__", None)
            info["module"] = module if type(module) is str else None
        kind = _FORWARDED.get(cls)
        if kind:
            info["kind"] = kind
        mirror = self.describe_class(cls) if self._own_class(cls) else None
        if mirror is not None:
            base = values.value_base(cls)
            if base is not None:
                info["value"] = self._node(read_as(base, value), 1)
        elif isinstance(value, BaseException):
            info["exception"] = builtin_exception_name(cls)
        if isinstance(value, BaseException):
            info["message"] = text_of(str, value)
        return ("obj", self.export(value), mirror, info)

    def _live(self, value: object) -> tuple:
        """One of this side's containers that it holds elsewhere too: the other side gets a live view of it."""
        info = {"type": type(value).__name__, "repr": text_of(repr, value), "caps": _caps(type(value)),
                "live": _TYPE_NAMES[id(type(value))]}
        return ("obj", self.export(value), None, info)

    def describe_class(self, cls: type) -> tuple:
        """("C", handle, name, qualname, bases, info): what the other side needs to build its mirror of cls."""
        handle = self.export(cls)
        known = self.described.get(handle)
        if known is None:
            known = self.described[handle] = self._class_node(cls, handle)
        return known

    def _class_node(self, cls: type, handle: int) -> tuple:
        bases = tuple(self.describe_class(b) if self._own_class(b) else ("B", _TYPE_NAMES.get(id(b)))
                      for b in cls.__bases__ if b is not object)
        value_base = values.value_base(cls)
        container = values.container_base(cls)
        fields = getattr(cls, "_fields", ()) if value_base is tuple else ()
        info = {
            "value": _TYPE_NAMES.get(id(value_base)) if value_base else None,
            "container": _TYPE_NAMES.get(id(container)) if container and not value_base else None,
            "caps": _caps(cls),
            "fields": [f for f in fields if type(f) is str] if isinstance(fields, tuple) else [],
            "dataclass": [f for f in getattr(cls, "__dataclass_fields__", {}) if type(f) is str],
            "exception": builtin_exception_name(cls) if issubclass(cls, BaseException) else None,
            "enum": any(k.__name__ == "Enum" and k.__module__ == "enum" for k in cls.__mro__),
        }
        return ("C", handle, cls.__name__, getattr(cls, "__qualname__", cls.__name__), bases, info)

    # --- values in -----------------------------------------------------------------------------------------------

    def decode(self, enc: object) -> object:
        """The value an encoding describes, built by this side; raises PeerGone on anything malformed."""
        try:
            if type(enc) is tuple and len(enc) == 2 and enc[0] == "v":
                return enc[1]
            return self._value(enc, 0)
        except (values.BadRecord, KeyError, IndexError, TypeError, ValueError, AttributeError) as exc:
            raise self._garbled(f"a value it could not read ({type(exc).__name__}: {exc})") from None

    def _value(self, node: object, depth: int) -> object:
        if type(node) is not tuple or not node or type(node[0]) is not str or depth > MAX_DEPTH + 2:
            raise values.BadRecord("not a value node")
        tag = node[0]
        down = depth + 1
        if tag == "v":
            return node[1]
        if tag in ("list", "tuple", "set", "frozenset"):
            items = [self._value(v, down) for v in as_list(node[1])]
            return {"list": list, "tuple": tuple, "set": set, "frozenset": frozenset}[tag](items)
        if tag == "dict":
            return dict(self._decode_pairs(node[1], down))
        builder = values.BUILDERS.get(tag)
        if builder is not None:
            return builder(node)
        if tag == "bytearray" and type(node[1]) is bytes:
            return bytearray(node[1])
        if tag == "deque":
            maxlen = node[2]
            if maxlen is not None and (type(maxlen) is not int or maxlen < 0):
                raise values.BadRecord("a deque's maxlen")
            return collections.deque((self._value(v, down) for v in as_list(node[1])), maxlen)
        if tag in ("Counter", "OrderedDict"):
            return getattr(collections, tag)(dict(self._decode_pairs(node[1], down)))
        if tag == "defaultdict":
            factory = None if node[1] is None else self._value(node[1], down)
            if factory is not None and not callable(factory):
                raise values.BadRecord("a defaultdict's factory")
            return collections.defaultdict(factory, self._decode_pairs(node[2], down))
        if tag == "range":
            return range(*_whole(node[1:]))
        if tag == "slice":
            return slice(*(self._value(v, down) for v in node[1:4]))
        if tag == "ellipsis":
            return Ellipsis
        if tag == named_tuples.TAG:
            return named_tuples.build(node, lambda item: self._value(item, down))
        if tag == "type":
            return STANDARD_TYPES[node[1]]
        if tag == "builtin":
            return _resolve_builtin(node[1])
        if tag == "home":
            return self.exports[node[1]]
        if tag == "class":
            return self.mirror(node[1])
        if tag == "obj":
            return self._proxy(node)
        raise values.BadRecord(f"unknown value tag {tag!r}")

    def _decode_pairs(self, pairs: object, depth: int) -> list:
        return [(self._value(k, depth), self._value(v, depth)) for k, v in as_list(pairs)]

    def mirror(self, node: object) -> type:
        """This side's class standing for one of the other side's classes (built once per class)."""
        if type(node) is not tuple or len(node) != 6 or node[0] != "C" or type(node[1]) is not int:
            raise values.BadRecord("not a class description")
        known = self.mirrors.get(node[1])
        if known is not None:
            return known
        _, handle, name, qualname, bases, info = node
        if type(name) is not str or type(qualname) is not str or type(info) is not dict or type(bases) is not tuple:
            raise values.BadRecord("a class description of the wrong shape")
        mirrored = [self.mirror(b) for b in bases if type(b) is tuple and b[:1] == ("C",)]
        cls = proxies.make_mirror(self, handle, name, qualname, mirrored, _class_info(info))
        self.mirrors[handle] = cls
        return cls

    def _proxy(self, node: tuple) -> object:
        _, handle, class_node, info = node
        if type(handle) is not int or type(info) is not dict:
            raise values.BadRecord("an object of the wrong shape")
        known = self.proxies.get(handle)
        if known is not None:
            return known
        if self.role == "tests" and handle in self.links.by_handle:
            return self.links.by_handle[handle][0]  # the code's copy of a container of the tests': the original
        ref = proxies.Ref(self, handle, short_text(info.get("repr")))
        if class_node is not None:
            cls = self.mirror(class_node)
            data = None if "value" not in info else self._value(info["value"], 1)
            made = proxies.instance(cls, ref, data)
            if isinstance(made, BaseException):
                made.args = (str(info.get("message", "")),)
        elif info.get("kind") in ("generator", "coroutine", "async_generator"):
            made = proxies.wrapped(info["kind"], ref)
        elif type(info.get("live")) is str and info["live"] in live_views.KINDS:
            made = live_views.view(ref, STANDARD_TYPES[info["live"]], _caps_in(info.get("caps")))
        elif type(info.get("exception")) is str:
            made = proxies.remote_exception(self, info["exception"], str(info.get("message", "")), ref)
        else:
            made = proxies.generic(ref, _caps_in(info.get("caps")), _names(info))
        self.proxies[handle] = made
        return made

    def _garbled(self, what: str) -> PeerGone:
        self.dead = f"the {self.other} process sent {what}"
        return PeerGone(self.dead)

    @property
    def other(self) -> str:
        return "tests'" if self.role == "code" else "code's"


# --- small readers ----------------------------------------------------------------------------------------------

class _NotPlain(Exception):
    pass


def _plain(value: object, depth: int, linked: dict) -> object:
    """A copy of value when it is plain data of exact builtin types all through (numpy scalars read as numbers) and
    holds no linked container."""
    kind = type(value)
    if kind in values.PLAIN_SCALARS:
        return value
    if depth > MAX_DEPTH or (linked and id(value) in linked):
        raise _NotPlain
    if kind is list:
        return [_plain(v, depth + 1, linked) for v in value]
    if kind is tuple:
        return tuple(_plain(v, depth + 1, linked) for v in value)
    if kind is dict:
        return {_plain(k, depth + 1, linked): _plain(v, depth + 1, linked) for k, v in value.items()}
    if kind is set or kind is frozenset:
        return kind(_plain(v, depth + 1, linked) for v in value)
    if kind in values.numpy_scalar_types():
        return _plain(kind.item(value), depth + 1, linked)
    raise _NotPlain


def read_as(base: type, value: object) -> object:
    """value's data through the standard type's own methods, never its class's (an int subclass's real int)."""
    if base is tuple:
        return tuple(tuple.__iter__(value))
    if base is frozenset:
        return frozenset(frozenset.__iter__(value))
    if base in (list, bytearray, collections.deque):
        return base(base.__iter__(value))
    if base is set:
        return set(set.__iter__(value))
    if issubclass(base, dict):
        pairs = list(dict.items(value))
        if base is collections.defaultdict:
            return collections.defaultdict(None, pairs)
        return base(pairs) if base is not dict else dict(pairs)
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


def _caps(cls: type) -> list[str]:
    """The protocol methods instances of cls have (looked up in its MRO, as Python does, not on its metaclass)."""
    found = []
    for name in _PROTOCOL:
        for klass in cls.__mro__:
            if name in klass.__dict__:
                if klass.__dict__[name] is not None:
                    found.append(name)
                break
    return found


def _caps_in(caps: object) -> frozenset:
    return frozenset(c for c in caps if type(c) is str and c in _PROTOCOL) if type(caps) is list else frozenset()


def _class_info(info: dict) -> dict:
    value = info.get("value")
    container = info.get("container")
    exception = info.get("exception")
    return {"value": STANDARD_TYPES.get(value) if type(value) is str else None,
            "container": STANDARD_TYPES.get(container) if type(container) is str else None,
            "caps": _caps_in(info.get("caps")),
            "fields": [f for f in as_list(info.get("fields", [])) if type(f) is str and f.isidentifier()
                       and not f.startswith("__")],
            "dataclass": [f for f in as_list(info.get("dataclass", [])) if type(f) is str and f.isidentifier()
                          and not f.startswith("__")],
            "exception": exception if type(exception) is str else None,
            "enum": info.get("enum") is True}


def _names(info: dict) -> dict:
    return {k: info[k] for k in ("type", "name", "qualname", "doc", "module") if type(info.get(k)) is str}


def as_list(items: object) -> list:
    if type(items) not in (list, tuple):
        raise values.BadRecord("expected a list")
    return list(items)


def _whole(fields: tuple) -> tuple:
    if any(type(n) is not int for n in fields):
        raise values.BadRecord("expected whole numbers")
    return fields


def builtin_exception_name(cls: type) -> str:
    for klass in cls.__mro__:
        if getattr(builtins, klass.__name__, None) is klass and klass.__name__ not in _NEVER_RAISED:
            return klass.__name__
    return "Exception"


def standard_name(cls: type) -> str | None:
    """module.Class for a class of the standard library (not builtins), else None."""
    module = cls.__dict__.get("__module__")
    if type(module) is str and module.split(".")[0] in sys.stdlib_module_names and module != "builtins":
        return f"{module}.{cls.__qualname__}"
    return None


def _builtin_name(value: object) -> str | None:
    """The name of a builtin function or method descriptor that _resolve_builtin gives back (``len``,
    ``str.upper``), or None."""
    name = getattr(value, "__name__", None) if type(value).__module__ == "builtins" else None
    if type(name) is not str:
        return None
    if name in _SAFE_BUILTINS and getattr(builtins, name, None) is value:
        return name
    owner = getattr(value, "__objclass__", None)
    if owner is not None and _METHOD_OWNERS.get(getattr(owner, "__name__", "")) is owner:
        if getattr(owner, name, None) is value:
            return f"{owner.__name__}.{name}"
    return None


def _resolve_builtin(name: object) -> object:
    if type(name) is not str:
        raise values.BadRecord("a builtin's name")
    owner, _, attr = name.rpartition(".")
    if not owner and name in _SAFE_BUILTINS:
        return getattr(builtins, name)
    if owner in _METHOD_OWNERS and attr.isidentifier() and not attr.startswith("_"):
        found = getattr(_METHOD_OWNERS[owner], attr, None)
        if found is not None and type(found).__name__ in ("method_descriptor", "classmethod_descriptor",
                                                          "builtin_function_or_method"):
            return found
    raise values.BadRecord(f"not a builtin it may name: {name!r}")


def short_text(text: object, limit: int = 2000) -> str:
    text = str(text) if text is not None else ""
    return text if len(text) <= limit else text[:limit] + f"... [{len(text) - limit} more chars]"


def text_of(fn, value: object) -> str:
    try:
        return short_text(str(fn(value)), 300)
    except BaseException as exc:  # this side's own __repr__/__str__ may raise anything
        return f"<{type(value).__name__} ({fn.__name__} raised {type(exc).__name__})>"
