"""Correcting a hand and undoing the last one: everything after is recomputed and audited."""

from __future__ import annotations

from scorekeeper.models import AuditEntry, Hand, HandSide

from .helpers import (
    PLAYERS2,
    audit_entries,
    classic_hands,
    correct_hand,
    count,
    counts,
    create_match,
    edit_data,
    field_errors,
    flashes,
    form_values,
    hand_rows,
    input_value,
    next_dealer,
    page,
    record_ok,
    remove_hand,
    side_cards,
    text_of,
    top_errors,
    totals,
)

DASH = "\u2013"  # shown for "no score" (before a hand was recorded, after it was removed)


def short_game(client) -> int:
    """Classic for two to 1000: Ann 500 / Bob 300, then 300 / 300 (800 / 600)."""
    match_id = create_match(client, "classic-2p", PLAYERS2, options={"target": 1000})
    record_ok(client, match_id, "none", {"meld_points": 500}, {"meld_points": 300})
    record_ok(client, match_id, "none", {"meld_points": 300}, {"meld_points": 300})
    return match_id


# --- the correction form --------------------------------------------------------------------


def test_correction_form_is_prefilled(client):
    match_id = classic_hands(client)
    response = client.get(f"/matches/{match_id}/hands/1/edit")
    assert response.status_code == 200
    root = page(response)
    assert root.find("h1").text().startswith("Correct hand 1")
    assert input_value(root, "out") == "0"
    assert input_value(root, "s0_canasta_natural") == "1"
    assert input_value(root, "s0_canasta_mixed") == "1"
    assert input_value(root, "s0_meld_points") == "500"
    assert input_value(root, "s0_red_threes") == "1"
    assert input_value(root, "s1_meld_points") == "50"
    assert input_value(root, "s1_hand_points") == "120"
    assert input_value(root, "version") == "1"
    assert root.find("button", type="submit").text() == "Save the correction"
    # Hand 2's form shows the totals before hand 2.
    root = page(client.get(f"/matches/{match_id}/hands/2/edit"))
    legends = [fs.find("legend").text() for fs in root.find_all("fieldset", class_="side")]
    assert legends == ["Ann & Cid (1,500 before this hand)", "Bob & Dee (-70 before this hand)"]
    assert input_value(root, "out") == "none"


def test_correction_form_keeps_count_mode_and_penalties(client):
    match_id = create_match(client, "classic")
    record_ok(
        client,
        match_id,
        "none",
        {"meld_mode": "cards", "meld_ace": 3, "meld_low": 4},
        {"meld_points": 50, "free_points": 25, "free_reason": "Slow play"},
    )
    root = page(client.get(f"/matches/{match_id}/hands/1/edit"))
    assert input_value(root, "s0_meld_mode") == "cards"
    assert input_value(root, "s0_meld_ace") == "3"
    assert input_value(root, "s0_meld_low") == "4"
    assert input_value(root, "s1_free_points") == "25"
    assert input_value(root, "s1_free_reason") == "Slow play"
    # Saving the form unchanged keeps the scores: 3x20 + 4x5 = 80; 50 - 25 = 25.
    response = client.post(f"/matches/{match_id}/hands/1/edit", data=form_values(root))
    assert response.status_code == 303
    assert totals(client.get(f"/matches/{match_id}")) == [80, 25]


