"""League standings: each player's points per evening over a season, best N of M.

The caller gathers the points (`vp`: an entry's VP, byes and penalties included,
go to each of its players on the event's evening; `wdl`: `wdl_points` of every
finished match); this module adds them up per evening, moves a substitute's
evening to the player replaced where the director credited it, and ranks.

Ties: CLUBS.md asks a league to break ties as an event does, and its API
contract orders players by more points, then more evenings, then name. A
league has no VP or MP differences of its own, so the contract's order is the
one used: points, evenings, the name compared without case, the exact name,
then the player id, so every player has a place of their own and the order
never depends on how the data arrived.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from datetime import UTC, date, datetime, tzinfo
from enum import StrEnum

from .matches import FinishedMatch
from .problems import InvalidSettings, Problem


class LeagueScoring(StrEnum):
    VP = "vp"
    WDL = "wdl"


@dataclass(frozen=True)
class LeagueSettings:
    """The period (both ends included), the scoring, best N evenings (None: all) and the
    evenings a player needs to be ranked."""

    start: date
    end: date
    scoring: LeagueScoring
    best_of: int | None = None
    min_evenings: int = 1

    def __post_init__(self) -> None:
        problems = league_settings_problems(
            self.start, self.end, self.scoring, self.best_of, self.min_evenings
        )
        if problems:
            raise InvalidSettings(problems)

    def covers(self, evening: date) -> bool:
        return self.start <= evening <= self.end


def league_settings_problems(
    start: object, end: object, scoring: object, best_of: object, min_evenings: object
) -> tuple[Problem, ...]:
    """Every problem of a league's settings at once (variants are the caller's: they are
    checked against the presets)."""
    problems: list[Problem] = []
    for name, value in (("start", start), ("end", end)):
        if not isinstance(value, date) or isinstance(value, datetime):
            problems.append(Problem(name, "league.not_a_date"))
    if isinstance(start, date) and isinstance(end, date) and end < start:
        problems.append(Problem("end", "league.end_before_start"))
    if scoring not in set(LeagueScoring):
        problems.append(Problem("scoring", "league.unknown_scoring"))
    for name, count in (("best_of", best_of), ("min_evenings", min_evenings)):
        if name == "best_of" and count is None:
            continue
        if not isinstance(count, int) or isinstance(count, bool) or count < 1:
            problems.append(Problem(name, "league.below_one", {"min": 1}))
    return tuple(problems)


def read_league_settings(data: Mapping[str, object]) -> LeagueSettings:
    """Settings from the API's JSON (ISO dates); raises InvalidSettings with every problem."""
    start, end = _iso_date(data.get("start")), _iso_date(data.get("end"))
    scoring = data.get("scoring")
    best_of = data.get("best_of")
    min_evenings = data.get("min_evenings", 1)
    problems = league_settings_problems(start, end, scoring, best_of, min_evenings)
    if problems:
        raise InvalidSettings(problems)
    assert start is not None
    assert end is not None
    assert isinstance(min_evenings, int)
    assert best_of is None or isinstance(best_of, int)
    return LeagueSettings(start, end, LeagueScoring(str(scoring)), best_of, min_evenings)


def _iso_date(value: object) -> date | None:
    if not isinstance(value, str):
        return None
    try:
        return date.fromisoformat(value)
    except ValueError:
        return None


@dataclass(frozen=True)
class EveningPoints:
    """Points a player earned on an evening (one event or match; several add up), and in a
    `vp` league the event that earned them (its card names it)."""

    evening: date
    player: int
    points: int
    event: int | None = None


@dataclass(frozen=True)
class SubstituteCredit:
    """The director's word that the substitute's evening counts for the player replaced."""

    evening: date
    substitute: int
    replaced: int

    def __post_init__(self) -> None:
        if self.substitute == self.replaced:
            raise ValueError("a substitute replaces someone else")


@dataclass(frozen=True)
class LeagueRow:
    """`rank` is None for a player below the minimum of evenings (`ranked` false)."""

    rank: int | None
    player: int
    points: int
    evenings: int
    per_evening: tuple[int | None, ...]
    ranked: bool


