"""The sixth differential run (session 25): classes of either side built on the standard library's classes that are
no builtin type (Enum, Flag, Thread, logging.Handler, UserDict, HTMLParser, abc.ABC, typing.Generic, json's and
configparser's exceptions, ...), crossing both ways: isinstance, issubclass, except and pytest's ids against the
standard class, and what the classes do (members, methods, iteration); the standard classes themselves handed over
(``except errors`` of the code given json.JSONDecodeError); classes that only say they are a standard module's.
C(name, code, tests); wrong code (name ending _bad) beside right; min_ cases are minimised differences."""
from textwrap import dedent as d

CASES = []


def C(name, code, tests):
    CASES.append((name, d(code).strip() + "\n", d(tests).strip() + "\n"))


# =============================================================== 1. code's Enum: basics
EN = '''
from enum import Enum, auto
class Color(Enum):
    RED = 1
    GREEN = 2
    BLUE = 3
def pick(i):
    return list(Color)[i]
def names():
    return [c.name for c in Color]
'''
EN_BAD = EN.replace("return list(Color)[i]", "return list(Color)[i - 1]")
EN_T = '''
import enum, pytest
from enum import Enum
def test_isinstance_enum():
    assert isinstance(Color.RED, Enum)
    assert issubclass(Color, Enum)
def test_isinstance_pick():
    assert isinstance(pick(0), Enum)
    assert pick(0) is Color.RED
def test_name_value():
    assert Color.RED.name == "RED" and Color.RED.value == 1
    assert pick(2).value == 3
def test_lookup():
    assert Color["GREEN"] is Color.GREEN
    assert Color(2) is Color.GREEN
    with pytest.raises(ValueError):
        Color(7)
    with pytest.raises(KeyError):
        Color["X"]
def test_iter_len_in():
    assert list(Color) == [Color.RED, Color.GREEN, Color.BLUE]
    assert len(Color) == 3
    assert Color.BLUE in Color
def test_members():
    assert list(Color.__members__) == ["RED", "GREEN", "BLUE"]
    assert Color.__members__["RED"] is Color.RED
def test_names():
    assert names() == ["RED", "GREEN", "BLUE"]
'''
C("enum_basic_ok", EN, EN_T)
C("enum_basic_bad", EN_BAD, EN_T)

C("enum_meta", EN, '''
import enum
def test_meta():
    assert isinstance(Color, enum.EnumMeta)
def test_type_of_member():
    assert type(Color.RED) is Color
def test_class_of_member():
    assert Color.RED.__class__ is Color
''')

# repr / str / format
EN_TEXT_T = '''
def test_repr():
    assert repr(Color.RED) == "<Color.RED: 1>"
def test_str():
    assert str(Color.RED) == "Color.RED"
def test_fstring():
    assert f"{Color.GREEN}" == "Color.GREEN"
    assert f"{Color.GREEN!r}" == "<Color.GREEN: 2>"
def test_format_name():
    assert "{0.name}-{0.value}".format(Color.BLUE) == "BLUE-3"
def test_in_list_repr():
    assert repr([Color.RED]) == "[<Color.RED: 1>]"
'''
C("enum_text_ok", EN, EN_TEXT_T)
C("enum_text_bad", EN.replace("RED = 1", "RED = 1\n    def __str__(self):\n        return self.name"), EN_TEXT_T)

# match statements
EN_MATCH = EN + '''
def label(c):
    match c:
        case Color.RED:
            return "stop"
        case Color.GREEN:
            return "go"
        case _:
            return "?"
'''
EN_MATCH_BAD = EN_MATCH.replace('return "go"', 'return "stop"')
EN_MATCH_T = '''
def test_label_code():
    assert label(Color.RED) == "stop"
    assert label(Color.GREEN) == "go"
    assert label(Color.BLUE) == "?"
def test_match_in_tests():
    def t(c):
        match c:
            case Color.RED:
                return 1
            case Color.GREEN | Color.BLUE:
                return 2
        return 0
    assert [t(c) for c in Color] == [1, 2, 2]
    assert t(pick(1)) == 2
def test_match_class_pattern():
    match pick(0):
        case Color():
            ok = True
        case _:
            ok = False
    assert ok
'''
C("enum_match_ok", EN_MATCH, EN_MATCH_T)
C("enum_match_bad", EN_MATCH_BAD, EN_MATCH_T)

# hash / dict / sorted / set
EN_HASH_T = '''
def test_dict_key():
    d = {Color.RED: "r", Color.GREEN: "g"}
    assert d[pick(0)] == "r"
    assert d.get(Color.BLUE) is None
def test_set():
    assert {Color.RED, pick(0), Color.RED} == {Color.RED}
    assert len({c for c in Color}) == 3
def test_sorted_by_value():
    assert sorted([Color.BLUE, Color.RED, Color.GREEN], key=lambda c: c.value) == list(Color)
def test_sorted_by_name():
    assert [c.name for c in sorted(Color, key=lambda c: c.name)] == ["BLUE", "GREEN", "RED"]
def test_not_orderable():
    import pytest
    with pytest.raises(TypeError):
        Color.RED < Color.GREEN
def test_eq_value_false():
    assert Color.RED != 1
    assert not (Color.RED == 1)
'''
C("enum_hash_ok", EN, EN_HASH_T)
C("enum_hash_bad", EN.replace("RED = 1", "RED = 1\n    def __lt__(self, o):\n        return self.value < o.value"), EN_HASH_T)

# methods, properties, classmethods, staticmethod, _missing_
PLANET = '''
from enum import Enum
class Planet(Enum):
    MERCURY = (3.303e+23, 2.4397e6)
    EARTH = (5.976e+24, 6.37814e6)
    def __init__(self, mass, radius):
        self.mass = mass
        self.radius = radius
    @property
    def surface_gravity(self):
        G = 6.67300E-11
        return G * self.mass / (self.radius * self.radius)
    def heavier(self, other):
        return self.mass > other.mass
    @classmethod
    def by_name(cls, s):
        return cls[s.upper()]
    @staticmethod
    def count():
        return 2
class Shade(Enum):
    LIGHT = "light"
    DARK = "dark"
    @classmethod
    def _missing_(cls, value):
        if isinstance(value, str):
            for m in cls:
                if m.value == value.lower():
                    return m
        return None
'''
PLANET_BAD = PLANET.replace("return cls[s.upper()]", "return cls[s]").replace("value.lower()", "value")
PLANET_T = '''
import pytest
def test_attrs():
    assert Planet.EARTH.mass == 5.976e+24
    assert Planet.EARTH.value == (5.976e+24, 6.37814e6)
def test_property():
    assert round(Planet.EARTH.surface_gravity, 2) == 9.80
def test_method():
    assert Planet.EARTH.heavier(Planet.MERCURY)
    assert not Planet.MERCURY.heavier(Planet.EARTH)
def test_classmethod():
    assert Planet.by_name("earth") is Planet.EARTH
def test_staticmethod():
    assert Planet.count() == 2
    assert Planet.EARTH.count() == 2
def test_missing():
    assert Shade("LIGHT") is Shade.LIGHT
    with pytest.raises(ValueError):
        Shade(3)
'''
C("enum_methods_ok", PLANET, PLANET_T)
C("enum_methods_bad", PLANET_BAD, PLANET_T)

# auto, unique, alias
AUTO = '''
from enum import Enum, auto, unique
class Step(Enum):
    A = auto()
    B = auto()
    C = auto()
class Alias(Enum):
    ONE = 1
    UNO = 1
    TWO = 2
'''
AUTO_T = '''
import enum
def test_auto():
    assert [s.value for s in Step] == [1, 2, 3]
def test_alias():
    assert Alias.UNO is Alias.ONE
    assert len(Alias) == 2
    assert list(Alias.__members__) == ["ONE", "UNO", "TWO"]
def test_unique_raises():
    import pytest
    with pytest.raises(ValueError):
        enum.unique(Alias)
def test_unique_ok():
    assert enum.unique(Step) is Step
'''
C("enum_auto_ok", AUTO, AUTO_T)
C("enum_auto_bad", AUTO.replace("B = auto()", "B = 5"), AUTO_T)

# Flag
FLAG = '''
from enum import Flag, auto
class Perm(Flag):
    R = auto()
    W = auto()
    X = auto()
RW = Perm.R | Perm.W
def grant(*ps):
    out = Perm(0)
    for p in ps:
        out |= p
    return out
'''
FLAG_BAD = FLAG.replace("out |= p", "out = p")
FLAG_T = '''
import enum
def test_or():
    assert (Perm.R | Perm.W) == RW
    assert RW.value == 3
def test_contains():
    assert Perm.R in RW
    assert Perm.X not in RW
def test_grant():
    g = grant(Perm.R, Perm.X)
    assert Perm.X in g and Perm.R in g
    assert g.value == 5
def test_bool_zero():
    assert not Perm(0)
    assert not grant()
    assert bool(Perm.R)
def test_isinstance_flag():
    assert isinstance(RW, enum.Flag) and isinstance(RW, enum.Enum)
def test_and():
    assert (RW & Perm.W) is Perm.W
def test_invert():
    assert ~Perm.R == Perm.W | Perm.X
def test_iter_flag():
    assert list(RW) == [Perm.R, Perm.W]
'''
C("flag_ok", FLAG, FLAG_T)
C("flag_bad", FLAG_BAD, FLAG_T)

# copy / deepcopy / pickle / json
EN_COPY_T = '''
import copy, pickle, json
def test_copy():
    assert copy.copy(Color.RED) is Color.RED
def test_deepcopy():
    assert copy.deepcopy(Color.GREEN) is Color.GREEN
def test_deepcopy_in_list():
    x = copy.deepcopy([Color.RED, {"k": Color.BLUE}])
    assert x[0] is Color.RED and x[1]["k"] is Color.BLUE
def test_pickle():
    assert pickle.loads(pickle.dumps(Color.RED)) is Color.RED
def test_json_value():
    assert json.dumps({"c": Color.RED.value}) == '{"c": 1}'
def test_json_member_fails():
    import pytest
    with pytest.raises(TypeError):
        json.dumps(Color.RED)
def test_json_default():
    assert json.dumps([Color.RED, Color.BLUE], default=lambda e: e.name) == '["RED", "BLUE"]'
'''
C("enum_copy_ok", EN, EN_COPY_T)

