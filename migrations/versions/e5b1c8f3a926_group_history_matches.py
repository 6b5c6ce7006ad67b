"""A group's history count

Each group keeps how many matches its history holds (finished_at set), counted again
whenever its history revision moves; the history page shows it without counting the
matches. Existing groups are counted here.

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
    op.execute(
        'UPDATE "group" SET history_matches = (SELECT count(*) FROM "match"'
        ' WHERE "match".group_id = "group".id AND "match".finished_at IS NOT NULL)'
    )


def downgrade():
    with op.batch_alter_table("group", schema=None) as batch_op:
        batch_op.drop_column("history_matches")
