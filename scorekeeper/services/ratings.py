"""Players' ratings per game family, stored and kept current (see docs/clubs.md, "Ratings").

- A match that finishes after the last one rated is one more step of the replay
  (`Ratings.after`), taken in the write that finished it: a few rows.
- Anything else that changes what was rated (a finished match corrected, removed or
  no longer finished, a match finishing before the last one rated, an import, players
  merged) marks the group's ratings for a replay from scratch in that same write
  (`RatingState.wanted` moves on) and the replay runs once it commits
  (`rating_replays`). Until it is done the group's ratings are not current: pages say
  they are being brought up to date and show no number as current.

Every rating write takes the group's `RatingState` row first (after the match's own
lock), so two writes to one group's ratings never interleave.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from types import MappingProxyType

from sqlalchemy import delete, insert, select
from sqlalchemy.exc import IntegrityError

from ..clubs import FinishedMatch, PlayerRating, Ratings, replay, win_chances
from ..extensions import db
from ..models import Match, Player, utcnow
from ..rules import GameFamily
from ..season_models import Rating, RatingState
from . import rating_replays
from .rated_matches import counted_matches, finished_match, is_counted
from .storage import transaction

PROVISIONAL_UNDER = 10  # matches: a rating on fewer is marked provisional
RESTART_AFTER = timedelta(minutes=2)  # a replay started longer ago than this has died


def _state_for_write(group_id: int) -> RatingState:
    """The group's rating state, locked for this write (made if the group has none)."""
    query = (
        select(RatingState)
        .where(RatingState.group_id == group_id)
        .with_for_update()
        .execution_options(populate_existing=True)
    )
    state = db.session.execute(query).scalar_one_or_none()
    if state is None:
        try:
            with db.session.begin_nested():
                db.session.add(RatingState(group_id=group_id, wanted=0, done=0))
        except IntegrityError:  # made by another write meanwhile
            pass
        state = db.session.execute(query).scalar_one()
    return state


def invalidate(group_id: int) -> None:
    """The group's ratings need a replay: marked in this write, run after it commits."""
    state = _state_for_write(group_id)
    state.wanted += 1
    state.started_at = utcnow()
    rating_replays.ask_after_commit(group_id)


def match_settled(match: Match, was_counted: bool) -> None:
    """After a write settled the match's end: a match that now finished is one more step
    (when it finished after the last one rated and the ratings are current); a change
    to a match that counted (it may count no more) is a replay."""
    if match.group_id is None:
        return
    if was_counted:
        invalidate(match.group_id)
        return
    finished = finished_match(match) if is_counted(match) else None
    if finished is None:
        return
    state = _state_for_write(match.group_id)
    last = _last(state)
    if not state.current or (last is not None and finished.order_key <= last):
        invalidate(match.group_id)
        return
    _step(state, finished)


def _last(state: RatingState) -> tuple[datetime, int] | None:
    if state.last_finished_at is None or state.last_match_id is None:
        return None
    return (state.last_finished_at, state.last_match_id)


def _step(state: RatingState, match: FinishedMatch) -> None:
    """One more match on the stored ratings of its players."""
    players = [player for side in match.sides for player in side]
    family = match.family
    rows = {
        row.player_id: row
        for row in db.session.execute(
            select(Rating).where(Rating.player_id.in_(players), Rating.family == family.value)
        ).scalars()
    }
    before = {
        (player, family): PlayerRating(player, family, row.mu, row.sigma, row.matches)
        for player, row in rows.items()
    }
    after = Ratings(MappingProxyType(before), None).after(match)
    for player in players:
        rated = after.of(player, family)
        row = rows.get(player)
        if row is None:
            db.session.add(
                Rating(
                    player_id=player,
                    family=family.value,
                    mu=rated.mu,
                    sigma=rated.sigma,
                    matches=rated.matches,
                )
            )
        else:
            row.mu, row.sigma, row.matches = rated.mu, rated.sigma, rated.matches
    state.last_finished_at, state.last_match_id = match.order_key


def group_matches(group_id: int) -> list[FinishedMatch]:
    """Every match of the group that counts, in the order they finished."""
    return [counted.match for counted in counted_matches([Match.group_id == group_id])]


