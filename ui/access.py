"""Who may reach the app: open on loopback; beyond it, only through a sign-in (Streamlit's OpenID Connect login) or an
access token printed at start, as Jupyter does. Chosen once when the server starts (ui/serve.py), read by the pages.

The gates are pure ASGI middleware of Streamlit's own server (st.App): every request passes them, Streamlit's own
endpoints and its websocket included, so nothing of the app (a solve's link, the Bench page, /media, the metrics)
answers without the token; with OpenID Connect, Streamlit's data endpoints answer only a signed-in browser and the
script draws nothing but the login until then. Pure ASGI, not Starlette's BaseHTTPMiddleware, which would let
websockets through unchecked.
"""

from __future__ import annotations

import hashlib
import hmac
import html
import ipaddress
import secrets
from dataclasses import dataclass
from http.cookies import SimpleCookie
from urllib.parse import parse_qsl, quote, unquote, urlencode, urlsplit

from ui.settings import GENERATE, AppSettings

TOKEN_COOKIE = "agent_token"  # holds a digest of the token a browser came with, never the token
NAME_COOKIE = "agent_person"  # the name a token holder typed once, signed by the server
COOKIE_MAX_AGE = 30 * 24 * 3600
WHO_PATH = "/who"  # where a token holder says their name (a route of the app's server)
OIDC_USER_COOKIE = "_streamlit_user"  # Streamlit's own signed identity cookie after st.login
# With OpenID Connect: what the login itself needs (the page, its assets, the websocket that draws the login button)
# stays open; these prefixes hold what the app serves, and answer a signed-in browser only.
OIDC_DATA_PREFIXES = ("/_stcore/", "/media/", "/component/", "/app/")
OIDC_OPEN_PATHS = frozenset({"/_stcore/health", "/_stcore/host-config", "/_stcore/stream"})


class AccessRefused(Exception):
    """The app would listen beyond this machine with neither sign-in nor token: it does not start."""


@dataclass(frozen=True)
class Access:
    """How the app is reached: "open" (loopback, one implicit person), "token" or "oidc"."""

    mode: str = "open"
    token: str = ""
    admin_token: str = ""
    admins: tuple[str, ...] = ()
    oidc_cookie_secret: str = ""

    def digest(self, token: str) -> str:
        """What a browser's cookie holds for a token (a stolen cookie is not the printed token)."""
        return hmac.new(token.encode(), b"agent-token-cookie", hashlib.sha256).hexdigest()

    def admin_cookie(self, value: str | None) -> bool:
        """Did this browser come with the admin token?"""
        return bool(self.admin_token and value) and hmac.compare_digest(value, self.digest(self.admin_token))

    def sign_name(self, name: str) -> str:
        mac = hmac.new(self.token.encode(), b"agent-person|" + name.encode(), hashlib.sha256).hexdigest()[:32]
        return f"{quote(name, safe='')}.{mac}"

    def named(self, value: str | None) -> str | None:
        """The name in a name cookie this server signed, else None."""
        if not value or "." not in value:
            return None
        quoted, _, mac = value.rpartition(".")
        name = unquote(quoted)
        return name if hmac.compare_digest(mac, self.sign_name(name).rpartition(".")[2]) else None


def is_loopback(address: str) -> bool:
    """Does this listening address reach this machine only?"""
    if address == "localhost":
        return True
    try:
        return ipaddress.ip_address(address).is_loopback
    except ValueError:
        return False


