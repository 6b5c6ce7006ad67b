"""Burraco for three (RULES-2 `burraco-3p`) through the score and match APIs.

The three seats are the match's sides (one player each); a hand is posted with its
`lineup` and one record per side of it. Clean burraco 200, dirty 100, closing 100,
pozzetto never taken -100; the pair's total is halved per seat, rounded up to 5; each
for himself after a hand that ends with a seat at 1000 or more; the game ends at 1505.
"""

from __future__ import annotations

from scorekeeper.extensions import db
from scorekeeper.models import Match
from tests.api.test_matches import URL, create, problems, read

SEATS = [
    {"name": "Ada", "players": ["Ada"]},
    {"name": "Bea", "players": ["Bea"]},
    {"name": "Cy", "players": ["Cy"]},
]

# Ada alone closes: clean 200 + dirty 100 + melded 230 + closing 100 = 630.
LONE_630 = {
    "went_out": True,
    "canastas": {"natural": 1, "mixed": 1},
    "meld_points": 230,
    "took_extra_hand": True,
}
# Ada alone closes again: clean 200 + melded 70 + closing 100 = 370 (630 + 370 = 1000).
LONE_370 = {
    "went_out": True,
    "canastas": {"natural": 1},
    "meld_points": 70,
    "took_extra_hand": True,
}
# The pair: dirty 100 + melded 80 - hand 45 = 135: 70 each.
PAIR_135 = {"canastas": {"mixed": 1}, "meld_points": 80, "hand_points": 45, "took_extra_hand": True}
# The pair without its pozzetto: melded 40 - hand 75 - 100 = -135: -65 each.
PAIR_MINUS_135 = {"meld_points": 40, "hand_points": 75, "took_extra_hand": False}
# Each for himself with three pozzetti: Ada closes: clean 200 + melded 310 + closing 100
# = 610; Bea 70 - 25 = 45; Cy never took his: 35 - 100 = -65.
EACH_ADA_610 = [
    {"went_out": True, "canastas": {"natural": 1}, "meld_points": 310, "took_extra_hand": True},
    {"meld_points": 70, "hand_points": 25, "took_extra_hand": True},
    {"meld_points": 35, "took_extra_hand": False},
]
# Each for himself, nobody closing: Ada 50 - 20 = 30; Bea 60; Cy 35 - 100 = -65.
EACH_QUIET = [
    {"meld_points": 50, "hand_points": 20, "took_extra_hand": True},
    {"meld_points": 60, "took_extra_hand": True},
    {"meld_points": 35, "took_extra_hand": False},
]


def post(client, match_id, sides, lineup, **extra):
    return client.post(f"{URL}/{match_id}/hands", json={"sides": sides, "lineup": lineup, **extra})


def totals(state):
    return [side["total"] for side in state["sides"]]


def test_the_score_api_answers_with_the_seats_block(client):
    answer = client.post(
        "/api/v1/score",
        json={"variant": "burraco-3p", "lineup": [[1], [0, 2]], "sides": [LONE_630, PAIR_135]},
    )
    assert answer.status_code == 200, answer.json
    assert [side["total"] for side in answer.json["sides"]] == [630, 135]
    assert answer.json["seats"] == [
        {"seat": 0, "total": 70},
        {"seat": 1, "total": 630},
        {"seat": 2, "total": 70},
    ]
    minus = client.post(
        "/api/v1/score",
        json={
            "variant": "burraco-3p",
            "lineup": [[0], [1, 2]],
            "sides": [LONE_630, PAIR_MINUS_135],
        },
    )
    assert [seat["total"] for seat in minus.json["seats"]] == [630, -65, -65]
    # Other games have no seats block and take no line-up.
    plain = client.post(
        "/api/v1/score",
        json={"variant": "burraco", "sides": [{"took_extra_hand": False}] * 2},
    )
    assert plain.status_code == 200
    assert "seats" not in plain.json
    refused = client.post(
        "/api/v1/score",
        json={
            "variant": "burraco",
            "lineup": [[0], [1]],
            "sides": [{"took_extra_hand": False}] * 2,
        },
    )
    assert problems(refused) == {(None, "lineup")}


