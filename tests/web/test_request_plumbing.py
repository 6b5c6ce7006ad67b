"""The per-request plumbing made cheaper (answers kept, hooks skipped when they have
nothing to do) still answers exactly as Flask and its extensions would."""

from __future__ import annotations

from typing import Any


async def _async_view() -> dict[str, int]:
    return {"a": 1}


class _Hooks:
    async def async_hook(self) -> None:
        return None

    def hook(self) -> None:
        return None


class _Unhashable:
    __hash__ = None

    def __call__(self) -> str:
        return "called"


def test_a_kept_async_answer_is_flasks_answer(app, monkeypatch):
    wrapped: list[Any] = []
    monkeypatch.setattr(app, "async_to_sync", lambda func: wrapped.append(func) or "wrapped")

    def sync_view() -> str:
        return "sync"

    hooks = _Hooks()
    for _ in range(2):  # asked, then answered from what was kept
        assert app.ensure_sync(sync_view) is sync_view
        assert app.ensure_sync(hooks.hook) == hooks.hook
        assert app.ensure_sync(_async_view) == "wrapped"
        assert app.ensure_sync(hooks.async_hook) == "wrapped"
    assert wrapped == [_async_view, hooks.async_hook] * 2
    assert app.async_answers[sync_view] is False
    assert app.async_answers[_async_view] is True
    unhashable = _Unhashable()
    assert app.ensure_sync(unhashable) is unhashable


def test_requests_run_their_hooks_with_kept_answers(client, app):
    assert client.get("/rules").status_code == 200
    assert client.get("/rules").status_code == 200
    for hooks in (*app.before_request_funcs.values(), *app.after_request_funcs.values()):
        for hook in hooks:
            assert app.async_answers[hook] is False
