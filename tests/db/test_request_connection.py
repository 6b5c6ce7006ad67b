"""A request's transactions run on one connection (`database.RequestSession`), taken
from the pool once and given back when the request ends; a write's options (BEGIN
IMMEDIATE on SQLite, READ COMMITTED on PostgreSQL) last only as long as its
transaction: the reads after it are reads again. On SQLite and on PostgreSQL."""

from __future__ import annotations

from sqlalchemy import event, text

from scorekeeper.database import WRITE
from scorekeeper.extensions import db
from scorekeeper.services.storage import transaction


def isolation(app) -> str | None:
    """The isolation of the session's transaction now (PostgreSQL), else None."""
    if db.engine.dialect.name != "postgresql":
        return None
    return db.session.execute(text("SHOW transaction_isolation")).scalar_one()


def test_the_transactions_of_a_request_share_one_connection(either_app):
    with either_app.app_context():
        checkouts, checkins = [], []
        event.listen(db.engine, "checkout", lambda *_: checkouts.append(1))
        event.listen(db.engine, "checkin", lambda *_: checkins.append(1))
        db.session.execute(text("SELECT 1"))
        db.session.rollback()
        with transaction():
            db.session.execute(text('UPDATE "user" SET username = username'))
        db.session.execute(text("SELECT 1"))
        assert (len(checkouts), len(checkins)) == (1, 0)
        db.session.remove()
        assert (len(checkouts), len(checkins)) == (1, 1)


def test_after_a_write_the_next_transaction_is_a_read_again(either_app):
    postgres = either_app.config["SQLALCHEMY_DATABASE_URI"].startswith("postgresql")
    with either_app.app_context():
        assert isolation(either_app) == ("repeatable read" if postgres else None)
        db.session.rollback()
        with transaction():
            assert isolation(either_app) == ("read committed" if postgres else None)
            assert db.session.connection().get_execution_options()[WRITE]
        assert not db.session.connection().get_execution_options().get(WRITE)
        assert isolation(either_app) == ("repeatable read" if postgres else None)
        db.session.rollback()
        try:
            with transaction():
                raise LookupError("a write that fails")
        except LookupError:
            pass
        assert not db.session.connection().get_execution_options().get(WRITE)
        assert isolation(either_app) == ("repeatable read" if postgres else None)
        db.session.remove()


def test_a_read_after_a_write_takes_no_write_lock_on_sqlite(app):
    """BEGIN, not BEGIN IMMEDIATE: another connection can still begin its write."""
    with app.app_context():
        with transaction():
            db.session.execute(text('UPDATE "user" SET username = username'))
        db.session.execute(text("SELECT 1"))  # a read transaction, left open
        other = db.engine.raw_connection()
        try:
            other.driver_connection.execute("PRAGMA busy_timeout = 0")
            other.driver_connection.execute("BEGIN IMMEDIATE")  # fails if ours were a write
            other.driver_connection.execute("ROLLBACK")
        finally:
            other.close()
        db.session.remove()
