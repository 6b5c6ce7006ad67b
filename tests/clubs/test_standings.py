"""Standings of CLUBS.md worked by hand: each tie-break, byes, penalties, withdrawals."""

from __future__ import annotations

import pytest

from scorekeeper.clubs.standings import (
    Bye,
    CardLine,
    Entry,
    EventResults,
    Penalty,
    StandingsRow,
    TableResult,
    entry_card,
    ranking,
    standings,
)
from scorekeeper.clubs.victory_points import FIBUR_3, WDL


def event(entries, tables, byes=(), penalties=(), bye_vp=12, table=FIBUR_3, withdrawn=()):
    return EventResults(
        tuple(Entry(n, n in withdrawn) for n in range(1, entries + 1)),
        tuple(TableResult(*t) for t in tables),
        tuple(Bye(*b) for b in byes),
        table,
        bye_vp,
        tuple(Penalty(*p) for p in penalties),
    )


def rows(results):
    return [(r.rank, r.entry, r.vp, r.mp_diff, r.mp, r.played) for r in standings(results)]


def test_more_vp_first():
    # 1 beats 2 by 600 (15-5), 3 beats 4 by 100 (11-9).
    results = event(4, [(1, 1, 2, 1600, 1000), (1, 3, 4, 1100, 1000)])
    assert rows(results) == [
        (1, 1, 15, 600, 1600, 1),
        (2, 3, 11, 100, 1100, 1),
        (3, 4, 9, -100, 1000, 1),
        (4, 2, 5, -600, 1000, 1),
    ]


def test_equal_vp_larger_mp_difference_first():
    # 2 and 3 both take 11 VP (differences 51 and 150: one row), 2 by more MP.
    results = event(4, [(1, 1, 2, 1000, 1150), (1, 3, 4, 1051, 1000)])
    assert ranking(results) == (2, 3, 4, 1)
    assert [(r.entry, r.vp, r.mp_diff) for r in standings(results)][:2] == [
        (2, 11, 150),
        (3, 11, 51),
    ]


def test_exactly_two_tied_who_met_go_by_their_meetings():
    # Round 1: 2 beats 1 by 100 (11-9), 3 and 4 draw. Round 2: 1 beats 3 by 100, 4 beats 2
    # by 100. 1 and 2 end on 20 VP and 0 each; 2 took more VP when they met: 2 first.
    tables = [
        (1, 1, 2, 1000, 1100),
        (1, 3, 4, 1000, 1000),
        (2, 1, 3, 1100, 1000),
        (2, 2, 4, 1000, 1100),
    ]
    assert rows(event(4, tables)) == [
        (1, 4, 21, 100, 2100, 2),
        (2, 2, 20, 0, 2100, 2),
        (3, 1, 20, 0, 2100, 2),
        (4, 3, 19, -100, 2000, 2),
    ]


def test_two_tied_who_never_met_go_by_entry_number():
    # 2 and 3 both win by 100 against others and lose by 100 to others.
    tables = [
        (1, 1, 3, 1100, 1000),
        (1, 2, 4, 1100, 1000),
        (2, 1, 2, 1100, 1000),
        (2, 3, 4, 1100, 1000),
    ]
    assert ranking(event(4, tables)) == (1, 2, 3, 4)
    assert [(r.vp, r.mp_diff) for r in standings(event(4, tables))][1:3] == [(20, 0), (20, 0)]


def test_two_tied_who_met_and_shared_their_meetings_go_by_entry_number():
    tables = [(1, 1, 2, 1000, 1000), (1, 3, 4, 900, 1000)]
    assert ranking(event(4, tables)) == (4, 1, 2, 3)


def test_three_tied_never_go_head_to_head():
    # A cycle: 2 beat 1 by 300, 3 beat 2 by 100, 1 beat 3 by 100; against 4: 1 by 400,
    # 2 drew, 3 by 200. 1, 2 and 3 end on 32 VP and +200 each. Among themselves 2 took the
    # most VP (22, then 3 with 20, 1 with 18), and 2 beat 1; neither counts when three are
    # tied: by entry number.
    tables = [
        (1, 1, 2, 1000, 1300),
        (1, 3, 4, 1200, 1000),
        (2, 1, 3, 1100, 1000),
        (2, 2, 4, 1000, 1000),
        (3, 1, 4, 1400, 1000),
        (3, 2, 3, 1000, 1100),
    ]
    assert rows(event(4, tables)) == [
        (1, 1, 32, 200, 3500, 3),
        (2, 2, 32, 200, 3300, 3),
        (3, 3, 32, 200, 3300, 3),
        (4, 4, 24, -600, 3000, 3),
    ]


