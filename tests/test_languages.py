"""Choosing the reader's language, and what depends on it: a user's setting, else the chooser
(a cookie), else Accept-Language; `<html lang>`; numbers and dates as the locale writes
them; every cached or conditional answer keyed by language (`Vary`, ETags, the live board's
cache); WTForms' own messages; old hands in the chosen language.

A small catalogue is compiled for these tests (a few messages in each language), so that
an answer in one language can be told from another before the translators' work is in.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from babel.messages.mofile import write_mo
from werkzeug.datastructures import LanguageAccept

from scorekeeper import catalogues, words
from scorekeeper.extensions import db
from scorekeeper.models import User
from scorekeeper.services import accounts
from scorekeeper.services.storage import transaction
from scorekeeper.words.locale import from_accept_language, known
from tests.support import TESTER, app_config
from tests.web.helpers import form_values, page

# A few messages per language: a page's heading, a score line, a form's label.
WORDS = {
    "pt_BR": {"Hands": "Mãos", "Melded cards": "Cartas baixadas", "Name": "Nome"},
    "es": {"Hands": "Manos", "Melded cards": "Cartas bajadas", "Name": "Nombre"},
    "it": {"Hands": "Mani", "Melded cards": "Carte calate", "Name": "Nome"},
}
HEADERS = {"pt_BR": "pt-BR,pt;q=0.9", "es": "es-AR", "it": "it-IT,it;q=0.8", "en": "en-GB"}


def small_catalogues(folder: Path) -> Path:
    for locale, said in WORDS.items():
        catalog = catalogues.new_catalogue(locale)
        for msgid, msgstr in said.items():
            catalog.add(msgid, msgstr)
        target = folder / locale / "LC_MESSAGES" / "messages.mo"
        target.parent.mkdir(parents=True)
        with target.open("wb") as handle:
            write_mo(handle, catalog)
    return folder


@pytest.fixture
def app(tmp_path, app_database, compiled_templates):
    """The test app with the small catalogues (the conftest's `app`, another catalogue)."""
    import shutil

    from scorekeeper import create_app

    database = tmp_path / "test.sqlite"
    shutil.copyfile(app_database, database)
    translations = small_catalogues(tmp_path / "translations")
    app = create_app(
        app_config(f"sqlite:///{database}", BABEL_TRANSLATION_DIRECTORIES=str(translations))
    )
    app.jinja_env.bytecode_cache = compiled_templates
    yield app
    with app.app_context():
        db.engine.dispose()


def lang_of(response) -> str:
    found = re.search(r'<html lang="([^"]+)"', response.get_data(as_text=True))
    assert found, "no <html lang>"
    return found.group(1)


def a_match(client) -> int:
    sides = [{"players": ["Ann", "Bob"]}, {"players": ["Cy", "Di"]}]
    match = client.post("/api/v1/matches", json={"variant": "classic", "sides": sides}).json
    hand = [{"went_out": True, "canastas": {"natural": 2}, "meld_points": 500}, {}]
    hand[1] = {"meld_points": 50, "hand_points": 10}
    assert client.post(f"/api/v1/matches/{match['id']}/hands", json={"sides": hand}).status_code
    return match["id"]


# --- Which language ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("header", "locale"),
    [
        ("pt-BR", "pt_BR"),
        ("pt_BR", "pt_BR"),
        ("pt", "pt_BR"),
        ("pt-PT", "pt_BR"),
        ("es-AR,en;q=0.5", "es"),
        ("es", "es"),
        ("it-CH", "it"),
        ("fr-FR", "en"),
        ("fr-FR,it;q=0.3", "it"),
        ("de, pt;q=0.1, es;q=0.5", "es"),
        ("it;q=0, es;q=0.2", "es"),
        ("*", "en"),
        ("", "en"),
    ],
)
def test_accept_language_finds_the_language(header, locale):
    from werkzeug.http import parse_accept_header

    assert from_accept_language(parse_accept_header(header, LanguageAccept)) == locale


