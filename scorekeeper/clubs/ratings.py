"""Players' ratings per game family, by openskill's Plackett-Luce model.

Ratings are a pure replay of finished matches in the order they finished (then
by id): recomputing after a correction, a removal or an import is replaying
again, and a newly finished match is one more step from the last state. Each
match is one `rate` call with a team per side and the sides ranked as
`FinishedMatch.places` says (the winner first, equal totals equal).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from dataclasses import field as dataclass_field
from datetime import datetime
from types import MappingProxyType

from openskill.models import PlackettLuce

from ..rules import GameFamily
from .matches import FinishedMatch

MODEL = PlackettLuce()  # the library's defaults: mu 25, sigma 25/3
CONSERVATIVE_SIGMAS = 3  # the rating shown is mu - 3 sigma: likely lower than the skill


@dataclass(frozen=True)
class PlayerRating:
    """A player's skill estimate in one family and the matches behind it."""

    player: int
    family: GameFamily
    mu: float
    sigma: float
    matches: int = 0

    def __post_init__(self) -> None:
        if self.sigma <= 0 or self.matches < 0:
            raise ValueError("a rating has a positive sigma and a count of matches")

    @property
    def rating(self) -> float:
        return self.mu - CONSERVATIVE_SIGMAS * self.sigma


Key = tuple[int, GameFamily]


@dataclass(frozen=True)
class Ratings:
    """Every rated player's rating per family after the matches up to `last`."""

    by_player: Mapping[Key, PlayerRating] = dataclass_field(
        default_factory=lambda: MappingProxyType({}), hash=False
    )
    last: tuple[datetime, int] | None = None

    def __post_init__(self) -> None:
        if any(key != (r.player, r.family) for key, r in self.by_player.items()):
            raise ValueError("ratings are kept by player and family")

    def of(self, player: int, family: GameFamily) -> PlayerRating:
        """The player's rating in the family; a newcomer has the model's starting one."""
        return _of(self.by_player, player, family)

    def of_player(self, player: int) -> tuple[PlayerRating, ...]:
        """The families the player has matches in, in the order the families are listed."""
        found = (self.by_player.get((player, family)) for family in GameFamily)
        return tuple(rating for rating in found if rating is not None)

    def after(self, match: FinishedMatch) -> Ratings:
        """These ratings with one more match, which must have finished after the last."""
        return replay((match,), start=self)


def replay(matches: Iterable[FinishedMatch], start: Ratings | None = None) -> Ratings:
    """The ratings after every match, taken by (finished_at, id), from `start` (default:
    nobody rated). Raises ValueError for a match not after `start.last`."""
    start = start or Ratings()
    ordered = sorted(matches, key=lambda match: match.order_key)
    if ordered and start.last is not None and ordered[0].order_key <= start.last:
        raise ValueError("a match finished before the last one rated: replay from the start")
    table = dict(start.by_player)
    for match in ordered:
        _rate(table, match)
    last = ordered[-1].order_key if ordered else start.last
    return Ratings(MappingProxyType(table), last)


def _rate(table: dict[Key, PlayerRating], match: FinishedMatch) -> None:
    """One `rate` call: a team per side, ranks from the match's places."""
    current = [[_of(table, player, match.family) for player in side] for side in match.sides]
    teams = [[MODEL.rating(mu=r.mu, sigma=r.sigma) for r in side] for side in current]
    ranks = [float(place) for place in match.places()]
    for side, rated in zip(current, MODEL.rate(teams, ranks=ranks), strict=True):
        for before, after in zip(side, rated, strict=True):
            key = (before.player, match.family)
            table[key] = PlayerRating(*key, after.mu, after.sigma, before.matches + 1)


def _of(table: Mapping[Key, PlayerRating], player: int, family: GameFamily) -> PlayerRating:
    return table.get((player, family)) or PlayerRating(player, family, MODEL.mu, MODEL.sigma)


def win_chances(
    ratings: Ratings, family: GameFamily, sides: Sequence[Sequence[int]]
) -> tuple[float, ...]:
    """Each side's chance to win a new match (they add up to 1), for the new-match page."""
    if len(sides) < 2 or not all(sides):
        raise ValueError("a match has two or more sides of players")
    teams = [
        [MODEL.rating(mu=r.mu, sigma=r.sigma) for r in (ratings.of(p, family) for p in side)]
        for side in sides
    ]
    return tuple(MODEL.predict_win(teams))
