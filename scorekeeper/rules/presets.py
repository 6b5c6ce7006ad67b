"""The registry: the nine presets of RULES.md as data.

Adding a preset means adding one `Rules` value to `_PRESETS`; nothing else in
the engine knows preset names.
"""

from __future__ import annotations

from dataclasses import replace
from types import MappingProxyType

from .cards import (
    BLACK_THREE,
    BURACO_DECK,
    BURACO_VALUES,
    BURRACO_DECK,
    BURRACO_VALUES,
    CANASTA_VALUES,
    DOUBLE_DECK,
    RED_THREE,
    TRIPLE_DECK,
)
from .errors import UnknownVariant
from .model import (
    CanastaClause,
    CanastaKind,
    CataloguePenalty,
    CountedPenalty,
    ExtraHand,
    GoingOut,
    Layout,
    MeldTier,
    RedThrees,
    RedThreeTotal,
    Rules,
)

PARTNERSHIPS = (Layout(sides=2, players_per_side=2),)
HEAD_TO_HEAD = (Layout(sides=2, players_per_side=1),)

NATURAL = CanastaKind(
    "natural", "natural canasta", "natural canastas", 500, "natural", "natural_canasta"
)
MIXED = CanastaKind("mixed", "mixed canasta", "mixed canastas", 300, "natural", "mixed_canasta")
SAMBA = CanastaKind("samba", "samba", "sambas", 1500, "natural", "samba")
BOLIVIA = CanastaKind("bolivia", "bolivia", "bolivias", 2000, "wild", "bolivia")

ANY_ONE = CanastaClause(1)
ANY_TWO = CanastaClause(2)
ONE_SAMBA = CanastaClause(1, ("samba",))

CLASSIC_MELD_TABLE = (
    MeldTier(None, 15),
    MeldTier(0, 50),
    MeldTier(1500, 90),
    MeldTier(3000, 120),
)

BLACK_THREES_IN_HAND = CountedPenalty(
    "black_threes_in_hand",
    "black three left in hand",
    "black threes left in hand",
    100,
    card_category=BLACK_THREE,
    replaces_hand_cards=True,
)

CLASSIC = Rules(
    key="classic",
    name="Classic Canasta",
    description="Two partnerships of two with a double deck; first side to 5000 wins.",
    source="Classic (American) Canasta, the 1950s standard rules",
    layouts=PARTNERSHIPS,
    deck=DOUBLE_DECK,
    cards=CANASTA_VALUES,
    canasta_noun="canasta",
    canasta_plural="canastas",
    canasta_kinds=(NATURAL, MIXED),
    going_out=GoingOut("Going out", bonus=100, concealed_bonus=200, needs=(ANY_ONE,)),
    red_threes=RedThrees(
        each=100,
        totals=(RedThreeTotal(4, 800),),
        canastas_needed=1,
        negative_when="no_canasta",
        negative_when_choices=("no_canasta", "no_meld"),
    ),
    meld_table=CLASSIC_MELD_TABLE,
    target=5000,
)

CLASSIC_2P = replace(
    CLASSIC,
    key="classic-2p",
    name="Classic Canasta for two",
    description="Two players head to head; two canastas are needed to go out.",
    layouts=HEAD_TO_HEAD,
    going_out=replace(CLASSIC.going_out, needs=(ANY_TWO,)),
)

CLASSIC_3P = replace(
    CLASSIC,
    key="classic-3p",
    name="Classic Canasta for three",
    description="Three players, each on their own; one canasta is needed to go out.",
    layouts=(Layout(sides=3, players_per_side=1),),
)

SAMBA_RULES = Rules(
    key="samba",
    name="Samba",
    description="Canasta with three decks and sequences (sambas); first side to 10000 wins.",
    source="Samba as the standard American card-game rule books give it",
    layouts=PARTNERSHIPS,
    deck=TRIPLE_DECK,
    cards=CANASTA_VALUES,
    canasta_noun="canasta",
    canasta_plural="canastas",
    canasta_kinds=(NATURAL, MIXED, SAMBA),
    going_out=GoingOut("Going out", bonus=200, concealed_bonus=None, needs=(ANY_TWO,)),
    red_threes=RedThrees(
        each=100,
        totals=(RedThreeTotal(6, 1000),),
        canastas_needed=2,
        negative_when="no_canasta",
    ),
    meld_table=(*CLASSIC_MELD_TABLE, MeldTier(7000, 160)),
    target=10000,
)

SAMBA_FOURNIER = replace(
    SAMBA_RULES,
    key="samba-fournier",
    name="Samba (Fournier)",
    description="Samba as the Spanish card maker Fournier prints it, with its penalties.",
    source="The Fournier Samba rule book",
    going_out=replace(SAMBA_RULES.going_out, needs=(ANY_ONE,)),
    red_threes=replace(SAMBA_RULES.red_threes, penalty_each=500),
    counted_penalties=(
        CountedPenalty(
            "red_threes_in_hand",
            "red three still in hand",
            "red threes still in hand",
            1500,
            card_category=RED_THREE,
        ),
    ),
    catalogue=(
        CataloguePenalty("three_wild_canasta", "Canasta with three wild cards", 100),
        CataloguePenalty("stock_out_of_turn", "Drew from the stock out of turn", 100),
        CataloguePenalty("pile_out_of_turn", "Took the discard pile out of turn", 100),
        CataloguePenalty("play_out_of_turn", "Played during an opponent's turn", 100),
        CataloguePenalty("out_after_refusal", "Tried to go out after the partner said no", 100),
    ),
    meld_table=CLASSIC_MELD_TABLE,
)

