"""Values of the standard library as records of plain data, and back: how dates, Decimals, deques and the rest cross.

Runs inside the sandbox (stdlib only). The sending side turns a value of an *exact* standard type into a record,
a tuple of a tag and plain data read through the type's own methods; the receiving side builds a fresh object of
the same type with its own classes from that data, checking every field. Nothing either side defined travels:
a subclass the code made (a Decimal whose ``__eq__`` always says yes) is not of an exact type here, so it is not
recorded as one (peer.py sends it as an object of the code's own class, whose value the receiving side reads
through the standard type alone). The containers' items are encoded by the caller (peer.py), so a list of dates
or a dict of Decimals crosses item by item.

numpy (when SANDBOX_PACKAGES offers it) is one more family: a scalar of numpy's own types arrives as the Python value
its ``item`` gives, and an ndarray of numbers, booleans or strings (exactly numpy's ndarray) as an array record the
receiving side rebuilds with its own numpy.
"""

from __future__ import annotations

import collections
import datetime as _datetime_module
import decimal
import fractions
import pathlib
import re
import sys
import types

# The operators and protocols a value class of either side (Cents(int), Path(str)) may define over its value type's,
# asked of its side: the standard type's ran instead (a Cents.__add__ that subtracts passed 1 + 2 == 3). Not ==, the
# orderings or the hash (such values compare and hash by the standard type's rules), nor repr, str or format (sent).
VALUE_DUNDERS = frozenset(f"__{name}__" for name in (
    "add radd sub rsub mul rmul truediv rtruediv floordiv rfloordiv mod rmod divmod rdivmod pow rpow matmul rmatmul "
    "lshift rlshift rshift rrshift and rand or ror xor rxor neg pos abs invert round trunc floor ceil "
    "iadd isub imul itruediv ifloordiv imod ipow ilshift irshift iand ior ixor "
    "bool len getitem contains iter reversed int float complex index bytes fspath length_hint").split())

# The classes as they were when the sandbox loaded: a test that patches the module (monkeypatch.setattr(datetime,
# 'datetime', FakeDT), to fix "now") changes what the code's `datetime.datetime` is, never what a value here is.
datetime = types.SimpleNamespace(**{name: getattr(_datetime_module, name)
                                    for name in ("date", "datetime", "time", "timedelta", "timezone", "tzinfo")})

PLAIN_SCALARS = (type(None), bool, int, float, complex, str, bytes)
_TIMES = (datetime.date, datetime.datetime, datetime.time, datetime.timedelta, datetime.timezone)
_PATHS = {cls.__name__: cls for cls in (pathlib.PurePosixPath, pathlib.PureWindowsPath, pathlib.PosixPath)}
# Booleans, integers, floats, complex numbers and fixed-width strings, in one byte order and of a sane width:
# never object, structured, void or datetime dtypes.
_ARRAY_DTYPE = re.compile(r"[<>|=][biufcUS][1-9][0-9]{0,3}")
_MAX_DIMS = 32


class BadRecord(ValueError):
    """A record that does not describe a value of its type (wrong fields, or fields out of range)."""


# --- sending: an exact standard type to (tag, plain fields) -------------------------------------------------------

def time_record(value: object) -> tuple | None:
    """A record for a date, datetime, time, timedelta or timezone of exactly those types; else None. A datetime's or
    time's tzinfo is recorded when it is a timezone (a fixed offset) or a zoneinfo.ZoneInfo; any other tzinfo stays
    behind (None: the caller keeps the value as an object)."""
    kind = type(value)
    if kind is datetime.timedelta:
        return ("timedelta", value.days, value.seconds, value.microseconds)
    if kind is datetime.date:
        return ("date", value.year, value.month, value.day)
    if kind is datetime.timezone:
        offset, *name = value.__getinitargs__()  # the name only when one was given (timezone.utc has none)
        return ("timezone", offset.days, offset.seconds, offset.microseconds, name[0] if name else None)
    if kind in (datetime.datetime, datetime.time):
        zone = _zone_record(value.tzinfo)
        if zone is False:
            return None
        clock = (value.hour, value.minute, value.second, value.microsecond)
        if kind is datetime.time:
            return ("time", *clock, zone, value.fold)
        return ("datetime", value.year, value.month, value.day, *clock, zone, value.fold)
    return None


