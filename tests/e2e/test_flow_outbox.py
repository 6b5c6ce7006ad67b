"""A hand saved while the connection is gone waits in the phone's outbox (where service
workers run: HTTPS, localhost) and the phone tells the truth about it at every moment:
"waiting to be sent" while it waits, "recorded" once the server holds its one-time token,
sent within seconds of the connection coming back without a tap, and brought back to the
scorer with the server's question when it needs one. The connection is cut before the
request, after the server answered it, and during the replay; the server holds each hand
once."""

from __future__ import annotations

import re
from collections.abc import Iterator

import pytest
from playwright.sync_api import Browser, BrowserContext, Page, Route, expect

from .conftest import phone_context
from .flows import api, api_match, choose, expect_hand_rows, side_group

WAITING = re.compile(r"(^Hand 1 of match \d+ is |^1 hand )waiting to be sent")


@pytest.fixture
def phone(browser: Browser, tester_state: str) -> Iterator[BrowserContext]:
    context = phone_context(browser, storage_state=tester_state, service_workers="allow")
    yield context
    context.close()


@pytest.fixture
def scorer(phone: BrowserContext) -> Iterator[Page]:
    page = phone.new_page()
    page.set_default_timeout(10_000)
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    yield page
    assert errors == [], f"JavaScript errors on the page: {errors}"


def under_the_worker(page: Page, url: str) -> None:
    """Open `url` once the service worker is installed and controls the page."""
    page.goto(url)
    assert page.evaluate("navigator.serviceWorker.ready.then(() => true)")
    page.reload()
    page.wait_for_function("navigator.serviceWorker.controller !== null")


def fill_a_usual_hand(page: Page, ours: str, theirs: str) -> None:
    choose(page, "Nobody: the stock ran out")
    side_group(page, ours).get_by_role("spinbutton", name="Points melded").fill("150")
    side_group(page, ours).get_by_role("spinbutton", name="Points left in hand").fill("10")
    side_group(page, theirs).get_by_role("spinbutton", name="Points melded").fill("90")
    side_group(page, theirs).get_by_role("spinbutton", name="Points left in hand").fill("30")


def hands_on_the_server(base: str, match_id: int) -> list[list[int]]:
    state = api(base, "GET", f"/api/v1/matches/{match_id}")
    return [[side["total"] for side in hand["sides"]] for hand in state["hands"]]


def never_says_not_saved(page: Page) -> None:
    expect(page.locator("main")).not_to_contain_text("not saved")
    expect(page.locator("main")).not_to_contain_text("enter it once more")


class Connection:
    """The phone's connection to the server, cut at chosen moments: `lose_answers` posts of
    the hand form reach the server, whose answers are then lost on the way back (the phone
    sees a network error); with `then_down`, nothing gets through after that until `up()`.
    No `online` event tells the page when it is back: only its own retries find out."""

    def __init__(self, context: BrowserContext, lose_answers: int, then_down: bool = False):
        self.lose_answers = lose_answers
        self.then_down = then_down
        self.down = False
        self.posts: list[str] = []
        context.route("**/*", self.handle)

    def handle(self, route: Route) -> None:
        request = route.request
        if self.down:
            route.abort("internetdisconnected")
        elif request.method == "POST" and "/hands/new" in request.url:
            self.posts.append(request.url)
            if len(self.posts) <= self.lose_answers:
                route.fetch(max_redirects=0)  # the server records it ...
                self.down = self.then_down
                route.abort("connectionreset")  # ... and its answer never arrives
            else:
                route.continue_()
        else:
            route.continue_()

    def up(self) -> None:
        self.down = False


def test_cut_before_the_request_waits_then_goes_by_itself(
    scorer: Page, phone: BrowserContext, live_server: str
):
    match = api_match(live_server, "classic", [["Mia", "Ned"], ["Oda", "Pia"]])
    board = f"{live_server}/matches/{match}"
    under_the_worker(scorer, board)  # the scoreboard is kept for offline use
    scorer.get_by_role("link", name="Record hand 1").click()
    fill_a_usual_hand(scorer, "Mia & Ned", "Oda & Pia")

    phone.set_offline(True)
    scorer.get_by_role("button", name="Save hand 1").tap()
    expect(scorer).to_have_url(board)
    outbox = scorer.locator("#outbox")
    expect(outbox).to_have_text(WAITING)
    never_says_not_saved(scorer)
    assert hands_on_the_server(live_server, match) == []

    # Back online: sent within seconds, without a tap, and the scoreboard says so.
    phone.set_offline(False)
    expect(scorer.locator(".flash")).to_have_text("Hand 1 recorded.")
    expect_hand_rows(scorer, "1 +140 140 +60 60")
    expect(outbox).to_be_hidden()
    assert hands_on_the_server(live_server, match) == [[140, 60]]
    # Opening pages again sends nothing again: the hand was sent exactly once.
    scorer.reload()
    expect_hand_rows(scorer, "1 +140 140 +60 60")
    assert hands_on_the_server(live_server, match) == [[140, 60]]


