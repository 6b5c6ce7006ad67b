"""Every event page with its CSS and JS stays within 14 KB over the wire (gzip) at 60
entries, the projector view included (see test_page_weight)."""

from __future__ import annotations

import re

import pytest

from scorekeeper.extensions import db
from scorekeeper.services import event_links
from scorekeeper.services.storage import transaction
from tests.support import app_on_new_database, signed_in

from .test_page_weight import BUDGET, GZIP, _post

pytestmark = pytest.mark.xdist_group("event-page-weight")  # the big event is built once
ENTRIES = 60


@pytest.fixture(scope="module")
def big_event(tmp_path_factory):
    """A 60-pair Danish event of 4 rounds: 2 played (3 deals a table), the third under way,
    a penalty, a withdrawal, a viewer link; long names, as a club's."""
    app = app_on_new_database(tmp_path_factory.mktemp("eventweight") / "weight.sqlite")
    client = signed_in(app)
    entries = [
        {"name": f"Pair number {n}", "players": [f"Annabelle Rossi-{n}", f"Bartholomew Verdi-{n}"]}
        for n in range(1, ENTRIES + 1)
    ]
    body = {"name": "Thursday club cup", "variant": "burraco", "rounds": 4, "entries": entries}
    state = _post(client, "/api/v1/events", body)
    event = state["id"]
    _post(client, f"/api/v1/events/{event}/penalties",
          {"entry": state["entries"][4]["id"], "vp": 2, "reason": "Late to the table"})  # fmt: skip
    for number in range(1, 4):
        state = _post(client, f"/api/v1/events/{event}/rounds", {})
        for index, table in enumerate(state["rounds_played"][-1]["tables"]):
            deals = 3 if number < 3 else index % 4  # round 3: tables at every stage
            for deal in range(deals):
                sides = [
                    {"meld_points": 150 + 35 * ((index + deal) % 9), "hand_points": 5 * (deal % 3),
                     "took_extra_hand": True},
                    {"meld_points": 120 + 45 * ((index * deal) % 7), "hand_points": 10,
                     "took_extra_hand": True},
                ]  # fmt: skip
                _post(client, f"/api/v1/matches/{table['match']}/hands", {"sides": sides})
        if number == 1:
            _post(
                client, f"/api/v1/events/{event}/entries/{state['entries'][7]['id']}/withdraw", {}
            )
    waiting = _post(client, "/api/v1/events", {**body, "name": "Next week"})["id"]
    with app.app_context():
        with transaction():
            event_links.new_link(event, None)
        db.engine.dispose()
    return client, event, waiting


def _pages(event: int, waiting: int) -> list[str]:
    return [
        f"/events/{waiting}",
        f"/events/{waiting}/entries",
        "/groups/1/events",
        "/groups/1/events/new",
        "/groups/1/events/new/classic",
        "/groups/1/events/new/hand-and-foot?players=3",
        f"/events/{event}",
        f"/events/{event}/tables",
        f"/events/{event}/rounds/3/cards",
        f"/events/{event}/rounds/3/tables/29",
        f"/events/{event}/standings",
        f"/events/{event}/standings/live",
        f"/events/{event}/projector",
        f"/events/{event}/projector/live",
        f"/events/{event}/entries/1",
        f"/events/{event}/share",
    ]


def test_every_event_page_with_its_css_and_js_fits_in_14_kb_at_60_entries(big_event):
    client, event, waiting = big_event
    heavy = []
    for url in _pages(event, waiting):
        response = client.get(url, headers=GZIP)
        assert response.status_code == 200, url
        assert response.headers.get("Content-Encoding") == "gzip", f"{url} is not compressed"
        total = len(response.data)
        if not url.endswith("/live") and not url.endswith("/tables"):
            html = client.get(url).get_data(as_text=True)
            total += sum(_wire_size(client, asset) for asset in _assets(html))
        if total > BUDGET:
            heavy.append(f"{url}: {total} bytes")
    assert heavy == [], "over 14 KB with CSS and JS:\n" + "\n".join(heavy)


def test_a_new_event_form_of_60_entries_fits_too(big_event):
    """The form with 52 rows typed and 8 more asked for: 60 rows, what was typed kept."""
    client = big_event[0]
    data = {"name": "", "rounds": "3", "deals_per_round": "3", "rows": "52", "more": "1"}
    for row in range(52):
        data[f"p{row}_0"], data[f"p{row}_1"] = f"Annabelle Rossi-{row}", f"Bartholomew Verdi-{row}"
    response = client.post("/groups/1/events/new/classic", data=data, headers=GZIP)
    assert response.status_code == 200
    html = client.post("/groups/1/events/new/classic", data=data).get_data(as_text=True)
    assert 'name="p51_1" value="Bartholomew Verdi-51"' in html
    assert 'name="p59_1"' in html
    total = len(response.data) + sum(_wire_size(client, asset) for asset in _assets(html))
    assert total <= BUDGET, f"{total} bytes"


def _wire_size(client, url: str) -> int:
    """An asset as sent: gzip, or as it is when too small for compression to pay."""
    response = client.get(url, headers=GZIP)
    assert response.status_code == 200, url
    if response.headers.get("Content-Encoding") != "gzip":
        assert len(response.data) < 500, f"{url} is not compressed"
    return len(response.data)


def _assets(html: str) -> list[str]:
    assets = re.findall(r'<link rel="stylesheet" href="([^"]+)"', html)
    assets += re.findall(r'<script src="([^"]+)"', html)
    assert 2 <= len(assets) <= 3, "app.css (events.css on most event pages) and app.js"
    return assets
