"""Sign-in rate limits counted in the database, shared by every worker

Counted in each worker's memory, 10 tries a minute were 10 per worker. The counters
now live in their own table (see scorekeeper.rate_limits); nothing else changes.

Revision ID: b8e2f4a6c1d3
Revises: a1d5e3c7f920
Create Date: 2026-11-28 08:10:00

"""

import sqlalchemy as sa
from alembic import op

# revision identifiers, used by Alembic.
revision = "b8e2f4a6c1d3"
down_revision = "a1d5e3c7f920"
branch_labels = None
depends_on = None


def upgrade():
    op.create_table(
        "rate_limit",
        sa.Column("key", sa.String(length=255), nullable=False),
        sa.Column("count", sa.Integer(), nullable=False),
        sa.Column("expires_at", sa.Double(), nullable=False),
        sa.PrimaryKeyConstraint("key", name=op.f("pk_rate_limit")),
    )
    with op.batch_alter_table("rate_limit", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_rate_limit_expires_at"), ["expires_at"], unique=False)


def downgrade():
    with op.batch_alter_table("rate_limit", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_rate_limit_expires_at"))
    op.drop_table("rate_limit")
