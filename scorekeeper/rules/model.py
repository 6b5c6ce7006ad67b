"""The shape of a rule set: frozen data, no behaviour that depends on a name.

A preset is a `Rules` value in the registry; options produce another `Rules`
value. Scoring, validation and the meld table read these fields and nothing
else, so a new preset is new data.
"""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass(frozen=True)
class CardCategory:
    """A group of cards with one point value (e.g. K Q J 10 9 8 at 10)."""

    key: str
    singular: str
    plural: str
    cards: str
    value: int
    wild: bool = False

    def noun(self, count: int) -> str:
        return self.singular if count == 1 else self.plural


@dataclass(frozen=True)
class DeckCount:
    category: str
    count: int


@dataclass(frozen=True)
class Deck:
    key: str
    label: str
    size: int
    counts: tuple[DeckCount, ...]

    def count_of(self, category: str) -> int:
        for entry in self.counts:
            if entry.category == category:
                return entry.count
        return 0


@dataclass(frozen=True)
class Layout:
    """One way to seat the table: so many sides of so many players."""

    sides: int
    players_per_side: int

    @property
    def label(self) -> str:
        if self.players_per_side == 1:
            return f"{self.sides} players, each on their own"
        return f"{self.sides} partnerships of {self.players_per_side}"

    @property
    def key(self) -> str:
        return f"{self.sides}x{self.players_per_side}"


@dataclass(frozen=True)
class CanastaKind:
    """A kind of completed meld with its bonus.

    `cheapest` says which cards the kind can hold at the least (natural or wild
    cards): it bounds the meld points a declared canasta implies.
    `option` is the name of the house-rule option that sets the bonus.
    A kind with `enabled=False` exists only as an option that is off.
    """

    key: str
    singular: str
    plural: str
    bonus: int
    cheapest: str
    option: str
    enabled: bool = True
    note: str = ""

    def noun(self, count: int) -> str:
        return self.singular if count == 1 else self.plural


@dataclass(frozen=True)
class CanastaClause:
    """At least `count` completed melds, of the listed kinds (empty: any kind)."""

    count: int
    kinds: tuple[str, ...] = ()


@dataclass(frozen=True)
class GoingOut:
    label: str
    bonus: int
    concealed_bonus: int | None
    needs: tuple[CanastaClause, ...]
    needs_extra_hand: bool = False


@dataclass(frozen=True)
class RedThreeTotal:
    """A side holding exactly `count` red threes scores `total` in all."""

    count: int
    total: int


@dataclass(frozen=True)
class RedThrees:
    """Red threes laid down: bonus, or minus when the side melded too little.

    `negative_when` is "no_canasta" (fewer than `canastas_needed` canastas) or
    "no_meld" (no canasta and no meld points at all). When `penalty_each` is
    set, a side below the requirement loses that much per red three instead of
    the mirrored bonus.
    """

    each: int
    totals: tuple[RedThreeTotal, ...]
    canastas_needed: int
    negative_when: str
    negative_when_choices: tuple[str, ...] = ()
    penalty_each: int | None = None


@dataclass(frozen=True)
class CountedPenalty:
    """A hand-record count that costs `points` each (black threes in hand...).

    `card_category` makes the counted cards count toward the deck limits;
    `replaces_hand_cards` means those cards are entered only through this
    field, never in `hand_cards`.
    """

    field: str
    singular: str
    plural: str
    points: int
    card_category: str | None = None
    replaces_hand_cards: bool = False

    def noun(self, count: int) -> str:
        return self.singular if count == 1 else self.plural


@dataclass(frozen=True)
class CataloguePenalty:
    key: str
    label: str
    points: int


@dataclass(frozen=True)
class ExtraHand:
    name: str
    penalty_not_taken: int


@dataclass(frozen=True)
class MeldTier:
    """From `min_score` (None: any score below the next tier) on, the first meld needs this."""

    min_score: int | None
    points: int
    canasta: str | None = None


@dataclass(frozen=True)
class Rules:
    """A complete, resolved rule set: a preset, or a preset with options applied."""

    key: str
    name: str
    description: str
    source: str
    layouts: tuple[Layout, ...]
    deck: Deck
    cards: tuple[CardCategory, ...]
    canasta_noun: str
    canasta_plural: str
    canasta_kinds: tuple[CanastaKind, ...]
    going_out: GoingOut
    target: int
    canasta_size: int = 7
    red_threes: RedThrees | None = None
    counted_penalties: tuple[CountedPenalty, ...] = ()
    catalogue: tuple[CataloguePenalty, ...] = ()
    extra_hand: ExtraHand | None = None
    meld_table: tuple[MeldTier, ...] = field(default=())

    # Lookups over the data; none of them branches on the variant.

    def category(self, key: str) -> CardCategory | None:
        return next((c for c in self.cards if c.key == key), None)

    def kinds(self) -> tuple[CanastaKind, ...]:
        """The canasta kinds this rule set has (enabled ones)."""
        return tuple(k for k in self.canasta_kinds if k.enabled)

    def kind(self, key: str) -> CanastaKind | None:
        return next((k for k in self.kinds() if k.key == key), None)

    def catalogue_penalty(self, key: str) -> CataloguePenalty | None:
        return next((p for p in self.catalogue if p.key == key), None)

    def canasta_noun_for(self, count: int) -> str:
        return self.canasta_noun if count == 1 else self.canasta_plural

    def cheapest_value(self, wild: bool) -> int:
        """The lowest point value of a natural (or wild) card in this value set."""
        return min(c.value for c in self.cards if c.wild == wild)

    def deck_value(self) -> int:
        """The card value of the whole deck: what one hand can count at most."""
        return sum(self.deck.count_of(c.key) * c.value for c in self.cards)

    def min_canasta_points(self, kind: CanastaKind) -> int:
        return self.canasta_size * self.cheapest_value(kind.cheapest == "wild")

    def fields(self) -> tuple[str, ...]:
        """The hand-record fields a side's record may carry under these rules."""
        names = ["went_out", "concealed", "canastas", "meld_points", "meld_cards"]
        names += ["hand_points", "hand_cards"]
        if self.red_threes is not None:
            names.append("red_threes")
        names += [p.field for p in self.counted_penalties]
        if self.extra_hand is not None:
            names.append("took_extra_hand")
        names.append("penalties")
        return tuple(names)
