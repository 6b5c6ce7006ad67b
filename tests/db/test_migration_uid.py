"""The match uid migration on a database holding matches, SQLite and PostgreSQL.

The matches are played through the API at the head, the database is taken back to the
revision before the uid (which drops it) and upgraded again: every match gets its own
uid, and every row and every match state is kept, both ways.
"""

from __future__ import annotations

import re

import flask_migrate
from sqlalchemy import inspect, text

from scorekeeper.extensions import db
from tests.support import signed_in

from .conftest import make_app
from .test_migration_data import play_some_hands, row_counts

BEFORE_UID = "8d4b2f7c1e95"


def uids(app) -> list[str]:
    with app.app_context(), db.engine.connect() as connection:
        return list(connection.execute(text("SELECT uid FROM match ORDER BY id")).scalars())


def match_columns(app) -> set[str]:
    with app.app_context(), db.engine.connect() as connection:
        return {column["name"] for column in inspect(connection).get_columns("match")}


def check_uid_migration(app) -> None:
    with app.app_context():
        flask_migrate.upgrade()
    client = signed_in(app)
    play_some_hands(client)
    states = [client.get(f"/api/v1/matches/{i}").json for i in (1, 2)]
    before = row_counts(app)
    assert all(before.values()), before
    old_uids = uids(app)

    with app.app_context():
        flask_migrate.downgrade(revision=BEFORE_UID)
    assert "uid" not in match_columns(app)
    assert row_counts(app) == before
    with app.app_context():
        flask_migrate.upgrade()

    assert row_counts(app) == before
    new_uids = uids(app)
    assert len(new_uids) == 2
    assert len(set(new_uids)) == 2
    assert all(re.fullmatch(r"[0-9a-f]{32}", uid) for uid in new_uids), new_uids
    assert set(new_uids).isdisjoint(old_uids)  # made afresh, at random
    client = signed_in(app)
    assert [client.get(f"/api/v1/matches/{i}").json for i in (1, 2)] == states
    # A match started after the upgrade gets a uid of its own too.
    teams = [{"players": ["Ann", "Bob"]}, {"players": ["Cy", "Di"]}]
    created = client.post("/api/v1/matches", json={"variant": "classic", "sides": teams})
    assert created.status_code == 201, created.json
    third = uids(app)
    assert len(set(third)) == 3
    assert third[:2] == new_uids


def test_the_uid_migration_keeps_the_data_on_sqlite(tmp_path):
    app = make_app(f"sqlite:///{tmp_path / 'uid.sqlite'}")
    check_uid_migration(app)
    with app.app_context(), db.engine.connect() as connection:
        assert connection.execute(text("PRAGMA foreign_key_check")).fetchall() == []
    with app.app_context():
        db.engine.dispose()


def test_the_uid_migration_keeps_the_data_on_postgresql(empty_postgres_app):
    check_uid_migration(empty_postgres_app)
    with empty_postgres_app.app_context(), db.engine.connect() as connection:
        assert connection.execute(text("SELECT count(*) FROM match")).scalar_one() == 3
