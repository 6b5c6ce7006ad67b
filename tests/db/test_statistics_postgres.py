"""The statistics on PostgreSQL: the same tests as on SQLite
(JSON fields, window functions and common table expressions differ between the two)."""

from __future__ import annotations

import pytest

from scorekeeper.extensions import db
from tests.support import TESTER, add_user
from tests.web.test_statistics import (  # noqa: F401 (collected here too)
    season,
    test_a_players_results_over_time_oldest_first,
    test_each_players_record_is_worked_out_from_the_matches_played_to_the_end,
    test_filters_by_variant_player_and_period,
    test_head_to_head_of_two_players_and_of_two_partnerships,
    test_partnerships_are_the_same_players_whatever_their_seats,
    test_the_statistics_run_as_many_queries_for_2000_matches_as_for_10,
)

from .conftest import make_app

__all__ = [
    "test_a_players_results_over_time_oldest_first",
    "test_each_players_record_is_worked_out_from_the_matches_played_to_the_end",
    "test_filters_by_variant_player_and_period",
    "test_head_to_head_of_two_players_and_of_two_partnerships",
    "test_partnerships_are_the_same_players_whatever_their_seats",
    "test_the_statistics_run_as_many_queries_for_2000_matches_as_for_10",
]


@pytest.fixture
def app(postgres_schema_url):
    """The app on an empty PostgreSQL schema, with TESTER (as the SQLite `app`)."""
    app = make_app(postgres_schema_url)
    with app.app_context():
        db.create_all()
    add_user(app, TESTER, admin=True)
    yield app
    with app.app_context():
        db.session.remove()
        db.engine.dispose()
