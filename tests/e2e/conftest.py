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
from pathlib import Path

import pytest
from flask_migrate import upgrade
from playwright.sync_api import Browser, BrowserContext, Page, Playwright, sync_playwright
from werkzeug.serving import make_server

from scorekeeper import create_app
from scorekeeper.extensions import db

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


@pytest.fixture(scope="session")
def live_server(tmp_path_factory) -> Iterator[str]:
    """The app with a migrated SQLite database, served on a free local port."""
    database = tmp_path_factory.mktemp("e2e") / "e2e.sqlite"
    app = create_app({"SQLALCHEMY_DATABASE_URI": f"sqlite:///{database}", "SECRET_KEY": "e2e"})
    with app.app_context():
        upgrade()
    logging.getLogger("werkzeug").setLevel(logging.WARNING)
    server = make_server("127.0.0.1", 0, app, threaded=True)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_port}"
    server.shutdown()
    thread.join()
    server.server_close()
    with app.app_context():
        db.engine.dispose()


@pytest.fixture(scope="session")
def playwright() -> Iterator[Playwright]:
    with sync_playwright() as driver:
        yield driver


@pytest.fixture(scope="session")
def browser(playwright: Playwright) -> Iterator[Browser]:
    browser = playwright.chromium.launch(executable_path=chromium_path(), args=CHROMIUM_FLAGS)
    yield browser
    browser.close()


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
def context(browser: Browser) -> Iterator[BrowserContext]:
    context = phone_context(browser)
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
