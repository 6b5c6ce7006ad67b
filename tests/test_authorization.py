"""Every URL of the app, every method, as every kind of caller: each gets exactly its rights.

Callers: signed out; a member of another group (an outsider); a browser that opened a
viewer link; one that opened a scorer link; a member of the match's group; its admin;
a member taken out of the group (after opening links, one of them their own, and making
a token); a browser whose sign-in was ended elsewhere ("sign out everywhere"); one that
opened an event's viewer link; and, on the API, a token that was revoked.

Events of the group (made by its admin) have their own levels: their viewer link (the
standings, the projector view, entry cards, the CSV), a member of the group (also the
director's page, table cards and viewer links), and the director (the member who made
the event, or any admin of its group: rounds, penalties, withdrawals, entries).
The rights (written here, not read from the app):

- signed out: the sign-in page (API: 401) for anything that needs an account; so too
  a browser whose sign-in was ended and a revoked token;
- a removed member: what an outsider gets (nothing they opened or made still opens the
  match);
- not theirs: 404, whether or not the match exists, never 403;
- a link asking for more than its role: 403; a member asking for an admin's action: 403;
- otherwise the request is served (whatever its own answer: 200, a redirect, a 422...).

The same for the API with bearer tokens (personal tokens, and link tokens). Every rule
of the URL map must be in the table below, so a new page cannot slip in unchecked.
Writes are sent without a CSRF token or with a body the API refuses, so the shared
match is not changed while it is walked.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date

import pytest

from scorekeeper.extensions import db
from scorekeeper.models import Group, Invite, LinkRole, Membership, Player, Role, User
from scorekeeper.season_models import League, LeagueCredit, LeagueLink
from scorekeeper.services import accounts, event_links, groups, leagues, sharing
from scorekeeper.services.storage import transaction
from tests.support import add_user, app_on_new_database, sign_in

PUBLIC, USER, SITE_ADMIN, GROUP_MEMBER, GROUP_ADMIN = "public", "user", "site", "gm", "ga"
VIEWER, SCORER, MEMBER, ADMIN = 1, 2, 3, 4
EVENT_VIEWER, EVENT_MEMBER, DIRECTOR = "ev", "em", "ed"
EVENT_NEEDS = {EVENT_VIEWER: 1, EVENT_MEMBER: 3, DIRECTOR: 4}

# endpoint -> (what it needs, method, URL template)
TABLE: dict[str, list[tuple[object, str, str]]] = {
    "home.index": [(USER, "GET", "/")],
    "auth.account": [(USER, "GET", "/account"), (USER, "POST", "/account")],
    "auth.revoke_token": [(USER, "POST", "/account/tokens/{token_id}/revoke")],
    "auth.sign_out_everywhere": [(USER, "POST", "/account/sign-out-everywhere")],
    "auth.admin": [(SITE_ADMIN, "GET", "/admin"), (SITE_ADMIN, "POST", "/admin")],
    "auth.login": [(PUBLIC, "GET", "/login"), (PUBLIC, "POST", "/login")],
    "auth.logout": [(PUBLIC, "POST", "/logout")],
    "auth.register": [
        (PUBLIC, "GET", "/register?invite={invite}"),
        (PUBLIC, "POST", "/register?invite={invite}"),
    ],
    "auth.setup": [(PUBLIC, "GET", "/setup"), (PUBLIC, "POST", "/setup")],
    "history.index": [(USER, "GET", "/history")],
    "groups.index": [(USER, "GET", "/groups"), (USER, "POST", "/groups")],
    "groups.detail": [(GROUP_MEMBER, "GET", "/groups/{group}")],
    "groups.new_invite": [(GROUP_MEMBER, "POST", "/groups/{group}/invites")],
    "groups.revoke_invite": [(GROUP_MEMBER, "POST", "/groups/{group}/invites/{invite_id}/revoke")],
    "groups.remove_member": [(GROUP_ADMIN, "POST", "/groups/{group}/members/{group_admin}/remove")],
    "groups.set_role": [(GROUP_ADMIN, "POST", "/groups/{group}/members/{member}/role")],
    "groups.link_player": [(GROUP_ADMIN, "POST", "/groups/{group}/players/{player}/link")],
    "groups.rename_player": [(GROUP_ADMIN, "POST", "/groups/{group}/players/{player}/rename")],
    "groups.merge_players": [(GROUP_ADMIN, "POST", "/groups/{group}/players/merge")],
    "groups.rename": [(GROUP_ADMIN, "POST", "/groups/{group}/rename")],
    "stats.group_stats": [(GROUP_MEMBER, "GET", "/groups/{group}/stats")],
    "stats.player": [(GROUP_MEMBER, "GET", "/groups/{group}/players/{player}")],
    "exports.export": [(GROUP_MEMBER, "GET", "/groups/{group}/export.json")],
    "exports.import_matches": [
        (GROUP_MEMBER, "GET", "/groups/{group}/import"),
        (GROUP_MEMBER, "POST", "/groups/{group}/import"),
    ],
    "invites.accept": [(PUBLIC, "GET", "/invite/{invite}"), (PUBLIC, "POST", "/invite/{invite}")],
    "matches.choose_variant": [(USER, "GET", "/matches/new")],
    "matches.new": [(USER, "GET", "/matches/new/classic"), (USER, "POST", "/matches/new/classic")],
    "matches.scoreboard": [(VIEWER, "GET", "/matches/{match}")],
    "matches.board": [(VIEWER, "GET", "/matches/{match}/board")],
    "hands.detail": [(VIEWER, "GET", "/matches/{match}/hands/1")],
    "rulebook.for_match": [(VIEWER, "GET", "/matches/{match}/rules")],
    "hands.record": [
        (SCORER, "GET", "/matches/{match}/hands/new"),
        (SCORER, "POST", "/matches/{match}/hands/new"),
    ],
    "hands.preview": [(SCORER, "POST", "/matches/{match}/hands/preview")],
    "hands.sent": [(SCORER, "GET", "/matches/{match}/hands/sent/0123456789abcdef")],
    "hands.correct": [
        (SCORER, "GET", "/matches/{match}/hands/1/edit"),
        (SCORER, "POST", "/matches/{match}/hands/1/edit"),
    ],
    "hands.remove": [
        (SCORER, "GET", "/matches/{match}/hands/1/remove"),
        (SCORER, "POST", "/matches/{match}/hands/1/remove"),
    ],
    "sharing.share": [(MEMBER, "GET", "/matches/{match}/share")],
    "sharing.new_link": [(MEMBER, "POST", "/matches/{match}/share")],
    "sharing.revoke_link": [(MEMBER, "POST", "/matches/{match}/share/{link_id}/revoke")],
    "match_changes.manage": [(MEMBER, "GET", "/matches/{match}/manage")],
    "match_changes.abandon": [(MEMBER, "POST", "/matches/{match}/abandon")],
    "match_changes.rename_side": [(MEMBER, "POST", "/matches/{match}/sides/0")],
    "match_changes.rematch": [(MEMBER, "POST", "/matches/{match}/rematch")],
    "match_changes.delete": [
        (ADMIN, "GET", "/matches/{match}/delete"),
        (ADMIN, "POST", "/matches/{match}/delete"),
    ],
    "sharing.open_link": [(PUBLIC, "GET", "/s/{spare_link}")],
    # Events.
    "events.index": [(GROUP_MEMBER, "GET", "/groups/{group}/events")],
    "events.choose": [(GROUP_MEMBER, "GET", "/groups/{group}/events/new")],
    "events.new": [
        (GROUP_MEMBER, "GET", "/groups/{group}/events/new/classic"),
        (GROUP_MEMBER, "POST", "/groups/{group}/events/new/classic"),
    ],
    "events.entries": [
        (DIRECTOR, "GET", "/events/{event}/entries"),
        (DIRECTOR, "POST", "/events/{event}/entries"),
    ],
    "event_director.detail": [(EVENT_MEMBER, "GET", "/events/{event}")],
    "event_director.tables": [(EVENT_MEMBER, "GET", "/events/{event}/tables")],
    "event_director.new_round": [(DIRECTOR, "POST", "/events/{event}/rounds")],
    "event_director.new_penalty": [(DIRECTOR, "POST", "/events/{event}/penalties")],
    "event_director.withdraw_entry": [(DIRECTOR, "POST", "/events/{event}/withdraw")],
    "event_director.cards": [(EVENT_MEMBER, "GET", "/events/{event}/rounds/1/cards")],
    "event_director.card": [(EVENT_MEMBER, "GET", "/events/{event}/rounds/1/tables/1")],
    "event_director.card_code": [(EVENT_MEMBER, "GET", "/events/{event}/rounds/1/tables/1/qr.svg")],
    "event_standings.standings": [(EVENT_VIEWER, "GET", "/events/{event}/standings")],
    "event_standings.standings_live": [(EVENT_VIEWER, "GET", "/events/{event}/standings/live")],
    "event_standings.projector": [(EVENT_VIEWER, "GET", "/events/{event}/projector")],
    "event_standings.projector_live": [(EVENT_VIEWER, "GET", "/events/{event}/projector/live")],
    "event_standings.entry_card": [(EVENT_VIEWER, "GET", "/events/{event}/entries/1")],
    "event_standings.standings_csv": [(EVENT_VIEWER, "GET", "/events/{event}/standings.csv")],
    "event_standings.share": [(EVENT_MEMBER, "GET", "/events/{event}/share")],
    "event_standings.new_link": [(EVENT_MEMBER, "POST", "/events/{event}/share")],
    "event_standings.revoke_link": [
        (EVENT_MEMBER, "POST", "/events/{event}/share/{event_link_id}/revoke")
    ],
    "event_standings.open_link": [(PUBLIC, "GET", "/e/{spare_event_link}")],
    # Leagues: read and shared by the group's members, run by their director (the member
    # who created the league, here the group's admin, or any admin of the group).
    "leagues.index": [
        (GROUP_MEMBER, "GET", "/groups/{group}/leagues"),
        (GROUP_MEMBER, "POST", "/groups/{group}/leagues"),
    ],
    "leagues.detail": [(GROUP_MEMBER, "GET", "/groups/{group}/leagues/{league}")],
    "leagues.standings": [(GROUP_MEMBER, "GET", "/groups/{group}/leagues/{league}/standings")],
    "leagues.standings_file": [
        (GROUP_MEMBER, "GET", "/groups/{group}/leagues/{league}/standings.csv")
    ],
    "leagues.card_page": [
        (GROUP_MEMBER, "GET", "/groups/{group}/leagues/{league}/players/{player}")
    ],
    "leagues.add_credit": [(GROUP_ADMIN, "POST", "/groups/{group}/leagues/{league}/credits")],
    "leagues.remove_credit": [
        (GROUP_ADMIN, "POST", "/groups/{group}/leagues/{league}/credits/{credit}/remove")
    ],
    "leagues.settings": [
        (GROUP_ADMIN, "GET", "/groups/{group}/leagues/{league}/settings"),
        (GROUP_ADMIN, "POST", "/groups/{group}/leagues/{league}/settings"),
    ],
    "leagues.delete": [(GROUP_ADMIN, "POST", "/groups/{group}/leagues/{league}/delete")],
    "league_links.share": [(GROUP_MEMBER, "GET", "/groups/{group}/leagues/{league}/share")],
    "league_links.new_link": [(GROUP_MEMBER, "POST", "/groups/{group}/leagues/{league}/share")],
    "league_links.revoke_link": [
        (GROUP_MEMBER, "POST", "/groups/{group}/leagues/{league}/share/{league_link_id}/revoke")
    ],
    "league_links.viewer": [(PUBLIC, "GET", "/l/{league_link}")],
    "league_links.viewer_standings": [(PUBLIC, "GET", "/l/{league_link}/standings")],
    "league_links.viewer_csv": [(PUBLIC, "GET", "/l/{league_link}/standings.csv")],
    "league_links.viewer_card": [(PUBLIC, "GET", "/l/{league_link}/players/{player}")],
    "chances.new_match": [(USER, "GET", "/matches/new/classic/chances?seat_0=Ann&seat_1=Bob")],
    "rulebook.index": [(PUBLIC, "GET", "/rules")],
    "languages.choose": [(PUBLIC, "GET", "/language/pt_BR?next=/rules")],
    "rulebook.preset": [(PUBLIC, "GET", "/rules/classic")],
    "shell.manifest": [(PUBLIC, "GET", "/manifest.webmanifest")],
    "shell.offline": [(PUBLIC, "GET", "/offline")],
    "shell.service_worker": [(PUBLIC, "GET", "/sw.js")],
    "assets.static": [(PUBLIC, "GET", "/static/app.css")],
    # The JSON API.
    "api_variants.list_variants": [(PUBLIC, "GET", "/api/v1/variants")],
    "api_variants.variant_detail": [(PUBLIC, "GET", "/api/v1/variants/classic")],
    "api_variants.variant_meld_requirement": [
        (PUBLIC, "GET", "/api/v1/variants/classic/meld-requirement?score=10")
    ],
    "api_score.score_hand": [(PUBLIC, "POST", "/api/v1/score")],
    "api_matches.create": [(USER, "POST", "/api/v1/matches")],
    "api_matches.read": [(VIEWER, "GET", "/api/v1/matches/{match}")],
    "api_matches.add_hand": [(SCORER, "POST", "/api/v1/matches/{match}/hands")],
    "api_matches.correct": [(SCORER, "PUT", "/api/v1/matches/{match}/hands/1")],
    "api_matches.remove": [(SCORER, "DELETE", "/api/v1/matches/{match}/hands/1?version=x")],
    "api_matches.links": [(MEMBER, "GET", "/api/v1/matches/{match}/links")],
    "api_matches.new_link": [(MEMBER, "POST", "/api/v1/matches/{match}/links")],
    "api_matches.revoke_link": [(MEMBER, "DELETE", "/api/v1/matches/{match}/links/999999")],
    "api_stats.stats": [(USER, "GET", "/api/v1/stats")],
    "api_events.create": [(USER, "POST", "/api/v1/events")],
    "api_events.list_events": [(USER, "GET", "/api/v1/events")],
    "api_events.read": [(EVENT_VIEWER, "GET", "/api/v1/events/{event}")],
    "api_events.new_round": [(DIRECTOR, "POST", "/api/v1/events/{event}/rounds")],
    "api_events.new_penalty": [(DIRECTOR, "POST", "/api/v1/events/{event}/penalties")],
    "api_events.withdraw_entry": [
        (DIRECTOR, "POST", "/api/v1/events/{event}/entries/{entry_id}/withdraw")
    ],
    "api_exports.export": [(USER, "GET", "/api/v1/export")],
    "api_exports.import_matches": [(USER, "POST", "/api/v1/import")],
    "api_players.players": [(USER, "GET", "/api/v1/players")],
    "api_players.rating": [(GROUP_MEMBER, "GET", "/api/v1/players/{player}/rating")],
    "api_leagues.create": [(USER, "POST", "/api/v1/leagues")],
    "api_leagues.listing": [(USER, "GET", "/api/v1/leagues")],
    "api_leagues.read": [(GROUP_MEMBER, "GET", "/api/v1/leagues/{league}")],
}

CALLERS = ("anonymous", "outsider", "viewer", "scorer", "member", "admin", "removed", "ended")
CALLERS += ("event_viewer",)
LEVELS = {"anonymous": 0, "outsider": 0, "viewer": VIEWER, "scorer": SCORER, "member": MEMBER}
LEVELS |= {"removed": 0, "ended": 0, "revoked": 0}
LIKE = {"removed": "outsider", "ended": "anonymous", "revoked": "anonymous"}
LEVELS["admin"] = ADMIN


@dataclass
class World:
    app: object
    ids: dict[str, object]
    clients: dict[str, object]
    tokens: dict[str, str]


@pytest.fixture(scope="module")
def world(tmp_path_factory) -> World:
    app = app_on_new_database(tmp_path_factory.mktemp("authz") / "authz.sqlite")
    for name in ("Root", "Ada", "Mem", "Out", "Rem", "Gone"):
        add_user(app, name)  # Root, the first, runs the server
    with app.app_context(), transaction():
        ada, mem, out, rem, gone = (
            accounts.find_user(n) for n in ("Ada", "Mem", "Out", "Rem", "Gone")
        )
        group = groups.create_group(ada, "Thursday")
        for user in (mem, rem, gone):
            db.session.add(Membership(group_id=group.id, user_id=user.id, role=Role.MEMBER))
        invite = groups.new_invite(group, ada)
        tokens = {
            name: accounts.new_api_token(user, "t").secret
            for name, user in (("admin", ada), ("member", mem), ("outsider", out), ("removed", rem))
        }
        revoked = accounts.new_api_token(mem, "revoked")
        tokens["revoked"] = revoked.secret
        accounts.revoke_api_token(mem, revoked.token.id)
        ids = {"group": group.id, "member": mem.id, "invite": invite.token}
        ids["group_admin"] = ada.id
        ids["invite_id"] = invite.id
        ids["token_id"] = accounts.api_tokens(ada)[0].id
    admin_client = sign_in(app.test_client(), "Ada")
    teams = [{"players": ["Ann", "Bob"]}, {"players": ["Cy", "Di"]}]
    body = {"variant": "classic", "sides": teams, "group": ids["group"]}
    match_id = admin_client.post("/api/v1/matches", json=body).json["id"]
    usual = [{"meld_points": 105, "hand_points": 5}, {"meld_points": 55, "hand_points": 5}]
    for _ in range(2):
        admin_client.post(f"/api/v1/matches/{match_id}/hands", json={"sides": usual})
    body = {"name": "Autumn", "start": "2026-01-01", "end": "2026-12-31", "scoring": "wdl"}
    ids["league"] = admin_client.post("/api/v1/leagues", json={**body, "group": ids["group"]}).json[
        "id"
    ]
    with app.app_context(), transaction():
        links = {
            role: sharing.new_link(match_id, LinkRole(role), None) for role in ("viewer", "scorer")
        }
        spare = sharing.new_link(match_id, LinkRole.VIEWER, None)
        tokens.update({role: link.token for role, link in links.items()})
        own = sharing.new_link(match_id, LinkRole.SCORER, accounts.find_user("Rem")).token
        ids.update(match=match_id, link_id=spare.id, spare_link=spare.token)
        league = db.session.get(League, ids["league"])
        ada_user = accounts.find_user("Ada")
        league_link = leagues.new_link(league, ada_user)
        ids.update(league_link=league_link.token, league_link_id=league_link.id)
        ids["player"] = (
            db.session.execute(db.select(Player.id).where(Player.group_id == ids["group"]))
            .scalars()
            .first()
        )
        players = db.session.execute(
            db.select(Player.id).where(Player.group_id == ids["group"]).order_by(Player.id)
        ).scalars()
        first, second = list(players)[:2]
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
    clients = {
        "anonymous": app.test_client(),
        "outsider": sign_in(app.test_client(), "Out"),
        "member": sign_in(app.test_client(), "Mem"),
        "admin": admin_client,
    }
    for role in ("viewer", "scorer"):
        client = app.test_client()
        assert client.get(f"/s/{tokens[role]}").status_code == 302
        clients[role] = client
    removed = sign_in(app.test_client(), "Rem")
    for token in (own, tokens["scorer"]):  # opened as a member, before removal
        assert removed.get(f"/s/{token}").status_code == 302
    clients["removed"] = removed
    clients["ended"] = sign_in(app.test_client(), "Gone")
    entries = [{"players": [f"E{n}a", f"E{n}b"]} for n in range(1, 5)]
    body = {
        "name": "Cup",
        "variant": "classic",
        "rounds": 2,
        "entries": entries,
        "group": ids["group"],
    }
    event = admin_client.post("/api/v1/events", json=body).get_json()
    assert admin_client.post(f"/api/v1/events/{event['id']}/rounds").status_code == 201
    with app.app_context(), transaction():
        shown = event_links.new_link(event["id"], None).token
        spare_event = event_links.new_link(event["id"], None)
        tokens["event_viewer"] = shown
        ids.update(event=event["id"], entry_id=event["entries"][0]["id"])
        ids.update(event_link_id=spare_event.id, spare_event_link=spare_event.token)
    clients["event_viewer"] = app.test_client()
    assert clients["event_viewer"].get(f"/e/{shown}").status_code == 302
    with app.app_context(), transaction():
        ada = accounts.find_user("Ada")
        rem_id = accounts.find_user("Rem").id
        assert not isinstance(
            groups.remove_member(db.session.get(Group, ids["group"]), rem_id, ada), str
        )
        accounts.end_sign_ins(accounts.find_user("Gone"))
    return World(app, ids, clients, tokens)


def walk(api: bool) -> list:
    """The table's calls: those of the JSON API, or those of the pages."""
    return [
        pytest.param(endpoint, need, method, url, id=f"{method} {url}")
        for endpoint, calls in TABLE.items()
        for need, method, url in calls
        if url.startswith("/api/") == api
    ]


