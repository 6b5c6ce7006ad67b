"""The integrity defects, as a player meets them through the pages."""

from __future__ import annotations

import json

import pytest
from sqlalchemy import text

from scorekeeper.extensions import db
from scorekeeper.models import Hand
from tests.support import app_on_new_database, make_tester

from .helpers import (
    PLAYERS2,
    confirm,
    confirmation,
    count,
    counts,
    create_match,
    edit_data,
    flashes,
    form_values,
    hand_data,
    hand_rows,
    input_value,
    page,
    record_ok,
    text_of,
    top_errors,
)

USUAL = ({"meld_points": 55, "hand_points": 5}, {"meld_points": 25, "hand_points": 5})


def four_hands(client) -> int:
    match_id = create_match(client, "classic-2p", PLAYERS2)
    for points in (10, 20, 30, 40):
        record_ok(
            client,
            match_id,
            "none",
            {"meld_points": points + 5, "hand_points": 5},
            {"meld_points": points + 5, "hand_points": 5},
        )
    return match_id


# --- 1. A correction never lands on another hand ---------------------------------------


def test_an_edit_form_saved_after_another_phone_removed_an_earlier_hand_is_refused(client, app):
    match_id = four_hands(client)
    # Phone A opens hand 3; phone B removes hand 2; phone A saves.
    phone_a = edit_data(client, match_id, 3, "none", {"meld_points": 95})
    confirm_page = client.get(f"/matches/{match_id}/hands/2/remove")
    removed = client.post(
        f"/matches/{match_id}/hands/2/remove", data=form_values(page(confirm_page))
    )
    assert removed.status_code == 303
    before = counts(app)
    rows = hand_rows(client.get(f"/matches/{match_id}"))
    response = client.post(f"/matches/{match_id}/hands/3/edit", data=phone_a)
    assert response.status_code == 409
    assert "Not saved" in top_errors(response)[0]
    assert input_value(response, "s0_meld_points") == "95"  # the entries are kept
    assert counts(app) == before
    assert hand_rows(client.get(f"/matches/{match_id}")) == rows
    assert [row[1] for row in rows] == [["+10", "+10"], ["+30", "+30"], ["+40", "+40"]]


def test_a_remove_page_confirmed_after_the_hand_moved_removes_nothing(client, app):
    match_id = four_hands(client)
    stale = form_values(page(client.get(f"/matches/{match_id}/hands/3/remove")))
    other = form_values(page(client.get(f"/matches/{match_id}/hands/1/remove")))
    assert client.post(f"/matches/{match_id}/hands/1/remove", data=other).status_code == 303
    # Hand 3 is now the former hand 4: confirming the old page must not remove it.
    response = client.post(f"/matches/{match_id}/hands/3/remove", data=stale)
    board = client.get(response.headers["Location"])
    assert any(message.startswith("Not removed") for message in flashes(board))
    assert [row[1] for row in hand_rows(board)] == [["+20", "+20"], ["+30", "+30"], ["+40", "+40"]]


# --- Ask before the unlikely -------------------------------------------------------------


def test_a_hand_that_ends_the_game_is_asked_about_once_and_kept_as_typed(client, app):
    match_id = create_match(client, "classic-2p", PLAYERS2, options={"target": 500})
    data = hand_data(
        client,
        match_id,
        0,
        {"canasta_natural": 2, "meld_points": 100},
        {"meld_points": 40, "hand_points": 30},
    )
    asked = client.post(f"/matches/{match_id}/hands/new", data=data)
    assert asked.status_code == 200
    assert confirmation(asked) == ["This hand ends the game: Ann wins."]
    assert input_value(asked, "s0_meld_points") == "100"
    assert count(app, Hand) == 0
    saved = confirm(client, asked)
    assert saved.status_code == 303
    assert count(app, Hand) == 1
    assert "Ann wins" in text_of(client.get(f"/matches/{match_id}"))


def test_a_side_that_did_not_go_out_holding_nothing_is_asked_about(client, app):
    match_id = create_match(client, "classic-2p", PLAYERS2)
    data = hand_data(
        client, match_id, 0, {"canasta_natural": 2, "meld_points": 100}, {"meld_points": 40}
    )
    asked = client.post(f"/matches/{match_id}/hands/new", data=data)
    assert confirmation(asked) == ["Bob did not go out but has nothing left in hand"]
    assert count(app, Hand) == 0
    # Changing the entries asks again about the new ones (if still unlikely) or saves them.
    fixed = form_values(page(asked))
    fixed["s1_hand_points"] = "35"
    assert client.post(f"/matches/{match_id}/hands/new", data=fixed).status_code == 303
    # 1000 + 100 + 100 going out | 40 - 35
    assert hand_rows(client.get(f"/matches/{match_id}")) == [("1", ["+1,200", "+5"], [1200, 5])]