def test_a_bye_a_penalty_and_a_withdrawal():
    # Round 1: 1 beats 2 by 200 (12-8), 3 beats 4 by 1500 (19-1), 5 has the bye (12).
    # 3 withdraws. Round 2: 1 and 5 draw (10-10), 4 beats 2 by 300 (13-7).
    # The director takes 2 VP off entry 1.
    results = event(
        5,
        [
            (1, 1, 2, 1000, 800),
            (1, 3, 4, 1600, 100),
            (2, 1, 5, 1000, 1000),
            (2, 2, 4, 600, 900),
        ],
        byes=[(1, 5)],
        penalties=[(1, 2)],
        withdrawn={3},
    )
    assert rows(results) == [
        (1, 5, 22, 0, 1000, 1),  # the bye: 12 VP, no MP, no difference, no table played
        (2, 1, 20, 200, 2000, 2),  # 22 earned, 2 taken off: behind 5 (without it, ahead)
        (3, 3, 19, 1500, 1600, 1),  # withdrawn: keeps its VP, ranked like the others
        (4, 2, 15, -500, 1400, 2),
        (5, 4, 14, -1200, 1000, 2),
    ]
    assert [r.withdrawn for r in standings(results)] == [False, False, True, False, False]
    tables = [(t.round, *t.entries, t.mp_first, t.mp_second) for t in results.tables]
    unpenalised = event(5, tables, byes=[(1, 5)], withdrawn={3})
    assert ranking(unpenalised)[:2] == (1, 5)  # 22 VP each: 1 has the larger difference


def test_a_bye_counts_as_soon_as_its_round_starts():
    # Round 2 has started: no table finished yet, but 3's bye counts already.
    results = event(3, [(1, 1, 2, 1100, 1000)], byes=[(1, 3), (2, 3)])
    assert rows(results) == [
        (1, 3, 24, 0, 0, 0),
        (2, 1, 11, 100, 1100, 1),
        (3, 2, 9, -100, 1000, 1),
    ]


def test_penalties_add_up_and_may_go_below_zero():
    results = event(2, [(1, 1, 2, 0, 1600)], penalties=[(1, 1), (1, 3), (2, 25)])
    assert [(r.entry, r.vp) for r in standings(results)] == [(1, -4), (2, -5)]


def test_wdl_standings():
    # 1 and 2 draw (1-1), 1 beats 3 (2-0); the byes are worth 2 here.
    results = event(
        3,
        [(1, 1, 2, 900, 900), (2, 1, 3, 1000, 400)],
        byes=[(1, 3), (2, 2)],
        bye_vp=2,
        table=WDL,
    )
    assert rows(results) == [
        (1, 1, 3, 600, 1900, 2),
        (2, 2, 3, 0, 900, 1),
        (3, 3, 2, -600, 400, 1),
    ]


def test_an_entry_card_round_by_round():
    results = event(
        5,
        [(2, 1, 5, 1000, 1000), (1, 1, 2, 1000, 800), (1, 3, 4, 1600, 100), (2, 2, 4, 600, 900)],
        byes=[(1, 5)],
        penalties=[(1, 2)],
    )
    assert entry_card(results, 1) == (
        CardLine(1, 2, 1000, 800, 12),
        CardLine(2, 5, 1000, 1000, 10),
    )
    assert entry_card(results, 5) == (CardLine(1, None, 0, 0, 12), CardLine(2, 1, 1000, 1000, 10))
    assert [line.mp_diff for line in entry_card(results, 4)] == [-1500, 300]
    assert entry_card(results, 4)[1] == CardLine(2, 2, 900, 600, 13)


def test_results_that_do_not_fit_together_are_refused():
    with pytest.raises(ValueError, match=r"numbered 1\.\.N"):
        EventResults((Entry(1), Entry(3)), (), (), FIBUR_3, 12)
    with pytest.raises(ValueError, match="the event's entries"):
        event(2, [(1, 1, 3, 0, 0)])
    with pytest.raises(ValueError, match="one table or bye a round"):
        event(3, [(1, 1, 2, 0, 0)], byes=[(1, 2)])
    with pytest.raises(ValueError, match="one table or bye a round"):
        event(4, [(1, 1, 2, 0, 0), (1, 2, 3, 0, 0)])
    with pytest.raises(ValueError, match="top figure"):
        event(2, [], bye_vp=21)
    with pytest.raises(ValueError, match="positive number"):
        Penalty(1, 0)
    with pytest.raises(ValueError, match="two different entries"):
        TableResult(1, 2, 2, 0, 0)
    assert StandingsRow(1, 1, 0, 0, 0, 0).withdrawn is False
