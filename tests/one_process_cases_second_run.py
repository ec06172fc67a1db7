"""A second differential run's cases, (name, code, tests) as in tests/one_process_cases.py: shapes the first did not
try (numpy arrays kept or returned, async timeouts and tasks, exceptions raised from others, logging handlers, the
decimal context, interpreter state the code changes, in-place and ordering operators, weak references, standard
types that are not plain containers, the tests' classes handed to the code's class machinery), written by a helper
apart from the sandbox's code, with a wrong code beside a right one where one process tells them apart."""
from textwrap import dedent as d

CASES = []


def C(name, code, tests):
    CASES.append((name, d(code).strip() + "\n", d(tests).strip() + "\n"))


# ------------------------------------------------------------------ numpy arrays
NP_NORM_OK = '''
import numpy as np
def normalize_inplace(a):
    a -= a.min()
    a /= a.max()
'''
NP_NORM_BAD = '''
import numpy as np
def normalize_inplace(a):
    a = a - a.min()
    a = a / a.max()
    return a
'''
NP_NORM_T = '''
import numpy as np
def test_normalize_inplace():
    a = np.array([2.0, 4.0, 6.0])
    assert normalize_inplace(a) is None
    np.testing.assert_allclose(a, [0.0, 0.5, 1.0])
'''
C("pt_np_inplace_ok", NP_NORM_OK, NP_NORM_T)
C("pt_np_inplace_bad_rebinds", NP_NORM_BAD, NP_NORM_T)

NP_PURE_OK = '''
import numpy as np
def standardize(x):
    x = np.asarray(x, dtype=float)
    return (x - x.mean()) / x.std()
'''
NP_PURE_BAD = '''
import numpy as np
def standardize(x):
    x -= x.mean()
    x /= x.std()
    return x
'''
NP_PURE_T = '''
import numpy as np
def test_does_not_modify_input():
    x = np.array([1.0, 2.0, 3.0, 4.0])
    before = x.copy()
    z = standardize(x)
    assert abs(z.mean()) < 1e-9
    np.testing.assert_array_equal(x, before)
'''
C("pt_np_must_not_modify_ok", NP_PURE_OK, NP_PURE_T)
C("pt_np_must_not_modify_bad", NP_PURE_BAD, NP_PURE_T)

C("pt_np_array_kept_by_code", '''
import numpy as np
class Model:
    def __init__(self, weights):
        self.weights = weights
    def predict(self, x):
        return float(np.dot(self.weights, x))
''', '''
import numpy as np
def test_weights_shared():
    w = np.array([1.0, 2.0])
    m = Model(w)
    assert m.predict(np.array([1.0, 1.0])) == 3.0
    w[0] = 10.0
    assert m.predict(np.array([1.0, 1.0])) == 12.0
def test_update_through_attribute():
    m = Model(np.zeros(3))
    m.weights[1] = 5.0
    m.weights += 1
    assert m.predict(np.ones(3)) == 8.0
''')

C("pt_np_code_returns_view_of_state", '''
import numpy as np
class Board:
    def __init__(self, n):
        self.cells = np.zeros((n, n), dtype=int)
    def row(self, i):
        return self.cells[i]
    def total(self):
        return int(self.cells.sum())
''', '''
def test_row_is_view():
    b = Board(3)
    r = b.row(1)
    r[:] = 1
    assert b.total() == 3
''')

C("pt_np_string_and_bool_arrays", '''
import numpy as np
def labels(values, threshold):
    arr = np.asarray(values)
    return np.where(arr > threshold, 'high', 'low')
def mask(values):
    return np.asarray(values) % 2 == 0
''', '''
import numpy as np
def test_labels():
    out = labels([1, 5, 10], 4)
    assert list(out) == ['low', 'high', 'high']
    assert (out == 'high').sum() == 2
def test_mask():
    m = mask([1, 2, 3, 4])
    assert m.dtype == bool
    assert m.tolist() == [False, True, False, True]
''')

# ------------------------------------------------------------------ caches
CACHE_OK = '''
from functools import lru_cache
@lru_cache(maxsize=None)
def _divisors(n):
    return tuple(d for d in range(1, n + 1) if n % d == 0)
def divisors(n):
    return list(_divisors(n))
'''
CACHE_BAD = '''
from functools import lru_cache
@lru_cache(maxsize=None)
def divisors(n):
    return [d for d in range(1, n + 1) if n % d == 0]
'''
CACHE_T = '''
def test_result_is_callers():
    r = divisors(12)
    r.append(99)
    assert divisors(12) == [1, 2, 3, 4, 6, 12]
'''
C("pt_cache_returns_fresh_list_ok", CACHE_OK, CACHE_T)
C("pt_cache_returns_shared_list_bad", CACHE_BAD, CACHE_T)

C("pt_lru_cache_tuple_args_hits", '''
from functools import lru_cache
@lru_cache(maxsize=32)
def path_cost(path):
    return sum(path)
''', '''
import pytest
def test_hits():
    path_cost.cache_clear()
    assert path_cost((1, 2, 3)) == 6
    assert path_cost((1, 2, 3)) == 6
    assert path_cost.cache_info().hits == 1
def test_list_unhashable():
    with pytest.raises(TypeError):
        path_cost([1, 2])
''')

# ------------------------------------------------------------------ async
C("pt_async_gen_over_test_list", '''
import asyncio
async def drain(items):
    for x in items:
        await asyncio.sleep(0)
        yield x
''', '''
import asyncio
def test_appends_seen():
    items = [1, 2]
    async def main():
        out = []
        async for x in drain(items):
            out.append(x)
            if x == 1:
                items.append(3)
        return out
    assert asyncio.run(main()) == [1, 2, 3]
''')

C("pt_async_queue_from_test", '''
import asyncio
async def producer(queue, n):
    for i in range(n):
        await queue.put(i * i)
    await queue.put(None)
async def consumer(queue):
    total = 0
    while (item := await queue.get()) is not None:
        total += item
    return total
''', '''
import asyncio
def test_pipeline():
    async def main():
        q = asyncio.Queue(maxsize=2)
        _, total = await asyncio.gather(producer(q, 4), consumer(q))
        return total
    assert asyncio.run(main()) == 14
''')

C("pt_async_wait_for_timeout", '''
import asyncio
async def slow(delay):
    await asyncio.sleep(delay)
    return 'done'
''', '''
import asyncio
import pytest
def test_timeout():
    async def main():
        with pytest.raises(asyncio.TimeoutError):
            await asyncio.wait_for(slow(5), timeout=0.05)
        return await asyncio.wait_for(slow(0), timeout=1)
    assert asyncio.run(main()) == 'done'
''')

C("pt_async_background_task_state", '''
import asyncio
class Ticker:
    def __init__(self):
        self.ticks = 0
        self._task = None
    def start(self):
        self._task = asyncio.get_running_loop().create_task(self._run())
    async def _run(self):
        while True:
            self.ticks += 1
            await asyncio.sleep(0)
    def stop(self):
        self._task.cancel()
''', '''
import asyncio
def test_ticks_advance():
    async def main():
        t = Ticker()
        t.start()
        for _ in range(5):
            await asyncio.sleep(0)
        t.stop()
        return t.ticks
    assert asyncio.run(main()) >= 3
''')

C("ut_async_iter_class_and_async_cm", '''
import asyncio
class Countdown:
    def __init__(self, n):
        self.n = n
    def __aiter__(self):
        return self
    async def __anext__(self):
        if self.n <= 0:
            raise StopAsyncIteration
        self.n -= 1
        await asyncio.sleep(0)
        return self.n + 1
class Conn:
    def __init__(self):
        self.open = False
        self.log = []
    async def __aenter__(self):
        self.open = True
        return self
    async def __aexit__(self, *exc):
        self.open = False
        self.log.append('closed')
        return False
''', '''
import unittest
class TestAsync(unittest.IsolatedAsyncioTestCase):
    async def test_countdown(self):
        got = [x async for x in Countdown(3)]
        self.assertEqual(got, [3, 2, 1])
    async def test_conn(self):
        c = Conn()
        with self.assertRaises(KeyError):
            async with c as cc:
                self.assertTrue(cc.open)
                raise KeyError('x')
        self.assertFalse(c.open)
        self.assertEqual(c.log, ['closed'])
''')

# ------------------------------------------------------------------ dataclasses, slots, properties
C("pt_dataclass_default_factory_shared_by_test", '''
from dataclasses import dataclass, field
@dataclass
class Team:
    name: str
    members: list = field(default_factory=list)
    def size(self):
        return len(self.members)
''', '''
def test_passed_list_is_kept():
    people = ['ann']
    t = Team('a', people)
    people.append('bob')
    assert t.size() == 2
    t.members.append('cy')
    assert people == ['ann', 'bob', 'cy']
def test_default_not_shared():
    a, b = Team('a'), Team('b')
    a.members.append('x')
    assert b.size() == 0
''')

SLOTS = '''
class Vec:
    __slots__ = ('x', 'y')
    def __init__(self, x, y):
        self.x, self.y = x, y
'''
SLOTS_BAD = '''
class Vec:
    def __init__(self, x, y):
        self.x, self.y = x, y
'''
SLOTS_T = '''
import pytest
def test_slots():
    v = Vec(1, 2)
    v.x = 5
    assert v.x == 5
    with pytest.raises(AttributeError):
        v.z = 3
    assert not hasattr(v, '__dict__')
'''
C("pt_slots_ok", SLOTS, SLOTS_T)
C("pt_slots_bad_no_slots", SLOTS_BAD, SLOTS_T)

C("pt_property_counts_reads", '''
class Sensor:
    def __init__(self):
        self.reads = 0
        self._v = 20
    @property
    def value(self):
        self.reads += 1
        return self._v
''', '''
def test_each_read_counted():
    s = Sensor()
    a = s.value
    b = s.value
    assert (a, b) == (20, 20)
    assert s.reads == 2
    assert hasattr(s, 'value')
    assert s.reads == 3
''')

CP_OK = '''
from functools import cached_property
class Report:
    def __init__(self, rows):
        self.rows = rows
        self.computed = 0
    @cached_property
    def total(self):
        self.computed += 1
        return sum(self.rows)
'''
CP_T = '''
def test_cached_and_reset():
    r = Report([1, 2])
    assert r.total == 3 and r.total == 3
    assert r.computed == 1
    r.rows.append(4)
    assert r.total == 3
    del r.total
    assert r.total == 7
    assert r.computed == 2
def test_in_dict():
    r = Report([5])
    r.total
    assert 'total' in vars(r)
'''
C("pt_cached_property_del_reset", CP_OK, CP_T)

C("pt_obj_dict_mutated_by_test", '''
class Settings:
    def __init__(self):
        self.theme = 'light'
    def describe(self):
        return ','.join(f'{k}={v}' for k, v in sorted(vars(self).items()))
''', '''
def test_dict_update():
    s = Settings()
    s.__dict__['theme'] = 'dark'
    vars(s).update(font='mono')
    assert s.theme == 'dark'
    assert s.describe() == 'font=mono,theme=dark'
''')

# ------------------------------------------------------------------ class attributes
RATE = '''
class Account:
    rate = 0.01
    def __init__(self, balance):
        self.balance = balance
    def interest(self):
        return round(self.balance * self.rate, 2)
'''
C("pt_class_attr_set_by_test", RATE, '''
def test_default_rate():
    assert Account(100).interest() == 1.0
def test_changed_rate():
    old = Account.rate
    Account.rate = 0.05
    try:
        assert Account(100).interest() == 5.0
        assert Account.rate == 0.05
    finally:
        Account.rate = old
def test_instance_override():
    a = Account(100)
    a.rate = 0.1
    assert a.interest() == 10.0
    assert Account(100).interest() == 1.0
''')

C("ut_class_attr_list_mutated_by_test", '''
class Validator:
    banned = ['admin']
    @classmethod
    def ok(cls, name):
        return name not in cls.banned
''', '''
import unittest
class TestValidator(unittest.TestCase):
    def tearDown(self):
        Validator.banned[:] = ['admin']
    def test_default(self):
        self.assertFalse(Validator.ok('admin'))
    def test_extend(self):
        Validator.banned.append('root')
        self.assertFalse(Validator.ok('root'))
        self.assertEqual(len(Validator.banned), 2)
''')

C("pt_class_counter_via_type", '''
class Ticket:
    issued = 0
    def __init__(self):
        type(self).issued += 1
        self.number = type(self).issued
''', '''
def test_numbers():
    Ticket.issued = 100
    a, b = Ticket(), Ticket()
    assert (a.number, b.number) == (101, 102)
    assert Ticket.issued == 102
''')

