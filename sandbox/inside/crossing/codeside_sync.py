"""What the code's process takes on from the tests' around each request, and what it sends back.

Runs inside the sandbox (stdlib only), in the code's process. A test that sets an environment variable
(monkeypatch.setenv) expects the code to see it (the working directory is handover.py's); a test that captures output or
logs (capsys, caplog, pytest.warns, contextlib.redirect_stdout) expects what the code printed, logged or warned during
its calls. The tests' process says so in each request's extra (testside_sync); this module applies it for the length of
the request, and returns what the code printed, logged and warned in the answer.
"""

from __future__ import annotations

import functools
import io
import os
import sys
import threading

import decimal_context
import environment
import process_state


LOG_ARGS = (str, int, float, bool, type(None))  # a record's args that cross as they are: getMessage() formats alike
MAX_CAPTURE = 1 << 20  # characters of output one capture keeps; past it the rest is cut and says so


class _CappedText(io.StringIO):
    """stdout or stderr while a test captures it: keeps up to MAX_CAPTURE characters."""

    def __init__(self) -> None:
        super().__init__()
        self.cut = False

    def write(self, text: str) -> int:
        room = MAX_CAPTURE - self.tell()
        if len(text) > room:
            self.cut = True
            super().write(str(text)[:max(room, 0)])
            return len(text)
        return super().write(text)

    def take(self) -> str:
        text = self.getvalue() + ("\n[output cut: more than 1 MiB]\n" if self.cut else "")
        self.seek(0)
        self.truncate()
        self.cut = False
        return text


class _Records:
    """A logging handler that keeps the records of one request, as plain data."""

    def __init__(self, levels: dict) -> None:
        import logging

        class Handler(logging.Handler):
            def emit(handler, record: logging.LogRecord) -> None:  # noqa: N805
                try:
                    message, formats = record.getMessage(), True
                except Exception as exc:
                    message, formats = f"<unformattable log message: {exc!r}>", False
                kept = {"name": str(record.name), "levelno": int(record.levelno),
                        "levelname": str(record.levelname), "msg": message[:10000],
                        "lineno": int(record.lineno or 0), "funcName": str(record.funcName)}
                args = record.args
                # Plain args cross with the format (caplog.records[0].args == (-1,)), exact types only: a subclass's
                # str could run the code's method on the tests' side.
                if (formats and type(record.msg) is str and type(args) is tuple and len(args) <= 20
                        and all(type(a) in LOG_ARGS for a in args)):
                    kept.update(msg=record.msg[:10000], args=args)
                elif formats and type(record.msg) is str and type(args) is tuple and len(args) <= 20:
                    # Other args cross as objects beside the message formatted here (caplog.records[0].args[0] is
                    # the code's Item): formatting them again there would call the code back from a log handler.
                    kept.update(msg=record.msg[:10000], message=message[:10000], objects={"args": args})
                objects = kept.setdefault("objects", {})
                exception = _exception_fields(record, objects)
                kept.update(exception)
                # logger.warning("login", extra={"user": name}): caplog.records[0].user. Plain values only: a
                # handler of the tests' formatting "%(user)s" of an object would call the code from inside one.
                extra = {k: v for k, v in list(vars(record).items())[:200]
                         if k not in own_fields and type(k) is str and type(v) in LOG_ARGS}
                if extra:
                    kept["extra"] = extra
                self.records.append(kept)

        own_fields = record_fields()
        self.records: list[dict] = []
        self.handler = Handler(0)
        self.saved = {}
        for name, level in levels.items():
            if type(name) is str and type(level) is int:
                logger = logging.getLogger(name or None)
                self.saved[name] = logger.level
                logger.setLevel(level)
        logging.getLogger().addHandler(self.handler)

    def close(self, encode) -> list[dict]:
        """The records, each one's objects (args, exception, extra fields) encoded to cross; one that cannot is left
        out of its record."""
        import logging

        logging.getLogger().removeHandler(self.handler)
        for name, level in self.saved.items():
            logging.getLogger(name or None).setLevel(level)
        for kept in self.records:
            objects = kept.pop("objects", None)
            if objects:
                crossed = {key: _encoded(encode, value) for key, value in objects.items()}
                kept["objects"] = {k: v for k, v in crossed.items() if v is not None}
        return self.records


def _encoded(encode, value: object) -> tuple | None:
    """value as it crosses, or None where it cannot (a record then goes without it: a log line is never a reason for
    the code's call to fail)."""
    try:
        return encode(value)
    except Exception:
        return None


@functools.cache
def record_fields() -> frozenset:
    """The attributes a LogRecord has of its own: any other was passed as extra=."""
    import logging

    made = logging.LogRecord("n", 0, "p", 0, "m", (), None)
    return frozenset(vars(made)) | {"message", "asctime", "taskName"}


def _exception_fields(record, objects: dict) -> dict:
    """A record's exception (logger.exception, exc_info=True) and stack (stack_info=True): the traceback as this
    process formats it, as a handler's formatter would here; the exception goes in objects, to cross as exc_info."""
    import logging

    found = {}
    info = record.exc_info
    if type(info) is tuple and len(info) == 3 and isinstance(info[1], BaseException):
        try:
            text = record.exc_text or logging.Formatter().formatException(info)
        except Exception:
            text = None
        if type(text) is str:
            found["exc_text"] = text[:100000]
        objects["exc"] = info[1]
    if type(record.stack_info) is str:
        found["stack_info"] = record.stack_info[:100000]
    return found


