"""Leagues of a group: their settings (checked whole), the substitutes their director
credits, and their viewer links. The standings are `league_tables`'.

A league's director is the member who created it, or any admin of its group (as an
event's). Any member of the group may create a league, read it and share it.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import date
from typing import Any

from sqlalchemy import select

from ..clubs import LeagueScoring, Problem, league_settings_problems
from ..extensions import db
from ..models import NAME_LENGTH, Player, Role, User
from ..rules import PRESETS
from ..season_models import League, LeagueCredit, LeagueLink
from ..validation import FieldError, ValidationError
from ..words.seasons import league_problem
from ..words.translate import gettext
from . import links, names
from .groups import role_in
from .match_setup import clean_name

LEAGUE_NAME_LENGTH = NAME_LENGTH * 2
FIRST_DAY, LAST_DAY = date(1900, 1, 1), date(9998, 12, 31)
FIELDS = ("name", "group", "start", "end", "variants", "scoring", "best_of", "min_evenings")


@dataclass(frozen=True)
class LeagueInput:
    """A league's settings as checked: `variants` None for every game."""

    name: str
    start: date
    end: date
    variants: tuple[str, ...] | None
    scoring: LeagueScoring
    best_of: int | None
    min_evenings: int


def _date(raw: object) -> date | None:
    if not isinstance(raw, str):
        return None
    try:
        found = date.fromisoformat(raw.strip())
    except ValueError:
        return None
    return found if FIRST_DAY <= found <= LAST_DAY else None


def _count(raw: object) -> object:
    """A count from JSON (a number) or a form (digits; empty: left out)."""
    if isinstance(raw, str):
        text = raw.strip()
        if not text:
            return None
        return int(text) if text.isascii() and text.isdigit() and len(text) < 6 else text
    return raw


def read_league(data: Mapping[str, Any]) -> LeagueInput:
    """A league's settings from the API's JSON or the page's form; raises ValidationError
    with every problem at once, each in words at its field."""
    problems: list[Problem] = []
    found: list[FieldError] = []
    name = clean_name(data.get("name"))
    if not name or len(name) > LEAGUE_NAME_LENGTH:
        problems.append(Problem("name", "league.name_needed", {"max": LEAGUE_NAME_LENGTH}))
    else:
        hidden = names.problem(name, person=False)
        if hidden:
            found.append(FieldError(None, "name", hidden))
    start, end = _date(data.get("start")), _date(data.get("end"))
    best_of = _count(data.get("best_of"))
    min_evenings = _count(data.get("min_evenings"))
    min_evenings = 1 if min_evenings is None else min_evenings
    scoring = data.get("scoring")
    scoring = scoring if isinstance(scoring, str) else None
    problems += league_settings_problems(start, end, scoring, best_of, min_evenings)
    variants = data.get("variants")
    chosen: tuple[str, ...] | None = None
    if variants is not None:
        if not isinstance(variants, list) or not variants:
            problems.append(Problem("variants", "league.no_variants"))
        else:
            for index, key in enumerate(variants):
                if not isinstance(key, str) or key not in PRESETS:
                    shown = key if isinstance(key, str) else str(key)
                    problems.append(
                        Problem(f"variants[{index}]", "league.unknown_variant", {"variant": shown})
                    )
            chosen = tuple(k for k in PRESETS if k in variants)
    found += [league_problem(problem) for problem in problems]
    if found:
        order = {name: index for index, name in enumerate(FIELDS)}
        found.sort(key=lambda p: order.get((p.field or "").split("[")[0], len(order)))
        raise ValidationError(found)
    assert start is not None
    assert end is not None
    assert isinstance(min_evenings, int)
    assert best_of is None or isinstance(best_of, int)
    return LeagueInput(name, start, end, chosen, LeagueScoring(str(scoring)), best_of, min_evenings)


def create_league(group_id: int, creator: User | None, settings: LeagueInput) -> League:
    league = League(group_id=group_id, created_by=creator.id if creator else None)
    _apply(league, settings)
    db.session.add(league)
    db.session.flush()
    return league


def _apply(league: League, settings: LeagueInput) -> None:
    league.name, league.start, league.end = settings.name, settings.start, settings.end
    league.variants = list(settings.variants) if settings.variants is not None else None
    league.scoring = settings.scoring.value
    league.best_of, league.min_evenings = settings.best_of, settings.min_evenings


