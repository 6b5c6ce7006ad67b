"""What is wrong with how a hand record is written (`hand.*`) or with its line-up
(`lineup.*`), in words. A side's problem starts with who it concerns."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from . import nouns
from .base import Say, Words, capitalized, either, joined, number
from .games import game_name
from .translate import gettext, ngettext

# How a problem names an input that is not a field of its own (`what`).
WHAT: dict[str, Any] = {
    "meld_points": lambda: gettext("Meld points"),
    "hand_points": lambda: gettext("Hand points"),
    "foot_points": lambda: gettext("Foot points"),
    "penalty_points": lambda: gettext("penalty points"),
    "penalty_count": lambda: gettext("a penalty count"),
    "kind": lambda: gettext("canasta kind"),
    "category": lambda: gettext("card category"),
}


def what(say: Say) -> str:
    """What a problem's input is: "Meld points", "the count of natural", "red threes"."""
    name = str(say.get("what", ""))
    if name == "count_of":
        return gettext("the count of %(key)s", key=str(say.get("of", "")))
    words = WHAT.get(name)
    return words() if words is not None else name.replace("_", " ")


def _unknown_key(say: Say) -> str:
    """A count given for a kind or category the game does not have (each its own sentence,
    so that a language can put its own article before the noun)."""
    key = str(say["key"])
    if say.get("what") == "kind":
        return gettext("'%(key)s' is not a canasta kind", key=key)
    if say.get("what") == "category":
        return gettext("'%(key)s' is not a card category", key=key)
    return gettext("'%(key)s' is not known here", key=key)


def _variant(say: Say) -> str:
    return game_name(str(say.get("variant", "")))


def _side(text: str, say: Say) -> str:
    """A side's problem: who it concerns, then what is wrong."""
    return gettext("%(who)s: %(problem)s", who=say.who, problem=text)


def shapes(allowed: Sequence[dict[str, Any]]) -> str:
    """Line-ups: "pair against one (sides of 1 and 2 seats) or each for himself (...)"."""
    described = [
        gettext(
            "%(shape)s (sides of %(sizes)s seats)",
            shape=nouns.shape(str(item["shape"])),
            sizes=gettext(
                "%(first)s and %(last)s",
                first=joined(number(size) for size in item["sizes"][:-1]),
                last=number(item["sizes"][-1]),
            ),
        )
        for item in allowed
    ]
    return either(described)


def _not_in_variant(say: Say) -> str:
    thing = str(say["thing"]).replace("_", " ")
    return _side(gettext("%(game)s has no %(thing)s", game=_variant(say), thing=thing), say)


def _entered_as_count(say: Say) -> str:
    held = nouns.penalty(say.vocabulary, str(say["field"]), 2)
    return _side(
        gettext(
            "%(cards)s are entered as %(field)s in %(game)s, not among the hand cards",
            cards=capitalized(held),
            field=str(say["field"]),
            game=_variant(say),
        ),
        say,
    )


def _laid_not_melded(say: Say) -> str:
    key = str(say["category"])
    field = key + "s"  # the field they are counted in (red_threes)
    return _side(
        gettext(
            "%(cards)s are laid down in %(game)s, never melded: count them as %(field)s",
            cards=capitalized(nouns.category(key, 2)),
            game=_variant(say),
            field=field,
        ),
        say,
    )


def _penalty_not_in_catalogue(say: Say) -> str:
    rules = [str(rule) for rule in say.get("rules", [])]
    return _side(
        gettext(
            "%(rule)s is not in the penalty catalogue of %(game)s (it has: %(rules)s)",
            rule=repr(say.get("rule")),
            game=_variant(say),
            rules=joined(rules) if rules else gettext("none"),
        ),
        say,
    )


def _special_hand_unknown(say: Say) -> str:
    return _side(
        gettext(
            "%(hand)s is not a special hand of %(game)s (it has: %(hands)s)",
            hand=repr(say.get("hand")),
            game=_variant(say),
            hands=joined(str(hand) for hand in say.get("hands", [])),
        ),
        say,
    )


