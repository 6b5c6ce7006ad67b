"""Movements of CLUBS.md: Mitchell, Danish and round robin, by hand and by property."""

from __future__ import annotations

from itertools import combinations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from scorekeeper.clubs.movements import (
    Movement,
    Pairing,
    Table,
    danish_round,
    max_rounds,
    mitchell_round,
    pair_round,
    round_robin_round,
)
from scorekeeper.clubs.standings import Bye, Entry, EventResults, TableResult, ranking
from scorekeeper.clubs.victory_points import FIBUR_3


def tables(pairing):
    return [(t.number, t.first, t.second) for t in pairing.tables]


def check_round(pairing, active):
    """Everyone active plays once or has the bye; nobody else is in the round."""
    seated = [entry for table in pairing.tables for entry in table.entries]
    everyone = seated + list(pairing.byes)
    assert len(everyone) == len(set(everyone))
    assert set(everyone) == set(active)


# --- limits ---------------------------------------------------------------------------


def test_the_most_rounds_each_movement_allows():
    assert [max_rounds(Movement.MITCHELL, n) for n in (2, 3, 8, 9, 60)] == [1, 2, 4, 5, 30]
    assert [max_rounds(Movement.ROUND_ROBIN, n) for n in (2, 3, 8, 9)] == [1, 3, 7, 9]
    assert max_rounds(Movement.DANISH, 9) is None
    with pytest.raises(ValueError, match="two entries"):
        max_rounds(Movement.DANISH, 1)
    with pytest.raises(ValueError, match="rounds 1 to 4"):
        mitchell_round(8, 5)
    with pytest.raises(ValueError, match="rounds 1 to 7"):
        round_robin_round(8, 0)


# --- Mitchell -------------------------------------------------------------------------


def test_mitchell_eight_entries_by_hand():
    # North-South 1-4 stay; East-West 5-8 move up a table each round, table 4's to table 1.
    assert [tables(mitchell_round(8, r)) for r in (1, 2, 3, 4)] == [
        [(1, 1, 5), (2, 2, 6), (3, 3, 7), (4, 4, 8)],
        [(1, 1, 8), (2, 2, 5), (3, 3, 6), (4, 4, 7)],
        [(1, 1, 7), (2, 2, 8), (3, 3, 5), (4, 4, 6)],
        [(1, 1, 6), (2, 2, 7), (3, 3, 8), (4, 4, 5)],
    ]
    assert all(mitchell_round(8, r).byes == () for r in (1, 2, 3, 4))


def test_mitchell_seven_entries_have_the_empty_slot_by_hand():
    # Slot 4 is empty: the North-South entry it reaches has the bye, its table is not listed.
    rounds = [mitchell_round(7, r) for r in (1, 2, 3, 4)]
    assert [tables(p) for p in rounds] == [
        [(1, 1, 5), (2, 2, 6), (3, 3, 7)],
        [(2, 2, 5), (3, 3, 6), (4, 4, 7)],
        [(1, 1, 7), (3, 3, 5), (4, 4, 6)],
        [(1, 1, 6), (2, 2, 7), (4, 4, 5)],
    ]
    assert [p.byes for p in rounds] == [(4,), (1,), (2,), (3,)]


def test_mitchell_three_entries():
    assert tables(mitchell_round(3, 1)) == [(1, 1, 3)]
    assert mitchell_round(3, 1).byes == (2,)
    assert tables(mitchell_round(3, 2)) == [(2, 2, 3)]
    assert mitchell_round(3, 2).byes == (1,)


def test_mitchell_withdrawn_entries_leave_their_opponents_a_bye():
    # Entry 6 (East-West) withdrew after round 1, entry 3 (North-South) after round 2.
    second = mitchell_round(8, 2, withdrawn={6})
    assert tables(second) == [(1, 1, 8), (2, 2, 5), (4, 4, 7)]
    assert second.byes == (3,)
    third = mitchell_round(8, 3, withdrawn={6, 3})
    assert tables(third) == [(1, 1, 7), (2, 2, 8)]
    assert third.byes == (4, 5)  # 5 would have met 3 at table 3; 4 would have met 6
    # Both of a table's entries gone: the table is simply not there.
    assert tables(mitchell_round(8, 1, withdrawn={2, 6})) == [(1, 1, 5), (3, 3, 7), (4, 4, 8)]