def _zone_record(tzinfo: object) -> tuple | None | bool:
    if tzinfo is None:
        return None
    if type(tzinfo) is datetime.timezone:
        return time_record(tzinfo)
    zoneinfo = sys.modules.get("zoneinfo")
    if zoneinfo is not None and type(tzinfo) is zoneinfo.ZoneInfo and type(tzinfo.key) is str:
        return ("zone", tzinfo.key)
    return False


def number_record(value: object) -> tuple | None:
    """A record for a Decimal or Fraction of exactly those types; else None."""
    kind = type(value)
    if kind is decimal.Decimal:
        return ("decimal", decimal.Decimal.__str__(value))
    if kind is fractions.Fraction:
        return ("fraction", int(value.numerator), int(value.denominator))
    return None


def path_record(value: object) -> tuple | None:
    """A record for a pathlib path of exactly a standard path type; else None."""
    kind = type(value)
    if kind in _PATHS.values():
        return ("path", kind.__name__, str(value))
    return None


def numpy_scalar_types() -> frozenset:
    """numpy's own scalar types (not subclasses), or none when numpy is not loaded (then no value is numpy's)."""
    numpy = sys.modules.get("numpy")
    if numpy is None:
        return frozenset()
    found = _numpy_types.get(id(numpy))
    if found is None:
        try:
            found = frozenset(numpy.dtype(code).type for code in "?bhilqpBHILQPefdgFDG")
        except Exception:  # not the real numpy: nothing is one of its scalars
            found = frozenset()
        _numpy_types.clear()
        _numpy_types[id(numpy)] = found
    return found


_numpy_types: dict[int, frozenset] = {}


def array_type() -> type | None:
    """numpy's ndarray when numpy is loaded, else None (then no value is an array)."""
    numpy = sys.modules.get("numpy")
    return None if numpy is None else getattr(numpy, "ndarray", None)


def is_array(value: object) -> bool:
    """Is value exactly numpy's ndarray (no subclass)?"""
    numpy = sys.modules.get("numpy")
    return numpy is not None and type(value) is getattr(numpy, "ndarray", None)


def is_plain_array(value: object) -> bool:
    """Is value exactly numpy's ndarray, of numbers, booleans or strings (what an array record carries)?"""
    if not is_array(value):
        return False
    try:
        return bool(_ARRAY_DTYPE.fullmatch(value.dtype.str))
    except Exception:
        return False


# Arrays up to this many items are one object on both sides, as a list is (live views, links): each read of one is
# a request, and a linked one is read with every message. A larger one crosses as a copy each time, as it did.
MAX_ONE_ARRAY = 4096


def array_kept_as_one(value: object) -> bool:
    """Is value an array that stays one object across the boundary: a plain one of at most MAX_ONE_ARRAY items?"""
    return is_plain_array(value) and value.size <= MAX_ONE_ARRAY


def array_record(value: object) -> tuple | None:
    """("array", dtype, shape, bytes, writeable) for an ndarray of plain numbers, booleans or strings; None for
    anything else. A read-only array (``a.flags.writeable = False``, a guard that the code leaves its input alone)
    arrives read-only."""
    if not is_array(value):
        return None
    try:
        dtype = value.dtype.str
        if not _ARRAY_DTYPE.fullmatch(dtype):
            return None
        return ("array", dtype, tuple(int(n) for n in value.shape), value.tobytes(order="C"),
                bool(value.flags.writeable))
    except Exception:
        return None


def dtype_record(value: object) -> tuple | None:
    """("dtype", its text) for numpy's dtype of plain numbers, booleans or strings (``w.dtype == np.float64``); None
    for anything else."""
    numpy = sys.modules.get("numpy")
    dtype = getattr(numpy, "dtype", None) if numpy is not None else None
    if dtype is None or not isinstance(dtype, type):
        return None
    kind = type(value)
    module = type.__dict__["__module__"].__get__(kind)  # the class's own, never a property of a proxy's class
    if type(module) is not str or module.split(".")[0] != "numpy" or not issubclass(kind, dtype):
        return None
    try:
        text = value.str
    except Exception:
        return None
    return ("dtype", text) if type(text) is str and _ARRAY_DTYPE.fullmatch(text) else None


# --- receiving: a record to a fresh object built by this process's own classes ------------------------------------