def test_a_side_left_empty_is_named_as_such_and_a_typed_zero_as_held_nothing(client, app):
    """The second side went out and the first was never filled in: the question says
    nothing was entered for it, not that it played down to nothing."""
    match_id = create_match(client, "classic")
    went_out = {"canasta_natural": 2, "meld_points": 300, "red_threes": 1}
    data = hand_data(client, match_id, 1, {}, went_out)
    asked = client.post(f"/matches/{match_id}/hands/new", data=data)
    assert asked.status_code == 200
    assert confirmation(asked) == [
        "Nothing entered for Ann & Cid: fill in their cards, or save to record nothing for them"
    ]
    assert count(app, Hand) == 0
    # An entry typed as 0 is an entry: the side did hold nothing, as the rules engine says.
    typed = hand_data(client, match_id, 1, {"hand_points": 0}, went_out)
    asked = client.post(f"/matches/{match_id}/hands/new", data=typed)
    assert confirmation(asked) == ["Ann & Cid did not go out but has nothing left in hand"]
    # Either question, confirmed, saves the hand once: 1000 + 300 + 100 going out + 100.
    assert confirm(client, asked).status_code == 303
    assert hand_rows(client.get(f"/matches/{match_id}")) == [("1", ["0", "+1,500"], [0, 1500])]


def test_a_confirmation_holds_for_the_entries_it_was_given_only(client, app):
    match_id = create_match(client, "classic-2p", PLAYERS2)
    data = hand_data(client, match_id, "none", {"meld_points": 50}, {"meld_points": 40})
    asked = client.post(f"/matches/{match_id}/hands/new", data=data)
    changed = form_values(page(asked))
    changed["s0_meld_points"] = "60"  # still nobody holds a card
    again = client.post(f"/matches/{match_id}/hands/new", data=changed)
    assert again.status_code == 200
    assert confirmation(again)
    assert count(app, Hand) == 0


def test_a_correction_that_ends_the_game_is_asked_about(client, app):
    match_id = create_match(client, "classic-2p", PLAYERS2, options={"target": 1000})
    record_ok(client, match_id, "none", *USUAL)
    data = edit_data(
        client, match_id, 1, 0, {"canasta_natural": 2, "meld_points": 100, "hand_points": 0}
    )
    asked = client.post(f"/matches/{match_id}/hands/1/edit", data=data)
    assert "This hand ends the game: Ann wins." in confirmation(asked)
    assert hand_rows(client.get(f"/matches/{match_id}")) == [("1", ["+50", "+20"], [50, 20])]
    assert confirm(client, asked).status_code == 303
    assert hand_rows(client.get(f"/matches/{match_id}"))[0][1] == ["+1,200", "+20"]


def test_a_meld_beyond_the_deck_is_refused_next_to_its_field(client, app):
    match_id = create_match(client, "classic")
    data = hand_data(
        client, match_id, 0, {"canasta_natural": 1, "meld_points": 4200}, {"hand_points": 85}
    )
    response = client.post(f"/matches/{match_id}/hands/new", data=data)
    assert response.status_code == 422
    errors = page(response).find_all("p", class_="error")
    assert any("1,180" in error.text() for error in errors)
    assert input_value(response, "s0_meld_points") == "4200"
    assert count(app, Hand) == 0


# --- 5. Text that cannot be stored -------------------------------------------------------


def test_a_stored_broken_character_still_renders_everywhere(client, app):
    match_id = create_match(client, "classic-2p", PLAYERS2)
    record_ok(client, match_id, "none", *USUAL)
    with app.app_context():
        hand_side = db.session.execute(text("SELECT id, record FROM hand_side LIMIT 1")).one()
        record = json.loads(hand_side.record)
        record["penalties"] = [{"points": 5, "reason": "late \ud800 play"}]
        raw = json.dumps(record)  # ensure_ascii: stored as the escape \\ud800
        db.session.execute(
            text("UPDATE hand_side SET record = :r WHERE id = :i"), {"r": raw, "i": hand_side.id}
        )
        db.session.commit()
    for url in (
        f"/matches/{match_id}",
        f"/matches/{match_id}/hands/1",
        f"/matches/{match_id}/hands/1/edit",
        f"/api/v1/matches/{match_id}",
    ):
        response = client.get(url)
        assert response.status_code == 200, url
    assert "late \ufffd play" in client.get(f"/matches/{match_id}/hands/1").get_data(as_text=True)


