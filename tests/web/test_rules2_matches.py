"""Whole matches of the RULES-2 presets through the pages (issue 11, item 4).

Numbers as in tests/api/test_rules2_matches.py: a Hand and Foot side going out with
2 clean, 2 dirty and 1 wild book, 700 melded and a red three laid scores 4000; the
side caught with a clean book, 200 melded, 50 in hand, 100 in a foot never picked up
and a red three held scores 450.
"""

from __future__ import annotations

from tests.web.helpers import (
    PLAYERS4,
    create_match,
    csrf_token,
    edit_data,
    field_errors,
    flashes,
    input_value,
    page,
    record_hand,
    record_ok,
    side_cards,
    submit_new_match,
    text_of,
    totals,
)

OUT = {
    "canasta_natural": 2,
    "canasta_mixed": 2,
    "canasta_wild": 1,
    "meld_points": 700,
    "feet_taken": 2,
    "red_threes": 1,
}
CAUGHT = {
    "canasta_natural": 1,
    "meld_points": 200,
    "hand_points": 50,
    "foot_points": 100,
    "feet_taken": 1,
    "red_threes_in_hand": 1,
}
PLAYERS6 = ("Ann", "Bob", "Cid", "Dee", "Eve", "Fay")


def dealer_line(response) -> str:
    return page(response).find("p", class_="dealer").text()


def test_hand_and_foot_shows_the_deal_and_each_deals_minimum(client):
    match_id = create_match(client, "hand-and-foot")
    board = client.get(f"/matches/{match_id}")
    assert dealer_line(board) == "Deal 1 of 4: Ann deals."
    assert [card.meld for card in side_cards(board)] == ["50 points", "50 points"]
    for number, minimum in ((1, "90 points"), (2, "120 points"), (3, "150 points")):
        sides = (OUT, CAUGHT) if number != 3 else (CAUGHT, OUT)
        record_ok(client, match_id, 0 if number != 3 else 1, *sides)
        board = client.get(f"/matches/{match_id}")
        assert dealer_line(board).startswith(f"Deal {number + 1} of 4: ")
        assert [card.meld for card in side_cards(board)] == [minimum, minimum]
        assert side_cards(board)[0].progress == f"{number} of 4 deals played"
    record_ok(client, match_id, 0, OUT, CAUGHT)
    board = client.get(f"/matches/{match_id}")
    assert totals(board) == [3 * 4000 + 450, 3 * 450 + 4000]
    text = text_of(board)
    assert "Game over after 4 hands: 12,450 points, the most after 4 deals." in text
    assert "Record hand" not in text
    # No fifth deal from the page either.
    refused = client.get(f"/matches/{match_id}/hands/new")
    assert refused.status_code == 303
    assert "The game is over: no more hands can be recorded." in flashes(
        client.get(refused.headers["Location"])
    )


def test_hand_and_foot_fields_are_entered_and_round_trip_through_the_correction(client):
    match_id = create_match(client, "hand-and-foot")
    form = page(client.get(f"/matches/{match_id}/hands/new"))
    for name in ("s0_feet_taken", "s0_foot_points", "s0_foot_mode", "s1_red_threes_in_hand"):
        assert form.find_all(name=name), name
    assert not form.find_all(name="s0_exact_pickups")  # only with the bonus on
    # The caught side counts the cards left in its foot: two aces and three low cards.
    counted = {**CAUGHT, "foot_points": None, "foot_mode": "cards", "foot_ace": 2, "foot_low": 3}
    record_ok(client, match_id, 0, OUT, counted)
    # 2 aces 40 + 3 low 15 = 55 instead of 100: 450 + 45.
    assert totals(client.get(f"/matches/{match_id}")) == [4000, 495]
    edit = client.get(f"/matches/{match_id}/hands/1/edit")
    expected = {
        "s0_feet_taken": "2",
        "s0_red_threes": "1",
        "s0_canasta_wild": "1",
        "s1_feet_taken": "1",
        "s1_red_threes_in_hand": "1",
        "s1_foot_mode": "cards",
        "s1_foot_ace": "2",
        "s1_foot_low": "3",
        "s1_hand_points": "50",
    }
    assert {name: input_value(edit, name) for name in expected} == expected
    # Saved unchanged, the correction changes nothing; a changed foot is recomputed.
    data = edit_data(client, match_id, 1, 0, {}, {"foot_low": 1})
    response = client.post(f"/matches/{match_id}/hands/1/edit", data=data)
    assert response.status_code == 303, field_errors(page(response), "s1_foot_low")
    assert totals(client.get(f"/matches/{match_id}")) == [4000, 505]


def test_hand_and_foot_refuses_going_out_without_a_foot_next_to_the_field(client):
    match_id = create_match(client, "hand-and-foot")
    response = record_hand(client, match_id, 0, {**OUT, "feet_taken": 0}, CAUGHT)
    assert response.status_code == 422
    assert input_value(response, "s0_meld_points") == "700"  # entries kept
    assert "Record hand" in text_of(client.get(f"/matches/{match_id}"))
    assert totals(client.get(f"/matches/{match_id}")) == [0, 0]