def test_known_locales_in_any_spelling():
    assert [known(v) for v in ("pt_BR", "pt-BR", "PT-br", "es", "it", "en")] == [
        "pt_BR",
        "pt_BR",
        "pt_BR",
        "es",
        "it",
        "en",
    ]
    assert [known(v) for v in ("fr", "", None, 3, "pt_BR" * 9)] == [None] * 5


def test_the_browser_language_chooses_and_html_lang_says_which(anonymous_client):
    for locale, header in HEADERS.items():
        response = anonymous_client.get("/login", headers={"Accept-Language": header})
        assert lang_of(response) == locale.replace("_", "-")
    assert lang_of(anonymous_client.get("/login", headers={"Accept-Language": "fr"})) == "en"


def test_the_chooser_is_on_every_page_and_works_without_javascript(anonymous_client):
    response = anonymous_client.get("/rules/classic", headers={"Accept-Language": "it"})
    chooser = page(response).find_all("nav", class_="langs")
    assert chooser, "no language chooser"
    links = {a.attrs["lang"]: a.attrs["href"] for a in chooser[0].find_all("a")}
    assert set(links) == {"en", "pt-BR", "es"}  # the others: the page is in Italian
    assert [a.text() for a in chooser[0].find_all("a")] == ["English", "Português", "Español"]
    here = "http://localhost/rules/classic?x=1"
    chosen = anonymous_client.get(
        links["pt-BR"], headers={"Accept-Language": "it", "Referer": here}
    )
    assert chosen.status_code == 303
    assert chosen.location == "/rules/classic?x=1"  # back to the same page
    assert "lang=pt_BR" in chosen.headers["Set-Cookie"]
    again = anonymous_client.get("/rules/classic", headers={"Accept-Language": "it"})
    assert lang_of(again) == "pt-BR"  # the cookie before the browser's language


def test_the_chooser_keeps_to_this_site_and_to_known_languages(anonymous_client):
    away = anonymous_client.get("/language/es?next=//evil.example/x")
    assert away.status_code == 303
    assert away.location == "/"
    elsewhere = anonymous_client.get("/language/es", headers={"Referer": "https://evil.example/x"})
    assert elsewhere.location == "/"
    assert anonymous_client.get("/language/es").location == "/"  # no Referer: home
    assert anonymous_client.get("/language/fr").status_code == 404
    assert "Set-Cookie" not in anonymous_client.get("/language/xx").headers


def test_a_users_setting_comes_first_and_signing_in_stores_nothing(app, anonymous_client):
    phone = anonymous_client
    form = form_values(page(phone.get("/login", headers={"Accept-Language": "it"})))
    form |= {"username": TESTER, "password": "correct horse battery"}
    assert phone.post("/login", data=form, headers={"Accept-Language": "it"}).status_code == 303
    with app.app_context():
        assert accounts.find_user(TESTER).locale is None  # the browser's language not stored
    assert lang_of(phone.get("/", headers={"Accept-Language": "it"})) == "it"
    account = page(phone.get("/account"))
    values = form_values(account, 0)
    assert "lang-locale" in values, "the language form comes first on the account page"
    said = phone.post("/account", data={**values, "lang-locale": "es"})
    assert said.status_code == 303
    with app.app_context():
        assert accounts.find_user(TESTER).locale == "es"
    shown = phone.get("/", headers={"Accept-Language": "it"})
    assert lang_of(shown) == "es"
    assert "langs" in shown.get_data(as_text=True)
    assert not page(shown).find_all("nav", class_="langs")  # the account's setting is said
    phone.get("/language/pt_BR")  # the chooser's cookie does not override the account's
    assert lang_of(phone.get("/")) == "es"
    back = phone.post("/account", data={**values, "lang-locale": ""})
    assert back.status_code == 303
    with app.app_context():
        assert accounts.find_user(TESTER).locale is None
    assert lang_of(phone.get("/", headers={"Accept-Language": "it"})) == "pt-BR"  # the cookie


