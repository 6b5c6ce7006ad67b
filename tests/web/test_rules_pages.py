"""Readable rules: every preset, and the rules frozen into a match."""

from __future__ import annotations

import pytest

from scorekeeper import words
from scorekeeper.rules import PRESETS

from .helpers import create_match, page, text_of


def rows(response, caption: str) -> dict[str, str]:
    """A rules table as {row heading: value}, found by its caption."""
    for table in page(response).find_all("table"):
        captions = table.find_all("caption")
        if captions and captions[0].text() == caption:
            return {
                tr.find("th").text(): tr.find("td").text()
                for tr in table.find_all("tr")
                if tr.find_all("td")
            }
    raise AssertionError(f"no table {caption!r}")


def test_rules_index_lists_every_preset(client):
    response = client.get("/rules")
    assert response.status_code == 200
    links = page(response).find("ul", class_="presets").find_all("a")
    assert [a.attrs["href"] for a in links] == [f"/rules/{key}" for key in PRESETS]
    assert [a.find(class_="preset-name").text() for a in links] == [
        words.game_name(p.key) for p in PRESETS.values()
    ]
    nav = page(response).find("nav")
    assert any(a.attrs["href"] == "/rules" for a in nav.find_all("a"))


@pytest.mark.parametrize("key", list(PRESETS))
def test_every_preset_page(client, key):
    preset = PRESETS[key]
    response = client.get(f"/rules/{key}")
    assert response.status_code == 200
    assert page(response).find("h1").text() == words.game_name(preset.key)
    game = rows(response, "The game")
    assert game["Target"] == f"{preset.target:,}"
    assert game["Source"] == words.game_source(preset.key)
    assert game["Played by"] == "; ".join(words.nouns.layout(lay) for lay in preset.layouts)
    assert rows(response, "Card values")


def test_brazilian_rules(client):
    response = client.get("/rules/brazilian")
    canastas = rows(response, "Canastas: bonuses")
    assert canastas == {
        "Natural canastas": "500 each",
        "Mixed canastas": "300 each",
        "Sambas": "1,500 each",
        "Bolivias": "2,000 each",
    }
    going_out = rows(response, "Going out")
    assert going_out["Going out"] == "100"
    assert going_out["Going out concealed"] == "200 instead"
    assert going_out["Needs"] == "1 samba and 2 canastas"
    red = rows(response, "Red threes")
    assert red["5 on one side"] == "1,000 in all"
    assert red["6 on one side"] == "1,200 in all"
    assert rows(response, "Penalties") == {
        "Black threes left in hand": "-100 each",
        "Melded sequences under 5 cards": "-1,000 each",
    }
    assert rows(response, "Initial meld minimum by score") == {
        "Below 0": "15 points",
        "0 to 1,495": "50 points",
        "1,500 to 2,995": "90 points",
        "3,000 to 6,995": "120 points",
        "7,000 to 7,995": "A canasta",
        "8,000 to 8,995": "A canasta and melds worth at least 200 points in all",
        "9,000 and more": "A natural canasta",
    }
    cards = rows(response, "Card values")
    assert cards["Jokers jokers"] == "50"


def test_bolivia_rules_name_the_escalera(client):
    response = client.get("/rules/bolivia")
    canastas = rows(response, "Canastas: bonuses")
    assert canastas["Escaleras"] == "1,500 each"
    assert canastas["Bolivias"] == "2,500 each"
    assert rows(response, "Going out")["Needs"] == "1 escalera and 2 canastas"
    assert rows(response, "Initial meld minimum by score")["7,000 and more"] == "150 points"


def test_burraco_and_buraco_rules(client):
    response = client.get("/rules/burraco")
    canastas = rows(response, "Burracos: bonuses")
    assert canastas == {
        "Clean burracos": "200 each",
        "Dirty burracos": "100 each",
        "Semi-clean burracos": "not played (a house-rule option)",
        "Burracos nobili": "not played (a house-rule option)",
        "Burracos reali": "not played (a house-rule option)",
    }
    assert rows(response, "Closing")["Needs"] == "1 burraco and the extra hand (pozzetto) taken"
    assert rows(response, "Penalties") == {"Extra hand (pozzetto) not taken": "-100"}
    assert "Initial meld minimum by score" not in text_of(response)
    assert "Red threes" not in text_of(response)

    response = client.get("/rules/buraco")
    canastas = rows(response, "Canastas: bonuses")
    assert canastas["Ace-to-ace canastas"].startswith("1,000 each")
    assert "Jokers" not in " ".join(rows(response, "Card values"))


def test_samba_fournier_penalty_catalogue(client):
    response = client.get("/rules/samba-fournier")
    penalties = rows(response, "Penalties")
    assert penalties["Red threes still in hand"] == "-1,500 each"
    assert penalties["Drew from the stock out of turn"] == "-100"
    assert rows(response, "Red threes")["Red threes cost 500 each when"] == (
        "the side has fewer than 2 canastas"
    )


def test_unknown_preset_is_a_404_page(client):
    response = client.get("/rules/poker")
    assert response.status_code == 404
    assert response.content_type.startswith("text/html")
    assert "There is no game called 'poker'." in text_of(response)


def test_match_rules_are_the_frozen_ones(client):
    match_id = create_match(
        client,
        "classic",
        options={
            "target": 3000,
            "natural_canasta": 600,
            "red_threes_negative_when": "no_meld",
            "meld_1_points": 60,
        },
    )
    response = client.get(f"/matches/{match_id}/rules")
    assert response.status_code == 200
    root = page(response)
    assert root.find("h1").text() == f"Classic Canasta rules of match {match_id}"
    assert "These are the rules this match was started with" in text_of(response)
    assert rows(response, "The game")["Target"] == "3,000"
    assert rows(response, "Canastas: bonuses")["Natural canastas"] == "600 each"
    assert rows(response, "Red threes")["Red threes count minus when"] == (
        "the side melded nothing at all"
    )
    assert rows(response, "Initial meld minimum by score")["0 to 1,495"] == "60 points"
    back = root.find("p", class_="crumbs").find("a")
    assert back.attrs["href"] == f"/matches/{match_id}"
    # The scoreboard links here; the preset's own page keeps the defaults.
    board = page(client.get(f"/matches/{match_id}"))
    assert any(a.attrs.get("href") == f"/matches/{match_id}/rules" for a in board.find_all("a"))
    assert rows(client.get("/rules/classic"), "The game")["Target"] == "5,000"
    # The new match's meld minimum uses the house rule too.
    assert "60 points" in text_of(client.get(f"/matches/{match_id}"))


@pytest.mark.parametrize("url", ["/matches/999/rules", "/matches/abc/rules", "/matches/0/rules"])
def test_rules_of_a_missing_match(client, url):
    response = client.get(url)
    assert response.status_code == 404
    assert response.content_type.startswith("text/html")


def test_new_match_page_links_to_the_rules(client):
    root = page(client.get("/matches/new/bolivia"))
    assert any(a.attrs.get("href") == "/rules/bolivia" for a in root.find_all("a"))


def test_hand_and_foot_rules(client):
    response = client.get("/rules/hand-and-foot")
    assert response.status_code == 200
    needs = rows(response, "Going out")["Needs"]
    assert needs == "2 clean books and 2 dirty books and 1 wild book and the foot picked up"
    assert rows(response, "Red threes") == {"Each red three": "100"}
    assert rows(response, "Penalties") == {"Red threes held at the end": "-100 each"}
