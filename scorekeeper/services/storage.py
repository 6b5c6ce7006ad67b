"""One write, one transaction; a database that cannot take a write says so.

A read-only database file, a full disk or a lock held too long is not a conflict
with another device and not a bug: the write is refused whole (nothing is saved
half-way), the cause is logged for whoever runs the server, and the player is
told the server cannot save right now (HTTP 503).
"""

from __future__ import annotations

import logging
from collections.abc import Iterator
from contextlib import contextmanager

from sqlalchemy.exc import DBAPIError, OperationalError

from ..database import write_options
from ..extensions import db
from ..validation import Refusal
from ..words.translate import gettext

log = logging.getLogger(__name__)

# PostgreSQL SQLSTATE classes that mean the server cannot write now, not a bad request:
# read-only transaction, insufficient resources (disk full), operator intervention,
# system errors, connection trouble.
UNAVAILABLE_STATES = ("25006", "53", "57", "58", "08")
BUSY_MESSAGES = ("database is locked", "database table is locked")


class StorageUnavailable(Refusal):
    """The database refused a write for a reason of its own; nothing was saved."""

    status = 503


def unavailable(error: BaseException) -> StorageUnavailable | None:
    """The player-facing form of a database error that is the storage's fault, else None."""
    if not isinstance(error, DBAPIError):
        return None
    state = str(getattr(error.orig, "sqlstate", "") or "")
    if not isinstance(error, OperationalError) and not state.startswith(UNAVAILABLE_STATES):
        return None
    if any(text in str(error.orig) for text in BUSY_MESSAGES):
        return StorageUnavailable(
            gettext(
                "The server was busy saving something else and could not save this. Nothing "
                "was saved: please try again."
            )
        )
    return StorageUnavailable(
        gettext(
            "The server cannot save right now: its database refused the write. Nothing was "
            "saved. Try again in a moment, and tell whoever runs the server."
        )
    )


@contextmanager
def transaction() -> Iterator[None]:
    """A write: it starts from what is committed now (whatever was read before is let go),
    takes the write lock at once (SQLite's BEGIN IMMEDIATE; a row lock on PostgreSQL, see
    `match_lock`), commits on success, and on any error rolls back, turning storage
    failures into 503s."""
    db.session.rollback()
    try:
        db.session.connection(execution_options=write_options(db.engine.dialect.name))
        yield
        db.session.commit()
    except BaseException as error:
        db.session.rollback()
        refused = unavailable(error)
        if refused is not None:
            log.error("The database refused a write: %s", error)
            raise refused from error
        raise
