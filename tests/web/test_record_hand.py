"""Recording a hand through the form: fields per variant, scores, errors kept in place."""

from __future__ import annotations

import re

import pytest

from .helpers import (
    PLAYERS2,
    all_field_errors,
    counts,
    create_match,
    field_errors,
    field_wrapper,
    flashes,
    hand_data,
    input_value,
    page,
    record_hand,
    record_ok,
    side_cards,
    text_of,
    top_errors,
    totals,
)

NAMED = {"canasta_": "canastas.", "penalty_": "penalties.rule:", "free_": "penalties.free."}


def path_of(name: str) -> str:
    """The hand-record path a side's input stands for, read from its name (without the
    `s0_` of its side): `canasta_natural` is `canastas.natural`, `meld_high` is
    `meld_cards.high`, `red_threes` is itself."""
    for short, path in NAMED.items():
        if name.startswith(short):
            return path + name.removeprefix(short)
    block, _, rest = name.partition("_")
    if block in ("meld", "hand", "foot") and rest not in ("mode", "points"):
        return f"{block}_cards.{rest}"
    return name


def labels_of(root, side: int, path_prefix: str) -> list[str]:
    """Labels of the inputs of one side whose hand-record path starts with `path_prefix`."""
    out = []
    for node in root.find_all("input"):
        name = node.attrs.get("name", "")
        if not name.startswith(f"s{side}_") or node.attrs.get("type") == "radio":
            continue
        if not path_of(name.removeprefix(f"s{side}_")).startswith(path_prefix):
            continue
        out.append(root.find("label", for_=node.attrs["id"]).text())
    return out


def form_page(client, variant, players=None, **kwargs):
    if players is None:
        players = PLAYERS2 if variant in ("classic-2p", "buraco", "burraco") else None
    match_id = create_match(client, variant, *([players] if players else []), **kwargs)
    response = client.get(f"/matches/{match_id}/hands/new")
    assert response.status_code == 200
    return match_id, page(response)


def explanation(client, match_id, number=1) -> str:
    response = client.get(f"/matches/{match_id}/hands/{number}")
    assert response.status_code == 200
    return text_of(response)


# --- the form follows the variant ---------------------------------------------------------


@pytest.mark.parametrize(
    ("variant", "kinds"),
    [
        ("classic", ["Natural canastas", "Mixed canastas"]),
        ("samba", ["Natural canastas", "Mixed canastas", "Sambas"]),
        ("brazilian", ["Natural canastas", "Mixed canastas", "Sambas", "Bolivias"]),
        ("bolivia", ["Natural canastas", "Mixed canastas", "Escaleras", "Bolivias"]),
        ("buraco", ["Natural canastas", "Mixed canastas", "Ace-to-ace canastas"]),
        ("burraco", ["Clean burracos", "Dirty burracos"]),
    ],
)
def test_canasta_steppers_are_named_as_the_variant_names_them(client, variant, kinds):
    _, root = form_page(client, variant)
    assert labels_of(root, 0, "canastas.") == kinds
    assert labels_of(root, 1, "canastas.") == kinds
    for node in root.find_all("input"):
        if "_canasta_" in node.attrs.get("name", ""):
            assert node.attrs["type"] == "number"
            assert "data-stepper" in node.attrs
            assert node.attrs["min"] == "0"


def test_semi_clean_burraco_appears_when_the_house_rule_is_on(client):
    _, root = form_page(client, "burraco", options={"semi_clean": 150})
    assert labels_of(root, 0, "canastas.") == [
        "Clean burracos",
        "Dirty burracos",
        "Semi-clean burracos",
    ]


def test_who_went_out_offers_each_side_and_nobody(client):
    _, root = form_page(client, "classic")
    out = field_wrapper(root, "out")
    assert out.find("legend").text() == "Who went out?"
    choices = [label.text() for label in out.find_all("label")]
    assert choices == ["Ann & Cid", "Bob & Dee", "Nobody: the stock ran out"]
    values = [node.attrs["value"] for node in out.find_all("input")]
    assert values == ["0", "1", "none"]


