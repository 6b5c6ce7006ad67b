"""The sign-ins migration on a database holding accounts and matches, SQLite and PostgreSQL.

Played at the head, taken back to the revision before (sessions carried "id:epoch") and
upgraded again: every account, token, membership and match is kept; the sessions of
before end (everyone signs in once more), and signing in works at once.
"""

from __future__ import annotations

import flask_migrate
from sqlalchemy import inspect, text

from scorekeeper.extensions import db
from tests.support import PASSWORD, TESTER, api_token_of_tester, signed_in
from tests.web.helpers import form_values, page

from .conftest import make_app
from .test_migration_data import play_some_hands, row_counts

BEFORE_SIGN_INS = "f2a9c4d8b613"  # and before the rate-limit counters
ACCOUNT_TABLES = ("user", "api_token", "group", "membership")


def counts(app) -> dict[str, int]:
    with app.app_context(), db.engine.connect() as connection:
        return {
            table: connection.execute(text(f'SELECT count(*) FROM "{table}"')).scalar_one()
            for table in ACCOUNT_TABLES
        } | row_counts(app)


def check_sign_ins_migration(app) -> None:
    with app.app_context():
        flask_migrate.upgrade()
    client = signed_in(app)
    play_some_hands(client)
    token = api_token_of_tester(app)
    states = [client.get(f"/api/v1/matches/{i}").json for i in (1, 2)]
    before = counts(app)

    with app.app_context():
        flask_migrate.downgrade(revision=BEFORE_SIGN_INS)
        assert "sign_in" not in inspect(db.engine).get_table_names()
    assert counts(app) == before
    with app.app_context():
        flask_migrate.upgrade()
        assert "sign_in" in inspect(db.engine).get_table_names()
    assert counts(app) == before
    old_session = app.test_client()
    with old_session.session_transaction() as session:
        session["_user_id"] = "1:0"  # as sessions were
    assert old_session.get("/").status_code == 302  # ended: sign in again
    phone = app.test_client()
    form = form_values(page(phone.get("/login")))
    signed = phone.post("/login", data={**form, "username": TESTER, "password": PASSWORD})
    assert signed.status_code == 303
    assert [phone.get(f"/api/v1/matches/{i}").json for i in (1, 2)] == states
    headers = {"Authorization": f"Bearer {token}"}
    assert app.test_client().get("/api/v1/matches/1", headers=headers).json == states[0]
    with app.app_context():
        db.engine.dispose()


def test_the_sign_ins_migration_keeps_the_data_on_sqlite(tmp_path):
    check_sign_ins_migration(make_app(f"sqlite:///{tmp_path / 'sign-ins.sqlite'}"))


def test_the_sign_ins_migration_keeps_the_data_on_postgresql(empty_postgres_app):
    check_sign_ins_migration(empty_postgres_app)
