"""Modern American Canasta through the API (RULES-2, `modern-american`): the score
endpoint takes the new side fields, and whole matches play to the end, one of them
won at once by a dream hand.

Canastas: natural 500, mixed 300, aces and sevens 2500, wild 2000; going out 100 needs
two canastas; threes of each colour 1: 100, 2: 300, 3: 500, 4: 1000, minus without a
canasta, nothing with exactly one; a player holding three sevens -1500; an unfinished
sevens meld -2500; meld minimums 125 / 155 (from 3000) / 180 (from 5000); target 8500.
"""

from __future__ import annotations

from tests.api.test_matches import URL, add, correct, create, problems, read, totals
from tests.rules.helpers import MAC_OTHER as OTHER
from tests.rules.helpers import MAC_OUT as OUT

MAC = "modern-american"
SCORE_URL = "/api/v1/score"

# OUT scores 500 + 2500 canastas + 400 melded + 100 out + red 2 (300) + black 1 (100) = 3900;
# OTHER 300 + 150 melded + one red three with one canasta 0 - 65 in hand - 1500 - 2500 = -3615.
# A quiet hand: 2 mixed 600 + 100 melded + 100 out = 800 | no canasta: -60 melded - 20 = -80.
QUIET_OUT = {"went_out": True, "canastas": {"mixed": 2}, "meld_points": 100}
QUIET_OTHER = {"meld_points": 60, "hand_points": 20}


def test_score_takes_the_new_side_fields(client):
    response = client.post(SCORE_URL, json={"variant": MAC, "sides": [OUT, OTHER]})
    assert response.status_code == 200, response.json
    assert [s["total"] for s in response.json["sides"]] == [3900, -3615]
    rules = {line["rule"] for line in response.json["sides"][1]["lines"]}
    assert {"players_with_3_sevens", "incomplete_sevens", "red_threes"} <= rules
    special = [{"went_out": True, "special_hand": "garbage"}, OTHER]
    response = client.post(SCORE_URL, json={"variant": MAC, "sides": special})
    assert [s["total"] for s in response.json["sides"]] == [3000, -3615]
    options = {"special_hands": {"garbage": 2000}}
    response = client.post(SCORE_URL, json={"variant": MAC, "sides": special, "options": options})
    assert [s["total"] for s in response.json["sides"]] == [2000, -3615]


def test_score_rejects_what_the_preset_forbids(client):
    cases = [
        ([{"went_out": True, "special_hand": "pairs", "meld_points": 50}, {}], (0, "meld_points")),
        ([{"special_hand": "pairs"}, {}], (0, "special_hand")),
        ([{"went_out": True, "special_hand": "royal"}, {}], (0, "special_hand")),
        ([{"meld_cards": {"red_three": 1}}, {}], (0, "meld_cards.red_three")),
        ([{"incomplete_aces": 2}, {}], (0, "incomplete_aces")),
        ([{"players_with_3_aces": 3}, {}], (0, "players_with_3_aces")),
    ]
    for sides, expected in cases:
        response = client.post(SCORE_URL, json={"variant": MAC, "sides": sides})
        assert expected in problems(response), sides
    aces = {"canastas": {"aces": 1}, "meld_points": 140}
    response = client.post(SCORE_URL, json={"variant": MAC, "sides": [aces, aces]})
    assert problems(response) == {(None, "canastas.aces")}
    response = client.post(
        SCORE_URL, json={"variant": "classic", "sides": [{"special_hand": "pairs"}, {}]}
    )
    assert problems(response) == {(0, "special_hand")}


def test_a_whole_match_to_8500(client):
    state = create(client, MAC)
    match_id = state["id"]
    assert state["rules"]["target"] == 8500
    assert [s["next_meld_requirement"]["points"] for s in state["sides"]] == [125, 125]
    first = add(client, match_id, [OUT, OTHER])
    assert totals(first) == [3900, -3615]
    # 3900 is past 3000: 155; below zero: 125.
    assert [s["next_meld_requirement"]["points"] for s in first["sides"]] == [155, 125]
    second = add(client, match_id, [OUT, OTHER])
    assert totals(second) == [7800, -7230]
    assert [s["next_meld_requirement"]["points"] for s in second["sides"]] == [180, 125]
    assert second["status"] == "playing"
    third = add(client, match_id, [QUIET_OUT, QUIET_OTHER])
    assert totals(third) == [8600, -7310]
    assert (third["status"], third["winner"]) == ("finished", 0)
    refused = client.post(f"{URL}/{match_id}/hands", json={"sides": [QUIET_OUT, QUIET_OTHER]})
    assert problems(refused, 409)


def test_a_dream_hand_wins_the_match_at_once(client):
    match_id = create(client, MAC)["id"]
    add(client, match_id, [OUT, OTHER])
    add(client, match_id, [OUT, OTHER])
    # Far behind (-7230 against 7800), the second side goes out with a dream hand.
    dream = [QUIET_OTHER, {"went_out": True, "special_hand": "dream_plus_4"}]
    answer = add(client, match_id, dream)
    assert totals(answer) == [7720, 1270]
    assert (answer["status"], answer["winner"], answer["finished"]) == ("finished", 1, True)
    assert "This hand ends the game" in answer["warnings"][-1]["message"]
    state = read(client, match_id)
    assert (state["status"], state["winner"]) == ("finished", 1)
    line = state["hands"][-1]["sides"][1]["lines"][0]
    assert line["label"] == (
        "Went out with a special hand: Dream hand plus 4 (wins the game at once)"
    )
    refused = client.post(f"{URL}/{match_id}/hands", json={"sides": [QUIET_OUT, QUIET_OTHER]})
    assert problems(refused, 409)
    # Corrected into an ordinary hand, the game goes on.
    plain = [QUIET_OTHER, QUIET_OUT]
    corrected = correct(client, match_id, 3, plain)
    assert corrected["status"] == "playing"
    assert totals(corrected) == [7720, -6430]


def test_an_earlier_hand_corrected_into_a_dream_hand_is_refused_while_later_hands_stand(client):
    match_id = create(client, MAC)["id"]
    add(client, match_id, [QUIET_OUT, QUIET_OTHER])
    add(client, match_id, [QUIET_OUT, QUIET_OTHER])
    dream = [QUIET_OTHER, {"went_out": True, "special_hand": "dream_plus_5"}]
    response = client.put(f"{URL}/{match_id}/hands/1", json={"sides": dream})
    assert problems(response, 409)
    assert "later hand" in response.json["errors"][0]["message"]
    assert totals(read(client, match_id)) == [1600, -160]
    # The last hand can become one: the match is then won at once.
    answer = correct(client, match_id, 2, dream)
    assert (answer["status"], answer["winner"]) == ("finished", 1)
