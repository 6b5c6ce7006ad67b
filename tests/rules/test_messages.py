"""Messages made into text: each template's renderer writes what `format_map` writes."""

from __future__ import annotations

import string

import pytest

from scorekeeper.rules.messages import RENDERERS, TEMPLATES, render, renderer

VALUES = [0, 7, -150, 2500, "", "Ann", 'it\'s "quoted" {braces} \\ back', True, None, [1, "a"]]


def _fields(template: str) -> list[str]:
    return [name for _, name, _, _ in string.Formatter().parse(template) if name is not None]


@pytest.mark.parametrize("key", sorted(TEMPLATES))
def test_every_template_renders_as_format_map_would(key):
    template = TEMPLATES[key]
    for offset, value in enumerate(VALUES):
        params = {
            name: VALUES[(offset + index) % len(VALUES)] if index else value
            for index, name in enumerate(_fields(template))
        }
        assert RENDERERS[key](params) == template.format_map(params)


@pytest.mark.parametrize(
    "template",
    [
        "",
        "plain text",
        "{a}",
        "{a}{b}",
        "{{literal}} {a} }}{{",
        "quotes ' and \" and ''' and \"\"\" {a}",
        "a backslash \\ and \\n and a tab\t {a}",
        "{a!r} {b!s:>8} {a:^5}",
        "non-ASCII é ✓ {a}",
        "{a} {a} {a}",
    ],
)
def test_a_renderer_keeps_literal_text_conversions_and_specs(template):
    text = renderer(template)
    for value in ("x", 12, "it's {a}"):
        params = {"a": value, "b": value}
        assert text(params) == template.format_map(params)


def test_a_missing_parameter_fails_as_format_map_does():
    with pytest.raises(KeyError):
        renderer("{a} {b}")({"a": 1})


@pytest.mark.parametrize("template", ["{a.b}", "{a[0]}", "{0}", "{}", "{a-b}"])
def test_only_parameter_names_make_fields(template):
    with pytest.raises(ValueError, match="parameter's name"):
        renderer(template)


def test_nested_reasons_and_cards_still_render():
    params = {
        "cards": [["joker", 2, 50, "jokers"], ["ace", 3, 20, "aces"]],
        "reason": {"key": "reason.no_canasta", "params": {"noun": "canasta"}},
    }
    assert render("line.meld_cards.minus", params) == (
        "Melded cards, counted minus (no canasta): 2 jokers x 50, 3 aces x 20"
    )
    assert render("no.such.key", {"text": "As stored"}) == "As stored"
