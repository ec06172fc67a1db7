"""Inputs near the visible calls that reach the rules tasks often state in words, probed after a doubted pass.

The probes' own mutations (agent.loop.probes) shorten, reverse, empty and negate the examples. Tasks in words state
more: whitespace of any kind, case, separators it names, empty words, halves, ties and duplicates, ranges that only
touch, arguments that are equal. Answers that pass thin tests often differ exactly there (a tab where the example has
spaces, a hyphen between words, a tie in a count), so a doubt probes these too. Hypothesis reaches such cases by
copying one generated value over another (duplicates, equal arguments); EvalPlus by repeating an element. They are
probed only when a pass is doubted: a solve nobody doubts chooses among its candidates as before.
"""

from __future__ import annotations

import ast
import datetime
import functools
import itertools
import math
import re
from collections.abc import Mapping, Sequence
from decimal import Decimal
from fractions import Fraction

from agent.loop.asserted_calls import CALL_MARK, compared_results, literal
from agent.loop.constant_values import CALENDAR
from agent.loop.probes import (
    MAX_CALL_CHARS,
    VisibleCall,
    argument_places,
    bare_call,
    each_changed,
    keeps_contract,
    lettered,
    literal_call,
    literal_calls,
    mutations,
)
from agent.loop.task_words import (
    letter_beside,
    named_separators,
    not_values,
    quoted_values,
    stated_affixes,
    stated_contract,
    stated_thresholds,
    task_signature,
)

MAX_OPTION_CALLS = 8  # calls that pass an option of the task's signature by keyword, of the doubt's edge inputs
MAX_NAMED_VALUE_CALLS = 6  # calls that pass a text the task quotes (named_value_calls), of the doubt's edge inputs


def _text_edges(value: str, separators: Sequence[str]) -> list[str]:
    """Other whitespace and case than the example's; spaces around its first punctuation mark ("a = 1" where the
    example writes "a=1"), and that mark once more at the end; around its first line break, a blank line and a line
    without the mark; a space made each separator the task names (a hyphen between words:
    agent.loop.task_words.named_separators); a leading zero of a number dropped, or one added; a trailing line
    break; the text before its first mark with what follows it up to another mark left out (a field without its
    value); a comma after the first word of words without a mark; the calendar's edges of a date or a time in it
    (_calendar_edges)."""
    edges = [value.replace(" ", "\t", 1), value.replace(" ", "  ", 1)] if " " in value else []
    edges += [f" {value} ", value.swapcase(), value.title()]
    edges += _calendar_edges(value)
    mark = re.search(r"[^\w\s]", value)
    if mark:
        # Spaced, and once more at the end: where splitting at each mark and at the first one differ.
        edges += [f"{value[:mark.start()]} {mark.group()} {value[mark.end():]}", value + mark.group()]
    elif re.search(r"\w \w", value):  # words without a mark: a comma after the first, where words split by spaces
        edges.append(re.sub(r"(\w) (?=\w)", r"\1, ", value, count=1))  # keep it ("red," is no word of "red, blue")
        # The first word in quotes, and a dash alone between the first two: marks around a word, and a token of
        # marks only, where stripping marks and counting what is left as a word differ.
        edges.append(re.sub(r"(\w+)", r'"\1"', value, count=1))
        edges.append(re.sub(r"(\w) (?=\w)", r"\1 - ", value, count=1))
    if "\n" in value:
        edges += [value.replace("\n", " \n ", 1), value.replace("\n", "\n\n", 1)]
        if mark:  # a line without the mark the others have
            first_line = value.split("\n", 1)[0]
            edges.append(f"{value}\n{first_line.replace(mark.group(), ' ')}")
    edges += [value.replace(" ", char, 1) for char in separators if " " in value and char not in value]
    # A number written with a leading zero loses it ("2024-3-15"), or one without gains one ("192.168.01.1"): where
    # a check of the format and a parse of the number differ.
    numbers = [(run.start() + part.start(), part.group()) for run in re.finditer(r"\d+(?:[.,]\d+)*", value)
               if len(re.split("[.,]", run.group())) != 2  # 3.05 and 1,005 are one number: their digits are not
               for part in re.finditer(r"\d+", run.group())]
    padded = [at for at, digits in numbers if len(digits) > 1 and digits[0] == "0"]
    single = [at for at, digits in numbers if len(digits) == 1]
    if padded:
        edges.append(value[:padded[0]] + value[padded[0] + 1:])
    elif single:
        edges.append(f"{value[:single[0]]}0{value[single[0]:]}")
    if "\n" not in value:  # a pattern's $ matches before a trailing line break, where fullmatch does not
        edges.append(value + "\n")
    other = re.search(rf"[^\w\s{re.escape(mark.group())}]", value[mark.end():]) if mark else None
    if other:  # the first field without its value ("a&b=2" of "a=1&b=2"): a name alone, where a split into two fails
        edges.append(value[:mark.start()] + value[mark.end() + other.start():])
    return edges + _character_edges(value, separators)


# The first vowel (or n, c) of a text as a letter outside ASCII: what str.isalpha() calls a letter and "a" <= c <= "z"
# does not.
_OUTSIDE_ASCII = str.maketrans("aeiouncAEIOUNC", "áéíóúñçÁÉÍÓÚÑÇ")
_WORDS = re.compile(r"[A-Za-z][A-Za-z ,.;!?'-]*")  # a text of words and a sentence's marks, no digit


def _character_edges(value: str, separators: Sequence[str]) -> list[str]:
    """Its first character over its second ("RRBY" of "RGBY": a repeated letter); in a text of words, its first
    vowel (or n, c) as a letter outside ASCII ("Áda") and a number after it ("Ada 2"); in a text of one word, each
    separator the task names inside it and around it ("lumbe-rjacks", "/api/"): where counting characters, reading
    only A to Z as letters, leaving digits alone, and splitting or trimming at the marks the task names differ."""
    edges: list[str] = []
    if len(value) >= 2 and value[0] != value[1] and value[:2].isalpha():
        edges.append(value[0] + value[0] + value[2:])
    vowel = re.search("[aeiouncAEIOUNC]", value)
    if vowel and _WORDS.fullmatch(value):  # words, not a name of a format (a URL, a date, a code)
        at = vowel.start()
        edges += [value[:at] + value[at].translate(_OUTSIDE_ASCII) + value[at + 1:], f"{value} 2"]
    if len(value) >= 2 and not re.search(r"\s", value):
        middle = len(value) // 2
        for char in (c for c in separators if c not in value):
            edges += [value[:middle] + char + value[middle:], f"{char}{value}{char}"]
    return edges + _hex_edges(value) + _bracket_edges(value)


