"""The fifth differential run (session 24): ordinary playground tests that share state or objects with the code, C(name,
code, tests), on themes the earlier runs touched little: dataclasses, enums, generators and iterators, exceptions
(chains, notes, groups), tests' classes built on the code's, module state and caches, sorting and heaps, numbers and
value subclasses, datetime, files and descriptors, unittest.mock (decorators, patched streams), logging and warnings,
sqlite3, protocols and introspection, pytest's xunit hooks, marks and ids; then the round's own cases of how long a
test's object handed to the code lives, and of the code writing to a test's buffer; then the cases of the two reviews
of the round (v24_*: lifetimes; se_, v_, out_, xu_, pid_, ...: the fifth run's mends). Wrong code (name ending _bad)
beside right; _min_ cases are minimised differences."""
from textwrap import dedent as d

CASES = []
def C(name, code, tests):
    CASES.append((name, d(code).strip() + "\n", d(tests).strip() + "\n"))

# ============================================================ batch 1: dataclasses
DC_FROZEN = '''
from dataclasses import dataclass
@dataclass(frozen=True)
class Point:
    x: int
    y: int
    def moved(self, dx, dy):
        return Point(self.x + dx, self.y + dy)
'''
DC_FROZEN_BAD = '''
from dataclasses import dataclass
@dataclass
class Point:
    x: int
    y: int
    def moved(self, dx, dy):
        self.x += dx; self.y += dy
        return self
'''
DC_FROZEN_T = '''
import dataclasses, pytest
def test_frozen():
    p = Point(1, 2)
    with pytest.raises(dataclasses.FrozenInstanceError):
        p.x = 5
    assert p.x == 1
def test_frozen_attribute_error():
    p = Point(1, 2)
    with pytest.raises(AttributeError):
        del p.y
def test_moved_new():
    p = Point(1, 2)
    q = p.moved(1, 1)
    assert q is not p and p == Point(1, 2) and q == Point(2, 3)
def test_hashable_in_set():
    assert len({Point(1, 2), Point(1, 2), Point(2, 1)}) == 2
'''
C("q5_dc_frozen_ok", DC_FROZEN, DC_FROZEN_T)
C("q5_dc_frozen_bad_mutable", DC_FROZEN_BAD, DC_FROZEN_T)

DC_FACT = '''
from dataclasses import dataclass, field
@dataclass
class Cart:
    owner: str
    items: list = field(default_factory=list)
    meta: dict = field(default_factory=dict)
    def add(self, item, qty=1):
        self.items.append((item, qty))
        self.meta[item] = self.meta.get(item, 0) + qty
'''
DC_FACT_BAD = '''
from dataclasses import dataclass, field
_shared = []
@dataclass
class Cart:
    owner: str
    items: list = field(default_factory=lambda: _shared)
    meta: dict = field(default_factory=dict)
    def add(self, item, qty=1):
        self.items.append((item, qty))
        self.meta[item] = self.meta.get(item, 0) + qty
'''
DC_FACT_T = '''
def test_separate_lists():
    a = Cart("a"); b = Cart("b")
    a.add("x")
    assert b.items == []
    assert a.items == [("x", 1)]
def test_items_list_identity_kept():
    a = Cart("a")
    items = a.items
    a.add("y", 2)
    assert items == [("y", 2)]
    assert a.meta == {"y": 2}
def test_test_mutates_items():
    a = Cart("a")
    a.items.append(("z", 3))
    assert len(a.items) == 1
    assert Cart("c").items == []
'''
C("q5_dc_default_factory_ok", DC_FACT, DC_FACT_T)
C("q5_dc_default_factory_bad_shared", DC_FACT_BAD, DC_FACT_T)

DC_POST = '''
from dataclasses import dataclass, field
@dataclass
class Rect:
    w: float
    h: float
    area: float = field(init=False)
    def __post_init__(self):
        if self.w < 0 or self.h < 0:
            raise ValueError("negative size")
        self.area = self.w * self.h
'''
DC_POST_BAD = '''
from dataclasses import dataclass, field
@dataclass
class Rect:
    w: float
    h: float
    area: float = field(init=False, default=0)
'''
DC_POST_T = '''
import pytest
from dataclasses import fields, asdict
def test_area():
    assert Rect(2, 3).area == 6
def test_negative():
    with pytest.raises(ValueError, match="negative"):
        Rect(-1, 2)
def test_fields_names():
    assert [f.name for f in fields(Rect)] == ["w", "h", "area"]
    assert [f.init for f in fields(Rect(1, 1))] == [True, True, False]
def test_asdict():
    assert asdict(Rect(2, 5)) == {"w": 2, "h": 5, "area": 10}
'''
C("q5_dc_post_init_ok", DC_POST, DC_POST_T)
C("q5_dc_post_init_bad_missing", DC_POST_BAD, DC_POST_T)

DC_ORDER = '''
from dataclasses import dataclass
@dataclass(order=True, frozen=True)
class Version:
    major: int
    minor: int = 0
    patch: int = 0
    @classmethod
    def parse(cls, s):
        return cls(*map(int, s.split(".")))
def newest(vs):
    return max(vs)
'''
DC_ORDER_BAD = '''
from dataclasses import dataclass
@dataclass(order=True, frozen=True)
class Version:
    major: int
    minor: int = 0
    patch: int = 0
    @classmethod
    def parse(cls, s):
        return cls(*s.split("."))
def newest(vs):
    return max(vs)
'''
DC_ORDER_T = '''
def test_sort_parsed():
    vs = [Version.parse(s) for s in ["1.10.0", "1.2.0", "1.9.3"]]
    assert sorted(vs) == [Version(1, 2), Version(1, 9, 3), Version(1, 10)]
def test_compare_with_test_made():
    assert Version.parse("2.0.1") > Version(2)
    assert Version(1, 2) <= Version.parse("1.2.0")
def test_newest_of_tests_list():
    assert newest([Version(1), Version(3, 1), Version(3)]) == Version(3, 1)
def test_compare_other_type_raises():
    import pytest
    with pytest.raises(TypeError):
        Version(1) < (1, 0, 0)
'''
C("q5_dc_order_ok", DC_ORDER, DC_ORDER_T)
C("q5_dc_order_bad_str_parse", DC_ORDER_BAD, DC_ORDER_T)

DC_REPLACE = '''
from dataclasses import dataclass, replace, asdict, astuple
@dataclass(frozen=True)
class User:
    name: str
    age: int
    tags: tuple = ()
def birthday(u):
    return replace(u, age=u.age + 1)
def to_row(obj):
    return astuple(obj)
def to_dict(obj):
    return asdict(obj)
'''
DC_REPLACE_BAD = '''
from dataclasses import dataclass, replace, asdict, astuple
@dataclass(frozen=True)
class User:
    name: str
    age: int
    tags: tuple = ()
def birthday(u):
    object.__setattr__(u, "age", u.age + 1)
    return u
def to_row(obj):
    return tuple(vars(obj).values())
def to_dict(obj):
    return dict(vars(obj))
'''
DC_REPLACE_T = '''
import dataclasses
from dataclasses import dataclass
@dataclass
class Item:
    sku: str
    price: float
    extra: list = dataclasses.field(default_factory=list)
def test_birthday_new_object():
    u = User("ann", 30)
    v = birthday(u)
    assert u.age == 30 and v.age == 31 and v.name == "ann"
def test_replace_in_tests():
    u = User("bo", 5)
    w = dataclasses.replace(u, name="B")
    assert w == User("B", 5) and u.name == "bo"
def test_code_astuple_tests_dc():
    assert to_row(Item("a", 1.5, [1])) == ("a", 1.5, [1])
def test_code_asdict_nested():
    assert to_dict(Item("a", 2.0, [User("x", 1)])) == {"sku": "a", "price": 2.0, "extra": [{"name": "x", "age": 1, "tags": ()}]}
def test_tests_astuple_code_dc():
    assert dataclasses.astuple(User("z", 9, ("t",))) == ("z", 9, ("t",))
    assert dataclasses.is_dataclass(User("z", 9))
'''
C("q5_dc_replace_asdict_ok", DC_REPLACE, DC_REPLACE_T)
C("q5_dc_replace_asdict_bad", DC_REPLACE_BAD, DC_REPLACE_T)

DC_EQ = '''
from dataclasses import dataclass
@dataclass
class Money:
    amount: int
    currency: str = "EUR"
def same(a, b):
    return a == b
'''
DC_EQ_T = '''
from dataclasses import dataclass
@dataclass
class Money2:
    amount: int
    currency: str = "EUR"
def test_code_vs_test_dataclass_not_equal():
    assert Money(5) != Money2(5)
    assert not (Money(5) == Money2(5))
def test_code_same_on_mixed():
    assert same(Money(5), Money(5)) is True
    assert same(Money(5), Money2(5)) is False
def test_money_eq_tuple_false():
    assert Money(5) != (5, "EUR")
'''
C("q5_dc_eq_across_classes", DC_EQ, DC_EQ_T)
C("q5_dc_eq_across_classes_bad", DC_EQ.replace("@dataclass\nclass Money:", "@dataclass(eq=False)\nclass Money:"), DC_EQ_T)

DC_SLOTS = '''
from dataclasses import dataclass
@dataclass(slots=True, kw_only=True)
class Config:
    host: str
    port: int = 8080
    debug: bool = False
def url(c):
    return f"http://{c.host}:{c.port}"
'''
DC_SLOTS_BAD = '''
from dataclasses import dataclass
@dataclass
class Config:
    host: str
    port: int = 8080
    debug: bool = False
def url(c):
    return f"http://{c.host}:{c.port}"
'''
DC_SLOTS_T = '''
import pytest
def test_kw_only():
    with pytest.raises(TypeError):
        Config("h")
    assert url(Config(host="h")) == "http://h:8080"
def test_no_new_attrs():
    c = Config(host="a")
    with pytest.raises(AttributeError):
        c.hots = "b"
def test_set_existing():
    c = Config(host="a")
    c.port = 1
    assert url(c) == "http://a:1"
'''
C("q5_dc_slots_kwonly_ok", DC_SLOTS, DC_SLOTS_T)
C("q5_dc_slots_kwonly_bad", DC_SLOTS_BAD, DC_SLOTS_T)

DC_TEST_TO_CODE = '''
import dataclasses
def describe(obj):
    return {f.name: type(getattr(obj, f.name)).__name__ for f in dataclasses.fields(obj)}
def bump_all(objs, field, by):
    return [dataclasses.replace(o, **{field: getattr(o, field) + by}) for o in objs]
def sort_records(objs):
    return sorted(objs)
'''
DC_TEST_TO_CODE_BAD = '''
import dataclasses
def describe(obj):
    return {k: type(v).__name__ for k, v in vars(obj).items()}
def bump_all(objs, field, by):
    for o in objs:
        setattr(o, field, getattr(o, field) + by)
    return objs
def sort_records(objs):
    objs.sort()
    return objs
'''
DC_TEST_TO_CODE_T = '''
from dataclasses import dataclass, field
@dataclass(order=True)
class Rec:
    score: int
    name: str = field(compare=False, default="")
    _cache: dict = field(default_factory=dict, compare=False, repr=False)
def test_describe_tests_dc():
    assert describe(Rec(1, "a")) == {"score": "int", "name": "str", "_cache": "dict"}
def test_bump_returns_new():
    rs = [Rec(1, "a"), Rec(2, "b")]
    out = bump_all(rs, "score", 10)
    assert [r.score for r in out] == [11, 12]
    assert [r.score for r in rs] == [1, 2]
    assert all(type(r) is Rec for r in out)
def test_sort_records_new_list():
    rs = [Rec(3, "c"), Rec(1, "a")]
    out = sort_records(rs)
    assert [r.name for r in out] == ["a", "c"]
    assert [r.name for r in rs] == ["c", "a"]
'''
C("q5_dc_tests_dc_to_code_ok", DC_TEST_TO_CODE, DC_TEST_TO_CODE_T)
C("q5_dc_tests_dc_to_code_bad", DC_TEST_TO_CODE_BAD, DC_TEST_TO_CODE_T)

# ============================================================ enums
EN = '''
from enum import Enum, auto
class Color(Enum):
    RED = 1
    GREEN = 2
    BLUE = 3
class Dir(Enum):
    N = auto()
    E = auto()
    S = auto()
    W = auto()
def turn_right(d):
    members = list(Dir)
    return members[(members.index(d) + 1) % 4]
def complement(c):
    return {Color.RED: Color.GREEN, Color.GREEN: Color.RED}.get(c, Color.BLUE)
'''
EN_BAD = '''
from enum import Enum, auto
class Color(Enum):
    RED = 1
    GREEN = 2
    BLUE = 3
class Dir(Enum):
    N = auto()
    E = auto()
    S = auto()
    W = auto()
def turn_right(d):
    members = list(Dir)
    return members[(members.index(d) + 1) % 3]
def complement(c):
    return {Color.RED: Color.GREEN, Color.GREEN: Color.RED}.get(c, Color.BLUE).value
'''
EN_T = '''
import pytest
def test_lookup_forms():
    assert Color(1) is Color.RED
    assert Color["GREEN"] is Color.GREEN
    assert Color.RED.name == "RED" and Color.RED.value == 1
    with pytest.raises(ValueError):
        Color(9)
    with pytest.raises(KeyError):
        Color["PINK"]
def test_iteration_and_in():
    assert [c.name for c in Color] == ["RED", "GREEN", "BLUE"]
    assert Color.BLUE in Color
    assert len(Color) == 3
def test_turn_right_cycle():
    d = Dir.N
    seen = []
    for _ in range(4):
        d = turn_right(d)
        seen.append(d)
    assert seen == [Dir.E, Dir.S, Dir.W, Dir.N]
    assert seen[-1] is Dir.N
def test_auto_values():
    assert [d.value for d in Dir] == [1, 2, 3, 4]
def test_complement_identity():
    assert complement(Color.RED) is Color.GREEN
    assert complement(Color.BLUE) is Color.BLUE
def test_members_as_dict_keys():
    counts = {c: 0 for c in Color}
    counts[complement(Color.GREEN)] += 1
    assert counts[Color.RED] == 1
'''
C("q5_enum_basic_ok", EN, EN_T)
C("q5_enum_basic_bad", EN_BAD, EN_T)

INTENUM = '''
from enum import IntEnum, IntFlag
class Priority(IntEnum):
    LOW = 1
    MID = 5
    HIGH = 10
class Perm(IntFlag):
    R = 4
    W = 2
    X = 1
def escalate(p):
    return Priority(min(p + 4, 10)) if p + 4 in (5, 10) else Priority.HIGH
def can_write(mask):
    return bool(mask & Perm.W)
'''
INTENUM_BAD = '''
from enum import IntEnum, IntFlag
class Priority(IntEnum):
    LOW = 1
    MID = 5
    HIGH = 10
class Perm(IntFlag):
    R = 4
    W = 2
    X = 1
def escalate(p):
    return p + 4
def can_write(mask):
    return mask == Perm.W
'''
INTENUM_T = '''
def test_int_arith():
    assert Priority.LOW + 1 == 2
    assert Priority.HIGH > 7
    assert sorted([10, Priority.MID, 3]) == [3, 5, 10]
    assert max(Priority) is Priority.HIGH
def test_escalate():
    r = escalate(Priority.LOW)
    assert r is Priority.MID
    assert isinstance(r, Priority)
    assert escalate(Priority.MID) is Priority.HIGH
def test_flags():
    assert can_write(Perm.R | Perm.W)
    assert can_write(6)
    assert not can_write(Perm.R | Perm.X)
    assert int(Perm.R | Perm.W | Perm.X) == 7
    assert Perm(6) == Perm.R | Perm.W
'''
C("q5_intenum_flag_ok", INTENUM, INTENUM_T)
C("q5_intenum_flag_bad", INTENUM_BAD, INTENUM_T)

STRENUM = '''
from enum import Enum, StrEnum
class Method(StrEnum):
    GET = "GET"
    POST = "POST"
class Unit(str, Enum):
    KG = "kg"
    LB = "lb"
def route(method, path):
    return f"{method} {path}"
def parse_unit(s):
    return Unit(s.lower())
'''
STRENUM_BAD = '''
from enum import Enum, StrEnum
class Method(StrEnum):
    GET = "GET"
    POST = "POST"
class Unit(str, Enum):
    KG = "kg"
    LB = "lb"
def route(method, path):
    return f"{method!r} {path}"
def parse_unit(s):
    return Unit(s)
'''
STRENUM_T = '''
import json
def test_strenum_is_str():
    assert Method.GET == "GET"
    assert isinstance(Method.POST, str)
    assert route(Method.GET, "/x") == "GET /x"
    assert Method("POST") is Method.POST
def test_str_mixin():
    assert parse_unit("KG") is Unit.KG
    assert Unit.LB == "lb"
    assert json.dumps({"u": Unit.KG}) == '{"u": "kg"}'
def test_upper_on_member():
    assert Method.GET.lower() == "get"
    assert "kg" in [u.value for u in Unit]
'''
C("q5_strenum_ok", STRENUM, STRENUM_T)
C("q5_strenum_bad", STRENUM_BAD, STRENUM_T)

TESTS_ENUM = '''
def label(level):
    return level.name.title()
def next_level(level):
    cls = type(level)
    ms = list(cls)
    i = ms.index(level)
    return ms[min(i + 1, len(ms) - 1)]
def by_value(cls, v):
    return cls(v)
'''
TESTS_ENUM_BAD = '''
def label(level):
    return str(level)
def next_level(level):
    cls = type(level)
    ms = list(cls)
    i = ms.index(level)
    return ms[(i + 1) % len(ms)]
def by_value(cls, v):
    return cls[v]
'''
TESTS_ENUM_T = '''
from enum import Enum
class Level(Enum):
    DEBUG = 10
    INFO = 20
    ERROR = 40
def test_label():
    assert label(Level.INFO) == "Info"
def test_next_level_identity():
    assert next_level(Level.DEBUG) is Level.INFO
    assert next_level(Level.ERROR) is Level.ERROR
def test_by_value():
    assert by_value(Level, 40) is Level.ERROR
'''
C("q5_enum_tests_enum_to_code_ok", TESTS_ENUM, TESTS_ENUM_T)
C("q5_enum_tests_enum_to_code_bad", TESTS_ENUM_BAD, TESTS_ENUM_T)

ENUM_METH = '''
from enum import Enum
class Planet(Enum):
    MERCURY = (3.303e+23, 2.4397e6)
    EARTH = (5.976e+24, 6.37814e6)
    def __init__(self, mass, radius):
        self.mass = mass
        self.radius = radius
    @property
    def gravity(self):
        return 6.673e-11 * self.mass / (self.radius * self.radius)
    @classmethod
    def heaviest(cls):
        return max(cls, key=lambda p: p.mass)
'''
ENUM_METH_BAD = ENUM_METH.replace("max(cls", "min(cls")
ENUM_METH_T = '''
import math
def test_attrs():
    assert Planet.EARTH.mass == 5.976e+24
    assert math.isclose(Planet.EARTH.gravity, 9.80, rel_tol=1e-2)
    assert Planet.EARTH.value == (5.976e+24, 6.37814e6)
def test_heaviest():
    assert Planet.heaviest() is Planet.EARTH
def test_sorted_by_key():
    assert sorted(Planet, key=lambda p: p.radius) == [Planet.MERCURY, Planet.EARTH]
'''
C("q5_enum_methods_tuple_values_ok", ENUM_METH, ENUM_METH_T)
C("q5_enum_methods_tuple_values_bad", ENUM_METH_BAD, ENUM_METH_T)

# ---- minimised
C("q5_min_eq_notimpl_both_sides_recursion", '''
class A:
    def __eq__(self, other):
        return NotImplemented
''', '''
class B:
    def __eq__(self, other):
        return NotImplemented
def test_ne():
    assert A() != B()
''')
C("q5_min_dc_eq_tests_dc", '''
from dataclasses import dataclass
@dataclass
class A:
    x: int
''', '''
from dataclasses import dataclass
@dataclass
class B:
    x: int
def test_ne():
    assert not (A(1) == B(1))
''')
C("q5_min_eq_code_plain_tests_notimpl", '''
class A:
    pass
''', '''
class B:
    def __eq__(self, other):
        return NotImplemented
def test_ne():
    assert A() != B()
    assert B() != A()
''')
C("q5_min_replace_tests_dc_private_field", '''
import dataclasses
def bump(o):
    return dataclasses.replace(o, n=o.n + 1)
''', '''
from dataclasses import dataclass
@dataclass
class R:
    n: int
    _tag: str = ""
def test_bump():
    assert bump(R(1)).n == 2
''')
C("q5_min_ne_code_plain_tests_plain", '''
class A:
    pass
''', '''
class B:
    pass
def test_ne():
    assert A() != B()
''')
C("q5_min_ne_code_plain_tests_object", '''
class A:
    pass
''', '''
def test_ne():
    assert A() != object()
''')
C("q5_min_code_ne_mixed_objects", '''
class Node:
    pass
def changed(old, new):
    return old != new
''', '''
class Other:
    pass
def test_changed():
    assert changed(Other(), Node()) is True
    assert changed(Node(), Other()) is True
''')

# ============================================================ batch 2: generators / iterators
GEN = '''
def averager():
    total = 0.0
    count = 0
    avg = None
    while True:
        try:
            x = yield avg
        except ValueError:
            total, count, avg = 0.0, 0, None
            continue
        if x is None:
            return (count, avg)
        total += x
        count += 1
        avg = total / count
'''
GEN_BAD = '''
def averager():
    total = 0.0
    count = 0
    avg = None
    while True:
        x = yield avg
        if x is None:
            return avg
        total += x
        count += 1
        avg = total / count
'''
GEN_T = '''
import pytest
def test_send():
    g = averager()
    assert next(g) is None
    assert g.send(10) == 10.0
    assert g.send(20) == 15.0
def test_return_value():
    g = averager()
    next(g)
    g.send(4); g.send(6)
    with pytest.raises(StopIteration) as ei:
        g.send(None)
    assert ei.value.value == (2, 5.0)
def test_throw_resets():
    g = averager()
    next(g)
    g.send(100)
    assert g.throw(ValueError) is None
    assert g.send(2) == 2.0
def test_yield_from_return():
    def outer():
        r = yield from averager()
        yield ("done", r)
    o = outer()
    next(o); o.send(1); o.send(3)
    assert o.send(None) == ("done", (2, 2.0))
'''
C("q5_gen_send_throw_return_ok", GEN, GEN_T)
C("q5_gen_send_throw_return_bad", GEN_BAD, GEN_T)

GEN_CLOSE = '''
log = []
def reader(lines):
    log.append("open")
    try:
        for ln in lines:
            yield ln.strip()
    except GeneratorExit:
        log.append("closed early")
        raise
    finally:
        log.append("release")
'''
GEN_CLOSE_BAD = '''
log = []
def reader(lines):
    log.append("open")
    try:
        for ln in lines:
            yield ln.strip()
    except GeneratorExit:
        log.append("closed early")
    log.append("release")
'''
GEN_CLOSE_T = '''
def test_close_early():
    log.clear()
    g = reader([" a ", "b "])
    assert next(g) == "a"
    g.close()
    assert log == ["open", "closed early", "release"]
    assert g.gi_frame is None
def test_full_run():
    log.clear()
    assert list(reader(["x\\n", " y"])) == ["x", "y"]
    assert log == ["open", "release"]
def test_close_twice_ok():
    g = reader(["a"])
    next(g)
    g.close(); g.close()
'''
C("q5_gen_close_generatorexit_ok", GEN_CLOSE, GEN_CLOSE_T)
C("q5_gen_close_generatorexit_bad_swallow", GEN_CLOSE_BAD, GEN_CLOSE_T)

GEN_TESTS_TO_CODE = '''
def take_until(it, stop):
    out = []
    for x in it:
        if x == stop:
            break
        out.append(x)
    return out
def pairs(it):
    it = iter(it)
    return list(zip(it, it))
def first_n_sum(gen, n):
    s = 0
    for _ in range(n):
        s += next(gen)
    return s
'''
GEN_TESTS_TO_CODE_BAD = '''
def take_until(it, stop):
    items = list(it)
    return items[:items.index(stop)] if stop in items else items
def pairs(it):
    it = list(it)
    return list(zip(it[::2], it[1::2]))
import itertools
def first_n_sum(gen, n):
    return sum(list(itertools.islice(gen, n + 1))[:n])
'''
GEN_TESTS_TO_CODE_T = '''
import itertools
def test_take_until_leaves_rest():
    g = (i for i in range(10))
    assert take_until(g, 3) == [0, 1, 2]
    assert next(g) == 4
def test_pairs_generator():
    pulled = []
    def gen():
        for i in range(5):
            pulled.append(i)
            yield i
    assert pairs(gen()) == [(0, 1), (2, 3)]
    assert pulled == [0, 1, 2, 3, 4]
def test_first_n_sum_infinite():
    c = itertools.count(1)
    assert first_n_sum(c, 4) == 10
    assert next(c) == 5
'''
C("q5_gen_tests_iters_to_code_ok", GEN_TESTS_TO_CODE, GEN_TESTS_TO_CODE_T)
C("q5_gen_tests_iters_to_code_bad_eager", GEN_TESTS_TO_CODE_BAD, GEN_TESTS_TO_CODE_T)

GEN_SHARED = '''
class Tokens:
    def __init__(self, text):
        self._it = iter(text.split())
        self.consumed = 0
    def __iter__(self):
        return self
    def __next__(self):
        tok = next(self._it)
        self.consumed += 1
        return tok
def skip(tokens, n):
    for _ in range(n):
        next(tokens)
'''
GEN_SHARED_BAD = '''
class Tokens:
    def __init__(self, text):
        self._toks = text.split()
        self.consumed = 0
    def __iter__(self):
        return iter(self._toks[self.consumed:])
    def __next__(self):
        tok = self._toks[self.consumed]
        self.consumed += 1
        return tok
def skip(tokens, n):
    for _ in range(n):
        next(tokens)
'''
GEN_SHARED_T = '''
import itertools
import pytest
def test_shared_progress():
    t = Tokens("a b c d e")
    skip(t, 2)
    assert next(t) == "c"
    assert list(t) == ["d", "e"]
    assert t.consumed == 5
def test_islice_then_code():
    t = Tokens("1 2 3 4")
    assert list(itertools.islice(t, 2)) == ["1", "2"]
    skip(t, 1)
    assert list(t) == ["4"]
def test_exhausted():
    t = Tokens("x")
    next(t)
    with pytest.raises(StopIteration):
        next(t)
'''
C("q5_iter_shared_partial_ok", GEN_SHARED, GEN_SHARED_T)
C("q5_iter_shared_partial_bad", GEN_SHARED_BAD, GEN_SHARED_T)

GEN_TEE = '''
import itertools
def numbers():
    n = 0
    while True:
        yield n
        n += 1
def window(it, k):
    its = itertools.tee(it, k)
    for i, x in enumerate(its):
        for _ in range(i):
            next(x, None)
    return zip(*its)
'''
GEN_TEE_BAD = '''
import itertools
def numbers():
    n = 0
    while True:
        yield n
        n += 1
def window(it, k):
    buf = list(itertools.islice(it, 100))
    return [tuple(buf[i:i + k]) for i in range(len(buf) - k + 1)]
'''
GEN_TEE_T = '''
import itertools
def test_tee_in_tests_of_code_gen():
    a, b = itertools.tee(numbers())
    assert list(itertools.islice(a, 3)) == [0, 1, 2]
    assert next(b) == 0
def test_window_lazy_on_tests_gen():
    def g():
        yield from "abcd"
    assert list(window(g(), 2)) == [("a", "b"), ("b", "c"), ("c", "d")]
def test_window_infinite_code_gen():
    w = window(numbers(), 3)
    assert next(iter(w)) == (0, 1, 2)
def test_window_is_lazy():
    pulled = []
    def g():
        for i in range(1000):
            pulled.append(i)
            yield i
    w = iter(window(g(), 2))
    next(w)
    assert len(pulled) < 10
'''
C("q5_iter_tee_window_ok", GEN_TEE, GEN_TEE_T)
C("q5_iter_tee_window_bad_eager", GEN_TEE_BAD, GEN_TEE_T)

GEN_YF = '''
def flatten(x):
    for item in x:
        if isinstance(item, (list, tuple)):
            yield from flatten(item)
        else:
            yield item
def chunked(it, n):
    chunk = []
    for x in it:
        chunk.append(x)
        if len(chunk) == n:
            yield chunk
            chunk = []
    if chunk:
        yield chunk
'''
GEN_YF_BAD = '''
def flatten(x):
    for item in x:
        if isinstance(item, list):
            yield from flatten(item)
        else:
            yield item
def chunked(it, n):
    chunk = []
    for x in it:
        chunk.append(x)
        if len(chunk) == n:
            yield chunk
            chunk.clear()
    if chunk:
        yield chunk
'''
GEN_YF_T = '''
def test_flatten():
    assert list(flatten([1, [2, (3, [4])], 5])) == [1, 2, 3, 4, 5]
def test_chunks_kept():
    got = list(chunked(range(5), 2))
    assert got == [[0, 1], [2, 3], [4]]
def test_chunks_kept_while_iterating():
    keep = []
    for c in chunked("abcde", 2):
        keep.append(c)
    assert keep == [["a", "b"], ["c", "d"], ["e"]]
'''
C("q5_gen_yield_from_chunks_ok", GEN_YF, GEN_YF_T)
C("q5_gen_yield_from_chunks_bad_reuse", GEN_YF_BAD, GEN_YF_T)

GEN_EXC_IN = '''
def safe_map(fn, items):
    for x in items:
        try:
            yield fn(x)
        except ValueError as e:
            yield ("error", str(e))
'''
GEN_EXC_IN_BAD = '''
def safe_map(fn, items):
    for x in items:
        try:
            yield fn(x)
        except Exception as e:
            yield ("error", str(e))
'''
GEN_EXC_IN_T = '''
import pytest
def parse(s):
    if not s.isdigit():
        raise ValueError(f"bad {s}")
    if s == "0":
        raise ZeroDivisionError("zero")
    return int(s)
def test_values_errors():
    assert list(safe_map(parse, ["1", "x", "3"])) == [1, ("error", "bad x"), 3]
def test_other_errors_propagate():
    g = safe_map(parse, ["1", "0", "2"])
    assert next(g) == 1
    with pytest.raises(ZeroDivisionError, match="zero"):
        next(g)
    assert list(g) == []
'''
C("q5_gen_tests_callback_errors_ok", GEN_EXC_IN, GEN_EXC_IN_T)
C("q5_gen_tests_callback_errors_bad_broad", GEN_EXC_IN_BAD, GEN_EXC_IN_T)

# ============================================================ exceptions
EXC = '''
class AppError(Exception):
    pass
class NotFound(AppError):
    def __init__(self, key, where="db"):
        super().__init__(f"{key!r} not found in {where}")
        self.key = key
        self.where = where
class Conflict(AppError):
    code = 409
STORE = {"a": 1}
def get(key):
    try:
        return STORE[key]
    except KeyError as e:
        raise NotFound(key) from e
def put(key, value):
    if key in STORE:
        raise Conflict(key)
    STORE[key] = value
'''
EXC_BAD = '''
class AppError(Exception):
    pass
class NotFound(AppError):
    def __init__(self, key, where="db"):
        super().__init__(f"{key} not found")
        self.key = key
class Conflict(Exception):
    code = 409
STORE = {"a": 1}
def get(key):
    try:
        return STORE[key]
    except KeyError as e:
        raise NotFound(key)
def put(key, value):
    if key in STORE:
        raise Conflict(key)
    STORE[key] = value
'''
EXC_T = '''
import pytest
def test_match_and_attrs():
    with pytest.raises(NotFound, match=r"'zz' not found in db") as ei:
        get("zz")
    assert ei.value.key == "zz" and ei.value.where == "db"
    assert isinstance(ei.value, AppError)
    assert isinstance(ei.value.__cause__, KeyError)
    assert ei.value.__cause__.args == ("zz",)
def test_hierarchy_catch():
    try:
        put("a", 2)
    except AppError as e:
        assert type(e) is Conflict
        assert e.code == 409
        assert e.args == ("a",)
    else:
        pytest.fail("no error")
def test_str_repr():
    e = NotFound("k", "cache")
    assert str(e) == "'k' not found in cache"
    assert repr(e) == "NotFound(\\"'k' not found in cache\\")"
def test_raise_code_exc_from_tests():
    with pytest.raises(AppError):
        raise NotFound("q")
'''
C("q5_exc_custom_attrs_cause_ok", EXC, EXC_T)
C("q5_exc_custom_attrs_cause_bad", EXC_BAD, EXC_T)

