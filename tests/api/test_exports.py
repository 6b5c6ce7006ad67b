"""Export and import through the API: every preset's matches come back exactly, twice is
once, and a bad file is refused whole (SQLite here and PostgreSQL below)."""

from __future__ import annotations

import copy
import csv
import io
import json
import random

import flask_migrate
import pytest
from sqlalchemy import delete, func, select

from scorekeeper import create_app
from scorekeeper.extensions import db
from scorekeeper.models import Match
from scorekeeper.rules import PRESETS
from scorekeeper.services import match_admin
from scorekeeper.services.storage import transaction
from tests.api.test_burraco_three_matches import (
    EACH_ADA_610,
    EACH_QUIET,
    LONE_370,
    LONE_630,
    PAIR_135,
    PAIR_MINUS_135,
    SEATS,
)
from tests.api.test_modern_american_matches import OTHER, OUT, QUIET_OTHER, QUIET_OUT
from tests.api.test_play_matches import burraco_side
from tests.api.test_rules2_matches import BIG, HF_CAUGHT, HF_OUT, HF_TEAMS, SMALL
from tests.support import (
    add_user,
    app_config,
    app_on_new_database,
    load_play_matches,
    sign_in,
    signed_in,
)
from tests.web.test_query_counts import Counter, queries

play_matches = load_play_matches()
URL = "/api/v1/matches"
CLASSIC_TEAMS = [
    {"name": "Us", "players": ["Ann", "Bob"]},
    {"name": "Them", "players": ["Cy", "Di"]},
]
USUAL = [{"meld_points": 105, "hand_points": 5}, {"meld_points": 55, "hand_points": 5}]


def create(client, variant, sides, **extra) -> int:
    response = client.post(URL, json={"variant": variant, "sides": sides, **extra})
    assert response.status_code == 201, response.json
    return response.json["id"]


def post(client, match_id, sides, status=201, **extra):
    response = client.post(f"{URL}/{match_id}/hands", json={"sides": sides, **extra})
    assert response.status_code == status, response.json
    return response.json


PAIR_V_ONE = [[0], [1, 2]]
EACH = [[0], [1], [2]]


def play_burraco_three(client) -> int:
    """Pair against one until Ada reaches 1000, each for himself after; hand 2 corrected
    into another line-up, the last hand removed and played again to the end."""
    match_id = create(client, "burraco-3p", SEATS)
    post(client, match_id, [LONE_630, PAIR_135], lineup=PAIR_V_ONE)
    assert (
        post(client, match_id, [LONE_370, PAIR_MINUS_135], lineup=PAIR_V_ONE)["phase"]["phase"] == 1
    )
    post(client, match_id, EACH_QUIET, lineup=EACH)
    higher = {**LONE_370, "meld_points": 90}
    corrected = client.put(
        f"{URL}/{match_id}/hands/2",
        json={"sides": [PAIR_MINUS_135, higher], "lineup": [[1, 2], [0]]},
    )
    assert corrected.status_code == 200, corrected.json
    assert client.delete(f"{URL}/{match_id}/hands/3").status_code == 200
    final = post(client, match_id, EACH_ADA_610, lineup=EACH)
    assert (final["status"], final["winner"]) == ("finished", 0)
    return match_id


# Modern American: black threes, counted penalties (three aces and three sevens held,
# unfinished wild and aces melds) and a free penalty, on a side that did not go out.
PENALISED = {
    "meld_points": 90,
    "black_threes": 2,
    "hand_points": 40,
    "players_with_3_aces": 1,
    "players_with_3_sevens": 1,
    "incomplete_wild": 1,
    "incomplete_aces": 1,
    "penalties": [{"points": 50, "reason": "Slow play"}],
}


def play_modern_american(client) -> tuple[int, int]:
    """One match won at once by a dream hand far behind, one under way with penalties
    and black threes (a hand of it corrected)."""
    dream = create(client, "modern-american", CLASSIC_TEAMS)
    post(client, dream, [OUT, OTHER])
    post(client, dream, [OUT, OTHER])
    won = post(client, dream, [QUIET_OTHER, {"went_out": True, "special_hand": "dream_plus_4"}])
    assert (won["status"], won["winner"]) == ("finished", 1)
    penalised = create(client, "modern-american", CLASSIC_TEAMS)
    post(client, penalised, [QUIET_OUT, PENALISED])
    post(client, penalised, [PENALISED, QUIET_OUT])
    fewer = {**PENALISED, "black_threes": 1, "penalties": []}
    corrected = client.put(f"{URL}/{penalised}/hands/1", json={"sides": [QUIET_OUT, fewer]})
    assert corrected.status_code == 200, corrected.json
    return dream, penalised


