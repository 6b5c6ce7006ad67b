"""The words of the games' things: canastas and their kinds, cards, threes, penalties,
special hands, line-ups, decks and layouts.

What one game calls otherwise than another is looked up by the game's vocabulary and
translated with it as the message context (npgettext/pgettext): a Burraco player's
"clean burraco" is a Hand and Foot player's "clean book", and in Portuguese Buraco
the extra hand is the morto where Italian Burraco has the pozzetto. The rest is the
same in every game (ngettext/gettext).
"""

from __future__ import annotations

from collections.abc import Callable

from ..rules.model import Deck, Layout, Vocabulary
from .base import number
from .translate import gettext, ngettext, npgettext, pgettext

Noun = Callable[[int], str]  # a noun for a count

V = Vocabulary
CANASTA_NOUNS: dict[Vocabulary, Noun] = {
    V.CANASTA: lambda n: npgettext("canasta", "canasta", "canastas", n),
    V.BOLIVIA: lambda n: npgettext("bolivia", "canasta", "canastas", n),
    V.BURACO: lambda n: npgettext("buraco", "canasta", "canastas", n),
    V.BURACO_PARTNERSHIPS: lambda n: npgettext("buraco-partnerships", "canasta", "canastas", n),
    V.BURRACO: lambda n: npgettext("burraco", "burraco", "burracos", n),
    V.HAND_AND_FOOT: lambda n: npgettext("hand-and-foot", "book", "books", n),
    V.MODERN_AMERICAN: lambda n: npgettext("modern-american", "canasta", "canastas", n),
}

# Whole phrases where an article or "no" goes with the game's canasta: in Portuguese,
# Spanish and Italian the article follows the noun's gender (uma canastra, un burraco), so
# each game's phrase is one message of its own, never an English article put before a noun.
A_CANASTA: dict[Vocabulary, Callable[[], str]] = {
    V.CANASTA: lambda: pgettext("canasta", "a canasta"),
    V.BOLIVIA: lambda: pgettext("bolivia", "a canasta"),
    V.BURACO: lambda: pgettext("buraco", "a canasta"),
    V.BURACO_PARTNERSHIPS: lambda: pgettext("buraco-partnerships", "a canasta"),
    V.BURRACO: lambda: pgettext("burraco", "a burraco"),
    V.HAND_AND_FOOT: lambda: pgettext("hand-and-foot", "a book"),
    V.MODERN_AMERICAN: lambda: pgettext("modern-american", "a canasta"),
}
A_NATURAL_CANASTA: dict[Vocabulary, Callable[[], str]] = {
    V.CANASTA: lambda: pgettext("canasta", "a natural canasta"),
    V.BOLIVIA: lambda: pgettext("bolivia", "a natural canasta"),
    V.BURACO: lambda: pgettext("buraco", "a natural canasta"),
    V.BURACO_PARTNERSHIPS: lambda: pgettext("buraco-partnerships", "a clean canasta"),
    V.BURRACO: lambda: pgettext("burraco", "a clean burraco"),
    V.HAND_AND_FOOT: lambda: pgettext("hand-and-foot", "a clean book"),
    V.MODERN_AMERICAN: lambda: pgettext("modern-american", "a natural canasta"),
}
NO_CANASTA: dict[Vocabulary, Callable[[], str]] = {
    V.CANASTA: lambda: pgettext("canasta", "no canasta"),
    V.BOLIVIA: lambda: pgettext("bolivia", "no canasta"),
    V.BURACO: lambda: pgettext("buraco", "no canasta"),
    V.BURACO_PARTNERSHIPS: lambda: pgettext("buraco-partnerships", "no canasta"),
    V.BURRACO: lambda: pgettext("burraco", "no burraco"),
    V.HAND_AND_FOOT: lambda: pgettext("hand-and-foot", "no book"),
    V.MODERN_AMERICAN: lambda: pgettext("modern-american", "no canasta"),
}
NO_CLEAN_CANASTA: dict[Vocabulary, Callable[[], str]] = {
    V.CANASTA: lambda: pgettext("canasta", "no clean canasta"),
    V.BOLIVIA: lambda: pgettext("bolivia", "no clean canasta"),
    V.BURACO: lambda: pgettext("buraco", "no clean canasta"),
    V.BURACO_PARTNERSHIPS: lambda: pgettext("buraco-partnerships", "no clean canasta"),
    V.BURRACO: lambda: pgettext("burraco", "no clean burraco"),
    V.HAND_AND_FOOT: lambda: pgettext("hand-and-foot", "no clean book"),
    V.MODERN_AMERICAN: lambda: pgettext("modern-american", "no clean canasta"),
}

