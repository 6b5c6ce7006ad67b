"""`flask backup PATH` and `flask restore PATH`: copies of the SQLite database, safely.

Both use SQLite's online backup API, which copies a consistent state while the
server goes on serving (it takes the database's locks as any writer would). A
restore checks the file first, keeps a copy of the current database beside it,
and brings an older backup up to the current schema. It also moves every match's
revision (and every hand's version and every audit entry's id) past the highest one
the replaced database reached: servers still running keep the live boards they
showed per revision (see `web.matches`), and none of these may ever name two
different states. Ids are never given twice either: each table's last id moves past
the last one the replaced database gave (SQLite's AUTOINCREMENT counters), so a match,
hand, link or player made after a restore never takes an id that named another one
before it. PostgreSQL has its own tools(pg_dump, pg_restore): the commands say which line to run.
"""

from __future__ import annotations

import sqlite3
from contextlib import closing
from datetime import datetime
from pathlib import Path

import click
import flask_migrate
from alembic.script import ScriptDirectory
from flask import Flask, current_app
from flask.cli import with_appcontext
from sqlalchemy import Connection, text
from sqlalchemy.engine import make_url

from .extensions import db
from .private_files import create_private, keep_private

TABLES = "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'alembic%'"


class BackupError(click.ClickException):
    """A backup or restore that cannot be done; the message says why and what to do."""


def _database_file() -> Path:
    url = make_url(current_app.config["SQLALCHEMY_DATABASE_URI"])
    if url.get_backend_name() != "sqlite":
        safe = url.set(password="***" if url.password else None).render_as_string(False)
        raise BackupError(
            "This server uses PostgreSQL; back it up with its own tools:\n"
            f"  pg_dump --format=custom --file=scores.dump '{safe}'\n"
            f"  pg_restore --clean --if-exists --dbname='{safe}' scores.dump\n"
            "and restart the server after a pg_restore (docs/hosting.md, Backups)."
        )
    if not url.database or url.database == ":memory:":
        raise BackupError("This server's database lives in memory: there is nothing to copy.")
    return Path(url.database)


def _read_only(path: Path) -> closing[sqlite3.Connection]:
    return closing(sqlite3.connect(f"file:{path}?mode=ro", uri=True))


def _copy(source: Path, target: Path) -> None:
    """A consistent copy of one SQLite database into another (created if need be, readable
    by this user only: a copy holds what the database holds)."""
    create_private(target)
    with closing(sqlite3.connect(source)) as origin, closing(sqlite3.connect(target)) as copy:
        origin.backup(copy)


def _counts(path: Path) -> tuple[int, int]:
    with _read_only(path) as connection:
        matches = connection.execute("SELECT count(*) FROM match").fetchone()[0]
        hands = connection.execute("SELECT count(*) FROM hand").fetchone()[0]
    return matches, hands


def _known_revisions() -> set[str]:
    config = current_app.extensions["migrate"].migrate.get_config()
    return {script.revision for script in ScriptDirectory.from_config(config).walk_revisions()}


def _past_highest(path: Path, table: str, column: str) -> int:
    """One past the highest value of a revision column in the database at `path` (0 when
    it has none): added to the restored rows, it makes every value one never seen."""
    if not path.exists():
        return 0
    try:
        with _read_only(path) as connection:
            found = connection.execute(f'SELECT max({column}) FROM "{table}"').fetchone()
    except sqlite3.DatabaseError:  # no such table or column (yet): nothing was shown from it
        return 0
    return int(found[0] or 0) + 1


def _last_ids(path: Path) -> dict[str, int]:
    """The last id each table of the database at `path` gave: its AUTOINCREMENT counter
    (ids of rows deleted since count), or else its highest id."""
    if not path.exists():
        return {}
    last: dict[str, int] = {}
    with _read_only(path) as connection:
        names = [row[0] for row in connection.execute(TABLES)]
        if "sqlite_sequence" in names:
            last.update(connection.execute("SELECT name, seq FROM sqlite_sequence"))
        for table in names:
            try:
                top = connection.execute(f'SELECT max(id) FROM "{table}"').fetchone()[0]
            except sqlite3.DatabaseError:  # a table without an id column
                continue
            last[table] = max(last.get(table, 0), int(top or 0))
    return last


