"""Hands stored with English lines and rules read the same after the migration to keys.

`fixtures/english_hands.json` holds a database of hands of every preset as the code
of commit 349ed67 stored them (lines with their English, frozen rules with nouns and
labels), and the words its API and dispute view showed for each hand. The rows are
loaded into a database of that revision, which is then upgraded: every line and
every frozen rule set is keys and numbers, and the API and the dispute view show
every line as before, on SQLite and on PostgreSQL.

Some hands are made older on the way in, as hands recorded before lines had keys
were stored: lines with their words only (the migration scores the hand again),
and one whose words no scoring gives any more (kept as they read).
"""

from __future__ import annotations

import copy
import json
import re
from datetime import datetime
from pathlib import Path
from typing import Any

import flask_migrate
import pytest
from sqlalchemy import DateTime, MetaData, insert, select, text

from scorekeeper.extensions import db
from scorekeeper.rules import PRESETS, rules_from_json
from scorekeeper.words import nouns
from tests.db.fixtures.record_english_hands import TABLES, DisputeView
from tests.rules.helpers import assert_keys_and_numbers
from tests.support import signed_in

from .conftest import make_app

FIXTURE = json.loads((Path(__file__).parent / "fixtures" / "english_hands.json").read_text())
REVISION = FIXTURE["revision"]
OLDER_MATCHES = (
    1,
    12,
    13,
    22,
    25,
    26,
)  # their hands' lines lose their keys, as stored before keys existed
# A line whose words no scoring gives any more (an older wording): kept as it read.
REWORDED = (2, 1, 0, 2, "Meld points")  # match, hand number, seat, line index, words


def older_rows() -> dict[str, list[dict[str, Any]]]:
    """The fixture's rows, some hands made older (see the module's docstring)."""
    rows = copy.deepcopy(FIXTURE["rows"])
    hands = {hand["id"]: hand for hand in rows["hand"]}
    for side in rows["hand_side"]:
        hand = hands[side["hand_id"]]
        if hand["match_id"] in OLDER_MATCHES:
            side["lines"] = [_words_only(line) for line in side["lines"]]
        match_id, number, seat, index, words = REWORDED
        if (hand["match_id"], hand["number"], side["seat"]) == (match_id, number, seat):
            side["lines"][index] = {**_words_only(side["lines"][index]), "label": words}
    for entry in rows["audit_entry"]:
        if entry["match_id"] in OLDER_MATCHES:
            for part in ("before", "after"):
                for side in (entry[part] or {}).get("sides", []):
                    side["lines"] = [_words_only(line) for line in side["lines"]]
    return rows


def _words_only(line: dict[str, Any]) -> dict[str, Any]:
    return {"rule": line["rule"], "label": line["label"], "points": line["points"]}


def shown() -> dict[str, Any]:
    """What the API and the dispute view showed, with the reworded line as it was stored."""
    seen = copy.deepcopy(FIXTURE["shown"])
    match_id, number, seat, index, words = REWORDED
    hand = seen[str(match_id)]["hands"][str(number)]
    hand["api"][seat][index][1] = words
    hand["page"]["lines"][seat][index][1] = words
    return seen


def load_and_upgrade(app) -> None:
    """The fixture's rows in a database of their revision, then the migrations to head."""
    rows = older_rows()
    with app.app_context():
        flask_migrate.upgrade(revision=REVISION)
        with db.engine.begin() as connection:
            meta = MetaData()
            meta.reflect(connection)
            for name in TABLES:
                table = meta.tables[name]
                when = {c.name for c in table.columns if isinstance(c.type, DateTime)}
                values = [
                    {
                        key: datetime.fromisoformat(value) if key in when and value else value
                        for key, value in row.items()
                    }
                    for row in rows[name]
                ]
                connection.execute(insert(table), values)
            if connection.dialect.name == "postgresql":  # ids given: catch the sequences up
                for name in TABLES:
                    quoted = f'"{name}"'  # user, group, match: reserved words
                    connection.execute(
                        text(
                            f"SELECT setval(pg_get_serial_sequence('{quoted}', 'id'), "
                            f"(SELECT max(id) FROM {quoted}))"
                        )
                    )
        flask_migrate.upgrade()


def check_stored_keys(app) -> None:
    """Every stored line and frozen rule set is keys and numbers, with no English."""
    with app.app_context(), db.engine.connect() as connection:
        meta = MetaData()
        meta.reflect(connection, only=["match", "hand_side", "audit_entry"])
        for (frozen,) in connection.execute(select(meta.tables["match"].c.rules)):
            assert "vocabulary" in frozen
            assert "name" not in frozen
            assert "canasta_noun" not in frozen
            assert all("singular" not in kind for kind in frozen["canasta_kinds"])
            rules_from_json(frozen)
        stored = [
            lines for (lines,) in connection.execute(select(meta.tables["hand_side"].c.lines))
        ]
        for before, after in connection.execute(
            select(meta.tables["audit_entry"].c.before, meta.tables["audit_entry"].c.after)
        ):
            for snapshot in (before, after):
                stored += [side["lines"] for side in (snapshot or {}).get("sides", [])]
    kinds: set[str] = set()
    for lines in stored:
        for line in lines:
            assert set(line) == {"rule", "key", "params", "points"}, line
            kinds.add(line["key"])
            params = dict(line["params"])
            if line["key"] in ("line.legacy", "line.penalty.free"):
                params.pop("text", None)
                params.pop("reason", None)
            assert_keys_and_numbers(params)
    # The older hands came back as keys (scored again), but for the one reworded line.
    assert "line.legacy" in kinds
    assert sum(line["key"] == "line.legacy" for lines in stored for line in lines) == 1


