// The lobby: pick a game, seats (people or bots, by name and level), options in people's words with
// a one-line description each (the raw settings in an Advanced section), open tables, recent tables.
import { el, clear } from "./dom.js";
import { renderHeader, nickname } from "./header.js";
import { loadCatalogs, storedLang, currentLang, t, gameLabel, botLabel } from "./i18n.js";
import { readObject, tableHref, tableKey } from "./store.js";
import { failure, reason, requestJson } from "./api.js";

let games = [];

/** Levels for the search bot: its budget per move. */
const LEVELS = { quick: { iterations: 100 }, normal: {}, strong: { iterations: 1000 } };

async function start(lang) {
  const [ok, info] = await requestJson("/api/games");
  games = ok && Array.isArray(info.games) ? info.games : [];
  if (!(await loadCatalogs(lang, games.map((g) => g.domain)))) return; // another language was chosen since
  // A change of language redraws the lobby: the game and player count being set up stay chosen.
  // Read once the catalogs are in, not before: a pick made while they loaded (or by a draw that
  // finished meanwhile, such as the first one when the language changes at once) is kept.
  const chosen = document.getElementById("game")?.value;
  const count = Number(document.getElementById("players")?.value) || null;
  const before = document.getElementById("create");
  const kept = before ? formState(before, true) : null;
  document.title = `tabletrek — ${t("web.ui.lobby")}`;
  renderHeader(start);
  const main = clear(document.getElementById("main"));
  if (!ok) {
    main.append(failure(info, () => start(currentLang()), { home: false }));
    return;
  }
  const form = el("form", { id: "create", class: "panel" });
  // what the reader set by hand is carried over a redraw; what they left alone takes the new
  // defaults (a word pack follows the language), so only those fields are marked
  const touch = (e) => {
    if (e.target instanceof HTMLElement) e.target.dataset.touched = "1";
  };
  form.addEventListener("input", touch);
  form.addEventListener("change", touch);
  main.append(
    el("h1", {}, t("web.ui.new_table")),
    form,
    el("h2", {}, t("web.lobby.open_tables")),
    el("div", { id: "open-tables" }),
    el("h2", {}, t("web.ui.recent")),
    el("div", { id: "recent" }),
  );
  const gameName = games.some((g) => g.name === chosen) ? chosen : games[0].name;
  renderForm(form, gameName, count, gameName === chosen ? kept : null);
  renderTables();
}

function optionLabel(domain, name) {
  return gameLabel(domain, `lobby.option.${name}`, name.replace(/_/g, " "));
}

function choiceLabel(domain, name, value) {
  return gameLabel(domain, `lobby.choice.${name}_${value}`, String(value));
}

/** Fields that mean the same whatever the game: kept when another game is picked. */
const TABLE_WIDE = new Set(["clock", "public", "seed"]);

function fieldKey(input) {
  return input.name || input.id;
}

/** What the reader has set on the form by hand (by field name) and whether Advanced is open. */
function formState(form, sameGame) {
  const fields = {};
  for (const input of form.querySelectorAll("input[data-touched], select[data-touched]")) {
    const key = fieldKey(input);
    if (key === "game" || key === "players" || (!sameGame && !TABLE_WIDE.has(key))) continue;
    fields[key] = input.type === "checkbox" ? input.checked : input.value;
  }
  return { fields, open: Boolean(form.querySelector("#advanced")?.open) };
}

/** Put a kept state back on a fresh form. A seat's pick waits in `row.keep` for its options. */
function restoreState(form, state, seatRows) {
  form.querySelector("#advanced").open = state.open;
  for (const row of seatRows) if (row.select.name in state.fields) row.keep = state.fields[row.select.name];
  for (const input of form.querySelectorAll("input, select")) {
    const key = fieldKey(input);
    if (!(key in state.fields) || input.dataset.seat !== undefined) continue;
    const value = state.fields[key];
    if (input.type === "checkbox") input.checked = value;
    else if (input.tagName === "SELECT" && ![...input.options].some((o) => o.value === value)) continue;
    else input.value = value;
    input.dataset.touched = "1";
  }
}

