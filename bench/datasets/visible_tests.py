"""Turn the examples written in a HumanEval prompt's docstring into assert statements ("visible tests").

A problem is any record with ``task_id``, ``prompt`` and ``entry_point`` (bench.datasets.humaneval.Problem).
Only the ``prompt`` field is read: ``test`` holds the hidden tests and must never reach a solver.
Nothing is executed here; examples are recognised with ``re`` and validated with ``ast``.

Floats are compared with a plain ``==``: a doctest passes only when the printed repr matches, which
is exactly float equality, and every float written in the other shapes is a short decimal that the
canonical solution returns exactly.
"""

from __future__ import annotations

import ast
import builtins
import re
from collections.abc import Iterator, Mapping
from dataclasses import dataclass

from sandbox.locked_parse import parse

# Every assert extracted from the 164 real prompts was run against prompt + canonical_solution
# (tests/test_visible_tests.py keeps doing so). These docstring examples contradict the reference
# solution, i.e. they are typos in the dataset, so they are dropped:
#   HumanEval/47   median([-10, 4, 6, 1000, 10, 20]) is documented as 15.0; the median is 8.0.
#   HumanEval/116  all three examples disagree with the reference sort (which gives [1, 2, 4, 3, 5] for
#                  [1, 5, 2, 3, 4]); the third lacks its "==" as well and is never extracted.
#   HumanEval/130  "tri(1) = 3", "tri(2) = 1 + (2 / 2) = 2", "tri(4) = 3" describe the sequence, but
#                  tri(n) returns the list of its first n + 1 terms.
#   HumanEval/148  'bf("Earth", "Mercury") ==> ("Venus")' is a str; the function returns ("Venus",).
# HumanEval/158's 'find_max(["aaaaaaa", "bb" ,"cc"]) == ""aaaaaaa"' (stray quote) does not parse,
# so it never needs dropping.
_ERRATA = frozenset(
    {
        ("HumanEval/47", "assert median([-10, 4, 6, 1000, 10, 20]) == 15.0"),
        ("HumanEval/116", "assert sort_array([1, 5, 2, 3, 4]) == [1, 2, 3, 4, 5]"),
        ("HumanEval/116", "assert sort_array([-2, -3, -4, -5, -6]) == [-6, -5, -4, -3, -2]"),
        ("HumanEval/130", "assert tri(1) == 3"),
        ("HumanEval/130", "assert tri(2) == 2"),
        ("HumanEval/130", "assert tri(4) == 3"),
        ("HumanEval/148", "assert bf('Earth', 'Mercury') == 'Venus'"),
    }
)

_BUILTINS = frozenset(dir(builtins))
# What a ">>>" example may call besides the prompt's functions ("round(find_zero([1, 2]), 2)").
_PURE_BUILTINS = frozenset(
    ["abs", "all", "any", "bool", "dict", "float", "int", "len", "list", "max", "min", "round", "set"]
    + ["sorted", "str", "sum", "tuple"]
)
# Separators between a call and its result: "==>", "=>", "➞", "->", "==", "=", "# returns", "# =>",
# "returns" and "should return" (which may wrap onto the next docstring line).
_SEPARATOR = re.compile(r"[ \t]*(?:#[ \t]*)?(?:==>|=>|➞|->|==|=|returns?\b|should\s+return\b)[ \t]*")
_CALL_START = re.compile(r"(?<![\w.])([A-Za-z_]\w*)\(")
_FOR_SHAPE = re.compile(r"\bfor\s+(.+?),?\s+the\s+(?:output|result)\s+should\s+be\s+(.+)$", re.IGNORECASE)
_NAMED_LINE = re.compile(r"^\s*(\w+)\s*:\s*(.+)$")  # "grid : [[0, 1]]" in an Input: block
_LONE_EQUALS = re.compile(r"(?<![=!<>])=(?![=>])")
_QUOTES = re.compile(r"^[rRuU]?(\"\"\"|'''|\"|')|(\"\"\"|'''|\"|')$")


