"""The standard library's classes a class derives from that are no builtin type (``Enum``, ``IntEnum``, ``Flag``,
``logging.Handler``, ``collections.UserDict``, ``threading.Thread``, ``json.JSONDecodeError``): what a mirror keeps
of them, and such a class itself handed to the other side.

Runs inside the sandbox (stdlib only), in both processes. A mirror derives from a proxy's class, not from the
other side's bases, so ``isinstance(Color.RED, Enum)``, ``issubclass(L, IntEnum)``, ``except json.JSONDecodeError``
and pytest's ids of an enum member said False where one process says True. The sender names these classes
(names_of: only a class its name finds, not one that sets ``__module__``); the receiver finds them among the modules
it has loaded (it never imports one because the other side named it, and reads module and class dicts only, never a
``__getattr__``), and its mirror's method resolution order holds them after its own classes, before ``object``
(RemoteType.mro; an enum is a real base instead: proxies._value_core): ``isinstance``, ``issubclass`` and
``except`` read that order. What those classes define must not run on a proxy (``Thread.start`` would start a thread
here), so every name they define that the mirror's own classes do not is hidden on the mirror (asked of the other
side, as before), a special method of theirs is asked of the other side's object (forwarded), and one ``object``
defines is ``object``'s, as it was. A standard class itself crosses by its name (name_of, class_named): the other
side's own class of that name stands for it.
"""

from __future__ import annotations

import importlib
import sys
import types

MAX_BASES = 20
# What a class's namespace holds for Python's own bookkeeping, never looked up as an instance's attribute.
_BOOKKEEPING = frozenset({"__module__", "__qualname__", "__doc__", "__slots__", "__abstractmethods__", "_abc_impl",
                          "__annotations__", "__orig_bases__", "__parameters__", "__match_args__", "__firstlineno__",
                          "__static_attributes__", "__type_params__"})
# A test harness's own classes (unittest's SkipTest skips a test, a TestCase is run): the other side may not claim them.
HARNESS_MODULES = frozenset({"unittest", "doctest", "bdb", "pdb", "test"})


def names_of(cls: type, own: object) -> list[str]:
    """The standard library's classes in cls's method resolution order that are no builtin type, as
    "module:qualname"; own(klass) says which classes are this side's (described to the other side as classes)."""
    found = []
    for klass in cls.__mro__[1:]:
        name = None if own(klass) else name_of(klass)
        if name is not None:
            found.append(name)
            if len(found) == MAX_BASES:
                break
    return found


def resolve(names: object) -> tuple[type, ...]:
    """The classes named (names_of) that this side has loaded, each a class of the module named by that name."""
    if type(names) is not list:
        return ()
    found = []
    for name in names[:MAX_BASES]:
        klass = _loaded(name)
        if klass is not None and klass not in found:
            found.append(klass)
    return tuple(found)


def name_of(cls: type) -> str | None:
    """A class of the standard library (no builtin type) as "module:qualname", where that name finds it: it crosses
    as that name, and the other side's own class of that name stands for it (``except errors`` of the code, handed
    the tests' ``json.JSONDecodeError``)."""
    module = type.__dict__["__dict__"].__get__(cls).get("__module__")
    if not _standard_module(module):
        return None
    name = f"{module}:{cls.__qualname__}"
    return name if _loaded(name) is cls else None


def class_named(name: object, role: str) -> type | None:
    """The class a name (name_of) finds here. The code's side imports its module where it is not loaded (the tests
    may name any); the tests' side takes only an exception class of a module it has loaded (what the code names
    there is never imported, nor a class the tests would call)."""
    found = _loaded(name)
    if found is None and role == "code" and type(name) is str and _standard_module(name.partition(":")[0]):
        try:
            importlib.import_module(name.partition(":")[0])
        except Exception:
            return None
        found = _loaded(name)
    if found is not None and role == "tests" and not issubclass(found, Exception):
        return None
    return found


def _standard_module(module: object) -> bool:
    if type(module) is not str or module == "builtins":
        return False
    top = module.split(".")[0]
    return top in sys.stdlib_module_names and top not in HARNESS_MODULES and not top.startswith("_")


def _loaded(name: object) -> type | None:
    if type(name) is not str or name.count(":") != 1:
        return None
    module, qualname = name.split(":")
    if not _standard_module(module) or not all(part.isidentifier() for part in qualname.split(".")):
        return None
    # Read from the module's and the classes' own dicts, never by getattr: a module's or a class's __getattr__
    # (ctypes.cdll loads a library of the name asked for) runs nothing the other side named.
    found = sys.modules.get(module)
    found = found.__dict__ if type(found) is types.ModuleType else None
    for part in qualname.split("."):
        found = found.get(part) if type(found) is dict else type.__dict__["__dict__"].__get__(found).get(part) \
            if isinstance(found, type) else None
    if not isinstance(found, type) or type.__dict__["__dict__"].__get__(found).get("__module__") != module:
        return None
    if any(k.__name__ == "EnumType" for k in type(found).__mro__) and found.__dict__.get("_member_map_"):
        return None  # an enum with members, which no class derives from
    if issubclass(found, BaseException) and not issubclass(found, Exception):
        return None  # asyncio's CancelledError: what a harness reads as other than a failure, as SystemExit is
    return found if found.__qualname__ == qualname and found is not object else None


