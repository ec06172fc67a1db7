"""Introspection of the code's functions, classes and objects, answered by the code's process as data.

Runs inside the sandbox (stdlib only), in both processes: the code's answers (answer, on an "introspect" request),
the tests' side rebuilds (attribute, and the lazy class attributes below). In one process ``inspect.signature`` of
the code's function reads its parameters; here the tests hold a proxy, whose own signature would be
``(*args, **kwargs)``. So ``inspect.signature``, ``dataclasses.fields``, ``inspect.getdoc``, ``inspect.isfunction``,
``inspect.iscoroutinefunction``, ``inspect.getsource``, ``__annotations__`` and ``typing.get_type_hints`` of the
code's objects are asked of the code's process, which answers with plain data and values (a parameter's default
crosses as any value does: plain, a standard value, or a proxy), and the tests' side builds the standard library's
own objects from it: an inspect.Signature of Parameters, dataclasses.Field objects, a code object that is never run.

What a test may ask is this list and nothing more, and nothing in an answer is run in the tests' process: names must
be identifiers (dataclasses writes source from a base's field names), an annotation is a standard type, one of the
code's classes (a mirror), a generic alias or union of those, or text; and annotation text in ``__annotations__`` is
never a ``str``, which typing.get_type_hints and inspect.get_annotations(eval_str=True) would evaluate as code. An
answer of the wrong shape is a garbled message (BadAnswer).
"""

from __future__ import annotations

import dataclasses
import functools
import inspect
import keyword
import operator
import random
import types

OP = "introspect"
_MAX_ITEMS = 10_000  # parameters, fields or annotations of one answer
_MAX_TEXT = 10_000
_MAX_DEPTH = 8  # of an annotation (dict[str, list[tuple[int, ...]]])
# The flags of a code object the tests may read (inspect.iscoroutinefunction, isgeneratorfunction, ...).
_CODE_FLAGS = inspect.CO_GENERATOR | inspect.CO_COROUTINE | inspect.CO_ITERABLE_COROUTINE | inspect.CO_ASYNC_GENERATOR
# What a proxy of each of the code's callables is an instance of, for isinstance and so inspect.isfunction.
CLASS_OF = {"function": types.FunctionType, "method": types.MethodType,
            "builtin_function_or_method": types.BuiltinFunctionType,
            "Random": random.Random}  # a generator of the code's (random.Random(seed)), stepped by requests


class BadAnswer(ValueError):
    """An introspection answer no Python object has."""


# --- the code's side: the answers ------------------------------------------------------------------------------

def answer(what: object, obj: object, codec: object) -> object:
    """The answer to the tests' question what about obj, as values the answer's encoding carries."""
    if what == "signature":
        signature = inspect.signature(obj)
        return ([(p.name, int(p.kind), p.default is not p.empty, None if p.default is p.empty else p.default,
                  _annotation_record(p.annotation, codec)) for p in signature.parameters.values()],
                _annotation_record(signature.return_annotation, codec))
    if what == "fields":
        return [_field_record(field, codec) for field in getattr(obj, "__dataclass_fields__", {}).values()]
    if what == "annotations":
        found = getattr(obj, "__annotations__", None)
        if not isinstance(found, dict):
            raise AttributeError("__annotations__")
        return [(str(name), _annotation_record(value, codec)) for name, value in found.items()]
    if what == "hints":
        import typing

        return [(str(name), _annotation_record(value, codec)) for name, value in typing.get_type_hints(obj).items()]
    if what == "doc":
        doc = obj.__dict__.get("__doc__") if isinstance(obj, type) else getattr(obj, "__doc__", None)
        return doc if type(doc) is str else None
    if what == "code":
        code = getattr(obj, "__code__", None)
        if not isinstance(code, types.CodeType):
            raise AttributeError("__code__")
        return (code.co_flags & _CODE_FLAGS, code.co_firstlineno, code.co_name)
    if what in ("defaults", "kwdefaults"):  # a function's __defaults__ and __kwdefaults__, its values as they are
        found = getattr(obj, f"__{what}__", None)
        if not isinstance(obj, types.FunctionType) or not (found is None or type(found) in (tuple, dict)):
            raise AttributeError(f"__{what}__")
        return None if found is None else type(found)(found)  # a copy: the function's own would cross as a live view
    if what == "source":
        import linecache

        return "".join(linecache.getlines("solution.py"))
    raise ValueError(f"unknown introspection {what!r}")


