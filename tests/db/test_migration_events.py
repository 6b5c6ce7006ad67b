"""The club events migration on a database holding matches, SQLite and PostgreSQL.

Matches and an event with its table matches are played at the head; the database is
taken back to the revision before (the event tables go, every match stays: a table
match is then a plain match) and upgraded again (the event tables come back empty,
every other row kept); an event is then made and played as on a new server.
"""

from __future__ import annotations

import flask_migrate
import pytest
from sqlalchemy import inspect, text

from scorekeeper.extensions import db
from tests.support import signed_in

from .conftest import make_app
from .test_migration_data import play_some_hands, row_counts

BEFORE = "e7a4c2f9b318"
EVENT_TABLES = {"event", "entry", "entry_member", "event_round", "event_table"}
EVENT_TABLES |= {"event_penalty", "event_link"}


def tables(app) -> set[str]:
    with app.app_context(), db.engine.connect() as connection:
        return set(inspect(connection).get_table_names())


def play_an_event(client) -> dict:
    """Four pairs, round 1 started (two table matches), one table played to its end."""
    entries = [{"players": [f"E{n}a", f"E{n}b"]} for n in range(1, 5)]
    body = {"name": "Cup", "variant": "classic", "rounds": 2, "deals_per_round": 1}
    state = client.post("/api/v1/events", json={**body, "entries": entries}).get_json()
    state = client.post(f"/api/v1/events/{state['id']}/rounds").get_json()
    table = state["rounds_played"][0]["tables"][0]
    sides = {"sides": [{"meld_points": 300}, {"meld_points": 100}]}
    assert client.post(f"/api/v1/matches/{table['match']}/hands", json=sides).status_code == 201
    return client.get(f"/api/v1/events/{state['id']}").get_json()


def check_events_migration(app) -> None:
    with app.app_context():
        flask_migrate.upgrade()
    client = signed_in(app)
    play_some_hands(client)
    event = play_an_event(client)
    assert event["standings"][0]["vp"] == 12  # 300-100, a difference of 200: 12-8
    table_match = event["rounds_played"][0]["tables"][0]["match"]
    before = row_counts(app)
    assert all(before.values()), before
    with app.app_context():
        flask_migrate.downgrade(revision=BEFORE)
    assert not EVENT_TABLES & tables(app)
    assert row_counts(app) == before
    with app.app_context():
        flask_migrate.upgrade()
    assert tables(app) >= EVENT_TABLES
    assert row_counts(app) == before
    # A server restarted after the migration (what it keeps in memory starts afresh).
    app = make_app(app.config["SQLALCHEMY_DATABASE_URI"])
    client = signed_in(app)
    # The table match is kept as a plain match, with its hand and result.
    kept = client.get(f"/api/v1/matches/{table_match}").get_json()
    assert kept["status"] == "finished"
    assert [side["total"] for side in kept["sides"]] == [300, 100]
    assert "event" not in kept or kept["event"] is None
    assert client.get("/api/v1/events").get_json()["events"] == []
    again = play_an_event(client)
    assert again["standings"][0]["vp"] == 12
    with app.app_context():
        db.engine.dispose()


def test_the_events_migration_keeps_every_match_on_sqlite(tmp_path):
    app = make_app(f"sqlite:///{tmp_path / 'events.sqlite'}")
    check_events_migration(app)
    with app.app_context(), db.engine.connect() as connection:
        assert connection.execute(text("PRAGMA foreign_key_check")).fetchall() == []
    with app.app_context():
        db.engine.dispose()


@pytest.mark.xdist_group("postgres")
def test_the_events_migration_keeps_every_match_on_postgresql(empty_postgres_app):
    check_events_migration(empty_postgres_app)
