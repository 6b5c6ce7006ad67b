"""A database that cannot take a write answers 503 "cannot save right now", keeps the
scorer's entries on the page, logs the cause, and loses no acknowledged hand.

Real failures, not mocks: a SQLite file opened read-only, a SQLite database whose size
is capped (what a full disk does to it), a PostgreSQL session that is read-only.
"""

from __future__ import annotations

import logging
import sqlite3

import flask_migrate
from flask.testing import FlaskClient
from sqlalchemy import event, text
from sqlalchemy.engine import make_url

from scorekeeper import database
from scorekeeper.extensions import db
from tests.support import signed_in
from tests.web.helpers import (
    form_values,
    hand_data,
    input_value,
    page,
    submit_new_match,
    top_errors,
)

from .conftest import make_app

TEAMS = [{"players": ["Ann", "Bob"]}, {"players": ["Cy", "Di"]}]
USUAL = ({"meld_points": 105, "hand_points": 5}, {"meld_points": 55, "hand_points": 5})
API_USUAL = [{"meld_points": 105, "hand_points": 5}, {"meld_points": 55, "hand_points": 5}]
CANNOT_SAVE = "The server cannot save right now"


def migrated(url: str):
    app = make_app(url)
    with app.app_context():
        flask_migrate.upgrade()
    return app


def a_match_with_a_hand(app) -> int:
    client = signed_in(app)
    match_id = client.post("/api/v1/matches", json={"variant": "classic", "sides": TEAMS})
    match_id = match_id.json["id"]
    response = client.post(f"/api/v1/matches/{match_id}/hands", json={"sides": API_USUAL})
    assert response.status_code == 201
    return match_id


def hands_of(client, match_id: int) -> list[list[int]]:
    state = client.get(f"/api/v1/matches/{match_id}").json
    return [[side["total"] for side in hand["sides"]] for hand in state["hands"]]


def phone_of(app, signed: FlaskClient) -> FlaskClient:
    """A phone of `app` with the cookies of one signed in before (signing in is a write:
    on a database that cannot write, a phone already signed in goes on reading)."""
    phone = app.test_client()
    for name in ("session", "remember_token"):
        cookie = signed.get_cookie(name)
        if cookie is not None:
            phone.set_cookie(name, cookie.value)
    return phone


def check_refuses_writes(client, match_id: int, caplog, *, read_only: bool = True) -> None:
    """Every kind of write answers 503 with the entries kept; nothing changes.

    On a full disk a removal may still go through (it frees room): checked read-only only.
    """
    before = hands_of(client, match_id)
    root = logging.getLogger()
    if caplog.handler not in root.handlers:  # alembic's logging setup replaced it
        root.addHandler(caplog.handler)
    caplog.clear()
    with caplog.at_level(logging.ERROR):
        posted = client.post(f"/api/v1/matches/{match_id}/hands", json={"sides": API_USUAL})
    assert posted.status_code == 503
    assert CANNOT_SAVE in posted.json["errors"][0]["message"]
    assert any("refused a write" in record.getMessage() for record in caplog.records)
    created = client.post("/api/v1/matches", json={"variant": "classic", "sides": TEAMS})
    assert created.status_code == 503
    assert created.is_json
    if read_only:
        removed = client.delete(f"/api/v1/matches/{match_id}/hands/1")
        assert removed.status_code == 503

    # The hand form comes back with what was typed and says why.
    data = hand_data(client, match_id, "none", {**USUAL[0], "meld_points": 205}, USUAL[1])
    form = client.post(f"/matches/{match_id}/hands/new", data=data)
    assert form.status_code == 503
    assert input_value(form, "s0_meld_points") == "205"
    assert CANNOT_SAVE in top_errors(form)[0]
    assert "Your entries are kept below." in top_errors(form)[0]

    # So does the new-match form.
    new = submit_new_match(client, "classic", ("Eve", "Fay", "Gus", "Hal"))
    assert new.status_code == 503
    assert input_value(new, "seat_0") == "Eve"

    if read_only:  # and the removal page
        confirm = client.get(f"/matches/{match_id}/hands/1/remove")
        data = form_values(page(confirm))
        removal = client.post(f"/matches/{match_id}/hands/1/remove", data=data)
        assert removal.status_code == 503
        assert CANNOT_SAVE in removal.get_data(as_text=True)

    assert hands_of(client, match_id) == before


