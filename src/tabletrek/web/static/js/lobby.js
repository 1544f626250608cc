// The lobby: pick a game, seats (people or bots), options and a turn clock; list recent tables.
import { el, clear } from "./dom.js";
import { renderHeader, nickname } from "./header.js";
import { loadCatalogs, storedLang, t } from "./i18n.js";

let games = [];

async function start(lang) {
  const info = await (await fetch("/api/games")).json();
  games = info.games;
  await loadCatalogs(lang, games.map((g) => g.domain));
  document.title = `tabletrek — ${t("web.ui.lobby")}`;
  renderHeader(start);
  const main = clear(document.getElementById("main"));
  const form = el("form", { id: "create", class: "panel" });
  main.append(el("h1", {}, t("web.ui.new_table")), form, el("h2", {}, t("web.ui.recent")), el("div", { id: "recent" }));
  renderForm(form, games[0].name);
  renderRecent();
}

function renderForm(form, gameName, playerCount = null) {
  clear(form);
  const game = games.find((g) => g.name === gameName);
  const players = playerCount && game.player_counts.includes(playerCount) ? playerCount : game.default_players;
  const gameSelect = el(
    "select",
    { id: "game", onchange: (e) => renderForm(form, e.target.value) },
    games.map((g) => el("option", { value: g.name, selected: g.name === gameName }, t(`${g.domain}.title`))),
  );
  const countSelect = el(
    "select",
    { id: "players", onchange: (e) => renderForm(form, gameName, Number(e.target.value)) },
    game.player_counts.map((n) => el("option", { value: n, selected: n === players }, String(n))),
  );
  const seats = el("div", { class: "seats" });
  for (let s = 0; s < players; s++) {
    const choices = [el("option", { value: "human", selected: s === 0 }, t("web.ui.human"))];
    for (const bot of game.bots) {
      choices.push(el("option", { value: `bot:${bot}`, selected: s > 0 && bot === game.bots[game.bots.length - 1] }, t("web.ui.bot", { bot })));
    }
    const settings = el("input", { class: "bot-settings", name: `params${s}`, placeholder: t("web.ui.bot_settings"), "aria-label": t("web.ui.bot_settings") });
    seats.append(el("div", { class: "seat" }, el("label", {}, t("core.seat", { n: s + 1 }), " ", el("select", { name: `seat${s}`, "data-seat": s }, choices)), " ", settings));
  }
  const options = el("div", { class: "options" });
  for (const opt of game.options) {
    let input;
    if (opt.kind === "bool") input = el("input", { type: "checkbox", name: `opt_${opt.name}`, checked: opt.default === true });
    else if (opt.choices) input = el("select", { name: `opt_${opt.name}` }, opt.choices.map((c) => el("option", { value: JSON.stringify(c), selected: c === opt.default }, String(c))));
    else input = el("input", { type: opt.kind === "int" || opt.kind === "float" ? "number" : "text", name: `opt_${opt.name}`, value: opt.default ?? "", min: opt.minimum, max: opt.maximum, step: opt.kind === "float" ? "any" : null });
    input.dataset.kind = opt.kind;
    input.dataset.option = opt.name;
    options.append(el("label", { class: "option" }, input, " ", el("span", { class: "optname" }, opt.name), el("small", {}, t(opt.help))));
  }
  const clock = el("input", { type: "number", id: "clock", min: 0, max: 86400, value: 0 });
  const error = el("p", { id: "create-error", class: "error", role: "alert" });
  form.append(
    el("label", {}, t("web.ui.game"), " ", gameSelect),
    el("label", {}, t("web.ui.players"), " ", countSelect),
    el("fieldset", {}, el("legend", {}, t("web.ui.seats")), seats),
    game.options.length ? el("fieldset", {}, el("legend", {}, t("web.ui.options")), options) : null,
    el("label", {}, t("web.ui.clock"), " ", clock),
    el("p", {}, el("a", { href: `/rules/${game.name}`, target: "_blank" }, t("web.ui.rules"))),
    el("button", { type: "submit", id: "create-table" }, t("web.ui.create")),
    error,
  );
  form.onsubmit = async (e) => {
    e.preventDefault();
    const spec = { game: game.name, players, options: {}, seats: [], nickname: nickname() || null };
    for (const box of seats.querySelectorAll(".seat")) {
      const value = box.querySelector("select").value;
      const params = parseSettings(box.querySelector(".bot-settings").value);
      spec.seats.push(value === "human" ? { kind: "human" } : { kind: "bot", bot: value.slice(4), params });
    }
    for (const input of options.querySelectorAll("[data-option]")) {
      const kind = input.dataset.kind;
      let value;
      if (kind === "bool") value = input.checked;
      else if (input.tagName === "SELECT") value = JSON.parse(input.value);
      else if (kind === "int") value = input.value === "" ? null : parseInt(input.value, 10);
      else if (kind === "float") value = input.value === "" ? null : parseFloat(input.value);
      else value = input.value;
      spec.options[input.dataset.option] = value;
    }
    const seconds = Number(clock.value);
    if (seconds > 0) spec.clock = seconds;
    const resp = await fetch("/api/tables", { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(spec) });
    const body = await resp.json();
    if (!resp.ok) {
      error.textContent = t(body.key, body.args || {});
      return;
    }
    const seatsOwned = Object.keys(body.tokens).map(Number).sort((a, b) => a - b);
    const mine = seatsOwned.length ? body.tokens[String(seatsOwned[0])] : null;
    localStorage.setItem(`tt.table.${body.table}`, JSON.stringify({ token: mine, host: body.host, invites: body.invites }));
    location.href = `/t/${body.table}`;
  };
}

/** "iterations=400 c=0.7" -> {iterations: 400, c: 0.7}: a bot's level or settings, checked by the server. */
export function parseSettings(text) {
  const params = {};
  for (const pair of text.split(/[\s,]+/).filter(Boolean)) {
    const [key, ...rest] = pair.split("=");
    const raw = rest.join("=");
    if (!key || !rest.length) continue;
    if (/^(true|false)$/i.test(raw)) params[key] = raw.toLowerCase() === "true";
    else if (/^-?\d+$/.test(raw)) params[key] = parseInt(raw, 10);
    else if (/^-?\d*\.\d+$/.test(raw)) params[key] = parseFloat(raw);
    else params[key] = raw;
  }
  return params;
}

async function renderRecent() {
  const box = clear(document.getElementById("recent"));
  const { tables } = await (await fetch("/api/tables")).json();
  const names = Object.fromEntries(games.map((g) => [g.name, g.domain]));
  if (!tables.length) box.append(el("p", {}, t("web.ui.no_tables")));
  const list = el("ul", { class: "tables" });
  for (const row of tables) {
    const title = names[row.game] ? t(`${names[row.game]}.title`) : row.game;
    list.append(
      el(
        "li",
        {},
        el("a", { href: `/t/${row.id}` }, `${title} · ${t("web.ui.n_players", { n: row.players })}`),
        " ",
        el("span", { class: "status" }, t(`web.ui.status_${row.status}`)),
        " ",
        el("a", { href: `/replay/${row.id}` }, t("web.ui.replay")),
      ),
    );
  }
  box.append(list);
}

start(storedLang());
