"""Who is at this page: the person whose solves and bench runs it starts, and whether they may stop anyone's.

On loopback there is one implicit person, who may do everything, as before sign-in existed. With OpenID Connect a
person is who signed in (their email, else their subject); with a token, the name they typed once (self-declared:
it orders lists and marks work, but grants nothing: stopping another's work takes the admin token). Admins are the
people APP_ADMINS names (OpenID Connect) or whoever came with APP_ADMIN_TOKEN.
"""

from __future__ import annotations

from dataclasses import dataclass

import streamlit as st

from ui.access import NAME_COOKIE, TOKEN_COOKIE, WHO_PATH, current_access


@dataclass(frozen=True)
class Person:
    """Who is at the page: key is what their solves and runs record ("" for the one person of an open server)."""

    key: str
    label: str
    admin: bool

    def may_stop(self, started_by: str) -> bool:
        """May this person stop or change work someone started (a solve, a bench run)?"""
        return self.admin or (bool(self.key) and self.key == started_by)

    def owns(self, started_by: str) -> bool:
        return self.key == started_by


def current_person() -> Person:
    """The person at this page; with sign-in and nobody signed in yet, the page shows only how to sign in and stops."""
    access = current_access()
    if access.mode == "oidc":
        if not st.user.get("is_logged_in"):
            st.title("Self-healing coding agent")
            st.write("This app is shared: sign in to use it.")
            st.button("Sign in", type="primary", on_click=st.login)
            st.stop()
        key = str(st.user.get("email") or st.user.get("sub") or "")
        return Person(key, key, key in access.admins or str(st.user.get("sub")) in access.admins)
    if access.mode == "token":
        cookies = st.context.cookies
        name = access.named(cookies.get(NAME_COOKIE))
        admin = access.admin_cookie(cookies.get(TOKEN_COOKIE))
        if not name:
            st.info(f"Several people share this app: [say who you are]({WHO_PATH}?next=/) so that your solves and runs "
                    "carry your name.", icon=":material/badge:")
            return Person("", "someone without a name", admin)
        return Person(name, name, admin)
    return Person("", "you", True)


def started_by_words(person: Person, started_by: str) -> str:
    """Whose work this is, in words for a caption: "yours", or the person who started it."""
    if current_access().mode == "open" or person.owns(started_by):
        return "yours"
    return started_by or "someone, before names were kept"


def draw_person(person: Person) -> None:
    """Who is signed in, in the sidebar, with the way out (OpenID Connect) or to another name (a token)."""
    mode = current_access().mode
    if mode == "open":
        return
    with st.sidebar:
        role = " · admin" if person.admin else ""
        st.caption(f"Signed in as **{person.label}**{role}" if person.key else f"**{person.label}**{role}")
        if mode == "oidc":
            st.button("Sign out", on_click=st.logout, key="sign-out")
        else:
            st.markdown(f"[Another name]({WHO_PATH}?next=/)")