_CLOSERS = {"(": ")", "[": "]", "{": "}"}


def _bracket_edges(value: str) -> list[str]:
    """In a text that opens a bracket and closes it ('f(a[0], {b: 2})'), its last closing bracket made another kind's
    ('f(a[0], {b: 2}]') and its first opening bracket exchanged with that closing one ('f)a[0], {b: 2}('): where
    counting brackets, and checking that each is closed by its own kind after it opens, differ."""
    opened = next((i for i, c in enumerate(value) if c in _CLOSERS), None)
    closed = max((i for i, c in enumerate(value) if c in _CLOSERS.values()), default=None)
    if opened is None or closed is None or closed < opened:
        return []
    other = next(c for c in _CLOSERS.values() if c != value[closed])
    exchanged = value[:opened] + value[closed] + value[opened + 1:closed] + value[opened] + value[closed + 1:]
    return [value[:closed] + other + value[closed + 1:], exchanged]


# Digits in groups between the marks of an address. The mark is required: optional, a long run that fails at its
# end ('da39…9Z') would be tried split at every place, in time that doubles with each digit.
_HEX = re.compile(r"[0-9a-fA-F]+(?:[:. -][0-9a-fA-F]+)*")
_HEX_LEAST = 6  # hexadecimal characters a text without 0x or # holds at least: 'Dec 5', 'add 1', 'e4' are words


def _hex_edges(value: str) -> list[str]:
    """In a text of hexadecimal digits (the letters a to f and digits in groups between colons, hyphens, dots or
    spaces; after 0x or #, or at least _HEX_LEAST of them with a letter and a digit among them: a MAC address, a
    colour, a UUID), its first letter made g in the same case: where a check that reads every letter as a digit, or
    only A to F, and one that reads the hexadecimal ones differ."""
    prefix = next((p for p in ("0x", "0X", "#") if value.startswith(p)), "")
    body = value[len(prefix):]
    letters = [c for c in body if c.isalpha()]
    hex_chars = sum(c.isalnum() for c in body)  # the pattern lets in hexadecimal characters and marks alone
    if not _HEX.fullmatch(body) or not letters or not (
            prefix or (hex_chars >= _HEX_LEAST and any(c.isdigit() for c in body))):
        return []
    at = len(value) - len(body) + body.index(letters[0])
    return [value[:at] + ("g" if letters[0].islower() else "G") + value[at + 1:]]


def _leap(year: int) -> bool:
    return year % 4 == 0 and (year % 100 != 0 or year % 400 == 0)


def _calendar_edges(value: str) -> list[str]:
    """The first ISO date in the text made February 29 of its year and of the nearest year of the other kind (one
    of them no date), then December 31 (a day later is another year); the first clock time made the first hour of
    the day, noon's hour and 23:59, or, written with AM or PM, twelve o'clock of both halves: where the calendar's
    rules, and code that forgets one, differ."""
    edges: list[str] = []
    date = re.search(r"(?<!\d)(\d{4})-(\d{2})-(\d{2})(?!\d)", value)
    if date:
        year = int(date.group(1))
        other = next(y for y in range(year + 1, year + 9) if _leap(y) != _leap(year))
        edges += [value[:date.start()] + day + value[date.end():]
                  for day in (f"{year}-02-29", f"{other}-02-29", f"{year}-12-31")]
    clock = re.search(r"(?<![\d:])(\d{1,2}):(\d{2})(?![\d:]*\d)(\s*[AaPp]\.?[Mm]\.?)?", value)
    if clock:
        hour, minutes, half = clock.groups()
        if half:  # twelve is where a 12-hour clock's halves turn: 12 AM is the day's first hour
            swapped = half.translate(str.maketrans("AaPp", "PpAa"))
            times = [f"12:{minutes}{half}", f"12:{minutes}{swapped}"]
        else:
            times = [f"{'0' * len(hour)}:{minutes}", f"12:{minutes}", "23:59"]
        edges += [value[:clock.start()] + t + value[clock.end():] for t in times
                  if t != clock.group()]
    return edges


def _anniversaries(first: object, second: object) -> list[object]:
    """The first date's month and day in the second's year, and the day before (a birthday, a renewal): where a
    count of whole years and one of days over 365 differ; none where that day is no date (February 29)."""
    try:
        day = first.replace(year=second.year)
    except (ValueError, OverflowError, AttributeError, TypeError):
        return []
    found = [day]
    try:
        found.append(day - datetime.timedelta(days=1))
    except OverflowError:  # January 1 of year 1
        pass
    return [v for v in found if v != second]


def _number_edges(value: float) -> list[float]:
    """Halves near the example (2.5 and -2.5 near 2.7, 1.5 above): where rounding, and code that rounds, differ; and
    above a non-negative one below a million, the first of a tenth, two and three tenths more (in decimal: 0.35 of
    0.25) that binary floats hold only nearly and that is no half nor whole: where sums and products show it (0.35
    * 3 is 1.0499999999999998) and an answer that forgets to round as the task says differs."""
    if not math.isfinite(value):  # 1e999 is a literal too
        return []
    half = int(value) + (0.5 if value >= 0 else -0.5)
    edges = [half, -half, half - 1 if value >= 0 else half + 1]
    if 0 <= value < 1e6:
        for step in ("0.1", "0.2", "0.3"):
            near = float(Decimal(repr(value)) + Decimal(step))
            if near not in edges and not near.is_integer() and Fraction(near) != Fraction(repr(near)):
                return [*edges, near]
    return edges