def _ints(fields: tuple, count: int) -> tuple:
    if len(fields) != count or any(type(n) is not int for n in fields):
        raise BadRecord("expected whole numbers")
    return fields


def _zone(record: object) -> datetime.tzinfo | None:
    if record is None:
        return None
    if type(record) is not tuple or not record:
        raise BadRecord("a time zone")
    if record[0] == "timezone":
        return build_time(record)
    if record[0] == "zone" and len(record) == 2 and type(record[1]) is str:
        import zoneinfo

        try:
            return zoneinfo.ZoneInfo(record[1])
        except (ValueError, OSError, zoneinfo.ZoneInfoNotFoundError) as exc:
            raise BadRecord(f"time zone {record[1]!r}: {exc}") from None
    raise BadRecord("a time zone")


def build_time(record: tuple) -> object:
    """The date, datetime, time, timedelta or timezone a time_record describes."""
    tag, fields = record[0], record[1:]
    try:
        if tag == "timedelta":
            return datetime.timedelta(*_ints(fields, 3))
        if tag == "date":
            return datetime.date(*_ints(fields, 3))
        if tag == "timezone":
            if len(fields) != 4 or (fields[3] is not None and type(fields[3]) is not str):
                raise BadRecord("a timezone")
            offset = datetime.timedelta(*_ints(fields[:3], 3))
            return datetime.timezone(offset) if fields[3] is None else datetime.timezone(offset, fields[3])
        if tag == "time" and len(fields) == 6:
            return datetime.time(*_ints(fields[:4], 4), tzinfo=_zone(fields[4]), fold=_ints(fields[5:], 1)[0])
        if tag == "datetime" and len(fields) == 9:
            return datetime.datetime(*_ints(fields[:7], 7), tzinfo=_zone(fields[7]), fold=_ints(fields[8:], 1)[0])
    except (ValueError, OverflowError, TypeError) as exc:
        raise BadRecord(f"{tag}: {exc}") from None
    raise BadRecord(f"a {tag} record of the wrong shape")


def build_number(record: tuple) -> object:
    """The Decimal or Fraction a number_record describes."""
    tag = record[0]
    if tag == "decimal" and len(record) == 2 and type(record[1]) is str and len(record[1]) < 10_000:
        try:
            return decimal.Decimal(record[1])
        except decimal.InvalidOperation:
            raise BadRecord("a Decimal that does not parse") from None
    if tag == "fraction" and len(record) == 3:
        numerator, denominator = _ints(record[1:], 2)
        if denominator <= 0:
            raise BadRecord("a Fraction's denominator")
        return fractions.Fraction(numerator, denominator)
    raise BadRecord(f"a {tag} record of the wrong shape")


def build_path(record: tuple) -> object:
    """The pathlib path a path_record describes."""
    if len(record) == 3 and record[1] in _PATHS and type(record[2]) is str and "\0" not in record[2]:
        return _PATHS[record[1]](record[2])
    raise BadRecord("a path record of the wrong shape")


def build_dtype(record: tuple) -> object:
    """The numpy dtype a dtype_record describes, built by this process's own numpy."""
    if len(record) != 2 or type(record[1]) is not str:
        raise BadRecord("malformed dtype record")
    return _numpy_dtype(record[1])


def numpy_type_record(value: object) -> tuple:
    """("nptype", dtype) for one of numpy's own scalar types (``np.float32`` handed to ``astype``)."""
    import numpy

    return ("nptype", numpy.dtype(value).str)


def build_numpy_type(record: tuple) -> object:
    """The numpy scalar type a numpy_type_record names."""
    if len(record) != 2 or type(record[1]) is not str:
        raise BadRecord("malformed numpy type record")
    found = _numpy_dtype(record[1]).type
    if found not in numpy_scalar_types():
        raise BadRecord("not a numpy scalar type")
    return found


def _numpy_dtype(text: str) -> object:
    if not _ARRAY_DTYPE.fullmatch(text):
        raise BadRecord("a dtype it does not read")
    try:
        import numpy
    except ImportError:
        raise BadRecord("a numpy value arrived, but numpy is not offered here") from None
    return numpy.dtype(text)


