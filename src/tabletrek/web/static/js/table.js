// A live table: one WebSocket, the game's own UI module (or the generic one), moves, seats and log.
import { el, clear } from "./dom.js";
import { renderHeader, nickname } from "./header.js";
import { loadCatalogs, storedLang, t, render as renderMessage, currentLang } from "./i18n.js";
import { loadModule, plainView } from "./modules.js";
import * as generic from "../games/generic.js";

const tableId = decodeURIComponent(location.pathname.split("/").pop());
const key = `tt.table.${tableId}`;
const saved = JSON.parse(localStorage.getItem(key) || "{}");
const hash = new URLSearchParams(location.hash.slice(1));
if (hash.get("seat")) {
  // A seat link: keep the seat token in this browser only, out of the address bar and server logs.
  saved.token = hash.get("seat");
  localStorage.setItem(key, JSON.stringify(saved));
  history.replaceState(null, "", location.pathname + location.search);
}
if (hash.get("invite")) {
  // An invite link: claimed once (see claimInvite), for a fresh token only this browser holds.
  saved.claim = hash.get("invite");
  localStorage.setItem(key, JSON.stringify(saved));
  history.replaceState(null, "", location.pathname + location.search);
}
if (hash.has("watch")) {
  delete saved.token;
  localStorage.setItem(key, JSON.stringify(saved));
  history.replaceState(null, "", location.pathname + location.search);
}

let socket = null;
let model = null;
let log = [];
let module = generic;
let retry = 500;
let lastError = null;
let clockTimer = null;
let invitesOpen = false;

function send(message) {
  if (socket && socket.readyState === WebSocket.OPEN) socket.send(JSON.stringify(message));
}

function act(text) {
  lastError = null;
  send({ type: "act", action: text, seq: model ? model.seq : null });
}

function connect() {
  const proto = location.protocol === "https:" ? "wss" : "ws";
  socket = new WebSocket(`${proto}://${location.host}/ws/${encodeURIComponent(tableId)}`);
  socket.onopen = () => {
    retry = 500;
    send({ type: "hello", token: saved.token || null, nickname: nickname() || null, lang: currentLang() });
  };
  socket.onmessage = (event) => {
    const message = JSON.parse(event.data);
    if (message.type === "state") {
      model = message;
      log = message.log_reset ? message.log : log.concat(message.log);
      draw();
    } else if (message.type === "seats") {
      if (model) {
        model.table = message.table;
        model.names = message.names;
        draw();
      }
    } else if (message.type === "notice") {
      // a bot took a seat over, a player came back, a seat was opened twice: shown in the log
      log = log.concat([{ key: message.key, args: message.args }]);
      if (model) draw();
    } else if (message.type === "error") {
      lastError = message;
      if (message.key === "web.error.bad_token") {
        delete saved.token;
        localStorage.setItem(key, JSON.stringify(saved));
      }
      drawError();
    }
  };
  socket.onclose = (event) => {
    document.body.classList.add("offline");
    if (event.code === 4404) return;
    setTimeout(connect, retry);
    retry = Math.min(retry * 2, 8000);
  };
  socket.onopen = ((open) => () => {
    document.body.classList.remove("offline");
    open();
  })(socket.onopen);
}

function drawError() {
  const box = document.getElementById("error");
  if (!box) return;
  box.textContent = lastError ? renderMessage(lastError, model ? model.names : null) : "";
  for (const slot of document.querySelectorAll("[data-error-slot]")) slot.textContent = box.textContent;
}

function draw() {
  if (!model) return;
  const main = clear(document.getElementById("main"));
  const info = model.table;
  const names = model.names;
  const title = t(`${info.domain}.title`);
  document.title = `${title} — tabletrek`;
  const you = model.you;
  // state hooks for tests and assistive tools: which move the page shows, and whether it is ours
  document.body.dataset.seq = String(model.seq);
  document.body.dataset.mine = model.legal.length ? "1" : "0";
  document.body.dataset.over = model.over ? "1" : "0";
  let status;
  if (model.over) {
    const result = model.result;
    const winners = (result.winners || []).map((s) => names[s]).join(", ");
    status = winners ? t("web.ui.winners", { winners, reason: t(result.reason) }) : t("web.ui.no_winner", { reason: t(result.reason) });
  } else if (model.to_act === you && you !== null) {
    status = info.seats[you].away ? t("web.ui.bot_playing") : t("web.ui.your_turn");
  } else {
    status = t("web.ui.to_act", { player: names[model.to_act] ?? "" });
  }
  const clock = el("span", { id: "clock", class: "clock" });
  main.append(
    el("h1", {}, title, " ", el("small", {}, you === null ? t("web.ui.spectating") : t("web.ui.you_are", { player: names[you] }))),
    el("p", { id: "status", class: model.to_act === you && !model.over ? "status mine" : "status" }, status, " ", clock),
    el("p", { id: "error", class: "error", role: "alert" }),
  );
  const board = el("section", { id: "board", class: `board game-${info.game}` });
  main.append(board);
  const ctx = { view: model.view, legal: model.legal, you, names, t, act, over: model.over, table: info, lang: currentLang() };
  try {
    module.render(board, ctx);
  } catch (err) {
    console.error(err);
    clear(board);
    generic.render(board, ctx);
  }
  main.append(generic.moves(ctx));
  main.append(seatsPanel(info, names, you));
  const host = saved.host && saved.invites ? invitesPanel(saved.invites, names) : null;
  if (host) main.append(host);
  main.append(logPanel(names));
  main.append(
    el(
      "p",
      { class: "links" },
      el("a", { href: `/rules/${info.game}`, target: "_blank" }, t("web.ui.rules")),
      " · ",
      el("a", { href: `/replay/${tableId}` }, t("web.ui.replay")),
      " · ",
      el("a", { href: "/" }, t("web.ui.lobby")),
    ),
  );
  drawError();
  tickClock();
}

