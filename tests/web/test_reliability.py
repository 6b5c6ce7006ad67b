"""Reliability: Post/Redirect/Get, double submits, concurrent corrections, CSRF, junk URLs."""

from __future__ import annotations

import time

import pytest
from itsdangerous import TimestampSigner

from scorekeeper.models import AuditEntry, Hand, Match
from tests.support import add_user, sign_in

from .helpers import (
    PLAYERS2,
    audit_entries,
    classic_hands,
    confirmation,
    count,
    counts,
    create_match,
    csrf_token,
    edit_data,
    field_errors,
    flashes,
    form_values,
    hand_data,
    hand_rows,
    input_value,
    page,
    record_ok,
    submit_new_match,
    text_of,
    top_errors,
    totals,
)

# A usual hand when the stock ran out: both sides still hold cards (50 | 20).
USUAL = ({"meld_points": 55, "hand_points": 5}, {"meld_points": 25, "hand_points": 5})


# --- Post/Redirect/Get ---------------------------------------------------------------------


def test_writes_redirect_with_303_and_flash_once(client):
    response = submit_new_match(client, "classic-2p", PLAYERS2)
    assert response.status_code == 303
    match_id = int(response.headers["Location"].rsplit("/", 1)[1])
    data = hand_data(client, match_id, "none", *USUAL)
    response = client.post(f"/matches/{match_id}/hands/new", data=data)
    assert response.status_code == 303
    assert response.headers["Location"] == f"/matches/{match_id}"
    assert flashes(client.get(f"/matches/{match_id}")) == ["Hand 1 recorded."]
    # Reloading the scoreboard does not show the message again, nor resend anything.
    assert flashes(client.get(f"/matches/{match_id}")) == []
    assert count(client.application, Hand) == 1


# --- double submit -------------------------------------------------------------------------


def test_double_tapped_record_form_records_once(client, app):
    match_id = create_match(client, "classic")
    data = hand_data(client, match_id, "none", *USUAL)
    assert data["token"]
    first = client.post(f"/matches/{match_id}/hands/new", data=data)
    second = client.post(f"/matches/{match_id}/hands/new", data=data)
    assert first.status_code == 303
    assert second.status_code == 303
    assert second.headers["Location"] == f"/matches/{match_id}"
    board = client.get(f"/matches/{match_id}")
    assert flashes(board) == [
        "Hand 1 recorded.",
        "Hand 1 was already recorded; it was not added twice.",
    ]
    assert hand_rows(board) == [("1", ["+50", "+20"], [50, 20])]
    assert count(app, Hand) == 1
    assert count(app, AuditEntry) == 1


def test_the_token_tells_which_hand_a_form_was_recorded_as(client, anonymous_client):
    """What a phone whose answer was lost asks: did the server get this form?"""
    match_id = create_match(client, "classic")
    data = hand_data(client, match_id, "none", *USUAL)
    sent = f"/matches/{match_id}/hands/sent/{data['token']}"
    before = client.get(sent)
    assert before.get_json() == {"number": None}
    assert "no-store" in before.headers["Cache-Control"]
    client.post(f"/matches/{match_id}/hands/new", data=data)
    assert client.get(sent).get_json() == {"number": 1}
    assert client.get(f"/matches/{match_id}/hands/sent/another-token").get_json() == {
        "number": None
    }
    # Only for those who may record hands in the match.
    assert anonymous_client.get(sent).status_code in (302, 401)
    assert client.get(f"/matches/999999/hands/sent/{data['token']}").status_code == 404


def test_fixed_form_after_an_error_still_records_once(client, app):
    match_id = create_match(client, "classic")
    data = hand_data(client, match_id, "none", {**USUAL[0], "meld_points": 57}, USUAL[1])
    rejected = client.post(f"/matches/{match_id}/hands/new", data=data)
    assert rejected.status_code == 422
    # The page keeps the one-time token, so the fixed form is still the same submission.
    fixed = form_values(page(rejected))
    assert fixed["token"] == data["token"]
    fixed["s0_meld_points"] = "55"
    assert client.post(f"/matches/{match_id}/hands/new", data=fixed).status_code == 303
    assert client.post(f"/matches/{match_id}/hands/new", data=fixed).status_code == 303
    assert count(app, Hand) == 1
    assert totals(client.get(f"/matches/{match_id}")) == [50, 20]


