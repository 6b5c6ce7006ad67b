"""Statistics of a group, against matches whose numbers are worked out by hand here."""

from __future__ import annotations

from datetime import date, timedelta

import pytest
from sqlalchemy import event, select

from scorekeeper.extensions import db
from scorekeeper.models import Match, Player, User
from scorekeeper.services import groups, match_admin
from scorekeeper.services.results import head_to_head, timeline
from scorekeeper.services.statistics import StatsFilter, statistics
from scorekeeper.services.storage import transaction
from tests.support import TESTER, load_bench

# Classic for two, target 1000. Hand scores (checked by the engine's own tests):
LEAD = [{"meld_points": 120}, {"meld_points": 55, "hand_points": 5}]  # 120 and 50
# Going out with two natural canastas: 2 x 500 + 300 melded + 100 for going out = 1400;
# the other side holds 30: -30.
OUT_FIRST = [
    {"went_out": True, "canastas": {"natural": 2}, "meld_points": 300},
    {"hand_points": 30},
]
OUT_SECOND = [OUT_FIRST[1], OUT_FIRST[0]]


def new_match(client, variant: str, sides: list[list[str]], options: dict) -> int:
    body = {"variant": variant, "sides": [{"players": p} for p in sides], "options": options}
    response = client.post("/api/v1/matches", json=body)
    assert response.status_code == 201, response.json
    return response.json["id"]


def play(client, match_id: int, *hands: list[dict]) -> dict:
    state: dict = {}
    for sides in hands:
        response = client.post(f"/api/v1/matches/{match_id}/hands", json={"sides": sides})
        assert response.status_code == 201, response.json
        state = response.json
    return state


@pytest.fixture
def season(app, client):
    """Six matches in Tess's personal group, in this order:

    1. Classic for two, Ann against Bob: Ann 120 - Bob 50, then Ann goes out (1400, -30):
       Ann wins 1520 to 20.
    2. Hand and Foot over one deal, draw on a tie: Ann & Cid 50, Bob & Dee 50: drawn.
    3. Classic for two, Bob against Ann: Bob goes out at once, 1400 to -30: Bob wins.
    4. Ann against Bob, one hand (120 to 50), then abandoned: not counted.
    5. Ann against Bob, one hand, still being played: not counted.
    Bob is renamed Robert, then
    6. Robert against Ann: Robert goes out at once, 1400 to -30: Robert wins.
    """
    first = new_match(client, "classic-2p", [["Ann"], ["Bob"]], {"target": 1000})
    assert play(client, first, LEAD, OUT_FIRST)["winner"] == 0
    drawn = new_match(
        client, "hand-and-foot", [["Ann", "Cid"], ["Bob", "Dee"]], {"deals": 1, "tie_rule": "draw"}
    )
    assert play(client, drawn, [{"meld_points": 50}, {"meld_points": 50}])["status"] == "drawn"
    third = new_match(client, "classic-2p", [["Bob"], ["Ann"]], {"target": 1000})
    assert play(client, third, OUT_FIRST)["winner"] == 0
    abandoned = new_match(client, "classic-2p", [["Ann"], ["Bob"]], {"target": 1000})
    play(client, abandoned, LEAD)
    playing = new_match(client, "classic-2p", [["Ann"], ["Bob"]], {"target": 1000})
    play(client, playing, LEAD)
    with app.app_context():
        with transaction():
            match_admin.abandon_match(abandoned)
        tess = db.session.execute(select(User).where(User.username == TESTER)).scalar_one()
        group = groups.personal_group(tess)
        bob = db.session.execute(select(Player).where(Player.name == "Bob")).scalar_one()
        with transaction():
            groups.rename_player(group.id, bob, "Robert", tess)
        group_id = group.id
    sixth = new_match(client, "classic-2p", [["Ann"], ["Robert"]], {"target": 1000})
    assert play(client, sixth, OUT_SECOND)["winner"] == 1
    with app.app_context():
        ids = dict(db.session.execute(select(Player.name, Player.id)).all())
    return group_id, ids


def by_name(records):
    return {record.name: record for record in records}


def test_each_players_record_is_worked_out_from_the_matches_played_to_the_end(app, season):
    group_id, _ = season
    with app.app_context():
        stats = statistics(StatsFilter((group_id,)))
    players = by_name(stats.players)
    assert set(players) == {"Ann", "Robert", "Cid", "Dee"}  # Bob's record is Robert's
    ann, robert = players["Ann"], players["Robert"]
    # Ann: won 1, drawn 2, lost 3 and 6 (4 and 5 are not counted).
    assert (ann.matches, ann.wins, ann.losses, ann.draws) == (4, 1, 2, 1)
    assert ann.win_rate == pytest.approx(1 / 4)
    # Margins: +1500 (1520 - 20), 0 (the draw), -1430 twice (-30 - 1400).
    assert ann.average_margin == pytest.approx((1500 + 0 - 1430 - 1430) / 4)
    assert (ann.best_hand, ann.highest_total) == (1400, 1520)
    # Hands: 2 + 1 + 1 + 1; Ann went out once, with 2 canastas.
    assert (ann.hands, ann.went_out, ann.canastas) == (5, 1, 2)
    assert ann.going_out_rate == pytest.approx(1 / 5)
    assert ann.canastas_per_hand == pytest.approx(2 / 5)
    assert (ann.current_streak, ann.longest_streak) == (0, 1)
    # Robert (Bob before the rename): lost 1, drawn 2, won 3 and 6.
    assert (robert.matches, robert.wins, robert.losses, robert.draws) == (4, 2, 1, 1)
    assert robert.average_margin == pytest.approx((-1500 + 0 + 1430 + 1430) / 4)
    assert (robert.best_hand, robert.highest_total) == (1400, 1400)
    assert (robert.hands, robert.went_out, robert.canastas) == (5, 2, 4)
    assert (robert.current_streak, robert.longest_streak) == (2, 2)
    cid = players["Cid"]
    assert (cid.matches, cid.wins, cid.losses, cid.draws, cid.average_margin) == (1, 0, 0, 1, 0)
    assert (cid.best_hand, cid.highest_total, cid.going_out_rate) == (50, 50, 0)
    # Best first: most wins.
    assert [r.name for r in stats.players][:2] == ["Robert", "Ann"]