class _Hidden:
    """A name a standard base defines that the mirror's own classes do not: not here (Python then asks the proxy's
    ``__getattr__``, which asks the other side; the metaclass's, for the class)."""

    __slots__ = ("name",)

    def __init__(self, name: str) -> None:
        self.name = name

    def __get__(self, obj: object, cls: type | None = None) -> object:
        raise AttributeError(self.name)


def namespace_with(bases: tuple[type, ...], classes: tuple[type, ...], namespace: dict, forwarded: object,
                   value: bool = False) -> dict:
    """The namespace of a mirror of these classes that holds bases in its order: what they define kept off it, but
    the special methods forwarded(name) forwards to the other side's object (math.floor reads __floor__ on the type,
    and a name there that says it is not there ends the lookup). Where one of the bases has a __dict__ the mirror
    has one too (its __slots__ go): Python copies a __dict__'s offset from every class in the order to a class that
    has none, and an offset of another layout reads memory that is not there. value: a value's mirror (an IntEnum
    member's)."""
    namespace = dict(namespace)
    if any(k.__dictoffset__ for base in bases for k in base.__mro__):
        namespace.pop("__slots__", None)
    slots = namespace.get("__slots__", ())
    defined = set(namespace) | ({slots} if type(slots) is str else set(slots))  # a slot for __weakref__ is its own
    standard = {k for base in bases for k in base.__mro__ if k.__module__ != "builtins"}  # int stays IntEnum's value
    real = {k for klass in classes for k in klass.__mro__} & standard  # an IntEnum a value core derives from
    for klass in classes:
        defined.update(n for k in klass.__mro__ if k is not object and k not in standard
                       for n in type.__dict__["__dict__"].__get__(k))
    if real and value:
        defined.add("__dict__")  # a value's own dict holds its Ref (proxies.instance), where the bases are real
    for base in bases:
        for klass in base.__mro__:
            if klass not in standard:
                continue
            for name in type.__dict__["__dict__"].__get__(klass):
                if name not in defined and name not in _BOOKKEEPING and not name.startswith("_sbx"):
                    namespace[name] = (object.__dict__[name] if name in object.__dict__ else _no_finalizer
                                       if name == "__del__" else forwarded(name) or hidden(name))
                    defined.add(name)
    namespace["_sbx_standard_bases"] = bases
    return namespace


def stands_in(entry: object, name: str) -> bool:
    """Is entry, in a mirror's namespace, only what keeps a standard base's name off it (namespace_with), not the
    mirror's own answer (a test's subclass calling super().__init__ or super().emit needs the other side's)?"""
    return type(entry) is _Hidden or entry is _no_finalizer or (name in object.__dict__ and
                                                                 entry is object.__dict__[name])


def hidden(name: str) -> object:
    """What keeps name off a class: asked of the proxy's __getattr__ (of the metaclass's, for the class)."""
    return _Hidden(name)


def _no_finalizer(self: object) -> None:
    """A standard base's __del__ is the other side's object's to run, not its proxy's (hidden, Python would report
    the AttributeError of each proxy that dies)."""


def sound(cls: type, bases: tuple[type, ...]) -> bool:
    """Whether a mirror made with bases in its order has each layout they have (else it must not be used)."""
    return bool(cls.__dictoffset__) or not any(k.__dictoffset__ for base in bases for k in base.__mro__)


class _Before:
    """Where the standard bases begin in a mirror's order: a class made here, or a test's class on a mirror, runs
    the __init_subclass__ of the classes after its own, and a standard base's (typing.Generic's sets
    ``cls.__parameters__``, which a mirror would ask the other side to set on its class) is not the mirror's to run."""

    __slots__ = ()

    def __init_subclass__(cls, **keywords: object) -> None:
        pass


def with_bases(order: list[type], bases: tuple[type, ...]) -> list[type]:
    """A method resolution order with the standard bases (and theirs) after its own classes, before object."""
    extra = [k for base in bases for k in base.__mro__ if k is not object and k.__module__ != "builtins"]
    own = [k for k in order if k is not object and k is not _Before]
    added = []
    for klass in extra:
        if klass not in own and klass not in added:
            added.append(klass)
    return [*own, _Before, *added, object] if added else order