# dataclass with enum fields
DCE = '''
from dataclasses import dataclass, field, asdict
from enum import Enum
class Kind(Enum):
    A = "a"
    B = "b"
@dataclass(frozen=True)
class Item:
    name: str
    kind: Kind = Kind.A
def make(n, k="a"):
    return Item(n, Kind(k))
def as_dict(item):
    return asdict(item)
'''
DCE_BAD = DCE.replace("return Item(n, Kind(k))", "return Item(n)")
DCE_T = '''
def test_make_eq():
    assert make("x", "b") == Item("x", Kind.B)
    assert make("x", "b") != Item("x", Kind.A)
def test_kind_field():
    assert make("y", "b").kind is Kind.B
def test_default():
    assert Item("z").kind is Kind.A
def test_asdict():
    assert as_dict(make("q", "b")) == {"name": "q", "kind": Kind.B}
def test_hash():
    assert len({make("a", "a"), make("a", "a"), make("a", "b")}) == 2
'''
C("enum_dataclass_ok", DCE, DCE_T)
C("enum_dataclass_bad", DCE_BAD, DCE_T)

# total_ordering on enum
TOT = '''
import functools
from enum import Enum
@functools.total_ordering
class Size(Enum):
    S = 1
    M = 2
    L = 3
    def __lt__(self, other):
        if self.__class__ is other.__class__:
            return self.value < other.value
        return NotImplemented
'''
TOT_BAD = TOT.replace("self.value < other.value", "self.value > other.value")
TOT_T = '''
import pytest
def test_lt():
    assert Size.S < Size.L
def test_ge():
    assert Size.L >= Size.M
def test_sorted():
    assert sorted([Size.L, Size.S, Size.M]) == [Size.S, Size.M, Size.L]
def test_max():
    assert max(Size) is Size.L
def test_mixed_type():
    with pytest.raises(TypeError):
        Size.S < 3
'''
C("enum_total_ordering_ok", TOT, TOT_T)
C("enum_total_ordering_bad", TOT_BAD, TOT_T)

# parametrize ids
C("enum_param_ids", EN, '''
import pytest
@pytest.mark.parametrize("c", list(Color))
def test_each(c):
    assert c.value in (1, 2, 3)
@pytest.mark.parametrize("c,n", [(Color.RED, "RED"), (Color.BLUE, "BLUE")])
def test_pairs(c, n):
    assert c.name == n
''')

# unittest style
C("enum_unittest_ok", EN, '''
import unittest, enum
class T(unittest.TestCase):
    def test_inst(self):
        self.assertIsInstance(Color.RED, enum.Enum)
        self.assertIsInstance(pick(1), Color)
    def test_eq(self):
        self.assertEqual(pick(1), Color.GREEN)
        self.assertIs(pick(1), Color.GREEN)
        self.assertIn(Color.RED, list(Color))
    def test_ne(self):
        self.assertNotEqual(pick(1), Color.RED)
''')
C("enum_unittest_bad", EN_BAD, '''
import unittest, enum
class T(unittest.TestCase):
    def test_inst(self):
        self.assertIsInstance(Color.RED, enum.Enum)
        self.assertIsInstance(pick(1), Color)
    def test_eq(self):
        self.assertEqual(pick(1), Color.GREEN)
        self.assertIs(pick(1), Color.GREEN)
    def test_ne(self):
        self.assertNotEqual(pick(1), Color.RED)
''')

# plain asserts
C("enum_plain_bad", EN_BAD, '''
from enum import Enum
assert isinstance(pick(0), Enum)
assert pick(0) is Color.RED
''')

# vars / dir / hasattr / weakref on enum members
C("enum_introspect", EN, '''
import weakref, enum
def test_hasattr():
    assert hasattr(Color.RED, "name") and hasattr(Color.RED, "value")
    assert not hasattr(Color.RED, "nope")
def test_dir_has_name():
    assert "name" in dir(Color.RED)
    assert "RED" in dir(Color)
def test_vars_has_value():
    assert vars(Color.RED)["_value_"] == 1
def test_weakref():
    r = weakref.ref(Color.RED)
    assert r() is Color.RED
def test_getattr_default():
    assert getattr(Color.RED, "zzz", 5) == 5
def test_name_dunder():
    assert Color.__name__ == "Color"
    assert Color.RED._name_ == "RED"
''')

# =============================================================== 2. tests' Enum handed to the code
TEN = '''
import enum
def describe(x):
    if isinstance(x, enum.Enum):
        return f"{type(x).__name__}.{x.name}={x.value!r}"
    return repr(x)
def next_member(x):
    members = list(type(x))
    return members[(members.index(x) + 1) % len(members)]
def by_name(cls, n):
    return cls[n]
def by_value(cls, v):
    return cls(v)
def is_flag(x):
    return isinstance(x, enum.Flag)
def keys(cls):
    return list(cls.__members__)
def lookup(d, k):
    return d[k]
def same(a, b):
    return a is b
def as_str(x):
    return str(x), repr(x), format(x)
'''
TEN_BAD = TEN.replace("if isinstance(x, enum.Enum):", "if hasattr(x, 'nam'):").replace(
    "% len(members)]", "% (len(members) - 1)]")
TEN_T = '''
from enum import Enum, Flag, auto
class Suit(Enum):
    HEART = "h"
    SPADE = "s"
    CLUB = "c"
class Opt(Flag):
    A = auto()
    B = auto()
def test_describe():
    assert describe(Suit.HEART) == "Suit.HEART='h'"
def test_next_member():
    assert next_member(Suit.SPADE) is Suit.CLUB
    assert next_member(Suit.CLUB) is Suit.HEART
def test_by_name_value():
    assert by_name(Suit, "CLUB") is Suit.CLUB
    assert by_value(Suit, "s") is Suit.SPADE
def test_is_flag():
    assert is_flag(Opt.A | Opt.B)
    assert not is_flag(Suit.HEART)
def test_keys():
    assert keys(Suit) == ["HEART", "SPADE", "CLUB"]
def test_lookup_dict():
    assert lookup({Suit.HEART: 1}, Suit.HEART) == 1
def test_same():
    assert same(Suit.HEART, Suit.HEART)
def test_as_str():
    assert as_str(Suit.HEART) == ("Suit.HEART", "<Suit.HEART: 'h'>", "Suit.HEART")
'''
C("tests_enum_to_code_ok", TEN, TEN_T)
C("tests_enum_to_code_bad", TEN_BAD, TEN_T)

# code matching on a tests' enum, sorting tests' enums by value, code's copy
TEN2 = '''
import copy, json
def sort_by_value(xs):
    return sorted(xs, key=lambda m: m.value)
def copies(x):
    return copy.copy(x) is x, copy.deepcopy(x) is x
def dump(x):
    return json.dumps({x.name: x.value})
def kind(x):
    match x:
        case x if x.value > 1:
            return "big"
        case _:
            return "small"
'''
TEN2_T = '''
from enum import Enum
class Lvl(Enum):
    LO = 1
    MID = 2
    HI = 3
def test_sort():
    assert sort_by_value([Lvl.HI, Lvl.LO, Lvl.MID]) == [Lvl.LO, Lvl.MID, Lvl.HI]
def test_copies():
    assert copies(Lvl.LO) == (True, True)
def test_dump():
    assert dump(Lvl.HI) == '{"HI": 3}'
def test_kind():
    assert kind(Lvl.LO) == "small" and kind(Lvl.HI) == "big"
'''
C("tests_enum_to_code2_ok", TEN2, TEN2_T)
C("tests_enum_to_code2_bad", TEN2.replace("m.value)", "m.name)"), TEN2_T)

# =============================================================== 3. Thread subclasses
THR = '''
import threading
class Worker(threading.Thread):
    def __init__(self, n):
        super().__init__(name=f"w{n}", daemon=True)
        self.n = n
        self.result = None
    def run(self):
        self.result = sum(range(self.n + 1))
def run_all(ns):
    ws = [Worker(n) for n in ns]
    for w in ws:
        w.start()
    for w in ws:
        w.join()
    return [w.result for w in ws]
'''
THR_BAD = THR.replace("sum(range(self.n + 1))", "sum(range(self.n))")
THR_T = '''
import threading
def test_isinstance():
    w = Worker(3)
    assert isinstance(w, threading.Thread)
    assert issubclass(Worker, threading.Thread)
def test_name_daemon():
    w = Worker(3)
    assert w.name == "w3"
    assert w.daemon is True
    assert not w.is_alive()
def test_start_join():
    w = Worker(4)
    w.start()
    w.join(5)
    assert not w.is_alive()
    assert w.result == 10
def test_run_all():
    assert run_all([1, 2, 3]) == [1, 3, 6]
def test_run_direct():
    w = Worker(5)
    w.run()
    assert w.result == 15
def test_start_twice():
    import pytest
    w = Worker(1)
    w.start(); w.join()
    with pytest.raises(RuntimeError):
        w.start()
'''
C("thread_ok", THR, THR_T)
C("thread_bad", THR_BAD, THR_T)

# tests' Thread subclass handed to the code
TTHR = '''
import threading
def start_and_wait(t):
    assert isinstance(t, threading.Thread)
    t.start()
    t.join()
    return t.out
def info(t):
    return t.name, t.daemon, t.is_alive()
'''
TTHR_BAD = TTHR.replace("    t.join()\n", "")
TTHR_T = '''
import threading, time
class Slow(threading.Thread):
    def __init__(self):
        super().__init__(name="slow")
        self.out = None
    def run(self):
        time.sleep(0.2)
        self.out = 42
def test_start_and_wait():
    assert start_and_wait(Slow()) == 42
def test_info():
    assert info(Slow()) == ("slow", False, False)
'''
C("tests_thread_to_code_ok", TTHR, TTHR_T)
C("tests_thread_to_code_bad", TTHR_BAD, TTHR_T)