# The canasta kinds each game has, by key (a kind missing here is looked up in Canasta's).
KIND_NOUNS: dict[Vocabulary, dict[str, Noun]] = {
    V.CANASTA: {
        "natural": lambda n: npgettext("canasta", "natural canasta", "natural canastas", n),
        "mixed": lambda n: npgettext("canasta", "mixed canasta", "mixed canastas", n),
        "wild": lambda n: npgettext("canasta", "wild-card canasta", "wild-card canastas", n),
        "samba": lambda n: npgettext("canasta", "samba", "sambas", n),
        "bolivia": lambda n: npgettext("canasta", "bolivia", "bolivias", n),
        "ace_to_king": lambda n: npgettext(
            "canasta", "ace-to-king canasta", "ace-to-king canastas", n
        ),
        "ace_to_ace": lambda n: npgettext(
            "canasta", "ace-to-ace canasta", "ace-to-ace canastas", n
        ),
    },
    V.BOLIVIA: {
        "natural": lambda n: npgettext("bolivia", "natural canasta", "natural canastas", n),
        "mixed": lambda n: npgettext("bolivia", "mixed canasta", "mixed canastas", n),
        "samba": lambda n: npgettext("bolivia", "escalera", "escaleras", n),
        "bolivia": lambda n: npgettext("bolivia", "bolivia", "bolivias", n),
    },
    V.BURACO: {
        "natural": lambda n: npgettext("buraco", "natural canasta", "natural canastas", n),
        "mixed": lambda n: npgettext("buraco", "mixed canasta", "mixed canastas", n),
        "ace_to_king": lambda n: npgettext(
            "buraco", "ace-to-king canasta", "ace-to-king canastas", n
        ),
        "ace_to_ace": lambda n: npgettext("buraco", "ace-to-ace canasta", "ace-to-ace canastas", n),
    },
    V.BURACO_PARTNERSHIPS: {
        "natural": lambda n: npgettext("buraco-partnerships", "clean canasta", "clean canastas", n),
        "mixed": lambda n: npgettext("buraco-partnerships", "dirty canasta", "dirty canastas", n),
        "ace_to_king": lambda n: npgettext(
            "buraco-partnerships", "ace-to-king canasta", "ace-to-king canastas", n
        ),
        "ace_to_ace": lambda n: npgettext(
            "buraco-partnerships", "ace-to-ace canasta", "ace-to-ace canastas", n
        ),
    },
    V.BURRACO: {
        "natural": lambda n: npgettext("burraco", "clean burraco", "clean burracos", n),
        "mixed": lambda n: npgettext("burraco", "dirty burraco", "dirty burracos", n),
        "semi_clean": lambda n: npgettext(
            "burraco", "semi-clean burraco", "semi-clean burracos", n
        ),
        "ace_to_king": lambda n: npgettext("burraco", "burraco nobile", "burracos nobili", n),
        "ace_to_ace": lambda n: npgettext("burraco", "burraco reale", "burracos reali", n),
    },
    V.HAND_AND_FOOT: {
        "natural": lambda n: npgettext("hand-and-foot", "clean book", "clean books", n),
        "mixed": lambda n: npgettext("hand-and-foot", "dirty book", "dirty books", n),
        "wild": lambda n: npgettext("hand-and-foot", "wild book", "wild books", n),
    },
    V.MODERN_AMERICAN: {
        "natural": lambda n: npgettext("modern-american", "natural canasta", "natural canastas", n),
        "mixed": lambda n: npgettext("modern-american", "mixed canasta", "mixed canastas", n),
        "aces": lambda n: npgettext("modern-american", "canasta of aces", "canastas of aces", n),
        "sevens": lambda n: npgettext(
            "modern-american", "canasta of sevens", "canastas of sevens", n
        ),
        "wild": lambda n: npgettext(
            "modern-american", "wild-card canasta", "wild-card canastas", n
        ),
        "wild_jokers": lambda n: npgettext(
            "modern-american",
            "canasta of four jokers and three twos",
            "canastas of four jokers and three twos",
            n,
        ),
        "wild_twos": lambda n: npgettext(
            "modern-american", "canasta of twos", "canastas of twos", n
        ),
    },
}