def mitchell_formula(entries, round_number):
    """CLUBS.md's formula as written, for every table including an empty slot's."""
    count = -(-entries // 2)
    for table in range(1, count + 1):
        slot = ((table - 1 - (round_number - 1)) % count) + 1
        yield table, table, (count + slot if count + slot <= entries else None)


@pytest.mark.parametrize("entries", range(3, 61))
def test_mitchell_for_every_field_from_3_to_60(entries):
    count = -(-entries // 2)
    assert max_rounds(Movement.MITCHELL, entries) == count
    met = set()
    for r in range(1, count + 1):
        pairing = mitchell_round(entries, r)
        check_round(pairing, range(1, entries + 1))
        expected = [(t, ns, ew) for t, ns, ew in mitchell_formula(entries, r) if ew is not None]
        assert tables(pairing) == expected
        byes = [ns for _, ns, ew in mitchell_formula(entries, r) if ew is None]
        assert list(pairing.byes) == byes
        assert len(pairing.byes) == entries % 2  # the empty slot exactly when N is odd
        for table in pairing.tables:
            assert table.first <= count < table.second  # North-South stay, East-West move
            assert frozenset(table.entries) not in met
            met.add(frozenset(table.entries))
    # Over T rounds every North-South entry meets every East-West entry once.
    assert len(met) == count * (entries - count)


# --- round robin ----------------------------------------------------------------------


def test_round_robin_four_and_five_by_hand():
    assert [tables(round_robin_round(4, r)) for r in (1, 2, 3)] == [
        [(1, 1, 4), (2, 2, 3)],
        [(1, 1, 3), (2, 4, 2)],
        [(1, 1, 2), (2, 3, 4)],
    ]
    five = [round_robin_round(5, r) for r in range(1, 6)]
    assert [p.byes for p in five] == [(5,), (4,), (3,), (2,), (1,)]
    assert tables(five[0]) == [(1, 1, 4), (2, 2, 3)]


@pytest.mark.parametrize("entries", range(2, 21))
def test_round_robin_every_pair_meets_exactly_once(entries):
    rounds = max_rounds(Movement.ROUND_ROBIN, entries)
    assert rounds == (entries - 1 if entries % 2 == 0 else entries)
    met = []
    byes = []
    for r in range(1, rounds + 1):
        pairing = round_robin_round(entries, r)
        check_round(pairing, range(1, entries + 1))
        assert [t.number for t in pairing.tables] == list(range(1, entries // 2 + 1))
        assert len(pairing.byes) == entries % 2
        met += [frozenset(t.entries) for t in pairing.tables]
        byes += pairing.byes
    assert sorted(met, key=sorted) == sorted(
        (frozenset(pair) for pair in combinations(range(1, entries + 1), 2)), key=sorted
    )
    assert sorted(byes) == (list(range(1, entries + 1)) if entries % 2 else [])


def test_round_robin_withdrawn_opponents_give_byes():
    # Six entries; entry 4 withdrew after round 1: whoever it was to meet sits out.
    second = round_robin_round(6, 2, withdrawn={4})
    assert tables(second) == [(1, 1, 5), (2, 2, 3)]  # numbered in order, none left empty
    assert second.byes == (6,)
    assert tables(round_robin_round(6, 2)) == [(1, 1, 5), (2, 6, 4), (3, 2, 3)]


# --- Danish ---------------------------------------------------------------------------


def standings_ranking(entries, results, byes=()):
    return ranking(
        EventResults(
            tuple(Entry(n) for n in range(1, entries + 1)),
            tuple(TableResult(*result) for result in results),
            tuple(Bye(*bye) for bye in byes),
            FIBUR_3,
            12,
        )
    )


def test_danish_six_entries_three_rounds_by_hand():
    first = pair_round(Movement.DANISH, 6, 1)
    assert tables(first) == [(1, 1, 2), (2, 3, 4), (3, 5, 6)]
    results = [(1, 1, 2, 1600, 0), (1, 3, 4, 1100, 1000), (1, 5, 6, 900, 1000)]
    # 1: 20 VP; 3 and 6: 11 (+100, never met: 3 first); 4 and 5: 9 (-100); 2: 0.
    order = standings_ranking(6, results)
    assert order == (1, 3, 6, 4, 5, 2)
    second = pair_round(Movement.DANISH, 6, 2, ranking=order, previous=[first])
    assert tables(second) == [(1, 1, 3), (2, 6, 4), (3, 5, 2)]
    results += [(2, 1, 3, 1000, 1000), (2, 6, 4, 1000, 1100), (2, 5, 2, 1000, 1000)]
    # 1: 30; 3: 21; 4 and 6: 20 and 0 each, and they met: 4 took 11 VP of 6 -> 4 first;
    # 5: 19; 2: 10.
    order = standings_ranking(6, results)
    assert order == (1, 3, 4, 6, 5, 2)
    third = pair_round(Movement.DANISH, 6, 3, ranking=order, previous=[first, second])
    # 1 has met 3: it meets 4. 3 has met 4 and 1: it meets 6. 5 has met 2 already, but
    # nobody else is left: a rematch.
    assert tables(third) == [(1, 1, 4), (2, 3, 6), (3, 5, 2)]
    assert third.byes == ()


def test_danish_five_entries_byes_three_rounds_by_hand():
    first = pair_round(Movement.DANISH, 5, 1)
    assert tables(first) == [(1, 1, 2), (2, 3, 4)]
    assert first.byes == (5,)  # round 1: the last entry
    results = [(1, 1, 2, 1000, 1000), (1, 3, 4, 500, 500)]
    byes = [(1, 5)]
    # 5: 12 (the bye); 1-4: 10 VP and 0 each, four tied: by number.
    order = standings_ranking(5, results, byes)
    assert order == (5, 1, 2, 3, 4)
    second = danish_round(5, order, [first])
    assert second.byes == (4,)
    assert tables(second) == [(1, 5, 1), (2, 2, 3)]
    results += [(2, 5, 1, 0, 1600), (2, 2, 3, 700, 1000)]
    byes += [(2, 4)]
    # 1: 30; 3: 23; 4: 22; 2: 17; 5: 12 (lowest, but it has had a bye).
    order = standings_ranking(5, results, byes)
    assert order == (1, 3, 4, 2, 5)
    third = danish_round(5, order, [first, second])
    assert third.byes == (2,)  # the lowest-ranked of those without a bye
    assert tables(third) == [(1, 1, 3), (2, 4, 5)]


def test_danish_leaves_withdrawn_entries_out():
    first = danish_round(6, range(1, 7), [])
    # Entry 2 withdrew: five active entries, so the lowest-ranked active one has the bye.
    second = danish_round(6, (3, 2, 1, 6, 5, 4), [first], withdrawn={2})
    assert second.byes == (4,)
    assert tables(second) == [(1, 3, 1), (2, 6, 5)]
    with pytest.raises(ValueError, match="every entry once"):
        danish_round(6, (1, 2, 3), [])
    with pytest.raises(ValueError, match="after every earlier round"):
        pair_round(Movement.DANISH, 6, 3, previous=[first])


def test_a_round_is_checked_when_built():
    with pytest.raises(ValueError, match="one table or bye"):
        Pairing(1, (Table(1, 1, 2), Table(2, 2, 3)))
    with pytest.raises(ValueError, match="one table or bye"):
        Pairing(1, (Table(1, 1, 2),), byes=(1,))
    with pytest.raises(ValueError, match="by number"):
        Pairing(1, (Table(2, 1, 2), Table(1, 3, 4)))
    with pytest.raises(ValueError, match="two different entries"):
        Table(1, 3, 3)
    assert Pairing(1, (Table(1, 1, 2),), (3,)).opponent(2) == 1
    assert Pairing(1, (Table(1, 1, 2),), (3,)).opponent(3) is None


# --- properties -----------------------------------------------------------------------


@st.composite
def fields(draw, movement, most_entries=60):
    """A field, the rounds to play, and the round after which each entry withdraws."""
    entries = draw(st.integers(2, most_entries))
    limit = max_rounds(movement, entries) or 12
    rounds = draw(st.integers(1, limit))
    leaving = draw(
        st.dictionaries(st.integers(1, entries), st.integers(1, rounds), max_size=entries)
    )
    return entries, rounds, leaving


def play(movement, entries, rounds, leaving, orders):
    """Pair every round; Danish takes the next made-up ranking each round."""
    pairings = []
    for r in range(1, rounds + 1):
        withdrawn = {entry for entry, after in leaving.items() if after < r}
        pairing = pair_round(
            movement,
            entries,
            r,
            withdrawn=withdrawn,
            ranking=orders[r - 1] if orders else (),
            previous=pairings,
        )
        check_round(pairing, set(range(1, entries + 1)) - withdrawn)
        pairings.append(pairing)
    return pairings


@given(fields(Movement.MITCHELL))
def test_mitchell_properties(field):
    entries, rounds, leaving = field
    pairings = play(Movement.MITCHELL, entries, rounds, leaving, None)
    met = [frozenset(t.entries) for p in pairings for t in p.tables]
    assert len(met) == len(set(met))  # nobody meets anybody twice within T rounds
    for p in pairings:  # tables keep their physical numbers: North-South at its own
        assert all(t.number == t.first for t in p.tables)


@given(fields(Movement.ROUND_ROBIN, most_entries=20))
def test_round_robin_properties(field):
    entries, rounds, leaving = field
    pairings = play(Movement.ROUND_ROBIN, entries, rounds, leaving, None)
    met = [frozenset(t.entries) for p in pairings for t in p.tables]
    assert len(met) == len(set(met))


@given(fields(Movement.DANISH, most_entries=30), st.randoms(use_true_random=False))
def test_danish_properties(field, random):
    entries, rounds, leaving = field
    orders = [random.sample(range(1, entries + 1), entries) for _ in range(rounds)]
    pairings = play(Movement.DANISH, entries, rounds, leaving, orders)
    for r, pairing in enumerate(pairings, start=1):
        active = entries - sum(1 for after in leaving.values() if after < r)
        assert len(pairing.byes) == active % 2
        numbers = [t.number for t in pairing.tables]
        assert numbers == list(range(1, len(numbers) + 1))
        order = orders[r - 1]
        assert all(order.index(t.first) < order.index(t.second) for t in pairing.tables)
    bye_counts = [sum(p.byes.count(e) for p in pairings) for e in range(1, entries + 1)]
    if not leaving:
        assert max(bye_counts) - min(bye_counts) <= 1  # byes go round before anyone repeats