def check_shown(app) -> None:
    """The API and the dispute view show every hand's lines as before."""
    client = signed_in(app)
    for match_id, expected in shown().items():
        state = client.get(f"/api/v1/matches/{match_id}")
        assert state.status_code == 200, state.json
        assert state.json["variant"] == expected["variant"]
        changes = changes_now(grouped(expected["changes"]), expected["variant"])
        assert [entry["changes"] for entry in state.json["audit"]] == changes
        for hand in state.json["hands"]:
            was = expected["hands"][str(hand["number"])]
            lines = [
                [[line["rule"], line["label"], line["points"]] for line in side["lines"]]
                for side in hand["sides"]
            ]
            assert lines == grouped(was["api"]), (match_id, hand["number"])
            page = DisputeView()
            answer = client.get(f"/matches/{match_id}/hands/{hand['number']}")
            assert answer.status_code == 200
            page.feed(answer.get_data(as_text=True))
            # The score lines and the history read as before (numbers grouped as English
            # writes them now). The "As entered" rows name each field in the game's words
            # now, and a card count stored as a mapping is one row per category: they are
            # checked here side by side and per field in tests/web/test_hand_detail.py.
            now = {"lines": page.lines, "history": page.history}
            assert len(page.entered) == len(was["page"]["entered"])
            history = changes_now([grouped(was["page"]["history"])], expected["variant"])[0]
            assert now == {"lines": grouped(was["page"]["lines"]), "history": history}, (
                match_id,
                hand["number"],
            )
            assert page.rules == rules_now(expected["rules"]), match_id


def rules_now(rules: list[list[str]]) -> list[list[str]]:
    """The rule book as shown before, in today's words (numbers grouped, "took the
    pozzetto": the one there is)."""
    return [
        [cell.replace("took a pozzetto", "took the pozzetto") for cell in row]
        for row in grouped(rules)
    ]


def grouped(value: Any) -> Any:
    """What was shown, with its numbers as English writes them now (CLDR: 1,500)."""
    if isinstance(value, str):
        value = re.sub(r"(?<=\d)[ \u202f](?=\d{3}\b)", ",", value)  # the rule book's groups
        return re.sub(r"(?<![\d,.])\d{4,}(?!\d)", lambda m: f"{int(m.group()):,}", value)
    if isinstance(value, list):
        return [grouped(item) for item in value]
    if isinstance(value, dict):
        return {key: grouped(item) for key, item in value.items()}
    return value


def changes_now(changes: list[list[str]], variant: str) -> list[list[str]]:
    """A correction's changes ("Ana & Bea: meld points 400 → 300"), each field named as
    the dispute view names it now."""
    pattern = re.compile(r"^(.*?: )(.+?) (\S+ → \S+)$")

    def one(change: str) -> str:
        found = pattern.match(change)
        if found is None or found.group(2)[:1].isdigit() or found.group(2)[:1] in "+-":
            return change
        return f"{found.group(1)}{label_now(found.group(2), variant)} {found.group(3)}"

    return [[one(change) for change in entry] for entry in changes]


def label_now(label: str, variant: str) -> str:
    """A field of a record as named before, as it is named now: in the game's words,
    capitalized."""
    vocabulary = PRESETS[variant].vocabulary
    going_out = nouns.going_out(vocabulary)
    renamed = {
        "went out": going_out,
        "concealed": f"{going_out} concealed",
        "red threes": "Red threes laid down",
        "black threes": "Black threes laid down",
        "black threes in hand": "Black threes left in hand",
        "took extra hand": f"Took the extra hand ({nouns.extra_hand(vocabulary)})",
    }
    return renamed.get(label, label[:1].upper() + label[1:])


def test_the_fixture_holds_hands_of_every_preset():
    from scorekeeper.rules import PRESETS

    assert {match["variant"] for match in FIXTURE["rows"]["match"]} == set(PRESETS)
    keys = {
        line["key"]
        for side in FIXTURE["rows"]["hand_side"]
        for line in side["lines"]
        if "key" in line
    }
    assert len(keys) >= 25  # every kind of score line there was


def test_english_hands_read_the_same_after_the_migration_on_sqlite(tmp_path):
    app = make_app(f"sqlite:///{tmp_path / 'english.sqlite'}")
    load_and_upgrade(app)
    check_stored_keys(app)
    check_shown(app)
    with app.app_context():
        db.engine.dispose()


@pytest.mark.xdist_group("postgres")
def test_english_hands_read_the_same_after_the_migration_on_postgresql(empty_postgres_app):
    load_and_upgrade(empty_postgres_app)
    check_stored_keys(empty_postgres_app)
    check_shown(empty_postgres_app)


def test_the_migration_goes_back_to_english_as_the_code_before_read_it(tmp_path):
    """Downgraded, lines have their words again, and frozen rules their English."""
    app = make_app(f"sqlite:///{tmp_path / 'back.sqlite'}")
    load_and_upgrade(app)
    with app.app_context():
        flask_migrate.downgrade(revision=REVISION)
        with db.engine.connect() as connection:
            meta = MetaData()
            meta.reflect(connection, only=["match", "hand_side"])
            match, hand_side = meta.tables["match"], meta.tables["hand_side"]
            rules = dict(connection.execute(select(match.c.id, match.c.rules)).all())
            stored = select(hand_side.c.lines).order_by(hand_side.c.id)
            lines = [row[0] for row in connection.execute(stored)]
        db.engine.dispose()
    before = {row["id"]: row["rules"] for row in FIXTURE["rows"]["match"]}
    assert rules == before  # the English, as it was
    labels = [line["label"] for side in lines for line in side]
    assert labels == [line["label"] for side in older_rows()["hand_side"] for line in side["lines"]]
