"""The lines of a JSONL file a person brings (a task suite, samples from another harness): one JSON object a line,
each read by the caller's own rule, and a file with bad lines refused whole, every bad line named with its number."""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass
from typing import TypeVar

MAX_REPORTED = 10  # bad lines named in the message; the rest are counted
Item = TypeVar("Item")


@dataclass(frozen=True)
class JsonlFile:
    """A file a person brings, by its name and the SHA-256 of its bytes (what its items are: the subclass's)."""

    name: str
    sha256: str

    @property
    def named(self) -> str:
        """'tasks.jsonl (sha 1a2b3c4d)': the file as lists and pages name it."""
        return f"{self.name} (sha {self.sha256[:8]})"


def parse_lines(data: bytes, name: str, read: Callable[[object, int, int], Item], error: type[Exception],
                refused: str) -> list[Item]:
    """read(record, line number, items read so far) for each non-blank line, in order; the items, or error naming
    the file and each bad line (not UTF-8, not JSON, or the ValueError read raised) with "nothing is {refused}"."""
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = data[:exc.start].count(b"\n") + 1
        raise error(f"{name}: line {line}: not UTF-8 text") from None
    items: list[Item] = []
    problems: list[str] = []
    for number, line in enumerate(text.splitlines(), start=1):
        if not line.strip():
            continue
        try:
            record = json.loads(line)
        except json.JSONDecodeError as exc:
            problems.append(f"line {number}: not JSON: {exc.msg} (column {exc.colno})")
            continue
        try:
            items.append(read(record, number, len(items)))
        except ValueError as exc:
            problems.append(f"line {number}: {exc}")
    if problems:
        more = f"; and {len(problems) - MAX_REPORTED} more bad lines" if len(problems) > MAX_REPORTED else ""
        raise error(f"{name} is refused, nothing is {refused}: {'; '.join(problems[:MAX_REPORTED])}{more}")
    return items
