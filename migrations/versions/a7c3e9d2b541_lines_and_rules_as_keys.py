"""Score lines and frozen rules as message keys and parameters, no English

Every stored score line (each hand's sides, and the hands the audit trail keeps)
becomes {"rule", "key", "params", "points"} with parameters of numbers and keys, and
each match's frozen rules lose their English (nouns, labels, names) and name their
vocabulary. The words are made when a page or an answer shows them, in the
reader's language.

A line is converted only when the words of the converted line are the words it
showed: a line stored with a key has its parameters rewritten (the nouns and labels
dropped, what they named kept as keys); a line stored with its words alone (hands
recorded before lines had keys) takes the line of the hand scored again under the
match's frozen rules, when that gives the same total and the same words. A line
neither gives is kept as it read: {"key": "line.legacy", "params": {"text": ...}}.
So every hand reads as it did.

Downgrading writes each line's words back beside its key, and the English of the
frozen rules, as the code before this revision reads them.

This migration uses the app's rules engine and its words (scorekeeper.rules,
scorekeeper.words): they are what says a line or a rule set.

Revision ID: a7c3e9d2b541
Revises: d9b4c6e2a8f1
Create Date: 2026-11-28 09:00:00

"""

from __future__ import annotations

from typing import Any

import sqlalchemy as sa
from alembic import op

from scorekeeper import words
from scorekeeper.rules import InvalidHand, InvalidRules, Rules, read_hand, rules_from_json
from scorekeeper.rules import rules_to_json, score
from scorekeeper.rules.hand import MAX_DEAL
from scorekeeper.rules.seats import seat_scores

# revision identifiers, used by Alembic.
revision = "a7c3e9d2b541"
down_revision = "d9b4c6e2a8f1"
branch_labels = None
depends_on = None

MATCH = sa.table(
    "match",
    sa.column("id", sa.Integer),
    sa.column("rules", sa.JSON),
    sa.column("players_per_side", sa.Integer),
)
HAND = sa.table(
    "hand",
    sa.column("id", sa.Integer),
    sa.column("match_id", sa.Integer),
    sa.column("number", sa.Integer),
    sa.column("lineup", sa.JSON),
)
HAND_SIDE = sa.table(
    "hand_side",
    sa.column("id", sa.Integer),
    sa.column("hand_id", sa.Integer),
    sa.column("seat", sa.Integer),
    sa.column("record", sa.JSON),
    sa.column("total", sa.Integer),
    sa.column("lines", sa.JSON),
)
AUDIT = sa.table(
    "audit_entry",
    sa.column("id", sa.Integer),
    sa.column("match_id", sa.Integer),
    sa.column("before", sa.JSON),
    sa.column("after", sa.JSON),
)

WORDS = ("noun", "nouns", "label", "name", "feet")  # parameters that were English
THREES = {"red_threes": "red_three", "black_threes": "black_three"}  # a line's rule: its cards


def _reason(reason: Any) -> Any:
    if isinstance(reason, dict) and "key" in reason:
        params = {k: v for k, v in reason.get("params", {}).items() if k not in WORDS}
        return {"key": reason["key"], "params": params}
    return reason


def keyed(line: dict[str, Any]) -> dict[str, Any]:
    """A line stored with a key and English parameters, as keys and numbers."""
    key = str(line["key"])
    params = {k: v for k, v in dict(line.get("params") or {}).items() if k not in WORDS}
    if "cards" in params and isinstance(params["cards"], list):
        params["cards"] = [list(entry[:3]) for entry in params["cards"]]
    if "reason" in params:
        params["reason"] = _reason(params["reason"])
    if key.startswith("line.red_threes"):
        params["threes"] = THREES.get(str(line.get("rule")), "red_three")
    if key == "line.counted":
        params = {"penalty": line.get("rule"), **params}
    if key == "line.penalty.catalogue_many":
        key = "line.penalty.catalogue"
    return {"rule": line.get("rule"), "key": key, "params": params, "points": line.get("points")}


