"""A third differential run's cases, (name, code, tests) as in tests/one_process_cases.py: ordinary playground tests
that share objects with the code in shapes the first two runs did not try (dataclasses, enums, properties, caches,
sorting, mocks, monkeypatch, files, seeds, clocks, parametrize and fixtures, unittest helpers, threads, operators,
generators and coroutines that change what they were given, exceptions' args), written by a helper apart from the
sandbox's code, with wrong code beside right; and the review's cases of how long the code's objects live
(releasing.py). A task's cancel of a code coroutine that loops forever ran into the timeout until session 33 (the
eighth run holds it now: async_tests_cancel_a_task_of_the_code_ok)."""
from textwrap import dedent as d

CASES = []


def C(name, code, tests):
    CASES.append((name, d(code).strip() + "\n", d(tests).strip() + "\n"))

# ------------------------------------------------------------------ dataclasses
TASK = '''
from dataclasses import dataclass, field
@dataclass(order=True)
class Task:
    priority: int
    name: str = field(compare=False)
    tags: list = field(default_factory=list, compare=False)
def make(name, priority, *tags):
    return Task(priority, name, list(tags))
'''
TASK_BAD = '''
from dataclasses import dataclass, field
@dataclass(order=True)
class Task:
    name: str
    priority: int
    tags: list = field(default_factory=list, compare=False)
    def __init__(self, priority, name, tags=None):
        self.priority, self.name, self.tags = priority, name, tags or []
def make(name, priority, *tags):
    return Task(priority, name, list(tags))
'''
TASK_T = '''
import dataclasses
def test_sorted_by_priority():
    ts = [make('b', 1), make('a', 2), make('c', 3)]
    assert [t.name for t in sorted(ts)] == ['b', 'a', 'c']
    assert max(ts).name == 'c'
    assert make('x', 1) == make('y', 1)
def test_astuple_asdict():
    t = make('a', 1, 'home')
    assert dataclasses.astuple(t) == (1, 'a', ['home'])
    assert dataclasses.asdict(t) == {'priority': 1, 'name': 'a', 'tags': ['home']}
def test_default_factory_not_shared():
    a, b = Task(1, 'a'), Task(2, 'b')
    a.tags.append('x')
    assert b.tags == []
def test_replace_keeps_list_and_orders():
    t = make('a', 1, 'x')
    u = dataclasses.replace(t, priority=5)
    u.tags.append('y')
    assert t.tags == ['x', 'y']
    assert u > t and not (t >= u)
'''
C("pt_dc_order_sort_astuple_ok", TASK, TASK_T)
C("pt_dc_order_sort_astuple_bad_field_order", TASK_BAD, TASK_T)

MONEY = '''
from dataclasses import dataclass
@dataclass(frozen=True)
class Money:
    amount: int
    currency: str = 'EUR'
    def __post_init__(self):
        if self.amount < 0:
            raise ValueError(f'negative amount: {self.amount}')
        object.__setattr__(self, 'currency', self.currency.upper())
'''
MONEY_BAD = '''
from dataclasses import dataclass
@dataclass(frozen=True)
class Money:
    amount: int
    currency: str = 'EUR'
    def __post_init__(self):
        if self.amount < 0:
            raise ValueError(f'negative amount: {self.amount}')
'''
MONEY_T = '''
import dataclasses, pytest
def test_validation_message():
    with pytest.raises(ValueError, match=r'negative amount: -5'):
        Money(-5)
def test_normalised_key():
    prices = {Money(1, 'usd'): 'cheap'}
    assert prices[Money(1, 'USD')] == 'cheap'
    assert hash(Money(1, 'usd')) == hash(Money(1, 'USD'))
    assert len({Money(2), Money(2, 'eur'), Money(3)}) == 2
def test_fields_and_is_dataclass():
    m = Money(3, 'gbp')
    assert [f.name for f in dataclasses.fields(m)] == ['amount', 'currency']
    assert dataclasses.is_dataclass(m) and not dataclasses.is_dataclass(3)
    assert dataclasses.replace(m, amount=4) == Money(4, 'GBP')
'''
C("pt_dc_frozen_post_init_normalises_ok", MONEY, MONEY_T)
C("pt_dc_frozen_post_init_normalises_bad", MONEY_BAD, MONEY_T)

SHAPES = '''
from dataclasses import dataclass
@dataclass
class Circle:
    r: float
@dataclass
class Rect:
    w: float
    h: float
def make_shape(kind, *a):
    if kind == 'circle':
        return Circle(*a)
    if kind == 'square':
        return Rect(a[0], a[0])
    return Rect(*a)
def parse(line):
    kind, *nums = line.split()
    return {'kind': kind, 'args': [float(n) for n in nums]}
'''
SHAPES_BAD = SHAPES.replace("return Rect(a[0], a[0])", "return Rect(a[0], 1)")
SHAPES_T = '''
def area(s):
    match s:
        case Circle(r=0):
            return 0
        case Circle(r=r):
            return 3 * r * r
        case Rect(w, h) if w == h:
            return w * w
        case Rect(w, h):
            return w * h
        case _:
            return None
def test_match_class_patterns():
    assert area(make_shape('circle', 2)) == 12
    assert area(make_shape('circle', 0)) == 0
    assert area(make_shape('rect', 2, 3)) == 6
    assert area(make_shape('square', 4)) == 16
def test_match_mapping_and_sequence():
    match parse('rect 2 5'):
        case {'kind': 'rect', 'args': [w, h]}:
            got = (w, h)
        case _:
            got = None
    assert got == (2.0, 5.0)
def test_match_args():
    assert Rect.__match_args__ == ('w', 'h')
'''
C("pt_dc_match_statement_ok", SHAPES, SHAPES_T)
C("pt_dc_match_statement_bad_square", SHAPES_BAD, SHAPES_T)

C("pt_dc_kw_only_initvar_init_false", '''
from dataclasses import dataclass, field, InitVar
@dataclass(kw_only=True)
class Config:
    host: str
    raw_ports: InitVar[str] = ''
    ports: list = field(init=False, default_factory=list)
    secret: str = field(default='x', repr=False)
    def __post_init__(self, raw_ports):
        self.ports = [int(p) for p in raw_ports.split(',') if p]
''', '''
import dataclasses, pytest
def test_initvar_parsed():
    c = Config(host='a', raw_ports='80,443')
    assert c.ports == [80, 443]
    assert not hasattr(c, 'raw_ports') or c.raw_ports == ''
def test_positional_refused():
    with pytest.raises(TypeError):
        Config('a')
def test_fields_and_repr():
    c = Config(host='h')
    assert [f.name for f in dataclasses.fields(c)] == ['host', 'ports', 'secret']
    assert repr(c) == "Config(host='h', ports=[])"
    c.ports.append(1)
    assert dataclasses.asdict(c) == {'host': 'h', 'ports': [1], 'secret': 'x'}
''')

SLOTDC = '''
from dataclasses import dataclass
@dataclass(slots=True)
class Point:
    x: int
    y: int
    def norm1(self):
        return abs(self.x) + abs(self.y)
'''
SLOTDC_BAD = SLOTDC.replace("(slots=True)", "")
SLOTDC_T = '''
import copy, pytest
def test_no_new_attributes():
    p = Point(1, 2)
    with pytest.raises(AttributeError):
        p.z = 3
    assert not hasattr(p, '__dict__')
    assert Point.__slots__ == ('x', 'y')
def test_copy_of_slotted():
    p = Point(1, -2)
    q = copy.copy(p)
    q.x = 10
    assert p.x == 1 and q.norm1() == 12
    assert copy.deepcopy(p) == p
'''
C("pt_dc_slots_copy_ok", SLOTDC, SLOTDC_T)
C("pt_dc_slots_copy_bad_no_slots", SLOTDC_BAD, SLOTDC_T)

# ------------------------------------------------------------------ enums
C("pt_intenum_index_sort_and_int_keys", '''
from enum import IntEnum
class Level(IntEnum):
    LOW = 0
    MID = 1
    HIGH = 2
def bucket(tasks):
    out = {lvl: [] for lvl in Level}
    for name, lvl in tasks:
        out[Level(lvl)].append(name)
    return out
def worst(levels):
    return max(levels)
''', '''
def test_member_as_list_index():
    names = ['low', 'mid', 'high']
    assert names[Level.HIGH] == 'high'
    assert sorted([Level.HIGH, Level.LOW, Level.MID]) == [0, 1, 2]
def test_int_lookup_in_member_keyed_dict():
    b = bucket([('a', 2), ('b', 0), ('c', 2)])
    assert b[2] == ['a', 'c']
    assert b[Level.LOW] == ['b']
    assert list(b) == [Level.LOW, Level.MID, Level.HIGH]
def test_identity_name_str_repr():
    w = worst([Level.MID, Level.HIGH])
    assert w is Level.HIGH and w.name == 'HIGH'
    assert str(w) == '2' and repr(w) == '<Level.HIGH: 2>'
    assert f'{w}' == '2' and w + 1 == 3
''')

COLOR = '''
from enum import Enum
class Color(Enum):
    RED = '#ff0000'
    GREEN = '#00ff00'
    CRIMSON = '#ff0000'
    @classmethod
    def _missing_(cls, value):
        if isinstance(value, str):
            for m in cls:
                if m.name == value.upper():
                    return m
        return None
    @property
    def rgb(self):
        return tuple(int(self.value[i:i + 2], 16) for i in (1, 3, 5))
'''
COLOR_BAD = '''
from enum import Enum
class Color(Enum):
    RED = '#ff0000'
    GREEN = '#00ff00'
    CRIMSON = '#ff0000'
    @property
    def rgb(self):
        return tuple(int(self.value[i:i + 2], 16) for i in (1, 3, 5))
'''
COLOR_T = '''
import pytest
def test_missing_lookup():
    assert Color('green') is Color.GREEN
    assert Color('#ff0000') is Color.RED
    with pytest.raises(ValueError):
        Color('blue')
def test_alias_and_members():
    assert Color.CRIMSON is Color.RED
    assert len(Color) == 2 and list(Color) == [Color.RED, Color.GREEN]
    assert list(Color.__members__) == ['RED', 'GREEN', 'CRIMSON']
def test_property_on_member():
    assert Color.GREEN.rgb == (0, 255, 0)
    assert {c: c.rgb for c in Color}[Color.RED] == (255, 0, 0)
'''
C("pt_enum_missing_alias_property_ok", COLOR, COLOR_T)
C("pt_enum_missing_alias_property_bad", COLOR_BAD, COLOR_T)

STATES = '''
from enum import Enum, auto
class State(Enum):
    IDLE = auto()
    RUNNING = auto()
    DONE = auto()
class Ev(Enum):
    START = auto()
    FINISH = auto()
    RESET = auto()
TRANSITIONS = {
    State.IDLE: {Ev.START: State.RUNNING},
    State.RUNNING: {Ev.FINISH: State.DONE, Ev.RESET: State.IDLE},
    State.DONE: {Ev.RESET: State.IDLE},
}
def run(events, counts, start=State.IDLE):
    s = start
    for e in events:
        s = TRANSITIONS[s].get(e, s)
        counts[s] = counts.get(s, 0) + 1
    return s
'''
STATES_BAD = STATES.replace("counts[s] = counts.get(s, 0) + 1", "counts = {**counts, s: counts.get(s, 0) + 1}")
STATES_T = '''
def test_counts_into_tests_dict():
    counts = {State.IDLE: 0}
    end = run([Ev.START, Ev.RESET, Ev.START, Ev.FINISH], counts)
    assert end is State.DONE
    assert counts == {State.IDLE: 1, State.RUNNING: 2, State.DONE: 1}
    assert counts[State.RUNNING] == 2
def test_transitions_table_read():
    assert TRANSITIONS[State.DONE] == {Ev.RESET: State.IDLE}
    assert State.RUNNING in TRANSITIONS and Ev.START in TRANSITIONS[State.IDLE]
    assert sorted(TRANSITIONS, key=lambda s: s.value) == [State.IDLE, State.RUNNING, State.DONE]
'''
C("pt_enum_keys_state_machine_counts_ok", STATES, STATES_T)
C("pt_enum_keys_state_machine_counts_bad_rebinds", STATES_BAD, STATES_T)

C("pt_flag_combo_keys_and_names", '''
from enum import Flag, auto
class Perm(Flag):
    R = auto()
    W = auto()
    X = auto()
    RW = R | W
LABELS = {Perm.R: 'read-only', Perm.RW: 'read-write', Perm.R | Perm.X: 'exec'}
def label(p):
    return LABELS.get(p, 'other')
def strip(p, q):
    return p & ~q
''', '''
def test_combo_lookup():
    assert label(Perm.R | Perm.W) == 'read-write'
    assert label(Perm.X | Perm.R) == 'exec'
    assert label(Perm.W) == 'other'
def test_names_and_strip():
    p = strip(Perm.R | Perm.W | Perm.X, Perm.W)
    assert p == Perm.R | Perm.X
    assert p.name == 'R|X'
    assert bool(strip(Perm.W, Perm.W)) is False
    assert (Perm.R | Perm.W) is Perm.RW
''')

# ------------------------------------------------------------------ properties, descriptors, class attributes
RECT = '''
class Rectangle:
    def __init__(self, w, h):
        self.width = w
        self.height = h
    @property
    def width(self):
        return self._w
    @width.setter
    def width(self, v):
        if v <= 0:
            raise ValueError(f'width must be positive, got {v}')
        self._w = v
    @width.deleter
    def width(self):
        self._w = 1
    @property
    def area(self):
        "Area of the rectangle."
        return self._w * self.height
'''
RECT_BAD = '''
class Rectangle:
    def __init__(self, w, h):
        if w <= 0:
            raise ValueError(f'width must be positive, got {w}')
        self.width = w
        self.height = h
        self.area = w * h
'''
RECT_T = '''
import pytest
def test_area_follows_width():
    r = Rectangle(2, 3)
    r.width = 5
    assert r.area == 15
def test_setter_validation():
    r = Rectangle(2, 3)
    with pytest.raises(ValueError, match='positive, got -1'):
        r.width = -1
    assert r.width == 2
def test_readonly_and_deleter():
    r = Rectangle(2, 3)
    with pytest.raises(AttributeError):
        r.area = 1
    del r.width
    assert r.area == 3
    assert isinstance(Rectangle.area, property)
    assert Rectangle.area.__doc__ == 'Area of the rectangle.'
'''
C("pt_property_setter_deleter_readonly_ok", RECT, RECT_T)
C("pt_property_setter_deleter_readonly_bad_plain_attrs", RECT_BAD, RECT_T)

DESC = '''
class Positive:
    def __set_name__(self, owner, name):
        self.name = name
        self.slot = '_' + name
    def __get__(self, obj, objtype=None):
        if obj is None:
            return self
        return getattr(obj, self.slot)
    def __set__(self, obj, value):
        if value <= 0:
            raise ValueError(f'{self.name} must be > 0')
        setattr(obj, self.slot, value)
class Product:
    price = Positive()
    qty = Positive()
    def __init__(self, price, qty):
        self.price = price
        self.qty = qty
    def total(self):
        return self.price * self.qty
'''
DESC_BAD = '''
class Positive:
    def __set_name__(self, owner, name):
        self.name = name
    def __get__(self, obj, objtype=None):
        if obj is None:
            return self
        return self.value
    def __set__(self, obj, value):
        if value <= 0:
            raise ValueError(f'{self.name} must be > 0')
        self.value = value
class Product:
    price = Positive()
    qty = Positive()
    def __init__(self, price, qty):
        self.price = price
        self.qty = qty
    def total(self):
        return self.price * self.qty
'''
DESC_T = '''
import pytest
def test_two_products_independent():
    a = Product(2, 3)
    b = Product(10, 1)
    assert a.total() == 6 and b.total() == 10
def test_validation_names_field():
    p = Product(1, 1)
    with pytest.raises(ValueError, match='qty must be > 0'):
        p.qty = 0
def test_descriptor_on_class():
    assert isinstance(Product.price, Positive)
    assert Product.price.name == 'price'
'''
C("pt_descriptor_set_name_ok", DESC, DESC_T)
C("pt_descriptor_set_name_bad_shared_value", DESC_BAD, DESC_T)

