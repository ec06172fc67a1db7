"""Ordinary tests that share state with the code, each (name, code, tests), for
tests/test_sandbox_against_one_process.py: the sandbox's verdict of each test must be what one Python process says
of the code and the tests in one file (pytest, unittest, or the file itself). Written by a differential run of the
sandbox against one process; tests refer to the code's names directly."""
from textwrap import dedent as d

CASES = []


def C(name, code, tests):
    CASES.append((name, d(code).strip() + "\n", d(tests).strip() + "\n"))


# ---------------------------------------------------------------- unittest: dict/list attribute of a code object
INV = '''
class Inventory:
    def __init__(self):
        self.stock = {'apple': 3, 'pear': 2}
        self.prices = {'apple': 1.0, 'pear': 2.0}
    def total(self):
        return sum(self.stock[k] * self.prices[k] for k in self.stock)
'''
INV_BAD = '''
class Inventory:
    def __init__(self):
        self.stock = {'apple': 3, 'pear': 2}
        self.prices = {'apple': 1.0, 'pear': 2.0}
        self._total = None
    def total(self):
        if self._total is None:
            self._total = sum(self.stock[k] * self.prices[k] for k in self.stock)
        return self._total
'''
INV_T = '''
import unittest
class TestInv(unittest.TestCase):
    def setUp(self):
        self.inv = Inventory()
    def test_initial(self):
        self.assertEqual(self.inv.total(), 7.0)
    def test_after_sale(self):
        self.inv.total()
        self.inv.stock['apple'] -= 1
        self.assertEqual(self.inv.total(), 6.0)
    def test_new_item(self):
        self.inv.total()
        self.inv.stock['kiwi'] = 2
        self.inv.prices['kiwi'] = 0.5
        self.assertEqual(self.inv.total(), 8.0)
    def test_clear(self):
        self.inv.stock.clear()
        self.assertEqual(self.inv.total(), 0)
'''
C("ut_inventory_stock_ok", INV, INV_T)
C("ut_inventory_stock_bad_cached", INV_BAD, INV_T)

C("ut_list_attr_append_len", '''
class Playlist:
    def __init__(self, name):
        self.name = name
        self.songs = []
    def add(self, s):
        self.songs.append(s)
    def __len__(self):
        return len(self.songs)
    def duration(self):
        return sum(d for _, d in self.songs)
''', '''
import unittest
class TestPlaylist(unittest.TestCase):
    def setUp(self):
        self.p = Playlist('mix')
        self.p.add(('a', 100))
    def test_append_direct(self):
        self.p.songs.append(('b', 50))
        self.assertEqual(len(self.p), 2)
        self.assertEqual(self.p.duration(), 150)
    def test_extend_and_pop(self):
        self.p.songs += [('c', 10), ('d', 20)]
        self.p.songs.pop(0)
        self.assertEqual(self.p.duration(), 30)
    def test_replace_list(self):
        new = [('x', 1)]
        self.p.songs = new
        new.append(('y', 2))
        self.assertEqual(self.p.duration(), 3)
        self.assertIs(self.p.songs, new)
''')

C("ut_nested_dict_students", '''
class School:
    def __init__(self):
        self.students = {}
    def enroll(self, name, grade):
        self.students[name] = {'grade': grade, 'courses': []}
    def average(self):
        return sum(s['grade'] for s in self.students.values()) / len(self.students)
    def course_count(self):
        return sum(len(s['courses']) for s in self.students.values())
''', '''
import unittest
class TestSchool(unittest.TestCase):
    def setUp(self):
        self.s = School()
        self.s.enroll('Al', 80)
        self.s.enroll('Bo', 90)
    def test_modify_nested(self):
        self.s.students['Al']['grade'] = 100
        self.assertEqual(self.s.average(), 95)
    def test_nested_list(self):
        self.s.students['Bo']['courses'].append('math')
        al = self.s.students['Al']
        al['courses'].extend(['art', 'bio'])
        self.assertEqual(self.s.course_count(), 3)
    def test_insert_whole(self):
        rec = {'grade': 60, 'courses': []}
        self.s.students['Cy'] = rec
        rec['grade'] = 30
        self.assertEqual(self.s.average(), (80 + 90 + 30) / 3)
''')

# ---------------------------------------------------------------- module-level globals
C("pt_global_list_registry", '''
REGISTRY = []
def register(name):
    REGISTRY.append(name)
    return len(REGISTRY)
def count():
    return len(REGISTRY)
''', '''
import pytest
@pytest.fixture(autouse=True)
def clean():
    REGISTRY.clear()
    yield
    REGISTRY.clear()
def test_register():
    assert register('a') == 1
    assert REGISTRY == ['a']
def test_external_append():
    REGISTRY.append('z')
    REGISTRY.extend(['y', 'x'])
    assert count() == 3
    assert register('w') == 4
def test_del():
    register('a'); register('b')
    del REGISTRY[0]
    assert count() == 1
''')

C("pt_global_dict_config", '''
CONFIG = {'debug': False, 'level': 1}
def describe():
    return ('DEBUG' if CONFIG['debug'] else 'normal') + str(CONFIG['level'])
''', '''
def test_default():
    assert describe() == 'normal1'
def test_change():
    CONFIG['debug'] = True
    CONFIG.update(level=3)
    try:
        assert describe() == 'DEBUG3'
    finally:
        CONFIG.update(debug=False, level=1)
def test_monkeypatch_setitem(monkeypatch):
    monkeypatch.setitem(CONFIG, 'level', 9)
    assert describe() == 'normal9'
def test_after_monkeypatch():
    assert CONFIG['level'] == 1
''')

C("pt_global_int_counter_read", '''
counter = 0
def increment():
    global counter
    counter += 1
    return counter
''', '''
def test_counter_global():
    start = counter
    increment(); increment()
    assert counter == start + 2
''')

C("plain_global_int_counter_read", '''
counter = 0
def increment():
    global counter
    counter += 1
''', '''
increment()
increment()
assert counter == 2
''')

C("plain_global_rebind_flag", '''
DEBUG = False
def mode():
    return 'debug' if DEBUG else 'prod'
''', '''
assert mode() == 'prod'
DEBUG = True
assert mode() == 'debug'
''')

C("ut_global_rebind_in_setup", '''
_items = []
def add(x):
    _items.append(x)
def total():
    return sum(_items)
''', '''
import unittest
class T(unittest.TestCase):
    def setUp(self):
        global _items
        _items = []
    def test_one(self):
        add(1); add(2)
        self.assertEqual(total(), 3)
    def test_two(self):
        add(5)
        self.assertEqual(total(), 5)
''')

# ---------------------------------------------------------------- tests hand containers to the code
STORE_OK = '''
class Menu:
    def __init__(self, items):
        self.items = items          # keeps the caller's list (documented: live)
    def count(self):
        return len(self.items)
'''
C("pt_stored_list_then_mutate", STORE_OK, '''
def test_live():
    items = ['soup']
    m = Menu(items)
    items.append('salad')
    items.append('cake')
    assert m.count() == 3
    m.items.remove('soup')
    assert items == ['salad', 'cake']
''')