def _side_count(say: Say) -> str:
    return ngettext(
        "%(game)s is played by %(expected)s sides; %(given)s was given",
        "%(game)s is played by %(expected)s sides; %(given)s were given",
        say["given"],
        game=_variant(say),
        expected=either(number(n) for n in say["expected"]),
        given=say.n("given"),
    )


def _seats(say: Say) -> str:
    return joined(number(seat) for seat in say["seats"])


def _example(say: Say) -> str:
    return str(say.get("example", []))


MESSAGES: dict[str, Words] = {
    "hand.not_bool": lambda say: _side(
        gettext("%(name)s must be true or false", name=str(say["name"])), say
    ),
    "hand.not_whole": lambda say: _side(
        gettext("%(what)s must be a whole number", what=what(say)), say
    ),
    "hand.negative": lambda say: _side(gettext("%(what)s cannot be negative", what=what(say)), say),
    "hand.count_too_big": lambda say: _side(
        gettext("%(what)s is far more than any deck holds", what=what(say)), say
    ),
    "hand.not_points": lambda say: _side(
        gettext("%(what)s must be a whole number of points", what=what(say)), say
    ),
    "hand.not_fives": lambda say: _side(
        gettext(
            "%(what)s must be a multiple of 5 (every card is worth a multiple of 5)",
            what=what(say),
        ),
        say,
    ),
    "hand.points_too_big": lambda say: _side(
        gettext("%(what)s is more than any hand can hold", what=what(say)), say
    ),
    "hand.not_counts": lambda say: _side(
        gettext(
            "%(name)s must be an object of %(what)s -> count", name=str(say["name"]), what=what(say)
        ),
        say,
    ),
    "hand.unknown_key": lambda say: _side(_unknown_key(say), say),
    "hand.entered_as_count": _entered_as_count,
    "hand.laid_not_melded": _laid_not_melded,
    "hand.not_in_variant": _not_in_variant,
    "hand.penalties_not_list": lambda say: _side(gettext("penalties must be a list"), say),
    "hand.too_many_penalties": lambda say: _side(
        gettext("at most %(most)s penalties a side in one hand", most=say.n("most")), say
    ),
    "hand.penalty_not_object": lambda say: _side(
        gettext('each penalty must be {"rule", "count"} or {"points", "reason"}'), say
    ),
    "hand.penalty_unknown_key": lambda say: _side(
        gettext("a penalty has no '%(key)s'", key=str(say["key"])), say
    ),
    "hand.penalty_needs_rule_or_points": lambda say: _side(
        gettext('a penalty needs a "rule" from the catalogue or "points" with a "reason"'), say
    ),
    "hand.penalty_zero": lambda say: _side(gettext("penalty points must be more than 0"), say),
    "hand.penalty_no_reason": lambda say: _side(gettext("a free penalty needs a reason"), say),
    "hand.reason_too_long": lambda say: _side(
        gettext("keep the reason under %(most)s characters", most=say.n("most")), say
    ),
    "hand.reason_unprintable": lambda say: _side(
        gettext("the reason %(why)s", why=refusal(str(say["why"]))), say
    ),
    "hand.penalty_both": lambda say: _side(
        gettext("a penalty is either a catalogue rule or free points, not both"), say
    ),
    "hand.penalty_not_in_catalogue": _penalty_not_in_catalogue,
    "hand.penalty_count_zero": lambda say: _side(
        gettext("a penalty count must be at least 1"), say
    ),
    "hand.say_extra_hand": lambda say: _side(
        gettext(
            "say whether the extra hand (%(name)s) was taken",
            name=nouns.extra_hand(say.vocabulary),
        ),
        say,
    ),
    "hand.no_extra_hand": lambda say: _side(
        gettext("%(game)s has no extra hand", game=_variant(say)), say
    ),
    "hand.special_hand_unknown": _special_hand_unknown,
    "hand.both_forms": lambda say: _side(
        gettext(
            "give %(points)s or %(cards)s, not both",
            points=str(say["points"]),
            cards=str(say["cards"]),
        ),
        say,
    ),
    "hand.side_not_object": lambda say: _side(
        gettext("each side must be an object of hand-record fields"), say
    ),
    "hand.unknown_field": lambda say: _side(
        gettext("%(name)s is not a hand-record field", name=repr(say.get("name"))), say
    ),
    "hand.null": lambda say: _side(
        gettext("%(name)s cannot be null (leave it out for none)", name=str(say.get("name"))),
        say,
    ),
    "hand.players": lambda say: gettext(
        "%(game)s is played with %(choices)s players a side",
        game=_variant(say),
        choices=either(number(n) for n in say["choices"]),
    ),
    "hand.deal": lambda say: gettext(
        "deal must be a whole number from 1 to %(most)s", most=say.n("most")
    ),
    "hand.sides_not_list": lambda say: gettext("sides must be a list with one record per side"),
    "hand.side_count": _side_count,
    "hand.lineup_sides": lambda say: gettext(
        "The line-up has %(sides)s sides, so give %(sides)s side records in its order; "
        "%(given)s were given",
        sides=say.n("sides"),
        given=say.n("given"),
    ),
    # Line-ups of seated games (Burraco for three).
    "lineup.not_seated": lambda say: gettext(
        "%(game)s has no line-ups: leave lineup out", game=_variant(say)
    ),
    "lineup.missing": lambda say: gettext(
        "%(game)s needs the hand's lineup: who played with whom (a list of sides, each a "
        "list of seats)",
        game=_variant(say),
    ),
    "lineup.not_list": lambda say: gettext(
        "lineup must be a list of sides, each a non-empty list of seat numbers, e.g. %(example)s",
        example=_example(say),
    ),
    "lineup.seat_range": lambda say: gettext(
        "lineup names seats that do not exist: %(seats)s (seats are 0 to %(most)s)",
        seats=_seats(say),
        most=say.n("most"),
    ),
    "lineup.seat_repeated": lambda say: gettext(
        "lineup names a seat twice: %(seats)s", seats=_seats(say)
    ),
    "lineup.seat_missing": lambda say: gettext(
        "lineup leaves out seat %(seats)s: every seat plays each hand", seats=_seats(say)
    ),
    "lineup.shape": lambda say: gettext(
        "%(game)s is played %(allowed)s", game=_variant(say), allowed=shapes(say["allowed"])
    ),
    "lineup.after_switch": lambda say: gettext(
        "A seat reached %(threshold)s, so from now on every hand is played %(allowed)s",
        threshold=say.n("threshold"),
        allowed=shapes(say["allowed"]),
    ),
    "lineup.before_switch": lambda say: gettext(
        "Until a seat reaches %(threshold)s a hand is played %(allowed)s",
        threshold=say.n("threshold"),
        allowed=shapes(say["allowed"]),
    ),
    "lineup.lone_extra_hand": lambda say: _side(
        gettext(
            "the player alone is the one who finished first and took the %(name)s, so "
            "took_extra_hand must be true",
            name=nouns.extra_hand(say.vocabulary),
        ),
        say,
    ),
    "lineup.no_extra_hand": lambda say: _side(
        gettext(
            "each for himself before the switch means the stock ran out before anyone took a "
            "%(name)s, so took_extra_hand must be false",
            name=nouns.extra_hand(say.vocabulary),
        ),
        say,
    ),
}

REFUSALS: dict[str, Any] = {
    "nul": lambda: gettext("contains a NUL character, which cannot be stored"),
    "surrogate": lambda: gettext("contains a broken character (half of a surrogate pair)"),
    "control": lambda: gettext("contains a control character (such as a line break)"),
}


def refusal(key: str) -> str:
    """Why a text is refused (`rules.text`'s keys), as the end of a sentence about it."""
    words = REFUSALS.get(key)
    return words() if words is not None else key
