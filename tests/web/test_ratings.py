"""Ratings as players see them: six matches through the API give what openskill gives
when called by hand; after a correction, a removal, a deletion, a merge and an import
the stored ratings are a replay from scratch; a replay that takes a while leaves the
pages saying so, never an old number as if current."""

from __future__ import annotations

import re
import threading
from datetime import timedelta

import pytest
from openskill.models import PlackettLuce
from sqlalchemy import select, update

from scorekeeper.clubs import replay
from scorekeeper.extensions import db
from scorekeeper.models import Match, Player, User, utcnow
from scorekeeper.season_models import Rating, RatingState
from scorekeeper.services import groups, match_admin
from scorekeeper.services.rating_replays import EXTENSION
from scorekeeper.services.ratings import group_matches
from scorekeeper.services.storage import transaction
from tests.api.test_modern_american_matches import OTHER as MAC_OTHER
from tests.api.test_modern_american_matches import OUT as MAC_OUT
from tests.api.test_modern_american_matches import QUIET_OTHER
from tests.support import TESTER
from tests.support import stored_ratings as stored
from tests.web.test_statistics import LEAD, OUT_FIRST, OUT_SECOND, new_match, play

TIED = [{"meld_points": 50}, {"meld_points": 50}]
DREAM = [QUIET_OTHER, {"went_out": True, "special_hand": "dream_plus_4"}]
THREE = [{"meld_points": 55, "hand_points": 5}, {"hand_points": 30}, OUT_FIRST[0]]
TARGET = {"target": 1000}

# The six matches below, as openskill is called for them by hand: family, teams, ranks.
BY_HAND = [
    ("canasta", [["Ann"], ["Bob"]], [1, 2]),
    ("canasta", [["Ann", "Cid"], ["Bob", "Dee"]], [2, 1]),
    ("hand-and-foot", [["Ann", "Cid"], ["Bob", "Dee"]], [1, 1]),  # drawn
    ("canasta", [["Ann"], ["Bob"], ["Cid"]], [2, 3, 1]),  # 50, -30, 1400
    ("canasta", [["Bob"], ["Cid"]], [1, 2]),
    ("modern-american", [["Ann", "Cid"], ["Bob", "Dee"]], [2, 1]),  # won at once, behind
]


def six_matches(client) -> list[int]:
    """The matches of BY_HAND, played in that order through the API."""
    ids = []
    first = new_match(client, "classic-2p", [["Ann"], ["Bob"]], TARGET)
    assert play(client, first, LEAD, OUT_FIRST)["winner"] == 0
    second = new_match(client, "classic", [["Ann", "Cid"], ["Bob", "Dee"]], TARGET)
    assert play(client, second, OUT_SECOND)["winner"] == 1
    third = new_match(
        client, "hand-and-foot", [["Ann", "Cid"], ["Bob", "Dee"]], {"deals": 1, "tie_rule": "draw"}
    )
    assert play(client, third, TIED)["status"] == "drawn"
    fourth = new_match(client, "classic-3p", [["Ann"], ["Bob"], ["Cid"]], TARGET)
    assert play(client, fourth, THREE)["winner"] == 2
    fifth = new_match(client, "classic-2p", [["Bob"], ["Cid"]], TARGET)
    assert play(client, fifth, OUT_FIRST)["winner"] == 0
    sixth = new_match(client, "modern-american", [["Ann", "Cid"], ["Bob", "Dee"]], {})
    state = play(client, sixth, [MAC_OUT, MAC_OTHER], [MAC_OUT, MAC_OTHER], DREAM)
    assert (state["winner"], state["sides"][0]["total"] > state["sides"][1]["total"]) == (1, True)
    ids += [first, second, third, fourth, fifth, sixth]
    return ids


