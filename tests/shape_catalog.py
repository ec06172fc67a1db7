"""Ordinary test shapes and a right and a wrong answer for each: the sandbox must pass every right one and fail every
wrong one, as root and as an ordinary user, at every isolation level (tests/test_sandbox_catalog.py,
tests/test_sandbox_nonroot.py). One entry per kind of thing tests hand across: standard values both ways, the code's
classes, callbacks, async code and pytest's features; and per kind of thing one process shares: files by relative
names, the random generator's seed, the standard library's named tuples, introspection of the code's objects. Each is
(tests, right code, wrong code)."""

from __future__ import annotations

# The code of the introspection shape below: its wrong answer differs in one default.
_INTROSPECTED = (
    "import asyncio, functools\nfrom dataclasses import dataclass, field\n"
    "def make_user(name: str, age: int = 18, *tags, admin=False) -> dict:\n    'Make a user record.'\n"
    "    return {'name': name, 'age': age, 'tags': list(tags), 'admin': admin}\n"
    "@functools.lru_cache(maxsize=None)\ndef cached_area(width, height):\n    return width * height\n"
    "async def fetch(url):\n    await asyncio.sleep(0)\n    return url\nclass Account:\n    'A bank account.'\n"
    "    def __init__(self, owner, balance=0):\n        self.owner = owner\n        self.balance = balance\n"
    "    def deposit(self, amount):\n        'Add money.'\n        self.balance += amount\n@dataclass\n"
    "class Point:\n    x: int\n    y: int = 0\n    tags: list = field(default_factory=list)\n"
    "def make_point(x, y):\n    return Point(x, y)\n")

