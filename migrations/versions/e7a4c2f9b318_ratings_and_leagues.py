"""Ratings per player and game family, and leagues

New tables: `rating` (a player's mu, sigma and matches per game family), `rating_state`
(per group: whether its stored ratings are current, and the last match rated),
`league`, `league_credit` (substitutes credited by a league's director) and
`league_link` (a league's viewer links). No existing row changes.

Every group's ratings are filled from its finished matches (won or drawn, not
abandoned), replayed in the order they finished, as the app's replay does: this
migration uses the club core's `replay` (scorekeeper.clubs) and each preset's family
(a match's frozen rules name it; rules frozen before they did take their preset's).

Revision ID: e7a4c2f9b318
Revises: a7c3e9d2b541
Create Date: 2026-11-28 10:00:00

"""

from __future__ import annotations

import logging
from collections import defaultdict
from typing import Any

import sqlalchemy as sa
from alembic import op

from scorekeeper.clubs import FinishedMatch, replay
from scorekeeper.rules import PRESETS, GameFamily

revision = "e7a4c2f9b318"
down_revision = "a7c3e9d2b541"
branch_labels = None
depends_on = None

GROUP = sa.table("group", sa.column("id", sa.Integer))
MATCH = sa.table(
    "match",
    sa.column("id", sa.Integer),
    sa.column("group_id", sa.Integer),
    sa.column("variant", sa.String),
    sa.column("rules", sa.JSON),
    sa.column("status", sa.String),
    sa.column("winner", sa.Integer),
    sa.column("finished_at", sa.DateTime),
)
SIDE = sa.table("side", sa.column("id"), sa.column("match_id"), sa.column("seat"))
MEMBER = sa.table(
    "side_member", sa.column("side_id"), sa.column("player_id"), sa.column("position")
)
HAND = sa.table("hand", sa.column("id"), sa.column("match_id"))
HAND_SIDE = sa.table("hand_side", sa.column("hand_id"), sa.column("seat"), sa.column("total"))
COUNTED = ("finished", "drawn")
log = logging.getLogger("alembic.runtime.migration")


