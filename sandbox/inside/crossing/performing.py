"""Performing one request of the other side: the operation on its target, and what the request's arguments became
(their in-place changes travel back; the containers the code kept are linked, linking.py).

Runs inside the sandbox (stdlib only), in both processes; peer.py's Peer.serve calls perform.
"""

from __future__ import annotations

import marshal
import sys
import traceback
import types

import collecting
import deepcopy_memos
import linking
import harness_guard
import proxies
import sharing
import standard_abcs
import standard_objects
import values
from kinds import as_list, read_as
from values import VALUE_DUNDERS

# The descriptors of builtin types (a frame's f_globals, a slot): their __get__ reads what getattr may not.
_C_DESCRIPTORS = (types.GetSetDescriptorType, types.MemberDescriptorType, types.WrapperDescriptorType,
                  types.MethodDescriptorType, types.ClassMethodDescriptorType, types.MethodWrapperType)

_NESTED_ITEMS = 256  # the items of the lists inside one argument that a call may link (read with every message)


def perform(peer: object, op: str, target: object, args: tuple) -> tuple[object, list | None]:
    """(result, the call's arguments that changed in place), for one request of the other side."""
    if not args:
        peer.calls.request_dropped = None  # nothing to read (next(it)): what the request let go of goes now
    if op == "collect":
        return collecting.collect_here(peer, args), None
    if op == "await_all":
        obj = None
    else:
        obj = peer.hooks.resolve(target) if type(target) is tuple and target[:1] != ("h",) else peer.exports[target[1]]
        peer.hooks.check_touch(obj)
    if op == "call":
        return _call(peer, obj, args)
    if op == "getattr":
        name = args[0]
        if type(name) is not str or not peer.hooks.may_read(obj, name):
            raise AttributeError(name)
        value = getattr(obj, name)
        if peer.role == "tests":  # the tests' loop runs only what the code may have run there (harness_guard.py)
            value = harness_guard.as_handed(obj, name, value, peer.hooks)
            if name == "__dict__" and hasattr(value, "items"):
                # a copy without what a private name holds of the harness (a TestCase's _outcome, a fixture's
                # resolver), which would cross as a live proxy; a dataclass's private date or child stays
                value = {k: v for k, v in value.items()
                         if not (type(k) is str and k.startswith("_")) or not _harness_inside(v)}
        return value, None
    if op in ("setattr", "delattr"):
        name = args[0]
        if type(name) is not str or not peer.hooks.may_change(obj, name):
            raise AttributeError(f"the code under test may not change {name!r} of an object of the tests")
        if op == "setattr":
            value = peer.decode(args[1])
            if isinstance(obj, type) and peer.role == "code":
                value = _as_method(value)
            setattr(obj, name, value)
            _keep(peer, -1, args[1], value)
        else:
            delattr(obj, name)
        return None, None
    if op == "setitem" and len(args) == 2:
        value = peer.decode(args[1])
        obj[peer.decode(args[0])] = value
        _keep(peer, -1, args[1], value)
        return None, None
    if op == "dir" and peer.role != "code":
        raise AttributeError("the code under test may not list the names of the tests' objects")
    if op in _ONE_ARG:
        return _ONE_ARG[op](obj, *(peer.decode(a) for a in args)), None
    if op == "op":
        name = args[0]
        if name not in proxies.OPERATORS:
            raise ValueError(f"unknown operator {name!r}")
        return proxies.OPERATORS[name](obj, *(peer.decode(a) for a in args[1:])), None
    if op == "descriptor" and args and args[0] in proxies.DESCRIPTOR_METHODS:
        if peer.role == "tests" and isinstance(obj, _C_DESCRIPTORS):
            raise TypeError("the code may not use a builtin type's descriptor of the tests'")
        return getattr(type(obj), args[0])(obj, *(peer.decode(arg) for arg in args[1:])), None
    if op == "own_eq":  # the object's own __eq__, not reflected (proxies._compare): None for NotImplemented
        answer = type(obj).__eq__(obj, peer.decode(args[0]))
        return (None if answer is NotImplemented else bool(answer)), None
    if op == "own_op" and args and (args[0] in proxies.ONE_SIDED or args[0] in VALUE_DUNDERS):
        # its own != or ordering, or a value class's own operator (proxies._Operator), not reflected
        answer = getattr(type(obj), args[0])(obj, *(peer.decode(arg) for arg in args[1:]))
        return ((False, None) if answer is NotImplemented else (True, answer)), None
    if op == "await":
        return proxies.run_to_end(obj), None
    if op == "step" and len(args) == 2:  # one step of a coroutine, on the tests' loop (proxies._forward_coroutine)
        return proxies.step_here(peer, obj, args[0], peer.decode(args[1])), None
    if op == "await_iter":  # a future awaited on the tests' loop: its own __await__ steps (proxies._await_steps)
        return obj.__await__(), None
    if op == "await_all":
        outcomes = proxies.await_all(_awaitables(peer, args[0]))
        for ok, value in outcomes:  # the code's gather hands back what they raised: a check it then hides is seen
            if ok is not True and isinstance(value, BaseException):
                peer.hooks.raised(value)
        return outcomes, None
    if op == "send":
        return obj.send(peer.decode(args[0])), None
    if op == "throw":  # g.throw(exc) of this side's generator, stepped by the other side (proxies._forward_generator)
        thrown = peer.decode(args[0])
        if not isinstance(thrown, BaseException):
            raise TypeError("exceptions must derive from BaseException")
        return obj.throw(thrown), None
    if op == "close":
        return obj.close(), None
    if op in ("copy", "deepcopy"):
        import copy

        if op == "deepcopy" and args:
            memo = deepcopy_memos.memo_of(peer.decode(args[0]))  # a token this side made, never a dict
            if memo is not None:
                return copy.deepcopy(obj, memo), None
        return (copy.copy if op == "copy" else copy.deepcopy)(obj), None
    if op == "deepcopy_memo":
        back = peer.decode(args[0]) if args else None
        ref = proxies.ref_of(back)
        theirs = ref is not None and ref.peer is peer  # the other side's own token's proxy, never one of this side's
        return deepcopy_memos.far_token(peer, back if theirs else None), None
    if op == "data":
        base = values.container_base(type(obj)) or values.value_base(type(obj))
        if base is not None:
            return read_as(base, obj), None
        if values.is_plain_array(obj):
            return obj.copy(), None
        if standard_objects.name_of(obj):
            return standard_objects.data_of(obj), None
        kind = standard_abcs.standard_eq(type(obj))
        return standard_abcs.eq_data(kind, obj) if kind else None, None
    return peer.hooks.perform(op, obj, args), None