def play_every_preset(app, client) -> list[int]:
    """A match of every preset and table layout: played to the end, drawn, corrected,
    with hands removed (and later hands rescored as their new deal), abandoned; Burraco
    for three across its switch, Modern American won at once and with penalties."""
    ids = [
        play_matches.play_match(client, variant, players, seed=3).match_id
        for variant, players in play_matches.LAYOUTS
    ]
    pairs = [
        {"name": "A", "players": ["Ann", "Bob"]},
        {"name": "B", "players": ["Cy", "Di"]},
        {"name": "C", "players": ["Ed", "Fay"]},
    ]
    six = create(client, "classic-6p", pairs)
    for _ in range(3):
        post(client, six, [BIG, SMALL, SMALL])
    by_deal = create(
        client, "hand-and-foot", HF_TEAMS, options={"going_out_by_deal": [100, 200, 300, 400]}
    )
    for _ in range(3):
        post(client, by_deal, [HF_OUT, HF_CAUGHT])
    assert client.delete(f"{URL}/{by_deal}/hands/1").status_code == 200  # rescored as deal 1
    assert (
        client.put(f"{URL}/{by_deal}/hands/2", json={"sides": [HF_CAUGHT, HF_OUT]}).status_code
        == 200
    )
    drawn = create(client, "hand-and-foot", HF_TEAMS)
    for number in range(1, 5):
        post(client, drawn, [HF_OUT, HF_CAUGHT] if number % 2 else [HF_CAUGHT, HF_OUT])
    four = create(client, "buraco-4p", HF_TEAMS)
    hand = [burraco_side(out=True, clean=2, meld=500), burraco_side(meld=100, hand=40, took=False)]
    for _ in range(3):
        post(client, four, hand)
    seated = play_burraco_three(client)
    dream, penalised = play_modern_american(client)
    corrected = create(client, "classic", CLASSIC_TEAMS, first_dealer="Cy")
    for _ in range(4):
        post(client, corrected, USUAL)
    assert client.put(f"{URL}/{corrected}/hands/2", json={"sides": USUAL[::-1]}).status_code == 200
    assert client.delete(f"{URL}/{corrected}/hands/1").status_code == 200
    abandoned = create(client, "samba", CLASSIC_TEAMS)
    post(client, abandoned, [{"meld_points": 200}, {"meld_points": 150}])
    with app.app_context(), transaction():
        match_admin.abandon_match(abandoned)
    ids += [six, by_deal, drawn, four, seated, dream, penalised, corrected, abandoned]
    return ids


def states(client, ids) -> list[dict]:
    """The match states, without the ids a database gives (the match's and its hands')."""
    out = []
    for match_id in ids:
        state = client.get(f"{URL}/{match_id}").json
        state.pop("id")
        for hand in state["hands"]:
            hand.pop("id")
        out.append(state)
    return out


def comparable(export: dict) -> dict:
    """An export without its time and with hand ids as positions (a database gives ids)."""
    export = copy.deepcopy(export)
    export.pop("exported_at")
    for group in export["groups"]:
        for match in group["matches"]:
            position = {hand["id"]: hand["number"] for hand in match["hands"]}
            for hand in match["hands"]:
                hand["id"] = hand["number"]
            for entry in match["audit"]:
                entry["hand_id"] = position.get(entry["hand_id"])  # a removed hand's: none
    return export


def match_ids(app) -> list[int]:
    with app.app_context():
        return list(db.session.execute(select(Match.id).order_by(Match.id)).scalars())


