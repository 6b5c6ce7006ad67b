"""Ratings: the replay gives what openskill's Plackett-Luce gives when called by hand."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest
from openskill.models import PlackettLuce

from scorekeeper.clubs.matches import FinishedMatch
from scorekeeper.clubs.ratings import PlayerRating, Ratings, replay, win_chances
from scorekeeper.rules import PRESETS, GameFamily

CANASTA, BURACO = GameFamily.CANASTA, GameFamily.BURACO


def at(hour):
    return datetime(2026, 3, 1, hour, tzinfo=UTC)


# Six finished matches, listed out of order: they count by (finished_at, id).
MATCHES = [
    FinishedMatch(6, at(5), CANASTA, ((2,), (3,), (4,)), (1500, 2500, 800), 1),
    FinishedMatch(1, at(1), CANASTA, ((1, 2), (3, 4)), (5200, 3100), 0),
    FinishedMatch(2, at(2), CANASTA, ((1, 3), (2, 4)), (2000, 2000), None),  # a draw
    FinishedMatch(3, at(3), BURACO, ((1,), (5,), (6,)), (1600, 1600, 900), None),  # top shared
    FinishedMatch(4, at(4), CANASTA, ((5,), (6,)), (3000, 4000), 0),  # won at once, behind
    FinishedMatch(5, at(5), CANASTA, ((1, 2), (5, 6)), (1000, 5000), 1),
]
# The same matches in the order they count, with the ranks worked out by hand.
BY_HAND = [
    (CANASTA, [[1, 2], [3, 4]], [1, 2]),
    (CANASTA, [[1, 3], [2, 4]], [1, 1]),
    (BURACO, [[1], [5], [6]], [1, 1, 3]),
    (CANASTA, [[5], [6]], [1, 2]),
    (CANASTA, [[1, 2], [5, 6]], [2, 1]),
    (CANASTA, [[2], [3], [4]], [2, 1, 3]),
]


def openskill_by_hand():
    model = PlackettLuce()
    ratings = {}
    counts = {}
    for family, sides, ranks in BY_HAND:
        teams = [[ratings.get((p, family)) or model.rating() for p in side] for side in sides]
        rated = model.rate(teams, ranks=ranks)
        for side, new in zip(sides, rated, strict=True):
            for player, rating in zip(side, new, strict=True):
                ratings[(player, family)] = rating
                counts[(player, family)] = counts.get((player, family), 0) + 1
    return ratings, counts


def test_six_matches_rate_as_openskill_does():
    expected, counts = openskill_by_hand()
    ratings = replay(MATCHES)
    assert set(ratings.by_player) == set(expected)
    for (player, family), rating in expected.items():
        mine = ratings.of(player, family)
        assert mine.mu == pytest.approx(rating.mu, rel=1e-12)
        assert mine.sigma == pytest.approx(rating.sigma, rel=1e-12)
        assert mine.matches == counts[(player, family)]
        assert mine.rating == pytest.approx(rating.mu - 3 * rating.sigma, rel=1e-12)
    assert ratings.of(1, CANASTA).matches == 3
    assert ratings.of(1, BURACO).matches == 1
    assert ratings.last == (at(5), 6)


def test_the_places_of_each_match():
    assert [m.places() for m in sorted(MATCHES, key=lambda m: m.order_key)] == [
        tuple(ranks) for _, _, ranks in BY_HAND
    ]


def test_one_match_more_is_the_replay_of_all():
    ordered = sorted(MATCHES, key=lambda m: m.order_key)
    stepped = replay(ordered[:4])
    for match in ordered[4:]:
        stepped = stepped.after(match)
    assert stepped == replay(MATCHES)
    with pytest.raises(ValueError, match="replay from the start"):
        stepped.after(ordered[2])
    assert replay([]) == Ratings()


def test_a_player_s_families_and_a_newcomer():
    ratings = replay(MATCHES)
    assert [r.family for r in ratings.of_player(1)] == [CANASTA, BURACO]
    assert [r.family for r in ratings.of_player(4)] == [CANASTA]
    newcomer = ratings.of(99, GameFamily.HAND_AND_FOOT)
    assert newcomer == PlayerRating(99, GameFamily.HAND_AND_FOOT, 25.0, 25 / 3, 0)
    assert newcomer.rating == pytest.approx(0.0)
    assert ratings.of_player(99) == ()


# CLUBS.md, "API (contract for leagues and ratings)".
FAMILY_OF = {
    "classic": CANASTA,
    "classic-2p": CANASTA,
    "classic-3p": CANASTA,
    "classic-6p": CANASTA,
    "samba": CANASTA,
    "samba-fournier": CANASTA,
    "brazilian": CANASTA,
    "bolivia": CANASTA,
    "buraco": BURACO,
    "buraco-4p": BURACO,
    "burraco": BURACO,
    "burraco-3p": BURACO,
    "hand-and-foot": GameFamily.HAND_AND_FOOT,
    "modern-american": GameFamily.MODERN_AMERICAN,
}


def test_every_preset_rates_in_its_family():
    assert set(FAMILY_OF) == set(PRESETS)
    matches = [
        FinishedMatch(n, at(1), PRESETS[key].family, ((1,), (n + 10,)), (100, 0), 0)
        for n, key in enumerate(sorted(PRESETS), start=1)
    ]
    ratings = replay(matches)
    for n, key in enumerate(sorted(PRESETS), start=1):
        assert [r.family for r in ratings.of_player(n + 10)] == [FAMILY_OF[key]]
    counts = {r.family: r.matches for r in ratings.of_player(1)}
    assert counts == {CANASTA: 8, BURACO: 4, GameFamily.HAND_AND_FOOT: 1,
                      GameFamily.MODERN_AMERICAN: 1}  # fmt: skip


def test_chances_to_win_add_up_to_one():
    ratings = replay(MATCHES)
    two = win_chances(ratings, CANASTA, [[1, 2], [5, 6]])
    assert sum(two) == pytest.approx(1.0)
    model = PlackettLuce()
    teams = [
        [model.rating(mu=ratings.of(p, CANASTA).mu, sigma=ratings.of(p, CANASTA).sigma) for p in s]
        for s in ([1, 2], [5, 6])
    ]
    assert list(two) == pytest.approx(model.predict_win(teams))
    three = win_chances(ratings, CANASTA, [[2], [3], [4]])
    assert sum(three) == pytest.approx(1.0)
    assert three[1] > three[0] > three[2]  # 3 won that match, 2 was second, 4 third
    assert win_chances(Ratings(), CANASTA, [[7], [8]]) == pytest.approx((0.5, 0.5))
    with pytest.raises(ValueError, match="two or more sides"):
        win_chances(ratings, CANASTA, [[1]])


def test_a_finished_match_is_checked_when_built():
    with pytest.raises(ValueError, match="two or more sides"):
        FinishedMatch(1, at(1), CANASTA, ((1,),), (0,), 0)
    with pytest.raises(ValueError, match="nobody plays on two sides"):
        FinishedMatch(1, at(1), CANASTA, ((1, 2), (2, 3)), (0, 10), 1)
    with pytest.raises(ValueError, match="one of the sides"):
        FinishedMatch(1, at(1), CANASTA, ((1,), (2,)), (0, 10), 2)
    with pytest.raises(ValueError, match="top total shared"):
        FinishedMatch(1, at(1), CANASTA, ((1,), (2,)), (0, 10), None)
