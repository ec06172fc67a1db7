"""Containers the tests hand to the code that the code keeps: one object on both sides, kept in step.

Runs inside the sandbox (stdlib only), in both processes (peer.py calls it around every message). In one process
``order.menu = menu`` followed by ``menu.append('tea')`` changes the order's menu, and a change the order makes is
seen through ``menu``. A list the tests pass crosses as a copy (the code's algorithms read it at full speed); when
the code keeps that copy (stores it on an object, in a global, in another container), the two are *linked*: the
tests' side encodes the original as a reference to the code's copy from then on, and with every message each side
sends the new contents of the linked containers that changed since the last one. Only one side runs at a time (a
request waits for its answer), so each side sees the other's changes before it runs again, as in one process.

Neither side runs anything the other sent: the contents arrive as plain data and are written into the container
with the standard type's own methods. The code's side forgets a link once only the link holds its copy. A list or
dict inside an argument that the code keeps through a copy of the outer one (``dict(data)``) is linked too
(performing.py), and a change written back keeps the identity of the lists and dicts the other side changed in place
(write_back: a test's ``row = m[0]`` sees ``rotate(m)``).
"""

from __future__ import annotations

import collections
import sys

import releasing
import unsupported
import values

NOT_WRITTEN_BACK = ("the code changed a container of the tests' that cannot take the change here (a read-only "
                    "array, or one of another kind or shape now)")
MAX_LINKED = 256  # linked containers a run keeps in step; past it, a kept container behaves as a copy, as before
MAX_NESTED = 64  # the lists and dicts inside one value whose identity a change keeps (nested_of); past it, copies
_MAX_LOOKED_AT = 1000  # the items nested_of reads of one value: a flat list of 200,000 numbers is no walk each call
MAX_PATH = 64  # the steps of a path another side may name (same_paths): longer ones are ignored
MAX_RETIRED = 4096  # copies let go of that the code's side keeps while a message may still name them (Links.retired)


class Links:
    """One side's linked containers: by the code's handle, each [the container, its contents when last synced, the
    lists and dicts inside it then (nested_of)]."""

    def __init__(self) -> None:
        self.by_handle: dict[int, list] = {}
        self.by_id: dict[int, int] = {}  # the tests' side: id(original) -> the code's handle
        self.busy = False  # working out what to send
        # The code's side: the channel (channels.py) of the call that kept each copy. A copy is let go of only in a
        # message on that channel, after that call's answer: the thread of the tests that reads the answer naming it
        # reads that it is let go of after it, where another thread's answer could cross first.
        self.channel_of: dict[int, int] = {}
        # The code's side: copies let go of, kept by handle (the oldest forgotten past MAX_RETIRED). Several threads
        # of the tests may hand the code one list it keeps: one thread's message may name the copy while another's
        # answer says it was let go of; it names a copy that is still there, brought up to date by what came with it.
        self.retired: collections.OrderedDict[int, object] = collections.OrderedDict()


def contents(peer: object, obj: object) -> tuple:
    """obj's contents as they cross: by value, as the tests' original holds them (what it holds of either side's
    objects crosses as usual, by handle)."""
    handle = peer.links.by_id.pop(id(obj), None)
    try:
        return peer.encode(obj)
    finally:
        if handle is not None:
            peer.links.by_id[id(obj)] = handle


def link(peer: object, obj: object, handle: int) -> None:
    """Keep obj (this side's container) in step with the other side's under handle (the code's export)."""
    links = peer.links
    if handle in links.by_handle or len(links.by_handle) >= MAX_LINKED:
        return
    links.retired.pop(handle, None)
    entry = links.by_handle[handle] = [obj, None, nested_of(obj)]
    if peer.role == "tests":
        links.by_id[id(obj)] = handle
    else:
        links.channel_of[handle] = peer.channels.current()
    entry[1] = contents(peer, obj)
    releasing.unsent(peer, entry[1])  # a snapshot to compare with, not sent


def outgoing(peer: object) -> dict | None:
    """What to tell the other side with the next message: the linked containers whose contents changed here, and
    (the code's side) the links it let go."""
    links = peer.links
    if not links.by_handle or links.busy:
        return None
    links.busy = True  # encoding may ask the other side (a repr): that request carries no sync of its own
    try:
        return _outgoing(peer, links)
    finally:
        links.busy = False


