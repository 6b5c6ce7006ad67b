"""The address in a share or invite QR code is one a phone can open: the public URL, else
this machine's address on the network in place of 127.0.0.1; a page that only knows a
loopback address says so."""

from __future__ import annotations

import re
import secrets

import pytest

from scorekeeper import create_app, lan
from scorekeeper.extensions import db
from tests.support import app_config, signed_in

from .helpers import PLAYERS2, create_match, csrf_token

WARNING = "a phone that scans them opens nothing"


def shown_links(client, path: str) -> list[str]:
    return re.findall(r'<figcaption><a href="([^"]+)"', client.get(path).text)


def make_links(client) -> tuple[str, str]:
    """A viewer link of a new match and an invite of the personal group: their pages."""
    match_id = create_match(client, "classic-2p", PLAYERS2)
    token = csrf_token(client.get("/account").text)
    share = f"/matches/{match_id}/share"
    assert client.post(share, data={"csrf_token": token, "role": "viewer"}).status_code == 303
    group = re.search(r'href="(/groups/\d+)"', client.get("/groups").text).group(1)
    assert client.post(f"{group}/invites", data={"csrf_token": token}).status_code == 303
    return share, group


@pytest.mark.parametrize("host", ["localhost", "127.0.0.1"])
def test_a_page_browsed_on_the_server_gives_its_network_address(client, monkeypatch, host):
    monkeypatch.setattr(lan, "lan_address", lambda: "192.168.1.20")
    client.environ_base["HTTP_HOST"] = host
    for page in make_links(client):
        links = shown_links(client, page)
        assert links
        assert all(link.startswith("http://192.168.1.20/") for link in links), links
        assert WARNING not in client.get(page).text
    api = client.get("/api/v1/matches/1/links").json
    assert api["links"][0]["url"].startswith("http://192.168.1.20/s/")


def test_only_a_loopback_address_known_is_said_on_the_page(client, monkeypatch):
    monkeypatch.setattr(lan, "lan_address", lambda: "127.0.0.1")
    for page in make_links(client):
        assert all(link.startswith("http://localhost/") for link in shown_links(client, page))
        assert WARNING in client.get(page).text


def test_the_public_url_is_what_links_are_made_with(tmp_path, monkeypatch):
    monkeypatch.setattr(lan, "lan_address", lambda: "192.168.1.20")
    public = "https://scores.example.org"
    app = create_app(
        app_config(
            f"sqlite:///{tmp_path / 'p.sqlite'}",
            SCOREKEEPER_PUBLIC_URL=public,
            SECRET_KEY=secrets.token_hex(32),  # an internet server needs a strong key
        )
    )
    with app.app_context():
        db.create_all()
    client = signed_in(app)
    try:
        for page in make_links(client):
            links = shown_links(client, page)
            assert links
            assert all(link.startswith(f"{public}/") for link in links), links
            assert WARNING not in client.get(page).text
    finally:
        with app.app_context():
            db.engine.dispose()
