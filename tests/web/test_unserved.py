"""Addresses no route serves: the API refuses in its own JSON, a page address gets the app's page
saying so, and a missing static file stays a plain 404."""

from __future__ import annotations

import logging

import pytest
from starlette.testclient import TestClient

from tabletrek.i18n import translate


@pytest.mark.parametrize("path", ["/api/nope", "/api/tables/abc/nope", "/api/games/touring/rules/more"])
def test_an_unknown_api_address_is_refused_in_the_apis_json(client: TestClient, path: str) -> None:
    # Before: Starlette's plain-text 'Not Found', which a client of the API cannot parse.
    response = client.get(path)
    assert response.status_code == 404
    assert response.headers["content-type"] == "application/json"
    assert response.json() == {
        "type": "error",
        "key": "web.error.no_route",
        "args": {},
        "message": translate("web.error.no_route"),
    }


@pytest.mark.parametrize(("method", "path"), [("DELETE", "/api/tables"), ("PUT", "/api/games")])
def test_a_method_an_api_address_does_not_take_is_refused_with_those_it_does(
    client: TestClient, method: str, path: str
) -> None:
    response = client.request(method, path)
    assert response.status_code == 405
    body = response.json()
    assert body["key"] == "web.error.bad_method"
    allowed = response.headers["allow"]
    assert "GET" in allowed and body["args"] == {"allowed": allowed}
    assert allowed in body["message"]


@pytest.mark.parametrize("path", ["/nope", "/t", "/tables/abc", "/rules"])
def test_an_unknown_page_address_gets_the_apps_page_saying_so(client: TestClient, path: str) -> None:
    response = client.get(path)
    assert response.status_code == 404
    assert response.headers["content-type"].startswith("text/html")
    assert '<script type="module" src="/static/js/missing.js">' in response.text
    assert response.headers["content-security-policy"]  # the app's headers, as on every page
    assert client.head(path).status_code == 404


@pytest.mark.parametrize("path", ["/static/js/nope.js", "/static/nope.css", "/ui/nope"])
def test_a_missing_file_a_page_loads_stays_a_plain_404(client: TestClient, path: str) -> None:
    response = client.get(path)
    assert response.status_code == 404
    assert not response.headers["content-type"].startswith(("text/html", "application/json"))


def test_a_page_address_that_does_not_take_a_post_says_so_plainly(client: TestClient) -> None:
    response = client.post("/rules/touring")
    assert response.status_code == 405
    assert response.headers["content-type"].startswith("text/plain")


def test_unserved_addresses_leave_no_traceback(client: TestClient, caplog: pytest.LogCaptureFixture) -> None:
    with caplog.at_level(logging.DEBUG):
        statuses = {client.get("/api/x").status_code, client.get("/x").status_code}
        statuses.add(client.delete("/api/games").status_code)
    assert statuses == {404, 405}
    assert not [r for r in caplog.records if r.exc_info], caplog.text