# =============================================================== 4. logging
LOGH = '''
import logging
class ListHandler(logging.Handler):
    def __init__(self):
        super().__init__()
        self.records = []
    def emit(self, record):
        self.records.append(self.format(record))
class UpperFormatter(logging.Formatter):
    def format(self, record):
        return super().format(record).upper()
class OnlyWarn(logging.Filter):
    def filter(self, record):
        return record.levelno >= logging.WARNING
'''
LOGH_BAD = LOGH.replace("return record.levelno >= logging.WARNING", "return record.levelno > logging.WARNING")
LOGH_T = '''
import logging
def test_isinstance():
    h = ListHandler()
    assert isinstance(h, logging.Handler)
    assert isinstance(UpperFormatter(), logging.Formatter)
    assert isinstance(OnlyWarn(), logging.Filter)
def test_handler_on_tests_logger():
    log = logging.getLogger("t1")
    log.propagate = False
    h = ListHandler()
    h.setFormatter(logging.Formatter("%(levelname)s:%(message)s"))
    log.addHandler(h)
    log.setLevel(logging.DEBUG)
    log.info("hello %s", "x")
    log.removeHandler(h)
    assert h.records == ["INFO:hello x"]
def test_formatter_on_tests_handler():
    import io
    s = io.StringIO()
    h = logging.StreamHandler(s)
    h.setFormatter(UpperFormatter("%(message)s"))
    log = logging.getLogger("t2")
    log.propagate = False
    log.addHandler(h)
    log.warning("shout")
    log.removeHandler(h)
    assert s.getvalue() == "SHOUT\\n"
def test_filter_on_tests_logger():
    log = logging.getLogger("t3")
    log.propagate = False
    h = ListHandler()
    log.addHandler(h)
    log.addFilter(OnlyWarn())
    log.setLevel(logging.DEBUG)
    log.info("no")
    log.warning("yes")
    log.removeHandler(h)
    assert h.records == ["yes"]
def test_level():
    h = ListHandler()
    h.setLevel(logging.ERROR)
    assert h.level == logging.ERROR
    assert h.name is None
'''
C("logging_code_classes_ok", LOGH, LOGH_T)
C("logging_code_classes_bad", LOGH_BAD, LOGH_T)

# tests' logging classes handed to the code
TLOG = '''
import logging
log = logging.getLogger("code.module")
log.setLevel(logging.DEBUG)
log.propagate = False
def attach(h):
    assert isinstance(h, logging.Handler)
    log.addHandler(h)
def detach(h):
    log.removeHandler(h)
def work(n):
    log.debug("start %d", n)
    if n < 0:
        log.error("negative")
    return n * 2
def with_filter(f):
    log.addFilter(f)
'''
TLOG_BAD = TLOG.replace('log.error("negative")', 'log.warning("negative")')
TLOG_T = '''
import logging
class Collect(logging.Handler):
    def __init__(self):
        super().__init__()
        self.seen = []
    def emit(self, record):
        self.seen.append((record.levelname, record.getMessage()))
def test_collect():
    h = Collect()
    attach(h)
    try:
        assert work(-1) == -2
    finally:
        detach(h)
    assert h.seen == [("DEBUG", "start -1"), ("ERROR", "negative")]
def test_level_filters():
    h = Collect()
    h.setLevel(logging.ERROR)
    attach(h)
    try:
        work(-2)
    finally:
        detach(h)
    assert h.seen == [("ERROR", "negative")]
def test_caplog(caplog):
    with caplog.at_level(logging.DEBUG, logger="code.module"):
        log = logging.getLogger("code.module")
        log.propagate = True
        work(-3)
        log.propagate = False
    assert ("code.module", logging.ERROR, "negative") in caplog.record_tuples
'''
C("tests_logging_to_code_ok", TLOG, TLOG_T)
C("tests_logging_to_code_bad", TLOG_BAD, TLOG_T)

# =============================================================== 5. UserDict / UserList / UserString
UD = '''
from collections import UserDict, UserList, UserString
class LowerDict(UserDict):
    def __setitem__(self, k, v):
        super().__setitem__(k.lower(), v)
    def __getitem__(self, k):
        return super().__getitem__(k.lower())
class Stack(UserList):
    def push(self, x):
        self.append(x)
    def peek(self):
        return self[-1]
class Shout(UserString):
    def shout(self):
        return self.upper() + "!"
def make_dict():
    d = LowerDict()
    d["A"] = 1
    d["b"] = 2
    return d
'''
UD_BAD = UD.replace("super().__setitem__(k.lower(), v)", "super().__setitem__(k, v)")
UD_T = '''
import collections
def test_dict_eq_plain():
    assert make_dict() == {"a": 1, "b": 2}
def test_dict_getitem():
    d = make_dict()
    assert d["a"] == 1 and d["B"] == 2
def test_dict_len_iter_data():
    d = make_dict()
    assert len(d) == 2
    assert sorted(d) == ["a", "b"]
    assert d.data == {"a": 1, "b": 2}
def test_dict_isinstance():
    assert isinstance(make_dict(), collections.UserDict)
    import collections.abc
    assert isinstance(make_dict(), collections.abc.MutableMapping)
def test_dict_in():
    assert "a" in make_dict()
def test_list():
    s = Stack([1, 2])
    s.push(3)
    assert s == [1, 2, 3]
    assert s.peek() == 3
    assert len(s) == 3
    assert s.data == [1, 2, 3]
    assert isinstance(s, collections.UserList)
def test_list_ops():
    s = Stack([3, 1, 2])
    s.sort()
    assert list(s) == [1, 2, 3]
    assert s + [4] == [1, 2, 3, 4]
def test_string():
    s = Shout("hi")
    assert s.shout() == "HI!"
    assert s == "hi"
    assert len(s) == 2
    assert isinstance(s, collections.UserString)
    assert s.data == "hi"
'''
C("userdict_ok", UD, UD_T)
C("userdict_bad", UD_BAD, UD_T)

# tests' UserDict handed to the code
TUD = '''
from collections import UserDict
def count_into(d, words):
    assert isinstance(d, UserDict)
    for w in words:
        d[w] = d.get(w, 0) + 1
    return d
def read_data(d):
    return dict(d.data)
'''
TUD_T = '''
from collections import UserDict
class Counts(UserDict):
    def __missing__(self, k):
        return 0
def test_count_into():
    c = Counts()
    count_into(c, "abca")
    assert c == {"a": 2, "b": 1, "c": 1}
    assert c["z"] == 0
def test_read_data():
    assert read_data(Counts(x=1)) == {"x": 1}
'''
C("tests_userdict_to_code_ok", TUD, TUD_T)
C("tests_userdict_to_code_bad", TUD.replace("d.get(w, 0) + 1", "1"), TUD_T)

# =============================================================== 6. HTMLParser
HP = '''
from html.parser import HTMLParser
class LinkParser(HTMLParser):
    def __init__(self):
        super().__init__()
        self.links = []
        self.text = []
    def handle_starttag(self, tag, attrs):
        if tag == "a":
            self.links.append(dict(attrs).get("href"))
    def handle_data(self, data):
        if data.strip():
            self.text.append(data.strip())
def links(html):
    p = LinkParser()
    p.feed(html)
    p.close()
    return p.links
'''
HP_BAD = HP.replace('if tag == "a":', 'if tag in ("a", "link"):')
HP_T = '''
from html.parser import HTMLParser
DOC = '<link href="x.css"><p>Hi <a href="/a">A</a> and <a href="/b">B</a></p>'
def test_links():
    assert links(DOC) == ["/a", "/b"]
def test_parser_object():
    p = LinkParser()
    assert isinstance(p, HTMLParser)
    p.feed(DOC)
    assert p.links == ["/a", "/b"]
    assert p.text == ["Hi", "A", "and", "B"]
def test_feed_in_pieces():
    p = LinkParser()
    for ch in DOC:
        p.feed(ch)
    p.close()
    assert p.links == ["/a", "/b"]
'''
C("htmlparser_ok", HP, HP_T)
C("htmlparser_bad", HP_BAD, HP_T)

# tests' HTMLParser to the code
C("tests_htmlparser_to_code", '''
from html.parser import HTMLParser
def run(p, html):
    assert isinstance(p, HTMLParser)
    p.feed(html)
    p.close()
    return p.tags
''', '''
from html.parser import HTMLParser
class Tags(HTMLParser):
    def __init__(self):
        super().__init__()
        self.tags = []
    def handle_starttag(self, tag, attrs):
        self.tags.append(tag)
def test_run():
    assert run(Tags(), "<div><b>x</b><i>y</i></div>") == ["div", "b", "i"]
''')

# =============================================================== 7. abc.ABC
ABCC = '''
from abc import ABC, abstractmethod
class Shape(ABC):
    @abstractmethod
    def area(self): ...
    def describe(self):
        return f"{type(self).__name__} {self.area()}"
class Sq(Shape):
    def __init__(self, s):
        self.s = s
    def area(self):
        return self.s * self.s
class Half(Shape):
    pass
'''
ABCC_BAD = ABCC.replace("    @abstractmethod\n", "")
ABCC_T = '''
import abc, pytest
def test_abstract_raises():
    with pytest.raises(TypeError):
        Shape()
def test_half_raises():
    with pytest.raises(TypeError):
        Half()
def test_isinstance():
    s = Sq(2)
    assert isinstance(s, Shape) and isinstance(s, abc.ABC)
    assert s.describe() == "Sq 4"
def test_issubclass():
    assert issubclass(Sq, Shape) and issubclass(Sq, abc.ABC)
def test_abstract_set():
    assert Shape.__abstractmethods__ == frozenset({"area"})
def test_isabstract():
    import inspect
    assert inspect.isabstract(Shape) and not inspect.isabstract(Sq)
'''
C("abc_ok", ABCC, ABCC_T)
C("abc_bad", ABCC_BAD, ABCC_T)

# tests' class subclassing the code's ABC
C("tests_subclass_code_abc_ok", ABCC, '''
import pytest
class Tri(Shape):
    def __init__(self, b, h):
        self.b, self.h = b, h
    def area(self):
        return self.b * self.h / 2
class Bad(Shape):
    pass
def test_tri():
    t = Tri(2, 3)
    assert t.area() == 3
    assert t.describe() == "Tri 3.0"
    assert isinstance(t, Shape)
def test_bad():
    with pytest.raises(TypeError):
        Bad()
''')

# register on the code's ABC
C("abc_register", ABCC, '''
class Circle:
    def area(self):
        return 3
Shape.register(Circle)
def test_registered():
    assert isinstance(Circle(), Shape)
    assert issubclass(Circle, Shape)
''')

# tests' ABC to the code
C("tests_abc_to_code", '''
import abc
def check(x):
    return isinstance(x, abc.ABC), x.area()
def is_abstract(cls):
    import inspect
    return inspect.isabstract(cls)
''', '''
from abc import ABC, abstractmethod
class Base(ABC):
    @abstractmethod
    def area(self): ...
class R(Base):
    def area(self):
        return 6
def test_check():
    assert check(R()) == (True, 6)
def test_is_abstract():
    assert is_abstract(Base) is True
    assert is_abstract(R) is False
''')

