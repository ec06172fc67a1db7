"""What a test file needs of the sandbox that it may not have: modules it does not offer, fixtures it does not give.

Checked on the host before any model time (agent.inputs), so that tests no answer can pass are refused with what to
do, not judged as failing answers.
"""

from __future__ import annotations

from sandbox.inside.shapes import (
    BUILTIN_FIXTURES,
    PLUGIN_FIXTURES,
    classes_on_the_codes,
    imported_names,
    missing_fixtures,
    module_under_test,
)
from sandbox.locked_parse import parse
from sandbox.packages import module_offered


def missing_imports(tests: str) -> list[str]:
    """The modules the tests import that the sandbox does not offer, leaving out the one they take the code under
    test from (``from calculator import add``: the sandbox gives that name the code's module)."""
    try:
        module = parse(tests)
    except (SyntaxError, ValueError):
        return []
    alias = module_under_test(module, module_offered)
    return [name for name in imported_names(module) if name != alias and not module_offered(name)]


def fixtures_lacking(tests: str) -> str | None:
    """Why the tests cannot run here (a fixture nobody gives, a class of theirs built on one of the code's), else
    None."""
    try:
        module = parse(tests)
    except (SyntaxError, ValueError):
        return None
    built_on = classes_on_the_codes(module)
    if built_on:
        name, base = built_on[0]
        return (f"the tests define class {name} on top of {base}, a class of the code under test; the sandbox runs "
                "the code in a process of its own, where a class of the tests cannot be mixed with one of the "
                f"code's. Test {base} through objects the code makes, or define {name} in the task for the code "
                "to write.")
    missing = missing_fixtures(module)
    if not missing:
        return None
    named = ", ".join(f"{name!r}" + (f" (from {PLUGIN_FIXTURES[name]})" if name in PLUGIN_FIXTURES else "")
                      for name in missing)
    return (f"the tests ask for the fixture{'s' if len(missing) > 1 else ''} {named}, which neither the sandbox nor "
            f"the tests file defines; the sandbox gives pytest's {', '.join(BUILTIN_FIXTURES[:10])} and the fixtures "
            "a tests file defines with @pytest.fixture. Define it in the tests, or use one of those.")

