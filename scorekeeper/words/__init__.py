"""The edge's words: what the engine says as keys and parameters, in the reader's language.

The rules engine never makes a word (`scorekeeper.rules` returns message keys and
parameters: numbers and keys); this package turns them into text through
Flask-Babel's gettext, each game in its own vocabulary (the message context of
what one game calls otherwise than another). Pages, the JSON API's readable
fields (`label`, `message`), exports and the audit trail all go through here.

- `render(key, params, vocabulary, names, side)`: any message.
- `line_label`, `labelled_lines`: score lines as stored (key + params) with their words.
- `told`: an engine problem as a `validation.FieldError`, naming its side.
- `side_names`, `seat_name`, `lineup_names`: who the sides are.
- `meld_label`, `deal_text`, `option_label`, `option_dict`: the rest of what the
  engine leaves in keys; `nouns` and `games` the things and the games by name.
- `number`, `signed`, `decimal`, `percent`, `moment`, `day`: numbers and dates as the
  reader writes them (Babel's CLDR data), every one shown goes through them.
- `locale`: the languages the app speaks (which one a request gets is chosen by
  `scorekeeper.languages`).
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from flask import Flask, current_app

from ..cache import LruCache
from ..rules import DealLabel, MeldRequirement, OptionSpec, Problem, Rules, SideScore
from ..rules.game import DealKind
from ..rules.model import Vocabulary
from ..validation import FieldError
from . import checks, faults, hands, lines, nouns, options
from .base import (
    Say,
    both,
    capitalized,
    day,
    decimal,
    either,
    joined,
    moment,
    number,
    percent,
    reader,
    reader_locale_name,
    registry,
    signed,
)
from .games import game_description, game_name, game_source
from .hands import refusal
from .options import option_label
from .translate import gettext

LABELS = "scorekeeper.line_labels"  # app.extensions: score lines' words
LABELS_KEPT = 4096

MESSAGES = registry(
    lines.MESSAGES, hands.MESSAGES, checks.MESSAGES, options.MESSAGES, faults.MESSAGES
)

__all__ = [
    "FieldError",
    "both",
    "day",
    "deal_text",
    "decimal",
    "either",
    "faults_text",
    "game_description",
    "game_name",
    "game_source",
    "init_app",
    "joined",
    "labelled_lines",
    "line_label",
    "lineup_names",
    "meld_dict",
    "meld_label",
    "moment",
    "nouns",
    "number",
    "option_dict",
    "option_label",
    "percent",
    "reader",
    "reader_locale_name",
    "refusal",
    "render",
    "scored",
    "seat_name",
    "side_name",
    "side_names",
    "signed",
    "told",
    "told_all",
]


def init_app(app: Flask) -> None:
    """What templates ask of the words: the games by name, layouts, meld requirements and
    score lines as stored; numbers and dates as the reader writes them."""
    app.extensions[LABELS] = LruCache(LABELS_KEPT)
    app.jinja_env.globals.update(
        game_name=game_name,
        game_description=game_description,
        game_source=game_source,
        layout_name=nouns.layout,
        both=both,
        meld_label=lambda requirement, rules: meld_label(requirement, rules.vocabulary),
        line_label=lambda line, rules: line_label(line, rules.vocabulary),
        moment_text=moment,
        day_text=day,
    )
    # Filters, not macros or globals: a scoreboard shows a few hundred numbers, and a
    # filter is the cheapest call a template makes.
    app.jinja_env.filters.update(number=number, signed=signed, percent=percent, decimal=decimal)


def _nested(say: Say, message: Mapping[str, Any]) -> str:
    return render(
        str(message.get("key", "")), message.get("params", {}), say.vocabulary, say.names, say.side
    )


def render(
    key: str,
    params: Mapping[str, Any],
    vocabulary: Vocabulary = Vocabulary.CANASTA,
    names: Sequence[str] = (),
    side: int | None = None,
) -> str:
    """A message in words; an unknown key shows its `text` parameter, else the key."""
    words = MESSAGES.get(key)
    if words is None:
        return str(params.get("text", key))
    return words(Say(params, vocabulary, names, side, _nested))


def line_label(line: Mapping[str, Any], vocabulary: Vocabulary) -> str:
    """A stored score line's words (a line stored with words only keeps them).

    Kept per process by everything its words depend on (the reader's language, the
    game's vocabulary, the key and its parameters): a match's state shows every line of
    every hand, and most lines are alike ("Cards left in hand"). Without a reader (a
    migration, the command line) the words are plain and not kept."""
    if "key" not in line:
        return str(line.get("label", ""))
    key, params = str(line["key"]), line.get("params", {})
    locale = reader()
    if locale is None:
        return render(key, params, vocabulary)
    kept: LruCache[tuple[str, str, str, str], str] = current_app.extensions[LABELS]
    said = (str(locale), vocabulary, key, json.dumps(params, sort_keys=True))
    return kept.get(said, lambda: render(key, params, vocabulary))


def labelled_lines(
    stored: Iterable[Mapping[str, Any]], vocabulary: Vocabulary
) -> list[dict[str, Any]]:
    """Score lines as the API and the pages show them: rule, label, points, key, params."""
    return [
        {
            "rule": line.get("rule"),
            "label": line_label(line, vocabulary),
            "points": line.get("points"),
            "key": line.get("key"),
            "params": dict(line.get("params", {})),
        }
        for line in stored
    ]


def scored(score: SideScore, vocabulary: Vocabulary) -> dict[str, Any]:
    """A side's score as the API and the live preview answer it: total and lines."""
    lines = labelled_lines((line.to_dict() for line in score.lines), vocabulary)
    return {"total": score.total, "lines": lines}


def side_name(index: int, players_per_side: int | None, names: Sequence[str] = ()) -> str:
    """A side: its name, else "Team 2", "Player 2" (or "Side 2" when the layout is unknown)."""
    if index < len(names) and names[index]:
        return names[index]
    if players_per_side is None:
        return gettext("Side %(number)s", number=number(index + 1))
    if players_per_side == 1:
        return gettext("Player %(number)s", number=number(index + 1))
    return gettext("Team %(number)s", number=number(index + 1))


def side_names(count: int, players_per_side: int | None, names: Sequence[str] = ()) -> list[str]:
    return [side_name(index, players_per_side, names) for index in range(count)]


def seat_name(seat: int, names: Sequence[str] = ()) -> str:
    """A seat: its player's name, else "Seat 1" (seats count from 0 in data)."""
    if seat < len(names) and names[seat]:
        return names[seat]
    return gettext("Seat %(number)s", number=number(seat + 1))


def lineup_names(lineup: Sequence[Sequence[int]], names: Sequence[str] = ()) -> list[str]:
    """One name per side of a line-up: "Anna", "Bruno and Carla"."""
    return [both(seat_name(seat, names) for seat in side) for side in lineup]


def told(
    problem: Problem, vocabulary: Vocabulary = Vocabulary.CANASTA, names: Sequence[str] = ()
) -> FieldError:
    """An engine problem in words, its side named from `names` (by side index)."""
    message = render(problem.key, problem.params, vocabulary, names, problem.side)
    return FieldError(problem.side, problem.field, message, problem.key, problem.params)


def told_all(
    problems: Iterable[Problem],
    vocabulary: Vocabulary = Vocabulary.CANASTA,
    names: Sequence[str] = (),
) -> list[FieldError]:
    return [told(problem, vocabulary, names) for problem in problems]


def faults_text(problems: Iterable[Problem]) -> str:
    """A rule set's faults (`InvalidRules`) as one sentence."""
    return render("rules.all", faults.faults_message(problems)["params"])


def meld_label(requirement: MeldRequirement, vocabulary: Vocabulary) -> str:
    """What a first meld needs: "90 points", "A natural canasta", "No minimum"."""
    points = requirement.points
    if requirement.canasta is None:
        if not points:
            return gettext("No minimum")
        return gettext("%(points)s points", points=number(points))
    label = capitalized(nouns.a_canasta(vocabulary, natural=requirement.canasta == "natural"))
    if points:
        return gettext(
            "%(canasta)s and melds worth at least %(points)s points in all",
            canasta=label,
            points=number(points),
        )
    return label


def meld_dict(requirement: MeldRequirement, rules: Rules) -> dict[str, object]:
    """A meld requirement as the API answers it: points, canasta, label."""
    return {**requirement.to_dict(), "label": meld_label(requirement, rules.vocabulary)}


def deal_text(deal: DealLabel) -> str:
    """ "Deal 3 of 4", or "Extra deal 5" (a deal after the last, to break a tie)."""
    if deal.key == DealKind.EXTRA:
        return gettext("Extra deal %(deal)s", deal=number(deal.deal))
    return gettext("Deal %(deal)s of %(deals)s", deal=number(deal.deal), deals=number(deal.deals))


def option_dict(spec: OptionSpec, vocabulary: Vocabulary) -> dict[str, object]:
    """An option as the API lists it: its name and label first, then its data."""
    data = spec.to_dict()
    return {"name": data.pop("name"), "label": option_label(spec, vocabulary), **data}
