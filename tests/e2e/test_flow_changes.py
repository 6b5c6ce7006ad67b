"""After the fact: the dispute view, correcting a hand and undoing the last one."""

from __future__ import annotations

import re

from playwright.sync_api import Page, expect

from .checks import check_page
from .flows import (
    api,
    api_hand,
    api_match,
    expect_hand_rows,
    expect_totals,
    preview,
    record_hand,
    save,
    side_card,
    side_group,
)


def changes(page: Page):
    return page.get_by_role("region", name="Changes").get_by_role("listitem")


def change(number: int, action: str, *sides: tuple[str, int | None, int | None]) -> re.Pattern:
    """An entry of the Changes list: each side's hand score before → after.

    A hand that had no score before (recorded) or has none after (removed) shows a dash.
    """

    def score(points: int | None) -> str:
        return "\u2013" if points is None else f"{points:+,d}" if points else "0"

    parts = "; ".join(f"{name}: {score(old)} → {score(new)}" for name, old, new in sides)
    return re.compile(rf"^Hand {number} {action} .*{re.escape(parts)}$")


def test_correcting_a_hand_recomputes_later_totals(page: Page, live_server: str):
    match = api_match(live_server, "classic", [["Sam", "Uma"], ["Tom", "Val"]])
    page.goto(f"{live_server}/matches/{match}")
    # Hand 1: Sam & Uma go out, 500 + 500 + 100; Tom & Val 200 - 50.
    record_hand(
        page,
        "Sam & Uma",
        [{"canasta_natural": 1, "meld_points": 500}, {"meld_points": 200, "hand_points": 50}],
    )
    expect(page.get_by_role("status")).to_have_text("Hand 1 recorded.")
    # Hand 2: the stock ran out; 300 and 300 + 400.
    record_hand(page, "Nobody", [{"meld_points": 300}, {"canasta_mixed": 1, "meld_points": 400}])
    expect(page.get_by_role("status")).to_have_text("Hand 2 recorded.")
    expect_totals(page, 1400, 850)
    expect_hand_rows(page, "1 +1,100 1,100 +150 150", "2 +300 1,400 +700 850")
    expect(side_card(page, "Sam & Uma")).to_contain_text("Next initial meld: 50 points")
    expect(side_card(page, "Sam & Uma")).to_contain_text("Leads by 550")
    expect(side_card(page, "Tom & Val")).to_contain_text("550 behind")
    # Recorded hands are in the table: the Changes list waits for a correction or removal.
    expect(page.get_by_role("region", name="Changes")).to_have_count(0)

    # The meld of hand 1 was 600, not 500.
    page.get_by_role("link", name="Hand 1, dealt by Sam: explanation").click()
    page.get_by_role("link", name="Correct this hand").click()
    expect(page.get_by_role("heading", level=1)).to_contain_text("Correct hand 1")
    expect(page.get_by_role("radio", name="Sam & Uma", exact=True)).to_be_checked()
    ours = side_group(page, "Sam & Uma")
    expect(ours.get_by_role("spinbutton", name="Natural canastas", exact=True)).to_have_value("1")
    meld = ours.get_by_role("spinbutton", name="Points melded")
    expect(meld).to_have_value("500")
    meld.fill("600")
    expect(preview(page)).to_contain_text("Sam & Uma: +1,200 (total 1,200)")
    check_page(page)
    save(page, "Save the correction")

    expect(page.get_by_role("status")).to_have_text(
        "Hand 1 corrected. Every later total has been recomputed."
    )
    expect_totals(page, 1500, 850)
    expect_hand_rows(page, "1 +1,200 1,200 +150 150", "2 +300 1,500 +700 850")
    # 1500 is the next step of the meld table: 90 points.
    expect(side_card(page, "Sam & Uma")).to_contain_text("Next initial meld: 90 points")
    expect(side_card(page, "Tom & Val")).to_contain_text("Next initial meld: 50 points")
    expect(side_card(page, "Sam & Uma")).to_contain_text("Leads by 650")
    expect(changes(page)).to_have_count(1)
    expect(changes(page).first).to_have_text(
        change(1, "corrected", ("Sam & Uma", 1100, 1200))  # Tom & Val's hand is as it was
    )

    page.get_by_role("link", name="Hand 1, dealt by Sam: explanation").click()
    history = page.get_by_role("region", name="Correction history").locator("ul.audit > li")
    expect(history).to_have_count(2)
    expect(history.first).to_contain_text("Corrected")
    expect(history.first.get_by_role("listitem")).to_have_text(["Sam & Uma: Meld points 500 → 600"])
    expect(history.nth(1)).to_contain_text("Recorded")


