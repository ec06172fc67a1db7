"""Proxies and mirror classes: how one process holds the other's objects and classes.

Runs inside the sandbox (stdlib only), in both processes (peer.py makes them). A class of the other side becomes
a *mirror*, a real class here (so ``isinstance``, ``issubclass``, ``except`` and ``pytest.raises`` work against it),
whose instances are proxies: every attribute, call and protocol method is a request to the other side. Three kinds:

- an object of a class that derives from a standard value type (an IntEnum member, a namedtuple, a str subclass,
  a Decimal subclass) *is* such a value here, built from the data the standard type's own methods read on the
  other side: comparing and hashing it follow the standard type's rules, never the other side's ``__eq__``;
- an object of a class that derives from a mutable container (a list subclass) compares with plain data by its
  contents, read the same way;
- any other object compares equal only to objects of the other side (the other side's ``__eq__`` decides between
  its own objects): a proxy never equals plain data, whatever the other side would say.

Objects of classes the other side did not define (its generators, coroutines, bound methods) are generic proxies
with just the protocol methods their type has.
"""

from __future__ import annotations

import builtins
import collections.abc
import contextlib
import functools
import operator
import types

import class_data
import deepcopy_memos
import introspection
import watching
import standard_abcs
import standard_bases
import turns
import unsupported
import values
from values import VALUE_DUNDERS

# Dunder attributes the other side may be asked for (the rest would reach into frames, globals or code objects).
REMOTE_DUNDERS = frozenset({"__dict__", "__members__", "__wrapped__", "__annotations__", "__self__", "__func__",
                            "__isabstractmethod__"})
_FORWARD = {"add": operator.add, "sub": operator.sub, "mul": operator.mul, "truediv": operator.truediv,
            "floordiv": operator.floordiv, "mod": operator.mod, "pow": operator.pow, "matmul": operator.matmul,
            "and": operator.and_, "or": operator.or_, "xor": operator.xor, "lshift": operator.lshift,
            "rshift": operator.rshift, "divmod": divmod}
BINARY_OPS = (*(f"__{name}__" for name in _FORWARD), *(f"__r{name}__" for name in _FORWARD),
              *(f"__i{name}__" for name in _FORWARD if name != "divmod"))  # `c += 5` asks for the code's __iadd__
_UNARY = {"__neg__": operator.neg, "__pos__": operator.pos, "__abs__": operator.abs, "__invert__": operator.invert}
_COMPARE = {"__eq__": operator.eq, "__ne__": operator.ne, "__lt__": operator.lt, "__le__": operator.le,
            "__gt__": operator.gt, "__ge__": operator.ge}
COMPARISONS = tuple(_COMPARE)
# On the serving side: what each operator request does with the object (a reflected one with the operands swapped).
_SYMBOLS = {"__lt__": "<", "__le__": "<=", "__gt__": ">", "__ge__": ">="}
IN_PLACE = {f"__i{name}__": getattr(operator, f"i{name}") for name in _FORWARD if name != "divmod"}
OPERATORS = {**{f"__{name}__": fn for name, fn in _FORWARD.items()},
             **{f"__r{name}__": (lambda f: lambda obj, other: f(other, obj))(fn) for name, fn in _FORWARD.items()},
             **_UNARY, **_COMPARE, **IN_PLACE}


class Ref:
    """Which object of the other side a proxy stands for: its peer, its handle, and its text when it crossed.

    received: how many times the tests' side decoded the handle into this Ref's proxy (releasing.py), told to the
    code's side when the Ref dies, so that the code's object lives as long as one process would keep it; 0 for a
    Ref nothing counts (a class's, the code's side's)."""

    __slots__ = ("peer", "handle", "text", "names", "received", "fixed_hash")

    def __init__(self, peer: object, handle: int, text: str, names: dict | None = None) -> None:
        self.peer, self.handle, self.text, self.names = peer, handle, text, names or {}
        self.received = 0
        # The hash of an object whose hash cannot change (the tests' event loop: an object's own identity hash),
        # kept once asked: it keys the code's asyncio.current_task() table at every request (running_loop.py).
        self.fixed_hash: int | None = None

    def __del__(self) -> None:
        if self.received:
            self.peer.lifetimes.released.append((self.handle, self.received))

    def ask(self, op: str, *args: object) -> object:
        return self.peer.request(op, ("h", self.handle), *args)


class Proxy:
    """Marks every object that stands for one of the other side's (its Ref is ``_sbx_ref``)."""

    __slots__ = ()


def ref_of(value: object) -> Ref | None:
    """The Ref of a proxy or a mirror class, or None for anything of this side's own."""
    if isinstance(value, type):
        found = type.__dict__["__dict__"].__get__(value).get("_sbx_class_ref")
        return found if type(found) is Ref else None
    found = _wrapped.get(id(value))
    if found is not None and found[0] is value:
        return found[1]
    if issubclass(type(value), Proxy) or issubclass(type(value), RemoteError):
        try:
            found = object.__getattribute__(value, "_sbx_ref")
        except AttributeError:
            return None
        return found if type(found) is Ref else None
    return None


def _ref(proxy: object) -> Ref:
    return object.__getattribute__(proxy, "_sbx_ref")


def _encode(proxy: object, value: object) -> tuple:
    return _ref(proxy).peer.encode(value)


def _ask(proxy: object, op: str, *args: object) -> object:
    return _ref(proxy).ask(op, *args)


def _same_side(proxy: object, other: object) -> bool:
    ref = ref_of(other)
    return ref is not None and ref.peer is _ref(proxy).peer


# --- the methods a proxy may have -------------------------------------------------------------------------------

def _getattr(self, name: str) -> object:
    ref = ref_of(self)
    if ref is None:
        raise AttributeError(name)
    if name in introspection.ATTRIBUTES and ref.peer.role == "tests":
        return introspection.attribute(ref, name)  # answered by the code's process as data
    if name.startswith("__") and name not in REMOTE_DUNDERS:
        if name.strip("_") in ref.names:
            return ref.names[name.strip("_")]
        raise AttributeError(name)
    return ref.ask("getattr", name)


def _setattr(self, name: str, value: object) -> None:
    _ask(self, "setattr", name, _encode(self, value))
    link_kept(_ref(self).peer, (value,), {}, -1)


def _setitem(self, key: object, value: object) -> None:
    _ask(self, "setitem", _encode(self, key), _encode(self, value))
    link_kept(_ref(self).peer, (value,), {}, -1)


def link_kept(peer: object, args: tuple, kwargs: dict, value_key: int | None = None) -> None:
    """The containers of this side's that the other side said it kept stay in step with its copies (linking.py)."""
    import linking

    kept, peer.kept = peer.kept, None
    for key, handle in kept if type(kept) is list else ():
        if type(handle) is not int:
            continue
        if type(key) is list and key and value_key is None:  # a list or dict inside an argument: [place, *path]
            first = key[0]
            arg = args[first] if type(first) is int and 0 <= first < len(args) else kwargs.get(first) if type(
                first) is str else None
            arg = linking.at_path(arg, key[1:]) if type(arg) in (list, dict) else None
        elif key == value_key and value_key is not None:
            arg = args[0]
        elif type(key) is int and 0 <= key < len(args) and value_key is None:
            arg = args[key]
        elif type(key) is str and value_key is None:
            arg = kwargs.get(key)
        else:
            continue
        if isinstance(arg, (list, dict, set, bytearray)) or type(arg).__name__ == "deque" or values.is_array(arg):
            if ref_of(arg) is None:
                linking.link(peer, arg, handle)


def _delattr(self, name: str) -> None:
    _ask(self, "delattr", name)


def _repr(self) -> str:
    ref = _ref(self)
    if ref.peer.dead:
        return ref.text
    try:
        text = ref.ask("repr")
    except Exception:
        return ref.text
    return text if type(text) is str else ref.text


