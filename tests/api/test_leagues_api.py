"""The leagues and ratings API exactly as CLUBS.md gives it: players, a player's rating,
leagues created (every problem listed at once), listed and read; other groups' are 404."""

from __future__ import annotations

import pytest

from scorekeeper.services import accounts, groups
from scorekeeper.services.storage import transaction
from tests.support import TESTER, add_user, sign_in
from tests.web.test_statistics import OUT_FIRST, new_match, play

STATE_KEYS = {"id", "name", "group", "start", "end", "variants", "scoring", "best_of"}
STATE_KEYS |= {"min_evenings", "evenings", "standings"}
ROW_KEYS = {"rank", "player", "name", "points", "evenings", "per_evening", "ranked"}


@pytest.fixture
def other(app):
    """Olga, who is in none of Tess's groups, with a finished match and a league."""
    add_user(app, "Olga")
    client = sign_in(app.test_client(), "Olga")
    play(client, new_match(client, "classic-2p", [["Xia"], ["Yan"]], {"target": 1000}), OUT_FIRST)
    body = {"name": "Hers", "start": "2026-01-01", "end": "2026-12-31", "scoring": "wdl"}
    league = client.post("/api/v1/leagues", json=body).json
    xia = next(p for p in client.get("/api/v1/players").json["players"] if p["name"] == "Xia")
    return client, league["id"], xia["id"]


def test_players_of_the_callers_groups(app, client, other):
    play(client, new_match(client, "classic-2p", [["Ann"], ["Bob"]], {"target": 1000}), OUT_FIRST)
    with app.app_context(), transaction():
        club = groups.create_group(accounts.find_user(TESTER), "Club").id
    body = {"variant": "classic-2p", "sides": [{"players": ["Cid"]}, {"players": ["Ann"]}]}
    assert client.post("/api/v1/matches", json={**body, "group": club}).status_code == 201
    everyone = client.get("/api/v1/players").json["players"]
    assert [(p["name"], p["group"]) for p in everyone] == [
        ("Ann", 1),
        ("Bob", 1),
        ("Ann", club),  # the same name in two groups is two players
        ("Cid", club),
    ]
    assert {tuple(sorted(p)) for p in everyone} == {("group", "id", "name")}
    in_club = client.get(f"/api/v1/players?group={club}").json["players"]
    assert [p["name"] for p in in_club] == ["Ann", "Cid"]
    _, _, xia = other
    assert xia not in {p["id"] for p in everyone}
    olgas_group = other[0].get("/api/v1/players").json["players"][0]["group"]
    assert client.get(f"/api/v1/players?group={olgas_group}").status_code == 404
    assert client.get("/api/v1/players?group=x").status_code == 400


def test_a_players_rating_and_404_outside_the_callers_groups(client, other):
    play(client, new_match(client, "classic-2p", [["Ann"], ["Bob"]], {"target": 1000}), OUT_FIRST)
    new_match(client, "classic-2p", [["Ann"], ["Nia"]], {"target": 1000})  # not finished
    players = {p["name"]: p["id"] for p in client.get("/api/v1/players").json["players"]}
    answer = client.get(f"/api/v1/players/{players['Ann']}/rating").json
    assert set(answer) == {"player", "name", "ratings"}
    assert (answer["player"], answer["name"]) == (players["Ann"], "Ann")
    [rating] = answer["ratings"]
    assert set(rating) == {"family", "mu", "sigma", "rating", "matches"}
    assert (rating["family"], rating["matches"]) == ("canasta", 1)
    assert rating["rating"] == pytest.approx(rating["mu"] - 3 * rating["sigma"])
    assert rating["mu"] > 25  # won her only match
    # No finished match: no family listed.
    assert client.get(f"/api/v1/players/{players['Nia']}/rating").json["ratings"] == []
    _, _, xia = other
    for player in (xia, 999999):
        missing = client.get(f"/api/v1/players/{player}/rating")
        assert missing.status_code == 404
        assert missing.json["errors"][0]["field"] == "player"
        said = missing.json["errors"][0]["message"]
        assert said == f"There is no player {player} among your groups"


def test_a_league_is_created_with_its_defaults(client):
    body = {"name": "Autumn", "start": "2026-09-01", "end": "2026-11-30", "scoring": "wdl"}
    answer = client.post("/api/v1/leagues", json=body)
    assert answer.status_code == 201, answer.json
    state = answer.json
    assert set(state) == STATE_KEYS
    assert state["group"] == 1  # the caller's personal group
    assert (state["best_of"], state["min_evenings"], state["evenings"]) == (None, 1, [])
    assert "classic" in state["variants"]
    assert len(state["variants"]) == 14  # every game
    assert client.get(f"/api/v1/leagues/{state['id']}").json == state


