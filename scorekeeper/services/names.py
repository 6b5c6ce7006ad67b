"""What a name may hold, so that two people never show the same on a page.

- No invisible characters, in any name (players, accounts, sides, groups): `Ann` and
  `Ann` with a zero-width space would be two players the audit trail shows alike.
  Refused: format characters (Unicode category Cf: zero-width spaces and joiners,
  bidi controls, the byte-order mark...), private-use and unassigned code points, and
  the letters that show nothing (the Hangul fillers, the blank Braille pattern).
- A person's name (players, accounts) is written in one script: "Ann" with a
  Cyrillic A is refused, and so is a new name that looks like another's (the same
  "skeleton", as Unicode's confusables data defines it: "Ian" and "lan"), with a
  message naming the one it looks like. Japanese (Han with kana), Korean (Han with
  Hangul) and Chinese with Bopomofo count as one script each.

The scripts and look-alikes come from the confusable_homoglyphs package (Unicode's
Scripts and confusables data).
"""

from __future__ import annotations

import unicodedata
from functools import lru_cache

from confusable_homoglyphs import categories, confusables

from .. import words
from ..models import name_key
from ..words.translate import gettext

INVISIBLE_CATEGORIES = {"Cf", "Co", "Cn"}
INVISIBLE_LETTERS = {"\u115f", "\u1160", "\u3164", "\uffa0", "\u2800", "\u034f"}
NEUTRAL_SCRIPTS = {"COMMON", "INHERITED", "Unknown"}
ONE_WRITING = [  # scripts that are written together as one
    {"HAN", "HIRAGANA", "KATAKANA"},
    {"HAN", "HANGUL"},
    {"HAN", "BOPOMOFO"},
]
LRM = "\u200e"  # the data marks right-to-left homoglyphs with it


# Unicode's script names (as the look-alike data gives them) by their ISO 15924 codes, so a
# problem names the scripts in the reader's language (CLDR's names, through Babel).
SCRIPT_CODES = {
    "LATIN": "Latn",
    "CYRILLIC": "Cyrl",
    "GREEK": "Grek",
    "ARMENIAN": "Armn",
    "HEBREW": "Hebr",
    "ARABIC": "Arab",
    "DEVANAGARI": "Deva",
    "BENGALI": "Beng",
    "THAI": "Thai",
    "GEORGIAN": "Geor",
    "HANGUL": "Hang",
    "HAN": "Hani",
    "HIRAGANA": "Hira",
    "KATAKANA": "Kana",
    "BOPOMOFO": "Bopo",
    "CHEROKEE": "Cher",
    "COPTIC": "Copt",
    "ETHIOPIC": "Ethi",
    "TAMIL": "Taml",
    "TELUGU": "Telu",
}


def script_name(script: str) -> str:
    """A script as the reader names it ("Cyrillic", "cirílico"); its Unicode name else."""
    locale = words.reader()
    code = SCRIPT_CODES.get(script)
    if locale is not None and code is not None and code in locale.scripts:
        return str(locale.scripts[code])
    return script.title()


def invisible(name: str) -> str | None:
    """The first invisible character of `name`, described ("U+200B ZERO WIDTH SPACE")."""
    for char in name:
        if char in INVISIBLE_LETTERS or unicodedata.category(char) in INVISIBLE_CATEGORIES:
            described = unicodedata.name(char, "").title()
            return f"U+{ord(char):04X} {described}".strip()
    return None


def scripts(name: str) -> set[str]:
    """The scripts of the letters of `name` (punctuation, digits and marks left out)."""
    return {categories.alias(char) for char in name} - NEUTRAL_SCRIPTS


def mixed_scripts(name: str) -> list[str]:
    """The scripts `name` mixes, as words ("Latin", "Cyrillic"); [] when it uses one."""
    found = scripts(name)
    if len(found) <= 1 or any(found <= together for together in ONE_WRITING):
        return []
    return sorted(script_name(script) for script in found)


def problem(name: str, person: bool = True) -> str | None:
    """Why `name` cannot be used as typed (invisible characters; for a person's name,
    mixed scripts), or None."""
    hidden = invisible(name)
    if hidden is not None:
        return gettext(
            "Remove the invisible character (%(character)s) from the name", character=hidden
        )
    mixed = mixed_scripts(name) if person else []
    if mixed:
        return gettext(
            "This name mixes %(scripts)s letters, which can look alike: type it with one keyboard",
            scripts=words.both(mixed),
        )
    return None


@lru_cache(maxsize=4096)
def _prototype(char: str) -> str:
    """One character for `char` and every character the data says looks like it."""
    found = confusables.is_confusable(char, greedy=True)
    if not found:
        return char
    glyphs = {char}
    for entry in found[0]["homoglyphs"]:
        glyph = entry["c"].replace(LRM, "")
        glyphs.add(glyph)
        if len(glyph) != 1:
            continue
        more = confusables.is_confusable(glyph, greedy=True)
        if more:  # the data groups look-alikes around one character: take them all
            glyphs.update(e["c"].replace(LRM, "") for e in more[0]["homoglyphs"])
    return min(glyphs)


def skeletons(name: str) -> set[str]:
    """What `name` looks like, with look-alike characters made one: as written (`I`
    and `l` alike) and case-folded (Cyrillic and Latin "a" alike)."""
    forms = {unicodedata.normalize("NFKC", name), name_key(name)}
    return {"".join(_prototype(char) for char in form) for form in forms}


def look_alike(name: str, others: list[str]) -> str | None:
    """The first of `others` that looks like `name` without being the same name."""
    mine = skeletons(name)
    key = name_key(name)
    for other in others:
        if name_key(other) != key and mine & skeletons(other):
            return other
    return None
