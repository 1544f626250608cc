"""``tabletrek serve`` refuses what it cannot serve with, before it says it is running.

Before these checks a mistyped database URL, an unreachable database or a database file in a
missing folder printed a traceback; ``--db sqlite://`` (in memory) started a server whose every
request failed with a 500; ``--port 99999`` and a busy port printed "tabletrek is running" for a
server that was not."""

from __future__ import annotations

import contextlib
import os
import queue
import re
import signal
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from unittest import mock

import httpx
import pytest
import uvicorn
from typer.testing import CliRunner

from tabletrek.cli import app
from tabletrek.cli import serve as serve_module
from tabletrek.core.errors import UsageError
from tabletrek.web.ratelimit import Limits
from tabletrek.web.sqlite_claim import claim_sqlite
from tabletrek.web.store import Store

from .helpers import create_table


def serve(*args: str, lang: str = "en") -> tuple[int, str]:
    """``tabletrek serve ARGS`` in this process (it must refuse before serving: one that gets as
    far as running the server fails the test at once instead of serving until it times out)."""
    started = AssertionError("tabletrek serve started a server instead of refusing")
    with mock.patch.object(uvicorn.Server, "run", side_effect=started):
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


@pytest.mark.parametrize(
    ("lang", "no_folder", "not_sqlite"),
    [
        ("en", "the file cannot be opened or made (does its folder", "the file is not a SQLite database"),
        ("zh-Hant", "無法開啟或建立這個檔案（它的資料夾存在嗎", "這個檔案不是 SQLite 資料庫"),
    ],
)
def test_a_database_it_cannot_open_is_named_with_the_reason_in_the_readers_language(
    tmp_path: Path, lang: str, no_folder: str, not_sqlite: str
) -> None:
    # before: SQLite's own English in every language ("無法開啟資料庫 …：unable to open database file")
    code, output = serve("--port", "0", "--db", f"sqlite:///{tmp_path}/no/such/folder/web.db", lang=lang)
    assert code == 2 and ("Cannot open the database sqlite:///" in output or "無法開啟資料庫" in output)
    assert no_folder in output and "unable to open" not in output
    not_a_database = tmp_path / "notes.txt"
    not_a_database.write_text("not a database, just a file someone named by mistake\n" * 200)
    code, output = serve("--port", "0", "--db", f"sqlite:///{not_a_database}", lang=lang)
    assert code == 2 and not_sqlite in output and "file is not a database" not in output
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


@contextlib.contextmanager
def running(
    tmp_path: Path, *args: str, lang: str = "en", db_file: Path | None = None
) -> Iterator[tuple[subprocess.Popen[bytes], list[str]]]:
    """``tabletrek serve --port 0 ARGS`` in a child process, with the two lines it starts with
    and the lobby's address in the first; its store is ``db_file`` (default: web.db in
    ``tmp_path``) and its log serve.log in ``tmp_path``."""
    tmp_path.mkdir(parents=True, exist_ok=True)
    log = tmp_path / "serve.log"
    db = f"sqlite:///{db_file or tmp_path / 'web.db'}"
    command = [sys.executable, "-m", "tabletrek", "serve", "--port", "0", "--db", db]
    with log.open("wb") as err:
        env = {**os.environ, "TABLETREK_LANG": lang}
        proc = subprocess.Popen([*command, *args], stdout=subprocess.PIPE, stderr=err, env=env)
    try:
        assert proc.stdout is not None
        said: queue.Queue[str] = queue.Queue()
        stdout = proc.stdout

        def pump() -> None:  # in a thread: a line the server never prints fails the test, not hangs it
            for line in stdout:
                said.put(line.decode())

        threading.Thread(target=pump, daemon=True).start()
        lines = []
        for _ in range(2):
            try:
                lines.append(said.get(timeout=60))
            except queue.Empty:
                pytest.fail(f"the server printed {lines} and then nothing for 60 s: {log.read_text()}")
        url = re.search(r"http://[^/\s]+/", lines[0])
        assert url is not None, lines[0] + log.read_text()
        yield proc, [*lines, url.group()]
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    assert "Traceback" not in log.read_text()


def lobby_answers(url: str) -> None:
    """The lobby at ``url`` answers 200: the port listens from the first line on, and the app
    answers once it has started."""
    deadline = time.monotonic() + 60
    while True:
        try:
            assert httpx.get(url, timeout=5).status_code == 200
            return
        except httpx.ReadTimeout:
            assert time.monotonic() < deadline


