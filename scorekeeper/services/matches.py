"""Matches: start one, record, correct and remove hands, and compute the scoreboard.

Every write is one unit of work: the service changes the session and flushes,
the caller commits (or rolls back on an error, see `transaction`). Scores are
computed by the rules engine under the rules frozen into the match at its start.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy import func, select
from sqlalchemy.exc import IntegrityError, OperationalError
from sqlalchemy.orm import selectinload
from sqlalchemy.orm.exc import StaleDataError

from ..extensions import db
from ..models import (
    NAME_LENGTH,
    AuditEntry,
    Hand,
    HandSide,
    Match,
    Player,
    Side,
    SideMember,
    utcnow,
)
from ..rules import (
    PRESETS,
    GameResult,
    InvalidHand,
    MeldRequirement,
    Problem,
    Rules,
    game_result,
    meld_requirement,
    resolve_options,
    rules_from_json,
    rules_to_json,
)
from ..rules.game import FINISHED
from .hands import Evaluation, evaluate
from .rulebook import record_changes


class MatchError(Exception):
    """A write the match cannot take; `message` is for the player, `status` for the API."""

    status = 409

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


class MatchFinished(MatchError):
    pass


class HandConflict(MatchError):
    """Someone else changed the match or the hand since this form was loaded."""


class HandNotFound(MatchError):
    status = 404


class EndsTooEarly(MatchError):
    """The change would end the game before hands that were already played."""


@dataclass(frozen=True)
class SideSpec:
    name: str  # empty: named after its players
    players: list[str]


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


@dataclass(frozen=True)
class HandRow:
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

    @property
    def finished(self) -> bool:
        return self.result.finished


@dataclass(frozen=True)
class AuditRow:
    action: str
    number: int
    hand_id: int | None
    at: datetime
    changes: list[tuple[str, int | None, int | None]]
    details: list[str]


def clean_name(raw: object) -> str:
    """Trimmed, single-spaced, without control characters (which no name needs)."""
    if not isinstance(raw, str):
        return ""
    printable = "".join(ch for ch in raw if unicodedata.category(ch) != "Cc" or ch.isspace())
    return re.sub(r"\s+", " ", printable).strip()


def match_rules(match: Match) -> Rules:
    return rules_from_json(match.rules)


def table_order(match: Match) -> list[str]:
    """Players in seating order, clockwise: the deal passes along this list."""
    return [
        side.members[position].player.name
        for position in range(match.players_per_side)
        for side in match.sides
    ]


def dealer_of(match: Match, order: list[str], number: int) -> str:
    """Who deals hand `number`: one seat clockwise per hand from the first dealer."""
    return order[(match.first_dealer + number - 1) % len(order)]


def side_names(match: Match) -> list[str]:
    return [side.name for side in match.sides]


def hand_snapshot(hand: Hand) -> dict[str, Any]:
    return {
        "number": hand.number,
        "sides": [{"input": s.record, "total": s.total, "lines": s.lines} for s in hand.sides],
    }


def _player(name: str) -> Player:
    existing = db.session.execute(
        select(Player).where(func.lower(Player.name) == name.lower())
    ).scalar_one_or_none()
    if existing is not None:
        return existing
    player = Player(name=name)
    db.session.add(player)
    return player


def _side_specs(sides: list[Any], problems: list[Problem]) -> list[SideSpec]:
    specs: list[SideSpec] = []
    seen: set[str] = set()
    for index, raw in enumerate(sides):
        if not isinstance(raw, dict):
            problems.append(Problem(index, "sides", "each side must be {name, players}"))
            continue
        players_raw = raw.get("players")
        if not isinstance(players_raw, list) or not players_raw:
            problems.append(Problem(index, "players", "list the players of this side"))
            continue
        players = []
        for position, player_raw in enumerate(players_raw):
            name = clean_name(player_raw)
            where = f"players.{position}"
            if not name:
                problems.append(Problem(index, where, "Enter a name for each player"))
            elif len(name) > NAME_LENGTH:
                problems.append(Problem(index, where, f"Keep names to {NAME_LENGTH} characters"))
            elif name.lower() in seen:
                problems.append(Problem(index, where, f"{name} is already at the table"))
            else:
                seen.add(name.lower())
            players.append(name)
        side_name = clean_name(raw.get("name"))
        if len(side_name) > NAME_LENGTH * 3:
            problems.append(Problem(index, "name", "That side name is too long"))
        specs.append(SideSpec(side_name, players))
    return specs


def check_match_setup(
    variant: object, options: object, sides: object, first_dealer: object = 0
) -> tuple[Rules, list[SideSpec], int, int]:
    """Validate a new match; raise InvalidHand listing every problem (fields as in the API)."""
    if not isinstance(variant, str) or variant not in PRESETS:
        known = ", ".join(PRESETS)
        raise InvalidHand([Problem(None, "variant", f"Choose a variant (one of: {known})")])
    rules, problems = resolve_options(PRESETS[variant], options)
    if not isinstance(sides, list) or not sides:
        problems.append(Problem(None, "sides", "sides must be a list of {name, players}"))
        raise InvalidHand(problems)
    specs = _side_specs(sides, problems)
    sizes = {len(spec.players) for spec in specs}
    players_per_side = next(iter(sizes)) if len(sizes) == 1 else 0
    if not any(
        lay.sides == len(sides) and lay.players_per_side == players_per_side
        for lay in rules.layouts
    ):
        allowed = "; ".join(lay.label for lay in rules.layouts)
        problems.append(Problem(None, "sides", f"{rules.name} is played by {allowed}"))
    seats = len(specs) * max(players_per_side, 1)
    if (
        not isinstance(first_dealer, int)
        or isinstance(first_dealer, bool)
        or not 0 <= first_dealer < seats
    ):
        problems.append(Problem(None, "first_dealer", "Choose who deals first"))
    if problems:
        raise InvalidHand(problems)
    assert isinstance(first_dealer, int)
    return rules, specs, players_per_side, first_dealer


def create_match(
    variant: object, options: object, sides: object, first_dealer: object = 0
) -> Match:
    rules, specs, players_per_side, dealer = check_match_setup(
        variant, options, sides, first_dealer
    )
    match = Match(
        variant=rules.key,
        options=dict(options) if isinstance(options, dict) else {},
        rules=rules_to_json(rules),
        players_per_side=players_per_side,
        first_dealer=dealer,
        status="playing",
    )
    for seat, spec in enumerate(specs):
        players = [_player(name) for name in spec.players]
        side = Side(seat=seat, name=spec.name or " & ".join(p.name for p in players))
        for position, player in enumerate(players):
            side.members.append(SideMember(position=position, player=player))
        match.sides.append(side)
    db.session.add(match)
    db.session.flush()
    return match


MAX_ID = 2**31 - 1  # the largest id every supported database can hold


def load_match(match_id: int) -> Match | None:
    if not 0 < match_id <= MAX_ID:
        return None
    return db.session.execute(
        select(Match)
        .where(Match.id == match_id)
        .options(
            selectinload(Match.sides).selectinload(Side.members).selectinload(SideMember.player),
            selectinload(Match.hands).selectinload(Hand.sides),
            selectinload(Match.audit),
        )
    ).scalar_one_or_none()


def _running_totals(hands: Sequence[Sequence[int]], sides: int) -> list[list[int]]:
    running = [0] * sides
    out = []
    for totals in hands:
        running = [r + t for r, t in zip(running, totals, strict=True)]
        out.append(running)
    return out


def _hand_totals(match: Match) -> list[list[int]]:
    return [[s.total for s in hand.sides] for hand in match.hands]


def match_state(match: Match) -> MatchState:
    rules = match_rules(match)
    count = len(match.sides)
    hand_totals = _hand_totals(match)
    running = _running_totals(hand_totals, count)
    final = running[-1] if running else [0] * count
    result = game_result(rules, final)
    order = table_order(match)
    rows = [
        HandRow(
            hand.number, dealer_of(match, order, hand.number), totals, run, hand.version, hand.id
        )
        for hand, totals, run in zip(match.hands, hand_totals, running, strict=True)
    ]
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
                next_meld=meld_requirement(rules, final[seat]),
                progress=max(0, min(100, final[seat] * 100 // rules.target)),
                winner=result.winner == seat,
            )
        )
    next_number = len(match.hands) + 1
    return MatchState(
        match=match,
        rules=rules,
        sides=sides,
        hands=rows,
        result=result,
        next_number=next_number,
        next_dealer=dealer_of(match, order, next_number),
        table_order=order,
    )


def _refresh_status(match: Match) -> None:
    """Recompute the game end after a change; refuse one that ends it before played hands."""
    rules = match_rules(match)
    running = _running_totals(_hand_totals(match), len(match.sides))
    end = next((i for i, totals in enumerate(running) if game_result(rules, totals).finished), None)
    if end is not None and end < len(running) - 1:
        later = len(running) - 1 - end
        raise EndsTooEarly(
            f"With this change the game is over after hand {end + 1}, but {later} later "
            f"hand{'s' if later > 1 else ''} {'were' if later > 1 else 'was'} played. "
            "Remove the later hands first if that is right."
        )
    result = game_result(rules, running[-1] if running else [0] * len(match.sides))
    if result.status == FINISHED and match.status != FINISHED:
        match.finished_at = utcnow()
    elif result.status != FINISHED:
        match.finished_at = None
    match.status = result.status
    match.winner = result.winner


def _flush() -> None:
    """Flush, turning a lost race with another device into a conflict for the player."""
    try:
        db.session.flush()
    except StaleDataError:
        raise HandConflict("This hand was changed from another device at the same time.") from None
    except IntegrityError:
        raise HandConflict("That hand was just recorded from another device.") from None
    except OperationalError:  # SQLite: another device was writing at the same moment
        raise HandConflict("Another device was saving at the same moment. Save again.") from None


def _fill_sides(hand: Hand, records: list[Any], evaluation: Evaluation) -> None:
    for seat, (record, side_score) in enumerate(zip(records, evaluation.scores, strict=True)):
        lines = [line.to_dict() for line in side_score.lines]
        if seat < len(hand.sides):
            hand.sides[seat].record = record
            hand.sides[seat].total = side_score.total
            hand.sides[seat].lines = lines
        else:
            hand.sides.append(
                HandSide(seat=seat, record=record, total=side_score.total, lines=lines)
            )


def _evaluate(match: Match, records: object) -> tuple[list[Any], Evaluation]:
    evaluation = evaluate(match_rules(match), records, match.players_per_side, side_names(match))
    assert isinstance(records, list)
    return records, evaluation


def _audit(
    match: Match,
    number: int,
    hand_id: int,
    action: str,
    before: dict[str, Any] | None = None,
    after: dict[str, Any] | None = None,
) -> None:
    """Keep a change in the match's audit trail (hand_id outlives a removed hand)."""
    entry = AuditEntry(
        hand_number=number, hand_id=hand_id, action=action, before=before, after=after
    )
    match.audit.append(entry)
    _flush()


