// A live table: one WebSocket, the game's own UI module (or the generic one), moves, seats, chat and log.
// The page is one Preact tree: a message re-renders it and Preact changes only what differs, so a
// clue or chat line being typed keeps its text, focus and caret when others join or move.
import { renderHeader, nickname } from "./header.js";
import { isWanted, loadCatalogs, storedLang, t, render as renderMessage, currentLang, shownNames, joinList } from "./i18n.js";
import { loadModule, plainView } from "./modules.js";
import { Failure, html, render, seatColor, installTips, hideTip } from "./ui.js";
import { Moves, GameOver, Seats, Invites, Log, Chat, Prefs, TurnBar } from "./table-parts.js";
import { prefs, notifyTurn } from "./prefs.js";
import { measure, play } from "./flip.js";
import * as generic from "./generic.js";
import { requestJson } from "./api.js";
import { parsedObject, persistent, readObject, tableEntry, tableKey, writeObject } from "./store.js";

const tableId = decodeURIComponent(location.pathname.split("/").pop());
const key = tableKey(tableId);
const saved = tableEntry(readObject(key));
const hash = new URLSearchParams(location.hash.slice(1));
// Whether this browser keeps what it is given: where it refuses storage, a reload loses the seat.
const kept = persistent();
if (hash.get("entry")) {
  // This browser's secrets for the table, brought from the lobby or a rematch by a browser that
  // refuses storage (store.js tableHref): kept in memory for this page, out of the address bar.
  Object.assign(saved, tableEntry(parsedObject(hash.get("entry"))));
  writeObject(key, saved);
  history.replaceState(null, "", location.pathname + location.search);
}
if (hash.get("seat")) {
  // A seat link: keep the seat token in this browser only, out of the address bar and server logs.
  saved.token = hash.get("seat");
  writeObject(key, saved);
  history.replaceState(null, "", location.pathname + location.search);
}
if (hash.get("invite")) {
  // An invite link: claimed once (see claimInvite), for a fresh token only this browser holds.
  saved.claim = hash.get("invite");
  writeObject(key, saved);
  history.replaceState(null, "", location.pathname + location.search);
}
if (hash.has("watch")) {
  delete saved.token;
  writeObject(key, saved);
  history.replaceState(null, "", location.pathname + location.search);
}

const page = {
  socket: null,
  model: null,
  prev: null, // the view before the latest move: pieces that changed are highlighted and animated
  log: [], // [{line, fresh}]
  chat: [],
  module: generic,
  retry: 500,
  lastError: null,
  inflight: null, // the seq a move was sent at: a second click on the same screen is not sent
  autoTimer: null,
  rematch: null,
};

function send(message) {
  if (page.socket && page.socket.readyState === WebSocket.OPEN) {
    page.socket.send(JSON.stringify(message));
    return true;
  }
  return false;
}

function act(text) {
  const model = page.model;
  if (!model) return;
  // A double click (or a click racing an automatic answer) would reach the server after the move
  // went through and be refused as "out of date": one move per screen.
  if (page.inflight === model.seq) return;
  page.lastError = null;
  if (send({ type: "act", action: text, seq: model.seq })) {
    page.inflight = model.seq;
    draw();
  }
}

function connect() {
  const proto = location.protocol === "https:" ? "wss" : "ws";
  const socket = new WebSocket(`${proto}://${location.host}/ws/${encodeURIComponent(tableId)}`);
  page.socket = socket;
  socket.onopen = () => {
    page.retry = 500;
    document.body.classList.remove("offline");
    send({ type: "hello", token: saved.token || null, nickname: nickname() || null, lang: currentLang() });
  };
  socket.onmessage = (event) => onMessage(JSON.parse(event.data));
  socket.onclose = (event) => {
    document.body.classList.add("offline");
    page.inflight = null;
    if (event.code === 4404) return;
    setTimeout(connect, page.retry);
    page.retry = Math.min(page.retry * 2, 8000);
  };
}

