"""Charts drawn as SVG on the server: the running totals on the scoreboard."""

from __future__ import annotations

from scorekeeper.web.charts import MAX_POINTS, Series, line_chart, sample

from .helpers import parse
from .test_query_counts import new_match


def chart_of(client, match_id: int):
    html = client.get(f"/matches/{match_id}").get_data(as_text=True)
    charts = parse(html).find_all("svg", class_="chart")
    return charts[0] if charts else None


def points(polyline) -> list[tuple[float, float]]:
    return [tuple(map(float, p.split(","))) for p in polyline.attrs["points"].split()]


def test_the_scoreboard_charts_the_running_totals_one_line_per_side(client):
    match_id = new_match(client, 3)  # each hand: Ann & Bob 50, Cid & Dee 20 (see USUAL)
    svg = chart_of(client, match_id)
    assert svg.attrs["role"] == "img"
    assert svg.find("title").text() == "Running totals, hand by hand"
    assert svg.find("desc").text() == (
        "The total of each side after each of the 3 hands; now Ann & Bob 150, Cid & Dee 60."
    )
    lines = svg.find_all("polyline")
    assert len(lines) == 2
    ann, cid = (points(line) for line in lines)
    assert len(ann) == len(cid) == 3
    # Higher totals are drawn higher (smaller y); x moves right hand by hand.
    assert ann[0][1] > ann[1][1] > ann[2][1]
    assert all(a[1] < c[1] for a, c in zip(ann, cid, strict=True))
    assert ann[0][0] < ann[1][0] < ann[2][0]
    assert [t.text() for t in svg.find_all("text")] == ["150", "0", "hand 1", "hand 3"]
    legend = parse(client.get(f"/matches/{match_id}").get_data(as_text=True)).find(
        "ul", class_="legend"
    )
    assert [li.text() for li in legend.find_all("li")] == ["Ann & Bob", "Cid & Dee"]


def test_one_hand_is_no_chart(client):
    assert chart_of(client, new_match(client, 1)) is None
    assert chart_of(client, new_match(client, 0)) is None


def test_a_long_match_is_drawn_from_a_bounded_number_of_points():
    chosen = sample(300)
    assert len(chosen) <= MAX_POINTS
    assert chosen[0] == 0
    assert chosen[-1] == 299
    assert chosen == sorted(set(chosen))
    assert sample(5) == [0, 1, 2, 3, 4]


def test_names_are_escaped_and_negative_values_get_a_zero_line():
    svg = parse(
        line_chart([Series("<b>A</b>", [-50, 100])], "t", "d", "x", x_label=lambda x: f"hand {x}")
    ).find("svg")
    assert svg.find("path", class_="zero") is not None
    markup = str(line_chart([Series("<b>A</b>", [1, 2])], "t", "d", "x"))
    assert "<b>" not in markup
    assert "&lt;b&gt;A&lt;/b&gt;" in markup
