"""A group's leagues: the list and a new league, a league's standings (live), a player's
league card, the standings as CSV, substitutes credited by the director, and the
league's settings. Viewer links are `league_links`'."""

from __future__ import annotations

from collections.abc import Mapping
from datetime import date
from typing import Any, cast

from flask import (
    Blueprint,
    Response,
    abort,
    flash,
    redirect,
    render_template,
    request,
    url_for,
)
from flask.typing import ResponseReturnValue
from flask_login import current_user
from flask_wtf import FlaskForm
from markupsafe import Markup
from werkzeug.datastructures import MultiDict

from ..access import login_required
from ..extensions import db
from ..ids import MAX_ID, id_of
from ..models import Group, User
from ..rules import PRESETS
from ..season_models import League
from ..services import groups, leagues, ratings
from ..services.league_tables import LeagueTable, card, league_table, standings_csv, tag_of
from ..services.storage import transaction
from ..validation import FieldError, ValidationError
from ..words import seasons as season_words
from ..words.translate import gettext

bp = Blueprint("leagues", __name__, url_prefix="/groups/<int:group_id>/leagues")
POLL_SECONDS = 2  # a league page asks for news this often: results show within 3 seconds


def _me() -> User:
    return cast(User, current_user)


def _group(group_id: int) -> Group:
    group = db.session.get(Group, group_id) if 0 < group_id <= MAX_ID else None
    if group is None or groups.role_in(group_id, _me()) is None:
        abort(404, description=gettext("There is no such group among yours."))
    return group


def league_for(group_id: int, league_id: int, director: bool = False) -> tuple[Group, League]:
    group = _group(group_id)
    league = leagues.league_in([group_id], league_id)
    if league is None:
        abort(404, description=gettext("There is no such league in this group."))
    if director and not leagues.is_director(league, _me()):
        abort(403, description=gettext("Only the league's director can do that."))
    return group, league


def _form_data(form: Mapping[str, Any]) -> dict[str, Any]:
    """The league form as `leagues.read_league` reads it (no game ticked: every game)."""
    chosen = form.getlist("variants") if isinstance(form, MultiDict) else []
    return {
        "name": form.get("name", ""),
        "start": form.get("start", ""),
        "end": form.get("end", ""),
        "scoring": form.get("scoring", ""),
        "variants": chosen or None,
        "best_of": form.get("best_of", ""),
        "min_evenings": form.get("min_evenings", "") or "1",
    }


def _by_field(problems: tuple[FieldError, ...]) -> dict[str, list[str]]:
    found: dict[str, list[str]] = {}
    for problem in problems:
        name = (problem.field or "form").split("[")[0]
        found.setdefault(name, []).append(problem.message)
    return found


def _blank_form() -> dict[str, Any]:
    today = date.today()
    return {
        "name": "",
        "start": today.replace(day=1).isoformat(),
        "end": "",
        "scoring": "wdl",
        "variants": None,
        "best_of": "",
        "min_evenings": "1",
    }


def _form_of(league: League) -> dict[str, Any]:
    return {
        "name": league.name,
        "start": league.start.isoformat(),
        "end": league.end.isoformat(),
        "scoring": league.scoring,
        "variants": league.variants,
        "best_of": "" if league.best_of is None else str(league.best_of),
        "min_evenings": str(league.min_evenings),
    }


@bp.route("", methods=["GET", "POST"])
@login_required
def index(group_id: int) -> ResponseReturnValue:
    group = _group(group_id)
    values, problems, status = _blank_form(), {}, 200
    if request.method == "POST":
        values = _form_data(request.form)
        status = 422
        if not FlaskForm().validate_on_submit():
            problems = {"form": [gettext("This form had expired: check it and send it again.")]}
        else:
            try:
                settings = leagues.read_league(values)
                with transaction():
                    league = leagues.create_league(group_id, _me(), settings)
                    league_id = league.id
                flash(gettext("The league is ready: its table fills as matches finish."))
                return redirect(url_for(".detail", group_id=group_id, league_id=league_id), 303)
            except ValidationError as error:
                problems = _by_field(error.problems)
    return render_template(
        "leagues.html",
        group=group,
        leagues=leagues.leagues_of([group_id]),
        values=values,
        problems=problems,
        presets=list(PRESETS.values()),
    ), status


