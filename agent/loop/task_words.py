"""What a task's words say about the entry point's inputs beyond the examples: its signature as the task writes it,
whether inputs may be empty or negative, bounds a parameter keeps to ("base from 2 to 36"), and the separator
characters it names ("spaces and/or hyphens").

The contract a doubt's probes keep to (agent.loop.probes.within_contract) is read from the visible calls: an empty
list where every example's is not, a negative number where none is, is "outside", asked about last and never
corrected by the simulated person. The task's words often settle it: "an empty input gives an empty list" puts the
empty list inside, "the given base from 2 to 36" puts base 0 outside. Read only for a doubted solve, so a solve
nobody doubts probes and chooses as before. The words are read, never run.
"""

from __future__ import annotations

import ast
import math
import re
from dataclasses import dataclass, field

from sandbox.locked_parse import parse

_SIGNATURE_CHARS = 500  # the longest parameter list task_signature reads
_BOUND_REACH = 60  # how far before "from 2 to 36" the bounded parameter's name may stand, in characters
_MAX_SEPARATORS = 2  # named separator characters an edge input tries, of a text argument
_MAX_QUOTED = 30  # the longest quoted text read as a value the task names ("SAVE10", "km")

# Characters a task names in words, as tasks state where words or fields split.
_NAMED = {"hyphen": "-", "dash": "-", "comma": ",", "underscore": "_", "semicolon": ";", "colon": ":",
          "slash": "/", "period": ".", "dot": ".", "pipe": "|"}
_BOUNDS = (re.compile(r"\b(?:from|between)\s+(-?\d+)\s+(?:to|and)\s+(-?\d+)\b"),
           re.compile(r"\b(-?\d+)\s*(?:<=|≤)\s*\w+\s*(?:<=|≤)\s*(-?\d+)\b"))
_NUMBER_WORDS = {"one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8, "nine": 9,
                 "ten": 10}
_N = rf"(?P<n>\d+|{'|'.join(_NUMBER_WORDS)})"
_ITEMS = (r"(?:elements?|items?|numbers?|values?|integers?|floats?|entries|entry|strings?|words?|characters?|chars?|"
          r"letters?|digits?|points?|intervals?|rows?|lists?)")
# A lower bound only, of the parameter named in it: "n is at least 1", "k >= 0", "n > 1" (a float's too: just above),
# "a positive integer n" (not "non-positive"). A condition ("True if n is positive") states no bound.
_LOWER_BOUNDS = (
    (re.compile(r"\b(?P<name>\w+)\s+(?:is|are|will be|must be|should be)\s+(?:always\s+)?at\s+least\s+(?P<low>-?\d+)"
                r"\b(?![.,]\d|\s*%)"), False),
    (re.compile(r"\b(?P<name>\w+) ?(?:>=|≥) ?(?P<low>-?\d+)\b(?![.,]\d)"), False),
    (re.compile(r"\b(?P<name>\w+) ?> ?(?P<low>-?\d+)\b(?![.,]\d)"), True),
    (re.compile(r"(?<!non-)(?<!non)\bpositive\s+(?:integer|int|number|float|whole number)s?\s+(?P<name>\w+)"), True),
)
_LEAST_LENGTHS = (
    re.compile(rf"\blength\s+(?:of\s+)?at\s+least\s+{_N}\b", re.IGNORECASE),
    re.compile(rf"\bat\s+least\s+{_N}\s+{_ITEMS}\b", re.IGNORECASE),
    re.compile(rf"\b{_N}\s+or\s+more\s+{_ITEMS}\b", re.IGNORECASE),
    re.compile(rf"\blen\(\s*\w+\s*\)\s*(?:(?:>=|≥)|(?P<more>>))\s*{_N}"),
)

