"""``tabletrek serve`` refuses what it cannot serve with, before it says it is running.

Before these checks a mistyped database URL, an unreachable database or a database file in a
missing folder printed a traceback; ``--db sqlite://`` (in memory) started a server whose every
request failed with a 500; ``--port 99999`` and a busy port printed "tabletrek is running" for a
server that was not."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import httpx
import pytest
from typer.testing import CliRunner

from tabletrek.cli import app
from tabletrek.core.errors import UsageError
from tabletrek.web.store import Store


def serve(*args: str, lang: str = "en") -> tuple[int, str]:
    """``tabletrek serve ARGS`` in this process (it must refuse before serving)."""
    result = CliRunner().invoke(app, ["serve", *args], env={"TABLETREK_LANG": lang, "COLUMNS": "300"})
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    assert "Traceback" not in result.output
    return result.exit_code, result.output


@pytest.mark.parametrize(
    ("args", "english", "chinese"),
    [
        (["--port", "99999"], "must be a port number from 0 to 65535", "必須是 0 到 65535 的連接埠號碼"),
        (["--port", "-1"], "(0: any free port), not -1", "而不是 -1"),
        (["--bot-delay", "-5"], "a number of seconds from 0 to 60, not -5.0", "必須是 0 到 60 之間的秒數"),
        (["--bot-delay", "nan"], "seconds from 0 to 60, not nan", "而不是 nan"),
        (["--bot-delay", "inf"], "seconds from 0 to 60, not inf", "而不是 inf"),
        (["--db", "notaurl"], "The database URL could not be read", "無法讀懂資料庫網址"),
        (["--db", "mysql://me@host/tt"], "in SQLite or PostgreSQL, not mysql.", "而不是 mysql。"),
        (
            ["--db", "postgresql+psycopg2://me@host/tt"],
            "not postgresql+psycopg2://",
            "而不是 postgresql+psycopg2://",
        ),
        (["--db", "sqlite://"], "An in-memory SQLite database would be lost", "記憶體中的 SQLite 資料庫"),
        (["--db", "sqlite:///:memory:"], "name a file, such as sqlite:///tabletrek.db", "請指定一個檔案"),
    ],
)
def test_a_setting_it_cannot_serve_with_is_refused_with_the_reason(
    args: list[str], english: str, chinese: str, tmp_path: Path
) -> None:
    if "--db" not in args:
        args = [*args, "--db", f"sqlite:///{tmp_path}/web.db"]
    for lang, said in (("en", english), ("zh-Hant", chinese)):
        code, output = serve("--port", "0", *args, lang=lang)
        assert code == 2 and said in output, output
        assert "is running" not in output and "已啟動" not in output
    assert list(tmp_path.iterdir()) == []  # refused before any database was made


def test_a_database_it_cannot_open_is_named_with_the_drivers_reason(tmp_path: Path) -> None:
    code, output = serve("--port", "0", "--db", f"sqlite:///{tmp_path}/no/such/folder/web.db")
    assert code == 2 and "Cannot open the database sqlite:///" in output
    assert "unable to open database file" in output
    not_a_database = tmp_path / "notes.txt"
    not_a_database.write_text("not a database, just a file someone named by mistake\n" * 200)
    code, output = serve("--port", "0", "--db", f"sqlite:///{not_a_database}", lang="zh-Hant")
    assert code == 2 and "無法開啟資料庫" in output and "file is not a database" in output
    assert not_a_database.read_text().startswith("not a database")  # left as it was


def test_a_password_in_the_url_is_never_printed() -> None:
    """Nothing listens on port 1: the connection is refused at once, and the refusal shows the URL."""
    code, output = serve("--port", "0", "--db", "postgresql://alice:s3cret-pw@127.0.0.1:1/tabletrek")
    assert code == 2 and "Cannot open the database" in output and "alice:***@127.0.0.1:1" in output
    assert "s3cret-pw" not in output


def test_the_library_refuses_the_same_urls() -> None:
    for url, key in (
        ("notaurl", "web.serve.db_unparsed"),
        ("oracle://x/y", "web.serve.db_unsupported"),
        ("sqlite://", "web.serve.db_in_memory"),
        ("postgresql+asyncpg://me@host/tt", "web.serve.db_driver"),
    ):
        with pytest.raises(UsageError) as refused:
            Store(url)
        assert refused.value.key == key


def test_a_busy_port_is_refused_before_the_database_is_touched(tmp_path: Path) -> None:
    with socket.socket() as holder:
        holder.bind(("127.0.0.1", 0))
        holder.listen()
        port = holder.getsockname()[1]
        db = tmp_path / "web.sqlite3"
        busy = (("en", "another program is already using this port"), ("zh-Hant", "另一個程式已在使用"))
        for lang, said in busy:
            code, output = serve("--port", str(port), "--db", f"sqlite:///{db}", lang=lang)
            assert code == 2 and f"127.0.0.1:{port}" in output and said in output, output
        assert not db.exists()


@pytest.mark.parametrize(
    ("host", "said"),
    [
        ("nosuch.invalid", "there is no such host name or address"),
        ("192.0.2.1", "does not belong to this computer"),  # TEST-NET-1: no machine holds it
    ],
)
def test_a_host_that_is_not_this_machines_is_refused(host: str, said: str, tmp_path: Path) -> None:
    code, output = serve("--host", host, "--port", "0", "--db", f"sqlite:///{tmp_path}/web.db")
    assert code == 2 and said in output, output
    assert not (tmp_path / "web.db").exists()


def test_port_zero_serves_on_the_free_port_it_prints_and_ctrl_c_stops_it(tmp_path: Path) -> None:
    log = tmp_path / "serve.log"
    with log.open("wb") as err:
        proc = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "tabletrek",
                "serve",
                "--port",
                "0",
                "--db",
                f"sqlite:///{tmp_path}/web.db",
            ],
            stdout=subprocess.PIPE,
            stderr=err,
            env={**os.environ, "TABLETREK_LANG": "en"},
        )
    try:
        assert proc.stdout is not None
        line = proc.stdout.readline().decode()
        assert line.startswith("tabletrek is running: open http://localhost:"), line + log.read_text()
        url = line.split("open ", 1)[1].split(" ", 1)[0]
        port = int(url.rsplit(":", 1)[1].rstrip("/"))
        assert port != 0
        deadline = time.monotonic() + 60
        while True:  # the port listens from the line on; the app answers once it has started
            try:
                assert httpx.get(url, timeout=5).status_code == 200
                break
            except httpx.ReadTimeout:
                assert time.monotonic() < deadline
        proc.send_signal(signal.SIGINT)
        assert proc.wait(timeout=30) == 0
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    assert "Traceback" not in log.read_text()
