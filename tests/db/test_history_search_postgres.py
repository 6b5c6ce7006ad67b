"""The history search on PostgreSQL: the same tests as on SQLite."""

from __future__ import annotations

import pytest

from tests.web.test_history_search import (  # noqa: F401 (collected here too)
    play_the_season,
    test_a_search_runs_as_many_queries_for_2000_matches_as_for_10,
    test_by_partnership_and_by_result_for_a_player,
    test_by_period_both_days_included,
    test_oldest_first,
)

from .test_statistics_postgres import app  # noqa: F401 (the app on PostgreSQL)


@pytest.fixture
def season(client):
    """The season of the SQLite tests, played on this test's app (on PostgreSQL)."""
    return play_the_season(client.application, client)
