"""Recording a hand: one-tap counts, the count-cards switch, the live preview and errors."""

from __future__ import annotations

import re

from playwright.sync_api import Page, expect

from .checks import check_page
from .flows import (
    api_hand,
    api_match,
    cards_group,
    choose,
    expect_hand_rows,
    expect_totals,
    field_wrapper,
    preview,
    save,
    side_group,
    tap_count,
)


def open_record_form(page: Page, base: str, match_id: int, number: int = 1) -> None:
    page.goto(f"{base}/matches/{match_id}")
    page.get_by_role("link", name=f"Record hand {number}", exact=True).click()
    expect(page.get_by_role("heading", level=1)).to_contain_text(f"Hand {number}")


def test_one_tap_counts_and_card_counts(page: Page, live_server: str):
    """Classic: natural canasta, red three and melded cards counted by kind."""
    match = api_match(live_server, "classic", [["Nadia", "Olga"], ["Piero", "Quim"]])
    open_record_form(page, live_server, match)
    expect(page.get_by_text("Nadia dealt this hand.")).to_be_visible()
    ours, theirs = side_group(page, "Nadia & Olga"), side_group(page, "Piero & Quim")
    choose(page, "Nadia & Olga")

    natural = ours.get_by_role("spinbutton", name="Natural canastas", exact=True)
    two = ours.get_by_role("button", name="Natural canastas: 2", exact=True)
    expect(natural).to_have_value("")
    tap_count(ours, "Natural canastas", 2)
    expect(natural).to_have_value("2")
    expect(two).to_have_attribute("aria-pressed", "true")
    tap_count(ours, "Natural canastas", 1)
    expect(natural).to_have_value("1")
    expect(two).to_have_attribute("aria-pressed", "false")
    # The chosen count tapped again is emptied; a larger one is typed.
    tap_count(ours, "Natural canastas", 1)
    expect(natural).to_have_value("")
    natural.fill("6")
    expect(ours.locator("[aria-pressed=true]")).to_have_count(0)
    tap_count(ours, "Natural canastas", 1)
    tap_count(ours, "Red threes laid down", 1)
    expect(ours.get_by_role("spinbutton", name="Red threes laid down")).to_have_value("1")
    mixed = theirs.get_by_role("spinbutton", name="Mixed canastas", exact=True)
    tap_count(theirs, "Mixed canastas", 1)
    expect(mixed).to_have_value("1")

    # Melded cards: points by default, counted by kind after the switch.
    melded = cards_group(ours, "Melded cards")
    points = melded.get_by_role("spinbutton", name="Points melded")
    jokers = melded.get_by_role("spinbutton", name="Jokers (jokers, 50)")
    expect(points).to_be_visible()
    expect(jokers).to_be_hidden()
    choose(melded, "Count cards")
    expect(points).to_be_hidden()
    expect(jokers).to_be_visible()
    tap_count(melded, "Jokers (jokers, 50)", 2)
    melded.get_by_role("spinbutton", name="High cards (K Q J 10 9 8, 10)").fill("8")
    expect(jokers).to_have_value("2")
    expect(melded.get_by_role("spinbutton", name="High cards (K Q J 10 9 8, 10)")).to_have_value(
        "8"
    )
    # The cards left in hand of the same side stay as points.
    expect(cards_group(ours, "Cards in hand").get_by_label("Points left in hand")).to_be_visible()

    cards_group(theirs, "Melded cards").get_by_label("Points melded").fill("400")
    left = cards_group(theirs, "Cards in hand")
    choose(left, "Count cards")
    expect(left.get_by_label("Points left in hand")).to_be_hidden()
    tap_count(left, "Jokers (jokers, 50)", 1)
    tap_count(left, "Low cards (7 6 5 4, 5)", 2)

    # 500 + 2x50 + 8x10 + 100 going out + 100 red three = 880; 300 + 400 - (50 + 2x5) = 640.
    expect(preview(page)).to_contain_text("Nadia & Olga: +880 (total 880)")
    expect(preview(page)).to_contain_text("Piero & Quim: +640 (total 640)")
    page.get_by_role("button", name="Save hand 1").tap()

    expect(page.get_by_role("status")).to_have_text("Hand 1 recorded.")
    expect_totals(page, 880, 640)
    expect_hand_rows(page, "1 +880 880 +640 640")
    page.get_by_role("link", name="Hand 1, dealt by Nadia: explanation").click()
    ours_lines = page.get_by_role("region", name="Nadia & Olga: +880")
    expect(
        ours_lines.get_by_role("row", name="Melded cards: 2 jokers x 50, 8 high cards x 10")
    ).to_contain_text("+180")
    expect(ours_lines.get_by_role("row", name="1 red three x 100")).to_contain_text("+100")
    theirs_lines = page.get_by_role("region", name="Piero & Quim: +640")
    expect(
        theirs_lines.get_by_role("row", name="Cards left in hand: 1 joker x 50, 2 low cards x 5")
    ).to_contain_text("-60")

    # Correcting it later opens the form the way the cards were entered: counted.
    page.get_by_role("link", name="Correct this hand").click()
    ours = side_group(page, "Nadia & Olga")
    melded = cards_group(ours, "Melded cards")
    expect(melded.get_by_role("radio", name="Count cards")).to_be_checked()
    expect(melded.get_by_role("spinbutton", name="Points melded")).to_be_hidden()
    expect(melded.get_by_role("spinbutton", name="Jokers (jokers, 50)")).to_have_value("2")
    expect(melded.get_by_role("spinbutton", name="High cards (K Q J 10 9 8, 10)")).to_have_value(
        "8"
    )
    expect(ours.get_by_role("spinbutton", name="Natural canastas", exact=True)).to_have_value("1")
    left = cards_group(side_group(page, "Piero & Quim"), "Cards in hand")
    expect(left.get_by_role("spinbutton", name="Jokers (jokers, 50)")).to_be_visible()
    expect(left.get_by_role("spinbutton", name="Points left in hand")).to_be_hidden()


