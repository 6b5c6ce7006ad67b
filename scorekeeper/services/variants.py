"""Presets described for clients, and options resolved with all problems reported."""

from __future__ import annotations

from typing import Any

from ..rules import (
    InvalidOptions,
    Rules,
    available_options,
    get_preset,
    meld_requirement,
    option_defaults,
    resolve_options,
    rules_to_json,
)
from ..rules.meld import tier_label


def layouts_json(rules: Rules) -> list[dict[str, Any]]:
    return [
        {"sides": lay.sides, "players_per_side": lay.players_per_side, "label": lay.label}
        for lay in rules.layouts
    ]


def preset_summary(preset: Rules) -> dict[str, Any]:
    return {
        "key": preset.key,
        "name": preset.name,
        "description": preset.description,
        "source": preset.source,
        "layouts": layouts_json(preset),
        "fields": list(preset.fields()),
        "options": option_defaults(preset),
    }


def preset_detail(preset: Rules, rules: Rules) -> dict[str, Any]:
    """The preset fully resolved (with options applied, if any)."""
    detail = preset_summary(preset)
    detail["options"] = option_defaults(preset)
    detail["option_details"] = [spec.to_dict() for spec in available_options(preset)]
    detail["fields"] = list(rules.fields())
    detail["rules"] = rules_to_json(rules)
    detail["meld_table"] = [
        {
            "min_score": tier.min_score,
            "points": tier.points,
            "canasta": tier.canasta,
            "label": tier_label(rules, tier),
        }
        for tier in rules.meld_table
    ]
    detail["opening_requirement"] = meld_requirement(rules, 0).to_dict()
    return detail


def resolve_or_problems(key: str, options: object) -> Rules:
    """The preset with options applied; raises InvalidOptions with every problem."""
    rules, problems = resolve_options(get_preset(key), options)
    if problems:
        raise InvalidOptions(problems)
    return rules
