"""Checks every page must pass in the browser: accessibility, tap targets, no sideways
scroll, no title or label spilling out of its card."""

from __future__ import annotations

import os
import re
from pathlib import Path

from axe_playwright_python.sync_playwright import Axe
from playwright.sync_api import Page

SEVERE = ("serious", "critical")
MIN_TARGET = 44  # CSS pixels, both ways
SCREENSHOTS = Path(os.environ.get("SCOREKEEPER_SCREENSHOTS", "test-results/screenshots"))

# Interactive elements a thumb must hit. Radio buttons and checkboxes are hit through
# their whole label (label.choice), so the label is measured instead of the box.
TARGETS_SCRIPT = """
(min) => {
  const selector = 'a[href], button, select, summary, label.choice,'
    + ' input:not([type=hidden]):not([type=radio]):not([type=checkbox])';
  const small = [];
  for (const el of document.querySelectorAll(selector)) {
    const box = el.getBoundingClientRect();
    const style = getComputedStyle(el);
    if (box.width === 0 || box.height === 0 || style.visibility === 'hidden') continue;
    if (box.right < 0 || box.bottom < 0) continue;  // off screen until focused (skip link)
    if (el.tagName === 'A' && style.display === 'inline') {
      // A link inside a sentence may be as small as the sentence (WCAG 2.5.8, inline).
      const text = (el.parentElement.textContent || '').trim();
      if (text.length > (el.textContent || '').trim().length + 3) continue;
    }
    if (box.width < min - 0.5 || box.height < min - 0.5) {
      const name = (el.textContent || el.name || '').trim().slice(0, 40);
      small.push(`${el.tagName.toLowerCase()} "${name}" `
        + `${Math.round(box.width)}x${Math.round(box.height)}`);
    }
  }
  return small;
}
"""


# Titles and labels whose text runs past the card, group or box they belong to.
SPILL_SCRIPT = """
() => {
  const boxes = '.side, .group, .side-card, .match-card, .preset, .alert, .share-link, .preview,'
    + ' .dealer, .cards-block, .choice, .banner, .flash, .more';
  const texts = 'h1, h2, h3, legend, label, summary, dt, dd, p, .block-title, .match-title';
  const spilled = [];
  for (const el of document.querySelectorAll(texts)) {
    const card = el.parentElement && el.parentElement.closest(boxes);
    const hidden = el.closest('.visually-hidden, .mode-switch > legend');
    if (!card || hidden || !el.checkVisibility()) continue;
    const range = document.createRange();
    range.selectNodeContents(el);
    const edge = card.getBoundingClientRect();
    const out = [...range.getClientRects()].some(
      (r) => r.width > 0 && (r.left < edge.left - 1 || r.right > edge.right + 1));
    if (out) spilled.push(`${el.tagName.toLowerCase()} "${el.textContent.trim().slice(0, 40)}"`);
  }
  return spilled;
}
"""


def axe_violations(page: Page) -> list[str]:
    """Serious and critical axe violations, each with where it happens."""
    results = Axe().run(page)
    found = []
    for violation in results.response["violations"]:
        if violation["impact"] in SEVERE:
            where = [" ".join(node["target"]) for node in violation["nodes"]][:5]
            found.append(
                f"{violation['id']} ({violation['impact']}): {violation['help']} at {where}"
            )
    return found


def small_targets(page: Page) -> list[str]:
    return page.evaluate(TARGETS_SCRIPT, MIN_TARGET)


def spilled_text(page: Page) -> list[str]:
    return page.evaluate(SPILL_SCRIPT)


def sideways_overflow(page: Page) -> int:
    """How many CSS pixels the page is wider than the screen (0 when it fits)."""
    return page.evaluate("document.documentElement.scrollWidth - window.innerWidth")


def check_page(page: Page) -> None:
    """The checks every page gets, with a message naming what failed.

    A click that opens another page returns once the new page is on its way: the checks
    wait for it to finish loading, so that they never run on a page still being built."""
    page.wait_for_load_state("load")
    problems = axe_violations(page)
    problems += [f"tap target under {MIN_TARGET}px: {t}" for t in small_targets(page)]
    problems += [f"text spills out of its card: {t}" for t in spilled_text(page)]
    overflow = sideways_overflow(page)
    if overflow > 0:
        problems.append(f"the page is {overflow}px wider than the phone")
    assert problems == [], f"{page.url}:\n" + "\n".join(problems)


def screenshot(page: Page, name: str) -> Path:
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    path = SCREENSHOTS / f"{re.sub(r'[^a-z0-9-]+', '-', name.lower())}.png"
    page.screenshot(path=str(path), full_page=False)
    return path