def _list_edges(value: list | tuple) -> list[object]:
    """Case inside a string element; in a list of texts alone, an empty string before them, the first text padded
    with spaces and with two between its words, two full names tied on the last word (_last_word_tie); numbers made
    negative (the first, then all), the first text of a first record (a dict) padded with spaces and in capitals, a
    duplicate (the first element over the second), the distinct elements alone, pairs that touch (the second pair
    starting where the first ends), and texts, or records' text fields (up to MAX_CASE_ORDER_FIELDS of them), that
    order alike by case and apart from it made to differ (_case_order_edges)."""
    kind, items = type(value), list(value)
    edges: list[object] = []
    numbers = [i for i, x in enumerate(items) if _is_number(x) and x > 0]
    if numbers and all(_is_number(x) for x in items):
        # Where floor and truncation, or a best sum that starts at 0, differ: inside only where the task speaks of
        # negative numbers or an example holds one (agent.loop.probes.within_contract).
        i = numbers[0]
        edges += [kind(items[:i] + [-items[i]] + items[i + 1:]), kind(-x if x > 0 else x for x in items)]
    record = items[0] if items and isinstance(items[0], dict) else None
    named = next((k for k, v in record.items() if isinstance(v, str) and v.strip()), None) if record else None
    if named is not None:  # a record's text padded and in capitals: names read apart from how they are written
        edges += [kind([{**record, named: f" {record[named]} "}] + items[1:]),
                  kind([{**record, named: record[named].upper()}] + items[1:])]
    texts = [i for i, x in enumerate(items) if isinstance(x, str) and x]
    if texts:
        i = texts[0]
        edges += [kind(items[:i] + [items[i].upper()] + items[i + 1:]),
                  kind(items[:i] + [items[i].capitalize()] + items[i + 1:])]
        if all(isinstance(x, str) for x in items):
            edges.append(kind([""] + items))  # an empty word among words
            # Spaces around a text, and two between its words: where split() and split(" ") differ.
            edges.append(kind(items[:i] + [f" {items[i]} "] + items[i + 1:]))
            if " " in items[i]:
                edges.append(kind(items[:i] + [items[i].replace(" ", "  ", 1)] + items[i + 1:]))
            edges += _last_word_tie(items, kind)
    if len(items) >= 2:
        edges.append(kind([items[0], items[0]] + items[2:]))
        try:
            distinct = list(dict.fromkeys(items))
        except TypeError:  # unhashable elements: no distinct version
            distinct = items
        if len(distinct) < len(items):
            edges.append(kind(distinct))
        if all(isinstance(x, (list, tuple)) and len(x) == 2 for x in items[:2]):
            edges.append(kind([items[0], type(items[1])([items[0][1], items[1][1]])] + items[2:]))
    # Last, the order read apart from case: of the texts, then of the records' first text fields that show it.
    edges += _case_order_edges(items, kind) if texts else []
    fields = [edge for key in _record_text_keys(items) for edge in _case_order_edges(items, kind, key)]
    return edges + fields[:MAX_CASE_ORDER_FIELDS]


def _last_word_tie(items: list, kind: type) -> list[object]:
    """Of the first two texts of several words each (full names), the one whose first word comes first in the
    alphabet given the other's last word and its first word in lower case, placed second: the texts tie on the last
    word, and what breaks the tie orders them one way read apart from case ("ada Turing" first) and the other way
    read by case or by their place ("Alan Turing" first): where sorting by a last word, then by the whole text
    ignoring case, and code that ignores the case of only one or breaks no tie differ. None where both readings
    order them alike (a later first word in lower case already, or one beyond A to Z: 'zoe' and 'Émile')."""
    words = [x.split() for x in items[:2]]
    if len(words) < 2 or any(len(w) < 2 for w in words) or words[0][-1] == words[1][-1]:
        return []
    early, late = sorted(words, key=lambda w: w[0].lower())
    tied, kept = " ".join([early[0].lower(), *early[1:-1], late[-1]]), " ".join(late)
    if (tied.lower() < kept.lower()) == (tied < kept):
        return []
    return [kind([kept, tied] + items[2:])]


def _record_text_keys(items: list) -> list[object]:
    """The keys at which every element of a list of two or more records (dicts) holds a text."""
    if len(items) < 2 or not all(isinstance(x, dict) for x in items):
        return []
    return [k for k in items[0] if all(isinstance(x.get(k), str) for x in items)]


_NO_KEY = object()  # the texts are the list's elements, not a field of records
MAX_CASE_ORDER_FIELDS = 2  # records' text fields whose order by case a list's edges change (_case_order_edges)


def _case_order_edges(items: list, kind: type, key: object = _NO_KEY) -> list[object]:
    """The texts of a list (or each record's text at key) with the one first in the alphabet put in lower case, or,
    where that orders them alike, the last one capitalised: so that ordering by case ('IT' before 'Sales' before
    'it') and apart from it ('IT', 'it', 'Sales') differ, where every example happened to write the first in
    capitals. None where the texts are fewer than two, or already differ so, or neither change makes them differ."""
    def text(x: object) -> object:
        return x.get(key) if key is not _NO_KEY else x

    at = [i for i, x in enumerate(items) if isinstance(text(x), str) and text(x)]
    values = [text(items[i]) for i in at]
    if len(set(v.casefold() for v in values)) < 2 or sorted(values) != sorted(values, key=str.casefold):
        return []
    first = min(at, key=lambda i: text(items[i]).casefold())
    last = max(at, key=lambda i: text(items[i]).casefold())
    for i, changed in ((first, text(items[first]).lower()), (last, text(items[last]).capitalize())):
        moved = [changed if j == i else v for j, v in zip(at, values)]
        if sorted(moved) != sorted(moved, key=str.casefold):
            new = {**items[i], key: changed} if key is not _NO_KEY else changed
            return [kind(items[:i] + [new] + items[i + 1:])]
    return []


def _is_number(value: object) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool) and math.isfinite(value)


