"""Never misplace, lose or invent a hand: the integrity defects, one regression test each.

Numbers are Classic Canasta (RULES.md): natural canasta 500, mixed 300, going out 100.
"""

from __future__ import annotations

import shutil

import flask_migrate
import pytest

from scorekeeper import create_app
from scorekeeper.extensions import db
from scorekeeper.models import Hand, Player
from tests.support import app_config, make_tester

URL = "/api/v1/matches"
TEAMS = [{"name": "Us", "players": ["Ann", "Bob"]}, {"name": "Them", "players": ["Cy", "Di"]}]


@pytest.fixture(scope="session")
def migrated_sqlite(tmp_path_factory):
    """A SQLite file migrated to the latest revision, with TESTER, made once per test
    process: the SQLite tests start from a copy (migrating cost more than most tests)."""
    path = tmp_path_factory.mktemp("integrity") / "migrated.sqlite"
    app = create_app(app_config(f"sqlite:///{path}"))
    with app.app_context():
        flask_migrate.upgrade()
    make_tester(app)
    with app.app_context():
        db.engine.dispose()  # the last connection closed: the WAL is folded into the file
    return path


@pytest.fixture(params=["sqlite", "postgresql"])
def app(request, tmp_path):
    """These defects live in the database layer: each test runs on both databases."""
    if request.param == "sqlite":
        database = tmp_path / "integrity.sqlite"
        shutil.copyfile(request.getfixturevalue("migrated_sqlite"), database)
        app = create_app(app_config(f"sqlite:///{database}"))
    else:
        app = create_app(app_config(request.getfixturevalue("migrated_postgres_url")))
        make_tester(app)
    yield app
    with app.app_context():
        db.session.remove()
        db.engine.dispose()


def hand(us: int, them: int) -> list[dict]:
    """A usual hand nobody went out of: each side melds and still holds 5 points."""
    return [{"meld_points": us + 5, "hand_points": 5}, {"meld_points": them + 5, "hand_points": 5}]


def create(client, sides=TEAMS, variant="classic") -> int:
    response = client.post(URL, json={"variant": variant, "sides": sides})
    assert response.status_code == 201, response.json
    return response.json["id"]


def add(client, match_id, sides, **extra):
    response = client.post(f"{URL}/{match_id}/hands", json={"sides": sides, **extra})
    assert response.status_code == 201, response.json
    return response.json


def read(client, match_id):
    return client.get(f"{URL}/{match_id}").json


def totals_by_hand(state):
    return [[side["total"] for side in h["sides"]] for h in state["hands"]]


def four_hands(client) -> int:
    match_id = create(client)
    for points in (10, 20, 30, 40):
        add(client, match_id, hand(points, points))
    return match_id


# --- 1. A correction never lands on another hand ---------------------------------------


def test_a_correction_aimed_at_a_hand_that_moved_is_refused_and_changes_nothing(client):
    match_id = four_hands(client)
    corrected = client.put(f"{URL}/{match_id}/hands/3", json={"sides": hand(35, 35)})
    assert corrected.status_code == 200
    # Phone A opens hand 3 (corrected once); phone B removes hand 2.
    seen = read(client, match_id)["hands"][2]
    assert client.delete(f"{URL}/{match_id}/hands/2").status_code == 200
    before = read(client, match_id)
    # Hand 3 is now the former hand 4. Phone A saves hand 3 with the version it read.
    response = client.put(
        f"{URL}/{match_id}/hands/3", json={"sides": hand(99, 99), "version": seen["version"]}
    )
    assert response.status_code == 409
    assert "Not saved" in response.json["errors"][0]["message"]
    assert read(client, match_id) == before
    assert totals_by_hand(before) == [[10, 10], [35, 35], [40, 40]]


def test_a_version_names_one_state_of_one_hand_and_never_reappears_on_another(client):
    match_id = create(client)
    seen: dict[int, int] = {}  # version -> the id of the hand it was seen on

    def look() -> None:
        for h in read(client, match_id)["hands"]:
            assert seen.setdefault(h["version"], h["id"]) == h["id"]

    for step in range(12):
        add(client, match_id, hand(5 * step, 5))
        look()
        if step % 3 == 2:
            number = len(read(client, match_id)["hands"]) - 1
            client.put(f"{URL}/{match_id}/hands/{number}", json={"sides": hand(500, 5)})
            look()
        if step % 4 == 3:
            assert client.delete(f"{URL}/{match_id}/hands/1").status_code == 200
            look()
    ids = [h["id"] for h in read(client, match_id)["hands"]]
    assert len(set(ids)) == len(ids)


