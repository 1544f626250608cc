// Step through a table's game from one seat's view, the public view, or all of it once it is over.
// The arrow keys step (Home/End jump); each seat's panel is labelled with that player's name.
import { renderHeader } from "./header.js";
import { loadCatalogs, storedLang, t, render as renderMessage, currentLang, shownNames } from "./i18n.js";
import { loadModule, plainView } from "./modules.js";
import { Failure, html, render, installTips } from "./ui.js";
import * as generic from "./generic.js";
import { readObject, tableEntry, tableKey } from "./store.js";
import { requestJson } from "./api.js";

const tableId = decodeURIComponent(location.pathname.split("/").pop());
const saved = tableEntry(readObject(tableKey(tableId)));
const state = { module: generic, info: null, data: null, views: null, prevViews: null, error: "", step: 0 };
let viewer = new URLSearchParams(location.search).get("viewer") || "public";

async function fetchJson(url) {
  const headers = saved.token ? { "x-seat-token": saved.token } : {};
  return requestJson(url, { headers });
}

async function load() {
  const [ok, body] = await fetchJson(`/api/tables/${encodeURIComponent(tableId)}/replay?viewer=${viewer}`);
  if (!ok) {
    state.error = t(body.key, body.args);
    draw();
    return false;
  }
  state.error = "";
  state.data = body;
  return true;
}

async function show() {
  const [ok, body] = await fetchJson(`/api/tables/${encodeURIComponent(tableId)}/replay/${state.step}?viewer=${viewer}`);
  if (!ok) {
    state.error = t(body.key, body.args);
    state.views = null;
  } else {
    state.error = "";
    state.prevViews = state.views;
    state.views = body.views;
  }
  draw();
}

function go(step) {
  if (!state.data) return;
  state.step = Math.max(0, Math.min(state.data.total, step));
  show();
}

function SeatPanel({ who, view }) {
  const data = state.data;
  const seat = who === "public" ? null : Number(who);
  const ctx = {
    view, prev: state.prevViews ? state.prevViews[who] : null, legal: [], you: seat, names: shownNames(data.names, state.info), t, act: () => {},
    over: false, table: state.info, lang: currentLang(), error: "", redraw: draw, live: false,
  };
  let body;
  try {
    body = state.module.Board(ctx);
  } catch (err) {
    console.error(err);
    body = generic.Board(ctx);
  }
  return html`<section class="panel board" key=${who} data-viewer=${who}>
    <h2>${seat === null ? t("web.ui.public_view") : t("web.table.seen_by", { player: shownNames(data.names, state.info)[seat] })}</h2>
    <div>${body}</div>
  </section>`;
}

function App() {
  const { info, data } = state;
  const lines = data ? data.steps.slice(0, state.step).flatMap((entry) => entry.log) : [];
  const names = data ? shownNames(data.names, info) : [];
  return html`
    <h1>${t("web.ui.replay")} · ${t(`${info.domain}.title`)}</h1>
    <div class="replay-controls panel">
      <label>${t("web.ui.viewer")} <select id="viewer" value=${viewer} onChange=${async (e) => { viewer = e.target.value; if (await load()) go(Math.min(state.step, state.data.total)); }}>
        <option value="public">${t("web.ui.public_view")}</option>
        ${info.seats.map((s) => html`<option value=${String(s.seat)}>${names[s.seat] || t("core.seat", { n: s.seat + 1 })}</option>`)}
        <option value="all">${t("web.ui.everything")}</option>
      </select></label>
      <button id="first" aria-label=${t("web.table.first")} onClick=${() => go(0)}>|◀</button>
      <button id="prev" aria-label=${t("web.table.previous")} onClick=${() => go(state.step - 1)}>◀</button>
      <button id="next" aria-label=${t("web.table.next")} onClick=${() => go(state.step + 1)}>▶</button>
      <button id="last" aria-label=${t("web.table.last")} onClick=${() => go(state.data.total)}>▶|</button>
      <input type="range" id="slider" min="0" max=${data ? data.total : 0} value=${state.step} aria-label=${t("web.table.step_slider")} onInput=${(e) => go(Number(e.target.value))} />
      <span id="step">${data ? t("web.ui.step", { step: state.step, total: data.total }) : ""}</span>
      <small class="muted">${t("web.table.arrow_hint")}</small>
    </div>
    <p id="replay-error" class="error" role="alert">${state.error}</p>
    <div id="board">${state.views ? Object.entries(state.views).map(([who, view]) => html`<${SeatPanel} who=${who} view=${view} key=${who} />`) : null}</div>
    <section class="panel"><h2>${t("web.ui.log")}</h2>
      ${data && !lines.length ? html`<p class="muted" id="log-empty">${t("web.ui.replay_log_empty")}</p>` : null}
      <ol id="log" class="log" tabindex="0" aria-label=${t("web.ui.log")}>${lines.map((line, i) => html`<li key=${i}>${renderMessage(line, names)}</li>`)}</ol>
    </section>
    <p><a href=${`/t/${tableId}`}>${t("web.ui.back_to_table")}</a></p>`;
}

function draw() {
  if (!state.info) return;
  render(html`<${App} />`, document.getElementById("main"));
  document.title = `${t("web.ui.replay")} · ${t(`${state.info.domain}.title`)} — tabletrek`;
  const log = document.getElementById("log");
  if (log) log.scrollTop = log.scrollHeight;
}

document.addEventListener("keydown", (e) => {
  if (!state.data || ["INPUT", "SELECT", "TEXTAREA"].includes(e.target.tagName)) return;
  const moves = { ArrowRight: 1, ArrowLeft: -1, ArrowDown: 1, ArrowUp: -1 };
  if (e.key in moves) go(state.step + moves[e.key]);
  else if (e.key === "Home") go(0);
  else if (e.key === "End") go(state.data.total);
  else return;
  e.preventDefault();
});

async function start(lang) {
  installTips();
  const [ok, info] = await fetchJson(`/api/tables/${encodeURIComponent(tableId)}`);
  if (!(await loadCatalogs(lang, ok ? [info.domain] : []))) return; // another language was chosen since
  renderHeader(start);
  if (!ok) {
    render(html`<${Failure} body=${info} retry=${() => start(currentLang())} />`, document.getElementById("main"));
    return;
  }
  state.info = info;
  state.module = await loadModule(plainView() ? null : info.ui);
  if (state.data || (await load())) show();
  else draw();
}

start(storedLang());