# ------------------------------------------------------------------ context managers
C("pt_code_cm_suppresses_test_error", '''
class Ignore:
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
''', '''
import pytest
def test_suppresses():
    with Ignore(KeyError, ValueError) as ig:
        {}['missing']
    assert len(ig.caught) == 1
    assert isinstance(ig.caught[0], KeyError)
def test_other_passes_through():
    with pytest.raises(ZeroDivisionError):
        with Ignore(KeyError):
            1 / 0
''')

C("pt_contextmanager_collects_errors", '''
from contextlib import contextmanager
@contextmanager
def collecting(errors):
    try:
        yield
    except Exception as e:
        errors.append(type(e).__name__)
''', '''
def test_collects():
    errs = []
    with collecting(errs):
        int('x')
    with collecting(errs):
        pass
    assert errs == ['ValueError']
''')

# ------------------------------------------------------------------ iterators
C("pt_test_list_iterator_partly_consumed", '''
def take(n, it):
    out = []
    for _ in range(n):
        out.append(next(it))
    return out
def rest(it):
    return list(it)
''', '''
def test_shared_iterator():
    it = iter([1, 2, 3, 4, 5])
    assert next(it) == 1
    assert take(2, it) == [2, 3]
    assert next(it) == 4
    assert rest(it) == [5]
''')

C("pt_test_generator_partly_consumed_by_code", '''
from itertools import islice
def header_and_body(lines):
    header = next(lines)
    return header, list(islice(lines, 2))
''', '''
def test_lines():
    def gen():
        for i in range(5):
            yield f'line{i}'
    g = gen()
    h, body = header_and_body(g)
    assert h == 'line0' and body == ['line1', 'line2']
    assert list(g) == ['line3', 'line4']
''')

C("pt_code_iterator_then_back_to_code", '''
class Tokens:
    def __init__(self, text):
        self._it = iter(text.split())
    def __iter__(self):
        return self
    def __next__(self):
        return next(self._it)
def join_rest(tokens):
    return ' '.join(tokens)
''', '''
def test_iter_protocol():
    t = Tokens('a b c d')
    assert iter(t) is t
    assert next(t) == 'a'
    assert join_rest(t) == 'b c d'
    assert list(t) == []
''')

C("pt_generator_of_generators", '''
def chunks(it, n):
    it = iter(it)
    while True:
        chunk = []
        for _ in range(n):
            try:
                chunk.append(next(it))
            except StopIteration:
                break
        if not chunk:
            return
        yield chunk
def flatten(gens):
    for g in gens:
        yield from g
''', '''
import itertools
def test_compose():
    src = itertools.count(1)
    gen = chunks(src, 3)
    assert next(gen) == [1, 2, 3]
    assert next(src) == 4
    assert next(gen) == [5, 6, 7]
    assert list(flatten(g for g in [[1], (2, 3), iter([4])])) == [1, 2, 3, 4]
''')

# ------------------------------------------------------------------ weakref
C("pt_weakset_listeners_test_keeps_alive", '''
import weakref
class Signal:
    def __init__(self):
        self._listeners = weakref.WeakSet()
    def connect(self, listener):
        self._listeners.add(listener)
    def emit(self, value):
        for l in list(self._listeners):
            l.on_event(value)
    def count(self):
        return len(self._listeners)
''', '''
import gc
class Recorder:
    def __init__(self):
        self.seen = []
    def on_event(self, v):
        self.seen.append(v)
def test_emit_reaches_live_listener():
    s = Signal()
    r = Recorder()
    s.connect(r)
    gc.collect()
    s.emit(1)
    assert r.seen == [1]
def test_dead_listener_dropped():
    s = Signal()
    r = Recorder()
    s.connect(r)
    del r
    gc.collect()
    assert s.count() == 0
''')

C("pt_weakvalue_cache_code_objects", '''
import weakref
class Image:
    def __init__(self, name):
        self.name = name
_cache = weakref.WeakValueDictionary()
def load(name):
    img = _cache.get(name)
    if img is None:
        img = Image(name)
        _cache[name] = img
    return img
def cached_names():
    return sorted(_cache.keys())
''', '''
import gc
def test_same_while_alive():
    a = load('x')
    assert load('x') is a
def test_released_when_dropped():
    b = load('y')
    assert 'y' in cached_names()
    del b
    gc.collect()
    assert 'y' not in cached_names()
''')

# ------------------------------------------------------------------ copy / pickle
C("pt_deepcopy_test_structure_with_code_objects", '''
class Node:
    def __init__(self, val):
        self.val = val
        self.children = []
''', '''
import copy
def test_memo_shared():
    n = Node(1)
    snap = copy.deepcopy({'a': n, 'b': n})
    assert snap['a'] is snap['b']
    assert snap['a'] is not n
    snap['a'].val = 9
    assert n.val == 1 and snap['b'].val == 9
''')

C("pt_pickle_file_written_by_code", '''
import pickle
from dataclasses import dataclass
@dataclass
class Point:
    x: int
    y: int
def save(points, path):
    with open(path, 'wb') as f:
        pickle.dump(points, f)
def load(path):
    with open(path, 'rb') as f:
        return pickle.load(f)
''', '''
import pickle
def test_round_trip_code(tmp_path):
    p = tmp_path / 'pts.pkl'
    save([Point(1, 2), Point(3, 4)], p)
    assert load(p) == [Point(1, 2), Point(3, 4)]
def test_tests_read_pickle(tmp_path):
    p = tmp_path / 'pts.pkl'
    save([Point(1, 2)], p)
    with open(p, 'rb') as f:
        got = pickle.load(f)
    assert got[0].x == 1 and got[0].y == 2
''')

C("pt_pickle_list_of_code_objects_in_test", '''
class Money:
    def __init__(self, cents):
        self.cents = cents
    def __eq__(self, other):
        return isinstance(other, Money) and other.cents == self.cents
    def __hash__(self):
        return hash(self.cents)
''', '''
import pickle
def test_roundtrip_list():
    items = [Money(5), Money(7)]
    back = pickle.loads(pickle.dumps(items))
    assert back == items
    assert back[0] is not items[0]
''')

# ------------------------------------------------------------------ in-place containers
C("pt_code_updates_test_set", '''
def collect_tags(posts, seen):
    new = []
    for p in posts:
        for t in p['tags']:
            if t not in seen:
                seen.add(t)
                new.append(t)
    return new
''', '''
def test_seen_grows():
    seen = {'py'}
    assert collect_tags([{'tags': ['py', 'go']}, {'tags': ['rs', 'go']}], seen) == ['go', 'rs']
    assert seen == {'py', 'go', 'rs'}
    seen.discard('go')
    assert collect_tags([{'tags': ['go']}], seen) == ['go']
''')

BA_OK = '''
def xor_inplace(buf, key):
    for i in range(len(buf)):
        buf[i] ^= key
'''
BA_BAD = '''
def xor_inplace(buf, key):
    buf = bytearray(b ^ key for b in buf)
    return buf
'''
BA_T = '''
def test_xor():
    data = bytearray(b'abc')
    xor_inplace(data, 1)
    assert data == bytearray(b'`cb')
def test_xor_memoryview_slice():
    data = bytearray(b'aaaa')
    xor_inplace(memoryview(data)[1:3], 1)
    assert data == bytearray(b'a``a')
'''
C("pt_bytearray_memoryview_inplace_ok", BA_OK, BA_T)
C("pt_bytearray_inplace_bad", BA_BAD, BA_T)

C("pt_array_array_inplace", '''
def scale(arr, k):
    for i, v in enumerate(arr):
        arr[i] = v * k
    return arr
''', '''
from array import array
def test_scale():
    a = array('i', [1, 2, 3])
    out = scale(a, 3)
    assert out is a
    assert a == array('i', [3, 6, 9])
    assert a.tolist() == [3, 6, 9]
''')

C("pt_code_returns_array_array", '''
from array import array
def squares(n):
    return array('d', (i * i for i in range(n)))
''', '''
from array import array
def test_squares():
    a = squares(4)
    assert a == array('d', [0.0, 1.0, 4.0, 9.0])
    assert a.typecode == 'd'
''')

C("pt_counter_attr_mutated_by_test", '''
from collections import Counter
class WordStats:
    def __init__(self):
        self.counts = Counter()
    def add(self, text):
        self.counts.update(text.split())
    def top(self):
        return self.counts.most_common(1)[0][0]
''', '''
from collections import Counter
def test_test_edits_counter():
    w = WordStats()
    w.add('a b a')
    w.counts['b'] += 5
    assert w.top() == 'b'
    w.counts.subtract({'b': 10})
    assert w.top() == 'a'
def test_counter_arithmetic():
    w = WordStats()
    w.add('x y x')
    both = w.counts + Counter({'y': 3})
    assert both == Counter({'y': 4, 'x': 2})
    assert w.counts - Counter({'x': 5}) == Counter({'y': 1})
''')

C("pt_defaultdict_attr_mutated_by_test", '''
from collections import defaultdict
class Graph:
    def __init__(self):
        self.adj = defaultdict(set)
    def add_edge(self, a, b):
        self.adj[a].add(b)
        self.adj[b].add(a)
    def degree(self, v):
        return len(self.adj[v])
''', '''
def test_edit_adjacency():
    g = Graph()
    g.add_edge(1, 2)
    g.adj[1].add(3)
    g.adj[9]
    assert g.degree(1) == 2
    assert 9 in g.adj
    assert sorted(g.adj) == [1, 2, 9]
''')

C("pt_ordereddict_lru_move_to_end_by_test", '''
from collections import OrderedDict
class LRU:
    def __init__(self, cap):
        self.cap = cap
        self.data = OrderedDict()
    def put(self, k, v):
        self.data[k] = v
        self.data.move_to_end(k)
        if len(self.data) > self.cap:
            self.data.popitem(last=False)
''', '''
def test_test_touches_order():
    c = LRU(2)
    c.put('a', 1)
    c.put('b', 2)
    c.data.move_to_end('a')
    c.put('c', 3)
    assert list(c.data) == ['a', 'c']
''')

C("pt_chainmap_over_test_dicts", '''
from collections import ChainMap
class Config:
    def __init__(self, overrides, defaults):
        self.view = ChainMap(overrides, defaults)
    def get(self, k):
        return self.view[k]
''', '''
def test_layers_live():
    defaults = {'color': 'red', 'size': 1}
    overrides = {}
    c = Config(overrides, defaults)
    assert c.get('color') == 'red'
    overrides['color'] = 'blue'
    defaults['size'] = 2
    assert c.get('color') == 'blue'
    assert c.get('size') == 2
    c.view['new'] = 1
    assert overrides == {'color': 'blue', 'new': 1}
''')

C("pt_code_returns_chainmap_and_mappingproxy", '''
from collections import ChainMap
from types import MappingProxyType
class Registry:
    def __init__(self):
        self._d = {'a': 1}
    def view(self):
        return MappingProxyType(self._d)
    def add(self, k, v):
        self._d[k] = v
def merged(a, b):
    return ChainMap(a, b)
''', '''
import pytest
def test_readonly_view():
    r = Registry()
    v = r.view()
    assert v == {'a': 1}
    r.add('b', 2)
    assert v['b'] == 2
    with pytest.raises(TypeError):
        v['c'] = 3
def test_chainmap():
    m = merged({'x': 1}, {'x': 2, 'y': 3})
    assert m['x'] == 1 and m['y'] == 3
    assert dict(m) == {'x': 1, 'y': 3}
''')

C("pt_code_dict_subclass_attrdict", '''
class AttrDict(dict):
    def __getattr__(self, k):
        try:
            return self[k]
        except KeyError:
            raise AttributeError(k)
    def __setattr__(self, k, v):
        self[k] = v
''', '''
import json
def test_attrdict():
    d = AttrDict(a=1)
    d.b = 2
    assert d['b'] == 2 and d.a == 1
    assert isinstance(d, dict)
    assert d == {'a': 1, 'b': 2}
    assert json.dumps(d, sort_keys=True) == '{"a": 1, "b": 2}'
    assert {**d, 'c': 3} == {'a': 1, 'b': 2, 'c': 3}
''')

C("pt_code_missing_dict_subclass", '''
class Tally(dict):
    def __missing__(self, key):
        return 0
def tally(words):
    t = Tally()
    for w in words:
        t[w] += 1
    return t
''', '''
def test_missing():
    t = tally(['a', 'b', 'a'])
    assert t['a'] == 2
    assert t['zzz'] == 0
    assert 'zzz' not in t
    assert sorted(t.items()) == [('a', 2), ('b', 1)]
''')

