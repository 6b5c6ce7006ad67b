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

import os
import threading
import time
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from functools import lru_cache
from typing import Any

try:
    import fcntl
except ImportError:  # not a POSIX system: SQLite's own wait for its lock is used alone
    fcntl = None  # type: ignore[assignment]

from flask_sqlalchemy.session import Session as FlaskSession
from sqlalchemy import Insert, Table, UniqueConstraint, bindparam, event, insert
from sqlalchemy.engine import Connection, CursorResult, Dialect, Engine, make_url
from sqlalchemy.exc import DBAPIError, StatementError
from sqlalchemy.ext.compiler import compiles
from sqlalchemy.orm import Session, scoped_session
from sqlalchemy.sql import Executable, Select

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
    """The transaction's BEGIN, on the driver connection: every request begins one, and
    SQLAlchemy's statement machinery would cost more than SQLite takes to run it."""
    if connection.dialect.name == "sqlite":
        writing = connection.get_execution_options().get(WRITE)
        sql = "BEGIN IMMEDIATE" if writing else "BEGIN"
        driver: Any = connection.connection.driver_connection
        try:
            driver.execute(sql)
        except connection.dialect.loaded_dbapi.Error as error:
            raise _as_sqlalchemy_error(connection.dialect, sql, (), error) from error


@compiles(UniqueConstraint, "sqlite")
def _sqlite_unique_key(constraint: UniqueConstraint, compiler: Any, **kw: Any) -> str:
    """A unique key as SQLite declares it: SQLite has no DEFERRABLE clause (it checks
    every unique key row by row), so a key deferrable on PostgreSQL is a plain one."""
    declared: str = compiler.visit_unique_constraint(constraint, **kw)
    deferrability: str = compiler.define_constraint_deferrability(constraint)
    return declared.replace(deferrability, "", 1) if deferrability else declared


def checks_keys_per_statement(session: Session | scoped_session[Any]) -> bool:
    """Whether the deferrable unique keys are checked at the end of each statement (on
    PostgreSQL) rather than row by row (SQLite): whether a statement may pass through
    rows that break a key on its way to rows that do not."""
    return session.get_bind().dialect.name == "postgresql"


class WriterQueue:
    """Writers of one SQLite file take turns on a lock file beside it before they begin.

    SQLite lets one transaction write at a time, and a writer that finds the lock taken
    sleeps 1, 2, 5, 10 ms... between tries: under a burst of saves from two workers each
    wait overshoots the moment the lock is free by more than the write itself takes.
    Here a writer first waits for its turn on an flock, tried every quarter of a
    millisecond (and, among threads of one worker, on a thread lock); past
    BUSY_TIMEOUT_MS it goes on and lets SQLite's own wait decide, as before. The lock
    file is opened in each process (a descriptor inherited through a fork would be
    shared with the parent, not exclusive).
    """

    POLL_SECONDS = 0.00025

    def __init__(self, path: str) -> None:
        self.path = path
        self.threads = threading.Lock()
        self.descriptor: tuple[int, int] | None = None  # (process id, file descriptor)

    @classmethod
    def for_url(cls, url: str) -> WriterQueue | None:
        """A queue for a SQLite file; None for another database or an in-memory one."""
        parsed = make_url(url)
        name = parsed.database or ""
        plain_file = name not in ("", ":memory:") and not name.startswith("file:")
        if fcntl is None or parsed.get_backend_name() != "sqlite" or not plain_file:
            return None  # (a "file:" URI is left to SQLite alone)
        return cls(f"{name}-writers")

    def _file(self) -> int | None:
        """This process's descriptor of the lock file; None where it cannot be made (a
        read-only folder: SQLite decides alone, and refuses the write itself)."""
        if self.descriptor is None or self.descriptor[0] != os.getpid():
            try:
                opened = os.open(self.path, os.O_RDWR | os.O_CREAT, 0o600)
            except OSError:
                return None
            self.descriptor = (os.getpid(), opened)
        return self.descriptor[1]

    def _take(self, descriptor: int, deadline: float) -> bool:
        while True:
            try:
                fcntl.flock(descriptor, fcntl.LOCK_EX | fcntl.LOCK_NB)
                return True
            except BlockingIOError:
                if time.monotonic() > deadline:
                    return False
                time.sleep(self.POLL_SECONDS)

    @contextmanager
    def turn(self) -> Iterator[None]:
        """Hold this process's turn to write for the block (or wait no longer than
        BUSY_TIMEOUT_MS for it)."""
        deadline = time.monotonic() + BUSY_TIMEOUT_MS / 1000
        if not self.threads.acquire(timeout=BUSY_TIMEOUT_MS / 1000):
            yield  # another thread of this worker holds it too long: SQLite decides
            return
        try:
            descriptor = self._file()
            held = descriptor is not None and self._take(descriptor, deadline)
            try:
                yield
            finally:
                if held and descriptor is not None:
                    fcntl.flock(descriptor, fcntl.LOCK_UN)
        finally:
            self.threads.release()