GOING_OUT: dict[Vocabulary, Callable[[], str]] = {
    V.CANASTA: lambda: pgettext("canasta", "Going out"),
    V.BOLIVIA: lambda: pgettext("bolivia", "Going out"),
    V.BURACO: lambda: pgettext("buraco", "Going out"),
    V.BURACO_PARTNERSHIPS: lambda: pgettext("buraco-partnerships", "Going out"),
    V.BURRACO: lambda: pgettext("burraco", "Closing"),
    V.HAND_AND_FOOT: lambda: pgettext("hand-and-foot", "Going out"),
    V.MODERN_AMERICAN: lambda: pgettext("modern-american", "Going out"),
}

# The extra hand of the games that have one; the others say "extra hand".
EXTRA_HANDS: dict[Vocabulary, Callable[[], str]] = {
    V.BURACO: lambda: pgettext("buraco", "morto"),
    V.BURACO_PARTNERSHIPS: lambda: pgettext("buraco-partnerships", "morto"),
    V.BURRACO: lambda: pgettext("burraco", "pozzetto"),
}
# The second hand each player of Hand and Foot picks up.
FEET: dict[Vocabulary, Noun] = {
    V.HAND_AND_FOOT: lambda n: npgettext("hand-and-foot", "foot", "feet", n),
}

CATEGORIES: dict[str, Noun] = {
    "joker": lambda n: ngettext("joker", "jokers", n),
    "two": lambda n: ngettext("two", "twos", n),
    "ace": lambda n: ngettext("ace", "aces", n),
    "high": lambda n: ngettext("high card", "high cards", n),
    "low": lambda n: ngettext("low card", "low cards", n),
    "black_three": lambda n: ngettext("black three", "black threes", n),
    "red_three": lambda n: ngettext("red three", "red threes", n),
}
# What the cards of a category are, where its ranks do not say it.
CATEGORY_CARDS: dict[str, Callable[[], str]] = {
    "joker": lambda: gettext("jokers"),
    "two": lambda: gettext("2s (wild)"),
    "ace": lambda: gettext("aces"),
    "black_three": lambda: gettext("black 3s"),
    "red_three": lambda: gettext("red 3s"),
}
RANKS: dict[int, Callable[[], str]] = {
    13: lambda: pgettext("rank", "K"),
    12: lambda: pgettext("rank", "Q"),
    11: lambda: pgettext("rank", "J"),
}