# Words on changing what the function is given, or keeping it: "never modify", "in place", "leaves the list unchanged",
# "returns a new dict", "don't change the given array". (Not "original" alone: "their index in the original list".)
_CHANGES = re.compile(r"\b(?:modif(?:y|ies|ied|ying)|mutat(?:e|es|ed|ing)|in[- ]place|unchanged|untouched|unmodified|"
                      r"a (?:new|fresh) (?:list|dict|dictionary|array|copy)|a copy of|(?:chang|alter)(?:e|es|ed|ing)\s+"
                      r"(?:the|its|their|your|any|a)\s+(?:input|argument|given|original|list|dict|dictionary|array)s?)\b",
                      re.IGNORECASE)

# Units a price is charged by, each with the parameter names that measure in it: a part of a unit is a fraction of
# the parameter that measures what the task charges by (weight_kg, hours), not of a count beside it (people).
_UNIT_NAMES = {
    ("second", "minute", "hour", "day", "night", "week", "month", "year", "hr", "min", "sec"):
        ("sec", "min", "hour", "hr", "day", "night", "week", "month", "year", "time", "duration", "stay"),
    ("gram", "kilogram", "kg", "pound", "lb", "ounce", "oz", "tonne", "ton"):
        ("gram", "kilo", "kg", "pound", "lb", "ounce", "oz", "ton", "weight", "mass"),
    ("metre", "meter", "kilometre", "kilometer", "km", "mile", "foot", "feet", "yard", "inch"):
        ("metre", "meter", "km", "mile", "foot", "feet", "ft", "yard", "inch", "dist", "length"),
    ("litre", "liter", "gallon", "cup"): ("litre", "liter", "gallon", "gal", "cup", "volume"),
    ("unit", "block", "page", "slice", "share"): (),
}
_UNITS = rf"(?:{'|'.join(u for units in _UNIT_NAMES for u in units)})(?:e?s)?"
# Words on a part of a unit counting as a whole one, or alone, with the unit they name: "each additional kilogram or
# part of a kilogram", "per hour or part thereof", "partial hours", "any fraction of an hour", "each started hour".
# An example that weighs whole kilograms cannot tell rounding up from charging by the kilogram.
_PARTS = re.compile(rf"\b(?:or|and|any)\s+(?:part|fraction|portion)\s+of\s+an?\s+(?P<a>{_UNITS})\b|"
                    rf"\b(?P<b>{_UNITS})\s+or\s+(?:any\s+)?(?:part|fraction|portion)\s+thereof\b|"
                    rf"\bpartial\s+(?P<c>{_UNITS})\b|\b(?:each|every|any)\s+started\s+(?P<d>{_UNITS})\b",
                    re.IGNORECASE)


def _part_places(task: str, names: list[str]) -> frozenset[int]:
    """The places of the parameters a part of a unit the task speaks of is a fraction of (_PARTS): those named for
    what measures in that unit (weight_kg for kilograms, hours or minutes for hours), or the only parameter."""
    places: set[int] = set()
    for found in _PARTS.finditer(task):
        unit = next(u for u in found.groups() if u).lower()
        named = next((fragments for units, fragments in _UNIT_NAMES.items()
                      if any(unit.startswith(u) for u in units)), ())
        places |= {i for i, n in enumerate(names) if any(f in n.lower() for f in named)}
        if not places and len(names) == 1:
            places.add(0)
    return frozenset(places)


_FLOAT_WORD = re.compile(r"\bfloat(?:s|ing[- ]point)?\b|\bdecimal numbers?\b", re.IGNORECASE)
_FLOAT_REACH = 60  # characters after a parameter's name within which a float word describes it
# Words after which a float word speaks of something else than the parameter: what the function returns, a list of
# them, a count of them ("`n` is an int, and the function returns a float"; "a list of `n` floats").
_OTHER_THING = re.compile(r"\b(?:returns?|returning|return(?:ed)?|gives?|giving|result|output|as|list|lists|"
                          r"number|count|each)\b", re.IGNORECASE)
_DENIAL = re.compile(r"\b(?:not|never|no|cannot|can't|without)\b|n't\b", re.IGNORECASE)
# An annotation of one number that may be a float (not List[float]): float, int | float, Optional[float], Union[...].
_KIND = r"(?:int|float|None)"
_ONE_NUMBER = re.compile(rf"(?:typing\.)?(?:{_KIND}(?: \| {_KIND})*|Optional\[{_KIND}\]|"
                         rf"Union\[{_KIND}(?:, {_KIND})*\])")
