"""A history revision per group

`group.history_revision` moves on with every change a group's history shows, so a
history page made for one value can be kept and served again until it moves. Existing
groups start at 0; no other row is touched.

Revision ID: 8d4b2f7c1e95
Revises: 5c2e8f1a7b34
Create Date: 2026-11-23 16:00:00

"""

import sqlalchemy as sa
from alembic import op


# revision identifiers, used by Alembic.
revision = "8d4b2f7c1e95"
down_revision = "5c2e8f1a7b34"
branch_labels = None
depends_on = None


def upgrade():
    with op.batch_alter_table("group", schema=None) as batch_op:
        batch_op.add_column(
            sa.Column("history_revision", sa.Integer(), server_default=sa.text("0"), nullable=False)
        )


def downgrade():
    with op.batch_alter_table("group", schema=None) as batch_op:
        batch_op.drop_column("history_revision")
