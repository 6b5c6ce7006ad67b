"""Card value sets and deck compositions (RULES.md, "Card value sets")."""

from __future__ import annotations

from .model import CardCategory, Deck, DeckCount, PackDeck

JOKER = "joker"
TWO = "two"
ACE = "ace"
HIGH = "high"
LOW = "low"
BLACK_THREE = "black_three"
RED_THREE = "red_three"


HIGH_RANKS = (13, 12, 11, 10, 9, 8)  # K Q J 10 9 8
LOW_RANKS = (7, 6, 5, 4)
LOW_RANKS_WITH_THREES = (7, 6, 5, 4, 3)  # where threes are plain low cards (Buraco, Burraco)


def _category(
    key: str, value: int, *, wild: bool = False, low_ranks: tuple[int, ...] = LOW_RANKS
) -> CardCategory:
    ranks = {HIGH: HIGH_RANKS, LOW: low_ranks}.get(key, ())
    return CardCategory(key, value, wild, ranks)


CANASTA_VALUES: tuple[CardCategory, ...] = (
    _category(JOKER, 50, wild=True),
    _category(TWO, 20, wild=True),
    _category(ACE, 20),
    _category(HIGH, 10),
    _category(LOW, 5),
    _category(BLACK_THREE, 5),
)

# Modern American Canasta: a three can only be left in hand as the last card drawn.
MAC_VALUES: tuple[CardCategory, ...] = (
    *CANASTA_VALUES,
    _category(RED_THREE, 5),
)

BURACO_VALUES: tuple[CardCategory, ...] = (
    _category(TWO, 10, wild=True),
    _category(ACE, 15),
    _category(HIGH, 10),
    _category(LOW, 5, low_ranks=LOW_RANKS_WITH_THREES),
)

BURRACO_VALUES: tuple[CardCategory, ...] = (
    _category(JOKER, 30, wild=True),
    _category(TWO, 20, wild=True),
    _category(ACE, 15),
    _category(HIGH, 10),
    _category(LOW, 5, low_ranks=LOW_RANKS_WITH_THREES),
)


BURACO4_VALUES: tuple[CardCategory, ...] = (
    _category(JOKER, 20, wild=True),
    _category(TWO, 10, wild=True),
    _category(ACE, 15),
    _category(HIGH, 10),
    _category(LOW, 5, low_ranks=LOW_RANKS_WITH_THREES),
)


def _deck(key: str, size: int, **counts: int) -> Deck:
    entries = tuple(DeckCount(category, count) for category, count in counts.items())
    return Deck(key, size, entries)


DOUBLE_DECK = _deck(
    "double", 108,
    joker=4, two=8, ace=8, high=48, low=32, black_three=4, red_three=4,
)  # fmt: skip
TRIPLE_DECK = _deck(
    "triple", 162,
    joker=6, two=12, ace=12, high=72, low=48, black_three=6, red_three=6,
)  # fmt: skip
BURACO_DECK = _deck(
    "buraco", 104,
    joker=0, two=8, ace=8, high=48, low=40,
)  # fmt: skip
BURRACO_DECK = _deck(
    "burraco", 108,
    joker=4, two=8, ace=8, high=48, low=40,
)  # fmt: skip
BURACO4_DECK = _deck(
    "buraco4", 108,
    joker=4, two=8, ace=8, high=48, low=40,
)  # fmt: skip


def packs_deck(extra_packs: int = 1) -> PackDeck:
    """Packs of 52 cards and 2 jokers, as many as the players plus `extra_packs`."""
    pack = (
        ("joker", 2), ("two", 4), ("ace", 4), ("high", 24), ("low", 16),
        ("black_three", 2), ("red_three", 2),
    )  # fmt: skip
    return PackDeck(tuple(DeckCount(c, n) for c, n in pack), 54, extra_packs)
