"""Reading a hand record from JSON-like data.

`read_hand` turns the record of one hand into a `Hand`, or raises
`InvalidHand` listing every problem at once: malformed fields first, then what
the rules make impossible (see `validate`).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from functools import lru_cache
from typing import Any, TypeGuard

from .errors import InvalidHand, Problem
from .model import Rules
from .presets import PRESETS
from .record import Hand, PenaltyEntry, SideHand
from .seats import lineup_side_problems, read_lineup
from .text import unprintable
from .validate import check_hand

# What some preset has: accepted at 0 by the presets that do not have it.
KNOWN_KINDS = tuple(dict.fromkeys(k.key for p in PRESETS.values() for k in p.canasta_kinds))
KNOWN_CATEGORIES = tuple(dict.fromkeys(c.key for p in PRESETS.values() for c in p.cards))
COUNT_FIELDS = (
    "red_threes",
    "red_threes_in_hand",
    "black_threes_in_hand",
    "short_sequences",
    "incomplete_wild",
    "incomplete_aces",
    "incomplete_sevens",
    "players_with_3_aces",
    "players_with_3_sevens",
    "black_threes",
    "feet_taken",
    "exact_pickups",
)
SIDE_FIELDS = (
    "went_out",
    "concealed",
    "canastas",
    "meld_points",
    "meld_cards",
    "hand_points",
    "hand_cards",
    "foot_points",
    "foot_cards",
    *COUNT_FIELDS,
    "took_extra_hand",
    "penalties",
    "special_hand",
)
SIDE_FIELD_SET = frozenset(SIDE_FIELDS)
COUNT_FIELD_SET = frozenset(COUNT_FIELDS)
PENALTY_KEYS = frozenset({"rule", "count", "points", "reason"})
MAX_REASON_LENGTH = 200
MAX_PENALTIES = 50
MAX_COUNT = 10_000
MAX_POINTS = 1_000_000


@dataclass(frozen=True)
class ReaderPlan:
    """What reading a hand asks of its rule set, worked out once per rule set.

    `meld_categories`, `hand_categories` and `foot_categories` are the card
    categories each field accepts; `refused_in_meld` and `refused_in_hand` the
    problem key and parameters for a category this rule set enters elsewhere;
    `count_fields` the
    counts of `COUNT_FIELDS` it has. `players_choices` are the players a side may
    have, `assumed_players` the players assumed for a number of sides, and
    `side_counts` the numbers of sides allowed for a number of players a side
    (None: not known).
    """

    kinds: frozenset[str]
    meld_categories: frozenset[str]
    hand_categories: frozenset[str]
    foot_categories: frozenset[str]
    refused_in_meld: dict[str, tuple[str, dict[str, Any]]]
    refused_in_hand: dict[str, tuple[str, dict[str, Any]]]
    count_fields: frozenset[str]
    players_choices: tuple[int, ...]
    assumed_players: dict[int, int]
    side_counts: dict[int | None, tuple[int, ...]]


def _side_counts(rules: Rules, players_per_side: int | None) -> tuple[int, ...]:
    return tuple(
        sorted(
            {
                lay.sides
                for lay in rules.layouts
                if players_per_side is None or lay.players_per_side == players_per_side
            }
        )
    )


@lru_cache(maxsize=64)
def reader_plan(rules: Rules) -> ReaderPlan:
    """The rule set's reader plan, worked out once per rule set (its data is frozen)."""
    categories = frozenset(c.key for c in rules.cards)
    refused_in_hand = {
        p.card_category: (
            "hand.entered_as_count",
            {"category": p.card_category, "field": p.field, "variant": rules.key},
        )
        for p in rules.counted_penalties
        if p.replaces_hand_cards and p.card_category
    }
    refused_in_meld = {
        key: ("hand.laid_not_melded", {"category": key, "variant": rules.key})
        for key in rules.unmeldable
        if rules.category(key) is not None
    }
    players_choices = tuple(sorted({lay.players_per_side for lay in rules.layouts}))
    assumed_players: dict[int, int] = {}
    for lay in rules.layouts:
        if lay.assumed:
            assumed_players.setdefault(lay.sides, lay.players_per_side)
    return ReaderPlan(
        kinds=frozenset(k.key for k in rules.kinds),
        meld_categories=categories - set(refused_in_meld),
        hand_categories=categories - set(refused_in_hand),
        foot_categories=categories if rules.feet is not None else frozenset(),
        refused_in_meld=refused_in_meld,
        refused_in_hand=refused_in_hand,
        count_fields=COUNT_FIELD_SET & set(rules.fields),
        players_choices=players_choices,
        assumed_players=assumed_players,
        side_counts={n: _side_counts(rules, n) for n in (None, *players_choices)},
    )


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _plain_count(value: object) -> TypeGuard[int]:
    """A count `_SideReader.count` takes as it is: the usual case, decided before any
    words for a problem are made."""
    return type(value) is int and 0 <= value <= MAX_COUNT


