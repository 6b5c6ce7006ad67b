"""Every page of the authorization walk's URL map, in a language: what a reader sees.

A small club (an account that runs the server and a group, a match in play with a
corrected hand and share links, a finished match, a Burraco match, an invite, a league,
an event in its first round with a viewer link) and two
callers: its admin, signed in, and a phone that opened the match's viewer link. `walk`
asks every URL of `tests.test_authorization.TABLE` as both (GET as a reader would;
writes without a CSRF token or with a body the API refuses, so nothing changes), each
in one language, and gives the words each answer shows: a page's visible text and
accessible names, a JSON answer's human-readable fields.
"""

from __future__ import annotations

import io
import json
import re
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import date
from html.parser import HTMLParser
from pathlib import Path

from scorekeeper.extensions import db
from scorekeeper.models import LinkRole, Membership, Player, Role
from scorekeeper.rules import PRESETS
from scorekeeper.season_models import League, LeagueCredit
from scorekeeper.services import accounts, event_links, groups, leagues, sharing
from scorekeeper.services.storage import transaction
from tests.support import add_user, app_on_new_database, sign_in
from tests.test_authorization import TABLE
from tests.web.helpers import form_values, page

HEADERS = {  # what a phone set to that language sends
    "en": "en-US,en;q=0.9",
    "pt_BR": "pt-BR,pt;q=0.9,en;q=0.5",
    "es": "es-ES,es;q=0.9,en;q=0.5",
    "it": "it-IT,it;q=0.9,en;q=0.5",
}
# Names and words of the data itself (people, the group, tokens), never the app's words.
# ("Ada's games": the personal group of an account made outside a request, in English.)
DATA_WORDS = {"Ada", "Mem", "Ann", "Bob", "Cy", "Di", "Eve", "Flo", "Thursday", "Scorekeeper"}
DATA_WORDS |= {"games", "BG", "Stats"}  # and an app, by its name
DATA_WORDS |= {"Zed", "qqv", "qqz", "xxq", "qqx"}  # what the walk types in
DATA_WORDS |= {"Autumn"}  # the league's name
ALONE = {"languages.choose", "sharing.open_link"}  # change the caller: asked by a new client
JSON_WORDS = {"label", "message", "name", "description", "source", "title"}


@dataclass
class World:
    app: object
    ids: dict[str, object]
    clients: dict[str, object]


def _post(client, path: str, body: dict) -> dict:
    response = client.open(path, method="POST", json=body)
    assert response.status_code in (200, 201), (path, response.get_json())
    return response.get_json()