@dataclass(frozen=True)
class _Scope:
    """The entry point, its parameter names, and every function the prompt defines."""

    entry_point: str
    params: frozenset[str]
    callables: frozenset[str]


def _parse(text: str) -> ast.expr | None:
    try:
        return parse(text.strip(), mode="eval").body
    except (SyntaxError, ValueError):
        return None


def _is_literal(node: ast.expr | None) -> bool:
    if node is None:
        return False
    try:
        ast.literal_eval(node)
    except (ValueError, TypeError, SyntaxError, MemoryError, RecursionError):
        return False
    return True


def _literal(text: str) -> ast.expr | None:
    """Parse the expected value written in ``text``, tolerating the prose that docstrings put around it."""
    text = text.strip()
    if text in ("true", "false"):  # "is_simple_power(1, 4) => true"
        text = text.capitalize()
    # "should return 16." ends a sentence; "16." alone would parse as a float.
    candidates = [text[:-1], text] if text.endswith(".") and not text.endswith("..") else [text]
    worked = _LONE_EQUALS.split(text)
    if len(worked) > 1:  # "f(x) -> 19 - 5 - 6 = 8": the worked arithmetic ends in the value
        candidates.append(worked[-1].strip().rstrip("."))
    # "15 and f(y) should return ...", "'No' (the name should ...)": a literal followed by prose.
    cuts = [m.start() for m in re.finditer(r"\s+(?=[A-Za-z(])", text)] if len(worked) == 1 else []
    candidates += [text[:cut].rstrip(".,;") for cut in reversed(cuts)]
    return next((node for c in candidates if _is_literal(node := _parse(c))), None)


def _render(call: ast.expr, expected: ast.expr) -> str:
    source = ast.unparse(call)
    if not isinstance(call, (ast.Call, ast.Name, ast.Attribute, ast.Subscript)):
        source = f"({source})"
    if isinstance(expected, ast.Constant) and expected.value is None:
        return f"assert {source} is None"
    return f"assert {source} == {ast.unparse(expected)}"


def _scope(problem: Mapping[str, str]) -> tuple[_Scope, str] | None:
    """Find the entry point's scope and the *source* of its docstring, so escapes stay as written."""
    prompt = problem["prompt"]
    try:
        tree = parse(prompt)
    except SyntaxError:
        return None
    functions = [n for n in ast.walk(tree) if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef))]
    entry = next((f for f in reversed(functions) if f.name == problem["entry_point"]), None)
    if entry is None:
        return None
    params = frozenset(a.arg for a in entry.args.posonlyargs + entry.args.args + entry.args.kwonlyargs)
    docs = []
    # Not ast.get_docstring: HumanEval/115 puts "import math" before its docstring.
    for stmt in entry.body:
        if isinstance(stmt, ast.Expr) and isinstance(getattr(stmt.value, "value", None), str):
            segment = ast.get_source_segment(prompt, stmt.value) or ""
            docs.append(_QUOTES.sub("", segment))
    return _Scope(entry.name, params, frozenset(f.name for f in functions)), "\n".join(docs)


def _calls_only(node: ast.expr, scope: _Scope) -> bool:
    """Check that ``node`` calls a function of the prompt and names nothing else but pure builtins."""
    names = {n.id for n in ast.walk(node) if isinstance(n, ast.Name)}
    called = {n.func.id for n in ast.walk(node) if isinstance(n, ast.Call) and isinstance(n.func, ast.Name)}
    return bool(called & scope.callables) and names <= scope.callables | _PURE_BUILTINS