def test_live_preview_follows_the_taps(page: Page, live_server: str):
    """Samba: the preview shows each side's hand score and new total, or why it is not valid."""
    match = api_match(live_server, "samba", [["Rafa", "Sara"], ["Teo", "Ugo"]])
    api_hand(
        live_server,
        match,
        {"went_out": True, "canastas": {"samba": 1, "natural": 1}, "meld_points": 600},
        {"canastas": {"mixed": 1}, "meld_points": 150, "hand_points": 60},
    )  # 2800 and 390
    open_record_form(page, live_server, match, 2)
    ours, theirs = side_group(page, "Rafa & Sara"), side_group(page, "Teo & Ugo")
    expect(page.get_by_role("group", name="Rafa & Sara (2,800 before this hand)")).to_be_visible()
    expect(page.get_by_role("group", name="Teo & Ugo (390 before this hand)")).to_be_visible()
    expect(preview(page)).to_be_hidden()

    choose(page, "Rafa & Sara")
    tap_count(ours, "Natural canastas", 1)
    ours.get_by_label("Points melded").fill("300")
    expect(preview(page)).to_contain_text("Not valid yet:")
    expect(preview(page)).to_contain_text(
        "Rafa & Sara cannot have gone out: Samba needs 2 canastas, 1 recorded"
    )
    check_page(page)

    tap_count(ours, "Sambas", 1)
    theirs.get_by_label("Points melded").fill("150")
    theirs.get_by_label("Points left in hand").fill("20")
    tap_count(theirs, "Red threes laid down", 1)
    body = page.locator("#preview-body")
    # 1500 + 500 + 300 + 200 going out; 150 - 20 - 100 (a red three with no canasta counts minus).
    expect(body.locator(":scope > p")).to_have_text("If saved now:")
    expect(body.locator(":scope > ul > li > strong")).to_have_text(
        ["Rafa & Sara: +2,500", "Teo & Ugo: +30"]
    )
    expect(body.locator(":scope > ul > li")).to_have_text(
        [
            re.compile(r"^Rafa & Sara: \+2,500 \(total 5,300\)"),
            re.compile(r"^Teo & Ugo: \+30 \(total 420\)"),
        ]
    )
    expect(body.locator(":scope > ul > li").first.locator("li")).to_have_text(
        [
            "1 natural canasta x 500: +500",
            "1 samba x 1,500: +1,500",
            "Melded cards: +300",
            "Going out: +200",
        ]
    )
    expect(body.locator(":scope > ul > li").nth(1).locator("li")).to_have_text(
        [
            "Melded cards: +150",
            "1 red three x 100, counted minus (fewer than 2 canastas): -100",
            "Cards left in hand: -20",
        ]
    )
    check_page(page)
    page.emulate_media(color_scheme="dark")
    check_page(page)

    # Back to one canasta: the preview says why again.
    tap_count(ours, "Sambas", 1)  # the chosen count again: none
    expect(body.locator(":scope > p")).to_have_text("Not valid yet:")
    expect(preview(page)).to_contain_text("Samba needs 2 canastas, 1 recorded")
    # A side that went out with one canasta cannot be saved either.
    page.get_by_role("button", name="Save hand 2").tap()
    expect(page.get_by_role("group", name="Who went out?").locator(".error")).to_have_text(
        "Rafa & Sara cannot have gone out: Samba needs 2 canastas, 1 recorded"
    )