@pytest.mark.parametrize("query", ["player=%00", "variant=%00", "page=%00", "p%00=1"])
def test_a_nul_in_a_query_string_is_a_clear_400(client, query):
    response = client.get(f"/history?{query}")
    assert response.status_code == 400
    assert "cannot be stored" in text_of(response)


def test_a_nul_typed_in_a_name_is_dropped_not_stored(client, app):
    match_id = create_match(client, "classic-2p", ["Ann\x00", "Bob"])
    assert "Ann & Bob" not in text_of(client.get(f"/matches/{match_id}"))
    assert "Ann" in text_of(client.get(f"/matches/{match_id}"))
    with app.app_context():
        names = list(db.session.execute(text("SELECT name FROM player")).scalars())
    assert sorted(names) == ["Ann", "Bob"]


# --- 6. Names with a non-ASCII capital ----------------------------------------------------


def test_history_finds_every_match_of_a_player_whatever_the_case(client):
    for players in (["Élodie", "Bob"], ["ÉLODIE", "Cy"], ["Dan", "élodie"]):
        match_id = create_match(client, "classic-2p", players, options={"target": 500})
        record_ok(
            client,
            match_id,
            0,
            {"canasta_natural": 2, "meld_points": 100},
            {"meld_points": 40, "hand_points": 30},
        )
    for spelling in ("Élodie", "élodie", "ÉLODIE"):
        listing = text_of(client.get("/history", query_string={"player": spelling}))
        assert "3 matches with" in listing
    assert "1 match with" in text_of(client.get("/history", query_string={"player": "cy"}))


# --- 7 and 9. Host, cookies, URLs --------------------------------------------------------


@pytest.mark.parametrize("url", ["/", "/history", "/api/v1/variants", "/matches/new"])
def test_a_host_the_server_is_not_meant_to_answer_is_refused(client, url):
    response = client.get(url, headers={"Host": "attacker.example"})
    assert response.status_code == 400
    if url.startswith("/api/"):
        assert "attacker.example" in response.json["errors"][0]["message"]
    else:
        assert "SCOREKEEPER_HOSTS" in text_of(response)


def test_a_write_through_another_host_is_refused_and_saves_nothing(client, app):
    body = {"variant": "classic-2p", "sides": [{"players": ["A"]}, {"players": ["B"]}]}
    response = client.post("/api/v1/matches", json=body, headers={"Host": "rebound.example:8000"})
    assert response.status_code == 400
    assert counts(app)["match"] == 0


@pytest.mark.parametrize("host", ["localhost", "localhost:8000", "127.0.0.1:8000"])
def test_local_names_are_served(client, host):
    assert client.get("/rules", headers={"Host": host}).status_code == 200


def test_the_configured_public_name_is_served(monkeypatch, tmp_path):
    monkeypatch.setenv("SCOREKEEPER_HOSTS", "scores.example.org, .club.example")
    app = app_on_new_database(tmp_path / "hosts.sqlite")
    make_tester(app)
    client = app.test_client()
    assert client.get("/rules", headers={"Host": "scores.example.org"}).status_code == 200
    assert client.get("/rules", headers={"Host": "thursday.club.example"}).status_code == 200
    assert client.get("/rules", headers={"Host": "example.org"}).status_code == 400


def test_the_session_cookie_is_same_site_lax_and_http_only(client):
    response = client.get("/matches/new/classic")  # a form: the CSRF token needs a session
    cookie = response.headers["Set-Cookie"]
    assert "SameSite=Lax" in cookie
    assert "HttpOnly" in cookie


def test_an_over_long_url_is_414_json_under_the_api_and_a_page_elsewhere(client):
    long = "x" * 9000
    api = client.get(f"/api/v1/variants?options={long}")
    assert api.status_code == 414
    assert api.is_json
    assert api.json["errors"][0]["message"].startswith("The address is too long")
    pages = client.get(f"/history?player={long}")
    assert pages.status_code == 414
    assert "too long" in text_of(pages)
