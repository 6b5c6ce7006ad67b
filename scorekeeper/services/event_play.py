"""Running an event: start a round (pair it, make its table matches and scorer links),
take VP off an entry, withdraw an entry.

Each is one write under the event's lock (`event_lock`). A round is paired by the
movement from what is stored: the entries withdrawn so far and, in Danish, the
standings after the previous round and the rounds already paired. Pairings once made
are never changed; a later correction of a table moves VP and standings only.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from .. import words
from ..clubs import Movement, Pairing, Table, pair_round, ranking
from ..event_models import (
    REASON_LENGTH,
    Entry,
    Event,
    EventPenalty,
    EventRound,
    EventStatus,
    EventTable,
)
from ..extensions import db
from ..models import LinkRole, Match, MatchStatus, Side, SideMember, User
from ..validation import FieldError, ValidationError
from ..words.translate import gettext, ngettext
from . import names, sharing
from .event_lock import EventError, EventNotFound, lock_event
from .event_state import EventView, entry_label, event_view
from .match_setup import clean_name

MOST_PENALTY = 1000  # VP: a table is worth 20 in the FIBUR tables


def next_round_refusal(view: EventView) -> str | None:
    """Why the next round cannot start now, in words (None: it can)."""
    if view.round >= view.event.rounds:
        return gettext("Every round of this event was played.")
    playing = view.playing_tables
    if playing:
        return ngettext(
            "%(num)s table is still playing: the next round starts once every table is finished.",
            "%(num)s tables are still playing: the next round starts once every table is finished.",
            len(playing),
        )
    if sum(1 for entry in view.entries if not entry.withdrawn) < 2:
        return gettext("Fewer than two entries are still playing.")
    return None


def _previous(view: EventView) -> list[Pairing]:
    """The rounds already paired, as the movements read them (entry numbers)."""
    return [
        Pairing(
            played.number,
            tuple(Table(t.number, t.first.number, t.second.number) for t in played.tables),
            tuple(entry.number for entry in played.byes),
        )
        for played in view.rounds
    ]


def _table_match(event: Event, first: Entry, second: Entry, creator: User | None) -> Match:
    """A match of the event's game in its group, its rules frozen as the event's."""
    match = Match(
        group_id=event.group_id,
        created_by=creator.id if creator else None,
        variant=event.variant,
        options=dict(event.options or {}),
        rules=event.rules,
        players_per_side=event.players_per_entry,
        first_dealer=0,
        status=MatchStatus.PLAYING,
    )
    for seat, entry in enumerate((first, second)):
        side = Side(seat=seat, name=entry_label(entry))
        for member in entry.members:
            side.members.append(SideMember(position=member.position, player_id=member.player_id))
        match.sides.append(side)
    db.session.add(match)
    return match


def start_round(event_id: int, creator: User | None, expected: int | None = None) -> EventRound:
    """Pair the next round and make its tables: a match and a scorer link each.

    `expected` is the round the director saw offered: a second tap on "Start round 2"
    does not start round 3."""
    event = lock_event(event_id)
    view = event_view(event)
    if expected is not None and expected != view.round + 1:
        raise EventError(
            gettext("Round %(number)s was started already.", number=words.number(expected))
        )
    refusal = next_round_refusal(view)
    if refusal is not None:
        raise EventError(refusal)
    number = view.round + 1
    withdrawn = {entry.number for entry in view.entries if entry.withdrawn}
    movement = Movement(event.movement)
    pairing = pair_round(
        movement,
        len(view.entries),
        number,
        withdrawn=withdrawn,
        ranking=ranking(view.results) if movement is Movement.DANISH and number > 1 else (),
        previous=_previous(view) if movement is Movement.DANISH else (),
    )
    by_number = view.by_number
    played = EventRound(number=number, byes=[by_number[n].id for n in pairing.byes])
    event.played.append(played)
    event.status = EventStatus.PLAYING
    for table in pairing.tables:
        first, second = by_number[table.first], by_number[table.second]
        match = _table_match(event, first, second, creator)
        db.session.flush()
        played.tables.append(
            EventTable(
                event_id=event.id,
                number=table.number,
                first_id=first.id,
                second_id=second.id,
                match_id=match.id,
            )
        )
        sharing.new_link(match.id, LinkRole.SCORER, creator)
    db.session.flush()
    return played


def _entry(event: Event, entry_id: object) -> Entry | None:
    if isinstance(entry_id, bool) or not isinstance(entry_id, int):
        return None
    return next((entry for entry in event.entries if entry.id == entry_id), None)


def withdraw(event_id: int, entry_id: int) -> Entry:
    """The entry plays no later round (a round already paired is played as paired); it
    keeps what it earned. Withdrawing it again changes nothing."""
    event = lock_event(event_id)
    entry = _entry(event, entry_id)
    if entry is None:
        raise EventNotFound(gettext("This event has no entry %(id)s.", id=words.number(entry_id)))
    if not entry.withdrawn:
        entry.withdrawn = True
        entry.withdrawn_after = len(event.played)
    return entry


def add_penalty(event_id: int, body: Mapping[str, Any], actor: User) -> EventPenalty:
    """VP taken off an entry, with the reason; every problem of the request at once."""
    event = lock_event(event_id)
    problems: list[FieldError] = []
    entry = _entry(event, body.get("entry"))
    if entry is None:
        problems.append(FieldError(None, "entry", gettext("Choose an entry of this event.")))
    vp = body.get("vp")
    if isinstance(vp, bool) or not isinstance(vp, int) or not 1 <= vp <= MOST_PENALTY:
        message = gettext(
            "Take off a whole number of VP from 1 to %(most)s.", most=words.number(MOST_PENALTY)
        )
        problems.append(FieldError(None, "vp", message))
    reason = clean_name(body.get("reason"))
    if not reason or len(reason) > REASON_LENGTH:
        message = gettext(
            "Give the reason, in up to %(most)s characters.", most=words.number(REASON_LENGTH)
        )
        problems.append(FieldError(None, "reason", message))
    elif names.problem(reason, person=False):
        problems.append(FieldError(None, "reason", str(names.problem(reason, person=False))))
    if problems:
        raise ValidationError(problems)
    assert entry is not None
    assert isinstance(vp, int)
    penalty = EventPenalty(
        entry_id=entry.id, vp=vp, reason=reason, actor=actor.username, actor_user_id=actor.id
    )
    event.penalties.append(penalty)
    db.session.flush()
    return penalty
