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