def _harness_inside(value: object) -> bool:
    """Whether value is the harness's, or an object of a class private to its module (unittest's _Outcome)."""
    return harness_guard.is_the_harness(value) or getattr(type(value), "__name__", "").startswith("_")


def _as_method(value: object) -> object:
    """A function of the tests' set on a class of the code's (monkeypatch.setattr(Service, 'load', lambda self: ...)),
    as a function of this side: an object of the class gets it bound, self first, as a function in a class would;
    the proxy alone would be called without it. A PropertyMock (mock.patch.object(Sensor, 'reading',
    new_callable=PropertyMock)) is a property here, read and set through the mock, as its own __get__ and __set__
    would. Anything else (a Mock, a class, a value) is set as it is."""
    ref = proxies.ref_of(value)
    kind = (getattr(ref, "names", None) or {}).get("type") if ref is not None else None
    if kind == "PropertyMock":
        return property(lambda _obj: value(), lambda _obj, new: value(new))
    if kind != "function":
        return value

    def method(*args: object, **kwargs: object) -> object:
        return value(*args, **kwargs)

    method.__wrapped__ = value
    return method


def _call(peer: object, fn: object, args: tuple) -> tuple[object, list | None]:
    positional, named = args
    # Fresh copies, so that the request still shows the arguments as they were sent (a change is then seen).
    decoded, keywords = peer.decode_call(*_fresh(positional, named))
    peer.calls.request_dropped = None  # read: what the request let go of goes now (peer.serve), not after the call
    counts = _counts(peer, decoded, keywords)
    nested = _nested_counts(peer, args, decoded, keywords)
    try:
        result = fn(*decoded, **keywords)
    except BaseException as exc:
        if counts or nested:
            # Kept before it raised (seen.append(box); raise ...) is kept, as in one process. The finished frames
            # the traceback holds would count as keeping every argument: their locals go (the error crosses as
            # text and line numbers, which stay).
            traceback.clear_frames(exc.__traceback__)
            _link_kept_arguments(peer, counts, args, decoded, keywords, _NO_RESULT)
            _link_kept_nested(peer, nested)
        raise
    _link_kept_arguments(peer, counts, args, decoded, keywords, result)
    _link_kept_nested(peer, nested)
    # In-place changes to list, dict, set, ... arguments travel back, so the caller sees them as Python would.
    changed = []
    for key, enc, value in [*zip(range(len(decoded)), positional, decoded),
                            *((k, named[k], keywords[k]) for k in keywords)]:
        if type(enc) is tuple and enc[:1] == ("home",):
            continue  # this side's own container, which the caller holds as a live view: already changed there
        if isinstance(value, values.CONTAINER_BASES) or values.is_array(value):
            now = peer.encode(value)
            if linking.changed_since(now, enc):
                # With the paths of the lists and dicts inside it that the call changed in place (matrix[i][j] = x):
                # the caller writes those into its own, which a test may hold by another name (row = matrix[0]).
                inside = nested.get(key)
                changed.append((key, now, linking.same_paths(value, inside[0])) if inside else (key, now))
    return result, changed or None