def test_invalid_hand_keeps_the_entries_and_saves_nothing(page: Page, live_server: str):
    match = api_match(live_server, "classic", [["Vera", "Xena"], ["Walt", "Yuri"]])
    open_record_form(page, live_server, match)
    ours, theirs = side_group(page, "Vera & Xena"), side_group(page, "Walt & Yuri")
    choose(page, "Vera & Xena")  # went out without a canasta
    tap_count(ours, "Red threes laid down", 3)
    ours.get_by_label("Points melded").fill("120")
    tap_count(theirs, "Red threes laid down", 2)  # five red threes in a deck of four
    theirs.get_by_label("Points melded").fill("203")  # not a multiple of 5
    page.get_by_role("button", name="Save hand 1").tap()

    # The same form comes back with the messages.
    expect(page.get_by_role("heading", level=1)).to_contain_text("Hand 1")
    alert = page.get_by_role("alert")
    expect(alert.get_by_role("heading", name="Please check this")).to_be_visible()
    # Every problem is listed at the top, which has the focus; an input's links to it.
    expect(alert).to_be_focused()
    expect(alert.get_by_role("listitem")).to_have_text(
        [
            "The deck holds 4 red threes; 5 are recorded across all sides (laid down and in hand)",
            "Vera & Xena cannot have gone out: Classic Canasta needs 1 canasta, 0 recorded",
            "Walt & Yuri: Meld points must be a multiple of 5 (every card is worth a multiple"
            " of 5)",
        ]
    )
    expect(alert.get_by_role("link")).to_have_count(2)
    went_out = page.get_by_role("group", name="Who went out?")
    expect(went_out.locator(".error")).to_have_text(
        "Vera & Xena cannot have gone out: Classic Canasta needs 1 canasta, 0 recorded"
    )
    ours, theirs = side_group(page, "Vera & Xena"), side_group(page, "Walt & Yuri")
    meld = theirs.get_by_role("spinbutton", name="Points melded")
    expect(field_wrapper(meld).locator(".error")).to_have_text(
        "Walt & Yuri: Meld points must be a multiple of 5 (every card is worth a multiple of 5)"
    )
    expect(meld).to_have_attribute("aria-invalid", "true")
    expect(meld).to_have_accessible_description(
        "Walt & Yuri: Meld points must be a multiple of 5 (every card is worth a multiple of 5)"
    )
    # Only the fields with a problem carry one.
    expect(page.locator(".error")).to_have_count(2)

    # What was typed and tapped is still there.
    expect(page.get_by_role("radio", name="Vera & Xena", exact=True)).to_be_checked()
    expect(ours.get_by_role("spinbutton", name="Red threes laid down")).to_have_value("3")
    expect(ours.get_by_role("spinbutton", name="Points melded")).to_have_value("120")
    expect(theirs.get_by_role("spinbutton", name="Red threes laid down")).to_have_value("2")
    expect(meld).to_have_value("203")
    check_page(page)
    page.emulate_media(color_scheme="dark")
    check_page(page)
    page.emulate_media(color_scheme="light")

    # Nothing was saved: the scoreboard (here on a second tab) has no hand.
    board = page.context.new_page()
    board.goto(f"{live_server}/matches/{match}")
    expect(board.get_by_text("No hand recorded yet.")).to_be_visible()
    expect_totals(board, 0, 0)
    expect(board.get_by_role("link", name="Record hand 1", exact=True)).to_be_visible()
    board.close()

    # Fixing it on the same form saves it.
    meld.fill("200")
    tap_count(theirs, "Red threes laid down", 2)  # the chosen count again: none
    choose(page, "Nobody: the stock ran out")
    # Vera & Xena: 3 red threes without a canasta count minus: 120 - 300.
    expect(preview(page)).to_contain_text("Vera & Xena: -180 (total -180)")
    expect(preview(page)).to_contain_text("Walt & Yuri: +200 (total 200)")
    # Nobody holds a card: unlikely, so the form asks once more.
    assert save(page, "Save hand 1")
    expect(page.get_by_role("status")).to_have_text("Hand 1 recorded.")
    expect_hand_rows(page, "1 -180 -180 +200 200")


