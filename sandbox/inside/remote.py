"""Proxies for the candidate's functions and objects, used by the test process.

Every call becomes a request over a pipe to the candidate process; answers are plain data or
handles. A handle never equals plain data, whatever the candidate's ``__eq__`` would say.
"""

from __future__ import annotations

import builtins

import wire

_NEVER_RERAISED = {"SystemExit", "KeyboardInterrupt", "GeneratorExit", "BaseException"}


class CandidateDied(Exception):
    """The candidate process stopped answering: it exited, crashed or was killed."""


class RemoteError(Exception):
    """Base of exceptions re-raised from the candidate process."""

    remote_traceback = ""

_error_classes: dict[tuple[str, str], type] = {}


def _remote_exception(info: dict) -> BaseException:
    """Rebuild the candidate's exception as a local one of the same builtin family (so except works)."""
    base_name = info.get("base", "Exception")
    base = getattr(builtins, base_name, Exception)
    if base_name in _NEVER_RERAISED or not (isinstance(base, type) and issubclass(base, Exception)):
        base = Exception
    key = (str(info.get("type")), base.__name__)
    if key not in _error_classes:
        bases = (RemoteError,) if base is Exception else (base, RemoteError)
        _error_classes[key] = type(key[0], bases, {"__module__": "solution"})
    cls = _error_classes[key]
    exc = cls.__new__(cls)
    exc.args = (str(info.get("message", "")),)
    exc.remote_traceback = str(info.get("traceback", ""))
    if isinstance(exc, ModuleNotFoundError):
        exc.name = info["module"] if type(info.get("module")) is str else None
    return exc


class Channel:
    """Request/response pipe to the candidate process."""

    def __init__(self, req_fd: int, resp_fd: int) -> None:
        self.req_fd, self.resp_fd = req_fd, resp_fd
        self.dead: str | None = None

    def receive(self) -> tuple:
        try:
            message = wire.recv(self.resp_fd)
        except (wire.ChannelClosed, OSError) as exc:
            self.dead = f"the candidate process stopped answering ({exc or 'it exited'})"
            raise CandidateDied(self.dead) from None
        if type(message) is not tuple or not message or type(message[0]) is not str:
            self.dead = "the candidate process sent a garbled answer"
            raise CandidateDied(self.dead)
        return message

    def request(self, op: str, ref: tuple, *args: object) -> object:
        if self.dead:
            raise CandidateDied(self.dead)
        try:
            wire.send(self.req_fd, (op, ref, *args))
        except OSError:
            self.dead = "the candidate process is gone"
            raise CandidateDied(self.dead) from None
        answer = self.receive()
        if answer[0] == "ok" and len(answer) == 3:
            return answer
        if answer[0] == "err" and len(answer) == 2 and type(answer[1]) is dict:
            raise _remote_exception(answer[1])
        if answer[0] == "stop":
            raise StopIteration
        raise CandidateDied("the candidate process sent a garbled answer")

    def decode(self, enc: object) -> object:
        if type(enc) is tuple and len(enc) == 2 and enc[0] == "v":
            return enc[1]
        if type(enc) is tuple and len(enc) == 4 and enc[0] == "a":
            try:
                return wire.from_record(enc)
            except wire.ChannelClosed:
                raise CandidateDied("the candidate process sent a garbled array") from None
        if type(enc) is tuple and len(enc) == 4 and enc[0] == "h" and type(enc[1]) is int:
            return RemoteObject(self, enc[1], str(enc[2]), str(enc[3]))
        raise CandidateDied("the candidate process sent a garbled value")


def _encode_arg(value: object) -> tuple:
    if isinstance(value, RemoteObject):
        return ("h", object.__getattribute__(value, "_id"))
    data = wire.encode_data(value)
    if data is None:
        raise TypeError(
            f"cannot pass a {type(value).__name__} to the code under test: only plain data "
            "(numbers, strings, bytes, lists, tuples, dicts, sets, None, and a numpy array of numbers as a "
            "whole argument) crosses the sandbox boundary"
        )
    return data


