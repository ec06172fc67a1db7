"""The fourth differential run (session 23): ordinary playground tests that share state or objects with the code, C(name, code, tests), on themes the
earlier runs touched little: context managers and contextvars, descriptors, registries and metaclasses, functools,
itertools over the other side's iterators, collections returned and mutated, copy/pickle, json hooks, key callbacks,
io buffers, bytearray/memoryview/array, Flag/NamedTuple/TypedDict, constants and class attributes changed by the
tests, hashing, formatting, the sequence protocol, numbers, threads and queues, asyncio, environ and cwd, Random
instances, patched clocks. Wrong code (name ending _bad) beside right."""
from textwrap import dedent as d

CASES = []


def C(name, code, tests):
    CASES.append((name, d(code).strip() + "\n", d(tests).strip() + "\n"))


# ------------------------------------------------------------------ context managers
IGNORE = '''
class Ignore:
    def __init__(self, *types):
        self.types = types
        self.caught = None
    def __enter__(self):
        return self
    def __exit__(self, exc_type, exc, tb):
        if exc_type is not None and issubclass(exc_type, self.types):
            self.caught = exc
            return True
        return False
'''
IGNORE_BAD = '''
class Ignore:
    def __init__(self, *types):
        self.types = types
        self.caught = None
    def __enter__(self):
        return self
    def __exit__(self, exc_type, exc, tb):
        if exc_type is not None:
            self.caught = exc
        return True
'''
IGNORE_T = '''
import pytest
class MissingKey(KeyError):
    pass
def test_suppresses_listed_type():
    with Ignore(KeyError) as ig:
        {}['x']
    assert isinstance(ig.caught, KeyError) and ig.caught.args == ('x',)
def test_suppresses_tests_subclass():
    with Ignore(KeyError, IndexError) as ig:
        raise MissingKey('k')
    assert type(ig.caught) is MissingKey
    assert ig.caught.args == ('k',)
def test_other_errors_propagate():
    with pytest.raises(ValueError, match='boom'):
        with Ignore(KeyError):
            raise ValueError('boom')
def test_no_error_nothing_caught():
    with Ignore(KeyError) as ig:
        x = 1 + 1
    assert ig.caught is None and x == 2
'''
C("q4_cm_ignore_types_ok", IGNORE, IGNORE_T)
C("q4_cm_ignore_types_bad_swallows_all", IGNORE_BAD, IGNORE_T)

TXN = '''
from contextlib import contextmanager
@contextmanager
def transaction(store):
    snapshot = dict(store)
    try:
        yield store
    except Exception:
        store.clear()
        store.update(snapshot)
        raise
'''
TXN_BAD = '''
from contextlib import contextmanager
@contextmanager
def transaction(store):
    snapshot = dict(store)
    try:
        yield store
    except Exception:
        store = snapshot
        raise
'''
TXN_T = '''
import pytest
def test_commit_keeps_changes():
    d = {'a': 1}
    with transaction(d) as s:
        s['b'] = 2
        d['a'] = 3
    assert d == {'a': 3, 'b': 2}
def test_rollback_restores_tests_dict():
    d = {'a': 1, 'n': [1]}
    with pytest.raises(RuntimeError):
        with transaction(d):
            d['b'] = 2
            d['a'] = 5
            del d['n']
            raise RuntimeError('fail')
    assert d == {'a': 1, 'n': [1]}
'''
C("q4_cm_transaction_rollback_tests_dict_ok", TXN, TXN_T)
C("q4_cm_transaction_rollback_tests_dict_bad_rebinds", TXN_BAD, TXN_T)

INDENT = '''
class Indenter:
    def __init__(self):
        self.level = 0
        self.lines = []
    def __enter__(self):
        self.level += 1
        return self
    def __exit__(self, *exc):
        self.level -= 1
        return False
    def say(self, text):
        self.lines.append('  ' * (self.level - 1) + text)
'''
INDENT_BAD = '''
class Indenter:
    def __init__(self):
        self.level = 0
        self.lines = []
    def __enter__(self):
        self.level += 1
        return self
    def __exit__(self, exc_type, exc, tb):
        if exc_type is None:
            self.level -= 1
        return False
    def say(self, text):
        self.lines.append('  ' * (self.level - 1) + text)
'''
INDENT_T = '''
import unittest
class TestIndenter(unittest.TestCase):
    def test_nested_levels(self):
        ind = Indenter()
        with ind:
            ind.say('a')
            with ind as again:
                self.assertIs(again, ind)
                again.say('b')
            ind.say('c')
        self.assertEqual(ind.lines, ['a', '  b', 'c'])
        self.assertEqual(ind.level, 0)
    def test_level_restored_after_error(self):
        ind = Indenter()
        with self.assertRaises(ZeroDivisionError):
            with ind:
                with ind:
                    1 / 0
        self.assertEqual(ind.level, 0)
        with ind:
            ind.say('x')
        self.assertEqual(ind.lines, ['x'])
'''
C("q4_cm_reentrant_indenter_ok", INDENT, INDENT_T)
C("q4_cm_reentrant_indenter_bad_error_path", INDENT_BAD, INDENT_T)

STACKC = '''
CLOSED = []
def open_all(names, stack):
    handles = []
    for name in names:
        stack.callback(CLOSED.append, name)
        handles.append(name.upper())
    return handles
'''
STACKC_BAD = '''
CLOSED = []
def open_all(names, stack):
    handles = []
    for name in reversed(names):
        stack.callback(CLOSED.append, name)
    for name in names:
        handles.append(name.upper())
    return handles
'''
STACKC_T = '''
from contextlib import ExitStack
def test_closed_in_reverse_order():
    CLOSED.clear()
    with ExitStack() as stack:
        hs = open_all(['a', 'b', 'c'], stack)
        assert hs == ['A', 'B', 'C']
        assert CLOSED == []
    assert CLOSED == ['c', 'b', 'a']
def test_pop_all_defers_closing():
    CLOSED.clear()
    with ExitStack() as stack:
        open_all(['x', 'y'], stack)
        later = stack.pop_all()
    assert CLOSED == []
    later.close()
    assert CLOSED == ['y', 'x']
'''
C("q4_cm_exitstack_code_callbacks_ok", STACKC, STACKC_T)
C("q4_cm_exitstack_code_callbacks_bad_order", STACKC_BAD, STACKC_T)

TRACK = '''
from contextlib import ContextDecorator
LOG = []
class track(ContextDecorator):
    def __init__(self, name):
        self.name = name
    def __enter__(self):
        LOG.append(f'enter {self.name}')
        return self
    def __exit__(self, exc_type, exc, tb):
        LOG.append(f'exit {self.name}' + (f' {exc_type.__name__}' if exc_type else ''))
        return False
'''
TRACK_BAD = '''
from contextlib import ContextDecorator
LOG = []
class track(ContextDecorator):
    def __init__(self, name):
        self.name = name
    def __enter__(self):
        LOG.append(f'enter {self.name}')
        return self
    def __exit__(self, exc_type, exc, tb):
        if exc_type is None:
            LOG.append(f'exit {self.name}')
        return False
'''
TRACK_T = '''
import pytest
@track('job')
def job(x):
    LOG.append(f'body {x}')
    return x * 2
class Oops(Exception):
    pass
@track('fail')
def failing():
    raise Oops()
def test_decorated_tests_function():
    LOG.clear()
    assert job(3) == 6
    assert LOG == ['enter job', 'body 3', 'exit job']
def test_decorated_error_logged_and_raised():
    LOG.clear()
    with pytest.raises(Oops):
        failing()
    assert LOG == ['enter fail', 'exit fail Oops']
'''
C("q4_cm_contextdecorator_on_tests_functions_ok", TRACK, TRACK_T)
C("q4_cm_contextdecorator_on_tests_functions_bad", TRACK_BAD, TRACK_T)

# ------------------------------------------------------------------ contextvars
RID = '''
from contextvars import ContextVar
from contextlib import contextmanager
request_id = ContextVar('request_id', default='-')
LINES = []
def log(msg):
    LINES.append(f'[{request_id.get()}] {msg}')
@contextmanager
def bound(rid):
    token = request_id.set(rid)
    try:
        yield
    finally:
        request_id.reset(token)
'''
RID_BAD = '''
from contextvars import ContextVar
from contextlib import contextmanager
request_id = ContextVar('request_id', default='-')
LINES = []
def log(msg):
    LINES.append(f'[{request_id.get()}] {msg}')
@contextmanager
def bound(rid):
    request_id.set(rid)
    try:
        yield
    finally:
        request_id.set('-')
'''
RID_T = '''
def test_bound_and_nested():
    LINES.clear()
    with bound('outer'):
        log('a')
        with bound('inner'):
            log('b')
        log('c')
    log('d')
    assert LINES == ['[outer] a', '[inner] b', '[outer] c', '[-] d']
def test_tests_set_and_reset_token():
    LINES.clear()
    tok = request_id.set('t1')
    try:
        log('x')
        assert request_id.get() == 't1'
    finally:
        request_id.reset(tok)
    log('y')
    assert LINES == ['[t1] x', '[-] y']
'''
C("q4_contextvar_request_id_ok", RID, RID_T)
C("q4_contextvar_request_id_bad_no_reset", RID_BAD, RID_T)

USERV = '''
import contextvars
USER = contextvars.ContextVar('user', default=None)
def set_user(name):
    USER.set(name)
def current_user():
    return USER.get()
'''
USERV_BAD = '''
_USER = [None]
def set_user(name):
    _USER[0] = name
def current_user():
    return _USER[0]
'''
USERV_T = '''
import contextvars
def test_copy_context_run_isolates():
    ctx = contextvars.copy_context()
    ctx.run(set_user, 'bob')
    assert current_user() is None
    assert ctx.run(current_user) == 'bob'
def test_second_context_sees_its_own():
    a = contextvars.copy_context()
    b = contextvars.copy_context()
    a.run(set_user, 'ann')
    b.run(set_user, 'ben')
    assert (a.run(current_user), b.run(current_user), current_user()) == ('ann', 'ben', None)
'''
C("q4_contextvar_copy_context_run_ok", USERV, USERV_T)
C("q4_contextvar_copy_context_run_bad_global", USERV_BAD, USERV_T)

USERA_T = '''
import asyncio
async def worker(n):
    set_user(n)
    await asyncio.sleep(0)
    await asyncio.sleep(0)
    return current_user()
def test_tasks_keep_their_own_user():
    async def main():
        return await asyncio.gather(*(worker(i) for i in range(3)))
    assert asyncio.run(main()) == [0, 1, 2]
    assert current_user() is None
'''
C("q4_contextvar_asyncio_tasks_isolated_ok", USERV, USERA_T)
C("q4_contextvar_asyncio_tasks_isolated_bad_global", USERV_BAD, USERA_T)

# ------------------------------------------------------------------ descriptors
POSITIVE = '''
class Positive:
    def __set_name__(self, owner, name):
        self.public = name
        self.private = '_' + name
    def __get__(self, obj, objtype=None):
        if obj is None:
            return self
        return getattr(obj, self.private)
    def __set__(self, obj, value):
        if value <= 0:
            raise ValueError(f'{self.public} must be positive, got {value}')
        setattr(obj, self.private, value)
'''
POSITIVE_BAD = '''
class Positive:
    def __set_name__(self, owner, name):
        self.public = name
    def __get__(self, obj, objtype=None):
        if obj is None:
            return self
        return self.value
    def __set__(self, obj, value):
        if value <= 0:
            raise ValueError(f'{self.public} must be positive, got {value}')
        self.value = value
'''
POSITIVE_T = '''
import pytest
class Item:
    price = Positive()
    qty = Positive()
    def __init__(self, price, qty):
        self.price = price
        self.qty = qty
def test_values_per_instance():
    a, b = Item(3, 4), Item(10, 1)
    assert (a.price, a.qty, b.price, b.qty) == (3, 4, 10, 1)
    assert vars(a) == {'_price': 3, '_qty': 4}
def test_validation_names_attribute():
    with pytest.raises(ValueError, match='qty must be positive, got 0'):
        Item(1, 0)
    it = Item(1, 1)
    with pytest.raises(ValueError, match='price must be positive'):
        it.price = -2
    assert it.price == 1
def test_class_access_gives_descriptor():
    assert isinstance(Item.__dict__['price'], Positive)
    assert Item.price is Item.__dict__['price']
'''
C("q4_desc_code_descriptor_on_tests_class_ok", POSITIVE, POSITIVE_T)
C("q4_desc_code_descriptor_on_tests_class_bad_shared", POSITIVE_BAD, POSITIVE_T)

POSC = POSITIVE + '''
class Order:
    qty = Positive()
    price = Positive()
    def __init__(self, qty, price):
        self.qty, self.price = qty, price
    @property
    def total(self):
        return self.qty * self.price
'''
POSC_BAD = POSITIVE_BAD + '''
class Order:
    qty = Positive()
    price = Positive()
    def __init__(self, qty, price):
        self.qty, self.price = qty, price
    @property
    def total(self):
        return self.qty * self.price
'''
POSC_T = '''
import pytest
def test_two_orders_independent():
    a = Order(2, 5)
    b = Order(3, 7)
    assert a.total == 10 and b.total == 21
    a.qty = 4
    assert (a.total, b.total) == (20, 21)
def test_error_message_from_tests_setattr():
    o = Order(1, 1)
    with pytest.raises(ValueError) as ei:
        setattr(o, 'price', 0)
    assert str(ei.value) == 'price must be positive, got 0'
    assert Order.qty.public == 'qty'
'''
C("q4_desc_code_class_set_name_ok", POSC, POSC_T)
C("q4_desc_code_class_set_name_bad_shared", POSC_BAD, POSC_T)

LAZY = '''
class lazy:
    def __init__(self, fn):
        self.fn = fn
        self.__doc__ = fn.__doc__
    def __set_name__(self, owner, name):
        self.name = name
    def __get__(self, obj, objtype=None):
        if obj is None:
            return self
        value = self.fn(obj)
        obj.__dict__[self.name] = value
        return value
'''
LAZY_BAD = '''
class lazy:
    def __init__(self, fn):
        self.fn = fn
        self.__doc__ = fn.__doc__
    def __set_name__(self, owner, name):
        self.name = name
    def __get__(self, obj, objtype=None):
        if obj is None:
            return self
        value = self.fn(obj)
        obj.__dict__[self.name] = value
        return value
    def __set__(self, obj, value):
        obj.__dict__[self.name] = value
'''
LAZY_T = '''
CALLS = []
class Cart:
    def __init__(self, prices):
        self.prices = prices
    @lazy
    def total(self):
        """Sum of prices."""
        CALLS.append(1)
        return sum(self.prices)
def test_computed_once_then_cached():
    CALLS.clear()
    c = Cart([1, 2, 3])
    assert c.total == 6
    c.prices.append(4)
    assert c.total == 6
    assert len(CALLS) == 1
def test_del_resets():
    CALLS.clear()
    c = Cart([5])
    assert c.total == 5
    del c.total
    c.prices.append(5)
    assert c.total == 10
    assert len(CALLS) == 2
    assert Cart.total.__doc__ == 'Sum of prices.'
'''
C("q4_desc_lazy_nondata_on_tests_class_ok", LAZY, LAZY_T)
C("q4_desc_lazy_nondata_on_tests_class_bad_data_descriptor", LAZY_BAD, LAZY_T)

UNITS = '''
class Sensor:
    scale = 1.0
    def __init__(self, raw):
        self.raw = raw
    def reading(self):
        return self.raw * self.scale
'''
UNITS_BAD = '''
class Sensor:
    scale = 1.0
    def __init__(self, raw):
        self.raw = raw
    def reading(self):
        return self.raw * Sensor.__dict__['scale']
'''
UNITS_T = '''
class Doubling:
    def __get__(self, obj, objtype=None):
        return 1.0 if obj is None else obj.raw / 10
def test_tests_descriptor_patched_on_code_class(monkeypatch):
    monkeypatch.setattr(Sensor, 'scale', Doubling())
    assert Sensor(20).reading() == 40.0
    assert Sensor(30).reading() == 90.0
def test_restored_after_patch():
    assert Sensor(20).reading() == 20.0
'''
C("q4_desc_tests_descriptor_on_code_class_ok", UNITS, UNITS_T)
C("q4_desc_tests_descriptor_on_code_class_bad_dict_read", UNITS_BAD, UNITS_T)

# ------------------------------------------------------------------ registries, __init_subclass__, metaclasses
READERS = '''
REGISTRY = {}
class Reader:
    def __init_subclass__(cls, fmt=None, **kw):
        super().__init_subclass__(**kw)
        if fmt is not None:
            REGISTRY[fmt] = cls
    def read(self, text):
        raise NotImplementedError
class CsvReader(Reader, fmt='csv'):
    def read(self, text):
        return [line.split(',') for line in text.splitlines()]
class TsvReader(Reader, fmt='tsv'):
    def read(self, text):
        return [line.split('\\t') for line in text.splitlines()]
class _Helper(Reader):
    pass
def reader_for(fmt):
    return REGISTRY[fmt]()
'''
READERS_BAD = READERS.replace("REGISTRY[fmt] = cls", "REGISTRY[fmt] = cls\n        else:\n            REGISTRY[cls.__name__.lower()] = cls")
READERS_T = '''
import pytest
def test_registry_contents():
    assert sorted(REGISTRY) == ['csv', 'tsv']
    assert REGISTRY['csv'] is CsvReader
    assert set(Reader.__subclasses__()) == {CsvReader, TsvReader, _Helper}
def test_reader_for_returns_instances():
    r = reader_for('tsv')
    assert isinstance(r, TsvReader) and isinstance(r, Reader)
    assert r.read('a\\tb\\nc\\td') == [['a', 'b'], ['c', 'd']]
    assert type(reader_for('csv')).__name__ == 'CsvReader'
def test_unknown_format():
    with pytest.raises(KeyError):
        reader_for('_helper')
'''
C("q4_registry_init_subclass_code_classes_ok", READERS, READERS_T)
C("q4_registry_init_subclass_code_classes_bad_registers_helper", READERS_BAD, READERS_T)

HANDLERS = '''
HANDLERS = {}
def handles(name):
    def deco(fn):
        HANDLERS[name] = fn
        return fn
    return deco
def dispatch(name, *args):
    try:
        fn = HANDLERS[name]
    except KeyError:
        raise LookupError(f'no handler for {name!r}') from None
    return fn(*args)
'''
HANDLERS_BAD = '''
HANDLERS = {}
def handles(name):
    def deco(fn):
        HANDLERS[fn.__name__] = fn
        return fn
    return deco
def dispatch(name, *args):
    try:
        fn = HANDLERS[name]
    except KeyError:
        raise LookupError(f'no handler for {name!r}') from None
    return fn(*args)
'''
HANDLERS_T = '''
import pytest
@handles('add')
def do_add(a, b):
    return a + b
@handles('greet')
def do_greet(who):
    return f'hi {who}'
def test_registered_tests_functions():
    assert HANDLERS['add'] is do_add
    assert set(HANDLERS) >= {'add', 'greet'}
def test_dispatch_calls_tests_functions():
    assert dispatch('add', 2, 3) == 5
    assert dispatch('greet', 'ann') == 'hi ann'
    with pytest.raises(LookupError, match="no handler for 'nope'"):
        dispatch('nope')
'''
C("q4_registry_decorator_tests_functions_ok", HANDLERS, HANDLERS_T)
C("q4_registry_decorator_tests_functions_bad_fn_name", HANDLERS_BAD, HANDLERS_T)

