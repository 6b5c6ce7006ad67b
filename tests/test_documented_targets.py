"""What the README promises a new user is what CI runs: every make target the documents
name exists and is run by .ci/run on its fresh clone, and the npm lock file cannot drift
when a package publishes (`npm ci` re-resolves dist-tags such as "latest")."""

from __future__ import annotations

import json
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
DOCUMENTS = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
# `make run` is started by the browser tests and `make test` is what CI runs anyway.
NOT_REPEATED_IN_CI = {"run"}
# `make TARGET` in inline code or at the start of a line (code blocks), after any VAR=value.
MAKE = re.compile(r"(?:`|^)(?:[A-Z_]+=\S+ )*make ([a-z][\w-]*)", flags=re.MULTILINE)


def documented_targets() -> dict[str, list[str]]:
    """Each target named as `make TARGET` in README.md or docs/, with where it is named."""
    named: dict[str, list[str]] = {}
    for document in DOCUMENTS:
        for target in MAKE.findall(document.read_text()):
            named.setdefault(target, []).append(document.relative_to(ROOT).as_posix())
    return named


def makefile_rules() -> dict[str, list[str]]:
    """Each target of the Makefile with its prerequisites."""
    text = (ROOT / "Makefile").read_text()
    rules = re.findall(r"^([a-z][\w-]*):(?!=)([^\n|]*)", text, flags=re.MULTILINE)
    return {target: prerequisites.split() for target, prerequisites in rules}


def makefile_targets() -> set[str]:
    return set(makefile_rules())


def run_by(target: str) -> set[str]:
    """The target and every target make runs before it."""
    rules = makefile_rules()
    done: set[str] = set()
    waiting = [target]
    while waiting:
        current = waiting.pop()
        if current not in done:
            done.add(current)
            waiting.extend(rules.get(current, []))
    return done


def ci_commands() -> list[str]:
    """The lines of .ci/run that are commands, not comments."""
    lines = (ROOT / ".ci" / "run").read_text().splitlines()
    return [line.strip() for line in lines if line.strip() and not line.strip().startswith("#")]


def test_the_documents_name_the_targets_a_user_needs():
    named = documented_targets()
    assert {"run", "test", "lint", "format", "screenshots", "lighthouse", "icons", "bench"} <= set(
        named
    )


def test_every_documented_target_exists():
    missing = {t: where for t, where in documented_targets().items() if t not in makefile_targets()}
    assert not missing, f"documented but not in the Makefile: {missing}"


def test_ci_runs_every_documented_target():
    called = {found[1] for c in ci_commands() if (found := re.match(r"make ([a-z][\w-]*)", c))}
    run = set().union(*(run_by(target) for target in called))
    not_run = sorted(set(documented_targets()) - NOT_REPEATED_IN_CI - run)
    assert not not_run, f".ci/run never runs: {not_run}"


def test_ci_checks_the_lock_files_before_the_tests():
    commands = ci_commands()
    check = next(i for i, c in enumerate(commands) if c.startswith("npm ci --dry-run"))
    assert check < commands.index("make test")


def test_format_and_icons_must_change_nothing_in_ci():
    commands = ci_commands()
    for target in ("make format", "make icons"):
        position = commands.index(target)
        assert commands[position + 1] == "git diff --exit-code", target


def test_no_dependency_in_the_lock_file_follows_a_moving_tag():
    """A dependency asked for by dist-tag ("latest") makes `npm ci` refuse the committed
    lock file as soon as the package publishes; package.json must pin it by override."""
    bench = ROOT / "bench"
    lock = json.loads((bench / "package-lock.json").read_text())
    overrides = json.loads((bench / "package.json").read_text()).get("overrides", {})
    unpinned = []
    for path, package in lock["packages"].items():
        name = path.rpartition("node_modules/")[2]
        for dependency, spec in package.get("dependencies", {}).items():
            if not re.fullmatch(r"[A-Za-z][\w.-]*", spec):
                continue  # a version or a range
            pinned = overrides.get(dependency) or overrides.get(name, {}).get(dependency)
            if not (isinstance(pinned, str) and re.fullmatch(r"\d+\.\d+\.\d+", pinned)):
                unpinned.append(f"{name} -> {dependency}@{spec}")
    assert not unpinned, f"pin these in bench/package.json overrides: {unpinned}"
