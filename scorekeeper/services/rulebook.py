"""Rule sets described as rows a player can read, in the reader's language and each game's
own words (the rules pages, and the rules a hand was scored under)."""

from __future__ import annotations

from dataclasses import dataclass, field

from .. import words
from ..rules import MeldRequirement, Rules
from ..rules.model import LineupShape, MeldMinusWhen, RedThrees, Seating, Sign
from ..rules.validate import clause_params
from ..words import nouns
from ..words.base import Say, capitalized
from ..words.checks import clause
from ..words.translate import gettext
from .record_words import describe_record, record_changes

__all__ = ["Row", "Rulebook", "describe", "describe_record", "record_changes"]


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
    target: str
    seats: list[Row] = field(default_factory=list)  # who plays with whom (Burraco for three)
    black_threes: list[Row] = field(default_factory=list)
    special_hands: list[Row] = field(default_factory=list)
    canastas_caption: str = ""  # "Canastas: bonuses", in the game's words
    going_out_caption: str = ""  # "Going out", "Closing"


def _number(points: int) -> str:
    return words.number(points)


def meld_ranges(rules: Rules) -> list[Row]:
    rows = []
    tiers = rules.meld_table
    for index, tier in enumerate(tiers):
        upper = tiers[index + 1].min_score if index + 1 < len(tiers) else None
        if tier.min_score is None:
            scores = (
                gettext("Below %(score)s", score=_number(upper))
                if upper is not None
                else gettext("Any score")
            )
        elif upper is None:
            scores = gettext("%(score)s and more", score=_number(tier.min_score))
        else:
            scores = gettext(
                "%(low)s to %(high)s", low=_number(tier.min_score), high=_number(upper - 5)
            )
        need = MeldRequirement(tier.points, tier.canasta)
        rows.append(Row(scores, words.meld_label(need, rules.vocabulary)))
    return rows


def going_out_text(rules: Rules) -> str:
    vocabulary = rules.vocabulary
    say = Say({}, vocabulary)
    parts = [clause(say, clause_params(rules, need)) for need in rules.going_out.needs]
    if rules.going_out.needs_extra_hand and rules.extra_hand is not None:
        parts.append(gettext("the extra hand (%(name)s) taken", name=nouns.extra_hand(vocabulary)))
    if rules.feet is not None and rules.going_out.needs_all_feet:
        parts.append(gettext("every player's %(foot)s picked up", foot=nouns.foot(vocabulary, 1)))
    elif rules.feet is not None and rules.going_out.needs_foot:
        parts.append(gettext("the %(foot)s picked up", foot=nouns.foot(vocabulary, 1)))
    return words.both(parts) if parts else gettext("nothing special")


def _minus_when(rules: Rules, red: RedThrees) -> str:
    """When threes of this colour count minus: the side's canastas it lacks."""
    if red.negative_when == "no_meld":
        return gettext("the side melded nothing at all")
    if red.canastas_needed == 1:
        return gettext("the side has %(none)s", none=nouns.no_canasta(rules.vocabulary))
    return gettext(
        "the side has fewer than %(count)s %(canastas)s",
        count=_number(red.canastas_needed),
        canastas=nouns.canasta(rules.vocabulary, red.canastas_needed),
    )