def find_by_token(match: Match, token: str | None) -> Hand | None:
    if not token:
        return None
    return next((hand for hand in match.hands if hand.submission_token == token), None)


def record_hand(
    match: Match,
    records: object,
    *,
    token: str | None = None,
    expected_number: int | None = None,
) -> tuple[Hand, bool]:
    """Add the next hand. Returns (hand, created); a re-sent token returns the first hand."""
    duplicate = find_by_token(match, token)
    if duplicate is not None:
        return duplicate, False
    if match.status == FINISHED:
        raise MatchFinished("The game is over: no more hands can be recorded.")
    number = len(match.hands) + 1
    if expected_number is not None and expected_number < number:
        raise HandConflict(
            f"Hand {expected_number} was already recorded (from another device?). "
            f"Check the scoreboard before recording hand {number}."
        )
    if expected_number is not None and expected_number > number:
        raise HandConflict(f"The next hand of this match is hand {number}, not {expected_number}.")
    records, evaluation = _evaluate(match, records)
    hand = Hand(number=number, submission_token=token or None)
    _fill_sides(hand, records, evaluation)
    match.hands.append(hand)
    _refresh_status(match)
    _flush()
    _audit(match, number, hand.id, "recorded", after=hand_snapshot(hand))
    return hand, True


def get_hand(match: Match, number: int) -> Hand:
    hand = next((h for h in match.hands if h.number == number), None)
    if hand is None:
        raise HandNotFound(f"This match has no hand {number}.")
    return hand


