"""The seventh differential run (session 26): what a class holds besides its methods, read by the tests or by the
standard library: ``__slots__``, ``__abstractmethods__`` and ``inspect.isabstract``, a TypedDict's keys, a property
object read off the class (its type, ``__doc__``, ``fget``), both ways. C(name, code, tests); wrong code (name ending
_bad) beside right; min_ cases are minimised differences."""
from textwrap import dedent as d

CASES = []


def C(name, code, tests):
    CASES.append((name, d(code).strip() + "\n", d(tests).strip() + "\n"))


# =============================================================== 1. abstract classes of the code's
SHAPES = '''
from abc import ABC, abstractmethod
class Shape(ABC):
    @abstractmethod
    def area(self): ...
    @abstractmethod
    def perimeter(self): ...
    def describe(self):
        return f"{type(self).__name__}: {self.area()}"
class Square(Shape):
    def __init__(self, s):
        self.s = s
    def area(self):
        return self.s * self.s
    def perimeter(self):
        return 4 * self.s
class Half(Shape):
    def area(self):
        return 0
'''
SHAPES_T = '''
import inspect, pytest
def test_abstract_names():
    assert Shape.__abstractmethods__ == frozenset({"area", "perimeter"})
    assert Half.__abstractmethods__ == frozenset({"perimeter"})
    assert Square.__abstractmethods__ == frozenset()
def test_isabstract():
    assert inspect.isabstract(Shape) and inspect.isabstract(Half)
    assert not inspect.isabstract(Square)
def test_refused_and_made():
    with pytest.raises(TypeError, match="perimeter"):
        Half()
    assert Square(2).describe() == "Square: 4"
'''
C("cd_abstract_ok", SHAPES, SHAPES_T)
C("cd_abstract_bad_concrete_half", SHAPES.replace("        return 0\n", "        return 0\n    def perimeter(self):\n        return 0\n"),
  SHAPES_T)
C("cd_abstract_bad_one_abstract", SHAPES.replace("    @abstractmethod\n    def perimeter(self): ...\n", "    def perimeter(self): ...\n"),
  SHAPES_T)

# the class made concrete after the tests read it: an object of it still comes back
C("cd_abstract_made_concrete_later", '''
from abc import ABC, abstractmethod
class Plugin(ABC):
    @abstractmethod
    def run(self): ...
def loosen():
    Plugin.__abstractmethods__ = frozenset()
    p = Plugin()
    return p
''', '''
def test_object_of_loosened_class():
    assert Plugin.__name__ == "Plugin"
    p = loosen()
    assert isinstance(p, Plugin)
    assert p.run() is None
''')

# a test's subclass of the code's abstract class
C("cd_abstract_tests_subclass", SHAPES, '''
import inspect, pytest
class Tri(Shape):
    def __init__(self, a):
        self.a = a
    def area(self):
        return self.a
    def perimeter(self):
        return 3 * self.a
class Partial(Shape):
    def area(self):
        return 1
def test_tests_subclass():
    t = Tri(5)
    assert t.describe() == "Tri: 5"
    assert isinstance(t, Shape)
    assert not inspect.isabstract(Tri)
def test_partial_refused():
    with pytest.raises(TypeError):
        Partial()
''')

# the tests' abstract class, read by the code
TESTS_ABC = '''
import inspect
def abstract_names(cls):
    return sorted(cls.__abstractmethods__)
def can_make(cls):
    return not inspect.isabstract(cls)
def make(cls):
    try:
        return cls()
    except TypeError:
        return None
'''
TESTS_ABC_T = '''
from abc import ABC, abstractmethod
class Base(ABC):
    @abstractmethod
    def go(self): ...
class Done(Base):
    def go(self):
        return 1
def test_code_reads_tests_abc():
    assert abstract_names(Base) == ["go"]
    assert abstract_names(Done) == []
    assert can_make(Done) and not can_make(Base)
def test_code_makes():
    assert make(Base) is None
    assert make(Done).go() == 1
'''
C("cd_tests_abc_ok", TESTS_ABC, TESTS_ABC_T)
C("cd_tests_abc_bad_inverted", TESTS_ABC.replace("return not inspect.isabstract(cls)", "return inspect.isabstract(cls)"),
  TESTS_ABC_T)

# =============================================================== 2. __slots__
SLOTS = '''
from dataclasses import dataclass
@dataclass(slots=True)
class Point:
    x: int
    y: int
class Pixel:
    __slots__ = ("x", "y", "color")
    def __init__(self, x, y, color):
        self.x, self.y, self.color = x, y, color
class Doc:
    __slots__ = {"name": "who it is", "age": None}
class One:
    __slots__ = "only"
class Plain:
    pass
class SubPixel(Pixel):
    pass
'''
SLOTS_T = '''
import pytest
def test_slots_as_written():
    assert Point.__slots__ == ("x", "y")
    assert Pixel.__slots__ == ("x", "y", "color")
    assert Doc.__slots__ == {"name": "who it is", "age": None}
    assert One.__slots__ == "only"
    assert SubPixel.__slots__ == ("x", "y", "color")
def test_slots_refuse_new_names():
    p = Pixel(1, 2, "red")
    with pytest.raises(AttributeError):
        p.size = 3
    assert not hasattr(p, "__dict__")
def test_slots_of_object():
    assert Point(1, 2).__slots__ == ("x", "y")
'''
C("cd_slots_ok", SLOTS, SLOTS_T)
C("cd_slots_bad_extra", SLOTS.replace('__slots__ = ("x", "y", "color")', '__slots__ = ("x", "y", "color", "z")'), SLOTS_T)
C("cd_slots_bad_plain_point", SLOTS.replace("@dataclass(slots=True)", "@dataclass"), SLOTS_T)

# the tests' slotted class, read by the code
C("cd_tests_slots_to_code", '''
def fields_of(obj):
    return list(type(obj).__slots__)
def has_dict(obj):
    return hasattr(obj, "__dict__")
''', '''
class P:
    __slots__ = ("a", "b")
    def __init__(self):
        self.a, self.b = 1, 2
class Q:
    def __init__(self):
        self.a = 1
def test_code_reads_slots():
    assert fields_of(P()) == ["a", "b"]
    assert not has_dict(P())
    assert has_dict(Q())
''')

# =============================================================== 3. TypedDict
TD = '''
from typing import TypedDict
class Movie(TypedDict):
    title: str
    year: int
class Draft(Movie, total=False):
    notes: str
def missing(d, schema=Movie):
    return sorted(schema.__required_keys__ - d.keys())
'''
TD_T = '''
def test_keys():
    assert Movie.__required_keys__ == frozenset({"title", "year"})
    assert Draft.__optional_keys__ == frozenset({"notes"})
    assert Draft.__total__ is False and Movie.__total__ is True
def test_missing():
    assert missing({"title": "x"}) == ["year"]
    assert missing({"title": "x", "year": 1}, Draft) == []
'''
C("cd_typeddict_ok", TD, TD_T)
C("cd_typeddict_bad_total", TD.replace("class Draft(Movie, total=False):", "class Draft(Movie):"), TD_T)

# =============================================================== 4. properties read off the class
PROP = '''
class Temperature:
    def __init__(self, celsius):
        self._c = celsius
    @property
    def celsius(self):
        "Degrees Celsius."
        return self._c
    @celsius.setter
    def celsius(self, value):
        if value < -273.15:
            raise ValueError("below absolute zero")
        self._c = value
    @property
    def fahrenheit(self):
        return self._c * 9 / 5 + 32
'''
PROP_T = '''
import pytest
def test_property_objects():
    assert isinstance(Temperature.celsius, property)
    assert Temperature.celsius.__doc__ == "Degrees Celsius."
    assert Temperature.fahrenheit.fset is None
    assert Temperature.celsius.fset is not None
def test_fget_reads():
    t = Temperature(100)
    assert Temperature.fahrenheit.fget(t) == 212
    assert Temperature.celsius.__get__(t) == 100
def test_setter_refuses():
    t = Temperature(0)
    with pytest.raises(ValueError):
        t.celsius = -300
    with pytest.raises(AttributeError):
        t.fahrenheit = 1
'''
C("cd_property_ok", PROP, PROP_T)
C("cd_property_bad_doc", PROP.replace('"Degrees Celsius."', '"Degrees."'), PROP_T)
C("cd_property_bad_writable", PROP + '''
    @fahrenheit.setter
    def fahrenheit(self, value):
        self._c = (value - 32) * 5 / 9
''', PROP_T)

# a test's class reusing the code's property's getter
C("cd_property_fget_in_tests_subclass", PROP, '''
class Kelvin(Temperature):
    @property
    def celsius(self):
        return Temperature.celsius.fget(self) - 0
    @property
    def kelvin(self):
        return self.celsius + 273.15
def test_subclass_reuses_getter():
    k = Kelvin(0)
    assert k.kelvin == 273.15
''')

# the tests' property, read by the code
C("cd_tests_property_to_code", '''
def readonly_names(cls):
    return sorted(n for n, v in vars(cls).items() if isinstance(v, property) and v.fset is None)
''', '''
class Account:
    def __init__(self):
        self._b = 0
    @property
    def balance(self):
        return self._b
    @property
    def owner(self):
        return "me"
    @owner.setter
    def owner(self, v):
        pass
def test_code_reads_properties():
    assert readonly_names(Account) == ["balance"]
''')

# class data the code changes after the tests first read its class
C("min_cd_slots_changed_after", '''
class Rec:
    __slots__ = ("a",)
def widen():
    Rec.__slots__ = ("a", "b")
''', '''
def test_changed():
    assert Rec.__slots__ == ("a",)
    widen()
    assert Rec.__slots__ == ("a", "b")
''')

# =============================================================== 5. isinstance and issubclass the class decides
HOOK = '''
from abc import ABC, abstractmethod
class HasArea(ABC):
    @classmethod
    def __subclasshook__(cls, C):
        if cls is HasArea:
            return callable(getattr(C, "area", None)) or NotImplemented
        return NotImplemented
class Meta(type):
    def __instancecheck__(cls, x):
        return isinstance(x, int) and x % 2 == 0
class Even(metaclass=Meta):
    pass
class Sink(ABC):
    pass
def accept(x):
    return isinstance(x, HasArea)
def adopt(cls):
    Sink.register(cls)
    return cls
'''
HOOK_T = '''
class Sq:
    def area(self):
        return 4
class Dot:
    pass
def test_hook_decides():
    assert isinstance(Sq(), HasArea) and issubclass(Sq, HasArea)
    assert not isinstance(Dot(), HasArea)
    assert accept(Sq()) and not accept(Dot())
def test_metaclass_decides():
    assert isinstance(4, Even) and not isinstance(3, Even)
    assert [isinstance(n, Even) for n in range(200)].count(True) == 100
def test_registered_by_code():
    adopt(Dot)
    assert isinstance(Dot(), Sink) and issubclass(Dot, Sink)
    assert not isinstance(Sq(), Sink)
'''
C("cd_checks_ok", HOOK, HOOK_T)
C("cd_checks_bad_hook", HOOK.replace('getattr(C, "area", None)', 'getattr(C, "areas", None)'), HOOK_T)
C("cd_checks_bad_meta", HOOK.replace("x % 2 == 0", "x % 2 == 1"), HOOK_T)
C("cd_checks_bad_register", HOOK.replace("    Sink.register(cls)\n", ""), HOOK_T)

# a metaclass's check that raises, and one of the tests' that the code asks
C("cd_checks_raises", '''
class Strict(type):
    def __instancecheck__(cls, x):
        raise TypeError("no checks against " + cls.__name__)
class Locked(metaclass=Strict):
    pass
''', '''
import pytest
def test_raises():
    with pytest.raises(TypeError, match="no checks against Locked"):
        isinstance(1, Locked)
''')
C("cd_checks_tests_protocol_to_code", '''
def closable(items, proto):
    return [isinstance(i, proto) for i in items]
class File:
    def close(self):
        pass
''', '''
from typing import Protocol, runtime_checkable
@runtime_checkable
class Closes(Protocol):
    def close(self): ...
class Door:
    def close(self):
        pass
def test_code_checks_with_tests_protocol():
    assert closable([Door(), 3, File()], Closes) == [True, False, True]
''')