function renderForm(form, gameName, playerCount = null, kept = null) {
  clear(form);
  const game = games.find((g) => g.name === gameName);
  const players = playerCount && game.player_counts.includes(playerCount) ? playerCount : game.default_players;
  let bots = game.bots;
  let defaultBot = bots[bots.length - 1];
  const gameSelect = el(
    "select",
    { id: "game", onchange: (e) => renderForm(form, e.target.value, null, formState(form, false)) },
    games.map((g) => el("option", { value: g.name, selected: g.name === gameName }, t(`${g.domain}.title`))),
  );
  const countSelect = el(
    "select",
    { id: "players", onchange: (e) => renderForm(form, gameName, Number(e.target.value), formState(form, true)) },
    game.player_counts.map((n) => el("option", { value: n, selected: n === players }, String(n))),
  );
  const seats = el("div", { class: "seats" });
  const raw = el("div", { class: "raw-settings" });
  const seatRows = [];
  for (let s = 0; s < players; s++) {
    const select = el("select", { name: `seat${s}`, "data-seat": s, id: `seat${s}` });
    const level = el(
      "select",
      { name: `level${s}`, class: "level", "aria-label": t("web.ui.labelled", { label: t("core.seat", { n: s + 1 }), text: t("web.lobby.level") }) },
      Object.keys(LEVELS).map((name) => el("option", { value: name, selected: name === "normal" }, t(`web.lobby.level_${name}`))),
    );
    const levelBox = el("label", { class: "level-box" }, t("web.lobby.level"), " ", level);
    const settings = el("input", { class: "bot-settings", name: `params${s}`, placeholder: t("web.ui.bot_settings"), "aria-label": t("web.ui.labelled", { label: t("core.seat", { n: s + 1 }), text: t("web.ui.bot_settings") }) });
    const row = { select, level, levelBox, settings, seat: s };
    seatRows.push(row);
    select.addEventListener("change", () => showLevel(row));
    seats.append(el("div", { class: "seat" }, el("label", { for: `seat${s}` }, t("core.seat", { n: s + 1 })), " ", select, " ", levelBox));
    raw.append(el("label", { class: "raw" }, t("web.ui.labelled", { label: t("core.seat", { n: s + 1 }), text: "" }), settings));
  }
  const fillSeats = () => {
    for (const row of seatRows) {
      const before = row.keep ?? row.select.value;
      clear(row.select);
      row.select.append(el("option", { value: "human" }, t("web.ui.human")));
      for (const bot of bots) row.select.append(el("option", { value: `bot:${bot}` }, t("web.ui.bot", { bot: botLabel(game.domain, bot) })));
      const wanted = before && [...row.select.options].some((o) => o.value === before) ? before : row.seat === 0 ? "human" : `bot:${defaultBot}`;
      row.select.value = wanted;
      if (row.keep !== undefined && wanted === row.keep) {
        row.select.dataset.touched = "1";
        row.keep = undefined;
      }
      showLevel(row);
    }
  };
  const options = el("div", { class: "options" });
  const advanced = el("div", { class: "options-raw" });
  const langDefaults = (game.lang_defaults || {})[currentLang()] || {};
  for (const opt of game.options) {
    let input;
    // the default in the reader's language where the game has one (a word pack), else the game's
    const byDefault = Object.prototype.hasOwnProperty.call(langDefaults, opt.name) ? langDefaults[opt.name] : opt.default;
    const known = opt.choices;
    const id = `opt_${opt.name}`;
    if (opt.kind === "bool") input = el("input", { type: "checkbox", id, name: id, checked: byDefault === true });
    else if (known) input = el("select", { id, name: id }, known.map((c) => el("option", { value: JSON.stringify(c), selected: c === byDefault }, choiceLabel(game.domain, opt.name, c))));
    else input = el("input", { id, type: opt.kind === "int" || opt.kind === "float" ? "number" : "text", name: id, value: byDefault ?? "", min: opt.minimum, max: opt.maximum, step: opt.kind === "float" ? "any" : null, placeholder: opt.nullable ? t("web.lobby.default") : null });
    input.dataset.kind = opt.kind;
    input.dataset.option = opt.name;
    input.addEventListener("change", refreshBots);
    const about = gameLabel(game.domain, `lobby.about.${opt.name}`, t(opt.help));
    const line = el("div", { class: "option" }, el("label", { for: id }, opt.kind === "bool" ? input : null, " ", el("span", { class: "optname" }, optionLabel(game.domain, opt.name)), opt.kind === "bool" ? null : " "), opt.kind === "bool" ? null : input, el("small", {}, about));
    options.append(line);
    advanced.append(el("p", { class: "raw-option" }, el("code", {}, opt.name), ": ", t(opt.help)));
  }
  async function refreshBots() {
    const chosen = { players, ...readOptions(options) };
    try {
      const resp = await fetch(`/api/games/${encodeURIComponent(game.name)}/bots?options=${encodeURIComponent(JSON.stringify(chosen))}`);
      if (!resp.ok) return; // the create button will say what is wrong with these options
      const body = await resp.json();
      bots = body.bots;
      defaultBot = body.default;
      fillSeats();
      for (const row of seatRows) row.keep = undefined; // a kept bot not offered for these options is gone
    } catch (err) {
      // offline: keep the list as it is
    }
  }
  const clock = el("input", { type: "number", id: "clock", min: 0, max: 86400, value: 0 });
  // private by default: only the links find the table; public lists it under the open tables
  const isPublic = el("input", { type: "checkbox", id: "public" });
  // a chosen seed is for practice only (nobody else at the table to deceive): the server refuses it otherwise
  const seed = el("input", { type: "number", id: "seed", min: 0, step: 1, placeholder: t("web.lobby.default") });
  const error = el("p", { id: "create-error", class: "error", role: "alert" });
  form.append(
    el("label", {}, t("web.ui.game"), " ", gameSelect),
    el("label", {}, t("web.ui.players"), " ", countSelect),
    el("fieldset", {}, el("legend", {}, t("web.ui.seats")), seats),
    game.options.length ? el("fieldset", {}, el("legend", {}, t("web.ui.options")), options) : null,
    el("label", {}, t("web.ui.clock"), " ", clock),
    el("div", { class: "option" }, el("label", { for: "public" }, isPublic, " ", el("span", { class: "optname" }, t("web.lobby.public"))), el("small", {}, t("web.lobby.public_about"))),
    el("p", { class: "muted" }, t("web.lobby.practice_about")),
    el("details", { class: "advanced", id: "advanced" }, el("summary", {}, t("web.lobby.advanced")), el("h3", {}, t("web.lobby.raw_settings")), raw, advanced,
      el("label", {}, t("web.lobby.seed"), " ", seed)),
    el("p", {}, el("a", { href: `/rules/${game.name}`, target: "_blank" }, t("web.ui.rules"))),
    el("button", { type: "submit", id: "create-table" }, t("web.ui.create")),
    error,
  );
  if (kept) restoreState(form, kept, seatRows);
  fillSeats();
  refreshBots();
  form.onsubmit = async (e) => {
    e.preventDefault();
    const spec = { game: game.name, players, options: readOptions(options), seats: [], nickname: nickname() || null };
    for (const row of seatRows) {
      const value = row.select.value;
      if (value === "human") {
        spec.seats.push({ kind: "human" });
        continue;
      }
      const bot = value.slice(4);
      const params = bot === "ismcts" ? { ...LEVELS[row.level.value] } : {};
      Object.assign(params, parseSettings(row.settings.value)); // the Advanced settings win
      spec.seats.push({ kind: "bot", bot, params });
    }
    const seconds = Number(clock.value);
    if (seconds > 0) spec.clock = seconds;
    if (isPublic.checked) spec.public = true;
    if (seed.value !== "") spec.seed = parseInt(seed.value, 10);
    const [created, body] = await requestJson("/api/tables", { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(spec) });
    if (!created) {
      error.textContent = reason(body);
      return;
    }
    const seatsOwned = Object.keys(body.tokens).map(Number).sort((a, b) => a - b);
    const mine = seatsOwned.length ? body.tokens[String(seatsOwned[0])] : null;
    location.href = tableHref(body.table, { token: mine, host: body.host, invites: body.invites });
  };
}