def _call(channel: Channel, ref: tuple, args: tuple, kwargs: dict) -> object:
    _, result, mutated = channel.request(
        "call", ref, [_encode_arg(a) for a in args], {k: _encode_arg(v) for k, v in kwargs.items()}
    )
    for index, new in mutated if type(mutated) is list else ():
        arg = args[index] if type(index) is int and 0 <= index < len(args) else None
        if type(arg) is list and type(new) is list:
            arg[:] = new
        elif type(arg) in (dict, set) and type(new) is type(arg):
            arg.clear()
            arg.update(new)
        elif wire.is_array(arg) and arg.flags.writeable and type(new) is tuple and new[:1] == ("a",):
            try:
                changed = wire.from_record(new)
            except wire.ChannelClosed:
                continue
            if changed.shape == arg.shape and changed.dtype == arg.dtype:
                arg[...] = changed
    return channel.decode(result)


class RemoteCallable:
    """A function or class defined by the candidate code."""

    def __init__(self, channel: Channel, name: str) -> None:
        self._channel, self.__name__ = channel, name

    def __call__(self, *args: object, **kwargs: object) -> object:
        return _call(self._channel, ("g", self.__name__), args, kwargs)

    def __repr__(self) -> str:
        return f"<candidate {self.__name__}>"


class RemoteObject:
    """An object that lives in the candidate process; it equals only objects of the candidate's own."""

    __slots__ = ("_channel", "_id", "_type", "_repr")

    def __init__(self, channel: Channel, handle: int, type_name: str, text: str) -> None:
        for name, value in zip(self.__slots__, (channel, handle, type_name, text)):
            object.__setattr__(self, name, value)

    def _ask(self, op: str, *args: object) -> object:
        channel = object.__getattribute__(self, "_channel")
        return channel.decode(channel.request(op, ("h", object.__getattribute__(self, "_id")), *args)[1])

    def __getattr__(self, name: str) -> object:
        if name.startswith("__"):
            raise AttributeError(name)
        return self._ask("getattr", name)

    def __setattr__(self, name: str, value: object) -> None:
        self._ask("setattr", name, _encode_arg(value))

    def __call__(self, *args: object, **kwargs: object) -> object:
        ref = ("h", object.__getattribute__(self, "_id"))
        return _call(object.__getattribute__(self, "_channel"), ref, args, kwargs)

    def __iter__(self) -> object:
        it = self._ask("iter")
        return it if isinstance(it, RemoteObject) else iter(it)

    def __next__(self) -> object:
        return self._ask("next")

    def __len__(self) -> int:
        return int(self._ask("len"))

    def __getitem__(self, key: object) -> object:
        return self._ask("getitem", _encode_arg(key))

    def __setitem__(self, key: object, value: object) -> None:
        self._ask("setitem", _encode_arg(key), _encode_arg(value))

    def __contains__(self, item: object) -> bool:
        return self._ask("contains", _encode_arg(item)) is True

    def __bool__(self) -> bool:
        return self._ask("bool") is True

    def __str__(self) -> str:
        return str(self._ask("str"))

    def __repr__(self) -> str:
        return object.__getattribute__(self, "_repr")

    def _binop(self, name: str, other: object) -> object:
        if not isinstance(other, RemoteObject):
            # A candidate object against plain data: its own __eq__ could claim anything.
            return NotImplemented
        return self._ask("binop", name, _encode_arg(other))

    def __eq__(self, other: object) -> bool:
        result = self._binop("eq", other)
        return result is True

    def __ne__(self, other: object) -> bool:
        return not self.__eq__(other)

    def __lt__(self, other: object) -> object:
        return self._binop("lt", other)

    def __le__(self, other: object) -> object:
        return self._binop("le", other)

    def __gt__(self, other: object) -> object:
        return self._binop("gt", other)

    def __ge__(self, other: object) -> object:
        return self._binop("ge", other)

    __hash__ = object.__hash__