def test_every_rule_of_the_url_map_is_in_the_table(world):
    rules = {rule.endpoint for rule in world.app.url_map.iter_rules()}
    assert rules == set(TABLE)
    for rule in world.app.url_map.iter_rules():
        methods = rule.methods - {"HEAD", "OPTIONS"}
        assert methods == {m for _, m, _ in TABLE[rule.endpoint]}, rule.endpoint


def expected(need: object, who: str, api: bool = False) -> str:
    """ "served", "sign-in", "404" or "403" for a caller asking for what needs `need`."""
    who = LIKE.get(who, who)
    if need == PUBLIC:
        return "served"
    if need in EVENT_NEEDS:
        return expected_of_event(EVENT_NEEDS[need], who, api)
    if who == "event_viewer":  # an event's link opens nothing else
        if not api:
            return "sign-in"
        return "403" if need == USER else "404"
    signed_in = who in ("outsider", "member", "admin")
    if need in (USER, SITE_ADMIN, GROUP_MEMBER, GROUP_ADMIN):
        if not signed_in:
            return "sign-in"
        if need == USER:
            return "served"
        if need == SITE_ADMIN:
            return "403"  # Root runs the server, none of the callers does
        if who == "outsider":
            return "404"
        return "403" if need == GROUP_ADMIN and who == "member" else "served"
    level = LEVELS[who]
    if level >= need:
        return "served"
    if who == "anonymous":
        return "sign-in"
    if who == "outsider":
        return "404"
    return "403"