def _nested_counts(peer: object, args: tuple, decoded: list, keywords: dict) -> dict:
    """The code's side: for each list or dict argument the tests sent as data, the lists and dicts inside it with their
    paths (linking.nested_of), and their reference counts before the call."""
    if peer.role != "code":
        return {}
    positional, named = args
    found = {}
    for key, enc in [*enumerate(positional), *named.items()]:
        value = decoded[key] if type(key) is int else keywords[key]
        if type(value) in (list, dict) and not (type(enc) is tuple and enc[:1] == ("home",)):
            inside = linking.nested_of(value)
            if inside:
                found[key] = (inside, _counted(inside))
    return found


def _counted(inside: list) -> list[int]:
    # One way of counting, before the call and after it, so that only what the call kept makes a difference.
    return [sys.getrefcount(pair[1]) for pair in inside]


def _link_kept_nested(peer: object, nested: dict) -> None:
    """A list or dict inside an argument that the call kept a reference to (``self.data = dict(data)`` keeps the
    lists inside data) stays linked to the caller's, as in one process, where a change the test makes to
    data['a'] is seen by the code's copy."""
    for key, (inside, before) in nested.items():
        items = 0
        for (path, obj), was, now in zip(inside, before, _counted(inside)):
            if now <= was:
                continue
            items += len(obj)
            # Linked containers are read with every message: a few small ones are what tests hand over, and the
            # links a kept argument needs (below MAX_LINKED) come first.
            if items <= _NESTED_ITEMS and len(peer.links.by_handle) < linking.MAX_LINKED // 2:
                handle = peer.export(obj)
                linking.link(peer, obj, handle)
                peer.kept_now.append(([key, *path], handle))


def _link_kept_arguments(peer: object, counts: dict, args: tuple, decoded: list, keywords: dict,
                         result: object) -> None:
    """A container the call kept a reference to (stored on an object, in a global) stays linked to the caller's."""
    positional, named = args
    for key, before in counts.items():
        # The answer itself may be the argument (return lst): that reference is the caller's, not one the code kept.
        returned = 1 if result is (decoded[key] if type(key) is int else keywords[key]) else 0
        if _count_at(decoded, keywords, key) > before + returned:
            _keep(peer, key, positional[key] if type(key) is int else named[key],
                  decoded[key] if type(key) is int else keywords[key])


