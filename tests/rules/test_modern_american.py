"""RULES-2.md, `modern-american`: every case and rejection, the numbers worked by hand."""

from __future__ import annotations

import pytest

from scorekeeper.rules import (
    InvalidHand,
    InvalidOptions,
    available_options,
    game_result,
    instant_winner,
    meld_requirement,
    read_hand,
    resolve,
    rules_from_json,
    rules_to_json,
    score,
)
from scorekeeper.rules.game import FINISHED, PLAYING, TIED

from .helpers import MAC_OTHER as OTHER
from .helpers import MAC_OUT as OUT
from .helpers import line_points, problems, score_hand, totals

MAC = "modern-american"


def test_worked_hand():
    # 500 + 2500 canastas, 400 melded, 100 out, red 2 -> 300, black 1 -> 100 = 3900.
    # 300 canasta + 150 melded, one red three with one canasta counts 0, - 65 in hand,
    # - 1500 (a player with three sevens) - 2500 (unfinished sevens) = -3615.
    scores = score_hand(MAC, [OUT, OTHER])
    assert [s.total for s in scores] == [3900, -3615]
    assert line_points(scores[0], "canasta.aces") == 2500
    assert line_points(scores[0], "red_threes") == 300
    assert line_points(scores[0], "black_threes") == 100
    assert line_points(scores[1], "red_threes") == 0
    assert line_points(scores[1], "players_with_3_sevens") == -1500
    assert line_points(scores[1], "incomplete_sevens") == -2500
    zero = next(line for line in scores[1].lines if line.rule == "red_threes")
    assert (zero.key, zero.params) == (
        "line.red_threes.zero",
        {
            "count": 1,
            "threes": "red_three",
            "reason": {"key": "reason.fewer_canastas", "params": {"count": 2}},
        },
    )


def test_without_a_canasta_melds_and_threes_count_minus():
    # Melded 90 -> -90; red threes 2 -> -300; black threes 3 -> -500; hand 30 -> -30.
    side = {"meld_points": 90, "red_threes": 2, "black_threes": 3, "hand_points": 30}
    scores = score_hand(MAC, [side, {}])
    assert scores[0].total == -90 - 300 - 500 - 30
    assert line_points(scores[0], "meld_points") == -90


@pytest.mark.parametrize(
    ("canastas", "red", "black", "expected"),
    [
        ({}, 4, 4, -2000),  # none: minus 1000 per colour
        ({"natural": 1}, 4, 4, 500 + 35),  # exactly one: the threes count nothing
        ({"natural": 1, "mixed": 1}, 4, 4, 800 + 70 + 2000),  # two or more: plus
        ({"natural": 1, "mixed": 1}, 3, 1, 800 + 70 + 500 + 100),
        ({"natural": 2}, 2, 0, 1000 + 70 + 300),
    ],
)
def test_three_schedules_by_colour_and_their_sign_bands(canastas, red, black, expected):
    meld = 35 * sum(canastas.values())
    side = {"canastas": canastas, "meld_points": meld, "red_threes": red, "black_threes": black}
    assert totals(MAC, [side, {}])[0] == expected


def test_every_canasta_kind_scores_its_own_bonus():
    # 2500 sevens + 3000 twos + 175 melded (35 + 140) = 5675;
    # 2500 aces + 500 natural + 175 melded (140 + 35) = 3175.
    first = {"canastas": {"sevens": 1, "wild_twos": 1}, "meld_points": 175}
    second = {"canastas": {"aces": 1, "natural": 1}, "meld_points": 175}
    assert totals(MAC, [first, second]) == [5675, 3175]
    assert totals(MAC, [{"canastas": {"wild": 1}, "meld_points": 170}, {}])[0] == 2170
    assert totals(MAC, [{"canastas": {"wild_jokers": 1}, "meld_points": 260}, {}])[0] == 2760
    assert totals(MAC, [{"canastas": {"mixed": 2}, "meld_points": 70}, {}])[0] == 670