def expected_of_event(need: int, who: str, api: bool) -> str:
    """The same for an event of the group made by its admin: the event's viewer link reads
    the standings, a member of the group everything, its director (the admin) all."""
    level = {"event_viewer": VIEWER, "member": MEMBER, "admin": ADMIN}.get(who, 0)
    if level >= need:
        return "served"
    if who in ("anonymous", "viewer", "scorer"):
        # Match links opened in a browser are no account: sign in. As a bearer token, a
        # match's link opens its match only: this event is not found.
        return "404" if api and who != "anonymous" else "sign-in"
    if who == "outsider":
        return "404"
    return "403"


def outcome(response) -> str:
    status = response.status_code
    if status == 302 and "/login" in response.headers.get("Location", ""):
        return "sign-in"
    if status == 401:
        return "sign-in"
    body = response.get_data(as_text=True)
    refusals = ("There is no match", "no such group", "There is no league", "There is no player")
    refusals += ("There is no event",)
    if status == 404 and any(refusal in body for refusal in refusals):
        return "404"
    if status == 403:
        return "403"
    return "served"


@pytest.mark.parametrize("who", CALLERS)
@pytest.mark.parametrize(("endpoint", "need", "method", "url"), walk(api=False))
def test_pages_give_each_caller_exactly_its_rights(world, who, endpoint, need, method, url):
    client = world.clients[who]
    if endpoint == "sharing.open_link":  # opening a link grants it: keep the callers as they are
        client = world.app.test_client()
    with client.open(url.format(**world.ids), method=method, data={"name": ""}) as response:
        got = outcome(response)
        assert got == expected(need, who), (response.status_code, response.location)


