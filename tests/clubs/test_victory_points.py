"""VP tables of CLUBS.md: every bound of both FIBUR tables, wdl, a director's own table."""

from __future__ import annotations

import pytest

from scorekeeper.clubs.problems import InvalidSettings, Problem
from scorekeeper.clubs.victory_points import (
    FIBUR_3,
    FIBUR_4,
    WDL,
    VPRow,
    VPTable,
    default_vp_table,
    read_vp_table,
    vp_table_name,
    vp_table_to_json,
)

# CLUBS.md, written out: (upper bound, winner, loser), then the figures above the last one.
FIBUR_3_ROWS = [
    (50, 10, 10), (150, 11, 9), (250, 12, 8), (350, 13, 7), (500, 14, 6),
    (650, 15, 5), (800, 16, 4), (1000, 17, 3), (1250, 18, 2), (1500, 19, 1),
]  # fmt: skip
FIBUR_4_ROWS = [
    (100, 10, 10), (300, 11, 9), (500, 12, 8), (700, 13, 7), (900, 14, 6),
    (1100, 15, 5), (1300, 16, 4), (1500, 17, 3), (1700, 18, 2), (2000, 19, 1),
]  # fmt: skip


def bounds(rows):
    """(difference, expected winner's and loser's VP) at and just past every bound."""
    cases = []
    for index, (upper, winner, loser) in enumerate(rows):
        cases.append((upper, winner, loser))
        after = rows[index + 1][1:] if index + 1 < len(rows) else (20, 0)
        cases.append((upper + 1, *after))
    return cases


@pytest.mark.parametrize(("difference", "winner", "loser"), bounds(FIBUR_3_ROWS))
def test_fibur_3_at_every_bound(difference, winner, loser):
    assert FIBUR_3.shares(1000 + difference, 1000) == (winner, loser)
    assert FIBUR_3.shares(-200, -200 + difference) == (loser, winner)


@pytest.mark.parametrize(("difference", "winner", "loser"), bounds(FIBUR_4_ROWS))
def test_fibur_4_at_every_bound(difference, winner, loser):
    assert FIBUR_4.shares(3000 + difference, 3000) == (winner, loser)
    assert FIBUR_4.shares(0, difference) == (loser, winner)


def test_the_first_bounds_by_hand():
    assert FIBUR_3.shares(50, 0) == (10, 10)
    assert FIBUR_3.shares(51, 0) == (11, 9)
    assert FIBUR_3.shares(1500, 0) == (19, 1)
    assert FIBUR_3.shares(0, 1501) == (0, 20)
    assert FIBUR_4.shares(100, 0) == (10, 10)
    assert FIBUR_4.shares(101, 0) == (11, 9)
    assert FIBUR_4.shares(2000, 0) == (19, 1)
    assert FIBUR_4.shares(2001, 0) == (20, 0)


@pytest.mark.parametrize("table", [FIBUR_3, FIBUR_4, WDL])
def test_equal_match_points_give_the_first_row_to_both(table):
    first = table.rows[0]
    assert table.shares(0, 0) == (first.winner, first.loser)
    assert table.shares(-35, -35) == (first.winner, first.winner)


def test_wdl_win_draw_loss():
    assert WDL.shares(1, 0) == (2, 0)
    assert WDL.shares(900, 1200) == (0, 2)
    assert WDL.shares(640, 640) == (1, 1)
    assert vp_table_name(WDL) == "wdl"
    assert (WDL.default_bye, WDL.top) == (2, 2)


def test_defaults_follow_the_deals_per_round():
    assert [default_vp_table(k) for k in (1, 2, 3)] == [FIBUR_3] * 3
    assert [default_vp_table(k) for k in range(4, 13)] == [FIBUR_4] * 9
    with pytest.raises(ValueError, match="at least one deal"):
        default_vp_table(0)


def test_bye_and_top_figures():
    assert (FIBUR_3.default_bye, FIBUR_3.top) == (12, 20)
    assert (FIBUR_4.default_bye, FIBUR_4.top) == (12, 20)
    custom = read_vp_table({"rows": [[0, 3, 3], [100, 4, 2]], "over": [6, 0]})
    assert (custom.default_bye, custom.top) == (3, 6)


def test_built_in_tables_read_by_name_and_show_their_name():
    for name, table in (("fibur-3", FIBUR_3), ("fibur-4", FIBUR_4), ("wdl", WDL)):
        assert read_vp_table(name) is table
        assert vp_table_to_json(table) == name


def test_a_custom_table_reads_back_from_its_json():
    data = {"rows": [[0, 5, 5], [200, 6, 4], [600, 8, 2]], "over": [10, 0]}
    table = read_vp_table(data)
    assert table.rows == (VPRow(0, 5, 5), VPRow(200, 6, 4), VPRow(600, 8, 2))
    assert table.over == (10, 0)
    assert vp_table_to_json(table) == data
    assert vp_table_name(table) is None
    assert table.shares(100, 300) == (4, 6)
    assert table.shares(100, 301) == (2, 8)
    assert table.shares(100, 701) == (0, 10)
    # The same figures as fibur-3 are still a director's own table: its bye differs.
    own = read_vp_table({"rows": [list(row) for row in FIBUR_3_ROWS], "over": [20, 0]})
    assert own != FIBUR_3
    assert own.default_bye == 10
    assert isinstance(vp_table_to_json(own), dict)


def refused(data):
    with pytest.raises(InvalidSettings) as caught:
        read_vp_table(data)
    return [(p.field, p.key, dict(p.params)) for p in caught.value.problems]


GOOD_ROWS = [[0, 10, 10], [100, 12, 8], [300, 15, 5]]


