"""Helpers for the page tests: a tiny HTML tree, form filling as a browser does, DB counts.

Everything goes through the real pages: a match is created by posting the new-match
form, a hand by posting the record-hand form, each with the values the GET page
rendered (hidden token, version, CSRF token, default radio choices) like a browser.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from html.parser import HTMLParser
from typing import Any

from flask import Flask
from flask.testing import FlaskClient
from sqlalchemy import func, select

from scorekeeper.extensions import db

VOID_TAGS = frozenset(
    {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "wbr"}
)
CSRF_RE = re.compile(r'<input[^>]*name="csrf_token"[^>]*value="([^"]+)"')
# The datalist, radio and checkbox inputs have no text of their own.
TEXT_INPUTS = frozenset({"text", "number", "hidden", "search", "email", "tel", ""})

PLAYERS4 = ("Ann", "Bob", "Cid", "Dee")
PLAYERS3 = ("Ann", "Bob", "Cid")
PLAYERS2 = ("Ann", "Bob")


# --- a small HTML tree -------------------------------------------------------------------


@dataclass
class Node:
    tag: str
    attrs: dict[str, str]
    parent: Node | None = None
    children: list[Node | str] = field(default_factory=list)

    @property
    def classes(self) -> list[str]:
        return self.attrs.get("class", "").split()

    def iter(self) -> Iterator[Node]:
        for child in self.children:
            if isinstance(child, Node):
                yield child
                yield from child.iter()

    def find_all(
        self, tag: str | None = None, class_: str | None = None, **attrs: str
    ) -> list[Node]:
        out = []
        for node in self.iter():
            if tag is not None and node.tag != tag:
                continue
            if class_ is not None and class_ not in node.classes:
                continue
            if any(node.attrs.get(k.rstrip("_").replace("_", "-")) != v for k, v in attrs.items()):
                continue
            out.append(node)
        return out

    def kids(self, tag: str) -> list[Node]:
        """Direct children with this tag."""
        return [c for c in self.children if isinstance(c, Node) and c.tag == tag]

    def find(self, tag: str | None = None, class_: str | None = None, **attrs: str) -> Node:
        found = self.find_all(tag, class_, **attrs)
        assert found, f"no <{tag or '*'} class={class_} {attrs}> in the page"
        return found[0]

    def text(self) -> str:
        parts: list[str] = []

        def walk(node: Node) -> None:
            for child in node.children:
                if isinstance(child, str):
                    parts.append(child)
                else:
                    walk(child)

        walk(self)
        return " ".join(" ".join(parts).split())

    def ancestor(self, class_: str) -> Node:
        node = self.parent
        while node is not None and class_ not in node.classes:
            node = node.parent
        assert node is not None, f"<{self.tag} {self.attrs}> has no ancestor of class {class_}"
        return node


class _TreeBuilder(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.root = Node("#root", {})
        self.current = self.root

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        node = Node(tag, {k: v if v is not None else "" for k, v in attrs}, self.current)
        self.current.children.append(node)
        if tag not in VOID_TAGS:
            self.current = node

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        node = Node(tag, {k: v if v is not None else "" for k, v in attrs}, self.current)
        self.current.children.append(node)

    def handle_endtag(self, tag: str) -> None:
        node: Node | None = self.current
        while node is not None and node.tag != tag:
            node = node.parent
        if node is not None and node.parent is not None:
            self.current = node.parent

    def handle_data(self, data: str) -> None:
        self.current.children.append(data)


def parse(html: str | bytes) -> Node:
    builder = _TreeBuilder()
    builder.feed(html.decode() if isinstance(html, bytes) else html)
    builder.close()
    return builder.root


def page(response: Any) -> Node:
    return parse(response.get_data(as_text=True))


def text_of(response: Any) -> str:
    """The visible text of a page's <main>, whitespace collapsed."""
    return page(response).find("main").text()


# --- reading forms as a browser would ----------------------------------------------------


def csrf_token(html: str) -> str:
    found = CSRF_RE.search(html)
    assert found, "no csrf_token in the page"
    return found.group(1)


