"""A game's own browser files: served from its folder at /ui/<game>/<file>, only the files its
spec declares, for registered games only, with the content types and validators of static files."""

from __future__ import annotations

from importlib import resources

import pytest
from starlette.testclient import TestClient

from tabletrek.core.registry import specs
from tabletrek.core.spec import Chance, GameSpec, Information

OWN = sorted(name for name, declared in specs().items() if declared.web_module is not None)


def test_at_least_the_games_with_their_own_page_declare_one() -> None:
    assert len(OWN) >= 4


@pytest.mark.parametrize("name", OWN)
def test_each_declared_file_is_served_from_the_games_folder(client: TestClient, name: str) -> None:
    declared = specs()[name]
    types = {".js": "text/javascript", ".css": "text/css"}
    for file, path in declared.web_files().items():
        response = client.get(f"/ui/{name}/{file}")
        assert response.status_code == 200, (file, response.text)
        assert response.content == (resources.files(declared.package) / path).read_bytes()
        assert response.headers["content-type"].startswith(types[file[file.rindex(".") :]])
        assert response.headers["x-content-type-options"] == "nosniff"
        etag = response.headers["etag"]
        assert "last-modified" in response.headers
        again = client.get(f"/ui/{name}/{file}", headers={"if-none-match": etag})
        assert again.status_code == 304 and not again.content
        assert client.head(f"/ui/{name}/{file}").status_code == 200


def test_the_table_names_its_games_files(client: TestClient) -> None:
    created = client.post("/api/tables", json={"game": OWN[0], "seats": None}).json()
    ui = client.get(f"/api/tables/{created['table']}").json()["ui"]
    assert ui["module"] == f"/ui/{OWN[0]}/page.js"
    assert client.get(ui["module"]).status_code == 200 and client.get(ui["style"]).status_code == 200


@pytest.mark.parametrize(
    "path",
    [
        "/ui/nope/page.js",  # no such game
        "/ui/{game}/other.js",  # a file the spec does not declare
        "/ui/{game}/spec.py",  # the game's own code is not served
        "/ui/{game}/..%2Fspec.py",
        "/ui/{game}/%2E%2E%2F%2E%2E%2Fi18n%2Fen.toml",
        "/ui/{game}/..",
        "/ui/{game}/",
        "/ui/..%2Fgames%2F{game}/page.js",
        "/ui/{game}/page.js%00",
        "/ui/{game}/PAGE.JS",
        "/ui/{game}/web%2Fpage.js",
    ],
)
def test_nothing_else_is_served(client: TestClient, path: str) -> None:
    response = client.get(path.format(game=OWN[0]))
    assert response.status_code == 404
    assert b"import" not in response.content  # neither the page module nor any Python source


def test_a_spec_declares_web_files_only_as_plain_names_in_its_web_folder() -> None:
    base = {
        "name": "x",
        "package": "x",
        "game": "x:X",
        "rules_version": 1,
        "information": Information.PERFECT,
        "chance": Chance.DETERMINISTIC,
    }
    ok = GameSpec(**base, web_module="web/page.js", web_style="web/style.css")
    assert ok.web_files() == {"page.js": "web/page.js", "style.css": "web/style.css"}
    for module, style in [
        ("../page.js", None),
        ("web/../spec.py", None),
        ("web/sub/page.js", None),
        ("page.js", None),
        ("web/page.css", None),
        ("web/page.js", "web/style.js"),
        (None, "web/style.css"),
        ("/etc/page.js", None),
    ]:
        with pytest.raises(ValueError):
            GameSpec(**base, web_module=module, web_style=style)