def _other_key(key: object, taken: dict) -> object:
    """A key like key that the dict does not hold: a placeholder or a lookup the example does not fill."""
    other = f"{key}_other" if isinstance(key, str) else key + 1 if isinstance(key, int) else None
    return other if other is not None and other not in taken else None


def _written_otherwise(key: object) -> object:
    """A text key as a person might type the same name otherwise: in other capitals and padded with spaces
    (" APPLE " of "apple", " apple " of "APPLE"); None for any other key."""
    if not isinstance(key, str) or not key.strip():
        return None
    return f" {key.lower() if key == key.upper() else key.upper()} "


def _negated(value: object) -> object:
    """A number, or each number of a list, made negative (where a best total that starts at 0 is wrong)."""
    if _is_number(value):
        return -value if value > 0 else value
    if isinstance(value, list) and value and all(_is_number(x) for x in value):
        return [-x if x > 0 else x for x in value]
    return value


def _dict_edges(value: dict) -> list[dict]:
    """A key left out, the first key renamed, or written otherwise (other capitals, padded: names read apart from
    how they are typed), the first value made 0 (an int) or of the other plain type (an int as text, text as its
    length), a nested dict or list left empty, the keys in reverse order, the second value made the first's (a tie)
    in both orders, and every number made negative: the missing key, the count that cancels, the value that needs
    str(), the empty level, the order, the tie and the best below zero that a one-example dict does not show."""
    items = list(value.items())
    key, first = items[0]
    edges: list[dict] = [dict(items[:-1])]
    other = _other_key(key, value)
    if other is not None:
        edges.append({other: first, **dict(items[1:])})
    written = _written_otherwise(key)
    if written is not None and written not in value:
        edges.append({written: first, **dict(items[1:])})
    if isinstance(first, int) and not isinstance(first, bool):
        edges += [{**value, key: 0}] if first else []
        edges.append({**value, key: str(first)})
    elif isinstance(first, str):
        edges.append({**value, key: len(first)})
    elif isinstance(first, (dict, list)) and first:
        edges.append({**value, key: type(first)()})  # a nested dict or list left empty
    if len(items) > 1:
        edges.append(dict(reversed(items)))  # the keys in another order: an answer that keeps theirs, or sorts
        second = items[1][0]
        if value[second] != first:  # a tie, first in the keys' order and last: where the tie is broken shows
            tie = {**value, second: first}
            edges += [tie, dict(reversed(tie.items()))]
    negated = {k: _negated(v) for k, v in items}
    if negated != value:
        edges.append(negated)
    return edges


def edges_of(value: object, separators: Sequence[str] = ()) -> list[object]:
    """The edge inputs of one argument of a visible call (separators: those the task names, for text)."""
    if isinstance(value, str) and value:
        return _text_edges(value, separators)
    if isinstance(value, float):
        return _number_edges(value)
    if isinstance(value, (list, tuple)) and value:
        return _list_edges(value)
    if isinstance(value, dict) and value:
        return _dict_edges(value)
    return []


def _shared_keys(args: list) -> list[list]:
    """For two dict arguments, the second's first key made the first's: the key both hold (a merge that adds), as
    written and written otherwise (a merge that matches names whatever their capitals and spaces); then, at that
    shared key, a dict in the second where the first holds a plain value, and the reverse (a merge that recurses
    into both only where both are dicts)."""
    dicts = [i for i, a in enumerate(args) if isinstance(a, dict) and a]
    variants = []
    for i, j in itertools.combinations(dicts, 2):
        key, (old, value) = next(iter(args[i])), next(iter(args[j].items()))
        if key not in args[j]:
            rest = {k: v for k, v in args[j].items() if k != old}
            for shared in (key, _written_otherwise(key)):
                if shared is not None and shared not in rest:
                    variants.append(args[:j] + [{shared: value, **rest}] + args[j + 1:])
            first = args[i][key]
            if not isinstance(first, dict) and not isinstance(value, dict):
                over = (args[i], {key: {key: value}, **rest})  # a dict over the first's number
                nested = ({**args[i], key: {key: first}}, {key: value, **rest})  # a number over the first's dict
                for a, b in (over, nested):
                    variants.append(args[:i] + [a] + args[i + 1:j] + [b] + args[j + 1:])
    return variants


def _defaults(params: ast.arguments) -> list[tuple[ast.arg, ast.expr]]:
    """Each parameter of a signature that has a default, with its default's node (positional, then keyword-only)."""
    named = params.posonlyargs + params.args
    defaults = list(zip(named[len(named) - len(params.defaults):], params.defaults))
    return defaults + [(a, d) for a, d in zip(params.kwonlyargs, params.kw_defaults) if d is not None]


def task_options(task: str, entry_point: str) -> dict[str, object]:
    """The parameters with a plain default (a bool, int or float) of the entry point's signature as the task writes
    it (agent.loop.task_words.task_signature), each with the value a call would pass to try it: the bool turned, the
    number one more. Empty when the task writes no such signature."""
    params = task_signature(task, entry_point)
    if params is None:
        return {}
    options = {}
    for arg, default in _defaults(params):
        ok, value = literal(default)
        if ok and isinstance(value, bool):
            options[arg.arg] = not value
        elif ok and isinstance(value, (int, float)):
            options[arg.arg] = value + 1
    return options


def option_calls(tests: str, entry_point: str | None, task: str) -> list[str]:
    """Calls that pass each option of the task's signature (task_options) by keyword: on each visible call's own
    arguments, then on their mutations inside the contract (a larger number may be what the option changes), every
    option on one input before the next input, up to MAX_OPTION_CALLS. An option a call passes already, by keyword
    or by place (round(x, 2) of round(x, digits=0)), is not passed again: passed twice, it makes every candidate
    raise alike."""
    options = task_options(task, entry_point) if entry_point else {}
    if not options:
        return []
    header = task_signature(task, entry_point)
    places = {a.arg: i for i, a in enumerate(header.posonlyargs + header.args)} if header else {}
    visible, stated = literal_calls(tests, entry_point), stated_contract(task, entry_point)
    seen = argument_places(visible)
    inputs = [(c.args, c.keywords) for c in visible] + [
        (args, keywords) for c in visible for args, keywords, place, m in each_changed(c, mutations)
        if keeps_contract(m, c, place, seen, stated)]
    found: list[str] = []
    # Each option in turn on the same input, so that a cap reached early still tries every option.
    for (args, keywords), (name, value) in itertools.product(inputs, options.items()):
        if places.get(name, len(args)) < len(args) or name in keywords:
            continue
        call = bare_call(entry_point, args, {**keywords, name: value})
        if call not in found and len(call) < MAX_CALL_CHARS:
            found.append(call)
    return found[:MAX_OPTION_CALLS]