def test_a_drawn_hand_and_foot_leaves_home_for_the_history(client):
    match_id = create_match(client, "hand-and-foot")
    for number in range(4):
        if number % 2:
            record_ok(client, match_id, 1, CAUGHT, OUT)
        else:
            record_ok(client, match_id, 0, OUT, CAUGHT)
    board = client.get(f"/matches/{match_id}")
    assert totals(board) == [8900, 8900]
    text = text_of(board)
    assert "Drawn" in text
    assert "the lead is shared at 8,900, so nobody wins" in text
    assert "Record hand" not in text
    assert not any(card.winner for card in side_cards(board))
    assert not any(card.meld for card in side_cards(board))
    home = client.get("/")
    assert f"/matches/{match_id}" in home.get_data(as_text=True)  # under recent results
    assert "No match in progress." in text_of(home)
    history = text_of(client.get("/history"))
    assert "Drawn after 4 hands" in history
    refused = client.get(f"/matches/{match_id}/hands/new")
    assert refused.status_code == 303
    # A drawn game is over: abandoning it (a hand-made request) changes nothing.
    token = csrf_token(client.get("/account").text)
    client.post(f"/matches/{match_id}/abandon", data={"csrf_token": token})
    assert "Drawn after 4 hands" in text_of(client.get("/history"))
    assert "Drawn" in text_of(client.get(f"/matches/{match_id}"))


def test_fewer_deals_chosen_on_the_new_match_page(client):
    form = page(client.get("/matches/new/hand-and-foot"))
    more = form.find("details", class_="more-rules")
    # The common rules come first and stay out of the folded More house rules.
    assert more.find_all(name="opt_deals") == []
    assert more.find_all(name="opt_going_out") == []
    assert more.find_all(name="opt_meld_minimums_by_deal")
    assert "open" not in more.attrs
    match_id = create_match(
        client, "hand-and-foot", options={"deals": 2, "meld_minimums_by_deal": "60, 100"}
    )
    board = client.get(f"/matches/{match_id}")
    assert dealer_line(board) == "Deal 1 of 2: Ann deals."
    assert [card.meld for card in side_cards(board)] == ["60 points", "60 points"]
    record_ok(client, match_id, 0, OUT, CAUGHT)
    assert side_cards(client.get(f"/matches/{match_id}"))[0].meld == "100 points"
    record_ok(client, match_id, 0, OUT, CAUGHT)
    assert "Game over after 2 hands" in text_of(client.get(f"/matches/{match_id}"))


def test_a_bad_house_rule_is_shown_next_to_its_input_with_the_entries_kept(client):
    response = submit_new_match(client, "hand-and-foot", options={"deals": 0})
    assert response.status_code == 422
    assert field_errors(response, "opt_deals")
    assert input_value(response, "opt_deals") == "0"
    response = submit_new_match(
        client, "hand-and-foot", options={"meld_minimums_by_deal": "50, lots"}
    )
    assert response.status_code == 422
    assert field_errors(response, "opt_meld_minimums_by_deal")
    assert input_value(response, "opt_meld_minimums_by_deal") == "50, lots"
    assert "open" in page(response).find("details", class_="more-rules").attrs


def classic_hand(naturals):
    return {"canasta_natural": naturals, "canasta_mixed": 2, "meld_points": 800}


def test_classic_for_six_ends_at_the_target_of_its_layout(client):
    small = {"meld_points": 100, "hand_points": 40}
    pairs = create_match(client, "classic-6p", PLAYERS6, layout="3x2")
    teams = create_match(client, "classic-6p", PLAYERS6, layout="2x3")
    assert "% of 7,500" in side_cards(client.get(f"/matches/{pairs}"))[0].progress
    assert "% of 10,000" in side_cards(client.get(f"/matches/{teams}"))[0].progress
    for _ in range(3):  # 3500 a hand
        record_ok(client, pairs, 0, classic_hand(4), small, small)
    text = text_of(client.get(f"/matches/{pairs}"))
    assert "Game over after 3 hands: 10,500 points, target 7,500." in text
    for _ in range(2):
        record_ok(client, teams, 0, classic_hand(4), small)
    board = client.get(f"/matches/{teams}")
    assert "Record hand 3" in text_of(board)
    record_ok(client, teams, 0, classic_hand(4), small)
    assert "Game over after 3 hands: 10,500 points, target 10,000." in text_of(
        client.get(f"/matches/{teams}")
    )


def test_buraco_in_partnerships_through_the_pages(client):
    match_id = create_match(client, "buraco-4p", PLAYERS4)
    out = {"canasta_natural": 2, "meld_points": 500, "took_extra_hand": True}
    caught = {"meld_points": 100, "hand_points": 40}  # the morto never taken: -100
    for _ in range(3):
        record_ok(client, match_id, 0, out, caught)
    board = client.get(f"/matches/{match_id}")
    assert totals(board) == [3000, -120]
    assert "Game over after 3 hands: 3,000 points, target 3,000." in text_of(board)
    edit = client.get(f"/matches/{match_id}/hands/1/edit")
    assert input_value(edit, "s0_took_extra_hand") == "y"
    assert input_value(edit, "s1_took_extra_hand") is None


def test_a_tie_after_the_last_deal_plays_an_extra_deal_when_the_rules_say_so(client):
    match_id = create_match(client, "hand-and-foot", options={"tie_rule": "play_on"})
    for number in range(4):
        if number % 2:
            record_ok(client, match_id, 1, CAUGHT, OUT)
        else:
            record_ok(client, match_id, 0, OUT, CAUGHT)
    board = client.get(f"/matches/{match_id}")
    assert "The last deal is played but the lead is shared: play another hand." in text_of(board)
    assert dealer_line(board) == "Extra deal 5: Ann deals."
    # The last deal's minimum holds for the extra deal.
    assert [card.meld for card in side_cards(board)] == ["150 points", "150 points"]
    record_ok(client, match_id, 0, OUT, CAUGHT)
    assert "Game over after 5 hands" in text_of(client.get(f"/matches/{match_id}"))