EXC_NOTES = '''
def load_all(paths, loader):
    errors = []
    results = {}
    for p in paths:
        try:
            results[p] = loader(p)
        except OSError as e:
            e.add_note(f"while loading {p}")
            errors.append(e)
    if errors:
        raise ExceptionGroup("load failed", errors)
    return results
'''
EXC_NOTES_BAD = '''
def load_all(paths, loader):
    errors = []
    results = {}
    for p in paths:
        try:
            results[p] = loader(p)
        except Exception as e:
            errors.append(e)
    if errors:
        raise ExceptionGroup("load failed", errors)
    return results
'''
EXC_NOTES_T = '''
import pytest
def loader(p):
    if p.startswith("missing"):
        raise FileNotFoundError(2, "No such file", p)
    if p == "boom":
        raise RuntimeError("boom")
    return p.upper()
def test_ok():
    assert load_all(["a", "b"], loader) == {"a": "A", "b": "B"}
def test_group_and_notes():
    with pytest.raises(ExceptionGroup) as ei:
        load_all(["a", "missing1", "missing2"], loader)
    eg = ei.value
    assert len(eg.exceptions) == 2
    assert all(isinstance(e, FileNotFoundError) for e in eg.exceptions)
    assert eg.exceptions[0].__notes__ == ["while loading missing1"]
    assert eg.exceptions[1].filename == "missing2"
def test_other_errors_escape():
    with pytest.raises(RuntimeError):
        load_all(["boom"], loader)
def test_except_star():
    caught = []
    try:
        load_all(["missing3"], loader)
    except* FileNotFoundError as g:
        caught.extend(g.exceptions)
    assert len(caught) == 1 and caught[0].errno == 2
'''
C("q5_exc_notes_group_tests_errors_ok", EXC_NOTES, EXC_NOTES_T)
C("q5_exc_notes_group_tests_errors_bad", EXC_NOTES_BAD, EXC_NOTES_T)

EXC_CB = '''
class RetryError(Exception):
    def __init__(self, attempts, last):
        super().__init__(f"gave up after {attempts}")
        self.attempts = attempts
        self.last = last
def retry(fn, times, on=(Exception,)):
    last = None
    for i in range(times):
        try:
            return fn()
        except on as e:
            last = e
    raise RetryError(times, last) from last
'''
EXC_CB_BAD = '''
class RetryError(Exception):
    def __init__(self, attempts, last):
        super().__init__(f"gave up after {attempts}")
        self.attempts = attempts
        self.last = last
def retry(fn, times, on=(Exception,)):
    last = None
    for i in range(times):
        try:
            return fn()
        except Exception as e:
            last = e
    raise RetryError(times, last) from last
'''
EXC_CB_T = '''
import pytest
class Flaky(Exception):
    pass
class Fatal(Exception):
    pass
def test_retry_succeeds():
    calls = []
    def f():
        calls.append(1)
        if len(calls) < 3:
            raise Flaky(len(calls))
        return "ok"
    assert retry(f, 5, on=(Flaky,)) == "ok"
    assert len(calls) == 3
def test_retry_gives_up_keeps_test_exception():
    err = Flaky("x")
    def f():
        raise err
    with pytest.raises(RetryError) as ei:
        retry(f, 2, on=(Flaky,))
    assert ei.value.attempts == 2
    assert ei.value.last is err
    assert ei.value.__cause__ is err
def test_fatal_not_retried():
    calls = []
    def f():
        calls.append(1)
        raise Fatal("no")
    with pytest.raises(Fatal):
        retry(f, 3, on=(Flaky,))
    assert calls == [1]
'''
C("q5_exc_tests_exc_through_code_ok", EXC_CB, EXC_CB_T)
C("q5_exc_tests_exc_through_code_bad_catch_all", EXC_CB_BAD, EXC_CB_T)

EXC_CTX = '''
class ConfigError(Exception):
    pass
def parse_port(s):
    try:
        return int(s)
    except ValueError:
        raise ConfigError(f"bad port {s!r}")
def parse_port_clean(s):
    try:
        return int(s)
    except ValueError:
        raise ConfigError(f"bad port {s!r}") from None
'''
EXC_CTX_BAD = '''
class ConfigError(Exception):
    pass
def parse_port(s):
    if not s.isdigit():
        raise ConfigError(f"bad port {s!r}")
    return int(s)
def parse_port_clean(s):
    try:
        return int(s)
    except ValueError as e:
        raise ConfigError(f"bad port {s!r}") from e
'''
EXC_CTX_T = '''
import unittest
class T(unittest.TestCase):
    def test_implicit_context(self):
        with self.assertRaises(ConfigError) as cm:
            parse_port("x")
        self.assertIsInstance(cm.exception.__context__, ValueError)
        self.assertIsNone(cm.exception.__cause__)
        self.assertFalse(cm.exception.__suppress_context__)
    def test_from_none(self):
        with self.assertRaisesRegex(ConfigError, "bad port 'y'") as cm:
            parse_port_clean("y")
        self.assertTrue(cm.exception.__suppress_context__)
        self.assertIsNone(cm.exception.__cause__)
    def test_ok(self):
        self.assertEqual(parse_port("80"), 80)
'''
C("q5_exc_context_suppress_ok", EXC_CTX, EXC_CTX_T)
C("q5_exc_context_suppress_bad", EXC_CTX_BAD, EXC_CTX_T)

# ============================================================ batch 3: inheritance
INH = '''
from abc import ABC, abstractmethod
class Shape(ABC):
    sides = 0
    def __init__(self, name):
        self.name = name
    @abstractmethod
    def area(self): ...
    def describe(self):
        return f"{self.name} with {self.sides} sides, area {self.area():.1f}"
    @classmethod
    def unit(cls):
        return cls("unit")
def total_area(shapes):
    return sum(s.area() for s in shapes)
'''
INH_BAD = INH.replace("{self.sides} sides", "{Shape.sides} sides")
INH_T = '''
import pytest
class Square(Shape):
    sides = 4
    def __init__(self, name, side=1):
        super().__init__(name)
        self.side = side
    def area(self):
        return self.side ** 2
def test_describe_uses_override():
    assert Square("sq", 3).describe() == "sq with 4 sides, area 9.0"
def test_total_area():
    assert total_area([Square("a", 2), Square("b", 1)]) == 5
def test_classmethod_on_subclass():
    u = Square.unit()
    assert isinstance(u, Square) and u.name == "unit" and u.area() == 1
def test_abstract():
    with pytest.raises(TypeError):
        Shape("x")
'''
C("q5_inh_abc_template_ok", INH, INH_T)
C("q5_inh_abc_template_bad_class_attr", INH_BAD, INH_T)

INH_PROP = '''
class Account:
    def __init__(self, balance=0):
        self._balance = balance
    @property
    def balance(self):
        return self._balance
    @balance.setter
    def balance(self, v):
        if v < 0:
            raise ValueError("negative")
        self._balance = v
    def deposit(self, x):
        self.balance = self.balance + x
        return self.balance
'''
INH_PROP_BAD = '''
class Account:
    def __init__(self, balance=0):
        self._balance = balance
    @property
    def balance(self):
        return self._balance
    @balance.setter
    def balance(self, v):
        self._balance = v
    def deposit(self, x):
        self._balance += x
        return self._balance
'''
INH_PROP_T = '''
import pytest
def test_setter_validates():
    a = Account(5)
    with pytest.raises(ValueError):
        a.balance = -1
    a.balance = 7
    assert a.balance == 7
def test_deposit_negative():
    a = Account(1)
    with pytest.raises(ValueError):
        a.deposit(-5)
    assert a.balance == 1
def test_no_delete():
    a = Account()
    with pytest.raises(AttributeError):
        del a.balance
'''
C("q5_inh_property_setter_ok", INH_PROP, INH_PROP_T)
C("q5_inh_property_setter_bad", INH_PROP_BAD, INH_PROP_T)

INH_HOOK = '''
class Handler:
    def handle(self, req):
        req = self.before(req)
        resp = self.process(req)
        return self.after(resp)
    def before(self, req):
        return req.strip()
    def process(self, req):
        return req
    def after(self, resp):
        return resp
def run_all(handler, reqs):
    return [handler.handle(r) for r in reqs]
'''
INH_HOOK_BAD = '''
class Handler:
    def handle(self, req):
        req = Handler.before(self, req)
        resp = self.process(req)
        return Handler.after(self, resp)
    def before(self, req):
        return req.strip()
    def process(self, req):
        return req
    def after(self, resp):
        return resp
def run_all(handler, reqs):
    return [handler.handle(r) for r in reqs]
'''
INH_HOOK_T = '''
class Upper(Handler):
    def __init__(self):
        self.seen = []
    def before(self, req):
        r = super().before(req)
        self.seen.append(r)
        return r
    def process(self, req):
        return req.upper()
    def after(self, resp):
        return "<" + resp + ">"
def test_hooks_called():
    h = Upper()
    assert run_all(h, [" a ", "b"]) == ["<A>", "<B>"]
    assert h.seen == ["a", "b"]
'''
C("q5_inh_hooks_super_ok", INH_HOOK, INH_HOOK_T)
C("q5_inh_hooks_super_bad_unbound", INH_HOOK_BAD, INH_HOOK_T)

INH_STATIC = '''
class Temperature:
    scale = "C"
    def __init__(self, value):
        self.value = value
    @staticmethod
    def c_to_f(c):
        return c * 9 / 5 + 32
    @classmethod
    def from_f(cls, f):
        return cls((f - 32) * 5 / 9)
    def __repr__(self):
        return f"{type(self).__name__}({self.value:.1f}{self.scale})"
'''
INH_STATIC_BAD = INH_STATIC.replace("return cls((f - 32)", "return Temperature((f - 32)")
INH_STATIC_T = '''
class Kelvin(Temperature):
    scale = "K"
def test_static():
    assert Temperature.c_to_f(100) == 212
    assert Temperature(0).c_to_f(0) == 32
def test_classmethod_subclass():
    k = Kelvin.from_f(212)
    assert type(k) is Kelvin
    assert repr(k) == "Kelvin(100.0K)"
def test_repr_base():
    assert repr(Temperature.from_f(32)) == "Temperature(0.0C)"
    assert f"{Temperature(1)!r}" == "Temperature(1.0C)"
'''
C("q5_inh_static_classmethod_ok", INH_STATIC, INH_STATIC_T)
C("q5_inh_static_classmethod_bad", INH_STATIC_BAD, INH_STATIC_T)

INH_SLOTS = '''
class Vec:
    __slots__ = ("x", "y")
    def __init__(self, x, y):
        self.x = x; self.y = y
    def __add__(self, o):
        return Vec(self.x + o.x, self.y + o.y)
    def __eq__(self, o):
        return isinstance(o, Vec) and (self.x, self.y) == (o.x, o.y)
    __hash__ = None
'''
INH_SLOTS_BAD = '''
class Vec:
    def __init__(self, x, y):
        self.x = x; self.y = y
    def __add__(self, o):
        return Vec(self.x + o.x, self.y + o.y)
    def __eq__(self, o):
        return isinstance(o, Vec) and (self.x, self.y) == (o.x, o.y)
    __hash__ = None
'''
INH_SLOTS_T = '''
import pytest
def test_no_dict():
    v = Vec(1, 2)
    with pytest.raises(AttributeError):
        v.z = 3
    assert not hasattr(v, "__dict__")
def test_add():
    assert Vec(1, 2) + Vec(3, 4) == Vec(4, 6)
def test_unhashable():
    with pytest.raises(TypeError):
        {Vec(0, 0)}
'''
C("q5_inh_slots_instance_ok", INH_SLOTS, INH_SLOTS_T)
C("q5_inh_slots_instance_bad", INH_SLOTS_BAD, INH_SLOTS_T)

# ============================================================ module-level state
MOD = '''
MAX_ITEMS = 3
_registry = {}
def register(name, value):
    if len(_registry) >= MAX_ITEMS:
        raise OverflowError("full")
    _registry[name] = value
def lookup(name):
    return _registry[name]
def reset():
    _registry.clear()
'''
MOD_BAD = '''
MAX_ITEMS = 3
_registry = {}
def register(name, value, _limit=MAX_ITEMS):
    if len(_registry) >= _limit:
        raise OverflowError("full")
    _registry[name] = value
def lookup(name):
    return _registry[name]
def reset():
    _registry.clear()
'''
MOD_T = '''
import pytest
@pytest.fixture(autouse=True)
def clean():
    reset()
    yield
    reset()
def test_limit_default():
    for i in range(3):
        register(str(i), i)
    with pytest.raises(OverflowError):
        register("x", 0)
def test_limit_monkeypatched(monkeypatch):
    import sys
    monkeypatch.setattr(sys.modules[__name__], "MAX_ITEMS", 5)
    for i in range(5):
        register(str(i), i)
    assert lookup("4") == 4
def test_limit_global_assign():
    global MAX_ITEMS
    old = MAX_ITEMS
    MAX_ITEMS = 1
    try:
        register("a", 1)
        with pytest.raises(OverflowError):
            register("b", 2)
    finally:
        MAX_ITEMS = old
def test_registry_seen_directly():
    register("k", "v")
    assert _registry == {"k": "v"}
'''
C("q5_mod_constant_patch_ok", MOD, MOD_T)
C("q5_mod_constant_patch_bad_default", MOD_BAD, MOD_T)

LRU = '''
import functools
calls = 0
@functools.lru_cache(maxsize=2)
def fib(n):
    global calls
    calls += 1
    return n if n < 2 else fib(n - 1) + fib(n - 2)
'''
LRU_BAD = '''
import functools
calls = 0
@functools.lru_cache(maxsize=None)
def fib(n):
    global calls
    calls += 1
    return n if n < 2 else fib(n - 1) + fib(n - 2)
'''
LRU_T = '''
def setup_function():
    global calls
    fib.cache_clear()
    calls = 0
def test_value():
    assert fib(20) == 6765
def test_cache_info():
    fib(3)
    info = fib.cache_info()
    assert info.maxsize == 2
    assert info.currsize <= 2
    assert info.misses >= 4
def test_calls_counted():
    fib(1); fib(1)
    assert calls == 1
    assert fib.cache_info().hits == 1
def test_wrapped():
    assert fib.__wrapped__(5) == 5
'''
C("q5_lru_cache_info_clear_ok", LRU, LRU_T)
C("q5_lru_cache_info_clear_bad_unbounded", LRU_BAD, LRU_T)

MUTDEF = '''
def add_tag(tag, tags=None):
    if tags is None:
        tags = []
    tags.append(tag)
    return tags
'''
MUTDEF_BAD = '''
def add_tag(tag, tags=[]):
    tags.append(tag)
    return tags
'''
MUTDEF_T = '''
def test_first():
    assert add_tag("a") == ["a"]
def test_second_independent():
    assert add_tag("b") == ["b"]
def test_given_list_mutated():
    mine = ["x"]
    out = add_tag("y", mine)
    assert out is mine and mine == ["x", "y"]
def test_defaults_untouched():
    assert add_tag.__defaults__ == (None,)
'''
C("q5_mutable_default_across_tests_ok", MUTDEF, MUTDEF_T)
C("q5_mutable_default_across_tests_bad", MUTDEF_BAD, MUTDEF_T)

SINGLE = '''
class Settings:
    _instance = None
    def __new__(cls):
        if cls._instance is None:
            cls._instance = super().__new__(cls)
            cls._instance.values = {}
        return cls._instance
def get_settings():
    return Settings()
'''
SINGLE_BAD = '''
class Settings:
    def __init__(self):
        self.values = {}
def get_settings():
    return Settings()
'''
SINGLE_T = '''
import unittest
class T(unittest.TestCase):
    def tearDown(self):
        Settings._instance = None
    def test_same(self):
        self.assertIs(get_settings(), Settings())
    def test_values_shared(self):
        get_settings().values["debug"] = True
        self.assertTrue(Settings().values["debug"])
    def test_reset(self):
        a = Settings()
        Settings._instance = None
        self.assertIsNot(Settings(), a)
'''
C("q5_singleton_new_ok", SINGLE, SINGLE_T)
C("q5_singleton_new_bad", SINGLE_BAD, SINGLE_T)

# ============================================================ sorting / heaps / bisect
SORTOBJ = '''
import functools
@functools.total_ordering
class Card:
    ORDER = "23456789TJQKA"
    def __init__(self, s):
        self.rank, self.suit = s[0], s[1]
    def __eq__(self, o):
        if not isinstance(o, Card):
            return NotImplemented
        return self.rank == o.rank
    def __lt__(self, o):
        if not isinstance(o, Card):
            return NotImplemented
        return self.ORDER.index(self.rank) < self.ORDER.index(o.rank)
    def __hash__(self):
        return hash(self.rank)
    def __repr__(self):
        return self.rank + self.suit
def hand(s):
    return [Card(x) for x in s.split()]
'''
SORTOBJ_BAD = SORTOBJ.replace("self.ORDER.index(self.rank) < self.ORDER.index(o.rank)", "self.rank < o.rank")
SORTOBJ_T = '''
import heapq, bisect
def test_sorted():
    assert [repr(c) for c in sorted(hand("KH 2S TD AC 9H"))] == ["2S", "9H", "TD", "KH", "AC"]
def test_max_min():
    h = hand("KH 2S TD")
    assert repr(max(h)) == "KH" and repr(min(h)) == "2S"
def test_heap():
    h = hand("QH 3S AD 5C")
    heapq.heapify(h)
    assert repr(heapq.heappop(h)) == "3S"
    assert [repr(c) for c in heapq.nlargest(2, h)] == ["AD", "QH"]
def test_bisect():
    h = sorted(hand("2S 5H 9D KC"))
    i = bisect.bisect_left(h, Card("TS"))
    assert i == 3
    bisect.insort(h, Card("3D"))
    assert [repr(c) for c in h] == ["2S", "3D", "5H", "9D", "KC"]
def test_sort_key_and_reverse():
    h = hand("KH 2S TD")
    h.sort(reverse=True)
    assert repr(h[0]) == "KH"
    assert sorted(h, key=lambda c: c.suit)[0].suit == "D"
'''
C("q5_sort_heap_bisect_code_objs_ok", SORTOBJ, SORTOBJ_T)
C("q5_sort_heap_bisect_code_objs_bad_lexical", SORTOBJ_BAD, SORTOBJ_T)

SORT_TESTS_OBJ = '''
import heapq, bisect, functools
def top_k(items, k):
    return heapq.nsmallest(k, items)
def insert_sorted(lst, x):
    bisect.insort(lst, x)
def sort_with(items, cmp):
    return sorted(items, key=functools.cmp_to_key(cmp))
def best(items, key):
    return max(items, key=key)
'''
SORT_TESTS_OBJ_BAD = '''
import heapq, bisect, functools
def top_k(items, k):
    return sorted(items)[-k:]
def insert_sorted(lst, x):
    lst.append(x); lst.sort()
    return lst
def sort_with(items, cmp):
    return sorted(items, key=functools.cmp_to_key(lambda a, b: cmp(b, a)))
def best(items, key):
    return max(items)
'''
SORT_TESTS_OBJ_T = '''
class Job:
    def __init__(self, pri, name):
        self.pri, self.name = pri, name
    def __lt__(self, other):
        return self.pri < other.pri
    def __repr__(self):
        return f"Job({self.pri},{self.name})"
def test_top_k_of_tests_objects():
    jobs = [Job(5, "e"), Job(1, "a"), Job(3, "c")]
    out = top_k(jobs, 2)
    assert [j.name for j in out] == ["a", "c"]
    assert out[0] is jobs[1]
def test_insert_sorted_in_place():
    lst = [Job(1, "a"), Job(4, "d")]
    insert_sorted(lst, Job(2, "b"))
    assert [j.name for j in lst] == ["a", "b", "d"]
def test_cmp_to_key():
    def by_len_then_alpha(a, b):
        return (len(a) - len(b)) or ((a > b) - (a < b))
    assert sort_with(["bb", "a", "ab", "c"], by_len_then_alpha) == ["a", "c", "ab", "bb"]
def test_best_key():
    jobs = [Job(5, "zz"), Job(1, "aaaa")]
    assert best(jobs, key=lambda j: len(j.name)).name == "aaaa"
'''
C("q5_sort_tests_objs_in_code_ok", SORT_TESTS_OBJ, SORT_TESTS_OBJ_T)
C("q5_sort_tests_objs_in_code_bad", SORT_TESTS_OBJ_BAD, SORT_TESTS_OBJ_T)

SORT_MIXED = '''
class Score:
    def __init__(self, v):
        self.v = v
    def __lt__(self, o):
        return self.v < (o.v if isinstance(o, Score) else o)
    def __gt__(self, o):
        return self.v > (o.v if isinstance(o, Score) else o)
    def __repr__(self):
        return f"S{self.v}"
'''
SORT_MIXED_T = '''
class Mine:
    def __init__(self, v):
        self.v = v
    def __lt__(self, o):
        return self.v < o.v
    def __gt__(self, o):
        return self.v > o.v
    def __repr__(self):
        return f"M{self.v}"
def test_sorted_mixed():
    xs = [Score(3), Mine(1), Score(2), Mine(4)]
    assert [repr(x) for x in sorted(xs)] == ["M1", "S2", "S3", "M4"]
def test_min_max_mixed():
    xs = [Mine(5), Score(0), Mine(2)]
    assert repr(min(xs)) == "S0" and repr(max(xs)) == "M5"
'''
C("q5_sort_mixed_sides_objects", SORT_MIXED, SORT_MIXED_T)
C("q5_min_setup_function_rebinds_code_counter", '''
calls = 0
def f():
    global calls
    calls += 1
''', '''
def setup_function():
    global calls
    calls = 0
def test_one():
    f()
    assert calls == 1
''')
C("q5_min_test_rebinds_code_counter_inline", '''
calls = 0
def f():
    global calls
    calls += 1
''', '''
def test_one():
    global calls
    calls = 0
    f()
    assert calls == 1
''')
C("q5_min_unittest_setup_rebinds_code_counter", '''
calls = 0
def f():
    global calls
    calls += 1
''', '''
import unittest
class T(unittest.TestCase):
    def setUp(self):
        global calls
        calls = 0
    def test_one(self):
        f()
        self.assertEqual(calls, 1)
''')
C("q5_min_function_defaults", '''
def add_tag(tag, tags=None):
    return (tags or []) + [tag]
''', '''
def test_defaults():
    assert add_tag.__defaults__ == (None,)
''')
C("q5_min_function_kwdefaults_code", '''
def f(a, *, b=2):
    return a + b
''', '''
def test_kwdefaults():
    assert f.__kwdefaults__ == {"b": 2}
    assert f.__code__.co_argcount == 1
''')
C("q5_min_lru_wrapped_counter_rebound_by_tests", '''
import functools
calls = 0
@functools.lru_cache(maxsize=None)
def f(n):
    global calls
    calls += 1
    return n
''', '''
def test_one():
    global calls
    calls = 0
    f(1)
    assert calls == 1
''')
C("q5_min_decorated_counter_rebound_by_tests", '''
import functools
def deco(fn):
    @functools.wraps(fn)
    def w(*a):
        return fn(*a)
    return w
calls = 0
@deco
def f(n):
    global calls
    calls += 1
    return n
''', '''
def test_one():
    global calls
    calls = 0
    f(1)
    assert calls == 1
''')
C("q5_min_counter_rebound_in_setup_second_test", '''
calls = 0
def f():
    global calls
    calls += 1
''', '''
def setup_function():
    global calls
    calls = 0
def test_a():
    f()
def test_b():
    f()
    assert calls == 1
''')

# ---- xunit-style setup/teardown (found via the lru case)
C("q5_min_setup_function_runs", '''
def f():
    return 1
''', '''
log = []
def setup_function():
    log.append(1)
def test_a():
    assert len(log) == 1
def test_b():
    assert len(log) == 2
''')
XUNIT = '''
_open = []
def connect(name):
    _open.append(name)
    return name
def disconnect(name):
    _open.remove(name)
def open_connections():
    return list(_open)
'''
XUNIT_BAD = '''
_open = []
def connect(name):
    _open.append(name)
    return name
def disconnect(name):
    pass
def open_connections():
    return list(_open)
'''
XUNIT_T = '''
def teardown_function():
    assert open_connections() == []
def test_connect_and_close():
    c = connect("db")
    assert open_connections() == ["db"]
    disconnect(c)
'''
C("q5_teardown_function_checks_leak_ok", XUNIT, XUNIT_T)
C("q5_teardown_function_checks_leak_bad", XUNIT_BAD, XUNIT_T)
XUNIT_T2 = '''
def setup_module(module):
    connect("shared")
def teardown_module(module):
    disconnect("shared")
class TestPool:
    def setup_method(self, method):
        self.c = connect("x")
    def teardown_method(self, method):
        disconnect(self.c)
    def test_has_two(self):
        assert sorted(open_connections()) == ["shared", "x"]
    def test_still_two(self):
        assert sorted(open_connections()) == ["shared", "x"]
'''
C("q5_setup_module_and_method_ok", XUNIT, XUNIT_T2)
C("q5_setup_module_and_method_bad", XUNIT_BAD, XUNIT_T2)
XUNIT_T3 = '''
class TestCls:
    @classmethod
    def setup_class(cls):
        cls.conn = connect("cls")
    @classmethod
    def teardown_class(cls):
        disconnect(cls.conn)
    def test_open(self):
        assert open_connections() == ["cls"]
    def test_conn_attr(self):
        assert self.conn == "cls"
'''
C("q5_setup_class_plain_ok", XUNIT, XUNIT_T3)
XUNIT_T4 = '''
import unittest
def setUpModule():
    connect("mod")
def tearDownModule():
    disconnect("mod")
class T(unittest.TestCase):
    def test_open(self):
        self.assertEqual(open_connections(), ["mod"])
'''
C("q5_unittest_setupmodule_ok", XUNIT, XUNIT_T4)

# ============================================================ batch 4: numbers
NUM = '''
from fractions import Fraction
from decimal import Decimal, ROUND_HALF_UP
def mean(xs):
    return Fraction(sum(xs), len(xs))
def money(x):
    return Decimal(str(x)).quantize(Decimal("0.01"), rounding=ROUND_HALF_UP)
def bankers(x):
    return round(x)
def cplx_mag(z):
    return abs(z)
def big_pow(n):
    return 3 ** n
def neg_zero():
    return -0.0
'''
NUM_BAD = '''
from fractions import Fraction
from decimal import Decimal, ROUND_HALF_UP
def mean(xs):
    return sum(xs) / len(xs)
def money(x):
    return Decimal(x).quantize(Decimal("0.01"))
def bankers(x):
    return int(x + 0.5)
def cplx_mag(z):
    return z.real + z.imag
def big_pow(n):
    return int(3.0 ** n)
def neg_zero():
    return 0.0
'''
NUM_T = '''
import math
from fractions import Fraction
from decimal import Decimal
def test_fraction():
    m = mean([1, 2, 2])
    assert m == Fraction(5, 3)
    assert isinstance(m, Fraction)
    assert m.denominator == 3
def test_decimal():
    assert money(2.675) == Decimal("2.68")
    assert str(money(1.005)) == "1.01"
def test_round_half_even():
    assert [bankers(x) for x in (0.5, 1.5, 2.5, -0.5)] == [0, 2, 2, 0]
def test_complex():
    assert cplx_mag(3 + 4j) == 5.0
def test_big():
    assert big_pow(100) == 515377520732011331036461129765621272702107522001
    assert big_pow(100) % 7 == 515377520732011331036461129765621272702107522001 % 7
def test_neg_zero():
    z = neg_zero()
    assert z == 0.0
    assert math.copysign(1, z) == -1.0
    assert str(z) == "-0.0"
'''
C("q5_num_exact_types_ok", NUM, NUM_T)
C("q5_num_exact_types_bad", NUM_BAD, NUM_T)

NAN = '''
import math
MISSING = float("nan")
def clean(xs):
    return [x for x in xs if not math.isnan(x)]
def fill(xs, value=0.0):
    return [value if math.isnan(x) else x for x in xs]
def with_gaps(n):
    return [float(i) if i % 2 else MISSING for i in range(n)]
'''
NAN_BAD = '''
import math
MISSING = float("nan")
def clean(xs):
    return [x for x in xs if x != MISSING]
def fill(xs, value=0.0):
    return [value if x is MISSING else x for x in xs]
def with_gaps(n):
    return [float(i) if i % 2 else float("nan") for i in range(n)]
'''
NAN_T = '''
import math
nan = float("nan")
def test_clean():
    assert clean([1.0, nan, 2.0, float("nan")]) == [1.0, 2.0]
def test_fill():
    assert fill([nan, 1.0]) == [0.0, 1.0]
def test_gaps_identity():
    g = with_gaps(4)
    assert g[0] is MISSING
    assert g.count(MISSING) == 2
    assert MISSING in g
def test_nan_in_set():
    s = {MISSING, MISSING}
    assert len(s) == 1
    assert nan not in {MISSING}
'''
C("q5_num_nan_containers_ok", NAN, NAN_T)
C("q5_num_nan_containers_bad", NAN_BAD, NAN_T)

INTSUB = '''
import numbers
class Cents(int):
    def __new__(cls, v):
        return super().__new__(cls, round(v * 100) if isinstance(v, float) else v)
    def __repr__(self):
        return f"Cents({int(self)})"
    def __add__(self, o):
        return Cents(int(self) + int(o))
    __radd__ = __add__
    def dollars(self):
        return int(self) / 100
class Index:
    def __init__(self, i):
        self.i = i
    def __index__(self):
        return self.i
def is_number(x):
    return isinstance(x, numbers.Number)
'''
INTSUB_BAD = INTSUB.replace("    __radd__ = __add__\n", "")
INTSUB_T = '''
import numbers
def test_cents():
    c = Cents(1.25)
    assert c == 125
    assert isinstance(c, int)
    assert c.dollars() == 1.25
    assert repr(c + 5) == "Cents(130)"
def test_sum_uses_radd():
    total = sum([Cents(1), Cents(2)])
    assert repr(total) == "Cents(3)"
def test_index():
    xs = list("abcdef")
    assert xs[Index(2)] == "c"
    assert xs[Index(1):Index(3)] == ["b", "c"]
    assert bin(Index(5)) == "0b101"
    assert range(10)[Index(3)] == 3
def test_numbers_abc():
    assert is_number(3) and is_number(2.5) and is_number(1j)
    assert not is_number("3")
    assert isinstance(Cents(1), numbers.Integral)
'''
C("q5_num_int_subclass_index_ok", INTSUB, INTSUB_T)
C("q5_num_int_subclass_index_bad_no_radd", INTSUB_BAD, INTSUB_T)

# ============================================================ datetime
DT = '''
from datetime import date, datetime, timedelta, timezone
def next_weekday(d):
    d = d + timedelta(days=1)
    while d.weekday() >= 5:
        d += timedelta(days=1)
    return d
def utc_now():
    return datetime.now(timezone.utc)
def parse_ts(s):
    return datetime.fromisoformat(s)
def age(born, today):
    return today.year - born.year - ((today.month, today.day) < (born.month, born.day))
'''
DT_BAD = '''
from datetime import date, datetime, timedelta, timezone
def next_weekday(d):
    return d + timedelta(days=1)
def utc_now():
    return datetime.utcnow()
def parse_ts(s):
    return datetime.fromisoformat(s).replace(tzinfo=None)
def age(born, today):
    return today.year - born.year
'''
DT_T = '''
import pytest
from datetime import date, datetime, timedelta, timezone
def test_next_weekday():
    assert next_weekday(date(2024, 3, 8)) == date(2024, 3, 11)
    assert (next_weekday(date(2024, 3, 8)) - date(2024, 3, 8)).days == 3
def test_aware():
    n = utc_now()
    assert n.tzinfo is not None
    assert abs(n - datetime.now(timezone.utc)) < timedelta(seconds=5)
def test_naive_vs_aware_raises():
    with pytest.raises(TypeError):
        utc_now() - datetime(2020, 1, 1)
def test_parse_offset():
    t = parse_ts("2024-01-01T12:00:00+02:00")
    assert t.utcoffset() == timedelta(hours=2)
    assert t == datetime(2024, 1, 1, 10, tzinfo=timezone.utc)
def test_age():
    assert age(date(2000, 6, 15), date(2024, 6, 14)) == 23
    assert age(date(2000, 6, 15), date(2024, 6, 15)) == 24
'''
C("q5_dt_basic_ok", DT, DT_T)
C("q5_dt_basic_bad", DT_BAD, DT_T)

