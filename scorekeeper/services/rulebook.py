"""Rule sets and hand records described as rows a player can read."""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from .. import words
from ..rules import MeldRequirement, Rules
from ..rules.model import LineupShape, MeldMinusWhen, RedThrees, Seating, Sign
from ..rules.validate import clause_params
from ..words import nouns
from ..words.base import Say, capitalized
from ..words.checks import clause


@dataclass(frozen=True)
class Row:
    label: str
    value: str


@dataclass(frozen=True)
class Rulebook:
    name: str
    description: str
    source: str
    layouts: list[str]
    deck: str
    cards: list[tuple[str, str, int, int]]
    canastas: list[Row]
    going_out: list[Row]
    red_threes: list[Row]
    penalties: list[Row]
    meld_table: list[Row]
    target: int
    seats: list[Row] = field(default_factory=list)  # who plays with whom (Burraco for three)
    black_threes: list[Row] = field(default_factory=list)
    special_hands: list[Row] = field(default_factory=list)


def _number(points: int) -> str:
    return words.number(points, grouped=True)


def meld_ranges(rules: Rules) -> list[Row]:
    rows = []
    tiers = rules.meld_table
    for index, tier in enumerate(tiers):
        upper = tiers[index + 1].min_score if index + 1 < len(tiers) else None
        if tier.min_score is None:
            scores = f"Below {_number(upper)}" if upper is not None else "Any score"
        elif upper is None:
            scores = f"{_number(tier.min_score)} and more"
        else:
            scores = f"{_number(tier.min_score)} to {_number(upper - 5)}"
        need = MeldRequirement(tier.points, tier.canasta)
        rows.append(Row(scores, words.meld_label(need, rules.vocabulary)))
    return rows


def going_out_text(rules: Rules) -> str:
    vocabulary = rules.vocabulary
    say = Say({}, vocabulary)
    parts = [clause(say, clause_params(rules, need)) for need in rules.going_out.needs]
    if rules.going_out.needs_extra_hand and rules.extra_hand is not None:
        parts.append(f"the extra hand ({nouns.extra_hand(vocabulary)}) taken")
    if rules.feet is not None and rules.going_out.needs_all_feet:
        parts.append(f"every player's {nouns.foot(vocabulary, 1)} picked up")
    elif rules.feet is not None and rules.going_out.needs_foot:
        parts.append(f"the {nouns.foot(vocabulary, 1)} picked up")
    return " and ".join(parts) if parts else "nothing special"


def _red_three_rows(rules: Rules, red: RedThrees | None) -> list[Row]:
    """The schedule of one colour of threes laid down, and when it counts minus or nothing."""
    if red is None:
        return []
    vocabulary = rules.vocabulary
    one = nouns.category(red.card_category, 1)
    name = capitalized(nouns.category(red.card_category, 2))
    if red.laid_sign == Sign.MINUS:
        return [Row(f"Each {one} laid down", f"-{_number(red.each)}")]
    counts = {t.count for t in red.totals}
    rows = [] if 1 in counts else [Row(f"Each {one}", _number(red.each))]
    rows += [Row(f"{t.count} on one side", f"{_number(t.total)} in all") for t in red.totals]
    if red.negative_when == "never":
        return rows
    if red.negative_when == "no_meld":
        when = "the side melded nothing at all"
    elif red.canastas_needed == 1:
        when = f"the side has no {nouns.canasta(vocabulary, 1)}"
    else:
        canastas = nouns.canasta(vocabulary, red.canastas_needed)
        when = f"the side has fewer than {red.canastas_needed} {canastas}"
    minus = f"cost {_number(red.penalty_each)} each" if red.penalty_each else "count minus"
    rows.append(Row(f"{name} {minus} when", when))
    if red.plus_from is not None and red.plus_from > red.canastas_needed:
        low, high = red.canastas_needed, red.plus_from - 1
        span = f"exactly {low}" if low == high else f"{low} to {high}"
        noun = nouns.canasta(vocabulary, high)
        rows.append(Row(f"{name} count nothing when", f"the side has {span} {noun}"))
        more = nouns.canasta(vocabulary, red.plus_from)
        rows.append(Row(f"{name} count plus when", f"the side has {red.plus_from} {more} or more"))
    return rows


