"""At the table in each language, on phones: sign in, start a match, record and correct a
hand, read the dispute view, axe on every page; a viewer whose phone is set to another
language follows the same match in their own. Labels come from the catalogues (the words
a player of that language reads), so a page left in English fails to find them."""

from __future__ import annotations

import re
from typing import Any

import pytest
from flask_babel import force_locale, gettext
from playwright.sync_api import Browser, Page, expect

from tests.support import PASSWORD, TESTER

from .checks import check_page
from .conftest import LiveServer, phone_context
from .flows import answer_yes_if_asked, expect_hand_rows
from .test_flow_accounts import LIVE, opened_here

BROWSER_LOCALE = {"pt_BR": "pt-BR", "es": "es-ES", "it": "it-IT"}
HTML_LANG = {"pt_BR": "pt-BR", "es": "es", "it": "it"}
VIEWER = {"pt_BR": "it", "es": "pt_BR", "it": "es"}  # the viewer's phone: another language


def said(base: LiveServer, locale: str, message: str, **params: Any) -> str:
    """`message` as the app's catalogue for `locale` says it."""
    with base.app.test_request_context(), force_locale(locale):
        return gettext(message, **params)


def phone(browser: Browser, locale: str) -> Page:
    context = phone_context(browser, locale=BROWSER_LOCALE[locale])
    page = context.new_page()
    page.set_default_timeout(10_000)
    return page


def fill_hand(page: Page, melds: tuple[int, int], held: tuple[int, int]) -> None:
    for seat in (0, 1):
        page.locator(f"#s{seat}_meld_points").fill(str(melds[seat]))
        page.locator(f"#s{seat}_hand_points").fill(str(held[seat]))


@pytest.mark.parametrize("locale", ["pt_BR", "es", "it"])
def test_a_match_in_each_language_and_a_viewer_in_another(
    browser: Browser, live_server: LiveServer, locale: str
):
    base = live_server
    other = VIEWER[locale]
    scorer = phone(browser, locale)
    viewer = phone(browser, other)
    errors: list[str] = []
    for page in (scorer, viewer):
        page.on("pageerror", lambda error: errors.append(str(error)))

    def t(message: str, **params: Any) -> str:
        return said(base, locale, message, **params)

    try:
        # Sign in, the form in the phone's language.
        scorer.goto(base + "/login")
        expect(scorer.locator("html")).to_have_attribute("lang", HTML_LANG[locale])
        check_page(scorer)
        scorer.get_by_label(t("Name"), exact=True).fill(TESTER)
        scorer.get_by_label(t("Password"), exact=True).fill(PASSWORD)
        scorer.get_by_role("button", name=t("Sign in")).click()
        expect(scorer.get_by_role("link", name=TESTER)).to_be_visible()

        # Start a match.
        scorer.get_by_role("link", name=t("New match")).first.click()
        expect(scorer).to_have_url(base + "/matches/new")
        check_page(scorer)
        scorer.goto(base + "/matches/new/classic-2p")
        scorer.locator("#seat_0").fill("Ann")
        scorer.locator("#seat_1").fill("Bob")
        check_page(scorer)
        scorer.get_by_role("button", name=t("Start the match")).click()
        record = scorer.get_by_role("link", name=t("Record hand %(number)s", number=1))
        expect(record).to_be_visible()
        board = scorer.url
        check_page(scorer)

        # Record a hand: the stock ran out, 150 - 10 and 40 - 10.
        record.click()
        scorer.locator("fieldset#out label.choice").filter(
            has_text=re.compile(f"^{re.escape(t('Nobody: the stock ran out'))}$")
        ).click()
        fill_hand(scorer, (150, 40), (10, 10))
        check_page(scorer)
        scorer.locator(".submit-bar button").click()
        answer_yes_if_asked(scorer)
        expect(scorer).to_have_url(board)
        expect_hand_rows(scorer, "1 +140 140 +30 30")
        check_page(scorer)

        # The dispute view, then correct the hand from it: the meld was 250.
        scorer.get_by_role(
            "link",
            name=t("Hand %(number)s, dealt by %(dealer)s: explanation", number=1, dealer="Ann"),
        ).click()
        expect(
            scorer.get_by_role("rowheader", name=t("Melded cards"), exact=True).first
        ).to_be_visible()
        check_page(scorer)
        scorer.get_by_role("link", name=t("Correct this hand")).click()
        expect(scorer.locator("#s0_meld_points")).to_have_value("150")
        scorer.locator("#s0_meld_points").fill("250")
        check_page(scorer)
        scorer.get_by_role("button", name=t("Save the correction")).click()
        answer_yes_if_asked(scorer)
        expect(scorer).to_have_url(board)
        expect_hand_rows(scorer, "1 +240 240 +30 30")
        check_page(scorer)
        scorer.goto(board + "/hands/1")
        expect(scorer.locator("main")).to_contain_text("+240")
        expect(
            scorer.get_by_role("rowheader", name=t("Melded cards"), exact=True).first
        ).to_be_visible()
        check_page(scorer)

        # A viewer link, opened on a phone set to another language.
        scorer.goto(board)
        scorer.get_by_role("link", name=t("Share")).click()
        expect(scorer).to_have_url(board + "/share")
        check_page(scorer)
        scorer.get_by_role("button", name=t("New viewer link")).click()
        link = scorer.locator("section.share-link figcaption a").first.inner_text()
        viewer.goto(opened_here(link, base))
        expect(viewer).to_have_url(board)
        expect(viewer.locator("html")).to_have_attribute("lang", HTML_LANG[other])
        expect_hand_rows(viewer, "1 +240 240 +30 30")
        check_page(viewer)

        # The scorer records hand 2; the viewer's board follows, and its explanation is
        # in the viewer's language.
        scorer.goto(board)
        scorer.get_by_role("link", name=t("Record hand %(number)s", number=2)).click()
        scorer.locator("fieldset#out label.choice").filter(
            has_text=re.compile(f"^{re.escape(t('Nobody: the stock ran out'))}$")
        ).click()
        fill_hand(scorer, (60, 90), (5, 10))
        scorer.locator(".submit-bar button").click()
        answer_yes_if_asked(scorer)
        expect(viewer.locator("table.hands tbody tr")).to_have_count(2, timeout=LIVE)
        expect_hand_rows(viewer, "1 +240 240 +30 30", "2 +55 295 +80 110")
        viewer.get_by_role(
            "link",
            name=said(
                base,
                other,
                "Hand %(number)s, dealt by %(dealer)s: explanation",
                number=2,
                dealer="Bob",
            ),
        ).click()
        expect(viewer.locator("html")).to_have_attribute("lang", HTML_LANG[other])
        expect(
            viewer.get_by_role(
                "rowheader", name=said(base, other, "Melded cards"), exact=True
            ).first
        ).to_be_visible()
        expect(viewer.locator("main")).to_contain_text("+55")
        check_page(viewer)
        # The scorer's phone stays in its own language.
        scorer.goto(board + "/hands/2")
        expect(scorer.locator("html")).to_have_attribute("lang", HTML_LANG[locale])
        expect(
            scorer.get_by_role("rowheader", name=t("Melded cards"), exact=True).first
        ).to_be_visible()
    finally:
        scorer.context.close()
        viewer.context.close()
    assert errors == [], f"JavaScript errors on the page: {errors}"
