"""Leagues of CLUBS.md worked by hand: best 3 of 4 evenings, a minimum of 2, substitutes."""

from __future__ import annotations

from datetime import UTC, date, datetime
from zoneinfo import ZoneInfo

import pytest

from scorekeeper.clubs.leagues import (
    EveningPoints,
    LeagueRow,
    LeagueScoring,
    LeagueSettings,
    SubstituteCredit,
    counted_evenings,
    entry_points,
    evening_of,
    league_settings_problems,
    league_standings,
    read_league_settings,
    wdl_points,
)
from scorekeeper.clubs.matches import FinishedMatch
from scorekeeper.clubs.problems import InvalidSettings, Problem
from scorekeeper.rules import GameFamily

E1, E2, E3, E4 = date(2026, 1, 5), date(2026, 1, 12), date(2026, 1, 19), date(2026, 1, 26)
NAMES = {1: "anna", 2: "Bruno", 3: "Carla", 4: "Dario", 5: "Elena", 6: "Franco", 7: "Gino"}
NAMES |= {8: "Aldo"}


def vp_league_points():
    """Entries' VP of four evenings, each given to the entry's players."""
    return [
        *entry_points(E1, (1, 2), 12),
        *entry_points(E1, (3, 4), 8),
        *entry_points(E1, (8,), 13),
        *entry_points(E2, (1, 5), 15),  # Elena sits in for Bruno: credited below
        *entry_points(E2, (3, 4), 5),
        *entry_points(E3, (1, 2), 9),
        *entry_points(E3, (3, 6), 11),  # Franco sits in for Dario: not credited
        *entry_points(E3, (8,), 10),
        *entry_points(E4, (1, 2), 10),
        *entry_points(E4, (3, 4), 10),
        *entry_points(E4, (5, 7), 6),  # Elena plays for herself this time
        *entry_points(E4, (7,), 14),  # Gino plays two events that evening: 20 in all
        *entry_points(date(2026, 2, 2), (3, 4), 20),  # after the league's end
    ]


def test_a_vp_league_best_3_of_4_with_a_minimum_of_2_evenings():
    settings = LeagueSettings(date(2026, 1, 1), date(2026, 1, 31), LeagueScoring.VP, 3, 2)
    credits = [SubstituteCredit(E2, substitute=5, replaced=2)]
    result = league_standings(settings, vp_league_points(), NAMES, credits)
    assert result.evenings == (E1, E2, E3, E4)
    assert result.rows == (
        # anna and Bruno: 15 + 12 + 10 = 37 over 4 evenings each; "anna" before "Bruno"
        # without regard to case.
        LeagueRow(1, 1, 37, 4, (12, 15, 9, 10), True),
        LeagueRow(2, 2, 37, 4, (12, 15, 9, 10), True),  # E2 credited from Elena
        LeagueRow(3, 3, 29, 4, (8, 5, 11, 10), True),  # 11 + 10 + 8
        LeagueRow(4, 4, 23, 3, (8, 5, None, 10), True),  # 3 evenings: ahead of Aldo's 2
        LeagueRow(5, 8, 23, 2, (13, None, 10, None), True),
        LeagueRow(None, 7, 20, 1, (None, None, None, 20), False),
        LeagueRow(None, 6, 11, 1, (None, None, 11, None), False),  # earned for himself
        LeagueRow(None, 5, 6, 1, (None, None, None, 6), False),  # E2 went to Bruno
    )


def test_without_the_credit_a_substitute_earns_for_themselves():
    settings = LeagueSettings(date(2026, 1, 1), date(2026, 1, 31), LeagueScoring.VP, 3, 2)
    rows = {row.player: row for row in league_standings(settings, vp_league_points(), NAMES).rows}
    assert rows[2].per_evening == (12, None, 9, 10)
    assert (rows[2].points, rows[2].evenings) == (31, 3)
    assert rows[5].per_evening == (None, 15, None, 6)
    assert (rows[5].points, rows[5].evenings, rows[5].rank) == (21, 2, 6)


def test_all_evenings_count_without_best_of():
    settings = LeagueSettings(date(2026, 1, 1), date(2026, 1, 31), LeagueScoring.VP)
    rows = {row.player: row for row in league_standings(settings, vp_league_points(), NAMES).rows}
    assert rows[1].points == 46
    assert rows[7].ranked  # one evening is enough by default
    ranks = [row.rank for row in league_standings(settings, vp_league_points(), NAMES).rows]
    assert ranks == list(range(1, 9))


