"""The translation catalogues under `scorekeeper/translations/`: the messages of the code
extracted into `messages.pot`, each language's `.po` kept in step with it, compiled into
the `.mo` files the app reads, and checked.

    python -m scorekeeper.catalogues update   # make translations: extract, update each .po
    python -m scorekeeper.catalogues compile  # make run, make test: the .mo files
    python -m scorekeeper.catalogues check    # every message translated in every language
                                              # (--all: list every one left, not the first 10)
    python -m scorekeeper.catalogues merge LOCALE FILE.po  # a translator's work, brought in

`pybabel extract -F babel.cfg` finds the messages (Python and the Jinja templates) with
the keywords below; `# Translators:` comments beside a message go to its translators. A
file is written only when what it holds changes, not for a new date in its header, so
`make translations` on a current tree changes nothing (CI checks that). The `.mo` files
are built, never committed (`.gitignore`).
"""

from __future__ import annotations

import io
import os
import sys
import tempfile
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from babel.messages.catalog import Catalog
from babel.messages.frontend import CommandLineInterface
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po, write_po

from .words.locale import DEFAULT, LANGUAGES

ROOT = Path(__file__).resolve().parent.parent
TRANSLATIONS = Path(__file__).resolve().parent / "translations"
POT = TRANSLATIONS / "messages.pot"
LOCALES = tuple(locale for locale in LANGUAGES if locale != DEFAULT)
# Besides pybabel's own (gettext, ngettext, pgettext, npgettext, _): form labels are
# translated when a form is shown, not when its class is made.
KEYWORDS = ("lazy_gettext", "lazy_pgettext:1c,2")
WIDTH = 100
# Two forms in every language, one for 1 and one for the rest. Portuguese puts zero in the
# plural ("0 canastras", "zero pontos"), as players write a score (the gettext tradition for
# pt_BR, n > 1, would write "0 canastra"); Spanish and Italian keep to gettext's two forms
# (CLDR adds a third for whole millions, "1 millón de puntos", which no score reaches).
PLURAL_FORMS = {
    "pt_BR": "nplurals=2; plural=(n != 1);",
    "es": "nplurals=2; plural=(n != 1);",
    "it": "nplurals=2; plural=(n != 1);",
}
# Header fields that change without the messages changing: never a reason to rewrite a file.
CHECK_SHOWN = 10  # messages `check` names per language (the first left to do)
UNSTABLE = ("POT-Creation-Date:", "PO-Revision-Date:", "Generated-By:")


def po_path(locale: str) -> Path:
    return TRANSLATIONS / locale / "LC_MESSAGES" / "messages.po"


def mo_path(locale: str) -> Path:
    return po_path(locale).with_suffix(".mo")


def extract(output: Path) -> None:
    """The messages of the code, as `pybabel extract -F babel.cfg` finds them."""
    arguments = ["pybabel", "--quiet", "extract", "--mapping-file", str(ROOT / "babel.cfg")]
    for keyword in KEYWORDS:
        arguments += ["--keyword", keyword]
    arguments += ["--add-comments", "Translators:", "--width", str(WIDTH), "--sort-by-file"]
    arguments += ["--project", "Scorekeeper", "--output-file", str(output), "."]
    cwd = Path.cwd()
    try:  # locations are written relative to the folder extracted
        os.chdir(ROOT)
        CommandLineInterface().run(arguments)  # type: ignore[no-untyped-call]
    finally:
        os.chdir(cwd)


def template() -> Catalog:
    """The messages the code has now (extracted afresh)."""
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "messages.pot"
        extract(path)
        with path.open("rb") as handle:
            return read_po(handle)


def serialized(catalog: Catalog) -> bytes:
    out = io.BytesIO()
    write_po(out, catalog, width=WIDTH, sort_by_file=True)
    return out.getvalue()


def _same(path: Path, new: bytes) -> bool:
    """Whether `path` holds `new` but for the dates in its header."""
    if not path.exists():
        return False
    return _undated(path.read_bytes()) == _undated(new)


def _undated(text: bytes) -> list[bytes]:
    """A catalogue's lines from its header on (the comment above it names a year), but
    for the header fields that change by themselves."""
    lines = text.splitlines()
    start = lines.index(b'msgid ""') if b'msgid ""' in lines else 0
    unstable = tuple(b'"' + field.encode() for field in UNSTABLE)
    return [line for line in lines[start:] if not line.startswith(unstable)]


def _write(path: Path, content: bytes) -> bool:
    if _same(path, content):
        return False
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(content)
    return True


def new_catalogue(locale: str) -> Catalog:
    """An empty catalogue of `locale`, its plural rule as its players write plurals."""
    catalog = Catalog(locale=locale, domain="messages", project="Scorekeeper", fuzzy=False)
    if locale in PLURAL_FORMS:
        catalog.mime_headers = [("Plural-Forms", PLURAL_FORMS[locale])]
    return catalog


def read(path: Path, locale: str | None = None) -> Catalog:
    with path.open("rb") as handle:
        return read_po(handle, locale=locale)