def test_the_score_api_rejects_a_bad_lineup(client):
    body = {"variant": "burraco-3p", "sides": [LONE_630, PAIR_135]}
    assert problems(client.post("/api/v1/score", json=body)) == {(None, "lineup")}
    for lineup in ([[0], [1]], [[0], [1, 1]], [[0], [1, 5]], [[0, 1, 2]], "0,1,2"):
        answer = client.post("/api/v1/score", json={**body, "lineup": lineup})
        assert (None, "lineup") in problems(answer), lineup
    lone_without = {**PAIR_MINUS_135}
    answer = client.post(
        "/api/v1/score", json={**body, "lineup": [[0], [1, 2]], "sides": [lone_without, PAIR_135]}
    )
    assert problems(answer) == {(0, "took_extra_hand")}


def test_a_whole_match_switches_to_each_for_himself_and_ends_at_1505(client):
    state = create(client, "burraco-3p", sides=SEATS)
    match_id = state["id"]
    assert state["players_per_side"] == 1
    assert [side["name"] for side in state["sides"]] == ["Ada", "Bea", "Cy"]
    assert state["phase"] == {
        "phase": 0,
        "lineups": ["pair_against_one", "each_for_self"],
        "switch_from": 1000,
    }
    first = post(client, match_id, [LONE_630, PAIR_135], [[0], [1, 2]])
    assert first.status_code == 201, first.json
    assert totals(first.json) == [630, 70, 70]
    assert first.json["phase"]["phase"] == 0
    # Ada reaches exactly 1000: every later hand is each for himself.
    second = post(client, match_id, [LONE_370, PAIR_MINUS_135], [[0], [1, 2]])
    assert second.status_code == 201, second.json
    assert totals(second.json) == [1000, 5, 5]
    assert second.json["phase"] == {"phase": 1, "lineups": ["each_for_self"], "switch_from": None}
    assert second.json["status"] == "playing"
    # A pair against one is no longer possible.
    refused = post(client, match_id, [LONE_630, PAIR_135], [[1], [0, 2]])
    assert problems(refused) == {(None, "lineup")}
    assert "reached 1,000" in refused.json["errors"][0]["message"]
    third = post(client, match_id, EACH_ADA_610, [[0], [1], [2]])
    assert third.status_code == 201, third.json
    final = read(client, match_id)
    assert totals(final) == [1610, 50, -60]
    assert (final["status"], final["winner"], final["finished"]) == ("finished", 0, True)
    # Each hand shows its line-up, and each seat its share.
    assert [hand["lineup"] for hand in final["hands"]] == [
        [[0], [1, 2]],
        [[0], [1, 2]],
        [[0], [1], [2]],
    ]
    assert [[seat["total"] for seat in hand["sides"]] for hand in final["hands"]] == [
        [630, 70, 70],
        [370, -65, -65],
        [610, 45, -65],
    ]
    pair_lines = final["hands"][0]["sides"][1]["lines"]
    assert pair_lines[-1]["rule"] == "share"
    assert sum(line["points"] for line in pair_lines) == 70
    # No hand after the end.
    assert problems(post(client, match_id, EACH_QUIET, [[0], [1], [2]]), 409)


def test_the_match_scores_a_hand_for_its_next_phase(client):
    match_id = create(client, "burraco-3p", sides=SEATS)["id"]
    post(client, match_id, [LONE_630, PAIR_135], [[0], [1, 2]])
    post(client, match_id, [LONE_370, PAIR_MINUS_135], [[0], [1, 2]])
    body = {"match": match_id, "lineup": [[0], [1, 2]], "sides": [LONE_630, PAIR_135]}
    assert problems(client.post("/api/v1/score", json=body)) == {(None, "lineup")}
    each = {"match": match_id, "lineup": [[0], [1], [2]], "sides": EACH_QUIET}
    answer = client.post("/api/v1/score", json=each)
    assert answer.status_code == 200, answer.json
    assert [seat["total"] for seat in answer.json["seats"]] == [30, 60, -65]


def _switched_match(client):
    """Hands 1 and 2 pair against one (Ada reaches 1000), hand 3 each for himself."""
    match_id = create(client, "burraco-3p", sides=SEATS)["id"]
    for sides, lineup in (
        ([LONE_630, PAIR_135], [[0], [1, 2]]),
        ([LONE_370, PAIR_MINUS_135], [[0], [1, 2]]),
        (EACH_QUIET, [[0], [1], [2]]),
    ):
        answer = post(client, match_id, sides, lineup)
        assert answer.status_code == 201, answer.json
    return match_id