def test_credits_move_what_each_substitute_earned_and_do_not_chain():
    settings = LeagueSettings(E1, E1, LeagueScoring.VP)
    points = [EveningPoints(E1, 1, 5), EveningPoints(E1, 2, 7), EveningPoints(E1, 3, 1)]
    credits = [SubstituteCredit(E1, 1, 2), SubstituteCredit(E1, 2, 3)]
    rows = league_standings(settings, points, NAMES, credits).rows
    assert [(row.player, row.points) for row in rows] == [(3, 8), (2, 5)]
    with pytest.raises(ValueError, match="one player an evening"):
        league_standings(settings, points, NAMES, [*credits, SubstituteCredit(E1, 1, 3)])
    with pytest.raises(ValueError, match="someone else"):
        SubstituteCredit(E1, 4, 4)


def match(id, day, sides, totals, winner, hour=21):
    finished = datetime(2026, 1, day, hour, tzinfo=UTC)
    return FinishedMatch(id, finished, GameFamily.CANASTA, sides, totals, winner)


def test_a_wdl_league_with_a_draw():
    matches = [
        match(1, 5, ((1, 2), (3, 4)), (5100, 3000), 0),
        match(2, 5, ((1,), (3,)), (2000, 2000), None),  # a draw: 1 each
        match(3, 12, ((1,), (2,), (3,)), (900, 1200, 1200), None),  # drawn at the top: 2, 3
        match(4, 12, ((1,), (2,), (4,)), (1600, 1000, 1600), 0),  # the winner wins, all else lose
    ]
    points = [p for m in matches for p in wdl_points(m, evening_of(m.finished_at))]
    settings = LeagueSettings(E1, E4, LeagueScoring.WDL)
    result = league_standings(settings, points, NAMES)
    assert result.evenings == (E1, E2)
    assert [(r.rank, r.player, r.points, r.evenings, r.per_evening) for r in result.rows] == [
        (1, 1, 5, 2, (3, 2)),
        (2, 2, 3, 2, (2, 1)),
        (3, 3, 2, 2, (1, 1)),
        (4, 4, 0, 2, (0, 0)),
    ]


def test_the_evening_is_the_date_in_the_server_time_zone():
    late = datetime(2026, 1, 5, 23, 30, tzinfo=UTC)
    assert evening_of(late) == date(2026, 1, 5)
    assert evening_of(late, ZoneInfo("Europe/Rome")) == date(2026, 1, 6)
    assert evening_of(datetime(2026, 1, 5, 23, 30), ZoneInfo("Europe/Rome")) == date(2026, 1, 6)


def test_league_settings_problems_all_at_once():
    assert league_settings_problems(E1, E4, "vp", None, 1) == ()
    assert league_settings_problems(E4, E1, "elo", 0, 0) == (
        Problem("end", "league.end_before_start"),
        Problem("scoring", "league.unknown_scoring"),
        Problem("best_of", "league.below_one", {"min": 1}),
        Problem("min_evenings", "league.below_one", {"min": 1}),
    )
    assert league_settings_problems("2026-01-01", E1, "wdl", True, "2") == (
        Problem("start", "league.not_a_date"),
        Problem("best_of", "league.below_one", {"min": 1}),
        Problem("min_evenings", "league.below_one", {"min": 1}),
    )
    with pytest.raises(InvalidSettings) as caught:
        LeagueSettings(E4, E1, LeagueScoring.VP)
    assert caught.value.problems == (Problem("end", "league.end_before_start"),)


def test_league_settings_from_the_api():
    settings = read_league_settings({"start": "2026-01-01", "end": "2026-03-31", "scoring": "wdl"})
    assert settings == LeagueSettings(
        date(2026, 1, 1), date(2026, 3, 31), LeagueScoring.WDL, None, 1
    )
    data = {"start": "2026-02-30", "end": "2026-01-01", "scoring": "points", "best_of": 0}
    with pytest.raises(InvalidSettings) as caught:
        read_league_settings(data)
    assert [p.field for p in caught.value.problems] == ["start", "scoring", "best_of"]


def test_the_evenings_that_count_are_the_best_n_the_earlier_first():
    assert counted_evenings((2, 2, 0, 2), 3) == (True, True, False, True)
    assert counted_evenings((2, 0, 0, 0), 3) == (True, True, True, False)  # the earlier zeros
    assert counted_evenings((None, 5, None, 1), 1) == (False, True, False, False)
    assert counted_evenings((3, None, 1), None) == (True, False, True)  # all that were played
    assert counted_evenings((), 2) == ()
    row = league_standings(
        LeagueSettings(E1, E4, LeagueScoring.VP, 3, 2), vp_league_points(), NAMES
    ).rows[0]
    kept = [p for p, counts in zip(row.per_evening, counted_evenings(row.per_evening, 3),
                                   strict=True) if counts]  # fmt: skip
    assert sum(kept) == row.points