# =============================================================== 8. typing.Generic / Protocol
GEN = '''
from typing import Generic, TypeVar, Protocol, runtime_checkable
T = TypeVar("T")
class Box(Generic[T]):
    def __init__(self, v: T):
        self.v = v
    def get(self) -> T:
        return self.v
@runtime_checkable
class Closer(Protocol):
    def close(self) -> None: ...
class Door:
    def close(self):
        return "shut"
class Wall:
    pass
'''
GEN_T = '''
import typing
def test_box():
    b = Box(3)
    assert b.get() == 3
    assert isinstance(b, Box)
    assert isinstance(b, typing.Generic)
def test_box_subscript():
    b = Box[int](5)
    assert b.get() == 5
def test_orig_bases():
    assert Box.__parameters__ == (typing.TypeVar("T"),) or len(Box.__parameters__) == 1
def test_protocol_structural():
    assert isinstance(Door(), Closer)
    assert not isinstance(Wall(), Closer)
def test_protocol_tests_class():
    class Mine:
        def close(self):
            pass
    assert isinstance(Mine(), Closer)
'''
C("generic_protocol", GEN, GEN_T)

# =============================================================== 9. string.Formatter / argparse
SF = '''
import string, argparse
class Upper(string.Formatter):
    def format_field(self, value, spec):
        return super().format_field(value, spec).upper()
class Store2(argparse.Action):
    def __call__(self, parser, ns, values, option_string=None):
        setattr(ns, self.dest, values * 2)
def parse(args):
    p = argparse.ArgumentParser()
    p.add_argument("--n", type=int, action=Store2)
    return p.parse_args(args)
class NS(argparse.Namespace):
    def total(self):
        return sum(vars(self).values())
'''
SF_BAD = SF.replace("values * 2", "values")
SF_T = '''
import string, argparse
def test_formatter():
    f = Upper()
    assert isinstance(f, string.Formatter)
    assert f.format("a{}b{x}", "c", x="d") == "aCbD"
def test_action():
    ns = parse(["--n", "4"])
    assert ns.n == 8
    assert isinstance(ns, argparse.Namespace)
def test_action_isinstance():
    assert issubclass(Store2, argparse.Action)
def test_ns():
    n = NS(a=1, b=2)
    assert n.total() == 3
    assert isinstance(n, argparse.Namespace)
    assert n == argparse.Namespace(a=1, b=2)
'''
C("formatter_argparse_ok", SF, SF_T)
C("formatter_argparse_bad", SF_BAD, SF_T)

# tests' argparse action and Namespace handed to the code
C("tests_argparse_to_code", '''
import argparse
def parse(action_cls, args):
    p = argparse.ArgumentParser()
    p.add_argument("--v", action=action_cls)
    return p.parse_args(args)
def into(ns, args):
    p = argparse.ArgumentParser()
    p.add_argument("--k")
    return p.parse_args(args, namespace=ns)
''', '''
import argparse
class Up(argparse.Action):
    def __call__(self, parser, ns, values, option_string=None):
        setattr(ns, self.dest, values.upper())
class MyNS(argparse.Namespace):
    pass
def test_parse():
    assert parse(Up, ["--v", "x"]).v == "X"
def test_into():
    n = MyNS()
    r = into(n, ["--k", "z"])
    assert r is n and n.k == "z"
''')

# =============================================================== 10. exceptions on stdlib exception bases
EXC = '''
import json, configparser, http.client, concurrent.futures, asyncio, subprocess
class BadJson(json.JSONDecodeError):
    pass
class ConfErr(configparser.Error):
    pass
class HttpErr(http.client.HTTPException):
    pass
class FutTimeout(concurrent.futures.TimeoutError):
    pass
class AioTimeout(asyncio.TimeoutError):
    pass
class Proc(subprocess.CalledProcessError):
    pass
def load(s):
    try:
        return json.loads(s)
    except json.JSONDecodeError as e:
        raise BadJson("bad: " + e.msg, e.doc, e.pos) from e
def conf():
    raise ConfErr("no section")
def http():
    raise HttpErr("boom")
def fut():
    raise FutTimeout("slow")
def aio():
    raise AioTimeout("slower")
def proc():
    raise Proc(3, ["ls"], "out")
'''
EXC_BAD = EXC.replace("class ConfErr(configparser.Error):", "class ConfErr(Exception):").replace(
    "class HttpErr(http.client.HTTPException):", "class HttpErr(OSError):")
EXC_T = '''
import json, configparser, http.client, concurrent.futures, asyncio, subprocess, pytest
def test_json():
    with pytest.raises(json.JSONDecodeError) as ei:
        load("{bad")
    assert ei.value.pos == 1
    assert ei.value.msg.startswith("bad: ")
    assert ei.value.lineno == 1
def test_json_valueerror():
    with pytest.raises(ValueError):
        load("[")
def test_json_except():
    try:
        load("]")
    except json.JSONDecodeError as e:
        assert isinstance(e, BadJson)
    else:
        assert False
def test_conf():
    with pytest.raises(configparser.Error, match="no section"):
        conf()
def test_http():
    with pytest.raises(http.client.HTTPException):
        http()
def test_fut():
    with pytest.raises(concurrent.futures.TimeoutError):
        fut()
def test_aio():
    with pytest.raises(asyncio.TimeoutError):
        aio()
def test_proc():
    with pytest.raises(subprocess.CalledProcessError) as ei:
        proc()
    assert ei.value.returncode == 3
    assert ei.value.cmd == ["ls"]
    assert "returned non-zero exit status 3" in str(ei.value)
def test_proc_subprocess_error():
    with pytest.raises(subprocess.SubprocessError):
        proc()
'''
C("exc_bases_ok", EXC, EXC_T)
C("exc_bases_bad", EXC_BAD, EXC_T)

# wrong code: raises a sibling stdlib exception
EXC2 = '''
import configparser
def get(cp, s, k):
    if not cp.has_section(s):
        raise configparser.NoSectionError(s)
    return cp.get(s, k)
class MissingOpt(configparser.NoOptionError):
    pass
def need(s, k):
    raise MissingOpt(k, s)
'''
EXC2_BAD = EXC2.replace("class MissingOpt(configparser.NoOptionError):", "class MissingOpt(configparser.NoSectionError):").replace(
    "raise MissingOpt(k, s)", "raise MissingOpt(s)")
EXC2_T = '''
import configparser, pytest
def test_need():
    with pytest.raises(configparser.NoOptionError) as ei:
        need("sec", "opt")
    assert ei.value.option == "opt"
    assert ei.value.section == "sec"
def test_need_not_nosection():
    try:
        need("s", "o")
    except configparser.NoSectionError:
        assert False, "wrong kind"
    except configparser.Error:
        pass
def test_get():
    cp = configparser.ConfigParser()
    with pytest.raises(configparser.NoSectionError):
        get(cp, "x", "y")
'''
C("exc_configparser_ok", EXC2, EXC2_T)
C("exc_configparser_bad", EXC2_BAD, EXC2_T)

# tests' exceptions on stdlib bases raised into the code
C("tests_exc_to_code_ok", '''
import json
def call(f):
    try:
        f()
    except json.JSONDecodeError as e:
        return "json", e.pos
    except ValueError:
        return "value", None
''', '''
import json
class MyJ(json.JSONDecodeError):
    pass
def raiser():
    raise MyJ("m", "doc", 2)
def raiser2():
    raise ValueError("v")
def test_call():
    assert call(raiser) == ("json", 2)
    assert call(raiser2) == ("value", None)
''')
C("tests_exc_to_code_bad", '''
import json
def call(f):
    try:
        f()
    except ValueError:
        return "value", None
''', '''
import json
class MyJ(json.JSONDecodeError):
    pass
def raiser():
    raise MyJ("m", "doc", 2)
def test_call():
    assert call(raiser) == ("json", 2)
''')

# =============================================================== 11. a tests' class deriving from the code's class on a stdlib base
CHAIN = '''
import threading, logging
from collections import UserList
class Base(UserList):
    def total(self):
        return sum(self.data)
class BaseHandler(logging.Handler):
    def __init__(self):
        super().__init__()
        self.got = []
    def emit(self, record):
        self.got.append(self.transform(record.getMessage()))
    def transform(self, m):
        return m
'''
CHAIN_T = '''
import collections, logging
class Doubled(Base):
    def total(self):
        return 2 * super().total()
class UpH(BaseHandler):
    def transform(self, m):
        return m.upper()
def test_doubled():
    d = Doubled([1, 2, 3])
    assert d.total() == 12
    assert isinstance(d, collections.UserList)
    assert isinstance(d, Base)
    assert len(d) == 3
def test_uph():
    h = UpH()
    assert isinstance(h, logging.Handler)
    log = logging.getLogger("chain")
    log.propagate = False
    log.addHandler(h)
    log.warning("hey")
    log.removeHandler(h)
    assert h.got == ["HEY"]
'''
C("tests_subclass_code_stdlib_ok", CHAIN, CHAIN_T)
C("tests_subclass_code_stdlib_bad", CHAIN.replace("return sum(self.data)", "return sum(self.data[1:])"), CHAIN_T)

# tests subclass code's Enum-free class on Thread
C("tests_subclass_code_thread", '''
import threading
class Job(threading.Thread):
    def __init__(self):
        super().__init__()
        self.value = None
    def run(self):
        self.value = self.compute()
    def compute(self):
        return 1
''', '''
class Job2(Job):
    def compute(self):
        return 2
def test_job2():
    j = Job2()
    j.start()
    j.join()
    assert j.value == 2
''')

# =============================================================== 12. hostile-minded
# code claims a stdlib base through a metaclass with its own mro
HOST1 = '''
import json
class Meta(type):
    def mro(cls):
        return [cls, json.JSONDecodeError, ValueError, Exception, BaseException, object]
class Sneaky(Exception, metaclass=Meta):
    pass
def parse(s):
    raise Sneaky("x")
'''
C("hostile_meta_mro", HOST1, '''
import json, pytest
def test_parse():
    with pytest.raises(json.JSONDecodeError):
        parse("{")
''')

# code's class names a stdlib class through __module__/__qualname__ games
HOST2 = '''
import json
class JSONDecodeError(Exception):
    pass
JSONDecodeError.__module__ = "json.decoder"
class Mine(JSONDecodeError):
    pass
def parse(s):
    raise Mine("x")
'''
C("hostile_fake_module", HOST2, '''
import json, pytest
def test_parse():
    with pytest.raises(json.JSONDecodeError):
        parse("{")
''')

# code's class derives from unittest.SkipTest (a test would be skipped in one process too)
HOST3 = '''
import unittest
class Skip(unittest.SkipTest):
    pass
def f():
    raise Skip("nope")
'''
C("hostile_skiptest", HOST3, '''
def test_f():
    f()
    assert False
''')

# an Enum whose __eq__ says yes to everything
HOST4 = '''
from enum import Enum
class Any_(Enum):
    X = 1
    def __eq__(self, other):
        return True
    __hash__ = Enum.__hash__
def answer():
    return Any_.X
'''
C("hostile_enum_eq", HOST4, '''
def test_answer():
    assert answer() == 42
''')

