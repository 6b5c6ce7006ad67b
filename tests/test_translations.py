"""The languages: each catalogue complete, the catalogues current with the code, and every
page of the app read in Brazilian Portuguese, Spanish and Italian free of English.

Three of these tests fail until the translators have done their work, by design: a
message left untranslated or fuzzy (`test_every_message_is_translated_and_none_is_fuzzy`)
and a page that still shows a sentence of the English catalogue
(`test_no_page_shows_an_english_sentence_in_another_language`). The pseudo-translated
walk (`test_every_word_of_every_page_goes_through_gettext`) checks today that the code
leaves the translators nothing out of reach: with every message of the catalogue
translated (into look-alike letters), no page shows a word of English.
"""

from __future__ import annotations

import io
import re
from pathlib import Path

import pytest
from babel.dates import get_day_names, get_month_names
from babel.messages.catalog import Catalog
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po
from wtforms.i18n import messages_path

from scorekeeper import catalogues
from scorekeeper.extensions import db
from tests import language_walk

pytestmark = pytest.mark.xdist_group("translations")  # one worker builds each club once

CALLERS = ("signed in", "viewer link")
# Words that stay in every language: the games' proper names, and a game's name its
# players keep in English.
PROPER = {"Canasta", "Samba", "Bolivia", "Buraco", "Burraco", "Hand and Foot"}
PLACEHOLDER = re.compile(r"%\([a-z_]+\)[sd]|%%|<[^>]*>|&[a-z#0-9]+;")
WORD = re.compile(r"[A-Za-z]+(?:['\u2019][A-Za-z]+)*")  # "don't", typographic or not


def messages(catalog: Catalog) -> set[tuple[str | None, str]]:
    found = set()
    for message in catalog:
        if message.id:
            ids = message.id if isinstance(message.id, tuple) else (message.id,)
            found |= {(message.context, msgid) for msgid in ids}
    return found


# --- The catalogues --------------------------------------------------------------------------


@pytest.mark.parametrize("locale", catalogues.LOCALES)
def test_every_message_is_translated_and_none_is_fuzzy(locale):
    """Fails until the translators have translated every message of `locale` (and checked
    each one `make translations` marked fuzzy because its English changed)."""
    done = catalogues.progress(locale)
    assert done.total > 400
    shown = "\n".join([*done.untranslated[:20], "(fuzzy:)", *done.fuzzy[:20]])
    assert done.done, (
        f"{locale}: {len(done.untranslated)} of {done.total} messages untranslated, "
        f"{len(done.fuzzy)} fuzzy; the first:\n{shown}"
    )


def test_the_catalogues_are_current_with_the_code():
    """The .pot holds exactly the messages of the code, and each .po exactly the .pot's:
    after changing a message, `make translations`."""
    kept = catalogues.read(catalogues.POT)
    fresh = catalogues.template()
    assert messages(fresh) == messages(kept), (
        "messages.pot is out of date: run make translations. Missing: "
        f"{sorted(messages(fresh) - messages(kept))[:10]}; gone: "
        f"{sorted(messages(kept) - messages(fresh))[:10]}"
    )
    for locale in catalogues.LOCALES:
        catalog = catalogues.read(catalogues.po_path(locale), locale)
        assert messages(catalog) == messages(kept), f"{locale}: run make translations"


def test_plurals_follow_each_language():
    """Portuguese puts zero in the plural, as players write it ("0 canastras"); Spanish and
    Italian count one alone singular."""
    rules = {
        locale: catalogues.read(catalogues.po_path(locale), locale) for locale in catalogues.LOCALES
    }
    assert rules["pt_BR"].plural_forms == "nplurals=2; plural=(n != 1);"
    for locale, catalog in rules.items():
        assert catalog.num_plurals == 2, locale
    translations = catalogues.new_catalogue("pt_BR")
    translations.add(("canasta", "canastas"), ("canastra", "canastras"))
    assert _compiled(translations).ngettext("canasta", "canastas", 0) == "canastras"
    assert _compiled(translations).ngettext("canasta", "canastas", 1) == "canastra"


def _compiled(catalog: Catalog):
    from babel.support import Translations

    out = io.BytesIO()
    write_mo(out, catalog)
    out.seek(0)
    return Translations(out)


# --- Every page in every language -------------------------------------------------------------