def _str(self) -> str:
    text = _ask(self, "str")
    if type(text) is not str:
        raise TypeError("__str__ returned a non-string")
    return text


def _format(self, spec: str) -> str:
    text = _ask(self, "format", _encode(self, spec))
    if type(text) is not str:
        raise TypeError("__format__ returned a non-string")
    return text


ONE_SIDED = frozenset({"__ne__", "__lt__", "__le__", "__gt__", "__ge__"})  # asked of one side's object alone


def _compare(name: str):
    def compare(self, other: object) -> object:
        if _same_side(self, other):
            return _ask(self, "op", name, _encode(self, other))
        if name != "__eq__":
            # The other side's own method on this side's data, not reflected (the reflected step is this side's, as
            # Python takes it when the first says NotImplemented; asked there, it asked here again, 500 deep): its
            # __ne__ answers as in one process (by default, the inverse of its __eq__), and an ordering
            # (Temp(20) < 25) too, with what it raises; where neither side has one, != falls back to identity and an
            # ordering raises TypeError, here. The tests' ordering the code may take, but an ordering of the code's
            # never decides a test.
            found = _own_op(self, name, other)
            if found is NotImplemented or name == "__ne__" or _ref(self).peer.role != "tests":
                return found
            raise unsupported.Unsupported(unsupported.ORDERED_BY_THE_CODE.format(op=_SYMBOLS[name]))
        # The other side's own __eq__, as one process asks it first: its "not implemented" lets this side's data
        # answer (reflected), and its no stands (Money(5) == Amount(5) is False where Money's __eq__ says so);
        # its yes decides no test of the tests' side.
        answer = _ask(self, "own_eq", _encode(self, other))
        if answer is None:
            return NotImplemented
        if not answer or _ref(self).peer.role != "tests":
            return answer
        raise unsupported.Unsupported(unsupported.EQUAL_BY_THE_CODE)
    compare.__name__ = name
    return compare


def _standard_copy(cls: type) -> object:
    """How a proxy of class cls is copied here to be compared by the standard library's rules, or None (read from the
    classes themselves: never a request, as a mirror's missing attribute would be)."""
    for klass in cls.__mro__:
        own = type.__dict__["__dict__"].__get__(klass)
        if "_sbx_standard_copy" in own:
            found = own["_sbx_standard_copy"]
            return found.__func__ if isinstance(found, staticmethod) else found
    return None


def by_data(name: str, copy_here) -> object:
    """A comparison the standard library decides, not the other side's class: with this side's data, copy_here(proxy)
    is a copy of the object made here of this side's own types, from the data it holds, and compared by their
    rules (a SimpleNamespace, a Mapping that keeps Mapping's __eq__); with the other side's own objects, asked there."""
    def compare(self, other: object) -> object:
        if _same_side(self, other):
            theirs = _standard_copy(type(other))
            if theirs is None or _standard_copy(type(self)) is None:
                return _ask(self, "op", name, _encode(self, other))
            # two of the other side's objects the standard library compares (two live lists, two namespaces):
            # compared here too, never by the other side's answer
            return _COMPARE[name](copy_here(self), theirs(other))
        return _COMPARE[name](copy_here(self), other)
    compare.__name__ = name
    return compare


def _hash(self) -> int:
    ref = _ref(self)
    if ref.fixed_hash is not None:
        return ref.fixed_hash
    value = ref.ask("hash")
    if type(value) is not int:
        raise TypeError("__hash__ returned a non-integer")
    return value


def _call(self, *args: object, **kwargs: object) -> object:
    return call_through(_ref(self), args, kwargs)


def call_through(ref: Ref, args: tuple, kwargs: dict) -> object:
    """Call the other side's function or class (ref) with this side's arguments: their in-place changes come back
    into them, and the containers it kept stay in step with them."""
    peer = ref.peer
    sent = [a for a in (*args, *kwargs.values()) if ref_of(a) is None and isinstance(a, values.CONTAINER_BASES)]
    with turns.taken(sent) if sent else contextlib.nullcontext():  # another thread's call with the same list waits
        result = peer.request("call", ("h", ref.handle), *peer.encode_call(args, kwargs), sent=(args, kwargs))
        # Taken at once, as the changes are: a call the changes make (a __del__ that calls the code) has its own.
        changes, peer.changes = peer.changes, None
        dropped, peer.calls.dropped = peer.calls.dropped, None
        if changes:
            apply_changes(args, kwargs, changes, peer.decode)
        del dropped  # what the answer let go of may go now (releasing.incoming)
    return result


def apply_changes(args: tuple, kwargs: dict, changes: object, decode) -> None:
    """Copy the other side's in-place changes into the arguments this side passed (a list's items, a dict's keys),
    so the caller sees them as it would had the call run here."""
    import linking

    for change in changes if type(changes) is list else ():
        if type(change) is not tuple or len(change) not in (2, 3):
            continue
        key, enc = change[0], change[1]
        arg = args[key] if type(key) is int and 0 <= key < len(args) else kwargs.get(key) if type(key) is str else None
        if arg is not None and ref_of(arg) is None:
            linking.write_back(arg, decode(enc), change[2] if len(change) == 3 else ())


def _len(self) -> int:
    value = _ask(self, "len")
    if type(value) is not int or value < 0:
        raise TypeError("__len__ returned what is not a length")
    return value


def _bool(self) -> bool:
    return _ask(self, "bool") is True


def _contains(self, item: object) -> bool:
    return _ask(self, "contains", _encode(self, item)) is True


def _exit(self, kind: object, value: object, traceback: object) -> bool:
    return _leave_with(self, "exit", kind, value)


def _leave_with(self, op: str, kind: object, value: object) -> bool:
    """The other side's __exit__ or __aexit__ (op) for the type and error (never the traceback): whether it
    suppressed the error. It may swallow its own errors, but never a failing assert of the tests inside its with
    block: one process would go on past it, so the test is not judged (a pass would let hostile code hide any
    check)."""
    return _suppressed(self, _ask(self, op, _encode(self, kind), _encode(self, value)), value)


def _suppressed(self, answer: object, value: object) -> bool:
    suppressed = answer is True
    hooks = _ref(self).peer.hooks
    if suppressed and value is not None and hooks is not None and hooks.is_test_failure(value):
        unsupported.note(unsupported.SUPPRESSED_CHECK)
        return False
    return suppressed


def _await(self):
    return _await_steps(self)


def _await_steps(self):
    ref = _ref(self)
    if steps_on_one_loop(ref.peer):
        # The other side's future or task, awaited on its own running loop: its own __await__ yields it to that
        # loop's task and returns its result when woken, as in one process (never run to its end apart).
        try:
            return (yield from ref.ask("await_iter"))
        except RemoteError as exc:  # its cancellation (a timeout's) is asyncio's own class here, as the task's
            here = _cancelled_as_here(exc)
            if here is exc:
                raise
            raise here from None
    return ref.ask("await")  # the code's own asyncio.run: the tests' awaitable runs to its end there
    yield  # a generator: the await resolves when the event loop first steps it


def _running_loop() -> object:
    import sys

    asyncio = sys.modules.get("asyncio")
    return asyncio.events._get_running_loop() if asyncio is not None else None


def _send(self, value: object) -> object:
    if value is not None:
        raise TypeError("can't send non-None value to a just-started coroutine")
    raise StopIteration(_ask(self, "await"))


def _throw(self, kind: object, value: object = None, traceback: object = None) -> object:
    raise (value if value is not None else kind)


def _close(self) -> None:
    return None


def _aexit(self, kind: object, value: object, traceback: object) -> object:
    async def run() -> bool:
        if steps_on_one_loop(_ref(self).peer):
            return _suppressed(self, await _ask(self, "aexit_unrun", _encode(self, kind), _encode(self, value)), value)
        return _leave_with(self, "aexit", kind, value)
    return run()


