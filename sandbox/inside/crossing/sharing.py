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

# The containers that may go live: exactly these types (the code's own subclasses are objects of its classes, which
# cross as proxies anyway). Immutable ones (tuple, frozenset) are walked through, never made live.
MUTABLE = frozenset({list, dict, set, bytearray, collections.deque, collections.OrderedDict,
                     collections.defaultdict, collections.Counter})
_WALKED = MUTABLE | {tuple, frozenset}
MAX_WALK = 100_000  # containers looked at in one value; past it, the rest goes by value as before


def shared_in(value: object, held: bool = False) -> set[int]:
    """The ids of the mutable containers in value (value itself included) that the code holds elsewhere too; the
    caller holds value in exactly one variable of its own. held: value is the code's state itself (a global)."""
    found: set[int] = set()
    if type(value) not in _WALKED:
        return found
    count = sys.getrefcount(value)  # a statement of its own: an argument list being built would add to the count
    _walk(value, held or count > _TOP, found, [MAX_WALK], set())
    return found


def _walk(container: object, shared: bool, found: set[int], budget: list[int], walked: set[int]) -> None:
    if id(container) in walked:  # a list that holds itself, or a row held twice: walked once
        return
    walked.add(id(container))
    if type(container) in MUTABLE and shared:
        found.add(id(container))
        shared = True
    budget[0] -= 1
    if budget[0] < 0:
        return
    items = list(container.values()) if isinstance(container, dict) else list(container)
    for index in range(len(items)):
        child = items[index]
        if type(child) in _WALKED:
            # A child held only by this container (and by this walk) is part of a fresh value; one held anywhere
            # else, or under a shared parent, is part of the code's state.
            count = sys.getrefcount(child)
            _walk(child, shared or count > _NESTED, found, budget, walked)


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
