"""What the scorer typed is never lost: after a reload, a lost connection or a server error
the hand form comes back filled in (where service workers run, a hand saved while offline
waits on the phone instead: test_flow_outbox.py)."""

from __future__ import annotations

import re

from playwright.sync_api import Page, expect

from .flows import api, api_match, choose, expect_hand_rows, side_group


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
