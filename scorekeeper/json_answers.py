"""JSON answers encoded by orjson, with the very bytes Flask's own encoder would write.

Flask encodes every JSON answer with the standard library's `json`, which takes about
25 us for a scored hand's 1.3 KB; orjson takes a tenth of that. The text stays what
Flask writes (compact, keys in order, non-ASCII as \\u escapes, dates as HTTP dates):
an answer orjson would write otherwise (non-ASCII text, an integer past 64 bits, a
broken surrogate stored before text was checked) is encoded Flask's way instead.
Only a float can be written another way: 0.00001 where `json` writes 1e-05 (the
statistics round theirs to four places, so never), null for NaN (which none holds).
"""

from __future__ import annotations

import json
from typing import Any, cast

import orjson
from flask import Response as AppResponse
from flask.json.provider import DefaultJSONProvider
from werkzeug.sansio.response import Response

# Dates go to Flask's `default`, as they would with `json`. A dataclass orjson writes
# itself, as the object of its fields that Flask's `default` (`dataclasses.asdict`)
# makes, with no copy made first: a scored hand's lines are written so.
OPTIONS = orjson.OPT_NON_STR_KEYS | orjson.OPT_PASSTHROUGH_DATETIME


def compact_json(value: Any) -> bytes:
    """`value` as compact JSON text, as a match state's parts are kept: parts encoded
    alike join into one text (see `api.state_document`)."""
    return json.dumps(value, separators=(",", ":")).encode()


class FastJSONProvider(DefaultJSONProvider):
    """Flask's JSON provider, with `response` (every JSON answer) encoded by orjson."""

    sort_keys = False  # answers keep the documented order

    def fast_dumps(self, obj: Any) -> bytes | None:
        """`obj` as compact JSON as Flask writes it, or None when orjson cannot say it so."""
        try:
            text = orjson.dumps(obj, default=self.default, option=OPTIONS)
        except TypeError:  # orjson.JSONEncodeError: a value only `json` takes
            return None
        return text if text.isascii() else None

    def response(self, *args: Any, **kwargs: Any) -> Response:
        if self.compact is False or (self.compact is None and self._app.debug):
            return super().response(*args, **kwargs)  # indented: Flask's way
        obj = self._prepare_response_obj(args, kwargs)
        text = self.fast_dumps(obj)
        if text is None:
            return super().response(obj)
        answer = cast(type[AppResponse], self._app.response_class)  # typed as werkzeug's base
        return answer(text + b"\n", mimetype=self.mimetype)