class _SideReader:
    """Reads one side's record, noting problems and which fields failed.

    A field the record leaves out is absent; a null one is refused (`read`), then read
    as absent so that the other problems are found too.
    """

    def __init__(self, rules: Rules, plan: ReaderPlan, index: int) -> None:
        self.rules = rules
        self.plan = plan
        self.index = index
        self.problems: list[Problem] = []
        self.failed: set[str] = set()

    def problem(self, field_name: str, key: str, /, **params: Any) -> None:
        """Note a problem of this side: a message key and its parameters."""
        self.failed.add(field_name.split(".")[0])
        self.problems.append(Problem(self.index, field_name, key, params))

    def boolean(self, value: object, name: str) -> bool | None:
        if value is None or isinstance(value, bool):
            return value
        self.problem(name, "hand.not_bool", name=name)
        return None

    def count(self, value: object, field_name: str, what: str, of: str = "") -> int | None:
        """A count; `what` names it in problems (a field, or "count_of" a key `of`)."""
        if _plain_count(value):
            return value
        named = {"what": what, "of": of} if of else {"what": what}
        if not _is_int(value):
            self.problem(field_name, "hand.not_whole", **named)
            return None
        assert isinstance(value, int)
        if value < 0:
            self.problem(field_name, "hand.negative", **named)
            return None
        if value > MAX_COUNT:
            self.problem(field_name, "hand.count_too_big", **named)
            return None
        return value

    def points(self, value: object, field_name: str, what: str) -> int | None:
        """Points; `what` names them in problems (a field, or "penalty_points")."""
        if not _is_int(value):
            self.problem(field_name, "hand.not_points", what=what)
            return None
        assert isinstance(value, int)
        if value < 0:
            self.problem(field_name, "hand.negative", what=what)
            return None
        if value % 5:
            self.problem(field_name, "hand.not_fives", what=what)
            return None
        if value > MAX_POINTS:
            self.problem(field_name, "hand.points_too_big", what=what)
            return None
        return value

    def counts(
        self,
        value: object,
        name: str,
        allowed: frozenset[str],
        known: tuple[str, ...],
        what: str,
        refused: Mapping[str, tuple[str, dict[str, Any]]] | None = None,
    ) -> dict[str, int] | None:
        """An object of key -> count whose non-zero keys must be in `allowed`; `what` says
        what the keys are ("kind" or "category").

        `refused` gives a specific problem for keys this variant routes elsewhere.
        """
        if value is None:
            return None
        if not isinstance(value, dict) and not isinstance(value, Mapping):
            self.problem(name, "hand.not_counts", name=name, what=what)
            return None
        result: dict[str, int] = {}
        ok = True
        for key, count_value in value.items():
            if _plain_count(count_value):
                count: int | None = count_value
            else:
                count = self.count(count_value, f"{name}.{key}", "count_of", str(key))
            if count is None:
                ok = False
            elif key in allowed:
                if count:
                    result[key] = count
            elif key not in known:
                self.problem(f"{name}.{key}", "hand.unknown_key", key=str(key), what=what)
                ok = False
            elif count:
                elsewhere = (refused or {}).get(key)
                if elsewhere:
                    self.problem(f"{name}.{key}", elsewhere[0], **elsewhere[1])
                else:
                    self.problem(
                        f"{name}.{key}", "hand.not_in_variant", variant=self.rules.key, thing=key
                    )
                ok = False
        return result if ok else None

    def penalties(self, value: object) -> tuple[PenaltyEntry, ...]:
        if value is None:
            return ()
        if not isinstance(value, list):
            self.problem("penalties", "hand.penalties_not_list")
            return ()
        if len(value) > MAX_PENALTIES:
            self.problem("penalties", "hand.too_many_penalties", most=MAX_PENALTIES)
            return ()
        entries = [self.penalty(item, f"penalties.{i}") for i, item in enumerate(value)]
        return tuple([entry for entry in entries if entry is not None])

    def penalty(self, item: object, where: str) -> PenaltyEntry | None:
        if not isinstance(item, dict) and not isinstance(item, Mapping):
            self.problem(where, "hand.penalty_not_object")
            return None
        if not PENALTY_KEYS.issuperset(item):
            unknown = next(str(k) for k in item if k not in PENALTY_KEYS)
            self.problem(f"{where}.{unknown}", "hand.penalty_unknown_key", key=unknown)
            return None
        if "rule" in item:
            return self.catalogue_penalty(item, where)
        if "points" not in item:
            self.problem(where, "hand.penalty_needs_rule_or_points")
            return None
        points = self.points(item["points"], f"{where}.points", "penalty_points")
        if points is None:
            return None
        if points == 0:
            self.problem(f"{where}.points", "hand.penalty_zero")
            return None
        reason = item.get("reason")
        if not isinstance(reason, str) or not reason.strip():
            self.problem(f"{where}.reason", "hand.penalty_no_reason")
            return None
        if len(reason) > MAX_REASON_LENGTH:
            self.problem(f"{where}.reason", "hand.reason_too_long", most=MAX_REASON_LENGTH)
            return None
        broken = unprintable(reason)
        if broken is not None:
            self.problem(f"{where}.reason", "hand.reason_unprintable", why=broken)
            return None
        return PenaltyEntry(points=points, reason=reason.strip())

    def catalogue_penalty(self, item: Mapping[str, Any], where: str) -> PenaltyEntry | None:
        if "points" in item or "reason" in item:
            self.problem(where, "hand.penalty_both")
            return None
        rule = item["rule"]
        if not isinstance(rule, str) or self.rules.catalogue_penalty(rule) is None:
            self.problem(
                f"{where}.rule",
                "hand.penalty_not_in_catalogue",
                rule=rule,
                variant=self.rules.key,
                rules=[p.key for p in self.rules.catalogue],
            )
            return None
        count = self.count(item.get("count", 1), f"{where}.count", "penalty_count")
        if count is None:
            return None
        if count == 0:
            self.problem(f"{where}.count", "hand.penalty_count_zero")
            return None
        return PenaltyEntry(rule=rule, count=count)

    def foot(
        self, points_value: object, cards_value: object
    ) -> tuple[int | None, dict[str, int] | None]:
        """The cards of feet never picked up, as points or counts (Hand and Foot only)."""
        points = (
            self.points(points_value, "foot_points", "foot_points")
            if points_value is not None
            else None
        )
        cards = self.counts(
            cards_value, "foot_cards", self.plan.foot_categories, KNOWN_CATEGORIES, "category"
        )
        if points_value is not None and cards_value is not None:
            self.problem("foot_cards", "hand.both_forms", points="foot_points", cards="foot_cards")
        if self.rules.feet is None and points:
            self.problem("foot_points", "hand.not_in_variant", variant=self.rules.key, thing="feet")
            points = None
        return points, cards

    def special_hand(self, value: object) -> str | None:
        """The key of the special hand the side went out with (None: an ordinary hand)."""
        if value is None:
            return None
        rules = self.rules
        if not rules.special_hands:
            self.problem(
                "special_hand", "hand.not_in_variant", variant=rules.key, thing="special_hands"
            )
            return None
        if not isinstance(value, str) or rules.special_hand(value) is None:
            self.problem(
                "special_hand",
                "hand.special_hand_unknown",
                hand=value,
                variant=rules.key,
                hands=[h.key for h in rules.special_hands],
            )
            return None
        return value

    def read(self, raw: object) -> SideHand | None:
        rules = self.rules
        plan = self.plan
        if not isinstance(raw, dict) and not isinstance(raw, Mapping):  # dict: cheaper to ask
            self.problem("side", "hand.side_not_object")
            return None
        for name, value in raw.items():
            if name not in SIDE_FIELD_SET:
                self.problem(str(name), "hand.unknown_field", name=name)
            elif value is None:  # a field is left out, never null: the stored record is read
                self.problem(name, "hand.null", name=name)
        get = raw.get
        went_out = self.boolean(get("went_out"), "went_out")
        concealed = self.boolean(get("concealed"), "concealed")
        took_extra_value = get("took_extra_hand")
        took_extra = self.boolean(took_extra_value, "took_extra_hand")
        canastas = self.counts(get("canastas"), "canastas", plan.kinds, KNOWN_KINDS, "kind")
        meld_points_value = get("meld_points")
        meld_points = (
            self.points(meld_points_value, "meld_points", "meld_points")
            if meld_points_value is not None
            else None
        )
        meld_cards_value = get("meld_cards")
        meld_cards = (
            self.counts(
                meld_cards_value,
                "meld_cards",
                plan.meld_categories,
                KNOWN_CATEGORIES,
                "category",
                plan.refused_in_meld,
            )
            if meld_cards_value is not None
            else None
        )
        hand_points_value = get("hand_points")
        hand_points = (
            self.points(hand_points_value, "hand_points", "hand_points")
            if hand_points_value is not None
            else None
        )
        hand_cards_value = get("hand_cards")
        hand_cards = (
            self.counts(
                hand_cards_value,
                "hand_cards",
                plan.hand_categories,
                KNOWN_CATEGORIES,
                "category",
                plan.refused_in_hand,
            )
            if hand_cards_value is not None
            else None
        )
        foot_points_value, foot_cards_value = get("foot_points"), get("foot_cards")
        foot_points, foot_cards = (
            self.foot(foot_points_value, foot_cards_value)
            if foot_points_value is not None or foot_cards_value is not None
            else (None, None)
        )
        if meld_points_value is not None and meld_cards_value is not None:
            self.problem("meld_cards", "hand.both_forms", points="meld_points", cards="meld_cards")
        if hand_points_value is not None and hand_cards_value is not None:
            self.problem("hand_cards", "hand.both_forms", points="hand_points", cards="hand_cards")
        counts: dict[str, int] = {}
        given = COUNT_FIELD_SET.intersection(raw)
        for name in sorted(given, key=COUNT_FIELDS.index) if given else ():
            value = get(name)
            if value is not None:
                count = self.count(value, name, name)
                if count and name not in plan.count_fields:
                    self.problem(name, "hand.not_in_variant", variant=rules.key, thing=name)
                elif count is not None:
                    counts[name] = count
        extra = rules.extra_hand
        if extra is not None and took_extra_value is None:
            self.problem("took_extra_hand", "hand.say_extra_hand")
        elif extra is None and took_extra:
            self.problem("took_extra_hand", "hand.no_extra_hand", variant=rules.key)
        penalties_value, special_value = get("penalties"), get("special_hand")
        penalties = self.penalties(penalties_value) if penalties_value is not None else ()
        special = self.special_hand(special_value) if special_value is not None else None
        return SideHand(
            went_out=bool(went_out),
            concealed=bool(concealed),
            canastas=canastas or {},
            meld_points=meld_points,
            meld_cards=meld_cards,
            hand_points=hand_points,
            hand_cards=hand_cards,
            foot_points=foot_points,
            foot_cards=foot_cards,
            took_extra_hand=took_extra,
            penalties=penalties,
            special_hand=special,
            **counts,
        )