function showLevel(row) {
  row.levelBox.hidden = row.select.value !== "bot:ismcts";
}

function readOptions(box) {
  const out = {};
  for (const input of box.querySelectorAll("[data-option]")) {
    const kind = input.dataset.kind;
    let value;
    if (kind === "bool") value = input.checked;
    else if (input.tagName === "SELECT") value = JSON.parse(input.value);
    else if (kind === "int") value = input.value === "" ? null : parseInt(input.value, 10);
    else if (kind === "float") value = input.value === "" ? null : parseFloat(input.value);
    else value = input.value;
    out[input.dataset.option] = value;
  }
  return out;
}

/** "iterations=400 c=0.7" -> {iterations: 400, c: 0.7}: a bot's level or settings, checked by the server.
 * On and off are read as the terminal reads them (core.options.parse_option_value): true, yes, on
 * and false, no, off; "paired=no" used to reach the server as the word "no", which it read as on. */
export function parseSettings(text) {
  const params = {};
  for (const pair of text.split(/[\s,]+/).filter(Boolean)) {
    const [key, ...rest] = pair.split("=");
    const raw = rest.join("=");
    if (!key || !rest.length) continue;
    if (/^(true|yes|on)$/i.test(raw)) params[key] = true;
    else if (/^(false|no|off)$/i.test(raw)) params[key] = false;
    else if (/^-?\d+$/.test(raw)) params[key] = parseInt(raw, 10);
    else if (/^-?\d*\.\d+$/.test(raw)) params[key] = parseFloat(raw);
    else params[key] = raw;
  }
  return params;
}

