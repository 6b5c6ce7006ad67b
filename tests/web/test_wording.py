"""Generated words read as English: "an ace-to-ace canasta", never "a ace-to-ace canasta"."""

from __future__ import annotations

import re

import pytest

from scorekeeper.rules import PRESETS

from .helpers import text_of

# "a" before a vowel sound, "an" before a consonant ("a one-time", "an hour" are rare
# enough in this app's words to be left out of the check).
WRONG_ARTICLE = re.compile(r"\b(?:[Aa] (?=[aeiu])|[Aa]n (?=[b-df-gj-np-tv-z]))\w+")


def api_match(client, key: str) -> int:
    layout = PRESETS[key].layouts[0]
    sides = [
        {"players": [f"P{s}{p}" for p in range(layout.players_per_side)]}
        for s in range(layout.sides)
    ]
    response = client.post("/api/v1/matches", json={"variant": key, "sides": sides})
    assert response.status_code == 201, response.get_json()
    return response.get_json()["id"]


@pytest.mark.parametrize("key", list(PRESETS))
def test_articles_agree_on_every_page_of_a_game(client, key):
    match_id = api_match(client, key)
    pages = [
        f"/matches/new/{key}",
        f"/rules/{key}",
        f"/matches/{match_id}",
        f"/matches/{match_id}/hands/new",
        f"/matches/{match_id}/rules",
    ]
    for url in pages:
        wrong = WRONG_ARTICLE.findall(text_of(client.get(url)))
        assert wrong == [], f"{url}: {wrong}"


def test_the_check_finds_a_wrong_article():
    assert WRONG_ARTICLE.findall("Bonus for a ace-to-ace canasta, an natural one") == [
        "a ace",
        "an natural",
    ]