def _never_again(connection: Connection, last: dict[str, int]) -> None:
    """Move each AUTOINCREMENT table's counter past the last id the replaced database
    gave: a row made after the restore never takes an id a worker or a phone has seen."""
    made = text("SELECT name, sql FROM sqlite_master WHERE type = 'table'")
    tables = {str(name): str(sql) for name, sql in connection.execute(made)}
    for table, reached in last.items():
        if "AUTOINCREMENT" not in str(tables.get(table, "")).upper():
            continue
        params = {"table": table, "reached": reached}
        moved = connection.execute(
            text("UPDATE sqlite_sequence SET seq = max(seq, :reached) WHERE name = :table"),
            params,
        )
        if moved.rowcount == 0:
            connection.execute(
                text("INSERT INTO sqlite_sequence (name, seq) VALUES (:table, :reached)"),
                params,
            )


def check_backup(path: Path) -> str:
    """Why `path` is not a backup this server can restore, or "" when it is one."""
    if not path.is_file():
        return f"{path} does not exist."
    try:
        with _read_only(path) as connection:
            if connection.execute("PRAGMA integrity_check").fetchone()[0] != "ok":
                return f"{path} is damaged (SQLite's integrity check fails)."
            tables = {row[0] for row in connection.execute("SELECT name FROM sqlite_master")}
            if not {"alembic_version", "match", "hand"} <= tables:
                return f"{path} is a SQLite file but not a Scorekeeper database."
            revision = connection.execute("SELECT version_num FROM alembic_version").fetchone()
    except sqlite3.DatabaseError:
        return f"{path} is not a SQLite database."
    if revision is None or revision[0] not in _known_revisions():
        return f"{path} comes from a newer version of Scorekeeper: update this one first."
    return ""


@click.command("backup")
@click.argument("path", type=click.Path(dir_okay=False, path_type=Path))
@with_appcontext
def backup_command(path: Path) -> None:
    """Write a consistent copy of the database to PATH (safe while the server runs)."""
    source = _database_file()
    partial = path.with_name(path.name + ".partial")
    partial.unlink(missing_ok=True)
    _copy(source, partial)
    partial.replace(path)  # a backup file is complete or absent, never half written
    matches, hands = _counts(path)
    click.echo(f"Backed up {matches} matches and {hands} hands to {path}")


@click.command("restore")
@click.argument("path", type=click.Path(dir_okay=False, path_type=Path))
@click.option("--yes", is_flag=True, help="Do not ask for confirmation.")
@with_appcontext
def restore_command(path: Path, yes: bool) -> None:
    """Put the backup at PATH in place of the current database, after checking it."""
    target = _database_file()
    problem = check_backup(path)
    if problem:
        raise BackupError(f"Not restored: {problem}")
    matches, hands = _counts(path)
    if not yes:
        click.confirm(
            f"Replace everything in {target} with the {matches} matches and {hands} hands "
            f"of {path}?",
            abort=True,
        )
    db.session.remove()
    reached = _past_highest(target, "match", "revision")
    last = _last_ids(target)
    reached_entry = last.get("audit_entry", 0) + 1
    if target.exists():
        stamp = datetime.now().strftime("%Y%m%d-%H%M%S")
        kept = target.with_name(f"{target.stem}.before-restore-{stamp}{target.suffix}")
        _copy(target, kept)
        click.echo(f"The database as it was is kept in {kept}")
    _copy(path, target)
    for suffix in ("", "-wal", "-shm"):
        keep_private(target.with_name(target.name + suffix))
    db.engine.dispose()  # connections opened before the restore start afresh
    flask_migrate.upgrade()
    with db.engine.begin() as connection:
        connection.execute(text("UPDATE match SET revision = revision + :step"), {"step": reached})
        # A hand's version is the revision that last wrote it: moved with them, so that
        # a worker that kept hands of the replaced database reads every restored one.
        connection.execute(text("UPDATE hand SET version = version + :step"), {"step": reached})
        # Audit entries are kept by id: theirs, and the ids new ones take, move past every
        # id the replaced database gave (through negative ids: ids are unique row by row).
        step = {"step": reached_entry}
        connection.execute(text("UPDATE audit_entry SET id = -(id + :step)"), step)
        connection.execute(text("UPDATE audit_entry SET id = -id WHERE id < 0"))
        _never_again(connection, last)
    click.echo(f"Restored {matches} matches and {hands} hands from {path}")


def init_app(app: Flask) -> None:
    app.cli.add_command(backup_command)
    app.cli.add_command(restore_command)