@dataclass(frozen=True)
class LeagueStandings:
    evenings: tuple[date, ...]
    rows: tuple[LeagueRow, ...]


def evening_of(finished_at: datetime, zone: tzinfo = UTC) -> date:
    """A match's evening: the date it finished in the server's time zone (a naive time
    is taken as UTC)."""
    if finished_at.tzinfo is None:
        finished_at = finished_at.replace(tzinfo=UTC)
    return finished_at.astimezone(zone).date()


def wdl_points(match: FinishedMatch, evening: date) -> tuple[EveningPoints, ...]:
    """2 to each player of the winning side, 0 to the others; in a draw 1 to each player
    of the sides drawn at the top (every other side loses)."""
    top = max(match.totals)
    points: list[EveningPoints] = []
    for index, side in enumerate(match.sides):
        if match.winner is not None:
            earned = 2 if index == match.winner else 0
        else:
            earned = 1 if match.totals[index] == top else 0
        points += [EveningPoints(evening, player, earned) for player in side]
    return tuple(points)


def entry_points(
    evening: date, players: Iterable[int], vp: int, event: int | None = None
) -> tuple[EveningPoints, ...]:
    """An entry's VP of one event go to each of its players."""
    return tuple(EveningPoints(evening, player, vp, event) for player in players)


def league_standings(
    settings: LeagueSettings,
    points: Iterable[EveningPoints],
    names: Mapping[int, str],
    credits: Iterable[SubstituteCredit] = (),
) -> LeagueStandings:
    """Every player with an evening in the period, ranked; `names` names each of them."""
    by_player: defaultdict[int, defaultdict[date, int]] = defaultdict(lambda: defaultdict(int))
    for item in points:
        if settings.covers(item.evening):
            by_player[item.player][item.evening] += item.points
    _credit(by_player, credits)
    evenings = tuple(sorted({evening for days in by_player.values() for evening in days}))
    rows: list[LeagueRow] = []
    for player, days in by_player.items():
        if not days:
            continue
        best = sorted(days.values(), reverse=True)[: settings.best_of]
        per_evening = tuple(days.get(evening) for evening in evenings)
        ranked = len(days) >= settings.min_evenings
        rows.append(LeagueRow(None, player, sum(best), len(days), per_evening, ranked))

    def order(row: LeagueRow) -> tuple[bool, int, int, str, str, int]:
        name = names[row.player]
        return (not row.ranked, -row.points, -row.evenings, name.casefold(), name, row.player)

    rows.sort(key=order)
    placed = [replace(row, rank=rank) for rank, row in enumerate(_ranked(rows), start=1)]
    return LeagueStandings(evenings, (*placed, *(row for row in rows if not row.ranked)))


def counted_evenings(per_evening: Sequence[int | None], best_of: int | None) -> tuple[bool, ...]:
    """Which of a player's evenings make their points: the best `best_of` of those played
    (all of them without a limit); of evenings with equal points, the earlier counts."""
    played = [(-points, index) for index, points in enumerate(per_evening) if points is not None]
    best = {index for _, index in sorted(played)[:best_of]}
    return tuple(index in best for index in range(len(per_evening)))


def _ranked(rows: Iterable[LeagueRow]) -> Iterable[LeagueRow]:
    return (row for row in rows if row.ranked)


def _credit(
    by_player: defaultdict[int, defaultdict[date, int]], credits: Iterable[SubstituteCredit]
) -> None:
    """Move each credited substitute's evening to the player replaced (what each earned
    themselves: credits do not chain)."""
    credits = tuple(credits)
    keys = [(credit.evening, credit.substitute) for credit in credits]
    if len(set(keys)) != len(keys):
        raise ValueError("a substitute replaces one player an evening")
    moved: list[tuple[SubstituteCredit, int]] = []
    for credit in credits:
        days = by_player.get(credit.substitute)
        if days is not None and credit.evening in days:
            moved.append((credit, days.pop(credit.evening)))
    for credit, earned in moved:
        by_player[credit.replaced][credit.evening] += earned