COPY_OK = '''
class Snapshot:
    def __init__(self, data):
        self.data = {k: list(v) for k, v in data.items()}
    def get(self, k):
        return list(self.data[k])
'''
COPY_BAD = '''
class Snapshot:
    def __init__(self, data):
        self.data = dict(data)      # shallow: inner lists shared with the caller
    def get(self, k):
        return list(self.data[k])
'''
COPY_T = '''
def test_defensive_copy():
    src = {'a': [1, 2]}
    s = Snapshot(src)
    src['a'].append(3)
    src['b'] = [9]
    assert s.get('a') == [1, 2]
    assert 'b' not in s.data
'''
C("pt_defensive_copy_ok", COPY_OK, COPY_T)
C("pt_defensive_copy_bad_shallow", COPY_BAD, COPY_T)

C("pt_stored_ref_bad_no_copy", '''
class Team:
    def __init__(self, members):
        self.members = members      # should have copied
    def size(self):
        return len(self.members)
''', '''
def test_team_not_affected_by_caller():
    names = ['a', 'b']
    t = Team(names)
    names.append('c')
    assert t.size() == 2
''')

C("pt_inplace_sort_arg", '''
def sort_in_place(arr):
    arr.sort()
''', '''
def test_sorted():
    a = [3, 1, 2]
    assert sort_in_place(a) is None
    assert a == [1, 2, 3]
''')

C("ut_leetcode_move_zeroes", '''
class Solution:
    def moveZeroes(self, nums):
        """Do not return anything, modify nums in-place instead."""
        j = 0
        for i in range(len(nums)):
            if nums[i] != 0:
                nums[j], nums[i] = nums[i], nums[j]
                j += 1
''', '''
import unittest
class T(unittest.TestCase):
    def test_move(self):
        nums = [0, 1, 0, 3, 12]
        Solution().moveZeroes(nums)
        self.assertEqual(nums, [1, 3, 12, 0, 0])
    def test_all_zero(self):
        nums = [0, 0]
        Solution().moveZeroes(nums)
        self.assertEqual(nums, [0, 0])
''')

C("plain_rotate_matrix_inplace", '''
def rotate(matrix):
    n = len(matrix)
    for i in range(n):
        for j in range(i + 1, n):
            matrix[i][j], matrix[j][i] = matrix[j][i], matrix[i][j]
    for row in matrix:
        row.reverse()
''', '''
m = [[1, 2, 3], [4, 5, 6], [7, 8, 9]]
first_row = m[0]
rotate(m)
assert m == [[7, 4, 1], [8, 5, 2], [9, 6, 3]]
assert first_row == [7, 4, 1]
''')

C("pt_must_not_mutate_input_bad", '''
def top3(nums):
    nums.sort(reverse=True)
    return nums[:3]
''', '''
def test_top3_value():
    assert top3([5, 1, 9, 3, 7]) == [9, 7, 5]
def test_input_untouched():
    data = [5, 1, 9, 3, 7]
    top3(data)
    assert data == [5, 1, 9, 3, 7]
''')

C("pt_must_not_mutate_input_ok", '''
def top3(nums):
    return sorted(nums, reverse=True)[:3]
''', '''
def test_top3_value():
    assert top3([5, 1, 9, 3, 7]) == [9, 7, 5]
def test_input_untouched():
    data = [5, 1, 9, 3, 7]
    top3(data)
    assert data == [5, 1, 9, 3, 7]
''')

C("pt_shallow_copy_nested_cfg_bad", '''
def with_defaults(cfg):
    out = dict(cfg)
    out['opts']['retries'] = out['opts'].get('retries', 3)
    return out
''', '''
def test_result():
    assert with_defaults({'opts': {}})['opts'] == {'retries': 3}
def test_original_unchanged():
    cfg = {'opts': {'timeout': 1}}
    with_defaults(cfg)
    assert cfg == {'opts': {'timeout': 1}}
''')

C("pt_records_mutated_in_place", '''
def normalize(records):
    for r in records:
        r['name'] = r['name'].strip().title()
        r.setdefault('tags', []).append('seen')
''', '''
def test_normalize_in_place():
    recs = [{'name': '  ann '}, {'name': 'BOB', 'tags': ['x']}]
    second = recs[1]
    normalize(recs)
    assert recs[0] == {'name': 'Ann', 'tags': ['seen']}
    assert second['tags'] == ['x', 'seen']
''')

C("plain_aliased_rows_grid", '''
def set_cell(grid, r, c, v):
    grid[r][c] = v
''', '''
grid = [[0] * 2] * 2
set_cell(grid, 0, 0, 1)
assert grid == [[1, 0], [1, 0]]
''')

C("plain_aliased_rows_unaliased_by_code", '''
def set_cell(grid, r, c, v):
    grid[r] = list(grid[r])
    grid[r][c] = v
''', '''
grid = [[0] * 2] * 2
row = grid[1]
set_cell(grid, 0, 0, 1)
assert grid == [[1, 0], [0, 0]]
assert grid[1] is row
set_cell(grid, 1, 1, 5)
assert row == [0, 0] and grid[1] == [0, 5]
''')

C("pt_aliased_dict_values_and_objects", '''
def bump(counts, key):
    counts[key]['n'] += 1

def paint(grid, colour):
    for cell in grid[0]:
        cell.colour = colour
    return grid
''', '''
class Cell:
    def __init__(self):
        self.colour = None

def test_one_dict_under_two_keys():
    shared = {'n': 0}
    counts = {'a': shared, 'b': shared}
    bump(counts, 'a')
    bump(counts, 'b')
    assert counts['b'] == {'n': 2} and shared['n'] == 2

def test_rows_of_objects_held_twice():
    row = [Cell(), Cell()]
    grid = [row, row]
    assert paint(grid, 'red') is grid
    assert [c.colour for c in grid[1]] == ['red', 'red']
    grid[0].append(Cell())
    assert len(grid[1]) == 3
''')

C("pt_dict_arg_mutated_discount", '''
def apply_discount(cart, pct):
    cart['total'] = round(cart['total'] * (1 - pct), 2)
    cart.setdefault('applied', []).append(pct)
''', '''
def test_discount_in_place():
    cart = {'total': 100.0}
    apply_discount(cart, 0.1)
    apply_discount(cart, 0.5)
    assert cart == {'total': 45.0, 'applied': [0.1, 0.5]}
''')

C("pt_test_object_mutated_by_code", '''
def add_item(order, item, price):
    order.items.append(item)
    order.total += price
''', '''
class Order:
    def __init__(self):
        self.items = []
        self.total = 0
def test_order():
    o = Order()
    add_item(o, 'tea', 3)
    add_item(o, 'cake', 4)
    assert o.items == ['tea', 'cake']
    assert o.total == 7
''')

# ---------------------------------------------------------------- objects returned by code
CART = '''
class Cart:
    def __init__(self):
        self.items = []
    def add(self, x):
        self.items.append(x)
        return self
'''
C("pt_copy_copy_shares_list", CART, '''
import copy
def test_shallow_copy_shares():
    c = Cart().add('a').add('b')
    c2 = copy.copy(c)
    c2.items.append('c')
    assert c.items == ['a', 'b', 'c']
    assert c2 is not c
def test_deepcopy_independent():
    c = Cart().add('a')
    c3 = copy.deepcopy(c)
    c3.items.append('z')
    assert c.items == ['a']
    assert c3.items == ['a', 'z']
def test_list_of_items_snapshot():
    c = Cart().add('a')
    snap = list(c.items)
    c.add('b')
    snap.append('q')
    assert snap == ['a', 'q']
    assert c.items == ['a', 'b']
''')