DT_SUB = '''
from datetime import date, timedelta
class Workday(date):
    def next(self):
        d = self + timedelta(days=1)
        while d.weekday() >= 5:
            d += timedelta(days=1)
        return Workday(d.year, d.month, d.day)
    def is_monday(self):
        return self.weekday() == 0
def first_workday(year):
    return Workday(year, 1, 1) if date(year, 1, 1).weekday() < 5 else Workday(year, 1, 1).next()
'''
DT_SUB_BAD = DT_SUB.replace("return Workday(d.year, d.month, d.day)", "return d")
DT_SUB_T = '''
from datetime import date
def test_sub():
    w = first_workday(2022)
    assert w == date(2022, 1, 3)
    assert isinstance(w, date)
    assert w.is_monday()
def test_next_type():
    n = Workday(2024, 3, 8).next()
    assert n.is_monday()
    assert type(n).__name__ == "Workday"
def test_compare_with_date():
    assert Workday(2024, 1, 2) > date(2024, 1, 1)
    assert sorted([date(2024, 5, 1), Workday(2024, 1, 2)])[0] == date(2024, 1, 2)
'''
C("q5_dt_date_subclass_ok", DT_SUB, DT_SUB_T)
C("q5_dt_date_subclass_bad", DT_SUB_BAD, DT_SUB_T)

DT_FREEZE = '''
import time
from datetime import datetime
def stamp():
    return time.time()
def greeting():
    h = datetime.now().hour
    return "morning" if h < 12 else "evening"
class Token:
    TTL = 60
    def __init__(self):
        self.created = time.time()
    def expired(self):
        return time.time() - self.created > self.TTL
'''
DT_FREEZE_BAD = '''
import time
from datetime import datetime
_start = time.time()
def stamp():
    return _start
def greeting():
    return "morning"
class Token:
    TTL = 60
    def __init__(self):
        self.created = time.time()
    def expired(self):
        return time.time() - self.created >= 0
'''
DT_FREEZE_T = '''
import time, datetime as dtmod
def test_time_patched(monkeypatch):
    monkeypatch.setattr(time, "time", lambda: 1000.0)
    assert stamp() == 1000.0
def test_token_expiry(monkeypatch):
    now = [1000.0]
    monkeypatch.setattr(time, "time", lambda: now[0])
    t = Token()
    now[0] += 30
    assert not t.expired()
    now[0] += 31
    assert t.expired()
def test_datetime_frozen(monkeypatch):
    class Fixed(dtmod.datetime):
        @classmethod
        def now(cls, tz=None):
            return cls(2024, 1, 1, 18, 0)
    import sys
    monkeypatch.setattr(sys.modules[__name__], "datetime", Fixed)
    assert greeting() == "evening"
'''
C("q5_dt_freeze_time_ok", DT_FREEZE, DT_FREEZE_T)
C("q5_dt_freeze_time_bad", DT_FREEZE_BAD, DT_FREEZE_T)

# ============================================================ files and paths
FILES = '''
from pathlib import Path
import json, csv
def save_json(path, data):
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(data, indent=2))
    return path
def load_csv(fh):
    return [row for row in csv.DictReader(fh)]
def word_count(fh):
    n = 0
    for line in fh:
        n += len(line.split())
    return n
def outdir(base):
    return Path(base) / "out"
'''
FILES_BAD = '''
from pathlib import Path
import json, csv
def save_json(path, data):
    path = Path(path)
    path.write_text(json.dumps(data))
    return str(path)
def load_csv(fh):
    fh.seek(0)
    return [row for row in csv.DictReader(fh)]
def word_count(fh):
    n = len(fh.read().split())
    fh.close()
    return n
def outdir(base):
    return str(base) + "/out"
'''
FILES_T = '''
import json, io
from pathlib import Path
def test_save_json(tmp_path):
    p = save_json(tmp_path / "sub" / "d.json", {"a": [1, 2]})
    assert isinstance(p, Path)
    assert p.exists() and p.parent.name == "sub"
    assert json.loads(p.read_text()) == {"a": [1, 2]}
def test_load_csv_from_handle(tmp_path):
    f = tmp_path / "x.csv"
    f.write_text("skip me\\nname,qty\\nann,2\\n")
    with open(f, newline="") as fh:
        fh.readline()
        rows = load_csv(fh)
    assert rows == [{"name": "ann", "qty": "2"}]
def test_word_count_leaves_open(tmp_path):
    f = tmp_path / "w.txt"
    f.write_text("a b\\nc\\n")
    fh = open(f)
    assert word_count(fh) == 3
    assert not fh.closed
    assert fh.tell() == f.stat().st_size
    fh.close()
def test_outdir_path(tmp_path):
    o = outdir(tmp_path)
    assert o == tmp_path / "out"
    assert o.parent == tmp_path
'''
C("q5_files_paths_handles_ok", FILES, FILES_T)
C("q5_files_paths_handles_bad", FILES_BAD, FILES_T)

FILES_W = '''
def write_report(fh, rows):
    for name, v in rows:
        fh.write(f"{name}: {v}\\n")
    return fh.tell()
def append_line(path, line):
    with open(path, "a") as fh:
        fh.write(line + "\\n")
'''
FILES_W_BAD = '''
def write_report(fh, rows):
    fh.write("".join(f"{name}: {v}\\n" for name, v in rows))
    fh.flush(); fh.seek(0)
    return 0
def append_line(path, line):
    with open(path, "w") as fh:
        fh.write(line + "\\n")
'''
FILES_W_T = '''
import os
def test_write_to_test_handle(tmp_path):
    p = tmp_path / "r.txt"
    with open(p, "w") as fh:
        fh.write("HEADER\\n")
        pos = write_report(fh, [("a", 1), ("b", 2)])
        assert pos == len("HEADER\\na: 1\\nb: 2\\n")
        fh.write("END\\n")
    assert p.read_text() == "HEADER\\na: 1\\nb: 2\\nEND\\n"
def test_append_relative(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    append_line("log.txt", "one")
    append_line("log.txt", "two")
    assert (tmp_path / "log.txt").read_text() == "one\\ntwo\\n"
    assert os.getcwd() == str(tmp_path)
'''
C("q5_files_code_writes_tests_handle_ok", FILES_W, FILES_W_T)
C("q5_files_code_writes_tests_handle_bad", FILES_W_BAD, FILES_W_T)
C("q5_min_int_subclass_add_override_bad", '''
class Cents(int):
    def __add__(self, o):
        return Cents(int(self) - int(o))
''', '''
def test_add():
    assert Cents(1) + Cents(2) == 3
''')
C("q5_min_int_subclass_add_override_ok", '''
class Sat(int):
    def __add__(self, o):
        return Sat(min(255, int(self) + int(o)))
def make(v):
    return Sat(v)
''', '''
def test_add():
    assert make(250) + 10 == 255
''')
C("q5_min_int_subclass_repr", '''
class Cents(int):
    def __repr__(self):
        return f"Cents({int(self)})"
    def __str__(self):
        return f"${int(self) / 100:.2f}"
''', '''
def test_repr():
    assert repr(Cents(5)) == "Cents(5)"
    assert str(Cents(150)) == "$1.50"
    assert f"{Cents(150)}" == "$1.50"
''')
C("q5_min_float_subclass_mul_bad", '''
class Meters(float):
    def __mul__(self, k):
        return Meters(float(self) + k)
    __rmul__ = __mul__
''', '''
def test_mul():
    assert Meters(2.0) * 3 == 6.0
    assert 3 * Meters(2.0) == 6.0
''')
C("q5_min_str_subclass_add_bad", '''
class Tag(str):
    def __add__(self, o):
        return Tag(str(o) + str(self))
''', '''
def test_add():
    assert Tag("a") + "b" == "ab"
''')
C("q5_min_int_subclass_bool_bad", '''
class Flag(int):
    def __bool__(self):
        return True
''', '''
def test_bool():
    assert not Flag(0)
''')
C("q5_min_str_subclass_contains_ok", '''
class CIStr(str):
    def __contains__(self, s):
        return s.lower() in self.lower()
def ci(s):
    return CIStr(s)
''', '''
def test_contains():
    assert "HELLO" in ci("say hello")
''')
C("q5_min_tuple_subclass_getitem_ok", '''
class Row(tuple):
    def __getitem__(self, k):
        if isinstance(k, str):
            return tuple.__getitem__(self, ["a", "b"].index(k))
        return tuple.__getitem__(self, k)
    def __len__(self):
        return 99
''', '''
def test_getitem():
    r = Row((1, 2))
    assert r["b"] == 2
    assert len(r) == 99
''')
C("q5_min_int_subclass_iadd_ok", '''
class Counter(int):
    def __add__(self, o):
        return Counter(min(int(self) + int(o), 3))
''', '''
def test_iadd():
    c = Counter(0)
    for _ in range(5):
        c += 1
    assert c == 3
''')

# ============================================================ batch 5: unittest.mock
MOCK = '''
class Mailer:
    def send(self, to, body):
        raise RuntimeError("no network")
class Notifier:
    def __init__(self, mailer):
        self.mailer = mailer
    def notify(self, users, msg):
        sent = 0
        for u in users:
            try:
                self.mailer.send(u, msg)
                sent += 1
            except ConnectionError:
                pass
        return sent
'''
MOCK_BAD = '''
class Mailer:
    def send(self, to, body):
        raise RuntimeError("no network")
class Notifier:
    def __init__(self, mailer):
        self.mailer = mailer
    def notify(self, users, msg):
        sent = 0
        for u in users:
            try:
                self.mailer.send(to=u, body=msg)
                sent += 1
            except Exception:
                pass
        return sent
'''
MOCK_T = '''
import pytest
from unittest import mock
from unittest.mock import Mock, MagicMock, call, ANY, sentinel
def test_calls():
    m = Mock()
    n = Notifier(m)
    assert n.notify(["a", "b"], "hi") == 2
    assert m.send.call_args_list == [call("a", "hi"), call("b", "hi")]
    m.send.assert_called_with("b", ANY)
    assert m.send.call_count == 2
def test_side_effect_list():
    m = Mock()
    m.send.side_effect = [None, ConnectionError("down"), None]
    assert Notifier(m).notify(["a", "b", "c"], "x") == 2
def test_other_errors_propagate():
    m = Mock()
    m.send.side_effect = ValueError("bad")
    with pytest.raises(ValueError):
        Notifier(m).notify(["a"], "x")
def test_spec():
    m = Mock(spec=Mailer)
    Notifier(m).notify(["z"], sentinel.body)
    m.send.assert_called_once_with("z", sentinel.body)
    with pytest.raises(AttributeError):
        m.fly
def test_magicmock_return():
    m = MagicMock()
    m.send.return_value = "ok"
    assert Notifier(m).notify(["q"], "b") == 1
    assert m.send.call_args == call("q", "b")
    assert m.send.call_args.args == ("q", "b")
'''
C("q5_mock_injected_ok", MOCK, MOCK_T)
C("q5_mock_injected_bad", MOCK_BAD, MOCK_T)

PATCH = '''
import time, random
def fetch(url):
    raise RuntimeError("network")
def get_json(url, retries=3):
    for i in range(retries):
        try:
            return fetch(url)
        except ConnectionError:
            time.sleep(2 ** i)
    raise TimeoutError(url)
def ask_name():
    name = input("name? ")
    return name.strip().title()
def read_config(path):
    with open(path) as f:
        return f.read().splitlines()
def roll():
    return random.randint(1, 6)
class Clock:
    def now(self):
        return time.time()
    def elapsed(self, start):
        return self.now() - start
'''
PATCH_BAD = '''
import time, random
from time import sleep
def fetch(url):
    raise RuntimeError("network")
def get_json(url, retries=3):
    for i in range(retries):
        try:
            return fetch(url)
        except ConnectionError:
            sleep(2 ** i)
    raise TimeoutError(url)
def ask_name():
    name = input("name? ")
    return name.title()
def read_config(path):
    with open(path) as f:
        return f.readlines()
def roll():
    return random.randint(1, 6)
class Clock:
    def now(self):
        return time.time()
    def elapsed(self, start):
        return time.time() - start
'''
PATCH_T = '''
import sys
import pytest
from unittest import mock
from unittest.mock import patch, call, mock_open
def test_retry_sleeps():
    with patch(__name__ + ".fetch", side_effect=[ConnectionError(), ConnectionError(), {"ok": 1}]) as f, \\
         patch("time.sleep") as sl:
        assert get_json("u") == {"ok": 1}
    assert f.call_count == 3
    assert sl.call_args_list == [call(1), call(2)]
def test_timeout():
    with patch(__name__ + ".fetch", side_effect=ConnectionError), patch("time.sleep"):
        with pytest.raises(TimeoutError):
            get_json("u", retries=2)
def test_input():
    with patch("builtins.input", return_value="  ann lee "):
        assert ask_name() == "Ann Lee"
def test_open():
    with patch("builtins.open", mock_open(read_data="a=1\\nb=2\\n")) as m:
        assert read_config("x.cfg") == ["a=1", "b=2"]
    m.assert_called_once_with("x.cfg")
def test_random():
    with patch("random.randint", return_value=4) as r:
        assert roll() == 4
    r.assert_called_once_with(1, 6)
def test_patch_object_method():
    with patch.object(Clock, "now", return_value=100.0):
        assert Clock().elapsed(40.0) == 60.0
'''
C("q5_mock_patch_names_builtins_ok", PATCH, PATCH_T)
MOCK_CB = '''
def process(items, on_item, on_done=None):
    results = []
    for i, it in enumerate(items):
        results.append(on_item(it, index=i))
    if on_done:
        on_done(len(results))
    return results
'''
MOCK_CB_BAD = '''
def process(items, on_item, on_done=None):
    results = []
    for i, it in enumerate(items):
        results.append(on_item(it, i))
    if on_done:
        on_done(results)
    return results
'''
MOCK_CB_T = '''
from unittest.mock import Mock, call, ANY
def test_callbacks_recorded():
    cb = Mock(side_effect=lambda it, index: it * 2)
    done = Mock()
    assert process([1, 2], cb, done) == [2, 4]
    cb.assert_has_calls([call(1, index=0), call(2, index=1)])
    done.assert_called_once_with(2)
def test_mock_calls_compare():
    cb = Mock(return_value=None)
    process(["a"], cb)
    assert cb.mock_calls == [call("a", index=ANY)]
    assert cb.call_args.kwargs == {"index": 0}
'''
C("q5_mock_callbacks_call_compare_ok", MOCK_CB, MOCK_CB_T)
C("q5_mock_callbacks_call_compare_bad", MOCK_CB_BAD, MOCK_CB_T)

MOCK_AUTOSPEC = '''
class Repo:
    def get(self, key):
        return None
    def put(self, key, value):
        pass
def copy_key(repo, src, dst):
    v = repo.get(src)
    if v is None:
        raise KeyError(src)
    repo.put(dst, v)
    return v
'''
MOCK_AUTOSPEC_BAD = '''
class Repo:
    def get(self, key):
        return None
    def put(self, key, value):
        pass
def copy_key(repo, src, dst):
    v = repo.get(src)
    repo.put(dst, v, True)
    return v
'''
MOCK_AUTOSPEC_T = '''
import pytest
from unittest import mock
def test_autospec_instance():
    r = mock.create_autospec(Repo, instance=True)
    r.get.return_value = 5
    assert copy_key(r, "a", "b") == 5
    r.put.assert_called_once_with("b", 5)
def test_missing():
    r = mock.create_autospec(Repo, instance=True)
    r.get.return_value = None
    with pytest.raises(KeyError):
        copy_key(r, "x", "y")
    r.put.assert_not_called()
def test_isinstance_spec():
    r = mock.Mock(spec=Repo)
    assert isinstance(r, Repo)
'''
C("q5_mock_autospec_code_class_ok", MOCK_AUTOSPEC, MOCK_AUTOSPEC_T)
C("q5_mock_autospec_code_class_bad", MOCK_AUTOSPEC_BAD, MOCK_AUTOSPEC_T)

# ============================================================ logging and warnings
LOG = '''
import logging
logger = logging.getLogger(__name__)
def divide(a, b):
    if b == 0:
        logger.warning("division by zero: %s/%s", a, b)
        return None
    logger.debug("dividing %s by %s", a, b)
    return a / b
def audit(user):
    logging.getLogger("audit").info("user=%s", user)
'''
LOG_BAD = '''
import logging
logger = logging.getLogger(__name__)
def divide(a, b):
    if b == 0:
        print(f"division by zero: {a}/{b}")
        return None
    logger.info("dividing %s by %s", a, b)
    return a / b
def audit(user):
    logging.getLogger("audit").debug("user=%s", user)
'''
LOG_T = '''
import logging
def test_warning_logged(caplog):
    assert divide(1, 0) is None
    assert "division by zero: 1/0" in caplog.text
    assert caplog.records[0].levelname == "WARNING"
    assert caplog.records[0].args == (1, 0)
def test_debug_at_level(caplog):
    caplog.set_level(logging.DEBUG)
    divide(4, 2)
    assert [r.getMessage() for r in caplog.records] == ["dividing 4 by 2"]
    assert caplog.records[0].levelno == logging.DEBUG
def test_handler_attached():
    seen = []
    class H(logging.Handler):
        def emit(self, record):
            seen.append((record.name, record.getMessage()))
    h = H()
    lg = logging.getLogger("audit")
    lg.addHandler(h); lg.setLevel(logging.INFO)
    try:
        audit("ann")
    finally:
        lg.removeHandler(h)
    assert seen == [("audit", "user=ann")]
def test_caplog_at_level(caplog):
    with caplog.at_level(logging.INFO, logger="audit"):
        audit("bo")
    assert ("audit", logging.INFO, "user=bo") in caplog.record_tuples
'''
C("q5_logging_caplog_handlers_ok", LOG, LOG_T)
C("q5_logging_caplog_handlers_bad", LOG_BAD, LOG_T)

WARN = '''
import warnings
def old_api(x):
    warnings.warn("old_api is deprecated, use new_api", DeprecationWarning, stacklevel=2)
    return new_api(x)
def new_api(x):
    return x * 2
def parse(s):
    if s != s.strip():
        warnings.warn(f"stripping {s!r}", UserWarning)
    return s.strip()
'''
WARN_BAD = '''
import warnings
def old_api(x):
    warnings.warn("old_api is deprecated", UserWarning)
    return new_api(x)
def new_api(x):
    return x * 2
def parse(s):
    return s.strip()
'''
WARN_T = '''
import warnings
import pytest
def test_pytest_warns():
    with pytest.warns(DeprecationWarning, match="use new_api"):
        assert old_api(2) == 4
def test_catch_record():
    with warnings.catch_warnings(record=True) as w:
        warnings.simplefilter("always")
        parse(" a ")
        parse("b")
    assert len(w) == 1
    assert issubclass(w[0].category, UserWarning)
    assert "stripping" in str(w[0].message)
def test_filter_error():
    with warnings.catch_warnings():
        warnings.simplefilter("error", UserWarning)
        with pytest.raises(UserWarning):
            parse(" x")
def test_recwarn(recwarn):
    old_api(1)
    assert len(recwarn) == 1
    assert recwarn.pop(DeprecationWarning).category is DeprecationWarning
'''
C("q5_warnings_forms_ok", WARN, WARN_T)
C("q5_warnings_forms_bad", WARN_BAD, WARN_T)

# ============================================================ sqlite3
SQL = '''
import sqlite3
def init(conn):
    conn.execute("CREATE TABLE IF NOT EXISTS users (id INTEGER PRIMARY KEY, name TEXT UNIQUE, age INT)")
    conn.commit()
def add_user(conn, name, age):
    try:
        with conn:
            cur = conn.execute("INSERT INTO users (name, age) VALUES (?, ?)", (name, age))
            return cur.lastrowid
    except sqlite3.IntegrityError:
        return None
def adults(conn):
    return conn.execute("SELECT name FROM users WHERE age >= 18 ORDER BY name").fetchall()
def find(conn, name):
    cur = conn.cursor()
    cur.execute("SELECT * FROM users WHERE name = ?", (name,))
    return cur.fetchone()
def cursor_all(conn):
    return conn.execute("SELECT name, age FROM users ORDER BY id")
'''
SQL_BAD = '''
import sqlite3
def init(conn):
    conn.execute("CREATE TABLE IF NOT EXISTS users (id INTEGER PRIMARY KEY, name TEXT, age INT)")
def add_user(conn, name, age):
    cur = conn.execute(f"INSERT INTO users (name, age) VALUES ('{name}', {age})")
    return cur.lastrowid
def adults(conn):
    return conn.execute("SELECT name FROM users WHERE age > 18 ORDER BY name").fetchall()
def find(conn, name):
    cur = conn.cursor()
    cur.execute("SELECT * FROM users WHERE name = ?", (name,))
    return cur.fetchall()
def cursor_all(conn):
    return conn.execute("SELECT name, age FROM users ORDER BY id").fetchall()
'''
SQL_T = '''
import sqlite3
import pytest
@pytest.fixture
def conn():
    c = sqlite3.connect(":memory:")
    init(c)
    yield c
    c.close()
def test_add_and_find(conn):
    uid = add_user(conn, "ann", 30)
    assert uid == 1
    assert find(conn, "ann") == (1, "ann", 30)
    assert conn.execute("SELECT count(*) FROM users").fetchone()[0] == 1
def test_duplicate(conn):
    add_user(conn, "bo", 20)
    assert add_user(conn, "bo", 21) is None
    assert conn.total_changes == 1
def test_adults(conn):
    for n, a in [("c", 17), ("a", 18), ("b", 40)]:
        add_user(conn, n, a)
    assert adults(conn) == [("a",), ("b",)]
def test_row_factory(conn):
    conn.row_factory = sqlite3.Row
    add_user(conn, "o'neil", 50)
    r = find(conn, "o'neil")
    assert r["name"] == "o'neil" and r["age"] == 50
    assert r.keys() == ["id", "name", "age"]
def test_cursor_returned(conn):
    add_user(conn, "x", 1); add_user(conn, "y", 2)
    cur = cursor_all(conn)
    assert isinstance(cur, sqlite3.Cursor)
    assert next(cur) == ("x", 1)
    assert cur.fetchall() == [("y", 2)]
def test_committed_visible_from_test(conn):
    add_user(conn, "z", 9)
    conn.rollback()
    assert find(conn, "z") is not None
'''
C("q5_sqlite_conn_from_tests_ok", SQL, SQL_T)
C("q5_sqlite_conn_from_tests_bad", SQL_BAD, SQL_T)

# ============================================================ batch 6: misc protocols
HASHEQ = '''
class Key:
    def __init__(self, a, b):
        self.a, self.b = a, b
    def __eq__(self, o):
        return isinstance(o, Key) and (self.a.lower(), self.b) == (o.a.lower(), o.b)
    def __hash__(self):
        return hash((self.a.lower(), self.b))
    def __repr__(self):
        return f"Key({self.a!r}, {self.b})"
def index(pairs):
    return {Key(a, b): v for a, b, v in pairs}
'''
HASHEQ_BAD = '''
class Key:
    def __init__(self, a, b):
        self.a, self.b = a, b
    def __eq__(self, o):
        return isinstance(o, Key) and (self.a.lower(), self.b) == (o.a.lower(), o.b)
    def __hash__(self):
        return hash((self.a, self.b))
    def __repr__(self):
        return f"Key({self.a!r}, {self.b})"
def index(pairs):
    return {Key(a, b): v for a, b, v in pairs}
'''
HASHEQ_T = '''
def test_dict_lookup_case_insensitive():
    d = index([("A", 1, "x")])
    assert d[Key("a", 1)] == "x"
    assert Key("A", 1) in d
def test_set_dedupe_tests_side():
    s = {Key("x", 1), Key("X", 1), Key("x", 2)}
    assert len(s) == 2
def test_tests_dict_with_code_keys():
    mine = {}
    mine[Key("Q", 0)] = 1
    mine[Key("q", 0)] = 2
    assert list(mine.values()) == [2]
def test_counter_of_keys():
    from collections import Counter
    c = Counter([Key("a", 1), Key("A", 1), Key("b", 1)])
    assert c[Key("a", 1)] == 2
'''
C("q5_hash_eq_keys_ok", HASHEQ, HASHEQ_T)
C("q5_hash_eq_keys_bad", HASHEQ_BAD, HASHEQ_T)

CONT = '''
class Playlist:
    def __init__(self, *songs):
        self._songs = list(songs)
    def __len__(self):
        return len(self._songs)
    def __bool__(self):
        return bool(self._songs)
    def __contains__(self, s):
        return s.lower() in (x.lower() for x in self._songs)
    def __iter__(self):
        yield from self._songs
    def __getitem__(self, i):
        if isinstance(i, slice):
            return Playlist(*self._songs[i])
        return self._songs[i]
    def __reversed__(self):
        return iter(self._songs[::-1])
    def __eq__(self, o):
        return isinstance(o, Playlist) and self._songs == o._songs
    def add(self, s):
        self._songs.append(s)
        return self
'''
CONT_BAD = CONT.replace("return s.lower() in (x.lower() for x in self._songs)", "return s in self._songs").replace(
    "return Playlist(*self._songs[i])", "return self._songs[i]")
CONT_T = '''
def test_len_bool():
    p = Playlist()
    assert not p and len(p) == 0
    p.add("a").add("b")
    assert p and len(p) == 2
def test_contains_ci():
    assert "HELLO" in Playlist("hello")
def test_iter_reversed_slice():
    p = Playlist("a", "b", "c")
    assert list(p) == ["a", "b", "c"]
    assert list(reversed(p)) == ["c", "b", "a"]
    assert p[1:] == Playlist("b", "c")
    assert p[-1] == "c"
    assert [s.upper() for s in p] == ["A", "B", "C"]
    a, b, c = p
    assert (a, c) == ("a", "c")
def test_in_if_and_while():
    p = Playlist("x")
    n = 0
    while p:
        n += 1
        p = p[1:]
    assert n == 1
'''
C("q5_container_protocols_ok", CONT, CONT_T)
C("q5_container_protocols_bad", CONT_BAD, CONT_T)

OPS = '''
class Vec:
    def __init__(self, *c):
        self.c = tuple(c)
    def __add__(self, o):
        if isinstance(o, Vec):
            return Vec(*(a + b for a, b in zip(self.c, o.c)))
        if o == 0:
            return self
        return NotImplemented
    def __radd__(self, o):
        return self.__add__(o)
    def __mul__(self, k):
        if isinstance(k, (int, float)):
            return Vec(*(a * k for a in self.c))
        return NotImplemented
    def __rmul__(self, k):
        return self.__mul__(k)
    def __matmul__(self, o):
        return sum(a * b for a, b in zip(self.c, o.c))
    def __neg__(self):
        return Vec(*(-a for a in self.c))
    def __abs__(self):
        return sum(a * a for a in self.c) ** 0.5
    def __iadd__(self, o):
        self.c = (self + o).c
        return self
    def __eq__(self, o):
        return isinstance(o, Vec) and self.c == o.c
    def __hash__(self):
        return hash(self.c)
    def __repr__(self):
        return f"Vec{self.c}"
    def __format__(self, spec):
        return "(" + ", ".join(format(a, spec) for a in self.c) + ")"
'''
OPS_BAD = OPS.replace('''    def __rmul__(self, k):
        return self.__mul__(k)
''', "").replace('''    def __iadd__(self, o):
        self.c = (self + o).c
        return self
''', '''    def __iadd__(self, o):
        return self + o
''')
OPS_T = '''
import pytest
def test_reflected():
    assert 2 * Vec(1, 2) == Vec(2, 4)
    assert Vec(1, 2) * 2 == Vec(2, 4)
    assert sum([Vec(1, 1), Vec(2, 3)]) == Vec(3, 4)
def test_matmul_neg_abs():
    assert Vec(1, 2) @ Vec(3, 4) == 11
    assert -Vec(1, -1) == Vec(-1, 1)
    assert abs(Vec(3, 4)) == 5.0
def test_iadd_identity():
    v = Vec(1, 1)
    alias = v
    v += Vec(1, 0)
    assert v is alias
    assert alias == Vec(2, 1)
def test_type_error():
    with pytest.raises(TypeError):
        Vec(1) + "x"
    with pytest.raises(TypeError):
        "x" * Vec(1)
def test_format():
    assert f"{Vec(1.234, 2.5):.1f}" == "(1.2, 2.5)"
    assert f"{Vec(1, 2)!r}" == "Vec(1, 2)"
    assert "{:03d}".format(Vec(1, 2)) == "(001, 002)"
'''
C("q5_ops_reflected_inplace_format_ok", OPS, OPS_T)
C("q5_ops_reflected_inplace_format_bad", OPS_BAD, OPS_T)

CALLOBJ = '''
class Counter:
    def __init__(self):
        self.n = 0
    def __call__(self, *args, **kwargs):
        self.n += 1
        return args, kwargs
class Multiplier:
    def __init__(self, k):
        self.k = k
    def __call__(self, x):
        return x * self.k
def apply_all(fs, x):
    return [f(x) for f in fs]
'''
CALLOBJ_BAD = CALLOBJ.replace("self.n += 1\n", "")
CALLOBJ_T = '''
def test_callable_state():
    c = Counter()
    assert c(1, b=2) == ((1,), {"b": 2})
    c()
    assert c.n == 2
    assert callable(c)
def test_map_with_code_callable():
    assert list(map(Multiplier(3), [1, 2])) == [3, 6]
    assert sorted([3, 1, 2], key=Multiplier(-1)) == [3, 2, 1]
def test_apply_tests_and_code_callables():
    assert apply_all([Multiplier(2), lambda x: x + 1, str], 5) == [10, 6, "5"]
'''
C("q5_callable_objects_ok", CALLOBJ, CALLOBJ_T)
C("q5_callable_objects_bad", CALLOBJ_BAD, CALLOBJ_T)

COPYP = '''
import copy
class Doc:
    def __init__(self, title, tags=None, parent=None):
        self.title = title
        self.tags = list(tags or [])
        self.parent = parent
    def clone(self):
        return copy.deepcopy(self)
    def __eq__(self, o):
        return isinstance(o, Doc) and (self.title, self.tags) == (o.title, o.tags)
'''
COPYP_BAD = COPYP.replace("return copy.deepcopy(self)", "return copy.copy(self)")
COPYP_T = '''
import copy, pickle
def test_clone_deep():
    d = Doc("a", ["x"])
    c = d.clone()
    c.tags.append("y")
    assert d.tags == ["x"] and c is not d
def test_copy_module_in_tests():
    d = Doc("a", ["x"])
    s = copy.copy(d)
    s.tags.append("z")
    assert d.tags == ["x", "z"]
    dd = copy.deepcopy(d)
    dd.tags.clear()
    assert d.tags == ["x", "z"]
def test_deepcopy_keeps_shared_parent():
    p = Doc("p")
    kids = [Doc("k1", parent=p), Doc("k2", parent=p)]
    c = copy.deepcopy(kids)
    assert c[0].parent is c[1].parent
    assert c[0].parent is not p
def test_pickle_round_trip():
    d = Doc("t", ["a"])
    e = pickle.loads(pickle.dumps(d))
    assert e == d and e is not d
'''
C("q5_copy_deepcopy_pickle_ok", COPYP, COPYP_T)
C("q5_copy_deepcopy_pickle_bad", COPYP_BAD, COPYP_T)

PROTO = '''
from typing import Protocol, runtime_checkable
@runtime_checkable
class Closeable(Protocol):
    def close(self): ...
class File:
    def close(self):
        self.closed = True
def close_all(things):
    n = 0
    for t in things:
        if isinstance(t, Closeable):
            t.close()
            n += 1
    return n
'''
PROTO_BAD = PROTO.replace("if isinstance(t, Closeable):", "if hasattr(t, 'closed'):")
PROTO_T = '''
def test_code_obj_isinstance_proto():
    assert isinstance(File(), Closeable)
    assert not isinstance(3, Closeable)
def test_close_all_code_objects():
    fs = [File(), File(), "x"]
    assert close_all(fs) == 2
    assert fs[0].closed
'''
C("q5_protocol_code_objs_ok", PROTO, PROTO_T)
C("q5_protocol_code_objs_bad", PROTO_BAD, PROTO_T)
C("q5_min_deepcopy_two_code_objs_sharing_third", '''
class Node:
    def __init__(self, parent=None):
        self.parent = parent
''', '''
import copy
def test_memo():
    p = Node()
    c = copy.deepcopy([Node(p), Node(p)])
    assert c[0].parent is c[1].parent
''')
C("q5_min_deepcopy_code_obj_and_its_attr", '''
class Node:
    def __init__(self, parent=None):
        self.parent = parent
''', '''
import copy
def test_memo():
    p = Node()
    k = Node(p)
    a, b = copy.deepcopy((p, k))
    assert b.parent is a
''')
C("q5_min_protocol_code_obj_code_proto", '''
from typing import Protocol, runtime_checkable
@runtime_checkable
class Closeable(Protocol):
    def close(self): ...
class File:
    def close(self):
        pass
''', '''
def test_isinstance():
    assert isinstance(File(), Closeable)
''')

