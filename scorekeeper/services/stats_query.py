"""Reading the filters of a statistics page or API call (group, variant, player, period)
from query parameters: one place, so the page and the API refuse the same things."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from sqlalchemy import select

from ..extensions import db
from ..models import Player, name_key
from ..rules import PRESETS
from ..words.translate import gettext
from .events import events_in
from .history_search import read_date
from .leagues import leagues_of
from .match_scope import read_scope
from .statistics import StatsFilter

NAME_LIMIT = 40


@dataclass(frozen=True)
class StatsQuery:
    """The filters as asked (to show them back) and, when all are valid, as a filter."""

    variant: str = ""
    player: str = ""
    since: str = ""
    until: str = ""
    league: str = ""
    event: str = ""
    where: StatsFilter | None = None
    player_id: int | None = None
    problems: dict[str, str] = field(default_factory=dict)


def player_named(group_ids: tuple[int, ...], name: str) -> Player | None:
    """The player of these groups with this name (case and Unicode variants folded)."""
    return db.session.execute(
        select(Player)
        .where(Player.group_id.in_(group_ids), Player.name_key == name_key(name))
        .order_by(Player.id)
        .limit(1)
    ).scalar_one_or_none()


def read_query(args: Mapping[str, str], group_ids: tuple[int, ...]) -> StatsQuery:
    """The filters in `args` (variant, player, from, to, league, event), each checked; a problem
    per field in words when one is not valid (then no filter)."""
    problems: dict[str, str] = {}
    variant = args.get("variant", "").strip()[:NAME_LIMIT]
    if variant and variant not in PRESETS:
        problems["variant"] = gettext("There is no game called %(name)s", name=repr(variant))
    player = args.get("player", "").strip()[:NAME_LIMIT]
    found = player_named(group_ids, player) if player else None
    if player and found is None:
        problems["player"] = gettext("Nobody called %(name)s has played here", name=repr(player))
    since_raw, until_raw = args.get("from", "").strip()[:20], args.get("to", "").strip()[:20]
    since, until = read_date(since_raw, "from", problems), read_date(until_raw, "to", problems)
    if since and until and since > until:
        problems["to"] = gettext("The end of the period comes before its start")
    season = read_scope(args, leagues_of(group_ids), problems, events_in(group_ids))
    where = None
    if not problems:
        where = StatsFilter(
            group_ids,
            variant=variant or None,
            since=since,
            until=until,
            player_id=found.id if found else None,
            scope=season.scope,
        )
    return StatsQuery(
        variant,
        player,
        since_raw,
        until_raw,
        season.league,
        season.event,
        where,
        found.id if found else None,
        problems,
    )