C("pt_dataclass_replace_frozen", '''
from dataclasses import dataclass, field
@dataclass(frozen=True)
class Point:
    x: int
    y: int
    def moved(self, dx, dy):
        return Point(self.x + dx, self.y + dy)
@dataclass
class Bag:
    name: str
    things: list = field(default_factory=list)
''', '''
import dataclasses, pytest
def test_replace():
    p = Point(1, 2)
    q = dataclasses.replace(p, y=5)
    assert q == Point(1, 5) and p == Point(1, 2)
    assert q.moved(1, 1) == Point(2, 6)
def test_frozen():
    p = Point(1, 2)
    with pytest.raises(dataclasses.FrozenInstanceError):
        p.x = 3
def test_replace_shares_list():
    b = Bag('b', [1])
    b2 = dataclasses.replace(b, name='c')
    b2.things.append(2)
    assert b.things == [1, 2]
    assert dataclasses.asdict(b) == {'name': 'b', 'things': [1, 2]}
def test_hash_set():
    assert len({Point(1, 2), Point(1, 2), Point(2, 1)}) == 2
''')

C("pt_exposed_internal_list_bad", '''
class Leaderboard:
    def __init__(self):
        self._scores = []
    def add(self, s):
        self._scores.append(s)
    def scores(self):
        return self._scores            # should return a copy
    def first(self):
        return self._scores[0]
''', '''
def test_scores_copy():
    lb = Leaderboard()
    for s in (5, 9, 1):
        lb.add(s)
    got = lb.scores()
    got.sort()
    assert lb.first() == 5
''')

C("pt_exposed_internal_list_ok", '''
class Leaderboard:
    def __init__(self):
        self._scores = []
    def add(self, s):
        self._scores.append(s)
    def scores(self):
        return list(self._scores)
    def first(self):
        return self._scores[0]
''', '''
def test_scores_copy():
    lb = Leaderboard()
    for s in (5, 9, 1):
        lb.add(s)
    got = lb.scores()
    got.sort()
    assert got == [1, 5, 9]
    assert lb.first() == 5
    assert lb.scores() is not lb.scores()
''')

C("pt_is_identity_checks", '''
_cache = {}
def get_list(key):
    if key not in _cache:
        _cache[key] = []
    return _cache[key]
def ensure_list(x):
    return x if isinstance(x, list) else [x]
class Node:
    def __init__(self, v):
        self.v = v
        self.children = []
    def add(self, n):
        self.children.append(n)
        return n
''', '''
def test_same_cached_list():
    a = get_list('k')
    b = get_list('k')
    assert a is b
    a.append(1)
    assert b == [1]
def test_ensure_list_identity():
    mine = [1, 2]
    assert ensure_list(mine) is mine
def test_node_identity():
    root = Node(0)
    c = root.add(Node(1))
    assert root.children[0] is c
    assert root.children[0].v == 1
''')

C("pt_dict_keys_view_live", '''
class Registry:
    def __init__(self):
        self._d = {}
    def add(self, k, v):
        self._d[k] = v
    def names(self):
        return self._d.keys()
''', '''
def test_keys_view():
    r = Registry()
    r.add('a', 1)
    ks = r.names()
    r.add('b', 2)
    assert 'b' in ks
    assert sorted(ks) == ['a', 'b']
''')

# ---------------------------------------------------------------- mutable default argument pitfall
C("pt_mutable_default_bad", '''
def add_item(item, bucket=[]):
    bucket.append(item)
    return bucket
''', '''
def test_fresh_each_time():
    assert add_item(1) == [1]
    assert add_item(2) == [2]
''')

C("pt_mutable_default_mutate_result", '''
def add_item(item, bucket=[]):
    bucket.append(item)
    return bucket
''', '''
def test_shared_default_observed():
    a = add_item(1)
    a.append(99)
    b = add_item(2)
    assert b == [1, 99, 2]
    assert a is b
''')

C("pt_mutable_default_ok", '''
def add_item(item, bucket=None):
    if bucket is None:
        bucket = []
    bucket.append(item)
    return bucket
''', '''
def test_fresh_each_time():
    assert add_item(1) == [1]
    assert add_item(2) == [2]
def test_given_bucket():
    mine = ['x']
    out = add_item('y', mine)
    assert mine == ['x', 'y'] and out is mine
''')

# ---------------------------------------------------------------- files
C("pt_csv_written_by_test_read_by_code", '''
import csv
def total_amount(path):
    with open(path, newline='') as f:
        return sum(float(r['amount']) for r in csv.DictReader(f))
''', '''
import csv
def test_total():
    with open('sales.csv', 'w', newline='') as f:
        w = csv.writer(f)
        w.writerow(['name', 'amount'])
        w.writerow(['a', '1.5'])
        w.writerow(['b', '2.5'])
    assert total_amount('sales.csv') == 4.0
''')

C("pt_json_written_by_code_tmp_path", '''
import json, os
def save(data, path):
    with open(path, 'w') as f:
        json.dump(data, f)
def save_here(data):
    save(data, 'state.json')
    return os.path.abspath('state.json')
''', '''
import json, os
def test_tmp_path(tmp_path):
    p = tmp_path / 'out.json'
    save({'a': 1}, str(p))
    assert json.loads(p.read_text()) == {'a': 1}
def test_chdir(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    where = save_here([1, 2])
    assert os.path.exists(tmp_path / 'state.json')
    assert where == str(tmp_path / 'state.json')
    with open('state.json') as f:
        assert json.load(f) == [1, 2]
''')

C("ut_sqlite_file_shared", '''
import sqlite3
def add_user(db, name):
    con = sqlite3.connect(db)
    con.execute('CREATE TABLE IF NOT EXISTS users(name TEXT)')
    con.execute('INSERT INTO users VALUES (?)', (name,))
    con.commit()
    con.close()
def count_users(db):
    con = sqlite3.connect(db)
    n = con.execute('SELECT COUNT(*) FROM users').fetchone()[0]
    con.close()
    return n
''', '''
import unittest, sqlite3, os, tempfile
class T(unittest.TestCase):
    def setUp(self):
        self.dir = tempfile.mkdtemp()
        self.db = os.path.join(self.dir, 'app.db')
    def test_code_then_test(self):
        add_user(self.db, 'ann')
        con = sqlite3.connect(self.db)
        self.assertEqual(con.execute('SELECT name FROM users').fetchall(), [('ann',)])
        con.close()
    def test_test_then_code(self):
        con = sqlite3.connect(self.db)
        con.execute('CREATE TABLE users(name TEXT)')
        con.executemany('INSERT INTO users VALUES (?)', [('a',), ('b',)])
        con.commit(); con.close()
        self.assertEqual(count_users(self.db), 2)
    def test_relative(self):
        old = os.getcwd()
        os.chdir(self.dir)
        try:
            add_user('rel.db', 'x')
            self.assertTrue(os.path.exists(os.path.join(self.dir, 'rel.db')))
        finally:
            os.chdir(old)
''')

C("plain_code_writes_log_relative", '''
def log(msg):
    with open('app.log', 'a') as f:
        f.write(msg + '\\n')
''', '''
import os
if os.path.exists('app.log'):
    os.remove('app.log')
log('one')
log('two')
with open('app.log') as f:
    assert f.read().splitlines() == ['one', 'two']
''')

C("pt_code_open_file_handle_given", '''
def write_report(f, rows):
    for r in rows:
        f.write(','.join(map(str, r)) + '\\n')
''', '''
import io
def test_stringio():
    buf = io.StringIO()
    write_report(buf, [(1, 2), (3, 4)])
    assert buf.getvalue() == '1,2\\n3,4\\n'
def test_real_file(tmp_path):
    p = tmp_path / 'r.csv'
    with open(p, 'w') as f:
        write_report(f, [(5,)])
    assert p.read_text() == '5\\n'
''')

