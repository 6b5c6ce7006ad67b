"""A league's standings and the rating pages cost as many queries for 2,000 matches as for
10: they read the matches in bulk (three queries) and the stored ratings, never match by
match or player by player."""

from __future__ import annotations

import re

from sqlalchemy import select

from scorekeeper.extensions import db
from scorekeeper.models import Match, Player
from scorekeeper.services import ratings
from scorekeeper.services.rating_replays import EXTENSION
from scorekeeper.services.storage import transaction
from tests.web.helpers import csrf_token
from tests.web.test_statistics import count_queries, finished_copies


def replayed(app) -> None:
    """Matches copied row by row bypass the writes that keep ratings: replay them."""
    with app.app_context(), transaction():
        group_id = db.session.execute(select(Match.group_id)).scalars().first()
        ratings.invalidate(group_id)
    app.extensions[EXTENSION].wait_all()


def pages(app, client) -> dict[str, str]:
    with app.app_context():
        ann = db.session.execute(select(Player.id).where(Player.name == "Ann")).scalar_one()
    body = {"name": "All", "start": "2000-01-01", "end": "2999-12-31", "scoring": "wdl"}
    found = client.get("/api/v1/leagues").json["leagues"]
    league = found[0]["id"] if found else client.post("/api/v1/leagues", json=body).json["id"]
    share = client.get(f"/groups/1/leagues/{league}/share").get_data(as_text=True)
    if "/l/" not in share:
        client.post(f"/groups/1/leagues/{league}/share", data={"csrf_token": csrf_token(share)})
        share = client.get(f"/groups/1/leagues/{league}/share").get_data(as_text=True)
    token = re.search(r"/l/([A-Za-z0-9_-]+)", share).group(1)
    base = f"/groups/1/leagues/{league}"
    return {
        "league page": base,
        "standings": f"{base}/standings",
        "league card": f"{base}/players/{ann}",
        "league CSV": f"{base}/standings.csv",
        "viewer link": f"/l/{token}",
        "API league": f"/api/v1/leagues/{league}",
        "API leagues": "/api/v1/leagues",
        "API rating": f"/api/v1/players/{ann}/rating",
        "player page": f"/groups/1/players/{ann}",
        "statistics": "/groups/1/stats",
        "chances": "/matches/new/classic/chances?seat_0=Ann&seat_1=Cid&seat_2=Bob&seat_3=Dee",
    }


def costs(app, client) -> dict[str, int]:
    found = {}
    for name, url in pages(app, client).items():

        def get(url: str = url) -> None:
            assert client.get(url).status_code == 200, url

        found[name] = count_queries(app, get)
    return found


def test_league_and_rating_pages_cost_the_same_queries_for_2000_matches_as_for_10(app, client):
    finished_copies(app, client, 10)
    replayed(app)
    few = costs(app, client)
    league = pages(app, client)["API league"]
    assert client.get(league).json["standings"][0]["evenings"] >= 1
    finished_copies(app, client, 1990)
    replayed(app)
    state = client.get(league).json
    ann = next(row for row in state["standings"] if row["name"] == "Ann")
    assert sum(p or 0 for p in ann["per_evening"]) == 2 * 2000  # every match counted
    rating = client.get(pages(app, client)["API rating"]).json["ratings"][0]
    assert rating["matches"] == 2000
    many = costs(app, client)
    assert many == few
