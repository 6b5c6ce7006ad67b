"""Every page with its CSS and JS stays within 14 KB over the wire (gzip).

14 KB is what a server can send in the first round trip of a new connection,
so the page can paint after one round trip even on a slow phone network.
"""

from __future__ import annotations

import gzip
import re
from datetime import timedelta

import pytest
from sqlalchemy import update

from scorekeeper.extensions import db
from scorekeeper.models import Match
from scorekeeper.rules import PRESETS
from scorekeeper.season_models import League
from scorekeeper.services import accounts, groups, leagues, ratings
from scorekeeper.services.league_tables import league_table
from scorekeeper.services.rating_replays import EXTENSION
from scorekeeper.services.storage import transaction
from tests.support import TESTER, app_on_new_database, load_bench, signed_in

pytestmark = pytest.mark.xdist_group("page-weight")  # one worker builds the busy club once
BUDGET = 14 * 1024
LONG = 300  # hands of the longest match every page must stay light with
GZIP = {"Accept-Encoding": "gzip"}


def _post(client, path: str, body: dict) -> dict:
    response = client.post(path, json=body)
    assert response.status_code in (200, 201), response.get_json()
    return response.get_json()


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    """A busy club: a 300-hand match, 25 finished matches, a match of every preset."""
    app = app_on_new_database(tmp_path_factory.mktemp("weight") / "weight.sqlite")
    client = signed_in(app)
    pairs = [{"players": ["Annabelle", "Cordelia"]}, {"players": ["Bartholomew", "Desmond"]}]
    body = {"variant": "bolivia", "sides": pairs, "options": {"target": 1_000_000}}
    long_match = _post(client, "/api/v1/matches", body)["id"]
    for n in range(LONG):  # every hand's numbers differ, as in a real game
        sides = [
            {"meld_points": 120 + 35 * (n % 17), "hand_points": 5 * (n % 11)},
            {"meld_points": 95 + 45 * (n % 13), "hand_points": 5 * (n % 7)},
        ]
        _post(client, f"/api/v1/matches/{long_match}/hands", {"sides": sides})
    for role in ("viewer", "scorer", "viewer"):  # the share page with three QR codes
        _post(client, f"/api/v1/matches/{long_match}/links", {"role": role})
    finished = {"variant": "classic-2p", "options": {"target": 500}}
    out = {"went_out": True, "canastas": {"natural": 2}, "meld_points": 300}
    for n in range(25):
        sides = [{"players": [f"Player {n} north"]}, {"players": [f"Player {n} south"]}]
        mid = _post(client, "/api/v1/matches", {**finished, "sides": sides})["id"]
        _post(client, f"/api/v1/matches/{mid}/hands", {"sides": [out, {"hand_points": 50}]})
    per_preset = {}
    for key, preset in PRESETS.items():
        layout = preset.layouts[-1]
        sides = [
            {"players": [f"{key} {s}{p}" for p in range(layout.players_per_side)]}
            for s in range(layout.sides)
        ]
        per_preset[key] = _post(client, "/api/v1/matches", {"variant": key, "sides": sides})["id"]
    season = _club_season(app, client)
    with app.app_context():
        db.engine.dispose()
    return client, long_match, per_preset | season


def _club_season(app, client) -> dict[str, object]:
    """A club's season in a group of its own: 40 players, 20 matches an evening over 12
    evenings, a league of it with a substitute credited, and a viewer link."""
    with app.app_context(), transaction():
        club = groups.create_group(accounts.find_user(TESTER), "Club").id
    finished = {"variant": "classic-2p", "options": {"target": 500}, "group": club}
    out = {"went_out": True, "canastas": {"natural": 2}, "meld_points": 300}
    firsts = []
    for n in range(20):
        sides = [{"players": [f"Member {n} east"]}, {"players": [f"Member {n} west"]}]
        mid = _post(client, "/api/v1/matches", {**finished, "sides": sides})["id"]
        _post(client, f"/api/v1/matches/{mid}/hands", {"sides": [out, {"hand_points": 50}]})
        firsts.append(mid)
    with app.app_context():
        for first in firsts:
            copies = load_bench("scaling").copy_match(first, 11)
            start = db.session.get(Match, first).finished_at
            with transaction():
                for days, copy in enumerate(copies, start=1):
                    db.session.execute(
                        update(Match)
                        .where(Match.id == copy)
                        .values(finished_at=start - timedelta(days=days))
                    )
        with transaction():
            ratings.invalidate(club)
    app.extensions[EXTENSION].wait_all()
    body = {"name": "Autumn season", "start": "2000-01-01", "end": "2999-12-31"}
    league = _post(client, "/api/v1/leagues", {**body, "scoring": "wdl", "group": club})
    with app.app_context(), transaction():
        table = league_table(db.session.get(League, league["id"]))
        evening = table.evenings[3]
        substitute = next(iter(sorted(table.played[evening])))
        replaced = next(row.player for row in table.rows if row.player != substitute)
        leagues.add_credit(
            table.league, evening, substitute, replaced, table.played, accounts.find_user(TESTER)
        )
        link = leagues.new_link(table.league, accounts.find_user(TESTER)).token
    assert len(league["standings"]) == 40
    return {"club": club, "league": league["id"], "player": replaced, "link": link}