def choose_access(address: str, settings: AppSettings, oidc: dict | None) -> Access:
    """The access for a server listening on address: open on loopback (or a container port published on loopback),
    else a token when APP_TOKEN is set, else OpenID Connect when .streamlit/secrets.toml has an [auth] section, else
    AccessRefused with what to set."""
    if is_loopback(address) or settings.published_on == "loopback":
        return Access()
    if settings.token:
        token = secrets.token_urlsafe(24) if settings.token == GENERATE else settings.token
        return Access("token", token, settings.admin_token or "", settings.admins)
    if oidc and oidc.get("cookie_secret"):
        return Access("oidc", admins=settings.admins, oidc_cookie_secret=str(oidc["cookie_secret"]))
    raise AccessRefused(f"refusing to listen on {address} without sign-in: set APP_TOKEN=generate (a token printed "
                        "at start) or an [auth] section in .streamlit/secrets.toml (OpenID Connect), see docs/app.md; "
                        "or listen on 127.0.0.1")


_access = Access()


def configure(access: Access) -> None:
    """Set the access of this server (ui/serve.py, once, before the first page)."""
    global _access
    _access = access


def current_access() -> Access:
    """This server's access ("open" when it was started without ui/serve.py, as the page tests start it)."""
    return _access


def _cookies(scope: dict) -> SimpleCookie:
    cookie = SimpleCookie()
    for key, value in scope.get("headers", []):
        if key.lower() == b"cookie":
            try:
                cookie.load(value.decode("latin-1"))
            except Exception:
                pass
    return cookie


def _header(scope: dict, name: bytes) -> str:
    return next((v.decode("latin-1") for k, v in scope.get("headers", []) if k.lower() == name), "")


class TokenGate:
    """Every request needs the token: the cookie a first visit with ?token= set, an Authorization header, or ?token=.
    Without it, a page says what is needed (401) and a websocket is closed before it opens (403)."""

    def __init__(self, app, access: Access) -> None:
        self.app, self.access = app, access
        self.good = {access.digest(t) for t in (access.token, access.admin_token) if t}

    def _given(self, scope: dict) -> tuple[str | None, bool]:
        """(the digest of the token this request holds or None, whether it came in the query)."""
        cookie = _cookies(scope)
        if TOKEN_COOKIE in cookie and cookie[TOKEN_COOKIE].value in self.good:
            return cookie[TOKEN_COOKIE].value, False
        scheme, _, value = _header(scope, b"authorization").partition(" ")
        query = dict(parse_qsl(scope.get("query_string", b"").decode("latin-1"), keep_blank_values=True))
        for candidate, in_query in ((value.strip() if scheme.lower() in ("token", "bearer") else "", False),
                                    (query.get("token", ""), True)):
            if candidate and self.access.digest(candidate) in self.good:
                return self.access.digest(candidate), in_query
        return None, False

    async def __call__(self, scope, receive, send):
        if scope["type"] not in ("http", "websocket") or _own_health_check(scope):
            return await self.app(scope, receive, send)
        digest, in_query = self._given(scope)
        if scope["type"] == "websocket":
            origin = _header(scope, b"origin")
            if digest and (not origin or urlsplit(origin).netloc == _header(scope, b"host")):
                return await self.app(scope, receive, send)
            return await send({"type": "websocket.close", "code": 1008})  # before accept: the server answers 403
        if digest is None:
            return await _answer(send, 401, _TOKEN_PAGE.format(path=html.escape(scope["path"])),
                                 [(b"www-authenticate", b'Token realm="app"')])
        if in_query and scope["method"] in ("GET", "HEAD"):
            # The token leaves the address (history, Referer); the cookie holds its digest from now on.
            rest = [(k, v) for k, v in parse_qsl(scope["query_string"].decode("latin-1"), keep_blank_values=True)
                    if k != "token"]
            location = scope.get("root_path", "") + scope["path"] + (f"?{urlencode(rest)}" if rest else "")
            if NAME_COOKIE not in _cookies(scope):
                location = f"{WHO_PATH}?{urlencode({'next': location})}"
            return await _answer(send, 302, "", [(b"location", location.encode("latin-1")),
                                                 (b"set-cookie", _cookie(TOKEN_COOKIE, digest, scope).encode())])
        return await self.app(scope, receive, send)