def _async_step(op: str):
    def step(self, *args: object) -> object:
        async def run() -> object:
            encoded = [_encode(self, a) for a in args]
            if steps_on_one_loop(_ref(self).peer):
                # its awaitable, not run there: awaited here, each step a request on the one loop
                return await _ask(self, op + "_unrun", *encoded)
            return _ask(self, op, *encoded)
        return run()
    step.__name__ = op
    return step


def _keep(self, memo: dict | None = None) -> object:
    return self  # a value of the other side's class is immutable here: copying it keeps it, as for a tuple


def _copy(self) -> object:
    return _ask(self, "copy")  # made where the object lives: a second object there, with its own handle


def _deep_copy(self, memo: dict | None = None) -> object:
    return deep_copy(self, memo)


def deep_copy(proxy: object, memo: dict | None) -> object:
    """A deep copy of the other side's object, made where it lives. Within one deepcopy (one memo here), every copy
    made there shares one memo there too: two of the other side's objects that hold a third are copied with one copy
    of it, and an object copied before one that holds it is that copy's (``copy.deepcopy((p, Node(p)))``)."""
    if type(memo) is not dict:
        return _ask(proxy, "deepcopy")
    peer = _ref(proxy).peer
    key = deepcopy_memos.key_for(peer)
    token, holder = deepcopy_memos.own_token(memo, peer)
    with deepcopy_memos.lent(holder, memo):
        far = memo.get(key)
        if far is None:
            far = memo[key] = _ask(proxy, "deepcopy_memo", _encode(proxy, token))
        return _ask(proxy, "deepcopy", _encode(proxy, far))


def _reduce(self, protocol: object = 2) -> tuple:
    """pickle.dumps(obj) then loads: a copy made where the object lives (pickling only names it by its handle, so
    nothing of the other side's is unpickled here)."""
    copied = _ask(self, "deepcopy")
    ref = ref_of(copied)
    if ref is None:  # the copy is plain data (a live container's)
        return copied.__reduce_ex__(protocol if type(protocol) is int else 2)
    _PICKLED[ref.handle] = copied  # the bytes name it by its handle only: held for the run, loads may come any time
    return (_held, (ref.handle,))


def _held(handle: int) -> object:
    return _PICKLED[handle]


_PICKLED: dict[int, object] = {}  # the copies pickles name (_reduce)



def _descriptor_method(name: str):
    # A function of the other side set on a class binds to its instances (self.fn(3) is fn(self, 3)), a descriptor
    # of its (a Field validating what is set) works on a class of this side: Python looks these up on the type.
    def method(self, *args: object) -> object:
        return _ask(self, "descriptor", name, *(_encode(self, arg) for arg in args))
    method.__name__ = name
    return method


DESCRIPTOR_METHODS = ("__get__", "__set__", "__delete__", "__set_name__")
_METHODS = {
    **{name: _descriptor_method(name) for name in DESCRIPTOR_METHODS},
    "__call__": _call, "__len__": _len, "__bool__": _bool, "__contains__": _contains,
    "__iter__": lambda self: _ask(self, "iter"), "__next__": lambda self: _ask(self, "next"),
    "__reversed__": lambda self: _ask(self, "reversed"),
    "__getitem__": lambda self, key: _ask(self, "getitem", _encode(self, key)),
    "__setitem__": _setitem,
    "__delitem__": lambda self, key: _ask(self, "delitem", _encode(self, key)),
    "__enter__": lambda self: _ask(self, "enter"), "__exit__": _exit,
    "__int__": lambda self: _ask(self, "int"), "__float__": lambda self: _ask(self, "float"),
    "__index__": lambda self: _ask(self, "index"),
    "__round__": lambda self, *digits: _ask(self, "round", *(_encode(self, d) for d in digits)),
    "__await__": _await, "send": _send, "throw": _throw, "close": _close,
    "__aiter__": lambda self: _ask(self, "aiter"), "__anext__": _async_step("anext"),
    "__aenter__": _async_step("aenter"), "__aexit__": _aexit,
    **{name: (lambda n: lambda self: _ask(self, "op", n))(name) for name in _UNARY},
    **{name: (lambda n: lambda self, other: _ask(self, "op", n, _encode(self, other)))(name) for name in BINARY_OPS},
}


def protocol_methods(caps: frozenset, skip: frozenset = frozenset()) -> dict:
    """The methods a proxy with these protocol capabilities has (its class's namespace), but those in skip."""
    if "__await__" not in caps:
        skip = skip | {"send", "throw", "close"}  # a generator's send is an ordinary method, asked for by name
    methods = {name: _METHODS[name] for name in caps if name in _METHODS and name not in skip}
    if "__hash__" in caps and "__hash__" not in skip:
        methods["__hash__"] = _hash
    elif "__hash__" not in skip:
        methods["__hash__"] = None
    if "__len__" in caps and "__bool__" not in caps and "__bool__" not in skip:
        methods["__bool__"] = _bool  # truth by length, decided by the other side
    return methods


class ObjectProxy(Proxy):
    """An object of the other side: attributes, calls and protocols are requests; equal only to its side's objects."""

    __slots__ = ("_sbx_ref",)
    __getattr__ = _getattr
    __setattr__ = _setattr
    __delattr__ = _delattr
    __repr__ = _repr
    __str__ = _str
    __format__ = _format
    __copy__ = _copy
    __deepcopy__ = _deep_copy
    __reduce_ex__ = _reduce
    __eq__, __ne__, __lt__, __le__, __gt__, __ge__ = (_compare(n) for n in _COMPARE)
    __hash__ = _hash


class ContainerProxy(ObjectProxy):
    """An object of the other side whose class derives from a mutable container: compared by its contents."""

    __slots__ = ()
    # The contents as the standard container reads them, compared here by the standard type's rules.
    __eq__, __ne__, __lt__, __le__, __gt__, __ge__ = (by_data(n, lambda self: _ask(self, "data")) for n in _COMPARE)
    __hash__ = None


class StandInType(type):
    """The type of a class that stands here for a standard class of the other side's (``_sbx_base``): a live view of
    its list or dict, its ZeroDivisionError. Equal to that class, so ``type(inv.items) == list`` and
    ``type(err) == ZeroDivisionError`` hold as in one process. ``is`` cannot be taught here: the tests' ``is``
    comparisons and unittest's assertIs go through live_views.standard_type (pytest_standin/asserts.py: same)."""

    def __eq__(cls, other: object) -> bool:
        return cls is other or other is cls._sbx_base

    def __ne__(cls, other: object) -> bool:
        return not StandInType.__eq__(cls, other)

    # Hashed as itself, not as the class it stands for: the ABCs' caches are weak sets of classes, where a view's type
    # found equal to list (cached as a Sequence's subclass already) would never be registered and flagged.
    __hash__ = type.__hash__

    def __repr__(cls) -> str:
        return repr(cls._sbx_base)  # a failed assert says <class 'dict'>, as one process's would


class StandInErrorType(StandInType):
    """The class of the other side's exception raised as a standard class itself (its ZeroDivisionError), hashed as
    that class: ``{ZeroDivisionError: "math"}[type(err)]`` finds it, as in one process. No ABC registers such a
    class, so an ABC's cache that takes it for the standard one answers as it would for that one (it is its
    subclass)."""

    def __hash__(cls) -> int:
        return hash(cls._sbx_base)


class RemoteError(BaseException):
    """Base of the other side's exceptions raised here (``remote_traceback`` holds where they came from), beside the
    builtin class they were: a BaseException only, so that ``except Exception`` catches what one process's would
    (a ValueError of the other side's), and not its SystemExit."""

    remote_traceback = ""


