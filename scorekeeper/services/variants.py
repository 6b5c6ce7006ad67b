"""Presets described for clients, and options resolved with all problems reported."""

from __future__ import annotations

from typing import Any

from .. import words
from ..rules import (
    MeldRequirement,
    Rules,
    available_options,
    get_preset,
    meld_requirement,
    option_defaults,
    resolve_options,
    rules_to_json,
)
from ..validation import ValidationError


def layouts_json(rules: Rules) -> list[dict[str, Any]]:
    return [
        {
            "sides": lay.sides,
            "players_per_side": lay.players_per_side,
            "label": words.nouns.layout(lay),
        }
        for lay in rules.layouts
    ]


def preset_summary(preset: Rules) -> dict[str, Any]:
    return {
        "key": preset.key,
        "name": words.game_name(preset.key),
        "description": words.game_description(preset.key),
        "source": words.game_source(preset.key),
        "layouts": layouts_json(preset),
        "fields": list(preset.fields),
        "options": option_defaults(preset),
    }


def preset_detail(preset: Rules, rules: Rules) -> dict[str, Any]:
    """The preset fully resolved (with options applied, if any)."""
    detail = preset_summary(preset)
    detail["options"] = option_defaults(preset)
    detail["option_details"] = [
        words.option_dict(spec, preset.vocabulary) for spec in available_options(preset)
    ]
    detail["fields"] = list(rules.fields)
    detail["rules"] = rules_to_json(rules)
    detail["meld_table"] = [
        {
            "min_score": tier.min_score,
            "points": tier.points,
            "canasta": tier.canasta,
            "label": words.meld_label(MeldRequirement(tier.points, tier.canasta), rules.vocabulary),
        }
        for tier in rules.meld_table
    ]
    detail["opening_requirement"] = words.meld_dict(meld_requirement(rules, 0), rules)
    return detail


def resolve_or_problems(key: str, options: object) -> Rules:
    """The preset with options applied; raises ValidationError with every problem."""
    preset = get_preset(key)
    rules, problems = resolve_options(preset, options)
    if problems:
        raise ValidationError(words.told_all(problems, preset.vocabulary))
    return rules
