"""Pull the code out of a model's answer: fenced blocks, several blocks, bare code, body-only answers; then clean it
(agent.loop.answer_cleaning) and add the imports it lacks."""

from __future__ import annotations

import ast
import builtins
import re
from collections.abc import Collection
from dataclasses import dataclass, field

from agent.loop.answer_cleaning import clean_answer
from sandbox import module_offered
from sandbox.inside.names import reads_and_binds
from sandbox.locked_parse import parse, parses

_FENCE = re.compile(r"```[ \t]*([A-Za-z0-9_+-]*)[ \t]*\n(.*?)(?:```|\Z)", re.DOTALL)
_CODE_START = re.compile(r"^(def |class |import |from |@|async def |[A-Za-z_][A-Za-z0-9_]* *=)")


def _defines(code: str, name: str) -> bool:
    return re.search(rf"^\s*(async\s+)?def\s+{re.escape(name)}\s*\(", code, re.MULTILINE) is not None


def _fenced_blocks(answer: str) -> list[str]:
    blocks = []
    for lang, body in _FENCE.findall(answer):
        if lang.lower() in ("", "python", "py", "python3"):
            blocks.append(body.strip("\n"))
    return [b for b in blocks if b.strip()]


def _bare_code(answer: str) -> str | None:
    """The longest stretch of lines that parses, starting at the first line that looks like code."""
    lines = answer.strip("\n").splitlines()
    starts = [i for i, line in enumerate(lines) if _CODE_START.match(line) or line.startswith((" ", "\t"))]
    for start in starts[:5]:
        for end in range(len(lines), start, -1):
            chunk = "\n".join(lines[start:end])
            if chunk.strip() and parses(chunk):
                return chunk
    return None


def _pick(blocks: list[str], entry_point: str | None) -> str:
    """Prefer a block that defines the entry point, then one that parses, then the longest."""
    def score(block: str) -> tuple[bool, bool, int]:
        return (bool(entry_point) and _defines(block, entry_point), parses(block), len(block))
    return max(blocks, key=score)


def _prompt_code(task: str) -> str | None:
    """The task itself when it is Python (a HumanEval prompt: imports, signature and docstring)."""
    stripped = task.strip("\n")
    return stripped if stripped and parses(stripped) else None


def _complete_from_prompt(code: str, task: str, entry_point: str | None) -> str:
    """Body-only answers get the prompt's signature; answers missing the prompt's imports get them."""
    prompt = _prompt_code(task)
    if not prompt or not entry_point or not _defines(prompt, entry_point):
        return code
    if not _defines(code, entry_point):
        body = code if code.startswith((" ", "\t")) else "\n".join("    " + ln for ln in code.splitlines())
        candidate = prompt.rstrip() + "\n" + body
        return candidate if parses(candidate) else code
    imports = [ln for ln in prompt.splitlines() if ln.startswith(("import ", "from ")) and ln not in code]
    return "\n".join(imports + [code]) if imports else code


def names_task_defines(task: str) -> frozenset[str]:
    """The names the task's own code binds (a HumanEval prompt's helper function or constant, which its tests may
    read): the cleaner keeps them wherever the answer repeats them."""
    prompt = _prompt_code(task)
    if not prompt:
        return frozenset()
    names = set()
    for node in parse(prompt).body:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            names.add(node.name)
        elif isinstance(node, (ast.Assign, ast.AnnAssign)):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            names.update(n.id for t in targets for n in ast.walk(t) if isinstance(n, ast.Name))
    return frozenset(names)


# What small models use without importing it (Qwen's MultiPL-E harness prepends a fixed import list for
# the same reason). Only names the code reads and never binds get an import, so nothing is shadowed.
_STDLIB_MODULES = ("math", "re", "string", "itertools", "collections", "heapq", "functools", "bisect", "operator",
                   "statistics", "fractions", "decimal", "random", "hashlib", "copy", "datetime", "json", "sys")
