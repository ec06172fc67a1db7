"""Several people, one app, in a real browser: two sessions pressing Run together take turns in the line (the second
shows its place, both pass); beyond loopback nothing answers without the token, and a name marks a person's work,
which another person cannot stop; OpenID Connect sign-in with a real provider on loopback."""

from __future__ import annotations

import json
import os
import re
import secrets
import signal
import subprocess
import sys
import time
import urllib.error
import urllib.request

import pytest

from browser_pages import ARTIFACTS, ROOT, outcome, select, serve_app, stop_app, type_task, wait_or_explain
from measure.app_server import free_port

TASKS = {
    "ada": ("Write a function double(n) that returns n times 2.", "assert double(3) == 6\n"),
    "bo": ("Write a function shout(s) that returns s in upper case.", "assert shout('ab') == 'AB'\n"),
}
# Solves that stop at their first pass (APP_ASK=off): asking is tests/test_e2e_questions.py's.
SMALL_MODEL = {"LLM_PROVIDER": "llamacpp", "LLM_MAX_TOKENS": "128", "LLM_NUM_CTX": "4096", "BUDGET": "2",
               "APP_ASK": "off"}


@pytest.mark.model
@pytest.mark.browser
@pytest.mark.timeout(900)
def test_two_sessions_pressing_run_together_take_turns_and_both_pass(browser, tmp_path):
    (tmp_path / "data").mkdir()
    proc, url = serve_app(tmp_path / "data", "streamlit-line.log", env=SMALL_MODEL)
    try:
        pages = {name: browser.new_context(viewport={"width": 1400, "height": 1600}).new_page() for name in TASKS}
        for name, page in pages.items():
            page.goto(url)
            type_task(page, *TASKS[name])
        for page in pages.values():
            page.get_by_role("button", name="Run", exact=True).click()
        # The second in line says where it stands (the first may already be done by the time it is read).
        wait_or_explain(pages["bo"], pages["bo"].get_by_text("1 solve ahead of yours"), 60_000, "bo's place in line")
        assert pages["bo"].get_by_role("button", name="Leave the line").count() == 1
        for name, page in pages.items():
            wait_or_explain(page, outcome(page), 600_000, f"{name}'s outcome")
            assert page.get_by_text("Passed your").count() >= 1, page.locator("body").inner_text()[-1500:]
        pages["bo"].screenshot(path=str(ARTIFACTS / "line-second-session.png"), full_page=True)
    finally:
        stop_app(proc)


@pytest.mark.browser
@pytest.mark.timeout(300)
def test_beyond_loopback_nothing_answers_without_the_token(browser, tmp_path):
    (tmp_path / "data").mkdir()
    # A listening address that is not loopback: every interface. Without a token or sign-in it does not start.
    refused = subprocess.run([sys.executable, "-m", "streamlit", "run", str(ROOT / "ui" / "serve.py"),
                              "--server.port", str(free_port()), "--server.address", "0.0.0.0",
                              "--server.headless", "true"], cwd=ROOT, capture_output=True, text=True, timeout=120,
                             env={**os.environ, "DATA_DIR": str(tmp_path / "data"), "APP_TOKEN": ""})
    assert refused.returncode == 2
    assert "refusing to listen on 0.0.0.0 without sign-in: set APP_TOKEN=generate" in refused.stderr
    proc, url = serve_app(tmp_path / "data", "streamlit-token.log", address="0.0.0.0",
                       env={"APP_TOKEN": "team-token-1234", "APP_ADMIN_TOKEN": "admin-token-5678"})
    try:
        for path in ("/", "/?solve=abc", "/bench", "/_stcore/host-config", "/_stcore/metrics", "/media/x.png"):
            with pytest.raises(urllib.error.HTTPError) as refusal:
                urllib.request.urlopen(url.replace("127.0.0.1", _public_address()) + path, timeout=10)
            assert refusal.value.code == 401, path
        page = browser.new_context().new_page()
        page.goto(url + "/bench")
        page.get_by_role("heading", name="Token needed").wait_for(timeout=30_000)
        assert "Bench" not in page.locator("body").inner_text()
        page.goto(url + "/?token=team-token-1234")
        page.get_by_role("heading", name="Who is this?").wait_for(timeout=30_000)
        assert "token=" not in page.url
        page.get_by_role("textbox", name="Your name").fill("Ada")
        page.get_by_role("button", name="Continue").click()
        page.get_by_role("heading", name="Playground").wait_for(timeout=60_000)
        page.get_by_text("Signed in as").wait_for(timeout=30_000)
        assert "Ada" in page.locator("[data-testid='stSidebar']").inner_text()
    finally:
        stop_app(proc)


def _public_address() -> str:
    """An address of this machine that is not loopback (the one a colleague would open)."""
    found = subprocess.run(["hostname", "-I"], capture_output=True, text=True).stdout.split()
    return found[0] if found else "127.0.0.1"


def _named_page(browser, url: str, token: str, name: str):
    page = browser.new_context(viewport={"width": 1400, "height": 1600}).new_page()
    page.goto(f"{url}/?token={token}")
    page.get_by_role("textbox", name="Your name").fill(name)
    page.get_by_role("button", name="Continue").click()
    page.get_by_role("heading", name="Playground").wait_for(timeout=60_000)
    return page