def test_canasta_kinds_need_their_least_card_value():
    for kind, least in [("aces", 140), ("wild", 170), ("wild_jokers", 260), ("wild_twos", 140)]:
        below = {"canastas": {kind: 1}, "meld_points": least - 5}
        assert problems(MAC, [below, {}]) == {(0, "meld_points")}, kind
        assert totals(MAC, [{**below, "meld_points": least}, {}])


def test_going_out_needs_two_canastas_and_no_unfinished_aces_sevens_or_wild():
    one = {"went_out": True, "canastas": {"aces": 1}, "meld_points": 140}
    assert problems(MAC, [one, {}]) == {(0, "went_out")}
    for field in ("incomplete_aces", "incomplete_sevens", "incomplete_wild"):
        unfinished = {"went_out": True, "canastas": {"mixed": 2}, "meld_points": 70, field: 1}
        assert problems(MAC, [unfinished, {}]) == {(0, "went_out")}, field
    # Any two kinds will do: two wild-card kinds cannot both be on the table, but these can.
    fine = {"went_out": True, "canastas": {"sevens": 1, "wild": 1}, "meld_points": 205}
    assert totals(MAC, [fine, {}])[0] == 2500 + 2000 + 205 + 100


def test_penalties_are_counted_with_their_amounts():
    # Both held three aces and three sevens (a player with both pays both): 2 x 1500 x 2,
    # plus an unfinished aces meld 2500 and an unfinished wild meld 2000, hand 100.
    side = {
        "hand_points": 100,
        "players_with_3_aces": 2,
        "players_with_3_sevens": 2,
        "incomplete_aces": 1,
        "incomplete_wild": 1,
    }
    assert totals(MAC, [side, {}])[0] == -100 - 6000 - 2500 - 2000


def test_threes_left_in_hand_count_five():
    side = {"hand_cards": {"red_three": 1, "black_three": 1, "ace": 1}}
    assert totals(MAC, [side, {}])[0] == -(5 + 5 + 20)
    options = {"card_values": {"red_three": 100, "black_three": 100}}
    assert totals(MAC, [side, {}], options)[0] == -(100 + 100 + 20)


def test_special_hand_scores_alone():
    special = {"went_out": True, "special_hand": "pairs", "concealed": True}
    # The other side did not go out: it scores normally (2 canastas, threes plus).
    other = {
        "canastas": {"natural": 1, "mixed": 1},
        "meld_points": 120,
        "red_threes": 1,
        "hand_points": 40,
    }
    scores = score_hand(MAC, [special, other])
    assert [s.total for s in scores] == [2500, 500 + 300 + 120 + 100 - 40]
    [line] = scores[0].lines
    assert line.rule == "special_hand.pairs"
    assert (line.key, line.params) == ("line.special_hand", {"hand": "pairs"})
    zeros = {**special, "canastas": {}, "meld_points": 0, "hand_points": 0, "red_threes": 0}
    assert totals(MAC, [zeros, other])[0] == 2500  # zeros are not "other fields"


@pytest.mark.parametrize(
    ("key", "points"),
    [
        ("pairs", 2500),
        ("wild_pairs", 2000),
        ("miami_pairs", 2500),
        ("zip_code", 2500),
        ("straight", 3000),
        ("garbage", 3000),
        ("blast_off", 3000),
        ("triples", 3500),
        ("quads", 3500),
        ("dream_plus_4", 8500),
        ("dream_plus_5", 8500),
    ],
)
def test_special_hand_catalogue(key, points):
    rules = resolve(MAC)
    assert totals(MAC, [{}, {"went_out": True, "special_hand": key}]) == [0, points]
    wins = key.startswith("dream")
    assert rules.special_hand(key).wins_game is wins
    records = [{}, {"went_out": True, "special_hand": key}]
    assert instant_winner(rules, records) == (1 if wins else None)


