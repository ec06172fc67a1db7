"""Values in: what a node of plain data stands for, built by this side alone: plain values, standard values with
its own classes, builtins from a fixed list, its own mirror classes, live views and proxies. It never unpickles,
imports (but for a standard module named by a value, values.build_module) or runs anything the other side sent.

Runs inside the sandbox (stdlib only), in both processes; codec.py's Codec is a Decoder.
"""

from __future__ import annotations

import builtins
import collections
import operator

import class_data
import live_views
import named_tuples
import proxies
import watching
import standard_abcs
import standard_bases
import standard_objects
import values
from kinds import METHOD_OWNERS, SAFE_BUILTINS, MAX_DEPTH, STANDARD_TYPES, as_list, caps_in, short_text
from values import VALUE_DUNDERS


_MEMO_TAGS = frozenset({"deque", "Counter", "OrderedDict", "defaultdict"})


class Decoder:
    """This side's half of a Codec that receives: decode, and the mirrors and proxies it made of the other side's."""

    def decode(self, enc: object, keep: bool = False) -> object:
        """The value an encoding describes, built by this side; raises PeerGone on anything malformed. keep: go on
        with the containers built so far (decode_call), else start afresh."""
        try:
            if type(enc) is tuple and len(enc) == 2 and enc[0] == "v":
                return enc[1]
            if keep:
                return self._value(enc, 0)
            saved, self.built = self.built, {}
            try:
                return self._value(enc, 0)
            finally:
                self.built = saved
        except (values.BadRecord, KeyError, IndexError, TypeError, ValueError, AttributeError) as exc:
            raise self._garbled(f"a value it could not read ({type(exc).__name__}: {exc})") from None

    def decode_call(self, positional: tuple, named: dict) -> tuple[list, dict]:
        """A call's arguments, decoded together (encode_call): one node held by two arguments is one container."""
        saved, self.built = self.built, {}
        try:
            return [self.decode(a, keep=True) for a in positional], {k: self.decode(v, keep=True)
                                                                     for k, v in named.items()}
        finally:
            self.built = saved

    def _value(self, node: object, depth: int) -> object:
        if type(node) is not tuple or not node or type(node[0]) is not str or depth > MAX_DEPTH + 2:
            raise values.BadRecord("not a value node")
        tag = node[0]
        down = depth + 1
        if tag == "v":
            return node[1]
        if tag in ("list", "tuple", "set", "frozenset", "dict"):
            # One node held twice (the other side's container held twice) is one container here too.
            known = self.built.get(id(node))
            if known is not None:
                return known
            if tag == "list" or tag == "dict":
                # Kept before its items are built: a node that holds itself is a list that holds itself.
                known = self.built[id(node)] = [] if tag == "list" else {}
                if tag == "list":
                    known.extend([self._value(v, down) for v in as_list(node[1])])
                else:
                    known.update(self._decode_pairs(node[1], down))
                return known
            items = [self._value(v, down) for v in as_list(node[1])]
            known = self.built[id(node)] = {"tuple": tuple, "set": set, "frozenset": frozenset}[tag](items)
            return known
        if tag == "nan":
            return self.nans.here(node[1])
        builder = values.BUILDERS.get(tag)
        if builder is not None:
            return builder(node)
        if tag == "bytearray" and type(node[1]) is bytes:
            return bytearray(node[1])
        if tag in _MEMO_TAGS:
            # A node the other side's message holds twice is built once (marshal keeps it one): deques of deques,
            # each held twice, would otherwise build 2**depth of them.
            known = self.built.get(id(node))
            if known is None:
                known = self.built[id(node)] = self._container(tag, node, down)
            return known
        if tag == "range":
            return range(*_whole(node[1:]))
        if tag == "slice":
            return slice(*(self._value(v, down) for v in node[1:4]))
        if tag == "ellipsis":
            return Ellipsis
        if tag == named_tuples.TAG:
            return named_tuples.build(node, lambda item: self._value(item, down))
        if tag == "type":
            return STANDARD_TYPES[node[1]]
        if tag == "builtin":
            return _resolve_builtin(node[1])
        if tag == "home":
            return self.exports[node[1]]
        if tag == "class":
            return self.mirror(node[1])
        if tag == "stdclass" and len(node) == 3:
            found = standard_bases.class_named(node[1], self.role)
            return found if found is not None else self._value(node[2], down)
        if tag == "obj":
            return self._proxy(node)
        raise values.BadRecord(f"unknown value tag {tag!r}")

    def _container(self, tag: str, node: tuple, down: int) -> object:
        """A deque, Counter, OrderedDict or defaultdict of its node (_MEMO_TAGS)."""
        if tag == "deque":
            maxlen = node[2]
            if maxlen is not None and (type(maxlen) is not int or maxlen < 0):
                raise values.BadRecord("a deque's maxlen")
            return collections.deque((self._value(v, down) for v in as_list(node[1])), maxlen)
        if tag == "defaultdict":
            factory = None if node[1] is None else self._value(node[1], down)
            if factory is not None and not callable(factory):
                raise values.BadRecord("a defaultdict's factory")
            return collections.defaultdict(factory, self._decode_pairs(node[2], down))
        return getattr(collections, tag)(dict(self._decode_pairs(node[1], down)))

    def _decode_pairs(self, pairs: object, depth: int) -> list:
        return [(self._value(k, depth), self._value(v, depth)) for k, v in as_list(pairs)]

    def mirror(self, node: object) -> type:
        """This side's class standing for one of the other side's classes (built once per class)."""
        if type(node) is not tuple or len(node) != 6 or node[0] != "C" or type(node[1]) is not int:
            raise values.BadRecord("not a class description")
        known = self.mirrors.get(node[1])
        if known is not None:
            return known
        _, handle, name, qualname, bases, info = node
        if type(name) is not str or type(qualname) is not str or type(info) is not dict or type(bases) is not tuple:
            raise values.BadRecord("a class description of the wrong shape")
        mirrored = [self.mirror(b) for b in bases if type(b) is tuple and b[:1] == ("C",)]
        described = _class_info(info)
        cls = proxies.make_mirror(self, handle, name, qualname, mirrored, described)
        self.mirrors[handle] = cls
        if described["container"] is not None:
            live_views.teach_json()
        return cls

    def _proxy(self, node: tuple) -> object:
        _, handle, class_node, info = node
        if type(handle) is not int or type(info) is not dict:
            raise values.BadRecord("an object of the wrong shape")
        if self.role == "tests" and handle in self.links.by_handle:
            # the code's copy of a container of the tests': the original (even where a view of the copy was made
            # before the two were linked, as a global the code bound it to reached the tests first)
            return self.links.by_handle[handle][0]
        known = watching.known_proxy(self, handle)
        if known is not None:
            return known
        ref = proxies.Ref(self, handle, short_text(info.get("repr")))
        weak = False  # held as long as the run, but an instance of the other side's class or its function (below)
        if class_node is not None:
            cls = self.mirror(class_node)
            data = None if "value" not in info else self._value(info["value"], 1)
            made = proxies.instance(cls, ref, data)
            ref.names = _names(info)  # a callable object's own __name__ (functools.update_wrapper on a decorator)
            weak = type(made).__weakrefoffset__ != 0 and isinstance(made, proxies.ObjectProxy)
            if isinstance(made, BaseException):
                proxies.give_args(made, info)
        elif info.get("kind") in ("generator", "coroutine", "async_generator"):
            made = proxies.wrapped(info["kind"], ref)
        elif type(info.get("live")) is str and info["live"] in live_views.KINDS:
            made = live_views.view(ref, STANDARD_TYPES[info["live"]], caps_in(info.get("caps")))
        elif info.get("live") == live_views.ARRAY and (numpy := live_views.numpy_here()) is not None:
            made = live_views.view(ref, numpy.ndarray, caps_in(info.get("caps")))
        elif type(info.get("standard")) is str and info["standard"] in standard_objects.KINDS:
            made = standard_objects.view(ref, info["standard"], caps_in(info.get("caps")), _names(info))
        elif type(info.get("exception")) is str:
            made = proxies.remote_exception(self, info["exception"], str(info.get("message", "")), ref,
                                            exact=info.get("exact") is True)
            if not isinstance(made, BaseExceptionGroup):
                proxies.give_args(made, info)
        else:
            made = proxies.generic(ref, caps_in(info.get("caps")), _names(info))
            weak = True
        watching.keep_proxy(self, handle, made, weak)
        return made


