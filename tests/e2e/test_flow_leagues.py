"""A season on a phone: a league page that follows a new result by itself, a player's
rating card, and each side's chance to win on the new-match page."""

from __future__ import annotations

import re

from playwright.sync_api import Page, expect

from scorekeeper.services import accounts, groups
from scorekeeper.services.storage import transaction
from tests.support import TESTER

from .checks import check_page
from .flows import api, api_hand, api_match

OUT = {"went_out": True, "canastas": {"natural": 2}, "meld_points": 300}
HELD = {"hand_points": 30}


def won(base: str, first: str, second: str, **extra: object) -> int:
    options = {"target": 1000}
    match_id = api_match(base, "classic-2p", [[first], [second]], options=options, **extra)
    api_hand(base, match_id, OUT, HELD)
    return match_id


def test_a_league_page_follows_a_new_result_by_itself(page: Page, live_server):
    with live_server.app.app_context(), transaction():
        club = groups.create_group(accounts.find_user(TESTER), "Winter club").id
    won(live_server, "Ilse", "Jorge", group=club)
    won(live_server, "Jorge", "Kalani", group=club)
    won(live_server, "Jorge", "Ilse", group=club)
    body = {"name": "Winter league", "start": "2000-01-01", "end": "2999-12-31", "group": club}
    league = api(live_server, "POST", "/api/v1/leagues", {**body, "scoring": "wdl"})
    page.goto(f"{live_server}/groups/{club}/leagues/{league['id']}")
    expect(page.get_by_role("heading", name="Winter league", level=1)).to_be_visible()
    table = page.get_by_role("table", name="Standings")
    jorge = table.get_by_role("row", name=re.compile(r"Jorge"))
    # Rank, (player), points, evenings, rating, then the evening's points.
    expect(jorge.get_by_role("cell").nth(0)).to_have_text("1")
    expect(jorge.get_by_role("cell").nth(1)).to_have_text("4")
    check_page(page)
    # A match finishes elsewhere: the open page shows it within 3 seconds, untouched.
    won(live_server, "Lorna", "Ilse", group=club)
    lorna = table.get_by_role("row", name=re.compile(r"Lorna"))
    expect(lorna).to_be_visible(timeout=3000)
    expect(page.locator("#live-state")).to_have_text("live: new results appear by themselves")
    lorna.get_by_role("link", name="Lorna").click()
    expect(page.get_by_role("heading", name=re.compile("^Lorna"), level=1)).to_be_visible()
    expect(page.get_by_text(re.compile(r"won \(2\): Lorna . Ilse"))).to_be_visible()
    check_page(page)


def test_a_players_rating_card(page: Page, live_server: str):
    for _ in range(3):
        won(live_server, "Mireille", "Nandor")
    players = api(live_server, "GET", "/api/v1/players")["players"]
    mireille = next(p for p in players if p["name"] == "Mireille")
    rating = api(live_server, "GET", f"/api/v1/players/{mireille['id']}/rating")["ratings"][0]
    page.goto(f"{live_server}/groups/{mireille['group']}/players/{mireille['id']}")
    card = page.get_by_role("region", name="Rating")
    expect(card).to_contain_text(
        f"Canasta: rating {rating['rating']:.1f} (we are fairly sure it is at least this), "
        "from 3 matches (provisional: fewer than 10 matches)"
    )
    check_page(page)


def test_the_new_match_page_gives_each_sides_chance_to_win(page: Page, live_server: str):
    for _ in range(2):
        won(live_server, "Oskar", "Petra")
    page.goto(f"{live_server}/matches/new/classic-2p")
    chances = page.locator("#chances")
    page.get_by_role("combobox", name="Player 1").fill("Oskar")
    expect(chances).to_be_empty()  # a seat is still empty
    page.get_by_role("combobox", name="Player 2").fill("Petra")
    expect(chances).to_contain_text("Chance to win, from the players' ratings:")
    text = chances.inner_text()
    oskar, petra = (int(n) for n in re.findall(r"(\d+)%", text))
    assert oskar > petra
    assert 99 <= oskar + petra <= 101
    check_page(page)
    page.get_by_role("combobox", name="Player 2").fill("Quentin")  # no rating yet: nothing is said
    expect(chances).to_be_empty()