def _red_three_rows(rules: Rules, red: RedThrees | None) -> list[Row]:
    """The schedule of one colour of threes laid down, and when it counts minus or nothing."""
    if red is None:
        return []
    vocabulary = rules.vocabulary
    one = nouns.category(red.card_category, 1)
    name = capitalized(nouns.category(red.card_category, 2))
    if red.laid_sign == Sign.MINUS:
        return [Row(gettext("Each %(three)s laid down", three=one), f"-{_number(red.each)}")]
    counts = {t.count for t in red.totals}
    rows = [] if 1 in counts else [Row(gettext("Each %(three)s", three=one), _number(red.each))]
    rows += [
        Row(
            gettext("%(count)s on one side", count=_number(t.count)),
            gettext("%(total)s in all", total=_number(t.total)),
        )
        for t in red.totals
    ]
    if red.negative_when == "never":
        return rows
    label = (
        gettext(
            "%(threes)s cost %(points)s each when", threes=name, points=_number(red.penalty_each)
        )
        if red.penalty_each
        else gettext("%(threes)s count minus when", threes=name)
    )
    rows.append(Row(label, _minus_when(rules, red)))
    if red.plus_from is not None and red.plus_from > red.canastas_needed:
        low, high = red.canastas_needed, red.plus_from - 1
        noun = nouns.canasta(vocabulary, high)
        span = (
            gettext(
                "the side has exactly %(count)s %(canastas)s", count=_number(low), canastas=noun
            )
            if low == high
            else gettext(
                "the side has %(low)s to %(high)s %(canastas)s",
                low=_number(low),
                high=_number(high),
                canastas=noun,
            )
        )
        rows.append(Row(gettext("%(threes)s count nothing when", threes=name), span))
        more = gettext(
            "the side has %(count)s %(canastas)s or more",
            count=_number(red.plus_from),
            canastas=nouns.canasta(vocabulary, red.plus_from),
        )
        rows.append(Row(gettext("%(threes)s count plus when", threes=name), more))
    return rows


def _special_hand_rows(rules: Rules) -> list[Row]:
    if not rules.special_hands:
        return []
    rows = [
        Row(
            gettext("Any of them"),
            gettext("scores alone: nothing else counts for the side that went out"),
        )
    ]
    rows += [
        Row(
            nouns.special_hand(special.key),
            gettext("%(points)s, and wins the game at once", points=_number(special.points))
            if special.wins_game
            else _number(special.points),
        )
        for special in rules.special_hands
    ]
    return rows


def _shape_text(shape: LineupShape, extra_hand: str) -> str:
    text = nouns.shape(shape.key)
    if shape.lone_took_extra_hand:
        return gettext(
            "%(shape)s (the first to finish the dealt cards takes the %(extra_hand)s and plays "
            "alone)",
            shape=text,
            extra_hand=extra_hand,
        )
    if shape.no_extra_hand:
        return gettext(
            "%(shape)s (only when the stock ran out before anyone took the %(extra_hand)s)",
            shape=text,
            extra_hand=extra_hand,
        )
    return text


def _either_shape(texts: list[str]) -> str:
    text = texts[0] if texts else ""
    for more in texts[1:]:
        text = gettext("%(shapes)s; or %(shape)s", shapes=text, shape=more)
    return text


def _seat_rows(rules: Rules, seating: Seating) -> list[Row]:
    """Who plays with whom, and how a side's score is shared among its players."""
    extra = nouns.extra_hand(rules.vocabulary)
    rows = [
        Row(
            gettext("Players"),
            gettext("%(count)s, each with a running total", count=_number(seating.seats)),
        )
    ]
    playable = seating.shapes(None)
    if seating.switches():
        opening = _either_shape([_shape_text(s, extra) for s in seating.opening])
        later = _either_shape([_shape_text(s, extra) for s in seating.later])
        rows.append(Row(gettext("Each hand is played"), opening))
        rows.append(
            Row(
                gettext(
                    "After a hand that ends with a player at %(points)s or more",
                    points=_number(seating.switch_from or 0),
                ),
                gettext("every later hand: %(shapes)s", shapes=later),
            )
        )
    else:
        labels = list(dict.fromkeys(nouns.shape(s.key) for s in playable))
        rows.append(Row(gettext("Each hand is played"), _either_shape(labels)))
    rows.append(Row(gettext("A player alone"), gettext("scores the side's total in full")))
    if any(size > 1 for shape in playable for size in shape.sizes):
        examples = words.joined(
            gettext(
                "%(total)s: %(share)s each",
                total=_number(total),
                share=_number(seating.share(total, 2)),
            )
            for total in (135, -135)
        )
        rows.append(
            Row(
                gettext("A pair"),
                gettext(
                    "each player scores half the pair's total, rounded up to a multiple of "
                    "%(multiple)s (%(examples)s)",
                    multiple=_number(seating.share_multiple),
                    examples=examples,
                ),
            )
        )
    return rows