def test_a_read_only_sqlite_file_answers_503_and_keeps_what_was_typed(tmp_path, caplog):
    path = tmp_path / "scores.sqlite"
    writable = migrated(f"sqlite:///{path}")
    match_id = a_match_with_a_hand(writable)
    signed = signed_in(writable)
    with writable.app_context():
        db.engine.dispose()
    read_only = make_app(f"sqlite:///file:{path}?mode=ro&uri=true")
    phone = phone_of(read_only, signed)
    assert hands_of(phone, match_id) == [[100, 50]]  # reading still works
    check_refuses_writes(phone, match_id, caplog)
    with read_only.app_context():
        db.engine.dispose()


def test_a_full_disk_answers_503_and_every_acknowledged_hand_is_kept(tmp_path, caplog):
    path = tmp_path / "scores.sqlite"
    app = migrated(f"sqlite:///{path}")
    match_id = a_match_with_a_hand(app)
    with app.app_context():
        pages = db.session.execute(text("PRAGMA page_count")).scalar_one()
        db.session.remove()

        @event.listens_for(db.engine, "connect")
        def cap(dbapi_connection, _record):  # the file may not grow any more
            dbapi_connection.execute(f"PRAGMA max_page_count={pages}")

        db.engine.dispose()
    client = signed_in(app)
    acknowledged = [[100, 50]]
    for _ in range(200):
        response = client.post(f"/api/v1/matches/{match_id}/hands", json={"sides": API_USUAL})
        if response.status_code != 201:
            break
        acknowledged.append([100, 50])
    assert response.status_code == 503, response.get_data(as_text=True)
    assert len(acknowledged) > 1  # some hands fitted in the free pages
    assert hands_of(client, match_id) == acknowledged
    check_refuses_writes(client, match_id, caplog, read_only=False)
    with app.app_context():
        db.engine.dispose()
    # Once there is room again, everything acknowledged is there and saving works.
    roomy = make_app(f"sqlite:///{path}")
    assert hands_of(phone_of(roomy, client), match_id) == acknowledged
    assert (
        signed_in(roomy)
        .post(f"/api/v1/matches/{match_id}/hands", json={"sides": API_USUAL})
        .status_code
        == 201
    )
    with roomy.app_context():
        db.engine.dispose()


def test_a_write_lock_held_past_the_busy_timeout_answers_503_and_saves_nothing(
    tmp_path, monkeypatch
):
    """Another program holds SQLite's write lock (not the app's writers' lock file, so the
    app's turn comes at once and its BEGIN IMMEDIATE meets the lock) for longer than the
    app waits: 503, nothing saved; once the lock is let go, the same post is saved once."""
    path = tmp_path / "scores.sqlite"
    monkeypatch.setattr(database, "BUSY_TIMEOUT_MS", 100)
    app = migrated(f"sqlite:///{path}")
    match_id = a_match_with_a_hand(app)
    client = signed_in(app)
    holder = sqlite3.connect(path, isolation_level=None)
    holder.execute("BEGIN IMMEDIATE")
    try:
        response = client.post(f"/api/v1/matches/{match_id}/hands", json={"sides": API_USUAL})
        assert response.status_code == 503, response.get_data(as_text=True)
        assert "try again" in response.json["errors"][0]["message"]
        assert hands_of(client, match_id) == [[100, 50]]  # reading goes on meanwhile
    finally:
        holder.rollback()
        holder.close()
    response = client.post(f"/api/v1/matches/{match_id}/hands", json={"sides": API_USUAL})
    assert response.status_code == 201
    assert hands_of(client, match_id) == [[100, 50], [100, 50]]
    with app.app_context():
        db.engine.dispose()


def test_a_read_only_postgresql_answers_503_and_keeps_what_was_typed(postgres_schema_url, caplog):
    writable = migrated(postgres_schema_url)
    match_id = a_match_with_a_hand(writable)
    signed = signed_in(writable)
    with writable.app_context():
        db.engine.dispose()
    url = make_url(postgres_schema_url)
    options = url.query["options"] + " -cdefault_transaction_read_only=on"
    read_only = make_app(url.update_query_dict({"options": options}).render_as_string(False))
    phone = phone_of(read_only, signed)
    assert hands_of(phone, match_id) == [[100, 50]]
    check_refuses_writes(phone, match_id, caplog)
    with read_only.app_context():
        db.engine.dispose()