def _class_info(info: dict) -> dict:
    value = info.get("value")
    container = info.get("container")
    exception = info.get("exception")
    return {"value": STANDARD_TYPES.get(value) if type(value) is str else None,
            "container": STANDARD_TYPES.get(container) if type(container) is str else None,
            "caps": caps_in(info.get("caps")),
            "fields": [f for f in as_list(info.get("fields", [])) if type(f) is str and f.isidentifier()
                       and not f.startswith("__")],
            "dataclass": [f for f in as_list(info.get("dataclass", [])) if type(f) is str and f.isidentifier()
                          and not f.startswith("__")],
            "exception": exception if type(exception) is str else None,
            "enum": info.get("enum") is True,
            "overrides": [n for n in as_list(info.get("overrides", []))[:100] if type(n) is str and n.isidentifier()
                          and (not n.startswith("_") or n in VALUE_DUNDERS or n in ("__eq__", "__ne__"))],
            "abcs": [n for n in as_list(info.get("abcs", []))[:20]
                     if type(n) is str and n in standard_abcs.STANDARD_ABCS],
            "standard_bases": standard_bases.resolve(info.get("standard_bases")),
            "eq_by": info.get("eq_by") if info.get("eq_by") in ("mapping", "set") else None,
            "weak": info.get("weak") is True,
            "class_data": class_data.read(info.get("class_data")),
            "checks": info.get("checks") if info.get("checks") in ("classes", "objects") else None,
            "match_args": tuple(n for n in as_list(info.get("match_args") or [])[:100]
                                if type(n) is str and n.isidentifier()) if info.get("match_args") is not None else None}


def _names(info: dict) -> dict:
    return {k: info[k] for k in ("type", "name", "qualname", "doc", "module") if type(info.get(k)) is str}


def _whole(fields: tuple) -> tuple:
    if any(type(n) is not int for n in fields):
        raise values.BadRecord("expected whole numbers")
    return fields


def _resolve_builtin(name: object) -> object:
    if type(name) is not str:
        raise values.BadRecord("a builtin's name")
    owner, _, attr = name.rpartition(".")
    if not owner and name in SAFE_BUILTINS:
        return getattr(builtins, name)
    if owner == "operator" and attr.isidentifier() and not attr.startswith("_"):
        found = getattr(operator, attr, None)
        if type(found).__name__ == "builtin_function_or_method":
            return found
    if owner in METHOD_OWNERS and attr.isidentifier() and not attr.startswith("_"):
        found = getattr(METHOD_OWNERS[owner], attr, None)
        if found is not None and type(found).__name__ in ("method_descriptor", "classmethod_descriptor",
                                                          "builtin_function_or_method"):
            return found
    raise values.BadRecord(f"not a builtin it may name: {name!r}")