def correct_hand(match: Match, number: int, records: object, version: int | None = None) -> Hand:
    """Replace a hand's records; `version` (if given) must be the one the editor loaded."""
    hand = get_hand(match, number)
    if version is not None and version != hand.version:
        raise HandConflict(
            f"Hand {number} was changed from another device since you opened it "
            f"(version {hand.version} now, yours was {version})."
        )
    records, evaluation = _evaluate(match, records)
    before = hand_snapshot(hand)
    _fill_sides(hand, records, evaluation)
    after = hand_snapshot(hand)
    if before == after:
        return hand
    hand.updated_at = utcnow()
    _refresh_status(match)
    _flush()
    _audit(match, number, hand.id, "corrected", before=before, after=after)
    return hand


def remove_hand(match: Match, number: int, hand_id: int | None = None) -> None:
    """Remove a hand; later hands move up one number. `hand_id` guards against double taps."""
    hand = get_hand(match, number)
    if hand_id is not None and hand.id != hand_id:
        raise HandNotFound(f"Hand {number} was already removed.")
    before = hand_snapshot(hand)
    removed_id = hand.id
    match.hands.remove(hand)
    db.session.delete(hand)
    _flush()
    for later in match.hands:
        if later.number > number:
            later.number -= 1
            _flush()
    _refresh_status(match)
    _audit(match, number, removed_id, "removed", before=before)


