"""The ratings and leagues migration on a database holding matches, SQLite and PostgreSQL.

Matches are played at the head (the app keeps ratings as they finish), the database is
taken back to the revision before (which drops the new tables) and upgraded again: the
migration fills every group's ratings from its finished matches, equal to what the app
had stored and to a replay by the club core; every other row is kept, both ways.
"""

from __future__ import annotations

import flask_migrate
import pytest
from sqlalchemy import inspect, select, text

from scorekeeper.clubs import replay
from scorekeeper.extensions import db
from scorekeeper.season_models import RatingState
from scorekeeper.services import accounts, groups, match_admin
from scorekeeper.services.ratings import group_matches
from scorekeeper.services.storage import transaction
from tests.support import TESTER, signed_in
from tests.support import stored_ratings as stored

from .conftest import make_app
from .test_migration_data import row_counts

BEFORE = "a7c3e9d2b541"
OUT = {"went_out": True, "canastas": {"natural": 2}, "meld_points": 300}
BURACO_OUT = {
    "went_out": True,
    "took_extra_hand": True,
    "canastas": {"ace_to_ace": 1, "mixed": 1},
    "meld_points": 400,
}


def play(app, client) -> None:
    """Finished matches in two groups (a win, a partnership's win, a draw), one abandoned
    and one still being played."""

    def match(variant, sides, options=None, group=None):
        body = {"variant": variant, "sides": [{"players": p} for p in sides]}
        body["options"] = options or {}
        if group:
            body["group"] = group
        response = client.post("/api/v1/matches", json=body)
        assert response.status_code == 201, response.json
        return response.json["id"]

    def hand(match_id, sides):
        response = client.post(f"/api/v1/matches/{match_id}/hands", json={"sides": sides})
        assert response.status_code == 201, response.json

    hand(match("classic-2p", [["Ann"], ["Bob"]], {"target": 1000}), [OUT, {"hand_points": 30}])
    hand(match("classic", [["Ann", "Cy"], ["Bob", "Di"]], {"target": 1000}), [{}, OUT])
    drawn = match("hand-and-foot", [["Ann", "Cy"], ["Bob", "Di"]], {"deals": 1, "tie_rule": "draw"})
    hand(drawn, [{"meld_points": 50}, {"meld_points": 50}])
    abandoned = match("classic-2p", [["Ann"], ["Cy"]])
    hand(abandoned, [{"meld_points": 50}, {}])
    hand(match("classic-2p", [["Ann"], ["Di"]]), [{"meld_points": 50}, {}])
    with app.app_context(), transaction():
        match_admin.abandon_match(abandoned)
        club = groups.create_group(accounts.find_user(TESTER), "Club").id
    buraco = match("buraco", [["Ann"], ["Zoe"]], {"target": 1000}, club)
    hand(buraco, [BURACO_OUT, {"took_extra_hand": True, "hand_points": 30}])


def replayed(app) -> dict[tuple[int, str], tuple[float, float, int]]:
    with app.app_context():
        groups = db.session.execute(select(RatingState.group_id)).scalars().all()
        found = {}
        for group_id in groups:
            for r in replay(group_matches(group_id)).by_player.values():
                found[(r.player, r.family.value)] = (r.mu, r.sigma, r.matches)
        return found


def tables(app) -> set[str]:
    with app.app_context(), db.engine.connect() as connection:
        return set(inspect(connection).get_table_names())


def check_ratings_migration(app) -> None:
    with app.app_context():
        flask_migrate.upgrade()
    play(app, signed_in(app))
    before = row_counts(app)
    assert all(before.values()), before
    kept = stored(app)
    assert len(kept) == 10  # Ann, Bob, Cy, Di in Canasta and in Hand and Foot; Ann, Zoe in Buraco
    assert {family for _, family in kept} == {"canasta", "hand-and-foot", "buraco"}
    with app.app_context():
        flask_migrate.downgrade(revision=BEFORE)
    assert not {"rating", "rating_state", "league", "league_credit", "league_link"} & tables(app)
    assert row_counts(app) == before
    with app.app_context():
        flask_migrate.upgrade()
    assert row_counts(app) == before
    assert stored(app) == kept  # exactly: the same floats, replayed in the same order
    assert replayed(app) == kept
    with app.app_context():
        states = db.session.execute(select(RatingState)).scalars().all()
        assert len(states) == 2
        assert all(state.current for state in states)
        assert all(state.last_match_id is not None for state in states)
    # The ratings go on from there: one more match is one more step.
    play_on = signed_in(app)
    body = {"variant": "classic-2p", "sides": [{"players": ["Bob"]}, {"players": ["Cy"]}]}
    body["options"] = {"target": 1000}
    match_id = play_on.post("/api/v1/matches", json=body).json["id"]
    sides = {"sides": [OUT, {"hand_points": 30}]}
    assert play_on.post(f"/api/v1/matches/{match_id}/hands", json=sides).json["winner"] == 0
    assert stored(app) == replayed(app) != kept


def test_the_ratings_migration_fills_ratings_on_sqlite(tmp_path):
    app = make_app(f"sqlite:///{tmp_path / 'ratings.sqlite'}")
    check_ratings_migration(app)
    with app.app_context(), db.engine.connect() as connection:
        assert connection.execute(text("PRAGMA foreign_key_check")).fetchall() == []
    with app.app_context():
        db.engine.dispose()


@pytest.mark.xdist_group("postgres")
def test_the_ratings_migration_fills_ratings_on_postgresql(empty_postgres_app):
    check_ratings_migration(empty_postgres_app)
