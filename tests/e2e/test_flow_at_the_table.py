"""At the table: a typical hand in a few taps on a form of about two screens, and pages
that read at a glance (totals on one line, markers on folded sections, no rule keys, a
clean printed score sheet)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from playwright.sync_api import Locator, Page, expect

from scorekeeper.rules import PRESETS
from scorekeeper.services.hands import evaluate

from .checks import check_page
from .conftest import PHONE
from .flows import api, api_hand, api_match, expect_totals, side_group

SCREEN = PHONE["height"]
FIGURES = Path("test-results")


class Taps:
    """Drives the page as a thumb does and counts it honestly: every pointer tap and
    every key that is not a digit (Next, Enter, Tab) is one tap; digits are counted apart."""

    def __init__(self, page: Page) -> None:
        self.page = page
        self.taps = 0
        self.digits = 0

    def tap(self, target: Locator) -> None:
        target.tap()
        self.taps += 1

    def key(self, name: str) -> None:
        self.page.keyboard.press(name)
        self.taps += 1

    def type(self, digits: str) -> None:
        assert digits.isdigit(), "only digits are typed without counting a tap"
        focused = self.page.locator(":focus")
        # The number pad opens at once: a numeric input, which Next leaves.
        expect(focused).to_have_attribute("inputmode", "numeric")
        expect(focused).to_have_attribute("enterkeyhint", "next")
        self.page.keyboard.type(digits)
        self.digits += len(digits)


def test_a_typical_classic_hand_takes_at_most_ten_taps(page: Page, live_server: str):
    """One side out with 2 natural + 1 mixed canasta, 3 red threes, 450 melded; the other
    1 red three, 120 melded, 85 in hand: from the scoreboard to the saved hand, each small
    count one tap."""
    match = api_match(live_server, "classic", [["Nadia", "Olga"], ["Piero", "Quim"]])
    page.goto(f"{live_server}/matches/{match}")
    thumb = Taps(page)
    thumb.tap(page.get_by_role("link", name="Record hand 1", exact=True))
    ours, theirs = side_group(page, "Nadia & Olga"), side_group(page, "Piero & Quim")
    thumb.tap(page.locator("fieldset#out label.choice", has_text="Nadia & Olga"))
    # The side that went out has its first count open already.
    expect(ours.get_by_role("spinbutton", name="Natural canastas", exact=True)).to_be_focused()
    thumb.tap(ours.get_by_role("button", name="Natural canastas: 2", exact=True))
    thumb.tap(ours.get_by_role("button", name="Mixed canastas: 1", exact=True))
    thumb.tap(ours.get_by_role("button", name="Red threes laid down: 3", exact=True))
    thumb.tap(ours.get_by_role("spinbutton", name="Points melded"))
    thumb.type("450")
    thumb.tap(theirs.get_by_role("button", name="Red threes laid down: 1", exact=True))
    thumb.tap(theirs.get_by_role("spinbutton", name="Points melded"))
    thumb.type("120")
    thumb.key("Enter")  # Next
    expect(theirs.get_by_role("spinbutton", name="Points left in hand")).to_be_focused()
    thumb.type("85")
    # The sticky bar sums it up before saving.
    expect(page.locator("#preview-summary")).to_have_text("Nadia & Olga +2,150 · Piero & Quim -65")
    thumb.key("Enter")  # Next on the last entry saves
    expect(page.get_by_role("status")).to_have_text("Hand 1 recorded.")
    assert thumb.taps <= 10, f"{thumb.taps} taps"
    assert thumb.digits == 8

    # What the rules give: 2 x 500 + 300 + 3 x 100 + 450 + 100 for going out = 2150;
    # a red three of a side without a canasta counts minus: -100 + 120 - 85 = -65.
    records = [
        {
            "went_out": True,
            "canastas": {"natural": 2, "mixed": 1},
            "red_threes": 3,
            "meld_points": 450,
        },
        {"red_threes": 1, "meld_points": 120, "hand_points": 85},
    ]
    names = ["Nadia & Olga", "Piero & Quim"]
    engine = [side.total for side in evaluate(PRESETS["classic"], records, 2, names).scores]
    assert engine == [2150, -65]
    expect_totals(page, *engine)
    saved = api(live_server, "GET", f"/api/v1/matches/{match}")
    assert len(saved["hands"]) == 1
    assert [side["total"] for side in saved["sides"]] == engine


def form_height(page: Page, base: str, variant: str, sides: list[list[str]]) -> float:
    """The form's height (who went out to the save button), and the whole page's."""
    match = api_match(base, variant, sides)
    page.goto(f"{base}/matches/{match}/hands/new")
    expect(page.locator(".counts").first).to_be_visible()  # the script has run
    whole = page.evaluate("document.documentElement.scrollHeight")
    return page.locator("#hand-form").bounding_box()["height"], whole


def test_the_hand_form_fits_in_two_screens(page: Page, live_server: str):
    """At 390x844 the form of every two-sided game is measured; Classic 4p must fit in
    two screens. The figures go to test-results/form-heights.txt for the README."""
    assert page.viewport_size == PHONE
    heights = {}
    for key, rules in PRESETS.items():
        layout = next((lay for lay in rules.layouts if lay.sides == 2), None)
        if layout is None:
            continue
        players = [[f"P{s}{p}" for p in range(layout.players_per_side)] for s in range(2)]
        heights[key] = form_height(page, live_server, key, players)
    FIGURES.mkdir(exist_ok=True)
    lines = [
        f"{key}: form {round(form)} px ({form / SCREEN:.2f} screens), page {whole} px"
        for key, (form, whole) in heights.items()
    ]
    (FIGURES / "form-heights.txt").write_text("\n".join(lines) + "\n")
    assert heights["classic"][0] <= 2 * SCREEN, lines
    too_tall = [
        line for line, (form, _) in zip(lines, heights.values(), strict=True) if form > 2 * SCREEN
    ]
    assert too_tall == [], "about two screens for every game with two sides"


def test_rarer_entries_are_one_tap_away_and_kept(page: Page, live_server: str):
    match = api_match(live_server, "brazilian", [["Ada", "Bea"], ["Cy", "Di"]])
    page.goto(f"{live_server}/matches/{match}/hands/new")
    ours = side_group(page, "Ada & Bea")
    melded = ours.get_by_role("spinbutton", name="Points melded")
    melded.fill("450")
    black = ours.get_by_role("spinbutton", name="Black threes left in hand")
    expect(black).to_be_hidden()
    ours.locator("summary", has_text="Penalties").tap()  # one tap
    expect(black).to_be_visible()
    black.fill("1")
    # Counting cards is one tap away too, and going back keeps the points typed.
    blocks = ours.get_by_role("group", name="Melded cards", exact=True)
    blocks.locator("label.choice", has_text="Count cards").tap()
    expect(melded).to_be_hidden()
    blocks.locator("label.choice", has_text="Points").tap()
    expect(melded).to_have_value("450")
    expect(black).to_have_value("1")
    # Sent with a problem, the page comes back with the penalties open and kept.
    page.get_by_role("button", name="Save hand 1").tap()
    expect(page.get_by_role("alert")).to_be_visible()  # every problem listed at the top
    ours = side_group(page, "Ada & Bea")
    expect(ours.get_by_role("spinbutton", name="Black threes left in hand")).to_be_visible()
    expect(ours.get_by_role("spinbutton", name="Black threes left in hand")).to_have_value("1")
    expect(ours.get_by_role("spinbutton", name="Points melded")).to_have_value("450")


def test_the_extra_hand_box_follows_who_went_out(page: Page, live_server: str):
    """Buraco: going out needs the morto, so it is ticked for the side that went out."""
    match = api_match(live_server, "buraco", [["Ann"], ["Bob"]])
    page.goto(f"{live_server}/matches/{match}/hands/new")
    ann, bob = side_group(page, "Ann"), side_group(page, "Bob")
    ann_box = ann.get_by_role("checkbox", name="Took the extra hand (morto)")
    bob_box = bob.get_by_role("checkbox", name="Took the extra hand (morto)")
    page.locator("fieldset#out label.choice", has_text=re.compile("^Ann$")).tap()
    expect(ann_box).to_be_checked()
    expect(bob_box).not_to_be_checked()
    page.locator("fieldset#out label.choice", has_text=re.compile("^Bob$")).tap()
    expect(ann_box).not_to_be_checked()
    expect(bob_box).to_be_checked()
    # A box the scorer ticked stays ticked.
    ann.locator("label.choice", has_text="Took the extra hand").tap()
    page.locator("fieldset#out label.choice", has_text="Nobody").tap()
    expect(ann_box).to_be_checked()
    expect(bob_box).not_to_be_checked()


def test_counting_cards_sticks_from_hand_to_hand(page: Page, live_server: str):
    """A table that counts cards does not switch over again every hand."""
    match = api_match(live_server, "classic-2p", [["Ivo"], ["Jan"]])
    api_hand(
        live_server,
        match,
        {"meld_cards": {"joker": 1, "high": 5}},
        {"meld_points": 100, "hand_cards": {"low": 2}},
    )
    page.goto(f"{live_server}/matches/{match}/hands/new")
    ivo = side_group(page, "Ivo").get_by_role("group", name="Melded cards", exact=True)
    expect(ivo.get_by_role("radio", name="Count cards")).to_be_checked()
    expect(ivo.get_by_role("spinbutton", name="Jokers (jokers, 50)")).to_have_value("")
    jan = side_group(page, "Jan")
    expect(
        jan.get_by_role("group", name="Melded cards", exact=True).get_by_role(
            "radio", name="Points"
        )
    ).to_be_checked()
    expect(
        jan.get_by_role("group", name="Cards in hand", exact=True).get_by_role(
            "radio", name="Count cards"
        )
    ).to_be_checked()


# --- clear at a glance --------------------------------------------------------------------


BIG = {"went_out": True, "canastas": {"bolivia": 2, "samba": 2}, "meld_points": 1000}


@pytest.fixture
def bolivia_match(live_server: str) -> int:
    """Bolivia at 10,000 and more, one side with a name that wraps on a phone."""
    match = api_match(
        live_server, "bolivia", [["Bartholomew", "Maximiliana"], ["Ann", "Bo"]], first_dealer=1
    )
    small = {"canastas": {"natural": 1}, "meld_points": 300, "hand_points": 50}
    api_hand(live_server, match, BIG, small)  # 9200 and 750
    api_hand(live_server, match, {"canastas": {"natural": 2}, "meld_points": 600}, small)
    return match


def test_five_digit_totals_stay_on_one_line_and_level(
    page: Page, live_server: str, bolivia_match: int
):
    page.set_viewport_size({"width": 360, "height": 780})
    page.goto(f"{live_server}/matches/{bolivia_match}")
    expect_totals(page, 10800, 1500)
    name_lines = page.evaluate(
        """() => [...document.querySelectorAll('.side-card h2')].map(name => {
            const range = document.createRange();
            range.selectNodeContents(name);
            return new Set([...range.getClientRects()].map(r => Math.round(r.bottom))).size;
        })"""
    )
    # The long name wraps, the short one does not ...
    assert name_lines[0] > 1
    assert name_lines[1] == 1
    lines = page.evaluate(
        """() => [...document.querySelectorAll('.side-card .total')].map(total => {
            const range = document.createRange();
            range.selectNodeContents(total.lastChild);
            const rects = [...range.getClientRects()];
            const card = total.closest('.side-card').getBoundingClientRect();
            return {lines: new Set(rects.map(r => Math.round(r.top))).size,
                    inside: rects.every(r => r.left >= card.left && r.right <= card.right - 3),
                    top: Math.round(total.getBoundingClientRect().top)};
        })"""
    )
    # ... yet every total is on one line, inside its card, and both sit level.
    assert [t["lines"] for t in lines] == [1, 1]
    assert all(t["inside"] for t in lines)
    assert lines[0]["top"] == lines[1]["top"]
    check_page(page)


def test_next_dealer_and_meld_minimums_stand_out(page: Page, live_server: str, bolivia_match: int):
    page.goto(f"{live_server}/matches/{bolivia_match}")
    total_size = page.evaluate(
        "parseFloat(getComputedStyle(document.querySelector('.total')).fontSize)"
    )
    for target in (page.locator(".dealer strong"), page.locator(".side-card .meld strong").first):
        expect(target).to_be_in_viewport()
        style = target.evaluate(
            "el => [parseFloat(getComputedStyle(el).fontSize), +getComputedStyle(el).fontWeight]"
        )
        assert style[0] >= 1.4 * 17, style
        assert style[0] >= 0.6 * total_size, style
        assert style[1] >= 700
    expect(page.locator(".dealer")).to_have_text("Hand 3: Bo deals.")
    # Buraco has no initial-meld minimum at all: said once, not on every card.
    buraco = api_match(live_server, "buraco", [["Ann"], ["Bob"]])
    page.goto(f"{live_server}/matches/{buraco}")
    expect(page.get_by_text("No minimum")).to_have_count(0)
    expect(page.get_by_text("No initial-meld minimum in Buraco.")).to_have_count(1)


def test_long_names_stay_inside_their_cards(page: Page, live_server: str):
    """Titles and labels break inside their card rather than spill across its border
    (check_page measures every title and label against its card)."""
    long = "Supercalifragilisticexpialidocious"
    match = api_match(live_server, "classic-2p", [[long], ["Bo"]])
    api_hand(live_server, match, {"meld_points": 120}, {"meld_points": 60, "hand_points": 15})
    page.set_viewport_size({"width": 360, "height": 780})
    for path in (
        "/",
        f"/matches/{match}",
        f"/matches/{match}/hands/new",
        f"/matches/{match}/hands/1",
    ):
        page.goto(live_server + path)
        expect(page.get_by_text(long).first).to_be_visible()
        check_page(page)


def marker(summary: Locator) -> dict:
    """The open/close marker drawn before a folded section's title: its size, stroke,
    turn, and the contrast of its colour with what is behind it (WCAG's ratio)."""
    return summary.evaluate(
        """el => {
            const s = getComputedStyle(el, '::before');
            const rgb = (c) => (c.match(/[\\d.]+/g) || []).map(Number);
            let back = el, bg = [0, 0, 0, 0];
            while (back && (bg.length < 3 || bg[3] === 0)) {
                bg = rgb(getComputedStyle(back).backgroundColor);
                if (bg.length === 3) bg.push(1);
                back = back.parentElement;
            }
            const lum = ([r, g, b]) => [r, g, b].map((v) => v / 255)
                .map((v) => (v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4))
                .reduce((sum, v, i) => sum + v * [0.2126, 0.7152, 0.0722][i], 0);
            const [a, b] = [lum(rgb(s.borderRightColor)), lum(bg)].sort((x, y) => y - x);
            return {content: s.content, size: parseFloat(s.width),
                    stroke: parseFloat(s.borderRightWidth), transform: s.transform,
                    contrast: (a + 0.05) / (b + 0.05)};
        }"""
    )


def test_folded_sections_show_an_open_close_marker(page: Page, live_server: str):
    match = api_match(live_server, "classic", [["Gil", "Hana"], ["Ike", "Jo"]])
    api_hand(live_server, match, {"meld_points": 120}, {"meld_points": 60, "hand_points": 15})
    folded = [
        (f"{live_server}/matches/new/classic", "House rules (optional)"),
        (f"{live_server}/matches/{match}/hands/new", "Penalties"),
        (f"{live_server}/matches/{match}/hands/1", "As entered"),
    ]
    for scheme in ("light", "dark"):
        page.emulate_media(color_scheme=scheme)
        for url, title in folded:
            page.goto(url)
            summary = page.locator("summary", has_text=title).first
            closed = marker(summary)
            assert closed["content"] != "none", title
            assert closed["size"] >= 8, (title, closed)
            assert closed["stroke"] >= 2, (title, closed)
            assert closed["contrast"] >= 4.5, (title, scheme, closed)
            summary.tap()
            expect(summary.locator("xpath=..")).to_have_attribute("open", "")
            summary.evaluate(  # the turn is a short transition: let it end
                "el => Promise.all(el.getAnimations({subtree: true}).map((a) => a.finished))"
            )
            opened = marker(summary)
            assert opened["stroke"] >= 2
            assert opened["transform"] != closed["transform"], f"{title}: it turns when open"


RULE_KEY = re.compile(r"\b[a-z]+(?:_[a-z]+)*[._:][a-z_]+\b")


def test_the_dispute_view_shows_players_words_only(page: Page, live_server: str):
    match = api_match(live_server, "samba-fournier", [["Kai", "Lu"], ["Mo", "Ned"]])
    api_hand(
        live_server,
        match,
        {"went_out": True, "canastas": {"samba": 1, "natural": 1}, "meld_points": 600},
        {
            "red_threes": 1,
            "meld_points": 150,
            "hand_points": 60,
            "penalties": [
                {"rule": "stock_out_of_turn", "count": 1},
                {"points": 25, "reason": "Talking"},
            ],
        },
    )
    page.goto(f"{live_server}/matches/{match}/hands/1")
    keys = page.locator("tr[data-rule]").evaluate_all("rows => rows.map(r => r.dataset.rule)")
    assert "meld_points" in keys
    assert any(key.startswith("canasta.") for key in keys)
    page.locator("summary", has_text="As entered").first.tap()
    shown = page.locator("main").inner_text()
    assert [key for key in keys if key in shown] == []
    assert RULE_KEY.findall(shown) == []


def test_scoreboard_and_dispute_view_print_as_a_score_sheet(page: Page, live_server: str):
    match = api_match(live_server, "classic", [["Pat", "Quin"], ["Rod", "Sue"]])
    for _ in range(12):
        api_hand(live_server, match, {"meld_points": 120}, {"meld_points": 60, "hand_points": 15})
    api(
        live_server,
        "PUT",
        f"/api/v1/matches/{match}/hands/1",
        {"sides": [{"meld_points": 125}, {"meld_points": 60, "hand_points": 15}]},
    )
    for url in (f"{live_server}/matches/{match}", f"{live_server}/matches/{match}/hands/1"):
        page.goto(url)
        page.emulate_media(media="print", color_scheme="dark")
        expect(page.get_by_role("navigation", name="Main")).to_be_hidden()
        expect(page.locator("header.bar")).to_be_hidden()
        expect(page.locator("a.button, button")).to_have_count(
            page.locator("a.button, button").count()
        )
        for button in page.locator("a.button, button").all():
            expect(button).to_be_hidden()
        colours = page.evaluate(
            """() => [getComputedStyle(document.body).backgroundColor,
                      getComputedStyle(document.body).color,
                      getComputedStyle(document.querySelector('h1')).color]"""
        )
        assert colours == ["rgb(255, 255, 255)", "rgb(0, 0, 0)", "rgb(0, 0, 0)"]
        if "/hands/" in url:  # the folded entries print too
            expect(page.locator("dl.entered").first).to_be_visible()
        page.emulate_media(media="screen", color_scheme="light")
    # The hand table prints whole: no scrolling box cuts it.
    page.goto(f"{live_server}/matches/{match}")
    page.emulate_media(media="print")
    wrap = page.locator(".table-wrap")
    assert wrap.evaluate("el => getComputedStyle(el).overflowX") == "visible"
    expect(page.locator("table.hands tbody tr")).to_have_count(12)
    expect(page.get_by_role("region", name="Changes")).to_be_visible()


def test_the_printed_winner_banner_is_black_on_white(page: Page, live_server: str):
    """Printers leave out backgrounds: the banner's white-on-colour text would print white
    on white. Printed, it is black text on white inside a black frame."""
    match = api_match(
        live_server, "classic", [["Pat", "Quin"], ["Rod", "Sue"]], options={"target": 300}
    )
    api_hand(live_server, match, {"meld_points": 400}, {"meld_points": 60})
    page.goto(f"{live_server}/matches/{match}")
    banner = page.locator(".banner.win")
    expect(banner).to_contain_text("Pat & Quin win")
    for scheme in ("light", "dark"):
        page.emulate_media(media="print", color_scheme=scheme)
        colours = banner.evaluate(
            """el => [getComputedStyle(el).backgroundColor, getComputedStyle(el).color,
                      getComputedStyle(el.querySelector('h2')).color,
                      getComputedStyle(el).borderTopColor]"""
        )
        assert colours[0] in ("rgb(255, 255, 255)", "rgba(0, 0, 0, 0)"), colours
        assert colours[1:] == ["rgb(0, 0, 0)"] * 3, colours
    page.emulate_media(media="screen", color_scheme="light")
