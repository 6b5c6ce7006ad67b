"""Burraco for three through the pages: three players, "who played with whom" first, the
pair's cards entered once in its first player's part, the scoreboard's phase and line-ups.

Numbers as in tests/api/test_burraco_three_matches.py: Ada alone closes with a clean and
a dirty burraco and 230 melded (630); Bea and Cy make 135 (70 each); Ada closes again
with a clean burraco and 70 melded (370, she reaches 1000) while the pair, without its
pozzetto, makes -135 (-65 each); then each for himself Ada closes with a clean burraco
and 310 melded (610), Bea 70 - 25 (45), Cy 35 - 100 for his pozzetto (-65).
"""

from __future__ import annotations

from tests.web.helpers import (
    create_match,
    edit_data,
    field_errors,
    flashes,
    hand_data,
    input_value,
    page,
    record_hand,
    record_ok,
    text_of,
    totals,
)
from tests.web.test_rules_pages import rows

PLAYERS3 = ("Ada", "Bea", "Cy")
LONE_630 = {"canasta_natural": 1, "canasta_mixed": 1, "meld_points": 230}
LONE_370 = {"canasta_natural": 1, "meld_points": 70}
PAIR_135 = {"canasta_mixed": 1, "meld_points": 80, "hand_points": 45, "took_extra_hand": True}
PAIR_MINUS_135 = {"meld_points": 40, "hand_points": 75}


def lineup_choices(response) -> dict[str, str]:
    root = page(response)
    return {
        radio.attrs["value"]: label.text()
        for label in root.find_all("label", class_="choice")
        for radio in label.find_all("input")
        if radio.attrs.get("name") == "lineup"
    }


def lineup_column(response) -> list[str]:
    return [td.text() for td in page(response).find_all("td", class_="lineup")]


def test_a_burraco_for_three_game_switches_phase_and_ends_through_the_pages(client):
    match_id = create_match(client, "burraco-3p", PLAYERS3)
    board = client.get(f"/matches/{match_id}")
    assert totals(board) == [0, 0, 0]
    assert "Pair against one: whoever finishes the dealt cards first plays alone." in text_of(board)
    form = client.get(f"/matches/{match_id}/hands/new")
    assert lineup_choices(form) == {
        "alone:0": "Ada alone against Bea and Cy",
        "alone:1": "Bea alone against Ada and Cy",
        "alone:2": "Cy alone against Ada and Bea",
        "each": "Each for himself (the stock ran out before anyone finished)",
    }
    # The pair Bea & Cy enters its cards once, in Bea's part; the player alone took the
    # big pozzetto without ticking it.
    record_ok(client, match_id, 0, LONE_630, PAIR_135, lineup="alone:0")
    board = client.get(f"/matches/{match_id}")
    assert totals(board) == [630, 70, 70]
    record_ok(client, match_id, 0, LONE_370, PAIR_MINUS_135, lineup="alone:0")
    board = client.get(f"/matches/{match_id}")
    assert totals(board) == [1000, 5, 5]
    assert "Each for himself: a player reached 1,000." in text_of(board)
    assert lineup_column(board) == ["Ada alone v Bea & Cy", "Ada alone v Bea & Cy"]
    detail = client.get(f"/matches/{match_id}/hands/2")
    assert page(detail).find("p", class_="lineup").text() == (
        "Who played with whom: Ada alone v Bea & Cy."
    )
    # After the switch the form offers only each for himself, already chosen.
    form = client.get(f"/matches/{match_id}/hands/new")
    assert lineup_choices(form) == {"each": "Each for himself"}
    assert input_value(form, "lineup") == "each"
    refused = record_hand(client, match_id, 0, LONE_630, PAIR_135, lineup="alone:1")
    assert refused.status_code == 422
    assert field_errors(refused, "lineup")
    each = (
        {"canasta_natural": 1, "meld_points": 310, "took_extra_hand": True},
        {"meld_points": 70, "hand_points": 25, "took_extra_hand": True},
        {"meld_points": 35},
    )
    record_ok(client, match_id, 0, *each, lineup="each")
    board = client.get(f"/matches/{match_id}")
    assert totals(board) == [1610, 50, -60]
    assert lineup_column(board)[-1] == "Each for himself"
    text = text_of(board)
    assert "Ada wins" in text
    assert "Record hand" not in text
    refused = client.get(f"/matches/{match_id}/hands/new")
    assert refused.status_code == 303
    assert "The game is over: no more hands can be recorded." in flashes(
        client.get(refused.headers["Location"])
    )