# the standard library's own hooks read the class's __dict__ (collections.abc's _check_methods)
C("min_cd_hook_reads_dict", '''
from abc import ABC
class HasArea(ABC):
    @classmethod
    def __subclasshook__(cls, C):
        return any("area" in B.__dict__ for B in C.__mro__) or NotImplemented
''', '''
class Sq:
    def area(self):
        return 4
def test_hook():
    assert isinstance(Sq(), HasArea)
''')


# =============================================================== 6. the review of the first version (a helper)

# ---- the review's cases.py ----


SHAPE = '''
from abc import ABC, abstractmethod
class Shape(ABC):
    @abstractmethod
    def area(self): ...
class Square(Shape):
    def __init__(self, s):
        self.s = s
    def area(self):
        return self.s * self.s
class Blob:
    def area(self):
        return 0
def check(x):
    if not isinstance(x, Shape):
        raise TypeError("not a shape")
    return x.area()
'''

# ---------------------------------------------------------------- speed
C("speed_abc_2000", SHAPE, '''
import time
class Mine:
    pass
def test_many_checks():
    objs = [Square(1), Blob(), Mine(), 3, "s", [1], Square(2)]
    t = time.time()
    n = 0
    for i in range(2000):
        n += isinstance(objs[i % len(objs)], Shape)
    assert n == 2000 * 2 // 7 + (1 if 2000 % 7 > 0 else 0) + (1 if 2000 % 7 > 6 else 0)
def test_many_subclass_checks():
    n = sum(issubclass(c, Shape) for c in [Square, Blob, int, str, dict] * 400)
    assert n == 400
''')

C("speed_protocol_2000", '''
from typing import Protocol, runtime_checkable
@runtime_checkable
class Closer(Protocol):
    def close(self): ...
class File:
    def close(self):
        pass
''', '''
class Door:
    def close(self):
        pass
def test_many():
    objs = [File(), Door(), 1, "x", object()]
    assert sum(isinstance(objs[i % 5], Closer) for i in range(2000)) == 800
''')

# ---------------------------------------------------------------- Mock(spec=...) of an ABC
C("mock_spec_abc_isinstance_tests", SHAPE, '''
from unittest import mock
def test_mock_spec_is_instance():
    m = mock.Mock(spec=Square)
    assert isinstance(m, Square)
    assert isinstance(m, Shape)
def test_magicmock_spec():
    m = mock.MagicMock(spec=Shape)
    assert isinstance(m, Shape)
''')
C("mock_spec_abc_code_checks", SHAPE, '''
from unittest import mock
def test_code_accepts_spec_mock():
    m = mock.Mock(spec=Shape)
    m.area.return_value = 7
    assert check(m) == 7
''')
C("mock_spec_plain_class_code_checks", '''
class Shape:
    def area(self):
        return 1
def check(x):
    if not isinstance(x, Shape):
        raise TypeError("not a shape")
    return x.area()
''', '''
from unittest import mock
def test_code_accepts_spec_mock():
    m = mock.Mock(spec=Shape)
    m.area.return_value = 7
    assert isinstance(m, Shape)
    assert check(m) == 7
''')

# ---------------------------------------------------------------- harness calling isinstance/issubclass
ERRS = '''
from abc import ABC
class AppError(Exception, ABC):
    pass
class NotFound(AppError):
    pass
class Elsewhere(Exception):
    pass
AppError.register(KeyError)
def find(k):
    raise NotFound(k)
'''
ERRS_T = '''
import pytest, unittest
def test_raises_abc_error():
    with pytest.raises(AppError):
        find("a")
def test_raises_registered_error():
    with pytest.raises(AppError):
        {}["x"]
def test_raises_tuple():
    with pytest.raises((AppError, ValueError)) as info:
        find("b")
    assert isinstance(info.value, AppError)
def test_except_clause():
    try:
        find("c")
    except AppError as e:
        assert str(e) == "'c'" or str(e) == "c"
    else:
        assert False
def test_issubclass():
    assert issubclass(NotFound, AppError) and issubclass(KeyError, AppError)
    assert not issubclass(Elsewhere, AppError)
'''
C("harness_abc_exception_ok", ERRS, ERRS_T)
C("harness_abc_exception_bad", ERRS.replace("raise NotFound(k)", "raise Elsewhere(k)"), ERRS_T)

C("harness_unittest_abc", SHAPE, '''
import unittest
class T(unittest.TestCase):
    def test_is(self):
        self.assertIsInstance(Square(2), Shape)
        self.assertNotIsInstance(Blob(), Shape)
    def test_raises(self):
        with self.assertRaises(TypeError):
            check(Blob())
        self.assertEqual(check(Square(3)), 9)
''')

SD_T = '''
import functools
@functools.singledispatch
def name(x):
    return "other"
@name.register
def _(x: Shape):
    return "shape"
@name.register(int)
def _(x):
    return "int"
class Tri(Shape):
    def area(self):
        return 1
def test_dispatch():
    assert name(Square(1)) == "shape"
    assert name(Blob()) == "other"
    assert name(3) == "int"
    assert name(Tri()) == "shape"
    assert name("s") == "other"
'''
C("singledispatch_tests_on_code_abc_ok", SHAPE, SD_T)
C("singledispatch_tests_on_code_abc_bad", SHAPE.replace("class Square(Shape):", "class Square:"), SD_T)

C("singledispatch_code_on_tests_registered", SHAPE + '''
import functools
@functools.singledispatch
def kind(x):
    return "other"
@kind.register
def _(x: Shape):
    return "shape"
''', '''
class Circle:
    def area(self):
        return 3
def test_registered_from_tests():
    Shape.register(Circle)
    assert kind(Circle()) == "shape"
    assert kind(Square(1)) == "shape"
    assert kind(1) == "other"
''')

C("json_default_abc", SHAPE + '''
class Ser(ABC):
    pass
class Pt(Ser):
    def __init__(self):
        self.x = 1
''', '''
import json
def enc(o):
    if isinstance(o, Ser):
        return {"x": o.x}
    raise TypeError(type(o).__name__)
def test_json():
    assert json.dumps([Pt(), 1], default=enc) == '[{"x": 1}, 1]'
''')

C("copy_slotted_dataclass", '''
from dataclasses import dataclass
@dataclass(slots=True)
class Point:
    x: int
    y: int
class Pix:
    __slots__ = ("a", "b")
    def __init__(self, a, b):
        self.a, self.b = a, b
    def __eq__(self, o):
        return (self.a, self.b) == (o.a, o.b)
''', '''
import copy
def test_copy_point():
    p = Point(1, 2)
    q = copy.copy(p)
    assert q == p and q is not p
    r = copy.deepcopy(p)
    assert r == p
def test_copy_pix():
    p = Pix(1, 2)
    q = copy.copy(p)
    assert q.a == 1 and q.b == 2
''')

# ---------------------------------------------------------------- __slots__ where the class has none
NOSLOTS = '''
class Vector:
    def __init__(self, x, y):
        self.x, self.y = x, y
def uses_slots(cls):
    return hasattr(cls, "__slots__")
'''
NOSLOTS_T = '''
def test_vector_uses_slots():
    assert hasattr(Vector, "__slots__")
'''
C("slots_hasattr_required_bad", NOSLOTS, NOSLOTS_T)
C("slots_hasattr_required_ok", NOSLOTS.replace("class Vector:\n", "class Vector:\n    __slots__ = ('x', 'y')\n"), NOSLOTS_T)
C("slots_absent_plain", NOSLOTS, '''
def test_no_slots():
    assert not hasattr(Vector, "__slots__")
    assert getattr(Vector(1, 2), "__slots__", None) is None
''')
C("slots_tests_class_to_code", NOSLOTS, '''
class Plain:
    pass
class Slotted:
    __slots__ = ()
def test_code_sees():
    assert uses_slots(Slotted)
    assert not uses_slots(Plain)
''')
C("slots_enum_exception_absent", '''
import enum
class Color(enum.IntEnum):
    RED = 1
class Oops(Exception):
    pass
''', '''
def test_none():
    assert not hasattr(Color, "__slots__")
    assert not hasattr(Oops, "__slots__")
''')

# ---------------------------------------------------------------- odd class data
C("slots_many", '''
class Wide:
    __slots__ = tuple(f"s{i}" for i in range(1001))
''', '''
def test_wide():
    assert len(Wide.__slots__) == 1001
''')
C("slots_str_subclass_eq", '''
class S(str):
    def __eq__(self, o):
        return True
    __hash__ = str.__hash__
class K:
    __slots__ = (S("a"),)
''', '''
def test_slots():
    assert K.__slots__ == ("zzz",)
''')
C("slots_dict_subclass", '''
class D(dict):
    pass
class K:
    __slots__ = D(a="doc a", b=None)
''', '''
def test_slots():
    assert "a" in K.__slots__ and K.__slots__["a"] == "doc a"
''')
C("slots_iterator", '''
class K:
    __slots__ = iter(("a", "b"))
''', '''
def test_slots():
    assert not isinstance(K.__slots__, tuple)
    assert list(K.__slots__) == []
''')
C("abstract_nonstr_names", '''
class K:
    pass
K.__abstractmethods__ = frozenset({1})
''', '''
import inspect, pytest
def test_abstract():
    assert inspect.isabstract(K)
    with pytest.raises(TypeError):
        K()
''')
C("abstract_nonstr_names_forge_bad", '''
class K:
    pass
K.__abstractmethods__ = frozenset({1})
''', '''
import inspect
def test_concrete():
    assert not inspect.isabstract(K)
''')
C("meta_getattr_anything", '''
class Lenient(type):
    def __getattr__(cls, name):
        return name.strip("_").lower()
class Config(metaclass=Lenient):
    pass
''', '''
import inspect
def test_config():
    assert Config.debug == "debug"
    assert not inspect.isabstract(Config)
    c = Config()
    assert isinstance(c, Config)
''')
C("meta_getattr_creates", '''
class Lazy(type):
    def __getattr__(cls, name):
        if name.startswith("__") and name != "__slots__":
            raise AttributeError(name)
        cls.made.append(name)
        return len(cls.made)
class Counter(metaclass=Lazy):
    made = []
''', '''
def test_counter():
    assert Counter.a == 1
    assert Counter.made == ["a"]
''')

# ---------------------------------------------------------------- tests' subclass of an ABC of the code's
PARTIAL_T = '''
import inspect
class Tri(Shape):
    def area(self):
        return 1
def test_tri_concrete():
    assert not inspect.isabstract(Tri)
'''
C("tests_subclass_isabstract_ok", SHAPE, PARTIAL_T)
C("tests_subclass_isabstract_bad", SHAPE.replace("    def area(self): ...\n", "    def area(self): ...\n    @abstractmethod\n    def perimeter(self): ...\n", 1), PARTIAL_T)
C("tests_subclass_abstractmethods", SHAPE, '''
class Half(Shape):
    pass
def test_half():
    assert Half.__abstractmethods__ == frozenset({"area"})
''')

