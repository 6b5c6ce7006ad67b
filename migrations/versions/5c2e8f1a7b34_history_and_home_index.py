"""History and home from one index

Finished and abandoned matches (finished_at set) are listed newest first, and the
matches in progress (finished_at null) found, per group from one index on
(group_id, finished_at, status, variant), which replaces the index on group_id
alone; history counts and filters by status or variant read only the index. Only
indexes change: no row is touched.

Revision ID: 5c2e8f1a7b34
Revises: 1880c5b733a2
Create Date: 2026-11-23 13:30:00

"""

from alembic import op


# revision identifiers, used by Alembic.
revision = "5c2e8f1a7b34"
down_revision = "1880c5b733a2"
branch_labels = None
depends_on = None


def upgrade():
    # Plain CREATE/DROP INDEX: no table is rebuilt, on SQLite either.
    op.create_index(
        "ix_match_group_id_finished_at",
        "match",
        ["group_id", "finished_at", "status", "variant"],
        unique=False,
    )
    op.drop_index("ix_match_group_id", table_name="match")


def downgrade():
    op.create_index("ix_match_group_id", "match", ["group_id"], unique=False)
    op.drop_index("ix_match_group_id_finished_at", table_name="match")