def _field_record(field: dataclasses.Field, codec: object) -> tuple:
    kind = {dataclasses._FIELD: "field", dataclasses._FIELD_CLASSVAR: "classvar",
            dataclasses._FIELD_INITVAR: "initvar"}.get(getattr(field, "_field_type", None), "field")
    has_default = field.default is not dataclasses.MISSING
    has_factory = field.default_factory is not dataclasses.MISSING
    flags = {"init": field.init, "repr": field.repr, "hash": field.hash, "compare": field.compare,
             "kw_only": None if field.kw_only is dataclasses.MISSING else field.kw_only}
    return (field.name, kind, has_default, field.default if has_default else None, has_factory,
            field.default_factory if has_factory else None, flags, dict(field.metadata),
            _annotation_record(field.type, codec))


def _annotation_record(annotation: object, codec: object, depth: int = 0) -> tuple:
    """An annotation as the tests' side may rebuild it: a type it knows, a generic alias or union of those, or text."""
    import kinds
    import typing

    if annotation is inspect.Parameter.empty:
        return ("empty",)
    if annotation is None or annotation is type(None):
        return ("none",)
    if type(annotation) is str:
        return ("text", annotation)
    if annotation is Ellipsis:
        return ("ellipsis",)
    if annotation is typing.Any:
        return ("any",)
    if isinstance(annotation, type) and (annotation in kinds.STANDARD_TYPES.values()
                                         or codec._own_class(annotation)):
        return ("type", annotation)
    parts = None
    if depth < _MAX_DEPTH:
        if type(annotation) is types.GenericAlias and annotation.__origin__ in kinds.STANDARD_TYPES.values():
            parts = ("generic", annotation.__origin__, [_annotation_record(a, codec, depth + 1)
                                                        for a in annotation.__args__])
        elif type(annotation) is types.UnionType or typing.get_origin(annotation) is typing.Union:
            parts = ("union", [_annotation_record(a, codec, depth + 1) for a in typing.get_args(annotation)])
    if parts is not None and not any(part[0] == "text" for part in parts[-1]):
        return parts
    return ("text", inspect.formatannotation(annotation))


# --- the tests' side: rebuilding ---------------------------------------------------------------------------------

class AnnotationText:
    """An annotation that crossed as text, in ``__annotations__`` and get_type_hints: equal to that text, but never a
    str, which typing.get_type_hints or inspect.get_annotations(eval_str=True) would run as code here."""

    __slots__ = ("text",)

    def __init__(self, text: str) -> None:
        self.text = text

    def __eq__(self, other: object) -> bool:
        if isinstance(other, AnnotationText):
            return self.text == other.text
        return self.text == other if type(other) is str else NotImplemented

    def __hash__(self) -> int:
        return hash(self.text)

    def __repr__(self) -> str:
        return repr(self.text)

    def __str__(self) -> str:
        return self.text


def attribute(ref: object, name: str) -> object:
    """The attribute name (one of ATTRIBUTES) of the code's object ref stands for, rebuilt here from its answer."""
    try:
        if name == "__signature__":
            return signature(ref.ask(OP, "signature"))
        if name == "__annotations__":
            return _named_annotations(ref.ask(OP, "annotations"))
        if name == "__code__":
            return _code(ref, ref.ask(OP, "code"))
        if name in ("__defaults__", "__kwdefaults__"):
            found = ref.ask(OP, name.strip("_"))
            if found is not None and type(found) is not (tuple if name == "__defaults__" else dict):
                raise BadAnswer(f"{name} of the wrong type")
            return found
    except BadAnswer as exc:
        raise ref.peer._garbled(f"a {name} it could not read ({exc})") from None
    raise AttributeError(name)


ATTRIBUTES = frozenset({"__signature__", "__annotations__", "__code__", "__defaults__", "__kwdefaults__"})


def signature(found: object) -> inspect.Signature:
    """The inspect.Signature a signature answer describes."""
    if type(found) is not tuple or len(found) != 2 or type(found[0]) is not list or len(found[0]) > _MAX_ITEMS:
        raise BadAnswer("a signature of the wrong shape")
    parameters = []
    for item in found[0]:
        if type(item) is not tuple or len(item) != 5 or type(item[1]) is not int or item[2] not in (True, False):
            raise BadAnswer("a parameter of the wrong shape")
        name, kind, has_default, default, annotation = item
        try:
            parameters.append(inspect.Parameter(_name(name), inspect._ParameterKind(kind),
                                                default=default if has_default else inspect.Parameter.empty,
                                                annotation=annotation_of(annotation, str)))
        except ValueError as exc:  # a kind that is none, a name that is a keyword
            raise BadAnswer(f"a parameter it cannot be: {exc}") from None
    try:
        return inspect.Signature(parameters, return_annotation=annotation_of(found[1], str))
    except ValueError as exc:  # parameters out of order, or twice
        raise BadAnswer(f"a signature it cannot be: {exc}") from None


