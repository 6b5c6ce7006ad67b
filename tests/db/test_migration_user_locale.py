"""The user-locale migration on a database holding accounts and matches, SQLite and
PostgreSQL.

Played at the head, taken back to the revision before (no `user.locale`) and upgraded
again: every account, membership and match is kept, every account comes back without a
language of its own (each phone's choice), and an account can choose one at once.
"""

from __future__ import annotations

import flask_migrate
from sqlalchemy import inspect, text

from scorekeeper.extensions import db
from tests.support import signed_in
from tests.web.helpers import form_values, page

from .conftest import make_app
from .test_migration_data import play_some_hands
from .test_migration_sign_ins import counts

BEFORE_LOCALE = "e7a4c1d9b352"  # club events


def user_columns(app) -> set[str]:
    with app.app_context():
        return {column["name"] for column in inspect(db.engine).get_columns("user")}


def check_user_locale_migration(app) -> None:
    with app.app_context():
        flask_migrate.upgrade()
    client = signed_in(app)
    play_some_hands(client)
    states = [client.get(f"/api/v1/matches/{i}").json for i in (1, 2)]
    before = counts(app)

    with app.app_context():
        flask_migrate.downgrade(revision=BEFORE_LOCALE)
    assert "locale" not in user_columns(app)
    assert counts(app) == before
    with app.app_context():
        flask_migrate.upgrade()
    assert "locale" in user_columns(app)
    assert counts(app) == before
    with app.app_context(), db.engine.connect() as connection:
        stored = connection.execute(text('SELECT locale FROM "user"')).scalars().all()
    assert stored
    assert set(stored) == {None}  # no account has a language until its user chooses one
    assert [client.get(f"/api/v1/matches/{i}").json for i in (1, 2)] == states
    form = form_values(page(client.get("/account")), 0)
    assert "lang-locale" in form
    assert client.post("/account", data={**form, "lang-locale": "it"}).status_code == 303
    assert 'lang="it"' in client.get("/", headers={"Accept-Language": "pt-BR"}).get_data(True)
    with app.app_context():
        db.engine.dispose()


def test_the_user_locale_migration_keeps_the_data_on_sqlite(tmp_path):
    check_user_locale_migration(make_app(f"sqlite:///{tmp_path / 'locale.sqlite'}"))


def test_the_user_locale_migration_keeps_the_data_on_postgresql(empty_postgres_app):
    check_user_locale_migration(empty_postgres_app)