def test_every_preset_round_trips_exactly_into_another_server(app, client, tmp_path):
    ids = play_every_preset(app, client)
    played = {client.get(f"{URL}/{i}").json["variant"] for i in ids}
    assert played == set(PRESETS)
    export = client.get("/api/v1/export?format=json")
    assert export.status_code == 200
    csv_before = client.get("/api/v1/export?format=csv").data

    other = app_on_new_database(tmp_path / "other.sqlite")
    there = signed_in(other)
    imported = there.post("/api/v1/import", json=export.json)
    assert imported.status_code == 201, imported.json
    assert imported.json == {"matches": len(ids), "skipped": 0}
    new_ids = match_ids(other)
    assert states(there, new_ids) == states(client, ids)
    again = there.get("/api/v1/export?format=json").json
    assert comparable(again) == comparable(export.json)
    assert there.get("/api/v1/export?format=csv").data == csv_before
    # The pages of every imported match work too (dispute view with its history).
    for match_id in new_ids:
        assert there.get(f"/matches/{match_id}").status_code == 200
        assert there.get(f"/matches/{match_id}/hands/1").status_code == 200
    seated = new_ids[[state["variant"] for state in states(there, new_ids)].index("burraco-3p")]
    page = there.get(f"/matches/{seated}/hands/2").get_data(as_text=True)
    assert "Who played with whom: Bea &amp; Cy v Ada alone." in page

    # The same file again adds nothing.
    twice = there.post("/api/v1/import", json=export.json)
    assert twice.status_code == 201
    assert twice.json == {"matches": 0, "skipped": len(ids)}
    assert match_ids(other) == new_ids
    with other.app_context():
        db.engine.dispose()


def test_the_round_trip_is_exact_on_postgresql(postgres_schema_url):
    app = create_app(app_config(postgres_schema_url))
    with app.app_context():
        flask_migrate.upgrade()
    client = signed_in(app)
    ids = play_every_preset(app, client)
    before = states(client, ids)
    export = client.get("/api/v1/export?format=json").json
    csv_before = client.get("/api/v1/export?format=csv").data
    with app.app_context(), transaction():
        db.session.execute(delete(Match))
    assert match_ids(app) == []
    imported = client.post("/api/v1/import", json=export)
    assert imported.status_code == 201, imported.json
    assert imported.json == {"matches": len(ids), "skipped": 0}
    new_ids = match_ids(app)
    assert states(client, new_ids) == before
    assert comparable(client.get("/api/v1/export?format=json").json) == comparable(export)
    assert client.get("/api/v1/export?format=csv").data == csv_before
    twice = client.post("/api/v1/import", json=export)
    assert twice.json == {"matches": 0, "skipped": len(ids)}
    assert match_ids(app) == new_ids
    with app.app_context():
        db.session.remove()
        db.engine.dispose()


def finished_classic(client) -> int:
    match_id = create(client, "classic", CLASSIC_TEAMS, options={"target": 200})
    out = [{"went_out": True, "canastas": {"natural": 2}, "meld_points": 300}, {"hand_points": 30}]
    post(client, match_id, out)
    return match_id


def test_the_csv_has_a_row_per_hand_and_side_with_running_totals(client):
    match_id = create(
        client, "classic-3p", [{"players": ["=Ann"]}, {"players": ["Bob"]}, {"players": ["Cy"]}]
    )
    three = [{"meld_points": 105, "hand_points": 5}, {"meld_points": 55}, {"meld_points": 20}]
    post(client, match_id, three)
    post(client, match_id, three[::-1])
    response = client.get("/api/v1/export?format=csv")
    assert response.status_code == 200
    assert response.mimetype == "text/csv"
    assert response.headers["Content-Disposition"].startswith("attachment; filename=")
    rows = list(csv.reader(io.StringIO(response.data.decode())))
    assert rows[0] == [
        "match_uid",
        "date",
        "variant",
        "hand",
        "side",
        "players",
        "hand_total",
        "running_total",
    ]
    state = client.get(f"{URL}/{match_id}").json
    uid = client.get("/api/v1/export").json["groups"][0]["matches"][0]["uid"]
    day = state["audit"][0]["at"][:10]
    totals = [[side["total"] for side in hand["sides"]] for hand in state["hands"]]
    names = ["'=Ann", "Bob", "Cy"]  # a name that starts like a formula stays text
    expected = []
    running = [0, 0, 0]
    for number, hand in enumerate(totals, start=1):
        for seat, total in enumerate(hand):
            running[seat] += total
            expected.append(
                [
                    uid,
                    day,
                    "classic-3p",
                    str(number),
                    names[seat],
                    names[seat],
                    str(total),
                    str(running[seat]),
                ]
            )
    assert rows[1:] == expected
    assert running == [side["total"] for side in state["sides"]]