_FROM_IMPORTS = {
    "typing": ("List", "Dict", "Tuple", "Set", "Optional", "Any", "Union", "Callable", "Iterable", "Iterator",
               "Sequence", "FrozenSet", "DefaultDict"),
    "collections": ("Counter", "defaultdict", "deque", "OrderedDict"),
    "functools": ("reduce", "lru_cache", "cmp_to_key", "cache"),
    "itertools": ("permutations", "combinations", "product", "accumulate", "groupby", "chain",
                  "combinations_with_replacement"),
    "math": ("gcd", "sqrt", "floor", "ceil", "factorial", "isqrt", "inf", "pi", "prod", "comb", "log", "lcm"),
    "heapq": ("heappush", "heappop", "heapify", "nlargest", "nsmallest"),
    "bisect": ("bisect_left", "bisect_right", "insort"),
}
_IMPORT_FOR = {name: f"import {name}" for name in _STDLIB_MODULES} | {
    name: f"from {module} import {name}" for module, names in _FROM_IMPORTS.items() for name in names}


def _unbound_names(tree: ast.Module) -> set[str]:
    """Names the code reads but binds nowhere (a def, an argument, an assignment, an import, a loop ...)."""
    read, bound = reads_and_binds(tree, frozenset())
    return read - bound - set(dir(builtins))


# Packages the sandbox may offer (SANDBOX_PACKAGES), by the names code conventionally gives them; an import is added
# only while the sandbox offers the package.
_PACKAGE_NAMES = {"np": ("numpy", "import numpy as np"), "numpy": ("numpy", "import numpy"),
                  "pd": ("pandas", "import pandas as pd"), "pandas": ("pandas", "import pandas")}


def _import_for(name: str) -> str | None:
    if name in _IMPORT_FOR:
        return _IMPORT_FOR[name]
    package, line = _PACKAGE_NAMES.get(name, (None, None))
    return line if package and module_offered(package) else None


def add_missing_imports(code: str) -> str:
    """The code with an import for each standard-library name, or offered package's usual name (np), it uses
    without importing."""
    try:
        tree = parse(code)
    except SyntaxError:
        return code
    needed = sorted({line for line in map(_import_for, _unbound_names(tree)) if line})
    return "\n".join(needed + [code]) if needed else code


@dataclass(frozen=True)
class ExtractedCode:
    """The code in a model's answer (None when there is none, with the reason), and the labels of what cleaning
    removed from it: the model's own tests and demos (agent.loop.answer_cleaning)."""

    code: str | None
    error: str | None
    removed: list[str] = field(default_factory=list)


def extract_answer(answer: str, *, entry_point: str | None = None, task: str = "",
                   test_names: Collection[str] = frozenset()) -> ExtractedCode:
    """The code in an answer, completed from the task's prompt, cleaned of the model's own tests and demos and
    given the imports it lacks. test_names are the names the visible tests use (never the hidden tests'):
    the cleaner never removes one of them."""
    if not answer or not answer.strip():
        return ExtractedCode(None, "the answer was empty")
    blocks = _fenced_blocks(answer)
    code = _pick(blocks, entry_point) if blocks else _bare_code(answer)
    if code is None:
        return ExtractedCode(None, "the answer contains no Python code")
    code = _complete_from_prompt(code.strip("\n") + "\n", task, entry_point)
    code, cut = _whole_statements(code, entry_point)
    # Code that lacks the entry point or does not parse still goes to the sandbox, which names the problem.
    cleaned, removed = clean_answer(code, entry_point=entry_point, test_names=test_names,
                                    task_names=names_task_defines(task))
    return ExtractedCode(add_missing_imports(cleaned), None, [*removed, *cut])


def _whole_statements(code: str, entry_point: str | None) -> tuple[str, list[str]]:
    """An answer cut off at the token limit in the middle of the model's own demo does not parse, and the right
    function above it would never be judged: keep the longest run of lines from the start that parses and still
    defines the entry point (when one is known), and say what went. Code that parses, or whose entry point itself
    was cut, is left as it is (the sandbox names the syntax error)."""
    if parses(code):
        return code, []
    lines = code.splitlines()
    for end in range(len(lines) - 1, 0, -1):
        head = "\n".join(lines[:end]).rstrip()
        if head and parses(head) and (not entry_point or _defines(head, entry_point)):
            return head + "\n", [f"the unfinished end (from line {end + 1})"]
    return code, []


def extract_code(answer: str, *, entry_point: str | None = None, task: str = "",
                 test_names: Collection[str] = frozenset()) -> tuple[str | None, str | None]:
    """(code, None) when the answer holds code, else (None, a reason the model can act on); extract_answer with
    what cleaning removed left out."""
    extracted = extract_answer(answer, entry_point=entry_point, task=task, test_names=test_names)
    return extracted.code, extracted.error