_CLAUSE_END = re.compile(r"[.;?!](?:\s|$)|\n")
# A text that holds no letters, digits or words is a case the task decides: a condition on it with its outcome ("if
# either string contains no letters or digits at all, return False"), or a text so described and what it gives ("a
# text with no words gives 0"). Not a word with no letter repeated, nor the words that contain no digits (a filter),
# nor a condition on a part of the text ("if a word contains no letters, skip it").
_LACKED = (r"(?:alphabetic\s+characters?|alphanumeric\s+characters?|letters?|digits?|numbers?|numerals?|words?|"
           r"alphanumerics?|punctuation|spaces?|underscores?|symbols?|marks?)")
_NO_WHAT = rf"(?P<what>{_LACKED}(?:(?:,\s*|,?\s+(?:or|and)\s+){_LACKED}){{0,3}})(?:\s+at\s+all)?"
# A condition on a part of the text ("if a word has no letters, skip it") decides no text.
_PART_OF = (r"(?:a|an|each|every|any|one|some)\s+"
            r"(?:words?|lines?|tokens?|items?|elements?|entry|entries|parts?|fields?)\b")
_NO_LETTERS = (
    re.compile(rf"\b(?:if|when|unless)\s+(?!{_PART_OF})[^.;:!?\n]{{0,80}}?"
               rf"\b(?:(?:contains?|has|have|with)\s+no|there\s+(?:is|are)\s+no)\s+{_NO_WHAT}"
               r"\s*(?=[,.;:()]|\s+(?:then|return|raise|it)\b|$)", re.IGNORECASE),
    re.compile(rf"\b(?:text|string|word|sentence|input|line|name)s?\s+(?:(?:with|that\s+(?:has|contains)|containing)"
               rf"\s+no|without(?:\s+any)?)\s+{_NO_WHAT}\s+(?:gives?|returns?|yields?|is|are|counts?|becomes?)\b",
               re.IGNORECASE),
)
# What a text may be without, by the words naming it: letters, digits or words; anything else named beside them
# (punctuation, spaces) is "other".
_LACKED_KINDS = (("alphanumeric", "alphanumeric"), ("letter", "letter"), ("alphabetic", "letter"), ("digit", "digit"),
                 ("number", "digit"), ("numeral", "digit"), ("word", "word"))
_NON_EMPTY = re.compile(r"\bnon-?\s?empty\b|\bnever\s+empty\b", re.IGNORECASE)


def _float_places(task: str, names: list[str], header: ast.arguments | None) -> frozenset[int]:
    """The places of the parameters the task calls floats: annotated float in its signature (`bill: float`,
    `int | float`), or named in backticks with "float", "floating-point" or "decimal number" soon after it, in its
    clause, before any other parameter's name but those joined to it ("`x` and `y` are floats"), with no denial
    near that word ("never a float", "floats are not allowed") and not speaking of something else first ("returns
    a float", "a list of floats")."""
    annotations = [ast.unparse(a.annotation) if a.annotation else "" for a in header.posonlyargs + header.args
                   ] if header else []
    places = {i for i, text in enumerate(annotations) if _ONE_NUMBER.fullmatch(text) and "float" in text}
    for found in re.finditer(r"`(\w+)`", task):
        # Not "a list of `n` floats": a name after "of" is how many, or of what, they are.
        before = task[max(0, found.start() - 12):found.start()]
        if found.group(1) not in names or re.search(r"\bof\s+(?:the\s+)?$", before):
            continue
        # The names joined to this one by commas, "and" or "or" share what follows them.
        end, joined = found.end(), [found.group(1)]
        while (more := re.match(r"(?:,\s*|\s+(?:and|or)\s+|,\s*(?:and|or)\s+)`(\w+)`", task[end:])) and (
                more.group(1) in names):
            joined.append(more.group(1))
            end += more.end()
        rest = task[end:end + _FLOAT_REACH]
        stops = [m.start() for m in (_CLAUSE_END.search(rest), re.search(r"`\w+`", rest)) if m]
        words = rest[:min(stops)] if stops else rest
        word = _FLOAT_WORD.search(words)
        if word is None or _OTHER_THING.search(words[:word.start()]):
            continue
        near = words[max(0, word.start() - 30):word.start()] + " " + words[word.end():word.end() + 20]
        if not _DENIAL.search(near):
            places |= {names.index(n) for n in joined}
    return frozenset(places)