def test_a_correction_that_undoes_the_switch_is_refused_when_a_later_hand_needs_it(client):
    match_id = _switched_match(client)
    before = read(client, match_id)
    assert totals(before) == [1030, 65, -60]
    # Ada's second hand worth 365 instead of 370 leaves her at 995: no switch, and hand 3
    # (each for himself with pozzetti taken) would not be possible before it.
    lower = {**LONE_370, "meld_points": 65}
    refused = client.put(
        f"{URL}/{match_id}/hands/2",
        json={"sides": [lower, PAIR_MINUS_135], "lineup": [[0], [1, 2]]},
    )
    assert problems(refused, 409)
    message = refused.json["errors"][0]["message"]
    assert message.startswith("Not saved: hand 3 would no longer be possible")
    assert read(client, match_id)["hands"] == before["hands"]
    # A correction that keeps the switch is saved, and may change the line-up.
    higher = {**LONE_370, "meld_points": 90}
    saved = client.put(
        f"{URL}/{match_id}/hands/2",
        json={"sides": [PAIR_MINUS_135, higher], "lineup": [[1, 2], [0]]},
    )
    assert saved.status_code == 200, saved.json
    assert totals(saved.json) == [1050, 65, -60]
    assert saved.json["hands"][1]["lineup"] == [[1, 2], [0]]
    # The correction must say the line-up too.
    missing = client.put(f"{URL}/{match_id}/hands/2", json={"sides": [PAIR_MINUS_135, higher]})
    assert problems(missing) == {(None, "lineup")}


def test_a_removal_that_would_make_a_later_lineup_impossible_is_409(client):
    match_id = _switched_match(client)
    before = read(client, match_id)
    # Without hand 1 Ada has 370 after the next hand: no switch for the each-for-himself
    # hand with pozzetti taken.
    refused = client.delete(f"{URL}/{match_id}/hands/1")
    assert problems(refused, 409)
    assert "hand 2 would no longer be possible" in refused.json["errors"][0]["message"]
    assert read(client, match_id)["hands"] == before["hands"]
    # Removing the last hand is fine; so is hand 1 once no later hand depends on the switch.
    assert client.delete(f"{URL}/{match_id}/hands/3").status_code == 200
    removed = client.delete(f"{URL}/{match_id}/hands/1")
    assert removed.status_code == 200, removed.json
    assert totals(removed.json) == [370, -65, -65]
    assert removed.json["phase"]["phase"] == 0


def test_each_for_himself_throughout_is_an_option(client):
    state = create(client, "burraco-3p", sides=SEATS, options={"lineup_mode": "each_for_self"})
    match_id = state["id"]
    assert state["phase"]["lineups"] == ["each_for_self"]
    assert problems(post(client, match_id, [LONE_630, PAIR_135], [[0], [1, 2]])) == {
        (None, "lineup")
    }
    answer = post(client, match_id, EACH_QUIET, [[0], [1], [2]])
    assert answer.status_code == 201, answer.json
    assert totals(answer.json) == [30, 60, -65]


def test_a_burraco_3p_match_needs_three_single_players(client):
    response = client.post(
        URL,
        json={
            "variant": "burraco-3p",
            "sides": [{"name": "Us", "players": ["Ada", "Bea"]}, {"name": "Cy", "players": ["Cy"]}],
        },
    )
    assert problems(response)


def test_a_tie_between_the_seats_of_the_pair_that_closed_goes_to_its_first_seat(app, client):
    """docs/rules.md: with `went_out_last`, a pair that closed counts as its
    lower-numbered seat; its two seats share the side's total, so they tie."""
    options = {"tie_rule": "went_out_last", "target": 300, "solo_phase_from": 5000}
    match_id = create(client, "burraco-3p", sides=SEATS, options=options)["id"]
    lone = {"meld_points": 40, "hand_points": 75, "took_extra_hand": True}  # -35
    answer = post(client, match_id, [lone, LONE_630], [[0], [1, 2]])  # the pair: 315 each
    assert answer.status_code == 201, answer.json
    assert totals(answer.json) == [-35, 315, 315]
    assert (answer.json["status"], answer.json["winner"]) == ("finished", 1)
    assert read(client, match_id)["winner"] == 1
    with app.app_context():  # as the history and the statistics have it
        assert db.session.get(Match, match_id).winner == 1