EMP = '''
class Employee:
    raise_pct = 1.04
    count = 0
    def __init__(self, name, pay):
        self.name = name
        self.pay = pay
        Employee.count += 1
    def apply_raise(self):
        self.pay = int(self.pay * self.raise_pct)
'''
EMP_BAD = EMP.replace("self.pay * self.raise_pct", "self.pay * Employee.raise_pct")
EMP_T = '''
def test_class_attr_set_by_test(monkeypatch):
    monkeypatch.setattr(Employee, 'raise_pct', 1.5)
    e = Employee('a', 100)
    e.apply_raise()
    assert e.pay == 150
def test_instance_shadow():
    e = Employee('b', 100)
    e.raise_pct = 2
    e.apply_raise()
    assert e.pay == 200
    assert Employee.raise_pct == 1.04
def test_counter_shared():
    before = Employee.count
    Employee('c', 1); Employee('d', 1)
    assert Employee.count == before + 2
    assert Employee('e', 1).count == before + 3
'''
C("pt_class_attr_shadow_and_counter_ok", EMP, EMP_T)
C("pt_class_attr_shadow_and_counter_bad", EMP_BAD, EMP_T)

C("ut_class_registry_setupclass_shared", '''
class Plugin:
    registry = {}
    def __init__(self, name):
        self.name = name
        Plugin.registry[name] = self
    @classmethod
    def get(cls, name):
        return cls.registry[name]
''', '''
import unittest
class TestRegistry(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.a = Plugin('a')
        cls.b = Plugin('b')
    def tearDown(self):
        Plugin.registry.pop('tmp', None)
    def test_1_get(self):
        self.assertIs(Plugin.get('a'), self.a)
        self.assertEqual(sorted(Plugin.registry), ['a', 'b'])
    def test_2_tmp_added(self):
        Plugin('tmp')
        self.assertIn('tmp', Plugin.registry)
    def test_3_tmp_removed_by_teardown(self):
        self.assertNotIn('tmp', Plugin.registry)
        self.assertEqual(len(Plugin.registry), 2)
    def test_4_test_writes_registry(self):
        Plugin.registry['alias'] = self.b
        self.assertIs(Plugin.get('alias'), self.b)
        del Plugin.registry['alias']
''')

# ------------------------------------------------------------------ functools caches
C("pt_lru_cache_maxsize_eviction_wrapped", '''
from functools import lru_cache
CALLS = []
@lru_cache(maxsize=2)
def load(key):
    CALLS.append(key)
    return key.upper()
''', '''
def test_eviction_order():
    load.cache_clear(); CALLS.clear()
    for k in ['a', 'b', 'a', 'c', 'b']:
        load(k)
    assert CALLS == ['a', 'b', 'c', 'b']
    assert load.cache_info() == (1, 4, 2, 2)
    assert load.cache_parameters() == {'maxsize': 2, 'typed': False}
def test_wrapped_bypasses_cache():
    load.cache_clear(); CALLS.clear()
    assert load.__wrapped__('z') == 'Z'
    assert load('z') == 'Z'
    assert CALLS == ['z', 'z'] and load.cache_info().currsize == 1
''')

KEYC = '''
from functools import cache, lru_cache
SEEN = []
@cache
def describe(k):
    SEEN.append(k)
    return f'<{k}>'
@lru_cache(typed=True)
def double(x):
    SEEN.append(x)
    return x * 2
'''
KEYC_BAD = '''
SEEN = []
_memo = {}
def describe(k):
    key = id(k)
    if key not in _memo:
        SEEN.append(k)
        _memo[key] = f'<{k}>'
    return _memo[key]
def double(x):
    SEEN.append(x)
    return x * 2
'''
KEYC_T = '''
import pytest
class Key:
    def __init__(self, v):
        self.v = v
    def __eq__(self, o):
        return isinstance(o, Key) and o.v == self.v
    def __hash__(self):
        return hash(self.v)
    def __str__(self):
        return f'K{self.v}'
def test_equal_test_objects_hit():
    SEEN.clear()
    assert describe(Key(1)) == '<K1>'
    assert describe(Key(1)) == '<K1>'
    assert len(SEEN) == 1
def test_unhashable_refused():
    with pytest.raises(TypeError):
        describe([1, 2])
def test_kwargs_and_typed():
    SEEN.clear()
    double(3); double(3.0); double(x=3)
    assert SEEN == [3, 3.0, 3]
'''
C("pt_cache_test_objects_as_keys_ok", KEYC, KEYC_T)
C("pt_cache_test_objects_as_keys_bad_by_id", KEYC_BAD, KEYC_T)

# ------------------------------------------------------------------ ordering, heaps
STU = '''
from functools import total_ordering
@total_ordering
class Student:
    def __init__(self, first, last, grade):
        self.first, self.last, self.grade = first, last, grade
    def __eq__(self, o):
        return self.grade == o.grade
    def __lt__(self, o):
        return self.grade < o.grade
    def __repr__(self):
        return f'{self.first} {self.last} ({self.grade})'
'''
STU_BAD = STU.replace('''    def __eq__(self, o):
        return self.grade == o.grade
''', '')
STU_T = '''
import heapq, bisect
from operator import attrgetter
def roster():
    return [Student('Ann', 'Lee', 90), Student('Bob', 'Kim', 85), Student('Cid', 'Lee', 90), Student('Dee', 'Ash', 70)]
def test_derived_ops():
    a, b, c, d = roster()
    assert a <= c and a >= c and b < a and a > d
def test_sort_keys_and_stability():
    r = roster()
    assert [s.first for s in sorted(r, key=attrgetter('last', 'first'))] == ['Dee', 'Bob', 'Ann', 'Cid']
    assert [s.first for s in sorted(r, reverse=True)] == ['Ann', 'Cid', 'Bob', 'Dee']
    assert min(r, key=lambda s: (s.last, s.first)).first == 'Dee'
def test_heap_and_insort():
    r = roster()
    assert [s.first for s in heapq.nsmallest(2, r)] == ['Dee', 'Bob']
    ranks = sorted(r)
    bisect.insort(ranks, Student('Eve', 'Z', 88))
    assert repr(ranks[2]) == 'Eve Z (88)'
'''
C("pt_total_ordering_sort_keys_ok", STU, STU_T)
C("pt_total_ordering_sort_keys_bad_no_eq", STU_BAD, STU_T)

SCHED = '''
import heapq
class Scheduler:
    def __init__(self):
        self._h = []
    def push(self, job):
        heapq.heappush(self._h, job)
    def pop(self):
        return heapq.heappop(self._h)
    def __len__(self):
        return len(self._h)
'''
SCHED_BAD = '''
class Scheduler:
    def __init__(self):
        self._h = []
    def push(self, job):
        self._h.append(job)
    def pop(self):
        return self._h.pop(0)
    def __len__(self):
        return len(self._h)
'''
SCHED_T = '''
class Job:
    def __init__(self, name, due):
        self.name, self.due = name, due
    def __lt__(self, other):
        return self.due < other.due
def test_code_heap_orders_tests_objects():
    s = Scheduler()
    jobs = [Job('c', 3), Job('a', 1), Job('b', 2)]
    for j in jobs:
        s.push(j)
    first = s.pop()
    assert first is jobs[1]
    assert [s.pop().name for _ in range(len(s))] == ['b', 'c']
def test_mutated_after_push():
    s = Scheduler()
    a, b = Job('a', 5), Job('b', 6)
    s.push(a)
    a.due = 10
    s.push(b)
    assert s.pop().name == 'b'
'''
C("pt_code_heap_of_tests_objects_ok", SCHED, SCHED_T)
C("pt_code_heap_of_tests_objects_bad_fifo", SCHED_BAD, SCHED_T)

# ------------------------------------------------------------------ itertools, iterators
GENS = '''
def fib():
    a, b = 0, 1
    while True:
        yield a
        a, b = b, a + b
def chunks(it, n):
    buf = []
    for x in it:
        buf.append(x)
        if len(buf) == n:
            yield buf
            buf = []
    if buf:
        yield buf
'''
GENS_BAD = GENS.replace('''    if buf:
        yield buf
''', '')
GENS_T = '''
from itertools import islice, takewhile, tee, count, chain, groupby, accumulate
def test_islice_takewhile():
    assert list(islice(fib(), 8)) == [0, 1, 1, 2, 3, 5, 8, 13]
    assert list(takewhile(lambda x: x < 10, fib())) == [0, 1, 1, 2, 3, 5, 8]
def test_tee_and_zip_count():
    a, b = tee(fib())
    next(a); next(a)
    assert next(b) == 0 and next(a) == 1
    assert list(zip(count(1), chunks('abcde', 2))) == [(1, ['a', 'b']), (2, ['c', 'd']), (3, ['e'])]
def test_chain_groupby_accumulate():
    assert list(chain(islice(fib(), 3), [99])) == [0, 1, 1, 99]
    words = ['a', 'b', 'cc', 'dd', 'e']
    assert [(k, len(list(g))) for k, g in groupby(chunks(words, 1), key=lambda c: len(c[0]))] == [(1, 2), (2, 2), (1, 1)]
    assert list(accumulate(islice(fib(), 5))) == [0, 1, 2, 4, 7]
def test_chunks_of_generator():
    assert list(chunks(islice(fib(), 7), 3))[-1] == [8]
'''
C("pt_itertools_on_code_generators_ok", GENS, GENS_T)
C("pt_itertools_on_code_generators_bad_drops_tail", GENS_BAD, GENS_T)

CD = '''
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
def drain(it):
    return list(it)
class Peekable:
    def __init__(self, it):
        self._it = iter(it)
        self._buf = []
    def peek(self, default=None):
        if not self._buf:
            try:
                self._buf.append(next(self._it))
            except StopIteration:
                return default
        return self._buf[0]
    def __iter__(self):
        return self
    def __next__(self):
        if self._buf:
            return self._buf.pop()
        return next(self._it)
'''
CD_BAD = CD.replace('''    def __iter__(self):
        return self
    def __next__(self):
        if self.n <= 0:''', '''    def __iter__(self):
        return Countdown(self.n)
    def __next__(self):
        if self.n <= 0:''')
CD_T = '''
def test_partly_consumed_then_handed_back():
    c = Countdown(5)
    for x in c:
        if x == 4:
            break
    assert drain(c) == [3, 2, 1]
    assert next(c, 'done') == 'done'
    assert iter(c) is c
def test_peekable_over_tests_iterator():
    src = iter([10, 20, 30])
    next(src)
    p = Peekable(src)
    assert p.peek() == 20
    assert next(p) == 20
    assert list(p) == [30]
    assert p.peek('end') == 'end'
'''
C("pt_code_iterator_partly_consumed_ok", CD, CD_T)
C("pt_code_iterator_partly_consumed_bad_restarts", CD_BAD, CD_T)

C("pt_iter_sentinel_partial_and_builtins_over_code", '''
class Reader:
    def __init__(self, data):
        self.data = data
        self.pos = 0
    def read(self, n):
        chunk = self.data[self.pos:self.pos + n]
        self.pos += len(chunk)
        return chunk
def naturals():
    n = 0
    while True:
        n += 1
        yield n
def tokens(text):
    for w in text.split():
        yield w.strip('.,').lower()
''', '''
import statistics, collections
from functools import partial
def test_iter_with_sentinel_over_bound_method():
    r = Reader(b'abcdefghij')
    assert list(iter(partial(r.read, 4), b'')) == [b'abcd', b'efgh', b'ij']
    assert r.pos == 10
def test_any_stops_on_infinite():
    g = naturals()
    assert any(x > 3 for x in g)
    assert next(g) == 5
def test_builtins_consume():
    assert statistics.mean(x for x, _ in zip(naturals(), range(4))) == 2.5
    c = collections.Counter(tokens('The cat. the dog, THE end'))
    assert c.most_common(1) == [('the', 3)]
    assert collections.deque(tokens('a b c d'), maxlen=2) == collections.deque(['c', 'd'])
    assert dict(zip(tokens('x y'), naturals())) == {'x': 1, 'y': 2}
''')

# ------------------------------------------------------------------ context managers
TX = '''
class Transaction:
    def __init__(self, db):
        self.db = db
        self.error = None
    def __enter__(self):
        self.pending = []
        return self.pending
    def __exit__(self, et, ev, tb):
        if et is None:
            self.db.extend(self.pending)
        else:
            self.error = ev
        return False
'''
TX_BAD = TX.replace("        return False", "        return True")
TX_T = '''
import pytest
class Boom(Exception):
    pass
def test_commit():
    db = []
    with Transaction(db) as p:
        p.append(1)
        p.append(2)
    assert db == [1, 2]
def test_rollback_keeps_tests_exception():
    db = []
    t = Transaction(db)
    err = Boom('x')
    with pytest.raises(Boom):
        with t as p:
            p.append(1)
            raise err
    assert db == []
    assert t.error is err
def test_builtin_error_propagates():
    with pytest.raises(KeyError):
        with Transaction([]):
            {}['k']
'''
C("pt_code_cm_rollback_records_error_ok", TX, TX_T)
C("pt_code_cm_rollback_records_error_bad_suppresses", TX_BAD, TX_T)

OPENED = '''
from contextlib import contextmanager
@contextmanager
def opened(name, log):
    log.append(f'open {name}')
    try:
        yield name.upper()
    finally:
        log.append(f'close {name}')
class Conn:
    def __init__(self):
        self.closed = False
    def close(self):
        self.closed = True
'''
OPENED_BAD = '''
from contextlib import contextmanager
@contextmanager
def opened(name, log):
    log.append(f'open {name}')
    yield name.upper()
    log.append(f'close {name}')
class Conn:
    def __init__(self):
        self.closed = False
    def close(self):
        self.closed = True
'''
OPENED_T = '''
import contextlib, pytest
def test_exitstack_order():
    log = []
    with contextlib.ExitStack() as st:
        vals = [st.enter_context(opened(n, log)) for n in 'ab']
        assert vals == ['A', 'B']
    assert log == ['open a', 'open b', 'close b', 'close a']
def test_close_on_error():
    log = []
    with pytest.raises(ZeroDivisionError):
        with opened('x', log):
            1 / 0
    assert log == ['open x', 'close x']
def test_closing_code_object():
    c = Conn()
    with contextlib.closing(c) as same:
        assert same is c and not c.closed
    assert c.closed
'''
C("pt_code_contextmanager_exitstack_ok", OPENED, OPENED_T)
C("pt_code_contextmanager_exitstack_bad_no_finally", OPENED_BAD, OPENED_T)

TIMER = '''
import time
class Timer:
    def __enter__(self):
        self.start = time.perf_counter()
        return self
    def __exit__(self, *exc):
        self.elapsed = time.perf_counter() - self.start
        return False
'''
TIMER_BAD = TIMER.replace("import time", "import time\nfrom time import perf_counter").replace("time.perf_counter()", "perf_counter()")
TIMER_T = '''
import time
def test_elapsed_with_patched_clock(monkeypatch):
    ticks = iter([1.0, 3.5])
    monkeypatch.setattr(time, 'perf_counter', lambda: next(ticks))
    with Timer() as t:
        pass
    assert t.elapsed == 2.5
def test_real_clock():
    with Timer() as t:
        time.sleep(0.01)
    assert 0.005 < t.elapsed < 1
'''
C("pt_timer_cm_patched_perf_counter_ok", TIMER, TIMER_T)
C("pt_timer_cm_patched_perf_counter_bad_bound_name", TIMER_BAD, TIMER_T)

# ------------------------------------------------------------------ unittest.mock
REPO = '''
class Repository:
    def find(self, uid):
        raise RuntimeError('db')
    def save(self, uid, data):
        raise RuntimeError('db')
class Service:
    def __init__(self, repo):
        self.repo = repo
    def rename(self, uid, name):
        user = dict(self.repo.find(uid))
        user['name'] = name
        self.repo.save(uid, user)
        return user
'''
REPO_BAD = REPO.replace("user = dict(self.repo.find(uid))", "user = dict(self.repo.find_by_id(uid))")
REPO_T = '''
from unittest.mock import Mock, create_autospec
import pytest
def test_spec_mock():
    repo = Mock(spec=Repository)
    repo.find.return_value = {'name': 'old'}
    out = Service(repo).rename(3, 'new')
    assert out == {'name': 'new'}
    repo.find.assert_called_once_with(3)
    repo.save.assert_called_once_with(3, {'name': 'new'})
    with pytest.raises(AttributeError):
        repo.delete
def test_autospec_checks_arity():
    repo = create_autospec(Repository, instance=True)
    repo.find.return_value = {}
    Service(repo).rename(1, 'x')
    with pytest.raises(TypeError):
        repo.save(1)
    assert isinstance(repo, Repository)
'''
C("pt_mock_spec_and_autospec_of_code_class_ok", REPO, REPO_T)
C("pt_mock_spec_and_autospec_of_code_class_bad_wrong_method", REPO_BAD, REPO_T)

