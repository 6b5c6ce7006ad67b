"""What a scorer does in the browser, step by step, as reusable actions."""

from __future__ import annotations

import json
import re
import urllib.request
from collections.abc import Mapping, Sequence

from playwright.sync_api import Locator, Page, expect


def start_match(
    page: Page,
    base: str,
    game: str,
    players: Sequence[str],
    *,
    layout: str | None = None,
    first_dealer: str | None = None,
    options: Mapping[str, str] | None = None,
) -> str:
    """Create a match through the pages; returns the scoreboard URL."""
    page.goto(base + "/")
    page.get_by_role("link", name="New match").click()
    page.locator(".preset-name", has_text=re.compile(f"^{re.escape(game)}$")).click()
    if layout:
        page.get_by_role("link", name=layout).click()
    for index, name in enumerate(players):
        page.locator(f"#seat_{index}").fill(name)
    if first_dealer:
        page.locator("fieldset#first_dealer label.choice", has_text=first_dealer).click()
    if options:
        page.get_by_text("House rules (optional)").click()
        for label, value in options.items():
            page.get_by_label(label, exact=True).fill(value)
    page.get_by_role("button", name="Start the match").click()
    expect(page.get_by_role("link", name=re.compile(r"^Record hand \d+"))).to_be_visible()
    return page.url


def set_count(page: Page, field: str, count: int) -> None:
    """Set the count of input `field` as a thumb does: one tap on its segment from 1 to 4,
    typed when larger (or 0)."""
    input = page.locator(f"#{field}")
    if 1 <= count <= 4:
        input.locator("xpath=..").get_by_role("button", name=re.compile(f": {count}$")).tap()
    else:
        input.fill(str(count))


def record_hand(
    page: Page,
    out: str,
    sides: Sequence[Mapping[str, int | str | bool]],
    *,
    concealed: bool = False,
    save: bool = True,
) -> None:
    """Open the record form and enter a hand.

    `out` is a side's name or "Nobody". Per side, `canasta_natural: 2` style keys
    are set with one tap (typed beyond 4), `meld_points` / `hand_points` typed, `meld_high`
    style keys counted after switching to "Count cards", booleans ticked.
    """
    page.get_by_role("link", name=re.compile(r"^Record hand \d+")).click()
    label = "Nobody: the stock ran out" if out == "Nobody" else out
    page.locator("fieldset#out label.choice", has_text=re.compile(f"^{re.escape(label)}$")).click()
    if concealed:
        page.locator("label.choice", has_text="Went out concealed").click()
    for seat, values in enumerate(sides):
        enter_side(page, seat, values)
    if save:
        page.locator(".submit-bar button").click()
        answer_yes_if_asked(page)


def answer_yes_if_asked(page: Page) -> bool:
    """After a save: when the form asks "Is this right?" about an unlikely hand, say yes.

    Returns whether it asked. Either the scoreboard's message or the question appears.
    """
    asked = page.locator("#confirm")
    expect(asked.or_(page.locator(".flash[role=status]"))).to_be_visible()
    if not asked.is_visible():
        return False
    asked.get_by_role("button").tap()
    return True


def save(page: Page, button: str) -> bool:
    """Tap a save button as a scorer does, confirming an unlikely hand when asked."""
    page.get_by_role("button", name=button).tap()
    return answer_yes_if_asked(page)


def enter_side(page: Page, seat: int, values: Mapping[str, int | str | bool]) -> None:
    prefix = f"s{seat}_"
    for key, value in values.items():
        field = prefix + key
        if isinstance(value, bool):
            box = page.locator(f"#{field}")
            if box.is_checked() != value:
                page.locator(f"label[for={field}]").click()
        elif key in ("meld_points", "hand_points", "foot_points", "free_points", "free_reason"):
            if key.startswith("free_"):
                open_penalties(page, seat)
            page.locator(f"#{field}").fill(str(value))
        elif key.startswith(("meld_", "hand_")):
            group = "meld" if key.startswith("meld_") else "hand"
            switch_to_cards(page, seat, group)
            set_count(page, field, int(value))
        else:
            penalties = ("black_threes_in_hand", "short_sequences", "red_threes_in_hand")
            penalties += ("incomplete_aces", "incomplete_sevens", "incomplete_wild")
            penalties += ("players_with_3_aces", "players_with_3_sevens")
            if key.startswith("penalty_") or key in penalties:
                open_penalties(page, seat)
            set_count(page, field, int(value))


