// Step through a table's game from one seat's view, the public view, or all of it once it is over.
import { el, clear } from "./dom.js";
import { renderHeader } from "./header.js";
import { loadCatalogs, storedLang, t, render as renderMessage, currentLang } from "./i18n.js";
import { loadModule, plainView } from "./modules.js";
import * as generic from "../games/generic.js";

const tableId = decodeURIComponent(location.pathname.split("/").pop());
const saved = JSON.parse(localStorage.getItem(`tt.table.${tableId}`) || "{}");
let module = generic;
let data = null;
let viewer = new URLSearchParams(location.search).get("viewer") || "public";
let step = 0;

async function fetchJson(url) {
  const headers = saved.token ? { "x-seat-token": saved.token } : {};
  const resp = await fetch(url, { headers });
  return [resp.ok, await resp.json()];
}

async function load() {
  const [ok, body] = await fetchJson(`/api/tables/${encodeURIComponent(tableId)}/replay?viewer=${viewer}`);
  const box = document.getElementById("replay-error");
  if (!ok) {
    box.textContent = t(body.key, body.args);
    return false;
  }
  box.textContent = "";
  data = body;
  return true;
}

async function show() {
  const [ok, body] = await fetchJson(`/api/tables/${encodeURIComponent(tableId)}/replay/${step}?viewer=${viewer}`);
  const board = clear(document.getElementById("board"));
  if (!ok) {
    board.append(el("p", { class: "error" }, t(body.key, body.args)));
    return;
  }
  document.getElementById("step").textContent = t("web.ui.step", { step, total: data.total });
  document.getElementById("slider").value = step;
  for (const [who, view] of Object.entries(body.views)) {
    const seat = who === "public" ? null : Number(who);
    const part = el("section", { class: "panel board" }, el("h2", {}, seat === null ? t("web.ui.public_view") : data.names[seat]));
    const inner = el("div", {});
    part.append(inner);
    const ctx = { view, legal: [], you: seat, names: data.names, t, act: () => {}, over: false, table: data.table, lang: currentLang() };
    try {
      module.render(inner, ctx);
    } catch (err) {
      generic.render(inner, ctx);
    }
    board.append(part);
  }
  const log = clear(document.getElementById("log"));
  for (const entry of data.steps.slice(0, step)) for (const line of entry.log) log.append(el("li", {}, renderMessage(line, data.names)));
  log.scrollTop = log.scrollHeight;
}

async function start(lang) {
  const [ok, info] = await fetchJson(`/api/tables/${encodeURIComponent(tableId)}`);
  await loadCatalogs(lang, ok ? [info.domain] : []);
  renderHeader(start);
  const main = clear(document.getElementById("main"));
  if (!ok) {
    main.append(el("p", { class: "error" }, t(info.key, info.args)));
    return;
  }
  module = await loadModule(info.game, info.ui && !plainView());
  const select = el("select", { id: "viewer", onchange: async (e) => { viewer = e.target.value; if (await load()) { step = Math.min(step, data.total); show(); } } },
    el("option", { value: "public" }, t("web.ui.public_view")),
    info.seats.map((s) => el("option", { value: String(s.seat) }, t("core.seat", { n: s.seat + 1 }))),
    el("option", { value: "all" }, t("web.ui.everything")),
  );
  select.value = viewer;
  const slider = el("input", { type: "range", id: "slider", min: 0, max: 0, value: 0, oninput: (e) => { step = Number(e.target.value); show(); } });
  const go = (delta) => () => { step = Math.max(0, Math.min(data.total, step + delta)); show(); };
  main.append(
    el("h1", {}, t("web.ui.replay"), " · ", t(`${info.domain}.title`)),
    el("div", { class: "replay-controls panel" },
      el("label", {}, t("web.ui.viewer"), " ", select),
      el("button", { id: "first", onclick: () => { step = 0; show(); } }, "|◀"),
      el("button", { id: "prev", onclick: go(-1) }, "◀"),
      el("button", { id: "next", onclick: go(1) }, "▶"),
      el("button", { id: "last", onclick: () => { step = data.total; show(); } }, "▶|"),
      slider,
      el("span", { id: "step" }),
    ),
    el("p", { id: "replay-error", class: "error", role: "alert" }),
    el("div", { id: "board" }),
    el("section", { class: "panel" }, el("h2", {}, t("web.ui.log")), el("ol", { id: "log", class: "log" })),
    el("p", {}, el("a", { href: `/t/${tableId}` }, t("web.ui.back_to_table"))),
  );
  if (await load()) {
    slider.max = data.total;
    show();
  }
}

start(storedLang());
