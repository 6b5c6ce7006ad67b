"""Drop the history counters and revisions

The history is read from its index with keyset pages and counted when shown: the
per-group history revision and counts and the per-player counts, which every write
had to move on, go. No data is lost: they were made from the matches.

Revision ID: a6c2e8d4f1b7
Revises: d6f1a3b8c2e4
Create Date: 2026-11-28 09:00:00

"""

import sqlalchemy as sa
from alembic import op


# revision identifiers, used by Alembic.
revision = "a6c2e8d4f1b7"
down_revision = "d6f1a3b8c2e4"
branch_labels = None
depends_on = None


def upgrade():
    with op.batch_alter_table("player", schema=None) as batch_op:
        batch_op.drop_column("history_matches")
    with op.batch_alter_table("group", schema=None) as batch_op:
        batch_op.drop_column("history_matches")
        batch_op.drop_column("history_revision")


def downgrade():
    with op.batch_alter_table("group", schema=None) as batch_op:
        batch_op.add_column(
            sa.Column("history_revision", sa.Integer(), server_default=sa.text("0"), nullable=False)
        )
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
