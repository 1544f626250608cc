"""``benchmarks/touring_decisions.py``: decisions valued once, settings scored and compared on them."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

from tabletrek.games.touring import kernel

pytestmark = pytest.mark.skipif(not kernel.available(), reason="numba (extra [search]) is not installed")


def run(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], *args: str) -> str:
    from benchmarks import touring_decisions

    monkeypatch.setattr(sys, "argv", ["touring_decisions", *args])
    touring_decisions.main()
    return capsys.readouterr().out


def test_settings_are_scored_and_compared_on_the_same_decisions(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    values = tmp_path / "d.json"
    small = ["--games", "1", "--sample", "0.1", "--worlds", "200"]
    run(monkeypatch, capsys, "make", "--out", str(values), *small)
    data = json.loads(values.read_text())
    assert data["rows"], "a game has decisions with a choice"
    for row in data["rows"]:
        assert row["played"] in row["moves"]
        assert len(row["values"]) == len(row["moves"])
        assert all(0.0 <= v <= 1.0 for v in row["values"])
    picks = []
    for name, depth in (("a", "60"), ("b", "60"), ("c", "20")):
        path = tmp_path / f"{name}.json"
        out = run(
            monkeypatch, capsys, "score", str(values), "--param", "iterations=300",
            "--param", f"rollout_depth={depth}", "--param", "threads=1", "--picks", str(path),
        )  # fmt: skip
        assert f"{len(data['rows'])} decisions" in out
        picks.append(json.loads(path.read_text()))
    assert picks[0] == picks[1], "the same setting picks the same moves"
    a, b, c = (str(tmp_path / f"{name}.json") for name in "abc")
    same = run(monkeypatch, capsys, "compare", str(values), a, b)
    assert "0 differ" in same and "+0.00 ± 0.00" in same
    differ = sum(a[2] != c[2] for a, c in zip(picks[0]["picks"], picks[2]["picks"], strict=True))
    other = run(monkeypatch, capsys, "compare", str(values), a, c)
    assert f"{differ} differ" in other
    top = run(monkeypatch, capsys, "ceiling", str(values), "--worlds", "100", "--every", "2")
    assert f"ceiling on {len(data['rows'][::2])} decisions" in top


def test_a_malformed_decisions_file_is_named_with_its_key(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps({"games": 1, "seed": 1, "sample": 0.1, "worlds": 10, "rows": [{"game": 0}]}))
    with pytest.raises(SystemExit, match=r"bad.json: rows\[0\] is missing key 'ply'"):
        run(monkeypatch, capsys, "score", str(bad))