def test_each_form_load_gets_a_new_token(client):
    match_id = create_match(client, "classic")
    first = input_value(client.get(f"/matches/{match_id}/hands/new"), "token")
    second = input_value(client.get(f"/matches/{match_id}/hands/new"), "token")
    assert first
    assert second
    assert first != second


def test_resent_form_after_its_hand_ended_the_game(client, app):
    match_id = create_match(client, "classic-2p", PLAYERS2, options={"target": 100})
    data = hand_data(client, match_id, "none", {"meld_points": 150}, {"meld_points": 20})
    asked = client.post(f"/matches/{match_id}/hands/new", data=data)
    assert confirmation(asked)  # it ends the game: the form asks first
    confirmed = form_values(page(asked))
    assert client.post(f"/matches/{match_id}/hands/new", data=confirmed).status_code == 303
    again = client.post(f"/matches/{match_id}/hands/new", data=confirmed)
    assert again.status_code == 303
    assert count(app, Hand) == 1
    assert totals(client.get(f"/matches/{match_id}")) == [150, 20]


def test_two_devices_recording_the_same_hand(client, app):
    match_id = create_match(client, "classic")
    phone = hand_data(client, match_id, "none", *USUAL)
    tablet = hand_data(client, match_id, "none", {**USUAL[0], "meld_points": 60}, USUAL[1])
    assert client.post(f"/matches/{match_id}/hands/new", data=phone).status_code == 303
    before = counts(app)
    response = client.post(f"/matches/{match_id}/hands/new", data=tablet)
    assert response.status_code == 409
    assert counts(app) == before
    assert top_errors(response) == [
        "Not saved: hand 1 was already recorded (from another device?). "
        "Check the scoreboard before recording hand 2."
    ]
    # The tablet's entries are still there to check.
    assert input_value(response, "s0_meld_points") == "60"
    assert totals(client.get(f"/matches/{match_id}")) == [50, 20]


# --- concurrent corrections ---------------------------------------------------------------


def test_second_correction_conflicts_and_overwrites_nothing(client, app):
    match_id = classic_hands(client, 1)
    phone = edit_data(client, match_id, 1, 0, {"meld_points": 600})
    tablet = edit_data(client, match_id, 1, 0, {"meld_points": 700})
    assert phone["version"] == tablet["version"] == "1"

    # Phone saves first: 1500 -> 1600.
    assert client.post(f"/matches/{match_id}/hands/1/edit", data=phone).status_code == 303
    before = counts(app)
    response = client.post(f"/matches/{match_id}/hands/1/edit", data=tablet)
    assert response.status_code in (409, 422)
    assert counts(app) == before
    [message] = top_errors(response)
    assert "was changed from another device since you opened it" in message
    assert message.endswith("Nothing was overwritten.")
    assert "Saved from the other device: Ann & Cid 1,600, Bob & Dee -70." in text_of(response)
    # The tablet's entry is kept; the phone's stays saved.
    assert input_value(response, "s0_meld_points") == "700"
    assert totals(client.get(f"/matches/{match_id}")) == [1600, -70]

    # Saving again from the conflict page (now at the current version) replaces it: 1700.
    again = form_values(page(response))
    assert again["version"] == "2"
    assert client.post(f"/matches/{match_id}/hands/1/edit", data=again).status_code == 303
    assert totals(client.get(f"/matches/{match_id}")) == [1700, -70]
    corrections = [e for e in audit_entries(client.get(f"/matches/{match_id}")) if "corrected" in e]
    assert len(corrections) == 2


