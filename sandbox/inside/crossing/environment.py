"""The environment variables the code changes during a call, sent back to the tests' process (one process has one
os.environ: a test that sets APP_MODE and then calls code that overwrites it reads the code's value), and what
sys.argv may be, either way.

Runs inside the sandbox (stdlib only), in both processes. The tests' process sends its whole environment with a
request when it changed (testside_sync); the code's answers carry only what the call set or unset, so a variable
of the code's process that the call left alone never reaches the tests.
"""

from __future__ import annotations

import os

MAX_CHANGES = 1000  # variables one answer may set or unset
MAX_TEXT = 1 << 20  # characters of names and values one answer may carry
MAX_ARGS = 10_000  # the arguments a sys.argv sent either way may hold


def raw() -> dict | None:
    """A copy of os.environ's own bytes mapping (CPython's posix os), or None where it has none: compared in a
    microsecond, where decoding every entry would cost each call."""
    found = getattr(os.environ, "_data", None)
    return dict(found) if type(found) is dict else None


def changes_since(before: dict | None) -> dict | None:
    """What was set ({"set": {name: value}}) and unset ({"unset": [name]}) since raw() gave before, or None."""
    now = getattr(os.environ, "_data", None)
    if before is None or type(now) is not dict or now == before:
        return None
    decode_key, decode_value = os.environ.decodekey, os.environ.decodevalue
    set_now = {decode_key(k): decode_value(v) for k, v in now.items() if before.get(k) != v}
    unset = [decode_key(k) for k in before if k not in now]
    found = {}
    if set_now:
        found["set"] = set_now
    if unset:
        found["unset"] = unset
    return found or None


def apply(changes: object) -> bool:
    """Take on what the other side's call set and unset (checked: names and values text, bounded); whether any."""
    if type(changes) is not dict:
        return False
    set_now, unset = changes.get("set", {}), changes.get("unset", [])
    if type(set_now) is not dict or type(unset) is not list or len(set_now) + len(unset) > MAX_CHANGES:
        return False
    if not all(type(k) is str and type(v) is str and k and "=" not in k and "\0" not in k + v
               for k, v in set_now.items()) or not all(type(k) is str for k in unset):
        return False
    if sum(len(k) + len(v) for k, v in set_now.items()) + sum(map(len, unset)) > MAX_TEXT:
        return False
    os.environ.update(set_now)
    for name in unset:
        os.environ.pop(name, None)
    return bool(set_now or unset)


def argv_list(value: object) -> list[str] | None:
    """value as a new list to be sys.argv, where it is a list of at most MAX_ARGS strings (what either side set, or
    sent), else None: a side that set sys.argv to something else keeps it to itself."""
    if type(value) is list and len(value) <= MAX_ARGS and all(type(a) is str for a in value):
        return list(value)
    return None