def test_undoing_the_last_hand(page: Page, live_server: str):
    match = api_match(live_server, "classic-2p", [["Wanda"], ["Xavi"]])
    out = {"went_out": True, "canastas": {"natural": 2}, "meld_points": 400}
    api_hand(live_server, match, out, {"meld_points": 150, "hand_points": 40})  # 1500, 110
    api_hand(
        live_server, match, {"meld_points": 100}, {"canastas": {"mixed": 1}, "meld_points": 90}
    )
    page.goto(f"{live_server}/matches/{match}")
    expect_totals(page, 1600, 500)
    expect(page.get_by_text("Hand 3: Wanda deals.")).to_be_visible()
    expect(side_card(page, "Wanda")).to_contain_text("Next initial meld: 90 points")

    # Changing one's mind keeps the hand.
    page.get_by_role("link", name="Undo hand 2").click()
    expect(page.get_by_role("heading", name="Remove hand 2?")).to_be_visible()
    expect(page.get_by_text("Scores of this hand: Wanda +100, Xavi +390.")).to_be_visible()
    page.get_by_role("link", name="Keep it").click()
    expect_hand_rows(page, "1 +1,500 1,500 +110 110", "2 +100 1,600 +390 500")

    page.get_by_role("link", name="Undo hand 2").click()
    page.get_by_role("button", name="Remove hand 2").tap()
    expect(page.get_by_role("status")).to_have_text(
        "Hand 2 removed. Every later total has been recomputed."
    )
    expect_hand_rows(page, "1 +1,500 1,500 +110 110")
    expect_totals(page, 1500, 110)
    expect(side_card(page, "Wanda")).to_contain_text("Next initial meld: 90 points")
    expect(side_card(page, "Xavi")).to_contain_text("Next initial meld: 50 points")
    # A removed hand was not played: the same player deals the next one.
    expect(page.get_by_text("Hand 2: Xavi deals.")).to_be_visible()
    expect(page.get_by_role("link", name="Record hand 2", exact=True)).to_be_visible()
    expect(page.get_by_role("link", name="Undo hand 1")).to_be_visible()
    expect(changes(page)).to_have_count(1)
    expect(changes(page).first).to_have_text(
        change(2, "removed", ("Wanda", 100, None), ("Xavi", 390, None))
    )
    check_page(page)