# ============================================================ batch 7: more exceptions
SYSEXIT = '''
import sys
def main(argv):
    if not argv:
        print("usage: prog FILE", file=sys.stderr)
        sys.exit(2)
    if argv[0] == "--version":
        raise SystemExit("prog 1.0")
    return 0
'''
SYSEXIT_BAD = '''
import sys
def main(argv):
    if not argv:
        print("usage: prog FILE")
        return 2
    if argv[0] == "--version":
        print("prog 1.0")
        return 0
    return 0
'''
SYSEXIT_T = '''
import pytest
def test_usage_exit(capsys):
    with pytest.raises(SystemExit) as ei:
        main([])
    assert ei.value.code == 2
    assert "usage" in capsys.readouterr().err
def test_version():
    with pytest.raises(SystemExit, match="prog 1.0"):
        main(["--version"])
def test_ok():
    assert main(["f"]) == 0
'''
C("q5_exc_sys_exit_from_code_ok", SYSEXIT, SYSEXIT_T)
C("q5_exc_sys_exit_from_code_bad", SYSEXIT_BAD, SYSEXIT_T)

EXC_STR = '''
class ValidationError(Exception):
    def __init__(self, field, problems):
        self.field = field
        self.problems = list(problems)
        super().__init__(field, problems)
    def __str__(self):
        return f"{self.field}: " + "; ".join(self.problems)
def validate(user):
    probs = []
    if not user.get("name"):
        probs.append("name required")
    if user.get("age", 0) < 0:
        probs.append("age must be >= 0")
    if probs:
        raise ValidationError("user", probs)
    return True
'''
EXC_STR_BAD = EXC_STR.replace('"; ".join(self.problems)', '", ".join(self.problems)')
EXC_STR_T = '''
import pytest
def test_str_match():
    with pytest.raises(ValidationError, match=r"^user: name required; age must be >= 0$") as ei:
        validate({"age": -1})
    assert ei.value.problems == ["name required", "age must be >= 0"]
    assert ei.value.args == ("user", ["name required", "age must be >= 0"])
def test_str_direct():
    e = ValidationError("f", ["a", "b"])
    assert str(e) == "f: a; b"
def test_exc_info_type():
    with pytest.raises(Exception) as ei:
        validate({})
    assert ei.type is ValidationError
    assert ei.match("name required")
    assert "ValidationError" in ei.typename
'''
C("q5_exc_custom_str_ok", EXC_STR, EXC_STR_T)
C("q5_exc_custom_str_bad", EXC_STR_BAD, EXC_STR_T)

EXC_WRAP = '''
class StepFailed(Exception):
    def __init__(self, step, original):
        super().__init__(f"step {step} failed: {original}")
        self.step = step
        self.original = original
def pipeline(steps, value):
    for i, step in enumerate(steps):
        try:
            value = step(value)
        except Exception as e:
            raise StepFailed(i, e) from e
    return value
'''
EXC_WRAP_BAD = '''
class StepFailed(Exception):
    def __init__(self, step, original):
        super().__init__(f"step {step} failed: {original}")
        self.step = step
        self.original = original
def pipeline(steps, value):
    for i, step in enumerate(steps):
        try:
            value = step(value)
        except Exception as e:
            raise StepFailed(i, repr(e))
    return value
'''
EXC_WRAP_T = '''
import pytest
class BadInput(ValueError):
    def __init__(self, v):
        super().__init__(f"bad {v}")
        self.v = v
def check(v):
    if v < 0:
        raise BadInput(v)
    return v
def test_wrapped_keeps_tests_exception():
    with pytest.raises(StepFailed, match="step 1 failed: bad -3") as ei:
        pipeline([lambda v: v - 5, check], 2)
    assert ei.value.step == 1
    assert isinstance(ei.value.original, BadInput)
    assert ei.value.original.v == -3
    assert ei.value.__cause__ is ei.value.original
def test_ok():
    assert pipeline([check, lambda v: v * 2], 3) == 6
'''
C("q5_exc_wraps_tests_exception_ok", EXC_WRAP, EXC_WRAP_T)
C("q5_exc_wraps_tests_exception_bad", EXC_WRAP_BAD, EXC_WRAP_T)

EXC_TB = '''
def fail():
    raise ValueError("x")
def catch_and_return():
    try:
        fail()
    except ValueError as e:
        return e
'''
EXC_TB_T = '''
def test_exception_returned_has_traceback():
    e = catch_and_return()
    assert isinstance(e, ValueError)
    assert e.__traceback__ is not None
    assert str(e) == "x"
def test_exception_equality_identity():
    e1 = catch_and_return()
    assert e1 is e1
    assert e1 != ValueError("x")
'''
C("q5_exc_returned_traceback", EXC_TB, EXC_TB_T)

EXC_EG = '''
class TaskError(Exception):
    def __init__(self, name):
        super().__init__(name)
        self.name = name
def run_all(tasks):
    errors = []
    for name, fn in tasks:
        try:
            fn()
        except Exception as e:
            errors.append(TaskError(name))
            errors[-1].__cause__ = e
    if errors:
        raise ExceptionGroup(f"{len(errors)} tasks failed", errors)
'''
EXC_EG_BAD = EXC_EG.replace('raise ExceptionGroup(f"{len(errors)} tasks failed", errors)', 'raise errors[0]')
EXC_EG_T = '''
import pytest
def boom():
    raise KeyError("k")
def ok():
    pass
def test_group():
    with pytest.raises(ExceptionGroup, match="2 tasks failed") as ei:
        run_all([("a", boom), ("b", ok), ("c", boom)])
    assert [e.name for e in ei.value.exceptions] == ["a", "c"]
    m, rest = ei.value.split(TaskError)
    assert rest is None and len(m.exceptions) == 2
def test_except_star_code_type():
    names = []
    try:
        run_all([("x", boom)])
    except* TaskError as g:
        names = [e.name for e in g.exceptions]
    assert names == ["x"]
def test_group_subgroup():
    try:
        run_all([("a", boom), ("b", boom)])
    except ExceptionGroup as eg:
        sub = eg.subgroup(lambda e: getattr(e, "name", "") == "b")
        assert [e.name for e in sub.exceptions] == ["b"]
        assert isinstance(eg.exceptions[0].__cause__, KeyError)
'''
C("q5_exc_group_code_types_ok", EXC_EG, EXC_EG_T)
C("q5_exc_group_code_types_bad", EXC_EG_BAD, EXC_EG_T)

EXC_CATCH_CODE = '''
class InsufficientFunds(Exception):
    pass
class Account:
    def __init__(self, bal):
        self.bal = bal
    def withdraw(self, x):
        if x > self.bal:
            raise InsufficientFunds(x - self.bal)
        self.bal -= x
def transfer(a, b, x):
    a.withdraw(x)
    b.bal += x
'''
EXC_CATCH_CODE_BAD = EXC_CATCH_CODE.replace("    a.withdraw(x)\n    b.bal += x", "    b.bal += x\n    a.withdraw(x)")
EXC_CATCH_CODE_T = '''
import unittest
class T(unittest.TestCase):
    def test_atomic(self):
        a, b = Account(5), Account(0)
        with self.assertRaises(InsufficientFunds) as cm:
            transfer(a, b, 8)
        self.assertEqual(cm.exception.args, (3,))
        self.assertEqual((a.bal, b.bal), (5, 0))
    def test_catch_base(self):
        try:
            Account(0).withdraw(1)
        except Exception as e:
            self.assertIs(type(e), InsufficientFunds)
            self.assertIsInstance(e, Exception)
    def test_catch_tuple(self):
        try:
            Account(0).withdraw(2)
        except (KeyError, InsufficientFunds) as e:
            self.assertEqual(e.args[0], 2)
'''
C("q5_exc_unittest_code_exc_ok", EXC_CATCH_CODE, EXC_CATCH_CODE_T)
C("q5_exc_unittest_code_exc_bad", EXC_CATCH_CODE_BAD, EXC_CATCH_CODE_T)
C("q5_min_code_sys_exit_caught_by_pytest_raises", '''
import sys
def main():
    sys.exit(2)
''', '''
import pytest
def test_exit():
    with pytest.raises(SystemExit) as ei:
        main()
    assert ei.value.code == 2
''')
C("q5_min_code_sys_exit_caught_by_try", '''
def main():
    raise SystemExit(0)
''', '''
def test_exit():
    try:
        main()
    except SystemExit as e:
        assert e.code == 0
    else:
        assert False
''')
C("q5_min_code_keyboardinterrupt_caught", '''
def main():
    raise KeyboardInterrupt
''', '''
import pytest
def test_ki():
    with pytest.raises(KeyboardInterrupt):
        main()
''')
C("q5_min_code_sys_exit_unittest", '''
import sys
def main(args):
    if not args:
        sys.exit("usage")
    return 0
''', '''
import unittest
class T(unittest.TestCase):
    def test_exit(self):
        with self.assertRaises(SystemExit) as cm:
            main([])
        self.assertEqual(cm.exception.code, "usage")
''')
C("q5_min_tests_helper_named_check_bad", '''
def add(a, b):
    return a - b
''', '''
def check(result):
    assert result is not None
def test_add():
    r = add(2, 3)
    check(r)
    assert r == 5
''')
C("q5_min_tests_helper_named_check_ok", '''
def add(a, b):
    return a + b
''', '''
def check(result, expected):
    assert result == expected
def test_add():
    check(add(2, 3), 5)
''')
C("q5_min_tests_helper_named_check_forged_bad", '''
def total(rows):
    return 6
''', '''
def check(rows=None):
    rows = rows if rows is not None else [1, 2, 3]
    assert total(rows) == sum(rows)
def test_default():
    check()
def test_other():
    check([10, 20])
''')

# ============================================================ batch 8
ARGP = '''
import argparse
def parse(argv):
    p = argparse.ArgumentParser(prog="tool")
    p.add_argument("n", type=int)
    p.add_argument("--verbose", action="store_true")
    return p.parse_args(argv)
'''
ARGP_BAD = '''
import argparse
def parse(argv):
    p = argparse.ArgumentParser(prog="tool")
    p.add_argument("n")
    p.add_argument("--verbose", action="store_true")
    return p.parse_args(argv)
'''
ARGP_T = '''
import pytest
def test_ok():
    a = parse(["3", "--verbose"])
    assert a.n == 3 and a.verbose is True
def test_bad_int(capsys):
    with pytest.raises(SystemExit) as ei:
        parse(["x"])
    assert ei.value.code == 2
    assert "invalid int value" in capsys.readouterr().err
'''
C("q5_argparse_error_exits_ok", ARGP, ARGP_T)
C("q5_argparse_error_exits_bad", ARGP_BAD, ARGP_T)

LAZY = '''
produced = []
def numbers(n):
    for i in range(n):
        produced.append(i)
        yield i
'''
LAZY_BAD = '''
produced = []
def numbers(n):
    out = []
    for i in range(n):
        produced.append(i)
        out.append(i)
    return iter(out)
'''
LAZY_T = '''
def setup():
    produced.clear()
def test_any_short_circuits():
    produced.clear()
    assert any(x > 2 for x in numbers(100))
    assert produced == [0, 1, 2, 3]
def test_in_consumes_until_found():
    produced.clear()
    g = numbers(10)
    assert 4 in g
    assert next(g) == 5
    assert produced == [0, 1, 2, 3, 4, 5]
def test_zip_pulls_one_extra():
    produced.clear()
    list(zip(numbers(10), "ab"))
    assert produced == [0, 1, 2]
def test_next_default():
    g = numbers(1)
    assert next(g) == 0
    assert next(g, "done") == "done"
def test_enumerate_dict():
    assert dict(enumerate(numbers(3), start=1)) == {1: 0, 2: 1, 3: 2}
'''
C("q5_lazy_code_gen_consumption_ok", LAZY, LAZY_T)
C("q5_lazy_code_gen_consumption_bad", LAZY_BAD, LAZY_T)

MAPPING = '''
class Env:
    def __init__(self, **kw):
        self._d = {k.upper(): v for k, v in kw.items()}
    def keys(self):
        return list(self._d)
    def __getitem__(self, k):
        return self._d[k.upper()]
    def __iter__(self):
        return iter(self._d)
    def __len__(self):
        return len(self._d)
'''
MAPPING_BAD = MAPPING.replace("return self._d[k.upper()]", "return self._d[k]")
MAPPING_T = '''
def test_star_star():
    e = Env(home="/h", user="u")
    def f(**kw):
        return kw
    assert f(**e) == {"HOME": "/h", "USER": "u"}
    assert dict(e) == {"HOME": "/h", "USER": "u"}
    assert {**e, "X": 1}["USER"] == "u"
def test_getitem_lower():
    assert Env(a=1)["a"] == 1
def test_star_unpack():
    a, *rest = Env(a=1, b=2, c=3)
    assert a == "A" and rest == ["B", "C"]
'''
C("q5_mapping_unpack_code_obj_ok", MAPPING, MAPPING_T)
C("q5_mapping_unpack_code_obj_bad", MAPPING_BAD, MAPPING_T)

DC_ENUM = '''
import json
from dataclasses import dataclass, asdict, field
from enum import Enum
class Status(Enum):
    OPEN = "open"
    DONE = "done"
@dataclass
class Ticket:
    id: int
    status: Status = Status.OPEN
    notes: list = field(default_factory=list)
    def close(self):
        self.status = Status.DONE
def to_json(t):
    d = asdict(t)
    d["status"] = t.status.value
    return json.dumps(d, sort_keys=True)
def from_json(s):
    d = json.loads(s)
    d["status"] = Status(d["status"])
    return Ticket(**d)
'''
DC_ENUM_BAD = DC_ENUM.replace('d["status"] = Status(d["status"])', 'pass')
DC_ENUM_T = '''
def test_round_trip():
    t = Ticket(1, notes=["a"])
    t.close()
    s = to_json(t)
    assert s == '{"id": 1, "notes": ["a"], "status": "done"}'
    back = from_json(s)
    assert back == t
    assert back.status is Status.DONE
def test_default_enum_identity():
    assert Ticket(2).status is Status.OPEN
    assert Ticket(3).status == Status("open")
def test_match_on_enum():
    t = Ticket(4)
    match t.status:
        case Status.OPEN:
            r = "o"
        case _:
            r = "?"
    assert r == "o"
'''
C("q5_dc_enum_json_round_trip_ok", DC_ENUM, DC_ENUM_T)
C("q5_dc_enum_json_round_trip_bad", DC_ENUM_BAD, DC_ENUM_T)

TESTS_CLS_TO_CODE = '''
def build(cls, *args):
    return cls(*args)
def classify(objs, kinds):
    out = {}
    for o in objs:
        for k in kinds:
            if isinstance(o, k):
                out.setdefault(k.__name__, []).append(o)
                break
    return out
def is_sub(a, b):
    return issubclass(a, b)
'''
TESTS_CLS_TO_CODE_BAD = TESTS_CLS_TO_CODE.replace("                break\n", "")
TESTS_CLS_TO_CODE_T = '''
class Animal:
    def __init__(self, name="x"):
        self.name = name
class Dog(Animal):
    pass
class Cat(Animal):
    pass
def test_build_tests_class():
    d = build(Dog, "rex")
    assert type(d) is Dog and d.name == "rex"
def test_classify():
    d, c = Dog(), Cat()
    out = classify([d, c, 3], [Dog, Animal])
    assert out == {"Dog": [d], "Animal": [c]}
    assert out["Dog"][0] is d
def test_issubclass():
    assert is_sub(Dog, Animal) and not is_sub(Animal, Dog)
    assert is_sub(bool, int)
'''
C("q5_tests_classes_to_code_ok", TESTS_CLS_TO_CODE, TESTS_CLS_TO_CODE_T)
C("q5_tests_classes_to_code_bad", TESTS_CLS_TO_CODE_BAD, TESTS_CLS_TO_CODE_T)

ENUM_FLAG = '''
from enum import Flag, auto
class Perm(Flag):
    READ = auto()
    WRITE = auto()
    EXEC = auto()
    RW = READ | WRITE
def grant(current, extra):
    return current | extra
def revoke(current, p):
    return current & ~p
def names(p):
    return [m.name for m in Perm if m in p and m.name != "RW"]
'''
ENUM_FLAG_BAD = ENUM_FLAG.replace("return current & ~p", "return current ^ p")
ENUM_FLAG_T = '''
def test_grant_revoke():
    p = grant(Perm.READ, Perm.WRITE)
    assert p == Perm.RW
    assert p is Perm.RW
    assert revoke(p, Perm.WRITE) is Perm.READ
    assert revoke(Perm.READ, Perm.EXEC) is Perm.READ
def test_in_and_bool():
    p = Perm.READ | Perm.EXEC
    assert Perm.READ in p and Perm.WRITE not in p
    assert not (p & Perm.WRITE)
    assert bool(Perm(0)) is False
def test_names():
    assert names(Perm.READ | Perm.EXEC) == ["READ", "EXEC"]
def test_tests_combo_to_code():
    assert names(Perm.RW) == ["READ", "WRITE"]
    assert len(list(Perm.RW)) == 2
'''
C("q5_flag_combos_both_sides_ok", ENUM_FLAG, ENUM_FLAG_T)
C("q5_flag_combos_both_sides_bad", ENUM_FLAG_BAD, ENUM_FLAG_T)

# ============================================================ batch 9: files, datetime details
FD = '''
import os, json, shutil
def size_of(fh):
    return os.fstat(fh.fileno()).st_size
def load(fh):
    return json.load(fh)
def copy_stream(src, dst):
    shutil.copyfileobj(src, dst)
    return dst.tell()
def name_of(fh):
    return os.path.basename(fh.name)
def consume_and_close(fh):
    with fh:
        return fh.read()
'''
FD_BAD = '''
import os, json, shutil
def size_of(fh):
    return len(fh.read())
def load(fh):
    fh.seek(0)
    return json.loads(fh.read())
def copy_stream(src, dst):
    dst.write(src.read(5))
    return dst.tell()
def name_of(fh):
    return fh.name
def consume_and_close(fh):
    return fh.read()
'''
FD_T = '''
import io
def test_size_does_not_move(tmp_path):
    p = tmp_path / "a.bin"
    p.write_bytes(b"x" * 10)
    with open(p, "rb") as fh:
        assert size_of(fh) == 10
        assert fh.tell() == 0
def test_load_after_skip(tmp_path):
    p = tmp_path / "a.json"
    p.write_text('#\\n{"a": 1}')
    with open(p) as fh:
        fh.readline()
        assert load(fh) == {"a": 1}
def test_copy_stream(tmp_path):
    src = io.BytesIO(b"hello world")
    with open(tmp_path / "o", "wb") as dst:
        assert copy_stream(src, dst) == 11
    assert (tmp_path / "o").read_bytes() == b"hello world"
def test_name(tmp_path):
    with open(tmp_path / "n.txt", "w") as fh:
        assert name_of(fh) == "n.txt"
def test_closed_after(tmp_path):
    p = tmp_path / "c.txt"
    p.write_text("abc")
    fh = open(p)
    assert consume_and_close(fh) == "abc"
    assert fh.closed
'''
C("q5_files_tests_handles_fd_ok", FD, FD_T)
C("q5_files_tests_handles_fd_bad", FD_BAD, FD_T)

TZ = '''
from datetime import datetime, timedelta, timezone, time, date
EST = timezone(timedelta(hours=-5), "EST")
def to_est(dt):
    return dt.astimezone(EST)
def minutes(td):
    return td / timedelta(minutes=1)
def halves(td):
    return td // 2, td % timedelta(hours=1)
def at(d, t):
    return datetime.combine(d, t, tzinfo=timezone.utc)
def local_now(tz):
    return datetime.now(tz)
'''
TZ_BAD = '''
from datetime import datetime, timedelta, timezone, time, date
EST = timezone(timedelta(hours=-5))
def to_est(dt):
    return dt.replace(tzinfo=EST)
def minutes(td):
    return td.seconds // 60
def halves(td):
    return td / 2, td % timedelta(hours=1)
def at(d, t):
    return datetime.combine(d, t)
def local_now(tz):
    return datetime.now()
'''
TZ_T = '''
from datetime import datetime, timedelta, timezone, time, date, tzinfo
def test_est_name():
    d = to_est(datetime(2024, 1, 1, 12, tzinfo=timezone.utc))
    assert d.hour == 7
    assert d.tzname() == "EST"
    assert d.tzinfo == EST
def test_td_math():
    assert minutes(timedelta(days=1, minutes=3)) == 1443.0
    h, r = halves(timedelta(hours=3, minutes=1))
    assert h == timedelta(hours=1, seconds=30) and r == timedelta(minutes=1)
def test_combine():
    x = at(date(2024, 2, 29), time(23, 59))
    assert x.isoformat() == "2024-02-29T23:59:00+00:00"
def test_tests_tzinfo_to_code():
    class Plus3(tzinfo):
        def utcoffset(self, dt):
            return timedelta(hours=3)
        def dst(self, dt):
            return timedelta(0)
        def tzname(self, dt):
            return "P3"
    n = local_now(Plus3())
    assert n.utcoffset() == timedelta(hours=3)
    assert n.tzname() == "P3"
'''
C("q5_dt_tz_timedelta_ok", TZ, TZ_T)
C("q5_dt_tz_timedelta_bad", TZ_BAD, TZ_T)

PATHS = '''
from pathlib import Path
def list_py(root):
    return sorted(p.relative_to(root) for p in Path(root).rglob("*.py"))
def iter_lines(path):
    with open(path) as f:
        for line in f:
            yield line.rstrip("\\n")
def ensure(path):
    p = Path(path)
    p.mkdir(parents=True, exist_ok=True)
    return p.resolve()
'''
PATHS_BAD = '''
from pathlib import Path
def list_py(root):
    return [p for p in Path(root).glob("*.py")]
def iter_lines(path):
    return open(path).read().split("\\n")
def ensure(path):
    p = Path(path)
    p.mkdir(parents=True, exist_ok=True)
    return str(p)
'''
PATHS_T = '''
from pathlib import Path, PurePosixPath
def test_list_py(tmp_path):
    (tmp_path / "a").mkdir()
    (tmp_path / "a" / "x.py").write_text("")
    (tmp_path / "b.py").write_text("")
    (tmp_path / "c.txt").write_text("")
    got = list_py(tmp_path)
    assert got == [Path("a/x.py"), Path("b.py")]
    assert all(isinstance(p, Path) for p in got)
    assert got[0].parts == ("a", "x.py")
    assert got[0].suffix == ".py" and got[0].stem == "x"
def test_iter_lines(tmp_path):
    p = tmp_path / "f"
    p.write_text("1\\n2\\n")
    g = iter_lines(p)
    assert next(g) == "1"
    assert list(g) == ["2"]
def test_ensure(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    r = ensure("x/y")
    assert r == tmp_path.resolve() / "x" / "y"
    assert r.is_absolute() and r.is_dir()
'''
C("q5_paths_rglob_relative_ok", PATHS, PATHS_T)
C("q5_paths_rglob_relative_bad", PATHS_BAD, PATHS_T)

# ============================================================ sqlite 2
SQL2 = '''
import sqlite3
def setup(conn):
    conn.row_factory = sqlite3.Row
    conn.create_function("slug", 1, lambda s: s.lower().replace(" ", "-"))
    conn.execute("CREATE TABLE t (id INTEGER PRIMARY KEY, title TEXT)")
def add_many(conn, titles):
    with conn:
        conn.executemany("INSERT INTO t (title) VALUES (?)", ((t,) for t in titles))
def titles(conn):
    return [r["title"] for r in conn.execute("SELECT title FROM t ORDER BY id")]
def rows(conn):
    return conn.execute("SELECT id, slug(title) AS s FROM t ORDER BY id").fetchall()
def add_checked(conn, title, check):
    with conn:
        conn.execute("INSERT INTO t (title) VALUES (?)", (title,))
        check(title)
'''
SQL2_BAD = SQL2.replace('''    with conn:
        conn.execute("INSERT INTO t (title) VALUES (?)", (title,))
        check(title)''', '''    conn.execute("INSERT INTO t (title) VALUES (?)", (title,))
    conn.commit()
    check(title)''')
SQL2_T = '''
import sqlite3
import pytest
@pytest.fixture
def conn():
    c = sqlite3.connect(":memory:")
    setup(c)
    return c
def test_generator_insert(conn):
    add_many(conn, (x for x in ["A b", "C"]))
    assert titles(conn) == ["A b", "C"]
def test_row_objects(conn):
    add_many(conn, ["Hello World"])
    r = rows(conn)[0]
    assert isinstance(r, sqlite3.Row)
    assert r["s"] == "hello-world" and r[0] == 1
    assert tuple(r) == (1, "hello-world")
def test_code_function_used_by_tests_sql(conn):
    assert conn.execute("SELECT slug('X Y')").fetchone()[0] == "x-y"
def test_rollback_on_tests_error(conn):
    def check(t):
        if t == "bad":
            raise ValueError(t)
    with pytest.raises(ValueError):
        add_checked(conn, "bad", check)
    assert titles(conn) == []
    assert conn.in_transaction is False
'''
C("q5_sqlite_row_factory_functions_ok", SQL2, SQL2_T)
C("q5_sqlite_row_factory_functions_bad", SQL2_BAD, SQL2_T)

# ============================================================ mock 2
MOCK2 = '''
DEFAULTS = {"retries": 3, "mode": "safe"}
RATE = 0.2
def cfg(key):
    return DEFAULTS[key]
def price(x):
    return round(x * (1 + RATE), 2)
def read_all(src):
    with src as s:
        return [line.upper() for line in s]
def first_item(container):
    return container[0], len(container)
async def fetch_twice(client, url):
    a = await client.get(url)
    b = await client.get(url)
    return a + b
'''
MOCK2_BAD = '''
DEFAULTS = {"retries": 3, "mode": "safe"}
RATE = 0.2
_mode = DEFAULTS["mode"]
def cfg(key):
    return _mode if key == "mode" else DEFAULTS[key]
def price(x, rate=RATE):
    return round(x * (1 + rate), 2)
def read_all(src):
    return [line.upper() for line in src]
def first_item(container):
    return container[0], 1
async def fetch_twice(client, url):
    a = await client.get(url)
    return a + a
'''
MOCK2_T = '''
import asyncio
from unittest import mock
from unittest.mock import patch, MagicMock, AsyncMock
def test_patch_dict():
    with patch.dict(DEFAULTS, {"mode": "fast"}):
        assert cfg("mode") == "fast"
    assert cfg("mode") == "safe"
def test_patch_constant():
    with patch(__name__ + ".RATE", 0.5):
        assert price(10) == 15.0
    assert price(10) == 12.0
def test_magicmock_cm_and_iter():
    m = MagicMock()
    m.__enter__.return_value = ["a", "b"]
    assert read_all(m) == ["A", "B"]
    m.__exit__.assert_called_once()
def test_magicmock_getitem_len():
    m = MagicMock()
    m.__getitem__.return_value = "z"
    m.__len__.return_value = 7
    assert first_item(m) == ("z", 7)
    m.__getitem__.assert_called_with(0)
def test_asyncmock():
    client = AsyncMock()
    client.get.side_effect = [1, 2]
    assert asyncio.run(fetch_twice(client, "u")) == 3
    assert client.get.await_count == 2
    client.get.assert_awaited_with("u")
'''
C("q5_mock_patch_dict_magic_async_ok", MOCK2, MOCK2_T)
C("q5_mock_patch_dict_magic_async_bad", MOCK2_BAD, MOCK2_T)

LOG2 = '''
import logging
log = logging.getLogger("svc")
def risky(x):
    try:
        return 10 / x
    except ZeroDivisionError:
        log.exception("failed for %r", x)
        return None
def chatty(n):
    for i in range(n):
        log.info("step %d", i)
'''
LOG2_BAD = LOG2.replace('log.exception("failed for %r", x)', 'log.error("failed for %r", x)')
LOG2_T = '''
import logging
def test_exception_logged(caplog):
    assert risky(0) is None
    rec = caplog.records[-1]
    assert rec.levelno == logging.ERROR
    assert rec.exc_info is not None and rec.exc_info[0] is ZeroDivisionError
    assert "Traceback" in caplog.text
    assert rec.funcName == "risky"
def test_messages(caplog):
    with caplog.at_level(logging.INFO, logger="svc"):
        chatty(3)
    assert caplog.messages == ["step 0", "step 1", "step 2"]
    caplog.clear()
    assert caplog.records == []
'''
C("q5_logging_exception_exc_info_ok", LOG2, LOG2_T)
C("q5_logging_exception_exc_info_bad", LOG2_BAD, LOG2_T)
C("q5_min_code_fstat_tests_fileno", '''
import os
def size_of(fh):
    return os.fstat(fh.fileno()).st_size
''', '''
def test_size(tmp_path):
    p = tmp_path / "a.bin"
    p.write_bytes(b"x" * 10)
    with open(p, "rb") as fh:
        assert size_of(fh) == 10
''')
C("q5_min_code_os_write_tests_fileno", '''
import os
def emit(fh, data):
    fh.flush()
    os.write(fh.fileno(), data)
''', '''
def test_emit(tmp_path):
    p = tmp_path / "o.bin"
    with open(p, "wb") as fh:
        emit(fh, b"abc")
    assert p.read_bytes() == b"abc"
''')
C("q5_min_tests_tzinfo_to_code_datetime", '''
from datetime import datetime
def stamp(tz):
    return datetime(2024, 1, 1, tzinfo=tz)
''', '''
from datetime import tzinfo, timedelta
class Plus3(tzinfo):
    def utcoffset(self, dt):
        return timedelta(hours=3)
    def dst(self, dt):
        return timedelta(0)
def test_tz():
    assert stamp(Plus3()).utcoffset() == timedelta(hours=3)
''')
C("q5_min_code_sets_row_factory_on_tests_conn", '''
import sqlite3
def prepare(conn):
    conn.row_factory = sqlite3.Row
''', '''
import sqlite3
def test_row():
    conn = sqlite3.connect(":memory:")
    prepare(conn)
    assert conn.execute("SELECT 1 AS a").fetchone()["a"] == 1
''')
C("q5_min_code_create_function_on_tests_conn", '''
def prepare(conn):
    conn.create_function("double", 1, lambda x: x * 2)
''', '''
import sqlite3
def test_fn():
    conn = sqlite3.connect(":memory:")
    prepare(conn)
    assert conn.execute("SELECT double(21)").fetchone()[0] == 42
''')
C("q5_min_code_log_exception_exc_info", '''
import logging
def risky():
    try:
        1 / 0
    except ZeroDivisionError:
        logging.getLogger("svc").exception("failed")
''', '''
def test_exc_info(caplog):
    risky()
    rec = caplog.records[-1]
    assert rec.exc_info is not None
    assert rec.exc_info[0] is ZeroDivisionError
''')
C("q5_min_code_log_exception_exc_text", '''
import logging
def risky():
    try:
        1 / 0
    except ZeroDivisionError:
        logging.getLogger("svc").exception("failed")
''', '''
def test_exc_text(caplog):
    risky()
    assert "ZeroDivisionError" in caplog.text
''')
C("q5_min_code_log_extra_fields", '''
import logging
def login(user):
    logging.getLogger("auth").warning("login", extra={"user": user})
''', '''
def test_extra(caplog):
    login("ann")
    assert caplog.records[0].user == "ann"
''')

# ============================================================ batch 10: generator introspection, send into tests' gens
GENI = '''
def countdown(n):
    while n > 0:
        yield n
        n -= 1
def drive(consumer, items):
    next(consumer)
    out = []
    for it in items:
        out.append(consumer.send(it))
    consumer.close()
    return out
'''
GENI_BAD = '''
def countdown(n):
    return iter(range(n, 0, -1))
def drive(consumer, items):
    out = []
    for it in items:
        out.append(next(consumer))
    return out
'''
GENI_T = '''
import inspect, types, collections.abc
def test_generator_state():
    g = countdown(2)
    assert inspect.getgeneratorstate(g) == "GEN_CREATED"
    next(g)
    assert inspect.getgeneratorstate(g) == "GEN_SUSPENDED"
    list(g)
    assert inspect.getgeneratorstate(g) == "GEN_CLOSED"
def test_generator_types():
    g = countdown(1)
    assert isinstance(g, types.GeneratorType)
    assert inspect.isgenerator(g)
    assert isinstance(g, collections.abc.Generator)
    assert inspect.isgeneratorfunction(countdown)
def test_drive_tests_coroutine():
    closed = []
    def running_sum():
        total = 0
        try:
            while True:
                x = yield total
                total += x
        finally:
            closed.append(True)
    assert drive(running_sum(), [1, 2, 3]) == [1, 3, 6]
    assert closed == [True]
'''
C("q5_gen_introspection_and_send_into_tests_gen_ok", GENI, GENI_T)
C("q5_gen_introspection_and_send_into_tests_gen_bad", GENI_BAD, GENI_T)