# ---------------------------------------------------------------- isinstance with objects that cannot cross
C("isinstance_self_holding_tuple", SHAPE, '''
def test_cycle():
    kids = []
    t = ("root", kids)
    kids.append(t)
    assert not isinstance(t, Shape)
''')
C("isinstance_deep_list", SHAPE, '''
def test_deep():
    x = []
    for _ in range(5000):
        x = [x]
    assert not isinstance(x, Shape)
''')
C("isinstance_big_list_speed", SHAPE, '''
def test_big():
    big = list(range(300_000))
    assert not any(isinstance(big, Shape) for _ in range(100))
''')
C("isinstance_repr_side_effect", SHAPE, '''
calls = []
class Noisy:
    def __repr__(self):
        calls.append(1)
        return "Noisy"
def test_repr_not_called():
    n = Noisy()
    assert not isinstance(n, Shape)
    assert calls == []
''')
C("isinstance_repr_recurses", SHAPE, '''
class Odd:
    def __repr__(self):
        return f"Odd({isinstance(self, Shape)})"
def test_repr():
    assert repr(Odd()) == "Odd(False)"
    assert not isinstance(Odd(), Shape)
''')
C("isinstance_slow_repr", SHAPE, '''
import time
class Slow:
    def __repr__(self):
        time.sleep(0.02)
        return "Slow"
def test_many():
    s = Slow()
    assert sum(isinstance(s, Shape) for _ in range(600)) == 0
''')

# ---- the review's cases2.py ----


SHAPE = '''
from abc import ABC, abstractmethod
class Shape(ABC):
    @abstractmethod
    def area(self): ...
class Square(Shape):
    def __init__(self, s):
        self.s = s
    def area(self):
        return self.s * self.s
class Blob:
    def area(self):
        return 0
def check(x):
    if not isinstance(x, Shape):
        raise TypeError("not a shape")
    return x.area()
'''

# ---------------------------------------------------------------- threads, finalizers, gc
C("threads_isinstance", SHAPE, '''
from concurrent.futures import ThreadPoolExecutor
def test_threads():
    objs = [Square(1), 1, Blob(), "x"]
    with ThreadPoolExecutor(8) as ex:
        res = list(ex.map(lambda i: isinstance(objs[i % 4], Shape), range(800)))
    assert res == [i % 4 == 0 for i in range(800)]
''')
C("del_isinstance", SHAPE, '''
import gc
seen = []
class T:
    def __del__(self):
        seen.append(isinstance(self, Shape))
def test_del():
    t = T()
    del t
    assert seen == [False]
''')
C("gc_cycles_isinstance", SHAPE, '''
import gc
seen = []
class Cyc:
    def __init__(self):
        self.me = self
        self.pad = [object() for _ in range(20)]
    def __del__(self):
        seen.append(isinstance(self, Shape))
def test_gc():
    old = gc.get_threshold()
    gc.set_threshold(50, 1, 1)
    try:
        for i in range(300):
            Cyc()
            assert check(Square(2)) == 4
    finally:
        gc.set_threshold(*old)
    gc.collect()
    assert len(seen) == 300 and not any(seen)
''')
C("weakref_finalize_isinstance", SHAPE, '''
import weakref, gc
seen = []
class X:
    pass
def test_finalize():
    x = X()
    weakref.finalize(x, lambda: seen.append(isinstance(Square(1), Shape)))
    del x
    gc.collect()
    assert seen == [True]
''')

# ---------------------------------------------------------------- hostile metaclasses
C("meta_raises_value_error", '''
class M(type):
    def __instancecheck__(cls, x):
        raise ValueError("nope")
    def __subclasscheck__(cls, s):
        raise LookupError("nope")
class K(metaclass=M):
    pass
''', '''
import pytest
def test_raises():
    with pytest.raises(ValueError):
        isinstance(1, K)
    with pytest.raises(LookupError):
        issubclass(int, K)
''')
C("meta_returns_bad_bool", '''
class Bad:
    def __bool__(self):
        raise ZeroDivisionError("no truth")
class M(type):
    def __instancecheck__(cls, x):
        return Bad()
    def __subclasscheck__(cls, s):
        return "yes"
class K(metaclass=M):
    pass
''', '''
import pytest
def test_bad_bool():
    with pytest.raises(ZeroDivisionError):
        isinstance(1, K)
    assert issubclass(int, K) is True
''')
C("meta_system_exit", '''
class M(type):
    def __instancecheck__(cls, x):
        raise SystemExit(3)
class K(metaclass=M):
    pass
''', '''
import pytest
def test_exit():
    with pytest.raises(SystemExit):
        isinstance(1, K)
def test_after():
    assert 1 + 1 == 2
''')
C("meta_calls_back", '''
class M(type):
    def __instancecheck__(cls, x):
        return getattr(x, "kind", lambda: None)() == cls.__name__
class Duck(metaclass=M):
    pass
''', '''
class Mallard:
    def kind(self):
        return "Duck"
class Goose:
    def kind(self):
        return "Goose"
def test_callback():
    assert isinstance(Mallard(), Duck)
    assert not isinstance(Goose(), Duck)
    assert not isinstance(3, Duck)
''')
C("meta_cross_recursion", '''
PARTNER = []
def partner(c):
    PARTNER.append(c)
class M(type):
    def __instancecheck__(cls, x):
        return isinstance(x, PARTNER[0])
class K(metaclass=M):
    pass
''', '''
import pytest
class TM(type):
    def __instancecheck__(cls, x):
        return isinstance(x, K)
class TK(metaclass=TM):
    pass
def test_recursion():
    partner(TK)
    with pytest.raises(RecursionError):
        isinstance(1, K)
def test_after():
    assert 2 + 2 == 4
''')
C("meta_counts_checks", '''
from abc import ABCMeta
log = []
class Meta(ABCMeta):
    def __instancecheck__(cls, x):
        log.append("i " + cls.__name__)
        return super().__instancecheck__(x)
    def __subclasscheck__(cls, s):
        log.append("s " + cls.__name__)
        return super().__subclasscheck__(s)
class Base(metaclass=Meta):
    pass
class Impl(Base):
    pass
def calls():
    return list(log)
''', '''
import pytest
class Mine:
    pass
def test_counts():
    i = Impl()
    assert isinstance(i, Base)
    assert not isinstance(Mine(), Base)
    assert issubclass(Impl, Base)
    assert isinstance(i, Impl)
    print(calls())
    assert calls() == ['i Base', 's Base', 'i Base', 's Base', 's Impl', 's Base']
''')
C("isinstance_union", SHAPE, '''
def test_union():
    assert isinstance(Square(1), Shape | int)
    assert isinstance(3, (Shape, int))
    assert not isinstance("s", Shape | int)
''')

# ---------------------------------------------------------------- registered in a standard ABC, with own register
C("std_abc_subclass_with_register", '''
import numbers, collections.abc
class Scalar(numbers.Number):
    pass
Scalar.register(int)
class Record(collections.abc.Mapping):
    def __init__(self, d):
        self._d = dict(d)
    def __getitem__(self, k):
        return self._d[k]
    def __iter__(self):
        return iter(self._d)
    def __len__(self):
        return len(self._d)
Record.register(dict)
''', '''
def test_registered_by_code():
    assert isinstance(3, Scalar)
    assert not isinstance(2.5, Scalar)
    assert isinstance({"a": 1}, Record)
    assert issubclass(dict, Record)
''')

# ---------------------------------------------------------------- enums with ABC mixins, numbers
ENUM = '''
from abc import ABC, ABCMeta, abstractmethod
from enum import Enum, EnumMeta
class Describable(ABC):
    @abstractmethod
    def describe(self): ...
class ABCEnumMeta(ABCMeta, EnumMeta):
    pass
class Planet(Describable, Enum, metaclass=ABCEnumMeta):
    EARTH = 1
    MARS = 2
    def describe(self):
        return self.name.title()
'''
ENUM_T = '''
import enum, pytest
def test_members():
    assert isinstance(Planet.EARTH, Planet)
    assert isinstance(Planet.EARTH, Describable)
    assert isinstance(Planet.MARS, enum.Enum)
    assert issubclass(Planet, Describable)
    assert [p.describe() for p in Planet] == ["Earth", "Mars"]
    assert Planet(2) is Planet.MARS
@pytest.mark.parametrize("p", list(Planet))
def test_param(p):
    assert p.describe() in ("Earth", "Mars")
'''
C("enum_abc_mixin_ok", ENUM, ENUM_T)
C("enum_abc_mixin_bad", ENUM.replace("return self.name.title()", "return self.name"), ENUM_T)

C("numbers_real_subclass", '''
import numbers, math
class Meters(numbers.Real):
    def __init__(self, v):
        self.v = float(v)
    def __float__(self): return self.v
    def __trunc__(self): return math.trunc(self.v)
    def __floor__(self): return math.floor(self.v)
    def __ceil__(self): return math.ceil(self.v)
    def __round__(self, n=None): return round(self.v, n)
    def __floordiv__(self, o): return self.v // float(o)
    def __rfloordiv__(self, o): return float(o) // self.v
    def __mod__(self, o): return self.v % float(o)
    def __rmod__(self, o): return float(o) % self.v
    def __lt__(self, o): return self.v < float(o)
    def __le__(self, o): return self.v <= float(o)
    def __add__(self, o): return Meters(self.v + float(o))
    def __radd__(self, o): return Meters(float(o) + self.v)
    def __neg__(self): return Meters(-self.v)
    def __pos__(self): return self
    def __mul__(self, o): return Meters(self.v * float(o))
    def __rmul__(self, o): return Meters(float(o) * self.v)
    def __truediv__(self, o): return self.v / float(o)
    def __rtruediv__(self, o): return float(o) / self.v
    def __pow__(self, o): return self.v ** o
    def __rpow__(self, o): return o ** self.v
    def __abs__(self): return Meters(abs(self.v))
    def __eq__(self, o): return self.v == float(o)
    def __hash__(self): return hash(self.v)
''', '''
import numbers, math
def test_real():
    m = Meters(2.5)
    assert isinstance(m, numbers.Real) and isinstance(m, numbers.Number)
    assert not isinstance(m, numbers.Integral)
    assert isinstance(m, Meters)
    assert math.floor(m) == 2
    assert float(m + 1) == 3.5
''')

# ---------------------------------------------------------------- TypedDict
TD = '''
from typing import TypedDict, NotRequired
class Movie(TypedDict):
    title: str
    year: NotRequired[int]
def missing(d, schema=Movie):
    return sorted(schema.__required_keys__ - d.keys())
'''
C("typeddict_notrequired_hints", TD, '''
import typing, pytest
def test_keys():
    assert Movie.__required_keys__ == frozenset({"title"})
    assert Movie.__optional_keys__ == frozenset({"year"})
def test_hints():
    assert typing.get_type_hints(Movie) == {"title": str, "year": int}
def test_refuses_check():
    with pytest.raises(TypeError):
        isinstance({}, Movie)
def test_make():
    assert Movie(title="x") == {"title": "x"}
''')
C("typeddict_tests_to_code", TD, '''
from typing import TypedDict
class Book(TypedDict, total=False):
    isbn: str
class Paper(TypedDict):
    doi: str
def test_code_reads_tests_typeddict():
    assert missing({}, Book) == []
    assert missing({}, Paper) == ["doi"]
''')

# ---------------------------------------------------------------- Protocols
PROTO = '''
from typing import Protocol, runtime_checkable
@runtime_checkable
class Closer(Protocol):
    def close(self): ...
@runtime_checkable
class Named(Protocol):
    name: str
class Plain(Protocol):
    def go(self): ...
def use(c):
    if not isinstance(c, Closer):
        raise TypeError("cannot close")
    return c.close()
'''
C("protocol_tests_explicit_subclass", PROTO, '''
import pytest
class Door(Closer):
    def close(self):
        return "shut"
class Person:
    name = "ann"
def test_explicit():
    assert isinstance(Door(), Closer)
    assert use(Door()) == "shut"
def test_data_protocol():
    assert isinstance(Person(), Named)
    assert not isinstance(3, Named)
    with pytest.raises(TypeError):
        issubclass(Person, Named)
def test_plain_protocol_refuses():
    with pytest.raises(TypeError):
        isinstance(Door(), Plain)
''')

