"""The registry: the presets of RULES.md and RULES-2.md as data.

Adding a preset means adding one `Rules` value to `_PRESETS`; nothing else in
the engine knows preset names. A preset holds keys, never words: its name, its
description and the words of its vocabulary are the edge's (`scorekeeper.words`).
"""

from __future__ import annotations

from dataclasses import replace
from types import MappingProxyType

from .cards import (
    BLACK_THREE,
    BURACO4_DECK,
    BURACO4_VALUES,
    BURACO_DECK,
    BURACO_VALUES,
    BURRACO_DECK,
    BURRACO_VALUES,
    CANASTA_VALUES,
    DOUBLE_DECK,
    MAC_VALUES,
    RED_THREE,
    TRIPLE_DECK,
    packs_deck,
)
from .errors import UnknownVariant
from .model import (
    CanastaClause,
    CanastaKind,
    CanastaNeed,
    CardKind,
    CataloguePenalty,
    CountedPenalty,
    ExtraHand,
    Feet,
    GameEnd,
    GameEndMode,
    GameFamily,
    GoingOut,
    GroupCap,
    KindGroup,
    Layout,
    LayoutTarget,
    LineupShape,
    MeldMinusWhen,
    MeldTier,
    NegativeWhen,
    RedThrees,
    RedThreeTotal,
    Rules,
    Seating,
    SpecialHand,
    TieRule,
    Vocabulary,
)

PARTNERSHIPS = (Layout(sides=2, players_per_side=2),)
HEAD_TO_HEAD = (Layout(sides=2, players_per_side=1),)

NATURAL = CanastaKind("natural", 500, CardKind.NATURAL, "natural_canasta")
MIXED = CanastaKind("mixed", 300, CardKind.NATURAL, "mixed_canasta", group=KindGroup.DIRTY)
SAMBA = CanastaKind("samba", 1500, CardKind.NATURAL, "samba")
BOLIVIA = CanastaKind("bolivia", 2000, CardKind.WILD, "bolivia", group=KindGroup.WILD)
# Seven wild cards: a house rule of Classic (off) and part of Hand and Foot.
WILD = CanastaKind(
    "wild",
    1000,
    CardKind.WILD,
    "wild_canasta",
    enabled=False,
    min_points=140,
    group=KindGroup.WILD,
)
ACE_TO_KING = CanastaKind(
    "ace_to_king",
    500,
    CardKind.NATURAL,
    "ace_to_king",
    enabled=False,
    note="own_bonus_only",
    min_points=110,
)
ACE_TO_ACE = CanastaKind("ace_to_ace", 1000, CardKind.NATURAL, "ace_to_ace", note="own_bonus_only")
INCOMPLETE_WILD = CountedPenalty(
    "incomplete_wild",
    1000,
    option="incomplete_wild_penalty",
    max_per_side=1,
    needs_kind="wild",
)

ANY_ONE = CanastaClause(1)
ANY_TWO = CanastaClause(2)
ONE_SAMBA = CanastaClause(1, ("samba",))
ONE_CLEAN = CanastaClause(1, groups=(KindGroup.CLEAN,))

CLASSIC_MELD_TABLE = (
    MeldTier(None, 15),
    MeldTier(0, 50),
    MeldTier(1500, 90),
    MeldTier(3000, 120),
)

BLACK_THREES_IN_HAND = CountedPenalty(
    "black_threes_in_hand",
    100,
    card_category=BLACK_THREE,
    replaces_hand_cards=True,
)

CLASSIC_RED_THREES = RedThrees(
    each=100,
    totals=(RedThreeTotal(4, 800),),
    canastas_needed=1,
    negative_when=NegativeWhen.NO_CANASTA,
    negative_when_choices=(NegativeWhen.NO_CANASTA, NegativeWhen.NO_MELD),
)
SAMBA_RED_THREES = RedThrees(
    each=100,
    totals=(RedThreeTotal(6, 1000),),
    canastas_needed=2,
    negative_when=NegativeWhen.NO_CANASTA,
)

CLASSIC = Rules(
    key="classic",
    vocabulary=Vocabulary.CANASTA,
    family=GameFamily.CANASTA,
    layouts=PARTNERSHIPS,
    deck=DOUBLE_DECK,
    cards=CANASTA_VALUES,
    canasta_kinds=(NATURAL, MIXED, WILD),
    going_out=GoingOut(bonus=100, concealed_bonus=200, needs=(ANY_ONE,)),
    red_threes=CLASSIC_RED_THREES,
    meld_table=CLASSIC_MELD_TABLE,
    optional_penalties=(INCOMPLETE_WILD,),
    target=5000,
)