def _players(
    plan: ReaderPlan, rules: Rules, players: object, problems: list[Problem], side_count: int | None
) -> int | None:
    allowed = plan.players_choices
    if players is None:
        if len(allowed) == 1:
            return allowed[0]
        return plan.assumed_players.get(side_count) if side_count is not None else None
    if not _is_int(players) or players not in allowed:
        problems.append(
            Problem.of(None, "players", "hand.players", variant=rules.key, choices=list(allowed))
        )
        return None
    assert isinstance(players, int)
    return players


def _read_sides(
    rules: Rules, raw_sides: list[Any], problems: list[Problem]
) -> tuple[list[SideHand], list[set[str]]]:
    """Each side's record (an empty one where the record is not an object) and the fields
    that failed to parse ("side": the whole record); their problems go to `problems`."""
    plan = reader_plan(rules)
    sides: list[SideHand] = []
    failed: list[set[str]] = []
    for index, raw in enumerate(raw_sides):
        reader = _SideReader(rules, plan, index)
        side = reader.read(raw)
        problems.extend(reader.problems)
        sides.append(side or SideHand())
        failed.append(reader.failed | ({"side"} if side is None else set()))
    return sides, failed


MAX_DEAL = 1000


def _deal(deal: object, problems: list[Problem]) -> int:
    if deal is None:
        return 1
    if not _is_int(deal) or not 1 <= deal <= MAX_DEAL:  # type: ignore[operator]
        problems.append(Problem.of(None, "deal", "hand.deal", most=MAX_DEAL))
        return 1
    assert isinstance(deal, int)
    return deal