FETCH = '''
def fetch_all(client, ids):
    out = []
    for i in ids:
        try:
            out.append(client.get(i, timeout=5))
        except TimeoutError:
            out.append(client.get(i, timeout=10))
    return out
'''
FETCH_BAD = '''
def fetch_all(client, ids):
    out = []
    for i in ids:
        try:
            out.append(client.get(i, timeout=5))
        except TimeoutError:
            out.append(None)
    return out
'''
FETCH_T = '''
from unittest.mock import Mock, call
def test_retry_with_side_effect_list():
    client = Mock()
    client.get.side_effect = [TimeoutError('slow'), {'id': 1}, {'id': 2}]
    assert fetch_all(client, [1, 2]) == [{'id': 1}, {'id': 2}]
    assert client.get.call_args_list == [call(1, timeout=5), call(1, timeout=10), call(2, timeout=5)]
    assert client.get.call_args.kwargs == {'timeout': 5}
    assert client.mock_calls[1] == call.get(1, timeout=10)
def test_side_effect_function():
    client = Mock()
    client.get.side_effect = lambda i, timeout: i * timeout
    assert fetch_all(client, [1, 3]) == [5, 15]
    client.get.assert_has_calls([call(3, timeout=5), call(1, timeout=5)], any_order=True)
'''
C("pt_mock_side_effect_list_call_args_list_ok", FETCH, FETCH_T)
C("pt_mock_side_effect_list_call_args_list_bad_no_retry", FETCH_BAD, FETCH_T)

C("pt_magicmock_dunders_used_by_code", '''
def summarize(conn):
    with conn as c:
        rows = list(c)
        return len(c), rows[0], c['total']
def safe_len(x):
    return len(x) if x else 0
''', '''
from unittest.mock import MagicMock
def test_dunders_configured():
    conn = MagicMock()
    inner = conn.__enter__.return_value
    inner.__iter__.return_value = iter(['r1', 'r2'])
    inner.__len__.return_value = 2
    inner.__getitem__.side_effect = {'total': 7}.__getitem__
    assert summarize(conn) == (2, 'r1', 7)
    conn.__exit__.assert_called_once()
    inner.__getitem__.assert_called_once_with('total')
def test_bool_and_len_defaults():
    m = MagicMock()
    assert safe_len(m) == 0
    m.__len__.return_value = 4
    assert safe_len(m) == 4
''')

CART = '''
class Cart:
    TAX = 0.25
    def __init__(self, items):
        self.items = items
    def price_of(self, item):
        raise RuntimeError('no prices')
    def total(self):
        return sum(self.price_of(i) for i in self.items) * (1 + self.TAX)
'''
CART_BAD = CART.replace("* (1 + self.TAX)", "* 1.25")
CART_T = '''
from unittest.mock import patch, call
def test_autospec_method_gets_self():
    cart = Cart(['apple', 'pear'])
    with patch.object(Cart, 'price_of', autospec=True, return_value=2.0) as m:
        assert cart.total() == 5.0
    assert m.call_args_list == [call(cart, 'apple'), call(cart, 'pear')]
    m.assert_any_call(cart, 'pear')
def test_class_constant_patched():
    with patch.object(Cart, 'TAX', 0), patch.object(Cart, 'price_of', return_value=3):
        assert Cart(['a']).total() == 3
    assert Cart.TAX == 0.25
'''
C("pt_patch_object_autospec_and_constant_ok", CART, CART_T)
C("pt_patch_object_autospec_and_constant_bad_hardcoded_tax", CART_BAD, CART_T)

ENVC = '''
import os
SETTINGS = {'debug': False, 'retries': 3}
def db_url():
    return os.environ.get('DB_URL', 'sqlite://')
def is_debug():
    return SETTINGS['debug'] or os.environ.get('DEBUG') == '1'
def retries():
    return SETTINGS['retries']
'''
ENVC_BAD = ENVC.replace("def db_url():\n    return os.environ.get('DB_URL', 'sqlite://')",
                        "_URL = os.environ.get('DB_URL', 'sqlite://')\ndef db_url():\n    return _URL")
ENVC_T = '''
import os
from unittest.mock import patch
def test_patch_dict_environ():
    with patch.dict(os.environ, {'DB_URL': 'pg://x'}):
        assert db_url() == 'pg://x'
    assert db_url() == 'sqlite://'
@patch.dict('os.environ', {'DEBUG': '1'})
def test_decorator_form():
    assert is_debug()
def test_patch_dict_code_settings():
    with patch.dict(SETTINGS, {'debug': True, 'retries': 9}):
        assert is_debug() and retries() == 9
    assert retries() == 3 and not is_debug()
def test_clear_env():
    os.environ['DB_URL'] = 'mysql://y'
    try:
        with patch.dict(os.environ, clear=True):
            assert db_url() == 'sqlite://'
        assert db_url() == 'mysql://y'
    finally:
        del os.environ['DB_URL']
'''
C("pt_patch_dict_environ_and_code_settings_ok", ENVC, ENVC_T)
C("pt_patch_dict_environ_and_code_settings_bad_read_at_import", ENVC_BAD, ENVC_T)

C("pt_mock_wraps_code_function_and_patch_wraps", '''
def square(x):
    return x * x
def apply_twice(f, x):
    return f(f(x))
def sum_squares(xs):
    return sum(square(x) for x in xs)
''', '''
from unittest.mock import Mock, patch, call
def test_wraps_spy_passed_to_code():
    spy = Mock(wraps=square)
    assert apply_twice(spy, 3) == 81
    assert spy.call_args_list == [call(3), call(9)]
def test_patch_with_wraps():
    with patch(__name__ + '.square', wraps=square) as spy:
        assert sum_squares([1, 2, 3]) == 14
    assert spy.call_count == 3
    assert sum_squares([2]) == 4
''')

SENSOR = '''
class Sensor:
    @property
    def reading(self):
        raise RuntimeError('hardware')
    def status(self):
        r = self.reading
        return 'hot' if r > 30 else 'ok'
'''
SENSOR_BAD = SENSOR.replace("r > 30", "r >= 42")
SENSOR_T = '''
from unittest.mock import patch, PropertyMock
def test_property_mock():
    with patch.object(Sensor, 'reading', new_callable=PropertyMock) as rd:
        rd.return_value = 42
        s = Sensor()
        assert s.status() == 'hot'
        rd.return_value = 20
        assert s.status() == 'ok'
    assert rd.call_count == 2
def test_property_mock_side_effect():
    with patch.object(Sensor, 'reading', new_callable=PropertyMock, side_effect=[31, 30]):
        s = Sensor()
        assert [s.status(), s.status()] == ['hot', 'ok']
'''
C("pt_property_mock_on_code_class_ok", SENSOR, SENSOR_T)
C("pt_property_mock_on_code_class_bad_threshold", SENSOR_BAD, SENSOR_T)

MAILER = '''
class Mailer:
    def send(self, to, body):
        return f'sent {to}'
def notify_all(users, mailer=None):
    mailer = mailer or Mailer()
    return [mailer.send(u, 'hi') for u in users if '@' in u]
'''
MAILER_BAD = MAILER.replace(" if '@' in u]", "]")
MAILER_T = '''
import unittest
from unittest.mock import patch
class TestNotify(unittest.TestCase):
    def setUp(self):
        p = patch.object(Mailer, 'send', return_value='ok')
        self.send = p.start()
        self.addCleanup(p.stop)
    def test_only_valid_addresses(self):
        self.assertEqual(notify_all(['a@x', 'bad', 'c@y']), ['ok', 'ok'])
        self.assertEqual(self.send.call_count, 2)
        self.send.assert_called_with('c@y', 'hi')
    def test_cleanup_restores(self):
        self.send.reset_mock()
        notify_all([])
        self.send.assert_not_called()
class TestRealSend(unittest.TestCase):
    def test_real(self):
        self.assertEqual(Mailer().send('z@z', 'b'), 'sent z@z')
    @patch('time.sleep')
    @patch.object(Mailer, 'send', side_effect=['one', 'two'])
    def test_stacked_decorators(self, send, sleep):
        self.assertEqual(notify_all(['a@', 'b@']), ['one', 'two'])
        sleep.assert_not_called()
'''
C("ut_patch_start_addcleanup_stacked_ok", MAILER, MAILER_T)
C("ut_patch_start_addcleanup_stacked_bad", MAILER_BAD, MAILER_T)

# ------------------------------------------------------------------ monkeypatch
NOTES = '''
import os
def save_note(text, name='notes.txt'):
    with open(name, 'a') as f:
        f.write(text + '\\n')
def load_notes(name='notes.txt'):
    if not os.path.exists(name):
        return []
    with open(name) as f:
        return f.read().splitlines()
def where():
    return os.getcwd()
'''
NOTES_BAD = NOTES.replace("with open(name, 'a') as f:", "with open(name, 'w') as f:")
NOTES_T = '''
import os
from pathlib import Path
def test_relative_files_after_chdir(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    save_note('one')
    save_note('two')
    assert (tmp_path / 'notes.txt').read_text() == 'one\\ntwo\\n'
    assert load_notes() == ['one', 'two']
    assert Path(where()) == tmp_path
def test_test_writes_code_reads(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    Path('in.txt').write_text('a\\nb\\n')
    assert load_notes('in.txt') == ['a', 'b']
    assert load_notes('missing.txt') == []
    os.mkdir('sub')
    monkeypatch.chdir('sub')
    save_note('deep')
    assert (tmp_path / 'sub' / 'notes.txt').exists()
'''
C("pt_monkeypatch_chdir_relative_files_ok", NOTES, NOTES_T)
C("pt_monkeypatch_chdir_relative_files_bad_overwrites", NOTES_BAD, NOTES_T)

C("pt_monkeypatch_setitem_then_undone_across_tests", '''
CONFIG = {'retries': 3, 'mode': 'prod'}
def attempts():
    return list(range(CONFIG['retries']))
def mode():
    return CONFIG.get('mode', 'none')
''', '''
def test_a_setitem(monkeypatch):
    monkeypatch.setitem(CONFIG, 'retries', 5)
    monkeypatch.delitem(CONFIG, 'mode')
    assert attempts() == [0, 1, 2, 3, 4]
    assert mode() == 'none'
def test_b_restored():
    assert attempts() == [0, 1, 2]
    assert mode() == 'prod'
def test_c_direct_write_leaks():
    CONFIG['mode'] = 'dev'
    assert mode() == 'dev'
def test_d_sees_leak():
    assert mode() == 'dev'
''')

COIN = '''
import random, time, os
def coin():
    return 'heads' if random.random() < 0.5 else 'tails'
def pick(xs):
    return random.choice(xs)
def stamp():
    return int(time.time())
def home():
    return os.environ.get('APP_HOME', '/default')
'''
COIN_BAD = COIN.replace("random.random() < 0.5", "random.random() > 0.5")
COIN_T = '''
import random, time
def test_random_patched(monkeypatch):
    monkeypatch.setattr(random, 'random', lambda: 0.99)
    assert coin() == 'tails'
    monkeypatch.setattr('random.choice', lambda seq: seq[-1])
    assert pick([1, 2, 3]) == 3
def test_time_and_env(monkeypatch):
    monkeypatch.setattr(time, 'time', lambda: 1_700_000_000.7)
    assert stamp() == 1_700_000_000
    monkeypatch.setenv('APP_HOME', '/tmp/x')
    assert home() == '/tmp/x'
    monkeypatch.delenv('APP_HOME')
    assert home() == '/default'
'''
C("pt_monkeypatch_random_time_env_ok", COIN, COIN_T)
C("pt_monkeypatch_random_time_env_bad_randint", COIN_BAD, COIN_T)

# ------------------------------------------------------------------ capsys / caplog
C("pt_capsys_stdout_stderr_sep_end_and_str", '''
import sys, pprint
class Item:
    def __init__(self, name, qty):
        self.name, self.qty = name, qty
    def __str__(self):
        return f'{self.name} x{self.qty}'
def report(items):
    print('Items:', *items, sep='\\n- ')
    print('total', sum(i.qty for i in items), end='!\\n')
    if any(i.qty == 0 for i in items):
        print('warning: empty item', file=sys.stderr)
    return sys.stdout.write('done\\n')
def dump(d):
    pprint.pprint(d, width=20)
''', '''
def test_out_and_err(capsys):
    n = report([Item('a', 1), Item('b', 0)])
    out, err = capsys.readouterr()
    assert out == 'Items:\\n- a x1\\n- b x0\\ntotal 1!\\ndone\\n'
    assert err == 'warning: empty item\\n'
    assert n == 5
    assert capsys.readouterr() == ('', '')
def test_pprint(capsys):
    dump({'b': [1, 2, 3], 'a': 'x' * 12})
    assert capsys.readouterr().out == "{'a': 'xxxxxxxxxxxx',\\n 'b': [1, 2, 3]}\\n"
''')

SHOP = '''
import logging
log = logging.getLogger('shop')
class Item:
    def __init__(self, name):
        self.name = name
    def __str__(self):
        return self.name
def restock(item, qty):
    log.debug('checking %s', item)
    if qty < 5:
        log.warning('low stock: %s (%d)', item, qty)
    else:
        log.info('ok: %s', item)
    return qty
'''
SHOP_BAD = SHOP.replace("log.warning('low stock", "log.info('low stock")
SHOP_T = '''
import logging
def test_set_level_on_logger(caplog):
    caplog.set_level(logging.DEBUG, logger='shop')
    restock(Item('apple'), 2)
    assert caplog.record_tuples == [('shop', logging.DEBUG, 'checking apple'), ('shop', logging.WARNING, 'low stock: apple (2)')]
    assert caplog.records[1].args[1] == 2
    caplog.clear()
    restock(Item('pear'), 9)
    assert [r.getMessage() for r in caplog.records] == ['checking pear', 'ok: pear']
def test_default_level_warning_only(caplog):
    restock(Item('kiwi'), 1)
    restock(Item('fig'), 10)
    assert [r.levelname for r in caplog.records] == ['WARNING']
    assert 'low stock: kiwi (1)' in caplog.text
def test_at_level_error(caplog):
    with caplog.at_level(logging.ERROR, logger='shop'):
        restock(Item('x'), 0)
    assert caplog.records == []
'''
C("pt_caplog_set_level_record_tuples_ok", SHOP, SHOP_T)
C("pt_caplog_set_level_record_tuples_bad_level", SHOP_BAD, SHOP_T)

C("pt_capsys_err_from_handler_made_at_import", '''
import logging, sys
log = logging.getLogger('app')
log.addHandler(logging.StreamHandler())
log.setLevel(logging.INFO)
def run():
    log.info('started')
    print('working')
    return 1
''', '''
def test_output_seen(capsys):
    assert run() == 1
    out, err = capsys.readouterr()
    assert out == 'working\\n'
    assert 'started' in err
''')

C("pt_capsys_err_from_last_resort_handler", '''
import logging
log = logging.getLogger('quiet.module')
def run():
    log.warning('careful')
    return 2
''', '''
def test_warning_in_err(capsys):
    assert run() == 2
    assert 'careful' in capsys.readouterr().err
''')

C("pt_logger_level_and_filter_set_by_test", '''
import logging
log = logging.getLogger('svc')
def work(n):
    for i in range(n):
        log.warning('step %d', i)
    log.error('finished')
''', '''
import logging
class OddOnly(logging.Filter):
    def filter(self, record):
        return not record.args or record.args[0] % 2 == 1
def test_logger_level_set_by_test(caplog):
    lg = logging.getLogger('svc')
    lg.setLevel(logging.ERROR)
    try:
        work(3)
    finally:
        lg.setLevel(logging.NOTSET)
    assert [r.getMessage() for r in caplog.records] == ['finished']
def test_filter_added_by_test(caplog):
    lg = logging.getLogger('svc')
    f = OddOnly()
    lg.addFilter(f)
    try:
        work(4)
    finally:
        lg.removeFilter(f)
    assert [r.getMessage() for r in caplog.records] == ['step 1', 'step 3', 'finished']
def test_disabled_by_test(caplog):
    lg = logging.getLogger('svc')
    lg.disabled = True
    try:
        work(1)
    finally:
        lg.disabled = False
    assert caplog.records == []
''')

