"""Helpers shared by the page blueprints."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable

from flask import abort, url_for
from flask_wtf import FlaskForm

from ..access import Level, MatchAccess, caller, no_match, require_match
from ..models import Match
from ..services.audit import Actor
from ..services.match_state import load_match
from ..validation import FieldError

LAST_GROUP = "last_group"  # in the session: the group a new match is offered in
URL_EDGES = "".join(map(chr, range(0x21)))  # C0 controls and space, dropped at both ends
URL_DROPPED = str.maketrans("", "", "\t\n\r")  # dropped anywhere in a URL
CONTROL = re.compile(r"[\x00-\x1f\x7f]")


def safe_next(target: str | None) -> str:
    """Only a path of this site: never a link to elsewhere.

    The target is read as a browser reads a link (the URL standard): spaces and control
    characters around it dropped, tabs and line breaks inside it dropped, backslashes
    taken for slashes. What is left must be a path ("/..."), not one starting "//",
    which a browser takes for another site's address.
    """
    path = (target or "").strip(URL_EDGES).translate(URL_DROPPED).replace("\\", "/")
    if path.startswith("/") and not path.startswith("//") and not CONTROL.search(path):
        return path
    return url_for("home.index")


def match_or_404(match_id: int) -> Match:
    """A match whose access was checked already (after a write, to show the page again)."""
    match = load_match(match_id)
    if match is None:
        abort(404, description=no_match(match_id))
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