def _doctests(doc: str, scope: _Scope) -> tuple[list[str], str]:
    """Turn ``>>>`` examples into asserts; also return the docstring with those examples blanked out."""
    asserts: list[str] = []
    lines = doc.split("\n")
    i = 0
    while i < len(lines):
        match = re.match(r"\s*>>> ?(.*)$", lines[i])
        if not match:
            i += 1
            continue
        start, source = i, [match.group(1)]
        i += 1
        while i < len(lines) and (more := re.match(r"\s*\.\.\.(?: (.*))?$", lines[i])):
            source.append(more.group(1) or "")
            i += 1
        want: list[str] = []
        while i < len(lines) and lines[i].strip() and not lines[i].lstrip().startswith(">>>"):
            want.append(lines[i].strip())
            i += 1
        lines[start:i] = [""] * (i - start)
        node = _parse("\n".join(source))
        if node is None or not _calls_only(node, scope):
            continue
        if not want:  # doctest prints nothing for None; "f(x) == y" written without its True
            if isinstance(node, ast.Compare):
                asserts.append(f"assert {ast.unparse(node)}")
            elif isinstance(node, ast.Call):
                asserts.append(_render(node, ast.Constant(None)))
            continue
        expected = _literal("\n".join(want)) or _literal(want[0])
        if expected is not None:
            asserts.append(_render(node, expected))
    return asserts, "\n".join(lines)


def _call(name: str, node: ast.expr | None, scope: _Scope) -> ast.Call | None:
    """Rebuild ``node`` (a call as written in prose) as a call of ``name`` with literal arguments only."""
    if not isinstance(node, ast.Call) or (node.keywords and node.args):
        return None
    if any(k.arg is None for k in node.keywords):  # "**kwargs"
        return None
    args: list[ast.expr] = []
    for arg in node.args + [k.value for k in node.keywords]:  # docstrings may misname parameters
        bare_word = isinstance(arg, ast.Name) and arg.id not in scope.params | scope.callables | _BUILTINS
        if bare_word and name == scope.entry_point:
            arg = ast.Constant(arg.id)  # "is_happy(abcd) => True" means the string "abcd"
        if isinstance(arg, ast.Starred) or not _is_literal(arg):
            return None
        args.append(arg)
    return ast.Call(func=ast.Name(name, ast.Load()), args=args, keywords=[])


def _expected_after(text: str, pos: int) -> ast.expr | None:
    """Parse the literal starting at ``pos``, following it onto later lines while brackets are open."""
    lines = text[pos:].split("\n")
    for count in range(1, min(len(lines), 12) + 1):
        chunk = "\n".join(lines[:count])
        expected = _literal(chunk)
        if expected is not None or sum(map(chunk.count, "([{")) <= sum(map(chunk.count, ")]}")):
            return expected
    return None


def _inline(doc: str, scope: _Scope) -> Iterator[str]:
    """``f(x) ==> y`` and its many spellings (``=>``, ``➞``, ``->``, ``==``, ``=``, "should return")."""
    for match in _CALL_START.finditer(doc):
        name = match.group(1)
        if name not in scope.callables:
            if name in _BUILTINS or name in scope.params:
                continue
            name = scope.entry_point  # "grade_equation(...)" in numerical_letter_grade's docstring
        # The call ends at the first ")" that closes it (strings may hold parentheses: "['()(', ')']").
        closes = [m.end() for m in re.finditer(r"\)", doc[match.end() : match.end() + 3000])]
        end = next((match.end() + c for c in closes if _parse(doc[match.start() : match.end() + c])), None)
        separator = _SEPARATOR.match(doc, end) if end is not None else None
        if end is None or separator is None:
            continue
        call = _call(name, _parse(doc[match.start() : end]), scope)
        expected = _expected_after(doc, separator.end())
        if call is not None and expected is not None:
            yield _render(call, expected)


def _call_from_args(args: str, scope: _Scope) -> ast.Call | None:
    """Build a call of the entry point from argument prose such as ``arr = [1, 2], k = 3``."""
    pieces = args.split(",")
    for count in range(len(pieces), 0, -1):  # drop trailing prose: "N = 1000, the sum of digits ..."
        call = _call(scope.entry_point, _parse(f"_({','.join(pieces[:count])})"), scope)
        if call is not None:
            return call
    return None