# ------------------------------------------------------------------ callbacks stored, exceptions
C("pt_retry_catches_test_exception", '''
class Retry:
    def __init__(self, times, on=(Exception,)):
        self.times = times
        self.on = on
        self.errors = []
    def run(self, fn):
        for _ in range(self.times):
            try:
                return fn()
            except self.on as e:
                self.errors.append(e)
        raise self.errors[-1]
''', '''
import pytest
class Flaky(Exception):
    pass
def test_retry_until_success():
    calls = []
    def fn():
        calls.append(1)
        if len(calls) < 3:
            raise Flaky(len(calls))
        return 'ok'
    r = Retry(5, on=(Flaky,))
    assert r.run(fn) == 'ok'
    assert len(r.errors) == 2
    assert isinstance(r.errors[0], Flaky)
    assert r.errors[1].args == (2,)
def test_gives_up_with_last():
    err = Flaky('boom')
    def fn():
        raise err
    with pytest.raises(Flaky) as ei:
        Retry(2, on=(Flaky,)).run(fn)
    assert ei.value is err
def test_not_caught_other():
    def fn():
        raise KeyError('k')
    with pytest.raises(KeyError):
        Retry(3, on=(Flaky,)).run(fn)
''')

C("pt_exception_carries_test_object", '''
class OutOfStock(Exception):
    def __init__(self, item, wanted):
        super().__init__(f'{item["name"]}: wanted {wanted}')
        self.item = item
        self.wanted = wanted
def buy(item, n):
    if item['qty'] < n:
        raise OutOfStock(item, n)
    item['qty'] -= n
''', '''
import pytest
def test_attached():
    item = {'name': 'pen', 'qty': 1}
    with pytest.raises(OutOfStock) as ei:
        buy(item, 5)
    assert ei.value.item is item
    assert ei.value.wanted == 5
    assert str(ei.value) == 'pen: wanted 5'
def test_decrements():
    item = {'name': 'pen', 'qty': 3}
    buy(item, 2)
    assert item['qty'] == 1
''')

C("pt_exception_cause_and_notes", '''
class ConfigError(Exception):
    pass
def parse_port(s):
    try:
        port = int(s)
    except ValueError as e:
        err = ConfigError(f'bad port {s!r}')
        err.add_note('ports are integers')
        raise err from e
    return port
''', '''
import pytest
def test_chain():
    with pytest.raises(ConfigError) as ei:
        parse_port('http')
    assert isinstance(ei.value.__cause__, ValueError)
    assert ei.value.__suppress_context__
    assert ei.value.__notes__ == ['ports are integers']
''')

C("pt_exception_group_from_code", '''
def validate_all(values):
    errors = []
    for v in values:
        if v < 0:
            errors.append(ValueError(f'negative: {v}'))
        elif v > 100:
            errors.append(OverflowError(f'too big: {v}'))
    if errors:
        raise ExceptionGroup('invalid values', errors)
''', '''
import pytest
def test_group():
    with pytest.raises(ExceptionGroup) as ei:
        validate_all([1, -2, 300, -4])
    eg = ei.value
    assert len(eg.exceptions) == 3
    match, rest = eg.split(ValueError)
    assert len(match.exceptions) == 2
    assert isinstance(rest.exceptions[0], OverflowError)
def test_except_star():
    seen = []
    try:
        validate_all([-1, 200])
    except* ValueError as g:
        seen.append(('v', len(g.exceptions)))
    except* OverflowError as g:
        seen.append(('o', len(g.exceptions)))
    assert seen == [('v', 1), ('o', 1)]
''')

# ------------------------------------------------------------------ ordering, operators
C("pt_total_ordering_heapq_bisect", '''
from functools import total_ordering
@total_ordering
class Version:
    def __init__(self, s):
        self.parts = tuple(int(p) for p in s.split('.'))
    def __eq__(self, o):
        return self.parts == o.parts
    def __lt__(self, o):
        return self.parts < o.parts
    def __hash__(self):
        return hash(self.parts)
    def __repr__(self):
        return 'Version(' + '.'.join(map(str, self.parts)) + ')'
''', '''
import bisect, heapq
def test_sorting():
    vs = [Version('1.10'), Version('1.2'), Version('1.9')]
    assert [repr(v) for v in sorted(vs)] == ['Version(1.2)', 'Version(1.9)', 'Version(1.10)']
    assert max(vs) == Version('1.10')
    assert Version('2.0') >= Version('1.99')
def test_heap_and_bisect():
    h = []
    for s in ['3.0', '1.0', '2.0']:
        heapq.heappush(h, Version(s))
    assert heapq.heappop(h) == Version('1.0')
    keys = [Version('1.0'), Version('3.0')]
    bisect.insort(keys, Version('2.0'))
    assert keys[1] == Version('2.0')
''')

C("pt_sum_radd_and_iadd_identity", '''
class Money:
    def __init__(self, cents):
        self.cents = cents
    def __add__(self, other):
        if isinstance(other, Money):
            return Money(self.cents + other.cents)
        return NotImplemented
    def __radd__(self, other):
        if other == 0:
            return self
        return self.__add__(other)
    def __eq__(self, other):
        return isinstance(other, Money) and other.cents == self.cents
class Wallet:
    def __init__(self):
        self.items = []
    def __iadd__(self, m):
        self.items.append(m)
        return self
    def total(self):
        return sum(self.items)
''', '''
def test_sum():
    assert sum([Money(1), Money(2), Money(3)]) == Money(6)
def test_iadd_keeps_identity():
    w = Wallet()
    alias = w
    w += Money(5)
    w += Money(7)
    assert alias is w
    assert alias.total() == Money(12)
def test_add_makes_new():
    a = Money(1)
    b = a
    a += Money(2)
    assert b == Money(1) and a == Money(3)
    assert a is not b
''')

C("pt_index_format_bool_dunders", '''
class Level:
    def __init__(self, n):
        self.n = n
    def __index__(self):
        return self.n
    def __format__(self, spec):
        return f'L{self.n:{spec}}'
    def __bool__(self):
        return self.n > 0
    def __round__(self, nd=None):
        return Level(round(self.n, nd))
''', '''
def test_dunders():
    lv = Level(2)
    assert ['a', 'b', 'c'][lv] == 'c'
    assert f'{lv:03d}' == 'L002'
    assert not Level(0)
    assert bin(lv) == '0b10'
    assert list(range(lv)) == [0, 1]
''')

C("pt_mixed_compare_code_obj_with_int", '''
class Temp:
    def __init__(self, deg):
        self.deg = deg
    def __lt__(self, other):
        other = other.deg if isinstance(other, Temp) else other
        return self.deg < other
    def __gt__(self, other):
        other = other.deg if isinstance(other, Temp) else other
        return self.deg > other
''', '''
def test_mixed():
    t = Temp(20)
    assert t < 25
    assert 25 > t
    assert not (t > 30)
    assert sorted([Temp(5), Temp(1)], key=lambda x: x.deg)[0].deg == 1
''')

# ------------------------------------------------------------------ types, isinstance
C("pt_type_is_code_class", '''
class Shape:
    pass
class Circle(Shape):
    def __init__(self, r):
        self.r = r
class Square(Shape):
    def __init__(self, s):
        self.s = s
def make(kind, size):
    return {'circle': Circle, 'square': Square}[kind](size)
''', '''
def test_exact_types():
    c = make('circle', 1)
    assert type(c) is Circle
    assert type(c) == Circle
    assert c.__class__ is Circle
    assert type(make('square', 2)).__name__ == 'Square'
    assert isinstance(c, Shape) and not isinstance(c, Square)
''')

C("pt_collections_abc_checks_on_code_objects", '''
class Bag:
    def __init__(self, items=()):
        self._items = list(items)
    def __len__(self):
        return len(self._items)
    def __iter__(self):
        return iter(self._items)
    def __contains__(self, x):
        return x in self._items
class Plain:
    pass
''', '''
from collections.abc import Collection, Sized, Iterable, Hashable, Sequence, Callable
def test_abc():
    b = Bag([1, 2])
    assert isinstance(b, Collection)
    assert isinstance(b, Sized) and isinstance(b, Iterable)
    assert not isinstance(b, Sequence)
    p = Plain()
    assert not isinstance(p, Iterable)
    assert not isinstance(p, Sized)
    assert not isinstance(p, Callable)
''')

C("pt_namedtuple_with_methods", '''
from typing import NamedTuple
class Point(NamedTuple):
    x: float
    y: float
    def dist(self, other):
        return ((self.x - other.x) ** 2 + (self.y - other.y) ** 2) ** 0.5
    @property
    def norm(self):
        return (self.x ** 2 + self.y ** 2) ** 0.5
def origin():
    return Point(0, 0)
''', '''
def test_methods():
    o = origin()
    p = Point(3, 4)
    assert o.dist(p) == 5.0
    assert p.norm == 5.0
    assert isinstance(o, Point) and isinstance(o, tuple)
    assert o._replace(x=1) == (1, 0)
''')

C("pt_str_enum_and_intenum_methods", '''
from enum import Enum, IntEnum
class Color(str, Enum):
    RED = 'red'
    GREEN = 'green'
    def hex(self):
        return {'red': '#f00', 'green': '#0f0'}[self.value]
class Priority(IntEnum):
    LOW = 1
    HIGH = 3
    def label(self):
        return self.name.lower()
def pick(urgent):
    return Priority.HIGH if urgent else Priority.LOW
''', '''
def test_str_enum():
    assert Color.RED == 'red'
    assert Color('green') is Color.GREEN
    assert Color.RED.hex() == '#f00'
def test_int_enum():
    p = pick(True)
    assert p is Priority.HIGH
    assert p > Priority.LOW and p == 3
    assert p.label() == 'high'
''')

C("pt_str_subclass_returned", '''
class Slug(str):
    def words(self):
        return self.split('-')
def slugify(title):
    return Slug('-'.join(title.lower().split()))
''', '''
def test_slug():
    s = slugify('Hello Big World')
    assert s == 'hello-big-world'
    assert isinstance(s, Slug)
    assert s.words() == ['hello', 'big', 'world']
''')

C("pt_flag_enum_ops", '''
from enum import Flag, auto
class Perm(Flag):
    R = auto()
    W = auto()
    X = auto()
def parse(s):
    p = Perm(0)
    for ch, f in (('r', Perm.R), ('w', Perm.W), ('x', Perm.X)):
        if ch in s:
            p |= f
    return p
''', '''
def test_flags():
    p = parse('rw')
    assert p == Perm.R | Perm.W
    assert Perm.R in p and Perm.X not in p
    assert not (p & Perm.X)
    assert list(p) == [Perm.R, Perm.W]
''')

C("pt_simple_namespace_returned", '''
from types import SimpleNamespace
def parse_args(argv):
    ns = SimpleNamespace(verbose=False, files=[])
    for a in argv:
        if a == '-v':
            ns.verbose = True
        else:
            ns.files.append(a)
    return ns
''', '''
from types import SimpleNamespace
def test_ns():
    ns = parse_args(['-v', 'a.txt'])
    assert ns.verbose is True
    assert ns.files == ['a.txt']
    assert ns == SimpleNamespace(verbose=True, files=['a.txt'])
    assert vars(ns) == {'verbose': True, 'files': ['a.txt']}
''')

# ------------------------------------------------------------------ tests subclass / register into code
C("pt_init_subclass_registry_test_plugin", '''
class Plugin:
    registry = {}
    def __init_subclass__(cls, name=None, **kw):
        super().__init_subclass__(**kw)
        Plugin.registry[name or cls.__name__.lower()] = cls
def create(name):
    return Plugin.registry[name]()
''', '''
class Echo(Plugin, name='echo'):
    def run(self, x):
        return x
def test_registered():
    assert 'echo' in Plugin.registry
    assert Plugin.registry['echo'] is Echo
    obj = create('echo')
    assert isinstance(obj, Echo)
    assert obj.run(5) == 5
''')

C("pt_class_decorator_registry_test_class", '''
HANDLERS = {}
def handles(kind):
    def deco(cls):
        HANDLERS[kind] = cls
        return cls
    return deco
def dispatch(kind, payload):
    return HANDLERS[kind]().handle(payload)
''', '''
@handles('upper')
class Upper:
    def handle(self, p):
        return p.upper()
def test_decorated_class():
    assert HANDLERS['upper'] is Upper
    assert dispatch('upper', 'abc') == 'ABC'
    assert handles('x')(int) is int
''')

C("pt_singledispatch_test_registers_type", '''
from functools import singledispatch
@singledispatch
def render(obj):
    return str(obj)
@render.register
def _(obj: list):
    return '[' + ', '.join(render(x) for x in obj) + ']'
''', '''
class Money:
    def __init__(self, c):
        self.c = c
@render.register
def _(m: Money):
    return f'${m.c / 100:.2f}'
def test_dispatch():
    assert render(3) == '3'
    assert render([1, Money(250)]) == '[1, $2.50]'
''')

