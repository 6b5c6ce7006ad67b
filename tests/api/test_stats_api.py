"""GET /api/v1/stats: a group's records per player and partnership (API.md)."""

from __future__ import annotations

import pytest

from scorekeeper.services import accounts, groups
from scorekeeper.services.storage import transaction
from tests.support import add_user

from .test_accounts_api import bearer, token_of

URL = "/api/v1/stats"
# Classic for two to 1000: going out with two natural canastas and 300 melded scores
# 2 x 500 + 300 + 100 = 1400, the other side holding 30 scores -30: the game is over.
OUT = {"went_out": True, "canastas": {"natural": 2}, "meld_points": 300}
HELD = {"hand_points": 30}


@pytest.fixture
def api(app):
    return app.test_client()


@pytest.fixture
def tess(app):
    return bearer(token_of(app, "Tess"))


def play(api, headers, players: list[str], winner: int, variant="classic-2p", group=None) -> int:
    body = {
        "variant": variant,
        "sides": [{"players": [name]} for name in players],
        "options": {"target": 1000},
        **({"group": group} if group else {}),
    }
    match_id = api.post("/api/v1/matches", json=body, headers=headers).json["id"]
    sides = [OUT, HELD] if winner == 0 else [HELD, OUT]
    response = api.post(f"/api/v1/matches/{match_id}/hands", json={"sides": sides}, headers=headers)
    assert response.json["status"] == "finished"
    return match_id


def test_without_credentials_it_is_a_json_401(api):
    response = api.get(URL)
    assert response.status_code == 401
    assert response.json["errors"][0]["message"].startswith("Sign in")


def test_the_personal_groups_records_by_default(api, tess):
    play(api, tess, ["Ann", "Bob"], winner=0)
    play(api, tess, ["Bob", "Ann"], winner=1)
    play(api, tess, ["Ann", "Cid"], winner=1)
    unfinished = {"variant": "classic-2p", "sides": [{"players": ["Ann"]}, {"players": ["Dee"]}]}
    api.post("/api/v1/matches", json=unfinished, headers=tess)  # not counted
    response = api.get(URL, headers=tess)
    assert response.status_code == 200
    players = {p["name"]: p for p in response.json["players"]}
    assert set(players) == {"Ann", "Bob", "Cid"}  # Dee has no match played to the end
    ann = players["Ann"]
    assert (ann["matches"], ann["wins"], ann["losses"], ann["draws"]) == (3, 2, 1, 0)
    assert ann["win_rate"] == round(2 / 3, 4)
    assert (ann["best_hand"], ann["highest_total"]) == (1400, 1400)
    # Margins 1430, 1430, -1430; Ann went out in 2 of her 3 hands, 2 canastas each time.
    assert ann["average_margin"] == round(1430 / 3, 1)
    assert ann["going_out_rate"] == round(2 / 3, 4)
    assert ann["canastas_per_hand"] == round(4 / 3, 3)
    assert (ann["current_streak"], ann["longest_streak"]) == (0, 2)
    assert players["Bob"]["losses"] == 2
    assert response.json["partnerships"] == []  # one player a side


def test_filters_by_variant_and_player_and_partnerships(app, api, tess):
    play(api, tess, ["Ann", "Bob"], winner=0)
    body = {
        "variant": "classic",
        "sides": [{"players": ["Ann", "Cid"]}, {"players": ["Bob", "Dee"]}],
        "options": {"target": 1000},
    }
    match_id = api.post("/api/v1/matches", json=body, headers=tess).json["id"]
    api.post(f"/api/v1/matches/{match_id}/hands", json={"sides": [HELD, OUT]}, headers=tess)
    classic = api.get(URL, query_string={"variant": "classic"}, headers=tess).json
    assert {p["name"]: p["wins"] for p in classic["players"]} == {
        "Bob": 1, "Dee": 1, "Ann": 0, "Cid": 0
    }  # fmt: skip
    pairs = {tuple(p["players"]): p for p in classic["partnerships"]}
    assert set(pairs) == {("Ann", "Cid"), ("Bob", "Dee")}
    assert pairs[("Bob", "Dee")]["wins"] == 1
    assert pairs[("Ann", "Cid")]["highest_total"] == -30
    with_cid = api.get(URL, query_string={"player": "cid"}, headers=tess).json
    assert {p["name"]: p["matches"] for p in with_cid["players"]} == {
        "Ann": 1, "Bob": 1, "Cid": 1, "Dee": 1
    }  # fmt: skip


def test_another_group_is_asked_for_by_id_and_someone_elses_is_404(app, api, tess):
    with app.app_context(), transaction():
        club = groups.create_group(accounts.find_user("Tess"), "Club").id
    play(api, tess, ["Ann", "Bob"], winner=0, group=club)
    assert api.get(URL, headers=tess).json["players"] == []
    in_club = api.get(URL, query_string={"group": club}, headers=tess).json
    assert in_club["group"] == club
    assert [p["name"] for p in in_club["players"]] == ["Ann", "Bob"]
    add_user(app, "Out")
    refused = api.get(URL, query_string={"group": club}, headers=bearer(token_of(app, "Out")))
    assert refused.status_code == 404
    assert refused.json["errors"][0]["field"] == "group"


@pytest.mark.parametrize(
    ("query", "field"),
    [
        ({"group": "one"}, "group"),
        ({"group": "-1"}, "group"),
        ({"variant": "poker"}, "variant"),
        ({"player": "Nobody"}, "player"),
        ({"from": "2025-13-01"}, "from"),
        ({"to": "yesterday"}, "to"),
        ({"from": "2025-02-01", "to": "2025-01-01"}, "to"),
    ],
)
def test_bad_parameters_are_a_400_naming_the_parameter(api, tess, query, field):
    play(api, tess, ["Ann", "Bob"], winner=0)
    response = api.get(URL, query_string=query, headers=tess)
    assert response.status_code == 400
    assert [e["field"] for e in response.json["errors"]] == [field]


def test_a_period_counts_the_matches_that_ended_in_it(api, tess):
    play(api, tess, ["Ann", "Bob"], winner=0)
    everything = api.get(URL, query_string={"from": "2000-01-01"}, headers=tess).json
    assert len(everything["players"]) == 2
    long_ago = api.get(URL, query_string={"to": "2000-01-01"}, headers=tess).json
    assert long_ago["players"] == []