# ------------------------------------------------------------------ files, json, csv
ENC = '''
import json
from datetime import date
class Point:
    def __init__(self, x, y):
        self.x, self.y = x, y
    def __eq__(self, o):
        return isinstance(o, Point) and (self.x, self.y) == (o.x, o.y)
class Encoder(json.JSONEncoder):
    def default(self, o):
        if isinstance(o, date):
            return o.isoformat()
        if isinstance(o, set):
            return sorted(o)
        if isinstance(o, Point):
            return {'__point__': [o.x, o.y]}
        return super().default(o)
def decode_hook(d):
    if '__point__' in d:
        return Point(*d['__point__'])
    return d
'''
ENC_BAD = ENC.replace("        return Point(*d['__point__'])", "        return tuple(d['__point__'])")
ENC_T = '''
import json, pytest
from datetime import date
def test_dumps_with_code_encoder_class():
    s = json.dumps({'when': date(2024, 1, 2), 'tags': {'b', 'a'}, 'at': Point(1, 2)}, cls=Encoder, sort_keys=True)
    assert s == '{"at": {"__point__": [1, 2]}, "tags": ["a", "b"], "when": "2024-01-02"}'
def test_round_trip_with_hook():
    s = json.dumps([Point(3, 4)], cls=Encoder)
    back = json.loads(s, object_hook=decode_hook)
    assert back == [Point(3, 4)]
def test_unknown_type_still_fails():
    with pytest.raises(TypeError):
        json.dumps(object(), cls=Encoder)
'''
C("pt_json_code_encoder_cls_and_hook_ok", ENC, ENC_T)
C("pt_json_code_encoder_cls_and_hook_bad", ENC_BAD, ENC_T)

CSVC = '''
import csv
from pathlib import Path
def write_rows(path, rows):
    path = Path(path)
    with path.open('w', newline='') as f:
        w = csv.DictWriter(f, fieldnames=['name', 'qty'])
        w.writeheader()
        w.writerows(rows)
    return path
def read_rows(path):
    with open(path, newline='') as f:
        return [{'name': r['name'], 'qty': int(r['qty'])} for r in csv.DictReader(f)]
'''
CSVC_BAD = CSVC.replace("'qty': int(r['qty'])", "'qty': r['qty']")
CSVC_T = '''
import json
def test_round_trip(tmp_path):
    rows = [{'name': 'apple', 'qty': 3}, {'name': 'pear, green', 'qty': 10}]
    p = write_rows(tmp_path / 'stock.csv', rows)
    assert p == tmp_path / 'stock.csv' and p.exists()
    assert p.read_text().splitlines() == ['name,qty', 'apple,3', '"pear, green",10']
    assert read_rows(p) == rows
def test_json_of_rows(tmp_path):
    p = write_rows(str(tmp_path / 's.csv'), [{'name': 'x', 'qty': 1}])
    (tmp_path / 'out.json').write_text(json.dumps(read_rows(p)))
    assert json.loads((tmp_path / 'out.json').read_text()) == [{'name': 'x', 'qty': 1}]
'''
C("pt_csv_pathlib_round_trip_ok", CSVC, CSVC_T)
C("pt_csv_pathlib_round_trip_bad_str_qty", CSVC_BAD, CSVC_T)

JOURNAL = '''
class Journal:
    def __init__(self, path):
        self.f = open(path, 'a')
    def write(self, line):
        self.f.write(line + '\\n')
        self.f.flush()
    def close(self):
        self.f.close()
'''
JOURNAL_BAD = JOURNAL.replace("        self.f.flush()\n", "")
JOURNAL_T = '''
def test_visible_before_close(tmp_path):
    p = tmp_path / 'j.log'
    j = Journal(p)
    j.write('a')
    assert p.read_text() == 'a\\n'
    j.write('b')
    j.close()
    assert p.read_text().splitlines() == ['a', 'b']
def test_test_appends_between(tmp_path):
    p = tmp_path / 'k.log'
    j = Journal(p)
    j.write('1')
    with open(p, 'a') as f:
        f.write('mine\\n')
    j.write('2')
    j.close()
    assert p.read_text() == '1\\nmine\\n2\\n'
'''
C("pt_journal_file_kept_open_flush_ok", JOURNAL, JOURNAL_T)
C("pt_journal_file_kept_open_bad_no_flush", JOURNAL_BAD, JOURNAL_T)

C("pt_tempfile_by_test_and_gettempdir", '''
import tempfile, os
def count_words(name):
    with open(name) as f:
        return len(f.read().split())
def scratch(name, text):
    p = os.path.join(tempfile.gettempdir(), name)
    with open(p, 'w') as f:
        f.write(text)
    return p
''', '''
import tempfile, os
def test_named_temporary_file():
    with tempfile.NamedTemporaryFile('w', suffix='.txt', delete=False) as f:
        f.write('one two three')
    try:
        assert count_words(f.name) == 3
    finally:
        os.unlink(f.name)
def test_code_writes_in_tempdir():
    p = scratch('diff22_x.txt', 'hello')
    try:
        assert os.path.dirname(p) == tempfile.gettempdir()
        with open(p) as f:
            assert f.read() == 'hello'
    finally:
        os.unlink(p)
''')

# ------------------------------------------------------------------ random, time
DICE = '''
import random
def roll_dice(n):
    return [random.randint(1, 6) for _ in range(n)]
def draw():
    return random.random()
def noise():
    return random.gauss(0, 1)
def team(names, k):
    return random.sample(names, k)
'''
DICE_BAD = DICE.replace("import random", "import random\n_rng = random.Random(1234)").replace("random.randint(1, 6)", "_rng.randint(1, 6)")
DICE_T = '''
import random
def test_seed_then_compare_with_tests_own_draws():
    random.seed(7)
    expected = [random.randint(1, 6) for _ in range(5)]
    random.seed(7)
    assert roll_dice(5) == expected
def test_interleaved_draws():
    random.seed(3)
    a = random.random()
    b = draw()
    random.seed(3)
    assert random.random() == a
    assert draw() == b
def test_gauss_pairs_shared():
    random.seed(1)
    g = [random.gauss(0, 1) for _ in range(2)]
    random.seed(1)
    first = random.gauss(0, 1)
    assert [first, noise()] == g
def test_getstate_setstate():
    st = random.getstate()
    t1 = team(['a', 'b', 'c', 'd'], 2)
    random.setstate(st)
    assert team(['a', 'b', 'c', 'd'], 2) == t1
'''
C("pt_random_seed_interleaved_gauss_state_ok", DICE, DICE_T)
C("pt_random_seed_interleaved_gauss_state_bad_own_rng", DICE_BAD, DICE_T)

C("pt_numpy_global_seed_shared", '''
import numpy as np
def noisy(n):
    return np.random.normal(size=n)
def pick(xs):
    return np.random.choice(xs)
''', '''
import numpy as np
def test_global_seed():
    np.random.seed(0)
    expected = np.random.normal(size=3)
    np.random.seed(0)
    np.testing.assert_allclose(noisy(3), expected)
def test_interleaved():
    np.random.seed(5)
    a = np.random.rand()
    b = pick([10, 20, 30, 40])
    np.random.seed(5)
    assert np.random.rand() == a
    assert pick([10, 20, 30, 40]) == b
''')

LIMITER = '''
import time
class RateLimiter:
    def __init__(self, per_second):
        self.interval = 1.0 / per_second
        self.last = None
    def allow(self):
        now = time.monotonic()
        if self.last is None or now - self.last >= self.interval:
            self.last = now
            return True
        return False
def measure(fn):
    t0 = time.monotonic()
    fn()
    return time.monotonic() - t0
'''
LIMITER_BAD = LIMITER.replace("now - self.last >= self.interval", "now - self.last > self.interval")
LIMITER_T = '''
import time
from unittest.mock import patch
def test_limiter_with_test_clock(monkeypatch):
    clock = [100.0]
    monkeypatch.setattr(time, 'monotonic', lambda: clock[0])
    rl = RateLimiter(2)
    assert rl.allow() and not rl.allow()
    clock[0] += 0.5
    assert rl.allow()
    clock[0] += 0.25
    assert not rl.allow()
def test_measure_side_effect():
    calls = []
    with patch('time.monotonic', side_effect=[10.0, 12.5]):
        assert measure(lambda: calls.append(1)) == 2.5
    assert calls == [1]
'''
C("pt_monotonic_patched_rate_limiter_ok", LIMITER, LIMITER_T)
C("pt_monotonic_patched_rate_limiter_bad_strict", LIMITER_BAD, LIMITER_T)

# ------------------------------------------------------------------ pytest.approx
STATS = '''
def stats(rows):
    n = len(rows)
    cols = list(zip(*rows))
    return {'mean': [sum(c) / n for c in cols], 'total': float(sum(map(sum, rows)))}
def normalise(xs):
    s = sum(xs)
    return [x / s for x in xs]
def centroid(pts):
    return (sum(p[0] for p in pts) / len(pts), sum(p[1] for p in pts) / len(pts))
'''
STATS_T = '''
import pytest
def test_nested_dict_approx():
    assert stats([[0, 1], [1, 1], [0, 0]]) == pytest.approx({'mean': [1 / 3, 2 / 3], 'total': 3.0})
def test_flat_parts_approx():
    s = stats([[0, 1], [1, 1], [0, 0]])
    assert s['mean'] == pytest.approx([0.3333, 0.6667], abs=1e-3)
    assert s == pytest.approx({'mean': s['mean'], 'total': 3.0000001}) or True
def test_list_approx_and_tuple():
    assert normalise([1, 1, 2]) == pytest.approx([0.25, 0.25, 0.5])
    assert centroid([(0, 0), (1, 0.1), (2, 0.2)]) == pytest.approx((1.0, 0.1))
def test_list_of_tuples_nested():
    assert [centroid([(0, 0), (1, 1)])] == pytest.approx([(0.5, 0.5)])
'''
C("pt_approx_nested_structures", STATS, STATS_T)

C("pt_approx_mismatch_cases", '''
def ratios(d):
    total = sum(d.values())
    return {k: v / total for k, v in d.items()}
def series(n):
    return [0.1 * i for i in range(n)]
''', '''
import pytest
def test_extra_key_not_equal():
    assert ratios({'a': 1, 'b': 3}) != pytest.approx({'a': 0.25})
    assert ratios({'a': 1, 'b': 3}) == pytest.approx({'b': 0.75, 'a': 0.25})
def test_length_mismatch():
    assert series(3) != pytest.approx([0.0, 0.1])
    assert series(3) == pytest.approx([0, 0.1, 0.2])
def test_rel_tolerance():
    assert series(4)[3] == pytest.approx(0.3, rel=1e-12)
    assert series(4)[3] != 0.3
def test_approx_on_left():
    assert pytest.approx([0.0, 0.1, 0.2]) == series(3)
''')

# ------------------------------------------------------------------ exceptions
HTTP = '''
class HttpError(Exception):
    def __init__(self, status, msg):
        self.status = status
        self.msg = msg
    def __str__(self):
        return f'{self.status} {self.msg}'
class ValidationError(Exception):
    def __init__(self, field, *, reason):
        super().__init__(f'{field}: {reason}')
        self.field = field
        self.reason = reason
def get(path):
    if path != '/':
        raise HttpError(404, 'Not Found')
    return 'home'
def validate(user):
    if user.get('age', 0) < 0:
        raise ValidationError('age', reason='must be >= 0')
    return True
'''
HTTP_BAD = HTTP.replace('''    def __str__(self):
        return f'{self.status} {self.msg}'
''', '')
HTTP_T = '''
import pytest
def test_custom_str_match():
    with pytest.raises(HttpError, match=r'^404 Not Found$') as ei:
        get('/x')
    assert ei.value.status == 404
    assert ei.value.args == (404, 'Not Found')
    assert str(ei.value) == '404 Not Found'
def test_kw_only_exception():
    with pytest.raises(ValidationError) as ei:
        validate({'age': -1})
    e = ei.value
    assert (e.field, e.reason) == ('age', 'must be >= 0')
    assert e.args == ('age: must be >= 0',)
    assert ei.match('age: must')
    assert ei.typename == 'ValidationError'
'''
C("pt_raises_match_custom_str_kwonly_exc_ok", HTTP, HTTP_T)
C("pt_raises_match_custom_str_kwonly_exc_bad_no_str", HTTP_BAD, HTTP_T)

C("pt_exception_mixed_bases_keyerror", '''
class ConfigError(Exception):
    pass
class MissingSetting(ConfigError, KeyError):
    pass
SETTINGS = {'host': 'h'}
def setting(name):
    try:
        return SETTINGS[name]
    except KeyError:
        raise MissingSetting(name) from None
''', '''
import pytest
def test_caught_as_lookup_error():
    with pytest.raises(LookupError) as ei:
        setting('timeout')
    assert ei.type is MissingSetting
    assert isinstance(ei.value, ConfigError) and isinstance(ei.value, KeyError)
    assert str(ei.value) == "'timeout'"
    assert ei.value.__suppress_context__
def test_except_clause_order():
    try:
        setting('port')
    except ConfigError as e:
        got = ('config', e.args[0])
    except KeyError:
        got = ('key', None)
    assert got == ('config', 'port')
    assert MissingSetting.__mro__[1:3] == (ConfigError, KeyError)
''')

STOCK = '''
class OutOfStock(Exception):
    def __init__(self, item, wanted):
        super().__init__(f'{item.name}: wanted {wanted}, have {item.qty}')
        self.item = item
        self.wanted = wanted
class Item:
    def __init__(self, name, qty):
        self.name, self.qty = name, qty
    def restock(self, n):
        self.qty += n
def take(item, n):
    if n > item.qty:
        raise OutOfStock(item, n)
    item.qty -= n
    return item.qty
'''
STOCK_T = '''
import pytest
def test_exception_carries_code_object():
    it = Item('pen', 1)
    with pytest.raises(OutOfStock, match='pen: wanted 3, have 1') as ei:
        take(it, 3)
    assert ei.value.item is it
    ei.value.item.restock(5)
    assert it.qty == 6
    assert take(it, 3) == 3
def test_reraise_in_test():
    it = Item('ink', 0)
    try:
        take(it, 1)
    except OutOfStock as e:
        e.item.restock(1)
        caught = e
    assert caught.wanted == 1 and it.qty == 1
'''
C("pt_exception_attr_is_code_object", STOCK, STOCK_T)

# ------------------------------------------------------------------ parametrize, fixtures
GEOM = '''
import math
from enum import Enum
class Square:
    def __init__(self, s):
        self.s = s
    def area(self):
        return self.s * self.s
    def __repr__(self):
        return f'Square({self.s})'
class Circle:
    def __init__(self, r):
        self.r = r
    def area(self):
        return math.pi * self.r ** 2
    def __repr__(self):
        return f'Circle({self.r})'
class Unit(Enum):
    CM = 1
    M = 100
def convert(value, frm, to):
    return value * frm.value / to.value
class Tally:
    def __init__(self):
        self.n = 0
    def hit(self):
        self.n += 1
        return self.n
SHARED = Tally()
'''
GEOM_BAD = GEOM.replace("return math.pi * self.r ** 2", "return 3.14 * self.r ** 2")
GEOM_T = '''
import pytest
@pytest.mark.parametrize('shape, expected', [(Square(2), 4), (Circle(1), pytest.approx(3.14159, rel=1e-5))], ids=['sq', 'circ'])
def test_area(shape, expected):
    assert shape.area() == expected
@pytest.mark.parametrize('unit', list(Unit), ids=lambda u: u.name)
def test_identity_conversion(unit):
    assert convert(5, unit, unit) == 5
@pytest.mark.parametrize('n', [1, 2, 3])
def test_shared_object_across_params(n):
    assert SHARED.hit() == n
@pytest.mark.parametrize('shape', [pytest.param(Square(3), id='s3'), pytest.param(Circle(0.5), id='c05')])
def test_positive_area(shape):
    assert shape.area() > 0
'''
C("pt_parametrize_over_code_objects_and_enum_ok", GEOM, GEOM_T)
C("pt_parametrize_over_code_objects_and_enum_bad_pi", GEOM_BAD, GEOM_T)