PENALTIES: dict[str, Noun] = {
    "incomplete_wild": lambda n: ngettext(
        "unfinished wild-card meld", "unfinished wild-card melds", n
    ),
    "black_threes_in_hand": lambda n: ngettext(
        "black three left in hand", "black threes left in hand", n
    ),
    "red_threes_in_hand": lambda n: ngettext(
        "red three still in hand", "red threes still in hand", n
    ),
    "short_sequences": lambda n: ngettext(
        "melded sequence under 5 cards", "melded sequences under 5 cards", n
    ),
    "incomplete_aces": lambda n: ngettext("unfinished meld of aces", "unfinished melds of aces", n),
    "incomplete_sevens": lambda n: ngettext(
        "unfinished meld of sevens", "unfinished melds of sevens", n
    ),
    "players_with_3_aces": lambda n: ngettext(
        "player holding three or more aces", "players holding three or more aces", n
    ),
    "players_with_3_sevens": lambda n: ngettext(
        "player holding three or more sevens", "players holding three or more sevens", n
    ),
}
# Penalties a game names its own way.
GAME_PENALTIES: dict[Vocabulary, dict[str, Noun]] = {
    V.HAND_AND_FOOT: {
        "red_threes_in_hand": lambda n: npgettext(
            "hand-and-foot", "red three held at the end", "red threes held at the end", n
        ),
    },
}

CATALOGUE: dict[str, Callable[[], str]] = {
    "three_wild_canasta": lambda: gettext("Canasta with three wild cards"),
    "stock_out_of_turn": lambda: gettext("Drew from the stock out of turn"),
    "pile_out_of_turn": lambda: gettext("Took the discard pile out of turn"),
    "play_out_of_turn": lambda: gettext("Played during an opponent's turn"),
    "out_after_refusal": lambda: gettext("Tried to go out after the partner said no"),
}

SPECIAL_HANDS: dict[str, Callable[[], str]] = {
    "pairs": lambda: gettext("Pairs"),
    "wild_pairs": lambda: gettext("Pairs with wild cards"),
    "miami_pairs": lambda: gettext("Miami pairs"),
    "zip_code": lambda: gettext("Zip code"),
    "straight": lambda: gettext("Straight"),
    "garbage": lambda: gettext("Garbage"),
    "blast_off": lambda: gettext("Blast off"),
    "triples": lambda: gettext("Triples"),
    "quads": lambda: gettext("Quads"),
    "dream_plus_4": lambda: gettext("Dream hand plus 4"),
    "dream_plus_5": lambda: gettext("Dream hand plus 5"),
}

SHAPES: dict[str, Callable[[], str]] = {
    "pair_against_one": lambda: gettext("pair against one"),
    "each_for_self": lambda: gettext("each for himself"),
}

NOTES: dict[str, Callable[[], str]] = {
    "own_bonus_only": lambda: gettext("scores its own bonus only, not the natural one as well"),
    "natural_mac": lambda: gettext("seven natural cards of one rank other than aces and sevens"),
    "mixed_mac": lambda: gettext(
        "five or six natural cards and one or two wild cards; never sevens"
    ),
    "aces": lambda: gettext("seven natural aces"),
    "sevens": lambda: gettext("seven sevens, never wild"),
    "wild_mac": lambda: gettext("seven wild cards with one to three jokers"),
    "wild_jokers": lambda: gettext("all four jokers and three twos"),
    "wild_twos": lambda: gettext("seven twos"),
}

DECKS: dict[str, Callable[[], str]] = {
    "double": lambda: gettext("Two packs and 4 jokers (108 cards)"),
    "triple": lambda: gettext("Three packs and 6 jokers (162 cards)"),
    "buraco": lambda: gettext("Two packs, no jokers (104 cards)"),
    "burraco": lambda: gettext("Two packs and 4 jokers (108 cards)"),
    "buraco4": lambda: gettext("Two packs and 4 jokers (108 cards)"),
}


def canasta(vocabulary: Vocabulary, count: int) -> str:
    """What the game calls a canasta: "canasta", "burraco", "book"."""
    return CANASTA_NOUNS.get(vocabulary, CANASTA_NOUNS[V.CANASTA])(count)


def a_canasta(vocabulary: Vocabulary, *, natural: bool = False) -> str:
    """ "a canasta", "a natural canasta" ("a clean burraco"), as the game says it."""
    table = A_NATURAL_CANASTA if natural else A_CANASTA
    return table.get(vocabulary, table[V.CANASTA])()


