"""On/off settings are read by one reader (sandbox.settings.flag): the words it takes, and the two variables that
used to read every value but a few as on."""

from __future__ import annotations

import pytest

from agent import load_settings
from sandbox.settings import flag, sandbox_settings


@pytest.mark.parametrize("value, expected", [("1", True), ("true", True), ("Yes", True), (" on ", True),
                                             ("0", False), ("false", False), ("NO", False), ("off", False),
                                             ("", None), ("  ", None)])
def test_a_flag_reads_the_usual_words_and_blank_as_its_default(monkeypatch, value, expected):
    monkeypatch.setenv("SOME_FLAG", value)
    assert flag("SOME_FLAG", True) is (True if expected is None else expected)
    assert flag("SOME_FLAG", False) is (False if expected is None else expected)


def test_a_flag_refuses_a_word_it_does_not_know_naming_the_variable(monkeypatch):
    monkeypatch.setenv("SOME_FLAG", "maybe")
    with pytest.raises(ValueError, match="SOME_FLAG must be 1 or 0 .* got 'maybe'"):
        flag("SOME_FLAG", True)


def test_prefix_reuse_off_turns_it_off(monkeypatch):
    monkeypatch.setenv("LLAMACPP_PREFIX_REUSE", "off")  # read as on before: only 0, false and no counted as off
    assert load_settings().prefix_reuse is False
    monkeypatch.delenv("LLAMACPP_PREFIX_REUSE")
    assert load_settings().prefix_reuse is True


def test_sandbox_debug_0_leaves_debugging_off(monkeypatch):
    monkeypatch.setenv("SANDBOX_DEBUG", "0")  # read as on before: any value that was not empty
    assert sandbox_settings().debug is False
    monkeypatch.setenv("SANDBOX_DEBUG", "1")
    assert sandbox_settings().debug is True
