"""The match a write left, kept by the worker: its next save starts from those objects.

Building a match with its sides and players through the ORM (eleven objects for a
match of four, through joined loading) costs about a millisecond, a seventh of a save.
A save's match is kept once its write commits (`caches.hold_writes`), and the next
save of the match in this worker reads the same columns as rows (a small part of
that) and brings the kept objects up to date with them: a value another write changed
since (the revision, the status, a renamed side or player) is set to the stored one,
as a load would set it. Other sides, seats or players, or another match under the same
id (a restored backup), are loaded afresh. A match still at the revision it was kept
at needs no rows: every write to it, its sides or its players moves the revision on.
(A player's history count and account link change without it; no save reads them.)

A kept match is taken out while a request uses it, so two requests never share one,
and a write that rolls back drops it.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, cast

from sqlalchemy import Table, bindparam, inspect, select
from sqlalchemy.orm.attributes import set_committed_value

from ..caches import cache
from ..database import typed_rows
from ..extensions import db
from ..ids import valid_id
from ..models import Match, Player, Side, SideMember
from .match_state import FROZEN, load_match, rules_kept

CACHE = "matches"
IDENTITY = ("uid", "created_at")  # the same match: else another one under its id
NOT_KEPT = ("hands", "audit")  # a match whose collections were read is not kept (stale)


def _loaded(model: type[Any]) -> list[tuple[str, Any]]:
    """The attributes `load_match` loads of a model, with their columns: every column but
    a match's frozen rules and options."""
    columns = inspect(model).column_attrs
    return [(prop.key, prop.columns[0]) for prop in columns if prop.key not in FROZEN]


_MATCH, _SIDE, _MEMBER, _PLAYER = (_loaded(model) for model in (Match, Side, SideMember, Player))
_KEYS = [tuple(key for key, _ in attrs) for attrs in (_MATCH, _SIDE, _MEMBER, _PLAYER)]
_STARTS = [sum(len(keys) for keys in _KEYS[:index]) for index in range(len(_KEYS))]
_IDS = [start + keys.index("id") for start, keys in zip(_STARTS, _KEYS, strict=True)]
_IDENTITY_AT = [(key, _KEYS[0].index(key)) for key in IDENTITY]
_UNSET = object()
_M = Match.__table__
_S, _SM, _P = (cast(Table, model.__table__) for model in (Side, SideMember, Player))
MATCH_ROWS = (  # one row per seated player, built once (see `database.run`)
    select(*(column for attrs in (_MATCH, _SIDE, _MEMBER, _PLAYER) for _, column in attrs))
    .select_from(
        _M.join(_S, _S.c.match_id == _M.c.id)
        .join(_SM, _SM.c.side_id == _S.c.id)
        .join(_P, _P.c.id == _SM.c.player_id)
    )
    .where(_M.c.id == bindparam("match_id"))
    .order_by(_S.c.seat, _SM.c.position)
)


def keep_match(match: Match) -> None:
    """Keep the match a write left (detached from its session), once the write commits."""
    if not any(name in match.__dict__ for name in NOT_KEPT):  # where the ORM keeps loaded ones
        cache(CACHE).put(match.id, match)


def loaded_whole(match: Match) -> bool:
    """Whether the match, its sides, seats and players hold every value `load_match`
    loads (a write may have expired some): then they can be read detached."""
    seats = _seats(match)
    if seats is None:
        return False
    objects = [(match, 0), *((obj, part) for seat in seats for part, obj in enumerate(seat, 1))]
    return all(key in obj.__dict__ for obj, part in objects for key in _KEYS[part])


def current_match(match_id: int, revision: int | None = None) -> Match | None:
    """The match with its sides and players as stored now, or None; detached when it is
    the kept one brought up to date, else loaded into the session as `load_match`.

    `revision` is the match's revision as the caller's snapshot sees it (the access
    check reads it): a kept match at that revision is as stored, since every write to a
    match, its sides or its players moves it on, and a restore moves every match past
    the revisions it had (`backup`); its rows are then not read."""
    if not valid_id(match_id):
        return None
    kept: Match | None = cache(CACHE).take(match_id)
    if kept is None:
        return load_match(match_id)
    if (
        revision is not None
        and _value(kept, "revision") == revision
        and loaded_whole(kept)
        and rules_kept(kept)
    ):
        return kept
    rows = typed_rows(db.session, MATCH_ROWS, {"match_id": match_id})
    if rows and _brought_up_to_date(kept, rows) and rules_kept(kept):
        return kept  # (a detached match cannot read its rules: they must be kept)
    return load_match(match_id)


def _brought_up_to_date(match: Match, rows: Sequence[Sequence[Any]]) -> bool:
    """Set the kept objects' values to the stored ones; False when the rows describe
    other objects, or some of the kept ones are no longer loaded (then nothing of them
    is used)."""
    seats = _seats(match)
    if seats is None or len(seats) != len(rows):
        return False
    first, (_, side_id, member_id, player_id) = rows[0], _IDS
    if any(_value(match, key) != first[index] for key, index in _IDENTITY_AT):
        return False
    for (side, member, player), row in zip(seats, rows, strict=True):
        held = (_value(side, "id"), _value(member, "id"), _value(player, "id"))
        if held != (row[side_id], row[member_id], row[player_id]):
            return False
    _update(match, 0, first)
    previous = None
    for (side, member, player), row in zip(seats, rows, strict=True):
        if side is not previous:  # a side's values repeat in each of its seats' rows
            _update(side, 1, row)
            previous = side
        _update(member, 2, row)
        _update(player, 3, row)
    return True


def _seats(match: Match) -> list[tuple[Side, SideMember, Player]] | None:
    """Each side, seat and player as kept, in seating order; None when some of them is
    not loaded (a write may expire what it read)."""
    sides = _value(match, "sides")
    if sides is _UNSET:
        return None
    seats = []
    for side in sides:
        members = _value(side, "members")
        if members is _UNSET:
            return None
        for member in members:
            player = _value(member, "player")
            if player is _UNSET:
                return None
            seats.append((side, member, player))
    return seats


def _value(target: object, key: str) -> Any:
    """A value as the object holds it (the ORM keeps loaded values in the instance's
    `__dict__`): never loaded here, as the object may be detached."""
    return target.__dict__.get(key, _UNSET)


def _update(target: object, part: int, row: Sequence[Any]) -> None:
    """Set the values of `target` (the `part`-th object of a row) that differ from the row's."""
    held = target.__dict__
    for key, value in zip(_KEYS[part], row[_STARTS[part] :], strict=False):
        if held.get(key, _UNSET) != value:
            set_committed_value(target, key, value)