def _pages(long_match: int, per_preset: dict[str, object]) -> list[str]:
    pages = [
        "/",
        "/matches/new",
        "/history",
        "/rules",
        "/offline",
        "/matches/999999",
        f"/matches/{long_match}",
        f"/matches/{long_match}?hands=1",
        f"/matches/{long_match}/hands/new",
        f"/matches/{long_match}/hands/{LONG}",
        f"/matches/{long_match}/hands/{LONG}/edit",
        f"/matches/{long_match}/hands/{LONG}/remove",
        f"/matches/{long_match}/rules",
        f"/matches/{long_match}/share",
        f"/matches/{long_match}/manage",
        f"/matches/{long_match}/delete",
        "/account",
        "/admin",
        "/groups",
        "/groups/1",
        "/groups/1/stats",
        "/groups/1/stats?player=Annabelle&against=Bartholomew",
        "/groups/1/players/1",
        "/login",
    ]
    club, league = per_preset["club"], per_preset["league"]
    pages += [
        f"/groups/{club}/leagues",
        f"/groups/{club}/leagues/{league}",
        f"/groups/{club}/leagues/{league}/players/{per_preset['player']}",
        f"/groups/{club}/leagues/{league}/settings",
        f"/groups/{club}/leagues/{league}/share",
        f"/l/{per_preset['link']}",
        f"/l/{per_preset['link']}/players/{per_preset['player']}",
        f"/groups/{club}/stats",
        f"/groups/{club}/players/{per_preset['player']}",
    ]
    for key, preset in PRESETS.items():
        pages.append(f"/rules/{key}")
        pages += [f"/matches/new/{key}?layout={layout.key}" for layout in preset.layouts]
        pages.append(f"/matches/{per_preset[key]}/hands/new")
    return pages


def _wire_size(client, url: str) -> int:
    response = client.get(url, headers=GZIP)
    assert response.status_code in (200, 404), url
    assert response.headers.get("Content-Encoding") == "gzip", f"{url} is not compressed"
    return len(response.data)


def test_every_page_with_its_css_and_js_fits_in_14_kb(site):
    client, long_match, per_preset = site
    heavy = []
    for url in _pages(long_match, per_preset):
        response = client.get(url, headers=GZIP)
        if response.status_code == 200:
            assert response.headers.get("Content-Encoding") == "gzip", f"{url} is not compressed"
            html = gzip.decompress(response.data).decode()
        else:  # an error page (Flask-Compress leaves them as they are): counted as sent
            html = response.get_data(as_text=True)
        assets = re.findall(r'<link rel="stylesheet" href="([^"]+)"', html)
        assets += re.findall(r'<script src="([^"]+)"', html)
        assert len(assets) == 2, f"{url} should load one stylesheet and one script"
        total = len(response.data) + sum(_wire_size(client, asset) for asset in assets)
        if total > BUDGET:
            heavy.append(f"{url}: {total} bytes")
    assert heavy == [], "over 14 KB with CSS and JS:\n" + "\n".join(heavy)


def test_responses_are_compressed_and_static_files_cached_for_a_year(site):
    client, long_match, _ = site
    page = client.get(f"/matches/{long_match}", headers=GZIP)
    assert page.headers["Content-Encoding"] == "gzip"
    assert "Accept-Encoding" in page.headers["Vary"]
    html = gzip.decompress(page.data).decode()
    css = re.search(r'href="(/static/app\.[0-9a-f]{10}\.css)"', html)
    assert css, "the stylesheet has a fingerprinted name"
    cached = client.get(css.group(1), headers=GZIP)
    assert cached.headers["Content-Encoding"] == "gzip"
    assert "max-age=31536000" in cached.headers["Cache-Control"]
    assert "immutable" in cached.headers["Cache-Control"]
    with client.get("/static/app.css") as plain:
        assert "no-cache" in plain.headers["Cache-Control"]
    # Without gzip in Accept-Encoding the body comes plain.
    assert "Content-Encoding" not in client.get(f"/matches/{long_match}").headers