def update() -> list[Path]:
    """`make translations`: the .pot from the code, each language's .po brought in step
    with it (new messages empty, changed ones fuzzy); the files that changed."""
    fresh = template()
    changed = [POT] if _write(POT, serialized(fresh)) else []
    for locale in LOCALES:
        path = po_path(locale)
        catalog = read(path, locale) if path.exists() else new_catalogue(locale)
        catalog.update(fresh, update_creation_date=False)
        for message in catalog:  # a guess at a message never translated is no guess
            if message.fuzzy and message.id and not _said(message.string):
                message.flags.discard("fuzzy")
        if _write(path, serialized(catalog)):
            changed.append(path)
    return changed


@dataclass(frozen=True)
class Progress:
    """How far a language's catalogue is: its messages, those without a translation, and
    those marked fuzzy (a guess a translator must check)."""

    locale: str
    total: int
    untranslated: tuple[str, ...]
    fuzzy: tuple[str, ...]

    @property
    def done(self) -> bool:
        return not self.untranslated and not self.fuzzy


def _label(message: object) -> str:
    context = getattr(message, "context", None)
    msgid = getattr(message, "id", "")
    text = msgid[0] if isinstance(msgid, tuple) else str(msgid)
    return f"[{context}] {text}" if context else text


def _said(string: object) -> bool:
    """Whether a message's translation is there (each of a plural's forms)."""
    return all(string) if isinstance(string, tuple) else bool(string)


def progress(locale: str) -> Progress:
    catalog = read(po_path(locale), locale)
    messages = [m for m in catalog if m.id]
    untranslated = tuple(_label(m) for m in messages if not _said(m.string))
    fuzzy = tuple(_label(m) for m in messages if m.fuzzy)
    if catalog.fuzzy:  # the header itself marked fuzzy: the whole catalogue unchecked
        fuzzy = ("(the catalogue's header)", *fuzzy)
    return Progress(locale, len(messages), untranslated, fuzzy)


@dataclass(frozen=True)
class Merged:
    """What `merge` did: translations taken, messages the file left without one, and the
    file's messages the code no longer has (left out)."""

    taken: int
    missing: int
    unknown: int


def merge(locale: str, source: Path) -> Merged:
    """A translator's copy of a catalogue brought in: for each message of the catalogue
    (its msgid and context as the code has them now), the copy's translation, fuzzy if
    the copy marks it so; a message the copy does not translate keeps the catalogue's.
    Only the translations move: the messages, their order and comments stay the code's."""
    path = po_path(locale)
    catalog = read(path, locale)
    theirs = read(source, locale)
    taken = missing = 0
    for message in catalog:
        if not message.id:
            continue
        found = theirs.get(message.id, context=message.context)
        plural = isinstance(message.id, tuple)
        if found is None or isinstance(found.string, tuple) != plural or not _said(found.string):
            missing += 1
            continue
        message.string = found.string
        if found.fuzzy:
            message.flags.add("fuzzy")
        else:
            message.flags.discard("fuzzy")
        taken += 1
    ours = {(m.id if isinstance(m.id, str) else m.id[0], m.context) for m in catalog if m.id}
    unknown = sum(
        1
        for m in theirs
        if m.id and (m.id if isinstance(m.id, str) else m.id[0], m.context) not in ours
    )
    _write(path, serialized(catalog))
    return Merged(taken, missing, unknown)


def compile_all(*, quiet: bool = False) -> list[Path]:
    """The .mo file of each language whose .po is newer (fuzzy messages left out: the
    English shows until a translator checks them)."""
    written = []
    for locale in LOCALES:
        source, target = po_path(locale), mo_path(locale)
        if not source.exists():
            continue
        if target.exists() and target.stat().st_mtime >= source.stat().st_mtime:
            continue
        catalog = read(source, locale)
        out = io.BytesIO()
        write_mo(out, catalog, use_fuzzy=False)
        temporary = target.with_suffix(".mo.tmp")
        temporary.write_bytes(out.getvalue())
        temporary.replace(target)  # a test process reading it never sees half a file
        written.append(target)
        if not quiet:
            done = progress(locale)
            translated = done.total - len(done.untranslated)
            print(f"{locale}: {translated} of {done.total} messages translated")
    return written


def main(arguments: Sequence[str]) -> int:
    command = arguments[0] if arguments else ""
    if command == "update":
        for path in update():
            print(f"updated {path.relative_to(ROOT)}")
        return 0
    if command == "merge" and len(arguments) == 3 and arguments[1] in LOCALES:
        merged = merge(arguments[1], Path(arguments[2]))
        print(
            f"{arguments[1]}: {merged.taken} translations taken, {merged.missing} messages still"
            f" without one, {merged.unknown} messages of the file the code no longer has"
        )
        return 0
    if command == "compile":
        compile_all()
        return 0
    if command == "check":
        failed = False
        shown = None if "--all" in arguments else CHECK_SHOWN
        for locale in LOCALES:
            done = progress(locale)
            if not done.done:
                failed = True
                print(
                    f"{locale}: {len(done.untranslated)} of {done.total} messages untranslated,"
                    f" {len(done.fuzzy)} fuzzy",
                    file=sys.stderr,
                )
                for label in (*done.untranslated, *done.fuzzy)[:shown]:
                    print(f"  {label}", file=sys.stderr)
        return 1 if failed else 0
    print(
        "usage: python -m scorekeeper.catalogues update|compile|check [--all]|merge LOCALE FILE.po",
        file=sys.stderr,
    )
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
