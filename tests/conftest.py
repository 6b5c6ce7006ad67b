"""Fixtures in the flaskr style: `app`, `client`, `runner`."""

from __future__ import annotations

import pytest

from scorekeeper import create_app
from scorekeeper.extensions import db

from .postgres import postgres_schema_url, postgres_url  # noqa: F401 (fixtures for every test)


@pytest.fixture
def app(tmp_path):
    app = create_app(
        {
            "TESTING": True,
            "SECRET_KEY": "test",
            "SQLALCHEMY_DATABASE_URI": f"sqlite:///{tmp_path / 'test.sqlite'}",
        }
    )
    with app.app_context():
        db.create_all()
    yield app
    with app.app_context():
        db.engine.dispose()


@pytest.fixture
def client(app):
    return app.test_client()


@pytest.fixture
def runner(app):
    return app.test_cli_runner()