DB = '''
CLOSED = []
class Database:
    def __init__(self, name):
        self.name = name
        self.rows = []
        self.open = True
    def insert(self, row):
        if not self.open:
            raise RuntimeError('closed')
        self.rows.append(row)
    def close(self):
        self.open = False
        CLOSED.append(self.name)
'''
DB_T = '''
import pytest
@pytest.fixture
def db():
    d = Database('fn')
    yield d
    d.close()
@pytest.fixture(scope='module')
def shared_db():
    d = Database('mod')
    yield d
    d.close()
@pytest.fixture
def finalized(request):
    d = Database('fin')
    request.addfinalizer(d.close)
    return d
def test_1_insert(db, shared_db):
    db.insert(1)
    shared_db.insert('a')
    assert db.rows == [1]
def test_2_teardown_ran(db, shared_db):
    assert CLOSED == ['fn']
    shared_db.insert('b')
    assert shared_db.rows == ['a', 'b'] and db.rows == []
def test_3_finalizer(finalized):
    finalized.insert(0)
    assert CLOSED == ['fn', 'fn']
def test_4_after_finalizer():
    assert CLOSED == ['fn', 'fn', 'fin']
'''
C("pt_fixtures_yield_code_objects_teardown_order", DB, DB_T)

BANK = '''
class Bank:
    def __init__(self):
        self.accounts = {}
        self.log = []
    def open(self, name, amount=0):
        self.accounts[name] = amount
        self.log.append(('open', name))
    def close(self, name):
        self.log.append(('close', name))
        return self.accounts.pop(name)
    def transfer(self, a, b, amount):
        if self.accounts[a] < amount:
            raise ValueError('insufficient funds')
        self.accounts[a] -= amount
        self.accounts[b] += amount
    def total(self):
        return sum(self.accounts.values())
'''
BANK_BAD = BANK.replace("        if self.accounts[a] < amount:\n            raise ValueError('insufficient funds')\n", "")
BANK_T = '''
import unittest
class TestBank(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.bank = Bank()
        cls.bank.open('reserve', 1000)
    @classmethod
    def tearDownClass(cls):
        cls.bank.close('reserve')
    def setUp(self):
        self.bank.open('tmp', 10)
        self.addCleanup(self.bank.close, 'tmp')
    def test_a_transfer(self):
        self.bank.transfer('reserve', 'tmp', 5)
        self.assertEqual(self.bank.accounts['tmp'], 15)
    def test_b_reserve_persists(self):
        self.assertEqual(self.bank.accounts['reserve'], 995)
        self.assertEqual(self.bank.total(), 1005)
    def test_c_insufficient(self):
        with self.assertRaises(ValueError) as cm:
            self.bank.transfer('tmp', 'reserve', 50)
        self.assertEqual(str(cm.exception), 'insufficient funds')
        self.assertEqual(self.bank.accounts['tmp'], 10)
    def test_d_log(self):
        self.assertEqual(self.bank.log[:2], [('open', 'reserve'), ('open', 'tmp')])
        self.assertEqual(self.bank.log.count(('close', 'tmp')), 3)
'''
C("ut_setupclass_addcleanup_shared_bank_ok", BANK, BANK_T)
C("ut_setupclass_addcleanup_shared_bank_bad", BANK_BAD, BANK_T)

POLY = '''
import math
class Shape:
    def __eq__(self, o):
        return type(self) is type(o) and vars(self) == vars(o)
    __hash__ = None
class Sq(Shape):
    def __init__(self, s):
        self.s = s
    def area(self):
        return self.s ** 2
class Tri(Shape):
    def __init__(self, b, h):
        self.b, self.h = b, h
    def area(self):
        return self.b * self.h / 2
class Circ(Shape):
    def __init__(self, r):
        self.r = r
    def area(self):
        return math.pi * self.r * self.r
def shapes():
    return [Sq(2), Tri(3, 4), Circ(1)]
'''
POLY_BAD = POLY.replace("return self.b * self.h / 2", "return self.b * self.h")
POLY_T = '''
import unittest
class TestShapes(unittest.TestCase):
    def test_areas_subtests(self):
        for shape, expected in zip(shapes(), [4, 6, 3.14159]):
            with self.subTest(shape=type(shape).__name__):
                self.assertAlmostEqual(shape.area(), expected, places=4)
    def test_count_equal_unhashable(self):
        self.assertCountEqual(shapes(), [Circ(1), Sq(2), Tri(3, 4)])
    def test_in_and_isinstance(self):
        ss = shapes()
        self.assertIn(Tri(3, 4), ss)
        self.assertNotIn(Sq(3), ss)
        self.assertIsInstance(ss[2], Shape)
        self.assertAlmostEqual(ss[2].area(), 3.1, delta=0.05)
    def test_unhashable(self):
        with self.assertRaises(TypeError):
            {Sq(1)}
'''
C("ut_subtest_countequal_unhashable_code_objects_ok", POLY, POLY_T)
C("ut_subtest_countequal_unhashable_code_objects_bad", POLY_BAD, POLY_T)

C("ut_assert_helpers_on_code_values", '''
class Seq:
    def __init__(self, *xs):
        self._xs = list(xs)
    def __len__(self):
        return len(self._xs)
    def __getitem__(self, i):
        return self._xs[i]
class Inventory:
    def __init__(self):
        self.stock = {}
    def add(self, k, n=1):
        self.stock[k] = self.stock.get(k, 0) + n
        return self
    def as_dict(self):
        return dict(sorted(self.stock.items()))
    def names(self):
        return set(self.stock)
class Ver:
    def __init__(self, *p):
        self.p = p
    def __lt__(self, o):
        return self.p < o.p
    def __gt__(self, o):
        return self.p > o.p
    def __le__(self, o):
        return self.p <= o.p
''', '''
import unittest
class TestHelpers(unittest.TestCase):
    def test_dict_and_set(self):
        inv = Inventory().add('b').add('a', 2).add('b')
        self.assertDictEqual(inv.as_dict(), {'a': 2, 'b': 2})
        self.assertSetEqual(inv.names(), {'a', 'b'})
        self.assertEqual(list(inv.as_dict()), ['a', 'b'])
    def test_sequence_equal_on_custom_sequence(self):
        self.assertSequenceEqual(Seq(1, 2, 3), [1, 2, 3])
        self.assertEqual(list(Seq('x')), ['x'])
    def test_ordering_helpers(self):
        self.assertGreater(Ver(1, 10), Ver(1, 2))
        self.assertLessEqual(Ver(1, 2), Ver(1, 2))
        self.assertEqual(max([Ver(1), Ver(3), Ver(2)]).p, (3,))
    def test_regex_and_multiline(self):
        self.assertRegex(repr(Inventory().add('x').as_dict()), r"\\{'x': 1\\}")
        self.assertMultiLineEqual('\\n'.join(Inventory().add('a').add('b').names() and ['a', 'b']), 'a\\nb')
''')

# ------------------------------------------------------------------ generators
ACC = '''
def accumulator():
    total = 0
    while True:
        try:
            x = yield total
        except ValueError:
            total = 0
            continue
        if x is None:
            return total
        total += x
'''
ACC_BAD = '''
def accumulator():
    total = 0
    while True:
        x = yield total
        if x is None:
            return total
        total += x
'''
ACC_T = '''
import pytest, inspect
def test_send_throw_return():
    g = accumulator()
    assert inspect.getgeneratorstate(g) == 'GEN_CREATED'
    assert next(g) == 0
    g.send(5)
    assert g.send(3) == 8
    assert g.throw(ValueError) == 0
    assert g.send(2) == 2
    with pytest.raises(StopIteration) as ei:
        g.send(None)
    assert ei.value.value == 2
    assert inspect.getgeneratorstate(g) == 'GEN_CLOSED'
def test_yield_from_in_tests_generator():
    results = []
    def wrapper():
        r = yield from accumulator()
        results.append(r)
    w = wrapper()
    next(w)
    w.send(4); w.send(6)
    with pytest.raises(StopIteration):
        w.send(None)
    assert results == [10]
'''
C("pt_generator_send_throw_return_value_ok", ACC, ACC_T)
C("pt_generator_send_throw_return_value_bad_no_except", ACC_BAD, ACC_T)

C("pt_generator_close_runs_finally_on_code_object", '''
class Resource:
    def __init__(self):
        self.closed = False
        self.reads = 0
def read_lines(res, lines):
    try:
        for line in lines:
            res.reads += 1
            yield line
    finally:
        res.closed = True
''', '''
import inspect
def test_close_explicit():
    r = Resource()
    g = read_lines(r, ['a', 'b', 'c'])
    assert next(g) == 'a'
    g.close()
    assert r.closed and r.reads == 1
    assert inspect.getgeneratorstate(g) == 'GEN_CLOSED'
def test_exhausted():
    r = Resource()
    assert list(read_lines(r, ['x'])) == ['x']
    assert r.closed
def test_break_out_of_for():
    r = Resource()
    for line in read_lines(r, ['a', 'b']):
        break
    assert r.closed
''')

# ------------------------------------------------------------------ asyncio
C("pt_async_gather_interleaves_with_tests_coroutine", '''
import asyncio
async def worker(name, log, n):
    for i in range(n):
        log.append(f'{name}{i}')
        await asyncio.sleep(0)
    return name
''', '''
import asyncio
def test_interleaving():
    log = []
    async def mine(n):
        for i in range(n):
            log.append(f't{i}')
            await asyncio.sleep(0)
        return 't'
    async def main():
        return await asyncio.gather(worker('a', log, 2), mine(2))
    assert asyncio.run(main()) == ['a', 't']
    assert log == ['a0', 't0', 'a1', 't1']
def test_two_code_workers():
    log = []
    async def main():
        return await asyncio.gather(worker('a', log, 2), worker('b', log, 2))
    assert asyncio.run(main()) == ['a', 'b']
    assert log == ['a0', 'b0', 'a1', 'b1']
''')

TICK = '''
import asyncio
class State:
    def __init__(self):
        self.ticks = 0
        self.stopped = False
async def ticker(state):
    try:
        while True:
            state.ticks += 1
            await asyncio.sleep(0.01)
    finally:
        state.stopped = True
'''
TICK_BAD = '''
import asyncio
class State:
    def __init__(self):
        self.ticks = 0
        self.stopped = False
async def ticker(state):
    try:
        while True:
            state.ticks += 1
            await asyncio.sleep(0.01)
    except asyncio.CancelledError:
        state.stopped = True
'''
TICK_T = '''
import asyncio, pytest
def test_cancel_code_task():
    st = State()
    async def main():
        t = asyncio.create_task(ticker(st))
        await asyncio.sleep(0.055)
        t.cancel()
        with pytest.raises(asyncio.CancelledError):
            await t
        return t.cancelled()
    assert asyncio.run(main()) is True
    assert st.stopped and 3 <= st.ticks <= 8
'''

FETCHC = '''
import asyncio
async def fetch_all(urls, fetch):
    return await asyncio.gather(*(fetch(u) for u in urls))
async def fetch_limited(urls, fetch, limit):
    sem = asyncio.Semaphore(limit)
    async def one(u):
        async with sem:
            return await fetch(u)
    return await asyncio.gather(*(one(u) for u in urls))
'''
FETCHC_BAD = '''
import asyncio
async def fetch_all(urls, fetch):
    return [await fetch(u) for u in urls]
async def fetch_limited(urls, fetch, limit):
    return [await fetch(u) for u in urls]
'''
FETCHC_T = '''
import asyncio
class Probe:
    def __init__(self):
        self.active = 0
        self.peak = 0
    async def fetch(self, u):
        self.active += 1
        self.peak = max(self.peak, self.active)
        await asyncio.sleep(0.01)
        self.active -= 1
        return u.upper()
def test_concurrent():
    p = Probe()
    assert asyncio.run(fetch_all(['a', 'b', 'c'], p.fetch)) == ['A', 'B', 'C']
    assert p.peak == 3
def test_limited():
    p = Probe()
    assert asyncio.run(fetch_limited(list('abcde'), p.fetch, 2)) == list('ABCDE')
    assert p.peak == 2
'''
C("pt_async_code_gathers_tests_coroutines_ok", FETCHC, FETCHC_T)
C("pt_async_code_gathers_tests_coroutines_bad_sequential", FETCHC_BAD, FETCHC_T)

C("pt_async_generator_aclose_finally", '''
import asyncio
DONE = []
async def countdown(n):
    try:
        while n > 0:
            yield n
            n -= 1
            await asyncio.sleep(0)
    finally:
        DONE.append(n)
''', '''
import asyncio
def test_anext_then_aclose():
    DONE.clear()
    async def main():
        g = countdown(5)
        a = await anext(g)
        b = await anext(g)
        await g.aclose()
        return a, b
    assert asyncio.run(main()) == (5, 4)
    assert DONE == [4]
def test_comprehension_and_default():
    DONE.clear()
    async def main():
        xs = [x async for x in countdown(3)]
        g = countdown(0)
        return xs, await anext(g, 'empty')
    assert asyncio.run(main()) == ([3, 2, 1], 'empty')
    assert DONE == [0, 0]
''')

# ------------------------------------------------------------------ threads
QC = '''
def produce(q, items):
    for it in items:
        q.put(it)
    q.put(None)
def consume(q, out):
    while True:
        it = q.get()
        q.task_done()
        if it is None:
            return len(out)
        out.append(it * 2)
'''
QC_BAD = QC.replace("if it is None:", "if not it:")
QC_T = '''
import queue, threading
def test_producer_consumer_threads():
    q = queue.Queue()
    out = []
    result = {}
    c = threading.Thread(target=lambda: result.setdefault('n', consume(q, out)))
    c.start()
    p = threading.Thread(target=produce, args=(q, [1, 0, 3]))
    p.start()
    p.join(5); c.join(5)
    assert q.empty()
    assert out == [2, 0, 6]
    assert result == {'n': 3}
def test_same_thread():
    q = queue.Queue()
    produce(q, ['a'])
    assert q.qsize() == 2
    assert q.get() == 'a'
'''
C("pt_threads_queue_producer_consumer_ok", QC, QC_T)
C("pt_threads_queue_producer_consumer_bad_falsy_stop", QC_BAD, QC_T)

C("pt_threads_code_lock_and_tests_event", '''
import threading
class Counter:
    def __init__(self):
        self.value = 0
        self._lock = threading.Lock()
    def increment(self):
        with self._lock:
            self.value += 1
def wait_for(ev, timeout):
    return ev.wait(timeout)
class Worker(threading.Thread):
    def __init__(self, nums):
        super().__init__()
        self.nums = nums
        self.result = None
    def run(self):
        self.result = [n * n for n in self.nums]
''', '''
import threading, time
def test_threads_increment_code_counter():
    c = Counter()
    ts = [threading.Thread(target=lambda: [c.increment() for _ in range(200)]) for _ in range(4)]
    for t in ts: t.start()
    for t in ts: t.join()
    assert c.value == 800
def test_code_waits_on_tests_event():
    ev = threading.Event()
    threading.Timer(0.05, ev.set).start()
    assert wait_for(ev, 2) is True
    assert wait_for(threading.Event(), 0.01) is False
def test_code_thread_subclass():
    w = Worker([1, 2, 3])
    w.start()
    w.join()
    assert w.result == [1, 4, 9] and not w.is_alive()
''')

