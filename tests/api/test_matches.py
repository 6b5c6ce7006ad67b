"""The match endpoints of API.md: create, read, record, correct and remove hands.

Numbers are worked out by hand from RULES.md (Classic Canasta unless said otherwise:
natural canasta 500, mixed 300, going out 100, red threes 100 each, target 5000).
"""

from __future__ import annotations

import copy
import gzip
import json
import sys
from dataclasses import replace
from types import MappingProxyType

import pytest

from scorekeeper import create_app
from scorekeeper.extensions import db
from scorekeeper.models import Match
from scorekeeper.rules import presets as presets_module
from tests.support import LAYOUTS, app_config, signed_in

URL = "/api/v1/matches"

TEAMS = [
    {"name": "Us", "players": ["Ann", "Bob"]},
    {"name": "Them", "players": ["Cy", "Di"]},
]
# Seats clockwise, partners alternate: Ann, Cy, Bob, Di.
SEATS = ["Ann", "Cy", "Bob", "Di"]


def side(out=False, naturals=0, mixed=0, meld=0, hand=0, red=0, concealed=False):
    """A Classic hand-record side; omitted fields stay out of the record."""
    record = {}
    if out:
        record["went_out"] = True
    if concealed:
        record["concealed"] = True
    canastas = {k: v for k, v in (("natural", naturals), ("mixed", mixed)) if v}
    if canastas:
        record["canastas"] = canastas
    record["meld_points"] = meld
    if hand:
        record["hand_points"] = hand
    if red:
        record["red_threes"] = red
    return record


