"""The rules engine is pure Python: no web framework, no database."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

import scorekeeper.rules

from ..purity import import_problems_of_tests, package_import_problems, run_without_web_stack

RULES_DIR = Path(scorekeeper.rules.__file__).resolve().parent
TESTS_DIR = Path(__file__).resolve().parent
RULES_FILES = sorted(RULES_DIR.glob("*.py"))
TEST_FILES = sorted(TESTS_DIR.glob("*.py"))


def test_the_engine_has_the_expected_modules():
    names = {path.stem for path in RULES_FILES}
    expected = {"__init__", "model", "cards", "presets", "options", "record", "hand"}
    expected |= {"validate", "scoring", "meld", "game", "serialize", "errors"}
    assert expected <= names


@pytest.mark.parametrize("path", RULES_FILES, ids=lambda p: p.name)
def test_no_rules_module_imports_the_web_stack(path):
    # The standard library only; relative imports stay inside the rules package.
    assert package_import_problems(path) == []


@pytest.mark.parametrize("path", TEST_FILES, ids=lambda p: p.name)
def test_rules_tests_import_nothing_but_the_engine(path):
    assert import_problems_of_tests(path, packages=frozenset({"rules"})) == []


def test_the_engine_imports_without_the_web_stack():
    # Run in a fresh interpreter where the web stack cannot be imported at all.
    result = run_without_web_stack(
        "import scorekeeper.rules as rules\n"
        "hand = rules.read_hand(rules.resolve('classic'), [{}, {}])\n"
        "print(sum(s.total for s in rules.score(rules.resolve('classic'), hand)))\n"
    )
    assert result.returncode == 0, (
        "importing scorekeeper.rules needs the web stack "
        "(scorekeeper/__init__.py imports Flask eagerly):\n" + result.stderr[-2000:]
    )
    assert result.stdout.strip() == "0"


def _docstrings(tree: ast.AST) -> set[int]:
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef):
            first = node.body[0] if node.body else None
            if isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant):
                found.add(id(first.value))
    return found


# The one place the engine holds English: reading back rule sets frozen with it.
READS_OLD_ENGLISH = {("serialize.py", "ENGLISH_NOTES")}


@pytest.mark.parametrize("path", RULES_FILES, ids=lambda p: p.name)
def test_the_engine_makes_no_words(path):
    """Keys and parameters only: no text of more than one word outside docstrings (the
    edge, scorekeeper.words, says things), and no code made from text."""
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    docstrings = _docstrings(tree)
    allowed: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Assign) and any(
            isinstance(t, ast.Name) and (path.name, t.id) in READS_OLD_ENGLISH for t in node.targets
        ):
            allowed |= {id(n) for n in ast.walk(node.value)}
    for node in ast.walk(tree):
        if isinstance(node, ast.Constant) and isinstance(node.value, str):
            if id(node) in docstrings or id(node) in allowed:
                continue
            words = re.search(r"[A-Za-z]\s+[A-Za-z]", node.value)  # keys have no spaces
            assert words is None, f"{path.name}:{node.lineno} {node.value!r}"
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name):
            assert node.func.id not in ("eval", "exec"), f"{path.name}:{node.lineno}"
