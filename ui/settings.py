"""The app's own settings, from environment variables read in this one place (the agent's are agent.config, the
bench's bench.settings, the sandbox's sandbox.settings). Every variable has a default; see docs/configuration.md."""

from __future__ import annotations

import os
from dataclasses import dataclass

from sandbox.settings import flag

GENERATE = "generate"  # APP_TOKEN=generate: a token made at start and printed with the address


@dataclass(frozen=True)
class AppSettings:
    """Who may reach the app when it listens beyond this machine, and who may stop anyone's work."""

    token: str | None = None  # APP_TOKEN: the access token people open the app with; "generate": made at start
    admin_token: str | None = None  # APP_ADMIN_TOKEN: a second token, whose holders may stop anyone's solves and runs
    admins: tuple[str, ...] = ()  # APP_ADMINS: people signed in with OpenID Connect (email or subject) who may too
    # APP_PUBLISHED_ON=loopback: the app listens on every interface of a container whose port the host publishes on
    # its loopback only (Compose): as safe as loopback, no sign-in needed.
    published_on: str | None = None


def load_app_settings() -> AppSettings:
    """APP_TOKEN, APP_ADMIN_TOKEN, APP_ADMINS (comma-separated) and APP_PUBLISHED_ON (unset: none of them); raises
    ValueError, naming the variable, for a value that is none of its own (APP_ASK's too)."""
    env = {name: (os.environ.get(name) or "").strip() for name in
           ("APP_TOKEN", "APP_ADMIN_TOKEN", "APP_ADMINS", "APP_PUBLISHED_ON")}
    if env["APP_PUBLISHED_ON"] not in ("", "loopback"):
        raise ValueError(f"APP_PUBLISHED_ON may only be 'loopback', got {env['APP_PUBLISHED_ON']!r}")
    ask_by_default()  # read by the Playground on each draw: a bad value stops the app at start, not every page
    return AppSettings(token=env["APP_TOKEN"] or None, admin_token=env["APP_ADMIN_TOKEN"] or None,
                       admins=tuple(a.strip() for a in env["APP_ADMINS"].split(",") if a.strip()),
                       published_on=env["APP_PUBLISHED_ON"] or None)


def ask_by_default() -> bool:
    """APP_ASK (on/off, default on): whether the Playground's "Ask me when answers disagree" starts checked. On,
    because a pass on thin tests is where answers that disagree go unseen, and a question costs a click where the
    behaviour table costs reading every row (docs/app.md); off, a solve takes no doubt batch's time."""
    return flag("APP_ASK", True)
