"""How the app uses its database connections: one snapshot per read, writes queued.

A page reads a match in several queries (the match, its seats, its hands, their
sides); they must all see the same moment, or a hand removed in between shows
up without its sides. So:

- SQLite: pysqlite's own transaction handling (which runs SELECTs outside any
  transaction) is switched off and every unit of work is a real transaction:
  `BEGIN` for reads, `BEGIN IMMEDIATE` for writes, which then wait their turn
  for the lock (busy_timeout) instead of failing on a stale snapshot.
- PostgreSQL: reads run in REPEATABLE READ (one snapshot); a write runs in READ
  COMMITTED, so the match row lock it takes first waits for the other write
  and then sees what it saved (see services.hand_writes).
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import lru_cache
from typing import Any

from sqlalchemy import event
from sqlalchemy.engine import Connection, Dialect, Engine, make_url
from sqlalchemy.sql import Select

WRITE = "scorekeeper_write"  # execution option of a write transaction's connection
BUSY_TIMEOUT_MS = 5000


def _is_sqlite(dbapi_connection: Any) -> bool:
    return type(dbapi_connection).__module__.startswith("sqlite3")


@event.listens_for(Engine, "connect")
def _sqlite_connect(dbapi_connection: Any, _record: Any) -> None:
    """Foreign keys enforced, WAL, a busy timeout, and transactions left to SQLAlchemy."""
    if not _is_sqlite(dbapi_connection):
        return
    dbapi_connection.isolation_level = None  # pysqlite emits no BEGIN of its own
    cursor = dbapi_connection.cursor()
    cursor.execute("PRAGMA foreign_keys=ON")
    cursor.execute("PRAGMA journal_mode=WAL")
    cursor.execute(f"PRAGMA busy_timeout={BUSY_TIMEOUT_MS}")
    cursor.close()


@event.listens_for(Engine, "begin")
def _sqlite_begin(connection: Connection) -> None:
    if connection.dialect.name == "sqlite":
        writing = connection.get_execution_options().get(WRITE)
        connection.exec_driver_sql("BEGIN IMMEDIATE" if writing else "BEGIN")


def engine_options(url: str) -> dict[str, Any]:
    """Engine options for the configured database (reads see one snapshot)."""
    if make_url(url).get_backend_name() == "postgresql":
        return {"isolation_level": "REPEATABLE READ"}
    return {}


def write_options(dialect: str) -> dict[str, Any]:
    """Execution options that start a write transaction (see the module docstring)."""
    options: dict[str, Any] = {WRITE: True}
    if dialect == "postgresql":
        options["isolation_level"] = "READ COMMITTED"
    return options


@lru_cache(maxsize=64)
def _compiled(statement: Select[Any], dialect: Dialect) -> tuple[str, tuple[str, ...] | None]:
    """The SQL text of a prebuilt statement, and the order of its parameters when the
    driver takes them by position (SQLite) rather than by name (psycopg)."""
    compiled = statement.compile(dialect=dialect)
    order = tuple(compiled.positiontup or ()) if dialect.positional else None
    return compiled.string, order


def read_row(engine: Engine, statement: Select[Any], params: Mapping[str, Any]) -> Any:
    """The first row of one prebuilt SELECT, as the driver returns it (a tuple), or None.

    Run on a pooled driver connection without SQLAlchemy's per-statement machinery, which
    costs some twenty times the query on SQLite: for the checks every live-board poll
    makes. One statement sees one moment of the database; no result processing is done,
    so select plain columns.
    """
    sql, order = _compiled(statement, engine.dialect)
    arguments = tuple(params[name] for name in order) if order is not None else dict(params)
    connection = engine.raw_connection()
    try:
        cursor = connection.cursor()
        try:
            cursor.execute(sql, arguments)
            return cursor.fetchone()
        finally:
            cursor.close()
    finally:
        connection.close()  # back to the pool, which rolls back what the driver began