def test_hand_ids_are_never_reused_after_the_last_hand_is_removed(client):
    match_id = create(client)
    first = add(client, match_id, hand(10, 10))["hands"][0]["id"]
    client.delete(f"{URL}/{match_id}/hands/1")
    again = add(client, match_id, hand(10, 10))["hands"][0]["id"]
    assert again != first


# --- 2. A repeated DELETE removes nothing more ----------------------------------------


def test_a_repeated_delete_with_the_version_read_removes_nothing(client):
    match_id = four_hands(client)
    version = read(client, match_id)["hands"][1]["version"]
    first = client.delete(f"{URL}/{match_id}/hands/2?version={version}")
    assert first.status_code == 200
    assert totals_by_hand(first.json) == [[10, 10], [30, 30], [40, 40]]
    again = client.delete(f"{URL}/{match_id}/hands/2?version={version}")
    assert again.status_code == 409
    assert again.is_json
    assert totals_by_hand(read(client, match_id)) == [[10, 10], [30, 30], [40, 40]]


def test_a_delete_of_a_hand_corrected_since_it_was_read_is_refused(client):
    match_id = four_hands(client)
    version = read(client, match_id)["hands"][0]["version"]
    client.put(f"{URL}/{match_id}/hands/1", json={"sides": hand(15, 15)})
    response = client.delete(f"{URL}/{match_id}/hands/1?version={version}")
    assert response.status_code == 409
    assert len(read(client, match_id)["hands"]) == 4


@pytest.mark.parametrize("version", ["x", "-1", "1.5", "", "9" * 40])
def test_a_delete_version_that_is_not_a_whole_number_is_a_json_400(client, version):
    match_id = four_hands(client)
    response = client.delete(f"{URL}/{match_id}/hands/1?version={version}")
    assert response.status_code == 400
    assert response.json["errors"][0]["field"] == "version"
    assert len(read(client, match_id)["hands"]) == 4


# --- 8. Re-sent posts, and posts refused for a number taken ---------------------------


def test_a_resent_post_with_the_same_token_records_the_hand_once(client, app):
    match_id = create(client)
    body = {"sides": hand(50, 20), "token": "c1b7f0e2-6a4d-4f19-9a53-2f8d3c1e0b77"}
    first = client.post(f"{URL}/{match_id}/hands", json=body)
    assert first.status_code == 201
    again = client.post(f"{URL}/{match_id}/hands", json=body)
    assert again.status_code == 200
    assert again.json == first.json
    other = client.post(f"{URL}/{match_id}/hands", json={**body, "token": "another-token-0001"})
    assert other.status_code == 201
    assert len(other.json["hands"]) == 2
    with app.app_context():
        assert db.session.query(Hand).count() == 2


def test_a_token_already_used_answers_even_after_the_game_ended(client):
    match_id = create(client, [{"players": ["Ann"]}, {"players": ["Bob"]}], "classic-2p")
    body = {
        "sides": [
            {"went_out": True, "canastas": {"natural": 9, "mixed": 1}, "meld_points": 600},
            {"meld_points": 50, "hand_points": 20},
        ],
        "token": "the-winning-hand-token",
    }
    first = client.post(f"{URL}/{match_id}/hands", json=body)
    assert first.json["finished"] is True
    again = client.post(f"{URL}/{match_id}/hands", json=body)
    assert again.status_code == 200
    assert len(again.json["hands"]) == 1


@pytest.mark.parametrize(
    "token", ["short", "x" * 129, 12345678901234567890, "has spaces in it ok", "é" * 20, True]
)
def test_a_token_must_be_16_to_128_printable_characters(client, token):
    match_id = create(client)
    response = client.post(f"{URL}/{match_id}/hands", json={"sides": hand(5, 5), "token": token})
    assert response.status_code == 422
    assert response.json["errors"][0]["field"] == "token"
    assert read(client, match_id)["hands"] == []


def test_a_post_refused_because_the_number_was_taken_says_it_was_not_saved(client):
    match_id = create(client)
    add(client, match_id, hand(10, 10), number=1)
    response = client.post(f"{URL}/{match_id}/hands", json={"sides": hand(20, 20), "number": 1})
    assert response.status_code == 409
    message = response.json["errors"][0]["message"]
    assert message.startswith("Not saved:")
    assert len(read(client, match_id)["hands"]) == 1


