"""What the rules make impossible in a hand (`check.*`), what is unlikely (`warn.*`), and
what a side lacks to go out (`needs.*`), in words."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from . import nouns
from .base import Say, Words, both, either, joined, number
from .games import game_name
from .translate import gettext, ngettext, pgettext

GROUPS: dict[str, Any] = {
    "clean": lambda: pgettext("group of canastas", "clean"),
    "dirty": lambda: pgettext("group of canastas", "dirty"),
    "wild": lambda: pgettext("group of canastas", "wild"),
}


def _side(text: str, say: Say) -> str:
    return gettext("%(who)s: %(problem)s", who=say.who, problem=text)


def clause(say: Say, params: Mapping[str, Any]) -> str:
    """A going-out clause: "2 canastas", "1 clean canasta or ace-to-ace canasta"."""
    count = int(params["count"])
    kinds = params.get("kinds")
    if kinds is None:
        return gettext(
            "%(count)s %(canastas)s",
            count=number(count),
            canastas=nouns.canasta(say.vocabulary, count),
        )
    named = either(nouns.kind(say.vocabulary, str(kind), count) for kind in kinds)
    return gettext("%(count)s %(canastas)s", count=number(count), canastas=named)


def _meld_below(say: Say) -> str:
    count = say["count"]
    return _side(
        ngettext(
            "%(count)s %(canastas)s needs at least %(least)s points of melded cards; the meld "
            "points are %(melded)s",
            "%(count)s %(canastas)s need at least %(least)s points of melded cards; the meld "
            "points are %(melded)s",
            count,
            count=number(count),
            canastas=nouns.canasta(say.vocabulary, count),
            least=say.n("least"),
            melded=say.n("melded"),
        ),
        say,
    )


def _meld_cards(say: Say) -> str:
    count = say["count"]
    return _side(
        ngettext(
            "%(count)s %(canastas)s needs at least %(needed)s melded cards; %(cards)s counted",
            "%(count)s %(canastas)s need at least %(needed)s melded cards; %(cards)s counted",
            count,
            count=number(count),
            canastas=nouns.canasta(say.vocabulary, count),
            needed=say.n("needed"),
            cards=say.n("cards"),
        ),
        say,
    )


def _cannot_go_out(say: Say) -> str:
    return gettext(
        "%(who)s cannot have gone out: %(game)s needs %(needs)s",
        who=say.who,
        game=game_name(str(say["variant"])),
        needs=both(say.nested(need) for need in say["needs"]),
    )


def _feet_over_players(say: Say) -> str:
    return _side(
        ngettext(
            "%(count)s %(feet)s picked up, but the side has %(players)s player",
            "%(count)s %(feet)s picked up, but the side has %(players)s players",
            say["players"],
            count=say.n("count"),
            feet=nouns.foot(say.vocabulary, say["count"]),
            players=say.n("players"),
        ),
        say,
    )


def _pickups_over_players(say: Say) -> str:
    return _side(
        ngettext(
            "%(count)s exact pickups, but the side has %(players)s player",
            "%(count)s exact pickups, but the side has %(players)s players",
            say["players"],
            count=say.n("count"),
            players=say.n("players"),
        ),
        say,
    )


def _group_over_table(say: Say) -> str:
    group = GROUPS.get(str(say["group"]))
    word = group() if group is not None else str(say["group"])
    if say["most"] == 1:
        return gettext(
            "The deck allows one %(group)s-card canasta in one hand; %(count)s are recorded "
            "across all sides",
            group=word,
            count=say.n("count"),
        )
    return gettext(
        "The deck allows %(most)s %(group)s canastas in one hand; %(count)s are recorded "
        "across all sides",
        most=say.n("most"),
        group=word,
        count=say.n("count"),
    )


def _needs_clause(say: Say) -> str:
    return gettext(
        "%(clause)s, %(recorded)s recorded",
        clause=clause(say, say.params),
        recorded=say.n("recorded"),
    )


MESSAGES: dict[str, Words] = {
    "check.concealed_not_out": lambda say: _side(
        gettext("concealed is only possible for the side that went out"), say
    ),
    "check.meld_below_canastas": _meld_below,
    "check.meld_cards": _meld_cards,
    "check.side_over_deck": lambda say: _side(
        gettext(
            "%(counted)s points of cards (melded and left) is more than the whole deck is "
            "worth (%(deck)s points): check for a typo",
            counted=say.n("counted"),
            deck=say.n("deck"),
        ),
        say,
    ),
    "check.cannot_go_out": _cannot_go_out,
    "check.alone_out_hand": lambda say: _side(
        gettext("a player who went out has no cards left in hand"), say
    ),
    "check.alone_out_foot": lambda say: _side(
        gettext("a player who went out played their %(foot)s", foot=nouns.foot(say.vocabulary, 1)),
        say,
    ),
    "check.alone_out_holds": lambda say: _side(
        gettext(
            "a player who went out holds no %(penalties)s",
            penalties=nouns.penalty(say.vocabulary, str(say["penalty"]), 2),
        ),
        say,
    ),
    "check.feet_over_players": _feet_over_players,
    "check.all_feet_taken": lambda say: _side(
        gettext(
            "every player picked up their %(foot)s, so no %(foot)s cards can be left",
            foot=nouns.foot(say.vocabulary, 1),
        ),
        say,
    ),
    "check.pickups_over_players": _pickups_over_players,
    "check.count_cap": lambda say: _side(
        gettext(
            "at most %(cap)s %(penalty)s a side; %(count)s recorded",
            cap=say.n("cap"),
            penalty=nouns.penalty(say.vocabulary, str(say["penalty"]), say["cap"]),
            count=say.n("count"),
        ),
        say,
    ),
    "check.two_out": lambda say: gettext(
        "Only one side can go out in a hand; marked: %(names)s",
        names=joined(say.name_of(side) for side in say["sides"]),
    ),
    "check.red_threes_over_deck": lambda say: gettext(
        "The deck holds %(available)s red threes; %(count)s are recorded across all sides "
        "(laid down and in hand)",
        available=say.n("available"),
        count=say.n("count"),
    ),
    "check.cards_over_deck": lambda say: gettext(
        "The deck holds %(available)s %(cards)s; %(count)s are counted across all sides",
        available=say.n("available"),
        cards=nouns.category(str(say["category"]), say["available"]),
        count=say.n("count"),
    ),
    "check.all_over_deck": lambda say: gettext(
        "All sides together count %(counted)s points of cards, more than the whole deck is "
        "worth (%(deck)s points): check for a typo",
        counted=say.n("counted"),
        deck=say.n("deck"),
    ),
    "check.kind_over_table": lambda say: gettext(
        "The deck allows %(most)s %(kind)s in one hand; %(count)s are recorded across all sides",
        most=say.n("most"),
        kind=nouns.kind(say.vocabulary, str(say["kind"]), say["most"]),
        count=say.n("count"),
    ),
    "check.canastas_over_deck": lambda say: gettext(
        "%(count)s %(canastas)s of %(size)s cards need more cards than the %(deck)s in the deck",
        count=say.n("count"),
        canastas=nouns.canasta(say.vocabulary, say["count"]),
        size=say.n("size"),
        deck=say.n("deck"),
    ),
    "check.penalty_beside_kind": lambda say: _side(
        gettext(
            "%(penalties)s cannot be left once the side has completed %(kinds)s",
            penalties=nouns.penalty(say.vocabulary, str(say["penalty"]), 2),
            kinds=nouns.kind(say.vocabulary, str(say["kind"]), 2),
        ),
        say,
    ),
    "check.group_over_table": _group_over_table,
    "check.special_not_out": lambda say: gettext(
        "%(who)s: a special hand is how a side goes out; mark %(who)s as the side that went out",
        who=say.who,
    ),
    "check.special_alone": lambda say: gettext(
        "%(who)s went out with a special hand, which scores alone: leave %(field)s empty",
        who=say.who,
        field=str(say["field"]).replace("_", " "),
    ),
    "warn.nothing_held": lambda say: gettext(
        "%(who)s did not go out but has nothing left in hand", who=say.who
    ),
    # What a side lacks to go out (inside check.cannot_go_out).
    "needs.clause": _needs_clause,
    "needs.extra_hand": lambda say: gettext(
        "the extra hand (%(name)s) taken first, and it was not",
        name=nouns.extra_hand(say.vocabulary),
    ),
    "needs.every_foot": lambda say: gettext(
        "every player's %(foot)s picked up first (%(taken)s of %(players)s recorded)",
        foot=nouns.foot(say.vocabulary, 1),
        taken=say.n("taken"),
        players=say.n("players"),
    ),
    "needs.foot": lambda say: gettext(
        "the %(foot)s picked up and played first, and it was not",
        foot=nouns.foot(say.vocabulary, 1),
    ),
    "needs.none_left": lambda say: gettext(
        "no %(penalty)s left, and there is one",
        penalty=nouns.penalty(say.vocabulary, str(say["penalty"]), 1),
    ),
}
