"""The registry: the presets of RULES.md and RULES-2.md as data.

Adding a preset means adding one `Rules` value to `_PRESETS`; nothing else in
the engine knows preset names.
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
)

PARTNERSHIPS = (Layout(sides=2, players_per_side=2),)
HEAD_TO_HEAD = (Layout(sides=2, players_per_side=1),)

NATURAL = CanastaKind(
    "natural", "natural canasta", "natural canastas", 500, "natural", "natural_canasta"
)
MIXED = CanastaKind(
    "mixed",
    "mixed canasta",
    "mixed canastas",
    300,
    "natural",
    "mixed_canasta",
    group=KindGroup.DIRTY,
)
SAMBA = CanastaKind("samba", "samba", "sambas", 1500, "natural", "samba")
BOLIVIA = CanastaKind(
    "bolivia", "bolivia", "bolivias", 2000, "wild", "bolivia", group=KindGroup.WILD
)
# Seven wild cards: a house rule of Classic (off) and part of Hand and Foot.
WILD = CanastaKind(
    "wild",
    "wild-card canasta",
    "wild-card canastas",
    1000,
    "wild",
    "wild_canasta",
    enabled=False,
    min_points=140,
    group=KindGroup.WILD,
)
ACE_TO_KING = CanastaKind(
    "ace_to_king",
    "ace-to-king canasta",
    "ace-to-king canastas",
    500,
    "natural",
    "ace_to_king",
    enabled=False,
    note="scores its own bonus only, not the natural one as well",
    min_points=110,
)
ACE_TO_ACE = CanastaKind(
    "ace_to_ace",
    "ace-to-ace canasta",
    "ace-to-ace canastas",
    1000,
    "natural",
    "ace_to_ace",
    note="scores its own bonus only, not the natural one as well",
)
INCOMPLETE_WILD = CountedPenalty(
    "incomplete_wild",
    "unfinished wild-card meld",
    "unfinished wild-card melds",
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
    "black three left in hand",
    "black threes left in hand",
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
    family=GameFamily.CANASTA,
    name="Classic Canasta",
    description="Two partnerships of two with a double deck; first side to 5000 wins.",
    source="Classic (American) Canasta, the 1950s standard rules",
    layouts=PARTNERSHIPS,
    deck=DOUBLE_DECK,
    cards=CANASTA_VALUES,
    canasta_noun="canasta",
    canasta_plural="canastas",
    canasta_kinds=(NATURAL, MIXED, WILD),
    going_out=GoingOut("Going out", bonus=100, concealed_bonus=200, needs=(ANY_ONE,)),
    red_threes=CLASSIC_RED_THREES,
    meld_table=CLASSIC_MELD_TABLE,
    optional_penalties=(INCOMPLETE_WILD,),
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
    family=GameFamily.CANASTA,
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
    red_threes=SAMBA_RED_THREES,
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
    red_threes=replace(SAMBA_RED_THREES, penalty_each=500),
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
    family=GameFamily.CANASTA,
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
        negative_when=NegativeWhen.NO_CANASTA,
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
    family=GameFamily.CANASTA,
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
        negative_when=NegativeWhen.NO_CANASTA,
    ),
    counted_penalties=(BLACK_THREES_IN_HAND,),
    meld_table=(*CLASSIC_MELD_TABLE, MeldTier(7000, 150)),
    target=15000,
)

BURACO = Rules(
    key="buraco",
    family=GameFamily.BURACO,
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
        ACE_TO_ACE,
        ACE_TO_KING,
    ),
    going_out=GoingOut(
        "Going out",
        bonus=100,
        concealed_bonus=None,
        needs=(ONE_CLEAN,),
        needs_extra_hand=True,
    ),
    extra_hand=ExtraHand("morto", 100),
    target=3000,
)

BURRACO = Rules(
    key="burraco",
    family=GameFamily.BURACO,
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
            group=KindGroup.DIRTY,
        ),
        replace(
            ACE_TO_KING,
            singular="burraco nobile",
            plural="burracos nobili",
            option="burraco_nobile",
            min_points=120,
        ),
        replace(
            ACE_TO_ACE,
            singular="burraco reale",
            plural="burracos reali",
            option="burraco_reale",
            enabled=False,
            min_points=135,
        ),
    ),
    going_out=GoingOut(
        "Closing", bonus=100, concealed_bonus=None, needs=(ANY_ONE,), needs_extra_hand=True
    ),
    extra_hand=ExtraHand("pozzetto", 100),
    target=2005,
)

CLASSIC_6P = replace(
    CLASSIC,
    key="classic-6p",
    name="Classic Canasta for six",
    description="Six players with three decks, in two teams of three or three pairs.",
    source="Randy Rasa's Canasta for six players (rummy-games.com); pagat for wild-card canastas",
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
    family=GameFamily.HAND_AND_FOOT,
    name="Hand and Foot",
    description="Each player has a hand and a foot; books of seven; four deals, most points wins.",
    source="Hand and Foot as pagat gives Bill Whitnack's partnership rules; house rules from "
    "players' pages and other scorekeepers",
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
    canasta_noun="book",
    canasta_plural="books",
    canasta_kinds=(
        replace(NATURAL, singular="clean book", plural="clean books"),
        replace(MIXED, singular="dirty book", plural="dirty books"),
        replace(
            WILD,
            singular="wild book",
            plural="wild books",
            bonus=1500,
            enabled=True,
            optional=True,
        ),
    ),
    going_out=GoingOut(
        "Going out",
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
            "red three held at the end",
            "red threes held at the end",
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
    family=GameFamily.BURACO,
    name="Buraco in partnerships",
    description="Buraco as played in Brazil: two pairs, jokers, runs of 500 and 1000; to 3000.",
    source="pagat's Buraco (players, pack, card values); Brazilian Buraco rule pages for scoring",
    layouts=PARTNERSHIPS,
    deck=BURACO4_DECK,
    cards=BURACO4_VALUES,
    canasta_noun="canasta",
    canasta_plural="canastas",
    canasta_kinds=(
        replace(NATURAL, singular="clean canasta", plural="clean canastas", bonus=200),
        replace(MIXED, singular="dirty canasta", plural="dirty canastas", bonus=100),
        replace(ACE_TO_KING, enabled=True),
        replace(ACE_TO_ACE, min_points=125),
    ),
    going_out=GoingOut(
        "Going out", bonus=100, concealed_bonus=None, needs=(ONE_CLEAN,), needs_extra_hand=True
    ),
    extra_hand=ExtraHand("morto", 100),
    target=3000,
)

# Burraco for three (FIBUR): the first to finish the dealt cards takes the big pozzetto and
# plays alone against the other two; when the stock ran out first nobody took a pozzetto.
PAIR_AGAINST_ONE = LineupShape(
    "pair_against_one", "pair against one", (1, 2), lone_took_extra_hand=True
)
EACH_STOCK_OUT = LineupShape("each_for_self", "each for himself", (1, 1, 1), no_extra_hand=True)
EACH_FOR_SELF = LineupShape("each_for_self", "each for himself", (1, 1, 1))

BURRACO_3P = replace(
    BURRACO,
    key="burraco-3p",
    name="Burraco for three",
    description="Three players, pair against one and then each for himself; first to 1505.",
    source="The Italian Burraco federation's three-player method (eburraco, biska, ilburraco, "
    "burraco2); genovagioca's tournament rules for each for himself throughout",
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
    family=GameFamily.MODERN_AMERICAN,
    name="Modern American Canasta",
    description="Canastas of sevens, aces and wild cards, threes on a schedule, special hands; "
    "first side to 8500 wins.",
    source="The Canasta League of America rules; pagat's Modern American section where they "
    "are silent",
    layouts=PARTNERSHIPS,
    deck=DOUBLE_DECK,
    cards=MAC_VALUES,
    canasta_noun="canasta",
    canasta_plural="canastas",
    canasta_kinds=(
        replace(
            NATURAL,
            note="seven natural cards of one rank other than aces and sevens",
            min_points=35,
        ),
        replace(
            MIXED,
            note="five or six natural cards and one or two wild cards; never sevens",
            min_points=35,
        ),
        CanastaKind(
            "aces",
            "canasta of aces",
            "canastas of aces",
            2500,
            "natural",
            "aces_canasta",
            note="seven natural aces",
            min_points=140,
            max_on_table=1,
        ),
        CanastaKind(
            "sevens",
            "canasta of sevens",
            "canastas of sevens",
            2500,
            "natural",
            "sevens_canasta",
            note="seven sevens, never wild",
            min_points=35,
            max_on_table=1,
        ),
        replace(
            WILD,
            bonus=2000,
            enabled=True,
            min_points=170,
            note="seven wild cards with one to three jokers",
        ),
        CanastaKind(
            "wild_jokers",
            "canasta of four jokers and three twos",
            "canastas of four jokers and three twos",
            2500,
            "wild",
            "wild_jokers_canasta",
            note="all four jokers and three twos",
            min_points=260,
            group=KindGroup.WILD,
        ),
        CanastaKind(
            "wild_twos",
            "canasta of twos",
            "canastas of twos",
            3000,
            "wild",
            "wild_twos_canasta",
            note="seven twos",
            min_points=140,
            group=KindGroup.WILD,
        ),
    ),
    going_out=GoingOut("Going out", bonus=100, concealed_bonus=None, needs=(ANY_TWO,)),
    red_threes=MAC_RED_THREES,
    black_threes=replace(
        MAC_RED_THREES,
        field="black_threes",
        card_category=BLACK_THREE,
        singular="black three",
        plural="black threes",
    ),
    counted_penalties=(
        CountedPenalty(
            "incomplete_aces",
            "unfinished meld of aces",
            "unfinished melds of aces",
            2500,
            option="incomplete_aces_penalty",
            max_per_side=1,
            forbids_going_out=True,
            excludes_kind="aces",
        ),
        CountedPenalty(
            "incomplete_sevens",
            "unfinished meld of sevens",
            "unfinished melds of sevens",
            2500,
            option="incomplete_sevens_penalty",
            max_per_side=1,
            forbids_going_out=True,
            excludes_kind="sevens",
        ),
        replace(INCOMPLETE_WILD, points=2000, forbids_going_out=True, needs_kind=None),
        CountedPenalty(
            "players_with_3_aces",
            "player holding three or more aces",
            "players holding three or more aces",
            1500,
            option="held_aces_penalty",
            max_players=True,
        ),
        CountedPenalty(
            "players_with_3_sevens",
            "player holding three or more sevens",
            "players holding three or more sevens",
            1500,
            option="held_sevens_penalty",
            max_players=True,
        ),
    ),
    group_caps=(GroupCap(KindGroup.WILD, 1),),
    special_hands=(
        SpecialHand("pairs", "Pairs", 2500),
        SpecialHand("wild_pairs", "Pairs with wild cards", 2000),
        SpecialHand("miami_pairs", "Miami pairs", 2500),
        SpecialHand("zip_code", "Zip code", 2500),
        SpecialHand("straight", "Straight", 3000),
        SpecialHand("garbage", "Garbage", 3000),
        SpecialHand("blast_off", "Blast off", 3000),
        SpecialHand("triples", "Triples", 3500),
        SpecialHand("quads", "Quads", 3500),
        SpecialHand("dream_plus_4", "Dream hand plus 4", 8500, wins_game=True),
        SpecialHand("dream_plus_5", "Dream hand plus 5", 8500, wins_game=True),
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
