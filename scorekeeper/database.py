"""How the app uses its database: one snapshot per read, writes one after another.

A page reads a match in several queries (the match, its seats, its hands); they must
all see the same moment, or a hand removed in between shows up without its sides.

- SQLite: pysqlite's own transaction handling (which runs SELECTs outside any
  transaction) is switched off, as SQLAlchemy's documentation shows, and every unit
  of work is a real transaction: `BEGIN` for reads, `BEGIN IMMEDIATE` for writes,
  which then wait their turn for the lock (the busy timeout) instead of failing on a
  stale snapshot.
- PostgreSQL: reads run in REPEATABLE READ (one snapshot); a write runs in READ
  COMMITTED, so the match row it locks first (`match_lock`) waits for the other write
  and then sees what it saved.
"""

from __future__ import annotations

from typing import Any

from sqlalchemy import UniqueConstraint, event
from sqlalchemy.engine import Connection, Engine, make_url
from sqlalchemy.ext.compiler import compiles

WRITE = "scorekeeper_write"  # execution option: this transaction writes
BUSY_TIMEOUT_MS = 5000
READ_ISOLATION = {"postgresql": "REPEATABLE READ"}


def database_url(raw: str) -> str:
    """Point PostgreSQL URLs at the psycopg 3 driver the project installs."""
    for prefix in ("postgres://", "postgresql://"):
        if raw.startswith(prefix):
            return "postgresql+psycopg://" + raw[len(prefix) :]
    return raw


def engine_options(url: str) -> dict[str, Any]:
    """Engine options for the configured database (reads see one snapshot)."""
    isolation = READ_ISOLATION.get(make_url(url).get_backend_name())
    return {"isolation_level": isolation} if isolation else {}


def write_options(dialect: str) -> dict[str, Any]:
    """Execution options that start a write transaction (see the module docstring)."""
    options: dict[str, Any] = {WRITE: True}
    if dialect == "postgresql":
        options["isolation_level"] = "READ COMMITTED"
    return options


def is_sqlite(dbapi_connection: Any) -> bool:
    return type(dbapi_connection).__module__.startswith("sqlite3")


@event.listens_for(Engine, "connect")
def _sqlite_connect(dbapi_connection: Any, _record: Any) -> None:
    """Foreign keys enforced, WAL, a busy timeout, and transactions left to SQLAlchemy."""
    if not is_sqlite(dbapi_connection):
        return
    dbapi_connection.isolation_level = None  # pysqlite emits no BEGIN of its own
    cursor = dbapi_connection.cursor()
    cursor.execute("PRAGMA foreign_keys=ON")
    cursor.execute("PRAGMA journal_mode=WAL")
    cursor.execute(f"PRAGMA busy_timeout={BUSY_TIMEOUT_MS}")
    cursor.close()


@event.listens_for(Engine, "begin")
def _sqlite_begin(connection: Connection) -> None:
    """The transaction's BEGIN: IMMEDIATE for a write, which takes the write lock at once."""
    if connection.dialect.name == "sqlite":
        writing = connection.get_execution_options().get(WRITE)
        connection.exec_driver_sql("BEGIN IMMEDIATE" if writing else "BEGIN")


@compiles(UniqueConstraint, "sqlite")
def _sqlite_unique_key(constraint: UniqueConstraint, compiler: Any, **kw: Any) -> str:
    """A unique key as SQLite declares it: SQLite has no DEFERRABLE clause (it checks
    every unique key row by row), so a key deferrable on PostgreSQL is a plain one."""
    declared: str = compiler.visit_unique_constraint(constraint, **kw)
    deferrability: str = compiler.define_constraint_deferrability(constraint)
    return declared.replace(deferrability, "", 1) if deferrability else declared


def checks_keys_per_statement(dialect: str) -> bool:
    """Whether the deferrable unique keys are checked at the end of each statement (on
    PostgreSQL) rather than row by row (SQLite): whether a statement may pass through
    rows that break a key on its way to rows that do not."""
    return dialect == "postgresql"
