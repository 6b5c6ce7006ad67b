"""A club night in the browser: a director makes an 8-pair Danish event of 3 rounds on a
phone, prints the table cards, four table phones score their hands through the scorer
links, the projector view (1920x1080) follows the standings live, the director corrects
a hand and starts the next round. Every event page passes the checks (axe, tap targets,
no sideways scroll) at its size."""

from __future__ import annotations

import re
import time

import pytest
from playwright.sync_api import Browser, Page, expect

from .checks import check_page
from .conftest import phone_context
from .flows import record_hand

pytestmark = pytest.mark.xdist_group("event-night")
PAIRS = [(f"Ada{n}", f"Ben{n}") for n in range(1, 9)]
PROJECTOR = {"width": 1920, "height": 1080}


def hand(first: int, second: int) -> list[dict[str, int]]:
    """A hand with nobody out: each side melds its score plus what it holds."""
    return [
        {"meld_points": first + 20, "hand_points": 20},
        {"meld_points": second + 10, "hand_points": 10},
    ]


def local(base: str, url: str) -> str:
    """A link as the server gives it (its LAN address) on this test's server."""
    return base + "/" + url.split("://", 1)[1].split("/", 1)[1]


def make_event(page: Page, base: str) -> str:
    page.goto(base + "/groups")
    page.locator("main a", has_text="Tess").first.click()
    page.get_by_role("link", name="Events", exact=True).click()
    check_page(page)
    page.get_by_role("link", name="New event").click()
    check_page(page)
    page.locator(".preset-name", has_text=re.compile("^Classic Canasta$")).click()
    check_page(page)
    page.get_by_label("Name of the event").fill("Thursday cup")
    page.get_by_label("Deals per round").fill("2")
    page.get_by_label("Rounds").fill("3")
    expect(page.get_by_label("Movement")).to_have_value("danish")
    for row, (first, second) in enumerate(PAIRS):
        page.locator(f"input[name=p{row}_0]").fill(first)
        page.locator(f"input[name=p{row}_1]").fill(second)
    page.get_by_role("button", name="Make the event").click()
    expect(page.get_by_role("heading", name="8 entries")).to_be_visible()
    check_page(page)
    page.get_by_role("link", name="Change the entries").click()
    check_page(page)
    page.get_by_role("link", name="Thursday cup").click()
    return page.url


def test_a_club_night_from_the_first_round_to_the_second(
    browser: Browser, tester_state: str, live_server: str, page: Page
):
    director = page
    event_url = make_event(director, live_server)
    director.get_by_role("button", name="Start round 1").click()
    expect(director.get_by_text("Round 1 has started")).to_be_visible()
    expect(director.locator("table.tables tbody tr")).to_have_count(4)
    expect(director.get_by_text("4 tables are still playing")).to_be_visible()
    check_page(director)

    # The table cards: four to one A4 sheet, each with its table's scorer link.
    director.get_by_role("link", name="Table cards").click()
    cards = director.locator("section.table-card")
    expect(cards).to_have_count(4)
    check_page(director)
    director.emulate_media(media="print")
    pdf = director.pdf(format="A4")
    director.emulate_media(media="screen")
    assert len(re.findall(rb"/Type\s*/Page[^s]", pdf)) == 1
    links = [local(live_server, text) for text in cards.locator("figcaption").all_inner_texts()]
    director.get_by_role("link", name="Show on a phone").nth(2).click()
    expect(director.get_by_role("heading", name="Table 3 round 1")).to_be_visible()
    check_page(director)

    # Viewer link for the players' phones and the projector.
    director.goto(event_url)
    director.get_by_role("link", name="Viewer links").click()
    director.get_by_role("button", name="New viewer link").click()
    check_page(director)
    viewer_url = local(live_server, director.locator(".share-link figcaption a").inner_text())
    screen = browser.new_context(viewport=PROJECTOR).new_page()
    screen.goto(viewer_url)
    expect(screen.get_by_role("heading", name="Standings of Thursday cup")).to_be_visible()
    check_page(screen)
    screen.get_by_role("link", name="Projector view").click()
    board = screen.locator("ol.proj li")
    expect(board).to_have_count(8)
    expect(screen.locator(".proj-tables")).to_have_text("Still playing: tables 1, 2, 3, 4")
    check_page(screen)
    assert screen.evaluate("document.documentElement.scrollHeight <= innerHeight")

    # Four table phones score through their scorer links: table 1 of pairs 1 and 2 first.
    tables = []
    for link in links:
        phone = phone_context(browser).new_page()
        phone.goto(link)
        expect(phone.get_by_role("link", name="Record hand 1")).to_be_visible()
        tables.append(phone)
    scores = [(300, 100), (200, 200), (450, 150), (250, 300)]
    for phone, (first, second) in zip(tables, scores, strict=True):
        record_hand(phone, "Nobody", hand(first, second))
        expect(phone.get_by_role("status").filter(has_text="recorded")).to_have_text(
            "Hand 1 recorded."
        )
    record_hand(tables[0], "Nobody", hand(400, 100))
    saved = time.monotonic()
    # Table 1 is over: 700 to 200, 14 VP to 6. The projector shows it within 3 seconds.
    expect(board.first).to_contain_text("1. Ada1 & Ben1", timeout=3_000)
    expect(board.first).to_contain_text("14")
    assert time.monotonic() - saved < 3.5
    expect(screen.locator(".proj-tables")).to_have_text("Still playing: tables 2, 3, 4")
    for phone, (first, second) in zip(tables[1:], scores[1:], strict=True):
        record_hand(phone, "Nobody", hand(first, second))
        expect(phone.get_by_role("status").filter(has_text="recorded")).to_have_text(
            "Hand 2 recorded."
        )
        expect(phone.get_by_role("link", name=re.compile("^Record hand"))).to_have_count(0)

    # The director's page followed along; the director corrects table 2's first hand.
    director.goto(event_url)
    expect(director.get_by_role("button", name="Start round 2")).to_be_visible()
    director.get_by_role("link", name="Table 2, hand 1").click()
    director.get_by_role("link", name="Correct this hand").click()
    director.locator("#s0_meld_points").fill("520")
    director.get_by_role("button", name="Save the correction").click()
    # The drawn table now has a winner: the page asks before saving that.
    expect(director.get_by_role("alert")).to_contain_text("Ada3 & Ben3 wins")
    director.get_by_role("button", name="Yes, save the correction").click()
    expect(director.get_by_role("status").filter(has_text="corrected")).to_be_visible()
    # Table 2 was drawn 400 to 400 (10 VP each: pair 3 fourth, behind pair 8's 11); now
    # 700 to 400 (difference 300: 13 to 7), pair 3 is third, after pairs 5 (15) and 1 (14).
    expect(board.nth(2)).to_contain_text("3. Ada3 & Ben3", timeout=3_000)
    expect(board.nth(2)).to_contain_text("13")
    director.goto(event_url)
    director.get_by_role("button", name="Start round 2").click()
    expect(director.get_by_role("heading", name="Round 2 of 3")).to_be_visible()
    expect(director.locator("table.tables tbody tr")).to_have_count(4)
    expect(screen.locator(".proj-round")).to_have_text("Round 2 of 3", timeout=3_000)

    # The standings and an entry's card on a player's phone, through the viewer link.
    player = phone_context(browser).new_page()
    player.goto(viewer_url)
    check_page(player)
    player.get_by_role("link", name="3. Ada3 & Ben3").click()
    expect(player.locator("tbody tr").first).to_contain_text("4. Ada4 & Ben4")
    check_page(player)
    assert player.goto(event_url).status == 403  # not the director's page
    for phone in [*tables, screen, player]:
        phone.context.close()


