"""Helpers for the tests that keep the pure packages (rules engine, club play) free of the
web stack: what a source file imports, and running code where the web stack is missing."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parent.parent
FORBIDDEN = {"flask", "sqlalchemy", "werkzeug", "wtforms", "flask_sqlalchemy", "flask_wtf"}
FORBIDDEN |= {"flask_migrate", "alembic", "jinja2", "psycopg", "gunicorn"}


def imports_of(path: Path) -> list[tuple[int, str]]:
    """(level, module) of every import statement; level > 0 is relative."""
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    found: list[tuple[int, str]] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found.extend((0, alias.name) for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            found.append((node.level, node.module or ""))
        elif (
            isinstance(node, ast.Call)
            and getattr(node.func, "id", None) == "__import__"
            and node.args
            and isinstance(node.args[0], ast.Constant)
        ):
            found.append((0, str(node.args[0].value)))
    return found


def run_without_web_stack(code: str) -> subprocess.CompletedProcess[str]:
    """Run `code` in a fresh interpreter where no module of the web stack can be imported."""
    blocked = sorted(FORBIDDEN)
    prelude = f"import sys\nfor name in {blocked!r}:\n    sys.modules[name] = None\n"
    return subprocess.run(
        [sys.executable, "-c", prelude + code],
        cwd=REPO_ROOT,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )


def package_import_problems(
    path: Path, *, libraries: frozenset[str] = frozenset(), siblings: frozenset[str] = frozenset()
) -> list[str]:
    """The imports of a pure package's module that reach beyond the standard library, the
    named `libraries`, the package itself and the named sibling packages of scorekeeper."""
    problems = []
    for level, module in imports_of(path):
        top = module.split(".")[0]
        if level == 0:
            fine = top not in FORBIDDEN and (top in sys.stdlib_module_names or top in libraries)
        else:
            fine = level == 1 or (level == 2 and top in siblings)
        if not fine:
            problems.append(f"{path.name} imports {'.' * level}{module}")
    return problems


def import_problems_of_tests(
    path: Path, *, packages: frozenset[str], libraries: frozenset[str] = frozenset()
) -> list[str]:
    """The imports of a pure package's test file beyond the standard library, pytest,
    hypothesis, the named `libraries`, the named scorekeeper `packages`, the helpers beside
    the tests and this module."""
    allowed = set(sys.stdlib_module_names) | {"pytest", "hypothesis"} | libraries
    problems = []
    for level, module in imports_of(path):
        parts = module.split(".")
        if level == 0 and parts[0] == "scorekeeper":
            fine = len(parts) > 1 and parts[1] in packages
        elif level == 0:
            fine = parts[0] in allowed
        else:
            fine = level == 1 or (level == 2 and module == "purity")
        if not fine:
            problems.append(f"{path.name} imports {'.' * level}{module}")
    return problems
