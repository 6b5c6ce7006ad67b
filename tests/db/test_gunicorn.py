"""The app as `make run` serves it: gunicorn with gunicorn.conf.py."""

from __future__ import annotations

import json
import urllib.error
import urllib.request

import pytest

from tests.support import load_bench

serving = load_bench("serving")
# The tests of the served app share one server: on one worker, it is started once.
ON_THE_SERVER = pytest.mark.xdist_group("gunicorn")


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    url = f"sqlite:///{tmp_path_factory.mktemp('gunicorn') / 'served.sqlite'}"
    with serving.served(url) as running:
        yield running


def get(url: str) -> tuple[int, str, str]:
    try:
        with urllib.request.urlopen(url, timeout=30) as response:
            return response.status, response.headers["Content-Type"], response.read().decode()
    except urllib.error.HTTPError as error:
        return error.code, error.headers["Content-Type"], error.read().decode()


@ON_THE_SERVER
@pytest.mark.parametrize("length", [9_000, 20_000, 200_000])
def test_an_over_long_url_is_a_json_414_under_the_api(server, length):
    status, kind, body = get(f"{server.base}/api/v1/variants?options={'x' * length}")
    assert status == 414
    assert kind == "application/json"
    assert json.loads(body)["errors"][0]["message"].startswith("The address is too long")


@ON_THE_SERVER
def test_an_over_long_url_of_a_page_is_a_414_page(server):
    status, kind, body = get(f"{server.base}/history?player={'x' * 20_000}")
    assert status == 414
    assert kind.startswith("text/html")
    assert "too long" in body


@ON_THE_SERVER
def test_a_url_just_under_the_limit_is_served(server):
    status, _, _ = get(f"{server.base}/history?player={'x' * 5_000}")
    assert status == 200


def test_the_durability_script_runs_and_loses_nothing(tmp_path):
    """bench/durability.py, in a short run: kill -9 under load, nothing lost or doubled."""
    durability = load_bench("durability")
    result = durability.run_once(f"sqlite:///{tmp_path / 'd.sqlite'}", 3, 12, 0.4)
    assert result.acknowledged == 36
    assert (result.present, result.duplicated, result.lost) == (36, 0, 0)
