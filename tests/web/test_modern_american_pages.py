"""Modern American Canasta through the pages: the special hand as one choice per side,
penalties as counts, black threes, the live preview and a game won at once.

Numbers as in tests/api/test_modern_american_matches.py: a side going out with a natural
canasta and a canasta of aces, 400 melded, two red threes and a black three scores 3900;
one with a mixed canasta, 150 melded, a red three (nothing with one canasta), 65 in hand,
a player holding three sevens (-1500) and an unfinished sevens meld (-2500) -3615.
"""

from __future__ import annotations

from tests.web.helpers import (
    confirm,
    confirmation,
    create_match,
    field_errors,
    hand_data,
    input_value,
    page,
    record_hand,
    record_ok,
    side_cards,
    text_of,
    totals,
)
from tests.web.test_rules_pages import rows

MAC = "modern-american"
OUT = {
    "canasta_natural": 1,
    "canasta_aces": 1,
    "meld_points": 400,
    "red_threes": 2,
    "black_threes": 1,
}
OTHER = {
    "canasta_mixed": 1,
    "meld_points": 150,
    "red_threes": 1,
    "hand_points": 65,
    "players_with_3_sevens": 1,
    "incomplete_sevens": 1,
}


def test_the_form_offers_special_hands_penalty_counts_and_black_threes(client):
    match_id = create_match(client, MAC)
    form = page(client.get(f"/matches/{match_id}/hands/new"))
    select = form.find_all("select", name="s0_special")
    assert select
    options = [o.text() for o in select[0].find_all("option")]
    assert options[0] == "None"
    assert "Pairs (2,500)" in options
    assert "Dream hand plus 5 (8,500, wins the game)" in options
    assert len(options) == 12
    for name in (
        "s0_black_threes",
        "s1_red_threes",
        "s0_incomplete_aces",
        "s0_incomplete_sevens",
        "s0_incomplete_wild",
        "s1_players_with_3_aces",
        "s1_players_with_3_sevens",
        "s0_canasta_wild_twos",
        "s0_hand_red_three",
    ):
        assert form.find_all(name=name), name
    assert not form.find_all(name="s0_meld_black_three")  # threes are never melded here
    # Another game has no special hands.
    classic = create_match(client, "classic")
    assert not page(client.get(f"/matches/{classic}/hands/new")).find_all(name="s0_special")


def test_a_hand_recorded_and_corrected_through_the_form(client):
    match_id = create_match(client, MAC)
    record_ok(client, match_id, 0, OUT, OTHER)
    board = client.get(f"/matches/{match_id}")
    assert totals(board) == [3900, -3615]
    assert [card.meld for card in side_cards(board)] == ["155 points", "125 points"]
    detail = text_of(client.get(f"/matches/{match_id}/hands/1"))
    for words in (
        "1 canasta of aces x 2,500",
        "1 black three on one side",
        "1 red three, counting nothing (fewer than 2 canastas)",
        "1 player holding three or more sevens x 1,500",
        "1 unfinished meld of sevens x 2,500",
    ):
        assert words in detail, words
    edit = client.get(f"/matches/{match_id}/hands/1/edit")
    assert input_value(edit, "s0_black_threes") == "1"
    assert input_value(edit, "s1_incomplete_sevens") == "1"


def test_a_special_hand_from_the_form_wins_the_game_at_once(client):
    match_id = create_match(client, MAC)
    record_ok(client, match_id, 0, OUT, OTHER)
    data = hand_data(client, match_id, 1, {"meld_points": 60, "hand_points": 20}, {})
    data["s1_special"] = "dream_plus_4"
    preview = client.post(f"/matches/{match_id}/hands/preview", data=data)
    assert preview.status_code == 200, preview.get_json()
    sides = preview.get_json()["sides"]
    assert [side["total"] for side in sides] == [-80, 8500]
    assert sides[1]["lines"][0]["label"].endswith("Dream hand plus 4 (wins the game at once)")
    response = client.post(f"/matches/{match_id}/hands/new", data=data)
    assert confirmation(response) == ["This hand ends the game: Bob & Dee wins."]
    assert confirm(client, response).status_code == 303
    board = client.get(f"/matches/{match_id}")
    assert totals(board) == [3820, 4885]
    text = text_of(board)
    assert "won at once by a special hand that wins the game" in text
    assert "Record hand" not in text
    assert [card.winner for card in side_cards(board)] == [False, True]
    edit = client.get(f"/matches/{match_id}/hands/2/edit")
    [select] = page(edit).find_all("select", name="s1_special")
    chosen = [o.attrs["value"] for o in select.find_all("option") if "selected" in o.attrs]
    assert chosen == ["dream_plus_4"]


def test_without_the_script_the_server_explains_a_special_hand_with_other_entries(client):
    match_id = create_match(client, MAC)
    data = hand_data(client, match_id, 0, {"meld_points": 50}, {"hand_points": 20})
    data["s0_special"] = "garbage"
    response = client.post(f"/matches/{match_id}/hands/new", data=data)
    assert response.status_code == 422
    [message] = field_errors(response, "s0_meld_points")
    assert "went out with a special hand, which scores alone" in message
    assert input_value(response, "s0_meld_points") == "50"  # entries kept
    # A special hand for the side that did not go out is explained next to the choice.
    data = hand_data(client, match_id, 1, {}, {"hand_points": 20})
    data["s0_special"] = "pairs"
    response = client.post(f"/matches/{match_id}/hands/new", data=data)
    assert response.status_code == 422
    assert field_errors(response, "s0_special")
    assert totals(client.get(f"/matches/{match_id}")) == [0, 0]


def test_the_special_hand_counts_alone_once_the_other_entries_are_empty(client):
    match_id = create_match(client, MAC)
    response = record_hand(client, match_id, 0, {"special": "garbage"}, {})
    # Asked once more: nothing was entered for the other side.
    assert confirmation(response) == [
        "Nothing entered for Bob & Dee: fill in their cards, or save to record nothing for them"
    ]
    assert confirm(client, response).status_code == 303
    assert totals(client.get(f"/matches/{match_id}")) == [3000, 0]


def test_the_rules_page_describes_the_preset_in_tables(client):
    response = client.get(f"/rules/{MAC}")
    assert response.status_code == 200
    canastas = rows(response, "Canastas: bonuses")
    assert canastas["Canastas of aces"] == "2,500 each (seven natural aces)"
    assert canastas["Canastas of twos"] == "3,000 each (seven twos)"
    assert canastas["Melded cards"] == "count minus when the side has no canasta"
    for colour in ("Red threes", "Black threes"):
        schedule = rows(response, colour)
        assert schedule["4 on one side"] == "1,000 in all"
        name = colour.capitalize()
        assert schedule[f"{name} count minus when"] == "the side has no canasta"
        assert schedule[f"{name} count nothing when"] == "the side has exactly 1 canasta"
    special = rows(response, "Special hands")
    assert special["Garbage"] == "3,000"
    assert special["Dream hand plus 4"] == "8,500, and wins the game at once"
    penalties = rows(response, "Penalties")
    assert penalties["Unfinished melds of aces"] == ("-2,500 each; no going out while one is left")
    assert penalties["Players holding three or more sevens"] == "-1,500 each"
    minimums = rows(response, "Initial meld minimum by score")
    assert minimums == {
        "Below 3,000": "125 points",
        "3,000 to 4,995": "155 points",
        "5,000 and more": "180 points",
    }
