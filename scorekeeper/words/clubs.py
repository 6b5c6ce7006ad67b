"""Club play's problems in words: an event's settings, its VP table and its game.

`scorekeeper.clubs` reports what is wrong as a field path, a message key and
parameters (numbers and keys); this module says it in the reader's language.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from typing import Any

from ..clubs import Problem
from ..validation import FieldError
from .base import number
from .translate import gettext, ngettext

Params = Mapping[str, Any]


def _row(params: Params) -> str:
    """Rows as the director counts them, from 1."""
    return number(int(params.get("row", 0)) + 1)


def _entry_size(params: Params) -> str:
    return ngettext(
        "This entry has %(num)s player: every entry of this event has %(size)s.",
        "This entry has %(num)s players: every entry of this event has %(size)s.",
        int(params["count"]),
        size=number(params["size"]),
    )


def _entry_sizes(params: Params) -> str:
    return ngettext(
        "This entry has %(num)s player: entries of this game have %(least)s to %(most)s.",
        "This entry has %(num)s players: entries of this game have %(least)s to %(most)s.",
        int(params["count"]),
        least=number(params["least"]),
        most=number(params["most"]),
    )


MESSAGES: dict[str, Callable[[Params], str]] = {
    "event.too_few_entries": lambda p: gettext(
        "An event needs at least %(min)s entries.", min=number(p["min"])
    ),
    "event.out_of_range": lambda p: gettext(
        "Choose a whole number from %(min)s to %(max)s.", min=number(p["min"]), max=number(p["max"])
    ),
    "event.below_minimum": lambda p: gettext(
        "Choose a whole number of at least %(min)s.", min=number(p["min"])
    ),
    "event.not_a_whole_number": lambda p: gettext("Enter a whole number."),
    "event.unknown_movement": lambda p: gettext(
        "Choose a movement: Mitchell, Danish or round robin."
    ),
    "event.not_two_sided": lambda p: gettext(
        "This game is not played by two sides, so it cannot be played at an event's tables."
    ),
    "event.entry_size": _entry_size,
    "event.entry_sizes": _entry_sizes,
    "event.option_set_by_event": lambda p: gettext(
        "The event sets how its table matches end (after its deals per round): leave this "
        "option out."
    ),
    "vp_table.unknown": lambda p: gettext(
        "Choose fibur-3, fibur-4, wdl, or give a table of your own."
    ),
    "vp_table.bye_out_of_range": lambda p: gettext(
        "The bye is worth 0 to %(max)s VP with this table.", max=number(p["max"])
    ),
    "vp_table.no_rows": lambda p: gettext("A VP table needs at least one row."),
    "vp_table.too_many_rows": lambda p: gettext(
        "A VP table has at most %(most)s rows.", most=number(p["most"])
    ),
    "vp_table.first_row_uneven": lambda p: gettext(
        "The first row gives both entries the same VP (equal match points use it)."
    ),
    "vp_table.negative": lambda p: (
        gettext("Row %(row)s: figures and bounds are 0 or more.", row=_row(p))
        if "row" in p
        else gettext("Figures are 0 or more.")
    ),
    "vp_table.not_increasing": lambda p: gettext(
        "Row %(row)s: each upper bound is above the one before.", row=_row(p)
    ),
    "vp_table.sum_differs": lambda p: (
        gettext(
            "Row %(row)s adds up to %(sum)s VP: every row adds up to %(expected)s.",
            row=_row(p),
            sum=number(p["sum"]),
            expected=number(p["expected"]),
        )
        if "row" in p
        else gettext(
            "Above the last row the figures add up to %(sum)s VP: every row adds up to "
            "%(expected)s.",
            sum=number(p["sum"]),
            expected=number(p["expected"]),
        )
    ),
    "vp_table.winner_falls": lambda p: (
        gettext("Row %(row)s: the winner's VP may not fall.", row=_row(p))
        if "row" in p
        else gettext("Above the last row the winner's VP may not fall.")
    ),
    "vp_table.unknown_member": lambda p: gettext("A VP table has rows and over, nothing else."),
    "vp_table.missing": lambda p: gettext("A VP table needs its rows and its over figures."),
    "vp_table.not_a_pair": lambda p: gettext(
        "Give the figures above the last row as two whole numbers: winner, loser."
    ),
    "vp_table.not_a_list": lambda p: gettext("Give the rows as a list."),
    "vp_table.not_a_row": lambda p: gettext(
        "Row %(row)s: give three whole numbers: upper bound, winner, loser.", row=_row(p)
    ),
}


def club_message(key: str, params: Params) -> str:
    """A club problem's words (an unknown key shows itself: never an empty message)."""
    words = MESSAGES.get(key)
    return words(params) if words is not None else key


def told_club(problem: Problem) -> FieldError:
    """A club problem as the app's validation error reports it: field, words, key."""
    params = dict(problem.params)
    return FieldError(None, problem.field, club_message(problem.key, params), problem.key, params)


def told_clubs(problems: Iterable[Problem]) -> list[FieldError]:
    return [told_club(problem) for problem in problems]


def movement_name(movement: str) -> str:
    names = {
        "mitchell": gettext("Mitchell"),
        "danish": gettext("Danish"),
        "round_robin": gettext("Round robin"),
    }
    return names.get(movement, movement)


def vp_table_text(table: object) -> str:
    """An event's VP table by name: "FIBUR (fibur-3)", "Win, draw, loss", "Our own"."""
    if table == "fibur-3":
        return gettext("FIBUR for rounds of 3 deals")
    if table == "fibur-4":
        return gettext("FIBUR for rounds of 4 deals")
    if table == "wdl":
        return gettext("Win 2, draw 1, loss 0")
    return gettext("The club's own table")


def event_status_text(status: str) -> str:
    names = {
        "setup": gettext("Entries being made"),
        "playing": gettext("Playing"),
        "finished": gettext("Finished"),
    }
    return names.get(status, status)


def table_status_text(status: str) -> str:
    """Where a table's match stands."""
    names = {
        "playing": gettext("playing"),
        "tied": gettext("playing"),
        "finished": gettext("finished"),
        "drawn": gettext("finished, drawn"),
        "abandoned": gettext("abandoned"),
    }
    return names.get(status, status)
