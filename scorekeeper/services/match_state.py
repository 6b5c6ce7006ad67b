"""Reading a match: its frozen rules, its seating, the running totals and the scoreboard."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any, NamedTuple

from sqlalchemy import bindparam, func, select
from sqlalchemy.orm import defer, joinedload

from .. import words
from ..caches import cache
from ..database import plain_rows, rows_of
from ..extensions import db
from ..models import Hand, HandSide, Match, Side, SideMember
from ..rules import (
    GameResult,
    MeldRequirement,
    Rules,
    deal_label,
    game_result,
    instant_winner,
    meld_requirement,
    rules_from_json,
)
from ..rules.model import GameEndMode, TieRule

MAX_ID = 2**31 - 1  # the largest id every supported database can hold
ABANDONED = "abandoned"  # a match given up: no more hands, kept in the history


@dataclass(frozen=True)
class SideView:
    seat: int
    name: str
    players: list[str]
    total: int
    lead: int
    next_meld: MeldRequirement
    progress: int
    winner: bool


class HandRow(NamedTuple):
    """A hand on the scoreboard (a tuple: a long match makes one per hand per read)."""

    number: int
    dealer: str
    totals: list[int]
    running: list[int]
    version: int
    id: int


@dataclass(frozen=True)
class MatchState:
    match: Match
    rules: Rules
    sides: list[SideView]
    hands: list[HandRow]
    result: GameResult
    next_number: int
    next_dealer: str
    table_order: list[str]
    target: int  # the target of this table (by layout where the game has targets by layout)

    @property
    def finished(self) -> bool:
        """Won by a side."""
        return self.result.finished

    @property
    def over(self) -> bool:
        """No more hands are played: won or drawn (abandoned is the match's status)."""
        return self.result.over

    @property
    def deals(self) -> int | None:
        """How many deals the game has, in a deal-count game; None in a game to a target."""
        end = self.rules.game_end
        return end.deals if end.mode == GameEndMode.DEALS else None

    @property
    def deal_label(self) -> str | None:
        """The next deal of a deal-count game ("Deal 3 of 4"; None in a game to a target);
        a deal played after the last, to break a tie, is an extra deal."""
        deal = deal_label(self.rules, self.next_number)
        return words.deal_text(deal) if deal is not None else None


def _layout_of(rules: Rules, sides: int) -> str | None:
    """The layout key a number of sides means, when only one layout has that many."""
    keys = [layout.key for layout in rules.layouts if layout.sides == sides]
    return keys[0] if len(keys) == 1 else None


def valid_id(match_id: int) -> bool:
    return 0 < match_id <= MAX_ID


# What every match request reads, built once with parameters (building a statement
# costs about as much as running it).
FROZEN = ("rules", "options")  # a match's, fixed at its start: read apart (`match_rules`)
MATCH_WITH_SIDES = (
    select(Match)
    .where(Match.id == bindparam("match_id"))
    .options(
        *(defer(getattr(Match, name)) for name in FROZEN),
        joinedload(Match.sides).joinedload(Side.members).joinedload(SideMember.player),
    )
)
HAND_KEYS = (
    select(Hand.id, Hand.number, Hand.version, HandSide.seat, HandSide.total)
    .join(HandSide, HandSide.hand_id == Hand.id)
    .where(Hand.match_id == bindparam("match_id"))
    .order_by(Hand.number, HandSide.seat)
)
HAND_KEYS_SINCE = HAND_KEYS.where(Hand.version > bindparam("since"))
HAND_COUNT = select(func.count(Hand.id)).where(Hand.match_id == bindparam("match_id"))
_SIDES = select(HandSide.hand_id, HandSide.record, HandSide.total, HandSide.lines)
HAND_SIDES = _SIDES.where(HandSide.hand_id.in_(bindparam("ids", expanding=True))).order_by(
    HandSide.hand_id, HandSide.seat
)
SIDES_OF_HAND = _SIDES.where(HandSide.hand_id == bindparam("id")).order_by(HandSide.seat)


def load_match(match_id: int) -> Match | None:
    """A match with its sides and players, in one query, or None.

    Not its hands, audit trail or JSON columns: each view reads what it shows of those
    (`hand_keys`, `hand_records`, `audit.audit_rows`), so a long match costs no more to
    open than a short one.
    """
    if not valid_id(match_id):
        return None
    found = db.session.execute(MATCH_WITH_SIDES, {"match_id": match_id})
    return found.unique().scalar_one_or_none()


def match_rules(match: Match) -> Rules:
    """The rules frozen into the match, built once per match: they never change.

    The key holds the start time too, so a match id met again in a restored database
    is never given another match's rules.
    """
    return cache("rules").get((match.id, match.created_at), lambda: rules_from_json(match.rules))


def rules_kept(match: Match) -> bool:
    """Whether `match_rules` and `frozen_json` have the match's rules without reading its
    row (a detached match cannot read it)."""
    keys = [(match.id, match.created_at), ("json", match.id, match.created_at)]
    return None not in cache("rules").peek_many(keys)


def frozen_json(match: Match) -> tuple[dict[str, Any], dict[str, Any]]:
    """The options and the resolved rules a match was started with, as stored (JSON);
    read once per match, as `match_rules`."""
    return cache("rules").get(
        ("json", match.id, match.created_at), lambda: (match.options, match.rules)
    )


def table_order(match: Match) -> list[str]:
    """Players in seating order, clockwise: the deal passes along this list."""
    return [
        side.members[position].player.name
        for position in range(match.players_per_side)
        for side in match.sides
    ]


def dealer_of(match: Match, order: list[str], number: int) -> str:
    """Who deals hand `number`: one seat clockwise per hand from the first dealer."""
    return dealers_of(match, order, (number,))[0]


def dealers_of(match: Match, order: list[str], numbers: Iterable[int]) -> list[str]:
    """Who deals each of these hands (`dealer_of` each, the match's first dealer read once:
    a long match asks for every hand)."""
    first, seats = match.first_dealer, len(order)
    return [order[(first + number - 1) % seats] for number in numbers]


def side_names(match: Match) -> list[str]:
    return [side.name for side in match.sides]


def running_totals(
    hands: Sequence[Sequence[int]], sides: int, start: Sequence[int] | None = None
) -> list[list[int]]:
    """The totals after each of these hands, from `start` (the totals before the first
    of them; none: nothing yet)."""
    running = list(start) if start is not None else [0] * sides
    out = []
    for totals in hands:
        running = [r + t for r, t in zip(running, totals, strict=True)]
        out.append(running)
    return out


class HandKey(NamedTuple):
    """What identifies a hand and its state; its totals by seat (a tuple, as HandRow)."""

    id: int
    number: int
    version: int
    totals: list[int]


def hand_keys(match_id: int, sides: int) -> list[HandKey]:
    """Each hand's identity and totals by seat, in hand order, in one query (no JSON)."""
    return _keys_of(plain_rows(db.session, HAND_KEYS, {"match_id": match_id}), sides)


def _keys_of(rows: Sequence[Any], sides: int) -> list[HandKey]:
    keys: dict[int, HandKey] = {}
    for hand_id, number, version, seat, total in rows:
        key = keys.get(hand_id)
        if key is None:
            key = keys[hand_id] = HandKey(hand_id, number, version, [0] * sides)
        key.totals[seat] = total
    return list(keys.values())


def keep_keys(match_id: int, revision: int, keys: Sequence[HandKey]) -> None:
    """The hands of a match at a revision, from the write that made it (kept once it
    commits, one revision per match): the next save is planned from them."""
    cache("parts").put(("keys", match_id), (revision, list(keys)))


def current_keys(match_id: int, revision: int, sides: int) -> list[HandKey]:
    """The match's `hand_keys` at `revision`, the one the caller's snapshot sees.

    When this process kept the hands of an earlier revision (another worker saved
    since), only the hands written after it are read: a write stamps each hand it
    writes with its revision (`Hand.version`) and hands are only added, changed or
    removed. A removal renumbers hands without a new version, so a count that does not
    add up means one happened, and all are read, as with nothing kept. (A copy: the
    caller may add to it.)
    """
    kept: tuple[int, list[HandKey]] | None = cache("parts").peek(("keys", match_id))
    if kept is not None and kept[0] == revision:
        return list(kept[1])
    if kept is not None and kept[0] < revision:
        params = {"match_id": match_id, "since": kept[0]}
        newer = _keys_of(plain_rows(db.session, HAND_KEYS_SINCE, params), sides)
        [(count,)] = plain_rows(db.session, HAND_COUNT, {"match_id": match_id})
        known = kept[1]
        added = list(range(len(known) + 1, count + 1))  # (none when hands were removed)
        if len(known) + len(newer) == count and [key.number for key in newer] == added:
            keys = [*known, *newer]  # only hands added after the kept ones (mostly so)
        else:
            keys = _updated(known, newer)
            if len(keys) != count or any(key.number != n for n, key in enumerate(keys, 1)):
                keys = []
        if keys or not count:
            keep_keys(match_id, revision, keys)
            return list(keys)
    keys = hand_keys(match_id, sides)
    keep_keys(match_id, revision, keys)
    return list(keys)


def _updated(kept: Sequence[HandKey], newer: Sequence[HandKey]) -> list[HandKey]:
    """The kept keys with the newer ones in place of their hand's, new hands after them."""
    keys = list(kept)
    place = {key.id: index for index, key in enumerate(keys)}
    for key in newer:
        index = place.get(key.id)
        if index is None:
            keys.append(key)
        else:
            keys[index] = key
    return sorted(keys, key=lambda key: key.number)


def keep_parts(hand_id: int, version: int, sides: list[dict[str, Any]]) -> None:
    """A hand's sides as `hand_records` gives them, from the write that made this version
    (kept once it commits: see `caches`)."""
    cache("parts").put(("hand", hand_id, version), sides)


def hand_records(keys: Sequence[HandKey]) -> list[list[dict[str, Any]]]:
    """Each hand's sides as entered and scored ({"input", "total", "lines"}), in order.

    A hand's version names one state of it, so what was read once for a version is
    kept and only hands not seen in this state are read from the database (one query).
    """
    parts = cache("parts")
    kept = parts.peek_many([("hand", key.id, key.version) for key in keys])
    found = {key.id: value for key, value in zip(keys, kept, strict=True)}
    missing = [key for key in keys if found[key.id] is None]
    if missing:
        version = {key.id: key.version for key in missing}
        sides: dict[int, list[dict[str, Any]]] = {key.id: [] for key in missing}
        for hand_id, record, total, lines in rows_of(
            db.session, SIDES_OF_HAND, HAND_SIDES, list(version)
        ):
            sides[hand_id].append({"input": record, "total": total, "lines": lines})
        for hand_id, value in sides.items():
            parts.put(("hand", hand_id, version[hand_id]), value)
            found[hand_id] = value
    return [found[key.id] for key in keys]  # type: ignore[misc]


def hand_totals(match_id: int, sides: int) -> list[list[int]]:
    """Each hand's total by seat, in hand order, in one query."""
    return [key.totals for key in hand_keys(match_id, sides)]


def needs_went_out(rules: Rules) -> bool:
    """Whether the game end depends on who went out last (the tie rule says so)."""
    return rules.game_end.tie_rule == TieRule.WENT_OUT_LAST


def went_out_of(records: Sequence[dict[str, Any]]) -> int | None:
    """The seat that went out in a hand, from its records by seat; in a seated game a
    pair that went out counts as its first seat (both keep the side's record)."""
    return next((seat for seat, record in enumerate(records) if record.get("went_out")), None)


def has_instant_wins(rules: Rules) -> bool:
    """Whether some special hand wins the game at once (its hand's records are then read)."""
    return any(special.wins_game for special in rules.special_hands)


def result_after(
    rules: Rules,
    totals: Sequence[int],
    deals_played: int,
    went_out_last: int | None = None,
    instant: int | None = None,
) -> GameResult:
    """Where the game stands after `deals_played` hands with these running totals.

    The deal number is the hand number in a match, so deal-count games end after
    their last deal; a target by layout follows the number of sides; `instant` is
    the side whose special hand in the last hand won the game at once.
    """
    return game_result(
        rules,
        totals,
        deals_played=deals_played,
        went_out_last=went_out_last,
        instant_winner=instant,
    )


@dataclass(frozen=True)
class HandTable:
    """A match's scoreboard rows as last made, and what they were made from."""

    order: list[str]
    first_dealer: int
    keys: list[HandKey]
    rows: list[HandRow]


def hand_rows(match: Match, order: list[str], keys: Sequence[HandKey]) -> list[HandRow]:
    """Each hand's row (dealer, running totals), in order.

    A row depends only on its hand's key, the keys before it, the seating and the first
    dealer, so the rows last made for the match are kept with those: when they are the
    start of these (a save adds a hand), only the rows after them are made.
    """
    parts, first = cache("parts"), match.first_dealer
    kept: HandTable | None = parts.peek(("rows", match.id))
    start, rows = 0, []
    if kept is not None and (kept.order, kept.first_dealer) == (order, first):
        done = len(kept.keys)
        if done <= len(keys) and keys[:done] == kept.keys:  # (the same objects, mostly)
            start, rows = done, list(kept.rows)
    fresh = keys[start:]
    before = rows[-1].running if rows else None
    running = running_totals([key.totals for key in fresh], len(match.sides), before)
    dealers = dealers_of(match, order, (key.number for key in fresh))
    rows += [
        HandRow(key.number, dealer, key.totals, run, key.version, key.id)
        for key, dealer, run in zip(fresh, dealers, running, strict=True)
    ]
    if fresh or kept is None:
        parts.put(("rows", match.id), HandTable(order, first, list(keys), list(rows)))
    return rows  # (the caller's own list: the kept one is never handed out)


def totals_after(match: Match, keys: Sequence[HandKey]) -> list[int]:
    """Each seat's total after these hands: the running totals of the rows kept for the
    match when they were made from the first of these hands (a save adds a hand, and
    another worker's saves a few more), with the later hands' added."""
    kept: HandTable | None = cache("parts").peek(("rows", match.id))
    start, totals = 0, [0] * len(match.sides)
    done = len(kept.keys) if kept is not None and kept.rows else 0
    if kept is not None and 0 < done <= len(keys) and keys[:done] == kept.keys:
        start, totals = done, list(kept.rows[-1].running)  # (the same keys, mostly)
    for key in keys[start:]:
        totals = [total + more for total, more in zip(totals, key.totals, strict=True)]
    return totals


def match_state(match: Match, keys: Sequence[HandKey] | None = None) -> MatchState:
    """The scoreboard of a match loaded with `load_match` (`keys`: its `hand_keys`)."""
    rules = match_rules(match)
    count = len(match.sides)
    keys = current_keys(match.id, match.revision, count) if keys is None else keys
    order = table_order(match)
    rows = hand_rows(match, order, keys)
    final = rows[-1].running if rows else [0] * count
    went_out_last = instant = None
    if keys and (needs_went_out(rules) or has_instant_wins(rules)):
        last = hand_records(keys[-1:])[0]  # the last hand's records, kept per version
        records = [side["input"] for side in last]
        went_out_last = went_out_of(records)
        instant = instant_winner(rules, records)
    result = result_after(rules, final, len(keys), went_out_last, instant)
    next_number = len(keys) + 1
    target = rules.target_for(_layout_of(rules, count))
    sides = []
    for seat, side in enumerate(match.sides):
        others = [t for i, t in enumerate(final) if i != seat]
        sides.append(
            SideView(
                seat=seat,
                name=side.name,
                players=[m.player.name for m in side.members],
                total=final[seat],
                lead=final[seat] - max(others) if others else 0,
                next_meld=meld_requirement(rules, final[seat], deal=next_number, sides=count),
                progress=max(0, min(100, final[seat] * 100 // max(target, 1))),
                winner=result.winner == seat,
            )
        )
    return MatchState(
        match=match,
        rules=rules,
        sides=sides,
        hands=rows,
        result=result,
        next_number=next_number,
        next_dealer=dealer_of(match, order, next_number),
        table_order=order,
        target=target,
    )
