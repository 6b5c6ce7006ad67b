"""A match's hand numbers checked at the end of each statement (PostgreSQL)

Removing a hand moves every later hand up one number. PostgreSQL checks a plain unique
key row by row, so that took two statements through negative numbers; a key declared
DEFERRABLE INITIALLY IMMEDIATE is checked at the end of each statement, and one
statement does it. SQLite has no such clause (it checks row by row): nothing changes
there. The hands and their numbers are kept as they are.

Revision ID: f2a9c4d8b613
Revises: e5b1c8f3a926
Create Date: 2026-11-26 06:30:00

"""

from alembic import op

# revision identifiers, used by Alembic.
revision = "f2a9c4d8b613"
down_revision = "e5b1c8f3a926"
branch_labels = None
depends_on = None

KEY = "uq_hand_match_id_number"


def _number_key(deferrable: bool) -> None:
    if op.get_bind().dialect.name != "postgresql":
        return
    op.drop_constraint(KEY, "hand", type_="unique")
    if deferrable:
        op.create_unique_constraint(
            KEY, "hand", ["match_id", "number"], deferrable=True, initially="IMMEDIATE"
        )
    else:
        op.create_unique_constraint(KEY, "hand", ["match_id", "number"])


def upgrade():
    _number_key(deferrable=True)


def downgrade():
    _number_key(deferrable=False)