API_CALLERS = ("anonymous", "outsider", "viewer", "scorer", "member", "admin", "removed", "revoked")
API_CALLERS += ("event_viewer",)


@pytest.mark.parametrize("who", API_CALLERS)
@pytest.mark.parametrize(("endpoint", "need", "method", "url"), walk(api=True))
def test_the_api_gives_each_bearer_exactly_its_rights(world, who, endpoint, need, method, url):
    client = world.app.test_client()  # no session: the token alone
    headers = {"Authorization": f"Bearer {world.tokens[who]}"} if who != "anonymous" else {}
    response = client.open(
        url.format(**world.ids), method=method, json={"bad": True}, headers=headers
    )
    assert response.is_json
    want = expected(need, who, api=True)
    if who in ("viewer", "scorer", "event_viewer") and need in (USER, GROUP_MEMBER):
        want = "403"  # a link's token opens what it was made for only: the rest is refused
    assert outcome(response) == want, (response.status_code, response.get_data(as_text=True))


def test_a_link_token_is_404_for_another_match(world):
    other = sign_in(world.app.test_client(), "Out")
    body = {"variant": "classic-2p", "sides": [{"players": ["X"]}, {"players": ["Y"]}]}
    elsewhere = other.post("/api/v1/matches", json=body).json["id"]
    for role in ("viewer", "scorer"):
        headers = {"Authorization": f"Bearer {world.tokens[role]}"}
        response = world.app.test_client().get(f"/api/v1/matches/{elsewhere}", headers=headers)
        assert response.status_code == 404