def test_classic_fields(client):
    _, root = form_page(client, "classic")
    assert labels_of(root, 0, "red_threes") == ["Red threes laid down"]
    assert root.find("label", for_="concealed").text() == "Went out concealed (200 instead of 100)"
    assert labels_of(root, 0, "took_extra_hand") == []
    assert labels_of(root, 0, "black_threes_in_hand") == []
    # Both ways to enter cards, with a switch.
    assert [n.attrs["value"] for n in root.find_all("input", name="s0_meld_mode")] == [
        "points",
        "cards",
    ]
    assert input_value(root, "s0_meld_mode") == "points"
    assert labels_of(root, 0, "meld_cards.") == [
        "Jokers (jokers, 50)",
        "Twos (2s (wild), 20)",
        "Aces (aces, 20)",
        "High cards (K Q J 10 9 8, 10)",
        "Low cards (7 6 5 4, 5)",
        "Black threes (black 3s, 5)",
    ]
    assert labels_of(root, 0, "meld_points") == ["Points melded"]
    assert labels_of(root, 0, "hand_points") == ["Points left in hand"]
    assert labels_of(root, 0, "penalties.free") == [
        "Other penalty: points",
        "Other penalty: reason",
    ]


def test_samba_has_no_concealed_bonus_checkbox(client):
    _, root = form_page(client, "samba")
    assert not root.find_all("input", name="concealed")


def test_brazilian_fields(client):
    _, root = form_page(client, "brazilian")
    assert labels_of(root, 0, "black_threes_in_hand") == ["Black threes left in hand"]
    assert labels_of(root, 0, "short_sequences") == ["Melded sequences under 5 cards"]
    # Black threes left in hand are only entered as the penalty count.
    assert "Black threes (black 3s, 5)" not in labels_of(root, 0, "hand_cards.")
    assert "Black threes (black 3s, 5)" in labels_of(root, 0, "meld_cards.")


def test_buraco_and_burraco_fields(client):
    _, root = form_page(client, "buraco")
    assert labels_of(root, 0, "took_extra_hand") == ["Took the extra hand (morto)"]
    assert labels_of(root, 0, "red_threes") == []
    assert "Jokers (jokers, 50)" not in " ".join(labels_of(root, 0, "meld_cards."))
    assert not root.find_all("input", name="concealed")
    _, root = form_page(client, "burraco")
    assert labels_of(root, 1, "took_extra_hand") == ["Took the extra hand (pozzetto)"]


def test_samba_fournier_penalty_catalogue(client):
    _, root = form_page(client, "samba-fournier")
    assert labels_of(root, 0, "penalties.rule:") == [
        "Canasta with three wild cards (100)",
        "Drew from the stock out of turn (100)",
        "Took the discard pile out of turn (100)",
        "Played during an opponent's turn (100)",
        "Tried to go out after the partner said no (100)",
    ]
    assert labels_of(root, 0, "red_threes_in_hand") == ["Red threes still in hand"]


def test_form_says_who_dealt_and_the_totals_before(client):
    match_id, root = form_page(client, "classic", first_dealer=1)
    assert root.find("h1").text().startswith("Hand 1")
    assert "Bob dealt this hand." in root.find("main").text()
    record_ok(client, match_id, "none", {"meld_points": 150}, {"meld_points": 20})
    root = page(client.get(f"/matches/{match_id}/hands/new"))
    assert root.find("h1").text().startswith("Hand 2")
    assert "Cid dealt this hand." in root.find("main").text()
    legends = [fs.find("legend").text() for fs in root.find_all("fieldset", class_="side")]
    assert legends == ["Ann & Cid (150 before this hand)", "Bob & Dee (20 before this hand)"]


# --- scores per variant -----------------------------------------------------------------


def test_classic_hand_recorded_and_explained(client):
    match_id = create_match(client, "classic")
    response = record_hand(
        client,
        match_id,
        0,
        {"canasta_natural": 1, "canasta_mixed": 1, "meld_points": 350, "red_threes": 4},
        {"meld_points": 120, "hand_points": 45},
        concealed=True,
    )
    assert response.status_code == 303
    assert response.headers["Location"] == f"/matches/{match_id}"
    # 500 + 300 + 350 + concealed 200 + all four red threes 800 = 2150; 120 - 45 = 75.
    assert totals(client.get(f"/matches/{match_id}")) == [2150, 75]
    text = explanation(client, match_id)
    assert "Going out concealed +200" in text
    assert "4 red threes on one side +800" in text


