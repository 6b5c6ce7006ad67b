"""What is wrong with club settings, as data: a field path, a message key, parameters.

Club play never makes words: the API and the pages turn a key and its
parameters into text in the reader's language, so every problem is found and
reported at once, next to the field it concerns.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from dataclasses import field as dataclass_field

Param = int | str


@dataclass(frozen=True)
class Problem:
    """One thing wrong: `field` in JSON-path notation (`vp_table.rows[2]`), a message
    `key` and its parameters (numbers or keys, never user text)."""

    field: str
    key: str
    params: Mapping[str, Param] = dataclass_field(default_factory=dict, hash=False)

    def __post_init__(self) -> None:
        if not self.field or not self.key:
            raise ValueError("a problem needs a field and a key")
        for name, value in self.params.items():
            plain = isinstance(value, int | str) and not isinstance(value, bool)
            if not isinstance(name, str) or not plain:
                raise ValueError("problem parameters are named numbers or keys")

    def to_dict(self) -> dict[str, object]:
        return {"field": self.field, "key": self.key, "params": dict(self.params)}


class InvalidSettings(ValueError):
    """Raised with every problem found, never only the first."""

    def __init__(self, problems: Iterable[Problem]) -> None:
        self.problems: tuple[Problem, ...] = tuple(problems)
        super().__init__("; ".join(f"{p.field}: {p.key}" for p in self.problems) or "invalid")