def form_values(root: Node, form_index: int = 0) -> dict[str, str]:
    """What a browser submits for a form left as rendered."""
    form = root.find_all("form", method="post")[form_index]
    data: dict[str, str] = {}
    for node in form.iter():
        name = node.attrs.get("name")
        if not name or "disabled" in node.attrs:
            continue
        if node.tag == "input":
            kind = node.attrs.get("type", "")
            if kind in ("radio", "checkbox"):
                if "checked" in node.attrs:
                    data[name] = node.attrs.get("value", "on")
            elif kind in TEXT_INPUTS:
                data[name] = node.attrs.get("value", "")
        elif node.tag == "select":
            options = node.find_all("option")
            chosen = [o for o in options if "selected" in o.attrs] or options[:1]
            if chosen:
                data[name] = chosen[0].attrs.get("value", chosen[0].text())
        elif node.tag == "textarea":
            data[name] = node.text()
    return data


def field_wrapper(root: Node, name: str) -> Node:
    """The element holding an input's label, input and errors (class "field")."""
    inputs = root.find_all(name=name)
    assert inputs, f"no input named {name!r} in the page"
    return inputs[0].ancestor("field")


def field_errors(response_or_root: Any, name: str) -> list[str]:
    root = response_or_root if isinstance(response_or_root, Node) else page(response_or_root)
    wrapper = field_wrapper(root, name)
    return [p.text() for p in wrapper.find_all("p", class_="error")]


def all_field_errors(response: Any) -> dict[str, list[str]]:
    """Errors by input name, for every field wrapper that has some."""
    root = page(response)
    out: dict[str, list[str]] = {}
    for wrapper in root.find_all(class_="field"):
        errors = [p.text() for p in wrapper.find_all("p", class_="error")]
        if errors:
            named = [n for n in wrapper.find_all() if n.attrs.get("name")]
            out[named[0].attrs["name"]] = errors
    return out


def top_errors(response: Any) -> list[str]:
    root = page(response)
    alerts = root.find_all(id="form-errors")
    items = alerts[0].find_all("li") if alerts else []
    return [li.text() for li in items if "at-field" not in li.classes]  # not an input's


def input_value(response_or_root: Any, name: str) -> str | None:
    """The value an input shows (the checked one for radios; "on"/None for checkboxes)."""
    root = response_or_root if isinstance(response_or_root, Node) else page(response_or_root)
    for node in root.find_all(name=name):
        kind = node.attrs.get("type", "")
        if node.tag == "select":
            chosen = [o for o in node.find_all("option") if "selected" in o.attrs]
            return chosen[0].attrs.get("value") if chosen else None
        if kind in ("radio", "checkbox"):
            if "checked" in node.attrs:
                return node.attrs.get("value", "on")
            continue
        return node.attrs.get("value", "")
    return None


def flashes(response: Any) -> list[str]:
    root = page(response)
    return [p.text() for box in root.find_all(class_="flash") for p in box.find_all("p")]


# --- the flows of a user -----------------------------------------------------------------


def create_match(
    client: FlaskClient,
    variant: str,
    players: tuple[str, ...] | list[str] = PLAYERS4,
    *,
    layout: str | None = None,
    first_dealer: int = 0,
    team_names: tuple[str, ...] = (),
    options: Mapping[str, Any] | None = None,
) -> int:
    """Start a match through the new-match form; players in seat order (clockwise)."""
    response = submit_new_match(
        client,
        variant,
        players,
        layout=layout,
        first_dealer=first_dealer,
        team_names=team_names,
        options=options,
    )
    assert response.status_code == 303, all_field_errors(response) or top_errors(response)
    found = re.fullmatch(r"/matches/(\d+)", response.headers["Location"])
    assert found, response.headers["Location"]
    return int(found.group(1))


def submit_new_match(
    client: FlaskClient,
    variant: str,
    players: tuple[str, ...] | list[str] = PLAYERS4,
    *,
    layout: str | None = None,
    first_dealer: int | str = 0,
    team_names: tuple[str, ...] = (),
    options: Mapping[str, Any] | None = None,
    extra: Mapping[str, Any] | None = None,
):
    url = f"/matches/new/{variant}" + (f"?layout={layout}" if layout else "")
    form_page = client.get(url)
    assert form_page.status_code == 200
    data: dict[str, Any] = form_values(page(form_page))
    for index, name in enumerate(players):
        data[f"seat_{index}"] = name
    for index, name in enumerate(team_names):
        data[f"side_name_{index}"] = name
    data["first_dealer"] = str(first_dealer)
    for name, value in (options or {}).items():
        data[f"opt_{name}"] = str(value)
    data.update(extra or {})
    action = page(form_page).find("form", method="post").attrs["action"]
    return client.post(action, data=data)