def test_correcting_an_early_hand_recomputes_everything_after(client, app):
    match_id = classic_hands(client)
    before = side_cards(client.get(f"/matches/{match_id}"))
    assert [c.meld for c in before] == ["90 points", "50 points"]
    # Ann & Cid had 4 natural canastas in hand 1, not 1: 2000 + 300 + 500 + 100 + 100 = 3000.
    response = correct_hand(client, match_id, 1, 0, {"canasta_natural": 4})
    assert response.status_code == 303
    assert response.headers["Location"] == f"/matches/{match_id}"
    board = client.get(f"/matches/{match_id}")
    assert "Hand 1 corrected. Every later total has been recomputed." in flashes(board)
    assert hand_rows(board) == [
        ("1", ["+3,000", "-70"], [3000, -70]),
        ("2", ["+80", "+1,000"], [3080, 930]),
    ]
    cards = side_cards(board)
    assert [c.total for c in cards] == [3080, 930]
    # 3080 is in the 3000-and-more tier now.
    assert [c.meld for c in cards] == ["120 points", "50 points"]
    assert [c.lead for c in cards] == ["Leads by 2,150", "2,150 behind"]
    # The deal goes on as before.
    assert next_dealer(board) == "Cid"
    assert count(app, Hand) == 2


def test_correction_that_ends_the_game(client):
    match_id = short_game(client)
    # Hand 2: Ann melded 600, not 300: 500 + 600 = 1100 reaches 1000, Bob has 600.
    assert correct_hand(client, match_id, 2, "none", {"meld_points": 600}).status_code == 303
    board = client.get(f"/matches/{match_id}")
    assert page(board).find(class_="banner").find("h2").text() == "Ann wins"
    assert totals(board) == [1100, 600]
    assert "Record hand" not in text_of(board)
    assert "Won by Ann" in text_of(client.get("/history"))

    # And back: the game goes on and leaves the history.
    assert correct_hand(client, match_id, 2, "none", {"meld_points": 300}).status_code == 303
    board = client.get(f"/matches/{match_id}")
    assert not page(board).find_all(class_="banner")
    assert "Record hand 3" in text_of(board)
    assert "0 matches" in text_of(client.get("/history"))


def test_correction_cannot_end_the_game_before_later_hands(client, app):
    match_id = short_game(client)
    before = counts(app)
    # Hand 1: Ann 1000 (a natural canasta and 500 melded) would end the game after hand 1,
    # but hand 2 was played.
    response = correct_hand(client, match_id, 1, "none", {"canasta_natural": 1, "meld_points": 500})
    assert response.status_code == 409
    assert top_errors(response) == [
        "With this change the game is over after hand 1, but 1 later hand was played. "
        "Remove the later hands first if that is right."
    ]
    assert input_value(response, "s0_canasta_natural") == "1"
    # Nothing changed: one transaction, rolled back.
    assert counts(app) == before
    board = client.get(f"/matches/{match_id}")
    assert hand_rows(board) == [
        ("1", ["+500", "+300"], [500, 300]),
        ("2", ["+300", "+300"], [800, 600]),
    ]
    assert not any("corrected" in entry for entry in audit_entries(board))
    with app.app_context():
        from scorekeeper.extensions import db

        hand = db.session.query(Hand).filter_by(match_id=match_id, number=1).one()
        assert hand.version == 1
        assert [s.total for s in hand.sides] == [500, 300]


def test_invalid_correction_keeps_input_and_changes_nothing(client, app):
    match_id = classic_hands(client)
    before = counts(app)
    response = correct_hand(client, match_id, 1, 0, {"meld_points": 503})
    assert response.status_code == 422
    assert counts(app) == before
    errors = field_errors(response, "s0_meld_points")
    assert len(errors) == 1
    assert "multiple of 5" in errors[0]
    assert input_value(response, "s0_meld_points") == "503"
    assert input_value(response, "s0_canasta_natural") == "1"
    assert page(response).find("h1").text().startswith("Correct hand 1")
    assert totals(client.get(f"/matches/{match_id}")) == [1580, 930]


def test_correcting_without_a_change_adds_no_audit_entry(client, app):
    match_id = classic_hands(client)
    before = count(app, AuditEntry)
    data = edit_data(client, match_id, 1, 0)
    response = client.post(f"/matches/{match_id}/hands/1/edit", data=data)
    assert response.status_code == 303
    assert count(app, AuditEntry) == before


# --- undo / remove ----------------------------------------------------------------------