SINGLE = '''
class Singleton(type):
    _instances = {}
    def __call__(cls, *args, **kwargs):
        if cls not in cls._instances:
            cls._instances[cls] = super().__call__(*args, **kwargs)
        return cls._instances[cls]
class Config(metaclass=Singleton):
    def __init__(self):
        self.values = {}
class Cache(metaclass=Singleton):
    def __init__(self):
        self.items = []
'''
SINGLE_BAD = '''
class Singleton(type):
    _instance = None
    def __call__(cls, *args, **kwargs):
        if Singleton._instance is None:
            Singleton._instance = super().__call__(*args, **kwargs)
        return Singleton._instance
class Config(metaclass=Singleton):
    def __init__(self):
        self.values = {}
class Cache(metaclass=Singleton):
    def __init__(self):
        self.items = []
'''
SINGLE_T = '''
def test_same_instance_and_state():
    a = Config()
    a.values['debug'] = True
    assert Config() is a
    assert Config().values == {'debug': True}
def test_each_class_its_own():
    c = Cache()
    assert c is not Config()
    assert isinstance(c, Cache) and not isinstance(c, Config)
    assert type(Config) is Singleton
    assert Singleton._instances[Config] is Config()
'''
C("q4_metaclass_singleton_ok", SINGLE, SINGLE_T)
C("q4_metaclass_singleton_bad_one_for_all", SINGLE_BAD, SINGLE_T)

FIELDS = '''
class Field:
    def __init__(self, kind):
        self.kind = kind
class ModelMeta(type):
    def __new__(mcls, name, bases, ns):
        fields = [k for k, v in ns.items() if isinstance(v, Field)]
        cls = super().__new__(mcls, name, bases, ns)
        inherited = [f for b in bases for f in getattr(b, '_fields', [])]
        cls._fields = inherited + fields
        return cls
class Model(metaclass=ModelMeta):
    def __init__(self, **kw):
        for f in self._fields:
            setattr(self, f, kw.get(f))
    def as_dict(self):
        return {f: getattr(self, f) for f in self._fields}
'''
FIELDS_BAD = FIELDS.replace("cls._fields = inherited + fields", "cls._fields = sorted(inherited + fields)")
FIELDS_T = '''
class User(Model):
    name = Field(str)
    age = Field(int)
class Admin(User):
    level = Field(int)
def test_declared_order_kept():
    assert User._fields == ['name', 'age']
    assert Admin._fields == ['name', 'age', 'level']
def test_as_dict_order():
    a = Admin(level=3, name='x', age=40)
    assert list(a.as_dict().items()) == [('name', 'x'), ('age', 40), ('level', 3)]
    assert type(Admin) is ModelMeta
'''
C("q4_metaclass_fields_tests_models_ok", FIELDS, FIELDS_T)
C("q4_metaclass_fields_tests_models_bad_sorted", FIELDS_BAD, FIELDS_T)

# ------------------------------------------------------------------ functools
DESCRIBE = '''
from functools import singledispatch
@singledispatch
def describe(x):
    return 'thing'
@describe.register
def _(x: int):
    return f'int {x}'
@describe.register(list)
def _(x):
    return 'list of ' + ', '.join(describe(i) for i in x)
'''
DESCRIBE_BAD = '''
from functools import singledispatch
@singledispatch
def describe(x):
    return 'thing'
@describe.register
def _(x: int):
    return f'int {x}'
@describe.register(list)
def _(x):
    return 'list of ' + ', '.join(str(i) for i in x)
'''
DESCRIBE_T = '''
class Money:
    def __init__(self, v):
        self.v = v
class Euro(Money):
    pass
@describe.register(Money)
def _(m):
    return f'money {m.v}'
def test_tests_type_registered_on_code_function():
    assert describe(Money(3)) == 'money 3'
    assert describe(Euro(4)) == 'money 4'
    assert describe.dispatch(Euro) is describe.registry[Money]
def test_builtin_dispatch_and_nested():
    assert describe(True) == 'int True'
    assert describe(2.5) == 'thing'
    assert describe([1, Money(2), 'x']) == 'list of int 1, money 2, thing'
'''
C("q4_singledispatch_tests_register_ok", DESCRIBE, DESCRIBE_T)
C("q4_singledispatch_tests_register_bad_nested_str", DESCRIBE_BAD, DESCRIBE_T)

PART = '''
import operator
from functools import partial
def make_scaler(k):
    return partial(operator.mul, k)
def apply_all(fns, x):
    return [f(x) for f in fns]
'''
PART_BAD = '''
import operator
from functools import partial
def make_scaler(k):
    return partial(lambda a, b: a * b, k)
def apply_all(fns, x):
    return [f(x) for f in fns]
'''
PART_T = '''
import operator
from functools import partial
def test_code_partial_introspected():
    s = make_scaler(3)
    assert s(4) == 12
    assert s.func is operator.mul
    assert s.args == (3,) and s.keywords == {}
    assert isinstance(s, partial)
def test_tests_partials_called_by_code():
    sq = partial(pow, exp=2)
    plus = partial(operator.add, 10)
    assert apply_all([sq, plus, make_scaler(2)], 5) == [25, 15, 10]
    p2 = partial(make_scaler(2), 7)
    assert p2() == 14
'''
C("q4_partial_both_ways_ok", PART, PART_T)
C("q4_partial_both_ways_bad_lambda_func", PART_BAD, PART_T)

VERSION = '''
from functools import total_ordering
@total_ordering
class Version:
    def __init__(self, text):
        self.parts = tuple(int(p) for p in str(text).split('.'))
    def _coerce(self, other):
        if isinstance(other, Version):
            return other.parts
        if isinstance(other, str):
            return Version(other).parts
        return NotImplemented
    def __eq__(self, other):
        o = self._coerce(other)
        return o if o is NotImplemented else self.parts == o
    def __lt__(self, other):
        o = self._coerce(other)
        return o if o is NotImplemented else self.parts < o
    def __hash__(self):
        return hash(self.parts)
    def __repr__(self):
        return 'Version(%r)' % '.'.join(map(str, self.parts))
'''
VERSION_BAD = VERSION.replace("self.parts < o", "'.'.join(map(str, self.parts)) < '.'.join(map(str, o))")
VERSION_T = '''
import pytest
def test_compare_with_strings_both_sides():
    assert Version('1.2') < '1.10'
    assert '1.10' > Version('1.2')
    assert Version('2.0') >= '2.0' and Version('2.0') == '2.0'
    assert not (Version('1.9') > Version('1.10'))
def test_sort_max_of_mixed():
    vs = [Version('1.10'), Version('1.2'), Version('1.9.1')]
    assert [repr(v) for v in sorted(vs)] == ["Version('1.2')", "Version('1.9.1')", "Version('1.10')"]
    assert max(vs) == '1.10'
    assert {Version('1.2'): 'x'}[Version('1.2')] == 'x'
def test_unorderable_with_int():
    with pytest.raises(TypeError):
        Version('1') < 1
'''
C("q4_total_ordering_version_mixed_ok", VERSION, VERSION_T)
C("q4_total_ordering_version_mixed_bad_lexical", VERSION_BAD, VERSION_T)

AREA = '''
from functools import lru_cache
@lru_cache(maxsize=2)
def area(shape):
    w, h = shape.size()
    return w * h
'''
AREA_BAD = AREA.replace("maxsize=2", "maxsize=None")
AREA_T = '''
from dataclasses import dataclass
@dataclass(frozen=True)
class Rect:
    w: int
    h: int
    def size(self):
        return self.w, self.h
def test_hits_and_eviction_with_tests_keys():
    area.cache_clear()
    assert area(Rect(2, 3)) == 6
    assert area(Rect(2, 3)) == 6
    assert area(Rect(1, 1)) == 1
    assert area(Rect(4, 1)) == 4
    info = area.cache_info()
    assert (info.hits, info.misses, info.currsize) == (1, 3, 2)
    area(Rect(2, 3))
    assert area.cache_info().misses == 4
def test_unhashable_argument_raises():
    import pytest
    with pytest.raises(TypeError):
        area([1, 2])
'''
C("q4_lru_cache_tests_frozen_keys_ok", AREA, AREA_T)
C("q4_lru_cache_tests_frozen_keys_bad_unbounded", AREA_BAD, AREA_T)

STALE = '''
from functools import cache
@cache
def label(obj):
    return f'{obj.name}#{obj.n}'
'''
STALE_BAD = '''
def label(obj):
    return f'{obj.name}#{obj.n}'
'''
STALE_T = '''
class Thing:
    def __init__(self, name, n):
        self.name, self.n = name, n
def test_same_object_cached_even_if_mutated():
    t = Thing('a', 1)
    assert label(t) == 'a#1'
    t.n = 2
    assert label(t) == 'a#1'
    u = Thing('a', 2)
    assert label(u) == 'a#2'
'''
C("q4_cache_tests_object_identity_stale_ok", STALE, STALE_T)
C("q4_cache_tests_object_identity_stale_bad_no_cache", STALE_BAD, STALE_T)

REPORT = '''
from functools import cached_property
class Report:
    def __init__(self, rows):
        self.rows = rows
    @cached_property
    def total(self):
        return sum(r['amount'] for r in self.rows)
'''
REPORT_BAD = '''
class Report:
    def __init__(self, rows):
        self.rows = rows
    @property
    def total(self):
        return sum(r['amount'] for r in self.rows)
'''
REPORT_T = '''
def test_cached_until_deleted():
    rows = [{'amount': 5}, {'amount': 7}]
    r = Report(rows)
    assert r.total == 12
    assert 'total' in vars(r)
    rows.append({'amount': 100})
    assert r.total == 12
    del r.total
    assert r.total == 112
def test_can_be_assigned():
    r = Report([])
    r.total = 42
    assert r.total == 42
'''
C("q4_cached_property_tests_rows_ok", REPORT, REPORT_T)
C("q4_cached_property_tests_rows_bad_property", REPORT_BAD, REPORT_T)

CMPK = '''
from functools import cmp_to_key, reduce
def sort_with(items, cmp):
    return sorted(items, key=cmp_to_key(cmp))
def fold(fn, items, init):
    return reduce(fn, items, init)
'''
CMPK_BAD = '''
from functools import cmp_to_key, reduce
def sort_with(items, cmp):
    return sorted(items, key=cmp_to_key(lambda a, b: cmp(b, a)))[::-1]
def fold(fn, items, init):
    return reduce(fn, items, init)
'''
CMPK_T = '''
def by_len_then_ignore(a, b):
    return len(a) - len(b)
def test_tests_cmp_stable():
    words = ['bb', 'a', 'cc', 'd', 'eee']
    assert sort_with(words, by_len_then_ignore) == ['a', 'd', 'bb', 'cc', 'eee']
def test_fold_with_tests_function_and_objects():
    seen = []
    def step(acc, x):
        seen.append(x)
        return acc + [x * 2]
    assert fold(step, (1, 2, 3), []) == [2, 4, 6]
    assert seen == [1, 2, 3]
'''
C("q4_cmp_to_key_reduce_tests_fns_ok", CMPK, CMPK_T)
C("q4_cmp_to_key_reduce_tests_fns_bad_unstable", CMPK_BAD, CMPK_T)

# ------------------------------------------------------------------ itertools over the other side's iterators
PAIRS = '''
from itertools import tee
def diffs(iterable):
    a, b = tee(iterable)
    next(b, None)
    for x, y in zip(a, b):
        yield y - x
'''
PAIRS_BAD = '''
def diffs(iterable):
    xs = list(iterable)
    for x, y in zip(xs, xs[1:]):
        yield y - x
'''
PAIRS_T = '''
from itertools import islice
def test_lazy_over_tests_generator():
    pulled = []
    def src():
        for v in [1, 4, 9, 16]:
            pulled.append(v)
            yield v
        raise AssertionError('pulled too far')
    d = diffs(src())
    assert list(islice(d, 2)) == [3, 5]
    assert pulled == [1, 4, 9]
def test_infinite_counter():
    import itertools
    sq = (n * n for n in itertools.count(1))
    assert list(islice(diffs(sq), 4)) == [3, 5, 7, 9]
'''
C("q4_tee_diffs_lazy_over_tests_generator_ok", PAIRS, PAIRS_T)
C("q4_tee_diffs_lazy_over_tests_generator_bad_eager", PAIRS_BAD, PAIRS_T.split('def test_infinite_counter')[0])

PRODUCE = '''
PRODUCED = []
def readings(n):
    for i in range(n):
        PRODUCED.append(i)
        yield i * 10
'''
PRODUCE_BAD = '''
PRODUCED = []
def readings(n):
    out = []
    for i in range(n):
        PRODUCED.append(i)
        out.append(i * 10)
    return out
'''
PRODUCE_T = '''
from itertools import tee, islice, chain
def test_tee_of_code_generator_runs_once():
    PRODUCED.clear()
    a, b = tee(readings(4))
    assert list(a) == [0, 10, 20, 30]
    assert list(b) == [0, 10, 20, 30]
    assert PRODUCED == [0, 1, 2, 3]
def test_islice_pulls_only_what_is_needed():
    PRODUCED.clear()
    g = readings(100)
    assert list(islice(g, 2)) == [0, 10]
    assert PRODUCED == [0, 1]
    assert next(g) == 20
    assert list(chain(islice(g, 1), readings(1))) == [30, 0]
'''
C("q4_tee_islice_code_generator_once_ok", PRODUCE, PRODUCE_T)
C("q4_tee_islice_code_generator_once_bad_list", PRODUCE_BAD, PRODUCE_T)

GROUPS = '''
from itertools import groupby
def initial(word):
    return word[0].lower()
def by_initial(words):
    return {k: list(g) for k, g in groupby(sorted(words, key=initial), key=initial)}
'''
GROUPS_BAD = '''
from itertools import groupby
def initial(word):
    return word[0].lower()
def by_initial(words):
    return {k: list(g) for k, g in groupby(words, key=initial)}
'''
GROUPS_T = '''
from itertools import groupby
def gen():
    yield from ['apple', 'Bob', 'avocado', 'banana', 'cherry']
def test_by_initial_of_tests_generator():
    assert by_initial(gen()) == {'a': ['apple', 'avocado'], 'b': ['Bob', 'banana'], 'c': ['cherry']}
def test_tests_groupby_with_code_key():
    runs = [(k, len(list(g))) for k, g in groupby(['ant', 'Ape', 'bee', 'ax'], key=initial)]
    assert runs == [('a', 2), ('b', 1), ('a', 1)]
'''
C("q4_groupby_code_key_tests_generator_ok", GROUPS, GROUPS_T)
C("q4_groupby_code_key_tests_generator_bad_unsorted", GROUPS_BAD, GROUPS_T)

TICKETS = '''
class Tickets:
    def __init__(self, start):
        self.n = start
    def __iter__(self):
        return self
    def __next__(self):
        self.n += 1
        return f'T{self.n}'
'''
TICKETS_BAD = '''
class Tickets:
    def __init__(self, start):
        self.start = start
    def __iter__(self):
        n = self.start
        while True:
            n += 1
            yield f'T{n}'
'''
TICKETS_T = '''
from itertools import islice, takewhile
def test_islice_resumes_code_iterator():
    t = Tickets(0)
    assert list(islice(t, 3)) == ['T1', 'T2', 'T3']
    assert list(islice(t, 2)) == ['T4', 'T5']
    assert next(iter(t)) == 'T6'
def test_zip_and_takewhile():
    t = Tickets(10)
    assert list(zip('ab', t)) == [('a', 'T11'), ('b', 'T12')]
    assert next(iter(t)) == 'T13'
    assert list(takewhile(lambda s: s != 'T16', t)) == ['T14', 'T15']
    assert next(t) == 'T17'
'''
C("q4_islice_resumes_code_iterator_ok", TICKETS, TICKETS_T)
C("q4_islice_resumes_code_iterator_bad_restarts", TICKETS_BAD, TICKETS_T)

TAKE = '''
def take(n, it):
    out = []
    for _ in range(n):
        try:
            out.append(next(it))
        except StopIteration:
            break
    return out
'''
TAKE_BAD = '''
def take(n, it):
    return list(it)[:n]
'''
TAKE_T = '''
def test_list_iterator_shared():
    it = iter([1, 2, 3, 4, 5])
    assert take(2, it) == [1, 2]
    assert next(it) == 3
    assert take(5, it) == [4, 5]
def test_map_zip_objects_shared():
    m = map(str.upper, 'abcd')
    assert take(2, m) == ['A', 'B']
    assert list(m) == ['C', 'D']
    z = zip(range(4), 'wxyz')
    assert take(1, z) == [(0, 'w')]
    assert next(z) == (1, 'x')
def test_dict_items_iterator():
    d = {'a': 1, 'b': 2, 'c': 3}
    it = iter(d.items())
    assert take(1, it) == [('a', 1)]
    assert dict(it) == {'b': 2, 'c': 3}
'''
C("q4_code_takes_from_tests_iterators_ok", TAKE, TAKE_T)
C("q4_code_takes_from_tests_iterators_bad_consumes_all", TAKE_BAD, TAKE_T)

LABEL = '''
def label(names, counter):
    return [f'{n}-{i}' for n, i in zip(names, counter)]
'''
LABEL_BAD = '''
def label(names, counter):
    return [f'{n}-{i}' for i, n in zip(counter, names)]
'''
LABEL_T = '''
import itertools
def test_count_continues_after_code():
    c = itertools.count(10)
    assert label(['a', 'b'], c) == ['a-10', 'b-11']
    assert next(c) == 12
    assert label(['z'], c) == ['z-13']
    assert next(c) == 14
'''
C("q4_zip_order_tests_count_ok", LABEL, LABEL_T)
C("q4_zip_order_tests_count_bad_extra_pull", LABEL_BAD, LABEL_T)

CHUNKS = '''
def chunks(seq, n):
    it = iter(seq)
    while True:
        block = []
        for _ in range(n):
            try:
                block.append(next(it))
            except StopIteration:
                if block:
                    yield block
                return
        yield block
'''
CHUNKS_BAD = '''
def chunks(seq, n):
    it = iter(seq)
    while True:
        block = []
        for _ in range(n):
            try:
                block.append(next(it))
            except StopIteration:
                return
        yield block
'''
CHUNKS_T = '''
from itertools import chain
def test_chunks_of_tests_generator_flattened():
    src = (c for c in 'abcdefg')
    cs = list(chunks(src, 3))
    assert cs == [['a', 'b', 'c'], ['d', 'e', 'f'], ['g']]
    assert ''.join(chain.from_iterable(chunks('hello', 2))) == 'hello'
def test_mutating_yielded_block_is_ours():
    g = chunks(range(4), 2)
    b = next(g)
    b.append(99)
    assert b == [0, 1, 99]
    assert next(g) == [2, 3]
'''
C("q4_chunks_chain_from_iterable_ok", CHUNKS, CHUNKS_T)
C("q4_chunks_chain_from_iterable_bad_drops_tail", CHUNKS_BAD, CHUNKS_T)

# ------------------------------------------------------------------ collections
TALLY = '''
from collections import Counter
def tally(text):
    return Counter(text.lower().split())
'''
TALLY_BAD = '''
def tally(text):
    out = {}
    for w in text.lower().split():
        out[w] = out.get(w, 0) + 1
    return out
'''
TALLY_T = '''
from collections import Counter
def test_counter_arithmetic_on_code_counters():
    a = tally('a b b c')
    b = tally('B c c d')
    assert a + b == Counter({'b': 3, 'c': 3, 'a': 1, 'd': 1})
    assert a - b == Counter({'a': 1, 'b': 1})
    assert (a & b) == Counter({'b': 1, 'c': 1})
    assert (a | b)['c'] == 2
def test_mutate_and_most_common():
    a = tally('x y y')
    a['z'] += 5
    a.subtract({'y': 3})
    assert a.most_common(1) == [('z', 5)]
    assert +a == Counter({'z': 5, 'x': 1})
    assert a.total() == 5
'''
C("q4_counter_arith_code_counters_ok", TALLY, TALLY_T)
C("q4_counter_arith_code_counters_bad_dict", TALLY_BAD, TALLY_T)

