"""The long fuzz run: the property tests, with Hypothesis's `soak` profile.

`make test` runs the same tests with the `ci` profile (tests/conftest.py): the pure
engine's property tests (rules, clubs, the words) 100 examples each, the ones over HTTP
(junk at the API, the forms and every route, on SQLite and PostgreSQL) a tenth of that.
`soak` runs 50 times as many: 5,000 and 500. It is a search for inputs that break
things, so there is no figure, only what pytest says: any failure is a bug, and
Hypothesis keeps the failing example (.hypothesis/) for `make test` to try first.

    .venv/bin/python bench/fuzz.py [more pytest arguments, e.g. -k route]
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PROPERTY_TESTS = [
    "tests/rules/test_properties.py",
    "tests/rules/test_rules2.py",
    "tests/rules/test_burraco_three.py",
    "tests/clubs/test_movements.py",
    "tests/test_words.py",
    "tests/api/test_score_fuzz.py",
    "tests/api/test_matches_fuzz.py",
    "tests/web/test_form_fuzz.py",
    "tests/web/test_route_fuzz.py",
]


def main(argv: list[str]) -> int:
    command = [sys.executable, "-m", "pytest", *PROPERTY_TESTS, "--hypothesis-profile=soak"]
    return subprocess.call([*command, "-q", "--hypothesis-show-statistics", *argv], cwd=ROOT)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