def type_hints(ref: object) -> dict:
    """typing.get_type_hints of the code's object: resolved by the code's process."""
    try:
        return _named_annotations(ref.ask(OP, "hints"))
    except BadAnswer as exc:
        raise ref.peer._garbled(f"type hints it could not read ({exc})") from None


def _named_annotations(found: object) -> dict:
    if type(found) is not list or len(found) > _MAX_ITEMS:
        raise BadAnswer("annotations of the wrong shape")
    named = {}
    for item in found:
        if type(item) is not tuple or len(item) != 2:
            raise BadAnswer("an annotation of the wrong shape")
        named[_name(item[0], keywords=True)] = annotation_of(item[1], AnnotationText)
    return named


def annotation_of(record: object, text: type, depth: int = 0) -> object:
    """The annotation a record describes (text made with text: str, or AnnotationText where it could be run)."""
    import kinds
    import typing

    if type(record) is not tuple or not record or depth > _MAX_DEPTH:
        raise BadAnswer("an annotation of the wrong shape")
    tag = record[0]
    if tag == "empty":
        return inspect.Parameter.empty
    if tag == "none":
        return None
    if tag == "any":
        return typing.Any
    if tag == "ellipsis" and depth:
        return Ellipsis
    if tag == "text" and len(record) == 2 and type(record[1]) is str and len(record[1]) <= _MAX_TEXT:
        return text(record[1])
    if tag == "type" and len(record) == 2 and isinstance(record[1], type):
        return record[1]  # a standard type or a mirror: the codec built nothing else from a type's record
    if tag in ("generic", "union") and type(record[-1]) is list and 0 < len(record[-1]) <= 64:
        args = [annotation_of(arg, text, depth + 1) for arg in record[-1]]
        if any(isinstance(arg, AnnotationText) or type(arg) is str or arg is inspect.Parameter.empty for arg in args):
            raise BadAnswer("text inside a generic annotation")
        if tag == "union" and len(record) == 2 and Ellipsis not in args:
            try:
                return functools.reduce(operator.or_, args)
            except TypeError:
                raise BadAnswer("a union of what is no type") from None
        if tag == "generic" and len(record) == 3 and record[1] in kinds.STANDARD_TYPES.values():
            return types.GenericAlias(record[1], tuple(args))
    raise BadAnswer(f"an annotation it cannot be: {tag!r}")


def _name(name: object, keywords: bool = False) -> str:
    if type(name) is not str or not name.isidentifier() or (not keywords and keyword.iskeyword(name)):
        raise BadAnswer("a name that is no identifier")
    return name


_EMPTY_CODE = (lambda: None).__code__


def _code(ref: object, found: object) -> types.CodeType:
    """A code object standing for the code's function's: its name, first line and kind (a coroutine function, a
    generator function), in solution.py; it holds no instruction of the code's and is never run."""
    if (type(found) is not tuple or len(found) != 3 or type(found[0]) is not int or type(found[1]) is not int
            or not 0 < found[1] < 1 << 30 or type(found[2]) is not str or len(found[2]) > _MAX_TEXT):
        raise BadAnswer("a code object of the wrong shape")
    _load_source(ref)
    return _EMPTY_CODE.replace(co_flags=_EMPTY_CODE.co_flags | (found[0] & _CODE_FLAGS), co_firstlineno=found[1],
                               co_name=found[2], co_qualname=found[2], co_filename="solution.py")


def _load_source(ref: object) -> None:
    """The code's text, for inspect.getsource of its functions (asked once, the first time a code object is)."""
    import linecache

    entry = linecache.cache.get("solution.py")
    if entry is not None and entry[2]:
        return
    text = ref.ask(OP, "source")
    if type(text) is not str:
        raise BadAnswer("the code's text is no text")
    linecache.cache["solution.py"] = (len(text), None, text.splitlines(True), "solution.py")


# --- the tests' side: a mirror class's lazy attributes -----------------------------------------------------------

class RemoteDoc:
    """A mirror class's __doc__ (and so its instances'): the code's class's docstring, asked the first time."""

    def __init__(self, ref: object) -> None:
        self.ref, self.known, self.doc = ref, False, None

    def __get__(self, instance: object, owner: type | None = None) -> str | None:
        if not self.known:
            found = self.ref.ask(OP, "doc")
            if found is not None and (type(found) is not str or len(found) > 1 << 20):
                raise self.ref.peer._garbled("a docstring that is no text")
            self.doc, self.known = found, True
        return self.doc