# --- Refuse what cannot have happened; warn of what is unlikely ------------------------


def test_a_meld_beyond_the_deck_is_refused_by_the_match_api_and_saves_nothing(client):
    match_id = create(client)
    typo = [{"went_out": True, "canastas": {"natural": 1}, "meld_points": 4200}, hand(0, 120)[1]]
    response = client.post(f"{URL}/{match_id}/hands", json={"sides": typo})
    assert response.status_code == 422
    [error] = response.json["errors"]
    assert (error["side"], error["field"]) == (0, "meld_points")
    assert "1,180" in error["message"]
    assert read(client, match_id)["hands"] == []


def test_an_unlikely_hand_is_saved_by_the_api_with_its_warnings(client):
    match_id = create(client)
    sides = [{"went_out": True, "canastas": {"natural": 1}, "meld_points": 200}, {}]
    response = client.post(f"{URL}/{match_id}/hands", json={"sides": sides})
    assert response.status_code == 201
    assert [(w["side"], w["field"]) for w in response.json["warnings"]] == [(1, "hand_points")]
    assert "warnings" not in read(client, match_id)


# --- 5. Text that cannot be stored -----------------------------------------------------


@pytest.mark.parametrize(
    ("sides", "field"),
    [
        ([{"players": ["Ann\ud800", "Bob"]}, {"players": ["Cy", "Di"]}], "sides.0.players.0"),
        ([{"name": "\udfff", "players": ["Ann", "Bob"]}, TEAMS[1]], "sides.0.name"),
        ([{"players": ["Ann\x00", "Bob"]}, {"players": ["Cy", "Di"]}], "sides.0.players.0"),
    ],
)
def test_a_name_that_cannot_be_stored_is_a_clear_400(client, app, sides, field):
    response = client.post(URL, json={"variant": "classic", "sides": sides})
    assert response.status_code == 400
    [error] = response.json["errors"]
    assert error["field"] == field
    with app.app_context():
        assert db.session.query(Player).count() == 0


def test_a_penalty_reason_that_cannot_be_stored_is_refused(client):
    match_id = create(client)
    sides = hand(50, 50)
    sides[0]["penalties"] = [{"points": 50, "reason": "late \ud83d"}]
    response = client.post(f"{URL}/{match_id}/hands", json={"sides": sides})
    assert response.status_code == 400
    assert response.json["errors"][0]["field"] == "sides.0.penalties.0.reason"
    sides[0]["penalties"] = [{"points": 50, "reason": "two\nlines"}]
    response = client.post(f"{URL}/{match_id}/hands", json={"sides": sides})
    assert response.status_code == 422
    assert response.json["errors"][0]["field"] == "penalties.0.reason"


def test_text_in_the_score_request_is_checked_too(client):
    body = {"variant": "classic\x00", "sides": [{}, {}]}
    response = client.post("/api/v1/score", json=body)
    assert response.status_code == 400
    assert response.json["errors"][0]["field"] == "variant"


# --- 6. A name with a non-ASCII capital ------------------------------------------------


def test_a_name_with_an_accented_capital_is_the_same_player_in_every_match(client, app):
    elodie = [{"players": ["Élodie", "Bob"]}, {"players": ["Cy", "Di"]}]
    first = create(client, elodie)
    second = create(client, [{"players": ["élodie", "Bob"]}, {"players": ["Cy", "Di"]}])
    third = create(client, [{"players": ["ÉLODIE"]}, {"players": ["Zoé"]}], "classic-2p")
    with app.app_context():
        names = sorted(db.session.scalars(db.select(Player.name)))
    assert names == ["Bob", "Cy", "Di", "Zoé", "Élodie"]
    for match_id in (first, second, third):
        state = read(client, match_id)
        assert "Élodie" in [p for side in state["sides"] for p in side["players"]]


def test_two_names_at_one_table_that_differ_only_by_case_are_refused(client):
    sides = [{"players": ["Élodie", "Bob"]}, {"players": ["ÉLODIE", "Di"]}]
    response = client.post(URL, json={"variant": "classic", "sides": sides})
    assert response.status_code == 422
    assert response.json["errors"][0]["field"] == "players.0"