def task_signature(task: str, entry_point: str) -> ast.arguments | None:
    """The entry point's parameters as the task writes them ("digit_sum(n, repeat=False)" in words, or a def's
    header): of the call-like mentions that parse as a parameter list, the one with the most parameters (a task may
    name f(n) before it states f(n, repeat=False)). None when none parses."""
    best: ast.arguments | None = None
    for found in re.finditer(rf"\b{re.escape(entry_point)}\s*\(", task):
        # A signature is short: the scan stops within _SIGNATURE_CHARS, so a long pasted task costs no more.
        depth, end, stop = 1, found.end(), min(len(task), found.end() + _SIGNATURE_CHARS)
        while end < stop and depth:
            depth += {"(": 1, ")": -1}.get(task[end], 0)
            end += 1
        if depth:
            continue
        try:
            header = parse(f"def _({task[found.end():end - 1]}):\n    pass\n").body[0]
        except (SyntaxError, ValueError, MemoryError, RecursionError, IndexError):
            continue  # a call in an example, or words in brackets
        if best is None or _count(header.args) > _count(best):
            best = header.args
    return best


def _count(params: ast.arguments) -> int:
    return len(params.posonlyargs) + len(params.args) + len(params.kwonlyargs)


@dataclass(frozen=True)
class StatedContract:
    """What the task's words add to the contract the visible calls imply: empty and negative inputs it speaks of
    (inside, though no example shows one), the bounds of a positional parameter (by place) it states, the least
    length of one ("a list of length at least two"), the parameters a call may leave out (their defaults), and
    whether it speaks of changing what it is given."""

    empty: bool = False
    negative: bool = False
    bounds: dict[int, tuple[float, float]] = field(default_factory=dict)
    least_lengths: dict[int, int] = field(default_factory=dict)
    optional_from: int | None = None  # the first positional place from which every parameter has a default
    changes: bool = False  # the task speaks of changing or keeping what the function is given ("never modify")
    # Places a number with a fraction may be at where the examples pass whole ones: a part of a unit ("or part of a
    # kilogram"), or a float the task calls the parameter ("`bill` ... (int or float)").
    parts: frozenset[int] = frozenset()
    # What the task decides a text may be without ("if it contains no letters, return False": {"letter"}; of
    # letter, digit, word, alphanumeric, other): the empty text is inside where the examples hold a letter or digit,
    # unless the task calls its input non-empty.
    unlettered: frozenset[str] = frozenset()