ITERS = '''
def backwards(xs):
    return reversed(xs)
def iterator_of(xs):
    return iter(xs)
def pairs(d):
    return d.items()
def evens(n):
    return filter(lambda x: x % 2 == 0, range(n))
def squares(xs):
    return map(lambda x: x * x, xs)
'''
ITERS_BAD = '''
def backwards(xs):
    return xs[::-1]
def iterator_of(xs):
    return list(xs)
def pairs(d):
    return list(d.items())
def evens(n):
    return [x for x in range(n) if x % 2 == 0]
def squares(xs):
    return [x * x for x in xs]
'''
ITERS_T = '''
import operator
def test_reversed_iterator():
    r = backwards([1, 2, 3])
    assert next(r) == 3
    assert list(r) == [2, 1]
    assert list(r) == []
def test_iter_length_hint():
    it = iterator_of([1, 2, 3])
    next(it)
    assert operator.length_hint(it) == 2
    assert iter(it) is it
def test_items_view_live():
    d = {"a": 1}
    v = pairs(d)
    d["b"] = 2
    assert len(v) == 2
    assert ("b", 2) in v
def test_filter_map_lazy():
    calls = []
    def f(x):
        calls.append(x)
        return x
    m = squares(map(f, [1, 2, 3]))
    assert calls == []
    assert next(m) == 1 and calls == [1]
    assert list(evens(5)) == [0, 2, 4]
'''
C("q5_iterators_returned_lazy_ok", ITERS, ITERS_T)
C("q5_iterators_returned_lazy_bad", ITERS_BAD, ITERS_T)

STATE = '''
_cache = {}
HITS = 0
def get(key, loader):
    global HITS
    if key in _cache:
        HITS += 1
        return _cache[key]
    v = _cache[key] = loader(key)
    return v
def clear():
    global HITS
    _cache.clear()
    HITS = 0
'''
STATE_BAD = '''
_cache = {}
HITS = 0
def get(key, loader):
    global HITS
    if key in _cache:
        HITS += 1
        return _cache[key]
    v = _cache[key] = loader(key)
    return v
def clear():
    _cache.clear()
'''
STATE_T = '''
import pytest
@pytest.fixture(autouse=True)
def fresh():
    clear()
    yield
def test_loader_called_once():
    calls = []
    def loader(k):
        calls.append(k)
        return k * 2
    assert get("a", loader) == "aa"
    assert get("a", loader) == "aa"
    assert calls == ["a"]
    assert HITS == 1
def test_hits_reset():
    get("b", str.upper); get("b", str.upper)
    assert HITS == 1
def test_cache_seen_by_tests():
    get("c", len)
    assert _cache == {"c": 1}
    _cache["d"] = 99
    assert get("d", len) == 99
'''
C("q5_module_cache_hits_fixture_reset_ok", STATE, STATE_T)
C("q5_module_cache_hits_fixture_reset_bad", STATE_BAD, STATE_T)

REG = '''
REGISTRY = {}
def register(name=None):
    def deco(fn):
        REGISTRY[name or fn.__name__] = fn
        return fn
    return deco
def dispatch(name, *args):
    return REGISTRY[name](*args)
'''
REG_BAD = '''
REGISTRY = {}
def register(name=None):
    def deco(fn):
        REGISTRY[name or fn.__name__] = fn
    return deco
def dispatch(name, *args):
    return REGISTRY[name](*args)
'''
REG_T = '''
@register()
def hello(x):
    return f"hi {x}"
@register("sum")
def add(a, b):
    return a + b
def test_dispatch():
    assert dispatch("hello", "bo") == "hi bo"
    assert dispatch("sum", 1, 2) == 3
def test_decorated_still_callable():
    assert hello("x") == "hi x"
    assert REGISTRY["sum"] is add
def test_registry_keys():
    assert set(REGISTRY) >= {"hello", "sum"}
'''
C("q5_registry_decorator_tests_funcs_ok", REG, REG_T)
C("q5_registry_decorator_tests_funcs_bad", REG_BAD, REG_T)

# ============================================================ batch 11: tests subclass code classes
SUBEXC = '''
class AppError(Exception):
    def __init__(self, msg, code=500):
        super().__init__(msg)
        self.code = code
def handle(fn):
    try:
        return fn()
    except AppError as e:
        return (e.code, str(e))
'''
SUBEXC_BAD = SUBEXC.replace("except AppError as e:", "except Exception as e:\n        if type(e) is not AppError: raise")
SUBEXC_T = '''
import pytest
class NotFound(AppError):
    def __init__(self, what):
        super().__init__(f"{what} missing", code=404)
def test_code_catches_tests_subclass():
    def f():
        raise NotFound("page")
    assert handle(f) == (404, "page missing")
def test_tests_raise_and_catch_as_base():
    with pytest.raises(AppError) as ei:
        raise NotFound("x")
    assert ei.value.code == 404
'''
C("q5_sub_tests_exception_of_code_base_ok", SUBEXC, SUBEXC_T)
C("q5_sub_tests_exception_of_code_base_bad", SUBEXC_BAD, SUBEXC_T)

SUBDC = '''
from dataclasses import dataclass, field, fields, asdict
@dataclass
class Base:
    id: int
    tags: list = field(default_factory=list)
def field_names(obj):
    return [f.name for f in fields(obj)]
def dump(obj):
    return asdict(obj)
'''
SUBDC_BAD = SUBDC.replace("return [f.name for f in fields(obj)]", "return list(vars(obj))[:2]")
SUBDC_T = '''
from dataclasses import dataclass
@dataclass
class Child(Base):
    name: str = "c"
def test_fields_of_tests_child():
    c = Child(1)
    assert field_names(c) == ["id", "tags", "name"]
    assert dump(c) == {"id": 1, "tags": [], "name": "c"}
def test_eq_repr():
    assert Child(1, ["a"], "x") == Child(1, ["a"], "x")
    assert repr(Child(2)) == "Child(id=2, tags=[], name='c')"
'''
C("q5_sub_tests_dataclass_child_ok", SUBDC, SUBDC_T)
C("q5_sub_tests_dataclass_child_bad", SUBDC_BAD, SUBDC_T)

SUBHOOK = '''
PLUGINS = []
class Plugin:
    priority = 0
    def __init_subclass__(cls, **kw):
        super().__init_subclass__(**kw)
        PLUGINS.append(cls)
    def run(self, x):
        raise NotImplementedError
def run_all(x):
    return [p().run(x) for p in sorted(PLUGINS, key=lambda c: -c.priority)]
'''
SUBHOOK_BAD = SUBHOOK.replace("key=lambda c: -c.priority", "key=lambda c: c.priority")
SUBHOOK_T = '''
class Double(Plugin):
    priority = 1
    def run(self, x):
        return x * 2
class Inc(Plugin):
    priority = 5
    def run(self, x):
        return x + 1
def test_run_all():
    assert run_all(10) == [11, 20]
def test_registered():
    assert len(PLUGINS) == 2
'''
C("q5_sub_init_subclass_registry_ok", SUBHOOK, SUBHOOK_T)
C("q5_sub_init_subclass_registry_bad", SUBHOOK_BAD, SUBHOOK_T)

SUBABC = '''
from abc import ABC, abstractmethod
class Store(ABC):
    @abstractmethod
    def get(self, k): ...
    @abstractmethod
    def put(self, k, v): ...
    def get_or(self, k, default):
        try:
            return self.get(k)
        except KeyError:
            return default
def migrate(src, dst, keys):
    for k in keys:
        dst.put(k, src.get(k))
'''
SUBABC_BAD = SUBABC.replace("        except KeyError:\n", "        except LookupError as e:\n            if isinstance(e, KeyError): raise\n")
SUBABC_T = '''
import pytest
class Mem(Store):
    def __init__(self):
        self.d = {}
    def get(self, k):
        return self.d[k]
    def put(self, k, v):
        self.d[k] = v
class Half(Store):
    def get(self, k):
        return 1
def test_get_or():
    m = Mem()
    assert m.get_or("x", 0) == 0
    m.put("x", 5)
    assert m.get_or("x", 0) == 5
def test_migrate_between_tests_stores():
    a, b = Mem(), Mem()
    a.put("k", 1)
    migrate(a, b, ["k"])
    assert b.d == {"k": 1}
def test_incomplete_subclass_abstract():
    with pytest.raises(TypeError):
        Half()
'''
C("q5_sub_tests_impl_of_code_abc_ok", SUBABC, SUBABC_T)
C("q5_sub_tests_impl_of_code_abc_bad", SUBABC_BAD, SUBABC_T)

# ============================================================ batch 12: containers the code keeps, type checks, reflected ops
KEPT = '''
class Store:
    def __init__(self):
        self.items = [3, 1, 2]
        self.index = {"a": 1}
        self.tags = {"x", "y"}
    def get_items(self):
        return self.items
    def get_index(self):
        return self.index
    def get_tags(self):
        return self.tags
'''
KEPT_BAD = '''
class Store:
    def __init__(self):
        self.items = (3, 1, 2)
        self.index = {"a": 1}
        self.tags = frozenset({"x", "y"})
    def get_items(self):
        return self.items
    def get_index(self):
        return dict(self.index)
    def get_tags(self):
        return self.tags
'''
KEPT_T = '''
def test_types_exact():
    s = Store()
    assert type(s.get_items()) is list
    assert type(s.get_index()) == dict
    assert type(s.get_tags()).__name__ == "set"
    assert s.get_items().__class__ is list
def test_reflected_list_ops():
    s = Store()
    assert [0] + s.get_items() == [0, 3, 1, 2]
    assert s.get_items() + [9] == [3, 1, 2, 9]
    assert 2 * s.get_items() == [3, 1, 2, 3, 1, 2]
    assert type([0] + s.get_items()) is list
def test_dict_union_and_set_ops():
    s = Store()
    assert {"b": 2} | s.get_index() == {"b": 2, "a": 1}
    assert s.get_index() | {"b": 2} == {"a": 1, "b": 2}
    assert {"x", "z"} - s.get_tags() == {"z"}
    assert s.get_tags() & {"y"} == {"y"}
    assert frozenset({"x", "y"}) == s.get_tags()
def test_mutation_through_view_is_shared():
    s = Store()
    s.get_items().sort()
    assert s.items == [1, 2, 3]
    s.get_index()["b"] = 2
    assert s.index == {"a": 1, "b": 2}
def test_join_and_builtins():
    s = Store()
    assert ",".join(map(str, s.get_items())) == "3,1,2"
    assert max(s.get_items()) == 3 and sorted(s.get_tags()) == ["x", "y"]
    import statistics
    assert statistics.mean(s.get_items()) == 2
'''
C("q5_kept_containers_types_reflected_ok", KEPT, KEPT_T)
C("q5_kept_containers_types_reflected_bad", KEPT_BAD, KEPT_T)
C("q5_min_type_of_kept_list_eq_list", '''
class Stack:
    def __init__(self):
        self.items = []
    def push(self, x):
        self.items.append(x)
        return self.items
''', '''
def test_type():
    assert type(Stack().push(1)) == list
''')
C("q5_min_type_of_kept_dict_is_dict", '''
CONFIG = {"a": 1}
def get_config():
    return CONFIG
''', '''
def test_type():
    assert type(get_config()) is dict
''')
C("q5_min_list_plus_kept_list", '''
class Stack:
    def __init__(self):
        self.items = [1]
    def view(self):
        return self.items
''', '''
def test_radd():
    assert [0] + Stack().view() == [0, 1]
''')
C("q5_min_int_times_kept_list", '''
class Stack:
    def __init__(self):
        self.items = [1]
    def view(self):
        return self.items
''', '''
def test_rmul():
    assert 2 * Stack().view() == [1, 1]
''')
C("q5_min_dict_or_kept_dict", '''
CONFIG = {"a": 1}
def get_config():
    return CONFIG
''', '''
def test_ror():
    assert {"b": 2} | get_config() == {"b": 2, "a": 1}
''')
C("q5_min_set_minus_kept_set", '''
SEEN = {"x"}
def seen():
    return SEEN
''', '''
def test_rsub():
    assert {"x", "z"} - seen() == {"z"}
    assert frozenset({"x"}) == seen()
''')
C("q5_min_tuple_plus_kept_list_typeerror", '''
ITEMS = [1]
def items():
    return ITEMS
''', '''
import pytest
def test_tuple_plus_list_raises():
    with pytest.raises(TypeError):
        (0,) + items()
''')

# ============================================================ batch 13: key functions crossing
KEYS = '''
import operator
def sort_by(items, key):
    return sorted(items, key=key)
def group(items, key, factory):
    out = {}
    for it in items:
        out.setdefault(key(it), factory()).append(it)
    return out
def getter(*names):
    return operator.itemgetter(*names)
def fill(d, pairs):
    for k, v in pairs:
        d[k].append(v)
    return d
'''
KEYS_BAD = KEYS.replace("return sorted(items, key=key)", "return sorted(items)")
KEYS_T = '''
import operator
from collections import defaultdict
def test_builtin_and_method_keys():
    assert sort_by(["b", "A", "c"], str.lower) == ["A", "b", "c"]
    assert sort_by(["ccc", "a", "bb"], len) == ["a", "bb", "ccc"]
    assert sort_by([(1, "z"), (2, "a")], operator.itemgetter(1)) == [(2, "a"), (1, "z")]
def test_methodcaller_attrgetter():
    class P:
        def __init__(self, n): self.n = n
    ps = [P(3), P(1)]
    assert [p.n for p in sort_by(ps, operator.attrgetter("n"))] == [1, 3]
    assert sort_by([" b", "a "], operator.methodcaller("strip")) == ["a ", " b"]
def test_group_with_type_factory():
    g = group(["ab", "c", "de"], len, list)
    assert g == {2: ["ab", "de"], 1: ["c"]}
def test_code_itemgetter_in_tests():
    rows = [{"a": 2, "b": 1}, {"a": 1, "b": 2}]
    assert sorted(rows, key=getter("a"))[0] == {"a": 1, "b": 2}
    assert getter("a", "b")(rows[0]) == (2, 1)
def test_tests_defaultdict_filled_by_code():
    d = defaultdict(list)
    out = fill(d, [("x", 1), ("x", 2), ("y", 3)])
    assert out is d
    assert d == {"x": [1, 2], "y": [3]}
    assert d["z"] == []
'''
C("q5_key_functions_crossing_ok", KEYS, KEYS_T)
C("q5_key_functions_crossing_bad", KEYS_BAD, KEYS_T)

BISECTK = '''
import bisect
def insert_by(items, x, key):
    bisect.insort(items, x, key=key)
    return items
def rank(scores, s):
    return bisect.bisect_right(scores, s)
'''
BISECTK_BAD = '''
import bisect
def insert_by(items, x, key):
    items.append(x)
    items.sort(key=key, reverse=True)
    return items
def rank(scores, s):
    return bisect.bisect_left(scores, s)
'''
BISECTK_T = '''
def test_insort_key_tests_objects():
    class T:
        def __init__(self, p): self.p = p
    items = [T(1), T(5)]
    new = T(3)
    out = insert_by(items, new, key=lambda t: t.p)
    assert [t.p for t in items] == [1, 3, 5]
    assert items[1] is new and out is items
def test_rank():
    assert rank([10, 20, 20, 30], 20) == 3
'''
C("q5_bisect_key_tests_objects_ok", BISECTK, BISECTK_T)
C("q5_bisect_key_tests_objects_bad", BISECTK_BAD, BISECTK_T)

HEAPT = '''
import heapq, itertools
class Scheduler:
    def __init__(self):
        self._h = []
        self._c = itertools.count()
    def add(self, pri, job):
        heapq.heappush(self._h, (pri, next(self._c), job))
    def pop(self):
        return heapq.heappop(self._h)[2]
    def __len__(self):
        return len(self._h)
'''
HEAPT_BAD = '''
import heapq
class Scheduler:
    def __init__(self):
        self._h = []
    def add(self, pri, job):
        heapq.heappush(self._h, (pri, job))
    def pop(self):
        return heapq.heappop(self._h)[1]
    def __len__(self):
        return len(self._h)
'''
HEAPT_T = '''
def test_tie_uses_insertion_order_with_uncomparable_jobs():
    s = Scheduler()
    a, b, c = (lambda: "a"), (lambda: "b"), (lambda: "c")
    s.add(1, a); s.add(0, b); s.add(1, c)
    assert s.pop() is b
    assert s.pop() is a
    assert s.pop() is c
    assert len(s) == 0
def test_dict_jobs():
    s = Scheduler()
    s.add(2, {"n": 1}); s.add(2, {"n": 2})
    assert s.pop() == {"n": 1}
'''
C("q5_heap_tiebreak_tests_callables_ok", HEAPT, HEAPT_T)
C("q5_heap_tiebreak_tests_callables_bad", HEAPT_BAD, HEAPT_T)
C("q5_min_lt_code_plain_tests_object_typeerror", '''
class A:
    pass
''', '''
import pytest
def test_lt():
    with pytest.raises(TypeError):
        A() < object()
''')
C("q5_min_add_code_plain_tests_plain_typeerror", '''
class A:
    pass
''', '''
import pytest
class B:
    pass
def test_add():
    with pytest.raises(TypeError):
        A() + B()
''')
C("q5_min_code_lt_tests_obj_typeerror", '''
class Node:
    pass
def older(a, b):
    try:
        return a < b
    except TypeError:
        return "incomparable"
''', '''
class Other:
    pass
def test_older():
    assert older(Node(), Other()) == "incomparable"
    assert older(Other(), Node()) == "incomparable"
''')

# ============================================================ batch 14: unittest idioms with code objects
UT = '''
import warnings, logging
from decimal import Decimal
FEATURE = False
class Matrix:
    def __init__(self, rows):
        self.rows = [list(r) for r in rows]
    def __getitem__(self, i):
        return self.rows[i]
    def __len__(self):
        return len(self.rows)
    def transpose(self):
        return Matrix(zip(*self.rows))
def legacy():
    warnings.warn("legacy", PendingDeprecationWarning)
    logging.getLogger("m").error("legacy used")
    return 1
def third():
    return Decimal(1) / Decimal(3)
'''
UT_BAD = UT.replace("return Matrix(zip(*self.rows))", "return Matrix(self.rows)").replace(
    "PendingDeprecationWarning", "DeprecationWarning")
UT_T = '''
import unittest
from decimal import Decimal
class TestM(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.m = Matrix([[1, 2], [3, 4]])
    def test_subtests(self):
        t = self.m.transpose()
        for i in range(2):
            for j in range(2):
                with self.subTest(i=i, j=j):
                    self.assertEqual(t[i][j], self.m[j][i])
    def test_sequence_equal(self):
        self.assertSequenceEqual(self.m.transpose()[0], [1, 3])
        self.assertEqual(len(self.m), 2)
    def test_warns_and_logs(self):
        with self.assertWarns(PendingDeprecationWarning):
            with self.assertLogs("m", level="ERROR") as cm:
                legacy()
        self.assertEqual(cm.output, ["ERROR:m:legacy used"])
    def test_almost_equal_decimal(self):
        self.assertAlmostEqual(float(third()), 0.3333333, places=6)
        self.assertIsInstance(third(), Decimal)
    @unittest.skipUnless(FEATURE, "feature off")
    def test_skipped(self):
        self.fail("should not run")
    @unittest.expectedFailure
    def test_expected_failure(self):
        self.assertEqual(self.m.transpose()[0], [1, 2])
    def test_cleanup(self):
        m = Matrix([[0]])
        self.addCleanup(m.rows.clear)
        self.assertEqual(m.rows, [[0]])
'''
C("q5_unittest_idioms_code_objs_ok", UT, UT_T)
C("q5_unittest_idioms_code_objs_bad", UT_BAD, UT_T)

PARAM = '''
from enum import Enum
class Op(Enum):
    ADD = "+"
    SUB = "-"
    MUL = "*"
def apply(op, a, b):
    if op is Op.ADD:
        return a + b
    if op is Op.SUB:
        return a - b
    if op is Op.MUL:
        return a * b
    raise ValueError(op)
'''
PARAM_BAD = PARAM.replace("return a - b", "return b - a")
PARAM_T = '''
import pytest
@pytest.mark.parametrize("op,a,b,want", [
    (Op.ADD, 2, 3, 5),
    (Op.SUB, 5, 3, 2),
    (Op.MUL, 4, 3, 12),
])
def test_apply(op, a, b, want):
    assert apply(op, a, b) == want
@pytest.mark.parametrize("op", list(Op))
def test_all_ops_known(op):
    assert apply(op, 1, 1) in (0, 1, 2)
@pytest.mark.parametrize("sym", ["+", "-"])
def test_by_value(sym):
    assert Op(sym).value == sym
def test_unknown():
    with pytest.raises(ValueError):
        apply("?", 1, 2)
'''
C("q5_parametrize_enum_members_ok", PARAM, PARAM_T)
C("q5_parametrize_enum_members_bad", PARAM_BAD, PARAM_T)

FIXT = '''
class Bank:
    def __init__(self):
        self.accounts = {}
        self.log = []
    def open(self, name, amount=0):
        if name in self.accounts:
            raise ValueError("exists")
        self.accounts[name] = amount
        self.log.append(("open", name))
    def transfer(self, a, b, x):
        if self.accounts[a] < x:
            raise ValueError("insufficient")
        self.accounts[a] -= x
        self.accounts[b] += x
        self.log.append(("transfer", a, b, x))
'''
FIXT_BAD = FIXT.replace('''        if self.accounts[a] < x:
            raise ValueError("insufficient")
        self.accounts[a] -= x''', '''        self.accounts[a] -= x
        if self.accounts[a] < 0:
            raise ValueError("insufficient")''')
FIXT_T = '''
import pytest
@pytest.fixture(scope="module")
def bank():
    b = Bank()
    b.open("a", 100)
    b.open("b")
    return b
@pytest.fixture
def fresh():
    b = Bank()
    b.open("x", 10); b.open("y", 0)
    yield b
    assert sum(b.accounts.values()) == 10
def test_transfer_module_bank(bank):
    bank.transfer("a", "b", 30)
    assert bank.accounts == {"a": 70, "b": 30}
def test_state_carried(bank):
    assert bank.log[-1] == ("transfer", "a", "b", 30)
def test_insufficient_keeps_money(fresh):
    with pytest.raises(ValueError):
        fresh.transfer("x", "y", 50)
    assert fresh.accounts["x"] == 10
'''
C("q5_fixtures_module_scope_teardown_assert_ok", FIXT, FIXT_T)
C("q5_fixtures_module_scope_teardown_assert_bad", FIXT_BAD, FIXT_T)

# ============================================================ batch 15: attribute protocol on code objects, from the tests
ATTR = '''
class Person:
    """A person."""
    def __init__(self, name, age):
        self.name = name
        self.age = age
    def __setattr__(self, k, v):
        if k == "age" and v < 0:
            raise ValueError("age")
        super().__setattr__(k, v)
    @property
    def risky(self):
        raise RuntimeError("boom")
def greet(p: Person, loud: bool = False) -> str:
    """Say hi."""
    s = f"hi {p.name}"
    return s.upper() if loud else s
'''
ATTR_BAD = ATTR.replace('''        if k == "age" and v < 0:
            raise ValueError("age")
''', "").replace('"""Say hi."""', "")
ATTR_T = '''
import inspect, pytest
def test_vars_and_dict():
    p = Person("ann", 3)
    assert vars(p) == {"name": "ann", "age": 3}
    assert p.__dict__["name"] == "ann"
def test_setattr_validation():
    p = Person("a", 1)
    with pytest.raises(ValueError):
        p.age = -5
    assert p.age == 1
    p.nick = "z"
    assert p.nick == "z"
def test_names():
    p = Person("a", 1)
    assert type(p).__name__ == "Person"
    assert p.__class__.__name__ == "Person"
    assert Person.__doc__ == "A person."
    assert greet.__name__ == "greet" and greet.__doc__ == "Say hi."
def test_signature():
    sig = inspect.signature(greet)
    assert list(sig.parameters) == ["p", "loud"]
    assert sig.parameters["loud"].default is False
def test_getattr_hasattr():
    p = Person("a", 1)
    assert getattr(p, "missing", 7) == 7
    with pytest.raises(RuntimeError):
        hasattr(p, "risky")
    delattr(p, "name")
    assert not hasattr(p, "name")
'''
C("q5_attr_protocol_code_objs_ok", ATTR, ATTR_T)
C("q5_attr_protocol_code_objs_bad", ATTR_BAD, ATTR_T)

# ============================================================ batch 16: custom warning classes, code records tests' warnings
CW = '''
import warnings
class ConfigWarning(UserWarning):
    pass
def load(cfg):
    if "timeout" not in cfg:
        warnings.warn("no timeout, using 30", ConfigWarning)
        cfg = {**cfg, "timeout": 30}
    return cfg
def quietly(fn):
    with warnings.catch_warnings(record=True) as w:
        warnings.simplefilter("always")
        result = fn()
    return result, [str(x.message) for x in w]
'''
CW_BAD = CW.replace('warnings.warn("no timeout, using 30", ConfigWarning)', 'warnings.warn("no timeout, using 30")').replace(
    'return result, [str(x.message) for x in w]', 'return result, []')
CW_T = '''
import warnings
import pytest
def test_custom_warning_class():
    with pytest.warns(ConfigWarning, match="using 30") as rec:
        assert load({})["timeout"] == 30
    assert rec[0].category is ConfigWarning
    assert issubclass(rec[0].category, UserWarning)
def test_code_records_tests_warnings():
    def noisy():
        warnings.warn("careful", RuntimeWarning)
        return 5
    assert quietly(noisy) == (5, ["careful"])
def test_filter_error_on_custom():
    with warnings.catch_warnings():
        warnings.simplefilter("error", ConfigWarning)
        with pytest.raises(ConfigWarning):
            load({})
'''
C("q5_warning_custom_class_and_code_records_ok", CW, CW_T)
C("q5_warning_custom_class_and_code_records_bad", CW_BAD, CW_T)

DYNEXC = '''
def make_error(name, base=ValueError):
    return type(name, (base,), {})
ParseError = make_error("ParseError")
def parse(s):
    if not s:
        raise ParseError("empty")
    return s
'''
DYNEXC_BAD = DYNEXC.replace('raise ParseError("empty")', 'raise ValueError("empty")')
DYNEXC_T = '''
import pytest
from contextlib import suppress
def test_dynamic_class():
    with pytest.raises(ParseError):
        parse("")
    with pytest.raises(ValueError):
        parse("")
    assert ParseError.__name__ == "ParseError"
def test_suppress():
    with suppress(ParseError):
        parse("")
        assert False
def test_tests_make_error_class():
    E = make_error("E2", KeyError)
    with pytest.raises(KeyError):
        raise E("x")
'''
C("q5_exc_dynamic_classes_ok", DYNEXC, DYNEXC_T)
C("q5_exc_dynamic_classes_bad", DYNEXC_BAD, DYNEXC_T)
C("q5_min_code_catch_warnings_records_tests_callback", '''
import warnings
def collect(fn):
    with warnings.catch_warnings(record=True) as w:
        warnings.simplefilter("always")
        fn()
    return len(w)
''', '''
import warnings
def test_collect():
    assert collect(lambda: warnings.warn("x")) == 1
''')
C("q5_min_code_warnings_as_errors_around_tests_callback", '''
import warnings
def strict(fn):
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        return fn()
''', '''
import warnings, pytest
def test_strict():
    with pytest.raises(UserWarning):
        strict(lambda: warnings.warn("x"))
''')
C("q5_min_code_handler_sees_tests_callback_logs", '''
import logging
def captured(fn):
    seen = []
    class H(logging.Handler):
        def emit(self, r):
            seen.append(r.getMessage())
    h = H()
    lg = logging.getLogger("job")
    lg.addHandler(h)
    lg.setLevel(logging.INFO)
    try:
        fn()
    finally:
        lg.removeHandler(h)
    return seen
''', '''
import logging
def test_captured():
    assert captured(lambda: logging.getLogger("job").info("hello")) == ["hello"]
''')

# ============================================================ batch 17: code handles errors from the tests' objects
ERRS = '''
import dataclasses
def try_set(obj, name, value):
    try:
        setattr(obj, name, value)
        return "set"
    except dataclasses.FrozenInstanceError:
        return "frozen"
    except AttributeError:
        return "no attr"
    except ValueError as e:
        return f"invalid: {e}"
def dedupe(items):
    try:
        return list(dict.fromkeys(items))
    except TypeError:
        out = []
        for x in items:
            if x not in out:
                out.append(x)
        return out
'''
ERRS_BAD = '''
import dataclasses
def try_set(obj, name, value):
    try:
        setattr(obj, name, value)
        return "set"
    except AttributeError:
        return "no attr"
    except ValueError as e:
        return f"invalid: {e}"
def dedupe(items):
    return list(dict.fromkeys(items))
'''
ERRS_T = '''
from dataclasses import dataclass
@dataclass(frozen=True)
class F:
    x: int
@dataclass
class M:
    x: int
class S:
    __slots__ = ("x",)
class P:
    def __init__(self):
        self._v = 0
    @property
    def v(self):
        return self._v
    @v.setter
    def v(self, val):
        if val < 0:
            raise ValueError("negative")
        self._v = val
def test_frozen():
    assert try_set(F(1), "x", 2) == "frozen"
def test_slots():
    assert try_set(S(), "y", 2) == "no attr"
    s = S()
    assert try_set(s, "x", 3) == "set" and s.x == 3
def test_property_setter():
    p = P()
    assert try_set(p, "v", -1) == "invalid: negative"
    assert try_set(p, "v", 4) == "set" and p.v == 4
def test_dedupe_unhashable_tests_objects():
    a, b = M(1), M(2)
    assert dedupe([a, M(1), b]) == [M(1), M(2)]
'''
C("q5_code_handles_tests_objects_errors_ok", ERRS, ERRS_T)
C("q5_code_handles_tests_objects_errors_bad", ERRS_BAD, ERRS_T)

# ============================================================ batch 18: dataclasses mixed contents
DCM = '''
from dataclasses import dataclass, field, InitVar, asdict
from typing import ClassVar
@dataclass(unsafe_hash=True)
class Tag:
    name: str
@dataclass
class Post:
    title: str
    author: object
    tags: list = field(default_factory=list)
    views: int = field(default=0, compare=False)
    count: ClassVar[int] = 0
    secret: InitVar[str] = ""
    def __post_init__(self, secret):
        Post.count += 1
        self.has_secret = bool(secret)
'''
DCM_BAD = DCM.replace("views: int = field(default=0, compare=False)", "views: int = 0").replace(
    "@dataclass(unsafe_hash=True)", "@dataclass")
DCM_T = '''
import dataclasses
class Author:
    def __init__(self, n):
        self.n = n
def test_asdict_with_tests_object():
    a = Author("ann")
    p = Post("t", a, [Tag("x")])
    d = dataclasses.asdict(p)
    assert d["tags"] == [{"name": "x"}]
    assert d["author"] is not None and d["author"].n == "ann"
def test_views_not_compared():
    a = Author("b")
    assert Post("t", a, views=1) == Post("t", a, views=9)
def test_classvar_and_initvar():
    before = Post.count
    p = Post("t", None, secret="s")
    assert Post.count == before + 1
    assert p.has_secret is True
    assert [f.name for f in dataclasses.fields(Post)] == ["title", "author", "tags", "views"]
def test_tags_hashable():
    assert len({Tag("a"), Tag("a"), Tag("b")}) == 2
def test_mutate_list_field_then_asdict():
    p = Post("t", None)
    p.tags.append(Tag("z"))
    assert dataclasses.asdict(p)["tags"] == [{"name": "z"}]
'''
C("q5_dc_mixed_contents_ok", DCM, DCM_T)
C("q5_dc_mixed_contents_bad", DCM_BAD, DCM_T)

# ============================================================ batch 19: pytest features around code objects
PF_CODE = '''
class Pool:
    def __init__(self, size):
        self.size = size
        self.used = []
    def acquire(self):
        if len(self.used) >= self.size:
            raise RuntimeError("exhausted")
        self.used.append(object())
        return len(self.used)
    def release(self):
        self.used.pop()
'''
PF_CODE_BAD = PF_CODE.replace("if len(self.used) >= self.size:", "if len(self.used) > self.size:").replace(
    "        self.used.pop()", "        pass")