function onMessage(message) {
  if (message.type === "state") {
    const before = page.model;
    const moved = !before || before.seq !== message.seq;
    if (moved) page.prev = before ? before.view : null;
    page.model = message;
    if (message.log_reset) page.log = message.log.map((line) => ({ line, fresh: false }));
    else if (message.log.length) page.log = page.log.map((e) => ({ line: e.line, fresh: false })).concat(message.log.map((line) => ({ line, fresh: true })));
    if (moved) {
      page.inflight = null;
      hideTip();
    }
    draw();
    notifyTurn(message, before);
    scheduleAuto();
  } else if (message.type === "seats") {
    if (page.model) {
      page.model = { ...page.model, table: message.table, names: message.names };
      draw();
    }
  } else if (message.type === "notice") {
    // a bot took a seat over, a player came back, a seat was opened twice: shown in the log
    page.log = page.log.map((e) => ({ line: e.line, fresh: false })).concat([{ line: { key: message.key, args: message.args }, fresh: true }]);
    if (page.model) draw();
  } else if (message.type === "chat") {
    page.chat = (message.reset ? [] : page.chat).concat(message.lines || []).slice(-100);
    draw();
  } else if (message.type === "rematch") {
    page.rematch = message;
    followRematch(message);
    draw();
  } else if (message.type === "error") {
    page.lastError = message;
    page.inflight = null;
    if (message.key === "web.error.bad_token") {
      delete saved.token;
      writeObject(key, saved);
    }
    draw();
  }
}

/** A rematch: each player of this table gets their own seat at the new table: the first person
 * its token, every other a one-use invite that the new table's page claims for a token of its own. */
function followRematch(message) {
  if (!message.table) return;
  const entry = readObject(tableKey(message.table));
  if (message.token) entry.token = message.token;
  else if (message.invite && !entry.token) entry.claim = message.invite;
  writeObject(tableKey(message.table), entry);
}

/** Moves the rules leave no choice about (and the reactions the player chose to auto-pass). */
function scheduleAuto() {
  clearTimeout(page.autoTimer);
  delete document.body.dataset.auto;
  const model = page.model;
  if (!model || model.over || !model.legal.length || !page.module.autoMove) return;
  const auto = page.module.autoMove(ctxFor(model), prefs);
  if (!auto) return;
  const seq = model.seq;
  document.body.dataset.auto = auto.text; // for tests and assistive tools: an answer is on its way
  page.autoTimer = setTimeout(() => {
    if (page.model && page.model.seq === seq && page.model.legal.some((m) => m.text === auto.text)) act(auto.text);
  }, auto.delay);
}

function ctxFor(model) {
  const names = shownNames(model.names, model.table);
  return {
    view: model.view,
    prev: page.prev,
    legal: page.inflight === model.seq ? [] : model.legal,
    you: model.you,
    names,
    t,
    act,
    over: model.over,
    result: model.result,
    table: model.table,
    lang: currentLang(),
    error: page.lastError ? renderMessage(page.lastError, names) : "",
    redraw: draw,
    live: true,
  };
}

function statusText(model) {
  const names = shownNames(model.names, model.table);
  const you = model.you;
  if (model.over) {
    const result = model.result || {};
    const winners = joinList((result.winners || []).map((s) => names[s]));
    return winners ? t("web.ui.winners", { winners, reason: t(result.reason) }) : t("web.ui.no_winner", { reason: t(result.reason) });
  }
  if (model.to_act === you && you !== null) return model.table.seats[you].away ? t("web.ui.bot_playing") : t("web.ui.your_turn");
  return t("web.ui.to_act", { player: names[model.to_act] ?? "" });
}

