"""The shape of a rule set: frozen data, no behaviour that depends on a name.

A preset is a `Rules` value in the registry; options produce another `Rules`
value. Scoring, validation and the meld table read these fields and nothing
else, so a new preset is new data. A `Rules` value checks its own invariants
when it is built (a preset, an option result or a rule set read back from a
match), so a broken rule set never reaches the scorer.

Nothing here is a word: kinds, cards, penalties, special hands and line-ups have
keys, and a rule set names its `vocabulary` (how players of that game name
things); the words are made at the edge (`scorekeeper.words`) in the reader's
language.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, fields
from enum import StrEnum
from functools import cached_property
from typing import Any, TypeVar

from .errors import InvalidRules, Problem


class Vocabulary(StrEnum):
    """How the players of a game name its things (the same kind of canasta is a "clean
    burraco" in Burraco, a "clean book" in Hand and Foot): the edge picks each game's
    own words by it, as the message context of its translations."""

    CANASTA = "canasta"
    BOLIVIA = "bolivia"
    BURACO = "buraco"
    BURACO_PARTNERSHIPS = "buraco-partnerships"
    BURRACO = "burraco"
    HAND_AND_FOOT = "hand-and-foot"
    MODERN_AMERICAN = "modern-american"


class GameFamily(StrEnum):
    """The family a game belongs to: a player's rating is kept per family."""

    CANASTA = "canasta"
    BURACO = "buraco"
    HAND_AND_FOOT = "hand-and-foot"
    MODERN_AMERICAN = "modern-american"


class GameEndMode(StrEnum):
    """A game ends when a side reaches the target, or after a fixed number of deals."""

    TARGET = "target"
    DEALS = "deals"


class TieRule(StrEnum):
    """What an exact tie for first place at the end means."""

    PLAY_ON = "play_on"
    WENT_OUT_LAST = "went_out_last"
    DRAW = "draw"


class NegativeWhen(StrEnum):
    """When laid red threes count minus instead of plus."""

    NO_CANASTA = "no_canasta"
    NO_MELD = "no_meld"
    NEVER = "never"


class RedThreesMinus(StrEnum):
    """The minus schedule: the plus amounts mirrored, or one red three's value each."""

    MIRROR = "mirror"
    EACH = "each"


class Sign(StrEnum):
    PLUS = "plus"
    MINUS = "minus"


class MeldMinusWhen(StrEnum):
    """When a side's melded cards count against it."""

    NEVER = "never"
    NO_CANASTA = "no_canasta"
    NO_CLEAN_CANASTA = "no_clean_canasta"


class KindGroup(StrEnum):
    """What a canasta kind is made of: requirements and caps can name a group."""

    CLEAN = "clean"
    DIRTY = "dirty"
    WILD = "wild"


class CardKind(StrEnum):
    """Natural cards or wild cards: what a canasta kind can hold at the least."""

    NATURAL = "natural"
    WILD = "wild"


class CanastaNeed(StrEnum):
    """What a meld tier asks for beside points."""

    ANY = "any"
    NATURAL = "natural"


@dataclass(frozen=True)
class CardCategory:
    """A group of cards with one point value (e.g. K Q J 10 9 8 at 10): `ranks`, highest
    first, for a group of ranks (13 is the king, 11 the jack); none for a group named by
    its key alone (jokers, aces, twos)."""

    key: str
    value: int
    wild: bool = False
    ranks: tuple[int, ...] = ()


@dataclass(frozen=True)
class DeckCount:
    category: str
    count: int


@dataclass(frozen=True)
class Deck:
    """A deck by its key ("double": two packs and four jokers); `packs`, for a deck built
    from a number of packs with their jokers, says how many."""

    key: str
    size: int
    counts: tuple[DeckCount, ...]
    packs: int | None = None

    def count_of(self, category: str) -> int:
        for entry in self.counts:
            if entry.category == category:
                return entry.count
        return 0


@dataclass(frozen=True)
class PackDeck:
    """A deck built from a number of packs known only once the table is known.

    `packs` fixes the count (an option); otherwise it is the number of players
    plus `extra_packs` (Hand and Foot: one more pack than players).
    """

    pack: tuple[DeckCount, ...]
    pack_size: int
    extra_packs: int = 1
    packs: int | None = None

    def pack_count(self, players: int) -> int:
        return self.packs if self.packs is not None else players + self.extra_packs

    def build(self, players: int) -> Deck:
        n = self.pack_count(players)
        counts = tuple(DeckCount(entry.category, entry.count * n) for entry in self.pack)
        size = self.pack_size * n
        return Deck(f"packs-{n}", size, counts, packs=n)


@dataclass(frozen=True)
class Layout:
    """One way to seat the table: so many sides of so many players.

    `assumed` marks the layout taken for its number of sides when a score
    request does not say how many players a side has.
    """

    sides: int
    players_per_side: int
    assumed: bool = False

    @property
    def key(self) -> str:
        return f"{self.sides}x{self.players_per_side}"


@dataclass(frozen=True)
class CanastaKind:
    """A kind of completed meld with its bonus.

    `cheapest` says which cards the kind can hold at the least (natural or wild
    cards); `min_points`, when set, states the least card value outright
    (a run from ace to king cannot be seven low cards). `group` says whether
    the kind is clean, dirty or wild; `max_on_table` caps the kind across all
    sides of one hand. `option` is the house-rule option that sets the bonus.
    A kind with `enabled=False` exists only as an option that is off;
    `optional` lets its option turn an enabled kind off (`false`). `note` is the key
    of what the rule book adds about the kind (its cards, how it scores).
    """

    key: str
    bonus: int
    cheapest: CardKind
    option: str
    enabled: bool = True
    note: str = ""
    min_points: int | None = None
    group: KindGroup = KindGroup.CLEAN
    max_on_table: int | None = None
    optional: bool = False


@dataclass(frozen=True)
class CanastaClause:
    """At least `count` completed melds, of the listed kinds or groups (neither: any kind)."""

    count: int
    kinds: tuple[str, ...] = ()
    groups: tuple[KindGroup, ...] = ()


@dataclass(frozen=True)
class GoingOut:
    """The going-out bonus and requirement; the `_by_deal` entries win when set.

    A deal past the end of a `_by_deal` list uses its last entry.
    `needs_foot`: the player going out has picked up the foot;
    `needs_all_feet`: every player of the side has.
    """

    bonus: int
    concealed_bonus: int | None
    needs: tuple[CanastaClause, ...]
    needs_extra_hand: bool = False
    needs_by_deal: tuple[tuple[CanastaClause, ...], ...] = ()
    bonus_by_deal: tuple[int, ...] = ()
    needs_foot: bool = False
    needs_all_feet: bool = False

    def needs_for(self, deal: int) -> tuple[CanastaClause, ...]:
        return _by_deal(self.needs_by_deal, deal, self.needs)

    def bonus_for(self, deal: int) -> int:
        return _by_deal(self.bonus_by_deal, deal, self.bonus)


T = TypeVar("T")


def _by_deal(entries: tuple[T, ...], deal: int, default: T) -> T:
    if not entries:
        return default
    return entries[min(max(deal, 1), len(entries)) - 1]


@dataclass(frozen=True)
class RedThreeTotal:
    """A side holding exactly `count` red threes scores `total` in all."""

    count: int
    total: int


@dataclass(frozen=True)
class RedThrees:
    """Threes laid down (red; black too where a preset scores them): bonus, or minus
    when the side melded too little.

    `negative_when`: fewer than `canastas_needed` canastas, no meld at all, or
    never. `minus` is the minus schedule (the plus amounts mirrored, or `each`
    per red three). `plus_from`, when set, leaves a band between
    `canastas_needed` and it where the threes count nothing. When
    `penalty_each` is set, a side below the requirement loses that much per
    red three instead. `laid_sign` minus makes every laid red three cost its
    value (a Hand and Foot house rule). `field`, `card_category` and the nouns
    say which threes these are (the black threes of Modern American use the
    same shape); `schedule_option`, when set, names the one option that sets
    the whole count -> total schedule of every colour (instead of `red_three`
    and its companions).
    """

    each: int
    totals: tuple[RedThreeTotal, ...]
    canastas_needed: int
    negative_when: NegativeWhen
    negative_when_choices: tuple[NegativeWhen, ...] = ()
    penalty_each: int | None = None
    minus: RedThreesMinus = RedThreesMinus.MIRROR
    plus_from: int | None = None
    laid_sign: Sign = Sign.PLUS
    field: str = "red_threes"
    card_category: str = "red_three"
    schedule_option: str | None = None

    def special_total(self, count: int) -> int | None:
        """The schedule's own total for this many threes, where it has one."""
        for total in self.totals:  # a few; a loop makes no generator for each side
            if total.count == count:
                return total.total
        return None

    def plus_value(self, count: int) -> int:
        special = self.special_total(count)
        return special if special is not None else count * self.each


@dataclass(frozen=True)
class CountedPenalty:
    """A hand-record count that costs `points` each (black threes in hand...), named by
    its `field`.

    `card_category` makes the counted cards count toward the deck limits;
    `replaces_hand_cards` means those cards are entered only through this
    field, never in `hand_cards`. `option` names the option that sets the
    amount; `max_per_side` caps the count (an unfinished meld: 0 or 1) and
    `max_players` caps it at the side's players; `forbids_going_out` refuses
    going out while the count is above 0; `needs_kind` names the canasta kind
    the penalty exists for (an unfinished wild meld needs wild canastas);
    `excludes_kind` a kind the same side cannot also have completed (an
    unfinished aces meld beside an aces canasta).
    """

    field: str
    points: int
    card_category: str | None = None
    replaces_hand_cards: bool = False
    option: str | None = None
    max_per_side: int | None = None
    max_players: bool = False
    forbids_going_out: bool = False
    needs_kind: str | None = None
    excludes_kind: str | None = None


@dataclass(frozen=True)
class SpecialHand:
    """A hand a side goes out with that scores `points` and nothing else (Modern American).

    `wins_game`: recording it wins the game at once, whatever the totals.
    """

    key: str
    points: int
    wins_game: bool = False


@dataclass(frozen=True)
class CataloguePenalty:
    key: str
    points: int


@dataclass(frozen=True)
class ExtraHand:
    """A second hand a side must take before going out (the morto, the pozzetto)."""

    penalty_not_taken: int


@dataclass(frozen=True)
class Feet:
    """Each player's second hand (Hand and Foot): picked up after the first.

    The cards of a foot never picked up count against the side
    (`foot_points` or `foot_cards`); `exact_pickup_bonus`, when set, pays each
    player who picked up exactly the cards of hand and foot; `exact_pickup_usual` is
    what the house rule pays when it is simply turned on.
    """

    exact_pickup_bonus: int | None = None
    exact_pickup_usual: int | None = None


@dataclass(frozen=True)
class MeldTier:
    """From `min_score` (None: any score below the next tier) on, the first meld needs this.

    `sides`, when set, applies the tier only at a table of that many sides.
    """

    min_score: int | None
    points: int
    canasta: CanastaNeed | None = None
    sides: int | None = None


@dataclass(frozen=True)
class GroupCap:
    """At most `most` canastas of a group across all sides of one hand (one wild canasta)."""

    group: KindGroup
    most: int


@dataclass(frozen=True)
class LayoutTarget:
    layout: str
    target: int


@dataclass(frozen=True)
class GameEnd:
    """How a game ends: at a target (`Rules.target`, or per layout) or after `deals` deals."""

    mode: GameEndMode = GameEndMode.TARGET
    deals: int = 0
    tie_rule: TieRule = TieRule.PLAY_ON
    targets_by_layout: tuple[LayoutTarget, ...] = ()


class LineupMode(StrEnum):
    """How the seats of a seated game (Burraco for three) play their hands."""

    PAIR_THEN_EACH = "pair_then_each"
    EACH_FOR_SELF = "each_for_self"


@dataclass(frozen=True)
class LineupShape:
    """One way the seats may sit for a hand: sides of these sizes (ascending).

    `lone_took_extra_hand`: a side of one seat must have taken its extra hand (the
    player who finished first took the big pozzetto); `no_extra_hand`: no side took
    one (the stock ran out before anyone finished the dealt cards).
    """

    key: str
    sizes: tuple[int, ...]
    lone_took_extra_hand: bool = False
    no_extra_hand: bool = False


@dataclass(frozen=True)
class Seating:
    """Seats are the competitors; each hand is played in a line-up of them.

    The first phase allows `opening` shapes; after a hand at whose end a seat's
    total is `switch_from` or more (None: never), every later hand allows only
    `later` shapes. A side's hand total is shared among its seats: each share
    is the total divided by the side's seats, rounded up to a multiple of
    `share_multiple` (a side of one seat takes it whole).
    """

    seats: int
    opening: tuple[LineupShape, ...]
    later: tuple[LineupShape, ...] = ()
    switch_from: int | None = None
    share_multiple: int = 5
    mode: LineupMode = LineupMode.PAIR_THEN_EACH

    def shapes(self, phase: int | None) -> tuple[LineupShape, ...]:
        """The line-ups of a phase (0 before the switch, 1 after; None: any phase).

        In `each_for_self` mode the later line-ups hold from the first hand.
        """
        if self.mode == LineupMode.EACH_FOR_SELF:
            return self.later
        if phase is None:
            return self.opening + tuple(s for s in self.later if s not in self.opening)
        return self.later if phase and self.switch_from is not None else self.opening

    def switches(self) -> bool:
        """Whether a seat's total can move the game to the later line-ups."""
        return self.mode == LineupMode.PAIR_THEN_EACH and self.switch_from is not None

    def share(self, total: int, seats: int) -> int:
        """One seat's share of a side total: rounded up (toward plus) to the multiple."""
        step = seats * self.share_multiple
        return -(-total // step) * self.share_multiple


@dataclass(frozen=True)
class Rules:
    """A complete, resolved rule set: a preset, or a preset with options applied.

    Its derived lookups are `cached_property`s: worked out once per rule set (the data is
    frozen), outside the fields, so equality, hashing and serialization see only the
    data. Its hash is kept too: the engine's plans are cached per rule set.
    """

    key: str
    vocabulary: Vocabulary
    layouts: tuple[Layout, ...]
    deck: Deck
    cards: tuple[CardCategory, ...]
    canasta_kinds: tuple[CanastaKind, ...]
    going_out: GoingOut
    target: int
    family: GameFamily
    canasta_size: int = 7
    red_threes: RedThrees | None = None
    counted_penalties: tuple[CountedPenalty, ...] = ()
    catalogue: tuple[CataloguePenalty, ...] = ()
    extra_hand: ExtraHand | None = None
    meld_table: tuple[MeldTier, ...] = field(default=())
    game_end: GameEnd = GameEnd()
    meld_by_deal: tuple[int, ...] = ()
    meld_minus_when: MeldMinusWhen = MeldMinusWhen.NEVER
    optional_penalties: tuple[CountedPenalty, ...] = ()
    feet: Feet | None = None
    packs: PackDeck | None = None
    group_caps: tuple[GroupCap, ...] = ()
    seating: Seating | None = None
    black_threes: RedThrees | None = None
    special_hands: tuple[SpecialHand, ...] = ()
    unmeldable: tuple[str, ...] = ()
    meld_by_deal_offered: bool = False

    def __post_init__(self) -> None:
        problems = invariant_problems(self)
        if problems:
            raise InvalidRules(problems)

    def __hash__(self) -> int:
        return self._hash

    @cached_property
    def _hash(self) -> int:
        return hash(tuple(getattr(self, f.name) for f in fields(self)))

    # Lookups over the data; none of them branches on the variant.

    def category(self, key: str) -> CardCategory | None:
        return next((c for c in self.cards if c.key == key), None)

    @cached_property
    def category_values(self) -> Mapping[str, int]:
        """Each card category's value by key: counting cards asks for these on every side
        of every hand."""
        return {category.key: category.value for category in self.cards}

    @cached_property
    def kinds(self) -> tuple[CanastaKind, ...]:
        """The canasta kinds this rule set has (enabled ones)."""
        return tuple(k for k in self.canasta_kinds if k.enabled)

    def kind(self, key: str) -> CanastaKind | None:
        return next((k for k in self.kinds if k.key == key), None)

    def clause_kinds(self, clause: CanastaClause) -> tuple[str, ...] | None:
        """The kinds a clause counts (None: any kind); a group names its enabled kinds."""
        if not clause.kinds and not clause.groups:
            return None
        grouped = [k.key for k in self.kinds if k.group in clause.groups]
        return tuple(dict.fromkeys((*clause.kinds, *grouped)))

    def catalogue_penalty(self, key: str) -> CataloguePenalty | None:
        return next((p for p in self.catalogue if p.key == key), None)

    def special_hand(self, key: object) -> SpecialHand | None:
        return next((h for h in self.special_hands if h.key == key), None)

    @cached_property
    def laid_threes(self) -> tuple[RedThrees, ...]:
        """The schedules of threes laid down: red, and black where they score too."""
        return tuple(t for t in (self.red_threes, self.black_threes) if t is not None)

    def cheapest_value(self, wild: bool) -> int:
        """The lowest point value of a natural (or wild) card in this value set."""
        return min(c.value for c in self.cards if c.wild == wild)

    def deck_for(self, players: int | None = None) -> Deck:
        """The deck of a table of `players` players (the preset's own deck when unknown)."""
        if self.packs is None or players is None:
            return self.deck
        return self.packs.build(players)

    def deck_value(self, deck: Deck | None = None) -> int:
        """The card value of the whole deck: what one hand can count at most."""
        deck = deck or self.deck
        return sum(deck.count_of(c.key) * c.value for c in self.cards)

    def min_canasta_points(self, kind: CanastaKind) -> int:
        if kind.min_points is not None:
            return kind.min_points
        return self.canasta_size * self.cheapest_value(kind.cheapest == CardKind.WILD)

    def target_for(self, layout: Layout | str | None = None) -> int:
        """The target of a table of this layout (the preset's own target when unknown)."""
        key = layout.key if isinstance(layout, Layout) else layout
        for entry in self.game_end.targets_by_layout:
            if entry.layout == key:
                return entry.target
        return self.target

    def meld_by_score(self) -> bool:
        """Whether the initial-meld minimum follows the score (else the deal number)."""
        return not self.meld_by_deal

    @cached_property
    def fields(self) -> tuple[str, ...]:
        """The hand-record fields a side's record may carry under these rules."""
        names = ["went_out", "concealed", "canastas", "meld_points", "meld_cards"]
        names += ["hand_points", "hand_cards"]
        if self.feet is not None:
            names += ["foot_points", "foot_cards", "feet_taken"]
            if self.feet.exact_pickup_bonus is not None:
                names.append("exact_pickups")
        names += [threes.field for threes in self.laid_threes]
        names += [p.field for p in self.counted_penalties]
        if self.extra_hand is not None:
            names.append("took_extra_hand")
        names.append("penalties")
        if self.special_hands:
            names.append("special_hand")
        return tuple(names)


def _bad_points(value: int) -> bool:
    return value < 0 or value % 5 != 0


def _fault(rules: Rules, key: str, /, **params: Any) -> Problem:
    """A reason a rule set cannot be scored by (no side, no field): key `rules.*`."""
    return Problem(None, None, f"rules.{key}", {"variant": rules.key, **params})


def _clause_problems(rules: Rules, clauses: tuple[CanastaClause, ...], deal: int) -> list[Problem]:
    """`deal` 0: the going-out requirement; else the one of that deal."""
    known = {k.key for k in rules.canasta_kinds}
    problems = []
    for clause in clauses:
        if clause.count < 1:
            problems.append(_fault(rules, "clause_count", deal=deal))
        unknown = [k for k in clause.kinds if k not in known]
        if unknown:
            problems.append(_fault(rules, "clause_kinds", deal=deal, kinds=unknown))
    return problems


def invariant_problems(rules: Rules) -> list[Problem]:
    """What makes a rule set impossible to score by (empty for a sound one)."""
    problems: list[Problem] = []
    if not rules.layouts:
        problems.append(_fault(rules, "no_layout"))
    if any(lay.sides < 2 or lay.players_per_side < 1 for lay in rules.layouts):
        problems.append(_fault(rules, "layout_size"))
    keys = [k.key for k in rules.canasta_kinds]
    if len(set(keys)) != len(keys):
        problems.append(_fault(rules, "kind_keys"))
    options = [k.option for k in rules.canasta_kinds]
    if len(set(options)) != len(options):
        problems.append(_fault(rules, "kind_options"))
    points = [k.bonus for k in rules.canasta_kinds]
    points += [rules.going_out.bonus, *rules.going_out.bonus_by_deal, *rules.meld_by_deal]
    if rules.going_out.concealed_bonus is not None:
        points.append(rules.going_out.concealed_bonus)
    points += [c.value for c in rules.cards]
    points += [p.points for p in (*rules.counted_penalties, *rules.optional_penalties)]
    points += [p.points for p in rules.catalogue]
    points += [h.points for h in rules.special_hands]
    points += [t.points for t in rules.meld_table]
    points += [t.target for t in rules.game_end.targets_by_layout]
    points += [k.min_points for k in rules.canasta_kinds if k.min_points is not None]
    for red in rules.laid_threes:
        points += [red.each, *(t.total for t in red.totals)]
        if red.penalty_each is not None:
            points.append(red.penalty_each)
        counts = [t.count for t in red.totals]
        if len(set(counts)) != len(counts) or any(c < 1 for c in counts):
            problems.append(_fault(rules, "three_totals"))
        if red.negative_when_choices and red.negative_when not in red.negative_when_choices:
            problems.append(_fault(rules, "three_minus_choice"))
    if rules.extra_hand is not None:
        points.append(rules.extra_hand.penalty_not_taken)
    if rules.feet is not None and rules.feet.exact_pickup_bonus is not None:
        points.append(rules.feet.exact_pickup_bonus)
    if any(_bad_points(p) for p in points):
        problems.append(_fault(rules, "points"))
    if rules.target <= 0 or rules.target % 5:
        problems.append(_fault(rules, "target"))
    problems += _clause_problems(rules, rules.going_out.needs, 0)
    for deal, needs in enumerate(rules.going_out.needs_by_deal, start=1):
        problems += _clause_problems(rules, needs, deal)
    previous: int | None = None
    for index, tier in enumerate(rules.meld_table):
        if (index == 0) != (tier.min_score is None):
            problems.append(_fault(rules, "tier_start"))
        elif tier.min_score is not None and previous is not None and tier.min_score <= previous:
            problems.append(_fault(rules, "tiers_rise"))
        if tier.canasta is not None and tier.canasta not in set(CanastaNeed):
            problems.append(_fault(rules, "tier_canasta"))
        previous = tier.min_score if tier.min_score is not None else previous
    end = rules.game_end
    if end.mode == GameEndMode.DEALS and end.deals < 1:
        problems.append(_fault(rules, "deals"))
    layout_keys = {lay.key for lay in rules.layouts}
    if any(t.layout not in layout_keys for t in end.targets_by_layout):
        problems.append(_fault(rules, "target_layout"))
    special_keys = [h.key for h in rules.special_hands]
    if len(set(special_keys)) != len(special_keys):
        problems.append(_fault(rules, "special_keys"))
    card_keys = {c.key for c in rules.cards}
    if len(card_keys) != len(rules.cards):
        problems.append(_fault(rules, "card_keys"))
    if any(key not in card_keys for key in rules.unmeldable):
        problems.append(_fault(rules, "unmeldable"))
    penalty_fields = [p.field for p in rules.counted_penalties]
    if len(set(penalty_fields)) != len(penalty_fields):
        problems.append(_fault(rules, "penalty_fields"))
    if rules.packs is not None and rules.packs.packs is not None and rules.packs.packs < 1:
        problems.append(_fault(rules, "packs"))
    if rules.seating is not None:
        problems += _seating_problems(rules, rules.seating)
    return problems


def _seating_problems(rules: Rules, seating: Seating) -> list[Problem]:
    problems = []
    if not any(lay.sides == seating.seats and lay.players_per_side == 1 for lay in rules.layouts):
        problems.append(_fault(rules, "seat_layout"))
    needs_later = seating.switch_from is not None or seating.mode == LineupMode.EACH_FOR_SELF
    if not seating.opening or (needs_later and not seating.later):
        problems.append(_fault(rules, "phase_lineups"))
    for shape in (*seating.opening, *seating.later):
        if sum(shape.sizes) != seating.seats or list(shape.sizes) != sorted(shape.sizes):
            problems.append(_fault(rules, "lineup_seats", shape=shape.key))
        if len(shape.sizes) < 2 or min(shape.sizes) < 1:
            problems.append(_fault(rules, "lineup_sides", shape=shape.key))
    if seating.share_multiple < 1:
        problems.append(_fault(rules, "share_multiple"))
    if seating.switch_from is not None and _bad_points(seating.switch_from):
        problems.append(_fault(rules, "switch"))
    return problems