SHAPES = {
    # --- standard values, passed in and returned ---------------------------------------------------------------
    "date_in_and_out": (
        "import datetime\nassert next_weekday(datetime.date(2024, 1, 5)) == datetime.date(2024, 1, 8)\n"
        "assert next_weekday(datetime.date(2024, 1, 8)) == datetime.date(2024, 1, 9)\n",
        "import datetime\ndef next_weekday(d):\n    d += datetime.timedelta(days=1)\n    while d.weekday() >= 5:\n"
        "        d += datetime.timedelta(days=1)\n    return d\n",
        "import datetime\ndef next_weekday(d):\n    return d + datetime.timedelta(days=1)\n"),
    "aware_datetime_and_timedelta": (
        "from datetime import datetime, timedelta, timezone\n"
        "def test_utc():\n    got = to_utc(datetime(2024, 3, 1, 12, tzinfo=timezone(timedelta(hours=2))))\n"
        "    assert got == datetime(2024, 3, 1, 10, tzinfo=timezone.utc)\n    assert got.tzinfo is timezone.utc\n"
        "def test_span():\n"
        "    assert span([datetime(2024, 1, 1), datetime(2024, 1, 3, 6)]) == timedelta(days=2, hours=6)\n",
        "from datetime import timezone\ndef to_utc(d):\n    return d.astimezone(timezone.utc)\n"
        "def span(ds):\n    return max(ds) - min(ds)\n",
        "from datetime import timezone\ndef to_utc(d):\n    return d.replace(tzinfo=timezone.utc)\n"
        "def span(ds):\n    return max(ds) - min(ds)\n"),
    "decimal_money": (
        "from decimal import Decimal\nassert split_bill(Decimal('10'), 3) == [Decimal('3.34'), Decimal('3.33'), "
        "Decimal('3.33')]\nassert sum(split_bill(Decimal('1'), 2)) == Decimal('1.00')\n",
        "from decimal import Decimal, ROUND_DOWN\ndef split_bill(total, n):\n"
        "    base = (total / n).quantize(Decimal('0.01'), rounding=ROUND_DOWN)\n    parts = [base] * n\n"
        "    cents = int((total - base * n) / Decimal('0.01'))\n    for i in range(cents):\n"
        "        parts[i] += Decimal('0.01')\n    return parts\n",
        "from decimal import Decimal\ndef split_bill(total, n):\n"
        "    return [(total / n).quantize(Decimal('0.01'))] * n\n"),
    "fraction_and_complex": (
        "from fractions import Fraction\nassert mean([Fraction(1, 3), Fraction(1, 6)]) == Fraction(1, 4)\n"
        "assert roots(1, 0, 1) == {1j, -1j}\n",
        "import cmath\ndef mean(xs):\n    return sum(xs) / len(xs)\ndef roots(a, b, c):\n"
        "    d = cmath.sqrt(b * b - 4 * a * c)\n    return {(-b + d) / (2 * a), (-b - d) / (2 * a)}\n",
        "import cmath\ndef mean(xs):\n    return sum(xs) / 2 / len(xs)\ndef roots(a, b, c):\n"
        "    d = cmath.sqrt(b * b - 4 * a * c)\n    return {(-b + d) / (2 * a), (-b - d) / (2 * a)}\n"),
    "bytes_sets_and_collections": (
        "from collections import Counter, OrderedDict, deque, defaultdict\n"
        "def test_all():\n    assert xor(b'ab', 1) == b'`c'\n    assert grow(bytearray(b'x')) == bytearray(b'xx')\n"
        "    assert last(deque([1, 2, 3], maxlen=3), 2) == deque([2, 3])\n"
        "    assert freq('a b a') == Counter({'a': 2, 'b': 1})\n"
        "    assert list(ordered(['b', 'a'])) == ['b', 'a'] and isinstance(ordered([]), OrderedDict)\n"
        "    groups = group(['ab', 'ac', 'b'])\n    assert groups == {'a': ['ab', 'ac'], 'b': ['b']}\n"
        "    assert isinstance(groups, defaultdict) and groups['z'] == []\n"
        "    assert common({'a', 'b'}, frozenset('bc')) == frozenset({'b'})\n",
        "from collections import Counter, OrderedDict, deque, defaultdict\ndef xor(b, k):\n"
        "    return bytes(c ^ k for c in b)\ndef grow(b):\n    return b * 2\ndef last(d, n):\n"
        "    return deque(list(d)[-n:])\ndef freq(s):\n    return Counter(s.split())\ndef ordered(xs):\n"
        "    return OrderedDict((x, 1) for x in xs)\ndef group(ws):\n    g = defaultdict(list)\n    for w in ws:\n"
        "        g[w[0]].append(w)\n    return g\ndef common(a, b):\n    return frozenset(a) & b\n",
        "from collections import Counter, OrderedDict, deque, defaultdict\ndef xor(b, k):\n"
        "    return bytes(c ^ k for c in b)\ndef grow(b):\n    return b * 2\ndef last(d, n):\n"
        "    return deque(list(d)[:n])\ndef freq(s):\n    return Counter(s.split())\ndef ordered(xs):\n"
        "    return OrderedDict((x, 1) for x in xs)\ndef group(ws):\n    g = defaultdict(list)\n    for w in ws:\n"
        "        g[w[0]].append(w)\n    return g\ndef common(a, b):\n    return frozenset(a) & b\n"),
    "paths_ranges_and_slices": (
        "from pathlib import Path\nassert with_suffix(Path('a/b.txt'), '.md') == Path('a/b.md')\n"
        "assert window(range(10), slice(2, 5)) == [2, 3, 4]\n",
        "def with_suffix(p, s):\n    return p.with_suffix(s)\ndef window(r, s):\n    return list(r[s])\n",
        "def with_suffix(p, s):\n    return p\ndef window(r, s):\n    return list(r[s])\n"),
    "namedtuple_of_the_code": (
        "assert pair(1, 2).first == 1\nassert pair(1, 2) == (1, 2)\nassert type(pair(1, 2)).__name__ == 'Pair'\n"
        "assert Pair(3, 4).second == 4 and isinstance(pair(0, 0), Pair)\n",
        "from collections import namedtuple\nPair = namedtuple('Pair', 'first second')\ndef pair(a, b):\n"
        "    return Pair(a, b)\n",
        "from collections import namedtuple\nPair = namedtuple('Pair', 'first second')\ndef pair(a, b):\n"
        "    return Pair(b, a)\n"),
    "dataclass_of_the_code": (
        "import dataclasses\ndef test_items():\n    cart = make_cart()\n    cart.add(Item('pen', 2))\n"
        "    assert cart.items == [Item('pen', 2)]\n    assert dataclasses.asdict(cart.items[0]) == {'name': 'pen', "
        "'price': 2}\n    assert {Point(1, 2), Point(1, 2)} == {Point(1, 2)}\n"
        "    assert sorted([Point(2, 0), Point(1, 5)])[0] == Point(1, 5)\n",
        "from dataclasses import dataclass, field\n@dataclass\nclass Item:\n    name: str\n    price: int\n"
        "@dataclass(frozen=True, order=True)\nclass Point:\n    x: int\n    y: int\n@dataclass\nclass Cart:\n"
        "    items: list = field(default_factory=list)\n    def add(self, item):\n        self.items.append(item)\n"
        "def make_cart():\n    return Cart()\n",
        "from dataclasses import dataclass, field\n@dataclass\nclass Item:\n    name: str\n    price: int\n"
        "@dataclass(frozen=True, order=True)\nclass Point:\n    x: int\n    y: int\n@dataclass\nclass Cart:\n"
        "    items: list = field(default_factory=list)\n    def add(self, item):\n        pass\n"
        "def make_cart():\n    return Cart()\n"),
    "enum_members_by_identity": (
        "assert opposite(Color.RED) is Color.BLUE\nassert Color(1) is Color.RED and Color['BLUE'].value == 2\n"
        "assert [c.name for c in Color] == ['RED', 'BLUE'] and len(Color) == 2\n"
        "assert Level.HIGH == 3 and sorted([Level.HIGH, Level.LOW]) == [1, 3] and Level.HIGH > Level.LOW\n",
        "from enum import Enum, IntEnum\nclass Color(Enum):\n    RED = 1\n    BLUE = 2\nclass Level(IntEnum):\n"
        "    LOW = 1\n    HIGH = 3\ndef opposite(c):\n    return Color.BLUE if c is Color.RED else Color.RED\n",
        "from enum import Enum, IntEnum\nclass Color(Enum):\n    RED = 1\n    BLUE = 2\nclass Level(IntEnum):\n"
        "    LOW = 1\n    HIGH = 3\ndef opposite(c):\n    return c\n"),
    # --- the code's classes ------------------------------------------------------------------------------------
    "class_hierarchy": (
        "def test_kinds():\n    assert isinstance(Dog(), Animal) and issubclass(Dog, Animal)\n"
        "    assert not isinstance(Dog(), Cat)\n    assert [a.speak() for a in (Dog(), Cat())] == ['woof', 'meow']\n"
        "    assert Animal.legs == 4 and Dog.kind() == 'Dog'\n",
        "class Animal:\n    legs = 4\n    @classmethod\n    def kind(cls):\n        return cls.__name__\n"
        "class Dog(Animal):\n    def speak(self):\n        return 'woof'\nclass Cat(Animal):\n    def speak(self):\n"
        "        return 'meow'\n",
        "class Animal:\n    legs = 4\n    @classmethod\n    def kind(cls):\n        return cls.__name__\n"
        "class Dog:\n    def speak(self):\n        return 'woof'\nclass Cat(Animal):\n    def speak(self):\n"
        "        return 'meow'\n"),
    "container_protocols": (
        "def test_playlist():\n    p = Playlist(['a', 'b'])\n    assert len(p) == 2 and 'a' in p and p[1] == 'b'\n"
        "    assert list(p) == ['a', 'b'] and list(reversed(p)) == ['b', 'a']\n    p[0] = 'z'\n"
        "    assert p[0] == 'z' and bool(Playlist([])) is False\n"
        "    assert Money(5) == Money(5) and Money(5) != Money(6) and len({Money(1), Money(1)}) == 1\n"
        "    assert Money(2) + Money(3) == Money(5) and repr(Money(2)) == 'Money(2)'\n",
        "class Playlist:\n    def __init__(self, songs):\n        self.songs = list(songs)\n    def __len__(self):\n"
        "        return len(self.songs)\n    def __getitem__(self, i):\n        return self.songs[i]\n"
        "    def __setitem__(self, i, v):\n        self.songs[i] = v\n    def __iter__(self):\n"
        "        return iter(self.songs)\n    def __reversed__(self):\n        return reversed(self.songs)\n"
        "    def __contains__(self, s):\n        return s in self.songs\nclass Money:\n    def __init__(self, c):\n"
        "        self.c = c\n    def __eq__(self, o):\n        return isinstance(o, Money) and o.c == self.c\n"
        "    def __hash__(self):\n        return hash(self.c)\n    def __add__(self, o):\n"
        "        return Money(self.c + o.c)\n"
        "    def __repr__(self):\n        return f'Money({self.c})'\n",
        "class Playlist:\n    def __init__(self, songs):\n        self.songs = list(songs)\n    def __len__(self):\n"
        "        return len(self.songs)\n    def __getitem__(self, i):\n        return self.songs[i]\n"
        "    def __setitem__(self, i, v):\n        pass\n    def __iter__(self):\n"
        "        return iter(self.songs)\n    def __reversed__(self):\n        return reversed(self.songs)\n"
        "    def __contains__(self, s):\n        return s in self.songs\nclass Money:\n    def __init__(self, c):\n"
        "        self.c = c\n    def __eq__(self, o):\n        return isinstance(o, Money) and o.c == self.c\n"
        "    def __hash__(self):\n        return hash(self.c)\n    def __add__(self, o):\n"
        "        return Money(self.c + o.c)\n"
        "    def __repr__(self):\n        return f'Money({self.c})'\n"),
    "context_manager_and_list_subclass": (
        "def test_timer():\n    with Timer() as t:\n        pass\n    assert t.elapsed >= 0 and t.stopped\n"
        "    s = Stack()\n    s.push(1)\n    s.push(2)\n"
        "    assert s == [1, 2] and s.peek() == 2 and isinstance(s, Stack)\n",
        "import time\nclass Timer:\n    def __enter__(self):\n        self.start = time.perf_counter()\n"
        "        self.stopped = False\n        return self\n    def __exit__(self, *exc):\n"
        "        self.elapsed = time.perf_counter() - self.start\n        self.stopped = True\nclass Stack(list):\n"
        "    def push(self, x):\n        self.append(x)\n    def peek(self):\n        return self[-1]\n",
        "import time\nclass Timer:\n    def __enter__(self):\n        self.start = time.perf_counter()\n"
        "        self.stopped = False\n        return self\n    def __exit__(self, *exc):\n"
        "        self.elapsed = time.perf_counter() - self.start\nclass Stack(list):\n"
        "    def push(self, x):\n        self.append(x)\n    def peek(self):\n        return self[-1]\n"),
    "exceptions_of_the_code": (
        "import pytest\ndef test_raises():\n    with pytest.raises(InsufficientFunds, match='short by 5') as info:\n"
        "        withdraw(10, 15)\n    assert info.value.shortfall == 5 and isinstance(info.value, ValueError)\n"
        "def test_except():\n    try:\n        withdraw(1, 2)\n    except InsufficientFunds as exc:\n"
        "        assert exc.shortfall == 1\n    else:\n        assert False\n",
        "class InsufficientFunds(ValueError):\n    def __init__(self, shortfall):\n"
        "        super().__init__(f'short by {shortfall}')\n        self.shortfall = shortfall\n"
        "def withdraw(balance, amount):\n    if amount > balance:\n        raise InsufficientFunds(amount - balance)\n"
        "    return balance - amount\n",
        "class InsufficientFunds(ValueError):\n    def __init__(self, shortfall):\n"
        "        super().__init__(f'short by {shortfall}')\n        self.shortfall = shortfall\n"
        "def withdraw(balance, amount):\n    if amount > balance:\n        raise ValueError('no')\n"
        "    return balance - amount\n"),
    # --- callables both ways -------------------------------------------------------------------------------------
    "callbacks_of_the_tests": (
        "import functools\nseen = []\nassert apply_twice(lambda x: x + 1, 3) == 5\n"
        "assert sort_by(['bbb', 'a', 'cc'], len) == ['a', 'cc', 'bbb']\nassert sort_by(['B', 'a'], str.lower) == "
        "['a', 'B']\nassert apply_twice(functools.partial(pow, 2), 1) == 4\napply_twice(seen.append, 7)\n"
        "assert seen == [7, None]\nassert apply_twice(int, '4') == 4\n",
        "def apply_twice(f, x):\n    return f(f(x))\ndef sort_by(xs, key):\n    return sorted(xs, key=key)\n",
        "def apply_twice(f, x):\n    return f(x)\ndef sort_by(xs, key):\n    return sorted(xs, key=key)\n"),
    "decorator_of_the_code_on_a_test_function": (
        "@memoize\ndef fib(n):\n    return n if n < 2 else fib(n - 1) + fib(n - 2)\n"
        "@count_calls\ndef hello():\n    return 'hi'\nassert fib(60) == 1548008755920\nhello()\nhello()\n"
        "assert hello.calls == 2\nassert hello.__name__ == 'hello'\n",
        "import functools\ndef memoize(f):\n    cache = {}\n    @functools.wraps(f)\n    def w(n):\n"
        "        if n not in cache:\n            cache[n] = f(n)\n        return cache[n]\n    return w\n"
        "def count_calls(f):\n    @functools.wraps(f)\n    def w(*a):\n        w.calls += 1\n        return f(*a)\n"
        "    w.calls = 0\n    return w\n",
        "import functools\ndef memoize(f):\n    cache = {}\n    @functools.wraps(f)\n    def w(n):\n"
        "        if n not in cache:\n            cache[n] = f(n)\n        return cache[n]\n    return w\n"
        "def count_calls(f):\n    @functools.wraps(f)\n    def w(*a):\n        return f(*a)\n"
        "    w.calls = 0\n    return w\n"),
    "objects_of_the_tests_handed_to_the_code": (
        "class Item:\n    def __init__(self, name, price):\n        self.name, self.price = name, price\n"
        "items = [Item('b', 3), Item('a', 1)]\nassert [i.name for i in cheapest_first(items)] == ['a', 'b']\n"
        "assert total(items) == 4\nrename(items[0], 'z')\nassert items[0].name == 'z'\n",
        "def cheapest_first(items):\n    return sorted(items, key=lambda i: i.price)\ndef total(items):\n"
        "    return sum(i.price for i in items)\ndef rename(item, name):\n    item.name = name\n",
        "def cheapest_first(items):\n    return sorted(items, key=lambda i: -i.price)\ndef total(items):\n"
        "    return sum(i.price for i in items)\ndef rename(item, name):\n    item.name = name\n"),
    "generators_both_ways": (
        "import itertools, types\nassert list(itertools.islice(primes(), 5)) == [2, 3, 5, 7, 11]\n"
        "assert isinstance(primes(), types.GeneratorType)\ndef squares():\n    n = 0\n    while True:\n"
        "        yield n * n\n        n += 1\nassert take(squares(), 4) == [0, 1, 4, 9]\n",
        "import itertools\ndef primes():\n    n = 2\n    while True:\n        if all(n % p for p in range(2, n)):\n"
        "            yield n\n        n += 1\ndef take(gen, k):\n    return list(itertools.islice(gen, k))\n",
        "import itertools\ndef primes():\n    n = 2\n    while True:\n        yield n\n        n += 1\n"
        "def take(gen, k):\n    return list(itertools.islice(gen, k))\n"),
    # --- async code ----------------------------------------------------------------------------------------------
    "async_code_both_ways": (
        "import asyncio\nasync def double(x):\n    await asyncio.sleep(0.01)\n    return 2 * x\n"
        "def test_run():\n    assert asyncio.run(double_all([1, 2])) == [2, 4]\n"
        "def test_theirs():\n    assert asyncio.run(gather_all([double(1), double(5)])) == [2, 10]\n"
        "async def test_awaited():\n    assert await double_all([3]) == [6]\n    assert [x async for x in count(3)] == "
        "[0, 1, 2]\n",
        "import asyncio\nasync def double_all(xs):\n    await asyncio.sleep(0)\n    return [2 * x for x in xs]\n"
        "async def gather_all(coros):\n    return list(await asyncio.gather(*coros))\nasync def count(n):\n"
        "    for i in range(n):\n        await asyncio.sleep(0)\n        yield i\n",
        "import asyncio\nasync def double_all(xs):\n    return [2 * x for x in xs]\n"
        "async def gather_all(coros):\n    return list(reversed(await asyncio.gather(*coros)))\nasync def count(n):\n"
        "    for i in range(n):\n        yield i\n"),
    # --- pytest as people use it ------------------------------------------------------------------------------------
    "fixtures_parametrize_and_marks": (
        "import pytest\n@pytest.fixture\ndef numbers():\n    return [3, 1, 2]\n@pytest.fixture\n"
        "def ordered(numbers):\n    yield sorted(numbers)\n@pytest.fixture(params=[1, 10])\ndef scale(request):\n"
        "    return request.param\ndef test_fixture(numbers, ordered):\n    assert smallest(numbers) == ordered[0]\n"
        "def test_scaled(scale):\n    assert smallest([scale, scale + 1]) == scale\n"
        "@pytest.mark.parametrize('xs,want', [([2, 5], 2), pytest.param([7], 7, id='one')])\n"
        "def test_param(xs, want):\n    assert smallest(xs) == want\n@pytest.mark.skip(reason='later')\n"
        "def test_later():\n    assert False\n@pytest.mark.xfail(reason='known')\ndef test_known():\n"
        "    assert smallest([]) == 0\ndef test_raises_and_approx():\n"
        "    with pytest.raises(ValueError, match='empty'):\n"
        "        smallest([])\n    assert smallest([0.1 + 0.2]) == pytest.approx(0.3)\n",
        "def smallest(xs):\n    if not xs:\n        raise ValueError('empty list')\n    return min(xs)\n",
        "def smallest(xs):\n    if not xs:\n        raise ValueError('empty list')\n    return xs[0]\n"),
    # One name written in a tuple takes each case as the tuple of its values (b == "x"), as pytest does; one name
    # written as a string takes the case whole.
    "parametrize_one_name_in_a_tuple": (
        "import pytest\n@pytest.mark.parametrize(('word',), [('Level',), ('Noon',)])\n"
        "def test_tuple_name(word):\n    assert is_palindrome(word)\n"
        "@pytest.mark.parametrize('pair', [('Ab', 'bA')])\ndef test_whole_case(pair):\n"
        "    assert is_palindrome(pair[0] + pair[1])\n",
        "def is_palindrome(s):\n    s = s.lower()\n    return s == s[::-1]\n",
        "def is_palindrome(s):\n    return s == s[::-1]\n"),
    "capsys_tmp_path_and_caplog": (
        "import json, logging\ndef test_print(capsys):\n    receipt(['tea', 'cake'])\n"
        "    assert capsys.readouterr().out == 'tea\\ncake\\n'\ndef test_file(tmp_path):\n"
        "    path = tmp_path / 'out.json'\n    save(str(path), {'a': 1})\n"
        "    assert json.loads(path.read_text()) == {'a': 1}\n"
        "    assert load(path) == {'a': 1}\ndef test_log(caplog):\n    caplog.set_level(logging.INFO)\n"
        "    receipt([])\n    assert 'empty receipt' in caplog.text\n",
        "import json, logging\ndef receipt(items):\n    if not items:\n"
        "        logging.getLogger('shop').info('empty receipt')\n    for i in items:\n        print(i)\n"
        "def save(path, data):\n    with open(path, 'w') as f:\n        json.dump(data, f)\ndef load(path):\n"
        "    return json.loads(path.read_text())\n",
        "import json, logging\ndef receipt(items):\n    for i in items:\n        print(i, end=' ')\n"
        "def save(path, data):\n    with open(path, 'w') as f:\n        json.dump(data, f)\ndef load(path):\n"
        "    return json.loads(path.read_text())\n"),
    "monkeypatch_env_and_module": (
        "import random\ndef test_env(monkeypatch):\n    monkeypatch.setenv('GREETING', 'hey')\n"
        "    assert greet('ann') == 'hey ann'\n    monkeypatch.delenv('GREETING')\n"
        "    assert greet('bo') == 'hello bo'\n"
        "def test_random(monkeypatch):\n    monkeypatch.setattr(random, 'random', lambda: 0.9)\n"
        "    assert coin() == 'tails'\n    monkeypatch.setattr('random.random', lambda: 0.1)\n"
        "    assert coin() == 'heads'\n"
        "def test_input(monkeypatch):\n    answers = iter(['x', '7'])\n"
        "    monkeypatch.setattr('builtins.input', lambda prompt='': next(answers))\n    assert ask_number() == 7\n",
        "import os, random\ndef greet(name):\n    return os.environ.get('GREETING', 'hello') + ' ' + name\n"
        "def coin():\n"
        "    return 'heads' if random.random() < 0.5 else 'tails'\ndef ask_number():\n    while True:\n"
        "        text = input('number? ')\n        if text.isdigit():\n            return int(text)\n",
        "import os, random\ndef greet(name):\n    return 'hello ' + name\ndef coin():\n"
        "    return 'heads' if random.random() < 0.5 else 'tails'\ndef ask_number():\n    while True:\n"
        "        text = input('number? ')\n        if text.isdigit():\n            return int(text)\n"),
    "mock_patch_of_input": (
        "from unittest import mock\ndef test_input():\n"
        "    with mock.patch('builtins.input', side_effect=['a', '4']) as m:\n"
        "        assert ask_number() == 4\n    assert m.call_count == 2\n",
        "def ask_number():\n    while True:\n        text = input('number? ')\n        if text.isdigit():\n"
        "            return int(text)\n",
        "def ask_number():\n    return int(input('number? ') or 0) if False else 0\n"),
    "unittest_testcase": (
        "import unittest\nclass TestTemps(unittest.TestCase):\n    def setUp(self):\n        self.temps = [20, 25]\n"
        "    def test_mean(self):\n        self.assertAlmostEqual(mean(self.temps), 22.5)\n    def test_empty(self):\n"
        "        with self.assertRaises(ZeroDivisionError):\n            mean([])\n    def test_each(self):\n"
        "        for xs, want in (([1], 1), ([1, 3], 2)):\n            with self.subTest(xs=xs):\n"
        "                self.assertEqual(mean(xs), want)\n",
        "def mean(xs):\n    return sum(xs) / len(xs)\n",
        "def mean(xs):\n    return sum(xs) // len(xs)\n"),
    "test_class_with_setup_method": (
        "import pytest\nclass TestQueue:\n    def setup_method(self):\n        self.q = make_queue()\n"
        "    def test_push(self):\n        self.q.push(1)\n        assert self.q.pop() == 1\n"
        "    def test_empty(self):\n"
        "        with pytest.raises(IndexError):\n            self.q.pop()\n",
        "class Queue:\n    def __init__(self):\n        self.items = []\n    def push(self, x):\n"
        "        self.items.append(x)\n    def pop(self):\n        return self.items.pop(0)\ndef make_queue():\n"
        "    return Queue()\n",
        "class Queue:\n    def __init__(self):\n        self.items = [0]\n    def push(self, x):\n"
        "        self.items.append(x)\n    def pop(self):\n        return self.items.pop(0)\ndef make_queue():\n"
        "    return Queue()\n"),
    # --- how a tests file is run: helpers it calls, and the runners it starts itself ------------------------------
    "helper_called_later": (
        "def check_pair(a, b, want):\n    assert add(a, b) == want\n    assert add(b, a) == want\n"
        "check_pair(1, 2, 3)\nfor n in range(3):\n    check_pair(n, n, 2 * n)\n",
        "def add(a, b):\n    return a + b\n",
        "def add(a, b):\n    return a + b + (a == b)\n"),
    "unittest_main_at_the_end": (
        "import unittest\nclass TestAdd(unittest.TestCase):\n    def test_add(self):\n"
        "        self.assertEqual(add(2, 3), 5)\nunittest.main()\n",
        "def add(a, b):\n    return a + b\n",
        "def add(a, b):\n    return a * b\n"),
    "unittest_main_under_main_guard": (
        "import unittest\nclass TestAdd(unittest.TestCase):\n    def test_add(self):\n"
        "        self.assertEqual(add(2, 3), 5)\n\nif __name__ == '__main__':\n    unittest.main(verbosity=2)\n",
        "def add(a, b):\n    return a + b\n",
        "def add(a, b):\n    return a * b\n"),
    "pytest_main_at_the_end": (
        "import pytest\ndef test_add():\n    assert add(2, 3) == 5\npytest.main([__file__, '-q'])\n",
        "def add(a, b):\n    return a + b\n",
        "def add(a, b):\n    return a * b\n"),
    "module_under_test_imported_by_name": (
        "from calculator import add, Calculator\nimport calculator\ndef test_add():\n    assert add(2, 3) == 5\n"
        "    assert calculator.add(1, 1) == 2 and Calculator().total([1, 2]) == 3\n",
        "def add(a, b):\n    return a + b\nclass Calculator:\n    def total(self, xs):\n        return sum(xs)\n",
        "def add(a, b):\n    return a * b\nclass Calculator:\n    def total(self, xs):\n        return sum(xs)\n"),
    # --- state the tests share with the code (issue 32) ----------------------------------------------------------
    "unittest_changes_a_dict_read_from_the_object": (
        "import unittest\nclass TestInventory(unittest.TestCase):\n    def test_add(self):\n"
        "        inv = Inventory()\n        inv.stock['apple'] = 3\n        inv.add('apple', 2)\n"
        "        self.assertEqual(inv.stock['apple'], 5)\n        self.assertEqual(inv.stock, {'apple': 5})\n"
        "        self.assertIsInstance(inv.stock, dict)\n    def test_items(self):\n        inv = Inventory()\n"
        "        inv.log.append('opened')\n        inv.add('pear', 1)\n"
        "        self.assertEqual(inv.log, ['opened', 'pear'])\n        self.assertIn('pear', inv.log)\n",
        "class Inventory:\n    def __init__(self):\n        self.stock = {}\n        self.log = []\n"
        "    def add(self, name, n):\n        self.stock[name] = self.stock.get(name, 0) + n\n"
        "        self.log.append(name)\n",
        "class Inventory:\n    def __init__(self):\n        self.stock = {}\n        self.log = []\n"
        "    def add(self, name, n):\n        self.stock[name] = n\n        self.log.append(name)\n"),
    "nested_records_changed_through_the_object": (
        "def test_grades():\n    system = School()\n    system.students['Alice'] = {'grades': []}\n"
        "    system.students['Alice']['grades'].append(90)\n    system.grade('Alice', 70)\n"
        "    assert system.average('Alice') == 80\n    assert system.students == {'Alice': {'grades': [90, 70]}}\n"
        "    for name, record in system.students.items():\n        record['grades'].clear()\n"
        "    assert system.average('Alice') == 0\n",
        "class School:\n    def __init__(self):\n        self.students = {}\n    def grade(self, name, g):\n"
        "        self.students[name]['grades'].append(g)\n    def average(self, name):\n"
        "        gs = self.students[name]['grades']\n        return sum(gs) / len(gs) if gs else 0\n",
        "class School:\n    def __init__(self):\n        self.students = {}\n    def grade(self, name, g):\n"
        "        self.students[name]['grades'] = [g]\n    def average(self, name):\n"
        "        gs = self.students[name]['grades']\n        return sum(gs) / len(gs) if gs else 0\n"),
    "container_handed_over_and_changed_later": (
        "def test_menu():\n    menu = ['tea']\n    order = Order()\n    order.menu = menu\n"
        "    menu.append('cake')\n    assert order.count() == 2\n    order.add('pie')\n"
        "    assert menu == ['tea', 'cake', 'pie']\ndef test_registry():\n    settings = {'size': 1}\n"
        "    app = App(settings)\n    settings['size'] = 5\n    assert app.size() == 5\n",
        "class Order:\n    def __init__(self):\n        self.menu = []\n    def count(self):\n"
        "        return len(self.menu)\n    def add(self, item):\n        self.menu.append(item)\n"
        "class App:\n    def __init__(self, settings):\n        self.settings = settings\n    def size(self):\n"
        "        return self.settings['size']\n",
        "class Order:\n    def __init__(self):\n        self.menu = []\n    def count(self):\n"
        "        return len(self.menu) + 1\n    def add(self, item):\n        self.menu.append(item)\n"
        "class App:\n    def __init__(self, settings):\n        self.settings = dict(settings)\n    def size(self):\n"
        "        return self.settings['size']\n"),
    "copies_of_the_codes_objects": (
        "import copy, pickle\ndef test_deepcopy():\n    cart = Cart()\n    cart.add('tea')\n"
        "    saved = copy.deepcopy(cart)\n    saved.add('cake')\n    assert cart.items == ['tea']\n"
        "    assert saved.items == ['tea', 'cake']\ndef test_copy_and_pickle():\n    cart = Cart()\n"
        "    twin = pickle.loads(pickle.dumps(cart))\n    twin.add('pie')\n    assert cart.items == []\n"
        "    items = copy.copy(cart.items)\n    items.append('x')\n    assert cart.items == []\n",
        "class Cart:\n    def __init__(self):\n        self.items = []\n    def add(self, item):\n"
        "        self.items.append(item)\n",
        "SHARED = []\nclass Cart:\n    def __init__(self):\n        self.items = SHARED\n    def add(self, item):\n"
        "        self.items.append(item)\n"),
    "subclass_of_a_code_class_overrides_a_method": (
        "import unittest\nclass Loud(Greeter):\n    def greet(self):\n        return super().greet().upper()\n"
        "class Polite(Greeter):\n    def __init__(self, name, title):\n        super().__init__(name)\n"
        "        self.title = title\n    def greet(self):\n        return 'Good day ' + self.title\n"
        "class TestGreeters(unittest.TestCase):\n    def test_loud(self):\n"
        "        self.assertEqual(Loud('Ann').hello(), 'HELLO, Ann!')\n"
        "        self.assertIsInstance(Loud('Ann'), Greeter)\n    def test_polite(self):\n"
        "        self.assertEqual(Polite('Bo', 'Sir').hello(), 'Good day Sir, Bo!')\n",
        "class Greeter:\n    def __init__(self, name):\n        self.name = name\n    def greet(self):\n"
        "        return 'Hello'\n    def hello(self):\n        return f'{self.greet()}, {self.name}!'\n",
        "class Greeter:\n    def __init__(self, name):\n        self.name = name\n    def greet(self):\n"
        "        return 'Hello'\n    def hello(self):\n        return f'Hello, {self.name}!'\n"),
    "threads_calling_the_code_at_once": (
        "import threading\nfrom concurrent.futures import ThreadPoolExecutor\ndef test_counter():\n"
        "    c = Counter()\n    def work():\n        for _ in range(50):\n            c.increment()\n"
        "    threads = [threading.Thread(target=work) for _ in range(4)]\n    for t in threads:\n        t.start()\n"
        "    for t in threads:\n        t.join()\n    assert c.value == 200\ndef test_pool():\n"
        "    with ThreadPoolExecutor(max_workers=4) as pool:\n"
        "        assert list(pool.map(square, range(12))) == [x * x for x in range(12)]\n",
        "import threading\nclass Counter:\n    def __init__(self):\n        self.value = 0\n"
        "        self.lock = threading.Lock()\n    def increment(self):\n        with self.lock:\n"
        "            self.value += 1\ndef square(x):\n    return x * x\n",
        "import threading\nclass Counter:\n    def __init__(self):\n        self.value = 0\n"
        "        self.lock = threading.Lock()\n    def increment(self):\n        with self.lock:\n"
        "            self.value += 1\ndef square(x):\n    return x + x\n"),
    "json_and_dict_views_of_what_the_code_keeps": (
        "import json\ndef test_views():\n    s = Store()\n    assert s.data.keys() == {'a', 'b'}\n"
        "    for name, record in s.data.items():\n        record['n'] += 10\n    assert s.total() == 23\n"
        "    assert json.loads(json.dumps(s.data)) == {'a': {'n': 11}, 'b': {'n': 12}}\n"
        "    assert json.dumps(s.rows) == '[[1, 2], [3]]'\n",
        "class Store:\n    def __init__(self):\n        self.data = {'a': {'n': 1}, 'b': {'n': 2}}\n"
        "        self.rows = [[1, 2], [3]]\n    def total(self):\n"
        "        return sum(r['n'] for r in self.data.values())\n",
        "class Store:\n    def __init__(self):\n        self.data = {'a': {'n': 1}, 'b': {'n': 2}}\n"
        "        self.rows = [[1, 2], [3]]\n    def total(self):\n        return len(self.data)\n"),
    # --- one namespace: a global rebound on either side, and a list of the tests' object the code changes ----------
    "global_counter_rebound_by_the_code": (
        "increment()\nincrement()\nassert counter == 2\n",
        "counter = 0\ndef increment():\n    global counter\n    counter += 1\n",
        "counter = 0\ndef increment():\n    global counter\n    counter = 1\n"),
    "global_flag_rebound_by_the_tests": (
        "import unittest\nclass T(unittest.TestCase):\n    def setUp(self):\n        global history\n"
        "        history = []\n    def test_debug(self):\n        global DEBUG\n        DEBUG = True\n"
        "        self.assertEqual(mode(), 'debug')\n        self.assertEqual(modes(), ['debug'])\n"
        "    def test_prod(self):\n        global DEBUG\n        DEBUG = False\n"
        "        self.assertEqual(mode(), 'prod')\n        self.assertEqual(modes(), ['prod'])\n",
        "DEBUG = False\nhistory = []\ndef mode():\n    found = 'debug' if DEBUG else 'prod'\n"
        "    history.append(found)\n    return found\ndef modes():\n    return list(history)\n",
        "DEBUG = False\nhistory = []\ndef mode():\n    history.append('prod')\n    return 'prod'\n"
        "def modes():\n    return list(history)\n"),
    "method_patched_onto_the_codes_class": (
        "from unittest import mock\ndef test_patch(monkeypatch):\n"
        "    monkeypatch.setattr(Service, 'load', lambda self: 'ab')\n    assert Service().summary() == 'AB'\n"
        "def test_patch_object():\n    with mock.patch.object(Service, 'load', return_value='xy'):\n"
        "        assert Service().summary() == 'XY'\n    assert Service().summary() == 'REAL'\n"
        "    assert 'summary' in dir(Service)\n",
        "class Service:\n    def load(self):\n        return 'real'\n    def summary(self):\n"
        "        return self.load().upper()\n",
        "class Service:\n    def load(self):\n        return 'real'\n    def summary(self):\n        return 'REAL'\n"),
    "nested_lists_the_code_keeps_through_a_shallow_copy": (
        "def test_independent():\n    rows = [[1, 2], [3, 4]]\n    g = Grid(rows)\n    rows[0][0] = 99\n"
        "    assert g.cell(0, 0) == 1\n",
        "import copy\nclass Grid:\n    def __init__(self, rows):\n        self.rows = copy.deepcopy(rows)\n"
        "    def cell(self, r, c):\n        return self.rows[r][c]\n",
        "class Grid:\n    def __init__(self, rows):\n        self.rows = [r for r in rows]\n"
        "    def cell(self, r, c):\n        return self.rows[r][c]\n"),
    "rows_changed_in_place_seen_through_an_alias": (
        "m = [[1, 2, 3], [4, 5, 6], [7, 8, 9]]\nfirst_row = m[0]\nrotate(m)\n"
        "assert m == [[7, 4, 1], [8, 5, 2], [9, 6, 3]]\nassert first_row == [7, 4, 1] and m[0] is first_row\n",
        "def rotate(m):\n    n = len(m)\n    for i in range(n):\n        for j in range(i + 1, n):\n"
        "            m[i][j], m[j][i] = m[j][i], m[i][j]\n    for row in m:\n        row.reverse()\n",
        "def rotate(m):\n    m[:] = [list(r) for r in zip(*m[::-1])]\n"),
    "global_the_code_binds_at_run_time": (
        "load()\nassert DATA == [1, 2, 3]\n",
        "def load():\n    global DATA\n    DATA = [1, 2, 3]\n",
        "def load():\n    global DATA\n    DATA = [1, 2]\n"),
    "ordered_dict_moved_to_end": (
        "from collections import OrderedDict\nod = touch(OrderedDict(a=1, b=2), 'a')\nassert list(od) == ['b', 'a']\n",
        "def touch(od, key):\n    od.move_to_end(key)\n    return od\n",
        "def touch(od, key):\n    return od\n"),
    "global_the_code_creates_and_counts": (
        "def test_counts():\n    connect()\n    assert conn_count == 1\n    connect()\n    assert conn_count == 2\n",
        "def connect():\n    global conn_count\n    try:\n        conn_count += 1\n    except NameError:\n"
        "        conn_count = 1\n",
        "def connect():\n    global conn_count\n    conn_count = 1\n"),
    "logger_swapped_for_a_tests_function": (
        "def test_a():\n    got = []\n    def my(x):\n        got.append(x)\n    set_logger(my)\n    emit(3)\n"
        "    assert got == [3]\n    assert log_fn is my\n",
        "log_fn = print\ndef set_logger(f):\n    global log_fn\n    log_fn = f\ndef emit(x):\n    log_fn(x)\n",
        "log_fn = print\ndef set_logger(f):\n    pass\ndef emit(x):\n    log_fn(x)\n"),
    "lru_order_read_through_a_global": (
        "def test_order():\n    put('a', 1)\n    put('b', 2)\n    get('a')\n    assert list(cache) == ['b', 'a']\n"
        "    assert list(cache.items()) == [('b', 2), ('a', 1)]\n",
        "from collections import OrderedDict\ncache = OrderedDict()\ndef put(k, v):\n    cache[k] = v\n"
        "def get(k):\n    cache.move_to_end(k)\n    return cache[k]\n",
        "from collections import OrderedDict\ncache = OrderedDict()\ndef put(k, v):\n    cache[k] = v\n"
        "def get(k):\n    return cache[k]\n"),
    "global_of_a_module_the_tests_import": (
        "import tracker\ndef test_count():\n    tracker.increment()\n    tracker.increment()\n"
        "    assert tracker.count == 2\n",
        "count = 0\ndef increment():\n    global count\n    count += 1\n",
        "count = 0\ndef increment():\n    global count\n    count = 1\n"),
    "list_of_the_tests_object_changed_by_the_code": (
        "class Order:\n    def __init__(self, items):\n        self.items = items\n        self.total = 0\n"
        "def test_add():\n    o = Order([10])\n    add_item(o, 5)\n    assert o.items == [10, 5]\n"
        "    assert o.total == 15\n",
        "def add_item(order, price):\n    order.items.append(price)\n    order.total = sum(order.items)\n",
        "def add_item(order, price):\n    order.total = sum(order.items + [price])\n"),
    # --- one working directory: files by relative names, both ways ------------------------------------------------
    "files_by_relative_name_in_a_testcase": (
        "import csv, os, unittest\nclass TestReport(unittest.TestCase):\n    def setUp(self):\n"
        "        with open('sales.csv', 'w', newline='') as fh:\n"
        "            csv.writer(fh).writerows([['region', 'amount'], ['north', '10'], ['south', '5'],\n"
        "                                      ['north', '7']])\n"
        "    def tearDown(self):\n        for name in ('sales.csv', 'summary.txt'):\n"
        "            if os.path.exists(name):\n                os.remove(name)\n"
        "    def test_totals(self):\n        self.assertEqual(totals('sales.csv'), {'north': 17, 'south': 5})\n"
        "    def test_summary_file(self):\n        write_summary('sales.csv', 'summary.txt')\n"
        "        with open('summary.txt') as fh:\n"
        "            self.assertEqual(fh.read().splitlines(), ['north 17', 'south 5'])\n",
        "import csv\ndef totals(path):\n    out = {}\n    with open(path, newline='') as fh:\n"
        "        for row in csv.DictReader(fh):\n            out[row['region']] = out.get(row['region'], 0) + "
        "int(row['amount'])\n    return out\ndef write_summary(src, dst):\n    with open(dst, 'w') as fh:\n"
        "        for region, amount in sorted(totals(src).items()):\n            fh.write(f'{region} {amount}\\n')\n",
        "import csv\ndef totals(path):\n    out = {}\n    with open(path, newline='') as fh:\n"
        "        for row in csv.DictReader(fh):\n            out[row['region']] = int(row['amount'])\n    return out\n"
        "def write_summary(src, dst):\n    with open(dst, 'w') as fh:\n"
        "        for region, amount in sorted(totals(src).items()):\n            fh.write(f'{region} {amount}\\n')\n"),
    "sqlite_database_both_write": (
        "import os, sqlite3\nimport pytest\n@pytest.fixture\ndef db():\n    con = sqlite3.connect('test.db')\n"
        "    con.execute('create table users (name text, age int)')\n"
        "    con.executemany('insert into users values (?, ?)', [('ann', 31), ('bob', 17)])\n    con.commit()\n"
        "    yield 'test.db'\n    con.close()\n    os.remove('test.db')\n"
        "def test_adults(db):\n    assert adults(db) == ['ann']\n"
        "def test_add_user(db):\n    add_user(db, 'cid', 40)\n    con = sqlite3.connect(db)\n"
        "    assert con.execute('select count(*) from users').fetchone()[0] == 3\n"
        "    assert adults(db) == ['ann', 'cid']\n",
        "import sqlite3\ndef adults(path):\n    con = sqlite3.connect(path)\n"
        "    return [n for (n,) in con.execute('select name from users where age >= 18 order by name')]\n"
        "def add_user(path, name, age):\n    con = sqlite3.connect(path)\n"
        "    con.execute('insert into users values (?, ?)', (name, age))\n    con.commit()\n    con.close()\n",
        "import sqlite3\ndef adults(path):\n    con = sqlite3.connect(path)\n"
        "    return [n for (n,) in con.execute('select name from users order by name')]\n"
        "def add_user(path, name, age):\n    con = sqlite3.connect(path)\n"
        "    con.execute('insert into users values (?, ?)', (name, age))\n    con.commit()\n    con.close()\n"),
    "zip_and_xml_files": (
        "import zipfile\nimport xml.etree.ElementTree as ET\nwith zipfile.ZipFile('bundle.zip', 'w') as z:\n"
        "    z.writestr('b.txt', 'beta')\n    z.writestr('a.txt', 'alpha')\n"
        "assert list_archive('bundle.zip') == ['a.txt', 'b.txt']\n"
        "ET.ElementTree(ET.fromstring('<items><item price=\"2\"/><item price=\"3\"/></items>')).write('items.xml')\n"
        "assert total_price('items.xml') == 5\nexport_xml({'x': 1, 'y': 2}, 'out.xml')\n"
        "assert [(e.tag, e.text) for e in ET.parse('out.xml').getroot()] == [('x', '1'), ('y', '2')]\n",
        "import zipfile\nimport xml.etree.ElementTree as ET\ndef list_archive(path):\n"
        "    with zipfile.ZipFile(path) as z:\n        return sorted(z.namelist())\ndef total_price(path):\n"
        "    return sum(int(e.get('price')) for e in ET.parse(path).getroot().iter('item'))\n"
        "def export_xml(data, path):\n    root = ET.Element('data')\n    for key, value in data.items():\n"
        "        ET.SubElement(root, key).text = str(value)\n    ET.ElementTree(root).write(path)\n",
        "import zipfile\nimport xml.etree.ElementTree as ET\ndef list_archive(path):\n"
        "    with zipfile.ZipFile(path) as z:\n        return z.namelist()\ndef total_price(path):\n"
        "    return sum(int(e.get('price')) for e in ET.parse(path).getroot().iter('item'))\n"
        "def export_xml(data, path):\n    root = ET.Element('data')\n    for key, value in data.items():\n"
        "        ET.SubElement(root, key).text = str(value)\n    ET.ElementTree(root).write(path)\n"),
    "chdir_into_tmp_path": (
        "import os\ndef test_init(tmp_path, monkeypatch):\n    monkeypatch.chdir(tmp_path)\n    init_project('demo')\n"
        "    assert (tmp_path / 'demo' / 'config.ini').read_text().startswith('[project]')\n"
        "    assert project_name(os.path.join('demo', 'config.ini')) == 'demo'\n"
        "    assert sorted(os.listdir('demo')) == ['config.ini', 'src']\n",
        "import configparser, os\ndef init_project(name):\n    os.makedirs(os.path.join(name, 'src'))\n"
        "    with open(os.path.join(name, 'config.ini'), 'w') as fh:\n"
        "        fh.write(f'[project]\\nname = {name}\\n')\n"
        "def project_name(path):\n    parser = configparser.ConfigParser()\n    parser.read(path)\n"
        "    return parser['project']['name']\n",
        "import configparser, os\ndef init_project(name):\n    os.makedirs(name)\n"
        "    with open(os.path.join(name, 'config.ini'), 'w') as fh:\n"
        "        fh.write(f'[project]\\nname = {name}\\n')\n"
        "def project_name(path):\n    parser = configparser.ConfigParser()\n    parser.read(path)\n"
        "    return parser['project']['name']\n"),
    # --- one random generator: the tests' seed decides the code's draws, and the code's draws move the tests' ------
    "random_seed_in_a_testcase": (
        "import random, unittest\nclass TestDeck(unittest.TestCase):\n    def test_reproducible(self):\n"
        "        random.seed(1)\n        a = shuffle_deck()\n        random.seed(1)\n        b = shuffle_deck()\n"
        "        self.assertEqual(a, b)\n        self.assertEqual(sorted(a), list(range(52)))\n"
        "    def test_same_draw_as_here(self):\n        random.seed(3)\n        x = roll()\n        random.seed(3)\n"
        "        self.assertEqual(x, random.randint(1, 6))\n"
        "    def test_the_codes_draws_move_ours_on(self):\n        random.seed(5)\n        roll()\n"
        "        mine = random.random()\n        random.seed(5)\n        random.randint(1, 6)\n"
        "        self.assertEqual(mine, random.random())\n",
        "import random\ndef shuffle_deck():\n    deck = list(range(52))\n    random.shuffle(deck)\n    return deck\n"
        "def roll():\n    return random.randint(1, 6)\n",
        "import random\nrng = random.Random()\ndef shuffle_deck():\n    deck = list(range(52))\n    rng.shuffle(deck)\n"
        "    return deck\ndef roll():\n    return rng.randint(1, 6)\n"),
    "seeded_fixture_and_gauss": (
        "import random\nimport pytest\n@pytest.fixture(autouse=True)\ndef seeded():\n    random.seed(42)\n"
        "def test_winners_are_the_seeded_sample():\n    got = pick_winners(['a', 'b', 'c', 'd'], 2)\n"
        "    random.seed(42)\n    assert got == random.sample(['a', 'b', 'c', 'd'], 2)\n"
        "def test_noise_is_the_seeded_gauss():\n    noisy = add_noise([0.0, 0.0, 0.0])\n    here = random.gauss(0, 1)\n"
        "    random.seed(42)\n    assert noisy + [here] == [random.gauss(0, 1) for _ in range(4)]\n",
        "import random\ndef pick_winners(names, k):\n    return random.sample(names, k)\ndef add_noise(xs):\n"
        "    return [x + random.gauss(0, 1) for x in xs]\n",
        "import random\ndef pick_winners(names, k):\n    return random.choices(names, k=k)\ndef add_noise(xs):\n"
        "    return [x + random.gauss(0, 1) for x in xs]\n"),
    # --- the standard library's named tuples, as their own types ------------------------------------------------
    "standard_named_tuples_both_ways": (
        "import inspect, os, time\nfrom urllib.parse import urlsplit\ndef test_cache_info():\n    fib(20)\n"
        "    info = fib.cache_info()\n    assert info.hits == 18 and info.misses == 21 and info.maxsize is None\n"
        "    assert info == cache_stats() and info._fields == ('hits', 'misses', 'maxsize', 'currsize')\n"
        "def test_stat_and_time(tmp_path):\n    path = tmp_path / 'f.txt'\n    path.write_text('hello')\n"
        "    st = file_stat(str(path))\n    assert isinstance(st, os.stat_result) and st.st_size == 5\n"
        "    assert st.st_mtime == os.stat(path).st_mtime\n    day = parse_day('2024-03-01')\n"
        "    assert isinstance(day, time.struct_time) and (day.tm_mon, day.tm_yday) == (3, 61)\n"
        "def test_urls():\n    url = 'https://user@example.com:8443/a/b?q=1#top'\n    parts = split_url(url)\n"
        "    assert parts.hostname == 'example.com' and parts.port == 8443 and parts.username == 'user'\n"
        "    assert parts == urlsplit(url) and parts.geturl() == url\n"
        "    assert parts._replace(fragment='').geturl() == url[:-4]\n"
        "    assert host_of(urlsplit('http://x.org/p')) == 'x.org'\n"
        "def test_inspect_spec():\n    spec = spec_of_pair()\n"
        "    assert isinstance(spec, inspect.FullArgSpec) and spec.args == ['a', 'b'] and spec.defaults == (1,)\n",
        "import functools, inspect, os, time\nfrom urllib.parse import urlsplit\n@functools.lru_cache(maxsize=None)\n"
        "def fib(n):\n    return n if n < 2 else fib(n - 1) + fib(n - 2)\n"
        "def cache_stats():\n    return fib.cache_info()\n"
        "def file_stat(path):\n    return os.stat(path)\n"
        "def parse_day(text):\n    return time.strptime(text, '%Y-%m-%d')\n"
        "def split_url(url):\n    return urlsplit(url)\ndef host_of(parts):\n    return parts.hostname\n"
        "def spec_of_pair():\n    return inspect.getfullargspec(lambda a, b=1: a + b)\n",
        "import functools, inspect, os, time\nfrom urllib.parse import urlparse\n@functools.lru_cache(maxsize=None)\n"
        "def fib(n):\n    return n if n < 2 else fib(n - 1) + fib(n - 2)\n"
        "def cache_stats():\n    return fib.cache_info()\n"
        "def file_stat(path):\n    return os.stat(path)\n"
        "def parse_day(text):\n    return time.strptime(text, '%Y-%d-%m')\n"
        "def split_url(url):\n    return urlparse(url)\ndef host_of(parts):\n    return parts.hostname\n"
        "def spec_of_pair():\n    return inspect.getfullargspec(lambda a, b=1: a + b)\n"),
    # --- introspection of the code's functions, classes and dataclasses, answered by its process -------------------
    "introspection_of_the_codes_objects": (
        "import dataclasses, inspect, typing\nimport pytest\ndef test_signature():\n"
        "    sig = inspect.signature(make_user)\n    assert list(sig.parameters) == ['name', 'age', 'tags', 'admin']\n"
        "    assert sig.parameters['age'].default == 18\n"
        "    assert sig.parameters['tags'].kind is inspect.Parameter.VAR_POSITIONAL\n"
        "    assert sig.parameters['admin'].kind is inspect.Parameter.KEYWORD_ONLY\n"
        "    assert sig.parameters['name'].annotation is str and sig.return_annotation is dict\n"
        "    assert str(sig) == '(name: str, age: int = 18, *tags, admin=False) -> dict'\n"
        "    sig.bind('ann', 3, admin=True)\n    with pytest.raises(TypeError):\n        sig.bind(age=3)\n"
        "def test_wrapped():\n"
        "    assert inspect.signature(cached_area) == inspect.signature(cached_area.__wrapped__)\n"
        "    assert list(inspect.signature(cached_area).parameters) == ['width', 'height']\n"
        "    assert cached_area.__wrapped__(2, 3) == 6 and cached_area.__name__ == 'cached_area'\n"
        "def test_predicates_and_docs():\n"
        "    assert inspect.isfunction(make_user) and callable(make_user) and not inspect.isclass(make_user)\n"
        "    assert inspect.isclass(Account) and inspect.ismethod(Account('a').deposit)\n"
        "    assert inspect.iscoroutinefunction(fetch) and not inspect.iscoroutinefunction(make_user)\n"
        "    assert inspect.getdoc(make_user) == 'Make a user record.'\n"
        "    assert inspect.getdoc(Account) == 'A bank account.'\n"
        "    assert inspect.getdoc(Account('a').deposit) == 'Add money.'\n"
        "    assert list(inspect.signature(Account).parameters) == ['owner', 'balance']\n"
        "    assert list(inspect.signature(Account('a').deposit).parameters) == ['amount']\n"
        "    assert typing.get_type_hints(make_user) == {'name': str, 'age': int, 'return': dict}\n"
        "def test_dataclass_fields_and_vars():\n    p = make_point(1, 2)\n"
        "    assert [f.name for f in dataclasses.fields(p)] == ['x', 'y', 'tags']\n"
        "    x, y, tags = dataclasses.fields(Point)\n"
        "    assert y.default == 0 and x.default is dataclasses.MISSING and tags.default_factory is list\n"
        "    assert x.type is int and x.init and x.repr\n"
        "    assert dataclasses.asdict(p) == {'x': 1, 'y': 2, 'tags': []}\n    moved = dataclasses.replace(p, x=5)\n"
        "    assert (moved.x, moved.y) == (5, 2) and p.x == 1\n"
        "    assert vars(Account('ann', 5)) == {'owner': 'ann', 'balance': 5}\n",
        _INTROSPECTED, _INTROSPECTED.replace("age: int = 18", "age: int = 0")),
    "records_holding_callables_handed_over_test_after_test": (
        "import unittest\nfrom datetime import datetime\nclass TestInbox(unittest.TestCase):\n"
        "    def test_one(self):\n        box = Inbox()\n"
        "        box.mail = [{'size': 10, 'time': datetime.now}, {'size': 5, 'time': datetime.now}]\n"
        "        self.assertEqual(box.used(), 15)\n    def test_two(self):\n        box = Inbox()\n"
        "        box.mail = [{'size': 1, 'time': datetime.now}, {'size': 2, 'time': datetime.now}]\n"
        "        self.assertEqual(box.used(), 3)\n    def test_three(self):\n        box = Inbox()\n"
        "        box.mail = [{'size': 7, 'time': datetime.now}]\n        box.drop_first()\n"
        "        self.assertEqual(box.mail, [])\n",
        "class Inbox:\n    def __init__(self):\n        self.mail = []\n    def used(self):\n"
        "        return sum(m['size'] for m in self.mail)\n    def drop_first(self):\n        del self.mail[0]\n",
        "class Inbox:\n    def __init__(self):\n        self.mail = []\n    def used(self):\n"
        "        return sum(m['size'] for m in self.mail[1:])\n    def drop_first(self):\n        del self.mail[0]\n"),
    "database_under_the_temporary_folder": (
        "import os, sqlite3, unittest\nfrom tempfile import gettempdir\nclass TestUsers(unittest.TestCase):\n"
        "    def setUp(self):\n        self.path = os.path.join(gettempdir(), 'users.db')\n"
        "        with sqlite3.connect(self.path) as db:\n"
        "            db.execute('CREATE TABLE IF NOT EXISTS users (name TEXT)')\n"
        "        self.store = Users(self.path)\n"
        "    def tearDown(self):\n        self.store.close()\n        os.unlink(self.path)\n    def test_add(self):\n"
        "        self.store.add('ann')\n        self.assertEqual(self.store.names(), ['ann'])\n",
        "import sqlite3\nclass Users:\n    def __init__(self, path):\n        self.db = sqlite3.connect(path)\n"
        "    def add(self, name):\n        self.db.execute('INSERT INTO users VALUES (?)', (name,))\n"
        "        self.db.commit()\n    def names(self):\n"
        "        return [r[0] for r in self.db.execute('SELECT name FROM users')]\n    def close(self):\n"
        "        self.db.close()\n",
        "import sqlite3\nclass Users:\n    def __init__(self, path):\n        self.db = sqlite3.connect(path)\n"
        "    def add(self, name):\n        self.db.execute('INSERT INTO users VALUES (?)', (name,))\n"
        "    def names(self):\n        return [r[0] for r in self.db.execute('SELECT name FROM users')][1:]\n"
        "    def close(self):\n        self.db.close()\n"),
    # --- threads the code starts call the tests back; one deepcopy of several of the code's objects (session 32) ---
    "callbacks_on_the_codes_threads": (
        "import threading\nimport unittest\nclass T(unittest.TestCase):\n    def test_in_order(self):\n"
        "        self.assertEqual(run_all([lambda: 1, lambda: 2, lambda: 3]), [1, 2, 3])\n"
        "    def test_each_once(self):\n        seen = []\n        lock = threading.Lock()\n"
        "        def record():\n            with lock:\n                seen.append(1)\n            return 0\n"
        "        run_all([record] * 4)\n        self.assertEqual(len(seen), 4)\n",
        "from concurrent.futures import ThreadPoolExecutor\ndef run_all(tasks, workers=3):\n"
        "    with ThreadPoolExecutor(workers) as pool:\n        return list(pool.map(lambda t: t(), tasks))\n",
        "from concurrent.futures import ThreadPoolExecutor\ndef run_all(tasks, workers=3):\n"
        "    with ThreadPoolExecutor(workers) as pool:\n        return list(pool.map(lambda t: t(), tasks[1:]))\n"),
    "deepcopy_of_the_codes_objects_sharing_one": (
        "import copy\np = Node('p')\nkids = copy.deepcopy([Node('a', p), Node('b', p)])\n"
        "assert kids[0].parent is kids[1].parent\n"
        "assert kids[0].parent.name == 'p' and kids[0].parent is not p\n",
        "class Node:\n    def __init__(self, name, parent=None):\n        self.name = name\n"
        "        self.parent = parent\n",
        "import copy\nclass Node:\n    def __init__(self, name, parent=None):\n        self.name = name\n"
        "        self.parent = parent\n    def __deepcopy__(self, memo):\n"
        "        return Node(self.name, copy.copy(self.parent))\n"),
    # --- one event loop: the code's locks, queues and tasks on the test's loop, its timeouts (session 33) ---------
    "async_code_on_the_tests_loop": (
        "import asyncio\nimport unittest\nclass T(unittest.IsolatedAsyncioTestCase):\n"
        "    async def test_two_at_once(self):\n        p = Pool(2)\n        async def use():\n"
        "            async with p:\n                await asyncio.sleep(0.01)\n"
        "        await asyncio.gather(*(use() for _ in range(5)))\n        self.assertEqual(p.peak, 2)\n"
        "    async def test_queue_of_the_test(self):\n        q = asyncio.Queue(maxsize=1)\n        got = []\n"
        "        async def take():\n            while (x := await q.get()) is not None:\n"
        "                got.append(x)\n"
        "        await asyncio.gather(fill(q, [1, 2, 3]), take())\n        self.assertEqual(got, [1, 2, 3])\n"
        "    async def test_timeout(self):\n        with self.assertRaises(TimeoutError):\n"
        "            await asyncio.wait_for(fill(asyncio.Queue(maxsize=1), [1, 2]), 0.05)\n",
        "import asyncio\nclass Pool:\n    def __init__(self, size):\n        self._sem = asyncio.Semaphore(size)\n"
        "        self.active = self.peak = 0\n    async def __aenter__(self):\n        await self._sem.acquire()\n"
        "        self.active += 1\n        self.peak = max(self.peak, self.active)\n"
        "    async def __aexit__(self, *exc):\n        self.active -= 1\n        self._sem.release()\n"
        "async def fill(queue, items):\n    for x in items:\n        await queue.put(x)\n    await queue.put(None)\n",
        "import asyncio\nclass Pool:\n    def __init__(self, size):\n        self.active = self.peak = 0\n"
        "    async def __aenter__(self):\n        self.active += 1\n        self.peak = max(self.peak, self.active)\n"
        "    async def __aexit__(self, *exc):\n        self.active -= 1\n"
        "async def fill(queue, items):\n    for x in items:\n        queue.put_nowait(x)\n"
        "    queue.put_nowait(None)\n"),
}