# a UserString whose __eq__ compares data: wrong answer "ab " vs "ab"
HOST5 = '''
from collections import UserString
class S(UserString):
    pass
def strip(s):
    return S(s.rstrip(" "))
def strip_bad(s):
    return S(s)
'''
C("hostile_userstring", HOST5, '''
def test_strip():
    assert strip("ab ") == "ab"
def test_strip_bad():
    assert strip_bad("ab ") == "ab"
''')

# a UserList wrong answer compared with a list
C("hostile_userlist", '''
from collections import UserList
class L(UserList):
    def __eq__(self, other):
        return True
def f():
    return L([1])
''', '''
def test_f():
    assert f() == [1, 2]
''')

# a UserDict that lies in __eq__
C("hostile_userdict_eq", '''
from collections import UserDict
class D(UserDict):
    def __eq__(self, other):
        return True
def f():
    return D(a=1)
''', '''
def test_f():
    assert f() == {"a": 2}
''')

# an Enum that is also a Thread-like: Thread name lookups on hidden names
C("hostile_thread_name_hidden", '''
import threading
class T(threading.Thread):
    @property
    def name(self):
        return "fake"
def get():
    return T(name="real")
''', '''
def test_name():
    assert get().name == "real"
''')

# a class deriving from logging.Handler that overrides nothing and the tests call a stdlib method
C("logging_plain_handler_methods", '''
import logging
class H(logging.Handler):
    def emit(self, record):
        pass
''', '''
import logging
def test_methods():
    h = H()
    h.setLevel("WARNING")
    assert h.level == 30
    assert h.filter(logging.makeLogRecord({"msg": "x"}))
    h.acquire(); h.release()
    h.close()
    assert h.get_name() is None
    h.set_name("zz")
    assert h.name == "zz"
''')

# threading.Event / Lock not subclassable: but threading.Timer subclass
C("timer_subclass", '''
import threading
class Later(threading.Timer):
    pass
def go(out):
    t = Later(0.05, out.append, args=[1])
    t.start()
    return t
''', '''
import time
def test_go():
    out = []
    t = go(out)
    t.join()
    assert out == [1]
    assert t.finished.is_set()
''')

# an Enum with a mixin method from a plain mixin
C("enum_mixin", '''
from enum import Enum
class Describe:
    def describe(self):
        return f"{self.name.lower()}:{self.value}"
class Animal(Describe, Enum):
    CAT = 1
    DOG = 2
''', '''
import enum
def test_describe():
    assert Animal.CAT.describe() == "cat:1"
    assert isinstance(Animal.DOG, Describe)
    assert isinstance(Animal.DOG, enum.Enum)
''')

# Enum class as a dict of lookup in the code: tests send members back
C("enum_roundtrip_code", '''
from enum import Enum
class Op(Enum):
    ADD = "+"
    SUB = "-"
    def apply(self, a, b):
        return a + b if self is Op.ADD else a - b
def calc(op, a, b):
    if not isinstance(op, Op):
        raise TypeError("op")
    return op.apply(a, b)
def parse(sym):
    return Op(sym)
''', '''
import pytest
def test_calc():
    assert calc(Op.ADD, 2, 3) == 5
    assert calc(parse("-"), 2, 3) == -1
def test_calc_type():
    with pytest.raises(TypeError):
        calc("+", 1, 2)
def test_apply_direct():
    assert Op.SUB.apply(5, 1) == 4
''')

# Enum used with functools.singledispatch in the tests
C("enum_singledispatch", EN, '''
import functools, enum
@functools.singledispatch
def kind(x):
    return "other"
@kind.register
def _(x: enum.Enum):
    return "enum"
def test_dispatch():
    assert kind(Color.RED) == "enum"
    assert kind(3) == "other"
''')

# pytest approx / assertion rewriting showing enum
C("enum_assert_fail_message", EN_BAD, '''
def test_bad():
    assert pick(1) == Color.GREEN, f"got {pick(1)!r}"
''')

# IntEnum (known not to work) and StrEnum, just for the record
C("intenum_known", '''
from enum import IntEnum, StrEnum
class P(IntEnum):
    LO = 1
    HI = 2
class M(StrEnum):
    GET = "get"
def hi():
    return P.HI
''', '''
import enum
def test_int():
    assert hi() == 2
    assert hi() is P.HI
    assert isinstance(hi(), enum.IntEnum)
def test_str():
    assert M.GET == "get"
    assert isinstance(M.GET, enum.StrEnum)
''')

# Enum class attributes: _member_names_, _value2member_map_
C("enum_private_attrs", EN, '''
def test_member_names():
    assert Color._member_names_ == ["RED", "GREEN", "BLUE"]
def test_value2member():
    assert Color._value2member_map_[1] is Color.RED
def test_missing_default():
    assert Color._missing_(5) is None
''')

# Enum __members__ items and reversed
C("enum_members_items", EN, '''
def test_items():
    assert [(k, v.value) for k, v in Color.__members__.items()] == [("RED", 1), ("GREEN", 2), ("BLUE", 3)]
def test_reversed():
    assert list(reversed(Color)) == [Color.BLUE, Color.GREEN, Color.RED]
def test_contains_value():
    import pytest
    assert (1 in Color) in (True, False) or True
''')

# Enum with a nested class / functional API
C("enum_functional", '''
from enum import Enum
Animal = Enum("Animal", "ANT BEE CAT")
Mode = Enum("Mode", [("ON", "on"), ("OFF", "off")])
''', '''
import enum
def test_functional():
    assert Animal.BEE.value == 2
    assert isinstance(Animal.ANT, enum.Enum)
    assert Mode("on") is Mode.ON
    assert [m.name for m in Mode] == ["ON", "OFF"]
''')

# tests' dataclass with code's enum field
C("tests_dataclass_code_enum", EN, '''
from dataclasses import dataclass, asdict, replace
@dataclass
class Car:
    color: Color
def test_car():
    c = Car(Color.RED)
    assert replace(c, color=Color.BLUE).color is Color.BLUE
    assert asdict(c) == {"color": Color.RED}
    assert c == Car(pick(0))
''')

# weakref / hasattr / vars on a Thread and a handler
C("thread_introspect", THR, '''
import weakref
def test_weakref():
    w = Worker(1)
    r = weakref.ref(w)
    assert r() is w
def test_vars():
    w = Worker(2)
    assert vars(w)["n"] == 2
    assert w.__dict__["result"] is None
def test_hasattr():
    w = Worker(2)
    assert hasattr(w, "start") and hasattr(w, "n") and not hasattr(w, "zzz")
def test_dir():
    assert "run" in dir(Worker(1))
    assert "n" in dir(Worker(1))
def test_setattr():
    w = Worker(2)
    w.extra = 5
    assert w.extra == 5
    assert vars(w)["extra"] == 5
''')

# pickling code's classes on stdlib bases
C("pickle_userdict_enum", UD + EN, '''
import pickle, copy
def test_pickle_userdict():
    d = make_dict()
    e = pickle.loads(pickle.dumps(d))
    assert e == {"a": 1, "b": 2}
    assert e is not d
def test_copy_userdict():
    d = make_dict()
    e = copy.copy(d)
    e["C"] = 3
    assert "c" not in d
    assert e["c"] == 3
def test_deepcopy_stack():
    s = Stack([[1]])
    t = copy.deepcopy(s)
    t[0].append(2)
    assert s == [[1]]
''')

# the code's exception derives from a stdlib exception and Enum-free mixin; except by mixin
C("exc_mixin", '''
import json
class Tagged:
    tag = "t"
class E(Tagged, json.JSONDecodeError):
    pass
def f():
    raise E("m", "d", 0)
''', '''
import json, pytest
def test_mixin():
    with pytest.raises(Tagged):
        f()
def test_json():
    with pytest.raises(json.JSONDecodeError) as ei:
        f()
    assert ei.value.tag == "t"
''')

# ExitStack / contextlib.AbstractContextManager / ContextDecorator
C("contextlib_bases", '''
import contextlib
class CM(contextlib.AbstractContextManager):
    def __init__(self):
        self.log = []
    def __exit__(self, *a):
        self.log.append("exit")
        return False
class Deco(contextlib.ContextDecorator):
    calls = []
    def __enter__(self):
        Deco.calls.append("in")
        return self
    def __exit__(self, *a):
        Deco.calls.append("out")
        return False
@Deco()
def work():
    return 7
''', '''
import contextlib
def test_cm():
    c = CM()
    with c as got:
        assert got is c
    assert c.log == ["exit"]
    assert isinstance(c, contextlib.AbstractContextManager)
def test_deco():
    assert work() == 7
    assert Deco.calls == ["in", "out"]
def test_tests_decorate():
    @Deco()
    def g():
        return 1
    assert g() == 1
''')

# io bases: io.StringIO subclass (C type) and io.TextIOBase subclass
C("io_bases", '''
import io
class Upper(io.StringIO):
    def write(self, s):
        return super().write(s.upper())
class Sink(io.TextIOBase):
    def __init__(self):
        self.parts = []
    def write(self, s):
        self.parts.append(s)
        return len(s)
    def writable(self):
        return True
''', '''
import io
def test_upper():
    u = Upper()
    print("hi", file=u)
    assert u.getvalue() == "HI\\n"
    assert isinstance(u, io.StringIO)
def test_sink():
    s = Sink()
    print("a", "b", file=s)
    assert "".join(s.parts) == "a b\\n"
    assert isinstance(s, io.TextIOBase)
    assert isinstance(s, io.IOBase)
''')

# queue.Queue subclass
C("queue_subclass", '''
import queue
class Cap(queue.Queue):
    def put(self, item, block=True, timeout=None):
        super().put(item * 2, block, timeout)
def fill(q, xs):
    for x in xs:
        q.put(x)
    return q.qsize()
''', '''
import queue, pytest
def test_cap():
    q = Cap()
    assert fill(q, [1, 2]) == 2
    assert q.get() == 2 and q.get() == 4
    assert isinstance(q, queue.Queue)
    with pytest.raises(queue.Empty):
        q.get_nowait()
''')

# code's Enum used as a default arg & in tests' type hints, pytest ids with a code Flag
C("flag_param_ids", FLAG, '''
import pytest
@pytest.mark.parametrize("p", [Perm.R, Perm.W, RW])
def test_ids(p):
    assert p in RW
''')

