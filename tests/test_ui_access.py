"""Who may reach the app: open on loopback, a token or a sign-in beyond it, refused with neither; the token gate in
front of every request Streamlit serves; people and what they may stop."""

from __future__ import annotations

import asyncio

import pytest

from ui.access import NAME_COOKIE, TOKEN_COOKIE, WHO_PATH, Access, AccessRefused, OidcGate, TokenGate, choose_access
from ui.identity import Person
from ui.settings import AppSettings, load_app_settings


def test_open_on_loopback_and_refused_beyond_it_without_sign_in():
    assert choose_access("127.0.0.1", AppSettings(), None).mode == "open"
    assert choose_access("localhost", AppSettings(token="x"), None).mode == "open"  # never needed on loopback
    assert choose_access("0.0.0.0", AppSettings(published_on="loopback"), None).mode == "open"  # Compose's mapping
    with pytest.raises(AccessRefused, match=r"refusing to listen on 0\.0\.0\.0 without sign-in: set APP_TOKEN"):
        choose_access("0.0.0.0", AppSettings(), None)
    with pytest.raises(AccessRefused):
        choose_access("192.168.1.5", AppSettings(), {"client_id": "no cookie secret"})
    generated = choose_access("0.0.0.0", AppSettings(token="generate"), None)
    assert generated.mode == "token" and len(generated.token) >= 30
    assert choose_access("10.0.0.2", AppSettings(token="fixed"), None).token == "fixed"
    assert choose_access("10.0.0.2", AppSettings(), {"cookie_secret": "s" * 32}).mode == "oidc"


def test_the_settings_read_the_environment(monkeypatch):
    monkeypatch.setenv("APP_TOKEN", " t0ken ")
    monkeypatch.setenv("APP_ADMINS", "ada@example.org, bo@example.org ,")
    monkeypatch.setenv("APP_PUBLISHED_ON", "loopback")
    settings = load_app_settings()
    assert settings.token == "t0ken" and settings.admins == ("ada@example.org", "bo@example.org")
    assert settings.published_on == "loopback" and settings.admin_token is None
    monkeypatch.setenv("APP_PUBLISHED_ON", "everywhere")
    with pytest.raises(ValueError, match="APP_PUBLISHED_ON"):
        load_app_settings()


class Recorder:
    """The app behind a gate: records what reached it."""

    def __init__(self) -> None:
        self.seen: list[str] = []

    async def __call__(self, scope, receive, send):
        self.seen.append(scope["path"])
        if scope["type"] == "http":
            await send({"type": "http.response.start", "status": 200, "headers": []})
            await send({"type": "http.response.body", "body": b"app"})


def call(gate, path: str, *, kind: str = "http", query: str = "", headers: list | None = None,
         client: str = "203.0.113.9") -> list[dict]:
    sent: list[dict] = []

    async def send(message):
        sent.append(message)

    async def receive():
        return {"type": "http.request"}

    scope = {"type": kind, "path": path, "query_string": query.encode(), "method": "GET", "scheme": "http",
             "headers": [(k.encode(), v.encode()) for k, v in (headers or [])], "client": (client, 5000)}
    asyncio.run(gate(scope, receive, send))
    return sent


ACCESS = Access("token", "people-token", "admin-token")


def test_the_token_gate_refuses_every_request_without_the_token():
    app = Recorder()
    gate = TokenGate(app, ACCESS)
    for path in ("/", "/debugger", "/_stcore/host-config", "/_stcore/metrics", "/media/x.png", "/static/js/a.js"):
        assert call(gate, path)[0]["status"] == 401, path
    assert call(gate, "/_stcore/stream", kind="websocket") == [{"type": "websocket.close", "code": 1008}]
    assert call(gate, "/_stcore/health")[0]["status"] == 401  # from another machine
    assert app.seen == []
    assert call(gate, "/_stcore/health", client="127.0.0.1")[0]["status"] == 200  # a container's own probe
    assert call(gate, "/", query="token=wrong")[0]["status"] == 401


