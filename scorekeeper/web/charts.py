"""Small line charts drawn here as inline SVG: no chart library, no script.

Colours come from the stylesheet (`.chart .s0` ... use the page's CSS variables and
`currentColor`), so a chart follows the light or dark scheme like the rest of the page;
each series also has its own dash pattern, so it is told apart without colour. The
chart carries a <title> and a <desc> that say what it shows in words; the data itself is
in a table on the same page (or a visually hidden one).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from markupsafe import Markup, escape

from .. import words
from ..words.translate import gettext, ngettext

WIDTH, HEIGHT = 320, 150
LEFT, RIGHT, TOP, BOTTOM = 44, 8, 8, 20  # room for the labels of the axes
MAX_POINTS = 60  # a long match is drawn from this many points at most: a light page


@dataclass(frozen=True)
class Series:
    name: str
    values: Sequence[int]


def sample(count: int, limit: int = MAX_POINTS) -> list[int]:
    """Indexes of `count` points to draw, at most `limit`, evenly spread, always
    the first and the last (where a line starts and where it stands now)."""
    if count <= limit:
        return list(range(count))
    step = (count - 1) / (limit - 1)
    return sorted({round(i * step) for i in range(limit)})


def _number(value: float) -> str:
    return f"{value:.1f}".rstrip("0").rstrip(".")


def line_chart(
    series: Sequence[Series],
    title: str,
    description: str,
    chart_id: str,
    x_label: Callable[[int], str] = str,
    zero_line: bool = True,
) -> Markup:
    """An SVG line chart of these series (one point per x from 1), with axis labels at
    the lowest and highest value and the first and last x (`x_label` says an x: "hand 3")."""
    count = max((len(s.values) for s in series), default=0)
    if count == 0:
        return Markup("")
    chosen = sample(count)
    values = [v for s in series for v in s.values]
    low, high = min(0, *values), max(0, *values)
    if low == high:
        high = low + 1
    span_x = max(count - 1, 1)
    inner_w, inner_h = WIDTH - LEFT - RIGHT, HEIGHT - TOP - BOTTOM

    def x(index: int) -> str:
        return _number(LEFT + inner_w * index / span_x)

    def y(value: float) -> str:
        return _number(TOP + inner_h * (high - value) / (high - low))

    parts = [
        f'<svg class="chart" viewBox="0 0 {WIDTH} {HEIGHT}" role="img" '
        f'aria-labelledby="{chart_id}-t {chart_id}-d" focusable="false">',
        f'<title id="{chart_id}-t">{escape(title)}</title>',
        f'<desc id="{chart_id}-d">{escape(description)}</desc>',
        f'<path class="axis" d="M{LEFT} {TOP}V{HEIGHT - BOTTOM}H{WIDTH - RIGHT}"/>',
    ]
    if zero_line and low < 0 < high:
        parts.append(f'<path class="zero" d="M{LEFT} {y(0)}H{WIDTH - RIGHT}"/>')
    text_x = LEFT - 4
    top_label, low_label = escape(words.number(high)), escape(words.number(low))
    parts.append(f'<text x="{text_x}" y="{TOP + 8}" text-anchor="end">{top_label}</text>')
    parts.append(f'<text x="{text_x}" y="{HEIGHT - BOTTOM}" text-anchor="end">{low_label}</text>')
    bottom = HEIGHT - 5
    parts.append(f'<text x="{LEFT}" y="{bottom}">{escape(x_label(1))}</text>')
    if count > 1:
        last = escape(x_label(count))
        parts.append(f'<text x="{WIDTH - RIGHT}" y="{bottom}" text-anchor="end">{last}</text>')
    for number, line in enumerate(series):
        points = " ".join(f"{x(i)},{y(line.values[i])}" for i in chosen if i < len(line.values))
        parts.append(f'<polyline class="s{number % 4}" points="{points}"/>')
    parts.append("</svg>")
    legend = "".join(
        f'<li><span class="key s{n % 4}"></span>{escape(line.name)}</li>'
        for n, line in enumerate(series)
    )
    return Markup(
        f'<figure class="chart-box">{"".join(parts)}<ul class="legend">{legend}</ul></figure>'
    )


def running_totals_chart(sides: Sequence[str], running: Sequence[Sequence[int]]) -> Markup:
    """The running totals of a match hand by hand, one line per side (nothing before the
    second hand: one point is no line)."""
    if len(running) < 2:
        return Markup("")
    series = [Series(name, [totals[seat] for totals in running]) for seat, name in enumerate(sides)]
    final = words.joined(
        gettext("%(name)s %(total)s", name=name, total=words.number(running[-1][seat]))
        for seat, name in enumerate(sides)
    )
    return line_chart(
        series,
        gettext("Running totals, hand by hand"),
        gettext(
            "The total of each side after each of the %(count)s hands; now %(totals)s.",
            count=words.number(len(running)),
            totals=final,
        ),
        "running",
        x_label=lambda n: gettext("hand %(number)s", number=words.number(n)),
    )


def results_chart(name: str, outcomes: Sequence[str]) -> Markup:
    """A player's results over their last matches ("won", "drawn", "lost", oldest first):
    wins minus losses as it goes."""
    running, score = [], 0
    for outcome in outcomes:
        score += {"won": 1, "lost": -1}.get(outcome, 0)
        running.append(score)
    count, wins = len(outcomes), outcomes.count("won")
    draws = outcomes.count("drawn")
    return line_chart(
        [Series(gettext("Wins minus losses"), running)],
        ngettext(
            "%(name)s: wins minus losses over the last match",
            "%(name)s: wins minus losses over the last %(count)s matches",
            count,
            name=name,
            count=words.number(count),
        ),
        ngettext(
            "Over %(count)s match: %(won)s won, %(drawn)s drawn, %(lost)s lost; wins minus "
            "losses ends at %(score)s.",
            "Over %(count)s matches, oldest first: %(won)s won, %(drawn)s drawn, %(lost)s lost; "
            "wins minus losses ends at %(score)s.",
            count,
            count=words.number(count),
            won=words.number(wins),
            drawn=words.number(draws),
            lost=words.number(count - wins - draws),
            score=words.number(score),
        ),
        "results",
        x_label=lambda n: gettext("match %(number)s", number=words.number(n)),
    )
