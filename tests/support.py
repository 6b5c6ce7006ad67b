"""Shared by several test packages: the table layouts RULES.md allows, the bench script."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

BENCH_DIR = Path(__file__).resolve().parents[1] / "bench"
BENCH = BENCH_DIR / "play_matches.py"

# Every table layout of RULES.md: preset, sides, players a side.
LAYOUTS = [
    ("classic", 2, 2),
    ("classic-2p", 2, 1),
    ("classic-3p", 3, 1),
    ("samba", 2, 2),
    ("samba-fournier", 2, 2),
    ("brazilian", 2, 2),
    ("bolivia", 2, 2),
    ("buraco", 2, 1),
    ("burraco", 2, 1),
    ("burraco", 2, 2),
]


def load_play_matches() -> ModuleType:
    """bench/play_matches.py, which is a script and not part of the package."""
    return load_bench("play_matches")


def load_bench(name: str) -> ModuleType:
    """A module of bench/ (scripts, not part of the package), by its name."""
    if name in sys.modules:
        return sys.modules[name]
    spec = importlib.util.spec_from_file_location(name, BENCH_DIR / f"{name}.py")
    assert spec is not None
    assert spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module
