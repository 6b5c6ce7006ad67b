"""Making an event and changing its entries until round 1 starts.

Everything sent is checked at once and every problem reported next to its field
(`entries[2].players[1]`, `vp_table.rows[0]`): the game and its options (the rules
engine), the settings and the VP table (`clubs.settings`), the entries and their
players (here). Nothing is saved unless all of it is right.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from sqlalchemy import select

from .. import words
from ..clubs import (
    EventSettings,
    InvalidSettings,
    Movement,
    Problem,
    game_problems,
    read_event_settings,
    read_vp_table,
    table_rules,
    vp_table_to_json,
)
from ..event_models import (
    ENTRY_NAME_LENGTH,
    EVENT_NAME_LENGTH,
    Entry,
    EntryMember,
    Event,
    EventStatus,
)
from ..extensions import db
from ..models import NAME_LENGTH, Player, key_fits, long_key, name_key
from ..rules import PRESETS, Rules, resolve_options, rules_to_json
from ..validation import FieldError, ValidationError
from ..words.clubs import told_clubs
from ..words.translate import gettext
from . import names
from .event_lock import EventError, lock_event
from .match_setup import clean_name

MOST_ENTRIES = 120  # a big club night has 60 pairs: room for twice that, no more


@dataclass(frozen=True)
class EntrySpec:
    name: str
    players: list[str]


def _error(field: str, message: str) -> FieldError:
    return FieldError(None, field, message)


def _player_problem(name: str) -> str | None:
    if not name:
        return gettext("Enter a name for each player.")
    if len(name) > NAME_LENGTH:
        return gettext("Keep names to %(most)s characters.", most=words.number(NAME_LENGTH))
    if not key_fits(name):
        return long_key()
    return names.problem(name)


def read_entries(raw: object, problems: list[FieldError]) -> list[EntrySpec]:
    """The entries as sent, each player named once in the whole event."""
    if not isinstance(raw, list):
        problems.append(_error("entries", gettext("List the entries: {name, players} each.")))
        return []
    if len(raw) > MOST_ENTRIES:
        message = gettext("An event has at most %(most)s entries.", most=words.number(MOST_ENTRIES))
        problems.append(_error("entries", message))
        return []
    specs: list[EntrySpec] = []
    seen: dict[str, int] = {}  # a player's key: the entry (from 1) that has them
    for index, item in enumerate(raw):
        where = f"entries[{index}]"
        if not isinstance(item, dict):
            problems.append(_error(where, gettext("Each entry is {name, players}.")))
            specs.append(EntrySpec("", []))
            continue
        for key in item:
            if key not in ("name", "players"):
                problems.append(
                    _error(f"{where}.{key}", gettext("An entry has a name and players."))
                )
        players_raw = item.get("players")
        if not isinstance(players_raw, list) or not players_raw:
            problems.append(_error(f"{where}.players", gettext("List the players of this entry.")))
            players_raw = []
        players = []
        for position, player_raw in enumerate(players_raw):
            name = clean_name(player_raw)
            spot = f"{where}.players[{position}]"
            wrong = _player_problem(name)
            if wrong is not None:
                problems.append(_error(spot, wrong))
            elif name_key(name) in seen:
                message = gettext(
                    "%(name)s is already in entry %(number)s: a player plays in one entry.",
                    name=name,
                    number=words.number(seen[name_key(name)]),
                )
                problems.append(_error(spot, message))
            else:
                seen[name_key(name)] = index + 1
            players.append(name)
        entry_name = clean_name(item.get("name"))
        if len(entry_name) > ENTRY_NAME_LENGTH:
            message = gettext(
                "Keep an entry's name to %(most)s characters.",
                most=words.number(ENTRY_NAME_LENGTH),
            )
            problems.append(_error(f"{where}.name", message))
        elif entry_name and names.problem(entry_name, person=False):
            problems.append(_error(f"{where}.name", str(names.problem(entry_name, person=False))))
        specs.append(EntrySpec(entry_name, players))
    return specs


def _look_alikes(group_id: int, specs: Sequence[EntrySpec]) -> list[FieldError]:
    """A name new to the group may not look just like one of its players."""
    known = list(
        db.session.execute(select(Player.name).where(Player.group_id == group_id)).scalars()
    )
    keys = {name_key(name) for name in known}
    problems = []
    for index, spec in enumerate(specs):
        for position, name in enumerate(spec.players):
            alike = None if not name or name_key(name) in keys else names.look_alike(name, known)
            if alike is not None:
                message = gettext(
                    "%(name)s looks just like %(other)s, a player of this group: choose "
                    "%(other)s, or write the name so that it can be told apart.",
                    name=name,
                    other=alike,
                )
                problems.append(_error(f"entries[{index}].players[{position}]", message))
    return problems


def _event_name(raw: object, problems: list[FieldError]) -> str:
    name = clean_name(raw)
    if not name or len(name) > EVENT_NAME_LENGTH:
        message = gettext(
            "Give the event a name of 1 to %(most)s characters.",
            most=words.number(EVENT_NAME_LENGTH),
        )
        problems.append(_error("name", message))
    elif names.problem(name, person=False):
        problems.append(_error("name", str(names.problem(name, person=False))))
    return name


def _game(body: Mapping[str, Any], problems: list[FieldError]) -> Rules | None:
    variant = body.get("variant")
    if not isinstance(variant, str) or variant not in PRESETS:
        message = gettext("Choose a game (one of: %(games)s).", games=", ".join(PRESETS))
        problems.append(_error("variant", message))
        return None
    rules, engine_problems = resolve_options(PRESETS[variant], body.get("options"))
    problems += words.told_all(engine_problems, rules.vocabulary)
    return rules


def check_event(
    body: Mapping[str, Any], group_id: int
) -> tuple[str, Rules, EventSettings, list[EntrySpec], int]:
    """The event's name, rules (of its table matches), settings, entries and players per
    entry; a ValidationError with every problem found."""
    problems: list[FieldError] = []
    name = _event_name(body.get("name"), problems)
    rules = _game(body, problems)
    specs = read_entries(body.get("entries"), problems)
    sizes = [len(spec.players) for spec in specs]
    club: list[Problem] = []
    options = body.get("options")
    if rules is not None:
        club += game_problems(rules, sizes, options if isinstance(options, dict) else None)
    settings = None
    try:
        settings = read_event_settings(body, len(specs))
    except InvalidSettings as error:
        club += error.problems
    problems += told_clubs(club)
    if not problems:
        problems += _look_alikes(group_id, specs)
    if problems or rules is None or settings is None:
        raise ValidationError(problems)
    return name, table_rules(rules, settings.deals_per_round), settings, specs, sizes[0]


def _players(group_id: int, specs: Sequence[EntrySpec]) -> dict[str, Player]:
    """The group's players of these names (by key), those new to it added: one query."""
    wanted = {name_key(name): name for spec in specs for name in spec.players}
    found = {
        player.name_key: player
        for player in db.session.execute(
            select(Player).where(Player.group_id == group_id, Player.name_key.in_(list(wanted)))
        ).scalars()
    }
    for key, name in wanted.items():
        if key not in found:
            found[key] = Player(group_id=group_id, name=name, name_key=key)
            db.session.add(found[key])
    return found