def _special_hand_rows(rules: Rules) -> list[Row]:
    if not rules.special_hands:
        return []
    rows = [Row("Any of them", "scores alone: nothing else counts for the side that went out")]
    rows += [
        Row(
            nouns.special_hand(special.key),
            _number(special.points) + (", and wins the game at once" if special.wins_game else ""),
        )
        for special in rules.special_hands
    ]
    return rows


def _shape_text(shape: LineupShape, extra_hand: str) -> str:
    text = nouns.shape(shape.key)
    if shape.lone_took_extra_hand:
        text += f" (the first to finish the dealt cards takes the {extra_hand} and plays alone)"
    if shape.no_extra_hand:
        text += f" (only when the stock ran out before anyone took a {extra_hand})"
    return text


def _seat_rows(rules: Rules, seating: Seating) -> list[Row]:
    """Who plays with whom, and how a side's score is shared among its players."""
    extra = nouns.extra_hand(rules.vocabulary)
    rows = [Row("Players", f"{seating.seats}, each with a running total")]
    playable = seating.shapes(None)
    if seating.switches():
        opening = "; or ".join(_shape_text(s, extra) for s in seating.opening)
        later = "; or ".join(_shape_text(s, extra) for s in seating.later)
        rows.append(Row("Each hand is played", opening))
        rows.append(
            Row(
                f"After a hand that ends with a player at {seating.switch_from} or more",
                f"every later hand: {later}",
            )
        )
    else:
        labels = dict.fromkeys(nouns.shape(s.key) for s in playable)
        rows.append(Row("Each hand is played", "; or ".join(labels)))
    rows.append(Row("A player alone", "scores the side's total in full"))
    if any(size > 1 for shape in playable for size in shape.sizes):
        examples = ", ".join(
            f"{_number(total)}: {_number(seating.share(total, 2))} each" for total in (135, -135)
        )
        rows.append(
            Row(
                "A pair",
                f"each player scores half the pair's total, rounded up to a multiple of "
                f"{seating.share_multiple} ({examples})",
            )
        )
    return rows


def describe(rules: Rules) -> Rulebook:
    vocabulary = rules.vocabulary
    deck_counts = {entry.category: entry.count for entry in rules.deck.counts}
    cards = [
        (
            capitalized(nouns.category(c.key, 2)),
            nouns.category_cards(c.key, c.ranks),
            c.value,
            deck_counts.get(c.key, 0),
        )
        for c in rules.cards
    ]

    def kinds(key: str) -> str:
        return capitalized(nouns.kind(vocabulary, key, 2))

    canastas = [
        Row(
            kinds(kind.key),
            f"{_number(kind.bonus)} each" + (f" ({nouns.note(kind.note)})" if kind.note else ""),
        )
        for kind in rules.kinds
    ]
    canastas += [
        Row(kinds(kind.key), "not played (a house-rule option)")
        for kind in rules.canasta_kinds
        if not kind.enabled
    ]
    if rules.meld_minus_when != MeldMinusWhen.NEVER:
        lacking = "no clean " if rules.meld_minus_when == MeldMinusWhen.NO_CLEAN_CANASTA else "no "
        canasta = nouns.canasta(vocabulary, 1)
        canastas.append(Row("Melded cards", f"count minus when the side has {lacking}{canasta}"))
    going = rules.going_out
    label = nouns.going_out(vocabulary)
    going_out = [Row(label, _number(going.bonus))]
    if going.concealed_bonus is not None:
        going_out.append(Row(f"{label} concealed", f"{_number(going.concealed_bonus)} instead"))
    else:
        going_out.append(Row(f"{label} concealed", "no extra bonus"))
    going_out.append(Row("Needs", going_out_text(rules)))
    penalties = [
        Row(
            capitalized(nouns.penalty(vocabulary, p.field, 2)),
            f"-{_number(p.points)} each"
            + ("; no going out while one is left" if p.forbids_going_out else ""),
        )
        for p in rules.counted_penalties
    ]
    if rules.extra_hand is not None:
        extra = rules.extra_hand
        penalties.append(
            Row(
                f"Extra hand ({nouns.extra_hand(vocabulary)}) not taken",
                f"-{_number(extra.penalty_not_taken)}",
            )
        )
    penalties += [
        Row(nouns.catalogue_penalty(p.key), f"-{_number(p.points)}") for p in rules.catalogue
    ]
    return Rulebook(
        name=words.game_name(rules.key),
        description=words.game_description(rules.key),
        source=words.game_source(rules.key),
        layouts=[nouns.layout(layout) for layout in rules.layouts],
        deck=nouns.deck(rules.deck),
        cards=cards,
        canastas=canastas,
        going_out=going_out,
        red_threes=_red_three_rows(rules, rules.red_threes),
        black_threes=_red_three_rows(rules, rules.black_threes),
        special_hands=_special_hand_rows(rules),
        penalties=penalties,
        meld_table=meld_ranges(rules),
        target=rules.target,
        seats=_seat_rows(rules, rules.seating) if rules.seating is not None else [],
    )


