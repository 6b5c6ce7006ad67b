"""The scoreboard: totals, leads, meld minimums, the dealer, progress, hands, the end."""

from __future__ import annotations

import pytest

from tests.support import record_hands

from .helpers import (
    PLAYERS2,
    PLAYERS3,
    classic_hands,
    create_match,
    flashes,
    hand_rows,
    next_dealer,
    page,
    record_ok,
    side_cards,
    text_of,
    totals,
)


def scoring(points: int) -> dict[str, int]:
    """A side that did not go out scoring `points`: natural canastas (500 each) for the bulk,
    the rest in melded cards (at least 35 a canasta), so the cards fit in the deck."""
    naturals = max(0, (points - 35) // 500)
    while points - 500 * naturals < 35 * naturals:
        naturals -= 1
    return {"canasta_natural": naturals, "meld_points": points - 500 * naturals}


def test_new_match_scoreboard_is_empty(client):
    match_id = create_match(client, "classic")
    response = client.get(f"/matches/{match_id}")
    assert response.status_code == 200
    cards = side_cards(response)
    assert [c.name for c in cards] == ["Ann & Cid", "Bob & Dee"]
    assert [c.total for c in cards] == [0, 0]
    assert [c.lead for c in cards] == ["Level", "Level"]
    # Classic: 0-1495 needs 50.
    assert [c.meld for c in cards] == ["50 points", "50 points"]
    assert [c.progress for c in cards] == ["0% of 5,000", "0% of 5,000"]
    assert next_dealer(response) == "Ann"
    text = text_of(response)
    assert "No hand recorded yet." in text
    assert "Record hand 1" in text
    assert "Seats clockwise: Ann, Bob, Cid, Dee" in text
    assert hand_rows(response) == []


def test_totals_leads_meld_minimums_and_progress_after_each_hand(client):
    match_id = classic_hands(client, 1)
    response = client.get(f"/matches/{match_id}")
    assert "Hand 1 recorded." in flashes(response)
    cards = side_cards(response)
    assert totals(response) == [1500, -70]
    assert [c.lead for c in cards] == ["Leads by 1,570", "1,570 behind"]
    # 1500 is in the 1500-2995 tier (90); -70 is below 0 (15).
    assert [c.meld for c in cards] == ["90 points", "15 points"]
    # 1500 * 100 // 5000 = 30 %; a negative total shows 0 %.
    assert [c.progress for c in cards] == ["30% of 5,000", "0% of 5,000"]
    assert hand_rows(response) == [("1", ["+1,500", "-70"], [1500, -70])]

    # Hand 2, nobody out. Ann & Cid: 100 - 20 = 80.
    # Bob & Dee: natural 500 + melded 300 + two red threes 200 = 1000.
    record_ok(
        client,
        match_id,
        "none",
        {"meld_points": 100, "hand_points": 20},
        {"canasta_natural": 1, "meld_points": 300, "red_threes": 2},
    )
    response = client.get(f"/matches/{match_id}")
    cards = side_cards(response)
    assert totals(response) == [1580, 930]  # 1500 + 80, -70 + 1000
    assert [c.lead for c in cards] == ["Leads by 650", "650 behind"]
    assert [c.meld for c in cards] == ["90 points", "50 points"]
    # 1580 * 100 // 5000 = 31; 930 * 100 // 5000 = 18
    assert [c.progress for c in cards] == ["31% of 5,000", "18% of 5,000"]
    assert hand_rows(response) == [
        ("1", ["+1,500", "-70"], [1500, -70]),
        ("2", ["+80", "+1,000"], [1580, 930]),
    ]
    assert not any(c.winner for c in cards)
    assert "win" not in page(response).find("h1").text()


def test_winner_banner_when_the_target_is_reached(client):
    match_id = classic_hands(client, 1)
    record_ok(
        client,
        match_id,
        "none",
        {"meld_points": 100, "hand_points": 20},
        {"canasta_natural": 1, "meld_points": 300, "red_threes": 2},
    )
    # Hand 3, Ann & Cid go out concealed: 4 natural 2000 + mixed 300 + melded 500
    # + concealed 200 + all four red threes 800 = 3800, total 1580 + 3800 = 5380.
    # Bob & Dee: 200 - 100 = 100, total 1030.
    record_ok(
        client,
        match_id,
        0,
        {"canasta_natural": 4, "canasta_mixed": 1, "meld_points": 500, "red_threes": 4},
        {"meld_points": 200, "hand_points": 100},
        concealed=True,
    )
    response = client.get(f"/matches/{match_id}")
    root = page(response)
    banner = root.find(class_="banner")
    assert "win" in banner.classes
    assert banner.find("h2").text() == "Ann & Cid win"
    assert "Game over after 3 hands: 5,380 points, target 5,000." in banner.text()
    cards = side_cards(response)
    assert totals(response) == [5380, 1030]
    assert [c.winner for c in cards] == [True, False]
    assert [c.lead for c in cards] == ["Leads by 4,350", "4,350 behind"]
    # The game is over: no next meld, no next dealer, no record button.
    assert [c.meld for c in cards] == [None, None]
    assert not root.find_all("p", class_="dealer")
    assert "Record hand" not in text_of(response)
    assert hand_rows(response)[-1] == ("3", ["+3,800", "+100"], [5380, 1030])


def test_recording_after_the_end_is_refused(client, app):
    match_id = create_match(client, "classic-2p", PLAYERS2, options={"target": 1000})
    # Ann 500 + 700 = 1200, Bob 50: Ann is over the target alone.
    record_ok(
        client, match_id, "none", {"canasta_natural": 1, "meld_points": 700}, {"meld_points": 50}
    )
    response = client.get(f"/matches/{match_id}/hands/new")
    assert response.status_code == 303
    assert response.headers["Location"] == f"/matches/{match_id}"
    followed = client.get(response.headers["Location"])
    assert "The game is over: no more hands can be recorded." in flashes(followed)
    assert len(hand_rows(followed)) == 1


def test_both_over_the_target_the_higher_total_wins(client):
    match_id = create_match(client, "classic-2p", PLAYERS2, options={"target": 1000})
    # Ann 1000 + 200 = 1200, Bob 1000 + 100 = 1100: both reach 1000, Ann is higher.
    record_ok(
        client,
        match_id,
        "none",
        {"canasta_natural": 2, "meld_points": 200},
        {"canasta_natural": 2, "meld_points": 100},
    )
    response = client.get(f"/matches/{match_id}")
    banner = page(response).find(class_="banner")
    assert banner.find("h2").text() == "Ann wins"
    assert [c.lead for c in side_cards(response)] == ["Leads by 100", "100 behind"]


def test_tie_at_the_top_plays_on_then_a_winner(client):
    match_id = create_match(client, "classic-2p", PLAYERS2, options={"target": 1000})
    # Both score exactly 1000: the target is reached but the lead is shared.
    thousand = {"canasta_natural": 1, "meld_points": 500}
    record_ok(client, match_id, "none", thousand, thousand)
    response = client.get(f"/matches/{match_id}")
    root = page(response)
    banner = root.find(class_="banner")
    assert "tie" in banner.classes
    assert banner.find("h2").text() == "Tied at the top"
    assert [c.lead for c in side_cards(response)] == ["Level", "Level"]
    assert not any(c.winner for c in side_cards(response))
    assert "Record hand 2" in text_of(response)
    assert next_dealer(response) == "Bob"

    # Hand 2: Ann +50 (1050), Bob +100 (1100): Bob wins.
    record_ok(client, match_id, "none", {"meld_points": 50}, {"meld_points": 100})
    response = client.get(f"/matches/{match_id}")
    assert page(response).find(class_="banner").find("h2").text() == "Bob wins"
    assert totals(response) == [1050, 1100]
    assert "Tied at the top" not in text_of(response)


def test_the_deal_passes_one_seat_clockwise_each_hand(client):
    match_id = create_match(client, "classic")
    dealers = []
    for _ in range(5):
        response = client.get(f"/matches/{match_id}")
        dealers.append(next_dealer(response))
        record_ok(client, match_id, "none", {"meld_points": 50}, {"meld_points": 50})
    # Seats clockwise: Ann (team 1), Bob (team 2), Cid (team 1), Dee (team 2).
    assert dealers == ["Ann", "Bob", "Cid", "Dee", "Ann"]
    response = client.get(f"/matches/{match_id}")
    assert next_dealer(response) == "Bob"
    links = page(response).find("table", class_="hands").find_all("a")
    labels = [a.attrs["aria-label"] for a in links]
    assert labels[0] == "Hand 1, dealt by Ann: explanation"
    assert labels[3] == "Hand 4, dealt by Dee: explanation"
    assert labels[4] == "Hand 5, dealt by Ann: explanation"


def test_first_dealer_choice_is_respected(client):
    match_id = create_match(client, "classic", first_dealer=2)
    response = client.get(f"/matches/{match_id}")
    assert next_dealer(response) == "Cid"
    record_ok(client, match_id, "none", {"meld_points": 50}, {"meld_points": 50})
    assert next_dealer(client.get(f"/matches/{match_id}")) == "Dee"
    record_ok(client, match_id, "none", {"meld_points": 50}, {"meld_points": 50})
    assert next_dealer(client.get(f"/matches/{match_id}")) == "Ann"


def test_three_players_leads_and_dealer(client):
    match_id = create_match(client, "classic-3p", PLAYERS3, first_dealer=1)
    assert next_dealer(client.get(f"/matches/{match_id}")) == "Bob"
    # Ann goes out: natural 500 + melded 200 + going out 100 = 800.
    # Bob: melded 300. Cid: in hand 100 -> -100.
    record_ok(
        client,
        match_id,
        0,
        {"canasta_natural": 1, "meld_points": 200},
        {"meld_points": 300},
        {"hand_points": 100},
    )
    response = client.get(f"/matches/{match_id}")
    cards = side_cards(response)
    assert [c.name for c in cards] == ["Ann", "Bob", "Cid"]
    assert totals(response) == [800, 300, -100]
    # The lead is measured against the best other side: 800-300, 300-800, -100-800.
    assert [c.lead for c in cards] == ["Leads by 500", "500 behind", "900 behind"]
    assert [c.meld for c in cards] == ["50 points", "50 points", "15 points"]
    assert next_dealer(response) == "Cid"


def test_burraco_partnerships_seat_and_deal_order(client):
    match_id = create_match(client, "burraco", layout="2x2", first_dealer=3)
    response = client.get(f"/matches/{match_id}")
    assert [c.name for c in side_cards(response)] == ["Ann & Cid", "Bob & Dee"]
    assert next_dealer(response) == "Dee"
    # Burraco has no meld minimum: said once, not on every side's card.
    assert [c.meld for c in side_cards(response)] == [None, None]
    assert text_of(response).count("No initial-meld minimum in Burraco.") == 1
    assert "No minimum" not in text_of(response)
    # Both took the pozzetto, nobody closed: 100 and 50.
    record_ok(
        client,
        match_id,
        "none",
        {"took_extra_hand": True, "meld_points": 100},
        {"took_extra_hand": True, "meld_points": 50},
    )
    response = client.get(f"/matches/{match_id}")
    assert totals(response) == [100, 50]
    assert next_dealer(response) == "Ann"
    # 100 * 100 // 2005 = 4 %
    assert side_cards(response)[0].progress == "4% of 2,005"


@pytest.mark.parametrize(
    ("variant", "score", "label"),
    [
        ("classic", 2995, "90 points"),
        ("classic", 3000, "120 points"),
        ("samba", 7000, "160 points"),
        ("samba-fournier", 7000, "120 points"),
        ("bolivia", 7000, "150 points"),
        ("brazilian", 6995, "120 points"),
        ("brazilian", 7000, "A canasta"),
        ("brazilian", 8000, "A canasta and melds worth at least 200 points in all"),
        ("brazilian", 9000, "A natural canasta"),
    ],
)
def test_meld_minimum_labels(client, variant, score, label):
    match_id = create_match(client, variant)
    # One side scores `score` with natural canastas and melded cards, the other nothing.
    record_ok(client, match_id, "none", scoring(score), {"meld_points": 0})
    response = client.get(f"/matches/{match_id}")
    assert totals(response) == [score, 0]
    cards = side_cards(response)
    assert cards[0].meld == label
    assert cards[1].meld == "50 points"


def test_house_rule_meld_table_is_used(client):
    # Samba with pagat's 150 at 7000 and more (tier 5 of the table).
    match_id = create_match(client, "samba", options={"meld_4_points": 150})
    record_ok(client, match_id, "none", scoring(7000), scoring(3000))
    cards = side_cards(client.get(f"/matches/{match_id}"))
    assert [c.meld for c in cards] == ["150 points", "120 points"]


def test_brazilian_meld_minimum_moves_through_the_high_tiers(client):
    match_id = create_match(client, "brazilian")
    # 8000 and 7000 over two hands (that many canastas do not fit in one deck).
    record_ok(client, match_id, "none", scoring(4000), scoring(3500))
    record_ok(client, match_id, "none", scoring(4000), scoring(3500))
    cards = side_cards(client.get(f"/matches/{match_id}"))
    assert [c.meld for c in cards] == [
        "A canasta and melds worth at least 200 points in all",
        "A canasta",
    ]
    # Hand 3: Ann & Cid +500 (8500), Bob & Dee +2000 (9000).
    record_ok(client, match_id, "none", scoring(500), scoring(2000))
    response = client.get(f"/matches/{match_id}")
    cards = side_cards(response)
    assert totals(response) == [8500, 9000]
    assert [c.meld for c in cards] == [
        "A canasta and melds worth at least 200 points in all",
        "A natural canasta",
    ]
    assert [c.lead for c in cards] == ["500 behind", "Leads by 500"]


def test_progress_bars_are_labelled(client):
    match_id = classic_hands(client, 1)
    bars = page(client.get(f"/matches/{match_id}")).find_all("progress")
    assert [b.attrs["value"] for b in bars] == ["30", "0"]
    assert bars[0].attrs["aria-label"] == "Ann & Cid: 30% of the target 5,000"


def test_a_long_match_shows_its_latest_50_hands_and_pages_to_the_earlier_ones(app, client):
    teams = [{"players": ["Ann", "Bob"]}, {"players": ["Cid", "Dee"]}]
    body = {"variant": "classic", "sides": teams, "options": {"target": 1_000_000}}
    match_id = client.post("/api/v1/matches", json=body).json["id"]
    hands = (
        [{"meld_points": 50 + 5 * n, "hand_points": 0}, {"meld_points": 50}] for n in range(120)
    )
    record_hands(app, match_id, hands)
    latest = client.get(f"/matches/{match_id}")
    rows = hand_rows(latest)
    assert [row[0] for row in rows] == [str(n) for n in range(71, 121)]
    running = sum(50 + 5 * n for n in range(120))
    assert rows[-1][2][0] == running  # running totals count every hand, shown or not
    root = page(latest)
    assert root.find("div", id="live").attrs.get("data-live")
    pages = root.find("p", class_="pages")
    assert "Hands 71\u2013120 of 120" in pages.text()
    assert [a.attrs["href"] for a in pages.find_all("a")] == [f"/matches/{match_id}?hands=21"]

    earlier = client.get(f"/matches/{match_id}?hands=21")
    assert [row[0] for row in hand_rows(earlier)] == [str(n) for n in range(21, 71)]
    root = page(earlier)
    assert "data-live" not in root.find("div", id="live").attrs  # history: not followed
    links = [a.attrs["href"] for a in root.find("p", class_="pages").find_all("a")]
    assert links == [f"/matches/{match_id}?hands=1", f"/matches/{match_id}"]
    first = client.get(f"/matches/{match_id}?hands=1")
    assert [row[0] for row in hand_rows(first)] == [str(n) for n in range(1, 51)]
    hand_links = [row.find("th").find("a").attrs["href"] for row in page(first).find_all("tr")[1:]]
    assert hand_links == [f"/matches/{match_id}/hands/{n}" for n in range(1, 51)]
    assert all(client.get(link).status_code == 200 for link in hand_links[::10])
    for junk in ("0", "-3", "abc", "99999999999"):
        shown = hand_rows(client.get(f"/matches/{match_id}?hands={junk}"))
        assert [row[0] for row in shown][-1] == "120"