C("pt_abc_register_virtual_subclass", '''
from abc import ABC, abstractmethod
class Storage(ABC):
    @abstractmethod
    def save(self, key, value): ...
def store_all(storage, items):
    if not isinstance(storage, Storage):
        raise TypeError('not a Storage')
    for k, v in items.items():
        storage.save(k, v)
''', '''
import pytest
class MemStore:
    def __init__(self):
        self.data = {}
    def save(self, k, v):
        self.data[k] = v
Storage.register(MemStore)
def test_virtual():
    m = MemStore()
    assert isinstance(m, Storage)
    store_all(m, {'a': 1})
    assert m.data == {'a': 1}
def test_abstract():
    class Half(Storage):
        pass
    with pytest.raises(TypeError):
        Half()
''')

C("pt_test_subclass_classmethod_factory", '''
class Date:
    def __init__(self, y, m, d):
        self.y, self.m, self.d = y, m, d
    @classmethod
    def parse(cls, s):
        return cls(*map(int, s.split('-')))
    def iso(self):
        return f'{self.y:04d}-{self.m:02d}-{self.d:02d}'
''', '''
class MyDate(Date):
    def us(self):
        return f'{self.m}/{self.d}/{self.y}'
def test_factory_returns_subclass():
    d = MyDate.parse('2024-03-05')
    assert type(d) is MyDate
    assert d.us() == '3/5/2024'
    assert d.iso() == '2024-03-05'
''')

C("pt_multiple_inheritance_mixin_super_chain", '''
class Base:
    def describe(self):
        return ['base']
class Timestamped(Base):
    def describe(self):
        return ['ts'] + super().describe()
''', '''
class Tagged(Base):
    def describe(self):
        return ['tag'] + super().describe()
class Both(Tagged, Timestamped):
    pass
def test_mro():
    assert Both().describe() == ['tag', 'ts', 'base']
    assert [c.__name__ for c in Both.__mro__[:4]] == ['Both', 'Tagged', 'Timestamped', 'Base']
''')

# ------------------------------------------------------------------ environment, process state
C("pt_environ_direct_set_and_del", '''
import os
def db_url():
    return os.environ.get('DB_URL', 'sqlite://')
def debug():
    return os.getenv('APP_DEBUG') == '1'
''', '''
import os
def test_direct():
    os.environ['DB_URL'] = 'pg://x'
    try:
        assert db_url() == 'pg://x'
    finally:
        del os.environ['DB_URL']
    assert db_url() == 'sqlite://'
def test_delenv(monkeypatch):
    monkeypatch.setenv('APP_DEBUG', '1')
    assert debug()
    monkeypatch.delenv('APP_DEBUG')
    assert not debug()
''')

C("pt_sys_argv_cli", '''
import argparse, sys
def main():
    p = argparse.ArgumentParser()
    p.add_argument('--n', type=int, default=1)
    p.add_argument('name')
    a = p.parse_args()
    return f'hello {a.name}' * a.n
def prog():
    return sys.argv[0]
''', '''
import sys
def test_monkeypatch_argv(monkeypatch):
    monkeypatch.setattr(sys, 'argv', ['greet', 'bob', '--n', '2'])
    assert main() == 'hello bobhello bob'
def test_direct_argv():
    old = sys.argv
    sys.argv = ['tool', 'amy']
    try:
        assert main() == 'hello amy'
        assert prog() == 'tool'
    finally:
        sys.argv = old
''')

C("pt_stdin_replaced_by_test", '''
import sys
def read_numbers():
    n = int(sys.stdin.readline())
    return [int(x) for x in sys.stdin.readline().split()][:n]
def ask():
    return input('name? ').strip().title()
''', '''
import io, sys
def test_monkeypatch_stdin(monkeypatch):
    monkeypatch.setattr('sys.stdin', io.StringIO('3\\n4 5 6 7\\n'))
    assert read_numbers() == [4, 5, 6]
def test_direct_stdin_input(capsys):
    old = sys.stdin
    sys.stdin = io.StringIO('ada lovelace\\n')
    try:
        assert ask() == 'Ada Lovelace'
    finally:
        sys.stdin = old
''')

C("ut_stdout_replaced_directly", '''
def report(rows):
    for name, score in rows:
        print(f'{name:<5}{score:>3}')
''', '''
import io, sys, unittest
class TestReport(unittest.TestCase):
    def test_output(self):
        buf = io.StringIO()
        old = sys.stdout
        sys.stdout = buf
        try:
            report([('ann', 7), ('bo', 10)])
        finally:
            sys.stdout = old
        self.assertEqual(buf.getvalue(), 'ann    7\\nbo    10\\n')
''')

C("ut_mock_builtins_print_and_open", '''
def greet(name):
    print(f'Hello, {name}!')
def count_lines(path):
    with open(path) as f:
        return sum(1 for line in f if line.strip())
''', '''
import unittest
from unittest import mock
class TestIO(unittest.TestCase):
    @mock.patch('builtins.print')
    def test_print(self, mock_print):
        greet('Ann')
        mock_print.assert_called_once_with('Hello, Ann!')
    def test_open(self):
        m = mock.mock_open(read_data='a\\n\\nb\\nc\\n')
        with mock.patch('builtins.open', m):
            self.assertEqual(count_lines('any.txt'), 3)
        m.assert_called_once_with('any.txt')
''')

C("pt_mock_os_path_and_sleep", '''
import os, time
def wait_for_file(path, tries=5, delay=1.0):
    for i in range(tries):
        if os.path.exists(path):
            return i
        time.sleep(delay)
    raise TimeoutError(path)
''', '''
import time
import pytest
from unittest import mock
def test_waits_then_finds(monkeypatch):
    sleeps = []
    monkeypatch.setattr(time, 'sleep', sleeps.append)
    with mock.patch('os.path.exists', side_effect=[False, False, True]) as ex:
        assert wait_for_file('/x', delay=0.5) == 2
    assert sleeps == [0.5, 0.5]
    assert ex.call_count == 3
def test_gives_up(monkeypatch):
    monkeypatch.setattr(time, 'sleep', lambda s: None)
    with mock.patch('os.path.exists', return_value=False):
        with pytest.raises(TimeoutError):
            wait_for_file('/y', tries=2)
''')

C("pt_monkeypatch_datetime_class", '''
import datetime
def greeting():
    h = datetime.datetime.now().hour
    return 'morning' if h < 12 else 'evening'
def is_weekend():
    return datetime.date.today().weekday() >= 5
''', '''
import datetime
class FakeDT(datetime.datetime):
    @classmethod
    def now(cls, tz=None):
        return cls(2024, 1, 1, 9, 0)
class FakeDate(datetime.date):
    @classmethod
    def today(cls):
        return cls(2024, 6, 8)
def test_morning(monkeypatch):
    monkeypatch.setattr(datetime, 'datetime', FakeDT)
    assert greeting() == 'morning'
def test_weekend(monkeypatch):
    monkeypatch.setattr(datetime, 'date', FakeDate)
    assert is_weekend()
''')

C("pt_sys_recursionlimit_set_by_test", '''
def depth(n):
    return 0 if n == 0 else 1 + depth(n - 1)
''', '''
import sys
def test_deep():
    old = sys.getrecursionlimit()
    sys.setrecursionlimit(10000)
    try:
        assert depth(3000) == 3000
    finally:
        sys.setrecursionlimit(old)
''')

C("pt_decimal_context_set_by_test", '''
from decimal import Decimal
def third(x):
    return Decimal(x) / Decimal(3)
''', '''
from decimal import Decimal, getcontext, localcontext
def test_precision():
    with localcontext() as ctx:
        ctx.prec = 5
        assert third(1) == Decimal('0.33333')
def test_default():
    assert str(third(1)).startswith('0.3333333333')
''')

C("pt_warnings_filter_error_and_record", '''
import warnings
def old_api():
    warnings.warn('use new_api', DeprecationWarning, stacklevel=2)
    return 1
''', '''
import warnings
import pytest
def test_as_error():
    with warnings.catch_warnings():
        warnings.simplefilter('error')
        with pytest.raises(DeprecationWarning):
            old_api()
def test_record():
    with warnings.catch_warnings(record=True) as w:
        warnings.simplefilter('always')
        assert old_api() == 1
    assert len(w) == 1 and issubclass(w[0].category, DeprecationWarning)
    assert 'new_api' in str(w[0].message)
''')

C("ut_assert_logs_and_warns", '''
import logging, warnings
log = logging.getLogger('inventory')
def remove(stock, item):
    if item not in stock:
        log.warning('no such item: %s', item)
        return False
    if stock[item] == 1:
        warnings.warn('last one', UserWarning)
    stock[item] -= 1
    return True
''', '''
import unittest
class TestRemove(unittest.TestCase):
    def test_logs(self):
        with self.assertLogs('inventory', level='WARNING') as cm:
            self.assertFalse(remove({}, 'pen'))
        self.assertEqual(cm.output, ['WARNING:inventory:no such item: pen'])
    def test_warns(self):
        stock = {'pen': 1}
        with self.assertWarns(UserWarning):
            remove(stock, 'pen')
        self.assertEqual(stock, {'pen': 0})
''')

C("pt_caplog_and_test_handler_on_code_logger", '''
import logging
logger = logging.getLogger('billing')
def charge(amount):
    if amount <= 0:
        logger.error('invalid amount %s', amount)
        return False
    logger.info('charged %s', amount)
    return True
''', '''
import logging
def test_caplog(caplog):
    with caplog.at_level(logging.INFO, logger='billing'):
        charge(5)
        charge(-1)
    assert [r.levelname for r in caplog.records] == ['INFO', 'ERROR']
    assert 'invalid amount -1' in caplog.text
    assert caplog.records[1].args == (-1,)
def test_own_handler():
    seen = []
    class H(logging.Handler):
        def emit(self, record):
            seen.append(record.getMessage())
    h = H()
    lg = logging.getLogger('billing')
    lg.addHandler(h)
    try:
        charge(0)
    finally:
        lg.removeHandler(h)
    assert seen == ['invalid amount 0']
''')

C("pt_random_shuffle_test_list_seeded", '''
import random
def shuffle_deck(deck):
    random.shuffle(deck)
def draw(deck, n):
    return [deck.pop() for _ in range(n)]
''', '''
import random
def test_seeded_shuffle_in_place():
    deck = list(range(10))
    random.seed(3)
    shuffle_deck(deck)
    expected = list(range(10))
    random.seed(3)
    random.shuffle(expected)
    assert deck == expected
    hand = draw(deck, 2)
    assert hand == expected[-1:-3:-1]
    assert len(deck) == 8
''')

# ------------------------------------------------------------------ io objects
C("pt_stringio_to_code_csv_writer", '''
import csv
def write_rows(out, rows):
    w = csv.writer(out, lineterminator='\\n')
    w.writerow(['name', 'qty'])
    w.writerows(rows)
def echo(out, *parts):
    print(*parts, sep='|', file=out)
''', '''
import io
def test_csv():
    buf = io.StringIO()
    write_rows(buf, [('pen', 2), ('ink', 1)])
    assert buf.getvalue() == 'name,qty\\npen,2\\nink,1\\n'
def test_print_file():
    buf = io.StringIO()
    echo(buf, 'a', 1)
    buf.seek(0)
    assert buf.read() == 'a|1\\n'
''')

C("pt_test_file_handle_partly_read", '''
def parse_body(f):
    return [line.strip().split(',') for line in f if line.strip()]
''', '''
def test_after_header(tmp_path):
    p = tmp_path / 'd.csv'
    p.write_text('h1,h2\\na,1\\nb,2\\n')
    with open(p) as f:
        header = f.readline().strip().split(',')
        rows = parse_body(f)
        assert f.read() == ''
    assert header == ['h1', 'h2']
    assert rows == [['a', '1'], ['b', '2']]
''')

C("pt_code_returns_open_file_and_bytesio", '''
import io
def open_log(path):
    return open(path, 'a')
def compress(data):
    buf = io.BytesIO()
    buf.write(data * 2)
    buf.seek(0)
    return buf
''', '''
def test_append_file(tmp_path):
    p = tmp_path / 'log.txt'
    f = open_log(p)
    f.write('one\\n')
    f.close()
    assert p.read_text() == 'one\\n'
    with open_log(p) as g:
        g.write('two\\n')
    assert p.read_text() == 'one\\ntwo\\n'
def test_bytesio():
    b = compress(b'ab')
    assert b.read() == b'abab'
    assert b.getvalue() == b'abab'
''')

