"""Database models of a season: players' ratings per game family, and leagues.

Ratings are stored (a row per player and family) and kept up to date by the writes
that finish, correct, remove, import or merge matches (`services.ratings`); a group's
`RatingState` says whether its stored ratings are current. A league is a group's
season: its settings, the substitutes its director credited, and its viewer links.
"""

from __future__ import annotations

from datetime import date, datetime
from typing import Any

from sqlalchemy import JSON, ForeignKey, String, UniqueConstraint
from sqlalchemy.orm import Mapped, mapped_column

from .extensions import Model
from .models import NAME_LENGTH, utcnow

FAMILY_LENGTH = 20


class Rating(Model):
    """A player's skill in one game family (openskill's mu and sigma) and the finished
    matches behind it."""

    __table_args__ = (UniqueConstraint("player_id", "family"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    player_id: Mapped[int] = mapped_column(ForeignKey("player.id", ondelete="CASCADE"))
    family: Mapped[str] = mapped_column(String(FAMILY_LENGTH))
    mu: Mapped[float]
    sigma: Mapped[float]
    matches: Mapped[int]


class RatingState(Model):
    """Whether a group's stored ratings are current: every change that needs a replay
    moves `wanted` on; a replay stores what it computed only if `wanted` did not move
    meanwhile, and then sets `done` to it. `last_*` names the last match rated (a match
    finishing after it is one more step; anything else is a replay)."""

    group_id: Mapped[int] = mapped_column(
        ForeignKey("group.id", ondelete="CASCADE"), primary_key=True
    )
    wanted: Mapped[int] = mapped_column(default=0)
    done: Mapped[int] = mapped_column(default=0)
    last_finished_at: Mapped[datetime | None]
    last_match_id: Mapped[int | None]
    started_at: Mapped[datetime | None]  # when the replay under way began

    @property
    def current(self) -> bool:
        return self.wanted == self.done


class League(Model):
    """A season of a group: its period (both ends included), the games that count
    (`variants`: preset keys, null for every game), how it is scored, best N evenings
    (null: all) and the evenings a player needs to be ranked."""

    __table_args__ = ({"sqlite_autoincrement": True},)  # ids never reused (see `backup`)

    id: Mapped[int] = mapped_column(primary_key=True)
    group_id: Mapped[int] = mapped_column(ForeignKey("group.id", ondelete="CASCADE"), index=True)
    name: Mapped[str] = mapped_column(String(NAME_LENGTH * 2))
    start: Mapped[date]
    end: Mapped[date]
    variants: Mapped[list[str] | None] = mapped_column(JSON)
    scoring: Mapped[str] = mapped_column(String(12))
    best_of: Mapped[int | None]
    min_evenings: Mapped[int] = mapped_column(default=1)
    created_by: Mapped[int | None] = mapped_column(ForeignKey("user.id", ondelete="SET NULL"))
    created_at: Mapped[datetime] = mapped_column(default=utcnow)

    def settings_json(self) -> dict[str, Any]:
        return {
            "start": self.start.isoformat(),
            "end": self.end.isoformat(),
            "scoring": self.scoring,
            "best_of": self.best_of,
            "min_evenings": self.min_evenings,
        }


class LeagueCredit(Model):
    """The director's word that a substitute's evening counts for the player replaced."""

    __table_args__ = (UniqueConstraint("league_id", "evening", "substitute_id"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    league_id: Mapped[int] = mapped_column(ForeignKey("league.id", ondelete="CASCADE"))
    evening: Mapped[date]
    substitute_id: Mapped[int] = mapped_column(ForeignKey("player.id", ondelete="CASCADE"))
    replaced_id: Mapped[int] = mapped_column(ForeignKey("player.id", ondelete="CASCADE"))
    created_by: Mapped[int | None] = mapped_column(ForeignKey("user.id", ondelete="SET NULL"))
    created_at: Mapped[datetime] = mapped_column(default=utcnow)


class LeagueLink(Model):
    """A revocable link that shows a league's standings to whoever opens it."""

    __table_args__ = ({"sqlite_autoincrement": True},)

    id: Mapped[int] = mapped_column(primary_key=True)
    league_id: Mapped[int] = mapped_column(ForeignKey("league.id", ondelete="CASCADE"), index=True)
    token: Mapped[str] = mapped_column(String(64), unique=True)
    created_by: Mapped[int | None] = mapped_column(ForeignKey("user.id", ondelete="SET NULL"))
    created_at: Mapped[datetime] = mapped_column(default=utcnow)
    revoked_at: Mapped[datetime | None]