BRAZILIAN = Rules(
    key="brazilian",
    name="Brazilian Canasta",
    description="Three decks, sambas and bolivias of wild cards; first side to 10000 wins.",
    source="Brazilian Canasta as a card-game reference site describes it",
    layouts=PARTNERSHIPS,
    deck=TRIPLE_DECK,
    cards=CANASTA_VALUES,
    canasta_noun="canasta",
    canasta_plural="canastas",
    canasta_kinds=(NATURAL, MIXED, SAMBA, BOLIVIA),
    going_out=GoingOut("Going out", bonus=100, concealed_bonus=200, needs=(ONE_SAMBA, ANY_TWO)),
    red_threes=RedThrees(
        each=100,
        totals=(RedThreeTotal(5, 1000), RedThreeTotal(6, 1200)),
        canastas_needed=1,
        negative_when="no_canasta",
    ),
    counted_penalties=(
        BLACK_THREES_IN_HAND,
        CountedPenalty(
            "short_sequences",
            "melded sequence under 5 cards",
            "melded sequences under 5 cards",
            1000,
        ),
    ),
    meld_table=(
        *CLASSIC_MELD_TABLE,
        MeldTier(7000, 0, "any"),
        MeldTier(8000, 200, "any"),
        MeldTier(9000, 0, "natural"),
    ),
    target=10000,
)

BOLIVIA_RULES = Rules(
    key="bolivia",
    name="Bolivia",
    description="Three decks, escaleras (sequences) and bolivias; first side to 15000 wins.",
    source="Bolivia as the Bicycle rule book and pagat give it",
    layouts=PARTNERSHIPS,
    deck=TRIPLE_DECK,
    cards=CANASTA_VALUES,
    canasta_noun="canasta",
    canasta_plural="canastas",
    canasta_kinds=(
        NATURAL,
        MIXED,
        replace(SAMBA, singular="escalera", plural="escaleras"),
        replace(BOLIVIA, bonus=2500),
    ),
    going_out=GoingOut("Going out", bonus=200, concealed_bonus=None, needs=(ONE_SAMBA, ANY_TWO)),
    red_threes=RedThrees(
        each=100,
        totals=(RedThreeTotal(6, 1000),),
        canastas_needed=2,
        negative_when="no_canasta",
    ),
    counted_penalties=(BLACK_THREES_IN_HAND,),
    meld_table=(*CLASSIC_MELD_TABLE, MeldTier(7000, 150)),
    target=15000,
)

BURACO = Rules(
    key="buraco",
    name="Buraco",
    description="Two players, runs only, an extra hand (morto) each; first to 3000 wins.",
    source="A Brazilian Buraco rules leaflet for two players",
    layouts=HEAD_TO_HEAD,
    deck=BURACO_DECK,
    cards=BURACO_VALUES,
    canasta_noun="canasta",
    canasta_plural="canastas",
    canasta_kinds=(
        replace(NATURAL, bonus=100),
        replace(MIXED, bonus=100),
        CanastaKind(
            "ace_to_ace",
            "ace-to-ace canasta",
            "ace-to-ace canastas",
            1000,
            "natural",
            "ace_to_ace",
            note="scores its own bonus only, not the natural one as well",
        ),
    ),
    going_out=GoingOut(
        "Going out",
        bonus=100,
        concealed_bonus=None,
        needs=(CanastaClause(1, ("natural", "ace_to_ace")),),
        needs_extra_hand=True,
    ),
    extra_hand=ExtraHand("morto", 100),
    target=3000,
)

BURRACO = Rules(
    key="burraco",
    name="Burraco",
    description="Italian Burraco for two or four, with the pozzetto; first to 2005 wins.",
    source="The Italian Burraco federation rules, as pagat and eburraco summarise them",
    layouts=(*HEAD_TO_HEAD, *PARTNERSHIPS),
    deck=BURRACO_DECK,
    cards=BURRACO_VALUES,
    canasta_noun="burraco",
    canasta_plural="burracos",
    canasta_kinds=(
        replace(NATURAL, singular="clean burraco", plural="clean burracos", bonus=200),
        replace(MIXED, singular="dirty burraco", plural="dirty burracos", bonus=100),
        CanastaKind(
            "semi_clean",
            "semi-clean burraco",
            "semi-clean burracos",
            150,
            "natural",
            "semi_clean",
            enabled=False,
        ),
    ),
    going_out=GoingOut(
        "Closing", bonus=100, concealed_bonus=None, needs=(ANY_ONE,), needs_extra_hand=True
    ),
    extra_hand=ExtraHand("pozzetto", 100),
    target=2005,
)

_PRESETS: tuple[Rules, ...] = (
    CLASSIC,
    CLASSIC_2P,
    CLASSIC_3P,
    SAMBA_RULES,
    SAMBA_FOURNIER,
    BRAZILIAN,
    BOLIVIA_RULES,
    BURACO,
    BURRACO,
)

PRESETS: MappingProxyType[str, Rules] = MappingProxyType({p.key: p for p in _PRESETS})


def get_preset(key: object) -> Rules:
    if not isinstance(key, str) or key not in PRESETS:
        raise UnknownVariant(key)
    return PRESETS[key]
