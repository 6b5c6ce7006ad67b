"""Browser fixtures: the app on a real port, Debian's Chromium at a phone's size.

The browser is never downloaded: Chromium comes from the system (`apt-get
install chromium`, as .ci/run does). Without it these tests fail, never skip.
"""

from __future__ import annotations

import logging
import os
import shutil
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
from flask import Flask
from flask_migrate import upgrade
from playwright.sync_api import (
    Browser,
    BrowserContext,
    Page,
    Playwright,
    expect,
    sync_playwright,
)
from werkzeug.serving import make_server

from scorekeeper import create_app
from scorekeeper.extensions import db
from scorekeeper.user_commands import new_setup_code
from tests.support import PASSWORD, TESTER, api_token_of_tester, app_config

PHONE = {"width": 390, "height": 844}
CHROMIUM_FLAGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-dev-shm-usage",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]


def chromium_path() -> str:
    candidates = [os.environ.get("CHROMIUM"), "/usr/bin/chromium", shutil.which("chromium")]
    for candidate in candidates:
        if candidate and Path(candidate).is_file() and os.access(candidate, os.X_OK):
            return candidate
    pytest.fail(
        "Chromium is not installed, so the browser tests cannot run. "
        "Install Debian's package (sudo apt-get install chromium) or run .ci/run.",
        pytrace=False,
    )


class LiveServer(str):
    """The server's base URL, which also carries an API token of TESTER (for setting up
    matches through the API quickly) and the app (for looking at its database)."""

    token: str
    app: Flask


@contextmanager
def serving(app: Flask) -> Iterator[str]:
    """The app served on a free local port, in a thread of this process."""
    logging.getLogger("werkzeug").setLevel(logging.WARNING)
    server = make_server("127.0.0.1", 0, app, threaded=True)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_port}"
    finally:
        server.shutdown()
        thread.join()
        server.server_close()
        with app.app_context():
            db.engine.dispose()


@pytest.fixture(scope="session")
def live_server(tmp_path_factory) -> Iterator[LiveServer]:
    """The app with a migrated SQLite database and its administrator TESTER, served on a
    free local port."""
    database = tmp_path_factory.mktemp("e2e") / "e2e.sqlite"
    app = create_app(app_config(f"sqlite:///{database}", TESTING=False))
    with app.app_context():
        upgrade()
    with serving(app) as url:
        base = LiveServer(url)
        base.token = api_token_of_tester(app)
        base.app = app
        yield base


class FreshServer(str):
    """The base URL of a server nobody has used, and the set-up code its start printed."""

    setup_code: str


@pytest.fixture
def fresh_server(tmp_path) -> Iterator[FreshServer]:
    """A server nobody has used yet: no account at all."""
    app = create_app(app_config(f"sqlite:///{tmp_path / 'fresh.sqlite'}", TESTING=False))
    with app.app_context():
        upgrade()
        code = new_setup_code()  # as make run prints it
    assert code is not None
    with serving(app) as url:
        base = FreshServer(url)
        base.setup_code = code
        yield base


@pytest.fixture(scope="session")
def playwright() -> Iterator[Playwright]:
    with sync_playwright() as driver:
        yield driver


@pytest.fixture(scope="session")
def browser(playwright: Playwright) -> Iterator[Browser]:
    browser = playwright.chromium.launch(executable_path=chromium_path(), args=CHROMIUM_FLAGS)
    yield browser
    browser.close()


@pytest.fixture(scope="session")
def tester_state(browser: Browser, live_server: LiveServer, tmp_path_factory) -> str:
    """A browser signed in as TESTER through the sign-in form, kept as a storage state."""
    path = tmp_path_factory.mktemp("state") / "tester.json"
    context = phone_context(browser)
    page = context.new_page()
    page.goto(live_server + "/login")
    page.get_by_label("Name").fill(TESTER)
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name="Sign in").click()
    expect(page.get_by_role("link", name=TESTER)).to_be_visible()
    context.storage_state(path=path)
    context.close()
    return str(path)


def phone_context(browser: Browser, **overrides) -> BrowserContext:
    options = {
        "viewport": PHONE,
        "device_scale_factor": 2,
        "is_mobile": True,
        "has_touch": True,
        "locale": "en-GB",
        "timezone_id": "Europe/London",
        "service_workers": "block",
        **overrides,
    }
    return browser.new_context(**options)


@pytest.fixture
def context(browser: Browser, tester_state: str) -> Iterator[BrowserContext]:
    context = phone_context(browser, storage_state=tester_state)
    yield context
    context.close()


@pytest.fixture
def page(context: BrowserContext, live_server: str) -> Iterator[Page]:
    page = context.new_page()
    page.set_default_timeout(10_000)
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    yield page
    assert errors == [], f"JavaScript errors on the page: {errors}"