def test_partnerships_are_the_same_players_whatever_their_seats(app, season):
    group_id, ids = season
    with app.app_context():
        stats = statistics(StatsFilter((group_id,)))
    pairs = {frozenset(r.names): r for r in stats.partnerships}
    assert set(pairs) == {frozenset({"Ann", "Cid"}), frozenset({"Robert", "Dee"})}
    ann_cid = pairs[frozenset({"Ann", "Cid"})]
    assert set(ann_cid.player_ids) == {ids["Ann"], ids["Cid"]}
    assert (ann_cid.matches, ann_cid.wins, ann_cid.losses, ann_cid.draws) == (1, 0, 0, 1)
    assert (ann_cid.best_hand, ann_cid.highest_total, ann_cid.hands) == (50, 50, 1)


def test_filters_by_variant_player_and_period(app, season):
    group_id, ids = season
    with app.app_context():
        classic = by_name(statistics(StatsFilter((group_id,), variant="classic-2p")).players)
        with_cid = by_name(statistics(StatsFilter((group_id,), player_id=ids["Cid"])).players)
        today = date.today()
        this_period = statistics(StatsFilter((group_id,), since=today, until=today)).players
        before = statistics(StatsFilter((group_id,), until=today - timedelta(days=1))).players
    assert set(classic) == {"Ann", "Robert"}
    assert (classic["Ann"].matches, classic["Ann"].wins, classic["Ann"].draws) == (3, 1, 0)
    assert set(with_cid) == {"Ann", "Cid", "Robert", "Dee"}
    assert (with_cid["Ann"].matches, with_cid["Ann"].draws) == (1, 1)
    assert {r.name for r in this_period} == {"Ann", "Robert", "Cid", "Dee"}
    assert before == []


def test_head_to_head_of_two_players_and_of_two_partnerships(app, season):
    group_id, ids = season
    where = StatsFilter((group_id,))
    with app.app_context():
        players = head_to_head(where, (ids["Ann"],), (ids["Robert"],))
        pairs = head_to_head(where, (ids["Ann"], ids["Cid"]), (ids["Dee"], ids["Robert"]))
        partners = head_to_head(where, (ids["Ann"],), (ids["Cid"],))
    # Ann and Robert sat against each other in all four matches counted.
    assert (players.matches, players.a_wins, players.b_wins, players.draws) == (4, 1, 2, 1)
    assert (pairs.matches, pairs.a_wins, pairs.b_wins, pairs.draws) == (1, 0, 0, 1)
    assert partners.matches == 0  # Ann and Cid only ever played together


def test_a_players_results_over_time_oldest_first(app, season):
    group_id, ids = season
    with app.app_context():
        results = timeline(StatsFilter((group_id,)), (ids["Ann"],))
    assert [(r.outcome, r.margin, r.total) for r in results] == [
        ("won", 1500, 1520),
        ("drawn", 0, 50),
        ("lost", -1430, -30),
        ("lost", -1430, -30),
    ]


def test_another_groups_matches_do_not_count(app, season):
    group_id, _ = season
    with app.app_context(), transaction():
        tess = db.session.execute(select(User).where(User.username == TESTER)).scalar_one()
        other = groups.create_group(tess, "Thursday")
        other_id = other.id
    with app.app_context():
        assert statistics(StatsFilter((other_id,))).players == []
        assert len(statistics(StatsFilter((group_id, other_id))).players) == 4


def count_queries(app, action) -> int:
    seen = []
    with app.app_context():
        listener = lambda *args: seen.append(1)  # noqa: E731
        event.listen(db.engine, "before_cursor_execute", listener)
        try:
            action()
        finally:
            event.remove(db.engine, "before_cursor_execute", listener)
    return len(seen)


def finished_copies(app, client, count: int) -> None:
    """`count` more finished matches: one played, the rest copied row by row."""
    match_id = new_match(client, "classic", [["Ann", "Bob"], ["Cid", "Dee"]], {"target": 1000})
    play(client, match_id, OUT_FIRST)
    with app.app_context():
        load_bench("scaling").copy_match(match_id, count - 1)


def test_the_statistics_run_as_many_queries_for_2000_matches_as_for_10(app, client):
    finished_copies(app, client, 10)
    with app.app_context():
        group_id = db.session.execute(select(Match.group_id)).scalars().first()
        ids = dict(db.session.execute(select(Player.name, Player.id)).all())
    where = StatsFilter((group_id,))

    def everything() -> None:
        stats = statistics(where)
        head_to_head(where, (ids["Ann"],), (ids["Cid"],))
        timeline(where, (ids["Ann"],))
        assert stats.players

    few = count_queries(app, everything)
    finished_copies(app, client, 1990)
    with app.app_context():
        stats = statistics(where)
        assert by_name(stats.players)["Ann"].matches == 2000
        assert by_name(stats.players)["Ann"].current_streak == 2000
        assert by_name(stats.partnerships)["Cid & Dee"].losses == 2000
    assert count_queries(app, everything) == few
