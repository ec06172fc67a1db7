"""Live views: how the tests hold a list, dict, set, deque or bytearray that the code keeps (``inv.stock``).

Runs inside the sandbox (stdlib only), in the process that receives one (crossing.py makes them). In one process a
dict read from an object is the object's dict: ``inv.stock['apple'] = 3`` changes the inventory, and a later
``inv.add('apple', 2)`` is seen through it. A live view keeps that: every read and change is a request to the process
that holds the container, and ``isinstance(view, dict)`` holds. What it never does is compare on the other side's
terms: ``==`` and the other comparisons read the contents as plain data and compare them here, with this side's own
values (nested containers the other side also keeps are live views in their turn). Iteration reads the contents
once, as ``for`` over a dict that nobody changes meanwhile would see them.
"""

from __future__ import annotations

import collections.abc
import functools
import sys

import proxies
import values

KINDS = frozenset({"builtins.list", "builtins.dict", "builtins.set", "builtins.bytearray", "collections.deque",
                   "collections.OrderedDict", "collections.defaultdict", "collections.Counter"})
ARRAY = "numpy.ndarray"  # an ndarray of plain data the other side keeps (sharing.is_mutable): a live view too
# Py_TPFLAGS_SEQUENCE and Py_TPFLAGS_MAPPING: what a `match` statement reads of a subject's type to try its sequence
# and mapping patterns (a list and a deque are sequences, a dict and its subclasses mappings; a bytearray neither).
SEQUENCE_FLAG, MAPPING_FLAG = 1 << 5, 1 << 6


def _data(view: object) -> object:
    data = proxies._ask(view, "data")
    base = type(view)._sbx_base
    if type(data) is not base:  # the contents as the standard type reads them, or the other side's answer is garbled
        raise TypeError(f"the other side's {base.__name__} sent data no such container holds")
    return data


def _iter(view: object):
    data = _data(view)
    if values.is_array(data) and data.ndim > 1:
        # the rows of a 2-D array are views of it: ``for row in grid: row[0] = 1`` writes to the other side's
        return (view[index] for index in range(len(data)))
    return iter(data)


def _reversed(view: object):
    return reversed(_data(view))


def _copy(view: object) -> object:
    # A shallow copy: a new container here holding the same items (the code's nested containers stay live).
    return _data(view)


def _deepcopy(view: object, memo: dict | None = None) -> object:
    # A deep copy is made where the container lives, and is nobody's but the caller's: it arrives as plain data.
    return proxies.deep_copy(view, memo)


def _reduce(view: object, protocol: object = 2) -> object:
    # pickle.dumps of a live view pickles its contents, as pickling the container itself would.
    return _data(view).__reduce_ex__(protocol if type(protocol) is int else 2)


def _in_place(name: str):
    def apply(view: object, other: object) -> object:
        proxies._ask(view, "op", name, proxies._encode(view, other))
        # The standard containers' in-place operators give back the container itself: so does its view (the
        # answer is a copy where the tests hold it), and ``p.velocity *= k`` leaves p holding its own array.
        return view
    apply.__name__ = name
    return apply


def _array(view: object, dtype: object = None, copy: object = None) -> object:
    # numpy.asarray(view), np.dot(view, x), np.testing: the contents, read once, as this side's own array
    return numpy_here().asarray(_data(view), dtype=dtype)


def numpy_here() -> object:
    """This side's numpy, imported if the sandbox offers it (an array arrived), else None."""
    try:
        import numpy
    except ImportError:
        return None
    return numpy


def _snapshot_view(name: str):
    # keys(), values() and items() of a dict read its contents once (one request, nested containers still live), so
    # ``view.keys() == {'a'}`` and iterating the pairs behave as a dict's own views do while nobody changes it.
    def read(view: object) -> object:
        return getattr(_data(view), name)()
    read.__name__ = name
    return read


_DICT_VIEWS = {name: _snapshot_view(name) for name in ("keys", "values", "items")}


def _concat_after(view: object, other: object) -> object:
    # ``[0] + view``: list's + takes only a list on its right, and a list defines no __radd__ for the view's to
    # stand for; so the view's own joins this side's copy of the contents after the left operand, by its rules (a
    # tuple on the left still refuses, as it would the container itself).
    return other + _data(view)
_made: dict[tuple, type] = {}


class ViewType(proxies.StandInType):
    """A live view's type, equal to the container type it stands for: ``type(inv.items) == list`` and
    ``type(get_config()) in (dict, list)`` hold as in one process."""


def standard_type(value: object) -> object:
    """The standard class a class of stand-ins stands for (a live view's container type, the exception class the
    other side raised); anything else as it is (read without asking anyone)."""
    return value._sbx_base if issubclass(type(value), proxies.StandInType) else value


