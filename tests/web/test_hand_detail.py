"""The dispute view of one hand: lines per side, the rules it was scored under, its history."""

from __future__ import annotations

from .helpers import (
    classic_hands,
    correct_hand,
    create_match,
    page,
    record_ok,
    remove_hand,
    text_of,
)


def explained(response):
    """Per side: (heading, [(what, rule key, points)], hand score, running total text)."""
    sides = []
    for section in page(response).find_all("section", class_="explain"):
        table = section.find("table", class_="lines")
        lines = []
        for tr in table.find("tbody").find_all("tr"):
            th = tr.find("th")
            rule = tr.attrs["data-rule"]  # for machines: never shown on the page
            what = th.text().strip()
            lines.append((what, rule, int(tr.find("td").text())))
        foot = {
            tr.find("th").text(): tr.find("td").text() for tr in table.find("tfoot").find_all("tr")
        }
        sides.append((section.find("h2").text(), lines, foot["Hand score"], foot["Running total"]))
    return sides


def test_lines_per_side_add_up(client):
    match_id = classic_hands(client)
    response = client.get(f"/matches/{match_id}/hands/1")
    assert response.status_code == 200
    sides = explained(response)
    assert sides[0] == (
        "Ann & Cid: +1,500",
        [
            ("1 natural canasta x 500", "canasta.natural", 500),
            ("1 mixed canasta x 300", "canasta.mixed", 300),
            ("Melded cards", "meld_points", 500),
            ("Going out", "going_out", 100),
            ("1 red three x 100", "red_threes", 100),
            ("Cards left in hand", "hand_points", 0),
        ],
        "+1,500",
        "0 → 1,500",
    )
    # The melded and in-hand lines are shown even at 0, other zero lines are left out.
    assert sides[1] == (
        "Bob & Dee: -70",
        [("Melded cards", "meld_points", 50), ("Cards left in hand", "hand_points", -120)],
        "-70",
        "0 → -70",
    )
    for _, lines, score, _ in sides:
        assert sum(points for _, _, points in lines) == int(score.replace(",", ""))


def test_running_totals_and_dealer_of_a_later_hand(client):
    match_id = classic_hands(client)
    response = client.get(f"/matches/{match_id}/hands/2")
    text = text_of(response)
    assert "Dealt by Bob." in text
    sides = explained(response)
    assert [s[3] for s in sides] == ["1,500 → 1,580", "-70 → 930"]
    assert sides[1][1][0] == ("1 natural canasta x 500", "canasta.natural", 500)
    assert ("2 red threes x 100", "red_threes", 200) in sides[1][1]


def test_as_entered(client):
    match_id = classic_hands(client)
    root = page(client.get(f"/matches/{match_id}/hands/1"))
    entered = root.find_all("dl", class_="entered")
    pairs = dict(
        zip(
            [dt.text() for dt in entered[0].find_all("dt")],
            [dd.text() for dd in entered[0].find_all("dd")],
            strict=True,
        )
    )
    assert pairs["Going out"] == "yes"
    assert pairs["Meld points"] == "500"
    assert pairs["Red threes laid down"] == "1"
    assert pairs["Natural canastas"] == "1"


def test_rules_snapshot_uses_the_match_rules(client):
    match_id = classic_hands(client, 2, options={"natural_canasta": 600, "target": 4000})
    response = client.get(f"/matches/{match_id}/hands/1")
    section = page(response).find("section", **{"aria-labelledby": "rules-heading"})
    text = section.text()
    assert "Classic Canasta, target 4,000." in text
    assert "Natural canastas 600 each" in text
    assert "Mixed canastas 300 each" in text
    assert "Going out concealed 200 instead" in text
    assert "1,500 to 2,995 90 points" in text
    links = [a.attrs["href"] for a in section.find_all("a")]
    assert f"/matches/{match_id}/rules" in links
    # With the house rule, hand 1 has 600 for its natural canasta: 1600.
    assert explained(response)[0][0] == "Ann & Cid: +1,600"


def test_actions_link_to_correct_and_remove(client):
    match_id = classic_hands(client)
    root = page(client.get(f"/matches/{match_id}/hands/1"))
    hrefs = {a.text(): a.attrs["href"] for a in root.find_all("a")}
    assert hrefs["Correct this hand"] == f"/matches/{match_id}/hands/1/edit"
    assert hrefs["Remove this hand"] == f"/matches/{match_id}/hands/1/remove"
    assert hrefs["Back to the scoreboard"] == f"/matches/{match_id}"
    # The scoreboard's hand numbers lead here.
    board = page(client.get(f"/matches/{match_id}"))
    numbers = [a.attrs["href"] for a in board.find("table", class_="hands").find_all("a")]
    assert numbers == [f"/matches/{match_id}/hands/1", f"/matches/{match_id}/hands/2"]


def correction_history(response) -> list[str]:
    section = page(response).find("section", **{"aria-labelledby": "history-heading"})
    return [li.text() for li in section.find("ul", class_="audit").kids("li")]


def test_correction_history(client):
    match_id = classic_hands(client)
    history = correction_history(client.get(f"/matches/{match_id}/hands/1"))
    assert len(history) == 1
    assert history[0].startswith("Recorded")

    # Ann & Cid melded 600, not 500: 1500 -> 1600.
    response = correct_hand(client, match_id, 1, 0, {"meld_points": 600})
    assert response.status_code == 303
    response = client.get(f"/matches/{match_id}/hands/1")
    history = correction_history(response)
    assert len(history) == 2
    assert history[0].startswith("Corrected")
    assert "Ann & Cid +1,500 → +1,600" in history[0]
    assert "Bob & Dee" not in history[0]  # neither their entries nor their total changed
    assert "Ann & Cid: Meld points 500 → 600" in history[0]
    assert history[1].startswith("Recorded")
    assert "last changed" in text_of(response)
    # Hand 2 has its own history, untouched by hand 1's correction.
    assert len(correction_history(client.get(f"/matches/{match_id}/hands/2"))) == 1


def test_unknown_hand_is_404(client):
    match_id = classic_hands(client)
    for url in (
        f"/matches/{match_id}/hands/3",
        f"/matches/{match_id}/hands/0",
        f"/matches/{match_id}/hands/99/edit",
        f"/matches/{match_id + 1}/hands/1",
    ):
        response = client.get(url)
        assert response.status_code == 404, url
        assert response.content_type.startswith("text/html")
    assert "This match has no hand 3." in text_of(client.get(f"/matches/{match_id}/hands/3"))


def test_removed_hand_is_gone(client):
    match_id = classic_hands(client)
    assert remove_hand(client, match_id, 2).status_code == 303
    assert client.get(f"/matches/{match_id}/hands/2").status_code == 404
    assert client.get(f"/matches/{match_id}/hands/1").status_code == 200


def test_hand_detail_of_count_mode_hand(client):
    match_id = create_match(client, "classic")
    record_ok(
        client,
        match_id,
        "none",
        {"meld_mode": "cards", "meld_ace": 3, "meld_low": 4},
        {"hand_mode": "cards", "hand_two": 1},
    )
    sides = explained(client.get(f"/matches/{match_id}/hands/1"))
    # 3 x 20 + 4 x 5 = 80 melded; 1 two in hand = -20.
    assert sides[0][1] == [
        ("Melded cards: 3 aces x 20, 4 low cards x 5", "meld_points", 80),
        ("Cards left in hand", "hand_points", 0),
    ]
    assert sides[1][1] == [
        ("Melded cards", "meld_points", 0),
        ("Cards left in hand: 1 two x 20", "hand_points", -20),
    ]