# ---------------------------------------------------------------- random
C("pt_random_seed_shared", '''
import random
def roll():
    return random.randint(1, 6)
def shuffled(xs):
    xs = list(xs)
    random.shuffle(xs)
    return xs
''', '''
import random
def test_seeded_rolls():
    random.seed(42)
    got = [roll() for _ in range(5)]
    random.seed(42)
    want = [random.randint(1, 6) for _ in range(5)]
    assert got == want
def test_interleaved():
    random.seed(1)
    a = roll(); b = random.random(); c = roll()
    random.seed(1)
    assert (a, b, c) == (random.randint(1, 6), random.random(), random.randint(1, 6))
def test_shuffle():
    random.seed(3)
    got = shuffled(range(10))
    random.seed(3)
    want = list(range(10)); random.shuffle(want)
    assert got == want
''')

C("pt_random_instance_passed", '''
class Dice:
    def __init__(self, rng):
        self.rng = rng
    def roll(self):
        return self.rng.randint(1, 6)
def pick(rng, xs):
    return rng.choice(xs)
''', '''
import random
def test_instance():
    rng = random.Random(5)
    d = Dice(rng)
    got = [d.roll(), rng.random(), d.roll(), pick(rng, 'abcdef')]
    r2 = random.Random(5)
    want = [r2.randint(1, 6), r2.random(), r2.randint(1, 6), r2.choice('abcdef')]
    assert got == want
''')

C("pt_random_bad_ignores_seed_param", '''
import random
def sample(n, seed=None):
    rng = random.Random()      # bug: ignores seed
    return [rng.random() for _ in range(n)]
''', '''
def test_reproducible():
    assert sample(3, seed=1) == sample(3, seed=1)
''')

# ---------------------------------------------------------------- threads
C("pt_threads_locked_counter", '''
import threading
class Counter:
    def __init__(self):
        self.value = 0
        self.lock = threading.Lock()
    def inc(self):
        with self.lock:
            self.value += 1
''', '''
import threading
from concurrent.futures import ThreadPoolExecutor
def test_threads():
    c = Counter()
    ts = [threading.Thread(target=lambda: [c.inc() for _ in range(50)]) for _ in range(4)]
    for t in ts: t.start()
    for t in ts: t.join()
    assert c.value == 200
def test_executor():
    c = Counter()
    with ThreadPoolExecutor(4) as ex:
        list(ex.map(lambda _: c.inc(), range(40)))
    assert c.value == 40
def test_lock_from_test():
    c = Counter()
    with c.lock:
        c.value = 10
    c.inc()
    assert c.value == 11
''')

C("ut_executor_results_and_shared_list", '''
def square_into(out, x):
    out.append(x * x)
    return x * x
''', '''
import unittest
from concurrent.futures import ThreadPoolExecutor
class T(unittest.TestCase):
    def test_map(self):
        with ThreadPoolExecutor(3) as ex:
            self.assertEqual(list(ex.map(lambda x: square_into([], x), range(6))), [0, 1, 4, 9, 16, 25])
    def test_shared_out(self):
        out = []
        with ThreadPoolExecutor(3) as ex:
            list(ex.map(lambda x: square_into(out, x), range(6)))
        self.assertEqual(sorted(out), [0, 1, 4, 9, 16, 25])
''')

C("pt_code_thread_callback", '''
import threading
def run_later(fn):
    t = threading.Thread(target=fn)
    t.start()
    t.join()
''', '''
def test_callback_from_code_thread():
    hits = []
    run_later(lambda: hits.append(1))
    assert hits == [1]
''')

# ---------------------------------------------------------------- async
C("pt_asyncio_run_and_agen", '''
import asyncio
async def fetch(x):
    await asyncio.sleep(0.01)
    return x * 2
async def gather_all(xs):
    return await asyncio.gather(*(fetch(x) for x in xs))
async def ticker(n):
    for i in range(n):
        await asyncio.sleep(0)
        yield i
''', '''
import asyncio
def test_run():
    assert asyncio.run(fetch(3)) == 6
def test_gather():
    assert asyncio.run(gather_all([1, 2, 3])) == [2, 4, 6]
def test_agen():
    async def collect():
        out = []
        async for v in ticker(4):
            out.append(v)
        return out
    assert asyncio.run(collect()) == [0, 1, 2, 3]
def test_agen_partial():
    async def first_two():
        g = ticker(10)
        a = await g.__anext__()
        b = await g.__anext__()
        await g.aclose()
        return [a, b]
    assert asyncio.run(first_two()) == [0, 1]
''')

C("ut_isolated_async_testcase", '''
import asyncio
class Store:
    def __init__(self):
        self.data = {}
    async def put(self, k, v):
        await asyncio.sleep(0)
        self.data[k] = v
''', '''
import unittest
class T(unittest.IsolatedAsyncioTestCase):
    async def asyncSetUp(self):
        self.s = Store()
    async def test_put(self):
        await self.s.put('a', 1)
        self.s.data['b'] = 2
        self.assertEqual(self.s.data, {'a': 1, 'b': 2})
''')

# ---------------------------------------------------------------- callbacks
C("pt_event_bus_lambdas", '''
class Bus:
    def __init__(self):
        self.handlers = {}
    def on(self, ev, fn):
        self.handlers.setdefault(ev, []).append(fn)
    def emit(self, ev, *a):
        return [h(*a) for h in self.handlers.get(ev, [])]
''', '''
def test_handlers():
    bus = Bus()
    seen = []
    bus.on('x', lambda v: seen.append(v))
    bus.on('x', lambda v: v * 2)
    assert bus.emit('x', 5) == [None, 10]
    bus.emit('x', 6)
    assert seen == [5, 6]
    assert len(bus.handlers['x']) == 2
def test_handler_removed_by_test():
    bus = Bus()
    f = lambda: 1
    bus.on('y', f)
    bus.handlers['y'].remove(f)
    assert bus.emit('y') == []
''')

C("pt_sort_key_callbacks", '''
def sort_by(items, key):
    return sorted(items, key=key)
def apply_all(fns, x):
    return [f(x) for f in fns]
''', '''
def test_sort_key():
    calls = []
    def k(s):
        calls.append(s)
        return len(s)
    assert sort_by(['ccc', 'a', 'bb'], k) == ['a', 'bb', 'ccc']
    assert sorted(calls) == ['a', 'bb', 'ccc']
def test_apply():
    assert apply_all([abs, str, lambda v: v + 1], -3) == [3, '-3', -2]
''')

C("ut_callback_asserts_inside", '''
def each(xs, fn):
    for x in xs:
        try:
            fn(x)
        except Exception:
            pass
''', '''
import unittest
class T(unittest.TestCase):
    def test_callback_assert_swallowed(self):
        def check(x):
            self.assertLess(x, 3)
        each([1, 2, 5], check)
''')

# ---------------------------------------------------------------- generators
C("pt_generators_partial", '''
def countdown(n):
    while n > 0:
        yield n
        n -= 1
def items_of(lst):
    for x in lst:
        yield x
''', '''
import itertools
def test_partial():
    g = countdown(5)
    assert next(g) == 5
    assert next(g) == 4
    assert list(g) == [3, 2, 1]
    assert list(g) == []
def test_islice():
    assert list(itertools.islice(countdown(100), 3)) == [100, 99, 98]
def test_gen_over_mutated_list():
    lst = [1, 2]
    g = items_of(lst)
    assert next(g) == 1
    lst.append(3)
    assert list(g) == [2, 3]
''')