def legacy(line: dict[str, Any]) -> dict[str, Any]:
    text = str(line.get("label", ""))
    params = {"text": text}
    return {
        "rule": line.get("rule"),
        "key": "line.legacy",
        "params": params,
        "points": line["points"],
    }


def _without_nulls(record: Any) -> Any:
    if not isinstance(record, dict):
        return record
    return {key: value for key, value in record.items() if value is not None}


def rescored(rules: Rules, number: int, players: int, sides: list[dict[str, Any]], lineup: Any):
    """Each seat's lines of the hand scored again (None when the engine refuses it now).
    A field stored as null meant the field left out (the form stored the points of a part
    entered card by card so): read so again."""
    records = [_without_nulls(side.get("input")) for side in sides]
    if lineup:
        records = [records[seats[0]] for seats in lineup]
    try:
        hand = read_hand(rules, records, players, min(number, MAX_DEAL), lineup or None)
    except InvalidHand:
        return None
    scores = score(rules, hand)
    if hand.lineup:
        scores = tuple(seat_scores(rules, hand.lineup, scores))
    return [(s.total, [line.to_dict() for line in s.lines]) for s in scores]


def converted_sides(rules: Rules, number: int, players: int, sides: list[dict[str, Any]], lineup):
    """A hand's sides ({"input", "total", "lines"}, by seat) with their lines as keys."""
    vocabulary = rules.vocabulary
    again = None
    out = []
    for seat, side in enumerate(sides):
        lines = []
        stored = list(side.get("lines") or [])
        for index, line in enumerate(stored):
            if "label" not in line:  # already keys (or never had words)
                lines.append(line)
                continue
            shown = str(line["label"])
            made = keyed(line) if line.get("key") else None
            if made is None or words.line_label(made, vocabulary) != shown:
                if again is None:
                    again = rescored(rules, number, players, sides, lineup) or []
                total, fresh = again[seat] if seat < len(again) else (None, [])
                made = None
                if total == side.get("total") and len(fresh) == len(stored):
                    candidate = fresh[index]
                    same = (candidate["rule"], candidate["points"]) == (
                        line.get("rule"),
                        line.get("points"),
                    )
                    if same and words.line_label(candidate, vocabulary) == shown:
                        made = candidate
            lines.append(made if made is not None else legacy(line))
        out.append({**side, "lines": lines})
    return out