def standings_html(table: LeagueTable, card_url: Any) -> Markup:
    """The live part of a league page: the standings, their legend and the credits."""
    family = table.family()
    current = ratings.current([table.league.group_id])[table.league.group_id]
    shown = {}
    if family is not None and current:
        for player, found in ratings.ratings_of([row.player for row in table.rows]).items():
            rating = next((r for r in found if r.family == family), None)
            if rating is not None:
                shown[player] = rating
    return Markup(
        render_template(
            "_league_standings.html",
            table=table,
            family=family,
            ratings=shown,
            ratings_current=current,
            card_url=card_url,
        )
    )


def standings_response(html: Markup) -> Response:
    """The standings for a page that follows them: 304 while their bytes are the same."""
    tag = tag_of(str(html))
    fresh = request.if_none_match.contains_weak(tag)
    response = Response(status=304) if fresh else Response(str(html), mimetype="text/html")
    response.set_etag(tag, weak=True)
    response.cache_control.no_cache = True
    response.cache_control.private = True
    return response


@bp.get("/<int:league_id>")
@login_required
def detail(group_id: int, league_id: int) -> ResponseReturnValue:
    group, league = league_for(group_id, league_id)
    return _league_page(group, league_table(league), {}, {})


def _league_page(
    group: Group, table: LeagueTable, problems: dict[str, list[str]], asked: Mapping[str, str]
) -> str:
    league = table.league

    def card_url(player_id: int) -> str:
        return url_for(".card_page", group_id=group.id, league_id=league.id, player_id=player_id)

    html = standings_html(table, card_url)
    return render_template(
        "league.html",
        group=group,
        table=table,
        standings=html,
        etag=tag_of(str(html)),
        live_url=url_for(".standings", group_id=group.id, league_id=league.id),
        director=leagues.is_director(league, _me()),
        played=table.played,
        problems=problems,
        asked=asked,
        viewer=None,
    )


@bp.get("/<int:league_id>/standings")
@login_required
def standings(group_id: int, league_id: int) -> ResponseReturnValue:
    _, league = league_for(group_id, league_id)

    def card_url(player_id: int) -> str:
        return url_for(".card_page", group_id=group_id, league_id=league_id, player_id=player_id)

    return standings_response(standings_html(league_table(league), card_url))


def csv_response(table: LeagueTable) -> Response:
    stem = "".join(c if c.isascii() and c.isalnum() else "-" for c in table.league.name.lower())
    stem = "-".join(part for part in stem.split("-") if part)[:40] or "league"
    response = Response(standings_csv(table), content_type="text/csv; charset=utf-8")
    response.headers["Content-Disposition"] = f'attachment; filename="{stem}.csv"'
    response.headers["Cache-Control"] = "private, no-store"
    return response


@bp.get("/<int:league_id>/standings.csv")
@login_required
def standings_file(group_id: int, league_id: int) -> ResponseReturnValue:
    _, league = league_for(group_id, league_id)
    return csv_response(league_table(league))


def card_view(table: LeagueTable, player_id: int, **context: Any) -> ResponseReturnValue:
    """A player's league card (their evenings, what counts, who sat for them)."""
    if player_id not in table.names:
        abort(404, description=gettext("There is no such player in this league's group."))
    row, evenings = card(table, player_id)
    group_id = table.league.group_id
    rating = None
    family = table.family()
    if family is not None and ratings.current([group_id])[group_id]:
        found = ratings.ratings_of([player_id])[player_id]
        rating = next((r for r in found if r.family == family), None)
    return render_template(
        "league_card.html",
        table=table,
        player_id=player_id,
        row=row,
        evenings=evenings,
        family=family,
        rating=rating,
        ratings_current=ratings.current([group_id])[group_id],
        **context,
    )