def test_count_cards_mode_scores_by_category(client):
    match_id = create_match(client, "classic")
    record_ok(
        client,
        match_id,
        0,
        {
            "canasta_mixed": 1,
            "meld_mode": "cards",
            "meld_joker": 2,
            "meld_two": 3,
            "meld_ace": 4,
            "meld_high": 7,
            "meld_low": 5,
        },
        {"meld_points": 90, "hand_mode": "cards", "hand_joker": 1, "hand_high": 2},
    )
    # Melded: 2x50 + 3x20 + 4x20 + 7x10 + 5x5 = 100 + 60 + 80 + 70 + 25 = 335.
    # Ann & Cid: mixed 300 + 335 + going out 100 = 735.
    # Bob & Dee: 90 - (1x50 + 2x10 = 70) = 20.
    assert totals(client.get(f"/matches/{match_id}")) == [735, 20]
    text = explanation(client, match_id)
    assert (
        "Melded cards: 2 jokers x 50, 3 twos x 20, 4 aces x 20, 7 high cards x 10, "
        "5 low cards x 5 +335"
    ) in text
    assert "Cards left in hand: 1 joker x 50, 2 high cards x 10 -70" in text


def test_brazilian_hand_with_black_threes_and_short_sequences(client):
    match_id = create_match(client, "brazilian")
    record_ok(
        client,
        match_id,
        0,
        {"canasta_samba": 1, "canasta_natural": 1, "meld_points": 600, "red_threes": 5},
        {
            "canasta_mixed": 1,
            "meld_points": 250,
            "hand_points": 80,
            "red_threes": 1,
            "black_threes_in_hand": 2,
            "short_sequences": 1,
        },
        concealed=True,
    )
    # Ann & Cid: samba 1500 + natural 500 + 600 + concealed 200 + five red threes 1000 = 3800.
    # Bob & Dee: mixed 300 + 250 - 80 - 2 black threes 200 - short sequence 1000
    # + one red three 100 (they have a canasta) = -630.
    assert totals(client.get(f"/matches/{match_id}")) == [3800, -630]
    text = explanation(client, match_id)
    assert "2 black threes left in hand x 100 -200" in text
    assert "1 melded sequence under 5 cards x 1,000 -1,000" in text
    assert "5 red threes on one side +1,000" in text


def test_bolivia_escalera(client):
    match_id = create_match(client, "bolivia")
    record_ok(
        client,
        match_id,
        0,
        {"canasta_samba": 1, "canasta_natural": 1, "meld_points": 400, "red_threes": 2},
        {"meld_points": 100, "hand_points": 50, "black_threes_in_hand": 1},
    )
    # Escalera 1500 + natural 500 + 400 + going out 200 + 2 red threes 200 = 2800.
    # 100 - 50 - black three 100 = -50.
    assert totals(client.get(f"/matches/{match_id}")) == [2800, -50]
    assert "1 escalera x 1,500 +1,500" in explanation(client, match_id)


def test_buraco_ace_to_ace_and_extra_hand(client):
    match_id = create_match(client, "buraco", PLAYERS2)
    record_ok(
        client,
        match_id,
        0,
        {
            "canasta_ace_to_ace": 1,
            "canasta_natural": 1,
            "meld_points": 300,
            "took_extra_hand": True,
        },
        {"canasta_mixed": 1, "meld_points": 150, "hand_points": 40},
    )
    # Ann: ace-to-ace 1000 + natural 100 + 300 + going out 100 = 1500.
    # Bob never took the morto: mixed 100 + 150 - 40 - 100 = 110.
    assert totals(client.get(f"/matches/{match_id}")) == [1500, 110]
    text = explanation(client, match_id)
    assert "1 ace-to-ace canasta x 1,000 +1,000" in text
    assert "Extra hand (morto) not taken -100" in text