def view(ref: proxies.Ref, base: type, caps: frozenset) -> object:
    """A live view of the other side's container of type base (ref)."""
    key = (base, caps)
    cls = _made.get(key)
    if cls is None:
        namespace = {"__slots__": (), **proxies.protocol_methods(caps, frozenset({"__hash__"})),
                     "__iter__": _iter, "__reversed__": _reversed, "__copy__": _copy, "__deepcopy__": _deepcopy,
                     "__reduce_ex__": _reduce, "__class__": property(lambda self, base=base: base),
                     # type(view)(items) makes a container of the standard type (dataclasses.asdict, copy's helpers)
                     "__new__": staticmethod(lambda cls, *args, base=base, **kwargs: base(*args, **kwargs)),
                     # in-place operators change the container where it lives and give it back (``view += [4]``,
                     # ``view |= {...}``, an array's ``/=`` and ``@=``)
                     **{name: _in_place(name) for name in proxies.IN_PLACE},
                     # compared by the standard type's rules on this side's copy, with this side's data and with
                     # another of these (two of the code's lists: list.__eq__ here, not the code's answer)
                     "_sbx_base": base, "_sbx_standard_copy": staticmethod(_data),
                     **{name: proxies.by_data(name, _data) for name in proxies.COMPARISONS}}
        if issubclass(base, dict):
            namespace.update(_DICT_VIEWS)
        if base in (list, bytearray):
            namespace["__radd__"] = _concat_after
        if base is values.array_type():  # (loaded already where an array's view is made: no import for a list's)
            namespace["__array__"] = _array
        cls = ViewType(base.__name__, (proxies.ContainerProxy,), namespace)
        # A view's type carries its container's flag, as registering with the ABC sets it: `match inv.stock:` with
        # `case {'apple': n}` or `case [first, *rest]` reads the view as it would the container.
        if base.__flags__ & SEQUENCE_FLAG:
            collections.abc.Sequence.register(cls)
        elif base.__flags__ & MAPPING_FLAG:
            collections.abc.Mapping.register(cls)
        _made[key] = cls
        teach_json()
    made = object.__new__(cls)
    object.__setattr__(made, "_sbx_ref", ref)
    return made


def teach_json() -> None:
    """json.dumps of a live view, or of an object of the other side's container subclass, writes its contents, as it
    would the container itself: json's C encoder reads only real lists and dicts (and asks default() about anything
    else, which a test's own default= or cls= answers otherwise), while its Python one goes by isinstance, which
    holds for them. So once one exists, this side's json encodes with the Python one (the same text)."""
    import json.encoder

    json.encoder.c_make_encoder = None


def _heappush(heap, item):
    heap.append(item)
    sys.modules["heapq"]._siftdown(heap, 0, len(heap) - 1)


def _heappop(heap):
    last = heap.pop()
    if heap:
        first, heap[0] = heap[0], last
        sys.modules["heapq"]._siftup(heap, 0)
        return first
    return last


def _heapreplace(heap, item):
    first, heap[0] = heap[0], item
    sys.modules["heapq"]._siftup(heap, 0)
    return first


def _heappushpop(heap, item):
    if heap and heap[0] < item:
        item, heap[0] = heap[0], item
        sys.modules["heapq"]._siftup(heap, 0)
    return item


def _heapify(heap):
    for index in reversed(range(len(heap) // 2)):
        sys.modules["heapq"]._siftup(heap, index)


# heapq's own Python versions (its C ones replace them as it loads), which take any list-like object.
_HEAP_FUNCTIONS = {"heappush": _heappush, "heappop": _heappop, "heapreplace": _heapreplace,
                   "heappushpop": _heappushpop, "heapify": _heapify}


def teach_standard_modules() -> None:
    """Teach the standard modules the tests imported what a live view is (teach_heapq, teach_pprint). Called before
    the tests load, so that ``from heapq import heappush`` gets the taught function."""
    teach_heapq()
    teach_pprint()


def teach_pprint() -> None:
    """pprint in this process prints a live view as it prints the container (a dict's keys sorted, long ones broken
    into lines): it picks its printer by the object's type and repr, so a view is printed by its contents, read
    once (the code's nested containers stay views, printed so in their turn)."""
    pprint = sys.modules.get("pprint")
    if pprint is None or getattr(pprint, "_sbx_taught", False):
        return
    printer = pprint.PrettyPrinter
    for name in ("_format", "_safe_repr"):
        original = getattr(printer, name)

        @functools.wraps(original)
        def by_contents(self, value, *args, _original=original):
            return _original(self, _data(value) if type(type(value)) is ViewType else value, *args)

        setattr(printer, name, by_contents)
    pprint._sbx_taught = True


def teach_heapq() -> None:
    """heapq's functions in this process take a live view of a list too (``heapq.heappop(pq.heap)`` of a queue the
    code keeps), as they take the list itself in one process: its C functions take only a real list, so for a view
    the same steps run through the view, each a request, in the order heapq's own Python versions take them."""
    heapq = sys.modules.get("heapq")
    if heapq is None or getattr(heapq, "_sbx_taught", False):
        return
    for name, through_view in _HEAP_FUNCTIONS.items():
        original = getattr(heapq, name, None)
        if original is None:
            continue

        @functools.wraps(original)
        def either(heap, *args, _original=original, _through_view=through_view):
            return _through_view(heap, *args) if type(type(heap)) is ViewType else _original(heap, *args)

        setattr(heapq, name, either)
    heapq._sbx_taught = True