@bp.get("/<int:league_id>/players/<int:player_id>")
@login_required
def card_page(group_id: int, league_id: int, player_id: int) -> ResponseReturnValue:
    group, league = league_for(group_id, league_id)
    return card_view(
        league_table(league),
        player_id,
        back=url_for(".detail", group_id=group_id, league_id=league_id),
        group=group,
    )


@bp.post("/<int:league_id>/credits")
@login_required
def add_credit(group_id: int, league_id: int) -> ResponseReturnValue:
    group, league = league_for(group_id, league_id, director=True)
    table = league_table(league)
    problems: dict[str, list[str]] = {}
    if not FlaskForm().validate_on_submit():
        problems = {"form": [gettext("This form had expired: check it and send it again.")]}
    else:
        try:
            evening = date.fromisoformat(request.form.get("evening", ""))
        except ValueError:
            evening = None
        try:
            with transaction():
                leagues.add_credit(
                    league,
                    evening,
                    id_of(request.form.get("substitute")),
                    id_of(request.form.get("replaced")),
                    table.played,
                    _me(),
                )
            flash(gettext("Credited: the table counts that evening for the player replaced."))
            return redirect(url_for(".detail", group_id=group_id, league_id=league_id), 303)
        except ValidationError as error:
            problems = _by_field(error.problems)
    return _league_page(group, table, problems, request.form), 422


@bp.post("/<int:league_id>/credits/<int:credit_id>/remove")
@login_required
def remove_credit(group_id: int, league_id: int, credit_id: int) -> ResponseReturnValue:
    _, league = league_for(group_id, league_id, director=True)
    if FlaskForm().validate_on_submit():
        with transaction():
            done = leagues.remove_credit(league, credit_id)
        flash(
            gettext("The credit was taken back.")
            if done
            else gettext("That credit was already taken back.")
        )
    return redirect(url_for(".detail", group_id=group_id, league_id=league_id), 303)


@bp.route("/<int:league_id>/settings", methods=["GET", "POST"])
@login_required
def settings(group_id: int, league_id: int) -> ResponseReturnValue:
    group, league = league_for(group_id, league_id, director=True)
    values, problems, status = _form_of(league), {}, 200
    if request.method == "POST":
        values, status = _form_data(request.form), 422
        if not FlaskForm().validate_on_submit():
            problems = {"form": [gettext("This form had expired: check it and send it again.")]}
        else:
            try:
                changed = leagues.read_league(values)
                with transaction():
                    found = leagues.league_in([group_id], league_id)
                    assert found is not None
                    leagues.change_league(found, changed)
                flash(gettext("The league's settings are saved."))
                return redirect(url_for(".detail", group_id=group_id, league_id=league_id), 303)
            except ValidationError as error:
                problems = _by_field(error.problems)
    return render_template(
        "league_settings.html",
        group=group,
        league=league,
        values=values,
        problems=problems,
        presets=list(PRESETS.values()),
    ), status


@bp.post("/<int:league_id>/delete")
@login_required
def delete(group_id: int, league_id: int) -> ResponseReturnValue:
    league_for(group_id, league_id, director=True)
    if FlaskForm().validate_on_submit():
        with transaction():
            found = leagues.league_in([group_id], league_id)
            assert found is not None
            leagues.delete_league(found)
        flash(gettext("The league was deleted. Its matches stay in the history."))
        return redirect(url_for(".index", group_id=group_id), 303)
    return redirect(url_for(".settings", group_id=group_id, league_id=league_id), 303)


@bp.record_once
def _words_in_templates(state: Any) -> None:
    """Templates say ratings, evenings and leagues through `seasons` (the words edge)."""
    state.app.add_template_global(season_words, "seasons")