def test_burraco_clean_and_dirty(client):
    match_id = create_match(client, "burraco", PLAYERS2)
    record_ok(
        client,
        match_id,
        0,
        {
            "canasta_natural": 1,
            "canasta_mixed": 1,
            "meld_points": 350,
            "took_extra_hand": True,
        },
        {"meld_points": 80, "hand_points": 45},
    )
    # Ann: clean 200 + dirty 100 + 350 + closing 100 = 750.
    # Bob: 80 - 45 - pozzetto not taken 100 = -65.
    assert totals(client.get(f"/matches/{match_id}")) == [750, -65]
    text = explanation(client, match_id)
    assert "1 clean burraco x 200 +200" in text
    assert "1 dirty burraco x 100 +100" in text
    assert "Closing +100" in text


def test_catalogue_and_free_penalties(client):
    match_id = create_match(client, "samba-fournier")
    record_ok(
        client,
        match_id,
        0,
        {
            "canasta_natural": 1,
            "meld_points": 300,
            "red_threes": 1,
            "penalty_stock_out_of_turn": 2,
        },
        {
            "meld_points": 100,
            "hand_points": 50,
            "red_threes_in_hand": 1,
            "free_points": 25,
            "free_reason": "Talking across the table",
        },
    )
    # Ann & Cid: natural 500 + 300 + going out 200 - one red three below two canastas 500
    # - 2 x stock out of turn 100 = 300.
    # Bob & Dee: 100 - 50 - red three in hand 1500 - free penalty 25 = -1475.
    assert totals(client.get(f"/matches/{match_id}")) == [300, -1475]
    text = explanation(client, match_id)
    assert "Penalty: Drew from the stock out of turn x 2 -200" in text
    assert "Penalty: Talking across the table -25" in text
    assert "1 red three x -500 (fewer than 2 canastas) -500" in text


def test_nobody_went_out(client):
    match_id = create_match(client, "samba")
    record_ok(
        client,
        match_id,
        "none",
        {"canasta_natural": 2, "meld_points": 400, "red_threes": 1},
        {"canasta_samba": 1, "meld_points": 200, "hand_points": 35},
    )
    # No going-out bonus. 1000 + 400 + red three 100 (two canastas) = 1500.
    # Samba 1500 + 200 - 35 = 1665.
    assert totals(client.get(f"/matches/{match_id}")) == [1500, 1665]
    said = explanation(client, match_id).split("Rules it was")[0]
    assert "Going out no" in said  # as entered
    assert not re.search(r"Going out [+-]?\d", said)  # no line of the score


# --- errors: next to the field, input kept, nothing saved ---------------------------------


def assert_rejected(app, before, response):
    assert response.status_code == 422
    assert counts(app) == before


def test_missing_who_went_out(client, app):
    match_id = create_match(client, "classic")
    before = counts(app)
    data = hand_data(client, match_id, "none", {"meld_points": 100}, {"meld_points": 50})
    del data["out"]
    response = client.post(f"/matches/{match_id}/hands/new", data=data)
    assert_rejected(app, before, response)
    assert field_errors(response, "out") == ["Choose who went out, or Nobody"]
    assert input_value(response, "s0_meld_points") == "100"
    assert input_value(response, "s1_meld_points") == "50"


def test_going_out_without_the_requirement(client, app):
    match_id = create_match(client, "classic")
    before = counts(app)
    response = record_hand(client, match_id, 0, {"meld_points": 100}, {"meld_points": 50})
    assert_rejected(app, before, response)
    errors = field_errors(response, "out")
    assert errors == ["Ann & Cid cannot have gone out: Classic Canasta needs 1 canasta, 0 recorded"]
    # The choice and every entry are kept.
    assert input_value(response, "out") == "0"
    assert input_value(response, "s0_meld_points") == "100"
    assert input_value(response, "s1_meld_points") == "50"
    wrapper = field_wrapper(page(response), "out")
    assert "has-error" in wrapper.classes


