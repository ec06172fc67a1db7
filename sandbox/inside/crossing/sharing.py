"""Which of the code's mutable containers in a value are shared: held by the code besides the value itself.

Runs inside the sandbox (stdlib only), in the code's process. In one process, a list the tests read from an object
(``inv.stock``, ``obj.items``) *is* the object's list: a change the tests make reaches the code, and a change the
code makes later is seen by the tests. A list a function builds and returns is held by nobody else, and a copy of it
behaves the same as the list itself. So the code's side sends a fresh container as plain data (fast, and the tests
hold a real list), and a shared one as a live view (crossing.py), whose reads and changes are requests.

Shared means that something besides the answer holds a reference: CPython's reference count says so exactly. The
counts a walk itself adds are measured once, on a probe walked the same way, rather than assumed.
"""

from __future__ import annotations

import collections
import sys

import values

# The containers that may go live: exactly these types (the code's own subclasses are objects of its classes, which
# cross as proxies anyway). Immutable ones (tuple, frozenset) are walked through, never made live.
MUTABLE = frozenset({list, dict, set, bytearray, collections.deque, collections.OrderedDict,
                     collections.defaultdict, collections.Counter})
_WALKED = MUTABLE | {tuple, frozenset}
MAX_WALK = 100_000  # containers looked at in one value; past it, the rest goes by value as before


def is_mutable(value: object) -> bool:
    """May value go live or be linked: exactly one of MUTABLE, or numpy's ndarray of plain data (an array the code
    keeps is one array, as a list it keeps is one list)?"""
    return type(value) in MUTABLE or values.array_kept_as_one(value)


def shared_in(value: object, held: bool = False) -> set[int]:
    """The ids of the mutable containers in value (value itself included) that the code holds elsewhere too; the
    caller holds value in exactly one variable of its own. held: value is the code's state itself (a global)."""
    found: set[int] = set()
    array = values.array_kept_as_one(value)
    if type(value) not in _WALKED and not array:
        return found
    count = sys.getrefcount(value)  # a statement of its own: an argument list being built would add to the count
    _walk(value, held or count > _TOP or (array and _views_held(value)), found, [MAX_WALK], set(),
          values.array_type())
    return found


def _views_held(array: object) -> bool:
    """Is array a view of an array held elsewhere too (``self.cells[i]``): a write through it changes that one."""
    base = array.base
    if not values.is_array(base):
        return False
    count = sys.getrefcount(base)  # a statement of its own, as above
    return count > _fresh_base_count()


def _fresh_base_count() -> int:
    """The count a view's base shows to _views_held when only the view holds it (measured once numpy is loaded)."""
    if not _BASE_COUNT:
        import numpy

        view = numpy.zeros(2)[1:]
        base = view.base
        count = sys.getrefcount(base)
        del base
        _BASE_COUNT.append(count)
    return _BASE_COUNT[0]


_BASE_COUNT: list[int] = []


def _walk(container: object, shared: bool, found: set[int], budget: list[int], walked: set[int],
          array: type | None) -> None:
    if id(container) in walked:  # a list that holds itself, or a row held twice: walked once
        return
    walked.add(id(container))
    if shared and is_mutable(container):
        found.add(id(container))
        shared = True
    if type(container) not in _WALKED:  # an array: what it holds are numbers
        return
    budget[0] -= 1
    if budget[0] < 0:
        return
    items = list(container.values()) if isinstance(container, dict) else list(container)
    for index in range(len(items)):
        child = items[index]
        kind = type(child)
        if kind in _WALKED or (kind is array and values.array_kept_as_one(child)):
            # A child held only by this container (and by this walk) is part of a fresh value; one held anywhere
            # else, or under a shared parent, is part of the code's state.
            count = sys.getrefcount(child)
            _walk(child, shared or count > _NESTED, found, budget, walked, array)


def _probe_counts() -> tuple[int, int]:
    """The counts a fresh top-level value and a fresh nested one show to the walk (measured, not assumed)."""
    seen: list[int] = []

    def top(value: object) -> None:
        count = sys.getrefcount(value)
        seen.append(count)

    def nested(container: list) -> None:
        items = list(container)
        for index in range(len(items)):
            child = items[index]
            count = sys.getrefcount(child)
            seen.append(count)

    fresh = [[]]
    top(fresh)
    nested(fresh)
    return seen[0], seen[1]


_TOP, _NESTED = _probe_counts()