def worded(rules: Rules, sides: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Sides with each line's words beside its key, as the code before reads them."""
    out = []
    for side in sides:
        lines = []
        for line in side.get("lines") or []:
            label = words.line_label(line, rules.vocabulary)
            lines.append({"label": label, **line})
        out.append({**side, "lines": lines})
    return out


def english_rules(rules: Rules) -> dict[str, Any]:
    """Frozen rules with their English, as the code before this revision reads them."""
    vocabulary, nouns = rules.vocabulary, words.nouns
    data = rules_to_json(rules)
    del data["vocabulary"]
    data.pop("family", None)  # (read again from the preset's key: see rules_from_json)
    data["name"] = words.game_name(rules.key)
    data["description"] = words.game_description(rules.key)
    data["source"] = words.game_source(rules.key)
    data["canasta_noun"] = nouns.canasta(vocabulary, 1)
    data["canasta_plural"] = nouns.canasta(vocabulary, 2)
    for kind in data["canasta_kinds"]:
        kind["singular"] = nouns.kind(vocabulary, kind["key"], 1)
        kind["plural"] = nouns.kind(vocabulary, kind["key"], 2)
        kind["note"] = nouns.note(kind["note"])
    for card in data["cards"]:
        card["singular"] = nouns.category(card["key"], 1)
        card["plural"] = nouns.category(card["key"], 2)
        card["cards"] = nouns.category_cards(card["key"], tuple(card.pop("ranks")))
    data["deck"]["label"] = nouns.deck(rules.deck)
    del data["deck"]["packs"]
    data["going_out"]["label"] = nouns.going_out(vocabulary)
    for name in ("red_threes", "black_threes"):
        if data[name] is not None:
            data[name]["singular"] = nouns.category(data[name]["card_category"], 1)
            data[name]["plural"] = nouns.category(data[name]["card_category"], 2)
    for penalty in (*data["counted_penalties"], *data["optional_penalties"]):
        penalty["singular"] = nouns.penalty(vocabulary, penalty["field"], 1)
        penalty["plural"] = nouns.penalty(vocabulary, penalty["field"], 2)
    for special in data["special_hands"]:
        special["label"] = nouns.special_hand(special["key"])
    for item in data["catalogue"]:
        item["label"] = nouns.catalogue_penalty(item["key"])
    if data["extra_hand"] is not None:
        data["extra_hand"]["name"] = nouns.extra_hand(vocabulary)
    if data["feet"] is not None:
        data["feet"]["singular"] = nouns.foot(vocabulary, 1)
        data["feet"]["plural"] = nouns.foot(vocabulary, 2)
    if data["seating"] is not None:
        for shape in (*data["seating"]["opening"], *data["seating"]["later"]):
            shape["label"] = nouns.shape(shape["key"])
    return data


def _snapshot(change, rules: Rules, players: int, snapshot: Any) -> Any:
    if not isinstance(snapshot, dict) or not isinstance(snapshot.get("sides"), list):
        return snapshot
    sides = change(
        rules, int(snapshot.get("number", 1)), players, snapshot["sides"], snapshot.get("lineup")
    )
    return {**snapshot, "sides": sides}


def _each_match(change_rules, change_sides) -> None:
    bind = op.get_bind()
    matches = bind.execute(sa.select(MATCH.c.id, MATCH.c.rules, MATCH.c.players_per_side)).all()
    for match_id, frozen, players in matches:
        try:
            rules = rules_from_json(frozen)
        except (InvalidRules, KeyError, TypeError, ValueError):
            continue  # rules no version can read: left as they are
        new_rules = change_rules(rules, frozen)
        if new_rules != frozen:
            bind.execute(sa.update(MATCH).where(MATCH.c.id == match_id).values(rules=new_rules))
        hands = bind.execute(
            sa.select(HAND.c.id, HAND.c.number, HAND.c.lineup).where(HAND.c.match_id == match_id)
        ).all()
        for hand_id, number, lineup in hands:
            rows = bind.execute(
                sa.select(HAND_SIDE.c.id, HAND_SIDE.c.record, HAND_SIDE.c.total, HAND_SIDE.c.lines)
                .where(HAND_SIDE.c.hand_id == hand_id)
                .order_by(HAND_SIDE.c.seat)
            ).all()
            sides = [
                {"input": record, "total": total, "lines": lines}
                for _, record, total, lines in rows
            ]
            changed = change_sides(rules, number, players, sides, lineup)
            for (row_id, _, _, lines), side in zip(rows, changed, strict=True):
                if side["lines"] != lines:
                    bind.execute(
                        sa.update(HAND_SIDE)
                        .where(HAND_SIDE.c.id == row_id)
                        .values(lines=side["lines"])
                    )
        entries = bind.execute(
            sa.select(AUDIT.c.id, AUDIT.c.before, AUDIT.c.after).where(AUDIT.c.match_id == match_id)
        ).all()
        for entry_id, before, after in entries:
            bind.execute(
                sa.update(AUDIT)
                .where(AUDIT.c.id == entry_id)
                .values(
                    before=_snapshot(change_sides, rules, players, before),
                    after=_snapshot(change_sides, rules, players, after),
                )
            )


def upgrade():
    _each_match(lambda rules, frozen: rules_to_json(rules), converted_sides)


def downgrade():
    _each_match(lambda rules, frozen: english_rules(rules), lambda r, n, p, s, l: worded(r, s))