def build(path: Path, **config: object) -> World:
    app = app_on_new_database(path, **config)
    add_user(app, "Ada")  # the first account: runs the server
    add_user(app, "Mem")
    with app.app_context(), transaction():
        ada, mem = accounts.find_user("Ada"), accounts.find_user("Mem")
        group = groups.create_group(ada, "Thursday")
        db.session.add(Membership(group_id=group.id, user_id=mem.id, role=Role.MEMBER))
        invite = groups.new_invite(group, ada)
        accounts.new_api_token(ada, "Eve")
        ids: dict[str, object] = {"group": group.id, "member": mem.id, "invite": invite.token}
        ids |= {"group_admin": ada.id, "invite_id": invite.id}
        ids["token_id"] = accounts.api_tokens(ada)[0].id
    admin = sign_in(app.test_client(), "Ada")
    teams = [{"players": ["Ann", "Bob"]}, {"players": ["Cy", "Di"]}]
    match = _post(
        admin, "/api/v1/matches", {"variant": "classic", "sides": teams, "group": ids["group"]}
    )
    usual = [{"meld_points": 105, "hand_points": 5}, {"meld_points": 55, "hand_points": 5}]
    out = {"went_out": True, "canastas": {"natural": 1, "mixed": 1}, "meld_points": 600}
    state = _post(admin, f"/api/v1/matches/{match['id']}/hands", {"sides": usual})
    _post(admin, f"/api/v1/matches/{match['id']}/hands", {"sides": [out, {"hand_points": 40}]})
    first = state["hands"][0]
    corrected = admin.put(
        f"/api/v1/matches/{match['id']}/hands/1",
        json={
            "sides": [usual[0], {"meld_points": 60, "hand_points": 5}],
            "version": first["version"],
        },
    )
    assert corrected.status_code == 200, corrected.get_json()
    duel = {"variant": "classic-2p", "sides": [{"players": ["Eve"]}, {"players": ["Flo"]}]}
    duel |= {"group": ids["group"], "options": {"target": 500}}
    finished = _post(admin, "/api/v1/matches", duel)["id"]
    won = {"went_out": True, "canastas": {"natural": 2}, "meld_points": 300}
    _post(admin, f"/api/v1/matches/{finished}/hands", {"sides": [won, {"hand_points": 50}]})
    burraco = {"variant": "burraco", "sides": [{"players": ["Ann"]}, {"players": ["Cy"]}]}
    burraco_id = _post(admin, "/api/v1/matches", {**burraco, "group": ids["group"]})["id"]
    closing = {
        "went_out": True,
        "canastas": {"natural": 1},
        "meld_points": 230,
        "took_extra_hand": True,
    }
    _post(
        admin,
        f"/api/v1/matches/{burraco_id}/hands",
        {"sides": [closing, {"took_extra_hand": False, "hand_points": 40}]},
    )
    more = {}
    for key, players in (
        ("hand-and-foot", [["Ann", "Bob"], ["Cy", "Di"]]),
        ("burraco-3p", [["Ann"], ["Bob"], ["Cy"]]),
        ("modern-american", [["Ann", "Bob"], ["Cy", "Di"]]),
    ):
        sides = [{"players": names} for names in players]
        body = {"variant": key, "sides": sides, "group": ids["group"]}
        more[key] = _post(admin, "/api/v1/matches", body)["id"]
    season = {"name": "Autumn", "start": "2026-01-01", "end": "2026-12-31", "scoring": "wdl"}
    ids["league"] = _post(admin, "/api/v1/leagues", {**season, "group": ids["group"]})["id"]
    with app.app_context(), transaction():
        league = db.session.get(League, ids["league"])
        link = leagues.new_link(league, accounts.find_user("Ada"))
        ids |= {"league_link": link.token, "league_link_id": link.id}
        first, second = (
            db.session.execute(
                db.select(Player.id).where(Player.group_id == ids["group"]).order_by(Player.id)
            )
            .scalars()
            .all()[:2]
        )
        ids["credit"] = db.session.execute(
            db.insert(LeagueCredit)
            .values(
                league_id=ids["league"],
                evening=date(2026, 1, 5),
                substitute_id=first,
                replaced_id=second,
            )
            .returning(LeagueCredit.id)
        ).scalar_one()
    names = ["Ann", "Bob", "Cy", "Di", "Eve", "Flo", "Ada", "Mem"]
    entries = [{"players": names[n : n + 2]} for n in range(0, 8, 2)]
    cup = {"name": "Thursday", "variant": "classic", "rounds": 2, "entries": entries}
    event = _post(admin, "/api/v1/events", {**cup, "group": ids["group"]})
    _post(admin, f"/api/v1/events/{event['id']}/rounds", {})
    with app.app_context(), transaction():
        event_link = event_links.new_link(event["id"], None)
        ids |= {"event": event["id"], "entry_id": event["entries"][0]["id"]}
        ids |= {"event_link_id": event_link.id, "spare_event_link": event_link.token}
    with app.app_context(), transaction():
        viewer = sharing.new_link(match["id"], LinkRole.VIEWER, None)
        sharing.new_link(match["id"], LinkRole.SCORER, None)
        spare = sharing.new_link(match["id"], LinkRole.VIEWER, None)
        ids |= {"match": match["id"], "link_id": spare.id, "spare_link": spare.token}
        ids["player"] = (
            db.session.execute(db.select(Player.id).where(Player.group_id == ids["group"]))
            .scalars()
            .first()
        )
        viewer_token = viewer.token
    phone = app.test_client()
    assert phone.get(f"/s/{viewer_token}").status_code == 302
    ids |= {"finished": finished, "burraco": burraco_id, "others": tuple(more.values())}
    return World(app, ids, {"signed in": admin, "viewer link": phone})


def calls(ids: dict[str, object]) -> Iterator[tuple[str, str, str]]:
    """(endpoint, method, URL) of every call of the table, and the other matches' pages."""
    for endpoint, entries in TABLE.items():
        for _, method, url in entries:
            yield endpoint, method, url.format(**ids)
    for other in (ids["finished"], ids["burraco"], *ids["others"]):  # type: ignore[misc]
        for path in ("", "/hands/1", "/rules", "/hands/new", "/hands/1/edit", "/manage"):
            yield "matches.other", "GET", f"/matches/{other}{path}"
    for key, preset in PRESETS.items():
        yield "rulebook.preset", "GET", f"/rules/{key}"
        for layout in preset.layouts:
            yield "matches.new", "GET", f"/matches/new/{key}?layout={layout.key}"
    group = ids["group"]
    yield "history.index", "GET", "/history?player=Ann&partner=Bob&result=won&sort=oldest"
    yield "history.index", "GET", "/history?result=lost&from=2020-13-01&to=x&partner=Bob"
    yield "stats.group_stats", "GET", f"/groups/{group}/stats?player=Ann&against=Cy"
    yield "stats.group_stats", "GET", f"/groups/{group}/stats?variant=qqv&player=Zed&from=x"
    yield "stats.group_stats", "GET", f"/groups/{group}/stats?team=1-2&vs=3-4"
    yield "errors", "GET", "/qqz/xxq"
    yield "errors", "GET", "/matches/424242"
    yield "errors", "GET", "/rules/qqx"
    yield "api_variants.list_variants", "GET", "/api/v1/variants/classic/meld-requirement"