READ_ISOLATION = {"postgresql": "REPEATABLE READ"}  # where a read's snapshot needs one


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


def read_options(dialect: str) -> dict[str, Any]:
    """The execution options `write_options` changes, as a read transaction has them."""
    options: dict[str, Any] = {WRITE: False}
    if dialect in READ_ISOLATION:
        options["isolation_level"] = READ_ISOLATION[dialect]
    return options


class RequestSession(FlaskSession):
    """Flask-SQLAlchemy's session, whose transactions all run on one connection: taken
    from the pool when the session first needs one, given back when the session closes
    (at the end of the request: the session lives as long as its app context).

    A save runs two or three transactions (reading and planning, the write, the answer
    after it) and a page one or two: taking a connection from the pool for each, and
    giving it back (the pool rolls it back again), cost some 85 us a transaction on
    SQLite, about as much as three of its queries. A write's execution options (see
    `write_options`) are set on the connection for its transaction and set back when
    the transaction ends.
    """

    def __init__(self, db: Any, **kwargs: Any) -> None:
        super().__init__(db, **kwargs)
        self.held: Connection | None = None

    def get_bind(
        self,
        mapper: Any | None = None,
        clause: Any | None = None,
        bind: Engine | Connection | None = None,
        **kwargs: Any,
    ) -> Engine | Connection:
        if bind is not None:
            return bind
        held = self.held
        if held is not None and not held.closed and not held.invalidated:
            return held  # (the app has one database: every model's bind is the engine)
        found = super().get_bind(mapper=mapper, clause=clause, **kwargs)
        if not isinstance(found, Engine):
            return found
        if held is not None:
            held.close()
        held = self.held = found.connect()
        return held

    def close(self) -> None:
        try:
            super().close()
        finally:
            held, self.held = self.held, None
            if held is not None:
                held.close()  # back to the pool


@event.listens_for(RequestSession, "after_transaction_end")
def _read_options_again(session: RequestSession, transaction: Any) -> None:
    """A write's options last as long as its transaction (the connection stays)."""
    held = session.held
    if (
        transaction.parent is None
        and held is not None
        and not held.closed
        and held.get_execution_options().get(WRITE)
    ):
        held.execution_options(**read_options(held.dialect.name))


@lru_cache(maxsize=64)
def _compilation(statement: Executable, dialect: Dialect) -> Any:
    """A prebuilt statement compiled for the dialect, once."""
    return statement.compile(dialect=dialect)  # type: ignore[attr-defined]


@lru_cache(maxsize=64)
def _compiled(
    statement: Executable, dialect: Dialect
) -> tuple[str, tuple[str, ...] | None, dict[str, Any]]:
    """The SQL text of a prebuilt statement, the order of its parameters when the driver
    takes them by position (SQLite) rather than by name (psycopg), and the values of the
    parameters the statement holds itself (literals such as the 1 of `revision + 1`)."""
    compiled = _compilation(statement, dialect)
    order = tuple(compiled.positiontup or ()) if dialect.positional else None
    return compiled.string, order, dict(compiled.params)


def _arguments(
    order: tuple[str, ...] | None, held: dict[str, Any], params: Mapping[str, Any]
) -> tuple[Any, ...] | dict[str, Any]:
    values = {**held, **params}
    return tuple(values[name] for name in order) if order is not None else values


def insert_of(table: Table) -> Insert:
    """An INSERT of every column of `table` but its generated key, each value a named
    parameter (the column's name), for `written_rows`: no default is filled in."""
    values: dict[str, Any] = {
        column.key: bindparam(column.key) for column in table.c if not column.primary_key
    }
    return insert(table).values(values)


