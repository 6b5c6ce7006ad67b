"""Statements a save runs on the driver connection, past SQLAlchemy's statement and
result machinery, with SQLAlchemy's own processing of the values by their columns'
types: `written_rows` stores what SQLAlchemy's insert stores, and `typed_rows` and
`rows_of` read what SQLAlchemy's select reads (JSON, JSON null, dates, text), on SQLite
and on PostgreSQL."""

from __future__ import annotations

from datetime import datetime
from typing import cast

from sqlalchemy import Table, insert, select

from scorekeeper.database import insert_of, rows_of, run, typed_rows, written_rows
from scorekeeper.extensions import db
from scorekeeper.models import AuditEntry
from scorekeeper.services.audit import ENTRIES, ENTRY
from scorekeeper.services.kept_match import MATCH_ROWS
from scorekeeper.services.match_state import HAND_SIDES, SIDES_OF_HAND
from tests.api.test_matches import create
from tests.support import signed_in

AUDIT = cast(Table, AuditEntry.__table__)
SIDES_POSTED = [
    {"went_out": True, "canastas": {"natural": 1}, "meld_points": 90},
    {"hand_points": 30},
]


def entry(match_id: int, **changed):
    values = {
        "match_id": match_id,
        "hand_number": 1,
        "hand_id": None,
        "action": "recorded",
        "at": datetime(2026, 11, 26, 17, 30, 5, 123456),
        "actor": "Zoë ✓",
        "actor_user_id": None,
        "actor_link_id": None,
        "before": None,
        "after": {"number": 1, "sides": [{"input": {"meld_points": 50}, "lines": []}]},
    }
    return {**values, **changed}


def stored(entry_id: int) -> tuple:
    """The row as the driver reads it back: the stored values, no type processing."""
    query = select(*(c for c in AUDIT.c if c.key != "id")).where(AUDIT.c.id == entry_id)
    compiled = query.compile(dialect=db.engine.dialect)
    driver = db.session.connection().connection.driver_connection
    cursor = driver.cursor()
    params = tuple(compiled.params.values()) if db.engine.dialect.positional else compiled.params
    cursor.execute(compiled.string, params)
    return tuple(cursor.fetchone())


def check_as_sqlalchemy_stores(app):
    match_id = create(signed_in(app))["id"]
    with app.app_context():
        cases = [entry(match_id), entry(match_id, before={"a": [1, None]}, after=None)]
        for values in cases:
            [(ours,)] = written_rows(db.session, insert_of(AUDIT).returning(AUDIT.c.id), values)
            theirs = run(db.session, insert(AUDIT).returning(AUDIT.c.id), values).scalar_one()
            assert stored(ours) == stored(theirs)
            assert (
                db.session.execute(select(AuditEntry.after).filter_by(id=ours)).scalar_one()
                == (values["after"])
            )
        # Several sets of values: one statement each.
        written_rows(db.session, insert_of(AUDIT), [entry(match_id)] * 2)
        count = db.session.execute(select(db.func.count()).select_from(AUDIT)).scalar_one()
        assert count == 6
        db.session.rollback()
        db.session.remove()


def check_as_sqlalchemy_reads(app):
    client = signed_in(app)
    match_id = create(client)["id"]
    hands = [
        client.post(f"/api/v1/matches/{match_id}/hands", json={"sides": SIDES_POSTED}).json
        for _ in range(2)
    ]
    hand_ids = [hand["hands"][-1]["id"] for hand in hands]
    with app.app_context():
        entry_ids = [
            written_rows(db.session, insert_of(AUDIT).returning(AUDIT.c.id), values)[0][0]
            for values in (entry(match_id), entry(match_id, before={"a": None}, after=None))
        ]
        reads = [
            (MATCH_ROWS, {"match_id": match_id}),
            (SIDES_OF_HAND, {"id": hand_ids[0]}),
            (ENTRY, {"id": entry_ids[1]}),
        ]
        for statement, params in reads:
            ours = typed_rows(db.session, statement, params)
            assert ours == [tuple(row) for row in run(db.session, statement, params).all()]
            assert ours
        for each, every, ids in (
            (SIDES_OF_HAND, HAND_SIDES, hand_ids),
            (ENTRY, ENTRIES, entry_ids),
        ):
            both = run(db.session, every, {"ids": ids}).all()
            assert [tuple(row) for row in rows_of(db.session, each, every, ids)] == both
            assert list(rows_of(db.session, each, every, ids[:1])) == [
                row for row in both if row[0] == ids[0]
            ]
        db.session.rollback()
        db.session.remove()


def test_what_is_stored_is_what_sqlalchemy_stores(either_app):
    check_as_sqlalchemy_stores(either_app)


def test_what_is_read_is_what_sqlalchemy_reads(either_app):
    check_as_sqlalchemy_reads(either_app)
