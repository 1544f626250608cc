"""Clicks a whole Double Crossing game takes in the browser, for one scripted player.

The player sits at seat 1 of a default table (four players, the others the lobby's default bot)
with a fixed seed, and always makes the first legal move: on a Stop window it clicks "Pass", else
the first move button. Its decisions are therefore the same with any version of the page; what
changes is how many of them the page answers by itself (auto-pass on Stop windows, auto-end of a
turn with nothing else to do). Run it against another source tree for a before/after comparison:

    PYTHONPATH=src python -m benchmarks.dc_clicks --seed 7                 # this tree, auto answers on
    PYTHONPATH=src python -m benchmarks.dc_clicks --seed 7 --no-auto       # this tree, every click by hand
    PYTHONPATH=/path/to/old/src python -m benchmarks.dc_clicks --seed 7    # an older tree

Needs Playwright and /usr/bin/chromium. Prints one JSON line.
"""

from __future__ import annotations

import argparse
import collections
import json
import os
import socket
import subprocess
import sys
import tempfile
import time

import httpx
from playwright.sync_api import sync_playwright


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--no-auto", action="store_true", help="turn the page's automatic answers off")
    parser.add_argument("--chromium", default="/usr/bin/chromium")
    args = parser.parse_args()
    port = free_port()
    db = os.path.join(tempfile.mkdtemp(), "clicks.sqlite3")
    command = [sys.executable, "-m", "tabletrek", "serve", "--port", str(port), "--db", f"sqlite:///{db}"]
    quiet = subprocess.DEVNULL
    server = subprocess.Popen([*command, "--bot-delay", "0"], stdout=quiet, stderr=quiet)
    url = f"http://127.0.0.1:{port}"
    try:
        for _ in range(300):
            try:
                httpx.get(f"{url}/api/tables", timeout=1)
                break
            except httpx.HTTPError:
                time.sleep(0.1)
        seats = [{"kind": "human"}] + [{"kind": "bot"}] * (args.players - 1)
        spec = {"game": "double-crossing", "players": args.players, "seed": args.seed, "seats": seats}
        created = httpx.post(f"{url}/api/tables", json=spec).json()
        prefs = {"autoPass": not args.no_auto, "autoEnd": not args.no_auto, "autoDelay": 0}
        clicks: collections.Counter[str] = collections.Counter()
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=args.chromium, args=["--headless", "--no-sandbox"])
            context = browser.new_context(viewport={"width": 1280, "height": 900})
            context.add_init_script(f"localStorage.setItem('tt.prefs', {json.dumps(json.dumps(prefs))});")
            page = context.new_page()
            page.set_default_timeout(30_000)
            page.goto(f"{url}/t/{created['table']}#seat={created['tokens']['0']}")
            page.wait_for_selector("body[data-seq]")
            while True:
                page.wait_for_selector("body[data-mine='1']:not([data-auto]), body[data-over='1']")
                if page.get_attribute("body", "data-over") == "1":
                    break
                seq = page.get_attribute("body", "data-seq")
                passing = page.locator("#stop-prompt #pass-stop")
                first = page.locator("#moves button.move").first
                action = first.get_attribute("data-action")
                label = "stop window" if passing.count() or action == "pass" else None
                if label is None:
                    label = "end turn" if action == "end" else "other"
                (passing if passing.count() else first).click()
                clicks[label] += 1
                page.wait_for_selector(f"body:not([data-seq='{seq}']), body[data-over='1']")
            final_seq = int(page.get_attribute("body", "data-seq") or 0)
            browser.close()
        total = sum(clicks.values())
        summary = {"seed": args.seed, "auto": not args.no_auto, "clicks": total, **clicks, "moves": final_seq}
        print(json.dumps(summary))
    finally:
        server.terminate()
        server.wait(timeout=10)


if __name__ == "__main__":
    main()