def test_points_not_a_multiple_of_five(client, app):
    match_id = create_match(client, "classic")
    before = counts(app)
    response = record_hand(client, match_id, "none", {"meld_points": 7}, {"hand_points": 12})
    assert_rejected(app, before, response)
    s0 = field_errors(response, "s0_meld_points")
    s1 = field_errors(response, "s1_hand_points")
    assert len(s0) == 1
    assert "multiple of 5" in s0[0]
    assert len(s1) == 1
    assert "multiple of 5" in s1[0]
    assert s1[0].startswith("Bob & Dee")
    assert input_value(response, "s0_meld_points") == "7"
    assert input_value(response, "s1_hand_points") == "12"
    # The input is tied to its message for screen readers.
    node = page(response).find("input", name="s0_meld_points")
    assert node.attrs["aria-invalid"] == "true"
    assert node.attrs["aria-describedby"] == "s0_meld_points-error"


def test_negative_count(client, app):
    match_id = create_match(client, "classic")
    before = counts(app)
    response = record_hand(client, match_id, "none", {"canasta_natural": -1}, {})
    assert_rejected(app, before, response)
    assert field_errors(response, "s0_canasta_natural") == ["Enter a number from 0 to 10,000"]
    assert input_value(response, "s0_canasta_natural") == "-1"


def test_text_in_a_number_field_gets_one_clear_message(client, app):
    match_id = create_match(client, "classic")
    before = counts(app)
    response = record_hand(client, match_id, "none", {"hand_points": "abc"}, {})
    assert_rejected(app, before, response)
    # "abc" is not a number; telling the player to "Enter 0 or more" as well is wrong.
    assert field_errors(response, "s0_hand_points") == ["Enter a whole number"]
    assert input_value(response, "s0_hand_points") == "abc"


def test_too_large_a_number_is_not_called_negative(client, app):
    match_id = create_match(client, "classic")
    before = counts(app)
    response = record_hand(client, match_id, "none", {"meld_points": 2_000_000}, {})
    assert_rejected(app, before, response)
    errors = field_errors(response, "s0_meld_points")
    assert errors
    # 2000000 is 0 or more: the message must say what is actually wrong (too large).
    assert errors != ["Enter 0 or more"]


def test_form_errors_and_rule_errors_are_reported_together(client, app):
    """RULES.md: all problems of a hand are reported together, not only the first."""
    match_id = create_match(client, "classic")
    before = counts(app)
    response = record_hand(client, match_id, "none", {"canasta_natural": -1}, {"meld_points": 12})
    assert_rejected(app, before, response)
    errors = all_field_errors(response)
    assert errors.get("s0_canasta_natural") == ["Enter a number from 0 to 10,000"]
    assert "s1_meld_points" in errors


def test_too_many_red_threes_at_the_top(client, app):
    match_id = create_match(client, "classic")
    before = counts(app)
    response = record_hand(
        client, match_id, "none", {"meld_points": 100, "red_threes": 3}, {"red_threes": 2}
    )
    assert_rejected(app, before, response)
    assert top_errors(response) == [
        "The deck holds 4 red threes; 5 are recorded across all sides (laid down and in hand)"
    ]
    alert = page(response).find(id="form-errors")
    assert alert.attrs["role"] == "alert"
    assert input_value(response, "s0_red_threes") == "3"


def test_count_mode_errors(client, app):
    match_id = create_match(client, "classic")
    before = counts(app)
    response = record_hand(
        client,
        match_id,
        "none",
        {"canasta_natural": 1, "meld_mode": "cards", "meld_joker": 3, "meld_high": 2},
        {"meld_mode": "cards", "meld_joker": 2},
    )
    assert_rejected(app, before, response)
    # One canasta needs 7 melded cards; 5 are counted.
    assert field_errors(response, "s0_meld_mode") == [
        "Ann & Cid: 1 canasta needs at least 7 melded cards; 5 counted"
    ]
    # 3 + 2 jokers, the deck has 4.
    assert top_errors(response) == ["The deck holds 4 jokers; 5 are counted across all sides"]
    # The count-cards switch stays on what was chosen.
    assert input_value(response, "s0_meld_mode") == "cards"
    assert input_value(response, "s0_meld_joker") == "3"