def _for_the_output(doc: str, scope: _Scope) -> Iterator[str]:
    """``For lst = [1, 2] the output should be 3`` and ``..., the result should be (...)``."""
    for line in doc.split("\n"):
        match = _FOR_SHAPE.search(line)
        if match:
            call, expected = _call_from_args(match.group(1), scope), _literal(match.group(2))
            if call is not None and expected is not None:
                yield _render(call, expected)


def _input_output(doc: str, scope: _Scope) -> Iterator[str]:
    """``Input: arr = [...], k = 3`` (or one ``name : value`` per line) followed by ``Output: y``."""
    lines = doc.split("\n")
    for i, line in enumerate(lines):
        match = re.match(r"\s*Input\s*:(.*)$", line)
        if not match:
            continue
        args, output = [match.group(1)], None
        for following in lines[i + 1 :]:
            output = re.match(r"\s*Output\s*:(.*)$", following)
            if output or not following.strip():
                break
            args.append(following)
        if output is None:
            continue
        parts = [_NAMED_LINE.sub(r"\1=\2", a) for a in args if a.strip()]
        call, expected = _call_from_args(", ".join(parts), scope), _literal(output.group(1))
        if call is not None and expected is not None:
            yield _render(call, expected)


def _assign_then_return(doc: str, scope: _Scope) -> Iterator[str]:
    """``arr = [2, 1]`` ... ``return ["Two", "One"]`` within one paragraph (HumanEval/105)."""
    assigned: dict[str, str] = {}
    for line in doc.split("\n"):
        assignment = re.match(r"\s*(\w+)\s*=\s*(.+)$", line)
        returned = re.match(r"\s*return\s*=?\s*(.+)$", line)
        if not line.strip():
            assigned = {}
        elif assignment and assignment.group(1) in scope.params:
            assigned[assignment.group(1)] = assignment.group(2)
        elif returned and assigned and set(assigned) == scope.params:
            call = _call_from_args(", ".join(f"{k}={v}" for k, v in assigned.items()), scope)
            expected = _literal(returned.group(1))
            if call is not None and expected is not None:
                yield _render(call, expected)
            assigned = {}


def extract_visible_tests(problem: Mapping[str, str]) -> list[str]:
    """Return the docstring examples of ``problem["prompt"]`` as one-line, deduplicated assert statements.

    Each assert calls the entry point (or a function the prompt defines) with literal arguments and
    compares it with the documented result. The hidden ``test`` field is never read.
    """
    found = _scope(problem)
    if found is None:
        return []
    scope, doc = found
    asserts, prose = _doctests(doc, scope)
    for shape in (_inline, _for_the_output, _input_output, _assign_then_return):
        asserts.extend(shape(prose, scope))
    return [a for a in dict.fromkeys(asserts) if (problem["task_id"], a) not in _ERRATA]


def visible_test_source(problem: Mapping[str, str]) -> str:
    """Return the visible tests of ``problem`` as the text of a test file (one assert per line)."""
    tests = extract_visible_tests(problem)
    return "\n".join(tests) + "\n" if tests else ""


def visible_tests_for(problem: Mapping[str, str]) -> tuple[str, int]:
    """The docstring's examples as asserts, and how many; where there are none, only that the function exists
    (a test that says nothing the prompt does not, counted as 0)."""
    source = visible_test_source(problem)
    count = sum(isinstance(node, ast.Assert) for node in parse(source).body) if source.strip() else 0
    return (source if count else f"assert callable({problem['entry_point']})\n"), count


def coverage(problems: list[Mapping[str, str]]) -> tuple[int, list[str]]:
    """Return how many problems have at least one visible test, and the task ids of those with none."""
    missing = [p["task_id"] for p in problems if not extract_visible_tests(p)]
    return len(problems) - len(missing), missing
