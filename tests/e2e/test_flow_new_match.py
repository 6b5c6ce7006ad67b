"""Starting a match of each table layout, as the scorer does it on the phone."""

from __future__ import annotations

import re

from playwright.sync_api import Page, expect

from .flows import side_card


def open_new_match(page: Page, base: str, game: str) -> None:
    page.goto(base + "/")
    page.get_by_role("link", name="New match").click()
    expect(page.get_by_role("heading", name="New match: which game?")).to_be_visible()
    page.get_by_role("link").filter(has=page.get_by_text(game, exact=True)).click()
    expect(page.get_by_role("heading", name=f"New match: {game}", exact=True)).to_be_visible()


def fill_seats(page: Page, seats: dict[str, str]) -> None:
    for label, name in seats.items():
        page.get_by_role("combobox", name=label, exact=True).fill(name)


def deals_first(page: Page, seat_label: str) -> None:
    """Choose the first dealer by seat ("Team 2, player 2"), named or not yet."""
    seat = re.compile(rf"(^|\(){re.escape(seat_label)}\)?$")
    page.get_by_role("group", name="Deals first").get_by_role("radio", name=seat).tap()


def start(page: Page) -> None:
    page.get_by_role("button", name="Start the match").tap()
    expect(page.get_by_role("link", name="Record hand 1", exact=True)).to_be_visible()


def expect_fresh_scoreboard(page: Page, game: str, sides: list[str], target: int, meld: str | None):
    """`meld` is each side's first initial-meld minimum, or None for a game without any."""
    expect(page.get_by_role("heading", level=1)).to_contain_text(game)
    headings = page.get_by_role("region", name="Totals").get_by_role("heading", level=2)
    expect(headings).to_have_text(sides)
    for name in sides:
        card = side_card(page, name)
        expect(card.locator(".total")).to_have_text("Total: 0")
        expect(card.get_by_text("Level", exact=True)).to_be_visible()
        if meld is None:
            expect(card.get_by_text("Next initial meld:")).to_have_count(0)
        else:
            expect(card.get_by_text("Next initial meld:")).to_have_text(
                f"Next initial meld: {meld}"
            )
        expect(card.get_by_text(f"0% of {target:,}", exact=True)).to_be_visible()
    expect(page.get_by_text("No hand recorded yet.")).to_be_visible()


def test_classic_for_two_partnerships(page: Page, live_server: str):
    open_new_match(page, live_server, "Classic Canasta")
    # One layout only: no layout links.
    expect(page.get_by_role("navigation", name="Table layout")).to_have_count(0)
    expect(page.get_by_text("Partners sit opposite each other")).to_be_visible()
    fill_seats(
        page,
        {
            "Team 1, player 1": "Ada",
            "Team 2, player 1": "Bruno",
            "Team 1, player 2": "Cleo",
            "Team 2, player 2": "Dario",
        },
    )
    page.get_by_label("Team 2 name (optional)").fill("The Owls")
    deals_first(page, "Team 2, player 2")
    start(page)

    expect_fresh_scoreboard(page, "Classic Canasta", ["Ada & Cleo", "The Owls"], 5000, "50 points")
    expect(side_card(page, "The Owls").get_by_text("Bruno & Dario")).to_be_visible()
    expect(page.get_by_text("Hand 1: Dario deals.")).to_be_visible()
    expect(page.get_by_text("Seats clockwise: Ada, Bruno, Cleo, Dario")).to_be_visible()


def test_classic_for_two_players(page: Page, live_server: str):
    open_new_match(page, live_server, "Classic Canasta for two")
    expect(page.get_by_text("Partners sit opposite each other")).to_have_count(0)
    expect(page.get_by_label("Team 1 name (optional)")).to_have_count(0)
    fill_seats(page, {"Player 1": "Elena", "Player 2": "Fabio"})
    deals_first(page, "Player 2")
    start(page)

    expect_fresh_scoreboard(page, "Classic Canasta for two", ["Elena", "Fabio"], 5000, "50 points")
    expect(page.get_by_text("Hand 1: Fabio deals.")).to_be_visible()
    expect(page.get_by_text("Seats clockwise: Elena, Fabio")).to_be_visible()


