"""Next on the number pad walks every side's entries whichever side went out, and the
focused entry or problem is always in view, never under the sticky save bar."""

from __future__ import annotations

import re

from playwright.sync_api import Browser, Page, expect

from .checks import check_page
from .conftest import phone_context
from .flows import api, api_match, choose, side_group


def focused_id(page: Page) -> str:
    return page.evaluate("document.activeElement.id")


SENT = "document.addEventListener('submit', () => { window.name = 'sent'; }, true)"


def walk_with_next(page: Page, values: dict[str, str]) -> list[str]:
    """Press Next from the focused entry until it sends the form, typing `values` (by input
    id) on the way; returns the ids of the entries Next stopped at, in order."""
    page.add_init_script(SENT)
    page.evaluate(f"window.name = ''; {SENT}")
    stops = []
    for _ in range(40):
        current = focused_id(page)
        stops.append(current)
        expect_in_view_above_the_bar(page, current)
        if current in values:
            page.keyboard.type(values[current])
        page.keyboard.press("Enter")
        moved = page.wait_for_function(
            f"window.name === 'sent' ? 'sent' : document.activeElement.id !== {current!r}"
        )
        # Read from the handle, not the page: once sent, the page may be navigating away.
        if moved.json_value() == "sent":
            page.wait_for_load_state()
            return stops
    raise AssertionError(f"Next never sent the form: {stops}")


def expect_in_view_above_the_bar(page: Page, element_id: str) -> None:
    """The entry is on screen and not covered by the sticky total/Save bar."""
    box = page.locator(f"[id='{element_id}']").bounding_box()
    bar = page.locator(".submit-bar").bounding_box()
    assert box is not None
    assert bar is not None
    assert box["y"] >= 0, f"{element_id} is above the screen"
    assert box["y"] + box["height"] <= bar["y"] + 1, f"{element_id} is under the save bar"


def hands_on_the_server(base: str, match_id: int) -> list[list[int]]:
    state = api(base, "GET", f"/api/v1/matches/{match_id}")
    return [[side["total"] for side in hand["sides"]] for hand in state["hands"]]


def test_next_visits_the_side_that_did_not_go_out_before_saving(page: Page, live_server: str):
    """Classic, the second side went out: Next walks its entries, then the first side's,
    and only then saves; the first side left empty is named as such, never saved as 0
    without a question."""
    match = api_match(live_server, "classic", [["Ana", "Carla"], ["Bo", "Dan"]])
    page.goto(f"{live_server}/matches/{match}/hands/new")
    choose(page, "Bo & Dan")
    expect(page.locator("#s1_canasta_natural")).to_be_focused()
    stops = walk_with_next(page, {"s1_canasta_natural": "2", "s1_meld_points": "300"})
    ours = ["canasta_natural", "canasta_mixed", "red_threes", "meld_points", "hand_points"]
    assert stops == [f"s1_{name}" for name in ours] + [f"s0_{name}" for name in ours]
    # Ana & Carla's entries were left empty: the question says so, and nothing is saved yet.
    confirm = page.locator("#confirm")
    expect(confirm.get_by_role("listitem")).to_have_text(
        ["Nothing entered for Ana & Carla: fill in their cards, or save to record nothing for them"]
    )
    assert hands_on_the_server(live_server, match) == []
    # Their cards, typed now (Next from the first again), save the hand as it was played.
    page.locator("#s0_meld_points").fill("120")
    page.locator("#s0_hand_points").fill("35")
    page.locator("#s0_hand_points").press("Enter")
    expect(page.get_by_role("status")).to_have_text("Hand 1 recorded.")
    assert hands_on_the_server(live_server, match) == [[85, 1400]]


def test_next_stops_at_the_extra_hand_box(page: Page, live_server: str):
    """Buraco: the morto box is on the way, for both players, whoever went out."""
    match = api_match(live_server, "buraco", [["Ann"], ["Bob"]])
    page.goto(f"{live_server}/matches/{match}/hands/new")
    page.locator("fieldset#out label.choice", has_text=re.compile("^Bob$")).tap()
    stops = walk_with_next(page, {"s1_canasta_natural": "1", "s1_meld_points": "100"})
    assert "s1_took_extra_hand" in stops
    assert "s0_took_extra_hand" in stops
    assert stops.index("s1_took_extra_hand") < stops.index("s0_canasta_natural")
    assert stops[-1].startswith("s0_")


def test_nobody_went_out_opens_the_first_side(page: Page, live_server: str):
    match = api_match(live_server, "classic", [["Ana", "Carla"], ["Bo", "Dan"]])
    page.goto(f"{live_server}/matches/{match}/hands/new")
    choose(page, "Nobody: the stock ran out")
    expect(page.locator("#s0_canasta_natural")).to_be_focused()
    stops = walk_with_next(page, {"s0_meld_points": "150", "s1_meld_points": "90"})
    assert stops[0] == "s0_canasta_natural"
    assert stops[-1] == "s1_hand_points"


def test_a_refused_hand_shows_its_problems_at_once(page: Page, live_server: str):
    """The problem of the last side is far below: the list at the top has the focus, and
    its link brings the entry into view above the save bar, focused."""
    match = api_match(live_server, "classic", [["Ana", "Carla"], ["Bo", "Dan"]])
    page.goto(f"{live_server}/matches/{match}/hands/new")
    choose(page, "Nobody: the stock ran out")
    side_group(page, "Ana & Carla").get_by_label("Points melded").fill("150")
    side_group(page, "Bo & Dan").get_by_label("Points left in hand").fill("33")
    page.get_by_role("button", name="Save hand 1").tap()
    problems = page.get_by_role("alert")
    expect(problems).to_be_focused()
    expect(problems).to_be_in_viewport()
    link = problems.get_by_role("link", name=re.compile("^Bo & Dan: .* multiple of 5"))
    link.tap()
    expect(page.locator("#s1_hand_points")).to_be_focused()
    expect_in_view_above_the_bar(page, "s1_hand_points")
    check_page(page)


def test_without_javascript_the_problems_are_at_the_top_and_focused(
    tester_state, browser: Browser, live_server: str
):
    context = phone_context(browser, storage_state=tester_state, java_script_enabled=False)
    try:
        page = context.new_page()
        match = api_match(live_server, "classic", [["Ana", "Carla"], ["Bo", "Dan"]])
        page.goto(f"{live_server}/matches/{match}/hands/new")
        page.locator("label.choice", has_text="Nobody: the stock ran out").tap()
        page.locator("#s0_meld_points").fill("150")
        page.locator("#s1_hand_points").fill("33")
        page.get_by_role("button", name="Save hand 1").tap()
        problems = page.get_by_role("alert")
        expect(problems).to_be_focused()
        expect(problems).to_be_in_viewport()
        # The link leads to the entry, in view above the save bar.
        problems.get_by_role("link").tap()
        expect(page).to_have_url(re.compile("#s1_hand_points$"))
        expect_in_view_above_the_bar(page, "s1_hand_points")
        assert hands_on_the_server(live_server, match) == []
    finally:
        context.close()
