"""A hand's line-up (Burraco for three)

In a seated game each hand is played in a line-up: which seats formed each
side (pair against one, or each for himself). The hand keeps it as JSON, a list
of sides each a list of seats; hands of every other game leave it null, so
existing rows need nothing.

Revision ID: b3a7d41c9e25
Revises: b7d41e9c2a63
Create Date: 2026-11-23 15:45:00

"""

import sqlalchemy as sa
from alembic import op


# revision identifiers, used by Alembic.
revision = "b3a7d41c9e25"
down_revision = "b7d41e9c2a63"
branch_labels = None
depends_on = None


def upgrade():
    # A nullable column: ADD COLUMN, no table rebuilt on SQLite either.
    op.add_column("hand", sa.Column("lineup", sa.JSON(), nullable=True))


def downgrade():
    with op.batch_alter_table("hand") as batch_op:
        batch_op.drop_column("lineup")
