"""Sign-ins kept on the server: a session names its sign-in, which signing out ends

A session used to carry "user id:epoch", the epoch moved on by a new password. It now
carries "user id:sign-in key", a row of `sign_in`: signing out deletes the row, and a
copy of the session or "keep me signed in" cookie is then worth nothing. The epoch
goes; the sessions that carried it end (everyone signs in once more). Accounts and
everything else are kept as they are.

Revision ID: a1d5e3c7f920
Revises: f2a9c4d8b613
Create Date: 2026-11-28 08:00:00

"""

import sqlalchemy as sa
from alembic import op

# revision identifiers, used by Alembic.
revision = "a1d5e3c7f920"
down_revision = "f2a9c4d8b613"
branch_labels = None
depends_on = None


def upgrade():
    op.create_table(
        "sign_in",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("key", sa.String(length=64), nullable=False),
        sa.Column("user_id", sa.Integer(), nullable=False),
        sa.Column("created_at", sa.DateTime(), nullable=False),
        sa.ForeignKeyConstraint(
            ["user_id"], ["user.id"], name=op.f("fk_sign_in_user_id_user"), ondelete="CASCADE"
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_sign_in")),
        sa.UniqueConstraint("key", name=op.f("uq_sign_in_key")),
    )
    with op.batch_alter_table("sign_in", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_sign_in_user_id"), ["user_id"], unique=False)
    with op.batch_alter_table("user", schema=None) as batch_op:
        batch_op.drop_column("session_epoch")


def downgrade():
    with op.batch_alter_table("user", schema=None) as batch_op:
        batch_op.add_column(
            sa.Column("session_epoch", sa.Integer(), nullable=False, server_default="0")
        )
    with op.batch_alter_table("sign_in", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_sign_in_user_id"))
    op.drop_table("sign_in")