CLASSIC_2P = replace(
    CLASSIC,
    key="classic-2p",
    layouts=HEAD_TO_HEAD,
    going_out=replace(CLASSIC.going_out, needs=(ANY_TWO,)),
)

CLASSIC_3P = replace(
    CLASSIC,
    key="classic-3p",
    layouts=(Layout(sides=3, players_per_side=1),),
)

SAMBA_RULES = Rules(
    key="samba",
    vocabulary=Vocabulary.CANASTA,
    family=GameFamily.CANASTA,
    layouts=PARTNERSHIPS,
    deck=TRIPLE_DECK,
    cards=CANASTA_VALUES,
    canasta_kinds=(NATURAL, MIXED, SAMBA),
    going_out=GoingOut(bonus=200, concealed_bonus=None, needs=(ANY_TWO,)),
    red_threes=SAMBA_RED_THREES,
    meld_table=(*CLASSIC_MELD_TABLE, MeldTier(7000, 160)),
    target=10000,
)

SAMBA_FOURNIER = replace(
    SAMBA_RULES,
    key="samba-fournier",
    going_out=replace(SAMBA_RULES.going_out, needs=(ANY_ONE,)),
    red_threes=replace(SAMBA_RED_THREES, penalty_each=500),
    counted_penalties=(
        CountedPenalty(
            "red_threes_in_hand",
            1500,
            card_category=RED_THREE,
        ),
    ),
    catalogue=(
        CataloguePenalty("three_wild_canasta", 100),
        CataloguePenalty("stock_out_of_turn", 100),
        CataloguePenalty("pile_out_of_turn", 100),
        CataloguePenalty("play_out_of_turn", 100),
        CataloguePenalty("out_after_refusal", 100),
    ),
    meld_table=CLASSIC_MELD_TABLE,
)

BRAZILIAN = Rules(
    key="brazilian",
    vocabulary=Vocabulary.CANASTA,
    family=GameFamily.CANASTA,
    layouts=PARTNERSHIPS,
    deck=TRIPLE_DECK,
    cards=CANASTA_VALUES,
    canasta_kinds=(NATURAL, MIXED, SAMBA, BOLIVIA),
    going_out=GoingOut(bonus=100, concealed_bonus=200, needs=(ONE_SAMBA, ANY_TWO)),
    red_threes=RedThrees(
        each=100,
        totals=(RedThreeTotal(5, 1000), RedThreeTotal(6, 1200)),
        canastas_needed=1,
        negative_when=NegativeWhen.NO_CANASTA,
    ),
    counted_penalties=(
        BLACK_THREES_IN_HAND,
        CountedPenalty(
            "short_sequences",
            1000,
        ),
    ),
    meld_table=(
        *CLASSIC_MELD_TABLE,
        MeldTier(7000, 0, CanastaNeed.ANY),
        MeldTier(8000, 200, CanastaNeed.ANY),
        MeldTier(9000, 0, CanastaNeed.NATURAL),
    ),
    target=10000,
)

BOLIVIA_RULES = Rules(
    key="bolivia",
    vocabulary=Vocabulary.BOLIVIA,
    family=GameFamily.CANASTA,
    layouts=PARTNERSHIPS,
    deck=TRIPLE_DECK,
    cards=CANASTA_VALUES,
    canasta_kinds=(
        NATURAL,
        MIXED,
        SAMBA,  # an escalera, in the words of the game
        replace(BOLIVIA, bonus=2500),
    ),
    going_out=GoingOut(bonus=200, concealed_bonus=None, needs=(ONE_SAMBA, ANY_TWO)),
    red_threes=RedThrees(
        each=100,
        totals=(RedThreeTotal(6, 1000),),
        canastas_needed=2,
        negative_when=NegativeWhen.NO_CANASTA,
    ),
    counted_penalties=(BLACK_THREES_IN_HAND,),
    meld_table=(*CLASSIC_MELD_TABLE, MeldTier(7000, 150)),
    target=15000,
)

BURACO = Rules(
    key="buraco",
    vocabulary=Vocabulary.BURACO,
    family=GameFamily.BURACO,
    layouts=HEAD_TO_HEAD,
    deck=BURACO_DECK,
    cards=BURACO_VALUES,
    canasta_kinds=(
        replace(NATURAL, bonus=100),
        replace(MIXED, bonus=100),
        ACE_TO_ACE,
        ACE_TO_KING,
    ),
    going_out=GoingOut(
        bonus=100,
        concealed_bonus=None,
        needs=(ONE_CLEAN,),
        needs_extra_hand=True,
    ),
    extra_hand=ExtraHand(100),
    target=3000,
)