def test_unknown_and_other_groups_matches_look_the_same(world):
    client = sign_in(world.app.test_client(), "Out")
    mine = client.get(f"/matches/{world.ids['match']}")
    missing = client.get("/matches/424242")
    assert mine.status_code == missing.status_code == 404
    api_mine = client.get(f"/api/v1/matches/{world.ids['match']}")
    api_missing = client.get("/api/v1/matches/424242")
    assert (api_mine.status_code, api_missing.status_code) == (404, 404)
    assert api_mine.json["errors"][0]["message"].startswith("There is no match")
    assert api_missing.json["errors"][0]["message"].startswith("There is no match")


def test_the_walked_match_was_left_as_it_was(world):
    state = world.clients["admin"].get(f"/api/v1/matches/{world.ids['match']}").json
    assert len(state["hands"]) == 2
    assert state["status"] == "playing"
    with world.app.app_context():
        assert db.session.get(Group, world.ids["group"]).name == "Thursday"
        assert db.session.execute(db.select(db.func.count()).select_from(User)).scalar() == 6
        assert db.session.get(Invite, world.ids["invite_id"]).revoked_at is None
        assert db.session.get(League, world.ids["league"]).name == "Autumn"
        assert db.session.get(LeagueCredit, world.ids["credit"]) is not None
        assert db.session.get(LeagueLink, world.ids["league_link_id"]).revoked_at is None