def stated_contract(task: str, entry_point: str | None) -> StatedContract:
    """The contract the task states in words:
    - "empty" anywhere (not "non-empty", "never empty"; "is not empty" may be a rule an answer checks) lets empty
      inputs in; "negative" (not "non-negative") lets negative numbers in;
    - "from A to B", "between A and B" or "A <= PARAM <= B" bound the positional parameter named before it;
      "PARAM is at least A", "PARAM >= A", "PARAM > A" or "a positive integer PARAM" give the one it names a lower
      bound;
    - "of length at least N", "at least N elements" or "N or more items", "len(PARAM) >= N" give a parameter's least
      length;
    - a signature whose last positional parameters have defaults ("clamp(value, low=None, high=None)") lets a call
      leave them out;
    - "modify", "in place", "unchanged", "a new list", "change the input" speak of changing what it is given;
    - "or part of a kilogram", "per hour or part thereof", "partial hours", "any fraction of an hour", "each started
      hour" speak of part of a unit: a number with a fraction is an input, where the examples pass whole ones, of the
      parameter that measures in it (weight_kg, hours), or of the only parameter; so is one at a parameter the task
      calls a float ("`bill` is the amount in dollars (int or float)");
    - "if either string contains no letters or digits at all, return False", "a text with no words gives 0" decide a
      text without them (unlettered): the empty text is inside (not an empty list), unless the task says
      "non-empty".
    The task's signature gives the parameters' names (task_signature): a bound that names none of them binds nothing;
    a least length binds the only parameter when it names none."""
    words = task.lower()
    unlettered = frozenset() if _NON_EMPTY.search(task) else frozenset(
        next((kind for word, kind in _LACKED_KINDS if word in named), "other")
        for p in _NO_LETTERS for found in p.finditer(task)
        for named in re.findall(_LACKED, found.group("what").lower()))
    empty = re.search(r"(?<!non-)(?<!non)(?<!never )\bempty\b", words) is not None
    negative = re.search(r"(?<!non-)(?<!non )(?<!non)\bnegative\b", words) is not None
    header = task_signature(task, entry_point) if entry_point else None
    names = [a.arg for a in header.posonlyargs + header.args] if header else []
    bounds: dict[int, tuple[float, float]] = {}
    for pattern in _BOUNDS:
        for found in pattern.finditer(task):
            place = _place_named(task, found, names)
            if place is not None:
                bounds.setdefault(place, tuple(sorted((int(found.group(1)), int(found.group(2))))))
    for pattern, above in _LOWER_BOUNDS:
        for found in pattern.finditer(task):
            if found.group("name") in names:
                low = int(found.groupdict().get("low") or 0)
                bounds.setdefault(names.index(found.group("name")), (math.nextafter(low, math.inf) if above else low,
                                                                     math.inf))
    least: dict[int, int] = {}
    for pattern in _LEAST_LENGTHS:
        for found in pattern.finditer(task):
            place = _place_named(task, found, names, only=True)
            if place is not None:
                least.setdefault(place, _number(found.group("n")) + (found.groupdict().get("more") == ">"))
    optional = len(names) - len(header.defaults) if header and header.defaults else None
    return StatedContract(empty, negative, bounds, least, optional, _CHANGES.search(task) is not None,
                          _part_places(task, names) | _float_places(task, names, header), unlettered)


def _place_named(task: str, found: re.Match, names: list[str], only: bool = False) -> int | None:
    """The place of the parameter a bound found in the task speaks of: the one named last before it, in its sentence
    and within _BOUND_REACH characters (a name inside the bound itself counts); with only, the only parameter when
    the task names none there ("the list has at least two elements"); else None."""
    before = re.split(r"[.;:]\s", task[max(0, found.start() - _BOUND_REACH):found.end()])[-1]
    mentioned = [(m.start(), names.index(m.group())) for m in re.finditer(r"\w+", before) if m.group() in names]
    if mentioned:
        return max(mentioned)[1]
    return 0 if only and len(names) == 1 else None


def _number(text: str) -> int:
    return _NUMBER_WORDS.get(text.lower()) or int(text)


def named_separators(task: str) -> list[str]:
    """Separator characters the task names, in words ("hyphens", "a comma") or quoted alone ('-', "="), in the order
    it names them, up to _MAX_SEPARATORS."""
    found: list[tuple[int, str]] = [(m.start(), _NAMED[m.group(1)])
                                    for m in re.finditer(rf"\b({'|'.join(_NAMED)})(?:es|s)?\b", task.lower())]
    found += [(m.start(), m.group(2)) for m in re.finditer(r"(['\"])([^\w\s'\"])\1", task)]
    return list(dict.fromkeys(char for _, char in sorted(found)))[:_MAX_SEPARATORS]


# Text in double quotes (straight or curly), or in single quotes standing apart from words (not the s of "it's").
_QUOTED = re.compile(rf"\"([^\"\n]{{1,{_MAX_QUOTED}}})\"|“([^”\n]{{1,{_MAX_QUOTED}}})”|"
                     rf"(?<!\w)'([^'\n]{{1,{_MAX_QUOTED}}})'(?!\w)")


