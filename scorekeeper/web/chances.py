"""Each side's chance to win, from the players' ratings: asked by the new-match page once
its seats are filled (the page works without it), and shown on a scoreboard."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import cast

from flask import Blueprint, abort, render_template, request
from flask.typing import ResponseReturnValue
from flask_login import current_user
from sqlalchemy import select

from ..access import login_required
from ..extensions import db
from ..ids import id_of
from ..models import Match, MatchStatus, Player, User, name_key
from ..rules import PRESETS, GameFamily
from ..services import groups, ratings
from ..services.rated_matches import family_of
from ..words.translate import gettext
from .match_form import seats

bp = Blueprint("chances", __name__)


def chances_text(
    group_id: int, family: GameFamily, sides: Sequence[Sequence[int]], names: Sequence[str]
) -> list[tuple[str, float]] | str | None:
    """(side, chance) for each side when every player has a rating in the family; the
    words "being brought up to date" while the group's ratings are; else None."""
    if not ratings.current([group_id])[group_id]:
        return gettext("Chances to win show again once the ratings are up to date.")
    found = ratings.chances(family, sides)
    if found is None:
        return None
    return list(zip(names, found, strict=True))


@bp.get("/matches/new/<key>/chances")
@login_required
def new_match(key: str) -> ResponseReturnValue:
    """The chances of the sides the new-match form names (`seat_N`, `group`, `layout`)."""
    preset = PRESETS.get(key)
    if preset is None:
        abort(404, description=gettext("There is no variant called %(key)s.", key=repr(key)))
    layout_key = request.args.get("layout", "")
    layout = next((lay for lay in preset.layouts if lay.key == layout_key), preset.layouts[0])
    user = cast(User, current_user)
    mine = groups.group_ids(user)
    group_id = id_of(request.args.get("group"))
    if group_id not in mine:
        group_id = groups.personal_group(user).id
    by_side: list[list[str]] = [[] for _ in range(layout.sides)]
    for seat in seats(layout):
        name = request.args.get(seat.field, "").strip()[:40]
        if not name:
            return "", 204
        by_side[seat.side].append(name)
    keys = {name_key(name) for side in by_side for name in side}
    players = dict(
        db.session.execute(
            select(Player.name_key, Player.id).where(
                Player.group_id == group_id, Player.name_key.in_(keys)
            )
        ).all()
    )
    if len(players) != len(keys):
        return "", 204  # a newcomer has no rating yet
    sides = [[players[name_key(name)] for name in side] for side in by_side]
    found = chances_text(group_id, preset.family, sides, [" & ".join(s) for s in by_side])
    if found is None:
        return "", 204
    return render_template("_chances.html", chances=found)


@dataclass(frozen=True)
class ChanceQuestion:
    """Whose chances a scoreboard asks for: kept with the board's view at one revision,
    answered at each reading, as ratings move when other matches finish."""

    group_id: int
    family: GameFamily
    sides: tuple[tuple[int, ...], ...]
    names: tuple[str, ...]

    def answer(self) -> list[tuple[str, float]] | str | None:
        return chances_text(self.group_id, self.family, self.sides, self.names)


def chance_question(match: Match) -> ChanceQuestion | None:
    """The chances a match being played asks for (from the ratings before it); None when
    over, or when its game has no rating family."""
    if match.group_id is None or match.status in (
        MatchStatus.FINISHED,
        MatchStatus.DRAWN,
        MatchStatus.ABANDONED,
    ):
        return None
    family = family_of(match.variant, match.rules.get("family"))
    if family is None:
        return None
    return ChanceQuestion(
        match.group_id,
        family,
        tuple(tuple(member.player_id for member in side.members) for side in match.sides),
        tuple(side.name for side in match.sides),
    )
