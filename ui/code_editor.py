"""A Python code editor with highlighting, sized to its content, under a visible label.

The editor (streamlit-ace) runs in an iframe that a screen reader announces by the component's name, not our
label, so the sidebar offers plain text boxes instead (ui.session.plain_editors); they are used too where
streamlit-ace is not installed.
"""

from __future__ import annotations

import streamlit as st

from ui.session import plain_editors

try:
    from streamlit_ace import st_ace
except ImportError:  # the highlighting is a nicety; a text area does the same job
    st_ace = None

MAX_LINES = 40  # taller than this, the editor scrolls instead of pushing the page down
LINE_PIXELS = 24  # a text area's height per line, for the plain variant


def editor_lines(text: str, minimum: int = 4) -> int:
    """Lines to show for this text: all of it plus a spare line to type on, within [minimum, MAX_LINES]."""
    return max(minimum, min(MAX_LINES, text.count("\n") + 2))


def code_editor(label: str, value: str, *, key: str, minimum_lines: int = 4, help: str | None = None) -> str:
    """Edit value as Python; returns the text as it is now. key must change when value is replaced from outside
    (the editor keeps what was typed under its key and reads value only when it first appears)."""
    lines = editor_lines(value, minimum_lines)
    if st_ace is None or plain_editors():
        return st.text_area(label, value=value, key=f"{key}-plain", height=lines * LINE_PIXELS + 16, help=help)
    st.markdown(f"**{label}**", help=help)
    text = st_ace(value=value, language="python", theme="github", min_lines=lines, max_lines=MAX_LINES,
                  auto_update=True, show_print_margin=False, key=key)
    return text if isinstance(text, str) else value