def upgrade():
    op.create_table(
        "league",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("group_id", sa.Integer(), nullable=False),
        sa.Column("name", sa.String(length=80), nullable=False),
        sa.Column("start", sa.Date(), nullable=False),
        sa.Column("end", sa.Date(), nullable=False),
        sa.Column("variants", sa.JSON(), nullable=True),
        sa.Column("scoring", sa.String(length=12), nullable=False),
        sa.Column("best_of", sa.Integer(), nullable=True),
        sa.Column("min_evenings", sa.Integer(), nullable=False),
        sa.Column("created_by", sa.Integer(), nullable=True),
        sa.Column("created_at", sa.DateTime(), nullable=False),
        sa.ForeignKeyConstraint(
            ["created_by"], ["user.id"], name=op.f("fk_league_created_by_user"), ondelete="SET NULL"
        ),
        sa.ForeignKeyConstraint(
            ["group_id"], ["group.id"], name=op.f("fk_league_group_id_group"), ondelete="CASCADE"
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_league")),
        sqlite_autoincrement=True,
    )
    with op.batch_alter_table("league", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_league_group_id"), ["group_id"], unique=False)

    op.create_table(
        "rating_state",
        sa.Column("group_id", sa.Integer(), nullable=False),
        sa.Column("wanted", sa.Integer(), nullable=False),
        sa.Column("done", sa.Integer(), nullable=False),
        sa.Column("last_finished_at", sa.DateTime(), nullable=True),
        sa.Column("last_match_id", sa.Integer(), nullable=True),
        sa.Column("started_at", sa.DateTime(), nullable=True),
        sa.ForeignKeyConstraint(
            ["group_id"], ["group.id"], name=op.f("fk_rating_state_group_id_group"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("group_id", name=op.f("pk_rating_state")),
    )
    op.create_table(
        "league_credit",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("league_id", sa.Integer(), nullable=False),
        sa.Column("evening", sa.Date(), nullable=False),
        sa.Column("substitute_id", sa.Integer(), nullable=False),
        sa.Column("replaced_id", sa.Integer(), nullable=False),
        sa.Column("created_by", sa.Integer(), nullable=True),
        sa.Column("created_at", sa.DateTime(), nullable=False),
        sa.ForeignKeyConstraint(
            ["created_by"], ["user.id"], name=op.f("fk_league_credit_created_by_user"),
            ondelete="SET NULL",
        ),
        sa.ForeignKeyConstraint(
            ["league_id"], ["league.id"], name=op.f("fk_league_credit_league_id_league"),
            ondelete="CASCADE",
        ),
        sa.ForeignKeyConstraint(
            ["replaced_id"], ["player.id"], name=op.f("fk_league_credit_replaced_id_player"),
            ondelete="CASCADE",
        ),
        sa.ForeignKeyConstraint(
            ["substitute_id"], ["player.id"], name=op.f("fk_league_credit_substitute_id_player"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_league_credit")),
        sa.UniqueConstraint(
            "league_id", "evening", "substitute_id",
            name=op.f("uq_league_credit_league_id_evening_substitute_id"),
        ),
    )
    op.create_table(
        "league_link",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("league_id", sa.Integer(), nullable=False),
        sa.Column("token", sa.String(length=64), nullable=False),
        sa.Column("created_by", sa.Integer(), nullable=True),
        sa.Column("created_at", sa.DateTime(), nullable=False),
        sa.Column("revoked_at", sa.DateTime(), nullable=True),
        sa.ForeignKeyConstraint(
            ["created_by"], ["user.id"], name=op.f("fk_league_link_created_by_user"),
            ondelete="SET NULL",
        ),
        sa.ForeignKeyConstraint(
            ["league_id"], ["league.id"], name=op.f("fk_league_link_league_id_league"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_league_link")),
        sa.UniqueConstraint("token", name=op.f("uq_league_link_token")),
        sqlite_autoincrement=True,
    )
    with op.batch_alter_table("league_link", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_league_link_league_id"), ["league_id"], unique=False)

    op.create_table(
        "rating",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("player_id", sa.Integer(), nullable=False),
        sa.Column("family", sa.String(length=20), nullable=False),
        sa.Column("mu", sa.Double(), nullable=False),
        sa.Column("sigma", sa.Double(), nullable=False),
        sa.Column("matches", sa.Integer(), nullable=False),
        sa.ForeignKeyConstraint(
            ["player_id"], ["player.id"], name=op.f("fk_rating_player_id_player"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_rating")),
        sa.UniqueConstraint("player_id", "family", name=op.f("uq_rating_player_id_family")),
    )
    _fill_ratings(op.get_bind())


def _family(variant: str, rules: Any) -> GameFamily | None:
    named = rules.get("family") if isinstance(rules, dict) else None
    if named in set(GameFamily):
        return GameFamily(named)
    preset = PRESETS.get(variant)
    return preset.family if preset is not None else None


def _finished_matches(bind: sa.Connection) -> dict[int, list[FinishedMatch]]:
    """Every group's finished matches (won or drawn), as the club core reads them."""
    counted = sa.and_(MATCH.c.status.in_(COUNTED), MATCH.c.finished_at.is_not(None))
    rows = bind.execute(
        sa.select(
            MATCH.c.id, MATCH.c.group_id, MATCH.c.variant, MATCH.c.rules, MATCH.c.winner,
            MATCH.c.finished_at,
        ).where(counted, MATCH.c.group_id.is_not(None))
    ).all()
    sides: defaultdict[int, defaultdict[int, list[tuple[int, int]]]] = defaultdict(
        lambda: defaultdict(list)
    )
    for match_id, seat, position, player_id in bind.execute(
        sa.select(SIDE.c.match_id, SIDE.c.seat, MEMBER.c.position, MEMBER.c.player_id)
        .join(MEMBER, MEMBER.c.side_id == SIDE.c.id)
        .join(MATCH, MATCH.c.id == SIDE.c.match_id)
        .where(counted)
    ):
        sides[match_id][seat].append((position, player_id))
    totals: defaultdict[int, dict[int, int]] = defaultdict(dict)
    for match_id, seat, total in bind.execute(
        sa.select(HAND.c.match_id, HAND_SIDE.c.seat, sa.func.sum(HAND_SIDE.c.total))
        .join(HAND_SIDE, HAND_SIDE.c.hand_id == HAND.c.id)
        .join(MATCH, MATCH.c.id == HAND.c.match_id)
        .where(counted)
        .group_by(HAND.c.match_id, HAND_SIDE.c.seat)
    ):
        totals[match_id][seat] = int(total)
    found: defaultdict[int, list[FinishedMatch]] = defaultdict(list)
    for match_id, group_id, variant, rules, winner, finished_at in rows:
        family = _family(variant, rules)
        seats = sorted(sides[match_id])
        teams = tuple(tuple(p for _, p in sorted(sides[match_id][s])) for s in seats)
        try:
            scored = tuple(totals[match_id].get(seat, 0) for seat in seats)
            if family is None:
                raise ValueError("a game of no known family")
            match = FinishedMatch(match_id, finished_at, family, teams, scored, winner)
        except ValueError as error:
            log.warning("Match %s is not rated: %s", match_id, error)
            continue
        found[group_id].append(match)
    return found


def _fill_ratings(bind: sa.Connection) -> None:
    rating = sa.table(
        "rating", sa.column("player_id"), sa.column("family"), sa.column("mu"),
        sa.column("sigma"), sa.column("matches"),
    )
    state = sa.table(
        "rating_state", sa.column("group_id"), sa.column("wanted"), sa.column("done"),
        sa.column("last_finished_at"), sa.column("last_match_id"),
    )
    matches = _finished_matches(bind)
    for group_id in bind.execute(sa.select(GROUP.c.id).order_by(GROUP.c.id)).scalars():
        ratings = replay(matches.get(group_id, ()))
        rows = [
            {"player_id": r.player, "family": r.family.value, "mu": r.mu, "sigma": r.sigma,
             "matches": r.matches}
            for r in ratings.by_player.values()
        ]  # fmt: skip
        if rows:
            bind.execute(rating.insert(), rows)
        last_at, last_id = ratings.last or (None, None)
        bind.execute(
            state.insert().values(
                group_id=group_id, wanted=0, done=0, last_finished_at=last_at,
                last_match_id=last_id,
            )
        )


def downgrade():
    op.drop_table("rating")
    with op.batch_alter_table("league_link", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_league_link_league_id"))
    op.drop_table("league_link")
    op.drop_table("league_credit")
    op.drop_table("rating_state")
    with op.batch_alter_table("league", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_league_group_id"))
    op.drop_table("league")