def read_hand(
    rules: Rules,
    raw_sides: object,
    players: object = None,
    deal: object = None,
    lineup: object = None,
    phase: int | None = None,
) -> Hand:
    """Parse and validate one hand; raise InvalidHand with every problem found.

    `players` is the number of players a side (needed only where the preset
    allows several layouts; some presets assume one per number of sides);
    `deal` is the deal number that deal-keyed rules follow (1 when not given; in a
    match, the hand number). In a seated game (`rules.seating`) `lineup` says which
    seats formed each side and `phase` which line-ups the hand may have (None: any
    of the game's). A problem names its side by index: InvalidHand says what the
    reader made of the table (players a side, line-up), for the edge to name them.
    """
    problems: list[Problem] = []
    plan = reader_plan(rules)
    side_count = len(raw_sides) if isinstance(raw_sides, list) else None
    players_per_side = _players(plan, rules, players, problems, side_count)
    deal_number = _deal(deal, problems)
    seats, lineup_problems = read_lineup(rules, lineup, phase)
    problems.extend(lineup_problems)
    if not isinstance(raw_sides, list):
        problems.append(Problem.of(None, "sides", "hand.sides_not_list"))
        raise InvalidHand(problems, players_per_side)
    if rules.seating is not None:
        return _read_seated(rules, raw_sides, seats, phase, deal_number, problems)
    side_counts = plan.side_counts[players_per_side]  # None, or one of plan.players_choices
    if len(raw_sides) not in side_counts:
        problems.append(
            Problem.of(
                None,
                "sides",
                "hand.side_count",
                variant=rules.key,
                expected=list(side_counts),
                given=len(raw_sides),
            )
        )
    sides, failed = _read_sides(rules, raw_sides, problems)
    hand = Hand(tuple(sides), players_per_side, deal_number)
    problems.extend(check_hand(rules, hand, failed))
    if problems:
        raise InvalidHand(problems, players_per_side)
    return hand


def _read_seated(
    rules: Rules,
    raw_sides: list[Any],
    lineup: tuple[tuple[int, ...], ...] | None,
    phase: int | None,
    deal: int,
    problems: list[Problem],
) -> Hand:
    """A hand of a seated game: one record per side of its line-up, in the line-up's order."""
    named = lineup or ()  # who the sides are, even when the records do not fit the line-up
    if lineup is not None and len(raw_sides) != len(lineup):
        problems.append(
            Problem.of(None, "sides", "hand.lineup_sides", sides=len(lineup), given=len(raw_sides))
        )
        lineup = None
    sizes = {len(seats) for seats in lineup} if lineup is not None else set()
    players_per_side = sizes.pop() if len(sizes) == 1 else None
    sides, failed = _read_sides(rules, raw_sides, problems)
    hand = Hand(tuple(sides), players_per_side, deal, lineup or ())
    if lineup is not None:
        problems.extend(lineup_side_problems(rules, lineup, sides, phase, failed))
        problems.extend(check_hand(rules, hand, failed))
    if problems:
        raise InvalidHand(problems, players_per_side, named)
    return hand
