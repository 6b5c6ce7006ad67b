"""History in order from its index; a player's seats from one index

The history index on match becomes (group_id, finished_at, id, status, variant): the
history's order is (finished_at, id), so a far page walks the index with no sort of
the rows it skips. A new index on side_member (side_id, player_id) answers the
player filter's "is this player seated at this match?" without reading the table.
Only indexes change: no row is touched.

Revision ID: c4e9a2d7f813
Revises: b3a7d41c9e25
Create Date: 2026-11-24 16:40:00

"""

from alembic import op


# revision identifiers, used by Alembic.
revision = "c4e9a2d7f813"
down_revision = "b3a7d41c9e25"
branch_labels = None
depends_on = None

HISTORY = "ix_match_group_id_finished_at"
SEATED = "ix_side_member_side_id_player_id"


def upgrade():
    # Plain CREATE/DROP INDEX: no table is rebuilt, on SQLite either.
    op.drop_index(HISTORY, table_name="match")
    op.create_index(HISTORY, "match", ["group_id", "finished_at", "id", "status", "variant"])
    op.create_index(SEATED, "side_member", ["side_id", "player_id"])


def downgrade():
    op.drop_index(SEATED, table_name="side_member")
    op.drop_index(HISTORY, table_name="match")
    op.create_index(HISTORY, "match", ["group_id", "finished_at", "status", "variant"])
