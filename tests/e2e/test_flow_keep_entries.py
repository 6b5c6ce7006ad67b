"""What the scorer typed is never lost: after a reload, a lost connection or a server error
the hand form comes back filled in; where service workers run (HTTPS, localhost), a hand
saved while offline waits on the phone and is sent once, when the connection returns."""

from __future__ import annotations

import re

from playwright.sync_api import Browser, Page, expect

from .conftest import phone_context
from .flows import api, api_match, choose, expect_hand_rows, save, side_group


def fill_a_usual_hand(page: Page, ours: str, theirs: str) -> None:
    choose(page, "Nobody: the stock ran out")
    side_group(page, ours).get_by_role("spinbutton", name="Points melded").fill("150")
    side_group(page, ours).get_by_role("spinbutton", name="Points left in hand").fill("10")
    side_group(page, theirs).get_by_role("spinbutton", name="Points melded").fill("90")
    side_group(page, theirs).get_by_role("spinbutton", name="Points left in hand").fill("30")


def expect_the_hand_is_back(page: Page, ours: str, theirs: str) -> None:
    expect(page.get_by_text("What you typed before is back.")).to_be_visible()
    expect(page.get_by_role("radio", name="Nobody: the stock ran out")).to_be_checked()
    melded = side_group(page, ours).get_by_role("spinbutton", name="Points melded")
    expect(melded).to_have_value("150")
    held = side_group(page, theirs).get_by_role("spinbutton", name="Points left in hand")
    expect(held).to_have_value("30")


def hands_on_the_server(base: str, match_id: int) -> list[list[int]]:
    state = api(base, "GET", f"/api/v1/matches/{match_id}")
    return [[side["total"] for side in hand["sides"]] for hand in state["hands"]]


def test_a_reload_keeps_the_entries_and_a_save_lets_them_go(page: Page, live_server: str):
    match = api_match(live_server, "classic", [["Ada", "Bea"], ["Cal", "Dov"]])
    page.goto(f"{live_server}/matches/{match}/hands/new")
    fill_a_usual_hand(page, "Ada & Bea", "Cal & Dov")
    page.reload()
    expect_the_hand_is_back(page, "Ada & Bea", "Cal & Dov")
    page.get_by_role("button", name="Save hand 1").tap()
    expect(page.get_by_role("status").filter(has_text="recorded")).to_have_text("Hand 1 recorded.")
    expect_hand_rows(page, "1 +140 140 +60 60")
    # The next hand starts empty, and the saved hand's entries are gone from the phone.
    page.get_by_role("link", name="Record hand 2").click()
    expect(page.get_by_text("What you typed before is back.")).to_be_hidden()
    expect(page.locator("input[name=out]:checked")).to_have_count(0)
    drafts = page.evaluate("Object.keys(localStorage).filter(k => k.startsWith('draft:'))")
    assert drafts == [f"draft:m{match}:new:2"] or drafts == []


def test_start_again_forgets_the_entries(page: Page, live_server: str):
    match = api_match(live_server, "classic", [["Eli", "Fay"], ["Gus", "Hal"]])
    page.goto(f"{live_server}/matches/{match}/hands/new")
    fill_a_usual_hand(page, "Eli & Fay", "Gus & Hal")
    page.reload()
    page.get_by_role("button", name="Start again").tap()
    expect(page.get_by_text("What you typed before is back.")).to_be_hidden()
    melded = side_group(page, "Eli & Fay").get_by_role("spinbutton", name="Points melded")
    expect(melded).to_have_value("")


