"""Whole matches of the RULES-2 presets through the match API (issue 11, item 4).

Hand and Foot (PAGAT-HF): books clean 500, dirty 300, wild 1500; going out 100 needs
2 clean, 2 dirty and 1 wild book and a foot picked up; red threes +100 laid, -100 held;
four deals with meld minimums 50, 90, 120, 150; a tie after deal 4 is a draw.
Classic for six (RASA-6): target 10000 for two teams of three, 7500 for three pairs.
Buraco in partnerships (BUR-WEB): clean 200, going out 100 needs the morto and a clean
canasta, a morto never taken -100; target 3000.
"""

from __future__ import annotations

from tests.api.test_matches import URL, create, problems, read
from tests.api.test_play_matches import burraco_side  # a side of the Italian and Brazilian games

HF_TEAMS = [
    {"name": "North", "players": ["Ann", "Bob"]},
    {"name": "South", "players": ["Cy", "Di"]},
]

# North goes out: books 2x500 + 2x300 + 1500 = 3100, melded 700, out 100, a red three
# laid 100: 4000.
HF_OUT = {
    "went_out": True,
    "canastas": {"natural": 2, "mixed": 2, "wild": 1},
    "meld_points": 700,
    "feet_taken": 2,
    "red_threes": 1,
}
# The other side: a clean book 500, melded 200, hand 50, a foot never picked up 100, a red
# three held -100: 450.
HF_CAUGHT = {
    "canastas": {"natural": 1},
    "meld_points": 200,
    "hand_points": 50,
    "foot_points": 100,
    "feet_taken": 1,
    "red_threes_in_hand": 1,
}


def post_hand(client, match_id, sides, **extra):
    return client.post(f"{URL}/{match_id}/hands", json={"sides": sides, **extra})


def test_hand_and_foot_is_four_deals_with_the_minimum_of_each_deal(client):
    state = create(client, "hand-and-foot", sides=HF_TEAMS)
    match_id = state["id"]
    assert (state["deal"], state["deals"]) == (1, 4)
    assert [s["next_meld_requirement"]["points"] for s in state["sides"]] == [50, 50]
    minimums = []
    for number in range(1, 5):
        sides = [HF_OUT, HF_CAUGHT] if number != 3 else [HF_CAUGHT, HF_OUT]
        answer = post_hand(client, match_id, sides, deal=number)
        assert answer.status_code == 201, answer.json
        minimums.append([s["next_meld_requirement"]["points"] for s in answer.json["sides"]])
        if number < 4:
            assert answer.json["status"] == "playing"
            assert answer.json["deal"] == number + 1
    # After deals 1-3 the next deals need 90, 120 and 150.
    assert minimums[:3] == [[90, 90], [120, 120], [150, 150]]
    final = read(client, match_id)
    assert [s["total"] for s in final["sides"]] == [3 * 4000 + 450, 3 * 450 + 4000]
    assert (final["status"], final["winner"], final["finished"]) == ("finished", 0, True)
    assert final["deals"] == 4
    # No fifth deal.
    refused = post_hand(client, match_id, [HF_OUT, HF_CAUGHT])
    assert problems(refused, 409)


def test_hand_and_foot_ends_in_a_draw_when_the_lead_is_shared_after_deal_4(client):
    match_id = create(client, "hand-and-foot", sides=HF_TEAMS)["id"]
    for number in range(1, 5):
        sides = [HF_OUT, HF_CAUGHT] if number % 2 else [HF_CAUGHT, HF_OUT]
        answer = post_hand(client, match_id, sides)
        assert answer.status_code == 201, answer.json
    warnings = answer.json["warnings"]
    assert warnings[-1]["message"] == "This hand ends the game in a draw: the lead is shared."
    final = read(client, match_id)
    assert [s["total"] for s in final["sides"]] == [8900, 8900]
    assert (final["status"], final["winner"], final["finished"]) == ("drawn", None, True)
    assert problems(post_hand(client, match_id, [HF_OUT, HF_CAUGHT]), 409)
    # Correcting deal 4 gives South the game; removing it plays on.
    corrected = client.put(f"{URL}/{match_id}/hands/4", json={"sides": [HF_CAUGHT, HF_CAUGHT]})
    assert corrected.status_code == 200, corrected.json
    assert (corrected.json["status"], corrected.json["winner"]) == ("finished", 0)
    removed = client.delete(f"{URL}/{match_id}/hands/4")
    assert removed.status_code == 200, removed.json
    assert (removed.json["status"], removed.json["winner"], removed.json["deal"]) == (
        "playing",
        None,
        4,
    )


