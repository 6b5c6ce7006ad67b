"""Scorekeeper: a score keeper for Canasta-family card games."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from collections.abc import Mapping

    from flask import Flask


def create_app(test_config: Mapping[str, Any] | None = None) -> Flask:
    """The app factory. Flask is imported here, not at package import, so that
    `scorekeeper.rules` stays usable without the web stack."""
    from .app import create_app as factory

    return factory(test_config)