def _remote_str(self: BaseException) -> str:
    """What the other side's str said (its class may have its own __str__; args may be other than the message).
    In each class made here, before the builtin base's own __str__ (KeyError's, OSError's) in the order."""
    message = self.__dict__.get("_sbx_message")
    if type(message) is str:
        return message
    # the builtin class's own (a stand-in for ZeroDivisionError says builtins too, and is this function's)
    return next(b for b in type(self).__mro__ if b.__module__ == "builtins" and not isinstance(b, StandInType)
                ).__str__(self)


OS_ERROR_FIELDS = ("errno", "strerror", "filename", "filename2")  # an OSError's own, beside its args


def give_args(exc: BaseException, info: dict) -> None:
    """An exception of the other side's, given its args as they were where they are plain values
    (``e.args == (404, 'Not Found')``), else its message, as before; str(exc) is the other side's str."""
    message = str(info.get("message", ""))
    args = info.get("args")
    exc.args = args if type(args) is tuple else (message,)
    exc.__dict__["_sbx_message"] = message
    if isinstance(exc, SystemExit):  # its code as it was there, else as SystemExit's __init__ sets it from its args
        code = info.get("exit_code")
        exc.code = code[0] if type(code) is list and len(code) == 1 else (
            exc.args[0] if len(exc.args) == 1 else exc.args or None)
    fields = info.get("os_error")
    if isinstance(exc, OSError) and type(fields) is list and len(fields) == len(OS_ERROR_FIELDS):
        for name, value in zip(OS_ERROR_FIELDS, fields):
            setattr(exc, name, value)


# --- mirror classes ---------------------------------------------------------------------------------------------

_ABC_BOOKS = frozenset({"__abstractmethods__", "_abc_impl"})  # what ABCMeta sets on a class it makes: the mirror's own


class RemoteType(type):
    """The type of mirror classes: class attributes (``Color.RED``), calls (construction), iteration over an Enum
    and the like are requests about the other side's class."""

    def __getattr__(cls, name: str) -> object:
        if name.startswith("_sbx"):
            raise AttributeError(name)  # the sandbox's own, never the other side's
        ref = _class_ref(cls)
        if ref is not None and name in introspection.ATTRIBUTES and ref.peer.role == "tests":
            return introspection.attribute(ref, name)
        if ref is None or (name.startswith("__") and name not in REMOTE_DUNDERS):
            raise AttributeError(name)
        return _ref_for(cls, ref).ask("getattr", name)

    def __setattr__(cls, name: str, value: object) -> None:
        ref = type.__dict__["__dict__"].__get__(cls).get("_sbx_class_ref")
        if ref is None or name.startswith("_sbx") or name in _ABC_BOOKS:
            type.__setattr__(cls, name, value)
        else:
            ref.ask("setattr", name, ref.peer.encode(value))

    def __delattr__(cls, name: str) -> None:
        # What mock.patch.object does on its way out of a class's attribute it found inherited (a mirror's own
        # __dict__ holds none of the class's): delete the patch there, then set the original back.
        ref = ref_of(cls)
        if ref is None or name.startswith("_sbx"):
            type.__delattr__(cls, name)
        else:
            ref.ask("delattr", name)

    def mro(cls) -> list[type]:
        # The other side's class's standard-library bases (Enum, Thread) after the mirror's own classes:
        # isinstance, issubclass and except read this order (standard_bases.py).
        order = super().mro()
        bases = type.__dict__["__dict__"].__get__(cls).get("_sbx_standard_bases")
        return standard_bases.with_bases(order, bases) if bases else order

    def __subclasscheck__(cls, sub: type) -> bool:
        # A shadow (make_mirror: what an object of the other side's dict subclass says its class is) is its mirror.
        mirror = type.__dict__["__dict__"].__get__(sub).get("_sbx_mirror") if isinstance(sub, type) else None
        if super().__subclasscheck__(mirror if mirror is not None else sub):
            return True
        return mirror is None and _asked_of_class(cls, sub)

    def __instancecheck__(cls, obj: object) -> bool:
        # Where the order here says no (a Mock(spec=Square) says its class itself), a class whose metaclass decides
        # is asked (an ABC's registry or hook: the object's class; a runtime_checkable Protocol or a metaclass of
        # its own: the object itself).
        if super().__instancecheck__(obj):
            return True
        kind = _checks_of(cls)
        if kind == "classes":
            peer = type.__dict__["__dict__"].__get__(cls)["_sbx_class_ref"].peer
            found = {_crossing(peer, c) for c in (type(obj), getattr(obj, "__class__", type(obj)))}
            return any(_asked_of_class(cls, c) for c in found if c is not None)
        if kind == "objects":
            ref = type.__dict__["__dict__"].__get__(cls)["_sbx_class_ref"]
            return _yes(ref, ref.ask("isinstance", ref.peer.encode(obj)), isinstance(obj, BaseException))
        return False

    def __dir__(cls) -> list[str]:
        # The class's names as the code's process lists them ('report' in dir(Weather)), with the mirror's own; the
        # tests' classes list only the mirror's to the code (their names are the tests').
        ref = _class_ref(cls)
        names = ref.ask("dir") if ref is not None and ref.peer.role == "tests" else None
        listed = [n for n in names if type(n) is str] if type(names) is list else []
        return sorted(set(type.__dir__(cls)) | set(listed))

    def __call__(cls, *args: object, **kwargs: object) -> object:
        own = _class_ref(cls, own=True)
        abstract = type.__dict__["__dict__"].__get__(cls).get("__abstractmethods__") if own is None else None
        if abstract:  # a test's class on the code's abstract one, with abstract methods of its own or left
            names = sorted(str(n) for n in abstract)
            raise TypeError(f"Can't instantiate abstract class {cls.__name__} with abstract method"
                            f"{'s' if len(names) > 1 else ''} {', '.join(names)}")
        return call_through(own or _made_ref(cls), args, kwargs)

    def __iter__(cls):
        found = _class_ref(cls).ask("iter")
        return found if hasattr(type(found), "__next__") else iter(found)

    def __reversed__(cls):
        found = _class_ref(cls).ask("reversed")  # reversed(Color): an Enum's members, last first
        return found if hasattr(type(found), "__next__") else iter(found)

    def __bool__(cls) -> bool:
        return True

    def __len__(cls) -> int:
        value = _class_ref(cls).ask("len")
        return value if type(value) is int else 0

    def __contains__(cls, item: object) -> bool:
        ref = _class_ref(cls)
        return ref.ask("contains", ref.peer.encode(item)) is True

    def __getitem__(cls, key: object) -> object:
        ref = _class_ref(cls)
        return ref.ask("getitem", ref.peer.encode(key))

    def __repr__(cls) -> str:
        return f"<class '{cls.__module__}.{cls.__qualname__}'>"


def _made_ref(cls: type, keywords: dict | None = None) -> Ref:
    """The code's subclass standing for a class the tests derived from a mirror (subclassing.py)."""
    import subclassing

    for base in cls.__mro__[1:]:
        ref = type.__dict__["__dict__"].__get__(base).get("_sbx_class_ref")
        if type(ref) is Ref:
            return subclassing.made_class(cls, base, ref, keywords)
    raise TypeError(f"{cls.__name__} has no class of the other process among its bases")


def _ref_for(cls: type, base_ref: Ref) -> Ref:
    """Whom a class attribute of cls is asked of: a mirror's own class; for a class of this side's deriving from a
    mirror (Tri(Shape)), the class made there for it, so that the other side's classmethod gets it as cls
    (Tri.describe() reads Tri.sides, Tri.create() makes a Tri); where that cannot be made, the base's, as before."""
    if _class_ref(cls, own=True) is not None:
        return base_ref
    try:
        return _made_ref(cls)
    except Exception:
        return base_ref


