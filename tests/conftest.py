"""Fixtures in the flaskr style: `app`, `client`, `runner`.

`app` has one account, the administrator TESTER (the first account of a database is
its administrator); `client` is signed in as TESTER, as a phone would be.
`anonymous_client` is signed out.
"""

from __future__ import annotations

import shutil

import pytest

from scorekeeper import create_app
from scorekeeper.extensions import db

from .postgres import postgres_schema_url, postgres_url  # noqa: F401 (fixtures for every test)
from .support import TESTER, add_user, app_config, sign_in


@pytest.fixture(scope="session")
def template_database(tmp_path_factory):
    """A SQLite file with the schema and TESTER, made once per test process: each test's
    `app` starts from a copy (making the tables and hashing a password cost more than
    most tests)."""
    path = tmp_path_factory.mktemp("template") / "template.sqlite"
    template = create_app(app_config(f"sqlite:///{path}"))
    with template.app_context():
        db.create_all()
    add_user(template, TESTER, admin=True)
    with template.app_context():
        db.engine.dispose()  # the last connection closed: the WAL is folded into the file
    return path


@pytest.fixture
def app(tmp_path, template_database):
    database = tmp_path / "test.sqlite"
    shutil.copyfile(template_database, database)
    app = create_app(app_config(f"sqlite:///{database}"))
    yield app
    with app.app_context():
        db.engine.dispose()


@pytest.fixture
def client(app):
    return sign_in(app.test_client())


@pytest.fixture
def anonymous_client(app):
    return app.test_client()


@pytest.fixture
def runner(app):
    return app.test_cli_runner()