def test_correction_of_a_hand_that_moved_up_conflicts(client, app):
    match_id = classic_hands(client, 1)
    record_ok(client, match_id, "none", *USUAL)
    record_ok(client, match_id, "none", {"meld_points": 30}, {"meld_points": 10})
    # The tablet opens hand 2 (+50 / +20) while the phone removes it.
    tablet = edit_data(client, match_id, 2, "none", {"meld_points": 55})
    confirm = client.get(f"/matches/{match_id}/hands/2/remove")
    removal = client.post(f"/matches/{match_id}/hands/2/remove", data=form_values(page(confirm)))
    assert removal.status_code == 303
    # Hand 2 is now the old hand 3 (+30 / +10): the tablet must not overwrite it.
    before = counts(app)
    response = client.post(f"/matches/{match_id}/hands/2/edit", data=tablet)
    assert response.status_code in (404, 409, 422)
    assert counts(app) == before
    assert hand_rows(client.get(f"/matches/{match_id}"))[1] == ("2", ["+30", "+10"], [1530, -60])


# --- every write is one transaction ----------------------------------------------------------


def test_removal_that_would_end_the_game_early_is_refused_whole(client, app):
    match_id = create_match(client, "classic-2p", PLAYERS2, options={"target": 1000})
    record_ok(client, match_id, "none", {"meld_points": 900}, {"meld_points": 0})  # 900
    record_ok(client, match_id, "none", {"hand_points": 500}, {"meld_points": 0})  # 400
    record_ok(client, match_id, "none", {"meld_points": 500}, {"meld_points": 0})  # 900
    record_ok(client, match_id, "none", {"meld_points": 50}, {"meld_points": 0})  # 950
    before = counts(app)
    # Without hand 2 Ann would have 900 + 500 = 1400 after the (new) hand 2,
    # ending the game before the last hand.
    confirm = client.get(f"/matches/{match_id}/hands/2/remove")
    response = client.post(f"/matches/{match_id}/hands/2/remove", data=form_values(page(confirm)))
    assert response.status_code == 303
    board = client.get(f"/matches/{match_id}")
    assert flashes(board) == [
        "With this change the game is over after hand 2, but 1 later hand was played. "
        "Remove the later hands first if that is right."
    ]
    assert counts(app) == before
    assert [row[2][0] for row in hand_rows(board)] == [900, 400, 900, 950]


# --- CSRF ---------------------------------------------------------------------------------


def test_new_match_without_csrf_token_is_refused(client, app):
    form_page = client.get("/matches/new/classic-2p")
    assert csrf_token(form_page.get_data(as_text=True))
    data = form_values(page(form_page))
    data.update({"seat_0": "Ann", "seat_1": "Bob"})
    del data["csrf_token"]
    response = client.post("/matches/new/classic-2p?layout=2x1", data=data)
    assert 400 <= response.status_code < 500
    assert count(app, Match) == 0
    assert response.content_type.startswith("text/html")


def test_record_without_or_with_a_wrong_csrf_token_is_refused(client, app):
    match_id = create_match(client, "classic")
    before = counts(app)
    data = hand_data(client, match_id, "none", *USUAL)
    for token in (None, "", "forged", "x.y.z"):
        sent = dict(data)
        if token is None:
            del sent["csrf_token"]
        else:
            sent["csrf_token"] = token
        response = client.post(f"/matches/{match_id}/hands/new", data=sent)
        assert 400 <= response.status_code < 500
        assert counts(app) == before


def test_correct_and_remove_without_csrf_token_are_refused(client, app):
    match_id = classic_hands(client, 1)
    before = counts(app)
    data = edit_data(client, match_id, 1, 0, {"meld_points": 600})
    del data["csrf_token"]
    response = client.post(f"/matches/{match_id}/hands/1/edit", data=data)
    assert 400 <= response.status_code < 500
    response = client.post(f"/matches/{match_id}/hands/1/remove", data={"hand_id": "1"})
    assert 400 <= response.status_code < 500
    assert counts(app) == before
    assert totals(client.get(f"/matches/{match_id}")) == [1500, -70]