def named_value_calls(calls: list[VisibleCall], entry_point: str, task: str) -> list[str]:
    """Calls that pass the texts the task quotes as values (agent.loop.task_words.quoted_values: "SAVE10" takes 10%
    off, the unit "km" or "mi"): at each text argument of a visible call, and by keyword as a parameter of the
    task's signature whose default is None that the call leaves out (the first quoted text also written otherwise:
    in other capitals, padded), up to MAX_NAMED_VALUE_CALLS. A one-example test passes one such value, or none; the
    task's words name the others, and answers that ignore one, or read it only as written, differ there. A text the
    task quotes only as an ending or beginning (affix_calls passes it at an end), or as what to add, is not passed
    (agent.loop.task_words.not_values)."""
    written = not_values(task, entry_point)
    values = [v for v in quoted_values(task, entry_point) if v not in written]
    if not values:
        return []
    header = task_signature(task, entry_point)
    unset = [a.arg for a, d in _defaults(header) if isinstance(d, ast.Constant) and d.value is None] if header else []
    places = {a.arg: i for i, a in enumerate(header.posonlyargs + header.args)} if header else {}
    passed = [v for v in [*values, _written_otherwise(values[0])] if v is not None]
    found: list[str] = []
    for c in calls:
        found += [bare_call(entry_point, args, keywords) for args, keywords, _, _ in each_changed(
            c, lambda a: [v for v in values if v != a] if isinstance(a, str) else [])]
        for name in unset:
            if name not in c.keywords and places.get(name, len(c.args)) >= len(c.args):
                found += [bare_call(entry_point, c.args, {**c.keywords, name: v}) for v in passed]
    return list(dict.fromkeys(found))[:MAX_NAMED_VALUE_CALLS]


def keyword_alone_calls(calls: list[VisibleCall], entry_point: str, task: str, start: int | None) -> list[str]:
    """A visible call that passes parameters with defaults, passing one of the later ones alone, by keyword, with
    its value there (clamp(15, high=10) of clamp(15, 0, 10) and clamp(value, low=None, high=None)): where code that
    reads an option only beside the one before it is wrong. start is the first place with a default."""
    header = task_signature(task, entry_point) if start is not None else None
    if header is None:
        return []
    names = [a.arg for a in header.args]  # positional-only parameters cannot be passed by keyword
    offset = len(header.posonlyargs)
    places = range(max(start + 1, offset), offset + len(names))
    return list(dict.fromkeys(bare_call(entry_point, c.args[:start], {**c.keywords, names[p - offset]: c.args[p]})
                              for c in calls for p in places
                              if p < len(c.args) and names[p - offset] not in c.keywords))


def result_among_calls(tests: str, entry_point: str) -> list[str]:
    """A visible call whose text result the test states (agent.loop.asserted_calls.compared_results) with that text
    put into a list or tuple of texts it passes, or an empty set (make_username('Ada', 'Lovelace',
    {'alovelace'}) of make_username('Ada', 'Lovelace', set()) == 'alovelace'): where the collection stands for what
    is taken, or seen, and an answer that never looks there passes a test that passes it empty."""
    found: list[str] = []
    for node, result in compared_results(tests, entry_point):
        parsed = literal_call(node, entry_point)
        if parsed is None or not isinstance(result, str) or not result:  # a name, an id; not a count or a sum
            continue
        args, keywords = parsed
        for place, value in enumerate(args):
            # A set of several texts is written in an order that changes from one process to the next: only an
            # empty one grows.
            unordered = isinstance(value, (set, frozenset)) and value
            if (isinstance(value, (set, frozenset, list, tuple)) and result not in value and not unordered
                    and all(isinstance(x, str) for x in value)):
                grown = type(value)([*value, result])
                found.append(bare_call(entry_point, args[:place] + [grown] + args[place + 1:], keywords))
    return list(dict.fromkeys(found))


_CENTURIES = (1900, 2000)  # a century year that is no leap year, and one that is
_PARTS_OF = (0.2, 0.5)  # a part of a unit above a whole one: where rounding up, rounding and charging by it differ
MAX_PART_CALLS = 4  # calls with a part of a unit (part_unit_calls), of the doubt's edge inputs
MAX_THRESHOLD_CALLS = 4  # calls at a threshold the task states (threshold_calls), of the doubt's edge inputs
MAX_LENGTH_CALLS = 4  # calls with a whole number made a length the call passes (length_calls), of the doubt's edges
MAX_MARKED_CALLS = 4  # calls with a stated word result marked in the text (result_marked_calls), of the doubt's edges
MAX_AFFIX_CALLS = 6  # calls with a text made to end or begin as the task quotes (affix_calls), of the doubt's edges
MAX_UNLETTERED_CALLS = 3  # calls with every text made empty, marks or digits alone (unlettered_calls), of the edges
_MARKS_ALONE = "!?"  # a text of marks alone: no letter, digit or word in it
_DIGITS_ALONE = "4 2!"  # a text of digits and marks: no letter in it


def _named_for(name: str, word: str, task: str) -> bool:
    """Whether a parameter is named for one of a thing (year, start_year; not years, a count, nor payments_per_year),
    or the task calls it one in backticks ("from year `start`")."""
    lower = name.lower()
    return (lower == word or (lower.endswith("_" + word) and "per_" not in lower)
            or re.search(rf"\b{word}\s+`{re.escape(name)}`", task, re.IGNORECASE) is not None)


