"""The app's server: `streamlit run ui/serve.py` serves ui/app.py, behind the access chosen for its address.

Streamlit finds the st.App named `app` here and runs it. On loopback the app is open, as it always was; on any other
address it needs a token (APP_TOKEN, printed here with the address) or a sign-in with OpenID Connect (an [auth]
section in .streamlit/secrets.toml), and refuses to start with neither (ui.access.choose_access).
"""

from __future__ import annotations

import socket
import sys
import threading

import streamlit as st
from starlette.middleware import Middleware

from bench.runs.reference import reference_runs
from ui.access import AccessRefused, OidcGate, TokenGate, choose_access, configure, who_route
from ui.settings import load_app_settings


def _oidc_settings() -> dict | None:
    """The [auth] section of .streamlit/secrets.toml (Streamlit's OpenID Connect login), or None."""
    try:
        auth = st.secrets.get("auth")
    except Exception:  # no secrets file at all: no sign-in configured
        return None
    return dict(auth) if auth else None


# `streamlit run` has read its flags (--server.address, --server.port) and config before it imports this file.
_address = st.get_option("server.address") or "0.0.0.0"  # unset: Streamlit listens on every interface
try:
    _access = choose_access(_address, load_app_settings(), _oidc_settings())
except (AccessRefused, ValueError) as exc:  # ValueError: a setting that is none of its values
    print(f"Not started: {exc}", file=sys.stderr, flush=True)
    sys.exit(2)
configure(_access)
_middleware, _routes = [], []
if _access.mode == "token":
    _middleware.append(Middleware(TokenGate, access=_access))
    _routes.append(who_route(_access))
    _host = socket.gethostname() if _address in ("0.0.0.0", "::") else _address
    print(f"  Open the app with its token: http://{_host}:{st.get_option('server.port')}/?token={_access.token}",
          flush=True)
elif _access.mode == "oidc":
    _middleware.append(Middleware(OidcGate, access=_access))

app = st.App("app.py", middleware=_middleware, routes=_routes)
# The reference runs the Bench page shows to a newcomer, read once a process: read now, in the background, the page's
# first look does not wait for them.
threading.Thread(target=reference_runs, name="reference-runs", daemon=True).start()