C("plain_generator_send_close", '''
def averager():
    total = n = 0
    avg = None
    while True:
        x = yield avg
        total += x; n += 1
        avg = total / n
''', '''
g = averager()
next(g)
assert g.send(10) == 10
assert g.send(20) == 15
g.close()
try:
    g.send(1)
    assert False
except StopIteration:
    pass
''')

# ---------------------------------------------------------------- class attributes / counters
C("ut_class_counter_reset", '''
class Widget:
    count = 0
    default_color = 'red'
    def __init__(self):
        Widget.count += 1
        self.color = self.default_color
''', '''
import unittest
class T(unittest.TestCase):
    def setUp(self):
        Widget.count = 0
    def test_count(self):
        Widget(); Widget()
        self.assertEqual(Widget.count, 2)
    def test_default_changed(self):
        Widget.default_color = 'blue'
        try:
            self.assertEqual(Widget().color, 'blue')
        finally:
            Widget.default_color = 'red'
    def test_instance_shadow(self):
        w = Widget()
        w.count = 100
        self.assertEqual(Widget.count, 1)
''')

C("pt_class_level_list_pitfall", '''
class Student:
    courses = []           # shared by every Student (bug)
    def __init__(self, name):
        self.name = name
    def enroll(self, c):
        self.courses.append(c)
''', '''
def test_independent_students():
    a = Student('a'); b = Student('b')
    a.enroll('math')
    assert b.courses == []
''')

C("pt_monkeypatch_class_attr", '''
class Client:
    timeout = 5
    def describe(self):
        return f'timeout={self.timeout}'
''', '''
def test_patch(monkeypatch):
    monkeypatch.setattr(Client, 'timeout', 30)
    assert Client().describe() == 'timeout=30'
def test_restored():
    assert Client().describe() == 'timeout=5'
''')

# ---------------------------------------------------------------- subclassing
C("pt_subclass_template_method", '''
class Report:
    def header(self):
        return 'REPORT'
    def body(self):
        raise NotImplementedError
    def render(self):
        return self.header() + ':' + self.body()
class Counter:
    def __init__(self):
        self.n = 0
    def step(self):
        self.n += 1
        return self.n
''', '''
def test_subclass():
    class Mine(Report):
        def body(self):
            return 'x'
        def header(self):
            return super().header().lower()
    m = Mine()
    assert m.render() == 'report:x'
    assert isinstance(m, Report)
def test_subclass_state():
    class Twice(Counter):
        def step(self):
            super().step()
            return super().step()
    t = Twice()
    assert t.step() == 2
    assert t.n == 2
    t.n = 10
    assert t.step() == 12
''')

C("ut_subclass_exception_and_override_init", '''
class Account:
    def __init__(self, balance=0):
        self.balance = balance
        self.history = []
    def deposit(self, x):
        self.balance += x
        self.history.append(('d', x))
''', '''
import unittest
class Savings(Account):
    def __init__(self, balance=0, rate=0.1):
        super().__init__(balance)
        self.rate = rate
    def add_interest(self):
        self.deposit(self.balance * self.rate)
class T(unittest.TestCase):
    def test_interest(self):
        s = Savings(100)
        s.add_interest()
        self.assertAlmostEqual(s.balance, 110)
        self.assertEqual(s.history, [('d', 10.0)])
        s.history.clear()
        self.assertEqual(len(s.history), 0)
''')

# ---------------------------------------------------------------- __eq__/__hash__, enums, exceptions
C("pt_eq_hash_sets_dicts", '''
class Point:
    def __init__(self, x, y):
        self.x, self.y = x, y
    def __eq__(self, o):
        return isinstance(o, Point) and (self.x, self.y) == (o.x, o.y)
    def __hash__(self):
        return hash((self.x, self.y))
    def __repr__(self):
        return f'Point({self.x}, {self.y})'
def unique(points):
    return set(points)
def index(points):
    return {p: i for i, p in enumerate(points)}
''', '''
def test_set():
    s = unique([Point(1, 2), Point(1, 2), Point(3, 4)])
    assert len(s) == 2
    assert Point(1, 2) in s
def test_dict_lookup():
    d = index([Point(0, 0), Point(1, 1)])
    assert d[Point(1, 1)] == 1
def test_test_side_set():
    s = {Point(1, 2)}
    s.add(Point(1, 2))
    assert len(s) == 1
def test_mutated_key():
    p = Point(1, 1)
    s = {p}
    p.x = 5
    assert Point(5, 1) not in s
''')

C("pt_eq_bad_no_hash", '''
class Tag:
    def __init__(self, name):
        self.name = name
    def __eq__(self, o):
        return isinstance(o, Tag) and self.name == o.name
    __hash__ = object.__hash__      # bug: equal tags hash differently
''', '''
def test_dedupe():
    assert len({Tag('a'), Tag('a')}) == 1
''')

C("pt_enum_members", '''
from enum import Enum, auto
class Color(Enum):
    RED = 1
    GREEN = 2
    BLUE = 3
def opposite(c):
    return {Color.RED: Color.GREEN, Color.GREEN: Color.RED}.get(c, Color.BLUE)
def counts(cs):
    out = {}
    for c in cs:
        out[c] = out.get(c, 0) + 1
    return out
''', '''
def test_members():
    assert opposite(Color.RED) is Color.GREEN
    assert Color(3) is Color.BLUE and Color['RED'] is Color.RED
    assert [c.name for c in Color] == ['RED', 'GREEN', 'BLUE']
def test_dict_keys():
    d = counts([Color.RED, Color.RED, Color.BLUE])
    assert d == {Color.RED: 2, Color.BLUE: 1}
    assert d[Color.RED] == 2
def test_test_dict_into_code():
    mine = {Color.RED: 'r'}
    assert Color.RED in mine
    assert opposite(list(mine)[0]) == Color.GREEN
''')

C("pt_exceptions_with_attrs", '''
class InsufficientFunds(Exception):
    def __init__(self, balance, amount):
        super().__init__(f'balance {balance} < {amount}')
        self.balance = balance
        self.amount = amount
class Account:
    def __init__(self, b):
        self.balance = b
    def withdraw(self, a):
        if a > self.balance:
            raise InsufficientFunds(self.balance, a)
        self.balance -= a
''', '''
import pytest
def test_raises_attrs():
    acc = Account(10)
    with pytest.raises(InsufficientFunds) as e:
        acc.withdraw(50)
    assert e.value.balance == 10 and e.value.amount == 50
    assert 'balance 10' in str(e.value)
    assert isinstance(e.value, Exception)
def test_try_except():
    acc = Account(1)
    try:
        acc.withdraw(2)
    except InsufficientFunds as err:
        assert err.args == ('balance 1 < 2',)
    assert acc.balance == 1
''')

C("ut_assert_raises_cm", '''
class ValidationError(ValueError):
    def __init__(self, field, msg):
        super().__init__(msg)
        self.field = field
def validate(user):
    if not user.get('name'):
        raise ValidationError('name', 'name required')
    return True
''', '''
import unittest
class T(unittest.TestCase):
    def test_cm(self):
        with self.assertRaises(ValueError) as cm:
            validate({})
        self.assertEqual(cm.exception.field, 'name')
        self.assertEqual(str(cm.exception), 'name required')
    def test_regex(self):
        with self.assertRaisesRegex(ValidationError, 'required'):
            validate({'name': ''})
''')