def test_the_api_reads_the_users_setting_then_accept_language(app, client):
    match_id = a_match(client)
    with app.app_context(), transaction():
        token = accounts.new_api_token(accounts.find_user(TESTER), "t").secret
    api = app.test_client()
    api.set_cookie("lang", "it")  # a cookie is a page's choice, not the API's
    bearer = {"Authorization": f"Bearer {token}", "Accept-Language": "es"}
    state = api.get(f"/api/v1/matches/{match_id}", headers=bearer).json
    labels = [line["label"] for line in state["hands"][0]["sides"][1]["lines"]]
    assert "Cartas bajadas" in labels
    line = state["hands"][0]["sides"][1]["lines"][0]
    assert (line["key"], line["params"]) == ("line.meld_points", {})  # keys stay as they are
    with app.app_context(), transaction():
        db.session.execute(db.update(User).values(locale="pt_BR"))
    state = api.get(f"/api/v1/matches/{match_id}", headers=bearer).json
    assert "Cartas baixadas" in [x["label"] for x in state["hands"][0]["sides"][1]["lines"]]


# --- Caches and conditional answers -----------------------------------------------------------


def test_pages_and_answers_vary_by_language(client):
    match_id = a_match(client)
    for url in ("/", f"/matches/{match_id}", f"/matches/{match_id}/board", "/rules"):
        vary = client.get(url).headers["Vary"]
        assert "Accept-Language" in vary, url
        assert "Cookie" in vary, url
    api = client.get(f"/api/v1/matches/{match_id}").headers["Vary"]
    for header in ("Accept-Language", "Cookie", "Authorization"):
        assert header in api
    css = re.search(r'href="(/static/app\.[0-9a-f]+\.css)"', client.get("/").get_data(True))
    assert "Accept-Language" not in client.get(css.group(1)).headers.get("Vary", "")


def test_a_live_boards_etag_never_earns_a_304_in_another_language(app, client):
    """The scorer's phone in Portuguese and a viewer's in Italian follow the same match."""
    match_id = a_match(client)
    with app.app_context(), transaction():
        from scorekeeper.models import LinkRole
        from scorekeeper.services import sharing

        token = sharing.new_link(match_id, LinkRole.VIEWER, None).token
    viewer = app.test_client()
    viewer.get(f"/s/{token}")
    board = f"/matches/{match_id}/board"
    scorer = client.get(board, headers={"Accept-Language": "pt-BR"})
    assert "Mãos" in scorer.get_data(as_text=True)
    tag = scorer.headers["ETag"]
    italian = viewer.get(board, headers={"Accept-Language": "it", "If-None-Match": tag})
    assert italian.status_code == 200
    assert "Mani" in italian.get_data(as_text=True)
    assert "Mãos" not in italian.get_data(as_text=True)  # not the cached Portuguese board
    again = viewer.get(
        board, headers={"Accept-Language": "it", "If-None-Match": italian.headers["ETag"]}
    )
    assert again.status_code == 304
    same = client.get(board, headers={"Accept-Language": "pt-BR", "If-None-Match": tag})
    assert same.status_code == 304
    full = viewer.get(f"/matches/{match_id}", headers={"Accept-Language": "it"})
    assert 'data-etag="' + italian.headers["ETag"].strip('W/"') in full.get_data(as_text=True)


def test_the_api_states_etag_is_keyed_by_language_and_if_match_is_not(client):
    match_id = a_match(client)
    url = f"/api/v1/matches/{match_id}"
    portuguese = client.get(url, headers={"Accept-Language": "pt-BR"})
    tag = portuguese.headers["ETag"]
    spanish = client.get(url, headers={"Accept-Language": "es", "If-None-Match": tag})
    assert spanish.status_code == 200
    assert "Cartas bajadas" in str(spanish.json)
    again = client.get(url, headers={"Accept-Language": "pt-BR", "If-None-Match": tag})
    assert again.status_code == 304
    hand = {"sides": [{"meld_points": 50}, {"meld_points": 60}]}
    written = client.post(f"{url}/hands", json=hand, headers={"If-Match": spanish.headers["ETag"]})
    assert written.status_code == 201, written.json  # If-Match: the state, whatever language
    stale = client.post(f"{url}/hands", json=hand, headers={"If-Match": tag})
    assert stale.status_code == 412


