"""JSON API, version 1 (../shared/API.md), one blueprint per feature.

Every answer is JSON, errors included; clients call it without a CSRF token.
"""

from __future__ import annotations

from flask import Blueprint

from . import exports, leagues, matches, players, scoring, stats, variants

BLUEPRINTS: tuple[Blueprint, ...] = (
    variants.bp,
    scoring.bp,
    matches.bp,
    exports.bp,
    stats.bp,
    players.bp,
    leagues.bp,
)