def openskill_by_hand(steps=BY_HAND):
    model = PlackettLuce()
    ratings, counts = {}, {}
    for family, teams, ranks in steps:
        current = [[ratings.get((p, family)) or model.rating() for p in team] for team in teams]
        for team, rated in zip(teams, model.rate(current, ranks=ranks), strict=True):
            for player, rating in zip(team, rated, strict=True):
                ratings[(player, family)] = rating
                counts[(player, family)] = counts.get((player, family), 0) + 1
    return ratings, counts


def ids_by_name(app) -> dict[str, int]:
    with app.app_context():
        return dict(db.session.execute(select(Player.name, Player.id)).all())


def settle(app) -> None:
    """Wait for any replay under way."""
    app.extensions[EXTENSION].wait_all()


def replayed(app) -> dict[tuple[int, str], tuple[float, float, int]]:
    """A replay from scratch of every group's finished matches, as they are now."""
    with app.app_context():
        found = {}
        for group_id in db.session.execute(select(Match.group_id).distinct()).scalars():
            for r in replay(group_matches(group_id)).by_player.values():
                found[(r.player, r.family.value)] = (r.mu, r.sigma, r.matches)
        return found


def test_six_matches_rate_as_openskill_called_by_hand(app, client):
    six_matches(client)
    expected, counts = openskill_by_hand()
    players = ids_by_name(app)
    seen = set()
    for name, player_id in players.items():
        answer = client.get(f"/api/v1/players/{player_id}/rating")
        assert answer.status_code == 200, answer.json
        assert (answer.json["player"], answer.json["name"]) == (player_id, name)
        for rating in answer.json["ratings"]:
            key = (name, rating["family"])
            seen.add(key)
            by_hand = expected[key]
            assert rating["mu"] == pytest.approx(by_hand.mu, rel=1e-12)
            assert rating["sigma"] == pytest.approx(by_hand.sigma, rel=1e-12)
            assert rating["rating"] == pytest.approx(by_hand.mu - 3 * by_hand.sigma, rel=1e-12)
            assert rating["matches"] == counts[key]
    assert seen == set(expected)
    ann = client.get(f"/api/v1/players/{players['Ann']}/rating").json["ratings"]
    # Families in their listed order: Canasta, (Buraco), Hand and Foot, Modern American.
    assert [(r["family"], r["matches"]) for r in ann] == [
        ("canasta", 3),
        ("hand-and-foot", 1),
        ("modern-american", 1),
    ]
    assert stored(app) == replayed(app)


def test_a_changed_rated_match_is_a_replay_from_scratch(app, client):
    ids = six_matches(client)
    first = stored(app)
    # A correction: Bob, not Ann, goes out in the last hand of match 1 (Bob now wins).
    version = client.get(f"/api/v1/matches/{ids[0]}").json["hands"][1]["version"]
    answer = client.put(
        f"/api/v1/matches/{ids[0]}/hands/2", json={"sides": OUT_SECOND, "version": version}
    )
    assert answer.status_code == 200, answer.json
    assert answer.json["winner"] == 1
    corrected = stored(app)
    assert corrected == replayed(app) != first
    swapped = [("canasta", [["Ann"], ["Bob"]], [2, 1]), *BY_HAND[1:]]
    by_hand, _ = openskill_by_hand(swapped)
    players = ids_by_name(app)
    assert corrected[(players["Bob"], "canasta")][0] == pytest.approx(
        by_hand[("Bob", "canasta")].mu
    )
    # A removal: match 5's only hand goes, so match 5 is no longer finished.
    version = client.get(f"/api/v1/matches/{ids[4]}").json["hands"][0]["version"]
    assert client.delete(f"/api/v1/matches/{ids[4]}/hands/1?version={version}").status_code == 200
    removed = stored(app)
    assert removed == replayed(app) != corrected
    assert removed[(players["Bob"], "canasta")][2] == 3
    # A deletion of a finished match (the three-handed one).
    with app.app_context(), transaction():
        match_admin.delete_match(ids[3], TESTER)
    deleted = stored(app)
    assert deleted == replayed(app) != removed
    assert deleted[(players["Cid"], "canasta")][2] == 1


