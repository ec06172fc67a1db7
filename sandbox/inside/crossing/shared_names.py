"""The code's global names, one namespace with the tests' as in one file: a name rebound on one side is rebound on the
other.

Runs inside the sandbox (stdlib only), in both processes (candidate.py and testrunner.py call it around every
message). In one file (HumanEval's ``check`` beside the code, a pytest file holding both) ``counter`` is one global:
``increment()`` then ``assert counter == 2`` reads the code's new value, and a test's ``DEBUG = True`` changes what
the code's ``mode()`` reads. The tests' process binds the code's names once, as they were when the code loaded; so
with every message each side sends the names it rebound since the two last agreed, encoded as any value crosses (a
list the code keeps as a live view), and the other side binds them.

The names the code defined when it loaded, or first binds at run time, cross, and only while they are the code's: a
name the tests bind themselves (at their top level, declared ``global``, or rebound at run time: a star import, a
setUp's reset) and a builtin are theirs, and the code never rebinds them in the tests' namespace, so it cannot replace
what a test compares with (``abs``, ``isclose``, an ``expected`` list); a name whose value the code took from
elsewhere (``log = print``, ``import math``) may become a function of the tests' or data, never an object of the
code's. Where the code rebinds such a name and the tests read it, a failing test is not judged, with the reason. What
a test binds reaches the code as a copy, never linked, so the code cannot change the tests' own list in place; where
it changes its copy of one the tests read, a failing test is not judged either. A function or class the tests define,
and a name they import, stay theirs and are not sent. Each side looks only at the names it can rebind (the code's:
those its functions store as globals, read from its compiled code, unless it can write its globals another way), so
a module of many globals stays fast, and a value too big to send every time (a text over a megabyte, a tuple over
10,000 items) is left out.
"""

from __future__ import annotations

import ast
import builtins
import dis
import types

import sharing
import unsupported
from syntax_walk import is_data, walk
from codec import PeerGone

# Names the sandbox binds in the tests' namespace, which only it may rebind.
RESERVED = frozenset({"candidate"})
CHANGED_COPY = ("the code changed a list or dict that a test bound to one of the code's names (global items; "
                "items = [] in setUp); in one file it would be the test's own, but the sandbox hands the code a copy, "
                "so that the code cannot change what a test compares with, and the test's own does not show the change")
TESTS_OWN = ("the code rebound a global name that the tests bind themselves, or use as a builtin or as what the code "
             "imported; in one file both would be one name, but the sandbox keeps such names the tests', so the code "
             "cannot replace what a test compares with")
# The code may write its globals without a global statement through these: then every name is looked at.
_WRITES_OTHERWISE = frozenset({"globals", "exec", "eval", "vars", "__dict__", "setattr", "__import__",
                               "import_module", "modules", "solution"})
MAX_SENT = 1 << 20  # a rebound text's characters sent with a message (a tuple's items: a hundredth); bigger stay
_MISSING = object()


def _crosses(name: object, value: object) -> bool:
    return (type(name) is str and not name.startswith(("__", "_sbx")) and not isinstance(value, types.ModuleType)
            and not _too_big(value))


def _too_big(value: object) -> bool:
    if isinstance(value, (str, bytes)):
        return len(value) > MAX_SENT
    return isinstance(value, (tuple, frozenset)) and len(value) > MAX_SENT // 100


def stored_globals(code: types.CodeType) -> frozenset[str] | None:
    """The global names the code's functions store or delete (``global counter; counter += 1``); None where it may
    write its globals another way (globals(), exec, setattr on a module, ...), which leaves every name to look at."""
    found: set[str] = set()
    stack = [code]
    while stack:
        current = stack.pop()
        if _WRITES_OTHERWISE.intersection(current.co_names):
            return None
        found.update(i.argval for i in dis.get_instructions(current) if i.opname in ("STORE_GLOBAL", "DELETE_GLOBAL"))
        stack.extend(c for c in current.co_consts if isinstance(c, types.CodeType))
    return frozenset(found)


