"""Entry point: `streamlit run ui/app.py`. Draws the shared sidebar once, then runs the chosen page.

Pages read the sidebar's settings with ui.session.current_settings(). (AppTest runs this script on every rerun
too, as long as no `pages/` folder sits beside it: that would switch Streamlit to its older multipage mode,
which runs a page's file alone. The pages live in `views/` for that reason.)
"""

from __future__ import annotations

import streamlit as st

# ui is part of the installed package (pip install -e ., as run.sh and the Dockerfile do), so these import from
# anywhere: `streamlit run ui/app.py` puts only ui/ itself on sys.path.
from agent import sandbox_status
from ui.identity import current_person, draw_person
from ui.session import draw_sidebar


def main() -> None:
    """The app: the isolation banner, the sidebar, the chosen page."""
    st.set_page_config(page_title="Self-healing coding agent", page_icon=":material/healing:", layout="wide")
    # Who is here: with sign-in and nobody signed in, this draws only the login and stops (ui.identity).
    st.session_state.person = current_person()

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
    draw_person(st.session_state.person)
    page.run()


# Streamlit runs this script as __main__. A bench run's solver processes (the processes backend) are spawned, and a
# spawned child imports its parent's main script as __mp_main__: without this guard each would draw the app again in
# bare mode, with a model of its own.
if __name__ == "__main__":
    main()