# ------------------------------------------------------------------ repr / str / format
MONEYF = '''
class Money:
    def __init__(self, cents, cur='EUR'):
        self.cents, self.cur = cents, cur
    def __str__(self):
        return f'{self.cents / 100:.2f} {self.cur}'
    def __repr__(self):
        return f'Money({self.cents}, {self.cur!r})'
    def __format__(self, spec):
        if spec == 'c':
            return f'{self.cents}c'
        if spec.endswith('f'):
            return f'{self.cents / 100:{spec}} {self.cur}'
        return format(str(self), spec)
def receipt(items):
    return '\\n'.join(f'{name:<6}{m:>12}' for name, m in items)
'''
MONEYF_BAD = MONEYF.replace('''    def __format__(self, spec):
        if spec == 'c':
            return f'{self.cents}c'
        if spec.endswith('f'):
            return f'{self.cents / 100:{spec}} {self.cur}'
        return format(str(self), spec)
''', '')
MONEYF_T = '''
def test_fstrings():
    m = Money(1234)
    assert f'{m}' == '12.34 EUR'
    assert f'{m!r}' == "Money(1234, 'EUR')"
    assert f'{m:.1f}' == '12.3 EUR'
    assert format(m, 'c') == '1234c'
    assert '{:>12}|'.format(m) == '   12.34 EUR|'
    assert '%s / %r' % (m, m) == "12.34 EUR / Money(1234, 'EUR')"
def test_containers_use_repr():
    assert str([Money(5)]) == "[Money(5, 'EUR')]"
    assert repr({'a': Money(1, 'USD')}) == "{'a': Money(1, 'USD')}"
def test_code_formats_its_objects():
    assert receipt([('tea', Money(250)), ('cake', Money(1999))]) == 'tea       2.50 EUR\\ncake     19.99 EUR'
'''
C("pt_format_spec_str_repr_in_fstrings_ok", MONEYF, MONEYF_T)
C("pt_format_spec_str_repr_in_fstrings_bad_no_format", MONEYF_BAD, MONEYF_T)

C("pt_assert_message_and_print_of_code_objects", '''
class Node:
    def __init__(self, val, *kids):
        self.val, self.kids = val, list(kids)
    def __repr__(self):
        inner = ', '.join(map(repr, self.kids))
        return f'Node({self.val}' + (f', [{inner}])' if self.kids else ')')
def tree():
    return Node(1, Node(2), Node(3, Node(4)))
''', '''
def test_nested_repr():
    t = tree()
    assert repr(t) == 'Node(1, [Node(2), Node(3, [Node(4)])])', f'got {t!r}'
def test_print(capsys):
    t = tree()
    print(t.kids)
    print(t, end='')
    assert capsys.readouterr().out == '[Node(2), Node(3, [Node(4)])]\\nNode(1, [Node(2), Node(3, [Node(4)])])'
def test_str_falls_back_to_repr():
    assert str(tree().kids[0]) == 'Node(2)'
''')

# ------------------------------------------------------------------ operators
MAT = '''
class Matrix:
    def __init__(self, rows):
        self.rows = [list(r) for r in rows]
    def __eq__(self, o):
        return isinstance(o, Matrix) and self.rows == o.rows
    def __matmul__(self, o):
        other = o.rows if isinstance(o, Matrix) else o
        cols = list(zip(*other))
        return Matrix([[sum(a * b for a, b in zip(r, c)) for c in cols] for r in self.rows])
    def __rmatmul__(self, o):
        return Matrix(o) @ self
    def __mul__(self, k):
        return Matrix([[k * x for x in r] for r in self.rows])
    def __rmul__(self, k):
        return self * k
    def __neg__(self):
        return self * -1
    def __getitem__(self, idx):
        if isinstance(idx, tuple):
            i, j = idx
            return self.rows[i][j]
        if isinstance(idx, slice):
            return Matrix(self.rows[idx])
        return self.rows[idx]
    def __iter__(self):
        return iter(self.rows)
    def __len__(self):
        return len(self.rows)
    def __repr__(self):
        return f'Matrix({self.rows})'
'''
MAT_BAD = MAT.replace('''    def __rmul__(self, k):
        return self * k
''', '').replace('''    def __rmatmul__(self, o):
        return Matrix(o) @ self
''', '')
MAT_T = '''
def test_matmul_and_scalar():
    a = Matrix([[1, 2], [3, 4]])
    i = Matrix([[1, 0], [0, 1]])
    assert a @ i == a
    assert (a @ a)[1, 0] == 15
    assert 2 * a == a * 2 == Matrix([[2, 4], [6, 8]])
    assert -a == Matrix([[-1, -2], [-3, -4]])
def test_with_tests_lists():
    a = Matrix([[1, 2], [3, 4]])
    assert a @ [[1], [1]] == Matrix([[3], [7]])
    assert [[1, 1]] @ a == Matrix([[4, 6]])
def test_indexing_and_iteration():
    a = Matrix([[1, 2], [3, 4], [5, 6]])
    assert a[1:] == Matrix([[3, 4], [5, 6]])
    assert a[-1] == [5, 6]
    assert [sum(r) for r in a] == [3, 7, 11] and len(a) == 3
    row = a[0]
    row.append(99)
    assert a[0, 2] == 99
'''
C("pt_matrix_matmul_rmul_slices_ok", MAT, MAT_T)
C("pt_matrix_matmul_rmul_slices_bad_no_reflected", MAT_BAD, MAT_T)

DECK = '''
class Deck:
    def __init__(self, cards):
        self._cards = list(cards)
    def __len__(self):
        return len(self._cards)
    def __getitem__(self, i):
        if isinstance(i, slice):
            return Deck(self._cards[i])
        return self._cards[i]
    def __setitem__(self, i, v):
        self._cards[i] = v
    def __delitem__(self, i):
        del self._cards[i]
    def __contains__(self, c):
        return c.upper() in (x.upper() for x in self._cards)
    def cards(self):
        return list(self._cards)
'''
DECK_BAD = DECK.replace('''    def __contains__(self, c):
        return c.upper() in (x.upper() for x in self._cards)
''', '')
DECK_T = '''
import random
def test_iteration_via_getitem_and_reversed():
    d = Deck(['A', 'K', 'Q'])
    assert list(d) == ['A', 'K', 'Q']
    assert list(reversed(d)) == ['Q', 'K', 'A']
    assert d[::-1].cards() == ['Q', 'K', 'A']
    assert sorted(d) == ['A', 'K', 'Q']
def test_contains_custom():
    d = Deck(['a', 'k'])
    assert 'A' in d and 'q' not in d
def test_mutation_by_test():
    d = Deck(['1', '2', '3', '4'])
    del d[0]
    d[0] = 'x'
    assert d.cards() == ['x', '3', '4'] and len(d) == 3
def test_shuffle_in_place():
    random.seed(4)
    d = Deck('abcdef')
    random.shuffle(d)
    random.seed(4)
    expected = list('abcdef')
    random.shuffle(expected)
    assert d.cards() == expected
'''
C("pt_sequence_protocol_getitem_only_ok", DECK, DECK_T)
C("pt_sequence_protocol_getitem_only_bad_no_contains", DECK_BAD, DECK_T)

VEC = '''
import math
class Vector:
    def __init__(self, x, y):
        self.x, self.y = x, y
    def __iter__(self):
        yield self.x
        yield self.y
    def __abs__(self):
        return math.hypot(self.x, self.y)
    def __bool__(self):
        return bool(self.x or self.y)
    def __eq__(self, o):
        return isinstance(o, Vector) and tuple(self) == tuple(o)
    def __hash__(self):
        return hash((self.x, self.y))
    def __add__(self, o):
        return Vector(self.x + o.x, self.y + o.y)
    def __round__(self, n=0):
        return Vector(round(self.x, n), round(self.y, n))
    def __repr__(self):
        return f'Vector({self.x}, {self.y})'
'''
VEC_BAD = VEC.replace('''    def __bool__(self):
        return bool(self.x or self.y)
''', '')
VEC_T = '''
import math, operator
from functools import reduce
def test_unpack_abs_bool():
    x, y = Vector(3, 4)
    assert (x, y) == (3, 4)
    assert math.hypot(*Vector(3, 4)) == abs(Vector(3, 4)) == 5
    assert not Vector(0, 0) and Vector(0, 1)
def test_hash_round_reduce():
    d = {Vector(1, 2): 'a'}
    assert d[Vector(1, 2)] == 'a'
    assert round(Vector(1.26, 2.5), 1) == Vector(1.3, 2.5)
    vs = [Vector(1, 1), Vector(2, 3), Vector(-1, 0)]
    assert reduce(operator.add, vs) == Vector(2, 4)
    assert sum(vs[1:], Vector(0, 0)) == Vector(1, 3)
    assert max(vs, key=abs) is vs[1]
    assert [v for v in [Vector(0, 0), Vector(1, 0)] if v] == [Vector(1, 0)]
'''
C("pt_vector_unpack_abs_bool_round_ok", VEC, VEC_T)
C("pt_vector_unpack_abs_bool_round_bad_no_bool", VEC_BAD, VEC_T)

# ------------------------------------------------------------------ copy
BOARD = '''
import copy
class Board:
    def __init__(self, n=3):
        self.grid = [['.'] * n for _ in range(n)]
        self.history = []
    def play(self, r, c, mark):
        self.grid[r][c] = mark
        self.history.append((r, c, mark))
    def clone(self):
        return copy.deepcopy(self)
'''
BOARD_BAD = BOARD.replace("return copy.deepcopy(self)", "return copy.copy(self)")
BOARD_T = '''
import copy
def test_clone_is_independent():
    b = Board()
    b.play(0, 0, 'X')
    c = b.clone()
    c.play(1, 1, 'O')
    assert b.grid[1][1] == '.' and b.history == [(0, 0, 'X')]
    assert c.history == [(0, 0, 'X'), (1, 1, 'O')]
def test_tests_own_copies():
    b = Board(2)
    shallow = copy.copy(b)
    deep = copy.deepcopy(b)
    b.play(0, 1, 'X')
    assert shallow is not b and isinstance(shallow, Board)
    assert shallow.grid[0][1] == 'X'
    assert deep.grid[0][1] == '.' and deep.history == []
    deep.play(1, 0, 'O')
    assert b.grid[1][0] == '.'
'''
C("pt_copy_deepcopy_code_objects_ok", BOARD, BOARD_T)
C("pt_copy_deepcopy_code_objects_bad_shallow_clone", BOARD_BAD, BOARD_T)

CART2 = '''
class Cart:
    def __init__(self):
        self.items = []
    def add(self, x):
        self.items.append(x)
    def checkout(self):
        done = self.items
        self.items = []
        return len(done)
'''
CART2_BAD = CART2.replace("        done = self.items\n        self.items = []\n        return len(done)",
                          "        n = len(self.items)\n        self.items.clear()\n        return n")
CART2_T = '''
def test_old_reference_keeps_items_after_rebind():
    c = Cart()
    c.add('a'); c.add('b')
    before = c.items
    assert c.checkout() == 2
    assert before == ['a', 'b']
    assert c.items == [] and c.items is not before
def test_test_list_aliasing_code_attribute():
    c = Cart()
    mine = c.items
    mine.append('z')
    assert c.checkout() == 1
    c.add('y')
    assert mine == ['z'] and c.items == ['y']
'''
C("pt_old_attr_reference_after_rebind_ok", CART2, CART2_T)
C("pt_old_attr_reference_after_rebind_bad_clears", CART2_BAD, CART2_T)

# ------------------------------------------------------------------ protocols, decorators, dispatch, ABCs
C("pt_runtime_checkable_protocol_with_tests_objects", '''
from typing import Protocol, runtime_checkable
@runtime_checkable
class HasArea(Protocol):
    def area(self) -> float: ...
def total_area(items):
    return sum(i.area() for i in items if isinstance(i, HasArea))
def kinds(items):
    return [isinstance(i, HasArea) for i in items]
''', '''
class Sq:
    def __init__(self, s):
        self.s = s
    def area(self):
        return self.s ** 2
class Blob:
    pass
def test_code_checks_tests_objects():
    assert total_area([Sq(2), Blob(), Sq(1)]) == 5
    assert kinds([Sq(1), Blob(), 3]) == [True, False, False]
def test_tests_check_against_code_protocol():
    assert isinstance(Sq(1), HasArea)
    assert not isinstance(Blob(), HasArea)
''')

WRAPS = '''
import functools
CALLS = []
def logged(fn):
    @functools.wraps(fn)
    def inner(*a, **k):
        CALLS.append(fn.__name__)
        return fn(*a, **k)
    return inner
class CountCalls:
    def __init__(self, fn):
        functools.update_wrapper(self, fn)
        self.fn = fn
        self.count = 0
    def __call__(self, *a, **k):
        self.count += 1
        return self.fn(*a, **k)
'''
WRAPS_BAD = WRAPS.replace("    @functools.wraps(fn)\n", "")
WRAPS_T = '''
def test_wraps_keeps_metadata():
    CALLS.clear()
    @logged
    def greet(name, punct='!'):
        "Say hi."
        return f'hi {name}{punct}'
    assert greet('bo') == 'hi bo!'
    assert greet.__name__ == 'greet' and greet.__doc__ == 'Say hi.'
    assert greet.__wrapped__('x', punct='?') == 'hi x?'
    assert CALLS == ['greet']
def test_class_decorator_counts():
    @CountCalls
    def add(a, b):
        return a + b
    assert add(1, 2) == 3 and add(a=2, b=2) == 4
    assert add.count == 2 and add.__name__ == 'add'
'''
C("pt_code_decorator_wraps_tests_function_ok", WRAPS, WRAPS_T)
C("pt_code_decorator_wraps_tests_function_bad_no_wraps", WRAPS_BAD, WRAPS_T)

C("pt_singledispatch_code_func_on_tests_values", '''
from functools import singledispatch
from enum import Enum
class Color(Enum):
    RED = 1
class Point:
    def __init__(self, x, y):
        self.x, self.y = x, y
@singledispatch
def to_json(x):
    raise TypeError(f'cannot encode {type(x).__name__}')
@to_json.register
def _(x: int):
    return x
@to_json.register
def _(x: str):
    return x
@to_json.register(list)
@to_json.register(tuple)
def _(x):
    return [to_json(i) for i in x]
@to_json.register
def _(x: dict):
    return {k: to_json(v) for k, v in x.items()}
@to_json.register
def _(x: Point):
    return {'x': x.x, 'y': x.y}
@to_json.register
def _(x: Enum):
    return x.name
''', '''
import pytest
def test_nested_tests_data_with_code_objects():
    assert to_json({'p': Point(1, 2), 'xs': (1, 'a', Color.RED)}) == {'p': {'x': 1, 'y': 2}, 'xs': [1, 'a', 'RED']}
def test_bool_dispatches_as_int():
    assert to_json.dispatch(bool) is to_json.dispatch(int)
    assert to_json(True) is True
def test_tests_own_class_rejected():
    class Mine:
        pass
    with pytest.raises(TypeError, match='cannot encode Mine'):
        to_json([Mine()])
''')

SHAPEABC = '''
from abc import ABC, abstractmethod
class Shape(ABC):
    @abstractmethod
    def area(self): ...
    def describe(self):
        return f'{type(self).__name__} with area {self.area()}'
class Square(Shape):
    def __init__(self, s):
        self.s = s
    def area(self):
        return self.s * self.s
class Broken(Shape):
    pass
'''
SHAPEABC_BAD = SHAPEABC.replace("    @abstractmethod\n", "")
SHAPEABC_T = '''
import inspect, pytest
def test_abstract_refused():
    with pytest.raises(TypeError, match='abstract'):
        Shape()
    with pytest.raises(TypeError, match="area"):
        Broken()
def test_concrete():
    s = Square(3)
    assert s.describe() == 'Square with area 9'
    assert isinstance(s, Shape) and issubclass(Square, Shape)
def test_introspection():
    assert Shape.__abstractmethods__ == frozenset({'area'})
    assert inspect.isabstract(Shape) and not inspect.isabstract(Square)
'''
C("pt_abc_abstract_instantiation_ok", SHAPEABC, SHAPEABC_T)
C("pt_abc_abstract_instantiation_bad_not_abstract", SHAPEABC_BAD, SHAPEABC_T)

