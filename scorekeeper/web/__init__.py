"""Server-rendered pages, one blueprint per feature."""

from __future__ import annotations

from flask import Blueprint

from . import hands, history, home, matches, rulebook, shell

BLUEPRINTS: tuple[Blueprint, ...] = (
    home.bp,
    matches.bp,
    hands.bp,
    history.bp,
    rulebook.bp,
    shell.bp,
)