def test_undo_the_last_hand(client, app):
    match_id = classic_hands(client)
    board = page(client.get(f"/matches/{match_id}"))
    undo = next(a for a in board.find_all("a") if a.text() == "Undo hand 2")
    assert undo.attrs["href"] == f"/matches/{match_id}/hands/2/remove"

    confirm = client.get(undo.attrs["href"])
    assert confirm.status_code == 200
    text = text_of(confirm)
    assert "Remove hand 2?" in text
    assert "Scores of this hand: Ann & Cid +80, Bob & Dee +1,000." in text
    # Nothing is removed by looking at the confirmation.
    assert count(app, Hand) == 2

    response = remove_hand(client, match_id, 2)
    assert response.status_code == 303
    assert response.headers["Location"] == f"/matches/{match_id}"
    board = client.get(f"/matches/{match_id}")
    assert "Hand 2 removed. Every later total has been recomputed." in flashes(board)
    assert hand_rows(board) == [("1", ["+1,500", "-70"], [1500, -70])]
    assert [c.meld for c in side_cards(board)] == ["90 points", "15 points"]
    # Hand 2 is to be dealt again, by Bob.
    assert next_dealer(board) == "Bob"
    assert "Record hand 2" in text_of(board)
    assert count(app, Hand) == 1
    assert count(app, HandSide) == 2


def test_undo_the_winning_hand_reopens_the_game(client):
    match_id = create_match(client, "classic-2p", PLAYERS2, options={"target": 1000})
    record_ok(client, match_id, "none", {"meld_points": 500}, {"meld_points": 300})
    record_ok(client, match_id, "none", {"meld_points": 600}, {"meld_points": 300})
    assert "Ann wins" in text_of(client.get(f"/matches/{match_id}"))
    home = text_of(client.get("/"))
    assert "Won by Ann" in home

    assert remove_hand(client, match_id, 2).status_code == 303
    board = client.get(f"/matches/{match_id}")
    assert not page(board).find_all(class_="banner")
    assert totals(board) == [500, 300]
    assert "Record hand 2" in text_of(board)
    home = text_of(client.get("/"))
    assert "No finished match yet." in home
    assert "· 1 hand · Ann ahead by 200" in home


def test_remove_double_tap_removes_one_hand(client, app):
    match_id = classic_hands(client)
    record_ok(client, match_id, "none", {"meld_points": 50}, {"meld_points": 50})
    confirm = client.get(f"/matches/{match_id}/hands/2/remove")
    data = form_values(page(confirm))
    first = client.post(f"/matches/{match_id}/hands/2/remove", data=data)
    second = client.post(f"/matches/{match_id}/hands/2/remove", data=data)
    assert first.status_code == 303
    assert second.status_code == 303
    board = client.get(f"/matches/{match_id}")
    assert "Hand 2 was already removed: nothing more was removed." in flashes(board)
    # Only the old hand 2 is gone; the old hand 3 is hand 2 now.
    # Running: 1500 / -70, then +50 / +50.
    assert hand_rows(board) == [
        ("1", ["+1,500", "-70"], [1500, -70]),
        ("2", ["+50", "+50"], [1550, -20]),
    ]
    assert count(app, Hand) == 2


def test_remove_a_missing_hand(client, app):
    match_id = classic_hands(client)
    response = client.get(f"/matches/{match_id}/hands/5/remove")
    assert response.status_code == 303
    board = client.get(response.headers["Location"])
    assert "There is no hand 5 to remove (it may have been removed already)." in flashes(board)
    assert count(app, Hand) == 2