@lru_cache(maxsize=64)
def _bind_processors(statement: Executable, dialect: Dialect) -> tuple[tuple[str, Any], ...]:
    """How each parameter of a prebuilt statement goes to the driver, by the type of its
    column (JSON as text, a date as SQLite stores it): SQLAlchemy's own processors."""
    compiled = _compilation(statement, dialect)
    found = []
    for name, bind in compiled.binds.items():
        process = bind.type.dialect_impl(dialect).bind_processor(dialect)
        if process is not None:
            found.append((name, process))
    return tuple(found)


def written_rows(
    session: Session | scoped_session[Any],
    statement: Executable,
    params: Mapping[str, Any] | Sequence[Mapping[str, Any]],
) -> list[Any]:
    """`plain_rows` for a prebuilt INSERT (every value a named parameter; several sets
    of them: one statement each), its values processed by their columns' types as
    SQLAlchemy would; the rows it returns (RETURNING), as the driver gives them."""
    driver, dialect = _driver_of(session)
    processors = _bind_processors(statement, dialect)
    rows = []
    for values in [params] if isinstance(params, Mapping) else params:
        typed = dict(values)
        for name, process in processors:
            if name in typed:
                typed[name] = process(typed[name])
        rows += _driver_rows(driver, dialect, statement, typed)
    return rows


def read_row(engine: Engine, statement: Select[Any], params: Mapping[str, Any]) -> Any:
    """The first row of one prebuilt SELECT, as the driver returns it (a tuple), or None.

    Run on a pooled driver connection without SQLAlchemy's per-statement machinery, which
    costs some twenty times the query on SQLite: for the checks every live-board poll
    makes. One statement sees one moment of the database; no result processing is done,
    so select plain columns.
    """
    connection = engine.raw_connection()
    try:
        rows = _driver_rows(connection.driver_connection, engine.dialect, statement, params)
        return rows[0] if rows else None
    finally:
        connection.close()  # back to the pool, which rolls back what the driver began


def _driver_rows(
    driver: Any, dialect: Dialect, statement: Executable, params: Mapping[str, Any]
) -> list[Any]:
    """A prebuilt statement's rows, run on a driver connection; a driver's error raised
    as SQLAlchemy would raise it (`storage.unavailable` reads it)."""
    sql, order, held = _compiled(statement, dialect)
    return _executed(driver, dialect, sql, _arguments(order, held, params))


def _executed(driver: Any, dialect: Dialect, sql: str, arguments: Any) -> list[Any]:
    """The rows of SQL text run on a driver connection (none for a write)."""
    cursor = driver.cursor()
    try:
        cursor.execute(sql, arguments)
        return list(cursor.fetchall()) if cursor.description is not None else []
    except dialect.loaded_dbapi.Error as error:
        raise _as_sqlalchemy_error(dialect, sql, arguments, error) from error
    finally:
        cursor.close()


def _as_sqlalchemy_error(
    dialect: Dialect, sql: str, arguments: Any, error: Exception
) -> StatementError:
    """A driver's error as SQLAlchemy would raise it (`storage.unavailable` and the 503
    answer read it)."""
    return DBAPIError.instance(sql, arguments, error, dialect.loaded_dbapi.Error)


def run(
    session: Session | scoped_session[Any],
    statement: Executable,
    params: Mapping[str, Any] | Sequence[Mapping[str, Any]] | None = None,
) -> CursorResult[Any]:
    """Run a prebuilt Core statement (columns, not mapped objects; parameters as
    `bindparam`s) in the session's transaction, past the ORM's per-statement work.

    Building a statement and running it through `Session.execute` costs several times
    what SQLite takes to run it; the hot paths (a save, a match read) prebuild theirs
    once and run them here. As the session would, pending ORM changes are flushed first.
    """
    return _flushed(session).execute(statement, params)


def connection_rows(
    connection: Connection, statement: Executable, params: Mapping[str, Any]
) -> list[Any]:
    """`plain_rows` on a connection of its own (as a transaction's begin hook is given),
    past SQLAlchemy's per-statement work."""
    return _driver_rows(
        connection.connection.driver_connection, connection.dialect, statement, params
    )