INV = '''
from collections import Counter
class Inventory:
    def __init__(self):
        self._stock = Counter()
    def add(self, item, n=1):
        self._stock[item] += n
    def count(self, item):
        return self._stock[item]
    def snapshot(self):
        return Counter(self._stock)
    def live(self):
        return self._stock
'''
INV_BAD = INV.replace("return Counter(self._stock)", "return self._stock")
INV_T = '''
def test_snapshot_is_a_copy():
    inv = Inventory()
    inv.add('apple', 3)
    s = inv.snapshot()
    s['apple'] -= 10
    s['pear'] = 2
    assert inv.count('apple') == 3
    assert inv.count('pear') == 0
def test_live_view_changes_inventory():
    inv = Inventory()
    inv.add('fig')
    v = inv.live()
    v['fig'] += 4
    v.update(kiwi=2)
    assert inv.count('fig') == 5 and inv.count('kiwi') == 2
    inv.add('kiwi')
    assert v['kiwi'] == 3
'''
C("q4_counter_snapshot_vs_live_ok", INV, INV_T)
C("q4_counter_snapshot_vs_live_bad_snapshot_is_live", INV_BAD, INV_T)

LRU = '''
from collections import OrderedDict
class LRU:
    def __init__(self, capacity):
        self.capacity = capacity
        self.data = OrderedDict()
    def get(self, key, default=None):
        if key not in self.data:
            return default
        self.data.move_to_end(key)
        return self.data[key]
    def put(self, key, value):
        self.data[key] = value
        self.data.move_to_end(key)
        while len(self.data) > self.capacity:
            self.data.popitem(last=False)
'''
LRU_BAD = LRU.replace("        self.data.move_to_end(key)\n        return self.data[key]", "        return self.data[key]")
LRU_T = '''
def test_get_refreshes_recency():
    c = LRU(2)
    c.put('a', 1)
    c.put('b', 2)
    assert c.get('a') == 1
    c.put('c', 3)
    assert list(c.data) == ['a', 'c']
def test_tests_reorder_code_ordereddict():
    c = LRU(3)
    for k in 'xyz':
        c.put(k, k.upper())
    c.data.move_to_end('x')
    c.data.move_to_end('z', last=False)
    assert list(c.data) == ['z', 'y', 'x']
    c.put('w', 'W')
    assert list(c.data.keys()) == ['y', 'x', 'w']
'''
C("q4_ordereddict_lru_tests_move_to_end_ok", LRU, LRU_T)
C("q4_ordereddict_lru_tests_move_to_end_bad_get", LRU_BAD, LRU_T)

GROUPDD = '''
from collections import defaultdict
def group(pairs, factory=list):
    out = defaultdict(factory)
    for k, v in pairs:
        bucket = out[k]
        if hasattr(bucket, 'append'):
            bucket.append(v)
        else:
            bucket.add(v)
    return out
'''
GROUPDD_BAD = GROUPDD.replace("    return out", "    return dict(out)")
GROUPDD_T = '''
def test_default_list_and_missing_key():
    g = group([('a', 1), ('b', 2), ('a', 3)])
    assert g['a'] == [1, 3]
    assert g['zz'] == []
    assert 'zz' in g
    assert g.default_factory is list
def test_tests_factory_called_by_code_and_tests():
    made = []
    class Bucket:
        def __init__(self):
            made.append(self)
            self.items = []
        def append(self, v):
            self.items.append(v)
    g = group([('x', 1), ('x', 2), ('y', 3)], Bucket)
    assert len(made) == 2
    assert g['x'].items == [1, 2]
    g['new'].append(9)
    assert len(made) == 3 and made[-1].items == [9]
    assert g.default_factory is Bucket
def test_set_factory():
    g = group([('a', 1), ('a', 1)], set)
    assert g == {'a': {1}}
'''
C("q4_defaultdict_tests_factory_ok", GROUPDD, GROUPDD_T)
C("q4_defaultdict_tests_factory_bad_plain_dict", GROUPDD_BAD, GROUPDD_T)

HIST = '''
from collections import deque
class History:
    def __init__(self, n=3):
        self.items = deque(maxlen=n)
    def add(self, x):
        self.items.append(x)
    def last(self):
        return self.items[-1]
    def recent(self):
        return list(self.items)
    def __len__(self):
        return len(self.items)
'''
HIST_BAD = HIST.replace("return list(self.items)", "return self.items")
HIST_T = '''
def test_tests_append_to_code_deque():
    h = History()
    h.items.append('a')
    h.add('b')
    h.items.extend(['c', 'd'])
    assert h.last() == 'd'
    assert len(h) == 3
    assert h.items.maxlen == 3
    h.items.rotate(1)
    assert h.last() == 'c'
def test_recent_is_a_copy():
    h = History()
    for x in 'abc':
        h.add(x)
    r = h.recent()
    r.clear()
    assert len(h) == 3
    assert list(r) == []
'''
C("q4_deque_maxlen_shared_and_copy_ok", HIST, HIST_T)
C("q4_deque_maxlen_shared_and_copy_bad_recent_live", HIST_BAD, HIST_T)

SETTINGS = '''
from collections import ChainMap
class Settings:
    def __init__(self, defaults):
        self.overrides = {}
        self.layers = ChainMap(self.overrides, defaults)
    def get(self, key):
        return self.layers[key]
    def set(self, key, value):
        self.overrides[key] = value
'''
SETTINGS_BAD = '''
from collections import ChainMap
class Settings:
    def __init__(self, defaults):
        self.overrides = {}
        self.layers = ChainMap(self.overrides, dict(defaults))
    def get(self, key):
        return self.layers[key]
    def set(self, key, value):
        self.overrides[key] = value
'''
SETTINGS_T = '''
def test_tests_defaults_stay_live():
    defaults = {'debug': False, 'level': 1}
    s = Settings(defaults)
    defaults['level'] = 5
    assert s.get('level') == 5
    s.set('debug', True)
    assert defaults['debug'] is False
    assert s.get('debug') is True
def test_tests_write_through_maps():
    s = Settings({'a': 1})
    s.layers.maps[0]['a'] = 2
    assert s.get('a') == 2
    assert s.overrides == {'a': 2}
    child = s.layers.new_child({'a': 3})
    assert child['a'] == 3 and s.get('a') == 2
    s.layers['b'] = 7
    assert s.overrides['b'] == 7
'''
C("q4_chainmap_layers_tests_defaults_ok", SETTINGS, SETTINGS_T)
C("q4_chainmap_layers_tests_defaults_bad_copies", SETTINGS_BAD, SETTINGS_T)

CONFIG = '''
import copy
class Config:
    def __init__(self, data):
        self.data = copy.deepcopy(data)
    def host(self):
        return self.data['db']['host']
'''
CONFIG_BAD = '''
class Config:
    def __init__(self, data):
        self.data = dict(data)
    def host(self):
        return self.data['db']['host']
'''
CONFIG_T = '''
def test_config_isolated_from_callers_nested_dict():
    raw = {'db': {'host': 'a'}, 'debug': False}
    cfg = Config(raw)
    raw['db']['host'] = 'b'
    raw['debug'] = True
    assert cfg.host() == 'a'
    assert cfg.data['debug'] is False
'''
C("q4_config_deepcopy_isolated_ok", CONFIG, CONFIG_T)
C("q4_config_deepcopy_isolated_bad_shallow", CONFIG_BAD, CONFIG_T)

TREE = '''
from collections import defaultdict
def tree():
    return defaultdict(tree)
def to_dict(t):
    return {k: to_dict(v) if isinstance(v, defaultdict) else v for k, v in t.items()}
'''
TREE_BAD = '''
from collections import defaultdict
def tree():
    return defaultdict(tree)
def to_dict(t):
    return dict(t)
'''
TREE_T = '''
def test_autovivify_by_tests_then_convert():
    t = tree()
    t['a']['b']['c'] = 1
    t['a']['x'] = 2
    t['z'] = 3
    assert to_dict(t) == {'a': {'b': {'c': 1}, 'x': 2}, 'z': 3}
    assert type(to_dict(t)['a']) is dict
'''
C("q4_defaultdict_tree_autovivify_ok", TREE, TREE_T)
C("q4_defaultdict_tree_autovivify_bad_shallow", TREE_BAD, TREE_T)

# ------------------------------------------------------------------ copy / deepcopy / pickle in memory
ACCT = '''
import threading
class Account:
    def __init__(self, owner, balance=0):
        self.owner = owner
        self.balance = balance
        self.history = []
        self._lock = threading.Lock()
    def deposit(self, amt):
        with self._lock:
            self.balance += amt
            self.history.append(amt)
    def __getstate__(self):
        state = self.__dict__.copy()
        del state['_lock']
        return state
    def __setstate__(self, state):
        self.__dict__.update(state)
        self._lock = threading.Lock()
    def __eq__(self, other):
        return isinstance(other, Account) and (self.owner, self.balance, self.history) == (other.owner, other.balance, other.history)
'''
ACCT_BAD = '''
import threading
class Account:
    def __init__(self, owner, balance=0):
        self.owner = owner
        self.balance = balance
        self.history = []
        self._lock = threading.Lock()
    def deposit(self, amt):
        with self._lock:
            self.balance += amt
            self.history.append(amt)
    def __eq__(self, other):
        return isinstance(other, Account) and (self.owner, self.balance, self.history) == (other.owner, other.balance, other.history)
'''
ACCT_T = '''
import pickle
def test_pickle_round_trip_in_memory():
    a = Account('ann', 10)
    a.deposit(5)
    b = pickle.loads(pickle.dumps(a))
    assert b == a and b is not a
    b.deposit(1)
    assert a.balance == 15 and b.balance == 16
    assert a.history == [5]
'''
C("q4_pickle_code_object_by_tests_ok", ACCT, ACCT_T)
C("q4_pickle_code_object_by_tests_bad_lock", ACCT_BAD, ACCT_T)

NODE = '''
import copy
class Node:
    def __init__(self, name):
        self.name = name
        self.links = []
        self.visits = 0
    def __copy__(self):
        n = Node(self.name)
        n.links = self.links
        return n
    def __deepcopy__(self, memo):
        n = Node(self.name)
        memo[id(self)] = n
        n.links = copy.deepcopy(self.links, memo)
        return n
'''
NODE_BAD = '''
import copy
class Node:
    def __init__(self, name):
        self.name = name
        self.links = []
        self.visits = 0
    def __copy__(self):
        n = Node(self.name)
        n.links = self.links
        return n
    def __deepcopy__(self, memo):
        n = Node(self.name)
        n.links = [copy.deepcopy(x) for x in self.links]
        return n
'''
NODE_T = '''
import copy
def test_copy_shares_links_resets_visits():
    a = Node('a')
    a.links.append('x')
    a.visits = 3
    b = copy.copy(a)
    assert b.links is a.links and b.visits == 0
def test_deepcopy_keeps_shared_and_cycles():
    a, b = Node('a'), Node('b')
    shared = Node('s')
    a.links += [shared, shared, b]
    b.links.append(a)
    c = copy.deepcopy(a)
    assert c is not a
    assert c.links[0] is c.links[1]
    assert c.links[2].links[0] is c
    assert c.links[0] is not shared
'''
C("q4_copy_hooks_memo_code_nodes_ok", NODE, NODE_T)
C("q4_copy_hooks_memo_code_nodes_bad_no_memo", NODE_BAD, NODE_T)

SNAP = '''
import copy
def snapshot(state):
    return copy.deepcopy(state)
'''
SNAP_BAD = '''
import copy
def snapshot(state):
    return copy.copy(state)
'''
SNAP_T = '''
class Player:
    def __init__(self, name):
        self.name = name
        self.items = []
def test_snapshot_independent_of_tests_objects():
    p = Player('ann')
    p.items.append('sword')
    state = {'players': [p], 'turn': 1}
    snap = snapshot(state)
    p.items.append('shield')
    state['players'].append(Player('bob'))
    state['turn'] = 2
    assert snap['turn'] == 1
    assert len(snap['players']) == 1
    assert snap['players'][0].items == ['sword']
    assert isinstance(snap['players'][0], Player)
'''
C("q4_code_deepcopies_tests_objects_ok", SNAP, SNAP_T)
C("q4_code_deepcopies_tests_objects_bad_shallow", SNAP_BAD, SNAP_T)

RTRIP = '''
import pickle
def roundtrip(obj):
    return pickle.loads(pickle.dumps(obj))
'''
RTRIP_T = '''
from dataclasses import dataclass
@dataclass
class Point:
    x: int
    y: int
def test_roundtrip_plain_and_tests_dataclass():
    assert roundtrip({'a': [1, 2], 'b': (3,)}) == {'a': [1, 2], 'b': (3,)}
    p = Point(1, 2)
    q = roundtrip(p)
    assert q == p and q is not p
    assert type(q) is Point
'''
C("q4_code_pickles_tests_dataclass", RTRIP, RTRIP_T)

# ------------------------------------------------------------------ json hooks either side
DUMP = '''
import json
def dump(obj, default=None):
    return json.dumps(obj, default=default, sort_keys=True)
'''
DUMP_BAD = '''
import json
def dump(obj, default=None):
    return json.dumps(obj, default=str, sort_keys=True)
'''
DUMP_T = '''
import pytest
from datetime import date
class Tag:
    def __init__(self, name):
        self.name = name
def enc(o):
    if isinstance(o, date):
        return o.isoformat()
    if isinstance(o, Tag):
        return {'tag': o.name}
    raise TypeError(f'no {type(o).__name__}')
def test_tests_default_used_by_code():
    out = dump({'when': date(2024, 1, 2), 'tags': [Tag('x')]}, default=enc)
    assert out == '{"tags": [{"tag": "x"}], "when": "2024-01-02"}'
def test_tests_default_error_propagates():
    with pytest.raises(TypeError, match='no complex'):
        dump({'z': 1j}, default=enc)
'''
C("q4_json_tests_default_in_code_ok", DUMP, DUMP_T)
C("q4_json_tests_default_in_code_bad_str", DUMP_BAD, DUMP_T)

ENCODE = '''
from datetime import date
from decimal import Decimal
def encode(o):
    if isinstance(o, date):
        return o.isoformat()
    if isinstance(o, Decimal):
        return str(o)
    if isinstance(o, (set, frozenset)):
        return sorted(o)
    raise TypeError(f'Object of type {type(o).__name__} is not JSON serializable')
def decode_hook(d):
    if set(d) == {'$dec'}:
        return Decimal(d['$dec'])
    return d
'''
ENCODE_BAD = ENCODE.replace("return str(o)", "return float(o)")
ENCODE_T = '''
import json
from datetime import date
from decimal import Decimal
def test_code_default_in_tests_dumps():
    s = json.dumps({'d': date(2020, 5, 6), 'amt': Decimal('1.50'), 'tags': {'b', 'a'}}, default=encode)
    assert json.loads(s) == {'d': '2020-05-06', 'amt': '1.50', 'tags': ['a', 'b']}
def test_code_hook_in_tests_loads():
    v = json.loads('{"x": {"$dec": "2.10"}, "y": [{"$dec": "3"}]}', object_hook=decode_hook)
    assert v == {'x': Decimal('2.10'), 'y': [Decimal('3')]}
    assert str(v['x']) == '2.10'
'''
C("q4_json_code_default_and_hook_in_tests_ok", ENCODE, ENCODE_T)
C("q4_json_code_default_and_hook_in_tests_bad_float", ENCODE_BAD, ENCODE_T)

LOAD = '''
import json
def load(text, **kw):
    return json.loads(text, **kw)
'''
LOAD_BAD = '''
import json
def load(text, **kw):
    kw.pop('parse_float', None)
    return json.loads(text, **kw)
'''
LOAD_T = '''
from decimal import Decimal
from collections import OrderedDict
def test_parse_float_from_tests():
    v = load('{"a": 1.10, "b": [2.5]}', parse_float=Decimal)
    assert v == {'a': Decimal('1.10'), 'b': [Decimal('2.5')]}
    assert str(v['a']) == '1.10'
def test_pairs_hook_from_tests():
    seen = []
    def hook(pairs):
        seen.append([k for k, _ in pairs])
        return OrderedDict(pairs)
    v = load('{"b": 1, "a": {"d": 2, "c": 3}}', object_pairs_hook=hook)
    assert seen == [['d', 'c'], ['b', 'a']]
    assert list(v) == ['b', 'a'] and isinstance(v, OrderedDict)
'''
C("q4_json_tests_hooks_passed_to_code_ok", LOAD, LOAD_T)
C("q4_json_tests_hooks_passed_to_code_bad_drops_parse_float", LOAD_BAD, LOAD_T)

JENC = '''
import json
class Money:
    def __init__(self, cents, cur='EUR'):
        self.cents, self.cur = cents, cur
class MoneyEncoder(json.JSONEncoder):
    def default(self, o):
        if isinstance(o, Money):
            return {'amount': f'{o.cents // 100}.{o.cents % 100:02d}', 'cur': o.cur}
        return super().default(o)
'''
JENC_BAD = JENC.replace("{o.cents % 100:02d}", "{o.cents % 100}")
JENC_T = '''
import json, pytest
def test_tests_dumps_with_code_cls():
    s = json.dumps({'p': Money(1205), 'q': [Money(7, 'USD')]}, cls=MoneyEncoder, sort_keys=True)
    assert s == '{"p": {"amount": "12.05", "cur": "EUR"}, "q": [{"amount": "0.07", "cur": "USD"}]}'
def test_unknown_still_fails():
    with pytest.raises(TypeError):
        json.dumps(object(), cls=MoneyEncoder)
def test_indent_kw_reaches_encoder():
    assert json.dumps([Money(100)], cls=MoneyEncoder, indent=1).count('\\n') == 5
'''
C("q4_json_code_encoder_cls_in_tests_ok", JENC, JENC_T)
C("q4_json_code_encoder_cls_in_tests_bad_padding", JENC_BAD, JENC_T)

# ------------------------------------------------------------------ sorting, heapq, bisect with the other side's keys
RANK = '''
def rank(records, key, reverse=False):
    return sorted(records, key=key, reverse=reverse)
'''
RANK_BAD = '''
def rank(records, key, reverse=False):
    out = sorted(records, key=key)
    return out[::-1] if reverse else out
'''
RANK_T = '''
PRIORITY = {'high': 0, 'mid': 1, 'low': 2}
def test_tests_key_stable_reverse():
    recs = [('a', 'low'), ('b', 'high'), ('c', 'low'), ('d', 'high')]
    assert rank(recs, key=lambda r: PRIORITY[r[1]]) == [('b', 'high'), ('d', 'high'), ('a', 'low'), ('c', 'low')]
    assert rank(recs, key=lambda r: PRIORITY[r[1]], reverse=True) == [('a', 'low'), ('c', 'low'), ('b', 'high'), ('d', 'high')]
def test_key_calls_counted():
    calls = []
    def key(r):
        calls.append(r)
        return r
    rank([3, 1, 2], key)
    assert sorted(calls) == [1, 2, 3]
'''
C("q4_sorted_tests_key_stable_reverse_ok", RANK, RANK_T)
C("q4_sorted_tests_key_stable_reverse_bad_reversed", RANK_BAD, RANK_T)

TQ = '''
import heapq, itertools
class TaskQueue:
    def __init__(self):
        self.heap = []
        self._count = itertools.count()
    def push(self, priority, task):
        heapq.heappush(self.heap, (priority, next(self._count), task))
    def pop(self):
        return heapq.heappop(self.heap)[-1]
    def __len__(self):
        return len(self.heap)
'''
TQ_BAD = '''
import heapq
class TaskQueue:
    def __init__(self):
        self.heap = []
    def push(self, priority, task):
        heapq.heappush(self.heap, (priority, task))
    def pop(self):
        return heapq.heappop(self.heap)[-1]
    def __len__(self):
        return len(self.heap)
'''
TQ_T = '''
class Job:
    def __init__(self, name):
        self.name = name
def test_fifo_among_equal_priorities_of_tests_objects():
    q = TaskQueue()
    jobs = [Job(n) for n in 'abcd']
    q.push(2, jobs[0])
    q.push(1, jobs[1])
    q.push(2, jobs[2])
    q.push(1, jobs[3])
    out = [q.pop() for _ in range(len(q))]
    assert [j.name for j in out] == ['b', 'd', 'a', 'c']
    assert out[0] is jobs[1]
'''
C("q4_heapq_tests_jobs_tiebreak_ok", TQ, TQ_T)
C("q4_heapq_tests_jobs_tiebreak_bad_compares_jobs", TQ_BAD, TQ_T)