def _quoted_text(found: re.Match) -> str:
    """The text inside the quotes _QUOTED found, whichever kind of quotes they are."""
    return next(g for g in found.groups() if g is not None)


def quoted_values(task: str, entry_point: str | None = None) -> list[str]:
    """The texts the task quotes as values ("SAVE10" takes 10% off, the unit "km" or "mi"), in its order, once
    each: what a text argument may be beside the example's. Not a mention of the function, nor a lone mark (those
    are separators: named_separators)."""
    found = [_quoted_text(m) for m in _QUOTED.finditer(task)]
    return list(dict.fromkeys(v for v in found if v.strip() and re.search(r"\w", v)
                              and not (entry_point and entry_point in v)))


# Words saying a text ends, or begins, with what they quote: 'if the noun ends in "s", "x", "ch" or "sh"', 'ending
# with ".txt"', 'the suffix "ing"', 'starts with the letter "#"'. The quoted texts after them, joined by commas, "or" or
# "and", are each one such ending or beginning; a later quoted text that a verb follows is what happens ('ends in
# "y", "ies" replaces it'), and the list stops there.
_AFFIX_NOUN = r"(?:(?:(?:an?|the)\s+)?(?:letters?|characters?|suffix|prefix|text|string)\s+)?(?:either\s+)?"
_AFFIXES = {
    True: re.compile(rf"\b(?:(?:ends?|ending)\s+(?:in|with)|suffix(?:es)?)\s+{_AFFIX_NOUN}", re.IGNORECASE),
    False: re.compile(rf"\b(?:(?:starts?|starting|begins?|beginning)\s+with|prefix(?:es)?)\s+{_AFFIX_NOUN}",
                      re.IGNORECASE),
}
_JOIN = re.compile(r"(?:,\s*(?:(?:or|and)\s+)?|\s+(?:or|and)\s+)(?:an?\s+)?")
_HAPPENS = re.compile(r"\s+(?:is|are|was|were|will|shall|should|must|can|could|would|may|replaces?|becomes?|gets?|"
                      r"goes|means?|turns?)\b", re.IGNORECASE)
_OUTCOME = re.compile(r"\s+(?:otherwise|instead)\b", re.IGNORECASE)  # 'ends with "!" and "no" otherwise'
_SHORT_ARTICLE = re.compile(r"(?:an?|the)\s+")  # 'ends in a "y"', 'with an ".s"': of a short or marked ending only
# The letter before a quoted ending, or after a quoted beginning, is part of a rule: 'the letter before the "y" is a
# consonant', 'a "y" after a vowel', '"#" followed by a space'.
_BEFORE_IT = r"\bbefore\s+(?:the\s+|an?\s+)?[\"“']{0}[\"”']|[\"“']{0}[\"”']\s+(?:after|preceded\s+by|following)\b"
_AFTER_IT = r"\bafter\s+(?:the\s+|an?\s+)?[\"“']{0}[\"”']|[\"“']{0}[\"”']\s+(?:before|followed\s+by)\b"


def _affix_quotes(task: str) -> list[tuple[bool, str, int]]:
    """Each quoted text the task says a value ends with (True) or begins with (False), with where its quote starts."""
    found: list[tuple[bool, str, int]] = []
    for at_end, pattern in _AFFIXES.items():
        for words in pattern.finditer(task):
            at, joined = words.end(), None
            article = _SHORT_ARTICLE.match(task, at)
            if article and (quoted := _QUOTED.match(task, article.end())):
                text = _quoted_text(quoted)
                if len(text) <= 2 or not text[0].isalpha():  # not 'if the game ends in a "draw"'
                    at = article.end()
            while quoted := _QUOTED.match(task, at):
                text = _quoted_text(quoted)
                # A later quote a verb follows is what happens ('ends in "y", "ies" replaces it', 'ends with "s" and
                # "es" is added'); the last of a list after "or" ('"ch" or "sh" get "es"') and the first ('ending with
                # ".txt" are text') are not.
                if joined is not None and (_OUTCOME.match(task, quoted.end()) or (
                        _HAPPENS.match(task, quoted.end()) and joined.group().strip() != "or")):
                    break
                if "\\" not in text:  # '"\n"' is written, not a line break: no text to end with
                    found.append((at_end, text, quoted.start()))
                joined = _JOIN.match(task, quoted.end())
                if joined is None:
                    break
                at = joined.end()
    return found


