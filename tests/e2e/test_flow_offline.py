"""When the Wi-Fi drops: the service worker shows the app's offline page, which opens the
page asked for once the connection is back."""

from __future__ import annotations

from playwright.sync_api import Browser, expect

from .checks import check_page
from .conftest import phone_context


def test_offline_page_instead_of_the_browser_error(
    tester_state, browser: Browser, live_server: str
):
    context = phone_context(browser, storage_state=tester_state, service_workers="allow")
    try:
        page = context.new_page()
        errors: list[str] = []
        page.on("pageerror", lambda error: errors.append(str(error)))
        page.goto(live_server + "/")
        expect(page.get_by_role("heading", name="Scorekeeper", level=1)).to_be_visible()
        # The worker is installed (the offline page and static files are cached) and active.
        assert page.evaluate("navigator.serviceWorker.ready.then(r => r.active.state)") in (
            "activating",
            "activated",
        )
        page.wait_for_function("navigator.serviceWorker.controller !== null")

        context.set_offline(True)
        page.get_by_role("link", name="History", exact=True).click()
        expect(page.get_by_role("heading", name="No connection")).to_be_visible()
        expect(page).to_have_url(live_server + "/history")
        expect(page.get_by_text("The scores are safe")).to_be_visible()
        # Styled from the cache: the stylesheet loaded without a network.
        assert page.evaluate(
            "document.styleSheets.length >= 1 && document.styleSheets[0].cssRules.length > 0"
        )
        check_page(page)

        # Back online, the page asked for opens by itself.
        context.set_offline(False)
        back = page.get_by_role("heading", name="Finished matches", level=1)
        expect(back).to_be_visible(timeout=10_000)
        expect(page).to_have_url(live_server + "/history")
        # Offline again, the next page asked for opens once the server answers.
        context.set_offline(True)
        page.get_by_role("link", name="Scorekeeper").click()
        expect(page.get_by_role("heading", name="No connection")).to_be_visible()
        context.set_offline(False)
        home = page.get_by_role("heading", name="Scorekeeper", level=1)
        expect(home).to_be_visible(timeout=10_000)
        assert errors == []
    finally:
        context.close()
