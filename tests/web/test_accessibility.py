"""Every control has a label, every page one heading, errors are tied to their inputs."""

from __future__ import annotations

import pytest

from scorekeeper.rules import PRESETS

from .helpers import (
    PLAYERS2,
    PLAYERS3,
    Node,
    create_match,
    page,
    record_hand,
    record_ok,
)

PLAYERS = {
    "classic-2p": PLAYERS2,
    "classic-3p": PLAYERS3,
    "buraco": PLAYERS2,
    "classic-6p": ("Ann", "Bob", "Cid", "Dee", "Eve", "Fay"),
}


def unlabelled(root: Node) -> list[str]:
    """Names of visible inputs, selects and textareas that no label names."""
    labelled_ids = {label.attrs.get("for") for label in root.find_all("label")}
    missing = []
    for node in root.iter():
        if node.tag not in ("input", "select", "textarea"):
            continue
        if node.attrs.get("type") in ("hidden", "submit", "button"):
            continue
        if node.attrs.get("aria-label") or node.attrs.get("aria-labelledby"):
            continue
        wrapped = False
        parent = node.parent
        while parent is not None:
            if parent.tag == "label":
                wrapped = True
                break
            parent = parent.parent
        if not wrapped and node.attrs.get("id") not in labelled_ids:
            missing.append(node.attrs.get("name") or node.attrs.get("id") or node.tag)
    return missing


def check_page(response) -> Node:
    assert response.status_code in (200, 422)
    root = page(response)
    assert root.find("html").attrs.get("lang") == "en"
    assert len(root.find_all("h1")) == 1
    assert unlabelled(root) == []
    ids = [node.attrs["id"] for node in root.iter() if "id" in node.attrs]
    assert len(ids) == len(set(ids)), "duplicate ids"
    return root


@pytest.mark.parametrize("key", list(PRESETS))
def test_new_match_and_record_pages(client, key):
    check_page(client.get(f"/matches/new/{key}"))
    for layout in PRESETS[key].layouts[1:]:
        check_page(client.get(f"/matches/new/{key}?layout={layout.key}"))
    match_id = create_match(client, key, PLAYERS.get(key, ("Ann", "Bob", "Cid", "Dee")))
    check_page(client.get(f"/matches/{match_id}"))
    check_page(client.get(f"/matches/{match_id}/hands/new"))
    check_page(client.get(f"/matches/{match_id}/rules"))


def test_other_pages(client):
    match_id = create_match(client, "classic")
    record_ok(client, match_id, "none", {"meld_points": 50}, {"meld_points": 20})
    for url in (
        "/",
        "/history",
        "/rules",
        "/rules/classic",
        "/matches/new",
        f"/matches/{match_id}",
        f"/matches/{match_id}/hands/1",
        f"/matches/{match_id}/hands/1/edit",
        f"/matches/{match_id}/hands/1/remove",
    ):
        check_page(client.get(url))


def test_error_page_is_accessible(client):
    response = client.get("/matches/999")
    assert response.status_code == 404
    root = page(response)
    assert len(root.find_all("h1")) == 1
    assert root.find("html").attrs.get("lang") == "en"


def test_errors_are_announced_and_tied_to_inputs(client):
    match_id = create_match(client, "classic")
    response = record_hand(client, match_id, "none", {"meld_points": 7}, {})
    root = check_page(response)
    node = root.find("input", name="s0_meld_points")
    error_id = node.attrs["aria-describedby"]
    assert root.find("p", id=error_id).attrs["class"] == "error"
    # A radio group's error is tied to each of its options.
    response = record_hand(client, match_id, 0, {"meld_points": 100}, {})
    root = check_page(response)
    for option in root.find_all("input", name="out"):
        assert option.attrs["aria-describedby"] == "out-error"
    assert root.find("p", id="out-error").text().startswith("Ann & Cid cannot have gone out")
