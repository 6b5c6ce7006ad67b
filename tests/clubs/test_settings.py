"""An event's settings: CLUBS.md's defaults and bounds, every problem at once."""

from __future__ import annotations

import pytest

from scorekeeper.clubs.movements import Movement
from scorekeeper.clubs.problems import InvalidSettings, Problem
from scorekeeper.clubs.settings import EventSettings, read_event_settings
from scorekeeper.clubs.victory_points import FIBUR_3, FIBUR_4, WDL


def problems(data, entries=8):
    with pytest.raises(InvalidSettings) as caught:
        read_event_settings(data, entries)
    return list(caught.value.problems)


def test_defaults():
    settings = read_event_settings({"rounds": 5}, 8)
    assert settings == EventSettings(8, 3, FIBUR_3, Movement.DANISH, 5, 12)
    assert read_event_settings({"rounds": 5, "deals_per_round": 4}, 8).vp_table == FIBUR_4
    assert read_event_settings({"rounds": 2, "vp_table": "wdl"}, 3).bye_vp == 2
    own = {"rows": [[0, 4, 4], [200, 6, 2]], "over": [8, 0]}
    assert read_event_settings({"rounds": 2, "vp_table": own}, 3).bye_vp == 4
    assert read_event_settings({"rounds": 40}, 3).rounds == 40  # Danish: no limit


def test_rounds_up_to_what_the_movement_allows():
    assert read_event_settings({"rounds": 4, "movement": "mitchell"}, 8).rounds == 4
    assert problems({"rounds": 5, "movement": "mitchell"}) == [
        Problem("rounds", "event.out_of_range", {"min": 1, "max": 4})
    ]
    assert problems({"rounds": 10, "movement": "round_robin"}, 9) == [
        Problem("rounds", "event.out_of_range", {"min": 1, "max": 9})
    ]
    assert problems({"rounds": 0}) == [Problem("rounds", "event.below_minimum", {"min": 1})]


def test_every_problem_at_once():
    data = {
        "deals_per_round": 13,
        "vp_table": {"rows": [[0, 10, 10], [50, 9, 11]], "over": [20, 0]},
        "movement": "howell",
        "rounds": "3",
        "bye_vp": True,
    }
    assert problems(data, entries=1) == [
        Problem("entries", "event.too_few_entries", {"min": 2}),
        Problem("deals_per_round", "event.out_of_range", {"min": 1, "max": 12}),
        Problem("vp_table.rows[1]", "vp_table.winner_falls", {"row": 1}),
        Problem("movement", "event.unknown_movement"),
        Problem("rounds", "event.not_a_whole_number"),
        Problem("bye_vp", "event.not_a_whole_number"),
    ]


def test_the_bye_goes_from_0_to_the_table_s_top_figure():
    assert read_event_settings({"rounds": 1, "bye_vp": 0}, 4).bye_vp == 0
    assert read_event_settings({"rounds": 1, "bye_vp": 20}, 4).bye_vp == 20
    assert problems({"rounds": 1, "bye_vp": 21}) == [
        Problem("bye_vp", "event.out_of_range", {"min": 0, "max": 20})
    ]
    assert problems({"rounds": 1, "bye_vp": 3, "vp_table": "wdl"}) == [
        Problem("bye_vp", "event.out_of_range", {"min": 0, "max": 2})
    ]


def test_settings_built_in_code_check_themselves():
    with pytest.raises(InvalidSettings) as caught:
        EventSettings(6, 0, WDL, Movement.MITCHELL, 4, 3)
    assert [p.field for p in caught.value.problems] == ["deals_per_round", "rounds", "bye_vp"]