def _seat(entry: Entry, players: list[Player]) -> None:
    """The entry's players, position by position (an edit keeps each position's row)."""
    for position, player in enumerate(players):
        if position < len(entry.members):
            entry.members[position].player = player
        else:
            entry.members.append(EntryMember(position=position, player=player))


def create_event(body: Mapping[str, Any], *, group_id: int, creator_id: int | None) -> Event:
    """A new event of the group in setup, its players found or added in the group."""
    name, rules, settings, specs, size = check_event(body, group_id)
    options = body.get("options")
    event = Event(
        group_id=group_id,
        created_by=creator_id,
        name=name,
        variant=rules.key,
        options=dict(options) if isinstance(options, dict) else {},
        rules=rules_to_json(rules),
        players_per_entry=size,
        deals_per_round=settings.deals_per_round,
        vp_table=vp_table_to_json(settings.vp_table),
        movement=settings.movement.value,
        rounds=settings.rounds,
        bye_vp=settings.bye_vp,
        status=EventStatus.SETUP,
    )
    players = _players(group_id, specs)
    for number, spec in enumerate(specs, start=1):
        entry = Entry(number=number, name=spec.name)
        _seat(entry, [players[name_key(n)] for n in spec.players])
        event.entries.append(entry)
    db.session.add(event)
    db.session.flush()
    return event


def settings_of(event: Event, entries: int) -> EventSettings:
    """The event's settings for this many entries (InvalidSettings when they no longer
    hold: more rounds than the movement allows them, too few entries)."""
    return EventSettings(
        entries,
        event.deals_per_round,
        read_vp_table(event.vp_table),
        Movement(event.movement),
        event.rounds,
        event.bye_vp,
    )


def change_entries(event_id: int, raw: object) -> Event:
    """The event's entries as sent (in setup only): entry N keeps its number and id (and
    any penalty), takes the names sent; entries past the new count are removed."""
    event = lock_event(event_id)
    if event.status != EventStatus.SETUP:
        raise EventError(gettext("Round 1 has started: the entries can no longer change."))
    problems: list[FieldError] = []
    specs = read_entries(raw, problems)
    club = [
        Problem(
            f"entries[{index}].players",
            "event.entry_size",
            {"count": len(spec.players), "size": event.players_per_entry},
        )
        for index, spec in enumerate(specs)
        if len(spec.players) != event.players_per_entry and spec.players
    ]
    try:
        settings_of(event, len(specs))
    except InvalidSettings as error:
        club += error.problems
    problems += told_clubs(club)
    if not problems:
        problems += _look_alikes(event.group_id, specs)
    if problems:
        raise ValidationError(problems)
    players = _players(event.group_id, specs)
    for index, spec in enumerate(specs):
        if index < len(event.entries):
            entry = event.entries[index]
            entry.name = spec.name
        else:
            entry = Entry(number=index + 1, name=spec.name)
            event.entries.append(entry)
        _seat(entry, [players[name_key(n)] for n in spec.players])
    del event.entries[len(specs) :]
    db.session.flush()
    return event