def test_the_service_worker_is_made_per_language(anonymous_client):
    portuguese = anonymous_client.get("/sw.js", headers={"Accept-Language": "pt-BR"})
    italian = anonymous_client.get("/sw.js", headers={"Accept-Language": "it"})
    assert portuguese.data != italian.data  # a new worker: the offline page cached anew
    assert re.search(r'const CACHE = "scorekeeper-\w+-pt_BR"', portuguese.get_data(True))
    assert re.search(r'const PAGES = "scorekeeper-pages-it"', italian.get_data(True))


# --- Numbers, dates, forms, old hands ----------------------------------------------------------


@pytest.mark.parametrize(
    ("locale", "small", "large", "date"),
    [
        ("en", "4,500", "10,450", "Mar 5, 2026"),
        ("pt_BR", "4.500", "10.450", "5 de mar. de 2026"),
        ("es", "4500", "10.450", "5 mar 2026"),
        ("it", "4.500", "10.450", "5 mar 2026"),
    ],
)
def test_numbers_and_dates_as_each_locale_writes_them(app, locale, small, large, date):
    from datetime import datetime

    with app.test_request_context(headers={"Accept-Language": HEADERS[locale]}):
        assert words.number(4500) == small
        assert words.number(10450) == large
        assert words.number(-10450) == "-" + large
        assert words.signed(1250).startswith("+1")
        assert words.day(datetime(2026, 3, 5, 20, 15)) == date
        assert words.moment(datetime(2026, 3, 5, 20, 15)).startswith(date)
    assert words.number(10450) == "10450"  # no reader: plain digits (migrations, scripts)


def test_totals_in_the_locales_format_on_the_page_and_plain_in_the_api(client):
    sides = [{"players": ["Ann", "Bob"]}, {"players": ["Cy", "Di"]}]
    match_id = client.post("/api/v1/matches", json={"variant": "classic", "sides": sides}).json
    match_id = match_id["id"]
    big = {"went_out": True, "canastas": {"natural": 2, "mixed": 1}, "meld_points": 600}
    saved = client.post(
        f"/api/v1/matches/{match_id}/hands", json={"sides": [big, {"meld_points": 50}]}
    )
    assert saved.status_code == 201, saved.json
    total = client.get(f"/api/v1/matches/{match_id}").json["sides"][0]["total"]
    assert total == 2000  # a plain JSON number
    board = f"/matches/{match_id}/board"
    italian = client.get(board, headers={"Accept-Language": "it"}).get_data(True)
    assert ">2.000<" in italian
    spanish = client.get(board, headers={"Accept-Language": "es"}).get_data(True)
    assert ">2000<" in spanish  # CLDR: Spanish groups from five digits on
    assert "2.000" not in spanish


def test_wtforms_own_messages_are_in_the_readers_language(anonymous_client):
    phone = anonymous_client
    form = form_values(page(phone.get("/login", headers={"Accept-Language": "it"})))
    refused = phone.post("/login", data={**form, "username": ""}, headers={"Accept-Language": "it"})
    assert "Questo campo è obbligatorio." in refused.get_data(as_text=True)
    assert "Nome" in refused.get_data(as_text=True)  # a label, lazily translated
    form = form_values(page(phone.get("/login", headers={"Accept-Language": "pt-BR"})))
    refused = phone.post("/login", data={**form, "username": ""}, headers={"Accept-Language": "pt"})
    assert "Campo obrigatório." in refused.get_data(as_text=True)


def test_hands_recorded_before_render_in_the_chosen_language(client):
    """A stored line is its key and parameters: it is said in the reader's language."""
    match_id = a_match(client)
    for locale, said in WORDS.items():
        text = client.get(
            f"/matches/{match_id}/hands/1", headers={"Accept-Language": HEADERS[locale]}
        ).get_data(as_text=True)
        assert said["Melded cards"] in text, locale