def test_a_post_from_another_session_is_refused(app, client):
    match_id = create_match(client, "classic")
    data = hand_data(client, match_id, "none", *USUAL)
    # A browser that is not signed in is sent to sign in; nothing is saved.
    response = app.test_client().post(f"/matches/{match_id}/hands/new", data=data)
    assert response.status_code == 302
    assert response.headers["Location"].startswith("/login?next=")
    # A signed-in member of another group is refused the page's form (its token is not hers).
    add_user(app, "Ola")
    response = sign_in(app.test_client(), "Ola").post(f"/matches/{match_id}/hands/new", data=data)
    assert response.status_code == 404
    assert count(app, Hand) == 0


def test_expired_form_keeps_the_entries(client, app, monkeypatch):
    """A form left open past the CSRF time limit is answered with the form again,
    the entries kept, as the record view intends; nothing is saved."""
    match_id = create_match(client, "classic")
    data = hand_data(client, match_id, "none", *USUAL)
    # An hour past the time limit.
    later = int(time.time()) + app.config["WTF_CSRF_TIME_LIMIT"] + 3600
    monkeypatch.setattr(TimestampSigner, "get_timestamp", lambda self: later)
    response = client.post(f"/matches/{match_id}/hands/new", data=data)
    assert count(app, Hand) == 0
    assert 400 <= response.status_code < 500
    assert "This form had expired. Your entries are kept: please send it again." in text_of(
        response
    )
    assert input_value(response, "s0_meld_points") == "55"


def test_the_api_needs_no_csrf_token(client, app):
    response = client.post(
        "/api/v1/matches",
        json={"variant": "classic-2p", "sides": [{"players": ["Ann"]}, {"players": ["Bob"]}]},
    )
    assert response.status_code == 201
    assert count(app, Match) == 1


# --- junk URLs and bodies -----------------------------------------------------------------


@pytest.mark.parametrize(
    "url",
    [
        "/matches/999",
        "/matches/abc",
        "/matches/-1",
        "/matches/0",
        "/matches/1.5",
        "/matches/1/hands/99",
        "/matches/1/hands/0",
        "/matches/1/hands/abc",
        "/matches/1/hands/99/edit",
        "/matches/1/hands/abc/edit",
        "/matches/999/hands/new",
        "/matches/999/hands/1",
        "/matches/999/hands/1/edit",
        "/matches/999/hands/1/remove",
        "/matches/999/rules",
        "/matches/1/hands/99999999999999999999999",
        "/nowhere",
    ],
)
def test_junk_urls_are_404_pages(client, url):
    classic_hands(client, 1)
    response = client.get(url)
    assert response.status_code == 404
    assert response.content_type.startswith("text/html")
    root = page(response)
    assert root.find("h1").text() == "Not found"
    assert any(a.attrs.get("href") == "/" for a in root.find_all("a"))


@pytest.mark.parametrize(
    "url",
    [
        "/matches/99999999999999999999999",
        "/matches/99999999999999999999999/rules",
        "/matches/99999999999999999999999/hands/new",
        "/matches/99999999999999999999999/hands/1",
    ],
)
def test_huge_match_numbers_are_404_not_500(client, url):
    response = client.get(url)
    assert response.status_code == 404


def test_missing_match_message(client):
    response = client.get("/matches/999")
    assert "There is no match 999. The address may be mistyped." in text_of(response)


def test_posts_to_missing_things_are_404(client, app):
    match_id = classic_hands(client, 1)
    token = csrf_token(client.get(f"/matches/{match_id}/hands/new").get_data(as_text=True))
    for url in (f"/matches/{match_id + 1}/hands/new", f"/matches/{match_id}/hands/7/edit"):
        response = client.post(url, data={"csrf_token": token, "out": "none"})
        assert response.status_code == 404, url
    assert count(app, Hand) == 1


def test_wrong_method_is_a_405_page(client):
    match_id = classic_hands(client, 1)
    response = client.post(f"/matches/{match_id}")
    assert response.status_code == 405
    assert response.content_type.startswith("text/html")


def test_oversized_body_is_refused_cleanly(client, app):
    match_id = create_match(client, "classic")
    data = hand_data(client, match_id, "none", {"free_reason": "x" * 300_000}, {})
    response = client.post(f"/matches/{match_id}/hands/new", data=data)
    assert response.status_code == 413
    assert count(app, Hand) == 0