def worth(points, out=True):
    """A Classic side scoring exactly `points` (a multiple of 5, at least 535 + going out):
    natural canastas for the bulk, the rest in melded cards (at least 35 a canasta), as big
    hands really are made, so the cards stay within one deck."""
    rest = points - (100 if out else 0)
    naturals = max(1, (rest - 35) // 500)
    while rest - 500 * naturals < 35 * naturals:
        naturals -= 1
    return side(out=out, naturals=naturals, meld=rest - 500 * naturals)


# 500 + 300 + 100 + 100 = 1000 | 100 - 40 = 60
HAND_A = [side(out=True, naturals=1, meld=300, red=1), side(meld=100, hand=40)]
# 300 + 200 + 100 = 600 | 80 - 25 = 55
HAND_B = [side(meld=80, hand=25), side(out=True, mixed=1, meld=200)]
# 1000 + 500 + 100 = 1600 | -30
HAND_C = [side(out=True, naturals=2, meld=500), side(hand=30)]


def create(client, variant="classic", sides=None, **extra):
    response = client.post(URL, json={"variant": variant, "sides": sides or TEAMS, **extra})
    assert response.status_code == 201, response.json
    return response.json


def read(client, match_id):
    response = client.get(f"{URL}/{match_id}")
    assert response.status_code == 200, response.json
    return response.json


def add(client, match_id, sides, status=201):
    response = client.post(f"{URL}/{match_id}/hands", json={"sides": sides})
    assert response.status_code == status, response.json
    return response.json


def correct(client, match_id, number, sides, status=200, **extra):
    response = client.put(f"{URL}/{match_id}/hands/{number}", json={"sides": sides, **extra})
    assert response.status_code == status, response.json
    return response.json


def remove(client, match_id, number, status=200):
    response = client.delete(f"{URL}/{match_id}/hands/{number}")
    assert response.status_code == status, response.json
    return response.json


def totals(state):
    return [s["total"] for s in state["sides"]]


def hand_totals(state):
    return [[s["total"] for s in hand["sides"]] for hand in state["hands"]]


def problems(response, status=422):
    assert response.status_code == status, response.get_data(as_text=True)
    assert response.is_json
    errors = response.json["errors"]
    assert errors
    for error in errors:
        assert set(error) >= {"side", "field", "message"}
        assert isinstance(error["message"], str)
        assert error["message"]
    return {(e["side"], e["field"]) for e in errors}


def match_count(app):
    with app.app_context():
        return db.session.query(Match).count()


def check_consistent(state):
    """Lines add up, side totals are the sums of the hands, hands are numbered 1..n."""
    assert [hand["number"] for hand in state["hands"]] == list(range(1, len(state["hands"]) + 1))
    running = [0] * len(state["sides"])
    for hand in state["hands"]:
        for seat, hand_side in enumerate(hand["sides"]):
            assert sum(line["points"] for line in hand_side["lines"]) == hand_side["total"]
            running[seat] += hand_side["total"]
    assert totals(state) == running


# --- creating a match ----------------------------------------------------------------------


def test_create_answers_201_with_location_and_the_state(client):
    response = client.post(URL, json={"variant": "classic", "sides": TEAMS})
    assert response.status_code == 201
    assert response.is_json
    state = response.json
    assert isinstance(state["id"], int)
    assert response.headers["Location"].endswith(f"{URL}/{state['id']}")
    assert state["variant"] == "classic"
    assert isinstance(state["rules"], dict)
    assert state["rules"]["target"] == 5000
    assert [s["name"] for s in state["sides"]] == ["Us", "Them"]
    assert [s["players"] for s in state["sides"]] == [["Ann", "Bob"], ["Cy", "Di"]]
    assert totals(state) == [0, 0]
    for s in state["sides"]:
        need = s["next_meld_requirement"]
        assert need["points"] == 50  # 0-1495: 50
        assert need["canasta"] is None
        assert isinstance(need["label"], str)
        assert need["label"]
    assert state["hands"] == []
    assert state["finished"] is False
    assert state["winner"] is None
    assert state["dealer"] == "Ann"  # the first player deals unless told otherwise

    location = response.headers["Location"]
    again = client.get(location)
    assert again.status_code == 200
    assert again.json == state


def test_new_match_freezes_the_fully_resolved_preset(client):
    state = create(client)
    preset = client.get("/api/v1/variants/classic").json["rules"]
    assert state["rules"] == preset


def test_new_match_freezes_the_options_resolved(client):
    options = {"target": 2000, "going_out": 300}
    state = create(client, options=options)
    detail = client.get("/api/v1/variants/classic", query_string={"options": json.dumps(options)})
    resolved = detail.json["rules"]
    assert state["rules"] == resolved
    assert state["rules"]["target"] == 2000
    assert state["rules"]["going_out"]["bonus"] == 300


NAMES = ["Ann", "Bob", "Cy", "Di", "Eve", "Fay"]


def sides_of(count, players):
    names = iter(NAMES)
    return [{"players": [next(names) for _ in range(players)]} for _ in range(count)]


@pytest.mark.parametrize(("variant", "count", "players"), LAYOUTS)
def test_every_preset_starts_with_each_of_its_layouts(client, variant, count, players):
    state = create(client, variant, sides_of(count, players))
    assert state["variant"] == variant
    assert [len(s["players"]) for s in state["sides"]] == [players] * count
    assert totals(state) == [0] * count
    assert state["finished"] is False


@pytest.mark.parametrize(
    ("variant", "count", "players"),
    [
        ("classic", 2, 1),
        ("classic", 3, 2),
        ("classic-2p", 2, 2),
        ("classic-3p", 2, 1),
        ("samba", 3, 1),
        ("buraco", 2, 2),
        ("burraco", 3, 1),
    ],
)
def test_a_layout_the_preset_does_not_allow_is_422(app, client, variant, count, players):
    response = client.post(URL, json={"variant": variant, "sides": sides_of(count, players)})
    assert (None, "sides") in problems(response)
    assert match_count(app) == 0


@pytest.mark.parametrize(
    ("body", "expected"),
    [
        ({"variant": "pinochle", "sides": TEAMS}, (None, "variant")),
        ({"sides": TEAMS}, (None, "variant")),
        ({"variant": 7, "sides": TEAMS}, (None, "variant")),
        ({"variant": "classic"}, (None, "sides")),
        ({"variant": "classic", "sides": {"a": 1}}, (None, "sides")),
        ({"variant": "classic", "sides": []}, (None, "sides")),
        (
            {"variant": "classic", "sides": TEAMS, "options": {"target": 0}},
            (None, "options.target"),
        ),
        ({"variant": "classic", "sides": TEAMS, "options": {"zz": 1}}, (None, "options.zz")),
        ({"variant": "classic", "sides": TEAMS, "colour": "red"}, (None, "colour")),
        ({"variant": "classic", "sides": TEAMS, "first_dealer": 4}, (None, "first_dealer")),
        ({"variant": "classic", "sides": TEAMS, "first_dealer": "Zed"}, (None, "first_dealer")),
        (
            {"variant": "classic", "sides": [TEAMS[0], {"players": ["Cy", ""]}]},
            (1, "players.1"),
        ),
        (
            {"variant": "classic", "sides": [TEAMS[0], {"players": ["Cy", "ann"]}]},
            (1, "players.1"),
        ),
        (
            {"variant": "classic", "sides": [TEAMS[0], {"players": ["Cy", "x" * 41]}]},
            (1, "players.1"),
        ),
        (
            {"variant": "classic", "sides": [TEAMS[0], {"players": ["Cy", 5]}]},
            (1, "players.1"),
        ),
    ],
)
def test_a_bad_new_match_is_422_with_side_and_field(app, client, body, expected):
    response = client.post(URL, json=body)
    assert expected in problems(response)
    assert match_count(app) == 0


def test_every_problem_of_a_new_match_is_reported_together(app, client):
    body = {
        "variant": "classic",
        "options": {"target": "x"},
        "sides": [{"players": ["Ann", ""]}, {"players": ["Cy"]}],
    }
    found = problems(client.post(URL, json=body))
    assert {(None, "options.target"), (0, "players.1"), (None, "sides")} <= found
    assert match_count(app) == 0


def test_first_dealer_by_name_or_seat(client):
    assert create(client, first_dealer="Di")["dealer"] == "Di"
    assert create(client, first_dealer=1)["dealer"] == "Cy"


@pytest.mark.parametrize(
    ("data", "content_type", "status"),
    [
        ("variant=classic", "application/x-www-form-urlencoded", 415),
        ('{"variant": "classic"}', "text/plain", 415),
        ("{", "application/json", 400),
        ("", "application/json", 400),
        ('["classic"]', "application/json", 400),
        ('"classic"', "application/json", 400),
        ("null", "application/json", 400),
        (b"\xff\xfe", "application/json", 400),
    ],
)
def test_create_with_a_body_that_is_not_a_json_object(app, client, data, content_type, status):
    response = client.post(URL, data=data, content_type=content_type)
    assert problems(response, status)
    assert match_count(app) == 0


@pytest.mark.parametrize(
    "options",
    [{"going_out": 10**19}, {"natural_canasta": 10**19}, {"red_three": 10**19}, {"target": 10**30}],
)
def test_huge_option_values_never_end_in_a_500(client, options):
    """API.md: errors are JSON, "never a 500 for bad input". An option too big to keep
    may be refused when the match starts (422 on options.NAME), or scored; not a crash."""
    response = client.post(
        URL,
        json={"variant": "classic-2p", "options": options, "sides": sides_of(2, 1)},
    )
    if response.status_code == 422:
        assert {f"options.{name}" for name in options} <= {f for _, f in problems(response)}
        return
    assert response.status_code == 201, response.get_data(as_text=True)
    match_id = response.json["id"]
    hand = [
        {"went_out": True, "canastas": {"natural": 2}, "meld_points": 100, "red_threes": 1},
        {"meld_points": 50},
    ]
    answer = client.post(f"{URL}/{match_id}/hands", json={"sides": hand})
    assert answer.status_code == 201, answer.get_data(as_text=True)
    check_consistent(answer.json)


# --- reading -------------------------------------------------------------------------------


UNKNOWN_MATCH_CALLS = [
    ("GET", "{url}/{id}"),
    ("POST", "{url}/{id}/hands"),
    ("PUT", "{url}/{id}/hands/1"),
    ("DELETE", "{url}/{id}/hands/1"),
]


@pytest.mark.parametrize(("method", "path"), UNKNOWN_MATCH_CALLS)
def test_unknown_match_is_a_json_404(client, method, path):
    create(client)
    response = client.open(path.format(url=URL, id=999), method=method, json={"sides": HAND_A})
    assert problems(response, 404)


@pytest.mark.parametrize("match_id", [2**31, 2**63 - 1, 2**63, 10**30])
def test_a_huge_match_number_is_a_json_404_not_a_500(client, match_id):
    create(client)
    for method, path in UNKNOWN_MATCH_CALLS:
        url = path.format(url=URL, id=match_id)
        response = client.open(url, method=method, json={"sides": HAND_A})
        assert response.status_code == 404, (method, url, response.get_data(as_text=True))
        assert response.is_json


# --- recording hands -----------------------------------------------------------------------


def test_record_a_hand_answers_201_with_totals_lines_and_requirements(client):
    match_id = create(client)["id"]
    state = add(client, match_id, HAND_A)
    assert state["id"] == match_id
    assert len(state["hands"]) == 1
    hand = state["hands"][0]
    assert hand["number"] == 1
    assert [s["input"] for s in hand["sides"]] == HAND_A
    assert [s["total"] for s in hand["sides"]] == [1000, 60]
    lines = {line["rule"]: line["points"] for line in hand["sides"][0]["lines"]}
    assert lines["canasta.natural"] == 500
    assert lines["meld_points"] == 300
    assert lines["going_out"] == 100
    assert lines["red_threes"] == 100
    assert totals(state) == [1000, 60]
    assert [s["next_meld_requirement"]["points"] for s in state["sides"]] == [50, 50]
    assert state["finished"] is False
    assert state["winner"] is None
    check_consistent(state)
    assert read(client, match_id) == state


def test_totals_and_meld_requirements_follow_the_running_score(client):
    match_id = create(client)["id"]
    add(client, match_id, HAND_A)  # 1000, 60
    add(client, match_id, HAND_B)  # 1055, 660
    state = add(client, match_id, HAND_C)  # 2655, 630
    assert hand_totals(state) == [[1000, 60], [55, 600], [1600, -30]]
    assert totals(state) == [2655, 630]
    assert [s["next_meld_requirement"]["points"] for s in state["sides"]] == [90, 50]
    # A side below 0 needs 15; from 3000 on, 120.
    state = add(client, match_id, [worth(700), side(hand=700, red=1)])  # 3355 | -100-700
    assert totals(state) == [3355, -170]
    assert [s["next_meld_requirement"]["points"] for s in state["sides"]] == [120, 15]
    check_consistent(state)


def test_the_deal_passes_clockwise_round_the_table(client):
    match_id = create(client)["id"]
    dealers = [read(client, match_id)["dealer"]]
    for _ in range(4):
        dealers.append(add(client, match_id, HAND_B)["dealer"])
    assert dealers == [*SEATS, "Ann"]


def test_an_invalid_hand_is_422_with_side_and_field_as_score_and_changes_nothing(client):
    match_id = create(client)["id"]
    add(client, match_id, HAND_A)
    before = read(client, match_id)
    bad = [
        {"went_out": True, "canastas": {"natural": 1}, "meld_points": 300},
        {"went_out": True, "meld_points": 7, "canastas": {"samba": 1}, "went_ot": False},
    ]
    response = client.post(f"{URL}/{match_id}/hands", json={"sides": bad})
    found = problems(response)
    assert {(None, "went_out"), (1, "meld_points"), (1, "canastas.samba"), (1, "went_ot")} <= found
    # The same hand sent to /score is rejected for the same sides and fields.
    stateless = client.post("/api/v1/score", json={"variant": "classic", "sides": bad})
    assert found == problems(stateless)
    assert read(client, match_id) == before


@pytest.mark.parametrize(
    ("body", "expected"),
    [
        ({"sides": [HAND_A[0]]}, (None, "sides")),
        ({"sides": [*HAND_A, HAND_A[1]]}, (None, "sides")),
        ({}, (None, "sides")),
        ({"sides": "two"}, (None, "sides")),
        ({"sides": HAND_A, "extra": 1}, (None, "extra")),
        ({"sides": [HAND_A[0], "x"]}, (1, "side")),
        ({"sides": [side(out=True, meld=300), HAND_A[1]]}, (0, "went_out")),
        ({"sides": [HAND_A[0], side(meld=100, red=4)]}, (None, "red_threes")),
        ({"sides": [HAND_A[0], {"meld_points": 2.0}]}, (1, "meld_points")),
        ({"sides": [HAND_A[0], {"meld_points": True}]}, (1, "meld_points")),
        ({"sides": [HAND_A[0], {"hand_points": -5}]}, (1, "hand_points")),
        ({"sides": [HAND_A[0], {"concealed": True}]}, (1, "concealed")),
    ],
)
def test_rejected_hands_name_side_and_field(client, body, expected):
    match_id = create(client)["id"]
    before = read(client, match_id)
    response = client.post(f"{URL}/{match_id}/hands", json=body)
    assert expected in problems(response)
    assert read(client, match_id) == before


def test_one_player_sides_are_checked_as_one_player(client):
    """A match knows its layout: in Burraco 2x1 the closing player holds no cards."""
    match_id = create(client, "burraco", sides_of(2, 1))["id"]
    closing = {"went_out": True, "canastas": {"natural": 1}, "meld_points": 100}
    closing |= {"took_extra_hand": True, "hand_points": 20}
    response = client.post(
        f"{URL}/{match_id}/hands", json={"sides": [closing, {"took_extra_hand": True}]}
    )
    assert (0, "hand_points") in problems(response)
    # With partners, the partner of the closing player may still hold cards.
    match_id = create(client, "burraco", sides_of(2, 2))["id"]
    state = add(client, match_id, [closing, {"took_extra_hand": True}])
    assert totals(state) == [200 + 100 + 100 - 20, 0]


@pytest.mark.parametrize(
    ("data", "content_type", "status"),
    [
        ("sides=1", "application/x-www-form-urlencoded", 415),
        ('{"sides": []}', "text/plain", 415),
        ("{", "application/json", 400),
        ("[]", "application/json", 400),
    ],
)
def test_recording_needs_a_json_object(client, data, content_type, status):
    match_id = create(client)["id"]
    before = read(client, match_id)
    response = client.post(f"{URL}/{match_id}/hands", data=data, content_type=content_type)
    assert problems(response, status)
    assert read(client, match_id) == before


def finished_match(client):
    """Us win 5400 to 60 after two hands."""
    match_id = create(client)["id"]
    add(client, match_id, HAND_A)  # 1000 | 60
    state = add(client, match_id, [worth(4400), side()])  # 5400 | 60
    assert state["finished"] is True
    assert state["winner"] == 0
    return match_id


def test_the_game_ends_when_a_side_reaches_the_target(client):
    match_id = create(client)["id"]
    add(client, match_id, [worth(4995), side()])
    state = read(client, match_id)
    assert state["finished"] is False  # 4995: not yet
    state = add(client, match_id, [side(hand=5), side(meld=5)])
    assert totals(state) == [4990, 5]
    assert state["finished"] is False
    state = add(client, match_id, [side(meld=10), side()])  # exactly 5000: reached
    assert totals(state) == [5000, 5]
    assert state["finished"] is True
    assert state["winner"] == 0


def test_both_over_the_target_the_higher_total_wins(client):
    match_id = create(client)["id"]
    add(client, match_id, [worth(4000), worth(4500, out=False)])
    state = add(client, match_id, [worth(1200), worth(600, out=False)])  # 5200 | 5100
    assert state["finished"] is True
    assert state["winner"] == 0


def test_a_tie_at_the_top_plays_on(client):
    match_id = create(client)["id"]
    add(client, match_id, [worth(2550), worth(2550, out=False)])
    state = add(client, match_id, [worth(2550), worth(2550, out=False)])
    assert totals(state) == [5100, 5100]
    assert state["finished"] is False
    assert state["winner"] is None
    state = add(client, match_id, [side(hand=5), side(meld=5)])
    assert state["finished"] is True
    assert state["winner"] == 1


def test_a_finished_match_refuses_another_hand_with_409(client):
    match_id = finished_match(client)
    before = read(client, match_id)
    response = client.post(f"{URL}/{match_id}/hands", json={"sides": HAND_B})
    assert problems(response, 409)
    assert read(client, match_id) == before


def test_a_stale_hand_number_is_409_and_records_nothing(client):
    match_id = create(client)["id"]
    add(client, match_id, HAND_A)
    before = read(client, match_id)
    response = client.post(f"{URL}/{match_id}/hands", json={"sides": HAND_B, "number": 1})
    assert problems(response, 409)
    assert read(client, match_id) == before
    response = client.post(f"{URL}/{match_id}/hands", json={"sides": HAND_B, "number": 2})
    assert response.status_code == 201
    assert len(response.json["hands"]) == 2


# --- correcting hands ----------------------------------------------------------------------


def test_a_correction_recomputes_every_later_total_and_requirement(client):
    match_id = create(client)["id"]
    add(client, match_id, HAND_A)  # 1000 | 60
    add(client, match_id, HAND_B)  # 1055 | 660
    before = add(client, match_id, HAND_C)  # 2655 | 630
    assert [s["next_meld_requirement"]["points"] for s in before["sides"]] == [90, 50]
    # Hand 1 was really: Them went out; Us held 200 more.
    fixed = [side(meld=100, hand=240), side(out=True, naturals=1, meld=300, red=1)]
    state = correct(client, match_id, 1, fixed)
    assert hand_totals(state) == [[-140, 1000], [55, 600], [1600, -30]]
    assert totals(state) == [1515, 1570]
    assert [s["next_meld_requirement"]["points"] for s in state["sides"]] == [90, 90]
    assert [s["input"] for s in state["hands"][0]["sides"]] == fixed
    check_consistent(state)
    assert read(client, match_id) == state


def test_a_correction_to_the_last_hand_can_end_and_reopen_the_game(client):
    match_id = create(client)["id"]
    add(client, match_id, HAND_A)  # 1000 | 60
    state = add(client, match_id, HAND_B)  # 1055 | 660
    assert state["finished"] is False
    state = correct(client, match_id, 2, [worth(4400), side()])  # 5400 | 60
    assert state["finished"] is True
    assert state["winner"] == 0
    state = correct(client, match_id, 2, HAND_B)
    assert state["finished"] is False
    assert state["winner"] is None
    assert totals(state) == [1055, 660]
    add(client, match_id, HAND_C)  # recording works again


def test_a_correction_of_a_finished_match_can_change_the_winner(client):
    match_id = finished_match(client)
    state = correct(client, match_id, 2, [side(), worth(5000)])  # 1000 | 5060
    assert state["finished"] is True
    assert state["winner"] == 1


def test_a_correction_that_would_end_the_game_before_later_hands_is_409(client):
    match_id = create(client)["id"]
    add(client, match_id, HAND_A)
    add(client, match_id, HAND_B)
    add(client, match_id, HAND_C)
    before = read(client, match_id)
    response = client.put(f"{URL}/{match_id}/hands/1", json={"sides": [worth(5000), side()]})
    assert problems(response, 409)
    assert read(client, match_id) == before


def test_a_correction_with_the_current_version_is_taken_and_bumps_it(client):
    match_id = create(client)["id"]
    state = add(client, match_id, HAND_A)
    version = state["hands"][0]["version"]
    state = correct(client, match_id, 1, HAND_B, version=version)
    assert totals(state) == [55, 600]
    assert state["hands"][0]["version"] != version


def test_a_correction_with_a_stale_version_is_409_and_changes_nothing(client):
    match_id = create(client)["id"]
    version = add(client, match_id, HAND_A)["hands"][0]["version"]
    correct(client, match_id, 1, HAND_C, version=version)  # someone else's correction
    before = read(client, match_id)
    response = client.put(f"{URL}/{match_id}/hands/1", json={"sides": HAND_B, "version": version})
    assert problems(response, 409)
    assert read(client, match_id) == before
    assert totals(before) == [1600, -30]


@pytest.mark.parametrize("version", ["1", 1.0, True, [1], {"v": 1}])
def test_a_version_that_is_not_a_whole_number_is_422(client, version):
    match_id = create(client)["id"]
    add(client, match_id, HAND_A)
    before = read(client, match_id)
    response = client.put(f"{URL}/{match_id}/hands/1", json={"sides": HAND_B, "version": version})
    assert (None, "version") in problems(response)
    assert read(client, match_id) == before


def test_an_invalid_correction_is_422_and_changes_nothing(client):
    match_id = create(client)["id"]
    add(client, match_id, HAND_A)
    add(client, match_id, HAND_B)
    before = read(client, match_id)
    bad = [side(out=True, meld=100), side(meld=12)]
    response = client.put(f"{URL}/{match_id}/hands/1", json={"sides": bad})
    assert {(0, "went_out"), (1, "meld_points")} <= problems(response)
    response = client.put(f"{URL}/{match_id}/hands/1", json={"sides": bad, "x": 1})
    assert (None, "x") in problems(response)
    response = client.put(f"{URL}/{match_id}/hands/1", data="sides", content_type="text/plain")
    assert problems(response, 415)
    response = client.put(f"{URL}/{match_id}/hands/1", data="{", content_type="application/json")
    assert problems(response, 400)
    assert read(client, match_id) == before


@pytest.mark.parametrize("number", [0, 3, 99, 10**20])
def test_correcting_or_removing_a_hand_that_does_not_exist_is_404(client, number):
    match_id = create(client)["id"]
    add(client, match_id, HAND_A)
    add(client, match_id, HAND_B)
    before = read(client, match_id)
    response = client.put(f"{URL}/{match_id}/hands/{number}", json={"sides": HAND_C})
    assert problems(response, 404)
    response = client.delete(f"{URL}/{match_id}/hands/{number}")
    assert problems(response, 404)
    assert read(client, match_id) == before


@pytest.mark.parametrize("number", ["-1", "x", "1.5", "%20"])
def test_a_hand_number_that_is_not_a_number_gets_a_json_error(client, number):
    match_id = create(client)["id"]
    add(client, match_id, HAND_A)
    before = read(client, match_id)
    for method in ("PUT", "DELETE"):
        response = client.open(
            f"{URL}/{match_id}/hands/{number}", method=method, json={"sides": HAND_C}
        )
        assert response.status_code == 404
        assert response.is_json
    assert read(client, match_id) == before


# --- removing hands ------------------------------------------------------------------------


def test_removing_a_hand_renumbers_the_later_ones_and_recomputes(client):
    match_id = create(client)["id"]
    add(client, match_id, HAND_A)
    add(client, match_id, HAND_B)
    add(client, match_id, HAND_C)
    state = remove(client, match_id, 2)
    assert [hand["number"] for hand in state["hands"]] == [1, 2]
    assert [s["input"] for s in state["hands"][1]["sides"]] == HAND_C
    assert hand_totals(state) == [[1000, 60], [1600, -30]]
    assert totals(state) == [2600, 30]
    assert [s["next_meld_requirement"]["points"] for s in state["sides"]] == [90, 50]
    check_consistent(state)
    assert read(client, match_id) == state
    # The renumbered hand answers to its new number.
    state = correct(client, match_id, 2, HAND_B)
    assert hand_totals(state) == [[1000, 60], [55, 600]]
    state = remove(client, match_id, 1)
    assert hand_totals(state) == [[55, 600]]
    state = remove(client, match_id, 1)
    assert state["hands"] == []
    assert totals(state) == [0, 0]
    assert problems(client.delete(f"{URL}/{match_id}/hands/1"), 404)


def test_removing_the_winning_hand_reopens_the_game(client):
    match_id = finished_match(client)
    state = remove(client, match_id, 2)
    assert state["finished"] is False
    assert state["winner"] is None
    assert totals(state) == [1000, 60]
    state = add(client, match_id, HAND_B)
    assert len(state["hands"]) == 2


def test_removing_a_hand_can_end_the_game_on_the_last_hand(client):
    match_id = create(client)["id"]
    add(client, match_id, [worth(4000), side()])
    add(client, match_id, [side(hand=500), side()])
    state = add(client, match_id, [worth(1200), side()])  # 4700
    assert state["finished"] is False
    state = remove(client, match_id, 2)  # 5200
    assert state["finished"] is True
    assert state["winner"] == 0


def test_a_removal_that_would_end_the_game_before_later_hands_is_409(client):
    match_id = create(client)["id"]
    add(client, match_id, [worth(3000), side()])  # 3000
    add(client, match_id, [side(hand=1000), side()])  # 2000
    add(client, match_id, [worth(2500), side()])  # 4500
    add(client, match_id, [side(meld=200), side()])  # 4700
    before = read(client, match_id)
    # Without hand 2 the game would be over after hand 3 (5500), before hand 4.
    assert problems(client.delete(f"{URL}/{match_id}/hands/2"), 409)
    assert read(client, match_id) == before


# --- audit trail ---------------------------------------------------------------------------


def test_every_change_is_kept_in_the_audit_trail(client):
    match_id = create(client)["id"]
    add(client, match_id, HAND_A)
    add(client, match_id, HAND_B)
    correct(client, match_id, 1, HAND_C)
    state = remove(client, match_id, 2)
    audit = state["audit"]
    assert len(audit) == 4
    if audit[0]["action"] == "recorded":  # oldest first: read it newest first
        audit = audit[::-1]
    summary = [
        (a["action"], a["hand_number"], a["totals_before"], a["totals_after"]) for a in audit
    ]
    assert summary == [
        ("removed", 2, [55, 600], [None, None]),
        ("corrected", 1, [1000, 60], [1600, -30]),
        ("recorded", 2, [None, None], [55, 600]),
        ("recorded", 1, [None, None], [1000, 60]),
    ]
    for entry in audit:
        assert isinstance(entry["at"], str)
        assert entry["at"]


def test_refused_writes_leave_no_audit_entry(client):
    match_id = finished_match(client)
    count = len(read(client, match_id)["audit"])
    client.post(f"{URL}/{match_id}/hands", json={"sides": HAND_B})  # 409: finished
    client.put(f"{URL}/{match_id}/hands/1", json={"sides": [side(out=True, meld=5), side()]})
    client.put(f"{URL}/{match_id}/hands/1", json={"sides": HAND_A, "version": 99})
    client.delete(f"{URL}/{match_id}/hands/7")
    assert len(read(client, match_id)["audit"]) == count


# --- rules frozen at the start -------------------------------------------------------------


def replace_registry(monkeypatch, key, new_rules):
    """Swap a preset in the registry everywhere the registry mapping is referenced."""
    original = presets_module.PRESETS
    patched = MappingProxyType({**original, key: new_rules})
    swapped = 0
    for module in list(sys.modules.values()):
        name = getattr(module, "__name__", "")
        if name.startswith("scorekeeper") and getattr(module, "PRESETS", None) is original:
            monkeypatch.setattr(module, "PRESETS", patched)
            swapped += 1
    assert swapped
    return patched


def test_a_match_keeps_its_rules_when_the_preset_is_replaced(client, monkeypatch):
    old_match = create(client)["id"]
    add(client, old_match, HAND_B)
    frozen = read(client, old_match)

    classic = presets_module.PRESETS["classic"]
    house = replace(
        classic, target=1500, going_out=replace(classic.going_out, bonus=400, concealed_bonus=500)
    )
    replace_registry(monkeypatch, "classic", house)

    new_match = create(client)
    assert new_match["rules"]["target"] == 1500  # the registry change is in effect
    state = read(client, old_match)
    assert state == frozen  # nothing about the old match changed
    # The old match still scores with its own rules: going out 100, target 5000.
    state = add(client, old_match, HAND_A)
    assert hand_totals(state)[-1] == [1000, 60]
    assert state["rules"] == frozen["rules"]
    assert state["finished"] is False
    # A correction and a removal recompute under the frozen rules too.
    state = correct(client, old_match, 1, HAND_C)
    assert hand_totals(state) == [[1600, -30], [1000, 60]]
    assert totals(state) == [2600, 30]
    assert state["finished"] is False  # 2600 would be over the new preset's 1500
    state = remove(client, old_match, 1)
    assert hand_totals(state) == [[1000, 60]]
    assert state["finished"] is False
    # The new match plays under the new preset.
    state = add(client, new_match["id"], HAND_A)
    assert hand_totals(state) == [[1300, 60]]
    state = add(client, new_match["id"], HAND_C)
    assert hand_totals(state) == [[1300, 60], [1900, -30]]
    assert state["finished"] is True


def test_scoring_reads_the_rules_stored_in_the_match(app, client):
    match_id = create(client)["id"]
    with app.app_context():
        match = db.session.get(Match, match_id)
        rules = copy.deepcopy(match.rules)
        rules["going_out"]["bonus"] = 250
        rules["target"] = 1100
        match.rules = rules
        db.session.commit()
    # A server started on this database (rules are read once per match and process).
    client = signed_in(create_app(app_config(app.config["SQLALCHEMY_DATABASE_URI"])))
    state = add(client, match_id, HAND_A)
    assert hand_totals(state) == [[1150, 60]]
    assert state["finished"] is True
    assert state["winner"] == 0


def test_a_match_with_options_scores_like_score_with_the_same_options(client):
    options = {"going_out": 300, "natural_canasta": 600, "red_three": 150, "target": 2500}
    match_id = create(client, options=options)["id"]
    state = add(client, match_id, HAND_A)
    stateless = client.post(
        "/api/v1/score", json={"variant": "classic", "options": options, "sides": HAND_A}
    )
    assert hand_totals(state) == [[s["total"] for s in stateless.json["sides"]]]
    assert hand_totals(state) == [[600 + 300 + 300 + 150, 60]]
    state = add(client, match_id, HAND_C)  # 1350 + 1200 + 500 + 300
    assert totals(state) == [3350, 30]
    assert state["finished"] is True


def test_a_state_read_with_gzip_is_the_same_state_and_its_tag_still_answers_304(client):
    match_id = create(client)["id"]
    add(client, match_id, HAND_A)
    plain = client.get(f"/api/v1/matches/{match_id}")
    packed = client.get(f"/api/v1/matches/{match_id}", headers={"Accept-Encoding": "gzip"})
    assert packed.headers["Content-Encoding"] == "gzip"
    assert "Accept-Encoding" in packed.headers["Vary"]
    assert json.loads(gzip.decompress(packed.data)) == plain.json
    assert packed.headers["ETag"] == plain.headers["ETag"]  # one state, however sent
    again = client.get(
        f"/api/v1/matches/{match_id}",
        headers={"Accept-Encoding": "gzip", "If-None-Match": packed.headers["ETag"]},
    )
    assert again.status_code == 304
    state = add(client, match_id, HAND_A)  # a new revision: a new body, compressed anew
    packed = client.get(f"/api/v1/matches/{match_id}", headers={"Accept-Encoding": "gzip"})
    assert json.loads(gzip.decompress(packed.data)) == state


def test_a_long_match_answers_each_save_with_its_whole_state_compressed(app, client):
    """Every answer unpacks to exactly the state a plain read gives."""
    match_id = create(client, options={"target": 1_000_000})["id"]
    gzip_header = {"Accept-Encoding": "gzip"}
    for number in range(1, 41):
        saved = client.post(f"{URL}/{match_id}/hands", json={"sides": HAND_A}, headers=gzip_header)
        assert saved.status_code == 201, saved.data[:200]
        assert saved.headers["Content-Encoding"] == "gzip"
        text = gzip.decompress(saved.data)
        if number % 20 == 0:
            assert json.loads(text) == client.get(f"{URL}/{match_id}").json
        assert len(json.loads(text)["hands"]) == number
    corrected = client.put(
        f"{URL}/{match_id}/hands/3", json={"sides": HAND_A[::-1]}, headers=gzip_header
    )
    state = json.loads(gzip.decompress(corrected.data))
    assert state == client.get(f"{URL}/{match_id}").json
    assert state["audit"][0]["action"] == "corrected"
