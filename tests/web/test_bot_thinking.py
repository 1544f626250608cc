"""A bot thinks on its own copy of the game without holding its table.

Before, a bot held the table's lock from its wait for a bot slot to its move: a search move takes
seconds in Double Crossing, and all that time the table's page load (`GET /api/tables/<id>`), chat
lines and the players' messages waited. A player who came back to a seat a bot had taken over
also waited, then found the bot had moved for them.

Here the stand-in bot is held at a gate (a real bot inside), so "while it thinks" is a fact of the
test, not a race; no timing is asserted.
"""

from __future__ import annotations

import threading
from typing import Any

from starlette.testclient import TestClient

from tabletrek.core.actions import Action
from tabletrek.core.bots import Bot
from tabletrek.core.state import State

from .helpers import create_table, hello, live, receive_until, send
from .redteam import WAIT


class GatedBot:
    """``bot``, made to wait at a gate before each move: the table's bot 'thinking'."""

    def __init__(self, bot: Bot) -> None:
        self.bot = bot
        self.name = getattr(bot, "name", type(bot).__name__)  # the table keeps a bot of its name
        self.thinking = threading.Event()
        self.gate = threading.Event()
        self.asked: list[State] = []

    def act(self, state: State) -> Action:
        self.asked.append(state)
        self.thinking.set()
        self.gate.wait(WAIT)  # bounded: a regression fails the test's checks instead of hanging
        return self.bot.act(state)


def test_a_player_back_while_the_stand_in_bot_thinks_moves_and_the_bot_s_move_is_dropped(
    client: TestClient,
) -> None:
    created = create_table(client, seats=[{"kind": "human"}, {"kind": "bot", "bot": "random"}])
    table = created["table"]
    here = live(client, table)
    stand_in = GatedBot(here._bot(0))  # the bot that takes seat 0 over, as the table would make it
    here._bots[0] = stand_in
    with client.websocket_connect(f"/ws/{table}") as ws:
        first = hello(ws, created["tokens"]["0"])
        assert first["seq"] == 0 and first["legal"]
        send(ws, {"type": "leave"})
        assert stand_in.thinking.wait(WAIT), "the stand-in bot never started on seat 0's move"
        # while it thinks: the table answers its page, and the player takes the seat back and moves
        shown = client.get(f"/api/tables/{table}")
        assert shown.status_code == 200 and shown.json()["seats"][0]["away"]
        send(ws, {"type": "back"})
        send(ws, {"type": "act", "action": first["legal"][0]["text"], "seq": 0, "id": 1})
        ack = receive_until(ws, lambda m: m["type"] in ("ack", "error"))
        assert not stand_in.gate.is_set()
        assert ack == {**ack, "type": "ack", "id": 1, "seq": 1}, ack
        stand_in.gate.set()  # the bot's answer comes now, for a position that is gone
        receive_until(ws, lambda m: m["type"] == "state" and m["seq"] >= 2)  # seat 1's bot answered
    assert here.state.history[0] == first["legal"][0]["text"]
    assert not here.seats[0].away
    assert len(stand_in.asked) == 1 and stand_in.asked[0] is not here.state  # it read a copy
    assert client.app.state.manager.store.load_table(table).actions == list(here.state.history)


def test_a_bot_thinking_holds_up_no_chat_line(client: TestClient) -> None:
    created = create_table(client, seats=[{"kind": "human"}, {"kind": "bot", "bot": "random"}])
    table = created["table"]
    here = live(client, table)
    with client.websocket_connect(f"/ws/{table}") as ws:
        first = hello(ws, created["tokens"]["0"])
        thinker = GatedBot(here._bot(1))
        here._bots[1] = thinker
        send(ws, {"type": "act", "action": first["legal"][0]["text"], "seq": 0})
        assert thinker.thinking.wait(WAIT), "seat 1's bot never started on its move"
        send(ws, {"type": "chat", "text": "your move"})
        line = receive_until(ws, lambda m: m["type"] == "chat" and not m.get("reset"))
        assert line["lines"][0]["text"] == "your move"
        assert not thinker.gate.is_set() and here.seq == 1  # the chat came while the bot thought
        thinker.gate.set()
        moved: dict[str, Any] = receive_until(ws, lambda m: m["type"] == "state" and m["seq"] == 2)
    assert moved["legal"]  # the bot's move stood: nothing else happened meanwhile
