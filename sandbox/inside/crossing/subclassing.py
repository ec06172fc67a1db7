"""A class the tests derive from one of the code's classes (a plugin, a template method): made where the code lives.

Runs inside the sandbox (stdlib only), in both processes. In one process ``class Loud(Greeter): def greet(self):
...`` overrides what the code's own methods call (``Greeter.hello`` calls ``self.greet()``). The tests' class here
derives from a mirror of the code's class, whose objects live in the code's process; so the object is made there, of
a subclass the code's side builds with the tests' own methods as callbacks (the tests' side: ``made_class``; the
code's: ``build``). Its objects reach the tests as objects of the tests' own class, on which the tests' methods run
here and the rest are requests; ``super().method(...)`` runs the code's method on the same object.
"""

from __future__ import annotations

import types

import standard_bases

# Dunder methods the tests' subclass may define for the code to call back (the rest stay the code's own).
CALLED_BACK_DUNDERS = frozenset({"__init__", "__str__", "__repr__", "__eq__", "__lt__", "__le__", "__gt__", "__ge__",
                                 "__hash__", "__len__", "__iter__", "__contains__", "__getitem__", "__call__",
                                 "__enter__", "__exit__", "__bool__"})


# --- the tests' side -----------------------------------------------------------------------------------------------

def made_class(cls: type, base: type, base_ref: object, keywords: dict | None = None) -> object:
    """The Ref of the code's subclass standing for the tests' cls (built once per class): cls's own methods and
    class attributes, down to the mirror base, become the code's subclass's callbacks and values; keywords are the
    class statement's (``class Echo(Plugin, name='echo')``), for the code's ``__init_subclass__``."""
    made = type.__dict__["__dict__"].__get__(cls).get("_sbx_made")
    if made is not None:
        return made
    peer = base_ref.peer
    methods, attrs = {}, {}
    for klass in cls.__mro__:
        if klass is base:
            break
        for name, value in type.__dict__["__dict__"].__get__(klass).items():
            if name in methods or name in attrs or name.startswith("_sbx"):
                continue
            # type(), not isinstance: the code's property read off its class is a proxy that says it is one
            if type(value) in (types.FunctionType, staticmethod, classmethod, property):
                if not name.startswith("__") or name in CALLED_BACK_DUNDERS:
                    methods[name] = value
                    _stub(base, name, base_ref)
            elif not name.startswith("__"):
                attrs[name] = value
    functions = {name: peer.encode(value) for name, value in methods.items()
                 if isinstance(value, types.FunctionType)}
    values = {}
    for name, value in attrs.items():
        try:
            values[name] = peer.encode(value)
        except Exception:
            continue
    import proxies

    keywords = {str(k): peer.encode(v) for k, v in (keywords or {}).items()}
    made_mirror = base_ref.ask("subclass", cls.__name__, functions, values, keywords)
    ref = proxies.ref_of(made_mirror)
    if ref is None or not isinstance(made_mirror, type):
        raise TypeError(f"the code's process could not make a subclass for {cls.__name__}")
    peer.mirrors[ref.handle] = cls  # the code's objects of that subclass are objects of the tests' class here
    type.__setattr__(cls, "_sbx_made", ref)
    return ref


def _stub(base: type, name: str, base_ref: object) -> None:
    """super().name(...) in the tests' method: the code's own method, run on the same object, as base's class there
    finds it (base's own stub: one on a mirror further up, made for another class of the tests', would skip what
    lies between, as Both(Tagged, Timestamped)'s super() from Tagged must reach Timestamped)."""
    own = type.__dict__["__dict__"].__get__(base)
    if name in own and not standard_bases.stands_in(own[name], name):
        return  # the mirror answers already (a name a standard base defines is only kept off it: it needs the stub)

    def stub(self: object, *args: object, **kwargs: object) -> object:
        if "_sbx_class_ref" in type.__dict__["__dict__"].__get__(type(self)):
            # an object of the code's own class (a mirror, below base): its own method, as its class there finds it
            import proxies

            return proxies._ask(self, "getattr", name)(*args, **kwargs)
        peer = base_ref.peer
        return base_ref.ask("method", name, peer.encode(self), tuple(peer.encode(a) for a in args),
                            {k: peer.encode(v) for k, v in kwargs.items()})

    stub.__name__ = stub.__qualname__ = name
    type.__setattr__(base, name, stub)


# --- the code's side -----------------------------------------------------------------------------------------------

def build(peer: object, base: type, name: object, functions: object, attrs: object, keywords: object) -> type:
    """The code's subclass of base whose methods call the tests' functions back (their self is the code's object);
    made with the class statement's keywords, as one process makes it (base's ``__init_subclass__`` gets them)."""
    if not isinstance(base, type) or type(name) is not str or type(functions) is not dict or type(attrs) is not dict \
            or type(keywords) is not dict or not all(type(k) is str and k.isidentifier() for k in keywords):
        raise TypeError("a subclass request of the wrong shape")
    namespace: dict = {"__module__": "solution", "__qualname__": name}
    for method, enc in functions.items():
        if type(method) is str and (not method.startswith("__") or method in CALLED_BACK_DUNDERS):
            namespace[method] = _calling_back(peer.decode(enc), method)
    for attr, enc in attrs.items():
        if type(attr) is str and not attr.startswith("__"):
            namespace[attr] = peer.decode(enc)
    return types.new_class(name, (base,), {k: peer.decode(v) for k, v in keywords.items()},
                           lambda made: made.update(namespace))


def _calling_back(function: object, name: str):
    def method(self: object, *args: object, **kwargs: object) -> object:
        return function(self, *args, **kwargs)

    method.__name__ = method.__qualname__ = name
    return method


def call_method(peer: object, cls: object, args: tuple) -> object:
    """cls's own method name on an object (super().name(...) in the tests' subclass)."""
    name, self_enc, positional, named = args
    if type(name) is not str or (name.startswith("__") and name not in CALLED_BACK_DUNDERS):
        raise AttributeError(name)
    if not isinstance(cls, type) or type(positional) is not tuple or type(named) is not dict:
        raise TypeError("a method request of the wrong shape")
    function = getattr(cls, name)
    return function(peer.decode(self_enc), *(peer.decode(a) for a in positional),
                    **{str(k): peer.decode(v) for k, v in named.items()})