def english_sentences() -> set[str]:
    """The catalogue's English of more than two words, a message's pieces between its
    placeholders each on its own (names, numbers and the games' proper names aside)."""
    found = set()
    for _, msgid in messages(catalogues.read(catalogues.POT)):
        for piece in PLACEHOLDER.split(msgid):
            text = language_walk.normalized(piece).strip(" .,:;()")
            if text in PROPER:
                continue
            if len([w for w in WORD.findall(text) if w not in PROPER]) > 2:
                found.add(text)
    return found


@pytest.fixture(scope="module")
def club(tmp_path_factory):
    world = language_walk.build(tmp_path_factory.mktemp("languages") / "club.sqlite")
    yield world
    with world.app.app_context():
        db.engine.dispose()


@pytest.mark.parametrize("caller", CALLERS)
@pytest.mark.parametrize("locale", catalogues.LOCALES)
def test_no_page_shows_an_english_sentence_in_another_language(club, locale, caller):
    """Fails until the translations are written: every page of the URL map, read in
    `locale`, shows no sentence of the English catalogue."""
    sentences = english_sentences()
    leaks = []
    for method, url, status, texts in language_walk.walk(club, caller, locale):
        page = language_walk.normalized(" ".join(texts))
        found = sorted(s for s in sentences if s in page)
        if found:
            leaks.append(f"{method} {url} ({status}): {found[:3]}")
    assert not leaks, f"{len(leaks)} answers in English for {locale}:\n" + "\n".join(leaks[:30])


# --- Every word through gettext: a pseudo-translation -------------------------------------------

PSEUDO_LOCALE = "it"
# What a message quotes that is code, not words: headers, parameters, example values.
CODE = ("Authorization: Bearer <token>", "Content-Type: application/json", "?score=N")
CODE += ("scorekeeper-export", "format:")
# The JSON API's identifiers a message names (a field or key that was sent).
API_WORDS = {"bad", "variant", "options", "sides", "players", "deal", "lineup", "match", "name"}
API_WORDS |= {"first", "dealer", "group", "number", "token", "version", "role", "export"}
API_WORDS |= {"start", "end", "scoring", "variants", "best", "of", "min", "evenings"}  # leagues
API_WORDS |= {
    "bye",
    "vp",
    "deals",
    "per",
    "round",
    "rounds",
    "entries",
    "movement",
    "table",
}  # events
API_WORDS |= {"entry", "reason"}  # an event's penalty
LOOK_ALIKE = str.maketrans(
    "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ",
    "áƀçđéƒğĥíĵķĺɱñóþʠŕşţúʋŵẋýžÁƁÇĐÉƑĞĤÍĴĶĹϺÑÓÞɊŔŞŢÚƲŴẊÝŽ",
)


def pseudo(msgid: str) -> str:
    """Every letter of a message in a look-alike, its placeholders and markup kept."""
    kept = PLACEHOLDER.findall(msgid)
    pieces = PLACEHOLDER.split(msgid)
    text = pieces[0].translate(LOOK_ALIKE)
    for mark, piece in zip(kept, pieces[1:], strict=True):
        text += mark + piece.translate(LOOK_ALIKE)
    return text


def pseudo_catalogues(folder: Path) -> None:
    """The code's messages, all translated into look-alike letters, as `PSEUDO_LOCALE`."""
    catalog = catalogues.new_catalogue(PSEUDO_LOCALE)
    for message in catalogues.template():
        if message.id:
            ids = message.id if isinstance(message.id, tuple) else (message.id,)
            strings = tuple(pseudo(msgid) for msgid in ids)
            catalog.add(
                message.id,
                strings if isinstance(message.id, tuple) else strings[0],
                context=message.context,
            )
    target = folder / PSEUDO_LOCALE / "LC_MESSAGES" / "messages.mo"
    target.parent.mkdir(parents=True)
    with target.open("wb") as handle:
        write_mo(handle, catalog)


def wtforms_words(locale: str) -> list[str]:
    """WTForms' own messages in `locale` (its catalogues, not the app's)."""
    path = Path(messages_path()) / locale / "LC_MESSAGES" / "wtforms.po"
    with path.open("rb") as handle:
        strings = [m.string for m in read_po(handle) if m.id and m.string]
    flat = [s for item in strings for s in (item if isinstance(item, tuple) else (item,)) if s]
    return sorted(flat, key=len, reverse=True)