C("pt_classmethod_factories_staticmethod_and_cmp_to_key", '''
from datetime import date
class Day:
    made = 0
    def __init__(self, y, m, d):
        self.d = date(y, m, d)
        type(self).made += 1
    @classmethod
    def from_iso(cls, s):
        return cls(*map(int, s.split('-')))
    @staticmethod
    def is_leap(y):
        return y % 4 == 0 and (y % 100 != 0 or y % 400 == 0)
    def __repr__(self):
        return f'Day({self.d.isoformat()})'
def compare(a, b):
    return (a.d > b.d) - (a.d < b.d)
''', '''
from functools import cmp_to_key
def test_factories():
    n = Day.made
    d = Day.from_iso('2024-02-29')
    assert repr(d) == 'Day(2024-02-29)'
    assert type(d).from_iso('2020-01-01').d.year == 2020
    assert d.__class__.is_leap(2024) and not Day.is_leap(1900)
    assert Day.made == n + 2
def test_sort_with_code_cmp():
    ds = [Day.from_iso(s) for s in ['2024-03-01', '2023-12-31', '2024-01-15']]
    assert [repr(x) for x in sorted(ds, key=cmp_to_key(compare))] == ['Day(2023-12-31)', 'Day(2024-01-15)', 'Day(2024-03-01)']
    assert max(ds, key=cmp_to_key(compare)) is ds[0]
''')

C("pt_counter_set_ops_of_code_frozen_objects", '''
from dataclasses import dataclass
@dataclass(frozen=True)
class Tag:
    name: str
def tags_of(text):
    return [Tag(w[1:].lower()) for w in text.split() if w.startswith('#')]
''', '''
from collections import Counter
def test_counter_most_common():
    c = Counter(tags_of('#A #b #a x #c #A'))
    assert c.most_common(1) == [(Tag('a'), 3)]
    assert c[Tag('b')] == 1 and c[Tag('zzz')] == 0
def test_set_ops():
    a = set(tags_of('#x #y #z'))
    b = set(tags_of('#y #w'))
    assert a & b == {Tag('y')}
    assert sorted(t.name for t in a - b) == ['x', 'z']
    assert {frozenset(a): 'key'}[frozenset(tags_of('#z #y #x'))] == 'key'
    assert dict.fromkeys(tags_of('#q #q'), 0) == {Tag('q'): 0}
''')

# ------------------------------------------------------------------ plain asserts
STACK = '''
class Stack:
    def __init__(self):
        self._items = []
    def push(self, x):
        self._items.append(x)
        return self
    def pop(self):
        if not self._items:
            raise IndexError('pop from empty stack')
        return self._items.pop()
    def peek(self):
        return self._items[-1]
    def __len__(self):
        return len(self._items)
    def __bool__(self):
        return bool(self._items)
    def __repr__(self):
        return f'Stack({self._items})'
'''
STACK_BAD = STACK.replace("return self._items.pop()", "return self._items.pop(0)")
STACK_T = '''
s = Stack()
assert not s and len(s) == 0
s.push(1).push(2).push(3)
assert repr(s) == 'Stack([1, 2, 3])'
shared = [s.peek()]
s.push(shared)
shared.append('later')
assert s.pop() == [3, 'later']
assert s.pop() == 3 and s.pop() == 2
try:
    Stack().pop()
    assert False, 'expected IndexError'
except IndexError as e:
    assert 'empty' in str(e)
'''
C("plain_stack_chained_push_and_shared_list_ok", STACK, STACK_T)
C("plain_stack_chained_push_and_shared_list_bad_fifo", STACK_BAD, STACK_T)

C("plain_dataclass_enum_sort_and_lookup", '''
from dataclasses import dataclass, field
from enum import Enum
class Suit(Enum):
    CLUBS = 1
    HEARTS = 2
@dataclass(order=True, frozen=True)
class Card:
    rank: int
    suit: Suit = field(compare=False)
def hand():
    return [Card(10, Suit.HEARTS), Card(2, Suit.CLUBS), Card(7, Suit.HEARTS)]
''', '''
h = hand()
assert [c.rank for c in sorted(h)] == [2, 7, 10]
by_suit = {}
for c in h:
    by_suit.setdefault(c.suit, []).append(c.rank)
assert by_suit == {Suit.HEARTS: [10, 7], Suit.CLUBS: [2]}
assert max(h).suit is Suit.HEARTS
assert Card(2, Suit.HEARTS) == Card(2, Suit.CLUBS)
assert len({Card(2, Suit.HEARTS), Card(2, Suit.CLUBS)}) == 1
''')


# ------------------------------------------------------------------ minimised by the helper
C("min_exception_int_arg", '''
class Bad(Exception):
    pass
def f():
    raise Bad(42)
''', '''
import pytest
def test_args():
    with pytest.raises(Bad) as ei:
        f()
    assert ei.value.args[0] == 42
''')
C("forged_async_mutates_input_bad", '''
async def top3(scores):
    scores.sort(reverse=True)
    return scores[:3]
''', '''
import asyncio
def test_input_untouched():
    data = [3, 1, 5, 2]
    assert asyncio.run(top3(data)) == [5, 3, 2]
    assert data == [3, 1, 5, 2]
''')
C("forged_async_mutates_input_ok", '''
async def top3(scores):
    return sorted(scores, reverse=True)[:3]
''', '''
import asyncio
def test_input_untouched():
    data = [3, 1, 5, 2]
    assert asyncio.run(top3(data)) == [5, 3, 2]
    assert data == [3, 1, 5, 2]
''')
C("forged_generator_clears_input_at_end_bad", '''
def pending(tasks):
    for t in tasks:
        yield t
    tasks.clear()
''', '''
def test_input_untouched():
    tasks = ['a', 'b']
    assert list(pending(tasks)) == ['a', 'b']
    assert tasks == ['a', 'b']
''')
C("forged_generator_clears_input_at_end_ok", '''
def pending(tasks):
    for t in tasks:
        yield t
''', '''
def test_input_untouched():
    tasks = ['a', 'b']
    assert list(pending(tasks)) == ['a', 'b']
    assert tasks == ['a', 'b']
''')
C("forged_unittest_async_mutates_input_bad", '''
async def normalise(names):
    for i, n in enumerate(names):
        names[i] = n.strip().title()
    return names
''', '''
import unittest
class T(unittest.IsolatedAsyncioTestCase):
    async def test_pure(self):
        raw = [' ann ', 'BOB']
        self.assertEqual(await normalise(raw), ['Ann', 'Bob'])
        self.assertEqual(raw, [' ann ', 'BOB'])
''')
C("forged_async_await_in_test_coroutine_bad", '''
async def top3(scores):
    scores.sort(reverse=True)
    return scores[:3]
''', '''
import asyncio
def test_input_untouched():
    async def main():
        data = [3, 1, 5, 2]
        top = await top3(data)
        return top, data
    assert asyncio.run(main()) == ([5, 3, 2], [3, 1, 5, 2])
''')

# ------------------------------------------------------------------ the review's cases of lifetimes (releasing.py)
KEPT_ITEMS = '''
class Item:
    def __init__(self, n):
        self.n = n
    def val(self):
        return self.n
_keep = []
def make(n):
    i = Item(n)
    _keep.append(i)
    return i
def clear():
    _keep.clear()
def value_of(item):
    return item.n
'''
C("pt_weakref_taken_back_by_the_test_keeps_the_object", KEPT_ITEMS, '''
import gc, weakref
def test_revived_through_weakref():
    o = make(42)
    w = weakref.ref(o)
    del o
    gc.collect()
    o = w()
    assert o is not None
    clear()
    gc.collect()
    assert o.val() == 42 and w() is o
def test_revived_from_a_weak_value_cache():
    cache = weakref.WeakValueDictionary()
    cache['a'] = make(7)
    gc.collect()
    x = cache['a']
    clear()
    gc.collect()
    assert x.val() == 7 and value_of(x) == 7
def test_later():
    assert value_of(make(1)) == 1
''')
C("pt_two_threads_drop_and_take_the_same_objects", '''
class Slow:
    def __del__(self):
        pass
class Item:
    def __init__(self, i):
        self.i = i
    def val(self):
        return self.i
POOL = [Item(i) for i in range(40)]
def get(i):
    return POOL[i]
def make_slow():
    return Slow()
def ping():
    return 0
''', '''
import threading
def test_two_threads():
    errors = []
    stop = []
    def dropper():
        for _ in range(30):
            objs = [make_slow() for _ in range(3)] + [get(i) for i in range(40)]
            del objs
            ping()
        stop.append(1)
    def user():
        while not stop:
            for i in range(40):
                try:
                    assert get(i).val() == i
                except Exception as exc:
                    errors.append(repr(exc))
    ts = [threading.Thread(target=dropper), threading.Thread(target=user)]
    for t in ts:
        t.start()
    for t in ts:
        t.join()
    assert errors == [], errors[:3]
''')
C("pt_finalizer_calling_the_tests_back_during_collections", '''
import gc
gc.set_threshold(3)
class Token:
    pass
class Job:
    def __init__(self, done):
        self.done = done
        self.me = self
    def __del__(self):
        self.done(Token())
def start(done):
    return Job(done)
def ping(xs):
    return len(xs)
''', '''
def test_many_jobs():
    got = []
    for i in range(100):
        job = start(got.append)
        del job
        assert ping([[i, i + 1] for i in range(30)]) == 30
''')
C("pt_slotted_class_takes_no_weak_reference", '''
class Point:
    __slots__ = ("x", "y")
    def __init__(self, x, y):
        self.x, self.y = x, y
def make():
    return Point(1, 2)
''', '''
import weakref, pytest
def test_slots_refuse_weakrefs():
    with pytest.raises(TypeError):
        weakref.ref(make())
def test_no_weakref_attribute():
    assert not hasattr(make(), "__weakref__")
''')
C("pt_slotted_listener_in_a_weakset_bad", '''
class Listener:
    __slots__ = ("name",)
    def __init__(self, name):
        self.name = name
def make():
    return Listener("a")
''', '''
import weakref
def test_listeners_weakly_referenceable():
    s = weakref.WeakSet()
    l = make()
    s.add(l)
    assert l in s
''')
C("pt_finalize_of_the_tests_before_the_codes_del_in_a_cycle", '''
CLOSED = []
class Res:
    def __init__(self, n):
        self.n = n
        self.me = self
    def __del__(self):
        CLOSED.append(self.n)
def make(n):
    return Res(n)
def closed():
    return list(CLOSED)
''', '''
import gc, weakref
def test_callback_runs_before_del_for_a_cycle():
    seen = []
    r = make(1)
    weakref.finalize(r, lambda: seen.append(closed()))
    del r
    gc.collect()
    closed()
    assert seen == [[]]
''')

# ------------------------------------------------------------------ the second review's cases
C("pt_oserror_from_open_keeps_its_str_errno_and_filename", r'''
def load(path):
    with open(path) as f:
        return f.read()
''', r'''
import pytest
def test_missing_file_message():
    with pytest.raises(FileNotFoundError) as ei:
        load("no_such_file.txt")
    assert str(ei.value) == "[Errno 2] No such file or directory: 'no_such_file.txt'"
def test_missing_file_errno():
    with pytest.raises(OSError) as ei:
        load("no_such_file.txt")
    assert ei.value.errno == 2 and ei.value.filename == "no_such_file.txt"
def test_match():
    with pytest.raises(FileNotFoundError, match=r"\[Errno 2\]"):
        load("no_such_file.txt")
''')
C("pt_exceptions_keep_args_and_str_of_their_builtin_base", r'''
class NotFound(KeyError):
    def __str__(self):
        return f"not found: {self.args[0]}"
class HTTPError(Exception):
    def __init__(self, status, reason):
        super().__init__(status, reason)
        self.status = status
    def __str__(self):
        return f"{self.args[0]} {self.args[1]}"
class PathErr(OSError):
    pass
def find(k):
    raise NotFound(k)
def fetch():
    raise HTTPError(404, "Not Found")
def decode(b):
    return b.decode("utf-8")
def patherr():
    raise PathErr(2, "gone", "/x")
def group():
    raise ExceptionGroup("many", [ValueError(1), KeyError("k")])
def timeout():
    import subprocess
    raise subprocess.TimeoutExpired(["sleep", "1"], 0.5)
def cell(grid, x, y):
    return grid[(x, y)]
''', r'''
import pytest
def test_notfound():
    with pytest.raises(KeyError) as ei:
        find("a")
    assert str(ei.value) == "not found: a" and ei.value.args == ("a",)
def test_http():
    with pytest.raises(HTTPError) as ei:
        fetch()
    assert ei.value.args == (404, "Not Found") and str(ei.value) == "404 Not Found" and ei.value.status == 404
def test_unicode():
    with pytest.raises(UnicodeDecodeError) as ei:
        decode(b"\xff")
    assert "invalid start byte" in str(ei.value) and ei.value.start == 0
def test_patherr():
    with pytest.raises(OSError) as ei:
        patherr()
    assert str(ei.value) == "[Errno 2] gone: '/x'"
def test_group():
    with pytest.raises(ExceptionGroup) as ei:
        group()
    assert ei.value.exceptions[0].args == (1,) and str(ei.value.exceptions[1]) == "'k'"
def test_timeout():
    import subprocess
    with pytest.raises(subprocess.TimeoutExpired) as ei:
        timeout()
    assert str(ei.value) == "Command '['sleep', '1']' timed out after 0.5 seconds"
def test_tuple_key():
    with pytest.raises(KeyError) as ei:
        cell({}, 3, 4)
    assert ei.value.args == ((3, 4),) and str(ei.value) == "(3, 4)"
''')
C("pt_approx_refuses_what_pytest_refuses", r'''
import numpy as np
class Vec:
    def __init__(self, *xs): self.xs = list(xs)
    def __len__(self): return len(self.xs)
    def __iter__(self): return iter(self.xs)
    def __eq__(self, o): return True
_kept = []
def pairs():
    r = [[0.1 + 0.2, 1.0]]
    _kept.append(r)
    return r
def centers():
    return {"a": np.array([0.1, 0.2]), "b": np.array([1.0, 2.0])}
def vecs():
    return [Vec(1.0, 2.0)]
def flat():
    r = [0.1 + 0.2, 1.0]
    _kept.append(r)
    return r
def one_vec():
    return Vec(1.0)
''', r'''
import pytest, collections
import numpy as np
def test_nested_list_refused():
    with pytest.raises(TypeError):
        pytest.approx(pairs())
def test_dict_of_arrays_refused():
    with pytest.raises(TypeError):
        pytest.approx(centers())
def test_list_of_code_len_iter_objects():
    assert vecs() == pytest.approx(vecs())
def test_set_refused():
    with pytest.raises(TypeError):
        pytest.approx({0.3, 1.0})
def test_deque_nested_refused():
    with pytest.raises(TypeError):
        pytest.approx(collections.deque([[1.0]]))
def test_live_list():
    assert flat() == pytest.approx([0.3, 1.0])
    assert [0.3, 1.0] == pytest.approx(flat())
def test_list_with_code_object():
    assert [one_vec()] == pytest.approx([one_vec()])
def test_strings_in_dict():
    assert {"a": "x", "b": 0.3} == pytest.approx({"a": "x", "b": 0.1 + 0.2})
''')
C("pt_generator_return_value_is_the_codes_own_list_bad", r'''
_history = []
def run(items):
    for x in items:
        _history.append(x)
        yield x
    return _history          # WRONG: hands out its own list (should be list(_history))
def history():
    return list(_history)
''', r'''
def test_returned_history_is_a_copy():
    def outer():
        h = yield from run([1, 2])
        return h
    g = outer()
    assert list(g) == [1, 2]
    # the return value
    g2 = outer()
    next(g2); next(g2)
    try:
        next(g2)
    except StopIteration as stop:
        h = stop.value
    h.append("junk")
    assert history() == [1, 2, 1, 2]
''')
C("pt_generator_returns_the_tests_list_bad", r'''
def dedupe(items):
    seen = set()
    for x in items:
        if x not in seen:
            seen.add(x)
            yield x
    return items              # WRONG: should return a new list of the duplicates, hands back the input itself
''', r'''
def run(gen):
    out = []
    def outer():
        ret = yield from gen
        out.append(ret)
    for _ in outer():
        pass
    return out[0]
def test_return_is_not_the_input():
    data = [1, 2, 1]
    ret = run(dedupe(data))
    ret.append(99)
    assert data == [1, 2, 1]
''')
C("pt_async_generator_asend_and_athrow", r'''
async def ticker():
    n = 0
    while True:
        try:
            step = yield n
        except ValueError:
            yield -1          # WRONG: swallows the error it should let through
            continue
        n += step if step is not None else 1
''', r'''
import asyncio, pytest
def test_athrow_propagates():
    async def main():
        t = ticker()
        assert await t.__anext__() == 0
        with pytest.raises(ValueError):
            await t.athrow(ValueError("stop"))
    asyncio.run(main())
def test_asend_steps():
    async def main():
        t = ticker()
        assert await t.__anext__() == 0
        assert await t.asend(10) == 10
    asyncio.run(main())
''')
C("pt_long_exception_message_matched_whole", r'''
def validate(rows):
    bad = [i for i, r in enumerate(rows) if r < 0]
    if bad:
        raise ValueError(f"negative values at rows {bad}")
''', r'''
import pytest
def test_lists_every_bad_row():
    rows = [-1] * 120
    with pytest.raises(ValueError, match=r"119\]$") as ei:
        validate(rows)
    assert str(ei.value) == ei.value.args[0]
''')
C("pt_watched_object_sent_again_then_let_go", r'''
class Conn:
    def __init__(self, name):
        self.name = name
_pool = {}
def get(name):
    if name not in _pool:
        _pool[name] = Conn(name)
    return _pool[name]
def drop(name):
    del _pool[name]
''', r'''
import gc, weakref
def test_dropped_connection_is_freed():
    c = get("a")
    w = weakref.ref(c)
    del c
    gc.collect()
    c = get("a")          # the same object again
    assert c is w()
    del c
    drop("a")
    gc.collect()
    assert w() is None    # nobody holds it any more
''')
C("pt_generator_throw_close_and_return_values", r'''
class Result:
    def __init__(self, n): self.n = n
def averager():
    total = count = 0
    while True:
        try:
            x = yield (total / count if count else None)
        except ValueError:
            yield "recovered"
            continue
        except GeneratorExit:
            raise
        if x is None:
            return Result(count)
        total += x; count += 1
def passthrough():
    yield 1
    yield 2
def stubborn(log):
    try:
        yield 1
    finally:
        log.append("cleanup")
        yield 2
def converts():
    try:
        yield 1
    except ValueError as e:
        raise KeyError(str(e)) from e
def catches_all():
    while True:
        try:
            yield "ok"
        except Exception as e:
            yield f"caught {type(e).__name__}: {e}"
def returns_int():
    yield 1
    return 42
''', r'''
import pytest
class MyErr(Exception):
    pass
def test_throw_recovers():
    g = averager(); next(g); g.send(10)
    assert g.throw(ValueError("bad")) == "recovered"
def test_throw_identity():
    g = passthrough(); next(g)
    err = LookupError("x")
    with pytest.raises(LookupError) as ei:
        g.throw(err)
    assert ei.value is err
def test_close_yield_in_finally():
    log = []
    g = stubborn(log); next(g)
    with pytest.raises(RuntimeError, match="ignored GeneratorExit"):
        g.close()
    assert log == ["cleanup"]
def test_converts():
    g = converts(); next(g)
    with pytest.raises(KeyError) as ei:
        g.throw(ValueError("v"))
    assert isinstance(ei.value.__cause__, ValueError)
def test_tests_class_thrown():
    g = catches_all(); next(g)
    assert g.throw(MyErr("boom")) == "caught MyErr: boom"
def test_return_value_yield_from():
    def outer():
        r = yield from averager()
        return r
    o = outer(); next(o); o.send(3); o.send(5)
    with pytest.raises(StopIteration) as ei:
        o.send(None)
    assert ei.value.value.n == 2
def test_stop_value():
    g = returns_int(); next(g)
    with pytest.raises(StopIteration) as ei:
        next(g)
    assert ei.value.value == 42
def test_throw_generatorexit():
    g = catches_all(); next(g)
    with pytest.raises(GeneratorExit):
        g.throw(GeneratorExit())
    with pytest.raises(StopIteration):
        next(g)
def test_throw_stopiteration():
    g = passthrough(); next(g)
    with pytest.raises(RuntimeError, match="generator raised StopIteration"):
        g.throw(StopIteration())
''')
C("pt_generator_and_coroutine_last_changes_reach_the_tests", r'''
import asyncio
def drain(tasks):
    for t in list(tasks):
        yield t
    tasks.clear()
def mark_rows(rows):
    for r in rows:
        yield len(r)
    for r in rows:
        r.append("done")
def fill(d):
    yield 1
    d["x"] = 1
    d.pop("y", None)
async def sort_later(xs):
    await asyncio.sleep(0)
    xs.sort()
async def collect(xs, extra):
    await asyncio.sleep(0)
    xs.extend(extra)
    return len(xs)
def step_then_mutate(xs):
    xs.append(1)
    yield
    xs.append(2)
''', r'''
import asyncio
def test_drain():
    t = [1, 2]
    assert list(drain(t)) == [1, 2] and t == []
def test_nested_rows():
    rows = [[1], [2, 3]]
    first = rows[0]
    assert list(mark_rows(rows)) == [1, 2]
    assert rows == [[1, "done"], [2, 3, "done"]] and first is rows[0]
def test_dict():
    d = {"y": 0}
    assert list(fill(d)) == [1] and d == {"x": 1}
def test_coroutine_sort():
    xs = [3, 1, 2]
    asyncio.run(sort_later(xs))
    assert xs == [1, 2, 3]
def test_coroutine_both_change():
    xs = [1]
    c = collect(xs, [9])
    xs.append(2)
    assert asyncio.run(c) == 3 and xs == [1, 2, 9]
def test_interleaved():
    xs = []
    g = step_then_mutate(xs)
    next(g)
    xs.append("t")
    assert list(g) == [] and xs == [1, "t", 2]
''')