class OidcGate:
    """With OpenID Connect: Streamlit's data endpoints answer only a browser signed in (Streamlit's own signed
    cookie, checked as Streamlit signs it); the page and the websocket stay open for the login itself."""

    def __init__(self, app, access: Access) -> None:
        from itsdangerous import URLSafeTimedSerializer

        self.app = app
        self.serializer = URLSafeTimedSerializer(access.oidc_cookie_secret, salt=OIDC_USER_COOKIE)

    def _signed_in(self, scope: dict) -> bool:
        from itsdangerous import BadSignature

        cookie = _cookies(scope)
        if OIDC_USER_COOKIE not in cookie:
            return False
        try:
            self.serializer.loads(cookie[OIDC_USER_COOKIE].value, max_age=COOKIE_MAX_AGE)
        except BadSignature:
            return False
        return True

    async def __call__(self, scope, receive, send):
        path = scope.get("path", "")
        if scope["type"] not in ("http", "websocket") or path in OIDC_OPEN_PATHS or \
                not path.startswith(OIDC_DATA_PREFIXES) or self._signed_in(scope):
            return await self.app(scope, receive, send)
        if scope["type"] == "websocket":
            return await send({"type": "websocket.close", "code": 1008})
        return await _answer(send, 401, "<!doctype html><title>Sign in</title><p>Sign in first.</p>", [])


def _own_health_check(scope: dict) -> bool:
    """A health probe from this machine (a container's own HEALTHCHECK): it learns only that the app is up."""
    client = (scope.get("client") or ("",))[0]
    return scope["type"] == "http" and scope.get("path") == "/_stcore/health" and is_loopback(str(client))


def _cookie(name: str, value: str, scope: dict) -> str:
    secure = "; Secure" if scope.get("scheme") == "https" else ""
    return f"{name}={value}; Path=/; HttpOnly; SameSite=Lax; Max-Age={COOKIE_MAX_AGE}{secure}"


async def _answer(send, status: int, body: str, headers: list) -> None:
    data = body.encode()
    await send({"type": "http.response.start", "status": status,
                "headers": [(b"content-type", b"text/html; charset=utf-8"), (b"cache-control", b"no-store"),
                            (b"content-length", str(len(data)).encode()), *headers]})
    await send({"type": "http.response.body", "body": data})


_TOKEN_PAGE = ("<!doctype html><title>Token needed</title><h1>Token needed</h1><p>This app asks for the access token "
               "it printed when it started (APP_TOKEN).</p><form method=get action='{path}'><label>Token <input "
               "name=token type=password autofocus></label> <button>Open</button></form>")


def who_route(access: Access):
    """The page where a token holder says their name once (kept signed in a cookie): it marks the solves and bench
    runs they start. Behind the token gate, so only token holders reach it."""
    from starlette.responses import HTMLResponse, RedirectResponse
    from starlette.routing import Route

    async def who(request):
        following = request.query_params.get("next", "/")
        following = following if following.startswith("/") and not following.startswith("//") else "/"
        if request.method == "POST":
            name = " ".join(str((await request.form()).get("name", "")).split())[:40]
            if name:
                answer = RedirectResponse(following, status_code=303)
                answer.set_cookie(NAME_COOKIE, access.sign_name(name), max_age=COOKIE_MAX_AGE, httponly=True,
                                  samesite="lax", secure=request.url.scheme == "https")
                return answer
        action = html.escape(f"{WHO_PATH}?{urlencode({'next': following})}")
        return HTMLResponse("<!doctype html><title>Your name</title><h1>Who is this?</h1><p>Several people share "
                            "this app; your name marks the solves and bench runs you start, and only you (or an "
                            f"admin) can stop them. It is kept in this browser.</p><form method=post action='{action}'>"
                            "<label>Your name <input name=name required maxlength=40 autofocus></label> "
                            "<button>Continue</button></form>")

    return Route(WHO_PATH, who, methods=["GET", "POST"])