def _whole(value: object, low: int, high: int) -> bool:
    return type(value) is int and low <= value <= high


def calendar_year_calls(calls: list[VisibleCall], entry_point: str, task: str) -> list[str]:
    """Where the task's signature names a year (year, start_year, or a parameter it calls one), a visible call with
    its years moved alike so that the first is a century year of each kind (1900, no leap year; 2000, one; two years
    keep their order and distance), and a month it names made February where the call's day (if it names one) is in
    every month: days_in_month(1900, 2) of days_in_month(2023, 4). A date in a text gets its calendar's edges from
    _calendar_edges; a year and a month passed as numbers have none, and a leap rule that forgets centuries passes
    every example of a year that is not one. Arguments are read by the signature's names, positional or keyword."""
    header = task_signature(task, entry_point)
    names = [a.arg for a in header.posonlyargs + header.args] if header else []
    found: list[str] = []
    for c in calls:
        slots = {**{names[i]: a for i, a in enumerate(c.args) if i < len(names)}, **c.keywords}
        years = [n for n in slots if _named_for(n, "year", task)]
        if not years or not all(_whole(slots[n], 1, 9999) for n in years):
            continue
        month = next((n for n in slots if _named_for(n, "month", task) and _whole(slots[n], 1, 12)), None)
        days_fit = all(_whole(slots[n], 1, 28) for n in slots if _named_for(n, "day", task))
        for century in _CENTURIES:
            shift = century - slots[years[0]]
            moved = {**slots, **{n: slots[n] + shift for n in years}}
            if month is not None and days_fit:
                moved[month] = 2
            if moved != slots and all(_whole(moved[n], 1, 9999) for n in years):
                args = [moved[names[i]] for i in range(len(c.args))]
                found.append(bare_call(entry_point, args, {k: moved[k] for k in c.keywords}))
    return list(dict.fromkeys(found))


def part_unit_calls(calls: list[VisibleCall], entry_point: str, task: str) -> list[str]:
    """Where the task speaks of part of a unit (agent.loop.task_words.stated_contract's parts: "each additional
    kilogram or part of a kilogram"), a visible call with the whole, non-negative number it passes where the
    parameter measures in that unit made a part above (shipping_cost(3.2), shipping_cost(3.5) of shipping_cost(3)),
    up to MAX_PART_CALLS: examples that weigh whole kilograms pass an answer that charges by the kilogram, or
    rounds, where the task rounds up. So at a parameter the task calls a float ("`bill` ... (int or float)"):
    tip_amount(100.5, 15), where a half cent is rounded, or the answer accepts only ints."""
    places = stated_contract(task, entry_point).parts
    found = [bare_call(entry_point, c.args[:i] + [a + part] + c.args[i + 1:], c.keywords)
             for c in calls for i, a in enumerate(c.args) if i in places and _whole(a, 0, 10**9)
             for part in _PARTS_OF]
    return list(dict.fromkeys(found))[:MAX_PART_CALLS]


def threshold_calls(calls: list[VisibleCall], entry_point: str, task: str, given: set[str] = frozenset()) -> list[str]:
    """A visible call with a whole number the task gives a threshold (agent.loop.task_words.stated_thresholds:
    "raise ValueError if `step_days` is less than 1") moved to the threshold and just past it, by place or keyword,
    or passed by keyword where the call leaves that option to its whole-number default (date_range(a, b,
    step_days=0)); none that is a visible call (given), each parameter in turn, up to MAX_THRESHOLD_CALLS. A thin
    test passes a typical value; an answer that forgets the stated rule differs there."""
    thresholds = stated_thresholds(task, entry_point)
    header = task_signature(task, entry_point) if thresholds else None
    if header is None:
        return []
    slots = _whole_slots(header)
    each = [[call for c, value in itertools.product(calls, values)
             for call in [_whole_set(entry_point, c, slots.get(name, (None, False, None)), name, value)]
             if call is not None] for name, values in thresholds.items()]
    return _spread(each, given, MAX_THRESHOLD_CALLS)


def _whole_slots(header: ast.arguments | None) -> dict[str, tuple[int | None, bool, int | None]]:
    """Each parameter of a signature: its place (None for keyword-only), whether it is positional-only, and its
    whole-number default (None where it has none)."""
    if header is None:
        return {}
    defaults = {a.arg: value for a, d in _defaults(header) for ok, value in [literal(d)] if ok and type(value) is int}
    slots = {a.arg: (i, i < len(header.posonlyargs), defaults.get(a.arg))
             for i, a in enumerate(header.posonlyargs + header.args)}
    return slots | {a.arg: (None, False, defaults.get(a.arg)) for a in header.kwonlyargs}


def _whole_set(entry_point: str, c: VisibleCall, slot: tuple[int | None, bool, int | None], name: str,
               value: int) -> str | None:
    """The call with the whole number it passes at a parameter (slot: _whole_slots) made value, by place or keyword,
    or passed by keyword where the call leaves it to its whole-number default; None where the call passes no whole
    number there, or value already."""
    place, positional_only, default = slot
    if place is not None and place < len(c.args):
        old = c.args[place]
        return (bare_call(entry_point, c.args[:place] + [value] + c.args[place + 1:], c.keywords)
                if type(old) is int and old != value else None)
    if name in c.keywords:
        old = c.keywords[name]
        return (bare_call(entry_point, c.args, {**c.keywords, name: value})
                if type(old) is int and old != value else None)
    if default is not None and not positional_only and default != value:
        return bare_call(entry_point, c.args, {**c.keywords, name: value})
    return None


def _spread(each: list[list[str]], given: set[str], cap: int) -> list[str]:
    """Calls made per parameter, taken in turn (so that one parameter's cannot take every place), none a visible call
    (given), each once, up to cap."""
    fresh = [[call for call in dict.fromkeys(group) if call not in given] for group in each]
    spread = [call for group in itertools.zip_longest(*fresh) for call in group if call is not None]
    return list(dict.fromkeys(spread))[:cap]


