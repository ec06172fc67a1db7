"""Errors across: what the other side needs to raise one of this side's exceptions again, and the other side's
exception raised here as one of this side's classes.

Runs inside the sandbox (stdlib only), in both processes; peer.py's Peer has these methods.
"""

from __future__ import annotations

import collections
import traceback

import proxies
import values
from kinds import (
    MESSAGE_LIMIT,
    builtin_exception_name,
    exception_fields,
    is_builtin_exception,
    short_text,
    standard_name,
    text_of,
)


class RemoteErrors:
    """Describing this side's exceptions for the other side, and rebuilding the other side's here."""

    def describe_error(self, exc: BaseException, depth: int = 0) -> dict:
        """What the other side needs to raise it again: its type (a mirror when it is this side's own class), the
        nearest builtin exception, the message, a traceback trimmed to this side's own file, and what it was raised
        from (``__cause__``, ``__context__``, ``from None``), its notes and a group's exceptions, as in one process
        (``assert err.__cause__`` of a ``raise ParseError(...) from exc``)."""
        if isinstance(exc, MemoryError):
            # The frames' locals hold what filled the memory (a list grown forever): let it go before describing.
            traceback.clear_frames(exc.__traceback__)
        try:
            info = self._described(exc)
            if depth < _MAX_CHAIN and "home" not in info:
                self._chain(exc, info, depth + 1)
            return info
        except MemoryError:
            return {"type": type(exc).__name__, "base": "MemoryError", "message": "", "traceback": "", "lineno": None}

    def _chain(self, exc: BaseException, info: dict, depth: int) -> None:
        for key, linked in (("cause", exc.__cause__), ("context", exc.__context__)):
            if isinstance(linked, BaseException) and linked is not exc:
                info[key] = self.describe_error(linked, depth)
        if exc.__suppress_context__ is True:
            info["suppress_context"] = True
        notes = getattr(exc, "__notes__", None)
        if type(notes) is list:
            info["notes"] = [text_of(str, n)[:10000] for n in notes[:100]]
        if isinstance(exc, BaseExceptionGroup):
            info["group"] = [self.describe_error(e, depth) for e in exc.exceptions[:_MAX_GROUP]]

    def _described(self, exc: BaseException) -> dict:
        cls = type(exc)
        frames = _own_frames(exc.__traceback__, self.hooks.source_file)
        lines = traceback.format_list(frames)
        if isinstance(exc, SyntaxError) and exc.filename == self.hooks.source_file:
            lines = traceback.format_exception_only(cls, exc)[:-1]
        # A group's str adds "(2 sub-exceptions)" to its message, which rebuilding it would add again.
        grouped = isinstance(exc, BaseExceptionGroup) and type(exc.message) is str
        message = exc.message if grouped else text_of(str, exc, MESSAGE_LIMIT)
        info = {"type": cls.__name__, "base": builtin_exception_name(cls), "exact": is_builtin_exception(cls),
                "message": message,
                **exception_fields(exc),
                "qualified": standard_name(cls),
                "traceback": short_text("".join(lines)),
                "lineno": frames[-1].lineno if frames else getattr(exc, "lineno", None)}
        if isinstance(exc, ModuleNotFoundError) and type(getattr(exc, "name", None)) is str:
            info["module"] = exc.name  # which module was missing: the host tells an absent package from a bug
        ref = proxies.ref_of(exc)
        if ref is not None and ref.peer is self:
            info["home"] = ref.handle  # the other side's own exception, coming back
            return info
        # Kept here, so that its attributes can be asked for, and so that if the other side lets it through it comes
        # back as itself (a failing assert of the tests inside a callback keeps the values it compared).
        info["handle"] = self.export(exc)
        if self._own_class(cls):
            try:
                info["class"] = self.describe_class(cls)
            except Exception:
                pass
        return info

    def rebuild_error(self, info: dict, depth: int = 0, built: dict | None = None) -> BaseException:
        """The other side's exception as one of this side's: its mirror class when it has one, else a class of the
        same builtin family (so ``except ValueError`` and ``pytest.raises`` work), marked as the other side's; with
        what it was raised from, its notes and a group's exceptions (describe_error). built: id(info) -> what was
        rebuilt of it, so that one description held many times (marshal keeps it one) is rebuilt once."""
        built = {} if built is None else built
        if id(info) in built:
            return built[id(info)]
        exc = built[id(info)] = self._rebuilt(info, depth, built)
        if depth >= _MAX_CHAIN or type(info.get("home")) is int:
            return exc
        for key, attr in (("cause", "__cause__"), ("context", "__context__")):
            if type(info.get(key)) is dict:
                setattr(exc, attr, self.rebuild_error(info[key], depth + 1, built))
        if info.get("suppress_context") is True:
            exc.__suppress_context__ = True
        notes = info.get("notes")
        if type(notes) is list:
            exc.__notes__ = [n for n in notes if type(n) is str]
        return exc

    def _rebuilt(self, info: dict, depth: int, built: dict) -> BaseException:
        group = info.get("group")
        if type(group) is list and depth < _MAX_CHAIN:
            group = [self.rebuild_error(g, depth + 1, built) for g in group[:_MAX_GROUP] if type(g) is dict]
        else:
            group = None
        try:
            if type(info.get("home")) is int:
                home = self.exports.get(info["home"])
                if isinstance(home, BaseException):
                    # This side's own failure coming back through the other side: not one it hid (report.py).
                    swallowed = getattr(self.hooks, "swallowed", None)
                    if type(swallowed) is list:
                        swallowed[:] = [e for e in swallowed if e is not home]
                    return home
            if type(info.get("class")) is tuple and type(info.get("handle")) is int:
                cls = self.mirror(info["class"])
                if issubclass(cls, BaseException):
                    ref = proxies.Ref(self, info["handle"], short_text(info.get("message")))
                    exc = proxies.instance(cls, ref, None)
                    proxies.give_args(exc, info)
                    exc.remote_traceback = str(info.get("traceback", ""))
                    return exc
        except (values.BadRecord, TypeError, ValueError):
            pass
        handle = info.get("handle")
        ref = proxies.Ref(self, handle, short_text(info.get("message"))) if type(handle) is int else None
        qualified = info.get("qualified")
        exc = proxies.remote_exception(self, str(info.get("base", "Exception")), str(info.get("message", "")),
                                       ref, str(info.get("type")), qualified if type(qualified) is str else None,
                                       group, info.get("exact") is True)
        exc.remote_traceback = str(info.get("traceback", ""))
        if not isinstance(exc, BaseExceptionGroup):
            proxies.give_args(exc, info)
        if isinstance(exc, ModuleNotFoundError):
            exc.name = info["module"] if type(info.get("module")) is str else None
        return exc


_MAX_CHAIN = 4  # exceptions a chain carries across (an error raised from an error raised from ...): the rest stay
_MAX_GROUP = 100  # a group's exceptions each side describes and rebuilds: a message cannot fan out past 100**4


def _own_frames(tb: object, filename: str, keep: int = 20) -> traceback.StackSummary:
    """The last frames of a traceback that are in this side's own file: cheap however deep the traceback (an error
    passing back through hundreds of nested calls is described at each of them)."""
    found: collections.deque = collections.deque(maxlen=keep)
    for frame, lineno in traceback.walk_tb(tb):
        if frame.f_code.co_filename == filename:
            found.append((frame, lineno))
    return traceback.StackSummary.extract(iter(found))
