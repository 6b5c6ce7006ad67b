"""The words of a season: ratings, chances to win, leagues and what is wrong with one.

Club play's core says things as keys and parameters (`clubs.Problem`); here they
become words in the reader's language, through Flask-Babel, as the rest of the edge.
Decimal numbers, percentages and dates are formatted for the reader's locale.
"""

from __future__ import annotations

from datetime import date

import flask_babel
from babel.dates import format_skeleton

from ..clubs import PlayerRating, Problem
from ..clubs.leagues import LeagueScoring
from ..rules import GameFamily
from ..validation import FieldError
from .base import number
from .translate import gettext, ngettext, pgettext


def decimal(value: float) -> str:
    """A number with one decimal, as the reader writes it ("23.4")."""
    return str(flask_babel.format_decimal(round(value, 1), format="#,##0.0"))


def percent(value: float) -> str:
    return str(flask_babel.format_percent(value, format="#,##0%"))


def day(value: date) -> str:
    """A date in full, as the reader writes it ("Jan 5, 2026")."""
    return str(flask_babel.format_date(value, format="medium"))


def evening(value: date) -> str:
    """An evening as a league table heads its column ("Jan 5")."""
    return str(format_skeleton("MMMd", value, locale=flask_babel.get_locale()))


def family_name(family: GameFamily | str) -> str:
    names = {
        GameFamily.CANASTA: pgettext("game family", "Canasta"),
        GameFamily.BURACO: pgettext("game family", "Buraco and Burraco"),
        GameFamily.HAND_AND_FOOT: pgettext("game family", "Hand and Foot"),
        GameFamily.MODERN_AMERICAN: pgettext("game family", "Modern American Canasta"),
    }
    return names[GameFamily(family)]


def rating(shown: PlayerRating) -> str:
    """The conservative rating in words: what it is and what it means."""
    return gettext(
        "rating %(rating)s (we are fairly sure it is at least this)",
        rating=decimal(shown.rating),
    )


def rating_basis(matches: int) -> str:
    return ngettext(
        "from %(count)s match", "from %(count)s matches", matches, count=number(matches)
    )


def provisional() -> str:
    return gettext("provisional: fewer than 10 matches")


def updating() -> str:
    return gettext(
        "Ratings are being brought up to date after a change to earlier matches: "
        "they show again in a moment."
    )


def chance(name: str, value: float) -> str:
    return gettext("%(side)s %(chance)s", side=name, chance=percent(value))


def scoring(scoring: str) -> str:
    if scoring == LeagueScoring.VP:
        return gettext("the victory points of the group's events in the period")
    return gettext("2 points a win, 1 a draw, 0 a loss, over every finished match")


def best_of(best: int | None, evenings: int) -> str:
    if best is None:
        return gettext("every evening counts")
    return ngettext(
        "the best %(count)s evening counts (of %(evenings)s so far)",
        "the best %(count)s evenings count (of %(evenings)s so far)",
        best,
        count=number(best),
        evenings=number(evenings),
    )


def min_evenings(count: int) -> str:
    return ngettext(
        "ranked after %(count)s evening",
        "ranked after %(count)s evenings",
        count,
        count=number(count),
    )


def credit(substitute: str, replaced: str, on: date) -> str:
    return gettext(
        "%(substitute)s played for %(replaced)s on %(evening)s",
        substitute=substitute,
        replaced=replaced,
        evening=day(on),
    )


def league_problem(problem: Problem) -> FieldError:
    """A problem of a league's settings, in words, at its field."""
    params = problem.params
    messages = {
        "league.not_a_date": lambda: gettext("Write the date as YYYY-MM-DD"),
        "league.end_before_start": lambda: gettext("The end of the period comes before its start"),
        "league.unknown_scoring": lambda: gettext("Choose how the league is scored: vp or wdl"),
        "league.below_one": lambda: gettext(
            "Write a whole number of %(min)s or more", min=str(params.get("min", 1))
        ),
        "league.unknown_variant": lambda: gettext(
            "There is no game called %(variant)s", variant=repr(params.get("variant", ""))
        ),
        "league.no_variants": lambda: gettext(
            "Choose at least one game, or leave the games out for every game"
        ),
        "league.name_needed": lambda: gettext(
            "Give the league a name of 1 to %(max)s characters", max=str(params.get("max", 80))
        ),
    }
    say = messages.get(problem.key)
    message = say() if say else problem.key
    return FieldError(None, problem.field, message, problem.key, problem.params)
