"""Entry point: `streamlit run ui/app.py`. Draws the shared sidebar once, then runs the chosen page.

Pages read the sidebar's settings with ui.session.current_settings(). (AppTest runs this script on every rerun
too, as long as no `pages/` folder sits beside it: that would switch Streamlit to its older multipage mode,
which runs a page's file alone. The pages live in `views/` for that reason.)
"""

from __future__ import annotations

import sys
from pathlib import Path

import streamlit as st

# `streamlit run ui/app.py` puts ui/ on sys.path, not the project root that holds agent/ and bench/.
ROOT = str(Path(__file__).resolve().parent.parent)
if ROOT not in sys.path:
    sys.path.insert(0, ROOT)

from ui.session import draw_sidebar  # noqa: E402  (needs the root on sys.path)

st.set_page_config(page_title="Self-healing coding agent", page_icon=":material/healing:", layout="wide")
from agent import sandbox_status  # noqa: E402  (after the path fix above)

# Weak isolation is said loudly on every page: a banner, not a caption.
status = sandbox_status()
if status.refused:
    st.error(f"**Sandbox refused:** {status.refused}", icon=":material/gpp_bad:")
elif status.level == "rlimits":
    st.error(f"**Weak sandbox ({status.description}).** {status.warning}", icon=":material/gpp_bad:")
elif status.warning:
    st.warning(f"**Reduced sandbox ({status.description}).** {status.warning}", icon=":material/shield:")

page = st.navigation([
    st.Page("views/playground.py", title="Playground", icon=":material/edit:", default=True),
    st.Page("views/debugger.py", title="Debugger", icon=":material/bug_report:"),
    st.Page("views/bench.py", title="Bench", icon=":material/leaderboard:"),
])
draw_sidebar()
page.run()
