"""Protocol-level limits of the real server (uvicorn): a huge frame closes that connection only."""

from __future__ import annotations

import json
from pathlib import Path

import httpx
import pytest
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import connect

from .helpers import ServerProcess


def test_a_huge_frame_closes_the_connection_and_changes_nothing(tmp_path: Path) -> None:
    server = ServerProcess(f"sqlite:///{tmp_path / 'limits.sqlite3'}").start()
    try:
        spec = {"game": "touring", "players": 2, "seats": [{"kind": "human"}, {"kind": "human"}]}
        created = httpx.post(f"{server.url}/api/tables", json=spec).json()
        url = f"ws://127.0.0.1:{server.port}/ws/{created['table']}"
        with connect(url, max_size=None) as ws:
            ws.send(json.dumps({"type": "hello", "token": created["tokens"]["0"]}))
            json.loads(ws.recv(timeout=10))
            with pytest.raises(ConnectionClosed) as closed:  # the server may close while we still send
                ws.send(json.dumps({"type": "act", "action": "play go", "pad": "x" * (2 << 20)}))
                while True:
                    ws.recv(timeout=10)
            codes = {frame.code for frame in (closed.value.rcvd, closed.value.sent) if frame is not None}
            assert 1009 in codes  # message too big
        with connect(url) as ws:
            ws.send(json.dumps({"type": "hello"}))
            state = json.loads(ws.recv(timeout=10))
        assert state["seq"] == 0  # nothing was played
        assert httpx.get(f"{server.url}/api/tables/{created['table']}").status_code == 200  # server is fine
    finally:
        server.stop()
