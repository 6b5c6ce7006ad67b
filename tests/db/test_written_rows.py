"""`database.written_rows` runs a prebuilt INSERT on the driver connection, its values
processed by their columns' types: what it stores is what SQLAlchemy's own insert
stores (JSON, JSON null, dates, text), on SQLite and on PostgreSQL."""

from __future__ import annotations

from datetime import datetime
from typing import cast

import pytest
from sqlalchemy import Table, insert, select

from scorekeeper.database import insert_of, run, written_rows
from scorekeeper.extensions import db
from scorekeeper.models import AuditEntry, HandSide
from tests.api.test_matches import create
from tests.support import signed_in

from .conftest import make_app

AUDIT = cast(Table, AuditEntry.__table__)
SIDES = cast(Table, HandSide.__table__)


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


def test_sqlite_stores_what_sqlalchemy_stores(app):
    check_as_sqlalchemy_stores(app)


@pytest.mark.xdist_group("postgres")
def test_postgresql_stores_what_sqlalchemy_stores(migrated_postgres_url):
    app = make_app(migrated_postgres_url, WTF_CSRF_ENABLED=False)
    try:
        check_as_sqlalchemy_stores(app)
    finally:
        with app.app_context():
            db.session.remove()
            db.engine.dispose()
