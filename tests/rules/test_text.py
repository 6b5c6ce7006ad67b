"""What text a record may hold: the control characters are Unicode's category Cc."""

from __future__ import annotations

import sys
import unicodedata

from scorekeeper.rules.text import CONTROL, CONTROL_CHARACTERS, unprintable


def test_the_control_characters_searched_for_are_unicodes_category_cc():
    every = [chr(code) for code in range(sys.maxunicode + 1)]
    searched = {c for c in every if CONTROL_CHARACTERS.fullmatch(c)}
    controls = {c for c in every if unicodedata.category(c) == CONTROL}
    assert searched == controls


def test_a_reason_with_a_control_character_is_refused():
    assert unprintable("Showed a card") is None
    assert unprintable("Showed\ta card") == "control"
    assert unprintable("Showed a card\x85") is not None
    assert unprintable("Showed a card \u00a0 twice") is None