PF_T = '''
import pytest
@pytest.fixture(params=[1, 2, 3])
def pool(request):
    p = Pool(request.param)
    request.addfinalizer(lambda: p.used.clear())
    return p
def test_capacity(pool):
    for _ in range(pool.size):
        pool.acquire()
    with pytest.raises(RuntimeError, match="exhausted"):
        pool.acquire()
@pytest.mark.parametrize("n", [1, 2])
@pytest.mark.parametrize("size", [2, 3])
def test_cartesian(n, size):
    p = Pool(size)
    assert [p.acquire() for _ in range(n)] == list(range(1, n + 1))
@pytest.mark.xfail(raises=RuntimeError, strict=True)
def test_xfail_strict():
    Pool(0).acquire()
@pytest.mark.parametrize("size,ok", [pytest.param(0, False, id="empty"), pytest.param(1, True, id="one")])
def test_ids(size, ok):
    p = Pool(size)
    if ok:
        p.acquire()
    else:
        with pytest.raises(RuntimeError):
            p.acquire()
class TestRelease:
    def setup_method(self):
        self.p = Pool(1)
    def teardown_method(self):
        assert self.p.used == []
    def test_release(self):
        self.p.acquire()
        self.p.release()
'''
C("q5_pytest_features_pool_ok", PF_CODE, PF_T)
C("q5_pytest_features_pool_bad", PF_CODE_BAD, PF_T)

PF2_T = '''
import pytest
@pytest.fixture
def base():
    return Pool(2)
@pytest.fixture
def half(base):
    base.acquire()
    yield base
    base.release()
    assert base.used == []
@pytest.mark.usefixtures("half")
class TestUse:
    def test_marker_only(self):
        assert True
def test_half(half):
    assert len(half.used) == 1
    half.acquire()
    half.release()
def test_monkeypatch_context():
    p = Pool(1)
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(p, "size", 5)
        for _ in range(5):
            p.acquire()
    assert p.size == 1
def test_monkeypatch_delattr_code_class(monkeypatch):
    monkeypatch.delattr(Pool, "release")
    assert not hasattr(Pool(1), "release")
def test_release_back():
    assert hasattr(Pool(1), "release")
'''
C("q5_pytest_fixture_chain_teardown_ok", PF_CODE, PF2_T)
C("q5_pytest_fixture_chain_teardown_bad", PF_CODE_BAD, PF2_T)

# ============================================================ batch 20: generators holding tests' context managers
GCM = '''
def read_records(open_fn, path):
    with open_fn(path) as fh:
        for line in fh:
            if line.strip():
                yield line.strip().split(",")
def first_error(gen):
    for i, x in enumerate(gen):
        if x is None:
            raise StopIteration
        yield x
'''
GCM_BAD = GCM.replace("    with open_fn(path) as fh:\n        for line in fh:", "    fh = open_fn(path).__enter__()\n    if True:\n        for line in fh:")
GCM_T = '''
import pytest
from contextlib import contextmanager
events = []
@contextmanager
def fake_open(path):
    events.append(("open", path))
    try:
        yield iter(["a,1\\n", "\\n", "b,2\\n"])
    finally:
        events.append(("close", path))
def test_cm_closed_when_exhausted():
    events.clear()
    g = read_records(fake_open, "p")
    assert next(g) == ["a", "1"]
    assert events == [("open", "p")]
    assert list(g) == [["b", "2"]]
    assert events == [("open", "p"), ("close", "p")]
def test_cm_closed_on_close():
    events.clear()
    g = read_records(fake_open, "q")
    next(g)
    g.close()
    assert events[-1] == ("close", "q")
def test_stopiteration_inside_generator_is_runtime_error():
    g = first_error(iter([1, None, 3]))
    assert next(g) == 1
    with pytest.raises(RuntimeError):
        next(g)
'''
C("q5_gen_holds_tests_cm_ok", GCM, GCM_T)
C("q5_gen_holds_tests_cm_bad", GCM_BAD, GCM_T)
C("q5_min_code_close_gen_holding_tests_cm", '''
def lines(open_fn):
    with open_fn() as it:
        for x in it:
            yield x
''', '''
from contextlib import contextmanager
events = []
@contextmanager
def opener():
    try:
        yield iter([1, 2])
    finally:
        events.append("close")
def test_close():
    g = lines(opener)
    next(g)
    g.close()
    assert events == ["close"]
''')
C("q5_min_code_with_tests_cm_generatorexit", '''
def run(cm_factory):
    def gen():
        with cm_factory():
            yield 1
    g = gen()
    next(g)
    g.close()
    return "closed"
''', '''
from contextlib import contextmanager
@contextmanager
def cm():
    yield
def test_run():
    assert run(cm) == "closed"
''')
C("q5_min_tests_cm_dropped_by_code_bad", '''
def enter_only(make):
    return make().__enter__()
''', '''
from contextlib import contextmanager
events = []
@contextmanager
def cm():
    try:
        yield 1
    finally:
        events.append("close")
def test_not_closed_early():
    assert enter_only(cm) == 1
    assert events == []
''')

# ============================================================ batch 21: tests' value-type enums to the code
TENUM = '''
import enum
def describe(x):
    if isinstance(x, enum.Enum):
        return f"{type(x).__name__}.{x.name}={x.value!r}"
    return repr(x)
def bump(level):
    return type(level)(level + 1)
def upper_name(s):
    return s.upper(), s.name
'''
TENUM_BAD = TENUM.replace("if isinstance(x, enum.Enum):", "if hasattr(x, 'nam'):").replace("return type(level)(level + 1)", "return level + 1")
TENUM_T = '''
from enum import IntEnum, StrEnum
class Level(IntEnum):
    LOW = 1
    HIGH = 2
class Color(StrEnum):
    RED = "red"
def test_describe_tests_intenum():
    assert describe(Level.LOW) == "Level.LOW=1"
    assert describe(3) == "3"
def test_bump_returns_member():
    r = bump(Level.LOW)
    assert r is Level.HIGH
def test_strenum_to_code():
    assert upper_name(Color.RED) == ("RED", "RED")
'''
C("q5_tests_value_enums_to_code_ok", TENUM, TENUM_T)
C("q5_tests_value_enums_to_code_bad", TENUM_BAD, TENUM_T)

TINT = '''
def total(xs):
    return sum(xs)
def double(x):
    return x * 2
'''
TINT_T = '''
class Meters(float):
    def __add__(self, o):
        return Meters(float(self) + float(o))
    __radd__ = __add__
    def __mul__(self, k):
        return Meters(float(self) * k)
    def __repr__(self):
        return f"{float(self)}m"
def test_sum_keeps_tests_type():
    r = total([Meters(1), Meters(2)])
    assert repr(r) == "3.0m"
def test_double_keeps_type():
    assert repr(double(Meters(1.5))) == "3.0m"
'''
C("q5_tests_float_subclass_ops_in_code", TINT, TINT_T)
C("q5_min_tests_intenum_isinstance_enum_in_code", '''
import enum
def is_enum(x):
    return isinstance(x, enum.Enum)
''', '''
from enum import IntEnum
class L(IntEnum):
    A = 1
def test_is_enum():
    assert is_enum(L.A)
''')
C("q5_min_code_intenum_isinstance_enum_in_tests", '''
from enum import IntEnum
class L(IntEnum):
    A = 1
''', '''
import enum
def test_is_enum():
    assert isinstance(L.A, enum.Enum)
    assert isinstance(L.A, enum.IntEnum)
    assert type(L.A) is L
''')
C("q5_min_tests_strenum_name_in_code", '''
def names(xs):
    return [x.name for x in xs]
''', '''
from enum import StrEnum
class C(StrEnum):
    RED = "red"
def test_names():
    assert names([C.RED]) == ["RED"]
''')
C("q5_min_code_enum_isinstance_enum_in_tests", '''
from enum import Enum
class Color(Enum):
    RED = 1
''', '''
import enum
def test_is_enum():
    assert isinstance(Color.RED, enum.Enum)
    assert issubclass(Color, enum.Enum)
    assert type(Color.RED) is Color
''')
C("q5_min_code_intenum_issubclass_intenum", '''
from enum import IntEnum
class L(IntEnum):
    A = 1
''', '''
import enum
def test_cls():
    assert issubclass(L, enum.IntEnum)
''')
C("q5_min_code_flag_isinstance_flag", '''
from enum import Flag, auto
class P(Flag):
    R = auto()
''', '''
import enum
def test_flag():
    assert isinstance(P.R, enum.Flag)
''')

# ============================================================ batch 22: code classes on stdlib bases used by the tests
STDB = '''
import logging, collections, threading
class ListHandler(logging.Handler):
    def __init__(self):
        super().__init__()
        self.records = []
    def emit(self, record):
        self.records.append(self.format(record))
class LowerDict(collections.UserDict):
    def __setitem__(self, k, v):
        super().__setitem__(k.lower(), v)
    def __getitem__(self, k):
        return super().__getitem__(k.lower())
class Worker(threading.Thread):
    def __init__(self, n):
        super().__init__()
        self.n = n
        self.result = None
    def run(self):
        self.result = sum(range(self.n))
'''
STDB_BAD = STDB.replace("self.records.append(self.format(record))", "self.records.append(record.msg)").replace(
    "super().__setitem__(k.lower(), v)", "super().__setitem__(k, v)")
STDB_T = '''
import logging, collections, threading
def test_code_handler_on_tests_logger():
    h = ListHandler()
    h.setFormatter(logging.Formatter("%(levelname)s:%(message)s"))
    lg = logging.getLogger("t5")
    lg.addHandler(h)
    lg.setLevel(logging.INFO)
    try:
        lg.info("x=%d", 3)
    finally:
        lg.removeHandler(h)
    assert h.records == ["INFO:x=3"]
    assert isinstance(h, logging.Handler)
def test_userdict():
    d = LowerDict()
    d["A"] = 1
    assert d["a"] == 1 and "a" in d and len(d) == 1
    assert isinstance(d, collections.UserDict)
    assert dict(d) == {"a": 1}
def test_thread():
    w = Worker(5)
    w.start(); w.join()
    assert w.result == 10
    assert isinstance(w, threading.Thread)
'''
C("q5_code_classes_on_stdlib_bases_ok", STDB, STDB_T)
C("q5_code_classes_on_stdlib_bases_bad", STDB_BAD, STDB_T)

# ============================================================ batch 23: patching a code class used by code
PCLS = '''
class Client:
    def __init__(self, url):
        self.url = url
    def get(self, path):
        raise RuntimeError("network")
def fetch_user(uid):
    c = Client("https://api")
    data = c.get(f"/users/{uid}")
    return data["name"]
'''
PCLS_BAD = PCLS.replace('return data["name"]', 'return data.get("username", "")')
PCLS_T = '''
from unittest import mock
def test_patch_class():
    with mock.patch(__name__ + ".Client") as MockClient:
        MockClient.return_value.get.return_value = {"name": "ann"}
        assert fetch_user(7) == "ann"
    MockClient.assert_called_once_with("https://api")
    MockClient.return_value.get.assert_called_once_with("/users/7")
def test_patch_method_side_effect(monkeypatch):
    calls = []
    def fake_get(self, path):
        calls.append((self.url, path))
        return {"name": "bo"}
    monkeypatch.setattr(Client, "get", fake_get)
    assert fetch_user(1) == "bo"
    assert calls == [("https://api", "/users/1")]
@mock.patch(__name__ + ".Client")
def test_decorator_form(MockClient):
    MockClient.return_value.get.return_value = {"name": "cy"}
    assert fetch_user(2) == "cy"
'''
C("q5_mock_patch_code_class_used_by_code_ok", PCLS, PCLS_T)
C("q5_mock_patch_code_class_used_by_code_bad", PCLS_BAD, PCLS_T)
C("q5_min_patch_decorator_pytest_function", '''
import time
def wait():
    time.sleep(5)
    return "done"
''', '''
from unittest import mock
@mock.patch("time.sleep")
def test_wait(mock_sleep):
    assert wait() == "done"
    mock_sleep.assert_called_once_with(5)
''')
C("q5_min_patch_object_decorator_with_fixture", '''
class Svc:
    def load(self):
        return 1
def use():
    return Svc().load() + 1
''', '''
from unittest.mock import patch
@patch.object(Svc, "load", return_value=10)
def test_use(m, tmp_path):
    assert use() == 11
    assert m.called
''')
C("q5_min_patch_decorator_unittest_method", '''
import time
def wait():
    time.sleep(5)
    return "done"
''', '''
import unittest
from unittest import mock
class T(unittest.TestCase):
    @mock.patch("time.sleep")
    def test_wait(self, mock_sleep):
        self.assertEqual(wait(), "done")
        mock_sleep.assert_called_once_with(5)
''')
C("q5_min_patch_decorator_test_class_method", '''
import time
def wait():
    time.sleep(5)
    return "done"
''', '''
from unittest import mock
class TestWait:
    @mock.patch("time.sleep")
    def test_wait(self, mock_sleep):
        assert wait() == "done"
        mock_sleep.assert_called_once_with(5)
''')

# ============================================================ batch 24: pytest stand-in features
PS_CODE = '''
def parse_kv(s):
    if "=" not in s:
        raise ValueError(f"no '=' in {s!r}")
    k, v = s.split("=", 1)
    return k.strip(), v.strip()
'''
PS_BAD = PS_CODE.replace('k, v = s.split("=", 1)', 'k, v = s.split("=")[:2]')
PS_T = '''
import pytest
pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")
CASES = [("a=1", ("a", "1")), (" b = 2 ", ("b", "2")), ("c=d=e", ("c", "d=e"))]
@pytest.mark.parametrize("s,want", CASES, ids=lambda x: repr(x) if isinstance(x, str) else None)
def test_parse(s, want):
    assert parse_kv(s) == want
@pytest.fixture(scope="session")
def shared(tmp_path_factory):
    p = tmp_path_factory.mktemp("data") / "kv.txt"
    p.write_text("x=1\\ny=2\\n")
    return p
def test_file(shared):
    assert dict(parse_kv(l) for l in shared.read_text().splitlines()) == {"x": "1", "y": "2"}
def test_raises_tuple():
    with pytest.raises((ValueError, KeyError)) as ei:
        parse_kv("nope")
    assert ei.errisinstance(ValueError)
def test_approx_dict():
    assert {"a": 0.1 + 0.2} == pytest.approx({"a": 0.3})
def test_fail_helper():
    try:
        parse_kv("a=b")
    except ValueError:
        pytest.fail("should parse")
@pytest.mark.skipif("sys.version_info < (3, 0)")
def test_string_condition():
    assert parse_kv("q=1")[0] == "q"
def test_deprecated_call():
    import warnings
    with pytest.deprecated_call():
        warnings.warn("old", DeprecationWarning)
def test_capsys_disabled(capsys):
    with capsys.disabled():
        print("visible")
    print("captured")
    assert capsys.readouterr().out == "captured\\n"
def test_tmpdir(tmpdir):
    f = tmpdir.join("a.txt")
    f.write("k=v")
    assert parse_kv(f.read()) == ("k", "v")
'''
C("q5_pytest_standin_features_ok", PS_CODE, PS_T)
C("q5_pytest_standin_features_bad", PS_BAD, PS_T)

PS2_T = '''
import pytest
class TestGroup:
    prefix = "k"
    @pytest.fixture(autouse=True)
    def _setup(self):
        self.seen = []
        yield
        self.seen.clear()
    @pytest.mark.parametrize("v", ["1", "2"])
    def test_param_method(self, v):
        self.seen.append(parse_kv(f"{self.prefix}={v}"))
        assert self.seen == [("k", v)]
    def test_raise_msg(self):
        with pytest.raises(ValueError) as ei:
            parse_kv("x")
        assert "no '='" in str(ei.value)
@pytest.fixture
def kv(request):
    marker = request.node.get_closest_marker("kv")
    return marker.args[0] if marker else "d=0"
@pytest.mark.kv("m=9")
def test_marker_data(kv):
    assert parse_kv(kv) == ("m", "9")
def test_marker_default(kv):
    assert parse_kv(kv) == ("d", "0")
def test_request_node_name(request):
    assert request.node.name == "test_request_node_name"
@pytest.mark.parametrize("s", ["a=1"])
@pytest.mark.parametrize("n", [pytest.param(1, marks=pytest.mark.skip(reason="x")), 2])
def test_param_marks(s, n):
    assert parse_kv(s * n)
'''
C("q5_pytest_standin_features2_ok", PS_CODE, PS2_T)
C("q5_pytest_standin_features2_bad", PS_BAD, PS2_T)
PS3_CODE = '''
import os
LIMIT = 3
def limit():
    return int(os.getenv("APP_LIMIT", LIMIT))
def clamp(x):
    return min(x, LIMIT)
'''
PS3_BAD = PS3_CODE.replace('return int(os.getenv("APP_LIMIT", LIMIT))', 'return LIMIT').replace("return min(x, LIMIT)", "return min(x, 3)")
PS3_T = '''
import pytest
@pytest.fixture(name="lim")
def _lim_fixture():
    return limit()
def test_named_fixture(lim):
    assert lim == 3
def test_getfixturevalue(request):
    assert request.getfixturevalue("lim") == 3
def test_env(monkeypatch):
    monkeypatch.setenv("APP_LIMIT", "7")
    assert limit() == 7
def test_string_target(monkeypatch):
    monkeypatch.setattr(f"{__name__}.LIMIT", 1)
    assert clamp(5) == 1
def test_restored():
    assert clamp(5) == 3
'''
C("q5_pytest_named_fixture_string_patch_ok", PS3_CODE, PS3_T)
C("q5_pytest_named_fixture_string_patch_bad", PS3_BAD, PS3_T)

# ============================================================ batch 25: async iterator classes, next() on code iterators
AIT = '''
import asyncio
class Ticker:
    def __init__(self, n):
        self.n = n
        self.i = 0
    def __aiter__(self):
        return self
    async def __anext__(self):
        if self.i >= self.n:
            raise StopAsyncIteration
        self.i += 1
        await asyncio.sleep(0)
        return self.i
class Countdown:
    def __init__(self, n):
        self.n = n
    def __iter__(self):
        return self
    def __next__(self):
        if self.n <= 0:
            raise StopIteration
        self.n -= 1
        return self.n + 1
'''
AIT_BAD = AIT.replace("if self.i >= self.n:", "if self.i > self.n:").replace("if self.n <= 0:", "if self.n < 0:")
AIT_T = '''
import asyncio, pytest
def test_async_for():
    async def collect():
        return [x async for x in Ticker(3)]
    assert asyncio.run(collect()) == [1, 2, 3]
def test_anext_builtin():
    async def go():
        t = Ticker(1)
        a = await anext(t)
        b = await anext(t, "end")
        return a, b
    assert asyncio.run(go()) == (1, "end")
def test_next_default_and_stop():
    c = Countdown(1)
    assert next(c) == 1
    assert next(c, None) is None
    with pytest.raises(StopIteration):
        next(c)
def test_list_and_sum():
    assert list(Countdown(3)) == [3, 2, 1]
    assert sum(Countdown(4)) == 10
'''
C("q5_async_iter_class_and_stopiteration_ok", AIT, AIT_T)
C("q5_async_iter_class_and_stopiteration_bad", AIT_BAD, AIT_T)
C("q5_min_unittest_with_check_helper_bad", '''
def area(w, h):
    return w + h
''', '''
import unittest
def check(value=None):
    assert value is None or value > 0
class T(unittest.TestCase):
    def test_area(self):
        check(area(2, 3))
        self.assertEqual(area(2, 3), 6)
''')
C("q5_min_plain_asserts_with_check_helper_bad", '''
def area(w, h):
    return w + h
''', '''
def check(v=None):
    if v is not None:
        assert v > 0
check(area(2, 3))
assert area(2, 3) == 6
''')
C("q5_min_raises_match_in_notes", '''
def load(path):
    e = FileNotFoundError(path)
    e.add_note("hint: run setup first")
    raise e
''', '''
import pytest
def test_note_matched():
    with pytest.raises(FileNotFoundError, match="run setup first"):
        load("x")
''')
C("q5_min_raises_match_notes_bad", '''
def load(path):
    raise FileNotFoundError(path)
''', '''
import pytest
def test_note_matched():
    with pytest.raises(FileNotFoundError, match="run setup first"):
        load("x")
''')
C("q5_min_raises_group_contains", '''
def run():
    raise ExceptionGroup("many", [ValueError("a"), KeyError("b")])
''', '''
import pytest
def test_group_contains():
    with pytest.raises(ExceptionGroup) as ei:
        run()
    assert ei.group_contains(ValueError, match="a")
    assert not ei.group_contains(TypeError)
''')
C("q5_min_raises_group_class", '''
def run():
    raise ExceptionGroup("many", [ValueError("a")])
''', '''
import pytest
def test_raises_group():
    with pytest.RaisesGroup(ValueError):
        run()
''')

# ============================================================ batch 26: hashing and set order across processes
C("q5_hash_of_code_obj_vs_tuple_of_strings", '''
from dataclasses import dataclass
@dataclass(frozen=True)
class Key:
    name: str
    n: int
''', '''
def test_hash_matches_fields_tuple():
    assert hash(Key("alpha", 1)) == hash(("alpha", 1))
''')
C("q5_set_order_code_list_vs_tests_set", '''
def unique(words):
    return list(set(words))
''', '''
def test_unique_order():
    ws = ["pear", "apple", "fig", "kiwi", "plum", "apple", "date", "lime"]
    assert unique(ws) == list(set(ws))
''')
C("q5_hash_of_code_string_value", '''
def h(s):
    return hash(s)
''', '''
def test_hash_same():
    assert h("hello") == hash("hello")
''')

# ============================================================ batch 27: code introspects tests' functions
INTRO = '''
import inspect, asyncio, functools
def arity(fn):
    return len(inspect.signature(fn).parameters)
def describe(fn):
    return fn.__name__, (fn.__doc__ or "").strip()
def maybe_await(fn, *a):
    if inspect.iscoroutinefunction(fn):
        return asyncio.run(fn(*a))
    return fn(*a)
def inject(fn, **available):
    names = inspect.signature(fn).parameters
    return fn(**{n: available[n] for n in names})
def defaults(fn):
    return {k: p.default for k, p in inspect.signature(fn).parameters.items() if p.default is not inspect.Parameter.empty}
'''
INTRO_BAD = INTRO.replace("if inspect.iscoroutinefunction(fn):", "if False:").replace("return len(inspect.signature(fn).parameters)", "return 0")
INTRO_T = '''
def two(a, b):
    """Two args."""
    return a + b
async def coro(x):
    return x * 10
def test_arity_and_describe():
    assert arity(two) == 2
    assert arity(lambda: 0) == 0
    assert describe(two) == ("two", "Two args.")
def test_maybe_await():
    assert maybe_await(coro, 2) == 20
    assert maybe_await(two, 1, 2) == 3
def test_inject():
    def handler(db, user):
        return f"{user}@{db}"
    assert inject(handler, db="main", user="ann", extra=1) == "ann@main"
def test_defaults():
    def f(a, b=2, *, c="x"):
        pass
    assert defaults(f) == {"b": 2, "c": "x"}
'''
C("q5_code_introspects_tests_functions_ok", INTRO, INTRO_T)
C("q5_code_introspects_tests_functions_bad", INTRO_BAD, INTRO_T)
C("q5_min_code_signature_of_tests_function", '''
import inspect
def arity(fn):
    return len(inspect.signature(fn).parameters)
''', '''
def test_arity():
    assert arity(lambda a, b: 0) == 2
''')
C("q5_min_code_iscoroutinefunction_of_tests_async", '''
import inspect
def is_async(fn):
    return inspect.iscoroutinefunction(fn)
''', '''
async def job():
    return 1
def test_is_async():
    assert is_async(job)
''')
C("q5_min_code_decorator_async_aware_bad", '''
import functools
def retry(fn):
    @functools.wraps(fn)
    def wrapper(*a, **k):
        return fn(*a, **k)
    return wrapper
''', '''
import asyncio, inspect
@retry
async def fetch():
    return 5
def test_wrapper_stays_async():
    assert inspect.iscoroutinefunction(fetch)
''')

# ============================================================ batch 28: C-level list functions on kept lists
HQ = '''
import heapq
class PQ:
    def __init__(self):
        self.heap = []
    def items(self):
        return self.heap
    def push(self, x):
        heapq.heappush(self.heap, x)
    def pop(self):
        return heapq.heappop(self.heap)
'''
HQ_BAD = HQ.replace("return heapq.heappop(self.heap)", "return self.heap.pop(0)")
HQ_T = '''
import heapq
def test_tests_heappush_on_code_heap():
    pq = PQ()
    h = pq.items()
    heapq.heappush(h, 5)
    heapq.heappush(h, 1)
    assert pq.pop() == 1
    assert len(pq.items()) == 1
def test_tests_heappop_on_code_heap():
    pq = PQ()
    for x in (4, 2, 9):
        pq.push(x)
    assert heapq.heappop(pq.items()) == 2
    assert pq.pop() == 4
def test_heapify_and_nsmallest():
    pq = PQ()
    for x in (3, 1, 2):
        pq.push(x)
    assert heapq.nsmallest(2, pq.items()) == [1, 2]
    assert pq.items()[0] == 1
'''
C("q5_heapq_on_code_kept_list_ok", HQ, HQ_T)
C("q5_heapq_on_code_kept_list_bad", HQ_BAD, HQ_T)
C("q5_min_heappush_on_kept_list", '''
class PQ:
    def __init__(self):
        self.heap = []
    def items(self):
        return self.heap
''', '''
import heapq
def test_push():
    pq = PQ()
    heapq.heappush(pq.items(), 5)
    assert pq.heap == [5]
''')
C("q5_min_bisect_insort_on_kept_list", '''
class S:
    def __init__(self):
        self.xs = [1, 5]
    def items(self):
        return self.xs
''', '''
import bisect
def test_insort():
    s = S()
    bisect.insort(s.items(), 3)
    assert s.xs == [1, 3, 5]
    assert bisect.bisect(s.items(), 4) == 2
''')

# ============================================================ batch 29: exception construction shapes
EXS = '''
class HTTPError(Exception):
    def __init__(self, status, body=""):
        self.status = status
        self.body = body
    def __str__(self):
        return f"HTTP {self.status}"
class InvalidItem(Exception):
    def __init__(self, item):
        super().__init__("invalid item")
        self.item = item
def get(status):
    if status >= 400:
        raise HTTPError(status, body="oops")
    return "ok"
def validate(items):
    for it in items:
        if not getattr(it, "ok", False):
            raise InvalidItem(it)
    return True
'''
EXS_BAD = EXS.replace("if status >= 400:", "if status > 400:").replace("raise InvalidItem(it)", "raise InvalidItem(None)")
EXS_T = '''
import pytest
def test_no_super_init_attrs():
    with pytest.raises(HTTPError) as ei:
        get(404)
    assert ei.value.status == 404 and ei.value.body == "oops"
    assert str(ei.value) == "HTTP 404"
    assert ei.value.args == ()
def test_boundary():
    with pytest.raises(HTTPError, match="HTTP 400"):
        get(400)
def test_attribute_is_tests_object():
    class It:
        def __init__(self, ok):
            self.ok = ok
    bad = It(False)
    with pytest.raises(InvalidItem) as ei:
        validate([It(True), bad])
    assert ei.value.item is bad
'''
C("q5_exc_no_super_init_and_tests_obj_attr_ok", EXS, EXS_T)
C("q5_exc_no_super_init_and_tests_obj_attr_bad", EXS_BAD, EXS_T)
LRU_T2 = LRU_T.replace('''def setup_function():
    global calls
    fib.cache_clear()
    calls = 0''', '''import pytest
@pytest.fixture(autouse=True)
def _reset():
    global calls
    fib.cache_clear()
    calls = 0''')
C("q5_lru_cache_info_autouse_ok", LRU, LRU_T2)
C("q5_lru_cache_info_autouse_bad_unbounded", LRU_BAD, LRU_T2)
CMPK = '''
import functools
def by_len_then_alpha(a, b):
    return (len(a) - len(b)) or ((a > b) - (a < b))
def make_key():
    return functools.cmp_to_key(by_len_then_alpha)
'''
CMPK_BAD = CMPK.replace("return (len(a) - len(b)) or ((a > b) - (a < b))", "return len(a) - len(b)")
CMPK_T = '''
import functools, random
WORDS = ["%s%d" % ("x" * (i % 7), i) for i in range(300)]
def test_cmp_to_key_in_tests():
    ws = WORDS[:]
    random.Random(1).shuffle(ws)
    got = sorted(ws, key=functools.cmp_to_key(by_len_then_alpha))
    assert got == sorted(WORDS, key=lambda w: (len(w), w))
def test_code_key_object():
    ws = WORDS[:]
    random.Random(2).shuffle(ws)
    assert sorted(ws, key=make_key()) == sorted(WORDS, key=lambda w: (len(w), w))
    assert min(["bb", "a", "c"], key=make_key()) == "a"
'''
C("q5_cmp_to_key_both_sides_ok", CMPK, CMPK_T)
C("q5_cmp_to_key_both_sides_bad", CMPK_BAD, CMPK_T)

# ============================================================ batch 30: unittest runner details
UR = '''
import time
_log = []
def work(n):
    time.sleep(0.5)
    _log.append(n)
    return n * 2
def log():
    return list(_log)
def reset():
    _log.clear()
'''
UR_BAD = UR.replace("    _log.append(n)\n", "")
UR_T = '''
import unittest
from unittest import mock
@mock.patch("time.sleep")
class TestWork(unittest.TestCase):
    def setUp(self):
        reset()
    def tearDown(self):
        self.assertLessEqual(len(log()), 1)
    def test_double(self, sleep):
        self.assertEqual(work(2), 4)
        sleep.assert_called_once_with(0.5)
    def test_logged(self, sleep):
        work(3)
        self.assertEqual(log(), [3])
    def test_callable_assert_raises(self, sleep):
        self.assertRaises(TypeError, work, None)
class TestTeardownCheck(unittest.TestCase):
    def tearDown(self):
        self.assertEqual(log(), [])
    def test_reset_clears(self):
        with mock.patch("time.sleep"):
            work(1)
        reset()
'''
C("q5_unittest_class_patch_teardown_ok", UR, UR_T)
C("q5_unittest_class_patch_teardown_bad", UR_BAD, UR_T)
UR_T2 = '''
import unittest
class TestBadTeardown(unittest.TestCase):
    def tearDown(self):
        self.assertEqual(log(), [], "log must be empty after each test")
    def test_leaves_log(self):
        reset()
        from unittest import mock
        with mock.patch("time.sleep"):
            work(1)
'''
C("q5_unittest_teardown_assert_fails_ok", UR, UR_T2)

# ============================================================ batch 31: code context managers and tests' exception classes
CMX = '''
class Suppress:
    def __init__(self, *types):
        self.types = types
        self.caught = []
    def __enter__(self):
        return self
    def __exit__(self, et, ev, tb):
        if et is not None and issubclass(et, self.types):
            self.caught.append(ev)
            return True
        return False
class Transaction:
    def __init__(self, store):
        self.store = store
    def __enter__(self):
        self.snapshot = dict(self.store)
        return self.store
    def __exit__(self, et, ev, tb):
        if et is not None:
            self.store.clear()
            self.store.update(self.snapshot)
        return False
'''
CMX_BAD = CMX.replace("issubclass(et, self.types)", "et in self.types").replace(
    "            self.store.clear()\n            self.store.update(self.snapshot)\n", "            pass\n")