def _init_subclass(cls: type, **keywords: object) -> None:
    """A class of the tests' deriving from a mirror with keywords in its class statement (``class Echo(Plugin,
    name='echo')``): the code's class for it is made now, with them, as one process runs the base's
    ``__init_subclass__`` as the statement ends (a registry of plugins); what that raises ends the tests' load, as it
    would there. Without keywords it is made at first use, as before (making it at once would freeze the class
    before a test adds or patches a method: docs/sandbox.md)."""
    if "_sbx_class_ref" in type.__dict__["__dict__"].__get__(cls):
        return  # a mirror being made: its abstract methods are the other side's (class_data.hold)
    if keywords:
        _made_ref(cls, keywords)
    _abstract_as_abcmeta_would(cls)


def _abstract_as_abcmeta_would(cls: type) -> None:
    """A class of the tests' on the code's abstract class is made here by type, not ABCMeta: its abstract methods
    worked out as ABCMeta would (the base's that it leaves abstract, and its own), so inspect.isabstract(Tri) and
    Tri.__abstractmethods__ read as in one process, and constructing one that has any is refused (RemoteType.__call__):
    the code's class made for it knows only its own abstract methods."""
    import abc

    if not any(type.__dict__["__dict__"].__get__(base).get("__abstractmethods__") for base in cls.__bases__):
        return
    type.__setattr__(cls, "__abstractmethods__", frozenset())  # update_abstractmethods reads a class ABCMeta made
    abc.update_abstractmethods(cls)


def _checks_of(cls: type) -> str | None:
    """How the other side's class decides isinstance (encoding's "checks"): "classes" (ABCMeta's registry and
    hook read the object's class), "objects" (a Protocol, a metaclass of its own), None (by the order here)."""
    return type.__dict__["__dict__"].__get__(cls).get("_sbx_checks")


_EXCEPTION_CLAIMED = ("the code's class says an exception class it does not derive from is its subclass (an "
                      "issubclass its metaclass or the code's process answered): pytest.raises and except would "
                      "take that exception for the code's")


def _yes(ref: Ref, answer: object, exception: bool) -> bool:
    """The other side's answer to a check, True only for True; a yes that makes an exception the other side's
    class's, which its order here does not, is noted as a limit, so the test never passes on it (not judged, or
    failed): pytest.raises(NotFound) would swallow a failing assert."""
    if answer is not True:
        return False
    if exception:
        unsupported.note(_EXCEPTION_CLAIMED)
    return True


def _crossing(peer: object, kind: object) -> type | None:
    """The first class of kind's order that reaches the other side as a class (the ValueError of an exception the
    code raised, which arrives as a class of this side's standing for it); what an ABC's registry reads of it."""
    if not isinstance(kind, type):
        return None
    return next((c for c in type.__dict__["__mro__"].__get__(kind) if peer.sends_as_class(c)), None)


def _asked_of_class(cls: type, sub: object) -> bool:
    """issubclass(sub, cls), asked of cls's side where its metaclass decides and sub reaches it as a class (a
    builtin type, this side's own class, a mirror of theirs); a class of a third party's (numpy's, mock's,
    pytest's harness) would reach it as an object, which issubclass refuses: no there, as the order here says."""
    if _checks_of(cls) is None or not isinstance(sub, type):
        return False
    ref = type.__dict__["__dict__"].__get__(cls)["_sbx_class_ref"]
    peer = ref.peer
    if not peer.sends_as_class(sub):
        return False
    return _yes(ref, ref.ask("issubclass", peer.encode(sub)), issubclass(sub, BaseException))


def _class_ref(cls: type, own: bool = False) -> Ref | None:
    for klass in (cls,) if own else cls.__mro__:
        found = type.__dict__["__dict__"].__get__(klass).get("_sbx_class_ref")
        if type(found) is Ref:
            return found
    return None


_value_cores: dict[tuple, type] = {}  # (value type, standard enum or None) -> its core
_value_types: dict[type, type] = {}  # a value core -> its value type
_exception_cores: dict[type, type] = {}


def _value_core(base: type, enum_base: type | None = None) -> type:
    """Proxy behaviour for objects that are values of base: attributes and text from the other side, the rest
    (comparisons, hashing, arithmetic, iteration) from base itself, on the data read when the object crossed.
    enum_base: the standard enum an int or str enum of the other side's derives from (IntEnum, StrEnum, IntFlag, or
    Enum beside its value type), a real base of the core, so isinstance(member, Enum) holds; its metaclass's own
    class creation is not run (standard_bases.py hides what the enum defines)."""
    core = _value_cores.get((base, enum_base))
    if core is None:
        namespace = {"__getattr__": _getattr, "__repr__": _repr, "__str__": _str, "__format__": _format,
                     "__copy__": _keep, "__deepcopy__": _keep, "__module__": "sandbox"}
        name = f"{(enum_base or base).__name__}Proxy"
        if enum_base is None:
            core = type(name, (Proxy, base), namespace)
        else:
            bases = (Proxy, enum_base) if issubclass(enum_base, base) else (Proxy, base, enum_base)
            core = type.__new__(_mirror_type(bases), name, bases, namespace)
        _value_cores[(base, enum_base)] = core
        _value_types[core] = base
    return core


_object_enum_cores: dict[type, type] = {}


def _object_enum_core(enum_base: type) -> type:
    """An object proxy that is an enum_base (Enum, Flag) to isinstance, issubclass, singledispatch and type(Cls):
    a mirror of the other side's Enum derives from it, made as any class (standard_bases.py hides what the enum
    defines)."""
    core = _object_enum_cores.get(enum_base)
    if core is None:
        bases = (ObjectProxy, enum_base)
        # Its __dict__ is the other side's object's (vars(Color.RED)), as an object proxy's is.
        namespace = {"__module__": "sandbox", "__dict__": standard_bases.hidden("__dict__")}
        core = type.__new__(_mirror_type(bases), f"{enum_base.__name__}Proxy", bases, namespace)
        _object_enum_cores[enum_base] = core
    return core


def _standard_enum(standard: tuple, value: type) -> type | None:
    """The most derived standard enum among a value class's standard bases whose layout takes value's."""
    import enum

    for klass in standard:
        own_data = all(k is object or k.__module__ != "builtins" for k in klass.__mro__)  # Enum, Flag: no value type
        if isinstance(klass, enum.EnumType) and (issubclass(klass, value) or own_data):
            return klass
    return None


def _exception_core(base: type) -> type:
    core = _exception_cores.get(base)
    if core is None:
        namespace = {"__getattr__": _getattr, "__module__": "solution", "__str__": _remote_str}
        core = type(base.__name__, (base, RemoteError), namespace)
        _exception_cores[base] = core
    return core


def _builtin_exception(name: str) -> type:
    """The builtin exception class named, of the Exception family or SystemExit (the code's sys.exit() or argparse's
    error is one a test may catch; a test that lets it through fails, as in pytest); else Exception."""
    found = getattr(builtins, name, None)
    if isinstance(found, type) and (issubclass(found, Exception) or found is SystemExit):
        return found
    return Exception


