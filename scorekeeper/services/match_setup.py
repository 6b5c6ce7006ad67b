"""Starting a match: check the table, find or add its players, freeze the rules."""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass
from typing import Any

from sqlalchemy import select

from .. import words
from ..extensions import db
from ..models import (
    NAME_LENGTH,
    SIDE_NAME_LENGTH,
    Match,
    Player,
    Side,
    SideMember,
    key_fits,
    long_key,
    name_key,
    side_name_of,
)
from ..rules import PRESETS, Rules, resolve_options, rules_to_json
from ..validation import FieldError, ValidationError
from ..words.translate import gettext
from . import names


@dataclass(frozen=True)
class SideSpec:
    name: str  # empty: named after its players
    players: list[str]


def clean_name(raw: object) -> str:
    """Trimmed, single-spaced, without control characters (which no name needs)."""
    if not isinstance(raw, str):
        return ""
    printable = "".join(ch for ch in raw if unicodedata.category(ch) != "Cc" or ch.isspace())
    return re.sub(r"\s+", " ", printable).strip()


def find_or_add_player(group_id: int, name: str) -> Player:
    """The group's player of that name (whatever its case), or a new one."""
    key = name_key(name)
    existing = db.session.execute(
        select(Player).where(Player.group_id == group_id, Player.name_key == key)
    ).scalar_one_or_none()
    if existing is not None:
        return existing
    player = Player(group_id=group_id, name=name, name_key=key)
    db.session.add(player)
    return player


def _side_specs(sides: list[Any], problems: list[FieldError]) -> list[SideSpec]:
    specs: list[SideSpec] = []
    seen: set[str] = set()
    for index, raw in enumerate(sides):
        if not isinstance(raw, dict):
            problems.append(
                FieldError(index, "sides", gettext("each side must be {name, players}"))
            )
            continue
        players_raw = raw.get("players")
        if not isinstance(players_raw, list) or not players_raw:
            problems.append(FieldError(index, "players", gettext("list the players of this side")))
            continue
        players = []
        for position, player_raw in enumerate(players_raw):
            name = clean_name(player_raw)
            where = f"players.{position}"
            if not name:
                problems.append(FieldError(index, where, gettext("Enter a name for each player")))
            elif len(name) > NAME_LENGTH:
                problems.append(
                    FieldError(
                        index,
                        where,
                        gettext("Keep names to %(count)s characters", count=str(NAME_LENGTH)),
                    )
                )
            elif not key_fits(name):
                problems.append(FieldError(index, where, long_key()))
            elif names.problem(name):
                problems.append(FieldError(index, where, str(names.problem(name))))
            elif name_key(name) in seen:
                problems.append(
                    FieldError(index, where, gettext("%(name)s is already at the table", name=name))
                )
            else:
                seen.add(name_key(name))
            players.append(name)
        side_name = clean_name(raw.get("name"))
        if len(side_name) > SIDE_NAME_LENGTH:
            problems.append(FieldError(index, "name", gettext("That side name is too long")))
        elif names.problem(side_name, person=False):
            problems.append(FieldError(index, "name", str(names.problem(side_name, person=False))))
        specs.append(SideSpec(side_name, players))
    return specs


def check_match_setup(
    variant: object, options: object, sides: object, first_dealer: object = 0
) -> tuple[Rules, list[SideSpec], int, int]:
    """Validate a new match; raise ValidationError listing every problem (fields as in the
    API)."""
    if not isinstance(variant, str) or variant not in PRESETS:
        known = ", ".join(PRESETS)
        raise ValidationError(
            [
                FieldError(
                    None, "variant", gettext("Choose a variant (one of: %(known)s)", known=known)
                )
            ]
        )
    rules, engine_problems = resolve_options(PRESETS[variant], options)
    problems = words.told_all(engine_problems, rules.vocabulary)
    if not isinstance(sides, list) or not sides:
        problems.append(
            FieldError(None, "sides", gettext("sides must be a list of {name, players}"))
        )
        raise ValidationError(problems)
    specs = _side_specs(sides, problems)
    sizes = {len(spec.players) for spec in specs}
    players_per_side = next(iter(sizes)) if len(sizes) == 1 else 0
    if not any(
        lay.sides == len(sides) and lay.players_per_side == players_per_side
        for lay in rules.layouts
    ):
        allowed = "; ".join(words.nouns.layout(lay) for lay in rules.layouts)
        name = words.game_name(rules.key)
        problems.append(
            FieldError(
                None,
                "sides",
                gettext("%(game)s is played by %(allowed)s", game=name, allowed=allowed),
            )
        )
    seats = len(specs) * max(players_per_side, 1)
    if (
        not isinstance(first_dealer, int)
        or isinstance(first_dealer, bool)
        or not 0 <= first_dealer < seats
    ):
        problems.append(FieldError(None, "first_dealer", gettext("Choose who deals first")))
    if problems:
        raise ValidationError(problems)
    assert isinstance(first_dealer, int)
    return rules, specs, players_per_side, first_dealer


def check_new_players(group_id: int, specs: list[SideSpec]) -> None:
    """A name new to the group may not look like one of its players ("Ann" with a
    Cyrillic A beside "Ann"): the scorer is told which, to pick them or to write a
    name that can be told apart."""
    known = list(
        db.session.execute(select(Player.name).where(Player.group_id == group_id)).scalars()
    )
    keys = {name_key(name) for name in known}
    problems = []
    for seat, spec in enumerate(specs):
        for position, name in enumerate(spec.players):
            alike = None if name_key(name) in keys else names.look_alike(name, known)
            if alike is not None:
                problems.append(
                    FieldError(
                        seat,
                        f"players.{position}",
                        gettext(
                            "%(name)s looks just like %(alike)s, a player of this group: choose "
                            "%(alike)s, or write the name so that it can be told apart",
                            name=name,
                            alike=alike,
                        ),
                    )
                )
    if problems:
        raise ValidationError(problems)


def create_match(
    variant: object,
    options: object,
    sides: object,
    first_dealer: object = 0,
    *,
    group_id: int,
    creator_id: int | None = None,
) -> Match:
    """A new match of the group, its players found or added in that group."""
    rules, specs, players_per_side, dealer = check_match_setup(
        variant, options, sides, first_dealer
    )
    check_new_players(group_id, specs)
    match = Match(
        group_id=group_id,
        created_by=creator_id,
        variant=rules.key,
        options=dict(options) if isinstance(options, dict) else {},
        rules=rules_to_json(rules),
        players_per_side=players_per_side,
        first_dealer=dealer,
        status="playing",
    )
    for seat, spec in enumerate(specs):
        players = [find_or_add_player(group_id, name) for name in spec.players]
        side = Side(seat=seat, name=spec.name or side_name_of([p.name for p in players]))
        for position, player in enumerate(players):
            side.members.append(SideMember(position=position, player=player))
        match.sides.append(side)
    db.session.add(match)
    db.session.flush()
    return match


def rematch(match: Match, first_dealer: int, group_id: int, creator_id: int | None) -> Match:
    """A new match of the same variant and options in `group_id` (the match's own group),
    with the same players in the same seats (a side's own name kept), `first_dealer`
    dealing first."""
    sides = []
    for side in match.sides:
        players = [member.player.name for member in side.members]
        name = "" if side.name == side_name_of(players) else side.name
        sides.append({"name": name, "players": players})
    return create_match(
        match.variant,
        dict(match.options or {}),
        sides,
        first_dealer,
        group_id=group_id,
        creator_id=creator_id,
    )