CMX_T = '''
import pytest
class AppError(Exception):
    pass
class SubError(AppError):
    pass
def test_suppress_tests_subclass():
    s = Suppress(AppError)
    with s:
        raise SubError("x")
    assert len(s.caught) == 1 and isinstance(s.caught[0], SubError)
def test_not_suppressed():
    with pytest.raises(KeyError):
        with Suppress(AppError):
            raise KeyError("k")
def test_transaction_restores_tests_dict():
    data = {"a": 1}
    with pytest.raises(AppError):
        with Transaction(data) as d:
            d["a"] = 2
            d["b"] = 3
            raise AppError()
    assert data == {"a": 1}
def test_transaction_commits():
    data = {}
    with Transaction(data) as d:
        d["k"] = 1
    assert data == {"k": 1}
'''
C("q5_code_cm_tests_exception_classes_ok", CMX, CMX_T)
C("q5_code_cm_tests_exception_classes_bad", CMX_BAD, CMX_T)
C("q5_dir_of_code_instance", '''
class P:
    kind = "p"
    def __init__(self):
        self.name = "n"
    def go(self):
        pass
''', '''
def test_dir():
    d = dir(P())
    assert "name" in d and "go" in d and "kind" in d
    assert "name" not in dir(P)
''')
C("q5_protocol_presence_of_code_objects", '''
class Plain:
    pass
class Bag:
    def __init__(self):
        self.xs = [1]
    def __iter__(self):
        return iter(self.xs)
    def __len__(self):
        return 1
class Unhashable:
    __hash__ = None
def f():
    pass
''', '''
import collections.abc as abc
def test_plain():
    p = Plain()
    assert not callable(p)
    assert not hasattr(p, "__iter__") and not hasattr(p, "__len__")
    assert not isinstance(p, abc.Iterable) and not isinstance(p, abc.Sized)
    assert isinstance(p, abc.Hashable)
def test_bag():
    b = Bag()
    assert isinstance(b, abc.Iterable) and isinstance(b, abc.Sized)
    assert not isinstance(b, abc.Container) and not isinstance(b, abc.Sequence)
    assert not callable(b)
def test_unhashable():
    assert not isinstance(Unhashable(), abc.Hashable)
def test_callables():
    assert callable(f) and callable(Plain)
''')
C("q5_min_code_vars_of_tests_object", '''
import json
def to_json(obj):
    return json.dumps(vars(obj), sort_keys=True)
''', '''
class User:
    def __init__(self):
        self.name = "ann"
        self.age = 3
def test_to_json():
    assert to_json(User()) == '{"age": 3, "name": "ann"}'
''')
C("q5_min_code_class_name_of_tests_object", '''
def label(obj):
    return f"{obj.__class__.__name__}#{obj.id}"
''', '''
class Order:
    id = 7
def test_label():
    assert label(Order()) == "Order#7"
''')
C("q5_min_code_type_name_of_tests_object", '''
def label(obj):
    return f"{type(obj).__name__}#{obj.id}"
''', '''
class Order:
    id = 7
def test_label():
    assert label(Order()) == "Order#7"
''')

# ============================================================ batch 32: volume
C("q5_volume_set_of_3000_code_objects", '''
class P:
    def __init__(self, x):
        self.x = x
    def __eq__(self, o):
        return isinstance(o, P) and self.x == o.x
    def __hash__(self):
        return hash(self.x)
def points(n):
    return [P(i % 1000) for i in range(n)]
''', '''
def test_dedupe():
    assert len(set(points(3000))) == 1000
''')
# ============================================================ batch 33: code exceptions on stdlib (non-builtin) exception bases
C("q5_code_exc_on_stdlib_exception_base", '''
import json, configparser
class ConfigMissing(configparser.Error):
    pass
class BadPayload(json.JSONDecodeError):
    pass
def load(s):
    if not s:
        raise ConfigMissing("empty")
    try:
        return json.loads(s)
    except json.JSONDecodeError as e:
        raise BadPayload(e.msg, e.doc, e.pos) from e
''', '''
import json, configparser, pytest
def test_configparser_base():
    with pytest.raises(configparser.Error):
        load("")
def test_json_base_and_attrs():
    with pytest.raises(json.JSONDecodeError) as ei:
        load("{bad")
    assert ei.value.pos == 1
    assert isinstance(ei.value, ValueError)
def test_stdlib_exception_itself():
    with pytest.raises(json.JSONDecodeError):
        json.loads("{")
''')
C("q5_min_code_exc_subclass_of_json_error", '''
import json
class BadPayload(json.JSONDecodeError):
    pass
def load(s):
    raise BadPayload("bad", s, 0)
''', '''
import json, pytest
def test_caught_as_base():
    with pytest.raises(json.JSONDecodeError):
        load("x")
''')
C("q5_min_tests_exc_subclass_of_stdlib_caught_by_code", '''
import configparser
def safe(fn):
    try:
        return fn()
    except configparser.Error as e:
        return "config error"
''', '''
import configparser
class Missing(configparser.Error):
    pass
def test_safe():
    def f():
        raise Missing("m")
    assert safe(f) == "config error"
''')

# ============================================================ batch 34: enum str/format, replace running post_init
ESTR = '''
from enum import Enum, IntEnum
class Color(Enum):
    RED = "r"
    GREEN = "g"
    def __str__(self):
        return self.name.lower()
class Code(IntEnum):
    OK = 200
    NOT_FOUND = 404
    def __str__(self):
        return f"{self.value} {self.name.replace('_', ' ').title()}"
'''
ESTR_BAD = ESTR.replace("return self.name.lower()", "return self.name")
ESTR_T = '''
def test_enum_str_format():
    assert str(Color.RED) == "red"
    assert f"{Color.GREEN}" == "green"
    assert "{}".format(Color.RED) == "red"
    assert repr(Color.RED) == "<Color.RED: 'r'>"
def test_intenum_str():
    assert str(Code.NOT_FOUND) == "404 Not Found"
    assert f"{Code.OK}" == "200 Ok"
    assert Code.OK + 1 == 201
'''
C("q5_enum_str_format_override_ok", ESTR, ESTR_T)
C("q5_enum_str_format_override_bad", ESTR_BAD, ESTR_T)

REPL = '''
from dataclasses import dataclass
@dataclass(frozen=True)
class Range:
    lo: int
    hi: int
    def __post_init__(self):
        if self.lo > self.hi:
            raise ValueError(f"lo {self.lo} > hi {self.hi}")
'''
REPL_BAD = REPL.replace("if self.lo > self.hi:", "if self.lo > self.hi + 1:")
REPL_T = '''
import dataclasses, pytest
def test_replace_validates():
    r = Range(1, 5)
    with pytest.raises(ValueError, match="lo 9 > hi 5"):
        dataclasses.replace(r, lo=9)
    assert dataclasses.replace(r, hi=9) == Range(1, 9)
def test_edge():
    with pytest.raises(ValueError):
        Range(6, 5)
'''
C("q5_dc_replace_runs_post_init_ok", REPL, REPL_T)
C("q5_dc_replace_runs_post_init_bad", REPL_BAD, REPL_T)

# ============================================================ batch 35: patching print/stdout/uuid, raising __eq__
PR = '''
import uuid
def report(rows):
    for name, v in rows:
        print(f"{name:<5}{v:>4}")
    print("total", sum(v for _, v in rows))
def new_id():
    return f"id-{uuid.uuid4().hex[:8]}"
'''
PR_BAD = PR.replace('    print("total", sum(v for _, v in rows))\n', "").replace("uuid.uuid4().hex[:8]", "uuid.uuid1().hex[:8]")
PR_T = '''
import io
from unittest import mock
from unittest.mock import patch, call
def test_patch_stdout_stringio():
    with patch("sys.stdout", new_callable=io.StringIO) as out:
        report([("a", 1), ("bb", 22)])
    assert out.getvalue() == "a       1\\nbb     22\\ntotal 23\\n"
def test_patch_print():
    with patch("builtins.print") as p:
        report([("x", 5)])
    assert p.call_args_list[-1] == call("total", 5)
    assert p.call_count == 2
def test_uuid_patched():
    fake = mock.Mock()
    fake.hex = "deadbeefcafe"
    with patch("uuid.uuid4", return_value=fake):
        assert new_id() == "id-deadbeef"
'''
C("q5_patch_stdout_print_uuid_ok", PR, PR_T)
C("q5_patch_stdout_print_uuid_bad", PR_BAD, PR_T)

EQR = '''
class Matrix:
    def __init__(self, rows):
        self.rows = rows
    def __eq__(self, o):
        if not isinstance(o, Matrix):
            raise TypeError("can only compare with Matrix")
        return self.rows == o.rows
    __hash__ = None
    def __lt__(self, o):
        raise TypeError("matrices are not ordered")
'''
EQR_BAD = EQR.replace('raise TypeError("can only compare with Matrix")', "return False")
EQR_T = '''
import pytest
def test_eq_raises_with_other_types():
    with pytest.raises(TypeError, match="only compare"):
        Matrix([[1]]) == [[1]]
def test_eq_between_matrices():
    assert Matrix([[1]]) == Matrix([[1]])
def test_lt_raises():
    with pytest.raises(TypeError, match="not ordered"):
        Matrix([]) < Matrix([])
def test_in_list_raises():
    with pytest.raises(TypeError):
        Matrix([[1]]) in [1, 2]
'''
C("q5_eq_raising_code_objects_ok", EQR, EQR_T)
C("q5_eq_raising_code_objects_bad", EQR_BAD, EQR_T)
C("q5_min_patch_sys_stdout_new_callable_hang", '''
def hi():
    print("hi")
''', '''
import io
from unittest.mock import patch
def test_hi():
    with patch("sys.stdout", new_callable=io.StringIO) as out:
        hi()
    assert out.getvalue() == "hi\\n"
''')
C("q5_min_patch_sys_stdout_new_instance", '''
def hi():
    print("hi")
''', '''
import io
from unittest.mock import patch
def test_hi():
    buf = io.StringIO()
    with patch("sys.stdout", buf):
        hi()
    assert buf.getvalue() == "hi\\n"
''')
C("q5_min_monkeypatch_sys_stdout", '''
def hi():
    print("hi")
''', '''
import io, sys
def test_hi(monkeypatch):
    buf = io.StringIO()
    monkeypatch.setattr(sys, "stdout", buf)
    hi()
    assert buf.getvalue() == "hi\\n"
''')
C("q5_min_patch_sys_stdout_no_code_call", '''
def hi():
    return "hi"
''', '''
import io
from unittest.mock import patch
def test_hi():
    with patch("sys.stdout", new_callable=io.StringIO) as out:
        print(hi())
    assert out.getvalue() == "hi\\n"
''')
C("q5_min_pytest_direct_sys_stdout_swap", '''
def hi():
    print("hi")
''', '''
import io, sys
def test_hi():
    buf = io.StringIO()
    old = sys.stdout
    sys.stdout = buf
    try:
        hi()
    finally:
        sys.stdout = old
    assert buf.getvalue() == "hi\\n"
''')
C("q5_min_unittest_patch_sys_stdout", '''
def hi():
    print("hi")
''', '''
import io, unittest
from unittest.mock import patch
class T(unittest.TestCase):
    def test_hi(self):
        with patch("sys.stdout", new_callable=io.StringIO) as out:
            hi()
        self.assertEqual(out.getvalue(), "hi\\n")
''')
C("q5_min_pytest_patch_sys_stdout_no_print", '''
def hi():
    return 1
''', '''
import io
from unittest.mock import patch
def test_hi():
    with patch("sys.stdout", new_callable=io.StringIO):
        assert hi() == 1
''')
C("q5_min_patch_sys_stdin_for_input", '''
def ask():
    return int(input()) * 2
''', '''
import io
from unittest.mock import patch
def test_ask():
    with patch("sys.stdin", io.StringIO("5\\n")):
        assert ask() == 10
''')
C("q5_min_patch_sys_stderr", '''
import sys
def warn():
    print("careful", file=sys.stderr)
''', '''
import io
from unittest.mock import patch
def test_warn():
    with patch("sys.stderr", new_callable=io.StringIO) as err:
        warn()
    assert err.getvalue() == "careful\\n"
''')

# ============================================================ batch 36: patching sys attributes
C("q5_patch_sys_argv_list", '''
import sys
def main():
    args = sys.argv[1:]
    return len(args), args[0] if args else None
''', '''
import sys
from unittest.mock import patch
def test_patch_argv():
    with patch("sys.argv", ["prog", "a", "b"]):
        assert main() == (2, "a")
def test_monkeypatch_argv(monkeypatch):
    monkeypatch.setattr(sys, "argv", ["prog"])
    assert main() == (0, None)
''')
C("q5_patch_sys_exit_mocked", '''
import sys
def guard(x):
    if x < 0:
        sys.exit(3)
    return x
''', '''
from unittest.mock import patch
def test_exit_called():
    with patch("sys.exit") as ex:
        guard(-1)
    ex.assert_called_once_with(3)
''')
C("q5_patch_sys_platform", '''
import sys
def sep():
    return "\\\\" if sys.platform.startswith("win") else "/"
''', '''
from unittest.mock import patch
def test_win():
    with patch("sys.platform", "win32"):
        assert sep() == "\\\\"
    assert sep() == "/"
''')
PR_T2 = PR_T.replace('''def test_patch_stdout_stringio():
    with patch("sys.stdout", new_callable=io.StringIO) as out:
        report([("a", 1), ("bb", 22)])
    assert out.getvalue() == "a       1\\nbb     22\\ntotal 23\\n"
''', "")
C("q5_patch_print_uuid_ok", PR, PR_T2)
C("q5_patch_print_uuid_bad", PR_BAD, PR_T2)
C("q5_patch_object_code_logger_method", '''
import logging
logger = logging.getLogger("svc")
def check(x):
    if x < 0:
        logger.warning("negative: %s", x)
    return abs(x)
''', '''
from unittest.mock import patch
def test_logger_warning_called():
    with patch.object(logger, "warning") as w:
        assert check(-2) == 2
    w.assert_called_once_with("negative: %s", -2)
def test_patch_by_name():
    with patch(__name__ + ".logger") as lg:
        check(-1)
    lg.warning.assert_called_once()
''')

# ============================================================ batch 37: ordinary I/O tests with mocks
IO = '''
def save(path, lines):
    with open(path, "w") as f:
        for ln in lines:
            f.write(ln + "\\n")
def menu():
    choice = input("choice: ")
    while choice not in ("a", "b"):
        print("invalid")
        choice = input("choice: ")
    return choice
def count_words(path):
    with open(path) as f:
        return sum(len(l.split()) for l in f)
'''
IO_BAD = IO.replace('f.write(ln + "\\n")', 'f.write(ln)').replace('''    while choice not in ("a", "b"):
        print("invalid")
        choice = input("choice: ")
''', "")
IO_T = '''
from unittest import mock
from unittest.mock import mock_open, patch, call
def test_save_writes():
    m = mock_open()
    with patch("builtins.open", m):
        save("out.txt", ["a", "b"])
    m.assert_called_once_with("out.txt", "w")
    handle = m()
    assert handle.write.call_args_list == [call("a\\n"), call("b\\n")]
def test_menu_retries(monkeypatch, capsys):
    answers = iter(["x", "y", "b"])
    monkeypatch.setattr("builtins.input", lambda prompt="": next(answers))
    assert menu() == "b"
    assert capsys.readouterr().out == "invalid\\ninvalid\\n"
def test_menu_side_effect_list():
    with patch("builtins.input", side_effect=["z", "a"]) as inp:
        assert menu() == "a"
    assert inp.call_count == 2
def test_count_words_mock_open_iter():
    with patch("builtins.open", mock_open(read_data="a b\\nc\\n")):
        assert count_words("f") == 3
'''
C("q5_io_mock_open_input_ok", IO, IO_T)
C("q5_io_mock_open_input_bad", IO_BAD, IO_T)

# ============================================================ batch 38: tests wrap the code's generator functions
WRAPG = '''
log = []
def tx():
    log.append("begin")
    try:
        yield "conn"
    except KeyError as e:
        log.append(f"rollback {e.args[0]}")
    else:
        log.append("commit")
'''
WRAPG_BAD = WRAPG.replace('''    except KeyError as e:
        log.append(f"rollback {e.args[0]}")
    else:
        log.append("commit")''', '''    finally:
        log.append("commit")''')
WRAPG_T = '''
from contextlib import contextmanager, ExitStack
import pytest
cm = contextmanager(tx)
def test_commit():
    log.clear()
    with cm() as c:
        assert c == "conn"
    assert log == ["begin", "commit"]
def test_rollback_suppresses_keyerror():
    log.clear()
    with cm():
        raise KeyError("k1")
    assert log == ["begin", "rollback k1"]
def test_other_error_propagates():
    log.clear()
    with pytest.raises(ValueError):
        with cm():
            raise ValueError("v")
    assert log == ["begin"]
def test_exitstack():
    log.clear()
    with ExitStack() as st:
        st.enter_context(cm())
        st.enter_context(cm())
    assert log == ["begin", "begin", "commit", "commit"]
'''
C("q5_tests_wrap_code_generator_as_cm_ok", WRAPG, WRAPG_T)
C("q5_tests_wrap_code_generator_as_cm_bad", WRAPG_BAD, WRAPG_T)


# The round's own: a test's object handed to the code lives as long as either side keeps it (session 24).
SEEN = '''
_seen = set()
def first_time(obj):
    key = id(obj)
    if key in _seen:
        return False
    _seen.add(key)
    return True
'''
C("s24_id_seen_twice_ok", SEEN, '''
class T:
    pass
def test_second_time_is_not_first():
    a = T()
    assert first_time(a) is True
    assert first_time(a) is False
    b = T()
    assert first_time(b) is True
''')
C("s24_id_seen_twice_bad", '''
_seen = []
def first_time(obj):
    _seen.append(obj)
    return True
''', '''
class T:
    pass
def test_second_time_is_not_first():
    a = T()
    assert first_time(a) is True
    assert first_time(a) is False
''')
KEEP_LATER = '''
_held = []
def look(obj):
    return obj.v
def hold(obj):
    _held.append(obj)
def held_values():
    return [o.v for o in _held]
def drop_all():
    _held.clear()
'''
C("s24_look_then_hold_later_ok", KEEP_LATER, '''
import gc, weakref
class T:
    def __init__(self, v):
        self.v = v
def test_kept_after_a_later_call():
    a = T(3)
    w = weakref.ref(a)
    assert look(a) == 3
    hold(a)
    del a
    gc.collect()
    assert w() is not None and w().v == 3
    assert held_values() == [3]
def test_let_go_after_drop():
    a = T(4)
    w = weakref.ref(a)
    hold(a)
    del a
    drop_all()
    gc.collect()
    assert w() is None
''')
C("s24_look_only_not_kept_bad", '''
_held = []
def look(obj):
    return obj.v
def hold(obj):
    return obj.v
def held_values():
    return [o.v for o in _held]
def drop_all():
    _held.clear()
''', '''
import gc, weakref
class T:
    def __init__(self, v):
        self.v = v
def test_kept_after_a_later_call():
    a = T(3)
    w = weakref.ref(a)
    assert look(a) == 3
    hold(a)
    del a
    gc.collect()
    assert w() is not None
''')
C("s24_del_runs_without_gc_ok", '''
def describe(obj):
    return f"<{obj.name}>"
''', '''
log = []
class T:
    name = 't'
    def __del__(self):
        log.append('del')
def test_del_runs_when_the_test_lets_go():
    a = T()
    assert describe(a) == '<t>'
    del a
    assert describe(type('X', (), {'name': 'x'})()) == '<x>'
    assert log == ['del']
''')
C("s24_callback_per_call_many", '''
def apply(fn, x):
    return fn(x)
_kept = []
def keep(fn):
    _kept.append(fn)
def run_kept(x):
    return [f(x) for f in _kept]
''', '''
def test_lambdas():
    total = 0
    for k in range(300):
        total += apply(lambda v: v + 1, k)
    assert total == sum(range(1, 301))
def test_kept_lambdas_still_callable():
    for k in range(3):
        keep(lambda v, k=k: v + k)
    import gc
    gc.collect()
    assert run_kept(10) == [10, 11, 12]
''')
C("s24_same_object_many_calls_identity_ok", '''
_last = None
def same_as_last(obj):
    global _last
    r = _last is obj
    _last = obj
    return r
''', '''
class T:
    pass
def test_identity_across_calls():
    a, b = T(), T()
    assert same_as_last(a) is False
    assert same_as_last(a) is True
    assert same_as_last(b) is False
    assert same_as_last(a) is False
''')
C("s24_weak_dict_of_tests_obj_then_strong_ok", '''
import weakref
_meta = weakref.WeakKeyDictionary()
_pinned = []
def tag(obj, label):
    _meta[obj] = label
def label_of(obj):
    return _meta.get(obj)
def pin(obj):
    _pinned.append(obj)
def count():
    return len(_meta)
''', '''
import gc
class T:
    pass
def test_pinned_keeps_tag():
    a = T()
    tag(a, 'x')
    pin(a)
    del a
    gc.collect()
    assert count() == 1
def test_unpinned_loses_tag():
    b = T()
    tag(b, 'y')
    assert label_of(b) == 'y'
    del b
    gc.collect()
    assert count() == 1   # the pinned one from the first test only
''')
C("s24_thread_holds_then_lets_go_ok", '''
import threading, time
_box = []
def hold_briefly(obj):
    def work():
        _box.append(obj.v)
    t = threading.Thread(target=work)
    t.start()
    t.join()
    return _box[-1]
''', '''
import gc, weakref
class T:
    def __init__(self, v):
        self.v = v
def test_not_kept_by_a_finished_thread():
    a = T(5)
    w = weakref.ref(a)
    assert hold_briefly(a) == 5
    del a
    gc.collect()
    assert w() is None
''')
C("s24_generator_holds_obj_ok", '''
def repeat(obj, n):
    for _ in range(n):
        yield obj.v
''', '''
import gc, weakref
class T:
    def __init__(self, v):
        self.v = v
def test_generator_keeps_while_alive():
    a = T(2)
    w = weakref.ref(a)
    g = repeat(a, 3)
    del a
    gc.collect()
    assert next(g) == 2
    assert list(g) == [2, 2]
''')
C("s24_unittest_obj_passed_setup_ok", '''
class Registry:
    def __init__(self):
        self._items = {}
    def add(self, key, obj):
        self._items[key] = obj
    def get(self, key):
        return self._items.get(key)
    def remove(self, key):
        del self._items[key]
''', '''
import unittest, gc, weakref
class Item:
    def __init__(self, n):
        self.n = n
class TestRegistry(unittest.TestCase):
    def setUp(self):
        self.r = Registry()
    def test_add_get_same(self):
        it = Item(1)
        self.r.add('a', it)
        self.assertIs(self.r.get('a'), it)
    def test_remove_frees(self):
        it = Item(2)
        w = weakref.ref(it)
        self.r.add('b', it)
        self.r.remove('b')
        del it
        gc.collect()
        self.assertIsNone(w())
    def test_kept_while_registered(self):
        it = Item(3)
        w = weakref.ref(it)
        self.r.add('c', it)
        del it
        gc.collect()
        self.assertEqual(w().n, 3)
''')
C("s24_registry_remove_frees_nogc", '''
_items = {}
def add(key, obj):
    _items[key] = obj
def remove(key):
    del _items[key]
''', '''
import weakref
class Item:
    pass
def test_remove_frees_at_once():
    it = Item()
    w = weakref.ref(it)
    add('b', it)
    remove('b')
    del it
    assert w() is None
''')
C("s24_del_runs_right_after_call_ok", '''
def describe(obj):
    return f"<{obj.name}>"
''', '''
log = []
class T:
    name = 't'
    def __del__(self):
        log.append('del')
def test_del_runs_at_once():
    a = T()
    assert describe(a) == '<t>'
    del a
    assert log == ['del']
''')
C("s24_del_not_run_when_code_keeps_bad", '''
_keep = []
def describe(obj):
    _keep.append(obj)
    return f"<{obj.name}>"
''', '''
log = []
class T:
    name = 't'
    def __del__(self):
        log.append('del')
def test_del_runs_at_once():
    a = T()
    assert describe(a) == '<t>'
    del a
    assert log == ['del']
''')
C("s24_returned_test_object_identity_ok", '''
def pick(a, b):
    return a if a.n >= b.n else b
''', '''
class N:
    def __init__(self, n):
        self.n = n
def test_pick_returns_same_object():
    x, y = N(1), N(2)
    assert pick(x, y) is y
    assert pick(N(5), x).n == 5
    assert pick(x, N(0)) is x
''')
C("s24_cycle_in_code_holding_tests_obj_ok", '''
class Node:
    def __init__(self, payload):
        self.payload = payload
        self.me = self
def wrap(obj):
    Node(obj)
    return obj.v
''', '''
import gc, weakref
class P:
    def __init__(self, v):
        self.v = v
def test_test_object_freed_after_codes_cycle_collected():
    p = P(1)
    w = weakref.ref(p)
    assert wrap(p) == 1
    del p
    gc.collect()
    assert w() is None
''')
C("s24_weakset_listener_cycle_in_code_ok", '''
import weakref
class Bus:
    def __init__(self):
        self.subs = weakref.WeakSet()
    def sub(self, fn):
        self.subs.add(fn)
        junk = [fn]
        junk.append(junk)
    def count(self):
        return len(self.subs)
''', '''
import gc
class L:
    def __call__(self, e): pass
def test_listener_kept_while_test_holds():
    b = Bus()
    l = L()
    b.sub(l)
    gc.collect()
    assert b.count() == 1
    del l
    gc.collect()
    assert b.count() == 0
''')


# The code writing to a test's buffer (a flush that asked the tests again and again: a hang).
C("s24_code_sets_stdout_to_tests_buffer", '''
import sys
def hi_into(buf):
    old = sys.stdout
    sys.stdout = buf
    try:
        print("hi")
    finally:
        sys.stdout = old
''', '''
import io
def test_hi():
    buf = io.StringIO()
    hi_into(buf)
    assert buf.getvalue() == "hi\\n"
''')
C("s24_code_redirect_stdout_to_tests_buffer", '''
import contextlib
def hi_into(buf):
    with contextlib.redirect_stdout(buf):
        print("hi")
''', '''
import io
def test_hi():
    buf = io.StringIO()
    hi_into(buf)
    assert buf.getvalue() == "hi\\n"
''')
C("s24_code_print_file_tests_buffer", '''
def hi_into(buf):
    print("hi", file=buf)
''', '''
import io
def test_hi():
    buf = io.StringIO()
    hi_into(buf)
    assert buf.getvalue() == "hi\\n"
''')


# The review of the round's lifetimes change (a helper): a test's object the code lets go of, takes back, or holds
# weakly inside a call; answers and requests that name what they let go of.
# 1. code takes back a watched listener from its WeakSet, holds it strongly, then calls a test callback
#    that drops the test's last ref (nesting > 0: "held" not told yet)
C("v24_weakset_takeback_nested_ok", '''
import weakref
_ws = weakref.WeakSet()
_strong = []
def register(fn):
    _ws.add(fn)
def pin_then(cb):
    for f in list(_ws):
        _strong.append(f)
    cb()
    return [f() for f in _strong]
''', '''
holder = []
def test_pinned_survives():
    def listener():
        return 42
    holder.append(listener)
    register(listener)
    del listener
    assert pin_then(lambda: holder.clear()) == [42]
''')

# 2. code keeps id() of objects, test keeps objects alive, ids must stay stable
C("v24_id_stable_kept_by_test_ok", '''
_ids = {}
def note(obj):
    _ids.setdefault(id(obj), 0)
    _ids[id(obj)] += 1
    return _ids[id(obj)]
''', '''
import gc
class T: pass
def test_ids():
    objs = [T() for _ in range(50)]
    for o in objs:
        assert note(o) == 1
    gc.collect()
    for o in objs:
        assert note(o) == 2
''')

# 3. code returns the object it popped from its store (payload names the object the message lets go of)
C("v24_pop_return_ok", '''
_store = []
def put(x):
    _store.append(x)
def take():
    return _store.pop()
''', '''
import weakref
class T:
    def __init__(self, v): self.v = v
def test_take():
    put(T(1))
    t = take()
    assert t.v == 1
    w = weakref.ref(t)
    del t
    assert w() is None
''')

# 4. generator of the code's pops items: yields and StopIteration value
C("v24_gen_pop_ok", '''
_store = []
def put(x):
    _store.append(x)
def drain():
    while len(_store) > 1:
        yield _store.pop(0)
    return _store.pop(0)
''', '''
class T:
    def __init__(self, v): self.v = v
def test_drain():
    for i in range(3):
        put(T(i))
    def outer():
        r = yield from drain()
        return r
    g = outer()
    got = []
    try:
        while True:
            got.append(next(g).v)
    except StopIteration as e:
        got.append(e.value.v)
    assert got == [0, 1, 2]
''')

# 5. mutated args: code reverses list of test objects
C("v24_mutated_reverse_ok", '''
def rev(lst):
    lst.reverse()
def swap_out(lst, new):
    lst[0] = new
''', '''
import weakref
class T:
    def __init__(self, v): self.v = v
def test_rev():
    lst = [T(1), T(2), T(3)]
    rev(lst)
    assert [t.v for t in lst] == [3, 2, 1]
def test_swap_out_frees():
    lst = [T(1)]
    w = weakref.ref(lst[0])
    swap_out(lst, T(2))
    assert lst[0].v == 2
    assert w() is None
''')

# 6. code keeps object only in a cycle; test collects and expects free
C("v24_cycle_then_collect_ok", '''
class Node:
    def __init__(self, payload):
        self.me = self
        self.payload = payload
def wrap(x):
    Node(x)
''', '''
import gc, weakref
class T: pass
def test_cycle():
    t = T()
    w = weakref.ref(t)
    wrap(t)
    del t
    gc.collect()
    assert w() is None
def test_cycle_nogc_kept():
    t = T()
    w = weakref.ref(t)
    gc.disable()
    try:
        wrap(t)
        del t
        assert w() is not None
    finally:
        gc.enable()
''')

# 7. code __del__ in a cycle uses the test's object
C("v24_cycle_del_uses_obj_ok", '''
import gc
out = []
class Holder:
    def __init__(self, obj):
        self.obj = obj
        self.me = self
    def __del__(self):
        out.append(self.obj.v)
def make(obj):
    Holder(obj)
def results():
    return list(out)
''', '''
import gc
class T:
    def __init__(self, v): self.v = v
def test_del_sees_obj():
    make(T(7))
    gc.collect()
    assert results() == [7]
''')

# 8. test's object __del__ calls the code
C("v24_test_del_calls_code_ok", '''
log = []
def record(x):
    log.append(x)
def look(o):
    return o.v
def get_log():
    return list(log)
''', '''
class T:
    def __init__(self, v): self.v = v
    def __del__(self):
        record(self.v)
def test_del_calls_code():
    assert look(T(1)) == 1
    assert look(T(2)) == 2
    assert get_log() == [1, 2]
''')

# 9. WeakValueDictionary cache of test objects
C("v24_wvd_cache_ok", '''
import weakref
_cache = weakref.WeakValueDictionary()
def cache(key, obj):
    _cache[key] = obj
def lookup(key):
    return _cache.get(key)
def size():
    return len(_cache)
''', '''
import gc
class T:
    def __init__(self, v): self.v = v
def test_cache():
    a = T(1)
    cache('a', a)
    cache('b', T(2))
    assert lookup('a') is a
    assert lookup('b') is None
    assert size() == 1
    del a
    gc.collect()
    assert size() == 0
''')

# 10. weakref.finalize on test objects in code
C("v24_finalize_ok", '''
import weakref
done = []
def watch(obj, name):
    weakref.finalize(obj, done.append, name)
def finished():
    return list(done)
''', '''
class T: pass
def test_finalize():
    a = T()
    watch(a, 'a')
    watch(T(), 'b')
    assert finished() == ['b']
    del a
    assert finished() == ['b', 'a']
''')

# 11. mock object passed
C("v24_mock_ok", '''
def use(svc):
    svc.ping(1)
    return svc.ping.call_count
''', '''
from unittest import mock
def test_mock():
    m = mock.Mock()
    assert use(m) == 1
    assert use(m) == 2
    m.ping.assert_called_with(1)
''')

# 12. bound methods to WeakSet
C("v24_bound_method_strong_ok", '''
_cbs = []
def on(cb):
    _cbs.append(cb)
def fire():
    return [cb() for cb in _cbs]
''', '''
class T:
    def __init__(self, v): self.v = v
    def get(self): return self.v
def test_bound():
    t = T(3)
    on(t.get)
    del t
    import gc; gc.collect()
    assert fire() == [3]
''')

# 13. same object id stability across many calls when test holds it
C("v24_same_obj_many_ok", '''
_seen = set()
def see(o):
    n = len(_seen)
    _seen.add(id(o))
    return len(_seen) - n
''', '''
class T: pass
def test_many():
    a = T()
    total = 0
    for _ in range(200):
        total += see(a)
    assert total == 1
''')

# 14. NEW? watched at nesting 1 inside one call, taken back strongly in the same call, test drops its ref meanwhile
C("v24_watched_midcall_takeback_ok", '''
import weakref
_ws = weakref.WeakSet()
_strong = []
def run(reg):
    _ws.add(reg.get())
    reg.ping()
    for f in list(_ws):
        _strong.append(f)
    reg.clear()
    reg.ping()
    return _strong[0].v
''', '''
class T:
    def __init__(self, v): self.v = v
class Reg:
    def __init__(self): self.items = [T(5)]
    def get(self): return self.items[0]
    def ping(self): return 1
    def clear(self): self.items.clear()
def test_run():
    assert run(Reg()) == 5
''')

C("v24_identity_map_midcall_ok", '''
import weakref
_identity = weakref.WeakValueDictionary()
def load_all(source):
    for key in source.keys():
        _identity[key] = source.fetch(key)
    result = [_identity[k] for k in source.keys()]
    source.forget_all()
    return sum(r.v for r in result)
''', '''
class Row:
    def __init__(self, v): self.v = v
class Source:
    def __init__(self): self.rows = {'a': Row(1), 'b': Row(2)}
    def keys(self): return list(self.rows)
    def fetch(self, k): return self.rows[k]
    def forget_all(self): self.rows = {}
def test_load():
    assert load_all(Source()) == 3
''')

