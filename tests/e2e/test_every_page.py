"""Every page, light and dark, at a phone's size: axe finds nothing serious, every
tap target is at least 44x44 CSS px, and nothing scrolls sideways."""

from __future__ import annotations

from collections.abc import Callable, Iterator

import pytest
from playwright.sync_api import Browser, Page

from scorekeeper.models import LinkRole
from scorekeeper.services import accounts, groups, leagues, sharing
from scorekeeper.services.league_tables import league_table
from scorekeeper.services.storage import transaction
from tests.support import TESTER

from .checks import check_page
from .conftest import phone_context
from .flows import api

pytestmark = pytest.mark.xdist_group("every-page")  # one worker makes the matches once
PAIR = [{"name": "", "players": ["Ann", "Cid"]}, {"name": "", "players": ["Bob", "Dee"]}]


@pytest.fixture(scope="module")
def urls(live_server: str) -> dict[str, str]:
    """A match in progress, a finished one and a tied one, made through the API."""
    playing = api(live_server, "POST", "/api/v1/matches", {"variant": "samba", "sides": PAIR})
    mid = playing["id"]
    samba_hand = {
        "sides": [
            {"went_out": True, "canastas": {"samba": 1, "natural": 1}, "meld_points": 600},
            {"canastas": {"mixed": 1}, "meld_points": 150, "hand_points": 60},
        ]
    }
    api(live_server, "POST", f"/api/v1/matches/{mid}/hands", samba_hand)
    correction = {"sides": [samba_hand["sides"][0], {"meld_points": 200, "hand_points": 10}]}
    api(live_server, "PUT", f"/api/v1/matches/{mid}/hands/1", correction)
    api(live_server, "POST", f"/api/v1/matches/{mid}/hands", samba_hand)
    short = {"variant": "classic-2p", "options": {"target": 500}}
    players = [{"players": ["Eve"]}, {"players": ["Fay"]}]
    done = api(live_server, "POST", "/api/v1/matches", {**short, "sides": players})["id"]
    out = {"went_out": True, "canastas": {"natural": 2}, "meld_points": 200}
    api(live_server, "POST", f"/api/v1/matches/{done}/hands", {"sides": [out, {}]})
    tied = api(live_server, "POST", "/api/v1/matches", {**short, "sides": players})["id"]
    even = {"meld_points": 500}
    api(live_server, "POST", f"/api/v1/matches/{tied}/hands", {"sides": [even, even]})
    fournier = {"variant": "samba-fournier", "sides": PAIR}
    penalties = api(live_server, "POST", "/api/v1/matches", fournier)["id"]
    burraco = {"variant": "burraco", "sides": [{"players": ["Gus"]}, {"players": ["Hal"]}]}
    single = api(live_server, "POST", "/api/v1/matches", burraco)["id"]
    season = {"name": "Season", "start": "2000-01-01", "end": "2999-12-31", "scoring": "wdl"}
    league = api(live_server, "POST", "/api/v1/leagues", {**season, "best_of": 2})["id"]
    with live_server.app.app_context(), transaction():
        tester = accounts.find_user(TESTER)
        group = groups.personal_group(tester)
        invite = groups.new_invite(group, tester).token
        sharing.new_link(mid, LinkRole.VIEWER, tester)
        group_id = group.id
        eve = next(p.id for p in groups.players(group_id) if p.name == "Eve")
        table = league_table(leagues.league_in([group_id], league))
        fay = next(p.id for p in groups.players(group_id) if p.name == "Fay")
        evening = table.evenings[0]
        leagues.add_credit(table.league, evening, eve, fay, table.played, tester)
        viewer = leagues.new_link(table.league, tester).token
    base = live_server
    return {
        "account": f"{base}/account",
        "server settings": f"{base}/admin",
        "groups": f"{base}/groups",
        "group": f"{base}/groups/{group_id}",
        "invite": f"{base}/invite/{invite}",
        "register": f"{base}/register?invite={invite}",
        "sign in": f"{base}/login",
        "share": f"{base}/matches/{mid}/share",
        "sides and more": f"{base}/matches/{mid}/manage",
        "delete match": f"{base}/matches/{done}/delete",
        "home": f"{base}/",
        "choose game": f"{base}/matches/new",
        "new classic": f"{base}/matches/new/classic",
        "new burraco teams": f"{base}/matches/new/burraco?layout=2x2",
        "scoreboard": f"{base}/matches/{mid}",
        "scoreboard finished": f"{base}/matches/{done}",
        "scoreboard tied": f"{base}/matches/{tied}",
        "record hand": f"{base}/matches/{mid}/hands/new",
        "record hand fournier": f"{base}/matches/{penalties}/hands/new",
        "record hand burraco": f"{base}/matches/{single}/hands/new",
        "hand detail": f"{base}/matches/{mid}/hands/1",
        "correct hand": f"{base}/matches/{mid}/hands/1/edit",
        "remove hand": f"{base}/matches/{mid}/hands/2/remove",
        "history": f"{base}/history",
        "history filtered": f"{base}/history?player=Eve&variant=classic-2p",
        "history search": f"{base}/history?player=Eve&result=won&from=2020-01-01&sort=oldest",
        "statistics": f"{base}/groups/{group_id}/stats?player=Eve&against=Fay",
        "player": f"{base}/groups/{group_id}/players/{eve}",
        "leagues": f"{base}/groups/{group_id}/leagues",
        "league": f"{base}/groups/{group_id}/leagues/{league}",
        "league card": f"{base}/groups/{group_id}/leagues/{league}/players/{fay}",
        "league settings": f"{base}/groups/{group_id}/leagues/{league}/settings",
        "league share": f"{base}/groups/{group_id}/leagues/{league}/share",
        "league viewer": f"{base}/l/{viewer}",
        "new classic for two": f"{base}/matches/new/classic-2p",
        "rules": f"{base}/rules",
        "rules brazilian": f"{base}/rules/brazilian",
        "match rules": f"{base}/matches/{mid}/rules",
        "offline": f"{base}/offline",
        "not found": f"{base}/matches/999999",
    }