def hand_data(
    client: FlaskClient, match_id: int, out: int | str, *sides: Mapping[str, Any], **top: Any
) -> dict[str, Any]:
    """The record form as rendered, filled in: `sides` map field suffixes (without the
    "s0_" prefix) to values; `out` is a seat index or "none"."""
    form_page = client.get(f"/matches/{match_id}/hands/new")
    assert form_page.status_code == 200, form_page.status_code
    return fill(page(form_page), out, *sides, **top)


def fill(root: Node, out: int | str, *sides: Mapping[str, Any], **top: Any) -> dict[str, Any]:
    data: dict[str, Any] = form_values(root)
    data["out"] = str(out)
    for seat, values in enumerate(sides):
        for suffix, value in values.items():
            key = f"s{seat}_{suffix}"
            if value is True:
                data[key] = "y"
            elif value is False or value is None:
                data.pop(key, None)
            else:
                data[key] = str(value)
    for key, value in top.items():
        if value is True:
            data[key] = "y"
        elif value is False or value is None:
            data.pop(key, None)
        else:
            data[key] = str(value)
    return data


def record_hand(
    client: FlaskClient, match_id: int, out: int | str, *sides: Mapping[str, Any], **top: Any
):
    """Post the record-hand form; returns the response (303 on success)."""
    data = hand_data(client, match_id, out, *sides, **top)
    return client.post(f"/matches/{match_id}/hands/new", data=data)


def classic_hands(client: FlaskClient, count: int = 2, **kwargs: Any) -> int:
    """A Classic match (Ann & Cid against Bob & Dee, Ann deals first) with `count` hands.

    Hand 1, Ann & Cid go out: natural 500 + mixed 300 + melded 500 + going out 100
    + one red three 100 = 1500. Bob & Dee: melded 50 - in hand 120 = -70.
    Hand 2, the stock ran out: Ann & Cid 100 - 20 = 80; Bob & Dee natural 500
    + melded 300 + two red threes 200 = 1000.
    """
    match_id = create_match(client, "classic", **kwargs)
    hands = [
        (
            0,
            {"canasta_natural": 1, "canasta_mixed": 1, "meld_points": 500, "red_threes": 1},
            {"meld_points": 50, "hand_points": 120},
        ),
        (
            "none",
            {"meld_points": 100, "hand_points": 20},
            {"canasta_natural": 1, "meld_points": 300, "red_threes": 2},
        ),
    ]
    for out, first, second in hands[:count]:
        record_ok(client, match_id, out, first, second)
    return match_id


def confirmation(response: Any) -> list[str]:
    """The questions of the "Is this right?" box, when the form asks before saving."""
    root = page(response)
    boxes = root.find_all(id="confirm") if response.status_code == 200 else []
    return [li.text() for li in boxes[0].find_all("li")] if boxes else []


def confirm(client: FlaskClient, response: Any) -> Any:
    """Tap "Yes, save" on a form that asks before saving an unlikely hand."""
    data = form_values(page(response))
    action = page(response).find("form", method="post").attrs.get("action") or ""
    return client.post(action or response.request.path, data=data)


def record_ok(
    client: FlaskClient, match_id: int, out: int | str, *sides: Mapping[str, Any], **top: Any
) -> None:
    """Record a hand as a scorer does, confirming it when the form asks."""
    response = record_hand(client, match_id, out, *sides, **top)
    if confirmation(response):
        response = confirm(client, response)
    assert response.status_code == 303, (all_field_errors(response), top_errors(response))
    assert response.headers["Location"] == f"/matches/{match_id}"


def edit_data(
    client: FlaskClient, match_id: int, number: int, out: int | str, *sides, **top
) -> dict[str, Any]:
    """The correction form as rendered (prefilled, with its version), then changed."""
    form_page = client.get(f"/matches/{match_id}/hands/{number}/edit")
    assert form_page.status_code == 200
    root = page(form_page)
    data: dict[str, Any] = form_values(root)
    data["out"] = str(out)
    for seat, values in enumerate(sides):
        for suffix, value in values.items():
            key = f"s{seat}_{suffix}"
            if value is False or value is None:
                data.pop(key, None)
            else:
                data[key] = "y" if value is True else str(value)
    for key, value in top.items():
        if value is False or value is None:
            data.pop(key, None)
        else:
            data[key] = "y" if value is True else str(value)
    return data