def test_a_posted_deal_must_be_the_hand_number(client):
    match_id = create(client, "hand-and-foot", sides=HF_TEAMS)["id"]
    answer = post_hand(client, match_id, [HF_OUT, HF_CAUGHT], deal=2, number=1)
    assert (None, "deal") in problems(answer, 422)
    assert read(client, match_id)["hands"] == []
    # A deal alone names the hand: deal 2 is not the next hand, so nothing is recorded.
    assert problems(post_hand(client, match_id, [HF_OUT, HF_CAUGHT], deal=2), 409)
    assert read(client, match_id)["hands"] == []


def test_the_deal_drives_deal_keyed_scoring(client):
    """With going-out bonuses by deal, hand 2 of a match scores deal 2's bonus."""
    options = {"going_out_by_deal": [100, 200, 300, 400]}
    match_id = create(client, "hand-and-foot", sides=HF_TEAMS, options=options)["id"]
    first = post_hand(client, match_id, [HF_OUT, HF_CAUGHT]).json
    second = post_hand(client, match_id, [HF_OUT, HF_CAUGHT]).json
    assert first["hands"][0]["sides"][0]["total"] == 4000
    assert second["hands"][1]["sides"][0]["total"] == 4100


def classic_side(out=False, naturals=0, mixed=0, meld=0, hand=0):
    record = {"meld_points": meld}
    if out:
        record["went_out"] = True
    canastas = {k: v for k, v in (("natural", naturals), ("mixed", mixed)) if v}
    if canastas:
        record["canastas"] = canastas
    if hand:
        record["hand_points"] = hand
    return record


# Going out with 4 natural canastas and 2 mixed: 2000 + 600 + 100 + melded 800 = 3500.
BIG = classic_side(out=True, naturals=4, mixed=2, meld=800)
SMALL = classic_side(meld=100, hand=40)  # 60


def test_classic_for_six_in_three_pairs_ends_at_7500(client):
    sides = [
        {"name": "A", "players": ["Ann", "Bob"]},
        {"name": "B", "players": ["Cy", "Di"]},
        {"name": "C", "players": ["Ed", "Fay"]},
    ]
    match_id = create(client, "classic-6p", sides=sides)["id"]
    for number in (1, 2):
        answer = post_hand(client, match_id, [BIG, SMALL, SMALL])
        assert answer.json["status"] == "playing", number
    assert "deal" not in answer.json
    assert "deals" not in answer.json
    last = post_hand(client, match_id, [BIG, SMALL, SMALL]).json
    assert [s["total"] for s in last["sides"]] == [10500, 180, 180]
    assert (last["status"], last["winner"]) == ("finished", 0)


def test_classic_for_six_in_two_teams_of_three_plays_on_to_10000(client):
    sides = [
        {"name": "A", "players": ["Ann", "Bob", "Cy"]},
        {"name": "B", "players": ["Di", "Ed", "Fay"]},
    ]
    match_id = create(client, "classic-6p", sides=sides)["id"]
    for _ in range(3):  # 10500 after three hands; 7000 after two
        answer = post_hand(client, match_id, [BIG, SMALL])
    states = read(client, match_id)
    assert [s["total"] for s in states["sides"]] == [10500, 180]
    assert (states["status"], states["winner"]) == ("finished", 0)
    # Two hands (7000) would not have ended it: removing the last plays on.
    removed = client.delete(f"{URL}/{match_id}/hands/3").json
    assert removed["status"] == "playing"
    # The fifth meld tier of two teams: 150 from 7500 (7000 still needs 120).
    assert removed["sides"][0]["next_meld_requirement"]["points"] == 120
    assert answer.status_code == 201


