"""History counts kept per group and per player

Each group keeps how many matches its history holds (finished_at set), counted again
whenever its history revision moves, and each player how many of them they sat at,
moved by one as a match enters or leaves the history; the history page shows them
without counting the matches. Existing groups and players are counted here.

Revision ID: e5b1c8f3a926
Revises: c4e9a2d7f813
Create Date: 2026-11-24 16:30:00

"""

import sqlalchemy as sa
from alembic import op


# revision identifiers, used by Alembic.
revision = "e5b1c8f3a926"
down_revision = "c4e9a2d7f813"
branch_labels = None
depends_on = None


def upgrade():
    with op.batch_alter_table("group", schema=None) as batch_op:
        batch_op.add_column(
            sa.Column("history_matches", sa.Integer(), server_default=sa.text("0"), nullable=False)
        )
    with op.batch_alter_table("player", schema=None) as batch_op:
        batch_op.add_column(
            sa.Column("history_matches", sa.Integer(), server_default=sa.text("0"), nullable=False)
        )
    op.execute(
        'UPDATE "group" SET history_matches = (SELECT count(*) FROM "match"'
        ' WHERE "match".group_id = "group".id AND "match".finished_at IS NOT NULL)'
    )
    op.execute(
        "UPDATE player SET history_matches = (SELECT count(DISTINCT side.match_id)"
        ' FROM side_member JOIN side ON side.id = side_member.side_id JOIN "match"'
        ' ON "match".id = side.match_id WHERE side_member.player_id = player.id'
        ' AND "match".finished_at IS NOT NULL)'
    )


def downgrade():
    with op.batch_alter_table("player", schema=None) as batch_op:
        batch_op.drop_column("history_matches")
    with op.batch_alter_table("group", schema=None) as batch_op:
        batch_op.drop_column("history_matches")