def correct_hand(client: FlaskClient, match_id: int, number: int, out, *sides, **top):
    """Post the correction form, confirming it when the form asks (as a scorer would)."""
    data = edit_data(client, match_id, number, out, *sides, **top)
    response = client.post(f"/matches/{match_id}/hands/{number}/edit", data=data)
    return confirm(client, response) if confirmation(response) else response


def remove_hand(client: FlaskClient, match_id: int, number: int):
    """Open the remove page and confirm it, as the Undo button does."""
    confirm = client.get(f"/matches/{match_id}/hands/{number}/remove")
    assert confirm.status_code == 200, confirm.status_code
    data = form_values(page(confirm))
    return client.post(f"/matches/{match_id}/hands/{number}/remove", data=data)


# --- reading the scoreboard --------------------------------------------------------------


@dataclass(frozen=True)
class SideCard:
    name: str
    total: int
    lead: str
    meld: str | None
    progress: str
    winner: bool


def shown_number(text: str) -> int:
    """A whole number as an English page writes it ("1,500", "-70")."""
    return int(text.strip().replace(",", ""))


def side_cards(response: Any) -> list[SideCard]:
    root = page(response)
    cards = []
    for article in root.find_all("article", class_="side-card"):
        melds = [
            strong for p in article.find_all("p", class_="meld") for strong in p.kids("strong")
        ]
        total_text = article.find("p", class_="total").text().removeprefix("Total:").strip()
        cards.append(
            SideCard(
                name=article.find("h2").text(),
                total=shown_number(total_text),
                lead=article.find("p", class_="lead").text(),
                meld=melds[0].text() if melds else None,
                progress=article.find(class_="progress").find("span").text(),
                winner="winner" in article.classes,
            )
        )
    return cards


def totals(response: Any) -> list[int]:
    return [card.total for card in side_cards(response)]


def hand_rows(response: Any) -> list[tuple[str, list[str], list[int]]]:
    """The hands table: (number, hand scores as shown, running totals)."""
    root = page(response)
    tables = root.find_all("table", class_="hands")
    if not tables:
        return []
    rows = []
    for tr in tables[0].find("tbody").find_all("tr"):
        cells = tr.find_all("td")
        rows.append(
            (
                tr.find("th").text(),
                [td.find("span", class_="hand-score").text() for td in cells],
                [shown_number(td.find("span", class_="running").text()) for td in cells],
            )
        )
    return rows


def next_dealer(response: Any) -> str:
    return page(response).find("p", class_="dealer").find("strong").text()


def audit_entries(response: Any) -> list[str]:
    root = page(response)
    lists = root.find_all("ul", class_="audit")
    return [li.text() for li in lists[0].kids("li")] if lists else []


# --- the database ------------------------------------------------------------------------


def count(app: Flask, model: Any) -> int:
    with app.app_context():
        return db.session.scalar(select(func.count()).select_from(model)) or 0


def counts(app: Flask) -> dict[str, int]:
    from scorekeeper.models import AuditEntry, Hand, HandSide, Match, Player, Side, SideMember

    models = {
        "match": Match,
        "side": Side,
        "member": SideMember,
        "player": Player,
        "hand": Hand,
        "hand_side": HandSide,
        "audit": AuditEntry,
    }
    return {name: count(app, model) for name, model in models.items()}


def api_finished_match(
    client: FlaskClient,
    variant: str,
    players: list[list[str]],
    hand: list[dict[str, Any]],
    options: Mapping[str, Any] | None = None,
) -> int:
    """A match created and finished in one hand through the JSON API (for history tests)."""
    body: dict[str, Any] = {
        "variant": variant,
        "sides": [{"name": "", "players": p} for p in players],
    }
    if options:
        body["options"] = dict(options)
    created = client.post("/api/v1/matches", json=body)
    assert created.status_code == 201, created.json
    match_id = created.json["id"]
    played = client.post(f"/api/v1/matches/{match_id}/hands", json={"sides": hand})
    assert played.status_code == 201, played.json
    assert played.json["finished"], played.json
    return match_id