BURRACO = Rules(
    key="burraco",
    vocabulary=Vocabulary.BURRACO,
    family=GameFamily.BURACO,
    layouts=(*HEAD_TO_HEAD, *PARTNERSHIPS),
    deck=BURRACO_DECK,
    cards=BURRACO_VALUES,
    canasta_kinds=(
        replace(NATURAL, bonus=200),
        replace(MIXED, bonus=100),
        CanastaKind(
            "semi_clean",
            150,
            CardKind.NATURAL,
            "semi_clean",
            enabled=False,
            group=KindGroup.DIRTY,
        ),
        replace(
            ACE_TO_KING,
            option="burraco_nobile",
            min_points=120,
        ),
        replace(
            ACE_TO_ACE,
            option="burraco_reale",
            enabled=False,
            min_points=135,
        ),
    ),
    going_out=GoingOut(bonus=100, concealed_bonus=None, needs=(ANY_ONE,), needs_extra_hand=True),
    extra_hand=ExtraHand(100),
    target=2005,
)

CLASSIC_6P = replace(
    CLASSIC,
    key="classic-6p",
    layouts=(Layout(2, 3, assumed=True), Layout(3, 2, assumed=True)),
    deck=TRIPLE_DECK,
    going_out=replace(CLASSIC.going_out, needs=(ANY_TWO,)),
    red_threes=replace(CLASSIC_RED_THREES, totals=(RedThreeTotal(5, 1000), RedThreeTotal(6, 1200))),
    meld_table=(*CLASSIC_MELD_TABLE, MeldTier(7500, 150, sides=2)),
    game_end=GameEnd(targets_by_layout=(LayoutTarget("2x3", 10000), LayoutTarget("3x2", 7500))),
    target=10000,
)

HAND_AND_FOOT = Rules(
    key="hand-and-foot",
    vocabulary=Vocabulary.HAND_AND_FOOT,
    family=GameFamily.HAND_AND_FOOT,
    layouts=(
        Layout(2, 2, assumed=True),
        Layout(2, 3),
        Layout(3, 2, assumed=True),
        Layout(2, 1),
        Layout(3, 1),
        Layout(4, 1, assumed=True),
        Layout(5, 1, assumed=True),
        Layout(6, 1, assumed=True),
    ),
    deck=packs_deck().build(4),
    packs=packs_deck(),
    cards=CANASTA_VALUES,
    canasta_kinds=(
        NATURAL,
        MIXED,
        replace(
            WILD,
            bonus=1500,
            enabled=True,
            optional=True,
        ),
    ),
    going_out=GoingOut(
        bonus=100,
        concealed_bonus=None,
        needs=(
            CanastaClause(2, ("natural",)),
            CanastaClause(2, ("mixed",)),
            CanastaClause(1, ("wild",)),
        ),
        needs_foot=True,
    ),
    red_threes=RedThrees(each=100, totals=(), canastas_needed=0, negative_when=NegativeWhen.NEVER),
    counted_penalties=(
        CountedPenalty(
            "red_threes_in_hand",
            100,
            card_category=RED_THREE,
            option="red_three_held",
        ),
    ),
    feet=Feet(exact_pickup_usual=100),
    meld_by_deal=(50, 90, 120, 150),
    meld_table=(MeldTier(None, 50), MeldTier(2500, 90), MeldTier(5000, 120), MeldTier(7500, 150)),
    game_end=GameEnd(mode=GameEndMode.DEALS, deals=4, tie_rule=TieRule.DRAW),
    target=10000,
)

BURACO_4P = Rules(
    key="buraco-4p",
    vocabulary=Vocabulary.BURACO_PARTNERSHIPS,
    family=GameFamily.BURACO,
    layouts=PARTNERSHIPS,
    deck=BURACO4_DECK,
    cards=BURACO4_VALUES,
    canasta_kinds=(
        replace(NATURAL, bonus=200),
        replace(MIXED, bonus=100),
        replace(ACE_TO_KING, enabled=True),
        replace(ACE_TO_ACE, min_points=125),
    ),
    going_out=GoingOut(bonus=100, concealed_bonus=None, needs=(ONE_CLEAN,), needs_extra_hand=True),
    extra_hand=ExtraHand(100),
    target=3000,
)

# Burraco for three (FIBUR): the first to finish the dealt cards takes the big pozzetto and
# plays alone against the other two; when the stock ran out first nobody took a pozzetto.
PAIR_AGAINST_ONE = LineupShape("pair_against_one", (1, 2), lone_took_extra_hand=True)
EACH_STOCK_OUT = LineupShape("each_for_self", (1, 1, 1), no_extra_hand=True)
EACH_FOR_SELF = LineupShape("each_for_self", (1, 1, 1))