def length_calls(calls: list[VisibleCall], entry_point: str, task: str, given: set[str] = frozenset()) -> list[str]:
    """A visible call that passes a text or a list and a whole number below its length, with the number made that
    length and one less, by place or keyword, or by keyword where the call leaves a whole-number option of the
    task's signature to its default (final_score([70, 85, 90, 60], drop=4) of final_score([70, 85, 90, 60]) and
    final_score(scores, drop=1); truncate('hello world', 11) of truncate('hello world', 5)); none that is a visible
    call (given), each number in turn, up to MAX_LENGTH_CALLS. A count, a width or a place a thin test keeps well
    inside its text or list meets the length there: dropping every score, a text that just fits, a last chunk of
    one."""
    slots = _whole_slots(task_signature(task, entry_point))
    names = [n for n, (place, _, _) in slots.items() if place is not None]  # in their places' order
    each: dict[str | int, list[str]] = {}
    for c in calls:
        sized = [a for a in [*c.args, *c.keywords.values()] if isinstance(a, (str, list, tuple)) and a]
        # Whole numbers the call passes (by the signature's name where it writes one), then options left to a default.
        wholes = [(names[i] if i < len(names) else i, i, a) for i, a in enumerate(c.args) if _whole(a, 0, 10**9)]
        wholes += [(k, None, a) for k, a in c.keywords.items() if _whole(a, 0, 10**9)]
        wholes += [(n, None, default) for n, (place, _, default) in slots.items() if default is not None
                   and default >= 0 and n not in c.keywords and (place is None or place >= len(c.args))]
        for (name, place, now), seq in itertools.product(wholes, sized):
            if now >= len(seq):  # a number the example keeps inside the text or list: a count, a width, a place
                continue
            slot = (place, False, None) if isinstance(name, int) else slots.get(name, (place, False, None))
            for value in (len(seq), len(seq) - 1):
                call = _whole_set(entry_point, c, slot, str(name), value)  # the text or list is never empty
                if call is not None:
                    each.setdefault(name, []).append(call)
    return _spread(list(each.values()), given, MAX_LENGTH_CALLS)


def result_marked_calls(tests: str, entry_point: str) -> list[str]:
    """A visible call whose text result the test states (agent.loop.asserted_calls.compared_results) as a word of a
    text it passes, with that word there followed by a comma, and in brackets (longest_word('I love programming, in
    Python') of longest_word('I love programming in Python') == 'programming'): where the answer is read out of
    the text, an answer that splits at spaces alone returns the mark with it. By place or keyword, up to
    MAX_MARKED_CALLS."""
    found: list[str] = []
    for node, result in compared_results(tests, entry_point):
        parsed = literal_call(node, entry_point)
        if parsed is None or not isinstance(result, str) or not re.fullmatch(r"\w+", result):
            continue
        call = VisibleCall(entry_point, parsed[0], "", parsed[1])
        found += [bare_call(entry_point, args, keywords)
                  for args, keywords, _, _ in each_changed(call, functools.partial(_word_marked, result))]
    return list(dict.fromkeys(found))[:MAX_MARKED_CALLS]


def _word_marked(word: str, value: object) -> list[str]:
    """A text holding word (not inside another word, nor the whole text) with its first such word followed by a
    comma, and in brackets; [] for anything else."""
    found = re.compile(rf"(?<!\w){re.escape(word)}(?!\w)")
    if not isinstance(value, str) or value == word or not found.search(value):
        return []
    return [found.sub(marked, value, count=1) for marked in (f"{word},", f"({word})")]


def affix_calls(calls: list[VisibleCall], entry_point: str, task: str, given: set[str] = frozenset()) -> list[str]:
    """A visible call with a text it passes made to end with each ending the task quotes
    (agent.loop.task_words.stated_affixes), and to begin with each beginning; where the task states a rule of the
    letter before that ending (agent.loop.task_words.letter_beside: 'the letter before the "y" is a consonant'), the
    ending also put over as many of the text's last characters, so that the letter before it is the text's own
    (pluralize('caty', 3) and pluralize('cay', 3) of pluralize('cat', 3)), and those endings first; each ending in
    turn, the first call's before the next call's, none a visible call (given), up to MAX_AFFIX_CALLS. Thin tests
    pass a word that ends in none of them; an answer that forgets one, or reads the letter before it wrong, differs
    there. A text of one character is left alone: a letter the function looks for, not a word."""
    affixes = [(affix, at_end, letter_beside(task, affix, at_end))
               for at_end, stated in stated_affixes(task, entry_point).items() for affix in stated]
    # Those with a rule of the letter beside them first: a task states that rule after its plain endings ('ends in
    # "s", "x", "ch" or "sh" ...; ends in "y" and the letter before'), past the cap otherwise. The first call's, then
    # the next call's: the endings, not the calls, are what differ.
    made = [functools.partial(_with_affix, *affix) for affix in sorted(affixes, key=lambda a: not a[2])]
    found = [bare_call(entry_point, args, keywords) for c in calls for m in made
             for args, keywords, _, _ in each_changed(c, m)]
    return [call for call in dict.fromkeys(found) if call not in given][:MAX_AFFIX_CALLS]


def _with_affix(affix: str, at_end: bool, beside: bool, value: object) -> list[str]:
    """A text of two or more characters with affix added at its end (at_end) or start, and, with beside, put over as
    many of its characters there; [] for anything else."""
    if not isinstance(value, str) or len(value) < 2:
        return []
    made = [value + affix, value[:-len(affix)] + affix] if at_end else [affix + value, affix + value[len(affix):]]
    return [text for text in dict.fromkeys(made[:1 + (beside and len(value) > len(affix))]) if text != value]