@pytest.fixture(scope="module")
def phone(browser: Browser, tester_state: str) -> Iterator[Callable[..., Page]]:
    """`phone(**options)`: the page of a phone signed in as TESTER, one for each set of
    context options (colour scheme, contrast, zoom), kept for the module; each test goes
    to its own page in it. A new context for every page cost more than the checks (a new
    renderer process, axe compiled again in it: about 1.5 s of CPU a page); these tests
    only read pages, so each still checks the page it names, as the phone shows it."""
    opened: dict[str, Page] = {}

    def page_with(**options) -> Page:
        key = repr(sorted(options.items()))
        if key not in opened:
            context = phone_context(browser, storage_state=tester_state, **options)
            opened[key] = context.new_page()
        return opened[key]

    yield page_with
    for page in opened.values():
        page.context.close()


NAMES = [
    "account",
    "server settings",
    "groups",
    "group",
    "invite",
    "register",
    "sign in",
    "share",
    "sides and more",
    "delete match",
    "home",
    "choose game",
    "new classic",
    "new burraco teams",
    "scoreboard",
    "scoreboard finished",
    "scoreboard tied",
    "record hand",
    "record hand fournier",
    "record hand burraco",
    "hand detail",
    "correct hand",
    "remove hand",
    "history",
    "history filtered",
    "history search",
    "statistics",
    "player",
    "leagues",
    "league",
    "league card",
    "league settings",
    "league share",
    "league viewer",
    "new classic for two",
    "rules",
    "rules brazilian",
    "match rules",
    "offline",
    "not found",
]


@pytest.mark.parametrize("scheme", ["light", "dark"])
@pytest.mark.parametrize("name", NAMES)
def test_page_passes_the_checks(phone, urls, name, scheme):
    page = phone(color_scheme=scheme)
    page.goto(urls[name])
    check_page(page)


ZOOMED_PHONE = {"width": 195, "height": 422}  # a 390x844 phone at 200%
ZOOMED = [
    "scoreboard",
    "scoreboard finished",
    "record hand",
    "hand detail",
    "new classic",
    "history",
    "league",
    "league card",
]


@pytest.mark.parametrize("name", ZOOMED)
def test_page_reads_at_200_percent_zoom(phone, urls, name):
    """At 200% a 390px phone is 195 CSS px wide: nothing may scroll sideways but tables."""
    page = phone(viewport=ZOOMED_PHONE, device_scale_factor=4)
    page.goto(urls[name])
    assert page.evaluate("document.documentElement.scrollWidth - window.innerWidth") <= 0
    clipped = page.evaluate(
        """() => [...document.querySelectorAll('.total, h1, h2, label, legend, p')]
            .filter(el => el.clientWidth > 1 && el.scrollWidth > el.clientWidth + 1)
            .map(el => el.textContent.trim().slice(0, 30))"""
    )
    assert clipped == []


@pytest.mark.parametrize("name", ["scoreboard", "scoreboard finished", "record hand"])
@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_high_contrast_mode_passes_the_checks(phone, urls, name, scheme):
    page = phone(color_scheme=scheme, contrast="more")
    page.goto(urls[name])
    assert page.evaluate("matchMedia('(prefers-contrast: more)').matches")
    check_page(page)


def test_header_links_stay_on_screen_at_200_percent(phone, urls):
    page = phone(viewport=ZOOMED_PHONE, device_scale_factor=4)
    page.goto(urls["scoreboard"])
    for name in ("History", "Rules"):
        box = page.get_by_role("link", name=name, exact=True).bounding_box()
        assert box is not None
        assert box["x"] >= 0
        assert box["x"] + box["width"] <= 195
    # The totals grow with the zoom: at least 1.8rem of the 17px root font.
    size = page.evaluate("parseFloat(getComputedStyle(document.querySelector('.total')).fontSize)")
    assert size >= 1.8 * 17


def test_scoreboard_and_form_read_well_with_a_screen_reader(page, urls):
    """Real headings, a table with column and row headers, a live region for the preview."""
    page.goto(urls["scoreboard"])
    assert page.get_by_role("heading", level=1).count() == 1
    cards = page.get_by_role("region", name="Totals")
    assert cards.get_by_role("heading", level=2).all_inner_texts() == ["Ann & Cid", "Bob & Dee"]
    assert cards.get_by_text("Total:").count() == 2  # each big number is announced as a total
    table = page.get_by_role("table")
    assert table.get_by_role("columnheader").all_inner_texts() == ["Hand", "Ann & Cid", "Bob & Dee"]
    assert table.get_by_role("rowheader").count() == 2
    assert page.get_by_role("heading", name="Hands", level=2).count() == 1

    page.goto(urls["record hand"])
    preview = page.locator("#preview")
    assert preview.get_attribute("aria-live") == "polite"
    assert page.get_by_role("group", name="Who went out?").count() == 1
    for side in ("Ann & Cid", "Bob & Dee"):
        group = page.get_by_role("group", name=f"{side} (", exact=False)
        assert group.get_by_role("spinbutton", name="Sambas").count() == 1