def build_array(record: tuple) -> object:
    """A fresh ndarray built by this process's own numpy from an array record."""
    if len(record) != 5:
        raise BadRecord("malformed array record")
    _, dtype, shape, data, writeable = record
    if (type(dtype) is not str or not _ARRAY_DTYPE.fullmatch(dtype) or type(shape) is not tuple
            or len(shape) > _MAX_DIMS or any(type(n) is not int or n < 0 for n in shape) or type(data) is not bytes
            or type(writeable) is not bool):
        raise BadRecord("malformed array record")
    try:
        import numpy
    except ImportError:
        raise BadRecord("an array arrived, but numpy is not offered here") from None
    kind = numpy.dtype(dtype)
    count = 1
    for n in shape:
        count *= n
    if count * kind.itemsize != len(data):
        raise BadRecord("array record: the bytes do not match its shape")
    built = numpy.frombuffer(data, dtype=kind).reshape(shape).copy()
    built.flags.writeable = writeable
    return built


# Standard modules that do something when imported: never imported because the other side named them.
_NOT_IMPORTED = frozenset({"antigravity", "this", "idlelib", "tkinter", "turtle", "turtledemo", "webbrowser"})


def module_record(value: object) -> tuple | None:
    """("module", name) for a module of the standard library (the code's `import random`), else None; a package
    with ("module", name, submodules): those loaded here that it holds as attributes (the code's `import
    urllib.request` binds urllib, and a test patches "solution.urllib.request.urlopen")."""
    name = getattr(value, "__name__", None)
    if not standard_module(name):
        return None
    if type(getattr(value, "__dict__", None)) is not dict or "__path__" not in value.__dict__:
        return ("module", name)
    found = _submodules(name)
    return ("module", name, found) if found else ("module", name)


def _submodules(package: str) -> tuple:
    """The loaded submodules of a package its modules hold as attributes, at any depth (xml.etree.ElementTree);
    kept until this process loads another module."""
    known = _submodules_known.get(package)
    if known is not None and known[0] == len(sys.modules):
        return known[1]
    found = []
    for full, module in list(sys.modules.items()):
        if len(found) >= _MAX_SUBMODULES:
            break
        if not full.startswith(package + ".") or not standard_module(full):
            continue
        parent, _, child = full.rpartition(".")
        holder = sys.modules.get(parent)
        if getattr(holder, "__dict__", {}).get(child) is module:
            found.append(full)
    _submodules_known[package] = (len(sys.modules), tuple(sorted(found)))
    return _submodules_known[package][1]


_submodules_known: dict[str, tuple[int, tuple]] = {}
_MAX_SUBMODULES = 64  # a package's submodules one record names


def standard_module(name: object) -> bool:
    """Is name a module of the standard library that may be imported because the other side named it? Never a
    package's __main__ (importing unittest.__main__ runs unittest's runner and exits), a module that prints as it
    loads (__hello__), or a test suite of the standard library's."""
    parts = name.split(".") if type(name) is str else [""]
    return parts[0] in sys.stdlib_module_names and parts[0] not in _NOT_IMPORTED and not any(
        part.startswith("__") or part in ("test", "tests", "idle_test") or part.startswith("test_") for part in parts)


def build_module(record: tuple) -> object:
    """The standard module a module_record names, imported by this side."""
    import importlib

    if len(record) not in (2, 3) or not standard_module(record[1]):
        raise BadRecord("not a standard module")
    submodules = record[2] if len(record) == 3 else ()
    if type(submodules) is not tuple or len(submodules) > _MAX_SUBMODULES or not all(
            type(n) is str and n.startswith(record[1] + ".") and standard_module(n) for n in submodules):
        raise BadRecord("not a package's standard submodules")
    try:
        module = importlib.import_module(record[1])
    except ImportError as exc:
        raise BadRecord(f"module {record[1]!r}: {exc}") from None
    for name in submodules:
        try:
            importlib.import_module(name)
        except ImportError:  # one the other side has and this side cannot load: its attribute stays unset, as here
            pass
    return module


_ADDRESS_TYPES = ("IPv4Address", "IPv6Address", "IPv4Network", "IPv6Network", "IPv4Interface", "IPv6Interface")


