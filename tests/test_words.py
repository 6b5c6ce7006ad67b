"""The edge's words (scorekeeper.words): the engine's keys and parameters in English, as
they read before the engine spoke keys; every key the engine makes has words; the
messages are where `pybabel extract` finds them, each game's in its own context; no
code is made from text anywhere."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from scorekeeper import words
from scorekeeper.rules import (
    PRESETS,
    InvalidHand,
    InvalidRules,
    MeldRequirement,
    Vocabulary,
    available_options,
    deal_label,
    hand_warnings,
    meld_requirement,
    read_hand,
    resolve,
    resolve_options,
    score,
)
from scorekeeper.rules.hand import SIDE_FIELDS
from scorekeeper.rules.seats import seat_scores
from scorekeeper.services.hands import evaluate
from scorekeeper.validation import ValidationError
from scorekeeper.words import nouns
from tests.rules.helpers import HF_OTHER, HF_OUT

ROOT = Path(__file__).resolve().parents[1]


def labels(key: str, sides: list[dict], options: dict | None = None) -> list[list[str]]:
    rules = resolve(key, options)
    hand = read_hand(rules, sides)
    return [
        [words.line_label(line.to_dict(), rules.vocabulary) for line in side.lines]
        for side in score(rules, hand)
    ]


def messages(key: str, sides: object, names: list[str] | None = None, **more: object) -> list[str]:
    """The words of every problem of a hand, its sides named as a match names them."""
    with pytest.raises(ValidationError) as info:
        evaluate(resolve(key), sides, side_names=names, **more)  # type: ignore[arg-type]
    return [problem.message for problem in info.value.problems]


# --- The English of score lines ------------------------------------------------------------


def test_lines_in_the_words_of_their_game():
    assert "1 wild book x 1500" in labels("hand-and-foot", [HF_OUT, HF_OTHER])[0]
    assert "2 clean books x 500" in labels("hand-and-foot", [HF_OUT, HF_OTHER])[0]
    side = {"went_out": True, "canastas": {"natural": 1, "mixed": 1}, "meld_points": 230}
    took = {**side, "took_extra_hand": True}
    burraco = labels("burraco", [took, {"took_extra_hand": False}])
    assert burraco[0][:2] == ["1 clean burraco x 200", "1 dirty burraco x 100"]
    assert "Closing" in burraco[0]
    assert "Extra hand (pozzetto) not taken" in burraco[1]
    bolivia = {"went_out": True, "canastas": {"samba": 1, "natural": 1}, "meld_points": 300}
    assert "1 escalera x 1500" in labels("bolivia", [bolivia, {}])[0]


def test_counted_cards_and_reasons_in_words():
    assert labels("classic", [{"meld_cards": {"joker": 1, "low": 2}}, {}])[0][0] == (
        "Melded cards: 1 joker x 50, 2 low cards x 5"
    )
    assert labels("classic", [{"red_threes": 2, "hand_points": 10}, {}])[0][1] == (
        "2 red threes x 100, counted minus (no canasta)"
    )
    mac = {"canastas": {"mixed": 1}, "meld_points": 150, "red_threes": 1, "hand_points": 65}
    assert (
        "1 red three, counting nothing (fewer than 2 canastas)"
        in labels("modern-american", [mac, {}])[0]
    )
    free = [{"points": 75, "reason": "Showed a card"}]
    assert "Penalty: Showed a card" in labels("classic", [{"penalties": free}, {}])[0]


def test_special_hands_say_so():
    out = {"went_out": True, "special_hand": "pairs"}
    assert labels("modern-american", [out, {}])[0] == ["Went out with a special hand: Pairs"]
    dream = {"went_out": True, "special_hand": "dream_plus_4"}
    assert labels("modern-american", [dream, {}])[0] == [
        "Went out with a special hand: Dream hand plus 4 (wins the game at once)"
    ]


def test_a_pairs_share_in_words():
    rules = resolve("burraco-3p")
    lone = {"went_out": True, "canastas": {"natural": 1}, "meld_points": 80}
    pair = {"canastas": {"mixed": 1}, "meld_points": 80, "hand_points": 45}
    sides = [{**lone, "took_extra_hand": True}, {**pair, "took_extra_hand": True}]
    hand = read_hand(rules, sides, lineup=[[0], [1, 2]])
    seats = seat_scores(rules, hand.lineup, score(rules, hand))
    share = seats[1].lines[-1].to_dict()
    assert words.line_label(share, rules.vocabulary) == (
        "Half of the pair's 135 for each of its 2 players, rounded up to a multiple of 5: 70"
    )


def test_a_line_stored_with_words_only_keeps_them():
    assert words.line_label(
        {"rule": "x", "label": "As stored", "points": 5}, Vocabulary.CANASTA
    ) == ("As stored")
    legacy = {"rule": "x", "key": "line.legacy", "params": {"text": "Old words"}, "points": 5}
    assert words.line_label(legacy, Vocabulary.CANASTA) == "Old words"


# --- The English of problems ---------------------------------------------------------------


def test_problems_name_their_side():
    problems = messages("classic", [{"meld_points": 4200}, {"meld_points": 120}])
    assert problems == [
        "Team 1: 4200 points of cards (melded and left) is more than the whole deck is worth "
        "(1180 points): check for a typo"
    ]
    named = messages("classic", [{"canastas": {"natural": 2}, "meld_points": 5}, {}], ["Ann", "Bo"])
    assert named == [
        "Ann: 2 canastas need at least 70 points of melded cards; the meld points are 5"
    ]
    one = messages("classic", [{"canastas": {"natural": 1}, "meld_points": 5}, {}])
    assert one == [
        "Team 1: 1 canasta needs at least 35 points of melded cards; the meld points are 5"
    ]


def test_problems_of_a_seated_hand_name_its_players():
    lone = {"meld_points": 60, "hand_points": 95, "took_extra_hand": False}
    pair = {"canastas": {"mixed": 1}, "meld_points": 80, "hand_points": 45, "took_extra_hand": True}
    [first] = messages("burraco-3p", [lone, pair], lineup=[[0], [1, 2]])
    assert first.startswith("Seat 1: the player alone is the one who finished first and took the")
    [named] = messages("burraco-3p", [pair, lone], ["Ada", "Bea", "Cy"], lineup=[[0, 2], [1]])
    assert named.startswith("Bea: the player alone")
    assert "pozzetto" in named


@pytest.mark.parametrize(
    ("lineup", "said"),
    [
        ([[0], [1]], "lineup leaves out seat 2: every seat plays each hand"),
        ([[0], [1, 1]], "lineup names a seat twice: 1"),
        ([[0], [1, 3]], "lineup names seats that do not exist: 3 (seats are 0 to 2)"),
        ("0 vs 1 2", "lineup must be a list of sides, each a non-empty list of seat numbers, "
         "e.g. [[0], [1, 2]]"),
        (None, "Burraco for three needs the hand's lineup: who played with whom (a list of "
         "sides, each a list of seats)"),
    ],
)  # fmt: skip
def test_lineup_problems_in_words(lineup, said):
    side = {"meld_points": 50, "took_extra_hand": True}
    assert said in messages("burraco-3p", [side, side], lineup=lineup)


def test_lineup_shapes_in_words():
    everyone = {"meld_points": 100, "took_extra_hand": False}
    problems = messages("burraco-3p", [everyone], lineup=[[0, 1, 2]])
    assert problems == [
        "Burraco for three is played pair against one (sides of 1 and 2 seats) or each for "
        "himself (sides of 1, 1 and 1 seats)"
    ]
    side = {"meld_points": 50, "took_extra_hand": True}
    later = messages("burraco-3p", [side, side], lineup=[[0], [1, 2]], phase=1)
    assert later == [
        "A seat reached 1000, so from now on every hand is played each for himself (sides of "
        "1, 1 and 1 seats)"
    ]
    seated = messages("burraco", [side, side], lineup=[[0], [1]])
    assert seated == ["Burraco has no line-ups: leave lineup out"]


def test_rule_problems_in_the_words_of_the_game():
    beside = {"canastas": {"aces": 1}, "meld_points": 140, "incomplete_aces": 1}
    assert messages("modern-american", [beside, {}]) == [
        "Team 1: unfinished melds of aces cannot be left once the side has completed canastas "
        "of aces"
    ]
    out = {"went_out": True, "meld_points": 100, "took_extra_hand": False}
    assert messages("buraco", [out, {"took_extra_hand": True}]) == [
        "Player 1 cannot have gone out: Buraco needs 1 natural canasta or ace-to-ace canasta, "
        "0 recorded and the extra hand (morto) taken first, and it was not"
    ]
    special = {"went_out": True, "special_hand": "pairs", "meld_points": 35}
    assert messages("modern-american", [special, {}]) == [
        "Team 1 went out with a special hand, which scores alone: leave meld points empty"
    ]
    reason = [{"points": 5, "reason": "a\nb"}]
    assert messages("classic", [{"penalties": reason}, {}]) == [
        "Team 1: the reason contains a control character (such as a line break)"
    ]


def test_a_warning_names_its_side():
    rules = resolve("classic")
    hand = read_hand(rules, [{"went_out": True, "canastas": {"natural": 1}, "meld_points": 200},
                             {"meld_points": 120}])  # fmt: skip
    [warning] = words.told_all(hand_warnings(rules, hand), rules.vocabulary, ["Ann", "Bob & Dee"])
    assert warning.message == "Bob & Dee did not go out but has nothing left in hand"


def test_option_words():
    labels = {
        spec.name: words.option_label(spec, PRESETS["buraco"].vocabulary)
        for spec in available_options(PRESETS["buraco"])
    }
    assert labels["ace_to_ace"] == "Bonus for each ace-to-ace canasta"
    assert labels["canastas_to_go_out"] == "Canastas needed to go out"
    six = {
        s.name: words.option_label(s, Vocabulary.CANASTA)
        for s in available_options(PRESETS["classic-6p"])
    }
    assert six["target"] == "Target score (default by layout: 10000 for 2x3, 7500 for 3x2)"
    _, problems = resolve_options(
        PRESETS["classic"], {"target": -5, "incomplete_wild_penalty": True}
    )
    assert [words.told(p).message for p in problems] == [
        "Target score must be more than 0",
        "The cost of unfinished wild-card melds needs wild-card canastas (option wild_canasta)",
    ]


def test_meld_requirements():
    brazilian = resolve("brazilian")
    said = [
        words.meld_label(meld_requirement(brazilian, score), brazilian.vocabulary)
        for score in (2200, 7500, 8500, 9500)
    ]
    assert said == [
        "90 points",
        "A canasta",
        "A canasta and melds worth at least 200 points in all",
        "A natural canasta",
    ]
    assert words.meld_label(MeldRequirement(0, None), Vocabulary.BURACO) == "No minimum"


def test_deals_and_rule_sets_in_words():
    rules = resolve("hand-and-foot")
    assert words.deal_text(deal_label(rules, 3)) == "Deal 3 of 4"
    assert words.deal_text(deal_label(rules, 5)) == "Extra deal 5"
    classic = PRESETS["classic"]
    import dataclasses

    with pytest.raises(InvalidRules) as info:
        dataclasses.replace(classic, cards=(*classic.cards, classic.cards[0]), target=7)
    assert words.faults_text(info.value.problems) == (
        "classic: the target must be a positive multiple of 5; card categories must have "
        "distinct keys"
    )


# --- Every key has words -------------------------------------------------------------------


def test_every_thing_of_every_preset_has_words_in_its_game():
    """Each kind in its game's own table (its words translated in its context), and every
    card category, penalty, special hand, line-up, deck and game by name."""
    for rules in PRESETS.values():
        assert words.game_name(rules.key) != rules.key
        assert words.game_description(rules.key)
        own = nouns.KIND_NOUNS[rules.vocabulary]
        assert {kind.key for kind in rules.canasta_kinds} <= set(own), rules.key
        assert {c.key for c in rules.cards} <= set(nouns.CATEGORIES)
        fields = {p.field for p in (*rules.counted_penalties, *rules.optional_penalties)}
        assert fields <= set(nouns.PENALTIES)
        assert {p.key for p in rules.catalogue} <= set(nouns.CATALOGUE)
        assert {h.key for h in rules.special_hands} <= set(nouns.SPECIAL_HANDS)
        assert {k.note for k in rules.canasta_kinds if k.note} <= set(nouns.NOTES)
        if rules.packs is None:
            assert rules.deck.key in nouns.DECKS
        if rules.seating is not None:
            shapes = {s.key for s in (*rules.seating.opening, *rules.seating.later)}
            assert shapes <= set(nouns.SHAPES)
        if rules.extra_hand is not None:
            assert rules.vocabulary in nouns.EXTRA_HANDS
        for spec in available_options(rules):
            assert spec.key in words.MESSAGES, spec.key
    assert set(Vocabulary) == set(nouns.KIND_NOUNS) == set(nouns.CANASTA_NOUNS)


junk = st.none() | st.booleans() | st.integers(-5, 30000) | st.sampled_from(["x", "2", ""])
keys = st.sampled_from(["natural", "mixed", "samba", "wild", "aces", "joker", "low", "zz"])
sides = st.dictionaries(
    st.sampled_from(SIDE_FIELDS),
    junk
    | st.dictionaries(keys, st.integers(-1, 60), max_size=3)
    | st.just([{"rule": "stock_out_of_turn", "count": 2}, {"points": 50, "reason": "late"}]),
    max_size=7,
)


@given(
    key=st.sampled_from(sorted(PRESETS)),
    records=st.lists(sides, min_size=1, max_size=4),
    options=st.none() | st.dictionaries(st.sampled_from(["target", "deals", "zz", "packs"]), junk),
)
def test_every_line_and_problem_the_engine_makes_has_words(key, records, options):
    rules, problems = resolve_options(PRESETS[key], options)
    lineup = [[0], [1, 2]] if rules.seating is not None else None
    try:
        hand = read_hand(rules, records, lineup=lineup)
    except InvalidHand as error:
        problems += error.problems
    else:
        for side in score(rules, hand):
            for line in side.lines:
                assert line.key in words.MESSAGES
                assert words.line_label(line.to_dict(), rules.vocabulary)
        problems += hand_warnings(rules, hand)
    for problem in problems:
        assert problem.key in words.MESSAGES, problem.key
        assert words.told(problem, rules.vocabulary, ["A", "B", "C", "D"]).message


# --- Extraction, and no code made from text ------------------------------------------------


def test_pybabel_finds_every_message_each_game_in_its_context(tmp_path):
    pot = tmp_path / "messages.pot"
    result = subprocess.run(
        [Path(sys.executable).parent / "pybabel", "extract", "-F", "babel.cfg", "-o", pot, "."],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=False,
    )
    assert result.returncode == 0, result.stderr
    assert "warning" not in result.stderr.lower(), result.stderr  # no f-string or variable msgid
    catalogue = pot.read_text(encoding="utf-8")
    for vocabulary in Vocabulary:
        assert f'msgctxt "{vocabulary}"' in catalogue
    assert 'msgctxt "burraco"\nmsgid "clean burraco"\nmsgid_plural "clean burracos"' in catalogue
    assert 'msgid "%(count)s %(kind)s x %(bonus)s"' in catalogue
    assert (
        "templates/" in catalogue
        or "[jinja2: templates/**.html]" in (ROOT / "babel.cfg").read_text()
    )


def test_no_code_is_made_from_text():
    """No module of the app calls eval or exec: no text, a catalogue's included, becomes code."""
    for path in sorted((ROOT / "scorekeeper").rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Name):
                assert node.func.id not in ("eval", "exec"), f"{path.name}:{node.lineno}"


def test_numbers_go_through_one_function():
    """With no reader (a script, a migration), plain digits; in a request, the reader's
    locale's (tests/test_languages.py)."""
    assert words.number(10450) == "10450"
    assert words.signed(10450) == "+10450"