def test_merged_players_and_imported_matches_are_replayed(app, client):
    six_matches(client)
    dora = new_match(client, "classic-2p", [["Dora"], ["Cid"]], TARGET)
    play(client, dora, OUT_FIRST)  # Dora is Dee under another name
    players = ids_by_name(app)
    before = stored(app)
    assert before[(players["Dee"], "canasta")][2] == 1
    with app.app_context(), transaction():
        tess = db.session.execute(select(User).where(User.username == TESTER)).scalar_one()
        group = groups.personal_group(tess)
        gone, kept = db.session.get(Player, players["Dora"]), db.session.get(Player, players["Dee"])
        assert groups.merge_players(group.id, gone, kept, tess) is None
        group_id = group.id
    merged = stored(app)
    assert merged == replayed(app) != before
    assert (players["Dora"], "canasta") not in merged
    assert merged[(players["Dee"], "canasta")][2] == 2
    # An import of older matches into the group: they count by their own finished_at.
    exported = client.get(f"/api/v1/export?group={group_id}").json
    for match in exported["groups"][0]["matches"]:
        match["uid"] = match["uid"][::-1]
        for moment in ("created_at", "finished_at"):
            if match.get(moment):
                match[moment] = "2020" + match[moment][4:]
    answer = client.post(f"/api/v1/import?group={group_id}", json=exported)
    assert answer.status_code == 201, answer.json
    imported = stored(app)
    assert imported == replayed(app) != merged
    assert imported[(players["Ann"], "canasta")][2] == 2 * merged[(players["Ann"], "canasta")][2]


def test_one_more_match_is_one_more_step_and_an_earlier_one_a_replay(app, client):
    six_matches(client)
    with app.app_context():
        state = db.session.execute(select(RatingState)).scalar_one()
        wanted, last = state.wanted, state.last_match_id
    assert (wanted, state.done) == (0, 0)  # no replay was needed so far
    extra = new_match(client, "classic-2p", [["Ann"], ["Dee"]], TARGET)
    play(client, extra, OUT_FIRST)
    with app.app_context():
        state = db.session.execute(select(RatingState)).scalar_one()
        assert (state.wanted, state.last_match_id) == (0, extra) != (0, last)
    assert stored(app) == replayed(app)
    # A match finishing before the last one rated (clocks of two servers apart): a replay.
    with app.app_context(), transaction():
        db.session.execute(
            update(RatingState).values(last_finished_at=utcnow() + timedelta(days=1))
        )
    late = new_match(client, "classic-2p", [["Bob"], ["Dee"]], TARGET)
    play(client, late, OUT_FIRST)
    assert stored(app) == replayed(app)
    with app.app_context():
        state = db.session.execute(select(RatingState)).scalar_one()
        assert (state.wanted, state.done, state.last_match_id) == (1, 1, late)


@pytest.fixture
def held_replays(app):
    """Replays wait for the test's word: the time a long replay takes."""
    app.config["RATINGS_REPLAY_WAIT"] = 0.05
    runner = app.extensions[EXTENSION]
    gate = threading.Event()
    replay_group = runner.replay

    def held(group_id):
        gate.wait(20)
        return replay_group(group_id)

    runner.replay = held
    yield gate
    gate.set()
    runner.replay = replay_group
    settle(app)