@pytest.mark.parametrize(
    ("lang", "running_at", "only_here"),
    [
        ("en", "tabletrek is running: open http://localhost:", "Only this computer can open it"),
        ("zh-Hant", "tabletrek 已啟動：請用瀏覽器打開 http://localhost:", "只有這台電腦打得開"),
    ],
)
def test_port_zero_serves_on_the_free_port_it_prints_and_ctrl_c_stops_it(
    tmp_path: Path, lang: str, running_at: str, only_here: str
) -> None:
    with running(tmp_path, lang=lang) as (proc, (started, network, url)):
        assert started.startswith(running_at), started
        assert int(url.rsplit(":", 1)[1].rstrip("/")) != 0
        # Before: nothing said that nobody else could open it, nor how to let them.
        assert network.startswith(only_here) and "--host 0.0.0.0" in network, network
        lobby_answers(url)
        proc.send_signal(signal.SIGINT)
        assert proc.wait(timeout=30) == 0


def test_on_every_address_it_prints_the_one_other_computers_reach(tmp_path: Path) -> None:
    # Before: "open http://localhost:…/", and the invite links made from that address sent each
    # friend to their own computer.
    shared = serve_module.network_address("0.0.0.0", (socket.AF_INET,))
    if shared is None:
        pytest.skip("this machine has no address but its loopback")
    with running(tmp_path, "--host", "0.0.0.0") as (_proc, (started, network, url)):
        assert url.startswith(f"http://{shared}:") and started.startswith(f"tabletrek is running: open {url}")
        assert network.startswith("Other computers on your network open the same address"), network
        lobby_answers(url)  # it is served there


V4, V6, BOTH = (socket.AF_INET,), (socket.AF_INET6,), (socket.AF_INET, socket.AF_INET6)
ROUTES = {socket.AF_INET: "192.168.1.20", socket.AF_INET6: "2001:db8::5"}


@pytest.mark.parametrize(
    ("host", "families", "routes", "shown"),
    [
        ("0.0.0.0", V4, ROUTES, "192.168.1.20"),
        ("", V4, ROUTES, "192.168.1.20"),
        ("::", BOTH, ROUTES, "192.168.1.20"),  # the address people know, where :: answers IPv4
        ("::", BOTH, {socket.AF_INET6: "2001:db8::5"}, "2001:db8::5"),  # no IPv4 route
        ("::", V6, ROUTES, "2001:db8::5"),  # an IPv6-only socket (bindv6only)
        ("0.0.0.0", V4, {socket.AF_INET6: "2001:db8::5"}, None),  # 0.0.0.0 does not answer IPv6
        ("0.0.0.0", V4, {socket.AF_INET: "127.0.0.1"}, None),  # only the loopback has a route
        ("::", V6, {socket.AF_INET6: "fe80::1"}, None),  # a link-local address needs its interface
        ("0.0.0.0", V4, {}, None),  # no route at all
        ("127.0.0.1", V4, ROUTES, None),  # one address: it is the one shown
        ("192.168.1.20", V4, ROUTES, None),
    ],
)
def test_the_address_other_computers_reach(
    monkeypatch: pytest.MonkeyPatch,
    host: str,
    families: tuple[socket.AddressFamily, ...],
    routes: dict[int, str],
    shown: str | None,
) -> None:
    def route_source(family: int, probe: str) -> str:
        if family not in routes:
            raise OSError(101, "Network is unreachable")
        return routes[family]

    monkeypatch.setattr(serve_module, "route_source", route_source)
    assert serve_module.network_address(host, families) == shown
    if shown is not None:
        url = serve_module.page_url(shown, 8000)
        assert url == (f"http://[{shown}]:8000/" if ":" in shown else f"http://{shown}:8000/")


def test_the_families_a_listening_socket_answers() -> None:
    with socket.socket(socket.AF_INET) as v4:
        assert serve_module.answered_on(v4) == V4
    try:
        v6 = socket.socket(socket.AF_INET6)
    except OSError:
        pytest.skip("this machine has no IPv6")
    with v6:
        v6.setsockopt(socket.IPPROTO_IPV6, socket.IPV6_V6ONLY, 0)
        assert serve_module.answered_on(v6) == BOTH
        v6.setsockopt(socket.IPPROTO_IPV6, socket.IPV6_V6ONLY, 1)
        assert serve_module.answered_on(v6) == V6


@pytest.mark.parametrize(
    ("host", "only_here"),
    [
        ("127.0.0.1", True),
        ("127.8.0.1", True),
        ("::1", True),
        ("localhost", True),
        ("LocalHost", True),
        ("tabletrek.localhost", True),
        ("localhost.", True),
        ("127.0.0.1.", True),
        ("localhost..", False),
        ("::ffff:127.0.0.1", True),
        ("0.0.0.0", False),
        ("192.168.1.20", False),
        ("::ffff:192.168.1.20", False),
        ("example.org", False),
        ("127.example.org", False),
    ],
)
def test_which_hosts_only_this_computer_reaches(host: str, only_here: bool) -> None:
    assert serve_module.is_loopback(host) is only_here


