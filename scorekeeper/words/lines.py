"""Score lines in words ("2 natural canastas x 500"), and the reasons inside them."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from . import nouns
from .base import Say, Words, joined, number
from .translate import gettext, ngettext


def cards(say: Say) -> str:
    """The cards counted: "2 jokers x 50, 3 aces x 20" ([category, count, value, ...])."""
    listed: Sequence[Sequence[Any]] = say.get("cards", [])
    return joined(
        gettext(
            "%(count)s %(cards)s x %(value)s",
            count=number(entry[1]),
            cards=nouns.category(str(entry[0]), entry[1]),
            value=number(entry[2]),
        )
        for entry in listed
    )


def _threes(say: Say) -> str:
    """The threes a line counts (red or black), for its count."""
    return nouns.category(str(say.get("threes", "red_three")), say["count"])


def _reason(say: Say) -> str:
    reason = say.get("reason")
    return say.nested(reason) if isinstance(reason, dict) else str(reason or "")


def _canastas(say: Say) -> str:
    return gettext(
        "%(count)s %(kind)s x %(bonus)s",
        count=say.n("count"),
        kind=nouns.kind(say.vocabulary, say["kind"], say["count"]),
        bonus=say.n("bonus"),
    )


def _red_threes(say: Say) -> str:
    return gettext(
        "%(count)s %(threes)s x %(each)s",
        count=say.n("count"),
        threes=_threes(say),
        each=say.n("each"),
    )


def _red_threes_special(say: Say) -> str:
    return gettext("%(count)s %(threes)s on one side", count=say.n("count"), threes=_threes(say))


def _red_threes_minus(say: Say) -> str:
    return gettext(
        "%(count)s %(threes)s x %(each)s, counted minus (%(reason)s)",
        count=say.n("count"),
        threes=_threes(say),
        each=say.n("each"),
        reason=_reason(say),
    )


def _red_threes_special_minus(say: Say) -> str:
    return gettext(
        "%(count)s %(threes)s on one side, counted minus (%(reason)s)",
        count=say.n("count"),
        threes=_threes(say),
        reason=_reason(say),
    )


def _red_threes_each_minus(say: Say) -> str:
    return gettext(
        "%(count)s %(threes)s x -%(each)s (%(reason)s)",
        count=say.n("count"),
        threes=_threes(say),
        each=say.n("each"),
        reason=_reason(say),
    )


def _red_threes_laid_minus(say: Say) -> str:
    return gettext(
        "%(count)s %(threes)s laid down x -%(each)s",
        count=say.n("count"),
        threes=_threes(say),
        each=say.n("each"),
    )


def _red_threes_zero(say: Say) -> str:
    return gettext(
        "%(count)s %(threes)s, counting nothing (%(reason)s)",
        count=say.n("count"),
        threes=_threes(say),
        reason=_reason(say),
    )


def _counted(say: Say) -> str:
    return gettext(
        "%(count)s %(penalty)s x %(points)s",
        count=say.n("count"),
        penalty=nouns.penalty(say.vocabulary, say["penalty"], say["count"]),
        points=say.n("points"),
    )


def _exact_pickups(say: Say) -> str:
    return ngettext(
        "%(count)s exact pickup x %(points)s",
        "%(count)s exact pickups x %(points)s",
        say["count"],
        count=say.n("count"),
        points=say.n("points"),
    )


def _catalogue(say: Say) -> str:
    label = nouns.catalogue_penalty(say["penalty"])
    if say.get("count", 1) > 1:
        return gettext("Penalty: %(penalty)s x %(count)s", penalty=label, count=say.n("count"))
    return gettext("Penalty: %(penalty)s", penalty=label)


def _share(say: Say) -> str:
    return gettext(
        "Half of the pair's %(total)s for each of its %(seats)s players, rounded up to a "
        "multiple of %(multiple)s: %(share)s",
        total=say.n("total"),
        seats=say.n("seats"),
        multiple=say.n("multiple"),
        share=say.n("share"),
    )


def _fewer_canastas(say: Say) -> str:
    count = say["count"]
    return gettext(
        "fewer than %(count)s %(canastas)s",
        count=number(count),
        canastas=nouns.canasta(say.vocabulary, count),
    )


MESSAGES: dict[str, Words] = {
    "line.canastas": _canastas,
    "line.meld_points": lambda say: gettext("Melded cards"),
    "line.meld_cards": lambda say: gettext("Melded cards: %(cards)s", cards=cards(say)),
    "line.meld_points.minus": lambda say: gettext(
        "Melded cards, counted minus (%(reason)s)", reason=_reason(say)
    ),
    "line.meld_cards.minus": lambda say: gettext(
        "Melded cards, counted minus (%(reason)s): %(cards)s", reason=_reason(say), cards=cards(say)
    ),
    "line.going_out": lambda say: nouns.going_out(say.vocabulary),
    "line.going_out.concealed": lambda say: gettext(
        "%(going_out)s concealed", going_out=nouns.going_out(say.vocabulary)
    ),
    "line.red_threes": _red_threes,
    "line.red_threes.special": _red_threes_special,
    "line.red_threes.minus": _red_threes_minus,
    "line.red_threes.special_minus": _red_threes_special_minus,
    "line.red_threes.each_minus": _red_threes_each_minus,
    "line.red_threes.laid_minus": _red_threes_laid_minus,
    "line.red_threes.zero": _red_threes_zero,
    "line.hand_points": lambda say: gettext("Cards left in hand"),
    "line.hand_cards": lambda say: gettext("Cards left in hand: %(cards)s", cards=cards(say)),
    "line.foot_points": lambda say: gettext(
        "Cards in %(feet)s never picked up", feet=nouns.foot(say.vocabulary, 2)
    ),
    "line.foot_cards": lambda say: gettext(
        "Cards in %(feet)s never picked up: %(cards)s",
        feet=nouns.foot(say.vocabulary, 2),
        cards=cards(say),
    ),
    "line.counted": _counted,
    "line.exact_pickups": _exact_pickups,
    "line.extra_hand": lambda say: gettext(
        "Extra hand (%(name)s) not taken", name=nouns.extra_hand(say.vocabulary)
    ),
    "line.penalty.catalogue": _catalogue,
    "line.penalty.free": lambda say: gettext("Penalty: %(reason)s", reason=_reason(say)),
    "line.share": _share,
    "line.special_hand": lambda say: gettext(
        "Went out with a special hand: %(hand)s", hand=nouns.special_hand(say["hand"])
    ),
    "line.special_hand.wins": lambda say: gettext(
        "Went out with a special hand: %(hand)s (wins the game at once)",
        hand=nouns.special_hand(say["hand"]),
    ),
    # A line stored before lines were keys, whose words could not be had again: as stored.
    "line.legacy": lambda say: str(say.get("text", "")),
    # Reasons inside lines.
    "reason.no_canasta": lambda say: nouns.no_canasta(say.vocabulary),
    "reason.fewer_canastas": _fewer_canastas,
    "reason.nothing_melded": lambda say: gettext("nothing melded"),
    "reason.no_clean_canasta": lambda say: nouns.no_canasta(say.vocabulary, clean=True),
}