def test_export_lists_only_the_callers_groups_and_404s_another(app, client):
    finished_classic(client)
    add_user(app, "Olga")
    olga = sign_in(app.test_client(), "Olga")
    theirs = create(olga, "classic", CLASSIC_TEAMS)
    assert theirs
    mine = client.get("/api/v1/export").json
    assert [len(group["matches"]) for group in mine["groups"]] == [1]
    olgas = olga.get("/api/v1/export").json
    assert [len(group["matches"]) for group in olgas["groups"]] == [1]
    assert olgas["groups"][0]["matches"][0]["uid"] != mine["groups"][0]["matches"][0]["uid"]
    with app.app_context():
        other_group = db.session.get(Match, theirs).group_id
    for url in (
        f"/api/v1/export?group={other_group}",
        "/api/v1/export?group=999999",
        "/api/v1/export?group=x",
    ):
        refused = client.get(url)
        assert refused.status_code == 404, url
        assert refused.json["errors"][0]["field"] == "group"
    refused = client.post(f"/api/v1/import?group={other_group}", json=mine)
    assert refused.status_code == 404
    assert client.get("/api/v1/export?format=xlsx").status_code == 400
    assert app.test_client().get("/api/v1/export").status_code == 401
    assert app.test_client().post("/api/v1/import", json=mine).status_code == 401


def test_export_reads_a_fixed_number_of_queries(app, client):
    counter = Counter(app)
    found = []
    for _ in range(2):
        for _ in range(3):
            match_id = finished_classic(client)
            client.put(
                f"{URL}/{match_id}/hands/1",
                json={
                    "sides": [
                        {"went_out": True, "canastas": {"natural": 2}, "meld_points": 310},
                        {"hand_points": 30},
                    ]
                },
            )
        for fmt in ("json", "csv"):
            found.append(queries(counter, client, f"/api/v1/export?format={fmt}"))
    assert found[:2] == found[2:]


def a_file(client) -> dict:
    finished_classic(client)
    match_id = create(client, "classic", CLASSIC_TEAMS)
    post(client, match_id, USUAL)
    assert client.put(f"{URL}/{match_id}/hands/1", json={"sides": USUAL[::-1]}).status_code == 200
    return client.get("/api/v1/export").json


def broken(doc: dict, change) -> dict:
    doc = copy.deepcopy(doc)
    change(doc)
    return doc


def _second(doc):
    return doc["groups"][0]["matches"][1]


BAD = {
    "not an export": (lambda d: d.update(format="something-else"), "format"),
    "a newer version": (lambda d: d.update(version=2), "format"),
    "a tampered total": (
        lambda d: _second(d)["hands"][0]["sides"][0].update(total=999),
        "groups.0.matches.1.hands.0.sides.0.total",
    ),
    "an impossible hand": (
        lambda d: _second(d)["hands"][0]["sides"][0]["input"].update(meld_points=-5),
        "groups.0.matches.1.hands.0.sides.0.input.meld_points",
    ),
    "a uid that is not one": (
        lambda d: _second(d).update(uid="not-a-uid"),
        "groups.0.matches.1.uid",
    ),
    "one uid twice": (
        lambda d: _second(d).update(uid=d["groups"][0]["matches"][0]["uid"]),
        "groups.0.matches.1.uid",
    ),
    "a winner the hands do not give": (
        lambda d: d["groups"][0]["matches"][0].update(winner=1),
        "groups.0.matches.0.status",
    ),
    "rules this version cannot read": (
        lambda d: _second(d).update(rules={"key": "classic"}),
        "groups.0.matches.1.rules",
    ),
    "hands out of order": (
        lambda d: _second(d)["hands"][0].update(number=2),
        "groups.0.matches.1.hands.0.number",
    ),
    "a player with no name": (
        lambda d: _second(d)["sides"][0]["players"].__setitem__(0, "  "),
        "groups.0.matches.1.sides.0.players.0",
    ),
    "a bad date": (
        lambda d: _second(d).update(created_at="last Thursday"),
        "groups.0.matches.1.created_at",
    ),
    "an audit entry of another kind": (
        lambda d: _second(d)["audit"][0].update(action="shuffled"),
        "groups.0.matches.1.audit.0.action",
    ),
    "a made-up audit snapshot": (
        lambda d: _second(d)["audit"][0].update(after={"number": 1, "sides": "lots"}),
        "groups.0.matches.1.audit.0.after.sides",
    ),
    "no matches list": (lambda d: d["groups"][0].pop("matches"), "groups.0.matches"),
}


