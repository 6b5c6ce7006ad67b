"""House-rule options in words: their labels (`option.*`), why a value is refused
(`reason.*`), and what is wrong with a set of options (`options.*`)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ..rules import PRESETS, OptionSpec, available_options
from ..rules.model import Vocabulary
from . import nouns
from .base import Say, Words, capitalized, joined, number
from .games import game_name
from .translate import gettext


def _kind_bonus(say: Say) -> str:
    kind = nouns.kind(say.vocabulary, str(say["kind"]), 1)
    return gettext("Bonus for each %(kind)s", kind=kind)


def _penalty(say: Say) -> str:
    return nouns.penalty(say.vocabulary, str(say["penalty"]), 1)


def _targets(say: Say) -> str:
    return joined(
        gettext("%(target)s for %(layout)s", target=number(t["target"]), layout=str(t["layout"]))
        for t in say["targets"]
    )


LABELS: dict[str, Words] = {
    "option.target": lambda say: gettext("Target score"),
    "option.target_by_layout": lambda say: gettext(
        "Target score (default by layout: %(targets)s)", targets=_targets(say)
    ),
    "option.going_out": lambda say: gettext(
        "%(going_out)s bonus", going_out=nouns.going_out(say.vocabulary)
    ),
    "option.lineup_mode": lambda say: gettext(
        "Line-ups: pair against one and then each for himself, or each for himself throughout"
    ),
    "option.solo_phase_from": lambda say: gettext("Each for himself once a player reaches"),
    "option.concealed_going_out": lambda say: gettext("Going out concealed bonus"),
    "option.kind": _kind_bonus,
    "option.kind_optional": lambda say: gettext(
        "%(label)s (false: not played)", label=_kind_bonus(say)
    ),
    "option.kind_off": lambda say: gettext("%(label)s (off unless set)", label=_kind_bonus(say)),
    "option.three_totals": lambda say: gettext(
        "Threes of one colour laid down (count -> points, the same for each colour)"
    ),
    "option.red_three": lambda say: gettext("Value of one red three"),
    "option.red_threes_laid": lambda say: gettext("Red threes laid down count"),
    "option.red_threes_negative_when": lambda say: gettext(
        "Red threes count minus when the side has"
    ),
    "option.red_three_totals": lambda say: gettext("Totals for many red threes on one side"),
    "option.red_threes_minus": lambda say: gettext("Red threes counted minus"),
    "option.penalty": lambda say: gettext("Cost of each %(penalty)s", penalty=_penalty(say)),
    "option.penalty_off": lambda say: gettext(
        "Cost of each %(penalty)s (off unless set)", penalty=_penalty(say)
    ),
    "option.meld_minimums": lambda say: gettext("Initial meld minimums"),
    "option.game_end": lambda say: gettext("The game ends"),
    "option.deals": lambda say: gettext("Number of deals"),
    "option.meld_minimums_by_deal": lambda say: gettext("Initial meld minimum of each deal"),
    "option.meld_minimums_by_deal_offered": lambda say: gettext(
        "Initial meld minimum of each deal (instead of by score)"
    ),
    "option.special_hands": lambda say: gettext("Special hands (key -> points; false: not played)"),
    "option.canastas_to_go_out": lambda say: gettext(
        "%(canastas)s needed to go out",
        canastas=capitalized(nouns.canasta(say.vocabulary, 2)),
    ),
    "option.going_out_needs": lambda say: gettext("What a side needs to go out"),
    "option.going_out_needs_by_deal": lambda say: gettext(
        "What a side needs to go out, deal by deal"
    ),
    "option.going_out_by_deal": lambda say: gettext("Going-out bonus, deal by deal"),
    "option.going_out_needs_all_feet": lambda say: gettext(
        "Every player must have picked up the %(foot)s before going out",
        foot=nouns.foot(say.vocabulary, 1),
    ),
    "option.exact_pickup_bonus": lambda say: gettext(
        "Bonus for picking up exactly the cards of hand and foot (off unless set)"
    ),
    "option.packs": lambda say: gettext("Packs of cards (default: one more than the players)"),
    "option.meld_minus_when": lambda say: gettext("Melded cards count minus when the side has"),
    "option.tie_rule": lambda say: gettext("A tie for first place at the end"),
    "option.card_values": lambda say: gettext("Card values"),
}


def _reason(say: Say) -> str:
    return say.nested(say["reason"])


REASONS: dict[str, Words] = {
    "reason.points_whole": lambda say: gettext("must be a whole number of points"),
    "reason.points_positive": lambda say: gettext("must be more than 0"),
    "reason.points_negative": lambda say: gettext("cannot be negative"),
    "reason.points_most": lambda say: gettext("must be at most %(most)s", most=say.n("most")),
    "reason.points_fives": lambda say: gettext("must be a multiple of 5"),
    "reason.tiers_list": lambda say: gettext("must be a list of tiers"),
    "reason.tier_object": lambda say: gettext(
        "tier %(tier)s must be an object with min_score, points and canasta", tier=say.n("tier")
    ),
    "reason.tier_keys": lambda say: gettext(
        "tier %(tier)s has unknown keys: %(keys)s",
        tier=say.n("tier"),
        keys=joined(str(key) for key in say["keys"]),
    ),
    "reason.tier_first": lambda say: gettext(
        "the first tier must have min_score null (it covers every lower score)"
    ),
    "reason.tier_min_score": lambda say: gettext(
        "tier %(tier)s needs a whole-number min_score", tier=say.n("tier")
    ),
    "reason.tier_rising": lambda say: gettext(
        "tier %(tier)s must start above the tier before it", tier=say.n("tier")
    ),
    "reason.tier_points": lambda say: gettext(
        "tier %(tier)s: points %(reason)s", tier=say.n("tier"), reason=_reason(say)
    ),
    "reason.tier_canasta": lambda say: gettext(
        'tier %(tier)s: canasta must be null, "any" or "natural"', tier=say.n("tier")
    ),
    "reason.tier_sides": lambda say: gettext(
        "tier %(tier)s: sides must be null or a number of sides from 2 to 12", tier=say.n("tier")
    ),
    "reason.all": lambda say: "; ".join(say.nested(reason) for reason in say["reasons"]),
    "reason.choice": lambda say: gettext(
        "must be one of %(choices)s", choices=joined(f'"{c}"' for c in say["choices"])
    ),
    "reason.whole_range": lambda say: gettext(
        "must be a whole number from %(low)s to %(high)s", low=say.n("low"), high=say.n("high")
    ),
    "reason.bool": lambda say: gettext("must be true or false"),
    "reason.clauses_list": lambda say: gettext(
        'must be a list of {"count": N, "kinds": [...]} clauses'
    ),
    "reason.clause_object": lambda say: gettext(
        "clause %(clause)s must be an object with count and kinds", clause=say.n("clause")
    ),
    "reason.clause_count": lambda say: gettext(
        "clause %(clause)s needs a count of at least 1", clause=say.n("clause")
    ),
    "reason.clause_kinds": lambda say: gettext(
        "clause %(clause)s: kinds must be a list of canasta kinds", clause=say.n("clause")
    ),
    "reason.clause_kind": lambda say: gettext(
        "clause %(clause)s names a kind the rules do not have: %(kind)s (they have: %(known)s)",
        clause=say.n("clause"),
        kind=str(say["kind"]),
        known=joined(str(key) for key in say["known"]),
    ),
    "reason.clauses_per_deal": lambda say: gettext(
        "must be a list with one list of clauses per deal"
    ),
    "reason.deal": lambda say: gettext(
        "deal %(deal)s: %(reason)s", deal=say.n("deal"), reason=_reason(say)
    ),
    "reason.points_list": lambda say: gettext(
        "must be a list of points, one per deal (at least one)"
    ),
    "reason.entry": lambda say: gettext(
        "entry %(entry)s %(reason)s", entry=say.n("entry"), reason=_reason(say)
    ),
    "reason.totals_object": lambda say: gettext(
        'must be an object of count -> points, e.g. {"4": 800}'
    ),
    "reason.totals_count": lambda say: gettext(
        "counts must be from 1 to %(most)s (the red threes in the deck), not %(given)s",
        most=say.n("most"),
        given=repr(say["given"]),
    ),
    "reason.total": lambda say: gettext(
        "the total for %(count)s %(reason)s", count=say.n("count"), reason=_reason(say)
    ),
    "reason.card_values_object": lambda say: gettext(
        "must be an object of card category -> points"
    ),
    "reason.card_values_unknown": lambda say: gettext(
        "has no card category %(given)s (it has: %(known)s)",
        given=repr(say["given"]),
        known=joined(str(key) for key in say["known"]),
    ),
    "reason.keyed": lambda say: gettext(
        "%(given)s %(reason)s", given=str(say["given"]), reason=_reason(say)
    ),
    "reason.special_hands_object": lambda say: gettext(
        "must be an object of special hand -> points (false: not played)"
    ),
    "reason.special_hands_unknown": lambda say: gettext(
        "has no special hand %(given)s (it has: %(known)s)",
        given=repr(say["given"]),
        known=joined(str(key) for key in say["known"]),
    ),
}


def option_label(spec: OptionSpec, vocabulary: Vocabulary) -> str:
    """An option's label in the words of its game."""
    words = LABELS.get(spec.key)
    return words(Say(spec.params, vocabulary)) if words is not None else spec.name


