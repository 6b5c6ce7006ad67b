"""Each account's language: a locale chosen on the account page, or none

A nullable column: every account there is keeps reading the app in each phone's own
language (its chooser, else its browser's) until its user chooses one.

Revision ID: b8d2f4a6c913
Revises: e7a4c1d9b352
Create Date: 2026-12-02 09:00:00

"""

import sqlalchemy as sa
from alembic import op

# revision identifiers, used by Alembic.
revision = "b8d2f4a6c913"
down_revision = "e7a4c1d9b352"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("user") as batch:
        batch.add_column(sa.Column("locale", sa.String(length=16), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("user") as batch:
        batch.drop_column("locale")