@pytest.mark.parametrize("case", list(BAD))
def test_a_bad_file_is_refused_whole_saying_where(app, client, tmp_path, case):
    doc = a_file(client)
    change, field = BAD[case]
    other = app_on_new_database(tmp_path / "other.sqlite")
    there = signed_in(other)
    refused = there.post("/api/v1/import", json=broken(doc, change))
    assert refused.status_code == 422, refused.json
    fields = [error["field"] for error in refused.json["errors"]]
    assert field in fields, refused.json
    assert match_ids(other) == []  # the good match of the file was not saved either
    with other.app_context():
        db.engine.dispose()


def test_what_is_not_an_export_is_refused_with_json_errors(app, client):
    doc = a_file(client)
    with app.app_context():
        before = db.session.execute(select(func.count()).select_from(Match)).scalar_one()
    assert (
        client.post("/api/v1/import", data="{not json", content_type="application/json").status_code
        == 400
    )
    assert client.post("/api/v1/import", json=[1, 2]).status_code == 400
    assert client.post("/api/v1/import", data="x", content_type="text/plain").status_code == 415
    app.config["IMPORT_MAX_BYTES"] = 1000
    too_big = client.post("/api/v1/import", json=doc)
    assert too_big.status_code == 413
    assert too_big.json["errors"]
    with app.app_context():
        after = db.session.execute(select(func.count()).select_from(Match)).scalar_one()
    assert after == before


def test_an_import_finds_the_groups_players_by_name_whatever_the_case(app, client, tmp_path):
    doc = a_file(client)
    other = app_on_new_database(tmp_path / "other.sqlite")
    there = signed_in(other)
    mine = create(there, "classic-2p", [{"players": ["ANN"]}, {"players": ["Zed"]}])
    assert there.post("/api/v1/import", json=doc).status_code == 201
    seated = {
        tuple(side["players"])
        for i in match_ids(other)
        for side in there.get(f"{URL}/{i}").json["sides"]
    }
    assert ("ANN",) in seated  # her own match
    assert ("ANN", "Bob") in seated  # the imported matches seat the same Ann
    assert ("Ann", "Bob") not in seated
    assert mine in match_ids(other)
    with other.app_context():
        db.engine.dispose()


def test_an_import_may_be_larger_than_any_other_request(app, client):
    doc = a_file(client)
    body = json.dumps(doc) + " " * (300 * 1024)  # past MAX_CONTENT_LENGTH (256 KB)
    assert len(body) > app.config["MAX_CONTENT_LENGTH"]
    accepted = client.post("/api/v1/import", data=body, content_type="application/json")
    assert accepted.status_code == 201, accepted.json
    assert accepted.json == {"matches": 0, "skipped": 2}
    refused = client.post(URL, data=body, content_type="application/json")
    assert refused.status_code == 413  # any other request keeps the usual limit


def test_a_burraco_three_csv_has_a_row_per_hand_and_seat_with_its_share(client):
    match_id = play_burraco_three(client)
    state = client.get(f"{URL}/{match_id}").json
    rows = list(csv.reader(io.StringIO(client.get("/api/v1/export?format=csv").data.decode())))
    assert [row[3:] for row in rows[1:]] == [
        ["1", "Ada", "Ada", "630", "630"],
        ["1", "Bea", "Bea", "70", "70"],
        ["1", "Cy", "Cy", "70", "70"],
        ["2", "Ada", "Ada", "390", "1020"],  # alone: the pair's -135 is -65 each
        ["2", "Bea", "Bea", "-65", "5"],
        ["2", "Cy", "Cy", "-65", "5"],
        ["3", "Ada", "Ada", "610", "1630"],  # each for himself
        ["3", "Bea", "Bea", "45", "50"],
        ["3", "Cy", "Cy", "-65", "-60"],
    ]
    assert [side["total"] for side in state["sides"]] == [1630, 50, -60]


def seated_file(client) -> dict:
    play_burraco_three(client)
    finished_classic(client)
    doc = client.get("/api/v1/export").json
    assert [hand["lineup"] for hand in doc["groups"][0]["matches"][0]["hands"]] == [
        PAIR_V_ONE,
        [[1, 2], [0]],
        EACH,
    ]
    assert all("lineup" not in hand for hand in doc["groups"][0]["matches"][1]["hands"])
    return doc


def _seated_hand(doc, index):
    return doc["groups"][0]["matches"][0]["hands"][index]


def _pair_after_switch(doc):
    hand = _seated_hand(doc, 2)
    hand["lineup"] = [[1], [0, 2]]
    hand["sides"][2]["input"] = hand["sides"][0]["input"]


