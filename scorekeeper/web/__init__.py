"""Server-rendered pages, one blueprint per feature."""

from __future__ import annotations

from flask import Blueprint

from . import (
    auth,
    chances,
    groups,
    hands,
    history,
    home,
    league_links,
    leagues,
    match_changes,
    matches,
    rulebook,
    sharing,
    shell,
    stats,
)
from . import exports as exports_pages

BLUEPRINTS: tuple[Blueprint, ...] = (
    auth.bp,
    home.bp,
    groups.bp,
    groups.invites_bp,
    exports_pages.bp,
    matches.bp,
    hands.bp,
    sharing.bp,
    match_changes.bp,
    history.bp,
    rulebook.bp,
    shell.bp,
    stats.bp,
    leagues.bp,
    league_links.bp,
    chances.bp,
)