# ---------------------------------------------------------------- properties
PROP = '''
from abc import ABC, abstractmethod
class Base:
    def __init__(self):
        self._v = 1
    @property
    def v(self):
        "The v."
        return self._v
    @v.setter
    def v(self, x):
        self._v = x
class Shape(ABC):
    @property
    @abstractmethod
    def area(self): ...
'''
C("property_setter_override_in_tests", PROP, '''
class Sub(Base):
    @Base.v.setter
    def v(self, x):
        Base.v.fset(self, x * 2)
def test_override():
    s = Sub()
    s.v = 3
    assert s.v == 6
''')
C("property_type_identity", PROP, '''
def test_type():
    assert type(Base.v) is property
''')
C("property_members_and_name", PROP, '''
import inspect
def test_members():
    names = [n for n, o in inspect.getmembers(Base, lambda o: isinstance(o, property))]
    assert names == ["v"]
    assert Base.v.fget.__name__ == "v"
    assert Base.v.__get__(None, Base) is Base.v
''')
C("property_abstract_flag", PROP, '''
def test_abstract_prop():
    assert Shape.area.__isabstractmethod__ is True
    assert Base.v.__isabstractmethod__ is False
''')
C("property_huge_doc", '''
class Big:
    x = property(lambda self: 1, doc="d" * 30_000_000)
''', '''
def test_doc():
    for _ in range(3):
        assert len(Big.x.__doc__) == 30_000_000
''')
C("property_tests_installed_by_code", '''
class Holder:
    def __init__(self):
        self.n = 2
def install(name, prop):
    setattr(Holder, name, prop)
''', '''
def test_install():
    install("double", property(lambda self: self.n * 2))
    h = Holder()
    assert h.double == 4
''')

# ---------------------------------------------------------------- [0] + kept list
KEPT = '''
ITEMS = [{"n": 1}]
BUF = bytearray(b"ab")
def items():
    return ITEMS
def buf():
    return BUF
def total():
    return sum(d["n"] for d in ITEMS)
'''
C("radd_shared_items", KEPT, '''
def test_items_shared():
    r = [0] + items()
    r[1]["n"] = 5
    assert total() == 5
''')
C("radd_shared_items_forge_bad", KEPT, '''
def test_items_isolated():
    r = [0] + items()
    r[1]["n"] = 5
    assert total() == 1
''')
C("radd_kinds", KEPT, '''
import pytest
def test_kinds():
    assert [0] + items() == [0, {"n": 1}]
    assert sum([items(), items()], []) == [{"n": 1}, {"n": 1}]
    with pytest.raises(TypeError):
        (0,) + items()
    assert bytearray(b"x") + buf() == bytearray(b"xab")
    assert b"x" + buf() == b"xab"
    assert type(b"x" + buf()) is bytes
    with pytest.raises(TypeError):
        "x" + buf()
''')

# ---- the review's cases3.py ----


SHAPE = '''
from abc import ABC, abstractmethod
class Shape(ABC):
    @abstractmethod
    def area(self): ...
class Square(Shape):
    def __init__(self, s):
        self.s = s
    def area(self):
        return self.s * self.s
def check(x):
    if not isinstance(x, Shape):
        raise TypeError("not a shape")
    return x.area()
def call(f, *a):
    return f(*a)
def holds(x, cls):
    return isinstance(x, cls)
'''

# ---------------------------------------------------------------- property proxy and a test's subclass
PROP = '''
class Base:
    def __init__(self):
        self._v = 1
    @property
    def v(self):
        return self._v
    @v.setter
    def v(self, x):
        self._v = x
'''
C("min_property_setter_override", PROP, '''
class Sub(Base):
    @Base.v.setter
    def v(self, x):
        Base.v.fset(self, x * 2)
def test_override():
    s = Sub()
    s.v = 3
    assert s.v == 6
''')
C("min_property_of_base_after_subclass", PROP, '''
class Sub(Base):
    v = property(Base.v.fget)
def test_base_property_still():
    Sub()
    assert isinstance(Base.v, property)
    assert Base.v.fset is not None
''')
C("property_alias_readonly_bad", PROP, '''
import pytest
class ReadOnly(Base):
    v = property(Base.v.fget)
def test_readonly():
    r = ReadOnly()
    with pytest.raises(AttributeError):
        r.v = 5
''')

# ---------------------------------------------------------------- isinstance keeps the object alive
C("min_isinstance_keeps_object", SHAPE, '''
import weakref
class Mine:
    pass
def test_dies():
    m = Mine()
    r = weakref.ref(m)
    assert not isinstance(m, Shape)
    del m
    assert r() is None
''')
C("isinstance_del_timing", SHAPE, '''
seen = []
class Mine:
    def __del__(self):
        seen.append("gone")
def test_del_runs_at_once():
    m = Mine()
    isinstance(m, Shape)
    del m
    assert seen == ["gone"]
''')

# ---------------------------------------------------------------- speed with new objects, sets, callbacks
C("speed_new_objects_2000", SHAPE, '''
class Mine:
    pass
def test_many_new():
    assert sum(isinstance(Mine(), Shape) for _ in range(2000)) == 0
''')
C("isinstance_set_of_objects", SHAPE, '''
class Mine:
    pass
def test_set():
    s = {Mine() for _ in range(3000)}
    for _ in range(3):
        assert not isinstance(s, Shape)
''')
C("isinstance_in_callback", SHAPE, '''
def test_callback():
    assert call(lambda x: isinstance(x, Shape), Square(2)) is True
    assert call(lambda x: isinstance(x, Shape), 5) is False
''')
C("code_checks_tests_abc_registered_code_class", SHAPE, '''
from abc import ABC
class Drawable(ABC):
    pass
class Pen:
    pass
def test_code_checks():
    Drawable.register(Square)
    assert holds(Square(1), Drawable)
    assert not holds(5, Drawable)
    Drawable.register(Pen)
    assert holds(Pen(), Drawable)
''')

# ---------------------------------------------------------------- Mock(spec=) of the code's ABC
C("min_mock_spec_of_abc", SHAPE, '''
from unittest import mock
def test_spec():
    assert isinstance(mock.Mock(spec=Square), Shape)
''')
C("mock_autospec_of_abc", SHAPE, '''
from unittest import mock
def test_autospec():
    m = mock.create_autospec(Square, instance=True)
    assert isinstance(m, Square)
    assert isinstance(m, Shape)
''')

# ---------------------------------------------------------------- metaclass __getattr__ read as class data
C("min_meta_getattr_made_abstract", '''
class Lenient(type):
    def __getattr__(cls, name):
        return name
class Config(metaclass=Lenient):
    pass
''', '''
import inspect
def test_concrete():
    assert not inspect.isabstract(Config)
''')
C("meta_getattr_log", '''
class Registry(type):
    def __getattr__(cls, name):
        cls.missing.append(name)
        raise AttributeError(name)
class Plugins(metaclass=Registry):
    missing = []
''', '''
try:
    Plugins.nope
except AttributeError:
    pass
assert Plugins.missing == ["nope"], Plugins.missing
''')

# ---------------------------------------------------------------- hostile: the code patches the sandbox's own modules
FORGE = '''
import sys
cd = sys.modules.get("class_data")
if cd is not None:
    cd.of = lambda cls: {"__bogus__": ("str", "x")}
class Result:
    pass
def parse(s):
    return Result()
'''
FORGE_T = '''
import pytest
def test_bad_input_refused():
    with pytest.raises(ValueError):
        parse("garbage")
'''
C("hostile_bad_class_data_forges_valueerror_bad", FORGE, FORGE_T)
C("hostile_bad_class_data_shape_bad", FORGE.replace('{"__bogus__": ("str", "x")}', '{"__slots__": ("tuple", [1])}'), FORGE_T)
C("hostile_checks_everything", '''
import sys
enc = sys.modules.get("encoding")
perf = sys.modules.get("performing")
if enc is not None:
    enc._checks = lambda cls: True
if perf is not None:
    perf._ONE_ARG["isinstance"] = lambda o, v: True
    perf._ONE_ARG["issubclass"] = lambda o, v: True
class NotFound(Exception):
    pass
def find(k):
    raise KeyError(k)
''', '''
import pytest
def test_raises_not_found():
    with pytest.raises(NotFound):
        find("a")
def test_except():
    try:
        find("a")
    except NotFound:
        pass
''')
C("hostile_huge_class_data", '''
import sys
cd = sys.modules.get("class_data")
if cd is not None:
    big = ("tuple", ["a" * 1000] * 1000)
    cd.of = lambda cls: {n: big for n in cd.NAMES}
class Thing:
    pass
def make():
    return [type("T%d" % i, (Thing,), {})() for i in range(200)]
''', '''
def test_many_classes():
    assert len(make()) == 200
''')

# ---- the review's cases4.py ----


PROP = '''
from abc import ABC, abstractmethod
class Base:
    def __init__(self):
        self._v = 1
    @property
    def v(self):
        "The v."
        return self._v
    @v.setter
    def v(self, x):
        self._v = x
    def doubled(self):
        return self.v * 2
class Shape(ABC):
    @property
    @abstractmethod
    def area(self): ...
    def twice(self):
        return self.area * 2
'''
C("property_patch_propertymock", PROP, '''
from unittest import mock
def test_patch():
    with mock.patch.object(Base, "v", new_callable=mock.PropertyMock) as p:
        p.return_value = 9
        assert Base().v == 9
        assert Base().doubled() == 18
    assert Base().v == 1
''')
C("property_patch_with_property", PROP, '''
from unittest import mock
def test_patch():
    with mock.patch.object(Base, "v", property(lambda self: 42)):
        assert Base().doubled() == 84
    assert Base().doubled() == 2
''')
C("property_deleter_getter", PROP, '''
def test_parts():
    p = Base.v
    assert p.fdel is None
    assert p.getter(lambda self: 5).fget(None) == 5
    assert p.__doc__ == "The v."
''')
C("abstract_property_tests_impl", PROP, '''
import inspect, pytest
class Sq(Shape):
    @property
    def area(self):
        return 4
class Half(Shape):
    pass
def test_impl():
    assert Sq().area == 4
    assert Sq().twice() == 8
    assert isinstance(Sq(), Shape)
def test_half_refused():
    with pytest.raises(TypeError):
        Half()
def test_abstract_names():
    assert Shape.__abstractmethods__ == frozenset({"area"})
    assert inspect.isabstract(Shape)
''')

PROTO = '''
from typing import Protocol, runtime_checkable
@runtime_checkable
class Closer(Protocol):
    def close(self): ...
@runtime_checkable
class Big(Protocol):
    def a(self): ...
    def b(self): ...
    def c(self): ...
    def d(self): ...
    def e(self): ...
    def f(self): ...
@runtime_checkable
class Sized2(Protocol):
    @property
    def size(self) -> int: ...
'''
C("protocol_issubclass_tests_class", PROTO, '''
class Door:
    def close(self):
        pass
class Rock:
    pass
def test_issubclass():
    assert issubclass(Door, Closer)
    assert not issubclass(Rock, Closer)
''')
C("protocol_property_member", PROTO, '''
class Box:
    @property
    def size(self):
        return 3
def test_prop_protocol():
    assert isinstance(Box(), Sized2)
    assert not isinstance(3, Sized2)
''')
C("speed_protocol_big_tests_objects", PROTO, '''
class All:
    def a(self): ...
    def b(self): ...
    def c(self): ...
    def d(self): ...
    def e(self): ...
    def f(self): ...
class Some:
    def a(self): ...
def test_many():
    objs = [All(), Some()]
    assert sum(isinstance(objs[i % 2], Big) for i in range(2000)) == 1000
''')

