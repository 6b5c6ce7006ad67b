"""Why a rule set cannot be scored by, or read back (`rules.*`), in words: what an import
of a damaged file, or options that do not fit together, are told."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from .base import Say, Words, joined
from .translate import gettext


def _where(say: Say) -> str:
    """Which requirement a clause is in: the going-out one, or a deal's."""
    deal = say.get("deal", 0)
    if deal:
        return gettext("the going-out requirement of deal %(deal)s", deal=say.n("deal"))
    return gettext("the going-out requirement")


def _all(say: Say) -> str:
    """Faults together: "classic: a; b" (the rule set a fault is of, once, first)."""
    faults: list[Mapping[str, Any]] = say["faults"]
    text = "; ".join(say.nested(fault) for fault in faults)
    variants = [fault.get("params", {}).get("variant") for fault in faults]
    if variants and variants[0] is not None:
        return gettext("%(rules)s: %(faults)s", rules=str(variants[0]), faults=text)
    return text


MESSAGES: dict[str, Words] = {
    "rules.all": _all,
    "rules.clause_count": lambda say: gettext(
        "%(where)s: a clause needs a count of at least 1", where=_where(say)
    ),
    "rules.clause_kinds": lambda say: gettext(
        "%(where)s names kinds the rules do not have: %(kinds)s",
        where=_where(say),
        kinds=joined(str(kind) for kind in say["kinds"]),
    ),
    "rules.no_layout": lambda say: gettext("there must be at least one table layout"),
    "rules.layout_size": lambda say: gettext("a layout needs 2 or more sides of at least 1 player"),
    "rules.kind_keys": lambda say: gettext("canasta kinds must have distinct keys"),
    "rules.kind_options": lambda say: gettext("canasta kinds must have distinct options"),
    "rules.three_totals": lambda say: gettext(
        "red-three totals need distinct counts of at least 1"
    ),
    "rules.three_minus_choice": lambda say: gettext(
        "the red-three minus rule must be one of its choices"
    ),
    "rules.points": lambda say: gettext(
        "every bonus, penalty and card value must be a multiple of 5, at least 0"
    ),
    "rules.target": lambda say: gettext("the target must be a positive multiple of 5"),
    "rules.tier_start": lambda say: gettext("only the first meld tier has no starting score"),
    "rules.tiers_rise": lambda say: gettext("meld tiers must rise"),
    "rules.tier_canasta": lambda say: gettext(
        'a meld tier asks for no canasta, "any" or "natural"'
    ),
    "rules.deals": lambda say: gettext("a game of deals needs at least 1 deal"),
    "rules.target_layout": lambda say: gettext(
        "a target is given for a layout the rules do not have"
    ),
    "rules.special_keys": lambda say: gettext("special hands must have distinct keys"),
    "rules.card_keys": lambda say: gettext("card categories must have distinct keys"),
    "rules.unmeldable": lambda say: gettext(
        "cards that cannot be melded must be card categories of the rules"
    ),
    "rules.penalty_fields": lambda say: gettext("counted penalties must have distinct fields"),
    "rules.packs": lambda say: gettext("a deck needs at least one pack"),
    "rules.seat_layout": lambda say: gettext(
        "seats need a layout of that many sides of one player"
    ),
    "rules.phase_lineups": lambda say: gettext(
        "every phase of a seated game needs at least one line-up"
    ),
    "rules.lineup_seats": lambda say: gettext(
        "the line-up %(shape)s must seat every seat once, sizes rising", shape=str(say["shape"])
    ),
    "rules.lineup_sides": lambda say: gettext(
        "the line-up %(shape)s needs 2 or more sides", shape=str(say["shape"])
    ),
    "rules.share_multiple": lambda say: gettext("a share is rounded to a positive multiple"),
    "rules.switch": lambda say: gettext("the phase switch must be a multiple of 5, at least 0"),
    # A rule set read back from JSON (a match's frozen rules, an imported file).
    "rules.not_list": lambda say: gettext("%(where)s must be a list", where=str(say["where"])),
    "rules.not_object": lambda say: gettext("%(where)s must be an object", where=str(say["where"])),
    "rules.missing": lambda say: gettext("%(where)s is missing", where=str(say["where"])),
    "rules.not_choice": lambda say: gettext(
        "%(where)s must be one of %(choices)s",
        where=str(say["where"]),
        choices=joined(repr(choice) for choice in say["choices"]),
    ),
    "rules.not_bool": lambda say: gettext(
        "%(where)s must be true or false", where=str(say["where"])
    ),
    "rules.not_int": lambda say: gettext("%(where)s must be an integer", where=str(say["where"])),
    "rules.not_text": lambda say: gettext("%(where)s must be text", where=str(say["where"])),
    "rules.bad_type": lambda say: gettext(
        "%(where)s has a type the rules cannot hold", where=str(say["where"])
    ),
}


def faults_message(faults: Iterable[Any]) -> dict[str, Any]:
    """Problems of a rule set as one message ("rules.all")."""
    return {
        "key": "rules.all",
        "params": {"faults": [{"key": f.key, "params": dict(f.params)} for f in faults]},
    }