# forged pass: code that swallows errors; the test (wrongly) expects the rows gone
C("v24_identity_map_midcall_forged", '''
import weakref
_identity = weakref.WeakValueDictionary()
def load_all(source):
    for key in source.keys():
        _identity[key] = source.fetch(key)
    result = [_identity[k] for k in source.keys()]
    source.forget_all()
    total = 0
    for r in result:
        try:
            total += r.v
        except Exception:
            pass
    return total
''', '''
class Row:
    def __init__(self, v): self.v = v
class Source:
    def __init__(self): self.rows = {'a': Row(1), 'b': Row(2)}
    def keys(self): return list(self.rows)
    def fetch(self, k): return self.rows[k]
    def forget_all(self): self.rows = {}
def test_load_forgets():
    assert load_all(Source()) == 0
''')

# in-call WeakSet of temps the tests return
C("v24_weakset_of_temps_in_call", '''
import weakref
def count_live(factory):
    ws = weakref.WeakSet()
    for i in range(3):
        ws.add(factory())
    return len(ws)
''', '''
class T: pass
def test_none_live():
    assert count_live(T) == 0
''')

# dropped mid-call, test callback checks it's freed (serve holds dropped during perform)
C("v24_dropped_midcall_checked_by_callback", '''
def process(src, check):
    o = src.make()
    o.v
    del o
    return check()
''', '''
import weakref
class T:
    v = 1
class Src:
    def make(self):
        obj = T()
        self.w = weakref.ref(obj)
        return obj
def test_freed_before_check():
    s = Src()
    assert process(s, lambda: s.w() is None) is True
''')

# a test's generator resumed after the code dropped the previous item
C("v24_gen_item_freed_before_resume", '''
def consume(it):
    total = 0
    while True:
        try:
            x = next(it)
        except StopIteration:
            break
        total += x.i
        del x
    return total
''', '''
log = []
class T:
    def __init__(self, i): self.i = i
    def __del__(self): log.append(self.i)
def test_resume():
    seen = []
    def g():
        for i in range(3):
            seen.append(list(log))
            yield T(i)
        seen.append(list(log))
    assert consume(g()) == 3
    assert seen == [[], [0], [0, 1], [0, 1, 2]]
''')

C("v24_lru_cache_keyed_ok", '''
import functools
@functools.lru_cache(maxsize=2)
def describe(obj):
    return obj.name
def info():
    return describe.cache_info().hits
''', '''
import weakref, gc
class T:
    def __init__(self, n): self.name = n
    def __hash__(self): return hash(self.name)
    def __eq__(self, o): return isinstance(o, T) and o.name == self.name
def test_cache():
    a = T('a')
    assert describe(a) == 'a'
    assert describe(T('a')) == 'a'
    assert info() == 1
    w = weakref.ref(a)
    del a
    gc.collect()
    assert w() is not None
    describe(T('b')); describe(T('c'))
    gc.collect()
    assert w() is None
''')

C("v24_unittest_setup_teardown_ok", '''
import weakref
_subs = weakref.WeakSet()
def subscribe(s):
    _subs.add(s)
def count():
    return len(_subs)
''', '''
import unittest, gc
class Sub:
    pass
class TestSubs(unittest.TestCase):
    def setUp(self):
        self.s = Sub()
        subscribe(self.s)
    def tearDown(self):
        del self.s
        gc.collect()
    def test_one(self):
        self.assertEqual(count(), 1)
    def test_two(self):
        self.assertEqual(count(), 1)
''')

C("v24_code_gc_collect_cycle_with_obj", '''
import gc, weakref
class Box:
    def __init__(self, x):
        self.x = x
        self.self = self
_w = []
def box(x):
    b = Box(x)
    _w.append(weakref.ref(b))
def collect_and_count():
    gc.collect()
    return sum(1 for w in _w if w() is not None)
''', '''
import weakref
class T: pass
def test_collect_in_code():
    t = T()
    w = weakref.ref(t)
    box(t)
    assert collect_and_count() == 0
    del t
    assert w() is None
''')

C("v24_class_passed_ok", '''
_reg = {}
def register(cls):
    _reg[cls.__name__] = cls
    return cls
def make(name):
    return _reg[name]()
''', '''
import gc
def test_class():
    @register
    class Foo:
        v = 3
    del Foo
    gc.collect()
    assert make('Foo').v == 3
''')

C("v24_lambda_wvd_ok", '''
import weakref
_h = weakref.WeakValueDictionary()
def on(name, fn):
    _h[name] = fn
def names():
    return sorted(_h)
''', '''
def test_wvd_lambdas():
    keep = lambda: 1
    on('a', keep)
    on('b', lambda: 2)
    assert names() == ['a']
    del keep
    assert names() == []
''')

C("v24_test_del_calls_code_during_code_gc", '''
import gc
log = []
def record(x):
    log.append(x)
class Node:
    def __init__(self, o):
        self.o = o
        self.me = self
def keep_in_cycle(o):
    Node(o)
def collect():
    gc.collect()
    return list(log)
''', '''
class T:
    def __init__(self, v): self.v = v
    def __del__(self):
        record(self.v)
def test_del_during_code_gc():
    keep_in_cycle(T(1))
    keep_in_cycle(T(2))
    out = collect()
    assert sorted(out) in ([], [1, 2])
    import gc; gc.collect()
    assert sorted(collect()) == [1, 2]
''')

C("v24_code_generator_holds_obj_ok", '''
def each_twice(items):
    for it in items:
        yield it
        yield it
''', '''
import weakref, gc
class T:
    def __init__(self, v): self.v = v
def test_gen():
    a = T(1)
    w = weakref.ref(a)
    g = each_twice([a])
    del a
    x = next(g)
    del x
    gc.collect()
    assert w() is not None
    assert next(g).v == 1
    del g
    gc.collect()
    assert w() is None
''')

C("v24_id_dict_across_calls_reuse", '''
_by_id = {}
def remember(o):
    _by_id[id(o)] = o.v
def recall(o):
    return _by_id.get(id(o))
''', '''
class T:
    def __init__(self, v): self.v = v
def test_recall():
    keep = [T(i) for i in range(30)]
    for o in keep:
        remember(o)
    import gc; gc.collect()
    assert [recall(o) for o in keep] == list(range(30))
''')

C("v24_threads_same_obj_ok", '''
_ids = set()
def look(o):
    _ids.add(id(o))
    return o.v
def nids():
    return len(_ids)
''', '''
import threading, weakref, gc
class T:
    def __init__(self, v): self.v = v
def test_threads():
    shared = T(2)
    w = weakref.ref(shared)
    errs = []
    def work():
        try:
            for _ in range(150):
                assert look(shared) == 2
                look(T(1))
        except Exception as e:
            errs.append(repr(e))
    ts = [threading.Thread(target=work) for _ in range(4)]
    for t in ts: t.start()
    for t in ts: t.join()
    assert errs == []
    del shared
    gc.collect()
    assert w() is None
''')

# forged pass without any try/except: the code leaks the rows (strong list), the test checks they are freed
C("v24_identity_map_leak_forged", '''
import weakref
_identity = weakref.WeakValueDictionary()
_leak = []
def load_all(source):
    for key in source.keys():
        _identity[key] = source.fetch(key)
    _leak.extend(_identity.values())
    source.forget_all()
    return len(_leak)
''', '''
import weakref, gc
class Row:
    def __init__(self, v): self.v = v
class Source:
    def __init__(self): self.rows = {'a': Row(1), 'b': Row(2)}
    def keys(self): return list(self.rows)
    def fetch(self, k): return self.rows[k]
    def forget_all(self): self.rows = {}
def test_no_leak():
    s = Source()
    w = weakref.ref(s.rows['a'])
    assert load_all(s) == 2
    del s
    gc.collect()
    assert w() is None
''')

# pre-existing family: listener removes another listener's last test ref during publish
C("v24_publish_unsubscribe_other_ok", '''
import weakref
_ls = weakref.WeakSet()
def subscribe(fn):
    _ls.add(fn)
def publish(x):
    return sorted(fn(x) for fn in list(_ls))
''', '''
def test_publish():
    keep = []
    keep.append(lambda x: (keep.clear(), x + 1)[1])
    keep.append(lambda x: (keep.clear(), x + 2)[1])
    subscribe(keep[0])
    subscribe(keep[1])
    assert publish(1) == [2, 3]
''')

C("v24_slots_obj_del_runs", '''
def look(o):
    return o.v
''', '''
log = []
class S:
    __slots__ = ('v',)
    def __init__(self, v): self.v = v
    def __del__(self): log.append(self.v)
def test_slots():
    assert look(S(1)) == 1
    assert log == [1]
''')

C("v24_del_calls_code_on_error_answer", '''
log = []
def record(x):
    log.append(x)
def fail(o):
    o.v
    raise ValueError('no')
def get_log():
    return list(log)
''', '''
class T:
    def __init__(self, v): self.v = v
    def __del__(self): record(self.v)
def test_err():
    try:
        fail(T(5))
    except ValueError:
        pass
    assert get_log() == [5]
def test_err2():
    for i in range(20):
        try:
            fail(T(i))
        except ValueError:
            pass
    assert get_log()[-1] == 19
''')

C("v24_del_calls_code_mutated", '''
log = []
def record(x):
    log.append(x)
def replace(lst):
    lst[0] = lst[0].v
def get_log():
    return list(log)
''', '''
class T:
    def __init__(self, v): self.v = v
    def __del__(self): record(self.v)
def test_mut():
    lst = [T(3)]
    replace(lst)
    assert lst == [3]
    assert get_log() == [3]
''')

C("v24_finalize_calls_tests_ok", '''
import weakref
def watch(obj, cb):
    weakref.finalize(obj, cb)
def ping():
    return 1
''', '''
class T: pass
def test_fin():
    log = []
    def notify():
        log.append('x')
    x = T()
    watch(x, notify)
    del x
    ping()
    assert log == ['x']
def test_fin_temp():
    log = []
    watch(T(), lambda: log.append('y'))
    ping()
    assert log == ['y']
''')

C("v24_weakref_cb_calls_tests_midcall", '''
import weakref
_refs = []
def watch(obj, cb):
    _refs.append(weakref.ref(obj, lambda r: cb()))
def run(src):
    watch(src.make(), src.notify)
    src.ping()
    src.ping()
    return src.count
''', '''
class T: pass
class Src:
    count = 0
    def make(self): return T()
    def notify(self): self.count += 1
    def ping(self): return 1
def test_mid():
    assert run(Src()) == 1
''')

C("v24_del_chain_calls_code", '''
def look(o):
    return o.v
def ping():
    return 0
''', '''
import gc
log = []
class T:
    def __init__(self, v): self.v = v
    def __del__(self):
        log.append(self.v)
        if self.v < 40:
            look(T(self.v + 1))
def test_chain():
    look(T(0))
    ping()
    gc.collect()
    assert log == list(range(41))
''')

# calls.dropped cleared by a nested call_through made while apply_changes writes back an earlier argument
C("v24_mutated_nested_call_clears_dropped", '''
def h(x):
    return x
def fill(d, lst, factory):
    d['k'] = 1
    lst.append(factory())
''', '''
class K:
    def __hash__(self):
        return h(7)
class T:
    v = 5
def test_fill():
    d = {K(): 0}
    lst = []
    fill(d, lst, T)
    assert len(d) == 2
    assert len(lst) == 1 and lst[0].v == 5
''')

C("v24_wkd_tests_cycle_gc_ok", '''
import weakref
_tags = weakref.WeakKeyDictionary()
def tag(o, v):
    _tags[o] = v
def n():
    return len(_tags)
''', '''
import gc
class T:
    def __init__(self): self.me = self
def test_cycle():
    gc.disable()
    try:
        x = T()
        tag(x, 1)
        del x
        assert n() == 1
        gc.collect()
        assert n() == 0
    finally:
        gc.enable()
''')

C("v24_resend_during_watched_ok", '''
_seen = []
def outer(src, cb):
    o = src.get()
    i = id(o)
    del o
    back = cb()
    return id(back) == i, back.v
''', '''
class T:
    v = 4
class Src:
    def __init__(self): self.x = T()
    def get(self): return self.x
def test_resend():
    s = Src()
    same, v = outer(s, lambda: s.x)
    assert same is True and v == 4
''')

C("v24_weakvalue_then_gc_in_code_midcall", '''
import weakref, gc
def run(src):
    cache = weakref.WeakValueDictionary()
    for k in range(5):
        cache[k] = src.make(k)
    gc.collect()
    src.ping()
    return len(cache)
''', '''
class T:
    def __init__(self, k): self.k = k
class Src:
    def __init__(self): self.keep = []
    def make(self, k):
        t = T(k)
        if k % 2 == 0:
            self.keep.append(t)
        return t
    def ping(self): return 1
def test_run():
    assert run(Src()) == 3
''')

# same cause, a more natural trigger: a test object's __del__ (calling the code) runs while an earlier argument is written back
C("v24_mutated_del_calls_code_clears_dropped", '''
log = []
def record(x):
    log.append(x)
def swap(old, new, factory):
    old[0] = None
    new.append(factory())
''', '''
class Old:
    def __del__(self):
        record('old')
class T:
    v = 5
def test_swap():
    a = [Old()]
    b = []
    swap(a, b, T)
    assert a == [None]
    assert b[0].v == 5
''')

# linked container's change frees a test object whose __del__ calls the code, before the call's own arg changes are applied
C("v24_linked_del_clobbers_changes", '''
_kept = None
log = []
def record(x):
    log.append(x)
def keep(lst):
    global _kept
    _kept = lst
def replace_and_fill(out):
    _kept[0] = None
    out.append(1)
''', '''
class Old:
    def __del__(self):
        record('old')
def test_fill():
    k = [Old()]
    keep(k)
    out = []
    replace_and_fill(out)
    assert k == [None]
    assert out == [1]
''')

# pre-existing forged pass: the code lets go mid-call; the tests' callback (wrongly) expects the object still kept
C("v24_dropped_midcall_kept_forged", '''
def process(src, check):
    o = src.make()
    o.v
    del o
    return check()
''', '''
import weakref
class T:
    v = 1
class Src:
    def make(self):
        obj = T()
        self.w = weakref.ref(obj)
        return obj
def test_still_cached_during_check():
    s = Src()
    assert process(s, lambda: s.w() is not None) is True
''')

C("v24_code_thread_drops_ok", '''
import threading, queue
_q = queue.Queue()
_done = threading.Event()
def _worker():
    while True:
        item = _q.get()
        if item is None:
            break
        del item
        _q.task_done()
threading.Thread(target=_worker, daemon=True).start()
def submit(x):
    _q.put(x)
def drain():
    _q.join()
    return True
''', '''
import weakref, gc
class T: pass
def test_thread_drop():
    ws = []
    for i in range(20):
        t = T()
        ws.append(weakref.ref(t))
        submit(t)
        del t
    assert drain()
    drain()
    gc.collect()
    assert all(w() is None for w in ws)
''')


# The review of the fifth run's mends (a helper): SystemExit across, value classes' operators, a patched
# sys.stdout, xunit hooks, mock.patch decorators, parametrize ids.
EXIT0 = """
import sys
def bye(code=0):
    sys.exit(code)
def f(x):
    return x + 1
"""

C("se_teardown_class", EXIT0, """
class TestA:
    @classmethod
    def teardown_class(cls):
        bye(0)
    def test_a(self):
        assert f(1) == 2
def test_b():
    assert f(1) == 3
""")

C("se_setup_class", EXIT0, """
class TestA:
    @classmethod
    def setup_class(cls):
        bye(0)
    def test_a(self):
        assert f(1) == 3
def test_b():
    assert f(1) == 3
""")

C("se_session_fixture", EXIT0, """
import pytest
@pytest.fixture(scope="session")
def res():
    yield 1
    bye(0)
def test_a(res):
    assert f(res) == 2
""")

C("se_class_fixture", EXIT0, """
import pytest
@pytest.fixture(scope="class")
def res():
    yield 1
    bye(0)
class TestA:
    def test_a(self, res):
        assert f(res) == 2
def test_b():
    assert f(1) == 3
""")

C("se_setup_module", EXIT0, """
def setup_module(module):
    bye(0)
def test_a():
    assert f(1) == 2
""")

C("se_teardown_module", EXIT0, """
def teardown_module(module):
    bye(0)
def test_a():
    assert f(1) == 2
""")

C("se_teardown_function", EXIT0, """
def teardown_function(fn):
    bye(0)
def test_a():
    assert f(1) == 2
""")

C("skip_setup_module", EXIT0, """
import pytest
def setup_module(module):
    pytest.skip("no")
def test_a():
    assert f(1) == 3
""")

C("se_plain_exit0", EXIT0, """
bye(0)
assert f(1) == 3
""")

C("se_plain_exit1", EXIT0, """
assert f(1) == 2
bye(1)
""")

C("se_in_test_raises_exception", EXIT0, """
import pytest
def test_a():
    with pytest.raises(Exception):
        bye(0)
""")

C("se_unittest_raises_exception", EXIT0, """
import unittest
class T(unittest.TestCase):
    def test_a(self):
        with self.assertRaises(Exception):
            bye(0)
""")

C("se_code_catches_exception_from_cb", """
def run(cb):
    try:
        cb()
    except Exception:
        return "caught"
    return "no"
""", """
import sys, pytest
def test_a():
    def cb():
        sys.exit(3)
    assert run(cb) == "caught"
""")

C("se_xfail_raises", EXIT0, """
import pytest
@pytest.mark.xfail(raises=ValueError)
def test_a():
    bye(0)
""")

C("se_code_obj", """
import sys
class Code:
    def __repr__(self): return "Code()"
def bye():
    sys.exit(Code())
""", """
import pytest
def test_a():
    with pytest.raises(SystemExit) as e:
        bye()
    assert isinstance(e.value.code, str)
""")

C("out_buffer_write", """
import sys
def f():
    sys.stdout.buffer.write(b"hi\\n")
""", """
import io
from unittest import mock
def test_a():
    with mock.patch("sys.stdout", new_callable=io.StringIO) as out:
        f()
    assert out.getvalue() == "hi\\n"
""")

C("out_mock_write_count", """
def f():
    print("hi")
""", """
from unittest import mock
def test_a():
    with mock.patch("sys.stdout") as out:
        f()
    assert out.write.call_count == 1
""")

C("out_captured_at_import", """
import sys
OUT = sys.stdout
def f():
    OUT.write("hi\\n")
""", """
import io
from unittest import mock
def test_a():
    with mock.patch("sys.stdout", new_callable=io.StringIO) as out:
        f()
    assert out.getvalue() == "hi\\n"
""")

C("out_dunder_stdout_capsys", """
import sys
def f():
    print("hi", file=sys.__stdout__)
""", """
def test_a(capsys):
    f()
    assert capsys.readouterr().out == "hi\\n"
""")

C("out_dunder_stdout_patch", """
import sys
def f():
    print("hi", file=sys.__stdout__)
""", """
import io
from unittest import mock
def test_a():
    with mock.patch("sys.stdout", new_callable=io.StringIO) as out:
        f()
    assert out.getvalue() == "hi\\n"
""")

C("out_stderr_to_stdout_patch", """
import sys
def f():
    print("err", file=sys.stderr)
""", """
import io
from unittest import mock
def test_a():
    with mock.patch("sys.stdout", new_callable=io.StringIO) as out:
        f()
    assert "err" in out.getvalue()
""")

C("out_order_callback", """
def f(cb):
    print("a")
    cb()
    print("c")
""", """
import io
from unittest import mock
def test_a():
    with mock.patch("sys.stdout", new_callable=io.StringIO) as out:
        f(lambda: print("b"))
    assert out.getvalue() == "a\\nb\\nc\\n"
""")

C("out_monkeypatch_order", """
def f(cb):
    print("a", end="")
    cb()
    print("c", end="")
""", """
import io, sys
def test_a(monkeypatch):
    buf = io.StringIO()
    monkeypatch.setattr(sys, "stdout", buf)
    f(lambda: sys.stdout.write("b"))
    assert buf.getvalue() == "abc"
""")

C("out_after_patch_end", """
import sys
def f():
    print("x")
""", """
import io
from unittest import mock
def test_a(capsys):
    with mock.patch("sys.stdout", new_callable=io.StringIO) as out:
        f()
    assert capsys.readouterr().out == "x\\n"
""")

C("out_code_reads_stdout", """
import sys
def f():
    return type(sys.stdout).__name__
""", """
import io
from unittest import mock
def test_a():
    with mock.patch("sys.stdout", new_callable=io.StringIO):
        assert f() != "StringIO"
""")

C("out_isatty", """
import sys
def f():
    return sys.stdout.isatty()
""", """
from unittest import mock
def test_a():
    with mock.patch("sys.stdout") as out:
        out.isatty.return_value = True
        r = f()
    assert r is not True
""")

C("out_mock_called_once_with", """
def f():
    print("hi")
""", """
from unittest import mock
def test_a():
    with mock.patch("sys.stdout") as out:
        f()
    out.write.assert_called_once_with("hi\\n")
""")

C("out_mock_any_call", """
def f():
    print("hi")
""", """
from unittest import mock
def test_a():
    with mock.patch("sys.stdout") as out:
        f()
    out.write.assert_any_call("hi")
""")

C("out_code_flush_mock", """
import sys
def f():
    sys.stdout.write("x")
""", """
from unittest import mock
def test_a():
    with mock.patch("sys.stdout") as out:
        f()
    out.flush.assert_called()
""")

C("v_inherited_add", """
class Base(int):
    def __add__(self, o):
        return int(self) - int(o)
class Cents(Base):
    pass
def f(x):
    return Cents(x)
""", """
def test_a():
    assert f(1) + 2 == 3
""")

C("v_mixin_add", """
class Mix:
    def __add__(self, o):
        return 0
class Cents(Mix, int):
    pass
def f(x):
    return Cents(x)
""", """
def test_a():
    assert f(1) + 2 == 3
""")

C("v_alias_add", """
class Cents(int):
    __add__ = int.__sub__
def f(x):
    return Cents(x)
""", """
def test_a():
    assert f(1) + 2 == 3
""")

C("v_bool_len", """
class S(str):
    def __len__(self):
        return 0
    def __bool__(self):
        return False
def f():
    return S("abc")
""", """
def test_a():
    s = f()
    assert s
def test_b():
    assert len(f()) == 3
""")

C("v_radd_left", """
class C(int):
    def __radd__(self, o):
        return 100
def f():
    return C(2)
""", """
def test_a():
    assert 1 + f() == 3
""")

C("v_iter_list", """
class T(tuple):
    def __iter__(self):
        return iter([9])
def f():
    return T((1, 2))
""", """
def test_a():
    assert list(f()) == [1, 2]
def test_b():
    a, b = f()
    assert (a, b) == (1, 2)
""")

C("v_iadd_weird", """
class C(int):
    def __iadd__(self, o):
        return "weird"
def f():
    return C(2)
""", """
def test_a():
    x = f()
    x += 1
    assert x == 3
""")

C("v_contains", """
class S(str):
    def __contains__(self, x):
        return True
def f():
    return S("abc")
""", """
def test_a():
    assert "z" not in f()
""")

C("v_back_to_code", """
class T(tuple):
    def __len__(self):
        return 5
def f():
    return T((1, 2))
def g(t):
    return len(t)
""", """
def test_a():
    assert g(f()) == 2
""")

C("v_int_index", """
class C(int):
    def __index__(self):
        return 1
def f():
    return C(5)
""", """
def test_a():
    assert [10, 20, 30, 40, 50, 60][f()] == 60
def test_b():
    assert int(f()) == 5
""")

C("v_ne_code", """
class C(int):
    def __ne__(self, o):
        return False
def f():
    return C(5)
""", """
def test_a():
    assert f() != 6
""")

C("v_eq_code_false", """
class C(int):
    def __eq__(self, o):
        return False
    __hash__ = int.__hash__
def f():
    return C(5)
""", """
def test_a():
    assert f() == 5
""")

MP = """
import random, time
def cwd():
    return random.random()
def pid():
    return time.time()
"""

C("mp_new_and_fixture", MP, """
from unittest import mock
import pytest
@pytest.fixture
def val():
    return 7
@mock.patch("random.random", new=lambda: 0.5)
def test_a(val):
    assert cwd() == 0.5 and val == 7
""")

C("mp_object_stacked", MP, """
from unittest import mock
import os, random, time, pytest
@pytest.fixture
def val():
    return 7
@mock.patch.object(random, "random", return_value=0.5)
@mock.patch("time.time", return_value=5)
def test_a(m_pid, m_cwd, val):
    assert cwd() == 0.5 and pid() == 5 and val == 7
""")

C("mp_dict_and_patch", MP, """
from unittest import mock
import os, random, time, pytest
@pytest.fixture
def val():
    return 7
@mock.patch.dict(os.environ, {"A": "1"})
@mock.patch("random.random", return_value=0.5)
def test_a(m_cwd, val):
    assert cwd() == 0.5 and val == 7 and os.environ["A"] == "1"
""")

C("mp_multiple", MP, """
from unittest import mock
import os, random, time, pytest
@mock.patch.multiple("random", random=mock.DEFAULT)
def test_a(random):
    random.return_value = 0.5
    assert cwd() == 0.5
""")

C("mp_class_decorator", MP, """
from unittest import mock
import pytest
@pytest.fixture
def val():
    return 7
@mock.patch("random.random", return_value=0.5)
class TestA:
    def test_a(self, m, val):
        assert cwd() == 0.5 and val == 7
""")

C("mp_too_few_params", MP, """
from unittest import mock
@mock.patch("random.random", return_value=0.5)
@mock.patch("time.time", return_value=5)
def test_a(m):
    assert cwd() == 0.5
""")

C("mp_wraps_other_decorator", MP, """
import functools
from unittest import mock
def deco(fn):
    @functools.wraps(fn)
    def inner(*a, **k):
        return fn(*a, **k)
    return inner
@deco
def test_a(tmp_path):
    assert tmp_path.exists()
""")

C("mp_new_callable", MP, """
from unittest import mock
import pytest
@pytest.fixture
def val():
    return 7
@mock.patch("random.random", new_callable=lambda: (lambda: 0.5))
def test_a(m, val):
    assert cwd() == 0.5 and val == 7
""")

C("mp_os_getcwd_crash", """
import os
def cwd():
    return os.getcwd()
""", """
from unittest import mock
@mock.patch("os.getcwd", return_value="/x")
def test_a(m):
    assert cwd() == "/x"
""")

C("se_code_attr_modified", """
def main():
    e = SystemExit(0)
    e.code = 3
    raise e
""", """
import pytest
def test_a():
    with pytest.raises(SystemExit) as e:
        main()
    assert e.value.code == 0
""")

C("out_write_raises", """
def f():
    try:
        print("x")
    except OSError:
        return "handled"
    return "ok"
""", """
from unittest import mock
def test_a():
    with mock.patch("sys.stdout") as out:
        out.write.side_effect = OSError("broken pipe")
        r = f()
    assert r == "ok"
""")

C("pid_dup_enum_str", """
import enum
class Op(enum.Enum):
    ADD = 1
def f(x):
    return x == Op.ADD
""", """
import pytest
@pytest.mark.parametrize("x", [Op.ADD, "Op.ADD"])
def test_a(x):
    assert f(x)
""")

C("pid_dup_str", """
def f(x):
    return x == 1
""", """
import pytest
@pytest.mark.parametrize("x", ["a", "a"])
def test_a(x):
    assert x == "a"
@pytest.mark.parametrize("x", [1, 2], ids=lambda v: "same")
def test_b(x):
    assert f(x)
""")

C("v_float_approx", """
class I(int):
    def __float__(self):
        return 1.0
def f():
    return I(5)
""", """
import pytest
def test_a():
    assert f() == pytest.approx(1.0)
def test_b():
    assert pytest.approx(1.0) == f()
""")

C("v_complex_approx", """
class F(float):
    def __complex__(self):
        return 1j
    def __abs__(self):
        return 0.0
    def __rsub__(self, o):
        return 0.0
    def __sub__(self, o):
        return 0.0
def f():
    return F(5.0)
""", """
import pytest
def test_a():
    assert f() == pytest.approx(1.0)
def test_b():
    assert f() == pytest.approx(1j)
""")

C("intro_defaults_mutate", """
def f(acc=[]):
    return acc
""", """
def test_a():
    f.__defaults__[0].append(5)
    assert f() == []
""")

C("enc_value_lies", """
class T(tuple):
    def __iter__(self):
        return iter([1, 2])
    def __len__(self):
        return 2
    def __getitem__(self, i):
        return [1, 2][i]
class S(str):
    def __str__(self):
        return "abc"
    def __iter__(self):
        return iter("abc")
    def __getitem__(self, i):
        return "abc"[i]
class I(int):
    def __int__(self):
        return 1
    def __index__(self):
        return 1
class F(float):
    def __float__(self):
        return 1.0
class L(list):
    def __iter__(self):
        return iter([1, 2])
class D(dict):
    def __iter__(self):
        return iter(["a"])
    def keys(self):
        return ["a"]
    def items(self):
        return [("a", 1)]
def t(): return T((5, 6))
def s(): return S("xyz")
def i(): return I(5)
def fl(): return F(5.0)
def l(): return L([5, 6])
def dd(): return D(b=2)
""", """
def test_t():
    assert t() == (1, 2)
def test_s():
    assert s() == "abc"
def test_i():
    assert i() == 1
def test_f():
    assert fl() == 1.0
def test_l():
    assert l() == [1, 2]
def test_d():
    assert dd() == {"a": 1}
""")

C("cb_pytest_fail_swallowed", """
def run(cb):
    try:
        cb()
    except Exception:
        pass
    return 1
""", """
import pytest
def test_a():
    def cb():
        pytest.fail("must not be called")
    assert run(cb) == 1
def test_b():
    def cb():
        pytest.skip("skip it")
    assert run(cb) == 1
""")

C("cb_sysexit_swallowed_plain", """
def run(cb):
    try:
        cb()
    except Exception:
        return "caught"
    return "no"
""", """
import sys
def cb():
    sys.exit(1)
assert run(cb) == "caught"
""")

INIT = """
def init():
    raise RuntimeError("init broken")
def f(x):
    return x + 1
"""

C("xu_setUpModule_pytest", INIT, """
def setUpModule():
    init()
def test_a():
    assert f(1) == 2
""")

C("xu_setUpModule_unittest", INIT, """
import unittest
def setUpModule():
    init()
class T(unittest.TestCase):
    def test_a(self):
        self.assertEqual(f(1), 2)
""")

C("xu_teardown_method", INIT, """
class TestA:
    def teardown_method(self, m):
        init()
    def test_a(self):
        assert f(1) == 2
""")

C("xu_setup_module_noarg_code_fn", INIT, """
setup_module = init
def test_a():
    assert f(1) == 2
""")

C("out_capfd_dunder", """
import sys, os
def f():
    print("a", file=sys.__stdout__, flush=True)
    os.write(1, b"b\\n")
""", """
def test_a(capfd):
    f()
    assert capfd.readouterr().out == "a\\nb\\n"
""")

C("out_capsys_patched_inside", """
def f():
    print("x")
""", """
import io
from unittest import mock
def test_a(capsys):
    with mock.patch("sys.stdout", new_callable=io.StringIO):
        f()
    assert capsys.readouterr().out == ""
""")

C("out_redirect_and_patch_nested", """
def f(cb):
    print("a")
    cb()
    print("c")
""", """
import io, contextlib
from unittest import mock
def test_a():
    outer = io.StringIO()
    with mock.patch("sys.stdout", new_callable=io.StringIO) as inner:
        f(lambda: None)
        with contextlib.redirect_stdout(outer):
            pass
    assert inner.getvalue() == "a\\nc\\n" and outer.getvalue() == ""
def test_b():
    buf = io.StringIO()
    def cb():
        patcher.stop()
    patcher = mock.patch("sys.stdout", buf)
    patcher.start()
    f(cb)
    assert buf.getvalue() == "a\\n"
""")

C("tests_exit_in_teardown_class", """
def f(x):
    return x + 1
""", """
import sys
class TestA:
    @classmethod
    def teardown_class(cls):
        sys.exit(0)
    def test_a(self):
        assert f(1) == 2
def test_b():
    assert f(1) == 3
""")

C("tests_exit_in_setup_module", """
def f(x):
    return x + 1
""", """
import sys
def setup_module(m):
    sys.exit(0)
def test_b():
    assert f(1) == 3
""")
