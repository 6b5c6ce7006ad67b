"""Migrations keep the data: on a database holding matches, hands and the audit trail.

- A migration that rebuilds a table on SQLite (copy, drop, rename: what any column
  change there does) must not cascade the drop to the child rows.
- This round's migration, applied to a database written by the previous schema,
  keeps every row, on SQLite and PostgreSQL.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import flask_migrate
from sqlalchemy import text

from scorekeeper.extensions import db
from scorekeeper.rules import resolve, rules_to_json
from tests.support import signed_in

from .conftest import make_app

MIGRATIONS = Path(__file__).resolve().parents[2] / "migrations"
FIRST = "13fde996e707"
TABLES = ("player", "match", "side", "side_member", "hand", "hand_side", "audit_entry")

REBUILD_MATCH = '''"""Synthetic: rebuild the match table, as any column change on SQLite does."""
import sqlalchemy as sa
from alembic import op

revision = "ffff0000aaaa"
down_revision = "{head}"
branch_labels = None
depends_on = None


def upgrade():
    with op.batch_alter_table("match", recreate="always") as batch_op:
        batch_op.add_column(sa.Column("note", sa.String(length=20), nullable=True))


def downgrade():
    with op.batch_alter_table("match", recreate="always") as batch_op:
        batch_op.drop_column("note")
'''


def row_counts(app) -> dict[str, int]:
    with app.app_context(), db.engine.connect() as connection:
        return {
            table: connection.execute(text(f"SELECT count(*) FROM {table}")).scalar_one()
            for table in TABLES
        }


def play_some_hands(client) -> int:
    """Two matches with hands, a correction and a removal: every table has rows."""
    teams = [{"players": ["Ann", "Bob"]}, {"players": ["Cy", "Di"]}]
    ids = []
    for _ in range(2):
        match_id = client.post("/api/v1/matches", json={"variant": "classic", "sides": teams})
        ids.append(match_id.json["id"])
    usual = [{"meld_points": 105, "hand_points": 5}, {"meld_points": 55, "hand_points": 5}]
    for match_id in ids:
        for _ in range(3):
            response = client.post(f"/api/v1/matches/{match_id}/hands", json={"sides": usual})
            assert response.status_code == 201, response.json
    client.put(f"/api/v1/matches/{ids[0]}/hands/1", json={"sides": usual[::-1]})
    client.delete(f"/api/v1/matches/{ids[1]}/hands/2")
    return ids[0]


def test_a_migration_that_rebuilds_the_match_table_keeps_every_child_row(tmp_path):
    migrations = tmp_path / "migrations"
    shutil.copytree(MIGRATIONS, migrations)
    app = make_app(f"sqlite:///{tmp_path / 'data.sqlite'}")
    with app.app_context():
        flask_migrate.upgrade(directory=str(migrations))
    with app.app_context(), db.engine.connect() as connection:
        head = connection.execute(text("SELECT version_num FROM alembic_version")).scalar_one()
    (migrations / "versions" / "ffff0000aaaa_rebuild_match.py").write_text(
        REBUILD_MATCH.format(head=head)
    )
    client = signed_in(app)
    match_id = play_some_hands(client)
    before = row_counts(app)
    state = client.get(f"/api/v1/matches/{match_id}").json
    assert all(before.values()), before

    with app.app_context():
        flask_migrate.upgrade(directory=str(migrations))
    assert row_counts(app) == before
    with app.app_context(), db.engine.connect() as connection:
        columns = [row[1] for row in connection.execute(text("PRAGMA table_info(match)"))]
        assert "note" in columns  # the table was rebuilt
        assert connection.execute(text("PRAGMA foreign_key_check")).fetchall() == []
        assert connection.execute(text("PRAGMA foreign_keys")).scalar_one() == 1
    assert client.get(f"/api/v1/matches/{match_id}").json == state
    # And back down: the rebuild again keeps everything.
    with app.app_context():
        flask_migrate.downgrade(directory=str(migrations), revision=head)
    assert row_counts(app) == before
    with app.app_context():
        db.engine.dispose()


# --- this round's migration on a database written by the previous schema -----------------

OLD_ROWS = [
    # Two spellings of one player, as SQLite's ASCII-only lower() let them in.
    "INSERT INTO player (id, name, created_at) VALUES (1, 'Élodie', '2026-11-01 20:00:00')",
    "INSERT INTO player (id, name, created_at) VALUES (2, 'Bob', '2026-11-01 20:00:00')",
    "INSERT INTO player (id, name, created_at) VALUES (3, 'élodie', '2026-11-02 20:00:00')",
    "INSERT INTO player (id, name, created_at) VALUES (4, 'Cy', '2026-11-02 20:00:00')",
    """INSERT INTO match (id, variant, options, rules, players_per_side, first_dealer, status,
       winner, created_at, finished_at) VALUES
       (1, 'classic-2p', '{}', :rules, 1, 0, 'playing', NULL, '2026-11-01 20:00:00', NULL),
       (2, 'classic-2p', '{}', :rules, 1, 1, 'playing', NULL, '2026-11-02 20:00:00', NULL)""",
    """INSERT INTO side (id, match_id, seat, name) VALUES
       (1, 1, 0, 'Élodie'), (2, 1, 1, 'Bob'), (3, 2, 0, 'élodie'), (4, 2, 1, 'Cy')""",
    """INSERT INTO side_member (id, side_id, player_id, position) VALUES
       (1, 1, 1, 0), (2, 2, 2, 0), (3, 3, 3, 0), (4, 4, 4, 0)""",
    # Versions counted saves per hand: hands 1 and 2 of match 1 are both at version 1.
    """INSERT INTO hand (id, match_id, number, version, submission_token, recorded_at,
       updated_at) VALUES
       (1, 1, 1, 2, 'tok-a', '2026-11-01 20:10:00', '2026-11-01 20:20:00'),
       (2, 1, 2, 1, 'tok-b', '2026-11-01 20:30:00', '2026-11-01 20:30:00'),
       (3, 2, 1, 1, NULL, '2026-11-02 20:10:00', '2026-11-02 20:10:00')""",
    """INSERT INTO hand_side (id, hand_id, seat, record, total, lines) VALUES
       (1, 1, 0, '{"meld_points": 100}', 100, '[]'), (2, 1, 1, '{}', 0, '[]'),
       (3, 2, 0, '{"meld_points": 50}', 50, '[]'), (4, 2, 1, '{}', 0, '[]'),
       (5, 3, 0, '{}', 0, '[]'), (6, 3, 1, '{"meld_points": 20}', 20, '[]')""",
    """INSERT INTO audit_entry (id, match_id, hand_number, hand_id, action, at, before, after)
       VALUES (1, 1, 1, 1, 'recorded', '2026-11-01 20:10:00', NULL, '{}'),
              (2, 1, 1, 1, 'corrected', '2026-11-01 20:20:00', '{}', '{}')""",
]


def upgrade_a_database_of_the_previous_schema(app) -> None:
    rules = json.dumps(rules_to_json(resolve("classic-2p")))
    with app.app_context():
        flask_migrate.upgrade(revision=FIRST)
        with db.engine.begin() as connection:
            for statement in OLD_ROWS:
                connection.execute(text(statement), {"rules": rules})
        flask_migrate.upgrade()


def check_upgraded(app) -> None:
    with app.app_context(), db.engine.connect() as connection:

        def rows(sql: str) -> list[tuple]:
            return [tuple(row) for row in connection.execute(text(sql))]

        # The two spellings of Élodie are one player now, her sides kept.
        assert rows("SELECT id, name, name_key FROM player ORDER BY id") == [
            (1, "Élodie", "élodie"),
            (2, "Bob", "bob"),
            (4, "Cy", "cy"),
        ]
        assert rows("SELECT id, player_id FROM side_member ORDER BY id") == [
            (1, 1),
            (2, 2),
            (3, 1),
            (4, 4),
        ]
        # Every hand kept; versions are the hands' own ids, unique in each match.
        assert rows("SELECT id, match_id, number, version FROM hand ORDER BY id") == [
            (1, 1, 1, 1),
            (2, 1, 2, 2),
            (3, 2, 1, 3),
        ]
        assert rows("SELECT id, revision FROM match ORDER BY id") == [(1, 2), (2, 3)]
        assert rows("SELECT count(*) FROM hand_side") == [(6,)]
        assert rows("SELECT count(*) FROM audit_entry") == [(2,)]
        assert rows("SELECT submission_token FROM hand ORDER BY id") == [
            ("tok-a",),
            ("tok-b",),
            (None,),
        ]
    client = signed_in(app)
    state = client.get("/api/v1/matches/1").json
    assert [side["total"] for side in state["sides"]] == [150, 0]
    assert [hand["version"] for hand in state["hands"]] == [1, 2]
    # Writes work on the upgraded data: a stale version conflicts, the current one is taken.
    usual = [{"meld_points": 105, "hand_points": 5}, {"meld_points": 55, "hand_points": 5}]
    stale = client.put("/api/v1/matches/1/hands/2", json={"sides": usual, "version": 1})
    assert stale.status_code == 409
    fresh = client.put("/api/v1/matches/1/hands/2", json={"sides": usual, "version": 2})
    assert fresh.status_code == 200
    assert fresh.json["hands"][1]["version"] == 3
    assert client.get("/history?player=ÉLODIE").status_code == 200
    second = client.post(
        "/api/v1/matches",
        json={"variant": "classic-2p", "sides": [{"players": ["ÉLODIE"]}, {"players": ["Cy"]}]},
    )
    assert second.status_code == 201
    assert second.json["sides"][0]["players"] == ["Élodie"]


def test_this_rounds_migration_keeps_the_data_on_sqlite(tmp_path):
    app = make_app(f"sqlite:///{tmp_path / 'old.sqlite'}")
    upgrade_a_database_of_the_previous_schema(app)
    check_upgraded(app)
    with app.app_context():
        db.engine.dispose()


def test_this_rounds_migration_keeps_the_data_on_postgresql(empty_postgres_app):
    upgrade_a_database_of_the_previous_schema(empty_postgres_app)
    with empty_postgres_app.app_context(), db.engine.begin() as connection:
        # Rows inserted with explicit ids leave the sequences behind; catch them up.
        for table in TABLES:
            connection.execute(
                text(
                    f"SELECT setval(pg_get_serial_sequence('{table}', 'id'), "
                    f"(SELECT max(id) FROM {table}))"
                )
            )
    check_upgraded(empty_postgres_app)