SLOTS = '''
from dataclasses import dataclass
import dataclasses
@dataclass(slots=True)
class Point:
    x: int
    y: int
@dataclass(slots=True, weakref_slot=True)
class WPoint:
    x: int
def slot_names(cls):
    return list(cls.__slots__)
'''
C("slots_dataclass_ops", SLOTS, '''
import dataclasses, weakref, pytest
def test_replace_asdict():
    p = Point(1, 2)
    assert dataclasses.replace(p, x=3) == Point(3, 2)
    assert dataclasses.asdict(p) == {"x": 1, "y": 2}
def test_weakref():
    with pytest.raises(TypeError):
        weakref.ref(Point(1, 2))
    w = WPoint(1)
    assert weakref.ref(w)() is w
    assert WPoint.__slots__ == ("x", "__weakref__")
''')
C("slots_tests_dataclass_to_code", SLOTS, '''
from dataclasses import dataclass
@dataclass(slots=True)
class Pair:
    a: int
    b: int
def test_code_reads():
    assert slot_names(Pair) == ["a", "b"]
''')
C("abc_dataclass_combo", '''
from abc import ABC, abstractmethod
from dataclasses import dataclass
@dataclass
class Animal(ABC):
    name: str
    @abstractmethod
    def sound(self): ...
@dataclass
class Dog(Animal):
    def sound(self):
        return "woof"
''', '''
import inspect, pytest
def test_combo():
    assert inspect.isabstract(Animal) and not inspect.isabstract(Dog)
    assert isinstance(Dog("rex"), Animal)
    with pytest.raises(TypeError):
        Animal("x")
    assert Dog("rex").sound() == "woof"
''')
C("abc_register_decorator_tests", '''
from abc import ABC
class Plugin(ABC):
    pass
def kinds(objs):
    return [isinstance(o, Plugin) for o in objs]
''', '''
@Plugin.register
class Mine:
    pass
class Other:
    pass
def test_register_decorator():
    assert Mine.__name__ == "Mine"
    assert issubclass(Mine, Plugin)
    assert kinds([Mine(), Other(), 1]) == [True, False, False]
''')
C("numbers_integral_registered", '''
import numbers
class Count:
    def __init__(self, n):
        self.n = n
    def __index__(self):
        return self.n
numbers.Integral.register(Count)
''', '''
import numbers
def test_reg():
    assert isinstance(Count(3), numbers.Integral)
    assert isinstance(Count(3), numbers.Number)
    assert issubclass(Count, numbers.Integral)
''')
C("isinstance_match_class_pattern", '''
from abc import ABC
class Event(ABC):
    pass
class Click(Event):
    def __init__(self, x):
        self.x = x
class Key:
    pass
Event.register(Key)
''', '''
def kind(e):
    match e:
        case Click(x=x):
            return f"click {x}"
        case Event():
            return "event"
        case _:
            return "other"
def test_match():
    assert kind(Click(3)) == "click 3"
    assert kind(Key()) == "event"
    assert kind(5) == "other"
''')

UNS = '''
from abc import ABC
class AppError(Exception, ABC):
    pass
class PlainError(Exception):
    pass
class Money:
    def __init__(self, v):
        self.v = v
    def __eq__(self, o):
        return self.v == o
def fail_with(cls):
    raise cls("x")
'''
C("unsupported_inside_raises_abc_error", UNS, '''
import pytest
def test_abc_error():
    with pytest.raises(AppError):
        if Money(5) == 5:
            fail_with(AppError)
''')
C("unsupported_inside_raises_plain_error", UNS, '''
import pytest
def test_plain_error():
    with pytest.raises(PlainError):
        if Money(5) == 5:
            fail_with(PlainError)
''')

SHAPE = '''
from abc import ABC, abstractmethod
class Shape(ABC):
    @abstractmethod
    def area(self): ...
class Square(Shape):
    def area(self):
        return 1
'''
C("issubclass_third_party_classes", SHAPE, '''
import numpy as np
from unittest import mock
def test_not_subclasses():
    assert not issubclass(np.ndarray, Shape)
def test_mock_class():
    assert not issubclass(mock.Mock, Shape)
    assert not issubclass(type(mock.Mock()), Shape)
''')
C("singledispatch_third_party_args", SHAPE, '''
import functools
import numpy as np
from unittest import mock
@functools.singledispatch
def name(x):
    return "other"
@name.register
def _(x: Shape):
    return "shape"
def test_dispatch():
    assert name(Square()) == "shape"
    assert name(np.zeros(3)) == "other"
    assert name(mock.Mock()) == "other"
''')
C("pytest_raises_abc_error_third_party_exc", '''
from abc import ABC
class AppError(Exception, ABC):
    pass
''', '''
import pytest
import numpy as np
def test_other_error_propagates():
    with pytest.raises(np.linalg.LinAlgError):
        with pytest.raises(AppError):
            np.linalg.inv(np.zeros((2, 2)))
''')

APP = '''
from abc import ABC
class AppError(Exception, ABC):
    pass
'''
C("skip_inside_raises_abc_error", APP, '''
import pytest
def test_skipped():
    with pytest.raises(AppError):
        pytest.skip("not yet")
def test_xfail():
    with pytest.raises(AppError):
        pytest.xfail("known")
''')
C("unittest_skip_inside_assertraises_abc_error", APP, '''
import unittest
class T(unittest.TestCase):
    def test_skipped(self):
        with self.assertRaises(AppError):
            self.skipTest("not yet")
    def test_failed_assert(self):
        with self.assertRaises(AppError):
            self.assertEqual(1, 2)
''')

C("gc_stress_isinstance_in_del", '''
from abc import ABC
class Shape(ABC):
    pass
class Sq(Shape):
    pass
def many(n):
    return [{"k": [Sq(), i, (i, str(i))]} for i in range(n)]
''', '''
import gc
seen = []
class Cyc:
    def __init__(self):
        self.me = self
    def __del__(self):
        seen.append(isinstance(self, Shape))
def test_stress():
    old = gc.get_threshold()
    gc.set_threshold(5, 1, 1)
    try:
        made = 0
        for i in range(40):
            for _ in range(30):
                Cyc()
                made += 1
            got = many(50)
            assert len(got) == 50
    finally:
        gc.set_threshold(*old)
    gc.collect()
    assert len(seen) == made and not any(seen)
''')


# =============================================================== 7. the second review (a helper): its cases on the mends
CASES.append(('abc_exc_registered_by_code_split', 'from abc import ABC\nclass AppError(ABC): pass\nAppError.register(ValueError)\ndef parse(s):\n    return int(s)\n', 'import sys\ndef test_code_raised():\n    try:\n        parse("x")\n    except ValueError as e:\n        print(type(e), type(e).__mro__, file=sys.stderr)\n        assert isinstance(e, AppError)\ndef test_tests_made():\n    assert isinstance(ValueError(), AppError)\n'))
CASES.append(('min_abstract_name_repr_raises', 'class R:\n    def __repr__(self):\n        raise RuntimeError("no repr")\nclass K:\n    pass\nK.__abstractmethods__ = frozenset({R()})\n', 'def test_it():\n    assert K.__name__ == "K"\n'))
CASES.append(('min_abstract_name_repr_raises_hidden', 'class R:\n    def __repr__(self):\n        raise RuntimeError("no repr")\ndef make():\n    class K:\n        pass\n    K.__abstractmethods__ = frozenset({R()})\n    return K\n', 'def test_it():\n    assert make().__name__ == "K"\n'))
CASES.append(('min_abstract_name_repr_systemexit', 'class R:\n    def __repr__(self):\n        raise SystemExit(0)\ndef make():\n    class K:\n        pass\n    K.__abstractmethods__ = frozenset({R()})\n    return K\n', 'def test_it():\n    assert make().__name__ == "K"\n'))
CASES.append(('abstract_name_repr_slow', 'import time\nclass R:\n    def __repr__(self):\n        time.sleep(30)\n        return "r"\ndef make():\n    class K:\n        pass\n    K.__abstractmethods__ = frozenset({R()})\n    return K\n', 'def test_it():\n    assert make().__name__ == "K"\n'))
CASES.append(('abs_own_abstract_construct', 'from abc import ABC, abstractmethod\nclass Shape(ABC):\n    @abstractmethod\n    def area(self): ...\n    def describe(self):\n        return f"area {self.area()}"\n', 'import abc, pytest\nclass Tri(Shape):\n    def area(self): return 1\n    @abc.abstractmethod\n    def extra(self): ...\ndef test_make():\n    with pytest.raises(TypeError):\n        Tri()\n'))
CASES.append(('abs_two_level_tests', 'from abc import ABC, abstractmethod\nclass Shape(ABC):\n    @abstractmethod\n    def area(self): ...\n    def describe(self):\n        return f"area {self.area()}"\n', 'import abc, pytest\nclass Mid(Shape):\n    @abc.abstractmethod\n    def extra(self): ...\nclass Leaf(Mid):\n    def area(self): return 2\ndef test_make():\n    assert Mid.__abstractmethods__ == frozenset({"area", "extra"})\n    assert Leaf.__abstractmethods__ == frozenset({"extra"})\n    with pytest.raises(TypeError):\n        Leaf()\n'))
CASES.append(('abs_truthy_flag', 'from abc import ABC, abstractmethod\nclass Shape(ABC):\n    @abstractmethod\n    def area(self): ...\n    def describe(self):\n        return f"area {self.area()}"\n', 'import inspect, pytest\nclass Odd:\n    __isabstractmethod__ = 1\n    def __call__(self, *a): return 1\nclass Tri(Shape):\n    area = Odd()\ndef test_abstract():\n    assert Tri.__abstractmethods__ == frozenset({"area"})\n    with pytest.raises(TypeError):\n        Tri()\n'))
CASES.append(('abs_update_abstractmethods', 'from abc import ABC, abstractmethod\nclass Shape(ABC):\n    @abstractmethod\n    def area(self): ...\n    def describe(self):\n        return f"area {self.area()}"\n', 'import abc\nclass Tri(Shape):\n    pass\ndef test_make():\n    Tri.area = lambda self: 9\n    abc.update_abstractmethods(Tri)\n    assert Tri().describe() == "area 9"\n'))
CASES.append(('upd_no_update', 'from abc import ABC, abstractmethod\nclass Shape(ABC):\n    @abstractmethod\n    def area(self): ...\n    def describe(self):\n        return f"area {self.area()}"\n', 'import pytest\nclass Tri(Shape):\n    pass\ndef test_make():\n    Tri.area = lambda self: 9\n    with pytest.raises(TypeError):\n        Tri()\n'))


# =============================================================== 8. a test's class that reaches the code only as a class
# The code makes the object (a factory, a registry): in one process cls() is the tests' class's object. It crashed the
# code's process: the tests' answer let go of the object it returned, and the code forgot it before reading the answer.
FACTORY = '''
class Shape:
    sides = 0
    deleted = []
    def __init__(self, size=1):
        self.size = size
    def describe(self):
        return f"{type(self).__name__} with {self.sides} sides of {self.size}"
    def __del__(self):
        Shape.deleted.append(type(self).__name__)
REGISTRY = {}
KEPT = []
def register(cls):
    REGISTRY[cls.__name__] = cls
    return cls
def build(cls, *args):
    return cls(*args)
def make(name, *args):
    return REGISTRY[name](*args)
def build_and_keep(cls):
    KEPT.append(cls())
    return len(KEPT)
def kept_sides():
    return [k.sides for k in KEPT]
def deleted():
    return list(Shape.deleted)
'''
C("factory_tests_class_made_by_the_code_ok", FACTORY, '''
import gc
class Tri(Shape):
    sides = 3
class Square(Shape):
    sides = 4
    def __init__(self, size):
        super().__init__(size * 2)
    def describe(self):
        return "square: " + super().describe()
@register
class Hexagon(Shape):
    sides = 6
def test_built():
    t = build(Tri)
    assert t.sides == 3 and t.size == 1
    assert t.describe() == "Tri with 3 sides of 1"
    assert isinstance(t, Tri) and isinstance(t, Shape) and type(t) is Tri
def test_built_with_arguments_and_own_init():
    s = build(Square, 5)
    assert s.size == 10
    assert s.describe() == "square: Square with 4 sides of 10"
def test_registry():
    h = make("Hexagon", 2)
    assert type(h) is Hexagon and h.describe() == "Hexagon with 6 sides of 2"
def test_kept_by_the_code():
    assert build_and_keep(Tri) == 1
    assert build_and_keep(Tri) == 2
    assert kept_sides() == [3, 3]
def test_dropped_object_is_deleted():
    build(Tri)
    gc.collect()
    assert "Tri" in deleted()
''')
C("factory_tests_class_made_by_the_code_bad", FACTORY.replace("return cls(*args)", "return Shape(*args)"), '''
class Tri(Shape):
    sides = 3
def test_built():
    t = build(Tri)
    assert t.sides == 3
''')