def cldr_words(locale: str) -> set[str]:
    """The names of months and days Babel writes dates with in `locale` (CLDR's, not the
    app's): "5 gen 2026"."""
    words: set[str] = set()
    for width in ("abbreviated", "wide"):
        for names in (get_month_names(width, locale=locale), get_day_names(width, locale=locale)):
            words |= {w for name in names.values() for w in re.findall(r"[A-Za-z]{2,}", name)}
    return words


@pytest.fixture(scope="module")
def pseudo_club(tmp_path_factory):
    folder = tmp_path_factory.mktemp("pseudo")
    pseudo_catalogues(folder / "translations")
    world = language_walk.build(
        folder / "club.sqlite", BABEL_TRANSLATION_DIRECTORIES=str(folder / "translations")
    )
    yield world
    with world.app.app_context():
        db.engine.dispose()


@pytest.mark.parametrize("caller", CALLERS)
def test_every_word_of_every_page_goes_through_gettext(pseudo_club, caller):
    """With every message translated, a page shows no English word: each is a message of
    the catalogue (or a name of the data, a number, a URL)."""
    theirs = wtforms_words(PSEUDO_LOCALE)
    months = cldr_words(PSEUDO_LOCALE)
    leaks = []
    for method, url, status, texts in language_walk.walk(pseudo_club, caller, PSEUDO_LOCALE):
        page = " ".join(texts)
        for said in theirs:
            page = page.replace(said, " ")
        page = re.sub(r"https?://\S+", " ", page)
        for code in CODE:
            page = page.replace(code, " ")
        allowed = language_walk.DATA_WORDS | months
        allowed |= API_WORDS if url.startswith("/api/") else set()
        english = sorted({w for w in re.findall(r"[A-Za-z]{2,}", page) if w not in allowed})
        if english:
            leaks.append(f"{method} {url} ({status}): {' '.join(english[:12])}")
    assert not leaks, "English outside gettext:\n" + "\n".join(leaks)


# --- Bringing in a translator's file --------------------------------------------------------------


def test_merge_takes_a_translators_strings_for_the_current_messages(tmp_path, monkeypatch):
    """`python -m scorekeeper.catalogues merge it FILE`: the file's translations for the
    messages the code has now (by msgid and context), fuzzy kept fuzzy; the catalogue's
    messages, order and comments stay."""
    monkeypatch.setattr(catalogues, "TRANSLATIONS", tmp_path)
    ours = catalogues.new_catalogue("it")
    ours.add("Hands", locations=[("templates/_board.html", 62)])
    ours.add("Going out", context="burraco")
    ours.add("Going out", context="canasta")
    ours.add(("%(count)s hand", "%(count)s hands"))
    ours.add("Forget it", "Lascia stare")
    path = catalogues.po_path("it")
    path.parent.mkdir(parents=True)
    path.write_bytes(catalogues.serialized(ours))
    theirs = catalogues.new_catalogue("it")
    theirs.add("Hands", "Mani")
    theirs.add("Going out", "Chiusura", context="burraco")
    theirs.add("Going out", "Chiudere", context="canasta", flags=["fuzzy"])
    theirs.add(("%(count)s hand", "%(count)s hands"), ("%(count)s mano", "%(count)s mani"))
    theirs.add("A message the code no longer has", "Un messaggio")
    source = tmp_path / "theirs.po"
    source.write_bytes(catalogues.serialized(theirs))

    assert catalogues.main(["merge", "it", str(source)]) == 0
    merged = catalogues.read(path, "it")
    assert merged.get("Hands").string == "Mani"
    assert merged.get("Hands").locations == [("templates/_board.html", 62)]
    assert merged.get("Going out", context="burraco").string == "Chiusura"
    assert merged.get("Going out", context="canasta").fuzzy
    assert merged.get(("%(count)s hand", "%(count)s hands")).string == (
        "%(count)s mano",
        "%(count)s mani",
    )
    assert merged.get("Forget it").string == "Lascia stare"  # the copy lacks it: kept
    assert merged.get("A message the code no longer has") is None
    done = catalogues.progress("it")
    assert done.untranslated == ()
    assert done.fuzzy == ("[canasta] Going out",)
    assert catalogues.merge("it", source) == catalogues.Merged(taken=4, missing=1, unknown=1)