INSORT = '''
import bisect
def insert_sorted(lst, item, key=None):
    bisect.insort(lst, item, key=key)
GRADES = [(60, 'D'), (70, 'C'), (80, 'B'), (90, 'A')]
def grade(score):
    i = bisect.bisect_right([s for s, _ in GRADES], score)
    return 'F' if i == 0 else GRADES[i - 1][1]
'''
INSORT_BAD = '''
import bisect
def insert_sorted(lst, item, key=None):
    lst = sorted(lst + [item], key=key)
    return lst
GRADES = [(60, 'D'), (70, 'C'), (80, 'B'), (90, 'A')]
def grade(score):
    i = bisect.bisect_right([s for s, _ in GRADES], score)
    return 'F' if i == 0 else GRADES[i - 1][1]
'''
INSORT_T = '''
def test_insort_into_tests_list_with_key():
    people = [('ann', 20), ('bob', 30)]
    insert_sorted(people, ('cy', 25), key=lambda p: p[1])
    insert_sorted(people, ('di', 99), key=lambda p: p[1])
    assert people == [('ann', 20), ('cy', 25), ('bob', 30), ('di', 99)]
def test_grades_and_tests_patch_table(monkeypatch):
    assert [grade(s) for s in (59, 60, 85, 90)] == ['F', 'D', 'B', 'A']
    monkeypatch.setattr(sys.modules[__name__], 'GRADES', [(50, 'P')])
    assert grade(55) == 'P'
import sys
'''
C("q4_bisect_insort_tests_list_ok", INSORT, INSORT_T)
C("q4_bisect_insort_tests_list_bad_rebinds", INSORT_BAD, INSORT_T)

BEST = '''
def best(items, key):
    return max(items, key=key, default=None)
def scores():
    yield from [('a', 3), ('b', 9), ('c', 9), ('d', 1)]
'''
BEST_BAD = '''
def best(items, key):
    keys = [key(i) for i in items]
    return max(keys) if keys else None
def scores():
    yield from [('a', 3), ('b', 9), ('c', 9), ('d', 1)]
'''
BEST_T = '''
import heapq
from operator import itemgetter
def test_code_max_with_tests_key():
    assert best(scores(), key=itemgetter(1)) == ('b', 9)
    assert best([], key=len) is None
def test_tests_heapq_over_code_generators():
    assert heapq.nsmallest(2, scores(), key=lambda s: s[1]) == [('d', 1), ('a', 3)]
    assert list(heapq.merge(scores(), [('z', 0)], key=itemgetter(1)))[:2] == [('z', 0), ('a', 3)]
    assert min(scores(), key=itemgetter(1), default=None) == ('d', 1)
'''
C("q4_max_min_heapq_key_crossing_ok", BEST, BEST_T)
C("q4_max_min_heapq_key_crossing_bad_returns_key", BEST_BAD, BEST_T)

# ------------------------------------------------------------------ io buffers passed to the code
REPORTIO = '''
def write_report(rows, out):
    for name, qty in rows:
        print(f'{name:<6}{qty:>4}', file=out)
    out.write('-' * 10 + '\\n')
    return out.tell()
'''
REPORTIO_BAD = '''
def write_report(rows, out):
    out.seek(0)
    for name, qty in rows:
        print(f'{name:<6}{qty:>4}', file=out)
    out.write('-' * 10 + '\\n')
    return out.tell()
'''
REPORTIO_T = '''
import io
def test_code_appends_to_tests_stringio():
    buf = io.StringIO()
    buf.write('REPORT\\n')
    end = write_report([('tea', 3), ('milk', 12)], buf)
    assert buf.getvalue() == 'REPORT\\ntea      3\\nmilk    12\\n----------\\n'
    assert end == len(buf.getvalue())
    buf.write('end')
    assert buf.getvalue().endswith('----------\\nend')
'''
C("q4_stringio_code_writes_report_ok", REPORTIO, REPORTIO_T)
C("q4_stringio_code_writes_report_bad_seeks", REPORTIO_BAD, REPORTIO_T)

HEADER = '''
def read_header(f):
    return f.readline().rstrip('\\n').split(',')
'''
HEADER_BAD = '''
def read_header(f):
    return f.read().splitlines()[0].split(',')
'''
HEADER_T = '''
import io, csv
def test_reads_only_first_line():
    f = io.StringIO('a,b\\n1,2\\n3,4\\n')
    assert read_header(f) == ['a', 'b']
    assert f.tell() == 4
    assert list(csv.reader(f)) == [['1', '2'], ['3', '4']]
def test_bytes_text_wrapper():
    raw = io.BytesIO('x,y\\nrest\\n'.encode())
    f = io.TextIOWrapper(raw, encoding='utf-8')
    assert read_header(f) == ['x', 'y']
    assert f.read() == 'rest\\n'
'''
C("q4_stringio_code_reads_partially_ok", HEADER, HEADER_T)
C("q4_stringio_code_reads_partially_bad_reads_all", HEADER_BAD, HEADER_T)

PACK = '''
import struct
REC = struct.Struct('<HI')
def pack_records(recs, out):
    for a, b in recs:
        out.write(REC.pack(a, b))
def unpack_records(inp):
    out = []
    while chunk := inp.read(REC.size):
        out.append(REC.unpack(chunk))
    return out
'''
PACK_BAD = PACK.replace("'<HI'", "'>HI'")
PACK_T = '''
import io
def test_bytes_exact_and_round_trip():
    buf = io.BytesIO()
    pack_records([(1, 2), (258, 65536)], buf)
    assert buf.getvalue() == bytes([1, 0, 2, 0, 0, 0, 2, 1, 0, 0, 1, 0])
    assert buf.tell() == 12
    buf.seek(0)
    assert unpack_records(buf) == [(1, 2), (258, 65536)]
    assert buf.read() == b''
'''
C("q4_bytesio_struct_records_ok", PACK, PACK_T)
C("q4_bytesio_struct_records_bad_endianness", PACK_BAD, PACK_T)

RECODE = '''
import io
def write_utf16(text, raw):
    w = io.TextIOWrapper(raw, encoding='utf-16-le', newline='')
    w.write(text)
    w.flush()
    w.detach()
'''
RECODE_BAD = '''
import io
def write_utf16(text, raw):
    w = io.TextIOWrapper(raw, encoding='utf-16-le', newline='')
    w.write(text)
    w.flush()
'''
RECODE_T = '''
import io
def test_code_wraps_tests_bytesio_without_closing():
    raw = io.BytesIO()
    write_utf16('hi\\n', raw)
    assert not raw.closed
    assert raw.getvalue() == 'hi\\n'.encode('utf-16-le')
    raw.write(b'!')
    assert raw.getvalue().endswith(b'!')
'''
C("q4_textiowrapper_over_tests_bytesio_ok", RECODE, RECODE_T)
C("q4_textiowrapper_over_tests_bytesio_bad_closes", RECODE_BAD, RECODE_T)

EXPORT = '''
import csv
def export(rows, fh):
    w = csv.DictWriter(fh, fieldnames=['name', 'qty'])
    w.writeheader()
    w.writerows(rows)
    return len(rows)
'''
EXPORT_BAD = '''
import csv
def export(rows, fh):
    w = csv.DictWriter(fh, fieldnames=['name', 'qty'])
    w.writerows(rows)
    return len(rows)
'''
EXPORT_T = '''
import io, csv
def test_export_to_tests_buffer():
    fh = io.StringIO(newline='')
    assert export([{'name': 'a', 'qty': 1}, {'name': 'b,c', 'qty': 2}], fh) == 2
    assert fh.getvalue() == 'name,qty\\r\\na,1\\r\\n"b,c",2\\r\\n'
    fh.seek(0)
    assert [r['name'] for r in csv.DictReader(fh)] == ['a', 'b,c']
'''
C("q4_csv_dictwriter_tests_buffer_ok", EXPORT, EXPORT_T)
C("q4_csv_dictwriter_tests_buffer_bad_no_header", EXPORT_BAD, EXPORT_T)

CAPTURE = '''
import io
from contextlib import redirect_stdout
def capture(fn, *args):
    buf = io.StringIO()
    with redirect_stdout(buf):
        result = fn(*args)
    return result, buf.getvalue()
def greet(name):
    print(f'hello {name}')
'''
CAPTURE_BAD = '''
import io
from contextlib import redirect_stdout
def capture(fn, *args):
    buf = io.StringIO()
    with redirect_stdout(buf):
        pass
    result = fn(*args)
    return result, buf.getvalue()
def greet(name):
    print(f'hello {name}')
'''
CAPTURE_T = '''
import io
from contextlib import redirect_stdout
def test_code_captures_tests_prints(capsys):
    def noisy(x):
        print('working', x)
        return x + 1
    assert capture(noisy, 1) == (2, 'working 1\\n')
    assert capsys.readouterr().out == ''
def test_tests_redirect_captures_code_prints():
    buf = io.StringIO()
    with redirect_stdout(buf):
        greet('ann')
    assert buf.getvalue() == 'hello ann\\n'
'''
C("q4_redirect_stdout_both_sides_ok", CAPTURE, CAPTURE_T)
C("q4_redirect_stdout_both_sides_bad_outside", CAPTURE_BAD, CAPTURE_T)

# ------------------------------------------------------------------ bytearray, memoryview, array
XOR = '''
def xor_inplace(buf, key):
    for i in range(len(buf)):
        buf[i] ^= key
'''
XOR_BAD = '''
def xor_inplace(buf, key):
    buf = bytearray(b ^ key for b in buf)
    return buf
'''
XOR_T = '''
import array
def test_bytearray_changed_in_place():
    data = bytearray(b'abc')
    alias = data
    assert xor_inplace(data, 1) is None
    assert alias == bytearray(b'`cb')
def test_memoryview_slice_of_tests_buffer():
    data = bytearray(b'\\x00\\x00\\xff\\xff')
    xor_inplace(memoryview(data)[2:], 0x0f)
    assert data == bytearray(b'\\x00\\x00\\xf0\\xf0')
def test_array_in_place():
    a = array.array('B', [1, 2, 3])
    xor_inplace(a, 3)
    assert a.tolist() == [2, 1, 0]
'''
C("q4_xor_inplace_tests_buffers_ok", XOR, XOR_T)
C("q4_xor_inplace_tests_buffers_bad_rebinds", XOR_BAD, XOR_T)

PAD = '''
def padded(data, size):
    out = bytearray(data)
    out.extend(b'\\x00' * (size - len(out)))
    return out
'''
PAD_BAD = '''
def padded(data, size):
    data.extend(b'\\x00' * (size - len(data)))
    return data
'''
PAD_T = '''
import array
def test_input_bytearray_untouched():
    data = bytearray(b'abc')
    out = padded(data, 5)
    assert out == bytearray(b'abc\\x00\\x00')
    assert data == bytearray(b'abc')
    assert out is not data
def test_input_array_untouched():
    a = array.array('b', [1, 2])
    out = padded(a, 4)
    assert bytes(out) == b'\\x01\\x02\\x00\\x00'
    assert len(a) == 2
'''
C("q4_padded_does_not_mutate_input_ok", PAD, PAD_T)
C("q4_padded_does_not_mutate_input_bad_mutates", PAD_BAD, PAD_T)

BUFFER = '''
class Buffer:
    def __init__(self, data):
        self._buf = bytearray(data)
    def copy(self):
        return bytearray(self._buf)
    def view(self):
        return memoryview(self._buf)
    def raw(self):
        return self._buf
    def peek(self, i):
        return self._buf[i]
'''
BUFFER_BAD = BUFFER.replace("return bytearray(self._buf)", "return self._buf")
BUFFER_T = '''
def test_copy_detached():
    b = Buffer(b'abc')
    c = b.copy()
    c[0] = 0
    c.append(1)
    assert b.peek(0) == 97
    assert bytes(b.raw()) == b'abc'
def test_view_and_raw_write_through():
    b = Buffer(b'abc')
    v = b.view()
    v[0] = ord('X')
    assert b.peek(0) == ord('X')
    v.release()
    r = b.raw()
    r[1] = ord('Y')
    r.extend(b'!')
    assert bytes(b.raw()) == b'XYc!'
'''
C("q4_code_bytearray_copy_vs_view_ok", BUFFER, BUFFER_T)
C("q4_code_bytearray_copy_vs_view_bad_copy_is_live", BUFFER_BAD, BUFFER_T)

SCALE = '''
from array import array
def scale(a, k):
    for i, x in enumerate(a):
        a[i] = x * k
def normalized(a):
    m = max(a)
    return array(a.typecode, (x / m for x in a))
'''
SCALE_BAD = '''
from array import array
def scale(a, k):
    for i, x in enumerate(a):
        a[i] = x * k
def normalized(a):
    m = max(a)
    for i, x in enumerate(a):
        a[i] = x / m
    return a
'''
SCALE_T = '''
from array import array
def test_scale_tests_array_in_place():
    a = array('d', [1.0, 2.0, 4.0])
    scale(a, 0.5)
    assert a == array('d', [0.5, 1.0, 2.0])
def test_normalized_returns_new_array():
    a = array('d', [2.0, 4.0])
    n = normalized(a)
    assert n == array('d', [0.5, 1.0]) and n.typecode == 'd'
    assert a.tolist() == [2.0, 4.0]
    n.append(9.0)
    assert len(a) == 2
'''
C("q4_array_scale_inplace_normalized_copy_ok", SCALE, SCALE_T)
C("q4_array_scale_inplace_normalized_copy_bad_mutates", SCALE_BAD, SCALE_T)

# ------------------------------------------------------------------ Flag, NamedTuple, TypedDict
PERM = '''
from enum import Flag, auto
class Perm(Flag):
    R = 4
    W = 2
    X = 1
    RW = R | W
def can(p, needed):
    return p & needed == needed
def grant(p, extra):
    return p | extra
'''
PERM_BAD = PERM.replace("return p & needed == needed", "return bool(p & needed)")
PERM_T = '''
def test_flag_arithmetic_tests_side():
    assert Perm.R | Perm.W == Perm.RW
    assert Perm.R in Perm.RW and Perm.X not in Perm.RW
    assert ~Perm.RW == Perm.X
    assert Perm(6) is Perm.RW
    assert list(Perm.RW) == [Perm.R, Perm.W]
    assert not Perm(0)
def test_can_and_grant():
    assert can(Perm.RW, Perm.R)
    assert not can(Perm.R, Perm.RW)
    p = grant(Perm.R, Perm.X)
    assert p == Perm.R | Perm.X and p.value == 5
    assert {Perm.R | Perm.X: 'rx'}[p] == 'rx'
'''
C("q4_flag_arith_can_grant_ok", PERM, PERM_T)
C("q4_flag_arith_can_grant_bad_any", PERM_BAD, PERM_T)

POINTNT = '''
from typing import NamedTuple
class Point(NamedTuple):
    x: float
    y: float = 0.0
    def norm1(self):
        return abs(self.x) + abs(self.y)
def midpoint(a, b):
    return Point((a.x + b.x) / 2, (a.y + b.y) / 2)
'''
POINTNT_BAD = '''
class Point:
    def __init__(self, x, y=0.0):
        self.x, self.y = x, y
    def norm1(self):
        return abs(self.x) + abs(self.y)
    def __eq__(self, o):
        return (self.x, self.y) == (o.x, o.y)
    def __iter__(self):
        return iter((self.x, self.y))
def midpoint(a, b):
    return Point((a.x + b.x) / 2, (a.y + b.y) / 2)
'''
POINTNT_T = '''
from collections import namedtuple
P2 = namedtuple('P2', 'x y')
def test_namedtuple_api_on_code_values():
    m = midpoint(Point(0, 0), Point(2, 4))
    assert m == (1.0, 2.0)
    x, y = m
    assert (x, y) == (1.0, 2.0)
    assert m._replace(y=9) == Point(1.0, 9)
    assert m._asdict() == {'x': 1.0, 'y': 2.0}
    assert Point._fields == ('x', 'y') and Point._field_defaults == {'y': 0.0}
    assert Point._make([3, 4]).norm1() == 7
    assert isinstance(m, tuple)
def test_tests_namedtuple_to_code():
    assert midpoint(P2(0, 0), P2(4, 0)) == Point(2.0)
    assert {Point(1, 2): 'a'}[(1, 2)] == 'a'
'''
C("q4_typing_namedtuple_both_sides_ok", POINTNT, POINTNT_T)
C("q4_typing_namedtuple_both_sides_bad_plain_class", POINTNT_BAD, POINTNT_T)

MOVIE = '''
from typing import TypedDict
class Movie(TypedDict):
    title: str
    year: int
class MovieExtra(Movie, total=False):
    rating: float
def validate(d, schema=MovieExtra):
    missing = schema.__required_keys__ - d.keys()
    unknown = d.keys() - schema.__required_keys__ - schema.__optional_keys__
    return sorted(missing), sorted(unknown)
'''
MOVIE_BAD = MOVIE.replace("- schema.__required_keys__ - schema.__optional_keys__", "- schema.__required_keys__")
MOVIE_T = '''
from typing import get_type_hints
def test_required_optional_keys():
    assert MovieExtra.__required_keys__ == frozenset({'title', 'year'})
    assert MovieExtra.__optional_keys__ == frozenset({'rating'})
    assert get_type_hints(MovieExtra) == {'title': str, 'year': int, 'rating': float}
def test_validate_tests_dicts():
    m: Movie = {'title': 'x', 'year': 1999}
    assert validate(m) == ([], [])
    assert validate({'title': 'x', 'rating': 5.0}) == (['year'], [])
    assert validate({'title': 'x', 'year': 1, 'extra': 1}) == ([], ['extra'])
    assert type(MovieExtra(title='a', year=1)) is dict
'''
C("q4_typeddict_keys_validate_ok", MOVIE, MOVIE_T)
C("q4_typeddict_keys_validate_bad_optional_unknown", MOVIE_BAD, MOVIE_T)

STATUS = '''
from enum import StrEnum, IntEnum
class Status(StrEnum):
    OPEN = 'open'
    DONE = 'done'
class Level(IntEnum):
    LOW = 1
    HIGH = 3
def label(s, lvl):
    return f'{s}:{lvl.name.lower()}:{lvl + 1}'
'''
STATUS_BAD = STATUS.replace("class Status(StrEnum):", "from enum import Enum\nclass Status(str, Enum):")
STATUS_T = '''
import json
def test_strenum_formats_as_value():
    assert f'{Status.OPEN}' == 'open'
    assert str(Status.DONE) == 'done'
    assert label(Status.DONE, Level.HIGH) == 'done:high:4'
    assert json.dumps({'s': Status.OPEN, 'l': Level.LOW}) == '{"s": "open", "l": 1}'
def test_lookup_and_sorting():
    assert Status('open') is Status.OPEN
    assert sorted([Level.HIGH, 2, Level.LOW]) == [1, 2, 3]
    assert {'open': 1}[Status.OPEN] == 1
    assert Level.HIGH > Level.LOW and Level(3) is Level.HIGH
'''
C("q4_strenum_intenum_format_ok", STATUS, STATUS_T)
C("q4_strenum_intenum_format_bad_str_mixin", STATUS_BAD, STATUS_T)

