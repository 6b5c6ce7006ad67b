"""Victory-point tables: how a table's two match-point totals become each entry's VP.

A table is data (rows of upper bound, winner's and loser's figure, then the
figures above the last bound), so the built-in tables and a director's own are
read the same way and checked by the same rules when they are built.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from enum import StrEnum
from types import MappingProxyType

from .problems import InvalidSettings, Problem

MOST_ROWS = 100  # a director's table has a dozen rows; this bounds what a request can send


class VPTableName(StrEnum):
    FIBUR_3 = "fibur-3"
    FIBUR_4 = "fibur-4"
    WDL = "wdl"


@dataclass(frozen=True)
class VPRow:
    """Differences up to `upper` (and above the previous row's) give these figures."""

    upper: int
    winner: int
    loser: int


@dataclass(frozen=True)
class VPTable:
    """Rows by rising upper bound, `over` = (winner, loser) above the last bound.

    `bye` is the bye's VP when the event does not set it (None: the first row's
    winner figure, as for a director's own table).
    """

    rows: tuple[VPRow, ...]
    over: tuple[int, int]
    bye: int | None = None

    def __post_init__(self) -> None:
        problems = list(table_problems(self.rows, self.over))
        if self.bye is not None and not problems and not 0 <= self.bye <= self.top:
            problems.append(Problem("vp_table", "vp_table.bye_out_of_range", {"max": self.top}))
        if problems:
            raise InvalidSettings(problems)

    @property
    def top(self) -> int:
        """The largest figure of the table: no entry earns more at one table (nor a bye)."""
        return max(self.over[0], *(row.winner for row in self.rows))

    @property
    def default_bye(self) -> int:
        return self.bye if self.bye is not None else self.rows[0].winner

    def shares(self, mp_a: int, mp_b: int) -> tuple[int, int]:
        """(VP of A, VP of B) for a table that ended A `mp_a`, B `mp_b`."""
        difference = abs(mp_a - mp_b)
        winner, loser = next(
            ((row.winner, row.loser) for row in self.rows if difference <= row.upper), self.over
        )
        return (winner, loser) if mp_a >= mp_b else (loser, winner)


def table_problems(rows: tuple[VPRow, ...], over: tuple[int, int]) -> tuple[Problem, ...]:
    """Everything that keeps these rows from being a VP table (empty for a sound one).

    Bounds rise strictly and start at 0 or more, every row and `over` share one
    sum, winner figures never fall, and the first row is even: equal MP gives
    both entries its figures.
    """
    return _problems(list(enumerate(rows)), over)


def _problems(rows: list[tuple[int, VPRow]], over: tuple[int, int] | None) -> tuple[Problem, ...]:
    """The checks of `table_problems` over the rows that could be read, by their index."""
    if not rows:
        return (Problem("vp_table.rows", "vp_table.no_rows"),)
    if rows[-1][0] >= MOST_ROWS:
        return (Problem("vp_table.rows", "vp_table.too_many_rows", {"most": MOST_ROWS}),)
    problems: list[Problem] = []
    first = rows[0][1]
    total = first.winner + first.loser
    if rows[0][0] == 0 and first.winner != first.loser:
        problems.append(Problem("vp_table.rows[0]", "vp_table.first_row_uneven", {"row": 0}))
    previous: VPRow | None = None
    for index, row in rows:
        where = f"vp_table.rows[{index}]"
        if min(row.upper, row.winner, row.loser) < 0:
            problems.append(Problem(where, "vp_table.negative", {"row": index}))
        if previous is not None and row.upper <= previous.upper:
            problems.append(Problem(where, "vp_table.not_increasing", {"row": index}))
        if row.winner + row.loser != total:
            params = {"row": index, "sum": row.winner + row.loser, "expected": total}
            problems.append(Problem(where, "vp_table.sum_differs", params))
        if previous is not None and row.winner < previous.winner:
            problems.append(Problem(where, "vp_table.winner_falls", {"row": index}))
        previous = row
    if over is None:
        return tuple(problems)
    if min(over) < 0:
        problems.append(Problem("vp_table.over", "vp_table.negative"))
    if sum(over) != total:
        params = {"sum": sum(over), "expected": total}
        problems.append(Problem("vp_table.over", "vp_table.sum_differs", params))
    if over[0] < rows[-1][1].winner:
        problems.append(Problem("vp_table.over", "vp_table.winner_falls"))
    return tuple(problems)


def _fibur(uppers: tuple[int, ...]) -> VPTable:
    """A FIBUR table: 10-10 up to the first bound, one VP more per bound, 20-0 above."""
    rows = tuple(VPRow(upper, 10 + step, 10 - step) for step, upper in enumerate(uppers))
    return VPTable(rows, (20, 0), bye=12)


FIBUR_3 = _fibur((50, 150, 250, 350, 500, 650, 800, 1000, 1250, 1500))
FIBUR_4 = _fibur((100, 300, 500, 700, 900, 1100, 1300, 1500, 1700, 2000))
WDL = VPTable((VPRow(0, 1, 1),), (2, 0), bye=2)

BUILT_IN: Mapping[VPTableName, VPTable] = MappingProxyType(
    {VPTableName.FIBUR_3: FIBUR_3, VPTableName.FIBUR_4: FIBUR_4, VPTableName.WDL: WDL}
)


def default_vp_table(deals_per_round: int) -> VPTable:
    """fibur-3 for rounds of up to 3 hands, fibur-4 for longer ones."""
    if deals_per_round < 1:
        raise ValueError("a round has at least one deal")
    return FIBUR_3 if deals_per_round <= 3 else FIBUR_4


def vp_table_name(table: VPTable) -> VPTableName | None:
    """The built-in name of this table, None for a director's own."""
    return next((name for name, known in BUILT_IN.items() if known == table), None)


def vp_table_to_json(table: VPTable) -> str | dict[str, list[int] | list[list[int]]]:
    """The table as the API shows it: a built-in's name, or the custom object."""
    name = vp_table_name(table)
    if name is not None:
        return name.value
    rows = [[row.upper, row.winner, row.loser] for row in table.rows]
    return {"rows": rows, "over": list(table.over)}


def _integers(data: object, count: int) -> tuple[int, ...] | None:
    if not isinstance(data, list) or len(data) != count:
        return None
    if not all(isinstance(item, int) and not isinstance(item, bool) for item in data):
        return None
    return tuple(data)


def read_vp_table(data: object) -> VPTable:
    """A VP table from its JSON form; raises InvalidSettings with every problem."""
    if isinstance(data, str):
        if data not in set(VPTableName):
            raise InvalidSettings([Problem("vp_table", "vp_table.unknown")])
        return BUILT_IN[VPTableName(data)]
    if not isinstance(data, dict):
        raise InvalidSettings([Problem("vp_table", "vp_table.unknown")])
    problems = [
        Problem(f"vp_table.{name}", "vp_table.unknown_member")
        for name in data
        if name not in ("rows", "over")
    ]
    problems += [
        Problem(f"vp_table.{name}", "vp_table.missing")
        for name in ("rows", "over")
        if name not in data
    ]
    over = _integers(data["over"], 2) if "over" in data else None
    if "over" in data and over is None:
        problems.append(Problem("vp_table.over", "vp_table.not_a_pair"))
    raw_rows = data.get("rows")
    rows: list[tuple[int, VPRow]] = []
    if "rows" in data and not isinstance(raw_rows, list):
        problems.append(Problem("vp_table.rows", "vp_table.not_a_list"))
    elif isinstance(raw_rows, list) and len(raw_rows) > MOST_ROWS:
        problems.append(Problem("vp_table.rows", "vp_table.too_many_rows", {"most": MOST_ROWS}))
    elif isinstance(raw_rows, list):
        for index, raw in enumerate(raw_rows):
            figures = _integers(raw, 3)
            if figures is None:
                where = f"vp_table.rows[{index}]"
                problems.append(Problem(where, "vp_table.not_a_row", {"row": index}))
            else:
                rows.append((index, VPRow(*figures)))
        if rows or not raw_rows:
            problems += _problems(rows, (over[0], over[1]) if over is not None else None)
    if problems:
        raise InvalidSettings(problems)
    assert over is not None
    return VPTable(tuple(row for _, row in rows), (over[0], over[1]))