def test_the_offline_page_says_the_hand_is_waiting_and_reloads_when_it_is_sent(
    scorer: Page, phone: BrowserContext, live_server: str
):
    """The form was opened straight away, so no scoreboard is kept: the offline page shows,
    and it tells that the hand is waiting, never that it was not saved."""
    match = api_match(live_server, "classic", [["Ada", "Bea"], ["Cal", "Dov"]])
    under_the_worker(scorer, f"{live_server}/matches/{match}/hands/new")
    fill_a_usual_hand(scorer, "Ada & Bea", "Cal & Dov")
    phone.set_offline(True)
    scorer.get_by_role("button", name="Save hand 1").tap()
    expect(scorer.get_by_role("heading", name="No connection")).to_be_visible()
    expect(scorer.locator("#outbox")).to_have_text(WAITING)
    never_says_not_saved(scorer)

    phone.set_offline(False)
    expect(scorer.locator(".flash")).to_have_text("Hand 1 recorded.")
    expect_hand_rows(scorer, "1 +140 140 +60 60")
    assert hands_on_the_server(live_server, match) == [[140, 60]]
    # The next hand's form starts empty: the saved hand's entries were let go.
    scorer.get_by_role("link", name="Record hand 2").click()
    expect(scorer.get_by_text("What you typed before is back.")).to_be_hidden()


def test_cut_after_the_server_answered_is_recorded_once(
    scorer: Page, phone: BrowserContext, live_server: str
):
    match = api_match(live_server, "classic", [["Eli", "Fay"], ["Gus", "Hal"]])
    under_the_worker(scorer, f"{live_server}/matches/{match}")
    scorer.get_by_role("link", name="Record hand 1").click()
    fill_a_usual_hand(scorer, "Eli & Fay", "Gus & Hal")
    connection = Connection(phone, lose_answers=1)
    scorer.get_by_role("button", name="Save hand 1").tap()
    # The phone could not know; it asked the server with the form's token and shows the
    # hand recorded once.
    expect(scorer.locator(".flash")).to_have_text(re.compile("^Hand 1 (was already )?recorded"))
    expect_hand_rows(scorer, "1 +140 140 +60 60")
    never_says_not_saved(scorer)
    expect(scorer.locator("#outbox")).to_be_hidden()
    assert len(connection.posts) == 2  # the lost answer, then the replay
    assert hands_on_the_server(live_server, match) == [[140, 60]]


def test_cut_after_the_server_answered_and_still_down_says_waiting_then_recorded(
    scorer: Page, phone: BrowserContext, live_server: str
):
    """The server got the hand and the connection stays down: the phone cannot know it was
    saved, so it says the hand waits (never that it was not saved); when the connection
    is back, its own retry finds the hand recorded, once."""
    match = api_match(live_server, "classic", [["Ina", "Joy"], ["Kit", "Lou"]])
    under_the_worker(scorer, f"{live_server}/matches/{match}/hands/new")
    fill_a_usual_hand(scorer, "Ina & Joy", "Kit & Lou")
    connection = Connection(phone, lose_answers=1, then_down=True)
    scorer.get_by_role("button", name="Save hand 1").tap()
    expect(scorer.get_by_role("heading", name="No connection")).to_be_visible()
    expect(scorer.locator("#outbox")).to_have_text(WAITING)
    never_says_not_saved(scorer)
    assert hands_on_the_server(live_server, match) == [[140, 60]]

    connection.up()
    expect(scorer.locator(".flash")).to_have_text(re.compile("^Hand 1 (was already )?recorded"))
    expect_hand_rows(scorer, "1 +140 140 +60 60")
    expect(scorer.locator("#outbox")).to_be_hidden()
    assert hands_on_the_server(live_server, match) == [[140, 60]]


def test_cut_during_the_replay_is_tried_again_and_recorded_once(
    scorer: Page, phone: BrowserContext, live_server: str
):
    match = api_match(live_server, "classic", [["Ida", "Jo"], ["Kai", "Lev"]])
    under_the_worker(scorer, f"{live_server}/matches/{match}")
    scorer.get_by_role("link", name="Record hand 1").click()
    fill_a_usual_hand(scorer, "Ida & Jo", "Kai & Lev")
    phone.set_offline(True)
    scorer.get_by_role("button", name="Save hand 1").tap()
    expect(scorer.locator("#outbox")).to_have_text(WAITING)
    # The first replay reaches the server, and its answer is lost.
    connection = Connection(phone, lose_answers=1)
    phone.set_offline(False)
    expect(scorer.locator(".flash")).to_have_text(re.compile("^Hand 1 (was already )?recorded"))
    expect_hand_rows(scorer, "1 +140 140 +60 60")
    expect(scorer.locator("#outbox")).to_be_hidden()
    assert len(connection.posts) >= 2
    assert hands_on_the_server(live_server, match) == [[140, 60]]


