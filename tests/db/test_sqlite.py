"""SQLite connections enforce foreign keys and use WAL (models.py sets the pragmas)."""

from __future__ import annotations

import pytest
from sqlalchemy import select, text
from sqlalchemy.exc import IntegrityError

from scorekeeper.extensions import db
from scorekeeper.models import Hand, HandSide, Player, Side, SideMember

TEAMS = [{"players": ["Ann", "Bob"]}, {"players": ["Cy", "Di"]}]


def start_match(client) -> int:
    created = client.post("/api/v1/matches", json={"variant": "classic", "sides": TEAMS})
    assert created.status_code == 201
    match_id = created.json["id"]
    hand = [{"went_out": True, "canastas": {"natural": 1}, "meld_points": 100}, {}]
    assert client.post(f"/api/v1/matches/{match_id}/hands", json={"sides": hand}).status_code == 201
    return match_id


def pragma(name: str):
    return db.session.execute(text(f"PRAGMA {name}")).scalar()


def test_every_connection_enforces_foreign_keys(app):
    with app.app_context():
        assert pragma("foreign_keys") == 1
        with db.engine.connect() as first, db.engine.connect() as second:
            assert first.execute(text("PRAGMA foreign_keys")).scalar() == 1
            assert second.execute(text("PRAGMA foreign_keys")).scalar() == 1


def test_inserting_a_row_with_a_dangling_foreign_key_fails(app):
    with app.app_context():
        db.session.add(Side(match_id=4242, seat=0, name="Nobody's side"))
        with pytest.raises(IntegrityError):
            db.session.flush()
        db.session.rollback()
        with pytest.raises(IntegrityError), db.engine.begin() as connection:
            connection.execute(
                text(
                    "INSERT INTO hand_side (hand_id, seat, record, total, lines) "
                    "VALUES (4242, 0, '{}', 0, '[]')"
                )
            )


def test_deleting_a_referenced_row_fails(app, client):
    start_match(client)
    with app.app_context():
        player_id = db.session.execute(select(Player.id).where(Player.name == "Ann")).scalar_one()
        with pytest.raises(IntegrityError), db.engine.begin() as connection:
            connection.execute(text("DELETE FROM player WHERE id = :id"), {"id": player_id})
        assert db.session.get(Player, player_id) is not None


def test_deleting_a_match_cascades_in_the_database(app, client):
    match_id = start_match(client)
    with app.app_context():
        with db.engine.begin() as connection:
            connection.execute(text("DELETE FROM match WHERE id = :id"), {"id": match_id})
        for model in (Side, SideMember, Hand, HandSide):
            assert db.session.query(model).count() == 0, model.__name__
        assert db.session.query(Player).count() == 4  # players outlive their matches


def test_a_file_database_uses_wal(app):
    with app.app_context():
        assert pragma("journal_mode") == "wal"
        with db.engine.connect() as connection:
            assert connection.execute(text("PRAGMA journal_mode")).scalar() == "wal"
            assert connection.execute(text("PRAGMA busy_timeout")).scalar() == 5000