def test_dream_hand_wins_at_once_whatever_the_totals():
    rules = resolve(MAC)
    hand = read_hand(rules, [{"went_out": True, "special_hand": "dream_plus_5"}, {}])
    assert [s.total for s in score(rules, hand)] == [8500, 0]
    assert score(rules, hand)[0].lines[0].key == "line.special_hand.wins"
    # Behind by far, over the target or not: the dream hand's side wins when it is recorded.
    result = game_result(rules, [1000, 12000], instant_winner=0)
    assert (result.status, result.winner) == (FINISHED, 0)
    assert instant_winner(rules, [{"went_out": True, "special_hand": "garbage"}, {}]) is None


def test_meld_minimums_by_score():
    rules = resolve(MAC)
    by_score = {-500: 125, 0: 125, 2995: 125, 3000: 155, 4995: 155, 5000: 180, 8000: 180}
    for total, points in by_score.items():
        assert meld_requirement(rules, total).points == points, total
    by_deal = resolve(MAC, {"meld_minimums_by_deal": [125, 155, 180]})
    assert [meld_requirement(by_deal, 0, deal=d).points for d in (1, 2, 3, 9)] == [
        125,
        155,
        180,
        180,
    ]


def test_game_to_8500_and_a_tie_plays_on():
    rules = resolve(MAC)
    assert game_result(rules, [8495, 0]).status == PLAYING
    assert (game_result(rules, [8600, 8500]).status, game_result(rules, [8600, 8500]).winner) == (
        FINISHED,
        0,
    )
    assert game_result(rules, [8500, 8500]).status == TIED
    draw = resolve(MAC, {"tie_rule": "draw"})
    assert game_result(draw, [8500, 8500]).over


def test_options_of_the_preset():
    names = [spec.name for spec in available_options(resolve(MAC))]
    for name in (
        "target", "going_out", "natural_canasta", "mixed_canasta", "aces_canasta",
        "sevens_canasta", "wild_canasta", "wild_jokers_canasta", "wild_twos_canasta",
        "three_totals", "incomplete_aces_penalty", "incomplete_sevens_penalty",
        "incomplete_wild_penalty", "held_aces_penalty", "held_sevens_penalty", "special_hands",
        "meld_minimums", "meld_minimums_by_deal", "going_out_needs", "meld_minus_when",
        "tie_rule", "card_values", "canastas_to_go_out",
    ):  # fmt: skip
        assert name in names
    assert "red_three" not in names  # the schedule is set by three_totals
    options = {
        "aces_canasta": 3000,
        "wild_twos_canasta": 4000,
        "three_totals": {"4": 1200},  # a partial schedule changes the counts given
        "held_aces_penalty": 1000,
        "incomplete_wild_penalty": 2500,
        "meld_minus_when": "never",
        "going_out": 200,
    }
    side = {
        "went_out": True,
        "canastas": {"aces": 1, "wild_twos": 1},
        "meld_points": 280,
        "red_threes": 4,
        "black_threes": 2,
    }
    other = {"meld_points": 50, "players_with_3_aces": 1, "incomplete_wild": 1}
    # 3000 + 4000 + 280 + 200 + 1200 + 300 = 8980; 50 (never minus) - 1000 - 2500 = -3450.
    rules = resolve(MAC, options)
    assert totals(MAC, [side, other], options) == [8980, -3450]
    assert rules_from_json(rules_to_json(rules)) == rules
    assert rules.black_threes is not None
    assert rules.black_threes.plus_value(4) == 1200


def test_special_hands_option():
    options = {"special_hands": {"garbage": 2000, "quads": False}}
    garbage = [{"went_out": True, "special_hand": "garbage"}, {}]
    assert totals(MAC, garbage, options)[0] == 2000
    quads = [{"went_out": True, "special_hand": "quads"}, {}]
    assert problems(MAC, quads, options) == {(0, "special_hand")}
    # PAGAT-MAC's four special hands: the others turned off.
    off = ("miami_pairs", "zip_code", "blast_off", "triples", "quads", "dream_plus_4")
    pagat: dict[str, object] = dict.fromkeys((*off, "dream_plus_5"), False)
    pagat["garbage"] = 2000
    rules = resolve(MAC, {"special_hands": pagat})
    assert [(h.key, h.points) for h in rules.special_hands] == [
        ("pairs", 2500),
        ("wild_pairs", 2000),
        ("straight", 3000),
        ("garbage", 2000),
    ]


