"""A finished match offers "Log in BG Stats": BG Stats' push-plays link with players,
scores, ranks and winner as URL-encoded JSON."""

from __future__ import annotations

import json
from urllib.parse import parse_qs, unquote, urlsplit

from scorekeeper.extensions import db
from scorekeeper.models import Match

from ..api.test_rules2_matches import HF_CAUGHT, HF_OUT
from .helpers import page

URL = "/api/v1/matches"
TEAMS = [{"name": "Us", "players": ["Ann", "Bob"]}, {"name": "Them", "players": ["Cy", "Di"]}]
OUT = {"went_out": True, "canastas": {"natural": 2}, "meld_points": 300}
CAUGHT = {"hand_points": 30}


def bgstats_link(client, match_id: int) -> str | None:
    links = list(page(client.get(f"/matches/{match_id}")).find_all("a"))
    found = [a.attrs["href"] for a in links if a.text() == "Log in BG Stats"]
    assert len(found) <= 1
    return found[0] if found else None


def play_of(link: str) -> dict:
    parts = urlsplit(link)
    assert (parts.scheme, parts.netloc, parts.path) == (
        "bgstats",
        "app.bgstatsapp.com",
        "/addPlay.html",
    )
    assert "%7B" in parts.query  # the JSON is URL-encoded, not raw
    (data,) = parse_qs(parts.query)["data"]
    return json.loads(data)


def test_a_finished_partnership_match_is_logged_with_scores_ranks_and_winner(app, client):
    body = {
        "variant": "classic",
        "sides": TEAMS,
        "options": {"target": 2500},
        "first_dealer": "Bob",
    }
    match_id = client.post(URL, json=body).json["id"]
    first = client.post(f"{URL}/{match_id}/hands", json={"sides": [CAUGHT, OUT]})
    assert bgstats_link(client, match_id) is None  # still being played
    assert first.status_code == 201
    last = client.post(f"{URL}/{match_id}/hands", json={"sides": [CAUGHT, OUT]}).json
    assert last["finished"]
    totals = [side["total"] for side in last["sides"]]
    assert totals[1] > totals[0]
    play = play_of(bgstats_link(client, match_id))
    with app.app_context():
        match = db.session.get(Match, match_id)
        uid, started = match.uid, match.created_at
    assert play["sourceName"] == "Scorekeeper"
    assert play["sourcePlayId"] == uid
    assert play["game"] == {
        "name": "Classic Canasta",
        "sourceGameId": "classic",
        "highestWins": True,
        "noPoints": False,
    }
    assert play["playDate"] == started.strftime("%Y-%m-%d %H:%M:%S")
    assert play["durationMin"] >= 0
    seats = {p["name"]: p for p in play["players"]}
    assert list(seats) == ["Ann", "Bob", "Cy", "Di"]
    for name, side in (("Ann", 0), ("Bob", 0), ("Cy", 1), ("Di", 1)):
        player = seats[name]
        assert player["score"] == totals[side]
        assert player["rank"] == (2 if side == 0 else 1)
        assert player["winner"] is (side == 1)
        assert player["role"] == TEAMS[side]["name"]
    # Seats clockwise are Ann, Cy, Bob, Di: Bob deals first, so Di plays first.
    assert [p["name"] for p in play["players"] if p["startPlayer"]] == ["Di"]


def test_a_drawn_match_has_no_winner_and_shares_the_first_rank(client):
    teams = [
        {"name": "North", "players": ["Ann", "Bob"]},
        {"name": "South", "players": ["Cy", "Di"]},
    ]
    match_id = client.post(URL, json={"variant": "hand-and-foot", "sides": teams}).json["id"]
    out, caught = HF_OUT, HF_CAUGHT  # scored 4000 and 450
    for number in range(1, 5):
        sides = [out, caught] if number % 2 else [caught, out]
        answer = client.post(f"{URL}/{match_id}/hands", json={"sides": sides})
    assert answer.json["status"] == "drawn"
    play = play_of(bgstats_link(client, match_id))
    assert {(p["rank"], p["winner"], p["score"]) for p in play["players"]} == {(1, False, 8900)}


def test_names_are_carried_whole_through_the_link(client):
    sides = [{"players": ['Zoë & "Al"']}, {"players": ["O'Neil?&x=1"]}]
    match_id = client.post(
        URL, json={"variant": "classic-2p", "sides": sides, "options": {"target": 200}}
    ).json["id"]
    client.post(f"{URL}/{match_id}/hands", json={"sides": [OUT, CAUGHT]})
    link = bgstats_link(client, match_id)
    play = play_of(link)
    assert [p["name"] for p in play["players"]] == ['Zoë & "Al"', "O'Neil?&x=1"]
    assert [p["role"] for p in play["players"]] == ["", ""]  # one player a side: no team
    assert unquote(urlsplit(link).query).startswith("data={")