# A parameter that is itself an ending or beginning (remove_suffix(word, suffix), has_ext(name, ext)): the texts the
# task quotes as one are its values, not endings of another text.
_AFFIX_PARAMETER = re.compile(r"(?:^|_)(?:suffix(?:es)?|prefix(?:es)?|endings?|ext(?:ension)?s?)(?:$|_)", re.IGNORECASE)


def _parameter_names(task: str, entry_point: str | None) -> set[str]:
    header = task_signature(task, entry_point) if entry_point else None
    return {a.arg for a in header.posonlyargs + header.args + header.kwonlyargs} if header else set()


def _stated_affix_quotes(task: str, entry_point: str | None) -> list[tuple[bool, str, int]]:
    """The quotes _affix_quotes finds that are endings or beginnings of the function's texts: not the name of a
    parameter of its signature ('begins with "c"' of starts_with(word, c)); none where a parameter is an ending
    itself (_AFFIX_PARAMETER: remove_suffix(word, suffix))."""
    names = _parameter_names(task, entry_point)
    if any(_AFFIX_PARAMETER.search(name) for name in names):
        return []
    return [quote for quote in _affix_quotes(task) if quote[1] not in names]


def stated_affixes(task: str, entry_point: str | None = None) -> dict[bool, list[str]]:
    """The texts the task says a value ends with (at True) and begins with (at False), in its order, once each
    (_AFFIXES: 'ends in "s", "x", "ch" or "sh"'; _stated_affix_quotes): a thin test passes a word that ends in none
    of them."""
    found: dict[bool, dict[str, None]] = {True: {}, False: {}}
    for at_end, text, _ in _stated_affix_quotes(task, entry_point):
        found[at_end][text] = None
    return {at_end: list(texts) for at_end, texts in found.items()}


def letter_beside(task: str, affix: str, at_end: bool) -> bool:
    """Whether the task states a rule of the letter before a quoted ending (at_end), or after a quoted beginning:
    'the letter before the "y" is a consonant'."""
    return re.search((_BEFORE_IT if at_end else _AFTER_IT).format(re.escape(affix)), task, re.IGNORECASE) is not None


# Words before a quoted text the function writes, not one it is given: 'add "es"', 'replace the "y" with "ies"',
# 'swap the "y" for "ies"';
# and after it: '"es" added', '"!" is appended'.
_WRITTEN = re.compile(r"(?:\b(?:add|adds|adding|append|appends|appending)\s+(?:an?\s+|the\s+)?|"
                      r"\b(?:replac|swap|chang|turn)\w*\b[^.;:\n]{0,40}\b(?:with|for|to|into)\s+)$", re.IGNORECASE)
_WRITTEN_AFTER = re.compile(r"\s+(?:(?:is|are)\s+)?(?:added|appended)\b", re.IGNORECASE)


def not_values(task: str, entry_point: str | None = None) -> set[str]:
    """The quoted texts the task quotes only as an ending or a beginning (_stated_affix_quotes) or as what the function
    adds ('add "es"'), never as a value alone: no input to pass."""
    quotes = [(m, _quoted_text(m)) for m in _QUOTED.finditer(task)]
    affixed = {(start, text) for _, text, start in _stated_affix_quotes(task, entry_point)}
    other = {(m.start(), text) for m, text in quotes if (m.start(), text) not in affixed
             and not _WRITTEN.search(task[max(0, m.start() - 60):m.start()])
             and not _WRITTEN_AFTER.match(task, m.end())}
    return {text for _, text in quotes} - {text for _, text in other}