class CodeNames:
    """The code's process: its module's globals as the tests' process last saw them."""

    def __init__(self, namespace: dict) -> None:
        self.namespace = namespace
        self.seen: dict[str, object] = {}
        self.watched: list[str] = []
        self.stored: frozenset[str] | None = frozenset()
        self.copies: dict[str, tuple[object, object]] = {}  # a test's container bound to a name: (copy, as it came)
        self.everything = False  # the module ran again: send every name with the next answer

    def agreed(self, sent: dict, stored: frozenset[str] | None) -> None:
        """The names the code's process sent when it loaded (its first message), and those its functions store
        (stored_globals): a name they bind at run time (``global DATA; DATA = [...]`` in ``load()``) is looked at
        too."""
        self.seen = {name: self.namespace[name] for name in sent if name in self.namespace}
        self.stored = stored
        self.watched = [name for name in self.seen if stored is None or name in stored] + sorted(
            name for name in stored or () if name not in self.seen)

    def reloaded(self) -> None:
        """The module is about to run again (importlib.reload): the next answer sends every name it binds, whatever
        the tests last saw (a test set ``COUNT = 5``, which the code's ``COUNT = 0`` binds again as the same 0)."""
        self.everything = True

    def outgoing(self, encode) -> dict | None:
        """The code's names it rebound, or bound anew, since the tests last saw them, encoded."""
        changed = {}
        everything, self.everything = self.everything, False
        names = self.watched if self.stored is not None and not everything else list(self.namespace)
        for name in names:
            value = self.namespace.get(name, _MISSING)
            if value is _MISSING or not _crosses(name, value) or (
                    value is self.seen.get(name, _MISSING) and not everything):
                continue
            self.seen[name] = value
            try:
                # The code's state, held by its module: its containers cross as live views.
                changed[name] = encode(value, sharing.shared_in(value, held=True))
            except PeerGone:
                raise
            except Exception:  # a value that cannot cross stays the code's, as at load (candidate._names)
                continue
        if everything:
            self.agreed(self.seen, self.stored)  # a name the module bound anew is looked at from now on
        return changed or None

    def incoming(self, sent: object, decode) -> None:
        """Bind the code's names a test rebound (DEBUG = True) in its module, as the copies they crossed as."""
        for name, enc in sent.items() if type(sent) is dict else ():
            if type(name) is not str or name.startswith(("__", "_sbx")) or name not in self.seen:
                continue
            value = decode(enc)
            self.namespace[name] = self.seen[name] = value
            if type(value) in (list, dict, set):
                self.copies[name] = (value, type(value)(value))

    def changed_copies(self) -> list[str]:
        """The names of the tests' lists whose copies the code changed (compared shallowly, in this process): the
        tests' own do not show it."""
        found = []
        for name, (copy, came) in list(self.copies.items()):
            if self.namespace.get(name, _MISSING) is not copy:
                del self.copies[name]
            elif copy != came:
                found.append(name)
        return found


class TestsNames:
    """The tests' process: which of its globals are the code's names, and their values as the two last agreed."""

    def __init__(self) -> None:
        self.namespace: dict | None = None
        self.modules: list[dict] = []
        self.code_names: frozenset[str] = frozenset()
        self.last: dict[str, object] = {}
        self.watched: list[str] = []
        self.theirs: set[str] = set()
        self.borrowed: set[str] = set()
        self.imported: frozenset[str] = frozenset()
        self.read: frozenset[str] = frozenset()

    def start(self, namespace: dict, code_names: object, tests: ast.Module, modules: list[dict],
              separate: bool) -> None:
        """namespace: the tests' globals, holding the code's names (code_names) as the code sent them; tests: the
        tests' syntax tree; modules: the dicts of the modules standing for the code's (``solution``), kept alike;
        separate: the tests import the code as a module of their own (``from calculator import add``), so their
        globals are theirs, as two files' are: only the module's names follow the code's."""
        self.modules = modules
        self.code_names = frozenset(name for name in code_names if type(name) is str) - RESERVED
        self.imported = frozenset(imported_names(tests))
        if separate:
            return
        self.namespace = namespace
        self.read = frozenset(n.id for n in walk(tests) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load))
        bound = global_names(tests)
        # What the tests call and compare with besides their own names: the builtins, and what the code took from
        # elsewhere (``abs = abs``, ``from math import isclose``): the code's own are its data, its functions and
        # classes; anything else it binds to such a name at run time could pass a check it was made to fail.
        self.borrowed = {name for name in self.code_names if name in namespace and not _codes_own(namespace[name])}
        self.theirs = set(bound) | RESERVED | set(vars(builtins))
        self.last = {name: namespace[name] for name in self.code_names if name in namespace}
        # A function or class the tests define under one of the code's names is a test's own (a helper, a stand-in),
        # never sent to replace the code's, as a tests file that imports the code would have it; nor a name they
        # import. What else they bind may be a name of the code's they set (DEBUG = True, a setUp's reset): those are
        # looked at, every one where the tests can bind names unseen (a star import, globals(), exec).
        never = self.imported | defined_names(tests)
        anything = any(isinstance(n, ast.ImportFrom) and any(a.name == "*" for a in n.names) for n in walk(tests)
                       ) or bool(self.read & {"globals", "exec", "eval", "vars"}) or names_own_module(tests)
        self.watched = [name for name in self.last if name not in never and (anything or name in bound)]

    def outgoing(self, encode) -> dict | None:
        """The code's names a test rebound since the two last agreed, encoded as plain copies; each is the tests'
        own from then on."""
        if self.namespace is None:
            return None
        changed = {}
        for name in self.watched:
            now = self.namespace.get(name, _MISSING)
            if now is _MISSING or now is self.last[name] or not _crosses(name, now):
                continue
            self.last[name] = now
            self.theirs.add(name)
            try:
                changed[name] = encode(now)
            except PeerGone:
                raise
            except Exception:  # a value that cannot cross: the code keeps its own, as before
                continue
        return changed or None

    def copies_changed(self, names: object) -> None:
        """The code changed its copies of these lists of the tests': where a test reads one, its own does not show
        the change, so a failing test is not judged (CHANGED_COPY)."""
        if self.namespace is not None and type(names) is list and any(
                type(name) is str and name in self.read for name in names):
            unsupported.note(CHANGED_COPY)

    def incoming(self, sent: object, decode) -> None:
        """Bind the names the code rebound, in the modules standing for the code's and in the tests' globals: names
        the code defined when it loaded or first binds at run time, never a builtin or one the tests bound
        themselves, and a name the code took from elsewhere only to a function of the tests' or data."""
        if type(sent) is not dict:
            return
        for name, enc in sent.items():
            if type(name) is not str or name.startswith(("__", "_sbx")) or name in vars(builtins) or name in RESERVED:
                continue
            if (name not in self.code_names and self.namespace is not None and name in self.namespace
                    and name not in self.last):
                continue  # not the code's at load, and the tests hold it: theirs (a star import, globals())
            value = decode(enc)
            for module in self.modules:
                module[name] = value
            if self.namespace is None or name in self.imported:
                continue  # `from calculator import counter` binds the value of the moment, in one process too
            # A name whose value the code took from elsewhere (log = print, from math import isclose) may become a
            # function of the tests' or data (set_logger(mine)), never a function or module of the code's.
            borrowed = name in self.borrowed and (isinstance(value, types.ModuleType) or not _tests_own(value))
            if borrowed or name in self.theirs or self.namespace.get(name, _MISSING) is not self.last.get(
                    name, _MISSING):
                self.theirs.add(name)  # rebound by the tests, however (a star import, globals()): theirs
                if name in self.read:
                    unsupported.note(TESTS_OWN)
                continue
            self.last[name] = value
            self.namespace[name] = value