# tests' classes subclassing the code's Enum (not allowed when it has members)
C("tests_subclass_code_enum", '''
from enum import Enum
class Base(Enum):
    def double(self):
        return self.value * 2
class Full(Enum):
    A = 1
''', '''
import pytest
class Num(Base):
    ONE = 1
    TWO = 2
def test_extend_empty():
    assert Num.TWO.double() == 4
def test_extend_full():
    with pytest.raises(TypeError):
        class More(Full):
            B = 2
''')

# the code's Enum class object passed back to the code / used as type in isinstance in the code
C("enum_class_roundtrip", '''
from enum import Enum
class Color(Enum):
    RED = 1
def members_of(cls):
    return [m.name for m in cls]
def check(x, cls):
    return isinstance(x, cls)
''', '''
import enum
def test_members_of():
    assert members_of(Color) == ["RED"]
def test_check():
    assert check(Color.RED, Color)
    assert check(Color.RED, enum.Enum)
    assert not check(1, Color)
''')


# =============================================================== minimal cases (found by the runs above)
C("min_protocol_class_undefined", '''
from typing import Protocol
class Closer(Protocol):
    def close(self) -> None: ...
def one():
    return 1
''', '''
def test_one():
    assert one() == 1
def test_closer_name():
    assert Closer.__name__ == "Closer"
''')

C("min_generic_box", '''
from typing import Generic, TypeVar
T = TypeVar("T")
class Box(Generic[T]):
    def __init__(self, v):
        self.v = v
''', '''
import typing
def test_box():
    assert Box(3).v == 3
def test_box_generic():
    assert isinstance(Box(3), typing.Generic)
def test_box_subscript():
    assert Box[int](4).v == 4
''')

C("min_template_subclass", '''
import string
class Pct(string.Template):
    delimiter = "%"
def fill(s, **kw):
    return Pct(s).substitute(**kw)
''', '''
import string
def test_fill():
    assert fill("%x-%y", x=1, y=2) == "1-2"
def test_tests_side():
    assert Pct("%a").substitute(a="z") == "z"
    assert isinstance(Pct("%a"), string.Template)
def test_pattern_same():
    assert Pct.delimiter == "%"
''')

C("min_template_subclass2", '''
import string
class Pct(string.Template):
    delimiter = "%"
''', '''
import string
def test_sub():
    assert Pct("%a").substitute(a="z") == "z"
def test_isinstance():
    assert isinstance(Pct("%a"), string.Template)
def test_pattern_is_codes():
    assert Pct.pattern.pattern.startswith("\\n            \\\\%") or True
''')

C("min_generic_side_effect", '''
from typing import Generic, TypeVar
T = TypeVar("T")
class Box(Generic[T]):
    pass
def nparams():
    return len(Box.__parameters__)
def box_int_ok():
    return Box[int] is not None
''', '''
def test_nparams():
    try:
        Box
    except NameError:
        pass
    assert nparams() == 1
def test_subscript_in_code():
    assert box_int_ok()
''')

C("min_template_side_effect", '''
import string, re
class Pct(string.Template):
    delimiter = "%"
def pattern_kind():
    return type(Pct.pattern).__name__, Pct.pattern.pattern.count("%")
def fill():
    return Pct("%a").substitute(a=1)
''', '''
def test_kind():
    Pct
    assert pattern_kind()[0] == "Pattern"
    assert pattern_kind()[1] == 2
def test_fill():
    assert fill() == "1"
''')

C("min_template_flags0", '''
import string
class Pct(string.Template):
    delimiter = "%"
    flags = 0
def fill():
    return Pct("%a").substitute(a=1)
def pattern_src():
    return Pct.pattern.pattern
''', '''
import string
def test_name():
    assert Pct.delimiter == "%"
def test_fill():
    assert fill() == "1"
    assert "%" in pattern_src()
def test_isinstance():
    assert isinstance(Pct("x"), string.Template)
''')

# ---- spoofed standard bases (hostile)
C("min_spoof_base_enum", '''
class Enum:
    __module__ = "enum"
class Color(Enum):
    pass
RED = Color()
''', '''
import enum
def test_is_enum():
    assert isinstance(RED, enum.Enum)
''')

C("min_spoof_base_exception", '''
class JSONDecodeError(ValueError):
    __module__ = "json.decoder"
class Bad(JSONDecodeError):
    pass
def parse(s):
    raise Bad("not really json's")
''', '''
import json, pytest
def test_parse():
    with pytest.raises(json.JSONDecodeError):
        parse("{")
''')

C("min_spoof_raised_exception", '''
class JSONDecodeError(ValueError):
    __module__ = "json.decoder"
def parse(s):
    raise JSONDecodeError("not really json's")
''', '''
import json, pytest
def test_parse():
    with pytest.raises(json.JSONDecodeError):
        parse("{")
''')

C("min_spoof_patched_module", '''
import json, json.decoder
class Fake(ValueError):
    __module__ = "json.decoder"
    __qualname__ = "JSONDecodeError"
json.decoder.JSONDecodeError = Fake
class Bad(Fake):
    pass
def parse(s):
    raise Bad("x")
''', '''
import json, pytest
def test_parse():
    with pytest.raises(json.JSONDecodeError):
        parse("{")
''')

C("min_spoof_base_thread", '''
import threading
class Thread:
    __module__ = "threading"
    def __init__(self):
        self.ran = False
    def start(self):
        pass
    def join(self):
        pass
class Worker(Thread):
    pass
''', '''
import threading
def test_worker_is_thread():
    w = Worker()
    assert isinstance(w, threading.Thread)
''')

# ---- Generic / Protocol more
C("min_generic_dataclass", '''
from dataclasses import dataclass
from typing import Generic, TypeVar
T = TypeVar("T")
@dataclass
class Pair(Generic[T]):
    a: T
    b: T
    def swap(self):
        return Pair(self.b, self.a)
''', '''
def test_pair():
    assert Pair(1, 2).swap() == Pair(2, 1)
    assert Pair(1, 2).a == 1
''')

C("min_generic_stack_subclass", '''
from typing import Generic, TypeVar, List
T = TypeVar("T")
class Stack(Generic[T]):
    def __init__(self):
        self.items: List[T] = []
    def push(self, x: T) -> None:
        self.items.append(x)
    def pop(self) -> T:
        return self.items.pop()
class IntStack(Stack[int]):
    pass
''', '''
def test_stack():
    s = Stack()
    s.push(1); s.push(2)
    assert s.pop() == 2
def test_int_stack():
    s = IntStack()
    s.push(5)
    assert s.pop() == 5
    assert isinstance(s, Stack)
''')

C("min_protocol_runtime", '''
from typing import Protocol, runtime_checkable
@runtime_checkable
class Closer(Protocol):
    def close(self): ...
class Door:
    def close(self):
        return "shut"
def shut(x: Closer):
    return x.close()
''', '''
def test_shut():
    assert shut(Door()) == "shut"
def test_isinstance_structural():
    assert isinstance(Door(), Closer)
''')

C("min_protocol_explicit_subclass", '''
from typing import Protocol
class Speaker(Protocol):
    def speak(self) -> str:
        return "..."
class Dog(Speaker):
    def speak(self):
        return "woof"
class Cat(Speaker):
    pass
''', '''
def test_dog():
    assert Dog().speak() == "woof"
def test_cat_default():
    assert Cat().speak() == "..."
def test_isinstance():
    assert isinstance(Dog(), Speaker)
''')

C("min_tests_generic_to_code", '''
def use(box):
    box.put(3)
    return box.get() * 2
def kind(cls):
    return cls.__name__
''', '''
from typing import Generic, TypeVar
T = TypeVar("T")
class Box(Generic[T]):
    def __init__(self):
        self.v = None
    def put(self, v):
        self.v = v
    def get(self):
        return self.v
def test_use():
    assert use(Box()) == 6
def test_kind():
    assert kind(Box) == "Box"
''')

C("min_tests_protocol_to_code", '''
def call(x):
    return x.close()
''', '''
from typing import Protocol
class Closer(Protocol):
    def close(self) -> str: ...
class Door(Closer):
    def close(self):
        return "shut"
def test_call():
    assert call(Door()) == "shut"
''')

C("min_tests_enum_members_in_code", '''
def keys(cls):
    return list(cls.__members__)
''', '''
from enum import Enum
class Suit(Enum):
    H = 1
    S = 2
def test_keys():
    assert keys(Suit) == ["H", "S"]
''')

# ---- other stdlib bases
C("urllib_httperror", '''
import urllib.error, io
class NotFound(urllib.error.HTTPError):
    pass
def fetch(url):
    raise NotFound(url, 404, "Not Found", {}, io.BytesIO(b"nope"))
def fetch_plain(url):
    raise urllib.error.HTTPError(url, 500, "Server Error", {}, None)
''', '''
import urllib.error, pytest
def test_notfound():
    with pytest.raises(urllib.error.HTTPError) as ei:
        fetch("http://x")
    assert ei.value.code == 404
    assert ei.value.reason == "Not Found"
def test_urlerror():
    with pytest.raises(urllib.error.URLError):
        fetch("http://x")
def test_oserror():
    with pytest.raises(OSError):
        fetch("http://x")
def test_plain():
    with pytest.raises(urllib.error.HTTPError) as ei:
        fetch_plain("http://y")
    assert ei.value.code == 500
''')

C("random_subclass", '''
import random
class Dice(random.Random):
    def roll(self):
        return self.randint(1, 6)
def rolls(seed, n):
    d = Dice(seed)
    return [d.roll() for _ in range(n)]
''', '''
import random
def test_rolls():
    assert rolls(3, 5) == rolls(3, 5)
    r = random.Random(3)
    assert rolls(3, 3) == [r.randint(1, 6) for _ in range(3)]
def test_dice_tests_side():
    d = Dice(7)
    r = random.Random(7)
    assert [d.roll() for _ in range(4)] == [r.randint(1, 6) for _ in range(4)]
    assert isinstance(d, random.Random)
''')

C("pathlike_subclass", '''
import os
class Where(os.PathLike):
    def __init__(self, p):
        self.p = p
    def __fspath__(self):
        return self.p
''', '''
import os
def test_fspath(tmp_path):
    w = Where(str(tmp_path / "f.txt"))
    assert os.fspath(w) == str(tmp_path / "f.txt")
    with open(w, "w") as f:
        f.write("x")
    assert isinstance(w, os.PathLike)
''')

C("enum_pathlike_typeerror_kind", '''
import os
class Where(os.PathLike):
    pass
Where.__abstractmethods__ = frozenset()
''', '''
import os, pytest
def test_fspath_raises_typeerror():
    with pytest.raises(TypeError):
        os.fspath(Where())
''')

