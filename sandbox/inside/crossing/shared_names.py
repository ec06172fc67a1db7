"""The code's global names, one namespace with the tests' as in one file: a name rebound on one side is rebound on the
other.

Runs inside the sandbox (stdlib only), in both processes (candidate.py and testrunner.py call it around every
message). In one file (HumanEval's ``check`` beside the code, a pytest file holding both) ``counter`` is one global:
``increment()`` then ``assert counter == 2`` reads the code's new value, and a test's ``DEBUG = True`` changes what
the code's ``mode()`` reads. The tests' process binds the code's names once, as they were when the code loaded; so
with every message each side sends the names it rebound since the two last agreed, encoded as any value crosses
(a list the code keeps as a live view), and the other side binds them. A list the tests bind to one of the code's
names crosses as a copy, which the code's process links to the tests' own (linking.py): the tests' name keeps their
list, and changes on either side are seen on both.

The code never rebinds a global of the tests' own (a name the tests' text binds at their top level or declares
``global``: a ``check``, a helper, an ``expected`` list), nor a name the sandbox gives them, so it cannot replace what
a test compares with; where it rebinds one, the tests keep theirs and the test, if it fails, is not judged (the
reason says why). Dunder names and modules never cross this way.
"""

from __future__ import annotations

import ast
import types

import sharing
import unsupported

# Names the sandbox binds in the tests' namespace, which only it may rebind.
RESERVED = frozenset({"candidate"})
TESTS_OWN = ("the code rebound a global name that the tests also bind; in one file both would be one name, but the "
             "sandbox keeps the tests' own names theirs, so the code cannot replace what a test compares with")
_CHANGED = object()  # a value the other side must be sent back (a container it now holds as a copy)


def _crosses(name: object, value: object) -> bool:
    return type(name) is str and not name.startswith("__") and not isinstance(value, types.ModuleType)


class CodeNames:
    """The code's process: its module's globals as the tests' process last saw them."""

    def __init__(self, namespace: dict) -> None:
        self.namespace = namespace
        self.seen: dict[str, object] = {}
        self.linked: dict[str, int] = {}  # the tests' containers bound since the last answer: name -> link handle

    def agreed(self, sent: dict) -> None:
        """The names the code's process sent when it loaded (its first message)."""
        self.seen = {name: self.namespace[name] for name in sent if name in self.namespace}

    def outgoing(self, encode) -> dict | None:
        """The globals the code rebound (or bound anew) since the tests last saw them, encoded."""
        changed = {}
        for name, value in list(self.namespace.items()):
            if not _crosses(name, value) or self.seen.get(name, _CHANGED) is value:
                continue
            self.seen[name] = value
            try:
                # The code's state, held by its module: its containers cross as live views.
                changed[name] = encode(value, sharing.shared_in(value, held=True))
            except Exception:  # a value that cannot cross stays the code's, as at load (candidate._names)
                continue
        return changed or None

    def incoming(self, sent: object, decode, link) -> None:
        """Bind the names a test rebound (DEBUG = True) in the code's module. link(value): a container's handle
        once linked to the tests' own (linking.py), else None."""
        for name, enc in sent.items() if type(sent) is dict else ():
            if type(name) is not str or name.startswith("__") or name not in self.seen:
                continue
            value = decode(enc)
            self.namespace[name] = value
            self.seen[name] = value
            # A container arrives as a copy: linked to the tests' list, which stays theirs, the two are one list.
            handle = link(value) if type(value) in sharing.MUTABLE else None
            if handle is not None:
                self.linked[name] = handle

    def take_linked(self, contents) -> dict | None:
        """The containers linked since the last answer: name -> (handle, their contents now)."""
        if not self.linked:
            return None
        found = {name: (handle, contents(self.namespace.get(name))) for name, handle in self.linked.items()}
        self.linked = {}
        return found


