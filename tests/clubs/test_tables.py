"""An event's game: two-sided presets, entries' player counts, rules that end after K deals."""

from __future__ import annotations

import pytest

from scorekeeper.clubs import entry_sizes, event_size, game_problems, table_rules
from scorekeeper.rules import PRESETS, game_result
from scorekeeper.rules.errors import InvalidRules
from scorekeeper.rules.game import GameStatus
from scorekeeper.rules.model import GameEndMode, TieRule


@pytest.mark.parametrize(
    ("key", "sizes"),
    [
        ("classic", (2,)),
        ("classic-2p", (1,)),
        ("burraco", (1, 2)),
        ("buraco", (1,)),
        ("hand-and-foot", (1, 2, 3)),
        ("classic-6p", (3,)),
        ("classic-3p", ()),
        ("burraco-3p", ()),
    ],
)
def test_an_entry_has_the_players_of_a_side_of_two(key, sizes):
    assert entry_sizes(PRESETS[key]) == sizes


def test_a_game_of_three_sides_is_refused():
    problems = game_problems(PRESETS["classic-3p"], [1, 1])
    assert [(p.field, p.key) for p in problems] == [("variant", "event.not_two_sided")]


def test_every_entry_has_the_count_of_the_first():
    rules = PRESETS["burraco"]
    assert event_size(rules, [2, 1, 2]) == 2
    problems = game_problems(rules, [2, 1, 2, 3])
    assert [(p.field, p.key, dict(p.params)) for p in problems] == [
        ("entries[1].players", "event.entry_size", {"count": 1, "size": 2}),
        ("entries[3].players", "event.entry_size", {"count": 3, "size": 2}),
    ]


def test_a_game_of_one_count_names_it_even_when_the_first_entry_is_wrong():
    problems = game_problems(PRESETS["classic"], [3, 2])
    assert [(p.field, dict(p.params)) for p in problems] == [
        ("entries[0].players", {"count": 3, "size": 2})
    ]


def test_a_first_entry_of_no_count_leaves_the_range():
    problems = game_problems(PRESETS["burraco"], [4, 2])
    assert [dict(p.params) for p in problems] == [
        {"count": 4, "least": 1, "most": 2},
        {"count": 2, "least": 1, "most": 2},
    ]


def test_options_that_end_the_game_are_the_events():
    options = {"target": 2000, "deals": 3, "going_out": 100}
    problems = game_problems(PRESETS["classic"], [2, 2], options)
    assert [(p.field, p.key) for p in problems] == [
        ("options.target", "event.option_set_by_event"),
        ("options.deals", "event.option_set_by_event"),
    ]


@pytest.mark.parametrize("key", ["classic", "burraco", "hand-and-foot", "modern-american"])
def test_a_table_match_ends_after_k_deals_whatever_the_totals(key):
    rules = table_rules(PRESETS[key], 3)
    assert rules.game_end.mode == GameEndMode.DEALS
    assert rules.game_end.deals == 3
    assert rules.game_end.tie_rule == TieRule.DRAW
    assert game_result(rules, [9000, 10], deals_played=2).status == GameStatus.PLAYING
    assert game_result(rules, [30, 10], deals_played=3).status == GameStatus.FINISHED
    assert game_result(rules, [30, 10], deals_played=3).winner == 0
    assert game_result(rules, [40, 40], deals_played=3).status == GameStatus.DRAWN


def test_an_instant_win_still_ends_a_table_match():
    rules = table_rules(PRESETS["classic"], 4)
    result = game_result(rules, [10, 900], deals_played=1, instant_winner=0)
    assert (result.status, result.winner, result.instant) == (GameStatus.FINISHED, 0, True)


def test_the_rules_are_checked_when_built():
    with pytest.raises(InvalidRules):
        table_rules(PRESETS["classic"], 0)
