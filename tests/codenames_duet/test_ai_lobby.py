"""The web lobby offers the Codenames AI for every word pack that has tables (English and Chinese)."""

from __future__ import annotations

from pathlib import Path

import pytest
from starlette.testclient import TestClient

from tabletrek.web.app import create_app


@pytest.mark.parametrize("pack", ["en", "zh-Hant"])
def test_a_table_with_the_ai_partner_opens_for_each_pack(tmp_path: Path, pack: str) -> None:
    app = create_app(f"sqlite:///{tmp_path / 'web.sqlite3'}", bot_delay=0)
    with TestClient(app) as client:
        games = {g["name"]: g for g in client.get("/api/games").json()["games"]}
        assert "codenames-clue" in games["codenames-duet"]["bots"]
        seats = [{"kind": "human"}, {"kind": "bot", "bot": "codenames-clue"}]
        body = {"game": "codenames-duet", "options": {"word_pack": pack}, "seats": seats}
        response = client.post("/api/tables", json=body)
        assert response.status_code == 201, response.json()
        table = client.get(f"/api/tables/{response.json()['table']}").json()
        assert table["seats"][1]["bot"] == "codenames-clue"