# ---------------------------------------------------------------- lru_cache, properties, containers, closures
C("pt_lru_cache_info", '''
from functools import lru_cache
@lru_cache(maxsize=None)
def fib(n):
    return n if n < 2 else fib(n - 1) + fib(n - 2)
''', '''
def test_cache():
    fib.cache_clear()
    assert fib(10) == 55
    info = fib.cache_info()
    assert info.hits == 8 and info.misses == 11
    assert info.currsize == 11
    fib(10)
    assert fib.cache_info().hits == 9
''')

C("pt_lru_cache_missing_bad", '''
def fib(n):
    return n if n < 2 else fib(n - 1) + fib(n - 2)
''', '''
def test_has_cache():
    assert fib(5) == 5
    assert hasattr(fib, 'cache_info')
''')

C("ut_properties_setters", '''
class Temperature:
    def __init__(self, c=0):
        self._c = c
    @property
    def celsius(self):
        return self._c
    @celsius.setter
    def celsius(self, v):
        if v < -273.15:
            raise ValueError('too cold')
        self._c = v
    @property
    def fahrenheit(self):
        return self._c * 9 / 5 + 32
''', '''
import unittest
class T(unittest.TestCase):
    def test_set(self):
        t = Temperature()
        t.celsius = 100
        self.assertEqual(t.fahrenheit, 212)
    def test_invalid(self):
        t = Temperature()
        with self.assertRaises(ValueError):
            t.celsius = -300
        self.assertEqual(t.celsius, 0)
    def test_readonly(self):
        with self.assertRaises(AttributeError):
            Temperature().fahrenheit = 1
''')

C("pt_custom_container", '''
class Deck:
    def __init__(self, cards):
        self._cards = list(cards)
    def __len__(self):
        return len(self._cards)
    def __getitem__(self, i):
        return self._cards[i]
    def __contains__(self, c):
        return c in self._cards
    def __iter__(self):
        return iter(self._cards)
    def __reversed__(self):
        return reversed(self._cards)
''', '''
def test_protocols():
    d = Deck('bca')
    assert len(d) == 3
    assert list(d) == ['b', 'c', 'a']
    assert sorted(d) == ['a', 'b', 'c']
    assert 'c' in d and 'z' not in d
    first, *rest = d
    assert first == 'b' and rest == ['c', 'a']
    assert d[-1] == 'a' and d[0:2] == ['b', 'c']
    assert list(reversed(d)) == ['a', 'c', 'b']
    assert max(d) == 'c' and ''.join(d) == 'bca'
''')

C("pt_getitem_only_container", '''
class Seq:
    def __init__(self, n):
        self.n = n
    def __getitem__(self, i):
        if i >= self.n:
            raise IndexError(i)
        return i * i
''', '''
def test_old_protocol():
    s = Seq(4)
    assert list(s) == [0, 1, 4, 9]
    assert 9 in s
    a, b, c, dd = s
    assert dd == 9
''')

C("pt_closures", '''
def make_counter(start=0):
    n = start
    def step():
        nonlocal n
        n += 1
        return n
    return step
def make_accumulator(store):
    def add(x):
        store.append(x)
        return sum(store)
    return add
def make_multipliers_bad():
    return [lambda x: x * i for i in range(3)]
''', '''
def test_counter():
    c = make_counter()
    c(); c()
    assert c() == 3
    other = make_counter(10)
    assert other() == 11 and c() == 4
def test_accumulator_store():
    store = [1]
    add = make_accumulator(store)
    assert add(2) == 3
    store.append(10)
    assert add(0) == 13
    assert store == [1, 2, 10, 0]
def test_late_binding():
    assert [m(2) for m in make_multipliers_bad()] == [4, 4, 4]
''')

# ---------------------------------------------------------------- pytest fixtures
C("pt_fixture_scopes_state", '''
class Db:
    instances = 0
    def __init__(self):
        Db.instances += 1
        self.rows = []
        self.closed = False
    def insert(self, r):
        self.rows.append(r)
    def close(self):
        self.closed = True
''', '''
import pytest
@pytest.fixture(scope='module')
def db():
    d = Db()
    yield d
    d.close()
@pytest.fixture
def fresh():
    d = Db()
    yield d
    d.close()
def test_one(db):
    db.insert(1)
    assert db.rows == [1]
def test_two(db):
    db.insert(2)
    assert db.rows == [1, 2]
def test_fresh(fresh):
    assert fresh.rows == []
    assert Db.instances == 2
''')

C("pt_parametrize_shared_obj", '''
class Stack:
    def __init__(self):
        self.items = []
    def push(self, x):
        self.items.append(x)
    def pop(self):
        return self.items.pop()
STACK = Stack()
''', '''
import pytest
@pytest.mark.parametrize('x', [1, 2, 3])
def test_push(x):
    STACK.push(x)
    assert STACK.items[-1] == x
    assert len(STACK.items) == x
def test_pop_all():
    assert [STACK.pop() for _ in range(3)] == [3, 2, 1]
''')

C("pt_capsys_code_prints", '''
import sys
def greet(name):
    print(f'Hello, {name}!')
    print('warn', file=sys.stderr)
def report(items):
    for i, it in enumerate(items, 1):
        print(i, it)
''', '''
def test_capsys(capsys):
    greet('Ann')
    out, err = capsys.readouterr()
    assert out == 'Hello, Ann!\\n'
    assert err == 'warn\\n'
def test_capsys_twice(capsys):
    report(['a', 'b'])
    assert capsys.readouterr().out == '1 a\\n2 b\\n'
    print('mine')
    greet('B')
    assert capsys.readouterr().out == 'mine\\nHello, B!\\n'
''')

C("pt_monkeypatch_code_function", '''
def get_price(item):
    raise RuntimeError('network')
def total(items):
    return sum(get_price(i) for i in items)
''', '''
import sys
def test_patch_module_attr(monkeypatch):
    monkeypatch.setattr(sys.modules[__name__], 'get_price', lambda i: 10)
    assert total(['a', 'b']) == 20
''')

C("pt_mock_patch_name", '''
import time
def fetch(url):
    raise RuntimeError('no network')
def cached_fetch(url):
    return fetch(url).upper()
def stamp():
    return int(time.time())
''', '''
from unittest.mock import patch
import time
def test_patch_name():
    with patch(__name__ + '.fetch', return_value='ok') as m:
        assert cached_fetch('u') == 'OK'
    m.assert_called_once_with('u')
def test_patch_time(monkeypatch):
    monkeypatch.setattr(time, 'time', lambda: 1234.5)
    assert stamp() == 1234
''')

C("pt_monkeypatch_code_function_bad_inlined", '''
def get_price(item):
    return 1
def total(items):
    return sum(1 for i in items)
''', '''
import sys
def test_patch_module_attr(monkeypatch):
    monkeypatch.setattr(sys.modules[__name__], 'get_price', lambda i: 10)
    assert total(['a', 'b']) == 20
def test_restored_after():
    assert total(['a']) == 1 and get_price('a') == 1
''')

C("ut_mock_patch_object_own_module", '''
def fetch(url):
    raise RuntimeError('no network')
def titles(urls):
    return [fetch(u).title() for u in urls]
''', '''
import sys
import unittest
from unittest import mock
class T(unittest.TestCase):
    def test_titles(self):
        with mock.patch.object(sys.modules[__name__], 'fetch', side_effect=lambda u: u + ' page') as m:
            self.assertEqual(titles(['a', 'b']), ['A Page', 'B Page'])
        self.assertEqual(m.call_count, 2)
        with self.assertRaises(RuntimeError):
            titles(['c'])
if __name__ == '__main__':
    unittest.main()
''')