def test_the_pairs_problems_show_in_its_first_players_part(client):
    match_id = create_match(client, "burraco-3p", PLAYERS3)
    # Bea alone; the pair is Ada & Cy, entered in Ada's part: a clean burraco of 10 points.
    short = {"canasta_natural": 1, "meld_points": 10, "took_extra_hand": True}
    response = record_hand(
        client, match_id, 1, short, {**LONE_630, "hand_points": 0}, lineup="alone:1"
    )
    assert response.status_code == 422
    assert field_errors(response, "s0_meld_points")
    assert not field_errors(response, "s1_meld_points")
    # No line-up chosen: said next to the choice.
    data = hand_data(client, match_id, 0, LONE_630, PAIR_135)
    data.pop("lineup", None)
    response = client.post(f"/matches/{match_id}/hands/new", data=data)
    assert response.status_code == 422
    assert field_errors(response, "lineup") == ["Choose who played with whom"]


def test_the_preview_shows_each_seats_share(client):
    match_id = create_match(client, "burraco-3p", PLAYERS3)
    data = hand_data(client, match_id, 1, PAIR_135, LONE_630, lineup="alone:1")
    response = client.post(f"/matches/{match_id}/hands/preview", data=data)
    assert response.status_code == 200, response.get_json()
    sides = response.get_json()["sides"]
    assert [side["total"] for side in sides] == [70, 630, 70]
    assert sides[0]["lines"][-1]["rule"] == "share"


def test_a_correction_keeps_the_lineup_and_can_change_it(client):
    match_id = create_match(client, "burraco-3p", PLAYERS3)
    record_ok(client, match_id, 0, LONE_630, PAIR_135, lineup="alone:0")
    form = client.get(f"/matches/{match_id}/hands/1/edit")
    assert input_value(form, "lineup") == "alone:0"
    assert input_value(form, "s1_meld_points") == "80"
    # Cy was alone, not Ada: the pair Ada & Bea is entered in Ada's part.
    pair = {**PAIR_135, "canasta_natural": 0}  # Ada's part held her own hand before
    lone = {**LONE_630, "hand_points": 0}
    data = edit_data(client, match_id, 1, 2, pair, {}, lone, lineup="alone:2")
    response = client.post(f"/matches/{match_id}/hands/1/edit", data=data)
    assert response.status_code == 303, response.get_data(as_text=True)[:2000]
    assert totals(client.get(f"/matches/{match_id}")) == [70, 70, 630]


def test_the_rules_page_says_who_plays_with_whom(client):
    response = client.get("/rules/burraco-3p")
    assert response.status_code == 200
    table = rows(response, "Who plays with whom")
    assert table == {
        "Players": "3, each with a running total",
        "Each hand is played": "pair against one (the first to finish the dealt cards takes "
        "the pozzetto and plays alone); or each for himself (only when the stock ran out "
        "before anyone took the pozzetto)",
        "After a hand that ends with a player at 1,000 or more": "every later hand: "
        "each for himself",
        "A player alone": "scores the side's total in full",
        "A pair": "each player scores half the pair's total, rounded up to a multiple of 5 "
        "(135: 70 each, -135: -65 each)",
    }
    assert rows(response, "The game")["Target"] == "1,505"
    # The house rule of the Genoa tournaments: each for himself from the first hand.
    match_id = create_match(
        client, "burraco-3p", PLAYERS3, options={"lineup_mode": "each_for_self"}
    )
    frozen = rows(client.get(f"/matches/{match_id}/rules"), "Who plays with whom")
    assert frozen["Each hand is played"] == "each for himself"
    assert "A pair" not in frozen