function tickClock() {
  clearInterval(clockTimer);
  const box = document.getElementById("clock");
  if (!model || !model.clock || !box) return;
  const ends = Date.now() + model.clock.remaining * 1000;
  const show = () => {
    const left = Math.max(0, Math.round((ends - Date.now()) / 1000));
    box.textContent = t("web.ui.clock_left", { seconds: left, player: model.names[model.clock.seat] });
  };
  show();
  clockTimer = setInterval(show, 1000);
}

function seatsPanel(info, names, you) {
  const list = el("ul", { id: "seats", class: "seat-list" });
  for (const seat of info.seats) {
    const flags = [];
    if (seat.kind === "bot") flags.push(t("web.ui.bot", { bot: seat.bot }));
    else if (seat.away) flags.push(t("web.ui.away"));
    else flags.push(seat.connected ? t("web.ui.online") : t("web.ui.offline"));
    if (seat.seat === model.to_act && !model.over) flags.push(t("web.ui.playing_now"));
    list.append(el("li", { class: seat.seat === you ? "me" : "" }, `${names[seat.seat]} — ${flags.join(" · ")}`));
  }
  const controls = el("p", {});
  if (you !== null) {
    if (info.seats[you].away) controls.append(el("button", { id: "back", onclick: () => send({ type: "back" }) }, t("web.ui.back")));
    else controls.append(el("button", { id: "leave", class: "secondary", onclick: () => send({ type: "leave" }) }, t("web.ui.leave")));
  }
  return el("section", { class: "panel" }, el("h2", {}, t("web.ui.seats")), list, controls, el("p", { class: "muted" }, t("web.ui.spectators", { n: info.spectators })));
}

async function newInvite(seat) {
  // a fresh link for this seat; the old one stops working (a leaked link, or a new player)
  const resp = await fetch(`/api/tables/${encodeURIComponent(tableId)}/seats/${seat}/invite`, { method: "POST", headers: { "x-host-token": saved.host } });
  const body = await resp.json();
  if (!resp.ok) {
    lastError = body;
    drawError();
    return;
  }
  saved.invites[String(seat)] = body.invite;
  localStorage.setItem(key, JSON.stringify(saved));
  draw();
}

async function claimInvite() {
  // The first browser to open an invite link gets the seat's own token; the link is then spent.
  const code = saved.claim;
  delete saved.claim;
  const resp = await fetch(`/api/tables/${encodeURIComponent(tableId)}/claim`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ invite: code }) });
  const body = await resp.json();
  if (resp.ok) saved.token = body.token;
  else lastError = body;
  localStorage.setItem(key, JSON.stringify(saved));
}

function invitesPanel(invites, names) {
  const list = el("ul", { id: "invites" });
  for (const [seat, token] of Object.entries(invites)) {
    const link = `${location.origin}/t/${tableId}#invite=${token}`;
    list.append(
      el(
        "li",
        { "data-seat": seat },
        `${names[Number(seat)]}: `,
        el("input", { readonly: true, value: link, class: "invite", onclick: (e) => e.target.select() }),
        el("button", { class: "secondary new-invite", onclick: () => newInvite(seat) }, t("web.ui.new_invite")),
      ),
    );
  }
  const watch = `${location.origin}/t/${tableId}#watch`;
  list.append(el("li", {}, `${t("web.ui.spectator_link")}: `, el("input", { readonly: true, value: watch, class: "invite", onclick: (e) => e.target.select() })));
  // the page is redrawn on every move: keep the panel open once the host opened it
  const panel = el("details", { class: "panel", id: "invite-panel", open: invitesOpen }, el("summary", {}, t("web.ui.invites")), list);
  panel.addEventListener("toggle", () => (invitesOpen = panel.open));
  return panel;
}

function logPanel(names) {
  const list = el("ol", { id: "log", class: "log" });
  for (const line of log.slice(-200)) list.append(el("li", {}, renderMessage(line, names)));
  const panel = el("section", { class: "panel" }, el("h2", {}, t("web.ui.log")), list);
  requestAnimationFrame(() => (list.scrollTop = list.scrollHeight));
  return panel;
}

async function start(lang) {
  const info = await (await fetch(`/api/tables/${encodeURIComponent(tableId)}`)).json();
  if (info.type === "error") {
    await loadCatalogs(lang);
    renderHeader(start);
    document.getElementById("main").append(el("p", { class: "error" }, t(info.key, info.args)));
    return;
  }
  await loadCatalogs(lang, [info.domain]);
  module = await loadModule(info.game, info.ui && !plainView());
  renderHeader(
    (value) => {
      start(value).then(() => send({ type: "lang", lang: value }));
    },
    (name) => {
      if (model && model.you !== null) send({ type: "nick", nickname: name });
    },
  );
  if (saved.claim) await claimInvite();
  if (model) draw();
  if (!socket) connect();
}

start(storedLang());