def test_the_walked_event_was_left_as_it_was(world):
    state = world.clients["admin"].get(f"/api/v1/events/{world.ids['event']}").json
    assert state["round"] == 1
    assert state["penalties"] == []
    assert not any(entry["withdrawn"] for entry in state["entries"])
    with world.app.app_context():
        assert len(event_links.links_of(world.ids["event"])) == 2


def test_a_member_directs_the_event_they_made(world):
    member = world.clients["member"]
    entries = [{"players": [f"F{n}a", f"F{n}b"]} for n in range(1, 5)]
    body = {"name": "Mem's", "variant": "classic", "rounds": 1, "entries": entries}
    own = member.post("/api/v1/events", json={**body, "group": world.ids["group"]}).json["id"]
    assert member.post(f"/api/v1/events/{own}/rounds").status_code == 201
    admin = world.clients["admin"]  # any admin of the group directs it too
    penalty = {"entry": admin.get(f"/api/v1/events/{own}").json["entries"][0]["id"], "vp": 1}
    answer = admin.post(f"/api/v1/events/{own}/penalties", json={**penalty, "reason": "Noise"})
    assert answer.status_code == 201
    assert member.get(f"/events/{own}").status_code == 200


def test_an_event_link_shows_the_standings_and_nothing_else(world):
    token = world.tokens["event_viewer"]
    headers = {"Authorization": f"Bearer {token}"}
    client = world.app.test_client()
    event = world.ids["event"]
    state = client.get(f"/api/v1/events/{event}", headers=headers)
    assert state.status_code == 200
    match = state.json["rounds_played"][0]["tables"][0]["match"]
    assert client.get(f"/api/v1/matches/{match}", headers=headers).status_code == 404
    browser = world.clients["event_viewer"]
    assert browser.get(f"/events/{event}/standings").status_code == 200
    assert browser.get(f"/events/{event}").status_code == 403
    assert browser.get(f"/matches/{match}").status_code == 302  # to the sign-in page