# ------------------------------------------------------------------ constants and class attributes changed by the tests
RETRY = '''
MAX_RETRIES = 3
class Flaky(Exception):
    pass
def retry(fn):
    last = None
    for attempt in range(MAX_RETRIES):
        try:
            return fn()
        except Flaky as e:
            last = e
    raise last
'''
RETRY_BAD = '''
MAX_RETRIES = 3
class Flaky(Exception):
    pass
def retry(fn, attempts=MAX_RETRIES):
    last = None
    for attempt in range(attempts):
        try:
            return fn()
        except Flaky as e:
            last = e
    raise last
'''
RETRY_T = '''
import sys, pytest
def failing(times):
    state = {'n': 0}
    def fn():
        state['n'] += 1
        if state['n'] <= times:
            raise Flaky(state['n'])
        return state['n']
    return fn
def test_patched_constant_used(monkeypatch):
    monkeypatch.setattr(sys.modules[__name__], 'MAX_RETRIES', 5)
    assert retry(failing(4)) == 5
def test_default_constant_after_undo():
    with pytest.raises(Flaky) as ei:
        retry(failing(4))
    assert ei.value.args == (3,)
'''
C("q4_module_constant_monkeypatched_ok", RETRY, RETRY_T)
C("q4_module_constant_monkeypatched_bad_default_arg", RETRY_BAD, RETRY_T)

FEE = '''
class Account:
    fee = 1
    def __init__(self, balance):
        self.balance = balance
    def withdraw(self, amt):
        self.balance -= amt + self.fee
        return self.balance
'''
FEE_BAD = '''
class Account:
    fee = 1
    def __init__(self, balance):
        self.balance = balance
        self.fee = Account.fee
    def withdraw(self, amt):
        self.balance -= amt + self.fee
        return self.balance
'''
FEE_T = '''
import unittest
class TestFee(unittest.TestCase):
    def setUp(self):
        self.old = Account.fee
    def tearDown(self):
        Account.fee = self.old
    def test_class_attr_change_applies_to_existing(self):
        a = Account(100)
        Account.fee = 0
        self.assertEqual(a.withdraw(10), 90)
        Account.fee = 5
        self.assertEqual(a.withdraw(10), 75)
    def test_instance_override(self):
        a, b = Account(50), Account(50)
        a.fee = 10
        self.assertEqual((a.withdraw(0), b.withdraw(0)), (40, 49))
        self.assertEqual(Account.fee, 1)
        self.assertNotIn('fee', vars(b))
'''
C("q4_class_attr_assigned_by_tests_ok", FEE, FEE_T)
C("q4_class_attr_assigned_by_tests_bad_snapshot", FEE_BAD, FEE_T)

TICKET = '''
class Ticket:
    next_id = 1
    def __init__(self, title):
        self.title = title
        self.id = Ticket.next_id
        Ticket.next_id += 1
'''
TICKET_BAD = '''
class Ticket:
    next_id = 1
    def __init__(self, title):
        self.title = title
        self.id = self.next_id
        self.next_id += 1
'''
TICKET_T = '''
import pytest
@pytest.fixture
def from_100(monkeypatch):
    monkeypatch.setattr(Ticket, 'next_id', 100)
def test_ids_from_patched_counter(from_100):
    a, b = Ticket('a'), Ticket('b')
    assert (a.id, b.id) == (100, 101)
    assert Ticket.next_id == 102
def test_restored_after_fixture():
    start = Ticket.next_id
    assert start < 100
    t = Ticket('x')
    assert t.id == start and Ticket.next_id == start + 1
'''
C("q4_class_counter_monkeypatched_ok", TICKET, TICKET_T)
C("q4_class_counter_monkeypatched_bad_instance_shadow", TICKET_BAD, TICKET_T)

RATES = '''
RATES = {'EUR': 1.0, 'USD': 1.1}
def convert(amount, cur):
    return round(amount * RATES[cur], 2)
'''
RATES_BAD = '''
RATES = {'EUR': 1.0, 'USD': 1.1}
def convert(amount, cur):
    return round(amount * RATES.get(cur, 1.0), 2)
'''
RATES_T = '''
import pytest
def test_setitem_patch(monkeypatch):
    monkeypatch.setitem(RATES, 'GBP', 0.9)
    assert convert(10, 'GBP') == 9.0
def test_direct_mutation_then_cleanup():
    RATES['JPY'] = 150.0
    try:
        assert convert(2, 'JPY') == 300.0
    finally:
        del RATES['JPY']
def test_unknown_after_cleanup():
    assert set(RATES) == {'EUR', 'USD'}
    with pytest.raises(KeyError):
        convert(1, 'GBP')
'''
C("q4_module_dict_mutated_by_tests_ok", RATES, RATES_T)
C("q4_module_dict_mutated_by_tests_bad_default_rate", RATES_BAD, RATES_T)

# ------------------------------------------------------------------ hashing and equality across
PT = '''
class Pt:
    def __init__(self, x, y):
        self.x, self.y = x, y
    def __eq__(self, o):
        return isinstance(o, Pt) and (self.x, self.y) == (o.x, o.y)
    def __hash__(self):
        return hash((self.x, self.y))
    def __repr__(self):
        return f'Pt({self.x}, {self.y})'
'''
PT_BAD = PT.replace("return hash((self.x, self.y))", "return id(self)")
PT_T = '''
def test_code_objects_as_tests_keys():
    d = {Pt(1, 2): 'a'}
    assert d[Pt(1, 2)] == 'a'
    assert Pt(1, 2) in {Pt(1, 2), Pt(3, 4)}
    assert len({Pt(0, 0), Pt(0, 0), Pt(0, 1)}) == 2
def test_counter_and_set_ops():
    from collections import Counter
    c = Counter([Pt(1, 1), Pt(1, 1), Pt(2, 2)])
    assert c[Pt(1, 1)] == 2
    assert {Pt(1, 1), Pt(2, 2)} - {Pt(2, 2)} == {Pt(1, 1)}
'''
C("q4_code_objects_as_tests_dict_keys_ok", PT, PT_T)
C("q4_code_objects_as_tests_dict_keys_bad_id_hash", PT_BAD, PT_T)

VEC = '''
class Vec:
    def __init__(self, *xs):
        self.xs = list(xs)
    def __eq__(self, o):
        return isinstance(o, Vec) and self.xs == o.xs
'''
VEC_BAD = VEC + '''
    def __hash__(self):
        return hash(tuple(self.xs))
'''
VEC_T = '''
import pytest
def test_mutable_vec_unhashable():
    v = Vec(1, 2)
    with pytest.raises(TypeError):
        hash(v)
    with pytest.raises(TypeError):
        {v: 1}
    assert Vec.__hash__ is None
def test_equality_still_works():
    assert Vec(1) == Vec(1) and Vec(1) != Vec(2)
    assert Vec(3) in [Vec(1), Vec(3)]
'''
C("q4_eq_without_hash_unhashable_ok", VEC, VEC_T)
C("q4_eq_without_hash_unhashable_bad_hashable", VEC_BAD, VEC_T)

REG = '''
class Registry:
    def __init__(self):
        self._items = {}
    def add(self, key, value):
        self._items[key] = value
    def get(self, key, default=None):
        return self._items.get(key, default)
    def __contains__(self, key):
        return key in self._items
    def keys(self):
        return list(self._items)
'''
REG_BAD = '''
class Registry:
    def __init__(self):
        self._items = {}
    def add(self, key, value):
        self._items[id(key)] = (key, value)
    def get(self, key, default=None):
        return self._items.get(id(key), (None, default))[1]
    def __contains__(self, key):
        return id(key) in self._items
    def keys(self):
        return [k for k, _ in self._items.values()]
'''
REG_T = '''
from dataclasses import dataclass
@dataclass(frozen=True)
class Key:
    a: int
    b: str
def test_equal_but_distinct_tests_keys():
    r = Registry()
    k = Key(1, 'x')
    r.add(k, 'value')
    assert r.get(Key(1, 'x')) == 'value'
    assert Key(1, 'x') in r and Key(2, 'x') not in r
    [back] = r.keys()
    assert back is k and isinstance(back, Key)
def test_tuple_key_with_tests_object():
    r = Registry()
    r.add(('k', Key(0, '')), 1)
    assert r.get(('k', Key(0, ''))) == 1
'''
C("q4_tests_frozen_keys_in_code_dict_ok", REG, REG_T)
C("q4_tests_frozen_keys_in_code_dict_bad_by_id", REG_BAD, REG_T)

CENTS = '''
class Money:
    def __init__(self, cents):
        self.cents = cents
    def __eq__(self, other):
        if not isinstance(other, Money):
            return NotImplemented
        return self.cents == other.cents
    __hash__ = None
'''
CENTS_BAD = CENTS.replace("return NotImplemented", "return False")
CENTS_T = '''
class Amount:
    def __init__(self, cents):
        self.cents = cents
    def __eq__(self, other):
        return getattr(other, 'cents', None) == self.cents
def test_reflected_eq_reaches_tests_class():
    assert Money(5) == Amount(5)
    assert Amount(5) == Money(5)
    assert Money(5) != Amount(6)
    assert Money(5) != 5
    assert [Money(1), Money(2)].index(Amount(2)) == 1
'''
C("q4_eq_notimplemented_reflects_to_tests_ok", CENTS, CENTS_T)
C("q4_eq_notimplemented_reflects_to_tests_bad_false", CENTS_BAD, CENTS_T)

# ------------------------------------------------------------------ formatting
TEMP = '''
class Temp:
    def __init__(self, c):
        self.c = c
    def __format__(self, spec):
        unit = spec[-1] if spec and spec[-1] in 'CFK' else 'C'
        num = spec[:-1] if spec and spec[-1] in 'CFK' else spec
        value = {'C': self.c, 'F': self.c * 9 / 5 + 32, 'K': self.c + 273.15}[unit]
        return format(value, (num or '.1') + 'f') + ('K' if unit == 'K' else '\\u00b0' + unit)
    def __str__(self):
        return format(self, '')
    def __repr__(self):
        return f'Temp({self.c!r})'
'''
TEMP_BAD = TEMP.replace("    def __str__(self):\n        return format(self, '')\n", "")
TEMP_T = '''
def test_fstrings_with_specs():
    t = Temp(20)
    assert f'{t}' == '20.0\\u00b0C'
    assert f'{t:.0F}' == '68\\u00b0F'
    assert f'{t:.2K}' == '293.15K'
    assert f'{t!r}' == 'Temp(20)'
    assert '{0:F} / {0!s}'.format(t) == '68.0\\u00b0F / 20.0\\u00b0C'
    assert '%s' % t == '20.0\\u00b0C'
    assert str([t]) == '[Temp(20)]'
def test_format_map_with_code_values():
    assert 'now {now:.1C}'.format_map({'now': Temp(-3.25)}) == 'now -3.2\\u00b0C'
'''
C("q4_format_spec_temp_ok", TEMP, TEMP_T)
C("q4_format_spec_temp_bad_no_str", TEMP_BAD, TEMP_T)

RNODE = '''
import reprlib
class Node:
    def __init__(self, name):
        self.name = name
        self.next = None
    @reprlib.recursive_repr()
    def __repr__(self):
        return f'Node({self.name!r}, next={self.next!r})'
'''
RNODE_BAD = '''
class Node:
    def __init__(self, name):
        self.name = name
        self.next = None
    def __repr__(self):
        return f'Node({self.name!r}, next={self.next!r})'
'''
RNODE_T = '''
def test_cycle_built_by_tests():
    a, b = Node('a'), Node('b')
    a.next = b
    assert repr(a) == "Node('a', next=Node('b', next=None))"
    b.next = a
    assert repr(a) == "Node('a', next=Node('b', next=...))"
def test_tests_object_inside():
    class Leaf:
        def __repr__(self):
            return '<leaf>'
    n = Node('x')
    n.next = Leaf()
    assert repr(n) == "Node('x', next=<leaf>)"
'''
C("q4_recursive_repr_cycle_by_tests_ok", RNODE, RNODE_T)
C("q4_recursive_repr_cycle_by_tests_bad_recursion", RNODE_BAD, RNODE_T)

DESCR = '''
def describe(items):
    return 'items: ' + ', '.join(f'{i!s}' for i in items)
def check(item):
    if not item.ok:
        raise ValueError(f'bad item {item!r}')
    return True
'''
DESCR_BAD = DESCR.replace("f'{i!s}'", "f'{i!r}'")
DESCR_T = '''
import pytest
class It:
    def __init__(self, n, ok=True):
        self.n, self.ok = n, ok
    def __str__(self):
        return f'#{self.n}'
    def __repr__(self):
        return f'It({self.n})'
def test_code_uses_tests_str():
    assert describe([It(1), It(2)]) == 'items: #1, #2'
def test_code_message_uses_tests_repr():
    with pytest.raises(ValueError, match=r'bad item It\\(3\\)'):
        check(It(3, ok=False))
'''
C("q4_code_formats_tests_objects_ok", DESCR, DESCR_T)
C("q4_code_formats_tests_objects_bad_repr", DESCR_BAD, DESCR_T)

# ------------------------------------------------------------------ sequence protocol, truth, containment
TOTAL = '''
def total(seq):
    s = 0
    for x in seq:
        s += x
    return s
def has(seq, x):
    return x in seq
'''
TOTAL_BAD = '''
def total(seq):
    return sum(seq[i] for i in range(len(seq)))
def has(seq, x):
    return x in seq
'''
TOTAL_T = '''
import pytest
class Squares:
    def __init__(self, n):
        self.n = n
    def __getitem__(self, i):
        if i >= self.n:
            raise IndexError(i)
        return i * i
def test_getitem_only_tests_object_iterated_by_code():
    assert total(Squares(4)) == 14
    assert has(Squares(5), 9) and not has(Squares(3), 9)
    assert list(Squares(3)) == [0, 1, 4]
    with pytest.raises(TypeError):
        len(Squares(3))
'''
C("q4_getitem_only_tests_seq_to_code_ok", TOTAL, TOTAL_T)
C("q4_getitem_only_tests_seq_to_code_bad_len", TOTAL_BAD, TOTAL_T)

FIB = '''
class Fib:
    def __init__(self, limit):
        self.limit = limit
    def __getitem__(self, i):
        if isinstance(i, slice):
            return [self[j] for j in range(*i.indices(self.limit))]
        if not 0 <= i < self.limit:
            raise IndexError(i)
        a, b = 0, 1
        for _ in range(i):
            a, b = b, a + b
        return a
'''
FIB_BAD = FIB.replace("raise IndexError(i)", "raise KeyError(i)")
FIB_T = '''
def test_code_getitem_sequence_in_tests():
    f = Fib(8)
    assert list(f) == [0, 1, 1, 2, 3, 5, 8, 13]
    assert 5 in f and 4 not in f
    assert f[2:6] == [1, 2, 3, 5]
    it = iter(f)
    assert [next(it), next(it), next(it)] == [0, 1, 1]
    assert dict(enumerate(Fib(3))) == {0: 0, 1: 1, 2: 1}
    assert sorted(Fib(5), reverse=True) == [3, 2, 1, 1, 0]
'''
C("q4_code_getitem_only_seq_in_tests_ok", FIB, FIB_T)
C("q4_code_getitem_only_seq_in_tests_bad_keyerror", FIB_BAD, FIB_T)

BASKET = '''
class Basket:
    def __init__(self):
        self.items = []
    def add(self, x):
        self.items.append(x)
        return self
    def __len__(self):
        return len(self.items)
class Result:
    def __init__(self, ok, value=None):
        self.ok, self.value = ok, value
    def __bool__(self):
        return self.ok
'''
BASKET_BAD = BASKET.replace("    def __bool__(self):\n        return self.ok\n", "    def __bool__(self):\n        return self.value is not None\n")
BASKET_T = '''
def test_truthiness_from_len():
    b = Basket()
    assert not b
    assert (b or 'empty') == 'empty'
    b.add(1)
    assert b and len(b) == 1
def test_truthiness_from_bool():
    assert Result(True, 0)
    assert not Result(False, 'x')
    assert [r.value for r in [Result(True, 1), Result(False, 2), Result(True, None)] if r] == [1, None]
    assert any([Result(False), Result(True)]) and not all([Result(True), Result(False)])
'''
C("q4_bool_len_truthiness_code_objects_ok", BASKET, BASKET_T)
C("q4_bool_len_truthiness_code_objects_bad_bool", BASKET_BAD, BASKET_T)

DRANGE = '''
from datetime import date, timedelta
class DateRange:
    def __init__(self, start, end):
        self.start, self.end = start, end
    def __contains__(self, d):
        return self.start <= d <= self.end
    def __iter__(self):
        d = self.start
        while d <= self.end:
            yield d
            d += timedelta(days=1)
    def __len__(self):
        return (self.end - self.start).days + 1
'''
DRANGE_BAD = DRANGE.replace("return self.start <= d <= self.end", "return self.start <= d < self.end")
DRANGE_T = '''
from datetime import date
def test_contains_iter_len_consistent():
    r = DateRange(date(2024, 1, 30), date(2024, 2, 2))
    assert len(r) == 4
    days = list(r)
    assert days[-1] == date(2024, 2, 2)
    assert all(d in r for d in days)
    assert date(2024, 2, 3) not in r
    assert date(2024, 2, 29) not in r
'''
C("q4_contains_iter_len_daterange_ok", DRANGE, DRANGE_T)
C("q4_contains_iter_len_daterange_bad_exclusive", DRANGE_BAD, DRANGE_T)

# ------------------------------------------------------------------ numbers
MEAN = '''
from fractions import Fraction
def mean(xs):
    xs = list(xs)
    return Fraction(sum(xs), len(xs))
'''
MEAN_BAD = '''
def mean(xs):
    xs = list(xs)
    return sum(xs) / len(xs)
'''
MEAN_T = '''
from fractions import Fraction
def test_exact_mean():
    assert mean([1, 2, 2]) == Fraction(5, 3)
    assert mean([Fraction(1, 3), Fraction(2, 3)]) == Fraction(1, 2)
    m = mean([0, 1])
    assert {0.5: 'half'}[m] == 'half'
    assert hash(m) == hash(0.5)
    assert mean(range(1, 8)).limit_denominator(1) == 4
    assert float(mean([1, 2])) == 1.5
'''
C("q4_fraction_mean_exact_ok", MEAN, MEAN_T)
C("q4_fraction_mean_exact_bad_float", MEAN_BAD, MEAN_T)

ROUNDM = '''
from decimal import Decimal, ROUND_HALF_UP
CENT = Decimal('0.01')
def round_money(d):
    return Decimal(d).quantize(CENT, rounding=ROUND_HALF_UP)
def split(total, n):
    total = Decimal(total)
    share = (total / n).quantize(CENT, rounding='ROUND_DOWN')
    parts = [share] * n
    parts[-1] += total - share * n
    return parts
'''
ROUNDM_BAD = '''
from decimal import Decimal
def round_money(d):
    return Decimal(str(round(float(d), 2)))
def split(total, n):
    total = Decimal(total)
    share = round(total / n, 2)
    return [share] * n
'''
ROUNDM_T = '''
from decimal import Decimal, localcontext
def test_half_up_and_strings():
    assert round_money(Decimal('2.675')) == Decimal('2.68')
    assert str(round_money('0.125')) == '0.13'
    assert round_money(Decimal('-1.005')) == Decimal('-1.01')
def test_split_sums_back():
    parts = split('10.00', 3)
    assert parts == [Decimal('3.33'), Decimal('3.33'), Decimal('3.34')]
    assert sum(parts) == Decimal('10.00')
    with localcontext() as ctx:
        ctx.prec = 50
        assert sum(split('1', 7)) == 1
'''
C("q4_decimal_round_split_ok", ROUNDM, ROUNDM_T)
C("q4_decimal_round_split_bad_float", ROUNDM_BAD, ROUNDM_T)