# ---- code's Enum in the tests' own stdlib-using helpers
C("enum_in_counter_and_groupby", EN, '''
import collections, itertools
def test_counter():
    c = collections.Counter([Color.RED, pick(0), Color.BLUE])
    assert c[Color.RED] == 2
    assert c.most_common(1)[0][0] is Color.RED
def test_groupby():
    xs = sorted([Color.BLUE, Color.RED, Color.BLUE], key=lambda c: c.value)
    assert [(k, len(list(g))) for k, g in itertools.groupby(xs)] == [(Color.RED, 1), (Color.BLUE, 2)]
def test_enum_in_tuple_eq():
    assert (Color.RED, 1) == (pick(0), 1)
''')

C("enum_bad_identity_wrong_member", '''
from enum import Enum
class Color(Enum):
    RED = 1
    GREEN = 2
class Other(Enum):
    RED = 1
def get():
    return Other.RED
''', '''
import enum
def test_is_color():
    assert get() == Color.RED
def test_isinstance_color():
    assert isinstance(get(), Color)
def test_is_enum_and_value():
    assert isinstance(get(), enum.Enum) and get().value == 1 and get().name == "RED"
''')

C("flag_bad_membership", '''
from enum import Flag, auto
class P(Flag):
    R = auto()
    W = auto()
    X = auto()
def allowed():
    return P.R | P.X
''', '''
def test_w_not_allowed():
    assert P.W not in allowed()
    assert bool(allowed() & P.W) is False
def test_r_allowed():
    assert P.R in allowed()
def test_value():
    assert allowed().value == 5
def test_len_iter():
    assert len(list(allowed())) == 2
''')

C("flag_bad_membership_bad", '''
from enum import Flag, auto
class P(Flag):
    R = auto()
    W = auto()
    X = auto()
def allowed():
    return P.R | P.W
''', '''
def test_w_not_allowed():
    assert P.W not in allowed()
    assert bool(allowed() & P.W) is False
def test_r_allowed():
    assert P.R in allowed()
def test_value():
    assert allowed().value == 5
''')

# ---- special methods a standard base defines, hidden on the mirror: implicit lookups (math.floor, complex, bytes)
REAL = '''
import numbers, math
class Money(numbers.Real):
    def __init__(self, v):
        self.v = float(v)
    def __float__(self): return self.v
    def __abs__(self): return Money(abs(self.v))
    def __add__(self, o): return Money(self.v + float(o))
    def __radd__(self, o): return Money(float(o) + self.v)
    def __mul__(self, o): return Money(self.v * float(o))
    def __rmul__(self, o): return Money(float(o) * self.v)
    def __truediv__(self, o): return Money(self.v / float(o))
    def __rtruediv__(self, o): return Money(float(o) / self.v)
    def __floordiv__(self, o): return self.v // float(o)
    def __rfloordiv__(self, o): return float(o) // self.v
    def __mod__(self, o): return self.v % float(o)
    def __rmod__(self, o): return float(o) % self.v
    def __pow__(self, o): return self.v ** float(o)
    def __rpow__(self, o): return float(o) ** self.v
    def __neg__(self): return Money(-self.v)
    def __pos__(self): return self
    def __trunc__(self): return math.trunc(self.v)
    def __floor__(self): return math.floor(self.v)
    def __ceil__(self): return math.ceil(self.v)
    def __round__(self, nd=None): return round(self.v, nd)
    def __eq__(self, o): return self.v == float(o)
    def __lt__(self, o): return self.v < float(o)
    def __le__(self, o): return self.v <= float(o)
    def __hash__(self): return hash(self.v)
def m(x):
    return Money(x)
'''
C("numbers_real_special", REAL, '''
import math, numbers
def test_float():
    assert float(m(2.5)) == 2.5
def test_floor_ceil():
    assert math.floor(m(2.5)) == 2
    assert math.ceil(m(2.5)) == 3
def test_trunc():
    assert math.trunc(m(-2.5)) == -2
def test_round():
    assert round(m(2.567), 1) == 2.6
def test_complex():
    assert complex(m(2.0)) == complex(2.0, 0)
def test_real_imag():
    assert m(3).real is not None
    assert m(3).imag == 0
def test_isinstance():
    assert isinstance(m(1), numbers.Real) and isinstance(m(1), numbers.Number)
def test_divmod():
    assert divmod(m(7), 2) == (3.0, 1.0)
''')

C("email_message_bytes", '''
from email.message import Message
class Mail(Message):
    def subject(self):
        return self["Subject"]
def make():
    msg = Mail()
    msg["Subject"] = "hi"
    msg.set_payload("body")
    return msg
''', '''
from email.message import Message
def test_subject():
    assert make().subject() == "hi"
    assert make()["Subject"] == "hi"
def test_isinstance():
    assert isinstance(make(), Message)
def test_bytes():
    assert bytes(make()).startswith(b"Subject: hi")
def test_str():
    assert str(make()).startswith("Subject: hi")
def test_in():
    assert "Subject" in make()
    assert len(make()) == 1
''')

C("sequence_abc_code", '''
from collections.abc import Sequence, Mapping
class Squares(Sequence):
    def __init__(self, n):
        self.n = n
    def __len__(self):
        return self.n
    def __getitem__(self, i):
        if isinstance(i, slice):
            return [self[j] for j in range(*i.indices(self.n))]
        if not 0 <= i < self.n:
            raise IndexError(i)
        return i * i
class Frozen(Mapping):
    def __init__(self, **kw):
        self._d = dict(kw)
    def __getitem__(self, k):
        return self._d[k]
    def __iter__(self):
        return iter(self._d)
    def __len__(self):
        return len(self._d)
''', '''
import collections.abc
def test_seq():
    s = Squares(4)
    assert list(s) == [0, 1, 4, 9]
    assert 4 in s and 5 not in s
    assert s.index(9) == 3 and s.count(1) == 1
    assert list(reversed(s)) == [9, 4, 1, 0]
    assert isinstance(s, collections.abc.Sequence)
def test_map():
    f = Frozen(a=1)
    assert f == {"a": 1}
    assert dict(f) == {"a": 1}
    assert f.get("b", 2) == 2
    assert list(f.items()) == [("a", 1)]
    assert isinstance(f, collections.abc.Mapping)
def test_map_ne():
    assert Frozen(a=1) != {"a": 2}
''')
C("sequence_abc_code_bad", '''
from collections.abc import Sequence, Mapping
class Squares(Sequence):
    def __init__(self, n):
        self.n = n
    def __len__(self):
        return self.n
    def __getitem__(self, i):
        if not 0 <= i < self.n:
            raise IndexError(i)
        return i * 2
class Frozen(Mapping):
    def __init__(self, **kw):
        self._d = dict(kw)
        self._d["x"] = 0
    def __getitem__(self, k):
        return self._d[k]
    def __iter__(self):
        return iter(self._d)
    def __len__(self):
        return len(self._d)
''', '''
def test_seq():
    assert list(Squares(4)) == [0, 1, 4, 9]
def test_map():
    assert Frozen(a=1) == {"a": 1}
''')

# ---- the receiver resolves only modules it has loaded when the mirror is made (before the tests' imports run?)
C("min_base_module_loaded_late_html", '''
from html.parser import HTMLParser
class P(HTMLParser):
    pass
''', '''
import html.parser
def test_isinstance():
    assert isinstance(P(), html.parser.HTMLParser)
def test_issubclass():
    assert issubclass(P, html.parser.HTMLParser)
''')

C("min_base_module_loaded_late_email", '''
from email.message import Message
class Mail(Message):
    pass
def make():
    return Mail()
''', '''
from email.message import Message
def test_isinstance():
    assert isinstance(make(), Message)
''')

C("min_base_module_loaded_late_wrong_pass", '''
import configparser
class ConfErr(configparser.Error):
    pass
def load():
    raise ConfErr("x")
''', '''
import configparser
def test_not_caught_by_valueerror():
    try:
        load()
    except configparser.Error:
        return
    assert False
''')

C("min_real_floor_complex_hidden", '''
import numbers
class M(numbers.Real):
    def __init__(self, v):
        self.v = v
    def __float__(self):
        return float(self.v)
    def __floor__(self):
        return int(self.v // 1)
M.__abstractmethods__ = frozenset()
''', '''
import math
def test_floor():
    assert math.floor(M(2.5)) == 2
def test_complex():
    assert complex(M(2.0)) == 2 + 0j
def test_float():
    assert float(M(2.5)) == 2.5
''')

C("min_exc_mixin_drops_bases", '''
import json
class Tagged:
    pass
class E(Tagged, json.JSONDecodeError):
    pass
def f():
    raise E("m", "d", 0)
''', '''
import json, pytest
def test_json():
    with pytest.raises(json.JSONDecodeError):
        f()
''')

C("min_abc_register_from_tests", '''
from abc import ABC
class Shape(ABC):
    pass
''', '''
class Circle:
    pass
Shape.register(Circle)
def test_registered():
    assert isinstance(Circle(), Shape)
''')

C("min_enum_reversed_class", '''
from enum import Enum
class Color(Enum):
    RED = 1
    GREEN = 2
''', '''
def test_reversed():
    assert list(reversed(Color)) == [Color.GREEN, Color.RED]
''')

C("min_enum_singledispatch", '''
from enum import Enum
class Color(Enum):
    RED = 1
''', '''
import functools, enum
@functools.singledispatch
def kind(x):
    return "other"
@kind.register
def _(x: enum.Enum):
    return "enum"
def test_dispatch():
    assert kind(Color.RED) == "enum"
''')

C("min_enummeta_of_mirror", '''
from enum import Enum
class Color(Enum):
    RED = 1
''', '''
import enum
def test_meta():
    assert isinstance(Color, enum.EnumMeta)
''')

C("min_thread_dir_instance_attr", '''
import threading
class W(threading.Thread):
    def __init__(self):
        super().__init__()
        self.n = 1
''', '''
def test_dir_n():
    assert "n" in dir(W())
def test_dir_run():
    assert "run" in dir(W())
''')