def test_a_queued_hand_that_ends_the_game_comes_back_with_the_question(
    scorer: Page, phone: BrowserContext, live_server: str
):
    match = api_match(live_server, "classic-2p", [["Ann"], ["Bob"]], options={"target": 500})
    under_the_worker(scorer, f"{live_server}/matches/{match}")
    scorer.get_by_role("link", name="Record hand 1").click()
    scorer.locator("fieldset#out label.choice", has_text=re.compile("^Ann$")).tap()
    ann, bob = side_group(scorer, "Ann"), side_group(scorer, "Bob")
    ann.get_by_role("button", name="Natural canastas: 2", exact=True).tap()
    ann.get_by_role("spinbutton", name="Points melded").fill("100")
    bob.get_by_role("spinbutton", name="Points melded").fill("40")
    bob.get_by_role("spinbutton", name="Points left in hand").fill("30")
    phone.set_offline(True)
    scorer.get_by_role("button", name="Save hand 1").tap()
    expect(scorer.locator("#outbox")).to_have_text(WAITING)

    # Sent by itself; the server asks before ending the game, and the phone says so.
    phone.set_offline(False)
    outbox = scorer.locator("#outbox")
    expect(outbox).to_contain_text(
        re.compile(r"Hand 1 of match \d+ is not saved: the server asks about it\.")
    )
    assert hands_on_the_server(live_server, match) == []
    outbox.get_by_role("link", name="Open hand 1").tap()
    question = scorer.locator("#confirm")
    expect(question).to_contain_text("This hand ends the game: Ann wins.")
    expect(side_group(scorer, "Bob").get_by_role("spinbutton", name="Points melded")).to_have_value(
        "40"
    )
    question.get_by_role("button", name="Yes, save hand 1").tap()
    expect(scorer.locator(".flash")).to_have_text("Hand 1 recorded.")
    expect(scorer.locator("#outbox")).to_be_hidden()
    assert len(hands_on_the_server(live_server, match)) == 1
    # Going back to the question and saying yes again records nothing more.
    scorer.go_back()
    if scorer.locator("#confirm").count():
        scorer.locator("#confirm").get_by_role("button").tap()
    assert len(hands_on_the_server(live_server, match)) == 1


def test_a_queued_hand_the_server_asks_about_comes_back_as_a_draft(
    scorer: Page, phone: BrowserContext, live_server: str
):
    """Sol & Tia hold nothing: the question comes back, with the entries, and the
    scorer's answer saves the hand once."""
    match = api_match(live_server, "classic", [["Quin", "Rae"], ["Sol", "Tia"]])
    under_the_worker(scorer, f"{live_server}/matches/{match}")
    scorer.get_by_role("link", name="Record hand 1").click()
    choose(scorer, "Nobody: the stock ran out")
    side_group(scorer, "Quin & Rae").get_by_role("spinbutton", name="Points melded").fill("150")
    phone.set_offline(True)
    scorer.get_by_role("button", name="Save hand 1").tap()
    expect(scorer.locator("#outbox")).to_have_text(WAITING)
    phone.set_offline(False)
    outbox = scorer.locator("#outbox")
    expect(outbox).to_contain_text("is not saved: the server asks about it.")
    outbox.get_by_role("link", name="Open hand 1").tap()
    expect(scorer.locator("#confirm")).to_contain_text("Nothing entered for Sol & Tia")
    melded = side_group(scorer, "Quin & Rae").get_by_role("spinbutton", name="Points melded")
    expect(melded).to_have_value("150")
    # Left without an answer, the hand stays on the phone as the form's draft.
    scorer.get_by_role("link", name="Back to the scoreboard").click()
    expect(scorer.locator("#outbox")).to_be_hidden()
    scorer.get_by_role("link", name="Record hand 1").click()
    expect(scorer.get_by_text("What you typed before is back.")).to_be_visible()
    expect(melded).to_have_value("150")
    scorer.get_by_role("button", name="Save hand 1").tap()
    scorer.locator("#confirm").get_by_role("button", name="Yes, save hand 1").tap()
    expect_hand_rows(scorer, "1 +150 150 0 0")
    assert hands_on_the_server(live_server, match) == [[150, 0]]
