"""An address no route has (`/matches/abc`, a number no id can be) gets the app's own
page: its look, what is wrong, and the way home; under /api/ the same in JSON."""

from __future__ import annotations

import pytest

from .helpers import page

PATHS = [
    "/matches/abc",
    "/matches/1x",
    "/matches/-1",
    "/matches/9223372036854775808",
    "/matches/1/hands/abc",
    "/matches/1/hands/99999999999/edit",
    "/groups/abc",
    "/groups/1/players/%C2%B2",
    "/groups/99999999999/stats",
]


@pytest.mark.parametrize("path", PATHS)
@pytest.mark.parametrize("signed", [True, False])
def test_an_address_no_route_has_gets_the_apps_error_page(client, anonymous_client, path, signed):
    response = (client if signed else anonymous_client).get(path)
    assert response.status_code == 404
    assert response.mimetype == "text/html"
    root = page(response)
    assert root.find_all("header", class_="bar"), "the app's header and look"
    assert any(a.attrs.get("href") == "/" for a in root.find_all("a", class_="more"))
    text = response.get_data(as_text=True)
    assert "There is no page at" in text
    assert "whole numbers" in text


@pytest.mark.parametrize("path", ["/api/v1/matches/abc", "/api/v1/matches/99999999999/hands"])
def test_under_the_api_it_is_json(client, path):
    response = client.get(path)
    assert response.status_code in (404, 405)
    assert response.is_json
    assert "There is no page at" in response.json["errors"][0]["message"]
