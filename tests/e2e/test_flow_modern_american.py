"""A Modern American match at a phone's size, won at once by a dream hand (issue 13):
penalties entered as counts, black threes, and a special hand chosen as one choice that
sets the side's other entries aside."""

from __future__ import annotations

import re

from playwright.sync_api import Page, expect

from .checks import check_page
from .flows import expect_totals, preview, record_hand, side_group, start_match

# 500 + 2500 canastas, melded 400, out 100, red threes 2 (300), a black three (100): 3900.
OUT = {
    "canasta_natural": 1,
    "canasta_aces": 1,
    "red_threes": 2,
    "black_threes": 1,
    "meld_points": 400,
}
# A mixed canasta 300, melded 150, a red three with one canasta 0, hand 65, a player
# holding three sevens -1500, an unfinished sevens meld -2500: -3615.
OTHER = {
    "canasta_mixed": 1,
    "red_threes": 1,
    "meld_points": 150,
    "hand_points": 65,
    "players_with_3_sevens": 1,
    "incomplete_sevens": 1,
}


def test_a_modern_american_match_won_at_once_by_a_dream_hand(page: Page, live_server: str):
    start_match(page, live_server, "Modern American Canasta", ["Ann", "Bob", "Cid", "Dee"])
    record_hand(page, "Ann & Cid", [OUT, OTHER])
    expect(page.get_by_role("status").filter(has_text="recorded")).to_have_text("Hand 1 recorded.")
    expect_totals(page, 3900, -3615)

    # Hand 2: Bob & Dee go out with a dream hand. Choosing it sets their other entries
    # aside and marks them as the side that went out.
    record_hand(page, "Nobody", [{"meld_points": 60, "hand_points": 20}, {}], save=False)
    theirs = side_group(page, "Bob & Dee")
    special = theirs.get_by_label("Special hand")
    expect(special).to_be_hidden()  # a rare entry, one tap away
    theirs.locator("summary", has_text="Special hand and wild-card canastas").tap()
    special.select_option("dream_plus_4")
    expect(page.locator("#s1_meld_points")).to_be_hidden()
    expect(page.locator("#s1_meld_points")).to_be_disabled()
    expect(page.get_by_role("radio", name="Bob & Dee", exact=True)).to_be_checked()
    expect(preview(page)).to_contain_text("Dream hand plus 4 (wins the game at once): +8,500")
    expect(preview(page)).to_contain_text("Ann & Cid: -80")
    check_page(page)  # the record form with the special hands, at a phone's size
    page.locator(".submit-bar button").click()
    asked = page.locator("#confirm")
    expect(asked).to_contain_text("This hand ends the game: Bob & Dee wins.")
    asked.get_by_role("button").tap()
    expect(page.get_by_role("status").filter(has_text="recorded")).to_have_text("Hand 2 recorded.")
    expect_totals(page, 3820, 4885)
    banner = page.locator(".banner.win")
    expect(banner.get_by_role("heading", name="Bob & Dee win")).to_be_visible()
    expect(banner).to_contain_text("won at once by a special hand that wins the game")
    expect(page.get_by_role("link", name=re.compile("^Record hand"))).to_have_count(0)
    check_page(page)