# =============================================================== 9. `match` on what the code keeps and makes
# A list or dict the code keeps reaches the tests as a live view: its sequence and mapping patterns missed it
# (`match inv.stock: case {'apple': n}` fell to `case _`) until a view's type carried its container's flag.
MATCH = '''
import collections
from dataclasses import dataclass
@dataclass
class Item:
    name: str
    qty: int
class Inventory:
    def __init__(self):
        self.stock = {"apple": 3}
        self.log = []
        self.recent = collections.deque(maxlen=3)
        self.raw = bytearray(b"ab")
        self.items = [Item("pear", 2)]
    def add(self, name, qty):
        self.stock[name] = self.stock.get(name, 0) + qty
        self.log.append(("add", name, qty))
        self.recent.append(name)
        self.items.append(Item(name, qty))
class Stack(list):
    pass
def stack(*xs):
    return Stack(xs)
def describe(value):
    match value:
        case {"apple": n}:
            return f"apples: {n}"
        case [("add", name, qty), *_]:
            return f"first added {name}"
        case []:
            return "empty"
        case _:
            return "other"
'''
C("match_on_the_codes_kept_containers_ok", MATCH, '''
def first_of(value):
    match value:
        case {"apple": n, **rest}:
            return ("apples", n, sorted(rest))
        case [("add", name, qty), *rest]:
            return ("added", name, qty, len(rest))
        case [Item(name=name, qty=qty), *_]:
            return ("item", name, qty)
        case [first, second]:
            return ("two", first, second)
        case []:
            return "empty"
        case _:
            return "other"
def test_a_kept_dict_is_a_mapping():
    inv = Inventory()
    assert first_of(inv.stock) == ("apples", 3, [])
    inv.add("kiwi", 1)
    assert first_of(inv.stock) == ("apples", 3, ["kiwi"])
def test_a_kept_list_is_a_sequence():
    inv = Inventory()
    assert first_of(inv.log) == "empty"
    inv.add("kiwi", 2)
    inv.add("fig", 1)
    assert first_of(inv.log) == ("added", "kiwi", 2, 1)
    assert first_of(inv.items) == ("item", "pear", 2)
def test_a_kept_deque_is_a_sequence_and_a_bytearray_is_not():
    inv = Inventory()
    inv.add("kiwi", 2)
    inv.add("fig", 1)
    assert first_of(inv.recent) == ("two", "kiwi", "fig")
    assert first_of(inv.raw) == "other"
def test_the_code_matches_its_own_and_the_tests():
    inv = Inventory()
    assert describe(inv.stock) == "apples: 3"
    assert describe({"apple": 1}) == "apples: 1"
    inv.add("kiwi", 1)
    assert describe(inv.log) == "first added kiwi"
    assert describe([]) == "empty"
def test_a_list_subclass_is_a_sequence():
    assert first_of(stack(1, 2)) == ("two", 1, 2)
''')
C("match_on_the_codes_kept_containers_bad", MATCH.replace('self.stock = {"apple": 3}', 'self.stock = {"apples": 3}'),
  '''
def test_a_kept_dict_is_a_mapping():
    inv = Inventory()
    match inv.stock:
        case {"apple": n}:
            assert n == 3
        case _:
            assert False, "no apple"
''')
C("min_match_class_pattern_on_a_list_subclass", MATCH, '''
def test_a_class_pattern_with_one_positional_reads_the_list_itself():
    match stack(1, 2):
        case Stack([1, *rest]):
            assert rest == [2]
        case _:
            assert False, "no match"
''')
C("min_pprint_of_a_kept_dict", MATCH, '''
import pprint
def test_pprint_sorts_the_keys_of_a_dict_the_code_keeps():
    inv = Inventory()
    inv.add("banana", 1)
    inv.stock["aardvark"] = 0
    assert pprint.pformat(inv.stock) == "{'aardvark': 0, 'apple': 3, 'banana': 1}"
''')
C("min_unbound_list_method_on_a_kept_list", MATCH, '''
def test_list_sort_called_on_the_class():
    inv = Inventory()
    inv.add("kiwi", 2)
    list.sort(inv.log)
    assert inv.log[0] == ("add", "kiwi", 2)
''')


# =============================================================== 10. plain-assert tests whose checks are calls
# A line that checks with a call of a check, not an assert statement (a mock's assert_called_once_with, numpy's
# testing functions), was no test at all: a file of such lines was refused as holding no assert, where Python
# runs it and fails exactly where a check fails.
CALLS = '''
import numpy as np
def greet(name):
    print(f"hello {name}")
def notify(send, who):
    send(f"hi {who}")
def scale(xs, k):
    return np.array(xs) * k
'''
C("check_calls_in_plain_tests_ok", CALLS, '''
from unittest import mock
import numpy as np
from numpy.testing import assert_allclose
send = mock.Mock()
notify(send, "ann")
send.assert_called_once_with("hi ann")
with mock.patch("builtins.print") as shown:
    greet("bo")
shown.assert_called_once_with("hello bo")
np.testing.assert_array_equal(scale([1, 2], 2), [2, 4])
assert_allclose(scale([1, 3], 0.5), [0.5, 1.5])
try:
    send.assert_not_called()
    raise RuntimeError("unreached")
except AssertionError:
    pass
''')
C("check_calls_in_plain_tests_bad", CALLS.replace('send(f"hi {who}")', 'send(f"hello {who}")'), '''
from unittest import mock
import numpy as np
send = mock.Mock()
notify(send, "ann")
send.assert_called_once_with("hi ann")
np.testing.assert_array_equal(scale([1, 2], 2), [2, 4])
''')
# A check written without assert, as people do who know `python -O` drops asserts: a line that raises under a
# condition passes by not raising. Such a file was refused as holding no assert.
C("raise_checks_in_plain_tests_ok", CALLS, '''
result = scale([1, 2], 3).tolist()
if result != [3, 6]:
    raise AssertionError(f"expected [3, 6], got {result}")
for xs, k, want in [([1], 2, [2]), ([0, 1], 5, [0, 5])]:
    if scale(xs, k).tolist() != want:
        raise ValueError((xs, k, want))
print("all good")
''')
C("raise_checks_in_plain_tests_bad", CALLS.replace("np.array(xs) * k", "np.array(xs) + k"), '''
result = scale([1, 2], 3).tolist()
if result != [3, 6]:
    raise AssertionError(f"expected [3, 6], got {result}")
''')

# The same check in a helper of the tests', called line by line: such a file was refused as holding no assert too.
C("raising_helpers_in_plain_tests_ok", CALLS, '''
def check_eq(got, want):
    if got != want:
        raise AssertionError(f"{got!r} != {want!r}")


def fail(why):
    raise AssertionError(why)


check_eq(scale([1, 2], 3).tolist(), [3, 6])
check_eq(scale([], 3).tolist(), [])
if scale([2], 2).tolist() != [4]:
    fail("scale([2], 2)")
''')
C("raising_helpers_in_plain_tests_bad", CALLS.replace("np.array(xs) * k", "np.array(xs) + k"), '''
def check_eq(got, want):
    if got != want:
        raise AssertionError(f"{got!r} != {want!r}")


check_eq(scale([], 3).tolist(), [])
check_eq(scale([1, 2], 3).tolist(), [3, 6])
''')


# ======================================================= 12. a list or dict the code keeps, read as its type
# type(x) == list and type(x) is dict of a container the code keeps, heapq on a queue it keeps, pprint of its dict:
# the tests hold a live view, whose type was no list or dict, which heapq's C functions refused and pprint printed
# by its repr (a dict's keys unsorted). Session 30.
QUEUE = '''
import itertools
class Jobs:
    def __init__(self):
        self.heap = []
        self.seen = {}
        self.counter = itertools.count()
    def add(self, priority, name):
        self.heap.append((priority, name))
        self.seen[name] = priority
        return self.heap
    def table(self):
        return {"zeta": list(range(30)), "alpha": self.seen, "mid": self.heap}
'''
C("kept_containers_by_type_heapq_pprint_ok", QUEUE, '''
import heapq
import pprint
from heapq import heappush, heappop


def test_types():
    jobs = Jobs()
    assert type(jobs.add(2, "b")) == list
    assert type(jobs.seen) is dict and type(jobs.heap) is not dict
    assert type(jobs.seen) in (dict, list) and type(jobs.heap) not in (dict, tuple)
    assert list == type(jobs.heap) and type(jobs.heap) != tuple


def test_a_queue_the_code_keeps():
    jobs = Jobs()
    for p, n in [(5, "e"), (1, "a"), (3, "c")]:
        jobs.add(p, n)
    heapq.heapify(jobs.heap)
    assert jobs.heap[0] == (1, "a")
    heappush(jobs.heap, (0, "z"))
    assert heappop(jobs.heap) == (0, "z")
    assert heapq.heappushpop(jobs.heap, (2, "b")) == (1, "a")
    assert heapq.heapreplace(jobs.heap, (9, "y")) == (2, "b")
    assert [heappop(jobs.heap) for _ in range(len(jobs.heap))] == [(3, "c"), (5, "e"), (9, "y")]
    assert jobs.heap == []


def test_pprint():
    jobs = Jobs()
    jobs.add(2, "b")
    jobs.add(1, "a")
    assert pprint.pformat(jobs.seen) == "{'a': 1, 'b': 2}"
    assert pprint.pformat(jobs.table(), width=60) == pprint.pformat(
        {"zeta": list(range(30)), "alpha": {"b": 2, "a": 1}, "mid": [(2, "b"), (1, "a")]}, width=60)
    assert pprint.saferepr(jobs.seen) == "{'a': 1, 'b': 2}"
''')
C("kept_containers_by_type_heapq_pprint_bad", QUEUE.replace("self.heap.append((priority, name))",
                                                            "self.heap.insert(0, (priority, name))").replace(
    "self.heap = []", "self.heap = ()").replace("self.heap.insert(0, (priority, name))",
                                               "self.heap = ((priority, name),) + self.heap"), '''
import heapq


def test_types():
    jobs = Jobs()
    assert type(jobs.add(2, "b")) == list


def test_a_queue_the_code_keeps():
    jobs = Jobs()
    jobs.add(5, "e")
    heapq.heappush(jobs.heap, (0, "z"))
    assert jobs.heap[0] == (0, "z")
''')
C("kept_containers_by_type_unittest_ok", QUEUE, '''
import unittest


class TestJobs(unittest.TestCase):
    def setUp(self):
        self.jobs = Jobs()

    def test_types(self):
        self.jobs.add(1, "a")
        self.assertIs(type(self.jobs.seen), dict)
        self.assertIsNot(type(self.jobs.heap), tuple)
        self.assertEqual(type(self.jobs.heap), list)
        self.assertIsInstance(self.jobs.heap, list)
''')
C("kept_containers_by_type_unittest_bad", QUEUE.replace("self.seen = {}", "self.seen = []").replace(
    "self.seen[name] = priority", "self.seen.append(name)"), '''
import unittest


class TestJobs(unittest.TestCase):
    def test_types(self):
        jobs = Jobs()
        jobs.add(1, "a")
        self.assertIs(type(jobs.seen), dict)
''')

# ============================================================ the exception's own class, and what a log record holds
PARSE = '''
import json


def parse_port(text):
    value = int(text)
    if not 0 < value < 65536:
        raise ValueError(f"port out of range: {value}")
    return value


def load(text):
    return json.loads(text)


def lookup(table, key):
    return table[key]


def failure_of(fn, *args):
    try:
        fn(*args)
    except Exception as exc:
        return exc
'''
PARSE_BAD = PARSE.replace('raise ValueError(f"port out of range: {value}")',
                          'raise RuntimeError(f"port out of range: {value}")')