def _canasta_rows(rules: Rules) -> list[Row]:
    vocabulary = rules.vocabulary

    def kinds(key: str) -> str:
        return capitalized(nouns.kind(vocabulary, key, 2))

    rows = [
        Row(
            kinds(kind.key),
            gettext(
                "%(points)s each (%(note)s)", points=_number(kind.bonus), note=nouns.note(kind.note)
            )
            if kind.note
            else gettext("%(points)s each", points=_number(kind.bonus)),
        )
        for kind in rules.kinds
    ]
    rows += [
        Row(kinds(kind.key), gettext("not played (a house-rule option)"))
        for kind in rules.canasta_kinds
        if not kind.enabled
    ]
    if rules.meld_minus_when != MeldMinusWhen.NEVER:
        clean = rules.meld_minus_when == MeldMinusWhen.NO_CLEAN_CANASTA
        rows.append(
            Row(
                gettext("Melded cards"),
                gettext(
                    "count minus when the side has %(none)s",
                    none=nouns.no_canasta(vocabulary, clean=clean),
                ),
            )
        )
    return rows


def _going_out_rows(rules: Rules) -> list[Row]:
    going = rules.going_out
    label = nouns.going_out(rules.vocabulary)
    concealed = gettext("%(going_out)s concealed", going_out=label)
    rows = [Row(label, _number(going.bonus))]
    if going.concealed_bonus is not None:
        instead = gettext("%(points)s instead", points=_number(going.concealed_bonus))
        rows.append(Row(concealed, instead))
    else:
        rows.append(Row(concealed, gettext("no extra bonus")))
    rows.append(Row(gettext("Needs"), going_out_text(rules)))
    return rows


def _penalty_rows(rules: Rules) -> list[Row]:
    vocabulary = rules.vocabulary
    rows = [
        Row(
            capitalized(nouns.penalty(vocabulary, p.field, 2)),
            gettext("-%(points)s each; no going out while one is left", points=_number(p.points))
            if p.forbids_going_out
            else gettext("-%(points)s each", points=_number(p.points)),
        )
        for p in rules.counted_penalties
    ]
    if rules.extra_hand is not None:
        rows.append(
            Row(
                gettext("Extra hand (%(name)s) not taken", name=nouns.extra_hand(vocabulary)),
                f"-{_number(rules.extra_hand.penalty_not_taken)}",
            )
        )
    rows += [Row(nouns.catalogue_penalty(p.key), f"-{_number(p.points)}") for p in rules.catalogue]
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
    return Rulebook(
        name=words.game_name(rules.key),
        description=words.game_description(rules.key),
        source=words.game_source(rules.key),
        layouts=[nouns.layout(layout) for layout in rules.layouts],
        deck=nouns.deck(rules.deck),
        cards=cards,
        canastas=_canasta_rows(rules),
        going_out=_going_out_rows(rules),
        red_threes=_red_three_rows(rules, rules.red_threes),
        black_threes=_red_three_rows(rules, rules.black_threes),
        special_hands=_special_hand_rows(rules),
        penalties=_penalty_rows(rules),
        meld_table=meld_ranges(rules),
        target=_number(rules.target),
        seats=_seat_rows(rules, rules.seating) if rules.seating is not None else [],
        canastas_caption=gettext(
            "%(canastas)s: bonuses", canastas=capitalized(nouns.canasta(vocabulary, 2))
        ),
        going_out_caption=nouns.going_out(vocabulary),
    )