def _outgoing(peer: object, links: Links) -> dict | None:
    changed, gone = [], []
    channel = peer.channels.current() if peer.role == "code" else None
    for handle in list(links.by_handle):
        entry = links.by_handle.get(handle)
        if entry is None:  # let go meanwhile by another of the tests' threads
            continue
        let_go = (peer.role == "code" and links.channel_of.get(handle, channel) == channel
                  and _only_linked(entry))
        now = contents(peer, entry[0])
        if not changed_since(now, entry[1]):
            releasing.unsent(peer, now)  # read to compare, not sent
        else:
            # also for a copy let go of: a generator's last step, or a coroutine run to its end, changed it and
            # dropped it in one request (``tasks.clear()`` after the last yield)
            entry[1] = now
            changed.append((handle, now, same_paths(entry[0], entry[2])))
            entry[2] = nested_of(entry[0])
        if let_go:
            del links.by_handle[handle]
            links.channel_of.pop(handle, None)
            links.retired[handle] = entry[0]
            if len(links.retired) > MAX_RETIRED:
                peer.forget(links.retired.popitem(last=False)[0])
            gone.append(handle)
    found = {}
    if changed:
        found["synced"] = changed
    if gone:
        found["unlinked"] = gone
    return found or None


def changed_since(now: tuple, before: object) -> bool:
    """Does a container's encoding now differ from before? Two encodings of a list that holds itself each hold
    themselves, which == compares without end: taken as changed."""
    try:
        return now != before
    except RecursionError:
        return True


def incoming(peer: object, extra: dict, let_go: bool = True) -> None:
    """Take the other side's changes into the linked containers here, and (let_go) the links it let go of; an answer
    lets go after its payload is read (let_go_of), which may name a copy its own message lets go of (the list a
    generator returns, let go of as the generator ends)."""
    links = peer.links
    synced = extra.get("synced")
    for item in synced if type(synced) is list else ():  # before the unlinked: a copy's last change, then let go
        if type(item) is not tuple or len(item) not in (2, 3) or type(item[0]) is not int:
            continue
        entry = links.by_handle.get(item[0])
        if entry is None:
            if item[0] in links.retired:  # sent by a thread of the tests that did not yet know it was let go of
                write_back(links.retired[item[0]], peer.decode(item[1]), item[2] if len(item) == 3 else ())
            continue
        write_back(entry[0], peer.decode(item[1]), item[2] if len(item) == 3 else ())
        entry[1] = contents(peer, entry[0])
        entry[2] = nested_of(entry[0])
    if let_go:
        let_go_of(peer, extra)


def let_go_of(peer: object, extra: dict) -> None:
    """Forget the links the other side let go of."""
    links = peer.links
    for handle in extra.get("unlinked") or ():
        entry = links.by_handle.pop(handle, None) if type(handle) is int else None
        if entry is not None:
            links.by_id.pop(id(entry[0]), None)


def replace_contents(target: object, new: object) -> bool:
    """Write new's items into target in place (a list's items, a dict's keys), with the standard type's own methods;
    False when their kinds differ (then nothing is written)."""
    import collections

    if isinstance(target, list) and isinstance(new, list):
        list.__setitem__(target, slice(None), new)
    elif isinstance(target, dict) and isinstance(new, dict):
        # The type's own methods: an OrderedDict keeps its order in a list of its own, which dict's would leave stale.
        kind = collections.OrderedDict if isinstance(target, collections.OrderedDict) else dict
        kind.clear(target)
        kind.update(target, new)
    elif isinstance(target, set) and isinstance(new, set):
        set.clear(target)
        set.update(target, new)
    elif isinstance(target, (bytearray, collections.deque)) and type(new) is type(target):
        target.clear()
        target.extend(new)
    elif values.is_array(target) and type(new) is type(target) and target.flags.writeable:
        if new.shape != target.shape or new.dtype != target.dtype:
            return False
        target[...] = new
    else:
        return False
    return True


def nested_of(value: object) -> list[tuple[tuple, object]]:
    """The lists and dicts inside value (value itself not), and numpy arrays of plain data, each with its path from
    value (list places, dict keys that are text or whole numbers), breadth first, up to MAX_NESTED. One held at two
    places (``[[0] * 2] * 2``) is listed at both, and looked into once (an array is not looked into)."""
    found: list[tuple[tuple, object]] = []
    queue, seen, looked = [((), value)], {id(value)}, 0
    array = values.array_type()
    holders = {list, dict, array}
    while queue and len(found) < MAX_NESTED and looked < _MAX_LOOKED_AT:
        path, container = queue.pop(0)
        kind = type(container)
        if kind in (list, dict) and not set(map(type, container.values() if kind is dict else container)) & holders:
            looked += len(container)  # nothing in it to find: as the walk below would count it, at C speed
            continue
        for step, item in (container.items() if kind is dict else enumerate(container) if kind is list else ()):
            looked += 1
            if looked > _MAX_LOOKED_AT:
                break
            if type(item) is array and type(step) in (int, str) and values.array_kept_as_one(item):
                found.append((path + (step,), item))  # one array, kept as one where a list would be (no deeper)
            elif type(item) in (list, dict) and type(step) in (int, str):
                found.append((path + (step,), item))
                if id(item) not in seen:
                    seen.add(id(item))
                    queue.append((path + (step,), item))
                if len(found) >= MAX_NESTED:
                    break
    return found


