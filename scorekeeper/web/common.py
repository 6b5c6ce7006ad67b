"""Helpers shared by the page blueprints."""

from __future__ import annotations

from collections.abc import Callable, Iterable

from flask import abort
from flask_wtf import FlaskForm

from ..access import Level, MatchAccess, caller, require_match
from ..models import Match
from ..services.audit import Actor
from ..services.match_state import load_match
from ..validation import FieldError

LAST_GROUP = "last_group"  # in the session: the group a new match is offered in


def signed(points: int) -> str:
    """Points with their sign: +50, -30, 0 (a template filter: a scoreboard shows two
    a hand, and a Jinja macro call costs several times a filter's)."""
    return f"+{points}" if points > 0 else str(points)


def match_or_404(match_id: int) -> Match:
    """A match whose access was checked already (after a write, to show the page again)."""
    match = load_match(match_id)
    if match is None:
        abort(404, description=f"There is no match {match_id}. The address may be mistyped.")
    return match


def match_for(match_id: int, need: Level = Level.VIEWER) -> tuple[Match, MatchAccess]:
    """The match if the caller may do what `need` says with it (else sign in, 404 or 403)."""
    access = require_match(match_id, need)
    return match_or_404(match_id), access


def actor_of(access: MatchAccess) -> Actor:
    return Actor(*access.actor(caller()))


def add_problems(
    form: FlaskForm, problems: Iterable[FieldError], field_for: Callable[[FieldError], str | None]
) -> list[str]:
    """Attach each problem to its field; return the ones that belong at the top.

    A field that already says what is wrong with its input keeps that one message.
    """
    top: list[str] = []
    already = {field.name for field in form if field.errors}
    for problem in problems:
        name = field_for(problem)
        field = form[name] if name and name in form else None
        if field is None:
            top.append(problem.message)
        elif name not in already:
            field.errors = [*field.errors, problem.message]
    return top