def test_player_alone_who_went_out_holds_no_cards(client, app):
    match_id = create_match(client, "buraco", PLAYERS2)
    before = counts(app)
    response = record_hand(
        client,
        match_id,
        0,
        {"canasta_natural": 1, "meld_points": 100, "hand_points": 20, "took_extra_hand": True},
        {"took_extra_hand": True},
    )
    assert_rejected(app, before, response)
    assert field_errors(response, "s0_hand_points") == [
        "Ann: a player who went out has no cards left in hand"
    ]
    assert input_value(response, "s0_took_extra_hand") == "y"


def test_going_out_without_the_extra_hand(client, app):
    match_id = create_match(client, "buraco", PLAYERS2)
    before = counts(app)
    response = record_hand(client, match_id, 0, {"canasta_natural": 1, "meld_points": 100}, {})
    assert_rejected(app, before, response)
    assert field_errors(response, "out") == [
        "Ann cannot have gone out: Buraco needs the extra hand (morto) taken first, and it was not"
    ]


def test_free_penalty_without_points(client, app):
    match_id = create_match(client, "classic")
    before = counts(app)
    response = record_hand(client, match_id, "none", {"free_reason": "Looked at the stock"}, {})
    assert_rejected(app, before, response)
    assert field_errors(response, "s0_free_points") == [
        "Ann & Cid: penalty points must be more than 0"
    ]
    assert input_value(response, "s0_free_reason") == "Looked at the stock"
    # The penalties block is unfolded so the message is seen.
    details = field_wrapper(page(response), "s0_free_points").ancestor("more")
    assert details.tag == "details"
    assert "open" in details.attrs


def test_free_penalty_without_reason_is_flagged_at_the_reason(client, app):
    match_id = create_match(client, "classic")
    before = counts(app)
    response = record_hand(client, match_id, "none", {"free_points": 50}, {})
    assert_rejected(app, before, response)
    errors = field_errors(response, "s0_free_reason")
    assert errors == ["Ann & Cid: a free penalty needs a reason"]


def test_free_penalty_reason_too_long(client, app):
    match_id = create_match(client, "classic")
    before = counts(app)
    response = record_hand(
        client, match_id, "none", {"free_points": 50, "free_reason": "x" * 201}, {}
    )
    assert_rejected(app, before, response)
    assert field_errors(response, "s0_free_reason")
    assert input_value(response, "s0_free_reason") == "x" * 201


def test_concealed_without_anyone_going_out_is_refused(client, app):
    """RULES.md rejects `concealed` without `went_out`; the form must not drop it silently."""
    match_id = create_match(client, "classic")
    before = counts(app)
    response = record_hand(
        client, match_id, "none", {"meld_points": 100}, {"meld_points": 50}, concealed=True
    )
    assert_rejected(app, before, response)
    errors = all_field_errors(response)
    assert errors.get("concealed") or errors.get("out")


def test_a_rejected_hand_leaves_the_scoreboard_alone(client, app):
    match_id = create_match(client, "classic")
    record_ok(client, match_id, "none", {"meld_points": 100}, {"meld_points": 50})
    before = counts(app)
    response = record_hand(client, match_id, 1, {"meld_points": 100}, {"meld_points": 50})
    assert_rejected(app, before, response)
    scoreboard = client.get(f"/matches/{match_id}")
    assert totals(scoreboard) == [100, 50]
    assert [c.meld for c in side_cards(scoreboard)] == ["50 points", "50 points"]
    # The page after the error still says which hand it is and keeps the same token.
    root = page(response)
    assert root.find("h1").text().startswith("Hand 2")
    assert input_value(root, "expected_number") == "2"


def test_a_head_request_leaves_the_flashed_message_for_the_page(client):
    """A HEAD of the scoreboard (a phone asking whether the server is back, a link
    preview) gets no body, so it must not take the message the next page shows."""
    match_id = create_match(client, "classic")
    ours = {"canasta_natural": 1, "canasta_mixed": 1, "meld_points": 350}
    response = record_hand(client, match_id, 0, ours, {"meld_points": 120, "hand_points": 45})
    assert response.status_code == 303
    assert client.head(f"/matches/{match_id}").status_code == 200
    assert flashes(client.get(f"/matches/{match_id}")) == ["Hand 1 recorded."]
