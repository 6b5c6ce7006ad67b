"""A match's hand numbers: the migration that makes their key deferrable on PostgreSQL
(and changes nothing on SQLite) keeps the data, and removing a hand moves the later ones
up one number whatever order the database keeps them in, on both databases.
"""

from __future__ import annotations

import flask_migrate
import pytest
from sqlalchemy import text
from sqlalchemy.engine import make_url

from scorekeeper.extensions import db
from tests.support import signed_in

from .conftest import make_app
from .test_migration_data import play_some_hands, row_counts

BEFORE = "e5b1c8f3a926"
KEY = "uq_hand_match_id_number"
TEAMS = [{"players": ["Ann", "Bob"]}, {"players": ["Cy", "Di"]}]


def hand_table_sql(app) -> str:
    with app.app_context(), db.engine.connect() as connection:
        query = text("SELECT sql FROM sqlite_master WHERE type = 'table' AND name = 'hand'")
        return connection.execute(query).scalar_one()


def key_deferrable(app) -> tuple[bool, bool]:
    """(deferrable, initially deferred) of the hand number key on PostgreSQL."""
    with app.app_context(), db.engine.connect() as connection:
        query = text(
            "SELECT condeferrable, condeferred FROM pg_constraint"
            " WHERE conrelid = 'hand'::regclass AND conname = :key"  # this schema's table
        )
        row = connection.execute(query, {"key": KEY}).one()
        return bool(row[0]), bool(row[1])


def numbers_by_id(app, match_id: int) -> dict[int, int]:
    with app.app_context(), db.engine.connect() as connection:
        query = text("SELECT id, number FROM hand WHERE match_id = :m")
        return dict(connection.execute(query, {"m": match_id}).all())


def check_migration(app, key_form) -> tuple[object, object]:
    """Hands played at the head, the database taken back before this migration and
    upgraded again: every row kept, each hand keeps its number; `key_form(app)` says how
    the key is declared at each step."""
    with app.app_context():
        flask_migrate.upgrade()
    client = signed_in(app)
    match_id = play_some_hands(client)
    before, numbers, at_head = row_counts(app), numbers_by_id(app, match_id), key_form(app)
    with app.app_context():
        flask_migrate.downgrade(revision=BEFORE)
    downgraded = key_form(app)
    assert row_counts(app) == before
    with app.app_context():
        flask_migrate.upgrade()
    assert row_counts(app) == before
    assert numbers_by_id(app, match_id) == numbers
    assert key_form(app) == at_head
    removed = signed_in(app).delete(f"/api/v1/matches/{match_id}/hands/1")
    assert removed.status_code == 200, removed.json
    assert [hand["number"] for hand in removed.json["hands"]] == [1, 2]
    return at_head, downgraded


def test_the_migration_changes_nothing_on_sqlite(tmp_path):
    app = make_app(f"sqlite:///{tmp_path / 'key.sqlite'}")
    at_head, downgraded = check_migration(app, hand_table_sql)
    assert at_head == downgraded
    assert "DEFERRABLE" not in at_head
    assert "UNIQUE (match_id, number)" in at_head
    with app.app_context():
        db.engine.dispose()


def test_the_migration_makes_the_key_deferrable_on_postgresql(empty_postgres_app):
    at_head, downgraded = check_migration(empty_postgres_app, key_deferrable)
    assert at_head == (True, False)  # deferrable, checked at the end of each statement
    assert downgraded == (False, False)


def hands_out_of_order(app) -> int:
    """A match of six hands whose later hands are kept in the table out of number order:
    hands 2 and 4 corrected (on PostgreSQL a changed row is written anew, at the end)."""
    client = signed_in(app)
    match_id = client.post("/api/v1/matches", json={"variant": "classic", "sides": TEAMS}).json[
        "id"
    ]
    hands = f"/api/v1/matches/{match_id}/hands"
    for meld in range(50, 110, 10):
        sides = [{"meld_points": meld}, {"meld_points": 50, "hand_points": 5}]
        assert client.post(hands, json={"sides": sides}).status_code == 201
    for number in (4, 2):
        sides = [{"meld_points": 200 + 10 * number}, {"meld_points": 50, "hand_points": 5}]
        assert client.put(f"{hands}/{number}", json={"sides": sides}).status_code == 200
    return match_id


def check_removal(app, match_id: int, first: int) -> None:
    """Removing hand `first` keeps every other hand, with its id and sides, numbered 1 to 5
    in their order, in the answer and in the table."""
    client = signed_in(app)
    before = client.get(f"/api/v1/matches/{match_id}").json["hands"]
    response = client.delete(f"/api/v1/matches/{match_id}/hands/{first}")
    assert response.status_code == 200, response.json
    after = response.json["hands"]
    kept = [hand for hand in before if hand["number"] != first]
    assert [hand["number"] for hand in after] == [1, 2, 3, 4, 5]
    assert [hand["id"] for hand in after] == [hand["id"] for hand in kept]
    assert [hand["sides"] for hand in after] == [hand["sides"] for hand in kept]
    assert sorted(numbers_by_id(app, match_id).values()) == [1, 2, 3, 4, 5]


def postgres_stored_order(app, match_id: int) -> list[int]:
    with app.app_context(), db.engine.connect() as connection:
        query = text("SELECT number FROM hand WHERE match_id = :m ORDER BY ctid")
        return list(connection.execute(query, {"m": match_id}).scalars())


def test_a_removal_moves_hands_kept_out_of_order_on_postgresql(migrated_postgres_url):
    # Rows visited in stored order (a table scan, as PostgreSQL may choose for a long
    # match), not along the key's index, which would visit them in number order.
    url = make_url(migrated_postgres_url)
    scans = f"{url.query['options']} -cenable_indexscan=off -cenable_bitmapscan=off"
    url = url.update_query_dict({"options": scans}).render_as_string(hide_password=False)
    app = make_app(url)
    match_id = hands_out_of_order(app)
    # Row by row in stored order, a hand moving up would meet one not yet moved.
    stored = postgres_stored_order(app, match_id)
    assert stored != sorted(stored)
    check_removal(app, match_id, 1)
    with app.app_context():
        db.session.remove()
        db.engine.dispose()


@pytest.mark.parametrize("first", [1, 3])
def test_a_removal_moves_the_later_hands_up_on_sqlite(app, first):
    check_removal(app, hands_out_of_order(app), first)