def replay_group(group_id: int) -> bool:
    """Replay the group's ratings from scratch and store them, unless another change
    asked for a replay meanwhile (that one stores its own); True when stored."""
    with transaction():
        state = _state_for_write(group_id)
        wanted = state.wanted
        state.started_at = utcnow()
    db.session.rollback()  # a fresh snapshot, taken after the mark above
    computed = replay(group_matches(group_id))
    with transaction():
        state = _state_for_write(group_id)
        if state.wanted != wanted:
            return False
        players = select(Player.id).where(Player.group_id == group_id)
        db.session.execute(delete(Rating).where(Rating.player_id.in_(players)))
        rows = [
            {
                "player_id": r.player,
                "family": r.family.value,
                "mu": r.mu,
                "sigma": r.sigma,
                "matches": r.matches,
            }
            for r in computed.by_player.values()
        ]
        if rows:
            db.session.execute(insert(Rating), rows)
        last = computed.last
        state.last_finished_at, state.last_match_id = last if last else (None, None)
        state.done, state.started_at = wanted, None
    return True


# --- reading ------------------------------------------------------------------------


@dataclass(frozen=True)
class Shown:
    """A rating as pages and the API show it: the player and their rating in a family."""

    player_id: int
    name: str
    rating: PlayerRating

    @property
    def provisional(self) -> bool:
        return self.rating.matches < PROVISIONAL_UNDER


def current(group_ids: Iterable[int]) -> dict[int, bool]:
    """Whether each group's stored ratings are current (a group never rated is). A
    replay that seems to have died (its server stopped) is started again here."""
    ids = sorted(set(group_ids))
    found = dict.fromkeys(ids, True)
    stale = db.session.execute(
        select(RatingState.group_id, RatingState.started_at).where(
            RatingState.group_id.in_(ids), RatingState.wanted != RatingState.done
        )
    ).all()
    runner = rating_replays.replays()
    restart = []
    for group_id, started_at in stale:
        found[group_id] = False
        old = started_at is None or utcnow() - started_at > RESTART_AFTER
        if old and not runner.running(group_id):
            restart.append(group_id)
    if restart:
        runner.start(restart)
    return found


def ratings_of(player_ids: Sequence[int]) -> dict[int, list[PlayerRating]]:
    """The stored ratings of these players, by player, in the order families are listed."""
    order = {family: index for index, family in enumerate(GameFamily)}
    found: dict[int, list[PlayerRating]] = {player: [] for player in player_ids}
    for row in db.session.execute(select(Rating).where(Rating.player_id.in_(player_ids))).scalars():
        family = GameFamily(row.family)
        found[row.player_id].append(
            PlayerRating(row.player_id, family, row.mu, row.sigma, row.matches)
        )
    for ratings in found.values():
        ratings.sort(key=lambda r: order[r.family])
    return found


def family_table(group_id: int, family: GameFamily) -> list[Shown]:
    """Every rated player of the group in a family, the highest rating first."""
    rows = db.session.execute(
        select(Player.id, Player.name, Rating)
        .join(Rating, Rating.player_id == Player.id)
        .where(Player.group_id == group_id, Rating.family == family.value)
    ).all()
    shown = [
        Shown(player_id, name, PlayerRating(player_id, family, r.mu, r.sigma, r.matches))
        for player_id, name, r in rows
    ]
    return sorted(shown, key=lambda s: (-s.rating.rating, s.name.casefold(), s.player_id))


def families_played(group_id: int) -> list[GameFamily]:
    """The families the group's players have ratings in, in the order they are listed."""
    found = set(
        db.session.execute(
            select(Rating.family)
            .join(Player, Player.id == Rating.player_id)
            .where(Player.group_id == group_id)
            .distinct()
        ).scalars()
    )
    return [family for family in GameFamily if family.value in found]


def chances(family: GameFamily, sides: Sequence[Sequence[int]]) -> tuple[float, ...] | None:
    """Each side's chance to win, when every player of every side has a rating in the
    family (at least one match behind it); else None."""
    players = [player for side in sides for player in side]
    if len(sides) < 2 or not all(sides) or len(set(players)) != len(players):
        return None
    rows = db.session.execute(
        select(Rating).where(Rating.player_id.in_(players), Rating.family == family.value)
    ).scalars()
    rated = {
        (row.player_id, family): PlayerRating(row.player_id, family, row.mu, row.sigma, row.matches)
        for row in rows
    }
    if len(rated) != len(players):
        return None
    return win_chances(Ratings(MappingProxyType(rated)), family, sides)