def test_the_save_bar_sums_up_the_preview(page: Page, live_server: str):
    """While tapping at the top of a long form, the sticky save bar shows each side's score."""
    match = api_match(live_server, "classic", [["Rhea", "Sven"], ["Tara", "Ugo"]])
    open_record_form(page, live_server, match)
    summary = page.locator("#preview-summary")
    expect(summary).to_be_hidden()
    choose(page, "Rhea & Sven")
    ours = side_group(page, "Rhea & Sven")
    tap_count(ours, "Natural canastas", 1)
    # A canasta without the cards it is made of cannot be.
    expect(summary).to_have_text("Not valid yet: see the preview below")
    ours.get_by_role("spinbutton", name="Points melded").fill("200")
    # 500 for the canasta + 200 melded + 100 for going out; the others have nothing yet.
    expect(summary).to_have_text("Rhea & Sven +800 · Tara & Ugo 0")
    expect(summary).to_be_in_viewport()


def test_going_back_after_saving_does_not_refill_the_next_hand(page: Page, live_server: str):
    """Back after a save shows the next hand's empty form, not the saved entries again."""
    match = api_match(live_server, "classic", [["Vera", "Wim"], ["Xena", "Yuri"]])
    open_record_form(page, live_server, match)
    choose(page, "Nobody: the stock ran out")
    ours = side_group(page, "Vera & Wim")
    ours.get_by_role("spinbutton", name="Points melded").fill("150")
    ours.get_by_role("spinbutton", name="Points left in hand").fill("10")
    theirs = side_group(page, "Xena & Yuri")
    theirs.get_by_role("spinbutton", name="Points left in hand").fill("20")
    assert not save(page, "Save hand 1")  # a usual hand: saved at once
    expect_hand_rows(page, "1 +140 140 -20 -20")
    page.go_back()
    expect(page.get_by_role("heading", level=1)).to_contain_text("Hand 2")
    again = side_group(page, "Vera & Wim").get_by_role("spinbutton", name="Points melded")
    expect(again).to_have_value("")
    expect(page.locator("input[name=out]:checked")).to_have_count(0)
