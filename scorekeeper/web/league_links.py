"""A league's viewer links: made and revoked by the group's members (with their QR codes),
opened by anyone: the standings, following new results, and the players' league cards."""

from __future__ import annotations

from typing import cast

from flask import Blueprint, abort, flash, redirect, render_template, url_for
from flask.typing import ResponseReturnValue
from flask_login import current_user
from flask_wtf import FlaskForm
from werkzeug.wrappers import Response

from ..access import login_required
from ..models import User
from ..season_models import League
from ..services import leagues
from ..services.league_tables import league_table, tag_of
from ..services.storage import transaction
from ..words.translate import gettext
from .leagues import card_view, csv_response, league_for, standings_html, standings_response
from .qr import shown_links

bp = Blueprint("league_links", __name__)


def _back(group_id: int, league_id: int) -> Response:
    return redirect(url_for(".share", group_id=group_id, league_id=league_id), code=303)


@bp.get("/groups/<int:group_id>/leagues/<int:league_id>/share")
@login_required
def share(group_id: int, league_id: int) -> ResponseReturnValue:
    group, league = league_for(group_id, league_id)
    links, loopback_only = shown_links(leagues.links_of(league.id), "league_links.viewer")
    return render_template(
        "league_share.html", group=group, league=league, links=links, loopback_only=loopback_only
    )


@bp.post("/groups/<int:group_id>/leagues/<int:league_id>/share")
@login_required
def new_link(group_id: int, league_id: int) -> ResponseReturnValue:
    _, league = league_for(group_id, league_id)
    if FlaskForm().validate_on_submit():
        with transaction():
            leagues.new_link(league, cast(User, current_user))
        flash(gettext("A viewer link is ready: whoever opens it follows the standings."))
    return _back(group_id, league_id)


@bp.post("/groups/<int:group_id>/leagues/<int:league_id>/share/<int:link_id>/revoke")
@login_required
def revoke_link(group_id: int, league_id: int, link_id: int) -> ResponseReturnValue:
    _, league = league_for(group_id, league_id)
    if FlaskForm().validate_on_submit():
        with transaction():
            done = leagues.revoke_link(league, link_id)
        flash(
            gettext("The link stopped working.")
            if done
            else gettext("That link was already revoked.")
        )
    return _back(group_id, league_id)


def _opened(token: str) -> League:
    league = leagues.open_link(token)
    if league is None:
        abort(404, description=gettext("This link does not work: it was revoked, or is mistyped."))
    return league


@bp.get("/l/<token>")
def viewer(token: str) -> ResponseReturnValue:
    league = _opened(token)
    table = league_table(league)

    def card_url(player_id: int) -> str:
        return url_for(".viewer_card", token=token, player_id=player_id)

    html = standings_html(table, card_url)
    return render_template(
        "league.html",
        group=None,
        table=table,
        standings=html,
        etag=tag_of(str(html)),
        live_url=url_for(".viewer_standings", token=token),
        director=False,
        played={},
        problems={},
        asked={},
        viewer=token,
    )


@bp.get("/l/<token>/standings")
def viewer_standings(token: str) -> ResponseReturnValue:
    league = _opened(token)

    def card_url(player_id: int) -> str:
        return url_for(".viewer_card", token=token, player_id=player_id)

    return standings_response(standings_html(league_table(league), card_url))


@bp.get("/l/<token>/standings.csv")
def viewer_csv(token: str) -> ResponseReturnValue:
    return csv_response(league_table(_opened(token)))


@bp.get("/l/<token>/players/<int:player_id>")
def viewer_card(token: str, player_id: int) -> ResponseReturnValue:
    table = league_table(_opened(token))
    return card_view(table, player_id, back=url_for(".viewer", token=token), group=None)