def identifier_record(value: object) -> tuple | None:
    """A record for a uuid.UUID or an ipaddress address, network or interface of exactly those types (immutable
    values that compare by value: ``make_id(5) == uuid.UUID(int=5)``); else None. Their modules are only read where
    loaded: a value of a module not loaded is none of theirs."""
    kind = type(value)
    uuid = sys.modules.get("uuid")
    if uuid is not None and kind is uuid.UUID:
        safe = value.is_safe.value
        return ("uuid", int(value.int), safe if type(safe) is int else None)
    ipaddress = sys.modules.get("ipaddress")
    if ipaddress is not None and kind.__module__ == "ipaddress" and kind.__name__ in _ADDRESS_TYPES and \
            getattr(ipaddress, kind.__name__) is kind:
        return ("ip", kind.__name__, str(value))
    return None


def build_identifier(record: tuple) -> object:
    """The UUID or ipaddress value an identifier_record describes."""
    if record[0] == "uuid" and len(record) == 3 and type(record[1]) is int and 0 <= record[1] < 1 << 128 and \
            record[2] in (0, -1, None):
        import uuid

        return uuid.UUID(int=record[1], is_safe=uuid.SafeUUID(record[2]))
    if record[0] == "ip" and len(record) == 3 and record[1] in _ADDRESS_TYPES and type(record[2]) is str and \
            len(record[2]) < 200:
        import ipaddress

        try:
            return getattr(ipaddress, record[1])(record[2])
        except ValueError:
            raise BadRecord(f"an {record[1]} that does not parse") from None
    raise BadRecord(f"a {record[0]} record of the wrong shape")


# Records whose fields are all plain: the tag names the builder.
BUILDERS = {"timedelta": build_time, "date": build_time, "timezone": build_time, "time": build_time,
            "datetime": build_time, "decimal": build_number, "fraction": build_number, "path": build_path,
            "array": build_array, "dtype": build_dtype, "nptype": build_numpy_type,
            "module": build_module, "uuid": build_identifier, "ip": build_identifier}


def leaf_record(value: object) -> tuple | None:
    """The record of a standard value that holds no other values (a date, a Decimal, a path, an array), or None."""
    kind = type(value)
    if kind in _TIMES:
        return time_record(value)
    if kind is decimal.Decimal or kind is fractions.Fraction:
        return number_record(value)
    if kind in _PATHS.values():
        return path_record(value)
    return array_record(value) or dtype_record(value) or identifier_record(value)


# The standard value types a class of either side may derive from and still be read as a value: the receiving side
# gets an object of a mirror class that *is* such a value (built from the data the standard type's own methods
# read), so comparing and hashing use the standard type's rules, never the sender's.
VALUE_BASES = (bool, int, float, complex, str, bytes, tuple, frozenset, decimal.Decimal, fractions.Fraction,
               datetime.datetime, datetime.date, datetime.time, datetime.timedelta)
# Mutable containers: a subclass of one is read as an object, whose contents a comparison with a plain value reads.
CONTAINER_BASES = (collections.OrderedDict, collections.defaultdict, collections.Counter, collections.deque,
                   list, dict, set, bytearray)


def value_base(cls: type) -> type | None:
    """The nearest standard value type in cls's MRO (datetime before date), or None."""
    for klass in cls.__mro__:
        if klass in VALUE_BASES:
            return klass
    return None


def container_base(cls: type) -> type | None:
    """The nearest mutable standard container in cls's MRO, or None."""
    for klass in cls.__mro__:
        if klass in CONTAINER_BASES:
            return klass
    return None


def copy_standard(base: type, value: object) -> object:
    """A new object of exactly base (a Decimal, Fraction, date, datetime, time or timedelta) holding value's data,
    read through base's own descriptors: a subclass's overrides are not called."""
    if base is decimal.Decimal:
        return decimal.Decimal(decimal.Decimal.__str__(value))
    if base is fractions.Fraction:
        return fractions.Fraction(value._numerator, value._denominator)
    fields = {datetime.date: ("year", "month", "day"), datetime.timedelta: ("days", "seconds", "microseconds"),
              datetime.time: ("hour", "minute", "second", "microsecond", "tzinfo"),
              datetime.datetime: ("year", "month", "day", "hour", "minute", "second", "microsecond", "tzinfo")}[base]
    made = base(*(getattr(base, name).__get__(value) for name in fields))
    if base in (datetime.time, datetime.datetime) and base.fold.__get__(value):
        made = made.replace(fold=1)
    return made