C("pt_monkeypatch_instance_method", '''
class Service:
    def load(self):
        raise IOError('disk')
    def summary(self):
        return len(self.load())
''', '''
def test_patch_instance(monkeypatch):
    s = Service()
    monkeypatch.setattr(s, 'load', lambda: [1, 2, 3])
    assert s.summary() == 3
def test_patch_class(monkeypatch):
    monkeypatch.setattr(Service, 'load', lambda self: 'ab')
    assert Service().summary() == 2
''')

C("pt_monkeypatch_input_env", '''
import os
def ask():
    return input('name? ').strip().upper()
def home():
    return os.environ.get('APP_HOME', '/none')
''', '''
def test_input(monkeypatch):
    answers = iter(['  bob '])
    monkeypatch.setattr('builtins.input', lambda prompt='': next(answers))
    assert ask() == 'BOB'
def test_env(monkeypatch):
    monkeypatch.setenv('APP_HOME', '/x')
    assert home() == '/x'
    monkeypatch.delenv('APP_HOME')
    assert home() == '/none'
''')

C("pt_fixture_yields_code_global_reset", '''
_seen = set()
def first_time(x):
    if x in _seen:
        return False
    _seen.add(x)
    return True
''', '''
import pytest
@pytest.fixture(autouse=True)
def reset():
    yield
    _seen.clear()
def test_a():
    assert first_time('a') and not first_time('a')
def test_a_again():
    assert first_time('a')
    assert _seen == {'a'}
    _seen.discard('a')
    assert first_time('a')
''')

# ---------------------------------------------------------------- plain asserts sharing state
C("plain_shared_object_state", '''
class Bank:
    def __init__(self):
        self.accounts = {}
    def open(self, name, amt=0):
        self.accounts[name] = amt
    def transfer(self, a, b, amt):
        if self.accounts[a] < amt:
            return False
        self.accounts[a] -= amt
        self.accounts[b] += amt
        return True
''', '''
bank = Bank()
bank.open('a', 50)
bank.open('b')
bank.accounts['a'] += 50
assert bank.transfer('a', 'b', 80)
assert bank.accounts == {'a': 20, 'b': 80}
accts = bank.accounts
bank.open('c', 1)
assert 'c' in accts
assert sum(accts.values()) == 101
''')

C("plain_wrong_returns_alias", '''
def matrix(n):
    row = [0] * n
    return [row] * n      # bug: rows aliased
''', '''
m = matrix(3)
m[0][0] = 1
assert m == [[1, 0, 0], [0, 0, 0], [0, 0, 0]]
''')

C("plain_tuple_with_list_from_code", '''
STATE = ([], {})
def push(x):
    STATE[0].append(x)
    STATE[1][x] = len(STATE[0])
''', '''
push('a')
lst, idx = STATE
lst.append('b')
push('c')
assert STATE[0] == ['a', 'b', 'c']
assert idx == {'a': 1, 'c': 3}
''')

C("pt_setdefault_returned_inner", '''
class Graph:
    def __init__(self):
        self.adj = {}
    def neighbors(self, n):
        return self.adj.setdefault(n, set())
    def edges(self):
        return sum(len(v) for v in self.adj.values())
''', '''
def test_inner_set():
    g = Graph()
    g.neighbors('a').add('b')
    nb = g.neighbors('a')
    nb |= {'c', 'd'}
    assert g.edges() == 3
    assert g.adj == {'a': {'b', 'c', 'd'}}
''')

C("pt_deque_and_counter_attr", '''
from collections import deque, Counter
class Recent:
    def __init__(self, n):
        self.q = deque(maxlen=n)
        self.freq = Counter()
    def see(self, x):
        self.q.append(x)
        self.freq[x] += 1
    def top(self):
        return self.freq.most_common(1)[0][0]
''', '''
def test_attrs():
    r = Recent(2)
    for x in 'abca':
        r.see(x)
    assert list(r.q) == ['c', 'a']
    r.q.appendleft('z')
    assert list(r.q) == ['z', 'c']
    r.freq['b'] += 5
    assert r.top() == 'b'
''')

C("pt_sorted_inplace_on_attr_list", '''
class Tasks:
    def __init__(self):
        self.todo = []
    def add(self, pri, name):
        self.todo.append((pri, name))
    def next(self):
        return self.todo[0][1]
''', '''
def test_sort_attr():
    t = Tasks()
    t.add(3, 'c'); t.add(1, 'a'); t.add(2, 'b')
    t.todo.sort()
    assert t.next() == 'a'
    t.todo.sort(key=lambda p: -p[0])
    assert t.next() == 'c'
    t.todo.reverse()
    assert [n for _, n in t.todo] == ['a', 'b', 'c']
''')

C("pt_json_dump_live_view", '''
class Settings:
    def __init__(self):
        self.values = {'a': 1, 'nested': {'b': [1, 2]}}
''', '''
import json, copy
def test_json_roundtrip():
    s = Settings()
    s.values['nested']['b'].append(3)
    assert json.loads(json.dumps(s.values)) == {'a': 1, 'nested': {'b': [1, 2, 3]}}
    snap = copy.deepcopy(s.values)
    s.values['a'] = 2
    assert snap['a'] == 1
    assert dict(s.values) == {'a': 2, 'nested': {'b': [1, 2, 3]}}
''')

C("pt_obj_in_test_container_mutated_by_code", '''
class Item:
    def __init__(self, name):
        self.name = name
        self.done = False
def complete_all(items):
    for it in items:
        it.done = True
    return sum(it.done for it in items)
''', '''
def test_code_objects_in_test_list():
    items = [Item('a'), Item('b')]
    assert complete_all(items) == 2
    assert all(it.done for it in items)
    items.append(Item('c'))
    assert [it.done for it in items] == [True, True, False]
''')

# ================================================================ round 2: probing the weak spots found in round 1
C("pt_global_rebound_by_code_lazy_init", '''
DATA = None
def load():
    global DATA
    DATA = [1, 2, 3]
def reset():
    global DATA
    DATA = None
''', '''
def test_lazy_init():
    load()
    assert DATA == [1, 2, 3]
def test_reset():
    load(); reset()
    assert DATA is None
''')

C("pt_shallow_copy_list_of_rows_bad", '''
class Grid:
    def __init__(self, rows):
        self.rows = [r for r in rows]       # bug: rows still shared with the caller
    def cell(self, r, c):
        return self.rows[r][c]
''', '''
def test_grid_independent_of_caller():
    rows = [[1, 2], [3, 4]]
    g = Grid(rows)
    rows[0][0] = 99
    assert g.cell(0, 0) == 1
''')

C("pt_shallow_copy_list_of_rows_ok", '''
import copy
class Grid:
    def __init__(self, rows):
        self.rows = copy.deepcopy(rows)
    def cell(self, r, c):
        return self.rows[r][c]
''', '''
def test_grid_independent_of_caller():
    rows = [[1, 2], [3, 4]]
    g = Grid(rows)
    rows[0][0] = 99
    assert g.cell(0, 0) == 1
''')

