"""docs/languages.md's vocabulary tables against the score lines the app renders: for key
rows of each language's table, a real hand of the game is recorded and its explanation
(the API's hand lines and the dispute view `/matches/<id>/hands/<n>`) must say the
table's word. A correction made to the catalogue and not to the table (or the other way
round) fails here."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

from tests.web.helpers import text_of

DOC = Path(__file__).resolve().parents[1] / "docs" / "languages.md"
SECTIONS = {
    "pt_BR": "### Brazilian Portuguese (`pt_BR`)",
    "es": "### Spanish (`es`)",
    "it": "### Italian (`it`)",
}
HEADERS = {"pt_BR": "pt-BR,pt;q=0.9", "es": "es-AR", "it": "it-IT,it;q=0.8"}


def vocabulary(locale: str) -> dict[str, tuple[str, str]]:
    """The language's tables (its section, up to the next language's): English term ->
    (game, word), the four columns English term | game | word | note."""
    text = DOC.read_text(encoding="utf-8")
    start = text.index(SECTIONS[locale])
    following = [text.find(h, start + 1) for h in SECTIONS.values()]
    end = min([at for at in following if at > start] or [len(text)])
    rows: dict[str, tuple[str, str]] = {}
    for line in text[start:end].splitlines():
        cells = [cell.strip() for cell in line.strip().strip("|").split("|")]
        if not line.startswith("|") or len(cells) != 4 or set(cells[0]) <= {"-"}:
            continue
        if cells[0] == "English term":
            continue
        rows.setdefault(cells[0], (cells[1], cells[2]))
    return rows


def table_word(locale: str, term: str, game: str) -> str:
    """The first word the table gives for `term` (before any " / " or "(pl. ...)"), after
    checking that the row is the one for `game`."""
    rows = vocabulary(locale)
    assert term in rows, f"{locale}: no row {term!r} in docs/languages.md"
    games, word = rows[term]
    assert game in games, f"{locale}: the row {term!r} is for {games!r}, not {game!r}"
    first = re.sub(r"\(.*?\)", "", word.split(" / ")[0]).strip()
    assert first, (locale, term, word)
    return first


CANASTA_PAIRS = [{"players": ["Ann", "Bob"]}, {"players": ["Cy", "Di"]}]
HEADS_UP = [{"players": ["Ann"]}, {"players": ["Bob"]}]
# A hand with one natural and one mixed canasta for the side going out; the other side
# never took its extra hand (the foot: morto, pozzetto, muerto) where the game has one.
OUT = {"went_out": True, "canastas": {"natural": 1, "mixed": 1}, "meld_points": 150}
WITH_FOOT = [{**OUT, "took_extra_hand": True}, {"took_extra_hand": False, "meld_points": 40}]
HANDS: dict[str, tuple[list[dict[str, Any]], list[dict[str, Any]]]] = {
    "buraco": (HEADS_UP, WITH_FOOT),
    "burraco": (HEADS_UP, WITH_FOOT),
    "classic": (CANASTA_PAIRS, [OUT, {"meld_points": 40}]),
}

# locale, the table's English term, the table's game, the variant played, the score line.
ROWS = [
    ("pt_BR", "natural canasta / clean canasta", "every game", "buraco", "canasta.natural"),
    ("pt_BR", "mixed canasta / dirty canasta", "every game", "buraco", "canasta.mixed"),
    ("pt_BR", "extra hand, morto, pozzetto", "Buraco", "buraco", "extra_hand"),
    ("pt_BR", "natural canasta / clean canasta", "every game", "burraco", "canasta.natural"),
    ("pt_BR", "extra hand, morto, pozzetto", "Burraco", "burraco", "extra_hand"),
    ("it", "clean / dirty / semi-clean burraco", "Burraco", "burraco", "canasta.natural"),
    ("it", "extra hand", "Burraco", "burraco", "extra_hand"),
    ("it", "natural canasta", "Canasta family", "classic", "canasta.natural"),
    ("it", "mixed canasta", "Canasta family", "classic", "canasta.mixed"),
    ("it", "extra hand (morto)", "Buraco", "buraco", "extra_hand"),
    ("es", "natural canasta / clean canasta", "Canasta", "classic", "canasta.natural"),
    ("es", "mixed canasta / dirty canasta", "same games", "classic", "canasta.mixed"),
    ("es", "extra hand: morto", "Buraco", "buraco", "extra_hand"),
    ("es", "extra hand: pozzetto", "Burraco", "burraco", "extra_hand"),
]


def test_the_tables_are_read():
    for locale in SECTIONS:
        assert len(vocabulary(locale)) >= 10, locale
    assert table_word("pt_BR", "natural canasta / clean canasta", "every game")


@pytest.mark.parametrize(("locale", "term", "game", "variant", "rule"), ROWS)
def test_a_hand_is_explained_in_the_tables_words(client, locale, term, game, variant, rule):
    word = table_word(locale, term, game)
    sides, hand = HANDS[variant]
    made = client.post("/api/v1/matches", json={"variant": variant, "sides": sides})
    assert made.status_code == 201, made.json
    match_id = made.json["id"]
    language = {"Accept-Language": HEADERS[locale]}
    recorded = client.post(
        f"/api/v1/matches/{match_id}/hands", json={"sides": hand}, headers=language
    )
    assert recorded.status_code == 201, recorded.json
    # The stored hand read back in the language (not only the answer to the write).
    state = client.get(f"/api/v1/matches/{match_id}", headers=language).json
    labels = [
        line["label"]
        for side in state["hands"][0]["sides"]
        for line in side["lines"]
        if line["rule"] == rule
    ]
    assert labels, f"no {rule} line in the {variant} hand"
    said = re.compile(rf"(?<!\w){re.escape(word)}(?!\w)", re.IGNORECASE)
    for label in labels:
        assert said.search(label), f"{locale} {variant}: {label!r} does not say {word!r}"
    dispute = client.get(f"/matches/{match_id}/hands/1", headers=language)
    assert dispute.status_code == 200
    shown = text_of(dispute)
    for label in labels:
        assert label in shown, f"the dispute view does not show {label!r}"