function App() {
  const model = page.model;
  const info = model.table;
  const names = shownNames(model.names, model.table);
  const you = model.you;
  const ctx = ctxFor(model);
  const title = t(`${info.domain}.title`);
  let board;
  try {
    board = page.module.Board(ctx);
  } catch (err) {
    console.error(err);
    board = generic.Board(ctx);
  }
  const error = ctx.error;
  return html`
    <h1>${title} <small>${you === null ? t("web.ui.spectating") : t("web.ui.you_are", { player: names[you] })}</small></h1>
    ${you !== null && !kept ? html`<p id="no-storage" class="note">${t("web.ui.no_storage")}</p>` : null}
    <${TurnBar} model=${model} text=${statusText(model)} />
    <p id="error" class="error" role="alert">${error}</p>
    <section id="board" class=${`board game-${info.game}`} key=${`board-${info.game}`}>${board}</section>
    ${model.over
      ? html`<${GameOver} ctx=${ctx} module=${page.module} rematch=${page.rematch} tableId=${tableId} saved=${saved} send=${send} />`
      : html`<${Moves} ctx=${ctx} />`}
    <${Prefs} module=${page.module} you=${you} over=${model.over} redraw=${draw} />
    <${Seats} model=${model} send=${send} />
    <${Chat} lines=${page.chat} names=${names} you=${you} send=${send} />
    ${saved.host && saved.invites ? html`<${Invites} invites=${saved.invites} names=${names} tableId=${tableId} onNew=${newInvite} />` : null}
    <${Log} entries=${page.log} names=${names} />
    <p class="links">
      <a href=${`/rules/${info.game}`} target="_blank">${t("web.ui.rules")}</a> · <a href=${`/replay/${tableId}`}>${t("web.ui.replay")}</a> · <a href="/">${t("web.ui.lobby")}</a>
    </p>
  `;
}

function draw() {
  const model = page.model;
  if (!model) return;
  const info = model.table;
  const mine = model.legal.length > 0 && !model.over;
  document.title = `${mine ? "● " + t("web.table.your_turn_title") + " — " : ""}${t(`${info.domain}.title`)} — tabletrek`;
  // state hooks for tests and assistive tools: which move the page shows, and whether it is ours
  document.body.dataset.seq = String(model.seq);
  document.body.dataset.mine = mine ? "1" : "0";
  document.body.dataset.over = model.over ? "1" : "0";
  document.body.style.setProperty("--turn", seatColor(model.to_act));
  const root = document.getElementById("main");
  const before = measure(root);
  render(html`<${App} />`, root);
  // for tests: how many pieces have slid on this page so far
  document.body.dataset.slid = String(Number(document.body.dataset.slid || 0) + play(root, before));
}

async function newInvite(seat) {
  // a fresh link for this seat; the old one stops working (a leaked link, or a new player)
  const [ok, body] = await requestJson(`/api/tables/${encodeURIComponent(tableId)}/seats/${seat}/invite`, { method: "POST", headers: { "x-host-token": saved.host } });
  if (!ok) {
    page.lastError = body;
    draw();
    return;
  }
  saved.invites = { ...saved.invites, [String(seat)]: body.invite };
  writeObject(key, saved);
  draw();
}

async function claimInvite() {
  // The first browser to open an invite link gets the seat's own token; the link is then spent.
  const code = saved.claim;
  delete saved.claim;
  const [ok, body] = await requestJson(`/api/tables/${encodeURIComponent(tableId)}/claim`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ invite: code }) });
  if (ok) saved.token = body.token;
  else page.lastError = body;
  writeObject(key, saved);
}

async function start(lang) {
  installTips();
  const [ok, info] = await requestJson(`/api/tables/${encodeURIComponent(tableId)}`);
  if (!ok) {
    if (!(await loadCatalogs(lang))) return; // another language was chosen since
    renderHeader(start);
    // drawn by the same renderer as the table, which may already be on the page (a language switch)
    render(html`<${Failure} body=${info} retry=${() => start(currentLang())} />`, document.getElementById("main"));
    return;
  }
  if (!(await loadCatalogs(lang, [info.domain]))) return;
  page.module = await loadModule(plainView() ? null : info.ui);
  renderHeader(
    (value) => {
      // The server writes this seat's log in the language last chosen, not in one a quick
      // second switch has already replaced.
      start(value).then(() => isWanted(value) && send({ type: "lang", lang: value }));
    },
    (name) => {
      if (page.model && page.model.you !== null) send({ type: "nick", nickname: name });
    },
  );
  if (saved.claim) await claimInvite();
  if (page.model) draw();
  if (!page.socket) connect();
}

start(storedLang());
