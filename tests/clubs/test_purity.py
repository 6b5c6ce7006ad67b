"""Club play's core is pure Python like the rules engine: no web framework, no database;
the standard library, openskill and the rules engine only."""

from __future__ import annotations

from pathlib import Path

import pytest

import scorekeeper.clubs

from ..purity import import_problems_of_tests, package_import_problems, run_without_web_stack

CLUBS_DIR = Path(scorekeeper.clubs.__file__).resolve().parent
CLUBS_FILES = sorted(CLUBS_DIR.glob("*.py"))
TEST_FILES = sorted(Path(__file__).resolve().parent.glob("*.py"))
LIBRARIES = frozenset({"openskill"})


def test_the_core_has_its_modules():
    names = {path.stem for path in CLUBS_FILES}
    assert {"victory_points", "movements", "standings", "leagues", "ratings"} <= names


@pytest.mark.parametrize("path", CLUBS_FILES, ids=lambda p: p.name)
def test_no_clubs_module_imports_the_web_stack(path):
    assert package_import_problems(path, libraries=LIBRARIES, siblings=frozenset({"rules"})) == []


@pytest.mark.parametrize("path", TEST_FILES, ids=lambda p: p.name)
def test_clubs_tests_import_nothing_but_the_core(path):
    packages = frozenset({"clubs", "rules"})
    assert import_problems_of_tests(path, packages=packages, libraries=LIBRARIES) == []


def test_the_guard_sees_what_a_module_must_not_import(tmp_path):
    module = tmp_path / "bad.py"
    module.write_text(
        "import json\nimport flask\nfrom sqlalchemy import select\nimport numpy\n"
        "from ..services import events\nfrom ..rules import GameFamily\nfrom .leagues import x\n"
        "__import__('jinja2')\n"
    )
    problems = package_import_problems(module, libraries=LIBRARIES, siblings=frozenset({"rules"}))
    assert problems == [
        "bad.py imports flask",
        "bad.py imports sqlalchemy",
        "bad.py imports numpy",
        "bad.py imports ..services",
        "bad.py imports jinja2",
    ]
    tests = tmp_path / "test_bad.py"
    tests.write_text("import pytest\nimport scorekeeper.web\nfrom ..support import make_app\n")
    assert import_problems_of_tests(tests, packages=frozenset({"clubs"})) == [
        "test_bad.py imports scorekeeper.web",
        "test_bad.py imports ..support",
    ]


def test_the_core_imports_without_the_web_stack():
    result = run_without_web_stack(
        "import scorekeeper.clubs as clubs\n"
        "table = clubs.read_vp_table('fibur-3')\n"
        "print(table.shares(1200, 1000), clubs.max_rounds(clubs.Movement.MITCHELL, 9))\n"
    )
    assert result.returncode == 0, "scorekeeper.clubs needs the web stack:\n" + result.stderr
    assert result.stdout.strip() == "(12, 8) 5"