ROOTS = '''
import cmath
def roots(a, b, c):
    d = cmath.sqrt(b * b - 4 * a * c)
    r1, r2 = (-b + d) / (2 * a), (-b - d) / (2 * a)
    return sorted([r1, r2], key=lambda z: (z.real, z.imag))
'''
ROOTS_BAD = '''
import math
def roots(a, b, c):
    d = math.sqrt(b * b - 4 * a * c)
    r1, r2 = (-b + d) / (2 * a), (-b - d) / (2 * a)
    return sorted([r1, r2])
'''
ROOTS_T = '''
import cmath
def test_complex_roots():
    r = roots(1, 2, 5)
    assert r == [complex(-1, -2), complex(-1, 2)]
    assert r[0].conjugate() == r[1]
    assert all(cmath.isclose(z * z + 2 * z + 5, 0, abs_tol=1e-12) for z in r)
def test_real_roots_as_complex():
    assert roots(1, -3, 2) == [1, 2]
    assert roots(1, -3, 2)[0].imag == 0
'''
C("q4_complex_roots_ok", ROOTS, ROOTS_T)
C("q4_complex_roots_bad_math_sqrt", ROOTS_BAD, ROOTS_T)

NUMS = '''
import numbers
def kind(x):
    if isinstance(x, bool):
        return 'bool'
    if isinstance(x, numbers.Integral):
        return 'integral'
    if isinstance(x, numbers.Rational):
        return 'rational'
    if isinstance(x, numbers.Real):
        return 'real'
    if isinstance(x, numbers.Complex):
        return 'complex'
    return 'other'
'''
NUMS_BAD = '''
def kind(x):
    if isinstance(x, bool):
        return 'bool'
    if isinstance(x, int):
        return 'integral'
    if isinstance(x, float):
        return 'real'
    if isinstance(x, complex):
        return 'complex'
    return 'other'
'''
NUMS_T = '''
import numbers
from fractions import Fraction
from decimal import Decimal
class Meters:
    def __init__(self, v):
        self.v = v
numbers.Real.register(Meters)
def test_kinds_of_standard_numbers():
    assert [kind(x) for x in (True, 3, Fraction(1, 2), 2.5, 1j, Decimal('1'), 'x')] == \\
        ['bool', 'integral', 'rational', 'real', 'complex', 'other', 'other']
def test_tests_registered_virtual_subclass():
    assert kind(Meters(3)) == 'real'
'''
C("q4_numbers_abc_kinds_ok", NUMS, NUMS_T)
C("q4_numbers_abc_kinds_bad_concrete", NUMS_BAD, NUMS_T)

# ------------------------------------------------------------------ threads, queues, futures with the tests' callables
PMAP = '''
from concurrent.futures import ThreadPoolExecutor
def parallel_map(fn, items, workers=4):
    with ThreadPoolExecutor(max_workers=workers) as ex:
        return list(ex.map(fn, items))
'''
PMAP_BAD = '''
from concurrent.futures import ThreadPoolExecutor, as_completed
def parallel_map(fn, items, workers=4):
    with ThreadPoolExecutor(max_workers=workers) as ex:
        futs = [ex.submit(fn, i) for i in items]
        return sorted(f.result() for f in as_completed(futs))
'''
PMAP_T = '''
import threading, pytest
def test_order_kept_and_all_called():
    seen = []
    lock = threading.Lock()
    def fn(x):
        with lock:
            seen.append(x)
        return -x
    assert parallel_map(fn, [1, 2, 3, 4, 5]) == [-1, -2, -3, -4, -5]
    assert sorted(seen) == [1, 2, 3, 4, 5]
def test_tests_exception_propagates():
    def fn(x):
        if x == 2:
            raise LookupError('two')
        return x
    with pytest.raises(LookupError, match='two'):
        parallel_map(fn, [1, 2, 3])
'''
C("q4_threadpool_map_tests_fn_ok", PMAP, PMAP_T)
C("q4_threadpool_map_tests_fn_bad_sorted", PMAP_BAD, PMAP_T)

WORKER = '''
import threading, queue
def start_worker(q, stop, results):
    def run():
        while not stop.is_set():
            try:
                item = q.get(timeout=0.02)
            except queue.Empty:
                continue
            try:
                results.append(item * 2)
            finally:
                q.task_done()
    t = threading.Thread(target=run, daemon=True)
    t.start()
    return t
'''
WORKER_BAD = WORKER.replace("            try:\n                results.append(item * 2)\n            finally:\n                q.task_done()", "            results.append(item * 2)")
WORKER_T = '''
import threading, queue, time
def test_worker_with_tests_queue_and_event():
    q, stop, results = queue.Queue(), threading.Event(), []
    t = start_worker(q, stop, results)
    for i in range(5):
        q.put(i)
    deadline = time.monotonic() + 3
    while q.unfinished_tasks and time.monotonic() < deadline:
        time.sleep(0.01)
    assert q.unfinished_tasks == 0
    stop.set()
    t.join(2)
    assert not t.is_alive()
    assert results == [0, 2, 4, 6, 8]
'''
C("q4_thread_worker_tests_queue_event_ok", WORKER, WORKER_T)
C("q4_thread_worker_tests_queue_event_bad_no_task_done", WORKER_BAD, WORKER_T)

DRAIN = '''
def drain(q):
    out = []
    while True:
        item = q.get()
        if item is None:
            return out
        out.append(item)
'''
DRAIN_BAD = '''
def drain(q):
    out = []
    while not q.empty():
        item = q.get()
        if item is not None:
            out.append(item)
    return out
'''
DRAIN_T = '''
import queue, threading
def test_stops_at_sentinel_leaves_rest():
    q = queue.Queue()
    for x in [1, 2, None, 3]:
        q.put(x)
    assert drain(q) == [1, 2]
    assert q.get_nowait() == 3
def test_producer_thread():
    q = queue.Queue()
    def produce():
        for x in 'abc':
            q.put(x)
        q.put(None)
    t = threading.Thread(target=produce)
    t.start()
    assert drain(q) == ['a', 'b', 'c']
    t.join()
'''
C("q4_queue_drain_sentinel_tests_queue_ok", DRAIN, DRAIN_T)
C("q4_queue_drain_sentinel_tests_queue_bad_until_empty", DRAIN_BAD, DRAIN_T)

LOCKED = '''
class Counter:
    def __init__(self, lock, on_change):
        self.lock = lock
        self.on_change = on_change
        self.n = 0
    def incr(self):
        with self.lock:
            self.n += 1
            self.on_change(self.n)
'''
LOCKED_BAD = '''
class Counter:
    def __init__(self, lock, on_change):
        self.lock = lock
        self.on_change = on_change
        self.n = 0
    def incr(self):
        with self.lock:
            self.n += 1
        self.on_change(self.n)
'''
LOCKED_T = '''
import threading
def test_callback_runs_under_tests_lock():
    lock = threading.Lock()
    seen = []
    c = Counter(lock, lambda n: seen.append((n, lock.locked())))
    c.incr()
    c.incr()
    assert seen == [(1, True), (2, True)]
    assert not lock.locked()
def test_threads_share_counter():
    lock = threading.RLock()
    c = Counter(lock, lambda n: None)
    ts = [threading.Thread(target=lambda: [c.incr() for _ in range(50)]) for _ in range(4)]
    for t in ts:
        t.start()
    for t in ts:
        t.join()
    assert c.n == 200
'''
C("q4_tests_lock_held_in_code_callback_ok", LOCKED, LOCKED_T)
C("q4_tests_lock_held_in_code_callback_bad_outside", LOCKED_BAD, LOCKED_T)

FUTS = '''
def submit_all(executor, fn, items, done):
    futs = []
    for i in items:
        f = executor.submit(fn, i)
        f.add_done_callback(lambda f, i=i: done.append((i, f.exception() is None)))
        futs.append(f)
    return futs
'''
FUTS_BAD = '''
def submit_all(executor, fn, items, done):
    futs = []
    for i in items:
        f = executor.submit(fn, i)
        f.add_done_callback(lambda f, i=i: done.append((i, f.result() is not None)))
        futs.append(f)
    return futs
'''
FUTS_T = '''
from concurrent.futures import ThreadPoolExecutor, wait
def test_code_callbacks_on_tests_executor():
    def fn(x):
        if x == 3:
            raise ValueError(x)
        return x * x
    done = []
    with ThreadPoolExecutor(2) as ex:
        futs = submit_all(ex, fn, [1, 2, 3], done)
        wait(futs)
    assert [f.result() for f in futs[:2]] == [1, 4]
    assert isinstance(futs[2].exception(), ValueError)
    assert sorted(done) == [(1, True), (2, True), (3, False)]
'''
C("q4_futures_code_callbacks_tests_executor_ok", FUTS, FUTS_T)
C("q4_futures_code_callbacks_tests_executor_bad_result_raises", FUTS_BAD, FUTS_T)

# ------------------------------------------------------------------ asyncio objects from the tests
CONSUME = '''
async def consume(q):
    out = []
    while True:
        item = await q.get()
        q.task_done()
        if item is None:
            return out
        out.append(item * 10)
'''
CONSUME_BAD = '''
async def consume(q):
    out = []
    while not q.empty():
        item = await q.get()
        q.task_done()
        if item is None:
            return out
        out.append(item * 10)
    return out
'''
CONSUME_T = '''
import asyncio
def test_code_consumes_tests_queue_prefilled():
    async def main():
        q = asyncio.Queue()
        for x in [1, 2, 3, None]:
            q.put_nowait(x)
        out = await consume(q)
        return out, q.qsize()
    assert asyncio.run(main()) == ([10, 20, 30], 0)
def test_code_consumes_while_tests_produce():
    async def main():
        q = asyncio.Queue()
        async def produce():
            for x in [4, 5]:
                await asyncio.sleep(0.01)
                await q.put(x)
            await q.put(None)
        p = asyncio.create_task(produce())
        out = await asyncio.wait_for(consume(q), 2)
        await p
        return out
    assert asyncio.run(main()) == [40, 50]
'''
C("q4_async_code_consumes_tests_queue_ok", CONSUME, CONSUME_T)
C("q4_async_code_consumes_tests_queue_bad_until_empty", CONSUME_BAD, CONSUME_T)

ATAKE = '''
async def take(aiter, n):
    out = []
    if n <= 0:
        return out
    async for x in aiter:
        out.append(x)
        if len(out) == n:
            break
    return out
'''
ATAKE_BAD = '''
async def take(aiter, n):
    out = []
    async for x in aiter:
        out.append(x)
    return out[:n]
'''
ATAKE_T = '''
import asyncio
class Countdown:
    def __init__(self, n):
        self.n = n
    def __aiter__(self):
        return self
    async def __anext__(self):
        await asyncio.sleep(0)
        if self.n == 0:
            raise StopAsyncIteration
        self.n -= 1
        return self.n
def test_code_takes_from_tests_async_iterator():
    async def main():
        c = Countdown(5)
        first = await take(c, 2)
        rest = await take(c, 10)
        return first, rest
    assert asyncio.run(main()) == ([4, 3], [2, 1, 0])
'''
C("q4_async_code_takes_tests_aiterator_ok", ATAKE, ATAKE_T)
C("q4_async_code_takes_tests_aiterator_bad_consumes_all", ATAKE_BAD, ATAKE_T)

WAITE = '''
import asyncio
async def wait_then(event, fn):
    await event.wait()
    return fn()
'''
WAITE_BAD = '''
import asyncio
async def wait_then(event, fn):
    if not event.is_set():
        await asyncio.sleep(0)
    return fn()
'''
WAITE_T = '''
import asyncio
def test_code_waits_for_tests_event():
    log = []
    async def main():
        ev = asyncio.Event()
        asyncio.get_running_loop().call_later(0.05, lambda: (log.append('set'), ev.set()))
        r = await asyncio.wait_for(wait_then(ev, lambda: log.append('fn') or 'done'), 2)
        return r
    assert asyncio.run(main()) == 'done'
    assert log == ['set', 'fn']
'''
C("q4_async_code_waits_tests_event_ok", WAITE, WAITE_T)
C("q4_async_code_waits_tests_event_bad_no_wait", WAITE_BAD, WAITE_T)

PAGES = '''
async def paginate(fetch):
    page = 0
    while True:
        rows = await fetch(page)
        if not rows:
            return
        for r in rows:
            yield r
        page += 1
'''
PAGES_BAD = '''
async def paginate(fetch):
    page = 0
    rows = await fetch(page)
    while rows:
        page += 1
        nxt = await fetch(page)
        if not nxt:
            return
        for r in rows:
            yield r
        rows = nxt
'''
PAGES_T = '''
import asyncio
def test_tests_async_fetch_paged_by_code():
    calls = []
    data = {0: ['a', 'b'], 1: ['c'], 2: []}
    async def fetch(page):
        calls.append(page)
        await asyncio.sleep(0)
        return data[page]
    async def main():
        return [r async for r in paginate(fetch)]
    assert asyncio.run(main()) == ['a', 'b', 'c']
    assert calls == [0, 1, 2]
'''
C("q4_async_code_agen_calls_tests_fetch_ok", PAGES, PAGES_T)
C("q4_async_code_agen_calls_tests_fetch_bad_drops_last", PAGES_BAD, PAGES_T)

CONN = '''
class Conn:
    opened = 0
    def __init__(self, rows):
        self._rows = rows
        self.closed = False
    async def __aenter__(self):
        Conn.opened += 1
        return self
    async def __aexit__(self, *exc):
        self.closed = True
        Conn.opened -= 1
        return False
    def rows(self):
        return RowIter(self._rows)
class RowIter:
    def __init__(self, rows):
        self.it = iter(rows)
    def __aiter__(self):
        return self
    async def __anext__(self):
        try:
            return next(self.it)
        except StopIteration:
            raise StopAsyncIteration
'''
CONN_BAD = CONN.replace("    async def __aexit__(self, *exc):\n        self.closed = True\n        Conn.opened -= 1\n        return False", "    async def __aexit__(self, *exc):\n        self.closed = True\n        return False")
CONN_T = '''
import asyncio, pytest
def test_async_with_and_for_over_code_objects():
    async def main():
        async with Conn([1, 2, 3]) as c:
            assert Conn.opened == 1
            got = [r async for r in c.rows()]
        return got, c.closed
    assert asyncio.run(main()) == ([1, 2, 3], True)
    assert Conn.opened == 0
def test_closed_on_error():
    async def main():
        async with Conn([]) as c:
            raise KeyError('x')
    with pytest.raises(KeyError):
        asyncio.run(main())
    assert Conn.opened == 0
'''
C("q4_async_code_cm_and_aiter_ok", CONN, CONN_T)
C("q4_async_code_cm_and_aiter_bad_counter", CONN_BAD, CONN_T)

# ------------------------------------------------------------------ environ and cwd
CONFENV = '''
import os
def configure(mode):
    os.environ['APP_MODE'] = mode
    return os.environ['APP_MODE']
def mode():
    return os.getenv('APP_MODE', 'dev')
'''
CONFENV_BAD = '''
import os
def configure(mode):
    os.environ.setdefault('APP_MODE', mode)
    return os.environ['APP_MODE']
def mode():
    return os.getenv('APP_MODE', 'dev')
'''
CONFENV_T = '''
import os
def test_code_sets_environ_seen_by_tests(monkeypatch):
    monkeypatch.setenv('APP_MODE', 'prod')
    assert configure('test') == 'test'
    assert os.environ['APP_MODE'] == 'test'
def test_tests_direct_assignment_seen_by_code(monkeypatch):
    monkeypatch.delenv('APP_MODE', raising=False)
    assert mode() == 'dev'
    os.environ['APP_MODE'] = 'stage'
    try:
        assert mode() == 'stage'
    finally:
        del os.environ['APP_MODE']
    assert mode() == 'dev'
'''
C("q4_environ_written_by_code_and_tests_ok", CONFENV, CONFENV_T)
C("q4_environ_written_by_code_and_tests_bad_setdefault", CONFENV_BAD, CONFENV_T)

FILES = '''
import os, glob
from pathlib import Path
def save(name, lines):
    os.makedirs('out', exist_ok=True)
    Path('out', name).write_text('\\n'.join(lines) + '\\n')
def list_csv():
    return sorted(glob.glob('*.csv'))
def where():
    return str(Path.cwd())
'''
FILES_BAD = '''
import os, glob
from pathlib import Path
def save(name, lines):
    os.makedirs('out', exist_ok=True)
    Path('out', name).write_text('\\n'.join(lines))
def list_csv():
    return sorted(os.listdir('.'))
def where():
    return os.getcwd()
'''
FILES_T = '''
import os
from pathlib import Path
def test_relative_files_follow_chdir(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / 'b.csv').write_text('x')
    (tmp_path / 'a.csv').write_text('y')
    (tmp_path / 'note.txt').write_text('z')
    assert list_csv() == ['a.csv', 'b.csv']
    save('r.txt', ['1', '2'])
    assert (tmp_path / 'out' / 'r.txt').read_text() == '1\\n2\\n'
    assert Path(where()) == tmp_path
    assert os.path.samefile(where(), os.getcwd())
'''
C("q4_cwd_relative_files_glob_ok", FILES, FILES_T)
C("q4_cwd_relative_files_glob_bad", FILES_BAD, FILES_T)

APPEND = '''
def log_line(path, line):
    with open(path, 'a', encoding='utf-8') as f:
        f.write(line + '\\n')
def read_lines(path):
    with open(path, encoding='utf-8') as f:
        return [l.rstrip('\\n') for l in f]
'''
APPEND_BAD = APPEND.replace("open(path, 'a'", "open(path, 'w'")
APPEND_T = '''
def test_appends_to_tests_path(tmp_path):
    p = tmp_path / 'log.txt'
    p.write_text('start\\n')
    log_line(p, 'one')
    log_line(str(p), 'two')
    assert p.read_text() == 'start\\none\\ntwo\\n'
    assert read_lines(p) == ['start', 'one', 'two']
'''
C("q4_path_from_tests_append_mode_ok", APPEND, APPEND_T)
C("q4_path_from_tests_append_mode_bad_overwrites", APPEND_BAD, APPEND_T)

# ------------------------------------------------------------------ Random instances handed over
DECK = '''
def deal(deck, rng, n):
    deck = list(deck)
    rng.shuffle(deck)
    return deck[:n]
def roll(rng, times):
    return [rng.randint(1, 6) for _ in range(times)]
'''
DECK_BAD = '''
import random
def deal(deck, rng, n):
    deck = list(deck)
    random.shuffle(deck)
    return deck[:n]
def roll(rng, times):
    return [rng.randint(1, 6) for _ in range(times)]
'''
DECK_T = '''
import random
def test_tests_rng_drives_code_and_continues():
    rng, ref = random.Random(42), random.Random(42)
    hand = deal(range(52), rng, 5)
    expected = list(range(52))
    ref.shuffle(expected)
    assert hand == expected[:5]
    assert rng.random() == ref.random()
    assert roll(rng, 3) == [ref.randint(1, 6) for _ in range(3)]
    assert rng.getstate() == ref.getstate()
'''
C("q4_random_instance_from_tests_ok", DECK, DECK_T)
C("q4_random_instance_from_tests_bad_global_shuffle", DECK_BAD, DECK_T)

DICE = '''
import random
class Dice:
    def __init__(self, seed=None):
        self.rng = random.Random(seed)
    def roll(self):
        return self.rng.randint(1, 6)
'''
DICE_BAD = '''
import random
class Dice:
    def __init__(self, seed=None):
        random.seed(seed)
        self.rng = random
    def roll(self):
        return self.rng.randint(1, 6)
'''
DICE_T = '''
import random
def test_state_round_trip_of_code_rng():
    d = Dice(7)
    state = d.rng.getstate()
    first = [d.roll() for _ in range(5)]
    d.rng.setstate(state)
    assert [d.roll() for _ in range(5)] == first
    ref = random.Random(7)
    assert first == [ref.randint(1, 6) for _ in range(5)]
def test_two_dice_independent():
    a, b = Dice(1), Dice(1)
    ra = [a.roll() for _ in range(3)]
    rb = [b.roll() for _ in range(3)]
    assert ra == rb
    assert isinstance(a.rng, random.Random)
'''
C("q4_random_instance_from_code_ok", DICE, DICE_T)
C("q4_random_instance_from_code_bad_global", DICE_BAD, DICE_T)