def test_a_lost_connection_or_a_server_error_keeps_the_entries(page: Page, live_server: str):
    match = api_match(live_server, "classic", [["Ida", "Jo"], ["Kai", "Lev"]])
    form = f"{live_server}/matches/{match}/hands/new"
    page.goto(form)
    fill_a_usual_hand(page, "Ida & Jo", "Kai & Lev")
    # The Wi-Fi drops as the scorer taps Save: the browser shows its error page.
    page.context.set_offline(True)
    page.get_by_role("button", name="Save hand 1").tap()
    expect(page).to_have_url(re.compile("^chrome-error:"))
    page.context.set_offline(False)
    page.goto(form)
    expect_the_hand_is_back(page, "Ida & Jo", "Kai & Lev")
    assert hands_on_the_server(live_server, match) == []
    # The server fails (here: an answer of 500 from a proxy in between).
    page.route(
        f"**/matches/{match}/hands/new",
        lambda route: (
            route.fulfill(status=500, body="Internal Server Error")
            if route.request.method == "POST"
            else route.continue_()
        ),
    )
    page.get_by_role("button", name="Save hand 1").tap()
    expect(page.get_by_text("Internal Server Error")).to_be_visible()
    page.unroute(f"**/matches/{match}/hands/new")
    page.goto(form)
    expect_the_hand_is_back(page, "Ida & Jo", "Kai & Lev")
    page.get_by_role("button", name="Save hand 1").tap()
    expect_hand_rows(page, "1 +140 140 +60 60")


def test_a_hand_saved_offline_waits_on_the_phone_and_is_sent_once(
    tester_state, browser: Browser, live_server: str
):
    context = phone_context(browser, storage_state=tester_state, service_workers="allow")
    try:
        page = context.new_page()
        errors: list[str] = []
        page.on("pageerror", lambda error: errors.append(str(error)))
        match = api_match(live_server, "classic", [["Mia", "Ned"], ["Oda", "Pia"]])
        board = f"{live_server}/matches/{match}"
        page.goto(board)
        assert page.evaluate("navigator.serviceWorker.ready.then(() => true)")
        page.reload()  # now under the worker, which keeps this scoreboard for offline use
        assert page.evaluate("navigator.serviceWorker.controller !== null")
        page.get_by_role("link", name="Record hand 1").click()
        fill_a_usual_hand(page, "Mia & Ned", "Oda & Pia")

        context.set_offline(True)
        page.get_by_role("button", name="Save hand 1").tap()
        outbox = page.locator("#outbox")
        expect(outbox).to_have_text("1 hand waiting to be sent.")
        expect(page).to_have_url(board)
        assert hands_on_the_server(live_server, match) == []

        context.set_offline(False)
        expect_hand_rows(page, "1 +140 140 +60 60")
        expect(outbox).to_be_hidden()
        assert hands_on_the_server(live_server, match) == [[140, 60]]
        # Reopening the scoreboard sends nothing again: the hand was sent exactly once.
        page.reload()
        expect_hand_rows(page, "1 +140 140 +60 60")
        assert hands_on_the_server(live_server, match) == [[140, 60]]
        assert errors == []
    finally:
        context.close()


def test_a_queued_hand_the_server_asks_about_comes_back_to_the_scorer(
    tester_state, browser: Browser, live_server: str
):
    context = phone_context(browser, storage_state=tester_state, service_workers="allow")
    try:
        page = context.new_page()
        match = api_match(live_server, "classic", [["Quin", "Rae"], ["Sol", "Tia"]])
        board = f"{live_server}/matches/{match}"
        page.goto(board)
        assert page.evaluate("navigator.serviceWorker.ready.then(() => true)")
        page.reload()
        page.get_by_role("link", name="Record hand 1").click()
        choose(page, "Nobody: the stock ran out")
        side_group(page, "Quin & Rae").get_by_role("spinbutton", name="Points melded").fill("150")
        # Sol & Tia hold nothing: unlikely, so the server will ask before saving it.
        context.set_offline(True)
        page.get_by_role("button", name="Save hand 1").tap()
        expect(page.locator("#outbox")).to_have_text("1 hand waiting to be sent.")
        context.set_offline(False)
        page.reload()
        outbox = page.locator("#outbox")
        expect(outbox).to_contain_text("Hand 1 was not saved: open it to check it.")
        assert hands_on_the_server(live_server, match) == []
        outbox.get_by_role("link", name="Open hand 1").tap()
        expect(page.get_by_text("What you typed before is back.")).to_be_visible()
        melded = side_group(page, "Quin & Rae").get_by_role("spinbutton", name="Points melded")
        expect(melded).to_have_value("150")
        assert save(page, "Save hand 1")  # asked "Is this right?", and confirmed
        expect_hand_rows(page, "1 +150 150 0 0")
        expect(page.locator("#outbox")).to_be_hidden()
        assert hands_on_the_server(live_server, match) == [[150, 0]]
    finally:
        context.close()