# --- What must be rejected ------------------------------------------------------------


def test_one_canasta_of_aces_of_sevens_and_of_wild_cards_on_the_table():
    aces = {"canastas": {"aces": 1}, "meld_points": 140}
    assert problems(MAC, [aces, aces]) == {(None, "canastas.aces")}
    sevens = {"canastas": {"sevens": 1}, "meld_points": 35}
    assert problems(MAC, [sevens, sevens]) == {(None, "canastas.sevens")}
    wild = {"canastas": {"wild": 1}, "meld_points": 170}
    twos = {"canastas": {"wild_twos": 1}, "meld_points": 140}
    assert problems(MAC, [wild, twos]) == {(None, "canastas")}
    both = {"canastas": {"wild_jokers": 1, "wild_twos": 1}, "meld_points": 400}
    assert problems(MAC, [both, {}]) == {(None, "canastas")}


def test_unfinished_meld_beside_its_canasta_and_caps():
    beside = {"canastas": {"aces": 1}, "meld_points": 140, "incomplete_aces": 1}
    assert problems(MAC, [beside, {}]) == {(0, "incomplete_aces")}
    beside = {"canastas": {"sevens": 1}, "meld_points": 35, "incomplete_sevens": 1}
    assert problems(MAC, [beside, {}]) == {(0, "incomplete_sevens")}
    for field in ("incomplete_aces", "incomplete_sevens", "incomplete_wild"):
        assert problems(MAC, [{field: 2}, {}]) == {(0, field)}, field
    for field in ("players_with_3_aces", "players_with_3_sevens"):
        assert problems(MAC, [{}, {field: 3}]) == {(1, field)}, field


def test_special_hand_rejections():
    assert problems(MAC, [{"went_out": True, "special_hand": "royal"}, {}]) == {(0, "special_hand")}
    assert problems(MAC, [{"went_out": True, "special_hand": 3}, {}]) == {(0, "special_hand")}
    assert problems(MAC, [{"special_hand": "pairs"}, {}]) == {(0, "special_hand")}
    base = {"went_out": True, "special_hand": "straight"}
    for field, value in [
        ("canastas", {"natural": 1}),
        ("meld_points", 35),
        ("meld_cards", {"high": 1}),
        ("hand_points", 10),
        ("hand_cards", {"low": 1}),
        ("red_threes", 1),
        ("black_threes", 1),
        ("incomplete_wild", 1),
        ("players_with_3_aces", 1),
        ("penalties", [{"points": 50, "reason": "Slow play"}]),
    ]:
        found = problems(MAC, [{**base, field: value}, {}])
        assert (0, field) in found, field
    rules = resolve(MAC)
    with pytest.raises(InvalidHand) as info:
        read_hand(rules, [{**base, "meld_points": 35}, {}])
    [problem] = info.value.problems
    assert (problem.key, problem.params) == ("check.special_alone", {"field": "meld_points"})


def test_threes_are_never_melded_and_fit_the_deck():
    melded = {"meld_cards": {"black_three": 1, "high": 3}}
    assert problems(MAC, [melded, {}]) == {(0, "meld_cards.black_three")}
    melded = {"meld_cards": {"red_three": 1}}
    assert problems(MAC, [melded, {}]) == {(0, "meld_cards.red_three")}
    # Four red threes in the deck: three laid on one side, two on the other.
    assert (None, "red_threes") in problems(MAC, [{"red_threes": 3}, {"red_threes": 2}])
    # Four black threes: three laid, two left in a hand.
    held = {"hand_cards": {"black_three": 2}}
    found = problems(MAC, [{"black_threes": 3}, held])
    assert {p[0] for p in found} == {None}


