"""Fixtures in the flaskr style: `app`, `client`, `runner`.

`app` has one account, the administrator TESTER (the first account of a database is
its administrator); `client` is signed in as TESTER, as a phone would be.
`anonymous_client` is signed out.
"""

from __future__ import annotations

import pytest

from scorekeeper import create_app
from scorekeeper.extensions import db

from .postgres import postgres_schema_url, postgres_url  # noqa: F401 (fixtures for every test)
from .support import TESTER, add_user, app_config, sign_in


@pytest.fixture
def app(tmp_path):
    app = create_app(app_config(f"sqlite:///{tmp_path / 'test.sqlite'}"))
    with app.app_context():
        db.create_all()
    add_user(app, TESTER, admin=True)
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