@pytest.mark.parametrize(
    ("data", "expected"),
    [
        ("fibur-5", [("vp_table", "vp_table.unknown", {})]),
        (7, [("vp_table", "vp_table.unknown", {})]),
        ({"over": [20, 0]}, [("vp_table.rows", "vp_table.missing", {})]),
        ({"rows": GOOD_ROWS}, [("vp_table.over", "vp_table.missing", {})]),
        (
            {"rows": GOOD_ROWS, "over": [20, 0], "bye": 3},
            [("vp_table.bye", "vp_table.unknown_member", {})],
        ),
        ({"rows": [], "over": [20, 0]}, [("vp_table.rows", "vp_table.no_rows", {})]),
        ({"rows": "x", "over": [20, 0]}, [("vp_table.rows", "vp_table.not_a_list", {})]),
        (
            {"rows": [[0, 10, 10], [100, 12], [300, 15, 5]], "over": [20, 0]},
            [("vp_table.rows[1]", "vp_table.not_a_row", {"row": 1})],
        ),
        (
            {"rows": [[0, 10, 10], [100, True, 8]], "over": [20, 0]},
            [("vp_table.rows[1]", "vp_table.not_a_row", {"row": 1})],
        ),
        (
            {"rows": [[0, 10, 10], [100, 12.5, 7.5]], "over": [20, 0]},
            [("vp_table.rows[1]", "vp_table.not_a_row", {"row": 1})],
        ),
        ({"rows": GOOD_ROWS, "over": [20]}, [("vp_table.over", "vp_table.not_a_pair", {})]),
        (
            {"rows": [[0, 10, 10], [100, 12, 8], [100, 15, 5]], "over": [20, 0]},
            [("vp_table.rows[2]", "vp_table.not_increasing", {"row": 2})],
        ),
        (
            {"rows": [[0, 10, 10], [100, 12, 8], [50, 15, 5]], "over": [20, 0]},
            [("vp_table.rows[2]", "vp_table.not_increasing", {"row": 2})],
        ),
        (
            {"rows": [[0, 10, 10], [100, 12, 9], [300, 15, 5]], "over": [20, 0]},
            [("vp_table.rows[1]", "vp_table.sum_differs", {"row": 1, "sum": 21, "expected": 20})],
        ),
        (
            {"rows": GOOD_ROWS, "over": [20, 1]},
            [("vp_table.over", "vp_table.sum_differs", {"sum": 21, "expected": 20})],
        ),
        (
            {"rows": [[0, 10, 10], [100, 14, 6], [300, 13, 7]], "over": [20, 0]},
            [("vp_table.rows[2]", "vp_table.winner_falls", {"row": 2})],
        ),
        ({"rows": GOOD_ROWS, "over": [14, 6]}, [("vp_table.over", "vp_table.winner_falls", {})]),
        (
            {"rows": [[-1, 10, 10], [100, 12, 8]], "over": [20, 0]},
            [("vp_table.rows[0]", "vp_table.negative", {"row": 0})],
        ),
        (
            {"rows": [[0, 10, 10], [100, 21, -1]], "over": [22, -2]},
            [
                ("vp_table.rows[1]", "vp_table.negative", {"row": 1}),
                ("vp_table.over", "vp_table.negative", {}),
            ],
        ),
        (
            {"rows": [[50, 11, 9], [100, 12, 8]], "over": [20, 0]},
            [("vp_table.rows[0]", "vp_table.first_row_uneven", {"row": 0})],
        ),
        (
            {"rows": [[0, 10, 10]] + [[n, 10, 10] for n in range(1, 101)], "over": [20, 0]},
            [("vp_table.rows", "vp_table.too_many_rows", {"most": 100})],
        ),
    ],
)
def test_a_bad_custom_table_is_refused_with_its_field(data, expected):
    assert refused(data) == expected


def test_every_problem_of_a_table_is_listed_at_once():
    data = {
        "rows": [[0, 10, 10], [100, 12], [50, 13, 7], [300, 11, 10]],
        "over": [19, 0],
        "colour": "red",
    }
    assert refused(data) == [
        ("vp_table.colour", "vp_table.unknown_member", {}),
        ("vp_table.rows[1]", "vp_table.not_a_row", {"row": 1}),
        ("vp_table.rows[3]", "vp_table.sum_differs", {"row": 3, "sum": 21, "expected": 20}),
        ("vp_table.rows[3]", "vp_table.winner_falls", {"row": 3}),
        ("vp_table.over", "vp_table.sum_differs", {"sum": 19, "expected": 20}),
    ]


def test_a_table_built_in_code_checks_itself():
    with pytest.raises(InvalidSettings) as caught:
        VPTable((VPRow(0, 10, 10), VPRow(0, 12, 8)), (20, 0))
    assert caught.value.problems == (
        Problem("vp_table.rows[1]", "vp_table.not_increasing", {"row": 1}),
    )
    with pytest.raises(InvalidSettings) as caught:
        VPTable((VPRow(0, 10, 10),), (20, 0), bye=21)
    assert caught.value.problems == (Problem("vp_table", "vp_table.bye_out_of_range", {"max": 20}),)


def test_a_problem_carries_numbers_and_keys_only():
    problem = Problem("vp_table.rows[2]", "vp_table.not_increasing", {"row": 2})
    assert problem.to_dict() == {
        "field": "vp_table.rows[2]",
        "key": "vp_table.not_increasing",
        "params": {"row": 2},
    }
    with pytest.raises(ValueError, match="numbers or keys"):
        Problem("vp_table", "vp_table.unknown", {"row": 2.5})  # type: ignore[dict-item]
    with pytest.raises(ValueError, match="numbers or keys"):
        Problem("vp_table", "vp_table.unknown", {"row": True})
    with pytest.raises(ValueError, match="a field and a key"):
        Problem("", "vp_table.unknown")