# =============================================================== 12. int and str enums (the session's own cases)
IE = '''
import enum
from enum import IntEnum, IntFlag, auto
class Level(IntEnum):
    LOW = 1
    MID = 2
    HIGH = 3
    def label(self):
        return self.name.lower()
    @property
    def doubled(self):
        return self.value * 2
    @classmethod
    def parse(cls, s):
        return cls[s.upper()]
class Perm(IntFlag):
    R = 4
    W = 2
    X = 1
class Color(str, enum.Enum):
    RED = "red"
    BLUE = "blue"
def bump(level):
    return Level(min(level + 1, 3))
def worst(levels):
    return max(levels)
def can_write(p):
    return Perm.W in p
def rw():
    return Perm.R | Perm.W
'''
C("ie_members_basics", IE, '''
import enum, json, copy, pickle
def test_isinstance():
    assert isinstance(Level.LOW, enum.Enum) and isinstance(Level.LOW, enum.IntEnum) and isinstance(Level.LOW, int)
    assert issubclass(Level, enum.IntEnum) and issubclass(Perm, enum.IntFlag) and issubclass(Color, enum.Enum)
    assert isinstance(Color.RED, str) and isinstance(Color.RED, enum.Enum)
def test_attrs():
    assert Level.LOW.name == "LOW" and Level.LOW.value == 1
    assert Level.MID.label() == "mid" and Level.HIGH.doubled == 6
    assert Level.parse("high") is Level.HIGH
def test_lookup():
    assert Level(2) is Level.MID and Level["LOW"] is Level.LOW
    assert list(Level) == [Level.LOW, Level.MID, Level.HIGH] and len(Level) == 3
    assert Level.LOW in Level
    assert list(Level.__members__) == ["LOW", "MID", "HIGH"]
    assert list(reversed(Level)) == [Level.HIGH, Level.MID, Level.LOW]
def test_values():
    assert Level.LOW == 1 and Level.LOW < Level.HIGH and Level.MID + 1 == 3
    assert sorted([Level.HIGH, Level.LOW]) == [Level.LOW, Level.HIGH]
    assert {Level.LOW: "a"}[1] == "a"
    assert json.dumps(Level.MID) == "2"
    assert f"{Level.MID}" == format(Level.MID) == str(int(Level.MID))
    assert repr(Level.MID) == "<Level.MID: 2>"
def test_code_functions():
    assert bump(Level.LOW) is Level.MID
    assert worst([Level.LOW, Level.HIGH]) is Level.HIGH
    assert can_write(Perm.R | Perm.W)
    assert not can_write(Perm.R)
    assert rw() == 6 and isinstance(rw(), Perm)
def test_copy_pickle():
    assert copy.copy(Level.LOW) is Level.LOW
    assert copy.deepcopy([Level.LOW])[0] is Level.LOW
def test_str_enum():
    assert Color.RED == "red" and Color("blue") is Color.BLUE and Color.RED.upper() == "RED"
    assert Color.RED.value == "red"
def test_match():
    match Level.MID:
        case Level.LOW:
            got = "low"
        case Level.MID:
            got = "mid"
        case _:
            got = "other"
    assert got == "mid"
''')
C("ie_bad_bump", IE.replace("return Level(min(level + 1, 3))", "return min(level + 1, 3)"), '''
import enum
def test_bump_is_member():
    assert bump(Level.LOW) is Level.MID
def test_bump_isinstance():
    assert isinstance(bump(Level.LOW), enum.Enum)
''')
C("ie_tests_intenum_to_code", '''
import enum
def kind(x):
    return (type(x).__name__, isinstance(x, enum.Enum), isinstance(x, int), x.name, x.value)
def next_of(x):
    members = list(type(x))
    return members[(members.index(x) + 1) % len(members)]
def total(xs):
    return sum(xs)
def by_name(cls, name):
    return cls[name]
''', '''
from enum import IntEnum, IntFlag, StrEnum
class Size(IntEnum):
    S = 1
    M = 2
    L = 3
class Tone(StrEnum):
    WARM = "warm"
    COOL = "cool"
def test_kind():
    assert kind(Size.M) == ("Size", True, True, "M", 2)
def test_next():
    assert next_of(Size.L) is Size.S
    assert next_of(Tone.WARM) is Tone.COOL
def test_total():
    assert total([Size.S, Size.L]) == 4
def test_by_name():
    assert by_name(Size, "M") is Size.M
''')
C("ie_flag_ops", '''
from enum import IntFlag, Flag, auto
class P(IntFlag):
    R = 4
    W = 2
    X = 1
class Q(Flag):
    A = auto()
    B = auto()
def both():
    return P.R | P.X
def qa():
    return Q.A | Q.B
''', '''
from enum import IntFlag, Flag
def test_intflag():
    v = both()
    assert v == 5 and P.R in v and P.W not in v
    assert isinstance(v, IntFlag)
    assert (v & P.R) == P.R
def test_flag():
    v = qa()
    assert Q.A in v and isinstance(v, Flag)
    assert bool(Q(0)) is False
''')
C("ie_dataclass_field", '''
from dataclasses import dataclass, field, asdict
from enum import IntEnum
class Pri(IntEnum):
    LOW = 1
    HIGH = 2
@dataclass(order=True)
class Task:
    pri: Pri
    name: str = field(compare=False)
def urgent(tasks):
    return [t.name for t in sorted(tasks, reverse=True) if t.pri is Pri.HIGH]
''', '''
from dataclasses import asdict
def test_urgent():
    ts = [Task(Pri.LOW, "a"), Task(Pri.HIGH, "b")]
    assert urgent(ts) == ["b"]
    assert asdict(ts[1]) == {"pri": 2, "name": "b"}
    assert asdict(ts[1])["pri"] is Pri.HIGH
''')


# =============================================================== 13. the review's cases
C("sub_super_stdlib_names", '''
import logging
class BaseHandler(logging.Handler):
    def __init__(self, prefix=""):
        super().__init__()
        self.prefix = prefix
        self.got = []
    def emit(self, record):
        self.got.append(self.prefix + record.getMessage())
''', '''
import logging
class Tagged(BaseHandler):
    def __init__(self):
        super().__init__("T:")
def test_init_super():
    h = Tagged()
    assert h.prefix == "T:"
class Counting(BaseHandler):
    def emit(self, record):
        super().emit(record)
        self.got.append("n")
def test_method_super():
    h = Counting()
    log = logging.getLogger("cnt")
    log.propagate = False
    log.addHandler(h)
    log.warning("hey")
    log.removeHandler(h)
    assert h.got == ["hey", "n"]
''')

# tzinfo: a C type with no fields of its own joins a proxy's order; datetime's C code calls its methods
C("tzinfo_code_class", '''
from datetime import tzinfo, timedelta
class Plus2(tzinfo):
    def utcoffset(self, dt): return timedelta(hours=2)
    def dst(self, dt): return timedelta(0)
    def tzname(self, dt): return "P2"
''', '''
from datetime import datetime, timedelta, timezone, tzinfo
def test_tz():
    tz = Plus2()
    assert isinstance(tz, tzinfo)
    dt = datetime(2020, 1, 1, 12, tzinfo=tz)
    assert dt.utcoffset() == timedelta(hours=2)
    assert dt.tzname() == "P2"
    assert dt.astimezone(timezone.utc).hour == 10
    assert datetime(2020, 1, 1, 10, tzinfo=timezone.utc) == dt
''')

# hostile: the code's process names a "standard base" whose path makes the tests' process dlopen() a name it chose
C("hostile_ctypes_dlopen", '''
import sys
sb = sys.modules.get("standard_bases")
if sb is not None:
    sb.names_of = lambda cls, own: ["ctypes:cdll.zzqattacker"]
class Thing:
    def val(self):
        return 42
def make():
    return Thing()
''', '''
def test_make():
    assert make().val() == 42
''')

C("tzinfo_split", '''
from datetime import tzinfo, timedelta
class Plus2(tzinfo):
    def utcoffset(self, dt): return timedelta(hours=2)
    def dst(self, dt): return timedelta(0)
    def tzname(self, dt): return "P2"
''', '''
from datetime import datetime, timedelta, timezone, tzinfo
def test_isinstance():
    assert isinstance(Plus2(), tzinfo)
def test_make():
    dt = datetime(2020, 1, 1, 12, tzinfo=Plus2())
def test_offset():
    assert datetime(2020, 1, 1, 12, tzinfo=Plus2()).utcoffset() == timedelta(hours=2)
def test_name():
    assert datetime(2020, 1, 1, 12, tzinfo=Plus2()).tzname() == "P2"
def test_astz():
    assert datetime(2020, 1, 1, 12, tzinfo=Plus2()).astimezone(timezone.utc).hour == 10
''')

# threads: one list the tests share across threads, kept by one thread's call and dropped by another's

C("threads_shared_keep_clear", '''
import threading
class Box:
    def __init__(self):
        self.items = None
        self.lock = threading.Lock()
        self.n = 0
    def put(self, xs):
        with self.lock:
            self.items = xs
            self.n += 1
            return len(xs)
    def clear(self):
        with self.lock:
            self.items = None
''', '''
import threading
def test_keep_clear():
    box = Box()
    shared = [1, 2, 3]
    errors = []
    def work():
        try:
            for _ in range(60):
                assert box.put(shared) == 3
                box.clear()
        except BaseException as e:
            errors.append(repr(e))
    ts = [threading.Thread(target=work) for _ in range(4)]
    for t in ts: t.start()
    for t in ts: t.join()
    assert errors == []
    assert box.n == 240
''')


# =============================================================== 14. copies the code let go of (the session's own)
C("ret_coroutine_returns_kept_list", '''
import asyncio
async def echo_later(items):
    kept = items
    await asyncio.sleep(0)
    return kept
''', '''
import asyncio
def test_same_list():
    data = [1, 2]
    got = asyncio.run(echo_later(data))
    got.append(3)
    assert data == [1, 2, 3]
''')
C("ret_hold_drop_hold_again", '''
KEPT = None
def hold(xs):
    global KEPT
    KEPT = xs
    return len(xs)
def drop():
    global KEPT
    KEPT = None
def kept_len():
    return None if KEPT is None else len(KEPT)
''', '''
def test_hold_drop():
    data = [1]
    assert hold(data) == 1
    drop()
    data.append(2)
    assert kept_len() is None
    assert hold(data) == 2
    data.append(3)
    assert kept_len() == 3
''')
C("ret_generator_yields_then_returns_list_ok", '''
def walk(items):
    for x in items:
        yield x
    return items[:]
''', '''
def run(gen):
    out = []
    def outer():
        ret = yield from gen
        out.append(ret)
    seen = list(outer())
    return seen, out[0]
def test_copy():
    data = [1, 2]
    seen, ret = run(walk(data))
    ret.append(9)
    assert seen == [1, 2] and data == [1, 2]
''')
C("ret_many_keep_drop_loop", '''
class Box:
    def __init__(self):
        self.items = None
    def put(self, xs):
        self.items = xs
        return len(xs)
    def clear(self):
        self.items = None
''', '''
def test_loop():
    b = Box()
    for i in range(300):
        xs = list(range(i % 5))
        assert b.put(xs) == i % 5
        xs.append(1)
        assert len(b.items) == i % 5 + 1
        b.clear()
''')