class TestsNames:
    """The tests' process: which of its globals are the code's names, and their values as the two last agreed."""

    def __init__(self) -> None:
        self.namespace: dict | None = None
        self.modules: list[dict] = []
        self.last: dict[str, object] = {}
        self.own: frozenset[str] = frozenset()
        self.imported: frozenset[str] = frozenset()

    def start(self, namespace: dict, code_names: object, tests: ast.Module, modules: list[dict],
              separate: bool) -> None:
        """namespace: the tests' globals, holding the code's names (code_names) as the code sent them; tests: the
        tests' syntax tree; modules: the dicts of the modules standing for the code's (``solution``), kept alike;
        separate: the tests import the code as a module of their own (``from calculator import add``), so their
        globals are theirs, as two files' are: only the module's names follow the code's."""
        self.modules = modules
        self.own = frozenset(global_names(tests)) | RESERVED
        self.imported = frozenset(imported_names(tests))
        if separate:
            return
        self.namespace = namespace
        # A function or class the tests define under one of the code's names is a test's own (a helper, a
        # stand-in), never sent to replace the code's: as a tests file that imports the code would have it.
        theirs = self.imported | defined_names(tests) | RESERVED
        self.last = {name: namespace[name] for name in code_names if name in namespace and name not in theirs}

    def outgoing(self, encode) -> dict | None:
        """The code's names a test rebound since the two last agreed, encoded."""
        if self.namespace is None:
            return None
        changed = {}
        for name, value in list(self.last.items()):
            now = self.namespace.get(name, _CHANGED)
            if now is value or now is _CHANGED or isinstance(now, types.ModuleType):
                continue
            self.last[name] = now
            try:
                changed[name] = encode(now)
            except Exception:  # a value that cannot cross: the code keeps its own, as before
                continue
        return changed or None

    def link(self, linked: object, peer: object) -> None:
        """The code linked its copies of the lists the tests bound to its names: the tests' own lists stand for
        them from now on, with the contents the code left in them."""
        import linking

        for name, item in linked.items() if type(linked) is dict and self.namespace is not None else ():
            obj = self.last.get(name)
            if type(item) is not tuple or len(item) != 2 or type(item[0]) is not int or obj is None:
                continue
            if type(obj) in sharing.MUTABLE and linking.replace_contents(obj, peer.decode(item[1])):
                linking.link(peer, obj, item[0])

    def incoming(self, sent: object, decode) -> None:
        """Bind the names the code rebound, in the modules standing for the code's and in the tests' globals; never
        one of the tests' own."""
        if type(sent) is not dict:
            return
        for name, enc in sent.items():
            if type(name) is not str or name.startswith("__"):
                continue
            value = decode(enc)
            for module in self.modules:
                module[name] = value
            if self.namespace is None or name in self.imported:
                continue  # `from calculator import counter` binds the value of the moment, in one process too
            if name in self.own:
                unsupported.note(TESTS_OWN)
                continue
            self.last[name] = value
            self.namespace[name] = value


def imported_names(module: ast.Module) -> set[str]:
    """The names the tests' imports bind."""
    return {(alias.asname or alias.name).split(".")[0] for node in ast.walk(module)
            if isinstance(node, (ast.Import, ast.ImportFrom)) for alias in node.names}


def defined_names(module: ast.Module) -> set[str]:
    """The functions and classes the tests define at their top level."""
    return {node.name for node in module.body
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef))}


def global_names(module: ast.Module) -> set[str]:
    """The names the tests bind as globals: at their top level (defs, classes, assignments, imports, loop targets)
    and wherever a function declares them ``global``; a function's locals are its own."""
    found: set[str] = set()

    def top_level(node: ast.AST) -> None:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                found.add(child.name)
                for decorator in child.decorator_list:
                    top_level(decorator)
                continue
            if isinstance(child, (ast.Lambda, ast.ListComp, ast.SetComp, ast.DictComp, ast.GeneratorExp)):
                continue
            if isinstance(child, ast.Name) and not isinstance(child.ctx, ast.Load):
                found.add(child.id)
            elif isinstance(child, (ast.Import, ast.ImportFrom)):
                found.update((alias.asname or alias.name).split(".")[0] for alias in child.names)
            elif isinstance(child, ast.ExceptHandler) and child.name:
                found.add(child.name)
            top_level(child)

    top_level(module)
    for node in ast.walk(module):
        if isinstance(node, ast.Global):
            found.update(node.names)
    return found