@pytest.mark.parametrize(
    ("field", "value"),
    [
        ("expected_number", "abc"),
        ("expected_number", "-1"),
        ("expected_number", "99999999999999999999999"),
        ("expected_number", ""),
        ("version", "x"),
        ("token", ""),
        ("token", "t" * 64),
    ],
)
def test_tampered_hidden_fields_never_give_500(client, app, field, value):
    match_id = create_match(client, "classic")
    data = hand_data(client, match_id, "none", *USUAL)
    data[field] = value
    response = client.post(f"/matches/{match_id}/hands/new", data=data)
    assert response.status_code in (303, 409, 422)
    if response.status_code == 303:
        assert count(app, Hand) == 1
    else:
        assert count(app, Hand) == 0


@pytest.mark.parametrize("version", ["0", "2", "99999999999999999999999"])
def test_wrong_version_on_correction_conflicts(client, app, version):
    match_id = classic_hands(client, 1)
    before = counts(app)
    data = edit_data(client, match_id, 1, 0, {"meld_points": 600})
    data["version"] = version
    response = client.post(f"/matches/{match_id}/hands/1/edit", data=data)
    assert response.status_code in (409, 422)
    assert "Nothing was overwritten." in top_errors(response)[0]
    assert counts(app) == before
    assert totals(client.get(f"/matches/{match_id}")) == [1500, -70]


def test_out_for_a_side_that_does_not_exist(client, app):
    match_id = create_match(client, "classic")
    before = counts(app)
    data = hand_data(client, match_id, "5", *USUAL)
    response = client.post(f"/matches/{match_id}/hands/new", data=data)
    assert response.status_code == 422
    assert counts(app) == before
    assert field_errors(response, "out")


def test_a_token_is_one_time_per_match_not_across_matches(client, app):
    """The same token in another match's form records there too (tokens are per match)."""
    first = create_match(client, "classic")
    second = create_match(client, "classic", ["Eve", "Fay", "Gus", "Hal"])
    data = hand_data(client, first, "none", *USUAL)
    assert client.post(f"/matches/{first}/hands/new", data=data).status_code == 303
    other = hand_data(client, second, "none", *USUAL)
    other["token"] = data["token"]
    assert client.post(f"/matches/{second}/hands/new", data=other).status_code == 303
    assert hand_rows(client.get(f"/matches/{second}")) == [("1", ["+50", "+20"], [50, 20])]
    assert count(app, Hand) == 2


def test_a_hand_number_ahead_of_the_match_is_not_called_recorded(client, app):
    match_id = create_match(client, "classic")
    data = hand_data(client, match_id, "none", *USUAL)
    data["expected_number"] = "7"
    response = client.post(f"/matches/{match_id}/hands/new", data=data)
    assert response.status_code == 409
    assert top_errors(response) == ["Not saved: the next hand of this match is hand 1, not 7."]
    assert count(app, Hand) == 0


def test_a_database_busy_for_too_long_asks_to_save_again(client, app, monkeypatch):
    """A lock held past the busy timeout: 503, the entries kept, asked to save again."""
    from sqlalchemy.exc import OperationalError

    from scorekeeper.extensions import db

    match_id = create_match(client, "classic")
    data = hand_data(client, match_id, "none", *USUAL)

    def locked(*args, **kwargs):
        raise OperationalError("INSERT", {}, Exception("database is locked"))

    # The commit of the write fails; the loading of the page still works.
    monkeypatch.setattr(db.session, "commit", locked)
    response = client.post(f"/matches/{match_id}/hands/new", data=data)
    monkeypatch.undo()
    assert response.status_code == 503
    assert top_errors(response) == [
        "The server was busy saving something else and could not save this. "
        "Nothing was saved: please try again. Your entries are kept below."
    ]
    assert input_value(response, "s0_meld_points") == "55"
    assert count(app, Hand) == 0
    # Saving again works.
    assert client.post(f"/matches/{match_id}/hands/new", data=data).status_code == 303
    assert count(app, Hand) == 1
