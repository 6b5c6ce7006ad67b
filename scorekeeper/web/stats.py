"""A group's statistics page and a player's page, the filters in the URL (GET forms)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import cast

from flask import Blueprint, abort, render_template, request
from flask.typing import ResponseReturnValue
from flask_login import current_user
from sqlalchemy import select

from .. import words
from ..access import login_required
from ..clubs import PlayerRating
from ..extensions import db
from ..ids import MAX_ID
from ..models import Group, Player, Role, User
from ..rules import PRESETS
from ..services import groups, ratings
from ..services.events import events_in, mark_text, table_marks
from ..services.leagues import leagues_of
from ..services.results import HeadToHead, head_to_head, timeline
from ..services.statistics import StatsFilter, statistics
from ..services.stats_query import player_named, read_query
from ..words.translate import gettext, ngettext
from .charts import results_chart
from .groups import link_form

bp = Blueprint("stats", __name__, url_prefix="/groups")

ROWS_SHOWN = 40  # players (and partnerships) a page lists at most: the most winning first


@dataclass(frozen=True)
class PlayerRatings:
    """A player's ratings in one group (whether they are current, and each family's)."""

    group_id: int
    current: bool
    ratings: list[PlayerRating]


def _group(group_id: int) -> Group:
    """A group of the signed-in user's, else 404 (as another group's match)."""
    group = db.session.get(Group, group_id) if 0 < group_id <= MAX_ID else None
    if group is None or groups.role_in(group_id, cast(User, current_user)) is None:
        abort(404, description=gettext("There is no such group among yours."))
    return group


@bp.app_template_global()
def outcome_text(outcome: str) -> str:
    """A match's result for a player: won, drawn or lost."""
    return {"won": gettext("Won"), "drawn": gettext("Drawn"), "lost": gettext("Lost")}.get(
        outcome, outcome
    )


@bp.app_template_global()
def duel_text(duel: HeadToHead, first: str, second: str, *, opposite: bool) -> str:
    """Two players' (or partnerships') matches against each other, in a sentence."""
    count = words.number(duel.matches)
    if opposite:
        matches = ngettext(
            "%(count)s match on opposite sides",
            "%(count)s matches on opposite sides",
            duel.matches,
            count=count,
        )
    else:
        matches = ngettext(
            "%(count)s match against each other",
            "%(count)s matches against each other",
            duel.matches,
            count=count,
        )
    said = {
        "matches": matches,
        "first": first,
        "first_wins": words.number(duel.a_wins),
        "second": second,
        "second_wins": words.number(duel.b_wins),
        "draws": words.number(duel.draws),
    }
    if duel.others:
        return gettext(
            "%(matches)s: %(first)s won %(first_wins)s, %(second)s won %(second_wins)s, "
            "%(draws)s drawn, %(others)s won by someone else.",
            others=words.number(duel.others),
            **said,
        )
    return gettext(
        "%(matches)s: %(first)s won %(first_wins)s, %(second)s won %(second_wins)s, "
        "%(draws)s drawn.",
        **said,
    )


def _team_key(player_ids: tuple[int, ...]) -> str:
    """A partnership in a URL: its players' ids, lowest first ("3-7")."""
    return "-".join(str(i) for i in sorted(player_ids))


@bp.get("/<int:group_id>/stats")
@login_required
def group_stats(group_id: int) -> ResponseReturnValue:
    group = _group(group_id)
    query = read_query(request.args, (group_id,))
    problems = dict(query.problems)
    against = request.args.get("against", "").strip()[:40]
    rival = player_named((group_id,), against) if against else None
    if against and rival is None:
        problems["against"] = gettext("Nobody called %(name)s has played here", name=repr(against))
    found = statistics(query.where) if query.where and not problems else None
    duel = team_duel = None
    team, versus = request.args.get("team", "")[:40], request.args.get("vs", "")[:40]
    if found is not None and query.where:
        everything = StatsFilter(
            (group_id,),
            query.where.variant,
            query.where.since,
            query.where.until,
            scope=query.where.scope,
        )
        if query.player_id and rival:
            duel = head_to_head(everything, (query.player_id,), (rival.id,))
        teams = {_team_key(r.player_ids): r.player_ids for r in found.partnerships}
        for name, value in (("team", team), ("vs", versus)):
            if value and value not in teams:
                problems[name] = gettext("Choose partners from the list")
        if team in teams and versus in teams and not set(teams[team]) & set(teams[versus]):
            team_duel = head_to_head(everything, teams[team], teams[versus])
        elif team in teams and versus in teams:
            problems["vs"] = gettext("Choose two partnerships with nobody in common")
    current = ratings.current([group_id])[group_id]
    chosen = PRESETS.get(query.variant)
    families = [chosen.family] if chosen else ratings.families_played(group_id)
    rated = (
        [(f, ratings.family_table(group_id, f)[:ROWS_SHOWN]) for f in families] if current else []
    )
    return render_template(
        "stats.html",
        rated=rated,
        ratings_current=current,
        leagues=leagues_of([group_id]),
        events=events_in([group_id]),
        group=group,
        query=query,
        problems=problems,
        against=against,
        rival=rival,
        duel=duel,
        team=team,
        versus=versus,
        team_duel=team_duel,
        team_key=_team_key,
        stats=found,
        shown=ROWS_SHOWN,
        players=groups.players(group_id),
        presets=list(PRESETS.values()),
    ), (400 if problems else 200)


@bp.get("/<int:group_id>/players/<int:player_id>")
@login_required
def player(group_id: int, player_id: int) -> ResponseReturnValue:
    """A player's record in each group of the viewer's where they play (the players
    linked to one account are one person), and their latest results as a chart."""
    _group(group_id)
    admin = groups.role_in(group_id, cast(User, current_user)) == Role.ADMIN
    chosen = groups.player_in(group_id, player_id) if 0 < player_id <= MAX_ID else None
    if chosen is None:
        abort(404, description=gettext("There is no such player in this group."))
    mine = groups.group_ids(cast(User, current_user))
    same = [chosen]
    if chosen.user_id is not None:
        same = list(
            db.session.execute(
                select(Player)
                .where(Player.user_id == chosen.user_id, Player.group_id.in_(mine))
                .order_by(Player.group_id)
            ).scalars()
        )
    ids = {p.id for p in same}
    where = StatsFilter(tuple(p.group_id for p in same if p.group_id is not None))
    records = [r for r in statistics(where).players if r.player_ids[0] in ids]
    names = dict(
        db.session.execute(select(Group.id, Group.name).where(Group.id.in_(where.group_ids))).all()
    )
    results = timeline(where, tuple(ids), together=False)
    chart = results_chart(chosen.name, [result.outcome for result in results])
    current = ratings.current(names)
    held = ratings.ratings_of([p.id for p in same])
    shown = [
        PlayerRatings(p.group_id, current.get(p.group_id, True), held[p.id])
        for p in same
        if p.group_id is not None
    ]
    return render_template(
        "player.html",
        ratings=shown,
        group_id=group_id,
        player=chosen,
        records=records,
        group_names=names,
        results=results,
        events={
            match_id: mark_text(mark)
            for match_id, mark in table_marks([r.match_id for r in results]).items()
        },
        chart=chart,
        # The group's admins change the player's name and account link here.
        link=link_form(group_id) if admin else None,
    )