# ------------------------------------------------------------------ the final read's cases
C("pt_objects_in_a_list_the_code_keeps_are_let_go_of", r'''
DELETED = []
class Item:
    def __del__(self):
        DELETED.append(1)
class Bag:
    def __init__(self, items):
        self.items = items          # keeps the tests' list: linked
    def add(self):
        self.items.append(Item())
def deleted():
    return len(DELETED)
''', r'''
import gc, weakref

def test_item_dies_when_cleared_weakref():
    out = []
    bag = Bag(out)
    bag.add()
    w = weakref.ref(out[0])
    deleted(); deleted()              # two more answers: the code encodes its copy's contents again
    out.clear()
    bag.add(); out.clear()            # a few more messages
    gc.collect()
    assert w() is None

def test_item_dies_when_cleared_del():
    out = []
    bag = Bag(out)
    before = deleted()
    bag.add()
    deleted(); deleted()
    out.clear()
    gc.collect()
    assert deleted() == before + 1
''')
C("pt_exceptions_returned_as_values_keep_args_and_fields", r'''
def results():
    # a task runner that collects failures instead of raising them
    return [KeyError("k"), FileNotFoundError(2, "No such file or directory", "a.txt"), ValueError(3, "x")]
''', r'''
def test_key_error_text():
    assert str(results()[0]) == "'k'"

def test_key_error_args():
    assert results()[0].args == ("k",)

def test_os_error_fields():
    e = results()[1]
    assert (e.errno, e.filename) == (2, "a.txt")

def test_value_error_args():
    assert results()[2].args == (3, "x")
''')
C("pt_watched_object_taken_on_its_way_back_then_dropped", r'''
class Item:
    pass
class Bag:
    def __init__(self, items):
        self.items = items          # keeps the tests' list: linked
    def add(self):
        self.items.append(Item())
    def take(self):
        return self.items.pop()
''', r'''
import gc, weakref

def test_taken_item_dies_when_dropped():
    out = []
    bag = Bag(out)
    bag.add()
    w = weakref.ref(out[0])
    x = bag.take()
    assert out == [] and w() is x
    del x
    gc.collect()
    assert w() is None
''')
C("pt_weakref_to_a_proxy_in_a_cycle_of_the_tests_bad", r'''
_CACHE = []      # BUG: meant to be a WeakSet
class Conn:
    pass
def open_conn():
    c = Conn()
    _CACHE.append(c)
    return c
''', r'''
import gc, weakref

def test_cache_does_not_keep_connections_alive():
    pair = [open_conn()]
    pair.append(pair)            # a cycle (as a frame held by a traceback would make)
    w = weakref.ref(pair[0])
    del pair
    gc.collect()
    assert w() is None
''')
C("pt_approx_of_arrays_and_a_matrix", r'''
import numpy as np
WEIGHTS = np.array([[1.0, 2.0], [3.0, 4.0]])
def weights():
    return WEIGHTS            # kept by the code too: a live view on the tests' side
def fresh():
    return np.array([[1.0, 2.0], [3.0, 4.0]])
''', r'''
import numpy as np
import pytest

def test_matrix():
    m = np.matrix([[1.0, 2.0], [3.0, 4.0]])
    assert m == pytest.approx(m)

def test_live_view_expected():
    assert fresh() == pytest.approx(weights())

def test_fresh_expected():
    assert weights() == pytest.approx(fresh())
''')


# A stand-in in a cycle of the tests' with their weak reference to it (session 23): kept by the collection's start.
CYCLE_TESTS = r'''
import gc, weakref

def test_cache_does_not_keep_connections_alive():
    pair = [open_conn()]
    pair.append(pair)
    w = weakref.ref(pair[0])
    del pair
    gc.collect()
    assert w() is None

def test_weakref_in_the_cycle_too():
    pair = [open_conn()]
    pair.append(pair)
    pair.append(weakref.ref(pair[0]))
    del pair
    gc.collect()
    assert len(_live()) in (0, 1)

def test_taken_back():
    pair = [open_conn()]
    pair.append(pair)
    w = weakref.ref(pair[0])
    del pair
    gc.collect()
    c = w()
    if c is not None:
        c.name = 'x'
        assert c.name == 'x'

def test_finalize_in_cycle():
    out = []
    pair = [open_conn()]
    pair.append(pair)
    weakref.finalize(pair[0], out.append, 1)
    del pair
    gc.collect()
    assert out == [1]

def test_many_in_cycles():
    ws = []
    for i in range(2000):
        p = [open_conn()]; p.append(p); ws.append(weakref.ref(p[0]))
    del p
    gc.collect()
    assert all(w() is None for w in ws)
'''
C("pt_cycle_weakref_cache_lets_go", r'''
import weakref
_CACHE = weakref.WeakSet()
class Conn:
    pass
def open_conn():
    c = Conn()
    _CACHE.add(c)
    return c
def _live():
    return list(_CACHE)
''', CYCLE_TESTS)
C("pt_cycle_weakref_cache_keeps_bad", r'''
_CACHE = []
class Conn:
    pass
def open_conn():
    c = Conn()
    _CACHE.append(c)
    return c
def _live():
    return list(_CACHE)
''', CYCLE_TESTS)
WEAKSET_OF_MANY = r'''
import gc, weakref

def test_a_weak_set_of_600_empties_when_let_go():
    kept = [make(i) for i in range(600)]
    ws = weakref.WeakSet(kept)
    for i in range(300):
        assert add(i, 1) == i + 1
    assert len(ws) == 600
    del kept
    gc.collect()
    assert len(ws) == 0
'''
C("pt_weak_set_of_600_stand_ins", r'''
class P:
    def __init__(self, i):
        self.i = i
def make(i):
    return P(i)
def add(a, b):
    return a + b
''', WEAKSET_OF_MANY)
C("pt_weak_set_of_600_stand_ins_kept_bad", r'''
_ALL = []
class P:
    def __init__(self, i):
        self.i = i
        _ALL.append(self)
def make(i):
    return P(i)
def add(a, b):
    return a + b
''', WEAKSET_OF_MANY)


# The code holding the tests' objects weakly: a WeakSet of listeners, a WeakKeyDictionary (session 23).
WEAK_LISTENER_TESTS = r'''
import gc, weakref

class Listener:
    def __init__(self):
        self.got = []
    def __call__(self, value):
        self.got.append(value)

def test_live_listener_hears():
    bus = Bus()
    a = Listener()
    bus.subscribe(a)
    gc.collect()
    bus.publish(1)
    assert a.got == [1]

def test_dropped_listener_goes_without_collect():
    bus = Bus()
    a, b = Listener(), Listener()
    bus.subscribe(a)
    bus.subscribe(b)
    del a
    assert bus.count() == 1
    bus.publish(2)
    assert b.got == [2]

def test_dropped_listener_goes_after_collect():
    bus = Bus()
    a = Listener()
    bus.subscribe(a)
    del a
    gc.collect()
    assert bus.count() == 0

def test_kept_listener_stays_after_many_calls():
    bus = Bus()
    keep = [Listener() for _ in range(5)]
    for l in keep:
        bus.subscribe(l)
    for i in range(50):
        bus.publish(i)
    assert bus.count() == 5 and keep[3].got == list(range(50))

def test_weakref_of_the_tests_dies_when_the_bus_keeps_nothing():
    bus = Bus()
    a = Listener()
    w = weakref.ref(a)
    bus.subscribe(a)
    del a
    gc.collect()
    assert w() is None
'''
C("pt_code_weak_listeners", '''
import weakref
class Bus:
    def __init__(self):
        self._subs = weakref.WeakSet()
    def subscribe(self, fn):
        self._subs.add(fn)
    def publish(self, value):
        for fn in list(self._subs):
            fn(value)
    def count(self):
        return len(self._subs)
''', WEAK_LISTENER_TESTS)
C("pt_code_weak_listeners_kept_bad", '''
class Bus:
    def __init__(self):
        self._subs = []
    def subscribe(self, fn):
        self._subs.append(fn)
    def publish(self, value):
        for fn in list(self._subs):
            fn(value)
    def count(self):
        return len(self._subs)
''', WEAK_LISTENER_TESTS)
C("pt_code_weak_key_cache_of_the_tests_objects", '''
import weakref
_sizes = weakref.WeakKeyDictionary()
def size_of(doc):
    if doc not in _sizes:
        _sizes[doc] = len(doc.text)
    return _sizes[doc]
def cached():
    return len(_sizes)
''', '''
import gc
class Doc:
    def __init__(self, text):
        self.text = text

def test_cache_follows_documents():
    d1, d2 = Doc('abc'), Doc('hello')
    assert size_of(d1) == 3 and size_of(d2) == 5 and size_of(d1) == 3
    assert cached() == 2
    del d1
    gc.collect()
    assert cached() == 1
''')
C("pt_code_ids_of_the_tests_objects_stay", '''
_seen = set()
def first_time(obj):
    if id(obj) in _seen:
        return False
    _seen.add(id(obj))
    return True
''', '''
class Item:
    pass

def test_seen_once():
    a, b = Item(), Item()
    assert first_time(a) and first_time(b)
    for _ in range(20):
        assert not first_time(a)
    assert not first_time(b)
''')
C("pt_code_moves_a_listener_to_weak_storage_later", '''
import weakref
class Hub:
    def __init__(self):
        self._pending = []
        self._live = weakref.WeakSet()
    def add(self, fn):
        self._pending.append(fn)
    def activate(self):
        for fn in self._pending:
            self._live.add(fn)
        self._pending.clear()
    def count(self):
        return len(self._live)
''', '''
import gc
def test_activated_listeners_are_weak():
    class L:
        def __call__(self, v): pass
    h = Hub()
    a = L()
    h.add(a)
    h.activate()
    assert h.count() == 1
    del a
    gc.collect()
    assert h.count() == 0
''')
C("pt_code_weak_method_callback", '''
import weakref
class Button:
    def __init__(self):
        self._cb = None
    def on_click(self, method):
        self._cb = weakref.WeakMethod(method)
    def click(self):
        cb = self._cb() if self._cb else None
        return cb() if cb else 'nobody'
''', '''
class Counter:
    def __init__(self):
        self.n = 0
    def bump(self):
        self.n += 1
        return self.n

def test_weak_method():
    b = Button()
    c = Counter()
    b.on_click(c.bump)
    assert b.click() == 1 and b.click() == 2
''')
C("pt_watched_stand_in_taken_back_then_let_go_dies", '''
class Item:
    pass
_reg = {}
def make(k):
    _reg[k] = Item()
    return _reg[k]
def get(k):
    return _reg[k]
def drop(k):
    del _reg[k]
''', '''
import gc, weakref
def test_dies_when_the_registry_drops_it():
    it = make('a')
    w = weakref.ref(it)
    del it
    again = get('a')
    assert again is w()
    del again
    drop('a')
    gc.collect()
    assert w() is None
''')