def audit_rows(match: Match, hand_id: int | None = None) -> list[AuditRow]:
    """The audit trail, newest first: per side, the hand total before and after."""
    names = side_names(match)
    rules = match_rules(match)
    rows = []
    for entry in reversed(match.audit):
        if hand_id is not None and entry.hand_id != hand_id:
            continue
        before = (
            [s["total"] for s in entry.before["sides"]] if entry.before else [None] * len(names)
        )
        after = [s["total"] for s in entry.after["sides"]] if entry.after else [None] * len(names)
        details = []
        if entry.before and entry.after:
            details = record_changes(
                rules,
                names,
                [s["input"] for s in entry.before["sides"]],
                [s["input"] for s in entry.after["sides"]],
            )
        changes = list(zip(names, before, after, strict=True))
        rows.append(
            AuditRow(entry.action, entry.hand_number, entry.hand_id, entry.at, changes, details)
        )
    return rows


def known_players() -> list[str]:
    return list(db.session.execute(select(Player.name).order_by(func.lower(Player.name))).scalars())


def final_totals(match_ids: Sequence[int]) -> dict[int, list[int]]:
    """Each match's totals by seat, in one query."""
    if not match_ids:
        return {}
    rows = db.session.execute(
        select(Hand.match_id, HandSide.seat, func.sum(HandSide.total))
        .join(HandSide, HandSide.hand_id == Hand.id)
        .where(Hand.match_id.in_(match_ids))
        .group_by(Hand.match_id, HandSide.seat)
    ).all()
    totals: dict[int, dict[int, int]] = {}
    for match_id, seat, total in rows:
        totals.setdefault(match_id, {})[seat] = int(total)
    return {mid: [seats[s] for s in sorted(seats)] for mid, seats in totals.items()}