def no_canasta(vocabulary: Vocabulary, *, clean: bool = False) -> str:
    """ "no canasta", "no clean burraco": why red threes count minus, in the game's words."""
    table = NO_CLEAN_CANASTA if clean else NO_CANASTA
    return table.get(vocabulary, table[V.CANASTA])()


# Canastas of a group of kinds, as a fold of the hand form names them ("wild-card canastas").
GROUP_CANASTAS: dict[str, Callable[[], str]] = {
    "wild": lambda: gettext("wild-card canastas"),
    "clean": lambda: gettext("clean canastas"),
    "dirty": lambda: gettext("dirty canastas"),
}


def group_canastas(vocabulary: Vocabulary, group: str) -> str:
    """Canastas of a group of kinds ("wild-card canastas"): the rare kinds the hand form folds
    away (Modern American's, whose vocabulary says canasta)."""
    words = GROUP_CANASTAS.get(group)
    return words() if words is not None else group


def kind(vocabulary: Vocabulary, key: str, count: int) -> str:
    """A canasta kind in the game's words ("clean burraco"); an unknown kind by its key."""
    noun = KIND_NOUNS.get(vocabulary, {}).get(key) or KIND_NOUNS[V.CANASTA].get(key)
    return noun(count) if noun is not None else key.replace("_", " ")


def going_out(vocabulary: Vocabulary) -> str:
    """What the game calls going out ("Closing" in Burraco)."""
    return GOING_OUT.get(vocabulary, GOING_OUT[V.CANASTA])()


def extra_hand(vocabulary: Vocabulary) -> str:
    """The game's name of the extra hand (morto, pozzetto)."""
    name = EXTRA_HANDS.get(vocabulary)
    return name() if name is not None else gettext("extra hand")


def foot(vocabulary: Vocabulary, count: int) -> str:
    noun = FEET.get(vocabulary, FEET[V.HAND_AND_FOOT])
    return noun(count)


def category(key: str, count: int) -> str:
    """A card category: "2 jokers"' noun."""
    noun = CATEGORIES.get(key)
    return noun(count) if noun is not None else key.replace("_", " ")


def category_cards(key: str, ranks: tuple[int, ...] = ()) -> str:
    """Which cards a category holds: its ranks ("K Q J 10 9 8"), else in words."""
    if ranks:
        return " ".join(RANKS[rank]() if rank in RANKS else str(rank) for rank in ranks)
    words = CATEGORY_CARDS.get(key)
    return words() if words is not None else category(key, 2)


def penalty(vocabulary: Vocabulary, field: str, count: int) -> str:
    """A counted penalty ("black three left in hand"), by its field."""
    noun = GAME_PENALTIES.get(vocabulary, {}).get(field) or PENALTIES.get(field)
    return noun(count) if noun is not None else field.replace("_", " ")


def _named(table: dict[str, Callable[[], str]], key: str) -> str:
    words = table.get(key)
    return words() if words is not None else key.replace("_", " ")


def catalogue_penalty(key: str) -> str:
    return _named(CATALOGUE, key)


def special_hand(key: str) -> str:
    return _named(SPECIAL_HANDS, key)


def shape(key: str) -> str:
    """A line-up of a seated game ("pair against one")."""
    return _named(SHAPES, key)


def note(key: str) -> str:
    """What the rule book adds about a canasta kind; nothing for no note."""
    return _named(NOTES, key) if key else ""


def deck(value: Deck) -> str:
    if value.packs is not None:
        return ngettext(
            "%(packs)s pack with its jokers (%(size)s cards)",
            "%(packs)s packs with their jokers (%(size)s cards)",
            value.packs,
            packs=number(value.packs),
            size=number(value.size),
        )
    return _named(DECKS, value.key)


def layout(value: Layout) -> str:
    """A table layout: "2 partnerships of 2", "3 players, each on their own"."""
    if value.players_per_side == 1:
        return gettext("%(sides)s players, each on their own", sides=number(value.sides))
    return gettext(
        "%(sides)s partnerships of %(players)s",
        sides=number(value.sides),
        players=number(value.players_per_side),
    )