class _Frame:
    """One request's capture: the streams it replaced, its log records and its warnings."""

    def __init__(self, extra: dict) -> None:
        self.streams = None
        if extra.get("capture"):
            self.streams = (sys.stdout, sys.stderr)
            sys.stdout, sys.stderr = _CappedText(), _CappedText()
        self.records = _Records(extra["log"]) if type(extra.get("log")) is dict else None
        self.warnings = None
        if extra.get("warn"):
            import warnings

            self.warnings = warnings.catch_warnings(record=True)
            self.caught = self.warnings.__enter__()
            warnings.simplefilter("always")

    def output(self) -> dict:
        return captured() if self.streams is not None else {}

    def close(self, encode) -> dict:
        found = self.output()
        if self.streams is not None:
            sys.stdout, sys.stderr = self.streams
        if self.records is not None:
            records = self.records.close(encode)
            if records:
                found["logs"] = records
        if self.warnings is not None:
            caught = list(self.caught)
            self.warnings.__exit__(None, None, None)
            if caught:
                found["warnings"] = [(encode(w.category), str(w.message)[:10000], int(w.lineno or 0))
                                     for w in caught[:100]]
        return found


def captured() -> dict:
    """What the capture in place took so far ({"out": ..., "err": ...}), taken out of it."""
    found = {}
    for name, stream in (("out", sys.stdout), ("err", sys.stderr)):
        if isinstance(stream, _CappedText):
            text = stream.take()
            if text:
                found[name] = text
    return found


class Sync:
    """The stack of the requests being served (a callback's request nests inside a call's): each one's capture, and
    the interpreter's state and decimal settings as it began."""

    def __init__(self) -> None:
        import threading

        self.local = threading.local()  # each thread serving the tests' calls has its own stack
        self.own_streams = (sys.stdout, sys.stderr)  # before the code replaced any (process_state.changes)
        self.encode = None

    @property
    def requests(self) -> list[tuple[_Frame | None, tuple, tuple | None]]:
        """(its capture, process_state.snapshot(), decimal_context.settings(), environment.raw(), sys.argv as it was)
        for each request being served."""
        found = getattr(self.local, "requests", None)
        if found is None:
            found = self.local.requests = []
        return found

    def enter(self, extra: dict | None) -> None:
        if extra:
            env = extra.get("env")
            if type(env) is dict and all(type(k) is str and type(v) is str for k, v in env.items()):
                os.environ.clear()
                os.environ.update(env)
            if "decimal" in extra:
                decimal_context.apply(extra["decimal"])
        wanted = extra and (extra.get("capture") or extra.get("log") or extra.get("warn"))
        self.requests.append((_Frame(extra) if wanted else None, process_state.snapshot(), decimal_context.settings(),
                              environment.raw(), environment.argv_list(sys.argv)))

    def leave(self) -> dict | None:
        frame, began, decimals, env, argv = self.requests.pop() if self.requests else (None,) * 5
        flush_streams()
        kept = process_state.changes(began, self.own_streams, self.encode, _CappedText) if began is not None else {}
        streams = sys.stdout, sys.stderr
        found = (frame.close(self.encode) or None) if frame else None
        if kept:
            # Over the streams the capture put back: the code's where it kept one, its own where it put back the
            # one it saw (the tests' own again, on their side too).
            for index, name in enumerate(("stdout", "stderr")):
                if name in kept:
                    setattr(sys, name, streams[index] if kept[name] is not None else self.own_streams[index])
            found = {**(found or {}), "process": kept}
        now = decimal_context.settings()
        if now is not None and now != decimals:  # the code changed the context (getcontext().prec = 4) and kept it
            found = {**(found or {}), "decimal": now}
        env_changes = environment.changes_since(env)
        if env_changes:  # os.environ["APP_MODE"] = "dev": the tests' os.environ too, as one process has one
            found = {**(found or {}), "env_changes": env_changes}
        argv_now = environment.argv_list(sys.argv)
        if argv is not None and argv_now is not None and argv_now != argv:  # sys.argv[1:] = ['--verbose'], the same
            found = {**(found or {}), "argv": argv_now}
        return found

    def redirected(self, encode) -> dict | None:
        """The streams the code put in place of its own (contextlib.redirect_stdout(buffer)), sent with a call back to
        the tests: what the tests' function prints goes there, as in one process (a capture of the tests' is not
        the code's: it stays theirs)."""
        found = {}
        for index, name in enumerate(("stdout", "stderr")):
            stream = getattr(sys, name)
            if stream is not self.own_streams[index] and not isinstance(stream, _CappedText):
                found[name] = encode(stream)
        return {"redirect": found} if found else None

    def flush(self) -> dict | None:
        """What the innermost capture holds so far (sent ahead of a call back to the tests)."""
        frame = self.requests[-1][0] if self.requests else None
        flush_streams()
        if frame is None and not self.requests:
            # A thread the code started during a call (a pool): what it printed went to that call's capture, the
            # process's sys.stdout, and comes before what the tests' function prints
            return captured() or None
        return (frame.output() or None) if frame else None


_flushing = threading.local()


def flush_streams() -> None:
    """Flush the code's streams, once at a time per thread: a stream the code set to a test's buffer flushes by a
    request, whose own flush before it would flush it again, and again (it hung)."""
    if getattr(_flushing, "now", False):
        return
    _flushing.now = True
    try:
        for stream in (sys.stdout, sys.stderr):
            try:
                stream.flush()
            except BaseException:
                pass
    finally:
        _flushing.now = False