NOTHING = "\u2013"  # shown where a record says nothing


def _shown(value: object) -> str:
    """A stored value as text, whatever it is (a record may predate today's checks)."""
    return value if isinstance(value, str) else json.dumps(value, ensure_ascii=False)


def _entries(rules: Rules, record: object) -> dict[str, str]:
    """A hand record as readable label -> value pairs, in the words of the variant.

    A stored record is shown as it is, odd values too: a null field is left out, and a
    value of the wrong shape is shown as its JSON."""
    if not isinstance(record, Mapping):
        return {} if record is None else {"record": _shown(record)}
    entries: dict[str, str] = {}
    vocabulary = rules.vocabulary
    for key, value in record.items():
        if value is None:
            continue
        if key in ("canastas", "meld_cards", "hand_cards") and not isinstance(value, Mapping):
            entries[key.replace("_", " ")] = _shown(value)
        elif key == "canastas":
            for kind_key, count in value.items():
                known = any(k.key == kind_key for k in rules.canasta_kinds)
                named = nouns.kind(vocabulary, kind_key, 2) if known else str(kind_key)
                entries[named] = _shown(count)
        elif key in ("meld_cards", "hand_cards"):
            for category_key, count in value.items():
                known = rules.category(category_key) is not None
                noun = nouns.category(category_key, 2) if known else category_key
                label = f"melded {noun}" if key == "meld_cards" else f"{noun} in hand"
                entries[label] = _shown(count)
        elif key == "penalties" and isinstance(value, list):
            for index, item in enumerate(value, start=1):
                entries.update(_penalty_entry(rules, index, item))
        elif key == "special_hand":
            special = rules.special_hand(value) if isinstance(value, str) else None
            entries["special hand"] = nouns.special_hand(special.key) if special else _shown(value)
        elif isinstance(value, bool):
            entries[key.replace("_", " ")] = "yes" if value else "no"
        else:
            entries[key.replace("_", " ")] = _shown(value)
    return entries


def _penalty_entry(rules: Rules, index: int, item: object) -> dict[str, str]:
    if not isinstance(item, Mapping):
        return {f"other penalty {index}": _shown(item)}
    if "rule" in item:
        key = item["rule"]
        rule = rules.catalogue_penalty(key) if isinstance(key, str) else None
        named = nouns.catalogue_penalty(rule.key) if rule else _shown(key)
        return {f"penalty: {named}": _shown(item.get("count", 1))}
    reason = item.get("reason", "")
    return {f"other penalty {index}": f"{_shown(item.get('points'))} ({_shown(reason)})"}


def describe_record(rules: Rules, record: object) -> list[tuple[str, str]]:
    return list(_entries(rules, record).items())


def _unsaid(value: str) -> str:
    """What a record means by leaving a field out: no, 0, or nothing at all."""
    if value in ("yes", "no"):
        return "no"
    return "0" if value.isdigit() else NOTHING


def record_changes(
    rules: Rules, names: list[str], before: list[dict[str, Any]], after: list[dict[str, Any]]
) -> list[str]:
    """What changed in each side's record, field by field (an omitted field is its default)."""
    changes = []
    for name, old, new in zip(names, before, after, strict=False):
        old_entries, new_entries = _entries(rules, old), _entries(rules, new)
        for label in [*old_entries, *(k for k in new_entries if k not in old_entries)]:
            was = old_entries.get(label) or _unsaid(new_entries[label])
            now = new_entries.get(label) or _unsaid(old_entries[label])
            if was != now:
                changes.append(f"{name}: {label} {was} → {now}")
    return changes