def test_every_problem_of_a_new_league_is_listed_at_once(client):
    body = {
        "name": "Autumn",
        "start": "2026-11-30",
        "end": "2026-09-01",
        "scoring": "elo",
        "variants": ["classic", "poker"],
        "best_of": 0,
        "min_evenings": 0,
    }
    answer = client.post("/api/v1/leagues", json=body)
    assert answer.status_code == 422
    problems = [(p["field"], p.get("key")) for p in answer.json["errors"]]
    assert problems == [
        ("end", "league.end_before_start"),
        ("variants[1]", "league.unknown_variant"),
        ("scoring", "league.unknown_scoring"),
        ("best_of", "league.below_one"),
        ("min_evenings", "league.below_one"),
    ]
    assert all(p["message"] and p["message"] != p["key"] for p in answer.json["errors"])
    assert client.get("/api/v1/leagues").json == {"leagues": []}
    worse = {"name": "", "start": "someday", "group": 999, "colour": "red", "scoring": "vp"}
    fields = [p["field"] for p in client.post("/api/v1/leagues", json=worse).json["errors"]]
    assert fields == ["name", "group", "start", "end", "colour"]
    assert client.post("/api/v1/leagues", data="x").status_code == 415
    bad_json = client.post("/api/v1/leagues", data="[", content_type="application/json")
    assert bad_json.status_code == 400


def test_leagues_listed_read_and_404_for_other_groups(app, client, other):
    made = [
        client.post(
            "/api/v1/leagues",
            json={"name": name, "start": start, "end": end, "scoring": "wdl"},
        ).json
        for name, start, end in (
            ("Spring", "2026-03-01", "2026-05-31"),
            ("Autumn", "2026-09-01", "2026-11-30"),
        )
    ]
    listed = client.get("/api/v1/leagues").json["leagues"]
    assert [league["name"] for league in listed] == ["Autumn", "Spring"]  # latest first
    assert listed == list(reversed(made))
    assert client.get("/api/v1/leagues?group=1").json["leagues"] == listed
    _, hers, _ = other
    assert hers not in {league["id"] for league in listed}
    for league_id in (hers, 999999):
        missing = client.get(f"/api/v1/leagues/{league_id}")
        assert missing.status_code == 404
        assert missing.json["errors"][0]["field"] == "league"
        said = missing.json["errors"][0]["message"]
        assert said == f"There is no league {league_id} among your groups"
    olgas = other[0].get(f"/api/v1/leagues/{hers}").json["group"]
    assert client.get(f"/api/v1/leagues?group={olgas}").status_code == 404
    body = {"name": "Mine", "start": "2026-01-01", "end": "2026-01-02", "scoring": "wdl"}
    taken = client.post("/api/v1/leagues", json={**body, "group": olgas})
    assert taken.status_code == 422
    assert taken.json["errors"][0]["field"] == "group"


def test_a_league_read_has_an_etag(client):
    body = {"name": "Now", "start": "2000-01-01", "end": "2999-12-31", "scoring": "wdl"}
    league_id = client.post("/api/v1/leagues", json=body).json["id"]
    answer = client.get(f"/api/v1/leagues/{league_id}")
    etag = answer.headers["ETag"]
    assert (
        client.get(f"/api/v1/leagues/{league_id}", headers={"If-None-Match": etag}).status_code
        == 304
    )
    play(client, new_match(client, "classic-2p", [["Ann"], ["Bob"]], {"target": 1000}), OUT_FIRST)
    newer = client.get(f"/api/v1/leagues/{league_id}", headers={"If-None-Match": etag})
    assert newer.status_code == 200
    [ann, bob] = newer.json["standings"]
    assert set(ann) == ROW_KEYS
    assert (ann["name"], ann["points"], ann["per_evening"]) == ("Ann", 2, [2])
    assert (bob["name"], bob["points"], bob["rank"]) == ("Bob", 0, 2)


def test_without_credentials_401_and_a_match_link_403(app, anonymous_client, client):
    match_id = new_match(client, "classic-2p", [["Ann"], ["Bob"]], {"target": 1000})
    token = client.post(f"/api/v1/matches/{match_id}/links", json={"role": "viewer"}).json["token"]
    for url in ("/api/v1/players", "/api/v1/players/1/rating", "/api/v1/leagues"):
        assert anonymous_client.get(url).status_code == 401
        linked = anonymous_client.get(url, headers={"Authorization": f"Bearer {token}"})
        assert linked.status_code == 403