BURRACO_3P = replace(
    BURRACO,
    key="burraco-3p",
    layouts=(Layout(sides=3, players_per_side=1),),
    seating=Seating(
        seats=3,
        opening=(PAIR_AGAINST_ONE, EACH_STOCK_OUT),
        later=(EACH_FOR_SELF,),
        switch_from=1000,
    ),
    target=1505,
)


MAC_RED_THREES = RedThrees(
    each=100,
    totals=tuple(RedThreeTotal(n, t) for n, t in ((1, 100), (2, 300), (3, 500), (4, 1000))),
    canastas_needed=1,
    negative_when=NegativeWhen.NO_CANASTA,
    plus_from=2,
    schedule_option="three_totals",
)


MODERN_AMERICAN = Rules(
    key="modern-american",
    vocabulary=Vocabulary.MODERN_AMERICAN,
    family=GameFamily.MODERN_AMERICAN,
    layouts=PARTNERSHIPS,
    deck=DOUBLE_DECK,
    cards=MAC_VALUES,
    canasta_kinds=(
        replace(
            NATURAL,
            note="natural_mac",
            min_points=35,
        ),
        replace(
            MIXED,
            note="mixed_mac",
            min_points=35,
        ),
        CanastaKind(
            "aces",
            2500,
            CardKind.NATURAL,
            "aces_canasta",
            note="aces",
            min_points=140,
            max_on_table=1,
        ),
        CanastaKind(
            "sevens",
            2500,
            CardKind.NATURAL,
            "sevens_canasta",
            note="sevens",
            min_points=35,
            max_on_table=1,
        ),
        replace(
            WILD,
            bonus=2000,
            enabled=True,
            min_points=170,
            note="wild_mac",
        ),
        CanastaKind(
            "wild_jokers",
            2500,
            CardKind.WILD,
            "wild_jokers_canasta",
            note="wild_jokers",
            min_points=260,
            group=KindGroup.WILD,
        ),
        CanastaKind(
            "wild_twos",
            3000,
            CardKind.WILD,
            "wild_twos_canasta",
            note="wild_twos",
            min_points=140,
            group=KindGroup.WILD,
        ),
    ),
    going_out=GoingOut(bonus=100, concealed_bonus=None, needs=(ANY_TWO,)),
    red_threes=MAC_RED_THREES,
    black_threes=replace(
        MAC_RED_THREES,
        field="black_threes",
        card_category=BLACK_THREE,
    ),
    counted_penalties=(
        CountedPenalty(
            "incomplete_aces",
            2500,
            option="incomplete_aces_penalty",
            max_per_side=1,
            forbids_going_out=True,
            excludes_kind="aces",
        ),
        CountedPenalty(
            "incomplete_sevens",
            2500,
            option="incomplete_sevens_penalty",
            max_per_side=1,
            forbids_going_out=True,
            excludes_kind="sevens",
        ),
        replace(INCOMPLETE_WILD, points=2000, forbids_going_out=True, needs_kind=None),
        CountedPenalty(
            "players_with_3_aces",
            1500,
            option="held_aces_penalty",
            max_players=True,
        ),
        CountedPenalty(
            "players_with_3_sevens",
            1500,
            option="held_sevens_penalty",
            max_players=True,
        ),
    ),
    group_caps=(GroupCap(KindGroup.WILD, 1),),
    special_hands=(
        SpecialHand("pairs", 2500),
        SpecialHand("wild_pairs", 2000),
        SpecialHand("miami_pairs", 2500),
        SpecialHand("zip_code", 2500),
        SpecialHand("straight", 3000),
        SpecialHand("garbage", 3000),
        SpecialHand("blast_off", 3000),
        SpecialHand("triples", 3500),
        SpecialHand("quads", 3500),
        SpecialHand("dream_plus_4", 8500, wins_game=True),
        SpecialHand("dream_plus_5", 8500, wins_game=True),
    ),
    unmeldable=(BLACK_THREE, RED_THREE),
    meld_minus_when=MeldMinusWhen.NO_CANASTA,
    meld_table=(MeldTier(None, 125), MeldTier(3000, 155), MeldTier(5000, 180)),
    meld_by_deal_offered=True,
    target=8500,
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
    CLASSIC_6P,
    HAND_AND_FOOT,
    BURACO_4P,
    BURRACO_3P,
    MODERN_AMERICAN,
)

PRESETS: MappingProxyType[str, Rules] = MappingProxyType({p.key: p for p in _PRESETS})


def get_preset(key: object) -> Rules:
    if not isinstance(key, str) or key not in PRESETS:
        raise UnknownVariant(key)
    return PRESETS[key]
