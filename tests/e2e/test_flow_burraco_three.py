"""A whole Burraco for three match at a phone's size: who played with whom first, the pair
entered once, the switch to each for himself at 1000, and the end at 1505 (issue 13).

Ada alone closes with a clean and a dirty burraco and 230 melded (630); Bea and Cy make
a dirty burraco + 80 - 45 = 135 (70 each). Ada alone closes again with a clean burraco
and 70 melded (370: she reaches 1000); the pair, without its pozzetto, 40 - 75 - 100 =
-135 (-65 each). Each for himself, Ada closes with a clean burraco and 310 melded (610),
Bea 70 - 25 (45), Cy 35 - 100 for the pozzetto he never took (-65).
"""

from __future__ import annotations

import re

from playwright.sync_api import Page, expect

from .checks import check_page
from .flows import answer_yes_if_asked, enter_side, expect_totals, start_match


def open_form(page: Page, lineup: str | None, out: str) -> None:
    page.get_by_role("link", name=re.compile(r"^Record hand \d+")).click()
    if lineup:
        page.locator("fieldset#lineup label.choice", has_text=lineup).click()
    page.locator("fieldset#out label.choice", has_text=re.compile(f"^{re.escape(out)}$")).click()


def seat_part(page: Page, seat: int):
    return page.locator(f"fieldset.side[data-side='{seat}']")


def test_a_burraco_for_three_match_switches_phase_and_ends(page: Page, live_server: str):
    start_match(page, live_server, "Burraco for three", ["Ada", "Bea", "Cy"])
    expect(page.locator("p.phase")).to_contain_text("Pair against one")

    open_form(page, "Ada alone against Bea and Cy", "Ada")
    # The pair is entered once, in Bea's part; Cy's part is set aside. Ada alone took the
    # big pozzetto: her box is ticked and fixed.
    expect(seat_part(page, 2)).to_be_hidden()
    expect(seat_part(page, 1).locator(".pair-note")).to_have_text(
        "Bea and Cy play together: enter the pair's cards here, once."
    )
    expect(page.locator("#s0_took_extra_hand")).to_be_checked()
    expect(page.locator("#s0_took_extra_hand")).to_be_disabled()
    enter_side(page, 0, {"canasta_natural": 1, "canasta_mixed": 1, "meld_points": 230})
    enter_side(
        page,
        1,
        {"canasta_mixed": 1, "meld_points": 80, "hand_points": 45, "took_extra_hand": True},
    )
    expect(page.locator("#preview-summary")).to_have_text("Ada +630 · Bea +70 · Cy +70")
    check_page(page)  # the line-up choice and the set-aside part, at a phone's size
    page.locator(".submit-bar button").click()
    answer_yes_if_asked(page)
    expect(page.get_by_role("status").filter(has_text="recorded")).to_have_text("Hand 1 recorded.")
    expect_totals(page, 630, 70, 70)

    open_form(page, "Ada alone against Bea and Cy", "Ada")
    enter_side(page, 0, {"canasta_natural": 1, "meld_points": 70})
    enter_side(page, 1, {"meld_points": 40, "hand_points": 75})
    page.locator(".submit-bar button").click()
    answer_yes_if_asked(page)
    expect_totals(page, 1000, 5, 5)
    expect(page.locator("p.phase")).to_have_text("Each for himself: a player reached 1,000.")
    expect(page.locator("td.lineup")).to_have_text(["Ada alone v Bea & Cy"] * 2)
    check_page(page)

    # After the switch the form offers each for himself only, already chosen.
    open_form(page, None, "Ada")
    expect(page.locator("fieldset#lineup label.choice")).to_have_text(["Each for himself"])
    expect(page.get_by_role("radio", name="Each for himself")).to_be_checked()
    expect(seat_part(page, 2)).to_be_visible()
    enter_side(page, 0, {"canasta_natural": 1, "meld_points": 310})
    enter_side(page, 1, {"meld_points": 70, "hand_points": 25, "took_extra_hand": True})
    enter_side(page, 2, {"meld_points": 35})
    page.locator(".submit-bar button").click()
    answer_yes_if_asked(page)
    expect_totals(page, 1610, 50, -60)
    banner = page.locator(".banner.win")
    expect(banner.get_by_role("heading", name="Ada wins")).to_be_visible()
    expect(page.locator("td.lineup").last).to_have_text("Each for himself")
    expect(page.get_by_role("link", name=re.compile("^Record hand"))).to_have_count(0)
    check_page(page)
