"""PostgreSQL for the tests: a throwaway server, or SCOREKEEPER_TEST_POSTGRES_URL.

Without PostgreSQL the tests fail, they are not skipped: install the `postgresql`
package (`.ci/run` does).
"""

from __future__ import annotations

import glob
import os
import secrets
import shutil
import socket
import subprocess
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import psycopg
import pytest
from flask_migrate import upgrade
from sqlalchemy.engine import make_url

from scorekeeper import create_app
from scorekeeper.extensions import db

from .support import app_config

ENV_URL = "SCOREKEEPER_TEST_POSTGRES_URL"
SERVER_TOOLS = ("initdb", "pg_ctl", "postgres")


def _version_key(path: str) -> tuple[int, ...]:
    version = Path(path).parent.name
    return tuple(int(part) for part in version.split(".") if part.isdigit())


def find_server_bin() -> Path | None:
    """The directory holding initdb, pg_ctl and postgres: PATH, else /usr/lib/postgresql/*/bin."""
    candidates: list[Path] = []
    on_path = shutil.which("initdb")
    if on_path:
        candidates.append(Path(on_path).resolve().parent)
        candidates.append(Path(on_path).parent)
    for found in sorted(glob.glob("/usr/lib/postgresql/*/bin"), key=_version_key, reverse=True):
        candidates.append(Path(found))
    for directory in candidates:
        if all((directory / tool).is_file() for tool in SERVER_TOOLS):
            return directory
    return None


def _free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


class ThrowawayServer:
    """A PostgreSQL cluster in a temporary directory, listening on 127.0.0.1 only."""

    def __init__(self, bin_dir: Path) -> None:
        self.bin_dir = bin_dir
        self.as_root = os.geteuid() == 0
        # Not under pytest's tmp_path: its parents are private to root, and the server
        # runs as the postgres user when the tests run as root.
        self.base = Path(tempfile.mkdtemp(prefix="scorekeeper-pg-"))
        self.data = self.base / "data"
        self.log = self.base / "server.log"
        self.port = _free_port()
        self.started = False
        if self.as_root:
            if shutil.which("runuser") is None:
                pytest.fail("Running as root needs runuser to start PostgreSQL as 'postgres'")
            try:
                shutil.chown(self.base, user="postgres", group=None)
            except LookupError:
                pytest.fail(
                    "Running as root, PostgreSQL must run as the 'postgres' system user, "
                    "which does not exist: install the postgresql package (.ci/run does)"
                )

    def _run(self, *args: str) -> subprocess.CompletedProcess[str]:
        command = [str(self.bin_dir / args[0]), *args[1:]]
        if self.as_root:
            command = ["runuser", "-u", "postgres", "--", *command]
        return subprocess.run(command, capture_output=True, text=True, timeout=120, check=False)

    def _check(self, result: subprocess.CompletedProcess[str], what: str) -> None:
        if result.returncode != 0:
            log = self.log.read_text() if self.log.exists() else ""
            pytest.fail(
                f"PostgreSQL {what} failed ({result.returncode}):\n{result.stdout}\n"
                f"{result.stderr}\n{log}"
            )

    def start(self) -> str:
        self._check(
            self._run(
                "initdb",
                "-D",
                str(self.data),
                "-U",
                "postgres",
                "--auth=trust",
                "--encoding=UTF8",
                "--locale=C",
                "--no-sync",
            ),
            "initdb",
        )
        options = (
            f"-c listen_addresses=127.0.0.1 -p {self.port} -k {self.base} "
            "-c fsync=off -c synchronous_commit=off -c full_page_writes=off"
        )
        self._check(
            self._run(
                "pg_ctl",
                "-D",
                str(self.data),
                "-l",
                str(self.log),
                "-o",
                options,
                "-w",
                "-t",
                "60",
                "start",
            ),
            "start",
        )
        self.started = True
        with psycopg.connect(self.url("postgres"), autocommit=True) as connection:
            connection.execute("CREATE DATABASE scorekeeper_test")
        return self.url("scorekeeper_test")

    def url(self, database: str) -> str:
        return f"postgresql://postgres@127.0.0.1:{self.port}/{database}"

    def stop(self) -> None:
        try:
            if self.started:
                self._run("pg_ctl", "-D", str(self.data), "-m", "fast", "-w", "stop")
        finally:
            shutil.rmtree(self.base, ignore_errors=True)


