"""Searching the history: the filters of the history page read from its URL (so a
search can be shared as a link) and turned into conditions on a match, which
`listing.history` adds to the query that finds a page's ids (one query, whatever the
number of matches)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import date, datetime, time, timedelta

from sqlalchemy import ColumnElement, not_, select

from ..models import Match, Player, Side, SideMember, name_key
from ..rules import PRESETS
from ..rules.game import DRAWN, FINISHED
from ..words.translate import gettext, lazy_gettext, lazy_pgettext

NAME_LIMIT = 40
# value: what the page says (translated when the page is made)
RESULTS = {
    "won": lazy_pgettext("matches of a player", "won"),
    "lost": lazy_pgettext("matches of a player", "lost"),
    "drawn": lazy_pgettext("matches of a player", "drawn"),
}
SORTS = {"newest": lazy_gettext("Newest first"), "oldest": lazy_gettext("Oldest first")}


@dataclass(frozen=True)
class HistorySearch:
    """The filters as asked (to show them back and to put in links), and problems."""

    player: str = ""
    partner: str = ""
    variant: str = ""
    result: str = ""
    since: str = ""
    until: str = ""
    sort: str = "newest"
    league: str = ""  # a league's id: its group, games and evenings (see `match_scope`)
    event: str = ""  # an event's id: its table matches
    problems: dict[str, str] = field(default_factory=dict)

    def args(self) -> dict[str, str]:
        """The filters in use as URL parameters (empty ones and the default sort left out)."""
        values = {
            "player": self.player,
            "partner": self.partner,
            "variant": self.variant,
            "result": self.result,
            "from": self.since,
            "to": self.until,
            "sort": "" if self.sort == "newest" else self.sort,
            "league": self.league,
            "event": self.event,
        }
        return {key: value for key, value in values.items() if value}

    @property
    def oldest_first(self) -> bool:
        return self.sort == "oldest"


def read_date(raw: str, name: str, problems: dict[str, str]) -> date | None:
    """A YYYY-MM-DD parameter (None when empty); a problem noted under `name` otherwise.

    The last day there is cannot be a period's end: the period runs to the start of the
    next day, which no calendar has."""
    if not raw:
        return None
    try:
        if len(raw) == len("2025-01-31"):
            found = date.fromisoformat(raw)
            if found < date.max:
                return found
            problems[name] = gettext(
                "%(date)s is past the last date the calendar can count to", date=repr(raw)
            )
            return None
    except ValueError:
        pass
    problems[name] = gettext("%(date)s is not a date: write it as YYYY-MM-DD", date=repr(raw))
    return None


def read_search(args: Mapping[str, str]) -> HistorySearch:
    """The search in the URL's parameters, each checked; a problem in words per field."""
    problems: dict[str, str] = {}

    def text(name: str) -> str:
        return args.get(name, "").strip()[:NAME_LIMIT]

    player, partner, variant = text("player"), text("partner"), text("variant")
    result, sort = text("result"), text("sort") or "newest"
    since, until = text("from")[:20], text("to")[:20]
    if variant not in PRESETS:
        variant = ""  # a game this version does not have: every game (as links of old)
    if result and result not in RESULTS:
        problems["result"] = gettext("Choose won, lost or drawn")
    elif result == "won" and not player:
        problems["result"] = gettext("Choose whose matches to see them won")
    elif result == "lost" and not player:
        problems["result"] = gettext("Choose whose matches to see them lost")
    if partner and not player:
        problems["partner"] = gettext("Choose a player to find their matches with this partner")
    elif partner and name_key(partner) == name_key(player):
        problems["partner"] = gettext("Choose someone else as the partner")
    if sort not in SORTS:
        problems["sort"] = gettext("Choose newest or oldest first")
    first, last = read_date(since, "from", problems), read_date(until, "to", problems)
    if first and last and first > last:
        problems["to"] = gettext("The end of the period comes before its start")
    league, event = text("league")[:12], text("event")[:12]
    return HistorySearch(
        player, partner, variant, result, since, until, sort, league, event, problems
    )


def _players(group_ids: list[int], name: str) -> ColumnElement[bool]:
    """Whether a side member is the player of this name (in any of these groups)."""
    players = select(Player.id).where(
        Player.group_id.in_(group_ids), Player.name_key == name_key(name)
    )
    return SideMember.player_id.in_(players)


def conditions(search: HistorySearch, group_ids: list[int]) -> list[ColumnElement[bool]]:
    """The search as conditions on a match (the player alone is `listing.history`'s)."""
    out: list[ColumnElement[bool]] = []
    if search.since:
        since = date.fromisoformat(search.since)
        out.append(Match.finished_at >= datetime.combine(since, time()))
    if search.until:
        until = date.fromisoformat(search.until)
        out.append(Match.finished_at < datetime.combine(until, time()) + timedelta(days=1))
    if search.partner:
        partner_sides = select(SideMember.side_id).where(_players(group_ids, search.partner))
        together = (
            select(Side.id)
            .join(SideMember, SideMember.side_id == Side.id)
            .where(
                Side.match_id == Match.id,
                _players(group_ids, search.player),
                Side.id.in_(partner_sides),
            )
            .exists()
        )
        out.append(together)
    if search.result == "drawn":
        out.append(Match.status == DRAWN)
    elif search.result in ("won", "lost"):
        won = (
            select(Side.id)
            .join(SideMember, SideMember.side_id == Side.id)
            .where(
                Side.match_id == Match.id,
                Side.seat == Match.winner,
                _players(group_ids, search.player),
            )
            .exists()
        )
        out += [Match.status == FINISHED, won if search.result == "won" else not_(won)]
    return out