def test_a_first_visit_with_the_token_sets_a_cookie_and_asks_for_a_name():
    gate = TokenGate(Recorder(), ACCESS)
    start = call(gate, "/", query="token=people-token&solve=abc")[0]
    headers = dict(start["headers"])
    assert start["status"] == 302
    assert headers[b"location"].decode().startswith(WHO_PATH + "?next=")  # no name yet: say who you are first
    assert b"people-token" not in headers[b"set-cookie"]  # the cookie holds a digest, never the token
    cookie = headers[b"set-cookie"].decode().split(";")[0]
    assert cookie == f"{TOKEN_COOKIE}={ACCESS.digest('people-token')}"
    named = call(gate, "/", query="token=people-token&solve=abc", headers=[("cookie", f"{NAME_COOKIE}=x.y")])[0]
    assert dict(named["headers"])[b"location"] == b"/?solve=abc"  # the token leaves the address
    app = Recorder()
    gate = TokenGate(app, ACCESS)
    assert call(gate, "/debugger", headers=[("cookie", cookie)])[0]["status"] == 200
    assert call(gate, "/x", headers=[("authorization", "Bearer people-token")])[0]["status"] == 200
    assert call(gate, "/_stcore/stream", kind="websocket", headers=[("cookie", cookie), ("host", "a:1"),
                                                                     ("origin", "http://a:1")]) == []
    # A page of another site may not open the app's websocket with the browser's cookie.
    assert call(gate, "/_stcore/stream", kind="websocket", headers=[("cookie", cookie), ("host", "a:1"),
                                                                     ("origin", "http://evil:1")])[0]["code"] == 1008
    assert app.seen == ["/debugger", "/x", "/_stcore/stream"]


def test_names_and_admins_are_signed_by_the_server():
    signed = ACCESS.sign_name("Ada Lovelace")
    assert ACCESS.named(signed) == "Ada Lovelace"
    assert ACCESS.named(signed.replace("Ada", "Eve")) is None
    assert ACCESS.named("Eve.0123") is None and ACCESS.named(None) is None
    assert ACCESS.admin_cookie(ACCESS.digest("admin-token"))
    assert not ACCESS.admin_cookie(ACCESS.digest("people-token")) and not Access("token", "t").admin_cookie("x")


def test_with_sign_in_the_data_endpoints_answer_only_a_signed_in_browser():
    from itsdangerous import URLSafeTimedSerializer

    access = Access("oidc", oidc_cookie_secret="s" * 32)
    app = Recorder()
    gate = OidcGate(app, access)
    for path in ("/_stcore/metrics", "/media/a.png", "/app/static/x", "/component/x"):
        assert call(gate, path)[0]["status"] == 401, path
    for path in ("/", "/_stcore/health", "/_stcore/host-config", "/static/js/main.js", "/oauth2callback"):
        assert call(gate, path)[0]["status"] == 200, path  # the login itself needs these
    signed = URLSafeTimedSerializer("s" * 32, salt="_streamlit_user").dumps({"email": "ada@example.org"})
    assert call(gate, "/media/a.png", headers=[("cookie", f"_streamlit_user={signed}")])[0]["status"] == 200
    forged = URLSafeTimedSerializer("not the secret", salt="_streamlit_user").dumps({"email": "eve"})
    assert call(gate, "/media/a.png", headers=[("cookie", f"_streamlit_user={forged}")])[0]["status"] == 401


def test_only_whoever_started_it_or_an_admin_may_stop_it():
    ada, bo, admin = Person("ada", "ada", False), Person("bo", "bo", False), Person("root", "root", True)
    assert ada.may_stop("ada") and not bo.may_stop("ada") and admin.may_stop("ada")
    assert not Person("", "someone without a name", False).may_stop("")  # no name: nothing of anyone's
    assert Person("", "you", True).may_stop("")  # the one person of an open server