def test_a_limit_is_read_as_written_or_refused() -> None:
    limits = Limits()
    for name, text, value in [
        ("max_body", "1e6", 1_000_000),
        ("max_conns", "8.0", 8),
        ("http_rate", "0.5", 0.5),
        ("clock", "0", 0.0),  # no default clock: a table has one only if it asks
        ("clock", "60", 60.0),
    ]:
        limits.set(name, text)
        assert getattr(limits, name) == value and type(getattr(limits, name)) is type(value)
    # Before: int() cut a fraction without a word (max_conns=0.5 allowed no connection at all),
    # and float() read Arabic-Indic and full-width digits as numbers.
    for name, text, key in [
        ("max_conns", "0.5", "web.serve.limit_whole"),
        ("bot_slots", "2.5", "web.serve.limit_whole"),
        ("bot_ms", "٣٠٠٠", "web.serve.limit_value"),
        ("max_tables", "１２", "web.serve.limit_value"),
        ("clock", "inf", "web.serve.limit_value"),
        # Before: the server's default clock took what no table may ask for, and 0.5 s handed
        # every turn of every table to a bot.
        ("clock", "0.5", "web.serve.limit_clock"),
        ("clock", "90000", "web.serve.limit_clock"),
    ]:
        before = getattr(limits, name)
        with pytest.raises(UsageError) as caught:
            limits.set(name, text)
        assert caught.value.key == key and getattr(limits, name) == before


def test_a_second_server_on_one_sqlite_file_is_refused_while_the_first_runs(tmp_path: Path) -> None:
    # Before: the second started on its own port, and neither server heard of the other's moves
    # (SQLite has no NOTIFY), so each showed its players tables the other had moved on.
    db = f"sqlite:///{tmp_path}/web.db"
    with running(tmp_path) as (_proc, (_started, _network, url)):
        lobby_answers(url)
        refusals = (
            ("en", f"Another tabletrek server is already using the database {db}."),
            ("zh-Hant", f"另一個 tabletrek 伺服器已在使用資料庫 {db}。"),
        )
        for lang, said in refusals:
            for sync in ("notify", "poll"):  # the running server does not poll: neither may join it
                code, output = serve("--port", "0", "--db", db, "--sync", sync, lang=lang)
                assert code == 2 and said in output and "--sync poll" in output, output
        lobby_answers(url)  # the first serves on
    # The running server was killed: the system dropped its claim with it.
    claim = claim_sqlite(db, shared=False)
    assert claim is not None
    claim.release()


def test_servers_that_all_poll_share_one_sqlite_file(tmp_path: Path) -> None:
    db_file = tmp_path / "web.db"
    with (
        running(tmp_path / "a", "--sync", "poll", db_file=db_file) as (_a, (_, _, first)),
        running(tmp_path / "b", "--sync", "poll", db_file=db_file) as (_b, (_, _, second)),
    ):
        lobby_answers(first)
        lobby_answers(second)
        seats = [{"kind": "human"}, {"kind": "bot", "bot": "greedy"}]
        with httpx.Client(base_url=first) as client:
            table = create_table(client, "touring", seats)["table"]
        assert httpx.get(f"{second}api/tables/{table}").status_code == 200  # one store
        # A server that does not poll would not hear of the others' moves: refused.
        code, output = serve("--port", "0", "--db", f"sqlite:///{db_file}")
        assert code == 2 and "Another tabletrek server is already using" in output, output


def test_the_claim_on_a_sqlite_file(tmp_path: Path) -> None:
    db = tmp_path / "web.db"
    alone = claim_sqlite(f"sqlite:///{db}", shared=False)
    assert alone is not None and alone.path == tmp_path / "web.db-server.lock"
    # The same file by another path: relative to the working folder, through a symbolic link.
    (tmp_path / "link").symlink_to(tmp_path)
    for other in (f"sqlite:///{tmp_path}/link/web.db", f"sqlite:///{os.path.relpath(db)}"):
        for shared in (False, True):
            with pytest.raises(UsageError) as refused:
                claim_sqlite(other, shared=shared)
            assert refused.value.key == "web.serve.db_in_use"
    alone.release()
    alone.release()  # a second release does nothing
    first = claim_sqlite(f"sqlite:///{db}", shared=True)
    second = claim_sqlite(f"sqlite:///{db}", shared=True)
    assert first is not None and second is not None
    with pytest.raises(UsageError):
        claim_sqlite(f"sqlite:///{db}", shared=False)
    first.release()
    with pytest.raises(UsageError):  # one polling server is still there
        claim_sqlite(f"sqlite:///{db}", shared=False)
    second.release()
    last = claim_sqlite(f"sqlite:///{db}", shared=False)
    assert last is not None
    last.release()
    # Another file is another claim; PostgreSQL needs none; a folder that cannot hold the lock
    # file is left to the store, which names the driver's reason (test above).
    other = claim_sqlite(f"sqlite:///{tmp_path}/other.db", shared=False)
    assert other is not None
    other.release()
    assert claim_sqlite("postgresql://me@127.0.0.1:1/tt", shared=False) is None
    assert claim_sqlite(f"sqlite:///{tmp_path}/no/such/folder/web.db", shared=False) is None
