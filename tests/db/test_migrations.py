"""Alembic migrations (Flask-Migrate) on SQLite: `flask db upgrade` builds exactly the models."""

from __future__ import annotations

import warnings

import flask_migrate
import pytest
from alembic.autogenerate import compare_metadata
from alembic.runtime.migration import MigrationContext
from alembic.script import ScriptDirectory
from sqlalchemy import inspect

from scorekeeper.extensions import db
from tests.support import signed_in

# migrations/env.py tries Flask-SQLAlchemy's deprecated get_engine() first; that warning is
# checked on its own below, so the schema checks still run while it is there.

MODEL_TABLES = {"player", "match", "side", "side_member", "hand", "hand_side", "audit_entry"}
MODEL_TABLES |= {"user", "api_token", "group", "membership", "invite", "share_link"}
MODEL_TABLES |= {"setting", "activity", "sign_in", "rate_limit"}
MODEL_TABLES |= {"rating", "rating_state", "league", "league_credit", "league_link"}


def schema_diff(app) -> list:
    """What autogenerate would still change: empty when the database matches the models."""
    with app.app_context(), db.engine.connect() as connection:
        context = MigrationContext.configure(
            connection, opts={"compare_type": True, "compare_server_default": True}
        )
        return compare_metadata(context, db.metadata)


def tables(app) -> set[str]:
    with app.app_context():
        return set(inspect(db.engine).get_table_names())


def current_heads(app) -> tuple[str, ...]:
    with app.app_context(), db.engine.connect() as connection:
        return tuple(MigrationContext.configure(connection).get_current_heads())


def script_heads(app) -> list[str]:
    with app.app_context():
        config = app.extensions["migrate"].migrate.get_config()
        return ScriptDirectory.from_config(config).get_heads()


def test_the_models_declare_the_expected_tables(empty_sqlite_app):
    assert set(db.metadata.tables) == MODEL_TABLES


def test_the_migrations_have_a_single_head(empty_sqlite_app):
    assert len(script_heads(empty_sqlite_app)) == 1


def test_flask_db_upgrade_on_an_empty_database_gives_the_models_schema(empty_sqlite_app):
    app = empty_sqlite_app
    assert tables(app) == set()
    result = app.test_cli_runner().invoke(args=["db", "upgrade"])
    assert result.exit_code == 0, result.output
    assert tables(app) == MODEL_TABLES | {"alembic_version"}
    assert current_heads(app) == tuple(script_heads(app))
    diff = schema_diff(app)
    assert diff == [], diff


def test_flask_db_check_finds_nothing_to_generate(empty_sqlite_app):
    app = empty_sqlite_app
    runner = app.test_cli_runner()
    assert runner.invoke(args=["db", "upgrade"]).exit_code == 0
    result = runner.invoke(args=["db", "check"])
    assert result.exit_code == 0, result.output


def test_downgrade_to_base_leaves_no_tables_and_upgrade_rebuilds(empty_sqlite_app):
    app = empty_sqlite_app
    with app.app_context():
        flask_migrate.upgrade()
    assert tables(app) >= MODEL_TABLES
    with app.app_context():
        flask_migrate.downgrade(revision="base")
    assert tables(app) - {"alembic_version"} == set()
    assert current_heads(app) == ()
    with app.app_context():
        flask_migrate.upgrade()
    assert schema_diff(app) == []


def test_a_migrated_database_runs_a_match(empty_sqlite_app):
    app = empty_sqlite_app
    with app.app_context():
        flask_migrate.upgrade()
    client = signed_in(app)
    sides = [{"players": ["Ann"]}, {"players": ["Bob"]}]
    created = client.post("/api/v1/matches", json={"variant": "buraco", "sides": sides})
    assert created.status_code == 201, created.json
    hand = [
        {"went_out": True, "canastas": {"natural": 1}, "meld_points": 100, "took_extra_hand": True},
        {"took_extra_hand": False, "hand_points": 30},
    ]
    recorded = client.post(f"/api/v1/matches/{created.json['id']}/hands", json={"sides": hand})
    assert recorded.status_code == 201, recorded.json
    assert [s["total"] for s in recorded.json["sides"]] == [300, -130]


@pytest.mark.filterwarnings("error")
def test_migrations_run_without_deprecation_warnings(empty_sqlite_app):
    """migrations/env.py must work with the installed Flask-SQLAlchemy without deprecated
    calls: the test suite turns every warning into an error."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        with empty_sqlite_app.app_context():
            flask_migrate.upgrade()
    messages = [f"{w.category.__name__}: {w.message}" for w in caught]
    assert messages == []