C("plain_tmp_dir_and_glob_relative", '''
import glob, os
def list_reports(folder):
    return sorted(os.path.basename(p) for p in glob.glob(os.path.join(folder, '*.txt')))
def write_summary(folder):
    names = list_reports(folder)
    with open(os.path.join(folder, 'summary.md'), 'w') as f:
        f.write('\\n'.join(names))
''', '''
import os, tempfile
d = tempfile.mkdtemp()
for n in ('b.txt', 'a.txt', 'c.csv'):
    open(os.path.join(d, n), 'w').close()
assert list_reports(d) == ['a.txt', 'b.txt']
write_summary(d)
with open(os.path.join(d, 'summary.md')) as f:
    assert f.read() == 'a.txt\\nb.txt'
''')

# ------------------------------------------------------------------ stored callback, closures over test state
C("pt_code_stores_bound_method_and_calls_later", '''
class Scheduler:
    def __init__(self):
        self.jobs = []
    def every(self, fn, *args):
        self.jobs.append((fn, args))
    def tick(self):
        return [fn(*a) for fn, a in self.jobs]
''', '''
import functools
def test_bound_methods_and_partials():
    log = []
    s = Scheduler()
    s.every(log.append, 'x')
    s.every(functools.partial(log.insert, 0), 'first')
    s.every(len, log)
    res = s.tick()
    assert log == ['first', 'x']
    assert res == [None, None, 2]
    log.clear()
    s.tick()
    assert log == ['first', 'x']
''')

C("pt_memoize_decorator_on_test_function", '''
import functools
def memoize(fn):
    cache = {}
    @functools.wraps(fn)
    def wrapper(*args):
        if args not in cache:
            cache[args] = fn(*args)
        return cache[args]
    wrapper.cache = cache
    return wrapper
''', '''
calls = []
@memoize
def slow_square(x):
    calls.append(x)
    return x * x
def test_memo():
    assert slow_square(3) == 9
    assert slow_square(3) == 9
    assert calls == [3]
    assert slow_square.__name__ == 'slow_square'
    assert slow_square.cache == {(3,): 9}
    slow_square.cache.clear()
    slow_square(3)
    assert calls == [3, 3]
''')

# ------------------------------------------------------------------ wrong code that one process catches by sharing
C("pt_observer_gets_copy_bad", '''
class Store:
    def __init__(self):
        self.state = {'count': 0}
        self.subs = []
    def subscribe(self, fn):
        self.subs.append(fn)
    def dispatch(self, n):
        self.state['count'] += n
        for fn in self.subs:
            fn(self.state)
''', '''
def test_subscriber_cannot_corrupt_state():
    s = Store()
    def evil(state):
        state['count'] = 999
    s.subscribe(evil)
    s.dispatch(1)
    assert s.state['count'] == 1
''')

C("pt_callback_receives_code_list_and_mutates", '''
class Pipeline:
    def __init__(self):
        self.steps = []
    def use(self, fn):
        self.steps.append(fn)
    def run(self, items):
        data = list(items)
        for fn in self.steps:
            fn(data)
        return data
''', '''
def test_steps_mutate_in_place():
    p = Pipeline()
    p.use(lambda d: d.append(4))
    p.use(lambda d: d.sort(reverse=True))
    p.use(lambda d: d.remove(2))
    assert p.run([2, 1, 3]) == [4, 3, 1]
''')


# ============================================================ batch 2: wrong code where the sandbox may share less
NP_KEEP_T = '''
import numpy as np
def test_input_changed_after_fit_does_not_matter():
    w = np.array([1.0, 2.0])
    m = Model(w)
    w[0] = 100.0
    assert m.predict(np.array([1.0, 1.0])) == 3.0
def test_weights_returned_are_a_copy():
    m = Model(np.array([1.0, 2.0]))
    got = m.get_weights()
    got[:] = 0
    assert m.predict(np.array([1.0, 1.0])) == 3.0
'''
C("pt_np_defensive_copy_ok", '''
import numpy as np
class Model:
    def __init__(self, weights):
        self.weights = np.array(weights, dtype=float)
    def get_weights(self):
        return self.weights.copy()
    def predict(self, x):
        return float(np.dot(self.weights, x))
''', NP_KEEP_T)
C("pt_np_defensive_copy_bad_keeps_caller_array", '''
import numpy as np
class Model:
    def __init__(self, weights):
        self.weights = weights
    def get_weights(self):
        return self.weights
    def predict(self, x):
        return float(np.dot(self.weights, x))
''', NP_KEEP_T)

C("pt_np_arrays_in_dict_arg_bad_shallow", '''
import numpy as np
class Dataset:
    def __init__(self, columns):
        self.columns = dict(columns)
    def mean(self, name):
        return float(self.columns[name].mean())
''', '''
import numpy as np
def test_independent_of_caller():
    cols = {'x': np.array([1.0, 3.0])}
    ds = Dataset(cols)
    cols['x'][0] = 101.0
    assert ds.mean('x') == 2.0
''')

WEAK_T = '''
def test_registered_objects_are_kept():
    reg = Registry()
    reg.add(Item('a'))
    reg.add(Item('b'))
    assert reg.names() == ['a', 'b']
'''
C("pt_registry_strong_ok", '''
class Item:
    def __init__(self, name):
        self.name = name
class Registry:
    def __init__(self):
        self._items = []
    def add(self, item):
        self._items.append(item)
    def names(self):
        return [i.name for i in self._items]
''', WEAK_T)
C("pt_registry_weakset_bad", '''
import weakref
class Item:
    def __init__(self, name):
        self.name = name
class Registry:
    def __init__(self):
        self._items = weakref.WeakSet()
    def add(self, item):
        self._items.add(item)
    def names(self):
        return sorted(i.name for i in self._items)
''', WEAK_T)

C("pt_del_finalizer_runs", '''
CLOSED = []
class Resource:
    def __init__(self, name):
        self.name = name
    def __del__(self):
        CLOSED.append(self.name)
''', '''
import gc
def test_finalized():
    r = Resource('db')
    del r
    gc.collect()
    assert CLOSED == ['db']
''')

IADD_T = '''
def test_iadd():
    c = Counter()
    c += 5
    c += 2
    assert c.value == 7
    d = c + 1
    assert d.value == 8 and c.value == 7
'''
C("pt_iadd_ok", '''
class Counter:
    def __init__(self, value=0):
        self.value = value
    def __add__(self, n):
        return Counter(self.value + n)
    def __iadd__(self, n):
        self.value += n
        return self
''', IADD_T)
C("pt_iadd_bad_forgets_return", '''
class Counter:
    def __init__(self, value=0):
        self.value = value
    def __add__(self, n):
        return Counter(self.value + n)
    def __iadd__(self, n):
        self.value += n
''', IADD_T)
C("pt_iadd_bad_mutates_immutable_value", '''
class Money:
    def __init__(self, cents):
        self.cents = cents
    def __add__(self, other):
        return Money(self.cents + other.cents)
    def __iadd__(self, other):
        self.cents += other.cents
        return self
''', '''
def test_money_is_immutable():
    price = Money(100)
    total = price
    total += Money(50)
    assert total.cents == 150
    assert price.cents == 100
''')

ASYNC_T = '''
import asyncio
def test_concurrent_within_deadline():
    async def main():
        return await asyncio.wait_for(fetch_all(['a', 'b', 'c', 'd']), timeout=0.5)
    assert asyncio.run(main()) == ['A', 'B', 'C', 'D']
'''
C("pt_async_gather_within_wait_for_ok", '''
import asyncio
async def fetch(u):
    await asyncio.sleep(0.2)
    return u.upper()
async def fetch_all(urls):
    return list(await asyncio.gather(*(fetch(u) for u in urls)))
''', ASYNC_T)
C("pt_async_sequential_misses_wait_for_bad", '''
import asyncio
async def fetch(u):
    await asyncio.sleep(0.2)
    return u.upper()
async def fetch_all(urls):
    return [await fetch(u) for u in urls]
''', ASYNC_T)

C("pt_async_create_task_inside_code_coroutine", '''
import asyncio
class Worker:
    def __init__(self):
        self.done = []
    async def start(self, jobs):
        self._task = asyncio.create_task(self._run(jobs))
    async def _run(self, jobs):
        for j in jobs:
            await asyncio.sleep(0)
            self.done.append(j)
    async def join(self):
        await self._task
''', '''
import asyncio
def test_background():
    async def main():
        w = Worker()
        await w.start([1, 2, 3])
        await w.join()
        return w.done
    assert asyncio.run(main()) == [1, 2, 3]
''')

NOLOG_T = '''
import unittest
class TestQuiet(unittest.TestCase):
    def test_no_warning_for_known_item(self):
        stock = {'pen': 2}
        with self.assertNoLogs('inventory', level='WARNING'):
            self.assertTrue(remove(stock, 'pen'))
        self.assertEqual(stock, {'pen': 1})
'''
C("ut_assert_no_logs_ok", '''
import logging
log = logging.getLogger('inventory')
def remove(stock, item):
    if item not in stock:
        log.warning('no such item: %s', item)
        return False
    stock[item] -= 1
    return True
''', NOLOG_T)
C("ut_assert_no_logs_bad_logs_always", '''
import logging
log = logging.getLogger('inventory')
def remove(stock, item):
    log.warning('removing %s', item)
    if item not in stock:
        return False
    stock[item] -= 1
    return True
''', NOLOG_T)

C("pt_handler_on_code_logger_bad_logs_error", '''
import logging
logger = logging.getLogger('billing')
def charge(amount):
    logger.error('charging %s', amount)
    return amount > 0
''', '''
import logging
def test_success_logs_no_error():
    errors = []
    class H(logging.Handler):
        def emit(self, record):
            if record.levelno >= logging.ERROR:
                errors.append(record.getMessage())
    h = H()
    logging.getLogger('billing').addHandler(h)
    try:
        assert charge(5)
    finally:
        logging.getLogger('billing').removeHandler(h)
    assert errors == []
''')

FROM_NONE_T = '''
import pytest
def test_hides_internal_error():
    with pytest.raises(UnknownUser) as ei:
        lookup('zed')
    assert ei.value.__cause__ is None
    assert ei.value.__suppress_context__
'''
C("pt_raise_from_none_ok", '''
class UnknownUser(Exception):
    pass
USERS = {'ann': 1}
def lookup(name):
    try:
        return USERS[name]
    except KeyError:
        raise UnknownUser(name) from None
''', FROM_NONE_T)
C("pt_raise_from_none_bad_chains", '''
class UnknownUser(Exception):
    pass
USERS = {'ann': 1}
def lookup(name):
    try:
        return USERS[name]
    except KeyError as e:
        raise UnknownUser(name) from e
''', FROM_NONE_T)
C("pt_exception_context_bad_implicit_chain", '''
class UnknownUser(Exception):
    pass
USERS = {'ann': 1}
def lookup(name):
    try:
        return USERS[name]
    except KeyError:
        raise UnknownUser(name)
''', '''
import pytest
def test_no_context_leak():
    with pytest.raises(UnknownUser) as ei:
        lookup('zed')
    assert ei.value.__context__ is None or ei.value.__suppress_context__
''')

C("pt_exception_notes_only", '''
def check_age(age):
    if age < 0:
        e = ValueError('negative age')
        e.add_note(f'got {age}')
        raise e
    return age
''', '''
import pytest
def test_notes():
    with pytest.raises(ValueError) as ei:
        check_age(-3)
    assert ei.value.__notes__ == ['got -3']
''')

DEC_T = '''
from decimal import Decimal, getcontext
def test_split_independent_of_caller_context():
    getcontext().prec = 3
    try:
        assert split(Decimal('100'), 3) == Decimal('33.33')
    finally:
        getcontext().prec = 28
'''
C("pt_decimal_own_context_ok", '''
from decimal import Decimal, localcontext, ROUND_HALF_UP
def split(total, n):
    with localcontext() as ctx:
        ctx.prec = 28
        return (total / n).quantize(Decimal('0.01'), rounding=ROUND_HALF_UP)
''', DEC_T)
C("pt_decimal_uses_caller_context_bad", '''
from decimal import Decimal, ROUND_HALF_UP
def split(total, n):
    return (total / n).quantize(Decimal('0.01'), rounding=ROUND_HALF_UP)
''', DEC_T)
C("pt_decimal_leaks_context_bad", '''
from decimal import Decimal, getcontext
def third(x):
    getcontext().prec = 4
    return Decimal(x) / Decimal(3)
''', '''
from decimal import Decimal, getcontext
def test_no_global_side_effect():
    assert third(1) == Decimal('0.3333')
    assert getcontext().prec == 28
''')