# A threshold the task states for a parameter, in words or symbols: "raise ValueError if `step_days` is less than 1",
# "if n is greater than 100", "when k exceeds 10", "n < 1", "0 <= drop". Each gives the threshold and the number on
# its other side: thin tests pass a typical value, and an answer that forgets the rule differs only there. In words
# the parameter follows "if", "when", "unless", "or" or "and", or stands in backticks ("the items whose count is
# greater than 1" states no rule of `count`); nothing inside arithmetic is read (2*k, n - k, k-1, 10**6, 1/2, 1e5).
_AFTER = "|".join(rf"(?<=\b{word}\s)" for word in ("if", "when", "unless", "or", "and"))
_NAME = rf"(?:`(?P<quoted>[A-Za-z_]\w*)`|(?:{_AFTER})(?P<bare>[A-Za-z_]\w*))"
_SYMBOL_NAME = r"(?<![-+*/%^−]\s)(?<![-+*/%^−\w.])`?(?P<quoted>[A-Za-z_]\w*)`?(?!\s*[-+*/%^])"
_NUMBER = r"(?P<n>-?\d{1,18})(?![\w.,]\d|\w|\s*(?:\*|\^|/|[-+%])|\s+(?:thousand|million|billion)\b)"
_THRESHOLDS = (
    (re.compile(rf"{_NAME}\s+(?:is|are)\s+(?:less|smaller|lower|fewer)\s+than\s+{_NUMBER}"), -1),
    (re.compile(rf"{_NAME}\s+(?:is|are)\s+(?:below|under)\s+{_NUMBER}"), -1),
    (re.compile(rf"{_NAME}\s+(?:is|are)\s+(?:greater|more|larger|bigger|higher)\s+than\s+{_NUMBER}"), 1),
    (re.compile(rf"{_NAME}\s+(?:(?:is|are)\s+(?:above|over)|exceeds?)\s+{_NUMBER}"), 1),
    # In symbols the pair straddles the line the comparison draws: n - 1 and n for `n < 10`, 10 and 11 for `n <= 10`.
    (re.compile(rf"{_SYMBOL_NAME}\s*<(?!=)\s*{_NUMBER}"), -1),
    (re.compile(rf"{_SYMBOL_NAME}\s*(?:<=|≤)\s*{_NUMBER}"), 1),
    (re.compile(rf"{_SYMBOL_NAME}\s*>(?!=)\s*{_NUMBER}"), 1),
    (re.compile(rf"{_SYMBOL_NAME}\s*(?:>=|≥)\s*{_NUMBER}"), -1),
    (re.compile(rf"(?<![-+*/%^−\w.])(?<![-+*/%^−]\s){_NUMBER}\s*<(?!=)\s*{_SYMBOL_NAME}"), 1),
    (re.compile(rf"(?<![-+*/%^−\w.])(?<![-+*/%^−]\s){_NUMBER}\s*(?:<=|≤)\s*{_SYMBOL_NAME}"), -1),
)


def stated_thresholds(task: str, entry_point: str | None) -> dict[str, list[int]]:
    """For each parameter of the task's signature (task_signature) that the task gives a threshold in words or
    symbols ("if `step_days` is less than 1", "n > 100", "0 <= drop"), the threshold and the whole number just past
    it, in the order the task states them: inputs where an answer that forgets a stated rule differs."""
    names = _parameter_names(task, entry_point)
    found: list[tuple[int, str, list[int]]] = []
    for pattern, side in _THRESHOLDS:
        for m in pattern.finditer(task):
            name = m.groupdict().get("quoted") or m.groupdict().get("bare")
            if name in names:
                n = int(m.group("n"))
                found.append((m.start(), name, [n, n + side]))
    thresholds: dict[str, list[int]] = {}
    for _, name, values in sorted(found):
        thresholds.setdefault(name, [])
        thresholds[name] += [v for v in values if v not in thresholds[name]]
    return thresholds
