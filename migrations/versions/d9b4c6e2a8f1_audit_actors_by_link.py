"""Changes made through a share link are kept by the link's number, not in words

An audit entry kept who made a change as words: a user's name, or "scorer link 3". A
link's entries now keep its number alone (`actor_link_id`, already there), and the
words are made where the trail is shown, in the reader's language.

Revision ID: d9b4c6e2a8f1
Revises: c3f7a9e1d5b2
Create Date: 2026-11-28 10:20:00

"""

import sqlalchemy as sa
from alembic import op


# revision identifiers, used by Alembic.
revision = "d9b4c6e2a8f1"
down_revision = "c3f7a9e1d5b2"
branch_labels = None
depends_on = None

entry = sa.table(
    "audit_entry",
    sa.column("actor", sa.String),
    sa.column("actor_link_id", sa.Integer),
)


def upgrade():
    op.execute(
        entry.update()
        .where(entry.c.actor_link_id.is_not(None), entry.c.actor.like("scorer link %"))
        .values(actor=None)
    )


def downgrade():
    op.execute(
        entry.update()
        .where(entry.c.actor_link_id.is_not(None), entry.c.actor.is_(None))
        .values(actor=sa.literal("scorer link ") + sa.cast(entry.c.actor_link_id, sa.String))
    )