def test_fields_of_modern_american_only():
    for field, value in [
        ("incomplete_aces", 1),
        ("incomplete_sevens", 1),
        ("players_with_3_aces", 1),
        ("players_with_3_sevens", 1),
        ("black_threes", 1),
        ("special_hand", "pairs"),
    ]:
        assert problems("classic", [{field: value}, {}]) == {(0, field)}, field
    assert problems("classic", [{"canastas": {"aces": 1}, "meld_points": 140}, {}]) == {
        (0, "canastas.aces")
    }
    assert problems("classic", [{"hand_cards": {"red_three": 1}}, {}]) == {
        (0, "hand_cards.red_three")
    }


@pytest.mark.parametrize(
    "options",
    [
        {"special_hands": {"royal": 5000}},
        {"special_hands": {"pairs": 2501}},
        {"special_hands": ["pairs"]},
        {"three_totals": {"5": 2000}},
        {"three_totals": {"0": 100}},
        {"canastas_to_go_out": 3, "going_out_needs": [{"count": 2, "kinds": []}]},
        {"going_out_needs": [{"count": 1, "kinds": ["samba"]}]},
        {"meld_minimums_by_deal": []},
        {"red_three": 200},
        {"aces_canasta": 2501},
    ],
)
def test_options_refused(options):
    with pytest.raises(InvalidOptions) as info:
        resolve(MAC, options)
    assert info.value.problems
    assert all(p.field and p.field.startswith("options") for p in info.value.problems)


@pytest.mark.parametrize(
    ("option", "side", "default", "changed"),
    [
        ("natural_canasta", {"canastas": {"natural": 1}, "meld_points": 35}, 535, 635),
        ("mixed_canasta", {"canastas": {"mixed": 1}, "meld_points": 35}, 335, 635),
        ("aces_canasta", {"canastas": {"aces": 1}, "meld_points": 140}, 2640, 740),
        ("sevens_canasta", {"canastas": {"sevens": 1}, "meld_points": 35}, 2535, 635),
        ("wild_canasta", {"canastas": {"wild": 1}, "meld_points": 170}, 2170, 770),
        ("wild_jokers_canasta", {"canastas": {"wild_jokers": 1}, "meld_points": 260}, 2760, 860),
        ("wild_twos_canasta", {"canastas": {"wild_twos": 1}, "meld_points": 140}, 3140, 740),
        ("incomplete_aces_penalty", {"incomplete_aces": 1}, -2500, -600),
        ("incomplete_sevens_penalty", {"incomplete_sevens": 1}, -2500, -600),
        ("incomplete_wild_penalty", {"incomplete_wild": 1}, -2000, -600),
        ("held_aces_penalty", {"players_with_3_aces": 2}, -3000, -1200),
        ("held_sevens_penalty", {"players_with_3_sevens": 1}, -1500, -600),
    ],
)
def test_each_amount_is_an_option(option, side, default, changed):
    # The changed amount is 600 for a canasta bonus and for a penalty alike.
    assert totals(MAC, [side, {}])[0] == default
    assert totals(MAC, [side, {}], {option: 600})[0] == changed


def test_target_and_meld_minimum_options():
    rules = resolve(MAC, {"target": 5000, "meld_minimums": [{"min_score": None, "points": 50}]})
    assert game_result(rules, [5000, 0]).status == FINISHED
    assert meld_requirement(rules, 6000).points == 50
    needs = resolve(MAC, {"going_out_needs": [{"count": 1, "kinds": ["aces"]}]})
    out = {"went_out": True, "canastas": {"mixed": 2}, "meld_points": 70}
    with pytest.raises(InvalidHand):
        read_hand(needs, [out, {}])
    assert totals(MAC, [out, {}], {"canastas_to_go_out": 1}) == [770, 0]