CMP_T = '''
import pytest
def test_only_compares_with_temp():
    assert Temp(1) < Temp(2)
    with pytest.raises(TypeError):
        Temp(1) < 5
'''
C("pt_lt_notimplemented_for_foreign_ok", '''
class Temp:
    def __init__(self, deg):
        self.deg = deg
    def __lt__(self, other):
        if not isinstance(other, Temp):
            return NotImplemented
        return self.deg < other.deg
''', CMP_T)
C("pt_lt_accepts_numbers_bad", '''
class Temp:
    def __init__(self, deg):
        self.deg = deg
    def __lt__(self, other):
        other = other.deg if isinstance(other, Temp) else other
        return self.deg < other
''', CMP_T)

C("pt_numeric_protocol_dunders", '''
import math
class Meters:
    def __init__(self, v):
        self.v = v
    def __float__(self):
        return float(self.v)
    def __int__(self):
        return int(self.v)
    def __floor__(self):
        return math.floor(self.v)
    def __neg__(self):
        return Meters(-self.v)
    def __abs__(self):
        return Meters(abs(self.v))
    def __rsub__(self, other):
        return Meters(other - self.v)
    def __mul__(self, k):
        return Meters(self.v * k)
    __rmul__ = __mul__
    def __pow__(self, k):
        return Meters(self.v ** k)
''', '''
import math
def test_numeric():
    m = Meters(2.5)
    assert float(m) == 2.5 and int(m) == 2
    assert math.floor(m) == 2
    assert abs(-m).v == 2.5
    assert (10 - m).v == 7.5
    assert (3 * m).v == 7.5
    assert (m ** 2).v == 6.25
''')

C("pt_code_returns_memoryview_of_state", '''
class Frame:
    def __init__(self, n):
        self._buf = bytearray(n)
    def view(self):
        return memoryview(self._buf)
    def checksum(self):
        return sum(self._buf)
''', '''
def test_write_through_view():
    f = Frame(4)
    v = f.view()
    v[0] = 7
    v[1:3] = b'\\x01\\x02'
    assert f.checksum() == 10
    assert bytes(v) == b'\\x07\\x01\\x02\\x00'
''')

C("pt_code_mapping_abc_subclass_eq_dict", '''
from collections.abc import Mapping
class Frozen(Mapping):
    def __init__(self, d):
        self._d = dict(d)
    def __getitem__(self, k):
        return self._d[k]
    def __iter__(self):
        return iter(self._d)
    def __len__(self):
        return len(self._d)
''', '''
from collections.abc import Mapping
def test_mapping():
    f = Frozen({'a': 1})
    assert isinstance(f, Mapping)
    assert dict(f) == {'a': 1}
    assert f.get('b', 0) == 0
    assert f == {'a': 1}
''')

C("pt_code_class_with_only_getattr_dynamic", '''
class Env:
    def __init__(self, values):
        self._values = values
    def __getattr__(self, name):
        try:
            return self._values[name.lower()]
        except KeyError:
            raise AttributeError(name)
''', '''
def test_dynamic():
    e = Env({'home': '/h'})
    assert e.HOME == '/h'
    assert getattr(e, 'home') == '/h'
    assert not hasattr(e, 'PATH')
    assert getattr(e, 'PATH', None) is None
''')

C("pt_test_subclass_override_used_by_code_classmethod", '''
class Shape:
    sides = 0
    @classmethod
    def describe(cls):
        return f'{cls.__name__} with {cls.sides} sides'
    @classmethod
    def create(cls):
        return cls()
    def area(self):
        return 0
''', '''
class Tri(Shape):
    sides = 3
    def area(self):
        return 1.5
def test_classmethod_on_subclass():
    assert Tri.describe() == 'Tri with 3 sides'
    assert Tri.create().area() == 1.5
''')

C("pt_stdin_direct_read_ok", '''
import sys
def read_words():
    return sys.stdin.read().split()
''', '''
import io, sys
def test_direct_stdin():
    old = sys.stdin
    sys.stdin = io.StringIO('b a c')
    try:
        assert sorted(read_words()) == ['a', 'b', 'c']
    finally:
        sys.stdin = old
''')

C("pt_code_replaces_stdout_without_restoring_bad", '''
import io, sys
def quiet_call(fn):
    sys.stdout = io.StringIO()
    return fn()
''', '''
import sys
def test_restores_stdout():
    before = sys.stdout
    assert quiet_call(lambda: 42) == 42
    assert sys.stdout is before
''')

C("pt_code_sets_recursionlimit_leak_bad", '''
import sys
def deep_sum(xs):
    sys.setrecursionlimit(100)
    return 0 if not xs else xs[0] + deep_sum(xs[1:])
''', '''
import sys
def test_no_limit_change():
    before = sys.getrecursionlimit()
    assert deep_sum([1, 2, 3]) == 6
    assert sys.getrecursionlimit() == before
''')

C("pt_code_warning_filter_leak_bad", '''
import warnings
def parse(s):
    warnings.simplefilter('ignore')
    return int(s)
''', '''
import warnings
import pytest
def test_filters_untouched():
    before = list(warnings.filters)
    assert parse('3') == 3
    assert warnings.filters == before
''')

C("pt_partial_returned_by_code", '''
import functools
def make_adder(n):
    return functools.partial(lambda a, b: a + b, n)
''', '''
import functools
def test_partial():
    add5 = make_adder(5)
    assert add5(1) == 6
    assert isinstance(add5, functools.partial)
    assert add5.args == (5,)
''')


# ================================================================== batch 3
C("pt_np_array_attr_of_test_object_mutated_by_code", '''
def damp(particle, k):
    particle.velocity *= k
    particle.steps += 1
''', '''
import numpy as np
class Particle:
    def __init__(self):
        self.velocity = np.array([2.0, -4.0])
        self.steps = 0
def test_damped_in_place():
    p = Particle()
    v = p.velocity
    damp(p, 0.5)
    assert p.steps == 1
    np.testing.assert_allclose(p.velocity, [1.0, -2.0])
    assert v is p.velocity
''')

C("pt_np_arrays_in_list_changed_in_place", '''
def clip_all(arrays, hi):
    for a in arrays:
        a[a > hi] = hi
''', '''
import numpy as np
def test_clip_each():
    xs = [np.array([1, 5, 9]), np.array([10, 2])]
    clip_all(xs, 4)
    assert xs[0].tolist() == [1, 4, 4]
    assert xs[1].tolist() == [4, 2]
''')

C("pt_contextvar_set_by_test", '''
import contextvars
request_id = contextvars.ContextVar('request_id', default='-')
def log_line(msg):
    return f'[{request_id.get()}] {msg}'
''', '''
def test_context():
    token = request_id.set('abc')
    try:
        assert log_line('hi') == '[abc] hi'
    finally:
        request_id.reset(token)
    assert log_line('x') == '[-] x'
''')

C("pt_threading_local_set_by_test", '''
import threading
_state = threading.local()
def current_user():
    return getattr(_state, 'user', 'anonymous')
def login(name):
    _state.user = name
''', '''
def test_local():
    assert current_user() == 'anonymous'
    _state.user = 'ann'
    assert current_user() == 'ann'
    login('bob')
    assert _state.user == 'bob'
''')

C("pt_traceback_names_code_frame", '''
def parse(s):
    return int(s)
def load(rows):
    return [parse(r) for r in rows]
''', '''
import traceback
import pytest
def test_traceback_mentions_parse():
    try:
        load(['1', 'x'])
    except ValueError:
        tb = traceback.format_exc()
    assert 'in parse' in tb
def test_excinfo_traceback():
    with pytest.raises(ValueError) as ei:
        load(['y'])
    assert ei.traceback[-1].name == 'parse'
''')

C("pt_nan_identity_in_list_eq", '''
import math
def fill_missing(values):
    return [math.nan if v is None else float(v) for v in values]
MISSING = float('nan')
def with_sentinel(values):
    return {k: (MISSING if v is None else v) for k, v in values.items()}
''', '''
import math
def test_nan_list():
    assert fill_missing([1, None]) == [1.0, math.nan]
def test_nan_sentinel():
    assert with_sentinel({'a': None}) == {'a': MISSING}
''')

C("pt_class_getitem_generic_code_class", '''
from typing import Generic, TypeVar
T = TypeVar('T')
class Stack(Generic[T]):
    def __init__(self):
        self._items = []
    def push(self, x: T) -> None:
        self._items.append(x)
    def pop(self) -> T:
        return self._items.pop()
''', '''
def test_generic():
    s = Stack[int]()
    s.push(1)
    s.push(2)
    assert s.pop() == 2
    assert isinstance(s, Stack)
''')

NP_SHARED_T = '''
import numpy as np
class Particle:
    def __init__(self, velocity):
        self.velocity = velocity
def test_shared_start_velocity_untouched():
    start = np.array([2.0, -4.0])
    a, b = Particle(start), Particle(start)
    damp(a, 0.5)
    np.testing.assert_allclose(a.velocity, [1.0, -2.0])
    np.testing.assert_allclose(b.velocity, [2.0, -4.0])
'''
C("pt_np_attr_rebinds_new_array_ok", '''
def damp(particle, k):
    particle.velocity = particle.velocity * k
''', NP_SHARED_T)
C("pt_np_attr_inplace_mutates_shared_bad", '''
def damp(particle, k):
    particle.velocity *= k
''', NP_SHARED_T)


# ============================================================ found by a review of the mends (one process first)

C("pt_code_capturing_context_manager", '''
import io, sys
class Capturing:
    def __enter__(self):
        self._old = sys.stdout
        sys.stdout = self._buf = io.StringIO()
        return self
    def __exit__(self, *a):
        sys.stdout = self._old
        return False
    def value(self):
        return self._buf.getvalue()
def add(a, b):
    return a + b
''', r'''
def test_capture():
    with Capturing() as c:
        print("hi")
    assert c.value() == "hi\n"

def test_after():
    assert add(1, 2) == 3
''')

C("pt_code_keeps_replaced_stdout_bad", '''
import io, sys
def parse(text):
    sys.stdout = io.StringIO()   # kept: the tests' sys.stdout becomes this object
    return int(text) if text.isdigit() else 0   # wrong: should raise ValueError on garbage
''', '''
import pytest
def test_number():
    assert parse("12") == 12

def test_garbage_rejected():
    with pytest.raises(Exception):
        parse("garbage")
''')

C("pt_code_replaces_stdout_then_restores", '''
import io, sys
def quiet():
    sys.stdout = io.StringIO()
    return 1
def loud(x):
    print("loud", x)
    return x
''', '''
import sys
def test_a():
    assert quiet() == 1
    print("from test")
    assert loud(2) == 2
    assert loud(3) == 3

def test_b():
    for i in range(50):
        assert loud(i) == i
''')

C("pt_code_warns_then_ignores_bad", '''
import warnings
def convert(x):
    warnings.warn("float precision lost", UserWarning)   # wrong: must not warn
    warnings.simplefilter("ignore")
    return int(x)
''', '''
import warnings
def test_no_warning():
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert convert(2.0) == 2
''')

C("pt_code_warns_then_ignores_pytest_warns", '''
import warnings
def legacy():
    warnings.warn("old api", DeprecationWarning)
    warnings.simplefilter("ignore")
    return 1
''', '''
import pytest
def test_warns():
    with pytest.warns(DeprecationWarning):
        assert legacy() == 1
''')

C("pt_threads_other_lists_never_wait", '''
import threading, time
class Worker:
    def __init__(self):
        self.done = []
        self.stop = threading.Event()
    def run(self, options):
        while not self.stop.is_set():
            time.sleep(options["poll"])
    def submit(self, items):
        self.done.extend(items)
        return len(self.done)
''', '''
import threading
def test_submit_while_running():
    w = Worker()
    t = threading.Thread(target=w.run, args=({"poll": 0.01},))
    t.start()
    try:
        for i in range(5):
            assert w.submit([i]) == i + 1
    finally:
        w.stop.set()
        t.join()
''')

C("pt_callback_failure_comes_back_to_the_test", '''
def apply(cb, x):
    return cb(x)
''', '''
import pytest
def test_cb():
    def cb(x):
        assert x > 0
        return x
    assert apply(cb, 2) == 2
    with pytest.raises(AssertionError):
        apply(cb, -1)
''')

C("pt_exception_group_message", '''
def validate(items):
    errs = [ValueError(f"bad {i}") for i in items if i < 0]
    if errs:
        raise ExceptionGroup("invalid input", errs)
''', '''
import pytest
def test_group_message():
    with pytest.raises(ExceptionGroup) as ei:
        validate([-1, -2])
    assert ei.value.message == "invalid input"
    assert [str(e) for e in ei.value.exceptions] == ["bad -1", "bad -2"]
''')

