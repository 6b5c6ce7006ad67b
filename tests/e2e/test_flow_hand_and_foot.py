"""A whole Hand and Foot match at a phone's size: four deals, each deal's meld minimum,
the feet, and the winner after the last deal (issue 11, item 4)."""

from __future__ import annotations

import re

from playwright.sync_api import Page, expect

from .checks import check_page
from .flows import expect_totals, record_hand, side_card, start_match

# Going out: books 2x500 + 2x300 + 1500, melded 700, out 100, a red three laid 100: 4000.
OUT = {
    "canasta_natural": 2,
    "canasta_mixed": 2,
    "canasta_wild": 1,
    "feet_taken": 2,
    "red_threes": 1,
    "meld_points": 700,
}
# Caught: a clean book 500, melded 200, hand 50, a foot never picked up 100, a red three
# held 100: 450.
CAUGHT = {
    "canasta_natural": 1,
    "feet_taken": 1,
    "meld_points": 200,
    "hand_points": 50,
    "foot_points": 100,
    "red_threes_in_hand": 1,
}


def test_a_hand_and_foot_match_to_the_end(page: Page, live_server: str):
    start_match(page, live_server, "Hand and Foot", ["Ann", "Bob", "Cid", "Dee"])
    deals = [
        ("Ann & Cid", [OUT, CAUGHT], "Ann"),
        ("Nobody", [{"meld_points": 300}, {"meld_points": 200, "foot_points": 50}], "Bob"),
        ("Nobody", [{"meld_points": 100}, {"meld_points": 100}], "Cid"),
        ("Bob & Dee", [CAUGHT, OUT], "Dee"),
    ]
    minimums = ["50 points", "90 points", "120 points", "150 points"]
    for number, ((out, sides, dealer), minimum) in enumerate(
        zip(deals, minimums, strict=True), start=1
    ):
        expect(page.get_by_text(f"Deal {number} of 4: {dealer} deals.")).to_be_visible()
        for name in ("Ann & Cid", "Bob & Dee"):
            expect(side_card(page, name).locator(".meld")).to_have_text(
                f"Next initial meld: {minimum}"
            )
        record_hand(page, out, sides, save=False)
        if number == 1:
            expect(page.get_by_role("group", name="Cards in feet not picked up")).to_have_count(2)
            check_page(page)  # the record form with the feet, at a phone's size
        page.locator(".submit-bar button").click()
        asked = page.locator("#confirm")
        expect(asked.or_(page.locator(".flash[role=status]"))).to_be_visible()
        if asked.is_visible():
            asked.get_by_role("button").tap()
        expect(page.get_by_role("status").filter(has_text="recorded")).to_have_text(
            f"Hand {number} recorded."
        )
    expect_totals(page, 4000 + 300 + 100 + 450, 450 + 150 + 100 + 4000)
    banner = page.locator(".banner.win")
    expect(banner.get_by_role("heading", name="Ann & Cid win")).to_be_visible()
    expect(banner).to_contain_text("Game over after 4 hands: 4,850 points, the most after 4 deals.")
    expect(page.get_by_role("link", name=re.compile("^Record hand"))).to_have_count(0)
    expect(page.get_by_text("Next initial meld")).to_have_count(0)
    check_page(page)
