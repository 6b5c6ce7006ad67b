"""Database fixtures: empty SQLite apps, and a PostgreSQL server for the PostgreSQL tests.

`postgres_url` uses SCOREKEEPER_TEST_POSTGRES_URL when it is set; otherwise it
starts a throwaway PostgreSQL server from the installed binaries (initdb,
pg_ctl) for the test session. Without PostgreSQL the tests fail, they are not
skipped: install the `postgresql` package (`.ci/run` does).
"""

from __future__ import annotations

import logging
from collections.abc import Iterator

import pytest

from scorekeeper import create_app
from scorekeeper.extensions import db
from tests.support import app_config


@pytest.fixture(autouse=True)
def _keep_logging() -> Iterator[None]:
    """Alembic's env.py runs logging.fileConfig, which disables every existing logger and
    swaps the root handlers; put the logging setup back after each test."""
    manager = logging.Logger.manager
    root = logging.getLogger()
    saved_root = (root.level, root.handlers[:])
    saved = {
        name: (logger.disabled, logger.level, logger.handlers[:], logger.propagate)
        for name, logger in manager.loggerDict.items()
        if isinstance(logger, logging.Logger)
    }
    yield
    root.setLevel(saved_root[0])
    root.handlers[:] = saved_root[1]
    for name, logger in list(manager.loggerDict.items()):
        if not isinstance(logger, logging.Logger):
            continue
        if name in saved:
            logger.disabled, level, handlers, logger.propagate = saved[name]
            logger.setLevel(level)
            logger.handlers[:] = handlers
        else:
            logger.disabled = False


def make_app(url: str, **config):
    return create_app(app_config(url, **config))


@pytest.fixture
def empty_sqlite_app(tmp_path):
    """An app whose SQLite database file does not exist yet: no tables at all."""
    app = make_app(f"sqlite:///{tmp_path / 'empty.sqlite'}")
    yield app
    with app.app_context():
        db.engine.dispose()


@pytest.fixture
def empty_postgres_app(postgres_schema_url):
    app = make_app(postgres_schema_url)
    yield app
    with app.app_context():
        db.session.remove()
        db.engine.dispose()


@pytest.fixture(
    params=["sqlite", pytest.param("postgresql", marks=pytest.mark.xdist_group("postgres"))]
)
def either_app(request):
    """The test's app on SQLite, then on PostgreSQL."""
    if request.param == "sqlite":
        yield request.getfixturevalue("app")
        return
    app = make_app(request.getfixturevalue("migrated_postgres_url"), WTF_CSRF_ENABLED=False)
    yield app
    with app.app_context():
        db.session.remove()
        db.engine.dispose()