def unlettered_calls(calls: list[VisibleCall], entry_point: str, task: str, given: set[str] = frozenset()) -> list[str]:
    """Where the task decides a text without letters, digits or words (agent.loop.task_words.stated_contract's
    unlettered: "if either string contains no letters or digits at all, return False"), a visible call with every text
    it passes that holds a letter or digit made empty, made marks alone, and, where only letters are what it lacks,
    digits and marks alone (are_anagrams('', '') and are_anagrams('!?', '!?') of are_anagrams('listen', 'silent');
    longest_word('4 2!') where "it contains no letters"); none a visible call (given), up to MAX_UNLETTERED_CALLS. The
    probes empty one text at a time; an answer that compares what is left of two texts finds two such texts alike, and
    one that reads a run of digits as a word returns it."""
    lacks = stated_contract(task, entry_point).unlettered
    blanks = ("", _MARKS_ALONE) + ((_DIGITS_ALONE,) if lacks == {"letter"} else ())
    found = []
    for c, blank in itertools.product(calls, blanks if lacks else ()):
        # Only a text with a letter or digit in it: a separator or a mark the call passes is no text to empty.
        args = [blank if lettered(a) else a for a in c.args]
        keywords = {k: blank if lettered(v) else v for k, v in c.keywords.items()}
        if args != c.args or keywords != c.keywords:
            found.append(bare_call(entry_point, args, keywords))
    return [call for call in dict.fromkeys(found) if call not in given][:MAX_UNLETTERED_CALLS]


def edge_calls(tests: str, entry_point: str | None, task: str = "") -> list[str]:
    """Calls of the entry point (as agent.loop.probes.bare_call writes them): first those that try the options the
    task's signature states (option_calls), then a visible call with the arguments that have a default left out, and
    with one of the later such arguments passed alone by keyword (keyword_alone_calls), the texts the task quotes
    (named_value_calls), every text made empty, marks alone, or digits and marks alone where the task decides a text
    without letters (unlettered_calls), a text made to end or begin as the task quotes (affix_calls), a stated text
    result put among the texts a call passes (result_among_calls), a year the signature names made a century year
    (calendar_year_calls), a whole number made a part above it where the task speaks of parts of a unit or calls the
    parameter a float (part_unit_calls), a whole number at a threshold the task states and just past it
    (threshold_calls), a whole number made the length of a text or list the call passes (length_calls), a stated text
    result marked where a text passed holds it as a word (result_marked_calls), then one argument of a visible call (or
    of one so shortened) moved to an edge (edges_of), one int, text or date argument made equal to another (and of two
    dates the later made the earlier's anniversary in its year, and the day before), or two dict
    arguments sharing a key; each once, none a visible call's own. These targeted calls come first, each kind capped, as
    a doubt probes only the first of its inputs (agent.loop.probes.MAX_DOUBT_INPUTS)."""
    if not entry_point:
        return []
    calls = literal_calls(tests, entry_point)
    found: list[str] = option_calls(tests, entry_point, task)
    given, separators = {bare_call(entry_point, c.args, c.keywords) for c in calls}, named_separators(task)
    # A visible call that passes parameters the task's signature gives defaults leaves them out, the last first (the
    # default a one-example test never uses); its edges follow the visible calls' own.
    start = stated_contract(task, entry_point).optional_from if task else None
    shortened = [] if start is None else [c._replace(args=c.args[:k]) for c in calls
                                          for k in range(len(c.args) - 1, start - 1, -1)]
    found += [call for call in dict.fromkeys(bare_call(entry_point, c.args, c.keywords) for c in shortened)
              if call not in given and call not in found]
    found += [call for call in keyword_alone_calls(calls, entry_point, task, start) if call not in found]
    found += [call for call in named_value_calls(calls, entry_point, task) if call not in given and call not in found]
    found += [call for call in unlettered_calls(calls, entry_point, task, given) + affix_calls(
        calls, entry_point, task, given) if call not in given and call not in found]
    found += [call for call in result_among_calls(tests, entry_point) if call not in given and call not in found]
    found += [call for call in calendar_year_calls(calls, entry_point, task) + part_unit_calls(calls, entry_point, task)
              + threshold_calls(calls, entry_point, task, given) + length_calls(calls, entry_point, task, given)
              + result_marked_calls(tests, entry_point) if call not in given and call not in found]
    # The probes read a call through the visible check (sorted(...)) and leave out one that is then too long: such a
    # call would take a place in the doubt's cap and be probed never.
    longest = MAX_CALL_CHARS - max((len(c.observer) - len(CALL_MARK) for c in calls), default=0)
    found = [call for call in found if len(call) < longest]
    for c in calls + shortened:
        args = c.args
        variants = [(moved, keywords) for moved, keywords, _, _ in each_changed(c, lambda a: edges_of(a, separators))]
        ints = [i for i, a in enumerate(args) if isinstance(a, int) and not isinstance(a, bool)]
        texts = [i for i, a in enumerate(args) if isinstance(a, str)]
        # Two dates (a birth and a day, a start and an end) made one: the span of no days, where counts differ.
        dates = [[i for i, a in enumerate(args) if type(a) is kind] for kind in dict.fromkeys(map(type, args))
                 if kind in CALENDAR.values()]
        variants += [(args[:j] + [args[i]] + args[j + 1:], c.keywords) for same in (ints, texts, *dates)
                     for i, j in itertools.combinations(same, 2) if args[i] != args[j]]
        variants += [(args[:j] + [day] + args[j + 1:], c.keywords) for same in dates
                     for i, j in itertools.combinations(same, 2) for day in _anniversaries(args[i], args[j])]
        variants += [(shared, c.keywords) for shared in _shared_keys(args)]
        for variant, keywords in variants:
            call = bare_call(entry_point, variant, keywords)
            if call not in given and call not in found and len(call) < longest:
                found.append(call)
    return found


def doubt_with_tests(doubt: Mapping | None, tests: str, entry_point: str | None, task: str) -> dict | None:
    """A doubt record (agent.loop.state) once a question's answer or a person's correction added a test: its edge
    inputs grown by those of the tests now (edge_calls), after the ones it had, so that the added call is probed at
    its edges too (its keys in reverse order, its text with a tab) as the person's own calls were. None when the
    solve was not doubted: a solve nobody doubts probes as before."""
    if doubt is None:
        return None
    edges = list(doubt.get("edges") or [])
    return {**doubt, "edges": edges + [c for c in edge_calls(tests, entry_point, task) if c not in edges]}
