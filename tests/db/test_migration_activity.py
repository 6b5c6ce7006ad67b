"""The activity log's migration, SQLite and PostgreSQL: entries kept as English sentences
before it read the same after it, now from their action and parameters."""

from __future__ import annotations

import flask_migrate
from sqlalchemy import text

from scorekeeper.extensions import db
from scorekeeper.models import Activity
from scorekeeper.web.activity import activity_text
from tests.support import signed_in

from .conftest import make_app

BEFORE = "a6c2e8d4f1b7"  # entries held their sentence in `details`
OLD_ENTRIES = [
    ("group_created", "tess made the group"),
    ("group_renamed", "Renamed from Thursday table to Friday table"),
    ("member_joined", "bea joined"),
    ("member_removed", "Bea left the group. The 2 share links and 1 invite link they made"
     " stopped working."),
    ("member_removed", "Cy left the group"),
    ("role_changed", "bea is now an admin"),
    ("invite_created", "Made an invite link"),
    ("invite_revoked", "Revoked an invite link"),
    ("player_renamed", "Ann is now Anna"),
    ("players_merged", "Annie merged into Anna"),
    ("player_linked", "Anna is linked to bea"),
    ("player_linked", "Anna is linked to nobody"),
    ("match_deleted", "Deleted match 7 (Classic Canasta: Ann & Bob against Cid & Dee)"),
    ("something_else", "An entry of a kind this version does not know"),
]  # fmt: skip


def check_activity_migration(app) -> None:
    with app.app_context():
        flask_migrate.upgrade()
    signed_in(app)  # the administrator's group
    with app.app_context():
        flask_migrate.downgrade(revision=BEFORE)
        with db.engine.begin() as connection:
            group_id = connection.execute(text('SELECT min(id) FROM "group"')).scalar_one()
            connection.execute(text("DELETE FROM activity"))
            for action, details in OLD_ENTRIES:
                connection.execute(
                    text(
                        "INSERT INTO activity (group_id, actor, action, details, at)"
                        " VALUES (:group, 'tess', :action, :details, CURRENT_TIMESTAMP)"
                    ),
                    {"group": group_id, "action": action, "details": details},
                )
        flask_migrate.upgrade()
        entries = db.session.execute(db.select(Activity).order_by(Activity.id)).scalars().all()
        said = [activity_text(entry) for entry in entries]
        assert said == [details for _, details in OLD_ENTRIES]
        deleted = entries[12]
        assert deleted.params["match"] == 7
        assert deleted.params["sides"] == ["Ann & Bob", "Cid & Dee"]
        assert entries[3].params["share_links"] == 2
        assert entries[-1].action == "note"
        db.session.remove()
        db.engine.dispose()


def test_the_activity_migration_keeps_every_entry_on_sqlite(tmp_path):
    check_activity_migration(make_app(f"sqlite:///{tmp_path / 'activity.sqlite'}"))


def test_the_activity_migration_keeps_every_entry_on_postgresql(empty_postgres_app):
    check_activity_migration(empty_postgres_app)
