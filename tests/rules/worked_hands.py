"""Each preset's worked hands: what the scorer enters and each side's total, worked out
by hand from RULES.md and RULES-2.md (the arithmetic beside each hand).

One table, read by the engine's tests (test_presets.py) and the API's
(tests/api/test_score.py): a hand must score the same through both.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import pytest

from .helpers import HF_OTHER, HF_OUT, MAC_OTHER, MAC_OUT


@dataclass(frozen=True)
class WorkedHand:
    preset: str
    sides: list[dict[str, Any]]
    totals: list[int]
    players: int | None = None  # players a side, where the preset has several layouts
    options: dict[str, Any] = field(default_factory=dict)

    def body(self) -> dict[str, Any]:
        """The hand as POST /api/v1/score takes it."""
        body: dict[str, Any] = {"variant": self.preset, "sides": self.sides}
        if self.players is not None:
            body["players"] = self.players
        if self.options:
            body["options"] = self.options
        return body


WORKED_HANDS = {
    "classic": WorkedHand(
        "classic",
        [
            {
                "went_out": True,
                "canastas": {"natural": 1, "mixed": 1},
                "meld_points": 430,
                "hand_points": 45,  # the partner's cards
                "red_threes": 2,
            },
            {"canastas": {"mixed": 1}, "meld_points": 260, "hand_points": 135, "red_threes": 1},
        ],
        # side 0: 500 natural + 300 mixed + 430 melded + 100 out + 2 x 100 red - 45 = 1485
        # side 1: 300 mixed + 260 melded + 100 red - 135 = 525
        [1485, 525],
    ),
    "classic concealed, all four red threes": WorkedHand(
        "classic",
        [
            # 500 + 300 + 350 melded + 200 concealed + 800 (all four red threes)
            {
                "went_out": True,
                "concealed": True,
                "canastas": {"natural": 1, "mixed": 1},
                "meld_points": 350,
                "red_threes": 4,
            },
            {"meld_points": 120, "hand_points": 45},  # 120 - 45
        ],
        [2150, 75],
    ),
    "classic, the stock ran out": WorkedHand(
        "classic",
        [
            {"canastas": {"natural": 1}, "meld_points": 300, "hand_points": 70, "red_threes": 1},
            {"canastas": {"mixed": 1}, "meld_points": 210, "hand_points": 90, "red_threes": 1},
        ],
        # Nobody went out: no going-out bonus, everything else as usual.
        # 500 + 300 + 100 - 70 = 830; 300 + 210 + 100 - 90 = 520
        [830, 520],
    ),
    "classic-2p": WorkedHand(
        "classic-2p",
        [
            {
                "went_out": True,
                "concealed": True,
                "canastas": {"natural": 1, "mixed": 1},
                "meld_points": 390,
                "hand_points": 0,
                "red_threes": 1,
            },
            {"meld_points": 85, "hand_points": 150, "red_threes": 1},
        ],
        # player 1: 500 + 300 + 390 + 200 (out concealed) + 100 (red three) = 1490
        # player 2: no canasta, so the red three counts minus: 85 - 100 - 150 = -165
        [1490, -165],
    ),
    "classic-2p, red threes minus": WorkedHand(
        "classic-2p",
        [
            # 2 x 500 + 400 + 100 going out + 100 red three
            {"went_out": True, "canastas": {"natural": 2}, "meld_points": 400, "red_threes": 1},
            # 60 - 80 - 200 (two red threes, no canasta: minus)
            {"meld_points": 60, "hand_points": 80, "red_threes": 2},
        ],
        [1600, -220],
    ),
    "classic-3p": WorkedHand(
        "classic-3p",
        [
            {"went_out": True, "canastas": {"mixed": 1}, "meld_points": 250},
            {"canastas": {"natural": 1}, "meld_points": 310, "hand_points": 60, "red_threes": 4},
            {"meld_points": 70, "hand_points": 115},
        ],
        # player 1: 300 + 250 + 100 = 650
        # player 2: 500 + 310 + 800 (all four red threes) - 60 = 1550
        # player 3: 70 - 115 = -45
        [650, 1550, -45],
    ),
    "classic-3p, one out of three scores": WorkedHand(
        "classic-3p",
        [
            {"went_out": True, "canastas": {"mixed": 1}, "meld_points": 200},  # 300+200+100
            {"meld_points": 50, "hand_points": 20},  # 50 - 20
            {"hand_points": 100},  # -100
        ],
        [600, 30, -100],
    ),
    "classic-6p": WorkedHand(
        "classic-6p",
        [
            # 500 + 300 + 300 melded + 100 out + 1000 (five red threes on a side of two)
            {
                "went_out": True,
                "canastas": {"natural": 1, "mixed": 1},
                "meld_points": 300,
                "red_threes": 5,
            },
            {"meld_points": 50, "hand_points": 30},  # 50 - 30
            {},
        ],
        [2200, 20, 0],
        players=2,
    ),
    "samba": WorkedHand(
        "samba",
        [
            {
                "went_out": True,
                "canastas": {"samba": 1, "natural": 1, "mixed": 1},
                "meld_points": 985,
                "hand_points": 55,
                "red_threes": 2,
            },
            {"canastas": {"natural": 1}, "meld_points": 420, "hand_points": 240, "red_threes": 3},
        ],
        # side 0: 1500 + 500 + 300 + 985 + 200 out + 200 red - 55 = 3630
        # side 1: fewer than 2 canastas, red threes minus: 500 + 420 - 300 - 240 = 380
        [3630, 380],
    ),
    "samba, all six red threes": WorkedHand(
        "samba",
        [
            # 1500 + 500 + 600 + 200 going out + 1000 (all six red threes)
            {
                "went_out": True,
                "canastas": {"samba": 1, "natural": 1},
                "meld_points": 600,
                "red_threes": 6,
            },
            {"canastas": {"mixed": 1}, "meld_points": 150, "hand_points": 60},  # 300+150-60
        ],
        [3800, 390],
    ),
    "samba-fournier": WorkedHand(
        "samba-fournier",
        [
            {
                "went_out": True,
                "canastas": {"natural": 1},
                "meld_points": 360,
                "hand_points": 30,
                "red_threes": 2,
                "penalties": [{"rule": "three_wild_canasta", "count": 1}],
            },
            {
                "canastas": {"samba": 1, "mixed": 1},
                "meld_points": 690,
                "hand_points": 125,
                "red_threes": 3,
                "red_threes_in_hand": 1,
                "penalties": [{"rule": "pile_out_of_turn"}],
            },
        ],
        # side 0 (1 canasta, may go out; below 2 canastas each red three costs 500):
        #   500 + 360 + 200 out - 2 x 500 - 30 - 100 penalty = -70
        # side 1 (2 canastas, red threes score): 1500 + 300 + 690 + 3 x 100
        #   - 125 - 1500 (red three in hand) - 100 penalty = 1065
        [-70, 1065],
    ),
    "samba-fournier, penalties twice": WorkedHand(
        "samba-fournier",
        [
            # 500 + 300 + 200 going out - 2 x 500 (red threes, fewer than 2 canastas)
            {"went_out": True, "canastas": {"natural": 1}, "meld_points": 300, "red_threes": 2},
            # 2 x 300 + 250 + 100 red three - 40 - 1500 red three in hand - 2 x 100 penalty
            {
                "canastas": {"mixed": 2},
                "meld_points": 250,
                "red_threes": 1,
                "red_threes_in_hand": 1,
                "hand_points": 40,
                "penalties": [{"rule": "stock_out_of_turn", "count": 2}],
            },
        ],
        [0, -790],
    ),
    "brazilian": WorkedHand(
        "brazilian",
        [
            {
                "went_out": True,
                "concealed": True,
                "canastas": {"samba": 1, "natural": 1},
                "meld_points": 820,
                "hand_points": 0,
                "red_threes": 5,
            },
            {
                "canastas": {"mixed": 1},
                "meld_points": 300,
                "hand_points": 85,
                "red_threes": 1,
                "black_threes_in_hand": 2,
                "short_sequences": 1,
            },
        ],
        # side 0: 1500 + 500 + 820 + 200 (concealed) + 1000 (5 red threes) = 4020
        # side 1: 300 + 300 + 100 - 85 - 2 x 100 (black threes) - 1000 (short sequence) = -585
        [4020, -585],
    ),
    "brazilian, a bolivia": WorkedHand(
        "brazilian",
        [
            # 1500 + 500 + 500 + 200 concealed + 1000 (five red threes)
            {
                "went_out": True,
                "concealed": True,
                "canastas": {"samba": 1, "natural": 1},
                "meld_points": 500,
                "red_threes": 5,
            },
            # 2000 + 300 + 100 - 70 - 2 x 100 black threes - 1000 short sequence
            {
                "canastas": {"bolivia": 1},
                "meld_points": 300,
                "red_threes": 1,
                "hand_points": 70,
                "black_threes_in_hand": 2,
                "short_sequences": 1,
            },
        ],
        [3700, 1130],
    ),
    "bolivia": WorkedHand(
        "bolivia",
        [
            {
                "went_out": True,
                "canastas": {"samba": 1, "bolivia": 1},
                "meld_points": 790,
                "hand_points": 40,
                "red_threes": 6,
            },
            {
                "canastas": {"natural": 1},
                "meld_points": 410,
                "hand_points": 170,
                "black_threes_in_hand": 1,
            },
        ],
        # side 0: 1500 escalera + 2500 bolivia + 790 + 200 out + 1000 (all six red) - 40 = 5950
        # side 1: 500 + 410 - 170 - 100 (black three) = 640
        [5950, 640],
    ),
    "bolivia, red threes minus": WorkedHand(
        "bolivia",
        [
            # 1500 escalera + 2500 bolivia + 600 + 200
            {"went_out": True, "canastas": {"samba": 1, "bolivia": 1}, "meld_points": 600},
            # 500 + 200 - 30 - 300 (red threes, fewer than 2 canastas) - 100 black three
            {
                "canastas": {"natural": 1},
                "meld_points": 200,
                "hand_points": 30,
                "red_threes": 3,
                "black_threes_in_hand": 1,
            },
        ],
        [4800, 270],
    ),
    "buraco": WorkedHand(
        "buraco",
        [
            {
                "went_out": True,
                "took_extra_hand": True,
                "canastas": {"natural": 1, "ace_to_ace": 1, "mixed": 1},
                "meld_points": 560,
                "hand_points": 0,
            },
            {
                "took_extra_hand": False,
                "canastas": {"mixed": 1},
                "meld_points": 215,
                "hand_points": 95,
            },
        ],
        # player 1: 100 natural + 1000 ace-to-ace + 100 mixed + 560 + 100 out = 1860
        # player 2: 100 mixed + 215 - 95 - 100 (morto not taken) = 120
        [1860, 120],
    ),
    "buraco, ace to ace and mixed": WorkedHand(
        "buraco",
        [
            # 1000 ace-to-ace + 100 mixed + 400 + 100 going out
            {
                "went_out": True,
                "took_extra_hand": True,
                "canastas": {"ace_to_ace": 1, "mixed": 1},
                "meld_points": 400,
            },
            # 100 + 150 - 65 - 100 (morto not taken)
            {
                "took_extra_hand": False,
                "canastas": {"natural": 1},
                "meld_points": 150,
                "hand_points": 65,
            },
        ],
        [1600, 85],
    ),
    "buraco-4p": WorkedHand(
        "buraco-4p",
        [
            {
                "went_out": True,
                "took_extra_hand": True,
                "canastas": {"natural": 1, "ace_to_king": 1},
                "meld_points": 200,
            },
            {
                "took_extra_hand": False,
                "canastas": {"mixed": 1},
                "meld_points": 80,
                "hand_points": 45,
            },
        ],
        # 200 + 500 + 200 + 100 = 1000; 100 + 80 - 45 - 100 (morto) = 35
        [1000, 35],
    ),
    "burraco in partnerships": WorkedHand(
        "burraco",
        [
            {
                "went_out": True,
                "took_extra_hand": True,
                "canastas": {"natural": 1, "mixed": 2},
                "meld_points": 540,
                "hand_points": 35,  # the partner's cards
            },
            {
                "took_extra_hand": False,
                "canastas": {"natural": 1},
                "meld_points": 280,
                "hand_points": 150,
            },
        ],
        # side 0: 200 clean + 2 x 100 dirty + 540 + 100 closing - 35 = 1005
        # side 1: 200 + 280 - 150 - 100 (pozzetto never taken) = 230
        # (cards counted: 540 + 35 + 280 + 150 = 1005 of the deck's 1080)
        [1005, 230],
        players=2,
    ),
    "burraco in partnerships, both took the pozzetto": WorkedHand(
        "burraco",
        [
            # 200 clean + 100 dirty + 300 + 100 closing - 20 (partner's hand)
            {
                "went_out": True,
                "took_extra_hand": True,
                "canastas": {"natural": 1, "mixed": 1},
                "meld_points": 300,
                "hand_points": 20,
            },
            {"took_extra_hand": True, "meld_points": 80, "hand_points": 45},  # 80 - 45
        ],
        [680, 35],
        players=2,
    ),
    "burraco head to head": WorkedHand(
        "burraco",
        [
            {
                "went_out": True,
                "took_extra_hand": True,
                "canastas": {"mixed": 1},
                "meld_points": 185,
                "hand_points": 0,
            },
            {"took_extra_hand": True, "meld_points": 95, "hand_points": 120},
        ],
        # player 1: 100 dirty + 185 + 100 closing = 385; player 2: 95 - 120 = -25
        [385, -25],
        players=1,
    ),
    "hand-and-foot": WorkedHand(
        "hand-and-foot",
        [HF_OUT, HF_OTHER],
        # 2 clean 1000 + 2 dirty 600 + wild 1500 + cards 600 + out 100 + 2 red threes 200
        #   = 4000;
        # 1 clean 500 + cards 300 + red three 100 - held red three 100 - hand 85 - foot 120
        #   = 595
        [4000, 595],
    ),
    "modern-american": WorkedHand(
        "modern-american",
        [MAC_OUT, MAC_OTHER],
        # 500 + 2500 canastas, 400 melded, 100 out, red 2 -> 300, black 1 -> 100 = 3900.
        # 300 canasta + 150 melded, one red three with one canasta counts 0, - 65 in hand,
        # - 1500 (a player with three sevens) - 2500 (unfinished sevens) = -3615.
        [3900, -3615],
    ),
}

EACH_WORKED_HAND = [pytest.param(hand, id=name) for name, hand in WORKED_HANDS.items()]
