"""A group's matches downloaded as CSV and JSON, and a JSON export imported, on a phone."""

from __future__ import annotations

import csv
import io
import json
import re

from playwright.sync_api import Page, expect

from scorekeeper.extensions import db
from scorekeeper.models import Match
from scorekeeper.services.storage import transaction

from .checks import check_page
from .flows import api_hand, api_match

OUT = {"went_out": True, "canastas": {"natural": 2}, "meld_points": 300}


def new_group(page: Page, base: str, name: str) -> int:
    page.goto(base + "/groups")
    page.get_by_label("Name").fill(name)
    page.get_by_role("button", name="Make the group").click()
    expect(page.get_by_role("heading", name=name, level=1)).to_be_visible()
    return int(re.search(r"/groups/(\d+)", page.url).group(1))


def test_downloading_both_exports_and_importing_one(page: Page, live_server, tmp_path):
    group_id = new_group(page, live_server, "Export club")
    match_id = api_match(
        live_server, "classic-2p", [["Xena"], ["Walt"]], group=group_id, options={"target": 200}
    )
    api_hand(live_server, match_id, OUT, {"hand_points": 30})
    page.goto(f"{live_server}/groups/{group_id}")
    expect(page.get_by_role("heading", name="Export and import")).to_be_visible()
    check_page(page)

    with page.expect_download() as csv_download:
        page.get_by_role("link", name="Download CSV").click()
    saved_csv = tmp_path / csv_download.value.suggested_filename
    csv_download.value.save_as(saved_csv)
    assert re.fullmatch(r"scorekeeper-export-club-\d{4}-\d{2}-\d{2}\.csv", saved_csv.name)
    rows = list(csv.DictReader(io.StringIO(saved_csv.read_text())))
    assert [(r["hand"], r["players"], r["hand_total"]) for r in rows] == [
        ("1", "Xena", "1400"),
        ("1", "Walt", "-30"),
    ]

    with page.expect_download() as json_download:
        page.get_by_role("link", name="Download JSON").click()
    saved_json = tmp_path / json_download.value.suggested_filename
    json_download.value.save_as(saved_json)
    assert saved_json.suffix == ".json"
    export = json.loads(saved_json.read_text())
    (match,) = export["groups"][0]["matches"]
    assert [side["players"] for side in match["sides"]] == [["Xena"], ["Walt"]]

    # The match is here already: importing the file skips it.
    page.get_by_role("link", name="Import matches").click()
    page.get_by_label("A Scorekeeper export (.json)").set_input_files(str(saved_json))
    page.get_by_role("button", name="Import").click()
    expect(page.get_by_role("status")).to_have_text(
        "0 matches imported; 1 already on this server, skipped (their players too): "
        "1 in this group."
    )
    # Deleted, it comes back from the file, exactly.
    with live_server.app.app_context(), transaction():
        db.session.delete(db.session.get(Match, match_id))
    page.get_by_role("link", name="Import matches").click()
    page.get_by_label("A Scorekeeper export (.json)").set_input_files(str(saved_json))
    page.get_by_role("button", name="Import").click()
    expect(page.get_by_role("status")).to_have_text("1 match imported.")
    with page.expect_download() as again:
        page.get_by_role("link", name="Download CSV").click()
    assert again.value.path().read_text() == saved_csv.read_text()


def test_a_file_that_is_not_an_export_is_refused_next_to_the_field(
    page: Page, live_server, tmp_path
):
    group_id = new_group(page, live_server, "Import club")
    wrong = tmp_path / "scores.json"
    wrong.write_text('{"format": "something else"}')
    page.goto(f"{live_server}/groups/{group_id}")
    page.get_by_role("link", name="Import matches").click()
    field = page.get_by_label("A Scorekeeper export (.json)")
    field.set_input_files(str(wrong))
    page.get_by_role("button", name="Import").click()
    expect(page.get_by_role("heading", name="Import matches")).to_be_visible()
    expect(page.get_by_label("A Scorekeeper export (.json)")).to_have_attribute(
        "aria-invalid", "true"
    )
    expect(page.locator(".field .error").first).to_have_text(re.compile("^Nothing was imported"))
    expect(page.get_by_text("format: is not a Scorekeeper export")).to_be_visible()
    check_page(page)