_NO_RESULT = object()


def _counts(peer: object, decoded: list, keywords: dict) -> dict:
    """The code's side: the reference counts of the containers a call receives, before the call."""
    if peer.role != "code":
        return {}
    return {key: _count_at(decoded, keywords, key) for key in [*range(len(decoded)), *keywords]
            if sharing.is_mutable(decoded[key] if type(key) is int else keywords[key])}


def _count_at(decoded: list, keywords: dict, key: object) -> int:
    # One way of counting, before the call and after it, so that only what the call kept makes a difference.
    value = decoded[key] if type(key) is int else keywords[key]
    count = sys.getrefcount(value)
    return count


def _keep(peer: object, key: object, enc: object, value: object) -> None:
    """The code's side kept a container the tests sent (key: its place in the request): link the two."""
    if peer.role != "code" or not sharing.is_mutable(value) or (type(enc) is tuple and enc[:1] == ("home",)):
        return
    if len(peer.links.by_handle) >= linking.MAX_LINKED:
        return
    handle = peer.export(value)
    linking.link(peer, value, handle)
    peer.kept_now.append((key, handle))


def _awaitables(peer: object, wanted: object) -> list:
    """The awaitables a batch asks for: ("await", handle) is the object itself, ("anext", handle) its next item."""
    found = []
    for op, handle in as_list(wanted):
        obj = peer.exports[handle]
        peer.hooks.check_touch(obj)
        found.append(obj.__anext__() if op == "anext" else obj)
    return found


def _fresh(positional: tuple, named: dict) -> tuple[tuple, dict]:
    """Fresh copies of the arguments sent as data, so that the request still shows them as they were sent (a change
    is then seen); copied together, so that one list sent as two arguments is one copy (marshal keeps it one)."""
    if not any(type(enc) is tuple and len(enc) == 2 and enc[0] == "v" and type(enc[1]) in (list, dict, set)
               for enc in (*positional, *named.values())):
        return positional, named
    return marshal.loads(marshal.dumps((positional, named)))


_ONE_ARG = {
    "getitem": lambda o, k: o[k], "setitem": lambda o, k, v: o.__setitem__(k, v),
    "delitem": lambda o, k: o.__delitem__(k), "contains": lambda o, v: v in o, "len": len,
    "iter": iter, "next": next, "bool": bool, "str": str, "repr": repr, "hash": hash,
    "format": format, "reversed": reversed, "int": int, "float": float, "index": lambda o: o.__index__(),
    "round": round, "enter": lambda o: o.__enter__(), "exit": lambda o, t, v: o.__exit__(t, v, None),
    "dir": lambda o: [n for n in dir(o) if type(n) is str],
    # a mirror's isinstance and issubclass, where this side's class decides them (proxies.RemoteType)
    "isinstance": lambda o, v: isinstance(v, o) is True, "issubclass": lambda o, v: issubclass(v, o) is True,
    "aiter": lambda o: o.__aiter__(), "anext": lambda o: proxies.run_to_end(o.__anext__()),
    "aenter": lambda o: proxies.run_to_end(o.__aenter__()),
    "aclose": lambda o: proxies.run_to_end(o.aclose()),
    "asend": lambda o, v: proxies.run_to_end(o.asend(v)),
    "athrow": lambda o, e: proxies.run_to_end(o.athrow(e)),
    "aexit": lambda o, t, v: proxies.run_to_end(o.__aexit__(t, v, None)),
    # The same awaitables not run: the other side awaits them on the one loop (proxies.steps_on_one_loop)
    "anext_unrun": lambda o: o.__anext__(), "aenter_unrun": lambda o: o.__aenter__(),
    "aexit_unrun": lambda o, t, v: o.__aexit__(t, v, None),
}