# ------------------------------------------------------------------ time and datetime patched
BACKOFF = '''
import time
def retry(fn, attempts=4, base=0.01):
    for i in range(attempts):
        try:
            return fn()
        except ConnectionError:
            if i == attempts - 1:
                raise
            time.sleep(base * 2 ** i)
'''
BACKOFF_BAD = '''
from time import sleep
def retry(fn, attempts=4, base=0.01):
    for i in range(attempts):
        try:
            return fn()
        except ConnectionError:
            if i == attempts - 1:
                raise
            sleep(base * 2 ** i)
'''
BACKOFF_T = '''
import time, pytest
def test_backoff_delays_recorded(monkeypatch):
    delays = []
    monkeypatch.setattr(time, 'sleep', delays.append)
    n = {'calls': 0}
    def fn():
        n['calls'] += 1
        if n['calls'] < 4:
            raise ConnectionError()
        return 'ok'
    assert retry(fn) == 'ok'
    assert delays == [0.01, 0.02, 0.04]
def test_gives_up(monkeypatch):
    monkeypatch.setattr(time, 'sleep', lambda s: None)
    def fn():
        raise ConnectionError('down')
    with pytest.raises(ConnectionError, match='down'):
        retry(fn, attempts=2)
'''
C("q4_time_sleep_patched_backoff_ok", BACKOFF, BACKOFF_T)
C("q4_time_sleep_patched_backoff_bad_bound_name", BACKOFF_BAD, BACKOFF_T)

TOKEN = '''
from datetime import datetime, timedelta, timezone
class Token:
    def __init__(self, ttl_seconds, now=None):
        self.created = now or datetime.now(timezone.utc)
        self.expires = self.created + timedelta(seconds=ttl_seconds)
    def expired(self, now=None):
        return (now or datetime.now(timezone.utc)) >= self.expires
    def remaining(self, now):
        return max(timedelta(0), self.expires - now)
'''
TOKEN_BAD = TOKEN.replace("return (now or datetime.now(timezone.utc)) >= self.expires", "return (now or datetime.now(timezone.utc)) > self.expires")
TOKEN_T = '''
from datetime import datetime, timedelta, timezone
T0 = datetime(2024, 3, 1, 12, 0, tzinfo=timezone.utc)
def test_injected_aware_times():
    t = Token(60, now=T0)
    assert not t.expired(T0 + timedelta(seconds=59))
    assert t.expired(T0 + timedelta(seconds=60))
    assert t.remaining(T0 + timedelta(seconds=20)) == timedelta(seconds=40)
    assert t.remaining(T0 + timedelta(hours=1)) == timedelta(0)
    assert t.expires.tzinfo is timezone.utc
def test_other_timezone_compares():
    t = Token(3600, now=T0)
    cet = timezone(timedelta(hours=1))
    assert t.expired(datetime(2024, 3, 1, 14, 0, tzinfo=cet))
'''
C("q4_datetime_injected_token_ok", TOKEN, TOKEN_T)
C("q4_datetime_injected_token_bad_strict", TOKEN_BAD, TOKEN_T)

STAMP = '''
from datetime import datetime
def stamp():
    return datetime.now().strftime('%Y-%m-%d %H:%M')
def greeting():
    h = datetime.now().hour
    return 'morning' if h < 12 else 'evening'
'''
STAMP_BAD = '''
from datetime import datetime
def stamp():
    return datetime.today().strftime('%Y-%m-%d %H:%M')
def greeting():
    h = datetime.now().hour
    return 'morning' if h < 12 else 'evening'
'''
STAMP_T = '''
import sys
from datetime import datetime as real_datetime
class Fixed(real_datetime):
    @classmethod
    def now(cls, tz=None):
        return cls(2001, 2, 3, 9, 30)
def test_module_datetime_replaced(monkeypatch):
    monkeypatch.setattr(sys.modules[__name__], 'datetime', Fixed)
    assert stamp() == '2001-02-03 09:30'
    assert greeting() == 'morning'
'''
C("q4_datetime_class_patched_in_module_ok", STAMP, STAMP_T)
C("q4_datetime_class_patched_in_module_bad_today", STAMP_BAD, STAMP_T)

# ------------------------------------------------------------------ other shared-object shapes
BUS = '''
class Bus:
    def __init__(self):
        self.subs = []
    def subscribe(self, fn):
        self.subs.append(fn)
    def unsubscribe(self, fn):
        self.subs.remove(fn)
    def publish(self, msg):
        for fn in list(self.subs):
            fn(msg)
'''
BUS_BAD = '''
class Bus:
    def __init__(self):
        self.subs = []
    def subscribe(self, fn):
        self.subs.append(fn)
    def unsubscribe(self, fn):
        self.subs = [s for s in self.subs if s is not fn]
    def publish(self, msg):
        for fn in list(self.subs):
            fn(msg)
'''
BUS_T = '''
class Listener:
    def __init__(self):
        self.got = []
    def on(self, msg):
        self.got.append(msg)
def test_unsubscribe_bound_method_by_equality():
    bus, l = Bus(), Listener()
    bus.subscribe(l.on)
    bus.publish('a')
    bus.unsubscribe(l.on)
    bus.publish('b')
    assert l.got == ['a']
    assert bus.subs == []
'''
C("q4_bus_unsubscribe_tests_bound_method_ok", BUS, BUS_T)
C("q4_bus_unsubscribe_tests_bound_method_bad_identity", BUS_BAD, BUS_T)

TAG = '''
class Tag(str):
    def __new__(cls, text):
        return super().__new__(cls, text.strip().lower())
    @property
    def slug(self):
        return self.replace(' ', '-')
'''
TAG_BAD = '''
class Tag(str):
    def __init__(self, text):
        self.text = text.strip().lower()
    @property
    def slug(self):
        return self.replace(' ', '-')
'''
TAG_T = '''
import json
def test_code_str_subclass_as_plain_str():
    t = Tag('  Hello World ')
    assert t == 'hello world'
    assert isinstance(t, str) and t.slug == 'hello-world'
    assert {'hello world': 1}[t] == 1
    assert json.dumps([t]) == '["hello world"]'
    assert t.upper() == 'HELLO WORLD' and type(t.upper()) is str
    assert sorted([Tag('b'), 'a', Tag('C')]) == ['a', 'b', 'c']
'''
C("q4_code_str_subclass_normalises_ok", TAG, TAG_T)
C("q4_code_str_subclass_normalises_bad_init", TAG_BAD, TAG_T)

DEFS = '''
class Defaults(dict):
    def __missing__(self, key):
        return key.upper()
'''
DEFS_BAD = '''
class Defaults(dict):
    def __missing__(self, key):
        self[key] = key.upper()
        return self[key]
'''
DEFS_T = '''
def test_missing_does_not_store():
    d = Defaults(a='x')
    assert d['a'] == 'x' and d['b'] == 'B'
    assert 'b' not in d and d.get('b') is None
    assert len(d) == 1
    d['c'] = 1
    assert dict(d) == {'a': 'x', 'c': 1}
'''
C("q4_dict_subclass_missing_ok", DEFS, DEFS_T)
C("q4_dict_subclass_missing_bad_stores", DEFS_BAD, DEFS_T)

SLOTP = '''
class P:
    __slots__ = ('x', 'y')
    def __init__(self, x, y):
        self.x, self.y = x, y
'''
SLOTP_BAD = '''
class P:
    def __init__(self, x, y):
        self.x, self.y = x, y
'''
SLOTP_T = '''
import pytest
def test_no_new_attributes():
    p = P(1, 2)
    p.x = 5
    assert (p.x, p.y) == (5, 2)
    with pytest.raises(AttributeError):
        p.z = 3
    assert not hasattr(p, '__dict__')
'''
C("q4_slots_reject_new_attrs_ok", SLOTP, SLOTP_T)
C("q4_slots_reject_new_attrs_bad_no_slots", SLOTP_BAD, SLOTP_T)

LOGGED = '''
class Logged:
    def __init__(self, target):
        self._target = target
        self.accessed = []
    def __getattr__(self, name):
        self.accessed.append(name)
        return getattr(self._target, name)
'''
LOGGED_BAD = '''
class Logged:
    def __init__(self, target):
        self._target = target
        self.accessed = []
    def __getattr__(self, name):
        value = getattr(self._target, name)
        if not callable(value):
            self.accessed.append(name)
        return value
'''
LOGGED_T = '''
import pytest
class Service:
    version = 2
    def ping(self, x):
        return f'pong {x}'
def test_delegates_to_tests_object():
    s = Service()
    w = Logged(s)
    assert w.ping(1) == 'pong 1'
    assert w.version == 2
    assert w.accessed == ['ping', 'version']
    with pytest.raises(AttributeError):
        w.missing
    assert w.accessed[-1] == 'missing'
'''
C("q4_getattr_delegates_to_tests_object_ok", LOGGED, LOGGED_T)
C("q4_getattr_delegates_to_tests_object_bad_skips_methods", LOGGED_BAD, LOGGED_T)

PLAINQ = '''
from collections import deque, Counter
RECENT = deque(maxlen=2)
SEEN = Counter()
def visit(page):
    RECENT.append(page)
    SEEN[page] += 1
    return len(RECENT)
'''
PLAINQ_BAD = PLAINQ.replace("deque(maxlen=2)", "deque()")
PLAINQ_T = '''
visit('a'); visit('b'); visit('a'); visit('c')
assert list(RECENT) == ['a', 'c']
assert SEEN.most_common(1) == [('a', 2)]
RECENT.clear()
SEEN.clear()
assert visit('z') == 1
assert SEEN == {'z': 1}
'''
C("q4_plain_module_deque_counter_ok", PLAINQ, PLAINQ_T)
C("q4_plain_module_deque_counter_bad_no_maxlen", PLAINQ_BAD, PLAINQ_T)


# ================================================================== minimised differences (q4_min_...)
# FORGED PASS: == of a code object with a tests' object never asks the code: NotImplemented, so the tests' own
# __eq__ answers (reflected), where one process takes the code's False.
C("q4_min_eq_code_false_tests_yes_bad", '''
class Money:
    def __init__(self, cents):
        self.cents = cents
    def __eq__(self, other):
        if not isinstance(other, Money):
            return False
        return self.cents == other.cents
''', '''
class Amount:
    def __init__(self, cents):
        self.cents = cents
    def __eq__(self, other):
        return getattr(other, 'cents', None) == self.cents
def test_code_eq_says_no():
    assert Money(5) == Amount(5)
''')
C("q4_min_eq_code_false_mock_any_bad", '''
class Point:
    def __init__(self, x):
        self.x = x
    def __eq__(self, other):
        return isinstance(other, Point) and self.x == other.x
''', '''
from unittest import mock
def test_compared_with_any():
    assert Point(1) == mock.ANY
''')
# FALSE FAIL (documented design "proxies never equal the tests' data", but silent, where `<` is unsupported)
C("q4_min_eq_code_obj_with_tests_str", '''
class Version:
    def __init__(self, text):
        self.text = text
    def __eq__(self, other):
        return self.text == (other.text if isinstance(other, Version) else other)
    __hash__ = None
''', '''
def test_eq_str():
    assert Version('1.2') == '1.2'
''')

# FORGED PASS: a descriptor of the code's set on a tests' class is no descriptor there (its proxy has no __get__ or
# __set__): the value lands in the instance's __dict__.
C("q4_min_desc_code_descriptor_shared_value_bad", '''
class Field:
    def __get__(self, obj, objtype=None):
        return self if obj is None else self.value
    def __set__(self, obj, value):
        self.value = value
''', '''
class Item:
    price = Field()
def test_per_instance():
    a, b = Item(), Item()
    a.price = 3
    b.price = 10
    assert a.price == 3
''')
# FALSE FAIL: the same, a validating descriptor (and __set_name__) never runs
C("q4_min_desc_code_descriptor_validates", '''
class Positive:
    def __set_name__(self, owner, name):
        self.name = '_' + name
    def __get__(self, obj, objtype=None):
        return self if obj is None else getattr(obj, self.name)
    def __set__(self, obj, value):
        if value <= 0:
            raise ValueError('must be positive')
        setattr(obj, self.name, value)
''', '''
import pytest
class Item:
    qty = Positive()
def test_rejects():
    with pytest.raises(ValueError):
        Item().qty = -1
''')
# FALSE FAIL: a descriptor (or property) of the tests' set on the code's class is no descriptor in the code's process
C("q4_min_desc_tests_property_on_code_class", '''
class Sensor:
    scale = 1.0
    def reading(self):
        return 2 * self.scale
''', '''
def test_patched_property(monkeypatch):
    monkeypatch.setattr(Sensor, 'scale', property(lambda self: 3.0))
    assert Sensor().reading() == 6.0
''')
# FORGED PASS (a wrong test): a function of the code's set as a class attribute of the tests' class is not bound as
# a method (one process passes self, TypeError); FALSE FAIL for the right use of the same
C("q4_min_code_function_as_tests_class_attribute_bad", '''
def double(x):
    return 2 * x
''', '''
import unittest
class TestDouble(unittest.TestCase):
    fn = double
    def test_double(self):
        self.assertEqual(self.fn(3), 6)
''')
C("q4_min_code_function_as_tests_method", '''
def describe(self):
    return f'{type(self).__name__} {self.name}'
''', '''
class Pet:
    describe = describe
    def __init__(self, name):
        self.name = name
def test_method():
    assert Pet('rex').describe() == 'Pet rex'
''')

# FORGED PASS: what the code writes to os.environ never reaches the tests' os.environ
C("q4_min_environ_code_overrides_bad", '''
import os
def apply_defaults():
    os.environ['APP_MODE'] = 'dev'
''', '''
import os
def test_keeps_existing(monkeypatch):
    monkeypatch.setenv('APP_MODE', 'prod')
    apply_defaults()
    assert os.environ['APP_MODE'] == 'prod'
''')
C("q4_min_environ_code_write_seen_by_tests", '''
import os
def configure():
    os.environ['APP_MODE'] = 'test'
''', '''
import os
def test_seen(monkeypatch):
    monkeypatch.delenv('APP_MODE', raising=False)
    configure()
    assert os.environ.get('APP_MODE') == 'test'
    monkeypatch.delenv('APP_MODE')
''')

# FORGED PASS: the code's redirect_stdout does not take what a tests' callable prints
C("q4_min_redirect_code_swallows_tests_print_bad", '''
import io
from contextlib import redirect_stdout
def run(fn):
    with redirect_stdout(io.StringIO()):
        return fn()
''', '''
def test_output_kept(capsys):
    assert run(lambda: print('hi') or 5) == 5
    assert capsys.readouterr().out == 'hi\\n'
''')
C("q4_min_redirect_code_captures_tests_print", '''
import io
from contextlib import redirect_stdout
def quiet(fn):
    buf = io.StringIO()
    with redirect_stdout(buf):
        fn()
    return buf.getvalue()
''', '''
def test_captured(capsys):
    assert quiet(lambda: print('hi')) == 'hi\\n'
    assert capsys.readouterr().out == ''
''')

# FORGED PASS: a Counter the code keeps reaches the tests as a live view whose data is read as Counter(pairs):
# keys are (key, count) pairs, every value 1
C("q4_min_counter_live_view_values_bad", '''
from collections import Counter
class Tracker:
    def __init__(self):
        self.hits = Counter()
    def record(self, session, user):
        self.hits[user] += 1
''', '''
def test_each_user_once_per_session():
    t = Tracker()
    t.record(1, 'a')
    t.record(1, 'a')
    t.record(1, 'b')
    assert set(t.hits.values()) == {1}
''')
C("q4_min_counter_live_view_eq_dict", '''
from collections import Counter
SEEN = Counter()
def visit(page):
    SEEN[page] += 1
''', '''
def test_eq():
    visit('z')
    assert SEEN == {'z': 1}
''')
C("q4_min_counter_live_view_keys", '''
from collections import Counter
class Stats:
    def __init__(self):
        self.words = Counter('abca')
''', '''
def test_keys():
    assert sorted(Stats().words) == ['a', 'b', 'c']
''')
C("q4_min_counter_subclass_eq_counter", '''
from collections import Counter
class Tally(Counter):
    pass
def tally(s):
    return Tally(s)
''', '''
from collections import Counter
def test_eq():
    assert tally('aab') == Counter(a=2, b=1)
''')
# FALSE FAIL: copy.copy of a deque the code keeps loses its maxlen
C("q4_min_deque_live_view_copy_maxlen", '''
from collections import deque
class History:
    def __init__(self):
        self.items = deque([1, 2], maxlen=3)
''', '''
import copy
def test_copy_keeps_maxlen():
    assert copy.copy(History().items).maxlen == 3
''')

# FALSE FAIL: the code's ContextVar lives in the code's process: a tests' Context or task does not scope it
C("q4_min_contextvar_copy_context_run", '''
import contextvars
USER = contextvars.ContextVar('user', default=None)
def set_user(name):
    USER.set(name)
def current_user():
    return USER.get()
''', '''
import contextvars
def test_isolated():
    contextvars.copy_context().run(set_user, 'bob')
    assert current_user() is None
''')
C("q4_min_contextvar_asyncio_tasks", '''
import contextvars
USER = contextvars.ContextVar('user', default=None)
def set_user(name):
    USER.set(name)
def current_user():
    return USER.get()
''', '''
import asyncio
async def worker(n):
    set_user(n)
    await asyncio.sleep(0)
    return current_user()
def test_tasks():
    async def main():
        return await asyncio.gather(worker(1), worker(2))
    assert asyncio.run(main()) == [1, 2]
''')