def make_mirror(peer: object, handle: int, name: str, qualname: str, bases: list[type], info: dict) -> type:
    """This side's class for the other side's class (handle): a subclass of the mirrors of its bases, with the
    behaviour of its kind (value, container, exception or object) and the protocols its class has."""
    if info["exception"] is not None:
        core = _exception_core(_builtin_exception(info["exception"]))
    elif info["value"] is not None:
        core = _value_core(info["value"], _standard_enum(info["standard_bases"], info["value"]))
    elif info["container"] is not None:
        core = ContainerProxy
    else:
        core = ObjectProxy
    ref = Ref(peer, handle, f"<class {name}>")
    namespace: dict = {"__module__": "solution" if peer.role == "tests" else "tests", "__qualname__": qualname,
                       "__doc__": introspection.RemoteDoc(ref) if peer.role == "tests" else None,
                       "_sbx_class_ref": ref}
    if peer.role == "tests":
        namespace["__annotations__"] = introspection.RemoteAnnotations(ref)
        namespace["__init_subclass__"] = classmethod(_init_subclass)
    if core in (ObjectProxy, ContainerProxy):
        if info["weak"]:  # a class of __slots__ without __weakref__ is held for the run, as it takes no weak reference
            namespace.update(watching.held_weakly(bases))
        namespace.setdefault("__slots__", ())
        skip = frozenset({"__hash__"}) if core is ContainerProxy else frozenset()
        namespace.update(protocol_methods(info["caps"], skip))
    shadow = None
    if core is ContainerProxy:
        # isinstance(d, dict) holds for an object of the code's dict subclass, as in one process: what it says its
        # class is, is a class of this side's with the same standard base (type(d) stays the mirror, so
        # isinstance(d, AttrDict) holds too; a mirror cannot derive from dict itself, its layout is a proxy's).
        shadow = type(name, (info["container"],), {"__module__": namespace["__module__"], "__qualname__": qualname})
        namespace["__class__"] = property(lambda self, shadow=shadow: shadow)
    elif core is ObjectProxy:
        # A class that keeps a standard ABC's __eq__ compares by its data; one that overrides it (below a mirror
        # that keeps it) is an object of the other side's again.
        copy_here = standard_abcs.COPIES.get(info.get("eq_by"))
        namespace.update({n: by_data(n, copy_here) if copy_here else _compare(n) for n in ("__eq__", "__ne__")})
        namespace["_sbx_standard_copy"] = staticmethod(copy_here) if copy_here else None
    elif core in _value_types:
        namespace.update(protocol_methods(info["caps"] - set(dir(info["value"])), frozenset({"__hash__", "__bool__"})))
        # The class's own methods that its value type has too (FakeDT.now, a test's stand-in that fixes the clock):
        # asked of the other side, where lookup would otherwise find the value type's own first.
        overrides = [n for n in info.get("overrides", ()) if callable(getattr(info["value"], n, None))]
        namespace.update({n: _Operator(n) if n in VALUE_DUNDERS else _Overridden(n) for n in overrides
                          if n not in ("__eq__", "__ne__")})
        # Its own == and != (a text that compares ignoring case): asked of its side as an object's are; its no stands,
        # and its yes where the value type's rule says yes too (else the test is not judged). Its hash stays the
        # value type's (a class that defines __eq__ alone would lose it).
        if "__eq__" in overrides:
            namespace["__eq__"] = _value_eq(info["value"])
        if "__ne__" in overrides:
            namespace["__ne__"] = _compare("__ne__")
        if "__eq__" in overrides or "__ne__" in overrides:
            namespace["__hash__"] = info["value"].__hash__
    if info["match_args"] is not None:
        namespace["__match_args__"] = info["match_args"]  # ``case Point(x, y)`` reads the fields by these names
    for index, field in enumerate(info["fields"]):
        namespace[field] = property(operator.itemgetter(index))
    if info["dataclass"]:
        namespace["__dataclass_fields__"] = (introspection.RemoteFields(ref) if peer.role == "tests"
                                             else _dataclass_fields(info["dataclass"]))
    if core is ObjectProxy and (enum_base := _standard_enum(info["standard_bases"], object)) is not None:
        core = _object_enum_core(enum_base)  # an Enum or Flag of the other side's: a real one here (EnumType's)
    own = tuple(bases) if any(issubclass(b, core) for b in bases) else (*bases, core)
    cls = _made_mirror(name, own, namespace, info["standard_bases"])
    if cls is None:  # bases whose layouts or orders cannot be combined here: keep the kind, lose the bases
        cls = _made_mirror(name, (core,), namespace, info["standard_bases"]) or _mirror_type((core,))(
            name, (core,), namespace)
    class_data.hold(cls, info["class_data"])
    coroutine = {"__await__", "send", "throw"} <= info["caps"]
    registered = coroutine or bool(info.get("abcs"))
    if coroutine:
        collections.abc.Coroutine.register(cls)
    for abc in info.get("abcs", ()):
        standard_abcs.STANDARD_ABCS[abc].register(cls)  # isinstance(f, Mapping) of the code's Mapping
    if info["checks"] in ("classes", "objects") and not registered:
        # Not for a mirror registered in a standard ABC above: isinstance(x, Mapping) anywhere in this process then
        # asks it about x's class, where in one process the code's class (a subclass, not a registered one) is never
        # asked (a TypedDict's refuses every check). Set last: register() itself asks issubclass(Mapping, cls).
        type.__setattr__(cls, "_sbx_checks", info["checks"])
    if shadow is not None:
        # What the object says its class is stands for the mirror: d.__class__(...) makes one of the code's,
        # issubclass(d.__class__, Record) holds (RemoteType.__subclasscheck__).
        shadow.__new__ = staticmethod(lambda _cls, *args, **kwargs: cls(*args, **kwargs))
        shadow._sbx_mirror = cls
    return cls


def _made_mirror(name: str, bases: tuple, namespace: dict, standard: tuple) -> type | None:
    """A mirror on bases, with the other side's standard bases in its order where they can be (standard_bases.py),
    else without them; None where the bases themselves cannot be combined."""
    if standard:
        try:
            value = any(issubclass(b, core) for b in bases for core in _value_types)
            made = _mirror_type(bases)(name, bases, standard_bases.namespace_with(standard, bases, namespace,
                                                                                   _forwarded, value))
            if standard_bases.sound(made, standard):
                return made
        except TypeError:  # a standard base whose layout is not a proxy's (a C type's): the mirror goes without
            pass
    try:
        return _mirror_type(bases)(name, bases, namespace)
    except TypeError:
        return None


def _forwarded(name: str) -> object:
    """A standard base's special method, asked of the other side's object (None for a name that is none)."""
    return _Operator(name) if name in VALUE_DUNDERS else None


_joined_types: dict[tuple, type] = {}


def _joined_with(kind: type) -> dict:
    """What a mirror's metaclass joined with a standard one has of its own: with an enum's (an IntEnum member's
    value core), a class is made as any class is (EnumType's would gather members from the body) and its
    __members__ are the other side's."""
    import enum

    if not issubclass(kind, enum.EnumType):
        return {}
    return {"__new__": type.__new__, "__members__": property(lambda cls: RemoteType.__getattr__(cls, "__members__"))}


def _mirror_type(bases: tuple) -> type:
    """RemoteType, joined with the metaclass a base has of its own (a Fraction's is ABCMeta): a class's metaclass
    must derive from each of its bases'."""
    meta = RemoteType
    for base in bases:
        kind = type(base)
        if issubclass(meta, kind):
            continue
        if issubclass(kind, meta):
            meta = kind
            continue
        joined = _joined_types.get((meta, kind))
        if joined is None:
            joined = _joined_types[(meta, kind)] = type(f"Remote{kind.__name__}", (meta, kind), _joined_with(kind))
        meta = joined
    return meta


class _Overridden:
    """A method of the other side's value class that overrides its value type's: asked of the other side, on the
    class (a classmethod: ``FakeDT.now()``) or on the object."""

    def __init__(self, name: str) -> None:
        self.name = name

    def __get__(self, obj: object, cls: type | None = None) -> object:
        if obj is None:
            return _ref_for(cls, _class_ref(cls)).ask("getattr", self.name)
        return _ask(obj, "getattr", self.name)