def test_the_projector_shows_40_entries_on_1920x1080_without_scrolling(
    browser: Browser, tester_state: str, live_server: str
):
    """A club's big night: 40 pairs with long names, round 1 under way; every entry is on
    the screen at once, one line each (long names cut short), nothing to scroll."""
    screen = browser.new_context(viewport=PROJECTOR, storage_state=tester_state)
    entries = [
        {"name": f"Pair {n} Annabelle Rossi-Bianchi & Bartholomew Verdi-Esposito",
         "players": [f"Annabelle Rossi-{n}", f"Bartholomew Verdi-{n}"]}
        for n in range(1, 41)
    ]  # fmt: skip
    body = {"name": "Thursday club cup", "variant": "burraco", "rounds": 4, "entries": entries}
    made = screen.request.post(live_server + "/api/v1/events", data=body)
    assert made.status == 201, made.text()
    event = made.json()["id"]
    assert screen.request.post(f"{live_server}/api/v1/events/{event}/rounds").status == 201
    page = screen.new_page()
    page.goto(f"{live_server}/events/{event}/projector")
    rows = page.locator("ol.proj li")
    expect(rows).to_have_count(40)
    expect(page.locator(".proj-round")).to_have_text("Round 1 of 4")
    check_page(page)
    assert page.evaluate("document.documentElement.scrollHeight <= innerHeight")
    boxes = [rows.nth(i).bounding_box() for i in range(40)]
    assert all(box is not None for box in boxes)
    assert all(box["y"] >= 0 and box["y"] + box["height"] <= 1080 for box in boxes)
    assert all(box["x"] >= 0 and box["x"] + box["width"] <= 1920 for box in boxes)
    assert len({round(box["height"]) for box in boxes}) == 1  # one line each
    # The ranking printed: the table of 40 rows, without buttons, links to make or QR codes.
    page.goto(f"{live_server}/events/{event}/standings")
    check_page(page)
    page.emulate_media(media="print")
    expect(page.locator("table.standings tbody tr")).to_have_count(40)
    expect(page.locator("table.standings")).to_be_visible()
    for hidden in (".actions", ".refresh", ".no-print", "header.bar"):
        expect(page.locator(hidden).first).to_be_hidden()
    pdf = page.pdf(format="A4")
    assert 1 <= len(re.findall(rb"/Type\s*/Page[^s]", pdf)) <= 3
    screen.close()