def _codes_own(value: object) -> bool:
    """Whether a value the code sent at load is its own: data, or a function, class or object of its process (a
    proxy, a mirror class), rather than a builtin or a standard function it imported."""
    import proxies

    if isinstance(value, types.ModuleType):
        return False
    if not callable(value):
        return True
    ref = proxies.ref_of(value)  # a proxy, or a mirror class: the code's
    # A function the code defined says its module is the code's (math.isclose says math).
    return ref is not None and ref.names.get("module", "solution") == "solution"


def _tests_own(value: object) -> bool:
    """Whether a value the code sent is data or the tests' own (a function of theirs it was handed), no object,
    function or class of the code's process."""
    import proxies

    return proxies.ref_of(value) is None  # neither a proxy nor a mirror class


def names_own_module(module: ast.Module) -> bool:
    """Whether the tests reach their own module to patch the one-file way: ``sys.modules[__name__]``, a target built
    from ``__name__`` (``__name__ + '.fetch'``, ``f"{__name__}.fetch"``) or ``import_module(__name__)``; never a main
    guard's ``__name__ == '__main__'`` or ``logging.getLogger(__name__)``, which would look at every name with every
    message for nothing."""
    def is_name(node: ast.AST) -> bool:
        return isinstance(node, ast.Name) and node.id == "__name__"

    for node in walk(module):
        if (isinstance(node, ast.Subscript) and isinstance(node.value, ast.Attribute) and node.value.attr == "modules"
                and isinstance(node.value.value, ast.Name) and node.value.value.id == "sys"):
            return True
        if isinstance(node, ast.BinOp) and (is_name(node.left) or is_name(node.right)):
            return True
        if isinstance(node, ast.FormattedValue) and is_name(node.value):
            return True
        if (isinstance(node, ast.Call) and any(is_name(a) for a in node.args)
                and getattr(node.func, "attr", getattr(node.func, "id", "")) == "import_module"):
            return True
    return False


def imported_names(module: ast.Module) -> set[str]:
    """The names the tests' imports bind."""
    return {(alias.asname or alias.name).split(".")[0] for node in walk(module)
            if isinstance(node, (ast.Import, ast.ImportFrom)) for alias in node.names}


def defined_names(module: ast.Module) -> set[str]:
    """The functions and classes the tests define at their top level."""
    return {node.name for node in module.body
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef))}


def global_names(module: ast.Module) -> set[str]:
    """The names the tests bind as globals: at their top level (defs, classes, assignments, imports, loop targets)
    and wherever a function declares them ``global``; a function's locals are its own, but for walrus and ``match``
    names, taken anywhere (a walrus in a comprehension binds outside it: more names kept the tests' is the safe
    side)."""
    found: set[str] = set()

    def top_level(node: ast.AST) -> None:
        for child in ast.iter_child_nodes(node):
            if is_data(child):
                continue
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
    for node in walk(module):
        if isinstance(node, ast.Global):
            found.update(node.names)
        elif isinstance(node, ast.NamedExpr) and isinstance(node.target, ast.Name):
            found.add(node.target.id)  # a walrus in a comprehension binds in the enclosing scope
        elif isinstance(node, (ast.MatchAs, ast.MatchStar)) and node.name:
            found.add(node.name)
        elif isinstance(node, ast.MatchMapping) and node.rest:
            found.add(node.rest)
    return found