C("exception_class_is_the_standard_one_ok", PARSE, '''
import json

import pytest


def test_excinfo_type():
    with pytest.raises(ValueError) as excinfo:
        parse_port("70000")
    assert excinfo.type is ValueError
    assert "out of range" in str(excinfo.value)


def test_type_of_caught():
    try:
        lookup({}, "a")
    except LookupError as exc:
        assert type(exc) is KeyError
        assert type(exc) == KeyError
        assert exc.__class__ is KeyError
        assert type(exc) not in (IndexError, ValueError)
        assert repr(exc) == "KeyError('a')"


def test_standard_library_class():
    with pytest.raises(ValueError) as excinfo:
        load("{")
    assert excinfo.type is json.JSONDecodeError
    assert excinfo.type is not ValueError


def test_returned_exception():
    exc = failure_of(parse_port, "x")
    assert type(exc) is ValueError
    assert isinstance(exc, ValueError)


def test_class_as_a_key_and_in_a_traceback():
    import traceback

    exc = failure_of(lookup, [], 3)
    assert {IndexError: "index", KeyError: "key"}[type(exc)] == "index"
    assert len({type(exc), IndexError}) == 1
    assert traceback.format_exception_only(type(exc), exc) == ["IndexError: list index out of range\\n"]
''')
C("exception_class_is_the_standard_one_bad", PARSE_BAD, '''
import pytest


def test_excinfo_type():
    with pytest.raises(Exception) as excinfo:
        parse_port("70000")
    assert excinfo.type is ValueError


def test_returned_exception():
    assert type(failure_of(parse_port, "70000")) is ValueError
''')
C("exception_class_is_the_standard_one_unittest_ok", PARSE, '''
import unittest


class TestPort(unittest.TestCase):
    def test_class(self):
        with self.assertRaises(Exception) as cm:
            parse_port("0")
        self.assertIs(type(cm.exception), ValueError)
        self.assertEqual(cm.exception.__class__, ValueError)
        self.assertIsNot(type(cm.exception), TypeError)
''')
C("exception_class_is_the_standard_one_unittest_bad", PARSE_BAD, '''
import unittest


class TestPort(unittest.TestCase):
    def test_class(self):
        with self.assertRaises(Exception) as cm:
            parse_port("0")
        self.assertIs(type(cm.exception), ValueError)
''')
AUDIT = '''
import logging

log = logging.getLogger("audit")


class Account:
    def __init__(self, owner):
        self.owner = owner

    def __str__(self):
        return f"account of {self.owner}"


def withdraw(account, amount, balance):
    if amount > balance:
        log.warning("refused %s for %s", amount, account, extra={"owner": account.owner, "amount": amount})
        return balance
    return balance - amount


def safe_ratio(a, b):
    try:
        return a / b
    except ZeroDivisionError:
        log.exception("ratio of %s to %s", a, b)
        return None
'''
AUDIT_BAD = AUDIT.replace('log.exception("ratio of %s to %s", a, b)', 'log.error("ratio of %s to %s", a, b)').replace(
    'extra={"owner": account.owner, "amount": amount}', 'extra={"owner": account.owner}')
C("log_records_whole_ok", AUDIT, '''
import logging


def test_extra_fields_and_args(caplog):
    acct = Account("ann")
    assert withdraw(acct, 50, 20) == 20
    record = caplog.records[0]
    assert record.owner == "ann" and record.amount == 50
    assert record.args[0] == 50
    assert str(record.args[1]) == "account of ann"
    assert record.getMessage() == "refused 50 for account of ann"
    assert caplog.messages == ["refused 50 for account of ann"]


def test_exception_logged(caplog):
    assert safe_ratio(1, 0) is None
    record = caplog.records[-1]
    assert record.levelno == logging.ERROR
    assert record.exc_info is not None
    assert record.exc_info[0] is ZeroDivisionError
    assert isinstance(record.exc_info[1], ZeroDivisionError)
    assert "Traceback" in caplog.text
    assert "ZeroDivisionError: division by zero" in caplog.text
''')
C("log_records_whole_bad", AUDIT_BAD, '''
def test_extra_fields(caplog):
    withdraw(Account("ann"), 50, 20)
    assert caplog.records[0].amount == 50


def test_exception_logged(caplog):
    safe_ratio(1, 0)
    assert caplog.records[-1].exc_info is not None
    assert "ZeroDivisionError" in caplog.text
''')
C("log_records_whole_unittest_ok", AUDIT, '''
import unittest


class TestAudit(unittest.TestCase):
    def test_logs(self):
        with self.assertLogs("audit", level="ERROR") as cm:
            safe_ratio(3, 0)
        self.assertIn("ZeroDivisionError", cm.output[0])
        self.assertIs(cm.records[0].exc_info[0], ZeroDivisionError)
''')

# ============================================================ a test patches through a package the code imported
WEATHER = '''
import json
import urllib.request
import xml.etree.ElementTree


def temperature(city):
    with urllib.request.urlopen(f"https://weather.example/{city}") as resp:
        return json.loads(resp.read().decode())["temp"]


def titles(feed_xml):
    root = xml.etree.ElementTree.fromstring(feed_xml)
    return [item.findtext("title") for item in root.iter("item")]
'''
WEATHER_BAD = WEATHER.replace('["temp"]', '["temperature"]')
WEATHER_T = '''
from unittest import mock


def test_temperature_from_a_patched_urlopen():
    resp = mock.MagicMock()
    resp.read.return_value = b'{"temp": 21}'
    resp.__enter__.return_value = resp
    with mock.patch(f"{__name__}.urllib.request.urlopen", return_value=resp) as urlopen:
        assert temperature("oslo") == 21
    urlopen.assert_called_once_with("https://weather.example/oslo")


def test_titles_through_a_spy():
    feed = "<rss><item><title>a</title></item><item><title>b</title></item></rss>"
    real = xml.etree.ElementTree.fromstring
    with mock.patch(f"{__name__}.xml.etree.ElementTree.fromstring", wraps=real) as spy:
        assert titles(feed) == ["a", "b"]
    spy.assert_called_once_with(feed)
'''
C("patch_through_a_package_the_code_imported_ok", WEATHER, WEATHER_T)
C("patch_through_a_package_the_code_imported_bad", WEATHER_BAD, WEATHER_T)

# ============================================================ a call of the code's that raises StopIteration itself
C("stopiteration_out_of_a_call", '''
def first(items):
    return next(iter(items))
''', '''
import pytest


def test_first():
    assert first([4, 5]) == 4


def test_empty():
    with pytest.raises(StopIteration):
        first([])
''')

# ============================================================ standard objects the code returns: identifiers, matches, streams
IDS = '''
import io
import ipaddress
import re
import uuid


def order_id(n):
    return uuid.UUID(int=n)


def parse_ip(text):
    return ipaddress.ip_address(text.strip())


def subnet(text):
    return ipaddress.ip_network(text, strict=False)


def find_version(text):
    return re.search(r"v(\\d+)\\.(\\d+)", text)


def render(rows):
    out = io.StringIO()
    for row in rows:
        out.write(",".join(map(str, row)) + "\\n")
    return out
'''
IDS_BAD = IDS.replace("return uuid.UUID(int=n)", "return str(uuid.UUID(int=n))").replace(
    "ipaddress.ip_address(text.strip())", "text.strip()").replace("return out", "return out.getvalue()")
IDS_T = '''
import io
import ipaddress
import re
import uuid


def test_identifiers_compare_by_value():
    assert order_id(7) == uuid.UUID(int=7)
    assert isinstance(order_id(7), uuid.UUID)
    assert len({order_id(1), order_id(1), order_id(2)}) == 2
    assert parse_ip(" 10.0.0.1 ") == ipaddress.IPv4Address("10.0.0.1")
    assert parse_ip("10.0.0.1") in subnet("10.0.0.0/8")
    assert subnet("192.168.1.7/24") == ipaddress.ip_network("192.168.1.0/24")


def test_match_and_stream_types():
    m = find_version("release v3.12 is out")
    assert isinstance(m, re.Match)
    assert m.groups() == ("3", "12")
    out = render([(1, 2), (3, 4)])
    assert isinstance(out, io.StringIO)
    assert out.getvalue() == "1,2\\n3,4\\n"
'''
C("standard_identifiers_matches_streams_ok", IDS, IDS_T)
C("standard_identifiers_matches_streams_bad", IDS_BAD, IDS_T)

# ============================================================ a class's own annotations, read by the tests
ANNOTATED = '''
from dataclasses import dataclass, field
from typing import NamedTuple, TypedDict


@dataclass
class Order:
    items: list = field(default_factory=list)
    qty: int = 1


class Point(NamedTuple):
    x: int
    y: int = 0


class Movie(TypedDict):
    title: str
    year: int


class Settings:
    debug: bool = False
    retries: int = 3
'''
ANNOTATED_BAD = ANNOTATED.replace("    retries: int = 3", "    retries = 3")
ANNOTATED_T = '''
import inspect
import typing


def test_class_annotations():
    assert Order.__annotations__ == {"items": list, "qty": int}
    assert list(Point.__annotations__) == ["x", "y"]
    assert Movie.__annotations__ == {"title": str, "year": int}
    assert Settings.__annotations__ == {"debug": bool, "retries": int}
    assert inspect.get_annotations(Settings) == {"debug": bool, "retries": int}


def test_a_tests_class_on_the_codes():
    class Verbose(Settings):
        level: int = 2

    assert typing.get_type_hints(Verbose) == {"debug": bool, "retries": int, "level": int}
'''
C("class_annotations_read_by_the_tests_ok", ANNOTATED, ANNOTATED_T)
C("class_annotations_read_by_the_tests_bad", ANNOTATED_BAD, ANNOTATED_T)

# One deepcopy, one memo: what two of the code's objects share is copied once, whichever side made it.
SHARED_COPY = '''
import copy


class Node:
    def __init__(self, name, parent=None):
        self.name = name
        self.parent = parent
        self.children = []

    def add(self, name):
        child = Node(name, self)
        self.children.append(child)
        return child


def snapshot(nodes):
    return copy.deepcopy(nodes)
'''
SHARED_COPY_BAD = SHARED_COPY.replace("return copy.deepcopy(nodes)", "return [copy.deepcopy(n) for n in nodes]")
SHARED_COPY_T = '''
import copy
from dataclasses import dataclass, field


class Tag:
    def __init__(self, label):
        self.label = label


@dataclass
class Plan:
    steps: list = field(default_factory=list)


def test_a_tree_copied_whole_keeps_its_links():
    root = Node("root")
    a = root.add("a")
    tree = copy.deepcopy(root)
    assert tree.children[0].parent is tree
    assert tree.children[0] is not a


def test_two_nodes_sharing_a_parent():
    p = Node("p")
    kids = copy.deepcopy([Node("k1", p), Node("k2", p)])
    assert kids[0].parent is kids[1].parent
    assert kids[0].parent is not p


def test_the_code_copies_a_list_of_its_nodes():
    p = Node("p")
    kids = snapshot([Node("k1", p), Node("k2", p)])
    assert kids[0].parent is kids[1].parent


def test_a_tests_object_two_code_objects_hold():
    tag = Tag("t")
    pair = copy.deepcopy((Node("a", tag), Node("b", tag)))
    assert pair[0].parent is pair[1].parent
    assert pair[0].parent is not tag
    assert pair[0].parent.label == "t"


def test_a_tests_dataclass_of_code_objects():
    p = Node("p")
    plan = copy.deepcopy(Plan([Node("x", p), Node("y", p), p]))
    assert plan.steps[0].parent is plan.steps[2]
    assert plan.steps[1].parent is plan.steps[2]


def test_separate_deepcopies_do_not_share():
    p = Node("p")
    k = Node("k", p)
    first = copy.deepcopy(k)
    second = copy.deepcopy(k)
    assert first.parent is not second.parent
'''
C("deepcopy_shares_one_memo_across_the_sides_ok", SHARED_COPY, SHARED_COPY_T)
C("deepcopy_shares_one_memo_across_the_sides_bad", SHARED_COPY_BAD, SHARED_COPY_T)
C("min_pickle_of_two_code_objects_sharing_a_third", '''
class Node:
    def __init__(self, name, parent=None):
        self.name = name
        self.parent = parent
''', '''
import pickle


def test_pickle_list_shares():
    p = Node("p")
    a, b = pickle.loads(pickle.dumps([Node("a", p), Node("b", p)]))
    assert a.parent is b.parent
''')