C("pt_stored_nested_dict_code_appends", '''
class Tracker:
    def __init__(self, d):
        self.d = d
    def add(self, k, v):
        self.d[k].append(v)
''', '''
def test_shared_nested():
    d = {'a': []}
    inner = d['a']
    t = Tracker(d)
    t.add('a', 1)
    assert d == {'a': [1]}
    assert inner == [1]
    inner.append(2)
    t.add('a', 3)
    assert t.d['a'] == [1, 2, 3]
''')

C("pt_code_mutates_test_object_bad", '''
def total_with_tax(order):
    order.items.append(('tax', 1))       # bug: mutates the caller's order
    return sum(p for _, p in order.items)
''', '''
class Order:
    def __init__(self, items):
        self.items = items
def test_total():
    assert total_with_tax(Order([('a', 10)])) == 11
def test_order_untouched():
    o = Order([('a', 10)])
    total_with_tax(o)
    assert len(o.items) == 1
''')

C("pt_code_mutates_namespace_list", '''
def register(app, route):
    app.routes.append(route)
    app.count = len(app.routes)
''', '''
from types import SimpleNamespace
def test_ns():
    app = SimpleNamespace(routes=[], count=0)
    register(app, '/a')
    register(app, '/b')
    assert app.count == 2
    assert app.routes == ['/a', '/b']
''')

C("ut_callback_bare_assert_swallowed", '''
def each(xs, fn):
    ok = 0
    for x in xs:
        try:
            fn(x)
            ok += 1
        except Exception:
            pass
    return ok
''', '''
import unittest
class T(unittest.TestCase):
    def test_count_ok(self):
        def check(x):
            assert x < 3
        self.assertEqual(each([1, 2, 5], check), 2)
''')

C("pt_soft_assertions_context_manager", '''
class Soft:
    def __init__(self):
        self.failures = []
    def __enter__(self):
        return self
    def __exit__(self, kind, exc, tb):
        if kind is not None and issubclass(kind, AssertionError):
            self.failures.append(str(exc))
            return True
        return False
''', '''
def test_soft_collects_the_failure():
    soft = Soft()
    with soft:
        assert 1 + 1 == 3, 'arithmetic'
    assert soft.failures == ['arithmetic']
def test_other_errors_pass_through():
    soft = Soft()
    try:
        with soft:
            raise KeyError('k')
    except KeyError:
        pass
    assert soft.failures == []
''')

C("pt_mock_dependency_injected", '''
class Service:
    def __init__(self, repo):
        self.repo = repo
    def rename(self, uid, name):
        user = self.repo.get(uid)
        user['name'] = name
        self.repo.save(uid, user)
        return user
''', '''
from unittest.mock import Mock, MagicMock
def test_with_mock():
    repo = Mock()
    repo.get.return_value = {'name': 'old'}
    svc = Service(repo)
    out = svc.rename(1, 'new')
    assert out == {'name': 'new'}
    repo.get.assert_called_once_with(1)
    repo.save.assert_called_once_with(1, {'name': 'new'})
def test_magicmock_calls():
    repo = MagicMock()
    repo.get.side_effect = lambda uid: {'id': uid}
    Service(repo).rename(7, 'x')
    assert repo.save.call_count == 1
    assert repo.save.call_args[0] == (7, {'id': 7, 'name': 'x'})
''')

C("pt_patch_object_code_class", '''
class Weather:
    def fetch(self, city):
        raise RuntimeError('network')
    def report(self, city):
        t = self.fetch(city)
        return f'{city}: {t}C'
''', '''
from unittest.mock import patch
def test_patch_object_class():
    with patch.object(Weather, 'fetch', return_value=21) as m:
        assert Weather().report('Oslo') == 'Oslo: 21C'
    m.assert_called_once_with('Oslo')
def test_patch_object_instance():
    w = Weather()
    with patch.object(w, 'fetch', return_value=5):
        assert w.report('X') == 'X: 5C'
def test_monkeypatch_def(monkeypatch):
    def fake(self, city):
        return len(city)
    monkeypatch.setattr(Weather, 'fetch', fake)
    assert Weather().report('Rome') == 'Rome: 4C'
''')

C("pt_threads_shared_test_list_into_code", '''
def collect(out, x):
    out.append(x)
''', '''
import threading
def test_threads_append():
    out = []
    ts = [threading.Thread(target=collect, args=(out, i)) for i in range(8)]
    for t in ts: t.start()
    for t in ts: t.join()
    assert sorted(out) == list(range(8))
''')

C("pt_threads_tally_dict_and_slow_calls", '''
import time
def tally(counts, word):
    time.sleep(0.01)
    counts[word] = counts.get(word, 0) + 1
def tally_bad(counts, word):
    counts = dict(counts)
    counts[word] = counts.get(word, 0) + 1
''', '''
import threading
def test_tally_from_threads():
    counts = {}
    words = ['a', 'b', 'a', 'c', 'a', 'b']
    ts = [threading.Thread(target=tally, args=(counts, w)) for w in words]
    for t in ts: t.start()
    for t in ts: t.join()
    assert counts == {'a': 3, 'b': 2, 'c': 1}
def test_copying_changes_nothing():
    counts = {}
    ts = [threading.Thread(target=tally_bad, args=(counts, w)) for w in 'xyz']
    for t in ts: t.start()
    for t in ts: t.join()
    assert counts == {}
''')

C("pt_threads_barrier_inside_the_call", '''
def wait_then_add(out, x, barrier):
    barrier.wait()
    out.append(x)
''', '''
import threading
def test_both_wait_for_each_other():
    out = []
    barrier = threading.Barrier(2, timeout=10)
    ts = [threading.Thread(target=wait_then_add, args=(out, i, barrier)) for i in range(2)]
    for t in ts: t.start()
    for t in ts: t.join()
    assert sorted(out) == [0, 1]
''')

C("pt_dict_arg_inplace_bad_should_copy", '''
def merged(base, extra):
    base.update(extra)          # bug: modifies the caller's dict
    return base
''', '''
def test_result():
    assert merged({'a': 1}, {'b': 2}) == {'a': 1, 'b': 2}
def test_base_untouched():
    base = {'a': 1}
    merged(base, {'b': 2})
    assert base == {'a': 1}
''')

C("pt_nested_input_kept_then_test_reads", '''
class Cache:
    def __init__(self):
        self.store = {}
    def put(self, k, v):
        self.store[k] = v
    def bump(self, k):
        self.store[k]['hits'] += 1
''', '''
def test_caller_sees_bumps():
    entry = {'hits': 0}
    c = Cache()
    c.put('x', entry)
    c.bump('x'); c.bump('x')
    assert entry['hits'] == 2
    entry['hits'] = 10
    c.bump('x')
    assert c.store['x']['hits'] == 11
''')

C("plain_global_list_rebound_by_code", '''
history = []
def clear_history():
    global history
    history = []
def record(x):
    history.append(x)
''', '''
record(1)
h = history
clear_history()
record(2)
assert history == [2]
assert h == [1]
''')

# ================================================================ round 3: minimal repros
C("pt_min_code_mutates_test_object_bad", '''
def total_with_tax(order):
    order.items.append(1)        # bug: mutates the caller's order
    return sum(order.items)
''', '''
class Order:
    def __init__(self, items):
        self.items = items
def test_order_untouched():
    o = Order([10])
    total_with_tax(o)
    assert o.items == [10]
''')

C("pt_unbound_method_access", '''
class Weather:
    def report(self, city):
        return city.upper()
''', '''
def test_unbound():
    w = Weather()
    assert Weather.report(w, 'x') == 'X'
    assert callable(Weather.report)
    assert 'report' in dir(Weather)
''')