# FALSE FAIL: identity of classes and standard functions of the code's
C("q4_min_metaclass_type_is_code_metaclass", '''
class Meta(type):
    pass
class Config(metaclass=Meta):
    pass
''', '''
def test_type():
    assert type(Config) is Meta
''')
C("q4_min_partial_func_is_operator_mul", '''
import operator
from functools import partial
def make():
    return partial(operator.mul, 3)
''', '''
import operator
def test_func():
    assert make().func is operator.mul
''')
C("q4_min_random_instance_isinstance", '''
import random
def make_rng():
    return random.Random(1)
''', '''
import random
def test_isinstance():
    assert isinstance(make_rng(), random.Random)
''')
# FALSE FAIL (known family: a mirror holds methods, not other class attributes)
C("q4_min_typeddict_required_keys", '''
from typing import TypedDict
class Movie(TypedDict):
    title: str
''', '''
def test_keys():
    assert Movie.__required_keys__ == frozenset({'title'})
''')
# FALSE FAIL (known family: a tests' class built on the code's; a chain of two loses the first's namespace order)
C("q4_min_metaclass_fields_tests_subclass_chain", '''
class Meta(type):
    def __new__(mcls, name, bases, ns):
        cls = super().__new__(mcls, name, bases, ns)
        own = [k for k in ns if not k.startswith('_')]
        cls.fields = [f for b in bases for f in getattr(b, 'fields', [])] + own
        return cls
class Model(metaclass=Meta):
    pass
''', '''
class User(Model):
    name = 1
class Admin(User):
    level = 2
def test_fields():
    assert Admin.fields == ['name', 'level']
''')
# FALSE FAIL as a TIMEOUT (known root: a code coroutine runs to its end in one step; here it awaits what only a
# tests' task or callback provides, so the run deadlocks until the 10 s limit)
C("q4_min_async_code_awaits_tests_queue_fed_by_task", '''
async def first(q):
    return await q.get()
''', '''
import asyncio
def test_fed_later():
    async def main():
        q = asyncio.Queue()
        asyncio.get_running_loop().call_later(0.01, q.put_nowait, 7)
        return await first(q)
    assert asyncio.run(main()) == 7
''')
# CRASH in /work/main's working tree (uncommitted releasing.py change), agrees at HEAD 6a4ac13: the code calling back
# an object of the tests' that came inside a list ends the run
C("q4_min_code_calls_tests_callable_in_list", '''
def call_first(items):
    return items[0]()
''', '''
def test_call():
    assert call_first([lambda: 5]) == 5
''')
C("q4_min_counter_live_view_json", '''
from collections import Counter
class Stats:
    def __init__(self):
        self.words = Counter('aab')
''', '''
import json
def test_json():
    assert json.dumps(Stats().words) == '{"a": 2, "b": 1}'
''')
C("q4_min_counter_live_view_copy", '''
from collections import Counter
class Stats:
    def __init__(self):
        self.words = Counter('aab')
''', '''
import copy
from collections import Counter
def test_copy():
    assert copy.copy(Stats().words) == Counter(a=2, b=1)
''')
# FALSE FAIL: copy.copy of a defaultdict the code keeps loses its default_factory
C("q4_min_defaultdict_live_view_copy_factory", '''
from collections import defaultdict
class Index:
    def __init__(self):
        self.by_key = defaultdict(list, {'k': [1]})
''', '''
import copy
def test_copy_keeps_factory():
    c = copy.copy(Index().by_key)
    assert c['new'] == []
''')
# FALSE FAIL: the code's changes to sys.argv, sys.path and a logger's level do not reach the tests' process
C("q4_min_code_sets_sys_argv", '''
import sys
def set_argv():
    sys.argv[:] = ['prog', '--x']
''', '''
import sys
def test_argv():
    old = sys.argv[:]
    set_argv()
    try:
        assert sys.argv == ['prog', '--x']
    finally:
        sys.argv[:] = old
''')
C("q4_min_code_sets_logger_level", '''
import logging
def quiet():
    logging.getLogger('app').setLevel(logging.ERROR)
''', '''
import logging
def test_level():
    quiet()
    assert logging.getLogger('app').level == logging.ERROR
    logging.getLogger('app').setLevel(logging.NOTSET)
''')
# FALSE FAIL (whole file fails to load): a class decorator of the code's that sets __repr__ on the tests' class is
# refused ("the code under test may not change '__repr__' of an object of the tests"), not reported unsupported
C("q4_min_code_class_decorator_sets_repr", '''
def add_repr(cls):
    cls.__repr__ = lambda self: f'<{cls.__name__}>'
    return cls
''', '''
@add_repr
class P:
    pass
def test_repr():
    assert repr(P()) == '<P>'
def test_unrelated():
    assert 1 + 1 == 2
''')
# FALSE FAIL: a class decorator of the code's that adds a method to the tests' class: the method is not bound
C("q4_min_code_class_decorator_adds_method", '''
def add_hello(cls):
    def hello(self):
        return 'hi ' + self.name
    cls.hello = hello
    return cls
''', '''
@add_hello
class Q:
    name = 'q'
def test_method():
    assert Q().hello() == 'hi q'
''')


# The review of session 23's lifetimes work (a helper): the code holding the tests' objects weakly, returned,
# moved, looked up, held by another thread's call, and a collection starting at an awkward moment.
_REVIEW = [
    ('r23_deco_weak_letsgo',
     'import weakref\n_subs = weakref.WeakSet()\ndef subscribe(fn):\n    _subs.add(fn)\n    return fn\ndef count():\n    return len(_subs)\n',
     'import gc\nclass L:\n    def __call__(self, v): pass\n\ndef test_registry_lets_go():\n    a = L()\n    subscribe(a)\n    del a\n    gc.collect()\n    assert count() == 0\n'),
    ('r23_deco_weak_keeps_WRONG',
     'import weakref\n_subs = weakref.WeakSet()\ndef subscribe(fn):\n    _subs.add(fn)\n    return fn\ndef count():\n    return len(_subs)\n',
     'import gc\nclass L:\n    def __call__(self, v): pass\n\ndef test_registry_keeps():\n    a = L()\n    subscribe(a)\n    del a\n    gc.collect()\n    assert count() == 1\n'),
    ('r23_deco_strong_keeps',
     '_subs = []\ndef subscribe(fn):\n    _subs.append(fn)\n    return fn\ndef count():\n    return len(_subs)\n',
     'import gc\nclass L:\n    def __call__(self, v): pass\n\ndef test_registry_keeps():\n    a = L()\n    subscribe(a)\n    del a\n    gc.collect()\n    assert count() == 1\n'),
    ('r23_nokeep_keeps_WRONG',
     '_reg = []\ndef register(obj):\n    return obj.name   # forgets to keep it\ndef size():\n    return len(_reg)\n',
     "import gc, weakref\nclass Thing:\n    name = 't'\ndef test_registry_keeps_it_alive():\n    a = Thing()\n    w = weakref.ref(a)\n    register(a)\n    del a\n    gc.collect()\n    assert w() is not None\n"),
    ('r23_keep_keeps',
     '_reg = []\ndef register(obj):\n    _reg.append(obj)\n    return obj.name\ndef size():\n    return len(_reg)\n',
     "import gc, weakref\nclass Thing:\n    name = 't'\ndef test_registry_keeps_it_alive():\n    a = Thing()\n    w = weakref.ref(a)\n    register(a)\n    del a\n    gc.collect()\n    assert w() is not None\n"),
    ('r23_nokeep_noleak',
     '_reg = []\ndef register(obj):\n    return obj.name   # forgets to keep it\ndef size():\n    return len(_reg)\n',
     "import gc, weakref\nclass Thing:\n    name = 't'\ndef test_no_leak():\n    a = Thing()\n    w = weakref.ref(a)\n    register(a)\n    del a\n    gc.collect()\n    assert w() is None\n"),
    ('r23_nokeep_del_runs',
     '_reg = []\ndef register(obj):\n    return obj.name   # forgets to keep it\ndef size():\n    return len(_reg)\n',
     "import gc\nlog = []\nclass Thing:\n    name = 't'\n    def __del__(self):\n        log.append('del')\ndef test_del_runs():\n    a = Thing()\n    register(a)\n    del a\n    gc.collect()\n    assert log == ['del']\n"),
    ('r23_deco_weak_letsgo_nogc',
     'import weakref\n_subs = weakref.WeakSet()\ndef subscribe(fn):\n    _subs.add(fn)\n    return fn\ndef count():\n    return len(_subs)\n',
     'class L:\n    def __call__(self, v): pass\n\ndef test_registry_lets_go():\n    a = L()\n    subscribe(a)\n    del a\n    assert count() == 0\n'),
    ('r23_deco_weak_keeps_nogc_WRONG',
     'import weakref\n_subs = weakref.WeakSet()\ndef subscribe(fn):\n    _subs.add(fn)\n    return fn\ndef count():\n    return len(_subs)\n',
     'class L:\n    def __call__(self, v): pass\n\ndef test_registry_keeps():\n    a = L()\n    subscribe(a)\n    del a\n    assert count() == 1\n'),
    ('r23_deco_strong_keeps_nogc',
     '_subs = []\ndef subscribe(fn):\n    _subs.append(fn)\n    return fn\ndef count():\n    return len(_subs)\n',
     'class L:\n    def __call__(self, v): pass\n\ndef test_registry_keeps():\n    a = L()\n    subscribe(a)\n    del a\n    assert count() == 1\n'),
    ('r23_decorator_syntax_WRONG',
     'import weakref\n_subs = weakref.WeakSet()\ndef subscribe(fn):\n    _subs.add(fn)\n    return fn\ndef count():\n    return len(_subs)\n',
     'def test_handlers_kept_by_registry():\n    def make():\n        @subscribe\n        def handler(v):\n            return v\n    make()\n    assert count() == 1\n'),
    ('r23_decorator_syntax_right',
     '_subs = []\ndef subscribe(fn):\n    _subs.append(fn)\n    return fn\ndef count():\n    return len(_subs)\n',
     'def test_handlers_kept_by_registry():\n    def make():\n        @subscribe\n        def handler(v):\n            return v\n    make()\n    assert count() == 1\n'),
    ('r23_noret_letsgo_nogc',
     'import weakref\n_subs = weakref.WeakSet()\ndef subscribe(fn):\n    _subs.add(fn)\ndef count():\n    return len(_subs)\n',
     'class L:\n    def __call__(self, v): pass\n\ndef test_registry_lets_go():\n    a = L()\n    subscribe(a)\n    del a\n    assert count() == 0\n'),
    ('r23_noret_keeps_nogc_WRONG',
     'import weakref\n_subs = weakref.WeakSet()\ndef subscribe(fn):\n    _subs.add(fn)\ndef count():\n    return len(_subs)\n',
     'class L:\n    def __call__(self, v): pass\n\ndef test_registry_keeps():\n    a = L()\n    subscribe(a)\n    del a\n    assert count() == 1\n'),
    ('r23_tuple_ret_WRONG',
     'import weakref\n_subs = weakref.WeakSet()\ndef subscribe(fn):\n    _subs.add(fn)\n    return (fn, 1)\ndef count():\n    return len(_subs)\n',
     'class L:\n    def __call__(self, v): pass\n\ndef test_registry_keeps():\n    a = L()\n    subscribe(a)\n    del a\n    assert count() == 1\n'),
    ('r23_kept_dict_changed_size',
     'class Item:\n    def __init__(self, i):\n        self.i = i\ndef make(i):\n    return Item(i)\ndef add(a, b):\n    return a + b\n',
     'import gc, weakref\ndef test_many_weakly_referenced():\n    objs = [make(i) for i in range(5000)]\n    refs = [weakref.ref(o) for o in objs]\n    gc.collect()\n    total = 0\n    for k in range(50):\n        new = make(-k)\n        w = weakref.ref(new)\n        total += add(k, 1)\n    assert total == sum(range(1, 51))\n'),
    ('r23_watched_dict_changed_size',
     'class Item:\n    def __init__(self, i):\n        self.i = i\ndef make(i):\n    return Item(i)\n_keep = []\ndef keep(o):\n    _keep.append(o)\ndef add(a, b):\n    return a + b\n',
     'import gc, weakref\ndef test_many_watched():\n    objs = [make(i) for i in range(5000)]\n    for o in objs:\n        keep(o)                         # the code keeps them: watched, not gone\n    refs = [weakref.ref(o) for o in objs]\n    olds = [make(-i) for i in range(1, 200)]\n    del objs                            # 5000 watched\n    gc.collect()                        # olds are old now (and not kept: no weak reference yet)\n    orefs = [weakref.ref(o) for o in olds]\n    total = 0\n    for k in range(150):\n        holder = [olds.pop()]           # an old stand-in held only by a young cycle\n        holder.append(holder)\n        del holder\n        total += add(k, 1)\n    assert total == sum(range(1, 151))\n'),
    ('r23_touched_stolen_letsgo',
     "import time, weakref\n_subs = weakref.WeakSet()\ndef subscribe_slowly(fn):\n    _subs.add(fn)\n    time.sleep(0.3)          # another thread of the tests' calls meanwhile\ndef count():\n    return len(_subs)\ndef add(a, b):\n    return a + b\n",
     "import threading, time\nclass L:\n    def __call__(self, v):\n        pass\ndef test_other_thread_calls_meanwhile():\n    a = L()\n    ready = threading.Event()\n    def other():\n        add(0, 0)                 # its channel is open: the code's process serves it on a thread of its own\n        ready.set()\n        time.sleep(0.1)\n        add(1, 2)                 # answered while subscribe_slowly still runs\n    t = threading.Thread(target=other)\n    t.start()\n    ready.wait()\n    subscribe_slowly(a)\n    t.join()\n    del a\n    assert count() == 0\n"),
    ('r23_touched_stolen_keeps_WRONG',
     "import time, weakref\n_subs = weakref.WeakSet()\ndef subscribe_slowly(fn):\n    _subs.add(fn)\n    time.sleep(0.3)          # another thread of the tests' calls meanwhile\ndef count():\n    return len(_subs)\ndef add(a, b):\n    return a + b\n",
     "import threading, time\nclass L:\n    def __call__(self, v):\n        pass\ndef test_other_thread_calls_meanwhile():\n    a = L()\n    ready = threading.Event()\n    def other():\n        add(0, 0)                 # its channel is open: the code's process serves it on a thread of its own\n        ready.set()\n        time.sleep(0.1)\n        add(1, 2)                 # answered while subscribe_slowly still runs\n    t = threading.Thread(target=other)\n    t.start()\n    ready.wait()\n    subscribe_slowly(a)\n    t.join()\n    del a\n    assert count() == 1\n"),
    ('r23_wvd_lookup_then_del',
     'import weakref\n_reg = weakref.WeakValueDictionary()\ndef register(key, obj):\n    _reg[key] = obj\ndef lookup(key):\n    return _reg.get(key)\n',
     "class Thing:\n    pass\ndef test_lookup_after_del():\n    a = Thing()\n    register('a', a)\n    assert lookup('a') is a\n    del a\n    assert lookup('a') is None\n"),
    ('r23_wvd_lookup_then_del_keeps_WRONG',
     'import weakref\n_reg = weakref.WeakValueDictionary()\ndef register(key, obj):\n    _reg[key] = obj\ndef lookup(key):\n    return _reg.get(key)\n',
     "class Thing:\n    pass\ndef test_lookup_after_del():\n    a = Thing()\n    register('a', a)\n    assert lookup('a') is a\n    del a\n    assert lookup('a') is not None\n"),
    ('r23_strong_lookup_then_del_keeps',
     '_reg = {}\ndef register(key, obj):\n    _reg[key] = obj\ndef lookup(key):\n    return _reg.get(key)\n',
     "class Thing:\n    pass\ndef test_lookup_after_del():\n    a = Thing()\n    register('a', a)\n    assert lookup('a') is a\n    del a\n    assert lookup('a') is not None\n"),
    ('r23_moved_to_weak_later_nogc',
     'import weakref\nclass Hub:\n    def __init__(self):\n        self._pending = []\n        self._live = weakref.WeakSet()\n    def add(self, fn):\n        self._pending.append(fn)\n    def activate(self):\n        for fn in self._pending:\n            self._live.add(fn)\n        self._pending.clear()\n    def count(self):\n        return len(self._live)\n',
     'class L:\n    def __call__(self, v): pass\ndef test_activated_listeners_are_weak():\n    h = Hub()\n    a = L()\n    h.add(a)\n    h.activate()\n    assert h.count() == 1\n    del a\n    assert h.count() == 0\n'),
    ('r23_moved_to_weak_later_nogc_keeps_WRONG',
     'import weakref\nclass Hub:\n    def __init__(self):\n        self._pending = []\n        self._live = weakref.WeakSet()\n    def add(self, fn):\n        self._pending.append(fn)\n    def activate(self):\n        for fn in self._pending:\n            self._live.add(fn)\n        self._pending.clear()\n    def count(self):\n        return len(self._live)\n',
     'class L:\n    def __call__(self, v): pass\ndef test_activated_listeners_are_weak():\n    h = Hub()\n    a = L()\n    h.add(a)\n    h.activate()\n    assert h.count() == 1\n    del a\n    assert h.count() == 1\n'),
    ('r23_lru_weak_ok',
     'import weakref\nfrom collections import OrderedDict\nclass Cache:\n    def __init__(self, size):\n        self.size = size\n        self._strong = OrderedDict()\n        self._weak = weakref.WeakValueDictionary()\n    def put(self, key, value):\n        self._strong[key] = value\n        self._strong.move_to_end(key)\n        self._weak[key] = value\n        while len(self._strong) > self.size:\n            self._strong.popitem(last=False)\n    def get(self, key):\n        return self._weak.get(key)\n',
     "class Doc:\n    def __init__(self, n):\n        self.n = n\ndef test_two_most_recent_stay():\n    c = Cache(2)\n    c.put('a', Doc(1))\n    c.put('b', Doc(2))\n    assert c.get('a') is not None and c.get('a').n == 1\n    assert c.get('b').n == 2\ndef test_third_evicts_first():\n    c = Cache(2)\n    c.put('a', Doc(1))\n    c.put('b', Doc(2))\n    c.put('c', Doc(3))\n    assert c.get('a') is None\n"),
    ('r23_lru_weak_offbyone_WRONG',
     'import weakref\nfrom collections import OrderedDict\nclass Cache:\n    def __init__(self, size):\n        self.size = size\n        self._strong = OrderedDict()\n        self._weak = weakref.WeakValueDictionary()\n    def put(self, key, value):\n        self._strong[key] = value\n        self._strong.move_to_end(key)\n        self._weak[key] = value\n        while len(self._strong) >= self.size:\n            self._strong.popitem(last=False)\n    def get(self, key):\n        return self._weak.get(key)\n',
     "class Doc:\n    def __init__(self, n):\n        self.n = n\ndef test_two_most_recent_stay():\n    c = Cache(2)\n    c.put('a', Doc(1))\n    c.put('b', Doc(2))\n    assert c.get('a') is not None and c.get('a').n == 1\n    assert c.get('b').n == 2\ndef test_third_evicts_first():\n    c = Cache(2)\n    c.put('a', Doc(1))\n    c.put('b', Doc(2))\n    c.put('c', Doc(3))\n    assert c.get('a') is None\n"),
    ('r23_pop_last_strong_ref',
     'import weakref\n_weak = weakref.WeakSet()\n_strong = []\ndef sub(fn):\n    _weak.add(fn)\ndef pin():\n    _strong.extend(_weak)\ndef pop_it():\n    return _strong.pop()\n',
     "class L:\n    name = 'a'\ndef test_pop():\n    a = L()\n    sub(a)\n    pin()\n    del a\n    x = pop_it()\n    assert x.name == 'a'\n"),
    ('r23_unheld_with_payload_stopiteration',
     'import weakref\n_weak = weakref.WeakSet()\n_strong = []\ndef sub(fn):\n    _weak.add(fn)\ndef pin():\n    _strong.extend(_weak)\n\ndef drain():\n    yield 1\n    return _strong.pop()\n',
     "class L:\n    name = 'a'\ndef test_generator_returns_the_last_strong_ref():\n    a = L()\n    sub(a)\n    pin()\n    del a\n    g = drain()\n    next(g)\n    try:\n        next(g)\n    except StopIteration as e:\n        x = e.value\n    assert x.name == 'a'\n"),
    ('r23_unheld_with_payload_error',
     'import weakref\n_weak = weakref.WeakSet()\n_strong = []\ndef sub(fn):\n    _weak.add(fn)\ndef pin():\n    _strong.extend(_weak)\n\nclass Missing(LookupError):\n    pass\ndef fail():\n    raise Missing(_strong.pop())\n',
     "class L:\n    name = 'a'\ndef test_error_carries_the_last_strong_ref():\n    a = L()\n    sub(a)\n    pin()\n    del a\n    try:\n        fail()\n    except LookupError as e:\n        x = e.args[0]\n    assert x.name == 'a'\n"),
    ('r23_unheld_with_payload_mutated_arg',
     'import weakref\n_weak = weakref.WeakSet()\n_strong = []\ndef sub(fn):\n    _weak.add(fn)\ndef pin():\n    _strong.extend(_weak)\n\ndef move(out):\n    out.append(_strong.pop())\n',
     "class L:\n    name = 'a'\ndef test_moved_into_the_tests_list():\n    a = L()\n    sub(a)\n    pin()\n    del a\n    out = []\n    move(out)\n    assert out[0].name == 'a'\n"),
    ('r23_watched_with_payload_send',
     'import weakref\n_weak = weakref.WeakSet()\ndef echo():\n    x = yield\n    _weak.add(x)\n    return x\n',
     "class L:\n    name = 'a'\ndef test_sent_back_as_return_value():\n    g = echo()\n    next(g)\n    try:\n        g.send(L())\n    except StopIteration as e:\n        x = e.value\n    assert x.name == 'a'\n"),
]
CASES.extend(_REVIEW)