C("pt_ordering_raises_any_exception_bad", '''
class Version:
    def __init__(self, text):
        self.parts = tuple(int(p) for p in text.split("."))
    def __lt__(self, other):          # wrong: should refuse non-Version operands
        return self.parts < (other.parts if isinstance(other, Version) else (other,))
''', '''
import pytest
def test_refuses_plain_numbers():
    with pytest.raises(Exception):
        Version("1.2") < 3
''')

C("pt_monkeypatch_datetime_now_year", '''
import datetime
def year():
    return datetime.datetime.now().year
def klass():
    return datetime.datetime.__name__
def today_year():
    return datetime.date.today().year
''', '''
import datetime
class FakeDT(datetime.datetime):
    @classmethod
    def now(cls, tz=None):
        return cls(2000, 1, 1, 9, 0)
class FakeDate(datetime.date):
    @classmethod
    def today(cls):
        return cls(2001, 6, 8)
def test_year(monkeypatch):
    monkeypatch.setattr(datetime, 'datetime', FakeDT)
    assert klass() == "FakeDT"
    assert year() == 2000
def test_today(monkeypatch):
    monkeypatch.setattr(datetime, 'date', FakeDate)
    assert today_year() == 2001
''')

C("pt_threads_rows_with_dates_apart", '''
import datetime
def grid(n, k):
    d = datetime.date(2000, 1, k + 1)
    return [[k, d, [k]] for _ in range(n)]
''', '''
import threading, datetime
def test_threads():
    bad = []
    def run(k):
        d = datetime.date(2000, 1, k + 1)
        for _ in range(25):
            try:
                g = grid(2000, k)
            except KeyError:
                bad.append((k, "KeyError"))
                continue
            wrong = [row for row in g if row != [k, d, [k]]]
            if wrong:
                bad.append((k, "value", wrong[0]))
            if len({id(r) for r in g}) != len(g):
                bad.append((k, "rows shared", len({id(r) for r in g})))
            if len({id(r[2]) for r in g}) != len(g):
                bad.append((k, "inner shared", len({id(r[2]) for r in g})))
    ts = [threading.Thread(target=run, args=(k,)) for k in range(4)]
    for t in ts: t.start()
    for t in ts: t.join()
    assert bad == []
''')

C("pt_one_list_passed_as_two_arguments", '''
def both(x, y):
    x.append(1)
    y.append(2)
''', '''
def test_two_args():
    a = []
    both(a, a)
    assert a == [1, 2]

def test_kw():
    a = [1]
    both(a, y=a)
    assert a == [1, 1, 2]
''')

C("pt_one_list_of_objects_passed_twice", '''
def append_all(dst, src):
    for x in src:          # wrong when dst is src: never ends in one process
        dst.append(x)
        if len(dst) > 100000: raise MemoryError("ran away")
def both(x, y):
    x.append(1)
    return len(y)
''', '''
class B:
    pass
b1, b2 = B(), B()
def test_self_append():
    a = [b1, b2]
    append_all(a, a)
    assert a == [b1, b2, b1, b2]

def test_both():
    a = [b1]
    assert both(a, a) == 2
''')

C("pt_one_list_inside_another_argument", '''
def both(x, y):
    x.append(1)
    return len(y[0])
''', '''
class B:
    pass
def test_mixed():
    a = [1]
    assert both(a, [a, B()]) == 2
''')

C("pt_capturing_inside_capsys", '''
import io, sys
class Capturing:
    def __enter__(self):
        self._old = sys.stdout
        sys.stdout = self._buf = io.StringIO()
        return self
    def __exit__(self, *a):
        sys.stdout = self._old
        return False
    def value(self):
        return self._buf.getvalue()
def hello():
    print("hello")
''', r'''
import sys
def test_cap(capsys):
    with Capturing() as c:
        print("inside")
        hello()
    print("outside")
    hello()
    assert c.value() == "inside\nhello\n"
    assert capsys.readouterr().out == "outside\nhello\n"

def test_plain_after(capsys):
    print("x")
    hello()
    assert capsys.readouterr().out == "x\nhello\n"

def test_stdout_restored():
    before = sys.stdout
    with Capturing():
        pass
    assert sys.stdout is before
''')

C("pt_capturing_inside_redirect_stdout", '''
import io, sys
class Capturing:
    def __enter__(self):
        self._old = sys.stdout
        sys.stdout = self._buf = io.StringIO()
        return self
    def __exit__(self, *a):
        sys.stdout = self._old
        return False
    def value(self):
        return self._buf.getvalue()
''', r'''
import sys, io, contextlib
def test_nested_redirect():
    outer = io.StringIO()
    with contextlib.redirect_stdout(outer):
        with Capturing() as c:
            print("in")
        print("out")
    assert c.value() == "in\n"
    assert outer.getvalue() == "out\n"

def test_tests_own_first():
    mine = io.StringIO()
    old = sys.stdout
    sys.stdout = mine
    try:
        with Capturing() as c:
            print("a")
        print("b")
    finally:
        sys.stdout = old
    assert mine.getvalue() == "b\n"
    assert c.value() == "a\n"
''')

C("pt_code_keeps_stream_across_tests", '''
import io, sys
_buf = io.StringIO()
_saved = []
def start():
    _saved.append(sys.stdout)
    sys.stdout = _buf
def stop():
    sys.stdout = _saved.pop()
    return _buf.getvalue()
''', r'''
import sys
def test_one(capsys):
    print("a")
    assert capsys.readouterr().out == "a\n"
    start()

def test_two():
    before = sys.stdout
    print("to buffer")
    got = stop()
    assert got == "to buffer\n"
    print("visible")
    assert sys.stdout is sys.__stdout__ or sys.stdout is not before
''')

C("pt_threads_echo_lists_back", '''
import datetime
class P:
    def __init__(self, n): self.n = n
def echo(xs):
    return [xs, [P(len(xs))], datetime.date(2000, 1, 1 + len(xs) % 28)]
''', '''
import threading
class B:
    pass
def test_threads():
    errors = []
    def work(k):
        try:
            for i in range(60):
                b = B()
                xs = [b] * k + [{"k": k}]
                r = echo(xs)
                assert r[0][0] is b and r[0][-1] == {"k": k}, (k, r)
                assert r[1][0].n == k + 1
        except BaseException as e:
            errors.append(repr(e))
    ts = [threading.Thread(target=work, args=(k,)) for k in range(1, 5)]
    for t in ts: t.start()
    for t in ts: t.join()
    assert errors == []
''')

C("pt_tests_subclass_of_code_value_class_now", '''
import datetime
class Stamp(datetime.date):
    def isoformat(self):
        return "D" + super().isoformat()
class Later(Stamp):
    pass
class Clock(datetime.datetime):
    @classmethod
    def now(cls, tz=None):
        return cls(2000, 1, 1)
class SubClock(Clock):
    pass
def make():
    return Later(2020, 1, 2)
''', '''
import datetime
def test_inherited_override():
    assert str(make()) == "D2020-01-02"
def test_inherited_classmethod():
    assert SubClock.now() == datetime.datetime(2000, 1, 1)
    assert type(SubClock.now()).__name__ == "SubClock"
def test_tests_subclass():
    class Mine(Stamp):
        pass
    assert Mine(2020, 1, 2).isoformat() == "D2020-01-02"
def test_tests_subclass_now():
    class MyClock(Clock):
        pass
    assert type(MyClock.now()).__name__ == "MyClock"
''')


# ------------------------------------------------------------------ standard objects, a NaN's identity (the mend)
# Wrong code beside the right one where one process tells them apart: what the mend compares by data must still
# fail an answer whose data is wrong.
C("pt_namespace_array_view_wrong_data", '''
from types import SimpleNamespace, MappingProxyType
from array import array
from collections import ChainMap
def parse(argv):
    return SimpleNamespace(verbose='-v' not in argv, files=list(argv))
def squares(n):
    return array('i', (i * i for i in range(n + 1)))
def frozen(d):
    return MappingProxyType(dict(d, extra=1))
def layered(defaults, overrides):
    return ChainMap(defaults, overrides)
''', '''
from types import SimpleNamespace
from array import array
def test_namespace():
    assert parse(['-v']) == SimpleNamespace(verbose=True, files=['-v'])
def test_array():
    assert squares(3) == array('i', [0, 1, 4])
def test_array_order():
    assert squares(2) < array('i', [0, 1, 5])
def test_view():
    assert frozen({'a': 1}) == {'a': 1}
def test_layers():
    assert layered({'x': 1}, {'x': 2}) == {'x': 2}
''')

C("pt_namespace_passed_to_code_and_changed", '''
from types import SimpleNamespace
def bump(ns):
    ns.count += 1
    return ns
def same_as(ns, **fields):
    return ns == SimpleNamespace(**fields)
''', '''
from types import SimpleNamespace
def test_bump_in_place():
    ns = SimpleNamespace(count=1)
    assert bump(ns) is ns
    assert ns == SimpleNamespace(count=2)
def test_code_compares():
    assert same_as(SimpleNamespace(a=1), a=1)
    assert not same_as(SimpleNamespace(a=1), a=2)
''')

C("pt_code_mapping_wrong_items_and_mutable", '''
from collections.abc import Mapping, MutableMapping
class Frozen(Mapping):
    def __init__(self, d):
        self._d = dict(d)
    def __getitem__(self, k):
        return self._d[k] * 10
    def __iter__(self):
        return iter(self._d)
    def __len__(self):
        return len(self._d)
class Store(MutableMapping):
    def __init__(self):
        self._d = {}
    def __getitem__(self, k):
        return self._d[k]
    def __setitem__(self, k, v):
        self._d[k.lower()] = v
    def __delitem__(self, k):
        del self._d[k]
    def __iter__(self):
        return iter(self._d)
    def __len__(self):
        return len(self._d)
''', '''
from collections.abc import Mapping, MutableMapping
def test_items_read_through_the_class():
    assert Frozen({'a': 1}) == {'a': 1}
def test_mutable_mapping():
    s = Store()
    s['A'] = 1
    assert isinstance(s, MutableMapping) and isinstance(s, Mapping)
    assert s == {'a': 1}
    assert s != {'A': 1}
''')

C("pt_code_dict_subclass_json_and_isinstance", '''
import json
class Record(dict):
    def __init__(self, **fields):
        super().__init__(**fields)
        self['kind'] = type(self).__name__.lower()
class Note(Record):
    pass
def dump(r):
    return json.dumps(r, sort_keys=True)
''', '''
import json
def test_isinstance_and_json():
    n = Note(text='hi')
    assert isinstance(n, dict) and isinstance(n, Record) and isinstance(n, Note)
    assert json.dumps(n, sort_keys=True) == '{"kind": "note", "text": "hi"}'
    assert dump(n) == json.dumps(dict(n), sort_keys=True)
def test_wrong_kind():
    assert Note(text='hi')['kind'] == 'record'
''')

C("pt_nan_identity_two_nans_and_math_nan", '''
import math
def readings(raw):
    return [float('nan') if r is None else r for r in raw]
def gaps(raw):
    return [math.nan if r is None else r for r in raw]
''', '''
import math
def test_two_made_apart_differ():
    assert readings([None, 1.0]) != readings([None, 1.0])
def test_math_nan_is_math_nan():
    assert gaps([None, 2.0]) == [math.nan, 2.0]
    assert gaps([None])[0] is math.nan
def test_wrong_expectation():
    assert readings([None]) == [math.nan]
''')

C("pt_code_fraction_subclass_returned", '''
from fractions import Fraction
class Money(Fraction):
    def cents(self):
        return int(self * 100)
def price(a, b):
    return Money(a, b)
''', '''
from fractions import Fraction
def test_value_and_method():
    p = price(3, 2)
    assert p == Fraction(3, 2) and isinstance(p, Fraction)
    assert p.cents() == 150
def test_wrong():
    assert price(1, 3).cents() == 34
''')

C("pt_list_that_holds_itself", '''
class Tree:
    def __init__(self):
        self.children = []
        self.children.append(self.children)
def grow(xs):
    xs.append(xs)
    return len(xs)
def loop():
    a = [1]
    a.append(a)
    return a
''', '''
def test_returned():
    a = loop()
    assert a[1] is a and a[0] == 1
def test_held_by_object():
    t = Tree()
    assert t.children[0] is t.children
def test_argument_made_to_hold_itself():
    a = [1]
    assert grow(a) == 2
    assert a[1] is a
def test_wrong():
    assert loop()[1] is not loop()
    assert len(loop()) == 3
''')