def test_audit_trail_on_the_scoreboard(client):
    match_id = classic_hands(client)
    correct_hand(client, match_id, 1, 0, {"meld_points": 600})
    remove_hand(client, match_id, 2)
    entries = audit_entries(client.get(f"/matches/{match_id}"))
    # Newest first; recorded hands are in the hands table, not listed again.
    assert len(entries) == 2
    assert entries[0].startswith("Hand 2 removed")
    assert entries[0].endswith(f"Ann & Cid: +80 → {DASH}; Bob & Dee: +1,000 → {DASH}")
    assert entries[1].startswith("Hand 1 corrected")
    # A correction lists the sides it changed: Bob & Dee's entries and total stand.
    assert entries[1].endswith("Ann & Cid: +1,500 → +1,600")
    assert "Bob & Dee" not in entries[1]
    # The dispute view of a hand still says when and by whom it was recorded.
    history = audit_entries(client.get(f"/matches/{match_id}/hands/1"))
    assert history[0].startswith("Corrected by Tess")
    assert history[1].startswith("Recorded by Tess")
    assert "Bob & Dee" not in history[0]
    root = page(client.get(f"/matches/{match_id}"))
    assert root.find("h2", id="changes-heading").text() == "Changes"
    assert root.find("ul", class_="audit").find_all("time")


def test_a_side_whose_entries_changed_is_listed_though_its_total_stands(client):
    match_id = classic_hands(client)
    before = audit_entries(client.get(f"/matches/{match_id}"))
    assert before == []
    # Bob & Dee: 50 melded, 120 in hand (-70) become 60 melded, 130 in hand (-70 still).
    correct_hand(client, match_id, 1, 0, {}, {"meld_points": 60, "hand_points": 130})
    entries = audit_entries(client.get(f"/matches/{match_id}"))
    assert entries[0].startswith("Hand 1 corrected")
    assert entries[0].endswith("Bob & Dee: -70 → -70")
    assert "Ann & Cid" not in entries[0]


ROUND_TRIPS = {
    "brazilian": (
        None,
        0,
        {
            "canasta_samba": 1,
            "canasta_natural": 1,
            "meld_points": 600,
            "red_threes": 2,
            "hand_mode": "cards",
            "hand_joker": 0,
        },
        {
            "canasta_bolivia": 1,
            "meld_mode": "cards",
            "meld_joker": 3,
            "meld_two": 4,
            "meld_high": 2,
            "black_threes_in_hand": 2,
            "short_sequences": 1,
            "free_points": 15,
            "free_reason": "Slow",
        },
        {"concealed": True},
    ),
    "samba-fournier": (
        None,
        "none",
        {"meld_points": 120, "red_threes": 1, "penalty_pile_out_of_turn": 2},
        {"meld_points": 90, "red_threes_in_hand": 1, "penalty_three_wild_canasta": 1},
        {},
    ),
    "buraco": (
        PLAYERS2,
        0,
        {"canasta_ace_to_ace": 1, "meld_points": 200, "took_extra_hand": True},
        {"meld_points": 40, "hand_points": 25},
        {},
    ),
    "burraco": (
        ("Ann", "Bob", "Cid", "Dee"),
        1,
        {"meld_points": 40, "hand_points": 25, "took_extra_hand": True},
        {"canasta_natural": 1, "meld_points": 150, "took_extra_hand": True},
        {},
    ),
}


def test_correction_form_round_trips_every_field(client, app):
    for variant, (players, out, side0, side1, top) in ROUND_TRIPS.items():
        kwargs = {"layout": "2x2"} if variant == "burraco" else {}
        match_id = create_match(client, variant, *([players] if players else []), **kwargs)
        record_ok(client, match_id, out, side0, side1, **top)
        board = client.get(f"/matches/{match_id}")
        scores = totals(board)
        entries = audit_entries(board)
        # Open the correction and save it unchanged: the same hand, nothing to audit.
        root = page(client.get(f"/matches/{match_id}/hands/1/edit"))
        response = client.post(f"/matches/{match_id}/hands/1/edit", data=form_values(root))
        assert response.status_code == 303, variant
        board = client.get(f"/matches/{match_id}")
        assert totals(board) == scores, variant
        assert audit_entries(board) == entries, variant