@pytest.fixture(scope="session")
def postgres_url() -> Iterator[str]:
    """A PostgreSQL database URL (postgresql://...) the tests may create schemas in."""
    given = os.environ.get(ENV_URL)
    if given:
        yield given
        return
    bin_dir = find_server_bin()
    if bin_dir is None:
        pytest.fail(
            "PostgreSQL server binaries (initdb, pg_ctl, postgres) were not found on PATH or "
            "in /usr/lib/postgresql/*/bin. Install the postgresql package (.ci/run does: "
            f"apt-get install postgresql), or set {ENV_URL} to a database URL."
        )
    server = ThrowawayServer(bin_dir)
    try:
        yield server.start()
    finally:
        server.stop()


def libpq_url(url: str) -> str:
    """A SQLAlchemy PostgreSQL URL as libpq reads it (no +driver)."""
    parsed = make_url(url)
    return parsed.set(drivername="postgresql").render_as_string(hide_password=False)


@contextmanager
def new_schema(postgres_url: str) -> Iterator[tuple[str, str]]:
    """A fresh, empty schema: its name and a URL whose connections use it (search_path);
    dropped afterwards."""
    schema = f"t_{secrets.token_hex(6)}"
    base = libpq_url(postgres_url)
    with psycopg.connect(base, autocommit=True) as connection:
        connection.execute(f'CREATE SCHEMA "{schema}"')
    url = make_url(base).update_query_dict({"options": f"-csearch_path={schema}"})
    try:
        yield schema, url.render_as_string(hide_password=False)
    finally:
        with psycopg.connect(base, autocommit=True) as connection:
            connection.execute(f'DROP SCHEMA "{schema}" CASCADE')


@pytest.fixture
def postgres_schema_url(postgres_url) -> Iterator[str]:
    """A URL whose connections use a fresh, empty schema (search_path), dropped afterwards."""
    with new_schema(postgres_url) as (_, url):
        yield url


@pytest.fixture(scope="session")
def migrated_postgres_schema(postgres_url) -> Iterator[tuple[str, str]]:
    """A schema migrated to the latest revision once per test process: its name and URL."""
    with new_schema(postgres_url) as (schema, url):
        app = create_app(app_config(url))
        with app.app_context():
            upgrade()
            db.session.remove()
            db.engine.dispose()
        yield schema, url


@pytest.fixture
def migrated_postgres_url(postgres_url, migrated_postgres_schema) -> Iterator[str]:
    """A URL whose connections use a schema migrated to the latest revision, as a fresh one
    is: no row but the Alembic version, every id starting at 1. It is one schema per test
    process, migrated once (migrating took longer than most of these tests) and emptied
    after each test (TRUNCATE ... RESTART IDENTITY): the test's app must have closed its
    connections by then (`db.engine.dispose()`)."""
    schema, url = migrated_postgres_schema
    try:
        yield url
    finally:
        with psycopg.connect(libpq_url(postgres_url), autocommit=True) as connection:
            connection.execute("SET lock_timeout = '10s'")  # a connection left open: fail
            tables = connection.execute(
                "SELECT tablename FROM pg_tables WHERE schemaname = %s"
                " AND tablename <> 'alembic_version'",
                (schema,),
            ).fetchall()
            names = ", ".join(f'"{schema}"."{table}"' for (table,) in tables)
            connection.execute(f"TRUNCATE {names} RESTART IDENTITY CASCADE")