def _own_op(proxy: object, name: str, *args: object) -> object:
    """The other side's object's own method name (an ordering, !=, a value class's operator) on args, not
    reflected: its answer, or NotImplemented (Python then goes on to the reflected operand's here)."""
    found = _ask(proxy, "own_op", name, *(_encode(proxy, arg) for arg in args))
    if type(found) is not tuple or len(found) != 2:
        raise TypeError(f"{name} of the other side gave no answer")
    return found[1] if found[0] else NotImplemented


def _value_eq(value_type: type):
    def __eq__(self, other: object) -> object:
        answer = _ask(self, "own_eq", _encode(self, other))
        if answer is None:
            return NotImplemented
        if not answer or _ref(self).peer.role != "tests" or value_type.__eq__(self, other) is True:
            return bool(answer)
        raise unsupported.Unsupported(unsupported.EQUAL_BY_THE_CODE)
    return __eq__


class _Operator:
    """An operator or protocol method of the other side's value class over its value type's (Cents.__add__,
    Flag.__bool__): the method of the other side's class, on the other side; where it says NotImplemented, Python
    goes on to the reflected operand's here."""

    def __init__(self, name: str) -> None:
        self.name = name

    def __get__(self, obj: object, cls: type | None = None) -> object:
        if obj is None:
            return self
        return functools.partial(_own_op, obj, self.name)


def _dataclass_fields(names: list[str]) -> dict:
    import dataclasses

    found = {}
    for name in names:
        field = dataclasses.field()
        field.name = name
        field._field_type = dataclasses._FIELD
        found[name] = field
    return found


_generic: dict[tuple, type] = {}


def generic(ref: Ref, caps: frozenset, names: dict) -> object:
    """A proxy for an object of a class the other side did not define itself (a generator, a bound method)."""
    ref.names = names
    key = (names.get("type", "object"), caps)
    cls = _generic.get(key)
    if cls is None:
        namespace = {"__slots__": (), **protocol_methods(caps), **watching.held_weakly(())}
        if ref.peer.role == "tests" and key[0] in introspection.CLASS_OF:
            # isinstance(f, types.FunctionType), so inspect.isfunction and ismethod, as for the code's own function
            namespace["__class__"] = property(lambda self, cls=introspection.CLASS_OF[key[0]]: cls)
        cls = type(str(key[0]), (ObjectProxy,), namespace)
        # After the class is made (type() reads __module__ as a string): an instance says the other side's module
        # and docstring, as a function of the code's would (sys.modules[f.__module__] is the solution module).
        cls.__module__ = property(lambda self: _ref(self).names.get("module"))
        cls.__doc__ = property(lambda self: _ref(self).names.get("doc"))
        if {"__await__", "send", "throw"} <= caps:
            collections.abc.Coroutine.register(cls)
        _generic[key] = cls
    made = object.__new__(cls)
    object.__setattr__(made, "_sbx_ref", ref)
    return made


# Generators, coroutines and async generators of the other side are real ones here (isinstance(g,
# types.GeneratorType), asyncio.run, inspect.iscoroutine), each stepping the other side's through requests.
_wrapped: dict[int, tuple[object, Ref]] = {}


def wrapped(kind: str, ref: Ref) -> object:
    """A real generator, coroutine or async generator of this side that forwards to the other side's (ref)."""
    if kind == "generator":
        made = _forward_generator(ref)
    elif kind == "coroutine":
        made = _forward_coroutine(ref)
    else:
        made = _forward_async_generator(ref)
    _wrapped[id(made)] = (made, ref)
    return made


def _forward_generator(ref: Ref):
    sent = thrown = None
    while True:
        try:
            if thrown is not None:
                item = ref.ask("throw", ref.peer.encode(thrown))
            else:
                item = ref.ask("next") if sent is None else ref.ask("send", ref.peer.encode(sent))
        except StopIteration as stop:
            return stop.value  # the other side's generator's return value, for ``yield from``
        sent = thrown = None
        try:
            sent = yield item
        except GeneratorExit:
            # g.close() closes the other side's generator too: its finally runs, what it raises comes here
            if not ref.peer.dead:
                ref.ask("close")
            raise
        except BaseException as exc:  # g.throw(exc): thrown into the other side's generator, as one process would
            thrown = exc


async def _forward_coroutine(ref: Ref) -> object:
    if not steps_on_one_loop(ref.peer):
        return await _Pending(ref)
    # One event loop, the tests': each step of the other side's coroutine is a request, and what it yields (a future
    # of that loop, or None for a bare yield) is yielded to the task that steps this one. Its sleeps, locks and tasks
    # then interleave with the tests' coroutines, and a timeout of theirs cancels it, as in one process.
    sent: object = None
    thrown: BaseException | None = None
    while True:
        try:
            if thrown is not None:
                kind, value = ref.ask("step", "throw", ref.peer.encode(thrown))
            else:
                kind, value = ref.ask("step", "send", ref.peer.encode(sent))
        except RemoteError as exc:
            here = _cancelled_as_here(exc)
            if here is exc:
                raise
            raise here from None
        if kind == "return":
            return value
        sent, thrown = None, None
        try:
            sent = await _Yielded(value)
        except GeneratorExit:  # closed: the other side's coroutine is closed too (its finally runs)
            if not ref.peer.dead:
                ref.ask("close")
            raise
        except BaseException as exc:  # a cancellation, or what the future it waited for raised
            thrown = exc


class _Yielded:
    """What the other side's coroutine yielded, yielded here to the task stepping it."""

    __slots__ = ("value",)

    def __init__(self, value: object) -> None:
        self.value = value

    def __await__(self):
        return (yield self.value)


def steps_on_one_loop(peer: object) -> bool:
    """Whether coroutines of the other side's are stepped on the event loop running here, one step a request: the
    tests' own loop, or in the code's process, the tests' loop it is serving a request of (candidate.py sets it as
    the running loop). Elsewhere (the code's own asyncio.run) each await runs the other side's to its end there."""
    loop = _running_loop()
    if loop is None:
        return False
    ref = ref_of(loop)
    if peer.role == "tests":
        return ref is None
    return ref is not None and ref.peer is peer


def step_here(peer: object, coroutine: object, mode: object, value: object) -> tuple:
    """One step of this side's coroutine, asked by the other side's task that steps it: ("yield", what it yielded)
    or ("return", its result)."""
    if not isinstance(coroutine, (types.CoroutineType, types.GeneratorType)) and not hasattr(coroutine, "send"):
        raise TypeError("only a coroutine is stepped")
    try:
        if mode == "throw":
            if not isinstance(value, BaseException):
                raise TypeError("exceptions must derive from BaseException")
            yielded = coroutine.throw(_cancelled_as_here(value))
        else:
            yielded = coroutine.send(value)
    except StopIteration as stop:
        return ("return", stop.value)
    return ("yield", yielded)


def _cancelled_as_here(exc: BaseException) -> BaseException:
    """The other side's asyncio.CancelledError (its stand-in here: _standard_exception) as this side's own class:
    the task that steps a coroutine, and code that compares the class (asyncio.timeout's ``exc_type is
    CancelledError``), read it by its very class. Never a class of the code's that is only named so."""
    import sys

    asyncio = sys.modules.get("asyncio")
    if asyncio is not None and isinstance(exc, RemoteError) and isinstance(exc, asyncio.CancelledError):
        return asyncio.CancelledError(*exc.args)
    return exc


async def _forward_async_generator(ref: Ref):
    sent = thrown = None
    while True:
        try:
            if thrown is not None:  # athrow(exc), asend(value): taken to the other side's, as one process would
                item = ref.ask("athrow", ref.peer.encode(thrown))
            elif sent is not None:
                item = ref.ask("asend", ref.peer.encode(sent))
            elif steps_on_one_loop(ref.peer):
                item = await ref.ask("anext_unrun")
            else:
                item = await _Pending(ref, "anext")
        except StopAsyncIteration:
            return
        sent = thrown = None
        try:
            sent = yield item
        except GeneratorExit:  # aclose() closes the other side's async generator too: its finally runs
            if not ref.peer.dead:
                ref.ask("aclose")
            raise
        except BaseException as exc:
            thrown = exc