class RemoteAnnotations(dict):
    """A mirror class's __annotations__ (``Order.__annotations__ == {"items": list, "qty": int}``): the code's
    class's own, asked the first time a test reads them (type's own __annotations__ would make an empty dict). A dict,
    so that what reads a class's ``__dict__['__annotations__']`` itself (inspect.get_annotations, typing's hints of a
    test's class built on the code's) finds one; every way to read it asks first."""

    __slots__ = ("_sbx_ref", "_sbx_asked")

    def __init__(self, ref: object) -> None:
        super().__init__()
        self._sbx_ref, self._sbx_asked = ref, False

    def _sbx_filled(self) -> dict:
        if not self._sbx_asked:
            self._sbx_asked = True
            try:
                dict.update(self, _named_annotations(self._sbx_ref.ask(OP, "annotations")))
            except BadAnswer as exc:
                raise self._sbx_ref.peer._garbled(f"annotations it could not read ({exc})") from None
            except AttributeError:
                pass
        return self


def _asking_first(name: str):
    method = getattr(dict, name)
    return lambda self, *args, **kwargs: method(self._sbx_filled(), *args, **kwargs)


for _method in ("__iter__", "__len__", "__getitem__", "__contains__", "__eq__", "__ne__", "__repr__", "__reversed__",
                "__or__", "__ror__", "__ior__", "__setitem__", "__delitem__", "keys", "items", "values", "get", "copy",
                "pop", "popitem", "setdefault", "update", "clear", "__reduce_ex__"):
    setattr(RemoteAnnotations, _method, _asking_first(_method))
del _method
RemoteAnnotations.__hash__ = None


class RemoteFields:
    """A mirror dataclass's __dataclass_fields__: the code's class's fields as dataclasses.Field objects (name, type,
    default, default_factory, init, repr, compare, ...), asked the first time a test reads them."""

    def __init__(self, ref: object) -> None:
        self.ref, self.fields = ref, None

    def __get__(self, instance: object, owner: type | None = None) -> dict:
        if self.fields is None:
            try:
                self.fields = _fields(self.ref.ask(OP, "fields"))
            except BadAnswer as exc:
                raise self.ref.peer._garbled(f"dataclass fields it could not read ({exc})") from None
        return self.fields


def _fields(found: object) -> dict:
    if type(found) is not list or len(found) > _MAX_ITEMS:
        raise BadAnswer("dataclass fields of the wrong shape")
    kinds = {"field": dataclasses._FIELD, "classvar": dataclasses._FIELD_CLASSVAR,
             "initvar": dataclasses._FIELD_INITVAR}
    fields = {}
    for item in found:
        if type(item) is not tuple or len(item) != 9 or item[1] not in kinds or type(item[6]) is not dict:
            raise BadAnswer("a dataclass field of the wrong shape")
        name, kind, has_default, default, has_factory, factory, flags, metadata, annotation = item
        if _name(name).startswith("__") or type(metadata) is not dict or not all(
                flags.get(flag) in (True, False) for flag in ("init", "repr", "compare")) or flags.get(
                "hash") not in (True, False, None) or flags.get("kw_only") not in (True, False, None):
            raise BadAnswer("a dataclass field of the wrong shape")
        if has_factory and not callable(factory):
            raise BadAnswer("a default_factory that cannot be called")
        kw_only = dataclasses.MISSING if flags["kw_only"] is None else flags["kw_only"]
        field = dataclasses.Field(default if has_default is True else dataclasses.MISSING,
                                  factory if has_factory is True else dataclasses.MISSING, flags["init"],
                                  flags["repr"], flags["hash"], flags["compare"], metadata, kw_only)
        field.name = _name(name)
        field.type = annotation_of(annotation, str)
        field._field_type = kinds[kind]
        fields[field.name] = field
    return fields


def follow_type_hints(is_remote) -> None:
    """typing.get_type_hints of one of the code's objects (is_remote(obj) gives its Ref, or None) is resolved by
    the code's process, as in one process; here its annotations' text is never evaluated."""
    import typing

    original = typing.get_type_hints

    @functools.wraps(original)
    def get_type_hints(obj, globalns=None, localns=None, include_extras=False):
        ref = is_remote(obj)
        if ref is not None:
            return type_hints(ref)
        return original(obj, globalns, localns, include_extras)

    typing.get_type_hints = get_type_hints