def at_path(value: object, path: tuple | list) -> object:
    """What value holds at path (nested_of's), or None where it holds nothing there."""
    for step in path:
        kind = type(value)
        if kind is list and type(step) is int and -len(value) <= step < len(value):
            value = value[step]
        elif kind is dict and type(step) in (int, str) and step in value:
            value = value[step]
        else:
            return None
    return value


def same_paths(value: object, nested: list[tuple[tuple, object]]) -> list[list]:
    """The paths at which value still holds the very list or dict it held before (nested: nested_of then): the ones
    changed in place, whose identity the other side keeps when it writes the change back."""
    return [list(path) for path, obj in nested if at_path(value, path) is obj]


def write_back(target: object, new: object, same: object) -> bool:
    """new's contents written into target in place (replace_contents), and, at the paths in same, into the very lists
    and dicts target held there, as in one process where the other side changed those in place (``matrix[i][j] =
    x``: a test's ``row = matrix[0]`` sees it); elsewhere the new ones. False when target and new differ in kind."""
    if type(new) in (list, dict) and type(target) is type(new) and _reference_count(new) > _FRESH:
        # held elsewhere than by its caller: inside itself (``xs.append({'up': xs})`` on the other side)
        _point_at(new, target)
    paths = {tuple(p) for p in list(same)[:MAX_NESTED] if type(p) is list and len(p) <= MAX_PATH and all(
        type(s) in (int, str) for s in p)} if type(same) in (list, tuple) else set()
    if not paths or type(target) is not type(new) or type(new) not in (list, dict):
        written = replace_contents(target, new)
        if not written:
            unsupported.note(NOT_WRITTEN_BACK)
        return written
    originals = {path: at_path(target, path) for path in paths}  # before anything is written
    prefixes = {path[:k] for path in paths for k in range(len(path))}
    done: dict[int, object] = {}  # id of a list or dict of new's -> what it became: one held twice stays one

    def rebuilt(item: object, path: tuple) -> object:
        if type(item) not in (list, dict):
            return item
        if id(item) in done:
            return done[id(item)]
        original = originals.get(path)
        if original is not None and type(original) is type(item):
            done[id(item)] = original
            fill(original, item, path)
            return original
        done[id(item)] = item
        if path in prefixes:
            fill(item, item, path)
        return item

    def fill(container: object, items: object, path: tuple) -> None:
        if type(items) is list:
            list.__setitem__(container, slice(None), [rebuilt(x, path + (i,)) for i, x in enumerate(items)])
        else:
            fresh = {k: rebuilt(v, path + (k,)) for k, v in items.items()}
            dict.clear(container)
            dict.update(container, fresh)

    fill(target, new, ())
    return True


def _reference_count(value: object) -> int:
    return sys.getrefcount(value)


def _point_at(new: object, target: object) -> None:
    """Where the lists and dicts new holds hold new itself, they hold target instead: new's items are being written
    into target, which is what the other side's container, held in itself, stands for here."""
    stack, seen = [new], {id(new)}
    while stack:
        container = stack.pop()
        for key, item in list(enumerate(container) if type(container) is list else container.items()):
            if item is new:
                container[key] = target  # a list or dict just built here, of exactly those types
            elif type(item) in (list, dict) and id(item) not in seen:
                seen.add(id(item))
                stack.append(item)


def _count_fresh() -> int:
    # What write_back reads of a value only its caller's call holds (write_back(arg, decode(enc), ...)).
    def probe(target: object, new: object, same: object) -> int:
        return _reference_count(new)

    return probe([], [], ())


_FRESH = _count_fresh()


def _only_linked(entry: list) -> bool:
    """Does nothing but the link (its entry and the export table) hold the code's copy any more?"""
    count = sys.getrefcount(entry[0])
    return count <= _LINK_ONLY


def _probe() -> int:
    obj: list = []
    exports = {1: obj}
    entry = [obj, None]
    del obj
    count = sys.getrefcount(entry[0])
    assert exports
    return count


_LINK_ONLY = _probe()