def scenarios(world: World, client, headers: dict[str, str]) -> Iterator[tuple[str, object]]:
    """Pages a scorer meets after sending a form (with its CSRF token): a hand asked about
    once more, a refused hand, a refused new match, a refused import, a message after a
    change (followed to the page that shows it)."""
    match = world.ids["match"]
    form = f"/matches/{match}/hands/new"
    values = form_values(page(client.get(form, headers=headers)))
    empty = {**values, "out": "none", "s0_meld_points": "120", "s0_hand_points": "10"}
    yield "asked again", client.post(form, data=empty, headers=headers)
    wrong = {**values, "out": "none", "s0_meld_points": "abc", "s1_meld_points": "-5"}
    wrong |= {"s1_hand_points": "7"}
    yield "refused hand", client.post(form, data=wrong, headers=headers)
    new = "/matches/new/classic"
    values = form_values(page(client.get(new, headers=headers)))
    yield "refused match", client.post(new, data={**values, "seat_0": ""}, headers=headers)
    group = world.ids["group"]
    upload = f"/groups/{group}/import"
    values = form_values(page(client.get(upload, headers=headers)))
    broken = {**values, "export": (io.BytesIO(b'{"format": "x"}'), "x.json")}
    yield "refused import", client.post(upload, data=broken, headers=headers)
    rename = f"/groups/{group}/rename"
    values = form_values(page(client.get(f"/groups/{group}", headers=headers)), -1)
    said = client.post(rename, data={**values, "name": "Thursday"}, headers=headers)
    yield "group renamed", client.get(said.location, headers=headers)


def walk(world: World, caller: str, locale: str) -> Iterator[tuple[str, str, str, list[str]]]:
    """(method, URL, status, texts) of every call, as `caller` reading `locale` (a redirect's
    body is no page anyone reads: its words are left out)."""
    headers = {"Accept-Language": HEADERS[locale]}
    for endpoint, method, url in calls(world.ids):
        client = world.clients[caller] if endpoint not in ALONE else world.app.test_client()
        if url.startswith("/api/"):
            response = client.open(url, method=method, json={"bad": True}, headers=headers)
        else:
            response = client.open(url, method=method, data={}, headers=headers)
        shown = [] if 300 <= response.status_code < 400 else words_of(response)
        yield method, url, str(response.status_code), shown
    if caller == "signed in":
        for what, response in scenarios(world, world.clients[caller], headers):
            yield "POST", what, str(response.status_code), words_of(response)


def words_of(response) -> list[str]:
    """What a reader reads in an answer: a page's text, or a JSON answer's words."""
    kind = response.mimetype or ""
    body = response.get_data(as_text=True)
    if kind == "application/json":
        return list(json_words(json.loads(body)))
    if kind == "text/html":
        reader = VisibleText()
        reader.feed(body)
        return reader.texts
    return []


def json_words(value: object, key: str = "") -> Iterator[str]:
    """The human-readable fields of a JSON answer (an option's `name` is its identifier, its
    `label` its words)."""
    if isinstance(value, dict):
        for name, item in value.items():
            if name in ("params", "input", "rules", "options"):
                continue
            if name == "name" and "label" in value:
                continue
            yield from json_words(item, name)
    elif isinstance(value, list):
        for item in value:
            yield from json_words(item, key)
    elif isinstance(value, str) and key in JSON_WORDS:
        yield value


class VisibleText(HTMLParser):
    """A page's text as read, and its accessible names (aria-label, title, alt): not
    scripts, styles, code (commands and settings are not words of a language), times
    (Babel writes dates in the reader's language, out of CLDR) or what is marked as
    marked with a language of its own (the chooser's names of the languages, each in
    itself)."""

    SKIP = frozenset({"script", "style", "code", "time", "svg"})
    NAMED = ("aria-label", "title", "alt", "placeholder")

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.texts: list[str] = []
        self.skipping: list[str] = []
        self.lang: str | None = None  # the page's

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        named = dict(attrs)
        if tag == "html":
            self.lang = named.get("lang")
        elif tag in self.SKIP or "lang" in named:
            self.skipping.append(tag)
        for attribute in self.NAMED:
            if named.get(attribute):
                self.texts.append(str(named[attribute]))

    def handle_endtag(self, tag: str) -> None:
        if self.skipping and self.skipping[-1] == tag:
            self.skipping.pop()

    def handle_data(self, data: str) -> None:
        if not self.skipping and data.strip():
            self.texts.append(data)


def normalized(text: str) -> str:
    return re.sub(r"\s+", " ", text).strip()