def _option_of(say: Say) -> str:
    """The label of the option a problem is about, as its preset offers it."""
    preset = PRESETS.get(str(say.get("variant")))
    specs = {spec.name: spec for spec in available_options(preset)} if preset else {}
    spec = specs.get(str(say["option"]))
    return option_label(spec, preset.vocabulary) if spec and preset else str(say["option"])


def _do_not_fit(say: Say) -> str:
    why: list[Mapping[str, Any]] = say["why"]
    return gettext(
        "These options do not fit together: %(why)s",
        why=say.nested({"key": "rules.all", "params": {"faults": why}}),
    )


PROBLEMS: dict[str, Words] = {
    "options.both_needs": lambda say: gettext(
        "Give canastas_to_go_out or going_out_needs, not both"
    ),
    "options.kind_off": lambda say: gettext(
        "%(game)s is played without %(kinds)s here",
        game=game_name(str(say["variant"])),
        kinds=joined(str(kind) for kind in say["kinds"]),
    ),
    "options.penalty_needs_kind": lambda say: gettext(
        "The cost of %(penalties)s needs %(kinds)s (option %(option)s)",
        penalties=nouns.penalty(say.vocabulary, str(say["penalty"]), 2),
        kinds=nouns.kind(say.vocabulary, str(say["kind"]), 2),
        option=str(say["option"]),
    ),
    "options.not_object": lambda say: gettext("Options must be an object of name: value"),
    "options.unknown": lambda say: gettext(
        "%(game)s has no option %(name)s (it has: %(known)s)",
        game=game_name(str(say["variant"])),
        name=repr(say["name"]),
        known=joined(str(name) for name in say["known"]),
    ),
    "options.bad_value": lambda say: gettext(
        "%(option)s %(reason)s", option=_option_of(say), reason=_reason(say)
    ),
    "options.do_not_fit": _do_not_fit,
}

MESSAGES: dict[str, Words] = {**LABELS, **REASONS, **PROBLEMS}