def switch_to_cards(page: Page, seat: int, group: str) -> None:
    choice = page.locator(f"label[for=s{seat}_{group}_mode-1]")
    if not page.locator(f"#s{seat}_{group}_mode-1").is_checked():
        choice.click()


def open_penalties(page: Page, seat: int) -> None:
    details = page.locator(f"fieldset.side[data-side='{seat}'] details").filter(
        has=page.locator("summary", has_text="Penalties")
    )
    if details.get_attribute("open") is None:
        details.locator("summary").click()


def totals(page: Page) -> list[int]:
    """The totals on the scoreboard, in seat order."""
    return [
        int(re.sub(r"[^\d-]", "", t)) for t in page.locator(".side-card .total").all_inner_texts()
    ]


def api(base: str, method: str, path: str, body: object = None) -> dict:
    """Call the JSON API of the live server (to set up a match quickly)."""
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(base + path, data=data, method=method)
    request.add_header("Content-Type", "application/json")
    request.add_header("Authorization", f"Bearer {getattr(base, 'token', '')}")
    with urllib.request.urlopen(request) as response:
        return json.loads(response.read())


# What the scorer sees, found the way a screen reader would name it.


def side_group(page: Page, name: str) -> Locator:
    """A side's part of the record form, by its legend ("Ann & Cid (2,150 before this hand)")."""
    return page.get_by_role("group", name=re.compile(rf"^{re.escape(name)} \(-?[\d,]+ before"))


def cards_group(side: Locator, title: str) -> Locator:
    """The "Melded cards" or "Cards in hand" block of a side, with its points/count switch."""
    return side.get_by_role("group", name=title, exact=True)


def tap_count(scope: Locator | Page, label: str, count: int) -> None:
    """Tap the segment `count` (1 to 4) beside a count (its label, e.g. "Natural canastas");
    tapping the chosen one again empties the count."""
    scope.get_by_role("button", name=f"{label}: {count}", exact=True).tap()


def choose(scope: Locator | Page, option: str) -> None:
    """Tap a radio button or a check box by its visible label (the label is what a thumb
    hits: some choices show only their label, as a button-like chip)."""
    scope.get_by_role("radio", name=option, exact=True).or_(
        scope.get_by_role("checkbox", name=option, exact=True)
    ).locator("xpath=ancestor::label[1]").tap()


def preview(page: Page) -> Locator:
    return page.locator("#preview")


def expect_totals(page: Page, *expected: int) -> None:
    """The totals on the scoreboard, in seat order, as the cards show them (in English,
    thousands grouped: "Total: 2,150")."""
    expect(page.locator(".side-card .total")).to_have_text([f"Total: {t:,}" for t in expected])


def side_card(page: Page, name: str) -> Locator:
    """A side's card on the scoreboard, by its heading."""
    return page.locator("article.side-card").filter(
        has=page.get_by_role("heading", name=name, exact=True)
    )


def expect_hand_rows(page: Page, *rows: str) -> None:
    """The hands table, one string per row: number, then per side "score running"."""
    expect(page.locator("table.hands tbody tr")).to_have_text(list(rows), use_inner_text=True)


def field_wrapper(control: Locator) -> Locator:
    """The `.field` wrapper of an input (or the fieldset of a radio group)."""
    return control.locator(
        "xpath=ancestor-or-self::*[contains(concat(' ', @class, ' '), ' field ')][1]"
    )


def api_match(base: str, variant: str, sides: list[list[str]], **extra: object) -> int:
    """Start a match through the API (players per side); returns its id."""
    body = {"variant": variant, "sides": [{"players": p} for p in sides], **extra}
    return api(base, "POST", "/api/v1/matches", body)["id"]


def api_hand(base: str, match_id: int, *sides: Mapping[str, object]) -> dict:
    return api(base, "POST", f"/api/v1/matches/{match_id}/hands", {"sides": list(sides)})