def test_while_a_replay_runs_no_rating_is_shown_as_current(app, client, held_replays):
    ids = six_matches(client)
    players = ids_by_name(app)
    ann = players["Ann"]
    page = client.get(f"/groups/1/players/{ann}").get_data(as_text=True)
    assert "rating " in page
    version = client.get(f"/api/v1/matches/{ids[0]}").json["hands"][1]["version"]
    body = {"sides": OUT_SECOND, "version": version}
    assert client.put(f"/api/v1/matches/{ids[0]}/hands/2", json=body).status_code == 200
    updating = "Ratings are being brought up to date"
    page = client.get(f"/groups/1/players/{ann}").get_data(as_text=True)
    assert updating in page
    assert "we are fairly sure" not in page
    assert updating in client.get("/groups/1/stats").get_data(as_text=True)
    answer = client.get(f"/api/v1/players/{ann}/rating")
    assert answer.status_code == 503
    assert answer.headers["Retry-After"] == "3"
    assert "brought up to date" in answer.json["errors"][0]["message"]
    chances = client.get("/matches/new/classic/chances?seat_0=Ann&seat_1=Bob&seat_2=Cid&seat_3=Dee")
    assert "once the ratings are up to date" in chances.get_data(as_text=True)
    held_replays.set()
    settle(app)
    page = client.get(f"/groups/1/players/{ann}").get_data(as_text=True)
    assert updating not in page
    assert "we are fairly sure it is at least this" in page
    assert client.get(f"/api/v1/players/{ann}/rating").status_code == 200
    assert stored(app) == replayed(app)


def test_a_replay_that_died_is_started_again_by_the_next_reader(app, client):
    six_matches(client)
    right = stored(app)
    with app.app_context(), transaction():
        db.session.execute(update(Rating).values(mu=0.0))  # what a half-done replay leaves
        db.session.execute(
            update(RatingState).values(
                wanted=RatingState.wanted + 1, started_at=utcnow() - timedelta(minutes=10)
            )
        )
    ann = ids_by_name(app)["Ann"]
    assert client.get(f"/api/v1/players/{ann}/rating").status_code == 503
    assert stored(app) == right  # the read started the replay, which put things right
    assert client.get(f"/api/v1/players/{ann}/rating").status_code == 200


def test_a_players_rating_card_says_what_the_number_means(app, client):
    six_matches(client)
    ann = ids_by_name(app)["Ann"]
    page = client.get(f"/groups/1/players/{ann}").get_data(as_text=True)
    expected, _ = openskill_by_hand()
    canasta = expected[("Ann", "canasta")]
    shown = f"{canasta.mu - 3 * canasta.sigma:.1f}"
    assert f"rating {shown} (we are fairly sure it is at least this), from 3 matches" in page
    assert "provisional: fewer than 10 matches" in page
    assert "Modern American Canasta" in page
    stats = client.get("/groups/1/stats").get_data(as_text=True)
    assert "Ratings" in stats
    assert shown in stats


def test_chances_to_win_on_the_new_match_page_and_the_scoreboard(app, client):
    six_matches(client)
    url = "/matches/new/classic/chances?seat_0=Ann&seat_1=Bob&seat_2=Cid&seat_3=Dee"
    answer = client.get(url)
    assert answer.status_code == 200
    text = answer.get_data(as_text=True)
    assert "Chance to win" in text
    assert "Ann &amp; Cid" in text
    assert "Bob &amp; Dee" in text
    percents = [int(p) for p in re.findall(r"(\d+)%", text)]
    assert len(percents) == 2
    assert 99 <= sum(percents) <= 101
    assert client.get(url.replace("Dee", "Newcomer")).status_code == 204  # no rating yet
    assert client.get(url.replace("seat_3=Dee", "seat_3=")).status_code == 204
    assert client.get("/matches/new/nothing/chances").status_code == 404
    playing = new_match(client, "classic", [["Ann", "Cid"], ["Bob", "Dee"]], TARGET)
    board = client.get(f"/matches/{playing}").get_data(as_text=True)
    assert "Chance to win" in board
    play(client, playing, OUT_FIRST)
    assert "Chance to win" not in client.get(f"/matches/{playing}").get_data(as_text=True)
    newcomers = new_match(client, "classic-2p", [["Ann"], ["Zed"]], TARGET)
    assert "Chance to win" not in client.get(f"/matches/{newcomers}").get_data(as_text=True)