def test_dispute_view_explains_a_hand(page: Page, live_server: str):
    match = api_match(live_server, "classic", [["Nico", "Pia"], ["Otto", "Quinn"]])
    api_hand(
        live_server,
        match,
        {"went_out": True, "canastas": {"natural": 1}, "meld_points": 350, "red_threes": 1},
        {"canastas": {"mixed": 1}, "meld_points": 250, "hand_points": 40},
    )  # 1050, 510
    second = [
        {"meld_points": 120, "hand_points": 95, "red_threes": 2},
        {
            "went_out": True,
            "canastas": {"natural": 1, "mixed": 1},
            "meld_points": 600,
            "penalties": [{"points": 50, "reason": "Looked at the stock"}],
        },
    ]
    api_hand(live_server, match, *second)
    second[1]["meld_points"] = 650
    api(live_server, "PUT", f"/api/v1/matches/{match}/hands/2", {"sides": second})

    page.goto(f"{live_server}/matches/{match}")
    page.get_by_role("link", name="Hand 2, dealt by Otto: explanation").click()
    expect(page.get_by_role("heading", level=1)).to_contain_text("Hand 2")
    expect(page.get_by_text("Dealt by Otto.")).to_be_visible()

    # Each side: lines that add up to the hand score, and the running total before → after.
    sides = {
        "Nico & Pia: -175": (
            [
                ("Melded cards", 120),
                ("2 red threes x 100, counted minus (no canasta)", -200),
                ("Cards left in hand", -95),
            ],
            "1,050 → 875",
        ),
        "Otto & Quinn: +1,500": (
            [
                ("1 natural canasta x 500", 500),
                ("1 mixed canasta x 300", 300),
                ("Melded cards", 650),
                ("Going out", 100),
                ("Cards left in hand", 0),
                ("Penalty: Looked at the stock", -50),
            ],
            "510 → 2,010",
        ),
    }
    for heading, (lines, running) in sides.items():
        score = heading.rsplit(" ", 1)[1]
        table = page.get_by_role("region", name=heading).get_by_role("table")
        # Each line: what it is in the players' words, and the points; the rule it comes
        # from is in the markup for machines, never on screen.
        expect(table.locator("tbody tr")).to_have_text(
            [
                re.compile(rf"^{re.escape(label)}\s+{re.escape(f'{p:+d}' if p else '0')}$")
                for label, p in lines
            ],
            use_inner_text=True,
        )
        expect(table.locator("tbody tr").first).to_have_attribute("data-rule", re.compile(r"\w"))
        shown = [int(p) for p in table.locator("tbody td").all_inner_texts()]
        assert sum(shown) == int(score.replace(",", ""))
        expect(table.locator("tfoot tr")).to_have_text(
            [f"Hand score {score}", f"Running total {running}"], use_inner_text=True
        )

    # What was entered, folded away until asked for.
    theirs = page.get_by_role("region", name="Otto & Quinn: +1,500")
    entered = theirs.locator("dl.entered")
    expect(entered).to_be_hidden()
    theirs.get_by_text("As entered").tap()
    expect(entered).to_be_visible()
    expect(
        entered.locator("dt", has_text="Going out").locator("xpath=following-sibling::dd[1]")
    ).to_have_text("yes")
    expect(
        entered.locator("dt", has_text="meld points").locator("xpath=following-sibling::dd[1]")
    ).to_have_text("650")
    expect(entered.locator("dt", has_text="natural canastas")).to_have_count(1)
    expect(entered).to_contain_text("50 (Looked at the stock)")

    # The rules the match was scored under.
    rules = page.get_by_role("region", name="Rules it was scored under")
    expect(rules).to_contain_text("Classic Canasta, target 5,000.")
    for caption in ("Card values", "Canastas: bonuses", "Going out", "Red threes"):
        expect(rules.get_by_role("table", name=caption, exact=True)).to_be_visible()
    bonuses = rules.get_by_role("table", name="Canastas: bonuses")
    expect(bonuses.get_by_role("row", name=re.compile("^Natural canastas"))).to_contain_text(
        "500 each"
    )
    meld = rules.get_by_role("table", name="Initial meld minimum by score")
    expect(meld.get_by_role("row")).to_have_count(4)
    expect(meld.get_by_role("row").first).to_have_text(re.compile(r"Below 0\s*15 points"))

    # The correction history: newest first, with what changed.
    history = page.get_by_role("region", name="Correction history").locator("ul.audit > li")
    expect(history).to_have_count(2)
    expect(history.first).to_contain_text(
        re.compile(r"^Corrected .*: Otto & Quinn \+1,450 → \+1,500")
    )
    expect(history.first).not_to_contain_text("Nico & Pia")  # their hand is as it was
    expect(history.first.get_by_role("listitem")).to_have_text(
        ["Otto & Quinn: Meld points 600 → 650"]
    )
    expect(history.nth(1)).to_contain_text(re.compile(r"^Recorded"))
    theirs.get_by_text("As entered").scroll_into_view_if_needed()
    check_page(page)


def test_correction_history_names_only_what_changed(page: Page, live_server: str):
    """A hand recorded by another client with zero fields left out (RULES.md: omitted counts
    are 0, omitted booleans false), then corrected on the phone: the history names the one
    field that changed, not the zeros the form spells out."""
    match = api_match(live_server, "classic", [["Ariel", "Bianca"], ["Carlo", "Dora"]])
    api_hand(
        live_server,
        match,
        {"went_out": True, "canastas": {"natural": 1}, "meld_points": 500},
        {"meld_points": 200},
    )
    page.goto(f"{live_server}/matches/{match}/hands/1")
    page.get_by_role("link", name="Correct this hand").click()
    side_group(page, "Ariel & Bianca").get_by_role("spinbutton", name="Points melded").fill("600")
    save(page, "Save the correction")
    expect(page.get_by_role("status")).to_contain_text("Hand 1 corrected.")

    page.get_by_role("link", name="Hand 1, dealt by Ariel: explanation").click()
    history = page.get_by_role("region", name="Correction history").locator("ul.audit > li")
    expect(history.first).to_contain_text("Corrected")
    expect(history.first.get_by_role("listitem")).to_have_text(
        ["Ariel & Bianca: Meld points 500 → 600"]
    )
