"""A stable uid per match

Every match gets a `uid` (32 hex digits of a random UUID4) that names it wherever it
is exported to, so importing the same export twice adds nothing twice. Existing
matches are given one each; no other row is touched.

Revision ID: b7d41e9c2a63
Revises: 8d4b2f7c1e95
Create Date: 2026-11-23 15:40:00

"""

import uuid

import sqlalchemy as sa
from alembic import op

revision = "b7d41e9c2a63"
down_revision = "8d4b2f7c1e95"
branch_labels = None
depends_on = None


def _recreate():
    """SQLite rebuilds a table to change it; PostgreSQL alters it in place."""
    return "always" if op.get_bind().dialect.name == "sqlite" else "auto"


def upgrade():
    with op.batch_alter_table("match") as batch_op:
        batch_op.add_column(sa.Column("uid", sa.String(length=32), nullable=True))
    bind = op.get_bind()
    match = sa.table("match", sa.column("id"), sa.column("uid"))
    ids = bind.execute(sa.select(match.c.id).where(match.c.uid.is_(None))).scalars().all()
    if ids:  # one statement for all of them, each with its own random uid
        bind.execute(
            match.update().where(match.c.id == sa.bindparam("match_id")).values(uid=sa.bindparam("new_uid")),
            [{"match_id": match_id, "new_uid": uuid.uuid4().hex} for match_id in ids],
        )
    with op.batch_alter_table(
        "match", recreate=_recreate(), table_kwargs={"sqlite_autoincrement": True}
    ) as batch_op:
        batch_op.alter_column("uid", existing_type=sa.String(length=32), nullable=False)
        batch_op.create_unique_constraint(batch_op.f("uq_match_uid"), ["uid"])


def downgrade():
    with op.batch_alter_table(
        "match", recreate=_recreate(), table_kwargs={"sqlite_autoincrement": True}
    ) as batch_op:
        batch_op.drop_constraint("uq_match_uid", type_="unique")
        batch_op.drop_column("uid")