def test_classic_for_three_players(page: Page, live_server: str):
    open_new_match(page, live_server, "Classic Canasta for three")
    fill_seats(page, {"Player 1": "Gaia", "Player 2": "Hugo", "Player 3": "Ines"})
    # The first seat deals unless someone else is chosen.
    expect(page.get_by_role("radio", name="Gaia (Player 1)", exact=True)).to_be_checked()
    start(page)

    sides = ["Gaia", "Hugo", "Ines"]
    expect_fresh_scoreboard(page, "Classic Canasta for three", sides, 5000, "50 points")
    expect(page.get_by_text("Hand 1: Gaia deals.")).to_be_visible()
    expect(page.get_by_text("Seats clockwise: Gaia, Hugo, Ines")).to_be_visible()


def test_burraco_switched_to_partnerships(page: Page, live_server: str):
    open_new_match(page, live_server, "Burraco")
    layouts = page.get_by_role("navigation", name="Table layout")
    alone = layouts.get_by_role("link", name="2 players, each on their own")
    teams = layouts.get_by_role("link", name="2 partnerships of 2")
    expect(alone).to_have_attribute("aria-current", "page")
    expect(page.get_by_role("combobox", name="Player 2", exact=True)).to_be_visible()

    teams.tap()
    expect(teams).to_have_attribute("aria-current", "page")
    expect(alone).not_to_have_attribute("aria-current", "page")
    expect(page.get_by_role("combobox", name="Player 2", exact=True)).to_have_count(0)
    fill_seats(
        page,
        {
            "Team 1, player 1": "Jacopo",
            "Team 2, player 1": "Katia",
            "Team 1, player 2": "Livio",
            "Team 2, player 2": "Marta",
        },
    )
    deals_first(page, "Team 2, player 1")
    start(page)

    # Burraco has no initial meld minimum; the scoreboard says so once, not on each card.
    expect_fresh_scoreboard(page, "Burraco", ["Jacopo & Livio", "Katia & Marta"], 2005, None)
    expect(page.get_by_text("No initial-meld minimum in Burraco.")).to_have_count(1)
    expect(page.get_by_text("Hand 1: Katia deals.")).to_be_visible()
    expect(page.get_by_text("Seats clockwise: Jacopo, Katia, Livio, Marta")).to_be_visible()
    # The record form has two partnerships and the Burraco names of the melds.
    page.get_by_role("link", name="Record hand 1").click()
    expect(page.get_by_role("group", name=re.compile(r"^Jacopo & Livio \("))).to_be_visible()
    expect(page.get_by_role("group", name=re.compile(r"^Katia & Marta \("))).to_be_visible()
    expect(page.get_by_label("Clean burracos", exact=True)).to_have_count(2)
    expect(page.get_by_label("Took the extra hand (pozzetto)", exact=True)).to_have_count(2)


def test_deals_first_names_the_players_as_they_are_typed(page: Page, live_server: str):
    open_new_match(page, live_server, "Classic Canasta for three")
    choices = page.get_by_role("group", name="Deals first").get_by_role("radio")
    expect(choices).to_have_count(3)
    page.get_by_role("combobox", name="Player 2", exact=True).fill("Gemma")
    radio = page.get_by_role("group", name="Deals first").get_by_role(
        "radio", name="Gemma (Player 2)"
    )
    expect(radio).to_have_count(1)
    radio.tap()
    page.get_by_role("combobox", name="Player 1", exact=True).fill("Fritz")
    page.get_by_role("combobox", name="Player 3", exact=True).fill("Hanne")
    start(page)
    expect(page.get_by_text("Hand 1: Gemma deals.")).to_be_visible()