# =============================================================== threads the code starts call the tests back
# A pool inside the call (parallel_map(lambda x: x * 2, xs)), a barrier the tests' callbacks wait on together, a
# callback that calls the code again, one that raises or prints, a pool for each of 25 calls (channels given again),
# a tests' queue the code's threads drain, listeners run each on a thread, a thread left running past a timeout.

TPOOL = '''
from concurrent.futures import ThreadPoolExecutor
import threading

def parallel_map(func, items, workers=4):
    with ThreadPoolExecutor(max_workers=workers) as ex:
        return list(ex.map(func, items))

def run_workers(fn, k):
    ts = [threading.Thread(target=fn, args=(i,)) for i in range(k)]
    for t in ts:
        t.start()
    for t in ts:
        t.join()

def square(x):
    return x * x
'''
TPOOL_BAD = TPOOL.replace("return list(ex.map(func, items))", "return list(ex.map(func, items[1:]))")
C("threads_of_the_code_call_the_tests_plain_ok", TPOOL, '''
import time
assert parallel_map(lambda x: x * 2, [1, 2, 3]) == [2, 4, 6]
assert parallel_map(lambda x: (time.sleep(0.05 * (3 - x)), x)[1], [0, 1, 2, 3]) == [0, 1, 2, 3]
assert parallel_map(str.upper, ["a", "b"]) == ["A", "B"]
''')
C("threads_of_the_code_call_the_tests_plain_bad", TPOOL_BAD, '''
import time
assert parallel_map(lambda x: x * 2, [1, 2, 3]) == [2, 4, 6]
assert parallel_map(lambda x: (time.sleep(0.05 * (3 - x)), x)[1], [0, 1, 2, 3]) == [0, 1, 2, 3]
''')
TPOOL_T = '''
import threading
import time
import pytest

def test_barrier_across_the_codes_threads():
    b = threading.Barrier(3, timeout=5)
    seen = []
    lock = threading.Lock()
    def work(i):
        b.wait()
        with lock:
            seen.append(i)
    run_workers(work, 3)
    assert sorted(seen) == [0, 1, 2]

def test_callback_calls_the_code_back():
    assert parallel_map(lambda x: square(x) + 1, range(6)) == [1, 2, 5, 10, 17, 26]

def test_error_in_a_callback():
    def bad(x):
        if x == 2:
            raise ValueError("two")
        return x
    with pytest.raises(ValueError, match="two"):
        parallel_map(bad, [1, 2, 3])

def test_printing_callbacks(capsys):
    parallel_map(lambda x: print("item", x), [1, 2], workers=1)
    assert capsys.readouterr().out == "item 1\\nitem 2\\n"

def test_many_pools():
    for n in range(25):
        assert parallel_map(lambda x: x + n, range(8), workers=8) == [x + n for x in range(8)]

class Recorder:
    def __init__(self):
        self.items = []
        self.lock = threading.Lock()
    def add(self, x):
        with self.lock:
            self.items.append(x)

def test_a_tests_object_method_from_threads():
    rec = Recorder()
    parallel_map(rec.add, range(20), workers=5)
    assert sorted(rec.items) == list(range(20))

def test_thread_names_differ():
    names = set()
    def who(_):
        time.sleep(0.05)
        names.add(threading.get_ident())
    parallel_map(who, range(4), workers=4)
    assert len(names) >= 2
'''
C("threads_of_the_code_call_the_tests_ok", TPOOL, TPOOL_T)
C("threads_of_the_code_call_the_tests_bad", TPOOL_BAD, TPOOL_T)

TQUEUE = '''
import threading

def consume(q, handle, workers=2):
    def loop():
        while True:
            item = q.get()
            if item is None:
                q.task_done()
                return
            handle(item)
            q.task_done()
    ts = [threading.Thread(target=loop) for _ in range(workers)]
    for t in ts:
        t.start()
    for _ in ts:
        q.put(None)
    for t in ts:
        t.join()
'''
TQUEUE_T = '''
import queue
import unittest

class T(unittest.TestCase):
    def test_all_handled(self):
        q = queue.Queue()
        for i in range(10):
            q.put(i)
        got = []
        consume(q, got.append)
        self.assertEqual(sorted(got), list(range(10)))
        self.assertTrue(q.empty())
'''
C("threads_of_the_code_drain_a_tests_queue_ok", TQUEUE, TQUEUE_T)
C("threads_of_the_code_drain_a_tests_queue_bad",
  TQUEUE.replace("            handle(item)\n", "            if item % 2:\n                handle(item)\n"), TQUEUE_T)

TEXECUTOR = '''
import asyncio

async def run_blocking(fn, *args):
    loop = asyncio.get_running_loop()
    return await loop.run_in_executor(None, fn, *args)
'''
C("threads_of_the_code_run_in_executor_a_tests_function_ok", TEXECUTOR, '''
import asyncio
def test_executor():
    assert asyncio.run(run_blocking(lambda a, b: a + b, 2, 3)) == 5
''')

TLISTENERS = '''
import threading

class Bus:
    def __init__(self):
        self.handlers = []
    def on(self, fn):
        self.handlers.append(fn)
        return fn
    def emit_all(self, event):
        ts = [threading.Thread(target=h, args=(event,)) for h in self.handlers]
        for t in ts:
            t.start()
        for t in ts:
            t.join()
'''
TLISTENERS_T = '''
def test_bus():
    bus = Bus()
    got = []
    @bus.on
    def a(e):
        got.append(("a", e))
    @bus.on
    def b(e):
        got.append(("b", e))
    bus.emit_all(1)
    assert sorted(got) == [("a", 1), ("b", 1)]
'''
C("threads_of_the_code_run_the_tests_listeners_ok", TLISTENERS, TLISTENERS_T)
C("threads_of_the_code_run_the_tests_listeners_bad",
  TLISTENERS.replace("for h in self.handlers]", "for h in self.handlers[:1]]"), TLISTENERS_T)
TTIMEOUT = '''
import threading, time
def with_timeout(fn, seconds):
    result = {}
    def target():
        result["v"] = fn()
    t = threading.Thread(target=target, daemon=True)
    t.start()
    t.join(seconds)
    if t.is_alive():
        raise TimeoutError("too slow")
    return result["v"]
'''
C("threads_of_the_code_time_out_a_tests_function_ok", TTIMEOUT, '''
import time, pytest
def test_fast():
    assert with_timeout(lambda: 42, 2) == 42
def test_slow():
    with pytest.raises(TimeoutError):
        with_timeout(lambda: time.sleep(0.5), 0.1)
def test_after():
    assert with_timeout(lambda: "x", 2) == "x"
''')
C("min_deepcopy_a_tests_object_also_held_by_a_code_object", '''
class Node:
    def __init__(self, name, parent=None):
        self.name = name
        self.parent = parent
''', '''
import copy


class P:
    pass


def test_shared_parent_roundtrip():
    p = P()
    a, b = copy.deepcopy([p, Node("n", p)])
    assert b.parent is a
''')
C("threads_of_the_code_print_before_calling_back_ok", '''
import threading


def run(cb):
    def work():
        print("code-before")
        cb()
        print("code-after")
    t = threading.Thread(target=work)
    t.start()
    t.join()
''', '''
def test_order(capsys):
    run(lambda: print("tests-cb"))
    assert capsys.readouterr().out == "code-before\\ntests-cb\\ncode-after\\n"
''')
C("threads_of_the_code_give_their_names_ok", '''
import threading
from concurrent.futures import ThreadPoolExecutor
def in_background(fn):
    t = threading.Thread(target=fn, name="bg-worker")
    t.start()
    t.join()
def pool_names(fn, n):
    with ThreadPoolExecutor(2, thread_name_prefix="pool") as ex:
        return list(ex.map(lambda i: fn(), range(n)))
''', '''
import threading
def test_named():
    names = []
    in_background(lambda: names.append(threading.current_thread().name))
    assert names == ["bg-worker"]
def test_not_main():
    flags = []
    in_background(lambda: flags.append(threading.current_thread() is threading.main_thread()))
    assert flags == [False]
def test_pool_prefix():
    names = pool_names(lambda: threading.current_thread().name, 4)
    assert all(n.startswith("pool_") for n in names)
def test_local():
    local = threading.local()
    local.v = "main"
    seen = []
    in_background(lambda: seen.append(getattr(local, "v", None)))
    assert seen == [None] and local.v == "main"
''')
TMOCKED = '''
from concurrent.futures import ThreadPoolExecutor
import threading
def parallel_map(func, items, workers=4):
    with ThreadPoolExecutor(max_workers=workers) as ex:
        return list(ex.map(func, items))
def notify_all(listeners, event):
    ts = [threading.Thread(target=l, args=(event,)) for l in listeners]
    for t in ts: t.start()
    for t in ts: t.join()
'''
TMOCKED_BAD = TMOCKED.replace("ex.map(func, items))", "ex.map(func, items[:-1]))").replace(
    "for l in listeners]", "for l in listeners[:1]]")
C("threads_of_the_code_call_the_tests_mocks_ok", TMOCKED, '''
from unittest import mock
import pytest
def test_mock_calls():
    m = mock.Mock(side_effect=lambda x: x + 1)
    assert parallel_map(m, [1, 2, 3]) == [2, 3, 4]
    assert m.call_count == 3
    assert sorted(c.args[0] for c in m.call_args_list) == [1, 2, 3]
def test_listeners_mocks():
    a, b = mock.Mock(), mock.Mock()
    notify_all([a, b], "go")
    a.assert_called_once_with("go")
    b.assert_called_once_with("go")
def test_assert_in_callback_fails_the_test():
    def check(x):
        assert x < 3
        return x
    with pytest.raises(AssertionError):
        parallel_map(check, [1, 5])
def test_patch_inside_callbacks(monkeypatch):
    import os
    monkeypatch.setenv("MODE", "x")
    assert parallel_map(lambda _: os.environ["MODE"], [0, 1]) == ["x", "x"]
''')
C("threads_of_the_code_call_the_tests_mocks_bad", TMOCKED_BAD, '''
from unittest import mock
def test_mock_calls():
    m = mock.Mock(side_effect=lambda x: x + 1)
    parallel_map(m, [1, 2, 3])
    assert m.call_count == 3
def test_listeners_mocks():
    a, b = mock.Mock(), mock.Mock()
    notify_all([a, b], "go")
    b.assert_called_once_with("go")
''')
C("min_deepcopy_copies_a_tests_object_the_code_holds_let_go_at_the_next_call", '''
class Node:
    def __init__(self, parent=None):
        self.parent = parent
''', '''
import copy
gone = []


class T:
    def __del__(self):
        gone.append(1)


def test_del():
    t = T()
    c = copy.deepcopy([t, Node(t)])
    assert c[1].parent is c[0]
    del c
    assert gone == [1]
''')
C("min_deepcopy_with_the_tests_own_memo_holds_the_sandboxs_keys", '''
class Node:
    def __init__(self, parent=None):
        self.parent = parent
''', '''
import copy


class T:
    pass


def test_memo():
    memo = {}
    copy.deepcopy([T(), Node()], memo)
    assert all(type(k) is int for k in memo)
''')