def change_league(league: League, settings: LeagueInput) -> None:
    _apply(league, settings)


def leagues_of(group_ids: Sequence[int]) -> list[League]:
    """The leagues of these groups, the latest season first."""
    return list(
        db.session.execute(
            select(League)
            .where(League.group_id.in_(group_ids))
            .order_by(League.end.desc(), League.start.desc(), League.id.desc())
        ).scalars()
    )


def league_in(group_ids: Sequence[int], league_id: int) -> League | None:
    league = db.session.get(League, league_id) if 0 < league_id < 2**31 else None
    return league if league is not None and league.group_id in group_ids else None


def variants_of(league: League) -> list[str]:
    """The games that count (every game when the league names none)."""
    return list(league.variants) if league.variants is not None else list(PRESETS)


def is_director(league: League, user: User) -> bool:
    return league.created_by == user.id or role_in(league.group_id, user) == Role.ADMIN


def delete_league(league: League) -> None:
    db.session.delete(league)


# --- substitutes ----------------------------------------------------------------------


def credits_of(league_id: int) -> list[LeagueCredit]:
    return list(
        db.session.execute(
            select(LeagueCredit)
            .where(LeagueCredit.league_id == league_id)
            .order_by(LeagueCredit.evening, LeagueCredit.id)
        ).scalars()
    )


def add_credit(
    league: League,
    evening: date | None,
    substitute_id: int | None,
    replaced_id: int | None,
    played: Mapping[date, set[int]],
    director: User,
) -> LeagueCredit:
    """The director's word that the substitute's evening counts for the player replaced.
    `played`: who played on each evening of the league (before any credit)."""
    problems = []
    if evening is None or evening not in played:
        problems.append(FieldError(None, "evening", gettext("Choose an evening of the league")))
    elif substitute_id not in played[evening]:
        problems.append(FieldError(None, "substitute", gettext("Choose who played that evening")))
    players = {
        p.id
        for p in db.session.execute(
            select(Player).where(Player.group_id == league.group_id)
        ).scalars()
    }
    if replaced_id not in players:
        problems.append(FieldError(None, "replaced", gettext("Choose a player of this group")))
    elif replaced_id == substitute_id:
        problems.append(
            FieldError(None, "replaced", gettext("Choose someone other than the substitute"))
        )
    if not problems:
        taken = db.session.execute(
            select(LeagueCredit.id).where(
                LeagueCredit.league_id == league.id,
                LeagueCredit.evening == evening,
                LeagueCredit.substitute_id == substitute_id,
            )
        ).first()
        if taken is not None:
            problems.append(
                FieldError(
                    None,
                    "substitute",
                    gettext("This substitute is already credited to someone that evening"),
                )
            )
    if problems:
        raise ValidationError(problems)
    assert evening is not None
    assert substitute_id is not None
    assert replaced_id is not None
    credit = LeagueCredit(
        league_id=league.id,
        evening=evening,
        substitute_id=substitute_id,
        replaced_id=replaced_id,
        created_by=director.id,
    )
    db.session.add(credit)
    db.session.flush()
    return credit


def remove_credit(league: League, credit_id: int) -> bool:
    credit = db.session.get(LeagueCredit, credit_id) if 0 < credit_id < 2**31 else None
    if credit is None or credit.league_id != league.id:
        return False
    db.session.delete(credit)
    return True


# --- viewer links ---------------------------------------------------------------------


def new_link(league: League, creator: User) -> LeagueLink:
    return links.added(
        LeagueLink(league_id=league.id, token=links.new_token(), created_by=creator.id)
    )


def links_of(league_id: int) -> list[LeagueLink]:
    return links.live(LeagueLink, LeagueLink.league_id, league_id)


def revoke_link(league: League, link_id: int) -> bool:
    return links.revoke(LeagueLink, LeagueLink.league_id, league.id, link_id)


def open_link(token: str) -> League | None:
    """The league a viewer link shows, while the link is not revoked (one query: the
    league's page is read through it on every poll)."""
    if not token or len(token) > links.MAX_TOKEN_LENGTH:
        return None
    return db.session.execute(
        select(League)
        .join(LeagueLink, LeagueLink.league_id == League.id)
        .where(LeagueLink.token == token, LeagueLink.revoked_at.is_(None))
    ).scalar_one_or_none()
