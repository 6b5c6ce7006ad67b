"""This round's migrations on a database holding matches, SQLite and PostgreSQL: the new
indexes, and each group's history count worked out from the matches already there.

Matches are played through the API at the head, the database is taken back to the
revision before (which drops the count and the indexes) and upgraded again.
"""

from __future__ import annotations

import flask_migrate
from sqlalchemy import inspect, text

from scorekeeper.extensions import db
from tests.support import signed_in

from .conftest import make_app
from .test_migration_data import play_some_hands, row_counts

BEFORE = "b3a7d41c9e25"
TEAMS = [{"players": ["Ann"]}, {"players": ["Cy"]}]
OUT = [{"went_out": True, "canastas": {"natural": 2}, "meld_points": 300}, {"hand_points": 30}]


def history_counts(app) -> list[tuple[int, int]]:
    with app.app_context(), db.engine.connect() as connection:
        rows = connection.execute(text('SELECT id, history_matches FROM "group" ORDER BY id'))
        return [tuple(row) for row in rows]


def player_counts(app) -> dict[str, int]:
    with app.app_context(), db.engine.connect() as connection:
        return dict(connection.execute(text("SELECT name, history_matches FROM player")).all())


def check_history_count_migration(app) -> None:
    with app.app_context():
        flask_migrate.upgrade()
    client = signed_in(app)
    play_some_hands(client)  # two matches still being played
    for _ in range(3):
        body = {"variant": "classic-2p", "sides": TEAMS, "options": {"target": 200}}
        match_id = client.post("/api/v1/matches", json=body).json["id"]
        ended = client.post(f"/api/v1/matches/{match_id}/hands", json={"sides": OUT})
        assert ended.status_code == 201, ended.json
    before = row_counts(app)
    assert history_counts(app) == [(1, 3)]
    assert player_counts(app) == {"Ann": 3, "Bob": 0, "Cy": 3, "Di": 0}

    with app.app_context():
        flask_migrate.downgrade(revision=BEFORE)
        columns = {c["name"] for c in inspect(db.engine).get_columns("group")}
        columns |= {c["name"] for c in inspect(db.engine).get_columns("player")}
    assert "history_matches" not in columns
    with app.app_context():
        flask_migrate.upgrade()

    assert row_counts(app) == before
    assert history_counts(app) == [(1, 3)]
    assert player_counts(app) == {"Ann": 3, "Bob": 0, "Cy": 3, "Di": 0}
    client = signed_in(app)
    assert "3 matches." in client.get("/history").text
    assert "3 matches with Cy." in client.get("/history?player=Cy").text
    with app.app_context(), db.engine.connect() as connection:
        indexes = {i["name"]: i["column_names"] for i in inspect(connection).get_indexes("match")}
        seated = {i["name"] for i in inspect(connection).get_indexes("side_member")}
    assert indexes["ix_match_group_id_finished_at"] == [
        "group_id",
        "finished_at",
        "id",
        "status",
        "variant",
    ]
    assert "ix_side_member_side_id_player_id" in seated


def test_the_history_count_migration_keeps_the_data_on_sqlite(tmp_path):
    app = make_app(f"sqlite:///{tmp_path / 'count.sqlite'}")
    check_history_count_migration(app)
    with app.app_context():
        db.engine.dispose()


def test_the_history_count_migration_keeps_the_data_on_postgresql(empty_postgres_app):
    check_history_count_migration(empty_postgres_app)