def test_buraco_in_partnerships_is_played_to_3000(client):
    match_id = create(client, "buraco-4p", sides=HF_TEAMS)["id"]
    # Out: 2 clean 400 + melded 500 + out 100 = 1000; the others: melded 100 - 40 - 100
    # (morto never taken) = -40.
    hand = [burraco_side(out=True, clean=2, meld=500), burraco_side(meld=100, hand=40, took=False)]
    for number in (1, 2):
        answer = post_hand(client, match_id, hand)
        assert answer.status_code == 201, answer.json
        assert answer.json["status"] == "playing", number
    last = post_hand(client, match_id, hand).json
    assert [s["total"] for s in last["sides"]] == [3000, -120]
    assert (last["status"], last["winner"], last["finished"]) == ("finished", 0, True)
    assert "deal" not in last
    # Going out without the morto is refused, naming the field.
    match_id = create(client, "buraco-4p", sides=HF_TEAMS)["id"]
    refused = post_hand(
        client, match_id, [burraco_side(out=True, clean=1, took=False, meld=300), burraco_side()]
    )
    assert (0, "went_out") in problems(refused, 422)
    assert read(client, match_id)["hands"] == []


def test_removing_a_hand_scores_the_later_hands_as_their_new_deal(client):
    options = {"going_out_by_deal": [100, 200, 300, 400]}
    match_id = create(client, "hand-and-foot", sides=HF_TEAMS, options=options)["id"]
    for _ in range(3):
        post_hand(client, match_id, [HF_OUT, HF_CAUGHT])
    before = read(client, match_id)
    assert [h["sides"][0]["total"] for h in before["hands"]] == [4000, 4100, 4200]
    removed = client.delete(f"{URL}/{match_id}/hands/1")
    assert removed.status_code == 200, removed.json
    hands = removed.json["hands"]
    assert [h["sides"][0]["total"] for h in hands] == [4000, 4100]
    assert [s["total"] for s in removed.json["sides"]] == [8100, 900]
    assert hands[0]["version"] != before["hands"][1]["version"]


def test_a_removal_that_moves_a_hand_to_a_deal_it_does_not_fit_is_409(client):
    full = [
        {"count": 2, "kinds": ["natural"]},
        {"count": 2, "kinds": ["mixed"]},
        {"count": 1, "kinds": ["wild"]},
    ]
    options = {"going_out_needs_by_deal": [full, [{"count": 1, "kinds": ["natural"]}]]}
    match_id = create(client, "hand-and-foot", sides=HF_TEAMS, options=options)["id"]
    assert post_hand(client, match_id, [HF_OUT, HF_CAUGHT]).status_code == 201
    light = {"went_out": True, "canastas": {"natural": 1}, "meld_points": 100, "feet_taken": 1}
    second = post_hand(client, match_id, [light, HF_CAUGHT])
    assert second.status_code == 201, second.json
    before = read(client, match_id)
    refused = client.delete(f"{URL}/{match_id}/hands/1")
    assert problems(refused, 409)
    assert "would become deal 1" in refused.json["errors"][0]["message"]
    after = read(client, match_id)
    assert after["hands"] == before["hands"]


def test_a_tie_after_the_last_deal_goes_to_the_side_that_went_out_last(client):
    options = {"tie_rule": "went_out_last"}
    match_id = create(client, "hand-and-foot", sides=HF_TEAMS, options=options)["id"]
    for number in range(1, 5):  # North, South, North, South go out: 8900 each
        sides = [HF_OUT, HF_CAUGHT] if number % 2 else [HF_CAUGHT, HF_OUT]
        answer = post_hand(client, match_id, sides)
    assert [s["total"] for s in answer.json["sides"]] == [8900, 8900]
    assert (answer.json["status"], answer.json["winner"]) == ("finished", 1)
    assert answer.json["warnings"][-1]["message"] == "This hand ends the game: South wins."
    # The same totals with North going out last give North the game.
    corrected = client.put(f"{URL}/{match_id}/hands/4", json={"sides": [HF_OUT, HF_CAUGHT]})
    assert [s["total"] for s in corrected.json["sides"]] == [12450, 5350]
    swapped = client.put(f"{URL}/{match_id}/hands/3", json={"sides": [HF_CAUGHT, HF_OUT]})
    assert swapped.status_code == 200, swapped.json
    assert [s["total"] for s in swapped.json["sides"]] == [8900, 8900]
    assert (swapped.json["status"], swapped.json["winner"]) == ("finished", 0)
    assert read(client, match_id)["winner"] == 0
