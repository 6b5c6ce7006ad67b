"""Looking back at a phone's size: the statistics page, a chart light and dark, and a
history search whose filters are in the URL."""

from __future__ import annotations

import re
from urllib.parse import parse_qs, urlsplit

import pytest
from playwright.sync_api import Browser, Page, expect

from .checks import check_page
from .conftest import phone_context
from .flows import api_hand, api_match

# Classic for two to 1000: going out with two natural canastas and 300 melded is
# 1400, the other side holding 30 is -30: the match is over.
OUT = {"went_out": True, "canastas": {"natural": 2}, "meld_points": 300}
HELD = {"hand_points": 30}


def finished(base: str, first: str, second: str, winner: int) -> int:
    match_id = api_match(base, "classic-2p", [[first], [second]], options={"target": 1000})
    api_hand(base, match_id, *([OUT, HELD] if winner == 0 else [HELD, OUT]))
    return match_id


def test_the_statistics_page_filtered_through_its_form(page: Page, live_server: str):
    finished(live_server, "Odalys", "Peregrin", 0)
    finished(live_server, "Peregrin", "Odalys", 1)
    finished(live_server, "Odalys", "Seraphine", 1)
    page.goto(live_server + "/history")
    page.get_by_role("link", name="Tess's games").click()
    expect(page.get_by_role("heading", name="Statistics", level=1)).to_be_visible()
    page.get_by_label("Matches of").select_option("Odalys")
    page.get_by_label("Head to head against").select_option("Peregrin")
    page.get_by_role("button", name="Show").click()
    assert parse_qs(urlsplit(page.url).query)["player"] == ["Odalys"]
    expect(
        page.get_by_text("2 matches on opposite sides: Odalys won 2, Peregrin won 0")
    ).to_be_visible()
    results = page.get_by_role("table", name="Results").first
    quinn = results.get_by_role("row", name=re.compile("^Odalys"))
    # Played, won, drawn, lost, win rate, streak now (longest).
    expect(quinn.get_by_role("cell")).to_have_text(["3", "2", "0", "1", "67%", "0 (2)"])
    check_page(page)
    quinn.get_by_role("link", name="Odalys").click()
    expect(page.get_by_role("heading", name="Odalys", level=1)).to_be_visible()
    chart = page.get_by_role("img", name=re.compile("^Odalys: wins minus losses"))
    expect(chart).to_be_visible()


def colours(page: Page) -> dict[str, str]:
    return page.evaluate(
        """() => {
          const svg = document.querySelector('svg.chart');
          const line = svg.querySelector('polyline.s0');
          const label = svg.querySelector('text');
          return {
            line: getComputedStyle(line).stroke,
            other: getComputedStyle(svg.querySelector('polyline.s1')).stroke,
            label: getComputedStyle(label).fill,
            page: getComputedStyle(document.body).backgroundColor,
            text: getComputedStyle(document.body).color,
          };
        }"""
    )


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_the_running_totals_chart_follows_the_colour_scheme(
    browser: Browser, tester_state: str, live_server: str, scheme: str
):
    match_id = api_match(live_server, "classic", [["Tom", "Uma"], ["Val", "Wes"]])
    for points in (120, 90, 200):
        api_hand(live_server, match_id, {"meld_points": points}, {"meld_points": 150})
    context = phone_context(browser, storage_state=tester_state, color_scheme=scheme)
    try:
        page = context.new_page()
        page.goto(f"{live_server}/matches/{match_id}")
        chart = page.get_by_role("img", name="Running totals, hand by hand")
        expect(chart).to_be_visible()
        assert chart.bounding_box()["width"] > 300  # as wide as the phone allows
        expect(page.locator("svg.chart polyline")).to_have_count(2)
        seen = colours(page)
        # The labels take the page's text colour; the two lines differ from each other
        # and from the page behind them.
        assert seen["label"] == seen["text"]
        assert len({seen["line"], seen["other"], seen["page"]}) == 3
        dark_page = seen["page"] == "rgb(14, 16, 19)"
        assert dark_page == (scheme == "dark")
        legend = page.locator(".legend li")
        expect(legend).to_have_text(["Tom & Uma", "Val & Wes"])
        check_page(page)
    finally:
        context.close()


def test_a_history_search_is_in_the_url_and_survives_a_reload(page: Page, live_server: str):
    won = finished(live_server, "Ysolde", "Zephyrine", 0)
    finished(live_server, "Zephyrine", "Ysolde", 0)
    page.goto(live_server + "/history")
    page.get_by_label("Player").select_option("Ysolde")
    page.get_by_text("More filters").click()
    page.get_by_label("Result").select_option("won")
    page.get_by_label("Order").select_option("oldest")
    page.get_by_role("button", name="Show").click()
    query = parse_qs(urlsplit(page.url).query)
    assert query == {"player": ["Ysolde"], "result": ["won"], "sort": ["oldest"]}
    expect(page.get_by_text("1 match with Ysolde, won.")).to_be_visible()
    cards = page.locator("a.match-card")
    expect(cards).to_have_count(1)
    expect(cards.first).to_have_attribute("href", f"/matches/{won}")
    shared = page.url
    page.goto(live_server + "/")
    page.goto(shared)  # a link someone shared opens the same search
    expect(page.get_by_label("Result")).to_have_value("won")
    expect(cards).to_have_count(1)
    check_page(page)
    page.goto(live_server + "/history?result=won")
    expect(page.locator("#result-error")).to_have_text("Choose whose matches to see them won")