def plain_rows(
    session: Session | scoped_session[Any], statement: Executable, params: Mapping[str, Any]
) -> list[Any]:
    """The rows of a prebuilt statement run in the session's transaction, as the driver
    returns them (tuples), for the reads every save and match read makes.

    No result processing is done (SQLAlchemy's costs about as much as a short query on
    SQLite), so only for plain columns: numbers and text, no JSON or dates; and no
    expanding (IN) parameters. Pending ORM changes are flushed first, as by `run`.
    """
    return connection_rows(_flushed(session), statement, params)


@lru_cache(maxsize=64)
def _result_processors(statement: Select[Any], dialect: Dialect) -> tuple[tuple[int, Any], ...]:
    """How SQLAlchemy turns each selected value into Python (JSON text decoded, a date
    read from SQLite's text): its own processors, by the selected columns' types."""
    found = []
    for index, column in enumerate(statement.selected_columns):
        process = column.type.dialect_impl(dialect).result_processor(dialect, None)
        if process is not None:
            found.append((index, process))
    return tuple(found)


def typed_rows(
    session: Session | scoped_session[Any], statement: Select[Any], params: Mapping[str, Any]
) -> list[tuple[Any, ...]]:
    """`plain_rows` with each value as SQLAlchemy's result processing would make it (JSON,
    dates), without the rest of its Result machinery: for the reads of JSON columns a
    save makes (a hand another worker saved, the match's rows)."""
    driver, dialect = _driver_of(session)
    return _typed(statement, dialect, _driver_rows(driver, dialect, statement, params))


def _typed(statement: Select[Any], dialect: Dialect, rows: list[Any]) -> list[tuple[Any, ...]]:
    """Driver rows of `statement` with each value processed as SQLAlchemy would."""
    processors = _result_processors(statement, dialect)
    if not processors:
        return [tuple(row) for row in rows]
    typed = []
    for row in rows:
        values = list(row)
        for index, process in processors:
            values[index] = process(values[index])
        typed.append(tuple(values))
    return typed


def rows_of(
    session: Session | scoped_session[Any],
    each: Select[Any],
    every: Select[Any],
    ids: Sequence[int],
) -> Sequence[Any]:
    """The rows of `every` for these ids (its `ids`, an expanding parameter), in one
    statement, each value processed as SQLAlchemy would (`typed_rows`). One id, as a
    save meets (another worker's last hand, its audit entry), is read by `each` (its
    `id` parameter). Several, as a save meets after the other workers' saves, are read
    on the driver too: through the session, the IN list is rendered again and the rows
    go through SQLAlchemy's result machinery, some 0.4 ms a statement."""
    if len(ids) == 1:
        return typed_rows(session, each, {"id": ids[0]})
    driver, dialect = _driver_of(session)
    sql, order = _expanded(every, dialect, len(ids))
    arguments: tuple[Any, ...] | dict[str, Any]
    if dialect.positional:
        arguments = tuple(ids[index] for index in order.values())
    else:
        arguments = {name: ids[index] for name, index in order.items()}
    return _typed(every, dialect, _executed(driver, dialect, sql, arguments))


@lru_cache(maxsize=256)
def _expanded(statement: Select[Any], dialect: Dialect, count: int) -> tuple[str, dict[str, int]]:
    """A prebuilt SELECT whose only parameter is the expanding `ids`, its IN list
    rendered for `count` ids: its SQL text, and the place of each rendered parameter
    among the ids (in the driver's order of parameters, where it takes them by place)."""
    state = _compilation(statement, dialect).construct_expanded_state({"ids": list(range(count))})
    names = state.positiontup if dialect.positional else list(state.parameters)
    return state.statement, {name: state.parameters[name] for name in names}


def _driver_of(session: Session | scoped_session[Any]) -> tuple[Any, Dialect]:
    """The driver connection of the session's transaction (pending ORM changes flushed
    first) and its dialect."""
    connection = _flushed(session)
    return connection.connection.driver_connection, connection.dialect


def _flushed(session: Session | scoped_session[Any]) -> Connection:
    """The session's connection, its pending ORM changes flushed first (as the session
    does before a query of its own). A scoped session is looked up once, not for each
    of the three calls."""
    current = session() if isinstance(session, scoped_session) else session
    if current.autoflush:
        current.flush()
    return current.connection()
