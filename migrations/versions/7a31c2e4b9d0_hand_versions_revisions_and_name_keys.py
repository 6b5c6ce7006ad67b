"""Hand versions unique per match, match revisions, longer tokens, player name keys

A hand's version becomes the match revision that last wrote it, so a version a
phone read can never reappear on another hand; existing hands take their own
(never reused) id as their version, and each match's revision starts at the
highest of them. Players are matched on a casefolded key, the same on SQLite
and PostgreSQL; players whose names differed only by case are merged.

Revision ID: 7a31c2e4b9d0
Revises: 13fde996e707
Create Date: 2026-11-23 10:00:00

"""

import unicodedata

import sqlalchemy as sa
from alembic import op

revision = "7a31c2e4b9d0"
down_revision = "13fde996e707"
branch_labels = None
depends_on = None


def name_key(name):
    """As models.name_key on the day of this migration."""
    return unicodedata.normalize("NFKC", name.casefold())


def _recreate():
    """SQLite rebuilds a table to change it; PostgreSQL alters it in place."""
    return "always" if op.get_bind().dialect.name == "sqlite" else "auto"


def _merge_players(bind):
    player = sa.table("player", sa.column("id"), sa.column("name"), sa.column("name_key"))
    member = sa.table("side_member", sa.column("player_id"))
    kept = {}
    for player_id, name in bind.execute(sa.select(player.c.id, player.c.name).order_by("id")):
        key = name_key(name)
        if key in kept:
            bind.execute(
                member.update()
                .where(member.c.player_id == player_id)
                .values(player_id=kept[key])
            )
            bind.execute(player.delete().where(player.c.id == player_id))
        else:
            kept[key] = player_id
            bind.execute(
                player.update().where(player.c.id == player_id).values(name_key=key)
            )


def upgrade():
    bind = op.get_bind()
    with op.batch_alter_table("player") as batch_op:
        batch_op.add_column(sa.Column("name_key", sa.String(length=120), nullable=True))
    _merge_players(bind)
    with op.batch_alter_table("player", recreate=_recreate()) as batch_op:
        batch_op.alter_column("name_key", existing_type=sa.String(length=120), nullable=False)
        batch_op.drop_constraint("uq_player_name", type_="unique")
        batch_op.create_unique_constraint(batch_op.f("uq_player_name_key"), ["name_key"])

    with op.batch_alter_table(
        "match", recreate=_recreate(), table_kwargs={"sqlite_autoincrement": True}
    ) as batch_op:
        batch_op.add_column(
            sa.Column("revision", sa.Integer(), server_default=sa.text("0"), nullable=False)
        )
    with op.batch_alter_table(
        "hand", recreate=_recreate(), table_kwargs={"sqlite_autoincrement": True}
    ) as batch_op:
        batch_op.alter_column(
            "submission_token",
            existing_type=sa.String(length=64),
            type_=sa.String(length=128),
            existing_nullable=True,
        )

    hand = sa.table("hand", sa.column("id"), sa.column("match_id"), sa.column("version"))
    match = sa.table("match", sa.column("id"), sa.column("revision"))
    bind.execute(hand.update().values(version=hand.c.id))
    highest = (
        sa.select(sa.func.coalesce(sa.func.max(hand.c.version), 0))
        .where(hand.c.match_id == match.c.id)
        .scalar_subquery()
    )
    bind.execute(match.update().values(revision=highest))


def downgrade():
    hand = sa.table("hand", sa.column("submission_token"))
    too_long = sa.func.length(hand.c.submission_token) > 64
    op.get_bind().execute(hand.update().where(too_long).values(submission_token=None))
    with op.batch_alter_table("hand", recreate=_recreate()) as batch_op:
        batch_op.alter_column(
            "submission_token",
            existing_type=sa.String(length=128),
            type_=sa.String(length=64),
            existing_nullable=True,
        )
    with op.batch_alter_table("match", recreate=_recreate()) as batch_op:
        batch_op.drop_column("revision")
    with op.batch_alter_table("player", recreate=_recreate()) as batch_op:
        batch_op.drop_constraint("uq_player_name_key", type_="unique")
        batch_op.create_unique_constraint(batch_op.f("uq_player_name"), ["name"])
        batch_op.drop_column("name_key")