SEATED_BAD = {
    "a hand without its line-up": (
        lambda d: _seated_hand(d, 0).pop("lineup"),
        "groups.0.matches.0.hands.0.lineup",
    ),
    "a line-up that leaves a seat out": (
        lambda d: _seated_hand(d, 0).update(lineup=[[0], [1]]),
        "groups.0.matches.0.hands.0.lineup",
    ),
    "a pair whose seats were given different entries": (
        lambda d: _seated_hand(d, 0)["sides"][2]["input"].update(meld_points=85),
        "groups.0.matches.0.hands.0.sides.2.input",
    ),
    "a pair's share tampered": (
        lambda d: _seated_hand(d, 0)["sides"][2].update(total=135),
        "groups.0.matches.0.hands.0.sides.2.total",
    ),
    "a pair against one after the switch": (
        _pair_after_switch,
        "groups.0.matches.0.hands.2.lineup",
    ),
    "a line-up in a game without seats": (
        lambda d: d["groups"][0]["matches"][1]["hands"][0].update(lineup=[[0], [1]]),
        "groups.0.matches.1.hands.0.lineup",
    ),
}


@pytest.mark.parametrize("case", list(SEATED_BAD))
def test_a_seated_hand_is_checked_as_when_it_was_recorded(app, client, tmp_path, case):
    doc = seated_file(client)
    change, field = SEATED_BAD[case]
    other = app_on_new_database(tmp_path / "other.sqlite")
    there = signed_in(other)
    refused = there.post("/api/v1/import", json=broken(doc, change))
    assert refused.status_code == 422, refused.json
    assert field in [error["field"] for error in refused.json["errors"]], refused.json
    assert match_ids(other) == []
    assert there.post("/api/v1/import", json=doc).status_code == 201  # the file as it was
    with other.app_context():
        db.engine.dispose()


def test_a_match_won_at_once_by_a_dream_hand_must_say_so(app, client, tmp_path):
    dream, _ = play_modern_american(client)
    doc = client.get("/api/v1/export").json
    won = doc["groups"][0]["matches"][0]
    assert (won["status"], won["winner"]) == ("finished", 1)
    other = app_on_new_database(tmp_path / "other.sqlite")
    there = signed_in(other)
    # Behind on points, the dream hand's side is still the winner: the file cannot say
    # the game goes on, nor that the side ahead won.
    for claim in ({"status": "playing", "winner": None}, {"status": "finished", "winner": 0}):
        wrong = copy.deepcopy(doc)
        wrong["groups"][0]["matches"][0].update(claim)
        refused = there.post("/api/v1/import", json=wrong)
        assert refused.status_code == 422
        assert "groups.0.matches.0.status" in [e["field"] for e in refused.json["errors"]]
    assert there.post("/api/v1/import", json=doc).status_code == 201
    state = there.get(f"{URL}/{match_ids(other)[0]}").json
    assert (state["status"], state["winner"], state["finished"]) == ("finished", 1, True)
    assert state == {**client.get(f"{URL}/{dream}").json, "id": state["id"]}
    with other.app_context():
        db.engine.dispose()


def _paths(value, path=()):
    """Every place in a JSON value: (path, value)."""
    yield path, value
    if isinstance(value, dict):
        for key, child in value.items():
            yield from _paths(child, (*path, key))
    elif isinstance(value, list):
        for index, child in enumerate(value):
            yield from _paths(child, (*path, index))


JUNK = [None, "", "x" * 200, -1, 0, 2**40, 1.5, True, [], {}, [None], {"a": None}]


def test_no_damage_to_a_file_is_a_500(app, client, tmp_path):
    """A file damaged anywhere is refused (422) or, where the damage is harmless,
    imported (201): never a server error, and nothing half-saved."""
    doc = a_file(client)
    other = app_on_new_database(tmp_path / "other.sqlite")
    there = signed_in(other)
    places = [path for path, _ in _paths(doc) if path]
    rng = random.Random(12)
    for path in rng.sample(places, min(len(places), 250)):
        damaged = copy.deepcopy(doc)
        *parents, last = path
        holder = damaged
        for step in parents:
            holder = holder[step]
        holder[last] = rng.choice(JUNK)
        answer = there.post("/api/v1/import", json=damaged)
        assert answer.status_code in (201, 422), (path, holder[last], answer.json)
        if answer.status_code == 201:
            assert answer.json == {"matches": 2, "skipped": 0}, path
            with other.app_context(), transaction():
                db.session.execute(delete(Match))
        else:
            assert match_ids(other) == [], path
    with other.app_context():
        db.engine.dispose()