# ================================================================== found by a review of the third round's mends
C("pt_code_dict_subclass_class_called_and_json_default", '''
class Record(dict):
    def __init__(self, **fields):
        super().__init__(**fields)
        self['kind'] = type(self).__name__.lower()
class Note(Record):
    pass
class Items(list):
    pass
def make():
    return Note(text='hi')
''', '''
import copy, json
def test_class_called():
    n = make()
    assert n.__class__(text='x')['kind'] == 'note'
    assert issubclass(n.__class__, Record) and isinstance(n, Note)
def test_copy():
    n = make()
    c = copy.copy(n)
    assert isinstance(c, Note) and c == n
def test_json_with_default_and_cls():
    assert json.dumps(make(), default=str, sort_keys=True) == '{"kind": "note", "text": "hi"}'
    class E(json.JSONEncoder):
        def default(self, o):
            return 'X'
    assert json.dumps({'r': Items([1])}, cls=E) == '{"r": [1]}'
def test_wrong():
    assert make()['kind'] == 'record'
''')

C("pt_nan_sent_back_and_many_nans", '''
def clean(xs):
    return [v for v in xs if v is not None]
def _make_row():
    missing = float('nan')
    def row():
        return [1.0, missing]
    return row
row = _make_row()
def many(n):
    return [float('nan') for _ in range(n)]
''', '''
NAN = float('nan')
def test_tests_nan_comes_back_as_itself():
    assert clean([1.0, None, NAN]) == [1.0, NAN]
    assert clean([NAN, None, NAN]).count(NAN) == 2
def test_identity_kept_after_many():
    many(5000)
    assert row() == row()
def test_wrong_ne():
    many(5000)
    assert row() != row()
''')

C("pt_list_that_holds_itself_deeper", '''
def grow(xs):
    xs.append({'up': xs})
    return len(xs)
def grow2(xs):
    xs.append([xs])
''', '''
def test_nested_self():
    a = [1]
    assert grow(a) == 2
    assert a[1]['up'] is a
def test_nested_self_mutation():
    a = [1]
    grow2(a)
    a[1][0].append(7)
    assert a[-1] == 7
def test_wrong():
    a = [1]
    grow(a)
    assert a[1]['up'] == [1]
''')

C("pt_code_set_abc_compared", '''
from collections.abc import Set
class Bag(Set):
    def __init__(self, items):
        self._s = frozenset(items)
    def __contains__(self, x):
        return x in self._s
    def __iter__(self):
        return iter(self._s)
    def __len__(self):
        return len(self._s)
class Odd(Bag):
    def __len__(self):
        return 99
''', '''
from collections.abc import Set
def test_set_eq():
    b = Bag([1, 2])
    assert isinstance(b, Set)
    assert b == {1, 2} and b != {1, 3}
def test_wrong_ne():
    assert Bag([1, 2]) != {1, 2}
def test_wrong_len():
    assert Odd([1, 2]) == {1, 2}
''')

C("pt_code_object_ne_tests_data", '''
class Money:
    def __init__(self, cents):
        self.cents = cents
    def __eq__(self, other):
        if isinstance(other, int):
            return self.cents == other
        return NotImplemented
class Plain:
    pass
''', '''
def test_ne_decided_as_one_process():
    assert Money(5) != 6
    assert Plain() != 5
def test_wrong_ne():
    assert Money(5) != 5
''')


# ================================================================== numpy arrays held, not copied (the mend)
NP_STATE_T = '''
import numpy as np
import pytest
def test_reads_like_an_array():
    w = Model().weights()
    assert w.dtype == np.float64 and w.shape == (3,) and isinstance(w, np.ndarray)
    np.testing.assert_array_equal(w, [1.0, 2.0, 3.0])
    assert w == pytest.approx([1.0, 2.0, 3.0])
    assert w.sum() == 6.0 and w.tolist() == [1.0, 2.0, 3.0] and w[1] == 2.0 and len(w) == 3
    assert np.dot(w, np.ones(3)) == 6.0 and (w @ np.ones(3)) == 6.0
    assert w[w > 1].tolist() == [2.0, 3.0]
    assert repr(w) == 'array([1., 2., 3.])'
def test_write_through_a_row():
    m = Model()
    r = m.row(1)
    r[0] = 5
    assert m.total() == 5
def test_fresh_result():
    s = Model().scaled(2)
    assert type(s) is np.ndarray and s.tolist() == [2.0, 4.0, 6.0]
'''
C("pt_np_state_array_read_by_tests_ok", '''
import numpy as np
class Model:
    def __init__(self):
        self.w = np.array([1.0, 2.0, 3.0])
        self.grid = np.zeros((2, 3), dtype=int)
    def weights(self):
        return self.w
    def row(self, i):
        return self.grid[i]
    def total(self):
        return int(self.grid.sum())
    def scaled(self, k):
        return self.w * k
''', NP_STATE_T)
C("pt_np_state_array_read_by_tests_bad", '''
import numpy as np
class Model:
    def __init__(self):
        self.w = np.array([1, 2, 3])
        self.grid = np.zeros((2, 3), dtype=int)
    def weights(self):
        return self.w
    def row(self, i):
        return self.grid[i].copy()
    def total(self):
        return int(self.grid.sum())
    def scaled(self, k):
        return list(self.w * k)
''', NP_STATE_T)

C("pt_np_code_reads_tests_object_array", '''
import numpy as np
def speed(p):
    return float(np.linalg.norm(p.velocity))
def stop(p):
    p.velocity[:] = 0
def kept_list(arrays):
    global KEPT
    KEPT = arrays
def total():
    return float(sum(a.sum() for a in KEPT))
''', '''
import numpy as np
class Particle:
    def __init__(self):
        self.velocity = np.array([3.0, 4.0])
def test_read():
    assert speed(Particle()) == 5.0
def test_changed_in_place():
    p = Particle()
    v = p.velocity
    stop(p)
    assert v.tolist() == [0.0, 0.0] and p.velocity is v
def test_arrays_in_a_kept_list():
    a = np.ones(2)
    kept_list([a])
    a[0] = 5
    assert total() == 6.0
''')


# ================================================================== found by a review of the numpy mend
C("pt_np_inplace_divide_shared_and_readonly_input_bad", '''
import numpy as np
def slow_all(bodies):
    for b in bodies:
        b.velocity /= 2
def normalize(x):
    x /= x.sum()
    return x.copy()
''', '''
import numpy as np
class P:
    def __init__(self, v):
        self.velocity = v
def test_shared_array_halved_once():
    v = np.array([2.0, 4.0])
    a, b = P(v), P(v)
    slow_all([a, b])
    assert a.velocity.tolist() == [1.0, 2.0]
def test_does_not_touch_input():
    w = np.array([1.0, 3.0])
    w.flags.writeable = False
    assert normalize(w).tolist() == [0.25, 0.75]
''')

C("pt_np_rows_approx_types_ok", '''
import numpy as np
class Board:
    def __init__(self):
        self.grid = np.zeros((2, 3), dtype=int)
        self.w = np.array([1.0, 2.0, 3.0])
    def total(self):
        return int(self.grid.sum())
    def weights(self):
        return self.w
def cast(a, t):
    return a.astype(t)
''', '''
import numpy as np
import pytest
def test_write_through_rows():
    b = Board()
    for row in b.grid:
        row[0] = 1
    assert b.total() == 2
def test_approx_on_the_left():
    assert pytest.approx([1.0, 2.0, 3.0]) == Board().weights()
    assert pytest.approx(np.array([1.0, 2.0, 3.0])) == Board().weights()
def test_scalar_types_cross():
    assert Board().weights().astype(np.float32).dtype == np.float32
    assert cast(np.arange(3), np.int16).dtype == np.int16
def test_two_live_arrays_compared_here():
    b = Board()
    assert (b.weights() == b.weights()).all()
''')

C("pt_code_object_of_a_subclass_after_a_test_subclass", '''
class Base:
    def describe(self):
        return ['base']
class Timestamped(Base):
    def describe(self):
        return ['ts'] + super().describe()
def make():
    return Timestamped()
''', '''
class Tagged(Base):
    def describe(self):
        return ['tag'] + super().describe()
def test_code_object_after_test_subclass():
    assert Tagged().describe() == ['tag', 'base']
    assert make().describe() == ['ts', 'base']
    assert Base().describe() == ['base']
def test_wrong():
    assert make().describe() == ['tag', 'ts', 'base']
''')

C("pt_tests_list_kept_in_a_code_global", '''
KEPT = None
def keep(xs):
    global KEPT
    KEPT = xs
    xs.append(5)
def kept():
    return KEPT
def keep_copy(xs):
    global KEPT
    KEPT = list(xs)
''', '''
def test_kept_is_the_tests_own():
    a = [0]
    keep(a)
    assert kept() is a and KEPT is a
    assert a == [0, 5]
    a.append(6)
    assert kept() == [0, 5, 6]
def test_wrong():
    a = [0]
    keep_copy(a)
    assert kept() is a
''')

# ------------------------------------------------------------------ lifetimes: what the tests let go of
RESOURCE = '''
CLOSED = []
class Resource:
    def __init__(self, name, on_close=None):
        self.name = name
        self.on_close = on_close
    def __del__(self):
        CLOSED.append(self.name)
        if self.on_close:
            self.on_close(self.name)
class Node:
    def __init__(self, name):
        self.name = name
        self.me = self  # a cycle: only a collection frees it
    def __del__(self):
        CLOSED.append(self.name)
'''
C("pt_finalizer_calls_the_tests_back_after_collect", RESOURCE, '''
import gc
def test_closed_through_the_callback():
    seen = []
    r = Resource('db', seen.append)
    del r
    gc.collect()
    assert seen == ['db']
def test_a_cycle_of_the_codes_is_collected():
    CLOSED.clear()
    n = Node('n')
    del n
    gc.collect()
    assert CLOSED == ['n']
def test_kept_by_the_test_is_not_closed():
    CLOSED.clear()
    keep = [Resource('a'), Resource('b')]
    keep.pop()
    gc.collect()
    assert CLOSED == ['b'] and keep[0].name == 'a'
''')
CACHE_WEAK = '''
import weakref
class Image:
    def __init__(self, name):
        self.name = name
_cache = weakref.WeakValueDictionary()
def load(name):
    img = _cache.get(name)
    if img is None:
        img = _cache[name] = Image(name)
    return img
'''
CACHE_STRONG = CACHE_WEAK.replace("weakref.WeakValueDictionary()", "{}")
WEAK_TESTS = '''
import gc, weakref
def test_let_go_of_is_gone():
    w = weakref.ref(load('x'))
    gc.collect()
    assert w() is None
def test_the_same_object_while_held_and_a_new_one_after():
    a = load('y')
    w = weakref.ref(a)
    assert load('y') is a and w() is a
    del a
    gc.collect()
    b = load('y')
    assert load('y') is b and w() is None
def test_finalize_and_weak_keys():
    done = []
    img = load('z')
    weakref.finalize(img, done.append, 'z')
    sizes = weakref.WeakKeyDictionary({img: 3})
    assert sizes[load('z')] == 3
    del img
    gc.collect()
    assert done == ['z'] and len(sizes) == 0
'''
C("pt_weakref_of_the_tests_to_a_cache_that_lets_go", CACHE_WEAK, WEAK_TESTS)
C("pt_weakref_of_the_tests_to_a_cache_that_keeps_bad", CACHE_STRONG, WEAK_TESTS)
C("pt_weakref_of_the_tests_outlives_their_reference_while_the_code_keeps_it", CACHE_STRONG, '''
import gc, weakref
def test_kept_by_the_code():
    w = weakref.ref(load('k'))
    gc.collect()
    assert w() is not None and w().name == 'k' and w() is load('k')
''')
C("pt_many_objects_let_go_from_two_threads",
  CACHE_WEAK.replace("def load", "def count():\n    return len(_cache)\ndef load"), '''
import gc, threading
def test_threads():
    def work(prefix):
        for i in range(200):
            a = load(f'{prefix}{i % 7}')
            assert a.name == f'{prefix}{i % 7}'
            del a
    threads = [threading.Thread(target=work, args=(p,)) for p in 'ab']
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    gc.collect()
    assert count() == 0
    kept = [load('q'), load('r')]
    gc.collect()
    assert count() == 2 and [k.name for k in kept] == ['q', 'r']
''')
C("pt_finalizer_runs_at_del_before_any_call", RESOURCE, '''
def test_closed_at_del():
    seen = []
    r = Resource('db', seen.append)
    del r
    assert seen == ['db']
''')