class _Pending:
    """Awaiting one of the tests' awaitables from inside an event loop of the code's own (its asyncio.run; on the
    tests' loop each is stepped there: steps_on_one_loop): the awaits that tasks of this loop start together
    (asyncio.gather) go to the other side as one request, which runs them together there, so they overlap as they
    would in one process."""

    def __init__(self, ref: Ref, op: str = "await") -> None:
        self.ref, self.op = ref, op

    def __await__(self):
        import asyncio

        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:
            return self.ref.ask(self.op)
        future = loop.create_future()
        batch = _batches.setdefault(id(loop), [])
        batch.append((self, future))
        if len(batch) == 1:
            loop.call_soon(_send_batch, loop)
        return (yield from future)


_batches: dict[int, list] = {}


def _send_batch(loop: object) -> None:
    batch = _batches.pop(id(loop), [])
    if not batch:
        return
    peer = batch[0][0].ref.peer
    try:
        outcomes = peer.request("await_all", ("h", 0), [(p.op, p.ref.handle) for p, _ in batch])
    except BaseException as exc:  # the other side died, or the batch could not be sent: every await fails so
        outcomes = [(False, exc)] * len(batch)
    for (_, future), outcome in zip(batch, outcomes if type(outcomes) is list else []):
        if future.cancelled():
            continue
        ok, value = outcome if type(outcome) is tuple and len(outcome) == 2 else (False, TypeError("garbled"))
        if ok is True:
            future.set_result(value)
        elif isinstance(value, StopIteration):  # a future cannot hold one: say what happened
            future.set_exception(RuntimeError("the coroutine raised StopIteration"))
        else:
            future.set_exception(value if isinstance(value, BaseException) else TypeError(str(value)))


def await_all(objects: list) -> list:
    """Run awaitables of this side together to their ends (the other side's batch): [(True, result) or
    (False, exception)] in order."""
    import asyncio

    async def each(awaitable: object) -> tuple:
        try:
            return (True, await awaitable)
        except Exception as exc:
            return (False, exc)

    async def together() -> list:
        return list(await asyncio.gather(*(each(a) for a in objects)))

    return run_to_end(together())


def instance(cls: type, ref: Ref, data: object) -> object:
    """An object of mirror class cls for ref: for a value class, made from data (the value as the standard type
    read it on the other side)."""
    if issubclass(cls, BaseException):
        made = cls.__new__(cls)
        made.args = ()
        made.__dict__["_sbx_ref"] = ref
        return made
    base = next((b for core, b in _value_types.items() if issubclass(cls, core)), None)
    if base is None:
        try:
            made = object.__new__(cls)
        except TypeError:
            if not class_data.made_concrete(cls):
                raise
            made = object.__new__(cls)
        object.__setattr__(made, "_sbx_ref", ref)
        return made
    made = _new_value(cls, base, data)
    made.__dict__["_sbx_ref"] = ref
    return made


def _new_value(cls: type, base: type, data: object) -> object:
    from values import datetime  # the classes as loaded, whatever a test patched since

    if type(data) is not base and not (base is tuple and type(data) is tuple):
        raise TypeError(f"a {base.__name__} value arrived as {type(data).__name__}")
    if base is datetime.datetime:
        return base.__new__(cls, data.year, data.month, data.day, data.hour, data.minute, data.second,
                            data.microsecond, data.tzinfo, fold=data.fold)
    if base is datetime.date:
        return base.__new__(cls, data.year, data.month, data.day)
    if base is datetime.time:
        return base.__new__(cls, data.hour, data.minute, data.second, data.microsecond, data.tzinfo, fold=data.fold)
    if base is datetime.timedelta:
        return base.__new__(cls, data.days, data.seconds, data.microseconds)
    if base.__name__ == "Fraction":
        return base.__new__(cls, data.numerator, data.denominator)
    return base.__new__(cls, data)


def _standard_exception(qualified: str | None) -> type | None:
    """A standard library's exception class by its qualified name (dataclasses.FrozenInstanceError, and asyncio's
    CancelledError though a BaseException), when its module is loaded here already (this side never imports a module
    because the other side named it)."""
    import sys

    module, _, name = (qualified or "").rpartition(".")
    top = module.split(".")[0]
    if top not in sys.stdlib_module_names or top in standard_bases.HARNESS_MODULES or name.startswith("_"):
        return None
    loaded = sys.modules.get(module)
    found = loaded.__dict__.get(name) if isinstance(loaded, types.ModuleType) else None  # never a __getattr__ of its
    if not isinstance(found, type) or top == "builtins":  # builtins are their family's (_builtin_exception)
        return None
    return found if issubclass(found, Exception) or qualified == _CANCELLED else None


# asyncio's CancelledError, the one BaseException of the standard library's that crosses as itself: a task of the
# tests' stepping a coroutine of the code's must see its cancellation as one.
_CANCELLED = "asyncio.exceptions.CancelledError"


def remote_exception(peer: object, base_name: str, message: str, ref: Ref | None, type_name: str | None = None,
                     qualified: str | None = None, group: list | None = None, exact: bool = False) -> BaseException:
    """An exception of the other side's, as one of this side's classes of the same family (the standard library's
    class it was, or its nearest builtin one), named as the other side named it, which ``except`` and
    ``pytest.raises`` match by that family. group: an exception group's exceptions, rebuilt. exact: it was of the
    builtin class base_name itself, as one raised by the standard library is of the class qualified names: its
    class here then stands for that one (StandInType)."""
    standard = _standard_exception(qualified)
    base = standard or _builtin_exception(base_name)
    if issubclass(base, BaseExceptionGroup):
        return _remote_group(base, message, group or [], ref)
    name = type_name or base.__name__
    stands_in = (base is standard or exact) and name == base.__name__  # pytest.raises's .type is that very class
    key = (name, base, stands_in)  # a JSONDecodeError sent as a value is named ValueError too, and is none
    cls = _named_errors.get(key)
    if cls is None:
        namespace = {"__module__": "solution" if peer.role == "tests" else "tests", "__getattr__": _getattr,
                     "__str__": _remote_str}
        if stands_in:
            cls = StandInErrorType(name, (base, RemoteError), {**namespace, "_sbx_base": base,
                                                              "__module__": base.__module__})
        else:
            cls = type(name, (base, RemoteError), namespace)
        _named_errors[key] = cls
    made = cls.__new__(cls)
    made.args = (message,)
    if ref is not None:
        made.__dict__["_sbx_ref"] = ref
    return made


_named_errors: dict[tuple, type] = {}


def _remote_group(base: type, message: str, group: list, ref: Ref | None) -> BaseException:
    # A group is built from its message and exceptions (ExceptionGroup's __new__ checks both); one that holds a
    # BaseException only is a BaseExceptionGroup, as Python makes it.
    if base is ExceptionGroup and not all(isinstance(e, Exception) for e in group):
        base = BaseExceptionGroup
    made = base(message, group or [Exception(message)])
    if ref is not None:
        made.__dict__["_sbx_ref"] = ref
    return made


def run_to_end(awaitable: object) -> object:
    """Run an awaitable of this side to its end on a fresh event loop (this process may be inside another one's
    run: the tests' asyncio.run waiting on the code, which awaits a coroutine of the tests)."""
    import asyncio
    import asyncio.events

    async def main() -> object:
        return await awaitable

    running = asyncio.events._get_running_loop()
    loop = asyncio.new_event_loop()
    asyncio.events._set_running_loop(None)
    try:
        return loop.run_until_complete(main())
    finally:
        asyncio.events._set_running_loop(running)
        loop.close()
