"""Accounts and the phones at the table, in real browsers at phone size.

On a server nobody has used: the first account is made on the phone; its owner invites a
partner through the invite link shown with a QR code; both play a match from their own
phones, the partner seeing each hand appear by itself; a third phone follows through a
viewer link, without an account, until the link is revoked.
"""

from __future__ import annotations

import re
from urllib.parse import urlsplit

from playwright.sync_api import Browser, Page, expect

from scorekeeper.lan import lan_address

from .checks import check_page
from .conftest import FreshServer, phone_context
from .flows import choose, expect_hand_rows, save, side_group

LIVE = 3_000  # a hand must show on the other phones within 3 seconds


def make_first_account(page: Page, base: FreshServer) -> None:
    page.goto(base + "/")
    expect(page).to_have_url(base + "/setup")
    expect(page.get_by_role("heading", name="Welcome to Scorekeeper")).to_be_visible()
    check_page(page)
    page.get_by_label("Your name").fill("Lucia")
    page.get_by_label("Password").fill("a long secret")
    page.get_by_role("button", name="Create the account").tap()
    # Without the code the server's terminal shows, no account: said at the field.
    code = page.get_by_label("Set-up code")
    expect(code).to_have_accessible_description(re.compile("Enter the set-up code"))
    expect(page.get_by_label("Your name")).to_have_value("Lucia")
    code.fill(base.setup_code)
    page.get_by_label("Password").fill("a long secret")
    page.get_by_role("button", name="Create the account").tap()
    expect(page.get_by_role("status")).to_contain_text("You run this server")
    expect(page.get_by_role("link", name="Lucia")).to_be_visible()


def invite_link(page: Page, base: str) -> str:
    page.get_by_role("link", name="Groups").click()
    page.get_by_role("link", name=re.compile("Lucia's games")).click()
    page.get_by_role("button", name="New invite link").tap()
    qr = page.locator("figure.qr")
    expect(qr.locator("svg")).to_be_visible()
    check_page(page)
    return opened_here(qr.get_by_role("link").inner_text(), base)


def opened_here(link: str, base: str) -> str:
    """A link the page gives phones, opened on this machine: the page names this machine
    by its address on the network (a phone cannot open 127.0.0.1), which the tests do not
    dial; the same path on the address they browse is the same page."""
    given = urlsplit(link)
    assert given.hostname == lan_address() or lan_address() == "127.0.0.1", link
    return base.rstrip("/") + given.path


def join_with_a_new_account(page: Page, link: str) -> None:
    page.goto(link)
    expect(page.get_by_role("heading", name=re.compile("You are invited"))).to_be_visible()
    page.get_by_role("link", name="Open an account").tap()
    page.get_by_label("Your name").fill("Marco")
    page.get_by_label("Password").fill("another long secret")
    page.get_by_role("button", name="Open the account").tap()
    expect(page.get_by_role("status")).to_have_text("Welcome, Marco.")


def start_a_match(page: Page, base: str) -> str:
    page.goto(base + "/matches/new/classic-2p")
    page.get_by_role("combobox", name="Player 1").fill("Lucia")
    page.get_by_role("combobox", name="Player 2").fill("Marco")
    page.get_by_role("button", name="Start the match").tap()
    expect(page.get_by_role("link", name="Record hand 1")).to_be_visible()
    return page.url


def record(page: Page, meld: str, held: str) -> None:
    page.get_by_role("link", name=re.compile(r"^Record hand")).click()
    choose(page, "Nobody: the stock ran out")
    for name, value in (("Lucia", meld), ("Marco", "40")):
        side_group(page, name).get_by_role("spinbutton", name="Points melded").fill(value)
        side_group(page, name).get_by_role("spinbutton", name="Points left in hand").fill(held)
    save(page, re.compile(r"^Save hand"))


def test_a_new_server_an_invited_partner_and_the_phones_at_the_table(
    browser: Browser, fresh_server: FreshServer
):
    base = fresh_server
    lucia_phone = phone_context(browser)
    marco_phone = phone_context(browser)
    table_phone = phone_context(browser)
    try:
        lucia, marco, table = (c.new_page() for c in (lucia_phone, marco_phone, table_phone))
        make_first_account(lucia, base)
        join_with_a_new_account(marco, invite_link(lucia, base))

        board = start_a_match(lucia, base)
        marco.goto(board)  # Marco is in Lucia's group now: he sees the match
        expect(marco.get_by_role("heading", name="Classic Canasta for two")).to_be_visible()

        record(lucia, "150", "10")
        expect_hand_rows(lucia, "1 +140 140 +30 30")
        expect(marco.locator("table.hands tbody tr")).to_have_text(
            ["1 +140 140 +30 30"], use_inner_text=True, timeout=LIVE
        )
        expect(marco.locator("#live-news")).to_contain_text("Scores updated")
        # And the other way round: Marco records, Lucia's phone follows.
        record(marco, "60", "10")
        expect(lucia.locator("table.hands tbody tr")).to_have_count(2, timeout=LIVE)

        # A viewer link for the table, shown with its QR code.
        lucia.get_by_role("link", name="Share").click()
        lucia.get_by_role("button", name="New viewer link").tap()
        link = lucia.locator("section.share-link figcaption a").first.inner_text()
        table.goto(opened_here(link, base))
        expect(table).to_have_url(board)
        expect(table.locator("table.hands tbody tr")).to_have_count(2)
        expect(table.get_by_role("link", name=re.compile("Record hand"))).to_have_count(0)
        check_page(table)

        lucia.goto(board)
        record(lucia, "30", "5")
        expect(table.locator("table.hands tbody tr")).to_have_count(3, timeout=LIVE)

        # Revoked: the table's phone stops following at once.
        lucia.get_by_role("link", name="Share").click()
        lucia.get_by_role("button", name=re.compile("^Revoke viewer link")).tap()
        expect(lucia.get_by_role("status")).to_have_text("The link stopped working.")
        expect(table.locator("#live-state")).to_contain_text("no longer live", timeout=LIVE)
        lucia.goto(board)
        record(lucia, "20", "5")
        marco.wait_for_timeout(LIVE)
        expect(table.locator("table.hands tbody tr")).to_have_count(3)
        table.reload()
        expect(table).to_have_url(re.compile(r"/login\?next="))
    finally:
        for context in (lucia_phone, marco_phone, table_phone):
            context.close()
