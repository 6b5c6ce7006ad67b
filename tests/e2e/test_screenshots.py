"""Phone screenshots of the main pages (`make screenshots` writes them to tests/e2e/screenshots).

In a normal test run they go to test-results/screenshots; the run also checks the
pages in the states the screenshots show (a filled-in form with its preview).
"""

from __future__ import annotations

from playwright.sync_api import Page, expect

from .checks import check_page, screenshot
from .flows import (
    api,
    api_hand,
    api_match,
    cards_group,
    choose,
    preview,
    save,
    side_group,
    tap_count,
)


def test_screenshots_of_the_main_pages(page: Page, live_server: str):
    base = live_server
    # A match in progress, with a corrected hand so the scoreboard lists a change.
    playing = api_match(base, "classic", [["Lucia", "Marco"], ["Sofia", "Tomas"]], first_dealer=1)
    first = [
        {"went_out": True, "canastas": {"natural": 1, "mixed": 1}, "meld_points": 610},
        {"canastas": {"mixed": 1}, "meld_points": 340, "hand_points": 55, "red_threes": 1},
    ]
    api_hand(base, playing, *first)
    first[0]["red_threes"] = 2
    api(base, "PUT", f"/api/v1/matches/{playing}/hands/1", {"sides": first})
    api_hand(
        base,
        playing,
        {"canastas": {"natural": 1}, "meld_points": 420, "hand_points": 30},
        {"went_out": True, "canastas": {"natural": 1, "mixed": 1}, "meld_points": 560},
    )
    # Finished matches.
    duel = api_match(base, "classic-2p", [["Lucia"], ["Tomas"]], options={"target": 1500})
    api_hand(base, duel, {"meld_points": 380, "hand_points": 40}, {"meld_points": 270})
    api_hand(
        base,
        duel,
        {"went_out": True, "canastas": {"natural": 2, "mixed": 1}, "meld_points": 720},
        {"canastas": {"mixed": 1}, "meld_points": 310, "hand_points": 85},
    )
    samba = api_match(
        base, "samba", [["Sofia", "Marco"], ["Lucia", "Tomas"]], options={"target": 3000}
    )
    api_hand(
        base,
        samba,
        {"canastas": {"mixed": 1}, "meld_points": 450, "red_threes": 1},
        {"went_out": True, "canastas": {"samba": 1, "natural": 1}, "meld_points": 980},
    )

    page.goto(base + "/")
    expect(
        page.get_by_role("region", name="Recently finished").get_by_role("link")
    ).not_to_have_count(0)
    screenshot(page, "home")

    page.get_by_role("link", name="New match").click()
    page.get_by_role("link").filter(has=page.get_by_text("Classic Canasta", exact=True)).click()
    for label, name in {
        "Team 1, player 1": "Lucia",
        "Team 2, player 1": "Sofia",
        "Team 1, player 2": "Marco",
        "Team 2, player 2": "Tomas",
    }.items():
        page.get_by_role("combobox", name=label, exact=True).fill(name)
    page.get_by_role("heading", level=1).click()  # close the name suggestions
    screenshot(page, "new-match")

    page.goto(f"{base}/matches/{playing}")
    expect(page.get_by_role("link", name="Record hand 3")).to_be_visible()
    screenshot(page, "scoreboard")

    page.get_by_role("link", name="Record hand 3").click()
    ours, theirs = side_group(page, "Lucia & Marco"), side_group(page, "Sofia & Tomas")
    choose(page, "Lucia & Marco")
    tap_count(ours, "Natural canastas", 2)
    tap_count(ours, "Red threes laid down", 1)
    ours.get_by_label("Points melded").fill("580")
    tap_count(theirs, "Mixed canastas", 1)
    left = cards_group(theirs, "Cards in hand")
    choose(left, "Count cards")
    tap_count(left, "Jokers (jokers, 50)", 1)
    tap_count(left, "High cards (K Q J 10 9 8, 10)", 3)
    cards_group(theirs, "Melded cards").get_by_label("Points melded").fill("350")
    # 1000 + 580 + 100 + 100; 300 + 350 - 80.
    expect(preview(page)).to_contain_text("Lucia & Marco: +1,780")
    expect(preview(page)).to_contain_text("Sofia & Tomas: +570")
    check_page(page)
    preview(page).scroll_into_view_if_needed()
    screenshot(page, "record-hand")
    save(page, "Save hand 3")
    expect(page.get_by_role("status")).to_have_text("Hand 3 recorded.")

    page.get_by_role("link", name="Hand 1, dealt by Sofia: explanation").click()
    expect(page.get_by_role("heading", level=1)).to_contain_text("Hand 1")
    screenshot(page, "hand-explained")

    page.goto(f"{base}/matches/{duel}")
    expect(page.get_by_role("heading", name="Tomas wins")).to_be_hidden()
    expect(page.get_by_role("heading", name="Lucia wins")).to_be_visible()
    screenshot(page, "game-over")

    page.get_by_role("link", name="History", exact=True).click()
    expect(page.get_by_role("heading", name="Finished matches")).to_be_visible()
    screenshot(page, "history")