@pytest.mark.model
@pytest.mark.browser
@pytest.mark.timeout(900)
def test_a_person_cannot_stop_another_persons_bench_run(browser, tmp_path):
    (tmp_path / "data").mkdir()
    proc, url = serve_app(tmp_path / "data", "streamlit-people.log", address="0.0.0.0",
                       env={**SMALL_MODEL, "APP_TOKEN": "team-token-1234", "APP_ADMIN_TOKEN": "admin-token-5678"})
    try:
        ada, bo = (_named_page(browser, url, "team-token-1234", name) for name in ("Ada", "Bo"))
        ada.get_by_role("link", name="Bench").click()
        ada.get_by_role("heading", name="Bench").wait_for(timeout=60_000)
        ada.get_by_role("textbox", name="Tasks", exact=True).fill("0-3")
        ada.get_by_text("Where tasks run").click()
        select(ada, "Backend", "threads")
        ada.get_by_role("button", name="Start the run").click()
        wait_or_explain(ada, ada.get_by_role("button", name="Stop the run"), 120_000, "Ada's Stop button")
        bo.get_by_role("link", name="Bench").click()
        bo.get_by_role("heading", name="Bench").wait_for(timeout=60_000)
        wait_or_explain(bo, bo.get_by_text("Started by Ada: only they (or an admin) can stop or resume it."),
                        60_000, "whose run it is, on Bo's page")
        assert bo.get_by_role("button", name="Stop the run").count() == 0
        bo.screenshot(path=str(ARTIFACTS / "people-bench-not-yours.png"), full_page=True)
        # An admin may stop anyone's run; Ada stops her own.
        admin = browser.new_context(viewport={"width": 1400, "height": 1600}).new_page()
        admin.goto(f"{url}/bench?token=admin-token-5678")
        admin.get_by_role("textbox", name="Your name").fill("Root")
        admin.get_by_role("button", name="Continue").click()
        wait_or_explain(admin, admin.get_by_role("button", name="Stop the run"), 60_000, "the admin's Stop button")
        ada.get_by_role("button", name="Stop the run").click()
        # Her stop is taken (the run leaves its task at the next step: tests/test_bench_runs.py waits for that).
        wait_or_explain(ada, ada.get_by_text(re.compile(r"tasks done · \d+ passing · stopp(ing|ed)")), 300_000,
                        "Ada's run stopping")
    finally:
        stop_app(proc)


@pytest.mark.browser
@pytest.mark.timeout(300)
def test_signing_in_with_openid_connect(browser, tmp_path):
    (tmp_path / "data").mkdir()
    provider_port = free_port()
    provider = subprocess.Popen([sys.executable, "-m", "oidc_provider_mock", "-H", "127.0.0.1", "-p",
                                 str(provider_port), "--user-claims",
                                 json.dumps({"sub": "ada", "email": "ada@example.org"})],
                                stdout=open(ARTIFACTS / "oidc-provider.log", "w"), stderr=subprocess.STDOUT,
                                start_new_session=True)
    # The app reads [auth] from .streamlit/secrets.toml in the folder it starts in: a folder of the test's own.
    here = tmp_path / "app"
    (here / ".streamlit").mkdir(parents=True)
    (here / ".streamlit" / "config.toml").write_text((ROOT / ".streamlit" / "config.toml").read_text())
    port = free_port()
    try:
        _wait(f"http://127.0.0.1:{provider_port}/.well-known/openid-configuration")
        (here / ".streamlit" / "secrets.toml").write_text(
            f'[auth]\nredirect_uri = "http://127.0.0.1:{port}/oauth2callback"\n'
            f'cookie_secret = "{secrets.token_urlsafe(32)}"\nclient_id = "self-healing-agent"\n'
            f'client_secret = "{secrets.token_urlsafe(16)}"\n'
            f'server_metadata_url = "http://127.0.0.1:{provider_port}/.well-known/openid-configuration"\n')
        proc, url = serve_app(tmp_path / "data", "streamlit-oidc.log", address="0.0.0.0", cwd=here, port=port,
                           env={"APP_TOKEN": ""})
        try:
            with pytest.raises(urllib.error.HTTPError) as refusal:
                urllib.request.urlopen(url + "/_stcore/metrics", timeout=10)
            assert refusal.value.code == 401
            page = browser.new_context(viewport={"width": 1400, "height": 1200}).new_page()
            page.goto(url + "/bench")
            page.get_by_role("button", name="Sign in").wait_for(timeout=60_000)
            assert page.get_by_role("heading", name="Bench").count() == 0  # nothing but the sign-in
            page.get_by_role("button", name="Sign in").click()
            page.get_by_role("button", name="ada").click()  # the provider's login form: its predefined user
            page.get_by_role("heading", name="Playground").or_(page.get_by_role("heading", name="Bench")).first \
                .wait_for(timeout=60_000)
            page.get_by_text("Signed in as").wait_for(timeout=30_000)
            assert "ada@example.org" in page.locator("[data-testid='stSidebar']").inner_text()
        finally:
            stop_app(proc)
    finally:
        os.killpg(provider.pid, signal.SIGTERM)
        provider.wait(timeout=20)


def _wait(url: str, timeout_s: float = 90) -> None:
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        try:
            urllib.request.urlopen(url, timeout=2)
            return
        except OSError:
            time.sleep(0.3)
    raise TimeoutError(url)
