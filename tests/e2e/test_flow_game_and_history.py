"""A whole match to its winner, and finding finished matches in the history."""

from __future__ import annotations

import re

from playwright.sync_api import Page, expect

from .checks import check_page
from .flows import (
    api_hand,
    api_match,
    expect_hand_rows,
    expect_totals,
    record_hand,
    save,
    start_match,
)


def test_playing_a_match_to_the_end(page: Page, live_server: str):
    start_match(
        page,
        live_server,
        "Classic Canasta for two",
        ["Zelda", "Yves"],
        first_dealer="Player 2",
        options={"Target score": "1500"},
    )
    expect(page.get_by_text("0% of 1,500")).to_have_count(2)
    hands = [
        # The stock ran out: 300 - 20 and 200.
        ("Nobody", [{"meld_points": 300, "hand_points": 20}, {"meld_points": 200}]),
        # Again: 300 + 350 and 100 - 45.
        (
            "Nobody",
            [{"canasta_mixed": 1, "meld_points": 350}, {"meld_points": 100, "hand_points": 45}],
        ),
        # Yves goes out with two natural canastas: 1000 + 450 + 100; Zelda 150 - 60.
        (
            "Yves",
            [{"meld_points": 150, "hand_points": 60}, {"canasta_natural": 2, "meld_points": 450}],
        ),
    ]
    dealers = ["Yves", "Zelda", "Yves"]  # one seat clockwise each hand
    for number, ((out, sides), dealer) in enumerate(zip(hands, dealers, strict=True), start=1):
        expect(page.get_by_text(f"Hand {number}: {dealer} deals.")).to_be_visible()
        record_hand(page, out, sides, save=False)
        expect(page.get_by_text(f"{dealer} dealt this hand.")).to_be_visible()
        save(page, f"Save hand {number}")
        expect(page.get_by_role("status").filter(has_text="recorded")).to_have_text(
            f"Hand {number} recorded."
        )
    expect_hand_rows(
        page,
        "1 +280 280 +200 200",
        "2 +650 930 +55 255",
        "3 +90 1,020 +1,550 1,805",
    )
    for number, dealer in enumerate(dealers, start=1):
        expect(
            page.get_by_role("link", name=f"Hand {number}, dealt by {dealer}: explanation")
        ).to_be_visible()

    banner = page.locator(".banner.win")
    expect(banner.get_by_role("heading", name="Yves wins")).to_be_visible()
    expect(banner).to_contain_text("Game over after 3 hands: 1,805 points, target 1,500.")
    expect_totals(page, 1020, 1805)
    expect(page.get_by_role("link", name=re.compile("^Record hand"))).to_have_count(0)
    expect(page.get_by_text(re.compile(r"^Hand 4: .* deals\.$"))).to_have_count(0)
    expect(page.get_by_text("Next initial meld")).to_have_count(0)
    check_page(page)

    # Going to the record form anyway (an old bookmark) leads back with a message.
    page.goto(page.url + "/hands/new")
    expect(page.get_by_role("status").first).to_have_text(
        "The game is over: no more hands can be recorded."
    )
    expect(banner.get_by_role("heading", name="Yves wins")).to_be_visible()

    # The home page lists it as finished, no longer in progress.
    page.get_by_role("link", name="Scorekeeper", exact=True).click()
    finished = page.get_by_role("region", name="Recently finished")
    expect(finished.get_by_role("link").filter(has_text="Zelda 1,020")).to_contain_text(
        "Won by Yves"
    )
    playing = page.get_by_role("region", name="In progress")
    expect(playing.get_by_role("link").filter(has_text="Zelda")).to_have_count(0)


def test_history_filters(page: Page, live_server: str):
    short = {"options": {"target": 500}}
    out_two = {"went_out": True, "canastas": {"natural": 2}, "meld_points": 200}  # 1300
    first = api_match(live_server, "classic-2p", [["Iris"], ["Jude"]], **short)
    api_hand(live_server, first, out_two, {"meld_points": 50})
    second = api_match(live_server, "classic-2p", [["Kai"], ["Iris"]], **short)
    api_hand(live_server, second, out_two, {"meld_points": 100, "hand_points": 30})
    out_one = {"went_out": True, "canastas": {"mixed": 1}, "meld_points": 100}  # 500
    third = api_match(live_server, "classic-3p", [["Jude"], ["Kai"], ["Iris"]], **short)
    api_hand(live_server, third, out_one, {"meld_points": 60}, {"hand_points": 15})
    playing = api_match(live_server, "classic-2p", [["Iris"], ["Kai"]], **short)
    api_hand(live_server, playing, {"meld_points": 100}, {"meld_points": 50})

    page.goto(live_server + "/")
    page.get_by_role("link", name="History", exact=True).click()
    expect(page.get_by_role("heading", name="Finished matches")).to_be_visible()
    cards = page.locator("ul.matches > li")

    page.get_by_label("Player").select_option("Jude")
    page.get_by_role("button", name="Show").tap()
    expect(page.get_by_text("2 matches with Jude.")).to_be_visible()
    expect(page.get_by_label("Player")).to_have_value("Jude")
    # Newest first: the three-player game, then Iris against Jude.
    expect(cards).to_have_text(
        [
            re.compile(r"^Classic Canasta for three\s*Jude 500\s*Kai 60\s*Iris -15\s*Won by Jude"),
            re.compile(r"^Classic Canasta for two\s*Iris 1,300\s*Jude 50\s*Won by Iris"),
        ],
        use_inner_text=True,
    )

    page.get_by_label("Player").select_option("Iris")
    page.get_by_label("Game").select_option(label="Classic Canasta for two")
    page.get_by_role("button", name="Show").tap()
    expect(page.get_by_text("2 matches with Iris.")).to_be_visible()
    expect(page.get_by_label("Game")).to_have_value("classic-2p")
    # The match still being played is not history.
    expect(cards).to_have_text(
        [
            re.compile(r"^Classic Canasta for two\s*Kai 1,300\s*Iris 70\s*Won by Kai"),
            re.compile(r"^Classic Canasta for two\s*Iris 1,300\s*Jude 50\s*Won by Iris"),
        ],
        use_inner_text=True,
    )

    page.get_by_label("Player").select_option("Kai")
    page.get_by_label("Game").select_option(label="Classic Canasta for three")
    page.get_by_role("button", name="Show").tap()
    expect(page.get_by_text("1 match with Kai.")).to_be_visible()
    expect(cards).to_have_count(1)
    check_page(page)

    cards.first.get_by_role("link").click()
    expect(page.get_by_role("heading", name="Jude wins")).to_be_visible()
    expect(page.get_by_text("Seats clockwise: Jude, Kai, Iris")).to_be_visible()
    expect_totals(page, 500, 60, -15)