function freeSeats(row) {
  // GET /api/tables lists each public table's open seats by number
  return Array.isArray(row.open_seats) ? row.open_seats.length : 0;
}

/** Join a public table: claim its first open seat for a token only this browser holds. */
async function join(row, button) {
  const [ok, body] = await requestJson(`/api/tables/${encodeURIComponent(row.id)}/claim`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ seat: row.open_seats[0] }),
  });
  if (!ok) {
    button.after(el("span", { class: "error", role: "alert" }, ` ${reason(body)}`));
    renderTables(); // someone else took it: the list changed
    return;
  }
  const entry = readObject(tableKey(row.id));
  entry.token = body.token;
  location.href = tableHref(row.id, entry);
}

async function renderTables() {
  const recent = clear(document.getElementById("recent"));
  const open = clear(document.getElementById("open-tables"));
  let tables = [];
  try {
    const body = await (await fetch("/api/tables")).json();
    tables = Array.isArray(body.tables) ? body.tables : [];
  } catch (err) {
    tables = [];
  }
  const names = Object.fromEntries(games.map((g) => [g.name, g.domain]));
  const title = (row) => (names[row.game] ? t(`${names[row.game]}.title`) : String(row.game));
  const waiting = tables.filter((row) => row.status !== "over" && freeSeats(row) > 0);
  if (!waiting.length) open.append(el("p", { class: "muted" }, t("web.lobby.no_open")));
  else {
    open.append(
      el("ul", { class: "tables", id: "open-list" }, waiting.map((row) =>
        el("li", {}, `${title(row)} · ${t("web.ui.n_players", { n: row.players })} · ${t("web.lobby.free_seats", { n: freeSeats(row) })} `,
          el("button", { type: "button", class: "join", "data-table": row.id, onclick: (e) => join(row, e.target) }, t("web.lobby.join")), " ",
          el("a", { href: `/t/${row.id}#watch`, class: "button-link secondary" }, t("web.lobby.watch"))),
      )),
    );
  }
  if (!tables.length) recent.append(el("p", {}, t("web.ui.no_tables")));
  const list = el("ul", { class: "tables" });
  for (const row of tables) {
    list.append(
      el(
        "li",
        {},
        el("a", { href: `/t/${row.id}` }, `${title(row)} · ${t("web.ui.n_players", { n: row.players })}`),
        " ",
        el("span", { class: "status" }, t(`web.ui.status_${row.status}`)),
        " ",
        el("a", { href: `/replay/${row.id}` }, t("web.ui.replay")),
      ),
    );
  }
  recent.append(list);
}

start(storedLang());
