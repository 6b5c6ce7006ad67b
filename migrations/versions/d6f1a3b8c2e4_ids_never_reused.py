"""Ids never reused on SQLite: accounts, groups, tokens, invites, links, players, entries

SQLite gives a new row of a plain table the highest id + 1, so an id freed (a row
deleted, or a restore that puts back an older database) can be given again, to another
row: a share link, a player or a group met again under an id a phone or a worker
already knows. Declared AUTOINCREMENT, as matches and hands already are, a table never
gives an id twice, and a restore moves each table's last id past what the replaced
database gave (`backup`). The tables are rebuilt with every row, id and index as they
were. PostgreSQL's sequences never go back: nothing changes there.

Revision ID: d6f1a3b8c2e4
Revises: b8e2f4a6c1d3
Create Date: 2026-11-28 08:00:00

"""

from alembic import op

# revision identifiers, used by Alembic.
revision = "d6f1a3b8c2e4"
down_revision = "b8e2f4a6c1d3"
branch_labels = None
depends_on = None

TABLES = ("user", "group", "api_token", "invite", "share_link", "player", "audit_entry")


def _rebuild(autoincrement: bool) -> None:
    if op.get_bind().dialect.name != "sqlite":
        return
    for table in TABLES:
        kwargs = {"sqlite_autoincrement": True} if autoincrement else {}
        with op.batch_alter_table(table, recreate="always", table_kwargs=kwargs):
            pass


def upgrade():
    _rebuild(autoincrement=True)


def downgrade():
    _rebuild(autoincrement=False)
