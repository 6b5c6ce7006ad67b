"""Words out of the engine: every line and problem is a message key plus parameters.

The engine decides what to say (a key and the numbers and names it needs);
this module turns that into English. Stored hands keep the key and parameters,
so another language can render them later from the same data. Parameters are
JSON values only (text, numbers, lists of them).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from string import Formatter
from typing import Any

Params = Mapping[str, Any]
Renderer = Callable[[Params], str]

VOWEL_SOUND_EXCEPTIONS = ("one", "uni", "use", "eu")


def article(noun: str) -> str:
    """'a' or 'an' before `noun`, by its first sound ("an ace-to-ace canasta", "a book")."""
    lowered = noun.lower()
    if lowered.startswith(VOWEL_SOUND_EXCEPTIONS):
        return "a"
    if lowered[:1] in "aeiou" or lowered[:1] in "8" or lowered.startswith(("11", "18")):
        return "an"
    return "a"


def with_article(noun: str) -> str:
    return f"{article(noun)} {noun}"


def cards_text(cards: list[list[Any]]) -> str:
    """[[category, count, value, noun], ...] as "2 jokers x 50, 3 aces x 20"."""
    return ", ".join([f"{count} {noun} x {value}" for _, count, value, noun in cards])


# English text of each message key. `{name}` is a parameter; `{cards}` a list
# rendered by `cards_text`.
TEMPLATES: dict[str, str] = {
    # Score lines.
    "line.canastas": "{count} {noun} x {bonus}",
    "line.meld_points": "Melded cards",
    "line.meld_cards": "Melded cards: {cards}",
    "line.meld_points.minus": "Melded cards, counted minus ({reason})",
    "line.meld_cards.minus": "Melded cards, counted minus ({reason}): {cards}",
    "line.going_out": "{label}",
    "line.going_out.concealed": "{label} concealed",
    "line.red_threes": "{count} {noun} x {each}",
    "line.red_threes.special": "{count} {noun} on one side",
    "line.red_threes.minus": "{count} {noun} x {each}, counted minus ({reason})",
    "line.red_threes.special_minus": "{count} {noun} on one side, counted minus ({reason})",
    "line.red_threes.each_minus": "{count} {noun} x -{each} ({reason})",
    "line.red_threes.laid_minus": "{count} {noun} laid down x -{each}",
    "line.red_threes.zero": "{count} {noun}, counting nothing ({reason})",
    "line.hand_points": "Cards left in hand",
    "line.hand_cards": "Cards left in hand: {cards}",
    "line.foot_points": "Cards in {feet} never picked up",
    "line.foot_cards": "Cards in {feet} never picked up: {cards}",
    "line.counted": "{count} {noun} x {points}",
    "line.exact_pickups": "{count} exact {noun} x {points}",
    "line.extra_hand": "Extra hand ({name}) not taken",
    "line.penalty.catalogue": "Penalty: {label}",
    "line.penalty.catalogue_many": "Penalty: {label} x {count}",
    "line.penalty.free": "Penalty: {reason}",
    "line.share": "Half of the pair's {total} for each of its {seats} players, rounded up to "
    "a multiple of {multiple}: {share}",
    "line.special_hand": "Went out with a special hand: {label}",
    "line.special_hand.wins": "Went out with a special hand: {label} (wins the game at once)",
    # Hand records: reading (every side problem starts with who it concerns).
    "hand.not_bool": "{who}: {name} must be true or false",
    "hand.not_whole": "{who}: {label} must be a whole number",
    "hand.negative": "{who}: {label} cannot be negative",
    "hand.count_too_big": "{who}: {label} is far more than any deck holds",
    "hand.not_points": "{who}: {label} must be a whole number of points",
    "hand.not_fives": "{who}: {label} must be a multiple of 5 "
    "(every card is worth a multiple of 5)",
    "hand.points_too_big": "{who}: {label} is more than any hand can hold",
    "hand.not_counts": "{who}: {name} must be an object of {what} -> count",
    "hand.unknown_key": "{who}: '{key}' is not a {what}",
    "hand.entered_elsewhere": "{who}: {text}",
    "hand.not_in_variant": "{who}: {variant} has no {thing}",
    "hand.penalties_not_list": "{who}: penalties must be a list",
    "hand.too_many_penalties": "{who}: at most {most} penalties a side in one hand",
    "hand.penalty_not_object": '{who}: each penalty must be {{"rule", "count"}} or '
    '{{"points", "reason"}}',
    "hand.penalty_unknown_key": "{who}: a penalty has no '{key}'",
    "hand.penalty_needs_rule_or_points": '{who}: a penalty needs a "rule" from the catalogue '
    'or "points" with a "reason"',
    "hand.penalty_zero": "{who}: penalty points must be more than 0",
    "hand.penalty_no_reason": "{who}: a free penalty needs a reason",
    "hand.reason_too_long": "{who}: keep the reason under {most} characters",
    "hand.reason_unprintable": "{who}: the reason {why}",
    "hand.penalty_both": "{who}: a penalty is either a catalogue rule or free points, not both",
    "hand.penalty_not_in_catalogue": "{who}: {rule} is not in the penalty catalogue of "
    "{variant} (it has: {names})",
    "hand.penalty_count_zero": "{who}: a penalty count must be at least 1",
    "hand.say_extra_hand": "{who}: say whether the extra hand ({name}) was taken",
    "hand.no_extra_hand": "{who}: {variant} has no extra hand",
    "hand.special_hand_unknown": "{who}: {hand} is not a special hand of {variant} "
    "(it has: {names})",
    "hand.both_forms": "{who}: give {points} or {cards}, not both",
    "hand.side_not_object": "{who}: each side must be an object of hand-record fields",
    "hand.unknown_field": "{who}: {name} is not a hand-record field",
    "hand.null": "{who}: {name} cannot be null (leave it out for none)",
    "hand.players": "{variant} is played with {choices} players a side",
    "hand.deal": "deal must be a whole number from 1 to {most}",
    "hand.sides_not_list": "sides must be a list with one record per side",
    "hand.side_count": "{variant} is played by {expected} sides; {given} were given",
    "hand.side_count_one": "{variant} is played by {expected} sides; {given} was given",
    # Line-ups of seated games (Burraco for three).
    "lineup.not_seated": "{variant} has no line-ups: leave lineup out",
    "lineup.missing": "{variant} needs the hand's lineup: who played with whom "
    "(a list of sides, each a list of seats)",
    "lineup.not_list": "lineup must be a list of sides, each a non-empty list of seat numbers, "
    "e.g. {example}",
    "lineup.seat_range": "lineup names seats that do not exist: {seats} (seats are 0 to {most})",
    "lineup.seat_repeated": "lineup names a seat twice: {seats}",
    "lineup.seat_missing": "lineup leaves out seat {seats}: every seat plays each hand",
    "hand.lineup_sides": "The line-up has {sides} sides, so give {sides} side records in its "
    "order; {given} were given",
    "lineup.shape": "{variant} is played {allowed}",
    "lineup.after_switch": "A seat reached {threshold}, so from now on every hand is played "
    "{allowed}",
    "lineup.before_switch": "Until a seat reaches {threshold} a hand is played {allowed}",
    "lineup.lone_extra_hand": "{who}: the player alone is the one who finished first and took "
    "the pozzetto, so took_extra_hand must be true",
    "lineup.no_extra_hand": "{who}: each for himself before the switch means the stock ran out "
    "before anyone took a pozzetto, so took_extra_hand must be false",
    # Hand records: what the rules make impossible.
    "check.concealed_not_out": "{who}: concealed is only possible for the side that went out",
    "check.meld_below_canastas": "{who}: {count} {noun} need at least {least} points of "
    "melded cards; the meld points are {melded}",
    "check.meld_below_canastas_one": "{who}: {count} {noun} needs at least {least} points of "
    "melded cards; the meld points are {melded}",
    "check.meld_cards": "{who}: {count} {noun} need at least {needed} melded cards; "
    "{cards} counted",
    "check.meld_cards_one": "{who}: {count} {noun} needs at least {needed} melded cards; "
    "{cards} counted",
    "check.side_over_deck": "{who}: {counted} points of cards (melded and left) is more than "
    "the whole deck is worth ({deck} points): check for a typo",
    "check.cannot_go_out": "{who} cannot have gone out: {variant} needs {needs}",
    "check.alone_out_hand": "{who}: a player who went out has no cards left in hand",
    "check.alone_out_foot": "{who}: a player who went out played their {foot}",
    "check.alone_out_holds": "{who}: a player who went out holds no {things}",
    "check.feet_over_players": "{who}: {count} {feet} picked up, but the side has "
    "{players} players",
    "check.feet_over_player": "{who}: {count} {feet} picked up, but the side has {players} player",
    "check.all_feet_taken": "{who}: every player picked up their {foot}, so no {foot} cards "
    "can be left",
    "check.pickups_over_players": "{who}: {count} exact pickups, but the side has "
    "{players} players",
    "check.pickups_over_player": "{who}: {count} exact pickups, but the side has {players} player",
    "check.count_cap": "{who}: at most {cap} {noun} a side; {count} recorded",
    "check.two_out": "Only one side can go out in a hand; marked: {names}",
    "check.red_threes_over_deck": "The deck holds {available} red threes; {count} are "
    "recorded across all sides (laid down and in hand)",
    "check.cards_over_deck": "The deck holds {available} {noun}; {count} are counted across "
    "all sides",
    "check.all_over_deck": "All sides together count {counted} points of cards, more than "
    "the whole deck is worth ({deck} points): check for a typo",
    "check.kind_over_table": "The deck allows {most} {noun} in one hand; {count} are "
    "recorded across all sides",
    "check.canastas_over_deck": "{count} {nouns} of {size} cards need more cards than the "
    "{deck} in the deck",
    "check.penalty_beside_kind": "{who}: {noun} cannot be left beside a completed {kind}",
    "check.group_over_table": "The deck allows {most} {group} canastas in one hand; {count} "
    "are recorded across all sides",
    "check.special_not_out": "{who}: a special hand is how a side goes out; mark {who} as the "
    "side that went out",
    "check.special_alone": "{who} went out with a special hand, which scores alone: "
    "leave {field} empty",
    "check.group_over_table_one": "The deck allows one {group}-card canasta in one hand; "
    "{count} are recorded across all sides",
    "warn.nothing_held": "{who} did not go out but has nothing left in hand",
    # Options.
    "options.both_needs": "Give canastas_to_go_out or going_out_needs, not both",
    "options.kind_off": "{variant} is played without {kinds} here",
    "options.penalty_needs_kind": "The cost of {penalty} needs {kinds} (option {option})",
    "options.not_object": "Options must be an object of name: value",
    "options.unknown": "{variant} has no option {name} (it has: {known})",
    "options.bad_value": "{label} {reason}",
    "options.special_hand_unknown": "{variant} has no special hand {key} (it has: {names})",
    "options.do_not_fit": "These options do not fit together: {why}",
    # The game.
    "game.deal_of": "Deal {deal} of {deals}",
    # Reasons inside lines.
    "reason.no_canasta": "no {noun}",
    "reason.fewer_canastas": "fewer than {count} {nouns}",
    "reason.nothing_melded": "nothing melded",
    "reason.no_clean_canasta": "no clean {noun}",
}


def renderer(template: str) -> Renderer:
    """`template.format_map`, made once as an f-string: format_map reads its template
    again on every call, which was half the cost of a score line (a hand makes a dozen).

    The f-string's fields are `p[k0]`, `p[k1]`...: the parameter names come in as
    default values, so no text of the template lands in the code but as its literal
    parts (braces doubled, quoted by `repr`)."""
    parts: list[str] = []
    names: list[str] = []
    for literal, name, spec, conversion in Formatter().parse(template):
        parts.append(literal.replace("{", "{{").replace("}", "}}"))
        if name is not None:
            if not name.isidentifier():
                raise ValueError(f"{template!r}: a field is a parameter's name, not {name!r}")
            field = f"p[k{len(names)}]" + (f"!{conversion}" if conversion else "")
            parts.append("{" + field + (f":{spec}" if spec else "") + "}")
            names.append(name)
    defaults = "".join(f", k{index}={name!r}" for index, name in enumerate(names))
    made: Renderer = eval(f"lambda p{defaults}: f{''.join(parts)!r}")
    return made


RENDERERS: dict[str, Renderer] = {key: renderer(text) for key, text in TEMPLATES.items()}


def render(key: str, params: Params) -> str:
    """The English text of a message; an unknown key shows its `text` parameter or the key."""
    to_text = RENDERERS.get(key)
    if to_text is None:
        return str(params.get("text", key))
    if "cards" not in params and "reason" not in params:
        return to_text(params)  # nothing to render first: no copy to make
    values = dict(params)
    if "cards" in values and isinstance(values["cards"], list):
        values["cards"] = cards_text(values["cards"])
    if "reason" in values and isinstance(values["reason"], Mapping):
        reason = values["reason"]
        values["reason"] = render(str(reason.get("key", "")), reason.get("params", {}))
    return to_text(values)
